/* The flit engine's presets and the parsing of its parameters with them
 * (flit_preset.h). */
#include <stdio.h>
#include <string.h>

#include "flit_preset.h"

struct flit_preset {
	const char *name, *help;
	const char *kvs;       /* every machine */
	const char *torus_kvs; /* tori: overrides kvs */
	const char *tree_kvs;  /* k-ary n-trees: overrides kvs */
};

/* BookSim 2's input-queued router with its defaults: routing, VC
 * allocation, switch allocation and switch traversal of one cycle each
 * (router_delay 4), 1-cycle channels (2 on its tori), 1-cycle injection and
 * ejection channels (our node links) and one cycle from the source queue,
 * so zero-load latency is 7 + 5H over H router hops; wormhole, 4 VCs of 8
 * flits, iSLIP switch allocation, routing and VC allocation per packet
 * (pipeline=packet: iq_router's VC states idle, routing, vc_alloc,
 * active) with its iSLIP VC allocator (vc_alloc=islip), on tori its
 * dim_order_torus (ties either way at random, VC halves fixed per
 * dimension: routing=random, deadlock=partition), and on k-ary n-trees its
 * nca_fattree routing (a random up link at each up hop). INSEE's virtual
 * cut-through router: one cycle per hop, nodes at their routers without
 * injection or consumption delay (latency H + P - 1), 2 VCs of 16 phits
 * (the transit queues the INSEE figures of issue 8 correspond to: all nine
 * within 0.7%, where the 8 phits of its "tql 2" with 4-phit packets give
 * +14% at 0.4; README; traces are replayed in 4-phit packets), one crossbar input per VC, each
 * output serving one packet at a time, a VC kept within a dimension and drawn afresh at each
 * request to enter one (FSIN's bubble_oblivious request: vc_pick=dimension), bubble flow control on
 * tori (its default, with its check_restrictions' test of the router's own queue: bubble_at=local),
 * and for synthetic traffic a source of 6 packets (its injection buffer of 4 and injection queue of
 * 2: a packet generated while they are full waits with the generator, and its latency counts from
 * when it enters: source_queue=6). On k-ary n-trees FSIN's nodes are elements of their own, a link
 * away from their switches (its average distance on a 4-ary 3-tree is 342/63 = 5.43 links:
 * node_link_delay=1), and its routing there picks at every hop, of the VCs of the links one hop
 * closer, the least occupied queue (routing=fsin): 1- and 4-phit uniform traffic on the 4-ary
 * 3-tree within 3% of FSIN's latency up to 0.7 of capacity (README). */
static const struct flit_preset presets[] = {
    {"booksim", "BookSim 2's default input-queued router",
     "vcs=4,buf=8,router_delay=4,link_delay=1,node_link_delay=1,inject_delay=1,eject_delay=0,"
     "switching=wormhole,crossbar=port,alloc=islip,hold=flit,pipeline=packet,vc_alloc=islip",
     "link_delay=2,routing=random,deadlock=partition", "routing=random"},
    {"insee", "INSEE's virtual cut-through router, one cycle per hop",
     "vcs=2,buf=16,router_delay=0,link_delay=1,node_link_delay=0,inject_delay=0,eject_delay=0,"
     "switching=vct,crossbar=vc,alloc=output,hold=packet,packet_flits=4,vc_pick=dimension,"
     "source_queue=6",
     "deadlock=bubble,bubble_at=local", "node_link_delay=1,routing=fsin"},
};
enum { NPRESETS = sizeof presets / sizeof *presets };

void net_flit_presets_help(FILE *f)
{
	fprintf(f, "flit engine presets (--preset NAME or --engine flit:preset=NAME):\n");
	for (int i = 0; i < NPRESETS; i++)
		fprintf(f, "  %-8s %s: %s%s%s%s%s\n", presets[i].name, presets[i].help,
		        presets[i].kvs, presets[i].torus_kvs ? "; on tori " : "",
		        presets[i].torus_kvs ? presets[i].torus_kvs : "",
		        presets[i].tree_kvs ? "; on k-ary n-trees " : "",
		        presets[i].tree_kvs ? presets[i].tree_kvs : "");
}

/* Whether "key=" (the key ending at '=') occurs as a key in kvs. */
static int has_key(const char *kvs, const char *key, size_t klen)
{
	for (const char *t = kvs; t && *t;) {
		const char *comma = strchr(t, ',');
		size_t len = comma ? (size_t)(comma - t) : strlen(t);
		if (len > klen && t[klen] == '=' && strncmp(t, key, klen) == 0)
			return 1;
		t = comma ? comma + 1 : NULL;
	}
	return 0;
}

/* Appends to out the tokens of src whose keys are in neither a nor b. */
static int append_missing(char *out, size_t cap, const char *src, const char *a, const char *b)
{
	for (const char *t = src; t && *t;) {
		const char *comma = strchr(t, ',');
		size_t len = comma ? (size_t)(comma - t) : strlen(t);
		const char *eq = memchr(t, '=', len);
		size_t klen = eq ? (size_t)(eq - t) : len;
		if (!has_key(a, t, klen) && !has_key(b, t, klen)) {
			size_t used = strlen(out);
			if (used + len + 2 > cap)
				return -1;
			snprintf(out + used, cap - used, "%s%.*s", used ? "," : "", (int)len, t);
		}
		t = comma ? comma + 1 : NULL;
	}
	return 0;
}

int net_flit_params_parse(const char *kvs, const char *preset, const struct plat_machine *m,
                          struct cmn_params *cp, struct flit_params *p, struct cmn_err *e)
{
	if (cmn_params_parse(net_flit_param_defs, kvs, cp, e))
		return e->code;
	const char *named = cmn_params_str(cp, "preset");
	if (preset && strcmp(named, "none") != 0 && strcmp(named, preset) != 0)
		return cmn_err_set(e, CMN_EUSAGE, "presets %s and %s both given", preset, named);
	if (!preset)
		preset = named;
	if (strcmp(preset, "none") != 0) {
		const struct flit_preset *ps = NULL;
		for (int i = 0; i < NPRESETS; i++)
			if (strcmp(presets[i].name, preset) == 0)
				ps = &presets[i];
		if (!ps)
			return cmn_err_set(
			    e, CMN_EUSAGE,
			    "unknown flit engine preset '%s' (known: booksim, insee)", preset);
		int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS], torus = 0, k, levels;
		struct cmn_err ignore;
		if (m && !plat_grid_shape(m, &nd, dims, wrap, &ignore))
			for (int d = 0; d < nd; d++)
				torus |= wrap[d];
		const char *tk = torus ? ps->torus_kvs
		                 : m && !plat_kary_ntree_shape(m, &k, &levels, &ignore)
		                     ? ps->tree_kvs
		                     : NULL;
		char merged[1024] = "";
		/* the user's keys, the torus or tree overrides, then the rest of the preset */
		if (append_missing(merged, sizeof merged, kvs, "preset=x", NULL) ||
		    append_missing(merged, sizeof merged, tk, kvs, NULL) ||
		    append_missing(merged, sizeof merged, ps->kvs, kvs, tk))
			return cmn_err_set(e, CMN_EUSAGE, "flit engine parameters too long");
		size_t used = strlen(merged);
		snprintf(merged + used, sizeof merged - used, "%spreset=%s", used ? "," : "",
		         ps->name);
		if (cmn_params_parse(net_flit_param_defs, merged, cp, e))
			return e->code;
	}
	net_flit_params_from(cp, p);
	return 0;
}

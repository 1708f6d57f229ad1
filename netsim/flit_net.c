/* The flit-level network (flit_net.h). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/checked.h"
#include "flit_internal.h"

void flit_params_default(struct flit_params *p)
{
	*p = (struct flit_params){.vcs = 4,
	                          .buf = 8,
	                          .router_delay = 1,
	                          .link_delay = 1,
	                          .node_link_delay = 1,
	                          .alloc = FLIT_ALLOC_RR,
	                          .dateline = 1,
	                          .watchdog = 10000,
	                          .flit_bytes = 64,
	                          .packet_flits = 8};
}

const struct cmn_param_def flit_param_defs[] = {
    {"vcs", CMN_PT_INT, "4", 1, 64, NULL, "virtual channels per input port"},
    {"buf", CMN_PT_INT, "8", 1, 1048576, NULL, "flits per virtual channel buffer"},
    {"router_delay", CMN_PT_INT, "1", 0, 1000, NULL,
     "cycles a flit spends in a switch before it can leave"},
    {"link_delay", CMN_PT_INT, "1", 1, 1000000, NULL, "cycles on a switch-to-switch link"},
    {"node_link_delay", CMN_PT_INT, "1", 0, 1000000, NULL,
     "cycles on a node's link to or from its switch (0: the node sits at the switch)"},
    {"inject_delay", CMN_PT_INT, "0", 0, 1000000, NULL,
     "cycles from a packet's creation until it may leave its node"},
    {"eject_delay", CMN_PT_INT, "0", 0, 1000000, NULL,
     "cycles from a tail's ejection until the packet counts as delivered"},
    {"switching", CMN_PT_CHOICE, "wormhole", 0, 0, "wormhole|vct",
     "wormhole, or virtual cut-through (a head moves only with room for its whole packet)"},
    {"crossbar", CMN_PT_CHOICE, "port", 0, 0, "port|vc",
     "a crossbar input per input port (one flit per port and cycle) or per VC"},
    {"alloc", CMN_PT_CHOICE, "rr", 0, 0, "rr|output|islip",
     "switch allocation: rr (inputs in turn, each its first VC that can go), output "
     "(each output grants the next requesting input), islip (one iSLIP iteration)"},
    {"hold", CMN_PT_CHOICE, "flit", 0, 0, "flit|packet",
     "output and islip allocation: an output serves a flit at a time, or keeps serving "
     "one packet until its tail"},
    {"links", CMN_PT_CHOICE, "cycles", 0, 0, "cycles|platform",
     "cycles: link_delay and node_link_delay, a flit per cycle; platform: each link's "
     "latency in cycles and bandwidth (slower links take a flit every few cycles; "
     "deeper buffers keep their rate): wide-area links as long pipelines"},
    {"routing", CMN_PT_CHOICE, "deterministic", 0, 0, "deterministic|adaptive|random|fsin",
     "deterministic: the machine's routes (dimension order, d-mod-k on trees); random: "
     "k-ary n-trees, an up link drawn at random at each up hop (BookSim's nca_fattree), "
     "down deterministic; adaptive: "
     "k-ary n-trees, the least occupied up link (Petrini and Vanneschi), down "
     "deterministic; fsin: k-ary n-trees, INSEE's (FSIN's check_rr_fattree_adaptive): at "
     "every hop, of the VCs of the links one hop closer (every up link, or the one down), "
     "the one whose downstream queue holds the fewest flits, ties drawn at each request"},
    {"deadlock", CMN_PT_CHOICE, "dateline", 0, 0, "dateline|partition|bubble|none",
     "tori: dateline virtual-channel classes (the upper half of the VCs once a packet has "
     "crossed its ring's wraparound link; needs vcs >= 2), partition (BookSim's "
     "dim_order_torus: the half is fixed as a packet turns into a dimension, the upper one "
     "if its coordinate there is above its destination's, i.e. going the + way across the "
     "wraparound link or the - way not across it; plain tori), "
     "bubble flow control (needs vct: entering a ring takes room for two packets; "
     "bubble_at), or none (may deadlock)"},
    {"bubble_at", CMN_PT_CHOICE, "next", 0, 0, "next|local",
     "deadlock=bubble: where a packet entering a ring (from its node or another "
     "dimension) needs room for two packets: next (the VC it enters, at the next router) "
     "or local (FSIN's check_restrictions: this router's own input VC of the same ring "
     "direction and VC index, which the ring's packets pass through here, while the VC "
     "it enters needs room for one)"},
    {"preset", CMN_PT_CHOICE, "none", 0, 0, "none|booksim|insee",
     "another simulator's router timing as defaults (flit_preset.c; explicit keys win)"},
    {"pipeline", CMN_PT_CHOICE, "flit", 0, 0, "flit|packet",
     "flit: every flit leaves a switch router_delay cycles after it arrives; packet "
     "(BookSim's input-queued router): routing and VC allocation per packet, so a head "
     "queued behind another packet in its VC leaves router_delay - 1 cycles after that "
     "packet's tail, and body and tail flits take only switch allocation and traversal, "
     "min(2, router_delay) cycles after arrival"},
    {"vc_alloc", CMN_PT_CHOICE, "switch", 0, 0, "switch|islip",
     "switch: a head takes the first free VC of its output (round-robin per output) as it "
     "wins switch allocation; islip (BookSim's VC allocator, switches only): a head asks "
     "for every free VC of its output one cycle before switch allocation, one iSLIP "
     "iteration over input and output VCs (round-robin pointers per output VC and per "
     "input VC) matches them, and it holds the VC from then until its tail leaves; needs "
     "router_delay >= 1"},
    {"vc_pick", CMN_PT_CHOICE, "first", 0, 0, "first|dimension",
     "first: a head takes the first free VC of its output, round-robin; dimension "
     "(INSEE's bubble_oblivious request): on meshes and tori a packet keeps its VC within "
     "a dimension and, entering one, asks for a VC drawn at random afresh at each request "
     "(other machines: first)"},
    {"source_queue", CMN_PT_INT, "0", 0, 1000000, NULL,
     "synthetic traffic: packets a node holds before the network (its queue, its "
     "injection port and its switch's buffers of its link); a packet generated while they "
     "are full waits, and with it the node's generator, and its latency counts from when "
     "it enters (INSEE's injection buffer); 0: unbounded, latency from generation"},
    {"watchdog", CMN_PT_INT, "10000", 1, 1e9, NULL,
     "cycles without any flit moving, flits in flight, before a deadlock error"},
    {"flit_bytes", CMN_PT_INT, "64", 1, 1048576, NULL,
     "trace replay: bytes per flit; a cycle is flit_bytes / the node links' bandwidth"},
    {"packet_flits", CMN_PT_INT, "8", 1, 1048576, NULL,
     "trace replay: flits per packet (a message's last packet may be shorter)"},
    {"compute", CMN_PT_CHOICE, "flops", 0, 0, "flops|zero",
     "trace replay: compute takes flops / node speed, or no time (INSEE's infinite CPUs)"},
    {NULL},
};

void flit_params_from(const struct cmn_params *cp, struct flit_params *p)
{
	p->vcs = (int)cmn_params_num(cp, "vcs");
	p->buf = (int)cmn_params_num(cp, "buf");
	p->router_delay = (int)cmn_params_num(cp, "router_delay");
	p->link_delay = (int)cmn_params_num(cp, "link_delay");
	p->node_link_delay = (int)cmn_params_num(cp, "node_link_delay");
	p->inject_delay = (int)cmn_params_num(cp, "inject_delay");
	p->eject_delay = (int)cmn_params_num(cp, "eject_delay");
	p->vc_crossbar = strcmp(cmn_params_str(cp, "crossbar"), "vc") == 0;
	p->vc_pipeline = strcmp(cmn_params_str(cp, "pipeline"), "packet") == 0;
	p->hold_packet = strcmp(cmn_params_str(cp, "hold"), "packet") == 0;
	const char *routing = cmn_params_str(cp, "routing");
	p->adaptive = strcmp(routing, "adaptive") == 0 ? 1
	              : strcmp(routing, "random") == 0 ? 2
	              : strcmp(routing, "fsin") == 0   ? 3
	                                               : 0;
	p->platform_links = strcmp(cmn_params_str(cp, "links"), "platform") == 0;
	const char *al = cmn_params_str(cp, "alloc");
	p->alloc = strcmp(al, "islip") == 0    ? FLIT_ALLOC_ISLIP
	           : strcmp(al, "output") == 0 ? FLIT_ALLOC_OUTPUT
	                                       : FLIT_ALLOC_RR;
	p->cut_through = strcmp(cmn_params_str(cp, "switching"), "vct") == 0;
	p->dateline = strcmp(cmn_params_str(cp, "deadlock"), "dateline") == 0    ? 1
	              : strcmp(cmn_params_str(cp, "deadlock"), "partition") == 0 ? 2
	                                                                         : 0;
	p->bubble = strcmp(cmn_params_str(cp, "deadlock"), "bubble") == 0;
	p->bubble_local = strcmp(cmn_params_str(cp, "bubble_at"), "local") == 0;
	p->va_islip = strcmp(cmn_params_str(cp, "vc_alloc"), "islip") == 0;
	p->vc_pick_dim = strcmp(cmn_params_str(cp, "vc_pick"), "dimension") == 0;
	p->source_queue = (int)cmn_params_num(cp, "source_queue");
	p->watchdog = (long)cmn_params_num(cp, "watchdog");
	p->flit_bytes = (int)cmn_params_num(cp, "flit_bytes");
	p->packet_flits = (int)cmn_params_num(cp, "packet_flits");
	p->compute_zero = strcmp(cmn_params_str(cp, "compute"), "zero") == 0;
}

/* The dimension grid machine g's link k runs along (-1: a node's link),
 * and in *span how far apart its ends' coordinates are there. */
static int grid_link_dim(const struct plat_machine *g, const struct plat_link *k, int nd, int *span)
{
	int a[PLAT_MAX_DIMS], b[PLAT_MAX_DIMS], dim = -1;
	*span = 0;
	if (k->src < g->nodes || k->dst < g->nodes)
		return -1;
	plat_coords(g, g->vertices[k->src].index, a);
	plat_coords(g, g->vertices[k->dst].index, b);
	for (int d = 0; d < nd; d++)
		if (a[d] != b[d])
			dim = d, *span = abs(a[d] - b[d]);
	return dim;
}

/* bubble_at=local: for each ring link out of router x, the ring link into
 * x that carries packets the same way (from x's other neighbour in that
 * dimension; -1 for none: rings of two). */
static int mark_ring_prev(struct flit_net *n, struct cmn_err *e)
{
	const struct plat_link *lk = n->m->links;
	if (!(n->lprev = malloc(((size_t)n->nl + 1) * sizeof *n->lprev)))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int l = 0; l < n->nl; l++)
		n->lprev[l] = -1;
	for (int in = 0; in < n->nl; in++) {
		int x = lk[in].dst;
		for (int i = n->out_first[x]; n->ldim[in] >= 0 && i < n->out_first[x + 1]; i++) {
			int out = n->outl[i];
			if (n->ldim[out] == n->ldim[in] && lk[out].dst != lk[in].src)
				n->lprev[out] = in;
		}
	}
	return 0;
}

/* On a torus (datelines or bubbles): each router link's dimension and
 * whether it is a ring's wraparound link (the dateline); the links of
 * nodes and of wide-area networks have none. A multi-cluster machine of
 * tori gets every cluster's ring links marked (cluster c's link i is
 * c x the cluster's link count + i). */
static int mark_datelines(struct flit_net *n, struct cmn_err *e)
{
	const struct plat_machine *m = n->m, *g = m;
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS], any = 0, copies = 1;
	struct cmn_err ignore;
	if (plat_multicluster_shape(m, &copies, NULL, NULL, &ignore) == 0 &&
	    !(g = plat_multicluster_inner(m)))
		return 0; /* flat clusters */
	if (plat_grid_shape(g, &nd, dims, wrap, &ignore))
		return 0; /* not a mesh or torus */
	for (int d = 0; d < nd; d++)
		any |= wrap[d] && dims[d] > 2;
	if (!any)
		return 0;
	if (n->p.dateline == 2 && copies > 1)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: deadlock=partition is for plain tori, not %s",
		                   m->spec);
	if (n->p.dateline && n->p.vcs < 2)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: datelines on %s need vcs >= 2 (or deadlock=none)",
		                   m->spec);
	if (n->p.bubble && !n->p.cut_through)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: bubble flow control on %s needs switching=vct",
		                   m->spec);
	n->ldim = malloc((size_t)n->nl + 1);
	n->lwrap = calloc((size_t)n->nl + 1, 1);
	n->nd = nd;
	n->vco = copies == 1 ? malloc((size_t)n->nv * (size_t)nd * sizeof *n->vco) : NULL;
	if (!n->ldim || !n->lwrap || (copies == 1 && !n->vco))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int v = 0; copies == 1 && v < n->nv; v++) { /* coordinates of switches and nodes */
		int c[PLAT_MAX_DIMS];
		plat_coords(g, g->vertices[v].index, c);
		for (int d = 0; d < nd; d++)
			n->vco[(size_t)v * (size_t)nd + (size_t)d] = c[d];
	}
	memset(n->ldim, -1, (size_t)n->nl + 1);
	for (int l = 0; l < g->nlinks; l++) {
		int span, dim = grid_link_dim(g, &g->links[l], nd, &span);
		int wr = dim >= 0 && wrap[dim] && dims[dim] > 2 && span == dims[dim] - 1;
		for (int c = 0; c < copies; c++) {
			n->ldim[c * g->nlinks + l] = (signed char)dim;
			n->lwrap[c * g->nlinks + l] = (char)wr;
		}
	}
	return n->p.bubble && n->p.bubble_local ? mark_ring_prev(n, e) : 0;
}

/* vc_pick=dimension: each router link's dimension on a plain mesh or torus
 * (other machines keep vc_pick=first: no dimensions). */
static int mark_grid_dims(struct flit_net *n, struct cmn_err *e)
{
	const struct plat_machine *m = n->m;
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS];
	struct cmn_err ignore;
	if (plat_grid_shape(m, &nd, dims, wrap, &ignore))
		return 0;
	if (!(n->ldg = malloc((size_t)n->nl + 1)))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int l = 0; l < n->nl; l++) {
		int span;
		n->ldg[l] = (signed char)grid_link_dim(m, &m->links[l], nd, &span);
	}
	return 0;
}

/* Adaptive routing: hop counts from every vertex to every node (a
 * breadth-first search from each node over the links backwards). */
static int build_dist(struct flit_net *n, struct cmn_err *e)
{
	int k, levels;
	if (plat_kary_ntree_shape(n->m, &k, &levels, e) && !(n->p.adaptive == 2 && n->vco))
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: routing=%s is for k-ary n-trees (up-phase "
		                   "choices, deadlock-free there)%s, not %s",
		                   n->p.adaptive == 2   ? "random"
		                   : n->p.adaptive == 3 ? "fsin"
		                                        : "adaptive",
		                   n->p.adaptive == 2 ? " and plain tori (dimension order, ties "
		                                        "either way)"
		                                      : "",
		                   n->m->spec);
	size_t nv = (size_t)n->nv, nodes = (size_t)n->nodes;
	n->dist = malloc(cmn_size_mul(cmn_size_mul(nv, nodes), sizeof *n->dist));
	n->tie = calloc(nv, sizeof *n->tie);
	n->picked = malloc(((size_t)n->nl + 1) * sizeof *n->picked);
	int *queue = malloc(nv * sizeof *queue);
	if (!n->dist || !n->tie || !n->picked || !queue) {
		free(queue);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < nv * nodes; i++)
		n->dist[i] = USHRT_MAX;
	for (int l = 0; l <= n->nl; l++)
		n->picked[l] = -1;
	for (int t = 0; t < n->nodes; t++) {
		int head = 0, tail = 0;
		n->dist[(size_t)t * nodes + (size_t)t] = 0;
		queue[tail++] = t;
		while (head < tail) {
			int v = queue[head++];
			for (int i = n->port_first[v]; i < n->port_first[v + 1]; i++) {
				int l = n->port[i];
				if (l >= n->nl)
					continue; /* an injection port */
				int u = n->m->links[l].src;
				if (n->dist[(size_t)u * nodes + (size_t)t] == USHRT_MAX) {
					n->dist[(size_t)u * nodes + (size_t)t] =
					    (unsigned short)(n->dist[(size_t)v * nodes +
					                             (size_t)t] +
					                     1);
					queue[tail++] = u;
				}
			}
		}
	}
	free(queue);
	return 0;
}

double flit_cycle_s(const struct plat_machine *m, int flit_bytes)
{
	for (int l = 0; l < m->nlinks; l++)
		if (m->links[l].src < m->nodes && m->links[l].bw_bps > 0)
			return flit_bytes / m->links[l].bw_bps;
	return 0;
}

/* The cycles a flit arriving at vertex x stays there before it may leave:
 * switches hold it the router delay (with pipeline=packet a body or tail
 * flit only the last two stages; with vc_alloc=islip a head one cycle
 * less, its VC allocation coming the cycle before), nodes do not. */
static int ready_hold(const struct flit_net *n, int x, int head)
{
	int R = n->p.router_delay;
	if (x < n->nodes)
		return 0;
	if (head && n->p.va_islip)
		return R - 1;
	return n->p.vc_pipeline && !head && R > 2 ? 2 : R;
}

/* Each link's delay, gap between flits and VC buffer size, and its wire
 * slots: with links=cycles the parameters' delays, a flit per cycle, buf;
 * with links=platform the machine's latency in cycles, its bandwidth as a
 * fraction of the node links' (a flit every gap cycles), and buffers deep
 * enough to keep that rate over the credit round trip. */
static int link_timing(struct flit_net *n, struct cmn_err *e)
{
	const struct plat_machine *m = n->m;
	const struct flit_params *p = &n->p;
	double cyc = flit_cycle_s(m, p->flit_bytes), bw = cyc > 0 ? p->flit_bytes / cyc : 0;
	if (p->platform_links && !(cyc > 0))
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: %s has no node links to set a clock", m->spec);
	size_t at = 0;
	for (int l = 0; l < n->nl; l++) {
		const struct plat_link *k = &m->links[l];
		int node = k->src < n->nodes || k->dst < n->nodes;
		n->ldelay[l] = node ? p->node_link_delay : p->link_delay;
		n->hold_for[2 * l] = ready_hold(n, k->dst, 0);
		n->hold_for[2 * l + 1] = ready_hold(n, k->dst, 1);
		n->gap[l] = 1;
		n->lcap[l] = p->buf;
		if (p->platform_links) {
			double d = k->lat_s / cyc, g = k->bw_bps > 0 ? bw / k->bw_bps : 1;
			if (d > 1e9 || g > 1e9)
				return cmn_err_set(
				    e, CMN_EUSAGE,
				    "flit network: link %d-%d of %s: %g s and %g B/s "
				    "are more than 1e9 cycles",
				    k->src, k->dst, m->spec, k->lat_s, k->bw_bps);
			n->ldelay[l] = d < 1 ? 1 : (int)llround(d);
			n->gap[l] = g <= 1 ? 1 : (int)ceil(g - 1e-9);
			long rtt = 2L * n->ldelay[l] + p->router_delay + 1;
			long need = (rtt + n->gap[l] - 1) / n->gap[l] + 1;
			n->lcap[l] = need > p->buf ? (int)need : p->buf;
		}
		/* a ring of at least delay + 1 slots, a power of two so that a
		 * cycle's slot is a mask away */
		size_t ring = 1;
		while (ring < (size_t)n->ldelay[l] + 1)
			ring <<= 1;
		n->wbase[l] = at;
		n->wmask[l] = (int64_t)ring - 1;
		at = cmn_size_add(at, ring);
	}
	n->wbase[n->nl] = at;
	return 0;
}

int flit_net_create(const struct plat_machine *m, const struct flit_params *p,
                    struct flit_net **out, struct cmn_err *e)
{
	if (p->vcs < 1 || p->buf < 1 || p->link_delay < 1 || p->watchdog < 1 ||
	    p->router_delay < 0 || p->node_link_delay < 0 || p->inject_delay < 0 ||
	    p->eject_delay < 0)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: vcs, buf, link_delay and watchdog must be at "
		                   "least 1, the other delays at least 0");
	if (p->va_islip && p->router_delay < 1)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: vc_alloc=islip needs router_delay >= 1 (VC "
		                   "allocation takes the cycle before switch allocation)");
	struct flit_net *n = calloc(1, sizeof *n);
	if (!n)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	n->m = m;
	n->p = *p;
	n->nv = m->nvertices;
	n->nl = m->nlinks;
	n->nodes = m->nodes;
	n->maxr = plat_max_route(m);
	n->rstride = n->maxr > 0 ? (size_t)n->maxr : 1;
	if (n->maxr > SHRT_MAX) { /* a flit's hop index is a short, adaptive distances too */
		free(n);
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: %s has routes of up to %d links; the engine "
		                   "counts hops to %d",
		                   m->spec, plat_max_route(m), SHRT_MAX);
	}
	/* VC v of port i at in[i V + v]: a node's injection port uses its VC 0
	 * (sizes from the machine and the parameters: saturated, so that an
	 * impossible one fails to allocate instead of wrapping around) */
	size_t nvc = cmn_size_mul((size_t)n->nl, (size_t)p->vcs),
	       nports = (size_t)n->nl + (size_t)n->nodes;
	size_t allvc = cmn_size_mul(nports, (size_t)p->vcs);
	if (allvc > INT_MAX) { /* VC ids are ints */
		free(n);
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: %s with vcs=%d makes %zu virtual channels, more "
		                   "than %d",
		                   m->spec, p->vcs, allvc, INT_MAX);
	}
	n->ldelay = malloc(((size_t)n->nl + 1) * sizeof *n->ldelay);
	n->gap = malloc(((size_t)n->nl + 1) * sizeof *n->gap);
	n->lcap = malloc(((size_t)n->nl + 1) * sizeof *n->lcap);
	n->wbase = malloc(((size_t)n->nl + 1) * sizeof *n->wbase);
	n->wmask = malloc(((size_t)n->nl + 1) * sizeof *n->wmask);
	n->hold_for = malloc(((size_t)n->nl + 1) * 2 * sizeof *n->hold_for);
	if (!n->ldelay || !n->gap || !n->lcap || !n->wbase || !n->wmask || !n->hold_for) {
		flit_net_destroy(n);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	if (link_timing(n, e)) {
		flit_net_destroy(n);
		return e->code;
	}
	n->in = calloc(allvc, sizeof *n->in);
	n->credits = malloc(cmn_size_mul(nvc ? nvc : 1, sizeof *n->credits));
	n->busy = calloc((size_t)n->nl + 1, sizeof *n->busy);
	n->wire = malloc(cmn_size_add(cmn_size_mul(n->wbase[n->nl], sizeof *n->wire), 1));
	n->cwire = calloc(cmn_size_add(n->wbase[n->nl], 1), sizeof *n->cwire);
	n->port_first = calloc((size_t)n->nv + 1, sizeof *n->port_first);
	n->port = malloc(nports * sizeof *n->port);
	n->rr = calloc((size_t)n->nv, sizeof *n->rr);
	n->vrr = calloc(nports, sizeof *n->vrr);
	n->orr = calloc((size_t)n->nl + 1, sizeof *n->orr);
	n->out_used = malloc(((size_t)n->nl + 1) * sizeof *n->out_used);
	n->eject_used = malloc((size_t)n->nodes * sizeof *n->eject_used);
	n->link_flits = calloc((size_t)n->nl + 1, sizeof *n->link_flits);
	n->qhead = malloc((size_t)n->nodes * sizeof *n->qhead);
	n->qtail = malloc((size_t)n->nodes * sizeof *n->qtail);
	n->out_first = calloc((size_t)n->nv + 1, sizeof *n->out_first);
	n->outl = malloc(((size_t)n->nl + 1) * sizeof *n->outl);
	n->lout = malloc(((size_t)n->nl + 1) * sizeof *n->lout);
	n->gptr = calloc(nports, sizeof *n->gptr);
	n->hold = malloc(nports * sizeof *n->hold);
	n->rbits = calloc((size_t)n->nv / 64 + 1, sizeof *n->rbits);
	for (n->wsize = 4; n->wsize <= p->router_delay + 1;) /* a flit's ready cycle fits */
		n->wsize *= 2;
	n->evhead = malloc((size_t)n->wsize * sizeof *n->evhead);
	n->qbits = calloc((size_t)n->nodes / 64 + 1, sizeof *n->qbits);
	n->fon = calloc((size_t)n->nl + 1, sizeof *n->fon);
	n->con = calloc((size_t)n->nl + 1, sizeof *n->con);
	n->fact = malloc(((size_t)n->nl + 1) * sizeof *n->fact);
	n->cact = malloc(((size_t)n->nl + 1) * sizeof *n->cact);
	n->aptr = calloc(allvc, sizeof *n->aptr);
	int ok = n->in && n->credits && n->busy && n->wire && n->cwire && n->port_first &&
	         n->port && n->rr && n->vrr && n->orr && n->out_used && n->eject_used &&
	         n->link_flits && n->qhead && n->qtail && n->out_first && n->outl && n->lout &&
	         n->gptr && n->aptr && n->hold && n->rbits && n->evhead && n->qbits && n->fon &&
	         n->con && n->fact && n->cact;
	size_t slab = 0; /* the link VCs' buffers, one after another */
	for (int l = 0; ok && l < n->nl; l++)
		slab = cmn_size_add(slab, cmn_size_mul((size_t)n->lcap[l], (size_t)p->vcs));
	ok = ok && (n->fslab = malloc(cmn_size_mul(slab ? slab : 1, sizeof *n->fslab))) != NULL;
	for (size_t i = 0, at = 0; ok && i < nvc; i++) {
		int cap = n->lcap[i / (size_t)p->vcs];
		n->in[i].cap = cap;
		n->in[i].out_vc = -1;
		n->in[i].f = n->fslab + at;
		at += (size_t)cap;
		n->credits[i] = cap;
	}
	for (size_t i = nvc; ok && i < allvc; i++)
		n->in[i].out_vc = -1; /* injection buffers: sized per packet */
	for (int i = 0; ok && i < n->nodes; i++) {
		n->qhead[i] = n->qtail[i] = -1;
		n->eject_used[i] = -1;
	}
	if (!ok) {
		flit_net_destroy(n);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < n->wbase[n->nl]; i++)
		n->wire[i].vc = -1;
	for (int64_t i = 0; i < n->wsize; i++)
		n->evhead[i] = -1;
	for (int l = 0; l <= n->nl; l++)
		n->out_used[l] = INT64_MIN / 2; /* long ago: a slow link is free at once */
	for (size_t i = 0; i < nports; i++)
		n->hold[i] = -1;
	/* the input ports of each vertex: its entering links, then its injection */
	for (int l = 0; l < n->nl; l++)
		n->port_first[m->links[l].dst + 1]++;
	for (int x = 0; x < n->nodes; x++)
		n->port_first[x + 1]++;
	for (int x = 0; x < n->nv; x++)
		n->port_first[x + 1] += n->port_first[x];
	int *fill = calloc((size_t)n->nv, sizeof *fill);
	if (!fill) {
		flit_net_destroy(n);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	for (int l = 0; l < n->nl; l++) {
		int x = m->links[l].dst;
		n->port[n->port_first[x] + fill[x]++] = l;
	}
	for (int x = 0; x < n->nodes; x++)
		n->port[n->port_first[x] + fill[x]++] = n->nl + x;
	free(fill);
	/* the out links of each vertex, and scratch arrays for the widest vertex */
	for (int l = 0; l < n->nl; l++)
		n->out_first[m->links[l].src + 1]++;
	int maxin = 1, maxout = 1;
	for (int x = 0; x < n->nv; x++) {
		int np = n->port_first[x + 1] - n->port_first[x], no = n->out_first[x + 1];
		maxin = np > maxin ? np : maxin;
		maxout = no > maxout ? no : maxout;
		n->out_first[x + 1] += n->out_first[x];
	}
	if (maxout >= 65535 || (long)maxin * p->vcs >= 32768) { /* allocate()'s pairs */
		flit_net_destroy(n);
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: a vertex of %s has %d ports and %d links out; "
		                   "at most 32767 input VCs and 65534 links out are supported",
		                   m->spec, maxin, maxout);
	}
	n->kw = (maxin * p->vcs + 63) / 64;
	n->rmask = calloc((size_t)n->nv * (size_t)n->kw, sizeof *n->rmask);
	fill = calloc((size_t)n->nv, sizeof *fill);
	n->req = malloc((size_t)maxin * (size_t)p->vcs * sizeof *n->req);
	n->rk = malloc((size_t)maxin * (size_t)p->vcs * sizeof *n->rk);
	n->rj = malloc((size_t)maxin * (size_t)p->vcs * sizeof *n->rj);
	n->kport = malloc((size_t)maxin * (size_t)p->vcs * sizeof *n->kport);
	n->kvc = malloc((size_t)maxin * (size_t)p->vcs * sizeof *n->kvc);
	n->kg = malloc(((size_t)n->port_first[n->nv] * (size_t)p->vcs + 1) * sizeof *n->kg);
	n->xused = calloc((size_t)maxin * (size_t)p->vcs, sizeof *n->xused);
	n->oused = malloc(((size_t)maxout + 1) * sizeof *n->oused);
	n->grant = malloc(((size_t)maxout + 1) * sizeof *n->grant);
	n->gl = malloc(((size_t)maxout + 1) * sizeof *n->gl);
	n->gst = calloc((size_t)maxout + 1, sizeof *n->gst);
	n->va = malloc((size_t)maxin * (size_t)p->vcs * sizeof *n->va);
	n->mreq = calloc((size_t)maxout + 1, sizeof *n->mreq);
	n->mgr = calloc((size_t)maxin * (size_t)p->vcs, sizeof *n->mgr);
	if (p->va_islip) {
		n->va_g = calloc(nvc ? nvc : 1, sizeof *n->va_g);
		n->va_a = calloc(nports * (size_t)p->vcs, sizeof *n->va_a);
	}
	if (!n->rmask || !fill || !n->req || !n->rk || !n->rj || !n->kport || !n->kvc || !n->kg ||
	    !n->xused || !n->oused || !n->grant || !n->gl || !n->gst || !n->va || !n->mreq ||
	    !n->mgr || (p->va_islip && (!n->va_g || !n->va_a))) {
		free(fill);
		flit_net_destroy(n);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	for (int k = 0; k < maxin * p->vcs; k++) /* no requests between calls */
		n->req[k] = -1, n->kport[k] = k / p->vcs, n->kvc[k] = k % p->vcs;
	for (int x = 0; x < n->nv; x++) /* each VC's vertex and local index there */
		for (int i = 0; i < n->port_first[x + 1] - n->port_first[x]; i++) {
			int port = n->port[n->port_first[x] + i];
			for (int v = 0; v < (port < n->nl ? p->vcs : 1); v++) {
				size_t g = vc_id(n, port, v);
				n->in[g].x = x;
				n->in[g].k = i * p->vcs + v;
				n->in[g].port = port;
				n->in[g].v = v;
				n->kg[(size_t)n->port_first[x] * (size_t)p->vcs +
				      (size_t)n->in[g].k] = (int)g;
			}
		}
	for (int l = 0; l < n->nl; l++) {
		int x = m->links[l].src;
		n->lout[l] = fill[x];
		n->outl[n->out_first[x] + fill[x]++] = l;
	}
	free(fill);
	n->freepk = -1;
	n->last_move = 0;
	/* deterministic routes cached per node pair when that takes at most 16 MB */
	size_t pairs = (size_t)n->nodes * (size_t)n->nodes;
	if (!p->adaptive && n->maxr > 0 &&
	    cmn_size_mul(cmn_size_mul(pairs, (size_t)n->maxr + 1), sizeof(int)) <= (16u << 20)) {
		n->rcache = malloc(pairs * (size_t)n->maxr * sizeof *n->rcache);
		n->rlen = malloc(pairs * sizeof *n->rlen);
		if (!n->rcache || !n->rlen) {
			flit_net_destroy(n);
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		}
		for (size_t i = 0; i < pairs; i++)
			n->rlen[i] = -1;
	}
	if (((p->dateline || p->bubble || p->adaptive == 2) && mark_datelines(n, e)) ||
	    (p->vc_pick_dim && mark_grid_dims(n, e)) || (p->adaptive && build_dist(n, e))) {
		flit_net_destroy(n);
		return e->code;
	}
	*out = n;
	return 0;
}

void flit_net_destroy(struct flit_net *n)
{
	if (!n)
		return;
	for (int x = 0; n->in && x < n->nodes; x++)
		free(vc_of(n, n->nl + x, 0)->f); /* injection buffers: sized per packet */
	free(n->fslab);
	free(n->in);
	free(n->credits);
	free(n->busy);
	free(n->wire);
	free(n->cwire);
	free(n->port_first);
	free(n->port);
	free(n->rr);
	free(n->vrr);
	free(n->orr);
	free(n->out_used);
	free(n->eject_used);
	free(n->link_flits);
	free(n->ldelay);
	free(n->hold_for);
	free(n->gap);
	free(n->lcap);
	free(n->wbase);
	free(n->wmask);
	free(n->out_first);
	free(n->outl);
	free(n->lout);
	free(n->gptr);
	free(n->hold);
	free(n->rmask);
	free(n->rbits);
	free(n->evhead);
	free(n->qbits);
	free(n->fon);
	free(n->con);
	free(n->fact);
	free(n->cact);
	free(n->dist);
	free(n->tie);
	free(n->picked);
	free(n->aptr);
	free(n->req);
	free(n->rk);
	free(n->rj);
	free(n->kport);
	free(n->kvc);
	free(n->kg);
	free(n->xused);
	free(n->oused);
	free(n->grant);
	free(n->gl);
	free(n->gst);
	free(n->va);
	free(n->mreq);
	free(n->mgr);
	free(n->va_g);
	free(n->va_a);
	free(n->ldim);
	free(n->lwrap);
	free(n->lprev);
	free(n->vco);
	free(n->ldg);
	free(n->pk);
	free(n->routes);
	free(n->rcache);
	free(n->rlen);
	free(n->qhead);
	free(n->qtail);
	free(n);
}

int flit_net_packet_ok(const struct flit_net *n, int flits, struct cmn_err *e)
{
	if (flits < 1)
		return cmn_err_set(e, CMN_EUSAGE, "%d-flit packets (at least 1)", flits);
	if (n->p.bubble && n->ldim && 2 * flits > n->p.buf)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "%d-flit packets under bubble flow control need buffers of two "
		                   "packets (buf=%d)",
		                   flits, n->p.buf);
	if (n->p.cut_through && flits > n->p.buf)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "%d-flit packets: cut-through needs room for a whole packet "
		                   "(buf=%d)",
		                   flits, n->p.buf);
	return 0;
}

int flit_net_inject(struct flit_net *n, int src, int dst, int flits, long id, struct cmn_err *e)
{
	if (src < 0 || src >= n->nodes || dst < 0 || dst >= n->nodes || src == dst)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "packet %ld: from node %d to node %d (nodes 0..%d, "
		                   "not to itself)",
		                   id, src, dst, n->nodes - 1);
	if (flit_net_packet_ok(n, flits, e)) {
		cmn_err_prefix(e, "packet %ld", id);
		return e->code;
	}
	int k = n->freepk;
	if (k >= 0) {
		n->freepk = n->pk[k].next;
	} else {
		if (n->npk == n->cappk) {
			int cap = n->cappk ? 2 * n->cappk : 256;
			struct packet *pk = realloc(n->pk, (size_t)cap * sizeof *pk);
			if (pk)
				n->pk = pk;
			int *r =
			    pk ? realloc(n->routes, (size_t)cap * n->rstride * sizeof *r) : NULL;
			if (!r)
				return cmn_err_set(e, CMN_ENOMEM, "out of memory");
			n->routes = r;
			n->cappk = cap;
		}
		k = n->npk++;
	}
	struct packet *q = &n->pk[k];
	q->id = id;
	q->src = src;
	q->dst = dst;
	q->len = flits;
	q->created = n->now;
	if (n->dist) { /* adaptive: decided hop by hop */
		q->nhops = n->dist[(size_t)src * (size_t)n->nodes + (size_t)dst];
		q->decided = 0;
	} else if (n->rlen) { /* the machine's route, computed once per pair */
		size_t pair = (size_t)src * (size_t)n->nodes + (size_t)dst;
		int *r = n->rcache + pair * (size_t)n->maxr;
		if (n->rlen[pair] < 0)
			n->rlen[pair] = plat_route(n->m, src, dst, r);
		q->nhops = q->decided = n->rlen[pair];
		memcpy(pk_route(n, k), r, (size_t)q->nhops * sizeof *r);
	} else {
		q->nhops = plat_route(n->m, src, dst, pk_route(n, k));
		q->decided = q->nhops;
	}
	q->next = -1;
	q->dim = -1;
	q->gdim = -1;
	q->crossed = 0;
	if (n->qtail[src] >= 0)
		n->pk[n->qtail[src]].next = k;
	else
		n->qhead[src] = k;
	n->qtail[src] = k;
	n->qbits[src >> 6] |= UINT64_C(1) << (src & 63);
	n->in_flight++;
	return 0;
}

/* Loads the next queued packet of node x into its empty injection port. */
static int load_injection(struct flit_net *n, int x)
{
	struct vc *c = vc_of(n, n->nl + x, 0);
	int k = n->qhead[x];
	if (c->n || k < 0)
		return 0;
	struct packet *q = &n->pk[k];
	n->qhead[x] = q->next;
	if (n->qhead[x] < 0) {
		n->qtail[x] = -1;
		n->qbits[x >> 6] &= ~(UINT64_C(1) << (x & 63));
	}
	if (c->cap < q->len) {
		struct flit *f = realloc(c->f, (size_t)q->len * sizeof *f);
		if (!f)
			return -1;
		c->f = f;
		c->cap = q->len;
	}
	c->first = 0;
	int64_t ready = q->created + n->p.inject_delay; /* a node holds no router delay */
	if (ready < n->now)
		ready = n->now;
	for (int i = 0; i < q->len; i++)
		c->f[c->n++] = (struct flit){ready, k, -1, i == 0, i == q->len - 1};
	c->front_ready = ready;
	vc_front(n, vc_id(n, n->nl + x, 0));
	return 0;
}

static void cycle(struct flit_net *n, void (*done)(void *, const struct flit_delivery *), void *ctx,
                  int *oom)
{
	int V = n->p.vcs;
	int kept = 0;
	for (int i = 0; i < n->nfact; i++) { /* only links with flits on the wire */
		int l = n->fact[i];
		struct wire *w = &n->wire[flit_slot(n, l, n->now)];
		if (w->vc >= 0) {
			if (flit_arrive(n, l, w->vc, w->f))
				*oom = 2; /* more flits than credits: a bug */
			w->vc = -1;
			n->fon[l]--;
			n->on_wires--;
		}
		if (n->fon[l])
			n->fact[kept++] = l;
	}
	n->nfact = kept;
	kept = 0;
	for (int i = 0; i < n->ncact; i++) { /* and with credits on the wire */
		int l = n->cact[i];
		uint64_t *cw = &n->cwire[flit_slot(n, l, n->now)];
		if (*cw) {
			for (uint64_t b = *cw; b; b &= b - 1)
				n->credits[l * V + __builtin_ctzll(b)]++;
			*cw = 0;
			n->con[l]--;
		}
		if (n->con[l])
			n->cact[kept++] = l;
	}
	n->ncact = kept;
	for (int w = 0; w <= (n->nodes - 1) >> 6; w++) /* nodes with queued packets */
		for (uint64_t b = n->qbits[w]; b; b &= b - 1)
			if (load_injection(n, (w << 6) + __builtin_ctzll(b)))
				*oom = 1;
	/* the VCs whose front flit becomes ready now */
	size_t slot = (size_t)(n->now & (n->wsize - 1));
	int g = n->evhead[slot];
	n->evhead[slot] = -1;
	while (g >= 0) { /* vc_front may put one in a later slot */
		int next = n->in[g].evnext;
		vc_front(n, (size_t)g);
		g = next;
	}
	/* vertices with such VCs, in id order; a word is read again after each
	 * vertex, as a zero-delay link may give flits to a later one */
	for (int w = 0; w <= (n->nv - 1) >> 6; w++)
		for (int from = 0; from < 64;) {
			uint64_t b = n->rbits[w] & (~UINT64_C(0) << from);
			if (!b)
				break;
			int bit = __builtin_ctzll(b), x = (w << 6) + bit;
			flit_router_cycle(n, x, done, ctx);
			from = bit + 1;
		}
	n->now++;
}

/* The watchdog's report: what the first blocked channels hold. */
static int stalled(struct flit_net *n, struct cmn_err *e)
{
	char what[400] = "";
	int shown = 0, V = n->p.vcs;
	for (int l = 0; l < n->nl && shown < 3; l++)
		for (int v = 0; v < V && shown < 3; v++) {
			struct vc *c = vc_of(n, l, v);
			if (!c->n)
				continue;
			struct flit *f = &c->f[c->first];
			struct packet *q = &n->pk[f->pkt];
			int h = f->hop + 1, out = h < q->decided ? pk_route(n, f->pkt)[h] : -1;
			size_t len = strlen(what);
			snprintf(what + len, sizeof what - len,
			         "%svertex %d, link %d VC %d: packet %ld (%d->%d), waiting for "
			         "link %d VC %d (credits %d)",
			         shown ? "; " : "", n->m->links[l].dst, l, v, q->id, q->src, q->dst,
			         out, c->out_vc,
			         out >= 0 && c->out_vc >= 0 ? n->credits[out * V + c->out_vc] : -1);
			shown++;
		}
	return cmn_err_set(e, CMN_ESTATE,
	                   "flit network: no flit moved for %ld cycles (cycle %lld) with %ld "
	                   "packets in flight (deadlock): %s",
	                   n->p.watchdog, (long long)n->now, n->in_flight, what);
}

int flit_net_run(struct flit_net *n, int64_t until,
                 void (*done)(void *ctx, const struct flit_delivery *d), void *ctx,
                 struct cmn_err *e)
{
	n->last_move = n->now;
	while (until < 0 ? n->in_flight > 0 : n->now < until) {
		int oom = 0;
		cycle(n, done, ctx, &oom);
		if (oom == 1)
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		if (oom == 2)
			return cmn_err_set(e, CMN_ESTATE,
			                   "flit network: a buffer overflowed (a bug)");
		if (n->on_wires)
			n->last_move = n->now; /* flits on a long link are moving */
		else if (n->in_flight > 0 && n->now - n->last_move >= n->p.watchdog)
			return stalled(n, e);
		if (n->in_flight == 0 && until >= 0) /* nothing to do: skip to the end */
			n->now = until;
	}
	return 0;
}

int flit_net_source_room(const struct flit_net *n, int x, int flits)
{
	if (!n->p.source_queue)
		return 1;
	long held = n->in[vc_id(n, n->nl + x, 0)].n; /* its injection port */
	for (int k = n->qhead[x]; k >= 0; k = n->pk[k].next)
		held += n->pk[k].len;
	for (int i = n->out_first[x]; i < n->out_first[x + 1]; i++) { /* its links */
		int l = n->outl[i];
		held += n->fon[l]; /* on the wire */
		for (int v = 0; v < n->p.vcs; v++)
			held += n->in[vc_id(n, l, v)].n;
	}
	return held + flits <= (long)n->p.source_queue * flits;
}

int64_t flit_net_now(const struct flit_net *n)
{
	return n->now;
}

long flit_net_in_flight(const struct flit_net *n)
{
	return n->in_flight;
}

const long *flit_net_link_flits(const struct flit_net *n)
{
	return n->link_flits;
}

int flit_net_check(const struct flit_net *n, struct cmn_err *e)
{
	int V = n->p.vcs;
	for (int l = 0; l < n->nl; l++)
		for (int v = 0; v < V; v++) {
			int cr = n->credits[l * V + v], inbuf = n->in[vc_id(n, l, v)].n, wire = 0,
			    cwire = 0;
			for (size_t s = n->wbase[l]; s < n->wbase[l + 1]; s++) {
				wire += n->wire[s].vc == v;
				cwire += (int)(n->cwire[s] >> v & 1);
			}
			if (cr < 0 || cr > n->lcap[l] || cr + inbuf + wire + cwire != n->lcap[l])
				return cmn_err_set(
				    e, CMN_ESTATE,
				    "link %d VC %d: %d credits, %d flits buffered, %d on "
				    "the wire, %d credits on the wire (buffer %d)",
				    l, v, cr, inbuf, wire, cwire, n->lcap[l]);
		}
	return 0;
}

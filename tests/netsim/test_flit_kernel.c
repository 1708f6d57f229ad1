/* The flit engine's router kernels (netsim/flit/flit_kernel.def): each
 * preset's network on a mesh, a torus and a k-ary n-tree, and the default
 * parameters, runs a kernel compiled for its mode, and that kernel's
 * deliveries are the code for any mode's, record for record (random
 * traffic of packets of 1 to 4 flits past saturation, and synthetic runs
 * with their link counts); a mode no kernel has runs the code for any. */
#include <stdlib.h>
#include <string.h>

#include "../../netsim/flit/flit_internal.h"
#include "../../netsim/flit/flit_preset.h"
#include "../../netsim/flit/flit_synth.h"
#include "../helpers.h"

struct log {
	struct flit_delivery *d;
	long n, cap;
};

static void record(void *ctx, const struct flit_delivery *d)
{
	struct log *l = ctx;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 4096;
		l->d = realloc(l->d, (size_t)l->cap * sizeof *l->d);
		CU_ASSERT_FATAL(l->d != NULL);
	}
	l->d[l->n++] = *d;
}

/* 2,000 cycles of packets from every node with probability 1/4 a cycle,
 * of 1 to 4 flits (a 64-bit LCG: the same packets for both runs), to a
 * node drawn from it, then the run to its end. Returns whether the
 * network ran a kernel compiled for its mode. */
static int random_run(const struct plat_machine *m, const struct flit_params *p, struct log *lg)
{
	struct flit_net *n;
	struct cmn_err e;
	CU_ASSERT_FATAL(net_flit_net_create(m, p, &n, &e) == 0);
	int kernel = n->router_cycle != net_flit_router_cycle;
	CU_ASSERT(kernel == (n->cycle != net_flit_cycle)); /* the router and its cycle */
	uint64_t s = 0x9e3779b97f4a7c15u;
	long id = 0;
	int rc = 0;
	for (int t = 0; t < 2000 && !rc; t++) {
		for (int x = 0; x < m->nodes && !rc; x++) {
			s = s * 6364136223846793005u + 1442695040888963407u;
			if ((s >> 62) != 0)
				continue;
			int d = (int)((s >> 20) % (uint64_t)(m->nodes - 1)),
			    len = 1 + (int)(s >> 8 & 3);
			rc = net_flit_net_inject(n, x, d < x ? d : d + 1, len, id++, &e);
		}
		rc = rc ? rc : net_flit_net_run(n, net_flit_net_now(n) + 1, record, lg, &e);
	}
	CU_ASSERT_FATAL(rc == 0 && net_flit_net_run(n, -1, record, lg, &e) == 0);
	CU_ASSERT(lg->n == id);
	CU_ASSERT(net_flit_net_check(n, &e) == 0);
	net_flit_net_destroy(n);
	return kernel;
}

static int same_synth(const struct flit_synth_result *a, const struct flit_synth_result *b)
{
	return a->offered == b->offered && a->accepted == b->accepted &&
	       a->mean_lat == b->mean_lat && a->p99_lat == b->p99_lat && a->packets == b->packets &&
	       a->samples == b->samples && a->cycles == b->cycles && a->converged == b->converged &&
	       a->flit_hops == b->flit_hops;
}

/* The network of preset (NULL: the defaults, with kvs) on spec: kernel or
 * not as expected, and the same deliveries and synthetic figures as the
 * code for any mode. */
static void check(const char *spec, const char *preset, const char *kvs, int want_kernel)
{
	struct plat_machine *m = th_machine(spec);
	struct cmn_params cp;
	struct flit_params p;
	struct cmn_err e;
	CU_ASSERT_FATAL(net_flit_params_parse(kvs, preset, m, &cp, &p, &e) == 0);
	struct log a = {0}, b = {0};
	int kernel = random_run(m, &p, &a);
	if (kernel != want_kernel)
		fprintf(stderr, "%s on %s (%s): %s\n", preset ? preset : "defaults", spec,
		        kvs ? kvs : "", kernel ? "a kernel" : "no kernel");
	CU_ASSERT(kernel == want_kernel);
	p.generic_router = 1;
	CU_ASSERT(!random_run(m, &p, &b));
	CU_ASSERT(a.n == b.n && memcmp(a.d, b.d, (size_t)a.n * sizeof *a.d) == 0);
	struct net_traffic t;
	CU_ASSERT_FATAL(net_traffic_open("uniform", m, &t, &e) == 0);
	struct flit_synth_opts o;
	net_flit_synth_default(&o);
	o.load = 0.3, o.packet = preset && strcmp(preset, "insee") == 0 ? 1 : 4;
	o.warmup = 500, o.sample = 500, o.max_cycles = 3000, o.tolerance = 0;
	struct flit_synth_result r[2];
	long *links[2];
	for (int g = 0; g < 2; g++) {
		p.generic_router = g;
		links[g] = calloc((size_t)m->nlinks, sizeof *links[g]);
		o.link_flits = links[g];
		CU_ASSERT_FATAL(net_flit_synth_run(m, &p, &t, &o, &r[g], &e) == 0);
	}
	CU_ASSERT(same_synth(&r[0], &r[1]) && r[0].flit_hops > 0);
	CU_ASSERT(memcmp(links[0], links[1], (size_t)m->nlinks * sizeof *links[0]) == 0);
	free(links[0]);
	free(links[1]);
	net_traffic_close(&t);
	free(a.d);
	free(b.d);
	plat_machine_destroy(m);
}

static void test_presets(void)
{
	static const char *const specs[] = {"mesh:dims=8x8", "torus:dims=8x8",
	                                    "kary-ntree:k=4,n=3"};
	for (int s = 0; s < 3; s++) {
		check(specs[s], "insee", NULL, 1);
		check(specs[s], "booksim", NULL, 1);
		check(specs[s], NULL, NULL, 1);
	}
	check("mesh:dims=4x4x4", "insee", NULL, 1); /* 3D: the same mode */
}

static void test_others(void)
{
	/* modes no kernel has: the code for any, the same deliveries */
	check("mesh:dims=8x8", "insee", "vcs=3", 0);
	check("torus:dims=8x8", "booksim", "alloc=output", 0);
	check("mesh:dims=6x6", NULL, "switching=vct,buf=8", 0);
	check("kary-ntree:k=18,n=2", NULL, NULL, 0); /* 36 ports of 4 VCs: two mask words */
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("flit router kernels", NULL, NULL);
	CU_add_test(s, "each preset's and the defaults' kernel: the same deliveries", test_presets);
	CU_add_test(s, "modes without a kernel", test_others);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

/* Synthetic traffic patterns (netsim/traffic/traffic.h): a contract over the
 * registry (every pattern's samples on every topology family's samples),
 * exact destinations of the permutations on meshes, tori and trees (by
 * hand), each a permutation of the nodes that inject, fixed points silent,
 * uniform never to itself and about uniform, hotspot's share, and the
 * machines a pattern refuses. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../netsim/traffic/traffic.h"
#include "../helpers.h"

static int dest_of(const char *pattern, const struct plat_machine *m, int src)
{
	struct net_traffic t;
	struct cmn_err e;
	CU_ASSERT_FATAL(net_traffic_open(pattern, m, &t, &e) == 0);
	struct cmn_mt rng;
	cmn_mt_seed(&rng, 0);
	int d = net_traffic_dest(&t, src, &rng);
	net_traffic_close(&t);
	return d;
}

/* Every node that injects sends to a distinct node, and never to itself. */
static int is_permutation(const char *pattern, const struct plat_machine *m, int *silent)
{
	struct net_traffic t;
	struct cmn_err e;
	CU_ASSERT_FATAL(net_traffic_open(pattern, m, &t, &e) == 0);
	char *hit = calloc((size_t)m->nodes, 1);
	int ok = 1;
	*silent = 0;
	for (int s = 0; s < m->nodes; s++) {
		int d = net_traffic_dest(&t, s, NULL);
		if (d < 0) {
			(*silent)++;
			continue;
		}
		ok &= d < m->nodes && d != s && !hit[d];
		if (d < m->nodes)
			hit[d] = 1;
	}
	free(hit);
	net_traffic_close(&t);
	return ok;
}

static void test_grid_patterns(void)
{
	struct plat_machine *m = th_machine("mesh:dims=8x8");
	int c[2] = {2, 5}, src = plat_grid_node(m, c), want[2], silent;
	want[0] = 5, want[1] = 2;
	CU_ASSERT_EQUAL(dest_of("transpose", m, src), plat_grid_node(m, want));
	want[0] = (2 + 3) % 8, want[1] = (5 + 3) % 8; /* ceil(8/2) - 1 = 3 */
	CU_ASSERT_EQUAL(dest_of("tornado", m, src), plat_grid_node(m, want));
	want[0] = 3, want[1] = 6;
	CU_ASSERT_EQUAL(dest_of("neighbor", m, src), plat_grid_node(m, want));
	c[0] = c[1] = 4; /* on the diagonal: transpose sends nothing */
	CU_ASSERT_EQUAL(dest_of("transpose", m, plat_grid_node(m, c)), -1);
	CU_ASSERT(is_permutation("transpose", m, &silent) && silent == 8);
	CU_ASSERT(is_permutation("tornado", m, &silent) && silent == 0);
	CU_ASSERT(is_permutation("neighbor", m, &silent) && silent == 0);
	CU_ASSERT(is_permutation("bitrev", m, &silent) && silent == 8); /* palindromes of 6 bits */
	CU_ASSERT(is_permutation("bitcomp", m, &silent) && silent == 0);
	plat_machine_destroy(m);
	m = th_machine("torus:dims=5x5x3");
	c[0] = 4; /* (4, 0, 2): tornado offsets 2, 2, 1 */
	int c3[3] = {4, 0, 2}, w3[3] = {1, 2, 0};
	CU_ASSERT_EQUAL(dest_of("tornado", m, plat_grid_node(m, c3)), plat_grid_node(m, w3));
	CU_ASSERT(is_permutation("tornado", m, &silent) && silent == 0);
	plat_machine_destroy(m);
}

static void test_id_patterns(void)
{
	struct plat_machine *m = th_machine("kary-ntree:k=4,n=3"); /* 64 nodes, 6 bits */
	int silent;
	CU_ASSERT_EQUAL(dest_of("bitrev", m, 1), 32);             /* 000001 -> 100000 */
	CU_ASSERT_EQUAL(dest_of("bitrev", m, 6), 24);             /* 000110 -> 011000 */
	CU_ASSERT_EQUAL(dest_of("bitcomp", m, 5), 58);            /* 000101 -> 111010 */
	CU_ASSERT_EQUAL(dest_of("transpose", m, 5), 40);          /* 000 101 -> 101 000 */
	CU_ASSERT_EQUAL(dest_of("tornado", m, 60), 60 + 31 - 64); /* one ring of 64 */
	CU_ASSERT_EQUAL(dest_of("neighbor", m, 63), 0);
	CU_ASSERT(is_permutation("transpose", m, &silent) && silent == 8);
	plat_machine_destroy(m);
}

static void test_random_patterns(void)
{
	struct plat_machine *m = th_machine("flat:nodes=10");
	struct net_traffic t;
	struct cmn_err e;
	struct cmn_mt mt, *rng = &mt;
	cmn_mt_seed(rng, 5);
	CU_ASSERT_FATAL(net_traffic_open("uniform", m, &t, &e) == 0);
	int count[10] = {0}, n = 90000;
	for (int i = 0; i < n; i++) {
		int d = net_traffic_dest(&t, 3, rng);
		CU_ASSERT_FATAL(d >= 0 && d < 10);
		count[d]++;
	}
	CU_ASSERT_EQUAL(count[3], 0);
	for (int d = 0; d < 10; d++) /* 10,000 each; 5 sigma = 474 */
		if (d != 3)
			CU_ASSERT(fabs(count[d] - 10000.0) < 500);
	net_traffic_close(&t);
	CU_ASSERT_FATAL(net_traffic_open("hotspot:node=7,frac=0.3", m, &t, &e) == 0);
	int hot = 0;
	for (int i = 0; i < n; i++)
		hot += net_traffic_dest(&t, 2, rng) == 7;
	/* 0.3 + 0.7 / 9 of the packets */
	CU_ASSERT(fabs(hot / (double)n - (0.3 + 0.7 / 9)) < 0.01);
	for (int i = 0; i < 1000; i++)
		CU_ASSERT(net_traffic_dest(&t, 7, rng) != 7);
	net_traffic_close(&t);
	plat_machine_destroy(m);
}

static void test_refused(void)
{
	struct net_traffic t;
	struct cmn_err e;
	struct plat_machine *m = th_machine("mesh:dims=6x8");
	CU_ASSERT_EQUAL(net_traffic_open("transpose", m, &t, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "traffic transpose on mesh"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "square 2-D mesh or torus, or 4^h nodes (48 here)"));
	CU_ASSERT_EQUAL(net_traffic_open("bitrev", m, &t, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "48 nodes: needs a power of two"));
	CU_ASSERT_EQUAL(net_traffic_open("hotspot:node=48", m, &t, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "node=48: the machine has nodes 0..47"));
	CU_ASSERT_EQUAL(net_traffic_open("shuffle", m, &t, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "uniform"));
	plat_machine_destroy(m);
	m = th_machine("flat:nodes=32"); /* 5 bits: no halves */
	CU_ASSERT_EQUAL(net_traffic_open("transpose", m, &t, &e), CMN_EUSAGE);
	plat_machine_destroy(m);
}

/* Pattern spec on machine m: refused with a usage error that names the
 * pattern, or every source's destination another node or none (-1), the
 * same for the same random stream. Returns -1 broken, 0 refused, 1 run. */
static int pattern_on(const char *spec, const struct plat_machine *m)
{
	struct net_traffic t;
	struct cmn_err e;
	int rc = net_traffic_open(spec, m, &t, &e);
	if (rc) {
		char name[64];
		snprintf(name, sizeof name, "%.*s", (int)strcspn(spec, ":"), spec);
		if (rc == CMN_EUSAGE && strstr(e.msg, name))
			return 0;
		fprintf(stderr, "\n  %s on %s: error %d '%s'\n", spec, m->spec, rc, e.msg);
		return -1;
	}
	struct cmn_mt m1, m2, *r1 = &m1, *r2 = &m2;
	cmn_mt_seed(r1, 3);
	cmn_mt_seed(r2, 3);
	int bad = 0;
	for (int round = 0; round < 3 && !bad; round++)
		for (int src = 0; src < m->nodes && !bad; src++) {
			int d = net_traffic_dest(&t, src, r1);
			bad = d < -1 || d >= m->nodes || d == src ||
			      d != net_traffic_dest(&t, src, r2);
			if (bad)
				fprintf(stderr, "\n  %s on %s: node %d sends to %d\n", spec,
				        m->spec, src, d);
		}
	net_traffic_close(&t);
	return bad ? -1 : 1;
}

/* Every pattern's samples on every topology family's samples: a new
 * pattern or family is checked here without a line of its own; each
 * pattern runs on some machine. */
static void test_contract(void)
{
	for (int p = 0; net_traffic_registry[p]; p++)
		for (int k = 0; th_sample(&net_traffic_registry[p]->base, k); k++) {
			const char *spec = th_sample(&net_traffic_registry[p]->base, k);
			int ran = 0;
			for (int f = 0; plat_topology_registry[f]; f++)
				for (int j = 0; th_sample(&plat_topology_registry[f]->base, j);
				     j++) {
					struct plat_machine *m = th_machine(
					    th_sample(&plat_topology_registry[f]->base, j));
					int rc = pattern_on(spec, m);
					CU_ASSERT(rc >= 0);
					ran += rc > 0;
					plat_machine_destroy(m);
				}
			CU_ASSERT(ran > 0);
		}
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("traffic", NULL, NULL);
	CU_add_test(s, "every pattern on every family", test_contract);
	CU_add_test(s, "grid patterns by hand", test_grid_patterns);
	CU_add_test(s, "id patterns by hand", test_id_patterns);
	CU_add_test(s, "uniform and hotspot", test_random_patterns);
	CU_add_test(s, "machines a pattern refuses", test_refused);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

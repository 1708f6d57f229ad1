/* Allocation quality: every family's pairwise sum against every pair's
 * distance (a contract over the topology registry, multi-clusters of every
 * other family included), node lists and runs alike, on random node sets;
 * the path for families without one of their own; the exact sum; the jobs
 * CSV's columns against every pair. */
#include <gsl/gsl_rng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../jobsched/alloc/alloc_quality.h"
#include "../helpers.h"
#include "platform.h"

/* Every pair's distance, summed exactly. */
static double brute_sum(const struct plat_machine *m, const int *nodes, int n)
{
	uint64_t s = 0;
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			s += (uint64_t)plat_distance(m, nodes[i], nodes[j]);
	return (double)s;
}

/* A random set of nodes in ascending order: each node with a chance p,
 * a few random ranges of ids, or (meshes and tori) a box of coordinates
 * that may wrap round each axis. Returns the count. */
static int random_set(const struct plat_machine *m, gsl_rng *rng, int kind, int *nodes)
{
	int n = 0, nd = plat_ndims(m), lo[PLAT_MAX_DIMS], len[PLAT_MAX_DIMS], dims[PLAT_MAX_DIMS],
	    wrap[PLAT_MAX_DIMS], c[PLAT_MAX_DIMS];
	double p = gsl_rng_uniform(rng);
	int ranges[6][2];
	for (int r = 0; r < 6; r++) {
		ranges[r][0] = (int)gsl_rng_uniform_int(rng, (unsigned long)m->nodes);
		ranges[r][1] = ranges[r][0] + (int)gsl_rng_uniform_int(rng, 12);
	}
	if (kind == 2 && plat_grid_shape(m, &nd, dims, wrap, NULL) == 0)
		for (int d = 0; d < nd; d++) {
			lo[d] = (int)gsl_rng_uniform_int(rng, (unsigned long)dims[d]);
			len[d] = 1 + (int)gsl_rng_uniform_int(rng, (unsigned long)dims[d]);
		}
	else if (kind == 2)
		kind = 0;
	for (int x = 0; x < m->nodes; x++) {
		int in = 0;
		if (kind == 0)
			in = gsl_rng_uniform(rng) < p;
		for (int r = 0; kind == 1 && r < 6; r++)
			in |= x >= ranges[r][0] && x <= ranges[r][1];
		if (kind == 2) {
			plat_coords(m, x, c);
			in = 1;
			for (int d = 0; d < nd; d++)
				in &= (c[d] - lo[d] + dims[d]) % dims[d] < len[d];
		}
		if (in)
			nodes[n++] = x;
	}
	return n;
}

/* The quality of nodes[0..n) from the node list and from its runs (each
 * run cut in two at random: runs need not be maximal) against every pair. */
static int check_set(const struct plat_machine *m, const int *nodes, int n, gsl_rng *rng)
{
	int *scratch = malloc((size_t)n * sizeof *scratch); /* exactly the room promised */
	struct plat_run *runs = malloc(2 * (size_t)n * sizeof *runs);
	int nr = js_nodes_to_runs(nodes, n, runs), bad = 0;
	for (int r = nr - 1; r >= 0 && nr < 2 * n; r--)
		if (runs[r].last > runs[r].first && gsl_rng_uniform(rng) < 0.5) {
			memmove(runs + r + 1, runs + r, (size_t)(nr - r) * sizeof *runs);
			runs[r].last =
			    runs[r].first + (int)gsl_rng_uniform_int(
			                        rng, (unsigned long)(runs[r].last - runs[r].first));
			runs[r + 1].first = runs[r].last + 1;
			nr++;
		}
	struct js_alloc_quality q[2];
	js_alloc_quality(m, nodes, n, n, scratch, &q[0]);
	js_alloc_quality_runs(m, runs, nr, n, scratch, &q[1]);
	double sum = brute_sum(m, nodes, n);
	int clusters = 1, maxd = 0, k, levels;
	for (int i = 1; i < n; i++)
		clusters += plat_cluster_of(m, nodes[i]) != plat_cluster_of(m, nodes[i - 1]);
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (plat_distance(m, nodes[i], nodes[j]) > maxd)
				maxd = plat_distance(m, nodes[i], nodes[j]);
	int tree = plat_kary_ntree_shape(m, &k, &levels, NULL) == 0;
	for (int v = 0; v < 2; v++)
		if (q[v].pairwise_sum != sum || q[v].clusters != clusters ||
		    q[v].max_level != (tree ? maxd / 2 : -1) ||
		    q[v].pairwise_mean != (n > 1 ? sum / ((double)n * (n - 1) / 2) : 0)) {
			fprintf(stderr, "\n  %s, %d nodes from %d (%s): sum %.0f (every pair %.0f)",
			        m->spec, n, nodes[0], v ? "runs" : "list", q[v].pairwise_sum, sum);
			fprintf(stderr, ", clusters %d (%d), max level %d (%d)", q[v].clusters,
			        clusters, q[v].max_level, tree ? maxd / 2 : -1);
			bad = 1;
		}
	free(scratch);
	free(runs);
	return bad;
}

/* Random sets of every kind on one machine; 0 when all agree. */
static int check_machine(const char *spec, gsl_rng *rng)
{
	struct plat_machine *m;
	struct cmn_err e;
	if (plat_machine_create(spec, &m, &e)) {
		fprintf(stderr, "\n  %s: %s", spec, e.msg);
		return 1;
	}
	int *nodes = malloc((size_t)m->nodes * sizeof *nodes), bad = 0;
	for (int iter = 0; iter < 90 && !bad; iter++) {
		int n = random_set(m, rng, iter % 3, nodes);
		if (n)
			bad = check_set(m, nodes, n, rng);
	}
	for (int x = 0; x < m->nodes && !bad; x++) /* one node, then the whole machine */
		bad = check_set(m, &x, 1, rng);
	for (int x = 0; x < m->nodes; x++)
		nodes[x] = x;
	bad |= check_set(m, nodes, m->nodes, rng);
	free(nodes);
	plat_machine_destroy(m);
	return bad;
}

/* "multicluster:clusters=3,size=N,cluster=FAMILY;k=v;..." from a sample. */
static void nested_spec(const char *spec, int i, char *out, size_t room)
{
	struct plat_machine *m;
	struct cmn_err e;
	CU_ASSERT_FATAL(plat_machine_create(spec, &m, &e) == 0);
	char inner[128];
	snprintf(inner, sizeof inner, "%s", spec);
	for (char *p = inner; *p; p++)
		if (*p == ':' || *p == ',')
			*p = ';';
	snprintf(out, room, "multicluster:clusters=%d,size=%d,cluster=%s,wan=%s", 2 + i % 2,
	         m->nodes, inner, i % 2 ? "backbone" : "mesh");
	plat_machine_destroy(m);
}

/* Every family's own samples (its ops' samples), and each as the cluster of
 * a multi-cluster where the multi-cluster takes it (a family it refuses to
 * nest, a usage error, is checked on its own only). */
static void test_contract(void)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 23);
	int nested = 0;
	for (int f = 0; plat_topology_registry[f]; f++) {
		const struct plat_topology_ops *ops = plat_topology_registry[f];
		CU_ASSERT(ops->base.samples && ops->base.samples[0]);
		for (int k = 0; ops->base.samples && ops->base.samples[k]; k++) {
			CU_ASSERT_EQUAL(check_machine(ops->base.samples[k], rng), 0);
			char spec[256];
			nested_spec(ops->base.samples[k], k + 1, spec, sizeof spec);
			struct plat_machine *m;
			struct cmn_err e;
			int rc = plat_machine_create(spec, &m, &e);
			CU_ASSERT(rc == 0 || rc == CMN_EUSAGE);
			if (rc)
				continue;
			plat_machine_destroy(m);
			nested++;
			CU_ASSERT_EQUAL(check_machine(spec, rng), 0);
		}
	}
	CU_ASSERT(nested > 0);
	gsl_rng_free(rng);
}

/* A family with no path of its own: every pair, at its distance. */
static int odd_distance(const void *state, int a, int b)
{
	(void)state;
	return a == b ? 0 : 1 + (a * 7 + b * 7) % 5;
}

static void test_other_family(void)
{
	struct plat_topology_ops ops;
	struct plat_machine *m = th_machine_as("flat:nodes=30", "odd", &ops);
	ops.distance = odd_distance;
	ops.pair_sum = NULL; /* flat's own paths would not know the distance */
	ops.to_first = NULL;
	struct plat_machine odd = *m;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 7);
	int nodes[30];
	for (int iter = 0; iter < 60; iter++) {
		int n = random_set(&odd, rng, iter % 2, nodes);
		if (n)
			CU_ASSERT_EQUAL(check_set(&odd, nodes, n, rng), 0);
	}
	gsl_rng_free(rng);
	plat_machine_destroy(m);
}

/* Integers add exactly past 2^53 (where doubles drop the ones) and keep
 * their magnitude past 2^64. */
static void test_exact_sum(void)
{
	struct plat_isum s = {0, 0};
	plat_isum_add(&s, 0x1p53);
	plat_isum_add(&s, 1);
	plat_isum_add(&s, 1);
	CU_ASSERT_EQUAL(plat_isum_value(&s), 0x1p53 + 2);
	plat_isum_add(&s, 0x1p63);
	plat_isum_add(&s, 0x1p63);
	CU_ASSERT_DOUBLE_EQUAL(plat_isum_value(&s), 0x1p64 + 0x1p53, 0x1p12);
	plat_isum_add(&s, 0x1p70);
	CU_ASSERT_DOUBLE_EQUAL(plat_isum_value(&s), 0x1p70 + 0x1p64 + 0x1p53, 0x1p20);
	struct plat_run runs[4];
	CU_ASSERT_EQUAL(js_parse_runs("0-3 8 10-11", runs, 4), 3);
	CU_ASSERT(runs[0].first == 0 && runs[0].last == 3 && runs[1].first == 8 &&
	          runs[1].last == 8 && runs[2].first == 10 && runs[2].last == 11);
	CU_ASSERT_EQUAL(js_parse_runs("5-6 9", runs, 1), 1);
	CU_ASSERT_EQUAL(js_parse_runs("", runs, 4), 0);
}

/* The jobs CSV's pairwise_sum (column 22) is every pair's, job by job. */
static void test_jobs_csv(void)
{
	const char *machines[] = {"torus:dims=5x4x3", "torus:dims=5x4x3", "kary-ntree:k=3,n=3",
	                          "multicluster:clusters=3,size=8,cluster=mesh;dims=4x2"};
	const char *allocs[] = {"first-free", "curve:order=snake-col", "quasi", "first-free"};
	struct js_workload *w = th_workload();
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 3);
	for (int j = 0; j < 200; j++)
		th_add(w, j * 3.0, 5 + (double)gsl_rng_uniform_int(rng, 40), 50,
		       1 + (int)gsl_rng_uniform_int(rng, 24));
	for (int k = 0; k < 4; k++) {
		struct plat_machine *m;
		struct js_sim_result *r;
		struct js_runtime *rt;
		struct cmn_err e;
		CU_ASSERT_FATAL(plat_machine_create(machines[k], &m, &e) == 0);
		CU_ASSERT_FATAL(js_runtime_create("log", &rt, &e) == 0);
		int rc = th_run_spec(w, machines[k], allocs[k], "easy", rt, NULL, &r, &e);
		if (rc)
			fprintf(stderr, "\n  %s, %s: %s", machines[k], allocs[k], e.msg);
		CU_ASSERT_EQUAL_FATAL(rc, 0);
		FILE *f = tmpfile();
		CU_ASSERT_FATAL(f != NULL);
		CU_ASSERT_EQUAL(js_write_jobs_csv(f, w, r, m, 10), 0);
		rewind(f);
		char line[4096];
		int nodes[64], rows = 0, bad = 0;
		CU_ASSERT(fgets(line, sizeof line, f) != NULL); /* the header */
		while (fgets(line, sizeof line, f)) {
			char *p = line;
			for (int c = 0; c < 21 && p; c++)
				p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
			int n = js_parse_intervals(r->text + r->jobs[rows].res_off, nodes, 64);
			bad |= !p || strtod(p, NULL) != brute_sum(m, nodes, n);
			rows++;
		}
		CU_ASSERT_EQUAL(rows, (int)w->n);
		CU_ASSERT_EQUAL(bad, 0);
		fclose(f);
		js_sim_result_free(r);
		js_runtime_destroy(rt);
		plat_machine_destroy(m);
	}
	gsl_rng_free(rng);
	js_workload_free(w);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("allocation quality", NULL, NULL);
	CU_add_test(s, "every family = every pair, lists and runs", test_contract);
	CU_add_test(s, "a family without its own path", test_other_family);
	CU_add_test(s, "exact sums; runs parsed", test_exact_sum);
	CU_add_test(s, "jobs CSV = every pair", test_jobs_csv);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

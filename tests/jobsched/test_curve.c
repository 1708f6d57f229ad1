/* Curve-based allocation (seed 002): curve orders (Hilbert fixtures for
 * 4x4 and 8x8, every order a walk through every node on many shapes), each
 * selection rule by hand, and Fig. 9 reproduced on NASA-iPSC. */
#include <stdlib.h>
#include <string.h>

#include "../../jobsched/alloc/alloc_quality.h"
#include "../../jobsched/alloc/curve.h"
#include "../helpers.h"
#include "platform.h"

static int *build(const char *machine, const char *order, struct plat_machine **m, int *rc)
{
	struct cmn_err e;
	CU_ASSERT_FATAL(plat_machine_create(machine, m, &e) == 0);
	int *r = malloc((size_t)(*m)->nodes * sizeof *r);
	*rc = js_curve_build(*m, js_curve_parse(order), r, &e);
	return r;
}

static void test_hilbert_fixtures(void)
{
	/* the classic 4x4 Hilbert curve, from (0,0) to its neighbour corner */
	static const int want[16][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 2}, {0, 3},
	                                {1, 3}, {1, 2}, {2, 2}, {2, 3}, {3, 3}, {3, 2},
	                                {3, 1}, {2, 1}, {2, 0}, {3, 0}};
	struct plat_machine *m;
	int rc, c[2];
	int *r = build("mesh:dims=4x4", "hilbert", &m, &rc);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	for (int i = 0; i < 16; i++) {
		plat_coords(m, r[i], c);
		CU_ASSERT(c[0] == want[i][0] && c[1] == want[i][1]);
	}
	free(r);
	plat_machine_destroy(m);
	/* 8x8: four 4x4 quadrants one after the other, each a Hilbert curve */
	r = build("mesh:dims=8x8", "hilbert", &m, &rc);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	plat_coords(m, r[0], c);
	CU_ASSERT(c[0] == 0 && c[1] == 0);
	plat_coords(m, r[63], c);
	CU_ASSERT(c[0] == 7 && c[1] == 0);
	for (int q = 0; q < 4; q++) {
		int c0[2];
		plat_coords(m, r[16 * q], c0);
		for (int i = 1; i < 16; i++) {
			plat_coords(m, r[16 * q + i], c);
			CU_ASSERT(c[0] / 4 == c0[0] / 4 && c[1] / 4 == c0[1] / 4);
		}
	}
	free(r);
	plat_machine_destroy(m);
	/* spliced (Fig. 5): 20x4 is five 4x4 curves along the long side */
	r = build("mesh:dims=20x4", "hilbert", &m, &rc);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	for (int i = 0; i < 80; i++) {
		plat_coords(m, r[i], c);
		CU_ASSERT_EQUAL(c[0] / 4, i / 16);
	}
	free(r);
	plat_machine_destroy(m);
	r = build("mesh:dims=12x5", "hilbert", &m, &rc);
	CU_ASSERT_EQUAL(rc, CMN_EUSAGE);
	free(r);
	plat_machine_destroy(m);
}

static void test_orders_are_walks(void)
{
	static const char *const shapes[] = {
	    "mesh:dims=16x8", "mesh:dims=8x16", "mesh:dims=5x4x3", "mesh:dims=7", "mesh:dims=3x5x7",
	    "torus:dims=4x4x8", "mesh:dims=32x8x8", "mesh:dims=2x2x2x3",
	    /* sides of one node: Hilbert's curve of side 1 is one cell a piece
	     * (its construction once looped for ever there) */
	    "mesh:dims=1x9", "mesh:dims=9x1x1", "torus:dims=1x8", "mesh:dims=2x1"};
	static const char *const orders[] = {"row", "snake-row", "snake-col", "hilbert"};
	for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
		for (int o = 0; o < 4; o++) {
			struct plat_machine *m;
			int rc, *r = build(shapes[s], orders[o], &m, &rc);
			if (rc) { /* only Hilbert may refuse a shape */
				CU_ASSERT(o == 3);
				free(r);
				plat_machine_destroy(m);
				continue;
			}
			char *seen = calloc((size_t)m->nodes, 1);
			int jumps = 0;
			for (int i = 0; i < m->nodes; i++) {
				CU_ASSERT(r[i] >= 0 && r[i] < m->nodes && !seen[r[i]]);
				seen[r[i]] = 1;
				jumps += i && plat_distance(m, r[i - 1], r[i]) != 1;
			}
			if (o > 0) /* snakes and Hilbert move one hop at a time */
				CU_ASSERT_EQUAL(jumps, 0);
			free(seen);
			free(r);
			plat_machine_destroy(m);
		}
	/* orientations on 16x8 (16 rows of 8): row-major runs along the long
	 * dimension (0) first, the column-major snake along the short one */
	struct plat_machine *m;
	int rc, c[2];
	int *r = build("mesh:dims=16x8", "snake-row", &m, &rc);
	plat_coords(m, r[1], c);
	CU_ASSERT(c[0] == 1 && c[1] == 0);
	plat_coords(m, r[16], c);
	CU_ASSERT(c[0] == 15 && c[1] == 1);
	free(r);
	plat_machine_destroy(m);
	r = build("mesh:dims=16x8", "snake-col", &m, &rc);
	plat_coords(m, r[8], c);
	CU_ASSERT(c[0] == 1 && c[1] == 7);
	free(r);
	plat_machine_destroy(m);
}

/* Selection on a 1x16 mesh (curve = node order) with busy nodes. */
static int select_on(const char *sel, const char *busy, int size, int *out)
{
	struct plat_machine *m;
	struct js_alloc *a;
	struct cmn_err e;
	char spec[64];
	snprintf(spec, sizeof spec, "curve:order=row,select=%s", sel);
	CU_ASSERT_FATAL(plat_machine_create("mesh:dims=16", &m, &e) == 0);
	CU_ASSERT_FATAL(js_alloc_create(spec, m, &a, &e) == 0);
	for (int i = 0; busy[i]; i++)
		if (busy[i] == '#')
			js_alloc_occupy(a, &i, 1);
	struct js_job j;
	memset(&j, 0, sizeof j);
	j.size = size;
	int n = js_alloc_place(a, &j, out);
	js_alloc_destroy(a);
	plat_machine_destroy(m);
	return n;
}

static void test_selection(void)
{
	/* free intervals: [1,3] len 3, [6,7] len 2, [9,14] len 6 */
	const char *b = "#...##..#......#";
	int out[16];
	CU_ASSERT_EQUAL(select_on("freelist", b, 4, out), 4);
	CU_ASSERT(out[0] == 1 && out[2] == 3 && out[3] == 6);
	CU_ASSERT_EQUAL(select_on("ff", b, 2, out), 2);
	CU_ASSERT(out[0] == 1 && out[1] == 2);
	CU_ASSERT_EQUAL(select_on("bf", b, 2, out), 2);
	CU_ASSERT(out[0] == 6 && out[1] == 7); /* the exact fit */
	CU_ASSERT_EQUAL(select_on("ff", b, 4, out), 4);
	CU_ASSERT(out[0] == 9);
	/* sos, 2 nodes: from len 3 -> lengths {1,2,6}: N = 1,1,1 -> 3;
	 * from len 2 -> {3,6}: 2; from len 6 -> {3,2,4}: 3. The exact fit wins. */
	CU_ASSERT_EQUAL(select_on("sos", b, 2, out), 2);
	CU_ASSERT(out[0] == 6);
	/* sos, 1 node: len 3 -> {2,2,6}: 4+1 = 5; len 2 -> {3,1,6}: 3;
	 * len 6 -> {3,2,5}: 3: the first of the best (len 2) */
	CU_ASSERT_EQUAL(select_on("sos", b, 1, out), 1);
	CU_ASSERT(out[0] == 6);
	/* no interval of 7: the 7 free ranks spanning least, 6..14 beat 1..9 */
	CU_ASSERT_EQUAL(select_on("bf", b, 7, out), 7);
	CU_ASSERT(out[0] == 6 && out[6] == 13);
	CU_ASSERT_EQUAL(select_on("ff", b, 12, out), 0); /* 11 free */
}

/* Seed 002 Fig. 9, NASA-iPSC on 16x8 with EASY: every curve and strategy
 * gives the paper's average sum of pairwise L1 distances to the unit. */
static void test_fig9_nasa(void)
{
	const char *shared = th_shared_dir();
	if (!shared) {
		fprintf(stderr, "\n  SKIP: ../shared/workloads not found\n");
		return;
	}
	char path[1024];
	snprintf(path, sizeof path, "%s/workloads/NASA-iPSC-1993-3.1-cln.swf.gz", shared);
	struct js_workload *w;
	struct cmn_err e;
	CU_ASSERT_EQUAL_FATAL(js_swf_read(path, 0, &w, &e), 0);
	struct js_clean_opts o;
	js_clean_opts_default(&o);
	o.overrun = JS_OVERRUN_RAISE;
	CU_ASSERT_EQUAL_FATAL(js_clean(w, &o, 128, &e), 0);
	CU_ASSERT_EQUAL(w->n, 18239);
	static const struct {
		const char *spec;
		double paper;
	} fig9[] = {
	    {"curve:order=snake-col,select=bf", 2687},
	    {"curve:order=snake-col,select=ff", 2701},
	    {"curve:order=snake-col,select=freelist", 2733},
	    {"curve:order=hilbert,select=bf", 2696},
	    {"curve:order=hilbert,select=ff", 2714},
	    {"curve:order=hilbert,select=freelist", 2742},
	    {"curve:order=snake-row,select=bf", 3072},
	    {"curve:order=snake-row,select=ff", 3081},
	    {"curve:order=snake-row,select=freelist", 3096},
	};
	struct plat_machine *m;
	CU_ASSERT_FATAL(plat_machine_create("mesh:dims=16x8", &m, &e) == 0);
	int nodes[128], scratch[128];
	for (size_t i = 0; i < sizeof fig9 / sizeof *fig9; i++) {
		struct js_runtime *rt;
		struct js_sim_result *r;
		CU_ASSERT_FATAL(js_runtime_create("log", &rt, &e) == 0);
		CU_ASSERT_EQUAL_FATAL(
		    th_run_spec(w, "mesh:dims=16x8", fig9[i].spec, "easy", rt, NULL, &r, &e), 0);
		double sum = 0;
		for (size_t j = 0; j < w->n; j++) {
			int n = js_parse_intervals(r->text + r->jobs[j].res_off, nodes, 128);
			struct js_alloc_quality q;
			js_alloc_quality(m, nodes, n, n, scratch, &q);
			sum += q.pairwise_sum;
		}
		double mean = sum / (double)w->n;
		CU_ASSERT(mean > fig9[i].paper - 0.5 && mean < fig9[i].paper + 0.5);
		if (!(mean > fig9[i].paper - 0.5 && mean < fig9[i].paper + 0.5))
			fprintf(stderr, "\n  %s: %.1f, paper %.0f\n", fig9[i].spec, mean,
			        fig9[i].paper);
		js_sim_result_free(r);
		js_runtime_destroy(rt);
	}
	plat_machine_destroy(m);
	js_workload_free(w);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("curves", NULL, NULL);
	CU_add_test(s, "Hilbert 4x4, 8x8, spliced 20x4", test_hilbert_fixtures);
	CU_add_test(s, "every order visits every node", test_orders_are_walks);
	CU_add_test(s, "freelist, FF, BF, SoS, minimal span", test_selection);
	CU_add_test(s, "seed 002 Fig. 9, NASA-iPSC 16x8", test_fig9_nasa);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

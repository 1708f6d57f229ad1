/* Allocators: a contract suite that loops over the allocator registry on
 * every machine family each accepts (never a node twice, only free nodes,
 * the requested count, place changes nothing, clones and copies agree,
 * release restores the free set), and seed 000's Fig. 1 fixtures. */
#include <gsl/gsl_rng.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../../jobsched/alloc/alloc_bgl.h"
#include "../../jobsched/alloc/alloc_quality.h"
#include "../../jobsched/alloc/tree_blocks.h"
#include "../helpers.h"
#include "platform.h"

static const char *const machines[] = {
    "flat:nodes=37",
    "kary-ntree:k=4,n=3",
    "kary-ntree:k=2,n=5",
    "mesh:dims=8x6",
    "torus:dims=4x4x4",
    "multicluster:clusters=4,size=9",
    "multicluster:clusters=2,size=16,cluster=kary-ntree;k=4;n=2",
};

static int cmp_ints(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static struct js_job job_of(int size)
{
	struct js_job j;
	memset(&j, 0, sizeof j);
	j.size = size;
	return j;
}

/* Random place / occupy / release steps checked against a mirror. */
static int exercise(const char *alloc, const char *machine, unsigned long seed)
{
	struct plat_machine *m;
	struct js_alloc *a;
	struct cmn_err e;
	if (plat_machine_create(machine, &m, &e))
		return -1;
	if (js_alloc_create(alloc, m, &a, &e)) {
		plat_machine_destroy(m);
		return e.code == CMN_EUSAGE ? 1 : -1; /* 1: machine not accepted */
	}
	int N = m->nodes, bad = 0;
	int *buf = malloc((size_t)N * sizeof *buf), *buf2 = malloc((size_t)N * sizeof *buf2);
	int *owner = malloc((size_t)N * sizeof *owner);
	int **live = calloc((size_t)N, sizeof *live), *live_n = calloc((size_t)N, sizeof *live_n);
	int nlive = 0, busy = 0;
	for (int i = 0; i < N; i++)
		owner[i] = -1;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, seed);
	struct js_alloc *c = js_alloc_clone(a);
	/* on the empty machine one node always fits, and for every size fits()
	 * agrees with place() (some allocators cannot place every size at all:
	 * coalloc's jobs at or below thres must fit in one cluster) */
	for (int s = 1; s <= N && !bad; s += 1 + s / 3) {
		struct js_job j = job_of(s);
		int n = js_alloc_place(a, &j, buf);
		if ((s == 1 && n < 1) || (n > 0 && n < s) || js_alloc_fits(a, &j) != (n > 0))
			bad = 1;
	}
	for (int step = 0; step < 3000 && !bad; step++) { /* cases: see the checks */
		if (nlive && (gsl_rng_uniform(rng) < 0.4 || busy == N)) {
			int x = (int)gsl_rng_uniform_int(rng, (unsigned long)nlive);
			js_alloc_release(a, live[x], live_n[x]);
			for (int k = 0; k < live_n[x]; k++)
				owner[live[x][k]] = -1;
			busy -= live_n[x];
			free(live[x]);
			live[x] = live[nlive - 1];
			live_n[x] = live_n[nlive - 1];
			nlive--;
		} else {
			int size = 1 + (int)gsl_rng_uniform_int(rng, (unsigned long)(N / 3 + 1));
			struct js_job j = job_of(size);
			int n = js_alloc_place(a, &j, buf);
			if (js_alloc_fits(a, &j) != (n > 0))
				bad = 7; /* fits() disagrees with place() */
			if (n == 0 || bad)
				continue;
			if (n < size || n > N - busy)
				bad = 2;
			for (int k = 0; k < n && !bad; k++)
				if (buf[k] < 0 || buf[k] >= N || owner[buf[k]] != -1)
					bad = 3; /* busy, out of range or twice */
				else
					owner[buf[k]] = -2;
			for (int k = 0; k < n; k++)
				if (buf[k] >= 0 && buf[k] < N && owner[buf[k]] == -2)
					owner[buf[k]] = -1;
			/* place changed nothing; a copy decides the same */
			js_alloc_copy(c, a);
			if (js_alloc_place(a, &j, buf2) != n ||
			    memcmp(buf, buf2, (size_t)n * sizeof *buf) ||
			    js_alloc_place(c, &j, buf2) != n ||
			    memcmp(buf, buf2, (size_t)n * sizeof *buf))
				bad = 4;
			if (bad)
				break;
			js_alloc_occupy(a, buf, n);
			live[nlive] = malloc((size_t)n * sizeof *buf);
			memcpy(live[nlive], buf, (size_t)n * sizeof *buf);
			live_n[nlive++] = n;
			for (int k = 0; k < n; k++)
				owner[buf[k]] = nlive;
			busy += n;
		}
		if (js_alloc_free_count(a) != N - busy)
			bad = 5;
	}
	while (nlive--) { /* release everything: back to all free */
		js_alloc_release(a, live[nlive], live_n[nlive]);
		free(live[nlive]);
	}
	if (!bad && js_alloc_free_count(a) != N)
		bad = 6;
	if (bad)
		fprintf(stderr, "\n  %s on %s: contract broken (case %d)\n", alloc, machine, bad);
	gsl_rng_free(rng);
	free(buf), free(buf2), free(owner), free(live), free(live_n);
	js_alloc_destroy(c);
	js_alloc_destroy(a);
	plat_machine_destroy(m);
	return bad ? -1 : 0;
}

/* An allocator that says its state is canonical: a state taken from one
 * random busy set to the next by their difference (release, then occupy)
 * places every job size as a state built anew from the empty machine. */
static int canonical_states(const char *alloc, const char *machine, unsigned long seed)
{
	struct plat_machine *m = NULL;
	struct cmn_err e = {0};
	struct js_alloc *a = NULL, *b = NULL, *empty = NULL;
	if (plat_machine_create(machine, &m, &e) || js_alloc_create(alloc, m, &a, &e)) {
		plat_machine_destroy(m);
		return 1; /* not for this machine */
	}
	int N = m->nodes, bad = 0;
	empty = js_alloc_clone(a);
	b = js_alloc_clone(a);
	uint8_t *held = calloc((size_t)N, 1), *next = calloc((size_t)N, 1);
	int *rel = malloc((size_t)N * sizeof *rel), *occ = malloc((size_t)N * sizeof *occ),
	    *all = malloc((size_t)N * sizeof *all), *x = malloc((size_t)N * sizeof *x),
	    *y = malloc((size_t)N * sizeof *y);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, seed);
	for (int step = 0; step < 200 && !bad; step++) {
		double p = gsl_rng_uniform(r);
		int nr = 0, no = 0, na = 0;
		for (int v = 0; v < N; v++) {
			next[v] = gsl_rng_uniform(r) < p;
			if (held[v] && !next[v])
				rel[nr++] = v;
			if (!held[v] && next[v])
				occ[no++] = v;
			if (next[v])
				all[na++] = v;
		}
		js_alloc_release(a, rel, nr);
		js_alloc_occupy(a, occ, no);
		memcpy(held, next, (size_t)N);
		js_alloc_copy(b, empty);
		js_alloc_occupy(b, all, na);
		for (int size = 1; size <= N && !bad; size++) {
			struct js_job j = job_of(size);
			int nx = js_alloc_place(a, &j, x), ny = js_alloc_place(b, &j, y);
			if (nx != ny || memcmp(x, y, (size_t)nx * sizeof *x))
				bad = size;
		}
	}
	if (bad)
		fprintf(stderr, "\n  %s on %s: a state by differences places size %d otherwise\n",
		        alloc, machine, bad);
	gsl_rng_free(r);
	free(held), free(next), free(rel), free(occ), free(all), free(x), free(y);
	js_alloc_destroy(a);
	js_alloc_destroy(b);
	js_alloc_destroy(empty);
	plat_machine_destroy(m);
	return bad ? -1 : 0;
}

static void test_canonical(void)
{
	int checked = 0;
	for (int i = 0; js_alloc_registry[i]; i++) {
		if (!js_alloc_registry[i]->canonical)
			continue;
		for (int k = 0; th_sample(&js_alloc_registry[i]->base, k); k++)
			for (size_t mi = 0; mi < sizeof machines / sizeof *machines; mi++) {
				int rc = canonical_states(th_sample(&js_alloc_registry[i]->base, k),
				                          machines[mi], 7 + mi);
				CU_ASSERT(rc >= 0);
				checked += rc == 0;
			}
	}
	CU_ASSERT(checked >= 4); /* contiguous and quasi on the trees */
}

/* Every allocator's samples (cmn_plugin.samples, or its name) on every
 * machine above: each takes some of them. */
static void test_contract(void)
{
	for (int i = 0; js_alloc_registry[i]; i++)
		for (int k = 0; th_sample(&js_alloc_registry[i]->base, k); k++) {
			const char *spec = th_sample(&js_alloc_registry[i]->base, k);
			int accepted = 0;
			for (size_t mi = 0; mi < sizeof machines / sizeof *machines; mi++) {
				int rc = exercise(spec, machines[mi], 100 + mi);
				CU_ASSERT(rc >= 0);
				accepted += rc == 0;
			}
			CU_ASSERT(accepted > 0);
		}
}

/* Seed 000 Fig. 1 on a 4-ary 3-tree. */
static int place_mesh(const char *alloc, const char *machine, const int *busy, int nbusy, int size,
                      int *out);

static int place_on(const char *alloc, const int *busy, int nbusy, int size, int *out)
{
	return place_mesh(alloc, "kary-ntree:k=4,n=3", busy, nbusy, size, out);
}

static void test_fig1(void)
{
	int out[64], busy[64], nb = 0;
	/* job 1: 4 nodes, one stage-1 switch; job 2: 6 nodes, level 2 */
	CU_ASSERT_EQUAL(place_on("contiguous", NULL, 0, 4, out), 4);
	CU_ASSERT(out[0] == 0 && out[3] == 3);
	busy[nb++] = 1;
	CU_ASSERT_EQUAL(place_on("contiguous", busy, nb, 4, out), 4);
	CU_ASSERT(out[0] == 4 && out[3] == 7); /* first switch with 4 free */
	CU_ASSERT_EQUAL(place_on("contiguous", busy, nb, 6, out), 6);
	CU_ASSERT(out[5] < 16); /* under one level-2 switch */
	/* job 3: 4 nodes quasi-contiguously: no stage-1 switch has 4 free */
	nb = 0;
	for (int i = 0; i < 16; i += 4)
		busy[nb++] = i;
	for (int i = 16; i < 64; i++)
		busy[nb++] = i;
	CU_ASSERT_EQUAL(place_on("contiguous", busy, nb, 4, out), 0); /* waits */
	CU_ASSERT_EQUAL(place_on("quasi:qct=0", busy, nb, 4, out), 0);
	CU_ASSERT_EQUAL_FATAL(place_on("quasi:qct=25", busy, nb, 4, out), 4);
	CU_ASSERT(out[0] == 1 && out[1] == 2 && out[2] == 3 && out[3] == 5);
	CU_ASSERT_EQUAL(place_on("quasi:qct=20", busy, nb, 4, out), 4); /* ceil(0.8) = 1 */
	/* two tasks would have to leave the switch: qct 25 refuses, 50 accepts */
	nb = 0;
	for (int i = 0; i < 16; i += 4) {
		busy[nb++] = i;
		busy[nb++] = i + 1;
	}
	for (int i = 16; i < 64; i++)
		busy[nb++] = i;
	CU_ASSERT_EQUAL(place_on("quasi:qct=25", busy, nb, 4, out), 0);
	CU_ASSERT_EQUAL_FATAL(place_on("quasi:qct=50", busy, nb, 4, out), 4);
	CU_ASSERT(out[0] == 2 && out[1] == 3 && out[2] == 6 && out[3] == 7);
}

static void test_needs_tree(void)
{
	struct plat_machine *m;
	struct js_alloc *a;
	struct cmn_err e;
	CU_ASSERT_FATAL(plat_machine_create("mesh:dims=4x4", &m, &e) == 0);
	CU_ASSERT_EQUAL(js_alloc_create("contiguous", m, &a, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "kary-ntree"));
	CU_ASSERT_EQUAL(js_alloc_create("quasi:qct=120", m, &a, &e), CMN_EUSAGE);
	plat_machine_destroy(m);
}

static int place_mesh(const char *alloc, const char *machine, const int *busy, int nbusy, int size,
                      int *out)
{
	struct plat_machine *m;
	struct js_alloc *a;
	struct cmn_err e;
	CU_ASSERT_FATAL(plat_machine_create(machine, &m, &e) == 0);
	CU_ASSERT_FATAL(js_alloc_create(alloc, m, &a, &e) == 0);
	js_alloc_occupy(a, busy, nbusy);
	struct js_job j = job_of(size);
	int n = js_alloc_place(a, &j, out);
	js_alloc_destroy(a);
	plat_machine_destroy(m);
	return n;
}

/* The MBS hierarchies of a machine of 10^6 nodes are built in linear time
 * (Granular's took 95 s for 100x100x100: each pairing searched the rest of
 * the blocks; under this test's TIMEOUT now), and 64 nodes of an empty mesh
 * are one of its blocks: a box of 64 nodes. */
static void test_mbs_at_size(void)
{
	static const char *const cases[][2] = {{"mbs:variant=granular", "mesh:dims=100x100x100"},
	                                       {"mbs:variant=granular", "mesh:dims=1024x1024"},
	                                       {"mbs:variant=octet", "mesh:dims=100x100x100"},
	                                       {"mbs:variant=layered", "mesh:dims=100x100x100"}};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		int out[64], c[3] = {0, 0, 0}, lo[3] = {INT_MAX, INT_MAX, INT_MAX},
		             hi[3] = {0, 0, 0};
		CU_ASSERT_EQUAL_FATAL(place_mesh(cases[i][0], cases[i][1], NULL, 0, 64, out), 64);
		struct plat_machine *m;
		struct cmn_err e;
		CU_ASSERT_FATAL(plat_machine_create(cases[i][1], &m, &e) == 0);
		for (int k = 0; k < 64; k++) {
			plat_coords(m, out[k], c);
			for (int d = 0; d < 3; d++) {
				lo[d] = c[d] < lo[d] ? c[d] : lo[d];
				hi[d] = c[d] > hi[d] ? c[d] : hi[d];
			}
		}
		qsort(out, 64, sizeof *out, cmp_ints);
		int distinct = 1;
		for (int k = 1; k < 64; k++)
			distinct &= out[k] != out[k - 1];
		CU_ASSERT(distinct);
		CU_ASSERT_EQUAL((hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1),
		                64);
		plat_machine_destroy(m);
	}
}

/* Seed 002 section I and V: MC1x1's shells, Gen-Alg's diamonds, MM. */
static void test_center_based(void)
{
	int out[64];
	/* empty 7x7: a 3x3 square (score 8) around the first interior centre */
	CU_ASSERT_EQUAL_FATAL(place_mesh("mc1x1", "mesh:dims=7x7", NULL, 0, 9, out), 9);
	qsort(out, 9, sizeof *out, cmp_ints);
	const int square[9] = {0, 1, 2, 7, 8, 9, 14, 15, 16};
	CU_ASSERT(memcmp(out, square, sizeof square) == 0);
	/* two nodes: the centre and its nearest shell-1 node by L1 then id */
	CU_ASSERT_EQUAL(place_mesh("mc1x1", "mesh:dims=5x5", NULL, 0, 2, out), 2);
	CU_ASSERT(out[0] == 0 && out[1] == 1);
	/* a busy column splits the mesh: the 3 nodes stay on the roomier side */
	int wall[5] = {1, 6, 11, 16, 21}; /* column 1 of 5x5 */
	CU_ASSERT_EQUAL_FATAL(place_mesh("mc1x1", "mesh:dims=5x5", wall, 5, 3, out), 3);
	for (int i = 0; i < 3; i++)
		CU_ASSERT(out[i] % 5 >= 2);
	/* genalg, 5 nodes on an empty 7x7: the corner centre's L1-nearest five
	 * (pairwise sum 16, as good as a plus shape; ties: the lower centre) */
	CU_ASSERT_EQUAL_FATAL(place_mesh("genalg", "mesh:dims=7x7", NULL, 0, 5, out), 5);
	qsort(out, 5, sizeof *out, cmp_ints);
	const int five[5] = {0, 1, 2, 7, 8};
	CU_ASSERT(memcmp(out, five, sizeof five) == 0);
	/* mm's centres include every free node (genalg's) and more, judged the
	 * same way: its pairwise sum is never larger, on random states */
	struct plat_machine *m;
	struct cmn_err e0;
	CU_ASSERT_FATAL(plat_machine_create("mesh:dims=6x6", &m, &e0) == 0);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 9);
	int better = 0, worse = 0, scratch[64];
	for (int iter = 0; iter < 200; iter++) {
		int busy[36], nb = 0;
		for (int i = 0; i < 36; i++)
			if (gsl_rng_uniform(rng) < 0.5)
				busy[nb++] = i;
		int k = 1 + (int)gsl_rng_uniform_int(rng, (unsigned long)(36 - nb));
		int g[36], mm[36];
		CU_ASSERT_EQUAL(place_mesh("genalg", "mesh:dims=6x6", busy, nb, k, g), k);
		CU_ASSERT_EQUAL(place_mesh("mm", "mesh:dims=6x6", busy, nb, k, mm), k);
		qsort(g, (size_t)k, sizeof *g, cmp_ints);
		qsort(mm, (size_t)k, sizeof *mm, cmp_ints);
		struct js_alloc_quality qg, qm;
		js_alloc_quality(m, g, k, k, scratch, &qg);
		js_alloc_quality(m, mm, k, k, scratch, &qm);
		worse += qm.pairwise_sum > qg.pairwise_sum;
		better += qm.pairwise_sum < qg.pairwise_sum;
	}
	CU_ASSERT_EQUAL(worse, 0);
	CU_ASSERT(better > 0); /* and the extra centres do find better ones */
	gsl_rng_free(rng);
	plat_machine_destroy(m);
	struct js_alloc *a;
	struct cmn_err e;
	CU_ASSERT_FATAL(plat_machine_create("torus:dims=4x4", &m, &e) == 0);
	CU_ASSERT_EQUAL(js_alloc_create("mc1x1", m, &a, &e), CMN_EUSAGE);
	plat_machine_destroy(m);
}

/* Seed 002 Fig. 10 and 11 on a 5x4 mesh (5 rows of 4). */
static void test_mbs_fixtures(void)
{
	int out[32], c[2];
	struct plat_machine *m;
	struct cmn_err e;
	CU_ASSERT_FATAL(plat_machine_create("mesh:dims=5x4", &m, &e) == 0);
	/* Fig. 10: a 4x4 block and four 1x1 blocks at the top: 16 nodes are
	 * the 4x4 square; the next four single nodes the last row */
	CU_ASSERT_EQUAL_FATAL(place_mesh("mbs:variant=2d", "mesh:dims=5x4", NULL, 0, 16, out), 16);
	for (int i = 0; i < 16; i++) {
		plat_coords(m, out[i], c);
		CU_ASSERT(c[0] < 4);
	}
	/* 5 = 4 + 1 (base 4): a 2x2 quadrant of the 4x4 and a 1x1 block */
	CU_ASSERT_EQUAL_FATAL(place_mesh("mbs:variant=2d", "mesh:dims=5x4", NULL, 0, 5, out), 5);
	const int five[5] = {0, 1, 4, 5, 16};
	CU_ASSERT(memcmp(out, five, sizeof five) == 0);
	/* Fig. 11: Granular pairs along dimension 0 then 1: 2x2 and 1x2 blocks,
	 * then 4x4 and 1x4 at the top. 2 nodes come from splitting the 1x4
	 * (the smallest free block larger than 2); 8 from halving the 4x4 */
	CU_ASSERT_EQUAL_FATAL(place_mesh("mbs:variant=granular", "mesh:dims=5x4", NULL, 0, 2, out),
	                      2);
	CU_ASSERT(out[0] == 16 && out[1] == 17);
	CU_ASSERT_EQUAL_FATAL(place_mesh("mbs:variant=granular", "mesh:dims=5x4", NULL, 0, 8, out),
	                      8);
	for (int i = 0; i < 8; i++) {
		plat_coords(m, out[i], c);
		CU_ASSERT(c[0] < 4 && c[1] < 2); /* one 4x2 half of the 4x4 */
	}
	CU_ASSERT_EQUAL_FATAL(place_mesh("mbs:variant=granular", "mesh:dims=5x4", NULL, 0, 4, out),
	                      4);
	CU_ASSERT(out[0] == 16 && out[3] == 19); /* the 1x4 block whole */
	/* Octet on a 2D mesh has only 1x1x1 blocks: first free nodes */
	CU_ASSERT_EQUAL(place_mesh("mbs:variant=octet", "mesh:dims=5x4", NULL, 0, 3, out), 3);
	CU_ASSERT(out[0] == 0 && out[1] == 1 && out[2] == 2);
	plat_machine_destroy(m);
	struct js_alloc *a;
	CU_ASSERT_FATAL(plat_machine_create("mesh:dims=4x4x4", &m, &e) == 0);
	CU_ASSERT_EQUAL(js_alloc_create("mbs:variant=2d", m, &a, &e), CMN_EUSAGE);
	plat_machine_destroy(m);
}

/* Seed 003: a 4x4 torus with one free 2x2 partition and a 3-node request:
 * the head is raised to 4; a backfilled job only by I. */
static void test_bgl_fixtures(void)
{
	int busy[16], nb = 0, out[128];
	for (int i = 0; i < 16; i++)
		if (!((i / 4 == 1 || i / 4 == 2) && (i % 4 == 1 || i % 4 == 2)))
			busy[nb++] = i; /* free: (1,1) (1,2) (2,1) (2,2) */
	CU_ASSERT_EQUAL_FATAL(place_mesh("bgl", "torus:dims=4x4", busy, nb, 3, out), 4);
	qsort(out, 4, sizeof *out, cmp_ints);
	CU_ASSERT(out[0] == 5 && out[1] == 6 && out[2] == 9 && out[3] == 10);
	struct plat_machine *m;
	struct js_alloc *a;
	struct cmn_err e;
	CU_ASSERT_FATAL(plat_machine_create("torus:dims=4x4", &m, &e) == 0);
	for (int I = 0; I <= 1; I++) {
		char spec[32];
		snprintf(spec, sizeof spec, "bgl:I=%d", I);
		CU_ASSERT_FATAL(js_alloc_create(spec, m, &a, &e) == 0);
		js_alloc_occupy(a, busy, nb);
		struct js_job j = job_of(3);
		CU_ASSERT_EQUAL(js_alloc_place_flags(a, &j, JS_PLACE_BACKFILL, out), I ? 4 : 0);
		CU_ASSERT_EQUAL(js_alloc_fits_flags(a, &j, JS_PLACE_BACKFILL), I);
		CU_ASSERT_EQUAL(js_alloc_fits(a, &j), 1);
		js_alloc_destroy(a);
	}
	/* sizes no box has are raised: 7 on a 4x4 torus becomes 8 (2x4) */
	CU_ASSERT_EQUAL(place_mesh("bgl", "torus:dims=4x4", NULL, 0, 7, out), 8);
	/* on an empty 4x4x8 torus a job of 64 takes half of it as one box */
	CU_ASSERT_EQUAL(place_mesh("bgl", "torus:dims=4x4x8", NULL, 0, 64, out), 64);
	plat_machine_destroy(m);
	CU_ASSERT_FATAL(plat_machine_create("mesh:dims=4x4", &m, &e) == 0);
	CU_ASSERT_EQUAL(js_alloc_create("bgl", m, &a, &e), CMN_EUSAGE);
	plat_machine_destroy(m);
}

/* Largest free box by brute force: every base and every size. */
static int brute_lfp(const int *d, const uint8_t *busy)
{
	int best = 0;
	for (int i = 0; i < d[0]; i++)
		for (int j = 0; j < d[1]; j++)
			for (int k = 0; k < d[2]; k++)
				for (int a = 1; a <= d[0]; a++)
					for (int b = 1; b <= d[1]; b++)
						for (int c = 1; c <= d[2]; c++) {
							if (a * b * c <= best)
								continue;
							int ok = 1;
							for (int x = 0; x < a && ok; x++)
								for (int y = 0; y < b && ok; y++)
									for (int z = 0; z < c && ok;
									     z++)
										ok =
										    !busy
										        [(((i + x) %
										           d[0]) *
										              d[1] +
										          (j + y) %
										              d[1]) *
										             d[2] +
										         (k + z) %
										             d[2]];
							if (ok)
								best = a * b * c;
						}
	return best;
}

/* The largest free box (seed 003's POP computes it; the allocator uses
 * its maximal free boxes) equals brute force on 1,400 random states. */
static void test_pop_brute_force(void)
{
	static const char *const tori[] = {"torus:dims=4x4x4", "torus:dims=4x4x8",
	                                   "torus:dims=3x5x2"};
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 3);
	int bad = 0;
	for (int t = 0; t < 3; t++) {
		struct plat_machine *m;
		struct js_alloc *a;
		struct cmn_err e;
		CU_ASSERT_FATAL(plat_machine_create(tori[t], &m, &e) == 0);
		CU_ASSERT_FATAL(js_alloc_create("bgl", m, &a, &e) == 0);
		int nd, d[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS];
		plat_grid_shape(m, &nd, d, wrap, &e);
		uint8_t busy[256];
		int states = t == 0 ? 1000 : 200;
		for (int s = 0; s < states; s++) {
			double p = gsl_rng_uniform(rng);
			for (int i = 0; i < m->nodes; i++)
				busy[i] = gsl_rng_uniform(rng) < p;
			int lfp = js_bgl_largest_free(a->self, busy), bf = brute_lfp(d, busy);
			if (lfp != bf && !bad++)
				fprintf(stderr, "\n  %s: %d, brute force %d\n", tori[t], lfp, bf);
		}
		js_alloc_destroy(a);
		plat_machine_destroy(m);
	}
	CU_ASSERT_EQUAL(bad, 0);
	gsl_rng_free(rng);
}

/* Seed 001: component sizes, Worst Fit, and jobs at or below thres. */
static void test_coalloc_fixtures(void)
{
	int out[128], c[8] = {0};
	const char *m5 = "multicluster:clusters=5,size=20";
	/* 19 > thres 10: 4 components 19 - 3 x 4 = 7, 4, 4, 4, widest into the
	 * freest cluster; all free: ties go to the lower cluster index */
	CU_ASSERT_EQUAL_FATAL(place_mesh("coalloc", m5, NULL, 0, 19, out), 19);
	for (int i = 0; i < 19; i++)
		c[out[i] / 20]++;
	CU_ASSERT(c[0] == 7 && c[1] == 4 && c[2] == 4 && c[3] == 4 && c[4] == 0);
	/* with cluster 0 partly busy, the freest clusters take the widest parts */
	int busy[10];
	for (int i = 0; i < 10; i++)
		busy[i] = i; /* cluster 0: 10 free */
	memset(c, 0, sizeof c);
	CU_ASSERT_EQUAL_FATAL(place_mesh("coalloc", m5, busy, 10, 13, out), 13);
	for (int i = 0; i < 13; i++)
		c[out[i] / 20]++; /* 13 - 3 x 3 = 4, 3, 3, 3 into clusters 1, 2, 3, 4 */
	CU_ASSERT(c[0] == 0 && c[1] == 4 && c[2] == 3 && c[3] == 3 && c[4] == 3);
	/* at or below thres: one cluster, the freest */
	CU_ASSERT_EQUAL_FATAL(place_mesh("coalloc", m5, busy, 10, 9, out), 9);
	CU_ASSERT(out[0] == 20 && out[8] == 28);
	CU_ASSERT_EQUAL(place_mesh("coalloc:thres=30", m5, NULL, 0, 21, out), 0); /* > a cluster */
	CU_ASSERT_EQUAL(place_mesh("coalloc:thres=2,k=3", m5, NULL, 0, 2, out), 2);
	struct plat_machine *m;
	struct js_alloc *a;
	struct cmn_err e;
	CU_ASSERT_FATAL(plat_machine_create("multicluster:clusters=3,size=4", &m, &e) == 0);
	CU_ASSERT_EQUAL(js_alloc_create("coalloc:k=4", m, &a, &e), CMN_EUSAGE);
	plat_machine_destroy(m);
	CU_ASSERT_FATAL(plat_machine_create("flat:nodes=8", &m, &e) == 0);
	CU_ASSERT_EQUAL(js_alloc_create("coalloc", m, &a, &e), CMN_EUSAGE);
	plat_machine_destroy(m);
}

static struct js_alloc_quality quality_of(const char *machine, const int *nodes, int n, int size)
{
	struct plat_machine *m;
	struct cmn_err e;
	struct js_alloc_quality q;
	int scratch[64];
	CU_ASSERT_FATAL(plat_machine_create(machine, &m, &e) == 0);
	js_alloc_quality(m, nodes, n, size, scratch, &q);
	plat_machine_destroy(m);
	return q;
}

static void test_quality_fixtures(void)
{
	const int a[] = {0, 1, 4}, b[] = {0, 1, 5}, c[] = {0, 3}, d[] = {0, 1, 2};
	struct js_alloc_quality q = quality_of("kary-ntree:k=4,n=3", a, 3, 3);
	CU_ASSERT_DOUBLE_EQUAL(q.pairwise_sum, 2 + 4 + 4, 0);
	CU_ASSERT_DOUBLE_EQUAL(q.pairwise_mean, 10.0 / 3, 1e-12);
	CU_ASSERT(q.max_level == 2 && q.cls == JS_CLASS_QUASI); /* a level-1 job at level 2 */
	q = quality_of("kary-ntree:k=4,n=3", a, 2, 2);
	CU_ASSERT(q.max_level == 1 && q.cls == JS_CLASS_CONTIGUOUS);
	const int far[] = {0, 63};
	q = quality_of("kary-ntree:k=4,n=3", far, 2, 2);
	CU_ASSERT(q.max_level == 3 && q.cls == JS_CLASS_NONCONTIGUOUS);
	q = quality_of("mesh:dims=4x4", b, 3, 3);
	CU_ASSERT_DOUBLE_EQUAL(q.pairwise_sum, 1 + 2 + 1, 0);
	CU_ASSERT(q.cls == JS_CLASS_NA && q.max_level == -1);
	q = quality_of("torus:dims=4x4", c, 2, 2);
	CU_ASSERT_DOUBLE_EQUAL(q.pairwise_sum, 1, 0);
	q = quality_of("flat:nodes=8", d, 3, 3);
	CU_ASSERT_DOUBLE_EQUAL(q.pairwise_sum, 6, 0);
	q = quality_of("multicluster:clusters=2,size=2", d, 3, 3);
	CU_ASSERT_DOUBLE_EQUAL(q.pairwise_sum, 2 + 3 + 3, 0);
	CU_ASSERT_EQUAL(q.clusters, 2);
	q = quality_of("multicluster:clusters=2,size=2,wan=backbone", d, 3, 3);
	CU_ASSERT_DOUBLE_EQUAL(q.pairwise_sum, 2 + 4 + 4, 0);
	int nodes[16];
	CU_ASSERT_EQUAL(js_parse_intervals("0-3 8 10-11", nodes, 16), 7);
	CU_ASSERT(nodes[3] == 3 && nodes[4] == 8 && nodes[6] == 11);
}

/* The fast paths agree with every pair's distance on every sample machine. */
static void test_quality_brute_force(void)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 5);
	for (size_t mi = 0; mi < sizeof machines / sizeof *machines; mi++) {
		struct plat_machine *m;
		struct cmn_err e;
		CU_ASSERT_FATAL(plat_machine_create(machines[mi], &m, &e) == 0);
		int *nodes = malloc((size_t)m->nodes * sizeof *nodes);
		int *scratch = malloc((size_t)m->nodes * sizeof *scratch);
		for (int iter = 0; iter < 200; iter++) {
			int n = 0;
			double p = gsl_rng_uniform(rng);
			for (int i = 0; i < m->nodes; i++)
				if (gsl_rng_uniform(rng) < p)
					nodes[n++] = i;
			if (n == 0)
				continue;
			struct js_alloc_quality q;
			js_alloc_quality(m, nodes, n, n, scratch, &q);
			double sum = 0;
			for (int i = 0; i < n; i++)
				for (int j = i + 1; j < n; j++)
					sum += plat_distance(m, nodes[i], nodes[j]);
			CU_ASSERT_DOUBLE_EQUAL(q.pairwise_sum, sum, 1e-9);
		}
		free(nodes);
		free(scratch);
		plat_machine_destroy(m);
	}
	gsl_rng_free(rng);
}

/* The tree's free counts after random takes and give-backs of a few nodes
 * (counted node by node) and of many (the counts summed again from the
 * bits), against a count of the bits of every block. */
static void test_tree_blocks_counts(void)
{
	static const int trees[][2] = {{2, 4}, {4, 3}, {3, 5}, {22, 2}, {8, 3}};
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 5);
	for (size_t t = 0; t < sizeof trees / sizeof *trees; t++) {
		struct js_tree_blocks tb, copy;
		CU_ASSERT_FATAL(js_tree_blocks_init(&tb, trees[t][0], trees[t][1]) == 0);
		CU_ASSERT_FATAL(js_tree_blocks_init(&copy, trees[t][0], trees[t][1]) == 0);
		int n = tb.nodes, *ids = malloc((size_t)n * sizeof *ids);
		uint8_t *busy = calloc((size_t)n, 1);
		CU_ASSERT_FATAL(ids && busy);
		for (int step = 0; step < 300; step++) {
			int mark = (int)gsl_rng_uniform_int(r, 2),
			    many = (int)gsl_rng_uniform_int(r, 2);
			int k = 0;
			for (int i = 0; i < n; i++)
				if (busy[i] != mark && gsl_rng_uniform(r) < (many ? 0.5 : 2.0 / n))
					ids[k++] = i;
			js_tree_blocks_set(&tb, ids, k, mark);
			for (int i = 0; i < k; i++)
				busy[ids[i]] = (uint8_t)mark;
			if (step % 7 == 0) { /* and through a copy */
				js_tree_blocks_copy(&copy, &tb);
				struct js_tree_blocks x = tb;
				tb = copy;
				copy = x;
			}
			for (int l = 0; l <= tb.n; l++)
				for (int b = 0; b < n / tb.size[l]; b++) {
					int want = 0;
					for (int i = b * tb.size[l]; i < (b + 1) * tb.size[l]; i++)
						want += !busy[i];
					CU_ASSERT_EQUAL_FATAL(js_tree_free(&tb, l, b), want);
				}
		}
		js_tree_blocks_free(&tb);
		js_tree_blocks_free(&copy);
		free(ids);
		free(busy);
	}
	gsl_rng_free(r);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("allocators", NULL, NULL);
	CU_add_test(s, "contract over the registry", test_contract);
	CU_add_test(s, "canonical states: by differences = built anew", test_canonical);
	CU_add_test(s, "seed 000 Fig. 1 (contiguous, quasi)", test_fig1);
	CU_add_test(s, "tree allocators need a tree", test_needs_tree);
	CU_add_test(s, "tree blocks' free counts = a count of the bits", test_tree_blocks_counts);
	CU_add_test(s, "MC1x1, Gen-Alg and MM", test_center_based);
	CU_add_test(s, "MBS Fig. 10 and Granular Fig. 11", test_mbs_fixtures);
	CU_add_test(s, "MBS hierarchies of 10^6 nodes", test_mbs_at_size);
	CU_add_test(s, "BlueGene/L partitions (seed 003)", test_bgl_fixtures);
	CU_add_test(s, "co-allocation (seed 001)", test_coalloc_fixtures);
	CU_add_test(s, "largest free box = brute force, 1,400 states", test_pop_brute_force);
	CU_add_test(s, "allocation quality fixtures", test_quality_fixtures);
	CU_add_test(s, "allocation quality = every pair", test_quality_brute_force);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

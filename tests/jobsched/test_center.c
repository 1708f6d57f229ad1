/* The centre-based mesh allocators (mc1x1, genalg, mm) against brute-force
 * references kept here: every candidate centre scored from a sort of every
 * free node, on random busy states of 1D, 2D and 3D meshes (scattered,
 * blocky, striped, nearly empty, nearly full), through sequences of
 * placements and releases, and on clones and copies (also over a different
 * state); and on states made for the boxes that genalg and mm score at
 * once (free diamond-shaped pockets, free bands along walls). The
 * placements must be the very same nodes in the same order. */
#include <gsl/gsl_rng.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../jobsched/alloc/center_internal.h"
#include "../helpers.h"
#include "platform.h"

struct shape {
	const char *spec;
	int dims[3]; /* C order, 1 for missing leading dimensions */
};

static const struct shape shapes[] = {
    {"mesh:dims=17", {1, 1, 17}},   {"mesh:dims=9x7", {1, 9, 7}},
    {"mesh:dims=3x20", {1, 3, 20}}, {"mesh:dims=20x20", {1, 20, 20}},
    {"mesh:dims=4x5x6", {4, 5, 6}}, {"mesh:dims=2x8x9", {2, 8, 9}},
    {"mesh:dims=9x9x9", {9, 9, 9}}, {"mesh:dims=1x6x6", {1, 6, 6}},
};

enum { MC1X1, GENALG, MM };
static const char *const kinds[] = {"mc1x1", "genalg", "mm"};

struct keyed {
	long key;
	int id;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->id - y->id;
}

static void coords(const int *dims, int v, int *p)
{
	p[2] = v % dims[2];
	p[1] = v / dims[2] % dims[1];
	p[0] = v / (dims[2] * dims[1]);
}

static int center_of(const int *dims, const int *p)
{
	return (p[0] * dims[1] + p[1]) * dims[2] + p[2];
}

/* Free nodes around p, ordered by (L-inf, L1, id) when linf, else (L1, id). */
static int order(const int *dims, const uint8_t *busy, const int *p, int linf, struct keyed *out)
{
	int n = dims[0] * dims[1] * dims[2], m = 0, q[3];
	for (int v = 0; v < n; v++) {
		if (busy[v])
			continue;
		coords(dims, v, q);
		long l1 = 0, li = 0;
		for (int d = 0; d < 3; d++) {
			long a = labs((long)q[d] - p[d]);
			l1 += a;
			li = a > li ? a : li;
		}
		out[m].key = linf ? li * 1000 + l1 : l1;
		out[m++].id = v;
	}
	qsort(out, (size_t)m, sizeof *out, cmp_keyed);
	return m;
}

/* The reference allocators, straight from their definitions. */
static void reference(int kind, const int *dims, const uint8_t *busy, int k, int *nodes)
{
	int n = dims[0] * dims[1] * dims[2], p[3], q[3], r[3];
	struct keyed *buf = malloc((size_t)n * sizeof *buf);
	uint8_t has[3][64] = {{0}};
	for (int v = 0; v < n; v++)
		if (!busy[v]) {
			coords(dims, v, p);
			for (int d = 0; d < 3; d++)
				has[d][p[d]] = 1;
		}
	long best = -1;
	int winner = -1;
	for (int v = 0; v < n; v++) {
		coords(dims, v, p);
		if (kind == MM ? !(has[0][p[0]] && has[1][p[1]] && has[2][p[2]]) : busy[v])
			continue;
		order(dims, busy, p, kind == MC1X1, buf);
		long score = 0;
		for (int i = 0; i < k; i++) {
			coords(dims, buf[i].id, q);
			if (kind == MC1X1)
				score += buf[i].key / 1000;
			else
				for (int j = i + 1; j < k; j++) {
					coords(dims, buf[j].id, r);
					for (int d = 0; d < 3; d++)
						score += labs((long)q[d] - r[d]);
				}
		}
		if (best < 0 || score < best) {
			best = score;
			winner = v;
		}
	}
	coords(dims, winner, p);
	order(dims, busy, p, kind == MC1X1, buf);
	for (int i = 0; i < k; i++)
		nodes[i] = buf[i].id;
	free(buf);
}

struct rig {
	const struct shape *shape;
	struct plat_machine *m;
	struct js_alloc *a[3];
	int n;
	uint8_t *busy;
	int *want, *got;
};

static void rig_open(struct rig *g, const struct shape *s)
{
	struct cmn_err e;
	memset(g, 0, sizeof *g);
	g->shape = s;
	CU_ASSERT_FATAL(plat_machine_create(s->spec, &g->m, &e) == 0);
	for (int i = 0; i < 3; i++)
		CU_ASSERT_FATAL(js_alloc_create(kinds[i], g->m, &g->a[i], &e) == 0);
	g->n = g->m->nodes;
	g->busy = calloc((size_t)g->n, 1);
	g->want = malloc((size_t)g->n * sizeof *g->want);
	g->got = malloc((size_t)g->n * sizeof *g->got);
}

static void rig_close(struct rig *g)
{
	for (int i = 0; i < 3; i++)
		js_alloc_destroy(g->a[i]);
	plat_machine_destroy(g->m);
	free(g->busy);
	free(g->want);
	free(g->got);
}

/* Places k with allocator instance a; 1 when it takes the nodes of g->want
 * in the same order. */
static int same(struct rig *g, struct js_alloc *a, int k)
{
	struct js_job j;
	memset(&j, 0, sizeof j);
	j.size = k;
	int n = js_alloc_place(a, &j, g->got);
	return n == k && memcmp(g->want, g->got, (size_t)k * sizeof *g->got) == 0;
}

/* Places k with allocator instance a (of kind) and the reference on the
 * rig's busy state; 1 when they agree. */
static int agree(struct rig *g, int kind, struct js_alloc *a, int k)
{
	reference(kind, g->shape->dims, g->busy, k, g->want);
	return same(g, a, k);
}

/* A random busy state: scattered nodes at some density, boxes, or whole
 * planes of one dimension (MM's centres there have no free node in their
 * plane) with a few scattered nodes. */
static void random_state(struct rig *g, gsl_rng *rng)
{
	const int *dims = g->shape->dims;
	memset(g->busy, 0, (size_t)g->n);
	int style = (int)gsl_rng_uniform_int(rng, 4);
	if (style == 3) {
		int d = 0, p[3];
		while (dims[d] == 1)
			d++;
		d += (int)gsl_rng_uniform_int(rng, (unsigned long)(3 - d));
		uint8_t plane[32];
		for (int i = 0; i < dims[d]; i++)
			plane[i] = gsl_rng_uniform(rng) < 0.4;
		for (int v = 0; v < g->n; v++) {
			coords(dims, v, p);
			g->busy[v] = plane[p[d]] || gsl_rng_uniform(rng) < 0.1;
		}
	} else if (style == 0) {
		static const double dens[] = {0, 0.05, 0.3, 0.6, 0.9};
		double p = dens[gsl_rng_uniform_int(rng, 5)];
		for (int v = 0; v < g->n; v++)
			g->busy[v] = gsl_rng_uniform(rng) < p;
	} else {
		int boxes = 1 + (int)gsl_rng_uniform_int(rng, style == 1 ? 3 : 12);
		for (int b = 0; b < boxes; b++) {
			int lo[3], hi[3], p[3];
			for (int d = 0; d < 3; d++) {
				lo[d] = (int)gsl_rng_uniform_int(rng, (unsigned long)dims[d]);
				hi[d] =
				    lo[d] + (int)gsl_rng_uniform_int(rng, (unsigned long)dims[d]);
			}
			for (int v = 0; v < g->n; v++) {
				coords(dims, v, p);
				if (p[0] >= lo[0] && p[0] <= hi[0] && p[1] >= lo[1] &&
				    p[1] <= hi[1] && p[2] >= lo[2] && p[2] <= hi[2])
					g->busy[v] = 1;
			}
		}
	}
	int nfree = 0;
	for (int v = 0; v < g->n; v++)
		nfree += !g->busy[v];
	if (nfree == 0)
		g->busy[gsl_rng_uniform_int(rng, (unsigned long)g->n)] = 0;
}

static int random_size(gsl_rng *rng, int nfree)
{
	if (gsl_rng_uniform(rng) < 0.5) /* small jobs: whole free balls, shortcuts */
		return 1 + (int)gsl_rng_uniform_int(rng, (unsigned long)(nfree < 12 ? nfree : 12));
	return 1 + (int)gsl_rng_uniform_int(rng, (unsigned long)nfree);
}

/* Fresh allocators given each random state. */
static void test_random_states(void)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 23);
	int bad[3] = {0, 0, 0}, tried = 0;
	for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
		struct rig g;
		rig_open(&g, &shapes[s]);
		int states = g.n > 500 ? 8 : 30;
		for (int t = 0; t < states; t++) {
			random_state(&g, rng);
			int *list = malloc((size_t)g.n * sizeof *list), nb = 0;
			for (int v = 0; v < g.n; v++)
				if (g.busy[v])
					list[nb++] = v;
			int k = random_size(rng, g.n - nb);
			/* the complement state, for copies to overwrite */
			int *other = malloc((size_t)g.n * sizeof *other), no = 0;
			for (int v = 0; v < g.n; v++)
				if (!g.busy[v])
					other[no++] = v;
			for (int i = 0; i < 3; i++) {
				struct cmn_err e;
				struct js_alloc *a, *b;
				CU_ASSERT_FATAL(js_alloc_create(kinds[i], g.m, &a, &e) == 0);
				CU_ASSERT_FATAL(js_alloc_create(kinds[i], g.m, &b, &e) == 0);
				js_alloc_occupy(a, list, nb);
				js_alloc_occupy(b, other, no);
				bad[i] += !agree(&g, i, a, k);
				js_alloc_copy(b, a);
				bad[i] += !same(&g, b, k);
				struct js_alloc *clone = js_alloc_clone(a);
				CU_ASSERT_FATAL(clone != NULL);
				bad[i] += !same(&g, clone, k);
				js_alloc_destroy(clone);
				js_alloc_destroy(b);
				js_alloc_destroy(a);
			}
			tried++;
			free(other);
			free(list);
		}
		rig_close(&g);
	}
	CU_ASSERT(tried > 100);
	CU_ASSERT_EQUAL(bad[MC1X1], 0);
	CU_ASSERT_EQUAL(bad[GENALG], 0);
	CU_ASSERT_EQUAL(bad[MM], 0);
	gsl_rng_free(rng);
}

/* Releases the nodes of a random one of jobs placed so far (owner: each
 * node's job, -1 when free) in the rig and in the n allocators a. */
static void release_random(struct rig *g, gsl_rng *rng, int *owner, int jobs, int *nodes,
                           struct js_alloc **a, int n)
{
	int job = (int)gsl_rng_uniform_int(rng, (unsigned long)jobs), nn = 0;
	for (int v = 0; v < g->n; v++)
		if (owner[v] == job) {
			nodes[nn++] = v;
			owner[v] = -1;
			g->busy[v] = 0;
		}
	for (int i = 0; i < n; i++)
		js_alloc_release(a[i], nodes, nn);
}

/* One allocator per kind through placements and releases (the tables are
 * brought up to date, not rebuilt), then a clone and a copy of it. */
static void test_sequences(void)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 5);
	int bad = 0, steps = 0;
	for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
		struct rig g;
		rig_open(&g, &shapes[s]);
		int *owner = malloc((size_t)g.n * sizeof *owner), jobs = 0;
		int *nodes = malloc((size_t)g.n * sizeof *nodes);
		for (int i = 0; i < g.n; i++)
			owner[i] = -1;
		int moves = g.n > 500 ? 12 : 40;
		for (int t = 0; t < moves; t++) {
			int nfree = 0;
			for (int v = 0; v < g.n; v++)
				nfree += !g.busy[v];
			if (nfree > 0 && gsl_rng_uniform(rng) < 0.65) {
				int k = random_size(rng, nfree), kind = t % 3;
				bad += !agree(&g, kind, g.a[kind], k);
				steps++;
				/* every instance takes the reference's nodes */
				for (int i = 0; i < 3; i++)
					js_alloc_occupy(g.a[i], g.want, k);
				for (int i = 0; i < k; i++) {
					g.busy[g.want[i]] = 1;
					owner[g.want[i]] = jobs;
				}
				jobs++;
			} else if (jobs > 0) {
				release_random(&g, rng, owner, jobs, nodes, g.a, 3);
			}
		}
		int nfree = 0;
		for (int v = 0; v < g.n; v++)
			nfree += !g.busy[v];
		if (nfree > 0)
			for (int i = 0; i < 3; i++) {
				int k = random_size(rng, nfree);
				struct js_alloc *clone = js_alloc_clone(g.a[i]);
				CU_ASSERT_FATAL(clone != NULL);
				bad += !agree(&g, i, clone, k);
				struct cmn_err e;
				struct js_alloc *fresh;
				CU_ASSERT_FATAL(js_alloc_create(kinds[i], g.m, &fresh, &e) == 0);
				js_alloc_copy(fresh, g.a[i]);
				bad += !agree(&g, i, fresh, k);
				js_alloc_destroy(fresh);
				js_alloc_destroy(clone);
				steps += 2;
			}
		free(owner);
		free(nodes);
		rig_close(&g);
	}
	CU_ASSERT(steps > 150);
	CU_ASSERT_EQUAL(bad, 0);
	gsl_rng_free(rng);
}

/* Fresh genalg and mm allocators given the rig's state place each size
 * from k0 to k1 by step (at most the free nodes) as the reference does:
 * returns how many placements differ; *tried counts them. */
static int fresh_sizes(struct rig *g, int k0, int k1, int step, int *tried)
{
	int *list = malloc((size_t)g->n * sizeof *list), nb = 0, bad = 0;
	for (int v = 0; v < g->n; v++)
		if (g->busy[v])
			list[nb++] = v;
	for (int k = k0; k <= k1 && k <= g->n - nb; k += step)
		for (int i = GENALG; i <= MM; i++, (*tried)++) {
			struct cmn_err e;
			struct js_alloc *a;
			CU_ASSERT_FATAL(js_alloc_create(kinds[i], g->m, &a, &e) == 0);
			js_alloc_occupy(a, list, nb);
			bad += !agree(g, i, a, k);
			js_alloc_destroy(a);
		}
	free(list);
	return bad;
}

/* Free diamond-shaped pockets (the balls of the box centres around them
 * all free, though not the cubes around them), some touching a wall or
 * with a busy node inside, in a busy mesh. */
static void pocket_state(struct rig *g, gsl_rng *rng)
{
	const int *dims = g->shape->dims;
	int p[3];
	memset(g->busy, 1, (size_t)g->n);
	int pockets = 1 + (int)gsl_rng_uniform_int(rng, 4);
	for (int i = 0; i < pockets; i++) {
		int c[3], r = 2 + (int)gsl_rng_uniform_int(rng, 6),
		          w = (int)gsl_rng_uniform_int(rng, 4);
		for (int d = 0; d < 3; d++)
			c[d] = (int)gsl_rng_uniform_int(rng, (unsigned long)dims[d]);
		for (int v = 0; v < g->n; v++) {
			coords(dims, v, p);
			int dist = 0;
			for (int d = 0; d < 3; d++) { /* to the box c .. c + w (L1) */
				int lo = c[d], hi = dims[d] > 1 ? c[d] + w : c[d];
				dist += p[d] < lo ? lo - p[d] : p[d] > hi ? p[d] - hi : 0;
			}
			if (dist <= r)
				g->busy[v] = 0;
		}
		if (gsl_rng_uniform(rng) < 0.3) /* a busy node inside */
			g->busy[center_of(dims, c)] = 1;
	}
	for (int v = 0; v < g->n; v++)
		if (gsl_rng_uniform(rng) < 0.02)
			g->busy[v] = 0;
}

/* A free band along one wall (the other nodes busy but for a few): its
 * ends ragged (some busy nodes near them), so that the best centres tend
 * to lie along the band, where translates of a centre score the same. */
static void band_state(struct rig *g, gsl_rng *rng)
{
	const int *dims = g->shape->dims;
	int p[3], d = dims[1] > 1 ? 1 + (int)gsl_rng_uniform_int(rng, 2) : 2, e = 3 - d;
	int width = 3 + (int)gsl_rng_uniform_int(rng, (unsigned long)dims[d] / 2 - 2);
	int low = gsl_rng_uniform(rng)<0.5, len = dims[e]> 1 ? dims[e] : 1;
	int whole = gsl_rng_uniform(rng) < 0.5; /* from wall to wall, or ragged ends */
	int a = whole ? 0 : (int)gsl_rng_uniform_int(rng, (unsigned long)(len / 3 + 1));
	int b =
	    whole ? len - 1 : len - 1 - (int)gsl_rng_uniform_int(rng, (unsigned long)(len / 3 + 1));
	for (int v = 0; v < g->n; v++) {
		coords(dims, v, p);
		int in = (low ? p[d] < width : p[d] >= dims[d] - width) &&
		         (dims[e] == 1 || (p[e] >= a && p[e] <= b));
		int ragged = !whole && dims[e] > 1 && (p[e] - a < 2 || b - p[e] < 2);
		g->busy[v] =
		    in ? ragged && gsl_rng_uniform(rng) < 0.3 : gsl_rng_uniform(rng) > 0.05;
	}
}

/* genalg and mm on pocket and band states of meshes large enough for
 * boxes of centres to be scored whole (a box whose centres all have a
 * free ball of the least radius inside the mesh; a box in a free band
 * along a wall, scored from its first slice across the band). */
static void test_pockets_and_bands(void)
{
	static const struct shape big[] = {
	    {"mesh:dims=26x26", {1, 26, 26}},
	    {"mesh:dims=30x18", {1, 30, 18}},
	    {"mesh:dims=28", {1, 1, 28}},
	};
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 11);
	int bad = 0, tried = 0;
	for (size_t s = 0; s < sizeof big / sizeof *big; s++) {
		struct rig g;
		rig_open(&g, &big[s]);
		for (int t = 0; t < 40; t++) {
			if (t % 3)
				band_state(&g, rng);
			else
				pocket_state(&g, rng);
			int nfree = 0;
			for (int v = 0; v < g.n; v++)
				nfree += !g.busy[v];
			if (nfree == 0)
				continue;
			int k = 1 + (int)gsl_rng_uniform_int(
			                rng, (unsigned long)(nfree < 60 ? nfree : 60));
			bad += fresh_sizes(&g, k, k, 1, &tried);
		}
		rig_close(&g);
	}
	CU_ASSERT(tried > 100);
	CU_ASSERT_EQUAL(bad, 0);
	gsl_rng_free(rng);
}

/* Whole free bands along each wall of a small mesh, every width and many
 * job sizes: the best centres are then often the first of a stretch of
 * translates (scored the same), which the box at the start of the stretch
 * must report. */
static void test_band_sweep(void)
{
	static const struct shape sh = {"mesh:dims=16x12", {1, 16, 12}};
	struct rig g;
	rig_open(&g, &sh);
	int bad = 0, tried = 0, p[3];
	for (int wall = 0; wall < 4; wall++)
		for (int width = 2; width <= 7; width++)
			for (int ragged = 0; ragged <= 3; ragged++) {
				/* the band's first lines along it: every other node busy */
				int d = wall < 2 ? 1 : 2, e = 3 - d;
				for (int v = 0; v < g.n; v++) {
					coords(sh.dims, v, p);
					g.busy[v] =
					    wall % 2 ? p[d] < sh.dims[d] - width : p[d] >= width;
					if (p[e] < ragged && (p[d] + p[e]) % 2)
						g.busy[v] = 1;
				}
				bad += fresh_sizes(&g, 2, g.n, 3, &tried);
			}
	rig_close(&g);
	CU_ASSERT(tried > 300);
	CU_ASSERT_EQUAL(bad, 0);
}

/* A free stretch along the top wall that starts behind a busy staircase:
 * the best centre is the first one past the staircase, the first of a
 * run of translates that the box holding them must report (by the slice
 * at its low end, not any other). */
static void test_staircase(void)
{
	static const struct shape sh = {"mesh:dims=12x18", {1, 12, 18}};
	struct rig g;
	rig_open(&g, &sh);
	int p[3], tried = 0;
	for (int v = 0; v < g.n; v++) {
		coords(sh.dims, v, p);
		g.busy[v] = p[2] < 8 - 2 * p[1];
	}
	int bad = fresh_sizes(&g, 2, 12, 1, &tried);
	rig_close(&g);
	CU_ASSERT_EQUAL(bad, 0);
}

/* genalg and mm with threads=2 (the search on two threads: any job on
 * any mesh) place as with threads=1 through long sequences of placements
 * and releases, on a 2D and a 3D mesh of 4,096 nodes (threads=auto's
 * two-thread size) and a small one; a few of the placements also against
 * the reference. */
static void test_two_threads(void)
{
	static const struct shape sh[] = {
	    {"mesh:dims=64x64", {1, 64, 64}},
	    {"mesh:dims=16x16x16", {16, 16, 16}},
	    {"mesh:dims=20x20", {1, 20, 20}},
	};
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 42);
	int bad = 0, steps = 0, checked = 0;
	for (size_t s = 0; s < sizeof sh / sizeof *sh; s++) {
		struct rig g;
		rig_open(&g, &sh[s]);
		for (int kind = GENALG; kind <= MM; kind++) {
			char spec[2][32];
			struct js_alloc *a[2];
			for (int t = 0; t < 2; t++) {
				struct cmn_err e;
				snprintf(spec[t], sizeof spec[t], "%s:threads=%d", kinds[kind],
				         t + 1);
				CU_ASSERT_FATAL(js_alloc_create(spec[t], g.m, &a[t], &e) == 0);
			}
			memset(g.busy, 0, (size_t)g.n);
			int *owner = malloc((size_t)g.n * sizeof *owner), jobs = 0;
			int *nodes = malloc((size_t)g.n * sizeof *nodes);
			for (int i = 0; i < g.n; i++)
				owner[i] = -1;
			for (int t = 0; t < 300; t++) {
				int nfree = 0;
				for (int v = 0; v < g.n; v++)
					nfree += !g.busy[v];
				if (nfree > 0 && gsl_rng_uniform(rng) < 0.6) {
					int cap = nfree < g.n / 12 ? nfree : g.n / 12;
					int k =
					    1 + (int)gsl_rng_uniform_int(rng, (unsigned long)cap);
					struct js_job j;
					memset(&j, 0, sizeof j);
					j.size = k;
					if (t % 60 == 59 && g.shape->dims[0] == 1) {
						reference(kind, g.shape->dims, g.busy, k, g.want);
						checked++;
					} else {
						CU_ASSERT_FATAL(js_alloc_place(a[0], &j, g.want) ==
						                k);
					}
					bad += !same(&g, a[1], k);
					steps++;
					for (int i = 0; i < 2; i++)
						js_alloc_occupy(a[i], g.want, k);
					for (int i = 0; i < k; i++) {
						g.busy[g.want[i]] = 1;
						owner[g.want[i]] = jobs;
					}
					jobs++;
				} else if (jobs > 0) {
					release_random(&g, rng, owner, jobs, nodes, a, 2);
				}
			}
			free(owner);
			free(nodes);
			for (int t = 0; t < 2; t++)
				js_alloc_destroy(a[t]);
		}
		rig_close(&g);
	}
	CU_ASSERT(steps > 900);
	CU_ASSERT(checked >= 8);
	CU_ASSERT_EQUAL(bad, 0);
	gsl_rng_free(rng);
}

/* A fresh allocator of spec holding the rig's busy nodes. */
static struct js_alloc *rig_alloc(const struct rig *g, const char *spec)
{
	int *list = malloc((size_t)g->n * sizeof *list), nb = 0;
	CU_ASSERT_FATAL(list != NULL);
	for (int v = 0; v < g->n; v++)
		if (g->busy[v])
			list[nb++] = v;
	struct cmn_err e;
	struct js_alloc *a;
	CU_ASSERT_FATAL(js_alloc_create(spec, g->m, &a, &e) == 0);
	js_alloc_occupy(a, list, nb);
	free(list);
	return a;
}

/* A centre's score that passes the best so far stops early (center_plane.c)
 * and must leave its scratch of sphere nodes by column all zero, as a whole
 * score does, or the next score counts nodes that are not there: on random
 * states of a mesh large enough for many centres to score above the best,
 * two jobs placed one after the other by genalg and mm (threads=1 and 2)
 * agree with the reference, and the scratch is zero after each. */
static void test_stopped_scores(void)
{
	static const struct shape sh = {"mesh:dims=30x26", {1, 30, 26}};
	static const char *const specs[] = {"genalg:threads=1", "mm:threads=1", "genalg:threads=2",
	                                    "mm:threads=2"};
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 41);
	struct rig g;
	rig_open(&g, &sh);
	int bad = 0, dirty = 0, tried = 0;
	for (int t = 0; t < 24; t++) {
		random_state(&g, rng);
		for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
			struct js_alloc *a = rig_alloc(&g, specs[i]);
			const struct center *c = a->self;
			for (int job = 0; job < 2 && c->free > 0; job++) {
				int k = random_size(rng, c->free);
				bad += !agree(&g, i % 2 ? MM : GENALG, a, k);
				for (int side = 0; side < 2; side++)
					for (int z = 0; z < sh.dims[2]; z++)
						dirty += c->spill[side][z] != 0;
				tried++;
			}
			js_alloc_destroy(a);
		}
	}
	rig_close(&g);
	gsl_rng_free(rng);
	CU_ASSERT(tried > 150);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(dirty, 0);
}

/* The O(1)-a-plane region counts (center_diag.c) against the row by row
 * ones (center_region.c): balls, widened boxes and balls around a box's
 * middle (odd centres), of any budget, on 1D, 2D and 3D meshes, through
 * placements and releases that bring the tables up to date row by row,
 * and after a copy. */
static void test_region_counts(void)
{
	static const struct shape sh[] = {
	    {"mesh:dims=23", {1, 1, 23}},   {"mesh:dims=17x9", {1, 17, 9}},
	    {"mesh:dims=5x31", {1, 5, 31}}, {"mesh:dims=40x40", {1, 40, 40}},
	    {"mesh:dims=6x7x8", {6, 7, 8}}, {"mesh:dims=2x13x3", {2, 13, 3}},
	};
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 7);
	int bad = 0, tried = 0;
	for (size_t m = 0; m < sizeof sh / sizeof *sh; m++) {
		struct rig g;
		rig_open(&g, &sh[m]);
		struct js_alloc *a = g.a[GENALG];
		struct center *c = a->self;
		const int *dims = sh[m].dims;
		for (int step = 0; step < 60; step++) {
			int v = (int)gsl_rng_uniform_int(rng, (unsigned long)g.n),
			    run = 1 + (int)gsl_rng_uniform_int(rng, 6), list[6], n = 0;
			for (int i = 0; i < run && v + i < g.n; i++)
				if (g.busy[v + i] == (step % 4 == 3))
					list[n++] = v + i;
			for (int i = 0; i < n; i++)
				g.busy[list[i]] = step % 4 != 3;
			if (step % 4 == 3)
				js_alloc_release(a, list, n);
			else
				js_alloc_occupy(a, list, n);
			if (step == 40) { /* a copy builds every table again */
				struct js_alloc *b = js_alloc_clone(a);
				CU_ASSERT_FATAL(b != NULL);
				js_alloc_copy(a, b);
				js_alloc_destroy(b);
			}
			js_center_sat_update(c);
			js_center_region_update(c);
			/* every other step half the diagonals on the second thread */
			js_center_diag_update(c, step % 2 ? js_center_pool_get(c) : NULL);
			for (int q = 0; q < 40; q++, tried++) {
				struct center_region r;
				int lo[3], hi[3], kind = (int)gsl_rng_uniform_int(rng, 3);
				for (int d = 0; d < 3; d++) {
					lo[d] =
					    (int)gsl_rng_uniform_int(rng, (unsigned long)dims[d]);
					hi[d] =
					    lo[d] + (kind ? (int)gsl_rng_uniform_int(rng, 4) : 0);
					hi[d] = hi[d] > dims[d] - 1 ? dims[d] - 1 : hi[d];
					r.c[d] = lo[d] + hi[d];
					r.e[d] = kind == 1 ? hi[d] - lo[d] : 0;
				}
				r.t = (int)gsl_rng_uniform_int(
				    rng, 2 * (dims[0] + dims[1] + dims[2]) + 4);
				bad += js_center_region_count(c, &r) !=
				       js_center_region_rows(c, &r, NULL, NULL);
			}
		}
		rig_close(&g);
	}
	CU_ASSERT(tried > 10000);
	CU_ASSERT_EQUAL(bad, 0);
	gsl_rng_free(rng);
}

/* Centre p's k nearest by brute force (buf: room for every node): its
 * radius R, the free nodes m nearer than R, and the sums of their
 * pairwise distances along rows (sy) and columns (sz). */
static void shares(const int *dims, const uint8_t *busy, const int *p, int k, struct keyed *buf,
                   int *R, int *m, long *sy, long *sz)
{
	order(dims, busy, p, 0, buf);
	int u[3], w[3];
	*R = (int)buf[k - 1].key;
	for (*m = 0; buf[*m].key < *R;)
		++*m;
	*sy = *sz = 0;
	for (int i = 0; i < k; i++)
		for (int j = i + 1; j < k; j++) {
			coords(dims, buf[i].id, u);
			coords(dims, buf[j].id, w);
			*sy += labs((long)u[1] - w[1]);
			*sz += labs((long)u[2] - w[2]);
		}
}

/* The share of the cuts between columns in the core bound of a box of
 * centres (js_center_plane_cuts) bounds every centre's own share from below,
 * as the whole bound bounds its score, so that a centre's score may stop
 * after the rows once they and that share pass the best: on random states
 * of a mesh of one plane and random boxes, each centre's k nearest and
 * their shares by brute force; the score given a bound up to its own
 * column share and a cut below or above it returns the score, or a number
 * above the cut and no more than the score, and leaves its scratch zero. */
static void test_column_share(void)
{
	static const struct shape sh = {"mesh:dims=30x26", {1, 30, 26}};
	const int *dims = sh.dims;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 23);
	struct rig g;
	rig_open(&g, &sh);
	struct keyed *buf = malloc((size_t)g.n * sizeof *buf);
	int bad = 0, loose = 0, cored = 0, stopped = 0, tried = 0;
	for (int t = 0; t < 30; t++) {
		random_state(&g, rng);
		struct js_alloc *a = rig_alloc(&g, "genalg");
		struct center *c = a->self;
		js_center_sat_update(c);
		js_center_region_update(c);
		js_center_diag_update(c, NULL);
		for (int q = 0; q < 20 && c->free >= 2; q++) {
			int most = c->free - 1 < 150 ? c->free - 1 : 150;
			int k = 2 + (int)gsl_rng_uniform_int(rng, (unsigned long)most);
			int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, p[3] = {0, 0, 0}, rmin = -1;
			for (int d = 1; d < 3; d++) {
				lo[d] = (int)gsl_rng_uniform_int(rng, (unsigned long)dims[d]);
				hi[d] = lo[d] + (int)gsl_rng_uniform_int(rng, 4);
				hi[d] = hi[d] > dims[d] - 1 ? dims[d] - 1 : hi[d];
			}
			long least = -1, least_z = -1;
			for (int i = 0; i < (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1);
			     i++, tried++) {
				p[1] = lo[1] + i / (hi[2] - lo[2] + 1);
				p[2] = lo[2] + i % (hi[2] - lo[2] + 1);
				int R, m;
				long sy, sz;
				shares(dims, g.busy, p, k, buf, &R, &m, &sy, &sz);
				long cut = sy + sz + (long)gsl_rng_uniform_int(rng, 41) - 30;
				long lbz =
				    sz - (long)gsl_rng_uniform_int(rng, (unsigned long)sz / 4 + 1);
				long got =
				    js_center_score_plane(c, k, p, R, m, cut, lbz, c->spill[0]);
				stopped += got != sy + sz;
				bad +=
				    sy + sz <= cut ? got != sy + sz : got <= cut || got > sy + sz;
				for (int z = 0; z < dims[2]; z++)
					bad += c->spill[0][z] != 0;
				least = least < 0 || sy + sz < least ? sy + sz : least;
				least_z = least_z < 0 || sz < least_z ? sz : least_z;
				rmin = rmin < 0 || R < rmin ? R : rmin;
			}
			struct center_region core = {
			    {0, lo[1] + hi[1], lo[2] + hi[2]}, {0, 0, 0}, 0};
			core.t = 2 * (rmin - 1) - (hi[1] - lo[1]) - (hi[2] - lo[2]);
			if (core.t < 0)
				continue;
			long n = js_center_region_count(c, &core), cols,
			     sum = js_center_plane_cuts(c, &core, k, k - n, &cols);
			bad += sum > least || cols > least_z || cols > sum;
			loose += cols < least_z;
			cored += cols > 0;
		}
		js_alloc_destroy(a);
	}
	free(buf);
	rig_close(&g);
	gsl_rng_free(rng);
	CU_ASSERT(tried > 2000);
	CU_ASSERT(cored > 50); /* the shares were no trivial zeros */
	CU_ASSERT(stopped > 100);
	CU_ASSERT(loose > 0);
	CU_ASSERT_EQUAL(bad, 0);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("centre-based allocators", NULL, NULL);
	CU_add_test(s, "mc1x1, genalg, mm = brute force on random states", test_random_states);
	CU_add_test(s, "the same through placements, releases, clones", test_sequences);
	CU_add_test(s, "genalg, mm = brute force on free pockets and bands",
	            test_pockets_and_bands);
	CU_add_test(s, "genalg, mm = brute force on bands along each wall", test_band_sweep);
	CU_add_test(s, "genalg, mm = brute force past a staircase", test_staircase);
	CU_add_test(s, "genalg, mm on two threads = on one", test_two_threads);
	CU_add_test(s, "region counts by diagonals = row by row", test_region_counts);
	CU_add_test(s, "scores stopped above the best leave no trace", test_stopped_scores);
	CU_add_test(s, "a box's column share bounds each centre's, and stops its score",
	            test_column_share);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

/* The bgl allocator's searches against brute force: the maximal free boxes
 * of a torus kept by freebox.c under random takes, give-backs (pending or
 * applied), copies and undos, and the partition the allocator picks, on
 * random busy states (wrap-around boxes included), against the seed's
 * definition evaluated box by box. */
#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

#include "../../jobsched/alloc/alloc_bgl.h"
#include "../../jobsched/alloc/freebox.h"
#include "../../jobsched/workload/synth.h"
#include "../helpers.h"
#include "platform.h"

/* --- brute force on a busy array (one byte per node, C order) --- */

static int node_of(const int *d, int x, int y, int z)
{
	return (x * d[1] + y) * d[2] + z;
}

static int bf_free(const int *d, const uint8_t *busy, const int *o, const int *l)
{
	for (int a = 0; a < l[0]; a++)
		for (int b = 0; b < l[1]; b++)
			for (int c = 0; c < l[2]; c++)
				if (busy[node_of(d, (o[0] + a) % d[0], (o[1] + b) % d[1],
				                 (o[2] + c) % d[2])])
					return 0;
	return 1;
}

/* Every maximal free box (whole rings start at 0), each once, into out;
 * returns their count. */
static int bf_maximal(const int *d, const uint8_t *busy, struct js_box *out, int cap)
{
	int n = 0, o[3], l[3];
	for (l[0] = 1; l[0] <= d[0]; l[0]++)
		for (l[1] = 1; l[1] <= d[1]; l[1]++)
			for (l[2] = 1; l[2] <= d[2]; l[2]++)
				for (o[0] = 0; o[0] < (l[0] == d[0] ? 1 : d[0]); o[0]++)
					for (o[1] = 0; o[1] < (l[1] == d[1] ? 1 : d[1]); o[1]++)
						for (o[2] = 0; o[2] < (l[2] == d[2] ? 1 : d[2]);
						     o[2]++) {
							if (!bf_free(d, busy, o, l))
								continue;
							int grows = 0;
							for (int i = 0; i < 3 && !grows; i++) {
								if (l[i] == d[i])
									continue;
								int oo[3], ll[3];
								memcpy(oo, o, sizeof oo);
								memcpy(ll, l, sizeof ll);
								ll[i] = 1;
								oo[i] = (o[i] + d[i] - 1) % d[i];
								grows = bf_free(d, busy, oo, ll);
								oo[i] = (o[i] + l[i]) % d[i];
								grows = grows ||
								        bf_free(d, busy, oo, ll);
							}
							if (grows || n == cap)
								continue;
							struct js_box b = {{o[0], o[1], o[2]},
							                   {l[0], l[1], l[2]},
							                   l[0] * l[1] * l[2]};
							out[n++] = b;
						}
	return n;
}

static int cmp_box(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct js_box));
}

#define BF_CAP 4096 /* maximal boxes of the small tori tested */

static int bf_largest(const int *d, const uint8_t *busy)
{
	struct js_box *tmp = malloc(BF_CAP * sizeof *tmp);
	int n = bf_maximal(d, busy, tmp, BF_CAP), best = 0;
	for (int i = 0; i < n; i++)
		best = tmp[i].vol > best ? tmp[i].vol : best;
	free(tmp);
	return best;
}

/* Whether f's maximal boxes are brute force's (as sets). */
static int same_maximal(struct js_freebox *f, const int *d, const uint8_t *busy)
{
	struct js_box *want = malloc(2 * BF_CAP * sizeof *want), *got = want + BF_CAP;
	int nw = bf_maximal(d, busy, want, BF_CAP), ng, same = 0;
	const struct js_box *g = js_freebox_maximal(f, &ng);
	if (ng == nw && ng < BF_CAP) {
		memcpy(got, g, (size_t)ng * sizeof *got);
		qsort(want, (size_t)nw, sizeof *want, cmp_box);
		qsort(got, (size_t)ng, sizeof *got, cmp_box);
		same = memcmp(want, got, (size_t)ng * sizeof *got) == 0;
	}
	free(want);
	return same;
}

static void mark(const int *d, uint8_t *busy, const struct js_box *b, uint8_t v)
{
	for (int a = 0; a < b->l[0]; a++)
		for (int c = 0; c < b->l[1]; c++)
			for (int e = 0; e < b->l[2]; e++)
				busy[node_of(d, (b->s[0] + a) % d[0], (b->s[1] + c) % d[1],
				             (b->s[2] + e) % d[2])] = v;
}

static int rnd(gsl_rng *r, int n)
{
	return (int)gsl_rng_uniform_int(r, (unsigned long)n);
}

/* A random box (any base, wrapping) with every node free, or vol 0. */
static struct js_box random_free_box(gsl_rng *r, const int *d, const uint8_t *busy)
{
	struct js_box b = {{0, 0, 0}, {0, 0, 0}, 0};
	for (int tries = 0; tries < 50; tries++) {
		for (int i = 0; i < 3; i++) {
			b.s[i] = rnd(r, d[i]);
			b.l[i] = 1 + rnd(r, d[i] > 2 && rnd(r, 2) ? d[i] / 2 : d[i]);
		}
		b.vol = b.l[0] * b.l[1] * b.l[2];
		if (bf_free(d, busy, b.s, b.l))
			return b;
	}
	b.vol = 0;
	return b;
}

/* --- the free-box set --- */

/* Random takes and give-backs (whole boxes, node sets that are not
 * boxes, the box just taken), copies, and questions at every step. */
static void test_freebox_random(void)
{
	static const int tori[][3] = {{4, 4, 8}, {5, 3, 4}, {6, 1, 1}, {7, 5, 1}, {3, 3, 3},
	                              {2, 6, 5}, {1, 1, 1}, {9, 2, 3}, {6, 6, 4}, {3, 7, 2}};
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 11);
	int bad = 0;
	for (size_t t = 0; t < sizeof tori / sizeof *tori && !bad; t++) {
		const int *d = tori[t];
		int n = d[0] * d[1] * d[2];
		struct js_freebox *f = js_freebox_create(d), *c = js_freebox_create(d);
		CU_ASSERT_FATAL(f && c);
		uint8_t *busy = calloc((size_t)n, 1);
		struct js_box live[64];
		int nlive = 0, *ids = malloc((size_t)n * sizeof *ids);
		for (int step = 0; step < 2000 && !bad; step++) {
			int what = rnd(r, 10);
			if (what < 4 || nlive == 0) { /* take a box */
				struct js_box b = random_free_box(r, d, busy);
				if (!b.vol || nlive == 64)
					continue;
				js_freebox_occupy(f, &b);
				mark(d, busy, &b, 1);
				live[nlive++] = b;
				if (rnd(r, 3) == 0) { /* give it straight back: the undo */
					js_freebox_release(f, &b);
					mark(d, busy, &b, 0);
					nlive--;
				}
			} else if (what < 8) { /* give a box back */
				int k = rnd(r, nlive);
				js_freebox_release(f, &live[k]);
				mark(d, busy, &live[k], 0);
				live[k] = live[--nlive];
			} else if (what == 8) { /* take some free nodes (not a box) */
				int k = 0;
				for (int i = 0; i < n && k < 5; i++)
					if (!busy[i] && rnd(r, 4) == 0)
						ids[k++] = i;
				js_freebox_occupy_nodes(f, ids, k);
				for (int i = 0; i < k; i++) {
					busy[ids[i]] = 1;
					struct js_box one = {{ids[i] / d[2] / d[1],
					                      ids[i] / d[2] % d[1], ids[i] % d[2]},
					                     {1, 1, 1},
					                     1};
					if (nlive < 64)
						live[nlive++] = one;
					else
						js_freebox_release_nodes(f, ids + i, 1),
						    busy[ids[i]] = 0;
				}
			} else { /* through a copy */
				js_freebox_copy(c, f);
				struct js_freebox *x = f;
				f = c;
				c = x;
			}
			/* questions: largest as a threshold (pending answers), then
			 * now and then the whole set */
			int lfp = bf_largest(d, busy), p = 1 + rnd(r, n);
			if (js_freebox_at_least(f, p) != (lfp >= p) ||
			    js_freebox_at_least(f, lfp) != 1 ||
			    (lfp < n && js_freebox_at_least(f, lfp + 1) != 0))
				bad = 1;
			/* the whole set: through a copy (the pending releases
			 * applied there), now and then on f itself */
			js_freebox_copy(c, f);
			if (!bad && (!same_maximal(c, d, busy) || js_freebox_largest(c) != lfp))
				bad = 2;
			if (!bad && rnd(r, 8) == 0 &&
			    (!same_maximal(f, d, busy) || js_freebox_largest(f) != lfp))
				bad = 2;
			if (bad)
				fprintf(stderr, "\n  %dx%dx%d step %d: %s\n", d[0], d[1], d[2],
				        step, bad == 1 ? "at_least wrong" : "maximal boxes wrong");
		}
		free(busy);
		free(ids);
		js_freebox_destroy(f);
		js_freebox_destroy(c);
	}
	CU_ASSERT_EQUAL(bad, 0);
	gsl_rng_free(r);
}

/* The nodes of box b (wrapping) in increasing id order; returns how many. */
static int box_ids(const int *d, const struct js_box *b, int *ids, uint8_t *in)
{
	int n = d[0] * d[1] * d[2], k = 0;
	memset(in, 0, (size_t)n);
	for (int a = 0; a < b->l[0]; a++)
		for (int e = 0; e < b->l[1]; e++)
			for (int g = 0; g < b->l[2]; g++)
				in[node_of(d, (b->s[0] + a) % d[0], (b->s[1] + e) % d[1],
				           (b->s[2] + g) % d[2])] = 1;
	for (int i = 0; i < n; i++)
		if (in[i])
			ids[k++] = i;
	return k;
}

/* A node list taken as an increasing list (checked as a box line by line
 * first, runs without sorting) and the same list shuffled (checked as a
 * box node by node, then sorted): the same maximal boxes in the same
 * order, for boxes (wrapping ones too), boxes less a node, two boxes of
 * the same lines, and sets of whole lines. */
static void test_occupy_nodes_orders(void)
{
	static const int tori[][3] = {{4, 4, 8}, {5, 3, 4}, {6, 1, 1},  {7, 5, 1},
	                              {3, 3, 3}, {2, 6, 5}, {8, 8, 16}, {1, 4, 6}};
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 29);
	long boxes = 0, other = 0;
	for (size_t t = 0; t < sizeof tori / sizeof *tori; t++) {
		const int *d = tori[t];
		int n = d[0] * d[1] * d[2];
		struct js_freebox *f = js_freebox_create(d), *a = js_freebox_create(d),
		                  *b = js_freebox_create(d);
		uint8_t *busy = calloc((size_t)n, 1), *in = calloc((size_t)n, 1);
		int *ids = malloc((size_t)n * sizeof *ids), *mix = malloc((size_t)n * sizeof *mix);
		CU_ASSERT_FATAL(f && a && b && busy && in && ids && mix);
		for (int round = 0; round < 300; round++) {
			if (round % 20 == 0) { /* a new start: a few boxes taken */
				js_freebox_destroy(f);
				f = js_freebox_create(d);
				CU_ASSERT_FATAL(f != NULL);
				memset(busy, 0, (size_t)n);
				for (int k = rnd(r, 4); k > 0; k--) {
					struct js_box x = random_free_box(r, d, busy);
					if (x.vol) {
						js_freebox_occupy(f, &x);
						mark(d, busy, &x, 1);
					}
				}
			}
			struct js_box x = random_free_box(r, d, busy);
			if (!x.vol)
				continue;
			int k = box_ids(d, &x, ids, in), kind = rnd(r, 4);
			if (kind == 1 && k > 1) { /* less a node */
				int drop = rnd(r, k);
				memmove(ids + drop, ids + drop + 1,
				        (size_t)(k - drop - 1) * sizeof *ids);
				k--;
			} else if (kind == 2) { /* and another free box's nodes */
				struct js_box y = x;
				y.s[0] = rnd(r, d[0]);
				for (int a0 = 0; a0 < y.l[0]; a0++)
					for (int e = 0; e < y.l[1]; e++)
						for (int g = 0; g < y.l[2]; g++) {
							int v = node_of(d, (y.s[0] + a0) % d[0],
							                (y.s[1] + e) % d[1],
							                (y.s[2] + g) % d[2]);
							if (!busy[v])
								in[v] = 1;
						}
				k = 0;
				for (int i = 0; i < n; i++)
					if (in[i])
						ids[k++] = i;
			} else if (kind == 3) { /* whole free lines, some of them */
				k = 0;
				for (int line = 0; line < d[0] * d[1]; line++) {
					int whole = 1;
					for (int z = 0; z < d[2]; z++)
						whole = whole && !busy[line * d[2] + z];
					if (whole && rnd(r, 3))
						for (int z = 0; z < d[2]; z++)
							ids[k++] = line * d[2] + z;
				}
			}
			if (!k)
				continue;
			memcpy(mix, ids, (size_t)k * sizeof *mix);
			for (int i = k - 1; i > 0; i--) {
				int j = rnd(r, i + 1), v = mix[i];
				mix[i] = mix[j];
				mix[j] = v;
			}
			int shuffled = 0;
			for (int i = 1; i < k; i++)
				shuffled |= mix[i] < mix[i - 1];
			js_freebox_copy(a, f);
			js_freebox_copy(b, f);
			js_freebox_occupy_nodes(a, ids, k);
			js_freebox_occupy_nodes(b, mix, k);
			int ca, cb;
			const struct js_box *ma = js_freebox_maximal(a, &ca),
			                    *mb = js_freebox_maximal(b, &cb);
			CU_ASSERT_EQUAL_FATAL(ca, cb);
			CU_ASSERT_FATAL(memcmp(ma, mb, (size_t)ca * sizeof *ma) == 0);
			if (kind == 0)
				boxes += shuffled;
			else
				other += shuffled;
		}
		free(busy);
		free(in);
		free(ids);
		free(mix);
		js_freebox_destroy(f);
		js_freebox_destroy(a);
		js_freebox_destroy(b);
	}
	CU_ASSERT(boxes > 200 && other > 200);
	gsl_rng_free(r);
}

/* --- the allocator's choice --- */

/* The largest free box, by every base and every extent along dimensions
 * 0 and 1: the box then reaches along dimension 2 as far as the shortest
 * free run (cyclic, at most d2) from the nodes of that rectangle. */
static int bf_lfp(const int *d, const uint8_t *busy)
{
	int n = d[0] * d[1] * d[2], best = 0;
	int *run = malloc((size_t)n * sizeof *run), *col = malloc((size_t)d[1] * sizeof *col);
	for (int xy = 0; xy < d[0] * d[1]; xy++) { /* backwards, twice round */
		const uint8_t *line = busy + xy * d[2];
		for (int t = 2 * d[2] - 1, k = 0; t >= 0; t--) {
			k = line[t % d[2]] ? 0 : k + 1;
			if (t < d[2])
				run[xy * d[2] + t] = k < d[2] ? k : d[2];
		}
	}
	for (int o = 0; o < n; o++) {
		int ox = o / (d[1] * d[2]), oy = o / d[2] % d[1], oz = o % d[2];
		for (int c = 0; c < d[1]; c++)
			col[c] = d[2];
		for (int l0 = 1, x = ox; l0 <= d[0]; l0++, x = (x + 1) % d[0]) {
			int m = d[2];
			for (int l1 = 1, y = oy; l1 <= d[1]; l1++, y = (y + 1) % d[1]) {
				int r = run[node_of(d, x, y, oz)];
				col[l1 - 1] = r < col[l1 - 1] ? r : col[l1 - 1];
				m = col[l1 - 1] < m ? col[l1 - 1] : m;
				best = l0 * l1 * m > best ? l0 * l1 * m : best;
			}
		}
	}
	free(run);
	free(col);
	return best;
}

/* Seed 003's choice among the free boxes of exactly p nodes: every shape
 * a x b x c in lexicographic order, every free base in node order, the
 * first leaving the largest free box. Writes its nodes; returns their
 * count or 0 when no box of p nodes is free. */
static int bf_best_box(const int *d, uint8_t *busy, int p, int *nodes)
{
	/* taking a box never enlarges the largest free box: the first to
	 * keep it cannot be beaten */
	int bound = bf_lfp(d, busy);
	if (p > bound)
		return 0;
	int best = -1, bo[3] = {0, 0, 0}, bs[3] = {0, 0, 0}, s[3], o[3];
	for (s[0] = 1; s[0] <= d[0] && best < bound; s[0]++)
		for (s[1] = 1; s[1] <= d[1] && best < bound; s[1]++) {
			if (p % (s[0] * s[1]) || p / (s[0] * s[1]) > d[2])
				continue;
			s[2] = p / (s[0] * s[1]);
			for (o[0] = 0; o[0] < d[0] && best < bound; o[0]++)
				for (o[1] = 0; o[1] < d[1] && best < bound; o[1]++)
					for (o[2] = 0; o[2] < d[2] && best < bound; o[2]++) {
						if (!bf_free(d, busy, o, s))
							continue;
						struct js_box b = {
						    {o[0], o[1], o[2]}, {s[0], s[1], s[2]}, p};
						mark(d, busy, &b, 1);
						int v = bf_lfp(d, busy);
						mark(d, busy, &b, 0);
						if (v > best) {
							best = v;
							memcpy(bo, o, sizeof bo);
							memcpy(bs, s, sizeof bs);
						}
					}
		}
	if (best < 0)
		return 0;
	int k = 0;
	for (int a = 0; a < bs[0]; a++)
		for (int b = 0; b < bs[1]; b++)
			for (int c = 0; c < bs[2]; c++)
				nodes[k++] = node_of(d, (bo[0] + a) % d[0], (bo[1] + b) % d[1],
				                     (bo[2] + c) % d[2]);
	return k;
}

/* Seed 003's choice for a job of size p0 (already a possible size): the
 * best box of p0 nodes, else of the least larger size that has a free
 * box, at most limit. */
static int bf_place(const int *d, uint8_t *busy, int p0, int limit, int *nodes)
{
	int n = d[0] * d[1] * d[2], free = 0;
	for (int i = 0; i < n; i++)
		free += !busy[i];
	for (int p = p0; p <= limit && p <= free; p++) {
		int k = bf_best_box(d, busy, p, nodes);
		if (k)
			return k;
	}
	return 0;
}

static int possible(const int *d, int p)
{
	for (int a = 1; a <= d[0]; a++)
		for (int b = 1; b <= d[1]; b++)
			if (p % (a * b) == 0 && p / (a * b) <= d[2])
				return 1;
	return 0;
}

/* On random states reached by the allocator's own takes and give-backs
 * (and some node sets that are not boxes), place() and fits() for
 * every size, as the queue head and backfilled (I = 1), against brute
 * force. */
static void test_place_brute_force(void)
{
	static const char *const tori[] = {"torus:dims=4x4x4", "torus:dims=3x4x5",
	                                   "torus:dims=2x3x7", "torus:dims=6x5", "torus:dims=10"};
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 5);
	int bad = 0, checked = 0;
	for (size_t t = 0; t < sizeof tori / sizeof *tori && !bad; t++) {
		struct plat_machine *m;
		struct js_alloc *a;
		struct cmn_err e;
		CU_ASSERT_FATAL(plat_machine_create(tori[t], &m, &e) == 0);
		CU_ASSERT_FATAL(js_alloc_create("bgl:I=1", m, &a, &e) == 0);
		int nd, d[3] = {1, 1, 1}, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS];
		plat_grid_shape(m, &nd, dims, wrap, &e);
		for (int i = 0; i < nd; i++)
			d[i] = dims[i];
		int n = m->nodes, *got = malloc((size_t)n * sizeof *got);
		int *want = malloc((size_t)n * sizeof *want), *held[16], nheld[16], nh = 0;
		uint8_t *busy = calloc((size_t)n, 1);
		for (int step = 0; step < 60 && !bad; step++) {
			if (nh == 16 || (nh && rnd(r, 3) == 0)) { /* end a job */
				int k = rnd(r, nh);
				js_alloc_release(a, held[k], nheld[k]);
				for (int i = 0; i < nheld[k]; i++)
					busy[held[k][i]] = 0;
				free(held[k]);
				held[k] = held[--nh];
				nheld[k] = nheld[nh];
				continue;
			}
			/* the answers for every size in this state */
			for (int size = 1; size <= n && !bad; size++) {
				struct js_job j;
				memset(&j, 0, sizeof j);
				j.size = size;
				int p0 = size;
				while (!possible(d, p0))
					p0++;
				for (int bf = 0; bf <= 1 && !bad; bf++) {
					int flags = bf ? JS_PLACE_BACKFILL : 0,
					    limit = bf ? p0 + 1 : n;
					int ng = js_alloc_place_flags(a, &j, flags, got);
					int nw = bf_place(d, busy, p0, limit, want);
					if (ng != nw ||
					    memcmp(got, want, (size_t)nw * sizeof *got) ||
					    js_alloc_fits_flags(a, &j, flags) != (nw > 0))
						bad = 1;
					if (bad)
						fprintf(
						    stderr,
						    "\n  %s step %d size %d backfill %d: %d nodes, "
						    "brute force %d\n",
						    tori[t], step, size, bf, ng, nw);
					checked++;
				}
			}
			/* start a job: a random size, or a few free nodes as one job */
			struct js_job j;
			memset(&j, 0, sizeof j);
			j.size = 1 + rnd(r, n / 3);
			int k = js_alloc_place(a, &j, got);
			if (rnd(r, 5) == 0) {
				k = 0;
				for (int i = 0; i < n && k < 3; i++)
					if (!busy[i] && rnd(r, 3) == 0)
						got[k++] = i;
			}
			if (k == 0)
				continue;
			js_alloc_occupy(a, got, k);
			held[nh] = malloc((size_t)k * sizeof *got);
			memcpy(held[nh], got, (size_t)k * sizeof *got);
			nheld[nh++] = k;
			for (int i = 0; i < k; i++)
				busy[got[i]] = 1;
		}
		while (nh--)
			free(held[nh]);
		free(got);
		free(want);
		free(busy);
		js_alloc_destroy(a);
		plat_machine_destroy(m);
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(checked > 1000);
	gsl_rng_free(r);
}

/* --- the old definition as an allocator, against bgl in whole runs --- */

/* Seed 003's allocator evaluated box by box on a busy array: what bgl
 * decided before its maximal-box search, in a form too slow for anything
 * but small tori. */
struct ref_bgl {
	int d[3], n, free, I;
	double fn_tor, fn_max;
	uint8_t *busy;
};

static void ref_destroy(void *self)
{
	struct ref_bgl *g = self;
	if (g)
		free(g->busy);
	free(g);
}

static int ref_create(const struct plat_machine *m, const struct cmn_params *p, void **self,
                      struct cmn_err *e)
{
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS];
	int rc = plat_grid_shape(m, &nd, dims, wrap, e);
	if (rc)
		return rc;
	struct ref_bgl *g = calloc(1, sizeof *g);
	g->d[0] = g->d[1] = g->d[2] = 1;
	for (int i = 0; i < nd; i++)
		g->d[i] = dims[i];
	g->n = g->free = m->nodes;
	g->I = (int)cmn_params_num(p, "I");
	g->fn_tor = cmn_params_num(p, "fn_tor");
	g->fn_max = cmn_params_num(p, "fn_max");
	g->busy = calloc((size_t)g->n, 1);
	*self = g;
	return 0;
}

static void ref_copy(void *dst, const void *src)
{
	struct ref_bgl *a = dst;
	const struct ref_bgl *b = src;
	memcpy(a->busy, b->busy, (size_t)b->n);
	a->free = b->free;
}

static void *ref_clone(const void *self)
{
	const struct ref_bgl *g = self;
	struct ref_bgl *c = malloc(sizeof *c);
	*c = *g;
	c->busy = malloc((size_t)g->n);
	ref_copy(c, g);
	return c;
}

static int ref_place(void *self, const struct js_job *job, int flags, int *nodes)
{
	struct ref_bgl *g = self;
	if (job->size <= 0)
		return 0;
	int p0 = job->size;
	while (p0 <= g->n && !possible(g->d, p0))
		p0++;
	if (p0 > g->n)
		return 0;
	return bf_place(g->d, g->busy, p0, flags & JS_PLACE_BACKFILL ? p0 + g->I : g->n, nodes);
}

static void ref_mark(void *self, const int *nodes, int n, uint8_t v)
{
	struct ref_bgl *g = self;
	for (int i = 0; i < n; i++)
		g->busy[nodes[i]] = v;
	g->free += v ? -n : n;
}

static void ref_occupy(void *self, const int *nodes, int n)
{
	ref_mark(self, nodes, n, 1);
}

static void ref_release(void *self, const int *nodes, int n)
{
	ref_mark(self, nodes, n, 0);
}

static int ref_free_count(const void *self)
{
	return ((const struct ref_bgl *)self)->free;
}

/* Seed 003's migration (alloc_bgl.c's comment): thresholds on the free
 * nodes and the largest free box; the jobs, largest first (ties: their
 * order), each in its best box of an emptied torus; one that finds none
 * keeps its nodes and the others start over; kept when the largest free
 * box grows. */
static int ref_migrate(void *self, int count, const int *const *nodes, const int *n, int **out)
{
	struct ref_bgl *g = self;
	int lfp = bf_lfp(g->d, g->busy);
	if (g->free == 0 || (double)g->free / g->n < g->fn_tor || (double)lfp / g->free > g->fn_max)
		return -1;
	uint8_t *t = malloc((size_t)g->n), *fixed = calloc((size_t)count + 1, 1);
	uint8_t *done = malloc((size_t)count + 1);
	for (int again = 1; again;) {
		again = 0;
		memset(t, 0, (size_t)g->n);
		memset(done, 0, (size_t)count + 1);
		for (int i = 0; i < count; i++)
			if (fixed[i]) {
				memcpy(out[i], nodes[i], (size_t)n[i] * sizeof **out);
				for (int k = 0; k < n[i]; k++)
					t[nodes[i][k]] = 1;
			}
		for (int left = count; left > 0 && !again; left--) {
			int i = -1; /* the largest job not placed yet, first of equals */
			for (int k = 0; k < count; k++)
				if (!fixed[k] && !done[k] && (i < 0 || n[k] > n[i]))
					i = k;
			if (i < 0)
				break;
			done[i] = 1;
			if (!bf_best_box(g->d, t, n[i], out[i])) {
				fixed[i] = 1;
				again = 1;
			} else
				for (int k = 0; k < n[i]; k++)
					t[out[i][k]] = 1;
		}
	}
	int result = bf_lfp(g->d, t) > lfp;
	free(t);
	free(fixed);
	free(done);
	return result;
}

static const struct js_alloc_ops ref_ops = {
    .base = {"bgl", "the old definition, box by box", NULL},
    .create = ref_create,
    .destroy = ref_destroy,
    .clone = ref_clone,
    .copy = ref_copy,
    .place = ref_place,
    .occupy = ref_occupy,
    .release = ref_release,
    .free_count = ref_free_count,
    .migrate = ref_migrate,
};

/* Runs w with bgl (alloc spec), or with the reference in its place. */
static struct js_sim_result *run_one(const struct js_workload *w, const char *machine,
                                     const char *alloc, const char *sched, int reference)
{
	struct plat_machine *m = NULL;
	struct js_alloc *a = NULL;
	struct js_sched *s = NULL;
	struct js_runtime *rt = NULL;
	struct js_sim_result *res = NULL;
	struct js_sim_opts o;
	struct cmn_err e;
	js_sim_opts_default(&o);
	int rc = plat_machine_create(machine, &m, &e);
	if (!rc)
		rc = js_alloc_create(alloc, m, &a, &e);
	if (!rc && reference) {
		a->ops->destroy(a->self);
		a->ops = &ref_ops;
		rc = ref_ops.create(m, &a->params, &a->self, &e);
	}
	if (!rc)
		rc = js_runtime_create("log", &rt, &e);
	if (!rc)
		rc = js_sched_create(sched, w->n, m->nodes, &s, &e);
	if (!rc)
		rc = js_sim_run(w, a, s, rt, &o, &res, &e);
	if (rc)
		fprintf(stderr, "\n  %s %s %s: %s\n", machine, alloc, sched, e.msg);
	js_runtime_destroy(rt);
	js_sched_destroy(s);
	js_alloc_destroy(a);
	plat_machine_destroy(m);
	return res;
}

/* Whether two runs started every job at the same time on the same nodes
 * (migrations included); says where they first differ. */
static int same_runs(const struct js_sim_result *x, const struct js_sim_result *y, const char *what)
{
	if (!x || !y || x->n != y->n)
		return 0;
	for (size_t j = 0; j < x->n; j++) {
		const struct js_job_result *a = &x->jobs[j], *b = &y->jobs[j];
		if (a->start_s != b->start_s || a->finish_s != b->finish_s ||
		    a->nnodes != b->nnodes || a->moves != b->moves ||
		    strcmp(x->text + a->res_off, y->text + b->res_off)) {
			fprintf(stderr, "\n  %s: job %zu: start %g on %s, reference %g on %s\n",
			        what, j, a->start_s, x->text + a->res_off, b->start_s,
			        y->text + b->res_off);
			return 0;
		}
	}
	return x->migrations_tried == y->migrations_tried &&
	       x->migrations_done == y->migrations_done;
}

/* Whole runs of D(q) workloads (what-if copies for reservations, undone
 * trials, migrations) on small tori and rings: bgl and the reference
 * place every job on the same nodes at the same time. */
static void test_runs_equal_reference(void)
{
	static const struct {
		const char *machine, *alloc, *sched;
		int jobs;
	} cases[] = {
	    {"torus:dims=4x4x4", "bgl", "easy", 400},
	    {"torus:dims=4x4x8", "bgl", "easy", 300},
	    {"torus:dims=4x4x4", "bgl:I=3", "fcfs", 250},
	    {"torus:dims=3x4x5", "bgl", "conservative", 150},
	    {"torus:dims=4x4x4", "bgl", "easy:migrate=1", 200},
	    {"torus:dims=2x3x7", "bgl:I=0,fn_tor=0,fn_max=1", "easy:migrate=1", 200},
	    {"torus:dims=6x5", "bgl:I=2", "easy", 250},
	    {"torus:dims=10", "bgl:fn_tor=0,fn_max=1", "fcfs:migrate=1", 250},
	};
	int bad = 0;
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		struct plat_machine *m;
		struct cmn_err e;
		CU_ASSERT_FATAL(plat_machine_create(cases[c].machine, &m, &e) == 0);
		int n = m->nodes;
		plat_machine_destroy(m);
		char spec[128], eff[512];
		snprintf(spec, sizeof spec, "dq:jobs=%d,n2=%d,q=0.95,load=0.9", cases[c].jobs,
		         n * 2 / 3);
		struct js_workload *w = NULL;
		struct js_clean_opts co;
		js_clean_opts_default(&co);
		int rc = js_synth_generate(spec, 1 + c, n, &w, eff, sizeof eff, &e);
		if (!rc)
			rc = js_clean(w, &co, n, &e);
		CU_ASSERT_FATAL(rc == 0);
		struct js_sim_result *got =
		    run_one(w, cases[c].machine, cases[c].alloc, cases[c].sched, 0);
		struct js_sim_result *want =
		    run_one(w, cases[c].machine, cases[c].alloc, cases[c].sched, 1);
		char what[256];
		snprintf(what, sizeof what, "%s %s %s", cases[c].machine, cases[c].alloc,
		         cases[c].sched);
		if (!same_runs(got, want, what))
			bad++;
		if (strstr(cases[c].sched, "migrate") && want) /* migrations happen */
			CU_ASSERT(want->migrations_done > 0);
		js_sim_result_free(got);
		js_sim_result_free(want);
		js_workload_free(w);
	}
	CU_ASSERT_EQUAL(bad, 0);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("bgl", NULL, NULL);
	CU_add_test(s, "maximal free boxes under random changes", test_freebox_random);
	CU_add_test(s, "node lists in id order or shuffled: the same boxes",
	            test_occupy_nodes_orders);
	CU_add_test(s, "place and fits = brute force", test_place_brute_force);
	CU_add_test(s, "whole runs = the old definition", test_runs_equal_reference);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

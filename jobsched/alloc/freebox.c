/* Maximal free boxes of a torus, kept incrementally.
 *
 * Taking box c splits each maximal box it meets into its largest parts
 * outside c (per dimension the one or two arcs left of the box's interval
 * there); a part stays when no layer beside it is free, which bit lines
 * answer in O(side) word operations.
 *
 * Giving boxes back creates exactly the maximal boxes that meet them: the
 * whole torus cut by every busy box, nearest first, keeping only the parts
 * that meet a given-back box and lie in no other part (each such part is
 * a maximal box for the busy boxes cut so far); the old boxes inside a new
 * one go. That work waits until the set is needed: releases are kept
 * pending, and "is a box of p nodes free?" is answered from the boxes
 * before them, plus, per pending box c_j, the same cut restricted to parts
 * of at least p nodes that meet c_j, on the busy set as it was right after
 * c_j came back (the later pending boxes still busy), remembered per c_j.
 * A box taken while releases are pending and apart from them is taken
 * from the boxes before them (the order of the two does not matter then);
 * what is known not to fit stays true, what was found to fit is
 * forgotten. A release of the box just taken restores the set (and what
 * was known) from before. */
#include <stdlib.h>
#include <string.h>

#include "freebox_internal.h"

/* --- cyclic intervals on a ring of D positions --- */

/* Whether [s1, s1 + l1) and [s2, s2 + l2) share a position. */
static int ring_meet(int D, int s1, int l1, int s2, int l2)
{
	return wrap(s2 - s1, D) < l1 || wrap(s1 - s2, D) < l2;
}

/* Whether [s2, s2 + l2) lies inside [s1, s1 + l1). */
static int ring_within(int D, int s1, int l1, int s2, int l2)
{
	return l1 == D || (l2 <= l1 && wrap(s2 - s1, D) + l2 <= l1);
}

/* The arcs of [ms, ms + m) outside [os, os + o): 0 to 2 of them, as
 * (start, length) pairs in out. */
static int ring_minus(int D, int ms, int m, int os, int o, int *out)
{
	if (o == D)
		return 0;
	if (m == D) {
		out[0] = wrap(os + o, D);
		out[1] = D - o;
		return 1;
	}
	int t = wrap(os - ms, D), k = 0;   /* o's start, relative to ms */
	int a = t + o > D ? t + o - D : 0; /* o also covers [0, a) when it wraps */
	int end = t < m ? t : m;
	if (end > a) {
		out[k++] = wrap(ms + a, D);
		out[k++] = end - a;
	}
	if (t + o < m) {
		out[k++] = wrap(ms + t + o, D);
		out[k++] = m - t - o;
	}
	return k / 2;
}

/* The arcs common to [ms, ms + m) and [os, os + o): 0 to 2 of them. */
static int ring_common(int D, int ms, int m, int os, int o, int *out)
{
	if (m == D || o == D) {
		out[0] = m == D ? os : ms;
		out[1] = m == D ? o : m;
		return 1;
	}
	int t = wrap(os - ms, D), k = 0;
	if (t < m) {
		out[k++] = os;
		out[k++] = (t + o < m ? t + o : m) - t;
	}
	if (t + o > D) { /* o wraps onto [0, t + o - D) relative to ms */
		int e = t + o - D < m ? t + o - D : m;
		out[k++] = ms;
		out[k++] = e;
	}
	return k / 2;
}

/* Distance between two arcs (0 when they meet). */
static int ring_gap(int D, int s1, int l1, int s2, int l2)
{
	if (ring_meet(D, s1, l1, s2, l2))
		return 0;
	int a = wrap(s2 - (s1 + l1) % D, D), b = wrap(s1 - (s2 + l2) % D, D);
	return a < b ? a : b;
}

/* --- boxes --- */

static int box_meet(const int *d, const struct js_box *a, const struct js_box *b)
{
	for (int i = 0; i < 3; i++)
		if (!ring_meet(d[i], a->s[i], a->l[i], b->s[i], b->l[i]))
			return 0;
	return 1;
}

/* Whether b lies inside a. */
static int box_within(const int *d, const struct js_box *a, const struct js_box *b)
{
	if (b->vol > a->vol)
		return 0;
	for (int i = 0; i < 3; i++)
		if (!ring_within(d[i], a->s[i], a->l[i], b->s[i], b->l[i]))
			return 0;
	return 1;
}

static int box_same(const struct js_box *a, const struct js_box *b)
{
	return memcmp(a, b, sizeof *a) == 0;
}

/* b with dimension i's interval replaced by (s, l). */
static struct js_box box_with(const struct js_box *b, int i, int s, int l)
{
	struct js_box r = *b;
	r.s[i] = s;
	r.l[i] = l;
	box_set_vol(&r);
	return r;
}

static int push(struct js_freebox *f, struct boxes *v, const struct js_box *b)
{
	if (v->n == v->cap) {
		int cap = v->cap ? 2 * v->cap : 64;
		struct js_box *nb = realloc(v->b, (size_t)cap * sizeof *nb);
		if (!nb) {
			f->broken = 1;
			return -1;
		}
		v->b = nb;
		v->cap = cap;
	}
	v->b[v->n++] = *b;
	return 0;
}

static void drop(struct boxes *v, int i)
{
	v->b[i] = v->b[--v->n];
}

/* Room for n pending releases in *p (capacity *cap); 0 or -1. */
static int reserve_pending(struct js_freebox *f, struct pending **p, int *cap, int n)
{
	if (n <= *cap)
		return 0;
	int c = *cap ? 2 * *cap : 16;
	c = c < n ? n : c;
	struct pending *np = realloc(*p, (size_t)c * sizeof *np);
	if (!np) {
		f->broken = 1;
		return -1;
	}
	*p = np;
	*cap = c;
	return 0;
}

/* --- bit lines --- */

/* Sets in mask (w words) the bits of positions [s, s + l) of a ring of D. */
static void ring_mask(int D, int s, int l, uint64_t *mask, int w)
{
	memset(mask, 0, (size_t)w * sizeof *mask);
	int a[2] = {s, 0}, b[2] = {s + l < D ? s + l : D, s + l > D ? s + l - D : 0};
	for (int r = 0; r < 2; r++)
		for (int p = a[r]; p < b[r];) {
			int word = p / 64, lo = p % 64,
			    hi = b[r] - word * 64 < 64 ? b[r] - word * 64 : 64;
			uint64_t m = hi == 64 ? ~0ull : (1ull << hi) - 1;
			mask[word] |= m & ~((1ull << lo) - 1);
			p = word * 64 + hi;
		}
}

static int line_hits(const uint64_t *line, const uint64_t *mask, int w)
{
	for (int i = 0; i < w; i++)
		if (line[i] & mask[i])
			return 1;
	return 0;
}

static uint64_t *zline(const struct js_freebox *f, int x, int y)
{
	return f->zl + ((size_t)x * (size_t)f->d[1] + (size_t)y) * (size_t)f->wz;
}

static uint64_t *yline(const struct js_freebox *f, int x, int z)
{
	return f->yl + ((size_t)x * (size_t)f->d[2] + (size_t)z) * (size_t)f->wy;
}

int js_freebox_is_free(const struct js_freebox *f, const struct js_box *b)
{
	const int *d = f->d;
	uint64_t *m = f->mask;
	/* the fewer lines: along z (l0 l1 of them) or along y (l0 l2) */
	if ((long)b->l[1] * f->wz <= (long)b->l[2] * f->wy) {
		ring_mask(d[2], b->s[2], b->l[2], m, f->wz);
		for (int i = 0, x = b->s[0]; i < b->l[0]; i++, x = wrap(x + 1, d[0]))
			for (int j = 0, y = b->s[1]; j < b->l[1]; j++, y = wrap(y + 1, d[1]))
				if (line_hits(zline(f, x, y), m, f->wz))
					return 0;
	} else {
		ring_mask(d[1], b->s[1], b->l[1], m, f->wy);
		for (int i = 0, x = b->s[0]; i < b->l[0]; i++, x = wrap(x + 1, d[0]))
			for (int k = 0, z = b->s[2]; k < b->l[2]; k++, z = wrap(z + 1, d[2]))
				if (line_hits(yline(f, x, z), m, f->wy))
					return 0;
	}
	return 1;
}

static void set_bits(struct js_freebox *f, const struct js_box *b, int busy)
{
	const int *d = f->d;
	uint64_t *m = f->mask;
	ring_mask(d[2], b->s[2], b->l[2], m, f->wz);
	for (int i = 0, x = b->s[0]; i < b->l[0]; i++, x = wrap(x + 1, d[0]))
		for (int j = 0, y = b->s[1]; j < b->l[1]; j++, y = wrap(y + 1, d[1])) {
			uint64_t *line = zline(f, x, y);
			for (int w = 0; w < f->wz; w++)
				line[w] = busy ? line[w] | m[w] : line[w] & ~m[w];
		}
	ring_mask(d[1], b->s[1], b->l[1], m, f->wy);
	for (int i = 0, x = b->s[0]; i < b->l[0]; i++, x = wrap(x + 1, d[0]))
		for (int k = 0, z = b->s[2]; k < b->l[2]; k++, z = wrap(z + 1, d[2])) {
			uint64_t *line = yline(f, x, z);
			for (int w = 0; w < f->wy; w++)
				line[w] = busy ? line[w] | m[w] : line[w] & ~m[w];
		}
}

static int meets_any(const int *d, const struct js_box *b, const struct pending *near, int n);

/* Whether the free box b can grow by one layer along dimension i, the
 * pending releases still busy (max is the set before them). */
static int grows(const struct js_freebox *f, const struct js_box *b, int i)
{
	int D = f->d[i];
	if (b->l[i] == D)
		return 0;
	struct js_box layer = box_with(b, i, wrap(b->s[i] - 1, D), 1);
	if (js_freebox_is_free(f, &layer) && !meets_any(f->d, &layer, f->pend, f->npend))
		return 1;
	layer.s[i] = wrap(b->s[i] + b->l[i], D);
	return b->l[i] < D - 1 && js_freebox_is_free(f, &layer) &&
	       !meets_any(f->d, &layer, f->pend, f->npend);
}

/* --- life --- */

static struct js_box whole(const int *d)
{
	struct js_box u = {{0, 0, 0}, {d[0], d[1], d[2]}, d[0] * d[1] * d[2]};
	return u;
}

struct js_freebox *js_freebox_create(const int *d)
{
	struct js_freebox *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	memcpy(f->d, d, sizeof f->d);
	f->n = d[0] * d[1] * d[2];
	f->wz = (d[2] + 63) / 64;
	f->wy = (d[1] + 63) / 64;
	f->zl = calloc((size_t)d[0] * (size_t)d[1] * (size_t)f->wz, sizeof *f->zl);
	f->yl = calloc((size_t)d[0] * (size_t)d[2] * (size_t)f->wy, sizeof *f->yl);
	f->mask = malloc((size_t)(f->wz + f->wy) * sizeof *f->mask);
	f->seen = malloc((size_t)(d[0] + d[1] + d[2]));
	if (!f->zl || !f->yl || !f->mask || !f->seen) {
		js_freebox_destroy(f);
		return NULL;
	}
	js_freebox_clear(f);
	if (f->broken) {
		js_freebox_destroy(f);
		return NULL;
	}
	return f;
}

void js_freebox_destroy(struct js_freebox *f)
{
	if (!f)
		return;
	free(f->zl);
	free(f->yl);
	free(f->mask);
	free(f->seen);
	free(f->max.b);
	free(f->obs.b);
	free(f->cut.b);
	free(f->part.b);
	free(f->tmp.b);
	free(f->undo.b);
	free(f->undo_pend);
	free(f->pend);
	free(f->order);
	free(f);
}

void js_freebox_clear(struct js_freebox *f)
{
	memset(f->zl, 0, (size_t)f->d[0] * (size_t)f->d[1] * (size_t)f->wz * sizeof *f->zl);
	memset(f->yl, 0, (size_t)f->d[0] * (size_t)f->d[2] * (size_t)f->wy * sizeof *f->yl);
	f->obs.n = f->max.n = f->npend = 0;
	f->broken = 0;
	f->largest_valid = f->undo_valid = 0;
	struct js_box u = whole(f->d);
	push(f, &f->max, &u);
}

static void copy_boxes(struct js_freebox *f, struct boxes *dst, const struct boxes *src)
{
	if (dst->cap < src->n) {
		struct js_box *nb = realloc(dst->b, (size_t)src->n * sizeof *nb);
		if (!nb) {
			f->broken = 1;
			dst->n = 0;
			return;
		}
		dst->b = nb;
		dst->cap = src->n;
	}
	if (src->n) /* an empty source may have no array at all */
		memcpy(dst->b, src->b, (size_t)src->n * sizeof *dst->b);
	dst->n = src->n;
}

void js_freebox_copy(struct js_freebox *dst, const struct js_freebox *src)
{
	memcpy(dst->zl, src->zl,
	       (size_t)src->d[0] * (size_t)src->d[1] * (size_t)src->wz * sizeof *src->zl);
	memcpy(dst->yl, src->yl,
	       (size_t)src->d[0] * (size_t)src->d[2] * (size_t)src->wy * sizeof *src->yl);
	dst->broken = src->broken;
	copy_boxes(dst, &dst->max, &src->max);
	copy_boxes(dst, &dst->obs, &src->obs);
	dst->largest = src->largest;
	dst->largest_valid = src->largest_valid;
	dst->undo_valid = 0;
	dst->npend = 0;
	if (reserve_pending(dst, &dst->pend, &dst->pendcap, src->npend))
		return;
	if (src->npend)
		memcpy(dst->pend, src->pend, (size_t)src->npend * sizeof *dst->pend);
	dst->npend = src->npend;
}

/* --- taking a box --- */

/* Splits the maximal boxes that meet c (now busy) into their maximal parts
 * outside c. */
static void split_max(struct js_freebox *f, const struct js_box *c)
{
	const int *d = f->d;
	struct boxes *hit = &f->cut;
	hit->n = 0;
	for (int i = 0; i < f->max.n;)
		if (box_meet(d, &f->max.b[i], c)) {
			if (push(f, hit, &f->max.b[i]))
				return;
			drop(&f->max, i);
		} else
			i++;
	int first_new = f->max.n, arcs[4];
	for (int h = 0; h < hit->n; h++) {
		const struct js_box *m = &hit->b[h];
		for (int i = 0; i < 3; i++) {
			int k = ring_minus(d[i], m->s[i], m->l[i], c->s[i], c->l[i], arcs);
			for (int a = 0; a < k; a++) {
				/* blocked along i by c and by m's own ends: maximal
				 * unless it grows along another dimension */
				struct js_box p = box_with(m, i, arcs[2 * a], arcs[2 * a + 1]);
				if (grows(f, &p, (i + 1) % 3) || grows(f, &p, (i + 2) % 3))
					continue;
				int dup = 0;
				for (int j = first_new; j < f->max.n && !dup; j++)
					dup = box_same(&f->max.b[j], &p);
				if (!dup && push(f, &f->max, &p))
					return;
			}
		}
	}
}

/* The same box with every whole ring starting at 0. */
static struct js_box canonical(const int *d, const struct js_box *b)
{
	struct js_box c = *b;
	for (int i = 0; i < 3; i++)
		if (c.l[i] == d[i])
			c.s[i] = 0;
	box_set_vol(&c);
	return c;
}

static void sync(struct js_freebox *f);
static void sync_meeting(struct js_freebox *f, const struct js_box *b);

void js_freebox_occupy(struct js_freebox *f, const struct js_box *box)
{
	struct js_box cb = canonical(f->d, box), *b = &cb;
	if (meets_any(f->d, b, f->pend, f->npend))
		sync_meeting(f, b); /* the order matters: those releases first */
	set_bits(f, b, 1);
	f->largest_valid = 0;
	f->undo_valid = 0;
	if (f->broken || push(f, &f->obs, b))
		return;
	copy_boxes(f, &f->undo, &f->max);
	if (reserve_pending(f, &f->undo_pend, &f->undo_pendcap, f->npend))
		return;
	if (f->npend)
		memcpy(f->undo_pend, f->pend, (size_t)f->npend * sizeof *f->pend);
	f->undo_valid = !f->broken;
	f->undo_box = *b;
	split_max(f, b);
	for (int j = 0; j < f->npend; j++)
		f->pend[j].found = 0; /* b may hold it now */
}

/* --- giving a box back --- */

/* Adds the parts of obstacle o outside c to the obstacles (disjoint). */
static void subtract(struct js_freebox *f, struct js_box o, const struct js_box *c)
{
	const int *d = f->d;
	if (!box_meet(d, &o, c)) {
		push(f, &f->obs, &o);
		return;
	}
	for (int i = 0; i < 3; i++) {
		if (ring_within(d[i], c->s[i], c->l[i], o.s[i], o.l[i]))
			continue;
		int arcs[4], k = ring_minus(d[i], o.s[i], o.l[i], c->s[i], c->l[i], arcs);
		for (int a = 0; a < k; a++) {
			struct js_box p = box_with(&o, i, arcs[2 * a], arcs[2 * a + 1]);
			push(f, &f->obs, &p);
		}
		k = ring_common(d[i], o.s[i], o.l[i], c->s[i], c->l[i], arcs);
		for (int a = 0; a < k; a++)
			subtract(f, box_with(&o, i, arcs[2 * a], arcs[2 * a + 1]), c);
		return;
	}
	/* o lies inside c: nothing stays */
}

static void remove_obstacle(struct js_freebox *f, const struct js_box *c)
{
	for (int i = 0; i < f->obs.n; i++)
		if (box_same(&f->obs.b[i], c)) {
			drop(&f->obs, i);
			return;
		}
	/* not one of the busy boxes: cut it out of those it meets */
	struct boxes *met = &f->tmp;
	met->n = 0;
	for (int i = 0; i < f->obs.n;)
		if (box_meet(f->d, &f->obs.b[i], c)) {
			if (push(f, met, &f->obs.b[i]))
				return;
			drop(&f->obs, i);
		} else
			i++;
	for (int i = 0; i < met->n; i++)
		subtract(f, met->b[i], c);
	met->n = 0;
}

/* Distance from box o to the nearest of the boxes near[0..n-1]. */
static long distance(const int *d, const struct js_box *o, const struct pending *near, int n)
{
	long best = -1;
	for (int k = 0; k < n; k++) {
		long g = 0;
		for (int j = 0; j < 3; j++)
			g += ring_gap(d[j], o->s[j], o->l[j], near[k].c.s[j], near[k].c.l[j]);
		best = best < 0 || g < best ? g : best;
	}
	return best;
}

/* The cut: the busy boxes (obs, then the extra ones) nearest to near
 * first (a counting sort: distances are at most (d0 + d1 + d2) / 2), as
 * indices into order. */
static int order_obstacles(struct js_freebox *f, const struct pending *near, int nnear,
                           const struct pending *extra, int nextra)
{
	int total = f->obs.n + nextra, span = (f->d[0] + f->d[1] + f->d[2]) / 2 + 2;
	if (f->ordercap < 2 * total + span) {
		int *k = realloc(f->order, (size_t)(2 * total + span) * sizeof *k);
		if (!k) {
			f->broken = 1;
			return -1;
		}
		f->order = k;
		f->ordercap = 2 * total + span;
	}
	int *dist = f->order + total, *count = dist + total;
	memset(count, 0, (size_t)span * sizeof *count);
	for (int i = 0; i < total; i++) {
		const struct js_box *o = i < f->obs.n ? &f->obs.b[i] : &extra[i - f->obs.n].c;
		dist[i] = (int)distance(f->d, o, near, nnear);
		count[dist[i] + 1]++;
	}
	for (int g = 1; g < span; g++)
		count[g] += count[g - 1];
	for (int i = 0; i < total; i++)
		f->order[count[dist[i]]++] = i;
	return total;
}

static int meets_any(const int *d, const struct js_box *b, const struct pending *near, int n)
{
	for (int k = 0; k < n; k++)
		if (box_meet(d, b, &near[k].c))
			return 1;
	return 0;
}

/* Into f->cut: the maximal free boxes of at least min_vol nodes that meet
 * one of near[0..nnear-1] when the boxes extra[0..nextra-1] are busy too:
 * the torus cut by every busy box, keeping the parts that meet near, hold
 * min_vol nodes and lie in no other part. 0 or -1 (out of memory). */
static int boxes_meeting(struct js_freebox *f, const struct pending *near, int nnear,
                         const struct pending *extra, int nextra, int min_vol)
{
	const int *d = f->d;
	struct boxes *g = &f->cut, *parts = &f->part;
	g->n = 0;
	struct js_box u = whole(d);
	int total = order_obstacles(f, near, nnear, extra, nextra);
	if (total < 0 || push(f, g, &u))
		return -1;
	for (int r = 0; r < total && g->n; r++) {
		int idx = f->order[r];
		const struct js_box *o = idx < f->obs.n ? &f->obs.b[idx] : &extra[idx - f->obs.n].c;
		parts->n = 0;
		for (int i = 0; i < g->n;) {
			if (!box_meet(d, &g->b[i], o)) {
				i++;
				continue;
			}
			struct js_box k = g->b[i];
			drop(g, i);
			int arcs[4];
			for (int j = 0; j < 3; j++) {
				int na = ring_minus(d[j], k.s[j], k.l[j], o->s[j], o->l[j], arcs);
				for (int a = 0; a < na; a++) {
					if (arcs[2 * a + 1] * (k.vol / k.l[j]) < min_vol)
						continue;
					struct js_box p =
					    box_with(&k, j, arcs[2 * a], arcs[2 * a + 1]);
					if (meets_any(d, &p, near, nnear) && push(f, parts, &p))
						return -1;
				}
			}
		}
		/* a part inside an untouched box or inside another part goes
		 * (of equal parts the first stays); parts of one box never hold
		 * one another */
		for (int p = 0; p < parts->n; p++) {
			const struct js_box *b = &parts->b[p];
			int inside = 0;
			for (int i = 0; i < g->n && !inside; i++)
				inside = box_within(d, &g->b[i], b);
			for (int q = 0; q < parts->n && !inside; q++)
				inside = q != p && box_within(d, &parts->b[q], b) &&
				         (q < p || !box_same(&parts->b[q], b));
			if (!inside && push(f, &f->tmp, b))
				return -1;
		}
		for (int p = 0; p < f->tmp.n; p++)
			if (push(f, g, &f->tmp.b[p]))
				return -1;
		f->tmp.n = 0;
	}
	return 0;
}

/* Applies to max the pending releases that meet box b (b NULL: every
 * one); the others stay pending. */
static void sync_meeting(struct js_freebox *f, const struct js_box *b)
{
	const int *d = f->d;
	if (!f->npend || f->broken)
		return;
	/* the chosen ones go last; a kept one before a chosen one forgets
	 * what it knew not to fit (its state gains the chosen one's nodes) */
	struct pending *p = f->pend;
	int keep = 0, chosen = 0, last = -1;
	for (int j = 0; j < f->npend; j++)
		if (!b || box_meet(d, &p[j].c, b))
			last = j;
	for (int j = 0; j < f->npend; j++) {
		if (b && !box_meet(d, &p[j].c, b)) {
			struct pending t = p[j];
			if (j < last)
				t.none = f->n + 1;
			memmove(p + keep + 1, p + keep, (size_t)(j - keep) * sizeof *p);
			p[keep++] = t;
		} else
			chosen++;
	}
	if (boxes_meeting(f, p + keep, chosen, p, keep, 1))
		return;
	const struct boxes *g = &f->cut;
	/* old boxes inside a new one go: they touch a given-back box */
	for (int k = keep; k < f->npend; k++) {
		struct js_box *c = &p[k].c;
		for (int i = 0; i < 3; i++)
			if (c->l[i] + 2 >= d[i]) {
				c->s[i] = 0;
				c->l[i] = d[i];
			} else {
				c->s[i] = wrap(c->s[i] - 1, d[i]);
				c->l[i] += 2;
			}
	}
	for (int i = 0; i < f->max.n;) {
		int inside = 0;
		if (meets_any(d, &f->max.b[i], p + keep, chosen))
			for (int j = 0; j < g->n && !inside; j++)
				inside = box_within(d, &g->b[j], &f->max.b[i]);
		if (inside)
			drop(&f->max, i);
		else
			i++;
	}
	for (int j = 0; j < g->n; j++)
		if (push(f, &f->max, &g->b[j]))
			return;
	f->npend = keep;
	f->largest_valid = 0;
	f->undo_valid = 0; /* the snapshot lacks these releases */
}

static void sync(struct js_freebox *f)
{
	sync_meeting(f, NULL);
}

void js_freebox_release(struct js_freebox *f, const struct js_box *box)
{
	struct js_box cb = canonical(f->d, box), *b = &cb;
	set_bits(f, b, 0);
	if (f->broken)
		return;
	remove_obstacle(f, b);
	if (f->undo_valid && box_same(b, &f->undo_box)) {
		copy_boxes(f, &f->max, &f->undo); /* back to before the occupy */
		if (f->npend)
			memcpy(f->pend, f->undo_pend, (size_t)f->npend * sizeof *f->pend);
		f->undo_valid = 0;
		f->largest_valid = 0;
		return;
	}
	f->undo_valid = 0;
	if (reserve_pending(f, &f->pend, &f->pendcap, f->npend + 1))
		return;
	struct pending *p = &f->pend[f->npend++];
	p->c = *b;
	p->found = 0;
	p->none = f->n + 1;
}

/* --- answers --- */

/* After memory ran out: the boxes again from the bits, run by run. */
static void rebuild(struct js_freebox *f)
{
	f->broken = 0;
	f->obs.n = f->max.n = f->npend = 0;
	f->largest_valid = f->undo_valid = 0;
	struct js_box u = whole(f->d);
	if (push(f, &f->max, &u))
		return;
	const int *d = f->d;
	for (int x = 0; x < d[0] && !f->broken; x++)
		for (int y = 0; y < d[1] && !f->broken; y++) {
			const uint64_t *line = zline(f, x, y);
			for (int z = 0; z < d[2] && !f->broken;) {
				if (!(line[z / 64] >> (z % 64) & 1)) {
					z++;
					continue;
				}
				int e = z + 1;
				while (e < d[2] && (line[e / 64] >> (e % 64) & 1))
					e++;
				struct js_box run = {{x, y, z}, {1, 1, e - z}, e - z};
				if (!push(f, &f->obs, &run))
					split_max(f, &run);
				z = e;
			}
		}
}

const struct js_box *js_freebox_maximal(struct js_freebox *f, int *count)
{
	sync(f);
	if (f->broken)
		rebuild(f);
	*count = f->broken ? 0 : f->max.n;
	return f->max.b;
}

/* The largest volume in max (the boxes before the pending releases). */
static int largest_before(struct js_freebox *f)
{
	if (f->broken)
		rebuild(f);
	if (!f->largest_valid) {
		int best = 0;
		for (int i = 0; i < f->max.n; i++)
			if (f->max.b[i].vol > best)
				best = f->max.b[i].vol;
		f->largest = best;
		f->largest_valid = !f->broken;
	}
	return f->broken ? 0 : f->largest;
}

int js_freebox_largest(struct js_freebox *f)
{
	sync(f);
	return largest_before(f);
}

int js_freebox_at_least(struct js_freebox *f, int p)
{
	if (p <= 0 || largest_before(f) >= p)
		return 1;
	for (int j = 0; j < f->npend; j++)
		if (f->pend[j].found >= p)
			return 1;
	/* a new free box meets some pending c_j; the latest one it meets
	 * decides: it was free right after c_j came back */
	for (int j = f->npend - 1; j >= 0 && !f->broken; j--) {
		struct pending *c = &f->pend[j];
		if (c->none <= p)
			continue;
		if (boxes_meeting(f, c, 1, c + 1, f->npend - j - 1, p))
			break;
		for (int k = 0; k < f->cut.n; k++)
			c->found = f->cut.b[k].vol > c->found ? f->cut.b[k].vol : c->found;
		if (c->found >= p)
			return 1;
		c->none = p;
	}
	if (f->broken) /* out of memory on the way: the slow answer */
		return js_freebox_largest(f) >= p;
	return 0;
}

int js_freebox_nodes(const struct js_freebox *f, const struct js_box *b, int *nodes)
{
	const int *d = f->d;
	int n = 0;
	for (int a = 0, x = b->s[0]; a < b->l[0]; a++, x = wrap(x + 1, d[0]))
		for (int c = 0, y = b->s[1]; c < b->l[1]; c++, y = wrap(y + 1, d[1]))
			for (int e = 0, z = b->s[2]; e < b->l[2]; e++, z = wrap(z + 1, d[2]))
				nodes[n++] = (x * d[1] + y) * d[2] + z;
	return n;
}

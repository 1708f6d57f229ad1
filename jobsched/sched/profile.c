/* Availability profile over time segments (see profile.h). */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

static uint64_t *seg_bits(const struct js_profile *p, size_t i)
{
	return p->bits + i * (size_t)p->words;
}

int js_profile_init(struct js_profile *p, int nodes, int with_bits, double origin)
{
	memset(p, 0, sizeof *p);
	p->nodes = nodes;
	p->with_bits = with_bits;
	p->words = with_bits ? (nodes + 63) / 64 : 0;
	p->cap = 64;
	p->t = malloc(p->cap * sizeof *p->t);
	p->busy = malloc(p->cap * sizeof *p->busy);
	p->bits = with_bits ? malloc(p->cap * (size_t)p->words * sizeof *p->bits) : NULL;
	if (!p->t || !p->busy || (with_bits && !p->bits)) {
		js_profile_free(p);
		return -1;
	}
	js_profile_reset(p, origin);
	return 0;
}

void js_profile_free(struct js_profile *p)
{
	free(p->t);
	free(p->busy);
	free(p->bits);
	free(p->fr);
	free(p->bk);
	memset(p, 0, sizeof *p);
}

void js_profile_reset(struct js_profile *p, double origin)
{
	p->n = 1;
	p->qok = 0;
	p->t[0] = origin;
	p->busy[0] = 0;
	if (p->with_bits)
		memset(p->bits, 0, (size_t)p->words * sizeof *p->bits);
}

static int same(const struct js_profile *p, size_t a, size_t b)
{
	return p->busy[a] == p->busy[b] &&
	       (!p->with_bits ||
	        memcmp(seg_bits(p, a), seg_bits(p, b), (size_t)p->words * sizeof *p->bits) == 0);
}

void js_profile_trim(struct js_profile *p, double now)
{
	size_t first = 0;
	while (first + 1 < p->n && p->t[first + 1] <= now)
		first++;
	size_t out = 0;
	for (size_t i = first; i < p->n; i++) {
		if (out && same(p, out - 1, i))
			continue; /* merge into the previous segment */
		if (out != i) {
			p->t[out] = p->t[i];
			p->busy[out] = p->busy[i];
			if (p->with_bits)
				memcpy(seg_bits(p, out), seg_bits(p, i),
				       (size_t)p->words * sizeof *p->bits);
		}
		out++;
	}
	p->n = out;
	p->qok = 0;
	if (p->t[0] < now)
		p->t[0] = now;
}

/* Index of the segment holding time t (t >= t[0]). */
static size_t seg_of(const struct js_profile *p, double t)
{
	size_t lo = 0, hi = p->n;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (p->t[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Makes t a segment boundary; returns the index of the segment starting at t. */
static long split(struct js_profile *p, double t)
{
	size_t i = seg_of(p, t);
	if (p->t[i] == t)
		return (long)i;
	if (p->n == p->cap) {
		size_t cap = 2 * p->cap;
		double *nt = realloc(p->t, cap * sizeof *nt);
		if (!nt)
			return -1;
		p->t = nt;
		int *nb = realloc(p->busy, cap * sizeof *nb);
		if (!nb)
			return -1;
		p->busy = nb;
		if (p->with_bits) {
			uint64_t *bits = realloc(p->bits, cap * (size_t)p->words * sizeof *bits);
			if (!bits)
				return -1;
			p->bits = bits;
		}
		p->cap = cap;
	}
	size_t tail = p->n - i - 1;
	memmove(p->t + i + 2, p->t + i + 1, tail * sizeof *p->t);
	memmove(p->busy + i + 2, p->busy + i + 1, tail * sizeof *p->busy);
	p->t[i + 1] = t;
	p->busy[i + 1] = p->busy[i];
	if (p->with_bits) {
		size_t w = (size_t)p->words;
		memmove(seg_bits(p, i + 2), seg_bits(p, i + 1), tail * w * sizeof *p->bits);
		memcpy(seg_bits(p, i + 1), seg_bits(p, i), w * sizeof *p->bits);
	}
	p->n++;
	return (long)(i + 1);
}

int js_profile_change(struct js_profile *p, double t0, double t1, int n, const int *nodes, int sign)
{
	if (t0 < p->t[0])
		t0 = p->t[0];
	if (!(t1 > t0))
		return 0;
	p->qok = 0;
	long a = split(p, t0);
	long b = isinf(t1) ? (long)p->n : split(p, t1);
	if (a < 0 || b < 0)
		return -1;
	for (long i = a; i < b; i++) {
		p->busy[i] += sign * n;
		assert(p->busy[i] >= 0 && p->busy[i] <= p->nodes);
		if (!p->with_bits)
			continue;
		uint64_t *bits = seg_bits(p, (size_t)i);
		for (int k = 0; k < n; k++) {
			uint64_t bit = UINT64_C(1) << (nodes[k] % 64);
			assert(!!(bits[nodes[k] / 64] & bit) == (sign < 0));
			bits[nodes[k] / 64] ^= bit;
		}
	}
	return 0;
}

double js_profile_end(double t, double d)
{
	double end = t + d;
	return end > t ? end : nextafter(t, INFINITY);
}

/* The union of segments [i, k) into out, from the queue of two stacks
 * (profile.h) moved to that window when it can be (i and k never go back
 * between calls while the profile stays), else built again; without
 * memory for the stacks, segment by segment. */
static void window_union(struct js_profile *p, size_t i, size_t k, uint64_t *out)
{
	size_t w = (size_t)p->words;
	if (!p->qok || i < p->qf || i > p->qb || k < p->qb) { /* start again, empty at i */
		if (!p->bk && !(p->bk = malloc(w * sizeof *p->bk)))
			goto direct;
		memset(p->bk, 0, w * sizeof *p->bk);
		p->qf0 = p->qf = p->mid = p->qb = i;
		p->qok = 1;
	}
	for (; p->qb < k; p->qb++) /* push */
		for (size_t x = 0; x < w; x++)
			p->bk[x] |= seg_bits(p, p->qb)[x];
	p->qf = i;             /* pop */
	if (p->qf >= p->mid) { /* the front is empty: the back becomes the front */
		size_t len = p->qb - p->qf;
		if (len > p->frcap) {
			uint64_t *fr = realloc(p->fr, len * w * sizeof *fr);
			if (!fr) {
				p->qok = 0;
				goto direct;
			}
			p->fr = fr;
			p->frcap = len;
		}
		for (size_t s = p->qb; s-- > p->qf;) {
			uint64_t *f = p->fr + (s - p->qf) * w;
			const uint64_t *b = seg_bits(p, s);
			if (s + 1 == p->qb)
				memcpy(f, b, w * sizeof *f);
			else
				for (size_t x = 0; x < w; x++)
					f[x] = b[x] | f[x + w];
		}
		p->qf0 = p->qf;
		p->mid = p->qb;
		memset(p->bk, 0, w * sizeof *p->bk);
	}
	const uint64_t *f = p->fr + (p->qf - p->qf0) * w;
	for (size_t x = 0; x < w; x++)
		out[x] = f[x] | p->bk[x];
	return;
direct:
	memset(out, 0, w * sizeof *out);
	for (size_t s = i; s < k; s++)
		for (size_t x = 0; x < w; x++)
			out[x] |= seg_bits(p, s)[x];
}

long js_profile_find(struct js_profile *p, size_t from, double d, int need, double bound,
                     uint64_t *busy_out)
{
	int room = p->nodes - need;
	size_t w = (size_t)p->words;
	for (size_t i = from; i < p->n && p->t[i] <= bound;) {
		double end = js_profile_end(p->t[i], d);
		size_t k = i, bad = p->n;
		for (; k < p->n && (k == i || p->t[k] < end); k++)
			if (p->busy[k] > room) {
				bad = k;
				break;
			}
		if (bad < p->n) { /* every start up to segment `bad` sees it: skip past */
			i = bad + 1;
			continue;
		}
		if (!p->with_bits)
			return (long)i;
		window_union(p, i, k, busy_out);
		int count = 0;
		for (size_t x = 0; x < w; x++)
			count += __builtin_popcountll(busy_out[x]);
		if (count <= room)
			return (long)i;
		i++;
	}
	return -1;
}

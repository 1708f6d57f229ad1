/* Allocation quality metrics (see alloc_quality.h). The pairwise sum has a
 * path per machine family that follows the runs of consecutive node ids:
 * per-axis coordinate counts swept with two pointers on meshes and tori,
 * block counts on trees, cluster counts on multi-clusters (the nested
 * family's own path inside each cluster); every pair on any other family.
 * Sums are kept in 64-bit integers and converted once. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_quality.h"

const char *const js_alloc_class_names[] = {"", "contiguous", "quasi", "non-contiguous"};

/* Adds a b to s. */
static void isum_mul(struct js_isum *s, uint64_t a, uint64_t b)
{
	uint64_t p;
	if (__builtin_mul_overflow(a, b, &p)) {
		s->d += (double)a * (double)b;
		return;
	}
	if (s->i > UINT64_MAX - p) {
		s->d += (double)s->i;
		s->i = 0;
	}
	s->i += p;
}

void js_isum_add(struct js_isum *s, double v)
{
	if (v >= 0 && v < 0x1p64)
		isum_mul(s, (uint64_t)v, 1);
	else
		s->d += v;
}

double js_isum_value(const struct js_isum *s)
{
	return s->d + (double)s->i;
}

static uint64_t pairs(uint64_t n)
{
	return n ? n * (n - 1) / 2 : 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* A node set as runs of consecutive ids, ascending (an array of runs, or
 * of nodes whose runs are found on the way), seen through the window of
 * ids lo..hi renumbered from lo: one cluster of a multi-cluster machine as
 * a machine of its own. */
struct view {
	const struct js_run *runs; /* runs[0..n), or when NULL */
	const int *nodes;          /* nodes[0..n) */
	int n, start;              /* start: no index before it reaches the window */
	int lo, hi;
};

/* The run at index *i or after that reaches the window, clipped to it and
 * renumbered, as a..b, and *i past it; 0 when none is left. */
static inline int view_next(const struct view *v, int *i, int *a, int *b)
{
	int first, last;
	do {
		if (*i >= v->n)
			return 0;
		if (v->runs) {
			first = v->runs[*i].first;
			last = v->runs[*i].last;
			++*i;
		} else {
			int k = js_nodes_run_end(v->nodes, v->n, *i);
			first = v->nodes[*i];
			last = v->nodes[k];
			*i = k + 1;
		}
		if (first > v->hi)
			return 0;
	} while (last < v->lo);
	*a = (first > v->lo ? first : v->lo) - v->lo;
	*b = (last < v->hi ? last : v->hi) - v->lo;
	return 1;
}

/* --- meshes and tori --- */

/* The sum over pairs of positions on an axis of D points of their distance
 * (on a ring, wrap, the shorter way round). Positions: k values ascending
 * (val; NULL: 0 .. k-1), each with a multiplicity (cnt; NULL: 1). Two
 * pointers: positions at most h behind the current one are near (distance:
 * the gap g), the others far (D - g), with running counts and sums of both. */
static void axis_sum(const int *val, const int *cnt, int k, int D, int wrap, struct js_isum *s)
{
	uint64_t h = wrap ? (uint64_t)D / 2 : (uint64_t)D;
	uint64_t n_all = 0, x_all = 0, n_far = 0, x_far = 0;
	for (int j = 0, i = 0; j < k; j++) {
		uint64_t x = (uint64_t)(val ? val[j] : j), w = (uint64_t)(cnt ? cnt[j] : 1);
		if (!w)
			continue;
		for (; x - (uint64_t)(val ? val[i] : i) > h; i++) {
			uint64_t wi = (uint64_t)(cnt ? cnt[i] : 1);
			n_far += wi;
			x_far += wi * (uint64_t)(val ? val[i] : i);
		}
		uint64_t near = (n_all - n_far) * x - (x_all - x_far);
		uint64_t far = n_far * ((uint64_t)D - x) + x_far;
		isum_mul(s, w, near + far);
		n_all += w;
		x_all += w * x;
	}
}

/* Adds c to the len coordinates from `from` round an axis of D: diff holds
 * differences, *base what every coordinate gets. */
static inline void ring_add(int *diff, int D, int from, int len, int c, int *base)
{
	if (len <= 0)
		return;
	int end = from + len;
	diff[from] += c;
	if (end < D) {
		diff[end] -= c;
	} else if (end > D) {
		*base += c;
		diff[end - D] -= c;
	}
}

/* How many of the view's nodes have each coordinate 0 .. D-1 on the axis
 * of that stride (node ids in C order, topo_grid.c), into cnt: a run's
 * first and last block of `stride` ids, and its whole blocks between
 * (consecutive coordinates round the axis). O(runs + D). */
static void axis_counts(const struct view *v, int stride, int D, int *cnt)
{
	memset(cnt, 0, (size_t)D * sizeof *cnt);
	int base = 0;
	for (int i = v->start, a, b; view_next(v, &i, &a, &b);) {
		int qa = a / stride, qb = b / stride;
		if (qa == qb) {
			ring_add(cnt, D, qa % D, 1, b - a + 1, &base);
			continue;
		}
		int whole = qb - qa - 1;
		ring_add(cnt, D, qa % D, 1, (qa + 1) * stride - a, &base);
		ring_add(cnt, D, qb % D, 1, b - qb * stride + 1, &base);
		ring_add(cnt, D, (qa + 1) % D, whole % D, stride, &base);
		base += whole / D * stride;
	}
	for (int x = 0, c = base; x < D; x++) {
		c += cnt[x];
		cnt[x] = c;
	}
}

/* The view's coordinates on the axis of that stride, in node order, into
 * val; 1 when they come out ascending. */
static int axis_values(const struct view *v, int stride, int D, int *val)
{
	int k = 0, sorted = 1;
	for (int i = v->start, a, b; view_next(v, &i, &a, &b);)
		for (int x = a; x <= b;) {
			int q = x / stride, c = q % D, end = (q + 1) * stride - 1;
			if (end > b)
				end = b;
			sorted &= k == 0 || val[k - 1] <= c;
			for (; x <= end; x++)
				val[k++] = c;
		}
	return sorted;
}

/* The sum over positions as axis_sum gives them of their distance to 0. */
static void axis_to_first(const int *val, const int *cnt, int k, int D, int wrap, struct js_isum *s)
{
	for (int j = 0; j < k; j++) {
		int x = val ? val[j] : j;
		isum_mul(s, (uint64_t)(cnt ? cnt[j] : 1),
		         (uint64_t)(wrap && D - x < x ? D - x : x));
	}
}

/* L1 distance, axis by axis: from coordinate counts on axes no longer than
 * the node count, from the sorted coordinates on longer ones. The sum over
 * pairs, or with to_first over nodes of their distance to node 0. */
static void grid_sum(const struct plat_machine *m, const struct view *v, int n, int *scratch,
                     int to_first, struct js_isum *s)
{
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS];
	plat_grid_shape(m, &nd, dims, wrap, NULL);
	for (int d = nd - 1, stride = 1; d >= 0; stride *= dims[d], d--) {
		const int *val = NULL, *cnt = scratch;
		int k = dims[d];
		if (dims[d] < 2)
			continue;
		if (dims[d] <= n) {
			axis_counts(v, stride, dims[d], scratch);
		} else {
			if (!axis_values(v, stride, dims[d], scratch) && !to_first)
				qsort(scratch, (size_t)n, sizeof *scratch, cmp_int);
			val = scratch, cnt = NULL, k = n;
		}
		if (to_first)
			axis_to_first(val, cnt, k, dims[d], wrap[d], s);
		else
			axis_sum(val, cnt, k, dims[d], wrap[d], s);
	}
}

/* --- trees and clusters --- */

/* Trees: the pairs whose nearest common ancestor is at level l (distance
 * 2 l), from the node counts of the blocks of k^l ids. */
static void tree_sum(const struct plat_machine *m, const struct view *v, struct js_isum *s)
{
	int k, levels;
	plat_kary_ntree_shape(m, &k, &levels, NULL);
	uint64_t below = 0; /* pairs inside blocks of the level below */
	long long block = 1;
	for (int l = 1; l <= levels; l++) {
		block *= k;
		uint64_t within = 0, cnt = 0; /* cnt: nodes in block cur so far */
		long long cur = -1;
		for (int i = v->start, a, b; view_next(v, &i, &a, &b);) {
			long long qa = a / block, qb = b / block;
			if (qa != cur) {
				within += pairs(cnt);
				cnt = 0;
			}
			if (qa == qb) {
				cnt += (uint64_t)(b - a + 1);
				cur = qa;
				continue;
			}
			within += pairs(cnt + (uint64_t)((qa + 1) * block - a)) +
			          (uint64_t)(qb - qa - 1) * pairs((uint64_t)block);
			cnt = (uint64_t)(b - qb * block + 1);
			cur = qb;
		}
		within += pairs(cnt);
		isum_mul(s, 2 * (uint64_t)l, within - below);
		below = within;
	}
}

/* Trees: the sum over nodes of their distance to node 0, 2 l for the ids
 * from k^(l-1) to k^l - 1. */
static void tree_to_first(const struct plat_machine *m, const struct view *v, struct js_isum *s)
{
	int k, levels;
	plat_kary_ntree_shape(m, &k, &levels, NULL);
	for (int i = v->start, a, b; view_next(v, &i, &a, &b);) {
		long long lo = 1;
		for (int l = 1; l <= levels && lo <= b; l++, lo *= k) {
			long long x = a > lo ? a : lo, y = b < lo * k - 1 ? b : lo * k - 1;
			if (y >= x)
				isum_mul(s, 2 * (uint64_t)l, (uint64_t)(y - x + 1));
		}
	}
}

/* Adds the sum over the view's n nodes of their distance to node 0. */
static void to_first(const struct plat_machine *m, const struct view *v, int n, int *scratch,
                     struct js_isum *s)
{
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS], k, levels;
	if (plat_grid_shape(m, &nd, dims, wrap, NULL) == 0)
		grid_sum(m, v, n, scratch, 1, s);
	else if (plat_kary_ntree_shape(m, &k, &levels, NULL) == 0)
		tree_to_first(m, v, s);
	else
		for (int i = v->start, a, b; view_next(v, &i, &a, &b);)
			for (int x = a; x <= b; x++)
				isum_mul(s, 1, (uint64_t)plat_distance(m, x, 0));
}

/* The last id of node x's cluster when up, else its first (clusters are
 * ranges of ids: bisection). */
static int cluster_edge(const struct plat_machine *m, int x, int up)
{
	int c = plat_cluster_of(m, x), in = x, out = up ? m->nodes : -1;
	while (out - in > 1 || in - out > 1) {
		int mid = in + (out - in) / 2;
		if (plat_cluster_of(m, mid) == c)
			in = mid;
		else
			out = mid;
	}
	return in;
}

/* Hops from node x of a multi-cluster machine to its cluster's gateway:
 * the gateway switch of a flat cluster, the first node of a nested one. */
static int gateway_hops(const struct plat_machine *m, int x)
{
	const struct plat_machine *in = plat_multicluster_inner(m);
	return in ? plat_distance(in, x - cluster_edge(m, x, 0), 0) : 1;
}

static int pair_sum(const struct plat_machine *m, const struct view *v, int n, int *scratch,
                    struct js_isum *s);

/* Multi-clusters: pairs inside a cluster at the nested family's distance
 * (2 on flat ones); a pair across goes from one node to its gateway, over
 * the WAN hops (the same for every two clusters) and on to the other: each
 * node's gateway hops count once per node outside its cluster. Returns the
 * clusters spanned. */
static int mc_sum(const struct plat_machine *m, const struct view *v, int n, int *scratch,
                  struct js_isum *s)
{
	const struct plat_machine *in = plat_multicluster_inner(m);
	uint64_t same = 0; /* pairs inside a cluster */
	int clusters = 0, at = v->start, i = at, a, b, first = -1, last = -1;
	int more = view_next(v, &i, &a, &b); /* a..b: the run at index at, what is left of it */
	while (more) {
		int lo = cluster_edge(m, a, 0), hi = cluster_edge(m, a, 1);
		struct view sub = {v->runs, v->nodes, v->n, at, v->lo + lo, v->lo + hi};
		uint64_t cnt = 0, hops = 0;
		if (first < 0)
			first = a;
		for (;;) { /* the cluster's nodes, run by run */
			int e = b < hi ? b : hi;
			cnt += (uint64_t)(e - a + 1);
			last = e;
			if (b > hi) {
				a = hi + 1; /* the rest of the run is in the next cluster */
				break;
			}
			at = i;
			more = view_next(v, &i, &a, &b);
			if (!more || a > hi)
				break;
		}
		if (in) {
			struct js_isum h = {0, 0}; /* below n times the diameter: 2^48 */
			to_first(in, &sub, (int)cnt, scratch, &h);
			hops = (uint64_t)js_isum_value(&h);
			pair_sum(in, &sub, (int)cnt, scratch, s);
		} else {
			isum_mul(s, 2, pairs(cnt));
			hops = cnt; /* one hop each to the gateway switch */
		}
		isum_mul(s, hops, (uint64_t)n - cnt);
		same += pairs(cnt);
		clusters++;
	}
	if (clusters > 1) {
		int wan =
		    plat_distance(m, first, last) - gateway_hops(m, first) - gateway_hops(m, last);
		isum_mul(s, (uint64_t)wan, pairs((uint64_t)n) - same);
	}
	return clusters;
}

/* Any other family: every pair. */
static void every_pair(const struct plat_machine *m, const struct view *v, struct js_isum *s)
{
	for (int i = v->start, next = i, a, b; view_next(v, &next, &a, &b); i = next)
		for (int x = a; x <= b; x++)
			for (int j = i, c, e; view_next(v, &j, &c, &e);)
				for (int y = c > x ? c : x + 1; y <= e; y++)
					isum_mul(s, 1, (uint64_t)plat_distance(m, x, y));
}

/* Adds the view's pairwise sum (n nodes) to s; returns the clusters it spans. */
static int pair_sum(const struct plat_machine *m, const struct view *v, int n, int *scratch,
                    struct js_isum *s)
{
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS], k, levels, clusters;
	if (plat_multicluster_shape(m, &clusters, NULL, NULL, NULL) == 0)
		return mc_sum(m, v, n, scratch, s);
	if (n < 2)
		return 1;
	if (plat_grid_shape(m, &nd, dims, wrap, NULL) == 0)
		grid_sum(m, v, n, scratch, 0, s);
	else if (plat_kary_ntree_shape(m, &k, &levels, NULL) == 0)
		tree_sum(m, v, s);
	else if (strcmp(m->ops->base.name, "flat") == 0)
		isum_mul(s, 2, pairs((uint64_t)n));
	else
		every_pair(m, v, s);
	return 1;
}

/* The quality of the view's n nodes, first and last among them. */
static void quality(const struct plat_machine *m, const struct view *v, int n, int first, int last,
                    int job_size, int *scratch, struct js_alloc_quality *q)
{
	memset(q, 0, sizeof *q);
	q->max_level = -1;
	q->cls = JS_CLASS_NA;
	struct js_isum s = {0, 0};
	q->clusters = pair_sum(m, v, n, scratch, &s);
	q->pairwise_sum = js_isum_value(&s);
	q->pairwise_mean = n > 1 ? q->pairwise_sum / ((double)n * (n - 1) / 2) : 0;
	int k, levels;
	if (plat_kary_ntree_shape(m, &k, &levels, NULL))
		return;
	/* ascending ids: the first and last node meet at the highest switch */
	q->max_level = plat_distance(m, first, last) / 2;
	int job_level = 1;
	for (long long sz = k; job_level < levels && sz < job_size; sz *= k)
		job_level++;
	q->cls = q->max_level <= job_level       ? JS_CLASS_CONTIGUOUS
	         : q->max_level == job_level + 1 ? JS_CLASS_QUASI
	                                         : JS_CLASS_NONCONTIGUOUS;
}

void js_alloc_quality(const struct plat_machine *m, const int *nodes, int n, int job_size,
                      int *scratch, struct js_alloc_quality *q)
{
	struct view v = {NULL, nodes, n, 0, 0, m->nodes - 1};
	quality(m, &v, n, nodes[0], nodes[n - 1], job_size, scratch, q);
}

void js_alloc_quality_runs(const struct plat_machine *m, const struct js_run *runs, int nr,
                           int job_size, int *scratch, struct js_alloc_quality *q)
{
	struct view v = {runs, NULL, nr, 0, 0, m->nodes - 1};
	int n = 0;
	for (int i = 0; i < nr; i++)
		n += runs[i].last - runs[i].first + 1;
	quality(m, &v, n, runs[0].first, runs[nr - 1].last, job_size, scratch, q);
}

int js_parse_intervals(const char *text, int *nodes, int max)
{
	int n = 0;
	const char *p = text;
	while (*p && n < max) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (long x = a; x <= b && n < max; x++)
			nodes[n++] = (int)x;
		p = *end ? end + 1 : end;
	}
	return n;
}

int js_parse_runs(const char *text, struct js_run *runs, int max)
{
	int n = 0;
	for (const char *p = text; *p && n < max;) {
		int v[2] = {0, 0}, k = 0;
		for (;; p++)
			if (*p >= '0' && *p <= '9' && v[k] < INT_MAX / 10 - 1)
				v[k] = 10 * v[k] + (*p - '0');
			else if (*p == '-' && k == 0)
				k = 1;
			else
				break;
		runs[n].first = v[0];
		runs[n++].last = k ? v[1] : v[0];
		if (*p)
			p++;
	}
	return n;
}

/* Availability profile by counts (profile_count.h): a B+ tree whose leaves
 * hold the times where the busy count changes, in order, with the change;
 * an inner node keeps per child its first time, the sum of its changes and
 * the least and greatest running sum over them, which is what a walk in
 * time order needs to pass over a child whose changes cannot matter. */
#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "profile_count.h"

enum { FAN = JS_CPROF_FAN };

struct js_cprof_node {
	int n;
	double key[FAN];                    /* leaf: its times; inner: each child's first time */
	int val[FAN];                       /* leaf: the change at key; inner: the child */
	int sum[FAN], maxp[FAN], minp[FAN]; /* inner: each child's changes */
};

/* Sum of a run of changes with its greatest and least running sums. */
struct sums {
	int sum, maxp, minp;
};

int js_cprof_init(struct js_cprof *p, int nodes, double origin)
{
	memset(p, 0, sizeof *p);
	p->nodes = nodes;
	p->fan = FAN;
	p->cap = 16;
	p->pool = malloc((size_t)p->cap * sizeof *p->pool);
	if (!p->pool)
		return -1;
	js_cprof_reset(p, origin);
	return 0;
}

void js_cprof_free(struct js_cprof *p)
{
	free(p->pool);
	memset(p, 0, sizeof *p);
}

void js_cprof_reset(struct js_cprof *p, double origin)
{
	p->origin = origin;
	p->base = 0;
	p->total = 0;
	p->root = -1;
	p->height = 0;
	p->used = 0;
	p->free_list = -1;
}

static int node_new(struct js_cprof *p)
{
	int i = p->free_list;
	if (i >= 0) {
		p->free_list = p->pool[i].val[0];
	} else {
		if (p->used == p->cap) {
			int cap = 2 * p->cap;
			struct js_cprof_node *pool = realloc(p->pool, (size_t)cap * sizeof *pool);
			if (!pool)
				return -1;
			p->pool = pool;
			p->cap = cap;
		}
		i = p->used++;
	}
	p->pool[i].n = 0;
	return i;
}

static void node_del(struct js_cprof *p, int i)
{
	p->pool[i].val[0] = p->free_list;
	p->free_list = i;
}

static struct sums node_sums(const struct js_cprof *p, int i, int level)
{
	const struct js_cprof_node *x = &p->pool[i];
	struct sums s = {0, INT_MIN, INT_MAX};
	for (int k = 0; k < x->n; k++) {
		int hi = level ? s.sum + x->maxp[k] : s.sum + x->val[k];
		int lo = level ? s.sum + x->minp[k] : s.sum + x->val[k];
		s.sum += level ? x->sum[k] : x->val[k];
		s.maxp = hi > s.maxp ? hi : s.maxp;
		s.minp = lo < s.minp ? lo : s.minp;
	}
	return s;
}

/* Inner node i's entry k from its child's content. */
static void refresh(struct js_cprof *p, int i, int k, int level)
{
	struct js_cprof_node *x = &p->pool[i];
	int c = x->val[k];
	struct sums s = node_sums(p, c, level - 1);
	x = &p->pool[i];
	x->key[k] = p->pool[c].key[0];
	x->sum[k] = s.sum;
	x->maxp[k] = s.maxp;
	x->minp[k] = s.minp;
}

/* Opens a slot at k in node i (not full). */
static void open_slot(struct js_cprof_node *x, int k)
{
	size_t tail = (size_t)(x->n - k);
	memmove(x->key + k + 1, x->key + k, tail * sizeof *x->key);
	memmove(x->val + k + 1, x->val + k, tail * sizeof *x->val);
	memmove(x->sum + k + 1, x->sum + k, tail * sizeof *x->sum);
	memmove(x->maxp + k + 1, x->maxp + k, tail * sizeof *x->maxp);
	memmove(x->minp + k + 1, x->minp + k, tail * sizeof *x->minp);
	x->n++;
}

static void close_slot(struct js_cprof_node *x, int k)
{
	size_t tail = (size_t)(x->n - k - 1);
	memmove(x->key + k, x->key + k + 1, tail * sizeof *x->key);
	memmove(x->val + k, x->val + k + 1, tail * sizeof *x->val);
	memmove(x->sum + k, x->sum + k + 1, tail * sizeof *x->sum);
	memmove(x->maxp + k, x->maxp + k + 1, tail * sizeof *x->maxp);
	memmove(x->minp + k, x->minp + k + 1, tail * sizeof *x->minp);
	x->n--;
}

/* Moves the upper half of full node i into a new node; returns it, -1 when
 * out of memory. */
static int split_node(struct js_cprof *p, int i)
{
	int r = node_new(p);
	if (r < 0)
		return -1;
	struct js_cprof_node *x = &p->pool[i], *y = &p->pool[r];
	int half = p->fan / 2;
	y->n = x->n - half;
	memcpy(y->key, x->key + half, (size_t)y->n * sizeof *y->key);
	memcpy(y->val, x->val + half, (size_t)y->n * sizeof *y->val);
	memcpy(y->sum, x->sum + half, (size_t)y->n * sizeof *y->sum);
	memcpy(y->maxp, x->maxp + half, (size_t)y->n * sizeof *y->maxp);
	memcpy(y->minp, x->minp + half, (size_t)y->n * sizeof *y->minp);
	x->n = half;
	return r;
}

/* Index of the entry of node x where time t belongs: the last one whose
 * key is at most t, 0 when none. */
static int route(const struct js_cprof_node *x, double t)
{
	int k = 0;
	while (k + 1 < x->n && x->key[k + 1] <= t)
		k++;
	return k;
}

/* Adds v to the change at time t in the subtree of node i. *right gets a new
 * right sibling when i split (else -1); returns -1 when out of memory. */
static int add_at(struct js_cprof *p, int i, int level, double t, int v, int *right)
{
	*right = -1;
	struct js_cprof_node *x = &p->pool[i];
	if (level == 0) {
		int k = 0;
		while (k < x->n && x->key[k] < t)
			k++;
		if (k < x->n && x->key[k] == t) {
			x->val[k] += v;
			if (x->val[k] == 0)
				close_slot(x, k);
			return 0;
		}
		if (x->n == p->fan) {
			int r = split_node(p, i);
			if (r < 0)
				return -1;
			*right = r;
			if (k > p->fan / 2) {
				i = r;
				k -= p->fan / 2;
			}
			x = &p->pool[i];
		}
		open_slot(x, k);
		x->key[k] = t;
		x->val[k] = v;
		return 0;
	}
	int k = route(x, t), c = x->val[k], cr;
	if (add_at(p, c, level - 1, t, v, &cr))
		return -1;
	x = &p->pool[i];
	if (p->pool[c].n == 0) { /* the child has lost its last entry */
		node_del(p, c);
		close_slot(x, k);
		return 0;
	}
	refresh(p, i, k, level);
	if (cr < 0)
		return 0;
	if (x->n == p->fan) {
		int r = split_node(p, i);
		if (r < 0)
			return -1;
		*right = r;
		if (k >= p->fan / 2) {
			i = r;
			k -= p->fan / 2;
		}
	}
	open_slot(&p->pool[i], k + 1);
	p->pool[i].val[k + 1] = cr;
	refresh(p, i, k + 1, level);
	return 0;
}

static int add(struct js_cprof *p, double t, int v)
{
	if (p->root < 0) {
		if ((p->root = node_new(p)) < 0)
			return -1;
		p->height = 0;
	}
	int right;
	if (add_at(p, p->root, p->height, t, v, &right))
		return -1;
	p->total += v;
	if (right >= 0) { /* the root split: a new root above both halves */
		int r = node_new(p);
		if (r < 0)
			return -1;
		p->pool[r].n = 2;
		p->pool[r].val[0] = p->root;
		p->pool[r].val[1] = right;
		p->root = r;
		p->height++;
		refresh(p, r, 0, p->height);
		refresh(p, r, 1, p->height);
	}
	while (p->height > 0 && p->pool[p->root].n == 1) {
		int c = p->pool[p->root].val[0];
		node_del(p, p->root);
		p->root = c;
		p->height--;
	}
	if (p->pool[p->root].n == 0) {
		node_del(p, p->root);
		p->root = -1;
		p->height = 0;
	}
	return 0;
}

void js_cprof_trim(struct js_cprof *p, double now)
{
	while (p->root >= 0) {
		int i = p->root;
		for (int level = p->height; level > 0; level--)
			i = p->pool[i].val[0];
		double t = p->pool[i].key[0];
		int v = p->pool[i].val[0];
		if (t > now)
			break;
		p->base += v;
		int rc = add(p, t, -v); /* removes an entry: allocates nothing */
		assert(rc == 0);
		(void)rc;
	}
	if (p->origin < now)
		p->origin = now;
}

int js_cprof_change(struct js_cprof *p, double t0, double t1, int n, int sign)
{
	if (t0 < p->origin)
		t0 = p->origin;
	if (!(t1 > t0) || n == 0)
		return 0;
	if (add(p, t0, sign * n) || (isfinite(t1) && add(p, t1, -sign * n)))
		return -1;
#ifndef NDEBUG
	if (p->root >= 0) {
		struct sums s = node_sums(p, p->root, p->height);
		assert(p->base >= 0 && p->base + s.minp >= 0 && p->base + s.maxp <= p->nodes);
	}
#endif
	return 0;
}

int js_cprof_busy_at(const struct js_cprof *p, double t)
{
	int acc = p->base;
	for (int i = p->root, level = p->height; i >= 0; level--) {
		const struct js_cprof_node *x = &p->pool[i];
		if (level == 0) {
			for (int k = 0; k < x->n && x->key[k] <= t; k++)
				acc += x->val[k];
			break;
		}
		int k = 0;
		for (; k + 1 < x->n && x->key[k + 1] <= t; k++)
			acc += x->sum[k];
		i = x->val[k];
	}
	return acc;
}

int js_cprof_busy_end(const struct js_cprof *p)
{
	return p->base + p->total;
}

/* An earliest-slot search as one walk in time order from the origin: in
 * the window of the candidate start t (phase CHECK) until a change leaves
 * more than room nodes busy, then (phase SKIP) until one leaves at most
 * room, which is the next candidate (the starts in between see that busy
 * change). A child is passed over whole when its running sums show it has
 * no change that matters: none above room while in a window (if it reaches
 * past the window, the change after it ends the window), none at most room
 * while skipping. */
struct scan {
	double d, limit, t, cut; /* cut: the window's end, at most limit */
	int room, busy, skip, done;
};

/* A leaf's changes after from, in a tight loop (the walk's state in
 * locals). */
static void scan_leaf(const struct js_cprof_node *x, double from, struct scan *s)
{
	int k = 0, n = x->n, busy = s->busy, room = s->room, skip = s->skip;
	double cut = s->cut;
	while (k < n && x->key[k] <= from)
		k++;
	while (k < n) {
		if (!skip) { /* until a change inside the window leaves too few free */
			for (; k < n && x->key[k] < cut; k++)
				if ((busy += x->val[k]) > room)
					break;
			if (k == n)
				break;
			if (x->key[k] >= cut) { /* the window holds no busy change */
				s->done = 1;
				break;
			}
			skip = 1;
			k++;
			continue;
		}
		for (; k < n; k++) /* until a change leaves enough free */
			if ((busy += x->val[k]) <= room)
				break;
		if (k == n)
			break;
		skip = 0;
		s->t = x->key[k++];
		if (!(s->t < s->limit)) {
			s->t = NAN;
			s->done = 1;
			break;
		}
		double end = js_profile_end(s->t, s->d);
		cut = end < s->limit ? end : s->limit;
	}
	s->busy = busy;
	s->skip = skip;
	s->cut = cut;
}

/* Walks node i's subtree, whose changes come before time hi, from the first
 * change after from. */
static void scan_node(const struct js_cprof *p, int i, int level, double from, double hi,
                      struct scan *s)
{
	const struct js_cprof_node *x = &p->pool[i];
	if (level == 0) {
		scan_leaf(x, from, s);
		return;
	}
	for (int k = 0; k < x->n && !s->done; k++) {
		double next = k + 1 < x->n ? x->key[k + 1] : hi;
		if (next <= from)
			continue; /* wholly before the start: counted in busy */
		if (x->key[k] > from) {
			if (!s->skip && x->key[k] >= s->cut) {
				s->done = 1;
				return;
			}
			if (s->skip ? s->busy + x->minp[k] > s->room
			            : s->busy + x->maxp[k] <= s->room) {
				s->busy += x->sum[k];
				continue;
			}
		}
		scan_node(p, x->val[k], level - 1, from, next, s);
	}
}

double js_cprof_find(const struct js_cprof *p, double d, int need, double limit)
{
	double from = p->origin;
	if (!(from < limit))
		return NAN;
	struct scan s = {d, limit, from, 0, p->nodes - need, js_cprof_busy_at(p, from), 0, 0};
	double end = js_profile_end(from, d);
	s.cut = end < limit ? end : limit;
	s.skip = s.busy > s.room;
	if (p->root >= 0)
		scan_node(p, p->root, p->height, from, INFINITY, &s);
	if (!s.done && s.skip) /* the count stays above room after the last change */
		return NAN;
	return s.t;
}

double js_cprof_first_free(const struct js_cprof *p, int need)
{
	double t = js_cprof_find(p, 0, need, INFINITY); /* no change inside its window */
	return isnan(t) ? INFINITY : t;
}

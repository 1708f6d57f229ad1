/* Node sets taken or given back as boxes (freebox.h): a set that is one box
 * (as the allocator hands it out, or in any order) goes as that box, any
 * other by its runs along dimension 2. */
#include <stdlib.h>
#include <string.h>

#include "freebox_internal.h"

static void coords(const struct js_freebox *f, int id, int *c)
{
	c[2] = id % f->d[2];
	c[1] = id / f->d[2] % f->d[1];
	c[0] = id / f->d[2] / f->d[1];
}

/* Whether nodes[0..n-1] are box b's in js_freebox_nodes' order (the
 * order the allocator hands out), b guessed from the first rows. */
static int listed_box(const struct js_freebox *f, const int *nodes, int n, struct js_box *b)
{
	const int *d = f->d;
	int c[3], len[3] = {1, 1, 1};
	coords(f, nodes[0], c);
	/* the first row along z, then the first rows' starts along y */
	for (int z = c[2]; len[2] < n && len[2] < d[2]; len[2]++) {
		z = z + 1 == d[2] ? 0 : z + 1;
		if (nodes[len[2]] != (c[0] * d[1] + c[1]) * d[2] + z)
			break;
	}
	int rows = n / len[2];
	for (int y = c[1]; len[1] < rows && len[1] < d[1]; len[1]++) {
		y = y + 1 == d[1] ? 0 : y + 1;
		if (nodes[len[1] * len[2]] != (c[0] * d[1] + y) * d[2] + c[2])
			break;
	}
	len[0] = rows / len[1];
	if (n % len[2] || rows % len[1] || len[0] > d[0])
		return 0;
	int k = 0;
	for (int a = 0, x = c[0]; a < len[0]; a++, x = x + 1 == d[0] ? 0 : x + 1)
		for (int e = 0, y = c[1]; e < len[1]; e++, y = y + 1 == d[1] ? 0 : y + 1) {
			int line = (x * d[1] + y) * d[2];
			for (int g = 0, z = c[2]; g < len[2]; g++, z = z + 1 == d[2] ? 0 : z + 1)
				if (nodes[k++] != line + z)
					return 0;
		}
	for (int i = 0; i < 3; i++) {
		b->s[i] = c[i];
		b->l[i] = len[i];
	}
	box_set_vol(b);
	return 1;
}

/* Whether the n distinct nodes form one box; it goes to b. */
static int as_box(struct js_freebox *f, const int *nodes, int n, struct js_box *b)
{
	if (n <= 0)
		return 0;
	if (listed_box(f, nodes, n, b))
		return 1;
	int lo[3], hi[3], c[3];
	/* a box's coordinates along a dimension form an arc */
	unsigned char *seen[3] = {f->seen, f->seen + f->d[0], f->seen + f->d[0] + f->d[1]};
	memset(f->seen, 0, (size_t)(f->d[0] + f->d[1] + f->d[2]));
	for (int k = 0; k < n; k++) {
		coords(f, nodes[k], c);
		for (int i = 0; i < 3; i++)
			seen[i][c[i]] = 1;
	}
	int ok = 1;
	long vol = 1;
	for (int i = 0; i < 3 && ok; i++) {
		int D = f->d[i], cnt = 0, start = -1;
		for (int p = 0; p < D; p++)
			cnt += seen[i][p];
		for (int p = 0; p < D && start < 0; p++)
			if (seen[i][p] && !seen[i][wrap(p - 1, D)])
				start = p;
		if (cnt == D)
			start = 0;
		for (int q = 0; q < cnt && ok && start >= 0; q++)
			ok = seen[i][wrap(start + q, D)];
		ok = ok && start >= 0;
		lo[i] = start;
		hi[i] = cnt;
		vol *= cnt;
	}
	if (!ok || vol != n)
		return 0;
	for (int i = 0; i < 3; i++) {
		b->s[i] = lo[i];
		b->l[i] = hi[i];
	}
	box_set_vol(b);
	return 1;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* For an increasing list of n ids, rows of `per` consecutive entries of
 * which share one value of id / D (take: the id of an entry): 0 when not
 * every row of the list holds the same ids modulo D as the first row, or
 * two rows share a value, so that the list is no box; else the number of
 * entries a row (the first row's). */
static int rows_alike(const int *s, int n, int per, int D)
{
	int first = s[0] / D, m = 1;
	while (m < n && s[m * per] / D == first)
		m++;
	if (n % m)
		return 0;
	for (int k = m, prev = first; k < n; k += m) {
		int row = s[k * per] / D;
		if (row <= prev)
			return 0;
		for (int j = 0; j < m; j++)
			if (s[(k + j) * per] - row * D != s[j * per] - first * D)
				return 0;
		prev = row;
	}
	return m;
}

/* For an increasing list s: 0 when it is no box because its lines along
 * dimension 2 do not all hold the same coordinates along it, or the
 * planes along dimension 0 do not all hold the same lines (a box's do,
 * wrapping or not); else 1. A division a line: the what-if states of the
 * schedulers, unions of many jobs, fail here instead of in as_box's
 * coordinates of every node. */
static int lines_alike(const struct js_freebox *f, const int *s, int n)
{
	int m = rows_alike(s, n, 1, f->d[2]);
	if (!m)
		return 0;
	/* the lines' first nodes, every m-th entry: their ids / D are line
	 * numbers, alike by plane when their ids / (D * d1) are */
	return rows_alike(s, n / m, m, f->d[2] * f->d[1]) > 0;
}

/* Applies op to the node set as one box, or to its runs along dimension 2. */
static void by_boxes(struct js_freebox *f, const int *nodes, int n,
                     void (*op)(struct js_freebox *, const struct js_box *))
{
	struct js_box b;
	if (n <= 0) /* nothing to mark (nodes may be NULL) */
		return;
	int sorted = 1; /* schedulers' what-if states come as increasing lists */
	for (int k = 1; k < n && sorted; k++)
		sorted = nodes[k] > nodes[k - 1];
	if ((!sorted || lines_alike(f, nodes, n)) && as_box(f, nodes, n, &b)) {
		op(f, &b);
		return;
	}
	int *copy = sorted ? NULL : malloc((size_t)n * sizeof *copy);
	const int *s = sorted ? nodes : copy;
	if (!s) {
		f->broken = 1; /* the bits stay right: node by node */
		for (int k = 0; k < n; k++) {
			int c[3];
			coords(f, nodes[k], c);
			struct js_box one = {{c[0], c[1], c[2]}, {1, 1, 1}, 1};
			op(f, &one);
		}
		return;
	}
	if (copy) {
		memcpy(copy, nodes, (size_t)n * sizeof *copy);
		qsort(copy, (size_t)n, sizeof *copy, cmp_int);
	}
	for (int k = 0; k < n;) {
		int e = k + 1;
		while (e < n && s[e] == s[e - 1] + 1 && s[e] % f->d[2] != 0)
			e++;
		int c[3];
		coords(f, s[k], c);
		struct js_box run = {{c[0], c[1], c[2]}, {1, 1, e - k}, e - k};
		op(f, &run);
		k = e;
	}
	free(copy);
}

void js_freebox_occupy_nodes(struct js_freebox *f, const int *nodes, int n)
{
	by_boxes(f, nodes, n, js_freebox_occupy);
}

void js_freebox_release_nodes(struct js_freebox *f, const int *nodes, int n)
{
	by_boxes(f, nodes, n, js_freebox_release);
}

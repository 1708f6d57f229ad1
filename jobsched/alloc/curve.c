/* Curve orders through mesh and torus nodes (see curve.h). Snakes are
 * reflected mixed-radix counters: a digit runs backwards when it has been
 * swept an odd number of times (the slower digits read as one number), so
 * consecutive ranks are neighbours. Hilbert
 * cells come from Skilling's transpose form of the index ("Programming the
 * Hilbert curve", 2004), rotated so each square or cube ends next to where
 * the following one starts along the longest dimension. */
#include <stdlib.h>
#include <string.h>

#include "curve.h"

int js_curve_parse(const char *name)
{
	static const char *const names[] = {"row", "snake-row", "snake-col", "hilbert"};
	for (int i = 0; i < 4; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

/* Dimension indices sorted by size, longest first (stable). */
static void longest_first(int nd, const int *dims, int *perm)
{
	for (int i = 0; i < nd; i++) {
		int j = i;
		while (j > 0 && dims[perm[j - 1]] < dims[i]) {
			perm[j] = perm[j - 1];
			j--;
		}
		perm[j] = i;
	}
}

/* Mixed-radix walk over the dimensions in `order` (fastest first). */
static void walk(const struct plat_machine *m, int nd, const int *dims, const int *order,
                 int reflect, int *out)
{
	int total = 1, digit[PLAT_MAX_DIMS] = {0}, c[PLAT_MAX_DIMS];
	for (int d = 0; d < nd; d++)
		total *= dims[d];
	for (int r = 0; r < total; r++) {
		long sweeps = 0; /* completed sweeps of digit i: the slower digits as a number */
		for (int i = nd - 1; i >= 0; i--) {
			int d = order[i], x = digit[i];
			c[d] = reflect && (sweeps & 1) ? dims[d] - 1 - x : x;
			sweeps = sweeps * dims[d] + digit[i];
		}
		out[r] = plat_grid_node(m, c);
		for (int i = 0; i < nd && ++digit[i] == dims[order[i]]; i++)
			digit[i] = 0;
	}
}

/* Hilbert cell of index h in an n-dimensional cube of side 2^b (n <= 3). */
static void hilbert_cell(int n, int b, unsigned long h, unsigned *x)
{
	for (int i = 0; i < n; i++)
		x[i] = 0;
	for (int q = 0; q < b; q++) /* transpose: bits of h dealt out, highest first */
		for (int i = 0; i < n; i++) {
			int bit = n * b - 1 - (q * n + i);
			x[i] |= (unsigned)((h >> bit) & 1u) << (b - 1 - q);
		}
	unsigned N = 1u << b, t = x[n - 1] >> 1;
	for (int i = n - 1; i > 0; i--) /* Gray decode */
		x[i] ^= x[i - 1];
	x[0] ^= t;
	for (unsigned Q = 2; Q < N; Q <<= 1) { /* undo excess work (none for side 1 or 2) */
		unsigned P = Q - 1;
		for (int i = n - 1; i >= 0; i--)
			if (x[i] & Q) {
				x[0] ^= P;
			} else {
				t = (x[0] ^ x[i]) & P;
				x[0] ^= t;
				x[i] ^= t;
			}
	}
}

static int hilbert(const struct plat_machine *m, int nd, const int *dims, const int *perm, int *out,
                   struct cmn_err *e)
{
	int side = dims[perm[nd - 1]], b = 0;
	while ((1 << b) < side)
		b++;
	int ok = (nd == 2 || nd == 3) && (1 << b) == side && dims[perm[0]] % side == 0;
	for (int i = 1; i < nd; i++)
		ok = ok && dims[perm[i]] == side;
	if (!ok)
		return cmn_err_set(
		    e, CMN_EUSAGE,
		    "curve order hilbert needs a 2D or 3D mesh whose shorter sides are "
		    "one power of two dividing the longest (e.g. 16x8, 8x8x8, 32x8x8)");
	/* the axis along which the piece's last cell sits from its first: it
	 * becomes the longest dimension, so pieces join end to start */
	unsigned x[3], last[3];
	unsigned long cells = 1ul << (nd * b);
	hilbert_cell(nd, b, cells - 1, last);
	int along = 0;
	for (int i = 0; i < nd; i++)
		if (last[i])
			along = i;
	int axis_dim[3]; /* machine dimension of each curve axis */
	axis_dim[along] = perm[0];
	for (int i = 0, k = 1; i < nd; i++)
		if (i != along)
			axis_dim[i] = perm[k++];
	int r = 0, c[PLAT_MAX_DIMS];
	for (int piece = 0; piece < dims[perm[0]] / side; piece++)
		for (unsigned long h = 0; h < cells; h++) {
			hilbert_cell(nd, b, h, x);
			for (int i = 0; i < nd; i++)
				c[axis_dim[i]] = (int)x[i];
			c[perm[0]] += piece * side;
			out[r++] = plat_grid_node(m, c);
		}
	return 0;
}

int js_curve_build(const struct plat_machine *m, int order, int *rank_to_node, struct cmn_err *e)
{
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS], perm[PLAT_MAX_DIMS], rev[PLAT_MAX_DIMS];
	int rc = plat_grid_shape(m, &nd, dims, wrap, e);
	if (rc)
		return rc;
	longest_first(nd, dims, perm);
	for (int i = 0; i < nd; i++)
		rev[i] = perm[nd - 1 - i];
	switch (order) {
	case JS_CURVE_ROW: walk(m, nd, dims, perm, 0, rank_to_node); return 0;
	case JS_CURVE_SNAKE_ROW: walk(m, nd, dims, perm, 1, rank_to_node); return 0;
	case JS_CURVE_SNAKE_COL: walk(m, nd, dims, rev, 1, rank_to_node); return 0;
	case JS_CURVE_HILBERT: return hilbert(m, nd, dims, perm, rank_to_node, e);
	}
	return cmn_err_set(e, CMN_EUSAGE, "unknown curve order %d", order);
}

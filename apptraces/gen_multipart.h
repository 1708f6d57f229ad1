/* The multi-partition skeleton BT and SP share (NPB 3.x bt.f, sp.f): np =
 * c^2 ranks in a c x c grid, rank (i, j) = i + c j, each owning c cells
 * along a diagonal; the three line solves are pipelines of c stages with
 * successors (i+1, j), (i, j+1), (i-1, j+1) for x, y, z (mod c).
 *  - copy_faces: irecv from the predecessor and successor of every
 *    direction, isend to them, one waitall; (c - 1) 5 x 2 x cs^2 doubles per
 *    message, cs = n / c (tags 2000/3000, 4000/5000, 6000/7000).
 *  - a solve along axis a: rank (i, j) owns cells ((i + c) mod p, (j - c)
 *    mod p, c), c < p (p = the grid side); at stage s it works on its cell
 *    whose a-coordinate is s. Forward, stages 0..p-2: isend to the
 *    successor `fwd` doubles per point of that cell's face (the product of
 *    its two other sides), irecv from the predecessor the face of the next
 *    cell; backward, stages p-1..1: isend `bwd` doubles per face point to
 *    the predecessor, irecv from the successor. Cell sizes: n / p, the first
 *    n mod p one more. BT waits each request, SP uses waitall.
 * The run: init, the broadcasts of the parameters, copy_faces and the three
 * solves once (warm-up), barrier, niter x (copy_faces, x, y, z solves), the
 * error norm (allreduce of 5 doubles), copy_faces (rhs), the rhs norm
 * (allreduce of 5 doubles), the timer's MPI_Reduce of one double, barrier.
 * Rank counts that are not squares: the pattern runs on the largest square
 * c^2 <= np; the other ranks take part in the collectives only (the real
 * kernels refuse such counts). */
#ifndef GEN_MULTIPART_H
#define GEN_MULTIPART_H

#include "gen.h"

struct multipart {
	const char *name;          /* "sp", "bt" (messages) */
	const int *sizes, *niters; /* per class */
	double fwd, bwd;           /* doubles per face point, forward and backward */
	int side_add, boundary;    /* a cell's face side along axis k: its size + side_add,
	                              minus `boundary` for cells on the global boundary */
	int waitall;               /* SP: waitall per step; BT: two waits */
	const double *bcasts;      /* bytes of each broadcast, 0-terminated */
	double c3, c2, c1, c0;     /* NPB's op count per iteration: c3 n^3 + c2 n^2 + .. */
};

/* 0, or a usage error when the grid is too small for the ranks' cells (a
 * cell of fewer than one point: NPB refuses such a run too). */
int trace_gen_multipart(struct gen *g, const struct multipart *mp, int *exact, struct cmn_err *e);
/* The trace_gen_ops pairs of both: a predecessor and a successor per
 * direction. */
double trace_gen_multipart_pairs(char cls, int ranks, struct trace_gen_sets *sets);

#endif

/* FT (3-D FFT PDE), NPB 3.x ft.f: an nx x ny x nz complex grid (S 64^3,
 * W 128x128x32, A 256x256x128, B 512x256x256, C 512^3, D 2048x1024x1024),
 * niter = 6, 6, 6, 20, 20, 25. Rank program: five broadcasts of the
 * parameters (four INTEGER, one LOGICAL: 4 bytes each), then one forward
 * 3-D FFT (warm-up), a barrier, one more forward FFT, and per iteration
 * evolve + inverse FFT + checksum (MPI_Reduce of one double complex, 16
 * bytes, to rank 0). With the 1-D layout (np <= nz, the real kernel's choice
 * there) each FFT has one transpose: MPI_Alltoall of nx ny nz / np^2 double
 * complex (16 bytes) to every rank. For np > nz the real kernel uses a 2-D
 * layout with transposes inside row and column sub-communicators, which a TI
 * trace cannot express: the generalized pattern makes each of those two
 * transposes explicit isend/irecv exchanges with the members of the rank's
 * row (np2 = the smallest power-of-two-like factor >= np / nz) and column.
 * Counts that do not divide are rounded to the nearest integer.
 * Compute: NPB's operation count ntotal (14.8157 + 7.19641 ln ntotal) for
 * the setup and ntotal (5.23518 + 7.21113 ln ntotal) per iteration, split
 * evenly over the ranks (one FFT's share before each transpose). */
#include <math.h>
#include <stdlib.h>

#include "gen.h"

static const int dims[6][3] = {{64, 64, 64},    {128, 128, 32},  {256, 256, 128},
                               {512, 256, 256}, {512, 512, 512}, {2048, 1024, 1024}};
static const int niters[6] = {6, 6, 6, 20, 20, 25};

struct ft {
	int np, np1, np2; /* 2-D layout: np1 rows of np2 (np1 = 1: the 1-D layout) */
	double ntotal;
};

/* Exchanges `count` bytes with every other member of a group (members:
 * base + i * stride, i < size) as isend/irecv pairs and a waitall. */
static void group_exchange(struct gen *g, int r, int base, int stride, int size, double bytes,
                           int tag)
{
	for (int i = 0; i < size; i++) {
		int p = base + i * stride;
		if (p != r)
			trace_gen_irecv(g, r, p, tag, bytes);
	}
	for (int i = 0; i < size; i++) {
		int p = base + i * stride;
		if (p != r)
			trace_gen_isend(g, r, p, tag, bytes);
	}
	trace_gen_waitall(g, r);
}

static void fft(struct gen *g, const struct ft *f, int r, double flops)
{
	if (f->np1 == 1) {
		trace_gen_compute(g, r, flops / 2);
		trace_gen_alltoall(g, r, 16 * round(f->ntotal / ((double)f->np * f->np)));
		trace_gen_compute(g, r, flops / 2);
		return;
	}
	int row = r / f->np2, col = r % f->np2;
	trace_gen_compute(g, r, flops / 3); /* transpose within the row, then the column */
	group_exchange(g, r, row * f->np2, 1, f->np2,
	               16 * round(f->ntotal / ((double)f->np * f->np2)), 1);
	trace_gen_compute(g, r, flops / 3);
	group_exchange(g, r, col, f->np2, f->np1, 16 * round(f->ntotal / ((double)f->np * f->np1)),
	               2);
	trace_gen_compute(g, r, flops / 3);
}

/* The layout of np ranks in class index c. */
static struct ft layout(int c, int np)
{
	struct ft f = {np, 1, np, (double)dims[c][0] * dims[c][1] * dims[c][2]};
	if (np > dims[c][2]) { /* 2-D layout: np1 x np2 with np1 <= np2 */
		f.np1 = (int)floor(sqrt(np));
		while (np % f.np1)
			f.np1--;
		f.np2 = np / f.np1;
	}
	return f;
}

/* The transposes (every pair of a row, of a column; or of all ranks) and
 * the checksum's reduce to rank 0. */
static double ft_pairs(char cls, int ranks, struct trace_gen_sets *sets)
{
	struct ft f = layout(trace_gen_class_index(cls), ranks);
	double n = ranks;
	if (f.np1 == 1) {
		*sets = (struct trace_gen_sets){1, {{1, ranks}, {0, 0}}};
		return n * (n - 1);
	}
	*sets = (struct trace_gen_sets){2, {{f.np1, f.np2}, {f.np2, f.np1}}};
	return n * (f.np2 - 1) + n * (f.np1 - 1) + n - 1;
}

static int ft_generate(struct gen *g, int *exact, struct cmn_err *e)
{
	(void)e;
	int c = trace_gen_class_index(g->cls), np = g->ranks,
	    iters = g->iterations ? g->iterations : niters[c];
	struct ft f = layout(c, np);
	*exact = trace_gen_is_pow2(np) && f.np1 == 1;
	double lnN = log(f.ntotal), setup = f.ntotal * (14.8157 + 7.19641 * lnN) / np,
	       per_iter = f.ntotal * (5.23518 + 7.21113 * lnN) / np;
	for (int r = 0; r < np; r++) {
		trace_gen_init(g, r);
		trace_gen_compute(g, r, setup / 4);
		for (int i = 0; i < 4; i++)
			trace_gen_bcast(g, r, 4, 0);
		trace_gen_bcast(g, r, 4, 0);
		fft(g, &f, r, setup / 4); /* warm-up */
		trace_gen_barrier(g, r);
		fft(g, &f, r, setup / 2);
		for (int it = 0; it < iters; it++) {
			trace_gen_timed(g, r, 1);
			fft(g, &f, r, per_iter);
			trace_gen_reduce(g, r, 16, 0, 0);
			trace_gen_timed(g, r, 0);
		}
		trace_gen_finalize(g, r);
	}
	return 0;
}

const struct trace_gen_ops trace_gen_ft_ops = {
    .base = {"ft", "3-D FFT: all-to-all transposes, a checksum reduce per iteration",
             trace_gen_no_params},
    .generate = ft_generate,
    .pairs = ft_pairs,
    .same_iterations = 1,
};

/* LU (SSOR with a pipelined wavefront), NPB 3.x lu.f: an n^3 grid (S 12,
 * W 33, A 64, B 102, C 162, D 408), itmax = 50, 300, 250, 250, 250, 300.
 * 2-D process grid xdim x ydim (the largest xdim <= sqrt(np) dividing np;
 * the real kernel: powers of two, xdim = 2^floor(log2(np)/2)); rank = row +
 * col xdim with north/south = rank -/+ 1 (along i) and west/east = rank -/+
 * xdim (along j); local nxl x nyl columns of all nz planes.
 *  - Lower sweep (blts), planes k = 2..nz-1: recv from north (tag 2) and
 *    west (tag 4), compute, send to south (tag 2) and east (tag 4): 5 doubles
 *    per interior point of the boundary (5 jint to north/south, 5 iint to
 *    west/east; interior: not on the global boundary). Upper sweep (buts),
 *    planes nz-1..2: recv from south (tag 1) and east (tag 3), send to north
 *    (tag 1) and west (tag 3). These are LU's small messages.
 *  - exchange_3 in rhs (LU's large messages): two ghost planes of 5 doubles,
 *    5 * 2 * nyl * nz to north/south and 5 * 2 * nxl * nz to west/east, as
 *    irecv/send/wait pairs (tags 2, 1, 4, 3).
 * The run as recorded: 10 broadcasts (3 ints, 2 doubles, 5 doubles, 3
 * ints, a LOGICAL); exchange_3 twice, l2norm (allreduce of 5 doubles),
 * barrier, one warm-up iteration (lower sweep, upper sweep, exchange_3), the
 * timer's allreduce; exchange_3, l2norm, barrier, itmax iterations (the
 * last with l2norm before and after its exchange_3), timer allreduce, the
 * error's allreduce of 5 doubles, and pintgr: three phases of boundary
 * messages to west (tag 3, 2 nxl doubles) and north (tag 1, 2 (nyl + 2)),
 * then north (nz; ranks of the first and last column only), then west (nz;
 * first and last row), each followed by an allreduce of one double. Compute: NPB's operation count
 * (1984.77 n^3 - 10923.3 n^2 + 27770.9 n - 144010 per iteration) split evenly: 40% per sweep, 20%
 * rhs. */
#include <math.h>

#include "gen.h"

static const int sizes[6] = {12, 33, 64, 102, 162, 408}, itmaxs[6] = {50, 300, 250, 250, 250, 300};

struct lu {
	int xdim, ydim, n;
	double flops; /* per iteration and rank */
};

struct nb {
	int north, south, west, east; /* -1 where none */
	double nxl, nyl, iint, jint;  /* local extents and interior counts */
};

static struct nb neighbours(const struct lu *l, int r)
{
	int row = r % l->xdim, col = r / l->xdim;
	struct nb b = {row > 0 ? r - 1 : -1,
	               row < l->xdim - 1 ? r + 1 : -1,
	               col > 0 ? r - l->xdim : -1,
	               col < l->ydim - 1 ? r + l->xdim : -1,
	               0,
	               0,
	               0,
	               0};
	b.nxl = floor((double)l->n / l->xdim) + (row < l->n % l->xdim ? 1 : 0);
	b.nyl = floor((double)l->n / l->ydim) + (col < l->n % l->ydim ? 1 : 0);
	b.iint = b.nxl - (row == 0) - (row == l->xdim - 1);
	b.jint = b.nyl - (col == 0) - (col == l->ydim - 1);
	return b;
}

/* One plane of a sweep: receive from the two upstream neighbours, compute,
 * send to the two downstream ones (tags t_ns along i, t_we along j). */
static void plane(struct gen *g, int r, int up_ns, int up_we, int down_ns, int down_we, int t_ns,
                  int t_we, double ns, double we, double flops)
{
	if (up_ns >= 0)
		trace_gen_recv(g, r, up_ns, t_ns, ns);
	if (up_we >= 0)
		trace_gen_recv(g, r, up_we, t_we, we);
	trace_gen_compute(g, r, flops);
	if (down_ns >= 0)
		trace_gen_send(g, r, down_ns, t_ns, ns);
	if (down_we >= 0)
		trace_gen_send(g, r, down_we, t_we, we);
}

static void sweeps(struct gen *g, const struct lu *l, int r)
{
	struct nb b = neighbours(l, r);
	double ns = 8 * 5 * b.jint, we = 8 * 5 * b.iint, per = 0.4 * l->flops / (l->n - 2);
	for (int k = 2; k < l->n; k++) /* blts: from north and west */
		plane(g, r, b.north, b.west, b.south, b.east, 2, 4, ns, we, per);
	for (int k = l->n - 1; k >= 2; k--) /* buts: from south and east */
		plane(g, r, b.south, b.east, b.north, b.west, 1, 3, ns, we, per);
}

/* One direction of exchange_3: data flows from `from` to `to` with tag t. */
static void half(struct gen *g, int r, int to, int from, int t, double bytes)
{
	if (from >= 0)
		trace_gen_irecv(g, r, from, t, bytes);
	if (to >= 0)
		trace_gen_send(g, r, to, t, bytes);
	if (from >= 0)
		trace_gen_wait(g, r, from, r, t);
}

static void exchange3(struct gen *g, const struct lu *l, int r)
{
	struct nb b = neighbours(l, r);
	trace_gen_compute(g, r, 0.2 * l->flops);
	double ns = 8 * 5 * 2 * b.nyl * l->n, we = 8 * 5 * 2 * b.nxl * l->n;
	half(g, r, b.south, b.north, 2, ns);
	half(g, r, b.north, b.south, 1, ns);
	half(g, r, b.east, b.west, 4, we);
	half(g, r, b.west, b.east, 3, we);
}

/* pintgr's boundary messages: to west (tag 3) then north (tag 1). */
static void pintgr_phase(struct gen *g, int r, const struct nb *b, double west, double north)
{
	if (west > 0) {
		if (b->west >= 0)
			trace_gen_send(g, r, b->west, 3, west);
		if (b->east >= 0) {
			trace_gen_irecv(g, r, b->east, 3, west);
			trace_gen_wait(g, r, b->east, r, 3);
		}
	}
	if (north > 0) {
		if (b->north >= 0)
			trace_gen_send(g, r, b->north, 1, north);
		if (b->south >= 0) {
			trace_gen_irecv(g, r, b->south, 1, north);
			trace_gen_wait(g, r, b->south, r, 1);
		}
	}
	trace_gen_allreduce(g, r, 8, 1);
}

/* The four grid neighbours, and the last iteration's allreduces. */
static double lu_pairs(char cls, int ranks, struct trace_gen_sets *sets)
{
	(void)cls;
	sets->n = 0;
	return 4.0 * ranks + 2.0 * (ranks - 1);
}

static int lu_generate(struct gen *g, int *exact, struct cmn_err *e)
{
	int c = trace_gen_class_index(g->cls), np = g->ranks,
	    iters = g->iterations ? g->iterations : itmaxs[c];
	struct lu l = {1, np, sizes[c], 0};
	for (int x = 1; x * x <= np; x++)
		if (np % x == 0)
			l.xdim = x;
	l.ydim = np / l.xdim;
	if (l.xdim > 1 && l.ydim > l.n) /* the last column: -1 interior points */
		return cmn_err_set(
		    e, CMN_EUSAGE,
		    "lu.%c.%d: %d ranks make a %d x %d process grid, wider than the "
		    "class's %d points: its last column of ranks would hold none and "
		    "send messages of negative size (xdim is the largest divisor of np "
		    "<= sqrt(np); with xdim > 1, np / xdim must be <= %d)",
		    g->cls, np, np, l.xdim, l.ydim, l.n, l.n);
	double n = l.n;
	l.flops = (1984.77 * n * n * n - 10923.3 * n * n + 27770.9 * n - 144010) / np;
	*exact = trace_gen_is_pow2(np) && l.xdim == 1 << (trace_gen_ilog2(np) / 2);
	for (int r = 0; r < np; r++) {
		struct nb b = neighbours(&l, r);
		trace_gen_init(g, r);
		static const double bc[10] = {4, 4, 4, 8, 8, 40, 4, 4, 4, 4};
		for (int i = 0; i < 10; i++)
			trace_gen_bcast(g, r, bc[i], 0);
		exchange3(g, &l, r);
		exchange3(g, &l, r);
		trace_gen_allreduce(g, r, 40, 5);
		trace_gen_barrier(g, r);
		sweeps(g, &l, r); /* the warm-up ssor(1) */
		exchange3(g, &l, r);
		trace_gen_allreduce(g, r, 8, 0);
		exchange3(g, &l, r);
		trace_gen_allreduce(g, r, 40, 5);
		trace_gen_barrier(g, r);
		for (int it = 1; it <= iters; it++) {
			trace_gen_timed(g, r, 1);
			sweeps(g, &l, r);
			if (it == iters)
				trace_gen_allreduce(g, r, 40, 5);
			exchange3(g, &l, r);
			if (it == iters)
				trace_gen_allreduce(g, r, 40, 5);
			trace_gen_timed(g, r, 0);
		}
		trace_gen_allreduce(g, r, 8, 0);
		trace_gen_allreduce(g, r, 40, 5);
		pintgr_phase(g, r, &b, 8 * 2 * b.nxl, 8 * 2 * (b.nyl + 2));
		int row = r % l.xdim, col = r / l.xdim; /* the faces of the integration box */
		pintgr_phase(g, r, &b, 0, col == 0 || col == l.ydim - 1 ? 8 * l.n : 0);
		pintgr_phase(g, r, &b, row == 0 || row == l.xdim - 1 ? 8 * l.n : 0, 0);
		trace_gen_finalize(g, r);
	}
	return 0;
}

const struct trace_gen_ops trace_gen_lu_ops = {
    .base = {"lu", "SSOR: pipelined 2-D wavefront sweeps and halo exchanges", trace_gen_no_params},
    .generate = lu_generate,
    .pairs = lu_pairs,
};

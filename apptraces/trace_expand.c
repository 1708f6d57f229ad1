/* The collective algorithms of trace_expand.h, seen from the sending rank. */
#include "trace_expand.h"

static double vsum(const struct trace *t, const struct trace_action *a)
{
	double s = 0;
	for (int i = 0; i < t->nranks; i++)
		s += t->counts[a->aux + i];
	return s;
}

/* Binomial-tree bcast of `bytes` from root: rank r's sends. */
static void bcast(int n, int root, int r, int phase, double bytes, trace_emit_fn emit, void *ctx)
{
	int v = (r - root + n) % n, mask = 1;
	while (mask < n && !(v & mask))
		mask <<= 1;
	for (mask >>= 1; mask > 0; mask >>= 1)
		if (v + mask < n)
			emit(ctx, phase, (v + mask + root) % n, bytes);
}

void trace_expand_sends(const struct trace *t, int r, const struct trace_action *a,
                        trace_emit_fn emit, void *ctx)
{
	int n = t->nranks, root = a->peer < 0 ? 0 : a->peer;
	const int64_t *cv = t->counts + a->aux;
	double unit = trace_bytes(t, r, a->dt1, 1);
	switch (a->op) {
	case TR_SEND:
	case TR_ISEND: emit(ctx, 0, a->peer, unit * a->a); return;
	case TR_BCAST: bcast(n, root, r, 0, unit * a->a, emit, ctx); return;
	case TR_REDUCE:
	case TR_GATHER:
	case TR_GATHERV:
		if (r != root)
			emit(ctx, 0, root, unit * a->a);
		return;
	case TR_ALLREDUCE:
		if (r != 0)
			emit(ctx, 0, 0, unit * a->a);
		bcast(n, 0, r, 1, unit * a->a, emit, ctx);
		return;
	case TR_ALLTOALL:
		for (int j = 1; j < n; j++)
			emit(ctx, 0, (r + j) % n, unit * a->a);
		return;
	case TR_ALLTOALLV:
		for (int j = 1; j < n; j++)
			emit(ctx, 0, (r + j) % n, unit * cv[(r + j) % n]);
		return;
	case TR_SCATTER:
	case TR_SCATTERV:
		if (r == root)
			for (int j = 0; j < n; j++)
				if (j != root)
					emit(ctx, 0, j,
					     unit * (a->op == TR_SCATTERV ? cv[j] : a->a));
		return;
	case TR_ALLGATHER:
	case TR_ALLGATHERV:
		for (int j = 1; j < n; j++)
			emit(ctx, 0, (r + j) % n, unit * a->a);
		return;
	case TR_REDUCESCATTER:
		if (r != 0)
			emit(ctx, 0, 0, unit * vsum(t, a));
		else
			for (int j = 1; j < n; j++)
				emit(ctx, 1, j, unit * cv[j]);
		return;
	case TR_BARRIER:
		if (r != 0)
			emit(ctx, 0, 0, 0);
		else
			for (int j = 1; j < n; j++)
				emit(ctx, 1, j, 0);
		return;
	default: return;
	}
}

/* Every rank but me, in order, into from; how many. */
static int all_but(int n, int me, int *from)
{
	int k = 0;
	for (int s = 0; s < n; s++)
		if (s != me)
			from[k++] = s;
	return k;
}

/* Who sends to r in the binomial bcast from root: v - lowbit(v) (v = r
 * relative to the root; the root itself receives nothing). */
static int bcast_source(int n, int root, int r, int *from)
{
	int v = (r - root + n) % n;
	if (!v)
		return 0;
	from[0] = (v - (v & -v) + root) % n;
	return 1;
}

/* The one sender src into from; 1. */
static int one(int src, int *from)
{
	from[0] = src;
	return 1;
}

int trace_expand_sources(const struct trace *t, int r, const struct trace_action *a, int phase,
                         int *from)
{
	int n = t->nranks, root = a->peer < 0 ? 0 : a->peer;
	switch (a->op) {
	case TR_BCAST: return phase == 0 ? bcast_source(n, root, r, from) : 0;
	case TR_REDUCE:
	case TR_GATHER:
	case TR_GATHERV: return phase == 0 && r == root ? all_but(n, root, from) : 0;
	case TR_ALLREDUCE:
		return phase == 0 ? (r == 0 ? all_but(n, 0, from) : 0)
		                  : bcast_source(n, 0, r, from);
	case TR_ALLTOALL:
	case TR_ALLTOALLV:
	case TR_ALLGATHER:
	case TR_ALLGATHERV: return phase == 0 ? all_but(n, r, from) : 0;
	case TR_SCATTER:
	case TR_SCATTERV: return phase == 0 && r != root ? one(root, from) : 0;
	case TR_REDUCESCATTER:
	case TR_BARRIER:
		return phase == 0 ? (r == 0 ? all_but(n, 0, from) : 0) : r != 0 ? one(0, from) : 0;
	default: return 0;
	}
}

int trace_expand_phases(int op)
{
	return op == TR_ALLREDUCE || op == TR_REDUCESCATTER || op == TR_BARRIER ? 2 : 1;
}

int trace_expand_is_exchange(int op)
{
	return op == TR_ALLTOALL || op == TR_ALLTOALLV || op == TR_ALLGATHER || op == TR_ALLGATHERV;
}

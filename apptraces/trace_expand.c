/* The collective algorithms of trace_expand.h, seen from the sending rank. */
#include "trace_expand.h"

static int floor_log2(int v)
{
	int l = 0;
	while (v >>= 1)
		l++;
	return l;
}

static double vsum(const struct trace *t, const struct trace_action *a, int which)
{
	double s = 0;
	const int32_t *v = t->counts + a->aux + (long)which * t->nranks;
	for (int i = 0; i < t->nranks; i++)
		s += v[i];
	return s;
}

void trace_expand_sends(const struct trace *t, int r, const struct trace_action *a,
                        trace_emit_fn emit, void *ctx)
{
	int n = t->nranks, root = a->peer < 0 ? 0 : a->peer, v = (r - root + n) % n;
	const int32_t *cv = a->op == TR_ALLTOALLV || a->op == TR_GATHERV ||
	                            a->op == TR_ALLGATHERV || a->op == TR_SCATTERV ||
	                            a->op == TR_REDUCESCATTER
	                        ? t->counts + a->aux
	                        : NULL;
	double bytes = trace_bytes(t, r, a->dt1, 1); /* per unit */
	switch (a->op) {
	case TR_SEND:
	case TR_ISEND: emit(ctx, a->peer, bytes * a->a); return;
	case TR_BCAST:
		for (int j = 1; j < n; j <<= 1)
			if (j > v && v + j < n)
				emit(ctx, (v + j + root) % n, bytes * a->a);
		return;
	case TR_REDUCE:
		if (v)
			emit(ctx, (v - (1 << floor_log2(v)) + root) % n, bytes * a->a);
		return;
	case TR_ALLREDUCE: {
		double size = bytes * a->a;
		if (n < 2)
			return;
		if (size >= TRACE_ALLREDUCE_RING_BYTES) {
			for (int i = 0; i < 2 * (n - 1); i++)
				emit(ctx, (r + 1) % n, size / n);
			return;
		}
		int p2 = 1 << floor_log2(n);
		if (r >= p2) {
			emit(ctx, r - p2, size);
			return;
		}
		for (int m = 1; m < p2; m <<= 1)
			emit(ctx, r ^ m, size);
		if (r < n - p2)
			emit(ctx, r + p2, size);
		return;
	}
	case TR_ALLTOALL:
		for (int j = 1; j < n; j++)
			emit(ctx, (r + j) % n, bytes * a->a);
		return;
	case TR_ALLTOALLV:
		for (int j = 1; j < n; j++)
			emit(ctx, (r + j) % n, bytes * cv[(r + j) % n]);
		return;
	case TR_GATHER:
	case TR_GATHERV:
		if (r != root)
			emit(ctx, root, bytes * a->a);
		return;
	case TR_SCATTER:
	case TR_SCATTERV:
		if (r == root)
			for (int j = 0; j < n; j++)
				if (j != root)
					emit(ctx, j, bytes * (cv ? cv[j] : a->a));
		return;
	case TR_ALLGATHER:
		for (int i = 0; i < n - 1; i++)
			emit(ctx, (r + 1) % n, bytes * a->a);
		return;
	case TR_ALLGATHERV:
		if (n > 1)
			emit(ctx, (r + 1) % n, bytes * (vsum(t, a, 0) - cv[(r + 1) % n]));
		return;
	case TR_REDUCESCATTER:
		if (n > 1)
			emit(ctx, (r + 1) % n, bytes * (vsum(t, a, 0) - cv[r]));
		return;
	case TR_BARRIER:
		for (int m = 1; m < n; m <<= 1)
			emit(ctx, (r + m) % n, 0);
		return;
	default: return;
	}
}

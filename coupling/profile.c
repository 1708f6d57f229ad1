/* Per-iteration traffic and compute of a generated kernel (profile.h). */
#include <stdlib.h>
#include <string.h>

#include "../apptraces/gen.h"
#include "../apptraces/trace_stats.h"
#include "profile.h"

static int stats_of(const char *kernel, char cls, int ranks, int iters, double flop_scale,
                    struct trace_stats *s, struct cmn_err *e)
{
	struct trace *t;
	int exact;
	if (trace_generate(kernel, cls, ranks, iters, flop_scale, &t, &exact, e))
		return e->code;
	int rc = trace_stats_compute(t, s, e);
	trace_free(t);
	return rc;
}

int cpl_iteration_of(const char *kernel, char cls, int ranks, double flop_scale,
                     struct cpl_iteration *it, struct cmn_err *e)
{
	struct trace_stats one, two;
	memset(it, 0, sizeof *it);
	if (stats_of(kernel, cls, ranks, 1, flop_scale, &one, e))
		return e->code;
	if (stats_of(kernel, cls, ranks, 2, flop_scale, &two, e)) {
		trace_stats_free(&one);
		return e->code;
	}
	size_t nn = (size_t)ranks * (size_t)ranks;
	it->nranks = ranks;
	it->matrix = malloc(nn * sizeof *it->matrix);
	it->flops = malloc((size_t)ranks * sizeof *it->flops);
	int rc = 0;
	if (!it->matrix || !it->flops) {
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	} else {
		for (size_t i = 0; i < nn; i++) {
			double d = two.matrix[i] - one.matrix[i];
			it->matrix[i] = d > 0 ? d : 0;
		}
		for (int r = 0; r < ranks; r++) {
			double d = two.rank[r].flops - one.rank[r].flops;
			it->flops[r] = d > 0 ? d : 0;
		}
	}
	trace_stats_free(&one);
	trace_stats_free(&two);
	if (rc)
		cpl_iteration_free(it);
	return rc;
}

void cpl_iteration_free(struct cpl_iteration *it)
{
	free(it->matrix);
	free(it->flops);
	memset(it, 0, sizeof *it);
}

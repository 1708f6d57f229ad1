/* Per-iteration traffic and compute of a job profile (profile.h). */
#include <stdlib.h>
#include <string.h>

#include "../apptraces/trace_stats.h"
#include "profile.h"

static int stats_of(const struct cpl_profiles *pr, int k, int ranks, int iters,
                    struct trace_stats *s, int *recorded, struct cmn_err *e)
{
	struct trace *t;
	if (cpl_profiles_trace(pr, k, ranks, iters, &t, recorded, e))
		return e->code;
	int rc = trace_stats_compute(t, s, e);
	trace_free(t);
	return rc;
}

int cpl_iteration_of(const struct cpl_profiles *pr, int k, int ranks, struct cpl_iteration *it,
                     struct cmn_err *e)
{
	struct trace_stats one, two;
	int recorded;
	memset(it, 0, sizeof *it);
	if (stats_of(pr, k, ranks, 2, &two, &recorded, e))
		return e->code;
	if (recorded) { /* the whole run: nothing to subtract */
		memset(&one, 0, sizeof one);
	} else if (stats_of(pr, k, ranks, 1, &one, &recorded, e)) {
		trace_stats_free(&two);
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
			double d = two.matrix[i] - (one.matrix ? one.matrix[i] : 0);
			it->matrix[i] = d > 0 ? d : 0;
		}
		for (int r = 0; r < ranks; r++) {
			double d = two.rank[r].flops - (one.rank ? one.rank[r].flops : 0);
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

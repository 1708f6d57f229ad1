/* One iteration of a job profile as the analytic model sees it: the
 * per-iteration traffic matrix (bytes rank to rank, collectives expanded as
 * trace_expand.h) and compute per rank, measured as the difference between
 * the generated traces with two iterations and with one (so setup and
 * verification cancel out); for a recorded trace, its whole run. */
#ifndef CPL_PROFILE_H
#define CPL_PROFILE_H

#include "../common/err.h"
#include "jobprof.h"

struct cpl_iteration {
	int nranks;
	double *matrix; /* nranks x nranks bytes, row sends */
	double *flops;  /* per rank */
};

/* Kernel k of the profiles on ranks ranks. */
int cpl_iteration_of(const struct cpl_profiles *pr, int k, int ranks, struct cpl_iteration *it,
                     struct cmn_err *e);
void cpl_iteration_free(struct cpl_iteration *it);

#endif

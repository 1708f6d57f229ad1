/* One iteration of an NPB-like kernel as the analytic model sees it: the
 * per-iteration traffic matrix (bytes rank to rank, collectives expanded as
 * trace_expand.h) and compute per rank, measured as the difference between
 * the generated traces with two iterations and with one (so setup and
 * verification cancel out). */
#ifndef CPL_PROFILE_H
#define CPL_PROFILE_H

#include "../common/err.h"

struct cpl_iteration {
	int nranks;
	double *matrix; /* nranks x nranks bytes, row sends */
	double *flops;  /* per rank */
};

int cpl_iteration_of(const char *kernel, char cls, int ranks, double flop_scale,
                     struct cpl_iteration *it, struct cmn_err *e);
void cpl_iteration_free(struct cpl_iteration *it);

#endif

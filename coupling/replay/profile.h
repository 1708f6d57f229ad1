/* One iteration of a job profile as the range of the two-iteration trace
 * that a job of K iterations runs K - 1 times (the full model's replays).
 * (The analytic model's per-iteration traffic: traffic.h.) */
#ifndef CPL_PROFILE_H
#define CPL_PROFILE_H

#include "../../common/err.h"
#include "../profiles/jobprof.h"

/* A profile's trace of any number of iterations K >= 1 without K copies
 * of one: the generated trace of two iterations t2, in which each rank's
 * range [begin[r], end[r]) is one iteration, so that t2 with that range
 * run K - 1 times (netsim.h's net_repeat) is, action for action, the
 * generated trace of K iterations. once: the actions of the one-iteration
 * trace, body: those of one iteration (all ranks). */
struct cpl_iterated {
	int nranks;
	long *begin, *end;
	double once, body;
};

/* From the generated traces of kernel k on ranks ranks with one and two
 * iterations (t1, t2: borrowed), checked against the trace of three
 * (generated and freed here): a generator whose iterations are not one
 * repeated is an error naming it (a bug of the generator). */
int cpl_iterated_make(const struct cpl_profiles *pr, int k, int ranks, const struct trace *t1,
                      const struct trace *t2, struct cpl_iterated *it, struct cmn_err *e);
void cpl_iterated_free(struct cpl_iterated *it);

#endif

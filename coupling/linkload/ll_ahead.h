/* The linkload model's profiles computed ahead: a profile's traffic
 * (traffic.h) and its reference time (the iteration alone on nodes 0..n-1),
 * and worker threads that compute the profiles a workload will need, in
 * the order of their first jobs, while the model computes the sharing
 * (rt_linkload.c). A profile depends on nothing but its kernel and rank
 * count, so whichever thread computes it, and when, the model sees the
 * same numbers: results are those of one thread to the last bit. The
 * workers stay within a budget of computed profiles not yet taken. */
#ifndef CPL_LL_AHEAD_H
#define CPL_LL_AHEAD_H

#include "../../common/err.h"
#include "../../platforms/platform.h"
#include "../profiles/jobprof.h"
#include "linkload.h"
#include "traffic.h"

/* Kernel k of pr on n ranks: its traffic into *tr and, when t_ref is not
 * NULL, its time alone on nodes 0..n-1 computed with ll (which holds that
 * job only, from then until its next call). */
int cpl_ll_ahead_profile(const struct cpl_profiles *pr, const struct plat_machine *m,
                         struct cpl_linkload *ll, int k, int n, struct cpl_traffic *tr,
                         double *t_ref, struct cmn_err *e);

/* Bytes a traffic holds. */
double cpl_ll_ahead_bytes(const struct cpl_traffic *t);

struct ll_ahead;
/* workers threads (>= 1) computing the profiles (kernel[i], ranks[i]),
 * i < n, in that order, each once (repeats skipped), up to budget bytes
 * computed and not taken. pr and m stay alive until cpl_ll_ahead_destroy. 0,
 * or an error. */
int cpl_ll_ahead_create(const struct cpl_profiles *pr, const struct plat_machine *m, int workers,
                        const int *kernel, const int *ranks, size_t n, double budget,
                        struct ll_ahead **out, struct cmn_err *e);
/* The listed profile (k, n), taken once: 1 with its traffic (the caller's
 * from then on) and reference time (waiting while a worker computes it),
 * 0 when it is not listed, was taken, or no worker has started it (none
 * will: the caller computes it), or -1 (e set: the profile's own error). */
int cpl_ll_ahead_take(struct ll_ahead *a, int k, int n, struct cpl_traffic *tr, double *t_ref,
                      struct cmn_err *e);
/* Stops the workers; frees what was not taken. NULL: nothing. */
void cpl_ll_ahead_destroy(struct ll_ahead *a);

#endif

/* Steps shared by several schedulers (internal to jobsched). */
#ifndef JS_SCHED_COMMON_H
#define JS_SCHED_COMMON_H

#include "sched.h"

/* Starts queued jobs from the head while the allocator can place them
 * (strict queue order). Returns 0 or an error code. */
int js_sched_start_heads(struct js_sim *sim, struct cmn_err *e);

/* create() for schedulers without state of their own. */
int js_sched_no_state(const struct cmn_params *p, size_t njobs, int nodes, void **self,
                      struct cmn_err *e);

#endif

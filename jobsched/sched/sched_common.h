/* Steps shared by several schedulers (internal to jobsched). */
#ifndef JS_SCHED_COMMON_H
#define JS_SCHED_COMMON_H

#include "sched.h"

/* Starts queued jobs from the head while the allocator can place them
 * (strict queue order). Returns 0 or an error code. */
int js_sched_start_heads(struct js_sim *sim, struct cmn_err *e);

/* The FCFS phase with seed 003's migration: start heads; when the head
 * waits and migrate is set, let the allocator rearrange the running jobs
 * and start heads again. */
int js_sched_fcfs_phase(struct js_sim *sim, int migrate, struct cmn_err *e);

/* The migrate parameter shared by the schedulers that offer it. */
#define JS_SCHED_MIGRATE_PARAM                                                                     \
	{                                                                                          \
		"migrate", CMN_PT_INT, "0", 0, 1, NULL,                                            \
		    "1: when the head waits, let the allocator migrate running jobs (seed 003)"    \
	}

/* create() and destroy() for schedulers whose only state is migrate. */
int js_sched_migrate_create(const struct cmn_params *p, size_t njobs, int nodes, void **self,
                            struct cmn_err *e);
void js_sched_migrate_destroy(void *self);

/* create() for schedulers without state of their own. */
int js_sched_no_state(const struct cmn_params *p, size_t njobs, int nodes, void **self,
                      struct cmn_err *e);

#endif

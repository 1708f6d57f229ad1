/* FCFS (seeds 000 and 003): jobs start in strict queue order; the head
 * blocks everyone behind it until the allocator can place it. With
 * migrate=1 (seed 003's Scheduler 3), a waiting head first lets the
 * allocator migrate the running jobs. */
#include "sched_common.h"

static const struct cmn_param_def fcfs_params[] = {JS_SCHED_MIGRATE_PARAM, {NULL}};

static int fcfs_pass(void *self, struct js_sim *sim, struct cmn_err *e)
{
	return js_sched_fcfs_phase(sim, *(const int *)self, e);
}

const struct js_sched_ops js_sched_fcfs_ops = {
    .base = {"fcfs", "first come first served, strict queue order", fcfs_params},
    .create = js_sched_migrate_create,
    .destroy = js_sched_migrate_destroy,
    .pass = fcfs_pass,
};

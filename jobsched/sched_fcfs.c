/* FCFS (seeds 000 and 003): jobs start in strict queue order; the head
 * blocks everyone behind it until the allocator can place it. */
#include "sched_common.h"

static const struct cmn_param_def fcfs_params[] = {{NULL}};

static int fcfs_pass(void *self, struct js_sim *sim, struct cmn_err *e)
{
	(void)self;
	return js_sched_start_heads(sim, e);
}

const struct js_sched_ops js_sched_fcfs_ops = {
    .base = {"fcfs", "first come first served, strict queue order", fcfs_params},
    .create = js_sched_no_state,
    .pass = fcfs_pass,
};

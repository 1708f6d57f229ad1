/* Resizing policy "fcfs": seed 004's FCFS-Max-Benefit with priority
 * (FCFS-PR), policy 1 (favour queued jobs): FCFS-Contract-Priority
 * harvesting (jobs contract in the order they reach their resize points),
 * Max-Benefit-Priority allocation. */
#include "resize.h"

static const struct cmn_param_def fcfs_params[] = {JS_RESIZE_PARAMS};

static int fcfs_point(const struct js_resize_conf *c, struct js_sim *sim, int j, struct cmn_err *e)
{
	return js_rs_policy_queued(c, sim, j, js_rs_fcfs_contract, e);
}

const struct js_resize_ops js_resize_fcfs_ops = {
    .base = {"fcfs",
             "FCFS-PR: favour queued jobs; contract in resize-point order "
             "(FCFS-Contract-Priority), grow by Max-Benefit-Priority",
             fcfs_params},
    .point = fcfs_point,
};

/* Resizing policy "pba": seed 004's Performance-based allocation with
 * priority (PBA-PR), policy 1 (favour queued jobs): Least-Impact-Priority
 * harvesting, Max-Benefit-Priority allocation. */
#include "resize.h"

static const struct cmn_param_def pba_params[] = {JS_RESIZE_PARAMS};

static int pba_point(const struct js_resize_conf *c, struct js_sim *sim, int j, struct cmn_err *e)
{
	return js_rs_policy_queued(c, sim, j, js_rs_least_impact, e);
}

const struct js_resize_ops js_resize_pba_ops = {
    .base = {"pba",
             "PBA-PR: favour queued jobs; contract by Least-Impact-Priority, grow by "
             "Max-Benefit-Priority",
             pba_params},
    .point = pba_point,
};

/* Resizing policy "pba": seed 004's Performance-based allocation with
 * priority (PBA-PR), policy 1 (favour queued jobs): Least-Impact-Priority
 * harvesting, Max-Benefit-Priority allocation. */
#include "resize.h"

static const struct cmn_param_def pba_params[] = {JS_RESIZE_PARAMS};

static int pba_point(const struct js_resize_conf *c, struct js_sim *sim, int j, struct cmn_err *e)
{
	return js_rs_policy_queued(c, sim, j, js_rs_least_impact, e);
}

static const char *const pba_samples[] = {"pba", "pba:window=1,min_ep=0.001",
                                          "pba:arb_step=start,window=1", NULL};

const struct js_resize_ops js_resize_pba_ops = {
    .base = {"pba",
             "PBA-PR: favour queued jobs; contract by Least-Impact-Priority, grow by "
             "Max-Benefit-Priority",
             pba_params, pba_samples},
    .point = pba_point,
};

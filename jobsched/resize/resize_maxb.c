/* Resizing policy "maxb": seed 004's Max-benefit with priority (Max-B-PR),
 * policy 2 (favour running jobs): a job never contracts for the queue; at
 * its resize point it follows the sweet-spot rule, else grows by
 * Max-Benefit-Priority when nodes are idle; then the queue backfills into
 * what is left. */
#include "resize.h"

static const struct cmn_param_def maxb_params[] = {JS_RESIZE_PARAMS};

static int maxb_point(const struct js_resize_conf *c, struct js_sim *sim, int j, struct cmn_err *e)
{
	int rc = js_rs_sweet_spot_rule(sim, j, e);
	if (rc == 0)
		rc = js_rs_max_benefit(c, sim, j, e);
	return rc < 0 ? -rc : js_sim_pass(sim, e);
}

static const char *const maxb_samples[] = {"maxb", "maxb:redist=2,arb_step=3", "maxb:redist=1",
                                           NULL};

const struct js_resize_ops js_resize_maxb_ops = {
    .base = {"maxb",
             "Max-B-PR: favour running jobs; grow by Max-Benefit-Priority, never contract "
             "for the queue",
             maxb_params, maxb_samples},
    .point = maxb_point,
};

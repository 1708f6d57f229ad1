/* Run-time model "speedup" (seed 000 section 6): a parallel job runs
 * (1 - s) times its log run time; serial jobs keep theirs. */
#include <stdlib.h>

#include "runtime.h"

static const struct cmn_param_def speedup_params[] = {
    {"s", CMN_PT_DOUBLE, "0.2", 0, 0.99, NULL,
     "speed-up factor: parallel jobs run (1 - s) times as long"},
    {NULL},
};

static int speedup_create(const struct cmn_params *p, void **self, struct cmn_err *e)
{
	double *s = malloc(sizeof *s);
	if (!s)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	*s = cmn_params_num(p, "s");
	*self = s;
	return 0;
}

static void speedup_destroy(void *self)
{
	free(self);
}

static double speedup_work(void *self, struct js_sim *sim, int j, const int *nodes, int n,
                           struct cmn_err *e)
{
	(void)e, (void)nodes;
	double run = js_sim_job(sim, j)->run_s;
	return n > 1 ? run * (1.0 - *(const double *)self) : run;
}

const struct js_runtime_ops js_rt_speedup_ops = {
    .base = {"speedup", "seed 000: parallel jobs run (1 - s) times as long", speedup_params},
    .create = speedup_create,
    .destroy = speedup_destroy,
    .work_s = speedup_work,
    .nodes_unused = 1,
};

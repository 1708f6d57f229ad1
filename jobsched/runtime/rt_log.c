/* Run-time model "log": a job runs exactly its (cleaned) log run time. */
#include "runtime.h"

static const struct cmn_param_def log_params[] = {{NULL}};

static int log_create(const struct cmn_params *p, void **self, struct cmn_err *e)
{
	(void)p;
	(void)e;
	*self = NULL;
	return 0;
}

static double log_work(void *self, struct js_sim *sim, int j, const int *nodes, int n,
                       struct cmn_err *e)
{
	(void)e, (void)self;
	(void)nodes;
	(void)n;
	return js_sim_job(sim, j)->run_s;
}

const struct js_runtime_ops js_rt_log_ops = {
    .base = {"log", "the run time the log gives", log_params},
    .create = log_create,
    .work_s = log_work,
    .nodes_unused = 1,
};

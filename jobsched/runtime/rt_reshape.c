/* Run-time model "reshape": seed 004's synthetic applications. A job runs
 * its log run time on the size it starts with; when it resizes from p1 to
 * p2 processors its iteration time becomes R(p1) / factor with factor =
 * (p2 / p1)^(alpha (p2 - p1) / p1) (section 4.1). By default (from=current)
 * the model is applied from the size it leaves, as the paper states it
 * ("current processor size P1"), so it depends on the path (35 -> 42 -> 49
 * is not 35 -> 49); from=start applies it from the starting size and its
 * iteration time, the other reading. A size run before keeps the time it
 * had there (the core's history), as ReSHAPE's profiler does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime.h"

static const struct cmn_param_def reshape_params[] = {
    {"alpha", CMN_PT_DOUBLE, "0.8", 1e-9, 1, NULL, "node efficiency, 0 < alpha <= 1"},
    {"from", CMN_PT_CHOICE, "current", 0, 0, "current|start",
     "the factor from the size the job leaves, or from its starting size"},
    {NULL},
};

double js_reshape_factor(int p1, int p2, double alpha)
{
	double r = (double)p2 / p1;
	return pow(r, alpha * (double)(p2 - p1) / p1);
}

struct reshape {
	double alpha;
	int from_start;
};

static int reshape_create(const struct cmn_params *p, void **self, struct cmn_err *e)
{
	struct reshape *r = malloc(sizeof *r);
	if (!r)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	r->alpha = cmn_params_num(p, "alpha");
	r->from_start = strcmp(cmn_params_str(p, "from"), "start") == 0;
	*self = r;
	return 0;
}

static void reshape_destroy(void *self)
{
	free(self);
}

static double reshape_work(void *self, struct js_sim *sim, int j, const int *nodes, int n,
                           struct cmn_err *e)
{
	(void)self, (void)nodes, (void)n, (void)e;
	return js_sim_job(sim, j)->run_s;
}

static double reshape_iter(void *self, struct js_sim *sim, int j, const int *nodes, int n,
                           int from_n, double from_iter_s, struct cmn_err *e)
{
	(void)nodes, (void)e;
	const struct reshape *r = self;
	if (r->from_start) {
		const struct js_job *job = js_sim_job(sim, j);
		return job->run_s / job->iters /
		       js_reshape_factor(js_sim_start_size(sim, j), n, r->alpha);
	}
	return from_iter_s / js_reshape_factor(from_n, n, r->alpha);
}

const struct js_runtime_ops js_rt_reshape_ops = {
    .base = {"reshape",
             "the log run time at the starting size; seed 004's speed-up model "
             "(p2/p1)^(alpha (p2-p1)/p1) when a resizable job changes size",
             reshape_params},
    .create = reshape_create,
    .destroy = reshape_destroy,
    .work_s = reshape_work,
    .nodes_unused = 1,
    .resize_iter = reshape_iter,
};

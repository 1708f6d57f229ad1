/* Run-time model "reshape": seed 004's synthetic applications. A job runs
 * its log run time on the size it starts with; when it resizes from p1 to
 * p2 processors its iteration time becomes R(p1) / factor with factor =
 * (p2 / p1)^(alpha (p2 - p1) / p1) (section 4.1). The model is applied
 * from the size it leaves, as the paper states it (so it depends on the
 * path: 35 -> 42 -> 49 is not 35 -> 49); a size run before keeps the time
 * measured there (the core's history), as ReSHAPE's profiler does. */
#include <math.h>
#include <stdlib.h>

#include "runtime.h"

static const struct cmn_param_def reshape_params[] = {
    {"alpha", CMN_PT_DOUBLE, "0.8", 1e-9, 1, NULL, "node efficiency, 0 < alpha <= 1"},
    {NULL},
};

double js_reshape_factor(int p1, int p2, double alpha)
{
	double r = (double)p2 / p1;
	return pow(r, alpha * (double)(p2 - p1) / p1);
}

static int reshape_create(const struct cmn_params *p, void **self, struct cmn_err *e)
{
	double *alpha = malloc(sizeof *alpha);
	if (!alpha)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	*alpha = cmn_params_num(p, "alpha");
	*self = alpha;
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
	(void)sim, (void)j, (void)nodes, (void)e;
	return from_iter_s / js_reshape_factor(from_n, n, *(const double *)self);
}

const struct js_runtime_ops js_rt_reshape_ops = {
    .base = {"reshape",
             "the log run time at the starting size; seed 004's speed-up model "
             "(p2/p1)^(alpha (p2-p1)/p1) when a resizable job changes size",
             reshape_params},
    .create = reshape_create,
    .destroy = reshape_destroy,
    .work_s = reshape_work,
    .resize_iter = reshape_iter,
};

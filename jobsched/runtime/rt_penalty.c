/* Run-time model "penalty" (seed 001 eq. 3): a job whose nodes span more
 * than one cluster runs (1 + psi) times its log run time, psi = alpha lambda
 * (communication share x inter/intra-cluster slowdown). psi is fixed, or
 * drawn for each job uniformly in [psi_min, psi_max] when psi_max > psi_min
 * (GSL mt19937 seeded with `seed`, drawn in job order so that a job's psi
 * does not depend on the schedule). Every job's psi is recorded. */
#include <gsl/gsl_rng.h>
#include <stdlib.h>

#include "runtime.h"

struct penalty {
	double psi, psi_min, psi_max;
	unsigned long seed;
	double *drawn; /* per job, when drawn */
};

static const struct cmn_param_def penalty_params[] = {
    {"psi", CMN_PT_DOUBLE, "0.05", 0, 100, NULL, "fixed penalty: co-allocated jobs run (1 + psi)x"},
    {"psi_min", CMN_PT_DOUBLE, "0", 0, 100, NULL,
     "with psi_max > psi_min: psi ~ U[psi_min, psi_max] per job"},
    {"psi_max", CMN_PT_DOUBLE, "0", 0, 100, NULL, "upper end of the uniform psi"},
    {"seed", CMN_PT_INT, "1", 0, 4294967295.0, NULL, "seed of the psi draws"},
    {NULL},
};

static int penalty_create(const struct cmn_params *p, void **self, struct cmn_err *e)
{
	double lo = cmn_params_num(p, "psi_min"), hi = cmn_params_num(p, "psi_max");
	if (lo > hi) /* it fell back to the fixed psi without a word */
		return cmn_err_set(e, CMN_EUSAGE,
		                   "penalty: psi_min %g is above psi_max %g (a uniform psi needs "
		                   "psi_min < psi_max)",
		                   lo, hi);
	if (lo == hi && lo != 0)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "penalty: psi_min = psi_max = %g: for a fixed psi give psi=%g",
		                   lo, lo);
	struct penalty *pe = calloc(1, sizeof *pe);
	if (!pe)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	pe->psi = cmn_params_num(p, "psi");
	pe->psi_min = lo;
	pe->psi_max = hi;
	pe->seed = (unsigned long)cmn_params_num(p, "seed");
	*self = pe;
	return 0;
}

static void penalty_destroy(void *self)
{
	struct penalty *pe = self;
	free(pe->drawn);
	free(pe);
}

/* Draws every job's psi once, in job order; 0 or -1 when out of memory. */
static int draw_all(struct penalty *pe, size_t n)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	pe->drawn = malloc((n ? n : 1) * sizeof *pe->drawn);
	if (!rng || !pe->drawn) {
		gsl_rng_free(rng);
		free(pe->drawn);
		pe->drawn = NULL;
		return -1;
	}
	gsl_rng_set(rng, pe->seed);
	for (size_t i = 0; i < n; i++)
		pe->drawn[i] = pe->psi_min + (pe->psi_max - pe->psi_min) * gsl_rng_uniform(rng);
	gsl_rng_free(rng);
	return 0;
}

static double penalty_work(void *self, struct js_sim *sim, int j, const int *nodes, int n,
                           struct cmn_err *e)
{
	(void)e;
	struct penalty *pe = self;
	double psi = pe->psi, run = js_sim_job(sim, j)->run_s;
	if (pe->psi_max > pe->psi_min) {
		if (!pe->drawn && draw_all(pe, js_sim_njobs(sim)))
			return -1; /* the core reports it */
		psi = pe->drawn[j];
	}
	js_sim_set_value(sim, j, 0, psi); /* columns[0] */
	const struct plat_machine *m = js_sim_machine(sim);
	for (int i = 1; i < n; i++)
		if (plat_cluster_of(m, nodes[i]) != plat_cluster_of(m, nodes[0]))
			return run * (1.0 + psi);
	return run;
}

static const struct js_rt_column penalty_columns[] = {
    {"psi", 0, "the job's penalty factor (seed 001)"}, {NULL, 0, NULL}};

const struct js_runtime_ops js_rt_penalty_ops = {
    .base = {"penalty", "seed 001: co-allocated jobs run (1 + psi) times as long", penalty_params},
    .create = penalty_create,
    .destroy = penalty_destroy,
    .columns = penalty_columns,
    .work_s = penalty_work,
};

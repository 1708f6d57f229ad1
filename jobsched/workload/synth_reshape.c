/* Seed 004's synthetic workload (ReSHAPE, section 4): jobs in equal thirds
 * small / medium / large, each class split 60% arbitrary, 30%
 * nearly-square, 10% power-of-2 processor topology (rounded within the
 * class, so the mix holds per class), in a random arrival order with
 * exponential inter-arrival times (Poisson arrivals). A job starts on its
 * class's initial size (35 / 81 / 136 processors, 32 / 64 / 128 for
 * power-of-2 jobs) and runs `iterations` iterations of 8 / 20 / 32 s;
 * its requested time is the class's walltime (156 / 240 / 324 s).
 *
 * A share `resizable` of the jobs may grow and shrink at their resize
 * points (after each iteration) and a share `high` gets the user priority
 * `platinum` (the others 0, "gold"); both shares are drawn within each
 * (class, topology) type, as the paper does (k = round(share x n) of the
 * type's n jobs, chosen at random), after the arrival times, so a seed
 * keeps the same job order and arrivals whatever the shares.
 *
 * The class and topology go to the SWF executable-number field as
 * 10 x class + topology (class 1 small, 2 medium, 3 large; topology 0
 * arbitrary, 1 nearly-square, 2 power-of-2), plus 100 for a resizable job,
 * and the SWF queue field is 2 for a high-priority job, 1 otherwise, so a
 * written SWF keeps them (jobsched reads SWF jobs as rigid). */
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "synth.h"

static const struct cmn_param_def reshape_params[] = {
    {"jobs", CMN_PT_INT, "120", 1, 1e7, NULL, "number of jobs (equal thirds per size class)"},
    {"mean_iat", CMN_PT_DOUBLE, "32", 1e-3, 1e9, NULL, "mean inter-arrival time (s), exponential"},
    {"iterations", CMN_PT_INT, "7", 1, 65535, NULL, "iterations per job"},
    {"resizable", CMN_PT_DOUBLE, "0", 0, 100, NULL, "percentage of resizable jobs, per type"},
    {"high", CMN_PT_DOUBLE, "0", 0, 100, NULL,
     "percentage of high-priority (platinum) jobs, per type"},
    {"platinum", CMN_PT_DOUBLE, "100", 0, 1e9, NULL, "user priority of a high-priority job"},
    {NULL},
};

/* Per class (small, medium, large): sizes (arbitrary and nearly-square,
 * power-of-2), seconds per iteration at that size, walltime. */
static const int class_size[3] = {35, 81, 136}, class_pow2[3] = {32, 64, 128};
static const double class_iter[3] = {8, 20, 32}, class_wall[3] = {156, 240, 324};
/* Topology shares within a class: arbitrary, nearly-square, power-of-2. */
static const double topo_share[3] = {0.6, 0.3, 0.1};

/* Marks round(share x n) of each type's n jobs, chosen at random. */
static void draw_type_share(gsl_rng *rng, const int *type, long jobs, int ty, double pct, long *idx,
                            long *pick, void (*mark)(struct js_job *, double), struct js_job *j,
                            double arg)
{
	long n = 0;
	for (long i = 0; i < jobs; i++)
		if (type[i] == ty)
			idx[n++] = i;
	long k = (long)floor(pct / 100.0 * (double)n + 0.5);
	if (k <= 0 || n == 0)
		return;
	gsl_ran_choose(rng, pick, (size_t)k, idx, (size_t)n, sizeof *idx);
	for (long i = 0; i < k; i++)
		mark(&j[pick[i]], arg);
}

static void mark_resizable(struct js_job *j, double arg)
{
	(void)arg;
	j->resizable = 1;
	j->f[JS_F_EXE] += 100;
}

static void mark_high(struct js_job *j, double prio)
{
	j->user_prio = prio;
	j->f[JS_F_QUEUE] = 2;
}

/* The resizable and high-priority shares, type by type (class-major), each
 * from its own stream seeded from the workload's, so that one share does
 * not change the other's draw. */
static int draw_shares(gsl_rng *rng, struct js_job *j, const int *type, long jobs, double resizable,
                       double high, double platinum, struct cmn_err *e)
{
	long *idx = malloc((size_t)jobs * sizeof *idx), *pick = malloc((size_t)jobs * sizeof *pick);
	gsl_rng *rr = gsl_rng_alloc(gsl_rng_mt19937), *rh = gsl_rng_alloc(gsl_rng_mt19937);
	int rc = 0;
	if (!idx || !pick || !rr || !rh) {
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	} else {
		gsl_rng_set(rr, gsl_rng_get(rng));
		gsl_rng_set(rh, gsl_rng_get(rng));
		for (int c = 1; c <= 3; c++)
			for (int t = 0; t < 3; t++) {
				draw_type_share(rr, type, jobs, 10 * c + t, resizable, idx, pick,
				                mark_resizable, j, 0);
				draw_type_share(rh, type, jobs, 10 * c + t, high, idx, pick,
				                mark_high, j, platinum);
			}
	}
	gsl_rng_free(rr);
	gsl_rng_free(rh);
	free(idx);
	free(pick);
	return rc;
}

static int reshape_generate(struct cmn_params *p, gsl_rng *rng, int machine_nodes,
                            struct js_workload *w, struct cmn_err *e)
{
	(void)machine_nodes;
	long jobs = (long)cmn_params_num(p, "jobs");
	double mean_iat = cmn_params_num(p, "mean_iat");
	int iters = (int)cmn_params_num(p, "iterations");
	/* the job types, class by class: n_c jobs, topologies by largest remainder */
	int *type = malloc((size_t)jobs * sizeof *type);
	if (!type)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	long at = 0;
	for (int c = 0; c < 3; c++) {
		long nc = jobs / 3 + (c < jobs % 3);
		long nt[3], given = 0;
		double rem[3];
		for (int t = 0; t < 3; t++) {
			nt[t] = (long)floor(topo_share[t] * (double)nc);
			rem[t] = topo_share[t] * (double)nc - (double)nt[t];
			given += nt[t];
		}
		while (given < nc) { /* largest remainder first, ties to the commoner topology */
			int b = 0;
			for (int t = 1; t < 3; t++)
				if (rem[t] > rem[b] + 1e-12)
					b = t;
			nt[b]++, rem[b] = -1, given++;
		}
		for (int t = 0; t < 3; t++)
			for (long k = 0; k < nt[t]; k++)
				type[at++] = 10 * (c + 1) + t;
	}
	gsl_ran_shuffle(rng, type, (size_t)jobs, sizeof *type); /* a random arrival order */
	double t = 0;
	int rc = 0;
	size_t first = w->n;
	for (long i = 0; i < jobs && !rc; i++) {
		int c = type[i] / 10 - 1, topo = type[i] % 10;
		if (i)
			t += gsl_ran_exponential(rng, mean_iat);
		int size = topo == 2 ? class_pow2[c] : class_size[c];
		double run = iters * class_iter[c];
		rc = js_synth_push(w, i + 1, t, run, size,
		                   class_wall[c] > run ? class_wall[c] : run, type[i], e);
		if (!rc) {
			struct js_job *j = &w->jobs[w->n - 1];
			j->topo = (uint8_t)topo;
			j->iters = (uint16_t)iters;
			j->f[JS_F_QUEUE] = 1;
		}
	}
	if (!rc)
		rc = draw_shares(rng, w->jobs + first, type, jobs, cmn_params_num(p, "resizable"),
		                 cmn_params_num(p, "high"), cmn_params_num(p, "platinum"), e);
	free(type);
	return rc;
}

static const char *const reshape_samples[] = {"reshape", "reshape:jobs=30,resizable=50,high=30",
                                              NULL};

const struct js_synth_ops js_synth_reshape_ops = {
    .base = {"reshape",
             "seed 004: small/medium/large jobs (35/81/136 nodes, 32/64/128 if power-of-2), "
             "7 iterations of 8/20/32 s, Poisson arrivals; a share resizable, a share of "
             "high user priority",
             reshape_params, reshape_samples},
    .generate = reshape_generate,
};

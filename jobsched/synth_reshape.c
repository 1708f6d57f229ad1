/* Seed 004's synthetic workload (ReSHAPE, section 4): jobs in equal thirds
 * small / medium / large, each class split 60% arbitrary, 30%
 * nearly-square, 10% power-of-2 processor topology (rounded within the
 * class, so the mix holds per class), in a random arrival order with
 * exponential inter-arrival times (Poisson arrivals). A job starts on its
 * class's initial size (35 / 81 / 136 processors, 32 / 64 / 128 for
 * power-of-2 jobs) and runs `iterations` iterations of 8 / 20 / 32 s;
 * its requested time is the class's walltime (156 / 240 / 324 s).
 *
 * The class and topology go to the SWF executable-number field as
 * 10 x class + topology (class 1 small, 2 medium, 3 large; topology 0
 * arbitrary, 1 nearly-square, 2 power-of-2), so a written SWF keeps them.
 * Resizability and user priority are not generated: jobsched has no
 * resizing scheduler yet, and every job runs rigid at its initial size
 * (the paper's static scheduling baseline). */
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "synth.h"

static const struct cmn_param_def reshape_params[] = {
    {"jobs", CMN_PT_INT, "120", 1, 1e7, NULL, "number of jobs (equal thirds per size class)"},
    {"mean_iat", CMN_PT_DOUBLE, "32", 1e-3, 1e9, NULL, "mean inter-arrival time (s), exponential"},
    {"iterations", CMN_PT_INT, "7", 1, 1e6, NULL, "iterations per job"},
    {NULL},
};

/* Per class (small, medium, large): sizes (arbitrary and nearly-square,
 * power-of-2), seconds per iteration at that size, walltime. */
static const int class_size[3] = {35, 81, 136}, class_pow2[3] = {32, 64, 128};
static const double class_iter[3] = {8, 20, 32}, class_wall[3] = {156, 240, 324};
/* Topology shares within a class: arbitrary, nearly-square, power-of-2. */
static const double topo_share[3] = {0.6, 0.3, 0.1};

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
	for (long i = 0; i < jobs && !rc; i++) {
		int c = type[i] / 10 - 1, topo = type[i] % 10;
		if (i)
			t += gsl_ran_exponential(rng, mean_iat);
		int size = topo == 2 ? class_pow2[c] : class_size[c];
		double run = iters * class_iter[c];
		rc = js_synth_push(w, i + 1, t, run, size,
		                   class_wall[c] > run ? class_wall[c] : run, type[i], e);
	}
	free(type);
	return rc;
}

const struct js_synth_ops js_synth_reshape_ops = {
    .base = {"reshape",
             "seed 004: small/medium/large jobs (35/81/136 nodes, 32/64/128 if power-of-2), "
             "7 iterations of 8/20/32 s, Poisson arrivals; rigid (no resizing yet)",
             reshape_params},
    .generate = reshape_generate,
};

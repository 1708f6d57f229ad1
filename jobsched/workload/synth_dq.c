/* Seed 001's synthetic model (Ngubiri and van Vliet, section 3):
 * exponential inter-arrival and run times with given means; sizes from
 * D(q) on [n1, n2]: p_i proportional to q^i, three times that when i is a
 * power of two (1 = 2^0 counts as one, which reproduces the paper's size
 * groups: 25.3/27.7/22.9/24.1 % for D(0.85) on [1, 19]). */
#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../platforms/platform.h"
#include "synth.h"

static const struct cmn_param_def dq_params[] = {
    {"jobs", CMN_PT_INT, "1000", 1, 1e8, NULL, "number of jobs"},
    {"q", CMN_PT_DOUBLE, "0.85", 1e-6, 0.999999, NULL, "D(q) parameter: smaller q, smaller jobs"},
    {"n1", CMN_PT_INT, "1", 1, PLAT_MAX_NODES, NULL, "smallest job size"},
    {"n2", CMN_PT_INT, "19", 1, PLAT_MAX_NODES, NULL, "largest job size"},
    {"mean_run", CMN_PT_DOUBLE, "10", 1e-3, 1e9, NULL, "mean run time (s), exponential"},
    {"mean_iat", CMN_PT_DOUBLE, "0.54", 1e-6, 1e9, NULL,
     "mean inter-arrival time (s), exponential"},
    {"load", CMN_PT_DOUBLE, "0", 0, 100, NULL,
     "if > 0: mean_iat set so that E[size] mean_run / (mean_iat nodes) = load"},
    {"req_factor", CMN_PT_DOUBLE, "1", 1, 1e6, NULL,
     "requested time = run time x req_factor (1: exact estimates)"},
    {NULL},
};

/* Run times are rounded to the millisecond before the requested time is
 * derived from them (js_synth_push rounds what it writes). */
static double round_ms(double x)
{
	return round(x * 1000.0) / 1000.0;
}

static int dq_generate(struct cmn_params *p, gsl_rng *rng, int machine_nodes, struct js_workload *w,
                       struct cmn_err *e)
{
	long jobs = (long)cmn_params_num(p, "jobs");
	double q = cmn_params_num(p, "q");
	int n1 = (int)cmn_params_num(p, "n1"), n2 = (int)cmn_params_num(p, "n2");
	double mean_run = cmn_params_num(p, "mean_run");
	double mean_iat = cmn_params_num(p, "mean_iat");
	double load = cmn_params_num(p, "load");
	double req_factor = cmn_params_num(p, "req_factor");
	if (n1 > n2)
		return cmn_err_set(e, CMN_EUSAGE, "n1 = %d > n2 = %d", n1, n2);
	size_t k = (size_t)(n2 - n1 + 1);
	double *weight = malloc(k * sizeof *weight);
	if (!weight)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	double sum = 0, mean_size = 0;
	for (int i = n1; i <= n2; i++) {
		/* q^i computed relative to q^n1 to stay representable for large n1 */
		double wi = pow(q, i - n1) * ((i & (i - 1)) == 0 ? 3.0 : 1.0);
		weight[i - n1] = wi;
		sum += wi;
		mean_size += wi * i;
	}
	mean_size /= sum;
	if (load > 0) { /* derived: within mean_iat's own range, echoed as used */
		mean_iat = mean_size * mean_run / (load * machine_nodes);
		int i = 0;
		while (strcmp(p->defs[i].key, "mean_iat") != 0)
			i++;
		if (!(mean_iat >= p->defs[i].min && mean_iat <= p->defs[i].max)) {
			free(weight);
			return cmn_err_set(
			    e, CMN_EUSAGE,
			    "load=%g on %d nodes makes mean_iat = %g s (mean size %g x "
			    "mean_run %g / (load x nodes)), outside [%g, %g]",
			    load, machine_nodes, mean_iat, mean_size, mean_run, p->defs[i].min,
			    p->defs[i].max);
		}
		p->num[i] = mean_iat;
		snprintf(p->str[i], sizeof p->str[i], "%.15g", mean_iat);
	}
	gsl_ran_discrete_t *d = gsl_ran_discrete_preproc(k, weight);
	free(weight);
	if (!d)
		return cmn_err_set(e, CMN_ENOMEM, "cannot build D(q)");
	double t = 0;
	int rc = 0;
	for (long i = 0; i < jobs && !rc; i++) {
		t += gsl_ran_exponential(rng, mean_iat);
		double run = round_ms(gsl_ran_exponential(rng, mean_run));
		int size = n1 + (int)gsl_ran_discrete(rng, d);
		rc = js_synth_push(w, i + 1, t, run, size, run * req_factor, -1, e);
	}
	gsl_ran_discrete_free(d);
	return rc;
}

static const char *const dq_samples[] = {"dq", "dq:jobs=300,q=0.5,n1=2,n2=64,load=0.9", NULL};

const struct js_synth_ops js_synth_dq_ops = {
    .base = {"dq", "seed 001: exponential arrivals and run times, sizes from D(q) on [n1,n2]",
             dq_params, dq_samples},
    .generate = dq_generate,
};

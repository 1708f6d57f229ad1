/* Metrics of a simulated schedule and of a workload: per-job values, the
 * summary (seed 003 eqs. 1-3, seed 000 eq. 2, seed 001 size groups) and the
 * workload statistics of --stats, with their CSV writers. */
#ifndef JS_METRICS_H
#define JS_METRICS_H

#include <stdio.h>

#include "../../platforms/platform.h"
#include "../alloc/alloc.h"
#include "../sim/sim.h"
#include "../workload/workload.h"

/* Seed 000 eq. 2 over jobs in arrival order: the first 1% (floor) of the
 * jobs and the jobs that end after the last arrival are left out; T_start
 * is the arrival of the last job of that first 1% (the first arrival when
 * it is empty), T_end the last end among the jobs kept. work[i] is size x
 * run time. Returns NAN when T_end <= T_start. */
double js_load_eq2(size_t n, const double *arrival, const double *end, const double *work,
                   int procs, size_t *kept);

/* Size quartile bounds and the group S1..S4 (1..4) of a size (seed 001):
 * S1 <= q[0] < S2 <= q[1] < S3 <= q[2] < S4. Sizes are discrete: each bound
 * is the size whose cumulative share is nearest to 25, 50, 75 % among the
 * sizes above the previous bound (this reproduces seed 001's groups for
 * D(0.85) on [1, 19], and leaves no group empty where the sizes allow). */
void js_size_quartiles(const struct js_workload *w, int q[3]);
int js_size_group(const int q[3], int size);

struct js_wstats {
	size_t jobs;
	int procs; /* P of eq. 2 */
	double size_mean, size_sd, work_mean, work_sd, run_mean, run_sd;
	double frac_serial, frac_pow2;
	double par_pow2, par_pow4, par_pow8; /* of parallel jobs: size a power of 2, 4, 8 */
	double load;
	size_t load_jobs;
	size_t replayed; /* jobs whose run time only a replay gives (Batsim smpi,
	                    parallel_homogeneous): left out of run, work and load */
};

/* Statistics of a cleaned workload; ends of jobs from the log (submit +
 * wait + run, wait -1 taken as 0). Jobs without a run time (a profile a
 * model replays) count in the sizes, not in run time, work and load. */
int js_wstats_compute(const struct js_workload *w, int procs, struct js_wstats *s,
                      struct cmn_err *e);
void js_wstats_print(FILE *f, const struct js_wstats *s, const struct js_workload *w);

/* The effective parameters of a run, echoed in the summary. */
struct js_run_params {
	const char *workload, *machine, *sched, *alloc, *runtime, *order;
	const char *resize;    /* resizing policy spec, "" for none */
	const char *resizable; /* --resizable P:K as given, "" for none */
	int kill_at_req;
	unsigned long seed;
	double gamma_s; /* bounded slowdown threshold, seed 003: 10 s */
	const struct js_clean_opts *clean;
	int procs_per_node;           /* effective (auto resolved) */
	const struct plat_machine *m; /* for allocation quality */
	const struct js_alloc *a;     /* for decision counts and times */
};

/* 0 when a run-time model's columns (runtime.h) can be written: names of
 * [a-z0-9_], each once, none of the per-job CSV's own except its model
 * slots (psi, profile: text, iter_ref_s) declared as they are; else an
 * error (CMN_ESTATE: a bug of the model) naming model and column. */
int js_check_model_columns(const struct js_rt_column *cols, const char *model, struct cmn_err *e);

int js_write_jobs_csv(FILE *f, const struct js_workload *w, const struct js_sim_result *r,
                      const struct plat_machine *m, double gamma_s);
int js_write_summary_csv(FILE *f, const struct js_workload *w, const struct js_sim_result *r,
                         const struct js_run_params *p);
/* The groups table (metrics_groups.c): per requested size and per user
 * priority, the jobs' mean wait, execution, response, node-seconds,
 * expansions and contractions. */
int js_write_groups_csv(FILE *f, const struct js_workload *w, const struct js_sim_result *r);
/* A short human table of the summary on f. */
void js_print_summary(FILE *f, const struct js_workload *w, const struct js_sim_result *r,
                      const struct js_run_params *p);

#endif

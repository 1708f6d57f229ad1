/* The run-time model interface: how long a started job runs. A job has an
 * amount of work (seconds at rate 1) fixed when it starts, and a progress
 * rate that a model may change whenever the set of running jobs changes;
 * the core then re-predicts its finish. Implementations beyond the simple
 * ones here (network-based) live in coupling/. */
#ifndef JS_RUNTIME_H
#define JS_RUNTIME_H

#include "../../common/params.h"
#include "../sim/sim.h"

struct js_runtime_ops {
	struct cmn_plugin base;
	int (*create)(const struct cmn_params *p, void **self, struct cmn_err *e);
	void (*destroy)(void *self);
	/* Optional: the model's own per-job values, NULL-terminated
	 * (rt_values.h): the core keeps them and writes them as per-job CSV
	 * columns; the model sets column c of job j with js_sim_set_value or
	 * js_sim_set_text. A name of the per-job CSV's model slots (psi,
	 * profile, iter_ref_s: metrics.h) is written in its place, any other
	 * after the core's columns. */
	const struct js_rt_column *columns;
	/* The job's work in seconds at rate 1 when it starts on these nodes
	 * (negative: an error, in e). */
	double (*work_s)(void *self, struct js_sim *sim, int j, const int *nodes, int n,
	                 struct cmn_err *e);
	/* 1: work_s and resize_iter never read nodes (it may then be NULL, so
	 * that allocators that think in runs of ids need not write ids). */
	int nodes_unused;
	/* 1: the model gives a job whose workload profile has no run time of
	 * its own (js_job.replayed: Batsim's smpi, parallel_homogeneous) the
	 * time its profile's replay takes as its work (0: such jobs are refused
	 * before the run). */
	int replays_profiles;
	/* Optional (NULL: every rate is 1). After the running set changed:
	 * writes rates[pos] > 0 for the running job at each position of
	 * js_sim_rjob(). */
	int (*rates)(void *self, struct js_sim *sim, double *rates, struct cmn_err *e);
	/* Optional: one line of the model's own statistics after a run
	 * (replays, cache hit rates), which tools print on stderr. */
	void (*report)(void *self, FILE *f);
	/* Optional, for a model whose jobs live in an external simulation that
	 * decides when they end (cosim's full): the tool calls drive() with the
	 * machine, the workload and body = the simulation and everything after
	 * it (outputs); the model runs body(ctx) inside its own simulation and
	 * returns its status. NULL: body(ctx) runs directly. */
	int (*drive)(void *self, const struct plat_machine *m, const struct js_workload *w,
	             int (*body)(void *ctx, struct cmn_err *e), void *ctx, struct cmn_err *e);
	/* Optional (with it the core predicts no finishes: jobs end when the
	 * model says or at a kill): before moving time from now to t (INFINITY
	 * when the core has no event of its own; called with no job running
	 * too, so the model's clock follows the core's), the model lets its
	 * simulation run until t or until jobs end; returns how many ended (their indices
	 * into ended, room for every running job) at *t_out, now <= *t_out <= t
	 * (*t_out = t when none did), or < 0 on an error (in e). */
	int (*advance)(void *self, struct js_sim *sim, double t, double *t_out, int *ended,
	               struct cmn_err *e);
	/* Optional: job j has ended (killed: at its requested time), its nodes
	 * still readable. */
	void (*end)(void *self, struct js_sim *sim, int j, int killed);
	/* Optional: the run is over (ended or failed): whatever the model
	 * keeps working for it (threads) stops, as the machine and the
	 * workload may go before the model does. */
	void (*run_end)(void *self);
	/* Optional (resizable jobs, seed 004): job j, whose iteration took
	 * from_iter_s on from_n nodes, now runs on nodes (n of them, new size
	 * never run before): its iteration time there, or < 0 on an error (in
	 * e). NULL: the model cannot run resizable jobs. */
	double (*resize_iter)(void *self, struct js_sim *sim, int j, const int *nodes, int n,
	                      int from_n, double from_iter_s, struct cmn_err *e);
	/* Optional, for a model whose cost follows from the workload (cosim's
	 * full): before anything runs, estimates what the run will take
	 * (work, memory) on machine m, prints the estimate on notes (NULL:
	 * quiet), and refuses what passes the model's limits with an error
	 * (CMN_ESTATE: exit 1) naming the estimate and the options that would
	 * bound it. The tool calls it after reading the workload, before the
	 * scheduler exists or anything is written. NULL: the model's cost is
	 * bounded by the workload's size alone (a fixed amount per job or per
	 * change of the running set). */
	int (*estimate)(void *self, const struct plat_machine *m, const struct js_workload *w,
	                FILE *notes, struct cmn_err *e);
};

/* Seed 004's speed-up model (section 4.1): the factor by which a fixed
 * computation's run time shrinks going from p1 to p2 processors,
 * (p2 / p1)^(alpha (p2 - p1) / p1); R(p2) = R(p1) / factor. */
double js_reshape_factor(int p1, int p2, double alpha);

/* 0 when the model can run job (a resizable one: resize_iter and no
 * advance), else a usage error naming the job and the models that can. */
int js_runtime_check_resizable(const struct js_runtime *r, const struct js_job *job,
                               struct cmn_err *e);

/* Runs body(ctx) through the model's drive() (or directly). */
int js_runtime_drive(struct js_runtime *r, const struct plat_machine *m,
                     const struct js_workload *w, int (*body)(void *ctx, struct cmn_err *e),
                     void *ctx, struct cmn_err *e);

extern const struct js_runtime_ops *const js_runtime_registry[];

struct js_runtime {
	const struct js_runtime_ops *ops;
	void *self;
	struct cmn_params params;
	char spec[256];
};

int js_runtime_create(const char *spec, struct js_runtime **out, struct cmn_err *e);
/* The same from another registry (cosim adds the coupling layer's models). */
int js_runtime_create_in(const struct js_runtime_ops *const *registry, const char *spec,
                         struct js_runtime **out, struct cmn_err *e);
/* An instance of ops that no registry lists (tests, coupling). */
int js_runtime_create_ops(const struct js_runtime_ops *ops, const char *kvs,
                          struct js_runtime **out, struct cmn_err *e);
void js_runtime_destroy(struct js_runtime *r);

#endif

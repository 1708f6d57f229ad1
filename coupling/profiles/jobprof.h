/* Which application profile a job runs: the rule every emergent run-time
 * model shares (linkload, simgrid).
 *
 * A profile is a kernel of apptraces (the NPB-like ones, or "none":
 * compute only, no communication) in one problem class, with a flop scale applied to its
 * compute (the knob of its communication share: below 1 the same traffic
 * weighs more). A job gets one by this rule:
 *  1. a job whose executable number (SWF field 14; or user id, by=user)
 *     the map file lists gets that kernel;
 *  2. every other job draws one of the `kernels` with the `weights`
 *     (default equal), by a hash of (seed, job index) (splitmix64), so the
 *     same job always gets the same kernel whatever else changes.
 * Before both: a job whose workload gives it a trace runs that trace
 * (Batsim's smpi profiles: the index of one TI file per rank, whose rank
 * count must be the job's size; parallel_homogeneous: a generated trace of
 * that shape, every rank computing cpu flops then sending com bytes to
 * every other, as one alltoall). Such a profile is a whole run, as a
 * recorded trace is, and the job has no run time of its own: its work is
 * the replay's time on the reference placement (cpl_profiles_replayed), so
 * that its run time is the replay's time on its own nodes.
 * The profile runs on as many ranks as the job has nodes. Its trace there
 * is the recorded one when the `traces` folder holds one for (kernel,
 * class, rank count) (recorded.h: real NPB runs, or traces users bring,
 * whose kernel names need no generator), else the generated one. A
 * recorded trace is a whole run, not iterations: the models time the whole
 * trace where they time one iteration of a generated one. */
#ifndef CPL_JOBPROF_H
#define CPL_JOBPROF_H

#include "../../apptraces/gen.h"
#include "../../common/params.h"
#include "../../jobsched/sim/sim.h"
#include "../../jobsched/workload/workload.h"

#define CPL_MAX_KERNELS 16

/* The parameters every model with profiles declares (in its table). */
#define CPL_PROFILE_PARAMS                                                                         \
	{"kernels",                                                                                \
	 CMN_PT_STRING,                                                                            \
	 "cg/mg/ft/is/lu",                                                                         \
	 0,                                                                                        \
	 0,                                                                                        \
	 NULL,                                                                                     \
	 "profiles drawn for the jobs: NPB-like kernels separated by '/', or none"},               \
	    {"weights",                                                                            \
	     CMN_PT_STRING,                                                                        \
	     "equal",                                                                              \
	     0,                                                                                    \
	     0,                                                                                    \
	     NULL,                                                                                 \
	     "draw weights of the kernels, '/'-separated (e.g. 3/1/1), or equal"},                 \
	    {"class", CMN_PT_CHOICE, "A", 0, 0, "S|W|A|B|C|D", "problem class of every profile"},  \
	    {"flops",                                                                              \
	     CMN_PT_DOUBLE,                                                                        \
	     "1",                                                                                  \
	     1e-6,                                                                                 \
	     1e6,                                                                                  \
	     NULL,                                                                                 \
	     "scale of the profiles' compute (below 1: communication weighs more)"},               \
	    {"seed", CMN_PT_INT, "1", 0, 2147483647, NULL, "seed of the draw of a job's kernel"},  \
	    {"map",                                                                                \
	     CMN_PT_STRING,                                                                        \
	     "none",                                                                               \
	     0,                                                                                    \
	     0,                                                                                    \
	     NULL,                                                                                 \
	     "file of KEY KERNEL lines (none: no map): listed jobs get that kernel"},              \
	    {"by",                                                                                 \
	     CMN_PT_CHOICE,                                                                        \
	     "exe",                                                                                \
	     0,                                                                                    \
	     0,                                                                                    \
	     "exe|user",                                                                           \
	     "the key of the map: executable number or user id"},                                  \
	{                                                                                          \
		"traces", CMN_PT_STRING, "none", 0, 0, NULL,                                       \
		    "folder of recorded traces KERNEL.CLASS.RANKS(.txt|.tar.gz) used where one "   \
		    "exists (none: generated only)"                                                \
	}

struct cpl_profiles;

/* Reads the profile parameters of p (model names the model in errors; a
 * map file's errors name file:line). */
int cpl_profiles_create(const struct cmn_params *p, const char *model, struct cpl_profiles **out,
                        struct cmn_err *e);
void cpl_profiles_free(struct cpl_profiles *pr);

/* The kernel of job j (its index in the workload): an index < count, or
 * for a job whose workload gives it a trace, count + its profile's index
 * in the workload (cpl_profiles_bind names them). */
int cpl_profiles_of(const struct cpl_profiles *pr, const struct js_job *job, int j);
/* Takes the Batsim profiles of the workload of sim's jobs (once; copies
 * them: the workload may go first). 0 or CMN_ENOMEM. */
int cpl_profiles_bind(struct cpl_profiles *pr, const struct js_sim *sim, struct cmn_err *e);
/* The same from the workload itself (a model's estimate, before the run). */
int cpl_profiles_bind_workload(struct cpl_profiles *pr, const struct js_workload *w,
                               struct cmn_err *e);
/* 1 when job's run time is the replay of its workload's profile. */
int cpl_profiles_replayed(const struct js_job *job);
int cpl_profiles_count(const struct cpl_profiles *pr);
const char *cpl_profiles_name(const struct cpl_profiles *pr, int k); /* "cg", "none" */
char cpl_profiles_class(const struct cpl_profiles *pr);
double cpl_profiles_flop_scale(const struct cpl_profiles *pr);

/* At least the rank pairs one iteration of kernel k on n ranks connects,
 * of which those within sets (gen.h) exchange all pairs, from the
 * generator's description without generating it: every pair, and no sets,
 * for a kernel without that description or when a traces folder is given
 * (a recorded trace may connect any pairs). */
double cpl_profiles_pairs(const struct cpl_profiles *pr, int k, int n, struct trace_gen_sets *sets);

/* The messages profile k's linear all-to-alls on n ranks post at once
 * (n (n - 1) for one of n ranks; a kernel's sets of a kind side by side,
 * the largest kind), from the generator's description or a workload's
 * parallel_homogeneous profile (its one all-to-all when it has bytes); 0
 * when it has none; -1 when a trace decides (a workload's smpi profile, a
 * traces folder). */
double cpl_profiles_alltoall(const struct cpl_profiles *pr, int k, int n);

/* The per-job values every model with profiles records (its ops' columns,
 * jobsched/runtime/rt_values.h): the job's profile and one iteration's time at the
 * reference placement (the per-job CSV derives the mean actual one). */
extern const struct js_rt_column cpl_profile_columns[];
/* Records them for job j (0, or CMN_ENOMEM). */
int cpl_profiles_record(struct js_sim *sim, int j, const char *profile, double iter_ref_s,
                        struct cmn_err *e);
/* Job j's recorded iter_ref_s; NAN while none. */
double cpl_profiles_recorded_ref(const struct js_sim *sim, int j);

struct trace;
#define CPL_ONE_ITERATION (-1) /* iters: one timed iteration (trace_generate_one) */
/* The trace of kernel k on n ranks with iters iterations into *out (the
 * caller frees it): the recorded one if the traces folder has one (then
 * *recorded = 1 and iters is ignored), else generated; both with the flop
 * scale applied. A kernel without a generator and without a recorded trace
 * for n ranks is an error naming the folder. */
int cpl_profiles_trace(const struct cpl_profiles *pr, int k, int n, int iters, struct trace **out,
                       int *recorded, struct cmn_err *e);
/* The same trace for a consumer that only sums over its actions: the
 * recorded one into *recorded (the caller frees it) when the traces folder
 * has one, else *recorded = NULL and the generated actions (iters >= 1)
 * go to sink one by one, the timed iterations' marks to mark unless NULL
 * (trace_generate_stream), no trace being built. */
int cpl_profiles_stream(const struct cpl_profiles *pr, int k, int n, int iters,
                        trace_gen_sink_fn sink, trace_gen_mark_fn mark, void *ctx,
                        struct trace **recorded, struct cmn_err *e);
/* Whether kernel k's generator runs k iterations as k - 1 with one more
 * inserted (gen.h's same_iterations; 0 without a generator). */
int cpl_profiles_same_iterations(const struct cpl_profiles *pr, int k);

#endif

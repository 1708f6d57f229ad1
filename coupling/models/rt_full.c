/* Run-time model "full": the whole workload inside one SimGrid simulation.
 * The scheduling simulation itself runs as a controller actor of a netsim
 * live session (netsim.h), so the scheduler acts at arrivals and finishes
 * in simulated time; a job that starts replays its profile's whole trace
 * on its nodes beside every other running job, and ends when its last rank
 * does. The reference the cheaper models are checked against.
 *
 * A job runs K iterations of its profile (jobprof.h), K = max(1,
 * round((log run time - t_setup) / t_ref)), t_ref being one iteration alone
 * on nodes 0..n-1 and t_setup the rest of the one-iteration trace there
 * (setup and verification; both replayed before the session, once per
 * profile and size), so that it runs its log run time at the reference
 * placement up to the rounding of K. Its run time is that of the replay.
 * The trace it replays is its profile's two-iteration trace with the
 * iteration's range run K - 1 times (profile.h's cpl_iterated, netsim.h's
 * net_repeat): the generated trace of K iterations action for action,
 * held once per profile and size however long the job. Every job runs on
 * exactly its size in nodes (the model refuses an allocator that gives it
 * more). Kills at the requested time (--kill) are refused with an error
 * when one happens: SimGrid 3.32 cannot stop one job's actors while the
 * others go on (its peers get link failures).
 *
 * Its cost follows from the workload: every replayed action costs time.
 * Before the session (estimate(), or drive()) the model counts the trace
 * actions and iterations the workload will replay and bounds the memory
 * the run needs (full_cost.c), and refuses a workload that passes
 * max_actions or max_memory, naming the estimate and the options that
 * would bound it.
 *
 * The engine is netsim's own replay on SimGrid (s4u): SMPI 3.32's replay
 * of a job that starts mid-simulation fails (netsim/simgrid/engine_simgrid.c), so
 * compare the cheaper SimGrid models with engine=s4u for like with like;
 * or the flit-level engine (engine=flit, with its preset and compute), the
 * reference for the flit model.
 *
 * The references are replayed in this process (SimGrid's evaluations fork
 * from its loaded platform); the session runs in a child process (SimGrid
 * keeps its state until the process ends): the simulation and every
 * output are made there, and its status and error message come back
 * through a pipe. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../apptraces/gen.h"
#include "../../common/cleanup.h"
#include "../../jobsched/runtime/runtime.h"
#include "../replay/replay.h"
#include "full_cost.h"

static const struct cmn_param_def full_params[] = {
    {"engine", CMN_PT_CHOICE, "s4u", 0, 0, "s4u|flit",
     "netsim engine with live sessions: netsim's own replay on SimGrid (s4u; SMPI's fails "
     "when jobs start mid-simulation) or on the flit-level network (flit)"},
    CPL_FLIT_ENGINE_PARAMS,
    CPL_ALLTOALL_PARAM,
    CPL_CROSSTRAFFIC_PARAM,
    CPL_PROFILE_PARAMS,
    CPL_FULL_LIMIT_PARAMS,
    {NULL},
};

struct full {
	struct cpl_profiles *prof;
	char engine[160]; /* netsim's engine spec */
	int ring;         /* alltoall=ring */
	int no_cross;     /* crosstraffic=no */
	struct cpl_full_limits lim;
	struct cpl_replay *rp;      /* opened by prepare, in this process */
	struct cpl_full_plan *plan; /* the workload's profiles and cost */
	int checked;                /* the plan passed the limits */
	struct net_live *lv;
	int *handle;             /* by job index: its live handle (-1: not started) */
	int *job_of;             /* by handle: the job index */
	struct net_repeat **rep; /* by job index: its repeat while it runs */
	int *hbuf;
	int (*body)(void *ctx, struct cmn_err *e);
	void *ctx;
	long started, iterations;
	int any_killed;  /* a job was killed at its requested time */
	uint64_t killed; /* the first such job */
};

static int full_create(const struct cmn_params *p, void **self, struct cmn_err *e)
{
	struct full *f = calloc(1, sizeof *f);
	if (!f)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	if (cpl_profiles_create(p, "full", &f->prof, e)) {
		free(f);
		return e->code;
	}
	const char *eng = cmn_params_str(p, "engine"), *preset = cmn_params_str(p, "preset"),
	           *compute = cmn_params_str(p, "compute");
	f->no_cross = strcmp(cmn_params_str(p, "crosstraffic"), "no") == 0;
	int flit = strcmp(eng, "flit") == 0, threads = (int)cmn_params_num(p, "threads");
	const char *bad = NULL; /* a parameter of the other engine */
	if (flit && threads != 1)
		bad = "threads=2 is for the flit models' replays; the live session of "
		      "full:engine=flit runs on one thread";
	else if (flit && f->no_cross)
		bad = "crosstraffic is the SimGrid engine's (engine=s4u)";
	else if (!flit && (strcmp(preset, "none") || strcmp(compute, "flops") || threads != 1))
		bad = "preset, compute and threads are the flit engine's (engine=flit)";
	if (bad) {
		cpl_profiles_free(f->prof);
		free(f);
		return cmn_err_set(e, CMN_EUSAGE, "full: %s", bad);
	}
	if (cpl_flit_engine_check(p, e)) {
		cpl_profiles_free(f->prof);
		free(f);
		return e->code;
	}
	if (flit)
		cpl_flit_engine_spec(p, (long)cmn_params_num(p, "max_memory"), f->engine,
		                     sizeof f->engine); /* the run's limit bounds its network too */
	else
		snprintf(f->engine, sizeof f->engine, "%s", eng);
	f->ring = strcmp(cmn_params_str(p, "alltoall"), "ring") == 0;
	cpl_full_limits_of(p, &f->lim);
	*self = f;
	return 0;
}

static void full_destroy(void *self)
{
	struct full *f = self;
	cpl_full_plan_free(f->plan); /* before the replay: it borrows its traces */
	cpl_replay_close(f->rp);
	cpl_profiles_free(f->prof);
	free(f->handle);
	free(f->job_of);
	free(f->rep);
	free(f->hbuf);
	free(f);
}

/* The engine, the references and the plan of the workload (once), and
 * the check against the limits, with the estimate on notes (NULL: none). */
static int prepare(struct full *f, const struct plat_machine *m, const struct js_workload *w,
                   FILE *notes, struct cmn_err *e)
{
	if (!f->rp) {
		if (cpl_replay_open(m, f->engine,
		                    &(struct cpl_replay_opts){f->ring, 0, 0, f->no_cross}, f->prof,
		                    &f->rp, e))
			return e->code;
		if (!cpl_replay_ops(f->rp)->live)
			return cmn_err_set(e, CMN_EUSAGE, "full: engine %s has no live sessions",
			                   f->engine);
	}
	if (!f->plan && cpl_full_plan_make(f->rp, f->prof, m, w, &f->lim, &f->plan, e))
		return e->code;
	if (notes)
		cpl_full_plan_print(f->plan, f->engine, &f->lim, notes);
	if (cpl_full_plan_check(f->plan, &f->lim, e))
		return e->code;
	f->checked = 1;
	return 0;
}

static int full_estimate(void *self, const struct plat_machine *m, const struct js_workload *w,
                         FILE *notes, struct cmn_err *e)
{
	return prepare(self, m, w, notes, e);
}

static int live_body(void *ctx, struct net_live *lv, struct cmn_err *e)
{
	struct full *f = ctx;
	f->lv = lv;
	return f->body(f->ctx, e);
}

/* The child: the session on the engine prepared here, the status back
 * (the platform file and the engine are the parent's). */
static void child(struct full *f, int fd)
{
	struct cmn_err e;
	cmn_err_clear(&e);
	int rc = cpl_replay_ops(f->rp)->live(cpl_replay_engine(f->rp), live_body, f, &e);
	fflush(NULL);
	if (write(fd, &rc, sizeof rc) != sizeof rc || write(fd, &e, sizeof e) != sizeof e)
		_exit(4);
	_exit(0); /* SimGrid's state dies with us */
}

static int full_drive(void *self, const struct plat_machine *m, const struct js_workload *w,
                      int (*body)(void *ctx, struct cmn_err *e), void *ctx, struct cmn_err *e)
{
	struct full *f = self;
	f->body = body;
	f->ctx = ctx;
	if (!f->checked && prepare(f, m, w, NULL, e))
		return e->code;
	size_t n = w->n ? w->n : 1;
	f->handle = malloc(n * sizeof *f->handle);
	f->job_of = malloc(n * sizeof *f->job_of);
	f->rep = calloc(n, sizeof *f->rep);
	f->hbuf = malloc(n * sizeof *f->hbuf);
	if (!f->handle || !f->job_of || !f->rep || !f->hbuf)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (size_t j = 0; j < w->n; j++)
		f->handle[j] = -1;
	int fd[2];
	if (pipe(fd))
		return cmn_err_set(e, CMN_EIO, "full: cannot create a pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t pid = cmn_cleanup_fork(); /* a signal that stops us stops the simulation too */
	if (pid < 0) {
		close(fd[0]), close(fd[1]);
		return cmn_err_set(e, CMN_EIO, "full: cannot fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(fd[0]);
		child(f, fd[1]);
	}
	close(fd[1]);
	int rc = 0;
	struct cmn_err ce;
	ssize_t a = read(fd[0], &rc, sizeof rc),
	        b = a == sizeof rc ? read(fd[0], &ce, sizeof ce) : 0;
	close(fd[0]);
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	cmn_cleanup_child_gone(pid);
	if (a != sizeof rc || b != sizeof ce)
		return cmn_err_set(e, CMN_ESTATE,
		                   "full: the simulation's process ended abnormally (%s %d; "
		                   "SimGrid's messages above)",
		                   WIFSIGNALED(st) ? "signal" : "exit status",
		                   WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	if (rc)
		*e = ce;
	return rc;
}

static double full_work(void *self, struct js_sim *sim, int j, const int *nodes, int n,
                        struct cmn_err *e)
{
	struct full *f = self;
	const struct js_job *job = js_sim_job(sim, j);
	if (!f->lv)
		return cmn_err_set(e, CMN_EUSAGE, "full: no simulation (run it through drive)"), -1;
	if (n != job->size)
		return cmn_err_set(
		           e, CMN_EUSAGE,
		           "full: placed on %d nodes, not its size %d (the full model needs "
		           "an allocator that gives a job its size)",
		           n, job->size),
		       -1;
	const struct cpl_full_profile *p = cpl_full_plan_profile(f->plan, j);
	long iters = cpl_full_iterations(job, p);
	if (iters < 0) /* refused by the plan first */
		return cmn_err_set(e, CMN_EINPUT, "full: job %" PRIu64 ": too many iterations",
		                   job->id),
		       -1;
	struct net_repeat *rep = malloc(sizeof *rep);
	if (!rep)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory"), -1;
	*rep = (struct net_repeat){p->it.begin, p->it.end, iters - 1};
	char id[JS_JOB_NAME_BYTES], name[JS_JOB_NAME_BYTES + 4]; /* the part too */
	snprintf(name, sizeof name, "job%s", js_job_name(job, id));
	for (char *c = name; *c; c++)
		*c = *c == ' ' ? '_' : *c;
	struct net_job nj = {name, p->t2, nodes, 0, rep};
	int h = net_live_start(f->lv, &nj, e);
	if (h < 0) {
		free(rep);
		return -1;
	}
	f->rep[j] = rep;
	f->handle[j] = h;
	f->job_of[h] = j;
	f->started++;
	f->iterations += iters;
	if (cpl_profiles_record(sim, j, cpl_profiles_name(f->prof, p->kernel), p->t, e))
		return -1;
	return job->run_s;
}

static int full_advance(void *self, struct js_sim *sim, double t, double *t_out, int *ended,
                        struct cmn_err *e)
{
	struct full *f = self;
	if (f->any_killed)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "full: job %" PRIu64
		                   " reached its requested time (--kill): a replay "
		                   "cannot be stopped while the simulation goes on (SimGrid 3.32 "
		                   "raises link failures in its peers); run full without --kill",
		                   f->killed),
		       -1;
	int n = net_live_wait(f->lv, t, t_out, f->hbuf, (int)js_sim_rlen(sim));
	if (n < 0)
		return cmn_err_set(e, CMN_ENOMEM, "full: out of memory inside the simulation"), -1;
	for (int i = 0; i < n; i++)
		ended[i] = f->job_of[f->hbuf[i]];
	return n;
}

static void full_end(void *self, struct js_sim *sim, int j, int killed)
{
	struct full *f = self;
	if (killed && !f->any_killed) { /* reported by the next advance() */
		f->any_killed = 1;
		f->killed = js_sim_job(sim, j)->id;
	}
	if (!killed) { /* the session let the job go: its repeat with it */
		free(f->rep[j]);
		f->rep[j] = NULL;
	}
}

static void full_report(void *self, FILE *fo)
{
	struct full *f = self;
	fprintf(fo,
	        "full (engine %s): %ld jobs, %ld iterations replayed in one simulation; %d "
	        "reference iterations (%ld replays)\n",
	        f->engine, f->started, f->iterations, cpl_full_plan_profiles(f->plan),
	        f->rp ? cpl_replay_count(f->rp) : 0);
}

/* compute scaled up: few, long iterations keep the contract's runs short */
static const char *const full_samples[] = {"full:class=S,flops=10000",
                                           "full:class=S,flops=10000,engine=flit", NULL};

const struct js_runtime_ops cpl_rt_full_ops = {
    .base = {"full",
             "emergent: the whole workload in one SimGrid simulation, each job replaying "
             "its whole trace beside the others (small workloads; the reference)",
             full_params, full_samples},
    .create = full_create,
    .columns = cpl_profile_columns,
    .destroy = full_destroy,
    .work_s = full_work,
    .drive = full_drive,
    .advance = full_advance,
    .end = full_end,
    .report = full_report,
    .estimate = full_estimate,
};

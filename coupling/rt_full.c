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
 * placement up to the rounding of K. Its run time is that of the replay. Every job runs on exactly
 * its size in nodes (the model refuses an allocator that gives it more). Kills at the requested
 * time (--kill) are refused with an error when one happens: SimGrid 3.32
 * cannot stop one job's actors while the others go on (its peers get link
 * failures). Costs grow with the
 * replayed messages: meant for small workloads (a few hundred jobs with
 * run times of tens of iterations).
 *
 * The engine is netsim's own replay on SimGrid (s4u): SMPI 3.32's replay
 * of a job that starts mid-simulation fails (netsim/engine_simgrid.c), so
 * compare the cheaper SimGrid models with engine=s4u for like with like;
 * or the flit-level engine (engine=flit, with its preset and compute), the
 * reference for the flit model.
 *
 * The session runs in a child process (SimGrid keeps its state until the
 * process ends): the simulation and every output are made there, and its
 * status and error message come back through a pipe. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../apptraces/gen.h"
#include "../common/cleanup.h"
#include "../jobsched/runtime.h"
#include "jobprof.h"
#include "replay.h"

static const struct cmn_param_def full_params[] = {
    {"engine", CMN_PT_CHOICE, "s4u", 0, 0, "s4u|flit",
     "netsim engine with live sessions: netsim's own replay on SimGrid (s4u; SMPI's fails "
     "when jobs start mid-simulation) or on the flit-level network (flit)"},
    CPL_FLIT_ENGINE_PARAMS,
    CPL_ALLTOALL_PARAM,
    CPL_PROFILE_PARAMS,
    {NULL},
};

struct ref {
	int kernel, nranks;
	double t, setup; /* one iteration; setup and verification (one-iteration run - t) */
};

struct full {
	struct cpl_profiles *prof;
	char engine[64]; /* netsim's engine spec */
	int ring;        /* alltoall=ring */
	struct cpl_replay *rp;
	struct net_live *lv;
	struct ref *refs;
	int nrefs;
	int *handle;       /* by job index: its live handle (-1: not started) */
	int *job_of;       /* by handle: the job index */
	struct trace **tr; /* by job index: its whole trace while it runs */
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
	if (strcmp(eng, "flit") == 0) {
		cpl_flit_engine_spec(p, f->engine, sizeof f->engine);
	} else if (strcmp(preset, "none") || strcmp(compute, "flops")) {
		cpl_profiles_free(f->prof);
		free(f);
		return cmn_err_set(e, CMN_EUSAGE,
		                   "full: preset and compute are the flit engine's (engine=flit)");
	} else {
		snprintf(f->engine, sizeof f->engine, "%s", eng);
	}
	f->ring = strcmp(cmn_params_str(p, "alltoall"), "ring") == 0;
	*self = f;
	return 0;
}

static void full_destroy(void *self)
{
	struct full *f = self;
	cpl_profiles_free(f->prof);
	free(f);
}

static const struct ref *ref_of(const struct full *f, int k, int n)
{
	for (int i = 0; i < f->nrefs; i++)
		if (f->refs[i].kernel == k && f->refs[i].nranks == n)
			return &f->refs[i];
	return NULL;
}

/* t_ref of every (profile, size) of the workload, by replays. */
static int references(struct full *f, const struct js_workload *w, struct cmn_err *e)
{
	f->refs = malloc((w->n ? w->n : 1) * sizeof *f->refs);
	if (!f->refs)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (size_t j = 0; j < w->n; j++) {
		int k = cpl_profiles_of(f->prof, &w->jobs[j], (int)j), n = w->jobs[j].size;
		if (ref_of(f, k, n))
			continue;
		struct ref *r = &f->refs[f->nrefs];
		*r = (struct ref){k, n, 0, 0};
		double t1;
		if (cpl_replay_reference(f->rp, k, n, &r->t, &t1, e))
			return e->code;
		r->setup = t1 > r->t ? t1 - r->t : 0;
		f->nrefs++;
	}
	return 0;
}

static int live_body(void *ctx, struct net_live *lv, struct cmn_err *e)
{
	struct full *f = ctx;
	f->lv = lv;
	return f->body(f->ctx, e);
}

/* The child: the engine, the references, the session, the status back. */
static void child(struct full *f, const struct plat_machine *m, const struct js_workload *w, int fd)
{
	struct cmn_err e;
	cmn_err_clear(&e);
	size_t n = w->n ? w->n : 1;
	f->handle = malloc(n * sizeof *f->handle);
	f->job_of = malloc(n * sizeof *f->job_of);
	f->tr = calloc(n, sizeof *f->tr);
	f->hbuf = malloc(n * sizeof *f->hbuf);
	int rc = f->handle && f->job_of && f->tr && f->hbuf
	             ? 0
	             : cmn_err_set(&e, CMN_ENOMEM, "out of memory");
	for (size_t j = 0; !rc && j < w->n; j++)
		f->handle[j] = -1;
	if (!rc)
		rc = cpl_replay_open(m, f->engine, &(struct cpl_replay_opts){f->ring, 0, 0},
		                     f->prof, &f->rp, &e);
	if (!rc && !cpl_replay_ops(f->rp)->live)
		rc = cmn_err_set(&e, CMN_EUSAGE, "full: engine %s has no live sessions", f->engine);
	if (!rc)
		rc = references(f, w, &e);
	if (!rc)
		rc = cpl_replay_ops(f->rp)->live(cpl_replay_engine(f->rp), live_body, f, &e);
	fflush(NULL);
	if (write(fd, &rc, sizeof rc) != sizeof rc || write(fd, &e, sizeof e) != sizeof e)
		_exit(4);
	/* the platform file and the engine's files go; SimGrid's state dies with us */
	cpl_replay_close(f->rp);
	_exit(0);
}

static int full_drive(void *self, const struct plat_machine *m, const struct js_workload *w,
                      int (*body)(void *ctx, struct cmn_err *e), void *ctx, struct cmn_err *e)
{
	struct full *f = self;
	f->body = body;
	f->ctx = ctx;
	int fd[2];
	if (pipe(fd))
		return cmn_err_set(e, CMN_EIO, "full: cannot create a pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]), close(fd[1]);
		return cmn_err_set(e, CMN_EIO, "full: cannot fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(fd[0]);
		child(f, m, w, fd[1]);
	}
	close(fd[1]);
	cmn_cleanup_child(pid); /* a signal that stops us stops the simulation too */
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
	int k = cpl_profiles_of(f->prof, job, j);
	const struct ref *r = ref_of(f, k, n);
	if (!r)
		return cmn_err_set(
		           e, CMN_EUSAGE,
		           "full: placed on %d nodes, not its size %d (the full model needs "
		           "an allocator that gives a job its size)",
		           n, job->size),
		       -1;
	double kk = round((job->run_s - r->setup) / r->t);
	int iters = kk < 1 ? 1 : kk > 1e7 ? 10000000 : (int)kk;
	int recorded;
	if (cpl_profiles_trace(f->prof, k, n, iters, &f->tr[j], &recorded, e))
		return -1;
	if (recorded)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "full: %s.%c.%d is a recorded trace: a recorded run has no "
		                   "iterations to repeat for the job's life (use the simgrid "
		                   "or linkload models, or traces=none)",
		                   cpl_profiles_name(f->prof, k), cpl_profiles_class(f->prof), n),
		       -1;
	char name[32];
	snprintf(name, sizeof name, "job%" PRIu64, job->id);
	struct net_job nj = {name, f->tr[j], nodes, 0, NULL};
	int h = net_live_start(f->lv, &nj, e);
	if (h < 0)
		return -1;
	f->handle[j] = h;
	f->job_of[h] = j;
	f->started++;
	f->iterations += iters;
	js_sim_set_iter(sim, j, cpl_profiles_name(f->prof, k), r->t);
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
	if (!killed) {
		trace_free(f->tr[j]);
		f->tr[j] = NULL;
	}
}

static void full_report(void *self, FILE *fo)
{
	struct full *f = self;
	fprintf(fo,
	        "full (engine %s): %ld jobs, %ld iterations replayed in one simulation; %d "
	        "reference iterations (%ld replays)\n",
	        f->engine, f->started, f->iterations, f->nrefs,
	        f->rp ? cpl_replay_count(f->rp) : 0);
}

const struct js_runtime_ops cpl_rt_full_ops = {
    .base = {"full",
             "emergent: the whole workload in one SimGrid simulation, each job replaying "
             "its whole trace beside the others (small workloads; the reference)",
             full_params},
    .create = full_create,
    .destroy = full_destroy,
    .work_s = full_work,
    .drive = full_drive,
    .advance = full_advance,
    .end = full_end,
    .report = full_report,
};

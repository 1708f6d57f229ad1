/* The shared part of the SimGrid engines (sg_engine.h).
 *
 * SimGrid's engine is a process-wide singleton (one platform per process):
 * `sg_engine_created` below is one of the project's two mutable file-scope
 * variables (the other: common/cleanup.c's registry of what a signal
 * removes) and only refuses a second engine in the same process. The
 * platform is loaded and sealed once; each evaluation runs in a child
 * process forked from that state: SMPI's replay keeps state from one run to
 * the next in a process (a second replay of the same trace is faster:
 * measured 0.0107 s instead of 0.0232 s for cg.S.4), so every evaluation
 * gets the pristine engine, and a SimGrid abort ends the child, not the
 * caller. Variants without SMPI may instead run evaluations in the calling
 * process (net_engine_args.in_process): the fork and the child's
 * copy-on-write faults cost more than a small evaluation itself (measured
 * in results/bench). Per-link bytes come from SimGrid's link-load plugin. */
#include <errno.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/plugins/load.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xbt/config.h>

#include "../../common/cleanup.h"
#include "sg_engine.h"
#include "sg_platform.h"

static int sg_engine_created;

/* Exported by libsimgrid 3.32 but in none of its headers: declares SMPI's
 * configuration keys, so that smpi/... settings can be given to
 * simgrid_init() (SMPI_init() reads them to choose the collectives). */
void smpi_init_options(void);

struct sg_state {
	const struct sg_variant *v;
	const struct plat_machine *m;
	sg_host_t *hosts;
	sg_link_t *links;
	struct net_link_result *lres;
	int nlinks;
	long evals;
	int lived;      /* a live session ran here */
	int loads;      /* the link-load plugin is on */
	int ring;       /* alltoall(v) as rounds (netsim.h) */
	int in_process; /* evaluations in this process (netsim.h); 0 once one
	                   left actors behind (a deadlock) */
	void *vdata;
};

sg_host_t net_sg_engine_host(const struct sg_state *s, int node)
{
	return s->hosts[node];
}

void net_sg_engine_set_lived(struct sg_state *s)
{
	s->lived = 1;
}

int net_sg_engine_nodes(const struct sg_state *s)
{
	return s->m->nodes;
}

int net_sg_engine_alltoall_ring(const struct sg_state *s)
{
	return s->ring;
}

const struct sg_variant *net_sg_engine_variant(const struct sg_state *s)
{
	return s->v;
}

long net_sg_engine_evaluation(const struct sg_state *s)
{
	return s->evals;
}

void **net_sg_engine_variant_data(struct sg_state *s)
{
	return &s->vdata;
}

/* "--cfg=key:value" (malloc'ed). */
static char *cfg_arg(const char *kv)
{
	size_t n = strlen(kv) + 8;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "--cfg=%s", kv);
	return p;
}

/* The caller's --cfg tried first in a child, with the platform: SimGrid
 * aborts on a key or value it refuses (as it parses it, or as it makes the
 * platform's models), which would end this process with it. 0, or a usage
 * error with SimGrid's reason. */
static int try_cfg(const struct sg_variant *v, int argc, char **argv, const char *platform,
                   struct cmn_err *e)
{
	FILE *err = tmpfile();
	if (!err)
		return cmn_err_set(e, CMN_EIO, "cannot try --cfg: %s", strerror(errno));
	fflush(NULL);
	pid_t pid = cmn_cleanup_fork();
	if (pid < 0) {
		fclose(err);
		return cmn_err_set(e, CMN_EIO, "cannot try --cfg: %s", strerror(errno));
	}
	if (pid == 0) {
		dup2(fileno(err), 2);
		if (v->smpi)
			smpi_init_options();
		simgrid_init(&argc, argv);
		simgrid_load_platform(platform);
		simgrid_run();
		_exit(0);
	}
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	cmn_cleanup_child_gone(pid);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		fclose(err);
		return 0;
	}
	char line[512], why[400] = "";
	rewind(err);
	while (!why[0] && fgets(line, sizeof line, err))
		if (strstr(line, "CRITICAL") || strstr(line, "rror")) {
			snprintf(why, sizeof why, "%.*s", (int)(sizeof why - 1),
			         net_sg_log_message(line));
			why[strcspn(why, "\n")] = '\0';
		}
	fclose(err);
	return cmn_err_set(e, CMN_EUSAGE, "--cfg: SimGrid refuses the configuration: %s",
	                   why[0] ? why : "it stopped on a signal");
}

int net_sg_engine_create(const struct sg_variant *v, const struct net_engine_args *a, void **state,
                         struct cmn_err *e)
{
	if (a->params && *a->params)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "the SimGrid engines take no parameters ('%s'; use --cfg)",
		                   a->params);
	if (sg_engine_created)
		return cmn_err_set(
		    e, CMN_ESTATE,
		    "SimGrid engine: one per process (SimGrid loads one platform per "
		    "process)");
	if (net_sg_platform_file(a->platform, e))
		return e->code;
	struct sg_state *s = calloc(1, sizeof *s);
	if (!s)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	s->m = a->machine;
	s->v = v;
	s->in_process = a->in_process && !v->smpi; /* SMPI keeps state between runs */
	/* smpirun's defaults, alltoall as trace_expand.h (or rounds), then the
	 * caller's */
	s->ring = a->alltoall_ring;
	const char *const defaults[] = {
	    "network/model:SMPI", "surf/precision:1e-9",
	    s->ring ? "smpi/alltoall:ring" : "smpi/alltoall:basic_linear", "smpi/alltoallv:ring"};
	int ndefaults = v->smpi ? (s->ring ? 4 : 3) : 2;
	char *argv[5 + 64 + 2] = {"netsim", strdup("--log=root.thres:warning")};
	int argc = 2;
	for (int i = 0; i < ndefaults; i++)
		argv[argc++] = cfg_arg(defaults[i]);
#ifdef __SANITIZE_ADDRESS__
	/* AddressSanitizer poisons each actor stack's shadow as SimGrid makes it
	 * and again as it frees it (8 MiB stacks: 2 MiB of shadow written an
	 * actor, with its page faults): cosim's shared replays of 150 jobs took
	 * 40 s instead of 17.5 s with 1 MiB. The sanitizer build's actors get 1
	 * MiB (theirs need far less); --cfg still sets any size. */
	argv[argc++] = cfg_arg("contexts/stack-size:1024");
#endif
	for (const char *const *c = a->cfg; c && *c && argc < 5 + 64 + 1; c++)
		argv[argc++] = cfg_arg(*c);
	argv[argc] = NULL;
	for (int i = 1; i < argc; i++)
		if (!argv[i]) {
			for (int k = 1; k < argc; k++)
				free(argv[k]);
			free(s);
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		}
	int n = argc;
	char *owned[5 + 64 + 2];
	memcpy(owned, argv, sizeof owned); /* simgrid_init removes what it consumes */
	if (a->cfg && *a->cfg && try_cfg(v, argc, argv, a->platform, e)) {
		for (int k = 1; k < n; k++)
			free(owned[k]);
		free(s);
		return e->code;
	}
	if (v->smpi)
		smpi_init_options(); /* declares the smpi/ keys the arguments may set */
	simgrid_init(&argc, argv);
	for (int k = 1; k < n; k++)
		free(owned[k]);
	sg_engine_created = 1;
	if (v->smpi)
		SMPI_init();
	s->loads = !a->no_link_loads;
	if (s->loads)
		sg_link_load_plugin_init();
	cmn_cleanup_take_sigint(); /* over SimGrid's, before a large platform's build */
	simgrid_load_platform(a->platform);
	if (net_sg_apply_taper(a->machine, e) < 0) {
		free(s);
		return e->code;
	}
	simgrid_run();             /* seals the platform */
	cmn_cleanup_take_sigint(); /* over SimGrid's: a Ctrl-C cleans up and stops */
	s->hosts = malloc((size_t)a->machine->nodes * sizeof *s->hosts);
	if (!s->hosts) {
		free(s);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	for (int i = 0; i < a->machine->nodes; i++) {
		char buf[32];
		const char *name = a->hosts ? a->hosts[i] : buf;
		if (!a->hosts)
			snprintf(buf, sizeof buf, "node-%d", i);
		if (!(s->hosts[i] = sg_host_by_name(name))) {
			free(s->hosts);
			free(s);
			return cmn_err_set(e, CMN_EINPUT, "%s: no host %s (node %d)", a->platform,
			                   name, i);
		}
	}
	s->nlinks = sg_link_count();
	s->links = sg_link_list();
	s->lres = calloc((size_t)s->nlinks, sizeof *s->lres);
	if (!s->lres) {
		free(s->hosts);
		free(s->links);
		free(s);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	for (int i = 0; i < s->nlinks; i++) {
		if (s->loads)
			sg_link_load_track(s->links[i]);
		snprintf(s->lres[i].name, sizeof s->lres[i].name, "%s",
		         sg_link_get_name(s->links[i]));
		s->lres[i].bandwidth = sg_link_get_bandwidth(s->links[i]);
	}
	*state = s;
	return 0;
}

static int ranks_of(const struct net_job *jobs, int n)
{
	int total = 0;
	for (int j = 0; j < n; j++)
		total += jobs[j].trace->nranks;
	return total;
}

/* The evaluation proper, in a child or in this process: every job's
 * actors from the current clock, run to the end (or for until seconds);
 * out[j] is job j's finish (its last rank's end, -1 if one did not end);
 * finish holds every rank's (room for them all). Returns 1 when a job did
 * not end. */
static int run_jobs(struct sg_state *s, const struct net_job *jobs, int n, double until,
                    void **data, double *finish, double *out)
{
	for (int k = 0, total = ranks_of(jobs, n); k < total; k++)
		finish[k] = -1;
	double t0 = simgrid_get_clock();
	for (int i = 0; s->loads && i < s->nlinks; i++)
		sg_link_load_reset(s->links[i]);
	for (int j = 0, k = 0; j < n; k += jobs[j].trace->nranks, j++)
		s->v->start(s, &jobs[j], j, data[j], t0, finish + k, NULL);
	if (until > 0)
		simgrid_run_until(t0 + until); /* in a child: unfinished actors die with it */
	else
		simgrid_run();
	int left = 0;
	for (int j = 0, k = 0; j < n; j++) {
		out[j] = jobs[j].start;
		for (int r = 0; r < jobs[j].trace->nranks; r++, k++)
			if (finish[k] < 0 || out[j] < 0)
				out[j] = -1;
			else if (finish[k] - t0 > out[j])
				out[j] = finish[k] - t0;
		left |= out[j] < 0;
	}
	return left;
}

/* The evaluation in the child: job finish times and link bytes written to
 * fd. */
static void evaluate_child(struct sg_state *s, const struct net_job *jobs, int n, double until,
                           void **data, int fd)
{
	int total = ranks_of(jobs, n);
	double *finish = malloc((size_t)(total ? total : 1) * sizeof *finish);
	double *out = malloc(((size_t)n + (size_t)s->nlinks + 1) * sizeof *out);
	if (!finish || !out)
		_exit(3);
	run_jobs(s, jobs, n, until, data, finish, out);
	for (int i = 0; i < s->nlinks; i++)
		out[n + i] = s->loads ? sg_link_get_cum_load(s->links[i]) : 0;
	size_t len = ((size_t)n + (size_t)s->nlinks) * sizeof *out, done = 0;
	while (done < len) {
		ssize_t w = write(fd, (char *)out + done, len - done);
		if (w <= 0)
			_exit(4);
		done += (size_t)w;
	}
	_exit(0);
}

static void release_all(struct sg_state *s, const struct net_job *jobs, int n, void **data)
{
	for (int j = 0; s->v->release && j < n; j++)
		s->v->release(&jobs[j], data[j]);
	free(data);
}

/* An evaluation under way: its child, its pipe, what prepare made. */
struct pending {
	pid_t pid;
	int fd;
	void **data;
	double *in;
	size_t len;
	const struct net_job *jobs;
	int n;
	long eval;
};

/* A job the engine can run: a whole trace, every rank on a node. */
static int check_job(const struct sg_state *s, const struct net_job *job, struct cmn_err *e)
{
	if (job->trace->fragment >= 0)
		return cmn_err_set(e, CMN_EUSAGE, "job %s: one rank's file, not a whole trace",
		                   job->name);
	for (int r = 0; r < job->trace->nranks; r++)
		if (job->nodes[r] < 0 || job->nodes[r] >= s->m->nodes)
			return cmn_err_set(e, CMN_EUSAGE, "job %s: rank %d on node %d, not a node",
			                   job->name, r, job->nodes[r]);
	return 0;
}

/* The address space an evaluation's actors reserve for their stacks (each
 * contexts/stack-size KiB and a guard page, one for maestro too) beside
 * what this process maps already, against its limit (ulimit -v): past it
 * SimGrid aborts as it makes an actor ("Failed to allocate stack"), this
 * process with it when the evaluation runs here. */
static int stacks_room(int ranks, struct cmn_err *e)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_AS, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return 0;
	double page = (double)sysconf(_SC_PAGESIZE), mapped = 0, kib = 8192;
	int cfg = sg_cfg_get_int("contexts/stack-size");
	kib = cfg > 0 ? cfg : kib;
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long pages;
	if (f && fscanf(f, "%lu", &pages) == 1)
		mapped = (double)pages * page;
	if (f)
		fclose(f);
	double stacks = (ranks + 1.0) * (kib * 1024.0 + page);
	if (mapped + stacks <= (double)rl.rlim_cur)
		return 0;
	return cmn_err_set(e, CMN_ENOMEM,
	                   "SimGrid's actors: %d ranks with stacks of %.0f KiB reserve %.0f MiB "
	                   "of address space beside the %.0f MiB this process maps, more than "
	                   "its limit (ulimit -v: %.0f MiB): raise the limit, run fewer ranks, "
	                   "or (netsim) give the actors smaller stacks (--cfg "
	                   "contexts/stack-size:KiB)",
	                   ranks, kib, stacks / 1048576.0, mapped / 1048576.0,
	                   (double)rl.rlim_cur / 1048576.0);
}

/* SMPI's replay keeps every rank's trace file open while it runs: the
 * evaluation's ranks and the process's own descriptors (a margin for
 * SimGrid's, the pipes, the outputs) against the limit on open files,
 * raised towards its hard limit when that allows (the soft limit is
 * often 1,024: a job of more ranks stopped inside SimGrid, "Cannot read
 * replay file"). */
static int files_room(int ranks, struct cmn_err *e)
{
	enum { MARGIN = 64 };
	struct rlimit rl;
	rlim_t need = (rlim_t)ranks + MARGIN;
	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need) {
		rl.rlim_cur = need;
		if (setrlimit(RLIMIT_NOFILE, &rl) == 0)
			return 0;
	}
	return cmn_err_set(e, CMN_ESTATE,
	                   "SMPI's replay keeps a file open per rank: %d ranks need about %llu "
	                   "open files, more than this process may have (ulimit -n: %llu, at most "
	                   "%llu): raise the limit, or replay on the s4u engine (--engine s4u, "
	                   "cosim engine=s4u), which reads the traces in memory",
	                   ranks, (unsigned long long)need, (unsigned long long)rl.rlim_cur,
	                   (unsigned long long)rl.rlim_max);
}

/* Checks and prepares the jobs: the variant's data per job into *out
 * (nothing left on an error). */
static int prepare_all(struct sg_state *s, const struct net_job *jobs, int n, void ***out,
                       struct cmn_err *e)
{
	int ranks = 0;
	for (int j = 0; j < n; j++)
		ranks += jobs[j].trace->nranks;
	if (stacks_room(ranks, e) || (s->v->smpi && files_room(ranks, e)))
		return e->code;
	void **data = calloc((size_t)(n ? n : 1), sizeof *data);
	if (!data)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int j = 0, first = 1; j < n; first += jobs[j].trace->nranks, j++)
		if (check_job(s, &jobs[j], e) ||
		    (s->v->prepare && s->v->prepare(s, &jobs[j], first, &data[j], e))) {
			release_all(s, jobs, j, data);
			return e->code;
		}
	*out = data;
	return 0;
}

/* Checks and prepares the jobs, forks the evaluation's child. */
static int eval_start(struct sg_state *s, const struct net_job *jobs, int n, double until,
                      struct pending *p, struct cmn_err *e)
{
	memset(p, 0, sizeof *p);
	p->pid = -1;
	void **data;
	if (prepare_all(s, jobs, n, &data, e))
		return e->code;
	size_t len = ((size_t)n + (size_t)s->nlinks) * sizeof(double);
	double *in = malloc(len ? len : 1);
	int fd[2];
	if (!in || pipe(fd)) {
		release_all(s, jobs, n, data);
		free(in);
		return cmn_err_set(e, CMN_EIO, "cannot create a pipe: %s", strerror(errno));
	}
	fflush(NULL);
	pid_t pid = cmn_cleanup_fork(); /* a signal that stops us stops it */
	if (pid < 0) {
		close(fd[0]), close(fd[1]);
		release_all(s, jobs, n, data);
		free(in);
		return cmn_err_set(e, CMN_EIO, "cannot fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(fd[0]);
		evaluate_child(s, jobs, n, until, data, fd[1]);
	}
	close(fd[1]);
	*p = (struct pending){pid, fd[0], data, in, len, jobs, n, s->evals++};
	return 0;
}

/* Reads the child's results, reaps it, frees what eval_start made. */
static int eval_finish(struct sg_state *s, struct pending *p, struct net_job_result *results,
                       int rc, struct cmn_err *e)
{
	if (p->pid < 0)
		return rc;
	size_t done = 0;
	while (done < p->len) {
		ssize_t r = read(p->fd, (char *)p->in + done, p->len - done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		done += (size_t)r;
	}
	close(p->fd);
	int status = 0;
	while (waitpid(p->pid, &status, 0) < 0 && errno == EINTR)
		;
	cmn_cleanup_child_gone(p->pid);
	if (rc)
		; /* an earlier error stands */
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 5)
		rc = cmn_err_set(e, CMN_ESTATE,
		                 "SimGrid numbered the actors of evaluation %ld otherwise than the "
		                 "engine assumes",
		                 p->eval);
	else if (done < p->len || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		rc = cmn_err_set(e, CMN_ESTATE,
		                 "SimGrid's evaluation %ld ended abnormally (%s %d; SimGrid's "
		                 "messages above)",
		                 p->eval, WIFSIGNALED(status) ? "signal" : "exit status",
		                 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	for (int j = 0; !rc && j < p->n; j++) {
		results[j].start = p->jobs[j].start;
		results[j].finish = p->in[j];
	}
	for (int i = 0; !rc && i < s->nlinks; i++) {
		struct net_link_result *l = &s->lres[i];
		l->bytes = p->in[p->n + i];
		l->busy_s = l->bandwidth > 0 ? l->bytes / l->bandwidth : 0;
	}
	release_all(s, p->jobs, p->n, p->data);
	free(p->in);
	return rc;
}

/* Past this clock the in-process evaluations stop (forks again): the
 * clock's rounding (1e-10 s at 1e6 s) stays below surf/precision. */
#define IN_PROCESS_CLOCK_LIMIT 1e6

static int can_run_here(const struct sg_state *s, double until)
{
	return s->in_process && until <= 0 && !s->lived && !s->loads &&
	       simgrid_get_clock() < IN_PROCESS_CLOCK_LIMIT;
}

/* An evaluation in this process: the jobs' actors from the current clock,
 * run to the end. A clean run leaves nothing behind (every message
 * received), so the next one reuses the mailboxes (their names carry the
 * evaluation's index, which advances only when a run left actors blocked:
 * those then never meet a later run's messages). */
static int evaluate_here(struct sg_state *s, const struct net_job *jobs, int n,
                         struct net_job_result *results, struct cmn_err *e)
{
	void **data;
	if (prepare_all(s, jobs, n, &data, e))
		return e->code;
	int total = ranks_of(jobs, n);
	double *finish = malloc((size_t)(total ? total : 1) * sizeof *finish);
	double *out = malloc((size_t)(n ? n : 1) * sizeof *out);
	if (!finish || !out) {
		free(finish), free(out);
		release_all(s, jobs, n, data);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	int left = run_jobs(s, jobs, n, 0, data, finish, out);
	for (int j = 0; j < n; j++)
		results[j] = (struct net_job_result){jobs[j].start, out[j]};
	free(out);
	if (left) { /* blocked actors stay, holding finish and data (kept):
		     * later runs fork, in fresh mailboxes */
		s->in_process = 0;
		s->evals++;
		return 0;
	}
	free(finish);
	release_all(s, jobs, n, data);
	return 0;
}

int net_sg_engine_evaluate(void *state, const struct net_job *jobs, int n, double until,
                           struct net_job_result *results, struct cmn_err *e)
{
	struct sg_state *s = state;
	if (can_run_here(s, until))
		return evaluate_here(s, jobs, n, results, e);
	struct pending p;
	int rc = eval_start(state, jobs, n, until, &p, e);
	return rc ? rc : eval_finish(state, &p, results, 0, e);
}

int net_sg_engine_evaluate_many(void *state, int count, const struct net_job *const *jobs,
                                const int *n, double until, struct net_job_result *const *results,
                                struct cmn_err *e)
{
	struct sg_state *s = state;
	if (can_run_here(s, until)) { /* one after another: no fork to share */
		int rc = 0;
		for (int i = 0; !rc && i < count; i++) /* forks again after a deadlock */
			rc = net_sg_engine_evaluate(s, jobs[i], n[i], until, results[i], e);
		return rc;
	}
	struct pending p[NET_SG_CHILDREN];
	int rc = 0;
	for (int at = 0; at < count; at += NET_SG_CHILDREN) {
		int k = count - at < NET_SG_CHILDREN ? count - at : NET_SG_CHILDREN, started = 0;
		for (; !rc && started < k; started++)
			rc = eval_start(state, jobs[at + started], n[at + started], until,
			                &p[started], e);
		if (rc)
			started--; /* the one that failed started nothing */
		for (int i = 0; i < started; i++)
			rc = eval_finish(state, &p[i], results[at + i], rc, e);
		if (rc)
			break;
	}
	return rc;
}

int net_sg_engine_links(void *state, const struct net_link_result **out, int *n, struct cmn_err *e)
{
	(void)e;
	struct sg_state *s = state;
	*out = s->lres;
	*n = s->nlinks;
	return 0;
}

void net_sg_engine_destroy(void *state)
{
	struct sg_state *s = state;
	if (!s)
		return;
	if (s->v->cleanup)
		s->v->cleanup(s);
	free(s->hosts);
	free(s->links);
	free(s->lres);
	int smpi = s->v->smpi && !s->lived; /* SMPI_finalize crashes after a live session */
	free(s);
	if (smpi)
		SMPI_finalize();
}

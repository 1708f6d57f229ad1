/* The SimGrid engine: each job's trace replayed by SMPI's own replay
 * (smpi_replay_run, several instances at once), so MPI semantics, eager and
 * rendezvous protocols and collective algorithms are SMPI's; the defaults
 * are smpirun's (network/model:SMPI, surf/precision:1e-9), so a trace
 * replays to the time smpirun -replay gives, but for alltoall: SMPI's
 * default picks a Bruck algorithm for small blocks on more than 12 ranks,
 * which corrupts memory when several instances replay at once (a
 * heap-use-after-free in SMPI 3.32's shared replay buffers, found with
 * AddressSanitizer), so netsim sets smpi/alltoall:basic_linear. The
 * collectives are then exactly those apptraces/trace_expand.h documents.
 * Per-link bytes come from SimGrid's link-load plugin.
 *
 * SimGrid's engine is a process-wide singleton (one platform per process):
 * `sg_engine_created` below is the one mutable file-scope variable of the
 * project and only refuses a second engine in the same process. The
 * platform is loaded and sealed once; each evaluation runs in a child
 * process forked from that state (see sg_evaluate). */
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
#include <sys/wait.h>
#include <unistd.h>

#include "netsim.h"
#include "sg_platform.h"

static int sg_engine_created;

/* Exported by libsimgrid 3.32 but in none of its headers: declares SMPI's
 * configuration keys, so that smpi/... settings can be given to
 * simgrid_init() (SMPI_init() reads them to choose the collectives). */
void smpi_init_options(void);

struct rank_run {
	char instance[48];
	int rank;
	const char *file;
	double start;  /* absolute simulated time to begin */
	double finish; /* absolute, set by the actor */
};

struct cached_trace {
	const struct trace *t;
	int shift;    /* added to wait/test ranks (see files_of) */
	char **files; /* per-rank files SMPI reads */
	int owned;    /* files written by us (removed at destroy) */
};

struct sg_state {
	const struct plat_machine *m;
	sg_host_t *hosts;
	sg_link_t *links;
	struct net_link_result *lres;
	int nlinks;
	long evals;
	char tmpdir[64];
	struct cached_trace *cache;
	int ncache, capcache;
};

/* "--cfg=key:value" (malloc'ed). */
static char *cfg_arg(const char *kv)
{
	size_t n = strlen(kv) + 8;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "--cfg=%s", kv);
	return p;
}

static void rank_main(int argc, char **argv)
{
	(void)argc, (void)argv;
	struct rank_run *rr = sg_actor_self_get_data();
	if (rr->start > simgrid_get_clock())
		sg_actor_sleep_until(rr->start);
	smpi_replay_run(rr->instance, rr->rank, 0.0, rr->file);
	rr->finish = simgrid_get_clock();
}

static int sg_create(const struct net_engine_args *a, void **state, struct cmn_err *e)
{
	if (sg_engine_created)
		return cmn_err_set(
		    e, CMN_ESTATE,
		    "SimGrid engine: one per process (SimGrid loads one platform per "
		    "process)");
	struct sg_state *s = calloc(1, sizeof *s);
	if (!s)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	s->m = a->machine;
	/* smpirun's defaults, alltoall as trace_expand.h, then the caller's */
	static const char *const defaults[] = {"network/model:SMPI", "surf/precision:1e-9",
	                                       "smpi/alltoall:basic_linear"};
	char *argv[4 + 64 + 2] = {"netsim", strdup("--log=root.thres:warning")};
	int argc = 2;
	for (int i = 0; i < 3; i++)
		argv[argc++] = cfg_arg(defaults[i]);
	for (const char *const *c = a->cfg; c && *c && argc < 4 + 64 + 1; c++)
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
	char *owned[4 + 64 + 2];
	memcpy(owned, argv, sizeof owned); /* simgrid_init removes what it consumes */
	smpi_init_options();               /* declares the smpi/ keys the arguments may set */
	simgrid_init(&argc, argv);
	for (int k = 1; k < n; k++)
		free(owned[k]);
	sg_engine_created = 1;
	SMPI_init();
	sg_link_load_plugin_init();
	simgrid_load_platform(a->platform);
	if (net_sg_apply_taper(a->machine, e) < 0) {
		free(s);
		return e->code;
	}
	simgrid_run(); /* seals the platform */
	s->hosts = malloc((size_t)a->machine->nodes * sizeof *s->hosts);
	if (!s->hosts) {
		free(s);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	for (int i = 0; i < a->machine->nodes; i++) {
		char name[32];
		snprintf(name, sizeof name, "node-%d", i);
		if (!(s->hosts[i] = sg_host_by_name(name))) {
			free(s->hosts);
			free(s);
			return cmn_err_set(e, CMN_EINPUT,
			                   "%s: no host node-%d (hosts must be node-0..node-%d)",
			                   a->platform, i, a->machine->nodes - 1);
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
		sg_link_load_track(s->links[i]);
		snprintf(s->lres[i].name, sizeof s->lres[i].name, "%s",
		         sg_link_get_name(s->links[i]));
		s->lres[i].bandwidth = sg_link_get_bandwidth(s->links[i]);
	}
	*state = s;
	return 0;
}

/* The per-rank files SMPI's replay reads for t when its ranks are actors
 * `shift`+1.. of the evaluation. SMPI 3.32's replay stores a rank's
 * pending requests under (source pid - 1, destination pid - 1, tag) but
 * looks them up under the trace's (source rank, destination rank, tag), so
 * `wait` and `test` find their request only for ranks whose pid is rank + 1:
 * for every job but the first of an evaluation the waits are skipped and the
 * job runs too fast (measured: cg.S.4 as the second of two jobs on separate
 * nodes, 0.0107 s instead of 0.0232 s). The files of a job whose first actor
 * is pid shift + 1 therefore name pids - 1 in wait and test (checked against
 * the pids SimGrid gives). A trace read from an index with shift 0 uses its
 * own files; other files are written once into a temporary folder. */
static char **files_of(struct sg_state *s, const struct trace *t, int shift, struct cmn_err *e)
{
	for (int i = 0; i < s->ncache; i++)
		if (s->cache[i].t == t && s->cache[i].shift == shift)
			return s->cache[i].files;
	if (s->ncache == s->capcache) {
		int cap = s->capcache ? 2 * s->capcache : 8;
		struct cached_trace *c = realloc(s->cache, (size_t)cap * sizeof *c);
		if (!c)
			return cmn_err_set(e, CMN_ENOMEM, "out of memory"), NULL;
		s->cache = c;
		s->capcache = cap;
	}
	struct cached_trace *c = &s->cache[s->ncache];
	c->t = t;
	c->shift = shift;
	c->files = calloc((size_t)t->nranks, sizeof *c->files);
	if (!c->files)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory"), NULL;
	int own = shift == 0;
	for (int r = 0; r < t->nranks; r++)
		own &= t->files[r] != NULL;
	c->owned = !own;
	if (own) {
		for (int r = 0; r < t->nranks; r++)
			c->files[r] = strdup(t->files[r]);
	} else {
		if (!s->tmpdir[0]) {
			snprintf(s->tmpdir, sizeof s->tmpdir, "/tmp/netsim-XXXXXX");
			if (!mkdtemp(s->tmpdir)) {
				s->tmpdir[0] = '\0';
				free(c->files);
				return cmn_err_set(e, CMN_EIO,
				                   "cannot create a temporary folder: %s",
				                   strerror(errno)),
				       NULL;
			}
		}
		char base[32];
		snprintf(base, sizeof base, "t%d", s->ncache);
		struct trace copy = *t; /* the same trace, waits naming pids - 1 */
		long nact = t->first[t->nranks];
		copy.act = malloc((size_t)(nact ? nact : 1) * sizeof *copy.act);
		if (!copy.act) {
			free(c->files);
			return cmn_err_set(e, CMN_ENOMEM, "out of memory"), NULL;
		}
		memcpy(copy.act, t->act, (size_t)nact * sizeof *copy.act);
		for (long k = 0; k < nact; k++)
			if (copy.act[k].op == TR_WAIT || copy.act[k].op == TR_TEST) {
				copy.act[k].peer += shift;
				copy.act[k].aux += shift;
			}
		int rc = trace_write(&copy, s->tmpdir, base, e);
		free(copy.act);
		if (rc) {
			free(c->files);
			return NULL;
		}
		for (int r = 0; r < t->nranks; r++) {
			size_t n = strlen(s->tmpdir) + 64;
			c->files[r] = malloc(n);
			if (c->files[r])
				snprintf(c->files[r], n, "%s/%s.txt_files/rank-%d.txt", s->tmpdir,
				         base, r);
		}
	}
	for (int r = 0; r < t->nranks; r++)
		if (!c->files[r])
			return cmn_err_set(e, CMN_ENOMEM, "out of memory"), NULL;
	s->ncache++;
	return c->files;
}

/* The evaluation proper, in a child process: actors for every rank, run,
 * job finish times and link bytes written to fd. */
static void evaluate_child(struct sg_state *s, const struct net_job *jobs, int n, double until,
                           char ***files, int fd)
{
	int total = 0;
	for (int j = 0; j < n; j++)
		total += jobs[j].trace->nranks;
	struct rank_run *runs = calloc((size_t)(total ? total : 1), sizeof *runs);
	double *out = malloc(((size_t)n + (size_t)s->nlinks + 1) * sizeof *out);
	if (!runs || !out)
		_exit(3);
	double t0 = simgrid_get_clock();
	for (int i = 0; i < s->nlinks; i++)
		sg_link_load_reset(s->links[i]);
	for (int j = 0, k = 0; j < n; j++) {
		const struct trace *t = jobs[j].trace;
		char instance[48];
		snprintf(instance, sizeof instance, "e%ld-j%d", s->evals, j);
		SMPI_app_instance_register(instance, NULL, t->nranks);
		for (int r = 0; r < t->nranks; r++, k++) {
			struct rank_run *rr = &runs[k];
			snprintf(rr->instance, sizeof rr->instance, "%s", instance);
			rr->rank = r;
			rr->file = files[j][r];
			rr->start = t0 + jobs[j].start;
			rr->finish = -1;
			char name[64];
			snprintf(name, sizeof name, "%s-%d", instance, r);
			sg_actor_t a = sg_actor_init(name, s->hosts[jobs[j].nodes[r]]);
			if (sg_actor_get_pid(a) != k + 1) /* the pids files_of() assumed */
				_exit(5);
			sg_actor_set_data(a, rr);
			sg_actor_start_(a, rank_main, 0, NULL);
		}
	}
	if (until > 0)
		simgrid_run_until(t0 + until); /* unfinished actors die with the child */
	else
		simgrid_run();
	for (int j = 0, k = 0; j < n; j++) {
		out[j] = jobs[j].start;
		for (int r = 0; r < jobs[j].trace->nranks; r++, k++)
			if (runs[k].finish < 0 || out[j] < 0)
				out[j] = -1;
			else if (runs[k].finish - t0 > out[j])
				out[j] = runs[k].finish - t0;
	}
	for (int i = 0; i < s->nlinks; i++)
		out[n + i] = sg_link_get_cum_load(s->links[i]);
	size_t len = ((size_t)n + (size_t)s->nlinks) * sizeof *out, done = 0;
	while (done < len) {
		ssize_t w = write(fd, (char *)out + done, len - done);
		if (w <= 0)
			_exit(4);
		done += (size_t)w;
	}
	_exit(0);
}

/* Every evaluation runs in a child forked from the process that loaded and
 * sealed the platform: SMPI's replay keeps state from one run to the next
 * in a process (a second replay of the same trace is faster: measured 0.0107
 * s instead of 0.0232 s for cg.S.4), so each evaluation gets the pristine
 * engine, and a SimGrid abort ends the child, not the caller. */
static int sg_evaluate(void *state, const struct net_job *jobs, int n, double until,
                       struct net_job_result *results, struct cmn_err *e)
{
	struct sg_state *s = state;
	char ***files = calloc((size_t)(n ? n : 1), sizeof *files);
	if (!files)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int j = 0, shift = 0; j < n; shift += jobs[j].trace->nranks, j++) {
		if (jobs[j].trace->fragment >= 0) {
			free(files);
			return cmn_err_set(e, CMN_EUSAGE,
			                   "job %s: one rank's file, not a whole trace",
			                   jobs[j].name);
		}
		for (int r = 0; r < jobs[j].trace->nranks; r++)
			if (jobs[j].nodes[r] < 0 || jobs[j].nodes[r] >= s->m->nodes) {
				free(files);
				return cmn_err_set(e, CMN_EUSAGE,
				                   "job %s: rank %d on node %d, not a node",
				                   jobs[j].name, r, jobs[j].nodes[r]);
			}
		if (!(files[j] = files_of(s, jobs[j].trace, shift, e))) {
			free(files);
			return e->code;
		}
	}
	size_t len = ((size_t)n + (size_t)s->nlinks) * sizeof(double);
	double *in = malloc(len ? len : 1);
	int fd[2];
	if (!in || pipe(fd)) {
		free(files);
		free(in);
		return cmn_err_set(e, CMN_EIO, "cannot create a pipe: %s", strerror(errno));
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]), close(fd[1]);
		free(files);
		free(in);
		return cmn_err_set(e, CMN_EIO, "cannot fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(fd[0]);
		evaluate_child(s, jobs, n, until, files, fd[1]);
	}
	close(fd[1]);
	size_t done = 0;
	while (done < len) {
		ssize_t r = read(fd[0], (char *)in + done, len - done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		done += (size_t)r;
	}
	close(fd[0]);
	int status = 0, rc = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (done < len || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		rc = cmn_err_set(e, CMN_ESTATE,
		                 "SimGrid's evaluation %ld ended abnormally (%s %d; "
		                 "SimGrid's messages above)",
		                 s->evals, WIFSIGNALED(status) ? "signal" : "exit status",
		                 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	for (int j = 0; !rc && j < n; j++) {
		results[j].start = jobs[j].start;
		results[j].finish = in[j];
	}
	for (int i = 0; !rc && i < s->nlinks; i++) {
		struct net_link_result *l = &s->lres[i];
		l->bytes = in[n + i];
		l->busy_s = l->bandwidth > 0 ? l->bytes / l->bandwidth : 0;
	}
	s->evals++;
	free(files);
	free(in);
	return rc;
}

static int sg_links(void *state, const struct net_link_result **out, int *n, struct cmn_err *e)
{
	(void)e;
	struct sg_state *s = state;
	*out = s->lres;
	*n = s->nlinks;
	return 0;
}

static void sg_destroy(void *state)
{
	struct sg_state *s = state;
	if (!s)
		return;
	for (int i = 0; i < s->ncache; i++) {
		for (int r = 0; r < s->cache[i].t->nranks; r++) {
			if (s->cache[i].owned && s->cache[i].files[r])
				unlink(s->cache[i].files[r]);
			free(s->cache[i].files[r]);
		}
		if (s->cache[i].owned) {
			char p[128];
			snprintf(p, sizeof p, "%s/t%d.txt_files", s->tmpdir, i);
			rmdir(p);
			snprintf(p, sizeof p, "%s/t%d.txt", s->tmpdir, i);
			unlink(p);
		}
		free(s->cache[i].files);
	}
	if (s->tmpdir[0])
		rmdir(s->tmpdir);
	free(s->cache);
	free(s->hosts);
	free(s->links);
	free(s->lres);
	free(s);
	SMPI_finalize();
}

const struct net_engine_ops net_engine_simgrid_ops = {
    .base = {"simgrid", "flow-level: SMPI's replay of each trace on a SimGrid platform",
             net_no_params},
    .create = sg_create,
    .evaluate = sg_evaluate,
    .links = sg_links,
    .destroy = sg_destroy,
};

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
 * project and only refuses a second engine in the same process. Evaluations
 * run back to back on the loaded platform (simgrid_run() again and again),
 * each timed from its own start. */
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
	for (int i = 0; i < s->nlinks; i++)
		sg_link_load_track(s->links[i]);
	*state = s;
	return 0;
}

/* The per-rank files SMPI's replay reads for t: its own when it was read
 * from an index, else written once into a temporary folder. */
static char **files_of(struct sg_state *s, const struct trace *t, struct cmn_err *e)
{
	for (int i = 0; i < s->ncache; i++)
		if (s->cache[i].t == t)
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
	c->files = calloc((size_t)t->nranks, sizeof *c->files);
	if (!c->files)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory"), NULL;
	int own = 1;
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
		if (trace_write(t, s->tmpdir, base, e)) {
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

static int sg_evaluate(void *state, const struct net_job *jobs, int n,
                       struct net_job_result *results, struct cmn_err *e)
{
	struct sg_state *s = state;
	int total = 0;
	for (int j = 0; j < n; j++) {
		if (jobs[j].trace->fragment >= 0)
			return cmn_err_set(e, CMN_EUSAGE,
			                   "job %s: one rank's file, not a whole trace",
			                   jobs[j].name);
		total += jobs[j].trace->nranks;
	}
	struct rank_run *runs = calloc((size_t)(total ? total : 1), sizeof *runs);
	if (!runs)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	double t0 = simgrid_get_clock();
	for (int i = 0; i < s->nlinks; i++)
		sg_link_load_reset(s->links[i]);
	int k = 0;
	for (int j = 0; j < n; j++) {
		const struct trace *t = jobs[j].trace;
		char **files = files_of(s, t, e);
		if (!files) {
			free(runs);
			return e->code;
		}
		char instance[48];
		snprintf(instance, sizeof instance, "e%ld-j%d", s->evals, j);
		SMPI_app_instance_register(instance, NULL, t->nranks);
		for (int r = 0; r < t->nranks; r++, k++) {
			int node = jobs[j].nodes[r];
			if (node < 0 || node >= s->m->nodes) {
				free(runs);
				return cmn_err_set(e, CMN_EUSAGE,
				                   "job %s: rank %d on node %d, not a node",
				                   jobs[j].name, r, node);
			}
			struct rank_run *rr = &runs[k];
			snprintf(rr->instance, sizeof rr->instance, "%s", instance);
			rr->rank = r;
			rr->file = files[r];
			rr->start = t0 + jobs[j].start;
			rr->finish = -1;
			char name[64];
			snprintf(name, sizeof name, "%s-%d", instance, r);
			sg_actor_t a = sg_actor_init(name, s->hosts[node]);
			sg_actor_set_data(a, rr);
			sg_actor_start_(a, rank_main, 0, NULL);
		}
	}
	simgrid_run();
	k = 0;
	for (int j = 0; j < n; j++) {
		results[j].start = jobs[j].start;
		results[j].finish = jobs[j].start;
		for (int r = 0; r < jobs[j].trace->nranks; r++, k++)
			if (runs[k].finish - t0 > results[j].finish)
				results[j].finish = runs[k].finish - t0;
	}
	for (int i = 0; i < s->nlinks; i++) {
		struct net_link_result *l = &s->lres[i];
		snprintf(l->name, sizeof l->name, "%s", sg_link_get_name(s->links[i]));
		l->bandwidth = sg_link_get_bandwidth(s->links[i]);
		l->bytes = sg_link_get_cum_load(s->links[i]);
		l->busy_s = l->bandwidth > 0 ? l->bytes / l->bandwidth : 0;
	}
	s->evals++;
	free(runs);
	return 0;
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

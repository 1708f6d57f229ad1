/* Run-time model "linkload": a job's progress rate is t_ref / t_now, where
 * t_now is one iteration of its application profile on its nodes with every
 * running job's traffic sharing the links (linkload.h) and t_ref the same
 * iteration alone on the reference placement (nodes 0..n-1: contiguous).
 * Its work is its log run time (the run time at the reference placement).
 * Profiles: jobprof.h ("none", without communication, has rate 1).
 * A (kernel, rank count)'s traffic (traffic.h) and t_ref are computed ahead
 * by workers (threads > 1: ll_ahead.h, in the jobs' order) or when a job
 * first needs them; the traffic is kept while running jobs use it, plus
 * the most recently used others up to a memory budget; its t_ref is kept
 * for good (computed apart from the running jobs, whose clusters stay). A job's flows are routed
 * when it starts (again after a move) and dropped when it ends. Before
 * the run, estimate() bounds its memory from the workload and the machine
 * (ll_cost.h) and refuses a run past max_memory. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../jobsched/runtime/runtime.h"
#include "../linkload/linkload.h"
#include "../linkload/ll_ahead.h"
#include "../linkload/ll_cost.h"
#include "../profiles/jobprof.h"

/* Memory that traffics no running job uses may keep (bytes). */
#define SPARE_BYTES (64.0 * 1024 * 1024)

static const struct cmn_param_def ll_params[] = {
    CPL_PROFILE_PARAMS,
    CPL_LL_LIMIT_PARAM,
    {"threads", CMN_PT_INT, "2", 1, 64, NULL,
     "threads: the model's own and workers that compute the profiles the jobs will need "
     "ahead (1: none; the results are the same)"},
    {NULL},
};

struct cached {
	int kernel, nranks;
	struct cpl_traffic tr; /* tr.flops == NULL: not held */
	double t_ref, bytes;
	int users; /* running jobs whose flows borrow it */
	long used; /* when last needed */
};

struct linkload {
	struct cpl_profiles *prof;
	double max_mb; /* max_memory (0: none) */
	int threads;
	struct ll_ahead *ahead; /* the profiles computed ahead, with threads > 1 */
	struct cached *cache;
	int ncache, capcache;
	long clock;
	double spare;         /* bytes of the held traffics without users */
	long profiles, again; /* traffics computed, of which again after a drop */
	const struct plat_machine *m;
	struct cpl_linkload *ll, *ll_ref; /* the running jobs; reference placements */
	/* by job index (njobs entries) */
	size_t njobs;
	struct cpl_job_flows **flows; /* built when it first runs */
	int *entry;                   /* the cache entry its flows borrow, or -1 */
	int *built_moves;             /* its placement version when they were built */
	char *running;
	int *with_flows, nwith; /* the jobs that have flows */
};

static int ll_create(const struct cmn_params *p, void **self, struct cmn_err *e)
{
	struct linkload *l = calloc(1, sizeof *l);
	if (!l)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	if (cpl_profiles_create(p, "linkload", &l->prof, e)) {
		free(l);
		return e->code;
	}
	l->max_mb = cmn_params_num(p, "max_memory");
	l->threads = (int)cmn_params_num(p, "threads");
	*self = l;
	return 0;
}

/* The memory bound of the run, on notes, and the limit checked. */
static int ll_estimate(void *self, const struct plat_machine *m, const struct js_workload *w,
                       FILE *notes, struct cmn_err *e)
{
	struct linkload *l = self;
	struct cpl_ll_cost c;
	if (cpl_ll_cost_of(l->prof, m, w, l->threads - 1, &c, e))
		return e->code;
	if (notes)
		cpl_ll_cost_print(&c, l->prof, l->max_mb, notes);
	return cpl_ll_cost_check(&c, l->prof, l->max_mb, e);
}

/* The workers stop with the run (they read its machine and workload). */
static void ll_run_end(void *self)
{
	struct linkload *l = self;
	cpl_ll_ahead_destroy(l->ahead);
	l->ahead = NULL;
}

static void ll_destroy(void *self)
{
	struct linkload *l = self;
	cpl_ll_ahead_destroy(l->ahead);
	for (int i = 0; i < l->nwith; i++)
		cpl_flows_free(l->flows[l->with_flows[i]]);
	free(l->flows), free(l->entry), free(l->built_moves), free(l->running);
	free(l->with_flows);
	for (int i = 0; i < l->ncache; i++)
		cpl_traffic_free(&l->cache[i].tr);
	free(l->cache);
	cpl_linkload_destroy(l->ll);
	cpl_linkload_destroy(l->ll_ref);
	cpl_profiles_free(l->prof);
	free(l);
}

static int kernel_of(const struct linkload *l, const struct js_sim *sim, int j)
{
	return cpl_profiles_of(l->prof, js_sim_job(sim, j), j);
}

/* Drops the least recently used traffics without users while they take
 * more than the budget. */
static void trim(struct linkload *l)
{
	while (l->spare > SPARE_BYTES) {
		int old = -1;
		for (int i = 0; i < l->ncache; i++)
			if (l->cache[i].tr.flops && !l->cache[i].users &&
			    (old < 0 || l->cache[i].used < l->cache[old].used))
				old = i;
		if (old < 0)
			return;
		cpl_traffic_free(&l->cache[old].tr);
		l->spare -= l->cache[old].bytes;
	}
}

/* The index of the cache entry of kernel k on n ranks, its traffic held
 * (computed when new or dropped), or -1 (an index: the cache moves as it
 * grows). */
static int iteration(struct linkload *l, int k, int n, struct cmn_err *e)
{
	int i = 0;
	while (i < l->ncache && (l->cache[i].kernel != k || l->cache[i].nranks != n))
		i++;
	if (i == l->ncache) {
		if (l->ncache == l->capcache) {
			int cap = l->capcache ? 2 * l->capcache : 16;
			struct cached *c = realloc(l->cache, (size_t)cap * sizeof *c);
			if (!c)
				return cmn_err_set(e, CMN_ENOMEM, "out of memory"), -1;
			l->cache = c;
			l->capcache = cap;
		}
		memset(&l->cache[i], 0, sizeof l->cache[i]);
		l->cache[i].kernel = k;
		l->cache[i].nranks = n;
		l->cache[i].t_ref = NAN;
	}
	struct cached *c = &l->cache[i];
	c->used = ++l->clock;
	if (c->tr.flops)
		return i;
	int again = !isnan(c->t_ref),
	    got = l->ahead && !again ? cpl_ll_ahead_take(l->ahead, k, n, &c->tr, &c->t_ref, e) : 0;
	if (got < 0 || (!got && cpl_ll_ahead_profile(l->prof, l->m, l->ll_ref, k, n, &c->tr,
	                                             again ? NULL : &c->t_ref, e)))
		return -1;
	l->profiles++;
	l->again += again;
	if (i == l->ncache)
		l->ncache++;
	c->bytes = cpl_ll_ahead_bytes(&c->tr);
	if (!c->users)
		l->spare += c->bytes;
	return i;
}

static double ll_work(void *self, struct js_sim *sim, int j, const int *nodes, int n,
                      struct cmn_err *e)
{
	(void)e, (void)self, (void)nodes, (void)n;
	return js_sim_job(sim, j)->run_s;
}

/* Job j's flows dropped (ended, moved or resized). */
static void forget(struct linkload *l, int j)
{
	cpl_flows_free(l->flows[j]);
	l->flows[j] = NULL;
	struct cached *c = &l->cache[l->entry[j]];
	if (!--c->users && c->tr.flops)
		l->spare += c->bytes;
	l->entry[j] = -1;
	for (int q = 0; q < l->nwith; q++)
		if (l->with_flows[q] == j) {
			l->with_flows[q] = l->with_flows[--l->nwith];
			break;
		}
}

/* The workers that compute the profiles of the jobs that can run, in
 * the order of the jobs (submission: about that of their starts). */
static int ahead(struct linkload *l, struct js_sim *sim, struct cmn_err *e)
{
	size_t n = js_sim_njobs(sim), m = 0;
	int *kernel = malloc((n ? n : 1) * sizeof *kernel),
	    *ranks = malloc((n ? n : 1) * sizeof *ranks);
	int rc = !kernel || !ranks ? cmn_err_set(e, CMN_ENOMEM, "out of memory") : 0;
	for (size_t j = 0; !rc && j < n; j++) {
		int size = js_sim_job(sim, (int)j)->size;
		if (size >= 1 && size <= l->m->nodes) {
			kernel[m] = kernel_of(l, sim, (int)j);
			ranks[m++] = size;
		}
	}
	if (!rc)
		rc = cpl_ll_ahead_create(l->prof, l->m, l->threads - 1, kernel, ranks, m,
		                         CPL_LL_AHEAD_BYTES, &l->ahead, e);
	free(kernel), free(ranks);
	return rc;
}

static int setup(struct linkload *l, struct js_sim *sim, struct cmn_err *e)
{
	l->m = js_sim_machine(sim);
	if ((!l->ll && cpl_linkload_create(l->m, &l->ll, e)) ||
	    (!l->ll_ref && cpl_linkload_create(l->m, &l->ll_ref, e)))
		return e->code;
	if (l->flows)
		return 0;
	size_t n = js_sim_njobs(sim), z = n ? n : 1;
	l->njobs = n;
	l->flows = calloc(z, sizeof *l->flows);
	l->entry = malloc(z * sizeof *l->entry);
	l->with_flows = malloc(z * sizeof *l->with_flows);
	l->running = calloc(z, 1);
	l->built_moves = calloc(z, sizeof *l->built_moves);
	if (!l->flows || !l->entry || !l->with_flows || !l->running || !l->built_moves)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (size_t j = 0; j < n; j++)
		l->entry[j] = -1;
	return l->threads > 1 ? ahead(l, sim, e) : 0;
}

/* Running job j's flows, built when it has none (or moved). */
static int job_flows(struct linkload *l, struct js_sim *sim, int j, struct cmn_err *e)
{
	int nn;
	const int *nodes = js_sim_job_nodes(sim, j, &nn);
	if (!nodes)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	int moves = js_sim_placement_version(sim, j);
	if (l->flows[j] && l->built_moves[j] != moves) /* moved or resized: new routes */
		forget(l, j);
	if (l->flows[j])
		return 0;
	int k = kernel_of(l, sim, j), c = iteration(l, k, nn, e);
	if (c < 0) {
		char name[JS_JOB_NAME_BYTES];
		cmn_err_prefix(e, "job %s", js_job_name(js_sim_job(sim, j), name));
		return e->code;
	}
	struct cpl_job_load load = {nn, nodes, &l->cache[c].tr};
	if (cpl_flows_build(l->m, &load, &l->flows[j], e))
		return e->code;
	if (!l->cache[c].users++)
		l->spare -= l->cache[c].bytes;
	l->entry[j] = c;
	l->built_moves[j] = moves;
	l->with_flows[l->nwith++] = j;
	if (isnan(cpl_profiles_recorded_ref(sim, j)))
		return cpl_profiles_record(sim, j, cpl_profiles_name(l->prof, k), l->cache[c].t_ref,
		                           e);
	return 0;
}

static int ll_rates(void *self, struct js_sim *sim, double *rates, struct cmn_err *e)
{
	struct linkload *l = self;
	if (setup(l, sim, e))
		return e->code;
	size_t n = js_sim_rlen(sim);
	struct cpl_job_flows **jobs = malloc((n ? n : 1) * sizeof *jobs);
	double *t = malloc((n ? n : 1) * sizeof *t);
	int rc = !jobs || !t ? cmn_err_set(e, CMN_ENOMEM, "out of memory") : 0;
	for (size_t i = 0; !rc && i < n; i++) {
		int j = js_sim_rjob(sim, i);
		l->running[j] = 1;
		if (!(rc = job_flows(l, sim, j, e)))
			jobs[i] = l->flows[j];
	}
	if (!rc)
		rc = cpl_linkload_run(l->ll, jobs, (int)n, t, e);
	for (size_t i = 0; !rc && i < n; i++) {
		double t_ref = l->cache[l->entry[js_sim_rjob(sim, i)]].t_ref;
		rates[i] = t[i] > 0 && t_ref > 0 ? t_ref / t[i] : 1;
	}
	/* forget the jobs that ended */
	for (int q = 0; q < l->nwith;) {
		int j = l->with_flows[q];
		if (l->running[j]) {
			l->running[j] = 0;
			q++;
		} else {
			forget(l, j);
		}
	}
	for (size_t i = 0; i < n; i++)
		l->running[js_sim_rjob(sim, i)] = 0;
	trim(l);
	free(jobs);
	free(t);
	return rc;
}

/* A resized job's iteration time scales as its profile's iteration at the
 * reference placement (strong scaling of the trace); where it runs and
 * what runs beside it then come through the rates. */
static double ll_resize_iter(void *self, struct js_sim *sim, int j, const int *nodes, int n,
                             int from_n, double from_iter_s, struct cmn_err *e)
{
	(void)nodes;
	struct linkload *l = self;
	if (setup(l, sim, e))
		return -1;
	int k = kernel_of(l, sim, j), a = iteration(l, k, from_n, e);
	if (a < 0)
		return -1;
	double t_from = l->cache[a].t_ref;
	int b = iteration(l, k, n, e);
	if (b < 0)
		return -1;
	trim(l);
	return t_from > 0 ? from_iter_s * l->cache[b].t_ref / t_from : from_iter_s;
}

static void ll_report(void *self, FILE *f)
{
	const struct linkload *l = self;
	struct cpl_linkload_stats s = {0};
	if (l->ll)
		cpl_linkload_stats(l->ll, &s);
	fprintf(f,
	        "linkload: %ld sharing computations, %.3g jobs computed (%.3g parts; %.3g recorded "
	        "drops replayed, %.3g flows' moves into fragments, %.3g computations redone), "
	        "%.3g filling events (%.3g link updates, "
	        "%.3g part updates); %ld traffics computed (%ld again after a drop), %d kept\n",
	        s.runs, s.jobs, s.parts, s.replayed, s.splits, s.redone, s.events, s.link_updates,
	        s.settles, l->profiles, l->again, l->ncache);
}

static const char *const ll_samples[] = {"linkload:class=S",
                                         "linkload:class=S,kernels=cg/is,threads=1", NULL};

const struct js_runtime_ops cpl_rt_linkload_ops = {
    .base = {"linkload",
             "emergent: iteration time from every running job's traffic routed on the "
             "machine, max-min shares of link bandwidth; rate = reference / actual",
             ll_params, ll_samples},
    .create = ll_create,
    .columns = cpl_profile_columns,
    .destroy = ll_destroy,
    .work_s = ll_work,
    .rates = ll_rates,
    .report = ll_report,
    .run_end = ll_run_end,
    .resize_iter = ll_resize_iter,
    .estimate = ll_estimate,
};

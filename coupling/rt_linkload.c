/* Run-time model "linkload": a job's progress rate is t_ref / t_now, where
 * t_now is one iteration of its application profile on its nodes with every
 * running job's traffic sharing the links (linkload.h) and t_ref the same
 * iteration alone on the reference placement (nodes 0..n-1: contiguous).
 * Its work is its log run time (the run time at the reference placement).
 * Profiles: jobprof.h ("none", without communication, has rate 1).
 * Iterations are generated once per
 * (kernel, rank count) and cached. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../jobsched/runtime.h"
#include "jobprof.h"
#include "linkload.h"
#include "profile.h"

static const struct cmn_param_def ll_params[] = {
    CPL_PROFILE_PARAMS,
    {NULL},
};

struct cached {
	int kernel, nranks;
	struct cpl_iteration it;
	double t_ref;
};

struct linkload {
	struct cpl_profiles *prof;
	struct cached *cache;
	int ncache, capcache;
	const struct plat_machine *m;
	/* the flows and routes of each running job, built when it first runs */
	struct cpl_job_flows **flows; /* by job index, njobs entries */
	int *cached_jobs, ncached;
	int *built_moves; /* by job index: its placement version when its flows were built */
	size_t njobs;
	char *running;
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
	*self = l;
	return 0;
}

static void ll_destroy(void *self)
{
	struct linkload *l = self;
	for (int i = 0; i < l->ncached; i++) {
		cpl_flows_free(l->flows[l->cached_jobs[i]]);
		free(l->flows[l->cached_jobs[i]]);
	}
	free(l->flows);
	free(l->cached_jobs);
	free(l->built_moves);
	free(l->running);
	for (int i = 0; i < l->ncache; i++)
		cpl_iteration_free(&l->cache[i].it);
	free(l->cache);
	cpl_profiles_free(l->prof);
	free(l);
}

static int kernel_of(const struct linkload *l, const struct js_sim *sim, int j)
{
	return cpl_profiles_of(l->prof, js_sim_job(sim, j), j);
}

/* The index of the cached iteration (and reference time) of kernel k on n
 * ranks, or -1 (an index: the cache moves as it grows). */
static int iteration(struct linkload *l, int k, int n, struct cmn_err *e)
{
	for (int i = 0; i < l->ncache; i++)
		if (l->cache[i].kernel == k && l->cache[i].nranks == n)
			return i;
	if (l->ncache == l->capcache) {
		int cap = l->capcache ? 2 * l->capcache : 16;
		struct cached *c = realloc(l->cache, (size_t)cap * sizeof *c);
		if (!c)
			return cmn_err_set(e, CMN_ENOMEM, "out of memory"), -1;
		l->cache = c;
		l->capcache = cap;
	}
	struct cached *c = &l->cache[l->ncache];
	c->kernel = k;
	c->nranks = n;
	if (cpl_iteration_of(l->prof, k, n, &c->it, e))
		return -1;
	int *ref = malloc((size_t)n * sizeof *ref);
	if (!ref) {
		cpl_iteration_free(&c->it);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory"), -1;
	}
	for (int r = 0; r < n; r++)
		ref[r] = r;
	struct cpl_job_load alone = {n, ref, c->it.matrix, c->it.flops};
	int rc = cpl_linkload_times(l->m, &alone, 1, &c->t_ref, e);
	free(ref);
	if (rc) {
		cpl_iteration_free(&c->it);
		return -1;
	}
	return l->ncache++;
}

static double ll_work(void *self, struct js_sim *sim, int j, const int *nodes, int n,
                      struct cmn_err *e)
{
	(void)e, (void)self, (void)nodes, (void)n;
	return js_sim_job(sim, j)->run_s;
}

static int ll_rates(void *self, struct js_sim *sim, double *rates, struct cmn_err *e)
{
	struct linkload *l = self;
	l->m = js_sim_machine(sim);
	size_t n = js_sim_rlen(sim);
	if (!l->flows) {
		l->njobs = js_sim_njobs(sim);
		l->flows = calloc(l->njobs ? l->njobs : 1, sizeof *l->flows);
		l->cached_jobs = malloc((l->njobs ? l->njobs : 1) * sizeof *l->cached_jobs);
		l->running = calloc(l->njobs ? l->njobs : 1, 1);
		l->built_moves = calloc(l->njobs ? l->njobs : 1, sizeof *l->built_moves);
		if (!l->flows || !l->cached_jobs || !l->running || !l->built_moves)
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	const struct cpl_job_flows **jobs = malloc((n ? n : 1) * sizeof *jobs);
	int *c = malloc((n ? n : 1) * sizeof *c);
	double *t = malloc((n ? n : 1) * sizeof *t);
	int rc = 0;
	if (!jobs || !c || !t)
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < n; i++) { /* profiles first: the cache may move */
		int j = js_sim_rjob(sim, i), nn = js_sim_job_nnodes(sim, j);
		int k = kernel_of(l, sim, j);
		if ((c[i] = iteration(l, k, nn, e)) < 0) {
			rc = e->code;
			cmn_err_prefix(e, "job %" PRIu64, js_sim_job(sim, j)->id);
		} else if (isnan(js_sim_job_result(sim, j)->iter_ref_s))
			js_sim_set_iter(sim, j, cpl_profiles_name(l->prof, k),
			                l->cache[c[i]].t_ref);
	}
	for (size_t i = 0; !rc && i < n; i++) {
		int j = js_sim_rjob(sim, i), nn;
		const int *nodes = js_sim_job_nodes(sim, j, &nn);
		if (!nodes) {
			rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
			break;
		}
		l->running[j] = 1;
		int moves = js_sim_placement_version(sim, j);
		if (l->flows[j] && l->built_moves[j] != moves) { /* moved or resized: new routes */
			cpl_flows_free(l->flows[j]);
			free(l->flows[j]);
			l->flows[j] = NULL;
			for (int q = 0; q < l->ncached; q++)
				if (l->cached_jobs[q] == j)
					l->cached_jobs[q] = l->cached_jobs[--l->ncached];
		}
		if (!l->flows[j]) {
			l->built_moves[j] = moves;
			struct cpl_job_load load = {nn, nodes, l->cache[c[i]].it.matrix,
			                            l->cache[c[i]].it.flops};
			if (!(l->flows[j] = malloc(sizeof **l->flows))) {
				rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
				break;
			}
			if ((rc = cpl_flows_build(l->m, &load, l->flows[j], e))) {
				free(l->flows[j]);
				l->flows[j] = NULL;
				break;
			}
			l->cached_jobs[l->ncached++] = j;
		}
		l->flows[j]->flops = l->cache[c[i]].it.flops;
		jobs[i] = l->flows[j];
	}
	if (!rc)
		rc = cpl_linkload_times_flows(l->m, jobs, (int)n, t, e);
	for (size_t i = 0; !rc && i < n; i++)
		rates[i] = t[i] > 0 && l->cache[c[i]].t_ref > 0 ? l->cache[c[i]].t_ref / t[i] : 1;
	/* forget the jobs that ended */
	for (int i = 0; i < l->ncached;) {
		int j = l->cached_jobs[i];
		if (l->running[j]) {
			l->running[j] = 0;
			i++;
			continue;
		}
		cpl_flows_free(l->flows[j]);
		free(l->flows[j]);
		l->flows[j] = NULL;
		l->cached_jobs[i] = l->cached_jobs[--l->ncached];
	}
	free(jobs);
	free(c);
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
	l->m = js_sim_machine(sim);
	int k = kernel_of(l, sim, j), a = iteration(l, k, from_n, e);
	if (a < 0)
		return -1;
	double t_from = l->cache[a].t_ref;
	int b = iteration(l, k, n, e);
	if (b < 0)
		return -1;
	return t_from > 0 ? from_iter_s * l->cache[b].t_ref / t_from : from_iter_s;
}

const struct js_runtime_ops cpl_rt_linkload_ops = {
    .base = {"linkload",
             "emergent: iteration time from every running job's traffic routed on the "
             "machine, max-min shares of link bandwidth; rate = reference / actual",
             ll_params},
    .create = ll_create,
    .destroy = ll_destroy,
    .work_s = ll_work,
    .rates = ll_rates,
    .resize_iter = ll_resize_iter,
};

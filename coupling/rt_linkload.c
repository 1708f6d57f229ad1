/* Run-time model "linkload": a job's progress rate is t_ref / t_now, where
 * t_now is one iteration of its application profile on its nodes with every
 * running job's traffic sharing the links (linkload.h) and t_ref the same
 * iteration alone on the reference placement (nodes 0..n-1: contiguous).
 * Its work is its log run time (the run time at the reference placement).
 * Profiles: a job whose executable number (or user id, by=user) a map file
 * names gets that kernel; every other job one of the listed kernels by a
 * seeded draw with equal weights on its index in the workload (the same job
 * always gets the same kernel); class as given, rank count = its node
 * count; "none" is a kernel without communication (rate 1). A map file has
 * one "KEY KERNEL" pair per line ('#' comments). Iterations are generated once per
 * (kernel, rank count) and cached. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../apptraces/gen.h"
#include "../jobsched/runtime.h"
#include "linkload.h"
#include "profile.h"
#include "rt_linkload.h"

#define MAX_KERNELS 16

static const struct cmn_param_def ll_params[] = {
    {"kernels", CMN_PT_STRING, "cg/mg/ft/is/lu", 0, 0, NULL,
     "profiles drawn for the jobs: NPB-like kernels separated by '/', or none"},
    {"class", CMN_PT_CHOICE, "A", 0, 0, "S|W|A|B|C|D", "problem class of every profile"},
    {"seed", CMN_PT_INT, "1", 0, 2147483647, NULL, "seed of the draw of a job's kernel"},
    {"map", CMN_PT_STRING, "none", 0, 0, NULL,
     "file of KEY KERNEL lines (none: no map): listed jobs get that kernel"},
    {"by", CMN_PT_CHOICE, "exe", 0, 0, "exe|user", "the key: executable number or user id"},
    {NULL},
};

struct cached {
	int kernel, nranks;
	struct cpl_iteration it;
	double t_ref;
};

struct map_entry {
	long key;
	int kernel;
};

struct linkload {
	char kernels[MAX_KERNELS][8];
	int nk, ndraw; /* the first ndraw kernels are drawn; the others come from the map */
	struct map_entry *map;
	int nmap, by_user;
	char cls;
	unsigned long seed;
	struct cached *cache;
	int ncache, capcache;
	const struct plat_machine *m;
	/* the flows and routes of each running job, built when it first runs */
	struct cpl_job_flows **flows; /* by job index, njobs entries */
	int *cached_jobs, ncached;
	size_t njobs;
	char *running;
};

/* 0 when name is "none" or a generator's kernel, else an error listing them. */
static int known_kernel(const char *name, struct cmn_err *e)
{
	if (strcmp(name, "none") == 0 ||
	    cmn_registry_find((const void *const *)trace_gen_registry, name, "kernel", e))
		return 0;
	return e->code;
}

static int kernel_index(struct linkload *l, const char *name)
{
	for (int i = 0; i < l->nk; i++)
		if (strcmp(l->kernels[i], name) == 0)
			return i;
	if (l->nk == MAX_KERNELS || strlen(name) >= sizeof l->kernels[0])
		return -1;
	snprintf(l->kernels[l->nk], sizeof l->kernels[0], "%s", name);
	return l->nk++;
}

/* The map file: "KEY KERNEL" lines; errors name file:line. */
static int read_map(struct linkload *l, const char *path, struct cmn_err *e)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return cmn_err_set(e, CMN_EIO, "linkload: map %s: cannot open", path);
	char line[512];
	int rc = 0, cap = 0;
	for (long ln = 1; !rc && fgets(line, sizeof line, f); ln++) {
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char name[64], extra[8];
		long key;
		int got = sscanf(line, "%ld %63s %7s", &key, name, extra);
		if (got <= 0 && strspn(line, " \t\r\n") == strlen(line))
			continue;
		if (got != 2) {
			rc = cmn_err_set(e, CMN_EINPUT, "%s:%ld: expected 'KEY KERNEL'", path, ln);
			break;
		}
		if (known_kernel(name, e)) {
			cmn_err_prefix(e, "%s:%ld", path, ln); /* names the known kernels */
			e->code = rc = CMN_EINPUT;
			break;
		}
		int k = kernel_index(l, name);
		if (k < 0) {
			rc = cmn_err_set(e, CMN_EINPUT, "%s:%ld: more than %d kernels", path, ln,
			                 MAX_KERNELS);
			break;
		}
		for (int i = 0; i < l->nmap && !rc; i++)
			if (l->map[i].key == key)
				rc = cmn_err_set(e, CMN_EINPUT, "%s:%ld: key %ld mapped twice",
				                 path, ln, key);
		if (!rc && l->nmap == cap) {
			cap = cap ? 2 * cap : 32;
			struct map_entry *m = realloc(l->map, (size_t)cap * sizeof *m);
			if (!m)
				rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
			else
				l->map = m;
		}
		if (!rc)
			l->map[l->nmap++] = (struct map_entry){key, k};
	}
	fclose(f);
	return rc;
}

static int ll_create(const struct cmn_params *p, void **self, struct cmn_err *e)
{
	struct linkload *l = calloc(1, sizeof *l);
	if (!l)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	char list[CMN_PARAM_STR];
	snprintf(list, sizeof list, "%s", cmn_params_str(p, "kernels"));
	for (char *tok = strtok(list, "/"); tok; tok = strtok(NULL, "/")) {
		if (l->nk == MAX_KERNELS || strlen(tok) >= sizeof l->kernels[0]) {
			free(l);
			return cmn_err_set(e, CMN_EUSAGE,
			                   "linkload: kernels=%s: too many or too long",
			                   cmn_params_str(p, "kernels"));
		}
		snprintf(l->kernels[l->nk++], sizeof l->kernels[0], "%s", tok);
	}
	for (int i = 0; i < l->nk; i++) { /* every kernel known before the run starts */
		if (known_kernel(l->kernels[i], e)) {
			free(l);
			cmn_err_prefix(e, "linkload: kernels");
			return e->code;
		}
	}
	if (!l->nk) {
		free(l);
		return cmn_err_set(e, CMN_EUSAGE, "linkload: give at least one kernel");
	}
	l->ndraw = l->nk;
	l->by_user = strcmp(cmn_params_str(p, "by"), "user") == 0;
	if (strcmp(cmn_params_str(p, "map"), "none") != 0 &&
	    read_map(l, cmn_params_str(p, "map"), e)) {
		free(l->map);
		free(l);
		return e->code;
	}
	l->cls = cmn_params_str(p, "class")[0];
	l->seed = (unsigned long)cmn_params_num(p, "seed");
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
	free(l->running);
	for (int i = 0; i < l->ncache; i++)
		cpl_iteration_free(&l->cache[i].it);
	free(l->cache);
	free(l->map);
	free(l);
}

static int kernel_of(const struct linkload *l, const struct js_sim *sim, int j)
{
	if (l->nmap) {
		long key = (long)js_sim_job(sim, j)->f[l->by_user ? JS_F_USER : JS_F_EXE];
		for (int i = 0; i < l->nmap; i++)
			if (l->map[i].key == key)
				return l->map[i].kernel;
	}
	uint64_t z = (uint64_t)l->seed * 0x9E3779B97F4A7C15ULL + (uint64_t)j + 1; /* splitmix64 */
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	z ^= z >> 31;
	return (int)(z % (uint64_t)l->ndraw);
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
	if (strcmp(l->kernels[k], "none") == 0) { /* compute only: one flop per rank */
		c->it.nranks = n;
		c->it.matrix = calloc((size_t)n * (size_t)n, sizeof *c->it.matrix);
		c->it.flops = malloc((size_t)n * sizeof *c->it.flops);
		if (!c->it.matrix || !c->it.flops) {
			cpl_iteration_free(&c->it);
			return cmn_err_set(e, CMN_ENOMEM, "out of memory"), -1;
		}
		for (int r = 0; r < n; r++)
			c->it.flops[r] = 1;
	} else if (cpl_iteration_of(l->kernels[k], l->cls, n, &c->it, e)) {
		return -1;
	}
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

static double ll_work(void *self, struct js_sim *sim, int j, const int *nodes, int n)
{
	(void)self, (void)nodes, (void)n;
	return js_sim_job(sim, j)->run_s;
}

static int ll_rates(void *self, const struct js_sim *sim, double *rates, struct cmn_err *e)
{
	struct linkload *l = self;
	l->m = js_sim_machine(sim);
	size_t n = js_sim_rlen(sim);
	if (!l->flows) {
		l->njobs = js_sim_njobs(sim);
		l->flows = calloc(l->njobs ? l->njobs : 1, sizeof *l->flows);
		l->cached_jobs = malloc((l->njobs ? l->njobs : 1) * sizeof *l->cached_jobs);
		l->running = calloc(l->njobs ? l->njobs : 1, 1);
		if (!l->flows || !l->cached_jobs || !l->running)
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	const struct cpl_job_flows **jobs = malloc((n ? n : 1) * sizeof *jobs);
	int *c = malloc((n ? n : 1) * sizeof *c);
	double *t = malloc((n ? n : 1) * sizeof *t);
	int rc = 0;
	if (!jobs || !c || !t)
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < n; i++) { /* profiles first: the cache may move */
		int j = js_sim_rjob(sim, i), nn;
		js_sim_job_nodes(sim, j, &nn);
		if ((c[i] = iteration(l, kernel_of(l, sim, j), nn, e)) < 0)
			rc = e->code;
	}
	for (size_t i = 0; !rc && i < n; i++) {
		int j = js_sim_rjob(sim, i), nn;
		const int *nodes = js_sim_job_nodes(sim, j, &nn);
		l->running[j] = 1;
		if (!l->flows[j]) {
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

const struct js_runtime_ops cpl_rt_linkload_ops = {
    .base = {"linkload",
             "emergent: iteration time from every running job's traffic routed on the "
             "machine, max-min shares of link bandwidth; rate = reference / actual",
             ll_params},
    .create = ll_create,
    .destroy = ll_destroy,
    .work_s = ll_work,
    .rates = ll_rates,
};

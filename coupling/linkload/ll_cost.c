/* The linkload model's memory bound (ll_cost.h): the profiles of the
 * workload, each one's bytes from its generator's description, and the
 * jobs that can run at once. */
#include <inttypes.h>
#include <stdlib.h>

#include "linkload.h"
#include "ll_cost.h"
#include "ll_part.h"

#define MB (1024.0 * 1024)

struct prof {
	int kernel, ranks;
	double jobs;          /* of the workload */
	size_t first;         /* its first job's index */
	int grouped;          /* has pairs counted in aggregate */
	double flows;         /* one by one */
	double held, traffic; /* bytes while a job runs it; of them its traffic's */
	double gen;           /* bytes on top while its traffic is generated */
};

static int by_profile(const void *a, const void *b)
{
	const struct prof *x = a, *y = b;
	if (x->kernel != y->kernel)
		return (x->kernel > y->kernel) - (x->kernel < y->kernel);
	if (x->ranks != y->ranks)
		return (x->ranks > y->ranks) - (x->ranks < y->ranks);
	return (x->first > y->first) - (x->first < y->first);
}

/* Bytes per node, largest first. */
static int by_density(const void *a, const void *b)
{
	const struct prof *x = a, *y = b;
	double u = x->ranks > 0 ? x->held / x->ranks : 0, v = y->ranks > 0 ? y->held / y->ranks : 0;
	return (u < v) - (u > v);
}

/* Profile p's flows and bytes on m (maxr: its longest route). */
static void bytes_of(const struct cpl_profiles *pr, int tree, int maxr, struct prof *p)
{
	struct trace_gen_sets sets;
	double n = p->ranks, pairs = cpl_profiles_pairs(pr, p->kernel, p->ranks, &sets);
	double grouped = 0, members = 0, listed = pairs;
	for (int i = 0; i < sets.n; i++) {
		double size = sets.set[i].size, count = sets.set[i].count;
		if (size == n) /* a dense part: its pairs are not listed */
			listed = pairs - n * (n - 1) + CPL_LL_LISTED_PER_RANK * n;
		if (tree && p->ranks >= CPL_LL_TREE_RANKS &&
		    (size == n || size >= CPL_LL_GROUP_RANKS)) {
			grouped += count * size * (size - 1);
			members += count * size;
		}
	}
	p->flows = pairs > grouped ? pairs - grouped : 0;
	p->grouped = members > 0;
	double flows = p->flows * (CPL_LL_FLOW_BYTES + CPL_LL_CROSSING_BYTES * maxr),
	       traffic = CPL_LL_RANK_BYTES * n + CPL_LL_PAIR_BYTES * listed;
	p->traffic = traffic;
	p->held = flows + CPL_LL_MEMBER_BYTES * members + traffic;
	/* its reference placement's flows come and go before the job's own */
	p->gen = CPL_LL_GEN_RANK_BYTES * n + CPL_LL_GEN_PAIR_BYTES * listed;
}

/* The workload's profiles, one per (kernel, ranks), into *out. */
static int profiles_of(const struct cpl_profiles *pr, const struct js_workload *w,
                       struct prof **out, int *np)
{
	size_t n = w->n;
	struct prof *p = malloc((n ? n : 1) * sizeof *p);
	if (!p)
		return -1;
	for (size_t j = 0; j < n; j++)
		p[j] = (struct prof){.kernel = cpl_profiles_of(pr, &w->jobs[j], (int)j),
		                     .ranks = w->jobs[j].size,
		                     .jobs = 1,
		                     .first = j};
	qsort(p, n, sizeof *p, by_profile);
	size_t k = 0;
	for (size_t j = 0; j < n; j++)
		if (k && p[k - 1].kernel == p[j].kernel && p[k - 1].ranks == p[j].ranks)
			p[k - 1].jobs++;
		else
			p[k++] = p[j];
	*out = p;
	*np = (int)k;
	return 0;
}

int cpl_ll_cost_of(const struct cpl_profiles *pr, const struct plat_machine *m,
                   const struct js_workload *w, int workers, struct cpl_ll_cost *c,
                   struct cmn_err *e)
{
	struct prof *p;
	int np;
	*c = (struct cpl_ll_cost){0};
	if (profiles_of(pr, w, &p, &np))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	c->njobs = w->n;
	c->profiles = np;
	c->nodes = m->nodes;
	c->tree = cpl_ll_tree_machine(m);
	int maxr = plat_max_route(m);
	double kept = 0;
	for (int i = 0; i < np; i++) {
		bytes_of(pr, c->tree, maxr, &p[i]);
		if (p[i].gen > c->transient)
			c->transient = p[i].gen;
		kept += p[i].traffic;
		if (p[i].held > c->big_bytes ||
		    (p[i].held == c->big_bytes && w->jobs[p[i].first].id < c->big_id)) {
			c->big_bytes = p[i].held;
			c->big_id = w->jobs[p[i].first].id;
			c->big_kernel = p[i].kernel;
			c->big_ranks = p[i].ranks;
			c->big_flows = p[i].flows;
			c->big_grouped = p[i].grouped;
		}
	}
	/* the fractional knapsack: the densest profiles first, as many of
	 * their jobs as the nodes left hold, then a share of the next */
	qsort(p, (size_t)np, sizeof *p, by_density);
	double room = m->nodes;
	for (int i = 0; i < np && room > 0; i++) {
		if (p[i].ranks < 1 || p[i].ranks > m->nodes)
			continue; /* never runs */
		double take = p[i].jobs * p[i].ranks <= room ? p[i].jobs : room / p[i].ranks;
		c->running += take * p[i].held;
		c->at_once += take;
		room -= take * p[i].ranks;
	}
	c->spare = kept < CPL_LL_SPARE_BYTES ? kept : CPL_LL_SPARE_BYTES;
	if (workers > 0)
		c->ahead = (kept < CPL_LL_AHEAD_BYTES ? kept : CPL_LL_AHEAD_BYTES) +
		           workers * c->transient;
	c->base = CPL_LL_BASE_BYTES + CPL_LL_PER_NODE_BYTES * m->nodes +
	          CPL_LL_PER_JOB_BYTES * (double)w->n;
	c->total = c->running + c->transient + c->spare + c->ahead + c->base;
	free(p);
	return 0;
}

void cpl_ll_cost_print(const struct cpl_ll_cost *c, const struct cpl_profiles *pr, double max_mb,
                       FILE *f)
{
	fprintf(f,
	        "linkload: estimate: %zu jobs, %d profiles; memory peak up to %.0f MB "
	        "(max_memory %g): running jobs %.1f MB (up to %.4g at once on %d nodes), "
	        "a job's start %.1f MB, kept traffics %.1f MB, profiles ahead %.1f MB, process "
	        "and records %.1f MB; "
	        "the largest job %" PRIu64 ", %s on %d ranks, %.4g flows one by one%s, %.1f MB\n",
	        c->njobs, c->profiles, c->total / MB, max_mb, c->running / MB, c->at_once, c->nodes,
	        c->transient / MB, c->spare / MB, c->ahead / MB, c->base / MB, c->big_id,
	        c->njobs ? cpl_profiles_name(pr, c->big_kernel) : "-", c->big_ranks, c->big_flows,
	        c->big_grouped ? " (all-pairs sets in aggregate)" : "", c->big_bytes / MB);
}

int cpl_ll_cost_check(const struct cpl_ll_cost *c, const struct cpl_profiles *pr, double max_mb,
                      struct cmn_err *e)
{
	if (max_mb <= 0 || c->total <= max_mb * MB)
		return 0;
	return cmn_err_set(
	    e, CMN_ESTATE,
	    "linkload: the run may need up to %.0f MB (what dominates: the jobs that can run at "
	    "once, up to %.4g on the %d nodes, %.0f MB; the largest, job %" PRIu64
	    " of %d ranks on kernel %s: %.4g flows one by one%s, %.0f MB; a job's start %.0f MB; "
	    "the process and %zu job records %.0f MB), more than max_memory=%g: bound it with "
	    "fewer or smaller jobs (--first N, a synthetic workload's n2=), kernels that "
	    "connect fewer pairs (kernels=.., e.g. without is and ft)%s, or raise the limit "
	    "(linkload:max_memory=MB, 0: none)",
	    c->total / MB, c->at_once, c->nodes, c->running / MB, c->big_id, c->big_ranks,
	    cpl_profiles_name(pr, c->big_kernel), c->big_flows,
	    c->big_grouped ? " (all-pairs sets in aggregate)" : "", c->big_bytes / MB,
	    c->transient / MB, c->njobs, c->base / MB, max_mb,
	    c->tree ? "" : ", a k-ary n-tree machine where all-to-all is counted in aggregate");
}

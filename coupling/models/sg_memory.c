/* The simgrid model's all-to-all messages at once (sg_memory.h). */
#include <stdlib.h>

#include "../../netsim/netsim.h"
#include "sg_memory.h"

/* A job with linear all-to-alls: the messages it posts at once, its nodes. */
struct a2a {
	double msgs;
	int nodes;
	long job;
};

/* Most messages per node first; then larger jobs, then lower indices (a
 * total order: the same sum whatever qsort does with ties). */
static int by_density(const void *pa, const void *pb)
{
	const struct a2a *a = pa, *b = pb;
	double da = a->msgs / a->nodes, db = b->msgs / b->nodes;
	if (da != db)
		return da > db ? -1 : 1;
	if (a->nodes != b->nodes)
		return a->nodes > b->nodes ? -1 : 1;
	return (a->job > b->job) - (a->job < b->job);
}

/* The most messages any set of the jobs within `nodes` nodes posts at once
 * is at most the fractional knapsack's: jobs by messages per node, whole
 * while they fit, the next one in part. */
static double knapsack(struct a2a *v, size_t n, int nodes)
{
	qsort(v, n, sizeof *v, by_density);
	double sum = 0, left = nodes;
	for (size_t i = 0; i < n && left > 0; i++) {
		double take = v[i].nodes < left ? v[i].nodes : left;
		sum += v[i].msgs * take / v[i].nodes;
		left -= take;
	}
	return sum;
}

int cpl_sg_memory_check(struct cpl_profiles *prof, const struct js_workload *w, int machine_nodes,
                        const struct cpl_sg_memory_opts *o, FILE *notes, struct cmn_err *e)
{
	if (o->max_mb <= 0)
		return 0;
	if (cpl_profiles_bind_workload(prof, w, e))
		return e->code;
	struct a2a *v = malloc((w->n ? w->n : 1) * sizeof *v);
	if (!v)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	size_t nv = 0;
	double most = 0; /* the largest job's */
	long big = -1;
	long unknown = 0; /* jobs whose traces decide */
	for (size_t j = 0; j < w->n; j++) {
		int k = cpl_profiles_of(prof, &w->jobs[j], (int)j);
		double at = cpl_profiles_alltoall(prof, k, w->jobs[j].size);
		unknown += at < 0;
		if (at <= 0)
			continue;
		if (at > most)
			most = at, big = (long)j;
		v[nv++] = (struct a2a){at, w->jobs[j].size, (long)j};
	}
	if (unknown && notes)
		fprintf(notes,
		        "simgrid: estimate: %ld jobs' all-to-alls not counted (their traces, "
		        "recorded or a workload's smpi profiles, are not read before the run)\n",
		        unknown);
	if (big < 0) {
		free(v);
		return 0;
	}
	/* one replay: a job alone, or (shared) a set of running jobs */
	double together = knapsack(v, nv, machine_nodes);
	free(v);
	double one = o->shared ? together : most, at_once = one;
	const char *how =
	    o->shared ? "one replay of running jobs together (mode=shared)" : "one job's replay";
	if (o->ahead) {
		/* a rate update's replays at once: isolated, each running job's
		 * reference and placement; shared, its groups (disjoint sets of the
		 * running jobs); per times each, at most NET_SG_CHILDREN children */
		double ahead = o->shared ? o->per * together : 2.0 * o->per * together;
		double children = NET_SG_CHILDREN * o->per * most;
		ahead = ahead < children ? ahead : children;
		if (ahead > at_once) {
			at_once = ahead;
			how = "a rate update's replays run together (ahead=yes)";
		}
	}
	double mb = at_once * NET_SG_MESSAGE_BYTES / 1048576.0;
	if (notes)
		fprintf(notes,
		        "simgrid: estimate: linear all-to-alls hold up to %.3g messages at once "
		        "in %s, about %.0f MB (the largest job's alone %.3g; max_memory %ld)\n",
		        at_once, how, mb, most, o->max_mb);
	if (mb <= (double)o->max_mb)
		return 0;
	const struct js_job *jb = &w->jobs[big];
	char name[JS_JOB_NAME_BYTES];
	int k = cpl_profiles_of(prof, jb, (int)big), kernel = k < cpl_profiles_count(prof);
	return cmn_err_set(
	    e, CMN_ESTATE,
	    "simgrid: linear all-to-alls would post up to %.3g messages at once in %s (the "
	    "largest job, %s: %d ranks, %s %s, %.3g alone), about %.0f MB in SimGrid (%.1f "
	    "kB a message), more than max_memory=%ld: replay all-to-alls as rings "
	    "(alltoall=ring)%s%s, or raise the limit (simgrid:max_memory=MB, 0: none)",
	    at_once, how, js_job_name(jb, name), jb->size, kernel ? "kernel" : "profile",
	    cpl_profiles_name(prof, k), most, mb, NET_SG_MESSAGE_BYTES / 1024, o->max_mb,
	    kernel ? ", leave out the kernels with all-to-alls (kernels=.., without ft and is)"
	           : "",
	    at_once > one ? ", replay them one by one (ahead=no)" : "");
}

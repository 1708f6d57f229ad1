/* Replays of job profiles (replay.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../apptraces/gen.h"
#include "../../common/cleanup.h"
#include "../../platforms/xml_write.h"
#include "replay.h"

struct tr {
	int kernel, nranks, iters; /* iters 0: a recorded trace (any count) */
	struct trace *t;
};

struct cpl_replay {
	const struct cpl_profiles *prof;
	const struct net_engine_ops *ops;
	void *eng;
	char xml[256];
	int timed, ring;
	struct tr *traces;
	int ntraces, captraces;
	long evaluations;
};

int cpl_replay_open(const struct plat_machine *m, const char *engine,
                    const struct cpl_replay_opts *o, const struct cpl_profiles *prof,
                    struct cpl_replay **out, struct cmn_err *e)
{
	struct cpl_replay *rp = calloc(1, sizeof *rp);
	if (!rp)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	rp->prof = prof;
	rp->timed = o->timed;
	rp->ring = o->ring;
	int rc = 0;
	const char *eparams;
	rp->ops = net_engine_find(engine, &eparams, e);
	if (!rp->ops)
		rc = e->code;
	/* a machine without a SimGrid form of its own (one read through
	 * SimGrid's routes) runs on the file it was read from, its hosts named
	 * as there */
	int own = !m->ops->xml_write && m->source_xml;
	if (!rc && !own) {
		if (cmn_tmp_file(rp->xml, sizeof rp->xml, "cosim-platform"))
			rc = cmn_err_set(e, CMN_EIO, "cannot create a temporary platform file");
	}
	struct plat_xml_opts xo = {"SPLITDUPLEX", "cosim (a run-time model's platform)"};
	if (!rc && !own)
		rc = plat_xml_write(m, &xo, rp->xml, e);
	/* no link loads: the models never read them, and SimGrid's plugin
	 * resets every link's record in each evaluation's child, a
	 * copy-on-write page fault per page (48% of a small replay's time) */
	static const char *const no_cross[] = {"network/crosstraffic:0", NULL};
	struct net_engine_args a = {m,
	                            own ? m->source_xml : rp->xml,
	                            o->no_crosstraffic ? no_cross : NULL,
	                            1,
	                            o->ring,
	                            eparams,
	                            o->in_process,
	                            own ? (const char *const *)m->host_names : NULL};
	if (!rc)
		rc = rp->ops->create(&a, &rp->eng, e);
	if (rc) {
		cpl_replay_close(rp);
		return rc;
	}
	*out = rp;
	return 0;
}

void cpl_replay_close(struct cpl_replay *rp)
{
	if (!rp)
		return;
	if (rp->eng)
		rp->ops->destroy(rp->eng);
	if (rp->xml[0])
		cmn_cleanup_remove(rp->xml);
	for (int i = 0; i < rp->ntraces; i++)
		trace_free(rp->traces[i].t);
	free(rp->traces);
	free(rp);
}

const struct trace *cpl_replay_trace(struct cpl_replay *rp, int k, int n, int iters,
                                     struct cmn_err *e)
{
	for (int i = 0; i < rp->ntraces; i++)
		if (rp->traces[i].kernel == k && rp->traces[i].nranks == n &&
		    (rp->traces[i].iters == iters || rp->traces[i].iters == 0))
			return rp->traces[i].t;
	if (rp->ntraces == rp->captraces) {
		int cap = rp->captraces ? 2 * rp->captraces : 16;
		struct tr *t = realloc(rp->traces, (size_t)cap * sizeof *t);
		if (!t)
			return cmn_err_set(e, CMN_ENOMEM, "out of memory"), NULL;
		rp->traces = t;
		rp->captraces = cap;
	}
	struct trace *t;
	int recorded;
	if (cpl_profiles_trace(rp->prof, k, n, iters, &t, &recorded, e))
		return NULL;
	rp->traces[rp->ntraces++] = (struct tr){k, n, recorded ? 0 : iters, t};
	return t;
}

int cpl_replay_iterations(struct cpl_replay *rp, int cnt, const int *k, const int *const *nodes,
                          const int *n, double *t, struct cmn_err *e)
{
	return cpl_replay_iterations_t1(rp, cnt, k, nodes, n, t, NULL, e);
}

typedef char job_name[40];

/* The cnt jobs (kernel k[i] on the n[i] nodes nodes[i]) with the trace of
 * iters iterations, named in names. */
static int job_set(struct cpl_replay *rp, int cnt, const int *k, const int *const *nodes,
                   const int *n, int iters, job_name *names, struct net_job *jobs,
                   struct cmn_err *e)
{
	for (int i = 0; i < cnt; i++) {
		snprintf(names[i], sizeof names[i], "%s.%c.%d", cpl_profiles_name(rp->prof, k[i]),
		         cpl_profiles_class(rp->prof), n[i]);
		const struct trace *tr = cpl_replay_trace(rp, k[i], n[i], iters, e);
		if (!tr)
			return e->code;
		jobs[i] = (struct net_job){names[i], tr, nodes[i], 0, NULL};
	}
	return 0;
}

/* One replay of the jobs' timed iterations together. */
static int timed_iterations(struct cpl_replay *rp, int cnt, const int *k, const int *const *nodes,
                            const int *n, double *t, struct cmn_err *e)
{
	struct net_job *jobs = calloc((size_t)cnt, sizeof *jobs);
	struct net_job_result *res = malloc((size_t)cnt * sizeof *res);
	job_name *names = malloc((size_t)cnt * sizeof *names);
	int rc = 0;
	if (!jobs || !res || !names)
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	if (!rc)
		rc = job_set(rp, cnt, k, nodes, n, CPL_ONE_ITERATION, names, jobs, e);
	if (!rc)
		rc = rp->ops->evaluate(rp->eng, jobs, cnt, 0, res, e);
	rp->evaluations++;
	for (int i = 0; !rc && i < cnt; i++) {
		t[i] = res[i].finish;
		/* zero only without compute and without traffic between nodes */
		if (!(t[i] >= 0))
			rc = cmn_err_set(e, CMN_ESTATE, "%s: one iteration did not end (%g s)",
			                 names[i], t[i]);
	}
	free(jobs);
	free(res);
	free(names);
	return rc;
}

int cpl_replay_iterations_t1(struct cpl_replay *rp, int cnt, const int *k, const int *const *nodes,
                             const int *n, double *t, double *t1, struct cmn_err *e)
{
	if (rp->timed && !t1)
		return timed_iterations(rp, cnt, k, nodes, n, t, e);
	if (rp->timed)
		return cmn_err_set(e, CMN_ESTATE,
		                   "a one-iteration trace's time needs replays by difference");
	struct net_job *jobs = calloc(2 * (size_t)cnt, sizeof *jobs);
	struct net_job_result *res = malloc(2 * (size_t)cnt * sizeof *res);
	job_name *names = malloc((size_t)cnt * sizeof *names);
	int rc = 0;
	if (!jobs || !res || !names)
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int it = 0; !rc && it < 2; it++) /* jobs: the one-iteration set, then the two */
		rc = job_set(rp, cnt, k, nodes, n, it + 1, names, jobs + (size_t)it * (size_t)cnt,
		             e);
	const struct net_job *sets[2] = {jobs, jobs + cnt};
	struct net_job_result *outs[2] = {res, res + cnt};
	int ns[2] = {cnt, cnt};
	if (!rc && rp->ops->evaluate_many) /* both replays at once: two cores */
		rc = rp->ops->evaluate_many(rp->eng, 2, sets, ns, 0, outs, e);
	for (int it = 0; !rc && !rp->ops->evaluate_many && it < 2; it++)
		rc = rp->ops->evaluate(rp->eng, sets[it], cnt, 0, outs[it], e);
	rp->evaluations += 2;
	for (int i = 0; !rc && i < cnt; i++) {
		double one = res[i].finish, two = res[cnt + i].finish;
		/* a recorded trace ran whole in both sets: its time beside the
		 * others' two iterations */
		t[i] = jobs[i].trace == jobs[cnt + i].trace ? two : two - one;
		if (t1)
			t1[i] = one;
		/* zero only without compute and without traffic between nodes
		 * (the flit engine's compute=zero) */
		if (!(one >= 0 && t[i] >= 0 && (t[i] > 0 || two == 0)))
			rc =
			    cmn_err_set(e, CMN_ESTATE,
			                "%s: one iteration took %g s (one iteration ended at %g s, "
			                "two at %g s)",
			                names[i], t[i], one, two);
	}
	free(jobs);
	free(res);
	free(names);
	return rc;
}

int cpl_replay_reference(struct cpl_replay *rp, int k, int n, double *t, double *t1,
                         struct cmn_err *e)
{
	int *ref = malloc((size_t)n * sizeof *ref);
	if (!ref)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int r = 0; r < n; r++)
		ref[r] = r;
	const int *pl = ref;
	int rc = cpl_replay_iterations_t1(rp, 1, &k, &pl, &n, t, t1, e);
	free(ref);
	return rc;
}

void cpl_flit_engine_spec(const struct cmn_params *p, char *out, size_t size)
{
	/* links only when not the engine's default, so that the default spec
	 * (echoed in reports) stays as it was */
	int plat = strcmp(cmn_params_str(p, "links"), "platform") == 0;
	int threads = (int)cmn_params_num(p, "threads");
	snprintf(out, size, "flit:preset=%s,compute=%s%s%s", cmn_params_str(p, "preset"),
	         cmn_params_str(p, "compute"), plat ? ",links=platform" : "",
	         threads > 1 ? ",threads=2" : "");
}

const struct net_engine_ops *cpl_replay_ops(const struct cpl_replay *rp)
{
	return rp->ops;
}

void *cpl_replay_engine(const struct cpl_replay *rp)
{
	return rp->eng;
}

int cpl_replay_ring(const struct cpl_replay *rp)
{
	return rp->ring;
}

long cpl_replay_count(const struct cpl_replay *rp)
{
	return rp->evaluations;
}

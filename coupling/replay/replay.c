/* Replays of job profiles (replay.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../apptraces/gen.h"
#include "../../common/cleanup.h"
#include "../../common/number.h"
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
			rc = cmn_err_set(
			    e, CMN_EIO,
			    "cannot create a temporary platform file in %s: %s (TMPDIR names "
			    "the folder)",
			    cmn_tmp_dir(), strerror(errno));
	}
	struct plat_xml_opts xo = {"SPLITDUPLEX", "cosim (a run-time model's platform)", NULL};
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

/* m independent replays: replay g runs its cnt[g] jobs together, the jobs
 * of the replays one after another in k, nodes, n, t and t1. Timed: one
 * evaluation a replay; by difference: two (one iteration, then two),
 * one after another. All at once through the engine's evaluate_many when
 * it has one (the SimGrid engines' children, the flit engine's threads). */
static int replays(struct cpl_replay *rp, int m, const int *cnt, const int *k,
                   const int *const *nodes, const int *n, double *t, double *t1, struct cmn_err *e)
{
	int per = rp->timed ? 1 : 2, nj = 0, nsets = m * per;
	for (int g = 0; g < m; g++)
		nj += cnt[g];
	struct net_job *jobs = calloc((size_t)nj * (size_t)per, sizeof *jobs);
	struct net_job_result *res = malloc((size_t)nj * (size_t)per * sizeof *res);
	job_name *names = malloc((size_t)nj * sizeof *names);
	const struct net_job **sets = malloc((size_t)nsets * sizeof *sets);
	struct net_job_result **outs = malloc((size_t)nsets * sizeof *outs);
	int *ns = malloc((size_t)nsets * sizeof *ns), rc = 0;
	if (!jobs || !res || !names || !sets || !outs || !ns)
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	/* replay g's jobs from j0 = its first: set g per (timed), or sets 2g
	 * (one iteration) and 2g + 1 (two) at per j0 and per j0 + cnt[g] */
	for (int g = 0, j0 = 0; !rc && g < m; j0 += cnt[g++])
		for (int it = 0; !rc && it < per; it++) {
			size_t at = (size_t)per * (size_t)j0 + (size_t)it * (size_t)cnt[g];
			rc = job_set(rp, cnt[g], k + j0, nodes + j0, n + j0,
			             rp->timed ? CPL_ONE_ITERATION : it + 1, names + j0, jobs + at,
			             e);
			sets[g * per + it] = jobs + at, outs[g * per + it] = res + at;
			ns[g * per + it] = cnt[g];
		}
	if (!rc && nsets == 1)
		rc = rp->ops->evaluate(rp->eng, sets[0], ns[0], 0, outs[0], e);
	else if (!rc && rp->ops->evaluate_many)
		rc = rp->ops->evaluate_many(rp->eng, nsets, sets, ns, 0, outs, e);
	for (int s = 0; !rc && nsets > 1 && !rp->ops->evaluate_many && s < nsets; s++)
		rc = rp->ops->evaluate(rp->eng, sets[s], ns[s], 0, outs[s], e);
	rp->evaluations += nsets;
	for (int g = 0, j0 = 0; !rc && g < m; j0 += cnt[g++])
		for (int i = j0; !rc && i < j0 + cnt[g]; i++) {
			const struct net_job_result *r1 =
			    &res[(size_t)per * (size_t)j0 + (size_t)(i - j0)];
			if (rp->timed) {
				t[i] = r1->finish;
				/* zero only without compute and without traffic between nodes */
				if (!(t[i] >= 0))
					rc = cmn_err_set(e, CMN_ESTATE,
					                 "%s: one iteration did not end (%g s)",
					                 names[i], t[i]);
				continue;
			}
			size_t i2 = (size_t)per * (size_t)j0 + (size_t)cnt[g] + (size_t)(i - j0);
			double one = r1->finish, two = res[i2].finish;
			/* a recorded trace ran whole in both sets: its time beside the
			 * others' two iterations */
			t[i] = jobs[r1 - res].trace == jobs[i2].trace ? two : two - one;
			if (t1)
				t1[i] = one;
			/* zero only without compute and without traffic between nodes
			 * (the flit engine's compute=zero) */
			if (!(one >= 0 && t[i] >= 0 && (t[i] > 0 || two == 0)))
				rc = cmn_err_set(
				    e, CMN_ESTATE,
				    "%s: one iteration took %g s (one iteration ended at %g "
				    "s, two at %g s)",
				    names[i], t[i], one, two);
		}
	free(jobs), free(res), free(names), free(sets), free(outs), free(ns);
	return rc;
}

int cpl_replay_iterations_t1(struct cpl_replay *rp, int cnt, const int *k, const int *const *nodes,
                             const int *n, double *t, double *t1, struct cmn_err *e)
{
	if (rp->timed && t1)
		return cmn_err_set(e, CMN_ESTATE,
		                   "a one-iteration trace's time needs replays by difference");
	return replays(rp, 1, &cnt, k, nodes, n, t, t1, e);
}

int cpl_replay_sets(struct cpl_replay *rp, int m, const int *cnt, const int *k,
                    const int *const *nodes, const int *n, double *t, struct cmn_err *e)
{
	return m > 0 ? replays(rp, m, cnt, k, nodes, n, t, NULL, e) : 0;
}

int cpl_replay_alone(struct cpl_replay *rp, int m, const int *k, const int *const *nodes,
                     const int *n, double *t, struct cmn_err *e)
{
	int *ones = malloc((size_t)(m > 0 ? m : 1) * sizeof *ones);
	if (!ones)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int g = 0; g < m; g++)
		ones[g] = 1;
	int rc = cpl_replay_sets(rp, m, ones, k, nodes, n, t, e);
	free(ones);
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

void cpl_flit_engine_spec(const struct cmn_params *p, long max_memory, char *out, size_t size)
{
	/* links only when not the engine's default, so that the default spec
	 * (echoed in reports) stays as it was */
	int plat = strcmp(cmn_params_str(p, "links"), "platform") == 0;
	int threads = (int)cmn_params_num(p, "threads");
	/* the sizes only when given (packet_flits=auto: the preset's, else the
	 * engine's 8), so that the engine's preset decides what was not */
	int fb = (int)cmn_params_num(p, "flit_bytes");
	const char *pf = cmn_params_str(p, "packet_flits");
	char sizes[80] = "";
	int at = fb != 64 ? snprintf(sizes, sizeof sizes, ",flit_bytes=%d", fb) : 0;
	if (strcmp(pf, "auto") != 0)
		at += snprintf(sizes + at, sizeof sizes - (size_t)at, ",packet_flits=%s", pf);
	if (max_memory != 4096)
		snprintf(sizes + at, sizeof sizes - (size_t)at, ",max_memory=%ld", max_memory);
	snprintf(out, size, "flit:preset=%s,compute=%s%s%s%s", cmn_params_str(p, "preset"),
	         cmn_params_str(p, "compute"), plat ? ",links=platform" : "",
	         threads > 1 ? ",threads=2" : "", sizes);
}

int cpl_flit_engine_check(const struct cmn_params *p, struct cmn_err *e)
{
	const char *pf = cmn_params_str(p, "packet_flits");
	long long v;
	if (strcmp(pf, "auto") != 0 && cmn_num_int(pf, 1, 1048576, &v) != CMN_NUM_OK)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "parameter packet_flits: '%s' is neither auto nor an integer in "
		                   "[1, 1048576]",
		                   pf);
	return 0;
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

/* Max-min fair sharing of link bandwidth among the flows of the running
 * jobs (linkload.h): the jobs' parts held by one filling computation
 * (ll_fill.c) from call to call, a job's time computed again when one of
 * its parts was. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/grow.h"
#include "linkload.h"
#include "ll_fill.h"
#include "ll_part.h"

struct cpl_linkload {
	const struct plat_machine *m;
	struct ll_fill *fs;
	struct cpl_job_flows **jobs; /* held */
	long njobs, capjobs;
	long stamp;   /* runs so far */
	double *comm; /* per rank of one job */
	long capr;
	long runs;
	double computed; /* jobs whose times were computed */
};

struct cpl_job_flows {
	int nranks;
	const double *flops; /* borrowed from the traffic */
	int nparts;          /* 0: no flow */
	struct ll_part **parts;
	/* while a computation holds it */
	struct cpl_linkload *ll;
	long reg;   /* its index in ll->jobs */
	long seen;  /* the last run that had it */
	long timed; /* the last run that computed its time */
	int fresh;  /* held since the last computation */
	double t;   /* its iteration time */
};

int cpl_linkload_create(const struct plat_machine *m, struct cpl_linkload **out, struct cmn_err *e)
{
	*out = NULL;
	if (plat_own_model_check(m, "the linkload model", 0, e))
		return e->code;
	struct cpl_linkload *ll = calloc(1, sizeof *ll);
	if (!ll || cpl_ll_fill_create(m, &ll->fs)) {
		free(ll);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	ll->m = m;
	*out = ll;
	return 0;
}

/* Job f let go: its parts off the computation. */
static void let_go(struct cpl_linkload *ll, struct cpl_job_flows *f)
{
	for (int i = 0; i < f->nparts; i++) {
		cpl_ll_fill_let_go(ll->fs, f->parts[i]);
		f->parts[i]->job = NULL;
	}
	struct cpl_job_flows *last = ll->jobs[--ll->njobs];
	ll->jobs[f->reg] = last;
	last->reg = f->reg;
	f->ll = NULL;
}

/* Job f's parts held by the computation; -1 when out of memory (nothing
 * held). */
static int hold(struct cpl_linkload *ll, struct cpl_job_flows *f)
{
	if (cmn_grow((void **)&ll->jobs, &ll->capjobs, ll->njobs + 1, 64, sizeof *ll->jobs) ||
	    cmn_grow((void **)&ll->comm, &ll->capr, f->nranks, 1024, sizeof *ll->comm))
		return -1;
	for (int i = 0; i < f->nparts; i++) {
		if (cpl_ll_fill_hold(ll->fs, f->parts[i])) {
			while (i-- > 0)
				cpl_ll_fill_let_go(ll->fs, f->parts[i]);
			return -1;
		}
		f->parts[i]->job = f;
	}
	f->ll = ll;
	f->reg = ll->njobs;
	ll->jobs[ll->njobs++] = f;
	f->fresh = 1;
	return 0;
}

void cpl_linkload_destroy(struct cpl_linkload *ll)
{
	if (!ll)
		return;
	while (ll->njobs > 0)
		let_go(ll, ll->jobs[ll->njobs - 1]);
	cpl_ll_fill_destroy(ll->fs);
	free(ll->jobs), free(ll->comm);
	free(ll);
}

/* Job f's iteration time from its parts' rates. */
static void job_time(struct cpl_linkload *ll, struct cpl_job_flows *f)
{
	double *comm = ll->comm;
	for (int a = 0; a < f->nranks; a++)
		comm[a] = 0;
	for (int i = 0; i < f->nparts; i++)
		f->parts[i]->ops->comm(f->parts[i], comm);
	f->t = 0;
	for (int a = 0; a < f->nranks; a++) {
		double x = f->flops[a] / ll->m->speed_flops + comm[a];
		if (x > f->t)
			f->t = x;
	}
}

void cpl_linkload_stats(const struct cpl_linkload *ll, struct cpl_linkload_stats *s)
{
	struct cpl_ll_fill_stats f;
	cpl_ll_fill_stats(ll->fs, &f);
	*s =
	    (struct cpl_linkload_stats){ll->runs,  ll->computed, f.parts,  f.events, f.link_updates,
	                                f.settles, f.replayed,   f.redone, f.splits};
}

int cpl_linkload_run(struct cpl_linkload *ll, struct cpl_job_flows *const *jobs, int n, double *t,
                     struct cmn_err *e)
{
	ll->runs++;
	long run = ++ll->stamp;
	cpl_ll_fill_begin(ll->fs);
	for (int j = 0; j < n; j++) { /* new jobs held, the others' let go */
		if (jobs[j]->ll && jobs[j]->ll != ll)
			let_go(jobs[j]->ll, jobs[j]);
		if (!jobs[j]->ll && hold(ll, jobs[j]))
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		jobs[j]->seen = run;
	}
	for (long k = ll->njobs - 1; k >= 0; k--)
		if (ll->jobs[k]->seen != run)
			let_go(ll, ll->jobs[k]);
	if (cpl_ll_fill_compute(ll->fs))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	long np;
	struct ll_part *const *comp = cpl_ll_fill_computed(ll->fs, &np);
	for (long i = 0; i < np; i++) /* the times of the jobs computed */
		if (comp[i]->job->timed != run) {
			comp[i]->job->timed = run;
			job_time(ll, comp[i]->job);
			ll->computed++;
		}
	for (long k = 0; k < ll->njobs; k++) { /* and of the new ones without flows */
		struct cpl_job_flows *f = ll->jobs[k];
		if (f->fresh && f->timed != run) {
			job_time(ll, f);
			ll->computed++;
		}
		f->fresh = 0;
	}
	for (int j = 0; j < n; j++)
		t[j] = jobs[j]->t;
	return 0;
}

int cpl_flows_build_as(const struct plat_machine *m, const struct cpl_job_load *job,
                       enum cpl_flows_form form, struct cpl_job_flows **out, struct cmn_err *e)
{
	struct cpl_job_flows *f = calloc(1, sizeof *f);
	*out = NULL;
	if (!f)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	int min_group = form == CPL_FLOWS_AGGREGATE ? 3
	                : form == CPL_FLOWS_AUTO && job->nranks >= CPL_LL_TREE_RANKS
	                    ? CPL_LL_GROUP_RANKS
	                    : 0;
	if (cpl_ll_job_parts(m, job, min_group, &f->parts, &f->nparts)) {
		free(f);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	f->nranks = job->nranks;
	f->flops = job->traffic->flops;
	*out = f;
	return 0;
}

int cpl_flows_build(const struct plat_machine *m, const struct cpl_job_load *job,
                    struct cpl_job_flows **out, struct cmn_err *e)
{
	return cpl_flows_build_as(m, job, CPL_FLOWS_AUTO, out, e);
}

int cpl_flows_aggregated(const struct cpl_job_flows *f)
{
	int n = 0;
	for (int i = 0; i < f->nparts; i++)
		n += f->parts[i]->aggregate;
	return n;
}

void cpl_flows_free(struct cpl_job_flows *f)
{
	if (!f)
		return;
	if (f->ll)
		let_go(f->ll, f);
	for (int i = 0; i < f->nparts; i++)
		f->parts[i]->ops->destroy(f->parts[i]);
	free(f->parts);
	free(f);
}

double cpl_flows_memory(const struct cpl_job_flows *f)
{
	double b = sizeof *f + (double)f->nparts * sizeof *f->parts;
	for (int i = 0; i < f->nparts; i++)
		b += f->parts[i]->ops->memory(f->parts[i]);
	return b;
}

int cpl_linkload_times(const struct plat_machine *m, const struct cpl_job_load *jobs, int n,
                       double *t, struct cmn_err *e)
{
	struct cpl_job_flows **f = calloc((size_t)(n ? n : 1), sizeof *f);
	struct cpl_linkload *ll = NULL;
	int rc = !f ? cmn_err_set(e, CMN_ENOMEM, "out of memory") : cpl_linkload_create(m, &ll, e);
	for (int j = 0; !rc && j < n; j++)
		rc = cpl_flows_build(m, &jobs[j], &f[j], e);
	if (!rc)
		rc = cpl_linkload_run(ll, f, n, t, e);
	for (int j = 0; f && j < n; j++)
		cpl_flows_free(f[j]);
	free(f);
	cpl_linkload_destroy(ll);
	return rc;
}

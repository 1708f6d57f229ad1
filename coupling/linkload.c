/* Max-min fair sharing of link bandwidth among the flows of the running
 * jobs (linkload.h): progressive filling on the links the jobs use. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linkload.h"
#include "ll_part.h"
#include "ll_queue.h"

#define FULL        1e-9 /* a link is full within this fraction of its bandwidth */
#define TREE_RANKS  32   /* ranks from which a job's all-pairs patterns are counted in aggregate */
#define GROUP_RANKS 16   /* ... and its groups of ranks exchanging all pairs, from this size */

/* Progressive filling driven by events: the level of every active flow
 * rises together; a link with residual R and n active flows at level
 * lam fills at level lam + R / n. The next event is the lowest such level;
 * at it, every link left within FULL of its bandwidth counts as full and
 * freezes its active flows at that level, and the links whose user counts
 * drop take their residual to that level (R -= (level - lam) n) before the
 * new count. Links wait in a queue by filling level (ll_queue.h), so
 * an event costs the links it changes (times log links), not every link.
 * A link's arithmetic depends only on the levels at which its user count
 * changes, so the same flows in any form give the same results. */
struct cpl_linkload {
	const struct plat_machine *m;
	int *slot;       /* machine link -> its index among the used links, or -1 */
	double full_gap; /* FULL x the largest bandwidth: no full link fills later */
	/* per used link: its state, and where its parts are */
	long capu;
	struct ll_link *l;
	int *changed;
	long *mstart;
	struct ll_queue queue;
	int *fullv; /* the links full at the current event */
	/* the parts on each used link: (mpart, mloc)[mstart[u] .. mstart[u + 1]) */
	long capm;
	int *mpart, *mloc;
	/* the parts an event touched; a part's settled links */
	int capp, capx;
	int *tparts, *sx;
	long *sby;
	double *comm; /* per rank of one job */
	int capr;
	struct cpl_linkload_stats stats;
};

struct cpl_job_flows {
	int nranks;
	const double *flops; /* borrowed from the traffic */
	int nparts;          /* 0: no flow */
	struct ll_part **parts;
};

int cpl_linkload_create(const struct plat_machine *m, struct cpl_linkload **out, struct cmn_err *e)
{
	struct cpl_linkload *ll = calloc(1, sizeof *ll);
	*out = NULL;
	if (!ll || !(ll->slot = malloc((size_t)(m->nlinks ? m->nlinks : 1) * sizeof *ll->slot))) {
		free(ll);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	ll->m = m;
	for (int i = 0; i < m->nlinks; i++) {
		ll->slot[i] = -1;
		if (FULL * m->links[i].bw_bps > ll->full_gap)
			ll->full_gap = FULL * m->links[i].bw_bps;
	}
	*out = ll;
	return 0;
}

static void free_links(struct cpl_linkload *ll)
{
	free(ll->l), free(ll->changed), free(ll->mstart);
	free(ll->fullv);
	ll_queue_free(&ll->queue);
}

void cpl_linkload_destroy(struct cpl_linkload *ll)
{
	if (!ll)
		return;
	free_links(ll);
	free(ll->slot), free(ll->mpart), free(ll->mloc), free(ll->tparts), free(ll->sx);
	free(ll->sby), free(ll->comm);
	free(ll);
}

/* Room for nu used links, nm part-link pairs, np parts, nx links of one
 * part and nr ranks. */
static int room(struct cpl_linkload *ll, long nu, long nm, int np, int nx, int nr)
{
	nu = nu ? nu : 1, nm = nm ? nm : 1, np = np ? np : 1, nx = nx ? nx : 1, nr = nr ? nr : 1;
	if (np > ll->capp) {
		free(ll->tparts);
		ll->tparts = malloc((size_t)np * sizeof *ll->tparts);
		ll->capp = ll->tparts ? np : 0;
		if (!ll->capp)
			return -1;
	}
	if (nu > ll->capu) {
		free_links(ll);
		size_t z = (size_t)nu;
		ll->capu = nu;
		ll->l = calloc(z, sizeof *ll->l);
		ll->changed = malloc(z * sizeof *ll->changed);
		ll->mstart = malloc((z + 1) * sizeof *ll->mstart);
		ll->fullv = malloc(z * sizeof *ll->fullv);
		if (!ll->l || !ll->changed || !ll->mstart || !ll->fullv ||
		    ll_queue_room(&ll->queue, nu)) {
			ll->capu = 0;
			return -1;
		}
	}
	if (nm > ll->capm) {
		free(ll->mpart), free(ll->mloc);
		ll->mpart = malloc((size_t)nm * sizeof *ll->mpart);
		ll->mloc = malloc((size_t)nm * sizeof *ll->mloc);
		ll->capm = ll->mpart && ll->mloc ? nm : 0;
		if (!ll->capm)
			return -1;
	}
	if (nx > ll->capx) {
		free(ll->sx), free(ll->sby);
		ll->sx = malloc((size_t)nx * sizeof *ll->sx);
		ll->sby = malloc((size_t)nx * sizeof *ll->sby);
		ll->capx = ll->sx && ll->sby ? nx : 0;
		if (!ll->capx)
			return -1;
	}
	if (nr > ll->capr) {
		free(ll->comm);
		ll->comm = malloc((size_t)nr * sizeof *ll->comm);
		ll->capr = ll->comm ? nr : 0;
		if (!ll->capr)
			return -1;
	}
	return 0;
}

/* Link u's filling level after its state changed. */
static void set_key(struct cpl_linkload *ll, int u)
{
	struct ll_link *l = &ll->l[u];
	if (l->users > 0)
		l->key = l->lam + l->res / (double)l->users;
}

/* Whether link u is full at level x (within FULL of its bandwidth). */
static int full_at(const struct cpl_linkload *ll, int u, double x)
{
	const struct ll_link *l = &ll->l[u];
	return !(l->res - (x - l->lam) * (double)l->users > FULL * l->bw);
}

/* The links full at the next event's level x (the lowest filling level:
 * that link is full whatever the rounding), out of the queue into fullv;
 * how many. Only links filling within full_gap of x can be. */
static int take_full(struct cpl_linkload *ll, double x)
{
	int nfull = 0, nback = 0, u;
	while ((u = ll_queue_front(&ll->queue, ll->l)) >= 0 && ll->l[u].key <= x + ll->full_gap) {
		ll_queue_pop(&ll->queue);
		if (!nfull || full_at(ll, u, x))
			ll->fullv[nfull++] = u;
		else
			ll->changed[nback++] = u; /* not full yet: back after */
	}
	for (int i = 0; i < nback; i++)
		ll_queue_push(&ll->queue, ll->changed[i], ll->l[ll->changed[i]].key);
	return nfull;
}

/* The parts of an event's full links freeze their flows at level x; the
 * links whose user counts drop take their residual to x, then their new
 * count and filling level. */
static void settle_event(struct cpl_linkload *ll, struct ll_part *const *parts, int nfull, double x)
{
	long nchanged = 0;
	int ntouched = 0;
	for (int i = 0; i < nfull; i++) {
		int u = ll->fullv[i];
		for (long q = ll->mstart[u]; q < ll->mstart[u + 1]; q++) {
			struct ll_part *p = parts[ll->mpart[q]];
			p->ops->fill(p, ll->mloc[q], x);
			if (!p->touched) {
				p->touched = 1;
				ll->tparts[ntouched++] = ll->mpart[q];
			}
		}
	}
	ll->stats.settles += ntouched;
	for (int i = 0; i < ntouched; i++) {
		struct ll_part *p = parts[ll->tparts[i]];
		int n = p->ops->settle(p, ll->sx, ll->sby);
		p->touched = 0;
		for (int k = 0; k < n; k++) {
			int u = p->at[ll->sx[k]];
			struct ll_link *l = &ll->l[u];
			if (!l->mark) {
				l->mark = 1;
				ll->changed[nchanged++] = u;
				l->res -= (x - l->lam) * (double)l->users;
				l->lam = x;
			}
			l->users -= ll->sby[k];
		}
	}
	ll->stats.link_updates += nchanged;
	for (long i = 0; i < nchanged; i++) {
		ll->l[ll->changed[i]].mark = 0;
		set_key(ll, ll->changed[i]);
	}
}

static void fill(struct cpl_linkload *ll, struct ll_part *const *parts, long nu)
{
	for (long u = 0; u < nu; u++) {
		ll->l[u].res = ll->l[u].bw;
		ll->l[u].lam = 0;
		set_key(ll, (int)u);
	}
	ll_queue_start(&ll->queue, ll->l, nu);
	int u;
	while ((u = ll_queue_front(&ll->queue, ll->l)) >= 0) {
		double x = ll->l[u].key;
		int nfull = take_full(ll, x);
		ll->stats.events++;
		settle_event(ll, parts, nfull, x);
		for (int i = 0; i < nfull; i++) /* none: their flows froze */
			if (ll->l[ll->fullv[i]].users > 0)
				ll_queue_push(&ll->queue, ll->fullv[i], ll->l[ll->fullv[i]].key);
	}
}

void cpl_linkload_stats(const struct cpl_linkload *ll, struct cpl_linkload_stats *s)
{
	*s = ll->stats;
}

int cpl_linkload_run(struct cpl_linkload *ll, struct cpl_job_flows *const *jobs, int n, double *t,
                     struct cmn_err *e)
{
	ll->stats.runs++;
	int np = 0, nr = 1, nx = 1;
	long nm = 0;
	for (int j = 0; j < n; j++)
		np += jobs[j]->nparts;
	struct ll_part **parts = malloc((size_t)(np ? np : 1) * sizeof *parts);
	if (!parts)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	np = 0;
	for (int j = 0; j < n; j++) {
		nr = jobs[j]->nranks > nr ? jobs[j]->nranks : nr;
		for (int i = 0; i < jobs[j]->nparts; i++) {
			struct ll_part *p = parts[np++] = jobs[j]->parts[i];
			p->ops->reset(p);
			p->touched = 0;
			nm += p->nlinks;
			nx = p->nlinks > nx ? p->nlinks : nx;
		}
	}
	/* the used links, their user counts and their parts */
	long nu = 0;
	for (int i = 0; i < np; i++)
		for (int x = 0; x < parts[i]->nlinks; x++) {
			int l = parts[i]->links[x];
			if (ll->slot[l] < 0)
				ll->slot[l] = (int)nu++;
			parts[i]->at[x] = ll->slot[l];
		}
	int rc = room(ll, nu, nm, np, nx, nr);
	if (!rc) {
		for (long u = 0; u < nu; u++)
			ll->l[u].users = 0;
		memset(ll->mstart, 0, ((size_t)nu + 1) * sizeof *ll->mstart);
		for (int i = 0; i < np; i++)
			for (int x = 0; x < parts[i]->nlinks; x++) {
				int u = parts[i]->at[x];
				ll->l[u].id = parts[i]->links[x];
				ll->l[u].bw = ll->m->links[ll->l[u].id].bw_bps;
				ll->l[u].users += parts[i]->users[x];
				ll->mstart[u + 1]++;
			}
		for (long u = 0; u < nu; u++)
			ll->mstart[u + 1] += ll->mstart[u];
		for (int i = 0; i < np; i++)
			for (int x = 0; x < parts[i]->nlinks; x++) {
				long q = ll->mstart[parts[i]->at[x]]++;
				ll->mpart[q] = i;
				ll->mloc[q] = x;
			}
		for (long u = nu; u > 0; u--)
			ll->mstart[u] = ll->mstart[u - 1];
		ll->mstart[0] = 0;
		fill(ll, parts, nu);
	}
	for (int i = 0; i < np; i++)
		for (int x = 0; x < parts[i]->nlinks; x++)
			ll->slot[parts[i]->links[x]] = -1;
	free(parts);
	if (rc)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	/* each rank's slowest flow, each job's slowest rank */
	for (int j = 0; j < n; j++) {
		double *comm = ll->comm;
		for (int a = 0; a < jobs[j]->nranks; a++)
			comm[a] = 0;
		for (int i = 0; i < jobs[j]->nparts; i++)
			jobs[j]->parts[i]->ops->comm(jobs[j]->parts[i], comm);
		t[j] = 0;
		for (int a = 0; a < jobs[j]->nranks; a++) {
			double x = jobs[j]->flops[a] / ll->m->speed_flops + comm[a];
			if (x > t[j])
				t[j] = x;
		}
	}
	return 0;
}

int cpl_flows_build_as(const struct plat_machine *m, const struct cpl_job_load *job,
                       enum cpl_flows_form form, struct cpl_job_flows **out, struct cmn_err *e)
{
	struct cpl_job_flows *f = calloc(1, sizeof *f);
	*out = NULL;
	if (!f)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	int min_group = form == CPL_FLOWS_AGGREGATE                           ? 3
	                : form == CPL_FLOWS_AUTO && job->nranks >= TREE_RANKS ? GROUP_RANKS
	                                                                      : 0;
	if (ll_job_parts(m, job, min_group, &f->parts, &f->nparts)) {
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

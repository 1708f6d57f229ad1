/* Max-min fair sharing of link bandwidth among the flows of the running
 * jobs (linkload.h): progressive filling by events, per cluster of jobs
 * bound by tight links, each cluster's result kept while it stays. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "linkload.h"
#include "ll_part.h"
#include "ll_queue.h"

#define FULL        1e-9 /* a link is full within this fraction of its bandwidth */
#define TIGHT       1e-6 /* a link carrying more than 1 - TIGHT of it binds its jobs */
#define TREE_RANKS  32   /* ranks from which a job's all-pairs patterns are counted in aggregate */
#define GROUP_RANKS 16   /* ... and its groups of ranks exchanging all pairs, from this size */

/* Progressive filling by events: the level of every active flow rises
 * together; a link with residual R and n active flows at level lam fills
 * at level lam + R / n. Each event is the lowest such level: the links
 * filling there freeze their active flows at that level, and the links
 * whose user counts drop take their residual to that level (R -= (level -
 * lam) n) before the new count; one left within FULL of its bandwidth
 * fills at once. Links wait in a queue by filling level (ll_queue.h), so
 * an event costs the links and parts it changes. A link's arithmetic
 * depends only on its own state and the levels at which its user count
 * changes: the same flows in any form give the same results, and so do
 * jobs computed apart when the links they share do not fill.
 *
 * Clusters: the running jobs fall into clusters that share no tight link
 * (one whose flows take more than 1 - TIGHT of its bandwidth: a link that
 * fills, or nearly). A cluster computed alone gives, to the last bit, what
 * the computation of every running job gives it (a link that does not
 * fill changes nothing but itself), so a cluster's times are kept until
 * a job joins or leaves it. A new job starts a cluster; after a
 * computation, clusters that share a tight link merge and are computed
 * together, and a computed cluster splits along its tight links. */

/* An entry of the list of parts on a used link. */
struct memb {
	struct ll_part *p;
	int x; /* the link's index in p */
	int next, prev;
};

struct cpl_linkload {
	const struct plat_machine *m;
	int *slot; /* machine link -> used link, or -1 */
	/* used links: those of the parts held; per used link its state in the
	 * current computation, its part-links held and their list */
	long nu, capu;
	struct ll_link *l;
	int *refs, *head;
	int *freeu, nfreeu;
	struct memb *mb;
	long nmb, capmb;
	int freemb; /* free entries, chained by next, or -1 */
	/* the jobs held */
	struct cpl_job_flows **jobs;
	long njobs, capjobs;
	long stamp;  /* runs and computations so far */
	long labels; /* cluster labels given so far */
	/* a computation's scratch, by used link (capu) */
	int *clinks, *changed, *fullv, *nextv; /* clinks: the links of the cluster computed */
	long ncl;
	struct ll_queue queue;
	struct ll_part **tparts; /* the parts an event touched */
	long capparts;
	int *sx; /* a part's settled links */
	long *sby, capx;
	double *comm; /* per rank of one job */
	long capr;
	struct cpl_job_flows **members;
	int *uf;
	long capm;
	struct cpl_linkload_stats stats;
};

struct cpl_job_flows {
	int nranks;
	const double *flops; /* borrowed from the traffic */
	int nparts;          /* 0: no flow */
	struct ll_part **parts;
	/* while a computation holds it */
	struct cpl_linkload *ll;
	long reg;     /* its index in ll->jobs */
	long cluster; /* the label of its cluster */
	int dirty;    /* its cluster must be computed */
	long seen;    /* the last run that had it */
	long member;  /* its index among the members of its cluster, while splitting */
	double t;     /* its iteration time in its cluster */
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
	ll->freemb = -1;
	for (int i = 0; i < m->nlinks; i++)
		ll->slot[i] = -1;
	*out = ll;
	return 0;
}

/* Room for need used links in every per-link array. */
static int room_links(struct cpl_linkload *ll, long need)
{
	if (need <= ll->capu)
		return 0;
	long c = ll->capu, c1 = c, c2 = c, c3 = c, c4 = c, c5 = c, c6 = c, c7 = c;
	if (cmn_grow((void **)&ll->l, &c, need, 1024, sizeof *ll->l) ||
	    cmn_grow((void **)&ll->refs, &c1, need, 1024, sizeof *ll->refs) ||
	    cmn_grow((void **)&ll->head, &c2, need, 1024, sizeof *ll->head) ||
	    cmn_grow((void **)&ll->freeu, &c3, need, 1024, sizeof *ll->freeu) ||
	    cmn_grow((void **)&ll->clinks, &c4, need, 1024, sizeof *ll->clinks) ||
	    cmn_grow((void **)&ll->changed, &c5, need, 1024, sizeof *ll->changed) ||
	    cmn_grow((void **)&ll->fullv, &c6, need, 1024, sizeof *ll->fullv) ||
	    cmn_grow((void **)&ll->nextv, &c7, need, 1024, sizeof *ll->nextv) ||
	    ll_queue_room(&ll->queue, c))
		return -1;
	for (long u = ll->capu; u < c; u++)
		ll->l[u].mark = 0;
	ll->capu = c;
	return 0;
}

/* Room for n parts, a part of nx links, a job of nr ranks, m members
 * (two arrays for each capacity: the first grown on a copy). */
static int room_run(struct cpl_linkload *ll, long n, long nx, long nr, long m)
{
	long cx = ll->capx, cm = ll->capm;
	return cmn_grow((void **)&ll->tparts, &ll->capparts, n, 64, sizeof *ll->tparts) ||
	               cmn_grow((void **)&ll->sx, &cx, nx, 1024, sizeof *ll->sx) ||
	               cmn_grow((void **)&ll->sby, &ll->capx, nx, 1024, sizeof *ll->sby) ||
	               cmn_grow((void **)&ll->comm, &ll->capr, nr, 1024, sizeof *ll->comm) ||
	               cmn_grow((void **)&ll->members, &cm, m, 64, sizeof *ll->members) ||
	               cmn_grow((void **)&ll->uf, &ll->capm, m, 64, sizeof *ll->uf)
	           ? -1
	           : 0;
}

/* Job f's parts on their links' lists; -1 when out of memory (nothing
 * held). */
static int hold(struct cpl_linkload *ll, struct cpl_job_flows *f)
{
	long links = 0;
	for (int i = 0; i < f->nparts; i++)
		links += f->parts[i]->nlinks;
	if (cmn_grow((void **)&ll->jobs, &ll->capjobs, ll->njobs + 1, 64, sizeof *ll->jobs) ||
	    cmn_grow((void **)&ll->mb, &ll->capmb, ll->nmb + links, 1024, sizeof *ll->mb) ||
	    room_links(ll, ll->nu + links))
		return -1;
	for (int i = 0; i < f->nparts; i++) {
		struct ll_part *p = f->parts[i];
		p->memb = malloc((size_t)(p->nlinks ? p->nlinks : 1) * sizeof *p->memb);
		p->load = calloc((size_t)(p->nlinks ? p->nlinks : 1), sizeof *p->load);
		if (!p->memb || !p->load) {
			for (int k = 0; k <= i; k++) {
				free(f->parts[k]->memb), free(f->parts[k]->load);
				f->parts[k]->memb = NULL, f->parts[k]->load = NULL;
			}
			return -1;
		}
	}
	for (int i = 0; i < f->nparts; i++) {
		struct ll_part *p = f->parts[i];
		p->job = f;
		p->active = 0;
		for (int x = 0; x < p->nlinks; x++) {
			int id = p->links[x], u = ll->slot[id];
			if (u < 0) {
				u = ll->nfreeu ? ll->freeu[--ll->nfreeu] : (int)ll->nu++;
				ll->slot[id] = u;
				ll->l[u].id = id;
				ll->l[u].bw = ll->m->links[id].bw_bps;
				ll->refs[u] = 0;
				ll->head[u] = -1;
			}
			int q = ll->freemb;
			if (q >= 0)
				ll->freemb = ll->mb[q].next;
			else
				q = (int)ll->nmb++;
			ll->mb[q] = (struct memb){p, x, ll->head[u], -1};
			if (ll->head[u] >= 0)
				ll->mb[ll->head[u]].prev = q;
			ll->head[u] = q;
			ll->refs[u]++;
			p->at[x] = u;
			p->memb[x] = q;
		}
	}
	f->ll = ll;
	f->reg = ll->njobs;
	ll->jobs[ll->njobs++] = f;
	f->cluster = ll->labels++;
	f->dirty = 1;
	return 0;
}

/* Job f let go: its cluster to be computed again, its parts off the lists. */
static void let_go(struct cpl_linkload *ll, struct cpl_job_flows *f)
{
	for (long j = 0; j < ll->njobs; j++)
		if (ll->jobs[j]->cluster == f->cluster)
			ll->jobs[j]->dirty = 1;
	for (int i = 0; i < f->nparts; i++) {
		struct ll_part *p = f->parts[i];
		for (int x = 0; x < p->nlinks; x++) {
			int u = p->at[x], q = p->memb[x];
			struct memb *b = &ll->mb[q];
			if (b->prev >= 0)
				ll->mb[b->prev].next = b->next;
			else
				ll->head[u] = b->next;
			if (b->next >= 0)
				ll->mb[b->next].prev = b->prev;
			b->next = ll->freemb;
			ll->freemb = q;
			if (!--ll->refs[u]) {
				ll->slot[ll->l[u].id] = -1;
				ll->freeu[ll->nfreeu++] = u;
			}
		}
		free(p->memb), free(p->load);
		p->memb = NULL, p->load = NULL;
		p->job = NULL;
	}
	struct cpl_job_flows *last = ll->jobs[--ll->njobs];
	ll->jobs[f->reg] = last;
	last->reg = f->reg;
	f->ll = NULL;
}

void cpl_linkload_destroy(struct cpl_linkload *ll)
{
	if (!ll)
		return;
	while (ll->njobs > 0)
		let_go(ll, ll->jobs[ll->njobs - 1]);
	free(ll->slot), free(ll->l), free(ll->refs), free(ll->head), free(ll->freeu);
	free(ll->mb), free(ll->jobs), free(ll->clinks), free(ll->changed), free(ll->fullv);
	free(ll->nextv);
	ll_queue_free(&ll->queue);
	free(ll->tparts), free(ll->sx), free(ll->sby), free(ll->comm);
	free(ll->members), free(ll->uf);
	free(ll);
}

/* Link u's filling level after its state changed. */
static void set_key(struct cpl_linkload *ll, int u)
{
	struct ll_link *l = &ll->l[u];
	if (l->users > 0)
		l->key = l->lam + l->res / (double)l->users;
}

/* The parts of the links filling at level x (fullv) freeze their flows;
 * the links whose user counts drop take their residual to x, then their
 * new count and filling level. Those left within FULL of their bandwidth
 * go to nextv, to fill at x too; how many. */
static int settle_event(struct cpl_linkload *ll, int nfull, double x)
{
	long nchanged = 0;
	int ntouched = 0;
	for (int i = 0; i < nfull; i++)
		for (int q = ll->head[ll->fullv[i]]; q >= 0; q = ll->mb[q].next) {
			struct ll_part *p = ll->mb[q].p;
			if (p->active != ll->stamp)
				continue; /* another cluster's */
			p->ops->fill(p, ll->mb[q].x, x);
			if (!p->touched) {
				p->touched = 1;
				ll->tparts[ntouched++] = p;
			}
		}
	ll->stats.settles += ntouched;
	for (int i = 0; i < ntouched; i++) {
		struct ll_part *p = ll->tparts[i];
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
			p->load[ll->sx[k]] += (double)ll->sby[k] * x; /* flows frozen at rate x */
		}
	}
	ll->stats.link_updates += nchanged;
	int nnext = 0;
	for (long i = 0; i < nchanged; i++) {
		struct ll_link *l = &ll->l[ll->changed[i]];
		l->mark = 0;
		set_key(ll, ll->changed[i]);
		if (l->users > 0 && !(l->res > FULL * l->bw))
			ll->nextv[nnext++] = ll->changed[i];
	}
	return nnext;
}

/* Progressive filling on the links clinks[0 .. n) of the parts marked
 * active. */
static void fill(struct cpl_linkload *ll, long n)
{
	for (long i = 0; i < n; i++) {
		struct ll_link *l = &ll->l[ll->clinks[i]];
		l->res = l->bw;
		l->lam = 0;
		set_key(ll, ll->clinks[i]);
	}
	ll_queue_start(&ll->queue, ll->l, ll->clinks, n);
	int u, nfull = 0; /* links to fill at once (at x): fullv[0 .. nfull) */
	double x = 0;
	for (;;) {
		if (!nfull) { /* the lowest filling level, every link filling there */
			if ((u = ll_queue_front(&ll->queue, ll->l)) < 0)
				break;
			x = ll->l[u].key;
			while ((u = ll_queue_front(&ll->queue, ll->l)) >= 0 && ll->l[u].key <= x) {
				ll_queue_pop(&ll->queue);
				ll->fullv[nfull++] = u;
			}
		}
		ll->stats.events++;
		int nnext = settle_event(ll, nfull, x);
		for (int i = 0; i < nfull; i++) /* none: their flows froze */
			if (ll->l[ll->fullv[i]].users > 0)
				ll_queue_push(&ll->queue, ll->fullv[i], ll->l[ll->fullv[i]].key);
		memcpy(ll->fullv, ll->nextv, (size_t)nnext * sizeof *ll->fullv);
		nfull = nnext; /* still queued: dropped there without users */
	}
}

/* The jobs of cluster c into ll->members; how many, or -1 out of memory. */
static long members(struct cpl_linkload *ll, long c)
{
	long n = 0;
	for (long j = 0; j < ll->njobs; j++)
		n += ll->jobs[j]->cluster == c;
	if (room_run(ll, 1, 1, 1, n))
		return -1;
	n = 0;
	for (long j = 0; j < ll->njobs; j++)
		if (ll->jobs[j]->cluster == c)
			ll->members[n++] = ll->jobs[j];
	return n;
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

/* Cluster c (its jobs in members[0 .. n)) computed: its parts' rates and
 * loads, its jobs' times. -1 when out of memory. */
static int compute(struct cpl_linkload *ll, long n)
{
	long np = 0, nx = 1, nr = 1, nl = 0;
	for (long j = 0; j < n; j++) {
		np += ll->members[j]->nparts;
		nr = ll->members[j]->nranks > nr ? ll->members[j]->nranks : nr;
		for (int i = 0; i < ll->members[j]->nparts; i++)
			nx = ll->members[j]->parts[i]->nlinks > nx
			         ? ll->members[j]->parts[i]->nlinks
			         : nx;
	}
	if (room_run(ll, np, nx, nr, n))
		return -1;
	ll->stamp++;
	ll->stats.clusters++;
	ll->stats.jobs += (double)n;
	for (long j = 0; j < n; j++) /* the parts, their links and user counts */
		for (int i = 0; i < ll->members[j]->nparts; i++) {
			struct ll_part *p = ll->members[j]->parts[i];
			p->ops->reset(p);
			p->touched = 0;
			p->active = ll->stamp;
			for (int x = 0; x < p->nlinks; x++) {
				struct ll_link *l = &ll->l[p->at[x]];
				p->load[x] = 0;
				if (!l->mark) {
					l->mark = 1;
					l->users = 0;
					ll->clinks[nl++] = p->at[x];
				}
				l->users += p->users[x];
			}
		}
	for (long i = 0; i < nl; i++)
		ll->l[ll->clinks[i]].mark = 0;
	ll->ncl = nl;
	fill(ll, nl);
	for (long j = 0; j < n; j++) {
		job_time(ll, ll->members[j]);
		ll->members[j]->dirty = 0;
	}
	return 0;
}

static int root(int *uf, int a)
{
	while (uf[a] != a)
		a = uf[a] = uf[uf[a]];
	return a;
}

/* After cluster c (members[0 .. n)) was computed, its tight links (their
 * flows, every cluster's, take more than 1 - TIGHT of their bandwidth):
 * the clusters sharing one with c merge into it, to be computed again
 * (how many jobs joined it); when none do, c splits along them: jobs that
 * share none get clusters of their own (their times stay: those of the
 * jobs computed apart). */
static long bind(struct cpl_linkload *ll, long c, long n)
{
	long merged = 0;
	for (long j = 0; j < n; j++) {
		ll->uf[j] = (int)j;
		ll->members[j]->member = j;
	}
	for (long i = 0; i < ll->ncl; i++) {
		int u = ll->clinks[i], other = 0;
		if (ll->refs[u] < 2)
			continue; /* one part's */
		double load = 0;
		for (int q = ll->head[u]; q >= 0; q = ll->mb[q].next) {
			load += ll->mb[q].p->load[ll->mb[q].x];
			other |= ll->mb[q].p->job->cluster != c;
		}
		if (!(load > (1 - TIGHT) * ll->l[u].bw))
			continue;
		int anchor = (int)ll->mb[ll->head[u]].p->job->member;
		for (int q = ll->head[u]; q >= 0; q = ll->mb[q].next) {
			const struct cpl_job_flows *g = ll->mb[q].p->job;
			long d = g->cluster;
			if (!other) { /* c's alone: its jobs on u stay together */
				ll->uf[root(ll->uf, (int)g->member)] = root(ll->uf, anchor);
			} else if (d != c) {
				for (long k = 0; k < ll->njobs; k++)
					if (ll->jobs[k]->cluster == d) {
						ll->jobs[k]->cluster = c;
						ll->jobs[k]->dirty = 1;
						merged++;
					}
			}
		}
	}
	if (merged) {
		for (long j = 0; j < n; j++)
			ll->members[j]->dirty = 1;
		return merged;
	}
	long base = ll->labels;
	for (long j = 0; j < n; j++)
		ll->members[j]->cluster = base + root(ll->uf, (int)j);
	ll->labels += n;
	return 0;
}

void cpl_linkload_stats(const struct cpl_linkload *ll, struct cpl_linkload_stats *s)
{
	*s = ll->stats;
}

int cpl_linkload_run(struct cpl_linkload *ll, struct cpl_job_flows *const *jobs, int n, double *t,
                     struct cmn_err *e)
{
	ll->stats.runs++;
	long run = ++ll->stamp;
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
	for (;;) { /* dirty clusters computed, merged where tight links bind them */
		long c = -1;
		for (long k = 0; k < ll->njobs && c < 0; k++)
			if (ll->jobs[k]->dirty)
				c = ll->jobs[k]->cluster;
		if (c < 0)
			break;
		long m = members(ll, c);
		if (m < 0 || compute(ll, m))
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		bind(ll, c, m);
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

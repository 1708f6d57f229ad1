/* Max-min fair sharing of link bandwidth among the flows of the running
 * jobs (linkload.h): progressive filling on the links the jobs use. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "linkload.h"
#include "ll_part.h"

#define FULL       1e-9 /* a link is full within this fraction of its bandwidth */
#define TREE_RANKS 32   /* ranks from which an all-pairs pattern is counted in aggregate */

/* Progressive filling as rounds: each round raises every active flow by
 * the smallest share left on a link (inc = min residual / users), takes
 * inc x users off every link with users, and freezes the flows of every
 * link left within FULL of its bandwidth. Links whose residual and user
 * count are equal go through the same arithmetic, so they are kept in
 * classes and each round computes once per class: a link leaves its class
 * when its user count changes (the links of one class whose counts change
 * alike form a new one). The results are those of the link-by-link rounds
 * to the last bit. */
struct cpl_linkload {
	const struct plat_machine *m;
	int *slot; /* machine link -> its index among the used links, or -1 */
	/* per used link */
	long capu;
	int *ulink, *cls, *next, *prev, *changed;
	long *users, *mstart;
	char *mark;
	/* per class: residual, bandwidth, users of each member, members */
	long capc, nc;
	double *ccap, *cbw;
	long *cn, *ccount;
	int *chead, *active, *sat;
	struct group *groups; /* regroup()'s table */
	long capg;
	/* the parts on each used link: (mpart, mloc)[mstart[u] .. mstart[u + 1]) */
	long capm;
	int *mpart, *mloc;
	/* the parts a round touched; a part's settled links */
	int capp, capx;
	int *tparts, *sx;
	long *sby;
	double *comm; /* per rank of one job */
	int capr;
	struct cpl_linkload_stats stats;
};

struct cpl_job_flows {
	int nranks;
	const double *flops;  /* borrowed from the traffic */
	struct ll_part *part; /* NULL: no flow */
	int aggregated;
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
	for (int i = 0; i < m->nlinks; i++)
		ll->slot[i] = -1;
	*out = ll;
	return 0;
}

static void free_links(struct cpl_linkload *ll)
{
	free(ll->ulink), free(ll->cls), free(ll->next), free(ll->prev), free(ll->changed);
	free(ll->users), free(ll->mstart), free(ll->mark);
}

static void free_classes(struct cpl_linkload *ll)
{
	free(ll->ccap), free(ll->cbw), free(ll->cn), free(ll->ccount), free(ll->chead);
	free(ll->active), free(ll->sat);
}

void cpl_linkload_destroy(struct cpl_linkload *ll)
{
	if (!ll)
		return;
	free_links(ll);
	free_classes(ll);
	free(ll->slot), free(ll->mpart), free(ll->mloc), free(ll->tparts), free(ll->sx);
	free(ll->sby), free(ll->groups), free(ll->comm);
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
		ll->ulink = malloc(z * sizeof *ll->ulink);
		ll->cls = malloc(z * sizeof *ll->cls);
		ll->next = malloc(z * sizeof *ll->next);
		ll->prev = malloc(z * sizeof *ll->prev);
		ll->changed = malloc(z * sizeof *ll->changed);
		ll->users = malloc(z * sizeof *ll->users);
		ll->mstart = malloc((z + 1) * sizeof *ll->mstart);
		ll->mark = calloc(z, 1);
		if (!ll->ulink || !ll->cls || !ll->next || !ll->prev || !ll->changed ||
		    !ll->users || !ll->mstart || !ll->mark) {
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

/* A new empty class; -1 when out of memory. */
static int new_class(struct cpl_linkload *ll, double cap, double bw, long n)
{
	if (ll->nc == ll->capc) {
		long cap2 = ll->capc ? 2 * ll->capc : 1024;
		double *a = realloc(ll->ccap, (size_t)cap2 * sizeof *a);
		if (a)
			ll->ccap = a;
		double *b = realloc(ll->cbw, (size_t)cap2 * sizeof *b);
		if (b)
			ll->cbw = b;
		long *c = realloc(ll->cn, (size_t)cap2 * sizeof *c);
		if (c)
			ll->cn = c;
		long *d = realloc(ll->ccount, (size_t)cap2 * sizeof *d);
		if (d)
			ll->ccount = d;
		int *h = realloc(ll->chead, (size_t)cap2 * sizeof *h);
		if (h)
			ll->chead = h;
		int *x = realloc(ll->active, (size_t)cap2 * sizeof *x);
		if (x)
			ll->active = x;
		int *y = realloc(ll->sat, (size_t)cap2 * sizeof *y);
		if (y)
			ll->sat = y;
		if (!a || !b || !c || !d || !h || !x || !y)
			return -1;
		ll->capc = cap2;
	}
	int c = (int)ll->nc++;
	ll->ccap[c] = cap;
	ll->cbw[c] = bw;
	ll->cn[c] = n;
	ll->ccount[c] = 0;
	ll->chead[c] = -1;
	return c;
}

static void join(struct cpl_linkload *ll, int u, int c)
{
	ll->cls[u] = c;
	ll->prev[u] = -1;
	ll->next[u] = ll->chead[c];
	if (ll->chead[c] >= 0)
		ll->prev[ll->chead[c]] = u;
	ll->chead[c] = u;
	ll->ccount[c]++;
}

static void leave(struct cpl_linkload *ll, int u)
{
	int c = ll->cls[u];
	if (ll->prev[u] >= 0)
		ll->next[ll->prev[u]] = ll->next[u];
	else
		ll->chead[c] = ll->next[u];
	if (ll->next[u] >= 0)
		ll->prev[ll->next[u]] = ll->prev[u];
	ll->ccount[c]--;
	ll->cls[u] = -1;
}

/* A slot of the table that regroup() groups links with: (old class, its
 * bandwidth, new users) -> new class. */
struct group {
	double bw;
	long n;
	int c, to, used;
};

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdU;
	h ^= h >> 33;
	return h;
}

/* Moves links u[0 .. nk) into new classes, one per (class, bandwidth,
 * users) among them (class -1: none yet, residual = bandwidth); the links
 * left without users leave. The classes are found by hashing (order does
 * not matter: every class goes through the same arithmetic). -1 when out
 * of memory. */
static int regroup(struct cpl_linkload *ll, const int *u, long nk, int *nactive)
{
	long size = 16;
	while (size < 2 * nk)
		size *= 2;
	if (size > ll->capg) {
		free(ll->groups);
		ll->groups = calloc((size_t)size, sizeof *ll->groups);
		ll->capg = ll->groups ? size : 0;
		if (!ll->groups)
			return -1;
	}
	struct group *g = ll->groups;
	uint64_t mask = (uint64_t)size - 1;
	int rc = 0;
	for (long i = 0; i < nk; i++) {
		int c = ll->cls[u[i]];
		double bw = c >= 0 ? ll->cbw[c] : ll->m->links[ll->ulink[u[i]]].bw_bps;
		long n = ll->users[u[i]];
		uint64_t bits;
		memcpy(&bits, &bw, sizeof bits);
		uint64_t h = mix(mix((uint64_t)(int64_t)c ^ mix(bits)) ^ (uint64_t)n) & mask;
		while (g[h].used && (g[h].c != c || g[h].n != n || g[h].bw != bw))
			h = (h + 1) & mask;
		if (!g[h].used) {
			g[h] = (struct group){bw, n, c, -1, 1};
			if (n > 0) {
				g[h].to = new_class(ll, c >= 0 ? ll->ccap[c] : bw, bw, n);
				if (g[h].to < 0)
					rc = -1;
				else
					ll->active[(*nactive)++] = g[h].to;
			}
		}
		if (c >= 0)
			leave(ll, u[i]);
		if (g[h].to >= 0)
			join(ll, u[i], g[h].to);
	}
	memset(g, 0, (size_t)size * sizeof *g);
	return rc;
}

/* The parts of a round's full links freeze their flows; the links whose
 * user counts change go to the changed list. */
static long settle_round(struct cpl_linkload *ll, struct ll_part *const *parts, int nsat,
                         double level)
{
	long nchanged = 0;
	int ntouched = 0;
	for (int i = 0; i < nsat; i++)
		for (int u = ll->chead[ll->sat[i]]; u >= 0; u = ll->next[u])
			for (long q = ll->mstart[u]; q < ll->mstart[u + 1]; q++) {
				struct ll_part *p = parts[ll->mpart[q]];
				p->ops->fill(p, ll->mloc[q], level);
				if (!p->touched) {
					p->touched = 1;
					ll->tparts[ntouched++] = ll->mpart[q];
				}
			}
	ll->stats.settles += ntouched;
	for (int i = 0; i < ntouched; i++) {
		struct ll_part *p = parts[ll->tparts[i]];
		int n = p->ops->settle(p, ll->sx, ll->sby);
		p->touched = 0;
		for (int k = 0; k < n; k++) {
			int u = p->at[ll->sx[k]];
			ll->users[u] -= ll->sby[k];
			if (!ll->mark[u]) {
				ll->mark[u] = 1;
				ll->changed[nchanged++] = u;
			}
		}
	}
	return nchanged;
}

static int fill(struct cpl_linkload *ll, struct ll_part *const *parts, long nu)
{
	int nactive = 0;
	ll->nc = 0;
	for (long u = 0; u < nu; u++) {
		ll->cls[u] = -1;
		ll->changed[u] = (int)u;
	}
	if (regroup(ll, ll->changed, nu, &nactive))
		return -1;
	double level = 0;
	while (nactive > 0) {
		ll->stats.rounds++;
		ll->stats.class_rounds += nactive;
		double inc = INFINITY;
		for (int i = 0; i < nactive; i++) {
			int c = ll->active[i];
			if (ll->ccap[c] / (double)ll->cn[c] < inc)
				inc = ll->ccap[c] / (double)ll->cn[c];
		}
		level += inc;
		int nsat = 0;
		for (int i = 0; i < nactive; i++) {
			int c = ll->active[i];
			ll->ccap[c] -= inc * (double)ll->cn[c];
			if (!(ll->ccap[c] > FULL * ll->cbw[c]))
				ll->sat[nsat++] = c;
		}
		long nchanged = settle_round(ll, parts, nsat, level);
		for (long i = 0; i < nchanged; i++)
			ll->mark[ll->changed[i]] = 0;
		if (regroup(ll, ll->changed, nchanged, &nactive))
			return -1;
		int kept = 0;
		for (int i = 0; i < nactive; i++)
			if (ll->ccount[ll->active[i]] > 0)
				ll->active[kept++] = ll->active[i];
		nactive = kept;
	}
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
	int np = 0, nr = 1, nx = 1;
	long nm = 0;
	struct ll_part **parts = malloc((size_t)(n ? n : 1) * sizeof *parts);
	if (!parts)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int j = 0; j < n; j++) {
		nr = jobs[j]->nranks > nr ? jobs[j]->nranks : nr;
		if (!jobs[j]->part)
			continue;
		struct ll_part *p = parts[np++] = jobs[j]->part;
		p->ops->reset(p);
		p->touched = 0;
		nm += p->nlinks;
		nx = p->nlinks > nx ? p->nlinks : nx;
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
		memset(ll->users, 0, (size_t)nu * sizeof *ll->users);
		memset(ll->mstart, 0, ((size_t)nu + 1) * sizeof *ll->mstart);
		for (int i = 0; i < np; i++)
			for (int x = 0; x < parts[i]->nlinks; x++) {
				int u = parts[i]->at[x];
				ll->ulink[u] = parts[i]->links[x];
				ll->users[u] += parts[i]->users[x];
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
		rc = fill(ll, parts, nu);
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
		if (jobs[j]->part)
			jobs[j]->part->ops->comm(jobs[j]->part, comm);
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
	int rc = 0;
	if (form == CPL_FLOWS_AGGREGATE || (form == CPL_FLOWS_AUTO && job->nranks >= TREE_RANKS))
		rc = ll_tree_part(m, job, &f->part);
	f->aggregated = f->part != NULL;
	if (!rc && !f->part)
		rc = ll_flows_part(m, job, &f->part);
	if (rc) {
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
	return f->aggregated;
}

void cpl_flows_free(struct cpl_job_flows *f)
{
	if (!f)
		return;
	if (f->part)
		f->part->ops->destroy(f->part);
	free(f);
}

double cpl_flows_memory(const struct cpl_job_flows *f)
{
	return sizeof *f + (f->part ? f->part->ops->memory(f->part) : 0);
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

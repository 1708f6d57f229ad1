/* Max-min fair sharing of link bandwidth among the flows of the running
 * jobs (linkload.h): progressive filling on the links the jobs use. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linkload.h"

#define FULL 1e-9 /* a link is full within this fraction of its bandwidth */

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
	long *users, *start, *fill;
	char *mark;
	/* per class: residual, bandwidth, users of each member, members */
	long capc, nc;
	double *ccap, *cbw;
	long *cn, *ccount;
	int *chead, *active, *sat;
	/* per flow and per flow-link crossing */
	long capf, capx;
	int *fjob;
	double *rate; /* 0 while active */
	int *lflows;  /* the flows of used link u: lflows[start[u] .. start[u + 1]) */
	double *comm; /* per rank of one job */
	int capr;
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
	free(ll->users), free(ll->start), free(ll->fill), free(ll->mark);
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
	free(ll->slot), free(ll->fjob), free(ll->rate), free(ll->lflows), free(ll->comm);
	free(ll);
}

/* Room for nu used links, nf flows, nx crossings and nr ranks. */
static int room(struct cpl_linkload *ll, long nu, long nf, long nx, int nr)
{
	nu = nu ? nu : 1, nf = nf ? nf : 1, nx = nx ? nx : 1, nr = nr ? nr : 1;
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
		ll->start = malloc((z + 1) * sizeof *ll->start);
		ll->fill = malloc(z * sizeof *ll->fill);
		ll->mark = calloc(z, 1);
		if (!ll->ulink || !ll->cls || !ll->next || !ll->prev || !ll->changed ||
		    !ll->users || !ll->start || !ll->fill || !ll->mark) {
			ll->capu = 0;
			return -1;
		}
	}
	if (nf > ll->capf) {
		free(ll->fjob), free(ll->rate);
		ll->fjob = malloc((size_t)nf * sizeof *ll->fjob);
		ll->rate = malloc((size_t)nf * sizeof *ll->rate);
		ll->capf = ll->fjob && ll->rate ? nf : 0;
		if (!ll->capf)
			return -1;
	}
	if (nx > ll->capx) {
		free(ll->lflows);
		ll->lflows = malloc((size_t)nx * sizeof *ll->lflows);
		ll->capx = ll->lflows ? nx : 0;
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

struct link_key {
	double bw;
	long n;
	int c, u;
};

static int cmp_key(const void *a, const void *b)
{
	const struct link_key *x = a, *y = b;
	if (x->c != y->c)
		return (x->c > y->c) - (x->c < y->c);
	if (x->bw != y->bw)
		return (x->bw > y->bw) - (x->bw < y->bw);
	if (x->n != y->n)
		return (x->n > y->n) - (x->n < y->n);
	return (x->u > y->u) - (x->u < y->u);
}

/* Moves the links of keys (sorted) into new classes, one per run of equal
 * (class, bandwidth, users); the residual is the old class's (bandwidth
 * when c < 0); links without users leave. -1 when out of memory. */
static int regroup(struct cpl_linkload *ll, struct link_key *keys, long nk, int *nactive)
{
	for (long i = 0; i < nk;) {
		long j = i;
		while (j < nk && keys[j].c == keys[i].c && keys[j].bw == keys[i].bw &&
		       keys[j].n == keys[i].n)
			j++;
		int old = keys[i].c, c = -1;
		if (keys[i].n > 0) {
			c = new_class(ll, old >= 0 ? ll->ccap[old] : keys[i].bw, keys[i].bw,
			              keys[i].n);
			if (c < 0)
				return -1;
			ll->active[(*nactive)++] = c;
		}
		for (; i < j; i++) {
			if (ll->cls[keys[i].u] >= 0)
				leave(ll, keys[i].u);
			if (c >= 0)
				join(ll, keys[i].u, c);
		}
	}
	return 0;
}

/* Freezes the active flows of used link u at level lev; the links whose
 * user counts change go to the changed list. */
static void freeze(struct cpl_linkload *ll, const struct cpl_job_flows *const *jobs,
                   const long *base, int u, double lev, long *nchanged)
{
	for (long i = ll->start[u]; i < ll->start[u + 1]; i++) {
		int fl = ll->lflows[i];
		if (ll->rate[fl] > 0)
			continue;
		ll->rate[fl] = lev;
		const struct cpl_job_flows *jf = jobs[ll->fjob[fl]];
		long k = fl - base[ll->fjob[fl]];
		for (long x = jf->first[k]; x < jf->first[k + 1]; x++) {
			int v = ll->slot[jf->pool[x]];
			ll->users[v]--;
			if (!ll->mark[v]) {
				ll->mark[v] = 1;
				ll->changed[(*nchanged)++] = v;
			}
		}
	}
}

static int fill(struct cpl_linkload *ll, const struct cpl_job_flows *const *jobs, const long *base,
                long nu)
{
	const struct plat_link *links = ll->m->links;
	struct link_key *keys = malloc((size_t)(nu ? nu : 1) * sizeof *keys);
	int nactive = 0, rc = 0;
	if (!keys)
		return -1;
	ll->nc = 0;
	for (long u = 0; u < nu; u++) {
		ll->cls[u] = -1;
		keys[u] = (struct link_key){links[ll->ulink[u]].bw_bps, ll->users[u], -1, (int)u};
	}
	qsort(keys, (size_t)nu, sizeof *keys, cmp_key);
	if (regroup(ll, keys, nu, &nactive))
		rc = -1;
	double level = 0;
	while (!rc && nactive > 0) {
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
		long nchanged = 0;
		for (int i = 0; i < nsat; i++)
			for (int u = ll->chead[ll->sat[i]]; u >= 0; u = ll->next[u])
				freeze(ll, jobs, base, u, level, &nchanged);
		for (long i = 0; i < nchanged; i++) {
			int u = ll->changed[i];
			ll->mark[u] = 0;
			keys[i] =
			    (struct link_key){ll->cbw[ll->cls[u]], ll->users[u], ll->cls[u], u};
		}
		qsort(keys, (size_t)nchanged, sizeof *keys, cmp_key);
		if (regroup(ll, keys, nchanged, &nactive))
			rc = -1;
		int kept = 0;
		for (int i = 0; i < nactive; i++)
			if (ll->ccount[ll->active[i]] > 0)
				ll->active[kept++] = ll->active[i];
		nactive = kept;
	}
	free(keys);
	return rc;
}

int cpl_linkload_run(struct cpl_linkload *ll, const struct cpl_job_flows *const *jobs, int n,
                     double *t, struct cmn_err *e)
{
	long nf = 0, nx = 0;
	int nr = 1;
	long *base = malloc((size_t)(n ? n : 1) * sizeof *base);
	if (!base)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int j = 0; j < n; j++) {
		base[j] = nf;
		nf += jobs[j]->nflows;
		nx += jobs[j]->first[jobs[j]->nflows];
		nr = jobs[j]->nranks > nr ? jobs[j]->nranks : nr;
	}
	if (nf >= INT_MAX || room(ll, 0, nf, nx, nr)) {
		free(base);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	/* the used links and their user counts */
	long nu = 0;
	for (int j = 0; j < n; j++)
		for (long x = 0; x < jobs[j]->first[jobs[j]->nflows]; x++)
			if (ll->slot[jobs[j]->pool[x]] < 0)
				ll->slot[jobs[j]->pool[x]] = (int)nu++;
	if (room(ll, nu, 0, 0, 0)) {
		for (int j = 0; j < n; j++)
			for (long x = 0; x < jobs[j]->first[jobs[j]->nflows]; x++)
				ll->slot[jobs[j]->pool[x]] = -1;
		free(base);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	memset(ll->users, 0, (size_t)nu * sizeof *ll->users);
	for (int j = 0; j < n; j++)
		for (long x = 0; x < jobs[j]->first[jobs[j]->nflows]; x++) {
			int u = ll->slot[jobs[j]->pool[x]];
			ll->ulink[u] = jobs[j]->pool[x];
			ll->users[u]++;
		}
	/* the flows of each used link */
	ll->start[0] = 0;
	for (long u = 0; u < nu; u++) {
		ll->start[u + 1] = ll->start[u] + ll->users[u];
		ll->fill[u] = ll->start[u];
	}
	for (int j = 0; j < n; j++)
		for (long k = 0; k < jobs[j]->nflows; k++) {
			ll->fjob[base[j] + k] = j;
			ll->rate[base[j] + k] = 0;
			for (long x = jobs[j]->first[k]; x < jobs[j]->first[k + 1]; x++)
				ll->lflows[ll->fill[ll->slot[jobs[j]->pool[x]]]++] =
				    (int)(base[j] + k);
		}
	int rc = fill(ll, jobs, base, nu);
	for (long u = 0; u < nu; u++)
		ll->slot[ll->ulink[u]] = -1;
	if (rc) {
		free(base);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	/* each rank's slowest flow, each job's slowest rank */
	for (int j = 0; j < n; j++) {
		const struct cpl_job_flows *jf = jobs[j];
		double *comm = ll->comm;
		for (int a = 0; a < jf->nranks; a++)
			comm[a] = 0;
		for (long k = 0; k < jf->nflows; k++) {
			double d = jf->bytes[k] / ll->rate[base[j] + k] + jf->lat[k];
			if (d > comm[jf->src[k]])
				comm[jf->src[k]] = d;
			if (d > comm[jf->dst[k]])
				comm[jf->dst[k]] = d;
		}
		t[j] = 0;
		for (int a = 0; a < jf->nranks; a++) {
			double x = jf->flops[a] / ll->m->speed_flops + comm[a];
			if (x > t[j])
				t[j] = x;
		}
	}
	free(base);
	return 0;
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
		rc = cpl_linkload_run(ll, (const struct cpl_job_flows *const *)f, n, t, e);
	for (int j = 0; f && j < n; j++)
		cpl_flows_free(f[j]);
	free(f);
	cpl_linkload_destroy(ll);
	return rc;
}

/* A job's flows one by one for the linkload model (ll_part.h): one per
 * pair of ranks on different nodes with bytes in its traffic, its route's
 * links (as indices into the part's own link list) and latency; the flows
 * of each block of sources a part of their own. */
#include <stdlib.h>
#include <string.h>

#include "linkload.h"
#include "ll_flows.h"
#include "ll_sort.h"

static int add(void *ctx, int a, int b, double bytes)
{
	struct flows *f = ctx;
	int na = f->nodes[a], nb = f->nodes[b];
	if (na == nb)
		return 0;
	long k = f->nflows++;
	int len = plat_route(f->m, na, nb, f->path + f->ncross);
	double lat = 0;
	for (int i = 0; i < len; i++)
		lat += f->m->links[f->path[f->ncross + i]].lat_s;
	f->src[k] = a;
	f->dst[k] = b;
	f->bytes[k] = bytes;
	f->lat[k] = lat;
	f->first[k] = f->ncross;
	f->ncross += len;
	return 0;
}

/* The machine links of the routes made local: the distinct ones listed
 * (ascending), each crossing renumbered, the flows of each link listed.
 * The crossings sorted by link as (link << 32 | crossing) keys. */
static int localize(struct flows *f)
{
	size_t nx = (size_t)f->ncross;
	uint64_t *key = malloc(2 * (nx ? nx : 1) * sizeof *key);
	if (!key)
		return -1;
	uint64_t top = 0;
	for (size_t i = 0; i < nx; i++) {
		key[i] = (uint64_t)(uint32_t)f->path[i] << 32 | i;
		top |= (uint32_t)f->path[i];
	}
	const uint64_t *by = cpl_ll_sort_bits(key, key + nx, nx, 32, 32 + cpl_ll_sort_width(top));
	int nl = 0;
	for (size_t i = 0; i < nx; i++)
		nl += !i || by[i] >> 32 != by[i - 1] >> 32;
	struct ll_part *p = &f->base;
	size_t z = (size_t)(nl ? nl : 1);
	int rc = cpl_ll_part_links(p, nl);
	if (!rc) {
		memset(p->users0, 0, z * sizeof *p->users0);
		for (size_t i = 0, x = 0; i < nx; i++) {
			int id = (int)(by[i] >> 32);
			if (i && id != p->links[x])
				x++;
			p->links[x] = id;
			f->path[(uint32_t)by[i]] = (int)x;
			p->users0[x]++;
		}
	}
	free(key);
	f->lstart = calloc(z + 1, sizeof *f->lstart);
	f->drop = calloc(z, sizeof *f->drop);
	f->pending = malloc(z * sizeof *f->pending);
	f->lflows = malloc((nx ? nx : 1) * sizeof *f->lflows);
	if (rc || !f->lstart || !f->drop || !f->pending || !f->lflows)
		return -1;
	for (int x = 0; x < nl; x++)
		f->lstart[x + 1] = f->lstart[x] + p->users0[x];
	long *fill = f->drop; /* zero now, zero again after */
	for (long k = 0; k < f->nflows; k++)
		for (long i = f->first[k]; i < f->first[k + 1]; i++) {
			int x = f->path[i];
			f->lflows[f->lstart[x] + fill[x]++] = (int)k;
		}
	memset(fill, 0, z * sizeof *fill);
	return 0;
}

static void flows_reset(struct ll_part *p)
{
	struct flows *f = (struct flows *)p;
	memcpy(p->users, p->users0, (size_t)p->nlinks * sizeof *p->users);
	memset(f->rate, 0, (size_t)f->nflows * sizeof *f->rate);
}

/* Flows frozen above level (at it unless incl) active again; the counts
 * from the frozen ones. */
static void flows_rewind(struct ll_part *p, double level, int incl)
{
	struct flows *f = (struct flows *)p;
	memcpy(p->users, p->users0, (size_t)p->nlinks * sizeof *p->users);
	for (long k = 0; k < f->nflows; k++) {
		double r = f->rate[k];
		if (ll_flows_away(f, k))
			continue;
		if (r > level || (r == level && !incl))
			f->rate[k] = 0;
		else if (r > 0)
			for (long j = f->first[k]; j < f->first[k + 1]; j++)
				p->users[f->path[j]]--;
	}
}

static void flows_fill(struct ll_part *p, int x, double level)
{
	struct flows *f = (struct flows *)p;
	for (long i = f->lstart[x]; i < f->lstart[x + 1]; i++) {
		int k = f->lflows[i];
		if (f->rate[k] > 0 || ll_flows_away(f, k))
			continue;
		f->rate[k] = level;
		for (long j = f->first[k]; j < f->first[k + 1]; j++) {
			int y = f->path[j];
			p->users[y]--;
			if (!f->drop[y]++)
				f->pending[f->npending++] = y;
		}
	}
}

int cpl_ll_flows_pending(long *drop, const int *pending, int *npending, int *x, long *by)
{
	int n = *npending;
	for (int i = 0; i < n; i++) {
		x[i] = pending[i];
		by[i] = drop[x[i]];
		drop[x[i]] = 0;
	}
	*npending = 0;
	return n;
}

static int flows_settle(struct ll_part *p, int *x, long *by)
{
	struct flows *f = (struct flows *)p;
	return cpl_ll_flows_pending(f->drop, f->pending, &f->npending, x, by);
}

static void flows_comm(const struct ll_part *p, double *comm)
{
	const struct flows *f = (const struct flows *)p;
	for (long k = 0; k < f->nflows; k++) {
		if (ll_flows_away(f, k))
			continue;
		double d = f->bytes[k] / f->rate[k] + f->lat[k];
		if (d > comm[f->src[k]])
			comm[f->src[k]] = d;
		if (d > comm[f->dst[k]])
			comm[f->dst[k]] = d;
	}
}

static void flows_destroy(struct ll_part *p)
{
	struct flows *f = (struct flows *)p;
	if (!f)
		return;
	cpl_ll_part_free(p);
	free(f->src), free(f->dst), free(f->bytes), free(f->lat), free(f->rate), free(f->first);
	free(f->path), free(f->lstart), free(f->lflows), free(f->drop);
	free(f->pending), free(f->state), free(f->marked), free(f->rev);
	free(f);
}

static double flows_memory(const struct ll_part *p)
{
	const struct flows *f = (const struct flows *)p;
	return sizeof *f +
	       (double)f->nflows *
	           (2 * sizeof(int) + 3 * sizeof(double) + sizeof(long) + (f->state ? 1 : 0)) +
	       (double)f->ncross * 2 * sizeof(int) +
	       (double)p->nlinks * (2 * sizeof(int) + 4 * sizeof(long));
}

static const struct ll_part_ops flows_ops = {
    .reset = flows_reset,
    .rewind = flows_rewind,
    .fill = flows_fill,
    .settle = flows_settle,
    .comm = flows_comm,
    .destroy = flows_destroy,
    .memory = flows_memory,
    .mark = cpl_ll_flows_mark,
    .split = cpl_ll_flows_split,
    .rejoin = cpl_ll_flows_rejoin,
};

/* The flows of a job split by source: per block of sources, the number
 * of flows, then the part being filled. */
struct split {
	const struct plat_machine *m;
	const int *nodes;
	int per;
	long *nf;
	struct flows **f;
};

static int count_split(void *ctx, int a, int b, double bytes)
{
	struct split *s = ctx;
	(void)bytes;
	s->nf[a / s->per] += s->nodes[a] != s->nodes[b];
	return 0;
}

static int add_split(void *ctx, int a, int b, double bytes)
{
	struct split *s = ctx;
	return s->nodes[a] == s->nodes[b] ? 0 : add(s->f[a / s->per], a, b, bytes);
}

/* An empty part for nf flows; NULL out of memory. */
static struct flows *new_flows(const struct plat_machine *m, const int *nodes, long nf)
{
	struct flows *f = calloc(1, sizeof *f);
	if (!f)
		return NULL;
	f->base.ops = &flows_ops;
	f->m = m;
	f->nodes = nodes;
	size_t z = (size_t)nf, maxr = (size_t)plat_max_route(m);
	f->src = malloc(z * sizeof *f->src);
	f->dst = malloc(z * sizeof *f->dst);
	f->bytes = malloc(z * sizeof *f->bytes);
	f->lat = malloc(z * sizeof *f->lat);
	f->rate = malloc(z * sizeof *f->rate);
	f->first = malloc((z + 1) * sizeof *f->first);
	f->path = malloc(z * (maxr ? maxr : 1) * sizeof *f->path);
	if (!f->src || !f->dst || !f->bytes || !f->lat || !f->rate || !f->first || !f->path) {
		flows_destroy(&f->base);
		return NULL;
	}
	return f;
}

/* Part f's routes made local once its flows are in; 0 or -1. */
static int finish(struct flows *f)
{
	f->first[f->nflows] = f->ncross;
	int *path = realloc(f->path, (size_t)(f->ncross ? f->ncross : 1) * sizeof *f->path);
	if (path)
		f->path = path;
	f->nodes = NULL; /* borrowed for the build only */
	return localize(f);
}

int cpl_ll_flows_parts(const struct plat_machine *m, const struct cpl_job_load *job, int per,
                       struct ll_part ***out, int *n)
{
	int nb = job->nranks / per + (job->nranks % per != 0);
	struct split s = {m, job->nodes, per, calloc((size_t)(nb ? nb : 1), sizeof *s.nf),
	                  calloc((size_t)(nb ? nb : 1), sizeof *s.f)};
	struct ll_part **parts = malloc((size_t)(nb ? nb : 1) * sizeof *parts);
	int rc = !s.nf || !s.f || !parts ? -1 : 0, np = 0;
	*out = NULL;
	*n = 0;
	if (!rc)
		cpl_traffic_each(job->traffic, count_split, &s);
	for (int i = 0; !rc && i < nb; i++)
		if (s.nf[i] && !(s.f[i] = new_flows(m, job->nodes, s.nf[i])))
			rc = -1;
	if (!rc)
		cpl_traffic_each(job->traffic, add_split, &s);
	for (int i = 0; i < nb && s.f; i++) {
		if (s.f[i] && !rc && !(rc = finish(s.f[i])))
			parts[np++] = &s.f[i]->base;
		else if (s.f[i])
			flows_destroy(&s.f[i]->base);
	}
	if (rc) {
		for (int i = 0; i < np; i++)
			flows_destroy(parts[i]);
		free(parts);
		parts = NULL, np = 0;
	}
	free(s.nf), free(s.f);
	*out = parts;
	*n = np;
	return rc;
}

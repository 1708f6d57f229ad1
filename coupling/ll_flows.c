/* A job's flows for the linkload model (linkload.h): one per pair of ranks
 * on different nodes with bytes in its traffic, with its route's links and
 * latency. */
#include <stdlib.h>
#include <string.h>

#include "linkload.h"

struct build {
	const struct plat_machine *m;
	const int *nodes;
	struct cpl_job_flows *f;
	long used;
};

static int count(void *ctx, int a, int b, double bytes)
{
	struct build *c = ctx;
	(void)bytes;
	c->f->nflows += c->nodes[a] != c->nodes[b];
	return 0;
}

static int add(void *ctx, int a, int b, double bytes)
{
	struct build *c = ctx;
	struct cpl_job_flows *f = c->f;
	int na = c->nodes[a], nb = c->nodes[b];
	if (na == nb)
		return 0;
	long k = f->nflows++;
	int len = plat_route(c->m, na, nb, f->pool + c->used);
	double lat = 0;
	for (int i = 0; i < len; i++)
		lat += c->m->links[f->pool[c->used + i]].lat_s;
	f->src[k] = a;
	f->dst[k] = b;
	f->bytes[k] = bytes;
	f->lat[k] = lat;
	f->first[k] = c->used;
	c->used += len;
	return 0;
}

int cpl_flows_build(const struct plat_machine *m, const struct cpl_job_load *job,
                    struct cpl_job_flows **out, struct cmn_err *e)
{
	struct cpl_job_flows *f = calloc(1, sizeof *f);
	*out = NULL;
	if (!f)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	struct build c = {m, job->nodes, f, 0};
	f->nranks = job->nranks;
	f->flops = job->traffic->flops;
	cpl_traffic_each(job->traffic, count, &c);
	size_t nf = (size_t)f->nflows, maxr = (size_t)plat_max_route(m);
	f->src = malloc((nf ? nf : 1) * sizeof *f->src);
	f->dst = malloc((nf ? nf : 1) * sizeof *f->dst);
	f->bytes = malloc((nf ? nf : 1) * sizeof *f->bytes);
	f->lat = malloc((nf ? nf : 1) * sizeof *f->lat);
	f->first = malloc((nf + 1) * sizeof *f->first);
	f->pool = malloc((nf ? nf : 1) * (maxr ? maxr : 1) * sizeof *f->pool);
	if (!f->src || !f->dst || !f->bytes || !f->lat || !f->first || !f->pool) {
		cpl_flows_free(f);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	f->nflows = 0;
	cpl_traffic_each(job->traffic, add, &c);
	f->first[f->nflows] = c.used;
	int *pool = realloc(f->pool, (size_t)(c.used ? c.used : 1) * sizeof *f->pool);
	if (pool)
		f->pool = pool;
	*out = f;
	return 0;
}

void cpl_flows_free(struct cpl_job_flows *f)
{
	if (!f)
		return;
	free(f->src), free(f->dst), free(f->bytes), free(f->lat), free(f->first), free(f->pool);
	free(f);
}

double cpl_flows_memory(const struct cpl_job_flows *f)
{
	return sizeof *f +
	       (double)f->nflows * (sizeof *f->src + sizeof *f->dst + sizeof *f->bytes +
	                            sizeof *f->lat + sizeof *f->first) +
	       (double)f->first[f->nflows] * sizeof *f->pool;
}

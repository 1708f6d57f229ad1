/* Max-min fair sharing of link bandwidth among the flows of every job's
 * per-iteration traffic matrix (linkload.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linkload.h"

int cpl_flows_build(const struct plat_machine *m, const struct cpl_job_load *job,
                    struct cpl_job_flows *f, struct cmn_err *e)
{
	memset(f, 0, sizeof *f);
	int r = job->nranks, maxr = plat_max_route(m);
	long nf = 0;
	for (long i = 0; i < (long)r * r; i++)
		nf += job->matrix[i] > 0 && job->nodes[i / r] != job->nodes[i % r];
	f->nranks = r;
	f->flops = job->flops;
	f->src = malloc((size_t)(nf ? nf : 1) * sizeof *f->src);
	f->dst = malloc((size_t)(nf ? nf : 1) * sizeof *f->dst);
	f->bytes = malloc((size_t)(nf ? nf : 1) * sizeof *f->bytes);
	f->lat = malloc((size_t)(nf ? nf : 1) * sizeof *f->lat);
	f->first = malloc(((size_t)nf + 1) * sizeof *f->first);
	f->pool = malloc((size_t)(nf ? nf : 1) * (size_t)(maxr ? maxr : 1) * sizeof *f->pool);
	if (!f->src || !f->dst || !f->bytes || !f->lat || !f->first || !f->pool) {
		cpl_flows_free(f);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	int used = 0;
	for (int a = 0; a < r; a++)
		for (int b = 0; b < r; b++) {
			double bytes = job->matrix[(size_t)a * r + b];
			int na = job->nodes[a], nb = job->nodes[b];
			if (!(bytes > 0) || na == nb)
				continue;
			int k = f->nflows++, len = plat_route(m, na, nb, f->pool + used);
			double lat = 0;
			for (int i = 0; i < len; i++)
				lat += m->links[f->pool[used + i]].lat_s;
			f->src[k] = a;
			f->dst[k] = b;
			f->bytes[k] = bytes;
			f->lat[k] = lat;
			f->first[k] = used;
			used += len;
		}
	f->first[f->nflows] = used;
	return 0;
}

void cpl_flows_free(struct cpl_job_flows *f)
{
	free(f->src);
	free(f->dst);
	free(f->bytes);
	free(f->lat);
	free(f->first);
	free(f->pool);
	memset(f, 0, sizeof *f);
}

/* Progressive filling on the links the flows use: raise every unfrozen
 * flow's rate by the smallest equal share left on a link, freeze the flows
 * of the links that fill. */
int cpl_linkload_times_flows(const struct plat_machine *m, const struct cpl_job_flows *const *jobs,
                             int n, double *t, struct cmn_err *e)
{
	long nf = 0, nl = 0;
	for (int j = 0; j < n; j++) {
		nf += jobs[j]->nflows;
		nl += jobs[j]->first[jobs[j]->nflows];
	}
	int *slot =
	    malloc((size_t)(m->nlinks ? m->nlinks : 1) * sizeof *slot); /* link -> used index */
	int *ulink = malloc((size_t)(nl ? nl : 1) * sizeof *ulink);
	double *cap = malloc((size_t)(nl ? nl : 1) * sizeof *cap);
	long *users = calloc((size_t)(nl ? nl : 1), sizeof *users);
	long *start = calloc((size_t)nl + 2, sizeof *start);
	long *lflows = malloc((size_t)(nl ? nl : 1) * sizeof *lflows); /* flows of each used link */
	double *rate = calloc((size_t)(nf ? nf : 1), sizeof *rate);
	char *frozen = calloc((size_t)(nf ? nf : 1), 1);
	int rc = 0;
	if (!slot || !ulink || !cap || !users || !start || !lflows || !rate || !frozen) {
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
		goto out;
	}
	for (int i = 0; i < m->nlinks; i++)
		slot[i] = -1;
	long nu = 0;
	for (int j = 0; j < n; j++) /* the used links and their user counts */
		for (int k = 0; k < jobs[j]->first[jobs[j]->nflows]; k++) {
			int l = jobs[j]->pool[k];
			if (slot[l] < 0) {
				slot[l] = (int)nu;
				ulink[nu] = l;
				cap[nu] = m->links[l].bw_bps;
				nu++;
			}
			users[slot[l]]++;
		}
	for (long u = 0; u < nu; u++) /* CSR of the flows of each used link */
		start[u + 1] = start[u] + users[u];
	long *fill = calloc((size_t)nu + 1, sizeof *fill);
	if (!fill) {
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
		goto out;
	}
	for (int j = 0, base = 0; j < n; base += jobs[j]->nflows, j++)
		for (int k = 0; k < jobs[j]->nflows; k++)
			for (int i = jobs[j]->first[k]; i < jobs[j]->first[k + 1]; i++) {
				long u = slot[jobs[j]->pool[i]];
				lflows[start[u] + fill[u]++] = base + k;
			}
	free(fill);
	/* flow index -> (job, flow) for unfreezing links */
	int *fjob = malloc((size_t)(nf ? nf : 1) * sizeof *fjob),
	    *fk = malloc((size_t)(nf ? nf : 1) * sizeof *fk);
	if (!fjob || !fk) {
		free(fjob), free(fk);
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
		goto out;
	}
	for (int j = 0, base = 0; j < n; base += jobs[j]->nflows, j++)
		for (int k = 0; k < jobs[j]->nflows; k++) {
			fjob[base + k] = j;
			fk[base + k] = k;
		}
	long active = nf;
	double level = 0;
	while (active > 0) {
		double inc = INFINITY;
		for (long u = 0; u < nu; u++)
			if (users[u] > 0 && cap[u] / users[u] < inc)
				inc = cap[u] / users[u];
		level += inc;
		for (long u = 0; u < nu; u++)
			if (users[u] > 0)
				cap[u] -= inc * users[u];
		for (long u = 0; u < nu; u++) {
			if (users[u] == 0 || cap[u] > 1e-9 * m->links[ulink[u]].bw_bps)
				continue;
			for (long i = start[u]; i < start[u + 1]; i++) { /* the link is full */
				long fl = lflows[i];
				if (frozen[fl])
					continue;
				frozen[fl] = 1;
				rate[fl] = level;
				active--;
				const struct cpl_job_flows *jf = jobs[fjob[fl]];
				for (int x = jf->first[fk[fl]]; x < jf->first[fk[fl] + 1]; x++)
					users[slot[jf->pool[x]]]--;
			}
		}
	}
	free(fjob), free(fk);
	for (int j = 0, base = 0; j < n; base += jobs[j]->nflows, j++) {
		const struct cpl_job_flows *jf = jobs[j];
		double *comm = calloc((size_t)jf->nranks, sizeof *comm);
		if (!comm) {
			rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
			goto out;
		}
		for (int k = 0; k < jf->nflows; k++) {
			double d = jf->bytes[k] / rate[base + k] + jf->lat[k];
			if (d > comm[jf->src[k]])
				comm[jf->src[k]] = d;
			if (d > comm[jf->dst[k]])
				comm[jf->dst[k]] = d;
		}
		t[j] = 0;
		for (int a = 0; a < jf->nranks; a++) {
			double x = jf->flops[a] / m->speed_flops + comm[a];
			if (x > t[j])
				t[j] = x;
		}
		free(comm);
	}
out:
	free(slot), free(ulink), free(cap), free(users), free(start), free(lflows), free(rate),
	    free(frozen);
	return rc;
}

int cpl_linkload_times(const struct plat_machine *m, const struct cpl_job_load *jobs, int n,
                       double *t, struct cmn_err *e)
{
	struct cpl_job_flows *f = calloc((size_t)(n ? n : 1), sizeof *f);
	const struct cpl_job_flows **p = malloc((size_t)(n ? n : 1) * sizeof *p);
	int rc = !f || !p ? cmn_err_set(e, CMN_ENOMEM, "out of memory") : 0;
	for (int j = 0; !rc && j < n; j++) {
		rc = cpl_flows_build(m, &jobs[j], &f[j], e);
		p[j] = &f[j];
	}
	if (!rc)
		rc = cpl_linkload_times_flows(m, p, n, t, e);
	for (int j = 0; f && j < n; j++)
		cpl_flows_free(&f[j]);
	free(f);
	free(p);
	return rc;
}

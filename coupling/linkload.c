/* Max-min fair sharing of link bandwidth among the flows of every job's
 * per-iteration traffic matrix (linkload.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linkload.h"

struct flow {
	int job, src, dst; /* ranks */
	double bytes, lat, rate;
	int first, nlinks; /* its links in the route pool */
	int frozen;
};

int cpl_linkload_times(const struct plat_machine *m, const struct cpl_job_load *jobs, int n,
                       double *t, struct cmn_err *e)
{
	long nf = 0;
	for (int j = 0; j < n; j++)
		for (long i = 0; i < (long)jobs[j].nranks * jobs[j].nranks; i++)
			nf += jobs[j].matrix[i] > 0 && jobs[j].nodes[i / jobs[j].nranks] !=
			                                   jobs[j].nodes[i % jobs[j].nranks];
	int maxr = plat_max_route(m);
	struct flow *f = malloc((size_t)(nf ? nf : 1) * sizeof *f);
	int *pool = malloc((size_t)(nf ? nf : 1) * (size_t)(maxr ? maxr : 1) * sizeof *pool);
	double *cap = malloc((size_t)(m->nlinks ? m->nlinks : 1) * sizeof *cap);
	int *users = calloc((size_t)(m->nlinks ? m->nlinks : 1), sizeof *users);
	if (!f || !pool || !cap || !users) {
		free(f), free(pool), free(cap), free(users);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	long k = 0, used = 0;
	for (int j = 0; j < n; j++) {
		int r = jobs[j].nranks;
		for (int a = 0; a < r; a++)
			for (int b = 0; b < r; b++) {
				double bytes = jobs[j].matrix[(size_t)a * r + b];
				int na = jobs[j].nodes[a], nb = jobs[j].nodes[b];
				if (!(bytes > 0) || na == nb)
					continue;
				int len = plat_route(m, na, nb, pool + used);
				double lat = 0;
				for (int i = 0; i < len; i++)
					lat += m->links[pool[used + i]].lat_s;
				f[k] = (struct flow){j, a, b, bytes, lat, 0, (int)used, len, 0};
				used += len;
				k++;
			}
	}
	/* progressive filling */
	for (int i = 0; i < m->nlinks; i++)
		cap[i] = m->links[i].bw_bps;
	for (long i = 0; i < nf; i++)
		for (int l = 0; l < f[i].nlinks; l++)
			users[pool[f[i].first + l]]++;
	long active = nf;
	double level = 0;
	while (active > 0) {
		double inc = INFINITY; /* the smallest equal share still left on a used link */
		for (int i = 0; i < m->nlinks; i++)
			if (users[i] > 0 && cap[i] / users[i] < inc)
				inc = cap[i] / users[i];
		level += inc;
		for (int i = 0; i < m->nlinks; i++)
			if (users[i] > 0)
				cap[i] -= inc * users[i];
		for (long i = 0; i < nf; i++) { /* freeze the flows of full links */
			if (f[i].frozen)
				continue;
			int full = 0;
			for (int l = 0; l < f[i].nlinks && !full; l++)
				full = cap[pool[f[i].first + l]] <=
				       1e-9 * m->links[pool[f[i].first + l]].bw_bps;
			if (full) {
				f[i].frozen = 1;
				f[i].rate = level;
				for (int l = 0; l < f[i].nlinks; l++)
					users[pool[f[i].first + l]]--;
				active--;
			}
		}
	}
	/* per rank: slowest flow in or out; per job: slowest rank with compute */
	for (int j = 0; j < n; j++) {
		int r = jobs[j].nranks;
		double *comm = calloc((size_t)r, sizeof *comm);
		if (!comm) {
			free(f), free(pool), free(cap), free(users);
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		}
		for (long i = 0; i < nf; i++)
			if (f[i].job == j) {
				double d = f[i].bytes / f[i].rate + f[i].lat;
				if (d > comm[f[i].src])
					comm[f[i].src] = d;
				if (d > comm[f[i].dst])
					comm[f[i].dst] = d;
			}
		t[j] = 0;
		for (int a = 0; a < r; a++) {
			double x = jobs[j].flops[a] / m->speed_flops + comm[a];
			if (x > t[j])
				t[j] = x;
		}
		free(comm);
	}
	free(f), free(pool), free(cap), free(users);
	return 0;
}

/* Synthetic traffic runs and their measurement (flit_synth.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "flit_synth.h"

void net_flit_synth_default(struct flit_synth_opts *o)
{
	*o = (struct flit_synth_opts){0.1, 1, 10000, 10000, 1000000, 0.05, 1, NULL};
}

struct meas {
	int measuring;
	long *lat;
	long nlat, caplat, oom;
	double sum_lat, flits; /* this sample */
	long count;            /* this sample */
};

static void delivered(void *ctx, const struct flit_delivery *d)
{
	struct meas *s = ctx;
	if (!s->measuring)
		return;
	long l = (long)(d->done - d->created);
	if (s->nlat == s->caplat) {
		long cap = s->caplat ? 2 * s->caplat : 4096;
		long *p = realloc(s->lat, (size_t)cap * sizeof *p);
		if (!p) {
			s->oom = 1;
			return;
		}
		s->lat = p;
		s->caplat = cap;
	}
	s->lat[s->nlat++] = l;
	s->sum_lat += (double)l;
	s->flits += d->flits;
	s->count++;
}

/* The k-th smallest of v[0..n) (0-based), v reordered: quickselect
 * (Hoare's FIND) with the middle element as pivot; O(n) on average where
 * sorting half a million latencies cost a tenth of a run. */
static long kth_smallest(long *v, long n, long k)
{
	long lo = 0, hi = n - 1;
	while (lo < hi) {
		long pivot = v[lo + (hi - lo) / 2], i = lo, j = hi;
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				long t = v[i];
				v[i++] = v[j];
				v[j--] = t;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return v[k];
	}
	return v[k];
}

static int agree(const double *v, double tol)
{
	double lo = v[0], hi = v[0];
	for (int i = 1; i < 3; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	return lo > 0 && hi / lo - 1 <= tol;
}

int net_flit_synth_run(const struct plat_machine *m, const struct flit_params *p,
                       const struct net_traffic *t, const struct flit_synth_opts *o,
                       struct flit_synth_result *r, struct cmn_err *e)
{
	if (!(o->load > 0 && o->load <= 1))
		return cmn_err_set(e, CMN_EUSAGE, "synthetic traffic: --load %g is not in (0, 1]",
		                   o->load);
	if (o->packet < 1)
		return cmn_err_set(e, CMN_EUSAGE, "synthetic traffic: --packet %d: at least 1 flit",
		                   o->packet);
	if (o->warmup < 0 || o->sample < 1)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "synthetic traffic: --warmup %ld, --sample %ld: a warm-up of 0 "
		                   "cycles or more, samples of 1 cycle or more",
		                   o->warmup, o->sample);
	if (o->max_cycles < o->sample)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "synthetic traffic: --sample %ld is more than --cycles %ld (the "
		                   "most cycles simulated)",
		                   o->sample, o->max_cycles);
	struct flit_net *n;
	if (net_flit_net_create(m, p, &n, e))
		return e->code;
	if (net_flit_net_packet_ok(n, o->packet, e)) {
		net_flit_net_destroy(n);
		cmn_err_prefix(e, "synthetic traffic (--packet)");
		return e->code;
	}
	struct cmn_mt *rng = malloc(sizeof *rng);
	/* source_queue: each node's packet generated while its source was full
	 * (its destination; -1: none), which waits and holds the generator */
	int *waiting = malloc((size_t)m->nodes * sizeof *waiting);
	if (!rng || !waiting) {
		free(rng);
		free(waiting);
		net_flit_net_destroy(n);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	for (int x = 0; x < m->nodes; x++)
		waiting[x] = -1;
	cmn_mt_seed(rng, o->seed);
	struct meas s = {0};
	memset(r, 0, sizeof *r);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	double pinj = o->load / o->packet, lat3[3] = {0}, acc3[3] = {0}, sum_lat = 0, flits = 0;
	long id = 0, measured = 0;
	int rc = 0;
	for (long c = 0; !rc; c++) {
		if (c == o->warmup)
			s.measuring = 1;
		for (int x = 0; x < m->nodes && !rc; x++) {
			int d = waiting[x];
			if (d < 0 && cmn_mt_uniform(rng) < pinj)
				d = net_traffic_dest(t, x, rng);
			if (d < 0)
				continue;
			if (!net_flit_net_source_room(n, x, o->packet)) { /* it waits */
				waiting[x] = d;
				continue;
			}
			waiting[x] = -1;
			rc = net_flit_net_inject(n, x, d, o->packet, id++, e);
		}
		if (!rc)
			rc = net_flit_net_run(n, net_flit_net_now(n) + 1, delivered, &s, e);
		if (!rc && s.oom)
			rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
		if (rc || !s.measuring)
			continue;
		measured++;
		if (measured % o->sample)
			continue;
		/* a sample ends */
		lat3[0] = lat3[1], lat3[1] = lat3[2];
		acc3[0] = acc3[1], acc3[1] = acc3[2];
		lat3[2] = s.count ? s.sum_lat / (double)s.count : 0;
		acc3[2] = s.flits / ((double)m->nodes * (double)o->sample);
		sum_lat += s.sum_lat;
		flits += s.flits;
		r->packets += s.count;
		r->samples++;
		s.sum_lat = s.flits = 0;
		s.count = 0;
		if (r->samples >= 3 && agree(lat3, o->tolerance) && agree(acc3, o->tolerance)) {
			r->converged = 1;
			break;
		}
		if (measured >= o->max_cycles)
			break;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!rc) {
		r->offered = o->load;
		r->accepted = flits / ((double)m->nodes * (double)measured);
		r->mean_lat = r->packets ? sum_lat / (double)r->packets : NAN;
		/* the latencies of the measured samples (a last partial one is not counted) */
		long nl = r->packets < s.nlat ? r->packets : s.nlat;
		r->p99_lat =
		    nl ? (double)kth_smallest(s.lat, nl, (long)ceil(0.99 * (double)nl) - 1) : NAN;
		r->cycles = (long)net_flit_net_now(n);
		r->wall_s =
		    (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
		const long *carried = net_flit_net_link_flits(n); /* once: O(links) */
		for (int l = 0; l < m->nlinks; l++) {
			r->flit_hops += carried[l];
			if (o->link_flits)
				o->link_flits[l] = carried[l];
		}
	}
	free(s.lat);
	free(waiting);
	free(rng);
	net_flit_net_destroy(n);
	return rc;
}

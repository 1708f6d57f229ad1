/* Conservative backfilling (Mu'alem and Feitelson): every queued job holds
 * a reservation (a start time and the nodes the allocator chose for it in
 * the machine as it will be then), and no job may delay an earlier one.
 * - A job without reservation gets the earliest slot where the allocator
 *   can place it, given the running jobs (until their expected end) and
 *   every other reservation.
 * - When a job ends before its expected end, the schedule is compressed:
 *   in queue order each job is taken out and put back at the earliest slot,
 *   never later than the one it had (its old slot stays free, so it keeps it
 *   if nothing earlier fits).
 * - A job running past its requested time holds its nodes with no end; the
 *   first pass that sees it rebuilds every reservation in queue order (the
 *   only case where a reservation can move later).
 * Jobs whose reservation time has come start on their reserved nodes; the
 * scheduler asks for a pass at the next reservation time. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched_common.h"

struct entry {
	double t0, t1;
	const int *nodes;
	int n;
};

struct cons {
	size_t njobs;
	double *res_t; /* NAN: none; INFINITY: no slot until an overdue job ends */
	int **res_nodes;
	int *res_n;
	unsigned char *overdue;
	unsigned char *mark; /* per node: busy in the candidate window */
	int nodes;
	int dirty;
	double woke;
	struct entry *ent;
	double *cand;
	size_t cap;
};

static const struct cmn_param_def cons_params[] = {{NULL}};

static int cons_create(const struct cmn_params *p, size_t njobs, int nodes, void **self,
                       struct cmn_err *e)
{
	(void)p;
	size_t n = njobs ? njobs : 1;
	struct cons *c = calloc(1, sizeof *c);
	if (c) {
		c->njobs = njobs;
		c->nodes = nodes;
		c->mark = calloc((size_t)nodes, 1);
		c->res_t = malloc(n * sizeof *c->res_t);
		c->res_nodes = calloc(n, sizeof *c->res_nodes);
		c->res_n = calloc(n, sizeof *c->res_n);
		c->overdue = calloc(n, 1);
	}
	if (!c || !c->res_t || !c->res_nodes || !c->res_n || !c->overdue || !c->mark) {
		if (c) {
			free(c->mark);
			free(c->res_t);
			free(c->res_nodes);
			free(c->res_n);
			free(c->overdue);
		}
		free(c);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	for (size_t j = 0; j < n; j++)
		c->res_t[j] = NAN;
	c->woke = -INFINITY;
	*self = c;
	return 0;
}

static void cons_destroy(void *self)
{
	struct cons *c = self;
	for (size_t j = 0; j < c->njobs; j++)
		free(c->res_nodes[j]);
	free(c->res_nodes);
	free(c->res_t);
	free(c->res_n);
	free(c->overdue);
	free(c->mark);
	free(c->ent);
	free(c->cand);
	free(c);
}

static void cons_on_end(void *self, struct js_sim *sim, int j, int early)
{
	(void)sim;
	(void)j;
	struct cons *c = self;
	if (early)
		c->dirty = 1;
}

/* End of an interval of length d starting at t (never empty). */
static double iv_end(double t, double d)
{
	double end = t + d;
	return end > t ? end : nextafter(t, INFINITY);
}

static int grow(struct cons *c, size_t need)
{
	if (need <= c->cap)
		return 0;
	size_t cap = c->cap ? c->cap : 64;
	while (cap < need)
		cap *= 2;
	struct entry *ent = realloc(c->ent, cap * sizeof *ent);
	if (!ent)
		return -1;
	c->ent = ent;
	double *cand = realloc(c->cand, cap * sizeof *cand);
	if (!cand)
		return -1;
	c->cand = cand;
	c->cap = cap;
	return 0;
}

/* The profile: running jobs and every reservation but job skip's. */
static size_t build_entries(struct cons *c, struct js_sim *sim, int skip)
{
	double now = js_sim_now(sim);
	size_t n = 0;
	for (size_t p = 0; p < js_sim_rlen(sim); p++) {
		int j = js_sim_rjob(sim, p);
		struct entry *en = &c->ent[n++];
		double end = js_sim_expected_end(sim, j);
		en->t0 = js_sim_start_time(sim, j);
		en->t1 = end > now ? end : INFINITY;
		en->nodes = js_sim_job_nodes(sim, j, &en->n);
	}
	for (size_t p = 0; p < js_sim_qlen(sim); p++) {
		int j = js_sim_qjob(sim, p);
		if (j == skip || !isfinite(c->res_t[j]))
			continue;
		struct entry *en = &c->ent[n++];
		en->t0 = c->res_t[j];
		en->t1 = iv_end(c->res_t[j], js_sim_job(sim, j)->req_s);
		en->nodes = c->res_nodes[j];
		en->n = c->res_n[j];
	}
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Finds job j's earliest slot, not later than its current one; stores it. */
static int reserve(struct cons *c, struct js_sim *sim, int j, struct cmn_err *e)
{
	if (grow(c, js_sim_rlen(sim) + js_sim_qlen(sim) + 2))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	size_t nent = build_entries(c, sim, j);
	double now = js_sim_now(sim), old = c->res_t[j];
	double bound = isnan(old) ? INFINITY : old;
	size_t nc = 0;
	c->cand[nc++] = now;
	for (size_t i = 0; i < nent; i++)
		if (c->ent[i].t1 > now && c->ent[i].t1 < bound)
			c->cand[nc++] = c->ent[i].t1;
	if (isfinite(bound) && bound > now)
		c->cand[nc++] = bound;
	qsort(c->cand, nc, sizeof *c->cand, cmp_double);
	const struct js_job *job = js_sim_job(sim, j);
	struct js_alloc *scratch = js_sim_scratch(sim, 1);
	int *buf = js_sim_nodebuf(sim, 0), *busy = js_sim_nodebuf(sim, 1);
	for (size_t k = 0; k < nc; k++) {
		double t = c->cand[k];
		if (k && t == c->cand[k - 1])
			continue;
		double t_end = iv_end(t, job->req_s);
		/* entries at disjoint times may hold the same nodes: union them */
		int nbusy = 0;
		for (size_t i = 0; i < nent; i++) {
			if (!(c->ent[i].t0 < t_end && c->ent[i].t1 > t))
				continue;
			for (int k = 0; k < c->ent[i].n; k++) {
				int node = c->ent[i].nodes[k];
				if (!c->mark[node]) {
					c->mark[node] = 1;
					busy[nbusy++] = node;
				}
			}
		}
		for (int k = 0; k < nbusy; k++)
			c->mark[busy[k]] = 0;
		js_alloc_copy(scratch, js_sim_empty_alloc(sim));
		js_alloc_occupy(scratch, busy, nbusy);
		int n = js_alloc_place(scratch, job, buf);
		if (n == 0)
			continue;
		int *nodes = realloc(c->res_nodes[j], (size_t)n * sizeof *nodes);
		if (!nodes)
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		memcpy(nodes, buf, (size_t)n * sizeof *nodes);
		c->res_nodes[j] = nodes;
		c->res_n[j] = n;
		c->res_t[j] = t;
		js_sim_set_reservation(sim, j, t);
		return 0;
	}
	if (isnan(old) || isinf(old))
		c->res_t[j] = INFINITY; /* an overdue job blocks every slot */
	/* else: keep the old slot, still free by construction */
	return 0;
}

static void drop(struct cons *c, int j)
{
	free(c->res_nodes[j]);
	c->res_nodes[j] = NULL;
	c->res_n[j] = 0;
	c->res_t[j] = NAN;
}

static int cons_pass(void *self, struct js_sim *sim, struct cmn_err *e)
{
	struct cons *c = self;
	double now = js_sim_now(sim);
	int rebuild = 0;
	for (size_t p = 0; p < js_sim_rlen(sim); p++) {
		int j = js_sim_rjob(sim, p);
		if (!c->overdue[j] && js_sim_expected_end(sim, j) <= now) {
			c->overdue[j] = 1;
			rebuild = 1;
		}
	}
	size_t qlen = js_sim_qlen(sim);
	if (rebuild)
		for (size_t p = 0; p < qlen; p++)
			drop(c, js_sim_qjob(sim, p));
	for (size_t p = 0; p < qlen; p++) {
		int j = js_sim_qjob(sim, p);
		if (isnan(c->res_t[j]) || c->dirty || isinf(c->res_t[j])) {
			int rc = reserve(c, sim, j, e);
			if (rc)
				return rc;
		}
	}
	c->dirty = 0;
	double next = INFINITY;
	for (size_t pos = 0; pos < js_sim_qlen(sim);) {
		int j = js_sim_qjob(sim, pos);
		if (c->res_t[j] <= now) {
			int rc = js_sim_start(sim, pos, c->res_nodes[j], c->res_n[j], e);
			if (rc)
				return rc;
			drop(c, j);
			continue;
		}
		if (c->res_t[j] < next)
			next = c->res_t[j];
		pos++;
	}
	if (isfinite(next) && next != c->woke) {
		c->woke = next;
		return js_sim_wakeup(sim, next, e);
	}
	return 0;
}

const struct js_sched_ops js_sched_conservative_ops = {
    .base = {"conservative", "conservative backfilling: every queued job holds a reservation",
             cons_params},
    .create = cons_create,
    .destroy = cons_destroy,
    .on_end = cons_on_end,
    .pass = cons_pass,
};

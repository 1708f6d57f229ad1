/* Seed 004's resizing strategies (section 3.2) and policy 1's procedure
 * (section 3.3), on the core's resizable-job API. Where the paper leaves a
 * step open the choice is written next to it and in docs/jobsched.md.
 *
 * Priority classes: a job's class is its user-assigned priority; "high
 * priority" means a user priority above 0. The comparisons the strategies
 * make between a running and a queued job ("a high priority running job
 * will not be contracted to schedule a lower priority queued job") compare
 * classes: the aging priority of a queued job (about 1 to 5 under the
 * default weights) and the running-job priority (0 to 100) are on
 * different scales. Within a class the running-job priority orders the
 * lists (closer to its end: contracted later, expanded first among equal
 * expand potentials). */
#include <gsl/gsl_multifit.h>
#include <math.h>
#include <stdlib.h>

#include "../runtime/runtime.h"
#include "resize.h"

/* --- sizes --- */

static int grid_rows(int p) /* the largest divisor of p not above sqrt(p) */
{
	int r = (int)sqrt((double)p);
	while (r > 1 && p % r)
		r--;
	return r < 1 ? 1 : r;
}

int js_rs_next_size(const struct js_resize_conf *c, const struct js_job *job, int start, int cur)
{
	switch (job->topo) {
	case JS_TOPO_POW2: {
		int p = 1;
		while (p <= cur)
			p *= 2;
		return p;
	}
	case JS_TOPO_SQUARE: {
		int r = grid_rows(cur);
		return (r + 1) * (cur / r);
	}
	default:
		return cur + (c->arb_step > 0   ? c->arb_step
		              : c->arb_step < 0 ? start
		                                : start / grid_rows(start));
	}
}

/* --- performance history --- */

#define MAX_SIZES 64

double js_rs_expand_potential(const struct js_resize_conf *c, const struct js_sim *sim, int j)
{
	if (js_sim_expansions(sim, j) < c->window)
		return INFINITY;
	int sizes[MAX_SIZES];
	double meas[MAX_SIZES];
	int n = js_sim_sizes_run(sim, j, sizes, meas,
	                         c->window + 1 < MAX_SIZES ? c->window + 1 : MAX_SIZES);
	double t0 = js_sim_measured(sim, j, js_sim_start_size(sim, j));
	if (n < 2 || isnan(t0))
		return INFINITY;
	int cur = js_sim_job_nnodes(sim, j);
	int deg = n - 1 < 2 ? n - 1 : 2;
	gsl_matrix *X = gsl_matrix_alloc((size_t)n, (size_t)deg + 1);
	gsl_vector *y = gsl_vector_alloc((size_t)n), *b = gsl_vector_alloc((size_t)deg + 1);
	gsl_matrix *cov = gsl_matrix_alloc((size_t)deg + 1, (size_t)deg + 1);
	gsl_multifit_linear_workspace *w = gsl_multifit_linear_alloc((size_t)n, (size_t)deg + 1);
	double ep = INFINITY, chisq;
	if (X && y && b && cov && w) {
		for (int i = 0; i < n; i++) { /* x centred on the current size: slope = b1 */
			double x = sizes[i] - cur, xp = 1;
			for (int k = 0; k <= deg; k++, xp *= x)
				gsl_matrix_set(X, (size_t)i, (size_t)k, xp);
			gsl_vector_set(y, (size_t)i, t0 / meas[i]);
		}
		if (gsl_multifit_linear(X, y, b, cov, &chisq, w) == 0)
			ep = gsl_vector_get(b, 1);
	}
	gsl_multifit_linear_free(w);
	gsl_matrix_free(cov);
	gsl_vector_free(b);
	gsl_vector_free(y);
	gsl_matrix_free(X);
	return ep;
}

int js_rs_benefited(const struct js_sim *sim, int j)
{
	int from, to;
	if (!js_sim_last_expansion(sim, j, &from, &to))
		return 1;
	double tf = js_sim_measured(sim, j, from), tt = js_sim_measured(sim, j, to);
	return isnan(tf) || isnan(tt) || tt < tf;
}

static int size_of(const struct js_sim *sim, int j)
{
	return js_sim_job_nnodes(sim, j);
}

/* At (or past) its sweet spot: no growth. */
static int at_sweet_spot(const struct js_sim *sim, int j)
{
	int sweet = js_sim_sweet_spot(sim, j);
	return sweet && size_of(sim, j) >= sweet;
}

/* Nodes the first queued job still needs (by count; <= 0: none). */
static int head_need(const struct js_sim *sim)
{
	if (!js_sim_qlen(sim))
		return 0;
	return js_sim_job(sim, js_sim_qjob(sim, 0))->size -
	       js_alloc_free_count(js_sim_alloc((struct js_sim *)sim));
}

/* --- harvesting --- */

struct cand {
	double k1, k2, k3; /* sort keys, ascending */
	int job, gain;
};

static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	if (x->k1 != y->k1)
		return x->k1 < y->k1 ? -1 : 1;
	if (x->k2 != y->k2)
		return x->k2 < y->k2 ? -1 : 1;
	if (x->k3 != y->k3)
		return x->k3 < y->k3 ? -1 : 1;
	return (x->job > y->job) - (x->job < y->job);
}

/* The slowdown contracting j to its previous size costs: its measured
 * iteration time there over its current one (predicted with the model
 * when no iteration ended on the current size yet), minus 1. */
static double contraction_impact(const struct js_resize_conf *c, const struct js_sim *sim, int j)
{
	int prev = js_sim_prev_size(sim, j), cur = size_of(sim, j);
	double tp = js_sim_measured(sim, j, prev), tc = js_sim_measured(sim, j, cur);
	if (isnan(tc))
		tc = tp / js_reshape_factor(prev, cur, c->alpha);
	return tp / tc - 1;
}

int js_rs_least_impact(const struct js_resize_conf *c, const struct js_sim *sim, int j)
{
	int need = head_need(sim);
	if (need <= 0 || !js_sim_prev_size(sim, j))
		return 0;
	double head_prio = js_sim_job(sim, js_sim_qjob(sim, 0))->user_prio;
	if (js_sim_job(sim, j)->user_prio > head_prio)
		return 0;
	size_t rlen = js_sim_rlen(sim), n = 0;
	struct cand *l = malloc((rlen ? rlen : 1) * sizeof *l);
	if (!l)
		return 0;
	for (size_t p = 0; p < rlen; p++) {
		int r = js_sim_rjob(sim, (size_t)p), prev;
		if (!js_sim_resizes(sim, r) || !(prev = js_sim_prev_size(sim, r)))
			continue;
		double up = js_sim_job(sim, r)->user_prio;
		if (up > head_prio) /* not contracted for a lower priority queued job */
			continue;
		/* low priority first, then the least impact, then the lower
		 * running-job priority */
		l[n++] = (struct cand){up, contraction_impact(c, sim, r),
		                       js_sim_run_priority(sim, r), r, size_of(sim, r) - prev};
	}
	qsort(l, n, sizeof *l, cand_cmp);
	int chosen = 0, freed = 0;
	for (size_t i = 0; i < n && freed < need && !chosen; i++) {
		chosen = l[i].job == j;
		freed += l[i].gain;
	}
	free(l);
	return chosen;
}

int js_rs_fcfs_contract(const struct js_resize_conf *c, const struct js_sim *sim, int j)
{
	(void)c;
	if (head_need(sim) <= 0 || !js_sim_prev_size(sim, j))
		return 0;
	double up = js_sim_job(sim, j)->user_prio;
	/* a high priority job contracts only for a higher priority queued job;
	 * a low priority one whatever the queued job's priority */
	return up <= 0 || js_sim_job(sim, js_sim_qjob(sim, 0))->user_prio > up;
}

/* --- allocation --- */

/* Whether j may grow at all: room on the machine, below its sweet spot,
 * expand potential above the threshold (when computed; the fit only for a
 * job that passes the other two). */
static int may_grow(const struct js_resize_conf *c, const struct js_sim *sim, int j, int *next,
                    double *ep)
{
	int cur = size_of(sim, j);
	*next = js_rs_next_size(c, js_sim_job(sim, j), js_sim_start_size(sim, j), cur);
	if (at_sweet_spot(sim, j) || *next > js_alloc_free_count(js_sim_empty_alloc(sim)))
		return 0;
	*ep = js_rs_expand_potential(c, sim, j);
	return isinf(*ep) || *ep > c->min_ep;
}

int js_rs_max_benefit(const struct js_resize_conf *c, struct js_sim *sim, int j, struct cmn_err *e)
{
	int next;
	double ep_j;
	if (!may_grow(c, sim, j, &next, &ep_j))
		return 0;
	int cur = size_of(sim, j), free_n = js_alloc_free_count(js_sim_alloc(sim));
	if (next - cur > free_n)
		return 0;
	double up_j = js_sim_job(sim, j)->user_prio;
	/* j's next resize point if it grows, by the policy's prediction */
	double t_j =
	    js_sim_now(sim) + js_sim_measured(sim, j, cur) / js_reshape_factor(cur, next, c->alpha);
	/* the pre-allocation: increments of the jobs ahead of j in the list */
	size_t rlen = js_sim_rlen(sim);
	int first = 1, reserve = 0;
	double rp_j = js_sim_run_priority(sim, j);
	for (size_t p = 0; p < rlen; p++) {
		int r = js_sim_rjob(sim, p), nr;
		double ep_r;
		if (r == j || !js_sim_resizes(sim, r) || !may_grow(c, sim, r, &nr, &ep_r))
			continue;
		double up_r = js_sim_job(sim, r)->user_prio, rp_r = js_sim_run_priority(sim, r);
		int ahead = up_r != up_j   ? up_r > up_j
		            : ep_r != ep_j ? ep_r > ep_j
		            : rp_r != rp_j ? rp_r > rp_j
		                           : r < j;
		if (!ahead)
			continue;
		first = 0;
		if (up_r > up_j || (up_r == up_j && ep_r > ep_j && js_sim_next_point(sim, r) < t_j))
			reserve += nr - size_of(sim, r);
	}
	if (!first && free_n - reserve < next - cur)
		return 0;
	return js_sim_resize(sim, j, next, e);
}

/* --- policy 1: favour queued jobs (PBA-PR, FCFS-PR) --- */

int js_rs_sweet_spot_rule(struct js_sim *sim, int j, struct cmn_err *e)
{
	int cur = size_of(sim, j);
	if (at_sweet_spot(sim, j)) /* keeps its size */
		return 1;
	if (js_rs_benefited(sim, j))
		return 0;
	int from, to; /* the last expansion did not pay: back to where it started */
	js_sim_last_expansion(sim, j, &from, &to);
	js_sim_set_sweet_spot(sim, j, from);
	if (cur <= from) /* contracted there already (harvested) */
		return 1;
	int rc = js_sim_resize(sim, j, js_sim_prev_size(sim, j), e);
	return rc < 0 ? rc : 1;
}

int js_rs_policy_queued(const struct js_resize_conf *c, struct js_sim *sim, int j,
                        int (*harvest)(const struct js_resize_conf *, const struct js_sim *, int),
                        struct cmn_err *e)
{
	int rc;
	if (js_sim_qlen(sim) && harvest(c, sim, j)) /* harvested for the queue */
		rc = js_sim_resize(sim, j, js_sim_prev_size(sim, j), e);
	else
		rc = js_rs_sweet_spot_rule(sim, j, e);
	if (rc < 0)
		return -rc;
	int settled = rc;
	if ((rc = js_sim_pass(sim, e))) /* backfill what the queue can use */
		return rc;
	rc = settled ? 0 : js_rs_max_benefit(c, sim, j, e); /* then idle nodes to j */
	return rc < 0 ? -rc : 0;
}

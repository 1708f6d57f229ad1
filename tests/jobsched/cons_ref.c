/* The reference for conservative backfilling's tests: the scheduler as it
 * was before its profile became a tree and its passes skipped the jobs that
 * cannot move (jobsched/sched/sched_conservative.c, whose comment gives the
 * rules): every pass visits every queued job, and every search and change
 * walks the segment profile (profile.h). Slow on long queues, plain to read;
 * the new scheduler must give the same reservations, starts and nodes. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../jobsched/sched/profile.h"
#include "../../jobsched/sched/sched_common.h"
#include "cons_ref.h"

struct cons {
	size_t njobs;
	int nodes, fungible, failed;
	struct js_profile prof;
	double *res_t;   /* NAN: none; INFINITY: no slot until an overdue job ends */
	int **res_nodes; /* node sets, when not fungible */
	int *res_n;
	double *run_end; /* a running job's end in the profile */
	unsigned char *overdue;
	uint64_t *busy;
	int dirty;
	double woke;
};

static const struct cmn_param_def cons_params[] = {{NULL}};

static void cons_destroy(void *self)
{
	struct cons *c = self;
	for (size_t j = 0; c->res_nodes && j < c->njobs; j++)
		free(c->res_nodes[j]);
	free(c->res_nodes);
	free(c->res_t);
	free(c->res_n);
	free(c->run_end);
	free(c->overdue);
	free(c->busy);
	js_profile_free(&c->prof);
	free(c);
}

static int cons_create(const struct cmn_params *p, size_t njobs, int nodes, void **self,
                       struct cmn_err *e)
{
	(void)p;
	size_t n = njobs ? njobs : 1;
	struct cons *c = calloc(1, sizeof *c);
	if (!c)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	c->njobs = njobs;
	c->nodes = nodes;
	c->fungible = -1; /* known at the first pass, from the allocator */
	c->res_t = malloc(n * sizeof *c->res_t);
	c->res_nodes = calloc(n, sizeof *c->res_nodes);
	c->res_n = calloc(n, sizeof *c->res_n);
	c->run_end = calloc(n, sizeof *c->run_end);
	c->overdue = calloc(n, 1);
	c->busy = malloc(((size_t)nodes + 63) / 64 * sizeof *c->busy);
	if (!c->res_t || !c->res_nodes || !c->res_n || !c->run_end || !c->overdue || !c->busy) {
		cons_destroy(c);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	for (size_t j = 0; j < n; j++)
		c->res_t[j] = NAN;
	c->woke = -INFINITY;
	*self = c;
	return 0;
}

/* Adds or removes job j's reservation in the profile. */
static int res_change(struct cons *c, const struct js_sim *sim, int j, int sign)
{
	double t = c->res_t[j];
	if (!isfinite(t))
		return 0;
	double end = js_profile_end(t, js_sim_job(sim, j)->req_s);
	return js_profile_change(&c->prof, t, end, c->res_n[j], c->res_nodes[j], sign);
}

static void cons_on_end(void *self, struct js_sim *sim, int j, int early)
{
	(void)early;
	struct cons *c = self;
	double now = js_sim_now(sim);
	if (c->run_end[j] > now) { /* its nodes free up before the profile said */
		int n = js_sim_job_nnodes(sim, j);
		const int *nodes = c->fungible ? NULL : js_sim_job_nodes(sim, j, &n);
		if ((!c->fungible && !nodes) ||
		    js_profile_change(&c->prof, now, c->run_end[j], n, nodes, -1))
			c->failed = 1;
		c->dirty = 1;
	}
}

/* Finds job j's earliest slot, not later than bound, and enters it. */
static int reserve(struct cons *c, struct js_sim *sim, int j, double bound, struct cmn_err *e)
{
	const struct js_job *job = js_sim_job(sim, j);
	struct js_alloc *scratch = js_sim_scratch(sim, 1);
	int *buf = js_sim_nodebuf(sim, 0), *list = js_sim_nodebuf(sim, 1);
	for (long i = 0;; i++) {
		i = js_profile_find(&c->prof, (size_t)i, job->req_s, job->size, bound, c->busy);
		if (i < 0)
			break;
		int n = job->size;
		if (!c->fungible) { /* the allocator places it in the slot's union */
			int nb = 0;
			for (int w = 0; w < c->prof.words; w++)
				for (uint64_t b = c->busy[w]; b; b &= b - 1)
					list[nb++] = w * 64 + __builtin_ctzll(b);
			js_alloc_copy(scratch, js_sim_empty_alloc(sim));
			js_alloc_occupy(scratch, list, nb);
			n = js_alloc_place(scratch, job, buf);
			if (n == 0)
				continue;
			int *nodes = realloc(c->res_nodes[j], (size_t)n * sizeof *nodes);
			if (!nodes)
				return cmn_err_set(e, CMN_ENOMEM, "out of memory");
			memcpy(nodes, buf, (size_t)n * sizeof *nodes);
			c->res_nodes[j] = nodes;
		}
		c->res_n[j] = n;
		c->res_t[j] = c->prof.t[i];
		js_sim_set_reservation(sim, j, c->res_t[j]);
		break;
	}
	/* None found: keep the old slot, free by construction (res_nodes and
	 * res_n still hold it), or wait for an overdue job to end. */
	if (isnan(c->res_t[j]))
		c->res_t[j] = isfinite(bound) ? bound : INFINITY;
	if (res_change(c, sim, j, +1))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	return 0;
}

static void drop(struct cons *c, int j)
{
	free(c->res_nodes[j]);
	c->res_nodes[j] = NULL;
	c->res_n[j] = 0;
	c->res_t[j] = NAN;
}

/* Rebuilds the profile from the running jobs alone (overdue: no end). */
static int rebuild(struct cons *c, struct js_sim *sim)
{
	js_profile_reset(&c->prof, js_sim_now(sim));
	for (size_t p = 0; p < js_sim_rlen(sim); p++) {
		int j = js_sim_rjob(sim, p), n = js_sim_job_nnodes(sim, j);
		const int *nodes = c->fungible ? NULL : js_sim_job_nodes(sim, j, &n);
		if (c->overdue[j])
			c->run_end[j] = INFINITY;
		if ((!c->fungible && !nodes) ||
		    js_profile_change(&c->prof, js_sim_now(sim), c->run_end[j], n, nodes, +1))
			return -1;
	}
	for (size_t p = 0; p < js_sim_qlen(sim); p++)
		drop(c, js_sim_qjob(sim, p));
	return 0;
}

static int start_due(struct cons *c, struct js_sim *sim, struct cmn_err *e)
{
	double now = js_sim_now(sim), next = INFINITY;
	for (size_t pos = 0; pos < js_sim_qlen(sim);) {
		int j = js_sim_qjob(sim, pos);
		if (!(c->res_t[j] <= now)) {
			if (c->res_t[j] < next)
				next = c->res_t[j];
			pos++;
			continue;
		}
		int rc = c->fungible ? js_sim_try_start(sim, pos, e)
		         : js_sim_start(sim, pos, c->res_nodes[j], c->res_n[j], e) ? -e->code
		                                                                   : 1;
		if (rc < 0)
			return -rc;
		if (rc == 0)
			return cmn_err_set(e, CMN_ESTATE,
			                   "conservative: job %" PRIu64
			                   " is due but cannot be placed",
			                   js_sim_job(sim, j)->id);
		/* its reservation stays in the profile as the running job */
		c->run_end[j] = js_profile_end(now, js_sim_job(sim, j)->req_s);
		drop(c, j);
	}
	if (isfinite(next) && next != c->woke) {
		c->woke = next;
		return js_sim_wakeup(sim, next, e);
	}
	return 0;
}

static int cons_pass(void *self, struct js_sim *sim, struct cmn_err *e)
{
	struct cons *c = self;
	double now = js_sim_now(sim);
	if (c->fungible < 0) {
		c->fungible = js_sim_alloc(sim)->ops->fungible;
		if (js_profile_init(&c->prof, c->nodes, !c->fungible, now))
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	if (c->failed)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	js_profile_trim(&c->prof, now);
	int again = 0;
	for (size_t p = 0; p < js_sim_rlen(sim); p++) {
		int j = js_sim_rjob(sim, p);
		if (!c->overdue[j] && js_sim_expected_end(sim, j) <= now) {
			c->overdue[j] = 1;
			again = 1;
		}
	}
	if (again && rebuild(c, sim))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (size_t p = 0; p < js_sim_qlen(sim); p++) {
		int j = js_sim_qjob(sim, p);
		double old = c->res_t[j];
		if (!isnan(old) && !c->dirty && !isinf(old))
			continue;
		if (res_change(c, sim, j, -1))
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		c->res_t[j] = NAN;
		int rc = reserve(c, sim, j, isnan(old) ? INFINITY : old, e);
		if (rc)
			return rc;
	}
	c->dirty = 0;
	return start_due(c, sim, e);
}

const struct js_sched_ops cons_ref_ops = {
    .base = {"conservative-ref", "conservative backfilling as it was (tests' reference)",
             cons_params},
    .create = cons_create,
    .destroy = cons_destroy,
    .on_end = cons_on_end,
    .pass = cons_pass,
};

/* Conservative backfilling (Mu'alem and Feitelson): every queued job holds
 * a reservation and no job may delay an earlier one. The scheduler keeps an
 * availability profile (profile.h) of the running jobs, until their expected
 * end, and of every reservation.
 * - A job without reservation gets the earliest slot that leaves enough
 *   nodes free for its whole requested time. With an allocator whose nodes
 *   are interchangeable (first-free) a reservation holds a node count, as in
 *   the classic algorithm, and the nodes are chosen when the job starts;
 *   otherwise it holds the node set the allocator chose in the machine as it
 *   will be during the slot.
 * - When a job ends before its expected end, the schedule is compressed: in
 *   queue order each job is taken out and put back at the earliest slot, not
 *   later than the one it had (which is still free, so it keeps it at worst).
 * - A job running past its requested time holds its nodes with no end; the
 *   first pass that sees it rebuilds every reservation in queue order (the
 *   only case where a reservation can move later).
 * Jobs whose reservation time has come start; the scheduler asks for a pass
 * at the next reservation time.
 *
 * How, so that a queue of tens of thousands of jobs stays cheaper: counts
 * are a tree (profile_count.h) where a change takes a few steps and a job's
 * earliest slot is a walk that passes over the stretches where the count
 * cannot matter; a compression leaves in place, without taking it out, a
 * job whose search would give its slot again, and a job waiting for an
 * overdue job that still holds too many nodes. Node sets keep the segment
 * profile with its bitmaps (their time goes to the allocator's what-if
 * placements, which a count tree beside it did not shorten; a job asks again
 * at every compression in the segments before its slot, mostly in vain, so
 * the failures are remembered by (job, busy bitmap): fail_memo.h). Under arrival
 * order a pass without early end visits only the jobs it must (new ones;
 * with node sets, those waiting for an overdue job), and the reservation
 * times are kept by job index (time_index.h), so that the due jobs and the
 * next reservation come without a walk of the queue. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fail_memo.h"
#include "profile.h"
#include "profile_count.h"
#include "sched_common.h"
#include "time_index.h"

struct cons {
	size_t njobs;
	int nodes, fungible, failed;
	int by_index;             /* arrival order: queue order is job index order */
	struct js_cprof counts;   /* counts: the busy counts */
	struct js_profile prof;   /* node sets: busy counts and bitmaps */
	struct js_tindex due;     /* by_index: each queued job's reservation time */
	struct js_fail_memo memo; /* node sets: what-if placements known to fail */
	double *res_t;            /* NAN: none; INFINITY: no slot until an overdue job ends */
	int **res_nodes;          /* node sets, when not fungible */
	int *res_n;
	double *run_end; /* a running job's end in the profile */
	unsigned char *overdue;
	uint64_t *busy;
	uint64_t *held; /* with a canonical allocator: the busy nodes of the scratch state */
	int held_valid;
	int *waiting; /* by_index with node sets: jobs whose reservation is INFINITY */
	size_t nwaiting;
	int seen; /* by_index: the highest job index a pass has visited */
	int dirty;
	double woke;
};

/* A canonical scratch state goes by differences when they are fewer than
 * this share of the busy nodes (a release can cost more than an occupy:
 * bgl's free boxes merge), else it is built anew. */
enum { CONS_DIFF_SHARE = 16 };

/* The memo's budget: bitmaps of 10^5 nodes take 12.5 kB each, 16 kB with
 * the table's room. */
enum { CONS_MEMO_BYTES = 64 << 20 };

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
	free(c->held);
	free(c->waiting);
	js_cprof_free(&c->counts);
	js_profile_free(&c->prof);
	js_tindex_free(&c->due);
	js_fail_memo_free(&c->memo);
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
	c->held = calloc(((size_t)nodes + 63) / 64, sizeof *c->held);
	c->waiting = malloc(n * sizeof *c->waiting);
	if (!c->res_t || !c->res_nodes || !c->res_n || !c->run_end || !c->overdue || !c->busy ||
	    !c->held || !c->waiting) {
		cons_destroy(c);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	for (size_t j = 0; j < n; j++)
		c->res_t[j] = NAN;
	c->woke = -INFINITY;
	c->seen = -1;
	js_fail_memo_init(&c->memo, nodes, CONS_MEMO_BYTES);
	*self = c;
	return 0;
}

/* Adds or removes n nodes (node sets: the nodes) busy over [t0, t1). */
static int prof_change(struct cons *c, double t0, double t1, int n, const int *nodes, int sign)
{
	return c->fungible ? js_cprof_change(&c->counts, t0, t1, n, sign)
	                   : js_profile_change(&c->prof, t0, t1, n, nodes, sign);
}

/* Job j's reservation time becomes t. */
static void set_res(struct cons *c, int j, double t)
{
	c->res_t[j] = t;
	if (c->by_index)
		js_tindex_set(&c->due, j, t);
}

/* Adds or removes job j's reservation in the profile. */
static int res_change(struct cons *c, const struct js_sim *sim, int j, int sign)
{
	double t = c->res_t[j];
	if (!isfinite(t))
		return 0;
	double end = js_profile_end(t, js_sim_job(sim, j)->req_s);
	return prof_change(c, t, end, c->res_n[j], c->res_nodes[j], sign);
}

static void cons_on_end(void *self, struct js_sim *sim, int j, int early)
{
	(void)early;
	struct cons *c = self;
	double now = js_sim_now(sim);
	if (c->run_end[j] > now) { /* its nodes free up before the profile said */
		int n = js_sim_job_nnodes(sim, j);
		const int *nodes = c->fungible ? NULL : js_sim_job_nodes(sim, j, &n);
		if ((!c->fungible && !nodes) || prof_change(c, now, c->run_end[j], n, nodes, -1))
			c->failed = 1;
		c->dirty = 1;
	}
}

/* The scratch allocator's state becomes the empty machine with c->busy's
 * nodes busy: with a canonical allocator, from the state it holds by the
 * difference of the two busy sets, else from the empty machine (rel, occ:
 * room for every node). */
static void scratch_state(struct cons *c, struct js_sim *sim, struct js_alloc *scratch, int *rel,
                          int *occ)
{
	int nr = 0, no = 0, na = 0, words = c->prof.words;
	if (scratch->ops->canonical && c->held_valid) {
		for (int w = 0; w < words; w++) {
			na += __builtin_popcountll(c->busy[w]);
			nr += __builtin_popcountll(c->held[w] & ~c->busy[w]);
			no += __builtin_popcountll(c->busy[w] & ~c->held[w]);
		}
	}
	if (scratch->ops->canonical && c->held_valid && nr + no < na / CONS_DIFF_SHARE) {
		nr = no = 0;
		for (int w = 0; w < words; w++) {
			for (uint64_t b = c->held[w] & ~c->busy[w]; b; b &= b - 1)
				rel[nr++] = w * 64 + __builtin_ctzll(b);
			for (uint64_t b = c->busy[w] & ~c->held[w]; b; b &= b - 1)
				occ[no++] = w * 64 + __builtin_ctzll(b);
		}
		js_alloc_release(scratch, rel, nr);
	} else {
		no = 0;
		for (int w = 0; w < words; w++)
			for (uint64_t b = c->busy[w]; b; b &= b - 1)
				occ[no++] = w * 64 + __builtin_ctzll(b);
		js_alloc_copy(scratch, js_sim_empty_alloc(sim));
	}
	js_alloc_occupy(scratch, occ, no);
	memcpy(c->held, c->busy, (size_t)words * sizeof *c->held);
	c->held_valid = scratch->ops->canonical;
}

/* Node sets: the earliest slot, not later than bound, where the allocator
 * places the job in the slot's union of busy nodes; 1 found, 0 none, -1
 * out of memory. */
static int reserve_nodes(struct cons *c, struct js_sim *sim, int j, double bound)
{
	const struct js_job *job = js_sim_job(sim, j);
	struct js_alloc *scratch = js_sim_scratch(sim, 1);
	int *buf = js_sim_nodebuf(sim, 0), *list = js_sim_nodebuf(sim, 1);
	for (long i = 0;; i++) {
		i = js_profile_find(&c->prof, (size_t)i, job->req_s, job->size, bound, c->busy);
		if (i < 0)
			return 0;
		uint64_t h = js_fail_memo_hash(&c->memo, j, c->busy);
		if (js_fail_memo_known(&c->memo, h, j, c->busy))
			continue;
		scratch_state(c, sim, scratch, buf, list);
		int n = js_alloc_place(scratch, job, buf);
		if (n == 0) {
			js_fail_memo_add(&c->memo, h, j, c->busy);
			continue;
		}
		int *nodes = realloc(c->res_nodes[j], (size_t)n * sizeof *nodes);
		if (!nodes)
			return -1;
		memcpy(nodes, buf, (size_t)n * sizeof *nodes);
		c->res_nodes[j] = nodes;
		c->res_n[j] = n;
		set_res(c, j, c->prof.t[i]);
		return 1;
	}
}

/* Node sets: finds job j's earliest slot, not later than bound, and enters
 * it. */
static int reserve(struct cons *c, struct js_sim *sim, int j, double bound, struct cmn_err *e)
{
	int found = reserve_nodes(c, sim, j, bound);
	if (found < 0)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	if (found)
		js_sim_set_reservation(sim, j, c->res_t[j]);
	else /* keep the old slot, free by construction (res_nodes and res_n
	      * still hold it), or wait for an overdue job to end */
		set_res(c, j, isfinite(bound) ? bound : INFINITY);
	if (res_change(c, sim, j, +1))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	return 0;
}

/* Counts: job j (reservation old) gets its earliest slot, not later than
 * old. Taking it out and putting it back would leave it where it is unless
 * an earlier slot exists, which the search with its window cut at old
 * finds with the job still in (its reservation counts from old on): only
 * a job that moves is taken out. */
static int move_count(struct cons *c, struct js_sim *sim, int j, double old, struct cmn_err *e)
{
	const struct js_job *job = js_sim_job(sim, j);
	if (isinf(old) && js_cprof_busy_end(&c->counts) > c->nodes - job->size)
		return 0; /* an overdue job still holds too many nodes: no slot anywhere */
	double t = js_cprof_find(&c->counts, job->req_s, job->size, isfinite(old) ? old : INFINITY);
	if (isnan(t)) {
		if (isnan(old)) /* wait for an overdue job to end */
			set_res(c, j, INFINITY);
		return 0;
	}
	if (res_change(c, sim, j, -1))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	c->res_n[j] = job->size;
	set_res(c, j, t);
	js_sim_set_reservation(sim, j, t);
	if (res_change(c, sim, j, +1))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	return 0;
}

static void drop(struct cons *c, int j)
{
	free(c->res_nodes[j]);
	c->res_nodes[j] = NULL;
	c->res_n[j] = 0;
	set_res(c, j, NAN);
}

/* Rebuilds the profile from the running jobs alone (overdue: no end). */
static int rebuild(struct cons *c, struct js_sim *sim)
{
	double now = js_sim_now(sim);
	if (c->fungible)
		js_cprof_reset(&c->counts, now);
	else
		js_profile_reset(&c->prof, now);
	for (size_t p = 0; p < js_sim_rlen(sim); p++) {
		int j = js_sim_rjob(sim, p), n = js_sim_job_nnodes(sim, j);
		const int *nodes = c->fungible ? NULL : js_sim_job_nodes(sim, j, &n);
		if (c->overdue[j])
			c->run_end[j] = INFINITY;
		if ((!c->fungible && !nodes) || prof_change(c, now, c->run_end[j], n, nodes, +1))
			return -1;
	}
	for (size_t p = 0; p < js_sim_qlen(sim); p++)
		drop(c, js_sim_qjob(sim, p));
	c->nwaiting = 0;
	return 0;
}

/* One queued job's turn in a pass (compress: the pass compresses). */
static int visit(struct cons *c, struct js_sim *sim, int j, int compress, struct cmn_err *e)
{
	double old = c->res_t[j];
	if (!isnan(old) && !compress && !isinf(old))
		return 0;
	int rc;
	if (c->fungible) {
		rc = move_count(c, sim, j, old, e);
	} else if (res_change(c, sim, j, -1)) {
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	} else {
		set_res(c, j, NAN);
		rc = reserve(c, sim, j, isnan(old) ? INFINITY : old, e);
	}
	if (rc)
		return rc;
	if (c->by_index && !c->fungible && isinf(c->res_t[j]))
		c->waiting[c->nwaiting++] = j;
	if (c->by_index && j > c->seen)
		c->seen = j;
	return 0;
}

/* The reservations of one pass, in queue order: every queued job when the
 * pass compresses; otherwise the jobs without reservation and those waiting
 * for an overdue job (visit() leaves the others as they are), found under
 * arrival order without walking the queue: new jobs arrive at its tail. */
static int reserve_all(struct cons *c, struct js_sim *sim, int compress, struct cmn_err *e)
{
	size_t qlen = js_sim_qlen(sim), from = 0;
	if (c->by_index && !compress) {
		size_t w = c->nwaiting;
		c->nwaiting = 0;
		for (size_t k = 0; k < w; k++) { /* still queued: they cannot start */
			int rc = visit(c, sim, c->waiting[k], 0, e);
			if (rc)
				return rc;
		}
		for (from = qlen; from > 0 && js_sim_qjob(sim, from - 1) > c->seen;)
			from--;
	} else {
		c->nwaiting = 0;
	}
	for (size_t p = from; p < qlen; p++) {
		int rc = visit(c, sim, js_sim_qjob(sim, p), compress, e);
		if (rc)
			return rc;
	}
	return 0;
}

/* Starts queued job j at queue position pos, whose reservation time has
 * come; its reservation stays in the profile as the running job. */
static int start_one(struct cons *c, struct js_sim *sim, size_t pos, int j, struct cmn_err *e)
{
	int rc = c->fungible ? js_sim_try_start(sim, pos, e)
	         : js_sim_start(sim, pos, c->res_nodes[j], c->res_n[j], e) ? -e->code
	                                                                   : 1;
	if (rc < 0)
		return -rc;
	if (rc == 0)
		return cmn_err_set(e, CMN_ESTATE,
		                   "conservative: job %" PRIu64 " is due but cannot be placed",
		                   js_sim_job(sim, j)->id);
	c->run_end[j] = js_profile_end(js_sim_now(sim), js_sim_job(sim, j)->req_s);
	drop(c, j);
	return 0;
}

static int start_due(struct cons *c, struct js_sim *sim, struct cmn_err *e)
{
	double now = js_sim_now(sim), next = INFINITY;
	if (c->by_index) {
		for (int j; (j = js_tindex_first_due(&c->due, now)) >= 0;) {
			int rc = start_one(c, sim, js_sim_queue_pos(sim, j), j, e);
			if (rc)
				return rc;
		}
		next = js_tindex_min(&c->due);
	} else {
		for (size_t pos = 0; pos < js_sim_qlen(sim);) {
			int j = js_sim_qjob(sim, pos);
			if (!(c->res_t[j] <= now)) {
				if (c->res_t[j] < next)
					next = c->res_t[j];
				pos++;
				continue;
			}
			int rc = start_one(c, sim, pos, j, e);
			if (rc)
				return rc;
		}
	}
	if (isfinite(next) && next != c->woke) {
		c->woke = next;
		return js_sim_wakeup(sim, next, e);
	}
	return 0;
}

static int setup(struct cons *c, struct js_sim *sim)
{
	double now = js_sim_now(sim);
	c->fungible = js_sim_alloc(sim)->ops->fungible;
	c->by_index = js_sim_queue_order(sim) == JS_ORDER_ARRIVAL;
	if (c->fungible ? js_cprof_init(&c->counts, c->nodes, now)
	                : js_profile_init(&c->prof, c->nodes, 1, now))
		return -1;
	return c->by_index && js_tindex_init(&c->due, (int)c->njobs) ? -1 : 0;
}

static int cons_pass(void *self, struct js_sim *sim, struct cmn_err *e)
{
	struct cons *c = self;
	double now = js_sim_now(sim);
	if (c->fungible < 0 && setup(c, sim))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	if (c->failed)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	if (c->fungible)
		js_cprof_trim(&c->counts, now);
	else
		js_profile_trim(&c->prof, now);
	int again = 0; /* running jobs by expected end: the overdue ones first */
	for (size_t p = 0; p < js_sim_rlen(sim); p++) {
		int j = js_sim_rjob(sim, p);
		if (!(js_sim_expected_end(sim, j) <= now))
			break;
		if (!c->overdue[j])
			again = c->overdue[j] = 1;
	}
	if (again && rebuild(c, sim))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	int rc = reserve_all(c, sim, c->dirty || again, e);
	if (rc)
		return rc;
	c->dirty = 0;
	return start_due(c, sim, e);
}

const struct js_sched_ops js_sched_conservative_ops = {
    .base = {"conservative", "conservative backfilling: every queued job holds a reservation",
             cons_params},
    .create = cons_create,
    .destroy = cons_destroy,
    .on_end = cons_on_end,
    .pass = cons_pass,
    .fixed_sizes = 1, /* a reservation's nodes may still be held by a job grown since */
};

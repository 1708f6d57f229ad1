/* EASY backfilling (Mu'alem and Feitelson; seeds 000, 002, 003): only the
 * queue head holds a reservation. Its shadow time is found by releasing
 * the running jobs' nodes, in order of expected end (start + requested
 * time), from a scratch copy of the machine until the allocator can place
 * the head. A later job starts now if it can be placed and either ends by
 * the shadow time, or the head can still be placed at the shadow time with
 * the job's nodes held (the "extra nodes", decided by the allocator, not by
 * counts). A job running past its requested time counts as ending now.
 * Allocators whose placements succeed whenever enough nodes are free
 * (fungible) answer those questions by counts, so the pass takes them from
 * counts directly: the same schedule without building what-if states.
 * With migrate=1 this is seed 003's B+M: FCFS, migration, FCFS, backfill. */
#include <inttypes.h>
#include <math.h>

#include "sched_common.h"

static const struct cmn_param_def easy_params[] = {JS_SCHED_MIGRATE_PARAM, {NULL}};

/* Fills scratch with the machine at the head's shadow time; returns it
 * (NAN: never; -INFINITY: out of memory). */
static double shadow_time(struct js_sim *sim, int head, struct js_alloc *scratch)
{
	double now = js_sim_now(sim);
	size_t rlen = js_sim_rlen(sim);
	for (size_t p = 0; p < rlen; p++) {
		int j = js_sim_rjob(sim, p);
		int n;
		const int *nodes = js_sim_job_nodes(sim, j, &n);
		if (!nodes)
			return -INFINITY;
		js_alloc_release(scratch, nodes, n);
		if (js_alloc_fits(scratch, js_sim_job(sim, head))) {
			double end = js_sim_expected_end(sim, j);
			return end > now ? end : now;
		}
	}
	return NAN;
}

/* Records the head's shadow time as its reservation; an error when the head
 * would not fit even on the machine emptied of every running job. */
static int reserve_head(struct js_sim *sim, int head, double shadow, struct cmn_err *e)
{
	if (isnan(shadow))
		return cmn_err_set(e, CMN_ESTATE,
		                   "easy: job %" PRIu64
		                   " cannot be placed even when every running job "
		                   "has ended",
		                   js_sim_job(sim, head)->id);
	js_sim_set_reservation(sim, head, shadow);
	return 0;
}

/* The backfilling of easy_pass_counts under arrival order: the same jobs
 * started in the same order, found through the queue index instead of a
 * visit to every queued job. A job starts if its size is free and it either
 * ends by the shadow time or fits in the extra nodes; the jobs that cannot
 * (too large for the free nodes, whose placement would fail) are not asked
 * about, which is what makes a congested queue cheap. */
static int backfill_indexed(struct js_sim *sim, int head, double shadow, int extra,
                            struct cmn_err *e)
{
	struct js_alloc *real = js_sim_alloc(sim);
	for (int from = head + 1;;) {
		int free_n = js_alloc_free_count(real);
		int j = js_sim_queue_find(sim, from, free_n, extra, shadow);
		if (j < 0)
			return 0;
		int rc =
		    js_sim_try_start_flags(sim, js_sim_queue_pos(sim, j), JS_PLACE_BACKFILL, e);
		if (rc < 0)
			return -rc;
		if (rc > 0 && !(js_sim_now(sim) + js_sim_job(sim, j)->req_s <= shadow))
			extra -= js_sim_job_nnodes(sim, j); /* it holds nodes past the shadow */
		from = j + 1;
	}
}

/* The same pass for an allocator whose placements succeed whenever enough
 * nodes are free (it says so: fungible): its answers to the what-if
 * questions are count comparisons, so they are taken from counts. */
static int easy_pass_counts(struct js_sim *sim, struct cmn_err *e)
{
	struct js_alloc *real = js_sim_alloc(sim);
	int head = js_sim_qjob(sim, 0), need = js_sim_job(sim, head)->size;
	int avail = js_alloc_free_count(real);
	double now = js_sim_now(sim), shadow = NAN;
	for (size_t p = 0; p < js_sim_rlen(sim) && isnan(shadow); p++) {
		int j = js_sim_rjob(sim, p);
		avail += js_sim_job_nnodes(sim, j);
		if (avail >= need) {
			double end = js_sim_expected_end(sim, j);
			shadow = end > now ? end : now;
		}
	}
	if (reserve_head(sim, head, shadow, e))
		return e->code;
	int extra = avail - need; /* nodes the head leaves free at the shadow time */
	if (js_sim_queue_indexed(sim))
		return backfill_indexed(sim, head, shadow, extra, e);
	for (size_t pos = 1; pos < js_sim_qlen(sim) && js_alloc_free_count(real) > 0;) {
		const struct js_job *job = js_sim_job(sim, js_sim_qjob(sim, pos));
		int ends_first = now + job->req_s <= shadow;
		if (!ends_first && job->size > extra) {
			pos++;
			continue;
		}
		int j = js_sim_qjob(sim, pos);
		int rc = js_sim_try_start_flags(sim, pos, JS_PLACE_BACKFILL, e);
		if (rc < 0)
			return -rc;
		if (rc == 0) {
			pos++;
			continue;
		}
		if (!ends_first) /* started: the queue shifts, same pos next */
			extra -= js_sim_job_nnodes(sim, j);
	}
	return 0;
}

static int easy_pass(void *self, struct js_sim *sim, struct cmn_err *e)
{
	int rc = js_sched_fcfs_phase(sim, *(const int *)self, e);
	if (rc || js_sim_qlen(sim) == 0)
		return rc;
	if (js_sim_alloc(sim)->ops->fungible)
		return easy_pass_counts(sim, e);
	struct js_alloc *real = js_sim_alloc(sim), *scratch = js_sim_scratch(sim, 0);
	int *buf = js_sim_nodebuf(sim, 1);
	int head = js_sim_qjob(sim, 0);
	js_alloc_copy(scratch, real);
	double shadow = shadow_time(sim, head, scratch);
	if (shadow == -INFINITY)
		return cmn_err_set(e, CMN_ENOMEM, "easy: out of memory");
	if (reserve_head(sim, head, shadow, e))
		return e->code;
	double now = js_sim_now(sim);
	for (size_t pos = 1; pos < js_sim_qlen(sim) && js_alloc_free_count(real) > 0;) {
		const struct js_job *job = js_sim_job(sim, js_sim_qjob(sim, pos));
		int n = js_alloc_place_flags(real, job, JS_PLACE_BACKFILL, buf);
		if (n == 0) {
			pos++;
			continue;
		}
		if (now + job->req_s > shadow) {
			/* holds its nodes past the shadow time: the head must still fit */
			js_alloc_occupy(scratch, buf, n);
			if (!js_alloc_fits(scratch, js_sim_job(sim, head))) {
				js_alloc_release(scratch, buf, n);
				pos++;
				continue;
			}
		}
		rc = js_sim_start(sim, pos, buf, n, e); /* the queue shifts: same pos next */
		if (rc)
			return rc;
	}
	return 0;
}

const struct js_sched_ops js_sched_easy_ops = {
    .base = {"easy", "EASY backfilling: reservation for the queue head only", easy_params},
    .create = js_sched_migrate_create,
    .destroy = js_sched_migrate_destroy,
    .pass = easy_pass,
};

/* FPFS(maxJumps), Fit Processors First Served (seed 001 section 4, after
 * Aida): when the head cannot be placed, the first queued job that can is
 * started, jumping every job ahead of it. The head may be jumped at most
 * maxjumps times; after that nothing jumps it until it has started. Only
 * jumps over the job while it is at the head count (the paper limits "the
 * number of times a job at the head of the queue can be jumped"). */
#include <math.h>
#include <stdlib.h>

#include "sched_common.h"

struct fpfs {
	int maxjumps;
	int *jumps; /* per job: times jumped while at the head */
};

static const struct cmn_param_def fpfs_params[] = {
    {"maxjumps", CMN_PT_INT, "5", 0, 1e9, NULL,
     "how many times the queue head may be jumped (0 = FCFS)"},
    {NULL},
};

static int fpfs_create(const struct cmn_params *p, size_t njobs, int nodes, void **self,
                       struct cmn_err *e)
{
	(void)nodes;
	struct fpfs *f = malloc(sizeof *f);
	int *jumps = calloc(njobs ? njobs : 1, sizeof *jumps);
	if (!f || !jumps) {
		free(f);
		free(jumps);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	f->maxjumps = (int)cmn_params_num(p, "maxjumps");
	f->jumps = jumps;
	*self = f;
	return 0;
}

static void fpfs_destroy(void *self)
{
	struct fpfs *f = self;
	free(f->jumps);
	free(f);
}

/* Starts the first queued job after the head that can start: 1, 0 when
 * none can, < 0 on an error. With an allocator whose placements succeed
 * whenever the job's size is free, under arrival order, that job is the
 * first whose size is free, found through the queue index (the same job a
 * walk over the queue finds, without asking about every job before it). */
static int start_first_fitting(struct js_sim *sim, int head, struct cmn_err *e)
{
	struct js_alloc *real = js_sim_alloc(sim);
	if (real->ops->fungible && js_sim_queue_indexed(sim)) {
		int n = js_alloc_free_count(real);
		int j = js_sim_queue_find(sim, head + 1, n, n, -INFINITY);
		return j < 0 ? 0
		             : js_sim_try_start_flags(sim, js_sim_queue_pos(sim, j),
		                                      JS_PLACE_BACKFILL, e);
	}
	for (size_t pos = 1; pos < js_sim_qlen(sim) && js_alloc_free_count(real) > 0; pos++) {
		int rc = js_sim_try_start_flags(sim, pos, JS_PLACE_BACKFILL, e);
		if (rc != 0)
			return rc;
	}
	return 0;
}

static int fpfs_pass(void *self, struct js_sim *sim, struct cmn_err *e)
{
	struct fpfs *f = self;
	for (;;) {
		int rc = js_sched_start_heads(sim, e);
		if (rc || js_sim_qlen(sim) == 0)
			return rc;
		int head = js_sim_qjob(sim, 0);
		if (f->jumps[head] >= f->maxjumps)
			return 0;
		rc = start_first_fitting(sim, head, e);
		if (rc <= 0)
			return -rc;
		f->jumps[head]++;
	}
}

static const char *const fpfs_samples[] = {"fpfs", "fpfs:maxjumps=0", "fpfs:maxjumps=3", NULL};

const struct js_sched_ops js_sched_fpfs_ops = {
    .base = {"fpfs", "fit processors first served, the head jumped at most maxjumps times",
             fpfs_params, fpfs_samples},
    .create = fpfs_create,
    .destroy = fpfs_destroy,
    .pass = fpfs_pass,
};

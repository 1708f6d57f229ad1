/* The scheduling core's state, shared by sim.c (the event loop) and
 * sim_resize.c (resizable jobs) and sim_text.c (the result's text); nothing outside
 * the core includes it. */
#ifndef JS_SIM_INTERNAL_H
#define JS_SIM_INTERNAL_H

#include <stdint.h>

#include "../alloc/nodeset.h"
#include "../sched/queue_index.h"
#include "eventq.h"
#include "sim.h"

enum phase { PH_FUTURE, PH_QUEUED, PH_RUNNING, PH_DONE };

struct jstate {
	double start_s, expected_end_s;
	double remaining_s, rate, last_s; /* work left at rate 1 as of last_s */
	/* The node set: as runs of consecutive ids when it is increasing and the
	 * allocator takes runs (nodes then NULL until someone asks for the ids),
	 * else as ids. */
	int *nodes;
	struct plat_run *runs;
	int nnodes, nruns;
	uint32_t version;
	uint8_t phase;
	/* iterations: a job runs iter_left segments of seg_work each (1 segment
	 * = the whole job unless it resizes); a segment's end is a resize point */
	int iter_left;
	double seg_work;
	double speed;     /* rate factor of its current size (resizing), else 1 */
	struct js_rs *rs; /* resizing state, NULL when the job cannot resize */
};

struct js_sim {
	const struct js_job *jobs;
	size_t njobs;
	const struct js_workload *w; /* the jobs' workload (its Batsim profiles) */
	int nodes;
	struct js_alloc *alloc, *empty, *scratch[2];
	struct js_alloc *counter; /* alloc when counts suffice (alloc_count.h), else NULL */
	struct js_alloc *real;    /* the allocator received (alloc, or under counter) */
	int *absent, nabsent;     /* nodes held in real for the run (--installed) */
	struct js_qindex *qx;     /* the queued jobs by index, once a scheduler asks */
	int *nodebuf[3];
	struct plat_run *runbuf; /* room for a run per node */
	struct js_sched *sched;
	struct js_runtime *rt;
	const struct js_sim_opts *o;
	double now, last_t;
	double wall_start; /* when the event loop began (progress's estimate of the rest) */
	/* queue[0..qlen): within queue_mem (a slot per job), from where its
	 * head has moved to: every job enters once, so its end never passes
	 * the last slot */
	int *queue, *queue_mem, *running;
	struct prio_key *qkeys; /* scratch of sort_by_priority, one per job */
	size_t qlen, rlen;
	struct jstate *st;
	struct js_eventq ev;
	double *rates;
	int *ended;  /* jobs a model's advance() ended */
	int *points; /* jobs at a resize point at the current time */
	long busy, queued_nodes;
	size_t done;
	int running_changed;
	struct js_sim_result *res;
	const struct js_resize *resize; /* the resizing policy, NULL: static */
};

/* --- sim_resize.c --- */
/* Sets up job j's resizing state when it starts (no-op for a rigid job). */
int js_rs_start(struct js_sim *s, int j, struct cmn_err *e);
/* Job j reached the end of a segment with iterations left: records the
 * iteration, asks the policy, starts the next segment. */
int js_rs_point(struct js_sim *s, int j, struct cmn_err *e);
void js_rs_free(struct js_rs *rs);
/* Frees job j's resizing state, writing its size history to the result. */
int js_rs_end(struct js_sim *s, int j, struct cmn_err *e);
/* The core's own helpers sim_resize.c uses (sim.c). The queue re-sorted
 * by priority at the current time (no-op in the other orders). */
void js_sim_sort_queue(struct js_sim *s);
int js_sim_push_finish(struct js_sim *s, int j, struct cmn_err *e);
/* The result's text arena (sim_text.c): appends txt, or a node set kept
 * as runs ("0-3 8"), or distinct nodes in any order as runs (through
 * runbuf, room for n); *off is where it starts. 0, or -1 out of memory. */
int js_sim_text_append(struct js_sim_result *r, const char *txt, size_t *off);
int js_sim_text_runs(struct js_sim_result *r, const struct plat_run *runs, int nr, size_t *off);
int js_sim_text_nodes(struct js_sim_result *r, const int *nodes, int n, struct plat_run *runbuf,
                      size_t *off);
/* Job j's node set as ids only (its runs dropped), for code that changes
 * it in place; 0, or -1 out of memory. */
int js_sim_own_ids(struct js_sim *s, int j);

#endif

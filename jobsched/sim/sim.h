/* The scheduling simulation core: event loop, waiting queue, running set,
 * job progress, and the API schedulers and run-time models use.
 *
 * Deterministic order of simultaneous events: at one time t, first every
 * finish (then every kill at the requested time), ties by job index (= by
 * submit time, then job number); then every arrival at t in that order; then
 * one scheduling pass. Jobs that a pass starts and that end at t (run time
 * 0) end in a further round at the same t, followed by a further pass. */
#ifndef JS_SIM_H
#define JS_SIM_H

#include <stdio.h>

#include "../alloc/alloc.h"
#include "../runtime/rt_values.h"
#include "../workload/workload.h"

struct js_sim;
struct js_sched;
struct js_runtime;
struct js_resize;

enum js_queue_order {
	JS_ORDER_ARRIVAL,  /* submit time, then job number (default) */
	JS_ORDER_SJF,      /* shortest requested time first, then arrival */
	JS_ORDER_SMALLEST, /* fewest nodes first, then arrival */
	JS_ORDER_PRIORITY, /* highest aging priority first (seed 004), re-evaluated at
	                      every scheduling pass; equal priorities by arrival */
};

/* Seed 004 section 3.1's aging priority (Moab's): qfactor_w Qfactor +
 * qtime_w queue_time + nodes_w nodes, with Qfactor = 1 + queue_time /
 * max(qfactor_limit, walltime). */
struct js_priority {
	double qfactor_w, qtime_w, nodes_w, qfactor_limit;
};
double js_aging_priority(const struct js_priority *p, double queue_time_s, double walltime_s,
                         int nodes);

struct js_sim_opts {
	int kill_at_req; /* end a job when it has run its requested time */
	enum js_queue_order order;
	struct js_priority prio; /* the weights of JS_ORDER_PRIORITY */
	FILE *series;            /* if set: one CSV row per event time (see README) */
	int progress;            /* progress lines on stderr */
	/* If set: called after every scheduling pass (tests watch invariants). */
	void (*observer)(void *ctx, struct js_sim *sim);
	void *observer_ctx;
	/* If set: resizable jobs grow and shrink at their resize points as this
	 * policy decides (seed 004); NULL: every job runs on its first nodes. */
	const struct js_resize *resize;
	/* 1: the results keep no job's nodes (every res_off names ""), for runs
	 * that print neither node lists nor placement metrics. */
	int no_node_lists;
	/* 1: the allocator chooses every job's nodes even when nothing reads
	 * them (by default a fungible allocator's choices are then replaced by
	 * a count of free nodes: alloc_count.h). */
	int choose_nodes;
	/* > 0 and below the machine's nodes: only nodes 0..installed-1 take
	 * jobs, the others held from the start to the end (seed 000 sizes a
	 * 4-ary 6-tree for a smaller log's machine: "the extra processors are
	 * not installed"); the results count installed nodes. 0: all. */
	int installed;
};

/* What happened to one job. Times are NAN where they do not apply. */
struct js_job_result {
	double start_s, finish_s;
	double first_reservation_s; /* first reservation a scheduler gave it */
	double reservation_s;       /* the last one */
	int nnodes;                 /* nodes it ran on */
	int killed;                 /* ended at its requested time */
	int moves;                  /* times it was migrated */
	double work_s;              /* its work at rate 1 (the run-time model's), set at start */
	size_t res_off;             /* allocated_resources text in result->text */
	/* resizable jobs: resizes, largest size, sizes over time in result->text
	 * ("35@100 42@156.5": size@time, from its start; "" when it cannot resize) */
	int expansions, contractions, max_nodes;
	size_t sizes_off; /* SIZE_MAX: none */
	double node_s;    /* nodes x seconds it held (its sizes over time) */
};

struct js_sim_result {
	size_t n;
	int nodes;
	struct js_job_result *jobs; /* indexed like the workload's jobs */
	char *text;                 /* NUL-separated interval sets ("0-3 8") */
	size_t text_len, text_cap;
	double unused_node_s; /* integral of max(0, free - queued nodes) dt */
	double busy_node_s;   /* integral of busy nodes dt */
	long killed, passes, rate_updates;
	long migrations_tried, migrations_done;       /* seed 003 */
	long resize_points, expansions, contractions; /* seed 004 */
	struct js_rt_values values;                   /* the run-time model's own per-job values */
};

void js_sim_opts_default(struct js_sim_opts *o);

/* Runs the workload (cleaned, sorted by arrival) to completion. alloc must
 * be in its all-free state; it is returned all-free. */
int js_sim_run(const struct js_workload *w, struct js_alloc *alloc, struct js_sched *sched,
               struct js_runtime *rt, const struct js_sim_opts *o, struct js_sim_result **out,
               struct cmn_err *e);
void js_sim_result_free(struct js_sim_result *r);

/* --- for schedulers and run-time models --- */

double js_sim_now(const struct js_sim *s);
size_t js_sim_njobs(const struct js_sim *s);
const struct js_job *js_sim_job(const struct js_sim *s, int j);
/* The workload the jobs come from (a Batsim workload's profiles). */
const struct js_workload *js_sim_workload(const struct js_sim *s);

/* The waiting queue in the chosen order. */
size_t js_sim_qlen(const struct js_sim *s);
int js_sim_qjob(const struct js_sim *s, size_t pos);
enum js_queue_order js_sim_queue_order(const struct js_sim *s);
/* 1 when the queue is in job index order (arrival order) and indexed
 * (queue_index.h, built at the first call that finds JS_QINDEX_FROM jobs
 * queued or more, kept from then on), so that the two calls below answer;
 * 0 otherwise (a shorter queue, which a walk visits faster, another order,
 * or out of memory: walk the queue). */
enum { JS_QINDEX_FROM = 128 };
int js_sim_queue_indexed(struct js_sim *s);
/* The first queued job j >= from whose size is at most fit and that is
 * either at most small or ends in time (now + its requested time <= until),
 * -1 when there is none, in a few steps however long the queue. */
int js_sim_queue_find(const struct js_sim *s, int from, int fit, int small, double until);
/* The queue position of queued job j, under arrival order. */
size_t js_sim_queue_pos(const struct js_sim *s, int j);

/* Running jobs sorted by expected end (start + requested time), then index. */
size_t js_sim_rlen(const struct js_sim *s);
int js_sim_rjob(const struct js_sim *s, size_t pos);
double js_sim_start_time(const struct js_sim *s, int j);
double js_sim_expected_end(const struct js_sim *s, int j);
/* Running job j's nodes and their count; NULL when out of memory (a node
 * set kept as runs is written out as ids on the first call). */
const int *js_sim_job_nodes(struct js_sim *s, int j, int *n);
/* The number of nodes running job j holds. */
int js_sim_job_nnodes(const struct js_sim *s, int j);

/* The real machine state, and scratch allocators (k = 0 or 1) of the same
 * kind for what-if states, their content left to the caller. */
struct js_alloc *js_sim_alloc(struct js_sim *s);
/* The machine the allocator works on (for run-time models). */
const struct plat_machine *js_sim_machine(const struct js_sim *s);
/* The run-time model's own values of job j: column c of its ops' columns
 * (rt_values.h), a number or a text (0, or CMN_ENOMEM); js_sim_value: NAN
 * while unset. */
void js_sim_set_value(struct js_sim *s, int j, int c, double x);
int js_sim_set_text(struct js_sim *s, int j, int c, const char *t, struct cmn_err *e);
double js_sim_value(const struct js_sim *s, int j, int c);
struct js_alloc *js_sim_scratch(struct js_sim *s, int k);
/* Node buffers with room for the whole machine (k = 0 .. 2). */
int *js_sim_nodebuf(struct js_sim *s, int k);

/* Starts the queued job at pos on nodes (free in the real state). The queue
 * shifts down behind pos. Returns 0 or an error. */
int js_sim_start(struct js_sim *s, size_t pos, const int *nodes, int n, struct cmn_err *e);
/* Asks the real allocator to place the queued job at pos; starts it if it
 * can be placed. Returns 1 started, 0 not placed, < 0 error (in e). */
int js_sim_try_start(struct js_sim *s, size_t pos, struct cmn_err *e);
/* The same with placement flags (JS_PLACE_BACKFILL for a job that jumps). */
int js_sim_try_start_flags(struct js_sim *s, size_t pos, int flags, struct cmn_err *e);

/* An allocator in the all-free state (do not change it). */
const struct js_alloc *js_sim_empty_alloc(const struct js_sim *s);

/* Asks for a scheduling pass at time t > now even if no job event falls
 * then. Returns 0 or an error. */
int js_sim_wakeup(struct js_sim *s, double t, struct cmn_err *e);

/* Asks the allocator to rearrange the running jobs (if it can migrate) and
 * moves them when it finds a better arrangement; counts attempts and
 * successes. Returns 0 or an error. */
int js_sim_migrate(struct js_sim *s, struct cmn_err *e);

/* Priorities (seed 004 section 3.1): a queued job's aging priority plus
 * its user priority; a running job's 100 - pct_time_left + user priority. */
double js_sim_queue_priority(const struct js_sim *s, int j);
double js_sim_run_priority(const struct js_sim *s, int j);

/* One scheduling pass now (the queue re-sorted first in priority order):
 * what a resizing policy calls after harvesting nodes. */
int js_sim_pass(struct js_sim *s, struct cmn_err *e);

/* --- resizable jobs (sim_resize.c) --- */

/* Whether running job j resizes (a resizable job under a resizing policy). */
int js_sim_resizes(const struct js_sim *s, int j);
int js_sim_start_size(const struct js_sim *s, int j);
/* The size before the latest expansion still standing (what a contraction
 * returns to), 0 when it has not expanded. */
int js_sim_prev_size(const struct js_sim *s, int j);
/* Its sweet spot (0: none recorded): no expansion to it or beyond. */
int js_sim_sweet_spot(const struct js_sim *s, int j);
void js_sim_set_sweet_spot(struct js_sim *s, int j, int size);
/* Its last measured iteration time on size (NAN when it never ran on it). */
double js_sim_measured(const struct js_sim *s, int j, int size);
/* The distinct sizes it ran on, most recently used last, with their last
 * measured iteration times; returns how many (at most max). */
int js_sim_sizes_run(const struct js_sim *s, int j, int *sizes, double *meas, int max);
int js_sim_expansions(const struct js_sim *s, int j);
/* Its latest expansion, standing or undone since (from -> to nodes);
 * returns 0 when it has not expanded. */
int js_sim_last_expansion(const struct js_sim *s, int j, int *from, int *to);
/* When its current iteration ends at the current rates. */
double js_sim_next_point(const struct js_sim *s, int j);
/* Resizes job j, which must be at its resize point (in the policy's call;
 * once per point), to size nodes: growth takes the free nodes nearest its own (machine
 * distance, then node number); contraction must go to a size it ran on
 * and releases the nodes farthest from the rest. Returns 1 resized, 0 not
 * enough free nodes, or < 0 an error (in e). */
int js_sim_resize(struct js_sim *s, int j, int size, struct cmn_err *e);

/* A number that changes whenever job j's node set does (migrations and
 * resizes): emergent run-time models key their per-job caches on it. */
int js_sim_placement_version(const struct js_sim *s, int j);

/* Records the time a scheduler promises job j will start by. */
void js_sim_set_reservation(struct js_sim *s, int j, double t);
const struct js_job_result *js_sim_job_result(const struct js_sim *s, int j);

#endif

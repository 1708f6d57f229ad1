/* Resizing policies (seed 004, ReSHAPE): what a resizable job does at each
 * resize point — contract to an earlier size so queued jobs can start,
 * keep its size, or grow into idle nodes — chosen with --resize
 * "name:key=value,...". A policy (a scenario of the paper) is one file
 * plus one line in resize_registry.def; the strategies the scenarios
 * combine (Least-Impact-Priority and FCFS-Contract-Priority harvesting,
 * Max-Benefit-Priority allocation) and the sizes a job may take are shared
 * (resize_strategy.c). Job state lives in the core (sim.h's resizable-job
 * API); a policy keeps none. */
#ifndef JS_RESIZE_H
#define JS_RESIZE_H

#include "../../common/params.h"
#include "../sim/sim.h"

/* The parameters every policy takes. */
struct js_resize_conf {
	int window;      /* remap_window_size: resizes before the expand potential counts */
	double min_ep;   /* the expand potential must exceed it (when it counts) */
	double alpha;    /* node efficiency of the policy's own speed-up prediction */
	double redist_s; /* data-redistribution time charged per resize */
	int arb_step;    /* what an arbitrary-topology job grows by: N > 0 processors, 0 one row
	                    of its starting grid, -1 its starting size */
};

struct js_resize_ops {
	struct cmn_plugin base;
	/* Job j is at a resize point: its iteration just ended (measured), the
	 * queue is in its order. May resize j (js_sim_resize) and run passes
	 * (js_sim_pass). Returns 0 or an error. */
	int (*point)(const struct js_resize_conf *c, struct js_sim *sim, int j, struct cmn_err *e);
};

#define JS_RESIZE_PARAMS                                                                             \
	{"window",                                                                                   \
	 CMN_PT_INT,                                                                                 \
	 "2",                                                                                        \
	 1,                                                                                          \
	 1000,                                                                                       \
	 NULL,                                                                                       \
	 "remap_window_size: resizes before the expand potential is used"},                          \
	    {"min_ep",                                                                               \
	     CMN_PT_DOUBLE,                                                                          \
	     "0",                                                                                    \
	     -1e9,                                                                                   \
	     1e9,                                                                                    \
	     NULL,                                                                                   \
	     "minimum expand potential (speed-up per added processor) to grow"},                     \
	    {"alpha",                                                                                \
	     CMN_PT_DOUBLE,                                                                          \
	     "0.8",                                                                                  \
	     1e-9,                                                                                   \
	     1,                                                                                      \
	     NULL,                                                                                   \
	     "node efficiency of the policy's speed-up prediction"},                                 \
	    {"redist", CMN_PT_DOUBLE, "0", 0, 1e9, NULL, "data-redistribution time per resize (s)"}, \
	    {"arb_step",                                                                             \
	     CMN_PT_STRING,                                                                          \
	     "row",                                                                                  \
	     0,                                                                                      \
	     0,                                                                                      \
	     NULL,                                                                                   \
	     "what an arbitrary-topology job grows by: row (one row of its starting grid), "         \
	     "start (its starting size) or a number of processors"},                                 \
	{                                                                                            \
		NULL                                                                                 \
	}

extern const struct js_resize_ops *const js_resize_registry[];

struct js_resize {
	const struct js_resize_ops *ops;
	struct cmn_params params;
	struct js_resize_conf conf;
	char spec[256];
};

int js_resize_create(const char *spec, struct js_resize **out, struct cmn_err *e);
void js_resize_destroy(struct js_resize *r);

/* --- the strategies (resize_strategy.c) --- */

/* The next size a job may take from cur (its topology: arbitrary grows by
 * c->arb_step: by default one row of its starting grid, the longer side
 * of the most nearly square r x c = start, or its starting size, or a
 * number of processors; nearly-square adds
 * one to the shorter side of its current grid; power-of-2 doubles). */
int js_rs_next_size(const struct js_resize_conf *c, const struct js_job *job, int start, int cur);
/* Job j's expand potential: the slope, at its current size, of a
 * polynomial (degree up to 2, GSL multifit) fitted to its measured
 * speed-up on the last window + 1 sizes it ran on; INFINITY before it has
 * resized `window` times (not yet computed: it ranks first). */
double js_rs_expand_potential(const struct js_resize_conf *c, const struct js_sim *sim, int j);
/* Whether job j benefited from its last expansion (standing or undone
 * since): its measured iteration time on the size it grew to is below the
 * one on the size it grew from (1 when it has not expanded, or has not
 * yet run an iteration there). */
int js_rs_benefited(const struct js_sim *sim, int j);
/* Harvesting: whether job j is to contract now for the queued jobs. */
int js_rs_least_impact(const struct js_resize_conf *c, const struct js_sim *sim, int j);
int js_rs_fcfs_contract(const struct js_resize_conf *c, const struct js_sim *sim, int j);
/* Max-Benefit-Priority: grows j to its next size when the strategy lets
 * it. Returns 1 grown, 0 not, < 0 an error. */
int js_rs_max_benefit(const struct js_resize_conf *c, struct js_sim *sim, int j, struct cmn_err *e);
/* The sweet-spot rule: a job at its sweet spot keeps its size; one whose
 * last expansion did not pay returns to the size it grew from (if still
 * above it), which becomes its sweet spot. Returns 1 when its size is
 * settled so (it may not grow now), 0 when it may grow, < 0 an error. */
int js_rs_sweet_spot_rule(struct js_sim *sim, int j, struct cmn_err *e);
/* Policy 1 (favour queued jobs) with a harvesting strategy: PBA-PR and
 * FCFS-PR. */
int js_rs_policy_queued(const struct js_resize_conf *c, struct js_sim *sim, int j,
                        int (*harvest)(const struct js_resize_conf *, const struct js_sim *, int),
                        struct cmn_err *e);

#endif

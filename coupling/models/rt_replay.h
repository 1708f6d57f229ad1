/* The replaying run-time models' shared implementation (rt_simgrid.c):
 * "simgrid" and "flit" differ only in the netsim engine they replay on and
 * in their parameter tables; both declare mode, alltoall, shape, iteration
 * and the profile parameters. */
#ifndef CPL_RT_REPLAY_H
#define CPL_RT_REPLAY_H

#include <stdio.h>

#include "../../jobsched/runtime/runtime.h"

/* The parameters both replaying models declare (besides CPL_ALLTOALL_PARAM
 * and CPL_PROFILE_PARAMS). */
#define CPL_REPLAY_MODE_PARAM                                                                      \
	{                                                                                          \
		"mode", CMN_PT_CHOICE, "isolated", 0, 0, "isolated|shared",                        \
		    "isolated: each job alone on its nodes (placement only, cached by shape); "    \
		    "shared: "                                                                     \
		    "all running jobs together (contention)"                                       \
	}
#define CPL_REPLAY_SHAPE_PARAM                                                                     \
	{                                                                                          \
		"shape", CMN_PT_CHOICE, "exact", 0, 0, "exact|counts",                             \
		    "cache key of isolated replays: exact (placements equal under the machine's "  \
		    "symmetries) "                                                                 \
		    "or counts (trees: node sets of the same per-subtree counts; approximate)"     \
	}

#define CPL_REPLAY_GROUP_CACHE_PARAM                                                               \
	{                                                                                          \
		"group_cache", CMN_PT_CHOICE, "yes", 0, 0, "yes|no",                               \
		    "mode=shared: groups of jobs replayed together cached by their form under "    \
		    "the "                                                                         \
		    "machine's symmetries (no: every changed group replayed)"                      \
	}

#define CPL_REPLAY_AHEAD_PARAM                                                                     \
	{                                                                                          \
		"ahead", CMN_PT_CHOICE, "yes", 0, 0, "yes|no",                                     \
		    "replay a rate update's cache misses together, at once where the engine can "  \
		    "(yes), or one by one as the update asks for them (no): the same outputs"      \
	}

#define CPL_REPLAY_INTERVAL_PARAM                                                                  \
	{                                                                                          \
		"rate_interval", CMN_PT_DOUBLE, "0", 0, 1e12, NULL,                                \
		    "mode=shared, an approximation: seconds after a rate update that replayed "    \
		    "groups during which changed groups are not replayed (their jobs keep their "  \
		    "times; a job that starts takes its time alone on its nodes) until the first " \
		    "update that many seconds or more later; 0: every change replayed (exact)"     \
	}

#define CPL_REPLAY_ITERATION_PARAM                                                                 \
	{                                                                                          \
		"iteration", CMN_PT_CHOICE, "timed", 0, 0, "timed|difference",                     \
		    "how one iteration is measured: timed (one replay of the first timed "         \
		    "iteration alone, ranks starting together) or difference (replays with two "   \
		    "iterations and with one, setup included: five times the work)"                \
	}

/* model: the name in messages and reports; engine: "NAME[:KEY=VALUE,..]". */
int cpl_rt_replay_create(const struct cmn_params *p, const char *model, const char *engine,
                         void **self, struct cmn_err *e);
void cpl_rt_replay_destroy(void *self);
double cpl_rt_replay_work(void *self, struct js_sim *sim, int j, const int *nodes, int n,
                          struct cmn_err *e);
int cpl_rt_replay_rates(void *self, struct js_sim *sim, double *rates, struct cmn_err *e);
void cpl_rt_replay_report(void *self, FILE *f);
/* Resizable jobs: the iteration time scales as the profile's iteration at
 * the reference placement of each size. */
double cpl_rt_replay_resize_iter(void *self, struct js_sim *sim, int j, const int *nodes, int n,
                                 int from_n, double from_iter_s, struct cmn_err *e);

#endif

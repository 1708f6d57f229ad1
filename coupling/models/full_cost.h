/* The full model's plan of a workload and its cost, known before the
 * session: per (kernel, size) profile of the workload its reference times
 * and its iterated trace (profile.h), per job its profile and iteration
 * count, and what the run will take: the iterations and trace actions it
 * replays, and a bound on its memory peak. Both are checked against the
 * model's limits (max_actions, max_memory), so that a workload too large
 * for full is refused at once with the estimate and what would bound it
 * instead of running for days or exhausting the machine. On the flit
 * engine, whose time follows the flits it moves rather than the actions,
 * the bytes the messages carry are counted too (max_bytes): an iteration's
 * traffic (linkload/traffic.h) times the iterations, a lower bound of the
 * flits (every flit crosses a node's link out and one in).
 *
 * The memory bound (bytes): the traces of every profile (one and two
 * iterations, as the replay caches them; plus the largest three-iteration
 * trace made while checking one) + for each of at most `nodes` running
 * ranks (every job runs on exactly its size, one rank per node, nodes
 * shared by no two jobs) the engine's per-rank state and an allowance for
 * its communications in flight (an iteration's actions per rank, and a
 * collective's message to every rank) + with SimGrid, the mailboxes the session keeps (one per name
 * a running job's messages use, per job slot; names are (source, destination, tag) and (phase,
 * source, destination), counted from the traces) + a record per job + the engine and platform. The
 * per-item sizes are measured ones (results/bench/full_memory.sh compares the bound with measured
 * peaks), so the bound is an estimate with margin, not a proof. */
#ifndef CPL_FULL_COST_H
#define CPL_FULL_COST_H

#include <stdio.h>

#include "../../jobsched/workload/workload.h"
#include "../../platforms/platform.h"
#include "../replay/profile.h"
#include "../replay/replay.h"

/* The limits every full model declares (in its table). */
#define CPL_FULL_LIMIT_PARAMS                                                                      \
	{"max_actions",                                                                            \
	 CMN_PT_DOUBLE,                                                                            \
	 "1e9",                                                                                    \
	 0,                                                                                        \
	 1e18,                                                                                     \
	 NULL,                                                                                     \
	 "refuse a workload whose replay runs more trace actions, all ranks of all jobs (0: no "   \
	 "limit)"},                                                                                \
	    {"max_bytes",                                                                          \
	     CMN_PT_DOUBLE,                                                                        \
	     "2e11",                                                                               \
	     0,                                                                                    \
	     1e18,                                                                                 \
	     NULL,                                                                                 \
	     "engine=flit: refuse a workload whose messages carry more bytes, all ranks of all "   \
	     "jobs "                                                                               \
	     "(every flit crosses two links or more: about 80 MB of messages a second here, so "   \
	     "2e11 "                                                                               \
	     "is about 40 minutes; 0: no limit)"},                                                 \
	{                                                                                          \
		"max_memory", CMN_PT_DOUBLE, "4096", 0, 1e9, NULL,                                 \
		    "refuse a run whose memory peak may pass this many MB (0: no limit)"           \
	}

struct cpl_full_limits {
	double actions, memory_mb; /* 0: none */
	double bytes;              /* engine=flit: the messages' bytes (0: none) */
	int flit;                  /* engine=flit (else s4u) */
	int flit_bytes;            /* engine=flit: bytes per flit */
};

void cpl_full_limits_of(const struct cmn_params *p, struct cpl_full_limits *lim);

struct cpl_full_profile {
	int kernel, nranks;
	double t, setup;        /* one iteration alone on nodes 0..n-1; the rest of
	                           the one-iteration trace there */
	const struct trace *t2; /* two iterations (the replay's cache) */
	struct cpl_iterated it; /* its iteration's range in t2 */
	double bytes;           /* what its traces take */
	double iter_bytes;      /* engine=flit: the bytes its timed iteration's messages
	                           carry, rank to rank (collectives expanded) */
};

struct cpl_full_plan;

/* The plan of w on m: each profile's references replayed on rp (in the
 * workload's order), its traces, and the cost. Once the actions counted
 * pass lim->actions, no further profile is made (the plan is then partial
 * and cpl_full_plan_check refuses it). Errors: a replay's, a recorded
 * trace (a job's number named: full repeats iterations, a recorded run has
 * none). prof and rp are borrowed, and must outlive the plan. */
int cpl_full_plan_make(struct cpl_replay *rp, const struct cpl_profiles *prof,
                       const struct plat_machine *m, const struct js_workload *w,
                       const struct cpl_full_limits *lim, struct cpl_full_plan **out,
                       struct cmn_err *e);
void cpl_full_plan_free(struct cpl_full_plan *p);

/* Job j's profile (j its index in the workload). */
const struct cpl_full_profile *cpl_full_plan_profile(const struct cpl_full_plan *p, int j);
int cpl_full_plan_profiles(const struct cpl_full_plan *p); /* made so far */
/* The iterations K a job runs on its profile: max(1, round((run time -
 * setup) / t)); -1 beyond 2^53 (cpl_full_plan_make refuses such a job). */
long cpl_full_iterations(const struct js_job *job, const struct cpl_full_profile *p);

/* The estimate, one line (engine: the model's engine spec). */
void cpl_full_plan_print(const struct cpl_full_plan *p, const char *engine,
                         const struct cpl_full_limits *lim, FILE *f);
/* 0, or CMN_ESTATE (exit 1) when the plan passes a limit, naming the estimate,
 * the largest job and the options that would bound it. */
int cpl_full_plan_check(const struct cpl_full_plan *p, const struct cpl_full_limits *lim,
                        struct cmn_err *e);

#endif

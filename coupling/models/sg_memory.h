/* The simgrid model's check before its run (rt_simgrid.c): what the linear
 * all-to-alls of the replays it may run at once would hold in SimGrid. */
#ifndef CPL_SG_MEMORY_H
#define CPL_SG_MEMORY_H

#include <stdio.h>

#include "../../common/err.h"
#include "../../jobsched/workload/workload.h"
#include "../profiles/jobprof.h"

struct cpl_sg_memory_opts {
	int shared;  /* mode=shared: a replay holds a group of running jobs */
	int ahead;   /* ahead=yes: a rate update's replays may run at once (children) */
	int per;     /* replays of one iteration: 1 (timed) or 2 (difference) */
	long max_mb; /* max_memory (0: none) */
};

/* Messages that may be in SimGrid at once, from each job's kernel
 * description (cpl_profiles_pairs: n (n - 1) for an all-to-all of n
 * ranks, the sets of a kind side by side), over machine_nodes nodes:
 * - one replay of a job alone: the largest job's;
 * - one replay of running jobs together (shared): the most any set of jobs
 *   that fits the machine's nodes may post, bounded by the fractional
 *   knapsack (jobs by messages per node, most first, the last one in part);
 * - replays at once (ahead): a rate update replays each running job's
 *   reference and placement (isolated) or its groups (shared), per times
 *   each, up to netsim's NET_SG_CHILDREN children at once.
 * Binds the workload's own profiles (cpl_profiles_bind_workload). Notes the estimate on notes (when
 * given); past opts->max_mb an error (CMN_ESTATE) naming the largest job and what would bound it. 0
 * when it fits, or there is nothing to count. */
int cpl_sg_memory_check(struct cpl_profiles *prof, const struct js_workload *w, int machine_nodes,
                        const struct cpl_sg_memory_opts *opts, FILE *notes, struct cmn_err *e);

#endif

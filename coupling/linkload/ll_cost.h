/* The linkload model's memory, bounded before it runs from the workload
 * and the machine alone (no traffic is built): each job's profile (kernel
 * by the draw of jobprof.h, ranks = its size) gives its flows from the
 * generator's description (gen.h's pairs: at least the rank pairs one
 * iteration connects, and the sets of ranks exchanging all pairs, which
 * k-ary n-trees count in aggregate from 32 ranks on), each flow its record
 * and its route (at most the machine's longest); a profile's traffic holds
 * its listed pairs. The bound (bytes): the largest sum of the jobs' flows,
 * aggregates and traffics over sets of jobs that fit on the machine's
 * nodes at once (every job runs on its size, one rank per node: the
 * fractional knapsack by bytes per node, an upper bound of any such set),
 * + the largest transient of one job start (its traffic being generated;
 * its reference placement's flows come and go before its own) + the
 * traffics kept without users (up to 64 MB) + with workers computing
 * profiles ahead (ll_ahead.h), their budget (64 MB) and a transient each +
 * the process, machine and job records. The per-item
 * sizes are measured ones with margin (test_linkload_cost.sh compares measured peaks), so the bound
 * is an estimate with margin, not a proof; resized jobs are counted at their submitted size. */
#ifndef CPL_LL_COST_H
#define CPL_LL_COST_H

#include <stdint.h>
#include <stdio.h>

#include "../../jobsched/workload/workload.h"
#include "../../platforms/platform.h"
#include "../profiles/jobprof.h"

/* The limit the linkload model declares (in its table). */
#define CPL_LL_LIMIT_PARAM                                                                         \
	{                                                                                          \
		"max_memory", CMN_PT_DOUBLE, "4096", 0, 1e9, NULL,                                 \
		    "refuse a run whose memory peak may pass this many MB (0: no limit)"           \
	}

/* Measured sizes behind the bound, with margin (results/bench/README.md):
 * a flow's record (ranks, bytes, latency, rate, its routes' start: 40 B)
 * and per link of its route its place in the route and in the link's list
 * (8 B; the build also writes, then drops, a copy of the routes); per rank
 * of a set that a k-ary n-tree counts in aggregate (4 KB measured on an
 * 8-ary 4-tree, counts per level and residue); a profile's traffic per
 * rank (compute, row start, the dense part) and per listed pair, and what
 * its generation holds on top (two runs' entries, grown by doubling); the
 * process with its machine (35 MB measured) and per machine node and job
 * what the model, the scheduler and the outputs keep. */
#define CPL_LL_FLOW_BYTES      80.0
#define CPL_LL_CROSSING_BYTES  10.0
#define CPL_LL_MEMBER_BYTES    8192.0
#define CPL_LL_RANK_BYTES      64.0
#define CPL_LL_PAIR_BYTES      12.0
#define CPL_LL_GEN_RANK_BYTES  128.0
#define CPL_LL_GEN_PAIR_BYTES  64.0
#define CPL_LL_SPARE_BYTES     (64.0 * 1024 * 1024)
#define CPL_LL_AHEAD_BYTES     (64.0 * 1024 * 1024)
#define CPL_LL_BASE_BYTES      (40.0 * 1024 * 1024)
#define CPL_LL_PER_NODE_BYTES  1024.0
#define CPL_LL_PER_JOB_BYTES   512.0
#define CPL_LL_LISTED_PER_RANK 4.0 /* listed pairs per rank beside a dense part of every pair */

struct cpl_ll_cost {
	double total; /* bytes: the sum of the following */
	double running, transient, spare, ahead, base;
	size_t njobs;
	int profiles; /* distinct (kernel, ranks) */
	int nodes, tree;
	double at_once; /* jobs in the set that bounds the running ones */
	/* the job whose profile takes the most bytes */
	uint64_t big_id;
	int big_kernel, big_ranks;
	double big_flows, big_bytes;
	int big_grouped; /* some of its pairs counted in aggregate */
};

/* The bound for workload w on machine m with profiles pr, workers
 * computing profiles ahead; 0 or CMN_ENOMEM. */
int cpl_ll_cost_of(const struct cpl_profiles *pr, const struct plat_machine *m,
                   const struct js_workload *w, int workers, struct cpl_ll_cost *c,
                   struct cmn_err *e);
/* The estimate, one line. */
void cpl_ll_cost_print(const struct cpl_ll_cost *c, const struct cpl_profiles *pr, double max_mb,
                       FILE *f);
/* 0, or CMN_ESTATE (exit 1) when the bound passes max_mb (0: no limit),
 * naming the estimate, the largest job and the options that would bound
 * it. */
int cpl_ll_cost_check(const struct cpl_ll_cost *c, const struct cpl_profiles *pr, double max_mb,
                      struct cmn_err *e);

#endif

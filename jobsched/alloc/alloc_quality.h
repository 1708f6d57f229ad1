/* Quality of one job's allocation on its machine (seeds 000, 001, 002):
 * the sum and mean of pairwise distances between its nodes (L1 router hops
 * on meshes and tori, link hops on trees and clusters), the highest switch
 * level it uses and its class on k-ary n-trees, and the clusters it spans. */
#ifndef JS_ALLOC_QUALITY_H
#define JS_ALLOC_QUALITY_H

#include <stdint.h>

#include "../../platforms/pairsum.h"
#include "../../platforms/platform.h"
#include "nodeset.h"

enum js_alloc_class {
	JS_CLASS_NA,            /* not a tree */
	JS_CLASS_CONTIGUOUS,    /* under one switch of the job's level */
	JS_CLASS_QUASI,         /* needs one level more */
	JS_CLASS_NONCONTIGUOUS, /* needs two or more levels more */
};
extern const char *const js_alloc_class_names[];

struct js_alloc_quality {
	double pairwise_sum;  /* sum over unordered pairs (exact below 2^64) */
	double pairwise_mean; /* sum / pairs; 0 for one node */
	int max_level;        /* trees: level of the switch above all its nodes; -1 otherwise */
	int cls;              /* enum js_alloc_class */
	int clusters;         /* clusters spanned (1 on single-cluster machines) */
};

/* nodes strictly ascending, n >= 1; scratch has room for n ints. Finds
 * the runs of consecutive ids on the way, then as js_alloc_quality_runs. */
void js_alloc_quality(const struct plat_machine *m, const int *nodes, int n, int job_size,
                      int *scratch, struct js_alloc_quality *q);

/* The same for the node set runs[0..nr) (ascending, disjoint, nr >= 1);
 * scratch has room for its node count. Time O(nr d + the axes' lengths)
 * on every family of the registry, multi-clusters of each included (d:
 * dimensions or tree levels; O(n log n) on an axis longer than the n
 * nodes); every pair on a family without a path of its own (its ops'
 * pair_sum, platforms/pairsum.h). */
void js_alloc_quality_runs(const struct plat_machine *m, const struct plat_run *runs, int nr,
                           int job_size, int *scratch, struct js_alloc_quality *q);

/* Parses an interval set ("0-3 8") into nodes; returns the count. */
int js_parse_intervals(const char *text, int *nodes, int max);
/* The same into runs (at most max); returns their count. */
int js_parse_runs(const char *text, struct plat_run *runs, int max);

#endif

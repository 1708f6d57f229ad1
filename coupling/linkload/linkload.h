/* The analytic contention model behind the `linkload` run-time model: the
 * time of one iteration of every running job, from the jobs' per-iteration
 * traffic (traffic.h) routed on the machine and the links' bandwidth shared
 * max-min fairly among the flows crossing them.
 *
 * Model (documented choices):
 *  - every (source, destination) pair with bytes in a job's per-iteration
 *    traffic is one flow along the machine's route between their nodes
 *    (ranks on the same node exchange for free); all flows of all jobs are
 *    active at once;
 *  - rates are the max-min fair allocation of link bandwidth (progressive
 *    filling: raise every unfrozen flow's rate equally, freeze the flows of
 *    each link that fills; a link whose count drops with less than 1e-9 of
 *    its bandwidth left counts as full at that level), not re-allocated
 *    when short flows end;
 *  - a flow takes bytes / rate + the latency of its route; a rank's
 *    communication time is its slowest outgoing or incoming flow; the job's
 *    iteration time is the largest, over its ranks, of compute / speed +
 *    communication.
 *
 * Cost: a job's flows are routed once while its nodes stay (on k-ary
 * n-trees its all-to-all pattern, or its groups of ranks exchanging all
 * pairs, counted in aggregate: ll_tree.c, ll_groups.c). A computation
 * fills links by events, one per level at which links fill (ll_queue.h
 * orders them), each costing the links and parts it changes; every flow
 * freezes once. Each part keeps a record of the levels at which its flows
 * froze, and once jobs start or end only the parts whose flows freeze at
 * other levels are computed again, from the level where they change
 * (ll_fill.h; of a part of flows one by one, only those flows: ll_frag.c):
 * the others' records are replayed on the links they share with those.
 * The times are those of computing every
 * running job together, to the last bit. Equal to main's round-by-round
 * arithmetic to rounding (within 4e-14 relative on linkload_compare.sh's
 * cases). */
#ifndef CPL_LINKLOAD_H
#define CPL_LINKLOAD_H

#include "../../common/err.h"
#include "../../platforms/platform.h"
#include "traffic.h"

struct cpl_job_load {
	int nranks;
	const int *nodes;                  /* rank r on node nodes[r] */
	const struct cpl_traffic *traffic; /* per iteration; nranks ranks */
};

/* A job's flows routed on its nodes (built once while its nodes stay):
 * one by one, or, on a k-ary n-tree, a job whose traffic reaches every
 * pair of its ranks (all-to-all) in aggregate (ll_tree.c: memory and time
 * per rank instead of per pair). The results are the same to the last
 * bit; AUTO takes the aggregate where it applies from 32 ranks on. */
enum cpl_flows_form { CPL_FLOWS_AUTO, CPL_FLOWS_EACH, CPL_FLOWS_AGGREGATE };
struct cpl_job_flows;
int cpl_flows_build(const struct plat_machine *m, const struct cpl_job_load *job,
                    struct cpl_job_flows **out, struct cmn_err *e);
/* The same in a given form (AGGREGATE where it applies, else EACH). */
int cpl_flows_build_as(const struct plat_machine *m, const struct cpl_job_load *job,
                       enum cpl_flows_form form, struct cpl_job_flows **out, struct cmn_err *e);
/* Whether f holds its flows in aggregate. */
int cpl_flows_aggregated(const struct cpl_job_flows *f);
void cpl_flows_free(struct cpl_job_flows *f); /* NULL: nothing */
/* Bytes f holds. */
double cpl_flows_memory(const struct cpl_job_flows *f);

/* The sharing computation for machine m (the caller keeps m alive): it
 * holds the jobs of its last call, and their clusters' results, until a
 * call without them or cpl_flows_free. */
struct cpl_linkload;
int cpl_linkload_create(const struct plat_machine *m, struct cpl_linkload **out, struct cmn_err *e);
void cpl_linkload_destroy(struct cpl_linkload *ll); /* NULL: nothing */
/* Writes the iteration time of each of the n jobs (distinct) into t[i]:
 * jobs new to ll are computed with the clusters they join, jobs of its
 * last call missing here leave theirs (a job is held by one computation
 * at a time: another's lets it go). */
int cpl_linkload_run(struct cpl_linkload *ll, struct cpl_job_flows *const *jobs, int n, double *t,
                     struct cmn_err *e);

/* What the computations of ll did so far. */
struct cpl_linkload_stats {
	long runs;           /* calls */
	double jobs;         /* jobs whose times were computed */
	double parts;        /* parts computed (the others replayed) */
	double events;       /* rounds of links filling */
	double link_updates; /* links whose user counts changed at an event */
	double settles;      /* parts that settled fills at an event */
	double replayed;     /* recorded drops replayed */
	double redone;       /* computations redone with every part */
	double splits;       /* times flows of a part moved into its fragment */
};
void cpl_linkload_stats(const struct cpl_linkload *ll, struct cpl_linkload_stats *s);

/* The same for jobs given by their nodes and traffic (routes built and
 * freed inside). */
int cpl_linkload_times(const struct plat_machine *m, const struct cpl_job_load *jobs, int n,
                       double *t, struct cmn_err *e);

#endif

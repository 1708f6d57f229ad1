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
 *    each link that fills, a link counting as full within 1e-9 of its
 *    bandwidth), not re-allocated when short flows end;
 *  - a flow takes bytes / rate + the latency of its route; a rank's
 *    communication time is its slowest outgoing or incoming flow; the job's
 *    iteration time is the largest, over its ranks, of compute / speed +
 *    communication.
 *
 * Cost: a job's flows are routed once while its nodes stay; each call
 * fills the links its jobs use, in time O(F log L) for F flow-link
 * crossings on L used links. */
#ifndef CPL_LINKLOAD_H
#define CPL_LINKLOAD_H

#include "../common/err.h"
#include "../platforms/platform.h"
#include "traffic.h"

struct cpl_job_load {
	int nranks;
	const int *nodes;                  /* rank r on node nodes[r] */
	const struct cpl_traffic *traffic; /* per iteration; nranks ranks */
};

/* A job's flows with their routes (built once while its nodes stay). */
struct cpl_job_flows {
	int nranks;
	const double *flops; /* per rank, borrowed from the traffic */
	long nflows;
	int *src, *dst; /* ranks */
	double *bytes, *lat;
	long *first; /* flow k's links: pool[first[k] .. first[k + 1]) */
	int *pool;
};
int cpl_flows_build(const struct plat_machine *m, const struct cpl_job_load *job,
                    struct cpl_job_flows **out, struct cmn_err *e);
void cpl_flows_free(struct cpl_job_flows *f); /* NULL: nothing */
/* Bytes f holds. */
double cpl_flows_memory(const struct cpl_job_flows *f);

/* The sharing computation, with buffers sized for machine m that calls
 * reuse (the caller keeps m alive). */
struct cpl_linkload;
int cpl_linkload_create(const struct plat_machine *m, struct cpl_linkload **out, struct cmn_err *e);
void cpl_linkload_destroy(struct cpl_linkload *ll); /* NULL: nothing */
/* Writes the iteration time of each of the n jobs into t[i]. */
int cpl_linkload_run(struct cpl_linkload *ll, const struct cpl_job_flows *const *jobs, int n,
                     double *t, struct cmn_err *e);

/* The same for jobs given by their nodes and traffic (routes built and
 * freed inside). */
int cpl_linkload_times(const struct plat_machine *m, const struct cpl_job_load *jobs, int n,
                       double *t, struct cmn_err *e);

#endif

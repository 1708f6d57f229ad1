/* The analytic contention model behind the `linkload` run-time model: the
 * time of one iteration of every running job, from the jobs' per-iteration
 * traffic matrices routed on the machine and the links' bandwidth shared
 * max-min fairly among the flows crossing them.
 *
 * Model (documented choices):
 *  - every (source, destination) pair with bytes in a job's per-iteration
 *    matrix is one flow along the machine's route between their nodes
 *    (ranks on the same node exchange for free); all flows of all jobs are
 *    active at once;
 *  - rates are the max-min fair allocation of link bandwidth (progressive
 *    filling: raise every unfrozen flow's rate equally, freeze the flows of
 *    each link that fills), not re-allocated when short flows end;
 *  - a flow takes bytes / rate + the latency of its route; a rank's
 *    communication time is its slowest outgoing or incoming flow; the job's
 *    iteration time is the largest, over its ranks, of compute / speed +
 *    communication. */
#ifndef CPL_LINKLOAD_H
#define CPL_LINKLOAD_H

#include "../common/err.h"
#include "../platforms/platform.h"

struct cpl_job_load {
	int nranks;
	const int *nodes;     /* rank r on node nodes[r] */
	const double *matrix; /* nranks x nranks bytes per iteration, row sends */
	const double *flops;  /* per rank, per iteration */
};

/* Writes the iteration time of each job into t[i]. */
int cpl_linkload_times(const struct plat_machine *m, const struct cpl_job_load *jobs, int n,
                       double *t, struct cmn_err *e);

/* A job's flows with their routes, built once while its nodes stay. */
struct cpl_job_flows {
	int nranks, nflows;
	const double *flops; /* borrowed */
	int *src, *dst;
	double *bytes, *lat;
	int *first, *pool; /* flow k's links: pool[first[k] .. first[k+1]) */
};
int cpl_flows_build(const struct plat_machine *m, const struct cpl_job_load *job,
                    struct cpl_job_flows *f, struct cmn_err *e);
void cpl_flows_free(struct cpl_job_flows *f);
int cpl_linkload_times_flows(const struct plat_machine *m, const struct cpl_job_flows *const *jobs,
                             int n, double *t, struct cmn_err *e);

#endif

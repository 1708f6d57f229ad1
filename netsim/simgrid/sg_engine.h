/* What the SimGrid engines share: SimGrid's set-up, the platform loaded and
 * sealed once, each evaluation in a child process forked from that state,
 * link loads. An engine variant says how a job's ranks become actors. */
#ifndef NET_SG_ENGINE_H
#define NET_SG_ENGINE_H

#include <simgrid/host.h>

#include "../netsim.h"

struct sg_state;
struct sg_notify;

struct sg_variant {
	int smpi; /* initialise SMPI (and finalise it at the end) */
	/* Parent side, before forking: data for job j of an evaluation whose
	 * first actor of that job gets id first_pid (e.g. rank files). */
	int (*prepare)(struct sg_state *s, const struct net_job *job, int first_pid, void **data,
	               struct cmn_err *e);
	/* Child side (or a live session): creates the job's actors; rank r
	 * stores its absolute end time in finish[r] (left < 0 if it does not
	 * end). With notify (live sessions; NULL in evaluations) each rank's
	 * actor is registered (net_sg_notify_actor) and tells its end
	 * (net_sg_notify_done) right after storing it. */
	void (*start)(struct sg_state *s, const struct net_job *job, int j, void *data, double t0,
	              double *finish, struct sg_notify *notify);
	/* Parent side, after the evaluation: frees what prepare made (or NULL). */
	void (*release)(const struct net_job *job, void *data);
	void (*cleanup)(struct sg_state *s); /* at destroy */
};

int net_sg_engine_create(const struct sg_variant *v, const struct net_engine_args *a, void **state,
                         struct cmn_err *e);
int net_sg_engine_evaluate(void *state, const struct net_job *jobs, int n, double until,
                           struct net_job_result *results, struct cmn_err *e);
int net_sg_engine_evaluate_many(void *state, int count, const struct net_job *const *jobs,
                                const int *n, double until, struct net_job_result *const *results,
                                struct cmn_err *e);
int net_sg_engine_links(void *state, const struct net_link_result **out, int *n, struct cmn_err *e);
void net_sg_engine_destroy(void *state);

/* A live session on the loaded platform (netsim.h's live, sg_live.c). */
int net_sg_engine_live(void *state, int (*body)(void *ctx, struct net_live *lv, struct cmn_err *e),
                       void *ctx, struct cmn_err *e);

/* For variants. */
const struct sg_variant *net_sg_engine_variant(const struct sg_state *s);
int net_sg_engine_alltoall_ring(const struct sg_state *s); /* netsim.h's alltoall_ring */
int net_sg_engine_nodes(const struct sg_state *s);
void net_sg_engine_set_lived(struct sg_state *s);
void net_sg_notify_actor(struct sg_notify *n, int rank, sg_actor_t a);
void net_sg_notify_done(struct sg_notify *n);
sg_host_t net_sg_engine_host(const struct sg_state *s, int node);
long net_sg_engine_evaluation(const struct sg_state *s); /* index of the current one */
void **net_sg_engine_variant_data(struct sg_state *s);   /* one pointer a variant owns */

#endif

/* Trace replay on the flit-level network (issue 8 §2): several jobs' TI
 * traces, each rank on its node, interpreted rank by rank against a
 * flit_net in cycles.
 *
 * Semantics are the s4u engine's (engine_s4u.c), so the two engines run
 * the same program: a message is transferred once both its send and its
 * receive are posted (matched first-in first-out per job, source,
 * destination and tag); a blocking send below 64 KiB returns at once
 * (eager), a larger one when its data has arrived (rendezvous); recv,
 * wait and waitall wait for the transfer; collectives are expanded by
 * apptraces/trace_expand.h phase by phase (receive what comes in, then
 * send; exchanges post everything and wait; alltoall(v) in rounds with
 * `ring`), then the flops of a reduction. A transfer of B bytes is
 * ceil(B / flit_bytes) flits (at least one) in packets of packet_flits
 * flits, queued at the source node at once; ranks on the same node
 * exchange in no time. Compute takes flops / speed seconds, or nothing
 * with compute_zero (INSEE's infinitely fast CPUs, to isolate
 * communication); sleeps always take their time. Times are whole cycles
 * of cycle_s seconds: a rank resumes in the cycle after the one in which
 * its transfer's last flit was delivered. When no flit is in flight and
 * every rank computes or waits, the clock jumps to the next event. */
#ifndef NET_FLIT_REPLAY_H
#define NET_FLIT_REPLAY_H

#include "../netsim.h"
#include "flit_net.h"

struct flit_replay_opts {
	double cycle_s;     /* seconds per cycle */
	int flit_bytes;     /* bytes per flit */
	int packet_flits;   /* flits per packet (the last packet of a message may be shorter) */
	int compute_zero;   /* 1: compute takes no time */
	int ring;           /* alltoall(v) in n - 1 rounds (netsim.h) */
	double speed_flops; /* every node's speed */
};

/* Runs jobs[0..n) on a fresh network of machine m with parameters p until
 * all finish or, with until > 0, until that many seconds; results[i] for
 * jobs[i] (finish -1: unfinished). link_flits (m->nlinks entries, may be
 * NULL) gets the flits each link carried. 0, or an error: a deadlock of the
 * traces (naming the blocked ranks and actions), the network's watchdog,
 * out of memory. */
int net_flit_replay_run(const struct plat_machine *m, const struct flit_params *p,
                        const struct flit_replay_opts *o, const struct net_job *jobs, int n,
                        double until, struct net_job_result *results, long *link_flits,
                        int64_t *cycles, struct cmn_err *e);

/* A live session (netsim.h) on a fresh network of machine m: body starts
 * jobs (each at the current cycle) and lets time pass; a job has ended
 * when its last rank has. Errors inside (a deadlock of the traces, the
 * watchdog) end the session: wait returns -1 and says why on stderr. The
 * session's traces may be freed once their job has ended. Returns body's
 * status. */
int net_flit_replay_live(const struct plat_machine *m, const struct flit_params *p,
                         const struct flit_replay_opts *o,
                         int (*body)(void *ctx, struct net_live *lv, struct cmn_err *e), void *ctx,
                         struct cmn_err *e);

#endif

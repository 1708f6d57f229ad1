/* Collectives as point-to-point messages: the one expansion every consumer
 * uses (trace statistics and traffic matrix, the analytic contention model,
 * the network engines), so that they agree. It is what the SimGrid engine
 * runs: SMPI 3.32's default collective selector (alltoall: see below).
 * N ranks, v = rank relative to the root:
 *   bcast      binomial tree (MPICH's, SMPI's bcast__binomial_tree): v
 *              receives from v - lowbit(v) and sends to v + m for every power
 *              of two m < lowbit(v) (all m < N for the root), v + m < N
 *   reduce     linear: every rank but the root sends its buffer to the root
 *   allreduce  reduce (linear, to rank 0) then bcast (binomial, from 0)
 *   alltoall   linear: one block to every other rank (netsim sets SMPI's
 *              alltoall to basic_linear; its default would pick a Bruck
 *              algorithm for small blocks on more than 12 ranks)
 *              (with netsim's alltoall_ring the engines send the same
 *              blocks in n - 1 rounds instead: r to r + i in round i)
 *   alltoallv  linear: send count j to rank j (rounds as alltoall)
 *   gather(v)  linear: every rank but the root sends its block to the root
 *   scatter(v) linear: the root sends each other rank its block
 *   allgather(v) linear: every rank sends its own block to every other one
 *   reducescatter reduce of the whole vector (linear, to 0), then scatterv
 *              from 0 of each rank's block
 *   barrier    linear: empty messages to rank 0, then from 0 to all
 * Self-messages are never emitted. */
#ifndef TRACE_EXPAND_H
#define TRACE_EXPAND_H

#include "trace.h"

/* emit(ctx, phase, dst, bytes): one message rank r sends for action a, in
 * phase 0 or 1 of the collective (allreduce: reduce then bcast;
 * reducescatter: reduce then scatterv; barrier: to 0 then from 0). Within a
 * phase a rank receives what it gets before sending (a bcast forwards what
 * it received), except in exchanges (alltoall(v), allgather(v)), where
 * every rank sends and receives at once. */
typedef void (*trace_emit_fn)(void *ctx, int phase, int dst, double bytes);

/* The messages rank r sends for its action a: the send itself for
 * send/isend, the expansion above for a collective, nothing otherwise. */
void trace_expand_sends(const struct trace *t, int r, const struct trace_action *a,
                        trace_emit_fn emit, void *ctx);

/* The ranks that send to rank r in phase `phase` of collective a (r's own
 * action: the ranks' k-th collectives agree in kind and root, as
 * trace_check requires), in increasing order, each once, into from (room
 * for nranks - 1); returns how many. Exactly the senders
 * trace_expand_sends of every other rank emits to r, found from the
 * algorithm instead (O(senders), not O(n) expansions: a rank's incoming
 * messages were found by expanding all n ranks' sends, O(n^2) a
 * collective for the job). */
int trace_expand_sources(const struct trace *t, int r, const struct trace_action *a, int phase,
                         int *from);

/* The number of phases of a collective, and whether it is an exchange. */
int trace_expand_phases(int op);
int trace_expand_is_exchange(int op);

#endif

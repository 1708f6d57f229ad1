/* Collectives as point-to-point messages: the one expansion every consumer
 * uses (trace statistics and traffic matrix, the analytic contention model,
 * the network engines), so that they agree. Algorithms (N ranks, v = rank
 * relative to the root, p2 = the largest power of two <= N):
 *   bcast      binomial tree: v sends the whole buffer to v + 2^j for every
 *              2^j > v with v + 2^j < N (rounds j)
 *   reduce     binomial tree towards the root: v != 0 sends the whole buffer
 *              to v - 2^floor(log2 v) (its bcast parent)
 *   allreduce  below 64 KiB recursive doubling: ranks r >= p2 first send to
 *              r - p2, the first p2 ranks exchange the whole buffer with
 *              r xor 2^i for each round i, then r < N - p2 sends the result to
 *              r + p2; from 64 KiB a ring (reduce-scatter then allgather):
 *              2 (N - 1) messages of size / N to r + 1
 *   alltoall   pairwise: one message of the send count to every other rank
 *   alltoallv  pairwise: send count j to rank j
 *   gather(v)  linear: every rank but the root sends its block to the root
 *   scatter(v) linear: the root sends each other rank its block
 *   allgather  ring: N - 1 messages of one block to r + 1
 *   allgatherv ring: to r + 1 every block but r + 1's own (total - recv[r+1])
 *   reducescatter ring: to r + 1 every block but r's own (total - recv[r])
 *   barrier    dissemination: ceil(log2 N) empty messages to r + 2^i
 * Self-messages are never emitted. */
#ifndef TRACE_EXPAND_H
#define TRACE_EXPAND_H

#include "trace.h"

#define TRACE_ALLREDUCE_RING_BYTES 65536.0

/* emit(ctx, dst, bytes): one message rank r sends for action a. */
typedef void (*trace_emit_fn)(void *ctx, int dst, double bytes);

/* The messages rank r sends for its action a: the send itself for
 * send/isend, the expansion above for a collective, nothing otherwise. */
void trace_expand_sends(const struct trace *t, int r, const struct trace_action *a,
                        trace_emit_fn emit, void *ctx);

#endif

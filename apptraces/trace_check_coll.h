/* The count check of the matching pass, internal to apptraces: once every
 * rank has arrived at a collective (trace_check.c), do its counts agree
 * between ranks? */
#ifndef TRACE_CHECK_COLL_H
#define TRACE_CHECK_COLL_H

#include <stddef.h>
#include <stdint.h>

#include "../common/htab.h"
#include "trace.h"

/* What the check reuses from one collective to the next: ranks grouped by
 * count vector and datatype sizes. */
struct trace_coll_scratch {
	struct cmn_htab groups; /* distinct keys, numbered per collective (stamp) */
	long stamp;
	uint64_t *gkey;
	int *grp, *order, *gstart, *garg; /* per rank; per group */
	double *gmax;                     /* per group */
};

/* "FILE:LINE: rank R" of rank r's action act, after "error: " where a
 * message begins (err): the matching pass's way of naming an action. */
const char *trace_check_place(const struct trace *t, int r, long act, int err, char *buf, size_t n);

void trace_coll_scratch_init(struct trace_coll_scratch *s);
void trace_coll_scratch_free(struct trace_coll_scratch *s);

/* Collective #idx + 1, rank i's action being t->act[at[i]] (every rank's
 * the same operation with the same root, -1 for none): 0 when no rank would
 * receive more bytes than it posted (datatypes converted) and the counts
 * MPI wants equal (bcast, reduce, allreduce, reducescatter's recv counts)
 * are equal in bytes; else CMN_EINPUT with a message naming both actions
 * (file:line, rank), the collective's number and the two byte counts, or
 * CMN_ENOMEM. O(n) for n ranks; the v-collectives O(groups x n), a group
 * being the ranks that share a count vector (identical vectors share an
 * offset into t->counts) and datatype sizes. */
int trace_coll_check(const struct trace *t, const long *at, int idx, int root,
                     struct trace_coll_scratch *s, struct cmn_err *e);

#endif

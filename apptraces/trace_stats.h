/* Statistics of a trace: per rank and total, actions by kind, compute,
 * point-to-point messages and bytes by peer and by size, collectives, and
 * the traffic matrix (bytes rank to rank, collectives expanded as
 * trace_expand.h documents). */
#ifndef TRACE_STATS_H
#define TRACE_STATS_H

#include <stdio.h>

#include "trace.h"

struct trace_rank_stats {
	long actions, p2p_sent, p2p_recv, coll;
	double flops, sleep_s, p2p_sent_bytes, p2p_recv_bytes,
	    sent_bytes; /* sent: with collectives */
	int peers;      /* p2p destinations */
};

struct trace_size_count {
	double bytes;
	long count;
};

struct trace_stats {
	int nranks;
	long actions, op_count[TR_NOPS];
	struct trace_rank_stats *rank;
	struct trace_rank_stats total;
	struct trace_size_count *sizes; /* p2p message sizes, most frequent first */
	int nsizes;
	double max_coll_bytes; /* the largest collective payload (one rank's) */
	double *p2p;           /* nranks x nranks bytes, point-to-point only */
	long *p2p_count;       /* nranks x nranks point-to-point messages */
	double *matrix;        /* nranks x nranks bytes, with collectives */
};

int trace_stats_compute(const struct trace *t, struct trace_stats *s, struct cmn_err *e);
void trace_stats_free(struct trace_stats *s);
/* The report of tracegen --stats; the matrix in full when ranks <= max_matrix. */
void trace_stats_print(const struct trace_stats *s, const char *name, int max_matrix, FILE *f);
/* The traffic matrix as CSV (src,dst,bytes,p2p_bytes,p2p_messages; the
 * non-zero entries). */
int trace_stats_matrix_csv(const struct trace_stats *s, FILE *f);
/* Two traces side by side (tracegen --compare); returns the number of
 * quantities that differ by more than tol (relative). */
int trace_stats_compare(const struct trace_stats *a, const char *na, const struct trace_stats *b,
                        const char *nb, double tol, FILE *f);

#endif

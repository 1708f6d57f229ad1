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

/* What one rank sends another (the traffic matrix's entry). */
struct trace_pair {
	int src, dst;
	double bytes;   /* with collectives expanded */
	double p2p;     /* point-to-point bytes */
	long p2p_count; /* point-to-point messages */
};

struct trace_stats {
	int nranks;
	long actions, op_count[TR_NOPS];
	struct trace_rank_stats *rank;
	struct trace_rank_stats total;
	struct trace_size_count *sizes; /* p2p message sizes, most frequent first */
	int nsizes;
	double max_coll_bytes; /* the largest collective payload (one rank's) */
	/* the traffic matrix, sparse: the pairs a message or an expanded
	 * collective goes between, by (src, dst); rank r's row at pairs[first[r]
	 * .. first[r + 1]). Memory and time follow the pairs, not nranks^2 (a
	 * dense matrix of 100,000 ranks did not fit in memory). */
	struct trace_pair *pairs;
	long npairs, *first;
};

int trace_stats_compute(const struct trace *t, struct trace_stats *s, struct cmn_err *e);
void trace_stats_free(struct trace_stats *s);
/* The pair (src, dst), or NULL when nothing goes between them. */
const struct trace_pair *trace_stats_pair(const struct trace_stats *s, int src, int dst);
/* The bytes from src to dst with collectives expanded (0: none). */
double trace_stats_bytes(const struct trace_stats *s, int src, int dst);
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

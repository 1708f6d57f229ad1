/* NPB-like trace generators: one file per kernel, one line in
 * gen_registry.def. A generator writes each rank's program (SPMD) through
 * the helpers below; sizes are in bytes (datatype MPI_BYTE), compute in
 * flops (scaled by flop_scale). */
#ifndef TRACE_GEN_H
#define TRACE_GEN_H

#include "../common/params.h"
#include "trace.h"

/* Receives each action a generator emits for rank r, in the rank's order
 * (counts: the n counts of a v-collective, else NULL). */
typedef void (*trace_gen_sink_fn)(void *ctx, int r, const struct trace_action *a,
                                  const double *counts, int n);
/* Receives rank r's timed-iteration marks (trace_gen_timed's on), in the rank's
 * order among its actions. */
typedef void (*trace_gen_mark_fn)(void *ctx, int r, int on);

/* The most actions a generated trace may hold (2^28: 10.7 GB at 40 bytes
 * an action): beyond, generation stops with an error instead of taking
 * the machine's memory (tracegen --iterations 2147483647). */
#define TRACE_GEN_MAX_ACTIONS (1LL << 28)
/* What an action takes at the peak of building a trace (its per-rank
 * vectors and the finished table together; measured: cg.S.2048 50 M
 * actions 3.9 GB, bt.S.1024 59 M actions 4.6 GB): a trace whose actions
 * would pass the memory this process may use (physical memory, ulimit -v
 * and -d) stops with an error naming it before malloc or the kernel's
 * OOM killer does. */
#define TRACE_GEN_PEAK_BYTES 80

struct gen {
	struct trace_builder *b; /* where actions go, or NULL: to sink */
	trace_gen_sink_fn sink;
	trace_gen_mark_fn mark; /* with sink, or NULL */
	void *sink_ctx;
	int ranks, iterations; /* iterations 0: the class's own count */
	char cls;              /* S W A B C D */
	double flop_scale;
	int failed;            /* out of memory while adding (2: past max_actions) */
	long long added;       /* actions stored so far */
	long long max_actions; /* TRACE_GEN_MAX_ACTIONS, or fewer by the memory */
	double memory;         /* bytes this process may use (0: not known) */
	/* one timed iteration only (trace_generate_one): per rank 0 before its
	 * first timed iteration, 1 inside it, 2 after; NULL: every action */
	unsigned char *timed;
};

/* Sets of ranks among which every pair exchanges in an iteration (an
 * alltoall's ranks, FT's rows and columns): count sets of size ranks. */
struct trace_gen_sets {
	int n;
	struct {
		double count;
		int size;
	} set[2];
};

struct trace_gen_ops {
	struct cmn_plugin base; /* name "cg", help, kernel parameters (none yet) */
	/* Optional: what one timed iteration on ranks ranks of class cls
	 * connects (collectives expanded as trace_expand.h), without generating
	 * it: returns at least the number of rank pairs (a != b) its messages
	 * join, of which the pairs within the sets of ranks it fills into sets
	 * (n = 0: none) exchange all pairs. For cost estimates (the linkload
	 * model's memory); NULL: up to every pair. */
	double (*pairs)(char cls, int ranks, struct trace_gen_sets *sets);
	/* Writes the trace of g->ranks ranks; 0 or an error (e.g. a class the
	 * kernel lacks). *exact tells whether the rank count is one the real
	 * NPB kernel runs on (else the generalized pattern README describes). */
	int (*generate)(struct gen *g, int *exact, struct cmn_err *e);
	/* 1: for every rank, a run of k >= 2 iterations is the run of k - 1
	 * with one more timed iteration (trace_gen_timed on, its actions, trace_gen_timed off)
	 * right after the end of its last one: nothing else depends on k (lu's
	 * last iteration differs: 0). A consumer of the difference of two runs
	 * may then generate the longer one only. */
	int same_iterations;
};

extern const struct trace_gen_ops *const trace_gen_registry[];
extern const struct cmn_param_def trace_gen_no_params[];

/* Generates kernel name (class, ranks, iterations, flop scale) into *out,
 * validated by trace_check; exact as above. */
int trace_generate(const char *kernel, char cls, int ranks, int iterations, double flop_scale,
                   struct trace **out, int *exact, struct cmn_err *e);

/* The actions of kernel name (as trace_generate) handed to sink one by one
 * instead of building a trace (and the timed iterations' marks to mark,
 * unless NULL): for a consumer that only sums over them (a traffic
 * matrix, compute per rank), so that it needs no memory for the trace. Each rank's actions come in
 * its order (ranks may interleave); datatypes are TR_NO_DT (MPI_BYTE unless the rank's init has an
 * argument) and counts are whole numbers as trace_builder_add stores them. Not validated by
 * trace_check (the generators' tests validate their traces). */
int trace_generate_stream(const char *kernel, char cls, int ranks, int iterations,
                          double flop_scale, trace_gen_sink_fn sink, trace_gen_mark_fn mark,
                          void *ctx, int *exact, struct cmn_err *e);
/* Whether kernel name has a generator that says same_iterations. */
int trace_gen_same_iterations(const char *kernel);

/* The timed iterations of rank r: on = 1 before each, on = 0 after it.
 * trace_generate_one keeps only the first one (with init and finalize):
 * the setup, the warm-up and the verification go. Every generator marks
 * its timed iterations; elsewhere a no-op. */
void trace_gen_timed(struct gen *g, int r, int on);

/* One timed iteration of kernel name alone (init, the iteration's actions,
 * finalize: no setup, warm-up or verification), every rank starting it
 * together: the iteration the run-time models time (coupling). The first
 * timed iteration of a two-iteration run, so that a kernel whose last
 * iteration differs (lu's norms) gives a plain one. */
int trace_generate_one(const char *kernel, char cls, int ranks, double flop_scale,
                       struct trace **out, int *exact, struct cmn_err *e);

/* Emitters for rank r. */
void trace_gen_init(struct gen *g, int r);
void trace_gen_finalize(struct gen *g, int r);
void trace_gen_compute(struct gen *g, int r, double flops);
void trace_gen_send(struct gen *g, int r, int peer, int tag, double bytes);
void trace_gen_isend(struct gen *g, int r, int peer, int tag, double bytes);
void trace_gen_recv(struct gen *g, int r, int peer, int tag, double bytes);
void trace_gen_irecv(struct gen *g, int r, int peer, int tag, double bytes);
void trace_gen_wait(struct gen *g, int r, int src, int dst, int tag);
void trace_gen_waitall(struct gen *g, int r);
void trace_gen_barrier(struct gen *g, int r);
void trace_gen_bcast(struct gen *g, int r, double bytes, int root);
void trace_gen_reduce(struct gen *g, int r, double bytes, double flops, int root);
void trace_gen_allreduce(struct gen *g, int r, double bytes, double flops);
void trace_gen_alltoall(struct gen *g, int r, double bytes);
/* counts: g->ranks send bytes then g->ranks recv bytes */
void trace_gen_alltoallv(struct gen *g, int r, const double *send, const double *recv);

/* Problem-class helpers: the index of cls in "SWABCD" (or -1). */
int trace_gen_class_index(char cls);
int trace_gen_ilog2(int v); /* floor(log2 v) */
int trace_gen_is_pow2(int v);

#endif

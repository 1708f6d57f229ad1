/* Per-rank communication traces in SimGrid's time-independent (TI) format:
 * one action per line, "<rank> <action> <args>", one file holding all ranks
 * or an index file listing one file per rank. In memory a trace is a
 * compact array of actions per rank (no strings), read-only once loaded, so
 * every job replaying the same trace shares it.
 *
 * Actions and arguments are those SimGrid 3.32's replay accepts (counts in
 * datatype units; a trailing datatype id is optional, the default datatype
 * being MPI_BYTE, or MPI_DOUBLE after an "init" with an argument):
 *   init [x]  finalize  compute FLOPS  sleep SECONDS  location FILE LINE
 *   send|isend|recv|irecv PEER TAG COUNT [DT]
 *   wait|test SRC DST TAG   waitall [N]   barrier
 *   bcast COUNT [ROOT [DT]]   reduce COUNT FLOPS [ROOT [DT]]
 *   allreduce COUNT FLOPS [DT]   alltoall SEND RECV [DT [DT]]
 *   gather|scatter SEND RECV [ROOT [DT [DT]]]   allgather SEND RECV [DT [DT]]
 *   gatherv SEND RECV_1..RECV_N [ROOT [DT [DT]]]   allgatherv SEND RECV_1..N [DT [DT]]
 *   scatterv SEND_1..SEND_N RECV [ROOT [DT [DT]]]
 *   reducescatter RECV_1..RECV_N FLOPS [DT]
 *   alltoallv SENDBUF SEND_1..N RECVBUF RECV_1..N [DT [DT]]
 *   comm_size [N]  comm_split [..]  comm_dup [..]   (no effect in SimGrid) */
#ifndef TRACE_H
#define TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "../common/err.h"

enum trace_op {
	TR_INIT,
	TR_FINALIZE,
	TR_COMPUTE,
	TR_SLEEP,
	TR_LOCATION,
	TR_SEND,
	TR_ISEND,
	TR_RECV,
	TR_IRECV,
	TR_WAIT,
	TR_TEST,
	TR_WAITALL,
	TR_BARRIER,
	TR_BCAST,
	TR_REDUCE,
	TR_ALLREDUCE,
	TR_ALLTOALL,
	TR_ALLTOALLV,
	TR_GATHER,
	TR_GATHERV,
	TR_ALLGATHER,
	TR_ALLGATHERV,
	TR_SCATTER,
	TR_SCATTERV,
	TR_REDUCESCATTER,
	TR_COMM_SIZE,
	TR_COMM_SPLIT,
	TR_COMM_DUP,
	TR_NOPS
};

#define TR_NO_DT 255 /* no datatype id given */

/* One action, 40 bytes. Counts a and b are in datatype units as written;
 * trace_bytes() converts. Per op:
 *   compute/sleep: a = flops/seconds; location: a = line, aux = string
 *   send..irecv: peer, tag, a = count, dt1
 *   wait/test: peer = src, aux = dst, tag
 *   bcast: a, peer = root; reduce: a, b = flops, root; allreduce: a, b
 *   alltoall, allgather: a = send, b = recv; gather/scatter: + root
 *   gatherv/allgatherv: a = send, counts[aux..aux+N) = recv counts (+ root)
 *   scatterv: counts[aux..) = send counts, b = recv (+ root)
 *   reducescatter: counts[aux..) = recv counts, b = flops
 *   alltoallv: a = send buffer, b = recv buffer, counts[aux..) = N send
 *     counts then N recv counts
 *   comm_*: a = the first argument, if any.
 * nopt is the number of optional arguments written (kept for writing back). */
struct trace_action {
	uint8_t op, dt1, dt2, nopt;
	int32_t peer, tag, aux;
	uint32_t line;
	double a, b;
};

struct trace {
	char *name; /* the path it was read from, or the generator's name */
	int nranks;
	struct trace_action *act; /* every rank's actions, rank by rank */
	long *first;              /* rank r: act[first[r] .. first[r+1]) */
	int64_t *counts;          /* count vectors of v-collectives (identical ones shared) */
	long ncounts;
	char **files;  /* the file each rank was read from (NULL: name) */
	char *strings; /* location file names, NUL-separated */
	long nstrings;
	uint8_t *dt_default; /* per rank: the datatype of counts without one */
	int fragment;        /* -1, or the one rank of a per-rank file read alone */
};

/* Datatype id (SimGrid's numbering) to bytes, or -1 if unknown. */
int trace_dt_size(int dt);
/* The action's name ("send"), and the op of a name (-1 if none). */
const char *trace_op_name(int op);
int trace_op_of(const char *name);
/* Bytes of `count` units of datatype dt (TR_NO_DT: the rank's default). */
double trace_bytes(const struct trace *t, int rank, int dt, double count);

/* Reads path (an index of per-rank files, or one file of actions; an index's
 * entries are looked up in its folder, then its parent, then as given) and
 * validates it: syntax, argument counts and types, datatypes, ranges, the
 * limits of trace_values.h, then trace_check(). Errors name file:line and
 * rank ("FILE:LINE: error: rank R: ACTION: FIELD ..."). Files must be
 * regular files (each is read twice); lines end with LF or CRLF; '#'
 * starts a comment; a NUL byte or a line longer than TRACE_MAX_LINE bytes
 * is an error. */
#define TRACE_MAX_LINE (64L << 20)
int trace_load(const char *path, struct trace **out, struct cmn_err *e);
/* The same, but a file holding one rank's actions of a larger trace (a
 * per-rank file read alone) is accepted as a fragment: syntax and ranges
 * checked, no matching pass (it needs every rank), t->fragment set. */
#define TRACE_LOAD_FRAGMENT 1
/* An index's rank files must lie under its own folder (an archive's). */
#define TRACE_LOAD_CONFINED 2
int trace_load_ex(const char *path, int flags, struct trace **out, struct cmn_err *e);
/* Validation of a trace in memory: the matching pass (trace_check.c). */
int trace_check(const struct trace *t, struct cmn_err *e);
void trace_free(struct trace *t);
/* Multiplies every compute amount (compute, and the flops of reduce,
 * allreduce, reducescatter) by f > 0: the knob that sets the share of
 * communication time. Call before sharing the trace. An amount that would
 * pass trace_values.h's limit is an error naming its line (nothing is
 * scaled then). */
int trace_scale_flops(struct trace *t, double f, struct cmn_err *e);
/* Bytes the in-memory form takes (actions, count vectors, strings, tables). */
double trace_memory(const struct trace *t);

/* The bytes of the rank files trace_write writes: the alltoallv of `is`
 * makes them grow with the square of the ranks. */
double trace_write_bytes(const struct trace *t);
/* Writes dir/<base>.txt (index) and dir/<base>.txt_files/rank-<r>.txt;
 * refused, nothing written, when its file system has less room than
 * trace_write_bytes says. */
int trace_write(const struct trace *t, const char *dir, const char *base, struct cmn_err *e);
/* Writes one rank's actions as TI lines. */
int trace_write_rank(const struct trace *t, int rank, FILE *f);

/* Builder used by the reader and the generators. */
struct trace_builder;
struct trace_builder *trace_builder_new(int nranks, const char *name);
/* Appends an action to rank r; counts (n integers >= 0, as doubles) stored
 * when not NULL, a vector equal to one stored before shared. 0, -1 when
 * out of memory, -2 when the count pool or the location strings would pass
 * 2^31 - 1 entries (the offsets in an action are 32-bit). */
int trace_builder_add(struct trace_builder *b, int r, const struct trace_action *a,
                      const double *counts, int n);
int trace_builder_location(struct trace_builder *b, const char *file, int32_t *aux);
/* Turns the builder into a trace (the builder is consumed). */
struct trace *trace_builder_finish(struct trace_builder *b, struct cmn_err *e);
void trace_builder_free(struct trace_builder *b);

#endif

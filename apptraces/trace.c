/* The action table, datatypes, and building a trace in memory. */
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../common/hash.h"
#include "../common/htab.h"
#include "trace.h"
#include "trace_values.h"

static const char *const op_names[TR_NOPS] = {
    [TR_INIT] = "init",
    [TR_FINALIZE] = "finalize",
    [TR_COMPUTE] = "compute",
    [TR_SLEEP] = "sleep",
    [TR_LOCATION] = "location",
    [TR_SEND] = "send",
    [TR_ISEND] = "isend",
    [TR_RECV] = "recv",
    [TR_IRECV] = "irecv",
    [TR_WAIT] = "wait",
    [TR_TEST] = "test",
    [TR_WAITALL] = "waitall",
    [TR_BARRIER] = "barrier",
    [TR_BCAST] = "bcast",
    [TR_REDUCE] = "reduce",
    [TR_ALLREDUCE] = "allreduce",
    [TR_ALLTOALL] = "alltoall",
    [TR_ALLTOALLV] = "alltoallv",
    [TR_GATHER] = "gather",
    [TR_GATHERV] = "gatherv",
    [TR_ALLGATHER] = "allgather",
    [TR_ALLGATHERV] = "allgatherv",
    [TR_SCATTER] = "scatter",
    [TR_SCATTERV] = "scatterv",
    [TR_REDUCESCATTER] = "reducescatter",
    [TR_COMM_SIZE] = "comm_size",
    [TR_COMM_SPLIT] = "comm_split",
    [TR_COMM_DUP] = "comm_dup",
};

const char *trace_op_name(int op)
{
	return op >= 0 && op < TR_NOPS ? op_names[op] : "?";
}

int trace_op_of(const char *name)
{
	for (int i = 0; i < TR_NOPS; i++)
		if (strcmp(name, op_names[i]) == 0)
			return i;
	return -1;
}

/* Sizes in bytes of SimGrid 3.32's predefined datatypes by id (x86-64),
 * from smpi_datatype.cpp's table: 0 double, 1 int, 2 char, 3 short, 4 long,
 * 5 float, 6 byte, 7 long long, ..., 23 uint32, ..., 43 COMPLEX16, ... */
static const signed char dt_sizes[] = {
    8, 4,  1, 2,  8,  4, 1,  8,  1, 1,  2,  4,  8,  8,  16, 4, 1,  1,  2, 4,
    8, 1,  2, 4,  8,  8, 16, 32, 8, 8,  8,  16, 16, 8,  8,  8, 16, 16, 4, 4,
    8, 16, 8, 16, 16, 4, 2,  4,  8, 16, 32, 1,  8,  16, 32, 0, 0,  1,  8, 8,
};

int trace_dt_size(int dt)
{
	return dt >= 0 && dt < (int)sizeof dt_sizes ? dt_sizes[dt] : -1;
}

double trace_bytes(const struct trace *t, int rank, int dt, double count)
{
	if (dt == TR_NO_DT)
		dt = t->dt_default[rank];
	return count * trace_dt_size(dt);
}

struct rank_buf {
	struct trace_action *a;
	long n, cap;
};

/* A stored vector of counts: where it starts in counts, its length. */
struct vec {
	long at;
	int n;
};

struct trace_builder {
	char *name;
	int nranks;
	struct rank_buf *r;
	int64_t *counts;
	long ncounts, capcounts;
	struct cmn_htab vecs; /* of struct vec: each distinct vector of counts */
	char *strings;
	long nstrings, capstrings;
};

struct trace_builder *trace_builder_new(int nranks, const char *name)
{
	struct trace_builder *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	cmn_htab_init(&b->vecs, sizeof(struct vec));
	b->nranks = nranks;
	b->r = calloc((size_t)nranks, sizeof *b->r);
	b->name = strdup(name);
	if (!b->r || !b->name) {
		trace_builder_free(b);
		return NULL;
	}
	return b;
}

void trace_builder_free(struct trace_builder *b)
{
	if (!b)
		return;
	for (int i = 0; b->r && i < b->nranks; i++)
		free(b->r[i].a);
	free(b->r);
	free(b->counts);
	cmn_htab_free(&b->vecs);
	free(b->strings);
	free(b->name);
	free(b);
}

static int grow(void **p, long *cap, long need, size_t size)
{
	return cmn_grow(p, cap, need, 64, size);
}

/* A vector looked up: its values, and the counts the stored ones are in. */
struct vec_key {
	const int64_t *v, *counts;
	int n;
};

static uint64_t vec_hash(const int64_t *v, int n)
{
	uint64_t h = CMN_FNV64_BASIS ^ (uint64_t)n;
	for (int i = 0; i < n; i++)
		h = cmn_fnv64(h, (uint64_t)v[i]);
	return h;
}

static int vec_match(const void *entry, const void *key)
{
	const struct vec *x = entry;
	const struct vec_key *k = key;
	return x->n == k->n && memcmp(k->counts + x->at, k->v, (size_t)k->n * sizeof *k->v) == 0;
}

/* The offset of a stored vector equal to the n values at b->counts +
 * b->ncounts (just appended), or -1 after recording it as new; -2 out of
 * memory. */
static long vec_find(struct trace_builder *b, int n)
{
	struct vec_key k = {b->counts + b->ncounts, b->counts, n};
	int added;
	struct vec *x = cmn_htab_put(&b->vecs, vec_hash(k.v, n), vec_match, &k, &added);
	if (!x)
		return -2;
	if (!added)
		return x->at;
	*x = (struct vec){b->ncounts, n};
	return -1;
}

int trace_builder_add(struct trace_builder *b, int r, const struct trace_action *a,
                      const double *counts, int n)
{
	struct rank_buf *rb = &b->r[r];
	if (grow((void **)&rb->a, &rb->cap, rb->n + 1, sizeof *rb->a))
		return -1;
	rb->a[rb->n] = *a;
	if (!a->line) /* generated: the line it will have in the rank's file */
		rb->a[rb->n].line = (uint32_t)(rb->n + 1);
	if (counts) {
		if (b->ncounts + n > INT32_MAX)
			return -2;
		if (grow((void **)&b->counts, &b->capcounts, b->ncounts + n, sizeof *b->counts))
			return -1;
		for (int i = 0; i < n; i++)
			b->counts[b->ncounts + i] = (int64_t)counts[i];
		long at = vec_find(b, n);
		if (at == -2)
			return -1;
		rb->a[rb->n].aux = (int32_t)(at >= 0 ? at : b->ncounts);
		if (at < 0)
			b->ncounts += n;
	}
	rb->n++;
	return 0;
}

int trace_builder_location(struct trace_builder *b, const char *file, int32_t *aux)
{
	long len = (long)strlen(file) + 1;
	if (b->nstrings + len > INT32_MAX)
		return -2;
	if (grow((void **)&b->strings, &b->capstrings, b->nstrings + len, 1))
		return -1;
	memcpy(b->strings + b->nstrings, file, (size_t)len);
	*aux = (int32_t)b->nstrings;
	b->nstrings += len;
	return 0;
}

struct trace *trace_builder_finish(struct trace_builder *b, struct cmn_err *e)
{
	struct trace *t = calloc(1, sizeof *t);
	long total = 0;
	for (int i = 0; i < b->nranks; i++)
		total += b->r[i].n;
	if (t) {
		t->act = malloc((size_t)(total ? total : 1) * sizeof *t->act);
		t->first = malloc(((size_t)b->nranks + 1) * sizeof *t->first);
		t->files = calloc((size_t)b->nranks, sizeof *t->files);
		t->dt_default = malloc((size_t)b->nranks);
	}
	if (!t || !t->act || !t->first || !t->files || !t->dt_default) {
		trace_free(t);
		trace_builder_free(b);
		cmn_err_set(e, CMN_ENOMEM, "out of memory");
		return NULL;
	}
	t->nranks = b->nranks;
	t->fragment = -1;
	long k = 0;
	for (int i = 0; i < b->nranks; i++) {
		t->first[i] = k;
		if (b->r[i].n)
			memcpy(t->act + k, b->r[i].a, (size_t)b->r[i].n * sizeof *t->act);
		t->dt_default[i] = 6; /* MPI_BYTE */
		for (long j = 0; j < b->r[i].n; j++)
			if (b->r[i].a[j].op == TR_INIT) {
				if (b->r[i].a[j].nopt)
					t->dt_default[i] = 0; /* MPI_DOUBLE, as SimGrid's replay */
				break;
			}
		k += b->r[i].n;
	}
	t->first[b->nranks] = k;
	t->counts = b->counts;
	t->ncounts = b->ncounts;
	t->strings = b->strings;
	t->nstrings = b->nstrings;
	t->name = b->name;
	b->counts = NULL;
	b->strings = NULL;
	b->name = NULL;
	trace_builder_free(b);
	return t;
}

void trace_free(struct trace *t)
{
	if (!t)
		return;
	for (int i = 0; t->files && i < t->nranks; i++)
		free(t->files[i]);
	free(t->files);
	free(t->act);
	free(t->first);
	free(t->counts);
	free(t->strings);
	free(t->dt_default);
	free(t->name);
	free(t);
}

double trace_memory(const struct trace *t)
{
	return (double)t->first[t->nranks] * sizeof *t->act +
	       (double)t->ncounts * sizeof *t->counts + (double)t->nstrings +
	       (double)t->nranks * (sizeof *t->first + sizeof *t->files + 1) + sizeof *t;
}

/* The compute amount of an action, or NULL. */
static double *flops_of(struct trace_action *a)
{
	if (a->op == TR_COMPUTE)
		return &a->a;
	if (a->op == TR_REDUCE || a->op == TR_ALLREDUCE || a->op == TR_REDUCESCATTER)
		return &a->b;
	return NULL;
}

int trace_scale_flops(struct trace *t, double f, struct cmn_err *e)
{
	for (int r = 0; r < t->nranks; r++)
		for (long k = t->first[r]; k < t->first[r + 1]; k++) {
			double *x = flops_of(&t->act[k]);
			if (x && !(*x * f <= TRACE_MAX_VALUE))
				return cmn_err_set(
				    e, CMN_EINPUT,
				    "%s:%u: error: rank %d: %s: flops %.17g scaled by %g "
				    "is more than %s",
				    t->files[r] ? t->files[r] : t->name, t->act[k].line, r,
				    trace_op_name(t->act[k].op), *x, f, TRACE_MAX_VALUE_TEXT);
		}
	for (long k = 0; k < t->first[t->nranks]; k++) {
		double *x = flops_of(&t->act[k]);
		if (x)
			*x *= f;
	}
	return 0;
}

/* Per-iteration traffic in compressed form (traffic.h): sums over the
 * actions of the kernel's runs as they are generated, then the difference
 * of the two runs. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../apptraces/trace_expand.h"
#include "../../apptraces/trace_stats.h"
#include "../../common/grow.h"
#include "traffic.h"

/* Whole numbers of bytes up to this sum stay exact however they are added,
 * also three such sums together (the dense part, the sparse part, and the
 * run with one iteration subtracted). */
#define WHOLE_MAX 1125899906842624.0 /* 2^50 */

struct entry {
	int src, dst;
	double bytes;
};

/* Sums over the actions of one run. */
struct run {
	int n;
	double *flops;
	unsigned char *dt;    /* per rank: default datatype (trace.c's rule: its first init) */
	unsigned char *state; /* per rank: 1 its init seen, 2 another action seen */
	/* the dense part: rank r sends drow[r] + dmult[r] * vec[b] to every b != r */
	double *drow, *dmult;
	double *vec;       /* the first alltoallv's bytes per destination, or NULL */
	double *tmp;       /* a vector's bytes */
	int64_t *cv;       /* the counts of the action being expanded */
	struct trace view; /* what trace_expand_sends reads: ranks, counts, datatypes */
	/* the sparse part: the current source rank's row, then entries */
	double *buf;
	int *touched, ntouched, cur, last, src;
	struct entry *ent;
	long nent, capent;
	int sorted;  /* rows came one after the other, ascending */
	int inexact; /* a fraction of a byte or too large a sum: the dense path */
	int failed;  /* out of memory */
	/* one pass (struct pass): while light, the actions only checked and
	 * counted, into total (per rank: bytes of its messages one by one in
	 * the whole run) and drow2, dmult2 (the dense part outside the sums) */
	int light;
	double *total, *drow2, *dmult2;
};

static int run_init(struct run *u, int n, const double *vec)
{
	memset(u, 0, sizeof *u);
	size_t z = (size_t)n;
	u->n = n;
	u->flops = calloc(z, sizeof *u->flops);
	u->dt = malloc(z);
	u->state = calloc(z, 1);
	u->drow = calloc(z, sizeof *u->drow);
	u->dmult = calloc(z, sizeof *u->dmult);
	u->tmp = malloc(z * sizeof *u->tmp);
	u->cv = malloc(2 * z * sizeof *u->cv);
	u->buf = calloc(z, sizeof *u->buf);
	u->touched = malloc(z * sizeof *u->touched);
	if (vec && (u->vec = malloc(z * sizeof *u->vec)))
		memcpy(u->vec, vec, z * sizeof *u->vec);
	if (!u->flops || !u->dt || !u->state || !u->drow || !u->dmult || !u->tmp || !u->cv ||
	    !u->buf || !u->touched || (vec && !u->vec))
		return -1;
	memset(u->dt, 6, z); /* MPI_BYTE */
	u->view.nranks = n;
	u->view.counts = u->cv;
	u->view.dt_default = u->dt;
	u->cur = u->last = -1;
	u->sorted = 1;
	return 0;
}

static void run_free(struct run *u)
{
	free(u->flops), free(u->dt), free(u->state), free(u->drow), free(u->dmult);
	free(u->vec), free(u->tmp), free(u->cv), free(u->buf), free(u->touched), free(u->ent);
	free(u->total), free(u->drow2), free(u->dmult2);
	memset(u, 0, sizeof *u);
}

static int whole(double x)
{
	return x >= 0 && x <= WHOLE_MAX && x == (double)(int64_t)x;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	if (x->src != y->src)
		return (x->src > y->src) - (x->src < y->src);
	return (x->dst > y->dst) - (x->dst < y->dst);
}

/* Moves the current row into the entries. */
static void flush(struct run *u)
{
	if (u->cur < 0)
		return;
	if (cmn_grow((void **)&u->ent, &u->capent, u->nent + u->ntouched, 1024, sizeof *u->ent)) {
		u->failed = 1;
		return;
	}
	qsort(u->touched, (size_t)u->ntouched, sizeof *u->touched, cmp_int);
	for (int i = 0; i < u->ntouched; i++) {
		int b = u->touched[i];
		u->ent[u->nent++] = (struct entry){u->cur, b, u->buf[b]};
		u->buf[b] = 0;
	}
	u->ntouched = 0;
	if (u->cur <= u->last)
		u->sorted = 0;
	u->last = u->cur;
	u->cur = -1;
}

static void add_sparse(struct run *u, int a, int b, double bytes)
{
	if (bytes == 0 || a == b) /* empty messages (barriers) and self-messages */
		return;
	if (!whole(bytes)) { /* a fraction, too large, or a generator's negative size */
		u->inexact = 1;
		return;
	}
	if (u->total)
		u->total[a] += bytes;
	if (u->light)
		return;
	if (a != u->cur) {
		flush(u);
		u->cur = a;
	}
	if (u->buf[b] == 0)
		u->touched[u->ntouched++] = b;
	u->buf[b] += bytes;
}

static void emit(void *ctx, int phase, int dst, double bytes)
{
	(void)phase;
	struct run *u = ctx;
	add_sparse(u, u->src, dst, bytes);
}

/* An alltoallv: the dense part when its vector is the first one's, else its
 * messages one by one. */
static void alltoallv(struct run *u, int r, double unit, const double *counts)
{
	int n = u->n, same = u->vec != NULL;
	for (int j = 0; j < n; j++) {
		/* as trace_builder_add stores counts: whole numbers, as unit is */
		u->tmp[j] = unit * (int32_t)counts[j];
		if (same && j != r && u->tmp[j] != u->vec[j])
			same = 0;
	}
	if (!u->vec) {
		if (!(u->vec = malloc((size_t)n * sizeof *u->vec))) {
			u->failed = 1;
			return;
		}
		memcpy(u->vec, u->tmp, (size_t)n * sizeof *u->vec);
		same = 1;
	}
	if (same) {
		(u->light ? u->dmult2 : u->dmult)[r] += 1;
		return;
	}
	for (int j = 1; j < n; j++)
		add_sparse(u, r, (r + j) % n, u->tmp[(r + j) % n]);
}

/* The compute an action adds (sink's sums). */
static double flops_of(const struct trace_action *a)
{
	switch (a->op) {
	case TR_COMPUTE: return a->a;
	case TR_REDUCE:
	case TR_ALLREDUCE:
	case TR_REDUCESCATTER: return a->b;
	default: return 0;
	}
}

static void sink(void *ctx, int r, const struct trace_action *a, const double *counts, int nc)
{
	struct run *u = ctx;
	if (u->failed || u->inexact)
		return;
	if (a->op == TR_INIT) {
		if (!(u->state[r] & 1) && a->nopt) {
			if (u->state[r] & 2) /* an action before it used the other default */
				u->inexact = 1;
			u->dt[r] = 0; /* MPI_DOUBLE */
		}
		u->state[r] |= 1;
		return;
	}
	u->state[r] |= 2;
	double unit;
	switch (a->op) { /* compute as trace_stats counts it, messages as trace_expand.h */
	case TR_COMPUTE: u->flops[r] += flops_of(a); return;
	case TR_SEND:
	case TR_ISEND:
		add_sparse(u, r, a->peer, trace_bytes(&u->view, r, a->dt1, 1) * a->a);
		return;
	case TR_REDUCE:
	case TR_ALLREDUCE:
	case TR_REDUCESCATTER: u->flops[r] += flops_of(a); break;
	case TR_ALLTOALL: /* the exchanges to every other rank */
	case TR_ALLGATHER:
	case TR_ALLGATHERV:
		unit = trace_bytes(&u->view, r, a->dt1, 1);
		(u->light ? u->drow2 : u->drow)[r] += unit * a->a;
		if (!whole(unit * a->a))
			u->inexact = 1;
		return;
	case TR_ALLTOALLV:
		if (counts && nc >= u->n)
			alltoallv(u, r, trace_bytes(&u->view, r, a->dt1, 1), counts);
		else
			u->inexact = 1;
		return;
	case TR_BCAST:
	case TR_GATHER:
	case TR_GATHERV:
	case TR_SCATTER:
	case TR_SCATTERV: break;
	default: return; /* no bytes sent (a barrier's messages are empty) */
	}
	struct trace_action x = *a;
	if (!counts && (a->op == TR_GATHERV || a->op == TR_SCATTERV || a->op == TR_REDUCESCATTER)) {
		u->inexact = 1; /* no vector to expand */
		return;
	}
	if (counts) {
		for (int i = 0; i < nc && i < 2 * u->n; i++)
			u->cv[i] = (int64_t)counts[i];
		x.aux = 0;
	}
	u->src = r;
	trace_expand_sends(&u->view, r, &x, emit, u);
}

/* Entries sorted by pair, each pair once; sums checked. */
static void run_finish(struct run *u)
{
	flush(u);
	if (u->failed || u->inexact)
		return;
	if (!u->sorted) {
		qsort(u->ent, (size_t)u->nent, sizeof *u->ent, cmp_entry);
		long m = 0;
		for (long i = 0; i < u->nent; i++)
			if (m && u->ent[m - 1].src == u->ent[i].src &&
			    u->ent[m - 1].dst == u->ent[i].dst)
				u->ent[m - 1].bytes += u->ent[i].bytes;
			else
				u->ent[m++] = u->ent[i];
		u->nent = m;
	}
	double vmax = 0;
	for (int b = 0; u->vec && b < u->n; b++)
		vmax = u->vec[b] > vmax ? u->vec[b] : vmax;
	for (long i = 0; i < u->nent; i++)
		if (!whole(u->ent[i].bytes))
			u->inexact = 1;
	for (int r = 0; r < u->n; r++)
		if (!whole(u->drow[r]) || !whole(u->dmult[r] * vmax))
			u->inexact = 1;
}

/* The dense part's bytes from a to b. */
static double dense(const double *drow, const double *dmult, const double *vec, int a, int b)
{
	return drow[a] + (dmult[a] != 0 ? dmult[a] * vec[b] : 0);
}

/* Whether every pair a != b gets bytes from the dense part. */
static int dense_complete(int n, const double *drow, const double *dmult, const double *vec)
{
	for (int a = 0; a < n; a++) {
		double lo = INFINITY;
		for (int b = 0; b < n && dmult[a] != 0; b++)
			if (b != a && dmult[a] * vec[b] < lo)
				lo = dmult[a] * vec[b];
		if (!(drow[a] + (dmult[a] != 0 ? lo : 0) > 0))
			return 0;
	}
	return 1;
}

struct pairs {
	struct entry *e;
	long n, cap;
};

static int put(struct pairs *p, int a, int b, double bytes)
{
	if (cmn_grow((void **)&p->e, &p->cap, p->n + 1, 1024, sizeof *p->e))
		return -1;
	p->e[p->n++] = (struct entry){a, b, bytes};
	return 0;
}

/* The entries of t from the pairs (sorted, each once). */
static int to_csr(int n, const struct pairs *p, struct cpl_traffic *t)
{
	t->row = calloc((size_t)n + 1, sizeof *t->row);
	t->col = malloc((size_t)(p->n ? p->n : 1) * sizeof *t->col);
	t->bytes = malloc((size_t)(p->n ? p->n : 1) * sizeof *t->bytes);
	if (!t->row || !t->col || !t->bytes)
		return -1;
	for (long i = 0; i < p->n; i++) {
		t->row[p->e[i].src + 1]++;
		t->col[i] = p->e[i].dst;
		t->bytes[i] = p->e[i].bytes;
	}
	for (int a = 0; a < n; a++)
		t->row[a + 1] += t->row[a];
	return 0;
}

/* two - one as a traffic: the dense part kept when it reaches every pair
 * and every listed pair keeps bytes, else every pair listed. */
static int difference(const struct run *two, const struct run *one, struct cpl_traffic *t)
{
	int n = two->n, rc = -1;
	size_t z = (size_t)n;
	double *drow = malloc(z * sizeof *drow), *dmult = malloc(z * sizeof *dmult);
	struct pairs d = {0}, p = {0};
	t->nranks = n;
	t->flops = malloc(z * sizeof *t->flops);
	if (!drow || !dmult || !t->flops)
		goto out;
	int has_dense = 0;
	for (int r = 0; r < n; r++) {
		double f = two->flops[r] - one->flops[r];
		t->flops[r] = f > 0 ? f : 0;
		drow[r] = two->drow[r] - one->drow[r];
		dmult[r] = two->vec ? two->dmult[r] - one->dmult[r] : 0;
		has_dense |= n > 1 && (drow[r] != 0 || dmult[r] != 0);
	}
	/* the sparse difference, pair by pair (both lists sorted) */
	for (long i = 0, j = 0; i < two->nent || j < one->nent;) {
		const struct entry *x = i < two->nent ? &two->ent[i] : NULL,
		                   *y = j < one->nent ? &one->ent[j] : NULL;
		int c = !x ? 1 : !y ? -1 : cmp_entry(x, y);
		const struct entry *k = c <= 0 ? x : y;
		double v = (c <= 0 ? x->bytes : 0) - (c >= 0 ? y->bytes : 0);
		i += c <= 0;
		j += c >= 0;
		if (v != 0 && put(&d, k->src, k->dst, v))
			goto out;
	}
	int keep = has_dense && dense_complete(n, drow, dmult, two->vec);
	for (long i = 0; keep && i < d.n; i++)
		keep = dense(drow, dmult, two->vec, d.e[i].src, d.e[i].dst) + d.e[i].bytes > 0;
	if (keep) { /* the listed pairs with their dense share */
		for (long i = 0; i < d.n; i++)
			d.e[i].bytes += dense(drow, dmult, two->vec, d.e[i].src, d.e[i].dst);
		t->all_row = drow, t->all_mult = dmult, t->all_col = calloc(z, sizeof *t->all_col);
		drow = dmult = NULL;
		if (!t->all_col)
			goto out;
		if (two->vec)
			memcpy(t->all_col, two->vec, z * sizeof *t->all_col);
		rc = to_csr(n, &d, t);
		goto out;
	}
	/* every pair with bytes listed */
	for (long i = 0; !has_dense && i < d.n; i++)
		if (d.e[i].bytes > 0 && put(&p, d.e[i].src, d.e[i].dst, d.e[i].bytes))
			goto out;
	for (long i = 0, a = 0; has_dense && a < n; a++)
		for (int b = 0; b < n; b++) {
			double v = a != b ? dense(drow, dmult, two->vec, (int)a, b) : 0;
			if (i < d.n && d.e[i].src == a && d.e[i].dst == b)
				v += d.e[i++].bytes;
			if (v > 0 && put(&p, (int)a, b, v))
				goto out;
		}
	rc = to_csr(n, &p, t);
out:
	free(drow), free(dmult), free(d.e), free(p.e);
	return rc;
}

/* t's entries from the pairs listed (unless rc already failed), which
 * go; out of memory: t freed, an error. */
static int finish(int n, struct pairs *p, int rc, struct cpl_traffic *t, struct cmn_err *e)
{
	if (!rc)
		rc = to_csr(n, p, t);
	free(p->e);
	if (rc) {
		cpl_traffic_free(t);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	return 0;
}

/* The traffic from trace_stats' matrices (a recorded trace, or a trace
 * whose bytes are not whole numbers): two minus one (one may be NULL),
 * pair by pair along the rows (both sorted by dst). */
static int from_stats(const struct trace_stats *two, const struct trace_stats *one,
                      struct cpl_traffic *t, struct cmn_err *e)
{
	int n = two->nranks, rc = 0;
	memset(t, 0, sizeof *t);
	t->nranks = n;
	struct pairs p = {0};
	if (!(t->flops = malloc((size_t)(n ? n : 1) * sizeof *t->flops)))
		rc = -1;
	for (int r = 0; !rc && r < n; r++) {
		double d = two->rank[r].flops - (one ? one->rank[r].flops : 0);
		t->flops[r] = d > 0 ? d : 0;
		long i = two->first[r], j = one ? one->first[r] : 0,
		     je = one ? one->first[r + 1] : 0;
		for (; !rc && i < two->first[r + 1]; i++) {
			const struct trace_pair *q = &two->pairs[i];
			while (j < je && one->pairs[j].dst < q->dst)
				j++;
			double v =
			    q->bytes -
			    (j < je && one->pairs[j].dst == q->dst ? one->pairs[j].bytes : 0);
			if (q->dst != r && v > 0)
				rc = put(&p, r, q->dst, v);
		}
	}
	return finish(n, &p, rc, t, e);
}

static int stats_of(const struct cpl_profiles *pr, int k, int ranks, int iters,
                    struct trace_stats *s, struct cmn_err *e)
{
	struct trace *t;
	int recorded;
	if (cpl_profiles_trace(pr, k, ranks, iters, &t, &recorded, e))
		return e->code;
	int rc = trace_stats_compute(t, s, e);
	trace_free(t);
	return rc;
}

/* The generated traces' dense matrices, as the model was first written. */
static int dense_path(const struct cpl_profiles *pr, int k, int ranks, struct cpl_traffic *t,
                      struct cmn_err *e)
{
	struct trace_stats one, two;
	if (stats_of(pr, k, ranks, 2, &two, e))
		return e->code;
	int rc = stats_of(pr, k, ranks, 1, &one, e);
	if (!rc) {
		rc = from_stats(&two, &one, t, e);
		trace_stats_free(&one);
	}
	trace_stats_free(&two);
	return rc;
}

/* A recorded run's traffic: its whole matrix, nothing subtracted (rec
 * freed). */
static int recorded(struct trace *rec, struct cpl_traffic *t, struct cmn_err *e)
{
	struct trace_stats s;
	int rc = trace_stats_compute(rec, &s, e);
	if (!rc) {
		rc = from_stats(&s, NULL, t, e);
		trace_stats_free(&s);
	}
	trace_free(rec);
	return rc;
}

/* The runs with two iterations and with one, generated both. */
static int two_runs(const struct cpl_profiles *pr, int k, int ranks, struct cpl_traffic *t,
                    struct cmn_err *e)
{
	struct run two, one;
	struct trace *rec = NULL;
	int rc = 0;
	memset(&one, 0, sizeof one);
	if (run_init(&two, ranks, NULL)) {
		run_free(&two);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	if (cpl_profiles_stream(pr, k, ranks, 2, sink, NULL, &two, &rec, e)) {
		run_free(&two);
		return e->code;
	}
	if (rec) {
		run_free(&two);
		return recorded(rec, t, e);
	}
	run_finish(&two);
	if (!two.failed && !two.inexact) {
		if (run_init(&one, ranks, two.vec))
			one.failed = 1;
		else if (cpl_profiles_stream(pr, k, ranks, 1, sink, NULL, &one, &rec, e))
			rc = e->code;
		run_finish(&one);
		if (one.vec && !two.vec) /* the runs' alltoallv vectors differ */
			one.inexact = 1;
	}
	if (!rc && (two.failed || one.failed))
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	else if (!rc && (two.inexact || one.inexact))
		rc = dense_path(pr, k, ranks, t, e);
	else if (!rc && difference(&two, &one, t))
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	run_free(&two);
	run_free(&one);
	return rc;
}

/* The run with two iterations alone, of a kernel whose run with one is the
 * same without its second timed iteration (gen.h's same_iterations): that
 * iteration's messages summed (b), the others only checked and counted;
 * the compute of both runs per rank, in their own order (b's flops and
 * f1, the run with one iteration: f1 takes b's at that iteration's start
 * and follows the actions after its end). */
struct pass {
	struct run b;
	unsigned char *phase; /* per rank: 0 before that iteration, 1 in it, 2 after */
	unsigned char *ons;   /* per rank: timed iterations begun (up to 3) */
	double *f1;
};

static void pass_mark(void *ctx, int r, int on)
{
	struct pass *s = ctx;
	if (on && s->ons[r] < 3 && ++s->ons[r] == 2 && !s->phase[r]) {
		s->phase[r] = 1;
		s->f1[r] = s->b.flops[r];
	} else if (!on && s->phase[r] == 1) {
		s->phase[r] = 2;
	}
}

static void pass_sink(void *ctx, int r, const struct trace_action *a, const double *counts, int nc)
{
	struct pass *s = ctx;
	struct run *u = &s->b;
	if (u->failed || u->inexact) /* sink's rule: nothing more is summed */
		return;
	switch (a->op) { /* the most frequent actions, as sink takes them */
	case TR_RECV:
	case TR_IRECV:
	case TR_WAIT:
	case TR_WAITALL:
	case TR_BARRIER: u->state[r] |= 2; return;
	case TR_COMPUTE:
		u->state[r] |= 2;
		u->flops[r] += a->a;
		if (s->phase[r] == 2)
			s->f1[r] += a->a;
		return;
	default: break;
	}
	u->light = s->phase[r] != 1;
	sink(u, r, a, counts, nc);
	if (s->phase[r] == 2 && a->op != TR_INIT)
		s->f1[r] += flops_of(a);
}

/* The traffic from one pass; *again set when the pass cannot tell (a rank
 * whose run is not as same_iterations says, or sums too large to be sure
 * of: the two runs decide). */
static int one_pass(const struct cpl_profiles *pr, int k, int ranks, struct cpl_traffic *t,
                    int *again, struct cmn_err *e)
{
	struct pass s = {0};
	struct trace *rec = NULL;
	size_t z = (size_t)ranks;
	int rc = run_init(&s.b, ranks, NULL);
	s.b.total = calloc(z, sizeof *s.b.total);
	s.b.drow2 = calloc(z, sizeof *s.b.drow2);
	s.b.dmult2 = calloc(z, sizeof *s.b.dmult2);
	s.phase = calloc(z, 1);
	s.ons = calloc(z, 1);
	s.f1 = calloc(z, sizeof *s.f1);
	if (rc || !s.b.total || !s.b.drow2 || !s.b.dmult2 || !s.phase || !s.ons || !s.f1)
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	else if (cpl_profiles_stream(pr, k, ranks, 2, pass_sink, pass_mark, &s, &rec, e))
		rc = e->code;
	else if (rec)
		rc = recorded(rec, t, e);
	if (rc || rec)
		goto out;
	run_finish(&s.b);
	double vmax = 0;
	for (int b = 0; s.b.vec && b < ranks; b++)
		vmax = s.b.vec[b] > vmax ? s.b.vec[b] : vmax;
	for (int r = 0; r < ranks; r++) {
		*again |= s.phase[r] != 2 || s.ons[r] != 2 || s.b.total[r] > WHOLE_MAX;
		if (!whole(s.b.drow[r] + s.b.drow2[r]) ||
		    !whole((s.b.dmult[r] + s.b.dmult2[r]) * vmax)) /* the whole run's sums */
			s.b.inexact = 1;
	}
	if (*again)
		goto out;
	struct run one = {.n = ranks, .flops = s.f1, .drow = s.b.drow2, .dmult = s.b.dmult2};
	memset(s.b.drow2, 0, z * sizeof *s.b.drow2); /* the difference: b's alone */
	memset(s.b.dmult2, 0, z * sizeof *s.b.dmult2);
	if (s.b.failed)
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	else if (s.b.inexact)
		rc = dense_path(pr, k, ranks, t, e);
	else if (difference(&s.b, &one, t))
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
out:
	run_free(&s.b);
	free(s.phase), free(s.ons), free(s.f1);
	return rc;
}

int cpl_traffic_profile_runs(const struct cpl_profiles *pr, int k, int ranks, int runs,
                             struct cpl_traffic *t, struct cmn_err *e)
{
	memset(t, 0, sizeof *t);
	int again = 0, rc = runs == 1 && cpl_profiles_same_iterations(pr, k)
	                        ? one_pass(pr, k, ranks, t, &again, e)
	                        : (again = 1, 0);
	if (again) {
		cpl_traffic_free(t);
		rc = two_runs(pr, k, ranks, t, e);
	}
	if (rc)
		cpl_traffic_free(t);
	return rc;
}

int cpl_traffic_profile(const struct cpl_profiles *pr, int k, int ranks, struct cpl_traffic *t,
                        struct cmn_err *e)
{
	return cpl_traffic_profile_runs(pr, k, ranks, 1, t, e);
}

int cpl_traffic_from_matrix(int n, const double *matrix, const double *flops, struct cpl_traffic *t,
                            struct cmn_err *e)
{
	memset(t, 0, sizeof *t);
	struct pairs p = {0};
	int rc = 0;
	t->nranks = n;
	if (!(t->flops = malloc((size_t)(n ? n : 1) * sizeof *t->flops)))
		rc = -1;
	else
		memcpy(t->flops, flops, (size_t)n * sizeof *t->flops);
	for (int a = 0; !rc && a < n; a++)
		for (int b = 0; !rc && b < n; b++)
			if (a != b && matrix[(size_t)a * n + b] > 0)
				rc = put(&p, a, b, matrix[(size_t)a * n + b]);
	return finish(n, &p, rc, t, e);
}

double cpl_traffic_bytes(const struct cpl_traffic *t, int a, int b)
{
	if (a == b)
		return 0;
	long lo = t->row[a], hi = t->row[a + 1];
	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;
		if (t->col[mid] < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < t->row[a + 1] && t->col[lo] == b)
		return t->bytes[lo];
	return t->all_row ? dense(t->all_row, t->all_mult, t->all_col, a, b) : 0;
}

double cpl_traffic_dense(const struct cpl_traffic *t, int a, int b)
{
	return dense(t->all_row, t->all_mult, t->all_col, a, b);
}

int cpl_traffic_each(const struct cpl_traffic *t, int (*fn)(void *ctx, int a, int b, double bytes),
                     void *ctx)
{
	int rc = 0;
	for (int a = 0; !rc && a < t->nranks; a++) {
		long i = t->row[a];
		for (int b = 0; !rc && t->all_row && b < t->nranks; b++)
			if (i < t->row[a + 1] && t->col[i] == b)
				rc = fn(ctx, a, b, t->bytes[i++]);
			else if (b != a)
				rc =
				    fn(ctx, a, b, dense(t->all_row, t->all_mult, t->all_col, a, b));
		for (; !rc && !t->all_row && i < t->row[a + 1]; i++)
			rc = fn(ctx, a, t->col[i], t->bytes[i]);
	}
	return rc;
}

double cpl_traffic_pairs(const struct cpl_traffic *t)
{
	double n = t->nranks;
	return t->all_row ? n * (n - 1) : (double)t->row[t->nranks];
}

void cpl_traffic_free(struct cpl_traffic *t)
{
	free(t->flops), free(t->row), free(t->col), free(t->bytes);
	free(t->all_row), free(t->all_mult), free(t->all_col);
	memset(t, 0, sizeof *t);
}

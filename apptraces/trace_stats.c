/* Statistics, the traffic matrix, and side-by-side comparison. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace_expand.h"
#include "trace_stats.h"

struct emit_ctx {
	double *row;
	double sent;
};

static void add_emit(void *ctx, int phase, int dst, double bytes)
{
	(void)phase;
	struct emit_ctx *c = ctx;
	c->row[dst] += bytes;
	c->sent += bytes;
}

static int cmp_size(const void *a, const void *b)
{
	const struct trace_size_count *x = a, *y = b;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int is_coll(int op)
{
	return op >= TR_BARRIER && op <= TR_REDUCESCATTER;
}

/* One rank's payload of a collective: what it contributes (bytes). */
static double coll_payload(const struct trace *t, int r, const struct trace_action *a)
{
	double unit = trace_bytes(t, r, a->dt1, 1), s = a->a;
	if (a->op == TR_SCATTERV || a->op == TR_REDUCESCATTER) {
		s = 0;
		for (int i = 0; i < t->nranks; i++)
			s += t->counts[a->aux + i];
	}
	return unit * s;
}

int trace_stats_compute(const struct trace *t, struct trace_stats *s, struct cmn_err *e)
{
	int n = t->nranks;
	memset(s, 0, sizeof *s);
	s->nranks = n;
	s->rank = calloc((size_t)n, sizeof *s->rank);
	s->p2p = calloc((size_t)n * (size_t)n, sizeof *s->p2p);
	s->matrix = calloc((size_t)n * (size_t)n, sizeof *s->matrix);
	s->p2p_count = calloc((size_t)n * (size_t)n, sizeof *s->p2p_count);
	long nsend = 0;
	for (long k = 0; k < t->first[n]; k++)
		nsend += t->act[k].op == TR_SEND || t->act[k].op == TR_ISEND;
	double *sz = malloc((size_t)(nsend ? nsend : 1) * sizeof *sz);
	if (!s->rank || !s->p2p || !s->matrix || !s->p2p_count || !sz) {
		free(sz);
		trace_stats_free(s);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	long ns = 0;
	for (int r = 0; r < n; r++) {
		struct trace_rank_stats *rs = &s->rank[r];
		struct emit_ctx c = {s->matrix + (size_t)r * n, 0};
		for (long k = t->first[r]; k < t->first[r + 1]; k++) {
			const struct trace_action *a = &t->act[k];
			s->op_count[a->op]++;
			rs->actions++;
			double b = trace_bytes(t, r, a->dt1, a->a);
			switch (a->op) {
			case TR_COMPUTE: rs->flops += a->a; break;
			case TR_SLEEP: rs->sleep_s += a->a; break;
			case TR_SEND:
			case TR_ISEND:
				rs->p2p_sent++;
				rs->p2p_sent_bytes += b;
				s->p2p[(size_t)r * n + a->peer] += b;
				s->p2p_count[(size_t)r * n + a->peer]++;
				sz[ns++] = b;
				break;
			case TR_RECV:
			case TR_IRECV:
				rs->p2p_recv++;
				rs->p2p_recv_bytes += b;
				break;
			case TR_REDUCE:
			case TR_ALLREDUCE:
			case TR_REDUCESCATTER: rs->flops += a->b; break;
			default: break;
			}
			if (is_coll(a->op)) {
				rs->coll++;
				double p = coll_payload(t, r, a);
				if (p > s->max_coll_bytes)
					s->max_coll_bytes = p;
			}
			trace_expand_sends(t, r, a, add_emit, &c);
		}
		rs->sent_bytes = c.sent;
		for (int j = 0; j < n; j++)
			rs->peers += s->p2p[(size_t)r * n + j] > 0;
		struct trace_rank_stats *tt = &s->total;
		tt->actions += rs->actions;
		tt->p2p_sent += rs->p2p_sent;
		tt->p2p_recv += rs->p2p_recv;
		tt->coll += rs->coll;
		tt->flops += rs->flops;
		tt->sleep_s += rs->sleep_s;
		tt->p2p_sent_bytes += rs->p2p_sent_bytes;
		tt->p2p_recv_bytes += rs->p2p_recv_bytes;
		tt->sent_bytes += rs->sent_bytes;
		tt->peers = rs->peers > tt->peers ? rs->peers : tt->peers;
	}
	s->actions = s->total.actions;
	/* p2p sizes: distinct values with counts */
	qsort(sz, (size_t)ns, sizeof *sz, cmp_double);
	s->sizes = malloc((size_t)(ns ? ns : 1) * sizeof *s->sizes);
	if (!s->sizes) {
		free(sz);
		trace_stats_free(s);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	for (long i = 0; i < ns; i++) {
		if (s->nsizes && s->sizes[s->nsizes - 1].bytes == sz[i])
			s->sizes[s->nsizes - 1].count++;
		else
			s->sizes[s->nsizes++] = (struct trace_size_count){sz[i], 1};
	}
	qsort(s->sizes, (size_t)s->nsizes, sizeof *s->sizes, cmp_size);
	free(sz);
	return 0;
}

void trace_stats_free(struct trace_stats *s)
{
	free(s->rank);
	free(s->sizes);
	free(s->p2p);
	free(s->p2p_count);
	free(s->matrix);
	memset(s, 0, sizeof *s);
}

/* Peers of rank r (p2p destinations) in a compact list "1,2,5". */
static void peer_list(const struct trace_stats *s, int r, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int j = 0; j < s->nranks && used + 12 < len; j++)
		if (s->p2p[(size_t)r * s->nranks + j] > 0)
			used +=
			    (size_t)snprintf(buf + used, len - used, "%s%d", used ? "," : "", j);
	if (!used)
		snprintf(buf, len, "-");
}

void trace_stats_print(const struct trace_stats *s, const char *name, int max_matrix, FILE *f)
{
	int n = s->nranks;
	fprintf(f, "trace %s\nranks %d\nactions %ld\n", name, n, s->actions);
	fprintf(f, "actions by kind:");
	for (int op = 0; op < TR_NOPS; op++)
		if (s->op_count[op])
			fprintf(f, " %s=%ld", trace_op_name(op), s->op_count[op]);
	fprintf(f, "\ncompute (flop) %.6g total, %.6g per rank\n", s->total.flops,
	        s->total.flops / n);
	fprintf(f, "point-to-point: %ld messages, %.6g bytes sent; %ld receives, %.6g bytes\n",
	        s->total.p2p_sent, s->total.p2p_sent_bytes, s->total.p2p_recv,
	        s->total.p2p_recv_bytes);
	fprintf(f, "collectives: %ld calls (all ranks), largest payload %.6g bytes\n",
	        s->total.coll, s->max_coll_bytes);
	fprintf(f, "bytes sent with collectives expanded: %.6g\n", s->total.sent_bytes);
	fprintf(f, "message sizes (point-to-point, bytes x count):");
	for (int i = 0; i < s->nsizes && i < 12; i++)
		fprintf(f, " %.6gx%ld", s->sizes[i].bytes, s->sizes[i].count);
	if (s->nsizes > 12)
		fprintf(f, " ... (%d distinct)", s->nsizes);
	fprintf(f, "\n\nrank actions compute_flop p2p_sent p2p_sent_bytes p2p_recv p2p_recv_bytes "
	           "collectives sent_bytes peers\n");
	char peers[256];
	for (int r = 0; r < n; r++) {
		const struct trace_rank_stats *rs = &s->rank[r];
		peer_list(s, r, peers, sizeof peers);
		fprintf(f, "%d %ld %.6g %ld %.6g %ld %.6g %ld %.6g %s\n", r, rs->actions, rs->flops,
		        rs->p2p_sent, rs->p2p_sent_bytes, rs->p2p_recv, rs->p2p_recv_bytes,
		        rs->coll, rs->sent_bytes, peers);
	}
	if (n <= max_matrix) {
		fprintf(f, "\ntraffic matrix (bytes, row sends to column, collectives expanded)\n");
		for (int r = 0; r < n; r++) {
			for (int j = 0; j < n; j++)
				fprintf(f, "%s%.6g", j ? " " : "", s->matrix[(size_t)r * n + j]);
			fputc('\n', f);
		}
	} else {
		fprintf(f, "\ntraffic matrix: %d x %d, written by --matrix-out FILE\n", n, n);
	}
}

int trace_stats_matrix_csv(const struct trace_stats *s, FILE *f)
{
	int n = s->nranks;
	fprintf(f, "src,dst,bytes,p2p_bytes,p2p_messages\n");
	for (int r = 0; r < n; r++)
		for (int j = 0; j < n; j++) {
			size_t i = (size_t)r * n + j;
			if (s->matrix[i] > 0 || s->p2p_count[i] > 0)
				fprintf(f, "%d,%d,%.17g,%.17g,%ld\n", r, j, s->matrix[i], s->p2p[i],
				        s->p2p_count[i]);
		}
	return ferror(f) ? -1 : 0;
}

static int row(FILE *f, const char *what, double a, double b, double tol)
{
	double d = a == b ? 0 : fabs(a - b) / fmax(fabs(a), fabs(b));
	int bad = d > tol;
	fprintf(f, "%-34s %14.6g %14.6g %8.1f%%%s\n", what, a, b, 100 * (b - a) / (a ? a : 1),
	        bad ? "  <-" : "");
	return bad;
}

int trace_stats_compare(const struct trace_stats *a, const char *na, const struct trace_stats *b,
                        const char *nb, double tol, FILE *f)
{
	int bad = 0;
	fprintf(f, "A %s\nB %s\n%-34s %14s %14s %9s\n", na, nb, "quantity", "A", "B", "B-A");
	bad += row(f, "ranks", a->nranks, b->nranks, 0);
	for (int op = 0; op < TR_NOPS; op++)
		if (a->op_count[op] || b->op_count[op]) {
			char w[64];
			snprintf(w, sizeof w, "%s per rank", trace_op_name(op));
			/* compute lines depend on where the recorder cut them: not compared */
			double x = (double)a->op_count[op] / a->nranks,
			       y = (double)b->op_count[op] / b->nranks;
			if (op == TR_COMPUTE || op == TR_INIT || op == TR_FINALIZE)
				row(f, w, x, y, INFINITY);
			else
				bad += row(f, w, x, y, tol);
		}
	bad += row(f, "p2p bytes sent per rank", a->total.p2p_sent_bytes / a->nranks,
	           b->total.p2p_sent_bytes / b->nranks, tol);
	bad += row(f, "bytes sent with collectives/rank", a->total.sent_bytes / a->nranks,
	           b->total.sent_bytes / b->nranks, tol);
	bad += row(f, "largest collective payload", a->max_coll_bytes, b->max_coll_bytes, 0);
	/* compute: recorded traces hold measured CPU time x 1 Gf, so only the
	 * magnitude is compared (within a factor of 10) */
	double fa = a->total.flops / a->nranks, fb = b->total.flops / b->nranks;
	int far = (fa > 0 || fb > 0) && !(fb >= fa / 10 && fb <= fa * 10);
	fprintf(f, "%-34s %14.6g %14.6g %8.1f%%%s\n", "compute per rank (flop; x10)", fa, fb,
	        100 * (fb - fa) / (fa ? fa : 1), far ? "  <-" : "");
	bad += far;
	/* message sizes: the most frequent ones of A, counted in B */
	fprintf(f, "message sizes (bytes: count per rank)\n");
	for (int i = 0; i < a->nsizes && i < 8; i++) {
		long cb = 0;
		for (int j = 0; j < b->nsizes; j++)
			if (b->sizes[j].bytes == a->sizes[i].bytes)
				cb = b->sizes[j].count;
		char w[64];
		snprintf(w, sizeof w, "  %.6g B", a->sizes[i].bytes);
		bad +=
		    row(f, w, (double)a->sizes[i].count / a->nranks, (double)cb / b->nranks, tol);
	}
	for (int j = 0; j < b->nsizes && j < 8; j++) {
		int seen = 0;
		for (int i = 0; i < a->nsizes && !seen; i++)
			seen = a->sizes[i].bytes == b->sizes[j].bytes;
		if (!seen) {
			char w[64];
			snprintf(w, sizeof w, "  %.6g B", b->sizes[j].bytes);
			bad += row(f, w, 0, (double)b->sizes[j].count / b->nranks, tol);
		}
	}
	/* peers: the same sets per rank */
	int same = a->nranks == b->nranks, differ = 0;
	for (int r = 0; same && r < a->nranks; r++)
		for (int j = 0; j < a->nranks; j++)
			differ += (a->p2p[(size_t)r * a->nranks + j] > 0) !=
			          (b->p2p[(size_t)r * b->nranks + j] > 0);
	fprintf(f, "%-34s %s\n", "p2p peers of every rank",
	        !same    ? "not compared (rank counts differ)"
	        : differ ? "differ  <-"
	                 : "same");
	bad += !same || differ;
	fprintf(f, "%d quantit%s differ by more than %.0f%%\n", bad, bad == 1 ? "y" : "ies",
	        100 * tol);
	return bad;
}

/* Statistics, the traffic matrix, and side-by-side comparison. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "trace_expand.h"
#include "trace_stats.h"

/* One rank's row of the matrix as it is built: its pairs appended to
 * s->pairs, slot[dst] the index of its pair with dst (-1: none yet). */
struct emit_ctx {
	struct trace_stats *s;
	long *slot, cap;
	int src, oom;
	double sent;
};

static struct trace_pair *pair_to(struct emit_ctx *c, int dst)
{
	struct trace_stats *s = c->s;
	if (c->slot[dst] < 0) {
		if (cmn_grow((void **)&s->pairs, &c->cap, s->npairs + 1, 64, sizeof *s->pairs)) {
			c->oom = 1;
			return NULL;
		}
		s->pairs[s->npairs] = (struct trace_pair){c->src, dst, 0, 0, 0};
		c->slot[dst] = s->npairs++;
	}
	return &s->pairs[c->slot[dst]];
}

static void add_emit(void *ctx, int phase, int dst, double bytes)
{
	(void)phase;
	struct emit_ctx *c = ctx;
	struct trace_pair *q = pair_to(c, dst);
	if (q)
		q->bytes += bytes;
	c->sent += bytes;
}

static int cmp_dst(const void *a, const void *b)
{
	const struct trace_pair *x = a, *y = b;
	return (x->dst > y->dst) - (x->dst < y->dst);
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
	s->first = calloc((size_t)n + 1, sizeof *s->first);
	long nsend = 0;
	for (long k = 0; k < t->first[n]; k++)
		nsend += t->act[k].op == TR_SEND || t->act[k].op == TR_ISEND;
	double *sz = malloc((size_t)(nsend ? nsend : 1) * sizeof *sz);
	struct emit_ctx c = {.s = s, .slot = malloc((size_t)(n ? n : 1) * sizeof *c.slot)};
	if (!s->rank || !s->first || !sz || !c.slot) {
		free(sz), free(c.slot);
		trace_stats_free(s);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	for (int r = 0; r < n; r++)
		c.slot[r] = -1;
	long ns = 0;
	for (int r = 0; r < n && !c.oom; r++) {
		struct trace_rank_stats *rs = &s->rank[r];
		c.src = r, c.sent = 0;
		for (long k = t->first[r]; k < t->first[r + 1] && !c.oom; k++) {
			const struct trace_action *a = &t->act[k];
			s->op_count[a->op]++;
			rs->actions++;
			double b = trace_bytes(t, r, a->dt1, a->a);
			struct trace_pair *q;
			switch (a->op) {
			case TR_COMPUTE: rs->flops += a->a; break;
			case TR_SLEEP: rs->sleep_s += a->a; break;
			case TR_SEND:
			case TR_ISEND:
				rs->p2p_sent++;
				rs->p2p_sent_bytes += b;
				if ((q = pair_to(&c, a->peer)) != NULL)
					q->p2p += b, q->p2p_count++;
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
		/* the row in order of dst, its slots free for the next row (none:
		 * pairs may still be NULL) */
		long len = s->npairs - s->first[r];
		if (len > 0) {
			struct trace_pair *row = s->pairs + s->first[r];
			for (long i = 0; i < len; i++) {
				c.slot[row[i].dst] = -1;
				rs->peers += row[i].p2p > 0;
			}
			qsort(row, (size_t)len, sizeof *row, cmp_dst);
		}
		s->first[r + 1] = s->npairs;
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
	free(c.slot);
	if (c.oom) {
		free(sz);
		trace_stats_free(s);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
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
	free(s->pairs);
	free(s->first);
	memset(s, 0, sizeof *s);
}

const struct trace_pair *trace_stats_pair(const struct trace_stats *s, int src, int dst)
{
	long lo = s->first[src], hi = s->first[src + 1];
	while (lo < hi) { /* the row is sorted by dst */
		long mid = lo + (hi - lo) / 2;
		if (s->pairs[mid].dst < dst)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->first[src + 1] && s->pairs[lo].dst == dst ? &s->pairs[lo] : NULL;
}

double trace_stats_bytes(const struct trace_stats *s, int src, int dst)
{
	const struct trace_pair *q = trace_stats_pair(s, src, dst);
	return q ? q->bytes : 0;
}

/* Peers of rank r (p2p destinations) in a compact list "1,2,5". */
static void peer_list(const struct trace_stats *s, int r, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (long i = s->first[r]; i < s->first[r + 1] && used + 12 < len; i++)
		if (s->pairs[i].p2p > 0)
			used += (size_t)snprintf(buf + used, len - used, "%s%d", used ? "," : "",
			                         s->pairs[i].dst);
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
				fprintf(f, "%s%.6g", j ? " " : "", trace_stats_bytes(s, r, j));
			fputc('\n', f);
		}
	} else {
		fprintf(f, "\ntraffic matrix: %d x %d, written by --matrix-out FILE\n", n, n);
	}
}

int trace_stats_matrix_csv(const struct trace_stats *s, FILE *f)
{
	fprintf(f, "src,dst,bytes,p2p_bytes,p2p_messages\n");
	for (long i = 0; i < s->npairs; i++) {
		const struct trace_pair *q = &s->pairs[i];
		if (q->bytes > 0 || q->p2p_count > 0)
			fprintf(f, "%d,%d,%.17g,%.17g,%ld\n", q->src, q->dst, q->bytes, q->p2p,
			        q->p2p_count);
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

/* The next pair of rank r's row from i on with p2p bytes (its index, or
 * the row's end). */
static long next_peer(const struct trace_stats *s, int r, long i)
{
	while (i < s->first[r + 1] && !(s->pairs[i].p2p > 0))
		i++;
	return i;
}

/* Whether rank r sends point-to-point bytes to the same ranks in a and b. */
static int same_peers(const struct trace_stats *a, const struct trace_stats *b, int r)
{
	long i = next_peer(a, r, a->first[r]), j = next_peer(b, r, b->first[r]);
	for (; i < a->first[r + 1] && j < b->first[r + 1];
	     i = next_peer(a, r, i + 1), j = next_peer(b, r, j + 1))
		if (a->pairs[i].dst != b->pairs[j].dst)
			return 0;
	return i == a->first[r + 1] && j == b->first[r + 1];
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
		differ += !same_peers(a, b, r);
	fprintf(f, "%-34s %s\n", "p2p peers of every rank",
	        !same    ? "not compared (rank counts differ)"
	        : differ ? "differ  <-"
	                 : "same");
	bad += !same || differ;
	fprintf(f, "%d quantit%s differ by more than %.0f%%\n", bad, bad == 1 ? "y" : "ies",
	        100 * tol);
	return bad;
}

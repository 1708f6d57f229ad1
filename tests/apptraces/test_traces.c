/* apptraces: the in-memory form, round trips of every generator, closed-form
 * counts of the NPB patterns (derived from the kernels' algorithms, checked
 * against the recorded traces' figures where they exist), the collective
 * expansion, and the matching pass's semantics. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../helpers.h"
#include "gen.h"
#include "trace.h"
#include "trace_expand.h"
#include "trace_stats.h"
#include "trace_values.h"

_Static_assert(sizeof(struct trace_action) <= 40, "an action stays compact");

static int same_file(const char *a, const char *b)
{
	char *x = th_read_file(a), *y = th_read_file(b);
	int same = x && y && strcmp(x, y) == 0;
	free(x);
	free(y);
	return same;
}

/* 1 when index (in folder dir) names each of its n ranks' files by their
 * absolute path, dir's rank-R.txt in order (trace_write's indexes). */
static int absolute_index(const char *index, const char *dir, int n)
{
	char *x = th_read_file(index), want[700];
	int ok = x != NULL;
	const char *p = x;
	for (int r = 0; ok && r < n; r++) {
		snprintf(want, sizeof want, "%s/t.txt_files/rank-%d.txt\n", dir, r);
		ok = strncmp(p, want, strlen(want)) == 0;
		p += strlen(want);
	}
	ok = ok && !*p;
	free(x);
	return ok;
}

static struct trace *gen(const char *k, char cls, int ranks, int iters)
{
	struct trace *t;
	int exact;
	struct cmn_err e;
	int rc = trace_generate(k, cls, ranks, iters, 1, &t, &exact, &e);
	if (rc)
		fprintf(stderr, "\n  %s\n", e.msg);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	return t;
}

/* Generate, write, read, write: the same rank files, and indexes naming
 * each by its absolute path. */
static void test_round_trip(void)
{
	const char *kernels[] = {"ep", "ft", "is", "cg", "mg", "lu", "bt", "sp"};
	const int ranks[] = {4, 6, 9};
	char dir[] = "/tmp/placesim-trace-XXXXXX";
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	for (size_t k = 0; k < 8; k++)
		for (size_t r = 0; r < 3; r++) {
			struct trace *t = gen(kernels[k], 'S', ranks[r], 2), *back;
			struct cmn_err e;
			char a[64], b[64], index[600];
			snprintf(a, sizeof a, "%s/a", dir);
			snprintf(b, sizeof b, "%s/b", dir);
			CU_ASSERT_FATAL(trace_write(t, a, "t", &e) == 0);
			snprintf(index, sizeof index, "%s/t.txt", a);
			int rc = trace_load(index, &back, &e);
			if (rc)
				fprintf(stderr, "\n  %s\n", e.msg);
			CU_ASSERT_EQUAL_FATAL(rc, 0);
			CU_ASSERT_EQUAL(back->nranks, t->nranks);
			CU_ASSERT_EQUAL(back->first[back->nranks], t->first[t->nranks]);
			CU_ASSERT_FATAL(trace_write(back, b, "t", &e) == 0);
			for (int i = -1; i < t->nranks; i++) {
				char fa[600], fb[600];
				if (i < 0) {
					snprintf(fa, sizeof fa, "%s/t.txt", a);
					snprintf(fb, sizeof fb, "%s/t.txt", b);
				} else {
					snprintf(fa, sizeof fa, "%s/t.txt_files/rank-%d.txt", a, i);
					snprintf(fb, sizeof fb, "%s/t.txt_files/rank-%d.txt", b, i);
				}
				int same = i < 0 ? absolute_index(fa, a, t->nranks) &&
				                       absolute_index(fb, b, t->nranks)
				                 : same_file(fa, fb);
				CU_ASSERT(same);
				if (!same)
					fprintf(stderr, "\n  %s %d ranks: %s differs\n", kernels[k],
					        ranks[r], fb);
				unlink(fa), unlink(fb);
			}
			snprintf(index, sizeof index, "%s/t.txt_files", a);
			rmdir(index);
			snprintf(index, sizeof index, "%s/t.txt_files", b);
			rmdir(index);
			rmdir(a), rmdir(b);
			trace_free(t);
			trace_free(back);
		}
	rmdir(dir);
}

static long count_op(const struct trace *t, int rank, int op, double bytes)
{
	long n = 0;
	for (long k = t->first[rank]; k < t->first[rank + 1]; k++)
		n += t->act[k].op == op &&
		     (bytes < 0 || trace_bytes(t, rank, t->act[k].dt1, t->act[k].a) == bytes);
	return n;
}

static double mean_sends(const struct trace *t)
{
	long n = 0;
	for (int r = 0; r < t->nranks; r++)
		n += count_op(t, r, TR_SEND, -1) + count_op(t, r, TR_ISEND, -1);
	return (double)n / t->nranks;
}

/* Counts from the kernels' algorithms (README), which the recorded traces
 * of ../shared/traces/npb show too where they exist. */
static void test_closed_forms(void)
{
	/* FT class A, 16 ranks, 1-D layout: 256*256*128/16^2 double complex to
	 * every rank per transpose, 2 + niter (6) transposes */
	struct trace *t = gen("ft", 'A', 16, 0);
	CU_ASSERT_EQUAL(count_op(t, 3, TR_ALLTOALL, 32768.0 * 16), 8);
	CU_ASSERT_EQUAL(count_op(t, 3, TR_REDUCE, 16), 6);
	trace_free(t);
	/* CG class S, 4 ranks (2x2): per conj_grad 1 + 25 x 4 + 3 exchanges,
	 * plus the norms, 16 conj_grads: 1680 sends, 832 of 700 doubles */
	t = gen("cg", 'S', 4, 0);
	CU_ASSERT_DOUBLE_EQUAL(mean_sends(t), 1680, 1e-9);
	CU_ASSERT_EQUAL(count_op(t, 1, TR_SEND, 5600), 832);
	CU_ASSERT_EQUAL(count_op(t, 1, TR_SEND, 16), 16);
	trace_free(t);
	/* CG class A, 8 ranks (2 x 4): l2npcols 2: (2 + 25 x 7 + 5 + 2) x 16 */
	t = gen("cg", 'A', 8, 0);
	CU_ASSERT_DOUBLE_EQUAL(mean_sends(t), 184 * 16, 1e-9);
	trace_free(t);
	/* CG generalized, 6 ranks (1 x 6, 3 dissemination steps):
	 * (3 + 25 x 10 + 7 + 3) x 16 */
	t = gen("cg", 'S', 6, 0);
	CU_ASSERT_DOUBLE_EQUAL(mean_sends(t), 263 * 16, 1e-9);
	trace_free(t);
	/* IS class S, 4 ranks: 11 rankings, buckets 2^9 + 5 ints allreduced,
	 * 2^16 / 16 keys of 4 bytes to each rank */
	t = gen("is", 'S', 4, 0);
	CU_ASSERT_EQUAL(count_op(t, 2, TR_ALLREDUCE, 517 * 4), 11);
	CU_ASSERT_EQUAL(count_op(t, 2, TR_ALLTOALLV, -1), 11);
	struct trace_stats s;
	struct cmn_err e;
	CU_ASSERT_FATAL(trace_stats_compute(t, &s, &e) == 0);
	/* rank 0 -> 1: 11 alltoallv of 4096 keys, the alltoall's 4 bytes, and
	 * the boundary key; plus the allreduce's recursive doubling partner */
	CU_ASSERT_DOUBLE_EQUAL(s.p2p[0 * 4 + 1], 4, 1e-9);
	trace_stats_free(&s);
	trace_free(t);
	/* LU class S, 4 ranks: 51 iterations x 10 planes x 2 + 54 exchange_3 x 2
	 * + pintgr's 8: 1130 per rank on average */
	t = gen("lu", 'S', 4, 0);
	CU_ASSERT_DOUBLE_EQUAL(mean_sends(t), 1130, 1e-9);
	trace_free(t);
	/* MG class S, 16 ranks: dead ranks at level 1 send less (384) than the
	 * ones that hold the coarse grid (454) */
	t = gen("mg", 'S', 16, 0);
	CU_ASSERT_EQUAL(count_op(t, 0, TR_SEND, -1), 384);
	CU_ASSERT_EQUAL(count_op(t, 4, TR_SEND, -1), 454);
	trace_free(t);
	/* BT / SP class S, 4 ranks: 62 copy_faces x 6 + 61 x 3 solves x 2 */
	t = gen("bt", 'S', 4, 0);
	CU_ASSERT_DOUBLE_EQUAL(mean_sends(t), 738, 1e-9);
	trace_free(t);
	t = gen("sp", 'S', 4, 0);
	CU_ASSERT_DOUBLE_EQUAL(mean_sends(t), 102 * 6 + 101 * 6, 1e-9);
	trace_free(t);
	/* EP: four allreduces per iteration, no point-to-point */
	t = gen("ep", 'C', 1024, 3);
	CU_ASSERT_EQUAL(count_op(t, 1023, TR_ALLREDUCE, -1), 12);
	CU_ASSERT_DOUBLE_EQUAL(mean_sends(t), 0, 1e-9);
	trace_free(t);
}

static void test_bad_generation(void)
{
	struct trace *t;
	int exact;
	struct cmn_err e;
	CU_ASSERT_EQUAL(trace_generate("xx", 'S', 4, 0, 1, &t, &exact, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "known: ep, ft, is, cg, mg, lu, bt, sp, none"));
	CU_ASSERT_EQUAL(trace_generate("cg", 'Q', 4, 0, 1, &t, &exact, &e), CMN_EUSAGE);
	CU_ASSERT_EQUAL(trace_generate("cg", 'S', 0, 0, 1, &t, &exact, &e), CMN_EUSAGE);
	CU_ASSERT_EQUAL(trace_generate("cg", 'S', 4, -1, 1, &t, &exact, &e), CMN_EUSAGE);
	CU_ASSERT_EQUAL(trace_generate("bt", 'S', 5, 1, 1, &t, &exact, &e), 0);
	CU_ASSERT_EQUAL(exact, 0); /* 5 is no square: the 2x2 pattern plus one */
	trace_free(t);
	CU_ASSERT_EQUAL(trace_generate("bt", 'S', 9, 1, 1, &t, &exact, &e), 0);
	CU_ASSERT_EQUAL(exact, 1);
	trace_free(t);
}

struct collect {
	int dst[64];
	double bytes[64];
	int n;
};

static void collect(void *ctx, int phase, int dst, double bytes)
{
	(void)phase;
	struct collect *c = ctx;
	c->dst[c->n] = dst;
	c->bytes[c->n++] = bytes;
}

static struct trace *one_action(int nranks, struct trace_action a, const double *v, int nv)
{
	struct trace_builder *b = trace_builder_new(nranks, "t");
	for (int r = 0; r < nranks; r++)
		trace_builder_add(b, r, &a, v, nv);
	struct cmn_err e;
	return trace_builder_finish(b, &e);
}

static void test_expand(void)
{
	struct collect c = {0};
	/* bcast, binomial (MPICH's) from root 2 of 5: the root (v = 0) sends to
	 * v + 4, v + 2, v + 1; v = 2 (rank 4) to v + 1; v = 1 (rank 3) nothing */
	struct trace *t = one_action(
	    5, (struct trace_action){.op = TR_BCAST, .peer = 2, .a = 100, .dt1 = TR_NO_DT}, NULL,
	    0);
	trace_expand_sends(t, 2, &t->act[0], collect, &c);
	CU_ASSERT(c.n == 3 && c.dst[0] == 1 && c.dst[1] == 4 && c.dst[2] == 3);
	c.n = 0;
	trace_expand_sends(t, 4, &t->act[0], collect, &c);
	CU_ASSERT(c.n == 1 && c.dst[0] == 0 && c.bytes[0] == 100);
	c.n = 0;
	trace_expand_sends(t, 3, &t->act[0], collect, &c);
	CU_ASSERT_EQUAL(c.n, 0);
	trace_free(t);
	/* allreduce of 6 ranks: linear reduce to 0, binomial bcast from 0 */
	t = one_action(
	    6, (struct trace_action){.op = TR_ALLREDUCE, .peer = -1, .a = 8, .dt1 = TR_NO_DT}, NULL,
	    0);
	c.n = 0;
	trace_expand_sends(t, 5, &t->act[0], collect, &c);
	CU_ASSERT(c.n == 1 && c.dst[0] == 0);
	c.n = 0;
	trace_expand_sends(t, 2, &t->act[0], collect, &c);
	CU_ASSERT(c.n == 2 && c.dst[0] == 0 && c.dst[1] == 3);
	c.n = 0;
	trace_expand_sends(t, 0, &t->act[0], collect, &c);
	CU_ASSERT(c.n == 3 && c.dst[0] == 4 && c.dst[1] == 2 && c.dst[2] == 1);
	trace_free(t);
	/* barrier: empty messages to 0, then from 0 to all */
	t = one_action(4, (struct trace_action){.op = TR_BARRIER, .peer = -1}, NULL, 0);
	c.n = 0;
	trace_expand_sends(t, 3, &t->act[0], collect, &c);
	CU_ASSERT(c.n == 1 && c.dst[0] == 0 && c.bytes[0] == 0);
	c.n = 0;
	trace_expand_sends(t, 0, &t->act[0], collect, &c);
	CU_ASSERT_EQUAL(c.n, 3);
	trace_free(t);
	/* alltoallv: send count j to rank j, in datatype units (here doubles) */
	double v[6] = {1, 2, 3, 0, 0, 0};
	t = one_action(3, (struct trace_action){.op = TR_ALLTOALLV, .peer = -1, .dt1 = 0}, v, 6);
	c.n = 0;
	trace_expand_sends(t, 0, &t->act[0], collect, &c);
	CU_ASSERT(c.n == 2 && c.dst[0] == 1 && c.bytes[0] == 16 && c.bytes[1] == 24);
	trace_free(t);
}

/* Every byte sent is received: the matrix's column sums equal what the
 * receivers expect, for a generated trace with every kind of collective. */
static void test_matrix_balance(void)
{
	struct trace *t = gen("is", 'S', 6, 2);
	struct trace_stats s;
	struct cmn_err e;
	CU_ASSERT_FATAL(trace_stats_compute(t, &s, &e) == 0);
	double sent = 0, matrix = 0;
	for (int r = 0; r < 6; r++)
		sent += s.rank[r].sent_bytes;
	for (int i = 0; i < 36; i++)
		matrix += s.matrix[i];
	CU_ASSERT_DOUBLE_EQUAL(sent, matrix, 1e-6 * sent);
	CU_ASSERT(s.matrix[0] == 0); /* no self traffic in IS */
	trace_stats_free(&s);
	trace_free(t);
}

static int check_text(const char *text, struct cmn_err *e)
{
	char *p = th_write_temp(text, ".txt");
	struct trace *t;
	int rc = trace_load(p, &t, e);
	if (!rc)
		trace_free(t);
	unlink(p);
	free(p);
	return rc;
}

static void test_matching_semantics(void)
{
	struct cmn_err e;
	/* eager sends: both ranks send first, then receive (SMPI runs it) */
	CU_ASSERT_EQUAL(check_text("0 send 1 0 8\n0 recv 1 0 8\n1 send 0 0 8\n1 recv 0 0 8\n", &e),
	                0);
	/* a test consumes nothing; a later wait may find the request gone */
	CU_ASSERT_EQUAL(check_text("0 irecv 1 0 8\n0 test 1 0 0\n0 wait 1 0 0\n1 send 0 0 8\n", &e),
	                0);
	/* unfinished requests are waited for at the end, as SimGrid's replay */
	CU_ASSERT_EQUAL(check_text("0 irecv 1 0 8\n1 isend 0 0 8\n", &e), 0);
	/* a receive larger than the message is fine, a smaller one is not */
	CU_ASSERT_EQUAL(check_text("0 send 1 0 8\n1 recv 0 0 16\n", &e), 0);
	CU_ASSERT_EQUAL(check_text("0 send 1 0 16\n1 recv 0 0 8\n", &e), CMN_EINPUT);
	/* messages match in order per (source, destination, tag) */
	CU_ASSERT_EQUAL(
	    check_text("0 send 1 1 8\n0 send 1 2 16\n1 recv 0 2 16\n1 recv 0 1 8\n", &e), 0);
	CU_ASSERT_EQUAL(
	    check_text("0 send 1 1 8\n0 send 1 1 16\n1 recv 0 1 16\n1 recv 0 1 8\n", &e),
	    CMN_EINPUT);
	/* datatypes: "init 1" makes the default a double (8 bytes) */
	CU_ASSERT_EQUAL(check_text("0 init 1\n0 send 1 0 2\n1 init 1\n1 recv 0 0 16 6\n", &e), 0);
	CU_ASSERT_EQUAL(check_text("0 init 1\n0 send 1 0 3\n1 init 1\n1 recv 0 0 16 6\n", &e),
	                CMN_EINPUT);
	/* gzip'ed traces read the same */
}

/* The syntax of numbers: sizes whole 0..2^53 exactly, amounts fractional,
 * indices digits only; nothing but plain decimal. */
static void test_numbers(void)
{
	const uint64_t m = UINT64_C(1) << 53;
	double v;
	long i;
	const char *syntax[] = {"",   "nan",  "inf", "0x10", "10abc", "+5",  "1e",       ".",
	                        "e5", "1..2", "1e+", " 5",   "5 ",    "1,5", "infinity", "0x1p3"};
	for (size_t k = 0; k < sizeof syntax / sizeof *syntax; k++) {
		CU_ASSERT_EQUAL(trace_num_count(syntax[k], m, &v), TN_SYNTAX);
		CU_ASSERT_EQUAL(trace_num_amount(syntax[k], TRACE_MAX_VALUE, &v), TN_SYNTAX);
	}
	CU_ASSERT_EQUAL(trace_num_count("-5", m, &v), TN_NEGATIVE);
	CU_ASSERT_EQUAL(trace_num_count("-0", m, &v), TN_NEGATIVE);
	CU_ASSERT_EQUAL(trace_num_count("1.5", m, &v), TN_FRACTION);
	CU_ASSERT_EQUAL(trace_num_count("123e-2", m, &v), TN_FRACTION);
	CU_ASSERT_EQUAL(trace_num_count("1e-400", m, &v), TN_FRACTION);
	CU_ASSERT_EQUAL(trace_num_count("1e300", m, &v), TN_RANGE);
	CU_ASSERT_EQUAL(trace_num_count("1e99999999999999999999", m, &v), TN_RANGE);
	CU_ASSERT_EQUAL(trace_num_count("18446744073709551617", m, &v), TN_RANGE);
	CU_ASSERT_EQUAL(trace_num_count("9007199254740993", m, &v), TN_RANGE);
	CU_ASSERT_EQUAL(trace_num_count("9007199254740992.5", m, &v), TN_RANGE);
	CU_ASSERT_EQUAL(trace_num_count("9007199254740992", m, &v), TN_OK);
	CU_ASSERT_EQUAL(v, 9007199254740992.0);
	CU_ASSERT_EQUAL(trace_num_count("9.007199254740992e15", m, &v), TN_OK);
	CU_ASSERT_EQUAL(v, 9007199254740992.0);
	CU_ASSERT_EQUAL(trace_num_count("1200e-2", m, &v), TN_OK);
	CU_ASSERT_EQUAL(v, 12);
	CU_ASSERT_EQUAL(trace_num_count("0001e6", m, &v), TN_OK);
	CU_ASSERT_EQUAL(v, 1e6);
	CU_ASSERT_EQUAL(trace_num_count("0.0e99999", m, &v), TN_OK);
	CU_ASSERT_EQUAL(v, 0);
	CU_ASSERT_EQUAL(trace_num_count("2147483648", 2147483647, &v), TN_RANGE);
	CU_ASSERT_EQUAL(trace_num_amount("1.30081e+06", TRACE_MAX_VALUE, &v), TN_OK);
	CU_ASSERT_EQUAL(v, 1300810);
	CU_ASSERT_EQUAL(trace_num_amount("0.25", TRACE_MAX_VALUE, &v), TN_OK);
	CU_ASSERT_EQUAL(v, 0.25);
	CU_ASSERT_EQUAL(trace_num_amount("-0.25", TRACE_MAX_VALUE, &v), TN_NEGATIVE);
	CU_ASSERT_EQUAL(trace_num_amount("9007199254740992.5", TRACE_MAX_VALUE, &v), TN_RANGE);
	CU_ASSERT_EQUAL(trace_num_amount("1e300", TRACE_MAX_VALUE, &v), TN_RANGE);
	CU_ASSERT_EQUAL(trace_num_decimal("-1.5", &v), TN_OK);
	CU_ASSERT_EQUAL(v, -1.5);
	CU_ASSERT_EQUAL(trace_num_decimal("1e400", &v), TN_RANGE);
	CU_ASSERT_EQUAL(trace_num_decimal("nan", &v), TN_SYNTAX);
	CU_ASSERT_EQUAL(trace_num_index("7", 1, &i), TN_RANGE);
	CU_ASSERT_EQUAL(trace_num_index("10", 9, &i), TN_RANGE);
	CU_ASSERT_EQUAL(trace_num_index("99999999999999999999999", 9, &i), TN_RANGE);
	CU_ASSERT_EQUAL(trace_num_index("-1", 9, &i), TN_NEGATIVE);
	CU_ASSERT_EQUAL(trace_num_index("+1", 9, &i), TN_SYNTAX);
	CU_ASSERT_EQUAL(trace_num_index("", 9, &i), TN_SYNTAX);
	CU_ASSERT_EQUAL(trace_num_index("1e1", 99, &i), TN_SYNTAX);
	CU_ASSERT_EQUAL(trace_num_index("0009", 9, &i), TN_OK);
	CU_ASSERT_EQUAL(i, 9);
}

/* A trace built in memory (a generator's) obeys the same limits, and a
 * flop scale that would break them is refused with nothing scaled. */
static void test_limits(void)
{
	struct cmn_err e;
	struct trace_action a = {.op = TR_COMPUTE, .dt1 = TR_NO_DT, .dt2 = TR_NO_DT, .a = 1e9};
	struct trace *t = one_action(2, a, NULL, 0);
	CU_ASSERT_EQUAL(trace_check_limits(t, &e), 0);
	CU_ASSERT_EQUAL(trace_scale_flops(t, 1e7, &e), CMN_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "t:1: error: rank 0: compute: flops 1000000000"));
	CU_ASSERT_EQUAL(t->act[0].a, 1e9); /* untouched */
	CU_ASSERT_EQUAL(trace_scale_flops(t, 2, &e), 0);
	CU_ASSERT_EQUAL(t->act[0].a, 2e9);
	trace_free(t);
	a = (struct trace_action){.op = TR_BCAST, .dt1 = 1, .dt2 = TR_NO_DT, .a = 0x1p52};
	t = one_action(2, a, NULL, 0); /* 2^52 ints: 2^54 bytes */
	CU_ASSERT_EQUAL(trace_check_limits(t, &e), CMN_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(e.msg, "bcast: count 4503599627370496 is 18014398509481984 bytes"));
	trace_free(t);
	a.a = 2.5, a.dt1 = TR_NO_DT;
	t = one_action(2, a, NULL, 0);
	CU_ASSERT_EQUAL(trace_check_limits(t, &e), CMN_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "count 2.5 is not a whole number"));
	trace_free(t);
	double v[2] = {0x1p53, 1};
	a = (struct trace_action){.op = TR_REDUCESCATTER, .dt1 = TR_NO_DT, .dt2 = TR_NO_DT};
	t = one_action(2, a, v, 2);
	CU_ASSERT_EQUAL(trace_check_limits(t, &e), CMN_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "recv counts sum to more than 2^53"));
	v[0] = 0x1p31;
	trace_free(t);
	t = one_action(2, a, v, 2);
	CU_ASSERT_EQUAL(trace_check_limits(t, &e), 0);
	CU_ASSERT_EQUAL(trace_check_counts(t, 2147483647, "an engine's ints", &e), CMN_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "sum to more than 2147483647: an engine's ints"));
	trace_free(t);
}

/* One timed iteration: per rank, exactly the actions that a third
 * iteration adds to a two-iteration run (a plain iteration, lu's last-
 * iteration norms excluded), with init and finalize, for every kernel and
 * rank counts the real kernels take and others. */
static void test_one_iteration(void)
{
	const char *kernels[] = {"ep", "ft", "is", "cg", "mg", "lu", "bt", "sp", "none"};
	const int ranks[] = {1, 4, 6, 9, 16};
	for (size_t k = 0; k < 9; k++)
		for (size_t r = 0; r < 5; r++) {
			struct trace *one, *two = gen(kernels[k], 'S', ranks[r], 2),
			                   *three = gen(kernels[k], 'S', ranks[r], 3);
			struct cmn_err e;
			int exact,
			    rc = trace_generate_one(kernels[k], 'S', ranks[r], 1, &one, &exact, &e);
			if (rc)
				fprintf(stderr, "\n  %s\n", e.msg);
			CU_ASSERT_EQUAL_FATAL(rc, 0);
			struct trace_stats s1, s2, s3;
			CU_ASSERT_FATAL(trace_stats_compute(one, &s1, &e) == 0);
			CU_ASSERT_FATAL(trace_stats_compute(two, &s2, &e) == 0);
			CU_ASSERT_FATAL(trace_stats_compute(three, &s3, &e) == 0);
			for (int q = 0; q < ranks[r]; q++) {
				long n1 = one->first[q + 1] - one->first[q],
				     n2 = two->first[q + 1] - two->first[q],
				     n3 = three->first[q + 1] - three->first[q];
				CU_ASSERT_EQUAL(n1, n3 - n2 + 2);
				CU_ASSERT_EQUAL(one->act[one->first[q]].op, TR_INIT);
				CU_ASSERT_EQUAL(one->act[one->first[q + 1] - 1].op, TR_FINALIZE);
			}
			for (int q = 0; q < ranks[r] * ranks[r]; q++)
				CU_ASSERT_DOUBLE_EQUAL(s1.matrix[q], s3.matrix[q] - s2.matrix[q],
				                       1e-9 * (1 + s3.matrix[q]));
			CU_ASSERT_DOUBLE_EQUAL(s1.total.flops, s3.total.flops - s2.total.flops,
			                       1e-9 * s3.total.flops);
			CU_ASSERT(s1.actions < s2.actions);
			trace_stats_free(&s1), trace_stats_free(&s2), trace_stats_free(&s3);
			trace_free(one), trace_free(two), trace_free(three);
		}
}

/* A rank's actions and timed-iteration marks as streamed, each a token
 * (a mark: op 255, peer on; line: a hash of a v-collective's counts). */
struct tokens {
	struct trace_action *t[64];
	long n[64], cap[64];
};

static void put(struct tokens *k, int r, struct trace_action a, uint32_t hash)
{
	if (k->n[r] == k->cap[r]) {
		k->cap[r] = k->cap[r] ? 2 * k->cap[r] : 256;
		k->t[r] = realloc(k->t[r], (size_t)k->cap[r] * sizeof *k->t[r]);
		CU_ASSERT_FATAL(k->t[r] != NULL);
	}
	a.line = hash;
	k->t[r][k->n[r]++] = a;
}

static void token_sink(void *ctx, int r, const struct trace_action *a, const double *counts, int n)
{
	uint32_t h = 2166136261u;
	for (int i = 0; i < n; i++) {
		uint64_t b;
		memcpy(&b, &counts[i], sizeof b);
		h = (h ^ (uint32_t)(b ^ (b >> 32))) * 16777619u;
	}
	put(ctx, r, *a, h);
}

static void token_mark(void *ctx, int r, int on)
{
	put(ctx, r, (struct trace_action){.op = 255, .peer = on}, 0);
}

static int same_token(const struct trace_action *x, const struct trace_action *y)
{
	return x->op == y->op && x->dt1 == y->dt1 && x->dt2 == y->dt2 && x->nopt == y->nopt &&
	       x->peer == y->peer && x->tag == y->tag && x->aux == y->aux && x->a == y->a &&
	       x->b == y->b && x->line == y->line;
}

/* Whether rank r's tokens in two are those of one with a timed iteration
 * (mark on .. mark off) inserted right after one's last mark off. */
static int inserted(const struct tokens *one, const struct tokens *two, int r)
{
	long n1 = one->n[r], n2 = two->n[r], p = n1, x = n2 - n1;
	while (p > 0 && !(one->t[r][p - 1].op == 255 && !one->t[r][p - 1].peer))
		p--;
	if (!p || x < 2 || two->t[r][p].op != 255 || !two->t[r][p].peer ||
	    two->t[r][p + x - 1].op != 255 || two->t[r][p + x - 1].peer)
		return 0;
	for (long i = 0; i < n1; i++)
		if (!same_token(&one->t[r][i], &two->t[r][i < p ? i : i + x]))
			return 0;
	return 1;
}

/* A generator that says same_iterations runs its k iterations as k - 1
 * with one more inserted after the last (what the linkload model's
 * traffic relies on to generate the longer run only); lu, whose last
 * iteration differs, does not say so, and the check sees it. */
static void test_same_iterations(void)
{
	const int ranks[] = {1, 2, 4, 6, 9, 16, 25, 33, 64};
	for (int i = 0; trace_gen_registry[i]; i++) {
		const struct trace_gen_ops *ops = trace_gen_registry[i];
		const char *k = ops->base.name;
		CU_ASSERT(trace_gen_same_iterations(k) == ops->same_iterations);
		int all = 1;
		for (size_t q = 0; q < sizeof ranks / sizeof *ranks; q++) {
			for (const char *c = "SA"; *c; c++) {
				struct tokens *t1 = calloc(1, sizeof *t1),
				              *t2 = calloc(1, sizeof *t2);
				struct cmn_err e;
				int exact;
				if (trace_generate_stream(k, *c, ranks[q], 1, 1, token_sink,
				                          token_mark, t1, &exact, &e) ||
				    trace_generate_stream(k, *c, ranks[q], 2, 1, token_sink,
				                          token_mark, t2, &exact, &e)) {
					free(t1), free(t2);
					continue; /* a size the kernel refuses */
				}
				for (int r = 0; r < ranks[q]; r++) {
					all &= inserted(t1, t2, r);
					free(t1->t[r]), free(t2->t[r]);
				}
				free(t1), free(t2);
			}
		}
		if (ops->same_iterations != all)
			fprintf(stderr, "\n  %s: same_iterations %d, runs %s\n", k,
			        ops->same_iterations, all ? "alike" : "not alike");
		CU_ASSERT(ops->same_iterations == all);
	}
	CU_ASSERT(!trace_gen_same_iterations("lu") && trace_gen_same_iterations("cg"));
	CU_ASSERT(!trace_gen_same_iterations("no-such-kernel"));
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("apptraces", NULL, NULL);
	CU_add_test(s, "generate, write, read, write: same files", test_round_trip);
	CU_add_test(s, "closed-form counts of the NPB patterns", test_closed_forms);
	CU_add_test(s, "bad generator requests", test_bad_generation);
	CU_add_test(s, "one timed iteration of every kernel", test_one_iteration);
	CU_add_test(s, "runs of same iterations", test_same_iterations);
	CU_add_test(s, "collective expansion", test_expand);
	CU_add_test(s, "traffic matrix balance", test_matrix_balance);
	CU_add_test(s, "matching pass semantics", test_matching_semantics);
	CU_add_test(s, "numbers of trace fields", test_numbers);
	CU_add_test(s, "limits of sizes and amounts in memory", test_limits);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

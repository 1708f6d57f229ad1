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
	const struct trace_pair *q = trace_stats_pair(&s, 0, 1);
	CU_ASSERT_FATAL(q != NULL);
	CU_ASSERT_DOUBLE_EQUAL(q->p2p, 4, 1e-9);
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

struct senders {
	int s[64], n, phase, to;
	int from; /* collect_to: the rank whose sends are expanded */
};

static void collect_to(void *ctx, int phase, int dst, double bytes)
{
	(void)bytes;
	struct senders *c = ctx;
	if (phase == c->phase && dst == c->to)
		c->s[c->n++] = c->from;
}

/* trace_expand_sources against every rank's trace_expand_sends: every
 * collective, 1 to 17 ranks, roots first, second and last, every phase and
 * rank: the same senders in the same order. */
static void test_sources(void)
{
	const int ops[] = {TR_BCAST,    TR_REDUCE,        TR_GATHER,    TR_GATHERV,    TR_ALLREDUCE,
	                   TR_ALLTOALL, TR_ALLTOALLV,     TR_ALLGATHER, TR_ALLGATHERV, TR_SCATTER,
	                   TR_SCATTERV, TR_REDUCESCATTER, TR_BARRIER};
	double v[34] = {0};
	long bad = 0, cases = 0;
	for (size_t o = 0; o < sizeof ops / sizeof *ops; o++)
		for (int n = 1; n <= 17; n++)
			for (int ri = 0; ri < 3; ri++) {
				int root = ri == 0 ? 0 : ri == 1 ? 1 % n : n - 1;
				struct trace_action a = {
				    .op = ops[o], .peer = root, .a = 8, .dt1 = TR_NO_DT};
				struct trace *t = one_action(n, a, v, 2 * n);
				CU_ASSERT_FATAL(t != NULL);
				for (int phase = 0; phase < trace_expand_phases(a.op); phase++)
					for (int r = 0; r < n; r++) {
						struct senders got = {.n = 0},
						               want = {.phase = phase, .to = r};
						got.n = trace_expand_sources(
						    t, r, &t->act[t->first[r]], phase, got.s);
						for (int s = 0; s < n; s++)
							if (s != r)
								want.from = s,
								trace_expand_sends(
								    t, s, &t->act[t->first[s]],
								    collect_to, &want);
						cases++;
						bad += got.n != want.n ||
						       memcmp(got.s, want.s,
						              (size_t)got.n * sizeof *got.s) != 0;
					}
				trace_free(t);
			}
	CU_ASSERT(cases > 3000);
	CU_ASSERT_EQUAL(bad, 0);
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
		matrix += trace_stats_bytes(&s, i / 6, i % 6);
	CU_ASSERT_DOUBLE_EQUAL(sent, matrix, 1e-6 * sent);
	CU_ASSERT(trace_stats_bytes(&s, 0, 0) == 0); /* no self traffic in IS */
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
	th_free_temp(p);
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

/* 1 when text is refused (CMN_EINPUT) with a message holding needle. */
static int refused(const char *text, const char *needle)
{
	struct cmn_err e;
	int rc = check_text(text, &e), ok = rc == CMN_EINPUT && strstr(e.msg, needle);
	if (!ok)
		fprintf(stderr, "\n  %s\n  got (%d) %s\n  want %s\n", text, rc, rc ? e.msg : "",
		        needle);
	return ok;
}

static int accepted(const char *text)
{
	struct cmn_err e;
	int rc = check_text(text, &e);
	if (rc)
		fprintf(stderr, "\n  %s\n  refused: %s\n", text, e.msg);
	return rc == 0;
}

/* Requests keep their place while others come and go: an irecv posted
 * before a request that is waited for, then a new one posted (the
 * checker once renumbered its requests there, and the message of the
 * first irecv completed the last one: a valid trace refused as a wait
 * that never returns). 300,000 requests pending at once are checked in
 * linear time (each post once copied all pending requests: 200,000 took
 * 85 s; this test's ctest TIMEOUT catches it). */
static void test_requests_in_place(void)
{
	CU_ASSERT(accepted("0 init\n1 init\n0 isend 1 0 100\n0 irecv 1 1 100\n0 wait 0 1 0\n"
	                   "0 irecv 1 2 100\n0 wait 1 0 1\n0 wait 1 0 2\n0 finalize\n"
	                   "1 recv 0 0 100\n1 send 0 1 100\n1 send 0 2 100\n1 finalize\n"));
	/* a rank's own messages: its isends and irecvs of one key, oldest first */
	CU_ASSERT(accepted("0 isend 0 0 8\n0 irecv 0 0 8\n0 wait 0 0 0\n0 wait 0 0 0\n"
	                   "0 isend 0 0 8\n0 irecv 0 0 8\n0 waitall\n0 irecv 0 0 8\n"
	                   "0 isend 0 0 8\n0 wait 0 0 0\n0 wait 0 0 0\n"));
	CU_ASSERT(refused("0 irecv 1 0 8\n0 isend 1 0 8\n0 wait 0 1 0\n0 wait 1 0 0\n"
	                  "1 recv 0 0 8\n",
	                  ":4: error: rank 0: wait never returns: the irecv from 1 tag 0 at line "
	                  "1 is never matched by a send"));
	/* a wait for a key of two other ranks, one of which has it pending */
	CU_ASSERT(refused("0 recv 2 5 8\n0 wait 1 2 0\n0 send 2 6 8\n1 send 2 0 8\n"
	                  "2 irecv 1 0 8\n2 send 0 5 8\n2 recv 0 6 8\n2 wait 1 2 0\n",
	                  ":2: error: rank 0: wait for (src 1, dst 2, tag 0): no such isend or "
	                  "irecv is pending"));
	enum { N = 300000 };
	for (int reversed = 0; reversed < 2; reversed++) {
		char *text = th_trace_pending(N, 100, reversed);
		CU_ASSERT_FATAL(text != NULL);
		CU_ASSERT(accepted(text));
		free(text);
	}
}

/* Collectives whose counts do not agree between ranks (SMPI's replay
 * aborts with MPI_ERR_TRUNCATE): a receiver posting fewer bytes than it
 * gets, or counts MPI wants equal that differ in bytes. Each names both
 * actions, the collective's number and the two byte counts. */
static void test_collective_counts(void)
{
	CU_ASSERT(refused("0 barrier\n1 barrier\n0 bcast 100\n1 bcast 10\n",
	                  ".txt:4: error: rank 1: collective #2 (bcast) has a count of 10 bytes "
	                  "here but 100 bytes at "));
	CU_ASSERT(
	    refused("0 bcast 100\n1 bcast 10\n", ".txt:1: rank 0 (MPI requires equal counts)"));
	CU_ASSERT(refused("0 bcast 10 1\n1 bcast 100 1\n",
	                  ":1: error: rank 0: collective #1 (bcast) has a count of 10 bytes here "
	                  "but 100 bytes at ")); /* root 1's count is the reference */
	CU_ASSERT(refused("0 allreduce 100 1\n1 allreduce 10 1\n",
	                  ":2: error: rank 1: collective #1 (allreduce) has a count of 10 bytes "
	                  "here but 100 bytes"));
	CU_ASSERT(refused("0 reduce 8 0 1\n1 reduce 8 0 1 0\n",
	                  ":1: error: rank 0: collective #1 (reduce) has a count of 8 bytes here "
	                  "but 64 bytes"));
	CU_ASSERT(refused("0 gather 100 10\n1 gather 100 10\n",
	                  ":1: error: rank 0: collective #1 (gather) sends 100 bytes to rank 0, "
	                  "which receives 10 bytes at "));
	CU_ASSERT(refused("0 gather 10 10 1\n1 gather 10 10 1\n2 gather 11 10 1\n",
	                  ":3: error: rank 2: collective #1 (gather) sends 11 bytes to rank 1, "
	                  "which receives 10 bytes at "));
	CU_ASSERT(refused("0 scatter 100 10\n1 scatter 100 10\n",
	                  "collective #1 (scatter) sends 100 bytes to rank 0, which receives 10 "
	                  "bytes"));
	CU_ASSERT(refused("0 scatter 10 10\n1 scatter 0 9\n",
	                  ":1: error: rank 0: collective #1 (scatter) sends 10 bytes to rank 1, "
	                  "which receives 9 bytes at "));
	CU_ASSERT(refused("0 allgather 100 10\n1 allgather 100 10\n",
	                  "collective #1 (allgather) sends 100 bytes to rank 0, which receives 10 "
	                  "bytes"));
	CU_ASSERT(refused("0 alltoall 100 100\n1 alltoall 10 10\n",
	                  ":1: error: rank 0: collective #1 (alltoall) sends 100 bytes to rank 1, "
	                  "which receives 10 bytes at "));
	CU_ASSERT(refused("0 alltoallv 10 1 2 10 1 2\n1 alltoallv 10 1 2 10 1 2\n",
	                  ":1: error: rank 0: collective #1 (alltoallv) sends 2 bytes to rank 1, "
	                  "which receives 1 bytes at "));
	CU_ASSERT(refused("0 gatherv 10 1 0\n1 gatherv 10 1 0\n",
	                  "collective #1 (gatherv) sends 10 bytes to rank 0, which receives 1 "
	                  "bytes"));
	CU_ASSERT(refused("0 gatherv 1 1 0\n1 gatherv 1 1 0\n",
	                  ":2: error: rank 1: collective #1 (gatherv) sends 1 bytes to rank 0, "
	                  "which receives 0 bytes at "));
	CU_ASSERT(refused("0 scatterv 1 2 1 0\n1 scatterv 0 0 1 0\n",
	                  ":1: error: rank 0: collective #1 (scatterv) sends 2 bytes to rank 1, "
	                  "which receives 1 bytes at "));
	CU_ASSERT(refused("0 allgatherv 10 5 10\n1 allgatherv 10 5 10\n",
	                  "collective #1 (allgatherv) sends 10 bytes to rank 0, which receives 5 "
	                  "bytes"));
	CU_ASSERT(refused("0 reducescatter 10 20 1\n1 reducescatter 20 10 1\n",
	                  ":2: error: rank 1: collective #1 (reducescatter) has a recv count of 20 "
	                  "bytes for rank 0 here but 10 bytes at "));
	/* alltoallv: ranks 0 and 2 share one vector, 1 and 3 another; rank 1
	 * alone sends rank 2 more than it takes from 1 */
	CU_ASSERT(refused("0 alltoallv 0 1 1 1 1 0 1 2 1 2\n1 alltoallv 0 2 3 3 3 0 1 3 1 3\n"
	                  "2 alltoallv 0 1 1 1 1 0 1 2 1 2\n3 alltoallv 0 2 3 2 3 0 1 3 1 3\n",
	                  ":2: error: rank 1: collective #1 (alltoallv) sends 3 bytes to rank 2, "
	                  "which receives 2 bytes at "));
	CU_ASSERT(accepted("0 alltoallv 0 1 1 1 1 0 1 2 1 2\n1 alltoallv 0 2 3 2 3 0 1 3 1 3\n"
	                   "2 alltoallv 0 1 1 1 1 0 1 2 1 2\n3 alltoallv 0 2 3 2 3 0 1 3 1 3\n"));
	/* counts that agree in bytes through different datatypes (0 double,
	 * 1 int, 6 byte), one case per collective; receives larger than the
	 * message are fine */
	CU_ASSERT(accepted("0 barrier\n1 barrier\n"));
	CU_ASSERT(accepted("0 bcast 2 0 0\n1 bcast 16 0 6\n"));
	CU_ASSERT(accepted("0 reduce 4 0 1 1\n1 reduce 2 5 1 0\n"));
	CU_ASSERT(accepted("0 allreduce 4 0 1\n1 allreduce 16 0 6\n"));
	CU_ASSERT(accepted("0 alltoall 2 16 0 6\n1 alltoall 4 5 1 1\n"));
	CU_ASSERT(accepted("0 allgather 2 16 0 6\n1 allgather 16 2 6 0\n"));
	CU_ASSERT(accepted("0 gather 2 16 0 0 6\n1 gather 16 1 0 6 6\n"));
	CU_ASSERT(accepted("0 scatter 16 2 1 6 0\n1 scatter 4 4 1 1 1\n"));
	CU_ASSERT(accepted("0 gatherv 2 16 4 0 0 6\n1 gatherv 1 0 0 0 1 6\n"));
	CU_ASSERT(accepted("0 scatterv 16 8 2 0 6 0\n1 scatterv 0 0 2 0 6 1\n"));
	CU_ASSERT(accepted("0 allgatherv 2 16 16 0 6\n1 allgatherv 4 4 4 1 1\n"));
	CU_ASSERT(accepted("0 alltoallv 0 1 2 0 8 16 0 6\n1 alltoallv 0 16 8 0 2 1 6 0\n"));
	CU_ASSERT(accepted("0 reducescatter 1 2 0 0\n1 reducescatter 8 16 0 6\n"));
	/* "init 1": counts without a datatype are doubles on that rank */
	CU_ASSERT(accepted("0 init 1\n0 bcast 2\n1 init\n1 bcast 16\n"));
	CU_ASSERT(refused("0 init 1\n0 bcast 2\n1 init\n1 bcast 2\n",
	                  "has a count of 2 bytes here but 16 bytes"));
}

/* A small deterministic generator (xorshift). */
static unsigned draw(uint64_t *s, unsigned n)
{
	*s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
	return (unsigned)(*s % n);
}

/* Brute force over every pair: what rank i sends rank j in collective k
 * (each rank's k-th action), *recv what j posted for it; 0 if no message. */
static int pair_bytes(const struct trace *t, long k, int i, int j, double *send, double *recv)
{
	int n = t->nranks;
	const struct trace_action *a = &t->act[t->first[i] + k], *b = &t->act[t->first[j] + k];
	int root = a->peer < 0 ? 0 : a->peer;
	double su = trace_bytes(t, i, a->dt1, 1), ru = trace_bytes(t, j, b->dt2, 1);
	const int64_t *cs = t->counts + a->aux, *cr = t->counts + b->aux;
	switch (a->op) {
	case TR_ALLTOALL:
	case TR_ALLGATHER: *send = a->a * su, *recv = b->b * ru; return 1;
	case TR_ALLTOALLV: *send = (double)cs[j] * su, *recv = (double)cr[n + i] * ru; return 1;
	case TR_ALLGATHERV: *send = a->a * su, *recv = (double)cr[i] * ru; return 1;
	case TR_GATHER: *send = a->a * su, *recv = b->b * ru; return j == root;
	case TR_GATHERV: *send = a->a * su, *recv = (double)cr[i] * ru; return j == root;
	case TR_SCATTER: *send = a->a * su, *recv = b->b * ru; return i == root;
	case TR_SCATTERV: *send = (double)cs[j] * su, *recv = b->b * ru; return i == root;
	default: return 0;
	}
}

/* The byte count of rank i at collective k that MPI wants equal on every
 * rank (element m of reducescatter's vector), or -1. */
static double equal_bytes(const struct trace *t, long k, int i, int m)
{
	const struct trace_action *a = &t->act[t->first[i] + k];
	double u = trace_bytes(t, i, a->dt1, 1);
	if (a->op == TR_BCAST || a->op == TR_REDUCE || a->op == TR_ALLREDUCE)
		return a->a * u;
	return a->op == TR_REDUCESCATTER ? (double)t->counts[a->aux + m] * u : -1;
}

/* Random traces of a few collectives whose ranks share a handful of count
 * vectors (so the checker works by groups): its verdict is the brute
 * force's, and a refusal names a pair (or two counts) that is wrong. */
static void test_collective_counts_random(void)
{
	const int ops[] = {TR_BCAST,      TR_REDUCE,  TR_ALLREDUCE, TR_ALLTOALL,
	                   TR_ALLTOALLV,  TR_GATHER,  TR_GATHERV,   TR_ALLGATHER,
	                   TR_ALLGATHERV, TR_SCATTER, TR_SCATTERV,  TR_REDUCESCATTER};
	const int dts[] = {6, 1, 0}; /* 1, 4 and 8 bytes */
	uint64_t s = 88172645463325252u;
	int verdicts[2] = {0, 0};
	for (int cases = 0; cases < 3000; cases++) {
		int n = 2 + (int)draw(&s, 6), op = ops[draw(&s, 12)], ncoll = 1 + (int)draw(&s, 3);
		int len = op == TR_ALLTOALLV ? 2 * n : n, root = (int)draw(&s, (unsigned)n);
		double pool[3][16];
		struct trace_builder *b = trace_builder_new(n, "t");
		for (int k = 0; k < ncoll; k++) {
			for (int p = 0; p < 3; p++) /* recvs larger, to pass often */
				for (int m = 0; m < len; m++)
					pool[p][m] = (op == TR_ALLTOALLV && m >= n ? 2 : 1) *
					             (double)(draw(&s, 3) + (draw(&s, 8) == 0));
			if (op == TR_REDUCESCATTER) /* bytes, ints, bytes but one */
				for (int m = 0; m < n; m++) {
					pool[0][m] = 4 * (double)(1 + draw(&s, 3));
					pool[1][m] = pool[0][m] / 4;
					pool[2][m] = pool[0][m] + (m == n - 1);
				}
			int np = 1 + (int)draw(&s, 3); /* vectors in use */
			for (int r = 0; r < n; r++) {
				struct trace_action a = {.op = (uint8_t)op,
				                         .dt1 = (uint8_t)dts[draw(&s, 3)],
				                         .dt2 = (uint8_t)dts[draw(&s, 3)],
				                         .peer = root,
				                         .a = 1 + draw(&s, 2),
				                         .b = 2 + draw(&s, 2)};
				int p = (int)draw(&s, (unsigned)np);
				if (op == TR_BCAST || op == TR_REDUCE || op == TR_ALLREDUCE ||
				    op == TR_REDUCESCATTER) { /* equal in bytes, mostly */
					a.dt1 = draw(&s, 2) ? 6 : 1;
					a.a = (a.dt1 == 6 ? 8 : 2) + (draw(&s, 10) == 0);
					p = a.dt1 == 1 ? 1 : draw(&s, 10) ? 0 : 2;
				}
				int v = op == TR_ALLTOALLV || op == TR_GATHERV ||
				        op == TR_ALLGATHERV || op == TR_SCATTERV ||
				        op == TR_REDUCESCATTER;
				CU_ASSERT_FATAL(trace_builder_add(b, r, &a, v ? pool[p] : NULL,
				                                  v ? len : 0) == 0);
			}
		}
		struct cmn_err e;
		struct trace *t = trace_builder_finish(b, &e);
		CU_ASSERT_FATAL(t != NULL);
		/* the first collective the brute force refuses */
		int bad = -1;
		for (int k = 0; k < ncoll && bad < 0; k++)
			for (int i = 0; i < n && bad < 0; i++)
				for (int j = 0; j < n && bad < 0; j++) {
					double x, y;
					if ((pair_bytes(t, k, i, j, &x, &y) && x > y) ||
					    equal_bytes(t, k, i, j) != equal_bytes(t, k, 0, j))
						bad = k;
				}
		int rc = trace_check(t, &e);
		verdicts[rc != 0]++;
		CU_ASSERT_EQUAL(rc, bad < 0 ? 0 : CMN_EINPUT);
		if (rc && bad >= 0) { /* the message names a wrong pair or two counts */
			int i, j, k, m, ok = 0;
			double x, y, px, py;
			char name[32];
			if (sscanf(e.msg,
			           "t:%*u: error: rank %d: collective #%d (%31[a-z]) sends %lf "
			           "bytes to "
			           "rank %d, which receives %lf",
			           &i, &k, name, &x, &j, &y) == 6)
				ok = k == bad + 1 && pair_bytes(t, bad, i, j, &px, &py) &&
				     px == x && py == y && x > y;
			else if (sscanf(
			             e.msg,
			             "t:%*u: error: rank %d: collective #%d (%31[a-z]) has a recv "
			             "count of %lf bytes for rank %d here but %lf bytes at t:%*u: "
			             "rank %d",
			             &i, &k, name, &x, &m, &y, &j) == 7)
				ok = k == bad + 1 && equal_bytes(t, bad, i, m) == x &&
				     equal_bytes(t, bad, j, m) == y && x != y;
			else if (sscanf(
			             e.msg,
			             "t:%*u: error: rank %d: collective #%d (%31[a-z]) has a count "
			             "of %lf bytes here but %lf bytes at t:%*u: rank %d",
			             &i, &k, name, &x, &y, &j) == 6)
				ok = k == bad + 1 && equal_bytes(t, bad, i, 0) == x &&
				     equal_bytes(t, bad, j, 0) == y && x != y;
			CU_ASSERT(ok);
			if (!ok)
				fprintf(stderr, "\n  collective #%d: %s\n", bad + 1, e.msg);
		} else if (rc)
			fprintf(stderr, "\n  refused: %s\n", e.msg);
		trace_free(t);
	}
	CU_ASSERT(verdicts[0] > 300 && verdicts[1] > 300); /* both kinds were tried */
}

/* A rank's actions end at its finalize; a deadlock (every rank blocked in
 * a cycle, a message awaited sent only later) is named as one. */
static void test_finalize_and_deadlock(void)
{
	CU_ASSERT(refused("0 init\n1 init\n0 finalize\n0 send 1 0 10\n1 recv 0 0 10\n",
	                  ".txt:4: error: rank 0: send after finalize (line 3)"));
	CU_ASSERT(refused("0 init\n0 finalize\n0 finalize\n", ":3: error: rank 0: finalize after "
	                                                      "finalize (line 2)"));
	CU_ASSERT(accepted("0 init\n1 init\n0 send 1 0 10\n0 finalize\n1 recv 0 0 10\n"
	                   "# a comment\n\n1 finalize\n"));
	CU_ASSERT(refused("0 recv 1 0 10\n0 send 1 0 10\n1 recv 0 0 10\n1 send 0 0 10\n",
	                  ":1: error: rank 0: deadlock of 2 ranks: blocked in recv from 1 tag 0, "
	                  "it waits for rank 1, blocked in recv from 0 tag 0 at "));
	CU_ASSERT(refused("0 recv 1 0 10\n0 send 1 0 10\n1 recv 0 0 10\n1 send 0 0 10\n",
	                  ":3: rank 1, which waits for rank 0; rank 1 sends what rank 0 waits for "
	                  "only later, at "));
	/* three ranks; rank 1 waits in a wait, rank 2 in a barrier */
	CU_ASSERT(refused("0 recv 2 0 8\n1 irecv 0 0 8\n1 wait 0 1 0\n1 barrier\n2 barrier\n"
	                  "2 send 0 0 8\n",
	                  "deadlock of 2 ranks: blocked in recv from 2 tag 0, it waits for rank "
	                  "2, blocked in collective #1 (barrier) at "));
	CU_ASSERT(refused("0 recv 1 0 8\n0 send 1 0 8\n1 irecv 0 0 8\n1 wait 0 1 0\n1 send 0 0 8\n",
	                  "blocked in wait for the irecv from 0 tag 0 at "));
	/* no send anywhere: still a recv that nothing matches */
	CU_ASSERT(refused("0 recv 1 0 10\n1 recv 0 0 10\n",
	                  ":1: error: rank 0: recv from 1 tag 0 is never matched by a send"));
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
			for (int q = 0; q < ranks[r] * ranks[r]; q++) {
				int a = q / ranks[r], b = q % ranks[r];
				double b3 = trace_stats_bytes(&s3, a, b);
				CU_ASSERT_DOUBLE_EQUAL(trace_stats_bytes(&s1, a, b),
				                       b3 - trace_stats_bytes(&s2, a, b),
				                       1e-9 * (1 + b3));
			}
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
	CU_add_test(s, "collective senders from the algorithm", test_sources);
	CU_add_test(s, "traffic matrix balance", test_matrix_balance);
	CU_add_test(s, "matching pass semantics", test_matching_semantics);
	CU_add_test(s, "collectives' counts agree between ranks", test_collective_counts);
	CU_add_test(s, "collectives' counts: random traces against brute force",
	            test_collective_counts_random);
	CU_add_test(s, "actions after finalize, deadlocks", test_finalize_and_deadlock);
	CU_add_test(s, "numbers of trace fields", test_numbers);
	CU_add_test(s, "limits of sizes and amounts in memory", test_limits);
	CU_add_test(s, "requests in place, 300,000 pending", test_requests_in_place);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

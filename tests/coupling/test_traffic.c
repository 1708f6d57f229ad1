/* The compressed per-iteration traffic (coupling/linkload/traffic.h) against the
 * matrices of trace_stats for the two- and one-iteration traces:
 * every kernel, rank counts where the generators change pattern (powers of
 * two, primes, FT's 1-D and 2-D layouts), equal to the last bit; and a
 * matrix round trip. */
#include <stdlib.h>
#include <string.h>

#include "../../coupling/linkload/traffic.h"
#include "../../coupling/profiles/jobprof.h"
#include "../helpers.h"
#include "cpl_helpers.h"
#include "trace_stats.h"

static void stats(const struct cpl_profiles *pr, int k, int n, int iters, struct trace_stats *s)
{
	struct trace *t;
	int recorded;
	struct cmn_err e;
	CU_ASSERT_FATAL(cpl_profiles_trace(pr, k, n, iters, &t, &recorded, &e) == 0);
	CU_ASSERT_FATAL(trace_stats_compute(t, s, &e) == 0);
	trace_free(t);
}

/* Mismatching pairs and ranks of kernel k on n ranks (0: equal). */
static long compare(const struct cpl_profiles *pr, int k, int n, int *dense_used)
{
	struct trace_stats two, one;
	stats(pr, k, n, 2, &two);
	stats(pr, k, n, 1, &one);
	struct cpl_traffic t;
	struct cmn_err e;
	CU_ASSERT_FATAL(cpl_traffic_profile(pr, k, n, &t, &e) == 0);
	long bad = 0;
	double pairs = 0;
	for (int a = 0; a < n; a++) {
		double f = two.rank[a].flops - one.rank[a].flops;
		bad += t.flops[a] != (f > 0 ? f : 0);
		for (int b = 0; b < n; b++) {
			double d = trace_stats_bytes(&two, a, b) - trace_stats_bytes(&one, a, b);
			d = a != b && d > 0 ? d : 0;
			bad += cpl_traffic_bytes(&t, a, b) != d;
			pairs += d > 0;
		}
	}
	bad += cpl_traffic_pairs(&t) != pairs;
	*dense_used |= t.all_row != NULL;
	cpl_traffic_free(&t);
	trace_stats_free(&two);
	trace_stats_free(&one);
	return bad;
}

static void test_kernels(void)
{
	static const int sizes[] = {1, 2, 3, 4, 7, 16, 17, 36, 64, 100, 128, 131, 144, 256};
	struct cpl_profiles *pr = cpl_test_profiles("kernels=cg/mg/ft/is/lu/ep/bt/sp/none,class=A");
	int dense_used = 0;
	for (int k = 0; k < cpl_profiles_count(pr); k++)
		for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
			long bad = compare(pr, k, sizes[i], &dense_used);
			if (bad)
				fprintf(stderr, "%s on %d ranks: %ld values differ\n",
				        cpl_profiles_name(pr, k), sizes[i], bad);
			CU_ASSERT(bad == 0);
		}
	CU_ASSERT(dense_used); /* IS's and FT's all-to-all in the dense part */
	cpl_profiles_free(pr);
}

static int same_array(const void *a, const void *b, size_t bytes)
{
	return (!a && !b) || (a && b && !memcmp(a, b, bytes));
}

/* The run with two iterations alone (kernels whose runs allow it) gives
 * what the two runs give, array by array to the last bit: every kernel,
 * classes S, A and C. */
static void test_one_pass(void)
{
	static const int sizes[] = {1, 2, 5, 8, 9, 16, 31, 32, 49, 64, 128, 130};
	for (const char *kvs = "class=S\0class=A\0class=C\0"; *kvs; kvs += strlen(kvs) + 1) {
		char spec[128];
		snprintf(spec, sizeof spec, "kernels=cg/mg/ft/is/lu/ep/bt/sp/none,%s", kvs);
		struct cpl_profiles *pr = cpl_test_profiles(spec);
		for (int k = 0; k < cpl_profiles_count(pr); k++)
			for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
				int n = sizes[i];
				if (*kvs == 'C' && (n > 64 || (k == 3 && n > 16)))
					continue; /* IS class C: 2^27 keys */
				struct cpl_traffic a, b;
				struct cmn_err e;
				int ra = cpl_traffic_profile_runs(pr, k, n, 1, &a, &e),
				    rb = cpl_traffic_profile_runs(pr, k, n, 2, &b, &e);
				CU_ASSERT(ra == rb);
				if (ra || rb)
					continue; /* a count the generator refuses */
				size_t z = (size_t)n * sizeof(double);
				long nnz = a.row[n];
				int same =
				    a.nranks == b.nranks && b.row[n] == nnz &&
				    same_array(a.flops, b.flops, z) &&
				    same_array(a.row, b.row, ((size_t)n + 1) * sizeof *a.row) &&
				    same_array(a.col, b.col, (size_t)nnz * sizeof *a.col) &&
				    same_array(a.bytes, b.bytes, (size_t)nnz * sizeof *a.bytes) &&
				    same_array(a.all_row, b.all_row, z) &&
				    same_array(a.all_mult, b.all_mult, z) &&
				    same_array(a.all_col, b.all_col, z);
				if (!same)
					fprintf(stderr, "%s.%s.%d: one pass differs\n",
					        cpl_profiles_name(pr, k), kvs, n);
				CU_ASSERT(same);
				cpl_traffic_free(&a);
				cpl_traffic_free(&b);
			}
		cpl_profiles_free(pr);
	}
}

/* The generators' description of an iteration (gen.h's pairs, what the
 * linkload model's memory bound counts: ll_cost.h) against the traffic:
 * at least its pairs, the pairs of a dense part of every pair listed only
 * where they carry more than its share (LISTED_PER_RANK: at most 4 per
 * rank), the sets' pairs among the pairs; within 8 times the pairs (plus
 * 12 per rank: MG's ranks without points on small classes) so that the
 * bound stays one with margin. */
static void check_pairs(const struct cpl_profiles *pr, int k, int n)
{
	struct cpl_traffic t;
	struct cmn_err e;
	if (cpl_traffic_profile(pr, k, n, &t, &e)) /* a count the generator refuses */
		return;
	struct trace_gen_sets sets;
	double pairs = cpl_traffic_pairs(&t), bound = cpl_profiles_pairs(pr, k, n, &sets),
	       in_sets = 0;
	int whole = 0;
	for (int i = 0; i < sets.n; i++) {
		in_sets += sets.set[i].count * sets.set[i].size * (sets.set[i].size - 1.0);
		whole |= sets.set[i].size == n;
	}
	int ok = bound >= pairs && bound <= 8 * pairs + 12.0 * n && in_sets <= bound &&
	         (!whole || n < 2 || (t.all_row && t.row[n] <= 4.0 * n));
	if (!ok)
		fprintf(stderr, "%s.%c.%d: %.0f pairs, bound %.0f (%.0f in sets), %ld listed\n",
		        cpl_profiles_name(pr, k), cpl_profiles_class(pr), n, pairs, bound, in_sets,
		        t.row[n]);
	CU_ASSERT(ok);
	cpl_traffic_free(&t);
}

static void test_pairs(void)
{
	static const int sizes[] = {1,   2,   3,   4,   5,   7,   8,   9,    16,   17,
	                            27,  30,  36,  60,  64,  100, 128, 129,  130,  131,
	                            144, 210, 256, 500, 512, 513, 600, 1000, 1024, 2990};
	static const char *classes[] = {"S", "A", "C"};
	for (size_t c = 0; c < sizeof classes / sizeof *classes; c++) {
		char kvs[96];
		snprintf(kvs, sizeof kvs, "kernels=cg/mg/ft/is/lu/ep/bt/sp/none,class=%s",
		         classes[c]);
		struct cpl_profiles *pr = cpl_test_profiles(kvs);
		for (int k = 0; k < cpl_profiles_count(pr); k++)
			for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
				if (c < 2 || sizes[i] <= 600) /* C: FT's 1-D and 2-D layouts */
					check_pairs(pr, k, sizes[i]);
		cpl_profiles_free(pr);
	}
}

static void test_matrix(void)
{
	double m[9] = {5, 1, 0, 0, 0, 2, 3, -1, 0}, f[3] = {1, 2, 3};
	struct cpl_traffic t;
	struct cmn_err e;
	CU_ASSERT_FATAL(cpl_traffic_from_matrix(3, m, f, &t, &e) == 0);
	CU_ASSERT(cpl_traffic_pairs(&t) == 3);
	CU_ASSERT(cpl_traffic_bytes(&t, 0, 0) == 0); /* the diagonal dropped */
	CU_ASSERT(cpl_traffic_bytes(&t, 0, 1) == 1);
	CU_ASSERT(cpl_traffic_bytes(&t, 1, 2) == 2);
	CU_ASSERT(cpl_traffic_bytes(&t, 2, 0) == 3);
	CU_ASSERT(cpl_traffic_bytes(&t, 2, 1) == 0);
	CU_ASSERT(t.flops[2] == 3);
	cpl_traffic_free(&t);
}

/* A profile the generator refuses (LU on 26 ranks of class S: 2 x 13
 * ranks for 12 x 12 points, a column of ranks with no point) is refused
 * with the generator's message, not turned into an empty traffic. */
static void test_generator_refusal(void)
{
	struct cpl_profiles *pr = cpl_test_profiles("kernels=lu,class=S");
	struct cpl_traffic t;
	struct cmn_err e;
	CU_ASSERT(cpl_traffic_profile(pr, 0, 26, &t, &e) != 0);
	CU_ASSERT(strstr(e.msg, "lu.S.26: 26 ranks make a 2 x 13 process grid, wider than the "
	                        "class's 12 points") != NULL);
	CU_ASSERT(t.flops == NULL);
	CU_ASSERT_FATAL(cpl_traffic_profile(pr, 0, 24, &t, &e) == 0); /* 4 x 6 */
	cpl_traffic_free(&t);
	cpl_profiles_free(pr);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("traffic", NULL, NULL);
	CU_add_test(s, "every kernel equal to the dense matrices", test_kernels);
	CU_add_test(s, "from a matrix", test_matrix);
	CU_add_test(s, "one run where the kernel allows = two runs", test_one_pass);
	CU_add_test(s, "the generators' pairs bound the traffic's", test_pairs);
	CU_add_test(s, "a profile the generator refuses", test_generator_refusal);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

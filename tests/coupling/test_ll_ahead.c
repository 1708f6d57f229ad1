/* The linkload model's profiles computed ahead by worker threads
 * (ll_ahead.h): what is taken is what the model computes itself, to the
 * last bit, whichever thread computed it and whatever the order of takes;
 * each listed profile once, or left to the model when no worker started
 * it. */
#include <string.h>

#include "../../coupling/linkload/ll_ahead.h"
#include "../helpers.h"
#include "cpl_helpers.h"
#include "platform.h"

static int same_traffic(const struct cpl_traffic *a, const struct cpl_traffic *b)
{
	int n = a->nranks;
	long nnz = a->row[n];
	if (b->nranks != n || b->row[n] != nnz || !a->all_row != !b->all_row)
		return 0;
	size_t z = (size_t)n * sizeof(double);
	return !memcmp(a->flops, b->flops, z) &&
	       !memcmp(a->row, b->row, ((size_t)n + 1) * sizeof *a->row) &&
	       !memcmp(a->col, b->col, (size_t)nnz * sizeof *a->col) &&
	       !memcmp(a->bytes, b->bytes, (size_t)nnz * sizeof *a->bytes) &&
	       (!a->all_row ||
	        (!memcmp(a->all_row, b->all_row, z) && !memcmp(a->all_mult, b->all_mult, z) &&
	         !memcmp(a->all_col, b->all_col, z)));
}

/* Takes every listed profile in a scrambled order and compares it with the
 * profile computed here (the model's own way). */
static void take_all(int workers, double budget)
{
	enum { N = 12 };
	static const int kernel[N] = {0, 1, 2, 3, 0, 1, 0, 2, 3, 1, 0, 2};
	static const int ranks[N] = {16, 16, 8, 33, 16, 12, 64, 27, 8, 16, 5, 8};
	static const int order[N] = {3, 0, 9, 7, 11, 1, 6, 2, 10, 5, 4, 8};
	struct cpl_profiles *pr = cpl_test_profiles("kernels=is/ft/cg/mg,class=S");
	struct plat_machine *m;
	struct cmn_err e;
	CU_ASSERT_FATAL(plat_machine_create("kary-ntree:k=4,n=3", &m, &e) == 0);
	struct cpl_linkload *ll;
	CU_ASSERT_FATAL(cpl_linkload_create(m, &ll, &e) == 0);
	struct ll_ahead *a;
	CU_ASSERT_FATAL(cpl_ll_ahead_create(pr, m, workers, kernel, ranks, N, budget, &a, &e) == 0);
	int taken = 0;
	for (int i = 0; i < N; i++) {
		int j = order[i];
		struct cpl_traffic got, want;
		double t_got = -1, t_want = -2;
		int rc = cpl_ll_ahead_take(a, kernel[j], ranks[j], &got, &t_got, &e);
		CU_ASSERT(rc == 0 || rc == 1);
		if (rc != 1)
			continue;
		taken++;
		CU_ASSERT_FATAL(
		    cpl_ll_ahead_profile(pr, m, ll, kernel[j], ranks[j], &want, &t_want, &e) == 0);
		CU_ASSERT(same_traffic(&got, &want));
		CU_ASSERT(t_got == t_want);
		cpl_traffic_free(&got);
		cpl_traffic_free(&want);
		struct cpl_traffic again;
		CU_ASSERT(cpl_ll_ahead_take(a, kernel[j], ranks[j], &again, &t_got, &e) == 0);
	}
	struct cpl_traffic none;
	double t;
	CU_ASSERT(cpl_ll_ahead_take(a, 1, 40, &none, &t, &e) == 0); /* not listed */
	CU_ASSERT(taken <= 9);                                      /* 9 distinct profiles */
	cpl_ll_ahead_destroy(a);
	cpl_linkload_destroy(ll);
	plat_machine_destroy(m);
	cpl_profiles_free(pr);
}

static void test_same(void)
{
	take_all(1, 1e9);
	take_all(3, 1e9);
}

/* Budgets of one byte (a profile ahead at a time: takes of profiles no
 * worker started say so, the model computes them) and of nothing. */
static void test_budget(void)
{
	take_all(2, 1);
	take_all(1, 0);
}

/* Destroyed with profiles computed and not taken, and while workers run. */
static void test_destroy(void)
{
	static const int kernel[3] = {0, 1, 2}, ranks[3] = {64, 64, 64};
	struct cpl_profiles *pr = cpl_test_profiles("kernels=is/ft/cg,class=S");
	struct plat_machine *m;
	struct cmn_err e;
	CU_ASSERT_FATAL(plat_machine_create("kary-ntree:k=4,n=3", &m, &e) == 0);
	struct ll_ahead *a;
	CU_ASSERT_FATAL(cpl_ll_ahead_create(pr, m, 2, kernel, ranks, 3, 1e9, &a, &e) == 0);
	cpl_ll_ahead_destroy(a);
	cpl_ll_ahead_destroy(NULL);
	plat_machine_destroy(m);
	cpl_profiles_free(pr);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("ll_ahead", NULL, NULL);
	CU_add_test(s, "taken = computed by the model", test_same);
	CU_add_test(s, "small budgets", test_budget);
	CU_add_test(s, "destroyed while working", test_destroy);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

/* common/mt19937.h draws GSL's gsl_rng_mt19937 numbers, draw for draw:
 * words, gsl_rng_uniform and gsl_rng_uniform_int (n of 1, 2, 3, 63, a
 * power of two, 2^31 + 1 and 2^32 - 1, where the redraws differ most),
 * for seed 0 (GSL's default 4357), 1, 5489 and 2^32 - 1, over several
 * refills of the state; a seed past 32 bits is taken modulo 2^32 as GSL
 * does. */
#include <gsl/gsl_rng.h>

#include "../helpers.h"
#include "mt19937.h"

static void check_seed(unsigned long seed)
{
	gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
	CU_ASSERT_FATAL(g != NULL);
	gsl_rng_set(g, seed);
	struct cmn_mt r;
	cmn_mt_seed(&r, seed);
	static const unsigned long ns[] = {1, 2, 3, 63, 1024, 2147483649UL, 4294967295UL};
	long bad = 0;
	for (int i = 0; i < 5000; i++) {
		bad += gsl_rng_get(g) != cmn_mt_next(&r);
		bad += gsl_rng_uniform(g) != cmn_mt_uniform(&r);
		for (size_t k = 0; k < sizeof ns / sizeof *ns; k++)
			bad += gsl_rng_uniform_int(g, ns[k]) != cmn_mt_uniform_int(&r, ns[k]);
	}
	CU_ASSERT_EQUAL(bad, 0);
	gsl_rng_free(g);
}

static void test_same_draws(void)
{
	check_seed(0);
	check_seed(1);
	check_seed(5489);
	check_seed(4294967295UL);
	check_seed(4294967296UL + 7);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("mt19937", NULL, NULL);
	CU_add_test(s, "GSL's mt19937 draws, word for word", test_same_draws);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

/* The time per job index (jobsched/sched/time_index.h): the first due index and
 * the least time against a walk over the same times, through random sets
 * with ties, none (NAN, INFINITY) and sizes that are not powers of two. */
#include <math.h>
#include <stdlib.h>

#include "../../jobsched/sched/time_index.h"
#include "../helpers.h"

static unsigned next(unsigned *x)
{
	*x = *x * 1103515245u + 12345u;
	return *x >> 8;
}

static void test_against_walk(void)
{
	unsigned x = 11;
	long checks = 0, due = 0;
	for (int round = 0; round < 80; round++) {
		int n = 1 + (int)(next(&x) % (round < 30 ? 20 : 2000));
		double *t = malloc((size_t)n * sizeof *t);
		struct js_tindex ti;
		CU_ASSERT_FATAL(t && js_tindex_init(&ti, n) == 0);
		for (int j = 0; j < n; j++)
			t[j] = INFINITY;
		for (int step = 0; step < 3 * n; step++) {
			int j = (int)(next(&x) % (unsigned)n);
			unsigned u = next(&x) % 10;
			t[j] = u == 0 ? NAN : u == 1 ? INFINITY : (double)(next(&x) % 100);
			js_tindex_set(&ti, j, t[j]);
			double now = (double)(next(&x) % 110), least = INFINITY;
			int first = -1;
			for (int k = 0; k < n; k++) {
				if (first < 0 && t[k] <= now)
					first = k;
				if (t[k] < least)
					least = t[k];
			}
			CU_ASSERT_EQUAL(js_tindex_first_due(&ti, now), first);
			CU_ASSERT_EQUAL(js_tindex_min(&ti), least);
			checks++;
			due += first >= 0;
		}
		js_tindex_free(&ti);
		free(t);
	}
	CU_ASSERT(due > checks / 4 && due < checks); /* both answers were exercised */
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("time_index", NULL, NULL);
	CU_add_test(s, "first due and least time against a walk", test_against_walk);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

/* The queued jobs by index (jobsched/sched/queue_index.h): every search against a
 * walk over the same jobs, on random queues of many shapes. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "../../jobsched/sched/queue_index.h"
#include "../helpers.h"

/* The first queued j >= from passing the test, by a walk. */
static int walk(const int *size, const double *req, const char *queued, int n, int from, int fit,
                int small, double now, double until)
{
	for (int j = from < 0 ? 0 : from; j < n; j++)
		if (queued[j] && size[j] <= fit && (size[j] <= small || now + req[j] <= until))
			return j;
	return -1;
}

static unsigned next(unsigned *x)
{
	*x = *x * 1103515245u + 12345u;
	return *x >> 8;
}

static void test_against_walk(void)
{
	unsigned x = 7;
	long searches = 0, found = 0;
	for (int round = 0; round < 60; round++) {
		int n = 1 + (int)(next(&x) % (round < 20 ? 40 : 3000));
		int *size = malloc((size_t)n * sizeof *size);
		double *req = malloc((size_t)n * sizeof *req);
		char *queued = calloc((size_t)n, 1);
		struct js_qindex q;
		CU_ASSERT_FATAL(size && req && queued && js_qindex_init(&q, n) == 0);
		int maxsize = 1 + (int)(next(&x) % 500);
		for (int step = 0; step < 4 * n; step++) {
			int j = (int)(next(&x) % (unsigned)n);
			if (queued[j] && next(&x) % 2) {
				queued[j] = 0;
				js_qindex_clear(&q, j);
			} else {
				queued[j] = 1;
				size[j] = 1 + (int)(next(&x) % (unsigned)maxsize);
				/* whole and fractional times, ties among them */
				req[j] = (double)(next(&x) % 50) * (next(&x) % 3 ? 1.0 : 0.37);
				js_qindex_set(&q, j, size[j], req[j]);
			}
			int from = (int)(next(&x) % (unsigned)(n + 2)) - 1;
			/* mostly few free nodes and a near shadow, as in a congested queue */
			unsigned span =
			    next(&x) % 4 ? (unsigned)maxsize / 40 + 2 : (unsigned)maxsize + 2;
			int fit = (int)(next(&x) % span);
			int small = (int)(next(&x) % span) - 1;
			double now = (double)(next(&x) % 1000) * 0.1;
			double until = now + (double)(next(&x) % 4) * (next(&x) % 2 ? 1.0 : 0.37);
			int want = walk(size, req, queued, n, from, fit, small, now, until);
			int got = js_qindex_find(&q, from, fit, small, now, until);
			CU_ASSERT_EQUAL(got, want);
			if (got != want)
				fprintf(stderr,
				        "\n  n %d from %d fit %d small %d: got %d, want %d\n", n,
				        from, fit, small, got, want);
			searches++;
			found += want >= 0;
		}
		js_qindex_free(&q);
		free(size);
		free(req);
		free(queued);
	}
	/* the searches found jobs and missed them, both often */
	CU_ASSERT(found > searches / 10 && found < searches * 9 / 10);
	if (!(found > searches / 10 && found < searches * 9 / 10))
		fprintf(stderr, "\n  %ld of %ld searches found a job\n", found, searches);
}

/* Edge cases: an empty index, one job, the last index, a time of infinity. */
static void test_edges(void)
{
	struct js_qindex q;
	CU_ASSERT_FATAL(js_qindex_init(&q, 5) == 0);
	CU_ASSERT_EQUAL(js_qindex_find(&q, 0, INT_MAX, INT_MAX, 0, INFINITY), -1);
	js_qindex_set(&q, 4, 3, 10);
	CU_ASSERT_EQUAL(js_qindex_find(&q, 0, 3, 0, 0, 10), 4);  /* ends in time */
	CU_ASSERT_EQUAL(js_qindex_find(&q, 0, 3, 3, 5, 10), 4);  /* small enough */
	CU_ASSERT_EQUAL(js_qindex_find(&q, 0, 3, 2, 5, 10), -1); /* neither */
	CU_ASSERT_EQUAL(js_qindex_find(&q, 0, 2, 3, 0, 10), -1); /* too large */
	CU_ASSERT_EQUAL(js_qindex_find(&q, 5, 3, 3, 0, 10), -1); /* from past the end */
	CU_ASSERT_EQUAL(js_qindex_find(&q, 0, 3, 0, 0, INFINITY), 4);
	js_qindex_set(&q, 0, 3, INFINITY); /* a job with no limit ends in time never */
	CU_ASSERT_EQUAL(js_qindex_find(&q, 0, 3, 0, 0, 1e300), 4);
	js_qindex_clear(&q, 4);
	CU_ASSERT_EQUAL(js_qindex_find(&q, 0, 3, 3, 0, 10), 0);
	js_qindex_free(&q);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("queue index", NULL, NULL);
	CU_add_test(s, "every search as a walk finds it", test_against_walk);
	CU_add_test(s, "edges", test_edges);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

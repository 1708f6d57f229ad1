/* The memo of failed what-if placements (jobsched/sched/fail_memo.h)
 * against a plain list of the same pairs: never a pair it was not given
 * (bitmaps one bit apart, the same bitmap for another job), every pair it
 * was given until its budget makes it start again, through growth and
 * restarts, on bitmaps of one word and of several. */
#include <stdlib.h>
#include <string.h>

#include "../../jobsched/sched/fail_memo.h"
#include "../helpers.h"

static unsigned next(unsigned *x)
{
	*x = *x * 1103515245u + 12345u;
	return *x >> 8;
}

/* One round: `pairs` random (job, bitmap) pairs over few jobs and bitmaps
 * that often differ in a single bit, added then asked again. */
static void round_of(int nodes, size_t budget, int pairs, unsigned seed)
{
	struct js_fail_memo m;
	js_fail_memo_init(&m, nodes, budget);
	size_t w = m.words;
	uint64_t *bits = calloc((size_t)pairs * w, sizeof *bits), *q = calloc(w, sizeof *q);
	int *job = malloc((size_t)pairs * sizeof *job);
	CU_ASSERT_FATAL(bits && q && job);
	unsigned x = seed;
	long known = 0;
	for (int i = 0; i < pairs; i++) {
		uint64_t *b = bits + (size_t)i * w;
		if (i > 0 && next(&x) % 2) /* one bit away from an earlier pair */
			memcpy(b, bits + (size_t)(next(&x) % (unsigned)i) * w, w * sizeof *b);
		int bit = (int)(next(&x) % (unsigned)nodes);
		b[bit / 64] ^= UINT64_C(1) << (bit % 64);
		job[i] = (int)(next(&x) % 4);
		/* was this pair given before? (the list decides) */
		int before = 0;
		for (int k = 0; k < i && !before; k++)
			before =
			    job[k] == job[i] && memcmp(bits + (size_t)k * w, b, w * sizeof *b) == 0;
		uint64_t h = js_fail_memo_hash(&m, job[i], b);
		int says = js_fail_memo_known(&m, h, job[i], b);
		if (!before)
			CU_ASSERT_EQUAL(says, 0); /* never a pair it was not given */
		if (!m.resets)
			CU_ASSERT_EQUAL(says, before); /* without a restart, every pair it was */
		known += says;
		js_fail_memo_add(&m, h, job[i], b);
		CU_ASSERT(js_fail_memo_known(&m, h, job[i], b)); /* just added */
		memcpy(q, b, w * sizeof *q);                     /* another job, a bit off */
		CU_ASSERT_EQUAL(
		    js_fail_memo_known(&m, js_fail_memo_hash(&m, job[i] + 4, q), job[i] + 4, q), 0);
		q[0] ^= 2;
		int same = 0;
		for (int k = 0; k <= i && !same; k++)
			same =
			    job[k] == job[i] && memcmp(bits + (size_t)k * w, q, w * sizeof *q) == 0;
		if (!same)
			CU_ASSERT_EQUAL(
			    js_fail_memo_known(&m, js_fail_memo_hash(&m, job[i], q), job[i], q), 0);
	}
	CU_ASSERT(known > 0); /* repeats were asked and found */
	js_fail_memo_free(&m);
	free(bits);
	free(q);
	free(job);
}

static void test_against_list(void)
{
	round_of(64, 1 << 20, 3000, 3);    /* one word: grows, no restart */
	round_of(1000, 1 << 22, 3000, 5);  /* 16 words */
	round_of(100, 1 << 10, 5000, 7);   /* a tiny budget: restarts */
	round_of(130, 1 << 16, 20000, 11); /* grows, then restarts */
}

static void test_restarts_counted(void)
{
	struct js_fail_memo m;
	js_fail_memo_init(&m, 64, 1);
	uint64_t b = 0;
	for (int i = 0; i < 5000; i++) {
		b = (uint64_t)i;
		js_fail_memo_add(&m, js_fail_memo_hash(&m, 0, &b), 0, &b);
	}
	CU_ASSERT(m.resets > 0);
	CU_ASSERT(m.t.n <= m.most && m.t.cap <= 2 * m.most); /* within its bound */
	CU_ASSERT(2 * m.t.n <= m.t.cap);
	js_fail_memo_free(&m);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("fail_memo", NULL, NULL);
	CU_add_test(s, "the pairs given, no others, against a list", test_against_list);
	CU_add_test(s, "a full memo starts again", test_restarts_counted);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

/* apptraces at size: the costs that grow with a trace's ranks stay
 * linear in what the trace holds (each case below took minutes, or did not
 * fit in memory, when one of them grew with ranks^2; the ctest TIMEOUT of
 * this test catches a return to that). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../helpers.h"
#include "trace.h"
#include "trace_stats.h"

/* A ring of n ranks as trace text: each sends 8 bytes to the next and
 * receives from the one before (malloc'ed). */
static char *ring(int n)
{
	char *text = malloc((size_t)n * 96);
	size_t len = 0;
	for (int r = 0; text && r < n; r++)
		len += (size_t)sprintf(text + len,
		                       "%d isend %d 0 8\n%d recv %d 0 8\n%d wait %d %d 0\n", r,
		                       (r + 1) % n, r, (r + n - 1) % n, r, r, (r + 1) % n);
	return text;
}

static struct trace *load_text(const char *text)
{
	char *p = th_write_temp(text, ".txt");
	struct trace *t = NULL;
	struct cmn_err e;
	int rc = p ? trace_load(p, &t, &e) : -1;
	if (rc > 0)
		fprintf(stderr, "\n  %s\n", e.msg);
	if (p)
		th_free_temp(p);
	return rc ? NULL : t;
}

/* A trace of 30,000 ranks written and read back: the rank files' folder
 * is looked through once for stale temporaries, not at every file (that
 * took 160 s for 30,000; this test's ctest TIMEOUT catches it). */
static void test_write_many_ranks(void)
{
	enum { N = 30000 };
	char *text = malloc((size_t)N * 24), dir[] = "/tmp/placesim-wide-XXXXXX", index[300];
	CU_ASSERT_FATAL(text != NULL && mkdtemp(dir) != NULL);
	size_t len = 0;
	for (int r = 0; r < N; r++)
		len += (size_t)sprintf(text + len, "%d compute 1\n", r);
	struct trace *t = load_text(text), *back = NULL;
	free(text);
	struct cmn_err e;
	CU_ASSERT_FATAL(t != NULL);
	CU_ASSERT_FATAL(trace_write(t, dir, "t", &e) == 0);
	snprintf(index, sizeof index, "%s/t.txt", dir);
	CU_ASSERT_FATAL(trace_load(index, &back, &e) == 0);
	CU_ASSERT(back->nranks == N && back->first[N] == N);
	trace_free(t);
	trace_free(back);
	char cmd[100];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CU_ASSERT(system(cmd) == 0);
}

/* The statistics of a ring of 200,000 ranks: 200,000 pairs in the traffic
 * matrix, kept as pairs (three dense matrices of 200,000^2 entries could
 * not be allocated: "out of memory"; at 32,768 ranks they took 5.2 s of
 * page faults where the pairs take 1 s). */
static void test_stats_sparse(void)
{
	enum { N = 200000 };
	char *text = ring(N);
	CU_ASSERT_FATAL(text != NULL);
	struct trace *t = load_text(text);
	free(text);
	CU_ASSERT_FATAL(t != NULL);
	struct trace_stats s;
	struct cmn_err e;
	int rc = trace_stats_compute(t, &s, &e);
	if (rc)
		fprintf(stderr, "\n  %s\n", e.msg);
	CU_ASSERT_FATAL(rc == 0);
	CU_ASSERT_EQUAL(s.npairs, N);
	CU_ASSERT_EQUAL(s.total.peers, 1);
	CU_ASSERT(trace_stats_bytes(&s, N - 1, 0) == 8 && trace_stats_bytes(&s, 0, N - 1) == 0);
	const struct trace_pair *q = trace_stats_pair(&s, 12345, 12346);
	CU_ASSERT(q && q->p2p == 8 && q->p2p_count == 1 && q->bytes == 8);
	trace_stats_free(&s);
	trace_free(t);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("apptraces at size", NULL, NULL);
	CU_add_test(s, "a trace of 30,000 ranks written", test_write_many_ranks);
	CU_add_test(s, "statistics of 200,000 ranks as pairs", test_stats_sparse);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

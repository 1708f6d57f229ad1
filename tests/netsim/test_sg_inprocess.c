/* The s4u engine's evaluations in the calling process (netsim.h's
 * in_process) against the forked ones: the same job times (up to the
 * rounding of SimGrid's running clock) over a sequence of evaluations of
 * one job, two jobs together and the first again, with no child process
 * (counted by SIGCHLD) where forked ones make one each; a deadlocking trace
 * in the sequence is reported unfinished and the evaluations after it
 * (forked again) still give the same times. Each engine lives in a child process
 * (SimGrid allows one per process). */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../helpers.h"
#include "gen.h"
#include "netsim.h"
#include "xml_write.h"

#define MACHINE "kary-ntree:k=4,n=2"
#define NRES    6 /* four times, the deadlocked one, the child processes seen */

/* Whether the evaluation just made forked a child: consumes its SIGCHLD
 * (blocked in the test's child process, so it stays pending until here). */
static int forked_one(const sigset_t *chld)
{
	struct timespec zero = {0, 0};
	return sigtimedwait(chld, NULL, &zero) == SIGCHLD;
}

static struct trace *one_iteration(const char *kernel)
{
	struct trace *t;
	struct cmn_err e;
	int exact;
	if (trace_generate_one(kernel, 'S', 4, 1, &t, &exact, &e))
		_exit(3);
	return t;
}

static struct trace *trace_of(const char *text)
{
	char *path = th_write_temp(text, ".txt");
	struct trace *t;
	struct cmn_err e;
	if (trace_load(path, &t, &e))
		_exit(3);
	th_free_temp(path);
	return t;
}

struct run_args {
	int in_process, deadlock;
};

/* run's child: the engine and the evaluations; their finish times into fd. */
static void run_child(void *ctx, int fd)
{
	int in_process = ((const struct run_args *)ctx)->in_process;
	int deadlock = ((const struct run_args *)ctx)->deadlock;
	struct plat_machine *m;
	struct cmn_err e;
	char xml[] = "/tmp/placesim-inproc-XXXXXX";
	int x = mkstemp(xml);
	struct plat_xml_opts xo = {"SPLITDUPLEX", "test", NULL};
	if (x < 0 || plat_machine_create(MACHINE, &m, &e) || plat_xml_write(m, &xo, xml, &e))
		_exit(2);
	close(x);
	const char *params;
	const struct net_engine_ops *ops = net_engine_find("s4u", &params, &e);
	struct net_engine_args a = {m, xml, NULL, 1, 0, params, in_process, NULL};
	void *eng;
	if (!ops || ops->create(&a, &eng, &e))
		_exit(2);
	struct trace *ft = one_iteration("ft"),
	             *dl = trace_of("0 send 1 0 1000000\n0 recv 1 0 1000000\n"
	                            "1 send 0 0 1000000\n1 recv 0 0 1000000\n");
	int spread[4] = {0, 1, 4, 5}, other[4] = {2, 3, 8, 12}, pair[2] = {6, 7};
	/* ranks 0 and 1 send to node 4 through leaf switch 0's up port 0,
	 * which the other job's 2 -> 8 also takes (test_emergent.c) */
	struct net_job one = {"a", ft, spread, 0, NULL},
	               two[2] = {{"a", ft, spread, 0, NULL}, {"b", ft, other, 0, NULL}};
	struct net_job stuck = {"dl", dl, pair, 0, NULL};
	struct net_job_result r[2], d;
	double out[NRES];
	for (int i = 0; i < NRES; i++)
		out[i] = -2;
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	int children = 0;
	if (!ops->evaluate(eng, &one, 1, 0, r, &e))
		out[0] = r[0].finish;
	children += forked_one(&chld);
	if (deadlock && !ops->evaluate(eng, &stuck, 1, 0, &d, &e))
		out[4] = d.finish;
	children += forked_one(&chld);
	if (!ops->evaluate(eng, two, 2, 0, r, &e))
		out[1] = r[0].finish, out[2] = r[1].finish;
	children += forked_one(&chld);
	if (!ops->evaluate(eng, &one, 1, 0, r, &e))
		out[3] = r[0].finish;
	children += forked_one(&chld);
	out[5] = children;
	if (write(fd, out, sizeof out) != sizeof out)
		_exit(4);
	unlink(xml);
	_exit(0); /* SimGrid's state dies with the child */
}

/* In a child: the engine (in_process or not) and the evaluations, their
 * finish times into res (NRES values; -2 where the engine failed). With
 * deadlock, a deadlocking job is evaluated between the first and the
 * second evaluation. */
static int run(int in_process, int deadlock, double *res)
{
	struct run_args a = {in_process, deadlock};
	return th_in_child(run_child, &a, res, NRES);
}

static void test_same_times(void)
{
	double forked[NRES], here[NRES];
	CU_ASSERT_FATAL(run(0, 0, forked) == 0);
	CU_ASSERT_FATAL(run(1, 0, here) == 0);
	for (int i = 0; i < 4; i++) {
		CU_ASSERT(forked[i] > 0);
		CU_ASSERT_DOUBLE_EQUAL(here[i], forked[i], 1e-8 * forked[i]);
	}
	CU_ASSERT(forked[0] == forked[3]);                        /* a fresh start each */
	CU_ASSERT_DOUBLE_EQUAL(here[3], here[0], 1e-8 * here[0]); /* nothing carried over */
	CU_ASSERT(here[1] > here[0] * (1 + 1e-6));                /* the second job contends */
	CU_ASSERT_EQUAL(forked[5], 3);                            /* a child per evaluation */
	CU_ASSERT_EQUAL(here[5], 0);                              /* none */
}

static void test_deadlock_then_on(void)
{
	double forked[NRES], here[NRES];
	CU_ASSERT_FATAL(run(0, 0, forked) == 0);
	CU_ASSERT_FATAL(run(1, 1, here) == 0);
	CU_ASSERT_EQUAL(here[4], -1); /* unfinished, reported */
	for (int i = 0; i < 4; i++)
		CU_ASSERT_DOUBLE_EQUAL(here[i], forked[i], 1e-8 * forked[i]);
	CU_ASSERT_EQUAL(here[5], 2); /* the two after the deadlock forked */
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("s4u engine in the calling process", NULL, NULL);
	CU_add_test(s, "the same times as forked evaluations", test_same_times);
	CU_add_test(s, "a deadlocked evaluation, then the others as before", test_deadlock_then_on);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

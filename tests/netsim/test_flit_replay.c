/* Trace replay on the flit-level network (netsim/flit/flit_replay.h): exact
 * cycle counts of a message and a ping-pong against the zero-load closed
 * form, compute as flops or as zero, a deadlocked trace named, two jobs on
 * disjoint subtrees independent, determinism, every generated kernel runs
 * to completion with every transfer delivered. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../netsim/flit/flit_replay.h"
#include "../helpers.h"
#include "gen.h"

static struct trace *trace_of(const char *text)
{
	char *path = th_write_temp(text, ".txt");
	struct trace *t;
	struct cmn_err e;
	int rc = trace_load(path, &t, &e);
	if (rc)
		fprintf(stderr, "trace: %s\n", e.msg);
	CU_ASSERT_FATAL(rc == 0);
	th_free_temp(path);
	return t;
}

static struct flit_replay_opts opts(const struct flit_params *p)
{
	return (struct flit_replay_opts){1e-9, p->flit_bytes, p->packet_flits, p->compute_zero, 0,
	                                 1e9};
}

/* Zero-load cycles of F flits in packets from a to b, to the rank's resumption. */
static long one_message(const struct plat_machine *m, const struct flit_params *p, int a, int b,
                        long F)
{
	int *route = malloc((size_t)plat_max_route(m) * sizeof *route);
	int H = plat_route(m, a, b, route); /* links */
	free(route);
	long lat = p->inject_delay + (long)(H - 1) * p->router_delay +
	           (long)(H - 2) * p->link_delay + 2L * p->node_link_delay + p->eject_delay;
	return lat + F - 1 + 1; /* the flits stream one per cycle; resume a cycle after */
}

static void test_message_timing(void)
{
	struct plat_machine *m = th_machine("mesh:dims=4x4");
	struct flit_params p;
	net_flit_params_default(&p);
	struct flit_replay_opts o = opts(&p);
	/* 1000 bytes in flits of flit_bytes (several packets); a recv posted first */
	struct trace *t = trace_of("0 recv 1 0 1000\n1 send 0 0 1000\n");
	int nodes[2] = {0, 15};
	struct net_job j = {"j", t, nodes, 0, NULL};
	struct net_job_result r;
	struct cmn_err e;
	int64_t cycles;
	CU_ASSERT_FATAL(net_flit_replay_run(m, &p, &o, &j, 1, 0, &r, NULL, &cycles, &e) == 0);
	long F = (1000 + p.flit_bytes - 1) / p.flit_bytes;
	CU_ASSERT(F > p.packet_flits); /* more than one packet */
	long want = one_message(m, &p, 15, 0, F);
	CU_ASSERT_EQUAL(cycles, want);
	CU_ASSERT(fabs(r.finish - (double)want * 1e-9) < 1e-15);
	/* a ping-pong of 1 byte twice: two single-flit messages back to back */
	struct trace *pp = trace_of("0 send 1 0 1\n0 recv 1 0 1\n0 send 1 0 1\n0 recv 1 0 1\n"
	                            "1 recv 0 0 1\n1 send 0 0 1\n1 recv 0 0 1\n1 send 0 0 1\n");
	j.trace = pp;
	CU_ASSERT_FATAL(net_flit_replay_run(m, &p, &o, &j, 1, 0, &r, NULL, &cycles, &e) == 0);
	CU_ASSERT_EQUAL(cycles,
	                2 * one_message(m, &p, 0, 15, 1) + 2 * one_message(m, &p, 15, 0, 1));
	/* ranks on one node exchange in no time; compute takes flops / speed */
	int same[2] = {5, 5};
	struct trace *c = trace_of("0 compute 2000\n0 send 1 0 100000\n1 recv 0 0 100000\n");
	j.trace = c, j.nodes = same;
	CU_ASSERT_FATAL(net_flit_replay_run(m, &p, &o, &j, 1, 0, &r, NULL, &cycles, &e) == 0);
	CU_ASSERT_EQUAL(cycles, 2000); /* 2000 flops at 1e9 flop/s, cycles of 1 ns */
	p.compute_zero = 1;
	o = opts(&p);
	CU_ASSERT_FATAL(net_flit_replay_run(m, &p, &o, &j, 1, 0, &r, NULL, &cycles, &e) == 0);
	CU_ASSERT_EQUAL(cycles, 0);
	/* a job starting later: its finish counts from the evaluation's start */
	j.start = 5e-6;
	CU_ASSERT_FATAL(net_flit_replay_run(m, &p, &o, &j, 1, 0, &r, NULL, &cycles, &e) == 0);
	CU_ASSERT(fabs(r.finish - 5e-6) < 1e-12 && r.start == 5e-6);
	trace_free(t), trace_free(pp), trace_free(c);
	plat_machine_destroy(m);
}

static void test_deadlock_and_until(void)
{
	struct plat_machine *m = th_machine("mesh:dims=4x4");
	struct flit_params p;
	net_flit_params_default(&p);
	struct flit_replay_opts o = opts(&p);
	/* two large blocking sends (rendezvous) facing each other never match */
	struct trace *t = trace_of("0 send 1 0 100000\n0 recv 1 0 100000\n"
	                           "1 send 0 0 100000\n1 recv 0 0 100000\n");
	int nodes[2] = {0, 1};
	struct net_job j = {"job7", t, nodes, 0, NULL};
	struct net_job_result r;
	struct cmn_err e;
	CU_ASSERT_EQUAL(net_flit_replay_run(m, &p, &o, &j, 1, 0, &r, NULL, NULL, &e), CMN_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "job7 rank 0 at send (trace line 1)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "job7 rank 1 at send (trace line 3)"));
	trace_free(t);
	/* a network deadlock under replay (the network run a cycle a call): a
	 * tornado of large messages round a ring of one VC without datelines;
	 * the watchdog reports it (it once restarted at every call: a hang) */
	{
		struct plat_machine *ring = th_machine("torus:dims=8x1");
		struct flit_params q;
		net_flit_params_default(&q);
		q.vcs = 1, q.dateline = 0, q.watchdog = 500;
		struct flit_replay_opts qo = opts(&q);
		char text[1024] = "", *at = text;
		for (int r = 0; r < 8; r++)
			at +=
			    sprintf(at, "%d isend %d 0 1000000\n%d recv %d 0 1000000\n%d waitall\n",
			            r, (r + 3) % 8, r, (r + 5) % 8, r);
		struct trace *tt = trace_of(text);
		int all[8] = {0, 1, 2, 3, 4, 5, 6, 7};
		struct net_job tj = {"tornado", tt, all, 0, NULL};
		struct net_job_result tr[1];
		CU_ASSERT_EQUAL(net_flit_replay_run(ring, &q, &qo, &tj, 1, 0, tr, NULL, NULL, &e),
		                CMN_ESTATE);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "no flit moved for 500 cycles"));
		trace_free(tt);
		plat_machine_destroy(ring);
	}
	/* a time limit: unfinished */
	t = trace_of("0 compute 1e9\n1 compute 10\n");
	j.trace = t;
	CU_ASSERT_FATAL(net_flit_replay_run(m, &p, &o, &j, 1, 1e-3, &r, NULL, NULL, &e) == 0);
	CU_ASSERT_EQUAL(r.finish, -1);
	/* virtual cut-through with packets larger than buffers is refused */
	p.cut_through = 1, p.packet_flits = 16;
	o = opts(&p);
	CU_ASSERT_EQUAL(net_flit_replay_run(m, &p, &o, &j, 1, 0, &r, NULL, NULL, &e), CMN_EUSAGE);
	trace_free(t);
	plat_machine_destroy(m);
}

static struct trace *kernel(const char *name)
{
	struct trace *t;
	struct cmn_err e;
	int exact, rc = trace_generate(name, 'S', 16, 1, 1, &t, &exact, &e);
	if (rc)
		fprintf(stderr, "%s: %s\n", name, e.msg);
	CU_ASSERT_FATAL(rc == 0);
	return t;
}

/* Every kernel on a tree: finishes, carries at least its bytes, and two
 * jobs on disjoint subtrees finish as each alone; the same run twice gives
 * the same cycles. */
static void test_kernels_and_isolation(void)
{
	static const char *const ks[] = {"bt", "cg", "ep", "ft", "is", "lu", "mg", "sp"};
	struct plat_machine *m = th_machine("kary-ntree:k=4,n=3");
	struct flit_params p;
	net_flit_params_default(&p);
	struct flit_replay_opts o = opts(&p);
	int a[16], b[16];
	for (int i = 0; i < 16; i++)
		a[i] = i, b[i] = 16 + i; /* two level-2 subtrees of 16 nodes */
	for (size_t k = 0; k < sizeof ks / sizeof *ks; k++) {
		struct trace *t = kernel(ks[k]);
		struct net_job jobs[2] = {{"a", t, a, 0, NULL}, {"b", t, b, 0, NULL}};
		struct net_job_result alone, both[2], again;
		struct cmn_err e;
		int64_t c1, c2;
		CU_ASSERT_FATAL(net_flit_replay_run(m, &p, &o, jobs, 1, 0, &alone, NULL, &c1, &e) ==
		                0);
		CU_ASSERT(alone.finish > 0);
		CU_ASSERT_FATAL(net_flit_replay_run(m, &p, &o, jobs, 2, 0, both, NULL, NULL, &e) ==
		                0);
		CU_ASSERT_EQUAL(both[0].finish, alone.finish);
		CU_ASSERT_EQUAL(both[1].finish, alone.finish);
		CU_ASSERT_FATAL(net_flit_replay_run(m, &p, &o, jobs, 1, 0, &again, NULL, &c2, &e) ==
		                0);
		CU_ASSERT_EQUAL(c1, c2);
		trace_free(t);
	}
	plat_machine_destroy(m);
}

/* A live session: job a from the start, job b joining at t_b, a's trace
 * freed once it ended; the same finish times as one run with b starting at
 * t_b, reported in order with their times; time passes in waits. */
struct live_case {
	const struct trace *t;
	const int *a, *b;
	double t_b, fin[2], t_wait;
	int order[2], got, waited_early;
	struct trace *own; /* freed when its job ends */
};

static int live_body(void *ctx, struct net_live *lv, struct cmn_err *e)
{
	struct live_case *c = ctx;
	struct net_job ja = {"a", c->own, c->a, 0, NULL}, jb = {"b", c->t, c->b, 0, NULL};
	if (net_live_start(lv, &ja, e) != 0)
		return e->code;
	double t_out;
	int ended[2];
	c->waited_early = net_live_wait(lv, c->t_b, &t_out, ended, 2);
	c->t_wait = t_out;
	if (c->waited_early || net_live_start(lv, &jb, e) != 1)
		return -1;
	while (c->got < 2) {
		int n = net_live_wait(lv, INFINITY, &t_out, ended, 2);
		if (n <= 0)
			return -1;
		for (int i = 0; i < n; i++) {
			c->order[c->got++] = ended[i];
			c->fin[ended[i]] = t_out;
			if (ended[i] == 0) {
				trace_free(c->own); /* the session must not read it again */
				c->own = NULL;
			}
		}
		if (fabs(net_live_now(lv) - t_out) > 1e-15)
			return -1;
	}
	return 0;
}

static void test_live(void)
{
	struct plat_machine *m = th_machine("kary-ntree:k=4,n=3");
	struct flit_params p;
	net_flit_params_default(&p);
	p.compute_zero = 1; /* communication only: the jobs meet */
	struct flit_replay_opts o = opts(&p);
	int a[16], b[16];
	for (int i = 0; i < 16; i++)
		a[i] = 2 * i, b[i] = 2 * i + 1; /* interleaved: they share links */
	struct trace *t = kernel("ft");
	struct net_job jobs[2] = {{"a", t, a, 0, NULL}, {"b", t, b, 0, NULL}};
	struct net_job_result alone, both[2];
	struct cmn_err e;
	CU_ASSERT_FATAL(net_flit_replay_run(m, &p, &o, jobs, 1, 0, &alone, NULL, NULL, &e) == 0);
	jobs[1].start = alone.finish / 3;
	CU_ASSERT_FATAL(net_flit_replay_run(m, &p, &o, jobs, 2, 0, both, NULL, NULL, &e) == 0);
	CU_ASSERT(both[0].finish > alone.finish); /* b slows a down */
	struct live_case c = {t, a, b, jobs[1].start, {0, 0}, 0, {-1, -1}, 0, 0, kernel("ft")};
	CU_ASSERT_FATAL(net_flit_replay_live(m, &p, &o, live_body, &c, &e) == 0);
	CU_ASSERT_EQUAL(c.waited_early, 0);
	CU_ASSERT_DOUBLE_EQUAL(c.t_wait, jobs[1].start, 1e-15);
	CU_ASSERT_EQUAL(c.got, 2);
	CU_ASSERT_EQUAL(c.fin[0], both[0].finish);
	CU_ASSERT_EQUAL(c.fin[1], both[1].finish);
	CU_ASSERT_EQUAL(c.order[0], both[0].finish <= both[1].finish ? 0 : 1);
	CU_ASSERT_PTR_NULL(c.own);
	trace_free(c.own);
	trace_free(t);
	plat_machine_destroy(m);
}

/* 300,000 isends pending at once, waited for in the order posted, then
 * 600,000 the newest first (ranks on one node: no time): a wait takes the oldest
 * request of its key in O(1) wherever it stands (a memmove of the rest
 * took 33 s for 200,000 in order; a search and a memmove, 18 s for
 * 160,000 reversed; this test's ctest TIMEOUT catches either). */
static void test_many_pending(void)
{
	for (int reversed = 0; reversed < 2; reversed++) {
		char *text = th_trace_pending(reversed ? 600000 : 300000, 8, reversed);
		CU_ASSERT_FATAL(text != NULL);
		struct trace *t = trace_of(text);
		free(text);
		struct plat_machine *m = th_machine("mesh:dims=2");
		struct flit_params p;
		net_flit_params_default(&p);
		struct flit_replay_opts o = opts(&p);
		int same[2] = {1, 1};
		struct net_job j = {"j", t, same, 0, NULL};
		struct net_job_result r;
		struct cmn_err e;
		int64_t cycles = -1;
		CU_ASSERT_FATAL(net_flit_replay_run(m, &p, &o, &j, 1, 0, &r, NULL, &cycles, &e) ==
		                0);
		CU_ASSERT_EQUAL(cycles, 0);
		trace_free(t);
		plat_machine_destroy(m);
	}
}

/* 40,000 ranks on one node (no network) through barriers and allreduces:
 * each rank finds who sends to it from the algorithm, not by expanding
 * every other rank's sends (O(ranks^2) a collective: 20,000 ranks of
 * three barriers and allreduces took 51 s, 3.4 s now; this test's ctest
 * TIMEOUT catches a return to that: 30,000 took 110 s). */
static void test_wide_collectives(void)
{
	enum { N = 40000 };
	char *text = malloc((size_t)N * 3 * 40);
	CU_ASSERT_FATAL(text != NULL);
	size_t len = 0;
	for (int r = 0; r < N; r++)
		for (int i = 0; i < 3; i++)
			len += (size_t)sprintf(text + len, "%d barrier\n%d allreduce 8 1\n", r, r);
	struct trace *t = trace_of(text);
	free(text);
	int *nodes = calloc(N, sizeof *nodes);
	CU_ASSERT_FATAL(t != NULL && nodes != NULL);
	struct plat_machine *m = th_machine("mesh:dims=2");
	struct flit_params p;
	net_flit_params_default(&p);
	struct flit_replay_opts o = opts(&p);
	struct net_job j = {"j", t, nodes, 0, NULL};
	struct net_job_result r;
	struct cmn_err e;
	int64_t cycles = -1;
	CU_ASSERT_FATAL(net_flit_replay_run(m, &p, &o, &j, 1, 0, &r, NULL, &cycles, &e) == 0);
	CU_ASSERT(cycles >= 0);
	free(nodes);
	trace_free(t);
	plat_machine_destroy(m);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("flit replay", NULL, NULL);
	CU_add_test(s, "message and ping-pong timing, compute, start", test_message_timing);
	CU_add_test(s, "deadlocked traces, time limit, bad packets", test_deadlock_and_until);
	CU_add_test(s, "kernels, disjoint subtrees, determinism", test_kernels_and_isolation);
	CU_add_test(s, "live session: jobs joining, the same times as one run", test_live);
	CU_add_test(s, "300,000 requests pending", test_many_pending);
	CU_add_test(s, "collectives of 40,000 ranks", test_wide_collectives);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

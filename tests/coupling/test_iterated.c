/* A job's iterations held once (the full model's traces, issue 23):
 *  - netsim's walk through a trace with a repeated range (walk.h): a range
 *    run 0, 1 or 3 times, at a rank's start or end, empty; the k-th
 *    collective as run; a range outside its rank refused;
 *  - every generator, classes S and W, several rank counts: the
 *    two-iteration trace with its range run K - 1 times (profile.h's
 *    cpl_iterated) is the generated trace of K iterations action for
 *    action, K = 1..5;
 *  - the engines that honour repeats (flit, s4u) time a repeated trace
 *    exactly as the written-out one, a job beside another that starts
 *    later, in an evaluation and in a live session; the SMPI engine
 *    refuses a repeat. Each engine in a child process (SimGrid allows one
 *    per process). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../coupling/replay/profile.h"
#include "../../netsim/engine/walk.h"
#include "../helpers.h"
#include "gen.h"
#include "netsim.h"
#include "xml_write.h"

static struct trace *trace_of(const char *text)
{
	char *path = th_write_temp(text, ".txt");
	struct trace *t;
	struct cmn_err e;
	int rc = trace_load(path, &t, &e);
	th_free_temp(path);
	if (rc)
		fprintf(stderr, "trace: %s\n", e.msg);
	CU_ASSERT_FATAL(rc == 0);
	return t;
}

/* Rank r's walk as the compute amounts of its actions (-1: a barrier). */
static int walk_of(const struct trace *t, const struct net_repeat *rp, int r, double *seq)
{
	struct net_walk w;
	net_walk_init(&w, t, rp, r);
	int n = 0;
	for (long i; (i = net_walk_next(&w)) >= 0;)
		seq[n++] = t->act[i].op == TR_COMPUTE ? t->act[i].a : -1;
	CU_ASSERT_EQUAL(net_walk_next(&w), -1); /* and stays at its end */
	return n;
}

static void test_walk(void)
{
	/* rank 0: 1 [b 2 b] 3; rank 1: [4 b] 5 b: a range in the middle, at the start */
	struct trace *t = trace_of("0 compute 1\n0 barrier\n0 compute 2\n0 barrier\n0 compute 3\n"
	                           "1 compute 4\n1 barrier\n1 compute 5\n1 barrier\n");
	long begin[2] = {1, 5}, end[2] = {4, 7};
	struct net_repeat rp = {begin, end, 3};
	double s[32];
	double want0[] = {1, -1, 2, -1, -1, 2, -1, -1, 2, -1, 3};
	double want1[] = {4, -1, 4, -1, 4, -1, 5, -1};
	CU_ASSERT_EQUAL_FATAL(walk_of(t, &rp, 0, s), 11);
	CU_ASSERT(memcmp(s, want0, sizeof want0) == 0);
	CU_ASSERT_EQUAL_FATAL(walk_of(t, &rp, 1, s), 8);
	CU_ASSERT(memcmp(s, want1, sizeof want1) == 0);
	CU_ASSERT_DOUBLE_EQUAL(net_walk_actions(t, &rp, 0), 11, 0);
	/* run once: the trace as it is; not at all: without the range */
	rp.times = 1;
	CU_ASSERT_EQUAL(walk_of(t, &rp, 0, s), 5);
	rp.times = 0;
	double none0[] = {1, 3}, none1[] = {5, -1};
	CU_ASSERT_EQUAL_FATAL(walk_of(t, &rp, 0, s), 2);
	CU_ASSERT(memcmp(s, none0, sizeof none0) == 0);
	CU_ASSERT_EQUAL_FATAL(walk_of(t, &rp, 1, s), 2);
	CU_ASSERT(memcmp(s, none1, sizeof none1) == 0);
	/* an empty range, and one at the rank's end */
	rp.times = 5, begin[0] = end[0] = 2, begin[1] = 7, end[1] = 9;
	CU_ASSERT_EQUAL(walk_of(t, &rp, 0, s), 5);
	CU_ASSERT_EQUAL(walk_of(t, &rp, 1, s), 12);
	/* a range outside its rank */
	int nodes[2] = {0, 1};
	struct net_job job = {"j9", t, nodes, 0, &rp};
	struct cmn_err e;
	CU_ASSERT_EQUAL(net_repeat_check(&job, &e), 0);
	begin[1] = 3;
	CU_ASSERT_EQUAL(net_repeat_check(&job, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "job j9: rank 1: repeated range [3, 9)"));
	begin[1] = 7, rp.times = -1;
	CU_ASSERT_EQUAL(net_repeat_check(&job, &e), CMN_EUSAGE);
	trace_free(t);
}

static struct cpl_profiles *profiles(const char *kvs)
{
	static const struct cmn_param_def defs[] = {CPL_PROFILE_PARAMS, {NULL}};
	struct cmn_params p;
	struct cpl_profiles *pr;
	struct cmn_err e;
	CU_ASSERT_FATAL(cmn_params_parse(defs, kvs, &p, &e) == 0);
	CU_ASSERT_FATAL(cpl_profiles_create(&p, "test", &pr, &e) == 0);
	return pr;
}

static struct trace *generated(const struct cpl_profiles *pr, int n, int iters)
{
	struct trace *t;
	struct cmn_err e;
	int recorded;
	if (cpl_profiles_trace(pr, 0, n, iters, &t, &recorded, &e))
		return NULL;
	return t;
}

/* t2 with its ranges run as rp says, written out as a trace of its own. */
static struct trace *written_out(const struct trace *t2, const struct net_repeat *rp)
{
	struct trace_builder *b = trace_builder_new(t2->nranks, t2->name);
	double *v = malloc(2 * (size_t)t2->nranks * sizeof *v);
	int bad = !b || !v;
	for (int r = 0; !bad && r < t2->nranks; r++) {
		struct net_walk w;
		net_walk_init(&w, t2, rp, r);
		for (long i; (i = net_walk_next(&w)) >= 0;) {
			struct trace_action a = t2->act[i];
			int n = a.op == TR_ALLTOALLV ? 2 * t2->nranks
			                             : 0; /* the generators' only vector */
			for (int j = 0; j < n; j++)
				v[j] = (double)t2->counts[a.aux + j];
			a.line = 0;
			bad |= trace_builder_add(b, r, &a, n ? v : NULL, n) != 0;
		}
	}
	free(v);
	CU_ASSERT_FATAL(!bad);
	struct cmn_err e;
	struct trace *t = trace_builder_finish(b, &e);
	CU_ASSERT_FATAL(t != NULL);
	return t;
}

/* Every rank of t as TI text (malloc'ed). */
static char *text_of(const struct trace *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CU_ASSERT_FATAL(f != NULL);
	for (int r = 0; r < t->nranks; r++)
		CU_ASSERT(trace_write_rank(t, r, f) == 0);
	fclose(f);
	return buf;
}

/* t2 with the ranges run as rp says writes as tk. */
static int walks_as(const struct trace *t2, const struct net_repeat *rp, const struct trace *tk)
{
	struct trace *x = written_out(t2, rp);
	char *a = text_of(x), *b = text_of(tk);
	int same = strcmp(a, b) == 0;
	free(a), free(b);
	trace_free(x);
	return same;
}

static void test_every_generator(void)
{
	static const int ranks[] = {1, 2, 3, 4, 8, 9, 16};
	int checked = 0;
	for (const struct trace_gen_ops *const *g = trace_gen_registry; *g; g++)
		for (const char *cls = "SW"; *cls; cls++)
			for (size_t i = 0; i < sizeof ranks / sizeof *ranks; i++) {
				char kvs[64];
				snprintf(kvs, sizeof kvs, "kernels=%s,class=%c", (*g)->base.name,
				         *cls);
				struct cpl_profiles *pr = profiles(kvs);
				int n = ranks[i];
				struct trace *t1 = generated(pr, n, 1), *t2 = generated(pr, n, 2);
				if (!t1 || !t2) { /* a rank count or class the kernel lacks */
					trace_free(t1), trace_free(t2), cpl_profiles_free(pr);
					continue;
				}
				struct cpl_iterated it;
				struct cmn_err e;
				int rc = cpl_iterated_make(pr, 0, n, t1, t2, &it, &e);
				if (rc)
					fprintf(stderr, "%s: %s\n", kvs, e.msg);
				CU_ASSERT_FATAL(rc == 0);
				for (int k = 1; k <= 5; k++) {
					struct trace *tk = generated(pr, n, k);
					CU_ASSERT_FATAL(tk != NULL);
					struct net_repeat rp = {it.begin, it.end, k - 1};
					if (!walks_as(t2, &rp, tk))
						fprintf(stderr,
						        "%s ranks %d: %d iterations differ\n", kvs,
						        n, k);
					CU_ASSERT(walks_as(t2, &rp, tk));
					CU_ASSERT_DOUBLE_EQUAL(it.once + (k - 1) * it.body,
					                       (double)tk->first[n], 0);
					trace_free(tk);
				}
				checked++;
				cpl_iterated_free(&it);
				trace_free(t1), trace_free(t2), cpl_profiles_free(pr);
			}
	CU_ASSERT(checked >= 80);
}

/* --- the engines --- */
#define MACHINE "kary-ntree:k=4,n=2"
#define NOUT    4 /* evaluation: a, b; live: a, b */

struct engine_case {
	const char *engine, *kernel;
	int repeated; /* 1: t2 with ranges, else the generated traces */
};

struct live_ctx {
	const struct net_job *jobs; /* a, then b at jobs[1].start */
	double fin[2];
	int got;
};

static int live_body(void *ctx, struct net_live *lv, struct cmn_err *e)
{
	struct live_ctx *c = ctx;
	double t_out;
	int ended[2];
	if (net_live_start(lv, &c->jobs[0], e) != 0)
		return e->code;
	if (net_live_wait(lv, c->jobs[1].start, &t_out, ended, 2) != 0)
		return -1; /* a must still run */
	if (net_live_start(lv, &c->jobs[1], e) != 1)
		return e->code ? e->code : -1;
	while (c->got < 2) {
		int n = net_live_wait(lv, INFINITY, &t_out, ended, 2);
		if (n <= 0)
			return -1;
		for (int i = 0; i < n; i++, c->got++)
			c->fin[ended[i]] = t_out;
	}
	return 0;
}

/* In a child process: engine `name` on MACHINE (its platform in a
 * temporary file, removed at the child's end); exits on a failure. */
struct engine {
	const struct net_engine_ops *ops;
	void *state;
	char xml[32];
};

static void open_engine(const char *name, struct engine *g)
{
	struct plat_machine *m;
	struct cmn_err e;
	const char *params;
	snprintf(g->xml, sizeof g->xml, "/tmp/placesim-iterated-XXXXXX");
	int x = mkstemp(g->xml);
	struct plat_xml_opts xo = {"SPLITDUPLEX", "test", NULL};
	if (x < 0 || plat_machine_create(MACHINE, &m, &e) || plat_xml_write(m, &xo, g->xml, &e))
		_exit(2);
	close(x);
	g->ops = net_engine_find(name, &params, &e);
	struct net_engine_args a = {m, g->xml, NULL, 1, 0, params, 0, NULL};
	if (!g->ops || g->ops->create(&a, &g->state, &e))
		_exit(2);
}

/* Job a: 3 iterations on nodes 0,1,4,5; job b: 2 iterations on 2,3,8,12
 * (its 2 -> 8 shares a's up link), starting at a third of a's time alone. */
static void engine_child(void *ctx, int fd)
{
	const struct engine_case *c = ctx;
	double out[NOUT] = {-2, -2, -2, -2};
	struct cmn_err e;
	struct engine g;
	open_engine(c->engine, &g);
	char kvs[64];
	snprintf(kvs, sizeof kvs, "kernels=%s,class=S", c->kernel);
	struct cpl_profiles *pr = profiles(kvs);
	struct trace *t1 = generated(pr, 4, 1), *t2 = generated(pr, 4, 2),
	             *t3 = generated(pr, 4, 3);
	struct cpl_iterated it;
	if (!t3 || cpl_iterated_make(pr, 0, 4, t1, t2, &it, &e))
		_exit(2);
	struct net_repeat ra = {it.begin, it.end, 2}, rb = {it.begin, it.end, 1};
	int na[4] = {0, 1, 4, 5}, nb[4] = {2, 3, 8, 12};
	struct net_job jobs[2] = {{"a", c->repeated ? t2 : t3, na, 0, c->repeated ? &ra : NULL},
	                          {"b", t2, nb, 0, c->repeated ? &rb : NULL}};
	struct net_job_result r[2];
	if (!g.ops->evaluate(g.state, jobs, 1, 0, r, &e)) {
		jobs[1].start = r[0].finish / 3;
		if (!g.ops->evaluate(g.state, jobs, 2, 0, r, &e))
			out[0] = r[0].finish, out[1] = r[1].finish;
	}
	struct live_ctx lc = {jobs, {-2, -2}, 0};
	if (jobs[1].start > 0 && !g.ops->live(g.state, live_body, &lc, &e))
		out[2] = lc.fin[0], out[3] = lc.fin[1];
	unlink(g.xml);
	if (write(fd, out, sizeof out) != sizeof out)
		_exit(4);
	_exit(0);
}

static void test_engines(void)
{
	static const char *const engines[] = {"flit", "s4u"};
	static const char *const kernels[] = {"cg", "ft", "is", "lu", "mg"};
	for (size_t g = 0; g < 2; g++)
		for (size_t k = 0; k < sizeof kernels / sizeof *kernels; k++) {
			struct engine_case written = {engines[g], kernels[k], 0},
			                   repeated = {engines[g], kernels[k], 1};
			double w[NOUT], r[NOUT];
			CU_ASSERT_FATAL(th_in_child(engine_child, &written, w, NOUT) == 0);
			CU_ASSERT_FATAL(th_in_child(engine_child, &repeated, r, NOUT) == 0);
			for (int i = 0; i < NOUT; i++) {
				if (w[i] != r[i] || !(w[i] > 0))
					fprintf(stderr,
					        "%s %s: %d: %.17g written out, %.17g repeated\n",
					        engines[g], kernels[k], i, w[i], r[i]);
				CU_ASSERT(w[i] > 0 && w[i] == r[i]);
			}
			CU_ASSERT(fabs(w[2] - w[0]) <= 1e-9 * w[0]); /* live as evaluated */
		}
}

/* SMPI's replay runs trace files as they are: a repeat is refused. */
static void smpi_child(void *ctx, int fd)
{
	(void)ctx;
	struct engine g;
	open_engine("simgrid", &g);
	struct trace *t = trace_of("0 compute 1\n1 compute 2\n");
	long begin[2] = {0, 1}, end[2] = {1, 2};
	struct net_repeat rp = {begin, end, 3};
	int nodes[2] = {0, 1};
	struct net_job job = {"j3", t, nodes, 0, &rp};
	struct net_job_result r;
	struct cmn_err e;
	double out[1] = {
	    g.ops->evaluate(g.state, &job, 1, 0, &r, &e) == CMN_EUSAGE &&
	    strstr(e.msg, "job j3: the simgrid engine (SMPI's replay) runs whole traces")};
	unlink(g.xml);
	if (write(fd, out, sizeof out) != sizeof out)
		_exit(4);
	_exit(0);
}

static void test_smpi_refuses(void)
{
	double ok;
	CU_ASSERT_FATAL(th_in_child(smpi_child, NULL, &ok, 1) == 0);
	CU_ASSERT_EQUAL(ok, 1);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("iterated", NULL, NULL);
	CU_add_test(s, "walk through a repeated range", test_walk);
	CU_add_test(s, "every generator: K iterations as a range run K - 1 times",
	            test_every_generator);
	CU_add_test(s, "flit and s4u: repeated as written out", test_engines);
	CU_add_test(s, "the SMPI engine refuses a repeat", test_smpi_refuses);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

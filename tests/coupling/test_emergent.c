/* The emergent run-time models (linkload, simgrid:mode=isolated|shared)
 * on hand-placed jobs of a 4-ary 2-tree (16 nodes, d-mod-k routes):
 *  - a profile without communication runs exactly its log run time;
 *  - a job alone on its reference placement (nodes 0-3) has rate 1;
 *  - the same job on nodes 0,1,4,5 (two leaf switches: ranks 0 and 1 both
 *    send to node 4 through leaf switch 0's up port 0) runs slower;
 *  - a second job on 2,3,8,12 (its 2->8 also takes that up port) slows it
 *    further under shared and linkload, not under isolated;
 *  - a rate that changes mid-run: the finish is the integral of the rate;
 *  - full (one simulation): the same relations, with whole iterations;
 * the SimGrid models with both engines (s4u's replays in this process) and
 * both measures of an iteration (timed, difference).
 * Each case runs in a child process (SimGrid allows one engine per
 * process). Placements come from a scripted allocator: a job's nodes are
 * packed in its record's partition field (base 16). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../coupling/models/runtimes.h"
#include "../helpers.h"

#define MACHINE "kary-ntree:k=4,n=2"

struct jobdef {
	double submit, run;
	int exe; /* the map file's key: 1 ft, 2 ft, 3 none */
	int nodes[4];
};

static int scripted_place(void *self, const struct js_job *job, int flags, int *nodes)
{
	(void)self, (void)flags;
	int packed = (int)job->f[JS_F_PARTITION];
	for (int r = 0; r < 4; r++, packed /= 16)
		nodes[r] = packed % 16;
	return 4;
}

static const struct js_alloc_ops *first_free(void)
{
	for (const struct js_alloc_ops *const *a = js_alloc_registry; *a; a++)
		if (strcmp((*a)->base.name, "first-free") == 0)
			return *a;
	return NULL;
}

struct case_run {
	struct js_workload *w;
	struct js_runtime *rt;
	const struct js_alloc_ops *ops;
	int fd;
};

/* The simulation and its results into the pipe (inside the model's drive:
 * for full, in the process that holds the simulation). */
static int case_body(void *ctx, struct cmn_err *e)
{
	const struct case_run *c = ctx;
	struct js_sim_result *res = NULL;
	if (th_run_spec_ops(c->w, MACHINE, "first-free", c->ops, "fcfs", c->rt, NULL, &res, e))
		return e->code;
	int rc = th_write_exec_times(c->fd, res, c->w->n, e);
	js_sim_result_free(res);
	return rc;
}

struct case_args {
	const char *model;
	const struct jobdef *jobs;
	int n;
};

/* run_case's child: the model, the jobs, the simulation; the execution
 * times into fd. */
static void case_child(void *ctx, int fd)
{
	const struct case_args *a = ctx;
	const char *model = a->model;
	const struct jobdef *jobs = a->jobs;
	int n = a->n;
	char *map = th_write_temp("1 ft\n2 ft\n3 none\n", ".map");
	char spec[512];
	const char *colon = strchr(model, ':');
	snprintf(spec, sizeof spec, "%.*s:kernels=ft,class=S,flops=0.01,map=%s%s%s",
	         colon ? (int)(colon - model) : (int)strlen(model), model, map, colon ? "," : "",
	         colon ? colon + 1 : "");
	const struct js_runtime_ops *reg[16];
	struct js_runtime *rt = NULL;
	struct plat_machine *m = NULL;
	struct cmn_err e;
	struct js_workload *w = js_workload_new("test");
	for (int i = 0; w && i < n; i++) {
		struct js_job j;
		memset(&j, 0, sizeof j);
		for (int f = 0; f < JS_SWF_FIELDS; f++)
			j.f[f] = -1;
		j.id = (uint64_t)i + 1;
		j.f[JS_F_JOB] = i + 1;
		j.submit_s = jobs[i].submit;
		j.run_s = jobs[i].run;
		j.req_s = 10 * jobs[i].run;
		j.size = 4;
		j.f[JS_F_EXE] = jobs[i].exe;
		j.f[JS_F_PARTITION] = jobs[i].nodes[0] + 16 * jobs[i].nodes[1] +
		                      256 * jobs[i].nodes[2] + 4096 * jobs[i].nodes[3];
		if (js_workload_push(w, &j))
			_exit(3);
	}
	struct js_alloc_ops ops = *first_free();
	ops.place = scripted_place;
	ops.fits = NULL;
	struct case_run c = {w, NULL, &ops, fd};
	if (cpl_runtimes_all(reg, 15) < 0 || js_runtime_create_in(reg, spec, &rt, &e) ||
	    plat_machine_create(MACHINE, &m, &e) ||
	    (c.rt = rt, js_runtime_drive(rt, m, w, case_body, &c, &e))) {
		fprintf(stderr, "%s: %s\n", spec, e.msg);
		th_free_temp(map);
		_exit(2);
	}
	js_runtime_destroy(rt); /* the models' temporary files */
	plat_machine_destroy(m);
	th_free_temp(map);
	_exit(0); /* SimGrid's state dies with the child */
}

/* Runs the jobs under the model (parameters appended to the map file's)
 * in a child; writes each job's execution time into exec. 0 or -1. */
static int run_case(const char *model, const struct jobdef *jobs, int n, double *exec)
{
	struct case_args a = {model, jobs, n};
	return th_in_child(case_child, &a, exec, n);
}

static const char *const models[] = {"linkload",
                                     "simgrid:mode=isolated",
                                     "simgrid:mode=shared",
                                     "simgrid:mode=isolated,engine=s4u",
                                     "simgrid:mode=shared,engine=s4u",
                                     "simgrid:mode=isolated,engine=s4u,iteration=difference",
                                     "simgrid:mode=shared,iteration=difference"};
#define NMODELS (sizeof models / sizeof *models)

static int contends(const char *model)
{
	return strstr(model, "isolated") == NULL;
}

static void test_no_communication(void)
{
	static const struct jobdef jobs[] = {{0, 1000, 3, {0, 1, 4, 5}},
	                                     {0, 700, 3, {2, 3, 8, 12}},
	                                     {100, 333.3, 3, {6, 9, 13, 15}}};
	for (size_t m = 0; m < NMODELS; m++) {
		double x[3];
		CU_ASSERT_FATAL(run_case(models[m], jobs, 3, x) == 0);
		for (int i = 0; i < 3; i++)
			if (x[i] != jobs[i].run) {
				CU_FAIL(
				    "a job without communication ran otherwise than its log time");
				fprintf(stderr, "%s job %d: %.17g vs %.17g\n", models[m], i + 1,
				        x[i], jobs[i].run);
			}
	}
}

static void test_placement_and_contention(void)
{
	static const struct jobdef contiguous[] = {{0, 1000, 1, {0, 1, 2, 3}}};
	static const struct jobdef spread[] = {{0, 1000, 1, {0, 1, 4, 5}}};
	static const struct jobdef both[] = {{0, 1000, 1, {0, 1, 4, 5}},
	                                     {0, 5000, 2, {2, 3, 8, 12}}};
	for (size_t m = 0; m < NMODELS; m++) {
		double c, s, b[2];
		CU_ASSERT_FATAL(run_case(models[m], contiguous, 1, &c) == 0);
		CU_ASSERT_FATAL(run_case(models[m], spread, 1, &s) == 0);
		CU_ASSERT_FATAL(run_case(models[m], both, 2, b) == 0);
		fprintf(stderr, "  %-32s contiguous %.6f spread %.6f with a contender %.6f\n",
		        models[m], c, s, b[0]);
		CU_ASSERT_DOUBLE_EQUAL(c, 1000, 1e-9); /* rate 1 */
		CU_ASSERT(s > 1000 * (1 + 1e-6));      /* rate below 1 */
		if (contends(models[m])) {
			CU_ASSERT(b[0] > s * (1 + 1e-6));
		} else { /* in-process replays: SimGrid's running clock's rounding */
			CU_ASSERT_DOUBLE_EQUAL(b[0], s, 1e-8 * s);
		}
	}
}

/* Job 1 alone at rate r1 = 1000 / s until the contender arrives at t0,
 * then at r2 = 1000 / b (both rates measured above, in runs where they
 * hold throughout): it ends at t0 + (1000 - t0 r1) / r2. */
static void test_progress_integral(void)
{
	static const struct jobdef spread[] = {{0, 1000, 1, {0, 1, 4, 5}}};
	static const struct jobdef both[] = {{0, 1000, 1, {0, 1, 4, 5}},
	                                     {0, 5000, 2, {2, 3, 8, 12}}};
	static const struct jobdef later[] = {{0, 1000, 1, {0, 1, 4, 5}},
	                                      {300, 5000, 2, {2, 3, 8, 12}}};
	for (size_t m = 0; m < NMODELS; m++) {
		if (!contends(models[m]))
			continue;
		double s, b[2], l[2];
		CU_ASSERT_FATAL(run_case(models[m], spread, 1, &s) == 0);
		CU_ASSERT_FATAL(run_case(models[m], both, 2, b) == 0);
		CU_ASSERT_FATAL(run_case(models[m], later, 2, l) == 0);
		double r1 = 1000 / s, r2 = 1000 / b[0], t0 = 300;
		double expect = t0 + (1000 - t0 * r1) / r2;
		CU_ASSERT_DOUBLE_EQUAL(l[0], expect, 1e-6 * expect);
		CU_ASSERT(l[0] > s && l[0] < b[0]);
	}
}

/* full: the whole workload in one simulation. Runs of whole iterations of
 * "none" (1 ms each at class S) come out exact; FT jobs run about their log
 * time alone on the reference nodes (setup, verification and the rounding
 * to whole iterations aside), longer spread, longer again beside the
 * contender, and a job killed at its requested time stops there. */
static void test_full(void)
{
	static const struct jobdef none[] = {{0, 0.5, 3, {0, 1, 4, 5}},
	                                     {0.1, 0.25, 3, {2, 3, 8, 12}}};
	static const struct jobdef contiguous[] = {{0, 0.3, 1, {0, 1, 2, 3}}};
	static const struct jobdef spread[] = {{0, 0.3, 1, {0, 1, 4, 5}}};
	static const struct jobdef both[] = {{0, 0.3, 1, {0, 1, 4, 5}}, {0, 3, 2, {2, 3, 8, 12}}};
	double x[2], c, s, b[2];
	CU_ASSERT_FATAL(run_case("full", none, 2, x) == 0);
	CU_ASSERT_DOUBLE_EQUAL(x[0], 0.5, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(x[1], 0.25, 1e-9);
	CU_ASSERT_FATAL(run_case("full", contiguous, 1, &c) == 0);
	CU_ASSERT_FATAL(run_case("full", spread, 1, &s) == 0);
	CU_ASSERT_FATAL(run_case("full", both, 2, b) == 0);
	fprintf(stderr, "  full: contiguous %.6f spread %.6f with a contender %.6f\n", c, s, b[0]);
	CU_ASSERT(fabs(c - 0.3) < 0.05 * 0.3);
	CU_ASSERT(s > c * (1 + 1e-6));
	CU_ASSERT(b[0] > s * (1 + 1e-6));
	double again[2];
	CU_ASSERT_FATAL(run_case("full", both, 2, again) == 0);
	CU_ASSERT(again[0] == b[0] && again[1] == b[1]); /* deterministic */
	/* on the flit engine's live sessions: "none" runs its log time to
	 * within a cycle per iteration; FT alone on the reference nodes runs
	 * 8% short of it (with 0.3 s: 226 iterations in 0.2757 s, K set from the
	 * difference of the two- and one-iteration replays, 1.32 ms: on the
	 * flit network a long run's iterations overlap more); the contender
	 * slows it. Spread over two leaf switches it is not slower here: on
	 * the flit network the four node links bound this all-to-all wherever
	 * the nodes are, where SimGrid's flows also meet on the shared up
	 * port. */
	CU_ASSERT_FATAL(run_case("full:engine=flit", none, 2, x) == 0);
	CU_ASSERT_DOUBLE_EQUAL(x[0], 0.5, 1e-4);
	CU_ASSERT_DOUBLE_EQUAL(x[1], 0.25, 1e-4);
	/* shorter jobs: every cycle of their traffic is simulated */
	static const struct jobdef contiguous_flit[] = {{0, 0.1, 1, {0, 1, 2, 3}}};
	static const struct jobdef spread_flit[] = {{0, 0.1, 1, {0, 1, 4, 5}}};
	static const struct jobdef both_flit[] = {{0, 0.1, 1, {0, 1, 4, 5}},
	                                          {0, 0.15, 2, {2, 3, 8, 12}}};
	CU_ASSERT_FATAL(run_case("full:engine=flit", contiguous_flit, 1, &c) == 0);
	CU_ASSERT_FATAL(run_case("full:engine=flit", spread_flit, 1, &s) == 0);
	CU_ASSERT_FATAL(run_case("full:engine=flit", both_flit, 2, b) == 0);
	fprintf(stderr, "  full (flit): contiguous %.6f spread %.6f with a contender %.6f\n", c, s,
	        b[0]);
	CU_ASSERT(fabs(c - 0.1) < 0.1 * 0.1);
	CU_ASSERT(fabs(s - c) < 0.05 * c);
	CU_ASSERT(b[0] > s * (1 + 1e-6));
	CU_ASSERT_FATAL(run_case("full:engine=flit", both_flit, 2, again) == 0);
	CU_ASSERT(again[0] == b[0] && again[1] == b[1]);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("emergent run-time models", NULL, NULL);
	CU_add_test(s, "no communication: the log's run time exactly", test_no_communication);
	CU_add_test(s, "placement and contention", test_placement_and_contention);
	CU_add_test(s, "progress: the integral of the rate", test_progress_integral);
	CU_add_test(s, "full: one simulation", test_full);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

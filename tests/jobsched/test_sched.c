/* Hand-computed schedules for every scheduler, the kill option, the
 * run-time models, queue orders and progress-rate re-prediction. */
#include <math.h>
#include <stdlib.h>

#include "../helpers.h"
#include "platform.h"

/* Runs w and checks every job's start time against want[]. */
static void expect_starts(const struct js_workload *w, int nodes, const char *sched,
                          const double *want)
{
	struct js_sim_result *r = NULL;
	struct cmn_err e;
	int rc = th_run(w, nodes, sched, NULL, NULL, &r, &e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	for (size_t i = 0; i < w->n; i++) {
		CU_ASSERT_DOUBLE_EQUAL(r->jobs[i].start_s, want[i], 1e-9);
		CU_ASSERT_DOUBLE_EQUAL(r->jobs[i].finish_s, want[i] + w->jobs[i].run_s, 1e-9);
		if (fabs(r->jobs[i].start_s - want[i]) > 1e-9)
			fprintf(stderr, "\n  %s: job %zu starts at %g, expected %g\n", sched, i + 1,
			        r->jobs[i].start_s, want[i]);
	}
	js_sim_result_free(r);
}

/* Seed 003 Fig. 1: five jobs on a one-dimensional machine of 8 nodes. Job 3
 * waits for job 2, leaving a hole between T1 = 10 and T2 = 20 that job 5
 * fills under backfilling without delaying job 3. */
static struct js_workload *fig1(void)
{
	struct js_workload *w = th_workload();
	th_add(w, 0, 10, 10, 4); /* 1 ends at T1 */
	th_add(w, 0, 20, 20, 4); /* 2 ends at T2 */
	th_add(w, 0, 10, 10, 6); /* 3 waits for 2 */
	th_add(w, 0, 10, 10, 6);
	th_add(w, 0, 10, 10, 4); /* 5: the backfill candidate */
	return w;
}

static void test_fig1_fcfs(void)
{
	struct js_workload *w = fig1();
	const double want[] = {0, 0, 20, 30, 40};
	expect_starts(w, 8, "fcfs", want);
	js_workload_free(w);
}

static void test_fig1_backfilling(void)
{
	struct js_workload *w = fig1();
	const double want[] = {0, 0, 20, 30, 10};
	expect_starts(w, 8, "easy", want);
	expect_starts(w, 8, "conservative", want);
	js_workload_free(w);
}

/* EASY backfills job 4 (it leaves the head's nodes free at the shadow time)
 * but conservative does not (it would delay job 3's reservation). */
static struct js_workload *easy_not_conservative(void)
{
	struct js_workload *w = th_workload();
	th_add(w, 0, 10, 10, 3);
	th_add(w, 1, 10, 10, 2);
	th_add(w, 2, 10, 10, 4);
	th_add(w, 3, 20, 20, 1);
	return w;
}

static void test_easy_vs_conservative(void)
{
	struct js_workload *w = easy_not_conservative();
	const double easy[] = {0, 10, 23, 3};
	const double cons[] = {0, 10, 20, 30};
	expect_starts(w, 4, "easy", easy);
	expect_starts(w, 4, "conservative", cons);
	expect_starts(w, 4, "fcfs", cons);
	expect_starts(w, 4, "fpfs:maxjumps=5", easy);
	expect_starts(w, 4, "fpfs:maxjumps=0", cons);
	js_workload_free(w);
}

/* EASY: a job that would end after the shadow time and take the head's
 * nodes is not started. */
static void test_easy_protects_head(void)
{
	struct js_workload *w = th_workload();
	th_add(w, 0, 10, 10, 2);
	th_add(w, 1, 10, 10, 4);
	th_add(w, 2, 20, 20, 1);
	th_add(w, 3, 5, 5, 2); /* ends by the shadow time 10: backfilled */
	const double want[] = {0, 10, 20, 3};
	expect_starts(w, 4, "easy", want);
	js_workload_free(w);
}

/* FPFS: the head (job 2) may be jumped maxjumps times, then nothing passes it. */
static void test_fpfs_maxjumps(void)
{
	struct js_workload *w = th_workload();
	th_add(w, 0, 100, 100, 3);
	th_add(w, 1, 10, 10, 2);
	th_add(w, 2, 10, 10, 1);
	th_add(w, 3, 10, 10, 1);
	th_add(w, 4, 10, 10, 1);
	const double one[] = {0, 100, 2, 100, 100};
	expect_starts(w, 4, "fpfs:maxjumps=1", one);
	const double five[] = {0, 100, 2, 12, 22};
	expect_starts(w, 4, "fpfs:maxjumps=5", five);
	expect_starts(w, 4, "easy", five);
	js_workload_free(w);
}

static void test_queue_order(void)
{
	struct js_workload *w = th_workload();
	th_add(w, 0, 10, 10, 4);
	th_add(w, 1, 30, 30, 4);
	th_add(w, 2, 5, 5, 4);
	th_add(w, 3, 5, 5, 3);
	struct js_sim_opts o;
	js_sim_opts_default(&o);
	struct js_sim_result *r;
	struct cmn_err e;
	o.order = JS_ORDER_SJF;
	CU_ASSERT_EQUAL_FATAL(th_run(w, 4, "fcfs", NULL, &o, &r, &e), 0);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[2].start_s, 10, 1e-9); /* shortest first */
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[3].start_s, 15, 1e-9); /* same length, earlier arrival */
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[1].start_s, 20, 1e-9);
	js_sim_result_free(r);
	o.order = JS_ORDER_SMALLEST;
	CU_ASSERT_EQUAL_FATAL(th_run(w, 4, "fcfs", NULL, &o, &r, &e), 0);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[3].start_s, 10, 1e-9); /* 3 nodes first */
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[1].start_s, 15, 1e-9); /* then arrival order */
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[2].start_s, 45, 1e-9);
	js_sim_result_free(r);
	js_workload_free(w);
}

/* Seed 004's aging priority: the formula by hand, and the queue re-sorted
 * by it at every pass (Qfactor rises faster for short walltimes). */
static void test_priority_order(void)
{
	struct js_priority p = {1, 0, 0, 1};
	CU_ASSERT_DOUBLE_EQUAL(js_aging_priority(&p, 99, 1000, 10), 1.099, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(js_aging_priority(&p, 98, 10, 10), 10.8, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(js_aging_priority(&p, 5, 0.5, 3), 6, 1e-12); /* limit 1 */
	p = (struct js_priority){2, 0.5, 3, 100};
	/* 2 (1 + 50 / 100) + 0.5 x 50 + 3 x 4 = 3 + 25 + 12 */
	CU_ASSERT_DOUBLE_EQUAL(js_aging_priority(&p, 50, 20, 4), 40, 1e-12);
	struct js_workload *w = th_workload();
	th_add(w, 0, 100, 100, 10); /* holds the machine until 100 */
	th_add(w, 1, 50, 1000, 10); /* long walltime */
	th_add(w, 2, 10, 10, 10);   /* short walltime: 1 + 98/10 > 1 + 99/1000 */
	th_add(w, 3, 10, 10, 10);   /* same as job 2, later: after it */
	struct js_sim_opts o;
	js_sim_opts_default(&o);
	o.order = JS_ORDER_PRIORITY;
	struct js_sim_result *r;
	struct cmn_err e;
	CU_ASSERT_EQUAL_FATAL(th_run(w, 10, "fcfs", NULL, &o, &r, &e), 0);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[2].start_s, 100, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[3].start_s, 110, 1e-9);
	/* at 120: job 1, 1 + 119/1000, is alone */
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[1].start_s, 120, 1e-9);
	js_sim_result_free(r);
	/* nodes weight alone: the largest request first; all equal here, so arrival */
	o.prio = (struct js_priority){0, 0, 1, 1};
	CU_ASSERT_EQUAL_FATAL(th_run(w, 10, "fcfs", NULL, &o, &r, &e), 0);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[1].start_s, 100, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[2].start_s, 150, 1e-9);
	js_sim_result_free(r);
	js_workload_free(w);
}

static void test_kill_at_requested(void)
{
	struct js_workload *w = th_workload();
	th_add(w, 0, 20, 10, 2); /* runs past its request */
	th_add(w, 0, 5, 10, 2);
	struct js_sim_opts o;
	js_sim_opts_default(&o);
	struct js_sim_result *r;
	struct cmn_err e;
	CU_ASSERT_EQUAL_FATAL(th_run(w, 2, "fcfs", NULL, &o, &r, &e), 0);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[0].finish_s, 20, 1e-9);
	CU_ASSERT_EQUAL(r->jobs[0].killed, 0);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[1].start_s, 20, 1e-9);
	js_sim_result_free(r);
	o.kill_at_req = 1;
	CU_ASSERT_EQUAL_FATAL(th_run(w, 2, "fcfs", NULL, &o, &r, &e), 0);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[0].finish_s, 10, 1e-9);
	CU_ASSERT_EQUAL(r->jobs[0].killed, 1);
	CU_ASSERT_EQUAL(r->jobs[1].killed, 0);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[1].start_s, 10, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[1].finish_s, 15, 1e-9);
	CU_ASSERT_EQUAL(r->killed, 1);
	js_sim_result_free(r);
	js_workload_free(w);
}

/* A job running past its requested time. EASY takes it as ending now: the
 * head's shadow time is now and job 4 (ending after it) may not take the
 * head's nodes. Conservative gives it no end: the head gets no reservation
 * until it ends, and job 4 starts on the free nodes. */
static void test_overrun_backfilling(void)
{
	struct js_workload *w = th_workload();
	th_add(w, 0, 30, 10, 2); /* expected to end at 10, ends at 30 */
	th_add(w, 1, 10, 10, 4);
	th_add(w, 2, 5, 5, 2);
	th_add(w, 12, 5, 5, 2);
	const double easy[] = {0, 30, 2, 40};
	const double cons[] = {0, 30, 2, 12};
	expect_starts(w, 4, "easy", easy);
	expect_starts(w, 4, "conservative", cons);
	js_workload_free(w);
}

static void test_speedup_model(void)
{
	struct js_workload *w = th_workload();
	th_add(w, 0, 10, 10, 2);
	th_add(w, 0, 10, 10, 1);
	struct js_sim_result *r;
	struct cmn_err e;
	CU_ASSERT_EQUAL_FATAL(th_run(w, 4, "fcfs", "speedup:s=0.2", NULL, &r, &e), 0);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[0].finish_s, 8, 1e-9);  /* (1 - 0.2) x 10 */
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[1].finish_s, 10, 1e-9); /* serial: unchanged */
	js_sim_result_free(r);
	CU_ASSERT_NOT_EQUAL(th_run(w, 4, "fcfs", "speedup:s=1.5", NULL, &r, &e), 0);
	CU_ASSERT_NOT_EQUAL(th_run(w, 4, "fcfs", "speedup:x=1", NULL, &r, &e), 0);
	js_workload_free(w);
}

/* A model whose rates halve while two or more jobs run: finishes must be
 * re-predicted from the progress made so far. */
static int halve_create(const struct cmn_params *p, void **self, struct cmn_err *e)
{
	(void)p;
	(void)e;
	*self = NULL;
	return 0;
}
static double halve_work(void *self, struct js_sim *sim, int j, const int *nodes, int n,
                         struct cmn_err *e)
{
	(void)e, (void)self, (void)nodes, (void)n;
	return js_sim_job(sim, j)->run_s;
}
static int halve_rates(void *self, struct js_sim *sim, double *rates, struct cmn_err *e)
{
	(void)self, (void)e;
	for (size_t p = 0; p < js_sim_rlen(sim); p++)
		rates[p] = js_sim_rlen(sim) >= 2 ? 0.5 : 1.0;
	return 0;
}
static const struct cmn_param_def no_params[] = {{NULL}};
static const struct js_runtime_ops halve_ops = {
    .base = {"halve", "test model", no_params},
    .create = halve_create,
    .work_s = halve_work,
    .rates = halve_rates,
};

static void test_rate_change_repredicts(void)
{
	struct js_workload *w = th_workload();
	th_add(w, 0, 10, 100, 2);
	th_add(w, 4, 10, 100, 2);
	struct js_runtime *rt;
	struct cmn_err e;
	CU_ASSERT_EQUAL_FATAL(js_runtime_create_ops(&halve_ops, NULL, &rt, &e), 0);
	struct js_sim_result *r;
	CU_ASSERT_EQUAL_FATAL(th_run_rt(w, 4, "fcfs", rt, NULL, &r, &e), 0);
	/* job 1: 4 s at rate 1, then 6 s of work at 0.5 -> ends at 16;
	 * job 2: 12 s at 0.5 = 6 s of work, 4 left at rate 1 -> ends at 20 */
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[0].finish_s, 16, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[1].finish_s, 20, 1e-9);
	CU_ASSERT(r->rate_updates > 0);
	js_sim_result_free(r);
	js_runtime_destroy(rt);
	js_workload_free(w);
}

static void test_zero_runtime_and_ties(void)
{
	struct js_workload *w = th_workload();
	th_add(w, 0, 0, 0, 4); /* zero-length job occupying the whole machine */
	th_add(w, 0, 5, 5, 4);
	th_add(w, 5, 1, 1, 4); /* arrives as job 2 finishes: finish first */
	const double want[] = {0, 0, 5};
	for (int k = 0; k < 4; k++) {
		static const char *const s[] = {"fcfs", "easy", "conservative", "fpfs"};
		expect_starts(w, 4, s[k], want);
	}
	js_workload_free(w);
}

static void test_never_fits_is_error(void)
{
	struct js_workload *w = th_workload();
	th_add(w, 0, 10, 10, 5);
	struct js_sim_result *r = NULL;
	struct cmn_err e;
	int rc = th_run(w, 4, "easy", NULL, NULL, &r, &e);
	CU_ASSERT_EQUAL(rc, CMN_ESTATE);
	CU_ASSERT_PTR_NULL(r);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "job 1"));
	js_workload_free(w);
}

static void test_unknown_scheduler(void)
{
	struct js_sched *s;
	struct cmn_err e;
	CU_ASSERT_EQUAL(js_sched_create("eazy", 1, 4, &s, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "easy"));
	CU_ASSERT_EQUAL(js_sched_create("fpfs:maxjumps=-1", 1, 4, &s, &e), CMN_EUSAGE);
	CU_ASSERT_EQUAL(js_sched_create("fpfs:maxjumps=2", 1, 4, &s, &e), 0);
	CU_ASSERT_STRING_EQUAL(s->spec, "fpfs:maxjumps=2");
	js_sched_destroy(s);
}

/* Seed 003's migration on a ring of 8 (a 1D torus). Jobs 1-4 of 2 nodes
 * fill it; 1 and 3 end at 10 leaving two separate pairs; job 5 (4 nodes)
 * arrives then: FCFS waits until 100, FCFS with migration packs 2 and 4 and
 * starts it at once. */
static void test_migration(void)
{
	struct js_workload *w = th_workload();
	th_add(w, 0, 10, 10, 2);
	th_add(w, 0, 100, 100, 2);
	th_add(w, 0, 10, 10, 2);
	th_add(w, 0, 100, 100, 2);
	th_add(w, 10, 5, 5, 4);
	static const char *const scheds[][2] = {
	    {"fcfs", "100"}, {"fcfs:migrate=1", "10"}, {"easy:migrate=1", "10"}, {"easy", "100"}};
	for (int i = 0; i < 4; i++) {
		struct js_runtime *rt;
		struct js_sim_result *r;
		struct cmn_err e;
		CU_ASSERT_FATAL(js_runtime_create("log", &rt, &e) == 0);
		CU_ASSERT_EQUAL_FATAL(
		    th_run_spec(w, "torus:dims=8", "bgl", scheds[i][0], rt, NULL, &r, &e), 0);
		CU_ASSERT_DOUBLE_EQUAL(r->jobs[4].start_s, atof(scheds[i][1]), 1e-9);
		if (i == 1) {
			CU_ASSERT_EQUAL(r->migrations_done, 1);
			CU_ASSERT(r->jobs[1].moves + r->jobs[3].moves >= 1);
		}
		js_sim_result_free(r);
		js_runtime_destroy(rt);
	}
	js_workload_free(w);
}

/* The migration step itself: the ring of 8 with pairs at 1-2 and 5-6. */
static void test_migrate_op(void)
{
	struct plat_machine *m;
	struct js_alloc *a;
	struct cmn_err e;
	CU_ASSERT_FATAL(plat_machine_create("torus:dims=8", &m, &e) == 0);
	const int x[2] = {1, 2}, y[2] = {5, 6}, n[2] = {2, 2};
	const int *nodes[2] = {x, y};
	int ox[2], oy[2], *out[2] = {ox, oy};
	for (int k = 0; k < 2; k++) {
		CU_ASSERT_FATAL(js_alloc_create(k ? "bgl:fn_max=0.4" : "bgl", m, &a, &e) == 0);
		js_alloc_occupy(a, x, 2);
		js_alloc_occupy(a, y, 2);
		int rc = a->ops->migrate(a->self, 2, nodes, n, out);
		if (k == 0) { /* FN_tor 0.5, FN_max 2/4: tried; packed, the free run doubles */
			CU_ASSERT_EQUAL(rc, 1);
			CU_ASSERT(ox[0] == 0 && ox[1] == 1 && oy[0] == 2 && oy[1] == 3);
		} else { /* FN_max 0.5 > 0.4: not tried */
			CU_ASSERT_EQUAL(rc, -1);
		}
		CU_ASSERT_EQUAL(js_alloc_free_count(a), 4); /* unchanged */
		js_alloc_destroy(a);
	}
	plat_machine_destroy(m);
}

/* Seed 001's penalty: co-allocated jobs run (1 + psi) times as long; drawn
 * psi values belong to jobs, not to the schedule. */
static void test_penalty_model(void)
{
	struct js_workload *w = th_workload();
	th_add(w, 0, 100, 100, 12); /* > thres 10: 4 components over clusters */
	th_add(w, 0, 100, 100, 5);  /* one cluster */
	struct js_runtime *rt;
	struct js_sim_result *r;
	struct cmn_err e;
	const char *m = "multicluster:clusters=5,size=20";
	CU_ASSERT_FATAL(js_runtime_create("penalty:psi=0.25", &rt, &e) == 0);
	CU_ASSERT_EQUAL_FATAL(th_run_spec(w, m, "coalloc", "fcfs", rt, NULL, &r, &e), 0);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[0].finish_s, 125, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[1].finish_s, 100, 1e-9);
	int psi_col = js_rt_values_col(&r->values, "psi");
	CU_ASSERT_DOUBLE_EQUAL(js_rt_values_num(&r->values, 0, psi_col), 0.25, 0);
	js_sim_result_free(r);
	js_runtime_destroy(rt);
	/* drawn: in [min, max], the same for a job under two schedulers */
	double psi[2][2];
	for (int k = 0; k < 2; k++) {
		CU_ASSERT_FATAL(
		    js_runtime_create("penalty:psi_min=0.001,psi_max=0.199,seed=4", &rt, &e) == 0);
		CU_ASSERT_EQUAL_FATAL(
		    th_run_spec(w, m, "coalloc", k ? "easy" : "fpfs", rt, NULL, &r, &e), 0);
		for (int j = 0; j < 2; j++) {
			psi[k][j] = js_rt_values_num(&r->values, (size_t)j,
			                             js_rt_values_col(&r->values, "psi"));
			CU_ASSERT(psi[k][j] >= 0.001 && psi[k][j] <= 0.199);
		}
		CU_ASSERT_DOUBLE_EQUAL(r->jobs[0].finish_s, 100 * (1 + psi[k][0]), 1e-9);
		js_sim_result_free(r);
		js_runtime_destroy(rt);
	}
	CU_ASSERT(psi[0][0] == psi[1][0] && psi[0][1] == psi[1][1] && psi[0][0] != psi[0][1]);
	js_workload_free(w);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("schedules", NULL, NULL);
	CU_add_test(s, "seed 003 Fig. 1 under FCFS", test_fig1_fcfs);
	CU_add_test(s, "seed 003 Fig. 1 under EASY and conservative", test_fig1_backfilling);
	CU_add_test(s, "EASY backfills where conservative does not", test_easy_vs_conservative);
	CU_add_test(s, "EASY protects the head's reservation", test_easy_protects_head);
	CU_add_test(s, "FPFS maxjumps", test_fpfs_maxjumps);
	CU_add_test(s, "queue orders", test_queue_order);
	CU_add_test(s, "aging priority order (seed 004)", test_priority_order);
	CU_add_test(s, "kill at requested time", test_kill_at_requested);
	CU_add_test(s, "overdue jobs under backfilling", test_overrun_backfilling);
	CU_add_test(s, "speedup run-time model", test_speedup_model);
	CU_add_test(s, "rate change re-predicts finishes", test_rate_change_repredicts);
	CU_add_test(s, "zero run times and simultaneous events", test_zero_runtime_and_ties);
	CU_add_test(s, "a job that never fits is an error", test_never_fits_is_error);
	CU_add_test(s, "scheduler specifications", test_unknown_scheduler);
	CU_add_test(s, "migration (seed 003)", test_migration);
	CU_add_test(s, "the migration step", test_migrate_op);
	CU_add_test(s, "penalty run-time model (seed 001)", test_penalty_model);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

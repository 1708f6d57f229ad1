/* Resizable jobs and seed 004's policies: hand-worked cases for each
 * strategy (who contracts, who grows, in which order), the sweet spot,
 * the speed-up model, placement on growth and contraction, priorities,
 * and properties over the paper's synthetic workloads (never below the
 * starting size, contraction only to sizes run before, resizing disabled
 * = the static schedule, determinism). */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../jobsched/resize/resize.h"
#include "../../jobsched/runtime/runtime.h"
#include "../../jobsched/workload/synth.h"
#include "../helpers.h"

/* A resizable job: iters iterations of iter_s seconds on size nodes. */
static void add_rs(struct js_workload *w, double submit, int size, int iters, double iter_s,
                   double req, double user_prio)
{
	th_add(w, submit, iters * iter_s, req, size);
	struct js_job *j = &w->jobs[w->n - 1];
	j->resizable = 1;
	j->iters = (uint16_t)iters;
	j->topo = JS_TOPO_ARBITRARY;
	j->user_prio = user_prio;
}

/* Test run-time model: iteration time from_iter (from_n / n)^k, k = the
 * job's SWF group field / 100 (so each job scales as the test says); k < 0:
 * every new size is 20% slower (no benefit). */
static double k_of(struct js_sim *sim, int j)
{
	return js_sim_job(sim, j)->f[JS_F_GROUP] / 100.0;
}
static int t_create(const struct cmn_params *p, void **self, struct cmn_err *e)
{
	(void)p, (void)e;
	*self = NULL;
	return 0;
}
static double t_work(void *self, struct js_sim *sim, int j, const int *nodes, int n,
                     struct cmn_err *e)
{
	(void)self, (void)nodes, (void)n, (void)e;
	return js_sim_job(sim, j)->run_s;
}
static double t_iter(void *self, struct js_sim *sim, int j, const int *nodes, int n, int from_n,
                     double from_iter_s, struct cmn_err *e)
{
	(void)self, (void)nodes, (void)e;
	double k = k_of(sim, j);
	return k < 0 ? from_iter_s * 1.2 : from_iter_s * pow((double)from_n / n, k);
}
static const struct cmn_param_def t_params[] = {{NULL}};
static const struct js_runtime_ops t_ops = {
    .base = {"test-scaling", "test", t_params},
    .create = t_create,
    .work_s = t_work,
    .resize_iter = t_iter,
};

/* Runs w on machine with the policy (NULL: static) and run-time model
 * (NULL: the test model); priority queue order. */
static struct js_sim_result *run(const struct js_workload *w, const char *machine,
                                 const char *policy, const char *rt_spec)
{
	struct cmn_err e;
	struct js_runtime *rt = NULL;
	struct js_resize *rz = NULL;
	int rc = rt_spec ? js_runtime_create(rt_spec, &rt, &e)
	                 : js_runtime_create_ops(&t_ops, "", &rt, &e);
	if (!rc && policy)
		rc = js_resize_create(policy, &rz, &e);
	struct js_sim_opts o;
	js_sim_opts_default(&o);
	o.order = JS_ORDER_PRIORITY;
	o.resize = rz;
	struct js_sim_result *r = NULL;
	if (!rc)
		rc = th_run_spec(w, machine, "first-free", "easy", rt, &o, &r, &e);
	if (rc)
		fprintf(stderr, "\n  %s\n", e.msg);
	CU_ASSERT_EQUAL(rc, 0);
	js_resize_destroy(rz);
	js_runtime_destroy(rt);
	return r;
}

static const char *sizes(const struct js_sim_result *r, int j)
{
	return r->jobs[j].sizes_off == SIZE_MAX ? "" : r->text + r->jobs[j].sizes_off;
}

static void test_next_size(void)
{
	struct js_resize_conf c = {2, 0, 0.8, 0, 0};
	struct js_job j;
	memset(&j, 0, sizeof j);
	j.topo = JS_TOPO_ARBITRARY;                              /* one row of the starting grid */
	CU_ASSERT_EQUAL(js_rs_next_size(&c, &j, 35, 35), 42);    /* 5 x 7 */
	CU_ASSERT_EQUAL(js_rs_next_size(&c, &j, 35, 49), 56);    /* still rows of 7 */
	CU_ASSERT_EQUAL(js_rs_next_size(&c, &j, 136, 136), 153); /* 8 x 17 */
	CU_ASSERT_EQUAL(js_rs_next_size(&c, &j, 81, 81), 90);
	c.arb_step = 10;
	CU_ASSERT_EQUAL(js_rs_next_size(&c, &j, 35, 35), 45);
	c.arb_step = -1; /* its starting size */
	CU_ASSERT_EQUAL(js_rs_next_size(&c, &j, 35, 35), 70);
	CU_ASSERT_EQUAL(js_rs_next_size(&c, &j, 35, 70), 105);
	c.arb_step = 10;
	j.topo = JS_TOPO_SQUARE;                              /* one more on the shorter side */
	CU_ASSERT_EQUAL(js_rs_next_size(&c, &j, 35, 35), 42); /* 5x7 -> 6x7 */
	CU_ASSERT_EQUAL(js_rs_next_size(&c, &j, 35, 42), 49); /* 6x7 -> 7x7 */
	CU_ASSERT_EQUAL(js_rs_next_size(&c, &j, 35, 49), 56); /* 7x7 -> 8x7 */
	CU_ASSERT_EQUAL(js_rs_next_size(&c, &j, 81, 81), 90);
	CU_ASSERT_EQUAL(js_rs_next_size(&c, &j, 37, 37), 74); /* prime: 1 x 37 */
	j.topo = JS_TOPO_POW2;
	CU_ASSERT_EQUAL(js_rs_next_size(&c, &j, 32, 32), 64);
	CU_ASSERT_EQUAL(js_rs_next_size(&c, &j, 32, 128), 256);
}

static void test_speedup_model(void)
{
	CU_ASSERT_DOUBLE_EQUAL(js_reshape_factor(35, 70, 0.8), pow(2, 0.8), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(js_reshape_factor(400, 420, 0.75), pow(1.05, 0.75 * 0.05), 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(js_reshape_factor(70, 35, 0.8), pow(0.5, -0.4), 1e-12);
}

/* Max-B alone on the machine: grows a row (5 nodes) at each of its three
 * resize points, each iteration shorter by the model's factor. */
static void test_maxb_alone(void)
{
	struct js_workload *w = th_workload();
	add_rs(w, 0, 10, 4, 10, 100, 0); /* 2 x 5 grid: rows of 5 */
	struct js_sim_result *r = run(w, "flat:nodes=100", "maxb", "reshape");
	double a = 0.8, i15 = 10 / js_reshape_factor(10, 15, a);
	double i20 = i15 / js_reshape_factor(15, 20, a), i25 = i20 / js_reshape_factor(20, 25, a);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[0].finish_s, 10 + i15 + i20 + i25, 1e-9);
	CU_ASSERT_EQUAL(r->jobs[0].expansions, 3);
	CU_ASSERT_EQUAL(r->jobs[0].contractions, 0);
	CU_ASSERT_EQUAL(r->jobs[0].max_nodes, 25);
	CU_ASSERT_EQUAL(r->jobs[0].nnodes, 25);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[0].node_s, 10 * 10 + 15 * i15 + 20 * i20 + 25 * i25, 1e-6);
	CU_ASSERT_EQUAL(strncmp(sizes(r, 0), "10@0 15@10 20@", 14), 0);
	CU_ASSERT_EQUAL(r->resize_points, 3);
	js_sim_result_free(r);
	/* from=start: every size's time from the starting one */
	r = run(w, "flat:nodes=100", "maxb", "reshape:from=start");
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[0].finish_s,
	                       10 + 10 / js_reshape_factor(10, 15, a) +
	                           10 / js_reshape_factor(10, 20, a) +
	                           10 / js_reshape_factor(10, 25, a),
	                       1e-9);
	js_sim_result_free(r);
	js_workload_free(w);
}

/* The expand potential (window 1: counted after one expansion): the slope
 * of the speed-up through (10, 1) and (15, 1.5^0.4) is 0.0352 per node, so
 * a threshold of 0.04 stops the growth at 15 and one of 0.03 does not. */
static void test_expand_potential(void)
{
	struct js_workload *w = th_workload();
	add_rs(w, 0, 10, 4, 10, 100, 0);
	struct js_sim_result *r = run(w, "flat:nodes=100", "maxb:window=1,min_ep=0.04", "reshape");
	CU_ASSERT_STRING_EQUAL(sizes(r, 0), "10@0 15@10");
	js_sim_result_free(r);
	r = run(w, "flat:nodes=100", "maxb:window=1,min_ep=0.03", "reshape");
	CU_ASSERT_EQUAL(strncmp(sizes(r, 0), "10@0 15@10 20@", 14), 0);
	js_sim_result_free(r);
	js_workload_free(w);
}

/* An expansion that does not pay: back to the earlier size (its measured
 * time kept, not re-modelled), which becomes the sweet spot; no growth
 * after. The redistribution time is charged after each resize. */
static void test_sweet_spot(void)
{
	struct js_workload *w = th_workload();
	add_rs(w, 0, 10, 4, 10, 100, 0);
	w->jobs[0].f[JS_F_GROUP] = -100; /* every new size 20% slower */
	struct js_sim_result *r = run(w, "flat:nodes=100", "maxb", NULL);
	CU_ASSERT_STRING_EQUAL(sizes(r, 0), "10@0 15@10 10@22");
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[0].finish_s, 10 + 12 + 10 + 10, 1e-9);
	CU_ASSERT_EQUAL(r->jobs[0].expansions, 1);
	CU_ASSERT_EQUAL(r->jobs[0].contractions, 1);
	js_sim_result_free(r);
	r = run(w, "flat:nodes=100", "maxb:redist=3", NULL);
	CU_ASSERT_STRING_EQUAL(sizes(r, 0), "10@0 15@10 10@25");
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[0].finish_s, 10 + (3 + 12) + (3 + 10) + 10, 1e-9);
	js_sim_result_free(r);
	js_workload_free(w);
}

/* An expansion that did not pay counts after the job was harvested back:
 * A grows to 48 at 10 (its iterations then take 12 s instead of 10), is
 * contracted at 22 for C, and at 32, with nodes idle again, does not grow
 * a second time: 40 is its sweet spot. */
static void test_sweet_spot_after_harvest(void)
{
	struct js_workload *w = th_workload();
	add_rs(w, 0, 40, 6, 10, 200, 0);
	w->jobs[0].f[JS_F_GROUP] = -100; /* every new size 20% slower */
	th_add(w, 15, 5, 10, 56);        /* C: needs 4 more than the 52 free */
	struct js_sim_result *r = run(w, "flat:nodes=100", "pba", NULL);
	CU_ASSERT_STRING_EQUAL(sizes(r, 0), "40@0 48@10 40@22");
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[1].start_s, 22, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[0].finish_s, 10 + 12 + 4 * 10, 1e-9);
	js_sim_result_free(r);
	js_workload_free(w);
}

/* Two running jobs grown from 40 to 48 nodes on 100 (A scales linearly,
 * B barely); C (12 nodes) arrives and waits for 8 of the 4 free. PBA's
 * Least-Impact-Priority contracts B, the least impact, even though A
 * reaches its resize point first; FCFS-Contract-Priority contracts A,
 * first at its resize point. C starts when the contracted job releases. */
static struct js_workload *harvest_case(double prio_a, double prio_b, double prio_c)
{
	struct js_workload *w = th_workload();
	add_rs(w, 0, 40, 8, 10, 200, prio_a); /* A: 5 x 8 grid, rows of 8 */
	add_rs(w, 1, 40, 8, 10, 200, prio_b); /* B */
	th_add(w, 12, 10, 20, 12);            /* C, rigid */
	w->jobs[2].user_prio = prio_c;
	w->jobs[0].f[JS_F_GROUP] = 100; /* A: iteration x 40/48 */
	w->jobs[1].f[JS_F_GROUP] = 10;  /* B: x (40/48)^0.1 */
	return w;
}

static void test_least_impact(void)
{
	struct js_workload *w = harvest_case(0, 0, 0);
	struct js_sim_result *r = run(w, "flat:nodes=100", "pba", NULL);
	double ia = 10 * 40.0 / 48, ib = 10 * pow(40.0 / 48, 0.1);
	/* A at 10 + ia: the list holds B (impact ~0.018) then A (0.2); B
	 * alone frees the 8 nodes, so A is not contracted and keeps 48 */
	CU_ASSERT_EQUAL(strncmp(sizes(r, 0), "40@0 48@10", 10), 0);
	CU_ASSERT_EQUAL(r->jobs[0].contractions, 0);
	/* B at 11 + ib: contracted; C starts then */
	char want[64];
	snprintf(want, sizeof want, "40@1 48@11 40@%.15g", 11 + ib);
	CU_ASSERT_EQUAL(strncmp(sizes(r, 1), want, strlen(want)), 0);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[2].start_s, 11 + ib, 1e-9);
	(void)ia;
	js_sim_result_free(r);

	r = run(w, "flat:nodes=100", "fcfs", NULL);
	/* FCFS-Contract: A, first at its resize point, contracts */
	snprintf(want, sizeof want, "40@0 48@10 40@%.15g", 10 + ia);
	CU_ASSERT_EQUAL(strncmp(sizes(r, 0), want, strlen(want)), 0);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[2].start_s, 10 + ia, 1e-9);
	js_sim_result_free(r);
	js_workload_free(w);
}

/* Priorities: a high-priority running job is not contracted for a lower
 * priority queued job (Least-Impact: B high, so A, low, contracts); with
 * the queued job above both, low-priority jobs still come first in the
 * list whatever their impact (A again, though B's impact is smaller). Under FCFS-Contract a
 * high-priority job contracts only for a higher priority queued job: with A and B high and C low
 * nobody contracts and C waits for A to end; with C higher, A, first at its resize point,
 * contracts. */
static void test_harvest_priorities(void)
{
	double ia = 10 * 40.0 / 48;
	struct js_workload *w = harvest_case(0, 100, 0);
	struct js_sim_result *r = run(w, "flat:nodes=100", "pba", NULL);
	CU_ASSERT_EQUAL(r->jobs[1].contractions, 0);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[2].start_s, 10 + ia, 1e-9);
	js_sim_result_free(r);
	js_workload_free(w);

	w = harvest_case(0, 100, 200);
	r = run(w, "flat:nodes=100", "pba", NULL);
	CU_ASSERT_EQUAL(r->jobs[1].contractions, 0);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[2].start_s, 10 + ia, 1e-9);
	js_sim_result_free(r);
	js_workload_free(w);

	w = harvest_case(100, 100, 0);
	r = run(w, "flat:nodes=100", "fcfs", NULL);
	CU_ASSERT_EQUAL(r->jobs[0].contractions + r->jobs[1].contractions, 0);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[2].start_s, r->jobs[0].finish_s, 1e-9);
	js_sim_result_free(r);
	js_workload_free(w);

	w = harvest_case(100, 100, 200);
	r = run(w, "flat:nodes=100", "fcfs", NULL);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[2].start_s, 10 + ia, 1e-9);
	CU_ASSERT_EQUAL(r->jobs[0].contractions, 1);
	js_sim_result_free(r);
	js_workload_free(w);
}

/* Max-Benefit pre-allocation: H (high priority) grew to 48 at 10 and will
 * want 8 more; L reaches its point at 11 with 12 free. With H of higher
 * priority, H's 8 are held back and L keeps 40; with equal priorities
 * (equal expand potentials: not yet computed) nothing is held and L
 * grows. Max-B never contracts for the queue. */
static void test_max_benefit_preallocation(void)
{
	struct js_workload *w = th_workload();
	add_rs(w, 0, 40, 3, 10, 200, 100); /* H */
	add_rs(w, 1, 40, 3, 10, 200, 0);   /* L */
	w->jobs[0].f[JS_F_GROUP] = w->jobs[1].f[JS_F_GROUP] = 100;
	struct js_sim_result *r = run(w, "flat:nodes=100", "maxb", NULL);
	CU_ASSERT_STRING_EQUAL(sizes(r, 1), "40@1"); /* held back, then full */
	CU_ASSERT_STRING_EQUAL(sizes(r, 0), "40@0 48@10 56@18.3333333333333"); /* H takes them */
	js_sim_result_free(r);
	w->jobs[0].user_prio = 0;
	r = run(w, "flat:nodes=100", "maxb", NULL);
	CU_ASSERT_EQUAL(strncmp(sizes(r, 1), "40@1 48@11", 10), 0);
	js_sim_result_free(r);
	js_workload_free(w);
}

/* Growth takes the free nodes nearest the job; contraction releases the
 * farthest, one at a time (the largest sum of distances to the others,
 * ties to the higher node number): on a 4x4 mesh a row (0-3) grows into
 * the next row (4-7); back to 4 nodes it drops 7, 3, 6 and 2 (sums 16,
 * 15, 9 and 8 as they fall) and keeps the 2 x 2 square 0-1, 4-5. */
static void test_placement(void)
{
	struct js_workload *w = th_workload();
	add_rs(w, 0, 4, 3, 10, 100, 0);
	w->jobs[0].f[JS_F_GROUP] = -100; /* growth does not pay: back to 4 */
	struct js_sim_result *r = run(w, "mesh:dims=4x4", "maxb:arb_step=4", NULL);
	CU_ASSERT_STRING_EQUAL(sizes(r, 0), "4@0 8@10 4@22");
	CU_ASSERT_STRING_EQUAL(r->text + r->jobs[0].res_off, "0-1 4-5");
	js_sim_result_free(r);
	js_workload_free(w);
}

/* The user priority orders the queue on top of the aging priority. */
static void test_user_priority_order(void)
{
	struct js_workload *w = th_workload();
	th_add(w, 0, 100, 100, 10);
	th_add(w, 1, 10, 10, 10);
	th_add(w, 2, 10, 10, 10);
	w->jobs[2].user_prio = 100;
	struct js_sim_result *r = run(w, "flat:nodes=10", NULL, "log");
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[2].start_s, 100, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(r->jobs[1].start_s, 110, 1e-9);
	js_sim_result_free(r);
	js_workload_free(w);
}

/* The running-job priority, watched at every event: 100 - pct_time_left +
 * user priority. */
struct watch {
	int checked;
};
static void watch_prio(void *ctx, struct js_sim *sim)
{
	struct watch *x = ctx;
	for (size_t p = 0; p < js_sim_rlen(sim); p++) {
		int j = js_sim_rjob(sim, p);
		const struct js_job *job = js_sim_job(sim, j);
		double el = js_sim_now(sim) - js_sim_start_time(sim, j);
		double want = 100 - (job->req_s - el) / job->req_s * 100 + job->user_prio;
		CU_ASSERT_DOUBLE_EQUAL(js_sim_run_priority(sim, j), want, 1e-9);
		x->checked++;
	}
}
static void test_running_priority(void)
{
	struct js_workload *w = th_workload();
	th_add(w, 0, 50, 200, 5);
	th_add(w, 10, 30, 60, 5);
	w->jobs[1].user_prio = 7;
	struct js_runtime *rt = NULL;
	struct cmn_err e;
	CU_ASSERT_FATAL(js_runtime_create("log", &rt, &e) == 0);
	struct watch x = {0};
	struct js_sim_opts o;
	js_sim_opts_default(&o);
	o.observer = watch_prio;
	o.observer_ctx = &x;
	struct js_sim_result *r = NULL;
	CU_ASSERT_EQUAL(th_run_rt(w, 10, "easy", rt, &o, &r, &e), 0);
	CU_ASSERT(x.checked >= 3);
	js_sim_result_free(r);
	js_runtime_destroy(rt);
	js_workload_free(w);
}

/* Seed 004's workload (120 jobs, resizable share, 400 nodes). */
static struct js_workload *reshape_workload(unsigned long seed, const char *spec)
{
	struct js_workload *w = NULL;
	struct cmn_err e;
	char eff[512];
	int rc = js_synth_generate(spec, seed, 400, &w, eff, sizeof eff, &e);
	struct js_clean_opts co;
	js_clean_opts_default(&co);
	if (!rc)
		rc = js_clean(w, &co, 400, &e);
	if (rc)
		fprintf(stderr, "\n  %s\n", e.msg);
	CU_ASSERT_FATAL(rc == 0);
	return w;
}

/* Every job's sizes: never below its start, a contraction only to a size
 * it ran on before. */
static void check_sizes(const struct js_workload *w, const struct js_sim_result *r)
{
	for (size_t j = 0; j < w->n; j++) {
		if (r->jobs[j].sizes_off == SIZE_MAX)
			continue;
		int seen[64], nseen = 0, prev = -1;
		const char *p = r->text + r->jobs[j].sizes_off;
		while (*p) {
			char *end;
			int sz = (int)strtol(p, &end, 10);
			p = strchr(end, ' ');
			p = p ? p + 1 : end + strlen(end);
			CU_ASSERT(sz >= w->jobs[j].size);
			if (prev >= 0 && sz < prev) {
				int ok = 0;
				for (int k = 0; k < nseen; k++)
					ok |= seen[k] == sz;
				CU_ASSERT(ok);
			}
			if (nseen < 64)
				seen[nseen++] = sz;
			prev = sz;
		}
	}
}

/* Every resizing policy's samples (cmn_plugin.samples, or its name), in
 * registry order. */
enum { MAX_POLICIES = 64 };
static int policies_of(const char **out)
{
	return th_samples((const void *const *)js_resize_registry, out, MAX_POLICIES);
}

/* Every policy's samples: sizes the job's topology allows, growth where
 * resizable jobs meet free nodes, determinism; Max-B never contracts more
 * than it grows. */
static void test_properties(void)
{
	const char *policies[MAX_POLICIES];
	int np = policies_of(policies);
	for (unsigned long seed = 1; seed <= 4; seed++) {
		struct js_workload *w = reshape_workload(seed, "reshape:resizable=100,high=30");
		struct js_workload *rigid = reshape_workload(seed, "reshape:high=30");
		struct js_sim_result *st = run(rigid, "flat:nodes=400", NULL, "reshape");
		/* resizing disabled: a resizable workload gives the static schedule,
		 * with or without a policy for rigid jobs */
		struct js_sim_result *off = run(w, "flat:nodes=400", NULL, "reshape");
		struct js_sim_result *rg = run(rigid, "flat:nodes=400", "pba", NULL);
		for (size_t j = 0; j < w->n; j++) {
			CU_ASSERT_EQUAL(off->jobs[j].start_s, st->jobs[j].start_s);
			CU_ASSERT_EQUAL(off->jobs[j].finish_s, st->jobs[j].finish_s);
			CU_ASSERT_EQUAL(rg->jobs[j].start_s, st->jobs[j].start_s);
			CU_ASSERT_EQUAL(rg->jobs[j].finish_s, st->jobs[j].finish_s);
		}
		js_sim_result_free(off);
		js_sim_result_free(rg);
		js_sim_result_free(st);
		for (int k = 0; k < np; k++) {
			struct js_sim_result *a = run(w, "flat:nodes=400", policies[k], "reshape");
			struct js_sim_result *b = run(w, "flat:nodes=400", policies[k], "reshape");
			check_sizes(w, a);
			CU_ASSERT(a->expansions > 0);
			/* determinism */
			CU_ASSERT_EQUAL(a->text_len, b->text_len);
			CU_ASSERT(memcmp(a->text, b->text, a->text_len) == 0);
			for (size_t j = 0; j < w->n; j++)
				CU_ASSERT_EQUAL(a->jobs[j].finish_s, b->jobs[j].finish_s);
			js_sim_result_free(a);
			js_sim_result_free(b);
		}
		static const char *const maxb[] = {"maxb", "maxb:redist=2,arb_step=3"};
		for (int k = 0; k < 2; k++) {
			struct js_sim_result *a = run(w, "flat:nodes=400", maxb[k], "reshape");
			CU_ASSERT(a->contractions <= a->expansions);
			js_sim_result_free(a);
		}
		js_workload_free(rigid);
		js_workload_free(w);
	}
}

/* Invariants after every pass over random resizable workloads, every
 * policy, two schedulers, flat and mesh: no node held twice, the
 * allocator's free count equal to the nodes no job holds (growth and
 * contraction keep its state right), no running job below its starting
 * size. */
struct inv {
	int nodes, violations;
	unsigned char *mark;
};
static void inv_observe(void *ctx, struct js_sim *sim)
{
	struct inv *v = ctx;
	memset(v->mark, 0, (size_t)v->nodes);
	int busy = 0;
	for (size_t p = 0; p < js_sim_rlen(sim); p++) {
		int j = js_sim_rjob(sim, p), n;
		const int *nodes = js_sim_job_nodes(sim, j, &n);
		for (int k = 0; k < n; k++)
			v->violations += v->mark[nodes[k]]++ != 0;
		busy += n;
		v->violations += n < js_sim_start_size(sim, j);
	}
	v->violations += js_alloc_free_count(js_sim_alloc((struct js_sim *)sim)) != v->nodes - busy;
}

static void test_invariants(void)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	const char *machines[] = {"flat:nodes=64", "mesh:dims=8x8"};
	const char *policies[MAX_POLICIES];
	int np = policies_of(policies);
	const char *scheds[] = {"easy", "fcfs"};
	long runs = 0, resized = 0;
	for (int trial = 0; trial < 12; trial++) {
		gsl_rng_set(rng, (unsigned long)trial + 1);
		struct js_workload *w = th_workload();
		double t = 0;
		for (int i = 0; i < 50; i++) {
			t += (double)gsl_rng_uniform_int(rng, 8);
			int iters = 2 + (int)gsl_rng_uniform_int(rng, 5);
			double it = (double)(1 + gsl_rng_uniform_int(rng, 10));
			add_rs(w, t, 1 + (int)gsl_rng_uniform_int(rng, 40), iters, it,
			       iters * it * (1 + gsl_rng_uniform(rng)),
			       gsl_rng_uniform(rng) < 0.3 ? 100 : 0);
			struct js_job *j = &w->jobs[w->n - 1];
			j->resizable = gsl_rng_uniform(rng) < 0.7;
			j->topo = (uint8_t)gsl_rng_uniform_int(rng, 3);
			j->f[JS_F_GROUP] =
			    gsl_rng_uniform(rng) < 0.2 ? -100 : 80; /* some do not scale */
		}
		for (int m = 0; m < 2; m++)
			for (int p = 0; p < np; p++)
				for (int s = 0; s < 2; s++) {
					struct cmn_err e;
					struct js_runtime *rt = NULL;
					struct js_resize *rz = NULL;
					CU_ASSERT_FATAL(
					    js_runtime_create_ops(&t_ops, "", &rt, &e) == 0);
					CU_ASSERT_FATAL(js_resize_create(policies[p], &rz, &e) ==
					                0);
					struct inv v = {64, 0, malloc(64)};
					struct js_sim_opts o;
					js_sim_opts_default(&o);
					o.order = JS_ORDER_PRIORITY;
					o.resize = rz;
					o.observer = inv_observe;
					o.observer_ctx = &v;
					o.kill_at_req = trial % 3 == 0;
					struct js_sim_result *r = NULL;
					int rc = th_run_spec(w, machines[m], "first-free",
					                     scheds[s], rt, &o, &r, &e);
					if (rc)
						fprintf(stderr, "\n  %s\n", e.msg);
					CU_ASSERT_EQUAL(rc, 0);
					CU_ASSERT_EQUAL(v.violations, 0);
					if (r) {
						check_sizes(w, r);
						resized += r->expansions;
					}
					runs++;
					js_sim_result_free(r);
					free(v.mark);
					js_resize_destroy(rz);
					js_runtime_destroy(rt);
				}
		js_workload_free(w);
	}
	CU_ASSERT(resized > runs); /* the policies did resize */
	gsl_rng_free(rng);
}

/* The generator's shares are drawn per type and keep the job order. */
static void test_generator_shares(void)
{
	struct js_workload *a = reshape_workload(3, "reshape:resizable=50,high=25");
	struct js_workload *b = reshape_workload(3, "reshape:resizable=25,high=25");
	int nres = 0, nhigh = 0, type_res[40] = {0}, type_n[40] = {0};
	for (size_t j = 0; j < a->n; j++) {
		CU_ASSERT_EQUAL(a->jobs[j].submit_s, b->jobs[j].submit_s);
		CU_ASSERT_EQUAL(a->jobs[j].size, b->jobs[j].size);
		CU_ASSERT_EQUAL(a->jobs[j].user_prio, b->jobs[j].user_prio); /* own stream */
		CU_ASSERT_EQUAL(a->jobs[j].iters, 7);
		int ty = (int)a->jobs[j].f[JS_F_EXE] % 100;
		type_n[ty]++;
		type_res[ty] += a->jobs[j].resizable;
		CU_ASSERT_EQUAL((int)a->jobs[j].f[JS_F_EXE] >= 100, a->jobs[j].resizable);
		nres += a->jobs[j].resizable;
		nhigh += a->jobs[j].user_prio > 0;
	}
	CU_ASSERT_EQUAL(nres, 60);
	CU_ASSERT_EQUAL(nhigh, 30);     /* types of 24/12/4: 6 + 3 + 1 per class */
	for (int ty = 0; ty < 40; ty++) /* half of each type (4 -> 2, 12 -> 6, 24 -> 12) */
		if (type_n[ty])
			CU_ASSERT_EQUAL(type_res[ty], type_n[ty] / 2);
	js_workload_free(a);
	js_workload_free(b);
}

/* A policy that contracts a job to a size it never ran on, or resizes it
 * twice at one point, is stopped by the core with the job named. */
static int bad_point(const struct js_resize_conf *c, struct js_sim *sim, int j, struct cmn_err *e)
{
	(void)c;
	int n;
	js_sim_job_nodes(sim, j, &n);
	int rc = js_sim_resize(sim, j, n - 1, e);
	return rc < 0 ? -rc : 0;
}
/* ... and one that grows a job twice at one resize point. */
static int twice_point(const struct js_resize_conf *c, struct js_sim *sim, int j, struct cmn_err *e)
{
	(void)c;
	int n;
	js_sim_job_nodes(sim, j, &n);
	int rc = js_sim_resize(sim, j, n + 1, e);
	if (rc >= 0)
		rc = js_sim_resize(sim, j, n + 2, e);
	return rc < 0 ? -rc : 0;
}
static const struct cmn_param_def bad_params[] = {JS_RESIZE_PARAMS};
static const struct js_resize_ops bad_ops = {{"bad", "test", bad_params, NULL}, bad_point};
static const struct js_resize_ops twice_ops = {{"twice", "test", bad_params, NULL}, twice_point};

static void test_unseen_size_refused(void)
{
	struct js_workload *w = th_workload();
	add_rs(w, 0, 10, 4, 10, 100, 0);
	struct js_runtime *rt = NULL;
	struct cmn_err e;
	CU_ASSERT_FATAL(js_runtime_create("reshape", &rt, &e) == 0);
	struct js_resize rz = {&bad_ops, {0}, {2, 0, 0.8, 0, 0}, "bad"};
	struct js_sim_opts o;
	js_sim_opts_default(&o);
	o.resize = &rz;
	struct js_sim_result *r = NULL;
	CU_ASSERT_NOT_EQUAL(th_run_rt(w, 100, "easy", rt, &o, &r, &e), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "job 1: contraction from 10 to 9 nodes, a size it has "
	                                     "not run on"));
	CU_ASSERT_PTR_NULL(r);
	rz.ops = &twice_ops;
	CU_ASSERT_NOT_EQUAL(th_run_rt(w, 100, "easy", rt, &o, &r, &e), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "job 1 resized twice at one resize point"));
	CU_ASSERT_PTR_NULL(r);
	js_runtime_destroy(rt);
	js_workload_free(w);
}

/* A model that cannot resize jobs is refused with the job named; a
 * contraction to an unseen size is refused. */
static void test_errors(void)
{
	struct js_workload *w = th_workload();
	add_rs(w, 0, 10, 4, 10, 100, 0);
	struct js_runtime *rt = NULL;
	struct js_resize *rz = NULL;
	struct cmn_err e;
	CU_ASSERT_FATAL(js_runtime_create("log", &rt, &e) == 0);
	CU_ASSERT_FATAL(js_resize_create("pba", &rz, &e) == 0);
	struct js_sim_opts o;
	js_sim_opts_default(&o);
	o.resize = rz;
	struct js_sim_result *r = NULL;
	CU_ASSERT_NOT_EQUAL(th_run_rt(w, 100, "easy", rt, &o, &r, &e), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "cannot run resizable jobs (job 1)"));
	CU_ASSERT_PTR_NULL(r);
	js_runtime_destroy(rt);
	js_resize_destroy(rz);
	CU_ASSERT_NOT_EQUAL(js_resize_create("nope", &rz, &e), 0);
	CU_ASSERT_NOT_EQUAL(js_resize_create("pba:window=0", &rz, &e), 0);
	CU_ASSERT_NOT_EQUAL(js_resize_create("pba:arb_step=-3", &rz, &e), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "arb_step: '-3' is not row, start"));
	CU_ASSERT_NOT_EQUAL(js_resize_create("pba:arb_step=4x", &rz, &e), 0);
	CU_ASSERT_NOT_EQUAL(js_resize_create("pba:arb_step= 4", &rz, &e), 0);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(e.msg, "resizing policy 'pba:arb_step= 4': arb_step: ' 4' is not row"));
	CU_ASSERT_EQUAL(js_resize_create("pba:arb_step=start", &rz, &e), 0);
	CU_ASSERT_EQUAL(rz->conf.arb_step, -1);
	js_resize_destroy(rz);
	js_workload_free(w);
}

/* First-free on the machine spec (its defaults decide growth and
 * contraction). */
static struct js_alloc *first_free_on(const char *spec, struct plat_machine **m)
{
	struct cmn_err e = {0};
	struct js_alloc *a = NULL;
	CU_ASSERT_FATAL(plat_machine_create(spec, m, &e) == 0);
	CU_ASSERT_FATAL(js_alloc_create("first-free", *m, &a, &e) == 0);
	return a;
}

/* Growth by distance (js_alloc_grow's default) against its definition,
 * every free node against every job node and a stable sort, on random
 * states of meshes, tori (rings of 2 and 1 included), trees, flat and
 * multi-cluster machines, for jobs small (pair by pair) and large (the
 * family's search from the job's nodes). */
static void test_grow_brute_force(void)
{
	static const char *machines[] = {
	    "mesh:dims=7x5",
	    "torus:dims=6x2x5",
	    "torus:dims=9x1",
	    "mesh:dims=4x3x2",
	    "kary-ntree:k=3,n=3",
	    "kary-ntree:k=2,n=5",
	    "flat:nodes=40",
	    "multicluster:clusters=3,size=8",
	    "torus:dims=3x3x3x2",
	    "multicluster:clusters=3,sizes=5/9/2",
	    "multicluster:clusters=4,size=9,cluster=torus;dims=3x3",
	    "multicluster:clusters=3,size=8,cluster=kary-ntree;k=2;n=3,"
	    "wan=backbone",
	    "multicluster:clusters=1,size=12,cluster=mesh;dims=4x3",
	    "multicluster:clusters=5,size=4,cluster=mesh;dims=1x4"};
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 17);
	for (size_t mi = 0; mi < sizeof machines / sizeof *machines; mi++) {
		struct plat_machine *m = NULL;
		struct js_alloc *a = first_free_on(machines[mi], &m);
		int N = m->nodes, *job = malloc((size_t)N * sizeof *job),
		    *fr = malloc((size_t)N * sizeof *fr), *out = malloc((size_t)N * sizeof *out),
		    *want = malloc((size_t)N * sizeof *want),
		    *dist = malloc((size_t)N * sizeof *dist);
		uint8_t *busy = malloc((size_t)N);
		CU_ASSERT_FATAL(job && fr && out && want && dist && busy);
		for (int round = 0; round < 200; round++) {
			int n = 0, nfree = 0;
			double pj = round % 2 ? 0.5 : 2.0 / N, pb = gsl_rng_uniform(r) * 0.5;
			for (int v = 0; v < N; v++) {
				double u = gsl_rng_uniform(r);
				if (u < pj)
					job[n++] = v;
				else if (u > pj + pb * (1 - pj))
					fr[nfree++] = v;
			}
			if (!n || !nfree)
				continue;
			int extra = 1 + (int)gsl_rng_uniform_int(r, (unsigned long)nfree);
			for (int c = 0; c < nfree; c++) {
				dist[c] = -1;
				for (int i = 0; i < n; i++) {
					int d = plat_distance(m, fr[c], job[i]);
					dist[c] = dist[c] < 0 || d < dist[c] ? d : dist[c];
				}
			}
			for (int k = 0, d = 0; k < extra; d++) /* by distance, then node */
				for (int c = 0; c < nfree && k < extra; c++)
					if (dist[c] == d)
						want[k++] = fr[c];
			CU_ASSERT_EQUAL_FATAL(js_alloc_grow(a, job, n, fr, nfree, extra, out), 0);
			CU_ASSERT_FATAL(memcmp(out, want, (size_t)extra * sizeof *out) == 0);
			/* from the busy map: the same nodes, and -1 beyond the free ones */
			memset(busy, 1, (size_t)N);
			for (int c = 0; c < nfree; c++)
				busy[fr[c]] = 0;
			memset(out, 0xff, (size_t)N * sizeof *out);
			CU_ASSERT_EQUAL_FATAL(js_alloc_grow_map(a, job, n, busy, extra, out), 0);
			CU_ASSERT_FATAL(memcmp(out, want, (size_t)extra * sizeof *out) == 0);
			CU_ASSERT_EQUAL(js_alloc_grow_map(a, job, n, busy, nfree + 1, out), -1);
		}
		CU_ASSERT_EQUAL(js_alloc_grow(a, job, 1, fr, 0, 1, out), -1); /* too few free */
		free(job);
		free(fr);
		free(out);
		free(want);
		free(dist);
		free(busy);
		js_alloc_destroy(a);
		plat_machine_destroy(m);
	}
	gsl_rng_free(r);
}

/* Contraction (js_alloc_shrink's default) against its definition: every
 * pair's distance, then one at a time the kept node of the largest sum
 * (ties: the higher number) swapped behind the kept ones. The same nodes
 * in the same order, on random jobs small (pair by pair) and large (the
 * flat and tree structures), dropping one node to all but one. */
static void shrink_by_definition(const struct plat_machine *m, int *nodes, int n, int drop)
{
	long *sum = calloc((size_t)n, sizeof *sum);
	CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
	for (int x = 0; x < n; x++)
		for (int y = 0; y < n; y++)
			sum[x] += plat_distance(m, nodes[x], nodes[y]);
	for (int keep = n; keep > n - drop; keep--) {
		int w = 0;
		for (int x = 1; x < keep; x++)
			if (sum[x] > sum[w] || (sum[x] == sum[w] && nodes[x] > nodes[w]))
				w = x;
		int v = nodes[w];
		for (int x = 0; x < keep; x++)
			sum[x] -= plat_distance(m, nodes[x], v);
		nodes[w] = nodes[keep - 1];
		sum[w] = sum[keep - 1];
		nodes[keep - 1] = v;
	}
	free(sum);
}

static void test_shrink_brute_force(void)
{
	static const char *machines[] = {"flat:nodes=50",      "kary-ntree:k=3,n=3",
	                                 "kary-ntree:k=2,n=6", "kary-ntree:k=5,n=1",
	                                 "kary-ntree:k=4,n=2", "kary-ntree:k=3,n=4,taper=0.5",
	                                 "mesh:dims=6x5",      "multicluster:clusters=3,size=8",
	                                 "torus:dims=6x2x5",   "torus:dims=9x1",
	                                 "mesh:dims=4x3x2",    "torus:dims=3x3x3x2",
	                                 "mesh:dims=40",       "torus:dims=7x4"};
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 23);
	for (size_t mi = 0; mi < sizeof machines / sizeof *machines; mi++) {
		struct plat_machine *m = NULL;
		struct js_alloc *a = first_free_on(machines[mi], &m);
		int N = m->nodes, *got = malloc((size_t)N * sizeof *got),
		    *want = malloc((size_t)N * sizeof *want);
		CU_ASSERT_FATAL(got && want);
		for (int round = 0; round < 300; round++) {
			/* a random set in a random order */
			int n = 0;
			double p = round % 3 ? 0.3 + 0.7 * gsl_rng_uniform(r) : 3.0 / N;
			for (int v = 0; v < N; v++)
				if (gsl_rng_uniform(r) < p)
					got[n++] = v;
			if (n < 2)
				continue;
			for (int i = n - 1; i > 0; i--) {
				int j = (int)gsl_rng_uniform_int(r, (unsigned long)i + 1),
				    t = got[i];
				got[i] = got[j];
				got[j] = t;
			}
			int drop = 1 + (int)gsl_rng_uniform_int(r, (unsigned long)n - 1);
			memcpy(want, got, (size_t)n * sizeof *got);
			shrink_by_definition(m, want, n, drop);
			CU_ASSERT_EQUAL_FATAL(js_alloc_shrink(a, got, n, drop), 0);
			CU_ASSERT_FATAL(memcmp(got, want, (size_t)n * sizeof *got) == 0);
		}
		free(got);
		free(want);
		js_alloc_destroy(a);
		plat_machine_destroy(m);
	}
	gsl_rng_free(r);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("resize", NULL, NULL);
	CU_add_test(s, "next sizes by processor topology", test_next_size);
	CU_add_test(s, "seed 004 speed-up model", test_speedup_model);
	CU_add_test(s, "Max-B alone grows a row per resize point", test_maxb_alone);
	CU_add_test(s, "expand potential threshold", test_expand_potential);
	CU_add_test(s, "sweet spot and redistribution cost", test_sweet_spot);
	CU_add_test(s, "sweet spot after a harvest", test_sweet_spot_after_harvest);
	CU_add_test(s, "Least-Impact vs FCFS-Contract harvesting", test_least_impact);
	CU_add_test(s, "harvesting respects priorities", test_harvest_priorities);
	CU_add_test(s, "Max-Benefit pre-allocation", test_max_benefit_preallocation);
	CU_add_test(s, "growth nearest, contraction most compact", test_placement);
	CU_add_test(s, "contraction = its definition, every family", test_shrink_brute_force);
	CU_add_test(s, "growth by distance = every pair, every family", test_grow_brute_force);
	CU_add_test(s, "user priority orders the queue", test_user_priority_order);
	CU_add_test(s, "running-job priority", test_running_priority);
	CU_add_test(s, "workload properties (static equivalence, sizes, determinism)",
	            test_properties);
	CU_add_test(s, "invariants over random resizable workloads", test_invariants);
	CU_add_test(s, "generator shares per type", test_generator_shares);
	CU_add_test(s, "errors", test_errors);
	CU_add_test(s, "contraction to an unseen size, two resizes at a point: refused",
	            test_unseen_size_refused);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

/* Conservative backfilling (sched_conservative.c) against its reference
 * (cons_ref.c: the scheduler as it was, every pass visiting every queued
 * job over the segment profile): the same start, nodes and reservations
 * for every job, and the same number of passes, on random congested
 * workloads with early ends, overruns and ties, under every queue order,
 * with and without kills, reserving counts and node sets. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../helpers.h"
#include "../platforms/platform.h"
#include "cons_ref.h"

/* Random workload of n jobs on a machine of `nodes` nodes, busy enough that
 * the queue grows to tens or hundreds of jobs: integer times (many ties),
 * most jobs ending before their requested time, some at it, some (with
 * overrun) after it, and some run times of 0; sizes small, large or all. */
static struct js_workload *congested(gsl_rng *r, int n, int nodes, int overrun)
{
	struct js_workload *w = th_workload();
	double t = 0;
	for (int i = 0; i < n; i++) {
		t += (double)gsl_rng_uniform_int(r, 4);
		double req = (double)(1 + gsl_rng_uniform_int(r, 60));
		double u = gsl_rng_uniform(r);
		double run = u < 0.2    ? req
		             : u < 0.25 ? 0
		                        : (double)gsl_rng_uniform_int(r, (unsigned long)req + 1);
		if (overrun && gsl_rng_uniform(r) < 0.1)
			run = req + (double)(1 + gsl_rng_uniform_int(r, 30));
		u = gsl_rng_uniform(r);
		int size = u < 0.1 ? nodes
		           : u < 0.6
		               ? 1 + (int)gsl_rng_uniform_int(r, (unsigned long)(nodes / 4 + 1))
		               : 1 + (int)gsl_rng_uniform_int(r, (unsigned long)nodes);
		th_add(w, t, run, req, size > nodes ? nodes : size);
	}
	return w;
}

/* Runs w with conservative (ref: the reference) on machine and alloc, the
 * allocator's ops replaced by alloc_ops when given. */
static int run(const struct js_workload *w, const char *machine, const char *alloc,
               const struct js_alloc_ops *alloc_ops, int ref, const struct js_sim_opts *o,
               struct js_sim_result **res, struct cmn_err *e)
{
	struct plat_machine *m = NULL;
	struct js_alloc *a = NULL;
	struct js_runtime *rt = NULL;
	struct js_sched *s = NULL, rs = {.ops = &cons_ref_ops};
	int rc = plat_machine_create(machine, &m, e);
	if (!rc)
		rc = js_alloc_create(alloc, m, &a, e);
	if (!rc && alloc_ops)
		a->ops = alloc_ops;
	if (!rc)
		rc = js_runtime_create("log", &rt, e);
	if (!rc && ref)
		rc = cons_ref_ops.create(&rs.params, w->n, m->nodes, &rs.self, e);
	else if (!rc)
		rc = js_sched_create("conservative", w->n, m->nodes, &s, e);
	if (!rc)
		rc = js_sim_run(w, a, ref ? &rs : s, rt, o, res, e);
	if (rs.self)
		cons_ref_ops.destroy(rs.self);
	js_sched_destroy(s);
	js_runtime_destroy(rt);
	js_alloc_destroy(a);
	plat_machine_destroy(m);
	return rc;
}

/* After every pass: the longest queue seen. */
static void watch_queue(void *ctx, struct js_sim *sim)
{
	size_t *longest = ctx;
	if (js_sim_qlen(sim) > *longest)
		*longest = js_sim_qlen(sim);
}

static int same_time(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

/* 0 when both runs did the same; else prints the first difference. */
static int compare(const struct js_workload *w, const struct js_sim_result *a,
                   const struct js_sim_result *b, const char *what)
{
	for (size_t j = 0; j < w->n; j++) {
		const struct js_job_result *x = &a->jobs[j], *y = &b->jobs[j];
		const char *field = !same_time(x->start_s, y->start_s)     ? "start"
		                    : !same_time(x->finish_s, y->finish_s) ? "finish"
		                    : !same_time(x->first_reservation_s, y->first_reservation_s)
		                        ? "first reservation"
		                    : !same_time(x->reservation_s, y->reservation_s) ? "reservation"
		                    : x->killed != y->killed                         ? "killed"
		                    : strcmp(a->text + x->res_off, b->text + y->res_off) ? "nodes"
		                                                                         : NULL;
		if (field) {
			fprintf(stderr,
			        "\n  %s: job %zu: %s differs (reference: start %g, reservation %g, "
			        "nodes %s; new: %g, %g, %s)\n",
			        what, j + 1, field, x->start_s, x->reservation_s,
			        a->text + x->res_off, y->start_s, y->reservation_s,
			        b->text + y->res_off);
			return 1;
		}
	}
	if (a->passes != b->passes) {
		fprintf(stderr, "\n  %s: %ld passes, the reference %ld\n", what, b->passes,
		        a->passes);
		return 1;
	}
	return 0;
}

struct setup {
	const char *machine, *alloc;
	int node_sets; /* 1: the allocator declared not fungible */
};

/* iters random workloads on one machine and allocator, each under every
 * queue order, kills on or off and overruns on or off in turn; *longest
 * gets the longest queue seen. */
static int run_setup(const struct setup *su, unsigned long seed, int iters, int jobs,
                     size_t *longest)
{
	struct plat_machine *m;
	struct js_alloc *a;
	struct cmn_err e;
	CU_ASSERT_FATAL(plat_machine_create(su->machine, &m, &e) == 0);
	CU_ASSERT_FATAL(js_alloc_create(su->alloc, m, &a, &e) == 0);
	int nodes = m->nodes;
	struct js_alloc_ops ops = *a->ops;
	ops.fungible = su->node_sets ? 0 : ops.fungible;
	js_alloc_destroy(a);
	plat_machine_destroy(m);
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, seed);
	int bad = 0;
	static const enum js_queue_order orders[] = {JS_ORDER_ARRIVAL, JS_ORDER_SJF,
	                                             JS_ORDER_SMALLEST, JS_ORDER_PRIORITY};
	for (int it = 0; it < iters && !bad; it++) {
		struct js_workload *w = congested(r, jobs, nodes, it % 3 == 1);
		for (int oi = 0; oi < 4 && !bad; oi++) {
			struct js_sim_opts o;
			js_sim_opts_default(&o);
			o.order = orders[oi];
			o.prio = (struct js_priority){1, 0.01, 0.5, 10};
			o.kill_at_req = it % 4 == 3;
			o.observer = watch_queue;
			o.observer_ctx = longest;
			struct js_sim_result *x = NULL, *y = NULL;
			char what[160];
			snprintf(what, sizeof what, "%s, %s%s, workload %d, order %d%s",
			         su->machine, su->alloc, su->node_sets ? " (node sets)" : "", it,
			         oi, o.kill_at_req ? ", kills" : "");
			if (run(w, su->machine, su->alloc, &ops, 1, &o, &x, &e) ||
			    run(w, su->machine, su->alloc, &ops, 0, &o, &y, &e)) {
				fprintf(stderr, "\n  %s: %s\n", what, e.msg);
				bad = 1;
			} else {
				bad = compare(w, x, y, what);
			}
			js_sim_result_free(x);
			js_sim_result_free(y);
		}
		js_workload_free(w);
	}
	gsl_rng_free(r);
	return bad;
}

static void test_counts(void)
{
	static const struct setup su[] = {{"flat:nodes=16", "first-free", 0},
	                                  {"flat:nodes=5", "first-free", 0},
	                                  {"mesh:dims=4x4", "mc1x1", 0}};
	size_t longest = 0;
	for (size_t i = 0; i < sizeof su / sizeof *su; i++)
		CU_ASSERT_EQUAL(run_setup(&su[i], 100 + i, 25, 300, &longest), 0);
	CU_ASSERT(longest >= 50);
}

static void test_node_sets(void)
{
	static const struct setup su[] = {{"flat:nodes=16", "first-free", 1},
	                                  {"kary-ntree:k=2,n=4", "contiguous", 0},
	                                  {"kary-ntree:k=4,n=2", "quasi", 0},
	                                  {"torus:dims=2x2x4", "bgl", 0}};
	size_t longest = 0;
	for (size_t i = 0; i < sizeof su / sizeof *su; i++)
		CU_ASSERT_EQUAL(run_setup(&su[i], 200 + i, 12, 200, &longest), 0);
	CU_ASSERT(longest >= 50);
}

/* Long queues: a thousand jobs a workload, so that a pass has hundreds of
 * reservations to keep or move. */
static void test_long_queues(void)
{
	static const struct setup su[] = {{"flat:nodes=32", "first-free", 0},
	                                  {"kary-ntree:k=2,n=5", "contiguous", 0}};
	size_t longest = 0;
	CU_ASSERT_EQUAL(run_setup(&su[0], 300, 2, 1000, &longest), 0);
	CU_ASSERT_EQUAL(run_setup(&su[1], 301, 1, 600, &longest), 0);
	CU_ASSERT(longest >= 300);
}

/* Machines of hundreds of nodes, where consecutive what-if states differ
 * by few nodes and a canonical allocator's scratch state goes by the
 * difference (contiguous, bgl) as well as anew. */
static void test_states_by_difference(void)
{
	static const struct setup su[] = {{"kary-ntree:k=4,n=4", "contiguous", 0},
	                                  {"torus:dims=4x4x8", "bgl", 0}};
	size_t longest = 0;
	for (size_t i = 0; i < sizeof su / sizeof *su; i++)
		CU_ASSERT_EQUAL(run_setup(&su[i], 400 + i, 1, 400, &longest), 0);
	CU_ASSERT(longest >= 50);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("conservative", NULL, NULL);
	CU_add_test(s, "counts: the same schedules as the reference", test_counts);
	CU_add_test(s, "node sets by difference: the same schedules", test_states_by_difference);
	CU_add_test(s, "node sets: the same schedules as the reference", test_node_sets);
	CU_add_test(s, "long queues: the same schedules as the reference", test_long_queues);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

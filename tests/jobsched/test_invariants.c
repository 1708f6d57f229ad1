/* Invariants over thousands of random workloads (GSL generator, fixed
 * seeds), for every scheduler of the registry (its own samples): capacity,
 * every job once, a reservation never delayed and never passed; FCFS's
 * order; identical schedules when every job needs the whole machine. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../helpers.h"
#include "../platforms/platform.h"

/* Every scheduler's samples (th_samples), in registry order. */
enum { MAX_SCHED = 64 };

static int list_schedulers(const char **out)
{
	return th_samples((const void *const *)js_sched_registry, out, MAX_SCHED);
}

struct watch {
	int nodes;
	int violations;
	double *last_res; /* per job: last reservation seen, NAN none */
	unsigned char *mark;
	char what[256];
};

static void fail(struct watch *w, const char *msg, int j, double a, double b)
{
	if (!w->violations)
		snprintf(w->what, sizeof w->what, "%s (job %d: %g vs %g)", msg, j + 1, a, b);
	w->violations++;
}

/* After every pass: no node twice, never more nodes busy than exist,
 * reservations never move later. */
static void observe(void *ctx, struct js_sim *sim)
{
	struct watch *w = ctx;
	memset(w->mark, 0, (size_t)w->nodes);
	int busy = 0;
	for (size_t p = 0; p < js_sim_rlen(sim); p++) {
		int j = js_sim_rjob(sim, p), n;
		const int *nodes = js_sim_job_nodes(sim, j, &n);
		for (int k = 0; k < n; k++) {
			if (nodes[k] < 0 || nodes[k] >= w->nodes || w->mark[nodes[k]])
				fail(w, "node used twice or out of range", j, nodes[k], 0);
			else
				w->mark[nodes[k]] = 1;
		}
		busy += n;
	}
	if (busy > w->nodes)
		fail(w, "more nodes busy than exist", -1, busy, w->nodes);
	for (size_t j = 0; j < js_sim_njobs(sim); j++) {
		double r = js_sim_job_result(sim, (int)j)->reservation_s;
		if (isnan(r))
			continue;
		if (!isnan(w->last_res[j]) && r > w->last_res[j] + 1e-9)
			fail(w, "reservation moved later", (int)j, r, w->last_res[j]);
		w->last_res[j] = r;
	}
}

/* Random workload: n jobs on `nodes` nodes, integer times (many ties), run
 * time <= requested time unless overrun; sizes 1..nodes, or all = nodes. */
static struct js_workload *random_workload(gsl_rng *rng, int n, int nodes, int whole, int overrun)
{
	struct js_workload *w = th_workload();
	double t = 0;
	for (int i = 0; i < n; i++) {
		t += (double)gsl_rng_uniform_int(rng, 6);
		double req = (double)(1 + gsl_rng_uniform_int(rng, 40));
		double run = (double)gsl_rng_uniform_int(rng, (unsigned long)req + 1);
		if (overrun && gsl_rng_uniform(rng) < 0.2)
			run = req + (double)gsl_rng_uniform_int(rng, 20);
		int size = whole ? nodes : 1 + (int)gsl_rng_uniform_int(rng, (unsigned long)nodes);
		th_add(w, t, run, req, size);
	}
	return w;
}

/* A machine and allocator to run on instead of flat:nodes=N and first-free. */
struct placement {
	const char *machine, *alloc;
	int max_size; /* largest job size to draw (0: the machine's) */
};

static int run_checked(const struct js_workload *wl, int nodes, const char *sched,
                       const struct js_alloc_ops *ops, const struct placement *pl,
                       struct js_sim_result **r, struct watch *w)
{
	w->nodes = nodes;
	w->violations = 0;
	w->last_res = malloc(wl->n * sizeof *w->last_res);
	w->mark = malloc((size_t)nodes);
	for (size_t j = 0; j < wl->n; j++)
		w->last_res[j] = NAN;
	struct js_sim_opts o;
	js_sim_opts_default(&o);
	o.observer = observe;
	o.observer_ctx = w;
	struct cmn_err e;
	struct js_runtime *rt;
	int rc = js_runtime_create("log", &rt, &e);
	if (!rc && pl)
		rc = th_run_spec(wl, pl->machine, pl->alloc, sched, rt, &o, r, &e);
	else if (!rc)
		rc = th_run_ops(wl, nodes, sched, rt, ops, &o, r, &e);
	js_runtime_destroy(rt);
	if (rc)
		fprintf(stderr, "\n  %s: %s\n", sched, e.msg);
	free(w->last_res);
	free(w->mark);
	return rc;
}

static void check_common(const struct js_workload *wl, const struct js_sim_result *r,
                         struct watch *w)
{
	for (size_t j = 0; j < wl->n; j++) {
		const struct js_job_result *x = &r->jobs[j];
		if (!(x->start_s >= wl->jobs[j].submit_s))
			fail(w, "started before arrival or never", (int)j, x->start_s,
			     wl->jobs[j].submit_s);
		if (fabs(x->finish_s - x->start_s - wl->jobs[j].run_s) > 1e-9)
			fail(w, "ran other than its run time", (int)j, x->finish_s - x->start_s,
			     wl->jobs[j].run_s);
		if (x->nnodes < wl->jobs[j].size) /* allocators may enlarge (bgl) */
			fail(w, "ran on fewer nodes", (int)j, x->nnodes, wl->jobs[j].size);
	}
}

struct batch {
	unsigned long seed;
	int iters, max_nodes, jobs_min, jobs_span, overrun;
	const char *const *scheds;
	int nsched;
	const struct js_alloc_ops *ops; /* NULL: first-free as registered */
	const struct placement *pl;     /* NULL: flat machines of random size */
	int pl_nodes;                   /* the node count of pl's machine */
	int relaxed;                    /* reservations may move later (migration) */
	int in_order;                   /* jobs start in arrival order (FCFS) */
};

/* Runs random workloads through each scheduler and checks the invariants:
 * always capacity and exactly-once; without overruns also FCFS order, no
 * reservation moved later and no start after the first reservation. */
static int run_batch(const struct batch *b)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, b->seed);
	int bad = 0;
	for (int iter = 0; iter < b->iters && !bad; iter++) {
		int nodes = b->pl ? b->pl_nodes
		                  : 1 + (int)gsl_rng_uniform_int(rng, (unsigned long)b->max_nodes);
		int n = b->jobs_min + (int)gsl_rng_uniform_int(rng, (unsigned long)b->jobs_span);
		int cap = b->pl && b->pl->max_size ? b->pl->max_size : nodes;
		struct js_workload *wl = random_workload(rng, n, cap, 0, b->overrun);
		for (int s = 0; s < b->nsched && !bad; s++) {
			const char *name = b->scheds[s];
			struct js_sim_result *r = NULL;
			struct watch w = {0};
			if (run_checked(wl, nodes, name, b->ops, b->pl, &r, &w)) {
				bad = 1;
				break;
			}
			if (b->overrun || b->relaxed)
				w.violations = 0; /* reservations may move later here */
			check_common(wl, r, &w);
			for (size_t j = 0; j < wl->n && !b->overrun && !b->relaxed; j++) {
				const struct js_job_result *x = &r->jobs[j];
				if (b->in_order && j && x->start_s < r->jobs[j - 1].start_s)
					fail(&w, "started out of arrival order", (int)j, x->start_s,
					     r->jobs[j - 1].start_s);
				if (!isnan(x->first_reservation_s) &&
				    x->start_s > x->first_reservation_s + 1e-9)
					fail(&w, "started after its reservation", (int)j,
					     x->start_s, x->first_reservation_s);
			}
			if (w.violations) {
				fprintf(stderr, "\n  iteration %d, %s, %d nodes: %s\n", iter, name,
				        nodes, w.what);
				bad = 1;
			}
			js_sim_result_free(r);
		}
		js_workload_free(wl);
	}
	gsl_rng_free(rng);
	return bad;
}

static void test_random_invariants(void)
{
	const char *scheds[MAX_SCHED];
	int nsched = list_schedulers(scheds);
	struct batch b = {2026, 1500, 16, 5, 40, 0, scheds, nsched, NULL, NULL, 0, 0, 0};
	CU_ASSERT_EQUAL(run_batch(&b), 0);
}

/* FCFS: jobs start in arrival order. */
static void test_fcfs_order(void)
{
	static const char *const fcfs[] = {"fcfs"};
	struct batch b = {2027, 1500, 16, 5, 40, 0, fcfs, 1, NULL, NULL, 0, 0, 1};
	CU_ASSERT_EQUAL(run_batch(&b), 0);
}

static void test_random_overruns(void)
{
	const char *scheds[MAX_SCHED];
	int nsched = list_schedulers(scheds);
	struct batch b = {7, 500, 12, 30, 1, 1, scheds, nsched, NULL, NULL, 0, 0, 0};
	CU_ASSERT_EQUAL(run_batch(&b), 0);
}

/* Conservative with an allocator that is not fungible reserves node sets
 * (the path topology-aware allocators take): first-free declared so. */
static void test_conservative_node_sets(void)
{
	struct js_alloc ref;
	struct js_alloc *a;
	struct plat_machine *m;
	struct cmn_err e;
	CU_ASSERT_EQUAL_FATAL(plat_machine_create("flat:nodes=4", &m, &e), 0);
	CU_ASSERT_EQUAL_FATAL(js_alloc_create("first-free", m, &a, &e), 0);
	ref = *a;
	struct js_alloc_ops ops = *ref.ops;
	ops.fungible = 0;
	js_alloc_destroy(a);
	plat_machine_destroy(m);
	static const char *const cons[] = {"conservative"};
	struct batch b = {11, 1000, 12, 5, 30, 0, cons, 1, &ops, NULL, 0, 0, 0};
	CU_ASSERT_EQUAL(run_batch(&b), 0);
	struct batch o = {12, 300, 10, 30, 1, 1, cons, 1, &ops, NULL, 0, 0, 0};
	CU_ASSERT_EQUAL(run_batch(&o), 0);
}

/* Batches on pl's machine (nodes nodes), without and with overruns (seeds
 * seed and seed + 10); relaxed: reservations may move later. */
static int placed_batches(const struct placement *pl, int nodes, unsigned long seed, int iters,
                          const char *const *sch, int nsch, int relaxed)
{
	int bad = 0;
	for (int over = 0; over < 2 && !bad; over++) {
		struct batch b = {.seed = seed + 10 * (unsigned long)over,
		                  .iters = iters,
		                  .jobs_min = 5,
		                  .jobs_span = 30,
		                  .overrun = over,
		                  .scheds = sch,
		                  .nsched = nsch,
		                  .pl = pl,
		                  .pl_nodes = nodes,
		                  .relaxed = relaxed};
		bad = run_batch(&b);
	}
	return bad;
}

/* The largest size s such that every size 1..s has a place on the empty
 * machine (a job above it could never start: an error of its own). */
static int placeable(struct js_alloc *a, int nodes)
{
	int *buf = malloc(((size_t)nodes + 1) * 4 * sizeof *buf), s = 1;
	for (; s <= nodes; s++) {
		struct js_job j;
		memset(&j, 0, sizeof j);
		j.size = s;
		if (js_alloc_place(a, &j, buf) < s)
			break;
	}
	free(buf);
	return s - 1;
}

/* Every registered allocator's samples with every scheduler's, on the
 * machines it accepts, jobs of the sizes it can place on the empty
 * machine: capacity, exactly once, reservations never delayed. */
static void test_topology_allocators(void)
{
	const char *scheds[MAX_SCHED];
	int nsched = list_schedulers(scheds);
	static const char *const mach[][2] = {
	    {"kary-ntree:k=2,n=4", "16"}, {"kary-ntree:k=4,n=2", "16"},
	    {"flat:nodes=12", "12"},      {"mesh:dims=4x4", "16"},
	    {"torus:dims=2x2x4", "16"},   {"multicluster:clusters=4,size=4", "16"}};
	int bad = 0;
	for (int i = 0; js_alloc_registry[i] && !bad; i++)
		for (int k = 0; th_sample(&js_alloc_registry[i]->base, k) && !bad; k++)
			for (size_t mi = 0; mi < sizeof mach / sizeof *mach && !bad; mi++) {
				const char *spec = th_sample(&js_alloc_registry[i]->base, k);
				struct plat_machine *m;
				struct js_alloc *a;
				struct cmn_err e;
				CU_ASSERT_FATAL(plat_machine_create(mach[mi][0], &m, &e) == 0);
				int ok = js_alloc_create(spec, m, &a, &e) == 0, max = 0;
				if (ok)
					max = placeable(a, m->nodes);
				js_alloc_destroy(ok ? a : NULL);
				plat_machine_destroy(m);
				if (!ok || max < 1)
					continue;
				struct placement pl = {mach[mi][0], spec, max};
				bad = placed_batches(&pl, atoi(mach[mi][1]), 31 + mi, 150, scheds,
				                     nsched, 0);
				if (bad)
					fprintf(stderr, "\n  allocator %s on %s\n", pl.alloc,
					        pl.machine);
			}
	CU_ASSERT_EQUAL(bad, 0);
}

/* Seed 003's FCFS+migration and B+M on tori: capacity and exactly once.
 * (A migration repacks the running jobs, which can change which of them
 * must end before the head fits: its reservation may move later.) */
static void test_migration_invariants(void)
{
	static const char *const mig[] = {"fcfs:migrate=1", "easy:migrate=1"};
	static const char *const tori[][2] = {{"torus:dims=2x2x4", "16"}, {"torus:dims=8", "8"}};
	int bad = 0;
	for (size_t t = 0; t < 2 && !bad; t++) {
		struct placement pl = {tori[t][0], "bgl:fn_tor=0,fn_max=1", 0}; /* always try */
		bad = placed_batches(&pl, atoi(tori[t][1]), 51 + t, 200, mig, 2, 1);
	}
	CU_ASSERT_EQUAL(bad, 0);
}

/* EASY answers by counts for allocators whose placements depend only on the
 * free count; its what-if path must agree exactly. (Conservative reserves
 * counts there, node sets otherwise: more pessimistic by design.) */
static void test_count_path_equals_generic(void)
{
	static const char *const alloc[][2] = {{"mesh:dims=4x4", "curve:order=hilbert,select=bf"},
	                                       {"mesh:dims=4x4", "mbs:variant=granular"},
	                                       {"mesh:dims=4x4", "mc1x1"},
	                                       {"flat:nodes=13", "first-free"}};
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 77);
	int bad = 0;
	for (size_t a = 0; a < sizeof alloc / sizeof *alloc && !bad; a++) {
		struct plat_machine *m;
		struct js_alloc *al;
		struct cmn_err e;
		CU_ASSERT_FATAL(plat_machine_create(alloc[a][0], &m, &e) == 0);
		CU_ASSERT_FATAL(js_alloc_create(alloc[a][1], m, &al, &e) == 0);
		struct js_alloc_ops generic = *al->ops;
		CU_ASSERT_FATAL(generic.fungible == 1);
		generic.fungible = 0;
		for (int iter = 0; iter < 150 && !bad; iter++) {
			struct js_workload *wl =
			    random_workload(rng, 30, m->nodes, 0, iter % 3 == 0);
			{
				const char *easy = "easy";
				struct js_sim_result *r1, *r2;
				struct js_runtime *rt;
				CU_ASSERT_FATAL(js_runtime_create("log", &rt, &e) == 0);
				struct js_sim_opts o;
				js_sim_opts_default(&o);
				CU_ASSERT_FATAL(th_run_spec(wl, alloc[a][0], alloc[a][1], easy, rt,
				                            &o, &r1, &e) == 0);
				CU_ASSERT_FATAL(th_run_spec_ops(wl, alloc[a][0], alloc[a][1],
				                                &generic, easy, rt, &o, &r2,
				                                &e) == 0);
				for (size_t j = 0; j < wl->n; j++)
					if (r1->jobs[j].start_s != r2->jobs[j].start_s ||
					    strcmp(r1->text + r1->jobs[j].res_off,
					           r2->text + r2->jobs[j].res_off)) {
						fprintf(stderr, "\n  %s %s: job %zu differs\n",
						        alloc[a][1], easy, j + 1);
						bad = 1;
						break;
					}
				js_sim_result_free(r1);
				js_sim_result_free(r2);
				js_runtime_destroy(rt);
			}
			js_workload_free(wl);
		}
		js_alloc_destroy(al);
		plat_machine_destroy(m);
	}
	gsl_rng_free(rng);
	CU_ASSERT_EQUAL(bad, 0);
}

/* Every job needs the whole machine: the seeds' four schedulers are FCFS. */
static void test_whole_machine_identical(void)
{
	static const char *const four[] = {"fcfs", "easy", "conservative", "fpfs:maxjumps=3"};
	enum { N4 = 4 };
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 99);
	int bad = 0;
	for (int iter = 0; iter < 500 && !bad; iter++) {
		int nodes = 1 + (int)gsl_rng_uniform_int(rng, 8);
		struct js_workload *wl = random_workload(rng, 25, nodes, 1, iter % 2);
		struct js_sim_result *r[N4] = {0};
		struct watch w = {0};
		for (int s = 0; s < N4; s++)
			if (run_checked(wl, nodes, four[s], NULL, NULL, &r[s], &w))
				bad = 1;
		for (int s = 1; s < N4 && !bad; s++)
			for (size_t j = 0; j < wl->n; j++)
				if (r[s]->jobs[j].start_s != r[0]->jobs[j].start_s) {
					fprintf(stderr,
					        "\n  iteration %d: %s starts job %zu at %g, fcfs "
					        "at %g\n",
					        iter, four[s], j + 1, r[s]->jobs[j].start_s,
					        r[0]->jobs[j].start_s);
					bad = 1;
					break;
				}
		for (int s = 0; s < N4; s++)
			js_sim_result_free(r[s]);
		js_workload_free(wl);
	}
	CU_ASSERT_EQUAL(bad, 0);
	gsl_rng_free(rng);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("invariants", NULL, NULL);
	CU_add_test(s, "1,500 random workloads x every scheduler", test_random_invariants);
	CU_add_test(s, "FCFS: arrival order", test_fcfs_order);
	CU_add_test(s, "500 random workloads with overruns", test_random_overruns);
	CU_add_test(s, "conservative reserving node sets", test_conservative_node_sets);
	CU_add_test(s, "every allocator x every scheduler", test_topology_allocators);
	CU_add_test(s, "count path = what-if path", test_count_path_equals_generic);
	CU_add_test(s, "FCFS+migration and B+M", test_migration_invariants);
	CU_add_test(s, "whole-machine jobs: identical schedules", test_whole_machine_identical);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

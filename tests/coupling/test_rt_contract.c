/* Run-time models: a contract over cosim's registry (jobsched's models and
 * coupling's), each model's own samples (cmn_plugin.samples, or its name):
 * a small workload on a 4-ary 2-tree under FCFS and first-free runs to its
 * end, every job once, each execution time finite and positive, and a
 * second run gives the same times to the bit. A new model is tested here
 * without editing this file. Each run is a child process (SimGrid allows
 * one engine per process). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../coupling/models/runtimes.h"
#include "../helpers.h"

#define MACHINE "kary-ntree:k=4,n=2"
enum { NJOBS = 6 };

struct body_ctx {
	const struct js_workload *w;
	struct js_runtime *rt;
	int fd;
};

/* The simulation and its execution times into the pipe (inside the
 * model's drive: for full, in the process that holds the simulation). */
static int body(void *ctx, struct cmn_err *e)
{
	const struct body_ctx *c = ctx;
	struct js_sim_result *res = NULL;
	if (th_run_spec(c->w, MACHINE, "first-free", "fcfs", c->rt, NULL, &res, e))
		return e->code;
	int rc = th_write_exec_times(c->fd, res, c->w->n, e);
	js_sim_result_free(res);
	return rc;
}

static void child(void *ctx, int fd)
{
	const char *spec = ctx;
	static const double submit[NJOBS] = {0, 0, 5, 5, 40, 41};
	static const double run[NJOBS] = {300, 120, 200, 60, 500, 90};
	static const int size[NJOBS] = {4, 8, 2, 4, 8, 2};
	struct js_workload *w = th_workload();
	for (int i = 0; i < NJOBS; i++)
		th_add(w, submit[i], run[i], 4 * run[i], size[i]);
	const struct js_runtime_ops *reg[32];
	struct js_runtime *rt = NULL;
	struct plat_machine *m = NULL;
	struct cmn_err e;
	struct body_ctx c = {w, NULL, fd};
	if (cpl_runtimes_all(reg, 31) < 0 || js_runtime_create_in(reg, spec, &rt, &e) ||
	    plat_machine_create(MACHINE, &m, &e) ||
	    (c.rt = rt, js_runtime_drive(rt, m, w, body, &c, &e))) {
		fprintf(stderr, "\n  %s: %s\n", spec, e.msg);
		_exit(2);
	}
	js_runtime_destroy(rt);
	plat_machine_destroy(m);
	js_workload_free(w);
	_exit(0);
}

static void test_contract(void)
{
	const struct js_runtime_ops *reg[32];
	CU_ASSERT_FATAL(cpl_runtimes_all(reg, 31) > 0);
	for (int i = 0; reg[i]; i++)
		for (int k = 0; th_sample(&reg[i]->base, k); k++) {
			const char *spec = th_sample(&reg[i]->base, k);
			double a[NJOBS], b[NJOBS];
			int rc = th_in_child(child, (void *)spec, a, NJOBS);
			CU_ASSERT_EQUAL(rc, 0);
			if (rc) {
				fprintf(stderr, "\n  model %s did not run the workload\n", spec);
				continue;
			}
			CU_ASSERT_EQUAL(th_in_child(child, (void *)spec, b, NJOBS), 0);
			for (int j = 0; j < NJOBS; j++) {
				CU_ASSERT(isfinite(a[j]) && a[j] > 0);
				CU_ASSERT(memcmp(&a[j], &b[j], sizeof a[j]) == 0);
			}
			fprintf(stderr, "  %-44s %8.2f %8.2f %8.2f %8.2f %8.2f %8.2f\n", spec, a[0],
			        a[1], a[2], a[3], a[4], a[5]);
		}
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("run-time model contract", NULL, NULL);
	CU_add_test(s, "every model's samples", test_contract);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

/* A run-time model's own per-job values (jobsched/runtime/rt_values.h): a model
 * declares columns in its ops and the core keeps and writes them without
 * knowing them: a slot name (psi) in its place in the per-job CSV, any
 * other name after the core's columns (a text quoted as CSV needs), unset
 * values empty; a declaration the CSV cannot take is refused by name. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../jobsched/metrics/metrics.h"
#include "../../jobsched/runtime/rt_values.h"
#include "../helpers.h"

enum { C_PSI, C_HOPS, C_TAG };

static const struct js_rt_column probe_columns[] = {{"psi", 0, "a slot of the core's"},
                                                    {"hops", 0, "the probe's own number"},
                                                    {"tag", 1, "the probe's own text"},
                                                    {NULL, 0, NULL}};

static int probe_create(const struct cmn_params *p, void **self, struct cmn_err *e)
{
	(void)p, (void)e;
	*self = NULL;
	return 0;
}

static void probe_destroy(void *self)
{
	(void)self;
}

/* Job 0: every value; job 1: the number alone; job 2: nothing. */
static double probe_work(void *self, struct js_sim *sim, int j, const int *nodes, int n,
                         struct cmn_err *e)
{
	(void)self, (void)nodes;
	if (j == 0) {
		js_sim_set_value(sim, j, C_PSI, 0.5);
		if (js_sim_set_text(sim, j, C_TAG, "a,\"b\"", e))
			return -1;
	}
	if (j <= 1)
		js_sim_set_value(sim, j, C_HOPS, 2.0 * n);
	return js_sim_job(sim, j)->run_s;
}

static const struct js_runtime_ops probe_ops = {
    .base = {"probe", "a test model with values of its own", NULL, NULL},
    .create = probe_create,
    .destroy = probe_destroy,
    .columns = probe_columns,
    .work_s = probe_work,
    .nodes_unused = 1,
};

/* The value of column name in CSV line row (naive split: the fields
 * before the quoted tag hold no comma). */
static void field(const char *header, const char *row, const char *name, char *out, size_t len)
{
	int idx = -1, k = 0;
	for (const char *p = header; *p; k++) {
		size_t n = strcspn(p, ",\n");
		if (strlen(name) == n && strncmp(p, name, n) == 0)
			idx = k;
		p += n + (p[n] == ',' || p[n] == '\n');
	}
	out[0] = '\0';
	const char *p = row;
	for (k = 0; k < idx && *p; k++)
		p += strcspn(p, ",\n") + 1;
	size_t n = strcspn(p, ",\n");
	snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), p);
}

static void test_columns_written(void)
{
	struct js_workload *w = th_workload();
	for (int k = 0; k < 3; k++)
		th_add(w, 0, 10, 10, 2);
	struct js_runtime *rt;
	struct cmn_err e;
	CU_ASSERT_EQUAL_FATAL(js_runtime_create_ops(&probe_ops, NULL, &rt, &e), 0);
	struct js_sim_result *r;
	CU_ASSERT_EQUAL_FATAL(
	    th_run_spec(w, "flat:nodes=8", "first-free", "fcfs", rt, NULL, &r, &e), 0);
	char *path = th_write_temp("", ".csv");
	FILE *f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	struct plat_machine *m;
	CU_ASSERT_EQUAL_FATAL(plat_machine_create("flat:nodes=8", &m, &e), 0);
	CU_ASSERT_EQUAL(js_write_jobs_csv(f, w, r, m, 10), 0);
	fclose(f);
	char *csv = th_read_file(path);
	CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
	char *rows[4];
	rows[0] = csv;
	for (int k = 1; k < 4; k++)
		rows[k] = strchr(rows[k - 1], '\n') + 1;
	/* the probe's own columns after the core's, psi in its place */
	CU_ASSERT_PTR_NOT_NULL(strstr(csv, ",max_nodes,sizes,part,hops,tag\n"));
	CU_ASSERT_PTR_NULL(strstr(csv, "metadata,psi"));
	char v[64];
	field(csv, rows[1], "psi", v, sizeof v);
	CU_ASSERT_STRING_EQUAL(v, "0.5");
	field(csv, rows[1], "hops", v, sizeof v);
	CU_ASSERT_STRING_EQUAL(v, "4");
	CU_ASSERT_PTR_NOT_NULL(strstr(rows[1], ",4,\"a,\"\"b\"\"\"\n")); /* RFC 4180 */
	field(csv, rows[2], "psi", v, sizeof v);
	CU_ASSERT_STRING_EQUAL(v, ""); /* unset: empty */
	CU_ASSERT_PTR_NOT_NULL(strstr(rows[2], ",4,\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(rows[3], ",,\n"));
	/* the summary's mean over the jobs with a psi: job 0's */
	int c = js_rt_values_col(&r->values, "psi");
	CU_ASSERT_EQUAL(c, C_PSI);
	CU_ASSERT(isnan(js_rt_values_num(&r->values, 2, c)));
	CU_ASSERT_STRING_EQUAL(js_rt_values_text(&r->values, 1, C_TAG), "");
	free(csv);
	th_free_temp(path);
	plat_machine_destroy(m);
	js_sim_result_free(r);
	js_runtime_destroy(rt);
	js_workload_free(w);
}

/* Declarations the per-job CSV cannot take: refused at create, by name. */
static void test_columns_refused(void)
{
	static const struct js_rt_column bad_name[] = {{"Hops", 0, NULL}, {NULL, 0, NULL}};
	static const struct js_rt_column twice[] = {
	    {"x", 0, NULL}, {"x", 1, NULL}, {NULL, 0, NULL}};
	static const struct js_rt_column core[] = {{"job_id", 0, NULL}, {NULL, 0, NULL}};
	static const struct js_rt_column derived[] = {{"iter_mean_s", 0, NULL}, {NULL, 0, NULL}};
	static const struct js_rt_column kind[] = {{"psi", 1, NULL}, {NULL, 0, NULL}};
	const struct {
		const struct js_rt_column *cols;
		const char *says;
	} cases[] = {{bad_name, "column 'Hops' is not a name of [a-z0-9_]"},
	             {twice, "column 'x' declared twice"},
	             {core, "column 'job_id' is one of the per-job CSV's own"},
	             {derived, "column 'iter_mean_s' is one of the per-job CSV's own"},
	             {kind, "column 'psi' is the per-job CSV's number slot, declared as a text"}};
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		struct js_runtime_ops ops = probe_ops;
		ops.columns = cases[k].cols;
		struct js_runtime *rt = NULL;
		struct cmn_err e;
		CU_ASSERT_EQUAL(js_runtime_create_ops(&ops, NULL, &rt, &e), CMN_ESTATE);
		CU_ASSERT_PTR_NULL(rt);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "run-time model probe: "));
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, cases[k].says));
	}
}

/* Every registered model's declaration is one the CSV takes. */
static void test_registry_columns(void)
{
	for (const struct js_runtime_ops *const *o = js_runtime_registry; *o; o++) {
		struct cmn_err e;
		CU_ASSERT_EQUAL(js_check_model_columns((*o)->columns, (*o)->base.name, &e), 0);
	}
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("run-time model columns", NULL, NULL);
	CU_add_test(s, "declared, kept and written by the core", test_columns_written);
	CU_add_test(s, "declarations the CSV cannot take", test_columns_refused);
	CU_add_test(s, "every registered model's", test_registry_columns);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

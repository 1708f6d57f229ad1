/* Batsim JSON workloads: each profile type read, ids as integers and as
 * strings, gzip'ed files, every class of bad input (each error naming the
 * file and the line and column, or the job), the refusal of replayed jobs
 * without a model that replays them, and the same schedule as the
 * equivalent SWF log. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "../helpers.h"

static char *write_in(const char *dir, const char *name, const char *text)
{
	char *path = malloc(strlen(dir) + strlen(name) + 2);
	sprintf(path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static struct js_workload *read_text(const char *text, int *rc, struct cmn_err *e)
{
	char *path = th_write_temp(text, ".json");
	struct js_workload *w = NULL;
	*rc = js_workload_read(path, 0, &w, e);
	th_free_temp(path);
	return w;
}

static struct js_workload *read_ok(const char *text)
{
	struct cmn_err e;
	int rc;
	struct js_workload *w = read_text(text, &rc, &e);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc)
		fprintf(stderr, "\n  unexpected error: %s\n", e.msg);
	return w;
}

/* Expects an input error naming the file (".json" then where, e.g.
 * ":3:17: error" or ": error: jobs[1] (id 2)") and needle. */
static void expect_error(const char *text, const char *where, const char *needle)
{
	struct cmn_err e;
	int rc;
	struct js_workload *w = read_text(text, &rc, &e);
	CU_ASSERT_EQUAL(rc, CMN_EINPUT);
	CU_ASSERT_PTR_NULL(w);
	char place[200];
	snprintf(place, sizeof place, ".json%s", where);
	int ok = rc && strstr(e.msg, place) && strstr(e.msg, needle);
	CU_ASSERT(ok);
	if (!ok)
		fprintf(stderr, "\n  expected %s ... %s\n  got: %s\n", place, needle,
		        rc ? e.msg : "(no error)");
	js_workload_free(w);
}

#define DELAYS "\"profiles\": {\"d10\": {\"type\": \"delay\", \"delay\": 10}}"

static void test_delay(void)
{
	struct js_workload *w = read_ok(
	    "\xEF\xBB\xBF \n{\"nb_res\": 8, \"jobs\": [\n"
	    " {\"id\": 7, \"subtime\": 1.5, \"walltime\": 100, \"res\": 2, \"profile\": \"d10\"},\n"
	    " {\"id\": \"9\", \"subtime\": 3, \"res\": 8, \"profile\": \"d20\", \"extra\": [1]},\n"
	    " {\"id\": 12, \"subtime\": 3, \"walltime\": -1, \"res\": 1, \"profile\": \"d10\"}],\n"
	    " \"profiles\": {\"d10\": {\"type\": \"delay\", \"delay\": 10},\n"
	    "  \"d20\": {\"type\": \"delay\", \"delay\": 20.25, \"ret\": 0},\n"
	    "  \"seq\": {\"type\": \"composed\", \"seq\": [\"d10\"]}}}\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(w->n, 3);
	CU_ASSERT_EQUAL(w->counts.read, 3);
	CU_ASSERT_EQUAL(w->hdr.max_nodes, 8);
	CU_ASSERT_EQUAL(w->hdr.max_procs, 8);
	CU_ASSERT_EQUAL(w->nbprofiles, 2); /* the unused one is noted, not read */
	CU_ASSERT_EQUAL(w->nnotes, 1);
	const struct js_job *j = &w->jobs[0];
	CU_ASSERT_EQUAL(j->id, 7);
	CU_ASSERT_EQUAL(j->f[JS_F_SUBMIT], 1.5);
	CU_ASSERT_EQUAL(j->f[JS_F_REQ_TIME], 100);
	CU_ASSERT_EQUAL(j->f[JS_F_ALLOC_PROCS], 2);
	CU_ASSERT_EQUAL(j->f[JS_F_REQ_PROCS], 2);
	CU_ASSERT_EQUAL(j->f[JS_F_RUN], 10);
	CU_ASSERT(!j->replayed);
	CU_ASSERT_EQUAL(w->jobs[1].id, 9);
	CU_ASSERT_EQUAL(w->jobs[1].f[JS_F_RUN], 20.25);
	CU_ASSERT_EQUAL(w->jobs[1].f[JS_F_REQ_TIME], -1);
	CU_ASSERT_EQUAL(w->jobs[2].f[JS_F_REQ_TIME], -1);
	char buf[24];
	CU_ASSERT_STRING_EQUAL(js_job_id_text(w, &w->jobs[1], buf), "9");
	CU_ASSERT_STRING_EQUAL(js_job_bprofile(w, &w->jobs[1])->name, "d20");
	struct js_clean_opts o;
	js_clean_opts_default(&o);
	o.procs_per_node = 0; /* auto: nb_res / nb_res */
	struct cmn_err e;
	CU_ASSERT_EQUAL_FATAL(js_clean(w, &o, 8, &e), 0);
	CU_ASSERT_EQUAL(w->n, 3);
	CU_ASSERT_EQUAL(w->jobs[1].req_s, 20.25); /* no walltime: the run time, as in SWF */
	CU_ASSERT_EQUAL(w->counts.req_from_run, 2);
	CU_ASSERT_EQUAL(js_workload_check_replayed(w, 0, "log", &e), 0);
	js_workload_free(w);
}

static void test_string_ids(void)
{
	struct js_workload *w = read_ok(
	    "{\"nb_res\": 4, \"jobs\": [\n"
	    " {\"id\": \"w0!a\", \"subtime\": 0, \"res\": 1, \"profile\": \"d10\"},\n"
	    " {\"id\": 5, \"subtime\": 0, \"res\": 1, \"profile\": \"d10\"},\n"
	    " {\"id\": \"007\", \"subtime\": 0, \"res\": 1, \"profile\": \"d10\"}],\n" DELAYS "}");
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	char buf[24];
	for (size_t i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(w->jobs[i].id, i + 1); /* positions: not every id is a number */
	CU_ASSERT_STRING_EQUAL(js_job_id_text(w, &w->jobs[0], buf), "w0!a");
	CU_ASSERT_STRING_EQUAL(js_job_id_text(w, &w->jobs[1], buf), "5");
	CU_ASSERT_STRING_EQUAL(js_job_id_text(w, &w->jobs[2], buf), "007");
	CU_ASSERT_EQUAL(w->nnotes, 1);
	CU_ASSERT(w->nnotes && strstr(w->notes[0], "numbered by their position"));
	js_workload_free(w);
}

static void test_replayed(void)
{
	char dir[] = "/tmp/test_batsimXXXXXX";
	CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
	char sub[300];
	snprintf(sub, sizeof sub, "%s/tr", dir);
	mkdir(sub, 0700);
	char *r0 = write_in(sub, "r0.txt", "0 compute 1e6\n");
	char *r1 = write_in(sub, "r1.txt", "1 compute 1e6\n");
	char *idx = write_in(sub, "traces.txt", "r0.txt\nr1.txt\n");
	char *wl = write_in(
	    dir, "w.json",
	    "{\"nb_res\": 4, \"jobs\": [\n"
	    " {\"id\": 1, \"subtime\": 0, \"walltime\": 50, \"res\": 2, \"profile\": \"ti\"},\n"
	    " {\"id\": 2, \"subtime\": 1, \"walltime\": 60, \"res\": 4, \"profile\": \"ph\"}],\n"
	    " \"profiles\": {\"ti\": {\"type\": \"smpi\", \"trace\": \"tr/traces.txt\"},\n"
	    "  \"ph\": {\"type\": \"parallel_homogeneous\", \"cpu\": 1e9, \"com\": 1e6}}}");
	struct js_workload *w = NULL;
	struct cmn_err e;
	CU_ASSERT_EQUAL_FATAL(js_workload_read(wl, 0, &w, &e), 0);
	CU_ASSERT_EQUAL(w->n, 2);
	const struct js_bprofile *b0 = js_job_bprofile(w, &w->jobs[0]);
	const struct js_bprofile *b1 = js_job_bprofile(w, &w->jobs[1]);
	CU_ASSERT_EQUAL(b0->type, JS_BPROF_SMPI);
	CU_ASSERT_STRING_EQUAL(b0->trace, idx);
	CU_ASSERT_EQUAL(b1->type, JS_BPROF_PARALLEL_HOMOGENEOUS);
	CU_ASSERT_EQUAL(b1->cpu_flops, 1e9);
	CU_ASSERT_EQUAL(b1->com_bytes, 1e6);
	CU_ASSERT(w->jobs[0].replayed && w->jobs[1].replayed);
	CU_ASSERT_EQUAL(w->jobs[0].f[JS_F_RUN], -1);
	/* without a model that replays them: refused, file, job and profile named */
	CU_ASSERT_EQUAL(js_workload_check_replayed(w, 0, "the run-time model log", &e), CMN_EUSAGE);
	CU_ASSERT(strstr(e.msg, "w.json: job 1: profile \"ti\" (smpi)") &&
	          strstr(e.msg, "the run-time model log replays none") && strstr(e.msg, "cosim"));
	CU_ASSERT_EQUAL(js_workload_check_replayed(w, 1, "simgrid", &e), 0);
	struct js_clean_opts o;
	js_clean_opts_default(&o);
	CU_ASSERT_EQUAL_FATAL(js_clean(w, &o, 4, &e), 0);
	CU_ASSERT_EQUAL(w->n, 2); /* kept, with no run time until replayed */
	CU_ASSERT(isnan(w->jobs[0].run_s));
	CU_ASSERT_EQUAL(w->jobs[1].req_s, 60);
	js_workload_free(w);
	/* a trace that is not there is named */
	char *bad =
	    write_in(dir, "bad.json",
	             "{\"nb_res\": 4, \"jobs\": [{\"id\": 1, \"subtime\": 0, \"walltime\": 5, "
	             "\"res\": 2, \"profile\": \"ti\"}], \"profiles\": {\"ti\": {\"type\": "
	             "\"smpi\", \"trace\": \"nothere.txt\"}}}");
	CU_ASSERT_EQUAL(js_workload_read(bad, 0, &w, &e), CMN_EINPUT);
	CU_ASSERT(strstr(e.msg, "bad.json: error: jobs[0] (id 1): profile \"ti\" (smpi): trace") &&
	          strstr(e.msg, "nothere.txt"));
	char *const files[] = {r0, r1, idx, wl, bad};
	for (int i = 0; i < 5; i++) {
		unlink(files[i]);
		free(files[i]);
	}
	rmdir(sub);
	rmdir(dir);
}

static void test_gzip(void)
{
	const char *text = "{\"nb_res\": 2, \"jobs\": [{\"id\": 1, \"subtime\": 0, \"res\": 2, "
	                   "\"profile\": \"d10\"}], " DELAYS "}";
	char *path = th_write_temp("", ".json.gz");
	gzFile gz = gzopen(path, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(gz);
	gzputs(gz, text);
	gzclose(gz);
	struct js_workload *w = NULL;
	struct cmn_err e;
	CU_ASSERT_EQUAL_FATAL(js_workload_read(path, 0, &w, &e), 0);
	CU_ASSERT_EQUAL(w->n, 1);
	CU_ASSERT_EQUAL(w->jobs[0].f[JS_F_RUN], 10);
	js_workload_free(w);
	/* --skip-bad is for SWF logs */
	CU_ASSERT_EQUAL(js_workload_read(path, 1, &w, &e), CMN_EUSAGE);
	CU_ASSERT(strstr(e.msg, "--skip-bad applies to SWF logs") != NULL);
	/* a syntax error in the decompressed text: its line and column */
	gz = gzopen(path, "wb");
	gzputs(gz, "{\"nb_res\": 2,\n \"jobs\": [}\n");
	gzclose(gz);
	CU_ASSERT_EQUAL(js_workload_read(path, 0, &w, &e), CMN_EINPUT);
	CU_ASSERT(strstr(e.msg, ".json.gz:2:") != NULL);
	th_free_temp(path);
}

#define JOB(body) "{\"nb_res\": 4, \"jobs\": [" body "], " DELAYS "}"
#define OK1       "{\"id\": 1, \"subtime\": 0, \"res\": 1, \"profile\": \"d10\"}, "

static void test_bad_syntax(void)
{
	expect_error("{\"nb_res\": 4,\n  \"jobs\": [\n    {\"id\": 1,, }]}", ":3:", "error:");
	expect_error("{\"nb_res\": 4, \"nb_res\": 5, \"jobs\": [], \"profiles\": {}}",
	             ":1:", "duplicate object key");
	expect_error(JOB(OK1 "{\"id\": 2, \"subtime\": 0, \"subtime\": 1, \"res\": 1, \"profile\": "
	                     "\"d10\"}"),
	             ":1:", "duplicate object key");
	expect_error("{\"nb_res\": 4, \"jobs\": [", ":1:", "error:");
	expect_error("{} []", ":1:4:", "end of file expected");
	expect_error("{\"nb_res\": 4 /* x */}", ":1:", "error:");
}

static void test_bad_fields(void)
{
	expect_error("{\"jobs\": [], \"profiles\": {}}", ": error",
	             "'nb_res' must be an integer > 0");
	expect_error("{\"nb_res\": 2.5, \"jobs\": [], \"profiles\": {}}", ": error", "'nb_res'");
	expect_error("{\"nb_res\": 4, \"jobs\": {}, \"profiles\": {}}", ": error",
	             "'jobs' must be");
	expect_error("{\"nb_res\": 4, \"jobs\": [" OK1 "1]}", ": error", "'profiles' must be");
	expect_error(JOB(""), ": error", "no job");
	expect_error(JOB(OK1 "3"), ": error: jobs[1] is an integer", "not an object");
	expect_error(JOB(OK1 "{\"subtime\": 0, \"res\": 1, \"profile\": \"d10\"}"),
	             ": error: jobs[1]", "'id' must be a non-empty string or an integer");
	expect_error(JOB(OK1 "{\"id\": 1.5, \"subtime\": 0, \"res\": 1, \"profile\": \"d10\"}"),
	             ": error: jobs[1]", "'id'");
	expect_error(JOB(OK1 "{\"id\": 2, \"res\": 1, \"profile\": \"d10\"}"),
	             ": error: jobs[1] (id 2)",
	             "'subtime' must be a number >= 0 (seconds) (missing)");
	expect_error(JOB(OK1 "{\"id\": 2, \"subtime\": -1, \"res\": 1, \"profile\": \"d10\"}"),
	             ": error: jobs[1] (id 2)", "'subtime' must be a number >= 0");
	expect_error(JOB(OK1 "{\"id\": 2, \"subtime\": \"0\", \"res\": 1, \"profile\": \"d10\"}"),
	             ": error: jobs[1] (id 2)", "'subtime' must be a number >= 0");
	expect_error(
	    JOB(OK1
	        "{\"id\": 2, \"subtime\": 0, \"walltime\": 0, \"res\": 1, \"profile\": \"d10\"}"),
	    ": error: jobs[1] (id 2)", "'walltime' must be a number > 0");
	expect_error(JOB(OK1 "{\"id\": \"x\", \"subtime\": 0, \"res\": 0, \"profile\": \"d10\"}"),
	             ": error: jobs[1] (id x)", "'res' must be an integer > 0");
	expect_error(JOB(OK1 "{\"id\": 2, \"subtime\": 0, \"res\": 1.0, \"profile\": \"d10\"}"),
	             ": error: jobs[1] (id 2)", "'res' must be an integer > 0");
	expect_error(JOB(OK1 "{\"id\": 2, \"subtime\": 0, \"profile\": \"d10\"}"),
	             ": error: jobs[1] (id 2)",
	             "'res' must be an integer > 0 (resources requested) (missing)");
	expect_error(JOB(OK1 "{\"id\": 2, \"subtime\": 0, \"res\": 5, \"profile\": \"d10\"}"),
	             ": error: jobs[1] (id 2)", "res 5 is more than the workload's nb_res 4");
	expect_error(JOB(OK1 "{\"id\": 2, \"subtime\": 0, \"res\": 1}"), ": error: jobs[1] (id 2)",
	             "'profile' must be the name of a profile (missing)");
	expect_error(JOB(OK1 "{\"id\": 2, \"subtime\": 0, \"res\": 1, \"profile\": \"d99\"}"),
	             ": error: jobs[1] (id 2)",
	             "profile \"d99\" is not among the workload's profiles");
	expect_error(JOB(OK1 "{\"id\": \"1\", \"subtime\": 0, \"res\": 1, \"profile\": \"d10\"}"),
	             ": error: jobs[1] (id 1)", "the id of jobs[0] too (ids must be unique)");
}

#define PROF(p)                                                                                    \
	"{\"nb_res\": 4, \"jobs\": [{\"id\": 3, \"subtime\": 0, \"walltime\": 9, \"res\": 1, "     \
	"\"profile\": \"p\"}], \"profiles\": {\"p\": " p "}}"

static void test_bad_profiles(void)
{
	const char *where = ": error: jobs[0] (id 3): profile \"p\"";
	expect_error(PROF("{\"type\": \"composed\", \"seq\": []}"), where,
	             "has type \"composed\", which this simulator does not run");
	expect_error(PROF("{\"type\": \"parallel\", \"cpu\": [1], \"com\": [0]}"), where,
	             "has type \"parallel\"");
	expect_error(PROF("{\"type\": \"send\"}"), where, "has type \"send\"");
	expect_error(PROF("{\"delay\": 3}"), where, "has no 'type' field");
	expect_error(PROF("[1]"), where, "is an array, not an object");
	expect_error(PROF("{\"type\": \"delay\"}"), where,
	             "(delay): 'delay' must be a number >= 0 (missing)");
	expect_error(PROF("{\"type\": \"delay\", \"delay\": -2}"), where,
	             "'delay' must be a number >= 0");
	expect_error(PROF("{\"type\": \"parallel_homogeneous\", \"cpu\": 1}"), where,
	             "(parallel_homogeneous): 'com' must be a number >= 0 (missing)");
	expect_error(PROF("{\"type\": \"smpi\"}"), where, "(smpi): 'trace' must be the name");
	/* a replayed job needs a walltime: the schedulers' estimate */
	expect_error(
	    "{\"nb_res\": 4, \"jobs\": [{\"id\": 3, \"subtime\": 0, \"res\": 1, \"profile\": "
	    "\"p\"}], \"profiles\": {\"p\": {\"type\": \"parallel_homogeneous\", \"cpu\": 1, "
	    "\"com\": 1}}}",
	    where, "has a run time only once replayed, and the job no walltime");
}

/* Times within the SWF reader's limits (10^12 s), so that --swf-out writes
 * what the SWF reader reads back; a delay lost at its job's subtime is
 * refused as an SWF run time is; nb_res within 2^53. */
static void test_limits(void)
{
	expect_error(JOB(OK1 "{\"id\": 2, \"subtime\": 1e300, \"res\": 1, \"profile\": \"d10\"}"),
	             ": error: jobs[1] (id 2)", "'subtime' 1e+300 is beyond 10^12 s");
	expect_error(
	    JOB(OK1 "{\"id\": 2, \"subtime\": 1000000000001, \"res\": 1, \"profile\": \"d10\"}"),
	    ": error: jobs[1] (id 2)", "'subtime' 1e+12 is beyond 10^12 s");
	expect_error(JOB(OK1 "{\"id\": 2, \"subtime\": 0, \"walltime\": 1e300, \"res\": 1, "
	                     "\"profile\": \"d10\"}"),
	             ": error: jobs[1] (id 2)", "'walltime' 1e+300 is beyond 10^12 s");
	expect_error(PROF("{\"type\": \"delay\", \"delay\": 1e300}"),
	             ": error: jobs[0] (id 3): profile \"p\"",
	             "(delay): 'delay' 1e+300 is beyond 10^12 s");
	expect_error(
	    "{\"nb_res\": 4, \"jobs\": [{\"id\": 3, \"subtime\": 999999999999, \"res\": 1, "
	    "\"profile\": \"p\"}], \"profiles\": {\"p\": {\"type\": \"delay\", \"delay\": "
	    "0.00001}}}",
	    ": error: jobs[0] (id 3): profile \"p\"",
	    "'delay' 1e-05 vanishes when added to 'subtime' 999999999999");
	expect_error("{\"nb_res\": 9007199254740993, \"jobs\": [{\"id\": 1, \"subtime\": 0, "
	             "\"res\": 1, \"profile\": \"d10\"}], " DELAYS "}",
	             ": error", "'nb_res' 9007199254740993 is beyond 2^53");
	/* at the limits: read */
	struct js_workload *w =
	    read_ok(JOB("{\"id\": 1, \"subtime\": 1e12, \"walltime\": 1e12, \"res\": 1, "
	                "\"profile\": \"d10\"}"));
	CU_ASSERT_PTR_NOT_NULL(w);
	js_workload_free(w);
}

/* Ids and profile names are quoted with their non-printable bytes escaped. */
static void test_escaped_quotes(void)
{
	expect_error(JOB(OK1 "{\"id\": \"a\\f\\u00e9\", \"subtime\": -1, \"res\": 1, \"profile\": "
	                     "\"d10\"}"),
	             ": error: jobs[1] (id a\\f\\xC3\\xA9)", "'subtime' must be");
	expect_error(JOB(OK1 "{\"id\": 2, \"subtime\": 0, \"res\": 1, \"profile\": \"d\\n9\"}"),
	             ": error: jobs[1] (id 2)", "profile \"d\\n9\" is not among");
}

/* The same jobs as a Batsim workload and as an SWF log: the same schedule. */
static void test_same_as_swf(void)
{
	const char *json =
	    "{\"nb_res\": 8, \"jobs\": ["
	    "{\"id\": 1, \"subtime\": 0, \"walltime\": 100, \"res\": 4, \"profile\": \"a\"},"
	    "{\"id\": 2, \"subtime\": 1, \"walltime\": 50, \"res\": 6, \"profile\": \"b\"},"
	    "{\"id\": 3, \"subtime\": 2, \"walltime\": 20, \"res\": 2, \"profile\": \"c\"},"
	    "{\"id\": 4, \"subtime\": 3, \"walltime\": 200, \"res\": 8, \"profile\": \"a\"},"
	    "{\"id\": 5, \"subtime\": 3, \"walltime\": 30, \"res\": 1, \"profile\": \"c\"}],"
	    "\"profiles\": {\"a\": {\"type\": \"delay\", \"delay\": 60},"
	    "\"b\": {\"type\": \"delay\", \"delay\": 45}, \"c\": {\"type\": \"delay\", \"delay\": "
	    "15}}}";
	const char *swf = "; MaxNodes: 8\n; MaxProcs: 8\n"
	                  "1 0 -1 60 4 -1 -1 4 100 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
	                  "2 1 -1 45 6 -1 -1 6 50 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
	                  "3 2 -1 15 2 -1 -1 2 20 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
	                  "4 3 -1 60 8 -1 -1 8 200 -1 1 -1 -1 -1 -1 -1 -1 -1\n"
	                  "5 3 -1 15 1 -1 -1 1 30 -1 1 -1 -1 -1 -1 -1 -1 -1\n";
	char *pj = th_write_temp(json, ".json"), *ps = th_write_temp(swf, ".swf");
	struct js_workload *w[2] = {NULL, NULL};
	struct js_sim_result *res[2] = {NULL, NULL};
	struct cmn_err e;
	const char *paths[2] = {pj, ps};
	for (int k = 0; k < 2; k++) {
		CU_ASSERT_EQUAL_FATAL(js_workload_read(paths[k], 0, &w[k], &e), 0);
		struct js_clean_opts o;
		js_clean_opts_default(&o);
		CU_ASSERT_EQUAL_FATAL(js_clean(w[k], &o, 8, &e), 0);
		CU_ASSERT_EQUAL_FATAL(th_run(w[k], 8, "easy", NULL, NULL, &res[k], &e), 0);
	}
	CU_ASSERT_EQUAL_FATAL(w[0]->n, w[1]->n);
	for (size_t i = 0; i < w[0]->n; i++) {
		CU_ASSERT_EQUAL(w[0]->jobs[i].id, w[1]->jobs[i].id);
		CU_ASSERT_EQUAL(res[0]->jobs[i].start_s, res[1]->jobs[i].start_s);
		CU_ASSERT_EQUAL(res[0]->jobs[i].finish_s, res[1]->jobs[i].finish_s);
		CU_ASSERT_STRING_EQUAL(res[0]->text + res[0]->jobs[i].res_off,
		                       res[1]->text + res[1]->jobs[i].res_off);
	}
	CU_ASSERT(res[0]->jobs[4].start_s > 0); /* something to compare: not all at once */
	for (int k = 0; k < 2; k++) {
		js_sim_result_free(res[k]);
		js_workload_free(w[k]);
		unlink(paths[k]);
	}
	th_free_temp(pj);
	th_free_temp(ps);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("batsim_input", NULL, NULL);
	CU_add_test(s, "delay profiles, ids, nb_res", test_delay);
	CU_add_test(s, "string ids: jobs numbered by position", test_string_ids);
	CU_add_test(s, "smpi and parallel_homogeneous jobs are replayed", test_replayed);
	CU_add_test(s, "gzip'ed JSON", test_gzip);
	CU_add_test(s, "syntax errors and duplicate keys: file:line:column", test_bad_syntax);
	CU_add_test(s, "bad fields: file, job index and id", test_bad_fields);
	CU_add_test(s, "bad and unsupported profiles", test_bad_profiles);
	CU_add_test(s, "times within the SWF reader's limits", test_limits);
	CU_add_test(s, "ids and names quoted with non-printable bytes escaped",
	            test_escaped_quotes);
	CU_add_test(s, "the same schedule as the equivalent SWF", test_same_as_swf);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

/* SWF logs as the archive publishes them and as they arrive broken: header
 * values with comments, statuses outside the definition, negative values
 * kept, numbers that cannot be what their field claims, repeated job
 * numbers, partial executions, truncated and corrupt gzip, empty inputs,
 * and --procs-per-node auto without the header it needs. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "../helpers.h"

#define REC(id, submit, run, procs, status)                                                        \
#id " " #submit " -1 " #run " " #procs " -1 -1 " #procs " 100 -1 " #status                 \
	    " 1 1 1 1 1 -1 -1\n"

static struct js_workload *read_text(const char *text, int skip_bad, int *rc, struct cmn_err *e)
{
	char *path = th_write_temp(text, ".swf");
	struct js_workload *w = NULL;
	*rc = js_swf_read(path, skip_bad, &w, e);
	th_free_temp(path);
	return w;
}

static struct js_workload *read_ok(const char *text)
{
	struct cmn_err e;
	int rc;
	struct js_workload *w = read_text(text, 0, &rc, &e);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc)
		fprintf(stderr, "\n  unexpected error: %s\n", e.msg);
	return w;
}

/* Expects an input error naming ".swf:line: error" (line 0: no line, just
 * the file) and needle. */
static void expect_error(const char *text, int skip_bad, int line, const char *needle)
{
	struct cmn_err e;
	int rc;
	struct js_workload *w = read_text(text, skip_bad, &rc, &e);
	CU_ASSERT_EQUAL(rc, CMN_EINPUT);
	CU_ASSERT_PTR_NULL(w);
	char where[40];
	snprintf(where, sizeof where, line ? ".swf:%d: error" : ".swf: error", line);
	int ok = strstr(e.msg, where) && strstr(e.msg, needle);
	CU_ASSERT(ok);
	if (!ok)
		fprintf(stderr, "\n  expected %s ... %s\n  got: %s\n", where, needle, e.msg);
	js_workload_free(w);
}

static int has_note(const struct js_workload *w, const char *needle)
{
	for (size_t i = 0; i < w->nnotes; i++)
		if (strstr(w->notes[i], needle))
			return 1;
	return 0;
}

static void test_header_comments(void)
{
	struct js_workload *w = read_ok(";MaxNodes: 70  (dual)\n"
	                                "; MaxProcs: 1664 (72, 1368, 224)\n"
	                                ";    maxjobs : 12\n"
	                                "; MaxRecords: N/A\n"
	                                "; UnixStartTime: -1\n"
	                                "; MaxProcs: 999\n"
	                                "; MaxNodes: 70\n" REC(1, 0, 10, 2, 1));
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(w->hdr.max_nodes, 70);
	CU_ASSERT_STRING_EQUAL(w->hdr.rest[JS_H_MAX_NODES], "(dual)");
	CU_ASSERT_EQUAL(w->hdr.max_procs, 1664); /* the first value kept */
	CU_ASSERT_STRING_EQUAL(w->hdr.rest[JS_H_MAX_PROCS], "(72, 1368, 224)");
	CU_ASSERT_EQUAL(w->hdr.max_jobs, 12); /* key case and spaces do not matter */
	CU_ASSERT_PTR_NULL(w->hdr.rest[JS_H_MAX_JOBS]);
	CU_ASSERT_EQUAL(w->hdr.max_records, -1);
	CU_ASSERT_EQUAL(w->hdr.unix_start_time, -1);
	CU_ASSERT(has_note(w, ".swf:1: header MaxNodes: 70 taken, '(dual)' kept as a comment"));
	CU_ASSERT(has_note(w, ".swf:4: header MaxRecords: 'N/A' is not a whole number"));
	CU_ASSERT(has_note(w, ".swf:6: header MaxProcs: 999 differs from line 2's 1664"));
	CU_ASSERT(!has_note(w, ":7:")); /* the same value again says nothing */
	CU_ASSERT(!has_note(w, "UnixStartTime"));
	CU_ASSERT_EQUAL(w->hdr.nlines, 7);
	js_workload_free(w);
	/* Values that do not start with a whole number are ignored, each noted
	 * with why. */
	const char *odd[] = {
	    "1.5", "70k", "0x40", "", "-8", "99999999999999999999", "9223372036854775808 (2^63)"};
	const char *why[] = {"not a whole number", "not a whole number", "not a whole number",
	                     "not a whole number", "is negative",        "is beyond 2^63 - 1",
	                     "is beyond 2^63 - 1"};
	for (size_t i = 0; i < sizeof odd / sizeof *odd; i++) {
		char text[200];
		snprintf(text, sizeof text, "; MaxNodes: %s\n" REC(1, 0, 10, 2, 1), odd[i]);
		w = read_ok(text);
		CU_ASSERT_PTR_NOT_NULL_FATAL(w);
		CU_ASSERT_EQUAL(w->hdr.max_nodes, -1);
		CU_ASSERT(has_note(w, "header MaxNodes"));
		CU_ASSERT(has_note(w, why[i]));
		js_workload_free(w);
	}
}

static void test_statuses(void)
{
	const char *text = REC(1, 0, 10, 2, 1) REC(2, 1, 10, 2, -4) REC(3, 2, 10, 2, 265)
	    REC(4, 3, 10, 2, 265) REC(5, 4, 10, 2, 5) REC(6, 5, 10, 2, -1);
	struct js_workload *w = read_ok(text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(w->n, 6); /* kept */
	CU_ASSERT_EQUAL(w->counts.status_undefined, 3);
	CU_ASSERT(has_note(w, "3 records have a status outside the SWF definition"));
	CU_ASSERT(has_note(w, "265 (2), -4 (1)"));
	struct js_clean_opts o;
	js_clean_opts_default(&o);
	struct cmn_err e;
	CU_ASSERT_EQUAL_FATAL(js_clean(w, &o, 8, &e), 0);
	CU_ASSERT_EQUAL(w->n, 6); /* and simulated by default */
	js_workload_free(w);
	/* --status 1,other and --status 1 */
	const unsigned masks[] = {(1u << 2) | JS_STATUS_OTHER, 1u << 2};
	const size_t expect[] = {4, 1};
	for (int k = 0; k < 2; k++) {
		w = read_ok(text);
		CU_ASSERT_PTR_NOT_NULL_FATAL(w);
		o.status_mask = masks[k];
		CU_ASSERT_EQUAL_FATAL(js_clean(w, &o, 8, &e), 0);
		CU_ASSERT_EQUAL(w->n, expect[k]);
		CU_ASSERT_EQUAL(w->counts.skipped[JS_SKIP_STATUS], 6 - (long)expect[k]);
		js_workload_free(w);
	}
	expect_error("1 0 -1 10 2 -1 -1 2 100 -1 1.5 1 1 1 1 1 -1 -1\n", 0, 1,
	             "field 11 (status): '1.5' is not an integer");
	expect_error("1 0 -1 10 2 -1 -1 2 100 -1 3000000000 1 1 1 1 1 -1 -1\n", 0, 1,
	             "field 11 (status): '3000000000' is beyond the 32-bit status codes");
}

static void test_negative_kept(void)
{
	struct js_workload *w =
	    read_ok(REC(1, 0, 10, 2, 1) "2 5 -7 10 2 -1 -1 2 100 -1 1 -3 1 1 1 1 -1 -2\n"
	                                "3 6 -9 10 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(w->n, 3);
	CU_ASSERT_EQUAL(w->counts.negative_kept, 4);
	CU_ASSERT_DOUBLE_EQUAL(w->jobs[1].f[JS_F_WAIT], -7, 0);
	CU_ASSERT(has_note(w, ".swf:2: field 3 (wait time): 2 negative values other than -1"));
	CU_ASSERT(has_note(w, ".swf:2: field 12 (user id): 1 negative"));
	CU_ASSERT(has_note(w, ".swf:2: field 18 (think time): 1 negative"));
	js_workload_free(w);
	/* In the fields the simulation reads, an error. */
	expect_error(REC(1, -5, 10, 2, 1), 0, 1, "field 2 (submit time): '-5' is negative");
	expect_error(REC(1, 0, 10, -2, 1), 0, 1,
	             "field 5 (allocated processors): '-2' is negative");
	expect_error("-3 0 -1 10 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n", 0, 1,
	             "field 1 (job number): '-3' is not a job number");
	expect_error("-1 0 -1 10 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n", 0, 1,
	             "field 1 (job number): '-1' is not a job number");
	expect_error("1 0 -1 10 2 -1 -1 2 100 -1 1 1 1 1 1 1 -4 -1\n", 0, 1,
	             "field 17 (preceding job number): '-4' is not a job number");
}

static void test_numbers(void)
{
	/* Each class names file:line:field. */
	expect_error(REC(1, 0, 1e13, 2, 1), 0, 1, "field 4 (run time): '1e13' is beyond 10^12 s");
	expect_error(REC(1, 1000000000001, 10, 2, 1), 0, 1,
	             "field 2 (submit time): "
	             "'1000000000001' is beyond 10^12 s");
	expect_error(REC(1, 0, 10, 9007199254740993, 1), 0, 1,
	             "field 5 (allocated processors): '9007199254740993' is beyond 2^53");
	expect_error("1 0 -1 10 2 -1 1e300 2 100 -1 1 1 1 1 1 1 -1 -1\n", 0, 1,
	             "field 7 (used memory): '1e300' is beyond 2^53");
	expect_error(REC(18446744073709551616, 0, 10, 2, 1), 0, 1,
	             "field 1 (job number): '18446744073709551616' is beyond 64 bits");
	expect_error(REC(1e19, 0, 10, 2, 1), 0, 1, "field 1 (job number): '1e19' is beyond 2^53");
	expect_error(REC(0x10, 0, 10, 2, 1), 0, 1, "field 1 (job number): '0x10' is not a decimal");
	expect_error(REC(1, 0, 0x10, 2, 1), 0, 1, "field 4 (run time): '0x10' is not a decimal");
	expect_error(REC(1, 0, inf, 2, 1), 0, 1, "field 4 (run time): 'inf' is not a decimal");
	expect_error(REC(1, 0, nan, 2, 1), 0, 1, "field 4 (run time): 'nan' is not a decimal");
	expect_error(REC(1, 0, 10, 2.5, 1), 0, 1,
	             "field 5 (allocated processors): '2.5' is not an integer");
	expect_error(REC(1.5, 0, 10, 2, 1), 0, 1, "field 1 (job number): '1.5' is not an integer");
	expect_error("1 0 -1 10 2 -1 -1 2 100 -1 1 4.5 1 1 1 1 -1 -1\n", 0, 1,
	             "field 12 (user id): '4.5' is not an integer");
	expect_error(REC(1, 0, 10, 2, 1) "2 0 -1 10 2 -1 -1 2 100 -1 1 1 1 1 1 1 7.5 -1\n", 0, 2,
	             "field 17 (preceding job number): '7.5' is not an integer");
	expect_error(REC(1, 0, 1e, 2, 1), 0, 1, "'1e' is not a decimal number");
	expect_error(REC(1, 0, 1.2.3, 2, 1), 0, 1, "'1.2.3' is not a decimal number");
	expect_error(REC(1, 0, 1e400, 2, 1), 0, 1,
	             "field 4 (run time): '1e400' is beyond the range of a double");
	/* integers by their text, not by the double it rounds to */
	expect_error(REC(4.9999999999999999999, 0, 10, 2, 1), 0, 1,
	             "field 1 (job number): '4.9999999999999999999' is not an integer");
	expect_error(REC(1, 0, 10, 2.0000000000000001, 1), 0, 1,
	             "field 5 (allocated processors): '2.0000000000000001' is not an integer");
	expect_error(REC(9007199254740993.0, 0, 10, 2, 1), 0, 1,
	             "field 1 (job number): '9007199254740993.0' is beyond 2^53");
	expect_error("1 0 -1 10 2 -1 -1 2 100 -1 1 9007199254740993.0 1 1 1 1 -1 -1\n", 0, 1,
	             "field 12 (user id): '9007199254740993.0' is beyond 2^53");
	expect_error("1 0 -1 10 2 -1 -1 2 100 -1 1 1.55e1 1 1 1 1 -1 -1\n", 0, 1,
	             "field 12 (user id): '1.55e1' is not an integer");
	/* a positive time below the least double is not 0; -0.99999999999999999999
	 * is not -1 (unknown) */
	expect_error(REC(1, 0, 1e-400, 2, 1), 0, 1,
	             "field 4 (run time): '1e-400' is below the least double");
	expect_error(REC(1, 0, -0.99999999999999999999, 2, 1), 0, 1,
	             "field 4 (run time): '-0.99999999999999999999' is negative");
	{
		struct js_workload *iw =
		    read_ok("4.0 0 -1 10 20e-1 -1 -1 2 100 -1 -2147483648 1.5e1 1 1 1 1 -1 -1\n");
		CU_ASSERT_PTR_NOT_NULL_FATAL(iw);
		CU_ASSERT_EQUAL(iw->jobs[0].id, 4);
		CU_ASSERT_DOUBLE_EQUAL(iw->jobs[0].f[JS_F_ALLOC_PROCS], 2, 0);
		CU_ASSERT_DOUBLE_EQUAL(iw->jobs[0].f[JS_F_USER], 15, 0);
		CU_ASSERT_DOUBLE_EQUAL(iw->jobs[0].f[JS_F_STATUS], -2147483648.0, 0);
		js_workload_free(iw);
	}
	{ /* a decimal of 500 digits is still the number it writes */
		char rec[1024], digits[501];
		memset(digits, '0', 500);
		digits[500] = '\0';
		snprintf(rec, sizeof rec, "1 0 -1 100.%s 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n",
		         digits);
		struct js_workload *lw = read_ok(rec);
		CU_ASSERT_PTR_NOT_NULL_FATAL(lw);
		CU_ASSERT_DOUBLE_EQUAL(lw->jobs[0].f[JS_F_RUN], 100, 0);
		js_workload_free(lw);
	}
	/* What the definition allows: real times and memory, exponents, plain
	 * integers written with a point, 64-bit job numbers, exact. */
	struct js_workload *w =
	    read_ok("18446744073709551615 0.25 -1 1.5e2 2.0 12.75 1048576.5 2 1e3 0.5 1 1 1 1 1 1 "
	            "18446744073709551614 7.5\n"
	            "9007199254740993 1 -1 10 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(w->jobs[0].id, UINT64_MAX);
	CU_ASSERT_EQUAL(w->jobs[0].preceding, UINT64_MAX - 1);
	CU_ASSERT_EQUAL(w->jobs[1].id, 9007199254740993ULL); /* 2^53 + 1: not a double */
	CU_ASSERT_DOUBLE_EQUAL(w->jobs[0].f[JS_F_RUN], 150, 0);
	CU_ASSERT_DOUBLE_EQUAL(w->jobs[0].f[JS_F_REQ_TIME], 1000, 0);
	CU_ASSERT_DOUBLE_EQUAL(w->jobs[0].f[JS_F_USED_MEM], 1048576.5, 0);
	/* written back exactly */
	struct js_clean_opts o;
	js_clean_opts_default(&o);
	struct cmn_err e;
	CU_ASSERT_EQUAL_FATAL(js_clean(w, &o, 8, &e), 0);
	char *path = th_write_temp("", ".swf");
	FILE *f = fopen(path, "w");
	CU_ASSERT_EQUAL(js_swf_write(f, w, NULL), 0);
	fclose(f);
	int rc;
	struct js_workload *b = NULL;
	rc = js_swf_read(path, 0, &b, &e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(b->jobs[0].id, UINT64_MAX);
	CU_ASSERT_EQUAL(b->jobs[0].preceding, UINT64_MAX - 1);
	CU_ASSERT_EQUAL(b->jobs[1].id, 9007199254740993ULL);
	CU_ASSERT_DOUBLE_EQUAL(b->jobs[0].f[JS_F_USED_MEM], 1048576.5, 0);
	js_workload_free(b);
	js_workload_free(w);
	th_free_temp(path);
}

/* Every decimal reads as strtod rounds it, whichever way the reader takes
 * (at most 18 digits plain or 15 with a point read in one pass, the rest
 * by strtod): run times and used memory of random lengths, signs and points. */
static void test_decimals_exact(void)
{
	enum { N = 2000 };
	static char tok[N][2][32];
	size_t cap = (size_t)N * 160, len = 0;
	char *text = malloc(cap);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	uint64_t x = 88172645463325252ULL;
	for (int i = 0; i < N; i++) {
		for (int k = 0; k < 2; k++) {
			char *t = tok[i][k];
			int n = 0, digits = 1 + (int)((x >> 7) % 20),
			    point = (int)((x >> 13) % (digits + 2));
			if (k == 1 && (x >> 21) % 4 == 0)
				t[n++] = (x >> 23) % 2 ? '-' : '+';
			for (int d = 0; d < digits; d++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				if (d == point)
					t[n++] = '.';
				t[n++] = (char)('0' + x % 10);
			}
			t[n] = '\0';
			if (k == 0 && strtod(t, NULL) > 1e12) /* beyond a time */
				t[12] = '\0';
			if (k == 1 && fabs(strtod(t, NULL)) > 9e15) /* beyond 2^53 */
				t[15] = '\0';
			if (k == 1 && strtod(t, NULL) == -1)
				t[0] = '+';
		}
		len += (size_t)snprintf(text + len, cap - len,
		                        "%d 0 -1 %s 2 -1 %s 2 100 -1 1 1 1 1 1 1 -1 -1\n", i + 1,
		                        tok[i][0], tok[i][1]);
	}
	struct js_workload *w = read_ok(text);
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL_FATAL(w->n, N);
	int bad = 0;
	for (int i = 0; i < N; i++) {
		double r = strtod(tok[i][0], NULL), m = strtod(tok[i][1], NULL);
		if (memcmp(&w->jobs[i].f[JS_F_RUN], &r, sizeof r) ||
		    memcmp(&w->jobs[i].f[JS_F_USED_MEM], &m, sizeof m)) {
			if (bad++ < 5)
				fprintf(stderr, "\n  line %d: '%s' '%s' read as %.17g %.17g", i + 1,
				        tok[i][0], tok[i][1], w->jobs[i].f[JS_F_RUN],
				        w->jobs[i].f[JS_F_USED_MEM]);
		}
	}
	CU_ASSERT_EQUAL(bad, 0);
	js_workload_free(w);
	free(text);
}

static void test_job_numbers(void)
{
	const char *dup = REC(1, 0, 10, 2, 1) REC(2, 1, 10, 2, 1) REC(3, 2, 10, 2, 1)
	    REC(2, 3, 10, 2, 1) REC(1, 4, 10, 2, 0) REC(2, 5, 10, 2, 1);
	expect_error(dup, 0, 4, "field 1 (job number): 2 is also the job number on line 2");
	struct cmn_err e;
	int rc;
	struct js_workload *w = read_text(dup, 1, &rc, &e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(w->n, 3);
	CU_ASSERT_EQUAL(w->counts.read, 6);
	CU_ASSERT_EQUAL(w->counts.skipped[JS_SKIP_DUPLICATE], 3);
	CU_ASSERT_EQUAL(w->jobs[0].line, 1);
	CU_ASSERT_EQUAL(w->jobs[1].line, 2);
	CU_ASSERT_EQUAL(w->jobs[2].line, 3);
	js_workload_free(w);
	/* Partial executions (status 2-4) share their job's number: with the
	 * whole job's record, that record stands for the job; without, each part
	 * is a job of its own. */
	w = read_ok(REC(7, 0, 30, 2, 1) REC(7, 0, 10, 2, 2) REC(7, 15, 20, 2, 3) REC(8, 1, 5, 2, 2)
	                REC(8, 9, 5, 2, 4) REC(9, 2, 5, 2, 2));
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(w->n, 4);
	CU_ASSERT_EQUAL(w->jobs[0].line, 1);
	CU_ASSERT_EQUAL(w->jobs[1].line, 4);
	CU_ASSERT_EQUAL(w->counts.partial_shared, 4);
	CU_ASSERT_EQUAL(w->counts.skipped[JS_SKIP_PARTIAL], 2);
	CU_ASSERT(has_note(w, "4 records of partial executions"));
	/* the whole record stands as part 0; job 8's parts are 1 and 2; job 9,
	 * alone with its number, is a whole job (its status a code) */
	CU_ASSERT_EQUAL(w->jobs[0].part, 0);
	CU_ASSERT(w->jobs[1].id == 8 && w->jobs[1].part == 1);
	CU_ASSERT(w->jobs[2].id == 8 && w->jobs[2].part == 2);
	CU_ASSERT(w->jobs[3].id == 9 && w->jobs[3].part == 0);
	js_workload_free(w);
	/* parts are numbered by submit time, then by line: the order the
	 * simulation and --swf-out take them in (so that its log reads back
	 * with the same numbers) */
	w = read_ok(REC(5, 50, 10, 2, 3) REC(6, 1, 5, 2, 1) REC(5, 20, 10, 2, 2)
	                REC(5, 20, 10, 4, 2));
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL_FATAL(w->n, 4);
	CU_ASSERT(w->jobs[0].line == 1 && w->jobs[0].part == 3);
	CU_ASSERT(w->jobs[1].line == 2 && w->jobs[1].part == 0);
	CU_ASSERT(w->jobs[2].line == 3 && w->jobs[2].part == 1);
	CU_ASSERT(w->jobs[3].line == 4 && w->jobs[3].part == 2);
	js_workload_free(w);
	/* two whole records of one job are a repeat, parts or not */
	expect_error(REC(7, 0, 30, 2, 1) REC(7, 0, 10, 2, 2) REC(7, 15, 20, 2, 5), 0, 3,
	             "7 is also the job number on line 1");
}

/* gzip bytes of text, whole or cut. */
static char *gzip_file(const char *text, size_t cut_lines, int flip_crc)
{
	char *path = th_write_temp("", ".swf");
	FILE *f = fopen(path, "wb");
	z_stream z;
	memset(&z, 0, sizeof z);
	deflateInit2(&z, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY);
	unsigned char out[1 << 16];
	size_t lines = 0;
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
		z.next_in = (unsigned char *)(uintptr_t)p;
		z.avail_in = (unsigned)len;
		z.next_out = out;
		z.avail_out = sizeof out;
		deflate(&z, Z_FULL_FLUSH);
		fwrite(out, 1, sizeof out - z.avail_out, f);
		p += len;
		if (cut_lines && ++lines == cut_lines)
			break;
	}
	if (!cut_lines) {
		z.next_out = out;
		z.avail_out = sizeof out;
		deflate(&z, Z_FINISH);
		size_t n = sizeof out - z.avail_out;
		if (flip_crc)
			out[n - 8] ^= 0x55; /* the trailer's CRC-32 */
		fwrite(out, 1, n, f);
	}
	deflateEnd(&z);
	fclose(f);
	return path;
}

static void test_gzip_broken(void)
{
	char text[4096] = "; MaxProcs: 8\n";
	for (int i = 1; i <= 40; i++) {
		char rec[128];
		snprintf(rec, sizeof rec, "%d %d -1 10 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n", i, i);
		strcat(text, rec);
	}
	struct cmn_err e;
	struct js_workload *w = NULL;
	char *whole = gzip_file(text, 0, 0);
	CU_ASSERT_EQUAL(js_swf_read(whole, 0, &w, &e), 0);
	CU_ASSERT_EQUAL(w ? w->n : 0, 40);
	js_workload_free(w);
	/* cut at a line boundary: no final block, no trailer */
	char *cut = gzip_file(text, 21, 0);
	w = NULL;
	CU_ASSERT_EQUAL(js_swf_read(cut, 0, &w, &e), CMN_EINPUT);
	CU_ASSERT_PTR_NULL(w);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, cut));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "cut short"));
	/* cut inside a block and inside the trailer, byte by byte */
	struct stat st;
	stat(whole, &st);
	FILE *f = fopen(whole, "rb");
	unsigned char *bytes = malloc((size_t)st.st_size);
	CU_ASSERT_EQUAL_FATAL(fread(bytes, 1, (size_t)st.st_size, f), (size_t)st.st_size);
	fclose(f);
	int refused = 0;
	for (off_t len = 11; len < st.st_size; len++) {
		f = fopen(cut, "wb");
		fwrite(bytes, 1, (size_t)len, f);
		fclose(f);
		w = NULL;
		int rc = js_swf_read(cut, 0, &w, &e);
		refused += rc != 0 && w == NULL && strstr(e.msg, cut) != NULL;
		js_workload_free(w);
	}
	CU_ASSERT_EQUAL(refused, st.st_size - 11);
	free(bytes);
	/* only the trailer's size cut off a log whose text is a whole number
	 * of the reader's blocks (zlib's gzread reads that as a clean end) */
	size_t big_n = 1 << 20;
	char *big = malloc(big_n + 1);
	for (size_t i = 0; i < big_n / 64; i++)
		snprintf(big + 64 * i, 65, "%-63zu\n", i + 1); /* "N" padded to a 64-byte line */
	for (size_t i = 0; i < big_n / 64; i++)
		memcpy(big + 64 * i + 8, "0 -1 10 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1", 42);
	big[big_n] = '\0';
	char *big_gz = gzip_file(big, 0, 0);
	stat(big_gz, &st);
	CU_ASSERT_EQUAL(truncate(big_gz, st.st_size - 4), 0);
	w = NULL;
	CU_ASSERT_EQUAL(js_swf_read(big_gz, 0, &w, &e), CMN_EINPUT);
	CU_ASSERT_PTR_NULL(w);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "cut short after line 16384"));
	free(big);
	th_free_temp(big_gz);
	/* a corrupt CRC */
	char *bad = gzip_file(text, 0, 1);
	w = NULL;
	CU_ASSERT_NOT_EQUAL(js_swf_read(bad, 0, &w, &e), 0);
	CU_ASSERT_PTR_NULL(w);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, bad));
	th_free_temp(whole);
	th_free_temp(cut);
	th_free_temp(bad);
}

static void test_empty_inputs(void)
{
	expect_error("", 0, 0, "no job record");
	expect_error("; Version: 2.2\n; MaxProcs: 8\n\n", 0, 0, "no job record");
	char *gz = gzip_file("; MaxProcs: 8\n", 0, 0);
	struct cmn_err e;
	struct js_workload *w = NULL;
	CU_ASSERT_EQUAL(js_swf_read(gz, 0, &w, &e), CMN_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "no job record"));
	th_free_temp(gz);
	/* a directory, a missing file */
	CU_ASSERT_EQUAL(js_swf_read("/tmp", 0, &w, &e), CMN_EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "/tmp: error: is a directory"));
	CU_ASSERT_EQUAL(js_swf_read("/nonexistent/x.swf", 0, &w, &e), CMN_EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "/nonexistent/x.swf: error: cannot open"));
	/* a NUL byte, and a line without end */
	char *nul = th_write_temp("", ".swf");
	FILE *f = fopen(nul, "wb");
	fwrite(REC(1, 0, 10, 2, 1) "2 3\0 4\n", 1, sizeof(REC(1, 0, 10, 2, 1)) + 6, f);
	fclose(f);
	CU_ASSERT_EQUAL(js_swf_read(nul, 0, &w, &e), CMN_EINPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, ".swf:2: error: NUL byte"));
	th_free_temp(nul);
	char *huge = malloc((1 << 21) + 1);
	memset(huge, '7', 1 << 21);
	huge[1 << 21] = '\0';
	expect_error(huge, 0, 1, "line longer than");
	free(huge);
}

/* A UTF-8 byte-order mark (an editor's, before the first line) holds no
 * data: skipped with a note, on a header line or a record; elsewhere it is
 * not a number. CRLF line ends read as plain ones, without a note. */
static void test_bom(void)
{
	struct js_workload *w = read_ok("\xEF\xBB\xBF; MaxNodes: 8\n" REC(1, 0, 10, 2, 1));
	if (w) {
		CU_ASSERT_EQUAL(w->hdr.max_nodes, 8);
		CU_ASSERT_EQUAL(w->n, 1);
		CU_ASSERT(has_note(w, ":1: a UTF-8 byte-order mark begins the file, skipped"));
		js_workload_free(w);
	}
	w = read_ok("\xEF\xBB\xBF" REC(1, 0, 10, 2, 1) REC(2, 5, 10, 2, 1));
	if (w) {
		CU_ASSERT_EQUAL(w->n, 2);
		js_workload_free(w);
	}
	w = read_ok("; MaxNodes: 8\r\n1 0 -1 10 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\r\n"); /* CRLF */
	if (w) {
		CU_ASSERT_EQUAL(w->hdr.max_nodes, 8);
		CU_ASSERT_EQUAL(w->n, 1);
		CU_ASSERT(!has_note(w, "byte-order mark"));
		js_workload_free(w);
	}
	expect_error(REC(1, 0, 10, 2, 1) "\xEF\xBB\xBF" REC(2, 5, 10, 2, 1), 0, 2, "field 1");
}

/* Found by fuzzing (tests/fuzz): with --skip-bad every line may be skipped,
 * leaving records read but no job; cleaning then sorted a NULL array. */
static void test_all_lines_skipped(void)
{
	struct cmn_err e;
	int rc;
	struct js_workload *w = read_text("x\n; MaxProcs: 4\n1 2 3\n", 1, &rc, &e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(w->n, 0);
	CU_ASSERT_EQUAL(w->counts.skipped[JS_SKIP_MALFORMED], 2);
	struct js_clean_opts o;
	js_clean_opts_default(&o);
	CU_ASSERT_EQUAL(js_clean(w, &o, 4, &e), 0);
	CU_ASSERT_EQUAL(w->n, 0);
	js_workload_free(w);
}

static void test_ppn_auto(void)
{
	struct js_clean_opts o;
	js_clean_opts_default(&o);
	o.procs_per_node = 0;
	struct cmn_err e;
	const struct {
		const char *hdr;
		int ppn; /* 0: refused */
		const char *needle;
	} cases[] = {
	    {"; MaxNodes: 144\n; MaxProcs: 1152\n", 8, NULL},
	    {"; MaxNodes: 70  (dual)\n; MaxProcs: 140\n", 2, NULL},
	    {"; MaxProcs: 1152\n", 0, "no MaxNodes header value"},
	    {"; MaxNodes: 144\n", 0, "no MaxProcs header value"},
	    {"; Note: none\n", 0, "no MaxProcs and no MaxNodes"},
	    {"; MaxNodes: 0\n; MaxProcs: 0\n", 0, "has MaxProcs 0 and MaxNodes 0 in its header"},
	    {"; MaxNodes: 8\n; MaxProcs: 0\n", 0, "has MaxProcs 0 in its header"},
	    {"; MaxNodes: 0\n", 0, "has no MaxProcs header value and MaxNodes 0 in its header"},
	    {"; MaxNodes: 184\n; MaxProcs: 1664\n", 0,
	     "MaxProcs 1664 is not a multiple of MaxNodes"},
	    {"; MaxNodes: 8\n; MaxProcs: 4\n", 0, "MaxProcs 4 is not a multiple of MaxNodes 8"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char text[300];
		snprintf(text, sizeof text, "%s" REC(1, 0, 10, 16, 1), cases[i].hdr);
		struct js_workload *w = read_ok(text);
		CU_ASSERT_PTR_NOT_NULL_FATAL(w);
		int ppn = -1;
		int rc = js_clean_ppn(w, &o, &ppn, &e);
		if (cases[i].ppn) {
			CU_ASSERT_EQUAL(rc, 0);
			CU_ASSERT_EQUAL(ppn, cases[i].ppn);
		} else {
			CU_ASSERT_EQUAL(rc, CMN_EUSAGE);
			CU_ASSERT_EQUAL(js_clean(w, &o, 64, &e), CMN_EUSAGE);
			CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, cases[i].needle));
			CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "--procs-per-node auto"));
		}
		js_workload_free(w);
	}
}

/* n bytes (NULs too) in a fresh .swf file: its malloc'ed path. */
static char *write_bytes(const char *bytes, size_t n)
{
	char *path = th_write_temp("", ".swf");
	FILE *f = fopen(path, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fwrite(bytes, 1, n, f);
	fclose(f);
	return path;
}

/* Expects js_swf_read of path to fail with "PATH: error: needle". */
static void expect_refused(const char *path, const char *needle)
{
	struct cmn_err e;
	struct js_workload *w = NULL;
	CU_ASSERT_EQUAL(js_swf_read(path, 0, &w, &e), CMN_EINPUT);
	CU_ASSERT_PTR_NULL(w);
	char want[600];
	snprintf(want, sizeof want, "%s: error: %s", path, needle);
	int ok = strstr(e.msg, want) != NULL;
	CU_ASSERT(ok);
	if (!ok)
		fprintf(stderr, "\n  expected %s\n  got: %s\n", want, e.msg);
	js_workload_free(w);
}

/* Compressed files and archives of other formats, and UTF-16 text, are
 * named by their magic numbers (not "NUL byte in line"), plain or inside
 * gzip. */
static void test_other_formats(void)
{
	static char tar[1024];
	memset(tar, 0, sizeof tar);
	strcpy(tar, "log.swf");
	memcpy(tar + 257,
	       "ustar\0"
	       "00",
	       8);
	const struct {
		const char *bytes;
		size_t n;
		const char *needle;
	} cases[] = {
	    {"BZh91AY&SY\x01\x02", 12, "bzip2-compressed: decompress it first (only gzip is read)"},
	    {"\xfd"
	     "7zXZ\0\0\x04\xe6",
	     9, "xz-compressed: decompress it first"},
	    {"\x28\xb5\x2f\xfd\x24\x10", 6, "zstd-compressed: decompress it first"},
	    {"PK\x03\x04\x14\0\0\0", 8, "a zip archive: extract the log first"},
	    {"7z\xbc\xaf\x27\x1c\0\x04", 8, "a 7z archive: extract the log first"},
	    {tar, sizeof tar, "a tar archive: extract the log first"},
	    {"\xff\xfe;\0 \0M\0", 8, "UTF-16 text: convert to UTF-8/ASCII"},
	    {"\xfe\xff\0;\0 \0M", 8, "UTF-16 text: convert to UTF-8/ASCII"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *path = write_bytes(cases[i].bytes, cases[i].n);
		expect_refused(path, cases[i].needle);
		th_free_temp(path);
	}
	/* a bzip2 file gzip'ed: named after decompression */
	char *path = th_write_temp("", ".swf");
	gzFile g = gzopen(path, "wb");
	gzwrite(g, "BZh91AY&SY\x01\x02", 12);
	gzclose(g);
	expect_refused(path, "bzip2-compressed");
	th_free_temp(path);
	/* text that merely starts like them is text */
	struct js_workload *w = read_ok("; PK\n; BZh is not bzip2 here\n" REC(1, 0, 10, 2, 1));
	CU_ASSERT_PTR_NOT_NULL(w);
	js_workload_free(w);
}

/* Old Mac text: lines that end in CR only would read as one line (a
 * header comment, or a line over 1 MiB): refused by name. CRLF reads. */
static void test_cr_only(void)
{
	char text[400];
	snprintf(text, sizeof text, "; MaxNodes: 8\n" REC(1, 0, 10, 2, 1) REC(2, 5, 10, 2, 1));
	for (char *c = text; *c; c++)
		if (*c == '\n')
			*c = '\r';
	expect_error(text, 0, 0, "lines end in CR only (old Mac text): convert to LF");
	struct js_workload *w = read_ok("; a stray\rCR in a comment\n" REC(1, 0, 10, 2, 1));
	CU_ASSERT_PTR_NOT_NULL(w); /* lines end in LF: not old Mac text */
	js_workload_free(w);
	/* but a record after a CR in a line (CR-only text after the first
	 * line) would be read as part of it (a comment's): refused, by line */
	expect_error("; MaxNodes: 16\n; note\r" REC(1, 0, 10, 2, 1) REC(3, 20, 10, 2, 1), 0, 2,
	             "a record after a carriage return inside the line");
	snprintf(text, sizeof text, "; MaxNodes: 8\n" REC(1, 0, 10, 2, 1));
	text[strlen(text) - 1] = '\r'; /* REC(1) CR REC(2) LF: one line of 36 fields */
	strcat(text, REC(2, 5, 10, 2, 1));
	expect_error(text, 0, 2, "a record after a carriage return inside the line");
	size_t n = (1 << 21) / 64, len = 0;
	char *big = malloc(n * 64 + 1);
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(big + len,
		                       "%zu 0 -1 10 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\r", i + 1);
	expect_error(big, 0, 0, "lines end in CR only (old Mac text)");
	free(big);
	w = read_ok("; MaxNodes: 8\r\n" REC(1, 0, 10, 2, 1));
	CU_ASSERT_PTR_NOT_NULL(w);
	js_workload_free(w);
}

/* Messages quote fields with their non-printable bytes escaped. */
static void test_escaped_quotes(void)
{
	expect_error("1 0 -1 10\f 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n", 0, 1,
	             "field 4 (run time): '10\\f' is not a decimal number");
	expect_error(REC(1, 0, 10, 2, 1) "\xEF\xBB\xBF" REC(2, 5, 10, 2, 1), 0, 2,
	             "field 1 (job number): '\\xEF\\xBB\\xBF2' is not a decimal number");
	struct js_workload *w =
	    read_ok("; MaxNodes: \x01x\n; MaxProcs: 8 \x7f\n" REC(1, 0, 10, 2, 1));
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT(has_note(w, "header MaxNodes: '\\x01x' is not a whole number"));
	CU_ASSERT(has_note(w, "header MaxProcs: 8 taken, '\\x7F' kept as a comment"));
	js_workload_free(w);
}

/* A positive run time or wait lost whole when added to its submit time
 * (below the spacing of doubles there) is refused: the job would take no
 * time. Above the spacing it reads (rounded). */
static void test_vanishing_times(void)
{
	expect_error("1 999999999999 -1 0.00001 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n", 0, 1,
	             "field 4 (run time): '0.00001' vanishes when added to the submit time "
	             "999999999999 s");
	expect_error("1 999999999999 0.00001 10 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n", 0, 1,
	             "field 3 (wait time): '0.00001' vanishes");
	expect_error(REC(1, 0, 10, 2, 1) "2 1e12 -1 1e-5 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n", 0,
	             2, "field 4 (run time): '1e-5' vanishes");
	struct cmn_err e;
	int rc;
	struct js_workload *w = read_text(
	    "1 999999999999 -1 0.00001 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n" REC(2, 5, 10, 2, 1), 1,
	    &rc, &e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(w->n, 1);
	CU_ASSERT_EQUAL(w->counts.skipped[JS_SKIP_MALFORMED], 1);
	js_workload_free(w);
	w = read_ok("1 999999999999 -1 0.0002 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n"
	            "2 0 -1 0.00001 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n"
	            "3 999999999999 -1 0 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(w->n, 3);
	js_workload_free(w);
}

/* -0 is not a job number (negative ones are refused), in field 1 or 17. */
static void test_minus_zero_job(void)
{
	expect_error(REC(-0, 0, 10, 2, 1), 0, 1, "field 1 (job number): '-0' is not a job number");
	expect_error(REC(-0.0, 0, 10, 2, 1), 0, 1, "field 1 (job number): '-0.0' is not");
	expect_error(REC(1, 0, 10, 2, 1) "2 0 -1 10 2 -1 -1 2 100 -1 1 1 1 1 1 1 -0 -1\n", 0, 2,
	             "field 17 (preceding job number): '-0' is not a job number");
	struct js_workload *w = read_ok(REC(0, 0, 10, 2, 1));
	CU_ASSERT_PTR_NOT_NULL(w);
	js_workload_free(w);
}

/* Records asking for more processors than the header's MaxProcs are kept,
 * counted and noted (the first one's line), as other disagreements. */
static void test_over_max_procs(void)
{
	struct js_workload *w = read_ok("; MaxProcs: 2\n" REC(1, 0, 10, 2, 1) REC(2, 1, 10, 4, 1)
	                                    REC(3, 2, 10, 8, 1) REC(4, 3, 10, 1, 1));
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(w->n, 4);
	CU_ASSERT_EQUAL(w->counts.over_max_procs, 2);
	CU_ASSERT(has_note(w, ".swf:3: 2 records ask for more processors (up to 8) than the "
	                      "header's MaxProcs 2 (line 1)"));
	js_workload_free(w);
	/* the requested field too; no MaxProcs, no note */
	w = read_ok("; MaxProcs: 4\n1 0 -1 10 2 -1 -1 16 100 -1 1 1 1 1 1 1 -1 -1\n");
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(w->counts.over_max_procs, 1);
	js_workload_free(w);
	w = read_ok("; MaxNodes: 2\n" REC(1, 0, 10, 64, 1));
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	CU_ASSERT_EQUAL(w->counts.over_max_procs, 0);
	CU_ASSERT(!has_note(w, "MaxProcs"));
	js_workload_free(w);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("swf as published", NULL, NULL);
	CU_add_test(s, "header values with comments, keys without a space", test_header_comments);
	CU_add_test(s, "statuses outside the definition kept and counted", test_statuses);
	CU_add_test(s, "negative values in fields not simulated kept", test_negative_kept);
	CU_add_test(s, "numbers their field cannot hold", test_numbers);
	CU_add_test(s, "decimals read as strtod rounds them", test_decimals_exact);
	CU_add_test(s, "job numbers unique, partial executions", test_job_numbers);
	CU_add_test(s, "gzip cut anywhere or corrupt", test_gzip_broken);
	CU_add_test(s, "no job, a directory, junk", test_empty_inputs);
	CU_add_test(s, "--procs-per-node auto needs its header", test_ppn_auto);
	CU_add_test(s, "every line skipped (fuzzing)", test_all_lines_skipped);
	CU_add_test(s, "a byte-order mark before the first line", test_bom);
	CU_add_test(s, "other compression, archive and UTF-16 formats named", test_other_formats);
	CU_add_test(s, "lines ending in CR only refused by name", test_cr_only);
	CU_add_test(s, "quoted fields with non-printable bytes escaped", test_escaped_quotes);
	CU_add_test(s, "run times and waits lost at their submit time", test_vanishing_times);
	CU_add_test(s, "-0 is not a job number", test_minus_zero_job);
	CU_add_test(s, "records above the header's MaxProcs noted", test_over_max_procs);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

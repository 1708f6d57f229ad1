/* SWF parsing (every malformed-line class with its line number, header,
 * gzip = plain, real logs), cleaning and transformation options, the D(q)
 * generator, workload statistics and seed 000's load. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "../../jobsched/workload/synth.h"
#include "../helpers.h"

#define REC(id, submit, run, procs, req)                                                           \
#id " " #submit " -1 " #run " " #procs " -1 -1 " #procs " " #req " -1 1 1 1 1 1 1 -1 -1\n"

static struct js_workload *read_text(const char *text, int skip_bad, int *rc, struct cmn_err *e)
{
	char *path = th_write_temp(text, ".swf");
	struct js_workload *w = NULL;
	*rc = js_swf_read(path, skip_bad, &w, e);
	th_free_temp(path);
	return w;
}

/* Reads text and expects an error mentioning ":line:" and needle. */
static void expect_error(const char *text, int line, const char *needle)
{
	struct cmn_err e;
	int rc;
	struct js_workload *w = read_text(text, 0, &rc, &e);
	CU_ASSERT_EQUAL(rc, CMN_EINPUT);
	CU_ASSERT_PTR_NULL(w);
	char where[32];
	snprintf(where, sizeof where, ".swf:%d: error", line);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, where));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, needle));
	if (!strstr(e.msg, where) || !strstr(e.msg, needle))
		fprintf(stderr, "\n  got: %s\n", e.msg);
	js_workload_free(w);
}

static void test_malformed_lines(void)
{
	const char *hdr = "; Version: 2.2\n; MaxProcs: 8\n";
	char buf[1024];
	snprintf(buf, sizeof buf, "%s%s1 0 -1 10 2\n", hdr, REC(1, 0, 10, 2, 20));
	expect_error(buf, 4, "expected 18 fields, found 5");
	snprintf(buf, sizeof buf, "%s%s%s", hdr, REC(1, 0, 10, 2, 20),
	         "2 5 -1 10 two -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1\n");
	expect_error(buf, 4, "field 5 (allocated processors): 'two' is not a decimal number");
	snprintf(buf, sizeof buf, "%s\n\n%s", hdr, "2 5 -1 -5 2 -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1\n");
	expect_error(buf, 5, "field 4 (run time): '-5' is negative");
	snprintf(buf, sizeof buf, "%s%s", hdr, "2 5 -1 10 2 -1 -1 2 nan -1 1 1 1 1 1 1 -1 -1\n");
	expect_error(buf, 3, "field 9 (requested time)");
	snprintf(buf, sizeof buf, "%s%s", hdr, "2 5 -1 10 2 -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1 7\n");
	expect_error(buf, 3, "found 19");
}

static void test_skip_bad_counts(void)
{
	struct cmn_err e;
	int rc;
	struct js_workload *w =
	    read_text(REC(1, 0, 10, 2, 20) "x y z\n" REC(
	                  3, 5, 1, 1, 2) "3 5 -1 -2 2 -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1\n",
	              1, &rc, &e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(w->n, 2);
	CU_ASSERT_EQUAL(w->counts.read, 4);
	CU_ASSERT_EQUAL(w->counts.skipped[JS_SKIP_MALFORMED], 2);
	js_workload_free(w);
}

static void test_header_and_floats(void)
{
	struct cmn_err e;
	int rc;
	struct js_workload *w =
	    read_text("; Version: 2.2\n; Computer: test\n;MaxJobs: 3\n; MaxRecords: 3\n"
	              "; MaxNodes: 144\n; MaxProcs: 1152\n; UnixStartTime: 956700003\n"
	              "; TimeZoneString: US/Pacific\n; Note: a note: with colons\n"
	              "; Queues: 1 2\n\n   \n"
	              "  1 0.5 -1 10.25 16 -1 -1 16 20 -1 1 1 1 1 1 1 -1 -1\r\n"
	              "2\t3\t-1\t5\t8\t-1\t-1\t8\t-1\t-1\t0\t1\t1\t1\t1\t1\t-1\t-1",
	              0, &rc, &e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_STRING_EQUAL(w->hdr.version, "2.2");
	CU_ASSERT_EQUAL(w->hdr.max_jobs, 3);
	CU_ASSERT_EQUAL(w->hdr.max_nodes, 144);
	CU_ASSERT_EQUAL(w->hdr.max_procs, 1152);
	CU_ASSERT_EQUAL(w->hdr.unix_start_time, 956700003);
	CU_ASSERT_STRING_EQUAL(w->hdr.time_zone_string, "US/Pacific");
	CU_ASSERT_EQUAL_FATAL(w->hdr.nlines, 10);
	CU_ASSERT_STRING_EQUAL(w->hdr.lines[8], "; Note: a note: with colons");
	CU_ASSERT_STRING_EQUAL(w->hdr.lines[9], "; Queues: 1 2");
	CU_ASSERT_EQUAL(w->n, 2); /* the last line has no newline */
	CU_ASSERT_DOUBLE_EQUAL(w->jobs[0].f[JS_F_SUBMIT], 0.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(w->jobs[0].f[JS_F_RUN], 10.25, 0);
	CU_ASSERT_EQUAL(w->jobs[1].line, 14);
	/* procs per node from the header: 1152 / 144 = 8 */
	struct js_clean_opts o;
	js_clean_opts_default(&o);
	o.procs_per_node = 0;
	int ppn = 0;
	CU_ASSERT_EQUAL(js_clean_ppn(w, &o, &ppn, &e), 0);
	CU_ASSERT_EQUAL(ppn, 8);
	CU_ASSERT_EQUAL_FATAL(js_clean(w, &o, 144, &e), 0);
	CU_ASSERT_EQUAL(w->jobs[0].size, 2);
	CU_ASSERT_EQUAL(w->jobs[1].size, 1);
	CU_ASSERT_DOUBLE_EQUAL(w->jobs[1].req_s, 5, 0); /* requested -1: run time */
	CU_ASSERT_EQUAL(w->counts.req_from_run, 1);
	js_workload_free(w);
}

static void test_gzip_equals_plain(void)
{
	const char *text = "; MaxProcs: 8\n" REC(1, 0, 10, 2, 20) REC(2, 4, 7, 8, 9);
	char *plain = th_write_temp(text, ".swf");
	char gzpath[300];
	snprintf(gzpath, sizeof gzpath, "%s.data", plain); /* no .gz: detected by content */
	gzFile gz = gzopen(gzpath, "wb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(gz);
	gzputs(gz, text);
	gzclose(gz);
	struct js_workload *a, *b;
	struct cmn_err e;
	CU_ASSERT_EQUAL_FATAL(js_swf_read(plain, 0, &a, &e), 0);
	CU_ASSERT_EQUAL_FATAL(js_swf_read(gzpath, 0, &b, &e), 0);
	CU_ASSERT_EQUAL(a->n, b->n);
	CU_ASSERT(memcmp(a->jobs, b->jobs, a->n * sizeof *a->jobs) == 0);
	js_workload_free(a);
	js_workload_free(b);
	CU_ASSERT_EQUAL(js_swf_read("/nonexistent/x.swf", 0, &a, &e), CMN_EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "/nonexistent/x.swf"));
	remove(gzpath);
	th_free_temp(plain);
}

/* bytes[0..n) written by a child process into a pipe read as /dev/fd/N
 * (as `cat log | jobsched --workload /dev/stdin`): the reader's answer. */
static int read_piped(const char *bytes, size_t n, struct js_workload **w, struct cmn_err *e)
{
	int fd[2];
	CU_ASSERT_EQUAL_FATAL(pipe(fd), 0);
	pid_t pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		close(fd[0]);
		for (size_t k = 0; k < n;) {
			ssize_t put = write(fd[1], bytes + k, n - k);
			if (put <= 0)
				_exit(1);
			k += (size_t)put;
		}
		_exit(0);
	}
	close(fd[1]);
	char path[32];
	snprintf(path, sizeof path, "/dev/fd/%d", fd[0]);
	int rc = js_workload_read(path, 0, w, e);
	close(fd[0]);
	waitpid(pid, NULL, 0);
	return rc;
}

/* A file's bytes (malloc'ed) and their count. */
static char *file_bytes(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	size_t cap = 1 << 16;
	char *b = malloc(cap);
	*n = 0;
	size_t got;
	while ((got = fread(b + *n, 1, cap - *n, f)) > 0) {
		*n += got;
		if (*n == cap)
			b = realloc(b, cap *= 2);
	}
	fclose(f);
	return b;
}

/* A pipe is read once (the format told from its first bytes, then given
 * back): an SWF log and a Batsim workload, plain and gzip'ed, give the
 * jobs the file gives. */
static void test_pipe_equals_file(void)
{
	size_t cap = 4000 * 64, len = 0;
	char *swf = malloc(cap);
	len += (size_t)sprintf(swf, "; MaxNodes: 8\n; MaxProcs: 8\n");
	for (int i = 1; i <= 4000; i++)
		len +=
		    (size_t)sprintf(swf + len, "%d %d -1 %d 2 -1 -1 2 100 -1 1 1 1 1 1 1 -1 -1\n",
		                    i, 3 * i, 10 + i % 7);
	const char *json =
	    "\n {\"nb_res\": 4, \"jobs\": [{\"id\": \"a\", \"subtime\": 0, \"res\": 4, "
	    "\"profile\": \"d\"}, {\"id\": \"b\", \"subtime\": 1, \"res\": 2, "
	    "\"profile\": \"d\"}], \"profiles\": {\"d\": {\"type\": \"delay\", "
	    "\"delay\": 10}}}\n";
	const char *texts[2] = {swf, json};
	for (int t = 0; t < 2; t++) {
		char *plain = th_write_temp(texts[t], t ? ".json" : ".swf");
		char gzpath[300];
		snprintf(gzpath, sizeof gzpath, "%s.gz", plain);
		gzFile gz = gzopen(gzpath, "wb");
		CU_ASSERT_PTR_NOT_NULL_FATAL(gz);
		gzputs(gz, texts[t]);
		gzclose(gz);
		struct js_workload *want;
		struct cmn_err e;
		CU_ASSERT_EQUAL_FATAL(js_workload_read(plain, 0, &want, &e), 0);
		CU_ASSERT_EQUAL(want->n, t ? 2 : 4000);
		const char *files[2] = {plain, gzpath};
		for (int g = 0; g < 2; g++) {
			size_t n;
			char *bytes = file_bytes(files[g], &n);
			struct js_workload *w = NULL;
			int rc = read_piped(bytes, n, &w, &e);
			CU_ASSERT_EQUAL(rc, 0);
			if (rc)
				fprintf(stderr, "\n  %s through a pipe: %s\n", files[g], e.msg);
			if (w) {
				CU_ASSERT_EQUAL(w->n, want->n);
				CU_ASSERT_EQUAL(w->counts.read, want->counts.read);
				CU_ASSERT_EQUAL(w->hdr.max_procs, want->hdr.max_procs);
				for (size_t i = 0; i < w->n && i < want->n; i++)
					CU_ASSERT(memcmp(w->jobs[i].f, want->jobs[i].f,
					                 sizeof w->jobs[i].f) == 0);
			}
			js_workload_free(w);
			free(bytes);
		}
		js_workload_free(want);
		unlink(gzpath);
		th_free_temp(plain);
	}
	free(swf);
}

static void test_cleaning(void)
{
	const char *text =
	    "5 10 -1 10 4 -1 -1 4 20 -1 1 1 1 1 1 1 -1 -1\n"  /* ok */
	    "1 20 -1 10 -1 -1 -1 3 20 -1 1 1 1 1 1 1 -1 -1\n" /* size from requested */
	    "2 5 -1 10 -1 -1 -1 -1 20 -1 1 1 1 1 1 1 -1 -1\n" /* size unknown */
	    "3 6 -1 10 0 -1 -1 0 20 -1 1 1 1 1 1 1 -1 -1\n"   /* size 0 */
	    "4 7 -1 10 99 -1 -1 99 20 -1 1 1 1 1 1 1 -1 -1\n" /* oversize */
	    "6 8 -1 -1 2 -1 -1 2 20 -1 5 1 1 1 1 1 -1 -1\n"   /* run unknown */
	    "7 9 -1 0 2 -1 -1 2 20 -1 0 1 1 1 1 1 -1 -1\n"    /* run 0, failed */
	    "8 3 -1 30 2 -1 -1 2 20 -1 1 1 1 1 1 1 -1 -1\n";  /* overrun, out of order */
	struct cmn_err e;
	int rc;
	struct js_workload *w = read_text(text, 0, &rc, &e);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	struct js_clean_opts o;
	js_clean_opts_default(&o);
	CU_ASSERT_EQUAL_FATAL(js_clean(w, &o, 16, &e), 0);
	CU_ASSERT_EQUAL(w->n, 4);
	CU_ASSERT_EQUAL(w->counts.skipped[JS_SKIP_SIZE_UNKNOWN], 1);
	CU_ASSERT_EQUAL(w->counts.skipped[JS_SKIP_SIZE_NONPOS], 1);
	CU_ASSERT_EQUAL(w->counts.skipped[JS_SKIP_OVERSIZE], 1);
	CU_ASSERT_EQUAL(w->counts.skipped[JS_SKIP_RUN_UNKNOWN], 1);
	for (int k = 0; k < JS_SKIP_N; k++) { /* every reason has its own name */
		CU_ASSERT_PTR_NOT_NULL_FATAL(js_skip_names[k]);
		for (int l = 0; l < k; l++)
			CU_ASSERT(strcmp(js_skip_names[k], js_skip_names[l]) != 0);
	}
	CU_ASSERT_STRING_EQUAL(js_skip_names[JS_SKIP_RUN_UNKNOWN], "runtime_unknown");
	CU_ASSERT_STRING_EQUAL(js_skip_names[JS_SKIP_SUBMIT_UNKNOWN], "submit_unknown");
	CU_ASSERT_EQUAL(w->counts.size_from_requested, 1);
	CU_ASSERT_EQUAL(w->counts.overrun_kept, 1);
	CU_ASSERT(w->counts.reordered >= 1);
	/* sorted by submit: jobs 8 (t 3), 7 (t 9), 5 (t 10), 1 (t 20) */
	CU_ASSERT_DOUBLE_EQUAL(w->jobs[0].f[JS_F_JOB], 8, 0);
	CU_ASSERT_DOUBLE_EQUAL(w->jobs[0].run_s, 30, 0);
	CU_ASSERT_DOUBLE_EQUAL(w->jobs[3].f[JS_F_JOB], 1, 0);
	CU_ASSERT_EQUAL(w->jobs[3].size, 3);
	js_workload_free(w);

	w = read_text(text, 0, &rc, &e);
	o.oversize = JS_OVERSIZE_CLAMP;
	o.overrun = JS_OVERRUN_CLAMP;
	o.skip_zero_run = 1;
	o.status_mask = 1u << 2; /* status 1 only */
	o.runtime_coef = 2;
	o.arrival_mult = 0.5;
	CU_ASSERT_EQUAL_FATAL(js_clean(w, &o, 16, &e), 0);
	CU_ASSERT_EQUAL(w->counts.skipped[JS_SKIP_STATUS], 2); /* status 5 and 0 */
	CU_ASSERT_EQUAL(w->counts.size_clamped, 1);
	CU_ASSERT_EQUAL(w->counts.run_clamped, 1);
	CU_ASSERT_EQUAL(w->n, 4);                            /* 8, 4 (clamped), 5, 1 */
	CU_ASSERT_DOUBLE_EQUAL(w->jobs[0].run_s, 40, 0);     /* min(30, 20) x 2 */
	CU_ASSERT_DOUBLE_EQUAL(w->jobs[0].submit_s, 1.5, 0); /* 3 x 0.5 */
	CU_ASSERT_EQUAL(w->jobs[1].size, 16);
	js_workload_free(w);

	w = read_text(text, 0, &rc, &e);
	js_clean_opts_default(&o);
	o.size_field = JS_SIZE_REQUESTED;
	o.offset = 1;
	o.first = 2;
	CU_ASSERT_EQUAL_FATAL(js_clean(w, &o, 16, &e), 0);
	CU_ASSERT_EQUAL(w->n, 2);
	CU_ASSERT_DOUBLE_EQUAL(w->jobs[0].f[JS_F_JOB], 7, 0);
	CU_ASSERT_DOUBLE_EQUAL(w->jobs[1].f[JS_F_JOB], 5, 0);
	CU_ASSERT_EQUAL(w->counts.skipped[JS_SKIP_SELECTION], 2);
	js_workload_free(w);

	w = read_text(text, 0, &rc, &e);
	js_clean_opts_default(&o);
	o.window_from_s = 9;
	o.window_to_s = 20;
	CU_ASSERT_EQUAL_FATAL(js_clean(w, &o, 16, &e), 0);
	CU_ASSERT_EQUAL(w->n, 2); /* submitted at 9 and 10 */
	js_workload_free(w);
}

/* D(q) on [1, 19], q = 0.85 (seed 001): size-group shares near the paper's
 * 25.3 / 27.7 / 22.9 / 24.1 % with 1 counted as a power of two. */
/* Seed 004's workload: thirds per class, 60/30/10 topologies within each
 * class, the class sizes and run times, exponential arrivals, the type in
 * the executable-number field, determinism. */
static void test_reshape_generator(void)
{
	struct js_workload *w, *w2;
	struct cmn_err e;
	CU_ASSERT_EQUAL_FATAL(js_synth_generate("reshape", 3, 400, &w, NULL, 0, &e), 0);
	CU_ASSERT_EQUAL_FATAL(w->n, 120);
	int count[4][3] = {{0}};
	for (size_t i = 0; i < w->n; i++) {
		const struct js_job *j = &w->jobs[i];
		int type = (int)j->f[JS_F_EXE], c = type / 10, t = type % 10;
		CU_ASSERT_FATAL(c >= 1 && c <= 3 && t >= 0 && t <= 2);
		count[c][t]++;
		static const int size[4] = {0, 35, 81, 136}, pow2[4] = {0, 32, 64, 128};
		static const double iter[4] = {0, 8, 20, 32}, wall[4] = {0, 156, 240, 324};
		CU_ASSERT_EQUAL(j->f[JS_F_ALLOC_PROCS], t == 2 ? pow2[c] : size[c]);
		CU_ASSERT_DOUBLE_EQUAL(j->f[JS_F_RUN], 7 * iter[c], 1e-9);
		CU_ASSERT_DOUBLE_EQUAL(j->f[JS_F_REQ_TIME], wall[c], 1e-9);
	}
	for (int c = 1; c <= 3; c++) { /* 40 per class: 24 / 12 / 4 */
		CU_ASSERT_EQUAL(count[c][0], 24);
		CU_ASSERT_EQUAL(count[c][1], 12);
		CU_ASSERT_EQUAL(count[c][2], 4);
	}
	CU_ASSERT_DOUBLE_EQUAL(w->jobs[0].f[JS_F_SUBMIT], 0, 1e-12);
	/* a random order: the first 40 jobs are not all of one class */
	int first_class = (int)w->jobs[0].f[JS_F_EXE] / 10, mixed = 0;
	for (size_t i = 1; i < 40; i++)
		mixed |= (int)w->jobs[i].f[JS_F_EXE] / 10 != first_class;
	CU_ASSERT(mixed);
	CU_ASSERT_EQUAL_FATAL(js_synth_generate("reshape", 3, 400, &w2, NULL, 0, &e), 0);
	CU_ASSERT(w2->n == w->n && memcmp(w->jobs, w2->jobs, w->n * sizeof *w->jobs) == 0);
	js_workload_free(w2);
	js_workload_free(w);
	/* many jobs: mean inter-arrival 32 s; 100 jobs split 34/33/33 */
	CU_ASSERT_EQUAL_FATAL(js_synth_generate("reshape:jobs=60001", 1, 400, &w, NULL, 0, &e), 0);
	CU_ASSERT_DOUBLE_EQUAL(w->jobs[w->n - 1].f[JS_F_SUBMIT] / 60000.0, 32, 0.5);
	js_workload_free(w);
	CU_ASSERT_EQUAL_FATAL(js_synth_generate("reshape:jobs=100", 1, 400, &w, NULL, 0, &e), 0);
	int small = 0, small_pow2 = 0;
	for (size_t i = 0; i < w->n; i++) {
		small += (int)w->jobs[i].f[JS_F_EXE] / 10 == 1;
		small_pow2 += (int)w->jobs[i].f[JS_F_EXE] == 12;
	}
	CU_ASSERT_EQUAL(small, 34);
	CU_ASSERT_EQUAL(small_pow2, 3); /* 3.4 of 34: 20.4 / 10.2 / 3.4 -> 21 / 10 / 3 */
	js_workload_free(w);
	CU_ASSERT_EQUAL(js_synth_generate("reshape:iterations=0", 1, 400, &w, NULL, 0, &e),
	                CMN_EUSAGE);
}

/* Every synthetic model's samples (a contract over the registry): on
 * machines of 1, 7 and 128 nodes, records generated, and the jobs the
 * cleaning keeps in submission order with sizes 1 to the machine's, run
 * and requested times finite and >= 0; the same seed the same workload,
 * byte for byte through SWF. */
static void test_synth_contract(void)
{
	static const int sizes[] = {1, 7, 128};
	for (int i = 0; js_synth_registry[i]; i++)
		for (int k = 0; th_sample(&js_synth_registry[i]->base, k); k++) {
			const char *spec = th_sample(&js_synth_registry[i]->base, k);
			for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
				struct js_workload *w[2] = {NULL, NULL};
				struct cmn_err e;
				char eff[512], *text[2] = {NULL, NULL};
				for (int t = 0; t < 2; t++) {
					int rc = js_synth_generate(spec, 11, sizes[z], &w[t], eff,
					                           sizeof eff, &e);
					CU_ASSERT_EQUAL(rc, 0);
					if (rc) {
						fprintf(stderr, "\n  %s on %d nodes: %s\n", spec,
						        sizes[z], e.msg);
						break;
					}
					CU_ASSERT(w[t]->n >
					          0); /* records, before the oversize go */
					struct js_clean_opts o;
					js_clean_opts_default(&o);
					CU_ASSERT_EQUAL(js_clean(w[t], &o, sizes[z], &e), 0);
					char *path = th_write_temp("", ".swf");
					FILE *f = fopen(path, "w");
					CU_ASSERT_FATAL(f != NULL);
					CU_ASSERT_EQUAL(js_swf_write(f, w[t], spec), 0);
					fclose(f);
					text[t] = th_read_file(path);
					th_free_temp(path);
				}
				if (w[0] && w[1]) {
					for (size_t j = 0; j < w[0]->n; j++) {
						const struct js_job *x = &w[0]->jobs[j];
						CU_ASSERT(x->size >= 1 && x->size <= sizes[z]);
						CU_ASSERT(isfinite(x->run_s) && x->run_s >= 0);
						CU_ASSERT(isfinite(x->req_s) && x->req_s >= 0);
						CU_ASSERT(j == 0 || x->submit_s >=
						                        w[0]->jobs[j - 1].submit_s);
					}
					CU_ASSERT(text[0] && text[1] &&
					          strcmp(text[0], text[1]) == 0);
				}
				for (int t = 0; t < 2; t++) {
					js_workload_free(w[t]);
					free(text[t]);
				}
			}
		}
}

static void test_dq_generator(void)
{
	struct js_workload *w, *w2;
	struct cmn_err e;
	char eff[512];
	CU_ASSERT_EQUAL_FATAL(js_synth_generate("dq:jobs=200000", 5, 100, &w, eff, sizeof eff, &e),
	                      0);
	CU_ASSERT_PTR_NOT_NULL(strstr(eff, "q=0.85"));
	struct js_clean_opts o;
	js_clean_opts_default(&o);
	CU_ASSERT_EQUAL_FATAL(js_clean(w, &o, 100, &e), 0);
	int q[3];
	js_size_quartiles(w, q);
	CU_ASSERT_EQUAL(q[0], 1);
	CU_ASSERT_EQUAL(q[1], 3);
	CU_ASSERT_EQUAL(q[2], 6);
	size_t g[4] = {0}, ones = 0, threes = 0;
	double run = 0, last = 0;
	for (size_t i = 0; i < w->n; i++) {
		g[js_size_group(q, w->jobs[i].size) - 1]++;
		ones += w->jobs[i].size == 1;
		threes += w->jobs[i].size == 3;
		run += w->jobs[i].run_s;
		last = w->jobs[i].submit_s;
		CU_ASSERT(w->jobs[i].size >= 1 && w->jobs[i].size <= 19);
	}
	double n = (double)w->n;
	/* p1 = 3q/Q, p3 = q^3/Q: their ratio is 3 / q^2 */
	CU_ASSERT_DOUBLE_EQUAL((double)ones / threes, 3 / (0.85 * 0.85), 0.15);
	CU_ASSERT_DOUBLE_EQUAL(g[0] / n, 0.248, 0.005);
	CU_ASSERT_DOUBLE_EQUAL(g[1] / n, 0.271, 0.005);
	CU_ASSERT_DOUBLE_EQUAL(run / n, 10, 0.1);
	CU_ASSERT_DOUBLE_EQUAL(last / n, 0.54, 0.01);
	/* same seed, same workload; another seed, another one */
	CU_ASSERT_EQUAL_FATAL(js_synth_generate("dq:jobs=200000", 5, 100, &w2, NULL, 0, &e), 0);
	CU_ASSERT_EQUAL_FATAL(js_clean(w2, &o, 100, &e), 0);
	CU_ASSERT(w2->n == w->n && memcmp(w->jobs, w2->jobs, w->n * sizeof *w->jobs) == 0);
	js_workload_free(w2);
	CU_ASSERT_EQUAL_FATAL(js_synth_generate("dq:jobs=1000", 6, 100, &w2, NULL, 0, &e), 0);
	CU_ASSERT(w2->jobs[0].f[JS_F_RUN] != w->jobs[0].f[JS_F_RUN]);
	js_workload_free(w2);
	/* load= sets the mean inter-arrival time */
	CU_ASSERT_EQUAL_FATAL(js_synth_generate("dq:jobs=100000,load=0.5,n1=4,n2=4,mean_run=100", 1,
	                                        64, &w2, NULL, 0, &e),
	                      0);
	CU_ASSERT_DOUBLE_EQUAL(w2->jobs[w2->n - 1].f[JS_F_SUBMIT] / w2->n, 4 * 100 / (0.5 * 64),
	                       0.3);
	js_workload_free(w2);
	CU_ASSERT_EQUAL(js_synth_generate("dq:n1=5,n2=2", 1, 64, &w2, NULL, 0, &e), CMN_EUSAGE);
	CU_ASSERT_EQUAL(js_synth_generate("dq:q=1.5", 1, 64, &w2, NULL, 0, &e), CMN_EUSAGE);
	CU_ASSERT_EQUAL(js_synth_generate("poisson", 1, 64, &w2, NULL, 0, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "dq"));
	/* bad specifications, derived values included: refused, the spec quoted */
	static const char *const bad[][2] = {
	    {"dq:n1=5,n2=2", "n1 = 5 > n2 = 2"},
	    {"dq:jobs=10,", "parameter 2 is empty"},
	    {"dq:jobs=1e3", "'1e3' is not an integer"},
	    {"dq:load=1e-300", "makes mean_iat = 7.08"},
	    {"dq:load=100,n1=1,n2=1,mean_run=0.001", "makes mean_iat = 1.5625e-07 s"},
	    {"dq:", "no parameters after ':'"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		CU_ASSERT_EQUAL(js_synth_generate(bad[i][0], 1, 64, &w2, NULL, 0, &e), CMN_EUSAGE);
		CU_ASSERT_PTR_NULL(w2);
		char want[128];
		snprintf(want, sizeof want, "synthetic model '%s': ", bad[i][0]);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, want));
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, bad[i][1]));
	}
	js_workload_free(w);
}

/* Written SWF reads back to the same jobs. */
static void test_swf_round_trip(void)
{
	struct js_workload *w, *r;
	struct cmn_err e;
	CU_ASSERT_EQUAL_FATAL(js_synth_generate("dq:jobs=500", 3, 64, &w, NULL, 0, &e), 0);
	struct js_clean_opts o;
	js_clean_opts_default(&o);
	CU_ASSERT_EQUAL_FATAL(js_clean(w, &o, 64, &e), 0);
	char *path = th_write_temp("", ".swf");
	FILE *f = fopen(path, "w");
	CU_ASSERT_EQUAL(js_swf_write(f, w, "round trip"), 0);
	fclose(f);
	CU_ASSERT_EQUAL_FATAL(js_swf_read(path, 0, &r, &e), 0);
	CU_ASSERT_EQUAL_FATAL(js_clean(r, &o, 64, &e), 0);
	CU_ASSERT_EQUAL_FATAL(r->n, w->n);
	for (size_t i = 0; i < w->n; i++) {
		CU_ASSERT_EQUAL(r->jobs[i].submit_s, w->jobs[i].submit_s);
		CU_ASSERT_EQUAL(r->jobs[i].run_s, w->jobs[i].run_s);
		CU_ASSERT_EQUAL(r->jobs[i].req_s, w->jobs[i].req_s);
		CU_ASSERT_EQUAL(r->jobs[i].size, w->jobs[i].size);
	}
	th_free_temp(path);
	js_workload_free(w);
	js_workload_free(r);
}

/* Seed 000 eq. 2 by hand: 200 jobs, the first 1% (2) and those ending after
 * the last arrival are left out. */
static void test_load_eq2(void)
{
	double arr[200], end[200], work[200];
	for (int i = 0; i < 200; i++) {
		arr[i] = i;
		end[i] = i + 10;
		work[i] = 5;
	}
	size_t kept;
	/* T_start = 1, last arrival 199: jobs 2..189 end by 199 -> 188 jobs,
	 * T_end = 199, load = 188 x 5 / (4 x 198) */
	double load = js_load_eq2(200, arr, end, work, 4, &kept);
	CU_ASSERT_EQUAL(kept, 188);
	CU_ASSERT_DOUBLE_EQUAL(load, 188.0 * 5 / (4 * 198.0), 1e-12);
	CU_ASSERT(isnan(js_load_eq2(0, arr, end, work, 4, &kept)));
}

/* The real logs of ../shared/workloads: record counts, and the first
 * 10,000 valid SDSC-SP2 jobs against seed 003's Table 1. */
static void test_real_logs(void)
{
	const char *shared = th_shared_dir();
	if (!shared) {
		fprintf(stderr, "\n  SKIP: ../shared/workloads not found\n");
		return;
	}
	static const struct {
		const char *file;
		long jobs;
	} logs[] = {
	    {"HPC2N-2002-2.2-cln.swf.gz", 202871},    {"KTH-SP2-1996-2.1-cln.swf.gz", 28476},
	    {"LANL-CM5-1994-4.1-cln.swf.gz", 122060}, {"LLNL-Thunder-2007-1.1-cln.swf.gz", 121039},
	    {"NASA-iPSC-1993-3.1-cln.swf.gz", 18239}, {"SDSC-BLUE-2000-4.2-cln.swf.gz", 243306},
	    {"SDSC-SP2-1998-4.2-cln.swf.gz", 59715},
	};
	for (size_t i = 0; i < sizeof logs / sizeof *logs; i++) {
		char path[1024];
		snprintf(path, sizeof path, "%s/workloads/%s", shared, logs[i].file);
		struct js_workload *w;
		struct cmn_err e;
		int rc = js_swf_read(path, 0, &w, &e);
		CU_ASSERT_EQUAL(rc, 0);
		if (rc) {
			fprintf(stderr, "\n  %s\n", e.msg);
			continue;
		}
		CU_ASSERT_EQUAL(w->counts.read, logs[i].jobs);
		if (strstr(logs[i].file, "HPC2N")) { /* 42 % serial: still four groups */
			struct js_clean_opts o;
			js_clean_opts_default(&o);
			CU_ASSERT_EQUAL_FATAL(js_clean(w, &o, 256, &e), 0);
			int q[3];
			js_size_quartiles(w, q);
			CU_ASSERT(q[0] == 1 && q[1] == 2 && q[2] == 7);
		}
		CU_ASSERT_EQUAL((long)w->n, logs[i].jobs);
		if (strstr(logs[i].file, "SDSC-SP2")) {
			struct js_clean_opts o;
			js_clean_opts_default(&o);
			o.first = 10000;
			CU_ASSERT_EQUAL_FATAL(js_clean(w, &o, 128, &e), 0);
			struct js_wstats s;
			CU_ASSERT_EQUAL(js_wstats_compute(w, 128, &s, &e), 0);
			CU_ASSERT_DOUBLE_EQUAL(s.size_mean, 9.7, 0.05);
			CU_ASSERT_DOUBLE_EQUAL(s.size_sd, 14.8, 0.05);
		}
		if (strstr(logs[i].file, "LLNL")) {
			struct js_clean_opts o;
			js_clean_opts_default(&o);
			CU_ASSERT_EQUAL(js_clean(w, &o, 4096, &e), 0);
			CU_ASSERT_EQUAL(w->counts.reordered, 808);
			CU_ASSERT_EQUAL(w->counts.skipped[JS_SKIP_SUBMIT_UNKNOWN], 1190);
			CU_ASSERT_EQUAL(w->jobs[0].submit_s <= w->jobs[1].submit_s, 1);
		}
		js_workload_free(w);
	}
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("swf", NULL, NULL);
	CU_add_test(s, "each malformed-line class names its line", test_malformed_lines);
	CU_add_test(s, "--skip-bad counts malformed lines", test_skip_bad_counts);
	CU_add_test(s, "header values, float times, blank lines", test_header_and_floats);
	CU_add_test(s, "gzip and plain give the same jobs", test_gzip_equals_plain);
	CU_add_test(s, "a pipe gives the jobs the file gives", test_pipe_equals_file);
	CU_add_test(s, "real logs parse with their job counts", test_real_logs);
	s = CU_add_suite("cleaning", NULL, NULL);
	CU_add_test(s, "skip, clamp, fill, select, transform", test_cleaning);
	s = CU_add_suite("synthetic and statistics", NULL, NULL);
	CU_add_test(s, "every synthetic model's samples", test_synth_contract);
	CU_add_test(s, "D(q) generator (seed 001)", test_dq_generator);
	CU_add_test(s, "ReSHAPE workload generator (seed 004)", test_reshape_generator);
	CU_add_test(s, "SWF write and read back", test_swf_round_trip);
	CU_add_test(s, "seed 000 load, eq. 2", test_load_eq2);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

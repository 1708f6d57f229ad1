/* Standard Workload Format (SWF 2.2) files: the reader (plain or gzip'ed,
 * recognised by content; streamed, never slurped; job numbers checked
 * unique; what it met outside the definition noted) and the writer. */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "swf_internal.h"

#define LINE_MAX_BYTES (1 << 20)

/* What the reader tracks while it reads, for the notes at the end. */
struct reading {
	const char *path;
	int skip_bad;
	long neg[JS_SWF_FIELDS]; /* negative values other than -1 kept, per field */
	uint32_t neg_line[JS_SWF_FIELDS];
	int bom; /* the file began with a UTF-8 byte-order mark (skipped) */
};

/* Handles one line (NUL-terminated, without its newline). */
static int handle_line(struct js_workload *w, struct reading *r, char *line, uint32_t lineno,
                       struct cmn_err *e)
{
	char *p = line;
	if (lineno == 1 && strncmp(p, "\xEF\xBB\xBF", 3) == 0) { /* an editor's BOM: no data */
		p += 3;
		r->bom = 1;
	}
	/* a carriage return inside the line (not only at its end, as CRLF
	 * text has) ends a line for an editor: a record after it, read as part
	 * of this line (a comment's, say), would be lost */
	for (const char *cr = strchr(p, '\r'); cr; cr = strchr(cr + 1, '\r')) {
		const char *t = cr + 1;
		while (*t == ' ' || *t == '\t' || *t == '\r')
			t++;
		if (isdigit((unsigned char)*t) || *t == '-' || *t == '+' || *t == '.')
			return cmn_err_set(
			    e, CMN_EINPUT,
			    "error: a record after a carriage return inside the line "
			    "(lines that end in CR only, old Mac text): convert to LF "
			    "(e.g. tr '\\r' '\\n')");
	}
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	if (*p == '\0')
		return 0;
	if (*p == ';')
		return js_swf_header_line(w, r->path, lineno, p, e);
	w->counts.read++;
	struct js_job j;
	memset(&j, 0, sizeof j);
	j.line = lineno;
	unsigned neg;
	int rc = js_swf_parse_line(p, &j, &neg, e);
	if (rc) {
		if (r->skip_bad) {
			w->counts.skipped[JS_SKIP_MALFORMED]++;
			return 0;
		}
		return rc;
	}
	for (int k = 0; neg && k < JS_SWF_FIELDS; k++)
		if (neg & (1u << k) && r->neg[k]++ == 0)
			r->neg_line[k] = lineno;
	if (js_workload_push(w, &j))
		return cmn_err_set(e, CMN_ENOMEM, "error: out of memory");
	return 0;
}

/* 1 when the first line, still without a line feed (at the end of the
 * file or of LINE_MAX_BYTES), holds a carriage return followed by more
 * text: lines that end in CR only (old Mac text), which would read as one
 * line. */
static int cr_only(const char *b, size_t n)
{
	for (const char *cr = memchr(b, '\r', n); cr;
	     cr = memchr(cr + 1, '\r', n - (size_t)(cr + 1 - b)))
		if (cr + 1 < b + n && cr[1] != '\r' && cr[1] != '\n')
			return 1;
	return 0;
}

static int cr_only_error(const char *path, struct cmn_err *e)
{
	return cmn_err_set(e, CMN_EINPUT,
	                   "%s: error: lines end in CR only (old Mac text): convert to LF "
	                   "(e.g. tr '\\r' '\\n')",
	                   path);
}

/* Streams the file's lines into handle_line. A gzip stream that ends
 * before its trailer is an error wherever it is cut (common/gzpipe.h). */
static int read_lines(struct js_input *in, struct js_workload *w, struct reading *r,
                      struct cmn_err *e)
{
	const char *path = r->path;
	size_t cap = 1 << 16, have = 0; /* grown for long lines, up to LINE_MAX_BYTES */
	char *buf = malloc(cap + 1);
	if (!buf)
		return cmn_err_set(e, CMN_ENOMEM, "%s: out of memory", path);
	uint32_t lineno = 0;
	int rc = 0, eof = 0;
	while (!rc && !eof) {
		if (have == cap) { /* a line longer than the buffer: grow, up to the limit */
			if (cap >= LINE_MAX_BYTES) {
				if (lineno == 0 && cr_only(buf, have)) {
					rc = cr_only_error(path, e);
					break;
				}
				rc = cmn_err_set(
				    e, CMN_EINPUT,
				    "%s:%u: error: line longer than %d bytes (not an SWF log?)",
				    path, lineno + 1, LINE_MAX_BYTES);
				break;
			}
			char *nb = realloc(buf, 2 * cap + 1);
			if (!nb) {
				rc = cmn_err_set(e, CMN_ENOMEM, "%s: out of memory", path);
				break;
			}
			buf = nb;
			cap *= 2;
		}
		long got = js_input_read(in, buf + have, cap - have);
		if (got < 0) {
			const char *msg;
			js_input_end(in, &msg);
			rc = cmn_err_set(e, CMN_EIO, "%s: error: %s (corrupt gzip?)", path, msg);
			break;
		}
		if (got == 0) {
			const char *msg;
			if (js_input_end(in, &msg) == CMN_GZ_CUT) {
				rc = cmn_err_set(
				    e, CMN_EINPUT,
				    "%s: error: the gzip stream is cut short after line %u "
				    "(truncated download?)",
				    path, lineno);
				break;
			}
			eof = 1;
			if (have == 0)
				break;
			if (lineno == 0 && cr_only(buf, have)) {
				rc = cr_only_error(path, e);
				break;
			}
			buf[have++] = '\n'; /* last line without newline */
		} else {
			have += (size_t)got;
		}
		size_t start = 0;
		for (;;) {
			char *nl = memchr(buf + start, '\n', have - start);
			if (!nl)
				break;
			*nl = '\0';
			lineno++;
			if (memchr(buf + start, '\0', (size_t)(nl - (buf + start)))) {
				rc = cmn_err_set(e, CMN_EINPUT,
				                 "%s:%u: error: NUL byte in line (not an "
				                 "SWF log?)",
				                 path, lineno);
				break;
			}
			rc = handle_line(w, r, buf + start, lineno, e);
			if (rc) {
				cmn_err_prefix(e, "%s:%u", path, lineno);
				break;
			}
			start = (size_t)(nl - buf) + 1;
		}
		memmove(buf, buf + start, have - start);
		have -= start;
	}
	free(buf);
	return rc;
}

static int by_id_line(const void *a, const void *b)
{
	const struct js_job *x = *(const struct js_job *const *)a,
	                    *y = *(const struct js_job *const *)b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int is_partial(const struct js_job *j)
{
	double s = j->f[JS_F_STATUS];
	return s >= 2 && s <= 4;
}

/* The order of a job's parts: by submit time, then by line (the order the
 * simulation takes them in, and --swf-out writes them in, so that its log
 * reads back with the same part numbers). */
static int by_submit_line(const void *a, const void *b)
{
	const struct js_job *x = *(struct js_job *const *)a, *y = *(struct js_job *const *)b;
	double s = x->f[JS_F_SUBMIT], t = y->f[JS_F_SUBMIT];
	if (s != t)
		return s < t ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* Job numbers name jobs in every output: each must be unique. The SWF's
 * partial executions (status 2, 3, 4: parts of one checkpointed or swapped
 * job) may share their job's number with each other and with at most one
 * record of the whole job, which then stands for it (the parts are skipped
 * as "partial"); without one, each part is a job, numbered 1..k in `part`
 * (by_submit_line), so that (number, part) names it. Any other repeat is
 * an error naming both lines, or with --skip-bad the later records are
 * skipped as "duplicate". */
static int check_job_numbers(struct js_workload *w, const struct reading *r, struct cmn_err *e)
{
	size_t rising = 1; /* numbers rising line by line (most logs): no repeat */
	while (rising < w->n && w->jobs[rising - 1].id < w->jobs[rising].id)
		rising++;
	if (rising >= w->n)
		return 0;
	struct js_job **v = malloc(w->n * sizeof *v);
	unsigned char *skip = calloc(w->n, 1);
	if (!v || !skip) {
		free(v);
		free(skip);
		return cmn_err_set(e, CMN_ENOMEM, "%s: out of memory", r->path);
	}
	for (size_t i = 0; i < w->n; i++)
		v[i] = &w->jobs[i];
	qsort(v, w->n, sizeof *v, by_id_line);
	const struct js_job *bad = NULL, *bad_first = NULL;
	for (size_t a = 0, b; a < w->n; a = b) {
		size_t whole = 0, first = SIZE_MAX; /* the earliest whole record stands */
		for (b = a; b < w->n && v[b]->id == v[a]->id; b++)
			if (!is_partial(v[b]) && whole++ == 0)
				first = b;
		if (b - a == 1)
			continue;
		if (!whole) { /* parts only: each a job of its own, numbered */
			qsort(v + a, b - a, sizeof *v, by_submit_line);
			for (size_t k = a; k < b; k++)
				v[k]->part = (uint32_t)(k - a + 1);
		}
		for (size_t k = a; k < b; k++) {
			size_t i = (size_t)(v[k] - w->jobs);
			if (k == first)
				continue;
			if (is_partial(v[k])) {
				w->counts.partial_shared++;
				if (whole)
					skip[i] = JS_SKIP_PARTIAL + 1;
				continue;
			}
			skip[i] = JS_SKIP_DUPLICATE + 1;
			if (!bad || v[k]->line < bad->line) {
				bad = v[k];
				bad_first = v[first];
			}
		}
	}
	free(v);
	int rc = 0;
	if (bad && !r->skip_bad) {
		rc = cmn_err_set(e, CMN_EINPUT,
		                 "%s:%u: error: field 1 (job number): %" PRIu64
		                 " is also the job number on line %u (job numbers must be unique; "
		                 "--skip-bad skips the later records)",
		                 r->path, bad->line, bad->id, bad_first->line);
	} else {
		size_t kept = 0;
		for (size_t i = 0; i < w->n; i++) {
			if (skip[i])
				w->counts.skipped[skip[i] - 1]++;
			else
				w->jobs[kept++] = w->jobs[i];
		}
		w->n = kept;
	}
	free(skip);
	return rc;
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Statuses outside the SWF definition (-1..5; exit codes in some logs):
 * counted, and the most frequent listed in a note. */
static int note_statuses(struct js_workload *w, const struct reading *r)
{
	size_t n = 0;
	for (size_t i = 0; i < w->n; i++) {
		double s = w->jobs[i].f[JS_F_STATUS];
		n += s < -1 || s > 5;
	}
	w->counts.status_undefined = (long)n;
	if (!n)
		return 0;
	double *v = malloc(n * sizeof *v);
	if (!v)
		return CMN_ENOMEM;
	n = 0;
	for (size_t i = 0; i < w->n; i++) {
		double s = w->jobs[i].f[JS_F_STATUS];
		if (s < -1 || s > 5)
			v[n++] = s;
	}
	qsort(v, n, sizeof *v, by_double);
	enum { SHOWN = 8 };
	double top[SHOWN];
	long topn[SHOWN] = {0};
	size_t distinct = 0;
	for (size_t a = 0, b; a < n; a = b, distinct++) {
		for (b = a; b < n && v[b] == v[a]; b++)
			;
		long c = (long)(b - a);
		for (int k = 0; k < SHOWN; k++)
			if (c > topn[k]) { /* insert, keeping the list by count, then value */
				memmove(top + k + 1, top + k,
				        (SHOWN - 1 - (size_t)k) * sizeof *top);
				memmove(topn + k + 1, topn + k,
				        (SHOWN - 1 - (size_t)k) * sizeof *topn);
				top[k] = v[a];
				topn[k] = c;
				break;
			}
	}
	free(v);
	char list[400];
	size_t len = 0;
	for (int k = 0; k < SHOWN && topn[k]; k++)
		len += (size_t)snprintf(list + len, sizeof list - len, "%s%.0f (%ld)",
		                        k ? ", " : "", top[k], topn[k]);
	return js_workload_note(w,
	                        "%s: %zu records have a status outside the SWF definition (-1..5), "
	                        "kept as jobs (--status other selects them): %s%s",
	                        r->path, n, list, distinct > SHOWN ? ", ..." : "");
}

/* Records asking for more processors (allocated or requested) than the
 * header's MaxProcs: kept (cleaning decides what a machine takes),
 * counted, and the first one's line noted. */
static int note_over_max_procs(struct js_workload *w, const struct reading *r)
{
	long long max = w->hdr.max_procs;
	if (max < 0)
		return 0;
	const struct js_job *first = NULL;
	double most = 0;
	for (size_t i = 0; i < w->n; i++) {
		const struct js_job *j = &w->jobs[i];
		double p = fmax(j->f[JS_F_ALLOC_PROCS], j->f[JS_F_REQ_PROCS]);
		if (p <= (double)max)
			continue;
		w->counts.over_max_procs++;
		if (!first || j->line < first->line)
			first = j;
		most = fmax(most, p);
	}
	if (!first)
		return 0;
	return js_workload_note(w,
	                        "%s:%u: %ld records ask for more processors (up to %.0f) than the "
	                        "header's MaxProcs %lld (line %u), the first on this line: kept, "
	                        "the machine decides (--oversize)",
	                        r->path, first->line, w->counts.over_max_procs, most, max,
	                        w->hdr.key_line[JS_H_MAX_PROCS]);
}

static int notes_at_end(struct js_workload *w, const struct reading *r, struct cmn_err *e)
{
	int rc = note_statuses(w, r);
	if (!rc)
		rc = note_over_max_procs(w, r);
	if (!rc && r->bom)
		rc = js_workload_note(w, "%s:1: a UTF-8 byte-order mark begins the file, skipped",
		                      r->path);
	for (int k = 0; !rc && k < JS_SWF_FIELDS; k++) {
		if (!r->neg[k])
			continue;
		w->counts.negative_kept += r->neg[k];
		rc = js_workload_note(
		    w,
		    "%s:%u: field %d (%s): %ld negative values other than -1 (the "
		    "first on this line), kept as read: the simulation does not read "
		    "this field",
		    r->path, r->neg_line[k], k + 1, js_swf_field_names[k], r->neg[k]);
	}
	if (!rc && w->counts.partial_shared)
		rc = js_workload_note(
		    w,
		    "%s: %ld records of partial executions (status 2-4) share a job "
		    "number; %ld parts skipped where the whole job has its own record, "
		    "%ld parts simulated as jobs of their own, told apart by their part "
		    "(1..k) in every output",
		    r->path, w->counts.partial_shared, w->counts.skipped[JS_SKIP_PARTIAL],
		    w->counts.partial_shared - w->counts.skipped[JS_SKIP_PARTIAL]);
	return rc ? cmn_err_set(e, CMN_ENOMEM, "%s: out of memory", r->path) : 0;
}

int js_swf_read(const char *path, int skip_bad, struct js_workload **out, struct cmn_err *e)
{
	*out = NULL;
	struct js_input in;
	if (js_input_open(path, "an SWF log", &in, e))
		return e->code;
	int rc = js_swf_read_input(&in, skip_bad, out, e);
	js_input_close(&in);
	return rc;
}

int js_swf_read_input(struct js_input *in, int skip_bad, struct js_workload **out,
                      struct cmn_err *e)
{
	*out = NULL;
	const char *path = in->path;
	struct js_workload *w = js_workload_new(path);
	if (!w)
		return cmn_err_set(e, CMN_ENOMEM, "%s: out of memory", path);
	struct reading r = {.path = path, .skip_bad = skip_bad};
	int rc = read_lines(in, w, &r, e);
	if (!rc && w->counts.read == 0)
		rc = cmn_err_set(
		    e, CMN_EINPUT,
		    "%s: error: no job record (%ld header comment lines and nothing else)", path,
		    w->hdr.comment_lines);
	if (!rc)
		rc = check_job_numbers(w, &r, e);
	if (!rc)
		rc = notes_at_end(w, &r, e);
	if (rc) {
		js_workload_free(w);
		return rc;
	}
	*out = w;
	return 0;
}

/* The shortest of %.15g and %.17g that reads back as v. */
static void put_num(FILE *f, double v)
{
	if (v == floor(v) && fabs(v) < 1e15) {
		fprintf(f, " %.0f", v);
		return;
	}
	char buf[40];
	snprintf(buf, sizeof buf, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof buf, "%.17g", v);
	fprintf(f, " %s", buf);
}

int js_swf_write(FILE *f, const struct js_workload *w, const char *note)
{
	fprintf(f, "; Version: 2.2\n");
	fprintf(f, "; Computer: placement/contention simulator (jobsched)\n");
	if (note)
		fprintf(f, "; Note: %s\n", note);
	fprintf(f, "; MaxJobs: %zu\n; MaxRecords: %zu\n", w->n, w->n);
	if (w->hdr.max_nodes >= 0)
		fprintf(f, "; MaxNodes: %lld\n", w->hdr.max_nodes);
	if (w->hdr.max_procs >= 0)
		fprintf(f, "; MaxProcs: %lld\n", w->hdr.max_procs);
	if (w->hdr.nlines)
		fprintf(f, "; Header of the source:\n");
	for (size_t i = 0; i < w->hdr.nlines; i++)
		fprintf(f, "; > %s\n", w->hdr.lines[i]);
	for (size_t i = 0; i < w->n; i++) {
		const struct js_job *j = &w->jobs[i];
		double rec[JS_SWF_FIELDS];
		memcpy(rec, j->f, sizeof rec);
		rec[JS_F_SUBMIT] = j->submit_s;
		rec[JS_F_RUN] =
		    isnan(j->run_s) ? -1 : j->run_s; /* NAN: a replayed Batsim profile */
		rec[JS_F_ALLOC_PROCS] = j->size;
		rec[JS_F_REQ_TIME] = j->req_s;
		fprintf(f, " %" PRIu64, j->id);
		for (int k = 1; k < JS_SWF_FIELDS; k++) {
			if (k == JS_F_PRECEDING && rec[k] != -1)
				fprintf(f, " %" PRIu64, j->preceding);
			else
				put_num(f, rec[k]);
		}
		fputc('\n', f);
	}
	return ferror(f) ? CMN_EIO : 0;
}

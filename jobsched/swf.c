/* Standard Workload Format (SWF 2.2) reader and writer. Plain or gzip'ed
 * input is recognised by content (zlib reads plain files transparently);
 * the file is streamed in large chunks, never slurped. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "workload.h"

const char *const js_swf_field_names[JS_SWF_FIELDS] = {
    "job number",
    "submit time",
    "wait time",
    "run time",
    "allocated processors",
    "average CPU time",
    "used memory",
    "requested processors",
    "requested time",
    "requested memory",
    "status",
    "user id",
    "group id",
    "executable number",
    "queue number",
    "partition number",
    "preceding job number",
    "think time",
};

struct js_workload *js_workload_new(const char *source)
{
	struct js_workload *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	snprintf(w->source, sizeof w->source, "%s", source);
	w->hdr.max_jobs = w->hdr.max_records = w->hdr.max_nodes = w->hdr.max_procs = -1;
	w->hdr.unix_start_time = -1;
	return w;
}

int js_workload_push(struct js_workload *w, const struct js_job *j)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 1024;
		struct js_job *p = realloc(w->jobs, cap * sizeof *p);
		if (!p)
			return CMN_ENOMEM;
		w->jobs = p;
		w->cap = cap;
	}
	w->jobs[w->n++] = *j;
	return 0;
}

void js_workload_free(struct js_workload *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->hdr.nlines; i++)
		free(w->hdr.lines[i]);
	free(w->hdr.lines);
	free(w->jobs);
	free(w);
}

/* Parses a token as a finite decimal number. Fast path for the plain
 * decimals SWF logs hold (exact: mantissa < 2^53 divided by a power of ten
 * <= 10^22 is correctly rounded); anything else goes through strtod. */
static int parse_num(const char *s, size_t len, double *out)
{
	static const double p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
	                             1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	                             1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
	size_t i = 0;
	int neg = 0;
	if (i < len && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	uint64_t mant = 0;
	int digits = 0, frac = 0;
	for (; i < len && isdigit((unsigned char)s[i]); i++, digits++)
		mant = mant * 10 + (uint64_t)(s[i] - '0');
	if (i < len && s[i] == '.') {
		for (i++; i < len && isdigit((unsigned char)s[i]); i++, digits++, frac++)
			mant = mant * 10 + (uint64_t)(s[i] - '0');
	}
	if (digits == 0)
		return -1;
	if (i == len && digits <= 15 && frac <= 22) {
		double v = (double)mant / p10[frac];
		*out = neg ? -v : v;
		return 0;
	}
	char buf[64];
	if (len >= sizeof buf)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	char *end;
	errno = 0;
	double v = strtod(buf, &end);
	if (*end != '\0' || errno == ERANGE || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

int js_swf_parse_line(char *line, double rec[JS_SWF_FIELDS], struct cmn_err *e)
{
	int nf = 0;
	char *p = line;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (*p == '\0' || *p == '\n')
			break;
		char *tok = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
			p++;
		if (nf < JS_SWF_FIELDS) {
			double v;
			if (parse_num(tok, (size_t)(p - tok), &v) != 0)
				return cmn_err_set(e, CMN_EINPUT,
				                   "error: field %d (%s): '%.*s' is not a number",
				                   nf + 1, js_swf_field_names[nf],
				                   (int)(p - tok > 40 ? 40 : p - tok), tok);
			if (v < 0 && v != -1)
				return cmn_err_set(
				    e, CMN_EINPUT,
				    "error: field %d (%s): %.*s is negative (only -1, "
				    "unknown, is allowed)",
				    nf + 1, js_swf_field_names[nf], (int)(p - tok), tok);
			rec[nf] = v;
		}
		nf++;
	}
	if (nf != JS_SWF_FIELDS)
		return cmn_err_set(e, CMN_EINPUT, "error: expected %d fields, found %d",
		                   JS_SWF_FIELDS, nf);
	return 0;
}

static long long header_int(const char *v, int *ok)
{
	char *end;
	errno = 0;
	long long x = strtoll(v, &end, 10);
	while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
		end++;
	*ok = end != v && *end == '\0' && errno == 0;
	return x;
}

/* "; Key: value" comment lines: the keys used later are typed, others kept
 * only as counted comments. */
static int keep_line(struct js_swf_header *h, const char *line)
{
	char **lines = realloc(h->lines, (h->nlines + 1) * sizeof *lines);
	if (!lines)
		return -1;
	h->lines = lines;
	size_t len = strcspn(line, "\r\n");
	h->lines[h->nlines] = malloc(len + 1);
	if (!h->lines[h->nlines])
		return -1;
	memcpy(h->lines[h->nlines], line, len);
	h->lines[h->nlines++][len] = '\0';
	return 0;
}

static int parse_header(struct js_swf_header *h, const char *line, struct cmn_err *e)
{
	h->comment_lines++;
	if (keep_line(h, line))
		return cmn_err_set(e, CMN_ENOMEM, "error: out of memory");
	const char *p = line + 1;
	while (*p == ' ' || *p == '\t')
		p++;
	const char *colon = strchr(p, ':');
	if (!colon)
		return 0;
	char key[64];
	size_t kl = (size_t)(colon - p);
	if (kl == 0 || kl >= sizeof key)
		return 0;
	memcpy(key, p, kl);
	key[kl] = '\0';
	const char *v = colon + 1;
	while (*v == ' ' || *v == '\t')
		v++;
	static const struct {
		const char *key;
		size_t off;
	} ints[] = {
	    {"MaxJobs", offsetof(struct js_swf_header, max_jobs)},
	    {"MaxRecords", offsetof(struct js_swf_header, max_records)},
	    {"MaxNodes", offsetof(struct js_swf_header, max_nodes)},
	    {"MaxProcs", offsetof(struct js_swf_header, max_procs)},
	    {"UnixStartTime", offsetof(struct js_swf_header, unix_start_time)},
	};
	for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
		if (strcmp(key, ints[i].key) != 0)
			continue;
		int ok;
		long long x = header_int(v, &ok);
		if (!ok || x < 0)
			return cmn_err_set(
			    e, CMN_EINPUT,
			    "error: header %s: '%.40s' is not a non-negative integer", key, v);
		*(long long *)((char *)h + ints[i].off) = x;
		return 0;
	}
	size_t vl = strcspn(v, "\r\n");
	if (strcmp(key, "Version") == 0)
		snprintf(h->version, sizeof h->version, "%.*s", (int)vl, v);
	else if (strcmp(key, "TimeZoneString") == 0)
		snprintf(h->time_zone_string, sizeof h->time_zone_string, "%.*s", (int)vl, v);
	return 0;
}

/* Handles one line (NUL-terminated, without its newline). */
static int handle_line(struct js_workload *w, char *line, uint32_t lineno, int skip_bad,
                       struct cmn_err *e)
{
	char *p = line;
	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	if (*p == '\0')
		return 0;
	if (*p == ';')
		return parse_header(&w->hdr, p, e);
	w->counts.read++;
	struct js_job j;
	memset(&j, 0, sizeof j);
	j.line = lineno;
	int rc = js_swf_parse_line(p, j.f, e);
	if (rc) {
		if (skip_bad) {
			w->counts.skipped[JS_SKIP_MALFORMED]++;
			return 0;
		}
		return rc;
	}
	if (js_workload_push(w, &j))
		return cmn_err_set(e, CMN_ENOMEM, "error: out of memory");
	return 0;
}

int js_swf_read(const char *path, int skip_bad, struct js_workload **out, struct cmn_err *e)
{
	*out = NULL;
	gzFile gz = gzopen(path, "rb");
	if (!gz)
		return cmn_err_set(e, CMN_EIO, "%s: cannot open: %s", path,
		                   errno ? strerror(errno) : "zlib error");
	gzbuffer(gz, 1 << 17);
	struct js_workload *w = js_workload_new(path);
	size_t cap = 1 << 20, have = 0;
	char *buf = malloc(cap + 1);
	if (!w || !buf) {
		gzclose(gz);
		free(buf);
		js_workload_free(w);
		return cmn_err_set(e, CMN_ENOMEM, "%s: out of memory", path);
	}
	uint32_t lineno = 0;
	int rc = 0, eof = 0;
	while (!rc && !eof) {
		if (have == cap) { /* a line longer than the buffer: grow */
			char *nb = realloc(buf, 2 * cap + 1);
			if (!nb) {
				rc = cmn_err_set(e, CMN_ENOMEM, "%s: out of memory", path);
				break;
			}
			buf = nb;
			cap *= 2;
		}
		int got = gzread(gz, buf + have, (unsigned)(cap - have));
		if (got < 0) {
			int zerr;
			const char *msg = gzerror(gz, &zerr);
			rc = cmn_err_set(e, CMN_EIO, "%s: read error: %s", path, msg);
			break;
		}
		if (got == 0) {
			eof = 1;
			if (have == 0)
				break;
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
				rc = cmn_err_set(e, CMN_EINPUT, "%s:%u: error: NUL byte in line",
				                 path, lineno);
				break;
			}
			rc = handle_line(w, buf + start, lineno, skip_bad, e);
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
	gzclose(gz);
	if (rc) {
		js_workload_free(w);
		return rc;
	}
	*out = w;
	return 0;
}

static void put_num(FILE *f, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		fprintf(f, " %.0f", v);
	else
		fprintf(f, " %.15g", v);
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
		rec[JS_F_RUN] = j->run_s;
		rec[JS_F_ALLOC_PROCS] = j->size;
		rec[JS_F_REQ_TIME] = j->req_s;
		for (int k = 0; k < JS_SWF_FIELDS; k++)
			put_num(f, rec[k]);
		fputc('\n', f);
	}
	return ferror(f) ? CMN_EIO : 0;
}

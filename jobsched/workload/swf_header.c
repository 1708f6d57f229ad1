/* SWF header comments ("; Key: value", with or without the space): every
 * line kept as read; the numeric keys the tools use read leniently, as the
 * archive writes them ("MaxNodes: 70  (dual)" is 70 with a comment), each
 * departure from a plain number said in a note. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "swf_internal.h"

const char *const js_hkey_names[JS_H_N] = {
    [JS_H_MAX_JOBS] = "MaxJobs",   [JS_H_MAX_RECORDS] = "MaxRecords", [JS_H_MAX_NODES] = "MaxNodes",
    [JS_H_MAX_PROCS] = "MaxProcs", [JS_H_START] = "UnixStartTime",
};

static long long *hkey_value(struct js_swf_header *h, int k)
{
	long long *v[JS_H_N] = {&h->max_jobs, &h->max_records, &h->max_nodes, &h->max_procs,
	                        &h->unix_start_time};
	return v[k];
}

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

static const char *trim_end(const char *s, size_t *len)
{
	while (*len && isspace((unsigned char)s[*len - 1]))
		(*len)--;
	return s;
}

/* A numeric key's value: its leading whole number, the rest a comment. A
 * value that does not start with one (N/A, 1.5, 70k, a number beyond 64
 * bits) is ignored with a note; -1 (unknown) is absent. */
static int read_number(struct js_workload *w, const char *src, uint32_t line, int k, const char *v,
                       struct cmn_err *e)
{
	struct js_swf_header *h = &w->hdr;
	size_t vlen = strcspn(v, "\r\n");
	trim_end(v, &vlen);
	size_t i = v[0] == '-' || v[0] == '+' ? 1 : 0, d0 = i;
	unsigned long long x = 0;
	int over = 0;
	for (; i < vlen && isdigit((unsigned char)v[i]); i++) {
		unsigned dig = (unsigned)(v[i] - '0');
		over |= x > (unsigned long long)(INT64_MAX - dig) / 10;
		x = x * 10 + dig;
	}
	int whole =
	    i > d0 && !over && (i == vlen || !(isalnum((unsigned char)v[i]) || v[i] == '.'));
	if (whole && v[0] == '-' && x == 1 && i == vlen)
		return 0; /* -1: unknown */
	if (!whole || v[0] == '-') {
		char shown[4 * 60 + 1]; /* non-printable bytes escaped */
		js_escape(shown, sizeof shown, v, vlen > 60 ? 60 : vlen);
		const char *why = over    ? "is beyond 2^63 - 1"
		                  : whole ? "is negative"
		                          : "is not a whole number of 0 or more";
		if (js_workload_note(w, "%s:%u: header %s: '%s' %s: ignored", src, line,
		                     js_hkey_names[k], shown, why))
			return cmn_err_set(e, CMN_ENOMEM, "error: out of memory");
		return 0;
	}
	long long *slot = hkey_value(h, k);
	if (h->key_line[k]) {
		if (*slot != (long long)x &&
		    js_workload_note(
		        w, "%s:%u: header %s: %llu differs from line %u's %lld: the first kept",
		        src, line, js_hkey_names[k], x, h->key_line[k], *slot))
			return cmn_err_set(e, CMN_ENOMEM, "error: out of memory");
		return 0;
	}
	*slot = (long long)x;
	h->key_line[k] = line;
	const char *rest = v + i;
	size_t rlen = vlen - i;
	while (rlen && isspace((unsigned char)*rest))
		rest++, rlen--;
	if (!rlen)
		return 0;
	h->rest[k] = malloc(rlen + 1);
	if (!h->rest[k])
		return cmn_err_set(e, CMN_ENOMEM, "error: out of memory");
	memcpy(h->rest[k], rest, rlen);
	h->rest[k][rlen] = '\0';
	char shown[4 * 200 + 1];
	js_escape(shown, sizeof shown, h->rest[k], rlen > 200 ? 200 : rlen);
	if (js_workload_note(w, "%s:%u: header %s: %llu taken, '%s' kept as a comment", src, line,
	                     js_hkey_names[k], x, shown))
		return cmn_err_set(e, CMN_ENOMEM, "error: out of memory");
	return 0;
}

int js_swf_header_line(struct js_workload *w, const char *src, uint32_t line, const char *text,
                       struct cmn_err *e)
{
	struct js_swf_header *h = &w->hdr;
	h->comment_lines++;
	if (keep_line(h, text))
		return cmn_err_set(e, CMN_ENOMEM, "error: out of memory");
	const char *p = text + 1;
	while (*p == ' ' || *p == '\t')
		p++;
	const char *colon = strchr(p, ':');
	if (!colon)
		return 0;
	size_t kl = (size_t)(colon - p);
	trim_end(p, &kl);
	char key[64];
	if (kl == 0 || kl >= sizeof key)
		return 0;
	memcpy(key, p, kl);
	key[kl] = '\0';
	const char *v = colon + 1;
	while (*v == ' ' || *v == '\t')
		v++;
	for (int k = 0; k < JS_H_N; k++)
		if (strcasecmp(key, js_hkey_names[k]) == 0)
			return read_number(w, src, line, k, v, e);
	size_t vl = strcspn(v, "\r\n");
	if (strcasecmp(key, "Version") == 0 && !h->version[0])
		snprintf(h->version, sizeof h->version, "%.*s", (int)vl, v);
	else if (strcasecmp(key, "TimeZoneString") == 0 && !h->time_zone_string[0])
		snprintf(h->time_zone_string, sizeof h->time_zone_string, "%.*s", (int)vl, v);
	return 0;
}

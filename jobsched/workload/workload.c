/* The workload container: jobs as read or generated, their counts and the
 * reader's notes; and a workload file opened once for its readers (its
 * first bytes read ahead to tell the format, then given back). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "swf_internal.h"

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

int js_workload_note(struct js_workload *w, const char *fmt, ...)
{
	if (w->nnotes >= JS_NOTES_MAX) {
		w->notes_more++;
		return 0;
	}
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	char **notes = realloc(w->notes, (w->nnotes + 1) * sizeof *notes);
	if (!notes)
		return CMN_ENOMEM;
	w->notes = notes;
	notes[w->nnotes] = strdup(buf);
	if (!notes[w->nnotes])
		return CMN_ENOMEM;
	w->nnotes++;
	return 0;
}

const char *js_job_name(const struct js_job *j, char buf[JS_JOB_NAME_BYTES])
{
	if (j->part)
		snprintf(buf, JS_JOB_NAME_BYTES, "%" PRIu64 " part %" PRIu32, j->id, j->part);
	else
		snprintf(buf, JS_JOB_NAME_BYTES, "%" PRIu64, j->id);
	return buf;
}

void js_workload_free(struct js_workload *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->hdr.nlines; i++)
		free(w->hdr.lines[i]);
	free(w->hdr.lines);
	for (int k = 0; k < JS_H_N; k++)
		free(w->hdr.rest[k]);
	for (size_t i = 0; i < w->nnotes; i++)
		free(w->notes[i]);
	free(w->notes);
	for (size_t i = 0; i < w->nbprofiles; i++) {
		free(w->bprofiles[i].name);
		free(w->bprofiles[i].trace);
	}
	free(w->bprofiles);
	free(w->text);
	free(w->jobs);
	free(w);
}

void js_workload_print_notes(FILE *f, const char *prefix, const struct js_workload *w)
{
	for (size_t i = 0; i < w->nnotes; i++)
		fprintf(f, "%s%s\n", prefix, w->notes[i]);
	if (w->notes_more)
		fprintf(f, "%s... and %ld more notes\n", prefix, w->notes_more);
}

/* Bytes read ahead: enough for a tar header's magic (offset 257) and for
 * the first non-blank byte, up to HEAD_MAX of blanks. */
#define HEAD_MIN 512
#define HEAD_MAX (1 << 20)

/* What the first bytes say a file is when it is not text: the format, and
 * what to do. */
static const char *other_format(const unsigned char *b, size_t n)
{
	static const struct {
		const char *magic;
		size_t len;
		const char *what;
	} formats[] = {
	    {"\x1f\x8b", 2, "gzip-compressed twice: decompress it once first"},
	    {"\x1f\x9d", 2, "compress'ed (.Z): decompress it first (only gzip is read)"},
	    {"\xfd"
	     "7zXZ\0",
	     6, "xz-compressed: decompress it first (only gzip is read)"},
	    {"\x28\xb5\x2f\xfd", 4, "zstd-compressed: decompress it first (only gzip is read)"},
	    {"\x04\x22\x4d\x18", 4, "lz4-compressed: decompress it first (only gzip is read)"},
	    {"LZIP", 4, "lzip-compressed: decompress it first (only gzip is read)"},
	    {"PK\x03\x04", 4, "a zip archive: extract the log first (only gzip is read)"},
	    {"PK\x05\x06", 4, "a zip archive (empty): extract the log first"},
	    {"7z\xbc\xaf\x27\x1c", 6, "a 7z archive: extract the log first (only gzip is read)"},
	    {"Rar!\x1a\x07", 6, "a RAR archive: extract the log first (only gzip is read)"},
	    {"\xff\xfe", 2, "UTF-16 text: convert to UTF-8/ASCII (e.g. iconv -f UTF-16 -t UTF-8)"},
	    {"\xfe\xff", 2, "UTF-16 text: convert to UTF-8/ASCII (e.g. iconv -f UTF-16 -t UTF-8)"},
	};
	for (size_t k = 0; k < sizeof formats / sizeof *formats; k++)
		if (n >= formats[k].len && memcmp(b, formats[k].magic, formats[k].len) == 0)
			return formats[k].what;
	if (n >= 4 && memcmp(b, "BZh", 3) == 0 && b[3] >= '1' && b[3] <= '9')
		return "bzip2-compressed: decompress it first (only gzip is read)";
	if (n >= 262 && memcmp(b + 257, "ustar", 5) == 0)
		return "a tar archive: extract the log first (only gzip is read)";
	return NULL;
}

/* The offset of the first byte after a UTF-8 byte-order mark and blanks,
 * or n when there is none yet. */
static size_t first_nonblank(const char *b, size_t n)
{
	size_t k = n >= 3 && memcmp(b, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
	while (k < n && strchr(" \t\r\n", b[k]))
		k++;
	return k;
}

int js_input_open(const char *path, const char *noun, struct js_input *in, struct cmn_err *e)
{
	memset(in, 0, sizeof *in);
	in->path = path;
	struct stat st;
	if (stat(path, &st) != 0)
		return cmn_err_set(e, CMN_EIO, "%s: error: cannot open: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return cmn_err_set(e, CMN_EIO, "%s: error: is a directory, not %s", path, noun);
	if (cmn_gzpipe_open(path, 1, &in->gz, e))
		return e->code;
	size_t cap = HEAD_MIN;
	in->head = malloc(cap);
	if (!in->head) {
		js_input_close(in);
		return cmn_err_set(e, CMN_ENOMEM, "%s: out of memory", path);
	}
	/* The first bytes: HEAD_MIN, and on to the first non-blank byte. An
	 * error or the end is met again by the reader's next read. */
	for (;;) {
		if (in->nhead == cap) {
			if (first_nonblank(in->head, in->nhead) < in->nhead || cap >= HEAD_MAX)
				break;
			char *h = realloc(in->head, 2 * cap);
			if (!h) {
				js_input_close(in);
				return cmn_err_set(e, CMN_ENOMEM, "%s: out of memory", path);
			}
			in->head = h;
			cap *= 2;
		}
		long got = cmn_gzpipe_read(in->gz, in->head + in->nhead, cap - in->nhead);
		if (got <= 0)
			break;
		in->nhead += (size_t)got;
	}
	const char *other = other_format((const unsigned char *)in->head, in->nhead);
	if (other) {
		js_input_close(in);
		return cmn_err_set(e, CMN_EINPUT, "%s: error: %s", path, other);
	}
	size_t k = first_nonblank(in->head, in->nhead);
	in->json = k < in->nhead && in->head[k] == '{';
	return 0;
}

long js_input_read(struct js_input *in, char *buf, size_t len)
{
	if (in->pos < in->nhead) {
		size_t k = in->nhead - in->pos < len ? in->nhead - in->pos : len;
		memcpy(buf, in->head + in->pos, k);
		in->pos += k;
		return (long)k;
	}
	return cmn_gzpipe_read(in->gz, buf, len);
}

enum cmn_gz_end js_input_end(const struct js_input *in, const char **msg)
{
	return cmn_gzpipe_end(in->gz, msg);
}

void js_input_close(struct js_input *in)
{
	cmn_gzpipe_close(in->gz);
	free(in->head);
	in->gz = NULL;
	in->head = NULL;
	in->nhead = in->pos = 0;
}

size_t js_escape(char *dst, size_t cap, const char *s, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = 0;
	if (!cap)
		return 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[5];
		size_t k = 0;
		char named = c == '\t'   ? 't'
		             : c == '\n' ? 'n'
		             : c == '\r' ? 'r'
		             : c == '\f' ? 'f'
		             : c == '\v' ? 'v'
		             : c == '\\' ? '\\'
		                         : 0;
		if (c >= 0x20 && c < 0x7f && c != '\\') {
			esc[k++] = (char)c;
		} else if (named) {
			esc[k++] = '\\';
			esc[k++] = named;
		} else {
			esc[k++] = '\\';
			esc[k++] = 'x';
			esc[k++] = hex[c >> 4];
			esc[k++] = hex[c & 15];
		}
		if (n + k >= cap)
			break;
		memcpy(dst + n, esc, k);
		n += k;
	}
	dst[n] = '\0';
	return n;
}

/* Between the workload readers' files (workload.c opens a file once for
 * them, swf.c reads SWF lines, swf_header.c their header comments,
 * swf_line.c their data, batsim.c Batsim JSON). */
#ifndef JS_SWF_INTERNAL_H
#define JS_SWF_INTERNAL_H

#include "../../common/gzpipe.h"
#include "workload.h"

/* Reads one header comment line (starting with ';') of file src. */
int js_swf_header_line(struct js_workload *w, const char *src, uint32_t line, const char *text,
                       struct cmn_err *e);

/* A workload file opened once, so that a FIFO, a pipe, /dev/stdin or a
 * process substitution reads as a file does: decompressed when gzip'ed
 * (common/gzpipe.h), its first bytes read ahead to tell JSON from SWF and
 * to refuse other formats by their magic numbers, then given back to the
 * reader before the rest. */
struct js_input {
	const char *path;
	struct cmn_gzpipe *gz;
	char *head; /* the first bytes (decompressed), read ahead */
	size_t nhead, pos;
	int json; /* the first non-blank byte (after a UTF-8 BOM) is '{' */
};

/* Opens path (noun: what a directory is not, "a workload"); 0, or an
 * error naming path: missing, a directory, another compression or archive
 * format ("bzip2-compressed: decompress it first"), UTF-16 text. */
int js_input_open(const char *path, const char *noun, struct js_input *in, struct cmn_err *e);
/* As cmn_gzpipe_read: the bytes read ahead, then the rest of the stream. */
long js_input_read(struct js_input *in, char *buf, size_t len);
/* As cmn_gzpipe_end. */
enum cmn_gz_end js_input_end(const struct js_input *in, const char **msg);
/* Closes the stream (in may have been closed or never opened: zeroed). */
void js_input_close(struct js_input *in);

/* The readers over an opened input (the caller closes it). */
int js_swf_read_input(struct js_input *in, int skip_bad, struct js_workload **out,
                      struct cmn_err *e);
int js_batsim_read_input(struct js_input *in, struct js_workload **out, struct cmn_err *e);

/* s[0..len) for a message: printable ASCII as it is, \t \n \r \f \v and
 * backslash as C escapes, every other byte as \xHH; NUL-terminated in
 * dst[0..cap), cut at a whole escape. Its length. */
size_t js_escape(char *dst, size_t cap, const char *s, size_t len);

/* Times the readers take: within 10^12 s (beyond, doubles hold less than
 * a tenth of a millisecond), as the SWF reader's fields. */
#define JS_TIME_MAX_S 1e12
/* Sizes and identifiers: doubles hold every integer up to 2^53. */
#define JS_EXACT_MAX 9007199254740992.0

#endif

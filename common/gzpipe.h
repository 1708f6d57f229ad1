/* A gzip'ed (or plain) file, decompressed (optionally) by a thread of its
 * own, a few blocks ahead of its reader: decompression then overlaps parsing, as
 * `zcat FILE | parser` would (a 22 MB log: 40 ms of inflate off the
 * parser's path). Recognised by content: a file that does not start with
 * the gzip magic bytes is read as it is.
 *
 * Strict where zlib's gzread is not: gzread reports a stream cut short
 * only when its last read did not end exactly where the available input
 * did (Debian's zlib 1.2.13 returns a clean end otherwise), so a cut log
 * could read as a shorter one. Here inflate itself says whether the
 * stream ended: a file that ends anywhere before the end of its last gzip
 * member (its 8-byte trailer included) is cut short, always. Concatenated
 * members are read in turn; bytes after the last member other than zero
 * padding are an error (gzread ignores them: a member whose header was
 * damaged would be lost without a word). */
#ifndef CMN_GZPIPE_H
#define CMN_GZPIPE_H

#include <stddef.h>

#include "err.h"

struct cmn_gzpipe;

/* How a stream ended. */
enum cmn_gz_end {
	CMN_GZ_MORE,    /* not yet */
	CMN_GZ_END,     /* the end of a whole stream (or of a plain file) */
	CMN_GZ_CUT,     /* the file ends inside a gzip member */
	CMN_GZ_CORRUPT, /* not a valid gzip stream (the message says where it fails) */
	CMN_GZ_IO,      /* the file cannot be read (the message says why) */
};

/* Opens path, with a thread that reads ahead when `ahead` is 1 (one large
 * file), without (reads decompress in the caller's thread) when 0 (many
 * small files); 0, or an error naming path. */
int cmn_gzpipe_open(const char *path, int ahead, struct cmn_gzpipe **out, struct cmn_err *e);

/* Up to len (> 0) bytes into buf: their count, 0 once the stream ends
 * (END or CUT: every byte before a cut is returned first), < 0 on an
 * error (CORRUPT or IO). After the end, reads return the same again. */
long cmn_gzpipe_read(struct cmn_gzpipe *p, char *buf, size_t len);

/* How the stream ended (after a read returned 0 or < 0; CMN_GZ_MORE before),
 * with a message for CORRUPT and IO (zlib's or the system's). */
enum cmn_gz_end cmn_gzpipe_end(const struct cmn_gzpipe *p, const char **msg);

/* Stops the thread, closes the file and frees p (which may be NULL). */
void cmn_gzpipe_close(struct cmn_gzpipe *p);

#endif

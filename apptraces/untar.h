/* Unpacking a gzip'ed tar archive in-process (recorded traces come as
 * <name>.tar.gz). Regular files and folders only (ustar and old GNU
 * headers, GNU long names, pax path records). A signal during or after
 * the unpacking leaves nothing when the caller has registered the folder
 * it unpacks into with cmn_cleanup_add_folder (common/cleanup.h: the
 * folder and everything in it, in one of the registry's 512 slots however
 * many members; one a member, the files past them stayed behind). */
#ifndef TRACE_UNTAR_H
#define TRACE_UNTAR_H

#include "../common/err.h"

/* The paths an unpacking created, in creation order; the members and
 * bytes it unpacked. */
struct trace_unpacked {
	char **path; /* what was created, in order */
	int n, cap;
	long members;
	long long bytes;
};

/* What an unpacking may take (a small archive can unpack to terabytes or
 * millions of files): members (files and folders), bytes in all, and the
 * space it leaves free on the folder's file system. */
struct trace_untar_max {
	long members;
	long long bytes;
	long long keep_free;
};
/* The defaults: an index and one file per rank for 2^20 ranks (the
 * trace's limit) with room for folders; 32 GiB (a trace is read whole into
 * memory after); 1 GiB left free. */
#define TRACE_UNTAR_MAX_MEMBERS ((1L << 20) + 1024)
#define TRACE_UNTAR_MAX_BYTES   (32LL << 30)
#define TRACE_UNTAR_KEEP_FREE   (1LL << 30)

/* Unpacks archive (gzip'ed or plain tar) into the existing folder dir,
 * recording what it creates in *u (start from {0}). Errors name the
 * archive and the member: not a tar archive (bad header checksum), a
 * truncated archive, a member path that is absolute or climbs out with
 * "..", a member type other than file or folder, a file that cannot be
 * written, more members or bytes than TRACE_UNTAR_MAX_*, or less than
 * TRACE_UNTAR_KEEP_FREE left on dir's file system. On an error what was created stays in *u for
 * trace_unpacked_remove. */
int trace_untar_gz(const char *archive, const char *dir, struct trace_unpacked *u,
                   struct cmn_err *e);
/* The same within max (trace_untar_gz: the defaults above). Beyond one of
 * them the unpacking stops with an error that says which, before a member
 * whose header gives a size beyond them is written. */
int trace_untar_gz_max(const char *archive, const char *dir, const struct trace_untar_max *max,
                       struct trace_unpacked *u, struct cmn_err *e);

/* Removes what u records (last created first: files, then their folders),
 * forgets it in the cleanup registry, and frees u. */
void trace_unpacked_remove(struct trace_unpacked *u);

#endif

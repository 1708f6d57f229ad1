/* Unpacking a gzip'ed tar archive in-process (recorded traces come as
 * <name>.tar.gz). Regular files and folders only (ustar and old GNU
 * headers, GNU long names, pax path records); every path it creates is
 * registered with the cleanup registry (common/cleanup.h) before it is
 * created, so a signal during or after the unpacking removes them. */
#ifndef TRACE_UNTAR_H
#define TRACE_UNTAR_H

#include "../common/err.h"

/* The paths an unpacking created, in creation order. */
struct trace_unpacked {
	char **path;
	int n, cap;
};

/* Unpacks archive (gzip'ed or plain tar) into the existing folder dir,
 * recording what it creates in *u (start from {0}). Errors name the
 * archive and the member: not a tar archive (bad header checksum), a
 * truncated archive, a member path that is absolute or climbs out with
 * "..", a member type other than file or folder, a file that cannot be
 * written. On an error what was created stays in *u for
 * trace_unpacked_remove. */
int trace_untar_gz(const char *archive, const char *dir, struct trace_unpacked *u,
                   struct cmn_err *e);

/* Removes what u records (last created first: files, then their folders),
 * forgets it in the cleanup registry, and frees u. */
void trace_unpacked_remove(struct trace_unpacked *u);

#endif

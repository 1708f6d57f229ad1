/* Unpacking a gzip'ed tar archive (untar.h). libarchive reads the tar
 * format (ustar, GNU, pax: long names, pax paths, checksums); the bytes
 * come through common/gzpipe.h's decompression (a plain archive as it is),
 * which also says whether the gzip stream itself was whole: a stream cut
 * short or corrupt is an error even where the tar inside looks complete.
 * What is refused is decided here: a path that is absolute or climbs out,
 * and every member but files and folders. */
#include "untar.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "../common/gzpipe.h"

enum { MAX_NAME = 4096 };

/* Records path as created. */
static int record(struct trace_unpacked *u, const char *path, struct cmn_err *e)
{
	if (u->n == u->cap) {
		int cap = u->cap ? 2 * u->cap : 16;
		char **p = realloc(u->path, (size_t)cap * sizeof *p);
		if (!p)
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		u->path = p, u->cap = cap;
	}
	if (!(u->path[u->n] = strdup(path)))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	u->n++;
	return 0;
}

void trace_unpacked_remove(struct trace_unpacked *u)
{
	for (int i = u->n - 1; i >= 0; i--) { /* a folder was created before its files */
		remove(u->path[i]);
		free(u->path[i]);
	}
	free(u->path);
	*u = (struct trace_unpacked){0};
}

/* A member's path is relative and stays inside: no leading '/', no ".."
 * component; a leading "./" is dropped. */
static const char *safe_path(const char *p)
{
	while (p[0] == '.' && p[1] == '/')
		p += 2;
	if (!*p || *p == '/')
		return NULL;
	for (const char *c = p; *c;) {
		const char *end = strchr(c, '/');
		size_t len = end ? (size_t)(end - c) : strlen(c);
		if (len == 2 && c[0] == '.' && c[1] == '.')
			return NULL;
		c += len + (end ? 1 : 0);
	}
	return p;
}

/* Creates the folders of dir/rel up to its last '/' (all of it when
 * whole), recording the ones it makes. */
static int make_folders(const char *dir, const char *rel, int whole, struct trace_unpacked *u,
                        struct cmn_err *e)
{
	char path[MAX_NAME + 256];
	size_t base = (size_t)snprintf(path, sizeof path, "%s/", dir);
	for (size_t i = 0;; i++) {
		int end = rel[i] == '\0';
		if (rel[i] != '/' && !(whole && end)) {
			if (end)
				return 0;
			continue;
		}
		if (base + i >= sizeof path)
			return cmn_err_set(e, CMN_EINPUT, "member path too long: %s", rel);
		memcpy(path + base, rel, i);
		path[base + i] = '\0';
		struct stat st;
		if (stat(path, &st) == 0) {
			if (!S_ISDIR(st.st_mode))
				return cmn_err_set(e, CMN_EINPUT, "%s is a file and a folder", rel);
		} else if (mkdir(path, 0755) == 0) {
			if (record(u, path, e))
				return e->code;
		} else
			return cmn_err_set(e, CMN_EIO, "cannot create %s: %s", path,
			                   strerror(errno));
		if (end)
			return 0;
	}
}

/* Whether `more` bytes may still be unpacked into dir within max (after
 * u->bytes): 0, or the error saying which limit. */
static int room(const char *dir, const char *rel, long long more, const struct trace_untar_max *max,
                const struct trace_unpacked *u, struct cmn_err *e)
{
	if (more > max->bytes - u->bytes)
		return cmn_err_set(e, CMN_EINPUT,
		                   "member %s: the archive unpacks to more than %lld bytes (a "
		                   "trace archive unpacks to at most that)",
		                   rel, max->bytes);
	struct statvfs fs;
	if (statvfs(dir, &fs) == 0) {
		long double free_b = (long double)fs.f_bavail * (long double)fs.f_frsize;
		if ((long double)more + (long double)max->keep_free > free_b)
			return cmn_err_set(e, CMN_EIO,
			                   "member %s: unpacking it would leave less than %lld "
			                   "bytes free where it goes (%s, %.0Lf bytes free): set "
			                   "TMPDIR to a folder with more room",
			                   rel, max->keep_free, dir, free_b);
	}
	return 0;
}

/* Writes the current member's data to dir/rel. */
static int write_member(struct archive *a, struct archive_entry *entry, const char *dir,
                        const char *rel, const struct trace_untar_max *max,
                        struct trace_unpacked *u, struct cmn_err *e)
{
	char path[MAX_NAME + 256];
	if (make_folders(dir, rel, 0, u, e))
		return e->code;
	if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, rel) >= sizeof path)
		return cmn_err_set(e, CMN_EINPUT, "member path too long: %s", rel);
	struct stat st;
	if (stat(path, &st) == 0)
		return cmn_err_set(e, CMN_EINPUT, "member %s appears twice", rel);
	int64_t want = archive_entry_size_is_set(entry) ? archive_entry_size(entry) : -1, got = 0;
	if (room(dir, rel, want > 0 ? want : 0, max, u, e)) /* as its header says */
		return e->code;
	if (record(u, path, e))
		return e->code;
	FILE *f = fopen(path, "wb");
	if (!f)
		return cmn_err_set(e, CMN_EIO, "cannot create %s: %s", path, strerror(errno));
	/* block by block: a hole between blocks (a sparse member, however its
	 * header says so) is refused, not filled with zeros; neither may the
	 * data outgrow the member's size (nor, without one, the limits) */
	int rc = 0;
	for (;;) {
		const void *block;
		size_t n;
		la_int64_t at;
		int r = archive_read_data_block(a, &block, &n, &at);
		if (r == ARCHIVE_EOF)
			break;
		if (r < ARCHIVE_WARN) {
			rc = cmn_err_set(e, CMN_EINPUT, "truncated in member %s (%s)", rel,
			                 archive_error_string(a));
			break;
		}
		if (at != got || (want >= 0 && (int64_t)n > want - got)) {
			rc = cmn_err_set(
			    e, CMN_EINPUT,
			    "member %s: its data has holes or outgrows its size of %lld "
			    "bytes (a sparse or malformed member)",
			    rel, (long long)want);
			break;
		}
		if (want < 0 && ((got + (int64_t)n) >> 26 != got >> 26 || got == 0) &&
		    (rc = room(dir, rel, (long long)n + (1LL << 26), max, u, e)))
			break; /* no size in its header: checked every 64 MiB */
		if (n && fwrite(block, 1, n, f) != n) {
			rc = cmn_err_set(e, CMN_EIO, "cannot write %s: %s", path, strerror(errno));
			break;
		}
		got += (int64_t)n;
		u->bytes += (long long)n;
	}
	if (fclose(f) && !rc)
		rc = cmn_err_set(e, CMN_EIO, "cannot write %s: %s", path, strerror(errno));
	return rc;
}

/* After the archive's end (rc 0) the rest of the stream read to its end;
 * a gzip stream cut short or corrupt, there or where the tar stopped
 * (rc != 0), said so. */
static int stream_end(struct cmn_gzpipe *g, int rc, struct cmn_err *e)
{
	char rest[4096];
	if (!rc)
		while (cmn_gzpipe_read(g, rest, sizeof rest) > 0)
			;
	const char *msg = "";
	enum cmn_gz_end end = cmn_gzpipe_end(g, &msg);
	if (end == CMN_GZ_END || end == CMN_GZ_MORE)
		return rc;
	char what[sizeof e->msg];
	snprintf(what, sizeof what, "%s", rc ? e->msg : "after the archive's end");
	if (end == CMN_GZ_CUT)
		return cmn_err_set(e, CMN_EINPUT, "%s: the gzip stream is cut short", what);
	return cmn_err_set(e, end == CMN_GZ_IO ? CMN_EIO : CMN_EINPUT, "%s: %s%s", what,
	                   end == CMN_GZ_IO ? "" : "corrupt gzip data: ", msg);
}

/* libarchive reads the tar through the decompression of common/gzpipe.h. */
struct source {
	struct cmn_gzpipe *g;
	char buf[1 << 16];
};

static la_ssize_t source_read(struct archive *a, void *ctx, const void **out)
{
	struct source *s = ctx;
	long n = cmn_gzpipe_read(s->g, s->buf, sizeof s->buf);
	if (n < 0) {
		archive_set_error(a, EIO, "the archive cannot be read");
		return -1;
	}
	*out = s->buf;
	return n;
}

/* What a member of another type is, for the refusal. */
static const char *type_name(mode_t type)
{
	switch (type) {
	case AE_IFLNK: return "a symbolic link";
	case AE_IFCHR: return "a character device";
	case AE_IFBLK: return "a block device";
	case AE_IFIFO: return "a FIFO";
	case AE_IFSOCK: return "a socket";
	default: return "a member of an unknown type";
	}
}

/* The members, one by one, unpacked into dir. */
static int members(struct archive *a, const char *dir, const struct trace_untar_max *max,
                   struct trace_unpacked *u, struct cmn_err *e)
{
	struct archive_entry *entry;
	for (int count = 0;; count++) {
		int r = archive_read_next_header(a, &entry);
		if (r == ARCHIVE_EOF)
			return 0;
		if (r < ARCHIVE_WARN)
			return count ? cmn_err_set(e, CMN_EINPUT, "after %d members: %s", count,
			                           archive_error_string(a))
			             : cmn_err_set(e, CMN_EINPUT, "not a tar archive (%s)",
			                           archive_error_string(a));
		if (++u->members > max->members)
			return cmn_err_set(e, CMN_EINPUT,
			                   "more than %ld members (files and folders): a trace "
			                   "archive holds an index and a file per rank",
			                   max->members);
		const char *name = archive_entry_pathname(entry);
		if (!name || !*name)
			return cmn_err_set(e, CMN_EINPUT, "member %d has no name", count + 1);
		const char *rel = safe_path(name);
		if (!rel)
			return cmn_err_set(e, CMN_EINPUT,
			                   "member %s: an absolute path or one with \"..\"", name);
		mode_t type = archive_entry_filetype(entry);
		const char *what = archive_entry_hardlink(entry)           ? "a hard link"
		                   : archive_entry_sparse_count(entry) > 0 ? "a sparse file"
		                   : type == AE_IFREG || type == AE_IFDIR  ? NULL
		                                                           : type_name(type);
		if (what)
			return cmn_err_set(
			    e, CMN_EINPUT,
			    "member %s: %s is not supported (only files and folders: "
			    "no links, devices or sparse files)",
			    rel, what);
		int rc = type == AE_IFDIR ? make_folders(dir, rel, 1, u, e)
		                          : write_member(a, entry, dir, rel, max, u, e);
		if (rc)
			return rc;
	}
}

int trace_untar_gz(const char *archive, const char *dir, struct trace_unpacked *u,
                   struct cmn_err *e)
{
	const struct trace_untar_max max = {TRACE_UNTAR_MAX_MEMBERS, TRACE_UNTAR_MAX_BYTES,
	                                    TRACE_UNTAR_KEEP_FREE};
	return trace_untar_gz_max(archive, dir, &max, u, e);
}

int trace_untar_gz_max(const char *archive, const char *dir, const struct trace_untar_max *max,
                       struct trace_unpacked *u, struct cmn_err *e)
{
	struct source *src = calloc(1, sizeof *src);
	struct archive *a = archive_read_new();
	int rc = 0;
	if (!src || !a)
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	else if (cmn_gzpipe_open(archive, 0, &src->g, e))
		rc = e->code;
	else if (archive_read_support_format_tar(a) != ARCHIVE_OK ||
	         archive_read_open(a, src, NULL, source_read, NULL) != ARCHIVE_OK)
		rc = cmn_err_set(e, CMN_EINPUT, "not a tar archive (%s)", archive_error_string(a));
	else
		rc = members(a, dir, max, u, e);
	if (src && src->g) {
		rc = stream_end(src->g, rc, e);
		cmn_gzpipe_close(src->g);
	}
	if (a)
		archive_read_free(a);
	free(src);
	if (rc)
		cmn_err_prefix(e, "%s", archive);
	return rc;
}

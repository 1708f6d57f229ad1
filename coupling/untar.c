/* Unpacking a gzip'ed tar archive (untar.h). A tar archive is a sequence
 * of 512-byte headers (name, octal size, type, checksum), each followed by
 * its data padded to 512 bytes, ended by zero blocks; read through the
 * compression by common/gzpipe.h (a plain archive as it is), which also
 * says whether the gzip stream itself was whole: a stream cut short or
 * corrupt is an error even where the tar inside looks complete. */
#include "untar.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/cleanup.h"
#include "../common/gzpipe.h"

enum { BLOCK = 512, MAX_NAME = 4096 };

/* Records path as created (and registers it for removal on a signal). */
static int record(struct cpl_unpacked *u, const char *path, struct cmn_err *e)
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
	cmn_cleanup_add(path); /* past the registry's size a signal leaves it behind */
	return 0;
}

void cpl_unpacked_remove(struct cpl_unpacked *u)
{
	for (int i = u->n - 1; i >= 0; i--) { /* a folder was created before its files */
		remove(u->path[i]);
		cmn_cleanup_forget(u->path[i]);
		free(u->path[i]);
	}
	free(u->path);
	*u = (struct cpl_unpacked){0};
}

/* A header's numeric field: octal digits (leading spaces or NULs, ended by
 * a space or NUL), or GNU's base-256 (first byte's top bit set); -1 if
 * neither. */
static long long number(const unsigned char *f, int len)
{
	long long v = 0;
	int i = 0;
	if (f[0] & 0x80) { /* base-256, positive only */
		if (f[0] != 0x80)
			return -1;
		for (i = 1; i < len; i++) {
			if (v > (LLONG_MAX >> 8))
				return -1;
			v = v << 8 | f[i];
		}
		return v;
	}
	while (i < len && (f[i] == ' ' || f[i] == '\0'))
		i++;
	int digits = 0;
	for (; i < len && f[i] >= '0' && f[i] <= '7'; i++, digits++) {
		if (v > (LLONG_MAX >> 3))
			return -1;
		v = v << 3 | (f[i] - '0');
	}
	for (; i < len; i++)
		if (f[i] != ' ' && f[i] != '\0')
			return -1;
	return digits ? v : -1;
}

/* Whether the header's checksum field matches its bytes (the field itself
 * counted as spaces; unsigned sum, or the signed one old tars wrote). */
static int checksum_ok(const unsigned char *h)
{
	long want = (long)number(h + 148, 8), u = 0, s = 0;
	for (int i = 0; i < BLOCK; i++) {
		int c = i >= 148 && i < 156 ? ' ' : h[i];
		u += c;
		s += i >= 148 && i < 156 ? ' ' : (signed char)h[i];
	}
	return want >= 0 && (want == u || want == s);
}

/* Reads n bytes; 0, or -1 at the end of the archive or on an error. */
static int get(struct cmn_gzpipe *g, void *buf, size_t n)
{
	for (size_t got = 0; got < n;) {
		long r = cmn_gzpipe_read(g, (char *)buf + got, n - got);
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

/* The padding after n bytes of data: up to the next block. */
static long long pad(long long n)
{
	return (BLOCK - n % BLOCK) % BLOCK;
}

/* Skips n bytes; 0, or -1 at the end of the archive. */
static int skip(struct cmn_gzpipe *g, long long n)
{
	unsigned char b[BLOCK];
	for (; n > 0; n -= BLOCK)
		if (get(g, b, n < BLOCK ? (size_t)n : BLOCK))
			return -1;
	return 0;
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
static int make_folders(const char *dir, const char *rel, int whole, struct cpl_unpacked *u,
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

/* Writes a member's size bytes to dir/rel. */
static int write_member(struct cmn_gzpipe *g, const char *dir, const char *rel, long long size,
                        struct cpl_unpacked *u, struct cmn_err *e)
{
	char path[MAX_NAME + 256];
	if (make_folders(dir, rel, 0, u, e))
		return e->code;
	if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, rel) >= sizeof path)
		return cmn_err_set(e, CMN_EINPUT, "member path too long: %s", rel);
	struct stat st;
	if (stat(path, &st) == 0)
		return cmn_err_set(e, CMN_EINPUT, "member %s appears twice", rel);
	if (record(u, path, e))
		return e->code;
	FILE *f = fopen(path, "wb");
	if (!f)
		return cmn_err_set(e, CMN_EIO, "cannot create %s: %s", path, strerror(errno));
	static const size_t chunk = 1 << 16;
	char *buf = malloc(chunk);
	int rc = buf ? 0 : cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (long long left = size; !rc && left > 0;) {
		size_t n = left < (long long)chunk ? (size_t)left : chunk;
		if (get(g, buf, n))
			rc = cmn_err_set(e, CMN_EINPUT, "truncated in member %s", rel);
		else if (fwrite(buf, 1, n, f) != n)
			rc = cmn_err_set(e, CMN_EIO, "cannot write %s: %s", path, strerror(errno));
		left -= (long long)n;
	}
	free(buf);
	if (fclose(f) && !rc)
		rc = cmn_err_set(e, CMN_EIO, "cannot write %s: %s", path, strerror(errno));
	if (!rc && skip(g, pad(size)))
		rc = cmn_err_set(e, CMN_EINPUT, "truncated after member %s", rel);
	return rc;
}

/* Reads a GNU long name or a pax header's data (at most MAX_NAME bytes) and
 * takes the name from it: all of it ('L'), or its "path=" record ('x'). */
static int long_name(struct cmn_gzpipe *g, long long size, char type, char *name, struct cmn_err *e)
{
	if (size < 1 || size > MAX_NAME)
		return cmn_err_set(e, CMN_EINPUT, "a %s of %lld bytes",
		                   type == 'L' ? "long name" : "pax header", size);
	char buf[MAX_NAME + 1];
	if (get(g, buf, (size_t)size) || skip(g, pad(size)))
		return cmn_err_set(e, CMN_EINPUT, "truncated in a %s",
		                   type == 'L' ? "long name" : "pax header");
	buf[size] = '\0';
	if (type == 'L') {
		memcpy(name, buf, (size_t)size + 1);
		return 0;
	}
	for (char *r = buf; r < buf + size;) { /* records "LEN key=value\n" */
		char *sp = strchr(r, ' ');
		long len = strtol(r, NULL, 10);
		if (!sp || len <= 0 || r + len > buf + size || sp >= r + len || r[len - 1] != '\n')
			return cmn_err_set(e, CMN_EINPUT, "a malformed pax header");
		if (strncmp(sp + 1, "path=", 5) == 0) {
			size_t n = (size_t)(r + len - 1 - (sp + 6));
			memcpy(name, sp + 6, n);
			name[n] = '\0';
		}
		r += len;
	}
	return 0;
}

/* After the archive's end (rc 0) the rest of the stream read to its end;
 * a gzip stream cut short or corrupt, there or where the tar stopped
 * (rc != 0), said so. */
static int stream_end(struct cmn_gzpipe *g, int rc, struct cmn_err *e)
{
	char rest[BLOCK];
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

int cpl_untar_gz(const char *archive, const char *dir, struct cpl_unpacked *u, struct cmn_err *e)
{
	struct cmn_gzpipe *g;
	if (cmn_gzpipe_open(archive, 0, &g, e))
		return e->code;
	unsigned char h[BLOCK];
	char next[MAX_NAME + 1] = ""; /* a long name or pax path for the next member */
	int rc = 0, members = 0;
	for (;;) {
		if (get(g, h, BLOCK)) {
			rc = members
			         ? cmn_err_set(e, CMN_EINPUT, "truncated after %d members", members)
			         : cmn_err_set(e, CMN_EINPUT, "not a tar archive (too short)");
			break;
		}
		int zero = 1;
		for (int i = 0; i < BLOCK && zero; i++)
			zero = h[i] == 0;
		if (zero)
			break; /* the end */
		if (!checksum_ok(h)) {
			rc = members ? cmn_err_set(e, CMN_EINPUT,
			                           "bad header checksum after %d members", members)
			             : cmn_err_set(e, CMN_EINPUT, "not a tar archive (bad header)");
			break;
		}
		long long size = number(h + 124, 12);
		char type = (char)h[156], name[MAX_NAME + 1];
		if (size < 0) {
			rc = cmn_err_set(e, CMN_EINPUT, "member %d: bad size field", members + 1);
			break;
		}
		if (type == 'L' || type == 'x') {
			if ((rc = long_name(g, size, type, next, e)))
				break;
			continue;
		}
		if (type == 'g') { /* pax global header: nothing we use */
			if (skip(g, size + pad(size))) {
				rc = cmn_err_set(e, CMN_EINPUT, "truncated in a pax header");
				break;
			}
			continue;
		}
		if (next[0]) {
			memcpy(name, next, strlen(next) + 1);
			next[0] = '\0';
		} else if (memcmp(h + 257, "ustar", 6) == 0 && h[345]) { /* POSIX: a prefix */
			snprintf(name, sizeof name, "%.155s/%.100s", (const char *)h + 345,
			         (const char *)h);
		} else {
			snprintf(name, sizeof name, "%.100s", (const char *)h);
		}
		members++;
		const char *rel = safe_path(name);
		if (!rel) {
			rc = cmn_err_set(e, CMN_EINPUT,
			                 "member %s: an absolute path or one with \"..\"", name);
			break;
		}
		if (type == '0' || type == '\0' || type == '7')
			rc = write_member(g, dir, rel, size, u, e);
		else if (type == '5') {
			rc = make_folders(dir, rel, 1, u, e);
			if (!rc && skip(g, size + pad(size))) /* a folder has no data, normally */
				rc = cmn_err_set(e, CMN_EINPUT, "truncated after member %s", rel);
		} else
			rc = cmn_err_set(
			    e, CMN_EINPUT,
			    "member %s: type '%c' is not supported (only files and folders: "
			    "no links, devices or sparse files)",
			    rel, type);
		if (rc)
			break;
	}
	rc = stream_end(g, rc, e);
	cmn_gzpipe_close(g);
	if (rc)
		cmn_err_prefix(e, "%s", archive);
	return rc;
}

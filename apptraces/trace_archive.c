/* Traces packed as archives (trace_archive.h). */
#include "trace_archive.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/cleanup.h"
#include "untar.h"

static const char *const suffixes[] = {".tar.gz", ".tgz", ".tar"};

/* The length of path's archive suffix, 0 when it has none. */
static size_t suffix_len(const char *path)
{
	size_t n = strlen(path);
	for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
		size_t s = strlen(suffixes[i]);
		if (n > s && strcmp(path + n - s, suffixes[i]) == 0)
			return s;
	}
	return 0;
}

int trace_is_archive(const char *path)
{
	return suffix_len(path) > 0;
}

static int is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The index to read in dir (the unpacked archive): index, NAME.txt, or the
 * one .txt file at the top; into path. 0 or an error naming the archive. */
static int find_index(const char *archive, const char *dir, const char *index, char *path,
                      size_t len, struct cmn_err *e)
{
	if (index) {
		snprintf(path, len, "%s/%s", dir, index);
		return is_file(path)
		           ? 0
		           : cmn_err_set(e, CMN_EINPUT, "%s: holds no %s", archive, index);
	}
	const char *base = strrchr(archive, '/');
	base = base ? base + 1 : archive;
	snprintf(path, len, "%s/%.*s.txt", dir, (int)(strlen(base) - suffix_len(base)), base);
	if (is_file(path))
		return 0;
	DIR *d = opendir(dir);
	int found = 0;
	for (struct dirent *en; d && (en = readdir(d));) {
		size_t n = strlen(en->d_name);
		if (n > 4 && strcmp(en->d_name + n - 4, ".txt") == 0) {
			char p[4096];
			snprintf(p, sizeof p, "%s/%s", dir, en->d_name);
			if (is_file(p) && found++ == 0)
				snprintf(path, len, "%s", p);
		}
	}
	if (d)
		closedir(d);
	if (found == 1)
		return 0;
	return cmn_err_set(e, CMN_EINPUT,
	                   "%s: %s (give the archive NAME.tar.gz holding NAME.txt, or one index "
	                   ".txt at its top)",
	                   archive,
	                   found ? "holds several .txt files at its top" : "holds no index");
}

/* e's message with the temporary folder's name replaced by the archive's. */
static void name_archive(struct cmn_err *e, const char *dir, const char *archive)
{
	char *at = strstr(e->msg, dir);
	if (!at) {
		cmn_err_prefix(e, "%s", archive);
		return;
	}
	char msg[sizeof e->msg];
	snprintf(msg, sizeof msg, "%.*s%s:%s", (int)(at - e->msg), e->msg, archive,
	         at + strlen(dir) + (at[strlen(dir)] == '/'));
	snprintf(e->msg, sizeof e->msg, "%s", msg);
}

int trace_load_archive(const char *archive, const char *index, struct trace **out,
                       struct cmn_err *e)
{
	*out = NULL;
	if (!is_file(archive))
		return cmn_err_set(e, CMN_EINPUT, "%s: no such file", archive);
	char tmp[1024];
	const char *td = getenv("TMPDIR");
	if (!td || !*td || strlen(td) > sizeof tmp - 32)
		td = "/tmp";
	snprintf(tmp, sizeof tmp, "%s/trace-archive-XXXXXX", td);
	if (cmn_cleanup_mkdtemp(tmp)) /* a signal removes it with what is unpacked there */
		return cmn_err_set(e, CMN_EIO, "cannot create a temporary folder: %s",
		                   strerror(errno));
	struct trace_unpacked u = {0};
	char path[4096];
	struct trace *t = NULL;
	int rc = trace_untar_gz(archive, tmp, &u, e);
	if (!rc)
		rc = find_index(archive, tmp, index, path, sizeof path, e);
	if (!rc && (rc = trace_load_ex(path, TRACE_LOAD_CONFINED, &t, e)))
		name_archive(e, tmp, archive);
	/* an archive holds its whole trace: TRACE_LOAD_CONFINED refused every
	 * index entry outside the folder before reading it */
	if (!rc) /* in memory from here: the files go with the folder */
		for (int r = 0; r < t->nranks; r++) {
			free(t->files[r]);
			t->files[r] = NULL;
		}
	trace_unpacked_remove(&u);
	cmn_cleanup_remove(tmp);
	if (rc) {
		if (t)
			trace_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

int trace_load_any(const char *path, struct trace **out, struct cmn_err *e)
{
	return trace_is_archive(path) ? trace_load_archive(path, NULL, out, e)
	                              : trace_load(path, out, e);
}

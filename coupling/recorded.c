/* Recorded traces as job profiles (recorded.h). */
#define _XOPEN_SOURCE 700 /* nftw */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "recorded.h"

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

int cpl_recorded_has_kernel(const char *dir, const char *kernel, char cls)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	char prefix[80];
	snprintf(prefix, sizeof prefix, "%s.%c.", kernel, cls);
	int found = 0;
	for (struct dirent *en; !found && (en = readdir(d));)
		found = strncmp(en->d_name, prefix, strlen(prefix)) == 0 &&
		        (ends_with(en->d_name, ".txt") || ends_with(en->d_name, ".tar.gz"));
	closedir(d);
	return found;
}

static int is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* tar xzf archive -C dir; 0 when tar succeeded. */
static int untar(const char *archive, const char *dir, struct cmn_err *e)
{
	pid_t pid = fork();
	if (pid < 0)
		return cmn_err_set(e, CMN_EIO, "%s: cannot start tar: %s", archive,
		                   strerror(errno));
	if (pid == 0) {
		execlp("tar", "tar", "xzf", archive, "-C", dir, (char *)NULL);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return cmn_err_set(e, CMN_EIO, "%s: waiting for tar: %s", archive,
			                   strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return cmn_err_set(e, CMN_EINPUT,
		                   "%s: tar xzf failed (status %d; not a gzip'ed tar archive, or "
		                   "tar is missing)",
		                   archive, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}

int cpl_recorded_load(const char *dir, const char *kernel, char cls, int n, struct trace **out,
                      struct cmn_err *e)
{
	*out = NULL;
	char base[96], path[4096];
	snprintf(base, sizeof base, "%s.%c.%d", kernel, cls, n);
	snprintf(path, sizeof path, "%s/%s.txt", dir, base);
	char tmp[64] = "", archive[4096] = "";
	int rc = 0;
	if (!is_file(path)) {
		snprintf(archive, sizeof archive, "%s/%s.tar.gz", dir, base);
		if (!is_file(archive))
			return 0; /* none recorded */
		snprintf(tmp, sizeof tmp, "/tmp/cosim-recorded-XXXXXX");
		if (!mkdtemp(tmp))
			return cmn_err_set(e, CMN_EIO, "cannot create a temporary folder: %s",
			                   strerror(errno));
		rc = untar(archive, tmp, e);
		snprintf(path, sizeof path, "%s/%s.txt", tmp, base);
		if (!rc && !is_file(path))
			rc = cmn_err_set(e, CMN_EINPUT, "%s: holds no %s.txt", archive, base);
		if (rc)
			cmn_err_prefix(e, "recorded trace");
	}
	struct trace *t = NULL;
	if (!rc && trace_load(path, &t, e)) {
		rc = e->code;
		if (tmp[0]) /* the paths inside name the temporary folder */
			cmn_err_prefix(e, "%s", archive);
	}
	if (!rc && t->nranks != n)
		rc = cmn_err_set(e, CMN_EINPUT, "%s: %d ranks, but its name says %d", path,
		                 t->nranks, n);
	if (!rc) { /* read into memory: the engines write their own copies */
		for (int r = 0; r < t->nranks; r++) {
			free(t->files[r]);
			t->files[r] = NULL;
		}
	}
	if (tmp[0])
		nftw(tmp, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	if (rc) {
		if (t)
			trace_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

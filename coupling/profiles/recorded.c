/* Recorded traces as job profiles (recorded.h). */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/cleanup.h"
#include "recorded.h"
#include "untar.h"

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

int cpl_recorded_load(const char *dir, const char *kernel, char cls, int n, struct trace **out,
                      struct cmn_err *e)
{
	*out = NULL;
	char base[96], path[4096];
	snprintf(base, sizeof base, "%s.%c.%d", kernel, cls, n);
	snprintf(path, sizeof path, "%s/%s.txt", dir, base);
	char tmp[1024] = "", archive[4096] = "";
	struct cpl_unpacked u = {0};
	int rc = 0;
	if (!is_file(path)) {
		snprintf(archive, sizeof archive, "%s/%s.tar.gz", dir, base);
		if (!is_file(archive))
			return 0; /* none recorded */
		const char *td = getenv("TMPDIR");
		if (!td || !*td || strlen(td) > sizeof tmp - 32)
			td = "/tmp";
		snprintf(tmp, sizeof tmp, "%s/cosim-recorded-XXXXXX", td);
		if (!mkdtemp(tmp))
			return cmn_err_set(e, CMN_EIO, "cannot create a temporary folder: %s",
			                   strerror(errno));
		cmn_cleanup_add(tmp); /* a signal removes it with what is unpacked there */
		rc = cpl_untar_gz(archive, tmp, &u, e);
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
	if (tmp[0]) {
		cpl_unpacked_remove(&u);
		rmdir(tmp);
		cmn_cleanup_forget(tmp);
	}
	if (rc) {
		if (t)
			trace_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

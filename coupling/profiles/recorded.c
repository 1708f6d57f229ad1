/* Recorded traces as job profiles (recorded.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../apptraces/trace_archive.h"
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

/* 1 when path is a regular file, 0 when nothing is there, -1 when
 * something else is (a folder named like a trace: an error, not a silent
 * fallback to the generated trace). */
static int is_file(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return 0;
	return S_ISREG(st.st_mode) ? 1 : -1;
}

int cpl_recorded_load(const char *dir, const char *kernel, char cls, int n, struct trace **out,
                      struct cmn_err *e)
{
	*out = NULL;
	char base[96], path[4096], index[128];
	snprintf(base, sizeof base, "%s.%c.%d", kernel, cls, n);
	snprintf(path, sizeof path, "%s/%s.txt", dir, base);
	struct trace *t = NULL;
	int rc, kind = is_file(path);
	if (kind == 0) {
		snprintf(path, sizeof path, "%s/%s.tar.gz", dir, base);
		kind = is_file(path);
	}
	if (kind < 0)
		return cmn_err_set(e, CMN_EINPUT,
		                   "%s: not a file (a recorded trace is an index file or a "
		                   ".tar.gz archive)",
		                   path);
	if (ends_with(path, ".txt")) {
		rc = trace_load(path, &t, e);
	} else {
		if (!kind)
			return 0; /* none recorded */
		snprintf(index, sizeof index, "%s.txt", base);
		if ((rc = trace_load_archive(path, index, &t, e)))
			cmn_err_prefix(e, "recorded trace");
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
	if (rc) {
		if (t)
			trace_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

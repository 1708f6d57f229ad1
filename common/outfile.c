/* Atomic output files: write to PATH.tmp.XXXXXX, rename on commit. The
 * open temporaries are registered with cleanup.h, so that a run stopped by
 * SIGINT, SIGTERM or SIGHUP removes them. */
#include "outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"

/* The temporary's registration (a full table leaves it behind on a signal). */
static void track(const char *tmp)
{
	cmn_cleanup_add(tmp);
}

static void untrack(const char *tmp)
{
	cmn_cleanup_forget(tmp);
}

static void release(struct cmn_outfile *out)
{
	untrack(out->tmp);
	free(out->path);
	free(out->tmp);
	out->path = out->tmp = NULL;
	out->f = NULL;
}

int cmn_outfile_open(struct cmn_outfile *out, const char *path, struct cmn_err *e)
{
	memset(out, 0, sizeof *out);
	size_t len = strlen(path);
	out->path = malloc(len + 1);
	out->tmp = malloc(len + 16);
	if (!out->path || !out->tmp) { /* nothing registered yet */
		free(out->path);
		free(out->tmp);
		memset(out, 0, sizeof *out);
		return cmn_err_set(e, CMN_ENOMEM, "%s: out of memory", path);
	}
	memcpy(out->path, path, len + 1);
	snprintf(out->tmp, len + 16, "%s.tmp.XXXXXX", path);
	int fd = mkstemp(out->tmp);
	if (fd < 0) {
		int err = errno;
		release(out);
		return cmn_err_set(e, CMN_EIO, "%s: cannot create: %s", path, strerror(err));
	}
	track(out->tmp);
	/* mkstemp makes 0600 files; outputs are ordinary files. */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	out->f = fdopen(fd, "w");
	if (!out->f) {
		close(fd);
		unlink(out->tmp);
		release(out);
		return cmn_err_set(e, CMN_EIO, "%s: cannot open: %s", path, strerror(errno));
	}
	return 0;
}

int cmn_outfile_reserve(struct cmn_outfile *out, const char *path, struct cmn_err *e)
{
	int rc = cmn_outfile_open(out, path, e);
	if (rc)
		return rc;
	if (fclose(out->f) != 0) {
		unlink(out->tmp);
		release(out);
		return cmn_err_set(e, CMN_EIO, "%s: cannot create", path);
	}
	out->f = NULL;
	return 0;
}

int cmn_outfile_commit(struct cmn_outfile *out, struct cmn_err *e)
{
	if (!out->tmp)
		return 0;
	int bad = 0;
	if (out->f) {
		bad = ferror(out->f);
		if (fclose(out->f) != 0)
			bad = 1;
		out->f = NULL;
	}
	untrack(out->tmp); /* from here the name is the target's, or gone */
	if (bad || rename(out->tmp, out->path) != 0) {
		int err = errno;
		unlink(out->tmp);
		cmn_err_set(e, CMN_EIO, "%s: cannot write: %s", out->path, strerror(err));
		release(out);
		return CMN_EIO;
	}
	release(out);
	return 0;
}

void cmn_outfile_abort(struct cmn_outfile *out)
{
	untrack(out->tmp);
	if (out->f)
		fclose(out->f);
	if (out->tmp)
		unlink(out->tmp);
	release(out);
}

/* Atomic output files: write to PATH.tmp.XXXXXX, rename on commit.
 *
 * A run stopped by SIGINT, SIGTERM or SIGHUP would leave its temporaries
 * behind: the open ones are listed here, and a handler (installed with the
 * first, unless the signal is ignored) removes this process's before the
 * signal takes its default course. Signals reach a handler only through
 * file-scope state: this list is the project's second mutable file-scope
 * variable (after netsim/sg_engine.c's), written only outside the handler
 * and read by it (a slot is filled before it counts, cleared before its
 * name is freed). Each entry records its process: a forked child that is
 * killed leaves its parent's files alone. SimGrid installs its own SIGINT
 * handler when an engine starts; SIGTERM and SIGHUP still clean up then. */
#include "outfile.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CMN_OUTFILE_TRACKED 64

static struct {
	char *volatile tmp[CMN_OUTFILE_TRACKED];
	volatile pid_t pid[CMN_OUTFILE_TRACKED];
	volatile sig_atomic_t installed;
} pending;

static void on_signal(int sig)
{
	pid_t me = getpid();
	for (int i = 0; i < CMN_OUTFILE_TRACKED; i++) {
		char *t = pending.tmp[i];
		if (t && pending.pid[i] == me)
			unlink(t);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void install(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	pending.installed = 1;
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
		struct sigaction old, sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
			sigaction(sigs[i], &sa, NULL);
	}
}

static void track(char *tmp)
{
	if (!pending.installed)
		install();
	for (int i = 0; i < CMN_OUTFILE_TRACKED; i++)
		if (!pending.tmp[i]) {
			pending.pid[i] = getpid();
			pending.tmp[i] = tmp;
			return;
		}
	/* more than 64 open at once: this one is not cleaned up on a signal */
}

static void untrack(const char *tmp)
{
	for (int i = 0; tmp && i < CMN_OUTFILE_TRACKED; i++)
		if (pending.tmp[i] == tmp)
			pending.tmp[i] = NULL;
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
	if (!out->path || !out->tmp) {
		release(out);
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

/* Outputs that never appear half-written, and that never replace what is
 * not a regular file. By what the target is (symbolic links followed):
 *  - a regular file, or nothing yet: data goes to a temporary file beside
 *    the target, renamed onto it only on commit (atomic). The target is
 *    the end of the link chain: a symbolic link is kept and the file it
 *    points to replaced; a dangling link's target is created (as a shell's
 *    '>' does), in its folder. A replaced file keeps its permission bits;
 *    an existing file this user may not write is an error, not replaced.
 *  - a FIFO, a character device (/dev/null, a terminal) or a socket, and
 *    the names of open descriptors (/dev/stdout, /dev/stderr, /dev/fd/N,
 *    /proc/self/fd/N, written through a copy of that descriptor, at its
 *    offset): written directly, never replaced. The target is opened at
 *    once (a FIFO waits there for its reader); the data goes to a
 *    temporary file under TMPDIR (or /tmp) and is copied to the target on
 *    commit, so nothing reaches it from a run that fails before. A failure
 *    during the copy (a reader gone: "Broken pipe", a full device) leaves
 *    what was copied so far: no guarantee is possible there. SIGPIPE is
 *    held during the copy, so a closed pipe is an error, not a signal.
 *  - a directory, a block device or anything else: an error naming the
 *    path, nothing written.
 * Temporaries are registered with cleanup.h (a signal removes them). One
 * beside its target is named TARGET.tmp.PID.HOST.XXXXXX: a run killed by a
 * signal no program can catch (SIGKILL, the OOM killer) leaves it, and the
 * next output to that target removes those of this host whose process is
 * gone. */
#ifndef CMN_OUTFILE_H
#define CMN_OUTFILE_H

#include <stdio.h>

#include "err.h"

struct cmn_outfile {
	FILE *f;
	char *path; /* the name given (messages) */
	char *dest; /* the file renamed onto (NULL: a direct target) */
	char *tmp;  /* the temporary (NULL: nothing open) */
	int direct; /* 1: fd is the target, written on commit */
	int fd;
};

/* Opens a temporary file for path; out->f is where to write. */
int cmn_outfile_open(struct cmn_outfile *out, const char *path, struct cmn_err *e);

/* For many outputs into one folder: cmn_outfile_sweep(folder) once
 * removes the stale temporaries of every target there, and
 * cmn_outfile_open_swept opens each output without looking for its own
 * (a look reads the whole folder: writing n files took O(n^2), 32,768
 * rank files of a trace 190 s). */
void cmn_outfile_sweep(const char *dir);
int cmn_outfile_open_swept(struct cmn_outfile *out, const char *path, struct cmn_err *e);

/* Like open, for a file another program writes: creates the temporary
 * (out->tmp), closes it (out->f stays NULL); commit puts it in place. */
int cmn_outfile_reserve(struct cmn_outfile *out, const char *path, struct cmn_err *e);

/* Closes and renames into place (or copies to a direct target); on a write
 * error removes the temporary. A zeroed or committed out is a no-op. */
int cmn_outfile_commit(struct cmn_outfile *out, struct cmn_err *e);

/* Closes and removes the temporary, writing nothing to the target (no-op on
 * a zeroed or committed one). */
void cmn_outfile_abort(struct cmn_outfile *out);

/* Puts the finished file src in place at path by the rules above (its
 * content copied through an outfile; src is left as it is). */
int cmn_outfile_install(const char *src, const char *path, struct cmn_err *e);

/* Whether path names what this process's standard output is (/dev/stdout,
 * /dev/fd/1, or the file or pipe it was redirected to): a tool then
 * leaves its table off stdout so that the file's data is all there is. */
int cmn_outfile_is_stdout(const char *path);

/* Why a stream in error (ferror) failed: the errno of writing out what it
 * still buffers (a full disk: ENOSPC, a size limit: EFBIG), else EIO. */
int cmn_outfile_stream_error(FILE *f);

/* Each tool calls this first: a write past a file size limit (ulimit -f)
 * fails with EFBIG, an error the tool reports (its temporaries removed),
 * instead of SIGXFSZ killing it with half-written temporaries left. */
void cmn_outfile_size_limit_errors(void);

/* Each tool's atexit handler calls this with its name: standard output
 * is flushed and, when a write to it failed (a full disk, a pipe closed
 * while SIGPIPE is ignored), the tool says so on stderr ("jobsched:
 * standard output: cannot write: No space left on device") and exits with
 * status 1 instead of the one it was returning: what it printed there is
 * incomplete. */
void cmn_outfile_stdout_check(const char *prog);

/* Whether a and b name one file that an output to either would replace:
 * the same existing regular file (by device and inode, whatever the
 * names and links), or, when neither exists yet, the same path once
 * links and the folder's name are resolved. Devices and FIFOs are never
 * "the same" (two outputs may both go to /dev/null). */
int cmn_outfile_same(const char *a, const char *b);

/* A file a tool names: its path (NULL: none) and what names it in
 * messages ("--jobs-out", "the --platform file", "job 2's trace"). */
struct cmn_path {
	const char *what, *path;
};
/* The tools' one rule for their files, checked before anything runs: an
 * output that is one of the inputs (cmn_outfile_same) is refused ("OUT
 * PATH is IN: an output never replaces an input"), and so are two outputs
 * into one file ("A and B name the same file (PATH): one would be
 * lost"); CMN_EUSAGE in e, or 0. */
int cmn_outfile_check_paths(const struct cmn_path *out, int nout, const struct cmn_path *in,
                            int nin, struct cmn_err *e);

#endif

/* Output files (outfile.h): regular targets through PATH.tmp.XXXXXX renamed
 * on commit, direct targets (FIFOs, devices, sockets, open descriptors)
 * through a temporary under TMPDIR copied on commit. The temporaries are
 * registered with cleanup.h, so that a run stopped by SIGINT, SIGTERM or
 * SIGHUP removes them. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"

#define MAX_LINKS 40 /* as the kernel's ELOOP */

static void release(struct cmn_outfile *out)
{
	if (out->tmp)
		cmn_cleanup_forget(out->tmp);
	if (out->direct && out->fd >= 0)
		close(out->fd);
	free(out->path);
	free(out->dest);
	free(out->tmp);
	memset(out, 0, sizeof *out);
}

static char *concat(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b);
	char *s = malloc(alen + blen + 1);
	if (s) {
		memcpy(s, a, alen);
		memcpy(s + alen, b, blen + 1);
	}
	return s;
}

/* Where a chain of symbolic links starting at path ends (path itself when
 * it is no link; a dangling link's target); NULL with errno set. */
static char *final_path(const char *path)
{
	char *p = strdup(path);
	for (int hops = 0; p; hops++) {
		struct stat st;
		if (lstat(p, &st) != 0 || !S_ISLNK(st.st_mode))
			return p;
		char *to = NULL;
		ssize_t n = -1;
		for (size_t cap = 256; cap <= 65536; cap *= 4) {
			char *b = realloc(to, cap);
			if (!b)
				break;
			to = b;
			n = readlink(p, to, cap);
			if (n < 0 || (size_t)n < cap)
				break;
		}
		if (hops == MAX_LINKS || !to || n < 0 || to[0] == '\0') {
			int err = hops == MAX_LINKS ? ELOOP : n < 0 && to ? errno : ENOMEM;
			free(to), free(p);
			errno = err;
			return NULL;
		}
		to[n] = '\0';
		const char *slash = strrchr(p, '/');
		char *q =
		    to[0] == '/' || !slash ? strdup(to) : concat(p, (size_t)(slash - p) + 1, to);
		free(to);
		free(p);
		p = q;
	}
	errno = ENOMEM;
	return NULL;
}

/* The descriptor a path names (/dev/stdout, /dev/stderr, /dev/fd/N,
 * /proc/self/fd/N), or -1. */
static int named_fd(const char *path)
{
	if (strcmp(path, "/dev/stdout") == 0)
		return 1;
	if (strcmp(path, "/dev/stderr") == 0)
		return 2;
	const char *n = strncmp(path, "/dev/fd/", 8) == 0          ? path + 8
	                : strncmp(path, "/proc/self/fd/", 14) == 0 ? path + 14
	                                                           : NULL;
	if (!n || !*n || strlen(n) > 6)
		return -1;
	for (const char *c = n; *c; c++)
		if (*c < '0' || *c > '9')
			return -1;
	return atoi(n);
}

/* A Unix socket's path, connected for writing. */
static int connect_unix(const char *path)
{
	struct sockaddr_un a;
	memset(&a, 0, sizeof a);
	a.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof a.sun_path) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(a.sun_path, path, strlen(path) + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd >= 0 && connect(fd, (const struct sockaddr *)&a, sizeof a) != 0) {
		int err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

/* The direct target of path (its descriptor into out->fd), 0 when path is
 * a regular file or nothing (out->dest set), or an error. */
static int classify(struct cmn_outfile *out, const char *path, struct cmn_err *e)
{
	struct stat st;
	int n = named_fd(path), fd = -1;
	if (!*path)
		return cmn_err_set(e, CMN_EIO, "an output with an empty file name");
	if (n >= 0) {
		int fl = fcntl(n, F_GETFL);
		if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY)
			return cmn_err_set(e, CMN_EIO,
			                   "%s: cannot write: descriptor %d is not open for "
			                   "writing",
			                   path, n);
		if ((fd = fcntl(n, F_DUPFD_CLOEXEC, 3)) < 0)
			return cmn_err_set(e, CMN_EIO, "%s: cannot write: %s", path,
			                   strerror(errno));
	} else if (stat(path, &st) != 0) {
		if (errno != ENOENT)
			return cmn_err_set(e, CMN_EIO, "%s: cannot write: %s", path,
			                   strerror(errno));
	} else if (S_ISDIR(st.st_mode)) {
		return cmn_err_set(e, CMN_EIO, "%s: cannot write: is a directory", path);
	} else if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
		if ((fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)) < 0)
			return cmn_err_set(e, CMN_EIO, "%s: cannot write: %s", path,
			                   strerror(errno));
	} else if (S_ISSOCK(st.st_mode)) {
		if ((fd = connect_unix(path)) < 0)
			return cmn_err_set(e, CMN_EIO, "%s: cannot write to the socket: %s", path,
			                   strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		return cmn_err_set(
		    e, CMN_EIO,
		    "%s: cannot write: a block device or special file, not a regular "
		    "file, FIFO, character device or socket",
		    path);
	} else if (access(path, W_OK) != 0) {
		return cmn_err_set(e, CMN_EIO, "%s: cannot write: %s", path, strerror(errno));
	}
	if (fd >= 0) {
		out->direct = 1;
		out->fd = fd;
		return 0;
	}
	if (!(out->dest = final_path(path)))
		return cmn_err_set(e, CMN_EIO, "%s: cannot write: %s", path, strerror(errno));
	return 0;
}

/* The folder of path (malloc'ed: "." when it has none, "/" at the root),
 * and its last name into *base; NULL out of memory. */
static char *folder_of(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');
	*base = slash ? slash + 1 : path;
	return slash ? strndup(path, (size_t)(slash - path + (slash == path))) : strdup(".");
}

/* This host's name with '.' and '/' as '_' (a part of temporaries' names). */
static void host_part(char *h, size_t n)
{
	if (gethostname(h, n - 1) != 0)
		snprintf(h, n, "host");
	h[n - 1] = '\0';
	for (char *c = h; *c; c++)
		if (*c == '.' || *c == '/')
			*c = '_';
}

/* Whether s, the part of a name after "BASE.tmp.", is PID.HOST.XXXXXX of
 * this host with a process that is gone (not this one). */
static int gone_after_tmp(const char *s, const char *host, size_t hl)
{
	char *end;
	long pid = strtol(s, &end, 10);
	return end != s && *end == '.' && strncmp(end + 1, host, hl) == 0 && end[1 + hl] == '.' &&
	       strlen(end + 2 + hl) == 6 && pid > 0 && pid != (long)getpid() &&
	       kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Removes from folder dir the temporaries of this host (host_part's
 * name) whose process is gone: those of the target named base (blen
 * bytes), or of any target when base is NULL. */
static void sweep(const char *dir, const char *base, size_t blen, const char *host)
{
	size_t hl = strlen(host);
	DIR *d = opendir(dir);
	for (const struct dirent *de; d && (de = readdir(d)) != NULL;) {
		const char *n = de->d_name, *t = NULL;
		if (base) {
			if (strncmp(n, base, blen) == 0 && strncmp(n + blen, ".tmp.", 5) == 0 &&
			    gone_after_tmp(n + blen + 5, host, hl))
				t = n + blen;
		} else {
			for (t = strstr(n, ".tmp.");
			     t && (t == n || !gone_after_tmp(t + 5, host, hl));
			     t = strstr(t + 1, ".tmp."))
				;
		}
		if (!t)
			continue;
		char *stale = malloc(strlen(dir) + strlen(n) + 2);
		if (stale) {
			sprintf(stale, "%s/%s", dir, n);
			unlink(stale);
			free(stale);
		}
	}
	if (d)
		closedir(d);
}

void cmn_outfile_sweep(const char *dir)
{
	char host[128];
	host_part(host, sizeof host);
	sweep(dir, NULL, 0, host);
}

/* A temporary beside dest: DEST.tmp.PID.HOST.XXXXXX. With swept unset,
 * those of this host whose process is gone (killed by SIGKILL or the
 * kernel's OOM killer, the signals a program cannot catch) are removed
 * first, so they do not pile up beside the output; another host's (a
 * shared file system) are left. */
static char *temp_beside(const char *dest, int swept)
{
	char host[128], tail[200];
	host_part(host, sizeof host);
	snprintf(tail, sizeof tail, ".tmp.%ld.%s.XXXXXX", (long)getpid(), host);
	const char *base;
	char *dir = folder_of(dest, &base);
	/* a target's name near the folder's longest (NAME_MAX) keeps only what
	 * fits of it in its temporary's */
	size_t blen = strlen(base), tl = strlen(tail);
	long max = dir ? pathconf(dir, _PC_NAME_MAX) : -1;
	if (max > 0 && blen + tl > (size_t)max)
		blen = (size_t)max > tl + 1 ? (size_t)max - tl : 1;
	if (dir && !swept)
		sweep(dir, base, blen, host);
	free(dir);
	size_t keep = (size_t)(base - dest) + blen;
	char *t = malloc(keep + tl + 1);
	if (t)
		sprintf(t, "%.*s%s", (int)keep, dest, tail);
	return t;
}

/* cmn_outfile_open, the folder's stale temporaries removed first unless
 * swept. */
static int open_out(struct cmn_outfile *out, const char *path, int swept, struct cmn_err *e)
{
	memset(out, 0, sizeof *out);
	out->fd = -1;
	if (!(out->path = strdup(path)))
		return cmn_err_set(e, CMN_ENOMEM, "%s: out of memory", path);
	int rc = classify(out, path, e);
	if (rc) {
		release(out);
		return rc;
	}
	/* beside the file renamed onto, or under TMPDIR for a direct target */
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	out->tmp = out->dest ? temp_beside(out->dest, swept)
	                     : concat(dir, strlen(dir), "/placesim-out-XXXXXX");
	if (!out->tmp) {
		release(out);
		return cmn_err_set(e, CMN_ENOMEM, "%s: out of memory", path);
	}
	int fd = cmn_cleanup_mkstemp(out->tmp); /* made and registered with no signal between */
	if (fd < 0) {
		int err = errno;
		free(out->tmp);
		out->tmp = NULL;
		release(out);
		return cmn_err_set(e, CMN_EIO, "%s: cannot create: %s", path, strerror(err));
	}
	/* mkstemp makes 0600 files; outputs are ordinary files, a replaced
	 * one keeps its permission bits */
	struct stat st;
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, out->dest && stat(out->dest, &st) == 0 ? st.st_mode & 07777 : 0666 & ~mask);
	out->f = fdopen(fd, "w");
	if (!out->f) {
		int err = errno;
		close(fd);
		unlink(out->tmp);
		release(out);
		return cmn_err_set(e, CMN_EIO, "%s: cannot open: %s", path, strerror(err));
	}
	return 0;
}

int cmn_outfile_open(struct cmn_outfile *out, const char *path, struct cmn_err *e)
{
	return open_out(out, path, 0, e);
}

int cmn_outfile_open_swept(struct cmn_outfile *out, const char *path, struct cmn_err *e)
{
	return open_out(out, path, 1, e);
}

int cmn_outfile_reserve(struct cmn_outfile *out, const char *path, struct cmn_err *e)
{
	int rc = cmn_outfile_open(out, path, e);
	if (rc)
		return rc;
	if (fclose(out->f) != 0) {
		out->f = NULL;
		unlink(out->tmp);
		release(out);
		return cmn_err_set(e, CMN_EIO, "%s: cannot create", path);
	}
	out->f = NULL;
	return 0;
}

/* Copies the file at src to descriptor to, SIGPIPE held (a reader gone is
 * EPIPE); 0 or an errno. */
static int copy_to(const char *src, int to)
{
	int from = open(src, O_RDONLY | O_CLOEXEC);
	if (from < 0)
		return errno;
	sigset_t pipe, old;
	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	sigset_t pending;
	sigpending(&pending);
	int was_pending = sigismember(&pending, SIGPIPE) == 1;
	pthread_sigmask(SIG_BLOCK, &pipe, &old);
	char buf[1 << 16];
	int err = 0;
	for (ssize_t n; !err && (n = read(from, buf, sizeof buf)) != 0;) {
		if (n < 0) {
			err = errno == EINTR ? 0 : errno;
			continue;
		}
		for (ssize_t off = 0, w = 0; !err && off<n; off += w> 0 ? w : 0)
			if ((w = write(to, buf + off, (size_t)(n - off))) < 0)
				err = errno == EINTR ? 0 : errno;
	}
	if (err == EPIPE && !was_pending) { /* the signal our write raised: taken */
		struct timespec zero = {0, 0};
		sigtimedwait(&pipe, NULL, &zero);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	close(from);
	return err;
}

int cmn_outfile_commit(struct cmn_outfile *out, struct cmn_err *e)
{
	if (!out->tmp)
		return 0;
	int err = 0;
	if (out->f) {
		if (ferror(out->f))
			err = cmn_outfile_stream_error(out->f);
		if (fclose(out->f) != 0 && !err)
			err = errno ? errno : EIO;
		out->f = NULL;
	}
	if (!err && out->direct) { /* what was printed before comes first */
		fflush(stdout);
		fflush(stderr);
		err = copy_to(out->tmp, out->fd);
		if (!err && close(out->fd) != 0)
			err = errno;
		out->fd = -1;
		unlink(out->tmp);
	} else if (!err) {
		cmn_cleanup_forget(out->tmp); /* from here the name is the target's */
		if (rename(out->tmp, out->dest) != 0)
			err = errno;
	}
	if (err) {
		unlink(out->tmp);
		cmn_err_set(e, CMN_EIO, "%s: cannot write: %s", out->path, strerror(err));
	}
	release(out);
	return err ? CMN_EIO : 0;
}

void cmn_outfile_abort(struct cmn_outfile *out)
{
	if (out->f)
		fclose(out->f);
	if (out->tmp)
		unlink(out->tmp);
	release(out);
}

int cmn_outfile_install(const char *src, const char *path, struct cmn_err *e)
{
	struct cmn_outfile o;
	int rc = cmn_outfile_open(&o, path, e);
	if (rc)
		return rc;
	FILE *in = fopen(src, "rb");
	char buf[1 << 16];
	size_t n;
	while (in && (n = fread(buf, 1, sizeof buf, in)) > 0)
		fwrite(buf, 1, n, o.f);
	if (!in || ferror(in)) {
		if (in)
			fclose(in);
		cmn_outfile_abort(&o);
		return cmn_err_set(e, CMN_EIO, "%s: cannot read", src);
	}
	fclose(in);
	return cmn_outfile_commit(&o, e);
}

int cmn_outfile_is_stdout(const char *path)
{
	struct stat a, b;
	return path && stat(path, &a) == 0 && fstat(1, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/* A path that does not exist yet as its folder's real path and its name
 * (links followed to their end), or NULL. */
static char *canonical_new(const char *path)
{
	char *f = final_path(path);
	if (!f)
		return NULL;
	const char *base;
	char *dir = folder_of(f, &base);
	char *real = dir ? realpath(dir, NULL) : NULL, *out = NULL;
	if (real) {
		size_t n = strlen(real);
		out = malloc(n + strlen(base) + 2);
		if (out)
			sprintf(out, "%s/%s", real, base);
	}
	free(real);
	free(dir);
	free(f);
	return out;
}

int cmn_outfile_same(const char *a, const char *b)
{
	struct stat sa, sb;
	if (!a || !b)
		return 0;
	int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
	if (ea && eb)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino && S_ISREG(sa.st_mode);
	if (ea || eb)
		return 0;
	char *ca = canonical_new(a), *cb = canonical_new(b);
	int same = ca && cb && strcmp(ca, cb) == 0;
	free(ca);
	free(cb);
	return same;
}

int cmn_outfile_check_paths(const struct cmn_path *out, int nout, const struct cmn_path *in,
                            int nin, struct cmn_err *e)
{
	for (int k = 0; k < nout; k++) {
		if (!out[k].path)
			continue;
		for (int i = 0; i < nin; i++)
			if (in[i].path && cmn_outfile_same(out[k].path, in[i].path))
				return cmn_err_set(e, CMN_EUSAGE,
				                   "%s %s is %s: an output never replaces an input",
				                   out[k].what, out[k].path, in[i].what);
		for (int j = 0; j < k; j++)
			if (out[j].path && cmn_outfile_same(out[k].path, out[j].path))
				return cmn_err_set(
				    e, CMN_EUSAGE,
				    "%s and %s name the same file (%s): one would be lost",
				    out[j].what, out[k].what, out[k].path);
	}
	return 0;
}

int cmn_outfile_stream_error(FILE *f)
{
	/* what failed is usually still buffered: writing it again says why */
	clearerr(f);
	errno = 0;
	int err = fflush(f) != 0 ? errno : 0;
	clearerr(f);
	return err ? err : EIO;
}

void cmn_outfile_size_limit_errors(void)
{
	signal(SIGXFSZ, SIG_IGN);
}

void cmn_outfile_stdout_check(const char *prog)
{
	errno = 0;
	int failed = fflush(stdout) != 0, err = errno;
	if (!failed && !ferror(stdout))
		return;
	fprintf(stderr, "%s: standard output: cannot write%s%s\n", prog, err ? ": " : "",
	        err ? strerror(err) : "");
	_exit(1);
}

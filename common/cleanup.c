/* Removal on a signal (cleanup.h). Signals reach a handler only through
 * file-scope state: this registry is the project's second mutable
 * file-scope variable (after netsim/simgrid/sg_engine.c's), written only outside
 * the handler and read by it: a slot's owner is set before its path counts,
 * and a path is cleared before it is freed. The handler uses only
 * async-signal-safe calls (kill, waitpid, unlink, rmdir, signal, raise,
 * open, openat, close, unlinkat, and the getdents64 system call for what
 * is in a folder registered with its contents). */
#define _DEFAULT_SOURCE /* syscall(2) */
#include "cleanup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define CMN_CLEANUP_PATHS    512
#define CMN_CLEANUP_CHILDREN 64
#define CMN_CLEANUP_DEPTH    16 /* rmdir passes: nested registered folders */

static struct {
	char *volatile path[CMN_CLEANUP_PATHS];
	volatile pid_t owner[CMN_CLEANUP_PATHS];
	volatile sig_atomic_t with_files[CMN_CLEANUP_PATHS]; /* a folder's files go too */
	volatile pid_t child[CMN_CLEANUP_CHILDREN];
	volatile pid_t parent[CMN_CLEANUP_CHILDREN];
	volatile sig_atomic_t installed;
} reg;

/* Removes what is in the folder open as fd: its files, and its folders
 * with what is in them down to `depth` levels more, reading the entries
 * with the system call itself (opendir is not safe here). */
static void unlink_in(int fd, int depth)
{
	char buf[2048];
	for (;;) {
		long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
		if (n <= 0)
			break;
		for (long at = 0; at < n;) {
			/* struct linux_dirent64: inode, offset, record length, type, name */
			unsigned short len;
			memcpy(&len, buf + at + 16, sizeof len);
			unsigned char type = (unsigned char)buf[at + 18];
			const char *name = buf + at + 19;
			at += len;
			if (name[0] == '.' &&
			    (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
				continue;
			if (type != DT_DIR && unlinkat(fd, name, 0) == 0)
				continue;
			int sub =
			    depth > 0 ? openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW) : -1;
			if (sub >= 0) {
				unlink_in(sub, depth - 1);
				close(sub);
			}
			unlinkat(fd, name, AT_REMOVEDIR);
		}
	}
}

static void unlink_files(const char *p)
{
	int fd = open(p, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return;
	unlink_in(fd, CMN_CLEANUP_DEPTH);
	close(fd);
}

static void on_signal(int sig)
{
	pid_t me = getpid();
	for (int i = 0; i < CMN_CLEANUP_CHILDREN; i++)
		if (reg.child[i] > 0 && reg.parent[i] == me)
			kill(reg.child[i], SIGTERM);
	for (int i = 0; i < CMN_CLEANUP_CHILDREN; i++)
		if (reg.child[i] > 0 && reg.parent[i] == me)
			waitpid(reg.child[i], NULL, 0);
	for (int i = 0; i < CMN_CLEANUP_PATHS; i++) { /* files (a folder stays) */
		char *p = reg.path[i];
		if (p && reg.owner[i] == me) {
			if (reg.with_files[i])
				unlink_files(p);
			else
				unlink(p);
		}
	}
	for (int pass = 0; pass < CMN_CLEANUP_DEPTH; pass++) /* then folders, inner first */
		for (int i = 0; i < CMN_CLEANUP_PATHS; i++) {
			char *p = reg.path[i];
			if (p && reg.owner[i] == me)
				rmdir(p);
		}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Our handler for sig, over the default one only unless forced (never
 * over an ignored signal). */
static void take(int sig, int force)
{
	struct sigaction old, sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, NULL, &old) == 0 && old.sa_handler != SIG_IGN &&
	    (force || old.sa_handler == SIG_DFL))
		sigaction(sig, &sa, NULL);
}

/* The signals the handler takes: abort()'s (SimGrid's xbt_die on a file
 * it cannot take), and those whose default ends the process, among them a
 * CPU time limit (ulimit -t, batch systems), Ctrl-\ and a batch system's
 * warnings. */
static const int handled[] = {SIGINT,  SIGTERM, SIGHUP,  SIGABRT, SIGXCPU,
                              SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM};

static void install(void)
{
	reg.installed = 1;
	for (size_t i = 0; i < sizeof handled / sizeof *handled; i++)
		take(handled[i], 0);
}

void cmn_cleanup_take_sigint(void)
{
	if (!reg.installed)
		install();
	take(SIGINT, 1);
}

static int add(const char *path, int with_files)
{
	if (!reg.installed)
		install();
	for (int i = 0; i < CMN_CLEANUP_PATHS; i++)
		if (!reg.path[i]) {
			size_t n = strlen(path) + 1;
			char *copy = malloc(n);
			if (!copy)
				return -1;
			memcpy(copy, path, n);
			reg.owner[i] = getpid();
			reg.with_files[i] = with_files;
			reg.path[i] = copy;
			return 0;
		}
	return -1;
}

int cmn_cleanup_add(const char *path)
{
	return add(path, 0);
}

int cmn_cleanup_add_folder(const char *path)
{
	return add(path, 1);
}

void cmn_cleanup_forget(const char *path)
{
	pid_t me = getpid();
	for (int i = 0; path && i < CMN_CLEANUP_PATHS; i++) {
		char *p = reg.path[i];
		if (p && reg.owner[i] == me && strcmp(p, path) == 0) {
			reg.path[i] = NULL;
			free(p);
		}
	}
}

/* Registers a child process to stop first: 0, or -1 when 64 are. */
static int add_child(pid_t pid)
{
	if (!reg.installed)
		install();
	for (int i = 0; i < CMN_CLEANUP_CHILDREN; i++)
		if (reg.child[i] <= 0 || reg.parent[i] != getpid()) {
			reg.child[i] = 0;
			reg.parent[i] = getpid();
			reg.child[i] = pid;
			return 0;
		}
	return -1;
}

void cmn_cleanup_hold(sigset_t *old)
{
	if (!reg.installed) /* before the signals come: they find the handler */
		install();
	sigset_t block;
	sigemptyset(&block);
	for (size_t i = 0; i < sizeof handled / sizeof *handled; i++)
		sigaddset(&block, handled[i]);
	pthread_sigmask(SIG_BLOCK, &block, old);
}

void cmn_cleanup_release(const sigset_t *old)
{
	int err = errno;
	pthread_sigmask(SIG_SETMASK, old, NULL);
	errno = err;
}

pid_t cmn_cleanup_fork(void)
{
	sigset_t old;
	cmn_cleanup_hold(&old);
	pid_t pid = fork();
	if (pid > 0)
		add_child(pid);
	cmn_cleanup_release(&old); /* the child: its signals as the caller's */
	return pid;
}

int cmn_cleanup_mkstemp(char *tmpl)
{
	sigset_t old;
	cmn_cleanup_hold(&old);
	int fd = mkstemp(tmpl);
	if (fd >= 0)
		cmn_cleanup_add(tmpl);
	cmn_cleanup_release(&old);
	return fd;
}

int cmn_cleanup_mkdtemp(char *tmpl)
{
	sigset_t old;
	cmn_cleanup_hold(&old);
	int rc = mkdtemp(tmpl) ? 0 : -1;
	if (!rc)
		cmn_cleanup_add_folder(tmpl);
	cmn_cleanup_release(&old);
	return rc;
}

int cmn_cleanup_thread(pthread_t *t, void *(*fn)(void *), void *arg)
{
	sigset_t old;
	cmn_cleanup_hold(&old); /* the new thread starts with the signals blocked */
	int rc = pthread_create(t, NULL, fn, arg);
	cmn_cleanup_release(&old);
	return rc;
}

void cmn_cleanup_child_gone(pid_t pid)
{
	for (int i = 0; i < CMN_CLEANUP_CHILDREN; i++)
		if (reg.child[i] == pid && reg.parent[i] == getpid())
			reg.child[i] = 0;
}

void cmn_cleanup_remove(const char *path)
{
	remove(path);
	cmn_cleanup_forget(path);
}

const char *cmn_tmp_dir(void)
{
	const char *dir = getenv("TMPDIR");
	return dir && dir[0] == '/' ? dir : "/tmp";
}

void cmn_tmp_name(char *buf, size_t len, const char *prefix)
{
	if ((size_t)snprintf(buf, len, "%s/%s-XXXXXX", cmn_tmp_dir(), prefix) >= len)
		snprintf(buf, len, "/tmp/%s-XXXXXX", prefix);
}

int cmn_tmp_file(char *buf, size_t len, const char *prefix)
{
	cmn_tmp_name(buf, len, prefix);
	int fd = cmn_cleanup_mkstemp(buf); /* a signal removes it */
	if (fd < 0) {
		buf[0] = '\0';
		return -1;
	}
	close(fd);
	return 0;
}

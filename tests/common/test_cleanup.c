/* Removal on a signal (common/cleanup.h): a process stopped by SIGTERM
 * stops and waits for its registered children (which remove their own
 * registrations), removes its registered files, then its registered
 * folders inside out, and dies of the signal; what it forgot stays. A
 * signal as a child is forked, or as a file is made and registered, waits
 * until the registration (cmn_cleanup_fork, cmn_cleanup_hold). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../helpers.h"
#include "cleanup.h"

static int exists(const char *dir, const char *name)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return access(p, F_OK) == 0;
}

static void touch(const char *dir, const char *name)
{
	char p[1100];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	if (f)
		fclose(f);
}

/* The stopped process: registers dir/sub (a folder), dir/sub/f and dir/g,
 * dir/many with its 2,000 files (one registration: more than the
 * registry's 512 slots), then dir/keep which it forgets, and a child that registers dir/gc and
 * waits; tells the test its child's pid and waits for the signal. */
static void victim(const char *dir, int ready)
{
	char p[512];
	snprintf(p, sizeof p, "%s/sub", dir);
	mkdir(p, 0777);
	cmn_cleanup_add(p);
	touch(dir, "sub/f");
	snprintf(p, sizeof p, "%s/sub/f", dir);
	cmn_cleanup_add(p);
	touch(dir, "g");
	snprintf(p, sizeof p, "%s/g", dir);
	cmn_cleanup_add(p);
	snprintf(p, sizeof p, "%s/many", dir); /* a folder of 2,000 files, one registration */
	mkdir(p, 0777);
	if (cmn_cleanup_add_folder(p))
		_exit(2);
	for (int i = 0; i < 2000; i++) {
		char name[32];
		snprintf(name, sizeof name, "many/rank-%d.txt", i);
		touch(dir, name);
	}
	/* and subfolders in it, with files, three levels down */
	const char *const deep[] = {"many/t0.txt_files", "many/t0.txt_files/a",
	                            "many/t0.txt_files/a/b"};
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, deep[i]);
		mkdir(p, 0777);
		snprintf(p, sizeof p, "%s/f", deep[i]);
		touch(dir, p);
	}
	touch(dir, "keep");
	snprintf(p, sizeof p, "%s/keep", dir);
	cmn_cleanup_add(p);
	cmn_cleanup_forget(p);
	int gc[2];
	if (pipe(gc))
		_exit(2);
	pid_t child = cmn_cleanup_fork();
	if (child == 0) {
		touch(dir, "gc");
		snprintf(p, sizeof p, "%s/gc", dir);
		cmn_cleanup_add(p);
		if (write(gc[1], "x", 1) != 1)
			_exit(2);
		for (;;)
			pause();
	}
	char c;
	if (child < 0 || read(gc[0], &c, 1) != 1)
		_exit(2);
	if (write(ready, &child, sizeof child) != (ssize_t)sizeof child)
		_exit(2);
	for (;;)
		pause();
}

/* A folder made from dir (a mkdtemp template; none when NULL) and a
 * process forked to run body(dir, the write end of a pipe), which never
 * returns; *rd: the read end. Returns the process's pid. */
static pid_t start(char *dir, int *rd, void (*body)(const char *, int))
{
	if (dir)
		CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	int ready[2];
	CU_ASSERT_FATAL(pipe(ready) == 0);
	pid_t pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0)
		body(dir, ready[1]);
	close(ready[1]);
	*rd = ready[0];
	return pid;
}

static void signal_case(int sig)
{
	char dir[] = "/tmp/placesim-cleanup-XXXXXX";
	int rd;
	pid_t pid = start(dir, &rd, victim);
	pid_t child = 0;
	CU_ASSERT_FATAL(read(rd, &child, sizeof child) == (ssize_t)sizeof child);
	close(rd);
	CU_ASSERT(exists(dir, "sub/f") && exists(dir, "g") && exists(dir, "gc"));
	CU_ASSERT(exists(dir, "many/rank-0.txt") && exists(dir, "many/rank-1999.txt"));
	CU_ASSERT(exists(dir, "many/t0.txt_files/a/b/f"));
	kill(pid, sig);
	int st = 0;
	CU_ASSERT_FATAL(waitpid(pid, &st, 0) == pid);
	CU_ASSERT(WIFSIGNALED(st) && WTERMSIG(st) == sig);
	CU_ASSERT(!exists(dir, "sub/f") && !exists(dir, "sub") && !exists(dir, "g"));
	CU_ASSERT(!exists(dir, "gc"));   /* the child's own */
	CU_ASSERT(!exists(dir, "many")); /* with its 2,000 files and its subfolders */
	CU_ASSERT(kill(child, 0) != 0 && errno == ESRCH); /* stopped and waited for */
	CU_ASSERT(exists(dir, "keep"));                   /* forgotten */
	char p[512];
	snprintf(p, sizeof p, "%s/keep", dir);
	unlink(p);
	CU_ASSERT(rmdir(dir) == 0); /* nothing else left */
}

static void test_signal(void)
{
	signal_case(SIGTERM);
	signal_case(SIGABRT); /* abort(), as SimGrid dies on a file it cannot take */
	signal_case(SIGINT);
	signal_case(SIGQUIT);
	signal_case(SIGXCPU); /* a CPU time limit */
	signal_case(SIGUSR1); /* a batch system's warning */
}

/* cmn_cleanup_fork's victim: a child that tells whether SIGTERM is
 * blocked in it (the caller's mask, where it is not), then sends its
 * parent SIGTERM at once (as a signal in the fork's window would come)
 * and waits; the parent waits for the signal. */
static void fork_victim(const char *dir, int ready)
{
	(void)dir;
	pid_t child = cmn_cleanup_fork();
	if (child < 0)
		_exit(2);
	if (child == 0) {
		sigset_t now;
		sigprocmask(SIG_SETMASK, NULL, &now);
		int blocked = sigismember(&now, SIGTERM);
		pid_t me = getpid();
		if (write(ready, &me, sizeof me) != (ssize_t)sizeof me ||
		    write(ready, &blocked, sizeof blocked) != (ssize_t)sizeof blocked)
			_exit(2);
		kill(getppid(), SIGTERM);
		for (;;)
			pause();
	}
	for (;;)
		pause();
}

static void test_fork(void)
{
	for (int round = 0; round < 20; round++) {
		int rd;
		pid_t pid = start(NULL, &rd, fork_victim);
		pid_t child = 0;
		int blocked = -1;
		CU_ASSERT_FATAL(read(rd, &child, sizeof child) == (ssize_t)sizeof child);
		CU_ASSERT_FATAL(read(rd, &blocked, sizeof blocked) == (ssize_t)sizeof blocked);
		close(rd);
		CU_ASSERT(blocked == 0); /* the child starts with the caller's mask */
		int st = 0;
		CU_ASSERT_FATAL(waitpid(pid, &st, 0) == pid);
		CU_ASSERT(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
		/* registered before the signal could reach the handler: stopped and
		 * waited for by its parent, not left running */
		int gone = kill(child, 0) != 0 && errno == ESRCH;
		CU_ASSERT(gone);
		if (!gone)
			kill(child, SIGKILL);
	}
}

/* test_hold's process: holds the signals, sends itself SIGTERM, makes and
 * registers dir/held, tells the test, and releases them. */
static void hold_victim(const char *dir, int ready)
{
	sigset_t old;
	cmn_cleanup_hold(&old);
	kill(getpid(), SIGTERM); /* held back: the file is made and registered */
	char p[512];
	snprintf(p, sizeof p, "%s/held", dir);
	touch(dir, "held");
	cmn_cleanup_add(p);
	if (write(ready, "r", 1) != 1)
		_exit(2);
	cmn_cleanup_release(&old); /* the signal now: the file goes */
	_exit(3);
}

/* cmn_cleanup_hold: a signal that comes while a file is made and
 * registered waits until cmn_cleanup_release, then removes the file. */
static void test_hold(void)
{
	char dir[] = "/tmp/placesim-cleanup-XXXXXX";
	int rd;
	pid_t pid = start(dir, &rd, hold_victim);
	char c = 0;
	CU_ASSERT(read(rd, &c, 1) == 1 && c == 'r');
	close(rd);
	int st = 0;
	CU_ASSERT_FATAL(waitpid(pid, &st, 0) == pid);
	CU_ASSERT(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	CU_ASSERT(!exists(dir, "held"));
	CU_ASSERT(rmdir(dir) == 0);
}

static void *mask_of(void *arg)
{
	sigset_t now;
	pthread_sigmask(SIG_SETMASK, NULL, &now);
	*(int *)arg = sigismember(&now, SIGTERM) && sigismember(&now, SIGINT);
	return NULL;
}

/* cmn_cleanup_thread: the helper thread blocks the handled signals (they
 * go to the main thread), the caller's mask is unchanged. */
static void test_thread(void)
{
	int blocked = -1;
	pthread_t t;
	CU_ASSERT_FATAL(cmn_cleanup_thread(&t, mask_of, &blocked) == 0);
	pthread_join(t, NULL);
	CU_ASSERT(blocked == 1);
	sigset_t now;
	pthread_sigmask(SIG_SETMASK, NULL, &now);
	CU_ASSERT(!sigismember(&now, SIGTERM) && !sigismember(&now, SIGINT));
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("cleanup", NULL, NULL);
	CU_add_test(s, "a signal: children stopped, files then folders removed", test_signal);
	CU_add_test(s, "cmn_cleanup_fork: a signal at once stops the child too", test_fork);
	CU_add_test(s, "cmn_cleanup_hold: a signal waits until the file is registered", test_hold);
	CU_add_test(s, "cmn_cleanup_thread: helper threads leave the signals to the main thread",
	            test_thread);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

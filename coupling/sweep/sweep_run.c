/* Running a sweep's points on this machine (sweep.h): a pool of at most N
 * processes, each point's stdout and stderr in its directory, a done
 * marker written when it succeeded (so a rerun skips it), failures
 * reported and counted without stopping the others, and an interruption
 * (SIGINT, SIGTERM, SIGHUP) stopping the running points before returning.
 * Signals are taken synchronously (blocked, then sigtimedwait), so the
 * runner keeps no state outside its call. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../common/csv_read.h"
#include "../../common/outfile.h"
#include "sweep.h"

struct slot {
	pid_t pid;
	long p;
	double t0;
};

struct pool {
	const struct cpl_sweep *s;
	struct slot *slot;
	int jobs, running;
	long ok, failed, skipped;
	double t0;
	sigset_t old;
};

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* mkdir -p */
static int make_dirs(const char *path, struct cmn_err *e)
{
	char *b = strdup(path);
	if (!b)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (char *c = b + 1;; c++) {
		if (*c != '/' && *c)
			continue;
		char keep = *c;
		*c = '\0';
		if (mkdir(b, 0777) && errno != EEXIST) {
			cmn_err_set(e, CMN_EIO, "cannot create directory %s: %s", b,
			            strerror(errno));
			free(b);
			return e->code;
		}
		*c = keep;
		if (!keep)
			break;
	}
	free(b);
	return 0;
}

static void print_command(FILE *f, const struct cpl_sweep *s, long p)
{
	char **argv = cpl_sweep_argv(s, p);
	for (int i = 0; argv && argv[i]; i++) {
		if (i)
			fputc(' ', f);
		cpl_sweep_shquote(f, argv[i]);
	}
	cpl_sweep_argv_free(argv);
}

/* Starts point p in a child process. */
static int start(struct pool *pl, long p, struct cmn_err *e)
{
	char *dir = cpl_sweep_dir(pl->s, p), **argv = cpl_sweep_argv(pl->s, p);
	char *out = dir ? cpl_sweep_path(dir, "stdout") : NULL,
	     *err = dir ? cpl_sweep_path(dir, "stderr") : NULL;
	int rc = 0;
	if (!dir || !argv || !out || !err) {
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
		goto end;
	}
	if ((rc = make_dirs(dir, e)))
		goto end;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		rc = cmn_err_set(e, CMN_EIO, "cannot start a process: %s", strerror(errno));
		goto end;
	}
	if (pid == 0) {
		int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (fo < 0 || fe < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0)
			_exit(126);
		close(fo), close(fe);
		sigprocmask(SIG_SETMASK, &pl->old, NULL);
		execvp(argv[0], argv);
		fprintf(stderr, "sweep: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	for (int i = 0; i < pl->jobs; i++)
		if (!pl->slot[i].pid) {
			pl->slot[i] = (struct slot){pid, p, now_s()};
			break;
		}
	pl->running++;
end:
	free(dir), free(out), free(err);
	cpl_sweep_argv_free(argv);
	return rc;
}

/* The last lines of a point's stderr, indented, to f. */
static void stderr_tail(FILE *f, const char *dir)
{
	char *path = cpl_sweep_path(dir, "stderr");
	FILE *in = path ? fopen(path, "r") : NULL;
	free(path);
	if (!in)
		return;
	char line[5][512];
	long n = 0;
	while (fgets(line[n % 5], sizeof line[0], in))
		n++;
	fclose(in);
	for (long i = n > 5 ? n - 5 : 0; i < n; i++) {
		char *l = line[i % 5];
		fprintf(f, "    %s%s", l, l[strlen(l) - 1] == '\n' ? "" : "\n");
	}
}

/* A child ended: done marker, or a failure report. */
static int finish(struct pool *pl, struct slot *sl, int status, struct cmn_err *e)
{
	const struct cpl_sweep *s = pl->s;
	char *dir = cpl_sweep_dir(s, sl->p), *sum = cpl_sweep_summary(s, sl->p);
	char *mark = dir ? cpl_sweep_path(dir, "done") : NULL, why[1200] = "";
	int rc = 0;
	if (!dir || !sum || !mark) {
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
		goto end;
	}
	if (WIFSIGNALED(status))
		snprintf(why, sizeof why, "killed by signal %d", WTERMSIG(status));
	else if (WEXITSTATUS(status))
		snprintf(why, sizeof why, "exit status %d", WEXITSTATUS(status));
	else {
		struct cmn_csv *c = NULL;
		struct cmn_err ce;
		cmn_err_clear(&ce);
		if (cmn_csv_read(sum, &c, &ce))
			snprintf(why, sizeof why, "no summary: %s", ce.msg);
		else if (!c->nrows)
			snprintf(why, sizeof why, "summary %s has no rows", sum);
		cmn_csv_free(c);
	}
	if (!*why) {
		struct cmn_outfile of;
		if ((rc = cmn_outfile_open(&of, mark, e)))
			goto end;
		fprintf(of.f, "command: ");
		print_command(of.f, s, sl->p);
		fprintf(of.f, "\nelapsed_s: %.3f\n", now_s() - sl->t0);
		if ((rc = cmn_outfile_commit(&of, e)))
			goto end;
		pl->ok++;
	} else {
		pl->failed++;
		fprintf(stderr, "%ssweep: point %s failed (%s): ", isatty(2) ? "\r\033[K" : "", dir,
		        why);
		print_command(stderr, s, sl->p);
		fputc('\n', stderr);
		stderr_tail(stderr, dir);
	}
end:
	free(dir), free(sum), free(mark);
	return rc;
}

static void hms(char *b, size_t n, double s)
{
	long t = (long)(s + 0.5);
	snprintf(b, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

static void progress(const struct pool *pl, int quiet)
{
	if (quiet || !isatty(2))
		return;
	long fin = pl->ok + pl->failed, all = pl->s->npoints;
	long left = all - fin - pl->skipped;
	double el = now_s() - pl->t0;
	char a[32], b[32] = "?";
	hms(a, sizeof a, el);
	if (fin)
		hms(b, sizeof b, el / (double)fin * (double)left);
	fprintf(stderr,
	        "\r\033[Ksweep: %ld/%ld points (%ld already done, %ld failed, %d running), "
	        "%s elapsed, ~%s left",
	        fin + pl->skipped, all, pl->skipped, pl->failed, pl->running, a, b);
}

/* Stops the running points (SIGTERM, then waits for them). */
static void stop_all(struct pool *pl)
{
	for (int i = 0; i < pl->jobs; i++)
		if (pl->slot[i].pid)
			kill(pl->slot[i].pid, SIGTERM);
	for (int i = 0; i < pl->jobs; i++)
		if (pl->slot[i].pid)
			waitpid(pl->slot[i].pid, NULL, 0);
}

int cpl_sweep_run(const struct cpl_sweep *s, int jobs, int quiet, long *failed, struct cmn_err *e)
{
	struct pool pl = {.s = s, .jobs = jobs, .t0 = now_s()};
	*failed = 0;
	char *points = cpl_sweep_path(s->out, "points");
	if (!points)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	int rc = make_dirs(points, e);
	free(points);
	if (rc)
		return rc;
	/* one runner per output directory: a second would run the same points
	 * (the lock goes with the process, even killed; children do not hold it) */
	char *lock = cpl_sweep_path(s->out, "sweep.lock");
	if (!lock)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	int lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (lfd < 0 || flock(lfd, LOCK_EX | LOCK_NB)) {
		rc = lfd < 0
		         ? cmn_err_set(e, CMN_EIO, "%s: %s", lock, strerror(errno))
		         : cmn_err_set(e, CMN_ESTATE,
		                       "another sweep is running on %s (it holds %s); wait for it "
		                       "or stop it",
		                       s->out, lock);
		if (lfd >= 0)
			close(lfd);
		free(lock);
		return rc;
	}
	free(lock);
	if (!(pl.slot = calloc((size_t)jobs, sizeof *pl.slot))) {
		close(lfd);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, &pl.old);
	long next = 0;
	for (;;) {
		while (!rc && pl.running < jobs && next < s->npoints) {
			if (cpl_sweep_done(s, next)) {
				pl.skipped++, next++;
				continue;
			}
			rc = start(&pl, next++, e);
		}
		if (rc || (!pl.running && next == s->npoints))
			break;
		progress(&pl, quiet);
		siginfo_t info;
		struct timespec tick = {1, 0};
		int sig = sigtimedwait(&set, &info, &tick);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			stop_all(&pl);
			rc = cmn_err_set(
			    e, CMN_ESTATE,
			    "interrupted (signal %d) with %d points running, stopped; run "
			    "again to go on from there",
			    sig, pl.running);
			break;
		}
		int status;
		pid_t pid;
		while (!rc && (pid = waitpid(-1, &status, WNOHANG)) > 0)
			for (int i = 0; i < jobs; i++)
				if (pl.slot[i].pid == pid) {
					rc = finish(&pl, &pl.slot[i], status, e);
					pl.slot[i].pid = 0;
					pl.running--;
					break;
				}
	}
	if (rc && pl.running && e->code != CMN_ESTATE)
		stop_all(&pl);
	progress(&pl, quiet);
	if (!quiet && isatty(2))
		fputc('\n', stderr);
	sigprocmask(SIG_SETMASK, &pl.old, NULL);
	close(lfd); /* releases the lock */
	free(pl.slot);
	*failed = pl.failed;
	return rc;
}

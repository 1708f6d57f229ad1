/* cosim's study mode (study.h): every --alloc in its own child process
 * (at most --parallel at once), each writing its per-job and summary CSV
 * and its log into a staging folder inside the output folder; when all
 * succeeded the summaries are joined, the plots drawn, and every file
 * moved into place; when one fails nothing is moved and the staging folder
 * is removed. A signal that stops the study stops the children and removes
 * the staging folder too (cleanup.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../common/cleanup.h"
#include "../../common/csv_read.h"
#include "../../common/number.h"
#include "../../common/outfile.h"
#include "../../jobsched/cli/cli.h"
#include "../../netsim/netsim.h"
#include "study.h"

#define MAX_ALLOCS JS_CLI_MAX_ALLOCS

struct study {
	const struct js_cli *cli; /* the command line; its --alloc the study's */
	const char *out, *machine;
	const char *alloc[MAX_ALLOCS];
	char name[MAX_ALLOCS][64];
	int nalloc, parallel;
	double snapshot;
	char staging[4096];
	int made;     /* ancestors of out that did not exist (the nearest first) */
	int out_made; /* out did not exist: this run makes it (and may remove it) */
};

enum { O_OUT = 1000, O_SNAPSHOT, O_HOSTS, O_PARALLEL = 'j' };

static const struct cmn_opt study_opts[] = {
    CMN_OPT_SECTION("platforms (cosim only)"),
    {"hosts", O_HOSTS, "H1,H2,..|@FILE",
     "--platform's hosts that are nodes 0, 1, ..., in this\n"
     "order (@FILE: one name per line, # comments); any\n"
     "SimGrid platform is read: hosts in document order, a\n"
     "file no family maps routed by SimGrid (<= 4096 hosts)"},
    CMN_OPT_SECTION("study (cosim only; with --out, one run per --alloc)"),
    {"out", O_OUT, "DIR",
     "the study into DIR: a folder per --alloc (it may\n"
     "repeat), summary.csv, wait.png, speedup.png,\nplacement.png"},
    {"parallel", O_PARALLEL, "N", "runs at a time (default: the processors online)"},
    {"snapshot", O_SNAPSHOT, "T",
     "placement.png at T s (default: half the first\nallocator's makespan)"},
    {NULL, 0, NULL, NULL}};

static int study_option(void *ctx, int key, const char *arg, struct cmn_err *e)
{
	struct cpl_study_opts *so = ctx;
	long long p;
	switch (key) {
	case O_OUT: so->out = arg; return 0;
	case O_HOSTS: so->hosts = arg; return 0;
	case O_PARALLEL:
		if (cmn_opt_int("--parallel", arg, 1, 1024, &p, e))
			return e->code;
		so->parallel = (int)p;
		return 0;
	case O_SNAPSHOT: return cmn_opt_real("--snapshot", arg, 0, 1e15, &so->snapshot, e);
	}
	return cmn_err_set(e, CMN_ESTATE, "study: option key %d unknown", key);
}

void cpl_study_ext(struct cpl_study_opts *so, struct js_cli_ext *ext)
{
	*so = (struct cpl_study_opts){NULL, 0, -1, NULL};
	*ext = (struct js_cli_ext){study_opts,
	                           "       cosim ... --out DIR [--alloc SPEC]... [--parallel N] "
	                           "[--snapshot T]\n",
	                           study_option, so};
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The files a study writes are out/.cosim-staging-PID/NAME/FILE and
 * out/NAME/FILE (NAME: an --alloc as a folder name, FILE: jobs.csv,
 * summary.txt, ..., placementN.dat): a path the system refuses
 * (PATH_MAX) would make every allocator's run fail on its outputs, so
 * --out is refused first. */
static int out_too_long(const char *out, const struct js_cli *c, struct cmn_err *e)
{
	size_t name = 0; /* the longest folder name an --alloc gives (at most 63) */
	for (int a = 0; a < (c->nalloc ? c->nalloc : 1); a++) {
		size_t n = strlen(c->nalloc ? c->alloc[a] : "first-free");
		name = n > name ? n : name;
	}
	name = name > 63 ? 63 : name;
	size_t file = name + 1 + strlen("summary.txt"), top = strlen("placement99.dat");
	size_t longest = strlen(out) + strlen("/.cosim-staging-") + 10 /* the pid */ + 1 +
	                 (file > top ? file : top);
	if (longest >= PATH_MAX)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "--out: a folder of %zu bytes: the study's files in it would "
		                   "have paths of up to %zu bytes, beyond the system's %d "
		                   "(PATH_MAX): give a shorter one",
		                   strlen(out), longest, PATH_MAX - 1);
	return 0;
}

static int setup(const struct js_cli *c, const struct cpl_study_opts *so, struct study *s,
                 struct cmn_err *e)
{
	s->cli = c;
	s->out = so->out;
	s->machine = c->machine;
	s->parallel = so->parallel ? so->parallel : (int)sysconf(_SC_NPROCESSORS_ONLN);
	s->snapshot = so->snapshot;
	const char *refused[] = {c->jobs_out, c->summary_out, c->series_out,
	                         c->plot,     c->swf_out,     c->stats};
	static const char *const names[] = {"--jobs-out", "--summary-out", "--series-out",
	                                    "--plot",     "--swf-out",     "--stats"};
	for (size_t r = 0; r < sizeof names / sizeof *names; r++)
		if (refused[r])
			return cmn_err_set(e, CMN_EUSAGE,
			                   "%s: with --out every output goes into the folder",
			                   names[r]);
	if (!s->out || !*s->out)
		return cmn_err_set(e, CMN_EUSAGE, "--out: give a folder");
	if (out_too_long(s->out, c, e))
		return e->code;
	for (int a = 0; a < c->nalloc; a++)
		s->alloc[s->nalloc++] = c->alloc[a];
	if (!s->nalloc)
		s->alloc[s->nalloc++] = "first-free";
	struct stat st; /* each allocator's run reads the workload: a pipe once only */
	if (s->nalloc > 1 && c->workload && stat(c->workload, &st) == 0 && !S_ISREG(st.st_mode))
		return cmn_err_set(
		    e, CMN_EUSAGE,
		    "--workload %s is not a regular file (a pipe, FIFO or device): a "
		    "study reads it once per --alloc; give a file",
		    c->workload);
	for (int a = 0; a < s->nalloc; a++) { /* folder names: the spec, punctuation as '_' */
		snprintf(s->name[a], sizeof s->name[a], "%s", s->alloc[a]);
		for (char *p = s->name[a]; *p; p++)
			if (!(*p == '-' || *p == '.' || (*p >= '0' && *p <= '9') ||
			      (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
				*p = '_';
		for (int b = 0; b < a; b++)
			if (strcmp(s->name[a], s->name[b]) == 0)
				return cmn_err_set(e, CMN_EUSAGE, "--alloc %s given twice",
				                   s->alloc[a]);
	}
	return 0;
}

static int mkdir_p(const char *path)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(buf, 0777) && errno != EEXIST)
				return -1;
			*p = '/';
		}
	return mkdir(buf, 0777) && errno != EEXIST ? -1 : 0;
}

static const char *const top_files[] = {"summary.csv", "wait.png", "speedup.png", "placement.png"};
static const char *const per_files[] = {"jobs.csv", "summary.csv", "summary.txt", "log.txt"};
enum { NTOP = sizeof top_files / sizeof *top_files, NPER = sizeof per_files / sizeof *per_files };

/* Applies fn to every path of the staging folder this mode writes: the
 * files, the per-allocator folders, the folder itself, last the output
 * folder (removed only if empty). */
static void each_staging_path(const struct study *s, void (*fn)(const char *))
{
	char p[4200];
	for (int a = 0; a < s->nalloc; a++) {
		for (int f = 0; f < NPER; f++) {
			snprintf(p, sizeof p, "%s/%s/%s", s->staging, s->name[a], per_files[f]);
			fn(p);
		}
		snprintf(p, sizeof p, "%s/%s", s->staging, s->name[a]);
		fn(p);
	}
	for (int f = 0; f < NTOP; f++) {
		snprintf(p, sizeof p, "%s/%s", s->staging, top_files[f]);
		fn(p);
	}
	fn(s->staging);
	if (!s->out_made) /* the user's own folder (or what stands there): never removed */
		return;
	fn(s->out);
	snprintf(p, sizeof p, "%s", s->out);
	for (int i = 0; i < s->made; i++) { /* folders made above it, if empty */
		char *slash = strrchr(p, '/');
		while (slash && slash > p && slash[1] == '\0') /* a trailing '/' */
			*slash = '\0', slash = strrchr(p, '/');
		if (!slash || slash == p)
			break;
		*slash = '\0';
		fn(p);
	}
}

/* How many of out's ancestors do not exist (those mkdir_p will make). */
static int missing_ancestors(const char *out)
{
	char p[4096];
	snprintf(p, sizeof p, "%s", out);
	int n = 0;
	for (;;) {
		char *slash = strrchr(p, '/');
		while (slash && slash > p && slash[1] == '\0')
			*slash = '\0', slash = strrchr(p, '/');
		if (!slash || slash == p)
			return n;
		*slash = '\0';
		struct stat st;
		if (stat(p, &st) == 0)
			return n;
		n++;
	}
}

static void remove_path(const char *p)
{
	if (unlink(p) != 0)
		rmdir(p); /* a folder: only once empty */
}

static void add_path(const char *p)
{
	cmn_cleanup_add(p); /* a full table: this one stays behind on a signal */
}

/* The child: the single run of the command line with this allocator and
 * these outputs. */
static void child(const struct study *s, int a)
{
	char jobs[4200], sum[4200], txt[4200], log[4200];
	snprintf(jobs, sizeof jobs, "%s/%s/jobs.csv", s->staging, s->name[a]);
	snprintf(sum, sizeof sum, "%s/%s/summary.csv", s->staging, s->name[a]);
	snprintf(txt, sizeof txt, "%s/%s/summary.txt", s->staging, s->name[a]);
	snprintf(log, sizeof log, "%s/%s/log.txt", s->staging, s->name[a]);
	if (!freopen(txt, "w", stdout) || !freopen(log, "w", stderr))
		_exit(1);
	struct js_cli one = *s->cli;
	one.alloc[0] = s->alloc[a];
	one.nalloc = 1;
	one.jobs_out = jobs;
	one.summary_out = sum;
	int rc = js_cli_run(&one);
	fflush(NULL);
	_exit(rc);
}

/* Prints the last lines of a child's log after its failure. */
static void show_log(const struct study *s, int a)
{
	char p[4200], line[1024];
	snprintf(p, sizeof p, "%s/%s/log.txt", s->staging, s->name[a]);
	FILE *f = fopen(p, "r");
	while (f && fgets(line, sizeof line, f))
		fprintf(stderr, "  %s: %s", s->alloc[a], line);
	if (f)
		fclose(f);
}

/* Runs every allocator's child: 0 when all succeeded, 1 when one failed,
 * 2 when one failed on a usage error (its exit status 2: the command line
 * is at fault, and the study exits 2 as that run would). */
static int run_children(const struct study *s)
{
	pid_t pid[MAX_ALLOCS] = {0};
	double t0 = now_s();
	int next = 0, running = 0, done = 0, failed = 0;
	while (done < s->nalloc) {
		while (next < s->nalloc && running < s->parallel) {
			fflush(NULL);
			pid[next] = cmn_cleanup_fork();
			if (pid[next] == 0)
				child(s, next);
			if (pid[next] < 0) {
				fprintf(stderr, "cosim: cannot fork: %s\n", strerror(errno));
				failed = failed ? failed : 1;
				done += s->nalloc - next; /* the rest never runs */
				next = s->nalloc;
				break;
			}
			next++, running++;
		}
		if (!running)
			break;
		int st;
		pid_t p = wait(&st);
		if (p < 0)
			break;
		cmn_cleanup_child_gone(p);
		int a = 0;
		while (a < s->nalloc && pid[a] != p)
			a++;
		running--, done++;
		int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
		if (!ok ||
		    (!s->cli->quiet && isatty(2))) { /* progress on a terminal; failures always */
			double el = now_s() - t0;
			char eta[48] = ""; /* the pace so far, for the rest */
			if (done < s->nalloc)
				snprintf(eta, sizeof eta, ", about %.0f s left",
				         el / done * (s->nalloc - done));
			fprintf(stderr, "cosim: [%d/%d] %s %s after %.1f s%s\n", done, s->nalloc,
			        a < s->nalloc ? s->alloc[a] : "?", ok ? "done" : "FAILED", el, eta);
		}
		if (!ok && a < s->nalloc) {
			if (failed < 2)
				failed = WIFEXITED(st) && WEXITSTATUS(st) == 2 ? 2 : 1;
			show_log(s, a);
		}
	}
	return failed;
}

/* Joins the summaries, prints the table; 0 or an error. */
static int collect(const struct study *s, struct cmn_err *e)
{
	char p[4200], line[65536];
	snprintf(p, sizeof p, "%s/summary.csv", s->staging);
	FILE *out = fopen(p, "w");
	if (!out)
		return cmn_err_set(e, CMN_EIO, "%s: cannot write", p);
	int rc = 0;
	printf("%-28s %14s %18s %24s\n", "allocator", "mean wait (s)", "mean response (s)",
	       "mean effective speed-up");
	for (int a = 0; !rc && a < s->nalloc; a++) {
		snprintf(p, sizeof p, "%s/%s/summary.csv", s->staging, s->name[a]);
		FILE *in = fopen(p, "r");
		for (int l = 0; in && fgets(line, sizeof line, in); l++)
			if (l > 0 || a == 0)
				fputs(line, out);
		if (in)
			fclose(in);
		struct cmn_csv *c;
		if ((rc = cmn_csv_read(p, &c, e)))
			break;
		int w = cmn_csv_col(c, "mean_wait_s"), r = cmn_csv_col(c, "mean_response_s");
		int x = cmn_csv_col(c, "mean_effective_speedup");
		if (w < 0 || r < 0 || x < 0 || c->nrows != 1)
			rc = cmn_err_set(e, CMN_EINPUT, "%s: not a summary", p);
		else
			printf("%-28s %14.1f %18.1f %24.4f\n", s->alloc[a], atof(c->rows[0][w]),
			       atof(c->rows[0][r]), atof(c->rows[0][x]));
		cmn_csv_free(c);
	}
	if (fclose(out) != 0 && !rc)
		rc = cmn_err_set(e, CMN_EIO, "%s/summary.csv: cannot write", s->staging);
	return rc;
}

/* Puts every file from staging in place in the output folder (outfile.h:
 * a symbolic link there is kept and its target replaced; a FIFO written). */
static int move_out(const struct study *s, struct cmn_err *e)
{
	char a_[4200], b_[4200];
	for (int a = 0; a < s->nalloc; a++) {
		snprintf(b_, sizeof b_, "%s/%s", s->out, s->name[a]);
		if (mkdir_p(b_))
			return cmn_err_set(e, CMN_EIO, "%s: cannot create", b_);
		for (int f = 0; f < NPER; f++) {
			snprintf(a_, sizeof a_, "%s/%s/%s", s->staging, s->name[a], per_files[f]);
			snprintf(b_, sizeof b_, "%s/%s/%s", s->out, s->name[a], per_files[f]);
			if (cmn_outfile_install(a_, b_, e))
				return e->code;
		}
	}
	for (int f = 0; f < NTOP; f++) {
		snprintf(a_, sizeof a_, "%s/%s", s->staging, top_files[f]);
		snprintf(b_, sizeof b_, "%s/%s", s->out, top_files[f]);
		if (cmn_outfile_install(a_, b_, e))
			return e->code;
	}
	return 0;
}

/* Whether out can take the study: a folder (or a link to one), or
 * nothing yet (then this run makes it: out_made). Anything else standing
 * there (a file, the workload itself, a device) is refused before a byte
 * is written, so that the clean-up after a failure never touches it. */
static int check_out(struct study *s, struct cmn_err *e)
{
	struct stat st;
	if (stat(s->out, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return cmn_err_set(
			    e, CMN_EUSAGE,
			    "--out %s: exists and is not a folder (--out takes a folder; "
			    "nothing was written)",
			    s->out);
		return 0;
	}
	if (errno == ENAMETOOLONG || errno == ENOTDIR) /* a name no folder can have */
		return cmn_err_set(e, CMN_EUSAGE, "--out %s: %s", s->out, strerror(errno));
	if (errno != ENOENT)
		return cmn_err_set(e, CMN_EIO, "--out %s: %s", s->out, strerror(errno));
	s->out_made = 1;
	return 0;
}

/* A folder of out holding an allocator's jobs.csv and summary.csv that
 * this study did not write (an earlier study's, with other --alloc) stays
 * as it was: said, so that it is not read as this study's. */
static void note_stale(const struct study *s)
{
	DIR *d = opendir(s->out);
	if (!d)
		return;
	const struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		int ours = 0;
		for (int a = 0; a < s->nalloc && !ours; a++)
			ours = strcmp(de->d_name, s->name[a]) == 0;
		char p[4200];
		struct stat st;
		snprintf(p, sizeof p, "%s/%s/jobs.csv", s->out, de->d_name);
		int jobs = stat(p, &st) == 0;
		snprintf(p, sizeof p, "%s/%s/summary.csv", s->out, de->d_name);
		if (!ours && jobs && stat(p, &st) == 0)
			fprintf(stderr,
			        "cosim: note: %s/%s is an earlier study's (not an --alloc of this "
			        "one): left as it was, not in summary.csv\n",
			        s->out, de->d_name);
	}
	closedir(d);
}

/* --platform read once (any SimGrid platform, with --hosts), its mapping
 * of hosts to nodes said on stderr; the run, or every allocator's run and
 * the plots, use it. 0, or the exit status after the error is printed. */
static int read_platform(const struct js_cli *c, const struct cpl_study_opts *so,
                         struct plat_machine **m)
{
	struct cmn_err e;
	*m = NULL;
	if (so->hosts && !c->platform)
		return cmn_usage_error("cosim",
		                       "--hosts picks --platform's hosts: give --platform");
	if (!c->platform || c->stats)
		return 0;
	if (net_platform_load(c->platform, so->hosts, m, &e)) {
		fprintf(stderr, "cosim: %s\n", e.msg);
		return cmn_err_exit_status(&e);
	}
	net_platform_echo(stderr, "cosim", *m);
	return 0;
}

/* The study of c (c's --platform already read into platform). */
static int study(const struct js_cli *c, const struct cpl_study_opts *so,
                 const struct plat_machine *platform)
{
	if (!so->out) { /* one run: the study's options make no sense */
		const char *lone = so->parallel        ? "--parallel"
		                   : so->snapshot >= 0 ? "--snapshot"
		                                       : NULL;
		if (lone)
			return cmn_usage_error("cosim", "%s is for a study (--out DIR)", lone);
		return js_cli_run(c);
	}
	struct study s;
	memset(&s, 0, sizeof s);
	struct cmn_err e;
	cmn_err_clear(&e);
	int rc = setup(c, so, &s, &e);
	if (rc)
		return cmn_usage_error("cosim", "%s", e.msg);
	if (check_out(&s, &e)) {
		fprintf(stderr, "cosim: %s\n", e.msg);
		return cmn_err_exit_status(&e);
	}
	snprintf(s.staging, sizeof s.staging, "%s/.cosim-staging-%ld", s.out, (long)getpid());
	s.made = missing_ancestors(s.out);
	each_staging_path(&s, add_path); /* a signal from here removes them */
	rc = mkdir_p(s.staging) ? cmn_err_set(&e, CMN_EIO, "%s: cannot create", s.staging) : 0;
	for (int a = 0; !rc && a < s.nalloc; a++) {
		char p[4200];
		snprintf(p, sizeof p, "%s/%s", s.staging, s.name[a]);
		if (mkdir_p(p))
			rc = cmn_err_set(&e, CMN_EIO, "%s: cannot create", p);
	}
	int failed = rc ? 0 : run_children(&s);
	if (failed)
		rc = cmn_err_set(&e, failed == 2 ? CMN_EUSAGE : CMN_ESTATE,
		                 "an allocator's run failed%s: nothing written to %s",
		                 failed == 2 ? " on a usage error (above)" : "", s.out);
	if (!rc)
		rc = collect(&s, &e);
	const char *names[MAX_ALLOCS];
	for (int a = 0; a < s.nalloc; a++)
		names[a] = s.name[a];
	if (!rc)
		rc = cpl_study_plots(s.staging, names, s.alloc, s.nalloc, s.machine, platform,
		                     s.snapshot, &e);
	if (!rc)
		rc = move_out(&s, &e);
	/* what is left: all of it after a failure, the empty folders after
	 * success; the output folder only when empty (a folder this run made
	 * and filled with nothing) */
	each_staging_path(&s, remove_path);
	each_staging_path(&s, cmn_cleanup_forget);
	if (rc) {
		fprintf(stderr, "cosim: %s\n", e.msg);
		return cmn_err_exit_status(&e);
	}
	fprintf(stderr,
	        "cosim: wrote %s/{summary.csv,wait.png,speedup.png,placement.png} and a "
	        "folder per allocator\n",
	        s.out);
	note_stale(&s);
	return 0;
}

int cpl_study_main(const struct js_cli *c, const struct cpl_study_opts *so)
{
	struct plat_machine *m;
	int rc = read_platform(c, so, &m);
	if (rc)
		return rc;
	struct js_cli run = *c;
	run.platform_machine = m;
	rc = study(&run, so, m);
	plat_machine_destroy(m);
	return rc;
}

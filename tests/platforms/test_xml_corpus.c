/* The malformed-platform corpus (tests/platforms/xml/), differentially:
 * each file says in a comment what is wrong with it ("what:"), whether
 * SimGrid 3.32 loads it ("simgrid: refuses|accepts|skip") and what
 * plat_load says ("ours: refuses at line N, saying: WORDS" or "ours:
 * accepts").
 * plat_load reads it here, SimGrid in a child process (sg_load_probe:
 * load, seal, routes between hosts). Whenever SimGrid refuses a file,
 * plat_load must refuse it with FILE:LINE, quietly; a file plat_load
 * refuses but SimGrid loads must say why ("allowed:"), and is listed. The
 * files that are no platform at all (missing, a directory, empty, not
 * XML, cut short) must give one line, from plat_load and from netsim. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../helpers.h"
#include "xml_read.h"

#define CORPUS SOURCE_DIR "/tests/platforms/xml"
#define PROBE  TEST_BIN_DIR "/sg_load_probe"
#define NETSIM BIN_DIR "/netsim"

struct expect {
	char simgrid[16];  /* refuses, accepts, skip */
	int ours_refuses;  /* 1: refuses */
	long line;         /* the line it must name */
	char needle[200];  /* words the message must hold */
	char allowed[300]; /* why refusing what SimGrid loads is fine */
};

/* The rest of the line after key in text (without a closing "-->"). */
static void field(const char *text, const char *key, char *out, size_t len)
{
	const char *p = strstr(text, key);
	out[0] = '\0';
	if (!p)
		return;
	p += strlen(key);
	size_t l = strcspn(p, "\n");
	if (l >= 4 && strncmp(p + l - 4, " -->", 4) == 0)
		l -= 4;
	snprintf(out, len, "%.*s", (int)l, p);
}

static int read_expect(const char *path, struct expect *x)
{
	char *text = th_read_file(path), ours[300];
	if (!text)
		return -1;
	memset(x, 0, sizeof *x);
	field(text, "simgrid: ", x->simgrid, sizeof x->simgrid);
	field(text, "ours: ", ours, sizeof ours);
	field(text, "allowed: ", x->allowed, sizeof x->allowed);
	field(text, ", saying: ", x->needle, sizeof x->needle);
	free(text);
	x->ours_refuses = sscanf(ours, "refuses at line %ld,", &x->line) == 1;
	int ok = (strcmp(x->simgrid, "refuses") == 0 || strcmp(x->simgrid, "accepts") == 0 ||
	          strcmp(x->simgrid, "skip") == 0) &&
	         (x->ours_refuses ? x->line > 0 && x->needle[0] : strcmp(ours, "accepts") == 0);
	return ok ? 0 : -1;
}

/* plat_load on path with stderr caught: 0 accepted, 1 refused; what it
 * wrote on stderr in noise (empty when quiet). */
static int ours(const char *path, char *msg, size_t len, char *noise, size_t nlen)
{
	char tmp[] = "/tmp/placesim-noise-XXXXXX";
	int fd = mkstemp(tmp), saved = dup(2);
	fflush(stderr);
	dup2(fd, 2);
	struct plat_machine *m = NULL;
	struct cmn_err e;
	int rc = plat_load(path, &m, &e);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	ssize_t got = pread(fd, noise, nlen - 1, 0);
	noise[got > 0 ? got : 0] = '\0';
	close(fd);
	unlink(tmp);
	snprintf(msg, len, "%s", rc ? e.msg : m->spec);
	plat_machine_destroy(m);
	return rc != 0;
}

/* Runs argv with stdout and stderr into log (SimGrid's leaks are not
 * ours: LeakSanitizer off there); its wait status, -1 if it did not run. */
static int run(char *const argv[], const char *log)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(fd, 1);
		dup2(fd, 2);
		setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
		alarm(60);
		execv(argv[0], argv);
		_exit(127);
	}
	int st = 0;
	return pid > 0 && waitpid(pid, &st, 0) == pid ? st : -1;
}

/* The first line of log that explains an error, for the report. */
static void reason(const char *log, int st, char *out, size_t len)
{
	char *text = th_read_file(log);
	const char *keys[] = {"Parse error", "CRITICAL", "no route", "Uncaught", "ERROR"},
	           *p = NULL;
	for (int i = 0; text && i < 5 && !p; i++)
		p = strstr(text, keys[i]);
	int l = WIFSIGNALED(st) ? snprintf(out, len, "signal %d", WTERMSIG(st))
	                        : snprintf(out, len, "exit %d", WEXITSTATUS(st));
	if (p)
		snprintf(out + l, len - (size_t)l, ": %.*s", (int)strcspn(p, "\n"), p);
	free(text);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The corpus's file names, sorted (NULL-terminated, malloc'ed). */
static char **corpus(int *n)
{
	DIR *d = opendir(CORPUS);
	char **v = calloc(512, sizeof *v);
	*n = 0;
	for (struct dirent *de; d && v && *n < 511 && (de = readdir(d));)
		if (strstr(de->d_name, ".xml") && strlen(de->d_name) > 4)
			v[(*n)++] = strdup(de->d_name);
	if (d)
		closedir(d);
	if (v)
		qsort(v, (size_t)*n, sizeof *v, cmp_str);
	return v;
}

/* Whether msg is "PATH:LINE: error: ..." naming line. */
static int names_line(const char *msg, const char *path, long line)
{
	char want[1200];
	snprintf(want, sizeof want, "%s:%ld: error: ", path, line);
	return strncmp(msg, want, strlen(want)) == 0;
}

static void test_corpus(void)
{
	int n, probe = access(PROBE, X_OK) == 0, only_ours = 0;
	char **files = corpus(&n);
	char log[] = "/tmp/placesim-probe-XXXXXX";
	int lfd = mkstemp(log);
	CU_ASSERT_FATAL(files != NULL && n > 0 && lfd >= 0);
	close(lfd);
	if (!probe)
		printf("\n  SKIP the SimGrid side: %s is not built (no SimGrid)", PROBE);
	for (int i = 0; i < n; i++) {
		char path[1024], msg[1100], noise[512], why[400] = "";
		struct expect x;
		snprintf(path, sizeof path, "%s/%s", CORPUS, files[i]);
		int bad = 0, meta = read_expect(path, &x) == 0;
		int refused = ours(path, msg, sizeof msg, noise, sizeof noise);
		int sg = -1; /* 1: SimGrid refuses, 0: loads, -1: not asked */
		if (probe && meta && strcmp(x.simgrid, "skip") != 0) {
			char *argv[] = {PROBE, path, NULL};
			int st = run(argv, log);
			sg = !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
			if (sg)
				reason(log, st, why, sizeof why);
		}
		if (!meta) {
			printf("\n  FAIL %s: no simgrid:/ours: expectations in its comment",
			       files[i]);
			bad = 1;
		} else {
			const char *fault =
			    noise[0]              ? "plat_load wrote on stderr"
			    : sg == 1 && !refused ? "SimGrid refuses it, plat_load accepts it"
			    : sg >= 0 && sg != (strcmp(x.simgrid, "refuses") == 0)
			        ? "SimGrid does not do what the file says"
			    : refused != x.ours_refuses ? "plat_load does not do what the file says"
			    : refused && !names_line(msg, path, x.line)
			        ? "the message names another line"
			    : refused && !strstr(msg, x.needle) ? "the message lacks its words"
			    : refused && sg == 0 && !x.allowed[0]
			        ? "refused here, loaded by SimGrid, and no \"allowed:\" says why"
			        : NULL;
			if (fault) {
				printf("\n  FAIL %s: %s\n    ours: %s\n    SimGrid: %s%s", files[i],
				       fault, msg,
				       sg < 0 ? "not asked"
				       : sg   ? why
				              : "loads it",
				       noise[0] ? "\n    stderr: " : "");
				printf("%s", noise);
				bad = 1;
			}
			if (refused && sg == 0 && !fault)
				printf("\n  refused here, loaded by SimGrid: %s (%s)", files[i],
				       x.allowed);
			only_ours += refused && sg == 0;
		}
		CU_ASSERT(!bad);
		free(files[i]);
	}
	free(files);
	unlink(log);
	printf("\n  %d files; refused here but loaded by SimGrid (each says why): %d", n,
	       only_ours);
}

/* Files that are no platform at all: one line from plat_load and netsim. */
static void test_not_platforms(void)
{
	char dir[] = "/tmp/placesim-notplat-XXXXXX";
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	static const char *const cases[][2] = {
	    {"missing.xml", NULL},
	    {"adir.xml", ""},
	    {"empty.xml", ""},
	    {"text.xml", "not a platform at all\n"},
	    {"binary.xml", "\x01\x02\xff\xfe\x00\x10 junk"},
	    {"cut.xml", "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM "
	                "\"https://simgrid.org/simgrid.dtd\">\n<platform version=\"4.1\">\n"
	                "<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-3\" spe"},
	    {"badutf8.xml",
	     "<?xml version=\"1.0\"?>\n<platform version=\"4.1\" x=\"\xe9\xe9\"/>\n"},
	    {"huge.xml", "<"}, /* then made 600 MiB long, sparse */
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char path[256], log[300], msg[1100], noise[512];
		snprintf(path, sizeof path, "%s/%s", dir, cases[i][0]);
		if (i == 1)
			mkdir(path, 0700);
		else if (cases[i][1]) {
			FILE *f = fopen(path, "wb");
			fwrite(cases[i][1], 1, i == 4 ? 12 : strlen(cases[i][1]), f);
			fclose(f);
			if (strcmp(cases[i][0], "huge.xml") == 0)
				CU_ASSERT(truncate(path, 600L << 20) == 0);
		}
		int refused = ours(path, msg, sizeof msg, noise, sizeof noise);
		char want[300];
		snprintf(want, sizeof want, "%s:", path);
		int ok = refused && !noise[0] && strncmp(msg, want, strlen(want)) == 0 &&
		         strstr(msg, " error: ") && !strchr(msg, '\n');
		/* netsim: exit 1, one line on stderr naming the file */
		snprintf(log, sizeof log, "%s.log", path);
		char *argv[] = {NETSIM, "--platform", path, "--job", "x@0", NULL};
		int st = run(argv, log);
		char *out = th_read_file(log);
		int lines = 0;
		for (const char *p = out; p && *p; p++)
			lines += *p == '\n';
		int cli = WIFEXITED(st) && WEXITSTATUS(st) == 1 && lines == 1 && out &&
		          strstr(out, want) && strstr(out, " error: ");
		if (!ok || !cli)
			printf("\n  FAIL %s:\n    plat_load: %s\n    netsim: %s", cases[i][0], msg,
			       out ? out : "(nothing)");
		CU_ASSERT(ok && cli);
		free(out);
		unlink(log);
		if (i == 1)
			rmdir(path);
		else
			unlink(path);
	}
	rmdir(dir);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("platform corpus", NULL, NULL);
	CU_add_test(s, "each file: SimGrid refuses => plat_load refuses, with its line",
	            test_corpus);
	CU_add_test(s, "no platform at all: one clean line", test_not_platforms);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

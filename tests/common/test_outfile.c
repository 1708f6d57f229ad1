/* common/outfile: regular targets replaced atomically (a symbolic link kept
 * and its target replaced, a dangling one's target created, permission bits
 * kept), FIFOs, character devices and open descriptors written directly on
 * commit and never replaced, directories refused; no temporary left behind
 * in any case. */
#define _XOPEN_SOURCE 700 /* mknod */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../helpers.h"
#include "outfile.h"

/* A scratch folder, made by the suite's set-up and named by TMPDIR
 * (where direct targets' temporaries go): the process environment holds
 * it, no variable of this file. */
static const char *scratch(void)
{
	const char *d = getenv("TMPDIR");
	return d ? d : "/nonexistent";
}

static int setup(void)
{
	char dir[64];
	snprintf(dir, sizeof dir, "/tmp/test-outfile-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	return setenv("TMPDIR", dir, 1);
}

static int teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch());
	return system(cmd) == 0 ? 0 : -1;
}

static const char *in_dir(const char *name, char *buf, size_t n)
{
	snprintf(buf, n, "%s/%s", scratch(), name);
	return buf;
}

/* The names in the scratch folder, sorted, space-separated. */
static void listing(char *out, size_t n)
{
	char cmd[160];
	snprintf(cmd, sizeof cmd, "ls -A '%s' | sort | tr '\\n' ' '", scratch());
	FILE *p = popen(cmd, "r");
	size_t got = p ? fread(out, 1, n - 1, p) : 0;
	out[got] = '\0';
	if (p)
		pclose(p);
}

static int write_all(const char *path, const char *text, struct cmn_err *e)
{
	struct cmn_outfile o;
	int rc = cmn_outfile_open(&o, path, e);
	if (rc)
		return rc;
	fputs(text, o.f);
	return cmn_outfile_commit(&o, e);
}

static int is_text(const char *path, const char *text)
{
	char *s = th_read_file(path);
	int same = s && strcmp(s, text) == 0;
	free(s);
	return same;
}

static void test_regular(void)
{
	char p[128], l[256];
	struct cmn_err e;
	CU_ASSERT_EQUAL(write_all(in_dir("new.csv", p, sizeof p), "a\n", &e), 0);
	CU_ASSERT(is_text(p, "a\n"));
	chmod(p, 0640);
	CU_ASSERT_EQUAL(write_all(p, "b\n", &e), 0);
	CU_ASSERT(is_text(p, "b\n"));
	struct stat st;
	CU_ASSERT(stat(p, &st) == 0 && (st.st_mode & 07777) == 0640);
	listing(l, sizeof l);
	CU_ASSERT_STRING_EQUAL(l, "new.csv ");
	/* abort: the old file stays as it was */
	struct cmn_outfile o;
	CU_ASSERT_EQUAL_FATAL(cmn_outfile_open(&o, p, &e), 0);
	fputs("half", o.f);
	cmn_outfile_abort(&o);
	CU_ASSERT(is_text(p, "b\n"));
	listing(l, sizeof l);
	CU_ASSERT_STRING_EQUAL(l, "new.csv ");
	unlink(p);
}

static void test_links(void)
{
	char t[128], a[128], b[128], l[256];
	struct cmn_err e;
	in_dir("target.csv", t, sizeof t);
	in_dir("link.csv", a, sizeof a);
	in_dir("link2.csv", b, sizeof b);
	CU_ASSERT_EQUAL(write_all(t, "old\n", &e), 0);
	CU_ASSERT_EQUAL(symlink("target.csv", a), 0); /* relative, and a chain */
	CU_ASSERT_EQUAL(symlink(a, b), 0);
	CU_ASSERT_EQUAL(write_all(b, "new\n", &e), 0);
	struct stat st;
	CU_ASSERT(lstat(a, &st) == 0 && S_ISLNK(st.st_mode));
	CU_ASSERT(lstat(b, &st) == 0 && S_ISLNK(st.st_mode));
	CU_ASSERT(is_text(t, "new\n"));
	unlink(t); /* now both dangle: the target is created */
	CU_ASSERT_EQUAL(write_all(a, "created\n", &e), 0);
	CU_ASSERT(lstat(a, &st) == 0 && S_ISLNK(st.st_mode));
	CU_ASSERT(is_text(t, "created\n"));
	listing(l, sizeof l);
	CU_ASSERT_STRING_EQUAL(l, "link.csv link2.csv target.csv ");
	unlink(a), unlink(b), unlink(t);
	/* a loop of links is an error */
	CU_ASSERT_EQUAL(symlink("link2.csv", a), 0);
	CU_ASSERT_EQUAL(symlink("link.csv", b), 0);
	CU_ASSERT_EQUAL(write_all(a, "x", &e), CMN_EIO);
	unlink(a), unlink(b);
}

static void test_refused(void)
{
	char p[128], l[256];
	struct cmn_err e;
	struct cmn_outfile o;
	CU_ASSERT_EQUAL(mkdir(in_dir("adir", p, sizeof p), 0777), 0);
	CU_ASSERT_EQUAL(cmn_outfile_open(&o, p, &e), CMN_EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "adir: cannot write: is a directory"));
	CU_ASSERT_EQUAL(cmn_outfile_reserve(&o, p, &e), CMN_EIO);
	listing(l, sizeof l);
	CU_ASSERT_STRING_EQUAL(l, "adir ");
	rmdir(p);
	CU_ASSERT_EQUAL(cmn_outfile_open(&o, in_dir("no/such/dir.csv", p, sizeof p), &e), CMN_EIO);
	CU_ASSERT_EQUAL(cmn_outfile_open(&o, "", &e), CMN_EIO);
	/* a descriptor open for reading only */
	int fd = open("/dev/null", O_RDONLY);
	snprintf(p, sizeof p, "/dev/fd/%d", fd);
	CU_ASSERT_EQUAL(cmn_outfile_open(&o, p, &e), CMN_EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "is not open for writing"));
	close(fd);
	listing(l, sizeof l);
	CU_ASSERT_STRING_EQUAL(l, "");
}

/* The data written through /dev/fd/N of a pipe arrive on commit only. */
static void test_descriptor(void)
{
	int p[2];
	CU_ASSERT_EQUAL_FATAL(pipe(p), 0);
	char name[32], buf[64] = "", l[256];
	snprintf(name, sizeof name, "/dev/fd/%d", p[1]);
	struct cmn_err e;
	struct cmn_outfile o;
	CU_ASSERT_EQUAL_FATAL(cmn_outfile_open(&o, name, &e), 0);
	fputs("piped\n", o.f);
	fflush(o.f);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	CU_ASSERT_EQUAL(read(p[0], buf, sizeof buf), -1); /* nothing before commit */
	CU_ASSERT_EQUAL(cmn_outfile_commit(&o, &e), 0);
	CU_ASSERT_EQUAL(read(p[0], buf, sizeof buf), 6);
	CU_ASSERT_EQUAL(memcmp(buf, "piped\n", 6), 0);
	/* abort: nothing reaches the pipe */
	CU_ASSERT_EQUAL_FATAL(cmn_outfile_open(&o, name, &e), 0);
	fputs("never\n", o.f);
	cmn_outfile_abort(&o);
	CU_ASSERT_EQUAL(read(p[0], buf, sizeof buf), -1);
	/* the reader gone: an error, not a SIGPIPE that kills this test */
	close(p[0]);
	CU_ASSERT_EQUAL_FATAL(cmn_outfile_open(&o, name, &e), 0);
	fputs("lost\n", o.f);
	CU_ASSERT_EQUAL(cmn_outfile_commit(&o, &e), CMN_EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "Broken pipe"));
	sigset_t pending;
	sigpending(&pending);
	CU_ASSERT_FALSE(sigismember(&pending, SIGPIPE));
	close(p[1]);
	listing(l, sizeof l);
	CU_ASSERT_STRING_EQUAL(l, "");
}

/* A FIFO with a reader (a child copying it to a file): written, kept. */
static void test_fifo(void)
{
	char f[128], got[128], l[256];
	in_dir("fifo", f, sizeof f);
	in_dir("got.txt", got, sizeof got);
	CU_ASSERT_EQUAL_FATAL(mkfifo(f, 0666), 0);
	for (int reserve = 0; reserve < 2; reserve++) {
		pid_t pid = fork();
		if (pid == 0) {
			char cmd[300];
			snprintf(cmd, sizeof cmd, "cat '%s' > '%s'", f, got);
			_exit(system(cmd) == 0 ? 0 : 1);
		}
		struct cmn_err e;
		struct cmn_outfile o;
		int rc = reserve ? cmn_outfile_reserve(&o, f, &e) : cmn_outfile_open(&o, f, &e);
		CU_ASSERT_EQUAL_FATAL(rc, 0);
		if (reserve) { /* another program writes the temporary */
			FILE *w = fopen(o.tmp, "w");
			CU_ASSERT_PTR_NOT_NULL_FATAL(w);
			fputs("drawn\n", w);
			fclose(w);
		} else {
			fputs("through a fifo\n", o.f);
		}
		CU_ASSERT_EQUAL(cmn_outfile_commit(&o, &e), 0);
		int st;
		waitpid(pid, &st, 0);
		CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		CU_ASSERT(is_text(got, reserve ? "drawn\n" : "through a fifo\n"));
		struct stat s;
		CU_ASSERT(lstat(f, &s) == 0 && S_ISFIFO(s.st_mode));
		unlink(got);
	}
	listing(l, sizeof l);
	CU_ASSERT_STRING_EQUAL(l, "fifo ");
	unlink(f);
}

/* Character devices: as root, private nodes in the scratch folder (a build
 * that replaced its target would otherwise replace /dev/null itself); as
 * another user the system's, which it may not replace. */
static void test_devices(void)
{
	struct cmn_err e;
	char null[128], full[128], l[256];
	in_dir("null", null, sizeof null);
	in_dir("full", full, sizeof full);
	if (geteuid() != 0) {
		snprintf(null, sizeof null, "/dev/null");
		snprintf(full, sizeof full, "/dev/full");
	} else if (mknod(null, S_IFCHR | 0666, makedev(1, 3)) != 0 ||
	           mknod(full, S_IFCHR | 0666, makedev(1, 7)) != 0) {
		fprintf(stderr, "\n  SKIP character devices: root, and mknod failed: %s\n",
		        strerror(errno));
		unlink(null);
		return;
	}
	CU_ASSERT_EQUAL(write_all(null, "gone\n", &e), 0);
	struct stat st;
	CU_ASSERT(stat(null, &st) == 0 && S_ISCHR(st.st_mode));
	CU_ASSERT_EQUAL(write_all(full, "no room\n", &e), CMN_EIO);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "full: cannot write: No space left"));
	CU_ASSERT(stat(full, &st) == 0 && S_ISCHR(st.st_mode));
	if (geteuid() == 0)
		unlink(null), unlink(full);
	listing(l, sizeof l);
	CU_ASSERT_STRING_EQUAL(l, "");
}

static void test_install(void)
{
	char src[128], t[128], a[128], l[256];
	struct cmn_err e;
	CU_ASSERT_EQUAL(write_all(in_dir("src.csv", src, sizeof src), "staged\n", &e), 0);
	CU_ASSERT_EQUAL(write_all(in_dir("t.csv", t, sizeof t), "old\n", &e), 0);
	CU_ASSERT_EQUAL(symlink("t.csv", in_dir("a.csv", a, sizeof a)), 0);
	CU_ASSERT_EQUAL(cmn_outfile_install(src, a, &e), 0);
	CU_ASSERT(is_text(t, "staged\n"));
	CU_ASSERT(is_text(src, "staged\n"));
	listing(l, sizeof l);
	CU_ASSERT_STRING_EQUAL(l, "a.csv src.csv t.csv ");
	unlink(src), unlink(t), unlink(a);
}

/* The tools' one rule: an output never an input, two outputs never one
 * file (through a link too); absent paths skipped. */
static void test_check_paths(void)
{
	char dir[] = "/tmp/placesim-paths-XXXXXX", in[300], link[300], a[300], b[300];
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	snprintf(in, sizeof in, "%s/in.swf", dir);
	snprintf(link, sizeof link, "%s/link.csv", dir);
	snprintf(a, sizeof a, "%s/a.csv", dir);
	snprintf(b, sizeof b, "%s/./a.csv", dir);
	FILE *f = fopen(in, "w");
	CU_ASSERT_FATAL(f != NULL);
	fclose(f);
	CU_ASSERT_FATAL(symlink("in.swf", link) == 0);
	struct cmn_path ins[] = {{"the --workload file", in}, {"the --platform file", NULL}};
	struct cmn_path outs[] = {{"--jobs-out", a}, {"--summary-out", NULL}, {"--plot", link}};
	struct cmn_err e;
	CU_ASSERT_EQUAL(cmn_outfile_check_paths(outs, 3, ins, 2, &e), CMN_EUSAGE);
	CU_ASSERT(strstr(e.msg, "--plot ") &&
	          strstr(e.msg, "is the --workload file: an output never replaces an input"));
	outs[2].path = b; /* a new file named twice */
	CU_ASSERT_EQUAL(cmn_outfile_check_paths(outs, 3, ins, 2, &e), CMN_EUSAGE);
	CU_ASSERT(strstr(e.msg, "--jobs-out and --plot name the same file") != NULL);
	outs[2].path = NULL;
	CU_ASSERT_EQUAL(cmn_outfile_check_paths(outs, 3, ins, 2, &e), 0);
	unlink(link);
	unlink(in);
	rmdir(dir);
}

/* Whether folder dir holds a file named name. */
static int has(const char *dir, const char *name)
{
	char p[600];
	return snprintf(p, sizeof p, "%s/%s", dir, name) < (int)sizeof p && access(p, F_OK) == 0;
}

static void touch_in(const char *dir, const char *name)
{
	char p[600];
	CU_ASSERT_FATAL(snprintf(p, sizeof p, "%s/%s", dir, name) < (int)sizeof p);
	FILE *f = fopen(p, "w");
	CU_ASSERT_FATAL(f != NULL);
	fclose(f);
}

/* Many outputs into one folder: cmn_outfile_sweep removes the stale
 * temporaries of every target there once (this host's, process gone),
 * and cmn_outfile_open_swept does not look for its own, as
 * cmn_outfile_open does. */
static void test_sweep(void)
{
	char dir[300], host[128], name[6][300];
	in_dir("sweep", dir, sizeof dir);
	CU_ASSERT_FATAL(mkdir(dir, 0777) == 0);
	if (gethostname(host, sizeof host - 1) != 0)
		snprintf(host, sizeof host, "host");
	host[sizeof host - 1] = '\0';
	for (char *c = host; *c; c++)
		*c = *c == '.' || *c == '/' ? '_' : *c;
	pid_t dead = fork(); /* a process that has ended */
	CU_ASSERT_FATAL(dead >= 0);
	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	snprintf(name[0], 300, "rank-1.txt.tmp.%ld.%s.abcdef", (long)dead, host);
	snprintf(name[1], 300, "x.tmp.y.csv.tmp.%ld.%s.ghijkl", (long)dead, host);
	snprintf(name[2], 300, "rank-2.txt.tmp.%ld.%s.mnopqr", (long)getpid(), host); /* alive */
	snprintf(name[3], 300, "rank-3.txt.tmp.%ld.otherhost.stuvwx", (long)dead);
	snprintf(name[4], 300, "rank-4.txt.tmp.%ld.%s.toolong7", (long)dead, host);
	snprintf(name[5], 300, "rank-5.txt.tmp.%ld.%s.zzzzzz", (long)dead, host);
	for (int i = 0; i < 5; i++)
		touch_in(dir, name[i]);
	touch_in(dir, "rank-0.txt");
	cmn_outfile_sweep(dir);
	CU_ASSERT(!has(dir, name[0]) && !has(dir, name[1]));
	CU_ASSERT(has(dir, name[2]) && has(dir, name[3]) && has(dir, name[4]));
	CU_ASSERT(has(dir, "rank-0.txt"));
	char path[400];
	struct cmn_err e;
	struct cmn_outfile o;
	snprintf(path, sizeof path, "%s/rank-5.txt", dir);
	touch_in(dir, name[5]);
	CU_ASSERT_FATAL(cmn_outfile_open_swept(&o, path, &e) == 0);
	fputs("5\n", o.f);
	CU_ASSERT_FATAL(cmn_outfile_commit(&o, &e) == 0);
	CU_ASSERT(is_text(path, "5\n"));
	CU_ASSERT(has(dir, name[5])); /* not looked for */
	CU_ASSERT(write_all(path, "5\n", &e) == 0);
	CU_ASSERT(!has(dir, name[5])); /* cmn_outfile_open's own look */
	char cmd[400];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CU_ASSERT(system(cmd) == 0);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("outfile", setup, teardown);
	CU_add_test(s, "regular files: atomic, modes kept, abort keeps the old", test_regular);
	CU_add_test(s, "symbolic links: kept, their targets replaced or created", test_links);
	CU_add_test(s, "directories and read-only descriptors refused", test_refused);
	CU_add_test(s, "an open descriptor: written on commit, a closed pipe an error",
	            test_descriptor);
	CU_add_test(s, "a FIFO with a reader: written (open and reserve), kept", test_fifo);
	CU_add_test(s, "character devices written directly", test_devices);
	CU_add_test(s, "install: a staged file through the same rules", test_install);
	CU_add_test(s, "check_paths: outputs against inputs and each other", test_check_paths);
	CU_add_test(s, "sweep: stale temporaries of a folder removed once", test_sweep);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

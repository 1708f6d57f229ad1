/* apptraces: unpacking a trace archive in-process (untar.h): its limits
 * on members and bytes, and what a signal leaves (nothing). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../common/cleanup.h"
#include "../helpers.h"
#include "untar.h"

/* An archive of more members than allowed: refused at the first one
 * beyond, with what it unpacked removed. */
static void test_untar_members(void)
{
	char dir[] = "/tmp/placesim-untar-XXXXXX", out[] = "/tmp/placesim-untar-out-XXXXXX",
	     cmd[512], tar[600];
	CU_ASSERT_FATAL(mkdtemp(dir) && mkdtemp(out));
	snprintf(cmd, sizeof cmd,
	         "cd %s && for i in 1 2 3 4 5; do echo '0 init' > r$i.txt; done && "
	         "tar czf a.tar.gz r1.txt r2.txt r3.txt r4.txt r5.txt",
	         dir);
	CU_ASSERT_FATAL(system(cmd) == 0);
	snprintf(tar, sizeof tar, "%s/a.tar.gz", dir);
	struct trace_untar_max max = {3, 1LL << 30, 0};
	struct trace_unpacked u = {0};
	struct cmn_err e;
	CU_ASSERT(trace_untar_gz_max(tar, out, &max, &u, &e) != 0);
	CU_ASSERT(strstr(e.msg, "more than 3 members") != NULL);
	CU_ASSERT(u.members == 4 && u.n == 3);
	trace_unpacked_remove(&u);
	max.members = 5, max.bytes = 20; /* 5 files of 7 bytes: the third is refused */
	CU_ASSERT(trace_untar_gz_max(tar, out, &max, &u, &e) != 0);
	CU_ASSERT(strstr(e.msg, "member r3.txt: the archive unpacks to more than 20 bytes") !=
	          NULL);
	trace_unpacked_remove(&u);
	max.bytes = 35;
	CU_ASSERT(trace_untar_gz_max(tar, out, &max, &u, &e) == 0 && u.bytes == 35);
	trace_unpacked_remove(&u);
	snprintf(cmd, sizeof cmd, "rm -rf %s && rmdir %s", dir, out);
	CU_ASSERT(system(cmd) == 0);
}

/* A signal after an archive of 1,000 rank files is unpacked (as during
 * a trace's reading) leaves nothing: the folder unpacked into is
 * registered with everything in it, its subfolders too (each file took
 * one of the cleanup registry's 512 slots, and the files past them
 * stayed behind). */
static void test_untar_signal(void)
{
	char dir[] = "/tmp/placesim-sig-XXXXXX", cmd[600], tar[300], out[300];
	CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
	snprintf(cmd, sizeof cmd,
	         "cd %s && mkdir -p src/t.txt_files && cd src && for i in $(seq 0 999); do "
	         "echo '0 init' > t.txt_files/rank-$i.txt; done && echo x > t.txt && "
	         "tar czf ../a.tar.gz t.txt t.txt_files",
	         dir);
	CU_ASSERT_FATAL(system(cmd) == 0);
	snprintf(tar, sizeof tar, "%s/a.tar.gz", dir);
	snprintf(out, sizeof out, "%s/out", dir);
	CU_ASSERT_FATAL(mkdir(out, 0755) == 0);
	fflush(NULL);
	pid_t pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) { /* as trace_archive.c: the folder registered with its files */
		struct trace_unpacked u = {0};
		struct cmn_err e;
		if (cmn_cleanup_add_folder(out) || trace_untar_gz(tar, out, &u, &e) ||
		    u.members < 1001)
			_exit(3);
		raise(SIGTERM);
		_exit(4);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	CU_ASSERT(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
	CU_ASSERT(access(out, F_OK) != 0); /* the folder, its subfolder and every file gone */
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	CU_ASSERT(system(cmd) == 0);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("trace archives", NULL, NULL);
	CU_add_test(s, "an archive's members and bytes within limits", test_untar_members);
	CU_add_test(s, "a signal after 1,000 members unpacked leaves nothing", test_untar_signal);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

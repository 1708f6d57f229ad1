/* Test helpers (see helpers.h). */
#include "helpers.h"

#include <CUnit/Basic.h>
#include <fcntl.h>
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/cleanup.h"
#include "../platforms/platform.h"

struct js_workload *th_workload(void)
{
	return js_workload_new("test");
}

void th_add(struct js_workload *w, double submit, double run, double req, int size)
{
	struct js_job j;
	memset(&j, 0, sizeof j);
	for (int f = 0; f < JS_SWF_FIELDS; f++)
		j.f[f] = -1;
	j.id = w->n + 1;
	j.f[JS_F_JOB] = (double)(w->n + 1);
	j.f[JS_F_SUBMIT] = j.submit_s = submit;
	j.f[JS_F_RUN] = j.run_s = run;
	j.f[JS_F_REQ_TIME] = j.req_s = req;
	j.f[JS_F_ALLOC_PROCS] = j.f[JS_F_REQ_PROCS] = j.size = size;
	j.f[JS_F_STATUS] = 1;
	j.line = (uint32_t)(w->n + 1);
	CU_ASSERT_FATAL(js_workload_push(w, &j) == 0);
}

char *th_write_temp(const char *text, const char *suffix)
{
	char dir[256];
	cmn_tmp_name(dir, sizeof dir, "placesim-test"); /* in TMPDIR, else /tmp */
	if (!mkdtemp(dir))
		return NULL;
	char *path = malloc(512);
	snprintf(path, 512, "%s/input%s", dir, suffix);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0) {
		free(path);
		return NULL;
	}
	size_t len = strlen(text);
	if (write(fd, text, len) != (ssize_t)len) {
		close(fd);
		free(path);
		return NULL;
	}
	close(fd);
	return path;
}

void th_free_temp(char *path)
{
	if (!path)
		return;
	remove(path);
	char *slash = strrchr(path, '/');
	if (slash) {
		*slash = '\0';
		rmdir(path);
	}
	free(path);
}

int th_run_rt(const struct js_workload *w, int nodes, const char *sched, struct js_runtime *rt,
              const struct js_sim_opts *o, struct js_sim_result **res, struct cmn_err *e)
{
	return th_run_ops(w, nodes, sched, rt, NULL, o, res, e);
}

static int run_with(const struct js_workload *w, const char *machine, const char *alloc,
                    const char *sched, struct js_runtime *rt, const struct js_alloc_ops *alloc_ops,
                    const struct js_sim_opts *o, struct js_sim_result **res, struct cmn_err *e)
{
	struct plat_machine *m = NULL;
	struct js_alloc *a = NULL;
	struct js_sched *s = NULL;
	struct js_sim_opts def;
	js_sim_opts_default(&def);
	int rc = plat_machine_create(machine, &m, e);
	if (!rc)
		rc = js_alloc_create(alloc, m, &a, e);
	if (!rc && alloc_ops)
		a->ops = alloc_ops;
	if (!rc)
		rc = js_sched_create(sched, w->n, m->nodes, &s, e);
	if (!rc)
		rc = js_sim_run(w, a, s, rt, o ? o : &def, res, e);
	js_sched_destroy(s);
	js_alloc_destroy(a);
	plat_machine_destroy(m);
	return rc;
}

int th_run_spec(const struct js_workload *w, const char *machine, const char *alloc,
                const char *sched, struct js_runtime *rt, const struct js_sim_opts *o,
                struct js_sim_result **res, struct cmn_err *e)
{
	return run_with(w, machine, alloc, sched, rt, NULL, o, res, e);
}

int th_run_spec_ops(const struct js_workload *w, const char *machine, const char *alloc,
                    const struct js_alloc_ops *alloc_ops, const char *sched, struct js_runtime *rt,
                    const struct js_sim_opts *o, struct js_sim_result **res, struct cmn_err *e)
{
	return run_with(w, machine, alloc, sched, rt, alloc_ops, o, res, e);
}

int th_run_ops(const struct js_workload *w, int nodes, const char *sched, struct js_runtime *rt,
               const struct js_alloc_ops *alloc_ops, const struct js_sim_opts *o,
               struct js_sim_result **res, struct cmn_err *e)
{
	char spec[64];
	snprintf(spec, sizeof spec, "flat:nodes=%d", nodes);
	return run_with(w, spec, "first-free", sched, rt, alloc_ops, o, res, e);
}

int th_run(const struct js_workload *w, int nodes, const char *sched, const char *rt_spec,
           const struct js_sim_opts *o, struct js_sim_result **res, struct cmn_err *e)
{
	struct js_runtime *rt = NULL;
	int rc = js_runtime_create(rt_spec ? rt_spec : "log", &rt, e);
	if (!rc)
		rc = th_run_rt(w, nodes, sched, rt, o, res, e);
	js_runtime_destroy(rt);
	return rc;
}

char *th_read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	char *s = malloc((size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	if (s)
		s[n] = '\0';
	fclose(f);
	return s;
}

const char *th_shared_dir(void)
{
	static const char *const candidates[] = {SOURCE_DIR "/../shared", "../shared",
	                                         "../../shared"};
	struct stat st;
	for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++)
		if (stat(candidates[i], &st) == 0 && S_ISDIR(st.st_mode))
			return candidates[i];
	return NULL;
}

int th_in_child(void (*child)(void *ctx, int fd), void *ctx, double *out, int n)
{
	int fd[2];
	if (pipe(fd))
		return -1;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		close(fd[0]);
		child(ctx, fd[1]);
		_exit(1); /* child() returned instead of exiting */
	}
	close(fd[1]);
	int ok = pid > 0;
	for (int i = 0; ok && i < n; i++)
		ok = read(fd[0], &out[i], sizeof out[i]) == (ssize_t)sizeof out[i];
	close(fd[0]);
	int st = 0;
	if (pid > 0)
		waitpid(pid, &st, 0);
	return ok && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int th_main(int argc, char **argv, void (*add_suites)(void))
{
	(void)argc;
	(void)argv;
	gsl_set_error_handler_off();
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	add_suites();
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}

struct plat_machine *th_machine(const char *spec)
{
	struct plat_machine *m;
	struct cmn_err e;
	CU_ASSERT_FATAL(plat_machine_create(spec, &m, &e) == 0);
	return m;
}

struct plat_machine *th_machine_as(const char *spec, const char *name,
                                   struct plat_topology_ops *ops)
{
	struct plat_machine *m = th_machine(spec);
	*ops = *m->ops;
	ops->base.name = name;
	m->ops = ops;
	return m;
}

const char *th_sample(const struct cmn_plugin *p, int k)
{
	if (p->samples)
		return p->samples[k];
	return k == 0 ? p->name : NULL;
}

int th_samples(const void *const *registry, const char **out, int max)
{
	int n = 0;
	for (int i = 0; registry[i]; i++) {
		const struct cmn_plugin *p = registry[i];
		for (int k = 0; th_sample(p, k) && n < max; k++)
			out[n++] = th_sample(p, k);
	}
	CU_ASSERT(n > 0 && n < max);
	return n;
}

int th_write_exec_times(int fd, const struct js_sim_result *res, size_t njobs, struct cmn_err *e)
{
	for (size_t i = 0; i < njobs; i++) {
		double x = res->jobs[i].finish_s - res->jobs[i].start_s;
		if (write(fd, &x, sizeof x) != sizeof x)
			return cmn_err_set(e, CMN_EIO, "pipe");
	}
	return 0;
}

char *th_capture(void (*write)(FILE *f, const void *ctx), const void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	write(f, ctx);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

char *th_trace_pending(int n, int bytes, int reversed)
{
	size_t cap = (size_t)n * 4 * 48 + 1, len = 0;
	char *text = malloc(cap);
	const char *const line[4] = {"0 isend 1 %d %d\n", "1 irecv 0 %d %d\n", "1 wait 0 1 %d\n",
	                             "0 wait 0 1 %d\n"};
	for (int k = 0; text && k < 4; k++)
		for (int i = 0; i < n; i++) {
			int tag = !reversed ? 0 : k < 2 ? i : n - 1 - i;
			len += (size_t)snprintf(text + len, cap - len, line[k], tag, bytes);
		}
	if (text)
		text[len] = '\0';
	return text;
}

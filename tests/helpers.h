/* Test helpers: small workloads built in code or from SWF text, one-call
 * simulations, and the CUnit runner every test executable shares. */
#ifndef TEST_HELPERS_H
#define TEST_HELPERS_H

#include <CUnit/CUnit.h>

#include "../jobsched/alloc/alloc.h"
#include "../jobsched/metrics/metrics.h"
#include "../jobsched/runtime/runtime.h"
#include "../jobsched/sched/sched.h"
#include "../jobsched/sim/sim.h"
#include "../jobsched/workload/workload.h"

/* A workload of already-clean jobs: add with th_add (id = order of adding). */
struct js_workload *th_workload(void);
void th_add(struct js_workload *w, double submit, double run, double req, int size);

/* Writes text to a fresh temporary file (in a directory of its own under
 * /tmp); returns its malloc'ed path. th_free_temp removes the file and its
 * directory and frees the path (NULL: nothing). */
char *th_write_temp(const char *text, const char *suffix);
void th_free_temp(char *path);
/* A two-rank trace in which rank 0 posts n isends of `bytes` to rank 1,
 * rank 1 n irecvs, then each waits for all of them in the order posted,
 * or with `reversed` the newest first (message i with tag i) (malloc'ed
 * text; NULL out of memory): n requests pending at once. */
char *th_trace_pending(int n, int bytes, int reversed);
/* A file's whole content (malloc'ed, NUL-terminated), or NULL. */
char *th_read_file(const char *path);
/* What write(f, ctx) writes, as a string (the caller frees it), or NULL. */
char *th_capture(void (*write)(FILE *f, const void *ctx), const void *ctx);

/* Runs w on flat:nodes=N with the given specs; NULL rt means "log". */
int th_run(const struct js_workload *w, int nodes, const char *sched, const char *rt,
           const struct js_sim_opts *o, struct js_sim_result **res, struct cmn_err *e);
/* The same with a run-time model instance of the caller's. */
int th_run_rt(const struct js_workload *w, int nodes, const char *sched, struct js_runtime *rt,
              const struct js_sim_opts *o, struct js_sim_result **res, struct cmn_err *e);

/* Runs w on any machine and allocator specification. */
int th_run_spec(const struct js_workload *w, const char *machine, const char *alloc,
                const char *sched, struct js_runtime *rt, const struct js_sim_opts *o,
                struct js_sim_result **res, struct cmn_err *e);

/* The same with the allocator's ops replaced by alloc_ops. */
int th_run_spec_ops(const struct js_workload *w, const char *machine, const char *alloc,
                    const struct js_alloc_ops *alloc_ops, const char *sched, struct js_runtime *rt,
                    const struct js_sim_opts *o, struct js_sim_result **res, struct cmn_err *e);

/* The same with the allocator's ops replaced by alloc_ops (NULL: keep). */
int th_run_ops(const struct js_workload *w, int nodes, const char *sched, struct js_runtime *rt,
               const struct js_alloc_ops *alloc_ops, const struct js_sim_opts *o,
               struct js_sim_result **res, struct cmn_err *e);

/* ../shared/ next to the source tree, or NULL (the test then says it skips). */
const char *th_shared_dir(void);

/* Registers suites via the callback, runs them, returns the exit status. */
/* Runs child(ctx, fd) in a forked process (SimGrid's state, say, dies with
 * it): it writes n doubles to fd and ends with _exit; they are read into
 * out. 0 when all n arrived and the child exited with status 0, else -1. */
int th_in_child(void (*child)(void *ctx, int fd), void *ctx, double *out, int n);

/* Writes each job's execution time (finish - start, a double) to fd;
 * 0, or CMN_EIO in e. */
int th_write_exec_times(int fd, const struct js_sim_result *res, size_t njobs, struct cmn_err *e);

/* The k-th specification the contract suites run for a registry entry (k
 * from 0): its own samples (cmn_plugin.samples), or its name alone; NULL
 * past the last. */
const char *th_sample(const struct cmn_plugin *p, int k);
/* Every entry's samples of a NULL-terminated registry (entries start with
 * struct cmn_plugin), in registry order, into out (room for max); their
 * count, asserted to be between 1 and max - 1. */
int th_samples(const void *const *registry, const char **out, int max);

/* The machine of spec (a failed assertion, fatal, if it is not one);
 * destroy it with plat_machine_destroy. */
struct plat_machine *th_machine(const char *spec);

/* A machine of spec whose family is a copy of its own, named name, in
 * *ops (the caller's, to change: a family without some op). Destroy it
 * with plat_machine_destroy. */
struct plat_machine *th_machine_as(const char *spec, const char *name,
                                   struct plat_topology_ops *ops);

int th_main(int argc, char **argv, void (*add_suites)(void));

#endif

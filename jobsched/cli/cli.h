/* The scheduling simulator's command line, shared by jobsched and cosim
 * (which offers more run-time models and its study options): one option
 * table (common/options.h) parsed into struct js_cli (cli_parse.c), then
 * one run (cli.c). */
#ifndef JS_CLI_H
#define JS_CLI_H

#include "../../common/err.h"
#include "../../common/options.h"
#include "../../common/params.h"
#include "../runtime/runtime.h"
#include "../sim/sim.h"
#include "../workload/workload.h"

/* The most --alloc a command line may give (one for a run; cosim's study
 * runs each). */
#define JS_CLI_MAX_ALLOCS 32

/* A front end's options on top of jobsched's (cosim's study): keys of
 * their own (numbers from 1000, or short letters jobsched does not use),
 * handed to option() with the argument. */
struct plat_machine;

struct js_cli_ext {
	const struct cmn_opt *opts; /* ended by {NULL} */
	const char *usage;          /* usage line(s) added after jobsched's, or NULL */
	int (*option)(void *ctx, int key, const char *arg, struct cmn_err *e);
	void *ctx;
};

struct js_cli {
	const char *prog;                             /* "jobsched", "cosim" */
	const struct js_runtime_ops *const *runtimes; /* the run-time models offered */
	const char *workload, *synthetic, *machine, *platform, *sched, *runtime, *stats;
	/* The machine --platform names, already read by the caller and
	 * borrowed (cosim: any SimGrid platform, with its --hosts); NULL: the
	 * run reads --platform itself, which must then map onto a family. */
	const struct plat_machine *platform_machine;
	const char *alloc[JS_CLI_MAX_ALLOCS]; /* in the order given; "first-free" when none */
	int nalloc;
	const char *resize; /* resizing policy, NULL: static */
	double rs_pct;      /* --resizable: share of a log's jobs made resizable */
	int rs_iters;
	const char *resizable; /* as given */
	int runtime_given;
	const char *jobs_out, *summary_out, *series_out, *plot, *swf_out, *groups_out;
	enum js_queue_order order;
	struct js_priority prio;
	char order_spec[CMN_PARAM_STR * 2]; /* the order as echoed, with its weights */
	int kill, skip_bad, quiet, time_alloc, choose_nodes;
	int installed; /* --installed N, 0: every node */
	/* The first option given that --stats does not use ("jobs-out"), or
	 * NULL: with --stats a usage error, not ignored. */
	const char *not_for_stats;
	unsigned long seed;
	double gamma_s;
	struct js_clean_opts clean;
};

/* Parses argv into c (ext: NULL or a front end's own options). Returns 0,
 * CMN_CLI_HELP after printing the help or the version, or CMN_CLI_BAD after
 * printing a usage error (the exit status: cmn_cli_status). */
int js_cli_parse(int argc, char **argv, const char *prog,
                 const struct js_runtime_ops *const *runtimes, const struct js_cli_ext *ext,
                 struct js_cli *c);

/* The run c asks for (--stats, or one simulation with one allocator):
 * errors printed prefixed with c->prog; returns the exit status. */
int js_cli_run(const struct js_cli *c);

/* js_cli_parse then js_cli_run: jobsched's main. */
int js_cli_main(int argc, char **argv, const char *prog,
                const struct js_runtime_ops *const *runtimes);

#endif

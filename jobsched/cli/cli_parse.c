/* jobsched's and cosim's option table and its parsing into struct js_cli
 * (cli.h): the help, -h, --version and the usage error from
 * common/options.h; the values checked here, the specifications (machine,
 * scheduler, allocator, model) when the run resolves them. */
#include <string.h>

#include "../../common/number.h"
#include "../../platforms/platform.h"
#include "../alloc/alloc.h"
#include "../resize/resize.h"
#include "../sched/sched.h"
#include "../workload/synth.h"
#include "cli.h"

/* seed 004's aging priority: its weights (section 3.1; the paper does not
 * give them: by default Qfactor alone, which favours jobs with short
 * walltimes as they wait) */
static const struct cmn_param_def prio_params[] = {
    {"qfactor_w", CMN_PT_DOUBLE, "1", -1e9, 1e9, NULL, "weight of Qfactor"},
    {"qtime_w", CMN_PT_DOUBLE, "0", -1e9, 1e9, NULL, "weight of the queue time (s)"},
    {"nodes_w", CMN_PT_DOUBLE, "0", -1e9, 1e9, NULL, "weight of the nodes requested"},
    {"qfactor_limit", CMN_PT_DOUBLE, "1", 1e-9, 1e12, NULL,
     "Qfactor = 1 + queue time / max(qfactor_limit, walltime)"},
    {NULL},
};

/* --queue-order arrival | sjf | smallest | priority[:KEY=VALUE,...] */
static int parse_order(struct js_cli *c, const char *arg, struct cmn_err *e)
{
	static const char *const names[] = {"arrival", "sjf", "smallest"};
	for (int i = 0; i < 3; i++)
		if (!strcmp(arg, names[i])) {
			c->order = (enum js_queue_order)i;
			snprintf(c->order_spec, sizeof c->order_spec, "%s", names[i]);
			return 0;
		}
	if (strncmp(arg, "priority", 8) || (arg[8] && arg[8] != ':') || (arg[8] && !arg[9]))
		return cmn_err_set(e, CMN_EUSAGE,
		                   "--queue-order: '%s' is not arrival, sjf, smallest or "
		                   "priority[:qfactor_w=W,qtime_w=W,nodes_w=W,qfactor_limit=L]",
		                   arg);
	struct cmn_params p;
	if (cmn_params_parse(prio_params, arg[8] ? arg + 9 : NULL, &p, e)) {
		cmn_err_prefix(e, "--queue-order %s", arg);
		return e->code;
	}
	c->order = JS_ORDER_PRIORITY;
	c->prio = (struct js_priority){cmn_params_num(&p, "qfactor_w"),
	                               cmn_params_num(&p, "qtime_w"), cmn_params_num(&p, "nodes_w"),
	                               cmn_params_num(&p, "qfactor_limit")};
	cmn_params_format("priority", &p, c->order_spec, sizeof c->order_spec);
	return 0;
}

static int word_arg(const char *opt, const char *v, const char *a, const char *b, int *out,
                    struct cmn_err *e)
{
	if (strcmp(v, a) == 0)
		*out = 0;
	else if (strcmp(v, b) == 0)
		*out = 1;
	else
		return cmn_err_set(e, CMN_EUSAGE, "%s: '%s' is neither %s nor %s", opt, v, a, b);
	return 0;
}

/* --status: a comma-separated list of statuses -1..5 and "other" (every
 * status outside the SWF definition). */
static int status_arg(const char *v, unsigned *mask, struct cmn_err *e)
{
	*mask = 0;
	for (const char *p = v;; p++) {
		size_t len = strcspn(p, ",");
		char tok[32];
		snprintf(tok, sizeof tok, "%.*s", (int)(len < sizeof tok ? len : sizeof tok - 1),
		         p);
		long long st = 0;
		unsigned bit;
		if (strcmp(tok, "other") == 0)
			bit = JS_STATUS_OTHER;
		else if (len == 0 || len >= sizeof tok ||
		         cmn_num_int(tok, -1, 5, &st) != CMN_NUM_OK)
			return cmn_err_set(e, CMN_EUSAGE,
			                   "--status: '%.*s' is not a status -1..5 or 'other'",
			                   (int)(len > 40 ? 40 : len), p);
		else
			bit = 1u << ((int)st + 1);
		if (*mask & bit) /* a slip: the user meant another status */
			return cmn_err_set(e, CMN_EUSAGE, "--status: '%s' listed twice", tok);
		*mask |= bit;
		p += len;
		if (!*p)
			break;
	}
	return 0;
}

/* --window FROM:TO: submit times in seconds, 0 <= FROM < TO. */
static int window_arg(const char *v, struct js_clean_opts *o, struct cmn_err *e)
{
	const char *colon = strchr(v, ':');
	char from[64];
	if (!colon || (size_t)(colon - v) >= sizeof from)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "--window: '%s' is not FROM:TO (submit times in seconds, e.g. "
		                   "0:86400)",
		                   v);
	snprintf(from, sizeof from, "%.*s", (int)(colon - v), v);
	double a, b;
	if (cmn_opt_real("--window FROM", from, 0, 1e15, &a, e) ||
	    cmn_opt_real("--window TO", colon + 1, 0, 1e15, &b, e))
		return e->code;
	if (!(a < b))
		return cmn_err_set(e, CMN_EUSAGE,
		                   "--window %s: FROM must be less than TO (the window [FROM, TO) "
		                   "would keep no job)",
		                   v);
	o->window_from_s = a;
	o->window_to_s = b;
	return 0;
}

/* --resizable P:K: a percentage and an iteration count. */
static int parse_resizable(struct js_cli *c, const char *arg, struct cmn_err *e)
{
	const char *colon = strchr(arg, ':');
	char pct[64];
	double p = 0;
	long long k = 0;
	int ok = colon && (size_t)(colon - arg) < sizeof pct;
	if (ok) {
		snprintf(pct, sizeof pct, "%.*s", (int)(colon - arg), arg);
		ok = cmn_num_real(pct, 0, 100, &p) == CMN_NUM_OK &&
		     cmn_num_int(colon + 1, 2, 65535, &k) == CMN_NUM_OK;
	}
	if (!ok)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "--resizable: '%s' is not P:K (a percentage 0..100 and 2..65535 "
		                   "iterations)",
		                   arg);
	c->rs_pct = p;
	c->rs_iters = (int)k;
	c->resizable = arg;
	return 0;
}

enum {
	O_WORKLOAD = 256,
	O_SYNTH,
	O_STATS,
	O_SWF_OUT,
	O_MACHINE,
	O_PLATFORM,
	O_SCHED,
	O_ALLOC,
	O_RUNTIME,
	O_ORDER,
	O_RESIZE,
	O_RESIZABLE,
	O_KILL,
	O_SEED,
	O_GAMMA,
	O_TIME_ALLOC,
	O_CHOOSE_NODES,
	O_INSTALLED,
	O_SKIP_BAD,
	O_SIZE_FIELD,
	O_OVERSIZE,
	O_ZERO_RUN,
	O_OVERRUN,
	O_PPN,
	O_STATUS,
	O_WINDOW,
	O_OFFSET,
	O_FIRST,
	O_AMULT,
	O_RCOEF,
	O_JOBS_OUT,
	O_SUMMARY_OUT,
	O_GROUPS_OUT,
	O_SERIES_OUT,
	O_PLOT,
	O_QUIET
};

static const struct cmn_opt opts[] = {
    CMN_OPT_SECTION("input"),
    {"workload", O_WORKLOAD, "FILE", "SWF log or Batsim JSON workload, plain or gzip'ed"},
    {"synthetic", O_SYNTH, "SPEC", "generated workload (models below)"},
    {"stats", O_STATS, "FILE",
     "print workload statistics of an SWF log or Batsim workload and exit"},
    {"swf-out", O_SWF_OUT, "FILE", "write the cleaned (or generated) workload as SWF"},
    CMN_OPT_SECTION("simulation"),
    {"machine", O_MACHINE, "SPEC", "machine (families below), e.g. flat:nodes=256"},
    {"platform", O_PLATFORM, "FILE.xml", "or a SimGrid platform (clusters, platgen's files)"},
    {"sched", O_SCHED, "SPEC", "scheduler (default easy)"},
    {"alloc", O_ALLOC, "SPEC", "allocator (default first-free)"},
    {"runtime", O_RUNTIME, "SPEC", "run-time model (default log)"},
    {"queue-order", O_ORDER, "ORDER",
     "arrival (default) | sjf | smallest | priority[:qfactor_w=W,\n"
     "qtime_w=W,nodes_w=W,qfactor_limit=L] (seed 004 aging)"},
    {"resize", O_RESIZE, "SPEC",
     "resizing policy for resizable jobs (seed 004; policies\n"
     "below), or none (default: every job keeps its size);\n"
     "with a policy the run-time model defaults to reshape"},
    {"resizable", O_RESIZABLE, "P:K",
     "make P % of a log's jobs resizable, K iterations each\n"
     "(chosen by a hash of --seed and the job number)"},
    {"kill", O_KILL, NULL, "end jobs when they reach their requested time"},
    {"seed", O_SEED, "N", "random seed (synthetic workloads; default 1)"},
    {"gamma", O_GAMMA, "S", "bounded slowdown threshold in s (default 10)"},
    {"time-alloc", O_TIME_ALLOC, NULL,
     "time every allocator decision (summary columns; the\n"
     "times vary from run to run)"},
    {"choose-nodes", O_CHOOSE_NODES, NULL,
     "the allocator chooses every job's nodes even when\n"
     "nothing reads them (to time it; same schedule)"},
    {"installed", O_INSTALLED, "N",
     "only nodes 0..N-1 of the machine take jobs (a log's\n"
     "machine on a larger tree, as seed 000) [all]"},
    CMN_OPT_SECTION("cleaning (defaults in brackets)"),
    {"skip-bad", O_SKIP_BAD, NULL, "count and skip malformed lines [error]"},
    {"size-field", O_SIZE_FIELD, "F", "allocated | requested [allocated; the other if -1]"},
    {"oversize", O_OVERSIZE, "P", "skip | clamp jobs larger than the machine [skip]"},
    {"zero-runtime", O_ZERO_RUN, "P", "keep | skip jobs with run time 0 [keep]"},
    {"overrun", O_OVERRUN, "P",
     "run time > requested time: keep | clamp the run time |\n"
     "raise the requested time [keep]"},
    {"procs-per-node", O_PPN, "N", "processors per node, or auto (MaxProcs/MaxNodes) [1]"},
    {"status", O_STATUS, "LIST",
     "statuses to keep, e.g. 1,0,5; 'other': those outside\n"
     "the SWF's -1..5 [all]"},
    {"window", O_WINDOW, "FROM:TO", "keep jobs submitted in [FROM, TO) seconds [all]"},
    {"offset", O_OFFSET, "N", "skip the first N cleaned jobs [0]"},
    {"first", O_FIRST, "N", "keep only N cleaned jobs after the offset [all]"},
    {"arrival-mult", O_AMULT, "X", "multiply submit times (seed 002) [1]"},
    {"runtime-coef", O_RCOEF, "C", "multiply run and requested times (seed 003) [1]"},
    CMN_OPT_SECTION("outputs (written whole or not at all)"),
    {"jobs-out", O_JOBS_OUT, "FILE", "per-job CSV"},
    {"summary-out", O_SUMMARY_OUT, "FILE", "summary CSV (one header row, one value row)"},
    {"groups-out", O_GROUPS_OUT, "FILE", "means by requested size and by user priority, CSV"},
    {"series-out", O_SERIES_OUT, "FILE", "utilization and queue over time, CSV"},
    {"plot", O_PLOT, "FILE.png", "plot of utilization and queue length (gnuplot)"},
    {"quiet", O_QUIET, NULL, "no progress on stderr"},
    {NULL, 0, NULL, NULL}};

/* What --help prints after the options: the registries. */
static void registries(FILE *f, const void *ctx)
{
	const struct js_cli *c = ctx;
	cmn_registry_help(f, (const void *const *)plat_topology_registry, "machine");
	cmn_registry_help(f, (const void *const *)js_sched_registry, "scheduler");
	cmn_registry_help(f, (const void *const *)js_alloc_registry, "allocator");
	cmn_registry_help(f, (const void *const *)c->runtimes, "run-time model");
	cmn_registry_help(f, (const void *const *)js_synth_registry, "synthetic model");
	cmn_registry_help(f, (const void *const *)js_resize_registry, "resizing policy");
}

static void defaults(struct js_cli *c, const char *prog,
                     const struct js_runtime_ops *const *runtimes)
{
	memset(c, 0, sizeof *c);
	c->prog = prog;
	c->runtimes = runtimes;
	c->sched = "easy";
	c->runtime = "log";
	c->seed = 1;
	snprintf(c->order_spec, sizeof c->order_spec, "arrival");
	c->prio = (struct js_priority){1, 0, 0, 1};
	c->gamma_s = 10;
	js_clean_opts_default(&c->clean);
}

/* One of jobsched's options: 0 or an error code. */
static int option(struct js_cli *c, int k, const char *arg, struct cmn_err *e)
{
	long long x = 0;
	int w = 0, rc = 0;
	switch (k) {
	case O_WORKLOAD: c->workload = arg; break;
	case O_SYNTH: c->synthetic = arg; break;
	case O_STATS: c->stats = arg; break;
	case O_SWF_OUT: c->swf_out = arg; break;
	case O_GROUPS_OUT: c->groups_out = arg; break;
	case O_MACHINE: c->machine = arg; break;
	case O_PLATFORM: c->platform = arg; break;
	case O_SCHED: c->sched = arg; break;
	case O_ALLOC:
		if (c->nalloc == JS_CLI_MAX_ALLOCS)
			return cmn_err_set(e, CMN_EUSAGE, "--alloc: at most %d", JS_CLI_MAX_ALLOCS);
		c->alloc[c->nalloc++] = arg;
		break;
	case O_RUNTIME:
		c->runtime = arg;
		c->runtime_given = 1;
		break;
	case O_RESIZE: c->resize = strcmp(arg, "none") ? arg : NULL; break;
	case O_RESIZABLE: return parse_resizable(c, arg, e);
	case O_ORDER: return parse_order(c, arg, e);
	case O_KILL: c->kill = 1; break;
	case O_SEED:
		rc = cmn_opt_int("--seed", arg, 0, 4294967295LL, &x, e);
		c->seed = (unsigned long)x;
		break;
	case O_GAMMA: return cmn_opt_real("--gamma", arg, 0, 1e12, &c->gamma_s, e);
	case O_SKIP_BAD: c->skip_bad = 1; break;
	case O_SIZE_FIELD:
		rc = word_arg("--size-field", arg, "allocated", "requested", &w, e);
		c->clean.size_field = w ? JS_SIZE_REQUESTED : JS_SIZE_ALLOCATED;
		break;
	case O_OVERSIZE:
		rc = word_arg("--oversize", arg, "skip", "clamp", &w, e);
		c->clean.oversize = w ? JS_OVERSIZE_CLAMP : JS_OVERSIZE_SKIP;
		break;
	case O_ZERO_RUN:
		return word_arg("--zero-runtime", arg, "keep", "skip", &c->clean.skip_zero_run, e);
	case O_OVERRUN:
		if (strcmp(arg, "keep") && strcmp(arg, "clamp") && strcmp(arg, "raise"))
			return cmn_err_set(e, CMN_EUSAGE,
			                   "--overrun: '%s' is not keep, clamp or raise", arg);
		c->clean.overrun = arg[0] == 'k'   ? JS_OVERRUN_KEEP
		                   : arg[0] == 'c' ? JS_OVERRUN_CLAMP
		                                   : JS_OVERRUN_RAISE;
		break;
	case O_PPN:
		if (strcmp(arg, "auto") == 0) {
			c->clean.procs_per_node = 0;
			break;
		}
		rc = cmn_opt_int("--procs-per-node", arg, 1, 1 << 20, &x, e);
		c->clean.procs_per_node = (int)x;
		break;
	case O_STATUS: return status_arg(arg, &c->clean.status_mask, e);
	case O_WINDOW: return window_arg(arg, &c->clean, e);
	case O_OFFSET:
		rc = cmn_opt_int("--offset", arg, 0, 1000000000000LL, &x, e);
		c->clean.offset = (long)x;
		break;
	case O_FIRST:
		rc = cmn_opt_int("--first", arg, 1, 1000000000000LL, &x, e);
		c->clean.first = (long)x;
		break;
	case O_AMULT:
		return cmn_opt_real("--arrival-mult", arg, 1e-9, 1e9, &c->clean.arrival_mult, e);
	case O_RCOEF:
		return cmn_opt_real("--runtime-coef", arg, 1e-9, 1e9, &c->clean.runtime_coef, e);
	case O_JOBS_OUT: c->jobs_out = arg; break;
	case O_SUMMARY_OUT: c->summary_out = arg; break;
	case O_SERIES_OUT: c->series_out = arg; break;
	case O_PLOT: c->plot = arg; break;
	case O_QUIET: c->quiet = 1; break;
	case O_TIME_ALLOC: c->time_alloc = 1; break;
	case O_CHOOSE_NODES: c->choose_nodes = 1; break;
	case O_INSTALLED:
		rc = cmn_opt_int("--installed", arg, 1, 1 << 30, &x, e);
		c->installed = (int)x;
		break;
	default: return cmn_err_set(e, CMN_ESTATE, "option key %d has no handler", k);
	}
	return rc;
}

/* 1 for the options --stats uses: the machine's size (P of seed 000's
 * load), the reading and cleaning options, --quiet (it has nothing to
 * quiet); every other is for a simulation. */
static int stats_uses(int k)
{
	return k == O_STATS || k == O_MACHINE || k == O_INSTALLED || k == O_QUIET ||
	       (k >= O_SKIP_BAD && k <= O_RCOEF);
}

/* What the options given must say together. */
static int check(const struct js_cli *c, struct cmn_err *e)
{
	if (c->stats) {
		if (c->workload || c->synthetic)
			return cmn_err_set(e, CMN_EUSAGE, "--stats takes its own file");
		if (c->not_for_stats)
			return cmn_err_set(
			    e, CMN_EUSAGE,
			    "--%s with --stats: --stats prints a workload's statistics "
			    "and simulates nothing (it takes --machine, --installed, "
			    "the cleaning options and --quiet)",
			    c->not_for_stats);
		if (c->installed && !c->machine)
			return cmn_err_set(
			    e, CMN_EUSAGE,
			    "--installed %d with --stats: the installed nodes are the "
			    "first of --machine's; give --machine (or, for P = %d, "
			    "--machine flat:nodes=%d)",
			    c->installed, c->installed, c->installed);
		return 0;
	}
	if (!!c->workload == !!c->synthetic)
		return cmn_err_set(e, CMN_EUSAGE, "give exactly one of --workload and --synthetic");
	if (c->rs_iters && c->synthetic)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "--resizable is for logs (--workload); the reshape generator "
		                   "draws its own resizable share");
	if (!c->machine == !c->platform)
		return cmn_err_set(
		    e, CMN_EUSAGE,
		    "give one of --machine (e.g. flat:nodes=256) and --platform FILE.xml");
	return 0;
}

/* 1 when table lists key k. */
static int in_table(const struct cmn_opt *table, int k)
{
	for (const struct cmn_opt *o = table; o && o->name; o++)
		if (o->key == k)
			return 1;
	return 0;
}

int js_cli_parse(int argc, char **argv, const char *prog,
                 const struct js_runtime_ops *const *runtimes, const struct js_cli_ext *ext,
                 struct js_cli *c)
{
	defaults(c, prog, runtimes);
	/* the table: jobsched's, then the front end's */
	/* one entry more than the helper takes: a table too long is then
	 * refused by it (a bug of the tool), not cut short here */
	struct cmn_opt all[CMN_CLI_MAX_OPTS + 2];
	int n = 0;
	for (int t = 0; t < 2; t++)
		for (const struct cmn_opt *o = t ? (ext ? ext->opts : NULL) : opts;
		     o && o->name && n <= CMN_CLI_MAX_OPTS; o++)
			all[n++] = *o;
	all[n] = (struct cmn_opt){NULL, 0, NULL, NULL};
	char usage[1024];
	snprintf(usage, sizeof usage,
	         "usage: %s (--workload FILE | --synthetic SPEC) (--machine SPEC | --platform "
	         "FILE.xml)\n"
	         "                [options]\n"
	         "       %s --stats FILE [--machine SPEC] [cleaning options]\n%s",
	         prog, prog, ext && ext->usage ? ext->usage : "");
	/* --alloc: cosim's study takes one run per --alloc (a run refuses two) */
	static const char *const js_repeatable[] = {"alloc", NULL};
	const struct cmn_cli cli = {prog,
	                            usage,
	                            "Simulates a parallel job scheduler on a machine and writes "
	                            "per-job and summary\nmetrics.\n",
	                            all,
	                            registries,
	                            c,
	                            js_repeatable};
	struct cmn_err e;
	cmn_err_clear(&e);
	struct cmn_cli_iter it;
	cmn_cli_begin(&it, &cli, argc, argv);
	int k = 0, rc = 0;
	while (!rc && (k = cmn_cli_next(&it)) > 0) {
		int own = !(ext && in_table(ext->opts, k));
		const struct cmn_opt *o = opts;
		while (own && o->name && o->key != k)
			o++;
		/* a file named by nothing: refused here, naming the option (it
		 * would fail later as a file of no name, or as an I/O error) */
		if (own && o->arg && strncmp(o->arg, "FILE", 4) == 0 && !*it.arg)
			rc = cmn_err_set(&e, CMN_EUSAGE, "--%s: an empty file name", o->name);
		else
			rc = own ? option(c, k, it.arg, &e) : ext->option(ext->ctx, k, it.arg, &e);
		if (own && o->name && !c->not_for_stats && !stats_uses(k))
			c->not_for_stats = o->name;
	}
	if (!rc && k < 0)
		return k;
	if (!rc && it.first < argc)
		rc = cmn_err_set(&e, CMN_EUSAGE, "unexpected argument '%s'", argv[it.first]);
	if (!rc)
		rc = check(c, &e);
	if (rc) {
		cmn_cli_usage_error(&cli, "%s", e.msg);
		return CMN_CLI_BAD;
	}
	return 0;
}

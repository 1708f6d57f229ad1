/* The scheduling simulator's command line, shared by jobsched and cosim
 * (which offers more run-time models): js_cli_main() in cli.h. Reads an SWF log
 * or generates a synthetic workload, cleans it, simulates it with the
 * chosen scheduler, allocator and run-time model, and writes per-job,
 * summary and time-series CSV and a PNG plot. */
#include <getopt.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/gnuplot.h"
#include "../common/number.h"
#include "../common/outfile.h"
#include "../platforms/platform.h"
#include "../platforms/xml_read.h"
#include "alloc.h"
#include "cli.h"
#include "metrics.h"
#include "resize.h"
#include "runtime.h"
#include "sched.h"
#include "synth.h"

#ifndef PROJECT_VERSION
#define PROJECT_VERSION "unknown"
#endif

struct cli {
	const char *prog;                             /* "jobsched", "cosim" */
	const struct js_runtime_ops *const *runtimes; /* the run-time models offered */
	const char *workload, *synthetic, *machine, *platform, *sched, *alloc, *runtime, *stats;
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
	unsigned long seed;
	double gamma_s;
	struct js_clean_opts clean;
};

static void usage(FILE *f, const struct cli *c)
{
	fprintf(f,
	        "usage: %s (--workload FILE | --synthetic SPEC) (--machine SPEC | --platform "
	        "FILE.xml)\n"
	        "                [options]\n"
	        "       %s --stats FILE [--machine SPEC] [cleaning options]\n",
	        c->prog, c->prog);
	fprintf(
	    f,
	    "\n"
	    "Simulates a parallel job scheduler on a machine and writes per-job and summary\n"
	    "metrics.\n"
	    "\n"
	    "input:\n"
	    "  --workload FILE        SWF log, plain or gzip'ed\n"
	    "  --synthetic SPEC       generated workload (models below)\n"
	    "  --stats FILE           print workload statistics of an SWF log and exit\n"
	    "  --swf-out FILE         write the cleaned (or generated) workload as SWF\n"
	    "simulation:\n"
	    "  --machine SPEC         machine (families below), e.g. flat:nodes=256\n"
	    "  --platform FILE.xml    or a SimGrid platform (clusters, platgen's files)\n"
	    "  --sched SPEC           scheduler (default easy)\n"
	    "  --alloc SPEC           allocator (default first-free)\n"
	    "  --runtime SPEC         run-time model (default log)\n"
	    "  --queue-order ORDER    arrival (default) | sjf | smallest | priority[:qfactor_w=W,\n"
	    "                         qtime_w=W,nodes_w=W,qfactor_limit=L] (seed 004 aging)\n"
	    "  --resize SPEC          resizing policy for resizable jobs (seed 004; policies\n"
	    "                         below), or none (default: every job keeps its size);\n"
	    "                         with a policy the run-time model defaults to reshape\n"
	    "  --resizable P:K        make P %% of a log's jobs resizable, K iterations each\n"
	    "                         (chosen by a hash of --seed and the job number)\n"
	    "  --kill                 end jobs when they reach their requested time\n"
	    "  --seed N               random seed (synthetic workloads; default 1)\n"
	    "  --gamma S              bounded slowdown threshold in s (default 10)\n"
	    "  --time-alloc           time every allocator decision (summary columns; the\n"
	    "                         times vary from run to run)\n"
	    "  --choose-nodes         the allocator chooses every job's nodes even when\n"
	    "                         nothing reads them (to time it; same schedule)\n"
	    "  --installed N          only nodes 0..N-1 of the machine take jobs (a log's\n"
	    "                         machine on a larger tree, as seed 000) [all]\n"
	    "cleaning (defaults in brackets):\n"
	    "  --skip-bad             count and skip malformed lines [error]\n"
	    "  --size-field F         allocated | requested [allocated; the other if -1]\n"
	    "  --oversize P           skip | clamp jobs larger than the machine [skip]\n"
	    "  --zero-runtime P       keep | skip jobs with run time 0 [keep]\n"
	    "  --overrun P            run time > requested time: keep | clamp the run time |\n"
	    "                         raise the requested time [keep]\n"
	    "  --procs-per-node N     processors per node, or auto (MaxProcs/MaxNodes) [1]\n"
	    "  --status LIST          statuses to keep, e.g. 1,0,5; 'other': those outside\n"
	    "                         the SWF's -1..5 [all]\n"
	    "  --window FROM:TO       keep jobs submitted in [FROM, TO) seconds [all]\n"
	    "  --offset N             skip the first N cleaned jobs [0]\n"
	    "  --first N              keep only N cleaned jobs after the offset [all]\n"
	    "  --arrival-mult X       multiply submit times (seed 002) [1]\n"
	    "  --runtime-coef C       multiply run and requested times (seed 003) [1]\n"
	    "outputs (written whole or not at all):\n"
	    "  --jobs-out FILE        per-job CSV\n"
	    "  --summary-out FILE     summary CSV (one header row, one value row)\n"
	    "  --groups-out FILE      means by requested size and by user priority, CSV\n"
	    "  --series-out FILE      utilization and queue over time, CSV\n"
	    "  --plot FILE.png        plot of utilization and queue length (gnuplot)\n"
	    "  --quiet                no progress on stderr\n"
	    "  --help, --version\n\n");
	cmn_registry_help(f, (const void *const *)plat_topology_registry, "machine");
	cmn_registry_help(f, (const void *const *)js_sched_registry, "scheduler");
	cmn_registry_help(f, (const void *const *)js_alloc_registry, "allocator");
	cmn_registry_help(f, (const void *const *)c->runtimes, "run-time model");
	cmn_registry_help(f, (const void *const *)js_synth_registry, "synthetic model");
	cmn_registry_help(f, (const void *const *)js_resize_registry, "resizing policy");
}

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
static int parse_order(struct cli *c, const char *arg, struct cmn_err *e)
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
		if (strcmp(tok, "other") == 0)
			*mask |= JS_STATUS_OTHER;
		else if (len == 0 || len >= sizeof tok ||
		         cmn_num_int(tok, -1, 5, &st) != CMN_NUM_OK)
			return cmn_err_set(e, CMN_EUSAGE,
			                   "--status: '%.*s' is not a status -1..5 or 'other'",
			                   (int)(len > 40 ? 40 : len), p);
		else
			*mask |= 1u << ((int)st + 1);
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

enum {
	O_WORKLOAD = 256,
	O_SYNTH,
	O_STATS,
	O_SWF_OUT,
	O_MACHINE,
	O_SCHED,
	O_ALLOC,
	O_RUNTIME,
	O_ORDER,
	O_KILL,
	O_SEED,
	O_GAMMA,
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
	O_SERIES_OUT,
	O_PLOT,
	O_QUIET,
	O_HELP,
	O_VERSION,
	O_TIME_ALLOC,
	O_CHOOSE_NODES,
	O_INSTALLED,
	O_PLATFORM,
	O_RESIZE,
	O_GROUPS_OUT,
	O_RESIZABLE
};

static const struct option long_opts[] = {
    {"workload", 1, 0, O_WORKLOAD},
    {"synthetic", 1, 0, O_SYNTH},
    {"stats", 1, 0, O_STATS},
    {"swf-out", 1, 0, O_SWF_OUT},
    {"machine", 1, 0, O_MACHINE},
    {"sched", 1, 0, O_SCHED},
    {"alloc", 1, 0, O_ALLOC},
    {"runtime", 1, 0, O_RUNTIME},
    {"queue-order", 1, 0, O_ORDER},
    {"kill", 0, 0, O_KILL},
    {"seed", 1, 0, O_SEED},
    {"gamma", 1, 0, O_GAMMA},
    {"skip-bad", 0, 0, O_SKIP_BAD},
    {"size-field", 1, 0, O_SIZE_FIELD},
    {"oversize", 1, 0, O_OVERSIZE},
    {"zero-runtime", 1, 0, O_ZERO_RUN},
    {"overrun", 1, 0, O_OVERRUN},
    {"procs-per-node", 1, 0, O_PPN},
    {"status", 1, 0, O_STATUS},
    {"window", 1, 0, O_WINDOW},
    {"offset", 1, 0, O_OFFSET},
    {"first", 1, 0, O_FIRST},
    {"arrival-mult", 1, 0, O_AMULT},
    {"runtime-coef", 1, 0, O_RCOEF},
    {"jobs-out", 1, 0, O_JOBS_OUT},
    {"summary-out", 1, 0, O_SUMMARY_OUT},
    {"series-out", 1, 0, O_SERIES_OUT},
    {"plot", 1, 0, O_PLOT},
    {"quiet", 0, 0, O_QUIET},
    {"help", 0, 0, O_HELP},
    {"platform", 1, 0, O_PLATFORM},
    {"version", 0, 0, O_VERSION},
    {"time-alloc", 0, 0, O_TIME_ALLOC},
    {"choose-nodes", 0, 0, O_CHOOSE_NODES},
    {"installed", 1, 0, O_INSTALLED},
    {"resize", 1, 0, O_RESIZE},
    {"groups-out", 1, 0, O_GROUPS_OUT},
    {"resizable", 1, 0, O_RESIZABLE},
    {0, 0, 0, 0},
};

/* --resizable P:K: a percentage and an iteration count. */
static int parse_resizable(struct cli *c, const char *arg, struct cmn_err *e)
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

/* Returns 0, -1 for --help/--version (exit 0), or an error code. */
static int parse_args(int argc, char **argv, struct cli *c, struct cmn_err *e)
{
	const char *prog = c->prog;
	const struct js_runtime_ops *const *runtimes = c->runtimes;
	memset(c, 0, sizeof *c);
	c->prog = prog;
	c->runtimes = runtimes;
	c->sched = "easy";
	c->alloc = "first-free";
	c->runtime = "log";
	c->seed = 1;
	snprintf(c->order_spec, sizeof c->order_spec, "arrival");
	c->prio = (struct js_priority){1, 0, 0, 1};
	c->gamma_s = 10;
	js_clean_opts_default(&c->clean);
	int opt, rc = 0, w = 0;
	long long x = 0;
	opterr = 0;
	while (!rc && (opt = getopt_long(argc, argv, "", long_opts, NULL)) != -1) {
		switch (opt) {
		case O_WORKLOAD: c->workload = optarg; break;
		case O_SYNTH: c->synthetic = optarg; break;
		case O_STATS: c->stats = optarg; break;
		case O_SWF_OUT: c->swf_out = optarg; break;
		case O_GROUPS_OUT: c->groups_out = optarg; break;
		case O_MACHINE: c->machine = optarg; break;
		case O_PLATFORM: c->platform = optarg; break;
		case O_SCHED: c->sched = optarg; break;
		case O_ALLOC: c->alloc = optarg; break;
		case O_RUNTIME:
			c->runtime = optarg;
			c->runtime_given = 1;
			break;
		case O_RESIZE: c->resize = strcmp(optarg, "none") ? optarg : NULL; break;
		case O_RESIZABLE: rc = parse_resizable(c, optarg, e); break;
		case O_ORDER: rc = parse_order(c, optarg, e); break;
		case O_KILL: c->kill = 1; break;
		case O_SEED:
			rc = cmn_opt_int("--seed", optarg, 0, 4294967295LL, &x, e);
			c->seed = (unsigned long)x;
			break;
		case O_GAMMA: rc = cmn_opt_real("--gamma", optarg, 0, 1e12, &c->gamma_s, e); break;
		case O_SKIP_BAD: c->skip_bad = 1; break;
		case O_SIZE_FIELD:
			rc = word_arg("--size-field", optarg, "allocated", "requested", &w, e);
			c->clean.size_field = w ? JS_SIZE_REQUESTED : JS_SIZE_ALLOCATED;
			break;
		case O_OVERSIZE:
			rc = word_arg("--oversize", optarg, "skip", "clamp", &w, e);
			c->clean.oversize = w ? JS_OVERSIZE_CLAMP : JS_OVERSIZE_SKIP;
			break;
		case O_ZERO_RUN:
			rc = word_arg("--zero-runtime", optarg, "keep", "skip",
			              &c->clean.skip_zero_run, e);
			break;
		case O_OVERRUN:
			if (strcmp(optarg, "keep") == 0 || strcmp(optarg, "clamp") == 0 ||
			    strcmp(optarg, "raise") == 0)
				c->clean.overrun = optarg[0] == 'k'   ? JS_OVERRUN_KEEP
				                   : optarg[0] == 'c' ? JS_OVERRUN_CLAMP
				                                      : JS_OVERRUN_RAISE;
			else
				rc = cmn_err_set(e, CMN_EUSAGE,
				                 "--overrun: '%s' is not keep, clamp or raise",
				                 optarg);
			break;
		case O_PPN:
			if (strcmp(optarg, "auto") == 0) {
				c->clean.procs_per_node = 0;
			} else {
				rc = cmn_opt_int("--procs-per-node", optarg, 1, 1 << 20, &x, e);
				c->clean.procs_per_node = (int)x;
			}
			break;
		case O_STATUS: rc = status_arg(optarg, &c->clean.status_mask, e); break;
		case O_WINDOW: rc = window_arg(optarg, &c->clean, e); break;
		case O_OFFSET:
			rc = cmn_opt_int("--offset", optarg, 0, 1000000000000LL, &x, e);
			c->clean.offset = (long)x;
			break;
		case O_FIRST:
			rc = cmn_opt_int("--first", optarg, 1, 1000000000000LL, &x, e);
			c->clean.first = (long)x;
			break;
		case O_AMULT:
			rc = cmn_opt_real("--arrival-mult", optarg, 1e-9, 1e9,
			                  &c->clean.arrival_mult, e);
			break;
		case O_RCOEF:
			rc = cmn_opt_real("--runtime-coef", optarg, 1e-9, 1e9,
			                  &c->clean.runtime_coef, e);
			break;
		case O_JOBS_OUT: c->jobs_out = optarg; break;
		case O_SUMMARY_OUT: c->summary_out = optarg; break;
		case O_SERIES_OUT: c->series_out = optarg; break;
		case O_PLOT: c->plot = optarg; break;
		case O_QUIET: c->quiet = 1; break;
		case O_TIME_ALLOC: c->time_alloc = 1; break;
		case O_CHOOSE_NODES: c->choose_nodes = 1; break;
		case O_INSTALLED:
			rc = cmn_opt_int("--installed", optarg, 1, 1 << 30, &x, e);
			c->installed = (int)x;
			break;
		case O_HELP: usage(stdout, c); return -1;
		case O_VERSION: printf("%s %s\n", c->prog, PROJECT_VERSION); return -1;
		default:
			rc = cmn_err_set(e, CMN_EUSAGE, "unknown or incomplete option '%s'",
			                 argv[optind - 1]);
		}
	}
	if (rc)
		return rc;
	if (optind < argc)
		return cmn_err_set(e, CMN_EUSAGE, "unexpected argument '%s'", argv[optind]);
	if (c->stats) {
		if (c->workload || c->synthetic)
			return cmn_err_set(e, CMN_EUSAGE, "--stats takes its own file");
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

/* The nodes that take jobs: the machine's, or --installed's; an error when
 * --installed asks for more than the machine has. */
static int usable_nodes(const struct cli *c, const struct plat_machine *m, int *nodes,
                        struct cmn_err *e)
{
	*nodes = c->installed ? c->installed : m->nodes;
	if (c->installed > m->nodes)
		return cmn_err_set(e, CMN_EUSAGE, "--installed %d: the machine has %d nodes",
		                   c->installed, m->nodes);
	return 0;
}

static int load_workload(const struct cli *c, const struct plat_machine *m, struct js_workload **w,
                         struct cmn_err *e)
{
	int nodes;
	int rc = usable_nodes(c, m, &nodes, e);
	if (rc)
		return rc;
	rc = c->synthetic ? js_synth_generate(c->synthetic, c->seed, nodes, w, NULL, 0, e)
	                  : js_swf_read(c->workload, c->skip_bad, w, e);
	if (rc)
		return rc;
	if (!c->quiet) {
		char prefix[80];
		snprintf(prefix, sizeof prefix, "%s: note: ", c->prog);
		js_workload_print_notes(stderr, prefix, *w);
	}
	rc = js_clean(*w, &c->clean, nodes, e);
	if (!rc && c->rs_iters)
		js_make_resizable(*w, c->rs_pct, c->rs_iters, c->seed);
	if (rc) {
		js_workload_free(*w);
		*w = NULL;
	}
	return rc;
}

static int run_stats(const struct cli *c, struct cmn_err *e)
{
	struct js_workload *w;
	int rc = js_swf_read(c->stats, c->skip_bad, &w, e);
	if (rc)
		return rc;
	/* P of eq. 2 in nodes: the machine's, else the header's (MaxProcs /
	 * procs-per-node, or MaxNodes), else the largest job of the log. */
	int ppn;
	rc = js_clean_ppn(w, &c->clean, &ppn, e);
	if (rc) {
		js_workload_free(w);
		return rc;
	}
	long long procs = 0;
	struct plat_machine *m = NULL;
	if (c->machine) {
		rc = plat_machine_create(c->machine, &m, e);
		if (rc) {
			js_workload_free(w);
			return rc;
		}
		int nodes;
		rc = usable_nodes(c, m, &nodes, e);
		plat_machine_destroy(m);
		m = NULL;
		if (rc) {
			js_workload_free(w);
			return rc;
		}
		procs = nodes;
	} else if (w->hdr.max_procs > 0) {
		procs = w->hdr.max_procs / ppn;
	} else if (w->hdr.max_nodes > 0) {
		procs = w->hdr.max_nodes;
	}
	if (procs <= 0) {
		for (size_t i = 0; i < w->n; i++) {
			long long size = (long long)ceil(w->jobs[i].f[JS_F_ALLOC_PROCS] / ppn);
			if (size > procs)
				procs = size;
		}
	}
	plat_machine_destroy(m);
	rc = js_clean(w, &c->clean, (int)procs, e);
	struct js_wstats s;
	if (!rc)
		rc = js_wstats_compute(w, (int)procs, &s, e);
	if (!rc)
		js_wstats_print(stdout, &s, w);
	js_workload_free(w);
	return rc;
}

/* Draws utilization and queue length from the series CSV into png (a
 * temporary); shown is the name to report. gnuplot's messages go to stderr. */
static int run_gnuplot(const char *series, const char *png, const char *shown, const char *title,
                       int empty, struct cmn_err *e)
{
	FILE *g = popen("gnuplot 1>&2", "w");
	if (!g)
		return cmn_err_set(e, CMN_EIO, "%s: cannot run gnuplot", shown);
	fprintf(g, "set terminal pngcairo size 1000,700 font ',10'\nset output ");
	cmn_gp_str(g, png);
	fprintf(g, "\nset datafile separator ','\nset multiplot layout 2,1 title ");
	cmn_gp_str(g, title);
	fprintf(g, " noenhanced\nset grid\nset key below\nset ylabel 'utilization'\nset yrange "
	           "[0:1.05]\n");
	if (empty) /* nothing simulated: empty axes that say so */
		fprintf(g,
		        "set label 'no job simulated' at graph 0.5,0.5 center\n"
		        "plot [0:1] NaN notitle\nset ylabel 'queued jobs'\nset xlabel 'time (h)'\n"
		        "plot [0:1] NaN notitle\n");
	for (int k = 0; k < 2 && !empty; k++) {
		if (k)
			fprintf(
			    g,
			    "set ylabel 'queued jobs'\nset xlabel 'time (h)'\nset yrange [0:*]\n");
		fprintf(g, "plot ");
		cmn_gp_str(g, series);
		fprintf(g, " every ::1 using ($1/3600):%d with steps lw 1 %s\n", k ? 4 : 3,
		        k ? "lc 7 title 'queue length'" : "title 'busy nodes / nodes'");
	}
	fprintf(g, "unset multiplot\n");
	int st = pclose(g);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return cmn_err_set(e, CMN_EIO, "%s: gnuplot failed (is gnuplot-nox installed?)",
		                   shown);
	return 0;
}

enum { OUT_JOBS, OUT_SUMMARY, OUT_SERIES, OUT_PLOT, OUT_SWF, OUT_GROUPS, OUT_N };

/* What runs inside the run-time model's drive(): the simulation and every
 * output after it. */
struct run_ctx {
	const struct cli *c;
	const struct plat_machine *m;
	struct js_alloc *alloc;
	struct js_sched *sched;
	struct js_runtime *rt;
	const struct js_workload *w;
	const struct js_resize *resize;
};

static int run_and_write(void *ctx, struct cmn_err *e)
{
	const struct run_ctx *x = ctx;
	const struct cli *c = x->c;
	const struct plat_machine *m = x->m;
	struct js_alloc *alloc = x->alloc;
	struct js_sched *sched = x->sched;
	struct js_runtime *rt = x->rt;
	const struct js_workload *w = x->w;
	struct js_sim_result *res = NULL;
	int ppn = 1; /* the cleaning that made w resolved it already */
	if (w && js_clean_ppn(w, &c->clean, &ppn, e))
		return CMN_ESTATE;
	struct cmn_outfile out[OUT_N];
	memset(out, 0, sizeof out);
	int rc = 0;
	const char *paths[OUT_N] = {c->jobs_out, c->summary_out, c->series_out,
	                            c->plot,     c->swf_out,     c->groups_out};
	for (int k = 0; !rc && k < OUT_N; k++) /* gnuplot writes the plot itself */
		if (paths[k])
			rc = k == OUT_PLOT ? cmn_outfile_reserve(&out[k], paths[k], e)
			                   : cmn_outfile_open(&out[k], paths[k], e);
	struct cmn_outfile series_scratch = {0};
	FILE *series = out[OUT_SERIES].f;
	if (!rc && c->plot && !series) { /* the plot needs a series: a temporary one */
		rc = cmn_outfile_open(&series_scratch, c->plot, e);
		series = series_scratch.f;
	}
	if (!rc) {
		struct js_sim_opts o;
		js_sim_opts_default(&o);
		o.kill_at_req = c->kill;
		o.order = c->order;
		o.prio = c->prio;
		o.series = series;
		o.progress = !c->quiet && isatty(2);
		o.resize = x->resize;
		o.no_node_lists = !c->jobs_out && !c->summary_out; /* nothing prints them */
		o.choose_nodes = c->choose_nodes;
		o.installed = c->installed;
		rc = js_sim_run(w, alloc, sched, rt, &o, &res, e);
	}

	struct js_run_params p = {c->workload ? c->workload
	                          : w         ? w->source
	                                      : "",
	                          m ? m->spec : "",
	                          sched ? sched->spec : "",
	                          alloc ? alloc->spec : "",
	                          rt ? rt->spec : "",
	                          c->order_spec,
	                          x->resize ? x->resize->spec : "",
	                          c->resizable ? c->resizable : "",
	                          c->kill,
	                          c->seed,
	                          c->gamma_s,
	                          &c->clean,
	                          ppn,
	                          m,
	                          alloc};
	if (!rc && out[OUT_JOBS].f)
		rc = js_write_jobs_csv(out[OUT_JOBS].f, w, res, m, c->gamma_s);
	if (!rc && out[OUT_SUMMARY].f)
		rc = js_write_summary_csv(out[OUT_SUMMARY].f, w, res, &p);
	if (!rc && out[OUT_GROUPS].f)
		rc = js_write_groups_csv(out[OUT_GROUPS].f, w, res);
	if (!rc && out[OUT_SWF].f)
		rc = js_swf_write(out[OUT_SWF].f, w, p.workload);
	if (rc == CMN_EIO && !e->msg[0])
		cmn_err_set(e, CMN_EIO, "cannot write an output");
	if (!rc && c->plot) {
		const char *series_path =
		    series_scratch.tmp ? series_scratch.tmp : out[OUT_SERIES].tmp;
		char title[600];
		snprintf(title, sizeof title, "%s / %s / %s", p.machine, p.sched, p.alloc);
		if (fflush(series) != 0)
			rc = cmn_err_set(e, CMN_EIO, "%s: cannot write", series_path);
		if (!rc)
			rc = run_gnuplot(series_path, out[OUT_PLOT].tmp, c->plot, title, w->n == 0,
			                 e);
	}
	cmn_outfile_abort(&series_scratch);
	for (int k = 0; k < OUT_N; k++) {
		if (rc)
			cmn_outfile_abort(&out[k]);
		else if (cmn_outfile_commit(&out[k], e))
			rc = CMN_EIO;
	}
	if (!rc)
		js_print_summary(stdout, w, res, &p);
	if (!rc && !c->quiet && rt->ops->report)
		rt->ops->report(rt->self, stderr);
	js_sim_result_free(res);
	return rc;
}

/* A resizing policy needs a run-time model that can resize the workload's
 * resizable jobs: refused at once, the first such job named. */
static int check_resizable(const struct js_runtime *rt, const struct js_workload *w,
                           struct cmn_err *e)
{
	for (size_t i = 0; i < w->n; i++)
		if (w->jobs[i].resizable && w->jobs[i].iters >= 2)
			return js_runtime_check_resizable(rt, &w->jobs[i], e);
	return 0;
}

static int simulate(const struct cli *c, struct cmn_err *e)
{
	struct plat_machine *m = NULL;
	struct js_alloc *alloc = NULL;
	struct js_sched *sched = NULL;
	struct js_runtime *rt = NULL;
	struct js_workload *w = NULL;
	struct js_resize *resize = NULL;
	int rc =
	    c->platform ? plat_load(c->platform, &m, e) : plat_machine_create(c->machine, &m, e);
	if (!rc)
		rc = js_alloc_create(c->alloc, m, &alloc, e);
	if (!rc)
		alloc->stats->timed = c->time_alloc;
	if (!rc && c->resize)
		rc = js_resize_create(c->resize, &resize, e);
	if (!rc)
		rc = js_runtime_create_in(
		    c->runtimes, c->resize && !c->runtime_given ? "reshape" : c->runtime, &rt, e);
	if (!rc) { /* a bad scheduler spec is a usage error: report it before reading */
		const void *ops;
		struct cmn_params sp;
		rc = cmn_spec_resolve((const void *const *)js_sched_registry, c->sched, "scheduler",
		                      &ops, &sp, e);
	}
	if (!rc)
		rc = load_workload(c, m, &w, e);
	if (!rc && resize) /* before a model such as full prepares every job */
		rc = check_resizable(rt, w, e);
	if (!rc && rt->ops->estimate) /* a model's cost, refused before it runs */
		rc = rt->ops->estimate(rt->self, m, w, c->quiet ? NULL : stderr, e);
	if (!rc)
		rc = js_sched_create(c->sched, w->n, c->installed ? c->installed : m->nodes, &sched,
		                     e);
	if (!rc) {
		struct run_ctx x = {c, m, alloc, sched, rt, w, resize};
		rc = js_runtime_drive(rt, m, w, run_and_write, &x, e);
	}
	js_workload_free(w);
	js_sched_destroy(sched);
	js_runtime_destroy(rt);
	js_resize_destroy(resize);
	js_alloc_destroy(alloc);
	plat_machine_destroy(m);
	return rc;
}

int js_cli_main(int argc, char **argv, const char *prog,
                const struct js_runtime_ops *const *runtimes)
{
	gsl_set_error_handler_off();
	struct cli c = {.prog = prog, .runtimes = runtimes};
	struct cmn_err e;
	cmn_err_clear(&e);
	int rc = parse_args(argc, argv, &c, &e);
	if (rc == -1)
		return 0;
	if (rc) {
		fprintf(stderr, "%s: %s\n(try %s --help)\n", prog, e.msg, prog);
		return 2;
	}
	rc = c.stats ? run_stats(&c, &e) : simulate(&c, &e);
	if (rc) {
		fprintf(stderr, "%s: %s\n", prog, e.msg);
		return cmn_err_exit_status(&e);
	}
	return 0;
}

/* The scheduling simulator's run, shared by jobsched and cosim (cli.h;
 * the options parsed by cli_parse.c). Reads an SWF log
 * or generates a synthetic workload, cleans it, simulates it with the
 * chosen scheduler, allocator and run-time model, and writes per-job,
 * summary and time-series CSV and a PNG plot. */
#include <errno.h>
#include <gsl/gsl_errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../common/gnuplot.h"
#include "../../common/number.h"
#include "../../common/outfile.h"
#include "../../platforms/platform.h"
#include "../../platforms/xml_read.h"
#include "../alloc/alloc.h"
#include "../metrics/metrics.h"
#include "../metrics/series_plot.h"
#include "../resize/resize.h"
#include "../runtime/runtime.h"
#include "../sched/sched.h"
#include "../workload/synth.h"
#include "cli.h"

/* The nodes that take jobs: the machine's, or --installed's; an error when
 * --installed asks for more than the machine has. */
static int usable_nodes(const struct js_cli *c, const struct plat_machine *m, int *nodes,
                        struct cmn_err *e)
{
	*nodes = c->installed ? c->installed : m->nodes;
	if (c->installed > m->nodes)
		return cmn_err_set(e, CMN_EUSAGE, "--installed %d: the machine has %d nodes",
		                   c->installed, m->nodes);
	return 0;
}

static int load_workload(const struct js_cli *c, const struct plat_machine *m,
                         struct js_workload **w, struct cmn_err *e)
{
	int nodes;
	int rc = usable_nodes(c, m, &nodes, e);
	if (rc)
		return rc;
	rc = c->synthetic ? js_synth_generate(c->synthetic, c->seed, nodes, w, NULL, 0, e)
	                  : js_workload_read(c->workload, c->skip_bad, w, e);
	if (rc)
		return rc;
	if (!c->quiet) {
		char prefix[80];
		snprintf(prefix, sizeof prefix, "%s: note: ", c->prog);
		js_workload_print_notes(stderr, prefix, *w);
	}
	rc = js_clean(*w, &c->clean, nodes, e);
	long rigid = 0;
	if (!rc && c->rs_iters)
		js_make_resizable(*w, c->rs_pct, c->rs_iters, c->seed, &rigid);
	if (rigid && !c->quiet)
		fprintf(
		    stderr,
		    "%s: note: --resizable %s: %ld of the jobs chosen have a run time of 0 (or "
		    "one only a replay gives): they stay rigid, with no iteration to resize at\n",
		    c->prog, c->resizable, rigid);
	if (!rc && c->rs_iters && !c->resize && !c->quiet) /* nothing will resize them */
		fprintf(stderr,
		        "%s: note: --resizable %s without --resize: the jobs made resizable "
		        "keep their sizes (give --resize pba, fcfs or maxb)\n",
		        c->prog, c->resizable);
	if (rc) {
		js_workload_free(*w);
		*w = NULL;
	}
	return rc;
}

static int run_stats(const struct js_cli *c, struct cmn_err *e)
{
	struct js_workload *w;
	int rc = js_workload_read(c->stats, c->skip_bad, &w, e);
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
	const char *from = "the machine";
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
		from = "the header's MaxProcs";
	} else if (w->hdr.max_nodes > 0) {
		procs = w->hdr.max_nodes;
		from = "the header's MaxNodes";
	}
	if (procs <= 0) {
		from = "the largest job";
		for (size_t i = 0; i < w->n; i++) {
			long long size = (long long)ceil(w->jobs[i].f[JS_F_ALLOC_PROCS] / ppn);
			if (size > procs)
				procs = size;
		}
	}
	plat_machine_destroy(m);
	if (procs > INT_MAX) { /* a header's or a job's size no machine here has */
		js_workload_free(w);
		return cmn_err_set(e, CMN_EINPUT,
		                   "%s: error: the machine's size for the statistics, %lld nodes "
		                   "(from %s), is beyond 2^31 - 1: give the machine (--machine)",
		                   c->stats, procs, from);
	}
	rc = js_clean(w, &c->clean, (int)procs, e);
	struct js_wstats s;
	if (!rc)
		rc = js_wstats_compute(w, (int)procs, &s, e);
	if (!rc)
		js_wstats_print(stdout, &s, w);
	js_workload_free(w);
	return rc;
}

enum { OUT_JOBS, OUT_SUMMARY, OUT_SERIES, OUT_PLOT, OUT_SWF, OUT_GROUPS, OUT_N };
static const char *const out_option[OUT_N] = {"--jobs-out", "--summary-out", "--series-out",
                                              "--plot",     "--swf-out",     "--groups-out"};

/* The output paths given, by OUT_*. */
static void output_paths(const struct js_cli *c, const char **paths)
{
	const char *p[OUT_N] = {c->jobs_out, c->summary_out, c->series_out,
	                        c->plot,     c->swf_out,     c->groups_out};
	memcpy(paths, p, sizeof p);
}

/* What runs inside the run-time model's drive(): the simulation and every
 * output after it. */
struct run_ctx {
	const struct js_cli *c;
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
	const struct js_cli *c = x->c;
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
	const char *paths[OUT_N];
	output_paths(c, paths);
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
	int at = -1; /* the output being written */
	if (!rc && out[at = OUT_JOBS].f)
		rc = js_write_jobs_csv(out[OUT_JOBS].f, w, res, m, c->gamma_s);
	if (!rc && out[at = OUT_SUMMARY].f)
		rc = js_write_summary_csv(out[OUT_SUMMARY].f, w, res, &p);
	if (!rc && out[at = OUT_GROUPS].f)
		rc = js_write_groups_csv(out[OUT_GROUPS].f, w, res);
	if (!rc && out[at = OUT_SWF].f)
		rc = js_swf_write(out[OUT_SWF].f, w, p.workload);
	if (rc == CMN_EIO && !e->msg[0] && at >= 0 && out[at].f) /* a full disk, a size limit */
		cmn_err_set(e, CMN_EIO, "%s: cannot write: %s", out[at].path,
		            strerror(cmn_outfile_stream_error(out[at].f)));
	else if (rc == CMN_EIO && !e->msg[0])
		cmn_err_set(e, CMN_EIO, "cannot write an output");
	if (!rc && c->plot) {
		const char *series_path =
		    series_scratch.tmp ? series_scratch.tmp : out[OUT_SERIES].tmp;
		char title[600];
		snprintf(title, sizeof title, "%s / %s / %s", p.machine, p.sched, p.alloc);
		if (fflush(series) != 0)
			rc = cmn_err_set(e, CMN_EIO, "%s: cannot write", series_path);
		if (!rc)
			rc = js_series_plot(series_path, out[OUT_PLOT].tmp, c->plot, title,
			                    w->n == 0, e);
	}
	cmn_outfile_abort(&series_scratch);
	/* outputs written directly (a FIFO, a device: a write there can fail)
	 * before those renamed into place, so that a failure there leaves the
	 * files as they were */
	for (int pass = 0; pass < 2; pass++)
		for (int k = 0; k < OUT_N; k++) {
			if (out[k].direct != (pass == 0))
				continue;
			if (rc)
				cmn_outfile_abort(&out[k]);
			else if (cmn_outfile_commit(&out[k], e))
				rc = CMN_EIO;
		}
	int on_stdout = 0; /* an output on stdout: the table would spoil it */
	for (int k = 0; k < OUT_N; k++)
		on_stdout |= cmn_outfile_is_stdout(paths[k]);
	if (!rc && !on_stdout)
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

/* A platform file that maps onto a machine family (jobsched has no
 * SimGrid to route any other). */
static int family_platform(const char *prog, const char *path, struct plat_machine **m,
                           struct cmn_err *e)
{
	struct plat_file f;
	int rc = plat_file_read(path, PLAT_MAX_NODES, &f, e);
	if (!rc && !f.m)
		rc = cmn_err_set(
		    e, CMN_EINPUT,
		    "%s\n(%s needs a platform that maps onto a machine family: cosim and "
		    "netsim read any SimGrid platform, routed by SimGrid itself)",
		    f.why.msg, prog);
	if (!rc) {
		*m = f.m;
		f.m = NULL;
	}
	plat_file_free(&f);
	return rc;
}

static int simulate(const struct js_cli *c, struct cmn_err *e)
{
	struct plat_machine *own = NULL; /* the machine this run made, if it made one */
	struct js_alloc *alloc = NULL;
	struct js_sched *sched = NULL;
	struct js_runtime *rt = NULL;
	struct js_workload *w = NULL;
	struct js_resize *resize = NULL;
	int rc = c->platform_machine ? 0
	         : !c->platform      ? plat_machine_create(c->machine, &own, e)
	                             : family_platform(c->prog, c->platform, &own, e);
	const struct plat_machine *m = c->platform_machine ? c->platform_machine : own;
	if (!rc)
		rc = js_alloc_create(c->nalloc ? c->alloc[0] : "first-free", m, &alloc, e);
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
		if (!rc && resize && ((const struct js_sched_ops *)ops)->fixed_sizes)
			rc = cmn_err_set(e, CMN_EUSAGE,
			                 "--sched %s with --resize %s: its reservations assume "
			                 "every job keeps its size to its end (resizing runs with "
			                 "fcfs, easy and fpfs)",
			                 c->sched, c->resize);
	}
	if (!rc)
		rc = load_workload(c, m, &w, e);
	if (!rc) { /* Batsim's smpi and parallel_homogeneous jobs: a model must replay them */
		char model[300];
		snprintf(model, sizeof model, "the run-time model %s", rt->spec);
		rc = js_workload_check_replayed(w, rt->ops->replays_profiles, model, e);
	}
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
	plat_machine_destroy(own);
	return rc;
}

/* An output that would replace an input, or two outputs into one file:
 * refused before anything runs (the run would replace the workload it
 * read, or one output would be lost). */
static int check_paths(const struct js_cli *c, struct cmn_err *e)
{
	const char *path[OUT_N];
	output_paths(c, path);
	struct cmn_path out[OUT_N];
	for (int k = 0; k < OUT_N; k++)
		out[k] = (struct cmn_path){out_option[k], path[k]};
	const struct cmn_path in[] = {{"the --workload file", c->workload},
	                              {"the --platform file", c->platform},
	                              {"the --stats file", c->stats}};
	return cmn_outfile_check_paths(out, OUT_N, in, (int)(sizeof in / sizeof *in), e);
}

int js_cli_run(const struct js_cli *c)
{
	gsl_set_error_handler_off();
	struct cmn_err e;
	cmn_err_clear(&e);
	if (check_paths(c, &e))
		return cmn_usage_error(c->prog, "%s", e.msg);
	if (c->nalloc > 1)
		return cmn_usage_error(c->prog,
		                       "--alloc given %d times: a run takes one allocator (cosim "
		                       "--out DIR runs one per --alloc)",
		                       c->nalloc);
	int rc = c->stats ? run_stats(c, &e) : simulate(c, &e);
	if (rc) {
		fprintf(stderr, "%s: %s\n", c->prog, e.msg);
		return cmn_err_exit_status(&e);
	}
	return 0;
}

int js_cli_main(int argc, char **argv, const char *prog,
                const struct js_runtime_ops *const *runtimes)
{
	struct js_cli c;
	int k = js_cli_parse(argc, argv, prog, runtimes, NULL, &c);
	return k ? cmn_cli_status(k) : js_cli_run(&c);
}

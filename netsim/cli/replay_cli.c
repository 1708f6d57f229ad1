/* netsim's replay mode (netsim_cli.h): runs several jobs' communication
 * traces at once on a platform, each on its own nodes, and reports per job
 * its time and its slowdown against running alone on the same nodes, and
 * per link the bytes carried. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../apptraces/gen.h"
#include "../../apptraces/trace_archive.h"
#include "../../common/cleanup.h"
#include "../../common/number.h"
#include "../../common/options.h"
#include "../../common/outfile.h"
#include "../../platforms/xml_read.h"
#include "../../platforms/xml_write.h"
#include "../netsim.h"
#include "../simgrid/sg_platform.h"
#include "netsim_cli.h"

#define MAX_JOBS NET_CLI_MAX_JOBS

struct job_arg {
	char trace[512], nodes[512];
	double start;
	struct trace *t, *t_next; /* t_next: one more iteration (--per-iteration) */
	int *nodeset;
};

static int parse_job(const char *arg, struct job_arg *j, struct cmn_err *e)
{
	const char *at = strchr(arg, '@');
	if (!at || at == arg || !at[1])
		return cmn_err_set(e, CMN_EUSAGE, "--job '%s': give TRACE@NODES", arg);
	snprintf(j->trace, sizeof j->trace, "%.*s", (int)(at - arg), arg);
	snprintf(j->nodes, sizeof j->nodes, "%s", at + 1);
	char *at2 = strchr(j->nodes, '@');
	j->start = 0;
	if (at2) {
		*at2 = '\0';
		if (cmn_num_real(at2 + 1, 0, 1e15, &j->start) != CMN_NUM_OK)
			return cmn_err_set(
			    e, CMN_EUSAGE,
			    "--job '%s': START '%s' is not a number of seconds in [0, "
			    "1e15]",
			    arg, at2 + 1);
	}
	return 0;
}

/* A trace file, or KERNEL.CLASS.RANKS generated. */
static int get_trace(const char *spec, int iterations, struct trace **t, struct cmn_err *e)
{
	struct stat st;
	char kernel[16], cls;
	int ranks, used = 0;
	int generated =
	    sscanf(spec, "%15[a-z].%c.%d%n", kernel, &cls, &ranks, &used) == 3 && !spec[used];
	if (stat(spec, &st) == 0) {
		if (generated) /* the file wins: said, since the name reads as a generator's too */
			fprintf(stderr,
			        "netsim: note: %s is read from the file of that name here, not "
			        "generated (give another path to the file to silence this, or "
			        "leave this folder to generate it)\n",
			        spec);
		return trace_load_any(spec, t, e);
	}
	if (generated) {
		int exact;
		return trace_generate(kernel, cls, ranks, iterations, 1, t, &exact, e);
	}
	return cmn_err_set(e, CMN_EUSAGE, "trace '%s': no such file, nor KERNEL.CLASS.RANKS", spec);
}

static void node_list(const int *nodes, int n, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && used + 24 < len;) {
		int j = i;
		while (j + 1 < n && nodes[j + 1] == nodes[j] + 1)
			j++;
		used += (size_t)(j > i ? snprintf(buf + used, len - used, "%s%d-%d", i ? " " : "",
		                                  nodes[i], nodes[j])
		                       : snprintf(buf + used, len - used, "%s%d", i ? " " : "",
		                                  nodes[i]));
		i = j + 1;
	}
}

/* SimGrid engines with --alltoall linear: every job whose trace has an
 * all-to-all posts n (n - 1) messages at once, the jobs side by side; past
 * max_mb (MB) a usage error naming the largest and the way out. */
static int alltoall_room(const struct job_arg *jobs, int njobs, long long max_mb, struct cmn_err *e)
{
	double msgs = 0, most = 0;
	int big = -1;
	for (int j = 0; j < njobs; j++) {
		const struct trace *t = jobs[j].t;
		int has = 0;
		for (long k = t->first[0]; !has && k < t->first[1]; k++)
			has = t->act[k].op == TR_ALLTOALL || t->act[k].op == TR_ALLTOALLV;
		double n = has ? (double)t->nranks * (t->nranks - 1) : 0;
		msgs += n;
		if (n > most)
			most = n, big = j;
	}
	double mb = msgs * NET_SG_MESSAGE_BYTES / 1048576.0;
	if (mb <= (double)max_mb)
		return 0;
	return cmn_err_set(e, CMN_EUSAGE,
	                   "the linear all-to-alls hold up to %.3g messages at once (job %d, %s: "
	                   "%d ranks, %.3g of them), about %.0f MB in SimGrid (%.1f kB a "
	                   "message), more than --max-memory %lld: replay them as rings "
	                   "(--alltoall ring), or raise --max-memory MB (0: no limit)",
	                   msgs, big, jobs[big].trace, jobs[big].t->nranks, most, mb,
	                   NET_SG_MESSAGE_BYTES / 1024, max_mb);
}

/* The run; jobs: c->njobs entries, zeroed. */
static int replay(const struct net_cli *c, struct job_arg *jobs)
{
	/* the table on stdout unless an output goes there (--quiet: no
	 * progress, and a replay shows none) */
	int njobs = c->njobs, alone = c->alone,
	    quiet = cmn_outfile_is_stdout(c->jobs_out) || cmn_outfile_is_stdout(c->links_out),
	    periter = c->periter, ring = c->ring;
	long long iterations = c->iterations, repeat = c->repeat;
	double until = c->until;
	const char *platform = c->platform, *machine = c->machine,
	           *engine = c->engine ? c->engine : "simgrid", *jobs_out = c->jobs_out,
	           *links_out = c->links_out;
	struct cmn_err e;
	cmn_err_clear(&e);
	for (int j = 0; j < njobs; j++)
		if (parse_job(c->job[j], &jobs[j], &e))
			return cmn_usage_error("netsim", "%s", e.msg);
	const char *eparams;
	const struct net_engine_ops *ops = net_engine_find(engine, &eparams, &e);
	if (!ops) {
		fprintf(stderr, "netsim: %s\n", e.msg);
		return 2;
	}
	struct plat_machine *m = NULL;
	char xml[256] = "";
	int rc = 0;
	if (platform) { /* read more than once (here, for loopbacks, by SimGrid) */
		if (!(rc = net_sg_platform_file(platform, &e)) &&
		    !(rc = net_platform_load(platform, c->hosts, &m, &e)))
			net_platform_echo(stderr, "netsim", m);
	} else if (!(rc = plat_machine_create(machine, &m, &e))) {
		if (cmn_tmp_file(xml, sizeof xml, "netsim-platform")) {
			rc = cmn_err_set(
			    &e, CMN_EIO,
			    "cannot create a temporary platform file in %s: %s (TMPDIR names "
			    "the folder)",
			    cmn_tmp_dir(), strerror(errno));
		} else {
			struct plat_xml_opts xo = {"SPLITDUPLEX", "netsim", NULL};
			rc = plat_xml_write(m, &xo, xml, &e);
		}
	}
	/* every trace loaded and validated, every placement made, before running */
	char *used = m ? calloc((size_t)m->nodes, 1) : NULL;
	if (!rc && !used)
		rc = cmn_err_set(&e, CMN_ENOMEM, "out of memory");
	for (int j = 0; !rc && j < njobs; j++) {
		if ((rc = get_trace(jobs[j].trace, (int)iterations, &jobs[j].t, &e)))
			cmn_err_prefix(&e, "job %d", j);
		else if (periter && (iterations < 1 || access(jobs[j].trace, F_OK) == 0))
			rc = cmn_err_set(&e, CMN_EUSAGE,
			                 "job %d (%s): --per-iteration needs generated traces "
			                 "(KERNEL.CLASS.RANKS) and --iterations K >= 1",
			                 j, jobs[j].trace);
		else if (periter &&
		         (rc = get_trace(jobs[j].trace, (int)iterations + 1, &jobs[j].t_next, &e)))
			cmn_err_prefix(&e, "job %d", j);
		else if (!(jobs[j].nodeset = malloc((size_t)jobs[j].t->nranks * sizeof(int))))
			rc = cmn_err_set(&e, CMN_ENOMEM, "out of memory");
		else if ((rc = net_place(m, jobs[j].nodes, jobs[j].t->nranks, used, jobs[j].nodeset,
		                         &e)))
			cmn_err_prefix(&e, "job %d (%s)", j, jobs[j].trace);
	}
	if (!rc && !ring && c->max_memory > 0 && strcmp(ops->base.name, "flit") != 0)
		rc = alltoall_room(jobs, njobs, c->max_memory, &e);
	/* a rank sending to itself on a TORUS without loopback would abort SimGrid */
	long noloop = !rc && platform ? plat_xml_torus_without_loopback(platform) : 0;
	for (int j = 0; !rc && noloop && j < njobs; j++) {
		const struct trace *t = jobs[j].t;
		for (int r = 0; !rc && r < t->nranks; r++)
			for (long k = t->first[r]; !rc && k < t->first[r + 1]; k++)
				if ((t->act[k].op == TR_SEND || t->act[k].op == TR_ISEND) &&
				    t->act[k].peer == r)
					rc = cmn_err_set(
					    &e, CMN_EINPUT,
					    "%s:%ld: a TORUS cluster without loopback_bw: SimGrid "
					    "cannot route a host to itself, and job %d (%s) rank "
					    "%d "
					    "sends to itself (trace line %u); add "
					    "loopback_bw=\"10GBps\" "
					    "loopback_lat=\"0s\" (platgen does)",
					    platform, noloop, j, jobs[j].trace, r, t->act[k].line);
	}
	/* the outputs before the replays: a folder missing is known at once */
	struct cmn_outfile jo, lo;
	int jo_open = 0, lo_open = 0;
	if (!rc && jobs_out && !(rc = cmn_outfile_open(&jo, jobs_out, &e)))
		jo_open = 1;
	if (!rc && links_out && !(rc = cmn_outfile_open(&lo, links_out, &e)))
		lo_open = 1;
	void *state = NULL;
	struct net_job nj[MAX_JOBS];
	struct net_job_result together[MAX_JOBS], single[MAX_JOBS];
	char names[MAX_JOBS][16];
	for (int j = 0; j < njobs; j++) {
		snprintf(names[j], sizeof names[j], "job%d", j);
		nj[j] = (struct net_job){names[j], jobs[j].t, jobs[j].nodeset, jobs[j].start, NULL};
		single[j].finish = -1;
	}
	if (!rc) {
		/* link loads only for --links-out: SimGrid's plugin resets every
		 * link in each evaluation (copy-on-write faults: half of a small
		 * evaluation's time) */
		struct net_engine_args a = {
		    m, platform ? platform : xml,         c->cfg, !links_out, ring, eparams,
		    0, (const char *const *)m->host_names};
		rc = ops->create(&a, &state, &e);
	}
	for (int j = 0; !rc && alone && njobs > 1 && j < njobs; j++) {
		struct net_job one = nj[j];
		one.start = 0;
		rc = ops->evaluate(state, &one, 1, until, &single[j], &e);
	}
	struct timespec w0, w1;
	clock_gettime(CLOCK_MONOTONIC, &w0);
	for (long i = 0; !rc && i < repeat; i++) { /* the same evaluation, back to back */
		struct net_job_result again[MAX_JOBS];
		rc = ops->evaluate(state, nj, njobs, until, i ? again : together, &e);
		for (int j = 0; !rc && i && j < njobs; j++)
			if (fabs(again[j].finish - together[j].finish) >
			    1e-9 * fabs(together[j].finish) + 1e-12)
				rc = cmn_err_set(
				    &e, CMN_ESTATE,
				    "evaluation %ld of job %d ended at %.9g s, the first at %.9g s",
				    i + 1, j, again[j].finish, together[j].finish);
	}
	clock_gettime(CLOCK_MONOTONIC, &w1);
	/* one iteration: all jobs with one iteration more, minus the above */
	struct net_job_result next[MAX_JOBS];
	if (!rc && periter) {
		struct net_job nn[MAX_JOBS];
		for (int j = 0; j < njobs; j++) {
			nn[j] = nj[j];
			nn[j].trace = jobs[j].t_next;
		}
		rc = ops->evaluate(state, nn, njobs, until, next, &e);
	}
	if (!rc && repeat > 1)
		fprintf(stderr,
		        "netsim: %lld evaluations, %.3f ms each (wall), identical results\n",
		        repeat,
		        1e3 *
		            ((double)(w1.tv_sec - w0.tv_sec) +
		             1e-9 * (double)(w1.tv_nsec - w0.tv_nsec)) /
		            (double)repeat);
	if (!rc && njobs == 1)
		single[0] = together[0];
	/* without --until every job ends: one that did not was stuck (SimGrid
	 * said "Deadlock detected" and stopped; the flit engine's watchdog says
	 * so itself) */
	for (int j = 0; !rc && !(until > 0) && j < njobs; j++)
		if (together[j].finish < 0)
			rc = cmn_err_set(
			    &e, CMN_ESTATE,
			    "job %d (%s) did not finish: its ranks wait for each other "
			    "(a deadlock: a receive no send matches, or sends both ways "
			    "that each wait for the other's receive)",
			    j, jobs[j].trace);
	const struct net_link_result *links = NULL;
	int nlinks = 0;
	if (!rc)
		rc = ops->links(state, &links, &nlinks, &e);
	if (!rc) {
		if (!quiet)
			printf("engine %s\n", ops->spec ? ops->spec(state) : ops->base.name);
		if (!quiet)
			printf("%-6s %-24s %6s %10s %12s %12s %9s %12s  %s\n", "job", "trace",
			       "ranks", "start_s", "time_s", "alone_s", "slowdown", "iteration_s",
			       "nodes");
		if (jo_open)
			fprintf(jo.f,
			        "job,trace,ranks,nodes,start_s,finish_s,time_s,alone_s,slowdown,"
			        "iteration_s\n");
		for (int j = 0; j < njobs; j++) {
			char nl[4096];
			node_list(jobs[j].nodeset, jobs[j].t->nranks, nl, sizeof nl);
			double time = together[j].finish >= 0
			                  ? together[j].finish - together[j].start
			                  : -1,
			       al = single[j].finish >= 0 ? single[j].finish - single[j].start : -1;
			char alone_s[32] = "", slow[32] = "", time_s[32] = "unfinished",
			     finish_s[32] = "";
			if (al > 0)
				snprintf(alone_s, sizeof alone_s, "%.9g", al);
			if (time >= 0) {
				snprintf(time_s, sizeof time_s, "%.9g", time);
				snprintf(finish_s, sizeof finish_s, "%.9g", together[j].finish);
			}
			if (al > 0 && time >= 0)
				snprintf(slow, sizeof slow, "%.6f", time / al);
			char iter_s[32] = "";
			if (periter && time >= 0 && next[j].finish >= 0)
				snprintf(iter_s, sizeof iter_s, "%.9g",
				         next[j].finish - next[j].start - time);
			if (!quiet)
				printf("%-6s %-24s %6d %10.6g %12s %12s %9s %12s  %s\n", names[j],
				       jobs[j].trace, jobs[j].t->nranks, together[j].start, time_s,
				       alone_s, slow, iter_s, nl);
			if (jo_open)
				fprintf(jo.f, "%s,%s,%d,%s,%.9g,%s,%s,%s,%s,%s\n", names[j],
				        jobs[j].trace, jobs[j].t->nranks, nl, together[j].start,
				        finish_s, time >= 0 ? time_s : "", alone_s, slow, iter_s);
		}
		if (lo_open) {
			fprintf(lo.f, "link,bandwidth_Bps,bytes,busy_s\n");
			for (int i = 0; i < nlinks; i++)
				if (links[i].bytes > 0)
					fprintf(lo.f, "%s,%.9g,%.9g,%.9g\n", links[i].name,
					        links[i].bandwidth, links[i].bytes,
					        links[i].busy_s);
		}
		if (jo_open && (rc = cmn_outfile_commit(&jo, &e)))
			jo_open = 0;
		jo_open = 0;
		if (!rc && lo_open)
			rc = cmn_outfile_commit(&lo, &e);
		lo_open = 0;
	}
	if (jo_open)
		cmn_outfile_abort(&jo);
	if (lo_open)
		cmn_outfile_abort(&lo);
	if (state)
		ops->destroy(state);
	for (int j = 0; j < njobs; j++) {
		trace_free(jobs[j].t);
		trace_free(jobs[j].t_next);
		free(jobs[j].nodeset);
	}
	free(used);
	plat_machine_destroy(m);
	if (xml[0])
		cmn_cleanup_remove(xml);
	if (rc) {
		fprintf(stderr, "netsim: %s\n", e.msg);
		return cmn_err_exit_status(&e);
	}
	return 0;
}

int net_replay_main(const struct net_cli *c)
{
	struct job_arg *jobs = calloc((size_t)c->njobs + 1, sizeof *jobs);
	if (!jobs) {
		fprintf(stderr, "netsim: out of memory\n");
		return 1;
	}
	int rc = replay(c, jobs);
	free(jobs);
	return rc;
}

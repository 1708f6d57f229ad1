/* The network engine interface: load a platform, run several jobs' traces
 * on explicit node lists, report per job its start and finish and per link
 * the bytes carried. Engines are entries of engine_registry.def; nothing
 * above netsim/ knows which engine ran. */
#ifndef NETSIM_H
#define NETSIM_H

#include <stdio.h>

#include "../apptraces/trace.h"
#include "../common/params.h"
#include "../platforms/platform.h"

/* What SimGrid holds per message of a linear all-to-all, n (n - 1) of
 * them posted at once (its comm and the s4u engine's mailbox), measured
 * with --engine s4u: is.S.256 took 176 MB, is.S.512 657 MB. netsim's
 * --max-memory and cosim's simgrid:max_memory count with it. */
#define NET_SG_MESSAGE_BYTES 2560.0
/* The most children the SimGrid engines' evaluate_many runs at once. */
#define NET_SG_CHILDREN 8

struct net_live;

/* A range of a trace that runs several times in a row, e.g. a job's
 * iteration held once for a job of K iterations: rank r runs its actions
 * in order, but act[begin[r] .. end[r]) (inside its own actions) `times`
 * times in a row (0: not at all), exactly as the trace with the range
 * written out that many times would run. The s4u and flit engines honour
 * it; the SMPI engine refuses it. */
struct net_repeat {
	const long *begin, *end; /* per rank: indices into the trace's act */
	long times;
};

struct net_job {
	const char *name;                /* shown in outputs */
	const struct trace *trace;       /* validated; shared, not modified */
	const int *nodes;                /* rank r runs on node nodes[r]; a node may repeat */
	double start;                    /* seconds after the evaluation starts */
	const struct net_repeat *repeat; /* NULL: the trace as it is; shared like the
	                                    trace, it must outlive the job */
};

struct net_job_result {
	double start, finish; /* seconds from the evaluation's start; finish -1:
	                         not finished by the time limit */
};

struct net_link_result {
	char name[96];
	double bandwidth; /* bytes/s */
	double bytes;     /* carried during the last evaluation */
	double busy_s;    /* bytes / bandwidth: the time at full rate it amounts to */
};

struct net_engine_args {
	const struct plat_machine *machine; /* node ids, routes */
	const char *platform;               /* SimGrid XML of that machine */
	const char *const *cfg;             /* "key:value" settings, NULL-terminated */
	int no_link_loads;        /* 1: no per-link loads (links() reports zero bytes); a live
	                             session that kills jobs needs it: SimGrid 3.32's link-load
	                             plugin crashes on a comm cancelled before it matched */
	int alltoall_ring;        /* alltoall and alltoallv: 0 linear (every block at once,
	                             SMPI's basic_linear), 1 ring (n - 1 rounds; in round i
	                             rank r sends its block to r + i and receives from r - i,
	                             SMPI's ring): what MPI libraries do for large blocks,
	                             and far cheaper to simulate on hundreds of ranks */
	const char *params;       /* the engine's "key=value,..." (after NAME: in --engine
	                             NAME:..), or NULL; engines without parameters refuse any */
	int in_process;           /* 1: evaluations without a time limit may run one after
	                             another in the calling process instead of a child each
	                             (engines that can: s4u, without link loads; the others
	                             ignore it): no fork,
	                             but SimGrid's clock runs on from one to the next (times
	                             as differences: rounding of ~1e-9 relative) and a
	                             SimGrid abort ends the caller; no live session after */
	const char *const *hosts; /* the platform's host of node i; NULL: node-<i> */
};

struct net_engine_ops {
	struct cmn_plugin base;
	int (*create)(const struct net_engine_args *a, void **state, struct cmn_err *e);
	/* Runs the jobs together from a fresh start, until all finish or, when
	 * until > 0, until that many simulated seconds; results[i] for jobs[i].
	 * Can be called again and again on one engine. */
	int (*evaluate)(void *state, const struct net_job *jobs, int n, double until,
	                struct net_job_result *results, struct cmn_err *e);
	/* Optional: count independent evaluations at once (jobs[i], n[i] into
	 * results[i]), in parallel where the engine can (the SimGrid engines:
	 * one child process each); links() then reports the last. */
	int (*evaluate_many)(void *state, int count, const struct net_job *const *jobs,
	                     const int *n, double until, struct net_job_result *const *results,
	                     struct cmn_err *e);
	/* Optional: the engine's effective parameters ("flit:vcs=4,..."), for
	 * outputs' headers; owned by the engine. */
	const char *(*spec)(void *state);
	/* Per-link loads of the last evaluation (*out owned by the engine). */
	int (*links)(void *state, const struct net_link_result **out, int *n, struct cmn_err *e);
	void (*destroy)(void *state);
	/* Optional: a live session, for workloads whose jobs start and end
	 * inside one simulation: runs body(ctx, lv) as a controller in a
	 * simulation on the engine's platform that lasts until body returns;
	 * body starts jobs (net_live_start) and lets simulated time pass
	 * (net_live_wait). In the calling process, once per engine (no
	 * evaluation may follow it). Returns body's status. */
	int (*live)(void *state, int (*body)(void *ctx, struct net_live *lv, struct cmn_err *e),
	            void *ctx, struct cmn_err *e);
};

/* --- live sessions (engines with live) --- */
/* Starts job now (its start field is ignored; trace and nodes are copied
 * or must outlive the job); returns its handle (0, 1, ..) or -1 (e). */
int net_live_start(struct net_live *lv, const struct net_job *job, struct cmn_err *e);
/* Lets simulated time pass until t (INFINITY: until a job ends) or until
 * jobs end, whichever comes first. Returns the number of jobs that ended
 * (their handles in ended, room for max) at *t_out (<= t), 0 with
 * *t_out = t, or -1 when memory ran out inside the simulation. */
int net_live_wait(struct net_live *lv, double t, double *t_out, int *ended, int max);
double net_live_now(const struct net_live *lv);

extern const struct net_engine_ops *const net_engine_registry[];

/* The engine of "NAME[:KEY=VALUE,..]" (exact name; a miss lists the known
 * ones), and in *params what follows the colon (NULL without one). */
const struct net_engine_ops *net_engine_find(const char *spec, const char **params,
                                             struct cmn_err *e);
extern const struct cmn_param_def net_no_params[];

/* Placement of `ranks` ranks on m's free nodes (used[] marks taken ones and
 * is updated): "0-15", "0,16,32,48", "contiguous", "spread",
 * "random:seed=N". nodes gets the node of each rank. */
int net_place(const struct plat_machine *m, const char *spec, int ranks, char *used, int *nodes,
              struct cmn_err *e);

/* A SimGrid platform file as a machine (netsim/simgrid/sg_import.c): the
 * family it maps onto (platgen's files, clusters written by anyone), else
 * -- or with hosts -- a routes machine (platform.h) of SimGrid's own
 * routes, asked of SimGrid in a child process. Nodes are the file's hosts
 * in document order, or those of hosts: a ','-separated list of names or
 * @FILE with one per line ('#' comments). The machine's source_xml and
 * host_names say which host each node is. Errors: the file's (FILE:LINE),
 * a host the list names that the file lacks, more hosts than a routes
 * machine takes, a platform SimGrid cannot route. */
int net_platform_load(const char *path, const char *hosts, struct plat_machine **out,
                      struct cmn_err *e);
/* Says on f how m's nodes map to the file's hosts (nothing for a machine
 * built from a specification), and what our own models leave out of it. */
void net_platform_echo(FILE *f, const char *prog, const struct plat_machine *m);

#endif

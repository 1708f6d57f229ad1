/* Replays of job profiles through a netsim engine on the machine: the
 * engine and its platform (written from the machine into a temporary
 * file), the generated traces (once per kernel, rank count and iteration
 * count, kept for the replay's life), and one iteration of several jobs
 * run together, measured one of two ways (cpl_replay_opts.timed):
 *  - timed: one replay of each kernel's first timed iteration alone
 *    (trace_generate_one: init, the iteration, finalize), every rank
 *    starting it together;
 *  - difference: replays with two iterations and with one, the difference
 *    of their times (setup and verification cancel out; the second
 *    iteration starts where the ranks leave the first). Two replays of
 *    setup and iterations: about five iterations' worth against one.
 * A recorded trace (no iteration marks) is replayed whole either way. */
#ifndef CPL_REPLAY_H
#define CPL_REPLAY_H

#include "../../apptraces/trace.h"
#include "../../netsim/netsim.h"
#include "../profiles/jobprof.h"

struct cpl_replay;

/* The parameter every replaying model declares: alltoall=linear|ring. */
#define CPL_ALLTOALL_PARAM                                                                         \
	{                                                                                          \
		"alltoall", CMN_PT_CHOICE, "linear", 0, 0, "linear|ring",                          \
		    "alltoall(v) in the replays: linear (every block at once) or ring (n-1 "       \
		    "rounds; "                                                                     \
		    "cheap on hundreds of ranks)"                                                  \
	}

/* The SimGrid engines' reverse traffic (rt_simgrid.c and rt_full.c declare
 * it; cpl_replay_opts.no_crosstraffic). */
#define CPL_CROSSTRAFFIC_PARAM                                                                     \
	{                                                                                          \
		"crosstraffic", CMN_PT_CHOICE, "yes", 0, 0, "yes|no",                              \
		    "SimGrid engines: every flow also loads its reverse links with a share of "    \
		    "its rate (SimGrid's default, TCP's acknowledgements); no: not simulated, an " \
		    "approximation 1.3-2x faster (docs/cosim.md)"                                  \
	}

struct cpl_replay_opts {
	int ring;            /* alltoall(v) in rounds (netsim.h's alltoall_ring) */
	int timed;           /* one iteration as one timed-iteration replay (else the
	                        difference of two replays; cpl_replay_iterations_t1
	                        needs the difference) */
	int in_process;      /* netsim.h's in_process: evaluations without a fork */
	int no_crosstraffic; /* SimGrid engines: network/crosstraffic:0 */
};

/* The flit engine's parameters the models that run on it declare (flit,
 * full with engine=flit), and its engine spec from them. */
#define CPL_FLIT_ENGINE_PARAMS                                                                     \
	{"preset",                                                                                 \
	 CMN_PT_CHOICE,                                                                            \
	 "none",                                                                                   \
	 0,                                                                                        \
	 0,                                                                                        \
	 "none|booksim|insee",                                                                     \
	 "flit engine: its router timing (netsim --help)"},                                        \
	    {"compute",                                                                            \
	     CMN_PT_CHOICE,                                                                        \
	     "flops",                                                                              \
	     0,                                                                                    \
	     0,                                                                                    \
	     "flops|zero",                                                                         \
	     "flit engine: compute takes flops / node speed, or no time (communication only)"},    \
	    {"links",                                                                              \
	     CMN_PT_CHOICE,                                                                        \
	     "cycles",                                                                             \
	     0,                                                                                    \
	     0,                                                                                    \
	     "cycles|platform",                                                                    \
	     "flit engine: every link a flit per cycle, or each link's bandwidth from the "        \
	     "machine (tapered trees, WAN links)"},                                                \
	    {"flit_bytes",                                                                         \
	     CMN_PT_INT,                                                                           \
	     "64",                                                                                 \
	     1,                                                                                    \
	     1048576,                                                                              \
	     NULL,                                                                                 \
	     "flit engine: bytes per flit; a cycle is flit_bytes / the node links' "               \
	     "bandwidth (netsim --help); larger flits are a coarser, faster network "              \
	     "(docs/cosim.md)"},                                                                   \
	    {"packet_flits",                                                                       \
	     CMN_PT_STRING,                                                                        \
	     "auto",                                                                               \
	     0,                                                                                    \
	     0,                                                                                    \
	     NULL,                                                                                 \
	     "flit engine: flits per packet of a message, 1 to 1048576, or auto: the preset's "    \
	     "(insee: 4), else 8 (netsim --help)"},                                                \
	{                                                                                          \
		"threads", CMN_PT_INT, "1", 1, 2, NULL,                                            \
		    "flit engine: threads of each replay (netsim --help; the same times with 1 "   \
		    "or 2)"                                                                        \
	}
/* The flit model's limit on a replay's network (netsim's flit:max_memory:
 * its state and its packets, MB; 0: none). */
#define CPL_FLIT_MEMORY_PARAM                                                                      \
	{                                                                                          \
		"max_memory", CMN_PT_INT, "4096", 0, 1e9, NULL,                                    \
		    "flit engine: MB a replay's network may take with its packets, checked "       \
		    "before it is made (0: no limit; netsim --help)"                               \
	}
/* The engine spec of CPL_FLIT_ENGINE_PARAMS, with max_memory MB for each
 * network (its default, 4096, left out of the spec). */
void cpl_flit_engine_spec(const struct cmn_params *p, long max_memory, char *out, size_t size);
/* Checks CPL_FLIT_ENGINE_PARAMS' packet_flits (auto, or an integer in
 * range): 0, or a usage error naming it. */
int cpl_flit_engine_check(const struct cmn_params *p, struct cmn_err *e);

/* engine: a netsim engine's name ("simgrid", "s4u"), without link loads
 * (no model reads them; live sessions need it); prof is borrowed. */
int cpl_replay_open(const struct plat_machine *m, const char *engine,
                    const struct cpl_replay_opts *o, const struct cpl_profiles *prof,
                    struct cpl_replay **out, struct cmn_err *e);
void cpl_replay_close(struct cpl_replay *rp);

/* The trace of kernel k on n ranks with iters iterations (cached);
 * CPL_ONE_ITERATION: one timed iteration alone. */
const struct trace *cpl_replay_trace(struct cpl_replay *rp, int k, int n, int iters,
                                     struct cmn_err *e);
/* One iteration (a recorded trace: the whole trace) of each of cnt jobs (kernel k[i] on the n[i]
 * nodes nodes[i]) run together, into t[i]. */
int cpl_replay_iterations(struct cpl_replay *rp, int cnt, const int *k, const int *const *nodes,
                          const int *n, double *t, struct cmn_err *e);
/* The same, also writing the one-iteration traces' times into t1 (only
 * when measuring by difference). */
int cpl_replay_iterations_t1(struct cpl_replay *rp, int cnt, const int *k, const int *const *nodes,
                             const int *n, double *t, double *t1, struct cmn_err *e);
/* m independent replays, replay g running its cnt[g] jobs together (the
 * jobs of the replays one after another in k, nodes, n and t): as m calls
 * of cpl_replay_iterations, run at once where the engine can. */
int cpl_replay_sets(struct cpl_replay *rp, int m, const int *cnt, const int *k,
                    const int *const *nodes, const int *n, double *t, struct cmn_err *e);
/* m single-job replays, independent (job i alone: kernel k[i] on the
 * n[i] nodes nodes[i]) into t[i]: as m calls of cpl_replay_iterations
 * with one job each, run at once where the engine can (its
 * evaluate_many). */
int cpl_replay_alone(struct cpl_replay *rp, int m, const int *k, const int *const *nodes,
                     const int *n, double *t, struct cmn_err *e);
/* One iteration of kernel k alone on nodes 0..n-1 (the reference); with
 * t1, also the whole one-iteration trace's time there (setup and
 * verification included). */
int cpl_replay_reference(struct cpl_replay *rp, int k, int n, double *t, double *t1,
                         struct cmn_err *e);

/* The engine (for live sessions), its alltoall (1: ring) and the replays
 * made so far. */
const struct net_engine_ops *cpl_replay_ops(const struct cpl_replay *rp);
void *cpl_replay_engine(const struct cpl_replay *rp);
int cpl_replay_ring(const struct cpl_replay *rp);
long cpl_replay_count(const struct cpl_replay *rp);

#endif

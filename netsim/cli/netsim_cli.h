/* netsim's command line: one option table (common/options.h) for its two
 * modes, parsed into struct net_cli (netsim_cli.c): replaying jobs' traces
 * (--job, replay_cli.c) or synthetic traffic on the flit engine
 * (--traffic, synth_cli.c). */
#ifndef NET_NETSIM_CLI_H
#define NET_NETSIM_CLI_H

#include "../flit/flit_synth.h"

#define NET_CLI_MAX_JOBS 256
#define NET_CLI_MAX_CFG  64

struct net_cli {
	/* both modes */
	const char *machine, *engine; /* engine NULL: the mode's default */
	const char *links_out;
	int quiet;
	/* replay */
	const char *platform, *hosts, *jobs_out; /* hosts: --hosts as given, or NULL */
	const char *job[NET_CLI_MAX_JOBS];       /* TRACE@NODES[@START], as given */
	int njobs;
	const char *cfg[NET_CLI_MAX_CFG + 1]; /* KEY:VALUE, NULL-terminated */
	int ncfg;
	int alone, periter, ring;
	long long iterations, repeat, max_memory; /* max_memory: --max-memory MB */
	double until;
	/* synthetic traffic */
	const char *traffic, *synth_out, *plot, *preset, *heatmap;
	struct flit_synth_opts synth;
	double sweep[3]; /* --sweep-load FROM:TO:STEP; STEP 0: one load */
};

/* Parses argv into c. Returns 0, CMN_CLI_HELP after printing the help or
 * the version, or CMN_CLI_BAD after printing a usage error (an option of
 * the other mode among them). */
int net_cli_parse(int argc, char **argv, struct net_cli *c);

/* The modes: each returns the exit status. */
int net_replay_main(const struct net_cli *c);
int net_synth_main(const struct net_cli *c);

#endif

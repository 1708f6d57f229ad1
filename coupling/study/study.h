/* cosim's study mode: one experiment per allocator (--alloc given several
 * times) run as parallel child processes, collected into an output folder
 * with a summary row per allocator, plots, and a table on stdout. */
#ifndef CPL_STUDY_H
#define CPL_STUDY_H

#include "../../jobsched/cli/cli.h"

/* The study's own options, on top of jobsched's command line. */
struct cpl_study_opts {
	const char *out;   /* --out DIR: a study; NULL: one run */
	int parallel;      /* --parallel N, 0: the processors online */
	double snapshot;   /* --snapshot T, < 0: half the first makespan */
	const char *hosts; /* --hosts: --platform's hosts as nodes, or NULL */
};

/* so's defaults, and ext to give js_cli_parse (it fills so). */
void cpl_study_ext(struct cpl_study_opts *so, struct js_cli_ext *ext);
/* With --out, the study of the parsed command line c (one run per --alloc);
 * without, c's single run; --platform is read once (any SimGrid platform,
 * with --hosts) for all. Returns the exit status. */
int cpl_study_main(const struct js_cli *c, const struct cpl_study_opts *so);

/* Plots of a finished study (study_plots.c), each PNG written whole or not
 * at all: wait.png (mean wait and response per allocator), speedup.png
 * (distribution of per-job effective speed-up per allocator) and
 * placement.png (the machine with the running jobs' nodes at time t, one
 * panel per allocator; t < 0: half the first allocator's makespan).
 * dir/NAME/jobs.csv hold the per-job results of allocator NAME; the
 * machine is platform (--platform, as read) or made from machine. */
int cpl_study_plots(const char *dir, const char *const *names, const char *const *specs, int n,
                    const char *machine, const struct plat_machine *platform, double t,
                    struct cmn_err *e);

#endif

/* cosim's study mode: one experiment per allocator (--alloc given several
 * times) run as parallel child processes, collected into an output folder
 * with a summary row per allocator, plots, and a table on stdout. */
#ifndef CPL_STUDY_H
#define CPL_STUDY_H

#include "../jobsched/runtime.h"

/* 1 when argv asks for study mode (--out DIR); then cpl_study_main runs it. */
int cpl_study_wanted(int argc, char **argv);
int cpl_study_main(int argc, char **argv, const struct js_runtime_ops *const *runtimes);

/* Plots of a finished study (study_plots.c), each PNG written whole or not
 * at all: wait.png (mean wait and response per allocator), speedup.png
 * (distribution of per-job effective speed-up per allocator) and
 * placement.png (the machine with the running jobs' nodes at time t, one
 * panel per allocator; t < 0: half the first allocator's makespan).
 * dir/NAME/jobs.csv hold the per-job results of allocator NAME. */
int cpl_study_plots(const char *dir, const char *const *names, const char *const *specs, int n,
                    const char *machine, const char *platform, double t, struct cmn_err *e);

#endif

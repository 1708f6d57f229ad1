/* The sweep runner: a sweep file names a command with {placeholders} and
 * parameter axes; the runner expands their cross product (times the
 * repetitions) into points, runs each point as its own process (a local
 * pool, or a Slurm array / GNU parallel job list it emits), and collects
 * every point's summary CSV into one table with the parameters as columns,
 * plus a table of means with 95% confidence intervals across repetitions
 * and plots of them. The file format is in docs/sweep.md. */
#ifndef CPL_SWEEP_H
#define CPL_SWEEP_H

#include <stdio.h>

#include "../../common/err.h"

struct cpl_sweep_axis {
	char *name;
	char **vals;
	int n;
	int line;   /* in the sweep file */
	int linked; /* its values go with the previous axis's (axis A B = ... | ...) */
};

/* A plot of the confidence-interval table: y (mean with its interval as an
 * error bar) against x, one line per value of group, rows filtered by
 * axis=value terms. */
struct cpl_sweep_plot {
	char *png; /* relative to the output directory */
	char *x, *y, *group, *title, *ylabel;
	char **fkey, **fval;
	int nf, logx, logy, line;
};

struct cpl_sweep {
	char *path; /* the sweep file */
	char **cmd; /* command tokens, with placeholders */
	int ncmd, cmd_line;
	struct cpl_sweep_axis *axes;
	int naxes;
	int reps;      /* repetitions: the {rep} placeholder, 1..reps */
	char *out;     /* output directory */
	char *summary; /* each point's summary CSV, with placeholders */
	int summary_line;
	char **metrics; /* columns of the interval table (NULL: all) */
	int nmetrics;
	struct cpl_sweep_plot *plots;
	int nplots;
	long npoints;   /* product of the axes' sizes times reps */
	unsigned keyed; /* the keys given once so far (sweep_file.c's KEY_* bits) */
};

/* Reads and checks a sweep file (errors name path:line). out_dir, when not
 * NULL, replaces the file's out key. */
int cpl_sweep_read(const char *path, const char *out_dir, struct cpl_sweep **out,
                   struct cmn_err *e);
void cpl_sweep_free(struct cpl_sweep *s);

/* Point p (0-based; axes in file order, the first slowest, repetition
 * fastest): axis i's value index and the repetition (1-based). */
int cpl_sweep_value(const struct cpl_sweep *s, long p, int axis);
int cpl_sweep_rep(const struct cpl_sweep *s, long p);
/* Point p's directory (out/points/NAME: its axis values and repetition),
 * its command's arguments with placeholders filled (NULL-terminated) and
 * its summary path; malloc'ed, NULL when out of memory. */
char *cpl_sweep_dir(const struct cpl_sweep *s, long p);
char **cpl_sweep_argv(const struct cpl_sweep *s, long p);
char *cpl_sweep_summary(const struct cpl_sweep *s, long p);
void cpl_sweep_argv_free(char **argv);
/* The index of the axis named name, or -1. */
int cpl_sweep_axis(const struct cpl_sweep *s, const char *name);
/* "dir/name", malloc'ed (NULL when out of memory). */
char *cpl_sweep_path(const char *dir, const char *name);
/* Writes v quoted for a POSIX shell (single quotes). */
void cpl_sweep_shquote(FILE *f, const char *v);
/* 1 when point p's done marker exists. */
int cpl_sweep_done(const struct cpl_sweep *s, long p);

/* Runs the points not yet done with at most jobs processes at a time;
 * progress on stderr when it is a terminal and not quiet. Failing points
 * are reported (command, end of stderr) and counted in *failed; the others
 * go on. Returns an error only for the runner's own failures (e.g. an
 * interruption: the running points are stopped first). */
int cpl_sweep_run(const struct cpl_sweep *s, int jobs, int quiet, long *failed, struct cmn_err *e);

/* Writes out/sweep.csv (every complete point: axes, rep, row, the summary's
 * columns), out/sweep_ci.csv (per axis combination and summary row: n and
 * each metric's mean, standard deviation and 95% interval half-width) and
 * the plots. Points not complete are counted in *missing (the first named
 * on stderr) and left out. */
int cpl_sweep_collect(const struct cpl_sweep *s, long *missing, struct cmn_err *e);

/* A site's resources for the Slurm script: each NULL (or 0) when not
 * given. */
#define CPL_SWEEP_MAX_SBATCH 32
struct cpl_sweep_slurm {
	const char *time, *mem, *partition, *account;
	long throttle;                               /* the array's %N: tasks at a time */
	const char *extra[CPL_SWEEP_MAX_SBATCH + 1]; /* more #SBATCH options, "--key=value" */
	int nextra;
};

/* 0 when r's values can stand in #SBATCH lines (Slurm's time and memory
 * formats, names without spaces, extra options --key[=value]); else a
 * usage error naming the option. */
int cpl_sweep_slurm_check(const struct cpl_sweep_slurm *r, struct cmn_err *e);

/* Writes a Slurm job-array script (with r's resources; NULL: none) or a
 * GNU parallel job list doing what cpl_sweep_run does, to path. */
int cpl_sweep_emit(const struct cpl_sweep *s, const char *kind, const struct cpl_sweep_slurm *r,
                   const char *path, struct cmn_err *e);

#endif

/* sweep: runs a parameter sweep described by a sweep file (README.md,
 * "sweep") on this machine's cores, or writes it out for Slurm or GNU
 * parallel, and collects the points' summaries into tables and plots. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../common/number.h"
#include "../../common/options.h"
#include "../../common/outfile.h"
#include "sweep.h"

static void exit_status(FILE *f, const void *ctx)
{
	(void)ctx;
	fprintf(f, "exit status: 0 all points done and collected; 1 a point failed or is missing\n"
	           "(the tables hold the others), or an error; 2 bad options.\n");
}

enum {
	O_OUT = 256,
	O_DRY,
	O_COLLECT,
	O_EMIT,
	O_QUIET,
	O_TIME,
	O_MEM,
	O_PARTITION,
	O_ACCOUNT,
	O_THROTTLE,
	O_SBATCH
};

static const struct cmn_opt opts[] = {
    {"parallel", 'j', "N", "points run at a time (default: the cores here)"},
    {"out", O_OUT, "DIR", "output directory (instead of the file's out key)"},
    {"dry-run", O_DRY, NULL, "list every point's directory and command; run nothing"},
    {"collect", O_COLLECT, NULL, "only collect what the points wrote (e.g. on a cluster)"},
    {"emit", O_EMIT, "slurm|parallel",
     "write a Slurm job-array script or a GNU parallel job\n"
     "list (one task per point) instead of running"},
    {"output", 'o', "FILE", "where --emit writes (default OUT/sweep.slurm or\nOUT/sweep.jobs)"},
    {"quiet", O_QUIET, NULL, "no progress on stderr"},
    CMN_OPT_SECTION("the Slurm script's resources (with --emit slurm)"),
    {"time", O_TIME, "T",
     "each task's time limit (Slurm's format: minutes,\n"
     "HH:MM:SS, D-HH:MM, ...)"},
    {"mem", O_MEM, "M", "each task's memory (e.g. 4G)"},
    {"partition", O_PARTITION, "P", "the partition"},
    {"account", O_ACCOUNT, "A", "the account charged"},
    {"throttle", O_THROTTLE, "N", "at most N tasks at a time (the array's %N)"},
    {"sbatch", O_SBATCH, "--KEY[=VALUE]",
     "any other #SBATCH option, e.g. --sbatch=--qos=long\n(repeatable)"},
    {NULL, 0, NULL, NULL}};

static const char *const sweep_repeatable[] = {"sbatch", NULL};

static const struct cmn_cli cli = {
    "sweep",
    "usage: sweep FILE.sweep [options]\n",
    "Expands the sweep file's axes (cross product, times its repetitions) into\n"
    "points, runs each point's command as its own process, and collects every\n"
    "point's summary CSV into OUT/sweep.csv (one row per point and summary row,\n"
    "the parameters as columns), OUT/sweep_ci.csv (per parameter combination:\n"
    "mean, standard deviation and 95% confidence half-width of each metric\n"
    "across repetitions) and the file's plots. Points already done are skipped,\n"
    "so an interrupted sweep goes on where it stopped.\n",
    opts,
    exit_status,
    NULL,
    sweep_repeatable};

/* What the tool printed on stdout may be lost (a full disk): exit 1 then. */
static void stdout_check(void)
{
	cmn_outfile_stdout_check("sweep");
}

int main(int argc, char **argv)
{
	cmn_outfile_size_limit_errors();
	atexit(stdout_check);
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int jobs = cores > 0 ? (int)cores : 1, dry = 0, collect = 0, quiet = 0, k;
	const char *out = NULL, *emit = NULL, *output = NULL;
	struct cpl_sweep_slurm res = {0};
	int slurm_given = 0;
	struct cmn_err e;
	cmn_err_clear(&e);
	struct cmn_cli_iter it;
	cmn_cli_begin(&it, &cli, argc, argv);
	while ((k = cmn_cli_next(&it)) > 0) {
		long long j;
		switch (k) {
		case 'j':
			if (cmn_opt_int("--parallel", it.arg, 1, 4096, &j, &e))
				return cmn_cli_usage_error(&cli, "%s (processes at a time)", e.msg);
			jobs = (int)j;
			break;
		case O_OUT: out = it.arg; break;
		case O_DRY: dry = 1; break;
		case O_COLLECT: collect = 1; break;
		case O_EMIT: emit = it.arg; break;
		case 'o': output = it.arg; break;
		case O_QUIET: quiet = 1; break;
		case O_TIME: res.time = it.arg, slurm_given = 1; break;
		case O_MEM: res.mem = it.arg, slurm_given = 1; break;
		case O_PARTITION: res.partition = it.arg, slurm_given = 1; break;
		case O_ACCOUNT: res.account = it.arg, slurm_given = 1; break;
		case O_THROTTLE:
			if (cmn_opt_int("--throttle", it.arg, 1, 1000000, &j, &e))
				return cmn_cli_usage_error(&cli, "%s", e.msg);
			res.throttle = (long)j, slurm_given = 1;
			break;
		case O_SBATCH:
			if (res.nextra == CPL_SWEEP_MAX_SBATCH)
				return cmn_cli_usage_error(&cli, "--sbatch: at most %d",
				                           CPL_SWEEP_MAX_SBATCH);
			res.extra[res.nextra++] = it.arg, slurm_given = 1;
			break;
		}
	}
	if (k < 0)
		return cmn_cli_status(k);
	int first = it.first;
	if (first != argc - 1 || dry + collect + !!emit > 1 || (output && !emit))
		return cmn_cli_usage_error(&cli,
		                           "give one sweep file and at most one of --dry-run, "
		                           "--collect and --emit (-o goes with --emit)");
	if (slurm_given && (!emit || strcmp(emit, "slurm")))
		return cmn_cli_usage_error(&cli,
		                           "--time, --mem, --partition, --account, --throttle "
		                           "and --sbatch go with --emit slurm");
	if (slurm_given && cpl_sweep_slurm_check(&res, &e))
		return cmn_cli_usage_error(&cli, "%s", e.msg);
	struct cpl_sweep *s;
	if (cpl_sweep_read(argv[first], out, &s, &e)) {
		fprintf(stderr, "sweep: %s\n", e.msg);
		return cmn_err_exit_status(&e);
	}
	int rc = 0;
	long failed = 0, missing = 0;
	if (dry) {
		for (long p = 0; p < s->npoints; p++) {
			char *dir = cpl_sweep_dir(s, p), **av = cpl_sweep_argv(s, p);
			printf("%s%s\n  ", dir ? dir : "?", cpl_sweep_done(s, p) ? " (done)" : "");
			for (int i = 0; av && av[i]; i++) {
				if (i)
					putchar(' ');
				cpl_sweep_shquote(stdout, av[i]);
			}
			putchar('\n');
			free(dir);
			cpl_sweep_argv_free(av);
		}
		printf("%ld points\n", s->npoints);
	} else if (emit) {
		char *def = NULL;
		if (!output)
			def = cpl_sweep_path(s->out,
			                     strcmp(emit, "slurm") ? "sweep.jobs" : "sweep.slurm");
		mkdir(s->out, 0777); /* for the default output and Slurm's logs */
		if (!output && !def)
			rc = cmn_err_set(&e, CMN_ENOMEM, "out of memory");
		else if (!(rc = cpl_sweep_emit(s, emit, &res, output ? output : def, &e)) && !quiet)
			fprintf(stderr, "sweep: %ld points written to %s\n", s->npoints,
			        output ? output : def);
		free(def);
	} else {
		if (!collect)
			rc = cpl_sweep_run(s, jobs, quiet, &failed, &e);
		if (!rc)
			rc = cpl_sweep_collect(s, &missing, &e);
	}
	if (rc)
		fprintf(stderr, "sweep: %s\n", e.msg);
	else if (failed || missing) {
		fprintf(stderr,
		        "sweep: %ld of %ld points failed or not done; the tables in %s hold the "
		        "others\n",
		        missing, s->npoints, s->out);
		rc = 1;
	} else if (!dry && !emit && !quiet)
		fprintf(stderr, "sweep: %ld points; tables in %s/sweep.csv and %s/sweep_ci.csv\n",
		        s->npoints, s->out, s->out);
	int status = rc == 1 && (failed || missing) ? 1 : rc ? cmn_err_exit_status(&e) : 0;
	cpl_sweep_free(s);
	return status;
}

/* sweep: runs a parameter sweep described by a sweep file (README.md,
 * "sweep") on this machine's cores, or writes it out for Slurm or GNU
 * parallel, and collects the points' summaries into tables and plots. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/number.h"
#include "sweep.h"

#ifndef PROJECT_VERSION
#define PROJECT_VERSION "unknown"
#endif

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: sweep FILE.sweep [options]\n"
	        "\n"
	        "Expands the sweep file's axes (cross product, times its repetitions) into\n"
	        "points, runs each point's command as its own process, and collects every\n"
	        "point's summary CSV into OUT/sweep.csv (one row per point and summary row,\n"
	        "the parameters as columns), OUT/sweep_ci.csv (per parameter combination:\n"
	        "mean, standard deviation and 95%% confidence half-width of each metric\n"
	        "across repetitions) and the file's plots. Points already done are skipped,\n"
	        "so an interrupted sweep goes on where it stopped.\n"
	        "\n"
	        "options:\n"
	        "  -j, --jobs N           points run at a time (default: the cores here)\n"
	        "  --out DIR              output directory (instead of the file's out key)\n"
	        "  --dry-run              list every point's directory and command; run nothing\n"
	        "  --collect              only collect what the points wrote (e.g. on a cluster)\n"
	        "  --emit slurm|parallel  write a Slurm job-array script or a GNU parallel job\n"
	        "                         list (one task per point) instead of running\n"
	        "  -o, --output FILE      where --emit writes (default OUT/sweep.slurm or\n"
	        "                         OUT/sweep.jobs)\n"
	        "  --quiet                no progress on stderr\n"
	        "  --help, --version\n"
	        "\n"
	        "exit status: 0 all points done and collected; 1 a point failed or is missing\n"
	        "(the tables hold the others), or an error; 2 bad options.\n");
}

int main(int argc, char **argv)
{
	enum { O_OUT = 256, O_DRY, O_COLLECT, O_EMIT, O_QUIET, O_HELP, O_VERSION };
	static const struct option opts[] = {
	    {"jobs", 1, 0, 'j'},          {"out", 1, 0, O_OUT},
	    {"dry-run", 0, 0, O_DRY},     {"collect", 0, 0, O_COLLECT},
	    {"emit", 1, 0, O_EMIT},       {"output", 1, 0, 'o'},
	    {"quiet", 0, 0, O_QUIET},     {"help", 0, 0, O_HELP},
	    {"version", 0, 0, O_VERSION}, {0, 0, 0, 0}};
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int jobs = cores > 0 ? (int)cores : 1, dry = 0, collect = 0, quiet = 0, opt;
	const char *out = NULL, *emit = NULL, *output = NULL;
	struct cmn_err e;
	cmn_err_clear(&e);
	while ((opt = getopt_long(argc, argv, "j:o:", opts, NULL)) != -1) {
		long long j;
		switch (opt) {
		case 'j':
			if (cmn_opt_int("--jobs", optarg, 1, 4096, &j, &e)) {
				fprintf(stderr, "sweep: %s (processes at a time)\n", e.msg);
				return 2;
			}
			jobs = (int)j;
			break;
		case O_OUT: out = optarg; break;
		case O_DRY: dry = 1; break;
		case O_COLLECT: collect = 1; break;
		case O_EMIT: emit = optarg; break;
		case 'o': output = optarg; break;
		case O_QUIET: quiet = 1; break;
		case O_HELP: usage(stdout); return 0;
		case O_VERSION: printf("sweep %s\n", PROJECT_VERSION); return 0;
		default: fprintf(stderr, "(try sweep --help)\n"); return 2;
		}
	}
	if (optind != argc - 1 || dry + collect + !!emit > 1 || (output && !emit)) {
		fprintf(stderr,
		        "sweep: give one sweep file and at most one of --dry-run, --collect "
		        "and --emit (-o goes with --emit)\n(try sweep --help)\n");
		return 2;
	}
	struct cpl_sweep *s;
	if (cpl_sweep_read(argv[optind], out, &s, &e)) {
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
		else if (!(rc = cpl_sweep_emit(s, emit, output ? output : def, &e)) && !quiet)
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

/* A sweep for other engines (sweep.h): a Slurm job-array script (one array
 * task per point) or a GNU parallel job list (one line per point). Each
 * task does what the local runner does for its point — skip it when its
 * done marker exists, run the command with stdout and stderr in the
 * point's directory, check the summary, write the marker — so resubmitting
 * resumes, and `sweep --collect` reads their outputs like its own. */
#include <stdlib.h>
#include <string.h>

#include "../../common/outfile.h"
#include "sweep.h"

/* Point p's command, directory and summary as shell words. */
static int words(FILE *f, const struct cpl_sweep *s, long p, const char *sep_dir,
                 const char *sep_sum, const char *sep_cmd)
{
	char *dir = cpl_sweep_dir(s, p), *sum = cpl_sweep_summary(s, p),
	     **argv = cpl_sweep_argv(s, p);
	int ok = dir && sum && argv;
	if (ok) {
		fputs(sep_dir, f);
		cpl_sweep_shquote(f, dir);
		fputs(sep_sum, f);
		cpl_sweep_shquote(f, sum);
		fputs(sep_cmd, f);
		for (int i = 0; argv[i]; i++) {
			if (i)
				fputc(' ', f);
			cpl_sweep_shquote(f, argv[i]);
		}
	}
	free(dir), free(sum);
	cpl_sweep_argv_free(argv);
	return ok ? 0 : -1;
}

static int slurm(FILE *f, const struct cpl_sweep *s)
{
	fprintf(f,
	        "#!/bin/bash\n"
	        "#SBATCH --job-name=sweep\n"
	        "#SBATCH --array=1-%ld\n"
	        "#SBATCH --output=",
	        s->npoints);
	fputs(s->out, f); /* #SBATCH lines are not shell: no quoting */
	fputs("/slurm-%A_%a.log\n"
	      "# One array task per point of the sweep ",
	      f);
	cpl_sweep_shquote(f, s->path);
	fprintf(f,
	        " (%ld points). Submit from the directory the\n"
	        "# sweep was written from (its paths are relative to it): sbatch THIS_FILE.\n"
	        "# Tasks whose point is done exit at once, so resubmitting resumes; then\n"
	        "# `sweep FILE --collect` makes the tables. Run locally, task by task:\n"
	        "#   for i in $(seq 1 %ld); do SLURM_ARRAY_TASK_ID=$i bash THIS_FILE; done\n"
	        "set -u\n"
	        "case \"${SLURM_ARRAY_TASK_ID:?run as a Slurm array task}\" in\n",
	        s->npoints, s->npoints);
	for (long p = 0; p < s->npoints; p++) {
		fprintf(f, "%ld)", p + 1);
		if (words(f, s, p, " dir=", "; summary=", "; set -- "))
			return -1;
		fputs(" ;;\n", f);
	}
	fputs("*) echo \"sweep: no point $SLURM_ARRAY_TASK_ID\" >&2; exit 2 ;;\n"
	      "esac\n"
	      "[ -e \"$dir/done\" ] && exit 0\n"
	      "mkdir -p \"$dir\" || exit 1\n"
	      "start=$(date +%s)\n"
	      "\"$@\" > \"$dir/stdout\" 2> \"$dir/stderr\"\n"
	      "status=$?\n"
	      "if [ $status -ne 0 ]; then\n"
	      "  echo \"sweep: point $dir failed (exit status $status): $*\" >&2\n"
	      "  tail -n 5 \"$dir/stderr\" >&2\n"
	      "  exit $status\n"
	      "fi\n"
	      "if [ $(wc -l < \"$summary\" 2>/dev/null || echo 0) -lt 2 ]; then\n"
	      "  echo \"sweep: point $dir: no summary $summary\" >&2\n"
	      "  exit 1\n"
	      "fi\n"
	      "printf 'command: %s\\nelapsed_s: %s\\n' \"$*\" $(( $(date +%s) - start )) > "
	      "\"$dir/done.tmp\" && mv \"$dir/done.tmp\" \"$dir/done\"\n",
	      f);
	return 0;
}

static int parallel(FILE *f, const struct cpl_sweep *s)
{
	for (long p = 0; p < s->npoints; p++) {
		/* a subshell per line: dir=..; summary=..; set -- COMMAND; then the task */
		fputc('(', f);
		if (words(f, s, p, "dir=", "; summary=", "; set -- "))
			return -1;
		fputs("; [ -e \"$dir/done\" ] || { mkdir -p \"$dir\" && "
		      "\"$@\" > \"$dir/stdout\" 2> \"$dir/stderr\" && "
		      "[ $(wc -l < \"$summary\") -ge 2 ] && "
		      "printf 'command: %s\\n' \"$*\" > \"$dir/done.tmp\" && "
		      "mv \"$dir/done.tmp\" \"$dir/done\"; })\n",
		      f);
	}
	return 0;
}

int cpl_sweep_emit(const struct cpl_sweep *s, const char *kind, const char *path, struct cmn_err *e)
{
	int is_slurm = !strcmp(kind, "slurm");
	if (!is_slurm && strcmp(kind, "parallel"))
		return cmn_err_set(e, CMN_EUSAGE, "--emit %s: slurm or parallel", kind);
	struct cmn_outfile of;
	int rc = cmn_outfile_open(&of, path, e);
	if (rc)
		return rc;
	if ((is_slurm ? slurm : parallel)(of.f, s)) {
		cmn_outfile_abort(&of);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	return cmn_outfile_commit(&of, e);
}

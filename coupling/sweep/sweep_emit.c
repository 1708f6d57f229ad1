/* A sweep for other engines (sweep.h): a Slurm job-array script (one array
 * task per point) or a GNU parallel job list (one line per point). Each
 * task does what the local runner does for its point — skip it when its
 * done marker exists, run the command with stdout and stderr in the
 * point's directory, check the summary, write the marker — so resubmitting
 * resumes, and `sweep --collect` reads their outputs like its own. */
#include <ctype.h>
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

/* 1 when v is digits, at least one. */
static int digits(const char *v, size_t n)
{
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)v[i]))
			return 0;
	return 1;
}

/* Slurm's --time: minutes, minutes:seconds, hours:minutes:seconds,
 * days-hours, days-hours:minutes, days-hours:minutes:seconds. */
static int slurm_time(const char *v)
{
	const char *dash = strchr(v, '-');
	if (dash && !digits(v, (size_t)(dash - v)))
		return 0;
	const char *p = dash ? dash + 1 : v;
	int fields = 0;
	for (;;) {
		size_t n = strcspn(p, ":");
		if (!digits(p, n) || ++fields > 3)
			return 0;
		if (!p[n])
			break;
		p += n + 1;
	}
	return 1;
}

/* Slurm's --mem: a number with an optional unit K, M, G or T. */
static int slurm_mem(const char *v)
{
	size_t n = strspn(v, "0123456789");
	return n > 0 && (!v[n] || (strchr("KMGTkmgt", v[n]) && !v[n + 1]));
}

/* A name in an #SBATCH line: printable, no space, quote or '#'. */
static int slurm_word(const char *v)
{
	if (!*v)
		return 0;
	for (const char *p = v; *p; p++)
		if (!isgraph((unsigned char)*p) || strchr("\"'#\\", *p))
			return 0;
	return 1;
}

int cpl_sweep_slurm_check(const struct cpl_sweep_slurm *r, struct cmn_err *e)
{
	if (r->time && !slurm_time(r->time))
		return cmn_err_set(e, CMN_EUSAGE,
		                   "--time '%s': not a Slurm time (minutes, MM:SS, HH:MM:SS, D-HH, "
		                   "D-HH:MM or D-HH:MM:SS)",
		                   r->time);
	if (r->mem && !slurm_mem(r->mem))
		return cmn_err_set(
		    e, CMN_EUSAGE,
		    "--mem '%s': not a Slurm memory size (a number and K, M, G or T)", r->mem);
	if (r->partition && !slurm_word(r->partition))
		return cmn_err_set(e, CMN_EUSAGE, "--partition '%s': not a name", r->partition);
	if (r->account && !slurm_word(r->account))
		return cmn_err_set(e, CMN_EUSAGE, "--account '%s': not a name", r->account);
	for (int i = 0; i < r->nextra; i++) {
		const char *x = r->extra[i];
		if (strncmp(x, "--", 2) || !slurm_word(x) || x[2] == '=' || !x[2] ||
		    !strncmp(x, "--array", 7) || !strncmp(x, "--output", 8))
			return cmn_err_set(e, CMN_EUSAGE,
			                   "--sbatch '%s': give one option as --key or --key=value "
			                   "(no spaces; --array and --output are the sweep's)",
			                   x);
	}
	return 0;
}

static int slurm(FILE *f, const struct cpl_sweep *s, const struct cpl_sweep_slurm *r)
{
	fprintf(f,
	        "#!/bin/bash\n"
	        "#SBATCH --job-name=sweep\n"
	        "#SBATCH --array=1-%ld",
	        s->npoints);
	if (r && r->throttle > 0)
		fprintf(f, "%%%ld", r->throttle);
	fputc('\n', f);
	const char *keys[] = {"time", "mem", "partition", "account"};
	const char *vals[] = {r ? r->time : NULL, r ? r->mem : NULL, r ? r->partition : NULL,
	                      r ? r->account : NULL};
	for (int k = 0; k < 4; k++)
		if (vals[k])
			fprintf(f, "#SBATCH --%s=%s\n", keys[k], vals[k]);
	for (int i = 0; r && i < r->nextra; i++)
		fprintf(f, "#SBATCH %s\n", r->extra[i]);
	fputs("#SBATCH --output=", f);
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

int cpl_sweep_emit(const struct cpl_sweep *s, const char *kind, const struct cpl_sweep_slurm *r,
                   const char *path, struct cmn_err *e)
{
	int is_slurm = !strcmp(kind, "slurm");
	if (!is_slurm && strcmp(kind, "parallel"))
		return cmn_err_set(e, CMN_EUSAGE, "--emit %s: slurm or parallel", kind);
	if (r && is_slurm && cpl_sweep_slurm_check(r, e))
		return e->code;
	/* #SBATCH lines are read by sbatch, not a shell: no quoting there, a space
	 * splits the path and % starts one of its patterns */
	if (is_slurm && strpbrk(s->out, " \t\n%\"'\\"))
		return cmn_err_set(
		    e, CMN_EUSAGE,
		    "--emit slurm: the output folder '%s' holds a space, a quote, "
		    "a backslash or a '%%', which #SBATCH --output cannot take: give "
		    "another --out",
		    s->out);
	struct cmn_outfile of;
	int rc = cmn_outfile_open(&of, path, e);
	if (rc)
		return rc;
	if (is_slurm ? slurm(of.f, s, r) : parallel(of.f, s)) {
		cmn_outfile_abort(&of);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	return cmn_outfile_commit(&of, e);
}

/* tracegen: NPB-like TI traces, and checking, statistics and comparison of
 * any TI trace. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/number.h"
#include "../common/options.h"
#include "../common/outfile.h"
#include "gen.h"
#include "trace.h"
#include "trace_archive.h"
#include "trace_stats.h"

static void kernels(FILE *f, const void *ctx)
{
	(void)ctx;
	cmn_registry_help(f, (const void *const *)trace_gen_registry, "kernel");
}

enum {
	O_CHECK = 256,
	O_STATS,
	O_COMPARE,
	O_CLASS,
	O_RANKS,
	O_ITER,
	O_SCALE,
	O_NAME,
	O_MATRIX,
	O_TOL,
	O_DRY,
	O_REWRITE,
	O_OUT
};

static const struct cmn_opt opts[] = {
    {"ranks", O_RANKS, "N", "rank count (any; see README for exact NPB counts)"},
    {"class", O_CLASS, "C", "problem class S W A B C D (default S)"},
    {"iterations", O_ITER, "K", "main-loop iterations (default 0: the class's own count)"},
    {"flop-scale", O_SCALE, "F", "multiply every compute amount (default 1)"},
    {"name", O_NAME, "BASE", "file names (default KERNEL.CLASS.RANKS)"},
    {"out", O_OUT, "DIR",
     "output folder (created; as cosim's --out, no -o: -o is a\nfile in every tool)"},
    {"dry-run", O_DRY, NULL, "generate and validate only, write nothing"},
    {"check", O_CHECK, "TRACE",
     "validate (syntax, ranges, matching pass); exit 1 with the\n"
     "first error as file:line: rank"},
    {"stats", O_STATS, "TRACE", "per-rank and total statistics and the traffic matrix"},
    {"matrix-out", O_MATRIX, "FILE",
     "the traffic matrix as CSV (src,dst,bytes,p2p_bytes,\np2p_messages)"},
    {"rewrite", O_REWRITE, "TRACE",
     "write any trace as index + rank files, compute scaled by\n--flop-scale"},
    {"compare", O_COMPARE, "A",
     "A and the operand B: two traces' statistics side by side;\n"
     "exit 1 when some differ by more than the tolerance"},
    {"tolerance", O_TOL, "T", "--compare's relative tolerance (default 0.05)"},
    {NULL, 0, NULL, NULL}};

static const struct cmn_cli cli = {
    "tracegen",
    "usage: tracegen KERNEL --ranks N [--class C] [--iterations K] [--flop-scale F]\n"
    "                [--name BASE] --out DIR\n"
    "       tracegen --check TRACE\n"
    "       tracegen --stats TRACE [--matrix-out FILE.csv]\n"
    "       tracegen --compare TRACE_A TRACE_B [--tolerance T]\n"
    "       tracegen --rewrite TRACE [--flop-scale F] [--name BASE] --out DIR\n",
    "Writes the NPB-like trace of KERNEL in SimGrid's time-independent format:\n"
    "DIR/BASE.txt (the index) and DIR/BASE.txt_files/rank-R.txt (one per rank).\n"
    "A TRACE is an index of per-rank files or one file of actions, plain or gzip'ed.\n",
    opts,
    kernels,
    NULL,
    NULL};

static int fail(const struct cmn_err *e)
{
	fprintf(stderr, "tracegen: %s\n", e->msg);
	return cmn_err_exit_status(e);
}

static int load(const char *path, struct trace **t, struct trace_stats *s, struct cmn_err *e)
{
	if (trace_load_any(path, t, e))
		return e->code;
	if (s && trace_stats_compute(*t, s, e)) {
		trace_free(*t);
		return e->code;
	}
	return 0;
}

/* What the tool printed on stdout may be lost (a full disk): exit 1 then. */
static void stdout_check(void)
{
	cmn_outfile_stdout_check("tracegen");
}

int main(int argc, char **argv)
{
	cmn_outfile_size_limit_errors();
	atexit(stdout_check);
	const char *rewrite = NULL, *check = NULL, *stats = NULL, *cmp = NULL, *out = NULL,
	           *name = NULL, *matrix = NULL, *cls = "S";
	long long ranks = -1, iters = 0;
	double scale = 1, tol = 0.05;
	int k, dry = 0, usage_err = 0;
	struct cmn_err e;
	cmn_err_clear(&e);
	struct cmn_cli_iter it;
	cmn_cli_begin(&it, &cli, argc, argv);
	while (!usage_err && (k = cmn_cli_next(&it)) > 0) {
		const char *arg = it.arg;
		switch (k) {
		case O_CHECK: check = arg; break;
		case O_STATS: stats = arg; break;
		case O_COMPARE: cmp = arg; break;
		case O_CLASS: cls = arg; break;
		case O_RANKS:
			usage_err = cmn_opt_int("--ranks", arg, 1, INT_MAX, &ranks, &e);
			break;
		case O_ITER:
			usage_err = cmn_opt_int("--iterations", arg, 0, INT_MAX, &iters, &e);
			break;
		case O_SCALE:
			usage_err = cmn_opt_real_pos("--flop-scale", arg, 1e12, &scale, &e);
			break;
		case O_NAME: /* a file name in --out, not a path */
			name = arg;
			if (!*arg || *arg == '.' || strchr(arg, '/'))
				usage_err =
				    cmn_err_set(&e, CMN_EUSAGE,
				                "--name '%s': a file name (no '/', not empty, "
				                "not starting with '.'): the trace goes in --out",
				                arg);
			break;
		case O_MATRIX: matrix = arg; break;
		case O_TOL: usage_err = cmn_opt_real("--tolerance", arg, 0, 1e9, &tol, &e); break;
		case O_OUT: out = arg; break;
		case O_DRY: dry = 1; break;
		case O_REWRITE: rewrite = arg; break;
		}
	}
	if (usage_err)
		return cmn_cli_usage_error(&cli, "%s", e.msg);
	if (k < 0)
		return cmn_cli_status(k);
	int first = it.first;
	struct trace *t;
	struct trace_stats s;
	if (check || stats) {
		if (first < argc || (check && stats) || cmp) {
			fprintf(stderr, "tracegen: --check and --stats take one trace, alone\n");
			return 2;
		}
		const struct cmn_path out = {"--matrix-out", matrix},
		                      in = {"the --stats trace", stats};
		if (cmn_outfile_check_paths(&out, 1, &in, 1, &e))
			return cmn_cli_usage_error(&cli, "%s", e.msg);
		if (check && trace_is_archive(check) ? trace_load_archive(check, NULL, &t, &e)
		    : check ? trace_load_ex(check, TRACE_LOAD_FRAGMENT, &t, &e)
		            : load(stats, &t, &s, &e))
			return fail(&e);
		if (check && t->fragment >= 0)
			printf(
			    "%s: ok, rank %d's %ld actions (one file of a trace of at least %d "
			    "ranks: syntax and ranges checked; the matching pass needs the whole "
			    "trace)\n",
			    check, t->fragment, t->first[t->nranks], t->nranks);
		else if (check)
			printf("%s: ok, %d ranks, %ld actions\n", check, t->nranks,
			       t->first[t->nranks]);
		int rc = 0;
		if (stats) {
			trace_stats_print(&s, stats, 16, stdout);
			struct cmn_outfile o;
			if (matrix && !(rc = cmn_outfile_open(&o, matrix, &e))) {
				if (trace_stats_matrix_csv(&s, o.f)) {
					cmn_outfile_abort(&o);
					rc = cmn_err_set(&e, CMN_EIO, "%s: cannot write", matrix);
				} else {
					rc = cmn_outfile_commit(&o, &e);
				}
			}
			trace_stats_free(&s);
		}
		trace_free(t);
		return rc ? fail(&e) : 0;
	}
	if (rewrite) { /* any trace, compute scaled, as index + rank files */
		if (first < argc || !out || check || stats || cmp) {
			fprintf(
			    stderr,
			    "tracegen: --rewrite TRACE [--flop-scale F] [--name BASE] --out DIR\n");
			return 2;
		}
		if (trace_load_any(rewrite, &t, &e))
			return fail(&e);
		if (trace_scale_flops(t, scale, &e)) {
			trace_free(t);
			return fail(&e);
		}
		const char *slash = strrchr(rewrite, '/');
		char base[128];
		snprintf(base, sizeof base, "%s", name ? name : slash ? slash + 1 : rewrite);
		char *dot = name ? NULL : strstr(base, ".txt");
		if (dot)
			*dot = '\0';
		char index[4096];
		snprintf(index, sizeof index, "%s/%s.txt", out, base);
		if (cmn_outfile_same(index, rewrite)) {
			trace_free(t);
			return cmn_cli_usage_error(
			    &cli,
			    "--out %s would write %s, the --rewrite trace: an "
			    "output never replaces an input (give --name)",
			    out, index);
		}
		int rc = trace_write(t, out, base, &e);
		if (!rc)
			fprintf(stderr, "tracegen: %s/%s.txt: %d ranks, %ld actions\n", out, base,
			        t->nranks, t->first[t->nranks]);
		trace_free(t);
		return rc ? fail(&e) : 0;
	}
	if (cmp) {
		if (first != argc - 1) {
			fprintf(stderr, "tracegen: --compare A B\n");
			return 2;
		}
		struct trace *t2;
		struct trace_stats s2;
		if (load(cmp, &t, &s, &e))
			return fail(&e);
		if (load(argv[first], &t2, &s2, &e)) {
			trace_stats_free(&s);
			trace_free(t);
			return fail(&e);
		}
		int bad = trace_stats_compare(&s, cmp, &s2, argv[first], tol, stdout);
		trace_stats_free(&s);
		trace_stats_free(&s2);
		trace_free(t);
		trace_free(t2);
		return bad ? 1 : 0;
	}
	if (first != argc - 1 || (!out && !dry) || ranks < 1 || strlen(cls) != 1) {
		return cmn_cli_usage_error(
		    &cli, "give KERNEL, --ranks N and --out DIR (and a one-letter --class)");
	}
	int exact;
	if (trace_generate(argv[first], cls[0], (int)ranks, (int)iters, scale, &t, &exact, &e))
		return fail(&e);
	char base[128];
	snprintf(base, sizeof base, "%s", name ? name : t->name);
	int rc = dry ? 0 : trace_write(t, out, base, &e);
	if (!rc)
		fprintf(stderr,
		        "tracegen: %s%s%s.txt: %d ranks (%s), %ld actions, %.1f MB in memory, "
		        "about %.1f MB of text\n",
		        dry ? "(dry run, not written) " : out, dry ? "" : "/", base, t->nranks,
		        exact ? "an exact NPB rank count" : "generalized decomposition",
		        t->first[t->nranks], trace_memory(t) / 1e6, trace_write_bytes(t) / 1e6);
	trace_free(t);
	return rc ? fail(&e) : 0;
}

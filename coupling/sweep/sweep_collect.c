/* Collecting a sweep (sweep.h): every complete point's summary CSV into
 * sweep.csv with the parameters as columns; the mean, standard deviation
 * and 95% confidence interval (Student's t, GSL) of each metric across the
 * repetitions into sweep_ci.csv; and the plots of those with error bars. */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/csv_read.h"
#include "../../common/csv_write.h"
#include "../../common/gnuplot.h"
#include "../../common/outfile.h"
#include "sweep.h"

struct table {
	const struct cpl_sweep *s;
	struct cmn_csv **pt;       /* per point: its summary, NULL when not complete */
	const struct cmn_csv *ref; /* the first complete point's: the header */
	int maxrows;
	int *metric; /* summary column of each metric */
	int nmetric;
	double *buf; /* scratch: one value per repetition */
};

/* One metric of one group (axis values g, summary row r). */
struct stat {
	int n, numeric; /* values; all numbers */
	double mean, sd, ci;
	const char *text; /* when not numeric: the value all share, or NULL */
};

static int is_number(const char *v, double *x)
{
	char *end;
	*x = strtod(v, &end);
	return *v && !*end && isfinite(*x);
}

static struct stat stats(struct table *t, long g, int r, int col)
{
	struct stat st = {0, 1, NAN, NAN, NAN, NULL};
	int same = 1;
	for (int k = 0; k < t->s->reps; k++) {
		const struct cmn_csv *c = t->pt[g * t->s->reps + k];
		if (!c || (size_t)r >= c->nrows)
			continue;
		const char *v = c->rows[r][col];
		if (!is_number(v, &t->buf[st.n]))
			st.numeric = 0;
		if (st.text && strcmp(st.text, v))
			same = 0;
		st.text = v;
		st.n++;
	}
	if (!st.n || !st.numeric) {
		st.numeric = 0;
		if (!same)
			st.text = NULL;
		return st;
	}
	st.mean = gsl_stats_mean(t->buf, 1, (size_t)st.n);
	if (st.n > 1) {
		st.sd = gsl_stats_sd_m(t->buf, 1, (size_t)st.n, st.mean);
		st.ci = gsl_cdf_tdist_Pinv(0.975, st.n - 1) * st.sd / sqrt(st.n);
	}
	return st;
}

static void put_num(FILE *f, double x)
{
	if (isfinite(x))
		fprintf(f, "%.10g", x);
}

static int same_header(const struct cmn_csv *a, const struct cmn_csv *b)
{
	if (a->ncols != b->ncols)
		return 0;
	for (int i = 0; i < a->ncols; i++)
		if (strcmp(a->header[i], b->header[i]))
			return 0;
	return 1;
}

/* A summary column's name in the tables: prefixed when an axis, rep, row or
 * n has its name. */
static void col_name(FILE *f, const struct cpl_sweep *s, const char *name)
{
	if (cpl_sweep_axis(s, name) >= 0 || !strcmp(name, "rep") || !strcmp(name, "row") ||
	    !strcmp(name, "n"))
		fputs("summary.", f);
	cmn_csv_field(f, name);
}

/* Opens OUT/name and writes its header's first columns: the axes. */
static int open_table(const struct cpl_sweep *s, const char *name, struct cmn_outfile *of,
                      struct cmn_err *e)
{
	char *path = cpl_sweep_path(s->out, name);
	if (!path)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	int rc = cmn_outfile_open(of, path, e);
	free(path);
	for (int i = 0; !rc && i < s->naxes; i++)
		cmn_csv_field(of->f, s->axes[i].name), fputc(',', of->f);
	return rc;
}

static int write_points(struct table *t, struct cmn_err *e)
{
	const struct cpl_sweep *s = t->s;
	struct cmn_outfile of;
	int rc = open_table(s, "sweep.csv", &of, e);
	if (rc)
		return rc;
	fputs("rep,row", of.f);
	for (int c = 0; c < t->ref->ncols; c++)
		fputc(',', of.f), col_name(of.f, s, t->ref->header[c]);
	fputc('\n', of.f);
	for (long p = 0; p < s->npoints; p++)
		for (size_t r = 0; t->pt[p] && r < t->pt[p]->nrows; r++) {
			for (int i = 0; i < s->naxes; i++)
				cmn_csv_field(of.f, s->axes[i].vals[cpl_sweep_value(s, p, i)]),
				    fputc(',', of.f);
			fprintf(of.f, "%d,%zu", cpl_sweep_rep(s, p), r + 1);
			for (int c = 0; c < t->ref->ncols; c++)
				fputc(',', of.f), cmn_csv_field(of.f, t->pt[p]->rows[r][c]);
			fputc('\n', of.f);
		}
	return cmn_outfile_commit(&of, e);
}

/* Groups with at least one complete point having row r. */
static int group_has(const struct table *t, long g, int r)
{
	for (int k = 0; k < t->s->reps; k++) {
		const struct cmn_csv *c = t->pt[g * t->s->reps + k];
		if (c && (size_t)r < c->nrows)
			return 1;
	}
	return 0;
}

static int write_ci(struct table *t, struct cmn_err *e)
{
	const struct cpl_sweep *s = t->s;
	struct cmn_outfile of;
	int rc = open_table(s, "sweep_ci.csv", &of, e);
	if (rc)
		return rc;
	fputs("row,n", of.f);
	for (int m = 0; m < t->nmetric; m++) {
		const char *name = t->ref->header[t->metric[m]];
		fputc(',', of.f), col_name(of.f, s, name);
		fputc(',', of.f), col_name(of.f, s, name), fputs("_sd", of.f);
		fputc(',', of.f), col_name(of.f, s, name), fputs("_ci95", of.f);
	}
	fputc('\n', of.f);
	for (long g = 0; g < s->npoints / s->reps; g++)
		for (int r = 0; r < t->maxrows; r++) {
			if (!group_has(t, g, r))
				continue;
			for (int i = 0; i < s->naxes; i++)
				cmn_csv_field(of.f,
				              s->axes[i].vals[cpl_sweep_value(s, g * s->reps, i)]),
				    fputc(',', of.f);
			int n = 0;
			for (int k = 0; k < s->reps; k++)
				n += t->pt[g * s->reps + k] &&
				     (size_t)r < t->pt[g * s->reps + k]->nrows;
			fprintf(of.f, "%d,%d", r + 1, n);
			for (int m = 0; m < t->nmetric; m++) {
				struct stat st = stats(t, g, r, t->metric[m]);
				fputc(',', of.f);
				if (st.numeric)
					put_num(of.f, st.mean);
				else if (st.text)
					cmn_csv_field(of.f, st.text);
				fputc(',', of.f), put_num(of.f, st.sd);
				fputc(',', of.f), put_num(of.f, st.ci);
			}
			fputc('\n', of.f);
		}
	return cmn_outfile_commit(&of, e);
}

/* Whether point p's axis values pass the plot's AXIS=VALUE filters (fa:
 * each filter's axis). */
static int plot_keeps(const struct cpl_sweep *s, const struct cpl_sweep_plot *pl, const int *fa,
                      long p)
{
	for (int f = 0; f < pl->nf; f++)
		if (strcmp(s->axes[fa[f]].vals[cpl_sweep_value(s, p, fa[f])], pl->fval[f]))
			return 0;
	return 1;
}

/* One plot: y's mean and interval against x, one line per group value. */
static int plot(struct table *t, const struct cpl_sweep_plot *pl, struct cmn_err *e)
{
	const struct cpl_sweep *s = t->s;
	int xa = cpl_sweep_axis(s, pl->x), ga = pl->group ? cpl_sweep_axis(s, pl->group) : -1,
	    col = -1, row = 0;
	for (int c = 0; c < t->ref->ncols; c++)
		if (!strcmp(t->ref->header[c], pl->y))
			col = c;
	if (col < 0)
		return cmn_err_set(e, CMN_EINPUT, "%s:%d: plot %s: the summaries have no column %s",
		                   s->path, pl->line, pl->png, pl->y);
	int *fa = calloc((size_t)pl->nf + 1, sizeof *fa), numeric_x = 1;
	if (!fa)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int f = 0; f < pl->nf; f++)
		fa[f] = cpl_sweep_axis(s, pl->fkey[f]);
	for (int v = 0; v < s->axes[xa].n; v++) {
		double d;
		numeric_x &= is_number(s->axes[xa].vals[v], &d);
	}
	char *png = cpl_sweep_path(s->out, pl->png);
	int *seen =
	    calloc((size_t)s->axes[xa].n * (size_t)(ga >= 0 ? s->axes[ga].n : 1), sizeof *seen);
	struct cmn_outfile of;
	FILE *g = NULL;
	int rc = 0, ng = ga >= 0 ? s->axes[ga].n : 1;
	if (!png || !seen) {
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
		goto end;
	}
	/* each (group, x) at most once among the rows the filters keep */
	for (long gi = 0; gi < s->npoints / s->reps; gi++) {
		long p = gi * s->reps;
		if (!group_has(t, gi, row) || !plot_keeps(s, pl, fa, p))
			continue;
		int xv = cpl_sweep_value(s, p, xa), gv = ga >= 0 ? cpl_sweep_value(s, p, ga) : 0;
		if (seen[gv * s->axes[xa].n + xv]++) {
			rc = cmn_err_set(
			    e, CMN_EINPUT,
			    "%s:%d: plot %s: several points for %s=%s%s%s; fix the other axes "
			    "with AXIS=VALUE terms",
			    s->path, pl->line, pl->png, pl->x, s->axes[xa].vals[xv],
			    ga >= 0 ? " and group " : "", ga >= 0 ? s->axes[ga].vals[gv] : "");
			goto end;
		}
	}
	if (!(g = cmn_gp_png_open(&of, png, 900, 600, e))) {
		rc = e->code;
		goto end;
	}
	fputs("set grid\nset key outside right\nset xlabel ", g);
	cmn_gp_str(g, pl->x);
	fputs("\nset ylabel ", g);
	cmn_gp_str(g, pl->ylabel ? pl->ylabel : pl->y);
	fputs("\nset title ", g);
	cmn_gp_str(g, pl->title ? pl->title : pl->y);
	fprintf(g, "\n%s%s", pl->logx ? "set logscale x\n" : "",
	        pl->logy ? "set logscale y\n" : "");
	/* room around the points, so that no error bar meets the border */
	if (!numeric_x)
		fputs("set xtics rotate by -30\nset offsets 0.5, 0.5, graph 0.05, graph 0.05\n", g);
	else
		fputs("set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05\n", g);
	int *has = seen; /* reused: groups with a value to draw */
	for (int gv = 0; gv < ng; gv++)
		has[gv] = 0;
	for (int gv = 0; gv < ng; gv++) {
		fprintf(g, "$d%d << EOD\n", gv);
		for (int xv = 0; xv < s->axes[xa].n; xv++)
			for (long gi = 0; gi < s->npoints / s->reps; gi++) {
				long p = gi * s->reps;
				if (cpl_sweep_value(s, p, xa) != xv ||
				    (ga >= 0 && cpl_sweep_value(s, p, ga) != gv) ||
				    !plot_keeps(s, pl, fa, p))
					continue;
				struct stat st = stats(t, gi, row, col);
				if (!st.numeric)
					continue;
				has[gv] = 1;
				if (numeric_x)
					fprintf(g, "%s", s->axes[xa].vals[xv]);
				else /* the x position is the value's index, the value its label */
					fprintf(g, "%d", xv);
				fprintf(g, " %.10g %.10g \"", st.mean,
				        isfinite(st.ci) ? st.ci : 0.0);
				for (const char *c = s->axes[xa].vals[xv]; *c; c++)
					fputc(*c == '"' ? '\'' : *c, g);
				fputs("\"\n", g);
			}
		fputs("EOD\n", g);
	}
	int drawn = 0;
	for (int gv = 0; gv < ng; gv++)
		drawn += has[gv];
	if (!drawn) {
		pclose(g);
		cmn_outfile_abort(&of);
		rc = cmn_err_set(e, CMN_EINPUT, "%s:%d: plot %s: no numeric value of %s to draw",
		                 s->path, pl->line, pl->png, pl->y);
		goto end;
	}
	fputs("plot ", g);
	for (int gv = 0, first = 1; gv < ng; gv++) {
		if (!has[gv])
			continue;
		fprintf(g, "%s$d%d using %s with yerrorlines title ", first ? "" : ", ", gv,
		        numeric_x ? "1:2:3" : "1:2:3:xtic(4)");
		if (ga >= 0) {
			char b[600];
			snprintf(b, sizeof b, "%s=%s", pl->group, s->axes[ga].vals[gv]);
			cmn_gp_str(g, b);
		} else
			cmn_gp_str(g, pl->y);
		first = 0;
	}
	fputc('\n', g);
	rc = cmn_gp_png_close(g, &of, png, e);
end:
	free(fa), free(png), free(seen);
	return rc;
}

int cpl_sweep_collect(const struct cpl_sweep *s, long *missing, struct cmn_err *e)
{
	struct table t = {.s = s};
	int rc = 0;
	*missing = 0;
	t.pt = calloc((size_t)s->npoints, sizeof *t.pt);
	t.buf = malloc((size_t)s->reps * sizeof *t.buf);
	if (!t.pt || !t.buf) {
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
		goto end;
	}
	for (long p = 0; p < s->npoints; p++) {
		if (!cpl_sweep_done(s, p)) {
			if (!(*missing)++) {
				char *dir = cpl_sweep_dir(s, p);
				fprintf(stderr, "sweep: point %s is not complete\n",
				        dir ? dir : "?");
				free(dir);
			}
			continue;
		}
		char *sum = cpl_sweep_summary(s, p);
		if (!sum) {
			rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
			goto end;
		}
		rc = cmn_csv_read(sum, &t.pt[p], e);
		if (!rc && t.ref && !same_header(t.ref, t.pt[p]))
			rc = cmn_err_set(e, CMN_EINPUT,
			                 "%s: its columns differ from those of %s's summary", sum,
			                 "the sweep's first complete point");
		free(sum);
		if (rc)
			goto end;
		if (!t.ref)
			t.ref = t.pt[p];
		if ((int)t.pt[p]->nrows > t.maxrows)
			t.maxrows = (int)t.pt[p]->nrows;
	}
	if (!t.ref) {
		rc = cmn_err_set(e, CMN_ESTATE, "%s: no point is complete: nothing to collect",
		                 s->path);
		goto end;
	}
	t.nmetric = s->metrics ? s->nmetrics : t.ref->ncols;
	if (!(t.metric = malloc(((size_t)t.nmetric + 1) * sizeof *t.metric))) {
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
		goto end;
	}
	for (int m = 0; m < t.nmetric; m++) {
		t.metric[m] = s->metrics ? -1 : m;
		for (int c = 0; s->metrics && c < t.ref->ncols; c++)
			if (!strcmp(t.ref->header[c], s->metrics[m]))
				t.metric[m] = c;
		if (t.metric[m] < 0) {
			rc = cmn_err_set(e, CMN_EINPUT,
			                 "%s: metrics: the summaries have no column %s", s->path,
			                 s->metrics[m]);
			goto end;
		}
	}
	if ((rc = write_points(&t, e)) || (rc = write_ci(&t, e)))
		goto end;
	for (int i = 0; i < s->nplots && !rc; i++)
		rc = plot(&t, &s->plots[i], e);
end:
	for (long p = 0; t.pt && p < s->npoints; p++)
		cmn_csv_free(t.pt[p]);
	free(t.pt), free(t.buf), free(t.metric);
	return rc;
}

/* The plot of a run's series (series_plot.h). */
#include "series_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "../../common/gnuplot.h"

struct bins {
	double t0, t1, width;
	double util[SERIES_PLOT_BINS], queue[SERIES_PLOT_BINS], qmax[SERIES_PLOT_BINS];
};

/* Adds value v held over [a, b) to the bins' time-weighted sums (sum) and,
 * if max, to their maxima. */
static void spread(struct bins *b, double a, double c, double v, double *sum, double *max)
{
	if (!(c > a))
		return;
	int i = (int)((a - b->t0) / b->width), j = (int)((c - b->t0) / b->width);
	if (i < 0)
		i = 0;
	if (j >= SERIES_PLOT_BINS)
		j = SERIES_PLOT_BINS - 1;
	for (int k = i; k <= j; k++) {
		double lo = b->t0 + k * b->width, hi = lo + b->width;
		double o = fmin(c, hi) - fmax(a, lo);
		if (o > 0)
			sum[k] += v * o;
		if (max && (o > 0 || (a >= lo && a < hi)) && v > max[k])
			max[k] = v;
	}
}

/* Reads the series (time,busy_nodes,utilization,queue_jobs,...) into b. */
static int bin_series(const char *path, struct bins *b, struct cmn_err *e)
{
	memset(b, 0, sizeof *b);
	FILE *f = fopen(path, "r");
	if (!f)
		return cmn_err_set(e, CMN_EIO, "%s: cannot read the series", path);
	char line[512];
	double t, busy, util, q, first = NAN, last = NAN;
	/* two passes: the span, then the sums */
	for (int pass = 0; pass < 2; pass++) {
		rewind(f);
		double pt = NAN, pu = 0, pq = 0;
		int n = 0;
		while (fgets(line, sizeof line, f)) {
			if (n++ == 0)
				continue; /* the header */
			if (sscanf(line, "%lf,%lf,%lf,%lf", &t, &busy, &util, &q) != 4)
				continue;
			if (pass == 0) {
				if (isnan(first))
					first = t;
				last = t;
				continue;
			}
			if (!isnan(pt)) {
				spread(b, pt, t, pu, b->util, NULL);
				spread(b, pt, t, pq, b->queue, b->qmax);
			}
			pt = t, pu = util, pq = q;
		}
		if (pass == 0) {
			if (isnan(first) || !(last > first))
				last = (isnan(first) ? 0 : first) + 1,
				first = isnan(first) ? 0 : first;
			b->t0 = first, b->t1 = last, b->width = (last - first) / SERIES_PLOT_BINS;
		}
	}
	fclose(f);
	for (int k = 0; k < SERIES_PLOT_BINS; k++)
		b->util[k] /= b->width, b->queue[k] /= b->width;
	return 0;
}

int js_series_plot(const char *series, const char *png, const char *shown, const char *title,
                   int empty, struct cmn_err *e)
{
	struct bins *b = calloc(1, sizeof *b);
	if (!b)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	if (!empty && bin_series(series, b, e)) {
		free(b);
		return e->code;
	}
	FILE *g = popen("gnuplot 1>&2", "w");
	if (!g) {
		free(b);
		return cmn_err_set(e, CMN_EIO, "%s: cannot run gnuplot", shown);
	}
	fprintf(g, "set terminal pngcairo noenhanced size 1000,700 font ',10'\nset output ");
	cmn_gp_str(g, png);
	fprintf(g, "\nset multiplot layout 2,1 title ");
	cmn_gp_str(g, title);
	fprintf(g, "\nset grid\nset key top right opaque box\n");
	if (empty) /* nothing simulated: empty axes that say so */
		fprintf(
		    g, "set label 'no job simulated' at graph 0.5,0.5 center\nset yrange [0:1]\n"
		       "set ylabel 'utilization'\nplot [0:1] NaN notitle\n"
		       "set ylabel 'queued jobs'\nset xlabel 'time (h)'\nplot [0:1] NaN notitle\n");
	else {
		fprintf(g, "$d << EOD\n");
		for (int k = 0; k < SERIES_PLOT_BINS; k++)
			fprintf(g, "%.9g %.6f %.6f %.9g\n", (b->t0 + k * b->width) / 3600,
			        b->util[k], b->queue[k], b->qmax[k]);
		fprintf(g, "%.9g %.6f %.6f %.9g\nEOD\n", b->t1 / 3600,
		        b->util[SERIES_PLOT_BINS - 1], b->queue[SERIES_PLOT_BINS - 1],
		        b->qmax[SERIES_PLOT_BINS - 1]);
		fprintf(g,
		        "set ylabel 'utilization'\nset yrange [0:1.15]\n"
		        "plot $d using 1:2 with fsteps lc 1 title 'busy nodes / nodes, mean over "
		        "%.3g h'\n"
		        "set ylabel 'queued jobs'\nset xlabel 'time (h)'\nset yrange [0:*]\n"
		        "plot $d using 1:4 with fsteps lc rgb '#bbbbbb' title 'largest', "
		        "$d using 1:3 with fsteps lc 7 title 'mean over %.3g h'\n",
		        b->width / 3600, b->width / 3600);
	}
	fprintf(g, "unset multiplot\n");
	free(b);
	int st = pclose(g);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return cmn_err_set(e, CMN_EIO, "%s: gnuplot failed (is gnuplot-nox installed?)",
		                   shown);
	return 0;
}

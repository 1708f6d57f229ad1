/* The plots of cosim's study mode (study.h), drawn by gnuplot from data
 * files this code writes beside them (removed afterwards). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../common/csv_read.h"
#include "../../common/gnuplot.h"
#include "../../platforms/platform.h"
#include "../../platforms/xml_read.h"
#include "study.h"

struct run {
	struct cmn_csv *c;
	int start, finish, wait, turn, speedup, res, id, part;
};

static double num(const char *s)
{
	char *end;
	double x = strtod(s, &end);
	return *s && !*end ? x : NAN;
}

/* Where node goes in the machine picture: rows of cells, gaps between
 * leaf groups (trees) or planes (3D grids). */
struct layout {
	int rows, cols;
};

static void cell(const struct plat_machine *m, int node, struct layout *L, int *row, int *col)
{
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS], k, n, nc, c[PLAT_MAX_DIMS];
	struct cmn_err e;
	if (plat_grid_shape(m, &nd, dims, wrap, &e) == 0) {
		plat_coords(m, node, c);
		if (nd == 1) {
			*row = 0, *col = c[0];
			L->rows = 1, L->cols = dims[0];
			return;
		}
		int inner = 1; /* dimensions beyond the second, flattened into planes */
		for (int d = 2; d < nd; d++)
			inner *= dims[d];
		int flat = 0;
		for (int d = 2; d < nd; d++)
			flat = flat * dims[d] + c[d];
		*row = c[0];
		*col = inner > 1 ? flat * (dims[1] + 1) + c[1] : c[1];
		L->rows = dims[0];
		L->cols = inner > 1 ? inner * (dims[1] + 1) - 1 : dims[1];
	} else if (plat_kary_ntree_shape(m, &k, &n, &e) == 0) {
		int cols = 1;
		for (int i = 0; i < (n + 1) / 2; i++)
			cols *= k;
		int x = node % cols;
		*row = node / cols;
		*col = x + x / k;
		L->rows = m->nodes / cols;
		L->cols = cols + cols / k - 1;
	} else if (plat_multicluster_shape(m, &nc, NULL, NULL, &e) == 0) {
		int first[1024], size[1024];
		if (nc > 1024)
			nc = 1024;
		plat_multicluster_shape(m, &nc, first, size, &e);
		int cl = plat_cluster_of(m, node), mx = 0;
		for (int i = 0; i < nc; i++)
			mx = size[i] > mx ? size[i] : mx;
		*row = cl;
		*col = node - first[cl];
		L->rows = nc, L->cols = mx;
	} else {
		int cols = (int)ceil(sqrt((double)m->nodes));
		*row = node / cols, *col = node % cols;
		L->rows = (m->nodes + cols - 1) / cols, L->cols = cols;
	}
}

/* Node intervals "0-3 8 10-11" into nodes; returns the count. */
static int parse_nodes(const char *s, int *nodes, int max)
{
	int n = 0;
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;
		if (end == s)
			break;
		s = end;
		if (*s == '-')
			b = strtol(s + 1, &end, 10), s = end;
		for (long v = a; v <= b && n < max; v++)
			nodes[n++] = (int)v;
		while (*s == ' ')
			s++;
	}
	return n;
}

static int wait_plot(const char *dir, const char *const *specs, const struct run *r, int n,
                     struct cmn_err *e)
{
	char dat[4200], gp[4200], png[4200];
	snprintf(dat, sizeof dat, "%s/wait.dat", dir);
	snprintf(gp, sizeof gp, "%s/wait.gp", dir);
	snprintf(png, sizeof png, "%s/wait.png", dir);
	FILE *d = fopen(dat, "w"), *g = fopen(gp, "w");
	int rc = d && g ? 0 : cmn_err_set(e, CMN_EIO, "%s: cannot write", dir);
	for (int a = 0; !rc && a < n; a++) {
		double w = 0, t = 0;
		size_t cnt = 0;
		for (size_t i = 0; i < r[a].c->nrows; i++) {
			double wi = num(r[a].c->rows[i][r[a].wait]),
			       ti = num(r[a].c->rows[i][r[a].turn]);
			if (isfinite(wi) && isfinite(ti))
				w += wi, t += ti, cnt++;
		}
		fprintf(d, "\"%s\" %.6g %.6g\n", specs[a], cnt ? w / (double)cnt : 0,
		        cnt ? t / (double)cnt : 0);
	}
	if (!rc) {
		fprintf(g, "set terminal pngcairo size 900,600 font ',10'\nset output ");
		cmn_gp_str(g, png);
		fprintf(g, "\nset title 'Mean wait and response time per allocator' noenhanced\n"
		           "set style data histogram\nset style histogram cluster gap 1\n"
		           "set style fill solid 0.8 border -1\nset ylabel 'seconds'\nset grid y\n"
		           "set yrange [0:*]\nset key top left\nset xtics noenhanced\nplot ");
		cmn_gp_str(g, dat);
		fprintf(g,
		        " using 2:xtic(1) title 'mean wait', '' using 3 title 'mean response'\n");
	}
	if (d && fclose(d) && !rc)
		rc = cmn_err_set(e, CMN_EIO, "%s: cannot write", dat);
	if (g && fclose(g) && !rc)
		rc = cmn_err_set(e, CMN_EIO, "%s: cannot write", gp);
	if (!rc)
		rc = cmn_gp_run(gp, "wait.png", e);
	unlink(dat);
	unlink(gp);
	return rc;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int speedup_plot(const char *dir, const char *const *specs, const struct run *r, int n,
                        struct cmn_err *e)
{
	char dat[4200], gp[4200], png[4200];
	snprintf(dat, sizeof dat, "%s/speedup.dat", dir);
	snprintf(gp, sizeof gp, "%s/speedup.gp", dir);
	snprintf(png, sizeof png, "%s/speedup.png", dir);
	FILE *d = fopen(dat, "w"), *g = fopen(gp, "w");
	int rc = d && g ? 0 : cmn_err_set(e, CMN_EIO, "%s: cannot write", dir);
	double lo = INFINITY, hi = -INFINITY; /* over every allocator's jobs */
	for (int a = 0; !rc && a < n; a++) {
		double *x = malloc((r[a].c->nrows + 1) * sizeof *x);
		size_t cnt = 0;
		if (!x) {
			rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
			break;
		}
		for (size_t i = 0; i < r[a].c->nrows; i++) {
			double v = num(r[a].c->rows[i][r[a].speedup]);
			if (isfinite(v)) {
				x[cnt++] = v;
				lo = v < lo ? v : lo;
				hi = v > hi ? v : hi;
			}
		}
		qsort(x, cnt, sizeof *x, cmp_double);
		fprintf(d, "# %s\n", specs[a]);
		for (size_t i = 0; i < cnt; i++)
			fprintf(d, "%.9g %.6g\n", x[i], (double)(i + 1) / (double)cnt);
		if (!cnt)
			fprintf(d, "1 0\n");
		fprintf(d, "\n\n");
		free(x);
	}
	if (!rc) {
		fprintf(g, "set terminal pngcairo size 900,600 font ',10'\nset output ");
		cmn_gp_str(g, png);
		fprintf(g, "\nset title 'Effective speed-up per job (log run time / run time)'\n"
		           "set xlabel 'effective speed-up'\nset ylabel 'fraction of jobs "
		           "(cumulative)'\nset grid\nset yrange [0:1.02]\nset key bottom right "
		           "noenhanced\n");
		if (!(hi - lo > 1e-9 * fabs(hi))) /* one value (every job at 1: fixed run
		                                      times): a range around it */
			fprintf(g, "set xrange [%.9g:%.9g]\n", (isfinite(lo) ? lo : 1) - 0.05,
			        (isfinite(hi) ? hi : 1) + 0.05);
		fprintf(g, "plot ");
		for (int a = 0; a < n; a++) {
			cmn_gp_str(g, dat);
			fprintf(g, " index %d using 1:2 with steps lw 2 title ", a);
			cmn_gp_str(g, specs[a]);
			fprintf(g, "%s", a + 1 < n ? ", " : "\n");
		}
	}
	if (d && fclose(d) && !rc)
		rc = cmn_err_set(e, CMN_EIO, "%s: cannot write", dat);
	if (g && fclose(g) && !rc)
		rc = cmn_err_set(e, CMN_EIO, "%s: cannot write", gp);
	if (!rc)
		rc = cmn_gp_run(gp, "speedup.png", e);
	unlink(dat);
	unlink(gp);
	return rc;
}

static int cmp_pair(const void *x, const void *y)
{
	const int *a = x, *b = y;
	return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) : (a[1] > b[1]) - (a[1] < b[1]);
}

/* The grid's job cells (-1 .. -jobs: the running job's number) coloured
 * 1..19 so that jobs side by side differ: each job, in turn, takes the
 * first colour none of its coloured neighbours has, counting from one its
 * number picks so that the palette is used throughout (a job touching all
 * 19 takes that one). 0, or -1 out of memory. */
static int colour_jobs(double *grid, int rows, int cols, int jobs)
{
	size_t cells = (size_t)rows * (size_t)cols, np = 0;
	int *pair = malloc(4 * cells * 2 * sizeof *pair + 1),
	    *first = calloc((size_t)jobs + 2, sizeof *first),
	    *colour = calloc((size_t)jobs + 1, sizeof *colour);
	if (!pair || !first || !colour) {
		free(pair), free(first), free(colour);
		return -1;
	}
	for (int y = 0; y < rows; y++) /* neighbouring cells of two jobs, both ways */
		for (int x = 0; x < cols; x++) {
			double v = grid[(size_t)y * cols + x];
			double nb[2] = {x + 1 < cols ? grid[(size_t)y * cols + x + 1] : 0,
			                y + 1 < rows ? grid[(size_t)(y + 1) * cols + x] : 0};
			for (int k = 0; k < 2; k++)
				if (v < 0 && nb[k] < 0 && nb[k] != v) {
					int a = (int)-v, b = (int)-nb[k];
					pair[2 * np] = a, pair[2 * np + 1] = b, np++;
					pair[2 * np] = b, pair[2 * np + 1] = a, np++;
				}
		}
	qsort(pair, np, 2 * sizeof *pair, cmp_pair);
	for (size_t i = 0; i < np; i++)
		first[pair[2 * i] + 1]++;
	for (int j = 1; j <= jobs + 1; j++)
		first[j] += first[j - 1];
	for (int j = 1; j <= jobs; j++) {
		unsigned used = 0;
		for (int i = first[j]; i < first[j + 1]; i++)
			used |= 1u << colour[pair[2 * i + 1]];
		int c = 0, start = (j * 7) % 19; /* spread over the palette */
		while (c < 19 && used >> (1 + (start + c) % 19) & 1)
			c++;
		colour[j] = 1 + (start + (c < 19 ? c : 0)) % 19;
	}
	for (size_t i = 0; i < cells; i++)
		if (grid[i] < 0)
			grid[i] = colour[(int)-grid[i]];
	free(pair), free(first), free(colour);
	return 0;
}

/* One panel per allocator: the machine's nodes as cells coloured by the
 * job running there at time t (white: free; grey: gaps between groups),
 * job numbers on machines of up to 256 nodes. */
static int placement_plot(const char *dir, const char *const *specs, const struct run *r, int n,
                          const struct plat_machine *m, double t, struct cmn_err *e)
{
	char gp[4200], png[4200], dat[4200];
	snprintf(gp, sizeof gp, "%s/placement.gp", dir);
	snprintf(png, sizeof png, "%s/placement.png", dir);
	struct layout L = {1, 1};
	int row, col;
	cell(m, 0, &L, &row, &col);
	double *grid = malloc((size_t)L.rows * (size_t)L.cols * sizeof *grid);
	int *nodes = malloc((size_t)m->nodes * sizeof *nodes);
	FILE *g = fopen(gp, "w");
	int rc = grid && nodes && g ? 0 : cmn_err_set(e, CMN_EIO, "%s: cannot write", gp);
	if (!rc) {
		fprintf(g, "set terminal pngcairo size %d,%d font ',9'\nset output ",
		        n > 1 ? 560 * n : 800,
		        140 + (L.rows * 520 / (L.cols > L.rows ? L.cols : L.rows)));
		cmn_gp_str(g, png);
		fprintf(
		    g,
		    "\nset multiplot layout 1,%d title 'Jobs on the machine at t = %.0f s "
		    "(%s)' noenhanced\n"
		    "unset colorbox\nset cbrange [0:20]\nset palette maxcolors 21\n"
		    "set palette defined (0 'white', 1 '#e41a1c', 2 '#377eb8', 3 '#4daf4a', 4 "
		    "'#984ea3', 5 '#ff7f00', 6 '#ffff33', 7 '#a65628', 8 '#f781bf', 9 '#66c2a5', "
		    "10 '#fc8d62', 11 '#8da0cb', 12 '#e78ac3', 13 '#a6d854', 14 '#ffd92f', 15 "
		    "'#e5c494', 16 '#1b9e77', 17 '#d95f02', 18 '#7570b3', 19 '#66a61e', 20 "
		    "'#bbbbbb')\nset size ratio -1\nunset xtics\nunset ytics\n",
		    n, t, m->spec);
	}
	for (int a = 0; !rc && a < n; a++) {
		for (int i = 0; i < L.rows * L.cols; i++)
			grid[i] = 20; /* grey: no node there (gaps) */
		for (int q = 0; q < m->nodes; q++) {
			cell(m, q, &L, &row, &col);
			grid[row * L.cols + col] = 0; /* white: a free node */
		}
		int running = 0;
		fprintf(g, "unset label\n");
		for (size_t i = 0; i < r[a].c->nrows; i++) {
			char **row_ = r[a].c->rows[i];
			double s = num(row_[r[a].start]), f = num(row_[r[a].finish]);
			if (!(s <= t && t < f))
				continue;
			running++;
			int k = parse_nodes(row_[r[a].res], nodes, m->nodes);
			for (int q = 0; q < k; q++) {
				if (nodes[q] < 0 || nodes[q] >= m->nodes)
					continue;
				cell(m, nodes[q], &L, &row, &col);
				grid[row * L.cols + col] = -running; /* its colour below */
			}
			if (k && m->nodes <= 256 && nodes[0] < m->nodes) {
				cell(m, nodes[0], &L, &row, &col);
				/* the job as the CSV names it: its id, and its part
				 * when it is one of its job's partial executions */
				char label[160];
				const char *part = row_[r[a].part];
				snprintf(label, sizeof label, "%.120s%s%.20s", row_[r[a].id],
				         strcmp(part, "0") ? "/" : "",
				         strcmp(part, "0") ? part : "");
				for (char *ch = label; *ch; ch++) /* a Batsim id's control bytes */
					if ((unsigned char)*ch < 0x20 || *ch == 0x7f)
						*ch = '?';
				fprintf(g, "set label ");
				cmn_gp_str(g, label);
				fprintf(g, " at %d,%d center front font ',7'\n", col, row);
			}
		}
		if (colour_jobs(grid, L.rows, L.cols, running)) {
			rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
			break;
		}
		snprintf(dat, sizeof dat, "%s/placement%d.dat", dir, a);
		FILE *d = fopen(dat, "w");
		if (!d) {
			rc = cmn_err_set(e, CMN_EIO, "%s: cannot write", dat);
			break;
		}
		for (int y = 0; y < L.rows; y++) {
			for (int x = 0; x < L.cols; x++) {
				fprintf(d, "%s%.0f", x ? " " : "", grid[y * L.cols + x]);
			}
			fprintf(d, "\n");
		}
		if (fclose(d)) {
			rc = cmn_err_set(e, CMN_EIO, "%s: cannot write", dat);
			break;
		}
		fprintf(g, "set title ");
		char title[300];
		snprintf(title, sizeof title, "%s: %d jobs running", specs[a], running);
		cmn_gp_str(g, title);
		fprintf(
		    g, " noenhanced\nset xrange [-0.5:%d.5]\nset yrange [-0.5:%d.5] reverse\nplot ",
		    L.cols - 1, L.rows - 1);
		cmn_gp_str(g, dat);
		fprintf(g, " matrix with image notitle\n");
	}
	if (g) {
		fprintf(g, "unset multiplot\n");
		if (fclose(g) && !rc)
			rc = cmn_err_set(e, CMN_EIO, "%s: cannot write", gp);
	}
	if (!rc)
		rc = cmn_gp_run(gp, "placement.png", e);
	for (int a = 0; a < n; a++) {
		snprintf(dat, sizeof dat, "%s/placement%d.dat", dir, a);
		unlink(dat);
	}
	unlink(gp);
	free(grid);
	free(nodes);
	return rc;
}

int cpl_study_plots(const char *dir, const char *const *names, const char *const *specs, int n,
                    const char *machine, const struct plat_machine *platform, double t,
                    struct cmn_err *e)
{
	struct run *r = calloc((size_t)n, sizeof *r);
	struct plat_machine *own = NULL; /* made from the specification */
	int rc = r ? 0 : cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int a = 0; !rc && a < n; a++) {
		char p[4200];
		snprintf(p, sizeof p, "%s/%s/jobs.csv", dir, names[a]);
		if ((rc = cmn_csv_read(p, &r[a].c, e)))
			break;
		struct cmn_csv *c = r[a].c;
		r[a].start = cmn_csv_col(c, "starting_time");
		r[a].finish = cmn_csv_col(c, "finish_time");
		r[a].wait = cmn_csv_col(c, "waiting_time");
		r[a].turn = cmn_csv_col(c, "turnaround_time");
		r[a].speedup = cmn_csv_col(c, "effective_speedup");
		r[a].res = cmn_csv_col(c, "allocated_resources");
		r[a].id = cmn_csv_col(c, "job_id");
		r[a].part = cmn_csv_col(c, "part");
		if (r[a].start < 0 || r[a].finish < 0 || r[a].wait < 0 || r[a].turn < 0 ||
		    r[a].speedup < 0 || r[a].res < 0 || r[a].id < 0 || r[a].part < 0)
			rc = cmn_err_set(e, CMN_EINPUT, "%s: not a jobs CSV", p);
	}
	if (!rc && !platform)
		rc = plat_machine_create(machine, &own, e);
	const struct plat_machine *m = platform ? platform : own;
	if (!rc && t < 0) { /* half-way through the first allocator's schedule */
		double lo = INFINITY, hi = -INFINITY;
		int sub = cmn_csv_col(r[0].c, "submission_time");
		for (size_t i = 0; i < r[0].c->nrows; i++) {
			double s = num(r[0].c->rows[i][sub]), f = num(r[0].c->rows[i][r[0].finish]);
			lo = s < lo ? s : lo;
			hi = f > hi ? f : hi;
		}
		t = isfinite(lo) && isfinite(hi) ? lo + (hi - lo) / 2 : 0;
	}
	if (!rc)
		rc = wait_plot(dir, specs, r, n, e);
	if (!rc)
		rc = speedup_plot(dir, specs, r, n, e);
	if (!rc)
		rc = placement_plot(dir, specs, r, n, m, t, e);
	for (int a = 0; r && a < n; a++)
		cmn_csv_free(r[a].c);
	free(r);
	plat_machine_destroy(own);
	return rc;
}

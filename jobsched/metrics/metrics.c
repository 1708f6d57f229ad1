/* Per-job metrics and the summary of a simulated schedule. */
#include <gsl/gsl_statistics_double.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/csv_write.h"
#include "../alloc/alloc_quality.h"
#include "metrics.h"

double js_load_eq2(size_t n, const double *arrival, const double *end, const double *work,
                   int procs, size_t *kept)
{
	*kept = 0;
	if (n == 0 || procs <= 0)
		return NAN;
	size_t k = n / 100;
	double t_start = k ? arrival[k - 1] : arrival[0];
	double last_arrival = arrival[n - 1];
	double t_end = -INFINITY, sum = 0;
	for (size_t i = k; i < n; i++) {
		if (end[i] > last_arrival)
			continue;
		sum += work[i];
		if (end[i] > t_end)
			t_end = end[i];
		(*kept)++;
	}
	if (!(t_end > t_start))
		return NAN;
	return sum / ((double)procs * (t_end - t_start));
}

void js_size_quartiles(const struct js_workload *w, int q[3])
{
	q[0] = q[1] = q[2] = 0;
	if (w->n == 0)
		return;
	int maxs = 0;
	for (size_t i = 0; i < w->n; i++)
		if (w->jobs[i].size > maxs)
			maxs = w->jobs[i].size;
	size_t *count = calloc((size_t)maxs + 1, sizeof *count);
	if (!count)
		return;
	for (size_t i = 0; i < w->n; i++)
		count[w->jobs[i].size]++;
	/* Sizes are discrete: each bound is the size whose cumulative share is
	 * nearest to 25, 50, 75 % (ties: the smaller size) among the sizes above
	 * the previous bound, so that no group is empty where sizes allow. */
	int prev = -1;
	for (int k = 0; k < 3; k++) {
		double best = INFINITY;
		size_t cum = 0;
		q[k] = prev;
		for (int s = 0; s <= maxs; s++) {
			cum += count[s];
			if (!count[s] || s <= prev)
				continue;
			double d = fabs((double)cum / (double)w->n - 0.25 * (k + 1));
			if (d < best) {
				best = d;
				q[k] = s;
			}
		}
		if (q[k] < 0)
			q[k] = maxs;
		prev = q[k];
	}
	free(count);
}

int js_size_group(const int q[3], int size)
{
	return size <= q[0] ? 1 : size <= q[1] ? 2 : size <= q[2] ? 3 : 4;
}

static int is_pow2(int x)
{
	return x > 0 && (x & (x - 1)) == 0;
}

int js_wstats_compute(const struct js_workload *w, int procs, struct js_wstats *s,
                      struct cmn_err *e)
{
	memset(s, 0, sizeof *s);
	s->jobs = w->n;
	s->procs = procs;
	size_t n = w->n;
	if (n == 0) {
		s->size_mean = s->size_sd = s->work_mean = s->work_sd = NAN;
		s->run_mean = s->run_sd = s->frac_serial = s->frac_pow2 = s->load = NAN;
		s->par_pow2 = s->par_pow4 = s->par_pow8 = NAN;
		return 0;
	}
	double *size = malloc(n * sizeof *size), *work = malloc(n * sizeof *work);
	double *run = malloc(n * sizeof *run), *arr = malloc(n * sizeof *arr);
	double *end = malloc(n * sizeof *end);
	if (!size || !work || !run || !arr || !end) {
		free(size), free(work), free(run), free(arr), free(end);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	size_t serial = 0, pow2 = 0, par = 0, ppow[3] = {0}; /* powers of 2, 4, 8 */
	size_t nr = 0; /* jobs with a run time: run, work, arr and end */
	for (size_t i = 0; i < n; i++) {
		const struct js_job *j = &w->jobs[i];
		size[i] = j->size;
		if (isnan(j->run_s)) {
			s->replayed++;
		} else {
			run[nr] = j->run_s;
			work[nr] = j->size * j->run_s;
			arr[nr] = j->submit_s;
			double wait = j->f[JS_F_WAIT] > 0 ? j->f[JS_F_WAIT] : 0;
			end[nr++] = j->submit_s + wait + j->run_s;
		}
		serial += j->size == 1;
		pow2 += is_pow2(j->size);
		if (j->size > 1) {
			par++;
			int lg = is_pow2(j->size) ? __builtin_ctz((unsigned)j->size) : -1;
			for (int b = 1; b <= 3; b++) /* 2^lg a power of 2^b */
				ppow[b - 1] += lg > 0 && lg % b == 0;
		}
	}
	s->size_mean = gsl_stats_mean(size, 1, n);
	s->size_sd = n > 1 ? gsl_stats_sd_m(size, 1, n, s->size_mean) : 0;
	s->work_mean = nr ? gsl_stats_mean(work, 1, nr) : NAN;
	s->work_sd = nr > 1 ? gsl_stats_sd_m(work, 1, nr, s->work_mean) : nr ? 0 : NAN;
	s->run_mean = nr ? gsl_stats_mean(run, 1, nr) : NAN;
	s->run_sd = nr > 1 ? gsl_stats_sd_m(run, 1, nr, s->run_mean) : nr ? 0 : NAN;
	s->frac_serial = (double)serial / n;
	s->frac_pow2 = (double)pow2 / n;
	s->par_pow2 = par ? (double)ppow[0] / par : NAN;
	s->par_pow4 = par ? (double)ppow[1] / par : NAN;
	s->par_pow8 = par ? (double)ppow[2] / par : NAN;
	s->load = nr ? js_load_eq2(nr, arr, end, work, procs, &s->load_jobs) : NAN;
	free(size), free(work), free(run), free(arr), free(end);
	return 0;
}

/* A statistic with 4 decimals, or "-" when undefined (no job). */
static void stat4(FILE *f, const char *name, double v)
{
	if (isnan(v))
		fprintf(f, "%-19s -\n", name);
	else
		fprintf(f, "%-19s %.4f\n", name, v);
}

void js_wstats_print(FILE *f, const struct js_wstats *s, const struct js_workload *w)
{
	static const char *const hnames[JS_H_N] = {"max_jobs", "max_records", "max_nodes",
	                                           "max_procs", "unix_start_time"};
	const long long hval[JS_H_N] = {w->hdr.max_jobs, w->hdr.max_records, w->hdr.max_nodes,
	                                w->hdr.max_procs, w->hdr.unix_start_time};
	fprintf(f, "workload            %s\n", w->source);
	for (int k = 0; k < JS_H_N; k++) /* header values, with the comment after the number */
		if (w->hdr.key_line[k])
			fprintf(f, "%-19s %lld%s%s\n", hnames[k], hval[k],
			        w->hdr.rest[k] ? "  " : "", w->hdr.rest[k] ? w->hdr.rest[k] : "");
	fprintf(f, "records_read        %ld\n", w->counts.read);
	for (int k = 0; k < JS_SKIP_N; k++)
		if (w->counts.skipped[k])
			fprintf(f, "skipped_%-11s %ld\n", js_skip_names[k], w->counts.skipped[k]);
	const struct {
		const char *name;
		long n;
	} kept[] = {{"status_undefined", w->counts.status_undefined},
	            {"negative_kept", w->counts.negative_kept},
	            {"partial_shared", w->counts.partial_shared}};
	for (size_t k = 0; k < sizeof kept / sizeof kept[0]; k++)
		if (kept[k].n)
			fprintf(f, "%-19s %ld\n", kept[k].name, kept[k].n);
	fprintf(f, "size_from_requested %ld\n", w->counts.size_from_requested);
	fprintf(f, "size_clamped        %ld\n", w->counts.size_clamped);
	fprintf(f, "requested_from_run  %ld\n", w->counts.req_from_run);
	fprintf(f, "run_clamped         %ld\n", w->counts.run_clamped);
	fprintf(f, "overrun_kept        %ld\n", w->counts.overrun_kept);
	fprintf(f, "requested_raised    %ld\n", w->counts.req_raised);
	fprintf(f, "submit_reordered    %ld\n", w->counts.reordered);
	fprintf(f, "jobs                %zu\n", s->jobs);
	if (s->replayed) /* their run time comes only from a replay (cosim) */
		fprintf(f, "replayed_jobs       %zu\n", s->replayed);
	stat4(f, "size_mean", s->size_mean);
	stat4(f, "size_sd", s->size_sd);
	stat4(f, "run_mean_s", s->run_mean);
	stat4(f, "run_sd_s", s->run_sd);
	stat4(f, "work_mean_node_s", s->work_mean);
	stat4(f, "work_sd_node_s", s->work_sd);
	stat4(f, "frac_serial", s->frac_serial);
	stat4(f, "frac_pow2", s->frac_pow2);
	stat4(f, "par_pow2", s->par_pow2);
	stat4(f, "par_pow4", s->par_pow4);
	stat4(f, "par_pow8", s->par_pow8);
	fprintf(f, "load_procs          %d\n", s->procs);
	fprintf(f, "load_jobs           %zu\n", s->load_jobs);
	stat4(f, "load", s->load);
	js_workload_print_notes(f, "note                ", w);
}

/* Formats v as %.15g would, with a fast path for integral values (most
 * times in SWF logs), which printf's float code makes slow. */
static void fmt_num(char *buf, double v)
{
	if (v == floor(v) && fabs(v) < 1e15) {
		long long x = (long long)v;
		char tmp[24];
		int n = 0, neg = x < 0;
		unsigned long long u = neg ? (unsigned long long)(-x) : (unsigned long long)x;
		do {
			tmp[n++] = (char)('0' + u % 10);
			u /= 10;
		} while (u);
		if (neg)
			*buf++ = '-';
		while (n)
			*buf++ = tmp[--n];
		*buf = '\0';
	} else {
		snprintf(buf, 32, "%.15g", v);
	}
}

/* Prints a number, or nothing for NAN / infinite (an empty CSV field). */
static void num(FILE *f, double v, const char *sep)
{
	char buf[40];
	if (isfinite(v)) {
		fmt_num(buf, v);
		fputs(buf, f);
	}
	fputs(sep, f);
}

/* Bounded slowdown; none (NAN) for a job of run time 0 with gamma 0, whose
 * slowdown is 0/0 or infinite. */
static double bsld(double resp, double exec, double gamma)
{
	double under = exec > gamma ? exec : gamma;
	return under > 0 ? (resp > gamma ? resp : gamma) / under : NAN;
}

/* Buffers for quality computations: a job's runs and scratch, room for
 * every node of the machine. */
struct quality_buf {
	struct plat_run *runs;
	int *scratch;
};

static int quality_buf(const struct plat_machine *m, struct quality_buf *b)
{
	b->runs = malloc((size_t)m->nodes * sizeof *b->runs);
	b->scratch = malloc((size_t)m->nodes * sizeof *b->scratch);
	return b->runs && b->scratch ? 0 : CMN_ENOMEM;
}

static void quality_buf_free(struct quality_buf *b)
{
	free(b->runs);
	free(b->scratch);
}

static void job_quality(const struct plat_machine *m, const struct js_sim_result *r, size_t i,
                        int size, const struct quality_buf *b, struct js_alloc_quality *aq)
{
	int nr = js_parse_runs(r->text + r->jobs[i].res_off, b->runs, m->nodes);
	if (nr == 0) {
		memset(aq, 0, sizeof *aq);
		aq->max_level = -1;
		return;
	}
	js_alloc_quality_runs(m, b->runs, nr, size, b->scratch, aq);
}

/* The per-job CSV's own columns: first Batsim's 17 jobs.csv columns, by
 * name and in the order of Batsim's documentation (output-jobs.rst;
 * job_id the workload's id text for Batsim workloads; workload_name the
 * workload's file name without its folder and extensions; profile the
 * model slot below, else the job's Batsim profile; final_state
 * COMPLETED_SUCCESSFULLY or COMPLETED_WALLTIME_REACHED; consumed_energy
 * -1 as Batsim writes without an energy model; metadata empty as Batsim's
 * default), then ours (part last: which part of its job a row is, 0 for
 * a whole job, so that job_id and part name one row). psi, profile and iter_ref_s are the model
 * slots: filled from the run-time model's values of the same name (runtime.h: columns), empty when
 * it has none; iter_mean_s follows from iter_ref_s. */
static const char jobs_columns[] =
    "job_id,workload_name,profile,submission_time,requested_number_of_resources,"
    "requested_time,success,final_state,starting_time,execution_time,finish_time,"
    "waiting_time,turnaround_time,stretch,allocated_resources,consumed_energy,metadata,"
    "bounded_slowdown,killed,size_group,status,pairwise_sum,pairwise_mean,max_level,"
    "alloc_class,clusters,moves,psi,work_s,effective_speedup,iter_ref_s,iter_mean_s,"
    "user_priority,resizable,expansions,contractions,max_nodes,sizes,part";

/* Batsim's workload_name: the source's file name without its folder and
 * its .gz and .swf or .json extensions ("HPC2N-2002-2.2-cln"), or the
 * generator's specification as it is. */
static void workload_name(const char *source, char *out, size_t len)
{
	const char *slash = strrchr(source, '/');
	snprintf(out, len, "%s", slash ? slash + 1 : source);
	static const char *const ext[] = {".gz", ".swf", ".json"};
	for (int k = 0; k < 3; k++) {
		size_t n = strlen(out), e = strlen(ext[k]);
		if (n > e && strcmp(out + n - e, ext[k]) == 0)
			out[n - e] = '\0';
	}
}

static const struct js_rt_column slots[] = {
    {"psi", 0, NULL}, {"profile", 1, NULL}, {"iter_ref_s", 0, NULL}, {NULL, 0, NULL}};

static const struct js_rt_column *slot(const char *name)
{
	for (const struct js_rt_column *c = slots; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static int is_slot(const char *name)
{
	return slot(name) != NULL;
}

/* 1 when name is one of the per-job CSV's own columns. */
static int core_column(const char *name)
{
	size_t len = strlen(name);
	for (const char *p = jobs_columns; *p;) {
		size_t n = strcspn(p, ",");
		if (n == len && strncmp(p, name, n) == 0)
			return 1;
		p += n + (p[n] == ',');
	}
	return 0;
}

int js_check_model_columns(const struct js_rt_column *cols, const char *model, struct cmn_err *e)
{
	for (int c = 0; cols && cols[c].name; c++) {
		const char *n = cols[c].name;
		if (!*n || strspn(n, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(n))
			return cmn_err_set(
			    e, CMN_ESTATE,
			    "run-time model %s: column '%s' is not a name of [a-z0-9_]", model, n);
		for (int d = 0; d < c; d++)
			if (strcmp(cols[d].name, n) == 0)
				return cmn_err_set(e, CMN_ESTATE,
				                   "run-time model %s: column '%s' declared twice",
				                   model, n);
		const struct js_rt_column *s = slot(n);
		if (s && s->text != cols[c].text)
			return cmn_err_set(e, CMN_ESTATE,
			                   "run-time model %s: column '%s' is the per-job CSV's %s "
			                   "slot, declared as a %s",
			                   model, n, s->text ? "text" : "number",
			                   cols[c].text ? "text" : "number");
		if (!s && core_column(n))
			return cmn_err_set(
			    e, CMN_ESTATE,
			    "run-time model %s: column '%s' is one of the per-job CSV's "
			    "own",
			    model, n);
	}
	return 0;
}

int js_write_jobs_csv(FILE *f, const struct js_workload *w, const struct js_sim_result *r,
                      const struct plat_machine *m, double gamma_s)
{
	int q[3];
	js_size_quartiles(w, q);
	struct quality_buf buf;
	if (quality_buf(m, &buf)) {
		quality_buf_free(&buf);
		return CMN_ENOMEM;
	}
	const struct js_rt_values *v = &r->values;
	int psi = js_rt_values_col(v, "psi"), profile = js_rt_values_col(v, "profile"),
	    iter_ref = js_rt_values_col(v, "iter_ref_s");
	char wname[sizeof w->source];
	workload_name(w->source, wname, sizeof wname);
	fputs(jobs_columns, f);
	for (int c = 0; c < v->ncols; c++) /* the model's other values, after the core's */
		if (!is_slot(v->cols[c].name))
			fprintf(f, ",%s", v->cols[c].name);
	fputc('\n', f);
	for (size_t i = 0; i < w->n; i++) {
		const struct js_job *j = &w->jobs[i];
		const struct js_job_result *x = &r->jobs[i];
		double exec = x->finish_s - x->start_s, wait = x->start_s - j->submit_s;
		double turn = x->finish_s - j->submit_s;
		char idbuf[24];
		cmn_csv_field(f, js_job_id_text(w, j, idbuf));
		fputc(',', f);
		cmn_csv_field(f, wname);
		fputc(',', f);
		/* the profile the model ran, else the workload's */
		const char *prof = js_rt_values_text(v, i, profile);
		const struct js_bprofile *bp = js_job_bprofile(w, j);
		cmn_csv_field(f, prof && *prof ? prof : bp ? bp->name : "");
		fputc(',', f);
		num(f, j->submit_s, ",");
		fprintf(f, "%d,", j->size);
		num(f, j->req_s, ",");
		fprintf(f, "%d,%s,", !x->killed,
		        x->killed ? "COMPLETED_WALLTIME_REACHED" : "COMPLETED_SUCCESSFULLY");
		num(f, x->start_s, ",");
		num(f, exec, ",");
		num(f, x->finish_s, ",");
		num(f, wait, ",");
		num(f, turn, ",");
		num(f, exec > 0 ? turn / exec : NAN, ",");
		fprintf(f, "%s,-1,,", r->text + x->res_off); /* consumed_energy, metadata */
		num(f, bsld(turn, exec, gamma_s), ",");
		fprintf(f, "%d,S%d,%.0f,", x->killed, js_size_group(q, j->size), j->f[JS_F_STATUS]);
		struct js_alloc_quality aq;
		job_quality(m, r, i, j->size, &buf, &aq);
		num(f, aq.pairwise_sum, ",");
		num(f, aq.pairwise_mean, ",");
		if (aq.max_level >= 0)
			fprintf(f, "%d", aq.max_level);
		fprintf(f, ",%s,%d,%d,", js_alloc_class_names[aq.cls], aq.clusters, x->moves);
		num(f, js_rt_values_num(v, i, psi), ",");
		num(f, x->work_s, ",");
		/* the log's run time over the run time here (1: as in the log);
		 * killed jobs did not finish their work */
		num(f, exec > 0 && !x->killed ? j->run_s / exec : NAN, ",");
		/* the time-weighted mean of its iteration time: its work at rate
		 * iter_ref / iter took exec seconds */
		double ref = js_rt_values_num(v, i, iter_ref);
		num(f, ref, ",");
		num(f, !x->killed && x->work_s > 0 ? ref * exec / x->work_s : NAN, ",");
		num(f, j->user_prio, ",");
		fprintf(f, "%d,%d,%d,%d,%s,%" PRIu32, j->resizable, x->expansions, x->contractions,
		        x->max_nodes, x->sizes_off == SIZE_MAX ? "" : r->text + x->sizes_off,
		        j->part);
		for (int c = 0; c < v->ncols; c++) {
			if (is_slot(v->cols[c].name))
				continue;
			fputc(',', f);
			if (v->cols[c].text)
				cmn_csv_field(f, js_rt_values_text(v, i, c));
			else
				num(f, js_rt_values_num(v, i, c), "");
		}
		fputc('\n', f);
	}
	quality_buf_free(&buf);
	return ferror(f) ? CMN_EIO : 0;
}

struct summary {
	size_t n;
	double makespan, mean_wait, median_wait, mean_resp, mean_bsld;
	size_t bsld_none; /* jobs without a bounded slowdown (run time 0, gamma 0) */
	double util, unused, lost, load;
	double art[4];
	size_t group_n[4];
	int q[3];
	double pw_sum, pw_mean, max_level, clusters;
	double frac_class[4]; /* by enum js_alloc_class */
	size_t coallocated;   /* jobs spanning two clusters or more */
	double mean_psi;      /* over jobs with a psi */
	double mean_speedup; /* log run time / run time over the jobs that finished (and had one) */
	double art_c[4];     /* seed 001's psi groups C1..C4, co-allocated jobs */
};

/* Means of the allocation quality over the jobs (pairwise mean over jobs of
 * two nodes or more; level and class over all jobs on trees). */
static int summarize_quality(const struct js_workload *w, const struct js_sim_result *r,
                             const struct plat_machine *m, struct summary *s)
{
	struct quality_buf buf;
	if (quality_buf(m, &buf)) {
		quality_buf_free(&buf);
		return CMN_ENOMEM;
	}
	struct plat_isum pw_sum = {0, 0}; /* exact: integers */
	size_t multi = 0, tree = 0, with_psi = 0, cn[4] = {0};
	double pw_mean = 0, level = 0, clusters = 0, cls[4] = {0}, psi = 0, cresp[4] = {0};
	s->coallocated = 0;
	int psi_col = js_rt_values_col(&r->values, "psi");
	for (size_t i = 0; i < w->n; i++) {
		struct js_alloc_quality aq;
		job_quality(m, r, i, w->jobs[i].size, &buf, &aq);
		plat_isum_add(&pw_sum, aq.pairwise_sum);
		if (r->jobs[i].nnodes > 1) {
			pw_mean += aq.pairwise_mean;
			multi++;
		}
		if (aq.max_level >= 0) {
			level += aq.max_level;
			tree++;
		}
		cls[aq.cls]++;
		clusters += aq.clusters;
		s->coallocated += aq.clusters > 1;
		double jpsi = js_rt_values_num(&r->values, i, psi_col);
		if (isnan(jpsi))
			continue;
		psi += jpsi;
		with_psi++;
		if (aq.clusters > 1) { /* C1..C4: psi in [0,.05), [.05,.10), [.10,.15), [.15,...) */
			int g = jpsi < 0.05 ? 0 : jpsi < 0.10 ? 1 : jpsi < 0.15 ? 2 : 3;
			cresp[g] += r->jobs[i].finish_s - w->jobs[i].submit_s;
			cn[g]++;
		}
	}
	for (int g = 0; g < 4; g++)
		s->art_c[g] = cn[g] ? cresp[g] / (double)cn[g] : NAN;
	s->mean_psi = with_psi ? psi / (double)with_psi : NAN;
	double n = (double)w->n;
	s->pw_sum = w->n ? plat_isum_value(&pw_sum) / n : NAN;
	s->pw_mean = multi ? pw_mean / (double)multi : NAN;
	s->max_level = tree ? level / (double)tree : NAN;
	for (int c = 0; c < 4; c++)
		s->frac_class[c] = tree ? cls[c] / (double)tree : NAN;
	s->clusters = w->n ? clusters / n : NAN;
	quality_buf_free(&buf);
	return 0;
}

static int summarize(const struct js_workload *w, const struct js_sim_result *r, double gamma,
                     struct summary *s)
{
	memset(s, 0, sizeof *s);
	size_t n = w->n;
	s->n = n;
	js_size_quartiles(w, s->q);
	if (n == 0) {
		s->makespan = s->mean_wait = s->median_wait = s->mean_resp = s->mean_bsld = NAN;
		s->util = s->unused = s->lost = s->load = NAN;
		for (int g = 0; g < 4; g++)
			s->art[g] = NAN;
		return 0;
	}
	double *wait = malloc(n * sizeof *wait), *arr = malloc(n * sizeof *arr);
	double *end = malloc(n * sizeof *end), *work = malloc(n * sizeof *work);
	if (!wait || !arr || !end || !work) {
		free(wait), free(arr), free(end), free(work);
		return CMN_ENOMEM;
	}
	double first = INFINITY, last = -INFINITY, sum_resp = 0, sum_bsld = 0, used = 0;
	double art_sum[4] = {0};
	for (size_t i = 0; i < n; i++) {
		const struct js_job *j = &w->jobs[i];
		const struct js_job_result *x = &r->jobs[i];
		double exec = x->finish_s - x->start_s, resp = x->finish_s - j->submit_s;
		wait[i] = x->start_s - j->submit_s;
		arr[i] = j->submit_s;
		end[i] = x->finish_s;
		work[i] = x->node_s;
		used += work[i];
		sum_resp += resp;
		double b = bsld(resp, exec, gamma);
		if (isnan(b))
			s->bsld_none++;
		else
			sum_bsld += b;
		if (j->submit_s < first)
			first = j->submit_s;
		if (x->finish_s > last)
			last = x->finish_s;
		int g = js_size_group(s->q, j->size) - 1;
		art_sum[g] += resp;
		s->group_n[g]++;
	}
	s->makespan = last - first;
	double speedup = 0;
	size_t with_speedup = 0;
	for (size_t i = 0; i < w->n; i++) {
		double exec = r->jobs[i].finish_s - r->jobs[i].start_s;
		if (exec > 0 && !r->jobs[i].killed &&
		    !isnan(w->jobs[i].run_s)) { /* NAN: replayed */
			speedup += w->jobs[i].run_s / exec;
			with_speedup++;
		}
	}
	s->mean_speedup = with_speedup ? speedup / (double)with_speedup : NAN;
	s->mean_wait = gsl_stats_mean(wait, 1, n);
	s->median_wait = gsl_stats_median(wait, 1, n); /* quickselect: wait is reordered */
	s->mean_resp = sum_resp / n;
	s->mean_bsld = n > s->bsld_none ? sum_bsld / (double)(n - s->bsld_none) : NAN;
	double cap = s->makespan * r->nodes;
	s->util = cap > 0 ? used / cap : NAN;
	s->unused = cap > 0 ? r->unused_node_s / cap : NAN;
	s->lost = cap > 0 ? 1 - s->util - s->unused : NAN;
	if (s->lost < 0 && s->lost > -1e-9) /* rounding of the two fractions: none lost */
		s->lost = 0;
	size_t kept;
	s->load = js_load_eq2(n, arr, end, work, r->nodes, &kept);
	for (int g = 0; g < 4; g++)
		s->art[g] = s->group_n[g] ? art_sum[g] / s->group_n[g] : NAN;
	free(wait), free(arr), free(end), free(work);
	return 0;
}

static long skipped_total(const struct js_counts *c)
{
	long t = 0;
	for (int k = 0; k < JS_SKIP_N; k++)
		t += c->skipped[k];
	return t;
}

/* A CSV text field and its separator. */
static void str(FILE *f, const char *v, const char *sep)
{
	cmn_csv_field(f, v);
	fputs(sep, f);
}

/* The cleaning options as summary columns (see the header). */
static void write_clean_params(FILE *f, const struct js_run_params *p)
{
	const struct js_clean_opts *o = p->clean;
	fprintf(f, "%s,%d,%s,%s,%s,",
	        o->size_field == JS_SIZE_REQUESTED ? "requested" : "allocated", p->procs_per_node,
	        o->oversize == JS_OVERSIZE_CLAMP ? "clamp" : "skip",
	        o->skip_zero_run ? "skip" : "keep",
	        o->overrun == JS_OVERRUN_CLAMP   ? "clamp"
	        : o->overrun == JS_OVERRUN_RAISE ? "raise"
	                                         : "keep");
	for (int st = -1, first = 1; st <= 5; st++)
		if (o->status_mask & (1u << (st + 1))) {
			fprintf(f, "%s%d", first ? "" : " ", st);
			first = 0;
		}
	if (o->status_mask & JS_STATUS_OTHER)
		fprintf(f, "%sother", o->status_mask == JS_STATUS_OTHER ? "" : " ");
	fputc(',', f);
	num(f, o->window_from_s, ",");
	num(f, o->window_to_s, ",");
	fprintf(f, "%ld,%ld,", o->offset, o->first);
	num(f, o->arrival_mult, ",");
	num(f, o->runtime_coef, ",");
}

int js_write_summary_csv(FILE *f, const struct js_workload *w, const struct js_sim_result *r,
                         const struct js_run_params *p)
{
	struct summary s;
	if (summarize(w, r, p->gamma_s, &s))
		return CMN_ENOMEM;
	const struct js_counts *c = &w->counts;
	fprintf(f, "workload,machine,nodes,sched,alloc,runtime,queue_order,kill_at_requested,seed,"
	           "bsld_gamma_s,size_field,procs_per_node,oversize,zero_runtime,overrun,statuses,"
	           "window_from_s,window_to_s,offset,first,arrival_mult,runtime_coef,"
	           "jobs_read,jobs_skipped");
	for (int k = 0; k < JS_SKIP_N; k++)
		fprintf(f, ",skipped_%s", js_skip_names[k]);
	fprintf(
	    f,
	    ",size_from_requested,size_clamped,requested_from_run,run_clamped,"
	    "overrun_kept,requested_raised,submit_reordered,status_undefined,negative_kept,"
	    "partial_shared,jobs_simulated,jobs_killed,makespan_s,"
	    "mean_wait_s,median_wait_s,mean_response_s,mean_bounded_slowdown,"
	    "utilization,unused_capacity,lost_capacity,load,size_q1,size_median,"
	    "size_q3,jobs_s1,jobs_s2,jobs_s3,jobs_s4,art_s1_s,art_s2_s,art_s3_s,"
	    "art_s4_s,passes,mean_pairwise_sum,mean_pairwise_mean,mean_max_level,"
	    "frac_contiguous,frac_quasi,frac_noncontiguous,mean_clusters,alloc_decisions,"
	    "alloc_time_total_s,alloc_time_mean_us,alloc_time_max_us,migrations_tried,migrations_"
	    "done,jobs_coallocated,mean_psi,art_c1_s,art_c2_s,art_c3_s,art_c4_s,"
	    "mean_effective_speedup,resize,resizable,resize_points,expansions,contractions\n");
	str(f, p->workload, ",");
	str(f, p->machine, ",");
	fprintf(f, "%d,", r->nodes);
	str(f, p->sched, ",");
	str(f, p->alloc, ",");
	str(f, p->runtime, ",");
	str(f, p->order, ",");
	fprintf(f, "%d,%lu,%.15g,", p->kill_at_req, p->seed, p->gamma_s);
	write_clean_params(f, p);
	fprintf(f, "%ld,%ld", c->read, skipped_total(c));
	for (int k = 0; k < JS_SKIP_N; k++)
		fprintf(f, ",%ld", c->skipped[k]);
	fprintf(f, ",%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%zu,%ld,", c->size_from_requested,
	        c->size_clamped, c->req_from_run, c->run_clamped, c->overrun_kept, c->req_raised,
	        c->reordered, c->status_undefined, c->negative_kept, c->partial_shared, w->n,
	        r->killed);
	num(f, s.makespan, ",");
	num(f, s.mean_wait, ",");
	num(f, s.median_wait, ",");
	num(f, s.mean_resp, ",");
	num(f, s.mean_bsld, ",");
	num(f, s.util, ",");
	num(f, s.unused, ",");
	num(f, s.lost, ",");
	num(f, s.load, ",");
	fprintf(f, "%d,%d,%d,%zu,%zu,%zu,%zu,", s.q[0], s.q[1], s.q[2], s.group_n[0], s.group_n[1],
	        s.group_n[2], s.group_n[3]);
	for (int g = 0; g < 4; g++)
		num(f, s.art[g], ",");
	fprintf(f, "%ld,", r->passes);
	if (summarize_quality(w, r, p->m, &s))
		return CMN_ENOMEM;
	num(f, s.pw_sum, ",");
	num(f, s.pw_mean, ",");
	num(f, s.max_level, ",");
	for (int c = JS_CLASS_CONTIGUOUS; c <= JS_CLASS_NONCONTIGUOUS; c++)
		num(f, s.frac_class[c], ",");
	num(f, s.clusters, ",");
	const struct js_alloc_stats *st = p->a->stats;
	fprintf(f, "%ld,", st->decisions);
	if (st->timed && st->decisions) {
		num(f, st->time_s, ",");
		num(f, 1e6 * st->time_s / (double)st->decisions, ",");
		num(f, 1e6 * st->max_s, ",");
	} else {
		fprintf(f, ",,,");
	}
	fprintf(f, "%ld,%ld,%zu,", r->migrations_tried, r->migrations_done, s.coallocated);
	num(f, s.mean_psi, ",");
	for (int g = 0; g < 4; g++)
		num(f, s.art_c[g], ",");
	num(f, s.mean_speedup, ",");
	str(f, p->resize, ",");
	str(f, p->resizable, ",");
	fprintf(f, "%ld,%ld,%ld\n", r->resize_points, r->expansions, r->contractions);
	return ferror(f) ? CMN_EIO : 0;
}

/* The skips by reason, "reason n, ..." (those with none left out). */
static void print_skips(FILE *f, const struct js_workload *w)
{
	for (int k = 0, first = 1; k < JS_SKIP_N; k++)
		if (w->counts.skipped[k]) {
			fprintf(f, "%s%s %ld", first ? "" : ", ", js_skip_names[k],
			        w->counts.skipped[k]);
			first = 0;
		}
}

void js_print_summary(FILE *f, const struct js_workload *w, const struct js_sim_result *r,
                      const struct js_run_params *p)
{
	struct summary s;
	if (summarize(w, r, p->gamma_s, &s))
		return;
	fprintf(f, "%-24s %s\n", "workload", p->workload);
	if (p->m && r->nodes < p->m->nodes)
		fprintf(f, "%-24s %s (%d nodes, %d installed)\n", "machine", p->machine,
		        p->m->nodes, r->nodes);
	else
		fprintf(f, "%-24s %s (%d nodes)\n", "machine", p->machine, r->nodes);
	fprintf(f, "%-24s %s / %s / %s\n", "sched / alloc / runtime", p->sched, p->alloc,
	        p->runtime);
	/* skips by reason: a log run on a smaller machine loses its oversize
	 * jobs, which the total alone would lump with --first's cut */
	long skipped = skipped_total(&w->counts);
	fprintf(f, "%-24s %ld read, %ld skipped", "jobs", w->counts.read, skipped);
	if (skipped && w->n) {
		fprintf(f, " (");
		print_skips(f, w);
		fprintf(f, ")");
	}
	fprintf(f, ", %zu simulated, %ld killed\n", w->n, r->killed);
	if (w->n == 0) { /* nothing simulated: say why instead of means of nothing */
		fprintf(f, "%-24s none: every record skipped (", "simulated");
		print_skips(f, w);
		fprintf(f, ")\n");
		return;
	}
	fprintf(f, "%-24s %.1f\n", "makespan (s)", s.makespan);
	fprintf(f, "%-24s %.1f (median %.1f)\n", "mean wait (s)", s.mean_wait, s.median_wait);
	fprintf(f, "%-24s %.1f\n", "mean response (s)", s.mean_resp);
	fprintf(f, "%-24s %.3f\n", "mean bounded slowdown", s.mean_bsld);
	if (s.bsld_none)
		fprintf(f,
		        "%-24s %zu jobs of run time 0 left out (their slowdown is undefined "
		        "with --gamma 0)\n",
		        "", s.bsld_none);
	fprintf(f, "%-24s %.4f / %.4f / %.4f\n", "utilized / unused / lost", s.util, s.unused,
	        s.lost);
	if (isnan(s.load)) /* no job ends before the last arrival (after the first 1 %) */
		fprintf(f, "%-24s - (no job ends within the span of arrivals it needs)\n",
		        "load (seed 000 eq. 2)");
	else
		fprintf(f, "%-24s %.4f\n", "load (seed 000 eq. 2)", s.load);
	fprintf(f, "%-24s %.4f\n", "mean effective speed-up", s.mean_speedup);
	fprintf(f, "%-24s", "mean response by size");
	for (int g = 0; g < 4; g++) /* "-": no job of that size class */
		if (isnan(s.art[g]))
			fprintf(f, "%sS%d -", g ? "  " : " ", g + 1);
		else
			fprintf(f, "%sS%d %.1f", g ? "  " : " ", g + 1, s.art[g]);
	fprintf(f, "\n");
}

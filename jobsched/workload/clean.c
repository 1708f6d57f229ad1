/* Cleaning and transformation of SWF records into simulated jobs, with a
 * count for every record that is skipped, clamped or filled in. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "swf_internal.h"

const char *const js_skip_names[JS_SKIP_N] = {
    [JS_SKIP_MALFORMED] = "malformed",       [JS_SKIP_SUBMIT_UNKNOWN] = "submit_unknown",
    [JS_SKIP_SIZE_UNKNOWN] = "size_unknown", [JS_SKIP_SIZE_NONPOS] = "size_nonpositive",
    [JS_SKIP_OVERSIZE] = "oversize",         [JS_SKIP_RUN_UNKNOWN] = "runtime_unknown",
    [JS_SKIP_RUN_ZERO] = "runtime_zero",     [JS_SKIP_STATUS] = "status",
    [JS_SKIP_SELECTION] = "selection",       [JS_SKIP_DUPLICATE] = "duplicate",
    [JS_SKIP_PARTIAL] = "partial",
};

void js_clean_opts_default(struct js_clean_opts *o)
{
	memset(o, 0, sizeof *o);
	o->size_field = JS_SIZE_ALLOCATED;
	o->oversize = JS_OVERSIZE_SKIP;
	o->procs_per_node = 1;
	o->status_mask = JS_STATUS_ALL;
	o->window_from_s = NAN;
	o->window_to_s = NAN;
	o->arrival_mult = 1.0;
	o->runtime_coef = 1.0;
}

int js_clean_ppn(const struct js_workload *w, const struct js_clean_opts *o, int *ppn,
                 struct cmn_err *e)
{
	*ppn = o->procs_per_node;
	if (*ppn > 0)
		return 0;
	long long procs = w->hdr.max_procs, nodes = w->hdr.max_nodes;
	if (procs <= 0 || nodes <= 0) { /* -1: absent; 0: given as 0 */
		char what[2][40];
		const char *key[2] = {"MaxProcs", "MaxNodes"};
		long long val[2] = {procs, nodes};
		int n = 0;
		for (int k = 0; k < 2; k++)
			if (val[k] <= 0)
				snprintf(what[n++], sizeof what[0],
				         val[k] < 0 ? "no %s header value" : "%s 0 in its header",
				         key[k]);
		if (n == 2 && procs < 0 && nodes < 0)
			snprintf(what[0], sizeof what[0], "no MaxProcs");
		else if (n == 2 && procs == 0 && nodes == 0)
			snprintf(what[0], sizeof what[0], "MaxProcs 0");
		return cmn_err_set(e, CMN_EUSAGE,
		                   "--procs-per-node auto: %s has %s%s%s: give the number of "
		                   "processors per node",
		                   w->source, what[0], n > 1 ? " and " : "", n > 1 ? what[1] : "");
	}
	if (procs % nodes != 0 || procs / nodes > (1 << 20))
		return cmn_err_set(e, CMN_EUSAGE,
		                   "--procs-per-node auto: %s: MaxProcs %lld is not a multiple of "
		                   "MaxNodes %lld (nodes of several sizes?): give the number of "
		                   "processors per node",
		                   w->source, procs, nodes);
	*ppn = (int)(procs / nodes);
	return 0;
}

/* Returns the skip reason, or -1 when the record becomes a job. */
static int clean_one(struct js_job *j, const struct js_clean_opts *o, int ppn, int nodes,
                     struct js_counts *c)
{
	double status = j->f[JS_F_STATUS];
	unsigned bit = status < -1 || status > 5 ? JS_STATUS_OTHER : 1u << (int)(status + 1);
	if (!(o->status_mask & bit))
		return JS_SKIP_STATUS;
	double first =
	    o->size_field == JS_SIZE_ALLOCATED ? j->f[JS_F_ALLOC_PROCS] : j->f[JS_F_REQ_PROCS];
	double other =
	    o->size_field == JS_SIZE_ALLOCATED ? j->f[JS_F_REQ_PROCS] : j->f[JS_F_ALLOC_PROCS];
	double procs = first;
	if (procs == -1) {
		if (other == -1)
			return JS_SKIP_SIZE_UNKNOWN;
		procs = other;
		c->size_from_requested++;
	}
	if (procs <= 0)
		return JS_SKIP_SIZE_NONPOS;
	double size = ceil(procs / ppn);
	if (size > nodes) {
		if (o->oversize == JS_OVERSIZE_SKIP)
			return JS_SKIP_OVERSIZE;
		size = nodes;
		c->size_clamped++;
	}
	double run = j->f[JS_F_RUN];
	if (run == -1 && j->replayed) { /* a model replays its profile: no run time yet */
		j->size = (int)size;
		j->run_s = NAN;
		j->req_s = j->f[JS_F_REQ_TIME]; /* the reader asks for one */
		j->submit_s = j->f[JS_F_SUBMIT];
		return -1;
	}
	if (run == -1)
		return JS_SKIP_RUN_UNKNOWN;
	if (run == 0 && o->skip_zero_run)
		return JS_SKIP_RUN_ZERO;
	double req = j->f[JS_F_REQ_TIME];
	if (req == -1) {
		req = run;
		c->req_from_run++;
	}
	if (run > req) {
		if (o->overrun == JS_OVERRUN_CLAMP) {
			run = req;
			c->run_clamped++;
		} else if (o->overrun == JS_OVERRUN_RAISE) {
			req = run;
			c->req_raised++;
		} else {
			c->overrun_kept++;
		}
	}
	j->size = (int)size;
	j->run_s = run; /* scaled once selected (scale_times) */
	j->req_s = req;
	j->submit_s = j->f[JS_F_SUBMIT];
	return -1;
}

/* The job in messages: FILE:LINE: job ID (part P), or FILE: job ID when it
 * has no line (a Batsim or generated job). */
static const char *job_where(const struct js_workload *w, const struct js_job *j, char *buf,
                             size_t len)
{
	char id[24], part[24] = "";
	if (j->part)
		snprintf(part, sizeof part, " (part %u)", (unsigned)j->part);
	if (j->line)
		snprintf(buf, len, "%s:%u: job %s%s", w->source, (unsigned)j->line,
		         js_job_id_text(w, j, id), part);
	else
		snprintf(buf, len, "%s: job %s%s", w->source, js_job_id_text(w, j, id), part);
	return buf;
}

/* Applies --arrival-mult and --runtime-coef to a selected job. A time they
 * would change silently is an error naming the job (the options make it
 * one the simulation cannot run as asked): one taken beyond the readers'
 * 10^12 s (--swf-out would not read back), a non-zero one taken to 0
 * (below the least double), and a positive run or requested time that
 * vanishes when added to the scaled submit time (as the readers refuse:
 * the job would take no time). */
static int scale_times(const struct js_workload *w, struct js_job *j, const struct js_clean_opts *o,
                       struct cmn_err *e)
{
	const char *name[3] = {"submit time", "run time", "requested time"};
	const char *opt[3] = {"--arrival-mult", "--runtime-coef", "--runtime-coef"};
	double *t[3] = {&j->submit_s, &j->run_s, &j->req_s};
	double mult[3] = {o->arrival_mult, o->runtime_coef, o->runtime_coef};
	for (int k = 0; k < 3; k++) {
		double was = *t[k];
		if (isnan(was)) /* a replayed Batsim job's run time: a model gives it */
			continue;
		*t[k] = was * mult[k];
		char where[700];
		if (*t[k] > JS_TIME_MAX_S)
			return cmn_err_set(e, CMN_EUSAGE,
			                   "%s: %s %g takes its %s %g s to %g s, beyond 10^12 s "
			                   "(the readers' limit)",
			                   job_where(w, j, where, sizeof where), opt[k], mult[k],
			                   name[k], was, *t[k]);
		if (was > 0 && *t[k] == 0)
			return cmn_err_set(e, CMN_EUSAGE,
			                   "%s: %s %g takes its %s %g s to 0 (below the least "
			                   "double): the time would be lost",
			                   job_where(w, j, where, sizeof where), opt[k], mult[k],
			                   name[k], was);
	}
	double sub = j->submit_s;
	for (int k = 1; k < 3; k++)
		if (*t[k] > 0 && sub + *t[k] == sub) {
			char where[700], amult[64] = "";
			if (o->arrival_mult != 1)
				snprintf(amult, sizeof amult,
				         " and --arrival-mult %g (its submit time)",
				         o->arrival_mult);
			return cmn_err_set(e, CMN_EUSAGE,
			                   "%s: --runtime-coef %g%s %s its %s to %g s, which "
			                   "vanishes when added to "
			                   "its submit time %.17g s (doubles there are %.3g s "
			                   "apart): the job would "
			                   "take no time",
			                   job_where(w, j, where, sizeof where), o->runtime_coef,
			                   amult, *amult ? "take" : "takes", name[k], *t[k], sub,
			                   nextafter(sub, INFINITY) - sub);
		}
	return 0;
}

static int by_submit(const void *a, const void *b)
{
	const struct js_job *x = a, *y = b;
	if (x->submit_s != y->submit_s)
		return x->submit_s < y->submit_s ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

int js_clean(struct js_workload *w, const struct js_clean_opts *o, int machine_nodes,
             struct cmn_err *e)
{
	if (!(o->arrival_mult > 0) || !(o->runtime_coef > 0) || !isfinite(o->arrival_mult) ||
	    !isfinite(o->runtime_coef) || o->offset < 0 || o->first < 0)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "cleaning: multipliers must be finite and > 0, counts >= 0");
	int ppn;
	int rc = js_clean_ppn(w, o, &ppn, e);
	if (rc)
		return rc;
	size_t kept = 0;
	double last_submit = -INFINITY;
	for (size_t i = 0; i < w->n; i++) {
		struct js_job j = w->jobs[i];
		if (j.f[JS_F_SUBMIT] < last_submit)
			w->counts.reordered++;
		last_submit = j.f[JS_F_SUBMIT];
		int why = j.f[JS_F_SUBMIT] == -1 ? JS_SKIP_SUBMIT_UNKNOWN
		                                 : clean_one(&j, o, ppn, machine_nodes, &w->counts);
		if (why >= 0) {
			w->counts.skipped[why]++;
			continue;
		}
		w->jobs[kept++] = j;
	}
	w->n = kept;
	size_t in_order = 1; /* logs come in submit order: then there is nothing to sort */
	while (in_order < w->n && by_submit(&w->jobs[in_order - 1], &w->jobs[in_order]) < 0)
		in_order++;
	if (in_order < w->n)
		qsort(w->jobs, w->n, sizeof *w->jobs, by_submit);
	/* Selection on the cleaned, ordered jobs: time window, then offset/first. */
	kept = 0;
	long passed = 0;
	int window = !isnan(o->window_from_s) || !isnan(o->window_to_s);
	for (size_t i = 0; i < w->n; i++) {
		struct js_job *j = &w->jobs[i];
		int in = 1;
		if (window && ((!isnan(o->window_from_s) && j->submit_s < o->window_from_s) ||
		               (!isnan(o->window_to_s) && j->submit_s >= o->window_to_s)))
			in = 0;
		if (in) {
			passed++;
			if (passed <= o->offset || (o->first > 0 && passed > o->offset + o->first))
				in = 0;
		}
		if (!in) {
			w->counts.skipped[JS_SKIP_SELECTION]++;
			continue;
		}
		/* scaled times stay where the readers' are (--swf-out then reads back) */
		if (scale_times(w, j, o, e))
			return e->code;
		w->jobs[kept++] = *j;
	}
	w->n = kept;
	return 0;
}

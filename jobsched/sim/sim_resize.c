/* Resizable jobs in the scheduling core (seed 004): iterations with a
 * resize point after each, the performance history a resizing policy
 * decides from (ReSHAPE's profiler: every size a job ran on with its last
 * measured iteration time), growth and contraction with placement, and
 * the size trace the jobs table reports.
 *
 * A resizable job's work (the run-time model's, at its starting size) is
 * cut into `iters` equal segments; a segment ends at a resize point. Its
 * progress rate is the run-time model's rate times its speed, the ratio of
 * its starting size's iteration time to its current size's (1 until it
 * resizes). A resize costs the policy's redistribution time, charged as
 * extra work at the job's speed at the start of the next segment; the
 * measured iteration time excludes it. */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/grow.h"
#include "../resize/resize.h"
#include "../runtime/runtime.h"
#include "sim_internal.h"

struct rs_size {
	int size;
	double model_s; /* the run-time model's iteration time there */
	double meas_s;  /* last measured (NAN before an iteration ended there) */
	long last_use;  /* order of last use, for "most recent" */
};

struct js_rs {
	int start_size, sweet;
	int exp_from, exp_to; /* the latest expansion (expansions counted in the result) */
	/* A job resizes at most once per resize point (iters - 1 of them;
	 * js_sim_resize refuses a second resize at one point), so
	 * it runs on at most iters sizes and stacks fewer expansions: both
	 * arrays have room for iters from the start. */
	int *stack, nstack; /* sizes before each standing expansion */
	struct rs_size *sz;
	int nsz;
	long uses;
	double seg_start_s, seg_redist_s;
	double iter0_model_s; /* model iteration time at the starting size */
	double node_s, since; /* nodes x seconds held until `since` */
	char *trace;          /* "35@0 42@56" */
	long tlen, tcap;
	int at_point; /* inside the policy's call for this job */
	int resized;  /* and it resized there */
};

void js_rs_free(struct js_rs *rs)
{
	if (!rs)
		return;
	free(rs->stack);
	free(rs->sz);
	free(rs->trace);
	free(rs);
}

static int trace_add(struct js_rs *rs, int size, double t)
{
	char buf[64];
	int n = snprintf(buf, sizeof buf, "%s%d@%.15g", rs->tlen ? " " : "", size, t);
	if (cmn_grow((void **)&rs->trace, &rs->tcap, rs->tlen + n + 1, 128, 1))
		return -1;
	memcpy(rs->trace + rs->tlen, buf, (size_t)n + 1);
	rs->tlen += n;
	return 0;
}

static struct rs_size *size_find(const struct js_rs *rs, int size)
{
	for (int i = 0; i < rs->nsz; i++)
		if (rs->sz[i].size == size)
			return &rs->sz[i];
	return NULL;
}

/* A new size (room for it: see struct js_rs). */
static struct rs_size *size_add(struct js_rs *rs, int size, double model_s)
{
	struct rs_size *z = &rs->sz[rs->nsz++];
	*z = (struct rs_size){size, model_s, NAN, rs->uses++};
	return z;
}

int js_rs_start(struct js_sim *s, int j, struct cmn_err *e)
{
	const struct js_job *job = &s->jobs[j];
	struct jstate *st = &s->st[j];
	if (!s->resize || !job->resizable || job->iters < 2)
		return 0;
	if (js_runtime_check_resizable(s->rt, job, e))
		return e->code;
	struct js_rs *rs = calloc(1, sizeof *rs);
	if (!rs)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	st->rs = rs;
	rs->sz = malloc((size_t)job->iters * sizeof *rs->sz);
	rs->stack = malloc((size_t)job->iters * sizeof *rs->stack);
	rs->start_size = st->nnodes;
	rs->seg_start_s = rs->since = s->now;
	rs->iter0_model_s = st->remaining_s / job->iters;
	if (!rs->sz || !rs->stack || trace_add(rs, st->nnodes, s->now))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	size_add(rs, st->nnodes, rs->iter0_model_s);
	st->iter_left = job->iters;
	st->seg_work = st->remaining_s / job->iters;
	st->remaining_s = st->seg_work;
	return 0;
}

int js_rs_end(struct js_sim *s, int j, struct cmn_err *e)
{
	struct jstate *st = &s->st[j];
	struct js_job_result *r = &s->res->jobs[j];
	if (!st->rs)
		return 0;
	r->node_s = st->rs->node_s + st->nnodes * (s->now - st->rs->since);
	int rc = js_sim_text_append(s->res, st->rs->trace, &r->sizes_off);
	js_rs_free(st->rs);
	st->rs = NULL;
	return rc ? cmn_err_set(e, CMN_ENOMEM, "out of memory") : 0;
}

int js_rs_point(struct js_sim *s, int j, struct cmn_err *e)
{
	struct jstate *st = &s->st[j];
	struct js_rs *rs = st->rs;
	struct rs_size *z = size_find(rs, st->nnodes);
	z->meas_s = s->now - rs->seg_start_s - rs->seg_redist_s;
	z->last_use = rs->uses++;
	st->iter_left--;
	s->res->resize_points++;
	js_sim_sort_queue(s); /* the policy reads the queue in its order now */
	rs->at_point = 1;
	rs->resized = 0;
	int rc = s->resize->ops->point(&s->resize->conf, s, j, e);
	rs->at_point = 0;
	if (rc)
		return rc;
	/* the next segment, with the redistribution when it resized */
	rs->seg_start_s = s->now;
	rs->seg_redist_s = rs->resized ? s->resize->conf.redist_s : 0;
	st->remaining_s = st->seg_work + rs->seg_redist_s * st->rate;
	st->last_s = s->now;
	st->version++;
	return js_sim_push_finish(s, j, e);
}

/* --- queries --- */

int js_sim_placement_version(const struct js_sim *s, int j)
{
	const struct js_job_result *r = &s->res->jobs[j];
	return r->moves + r->expansions + r->contractions;
}

int js_sim_resizes(const struct js_sim *s, int j)
{
	return s->st[j].phase == PH_RUNNING && s->st[j].rs != NULL;
}
int js_sim_start_size(const struct js_sim *s, int j)
{
	return s->st[j].rs ? s->st[j].rs->start_size : s->st[j].nnodes;
}
int js_sim_prev_size(const struct js_sim *s, int j)
{
	const struct js_rs *rs = s->st[j].rs;
	return rs && rs->nstack ? rs->stack[rs->nstack - 1] : 0;
}
int js_sim_sweet_spot(const struct js_sim *s, int j)
{
	return s->st[j].rs ? s->st[j].rs->sweet : 0;
}
void js_sim_set_sweet_spot(struct js_sim *s, int j, int size)
{
	if (s->st[j].rs)
		s->st[j].rs->sweet = size;
}
double js_sim_measured(const struct js_sim *s, int j, int size)
{
	const struct rs_size *z = s->st[j].rs ? size_find(s->st[j].rs, size) : NULL;
	return z ? z->meas_s : NAN;
}
int js_sim_expansions(const struct js_sim *s, int j)
{
	return s->res->jobs[j].expansions;
}
int js_sim_last_expansion(const struct js_sim *s, int j, int *from, int *to)
{
	const struct js_rs *rs = s->st[j].rs;
	if (!rs || !s->res->jobs[j].expansions)
		return 0;
	*from = rs->exp_from;
	*to = rs->exp_to;
	return 1;
}
double js_sim_next_point(const struct js_sim *s, int j)
{
	const struct jstate *st = &s->st[j];
	return st->last_s + st->remaining_s / st->rate;
}

int js_sim_sizes_run(const struct js_sim *s, int j, int *sizes, double *meas, int max)
{
	const struct js_rs *rs = s->st[j].rs;
	int n = 0;
	long below = LONG_MAX; /* the most recent first, each older than the last */
	while (rs && n < max) {
		const struct rs_size *next = NULL;
		for (int i = 0; i < rs->nsz; i++)
			if (!isnan(rs->sz[i].meas_s) && rs->sz[i].last_use < below &&
			    (!next || rs->sz[i].last_use > next->last_use))
				next = &rs->sz[i];
		if (!next)
			break;
		below = next->last_use;
		sizes[n] = next->size;
		meas[n++] = next->meas_s;
	}
	for (int a = 0, b = n - 1; a < b; a++, b--) { /* most recent last */
		int ts = sizes[a];
		double tm = meas[a];
		sizes[a] = sizes[b], meas[a] = meas[b];
		sizes[b] = ts, meas[b] = tm;
	}
	return n;
}

/* --- resizing --- */

/* The running jobs' nodes marked in a map of the machine (the caller
 * frees it), or NULL when out of memory. */
static uint8_t *busy_map(const struct js_sim *s)
{
	uint8_t *busy = calloc((size_t)s->nodes, 1);
	if (!busy)
		return NULL;
	for (size_t p = 0; p < s->rlen; p++) {
		const struct jstate *r = &s->st[s->running[p]];
		if (r->runs)
			for (int k = 0; k < r->nruns; k++)
				memset(busy + r->runs[k].first, 1,
				       (size_t)(r->runs[k].last - r->runs[k].first + 1));
		else
			for (int i = 0; i < r->nnodes; i++)
				busy[r->nodes[i]] = 1;
	}
	return busy;
}

int js_sim_resize(struct js_sim *s, int j, int size, struct cmn_err *e)
{
	struct jstate *st = &s->st[j];
	struct js_rs *rs = st->rs;
	const struct js_job *job = &s->jobs[j];
	if (!rs || !rs->at_point)
		return -cmn_err_set(e, CMN_ESTATE,
		                    "job %" PRIu64 " resized outside its resize point", job->id);
	int cur = st->nnodes;
	if (size == cur)
		return 1;
	if (rs->resized)
		return -cmn_err_set(e, CMN_ESTATE,
		                    "job %" PRIu64 " resized twice at one resize point", job->id);
	if (js_sim_own_ids(s, j)) /* grown and shrunk in place below */
		return -cmn_err_set(e, CMN_ENOMEM, "out of memory");
	rs->node_s += cur * (s->now - rs->since);
	rs->since = s->now;
	struct rs_size *target = size_find(rs, size);
	int *buf = s->nodebuf[0];
	if (size > cur) {
		uint8_t *busy = busy_map(s);
		int rc =
		    busy ? js_alloc_grow_map(s->alloc, st->nodes, cur, busy, size - cur, buf) : -2;
		free(busy);
		if (rc == -2)
			return -cmn_err_set(e, CMN_ENOMEM, "out of memory");
		if (rc)
			return 0;
		int *p = realloc(st->nodes, (size_t)size * sizeof *p);
		if (!p)
			return -cmn_err_set(e, CMN_ENOMEM, "out of memory");
		st->nodes = p;
		memcpy(st->nodes + cur, buf, (size_t)(size - cur) * sizeof *buf);
		js_alloc_occupy(s->alloc, buf, size - cur);
		s->busy += size - cur;
		st->nnodes = size;
		rs->stack[rs->nstack++] = cur;
		rs->exp_from = cur;
		rs->exp_to = size;
		s->res->jobs[j].expansions++;
		s->res->expansions++;
	} else {
		if (!target || isnan(target->meas_s))
			return -cmn_err_set(e, CMN_ESTATE,
			                    "job %" PRIu64
			                    ": contraction from %d to %d nodes, a size it has "
			                    "not run on",
			                    job->id, cur, size);
		if (js_alloc_shrink(s->alloc, st->nodes, cur, cur - size))
			return -cmn_err_set(e, CMN_ENOMEM, "out of memory");
		memcpy(buf, st->nodes + size, (size_t)(cur - size) * sizeof *buf);
		st->nnodes = size;
		js_alloc_release(s->alloc, buf, cur - size);
		s->busy -= cur - size;
		while (rs->nstack && rs->stack[rs->nstack - 1] >= size)
			rs->nstack--; /* expansions undone */
		s->res->jobs[j].contractions++;
		s->res->contractions++;
	}
	double from_s = size_find(rs, cur)->model_s;
	if (!target) {
		cmn_err_clear(e);
		double t =
		    s->rt->ops->resize_iter(s->rt->self, s, j, st->nodes, size, cur, from_s, e);
		if (!(t > 0) || !isfinite(t)) {
			if (!e->msg[0])
				cmn_err_set(e, CMN_ESTATE, "iteration time %g", t);
			char name[JS_JOB_NAME_BYTES];
			cmn_err_prefix(e, "run-time model %s: job %s on %d nodes", s->rt->spec,
			               js_job_name(job, name), size);
			return -(e->code ? e->code : CMN_ESTATE);
		}
		target = size_add(rs, size, t);
	}
	double speed = rs->iter0_model_s / target->model_s;
	st->rate = st->rate / st->speed * speed;
	st->speed = speed;
	if (size > s->res->jobs[j].max_nodes)
		s->res->jobs[j].max_nodes = size;
	s->running_changed = 1; /* emergent models see the new nodes */
	rs->resized = 1;
	if (trace_add(rs, size, s->now))
		return -cmn_err_set(e, CMN_ENOMEM, "out of memory");
	return 1;
}

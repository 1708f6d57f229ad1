/* The scheduling simulation core (see sim.h for the event order). */
#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../alloc/alloc_count.h"
#include "../alloc/nodeset.h"
#include "../runtime/runtime.h"
#include "../sched/sched.h"
#include "eventq.h"
#include "sim.h"
#include "sim_internal.h"

void js_sim_opts_default(struct js_sim_opts *o)
{
	memset(o, 0, sizeof *o);
	o->order = JS_ORDER_ARRIVAL;
	o->prio = (struct js_priority){1, 0, 0, 1};
}

/* --- accessors --- */

double js_sim_now(const struct js_sim *s)
{
	return s->now;
}
size_t js_sim_njobs(const struct js_sim *s)
{
	return s->njobs;
}
const struct js_job *js_sim_job(const struct js_sim *s, int j)
{
	return &s->jobs[j];
}
size_t js_sim_qlen(const struct js_sim *s)
{
	return s->qlen;
}
int js_sim_qjob(const struct js_sim *s, size_t pos)
{
	return s->queue[pos];
}
size_t js_sim_rlen(const struct js_sim *s)
{
	return s->rlen;
}
int js_sim_rjob(const struct js_sim *s, size_t pos)
{
	return s->running[pos];
}
double js_sim_start_time(const struct js_sim *s, int j)
{
	return s->st[j].start_s;
}
double js_sim_expected_end(const struct js_sim *s, int j)
{
	return s->st[j].expected_end_s;
}
/* The ids of a node set kept as runs, written out once and kept while the
 * job runs (NULL out of memory). */
static const int *job_ids(struct js_sim *s, int j)
{
	struct jstate *st = &s->st[j];
	if (!st->nodes && st->runs) {
		st->nodes = malloc((size_t)st->nnodes * sizeof *st->nodes);
		if (st->nodes)
			js_runs_expand(st->runs, st->nruns, st->nodes);
	}
	return st->nodes;
}

const int *js_sim_job_nodes(struct js_sim *s, int j, int *n)
{
	*n = s->st[j].nnodes;
	return job_ids(s, j);
}

int js_sim_job_nnodes(const struct js_sim *s, int j)
{
	return s->st[j].nnodes;
}

int js_sim_own_ids(struct js_sim *s, int j)
{
	struct jstate *st = &s->st[j];
	if (!job_ids(s, j) && st->nnodes)
		return -1;
	free(st->runs);
	st->runs = NULL;
	st->nruns = 0;
	return 0;
}
struct js_alloc *js_sim_alloc(struct js_sim *s)
{
	return s->alloc;
}
const struct js_workload *js_sim_workload(const struct js_sim *s)
{
	return s->w;
}

const struct plat_machine *js_sim_machine(const struct js_sim *s)
{
	return s->alloc->machine;
}
void js_sim_set_value(struct js_sim *s, int j, int c, double x)
{
	js_rt_values_set_num(&s->res->values, (size_t)j, c, x);
}
int js_sim_set_text(struct js_sim *s, int j, int c, const char *t, struct cmn_err *e)
{
	if (js_rt_values_set_text(&s->res->values, (size_t)j, c, t))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	return 0;
}
double js_sim_value(const struct js_sim *s, int j, int c)
{
	return js_rt_values_num(&s->res->values, (size_t)j, c);
}
struct js_alloc *js_sim_scratch(struct js_sim *s, int k)
{
	assert(k >= 0 && k < 2);
	return s->scratch[k];
}
int *js_sim_nodebuf(struct js_sim *s, int k)
{
	assert(k >= 0 && k < 3);
	return s->nodebuf[k];
}
const struct js_alloc *js_sim_empty_alloc(const struct js_sim *s)
{
	return s->empty;
}
int js_sim_wakeup(struct js_sim *s, double t, struct cmn_err *e)
{
	struct js_event ev = {t, JS_EV_WAKE, -1, 0};
	if (!(t > s->now) || js_eventq_push(&s->ev, ev))
		return cmn_err_set(e, CMN_ESTATE, "wake-up at %g (now %g) refused", t, s->now);
	return 0;
}
void js_sim_set_reservation(struct js_sim *s, int j, double t)
{
	struct js_job_result *r = &s->res->jobs[j];
	if (isnan(r->first_reservation_s))
		r->first_reservation_s = t;
	r->reservation_s = t;
}
const struct js_job_result *js_sim_job_result(const struct js_sim *s, int j)
{
	return &s->res->jobs[j];
}

enum js_queue_order js_sim_queue_order(const struct js_sim *s)
{
	return s->o->order;
}

int js_sim_queue_indexed(struct js_sim *s)
{
	if (s->o->order != JS_ORDER_ARRIVAL || (!s->qx && s->qlen < JS_QINDEX_FROM))
		return 0;
	if (!s->qx) { /* built on first need: runs whose queue stays short pay nothing */
		if (!(s->qx = malloc(sizeof *s->qx)) || js_qindex_init(s->qx, (int)s->njobs)) {
			free(s->qx);
			s->qx = NULL;
			return 0;
		}
		for (size_t p = 0; p < s->qlen; p++) {
			const struct js_job *job = &s->jobs[s->queue[p]];
			js_qindex_set(s->qx, s->queue[p], job->size, job->req_s);
		}
	}
	return 1;
}

int js_sim_queue_find(const struct js_sim *s, int from, int fit, int small, double until)
{
	assert(s->qx);
	return js_qindex_find(s->qx, from, fit, small, s->now, until);
}

size_t js_sim_queue_pos(const struct js_sim *s, int j)
{
	size_t lo = 0, hi = s->qlen; /* arrival order: the queue is in index order */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (s->queue[mid] < j)
			lo = mid + 1;
		else
			hi = mid;
	}
	assert(lo < s->qlen && s->queue[lo] == j);
	return lo;
}

/* --- ordered arrays --- */

static int queue_before(const struct js_sim *s, int a, int b)
{
	const struct js_job *x = &s->jobs[a], *y = &s->jobs[b];
	switch (s->o->order) {
	case JS_ORDER_SJF:
		if (x->req_s != y->req_s)
			return x->req_s < y->req_s;
		break;
	case JS_ORDER_SMALLEST:
		if (x->size != y->size)
			return x->size < y->size;
		break;
	case JS_ORDER_ARRIVAL:
	case JS_ORDER_PRIORITY: break; /* arrival order; re-sorted before each pass */
	}
	return a < b;
}

double js_aging_priority(const struct js_priority *p, double queue_time_s, double walltime_s,
                         int nodes)
{
	double lim = walltime_s > p->qfactor_limit ? walltime_s : p->qfactor_limit;
	double qfactor = 1 + (lim > 0 ? queue_time_s / lim : 0);
	return p->qfactor_w * qfactor + p->qtime_w * queue_time_s + p->nodes_w * nodes;
}

struct prio_key {
	double key;
	int job;
};

static int prio_cmp(const void *a, const void *b)
{
	const struct prio_key *x = a, *y = b;
	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;      /* highest first */
	return (x->job > y->job) - (x->job < y->job); /* then arrival */
}

/* The queue in priority order at the current time. */
void js_sim_sort_queue(struct js_sim *s)
{
	if (s->o->order != JS_ORDER_PRIORITY)
		return;
	for (size_t i = 0; i < s->qlen; i++) {
		s->qkeys[i].key = js_sim_queue_priority(s, s->queue[i]);
		s->qkeys[i].job = s->queue[i];
	}
	qsort(s->qkeys, s->qlen, sizeof *s->qkeys, prio_cmp);
	for (size_t i = 0; i < s->qlen; i++)
		s->queue[i] = s->qkeys[i].job;
}

double js_sim_queue_priority(const struct js_sim *s, int j)
{
	const struct js_job *job = &s->jobs[j];
	return js_aging_priority(&s->o->prio, s->now - job->submit_s, job->req_s, job->size) +
	       job->user_prio;
}

double js_sim_run_priority(const struct js_sim *s, int j)
{
	const struct js_job *job = &s->jobs[j];
	double wall = job->req_s, elapsed = s->now - s->st[j].start_s;
	double pct_left = wall > 0 ? (wall - elapsed) / wall * 100 : 0;
	return (100 - pct_left) + job->user_prio;
}

int js_sim_pass(struct js_sim *s, struct cmn_err *e)
{
	if (!s->qlen)
		return 0;
	s->res->passes++;
	js_sim_sort_queue(s);
	return s->sched->ops->pass(s->sched->self, s, e);
}

static void queue_insert(struct js_sim *s, int j)
{
	size_t lo = 0, hi = s->qlen;
	if (s->o->order == JS_ORDER_ARRIVAL || s->o->order == JS_ORDER_PRIORITY) {
		lo = hi; /* jobs arrive in index order */
	} else {
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (queue_before(s, s->queue[mid], j))
				lo = mid + 1;
			else
				hi = mid;
		}
	}
	memmove(s->queue + lo + 1, s->queue + lo, (s->qlen - lo) * sizeof *s->queue);
	s->queue[lo] = j;
	s->qlen++;
}

static int run_before(const struct js_sim *s, int a, int b)
{
	double ea = s->st[a].expected_end_s, eb = s->st[b].expected_end_s;
	return ea != eb ? ea < eb : a < b;
}

static size_t run_lower_bound(const struct js_sim *s, int j)
{
	size_t lo = 0, hi = s->rlen;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (run_before(s, s->running[mid], j))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* --- job life --- */

int js_sim_push_finish(struct js_sim *s, int j, struct cmn_err *e)
{
	struct jstate *st = &s->st[j];
	if (s->rt->ops->advance) /* the model says when its jobs end */
		return 0;
	struct js_event ev = {st->last_s + st->remaining_s / st->rate,
	                      st->iter_left > 1 ? JS_EV_POINT : JS_EV_FINISH, j, st->version};
	if (js_eventq_push(&s->ev, ev))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory (event queue)");
	return 0;
}

/* Keeps the node set runs[0..nr) as job j's and occupies it. */
static int take_runs(struct js_sim *s, struct jstate *st, const struct plat_run *runs, int nr,
                     struct cmn_err *e)
{
	st->runs = malloc((size_t)(nr ? nr : 1) * sizeof *st->runs);
	if (!st->runs)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	memcpy(st->runs, runs, (size_t)nr * sizeof *st->runs);
	st->nruns = nr;
	s->alloc->ops->occupy_runs(s->alloc->self, st->runs, nr);
	return 0;
}

/* Starts the job at queue position pos on nodes (n of them), which may be
 * NULL when it was placed as runs (taken already) and the model does not
 * read nodes. */
static int start(struct js_sim *s, size_t pos, const int *nodes, int n, struct cmn_err *e)
{
	int j = s->queue[pos];
	struct jstate *st = &s->st[j];
	const struct js_job *job = &s->jobs[j];
	st->nnodes = n;
	if (pos < s->qlen / 2) { /* the shorter side moves: the head's start is O(1) */
		memmove(s->queue + 1, s->queue, pos * sizeof *s->queue);
		s->queue++;
	} else {
		memmove(s->queue + pos, s->queue + pos + 1, (s->qlen - pos - 1) * sizeof *s->queue);
	}
	s->qlen--;
	if (s->qx)
		js_qindex_clear(s->qx, j);
	s->queued_nodes -= job->size;
	s->busy += n;
	st->phase = PH_RUNNING;
	st->start_s = s->now;
	st->expected_end_s = s->now + job->req_s;
	cmn_err_clear(e);
	st->remaining_s = s->rt->ops->work_s(s->rt->self, s, j, nodes, n, e);
	if (st->remaining_s < 0) {
		if (!e->msg[0])
			cmn_err_set(e, CMN_ENOMEM, "out of memory");
		char name[JS_JOB_NAME_BYTES];
		cmn_err_prefix(e, "run-time model %s: job %s", s->rt->spec, js_job_name(job, name));
		return e->code ? e->code : CMN_ESTATE;
	}
	s->res->jobs[j].work_s = st->remaining_s;
	s->res->jobs[j].max_nodes = n;
	st->rate = 1.0;
	st->last_s = s->now;
	size_t rp = run_lower_bound(s, j);
	memmove(s->running + rp + 1, s->running + rp, (s->rlen - rp) * sizeof *s->running);
	s->running[rp] = j;
	s->rlen++;
	s->running_changed = 1;
	st->iter_left = 1;
	st->seg_work = st->remaining_s;
	st->speed = 1.0;
	int rc = js_rs_start(s, j, e);
	if (!rc)
		rc = js_sim_push_finish(s, j, e);
	if (!rc && s->o->kill_at_req) {
		struct js_event ev = {s->now + job->req_s, JS_EV_KILL, j, 0};
		if (js_eventq_push(&s->ev, ev))
			rc = cmn_err_set(e, CMN_ENOMEM, "out of memory (event queue)");
	}
	return rc;
}

int js_sim_start(struct js_sim *s, size_t pos, const int *nodes, int n, struct cmn_err *e)
{
	assert(pos < s->qlen);
	struct jstate *st = &s->st[s->queue[pos]];
	int nr = s->alloc->ops->occupy_runs ? js_nodes_to_runs(nodes, n, s->runbuf) : -1;
	if (nr >= 0) { /* kept as runs: the work of this start and of the end follows them */
		if (take_runs(s, st, s->runbuf, nr, e))
			return e->code;
	} else {
		st->nodes = malloc((size_t)n * sizeof *nodes);
		if (!st->nodes)
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		memcpy(st->nodes, nodes, (size_t)n * sizeof *nodes);
		js_alloc_occupy(s->alloc, nodes, n);
	}
	return start(s, pos, nodes, n, e);
}

int js_sim_try_start(struct js_sim *s, size_t pos, struct cmn_err *e)
{
	return js_sim_try_start_flags(s, pos, 0, e);
}

int js_sim_try_start_flags(struct js_sim *s, size_t pos, int flags, struct cmn_err *e)
{
	int j = s->queue[pos];
	int rc;
	if (s->counter) { /* counts suffice: no node chosen */
		int n = s->jobs[j].size;
		if (!js_alloc_fits_flags(s->counter, &s->jobs[j], flags))
			return 0;
		js_alloc_count_take(s->counter, n);
		rc = start(s, pos, NULL, n, e);
	} else if (s->alloc->ops->place_runs && s->rt->ops->nodes_unused) { /* no id written */
		int nr, n = js_alloc_place_runs(s->alloc, &s->jobs[j], flags, s->runbuf, &nr);
		if (n == 0)
			return 0;
		rc = take_runs(s, &s->st[j], s->runbuf, nr, e);
		if (!rc)
			rc = start(s, pos, NULL, n, e);
	} else {
		int n = js_alloc_place_flags(s->alloc, &s->jobs[j], flags, s->nodebuf[2]);
		if (n == 0)
			return 0;
		rc = js_sim_start(s, pos, s->nodebuf[2], n, e);
	}
	return rc ? -rc : 1;
}

int js_sim_migrate(struct js_sim *s, struct cmn_err *e)
{
	if (!s->alloc->ops->migrate || s->rlen == 0)
		return 0;
	size_t n = s->rlen;
	const int **nodes = malloc(n * sizeof *nodes);
	int *cnt = malloc(n * sizeof *cnt), **out = calloc(n, sizeof *out), rc = 0;
	for (size_t i = 0; nodes && cnt && out && i < n; i++) {
		struct jstate *st = &s->st[s->running[i]];
		if (js_sim_own_ids(s, s->running[i]))
			rc = CMN_ENOMEM;
		nodes[i] = st->nodes;
		cnt[i] = st->nnodes;
		if (!(out[i] = malloc((size_t)st->nnodes * sizeof **out)))
			rc = CMN_ENOMEM;
	}
	if (!nodes || !cnt || !out)
		rc = CMN_ENOMEM;
	int moved = rc ? -1 : s->alloc->ops->migrate(s->alloc->self, (int)n, nodes, cnt, out);
	if (moved >= 0)
		s->res->migrations_tried++;
	if (moved == 1) { /* release every old set first: the new ones overlap them */
		s->res->migrations_done++;
		for (size_t i = 0; i < n; i++)
			js_alloc_release(s->alloc, nodes[i], cnt[i]);
		for (size_t i = 0; i < n; i++) {
			struct jstate *st = &s->st[s->running[i]];
			js_alloc_occupy(s->alloc, out[i], cnt[i]);
			if (memcmp(st->nodes, out[i], (size_t)cnt[i] * sizeof *out[i]) != 0) {
				s->res->jobs[s->running[i]].moves++;
				s->running_changed = 1; /* emergent models see the new nodes */
			}
			memcpy(st->nodes, out[i], (size_t)cnt[i] * sizeof *out[i]);
		}
	}
	for (size_t i = 0; out && i < n; i++)
		free(out[i]);
	free(out);
	free(cnt);
	free(nodes);
	return rc ? cmn_err_set(e, rc, "out of memory (migration)") : 0;
}

/* Gives a job's nodes back to the allocator: by runs when kept so, as a
 * count to a counter. */
static void release_job(struct js_sim *s, const struct jstate *st)
{
	struct js_alloc *a = s->alloc;
	if (s->counter)
		js_alloc_count_give(s->counter, st->nnodes);
	else if (st->runs)
		a->ops->release_runs(a->self, st->runs, st->nruns);
	else
		js_alloc_release(a, st->nodes, st->nnodes);
}

/* A job's nodes into the results, as runs ("" when no output needs them). */
static int record_job_nodes(struct js_sim *s, const struct jstate *st, size_t *off)
{
	if (s->o->no_node_lists)
		return js_sim_text_runs(s->res, NULL, 0, off);
	if (st->runs)
		return js_sim_text_runs(s->res, st->runs, st->nruns, off);
	return js_sim_text_nodes(s->res, st->nodes, st->nnodes, s->runbuf, off);
}

static int end_job(struct js_sim *s, int j, int killed, struct cmn_err *e)
{
	struct jstate *st = &s->st[j];
	struct js_job_result *r = &s->res->jobs[j];
	size_t rp = run_lower_bound(s, j);
	assert(rp < s->rlen && s->running[rp] == j);
	memmove(s->running + rp, s->running + rp + 1, (s->rlen - rp - 1) * sizeof *s->running);
	s->rlen--;
	release_job(s, st);
	s->busy -= st->nnodes;
	st->phase = PH_DONE;
	s->done++;
	s->running_changed = 1;
	r->start_s = st->start_s;
	r->finish_s = s->now;
	r->nnodes = st->nnodes;
	r->node_s = st->nnodes * (s->now - st->start_s);
	r->killed = killed;
	s->res->killed += killed;
	if (s->sched->ops->on_end) /* while the job's nodes are still known */
		s->sched->ops->on_end(s->sched->self, s, j, s->now < st->expected_end_s);
	if (s->rt->ops->end)
		s->rt->ops->end(s->rt->self, s, j, killed);
	if (record_job_nodes(s, st, &r->res_off))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	int rc = js_rs_end(s, j, e);
	if (rc)
		return rc;
	free(st->nodes);
	free(st->runs);
	st->nodes = NULL;
	st->runs = NULL;
	return 0;
}

static int arrive(struct js_sim *s, int j, struct cmn_err *e)
{
	const struct js_job *job = &s->jobs[j];
	if (!js_alloc_fits(s->empty, job)) {
		char where[48] = "", id[24]; /* a Batsim or generated job has no line */
		if (job->line && job->part)
			snprintf(where, sizeof where, " (line %u, part %" PRIu32 ")", job->line,
			         job->part);
		else if (job->line)
			snprintf(where, sizeof where, " (line %u)", job->line);
		return cmn_err_set(e, CMN_ESTATE,
		                   "job %s%s: %d nodes can never be placed on the machine (%s, %d "
		                   "nodes)",
		                   js_job_id_text(s->w, job, id), where, job->size, s->alloc->spec,
		                   s->nodes);
	}
	s->st[j].phase = PH_QUEUED;
	s->queued_nodes += job->size;
	queue_insert(s, j);
	if (s->qx)
		js_qindex_set(s->qx, j, job->size, job->req_s);
	return 0;
}

/* Asks a dynamic run-time model for new rates and re-predicts finishes. */
static int update_rates(struct js_sim *s, struct cmn_err *e)
{
	s->running_changed = 0;
	if (!s->rt->ops->rates || s->rlen == 0)
		return 0;
	int rc = s->rt->ops->rates(s->rt->self, s, s->rates, e);
	if (rc)
		return rc;
	s->res->rate_updates++;
	for (size_t p = 0; p < s->rlen; p++) {
		int j = s->running[p];
		struct jstate *st = &s->st[j];
		double rate = s->rates[p];
		char name[JS_JOB_NAME_BYTES];
		if (!(rate > 0) || !isfinite(rate))
			return cmn_err_set(e, CMN_ESTATE, "run-time model %s: rate %g for job %s",
			                   s->rt->spec, rate, js_job_name(&s->jobs[j], name));
		rate *= st->speed; /* its size's speed-up (resizable jobs), else 1 */
		if (rate == st->rate)
			continue;
		st->remaining_s -= (s->now - st->last_s) * st->rate;
		if (st->remaining_s < 0)
			st->remaining_s = 0;
		st->last_s = s->now;
		st->rate = rate;
		st->version++;
		rc = js_sim_push_finish(s, j, e);
		if (rc)
			return rc;
	}
	return 0;
}

static void account(struct js_sim *s, double t)
{
	double dt = t - s->last_t;
	if (dt > 0) {
		long free_nodes = s->nodes - s->busy;
		long unused = free_nodes - s->queued_nodes;
		if (unused > 0)
			s->res->unused_node_s += (double)unused * dt;
		s->res->busy_node_s += (double)s->busy * dt;
	}
	s->last_t = t;
}

static double wall_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* --- setup and loop --- */

static void sim_free(struct js_sim *s)
{
	if (!s)
		return;
	for (size_t j = 0; s->st && j < s->njobs; j++) {
		free(s->st[j].nodes);
		free(s->st[j].runs);
		js_rs_free(s->st[j].rs);
	}
	free(s->st);
	free(s->queue_mem);
	free(s->qkeys);
	free(s->running);
	free(s->rates);
	free(s->ended);
	free(s->points);
	for (int k = 0; k < 3; k++)
		free(s->nodebuf[k]);
	free(s->runbuf);
	if (s->nabsent) /* the allocator back as received */
		js_alloc_release(s->real, s->absent, s->nabsent);
	free(s->absent);
	js_alloc_destroy(s->empty);
	js_alloc_destroy(s->scratch[0]);
	js_alloc_destroy(s->scratch[1]);
	js_alloc_destroy(s->counter);
	if (s->qx)
		js_qindex_free(s->qx);
	free(s->qx);
	js_eventq_free(&s->ev);
	free(s);
}

void js_sim_result_free(struct js_sim_result *r)
{
	if (!r)
		return;
	free(r->jobs);
	free(r->text);
	js_rt_values_free(&r->values);
	free(r);
}

/* Whether the number of free nodes decides every placement and nothing reads
 * which nodes a job holds: no output of node lists or placement metrics, a
 * model that ignores nodes, no migration, resizing or observer, and an
 * allocator whose placements succeed whenever the job's size is free (and
 * the user did not ask for the allocator's choices: --choose-nodes). */
static int counts_suffice(const struct js_alloc *a, const struct js_runtime *rt,
                          const struct js_sim_opts *o)
{
	return o->no_node_lists && !o->choose_nodes && a->ops->fungible && !a->ops->migrate &&
	       rt->ops->nodes_unused && !o->resize && !o->observer;
}

static int sim_setup(struct js_sim *s, const struct js_workload *w, struct js_alloc *alloc)
{
	s->jobs = w->jobs;
	s->w = w;
	s->njobs = w->n;
	s->real = alloc;
	s->nodes = alloc->nodes;
	if (s->o->installed > 0 && s->o->installed < alloc->nodes) { /* before any copy */
		int n = alloc->nodes - s->o->installed;
		if (!(s->absent = malloc((size_t)n * sizeof *s->absent)))
			return -1;
		for (int i = 0; i < n; i++)
			s->absent[i] = s->o->installed + i;
		js_alloc_occupy(alloc, s->absent, n);
		s->nabsent = n;
		s->nodes = s->o->installed;
	}
	if (counts_suffice(alloc, s->rt, s->o) &&
	    !(alloc = s->counter = js_alloc_count_create(alloc)))
		return -1;
	s->alloc = alloc;
	s->empty = js_alloc_clone(alloc);
	s->scratch[0] = js_alloc_clone(alloc);
	s->scratch[1] = js_alloc_clone(alloc);
	for (int k = 0; k < 3; k++)
		s->nodebuf[k] = malloc((size_t)s->real->nodes * sizeof(int));
	s->runbuf = malloc((size_t)s->real->nodes * sizeof *s->runbuf);
	size_t n = w->n ? w->n : 1;
	s->st = calloc(n, sizeof *s->st);
	s->queue = s->queue_mem = malloc(n * sizeof *s->queue);
	s->qkeys = malloc(n * sizeof *s->qkeys);
	s->running = malloc(n * sizeof *s->running);
	s->rates = malloc(n * sizeof *s->rates);
	s->ended = malloc(n * sizeof *s->ended);
	s->points = malloc(n * sizeof *s->points);
	js_eventq_init(&s->ev);
	s->res = calloc(1, sizeof *s->res);
	if (s->res)
		s->res->jobs = malloc(n * sizeof *s->res->jobs);
	if (!s->empty || !s->scratch[0] || !s->scratch[1] || !s->nodebuf[0] || !s->nodebuf[1] ||
	    !s->nodebuf[2] || !s->runbuf || !s->st || !s->queue || !s->qkeys || !s->running ||
	    !s->rates || !s->ended || !s->points || !s->res || !s->res->jobs)
		return -1;
	s->res->n = w->n;
	s->res->nodes = s->nodes;
	struct cmn_err e;
	if (js_rt_values_init(&s->res->values, s->rt->ops->columns, w->n, &e))
		return -1;
	for (size_t j = 0; j < w->n; j++) {
		struct js_job_result *r = &s->res->jobs[j];
		r->start_s = r->finish_s = r->first_reservation_s = r->reservation_s = NAN;
		r->nnodes = 0;
		r->killed = 0;
		r->moves = 0;
		r->res_off = 0;
		r->expansions = r->contractions = r->max_nodes = 0;
		r->sizes_off = SIZE_MAX;
	}
	return 0;
}

static void series_row(struct js_sim *s)
{
	if (!s->o->series)
		return;
	fprintf(s->o->series, "%.15g,%ld,%.6f,%zu,%ld,%zu\n", s->now, s->busy,
	        (double)s->busy / s->nodes, s->qlen, s->queued_nodes, s->rlen);
}

static void progress(struct js_sim *s, double *last_print, int final)
{
	double t = wall_s();
	if (!final && t - *last_print < 0.5)
		return;
	*last_print = t;
	/* the rest at the pace so far, once there is a pace to go by */
	char eta[48] = "";
	double spent = t - s->wall_start;
	if (!final && s->done > 0 && spent >= 2) {
		double left = spent * (double)(s->njobs - s->done) / (double)s->done;
		if (left < 60)
			snprintf(eta, sizeof eta, ", about %.0f s left", left);
		else if (left < 3600)
			snprintf(eta, sizeof eta, ", about %.0f min %.0f s left", floor(left / 60),
			         floor(fmod(left, 60)));
		else
			snprintf(eta, sizeof eta, ", about %.0f h %.0f min left",
			         floor(left / 3600), floor(fmod(left, 3600) / 60));
	}
	fprintf(stderr,
	        "\r%zu/%zu jobs done, %zu queued, %zu running, simulated time %.0f s%s\033[K%s",
	        s->done, s->njobs, s->qlen, s->rlen, s->now, eta, final ? "\n" : "");
}

static int sim_loop(struct js_sim *s, struct cmn_err *e)
{
	size_t next = 0;
	double last_print = wall_s();
	s->wall_start = last_print;
	long iter = 0;
	if (s->o->series)
		fprintf(s->o->series,
		        "time,busy_nodes,utilization,queue_jobs,queue_nodes,running_jobs\n");
	int (*advance)(void *, struct js_sim *, double, double *, int *, struct cmn_err *) =
	    s->rt->ops->advance;
	while (next < s->njobs || s->ev.n || (advance && s->rlen)) {
		const struct js_event *top = js_eventq_top(&s->ev);
		double t = next < s->njobs ? s->jobs[next].submit_s : INFINITY;
		if (top && top->t < t)
			t = top->t;
		int nended = 0, rc = 0;
		if (advance &&
		    (s->rlen || isfinite(t))) { /* its jobs may end first; its clock follows */
			double t_out = t;
			nended = advance(s->rt->self, s, t, &t_out, s->ended, e);
			if (nended < 0)
				return e->code ? e->code : CMN_ESTATE;
			if (!nended && !isfinite(t) && s->rlen)
				return cmn_err_set(e, CMN_ESTATE,
				                   "run-time model %s: %zu jobs running, none ends",
				                   s->rt->spec, s->rlen);
			if (nended && !(t_out >= s->now && t_out <= t))
				return cmn_err_set(
				    e, CMN_ESTATE,
				    "run-time model %s: jobs ended at %.17g, outside "
				    "[%.17g, %.17g]",
				    s->rt->spec, t_out, s->now, t);
			if (nended)
				t = t_out;
		}
		account(s, t);
		s->now = t;
		if (nended > 1) /* finishes in job order, as the core's own */
			qsort(s->ended, (size_t)nended, sizeof *s->ended, cmp_int);
		for (int i = 0; !rc && i < nended; i++)
			if (s->st[s->ended[i]].phase == PH_RUNNING)
				rc = end_job(s, s->ended[i], 0, e);
		size_t npoints = 0;
		while (!rc && (top = js_eventq_top(&s->ev)) && top->t == t) {
			struct js_event ev;
			js_eventq_pop(&s->ev, &ev);
			if (ev.kind == JS_EV_WAKE)
				continue; /* only makes this time an event time */
			struct jstate *st = &s->st[ev.job];
			if (st->phase != PH_RUNNING ||
			    (ev.kind != JS_EV_KILL && ev.version != st->version))
				continue; /* already ended, or a finish re-predicted since */
			if (ev.kind == JS_EV_POINT)
				s->points[npoints++] = ev.job; /* after the arrivals */
			else
				rc = end_job(s, ev.job, ev.kind == JS_EV_KILL, e);
		}
		while (!rc && next < s->njobs && s->jobs[next].submit_s == t)
			rc = arrive(s, (int)next++, e);
		/* resize points, in job order (the events'), each policy seeing
		 * the ends and arrivals at t and the points before it */
		for (size_t i = 0; !rc && i < npoints; i++)
			if (s->st[s->points[i]].phase == PH_RUNNING)
				rc = js_rs_point(s, s->points[i], e);
		/* rates once per event time: before a pass they would be asked
		 * again after it, at the same time (no progress in between) */
		if (!rc && s->running_changed && !s->qlen)
			rc = update_rates(s, e);
		if (!rc && s->qlen) {
			rc = js_sim_pass(s, e);
			if (!rc && s->running_changed)
				rc = update_rates(s, e);
		}
		if (rc)
			return rc;
		if (s->o->observer)
			s->o->observer(s->o->observer_ctx, s);
		series_row(s);
		if (s->o->progress && (++iter & 63) == 0) /* slow models: still twice a second */
			progress(s, &last_print, 0);
	}
	if (s->o->progress)
		progress(s, &last_print, 1);
	char name[JS_JOB_NAME_BYTES];
	if (s->qlen)
		return cmn_err_set(e, CMN_ESTATE,
		                   "scheduler %s left %zu jobs waiting on an idle machine (first: "
		                   "job %s)",
		                   s->sched->spec, s->qlen,
		                   js_job_name(&s->jobs[s->queue[0]], name));
	return 0;
}

int js_sim_run(const struct js_workload *w, struct js_alloc *alloc, struct js_sched *sched,
               struct js_runtime *rt, const struct js_sim_opts *o, struct js_sim_result **out,
               struct cmn_err *e)
{
	*out = NULL;
	struct js_sim *s = calloc(1, sizeof *s);
	if (s) { /* before the setup, which asks whether counts suffice */
		s->sched = sched;
		s->rt = rt;
		s->o = o;
		s->resize = o->resize;
	}
	if (!s || sim_setup(s, w, alloc)) {
		if (s)
			js_sim_result_free(s->res);
		sim_free(s);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	s->now = s->last_t = w->n ? w->jobs[0].submit_s : 0;
	int rc = sim_loop(s, e);
	if (rt->ops->run_end)
		rt->ops->run_end(rt->self);
	/* leave the allocator all free, as received (a counter in its place
	 * never changed it) */
	for (size_t p = 0; !s->counter && p < s->rlen; p++)
		release_job(s, &s->st[s->running[p]]);
	if (rc)
		js_sim_result_free(s->res);
	else
		*out = s->res;
	sim_free(s);
	return rc;
}

/* Binary min-heap of simulation events in a deterministic total order:
 * time, then kind (finish < kill < wake-up < resize point), then job index. Stale events (a finish
 * re-predicted since) are recognised by their version and skipped by the
 * caller. Arrivals are not queued: jobs are sorted by arrival already. */
#ifndef JS_EVENTQ_H
#define JS_EVENTQ_H

#include <stddef.h>
#include <stdint.h>

enum js_event_kind {
	JS_EV_FINISH = 0, /* a job's work is done (re-predicted when its rate changes) */
	JS_EV_KILL = 1,   /* a job reaches its requested time (with kill enabled) */
	JS_EV_WAKE = 2,   /* a scheduler asked for a pass at this time (job = -1) */
	JS_EV_POINT = 3,  /* a resizable job's iteration ends (re-predicted like a finish) */
};

struct js_event {
	double t;
	int kind;
	int job;
	uint32_t version;
};

struct js_eventq {
	struct js_event *h;
	size_t n, cap;
};

void js_eventq_init(struct js_eventq *q);
void js_eventq_free(struct js_eventq *q);
/* Returns 0, or -1 when out of memory. */
int js_eventq_push(struct js_eventq *q, struct js_event ev);
/* Removes the smallest event into *ev; the queue must not be empty. */
void js_eventq_pop(struct js_eventq *q, struct js_event *ev);
static inline const struct js_event *js_eventq_top(const struct js_eventq *q)
{
	return q->n ? &q->h[0] : NULL;
}

#endif

/* Availability profile by counts, for conservative backfilling: the
 * busy-node count over future time as a step function, kept as a B+ tree of
 * the times where it changes (each with its change), so that a change takes
 * a few steps however many reservations it holds, and the search for a
 * job's earliest slot walks only the changes near the count it needs (it
 * passes over whole subtrees where the count stays above or below it). */
#ifndef JS_PROFILE_COUNT_H
#define JS_PROFILE_COUNT_H

enum { JS_CPROF_FAN = 32 }; /* entries per tree node at most */

struct js_cprof_node;

struct js_cprof {
	int nodes;
	int fan;          /* entries per node, JS_CPROF_FAN; tests lower it (4 or more,
	                     before the first change) to grow deep trees from few changes */
	double origin;    /* the profile's start: nothing before it is kept */
	int base;         /* busy nodes at origin before the changes at origin */
	int total;        /* the sum of the changes kept */
	int root, height; /* root node (-1: no step), levels below it */
	struct js_cprof_node *pool;
	int cap, used, free_list;
};

/* Returns 0, or -1 when out of memory. The profile starts empty at origin. */
int js_cprof_init(struct js_cprof *p, int nodes, double origin);
void js_cprof_free(struct js_cprof *p);
/* Back to all free from origin on. */
void js_cprof_reset(struct js_cprof *p, double origin);
/* Forgets the time before now (now >= origin). */
void js_cprof_trim(struct js_cprof *p, double now);

/* Adds (sign +1) or removes (sign -1) n busy nodes over [t0, t1), t0 taken
 * as the origin when earlier; t1 may be INFINITY. Returns 0, or -1 when out
 * of memory. */
int js_cprof_change(struct js_cprof *p, double t0, double t1, int n, int sign);

/* Busy nodes at time t >= origin, and after the last change (t infinite). */
int js_cprof_busy_at(const struct js_cprof *p, double t);
int js_cprof_busy_end(const struct js_cprof *p);

/* The earliest t >= origin, before limit, at which need nodes are free
 * throughout [t, js_profile_end(t, d)) cut at limit; NAN when there is
 * none. With limit INFINITY, the earliest slot of a job of need nodes and
 * length d; with the start of its reservation, an earlier slot if it has
 * one (its reservation counts from that start on, which the window does
 * not reach). Walks the changes from the origin to the slot (or limit),
 * passing over subtrees that cannot hold the answer. */
double js_cprof_find(const struct js_cprof *p, double d, int need, double limit);
/* The earliest t >= origin at which need nodes are free (for an instant);
 * INFINITY when never. */
double js_cprof_first_free(const struct js_cprof *p, int need);

#endif

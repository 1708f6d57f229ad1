/* A time per job index, kept as a tree of least times over index ranges:
 * the first index whose time has come and the least time in a few steps
 * however many jobs there are (conservative backfilling's reservations
 * under arrival order, where queue order is index order). */
#ifndef JS_TIME_INDEX_H
#define JS_TIME_INDEX_H

struct js_tindex {
	int n;      /* indices 0..n-1 */
	int leaves; /* a power of two >= n: node i's children are 2i and 2i+1 */
	double *t;  /* per node: the least time below it (INFINITY: none) */
};

/* Room for n indices, every time INFINITY; 0, or -1 out of memory. */
int js_tindex_init(struct js_tindex *x, int n);
void js_tindex_free(struct js_tindex *x);

/* Index j's time becomes t (INFINITY or NAN: none). */
void js_tindex_set(struct js_tindex *x, int j, double t);
/* The least index whose time is at most now, -1 when none. */
int js_tindex_first_due(const struct js_tindex *x, double now);
/* The least time (INFINITY when none). */
double js_tindex_min(const struct js_tindex *x);

#endif

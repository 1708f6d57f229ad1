/* The queued jobs by job index, for a scheduler that looks for the first
 * queued job passing a size and time test without walking the whole queue
 * (EASY's backfilling under arrival order, where queue order is job index
 * order). A segment tree over the job indices keeps, for each range, the
 * least size and the least requested time of its queued jobs; a search
 * enters only ranges where both could pass, so a congested queue of large
 * or long jobs costs a few steps instead of a visit per job. */
#ifndef JS_QUEUE_INDEX_H
#define JS_QUEUE_INDEX_H

struct js_qindex {
	int n;       /* job indices 0..n-1 */
	int leaves;  /* a power of two >= n: node i's children are 2i and 2i+1 */
	int *size;   /* per node: least size of its queued jobs (INT_MAX: none) */
	double *req; /* per node: least requested time (INFINITY: none) */
};

/* Room for n jobs, none queued; 0, or -1 out of memory. */
int js_qindex_init(struct js_qindex *q, int n);
void js_qindex_free(struct js_qindex *q);

/* Job j queued with its size and requested time / no longer queued. */
void js_qindex_set(struct js_qindex *q, int j, int size, double req_s);
void js_qindex_clear(struct js_qindex *q, int j);

/* The first queued job j >= from whose size is at most fit and that is
 * either at most small or ends in time (now + its requested time <= until,
 * evaluated as written); -1 when there is none. */
int js_qindex_find(const struct js_qindex *q, int from, int fit, int small, double now,
                   double until);

#endif

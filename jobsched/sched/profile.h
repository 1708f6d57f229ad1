/* Availability profile: the machine's future occupation as consecutive time
 * segments, each with its busy-node count and (optionally) its busy-node
 * bitmap. Conservative backfilling keeps one across passes: running jobs
 * until their expected end, and every reservation. */
#ifndef JS_PROFILE_H
#define JS_PROFILE_H

#include <stddef.h>
#include <stdint.h>

struct js_profile {
	int nodes, words, with_bits;
	size_t n, cap;
	double *t;      /* segment i is [t[i], t[i+1]); the last one is [t[n-1], inf) */
	int *busy;      /* busy nodes per segment */
	uint64_t *bits; /* n x words busy bitmaps, when with_bits */
	/* js_profile_find's union of the segments [qf, qb) as a queue of two
	 * stacks: fr[s - qf0] the union of segments s .. mid - 1 (qf <= s <
	 * mid), bk that of mid .. qb - 1; valid while qok (a change clears it) */
	int qok;
	size_t qf0, qf, mid, qb, frcap;
	uint64_t *fr, *bk;
};

/* Returns 0, or -1 when out of memory. The profile starts empty at origin. */
int js_profile_init(struct js_profile *p, int nodes, int with_bits, double origin);
void js_profile_free(struct js_profile *p);
/* Back to all free from origin on. */
void js_profile_reset(struct js_profile *p, double origin);
/* Forgets the time before now and merges equal neighbouring segments. */
void js_profile_trim(struct js_profile *p, double now);

/* Adds (sign +1) or removes (sign -1) n nodes busy over [t0, t1); t1 may be
 * INFINITY. With bitmaps the node ids are given and must be free (to add)
 * or busy (to remove) throughout. Returns 0, or -1 when out of memory. */
int js_profile_change(struct js_profile *p, double t0, double t1, int n, const int *nodes,
                      int sign);

/* The end of an interval of length d from t, never empty. */
double js_profile_end(double t, double d);

/* The first segment, from index `from` on and starting no later than bound,
 * whose start t leaves at least need nodes free throughout [t, t + d) (with
 * bitmaps: the same need nodes, whose union of busy bits goes to busy_out).
 * Returns its index, or -1. The unions of the
 * windows are kept between calls while the profile does not change, so
 * that a scan from one candidate to the next costs a few bitmaps, not the
 * window's. */
long js_profile_find(struct js_profile *p, size_t from, double d, int need, double bound,
                     uint64_t *busy_out);

#endif

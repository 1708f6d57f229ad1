/* Remembered failures of what-if placements: pairs (job, busy-node bitmap)
 * for which the allocator placed nothing. An allocator's scratch state in
 * a what-if question is the empty machine with the bitmap's nodes occupied,
 * so its answer is a function of the pair, and a remembered failure is
 * exact. Conservative backfilling with node sets asks the same questions
 * again at every compression (each queued job, each segment before its
 * slot); most fail. The memo holds the whole bitmaps (no hash is trusted
 * alone) in the project's hash table (common/htab.h), grows up to a byte
 * budget and then starts again empty: it only saves time, never changes an
 * answer. */
#ifndef JS_FAIL_MEMO_H
#define JS_FAIL_MEMO_H

#include <stddef.h>
#include <stdint.h>

#include "../../common/htab.h"

struct js_fail_memo {
	struct cmn_htab t; /* entries: the job, then the bitmap's words */
	size_t words;      /* 64-bit words of a bitmap */
	size_t most;       /* entries the budget holds */
	long resets;       /* times it started again */
};

/* A memo for bitmaps of `nodes` bits, using at most about budget bytes. */
void js_fail_memo_init(struct js_fail_memo *m, int nodes, size_t budget);
void js_fail_memo_free(struct js_fail_memo *m);
/* The hash of a bitmap for job j, for the two calls below. */
uint64_t js_fail_memo_hash(const struct js_fail_memo *m, int j, const uint64_t *bits);
/* 1 when job j's placement is known to fail on this bitmap. */
int js_fail_memo_known(const struct js_fail_memo *m, uint64_t h, int j, const uint64_t *bits);
/* Remembers that it fails (nothing when out of memory: only speed is lost). */
void js_fail_memo_add(struct js_fail_memo *m, uint64_t h, int j, const uint64_t *bits);

#endif

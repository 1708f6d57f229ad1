/* The first-free allocator: any free nodes, lowest ids first (the flat
 * allocator; seed 000's non-contiguous policy). State: a busy bitmap and,
 * above it, a bit per word that has a free node, so that a placement visits
 * only words with room (O(size / 64 + nodes / 4096) on any machine size). */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

struct flat_alloc {
	int nodes, free;
	int words, tops;
	uint64_t *room;  /* bit w set: word w has a free node (after busy[]) */
	uint64_t busy[]; /* bit i set: node i busy (or beyond the machine) */
};

static const struct cmn_param_def flat_params[] = {{NULL}};

static size_t flat_bytes(int words, int tops)
{
	return sizeof(struct flat_alloc) + (size_t)(words + tops) * sizeof(uint64_t);
}

/* The free bits of word w. */
static uint64_t free_bits(const struct flat_alloc *f, unsigned w)
{
	return ~f->busy[w];
}

static void set_room(struct flat_alloc *f, unsigned w)
{
	uint64_t bit = UINT64_C(1) << (w % 64);
	f->room[w / 64] = free_bits(f, w) ? f->room[w / 64] | bit : f->room[w / 64] & ~bit;
}

static int flat_create(const struct plat_machine *m, const struct cmn_params *p, void **self,
                       struct cmn_err *e)
{
	(void)p;
	int words = (m->nodes + 63) / 64, tops = (words + 63) / 64;
	struct flat_alloc *f = calloc(1, flat_bytes(words, tops));
	if (!f)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	f->nodes = f->free = m->nodes;
	f->words = words;
	f->tops = tops;
	f->room = f->busy + words;
	if (m->nodes % 64) /* the bits beyond the machine: busy for good */
		f->busy[words - 1] = ~UINT64_C(0) << (m->nodes % 64);
	for (int w = 0; w < words; w++)
		set_room(f, w);
	*self = f;
	return 0;
}

static void flat_destroy(void *self)
{
	free(self);
}

static void flat_copy(void *dst, const void *src)
{
	const struct flat_alloc *s = src;
	struct flat_alloc *d = dst;
	memcpy(d, s, flat_bytes(s->words, s->tops));
	d->room = d->busy + d->words;
}

static void *flat_clone(const void *self)
{
	const struct flat_alloc *f = self;
	struct flat_alloc *c = malloc(flat_bytes(f->words, f->tops));
	if (c)
		flat_copy(c, f);
	return c;
}

static int flat_place(void *self, const struct js_job *job, int flags, int *nodes)
{
	(void)flags;
	struct flat_alloc *f = self;
	int need = job->size;
	if (need > f->free || need <= 0)
		return 0;
	int got = 0;
	for (int t = 0; t < f->tops && got < need; t++) {
		for (uint64_t words = f->room[t]; words && got < need; words &= words - 1) {
			int w = t * 64 + __builtin_ctzll(words);
			uint64_t bits = free_bits(f, w);
			if (bits == ~UINT64_C(0) && need - got >= 64) { /* a whole free word */
				for (int b = 0; b < 64; b++)
					nodes[got + b] = w * 64 + b;
				got += 64;
				continue;
			}
			for (; bits && got < need; bits &= bits - 1)
				nodes[got++] = w * 64 + __builtin_ctzll(bits);
		}
	}
	assert(got == need);
	return got;
}

/* Nodes first..last appended to runs[0..*nr), joined to the last run
 * when they follow it. */
static void add_run(struct plat_run *runs, int *nr, int first, int last)
{
	if (*nr && runs[*nr - 1].last == first - 1)
		runs[*nr - 1].last = last;
	else
		runs[(*nr)++] = (struct plat_run){first, last};
}

/* place() as runs: the same nodes, the lowest free ids. */
static int flat_place_runs(void *self, const struct js_job *job, int flags, struct plat_run *runs,
                           int *nruns)
{
	(void)flags;
	struct flat_alloc *f = self;
	int need = job->size, got = 0, nr = 0;
	if (need > f->free || need <= 0)
		return 0;
	for (int t = 0; t < f->tops && got < need; t++) {
		for (uint64_t words = f->room[t]; words && got < need; words &= words - 1) {
			int w = t * 64 + __builtin_ctzll(words);
			uint64_t bits = free_bits(f, w);
			if (bits == ~UINT64_C(0) && need - got >= 64) { /* a whole free word */
				add_run(runs, &nr, w * 64, w * 64 + 63);
				got += 64;
				continue;
			}
			while (bits && got < need) {
				int lo = __builtin_ctzll(bits);
				uint64_t above =
				    ~(bits >> lo); /* the run ends at the first 0 above lo */
				int len = above ? __builtin_ctzll(above) : 64 - lo;
				if (len > need - got)
					len = need - got;
				int first = w * 64 + lo, last = first + len - 1;
				add_run(runs, &nr, first, last);
				got += len;
				bits &= len + lo >= 64 ? 0 : ~UINT64_C(0) << (lo + len);
			}
		}
	}
	assert(got == need);
	*nruns = nr;
	return got;
}

static int flat_fits(void *self, const struct js_job *job, int flags)
{
	(void)flags;
	const struct flat_alloc *f = self;
	return job->size > 0 && job->size <= f->free;
}

/* Sets (busy = 1) or clears the bits of mask in word w. */
static void mark_word(struct flat_alloc *f, unsigned w, uint64_t mask, int busy)
{
	assert(busy ? !(f->busy[w] & mask) : (f->busy[w] & mask) == mask);
	f->busy[w] = busy ? f->busy[w] | mask : f->busy[w] & ~mask;
	set_room(f, w);
}

/* Sets (busy = 1) or clears bits first..last of the bitmap: the words
 * inside the range whole, a write each (never the machine's last word,
 * which has bits beyond the machine). */
static void mark_range(struct flat_alloc *f, unsigned first, unsigned last, int busy)
{
	unsigned w0 = first / 64, w1 = last / 64;
	uint64_t lo = ~UINT64_C(0) << (first % 64), hi = ~UINT64_C(0) >> (63 - last % 64);
	if (w0 == w1) {
		mark_word(f, w0, lo & hi, busy);
		return;
	}
	mark_word(f, w0, lo, busy);
	uint64_t fill = busy ? ~UINT64_C(0) : 0;
	for (unsigned w = w0 + 1; w < w1; w++) {
		assert(f->busy[w] == ~fill);
		f->busy[w] = fill;
		uint64_t bit = UINT64_C(1) << (w % 64);
		f->room[w / 64] = busy ? f->room[w / 64] & ~bit : f->room[w / 64] | bit;
	}
	mark_word(f, w1, hi, busy);
}

static void flat_mark_runs(struct flat_alloc *f, const struct plat_run *runs, int nr, int busy)
{
	for (int r = 0; r < nr; r++) {
		mark_range(f, (unsigned)runs[r].first, (unsigned)runs[r].last, busy);
		f->free += (busy ? -1 : 1) * (runs[r].last - runs[r].first + 1);
	}
}

/* Marks a node set busy or free: run by run when it is in increasing order
 * (allocations come so: the cost follows the runs, not the nodes), node by
 * node otherwise. */
static void flat_mark(struct flat_alloc *f, const int *nodes, int n, int busy)
{
	if (js_nodes_sorted(nodes, n)) {
		for (int i = 0; i < n;) {
			int k = plat_nodes_run_end(nodes, n, i);
			mark_range(f, (unsigned)nodes[i], (unsigned)nodes[k], busy);
			i = k + 1;
		}
	} else {
		for (int i = 0; i < n; i++)
			mark_range(f, (unsigned)nodes[i], (unsigned)nodes[i], busy);
	}
	f->free += busy ? -n : n;
}

static void flat_occupy(void *self, const int *nodes, int n)
{
	flat_mark(self, nodes, n, 1);
}

static void flat_release(void *self, const int *nodes, int n)
{
	flat_mark(self, nodes, n, 0);
}

static void flat_occupy_runs(void *self, const struct plat_run *runs, int nr)
{
	flat_mark_runs(self, runs, nr, 1);
}

static void flat_release_runs(void *self, const struct plat_run *runs, int nr)
{
	flat_mark_runs(self, runs, nr, 0);
}

static int flat_free_count(const void *self)
{
	return ((const struct flat_alloc *)self)->free;
}

const struct js_alloc_ops js_alloc_first_free_ops = {
    .base = {"first-free",
             "any free nodes, lowest ids first (the flat allocator; seed 000's non-contiguous)",
             flat_params},
    .create = flat_create,
    .destroy = flat_destroy,
    .clone = flat_clone,
    .copy = flat_copy,
    .place = flat_place,
    .fits = flat_fits,
    .occupy = flat_occupy,
    .release = flat_release,
    .occupy_runs = flat_occupy_runs,
    .release_runs = flat_release_runs,
    .place_runs = flat_place_runs,
    .free_count = flat_free_count,
    .fungible = 1,
};

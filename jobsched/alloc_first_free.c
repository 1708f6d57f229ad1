/* The first-free allocator: any free nodes, lowest ids first (the flat
 * allocator; seed 000's non-contiguous policy). State: a busy bitmap. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

struct flat_alloc {
	int nodes, free;
	int words;
	uint64_t busy[]; /* bit i set: node i busy */
};

static const struct cmn_param_def flat_params[] = {{NULL}};

static size_t flat_bytes(int words)
{
	return sizeof(struct flat_alloc) + (size_t)words * sizeof(uint64_t);
}

static int flat_create(const struct plat_machine *m, const struct cmn_params *p, void **self,
                       struct cmn_err *e)
{
	(void)p;
	int words = (m->nodes + 63) / 64;
	struct flat_alloc *f = calloc(1, flat_bytes(words));
	if (!f)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	f->nodes = f->free = m->nodes;
	f->words = words;
	*self = f;
	return 0;
}

static void flat_destroy(void *self)
{
	free(self);
}

static void *flat_clone(const void *self)
{
	const struct flat_alloc *f = self;
	struct flat_alloc *c = malloc(flat_bytes(f->words));
	if (c)
		memcpy(c, f, flat_bytes(f->words));
	return c;
}

static void flat_copy(void *dst, const void *src)
{
	const struct flat_alloc *s = src;
	memcpy(dst, src, flat_bytes(s->words));
}

static int flat_place(void *self, const struct js_job *job, int flags, int *nodes)
{
	(void)flags;
	struct flat_alloc *f = self;
	int need = job->size;
	if (need > f->free || need <= 0)
		return 0;
	int got = 0;
	for (int w = 0; w < f->words && got < need; w++) {
		uint64_t freebits = ~f->busy[w];
		if (w == f->words - 1 && f->nodes % 64)
			freebits &= (UINT64_C(1) << (f->nodes % 64)) - 1;
		while (freebits && got < need) {
			int b = __builtin_ctzll(freebits);
			nodes[got++] = w * 64 + b;
			freebits &= freebits - 1;
		}
	}
	assert(got == need);
	return got;
}

static int flat_fits(void *self, const struct js_job *job, int flags)
{
	(void)flags;
	const struct flat_alloc *f = self;
	return job->size > 0 && job->size <= f->free;
}

static void flat_occupy(void *self, const int *nodes, int n)
{
	struct flat_alloc *f = self;
	for (int i = 0; i < n; i++) {
		uint64_t bit = UINT64_C(1) << (nodes[i] % 64);
		assert(!(f->busy[nodes[i] / 64] & bit));
		f->busy[nodes[i] / 64] |= bit;
	}
	f->free -= n;
}

static void flat_release(void *self, const int *nodes, int n)
{
	struct flat_alloc *f = self;
	for (int i = 0; i < n; i++) {
		uint64_t bit = UINT64_C(1) << (nodes[i] % 64);
		assert(f->busy[nodes[i] / 64] & bit);
		f->busy[nodes[i] / 64] &= ~bit;
	}
	f->free += n;
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
    .free_count = flat_free_count,
    .fungible = 1,
};

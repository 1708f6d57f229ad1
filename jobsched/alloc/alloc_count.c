/* Counting free nodes in place of choosing them (alloc_count.h). */
#include <assert.h>
#include <stdlib.h>

#include "alloc_count.h"

struct counter {
	int free;
};

static void counter_destroy(void *self)
{
	free(self);
}

static void *counter_clone(const void *self)
{
	struct counter *c = malloc(sizeof *c);
	if (c)
		*c = *(const struct counter *)self;
	return c;
}

static void counter_copy(void *dst, const void *src)
{
	*(struct counter *)dst = *(const struct counter *)src;
}

static int counter_fits(void *self, const struct js_job *job, int flags)
{
	(void)flags;
	const struct counter *c = self;
	return job->size > 0 && job->size <= c->free;
}

/* Never asked for nodes: the core places jobs through fits() and
 * js_alloc_count_take() when it keeps a counter. */
static int counter_place(void *self, const struct js_job *job, int flags, int *nodes)
{
	(void)self, (void)job, (void)flags, (void)nodes;
	assert(!"a counter names no node");
	return 0;
}

/* n nodes taken (n > 0: they must be free) or given back (n < 0). */
static void counter_add(struct counter *c, int n)
{
	assert(n <= c->free);
	c->free -= n;
}

static void counter_occupy(void *self, const int *nodes, int n)
{
	(void)nodes;
	counter_add(self, n);
}

static void counter_release(void *self, const int *nodes, int n)
{
	(void)nodes;
	counter_add(self, -n);
}

static int counter_free_count(const void *self)
{
	return ((const struct counter *)self)->free;
}

static const struct js_alloc_ops counter_ops = {
    .base = {"count", "the number of free nodes only (internal: names no node)", NULL},
    .destroy = counter_destroy,
    .clone = counter_clone,
    .copy = counter_copy,
    .place = counter_place,
    .fits = counter_fits,
    .occupy = counter_occupy,
    .release = counter_release,
    .free_count = counter_free_count,
    .fungible = 1,
};

struct js_alloc *js_alloc_count_create(const struct js_alloc *real)
{
	struct js_alloc *a = malloc(sizeof *a);
	struct counter *c = malloc(sizeof *c);
	if (!a || !c) {
		free(a);
		free(c);
		return NULL;
	}
	*a = *real;
	c->free = js_alloc_free_count(real); /* all but nodes held for the run */
	a->ops = &counter_ops;
	a->self = c;
	a->fitbuf = NULL; /* fits() answers: never needed */
	return a;
}

void js_alloc_count_take(struct js_alloc *a, int n)
{
	assert(a->ops == &counter_ops && n >= 0);
	counter_add(a->self, n);
}

void js_alloc_count_give(struct js_alloc *a, int n)
{
	assert(a->ops == &counter_ops && n >= 0);
	counter_add(a->self, -n);
}

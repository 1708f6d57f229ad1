/* The allocator registry and instance wrapper. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"

#define JS_ALLOC(sym) extern const struct js_alloc_ops sym;
#include "alloc_registry.def"
#undef JS_ALLOC

const struct js_alloc_ops *const js_alloc_registry[] = {
#define JS_ALLOC(sym) &sym,
#include "alloc_registry.def"
#undef JS_ALLOC
    NULL,
};

int js_alloc_create(const char *spec, const struct plat_machine *m, struct js_alloc **out,
                    struct cmn_err *e)
{
	*out = NULL;
	struct js_alloc *a = calloc(1, sizeof *a);
	if (!a)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	const void *ops;
	int rc = cmn_spec_resolve((const void *const *)js_alloc_registry, spec, "allocator", &ops,
	                          &a->params, e);
	if (!rc) {
		a->ops = ops;
		rc = a->ops->create(m, &a->params, &a->self, e);
		/* a machine it cannot place on ("needs a mesh or torus machine"):
		 * the message names the allocator asked for (the allocators' own
		 * messages do not) */
		if (rc && e)
			cmn_err_prefix(e, "allocator '%s'", spec);
	}
	if (rc) {
		free(a);
		return rc;
	}
	a->nodes = m->nodes;
	a->machine = m;
	a->stats = &a->own;
	a->fitbuf = malloc((size_t)m->nodes * sizeof *a->fitbuf);
	if (!a->fitbuf) {
		a->ops->destroy(a->self);
		free(a);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	cmn_params_format(a->ops->base.name, &a->params, a->spec, sizeof a->spec);
	*out = a;
	return 0;
}

struct js_alloc *js_alloc_clone(const struct js_alloc *a)
{
	struct js_alloc *c = malloc(sizeof *c);
	if (!c)
		return NULL;
	*c = *a;
	c->self = a->ops->clone(a->self);
	c->fitbuf = malloc((size_t)a->nodes * sizeof *c->fitbuf);
	if (!c->self || !c->fitbuf) {
		if (c->self)
			a->ops->destroy(c->self);
		free(c->fitbuf);
		free(c);
		return NULL;
	}
	return c;
}

void js_alloc_destroy(struct js_alloc *a)
{
	if (!a)
		return;
	a->ops->destroy(a->self);
	free(a->fitbuf);
	free(a);
}

/* One decision: place as runs (runs given), place (nodes given) or fits
 * (neither), counted and timed. */
static int decide(struct js_alloc *a, const struct js_job *j, int flags, int *nodes,
                  struct plat_run *runs, int *nruns)
{
	if (runs)
		return a->ops->place_runs(a->self, j, flags, runs, nruns);
	if (nodes)
		return a->ops->place(a->self, j, flags, nodes);
	if (a->ops->fits)
		return a->ops->fits(a->self, j, flags);
	return a->ops->place(a->self, j, flags, a->fitbuf) > 0;
}

static int decide_counted(struct js_alloc *a, const struct js_job *j, int flags, int *nodes,
                          struct plat_run *runs, int *nruns)
{
	struct js_alloc_stats *st = a->stats;
	st->decisions++;
	if (!st->timed)
		return decide(a, j, flags, nodes, runs, nruns);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int n = decide(a, j, flags, nodes, runs, nruns);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double dt = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	st->time_s += dt;
	if (dt > st->max_s)
		st->max_s = dt;
	return n;
}

int js_alloc_place_flags(struct js_alloc *a, const struct js_job *j, int flags, int *nodes)
{
	return decide_counted(a, j, flags, nodes, NULL, NULL);
}

int js_alloc_place_runs(struct js_alloc *a, const struct js_job *j, int flags,
                        struct plat_run *runs, int *nruns)
{
	return decide_counted(a, j, flags, NULL, runs, nruns);
}

int js_alloc_place(struct js_alloc *a, const struct js_job *j, int *nodes)
{
	return js_alloc_place_flags(a, j, 0, nodes);
}

int js_alloc_fits_flags(struct js_alloc *a, const struct js_job *j, int flags)
{
	return js_alloc_place_flags(a, j, flags, NULL);
}

int js_alloc_fits(struct js_alloc *a, const struct js_job *j)
{
	return js_alloc_place_flags(a, j, 0, NULL);
}

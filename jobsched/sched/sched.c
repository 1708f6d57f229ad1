/* The scheduler registry, instance wrapper, and the step every
 * queue-order policy shares: start queued jobs from the head while they fit. */
#include <stdlib.h>

#include "sched.h"
#include "sched_common.h"

#define JS_SCHED(sym) extern const struct js_sched_ops sym;
#include "sched_registry.def"
#undef JS_SCHED

const struct js_sched_ops *const js_sched_registry[] = {
#define JS_SCHED(sym) &sym,
#include "sched_registry.def"
#undef JS_SCHED
    NULL,
};

int js_sched_create(const char *spec, size_t njobs, int nodes, struct js_sched **out,
                    struct cmn_err *e)
{
	*out = NULL;
	struct js_sched *s = calloc(1, sizeof *s);
	if (!s)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	const void *ops;
	int rc = cmn_spec_resolve((const void *const *)js_sched_registry, spec, "scheduler", &ops,
	                          &s->params, e);
	if (!rc) {
		s->ops = ops;
		rc = s->ops->create(&s->params, njobs, nodes, &s->self, e);
	}
	if (rc) {
		free(s);
		return rc;
	}
	cmn_params_format(s->ops->base.name, &s->params, s->spec, sizeof s->spec);
	*out = s;
	return 0;
}

void js_sched_destroy(struct js_sched *s)
{
	if (!s)
		return;
	if (s->ops->destroy)
		s->ops->destroy(s->self);
	free(s);
}

int js_sched_start_heads(struct js_sim *sim, struct cmn_err *e)
{
	while (js_sim_qlen(sim)) {
		int rc = js_sim_try_start(sim, 0, e);
		if (rc <= 0)
			return rc < 0 ? -rc : 0;
	}
	return 0;
}

int js_sched_fcfs_phase(struct js_sim *sim, int migrate, struct cmn_err *e)
{
	int rc = js_sched_start_heads(sim, e);
	if (rc || !migrate || js_sim_qlen(sim) == 0)
		return rc;
	rc = js_sim_migrate(sim, e);
	return rc ? rc : js_sched_start_heads(sim, e);
}

int js_sched_migrate_create(const struct cmn_params *p, size_t njobs, int nodes, void **self,
                            struct cmn_err *e)
{
	(void)njobs;
	(void)nodes;
	int *migrate = malloc(sizeof *migrate);
	if (!migrate)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	*migrate = (int)cmn_params_num(p, "migrate");
	*self = migrate;
	return 0;
}

void js_sched_migrate_destroy(void *self)
{
	free(self);
}

int js_sched_no_state(const struct cmn_params *p, size_t njobs, int nodes, void **self,
                      struct cmn_err *e)
{
	(void)p;
	(void)njobs;
	(void)nodes;
	(void)e;
	*self = NULL;
	return 0;
}

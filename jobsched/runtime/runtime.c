/* The run-time model registry and instance wrapper. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../metrics/metrics.h"
#include "runtime.h"

#define JS_RUNTIME(sym) extern const struct js_runtime_ops sym;
#include "runtime_registry.def"
#undef JS_RUNTIME

const struct js_runtime_ops *const js_runtime_registry[] = {
#define JS_RUNTIME(sym) &sym,
#include "runtime_registry.def"
#undef JS_RUNTIME
    NULL,
};

int js_runtime_drive(struct js_runtime *r, const struct plat_machine *m,
                     const struct js_workload *w, int (*body)(void *ctx, struct cmn_err *e),
                     void *ctx, struct cmn_err *e)
{
	if (r->ops->drive)
		return r->ops->drive(r->self, m, w, body, ctx, e);
	return body(ctx, e);
}

int js_runtime_create_ops(const struct js_runtime_ops *ops, const char *kvs,
                          struct js_runtime **out, struct cmn_err *e)
{
	*out = NULL;
	struct js_runtime *r = calloc(1, sizeof *r);
	if (!r)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	r->ops = ops;
	int rc = js_check_model_columns(ops->columns, ops->base.name, e);
	if (!rc && (rc = cmn_params_parse(ops->base.params, kvs, &r->params, e)))
		cmn_err_prefix(e, "run-time model '%s'", ops->base.name);
	if (!rc)
		rc = ops->create(&r->params, &r->self, e);
	if (rc) {
		free(r);
		return rc;
	}
	cmn_params_format(ops->base.name, &r->params, r->spec, sizeof r->spec);
	*out = r;
	return 0;
}

int js_runtime_create(const char *spec, struct js_runtime **out, struct cmn_err *e)
{
	return js_runtime_create_in(js_runtime_registry, spec, out, e);
}

int js_runtime_create_in(const struct js_runtime_ops *const *registry, const char *spec,
                         struct js_runtime **out, struct cmn_err *e)
{
	*out = NULL;
	const void *ops;
	struct cmn_params p;
	int rc =
	    cmn_spec_resolve((const void *const *)registry, spec, "run-time model", &ops, &p, e);
	if (rc)
		return rc;
	const char *colon = strchr(spec, ':');
	return js_runtime_create_ops(ops, colon ? colon + 1 : NULL, out, e);
}

void js_runtime_destroy(struct js_runtime *r)
{
	if (!r)
		return;
	if (r->ops->destroy)
		r->ops->destroy(r->self);
	free(r);
}

int js_runtime_check_resizable(const struct js_runtime *r, const struct js_job *job,
                               struct cmn_err *e)
{
	if (r->ops->resize_iter && !r->ops->advance)
		return 0;
	char name[JS_JOB_NAME_BYTES];
	return cmn_err_set(e, CMN_EUSAGE,
	                   "run-time model %s cannot run resizable jobs (job %s): use reshape or "
	                   "an emergent model",
	                   r->spec, js_job_name(job, name));
}

/* The resizing policy registry and instance wrapper. */
#include <stdlib.h>
#include <string.h>

#include "../../common/number.h"
#include "resize.h"

#define JS_RESIZE(sym) extern const struct js_resize_ops sym;
#include "resize_registry.def"
#undef JS_RESIZE

const struct js_resize_ops *const js_resize_registry[] = {
#define JS_RESIZE(sym) &sym,
#include "resize_registry.def"
#undef JS_RESIZE
    NULL,
};

int js_resize_create(const char *spec, struct js_resize **out, struct cmn_err *e)
{
	*out = NULL;
	struct js_resize *r = calloc(1, sizeof *r);
	if (!r)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	const void *ops;
	int rc = cmn_spec_resolve((const void *const *)js_resize_registry, spec, "resizing policy",
	                          &ops, &r->params, e);
	if (rc) {
		free(r);
		return rc;
	}
	r->ops = ops;
	r->conf.window = (int)cmn_params_num(&r->params, "window");
	r->conf.min_ep = cmn_params_num(&r->params, "min_ep");
	r->conf.alpha = cmn_params_num(&r->params, "alpha");
	r->conf.redist_s = cmn_params_num(&r->params, "redist");
	const char *step = cmn_params_str(&r->params, "arb_step");
	long long v = 0;
	if (!strcmp(step, "row"))
		r->conf.arb_step = 0;
	else if (!strcmp(step, "start"))
		r->conf.arb_step = -1;
	else if (cmn_num_int(step, 1, 1000000, &v) == CMN_NUM_OK)
		r->conf.arb_step = (int)v;
	else {
		cmn_err_set(e, CMN_EUSAGE,
		            "resizing policy '%s': arb_step: '%s' is not row, start or a number of "
		            "processors in 1..1000000",
		            spec, step);
		free(r);
		return CMN_EUSAGE;
	}
	cmn_params_format(r->ops->base.name, &r->params, r->spec, sizeof r->spec);
	*out = r;
	return 0;
}

void js_resize_destroy(struct js_resize *r)
{
	free(r);
}

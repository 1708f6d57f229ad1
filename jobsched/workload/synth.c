/* The registry of synthetic workload models and the generation entry point. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "synth.h"

#define JS_SYNTH(sym) extern const struct js_synth_ops sym;
#include "synth_registry.def"
#undef JS_SYNTH

const struct js_synth_ops *const js_synth_registry[] = {
#define JS_SYNTH(sym) &sym,
#include "synth_registry.def"
#undef JS_SYNTH
    NULL,
};

int js_synth_generate(const char *spec, unsigned long seed, int machine_nodes,
                      struct js_workload **out, char *effective, size_t efflen, struct cmn_err *e)
{
	*out = NULL;
	const void *ops;
	struct cmn_params p;
	int rc = cmn_spec_resolve((const void *const *)js_synth_registry, spec, "synthetic model",
	                          &ops, &p, e);
	if (rc)
		return rc;
	const struct js_synth_ops *s = ops;
	struct js_workload *w = js_workload_new(spec);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!w || !rng) {
		js_workload_free(w);
		gsl_rng_free(rng);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	gsl_rng_set(rng, seed);
	w->hdr.max_nodes = w->hdr.max_procs = machine_nodes;
	rc = s->generate(&p, rng, machine_nodes, w, e);
	gsl_rng_free(rng);
	cmn_params_format(s->base.name, &p, w->source, sizeof w->source);
	if (effective)
		snprintf(effective, efflen, "%s", w->source);
	if (rc) {
		cmn_err_prefix(e, "synthetic model '%s'", spec);
		js_workload_free(w);
		return rc;
	}
	*out = w;
	return 0;
}

int js_synth_push(struct js_workload *w, long id, double submit, double run, int size,
                  double req_time, int exe, struct cmn_err *e)
{
	struct js_job j;
	memset(&j, 0, sizeof j);
	for (int f = 0; f < JS_SWF_FIELDS; f++)
		j.f[f] = -1;
	j.id = (uint64_t)id;
	j.f[JS_F_JOB] = (double)id;
	j.f[JS_F_SUBMIT] = round(submit * 1000.0) / 1000.0;
	j.f[JS_F_RUN] = round(run * 1000.0) / 1000.0;
	j.f[JS_F_ALLOC_PROCS] = size;
	j.f[JS_F_REQ_PROCS] = size;
	j.f[JS_F_REQ_TIME] = round(req_time * 1000.0) / 1000.0;
	j.f[JS_F_STATUS] = 1;
	j.f[JS_F_EXE] = exe;
	w->counts.read++;
	if (js_workload_push(w, &j))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	return 0;
}

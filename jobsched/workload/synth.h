/* Synthetic workload generators: an ops table per model, chosen with
 * --synthetic "name:key=value,...", reproducible from the seed (GSL). */
#ifndef JS_SYNTH_H
#define JS_SYNTH_H

#include <gsl/gsl_rng.h>

#include "../../common/params.h"
#include "workload.h"

struct js_synth_ops {
	struct cmn_plugin base;
	/* Appends the generated records to w (records as an SWF log would hold
	 * them; js_clean() then turns them into jobs as for a log). */
	/* May overwrite derived parameters in p so that the echo is effective. */
	int (*generate)(struct cmn_params *p, gsl_rng *rng, int machine_nodes,
	                struct js_workload *w, struct cmn_err *e);
};

extern const struct js_synth_ops *const js_synth_registry[];

/* Appends a generated job to w as an SWF record: job id, submit time and
 * run time (both rounded to the millisecond, so a written SWF reads back
 * the same), size (allocated and requested), requested time, executable
 * number (-1: none), status 1, every other field -1. */
int js_synth_push(struct js_workload *w, long id, double submit, double run, int size,
                  double req_time, int exe, struct cmn_err *e);

/* Generates a workload from a specification with a GSL mt19937 generator
 * seeded with seed. effective receives the specification with every value. */
int js_synth_generate(const char *spec, unsigned long seed, int machine_nodes,
                      struct js_workload **out, char *effective, size_t efflen, struct cmn_err *e);

#endif

/* The run-time model interface: how long a started job runs. A job has an
 * amount of work (seconds at rate 1) fixed when it starts, and a progress
 * rate that a model may change whenever the set of running jobs changes;
 * the core then re-predicts its finish. Implementations beyond the simple
 * ones here (network-based) live in coupling/. */
#ifndef JS_RUNTIME_H
#define JS_RUNTIME_H

#include "../common/params.h"
#include "sim.h"

struct js_runtime_ops {
	struct cmn_plugin base;
	int (*create)(const struct cmn_params *p, void **self, struct cmn_err *e);
	void (*destroy)(void *self);
	/* The job's work in seconds at rate 1 when it starts on these nodes
	 * (negative: out of memory). A model may record per-job values through
	 * the sim (js_sim_set_psi). */
	double (*work_s)(void *self, struct js_sim *sim, int j, const int *nodes, int n);
	/* Optional (NULL: every rate is 1). After the running set changed:
	 * writes rates[pos] > 0 for the running job at each position of
	 * js_sim_rjob(). A model may record per-job values (js_sim_set_iter). */
	int (*rates)(void *self, struct js_sim *sim, double *rates, struct cmn_err *e);
	/* Optional: one line of the model's own statistics after a run
	 * (replays, cache hit rates), which tools print on stderr. */
	void (*report)(void *self, FILE *f);
};

extern const struct js_runtime_ops *const js_runtime_registry[];

struct js_runtime {
	const struct js_runtime_ops *ops;
	void *self;
	struct cmn_params params;
	char spec[256];
};

int js_runtime_create(const char *spec, struct js_runtime **out, struct cmn_err *e);
/* The same from another registry (cosim adds the coupling layer's models). */
int js_runtime_create_in(const struct js_runtime_ops *const *registry, const char *spec,
                         struct js_runtime **out, struct cmn_err *e);
/* An instance of ops that no registry lists (tests, coupling). */
int js_runtime_create_ops(const struct js_runtime_ops *ops, const char *kvs,
                          struct js_runtime **out, struct cmn_err *e);
void js_runtime_destroy(struct js_runtime *r);

#endif

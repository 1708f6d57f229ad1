/* The scheduler interface: an ops table per policy, chosen with --sched
 * "name:key=value,...". A scheduler decides which queued jobs start at each
 * scheduling pass; it asks the allocator (through the sim API) whether and
 * where a job fits and never compares node counts itself. */
#ifndef JS_SCHED_H
#define JS_SCHED_H

#include "../../common/params.h"
#include "../sim/sim.h"

struct js_sched_ops {
	struct cmn_plugin base;
	int (*create)(const struct cmn_params *p, size_t njobs, int nodes, void **self,
	              struct cmn_err *e);
	void (*destroy)(void *self);
	/* Optional: job j has ended (its nodes still readable through the sim);
	 * early when before its expected end. */
	void (*on_end)(void *self, struct js_sim *sim, int j, int early);
	/* One scheduling pass at the current time. */
	int (*pass)(void *self, struct js_sim *sim, struct cmn_err *e);
	/* Its reservations assume every job keeps its size to its end: a
	 * resizing policy (--resize) is refused with it. */
	int fixed_sizes;
};

extern const struct js_sched_ops *const js_sched_registry[];

struct js_sched {
	const struct js_sched_ops *ops;
	void *self;
	struct cmn_params params;
	char spec[256];
};

int js_sched_create(const char *spec, size_t njobs, int nodes, struct js_sched **out,
                    struct cmn_err *e);
void js_sched_destroy(struct js_sched *s);

#endif

/* Machine models: the topology interface (an ops table per family, chosen by
 * "name:key=value" specification) and the machine object built from it.
 * platforms/ knows nothing of jobs or traces. */
#ifndef PLAT_PLATFORM_H
#define PLAT_PLATFORM_H

#include "../common/err.h"
#include "../common/params.h"

struct plat_topology_ops {
	struct cmn_plugin base;
	/* Builds the family's state from its parameters. */
	int (*create)(const struct cmn_params *p, void **state, struct cmn_err *e);
	void (*destroy)(void *state);
	/* Number of compute nodes; node ids are 0 .. count-1. */
	int (*node_count)(const void *state);
	/* Hop distance between two nodes (0 for a == b). */
	int (*distance)(const void *state, int a, int b);
};

/* NULL-terminated registry of topology families (topology_registry.def). */
extern const struct plat_topology_ops *const plat_topology_registry[];

struct plat_machine {
	const struct plat_topology_ops *ops;
	void *state;
	struct cmn_params params;
	int nodes;
	char spec[256]; /* effective specification, every parameter spelled out */
};

/* Builds a machine from a specification such as "flat:nodes=256". */
int plat_machine_create(const char *spec, struct plat_machine **out, struct cmn_err *e);
void plat_machine_destroy(struct plat_machine *m);

#endif

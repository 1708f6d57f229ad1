/* The flat machine: N nodes, all equidistant (seed 003's fully connected
 * comparison machine, and the default of the scheduling simulator). */
#include <stdlib.h>

#include "platform.h"

struct flat {
	int nodes;
};

static const struct cmn_param_def flat_params[] = {
    {"nodes", CMN_PT_INT, NULL, 1, 1 << 24, NULL, "number of compute nodes"},
    {NULL},
};

static int flat_create(const struct cmn_params *p, void **state, struct cmn_err *e)
{
	struct flat *f = malloc(sizeof *f);
	if (!f)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	f->nodes = (int)cmn_params_num(p, "nodes");
	*state = f;
	return 0;
}

static void flat_destroy(void *state)
{
	free(state);
}

static int flat_node_count(const void *state)
{
	return ((const struct flat *)state)->nodes;
}

static int flat_distance(const void *state, int a, int b)
{
	(void)state;
	return a == b ? 0 : 1;
}

const struct plat_topology_ops plat_topo_flat_ops = {
    .base = {"flat", "all nodes equidistant (one switch)", flat_params},
    .create = flat_create,
    .destroy = flat_destroy,
    .node_count = flat_node_count,
    .distance = flat_distance,
};

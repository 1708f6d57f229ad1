/* Nearest-neighbour traffic: every dimension c -> (c + 1) mod k
 * (traffic.h). */
#include <stdlib.h>

#include "traffic.h"

static int neighbor_offset(int k)
{
	(void)k;
	return 1;
}

static int neighbor_create(const struct cmn_params *p, const struct plat_machine *m, void **state,
                           struct cmn_err *e)
{
	(void)p;
	return net_shift_create(m, neighbor_offset, state, e);
}

const struct net_traffic_ops net_traffic_neighbor_ops = {
    .base = {"neighbor", "every coordinate c -> (c + 1) mod k (off grids: node ids, k = nodes)",
             net_no_params},
    .create = neighbor_create,
    .destroy = free,
    .dest = net_shift_dest,
};

/* Tornado traffic: every dimension c -> (c + ceil(k/2) - 1) mod k
 * (traffic.h). */
#include <stdlib.h>

#include "traffic.h"

static int tornado_offset(int k)
{
	return (k + 1) / 2 - 1;
}

static int tornado_create(const struct cmn_params *p, const struct plat_machine *m, void **state,
                          struct cmn_err *e)
{
	(void)p;
	return net_shift_create(m, tornado_offset, state, e);
}

const struct net_traffic_ops net_traffic_tornado_ops = {
    .base = {"tornado",
             "every coordinate c -> (c + ceil(k/2) - 1) mod k (off grids: node ids, k = nodes)",
             net_no_params},
    .create = tornado_create,
    .destroy = free,
    .dest = net_shift_dest,
};

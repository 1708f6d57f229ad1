/* Hotspot traffic: a share of the packets to one node, the rest uniform
 * (traffic.h). */
#include <stdlib.h>

#include "traffic.h"

static const struct cmn_param_def hotspot_params[] = {
    {"node", CMN_PT_INT, "0", 0, 2147483647, NULL, "the hot node"},
    {"frac", CMN_PT_DOUBLE, "0.1", 0, 1, NULL,
     "probability that a packet goes to the hot node (the hot node itself sends uniformly)"},
    {NULL},
};

struct hotspot {
	int nodes, node;
	double frac;
};

static int hotspot_create(const struct cmn_params *p, const struct plat_machine *m, void **state,
                          struct cmn_err *e)
{
	int node = (int)cmn_params_num(p, "node");
	if (node >= m->nodes)
		return cmn_err_set(e, CMN_EUSAGE, "node=%d: the machine has nodes 0..%d", node,
		                   m->nodes - 1);
	struct hotspot *h = malloc(sizeof *h);
	if (!h)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	*h = (struct hotspot){m->nodes, node, cmn_params_num(p, "frac")};
	*state = h;
	return 0;
}

static int hotspot_dest(const void *state, int src, struct cmn_mt *rng)
{
	const struct hotspot *h = state;
	if (src != h->node && cmn_mt_uniform(rng) < h->frac)
		return h->node;
	return net_traffic_other(h->nodes, src, rng);
}

const struct net_traffic_ops net_traffic_hotspot_ops = {
    .base = {"hotspot", "a share frac of the packets to node `node`, the others uniform",
             hotspot_params},
    .create = hotspot_create,
    .destroy = free,
    .dest = hotspot_dest,
};

/* Bit-complement traffic: node ids of b bits complemented (traffic.h). */
#include <stdint.h>

#include "traffic.h"

static int bitcomp_create(const struct cmn_params *p, const struct plat_machine *m, void **state,
                          struct cmn_err *e)
{
	(void)p;
	if (net_traffic_bits(m->nodes) < 0)
		return cmn_err_set(e, CMN_EUSAGE, "%d nodes: needs a power of two", m->nodes);
	*state = (void *)(intptr_t)m->nodes;
	return 0;
}

static int bitcomp_dest(const void *state, int src, struct cmn_mt *rng)
{
	(void)rng;
	int nodes = (int)(intptr_t)state;
	return ~src & (nodes - 1); /* never src: every bit differs */
}

const struct net_traffic_ops net_traffic_bitcomp_ops = {
    .base = {"bitcomp", "node id's bits complemented (2^b nodes)", net_no_params},
    .create = bitcomp_create,
    .dest = bitcomp_dest,
};

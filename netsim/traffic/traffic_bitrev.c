/* Bit-reversal traffic: node ids of b bits reversed (traffic.h). */
#include <stdint.h>

#include "traffic.h"

static int bitrev_create(const struct cmn_params *p, const struct plat_machine *m, void **state,
                         struct cmn_err *e)
{
	(void)p;
	int b = net_traffic_bits(m->nodes);
	if (b < 0)
		return cmn_err_set(e, CMN_EUSAGE, "%d nodes: needs a power of two", m->nodes);
	*state = (void *)(intptr_t)b;
	return 0;
}

static int bitrev_dest(const void *state, int src, struct cmn_mt *rng)
{
	(void)rng;
	int b = (int)(intptr_t)state, d = 0;
	for (int i = 0; i < b; i++)
		d |= (src >> i & 1) << (b - 1 - i);
	return d == src ? -1 : d;
}

const struct net_traffic_ops net_traffic_bitrev_ops = {
    .base = {"bitrev", "node id's bits reversed (2^b nodes)", net_no_params},
    .create = bitrev_create,
    .dest = bitrev_dest,
};

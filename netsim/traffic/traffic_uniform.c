/* Uniform random traffic: any other node, equally likely (traffic.h). */
#include "traffic.h"

static int uniform_dest(const void *state, int src, struct cmn_mt *rng)
{
	const struct plat_machine *m = state;
	return net_traffic_other(m->nodes, src, rng);
}

static int uniform_create(const struct cmn_params *p, const struct plat_machine *m, void **state,
                          struct cmn_err *e)
{
	(void)p, (void)e;
	*state = (void *)m;
	return 0;
}

const struct net_traffic_ops net_traffic_uniform_ops = {
    .base = {"uniform", "every packet to another node chosen uniformly at random", net_no_params},
    .create = uniform_create,
    .dest = uniform_dest,
};

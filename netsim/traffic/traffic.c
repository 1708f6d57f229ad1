/* The registry of traffic patterns and what they share (traffic.h). */
#include <stdlib.h>

#include "traffic.h"

#define NET_TRAFFIC(sym) extern const struct net_traffic_ops sym;
#include "traffic_registry.def"
#undef NET_TRAFFIC

const struct net_traffic_ops *const net_traffic_registry[] = {
#define NET_TRAFFIC(sym) &sym,
#include "traffic_registry.def"
#undef NET_TRAFFIC
    NULL,
};

int net_traffic_open(const char *spec, const struct plat_machine *m, struct net_traffic *t,
                     struct cmn_err *e)
{
	const void *ops;
	t->state = NULL;
	if (cmn_spec_resolve((const void *const *)net_traffic_registry, spec, "traffic pattern",
	                     &ops, &t->params, e))
		return e->code;
	t->ops = ops;
	if (m->nodes < 2)
		return cmn_err_set(e, CMN_EUSAGE, "traffic %s: %s has %d node (at least 2 needed)",
		                   t->ops->base.name, m->spec, m->nodes);
	if (t->ops->create && t->ops->create(&t->params, m, &t->state, e)) {
		cmn_err_prefix(e, "traffic %s on %s", t->ops->base.name, m->spec);
		return e->code;
	}
	return 0;
}

void net_traffic_close(struct net_traffic *t)
{
	if (t->ops && t->ops->destroy)
		t->ops->destroy(t->state);
	t->state = NULL;
}

void net_grid_of(const struct plat_machine *m, struct net_grid *g)
{
	struct cmn_err e;
	int wrap[PLAT_MAX_DIMS];
	g->m = m;
	g->grid = plat_grid_shape(m, &g->nd, g->dims, wrap, &e) == 0;
	if (!g->grid) {
		g->nd = 1;
		g->dims[0] = m->nodes;
	}
}

void net_grid_coords(const struct net_grid *g, int node, int *c)
{
	if (g->grid)
		plat_coords(g->m, node, c);
	else
		c[0] = node;
}

int net_grid_node(const struct net_grid *g, const int *c)
{
	return g->grid ? plat_grid_node(g->m, c) : c[0];
}

int net_traffic_bits(int nodes)
{
	int b = 0;
	while ((1 << b) < nodes)
		b++;
	return (1 << b) == nodes ? b : -1;
}

int net_traffic_other(int nodes, int src, struct cmn_mt *rng)
{
	int d = (int)cmn_mt_uniform_int(rng, (unsigned long)nodes - 1);
	return d >= src ? d + 1 : d;
}

/* Shift patterns: every dimension moved by its own offset, mod its size. */
struct shift {
	struct net_grid g;
	int off[PLAT_MAX_DIMS];
};

int net_shift_create(const struct plat_machine *m, int (*offset)(int k), void **state,
                     struct cmn_err *e)
{
	struct shift *s = malloc(sizeof *s);
	if (!s)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	net_grid_of(m, &s->g);
	for (int d = 0; d < s->g.nd; d++)
		s->off[d] = offset(s->g.dims[d]) % s->g.dims[d];
	*state = s;
	return 0;
}

int net_shift_dest(const void *state, int src, struct cmn_mt *rng)
{
	(void)rng;
	const struct shift *s = state;
	int c[PLAT_MAX_DIMS];
	net_grid_coords(&s->g, src, c);
	for (int d = 0; d < s->g.nd; d++)
		c[d] = (c[d] + s->off[d]) % s->g.dims[d];
	int dst = net_grid_node(&s->g, c);
	return dst == src ? -1 : dst;
}

/* Transpose traffic: (x, y) -> (y, x) on a square 2-D grid, else the two
 * halves of 2h-bit node ids swapped (traffic.h). */
#include <stdlib.h>

#include "traffic.h"

struct transpose {
	struct net_grid g;
	int half; /* bits per half; 0 on a square grid */
};

static int transpose_create(const struct cmn_params *p, const struct plat_machine *m, void **state,
                            struct cmn_err *e)
{
	(void)p;
	struct transpose *t = malloc(sizeof *t);
	if (!t)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	net_grid_of(m, &t->g);
	t->half = 0;
	if (!(t->g.grid && t->g.nd == 2 && t->g.dims[0] == t->g.dims[1])) {
		int b = net_traffic_bits(m->nodes);
		if (b < 0 || b % 2) {
			free(t);
			return cmn_err_set(
			    e, CMN_EUSAGE,
			    "needs a square 2-D mesh or torus, or 4^h nodes (%d here)", m->nodes);
		}
		t->half = b / 2;
	}
	*state = t;
	return 0;
}

static int transpose_dest(const void *state, int src, struct cmn_mt *rng)
{
	(void)rng;
	const struct transpose *t = state;
	int dst;
	if (t->half) {
		int lo = src & ((1 << t->half) - 1), hi = src >> t->half;
		dst = lo << t->half | hi;
	} else {
		int c[PLAT_MAX_DIMS], x;
		net_grid_coords(&t->g, src, c);
		x = c[0], c[0] = c[1], c[1] = x;
		dst = net_grid_node(&t->g, c);
	}
	return dst == src ? -1 : dst;
}

const struct net_traffic_ops net_traffic_transpose_ops = {
    .base = {"transpose",
             "(x, y) -> (y, x) on a square 2-D mesh or torus; else id halves swapped (4^h nodes)",
             net_no_params},
    .create = transpose_create,
    .destroy = free,
    .dest = transpose_dest,
};

/* Synthetic traffic patterns for the flit-level engine (issue 8): where a
 * packet a node injects goes. One file per pattern, one line in
 * traffic_registry.def. Patterns are defined on node ids, or on
 * coordinates for meshes and tori:
 *   uniform     any other node, uniformly at random (never the source)
 *   transpose   2-D square mesh or torus: (x, y) -> (y, x); otherwise node
 *               ids of 2h bits: the high and low halves swapped
 *   bitrev      ids of b bits reversed (2^b nodes)
 *   bitcomp     ids of b bits complemented (2^b nodes)
 *   tornado     every dimension c -> (c + ceil(k/2) - 1) mod k (one
 *               dimension of all nodes off grids)
 *   neighbor    every dimension c -> (c + 1) mod k (likewise)
 *   hotspot     to node `node` with probability `frac`, else uniform
 * A node that a permutation maps to itself injects nothing (dest -1), as
 * INSEE never sends a packet to its own node. */
#ifndef NET_TRAFFIC_H
#define NET_TRAFFIC_H

#include "../../common/mt19937.h"
#include "../../common/params.h"
#include "../../platforms/platform.h"
#include "../netsim.h" /* net_no_params */

struct net_traffic_ops {
	struct cmn_plugin base;
	/* Checks that the pattern fits m (errors name the pattern and the
	 * machine) and makes its state (m is borrowed for the state's life). */
	int (*create)(const struct cmn_params *p, const struct plat_machine *m, void **state,
	              struct cmn_err *e);
	void (*destroy)(void *state);
	/* The destination of a packet from src, or -1: src injects nothing. */
	int (*dest)(const void *state, int src, struct cmn_mt *rng);
};

extern const struct net_traffic_ops *const net_traffic_registry[];

/* A pattern resolved from "name:key=value,..." on a machine. */
struct net_traffic {
	const struct net_traffic_ops *ops;
	struct cmn_params params;
	void *state;
};

int net_traffic_open(const char *spec, const struct plat_machine *m, struct net_traffic *t,
                     struct cmn_err *e);
void net_traffic_close(struct net_traffic *t);
static inline int net_traffic_dest(const struct net_traffic *t, int src, struct cmn_mt *rng)
{
	return t->ops->dest(t->state, src, rng);
}

/* For patterns: the machine's grid (0 when it has none: one dimension of
 * all nodes is used), and bit helpers. */
struct net_grid {
	const struct plat_machine *m;
	int nd, dims[PLAT_MAX_DIMS], grid; /* grid: a mesh or torus */
};
void net_grid_of(const struct plat_machine *m, struct net_grid *g);
void net_grid_coords(const struct net_grid *g, int node, int *c);
int net_grid_node(const struct net_grid *g, const int *c);
/* b when nodes = 2^b, else -1. */
int net_traffic_bits(int nodes);
/* Shift patterns (tornado, neighbor): every dimension c -> (c +
 * offset(k)) mod k; dest -1 where that is the source itself. */
int net_shift_create(const struct plat_machine *m, int (*offset)(int k), void **state,
                     struct cmn_err *e);
int net_shift_dest(const void *state, int src, struct cmn_mt *rng);
/* A uniformly random node other than src (nodes >= 2). */
int net_traffic_other(int nodes, int src, struct cmn_mt *rng);

#endif

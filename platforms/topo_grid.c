/* Meshes and tori of any number of dimensions: one implementation with a
 * wrap flag per dimension ("mesh" wraps none, "torus" all). Dimensions are
 * listed slowest first, as a matrix's (C order): in dims=16x8, 16 rows of 8
 * nodes, node r at (r / 8, r mod 8); the last dimension varies fastest.
 * (SimGrid's TORUS cluster varies its first dimension fastest: a platform
 * writer lists ours reversed.) Each node has a router; links: node to
 * router (injection), router to node (ejection), and one per direction to
 * each neighbouring router. Distance = router hops (L1, shorter way round
 * where a dimension wraps). Routes are dimension-ordered (dimension 0
 * first); on a ring the shorter way, the + direction when both are equal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/checked.h"
#include "../common/number.h"
#include "platform.h"

struct grid {
	int nd, nodes;
	int dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS], stride[PLAT_MAX_DIMS];
	int *link; /* per node: 2 + 2 nd ids: inject, eject, (dim, +/-) or -1 */
};

static const struct cmn_param_def grid_params[] = {
    {"dims", CMN_PT_STRING, NULL, 0, 0, NULL, "sizes per dimension, e.g. 16x16 or 4x4x8"},
    PLAT_LINK_PARAMS,
    {NULL},
};

static int parse_dims(const struct plat_builder *b, const char *s, struct grid *g,
                      struct cmn_err *e)
{
	long long dims[PLAT_MAX_DIMS], nodes = 1;
	int bad = 0;
	g->nd = cmn_num_int_list(s, 'x', 1, PLAT_MAX_NODES, dims, PLAT_MAX_DIMS, &bad);
	if (g->nd == -2)
		return cmn_err_set(e, CMN_EUSAGE, "dims=%s: more than %d dimensions", s,
		                   PLAT_MAX_DIMS);
	if (g->nd < 0)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "dims=%s: size %d is not an integer in [1, %d] (sizes joined by "
		                   "'x', e.g. 16x16)",
		                   s, bad, PLAT_MAX_NODES);
	for (int d = 0; d < g->nd; d++) {
		nodes = cmn_sat_mul(nodes, dims[d]);
		g->dims[d] = (int)dims[d];
	}
	/* a router per node; links: injection, ejection, 2 per dimension out */
	char how[CMN_PARAM_STR + 8];
	snprintf(how, sizeof how, "dims=%s", s);
	if (plat_check_size(b, how, nodes, cmn_sat_mul(nodes, 2 + 2LL * g->nd), e))
		return e->code;
	g->nodes = (int)nodes;
	return 0;
}

static int coord(const struct grid *g, int node, int d)
{
	return (node / g->stride[d]) % g->dims[d];
}

static int grid_create_wrap(struct cmn_params *p, struct plat_builder *b, void **state, int wrap,
                            struct cmn_err *e)
{
	struct grid *g = calloc(1, sizeof *g);
	if (!g)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	int rc = parse_dims(b, cmn_params_str(p, "dims"), g, e);
	if (rc) {
		free(g);
		return rc;
	}
	int per = 2 + 2 * g->nd;
	g->link = malloc((size_t)g->nodes * (size_t)per * sizeof *g->link);
	if (!g->link) {
		free(g);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	for (int d = g->nd - 1, s = 1; d >= 0; s *= g->dims[d], d--) {
		g->stride[d] = s;
		g->wrap[d] = wrap;
	}
	double bw = cmn_params_num(p, "bw"), lat = cmn_params_num(p, "lat");
	plat_builder_nodes(b, g->nodes);
	int router0 = g->nodes;
	for (int i = 0; i < g->nodes; i++)
		plat_add_vertex(b, PLAT_V_ROUTER, 0, i);
	for (int i = 0; i < g->nodes; i++) {
		int *l = g->link + (size_t)i * per;
		l[0] = plat_add_link(b, i, router0 + i, bw, lat);
		l[1] = plat_add_link(b, router0 + i, i, bw, lat);
		for (int d = 0; d < g->nd; d++)
			for (int dir = 0; dir < 2; dir++) {
				int x = coord(g, i, d), nx = dir ? x - 1 : x + 1;
				if (g->wrap[d])
					nx = (nx + g->dims[d]) % g->dims[d];
				int ok = nx >= 0 && nx < g->dims[d] && nx != x;
				int j = i + (nx - x) * g->stride[d];
				l[2 + 2 * d + dir] =
				    ok ? plat_add_link(b, router0 + i, router0 + j, bw, lat) : -1;
			}
	}
	*state = g;
	return 0;
}

static int mesh_create(struct cmn_params *p, struct plat_builder *b, void **state,
                       struct cmn_err *e)
{
	return grid_create_wrap(p, b, state, 0, e);
}

static int torus_create(struct cmn_params *p, struct plat_builder *b, void **state,
                        struct cmn_err *e)
{
	return grid_create_wrap(p, b, state, 1, e);
}

static void grid_destroy(void *state)
{
	struct grid *g = state;
	free(g->link);
	free(g);
}

/* Signed hops along dimension d from x to y (the route's choice). */
static int delta(const struct grid *g, int d, int x, int y)
{
	int dx = y - x;
	if (g->wrap[d]) {
		int n = g->dims[d];
		dx = ((dx % n) + n) % n; /* 0 .. n-1 going + */
		if (dx > n - dx)
			dx -= n; /* the - way is shorter */
	}
	return dx;
}

static int grid_distance(const void *state, int a, int b)
{
	const struct grid *g = state;
	int dist = 0;
	for (int d = 0; d < g->nd; d++) {
		int dx = delta(g, d, coord(g, a, d), coord(g, b, d));
		dist += dx < 0 ? -dx : dx;
	}
	return dist;
}

static int grid_route(const void *state, int a, int b, int *links)
{
	const struct grid *g = state;
	if (a == b)
		return 0;
	int per = 2 + 2 * g->nd, n = 0, cur = a;
	links[n++] = g->link[(size_t)a * per];
	for (int d = 0; d < g->nd; d++) {
		int x = coord(g, cur, d), dx = delta(g, d, x, coord(g, b, d));
		int dir = dx < 0, steps = dx < 0 ? -dx : dx, k = g->dims[d];
		for (int s = 0; s < steps; s++) { /* x: cur's coordinate in d */
			links[n++] = g->link[(size_t)cur * per + 2 + 2 * d + dir];
			int nx = dir ? (x == 0 ? k - 1 : x - 1) : (x + 1 == k ? 0 : x + 1);
			cur += (nx - x) * g->stride[d];
			x = nx;
		}
	}
	links[n++] = g->link[(size_t)b * per + 1];
	return n;
}

static int grid_max_route(const void *state)
{
	const struct grid *g = state;
	int m = 2;
	for (int d = 0; d < g->nd; d++)
		m += g->wrap[d] ? g->dims[d] / 2 : g->dims[d] - 1;
	return m;
}

static int grid_ndims(const void *state)
{
	return ((const struct grid *)state)->nd;
}

static void grid_coords(const void *state, int node, int *c)
{
	const struct grid *g = state;
	for (int d = 0; d < g->nd; d++)
		c[d] = coord(g, node, d);
}

/* Translations keep dimension-ordered routes (and, on a ring, the shorter
 * way round): the canonical form moves rank 0's node to 0 in each wrapping
 * dimension and the placement's lowest coordinate to 0 in the others. */
static int grid_canon(const void *state, const int *nodes, int n, int *out)
{
	const struct grid *g = state;
	int shift[PLAT_MAX_DIMS];
	for (int d = 0; d < g->nd; d++) {
		shift[d] = n ? coord(g, nodes[0], d) : 0;
		for (int r = 1; !g->wrap[d] && r < n; r++)
			if (coord(g, nodes[r], d) < shift[d])
				shift[d] = coord(g, nodes[r], d);
	}
	for (int r = 0; r < n; r++) {
		out[r] = 0;
		for (int d = 0; d < g->nd; d++)
			out[r] += (coord(g, nodes[r], d) - shift[d] + g->dims[d]) % g->dims[d] *
			          g->stride[d];
	}
	return 0;
}

/* mesh and torus: one implementation, create() sets the wrap flags. */
#define GRID_OPS(sym, nm, help, create_fn)                                                         \
	const struct plat_topology_ops sym = {                                                     \
	    .base = {nm, help, grid_params},                                                       \
	    .create = create_fn,                                                                   \
	    .destroy = grid_destroy,                                                               \
	    .distance = grid_distance,                                                             \
	    .route = grid_route,                                                                   \
	    .max_route = grid_max_route,                                                           \
	    .ndims = grid_ndims,                                                                   \
	    .coords = grid_coords,                                                                 \
	    .canon = grid_canon,                                                                   \
	}

GRID_OPS(plat_topo_mesh_ops, "mesh", "mesh of any dimensions, no wraparound", mesh_create);
GRID_OPS(plat_topo_torus_ops, "torus", "torus of any dimensions, every dimension wraps",
         torus_create);

int plat_grid_shape(const struct plat_machine *m, int *ndims, int *dims, int *wrap,
                    struct cmn_err *e)
{
	if (m->ops != &plat_topo_mesh_ops && m->ops != &plat_topo_torus_ops)
		return cmn_err_set(e, CMN_EUSAGE, "needs a mesh or torus machine, not %s", m->spec);
	const struct grid *g = m->state;
	*ndims = g->nd;
	memcpy(dims, g->dims, (size_t)g->nd * sizeof *dims);
	memcpy(wrap, g->wrap, (size_t)g->nd * sizeof *wrap);
	return 0;
}

int plat_grid_node(const struct plat_machine *m, const int *c)
{
	const struct grid *g = m->state;
	int node = 0;
	for (int d = 0; d < g->nd; d++)
		node += c[d] * g->stride[d];
	return node;
}

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
#include "pairsum.h"
#include "platform.h"
#include "xml_out.h"

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
	if (g->nd < 0) {
		const char *item = s; /* the bad-th size, as written */
		for (int k = 1; k < bad && strchr(item, 'x'); k++)
			item = strchr(item, 'x') + 1;
		return cmn_err_set(
		    e, CMN_EUSAGE,
		    "dims=%s: dimension %d's size '%.*s' is not an integer in [1, %d] "
		    "(sizes joined by 'x', e.g. 16x16)",
		    s, bad, (int)strcspn(item, "x"), item, PLAT_MAX_NODES);
	}
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

/* SimGrid XML. The mesh: a zone routed by DijkstraCache with D routers per
 * node, one per dimension: host -> router 0, router d -> router d of each
 * neighbour along d, router d -> router d+1 of the same node (a per-node
 * turn link, FATPIPE, not in our model), router D-1 -> host; all links
 * one-way, so every shortest path is dimension-ordered. Links carry our ids
 * (l<id>), turn links are t<node>-<d>. Node ids are offset by first (their
 * global numbering) and our link ids by link0. */
static int mesh_xml_write(struct plat_xml_out *x, const struct plat_machine *m, const char *id,
                          int first, int link0)
{
	int nd = 0, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS];
	if (plat_grid_shape(m, &nd, dims, wrap, NULL))
		return -1; /* not a grid: never, in its own writer */
	char a[64], b[64], l[64];
	if (plat_xml_start(x, "zone") < 0 || plat_xml_attr(x, "id", "%s", id) < 0 ||
	    plat_xml_attr(x, "routing", "DijkstraCache") < 0)
		return -1;
	for (int v = 0; v < m->nodes; v++) {
		if (plat_xml_start(x, "host") < 0 ||
		    plat_xml_attr(x, "id", "node-%d", first + v) < 0 ||
		    plat_xml_attr(x, "speed", "%.15gf", m->speed_flops) < 0 || plat_xml_end(x) < 0)
			return -1;
		for (int d = 0; d < nd; d++)
			if (plat_xml_start(x, "router") < 0 ||
			    plat_xml_attr(x, "id", "%s-r%d-%d", id, v, d) < 0 ||
			    plat_xml_end(x) < 0)
				return -1;
	}
	/* our links: node -> router (src < nodes), router -> node (dst < nodes),
	 * router -> router along the dimension they differ in */
	for (int i = 0; i < m->nlinks; i++) {
		snprintf(l, sizeof l, "l%d", link0 + i);
		if (plat_xml_link(x, l, m->links[i].bw_bps, m->links[i].lat_s,
		                  plat_xml_sharing(x)) < 0)
			return -1;
	}
	for (int v = 0; v < m->nodes; v++)
		for (int d = 0; d + 1 < nd; d++) {
			snprintf(l, sizeof l, "%s-t%d-%d", id, v, d);
			if (plat_xml_link(x, l, 1e15, 0, "FATPIPE") < 0)
				return -1;
		}
	int cv[PLAT_MAX_DIMS], cw[PLAT_MAX_DIMS];
	for (int i = 0; i < m->nlinks; i++) {
		const struct plat_link *k = &m->links[i];
		snprintf(l, sizeof l, "l%d", link0 + i);
		if (k->src < m->nodes) { /* injection: into layer 0 */
			snprintf(a, sizeof a, "node-%d", first + k->src);
			snprintf(b, sizeof b, "%s-r%d-0", id, k->src);
		} else if (k->dst < m->nodes) { /* ejection: out of the last layer */
			snprintf(a, sizeof a, "%s-r%d-%d", id, k->dst, nd - 1);
			snprintf(b, sizeof b, "node-%d", first + k->dst);
		} else {
			int x = k->src - m->nodes, y = k->dst - m->nodes, d = 0;
			plat_coords(m, x, cv);
			plat_coords(m, y, cw);
			while (cv[d] == cw[d])
				d++;
			snprintf(a, sizeof a, "%s-r%d-%d", id, x, d);
			snprintf(b, sizeof b, "%s-r%d-%d", id, y, d);
		}
		if (plat_xml_route1(x, a, b, l) < 0)
			return -1;
	}
	for (int v = 0; v < m->nodes; v++)
		for (int d = 0; d + 1 < nd; d++) {
			snprintf(a, sizeof a, "%s-r%d-%d", id, v, d);
			snprintf(b, sizeof b, "%s-r%d-%d", id, v, d + 1);
			snprintf(l, sizeof l, "%s-t%d-%d", id, v, d);
			if (plat_xml_route1(x, a, b, l) < 0)
				return -1;
		}
	return plat_xml_end(x);
}

/* The torus: <cluster topology="TORUS"> with the dimensions reversed
 * (SimGrid varies its first dimension fastest, we our last) and a loopback
 * (its hosts have no route to themselves otherwise). Dimensions of one
 * node are left out (they number no host and carry no route): SimGrid
 * gives each a link from every host to itself, under one name, so two of
 * them abort its parser (torus:dims=1x1x5 did). */
static int torus_xml_write(struct plat_xml_out *x, const struct plat_machine *m, const char *id,
                           int first, int link0)
{
	(void)link0;
	int nd = 0, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS];
	if (plat_grid_shape(m, &nd, dims, wrap, NULL))
		return -1; /* not a grid: never, in its own writer */
	char p[256];
	int len = 0;
	for (int d = nd - 1; d >= 0; d--) /* SimGrid: first dimension fastest */
		if (dims[d] > 1)
			len += snprintf(p + len, sizeof p - (size_t)len, "%s%d", len ? "," : "",
			                dims[d]);
	if (!len) /* one node */
		snprintf(p, sizeof p, "1");
	/* a loopback (SimGrid's default one: 10 GBps, 0 s) for messages from a
	 * host to itself: SimGrid's TORUS has no route from a host to itself */
	if (plat_xml_cluster_start(x, m, id, first, m->nodes) < 0 ||
	    plat_xml_attr(x, "topology", "TORUS") < 0 ||
	    plat_xml_attr(x, "topo_parameters", "%s", p) < 0 ||
	    plat_xml_attr(x, "loopback_bw", "10000000000Bps") < 0 ||
	    plat_xml_attr(x, "loopback_lat", "0s") < 0)
		return -1;
	return plat_xml_end(x);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Hop sums (pairsum.h): per-axis coordinate counts swept with two
 * pointers. */

/* The sum over pairs of positions on an axis of D points of their distance
 * (on a ring, wrap, the shorter way round). Positions: k values ascending
 * (val; NULL: 0 .. k-1), each with a multiplicity (cnt; NULL: 1). Two
 * pointers: positions at most h behind the current one are near (distance:
 * the gap g), the others far (D - g), with running counts and sums of both. */
static void axis_sum(const int *val, const int *cnt, int k, int D, int wrap, struct plat_isum *s)
{
	uint64_t h = wrap ? (uint64_t)D / 2 : (uint64_t)D;
	uint64_t n_all = 0, x_all = 0, n_far = 0, x_far = 0;
	for (int j = 0, i = 0; j < k; j++) {
		uint64_t x = (uint64_t)(val ? val[j] : j), w = (uint64_t)(cnt ? cnt[j] : 1);
		if (!w)
			continue;
		for (; x - (uint64_t)(val ? val[i] : i) > h; i++) {
			uint64_t wi = (uint64_t)(cnt ? cnt[i] : 1);
			n_far += wi;
			x_far += wi * (uint64_t)(val ? val[i] : i);
		}
		uint64_t near = (n_all - n_far) * x - (x_all - x_far);
		uint64_t far = n_far * ((uint64_t)D - x) + x_far;
		plat_isum_mul(s, w, near + far);
		n_all += w;
		x_all += w * x;
	}
}

/* Adds c to the len coordinates from `from` round an axis of D: diff holds
 * differences, *base what every coordinate gets. */
static inline void ring_add(int *diff, int D, int from, int len, int c, int *base)
{
	if (len <= 0)
		return;
	int end = from + len;
	diff[from] += c;
	if (end < D) {
		diff[end] -= c;
	} else if (end > D) {
		*base += c;
		diff[end - D] -= c;
	}
}

/* How many of the view's nodes have each coordinate 0 .. D-1 on the axis
 * of that stride (node ids in C order, topo_grid.c), into cnt: a run's
 * first and last block of `stride` ids, and its whole blocks between
 * (consecutive coordinates round the axis). O(runs + D). */
static void axis_counts(const struct plat_view *v, int stride, int D, int *cnt)
{
	memset(cnt, 0, (size_t)D * sizeof *cnt);
	int base = 0;
	for (int i = v->start, a, b; plat_view_next(v, &i, &a, &b);) {
		int qa = a / stride, qb = b / stride;
		if (qa == qb) {
			ring_add(cnt, D, qa % D, 1, b - a + 1, &base);
			continue;
		}
		int whole = qb - qa - 1;
		ring_add(cnt, D, qa % D, 1, (qa + 1) * stride - a, &base);
		ring_add(cnt, D, qb % D, 1, b - qb * stride + 1, &base);
		ring_add(cnt, D, (qa + 1) % D, whole % D, stride, &base);
		base += whole / D * stride;
	}
	for (int x = 0, c = base; x < D; x++) {
		c += cnt[x];
		cnt[x] = c;
	}
}

/* The view's coordinates on the axis of that stride, in node order, into
 * val; 1 when they come out ascending. */
static int axis_values(const struct plat_view *v, int stride, int D, int *val)
{
	int k = 0, sorted = 1;
	for (int i = v->start, a, b; plat_view_next(v, &i, &a, &b);)
		for (int x = a; x <= b;) {
			int q = x / stride, c = q % D, end = (q + 1) * stride - 1;
			if (end > b)
				end = b;
			sorted &= k == 0 || val[k - 1] <= c;
			for (; x <= end; x++)
				val[k++] = c;
		}
	return sorted;
}

/* The sum over positions as axis_sum gives them of their distance to 0. */
static void axis_to_first(const int *val, const int *cnt, int k, int D, int wrap,
                          struct plat_isum *s)
{
	for (int j = 0; j < k; j++) {
		int x = val ? val[j] : j;
		plat_isum_mul(s, (uint64_t)(cnt ? cnt[j] : 1),
		              (uint64_t)(wrap && D - x < x ? D - x : x));
	}
}

/* L1 distance, axis by axis: from coordinate counts on axes no longer than
 * the node count, from the sorted coordinates on longer ones. The sum over
 * pairs, or with to_first over nodes of their distance to node 0. */
static void grid_sum(const struct grid *g, const struct plat_view *v, int n, int *scratch,
                     int to_first, struct plat_isum *s)
{
	for (int d = g->nd - 1, stride = 1; d >= 0; stride *= g->dims[d], d--) {
		const int *val = NULL, *cnt = scratch;
		int k = g->dims[d];
		if (g->dims[d] < 2)
			continue;
		if (g->dims[d] <= n) {
			axis_counts(v, stride, g->dims[d], scratch);
		} else {
			if (!axis_values(v, stride, g->dims[d], scratch) && !to_first)
				qsort(scratch, (size_t)n, sizeof *scratch, cmp_int);
			val = scratch, cnt = NULL, k = n;
		}
		if (to_first)
			axis_to_first(val, cnt, k, g->dims[d], g->wrap[d], s);
		else
			axis_sum(val, cnt, k, g->dims[d], g->wrap[d], s);
	}
}

static int grid_pair_sum(const struct plat_machine *m, const struct plat_view *v, int n,
                         int *scratch, struct plat_isum *s)
{
	if (n >= 2)
		grid_sum(m->state, v, n, scratch, 0, s);
	return 1;
}

static void grid_to_first(const struct plat_machine *m, const struct plat_view *v, int n,
                          int *scratch, struct plat_isum *s)
{
	grid_sum(m->state, v, n, scratch, 1, s);
}

/* A route: injection, a link per router hop, ejection. */
static int grid_route_extra(const void *state)
{
	(void)state;
	return 2;
}

static const char *const mesh_samples[] = {
    "mesh:dims=8x8",   "mesh:dims=5x3x2", "mesh:dims=7", "mesh:dims=40",
    "mesh:dims=1x6x1", "mesh:dims=9x8",   NULL};
static const char *const torus_samples[] = {"torus:dims=4x4x8",
                                            "torus:dims=5x2",
                                            "torus:dims=1x6",
                                            "torus:dims=7",
                                            "torus:dims=8",
                                            "torus:dims=41",
                                            "torus:dims=5x4x3",
                                            "torus:dims=6x5",
                                            "torus:dims=2x1x9",
                                            "torus:dims=4x4x4",
                                            NULL};

/* mesh and torus: one implementation, create() sets the wrap flags. */
#define GRID_OPS(sym, nm, help, create_fn, xml_fn, root, samples_of)                               \
	const struct plat_topology_ops sym = {                                                     \
	    .base = {nm, help, grid_params, samples_of},                                           \
	    .create = create_fn,                                                                   \
	    .destroy = grid_destroy,                                                               \
	    .distance = grid_distance,                                                             \
	    .route = grid_route,                                                                   \
	    .max_route = grid_max_route,                                                           \
	    .ndims = grid_ndims,                                                                   \
	    .coords = grid_coords,                                                                 \
	    .canon = grid_canon,                                                                   \
	    .xml_write = xml_fn,                                                                   \
	    .xml_root = root,                                                                      \
	    .pair_sum = grid_pair_sum,                                                             \
	    .to_first = grid_to_first,                                                             \
	    .route_extra = grid_route_extra,                                                       \
	}

GRID_OPS(plat_topo_mesh_ops, "mesh", "mesh of any dimensions, no wraparound", mesh_create,
         mesh_xml_write, "mesh", mesh_samples);
GRID_OPS(plat_topo_torus_ops, "torus", "torus of any dimensions, every dimension wraps",
         torus_create, torus_xml_write, NULL, torus_samples);

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

/* Multi-cluster machines (seed 001): C flat clusters, each a switch (its
 * gateway) with its nodes, joined by wide-area links with their own
 * bandwidth and latency: a full mesh of WAN links between gateways, or a
 * WAN backbone router every gateway links to. Nodes are numbered cluster by
 * cluster. Distance: 2 inside a cluster, 3 across a full mesh (up, WAN,
 * down), 4 across a backbone. Clusters of other families are not supported
 * yet. */
#include <stdlib.h>
#include <string.h>

#include "platform.h"

struct mc {
	int clusters, nodes, backbone;
	int *first, *size, *cluster_of;
	int wan0; /* id of the first WAN link */
};

static const struct cmn_param_def mc_params[] = {
    {"clusters", CMN_PT_INT, "5", 1, 4096, NULL, "number of clusters"},
    {"size", CMN_PT_INT, "20", 1, 1 << 20, NULL, "nodes per cluster"},
    {"sizes", CMN_PT_STRING, "uniform", 0, 0, NULL,
     "per-cluster sizes joined by '/' (e.g. 16/32/64), or uniform (all `size`)"},
    {"wan", CMN_PT_CHOICE, "mesh", 0, 0, "mesh|backbone",
     "a WAN link between every two gateways, or one backbone router"},
    {"wan_bw", CMN_PT_DOUBLE, "12.5e6", 1, 1e15, NULL, "wide-area link bandwidth, bytes/s"},
    {"wan_lat", CMN_PT_DOUBLE, "5e-3", 0, 100, NULL, "wide-area link latency, s"},
    PLAT_LINK_PARAMS,
    {NULL},
};

static void mc_destroy(void *state)
{
	struct mc *m = state;
	if (!m)
		return;
	free(m->first);
	free(m->size);
	free(m->cluster_of);
	free(m);
}

static int parse_sizes(struct mc *m, const char *s, int size, struct cmn_err *e)
{
	if (strcmp(s, "uniform") == 0) {
		for (int c = 0; c < m->clusters; c++)
			m->size[c] = size;
		return 0;
	}
	const char *p = s;
	for (int c = 0; c < m->clusters; c++) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p || v < 1 || v > 1 << 20 || (c + 1 < m->clusters && *end != '/') ||
		    (c + 1 == m->clusters && *end))
			return cmn_err_set(e, CMN_EUSAGE,
			                   "sizes '%s': expected %d sizes >= 1 joined by '/'", s,
			                   m->clusters);
		m->size[c] = (int)v;
		p = end + 1;
	}
	return 0;
}

static int mc_create(const struct cmn_params *p, struct plat_builder *b, void **state,
                     struct cmn_err *e)
{
	struct mc *m = calloc(1, sizeof *m);
	if (!m)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	m->clusters = (int)cmn_params_num(p, "clusters");
	m->backbone = strcmp(cmn_params_str(p, "wan"), "backbone") == 0;
	m->first = malloc((size_t)m->clusters * sizeof *m->first);
	m->size = malloc((size_t)m->clusters * sizeof *m->size);
	int rc = !m->first || !m->size ? cmn_err_set(e, CMN_ENOMEM, "out of memory")
	                               : parse_sizes(m, cmn_params_str(p, "sizes"),
	                                             (int)cmn_params_num(p, "size"), e);
	long long total = 0;
	for (int c = 0; !rc && c < m->clusters; c++) {
		m->first[c] = (int)total;
		total += m->size[c];
	}
	if (!rc && total > 1 << 24)
		rc = cmn_err_set(e, CMN_EUSAGE, "machine multicluster: too many nodes");
	if (!rc && !(m->cluster_of = malloc((size_t)total * sizeof *m->cluster_of)))
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	if (rc) {
		mc_destroy(m);
		return rc;
	}
	m->nodes = (int)total;
	double bw = cmn_params_num(p, "bw"), lat = cmn_params_num(p, "lat");
	double wbw = cmn_params_num(p, "wan_bw"), wlat = cmn_params_num(p, "wan_lat");
	plat_builder_nodes(b, m->nodes);
	for (int c = 0; c < m->clusters; c++)
		plat_add_vertex(b, PLAT_V_GATEWAY, c, c);
	int bb = m->backbone ? plat_add_vertex(b, PLAT_V_ROUTER, 0, 0) : -1;
	for (int c = 0; c < m->clusters; c++)
		for (int i = m->first[c]; i < m->first[c] + m->size[c]; i++) {
			m->cluster_of[i] = c;
			plat_add_link(b, i, m->nodes + c, bw, lat);
			plat_add_link(b, m->nodes + c, i, bw, lat);
		}
	m->wan0 = 2 * m->nodes;
	for (int c = 0; c < m->clusters; c++) {
		if (m->backbone) { /* gateway c up 2c, down 2c+1 */
			plat_add_link(b, m->nodes + c, bb, wbw, wlat);
			plat_add_link(b, bb, m->nodes + c, wbw, wlat);
			continue;
		}
		for (int d = 0; d < m->clusters; d++) /* c -> d at c C + d; c == d unused */
			if (d != c)
				plat_add_link(b, m->nodes + c, m->nodes + d, wbw, wlat);
	}
	*state = m;
	return 0;
}

static int mc_distance(const void *state, int a, int b)
{
	const struct mc *m = state;
	if (a == b)
		return 0;
	if (m->cluster_of[a] == m->cluster_of[b])
		return 2;
	return m->backbone ? 4 : 3;
}

static int mc_route(const void *state, int a, int b, int *links)
{
	const struct mc *m = state;
	if (a == b)
		return 0;
	int n = 0, ca = m->cluster_of[a], cb = m->cluster_of[b];
	links[n++] = 2 * a;
	if (ca != cb) {
		if (m->backbone) {
			links[n++] = m->wan0 + 2 * ca;
			links[n++] = m->wan0 + 2 * cb + 1;
		} else { /* ids skip the diagonal: row ca holds C - 1 links */
			links[n++] = m->wan0 + ca * (m->clusters - 1) + (cb < ca ? cb : cb - 1);
		}
	}
	links[n++] = 2 * b + 1;
	return n;
}

static int mc_max_route(const void *state)
{
	return ((const struct mc *)state)->backbone ? 4 : 3;
}

static int mc_ndims(const void *state)
{
	(void)state;
	return 0;
}

static void mc_coords(const void *state, int node, int *c)
{
	(void)state, (void)node, (void)c;
}

const struct plat_topology_ops plat_topo_multicluster_ops = {
    .base = {"multicluster", "flat clusters joined by wide-area links", mc_params},
    .create = mc_create,
    .destroy = mc_destroy,
    .distance = mc_distance,
    .route = mc_route,
    .max_route = mc_max_route,
    .ndims = mc_ndims,
    .coords = mc_coords,
};

int plat_multicluster_shape(const struct plat_machine *m, int *clusters, int *first, int *size,
                            struct cmn_err *e)
{
	if (m->ops != &plat_topo_multicluster_ops)
		return cmn_err_set(e, CMN_EUSAGE, "needs a multicluster machine, not %s", m->spec);
	const struct mc *s = m->state;
	*clusters = s->clusters;
	if (first)
		memcpy(first, s->first, (size_t)s->clusters * sizeof *first);
	if (size)
		memcpy(size, s->size, (size_t)s->clusters * sizeof *size);
	return 0;
}

int plat_cluster_of(const struct plat_machine *m, int node)
{
	if (m->ops != &plat_topo_multicluster_ops)
		return 0;
	return ((const struct mc *)m->state)->cluster_of[node];
}

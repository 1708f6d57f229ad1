/* Multi-cluster machines (seed 001): C clusters joined by wide-area links
 * with their own bandwidth and latency: a WAN link between every two
 * gateways (wan=mesh) or one backbone router every gateway links to
 * (wan=backbone). Nodes are numbered cluster by cluster.
 * Clusters are flat by default: a switch, the cluster's gateway, with its
 * nodes. With cluster=FAMILY;key=value;... every cluster is an instance of
 * that family (its own parameters, bw and lat included) and its first node
 * is its gateway (as SimGrid joins FAT_TREE and TORUS clusters: they have no
 * router). Distance inside a cluster is the family's; across clusters it is
 * the hops to the gateway, plus 1 (mesh) or 2 (backbone) WAN links, plus
 * the hops from the other gateway. Routes go the same way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/checked.h"
#include "../common/number.h"
#include "pairsum.h"
#include "platform.h"
#include "slurm_write.h"
#include "xml_out.h"

struct mc {
	int clusters, nodes, backbone;
	int *first, *size, *cluster_of, *gw;
	int wan0;                   /* id of the first WAN link */
	struct plat_machine *inner; /* the family of nested clusters; NULL: flat */
	int *scratch;               /* room for an inner route */
};

static const struct cmn_param_def mc_params[] = {
    {"clusters", CMN_PT_INT, "5", 1, PLAT_MAX_CLUSTERS, NULL, "number of clusters"},
    {"size", CMN_PT_INT, "20", 1, PLAT_MAX_NODES, NULL,
     "nodes per cluster (for a cluster family: its node count)"},
    {"sizes", CMN_PT_STRING, "uniform", 0, 0, NULL,
     "flat clusters: sizes joined by '/' (e.g. 16/32/64), or uniform (all `size`)"},
    {"cluster", CMN_PT_STRING, "flat", 0, 0, NULL,
     "flat, or a family with ';' between parameters, e.g. kary-ntree;k=4;n=2"},
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
	free(m->gw);
	free(m->scratch);
	plat_machine_destroy(m->inner);
	free(m);
}

static int parse_sizes(struct mc *m, const char *s, int size, struct cmn_err *e)
{
	if (strcmp(s, "uniform") == 0) {
		for (int c = 0; c < m->clusters; c++)
			m->size[c] = size;
		return 0;
	}
	long long *v = malloc((size_t)m->clusters * sizeof *v);
	if (!v)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	int bad = 0, n = cmn_num_int_list(s, '/', 1, PLAT_MAX_NODES, v, m->clusters, &bad);
	for (int c = 0; c < n; c++)
		m->size[c] = (int)v[c];
	free(v);
	if (n == -1)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "sizes=%s: size %d is not an integer in [1, %d] (sizes joined "
		                   "by '/')",
		                   s, bad, PLAT_MAX_NODES);
	if (n < 0)
		return cmn_err_set(e, CMN_EUSAGE, "sizes=%s: more than %d sizes for %d clusters", s,
		                   m->clusters, m->clusters);
	if (n != m->clusters)
		return cmn_err_set(e, CMN_EUSAGE, "sizes=%s: %d sizes for %d clusters", s, n,
		                   m->clusters);
	return 0;
}

/* The nested family from "family;k=v;k=v" (NULL inner for "flat"). */
static int parse_cluster(struct mc *m, const struct plat_builder *b, struct cmn_params *p,
                         struct cmn_err *e)
{
	const char *spec = cmn_params_str(p, "cluster");
	if (strcmp(spec, "flat") == 0)
		return 0;
	char buf[CMN_PARAM_STR];
	snprintf(buf, sizeof buf, "%s", spec);
	char *semi = strchr(buf, ';');
	if (semi) {
		*semi = ':';
		for (char *q = semi; (q = strchr(q, ';'));)
			*q = ',';
	}
	if (strncmp(buf, "flat", 4) == 0 || strncmp(buf, "multicluster", 12) == 0)
		return cmn_err_set(
		    e, CMN_EUSAGE,
		    "cluster '%s': flat clusters take size/sizes; clusters cannot nest "
		    "multi-clusters",
		    spec);
	int rc = plat_machine_create_max(buf, b->max_nodes, &m->inner, e);
	if (rc) {
		cmn_err_prefix(e, "cluster=%s", spec);
		return rc;
	}
	/* echo the family with every parameter: "kary-ntree;k=4;n=2;bw=..." */
	for (int i = 0; i < p->n; i++)
		if (strcmp(p->defs[i].key, "cluster") == 0) {
			size_t len = strlen(m->inner->spec);
			if (len >= sizeof p->str[i])
				return cmn_err_set(e, CMN_EUSAGE,
				                   "cluster '%s': too long spelled out", spec);
			memcpy(p->str[i], m->inner->spec, len + 1);
			for (char *q = p->str[i]; *q; q++)
				if (*q == ':' || *q == ',')
					*q = ';';
		}
	if (strcmp(cmn_params_str(p, "sizes"), "uniform") != 0 ||
	    (int)cmn_params_num(p, "size") != m->inner->nodes)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "clusters of %s have %d nodes: give size=%d (and no sizes list)",
		                   m->inner->spec, m->inner->nodes, m->inner->nodes);
	return 0;
}

/* Adds cluster c's copy of the inner machine: its other vertices and its
 * links, remapped. Inner link l of cluster c becomes c * inner links + l. */
static void add_nested(struct mc *m, struct plat_builder *b, int c, int vbase)
{
	const struct plat_machine *in = m->inner;
	for (int v = in->nodes; v < in->nvertices; v++)
		plat_add_vertex(b, in->vertices[v].kind, in->vertices[v].level,
		                in->vertices[v].index);
	for (int l = 0; l < in->nlinks; l++) {
		const struct plat_link *k = &in->links[l];
		int src = k->src < in->nodes ? m->first[c] + k->src : vbase + k->src - in->nodes;
		int dst = k->dst < in->nodes ? m->first[c] + k->dst : vbase + k->dst - in->nodes;
		plat_add_link(b, src, dst, k->bw_bps, k->lat_s);
	}
}

static int mc_create(struct cmn_params *p, struct plat_builder *b, void **state, struct cmn_err *e)
{
	struct mc *m = calloc(1, sizeof *m);
	if (!m)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	m->clusters = (int)cmn_params_num(p, "clusters");
	m->backbone = strcmp(cmn_params_str(p, "wan"), "backbone") == 0;
	m->first = malloc((size_t)m->clusters * sizeof *m->first);
	m->size = malloc((size_t)m->clusters * sizeof *m->size);
	m->gw = malloc((size_t)m->clusters * sizeof *m->gw);
	int rc = !m->first || !m->size || !m->gw ? cmn_err_set(e, CMN_ENOMEM, "out of memory")
	                                         : parse_cluster(m, b, p, e);
	if (!rc)
		rc = parse_sizes(m, cmn_params_str(p, "sizes"), (int)cmn_params_num(p, "size"), e);
	long long total = 0, links = 0;
	for (int c = 0; !rc && c < m->clusters; c++)
		total = cmn_sat_add(total, m->size[c]);
	if (!rc) { /* each cluster's links (a flat one's: 2 per node), then the WAN's */
		long long wan =
		    m->backbone ? 2LL * m->clusters : (long long)m->clusters * (m->clusters - 1);
		links =
		    m->inner ? cmn_sat_mul(m->clusters, m->inner->nlinks) : cmn_sat_mul(2, total);
		const char *sizes = cmn_params_str(p, "sizes");
		int uniform = strcmp(sizes, "uniform") == 0;
		char how[CMN_PARAM_STR + 32];
		snprintf(how, sizeof how, "%d clusters of %s%s", m->clusters,
		         uniform ? "" : "sizes ", uniform ? cmn_params_str(p, "size") : sizes);
		rc = plat_check_size(b, how, total, cmn_sat_add(links, wan), e);
	}
	for (int c = 0, at = 0; !rc && c < m->clusters; at += m->size[c++])
		m->first[c] = at;
	if (!rc && !(m->cluster_of = malloc((size_t)total * sizeof *m->cluster_of)))
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	if (!rc && m->inner &&
	    !(m->scratch = malloc((size_t)plat_max_route(m->inner) * sizeof *m->scratch)))
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
		for (int i = m->first[c]; i < m->first[c] + m->size[c]; i++)
			m->cluster_of[i] = c;
	if (!m->inner) { /* flat: gateway switches; node i up 2i, down 2i + 1 */
		for (int c = 0; c < m->clusters; c++)
			m->gw[c] = plat_add_vertex(b, PLAT_V_GATEWAY, c, c);
		for (int i = 0; i < m->nodes; i++) {
			plat_add_link(b, i, m->gw[m->cluster_of[i]], bw, lat);
			plat_add_link(b, m->gw[m->cluster_of[i]], i, bw, lat);
		}
	} else {
		int extra = m->inner->nvertices - m->inner->nodes;
		for (int c = 0; c < m->clusters; c++) {
			m->gw[c] = m->first[c];
			add_nested(m, b, c, m->nodes + c * extra);
		}
	}
	m->wan0 = b->nl;
	int bb = m->backbone ? plat_add_vertex(b, PLAT_V_ROUTER, 0, 0) : -1;
	for (int c = 0; c < m->clusters; c++) {
		if (m->backbone) { /* gateway c up wan0 + 2c, down + 1 */
			plat_add_link(b, m->gw[c], bb, wbw, wlat);
			plat_add_link(b, bb, m->gw[c], wbw, wlat);
			continue;
		}
		for (int d = 0; d < m->clusters; d++) /* c -> d; the diagonal skipped */
			if (d != c)
				plat_add_link(b, m->gw[c], m->gw[d], wbw, wlat);
	}
	*state = m;
	return 0;
}

/* The WAN links from cluster a's gateway to b's: wan0 + 2a and wan0 + 2b + 1
 * through a backbone; row a of the full mesh holds C - 1 links. */
static int wan_links(const struct mc *m, int a, int b, int *links)
{
	if (m->backbone) {
		links[0] = m->wan0 + 2 * a;
		links[1] = m->wan0 + 2 * b + 1;
		return 2;
	}
	links[0] = m->wan0 + a * (m->clusters - 1) + (b < a ? b : b - 1);
	return 1;
}

static int wan_hops(const struct mc *m)
{
	return m->backbone ? 2 : 1;
}

static int mc_distance(const void *state, int a, int b)
{
	const struct mc *m = state;
	if (a == b)
		return 0;
	int ca = m->cluster_of[a], cb = m->cluster_of[b];
	if (!m->inner)
		return ca == cb ? 2 : 2 + wan_hops(m);
	int la = a - m->first[ca], lb = b - m->first[cb];
	if (ca == cb)
		return plat_distance(m->inner, la, lb);
	return plat_distance(m->inner, la, 0) + wan_hops(m) + plat_distance(m->inner, 0, lb);
}

/* Appends cluster c's inner route from local node x to local node y. */
static int inner_route(const struct mc *m, int c, int x, int y, int *links)
{
	int n = plat_route(m->inner, x, y, m->scratch);
	for (int i = 0; i < n; i++)
		links[i] = c * m->inner->nlinks + m->scratch[i];
	return n;
}

static int mc_route(const void *state, int a, int b, int *links)
{
	const struct mc *m = state;
	if (a == b)
		return 0;
	int n = 0, ca = m->cluster_of[a], cb = m->cluster_of[b];
	int la = a - m->first[ca], lb = b - m->first[cb];
	if (m->inner && ca == cb)
		return inner_route(m, ca, la, lb, links);
	if (m->inner)
		n += inner_route(m, ca, la, 0, links);
	else
		links[n++] = 2 * a;
	if (ca != cb)
		n += wan_links(m, ca, cb, links + n);
	if (m->inner)
		n += inner_route(m, cb, 0, lb, links + n);
	else
		links[n++] = 2 * b + 1;
	return n;
}

static int mc_max_route(const void *state)
{
	const struct mc *m = state;
	return (m->inner ? 2 * plat_max_route(m->inner) : 2) + wan_hops(m);
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

static int zone_route(struct plat_xml_out *x, int ca, int cb, const char *gwa, const char *gwb,
                      const int *links, int n)
{
	if (plat_xml_start(x, "zoneRoute") < 0 || plat_xml_attr(x, "src", "cluster-%d", ca) < 0 ||
	    plat_xml_attr(x, "dst", "cluster-%d", cb) < 0 ||
	    plat_xml_attr(x, "gw_src", "%s", gwa) < 0 ||
	    plat_xml_attr(x, "gw_dst", "%s", gwb) < 0 || plat_xml_attr(x, "symmetrical", "NO") < 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (plat_xml_start(x, "link_ctn") < 0 ||
		    plat_xml_attr(x, "id", "l%d", links[i]) < 0 || plat_xml_end(x) < 0)
			return -1;
	return plat_xml_end(x);
}

/* SimGrid XML: one zone per cluster (flat: a cluster with a router as
 * gateway; other families as their writers make them, their first host as
 * gateway) in a Full zone whose zoneRoutes cross the WAN links (l<id>).
 * Clusters are not nested further: first and link0 are the file's. */
static int mc_xml_write(struct plat_xml_out *x, const struct plat_machine *m, const char *zone,
                        int node0, int link0)
{
	(void)node0, (void)link0;
	const struct mc *s = m->state;
	int C = s->clusters;
	const int *first = s->first, *size = s->size;
	const struct plat_machine *inner = s->inner;
	if (plat_xml_start(x, "zone") < 0 || plat_xml_attr(x, "id", "%s", zone) < 0 ||
	    plat_xml_attr(x, "routing", "Full") < 0)
		return -1;
	char id[64], gwa[64], gwb[64];
	for (int k = 0; k < C; k++) {
		snprintf(id, sizeof id, "cluster-%d", k);
		if (inner) {
			if (plat_xml_family(x, inner, id, first[k], k * inner->nlinks) < 0)
				return -1;
		} else {
			snprintf(gwa, sizeof gwa, "cluster-%d-gw", k);
			if (plat_xml_flat_cluster(x, m, id, first[k], size[k], gwa) < 0)
				return -1;
		}
	}
	/* the WAN links: every link whose ends are both gateways or the backbone */
	int wan0 = s->wan0, links[8], n;
	char l[64];
	for (int i = wan0; i < m->nlinks; i++) {
		snprintf(l, sizeof l, "l%d", i);
		if (plat_xml_link(x, l, m->links[i].bw_bps, m->links[i].lat_s,
		                  plat_xml_sharing(x)) < 0)
			return -1;
	}
	for (int a = 0; a < C; a++)
		for (int b = 0; b < C; b++) {
			if (a == b)
				continue;
			int pa = inner ? first[a] : -1, pb = inner ? first[b] : -1;
			if (inner) {
				snprintf(gwa, sizeof gwa, "node-%d", pa);
				snprintf(gwb, sizeof gwb, "node-%d", pb);
			} else {
				snprintf(gwa, sizeof gwa, "cluster-%d-gw", a);
				snprintf(gwb, sizeof gwb, "cluster-%d-gw", b);
			}
			n = wan_links(s, a, b, links);
			if (zone_route(x, a, b, gwa, gwb, links, n) < 0)
				return -1;
		}
	return plat_xml_end(x);
}

/* Slurm: a switch per flat cluster under one WAN switch; clusters of
 * another family have no tree form Slurm's plugin could take whole. */
static int mc_slurm_write(FILE *f, const struct plat_machine *m, struct cmn_err *e)
{
	const struct mc *s = m->state;
	if (s->inner)
		return cmn_err_set(
		    e, CMN_EUSAGE,
		    "topology.conf describes clusters of flat clusters, not clusters "
		    "of %s (%s)",
		    s->inner->ops->base.name, m->spec);
	for (int c = 0; c < s->clusters; c++) {
		fprintf(f, "SwitchName=cluster-%d Nodes=", c);
		plat_slurm_range(f, "node-", s->first[c], s->first[c] + s->size[c] - 1);
		fputc('\n', f);
	}
	fprintf(f, "SwitchName=wan Switches=");
	plat_slurm_range(f, "cluster-", 0, s->clusters - 1);
	fputc('\n', f);
	return 0;
}

/* Hop sums (pairsum.h). Hops from node x to its cluster's gateway: the
 * gateway switch of a flat cluster, the first node of a nested one. */
static int gateway_hops(const struct mc *s, int x)
{
	const int first = s->first[s->cluster_of[x]];
	return s->inner ? plat_distance(s->inner, x - first, 0) : 1;
}

/* Multi-clusters: pairs inside a cluster at the nested family's distance
 * (2 on flat ones); a pair across goes from one node to its gateway, over
 * the WAN hops (the same for every two clusters) and on to the other: each
 * node's gateway hops count once per node outside its cluster. Returns the
 * clusters spanned. */
static int mc_pair_sum(const struct plat_machine *m, const struct plat_view *v, int n, int *scratch,
                       struct plat_isum *s)
{
	const struct mc *st = m->state;
	const struct plat_machine *in = st->inner;
	uint64_t same = 0; /* pairs inside a cluster */
	int clusters = 0, at = v->start, i = at, a, b, first = -1, last = -1;
	int more =
	    plat_view_next(v, &i, &a, &b); /* a..b: the run at index at, what is left of it */
	while (more) {
		int c = st->cluster_of[a], lo = st->first[c], hi = lo + st->size[c] - 1;
		struct plat_view sub = {v->runs, v->nodes, v->n, at, v->lo + lo, v->lo + hi};
		uint64_t cnt = 0, hops = 0;
		if (first < 0)
			first = a;
		for (;;) { /* the cluster's nodes, run by run */
			int e = b < hi ? b : hi;
			cnt += (uint64_t)(e - a + 1);
			last = e;
			if (b > hi) {
				a = hi + 1; /* the rest of the run is in the next cluster */
				break;
			}
			at = i;
			more = plat_view_next(v, &i, &a, &b);
			if (!more || a > hi)
				break;
		}
		if (in) {
			struct plat_isum h = {0, 0}; /* below n times the diameter: 2^48 */
			plat_sum_to_first(in, &sub, (int)cnt, scratch, &h);
			hops = (uint64_t)plat_isum_value(&h);
			plat_pair_sum(in, &sub, (int)cnt, scratch, s);
		} else {
			plat_isum_mul(s, 2, plat_pairs(cnt));
			hops = cnt; /* one hop each to the gateway switch */
		}
		plat_isum_mul(s, hops, (uint64_t)n - cnt);
		same += plat_pairs(cnt);
		clusters++;
	}
	if (clusters > 1) {
		int wan = plat_distance(m, first, last) - gateway_hops(st, first) -
		          gateway_hops(st, last);
		plat_isum_mul(s, (uint64_t)wan, plat_pairs((uint64_t)n) - same);
	}
	return clusters;
}

static const char *const mc_samples[] = {
    "multicluster:clusters=5,size=4",
    "multicluster:clusters=3,sizes=2/5/1,wan=backbone",
    "multicluster:clusters=1,size=3",
    "multicluster:clusters=4,size=9",
    "multicluster:clusters=5,sizes=1/1/7/1/3",
    "multicluster:clusters=3,size=16,cluster=kary-ntree;k=4;n=2",
    "multicluster:clusters=2,size=8,cluster=mesh;dims=4x2,wan=backbone",
    "multicluster:clusters=3,size=9,cluster=torus;dims=3x3",
    NULL};

/* Routes inside a nested family with links beyond its hops vary. */
static int mc_route_extra(const void *state)
{
	const struct mc *m = state;
	return m->inner && plat_route_extra(m->inner) ? -1 : 0;
}

const struct plat_topology_ops plat_topo_multicluster_ops = {
    .base = {"multicluster", "clusters (flat or any family) joined by wide-area links", mc_params,
             mc_samples},
    .create = mc_create,
    .destroy = mc_destroy,
    .distance = mc_distance,
    .route = mc_route,
    .max_route = mc_max_route,
    .ndims = mc_ndims,
    .coords = mc_coords,
    .xml_write = mc_xml_write,
    .xml_root = "world",
    .slurm_write = mc_slurm_write,
    .pair_sum = mc_pair_sum,
    .route_extra = mc_route_extra,
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

const struct plat_machine *plat_multicluster_inner(const struct plat_machine *m)
{
	return ((const struct mc *)m->state)->inner;
}

int plat_multicluster_wan0(const struct plat_machine *m)
{
	return ((const struct mc *)m->state)->wan0;
}

int plat_multicluster_wan_route(const struct plat_machine *m, int a, int b, int *links)
{
	return wan_links(m->state, a, b, links);
}

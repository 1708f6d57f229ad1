/* Machine models: the topology interface (an ops table per family, chosen
 * by "name:key=value" specification) and the machine object built from it:
 * compute nodes, the switches or routers between them (vertices), directed
 * links with bandwidth and latency, hop distances and routes.
 * platforms/ knows nothing of jobs or traces.
 *
 * Vertex ids: compute nodes are 0 .. nodes-1; switches, routers and
 * gateways follow. Link ids are 0 .. links-1, each link one direction. */
#ifndef PLAT_PLATFORM_H
#define PLAT_PLATFORM_H

#include <stdio.h>

#include "../common/err.h"
#include "../common/params.h"

struct plat_link {
	int src, dst;  /* vertex ids */
	double bw_bps; /* bytes per second */
	double lat_s;  /* seconds */
};

struct plat_vertex {
	int kind;  /* PLAT_V_NODE, PLAT_V_SWITCH, PLAT_V_ROUTER, PLAT_V_GATEWAY */
	int level; /* tree stage (1..n) of a switch; cluster index of a gateway */
	int index; /* position within its kind and level */
};

enum { PLAT_V_NODE, PLAT_V_SWITCH, PLAT_V_ROUTER, PLAT_V_GATEWAY };

/* The largest machine. Node, vertex and link ids are ints and every
 * per-node or per-link table is made whole, so a machine has at most
 * PLAT_MAX_NODES nodes (2^20 = 1,048,576: the machines studied have 10^5 to
 * 10^6) and at most PLAT_MAX_LINKS links and as many other vertices (2^26:
 * room for every family's links at PLAT_MAX_NODES nodes, with products of a
 * few such counts far from overflowing 64 bits). A specification that
 * derives more is refused, naming it and the limit, before anything is
 * built. */
#define PLAT_MAX_NODES (1 << 20)
#define PLAT_MAX_LINKS (1 << 26)

/* A family's derived counts, computed with common/checked.h's saturating
 * operations (LLONG_MAX for an overflow), checked before it builds
 * anything: 0, or CMN_EUSAGE saying which count is beyond its limit. how
 * says where the node count comes from (e.g. "k^n = 64^11"). */
struct plat_builder;
int plat_check_size(const struct plat_builder *b, const char *how, long long nodes, long long links,
                    struct cmn_err *e);

/* What a family's create() fills in: vertices beyond the nodes, and links. */
struct plat_builder {
	int nodes;
	struct plat_vertex *v;
	int nv, cap_v;
	struct plat_link *l;
	int nl, cap_l;
	int failed;    /* 1: out of memory; 2: beyond PLAT_MAX_LINKS */
	int max_nodes; /* the node limit: PLAT_MAX_NODES, or lower (plat_machine_create_max) */
};

/* Adds a vertex (returns its id) or a link (returns its id); -1 when out of
 * memory or beyond the limits (the builder then fails as a whole). */
int plat_add_vertex(struct plat_builder *b, int kind, int level, int index);
int plat_add_link(struct plat_builder *b, int src, int dst, double bw_bps, double lat_s);

struct plat_machine;
struct plat_xml_out;
struct plat_view;
struct plat_isum;

struct plat_topology_ops {
	struct cmn_plugin base;
	/* Builds the family's state from its parameters (it may rewrite a
	 * parameter to its canonical effective form); first adds `nodes`
	 * compute-node vertices (plat_builder_nodes), then the rest. */
	int (*create)(struct cmn_params *p, struct plat_builder *b, void **state,
	              struct cmn_err *e);
	void (*destroy)(void *state);
	/* Hop distance between two nodes (0 for a == b), as documented per family. */
	int (*distance)(const void *state, int a, int b);
	/* The deterministic route from node a to node b as link ids; returns
	 * their count (0 for a == b); room for max_route links. */
	int (*route)(const void *state, int a, int b, int *links);
	int (*max_route)(const void *state);
	/* Coordinates: how many (0 when the family has none) and a node's. */
	int (*ndims)(const void *state);
	void (*coords)(const void *state, int node, int *c);
	/* Optional: the canonical form of a placement (rank r on nodes[r]):
	 * writes into out the placement that every placement equal to it under
	 * the family's symmetries (automorphisms that keep routes) maps to, so
	 * equal-shaped placements share a cache entry. 0, or -1 out of memory.
	 * NULL: none known (plat_canon copies the placement). */
	int (*canon)(const void *state, const int *nodes, int n, int *out);
	/* Optional: a coarser form than canon, the same contract but only
	 * approximately route-preserving: node sets of the same per-subtree
	 * counts map together (see plat_shape). NULL: canon. */
	int (*shape)(const void *state, const int *nodes, int n, int *out);
	/* Optional: the family's SimGrid platform XML (xml_out.h): machine m, or
	 * one cluster of a multi-cluster, as one element named id, hosts
	 * node-<first + node>, the machine's link ids from link0 where links are
	 * spelled out. NULL: no SimGrid form (plat_xml_write refuses, naming
	 * the family). */
	int (*xml_write)(struct plat_xml_out *x, const struct plat_machine *m, const char *id,
	                 int first, int link0);
	/* With xml_write: the id its element takes as the file's root (the
	 * element is a zone); NULL: the element is a <cluster>, written as
	 * "machine" inside a root zone "world". */
	const char *xml_root;
	/* Optional: the family's Slurm topology.conf lines (topology/tree),
	 * hosts node-<id>, after plat_slurm_write's header. 0, or an error.
	 * NULL: Slurm's tree plugin cannot describe the family. */
	int (*slurm_write)(FILE *f, const struct plat_machine *m, struct cmn_err *e);
	/* Optional: how many links a route has beyond its distance (0 where the
	 * distance counts links; meshes' and tori's counts router hops, their
	 * routes add the injection and ejection links); -1 when it varies. NULL:
	 * 0. */
	int (*route_extra)(const void *state);
	/* Optional: the family's fast path for plat_pair_sum (pairsum.h): adds
	 * the view's sum over pairs of their distance to s, returns the clusters
	 * the view spans. NULL: every pair through distance(). */
	int (*pair_sum)(const struct plat_machine *m, const struct plat_view *v, int n,
	                int *scratch, struct plat_isum *s);
	/* Optional: the same for plat_sum_to_first. NULL: node by node. */
	void (*to_first)(const struct plat_machine *m, const struct plat_view *v, int n,
	                 int *scratch, struct plat_isum *s);
};

/* Adds the compute-node vertices 0 .. nodes-1. */
int plat_builder_nodes(struct plat_builder *b, int nodes);

/* NULL-terminated registry of topology families (topology_registry.def). */
extern const struct plat_topology_ops *const plat_topology_registry[];

struct plat_machine {
	const struct plat_topology_ops *ops;
	void *state;
	struct cmn_params params;
	int nodes;
	double speed_flops; /* every node's speed (parameter speed) */
	int nvertices, nlinks;
	struct plat_vertex *vertices;
	struct plat_link *links;
	char spec[256]; /* effective specification, every parameter spelled out */
	/* A machine read from a SimGrid platform file (xml_read.h): the file and
	 * its hosts' names, node i being host_names[i]; NULL for a machine built
	 * from a specification (its platform, written by xml_write, names its
	 * hosts node-<i>). */
	char *source_xml;
	char **host_names;
	/* What the machine's own model leaves out of the file it was read from
	 * (hosts of different speeds, FATPIPE links, ...), which SimGrid's
	 * engines simulate and our own engines and models cannot: "" when
	 * nothing; those engines and models refuse the machine, quoting it. */
	char limits[256];
};

/* Builds a machine from a specification such as "kary-ntree:k=4,n=3". */
int plat_machine_create(const char *spec, struct plat_machine **out, struct cmn_err *e);
/* The same under a lower node limit (1 <= max_nodes <= PLAT_MAX_NODES), its
 * clusters' machines included: the fuzz harness reaches every size check
 * without building machines of a million nodes for each input. */
int plat_machine_create_max(const char *spec, int max_nodes, struct plat_machine **out,
                            struct cmn_err *e);
void plat_machine_destroy(struct plat_machine *m);
/* Sets m's source file and takes its hosts' names (m->nodes of them): 0,
 * or CMN_ENOMEM (names then freed). */
int plat_machine_set_source(struct plat_machine *m, const char *path, char **names,
                            struct cmn_err *e);
/* Whether who (an engine or model of our own, not SimGrid's) can take m:
 * 0, or CMN_EUSAGE saying why not: m->limits, or (needs_routers) a machine
 * of SimGrid's routes, whose links join no routers. */
int plat_own_model_check(const struct plat_machine *m, const char *who, int needs_routers,
                         struct cmn_err *e);

/* A machine of any SimGrid platform, as SimGrid routes it: node i is host
 * names[i], every SimGrid link one link here (a SHARED link is one link
 * both directions use, a SPLITDUPLEX link its _UP and _DOWN), the route
 * from a to b the links SimGrid's route between them crosses, in order,
 * and the distance between two nodes their route's length in links. Its
 * links have no ends (src = dst = -1): there are no routers, so the
 * engines and models that need a graph of routers refuse it. */
struct plat_routes {
	int nodes, nlinks;
	double speed_flops;     /* the hosts' speed */
	double *bw_bps, *lat_s; /* per link, nlinks of each */
	long long *first;       /* nodes * nodes + 1: route of (a, b) at a * nodes + b */
	int *links;             /* first[nodes * nodes] link ids */
};
/* Limits of such a machine (its route table is whole): hosts and links in
 * all routes together. */
#define PLAT_ROUTES_MAX_NODES 4096
#define PLAT_ROUTES_MAX_HOPS  (1LL << 27)
/* Links of one route, written (a <route>'s <link_ctn>s) or made by SimGrid
 * through zones (its time a message grows with the square of a route's
 * length: 18 s for one 2-rank cg.S over 2,048 links, 101 s over 4,500,
 * and it crashes on 10^5) */
#define PLAT_MAX_ROUTE_LINKS 4096
/* Builds the machine from r (its arrays taken, also on error) with the
 * specification "routes:file=<path>". */
int plat_machine_from_routes(struct plat_routes *r, const char *path, struct plat_machine **out,
                             struct cmn_err *e);

static inline int plat_distance(const struct plat_machine *m, int a, int b)
{
	return m->ops->distance(m->state, a, b);
}
static inline int plat_route(const struct plat_machine *m, int a, int b, int *links)
{
	return m->ops->route(m->state, a, b, links);
}
static inline int plat_max_route(const struct plat_machine *m)
{
	return m->ops->max_route(m->state);
}
static inline int plat_ndims(const struct plat_machine *m)
{
	return m->ops->ndims(m->state);
}
static inline void plat_coords(const struct plat_machine *m, int node, int *c)
{
	m->ops->coords(m->state, node, c);
}

/* Links of a route beyond its distance (see route_extra above). */
int plat_route_extra(const struct plat_machine *m);

/* The canonical form of a placement (see canon above). 0 or -1. */
int plat_canon(const struct plat_machine *m, const int *nodes, int n, int *out);
/* The counts form of a placement: on k-ary n-trees, its node set reduced
 * to per-subtree counts (which subtrees, ports and rank order are
 * forgotten), laid out canonically, ranks in ascending node order: an
 * approximation (rank mapping and d-mod-k up ports may differ), measured
 * in results/bench; elsewhere plat_canon. 0 or -1. */
int plat_shape(const struct plat_machine *m, const int *nodes, int n, int *out);

/* Typed views for allocators that need a family's structure. Each returns
 * 0, or CMN_EUSAGE naming the family it needs when m is another one. */
int plat_kary_ntree_shape(const struct plat_machine *m, int *k, int *n, struct cmn_err *e);
/* Bandwidth factor of each link level (1: node links, .., n: below stage n)
 * into factors (room for n); returns n. m must be a kary-ntree. */
int plat_kary_ntree_taper(const struct plat_machine *m, double *factors);
/* SimGrid's FAT_TREE cluster gives all its links one bandwidth: platgen
 * records a tapered tree's factors ("f1/../fn") in this cluster property,
 * which plat_load reads back and netsim applies to SimGrid's links. */
#define PLAT_XML_TAPER_PROP "placesim-taper"
/* The minimal route from a to b taking up port ups[l-1] at stage l, for every
 * stage below the nearest common ancestor (the set of minimal up*-down*
 * paths; plat_route() takes b's digits). Returns the link count. */
int plat_kary_ntree_route_via(const struct plat_machine *m, int a, int b, const int *ups,
                              int *links);
/* Meshes and tori: dimension sizes and wrap flags (room for PLAT_MAX_DIMS). */
#define PLAT_MAX_DIMS 8
int plat_grid_shape(const struct plat_machine *m, int *ndims, int *dims, int *wrap,
                    struct cmn_err *e);
/* The node at coordinates c of a mesh or torus (m must be one). */
int plat_grid_node(const struct plat_machine *m, const int *c);
/* Multi-cluster machines: number of clusters, and the first node and node
 * count of each (room for the cluster count; either may be NULL). */
#define PLAT_MAX_CLUSTERS 1024 /* a full WAN mesh of them: a million links */
int plat_multicluster_shape(const struct plat_machine *m, int *clusters, int *first, int *size,
                            struct cmn_err *e);
int plat_cluster_of(const struct plat_machine *m, int node);
/* Multi-cluster machines (m must be one): the family of nested clusters
 * (NULL for flat ones), the first WAN link id, and the WAN links from
 * cluster a's gateway to cluster b's (returns their count, at most 2). */
const struct plat_machine *plat_multicluster_inner(const struct plat_machine *m);
int plat_multicluster_wan0(const struct plat_machine *m);
int plat_multicluster_wan_route(const struct plat_machine *m, int a, int b, int *links);

/* Link and host parameters shared by every family (documented defaults);
 * a link's bandwidth, derived ones included (a tapered tree's), is in
 * [PLAT_MIN_BW_BPS, PLAT_MAX_BW_BPS]. */
#define PLAT_MIN_BW_BPS 1
#define PLAT_MAX_BW_BPS 1e15
#define PLAT_LINK_PARAMS                                                                           \
	{"bw",                                                                                     \
	 CMN_PT_DOUBLE,                                                                            \
	 "1.25e9",                                                                                 \
	 PLAT_MIN_BW_BPS,                                                                          \
	 PLAT_MAX_BW_BPS,                                                                          \
	 NULL,                                                                                     \
	 "link bandwidth, bytes/s"},                                                               \
	    {"lat", CMN_PT_DOUBLE, "1e-6", 0, 10, NULL, "link latency, s"},                        \
	{                                                                                          \
		"speed", CMN_PT_DOUBLE, "1e9", 1, 1e18, NULL, "node speed, flop/s"                 \
	}

#endif

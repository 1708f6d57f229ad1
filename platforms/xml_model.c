/* What SimGrid 3.32 would build from a platform, checked without building
 * it, in document order as its parser goes: one namespace for hosts,
 * routers and zones (clusters' hosts and routers included), one for
 * links, each route checked as its zone's routing checks it, and at the
 * end a route between every two hosts (SimGrid aborts when two hosts
 * without one communicate). */
#include <search.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "xml_internal.h"
#include "xml_read.h"

enum { P_HOST, P_ROUTER, P_ZONE };
/* R_OTHER: a routing SimGrid has and we do not check (None, Cluster,
 * Vivaldi, Wifi): its routes are SimGrid's to make (plat_xml_unmapped) */
enum { R_FULL, R_FLOYD, R_DIJKSTRA, R_CLUSTER, R_OTHER };
enum { L_PLAIN, L_SPLIT, L_HALF }; /* L_HALF: the _UP or _DOWN of a split one */

struct point {
	char *name;
	int kind;
	int zone;     /* the zone holding it (a zone's: its parent; -1: the root) */
	int self;     /* a zone's index */
	int required; /* a gateway */
	long line;
};

struct zone {
	const xmlNode *node;
	int parent, routing, point;
	long hosts; /* in it and below, at the end */
	int needed; /* hosts or gateways in it or below, at the end */
};

struct link {
	const xmlNode *node;
	int kind;
};

struct edge { /* a route table entry: an edge of its zone's graph */
	int zone;
	int reverse; /* the way back of a symmetrical route */
	long src, dst;
	const xmlNode *node;
};

/* Names and their indices in a POSIX search tree, each name stored right
 * after its index (libxml2's hash tables stop growing at 16k buckets:
 * far too slow for a million "node-N"). */
struct names {
	void *root;
};

struct model {
	const struct xml_ctx *c;
	struct names points, links;
	struct point *pt;
	struct zone *z;
	struct link *lk;
	struct edge *en;
	long npt, cappt, nz, capz, nlk, caplk, nen, capen;
	long hosts, nlinks;
	int fat_trees;
};

/* v (n elements of size) with room for one more, doubling *cap; NULL when
 * out of memory (v is then unchanged). */
static void *room(void *v, long *cap, long n, size_t size)
{
	if (n < *cap)
		return v;
	long c = *cap ? 2 * *cap : 64;
	void *nv = realloc(v, (size_t)c * size);
	if (nv)
		*cap = c;
	return nv;
}

/* Makes room in array p (a struct's field) or returns out of memory. */
#define ROOM(m, p, cap, n)                                                                         \
	do {                                                                                       \
		void *r_ = room((p), &(cap), (n), sizeof *(p));                                    \
		if (!r_)                                                                           \
			return plat_xml_nomem((m)->c);                                             \
		(p) = r_;                                                                          \
	} while (0)

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The index of name in t, -1 when absent. */
static long find(const struct names *t, const char *name)
{
	char *const *p = tfind(name, &t->root, cmp_name);
	long idx = -1;
	if (p)
		memcpy(&idx, *p - sizeof idx, sizeof idx);
	return idx;
}

/* Adds name (absent from t) with index idx: its stored copy, or NULL when
 * out of memory. */
static char *add_name(struct names *t, const char *name, long idx)
{
	size_t l = strlen(name);
	char *base = malloc(sizeof idx + l + 1), *key = base ? base + sizeof idx : NULL;
	if (!base)
		return NULL;
	memcpy(base, &idx, sizeof idx);
	memcpy(key, name, l + 1);
	if (!tsearch(key, &t->root, cmp_name)) {
		free(base);
		return NULL;
	}
	return key;
}

static void free_names(struct names *t)
{
	while (t->root) {
		char *key = *(char **)t->root;
		tdelete(key, &t->root, cmp_name);
		free(key - sizeof(long));
	}
}

static const char *const kind_names[] = {"host", "router", "zone"};

/* Registers a host, router or zone name; what: the element for messages. */
static int add_point(struct model *m, const xmlNode *n, const char *what, const char *name,
                     int kind, int zone, int self)
{
	if (!name) /* an element whose checks are SimGrid's (a <peer>) */
		return plat_xml_fail(m->c, n, "<%s> without an id (SimGrid's DTD requires one)",
		                     plat_xml_name(n));
	long old = find(&m->points, name);
	if (old >= 0)
		return plat_xml_fail(
		    m->c, n,
		    "%s: \"%s\" is already the name of a %s (line %ld); SimGrid's hosts, "
		    "routers and zones share one namespace",
		    what, name, kind_names[m->pt[old].kind], m->pt[old].line);
	ROOM(m, m->pt, m->cappt, m->npt);
	char *key = add_name(&m->points, name, m->npt);
	if (!key)
		return plat_xml_nomem(m->c);
	m->pt[m->npt++] = (struct point){key, kind, zone, self, 0, xmlGetLineNo(n)};
	return 0;
}

static int add_zone(struct model *m, const xmlNode *n, int parent, int routing, int *zi)
{
	char what[200];
	ROOM(m, m->z, m->capz, m->nz);
	snprintf(what, sizeof what, "<%s id=\"%s\">", plat_xml_name(n),
	         plat_xml_attr_value(n, "id"));
	m->z[m->nz] = (struct zone){n, parent, routing, (int)m->npt, 0, 0};
	int rc = add_point(m, n, what, plat_xml_attr_value(n, "id"), P_ZONE, parent, (int)m->nz);
	*zi = (int)m->nz;
	m->nz += !rc;
	return rc;
}

/* Adds more to *total (hosts or links), within limit. */
static int count(struct model *m, const xmlNode *n, long *total, long more, long limit,
                 const char *what)
{
	if (more > limit - *total)
		return plat_xml_fail(m->c, n, "more than %ld %s (the limit of a platform here)",
		                     limit, what);
	*total += more;
	return 0;
}

/* --- clusters --- */

struct cluster_hosts {
	struct model *m;
	const xmlNode *n;
	int zone;
	char *name;
	const char *prefix, *suffix;
};

static int cluster_host(void *arg, long number)
{
	struct cluster_hosts *h = arg;
	char what[200];
	sprintf(h->name, "%s%ld%s", h->prefix, number, h->suffix);
	snprintf(what, sizeof what, "<cluster id=\"%s\">, its host",
	         plat_xml_attr_value(h->n, "id"));
	return add_point(h->m, h->n, what, h->name, P_HOST, h->zone, -1);
}

static int walk_cluster(struct model *m, const xmlNode *n, int parent)
{
	struct xml_cluster cl;
	int rc = plat_xml_cluster_read(m->c, n, &cl);
	if (!rc)
		rc = count(m, n, &m->hosts, cl.hosts, m->c->max_hosts, "hosts");
	if (!rc)
		rc = count(m, n, &m->nlinks, cl.links, XML_MAX_LINKS, "links");
	int zi;
	if (rc || (rc = add_zone(m, n, parent, R_CLUSTER, &zi)))
		return rc;
	const char *id = plat_xml_attr_value(n, "id"), *prefix = plat_xml_attr_value(n, "prefix"),
	           *suffix = plat_xml_attr_value(n, "suffix"),
	           *router = plat_xml_attr_value(n, "router_id");
	struct cluster_hosts h = {
	    m, n, zi, malloc(strlen(prefix) + strlen(suffix) + strlen(id) + 32), prefix, suffix};
	if (!h.name)
		return plat_xml_nomem(m->c);
	rc = plat_xml_cluster_each_host(n, cluster_host, &h);
	if (!rc && cl.topology == XML_FLAT) { /* SimGrid's name when router_id is empty */
		char what[200];
		snprintf(what, sizeof what, "<cluster id=\"%s\">, its router", id);
		if (!router || !*router)
			sprintf(h.name, "%s%s_router%s", prefix, id, suffix);
		rc = add_point(m, n, what, router && *router ? router : h.name, P_ROUTER, zi, -1);
	}
	free(h.name);
	m->fat_trees += cl.topology == XML_FAT_TREE;
	return rc;
}

/* --- links --- */

static int add_link_name(struct model *m, const xmlNode *n, const char *name, int kind)
{
	long old = find(&m->links, name);
	if (old >= 0 && kind == L_PLAIN && m->lk[old].kind == L_PLAIN)
		return plat_xml_fail(m->c, n,
		                     "<link id=\"%s\">: a second link of that name (line %ld)",
		                     name, xmlGetLineNo(m->lk[old].node));
	if (old >= 0)
		return plat_xml_fail(
		    m->c, n,
		    "<link id=\"%s\">: name \"%s\" is taken (line %ld): SimGrid names "
		    "the halves of a SPLITDUPLEX link ID \"ID_UP\" and \"ID_DOWN\"",
		    plat_xml_attr_value(n, "id"), name, xmlGetLineNo(m->lk[old].node));
	ROOM(m, m->lk, m->caplk, m->nlk);
	if (!add_name(&m->links, name, m->nlk))
		return plat_xml_nomem(m->c);
	m->lk[m->nlk++] = (struct link){n, kind};
	return 0;
}

static int add_link(struct model *m, const xmlNode *n)
{
	const char *id = plat_xml_attr_value(n, "id"),
	           *policy = plat_xml_attr_value(n, "sharing_policy");
	int split =
	    policy && (strcmp(policy, "SPLITDUPLEX") == 0 || strcmp(policy, "FULLDUPLEX") == 0);
	int rc = count(m, n, &m->nlinks, split ? 2 : 1, XML_MAX_LINKS, "links");
	if (rc || (rc = add_link_name(m, n, id, split ? L_SPLIT : L_PLAIN)) || !split)
		return rc;
	char *half = malloc(strlen(id) + 6);
	if (!half)
		return plat_xml_nomem(m->c);
	sprintf(half, "%s_UP", id);
	rc = add_link_name(m, n, half, L_HALF);
	sprintf(half, "%s_DOWN", id);
	if (!rc)
		rc = add_link_name(m, n, half, L_HALF);
	free(half);
	return rc;
}

/* SimGrid names a cluster's links "<cluster id>_..." and a fat tree's
 * "link_from_..." (all fat trees alike): a <link> must not take such a name. */
static int link_names_free(struct model *m)
{
	for (long i = 0; i < m->nlk; i++) {
		if (m->lk[i].kind == L_HALF)
			continue;
		const xmlNode *n = m->lk[i].node;
		const char *id = plat_xml_attr_value(n, "id");
		if (m->fat_trees && strncmp(id, "link_from_", 10) == 0)
			return plat_xml_fail(
			    m->c, n,
			    "<link id=\"%s\">: SimGrid names the links of FAT_TREE "
			    "clusters \"link_from_...\"; choose another id",
			    id);
		char *pre = strdup(id);
		if (!pre)
			return plat_xml_nomem(m->c);
		for (char *u = strchr(pre, '_'); u; u = strchr(u + 1, '_')) {
			*u = '\0';
			long p = find(&m->points, pre);
			*u = '_';
			if (p >= 0 && m->pt[p].kind == P_ZONE &&
			    m->z[m->pt[p].self].routing == R_CLUSTER) {
				*u = '\0';
				int rc = plat_xml_fail(
				    m->c, n,
				    "<link id=\"%s\">: SimGrid names cluster \"%s\"'s own "
				    "links \"%s_...\"; choose another id",
				    id, pre, pre);
				free(pre);
				return rc;
			}
		}
		free(pre);
	}
	return 0;
}

/* --- routes --- */

struct hop {
	long key; /* link * 3 + direction */
	const xmlNode *n;
};

static int cmp_hop(const void *a, const void *b)
{
	const struct hop *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	long lx = xmlGetLineNo(x->n), ly = xmlGetLineNo(y->n);
	return (lx > ly) - (lx < ly);
}

/* The <link_ctn> children of a route: declared links, a direction exactly
 * for SPLITDUPLEX ones, none twice, at least one. */
static int route_links(struct model *m, const xmlNode *r)
{
	long k = 0, cap = 0;
	struct hop *h = NULL, *more;
	int rc = 0;
	for (const xmlNode *n = r->children; n && !rc; n = n->next) {
		if (!plat_xml_is(n, "link_ctn"))
			continue;
		const char *id = plat_xml_attr_value(n, "id"),
		           *dir = plat_xml_attr_value(n, "direction");
		int d = !dir || strcmp(dir, "NONE") == 0 ? 0 : strcmp(dir, "UP") == 0 ? 1 : 2;
		long l = find(&m->links, id);
		if (l < 0)
			rc = plat_xml_fail(
			    m->c, n, "<link_ctn id=\"%s\">: no link \"%s\" declared before it", id,
			    id);
		else if (m->lk[l].kind == L_HALF)
			rc = plat_xml_fail(
			    m->c, n,
			    "<link_ctn id=\"%s\">: half of SPLITDUPLEX link \"%s\": name that "
			    "link with direction=\"UP\" or \"DOWN\"",
			    id, plat_xml_attr_value(m->lk[l].node, "id"));
		else if ((m->lk[l].kind == L_SPLIT) != (d != 0))
			rc = plat_xml_fail(
			    m->c, n,
			    d ? "<link_ctn id=\"%s\">: a direction is for SPLITDUPLEX links "
			        "only"
			      : "<link_ctn id=\"%s\">: a SPLITDUPLEX link needs "
			        "direction=\"UP\" or \"DOWN\"",
			    id);
		else if (!(more = room(h, &cap, k, sizeof *h)))
			rc = plat_xml_nomem(m->c);
		else
			(h = more)[k++] = (struct hop){3 * l + d, n};
	}
	if (!rc && k == 0)
		rc = plat_xml_fail(m->c, r, "<%s>: no <link_ctn> (SimGrid refuses empty routes)",
		                   plat_xml_name(r));
	if (!rc && k > XML_MAX_ROUTE_LINKS)
		rc = plat_xml_fail(m->c, r,
		                   "<%s>: %ld links; at most %d (SimGrid's time a message grows "
		                   "with the square of a route's length, 18 s for one 2-rank cg.S "
		                   "on 2,048 links, and it crashes on 10^5)",
		                   plat_xml_name(r), k, XML_MAX_ROUTE_LINKS);
	if (!rc)
		qsort(h, (size_t)k, sizeof *h, cmp_hop);
	for (long i = 1; i < k && !rc; i++)
		if (h[i].key == h[i - 1].key)
			rc = plat_xml_fail(m->c, h[i].n,
			                   "<%s>: link \"%s\" a second time in one route",
			                   plat_xml_name(r), plat_xml_attr_value(h[i].n, "id"));
	free(h);
	return rc;
}

/* An end of a route in zone zi: a host or router of zi, or (between
 * zones) a zone directly in zi. */
static int route_end(struct model *m, const xmlNode *r, const char *attr, int zi, int zones,
                     long *out)
{
	const char *name = plat_xml_attr_value(r, attr);
	long p = *out = find(&m->points, name);
	const char *zone = plat_xml_attr_value(m->z[zi].node, "id");
	if (p < 0)
		return plat_xml_fail(m->c, r, "<%s %s=\"%s\">: no %s \"%s\" declared before it",
		                     plat_xml_name(r), attr, name,
		                     zones ? "zone" : "host or router", name);
	if ((m->pt[p].kind == P_ZONE) != zones)
		return plat_xml_fail(
		    m->c, r, "<%s %s=\"%s\">: a %s; a %s joins %s", plat_xml_name(r), attr, name,
		    kind_names[m->pt[p].kind], plat_xml_name(r),
		    zones ? "zones (hosts: <route>)" : "hosts and routers (zones: <zoneRoute>)");
	if (m->pt[p].zone != zi)
		return plat_xml_fail(
		    m->c, r,
		    "<%s %s=\"%s\">: not directly in zone \"%s\" (SimGrid routes in "
		    "the zone holding both ends)",
		    plat_xml_name(r), attr, name, zone);
	return 0;
}

/* A gateway: a host or router inside zone point z. */
static int gateway(struct model *m, const xmlNode *r, const char *attr, long z, long *out)
{
	const char *name = plat_xml_attr_value(r, attr);
	long g = *out = find(&m->points, name);
	if (g < 0)
		return plat_xml_fail(m->c, r,
		                     "<%s %s=\"%s\">: no host or router \"%s\" declared before it",
		                     plat_xml_name(r), attr, name, name);
	if (m->pt[g].kind == P_ZONE)
		return plat_xml_fail(m->c, r,
		                     "<%s %s=\"%s\">: a zone; a gateway is a host or router",
		                     plat_xml_name(r), attr, name);
	int in = m->pt[g].zone;
	while (in >= 0 && in != m->pt[z].self)
		in = m->z[in].parent;
	if (in < 0)
		return plat_xml_fail(m->c, r, "<%s %s=\"%s\">: not inside zone \"%s\"",
		                     plat_xml_name(r), attr, name, m->pt[z].name);
	m->pt[g].required = 1;
	return 0;
}

static int add_entry(struct model *m, const xmlNode *r, int zi, long src, long dst, int reverse)
{
	ROOM(m, m->en, m->capen, m->nen);
	m->en[m->nen++] = (struct edge){zi, reverse, src, dst, r};
	return 0;
}

static int cmp_edge(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;
	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->dst != y->dst)
		return x->dst < y->dst ? -1 : 1;
	if (!x->node || !y->node) /* a key of bsearch */
		return 0;
	long lx = xmlGetLineNo(x->node), ly = xmlGetLineNo(y->node);
	return lx != ly ? (lx < ly ? -1 : 1) : x->reverse - y->reverse;
}

/* Two entries for one pair: SimGrid's routings refuse the second (after
 * sorting by pair, the second in the file follows the first). */
static int routes_once(struct model *m)
{
	const struct edge *first = NULL, *second = NULL;
	if (m->nen > 1)
		qsort(m->en, (size_t)m->nen, sizeof *m->en, cmp_edge);
	for (long i = 1; i < m->nen;
	     i++) { /* the earliest in the file, a route before a way back */
		const struct edge *a = &m->en[i - 1], *b = &m->en[i];
		long lb = xmlGetLineNo(b->node), ls = second ? xmlGetLineNo(second->node) : 0;
		if (a->src == b->src && a->dst == b->dst &&
		    (!second || lb < ls || (lb == ls && b->reverse < second->reverse))) {
			first = a;
			second = b;
		}
	}
	if (!second)
		return 0;
	return plat_xml_fail(
	    m->c, second->node,
	    second->reverse ? "<%s>: symmetrical, but there is a route from \"%s\" to \"%s\" (line "
	                      "%ld): give both with symmetrical=\"NO\""
	                    : "<%s>: a second route from \"%s\" to \"%s\" (line %ld)",
	    plat_xml_name(second->node), m->pt[second->src].name, m->pt[second->dst].name,
	    xmlGetLineNo(first->node));
}

static int has_entry(const struct model *m, long src, long dst)
{
	struct edge key = {0, 0, src, dst, NULL};
	return m->nen && bsearch(&key, m->en, (size_t)m->nen, sizeof *m->en, cmp_edge) != NULL;
}

static int add_route(struct model *m, const xmlNode *r, int zi, int zones)
{
	long src, dst, gs, gd;
	int rc = route_end(m, r, "src", zi, zones, &src);
	if (!rc)
		rc = route_end(m, r, "dst", zi, zones, &dst);
	/* SimGrid 3.32 takes a host's route to itself in a Full zone (its
	 * loopback, as in its small_platform.xml), never a zone's */
	if (!rc && src == dst && (zones || m->z[zi].routing != R_FULL))
		return plat_xml_fail(m->c, r, "<%s>: a route from \"%s\" to itself",
		                     plat_xml_name(r), m->pt[src].name);
	if (!rc && zones)
		rc = gateway(m, r, "gw_src", src, &gs);
	if (!rc && zones)
		rc = gateway(m, r, "gw_dst", dst, &gd);
	if (!rc && zones && gs == gd)
		return plat_xml_fail(m->c, r, "<%s>: gw_src and gw_dst are both \"%s\"",
		                     plat_xml_name(r), m->pt[gs].name);
	if (!rc)
		rc = route_links(m, r);
	const char *sym = plat_xml_attr_value(r, "symmetrical");
	if (!rc)
		rc = add_entry(m, r, zi, src, dst, 0);
	if (!rc && src != dst && (!sym || strcasecmp(sym, "YES") == 0))
		rc = add_entry(m, r, zi, dst, src, 1);
	return rc;
}

/* --- zones --- */

static int routing_of(struct model *m, const xmlNode *n, int *routing)
{
	static const char *const ours[] = {"Full", "Floyd", "Dijkstra", "DijkstraCache"};
	static const char *const others[] = {"Cluster", "None", "Vivaldi", "Wifi"};
	const char *r = plat_xml_attr_value(n, "routing");
	for (int i = 0; i < 4; i++) /* SimGrid ignores the case */
		if (strcasecmp(r, ours[i]) == 0) {
			*routing = i < 3 ? i : R_DIJKSTRA;
			return 0;
		}
	for (int i = 0; i < 4; i++)
		if (strcasecmp(r, others[i]) == 0) {
			*routing = R_OTHER;
			return plat_xml_unmapped(m->c, n,
			                         "<%s routing=\"%s\">: no counterpart here (Full, "
			                         "Floyd, Dijkstra or DijkstraCache)",
			                         plat_xml_name(n), r);
		}
	return plat_xml_fail(m->c, n,
	                     "<%s routing=\"%s\">: not one of SimGrid's routings (Full, Floyd, "
	                     "Dijkstra, DijkstraCache, Cluster, None, Vivaldi, Wifi)",
	                     plat_xml_name(n), r);
}

/* The hosts a <cabinet> creates (prefix, radical, suffix, as a cluster's). */
static int walk_cabinet(struct model *m, const xmlNode *n, int zone)
{
	const char *prefix = plat_xml_attr_value(n, "prefix"),
	           *suffix = plat_xml_attr_value(n, "suffix"), *id = plat_xml_attr_value(n, "id");
	if (!prefix || !suffix || !id || !plat_xml_attr_value(n, "radical"))
		return plat_xml_fail(m->c, n, "<cabinet> needs id, prefix, suffix and radical");
	struct cluster_hosts h = {m,      n,     zone, malloc(strlen(prefix) + strlen(suffix) + 32),
	                          prefix, suffix};
	if (!h.name)
		return plat_xml_nomem(m->c);
	long before = m->npt;
	int rc = plat_xml_cluster_each_host(n, cluster_host, &h);
	free(h.name);
	if (rc >= 0 && !rc)
		rc = count(m, n, &m->hosts, m->npt - before, m->c->max_hosts, "hosts");
	if (rc < 0)
		return plat_xml_fail(m->c, n, "<cabinet radical=\"%s\">: not a radical (e.g. 0-15)",
		                     plat_xml_attr_value(n, "radical"));
	return rc;
}

static int walk_zone(struct model *m, const xmlNode *n, int parent, int depth)
{
	if (depth > XML_MAX_ZONE_DEPTH)
		return plat_xml_fail(m->c, n, "zones nested more than %d deep (the limit here)",
		                     XML_MAX_ZONE_DEPTH);
	if (plat_xml_is(n, "cluster"))
		return walk_cluster(m, n, parent);
	int routing = R_FULL, zi, rc = routing_of(m, n, &routing);
	if (rc || (rc = add_zone(m, n, parent, routing, &zi)))
		return rc;
	for (const xmlNode *ch = n->children; ch && !rc; ch = ch->next) {
		char what[200];
		if (ch->type != XML_ELEMENT_NODE || plat_xml_is(ch, "prop"))
			continue;
		snprintf(what, sizeof what, "<%s id=\"%s\">", plat_xml_name(ch),
		         plat_xml_attr_value(ch, "id") ? plat_xml_attr_value(ch, "id") : "");
		if (plat_xml_is(ch, "zone") || plat_xml_is(ch, "AS") || plat_xml_is(ch, "cluster"))
			rc = walk_zone(m, ch, zi, depth + 1);
		else if (plat_xml_is(ch, "cabinet"))
			rc = walk_cabinet(m, ch, zi);
		else if (plat_xml_is(ch, "peer") &&
		         !(rc = count(m, ch, &m->hosts, 1, m->c->max_hosts, "hosts")))
			rc = add_point(m, ch, what, plat_xml_attr_value(ch, "id"), P_HOST, zi, -1);
		else if (plat_xml_is(ch, "peer"))
			;
		else if (!(plat_xml_is(ch, "route") || plat_xml_is(ch, "zoneRoute") ||
		           plat_xml_is(ch, "ASroute") || plat_xml_is(ch, "link") ||
		           plat_xml_is(ch, "host") || plat_xml_is(ch, "router")) ||
		         (routing == R_OTHER && !plat_xml_is(ch, "link") &&
		          !plat_xml_is(ch, "host") && !plat_xml_is(ch, "router")))
			; /* unmapped (xml_check.c): SimGrid's alone to check */
		else if (plat_xml_is(ch, "host") &&
		         !(rc = count(m, ch, &m->hosts, 1, m->c->max_hosts, "hosts")))
			rc = add_point(m, ch, what, plat_xml_attr_value(ch, "id"), P_HOST, zi, -1);
		else if (plat_xml_is(ch, "host"))
			;
		else if (plat_xml_is(ch, "router"))
			rc =
			    add_point(m, ch, what, plat_xml_attr_value(ch, "id"), P_ROUTER, zi, -1);
		else if (plat_xml_is(ch, "link"))
			rc = add_link(m, ch);
		else
			rc = add_route(m, ch, zi, !plat_xml_is(ch, "route"));
	}
	return rc;
}

/* --- a route between every two hosts --- */

/* Indices 0..n-1 grouped by key(i) in 0..groups-1: idx[start[g]..start[g+1]). */
static int group(long n, int groups, int (*key)(const struct model *, long), const struct model *m,
                 long **start, long **idx)
{
	*start = calloc((size_t)groups + 2, sizeof **start);
	*idx = malloc(((size_t)n + 1) * sizeof **idx);
	if (!*start || !*idx)
		return -1;
	for (long i = 0; i < n; i++)
		if (key(m, i) >= 0)
			(*start)[key(m, i) + 2]++;
	for (int g = 0; g < groups; g++)
		(*start)[g + 2] += (*start)[g + 1];
	for (long i = 0; i < n; i++)
		if (key(m, i) >= 0)
			(*idx)[(*start)[key(m, i) + 1]++] = i;
	return 0;
}

static int point_zone(const struct model *m, long i)
{
	return m->pt[i].zone;
}

static int entry_zone(const struct model *m, long i)
{
	return m->en[i].zone;
}

/* Whether point p must reach and be reached within its zone. */
static int wanted(const struct model *m, long p)
{
	return m->pt[p].kind == P_HOST || m->pt[p].required ||
	       (m->pt[p].kind == P_ZONE && m->z[m->pt[p].self].needed);
}

/* Full tables, and zones of zones whatever their routing: an entry for
 * every two wanted members (the scan stops at the first missing one, so it
 * costs at most the entries there are). */
static int complete(struct model *m, int zi, const long *mem, long k)
{
	for (long a = 0; a < k; a++)
		for (long b = 0; b < k; b++) {
			long s = mem[a], d = mem[b];
			if (s == d || !wanted(m, s) || !wanted(m, d) || has_entry(m, s, d))
				continue;
			/* unmapped: SimGrid runs it while only hosts with routes
			 * talk (netsim --hosts; sg_import.c checks the pairs) */
			return plat_xml_unmapped(
			    m->c, m->z[zi].node,
			    m->pt[s].kind == P_ZONE
			        ? "zone \"%s\": no zoneRoute from zone \"%s\" to zone "
			          "\"%s\" (a zone of zones needs one for every two, "
			          "either way): SimGrid aborts when their hosts talk"
			        : "zone \"%s\": no route from \"%s\" to \"%s\": SimGrid "
			          "aborts when they communicate",
			    plat_xml_attr_value(m->z[zi].node, "id"), m->pt[s].name, m->pt[d].name);
		}
	return 0;
}

/* Breadth-first search in the CSR graph (start, edges) of k vertices from
 * first: seen[v] set for each one reached. */
static void search(const long *start, const long *edges, long k, long first, char *seen,
                   long *queue)
{
	long head = 0, tail = 0;
	memset(seen, 0, (size_t)k);
	seen[first] = 1;
	queue[tail++] = first;
	while (head < tail)
		for (long v = queue[head++], e = start[v]; e < start[v + 1]; e++)
			if (!seen[edges[e]]) {
				seen[edges[e]] = 1;
				queue[tail++] = edges[e];
			}
}

/* Floyd and Dijkstra zones of hosts: every wanted member reaches the first
 * wanted one and back (so every two reach each other) along the routes. */
static int connected(struct model *m, int zi, const long *mem, long k, const long *ent, long ne,
                     long *local)
{
	const char *zone = plat_xml_attr_value(m->z[zi].node, "id");
	long first = -1, nw = 0;
	for (long i = 0; i < k; i++) {
		local[mem[i]] = i;
		if (wanted(m, mem[i]) && first < 0)
			first = i;
		nw += wanted(m, mem[i]);
	}
	long *start = calloc((size_t)k + 1, sizeof *start),
	     *edges = malloc(((size_t)ne + 1) * sizeof *edges),
	     *queue = malloc(((size_t)k + 1) * sizeof *queue);
	char *seen = malloc((size_t)k + 1);
	int rc = !start || !edges || !queue || !seen ? plat_xml_nomem(m->c) : 0;
	if (!rc && nw == 1 && ne == 0 && m->z[zi].routing == R_DIJKSTRA)
		rc = plat_xml_fail(m->c, m->z[zi].node,
		                   "zone \"%s\": no route names \"%s\": SimGrid's Dijkstra routing "
		                   "cannot route it, not even to itself",
		                   zone, m->pt[mem[first]].name);
	for (int dir = 0; dir < 2 && !rc && nw > 1; dir++) { /* dir 1: edges reversed */
		memset(start, 0, ((size_t)k + 1) * sizeof *start);
		for (long e = 0; e < ne; e++)
			start[local[dir ? m->en[ent[e]].dst : m->en[ent[e]].src] + 1]++;
		for (long i = 0; i < k; i++)
			start[i + 1] += start[i];
		for (long e = 0; e < ne; e++) {
			const struct edge *en = &m->en[ent[e]];
			edges[start[local[dir ? en->dst : en->src]]++] =
			    local[dir ? en->src : en->dst];
		}
		for (long i = k; i > 0; i--) /* back to the starts */
			start[i] = start[i - 1];
		start[0] = 0;
		search(start, edges, k, first, seen, queue);
		for (long i = 0; i < k && !rc; i++)
			if (wanted(m, mem[i]) && !seen[i])
				rc = plat_xml_unmapped(
				    m->c, m->z[zi].node,
				    "zone \"%s\": no route from \"%s\" to \"%s\": SimGrid "
				    "aborts when they communicate",
				    zone, m->pt[mem[dir ? i : first]].name,
				    m->pt[mem[dir ? first : i]].name);
	}
	for (long i = 0; i < k; i++)
		local[mem[i]] = -1;
	free(start);
	free(edges);
	free(queue);
	free(seen);
	return rc;
}

static int reach(struct model *m)
{
	for (long p = 0; p < m->npt; p++) {
		if (m->pt[p].zone < 0)
			continue;
		m->z[m->pt[p].zone].hosts += m->pt[p].kind == P_HOST;
		m->z[m->pt[p].zone].needed |= m->pt[p].required;
	}
	for (long zi = m->nz - 1; zi >= 0; zi--) { /* a zone comes after its parent */
		struct zone *z = &m->z[zi];
		z->needed |= z->hosts > 0;
		if (z->parent >= 0) {
			m->z[z->parent].hosts += z->hosts;
			m->z[z->parent].needed |= z->needed;
		}
	}
	long *ps = NULL, *pi = NULL, *es = NULL, *ei = NULL,
	     *local = malloc(((size_t)m->npt + 1) * sizeof *local);
	int rc = !local || group(m->npt, (int)m->nz, point_zone, m, &ps, &pi) ||
	                 group(m->nen, (int)m->nz, entry_zone, m, &es, &ei)
	             ? plat_xml_nomem(m->c)
	             : 0;
	for (long i = 0; !rc && i < m->npt; i++)
		local[i] = -1;
	for (int zi = 0; zi < m->nz && !rc; zi++) {
		const struct zone *z = &m->z[zi];
		const long *mem = pi + ps[zi], *ent = ei + es[zi];
		long k = ps[zi + 1] - ps[zi], ne = es[zi + 1] - es[zi];
		if (z->routing == R_FLOYD && k > XML_MAX_FLOYD_POINTS) {
			rc = plat_xml_fail(
			    m->c, z->node,
			    "zone \"%s\": %ld hosts, routers and zones under Floyd routing; at "
			    "most %d (SimGrid builds its table of every two in cubic time: 42 s "
			    "for 2,048, 121 s for 3,000): route it with Dijkstra, or split it into "
			    "zones",
			    plat_xml_attr_value(z->node, "id"), k, XML_MAX_FLOYD_POINTS);
			break;
		}
		/* SimGrid's clusters route every two of their hosts; R_OTHER's
		 * routes are SimGrid's to say (sg_import.c asks it) */
		if (z->routing == R_CLUSTER || z->routing == R_OTHER || !z->needed)
			continue;
		int nested = k > 0 && m->pt[mem[0]].kind == P_ZONE;
		for (long i = 0; i < k; i++)
			nested |= m->pt[mem[i]].kind == P_ZONE;
		rc = nested || z->routing == R_FULL ? complete(m, zi, mem, k)
		                                    : connected(m, zi, mem, k, ent, ne, local);
	}
	free(local);
	free(ps);
	free(pi);
	free(es);
	free(ei);
	return rc;
}

/* The hosts' names in document order (copies), or an error. */
static int host_names(const struct model *m, char ***out, long *n)
{
	char **v = malloc(((size_t)m->hosts + 1) * sizeof *v);
	long k = 0;
	for (long p = 0; v && p < m->npt; p++)
		if (m->pt[p].kind == P_HOST && !(v[k++] = strdup(m->pt[p].name))) {
			plat_xml_free_names(v, k - 1);
			v = NULL;
		}
	if (!v)
		return plat_xml_nomem(m->c);
	*out = v;
	*n = k;
	return 0;
}

void plat_xml_free_names(char **names, long n)
{
	for (long i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

/* Why SimGrid option p of a platform's <config> is refused (NULL: it is
 * SimGrid's to check): those that make SimGrid write files of its own. */
static const char *config_refused(const xmlNode *p)
{
	const char *id = plat_xml_attr_value(p, "id");
	if (!id)
		return NULL;
	if (strcmp(id, "tracing") == 0 || strncmp(id, "tracing/", 8) == 0)
		return "SimGrid's tracing writes files of its own (tracing/filename), which a "
		       "platform must not choose (give tracing options on netsim's command line, "
		       "--cfg)";
	return NULL;
}

int plat_xml_check_model(const struct xml_ctx *c, const xmlNode *root, char ***hosts, long *nhosts)
{
	struct model m = {.c = c};
	int rc = 0, top = 0;
	for (const xmlNode *ch = root->children; ch && !rc; ch = ch->next) {
		if (ch->type != XML_ELEMENT_NODE)
			continue;
		if (plat_xml_is(ch, "config")) {
			for (const xmlNode *p = ch->children; p && !rc; p = p->next) {
				const char *why =
				    p->type == XML_ELEMENT_NODE ? config_refused(p) : NULL;
				if (why)
					rc = plat_xml_fail(c, p, "<config> key '%s': %s",
					                   plat_xml_attr_value(p, "id"), why);
				else if (p->type == XML_ELEMENT_NODE)
					rc = plat_xml_unmapped(
					    c, p,
					    "<config>: SimGrid options in the platform have no "
					    "counterpart here (give them to netsim with --cfg)");
			}
		} else if (!plat_xml_is(ch, "zone") && !plat_xml_is(ch, "AS") &&
		           !plat_xml_is(ch, "cluster")) {
			continue; /* unmapped (xml_check.c: profiles, ...): SimGrid's alone */
		} else if (top++) {
			rc = plat_xml_fail(
			    c, ch,
			    "a second <%s> in <platform>: SimGrid's platform has one root "
			    "zone (put both in a zone)",
			    plat_xml_name(ch));
		} else {
			rc = walk_zone(&m, ch, -1, 1);
		}
	}
	if (!rc && !top)
		rc = plat_xml_fail(c, root, "<platform> holds no zone or cluster");
	if (!rc && !m.hosts)
		rc = plat_xml_fail(c, root, "<platform> holds no host: a machine needs nodes");
	if (!rc)
		rc = link_names_free(&m);
	if (!rc)
		rc = routes_once(&m);
	if (!rc)
		rc = reach(&m);
	if (!rc && hosts)
		rc = host_names(&m, hosts, nhosts);
	free_names(&m.points);
	free_names(&m.links);
	free(m.pt);
	free(m.z);
	free(m.lk);
	free(m.en);
	return rc;
}

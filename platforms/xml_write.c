/* SimGrid platform XML writer (see xml_write.h). Families:
 * - flat: a <cluster> without backbone (routes: the two hosts' links);
 * - kary-ntree: <cluster topology="FAT_TREE"> with topo_parameters
 *   "n;k,..,k;1,k,..,k;1,..,1" (k down ports per switch at every level, one
 *   parent per host and k per switch below the top, one link per port);
 *   a tapered tree's factors in a <prop id="placesim-taper">;
 * - torus: <cluster topology="TORUS"> with the dimensions reversed (SimGrid
 *   varies its first dimension fastest, we our last) and a loopback (its
 *   hosts have no route to themselves otherwise);
 * - mesh: a zone routed by DijkstraCache with D routers per node, one per
 *   dimension: host -> router 0, router d -> router d of each neighbour
 *   along d, router d -> router d+1 of the same node (a per-node turn link,
 *   FATPIPE, not in our model), router D-1 -> host; all links one-way, so
 *   every shortest path is dimension-ordered. Links carry our ids (l<id>),
 *   turn links are t<node>-<d>;
 * - multicluster: one zone per cluster (flat: a cluster with a router as
 *   gateway; other families as above, their first host as gateway) in a
 *   Full zone whose zoneRoutes cross the WAN links (l<id>). */
#include <libxml/xmlwriter.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "xml_write.h"

#define W(call)                                                                                    \
	do {                                                                                       \
		if ((call) < 0)                                                                    \
			goto fail;                                                                 \
	} while (0)

struct ctx {
	xmlTextWriterPtr w;
	const struct plat_machine *m;
	const struct plat_xml_opts *o;
	char buf[512];
};

static const xmlChar *X(const char *s)
{
	return (const xmlChar *)s;
}

static int attr(struct ctx *c, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int attr(struct ctx *c, const char *name, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->buf, sizeof c->buf, fmt, ap);
	va_end(ap);
	return xmlTextWriterWriteAttribute(c->w, X(name), X(c->buf));
}

static double num(const struct plat_machine *m, const char *key)
{
	return cmn_params_num(&m->params, key);
}

/* <cluster> attributes every cluster takes. */
static int cluster_common(struct ctx *c, const struct plat_machine *m, const char *id, int first,
                          int count)
{
	if (xmlTextWriterStartElement(c->w, X("cluster")) < 0 || attr(c, "id", "%s", id) < 0 ||
	    attr(c, "prefix", "node-") < 0 || attr(c, "suffix", "%s", "") < 0 ||
	    attr(c, "radical", "%d-%d", first, first + count - 1) < 0 ||
	    attr(c, "speed", "%.15gf", m->speed_flops) < 0 ||
	    attr(c, "bw", "%.15gBps", num(m, "bw")) < 0 ||
	    attr(c, "lat", "%.15gs", num(m, "lat")) < 0 ||
	    attr(c, "sharing_policy", "%s", c->o->sharing) < 0)
		return -1;
	return 0;
}

static int write_tree(struct ctx *c, const struct plat_machine *m, const char *id, int first)
{
	int k, n;
	plat_kary_ntree_shape(m, &k, &n, NULL);
	char p[256];
	int len = snprintf(p, sizeof p, "%d;", n);
	for (int part = 0; part < 3; part++) {
		for (int l = 1; l <= n; l++)
			len += snprintf(p + len, sizeof p - (size_t)len, "%s%d", l > 1 ? "," : "",
			                part == 0   ? k
			                : part == 1 ? (l == 1 ? 1 : k)
			                            : 1);
		if (part < 2)
			len += snprintf(p + len, sizeof p - (size_t)len, ";");
	}
	if (cluster_common(c, m, id, first, m->nodes) < 0 || attr(c, "topology", "FAT_TREE") < 0 ||
	    attr(c, "topo_parameters", "%s", p) < 0)
		return -1;
	const char *taper = cmn_params_str(&m->params, "taper");
	if (strcmp(taper, "1") != 0 &&
	    (xmlTextWriterStartElement(c->w, X("prop")) < 0 ||
	     attr(c, "id", PLAT_XML_TAPER_PROP) < 0 || attr(c, "value", "%s", taper) < 0 ||
	     xmlTextWriterEndElement(c->w) < 0))
		return -1;
	return xmlTextWriterEndElement(c->w);
}

static int write_torus(struct ctx *c, const struct plat_machine *m, const char *id, int first)
{
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS];
	plat_grid_shape(m, &nd, dims, wrap, NULL);
	char p[256];
	int len = 0;
	for (int d = nd - 1; d >= 0; d--) /* SimGrid: first dimension fastest */
		len += snprintf(p + len, sizeof p - (size_t)len, "%s%d", d < nd - 1 ? "," : "",
		                dims[d]);
	/* a loopback (SimGrid's default one: 10 GBps, 0 s) for messages from a
	 * host to itself: SimGrid's TORUS has no route from a host to itself */
	if (cluster_common(c, m, id, first, m->nodes) < 0 || attr(c, "topology", "TORUS") < 0 ||
	    attr(c, "topo_parameters", "%s", p) < 0 ||
	    attr(c, "loopback_bw", "10000000000Bps") < 0 || attr(c, "loopback_lat", "0s") < 0)
		return -1;
	return xmlTextWriterEndElement(c->w);
}

static int write_flat(struct ctx *c, const struct plat_machine *m, const char *id, int first,
                      int count, const char *router)
{
	if (cluster_common(c, m, id, first, count) < 0)
		return -1;
	if (router && attr(c, "router_id", "%s", router) < 0)
		return -1;
	return xmlTextWriterEndElement(c->w);
}

static int link_el(struct ctx *c, const char *id, double bw, double lat, const char *sharing)
{
	/* our links are one-way: a SHARED link used one way is one direction of a
	 * full-duplex (SPLITDUPLEX) one */
	if (strcmp(sharing, "SPLITDUPLEX") == 0)
		sharing = "SHARED";
	if (xmlTextWriterStartElement(c->w, X("link")) < 0 || attr(c, "id", "%s", id) < 0 ||
	    attr(c, "bandwidth", "%.15gBps", bw) < 0 || attr(c, "latency", "%.15gs", lat) < 0 ||
	    attr(c, "sharing_policy", "%s", sharing) < 0)
		return -1;
	return xmlTextWriterEndElement(c->w);
}

/* A <route> with one link, not symmetrical. */
static int route1(struct ctx *c, const char *src, const char *dst, const char *link)
{
	if (xmlTextWriterStartElement(c->w, X("route")) < 0 || attr(c, "src", "%s", src) < 0 ||
	    attr(c, "dst", "%s", dst) < 0 || attr(c, "symmetrical", "NO") < 0 ||
	    xmlTextWriterStartElement(c->w, X("link_ctn")) < 0 || attr(c, "id", "%s", link) < 0 ||
	    xmlTextWriterEndElement(c->w) < 0)
		return -1;
	return xmlTextWriterEndElement(c->w);
}

/* The mesh as a zone of layered routers. Node ids are offset by first
 * (their global numbering) and our link ids by link0. */
static int write_mesh(struct ctx *c, const struct plat_machine *m, const char *id, int first,
                      int link0)
{
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS];
	plat_grid_shape(m, &nd, dims, wrap, NULL);
	char a[64], b[64], l[64];
	if (xmlTextWriterStartElement(c->w, X("zone")) < 0 || attr(c, "id", "%s", id) < 0 ||
	    attr(c, "routing", "DijkstraCache") < 0)
		return -1;
	for (int v = 0; v < m->nodes; v++) {
		if (xmlTextWriterStartElement(c->w, X("host")) < 0 ||
		    attr(c, "id", "node-%d", first + v) < 0 ||
		    attr(c, "speed", "%.15gf", m->speed_flops) < 0 ||
		    xmlTextWriterEndElement(c->w) < 0)
			return -1;
		for (int d = 0; d < nd; d++)
			if (xmlTextWriterStartElement(c->w, X("router")) < 0 ||
			    attr(c, "id", "%s-r%d-%d", id, v, d) < 0 ||
			    xmlTextWriterEndElement(c->w) < 0)
				return -1;
	}
	/* our links: node -> router (src < nodes), router -> node (dst < nodes),
	 * router -> router along the dimension they differ in */
	for (int i = 0; i < m->nlinks; i++) {
		snprintf(l, sizeof l, "l%d", link0 + i);
		if (link_el(c, l, m->links[i].bw_bps, m->links[i].lat_s, c->o->sharing) < 0)
			return -1;
	}
	for (int v = 0; v < m->nodes; v++)
		for (int d = 0; d + 1 < nd; d++) {
			snprintf(l, sizeof l, "%s-t%d-%d", id, v, d);
			if (link_el(c, l, 1e15, 0, "FATPIPE") < 0)
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
		if (route1(c, a, b, l) < 0)
			return -1;
	}
	for (int v = 0; v < m->nodes; v++)
		for (int d = 0; d + 1 < nd; d++) {
			snprintf(a, sizeof a, "%s-r%d-%d", id, v, d);
			snprintf(b, sizeof b, "%s-r%d-%d", id, v, d + 1);
			snprintf(l, sizeof l, "%s-t%d-%d", id, v, d);
			if (route1(c, a, b, l) < 0)
				return -1;
		}
	return xmlTextWriterEndElement(c->w);
}

/* One machine (or one cluster of a multi-cluster) as a zone or cluster. */
static int write_family(struct ctx *c, const struct plat_machine *m, const char *id, int first,
                        int link0)
{
	const char *name = m->ops->base.name;
	if (strcmp(name, "kary-ntree") == 0)
		return write_tree(c, m, id, first);
	if (strcmp(name, "torus") == 0)
		return write_torus(c, m, id, first);
	if (strcmp(name, "mesh") == 0)
		return write_mesh(c, m, id, first, link0);
	return write_flat(c, m, id, first, m->nodes, NULL);
}

static int zone_route(struct ctx *c, int ca, int cb, const char *gwa, const char *gwb,
                      const int *links, int n)
{
	if (xmlTextWriterStartElement(c->w, X("zoneRoute")) < 0 ||
	    attr(c, "src", "cluster-%d", ca) < 0 || attr(c, "dst", "cluster-%d", cb) < 0 ||
	    attr(c, "gw_src", "%s", gwa) < 0 || attr(c, "gw_dst", "%s", gwb) < 0 ||
	    attr(c, "symmetrical", "NO") < 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (xmlTextWriterStartElement(c->w, X("link_ctn")) < 0 ||
		    attr(c, "id", "l%d", links[i]) < 0 || xmlTextWriterEndElement(c->w) < 0)
			return -1;
	return xmlTextWriterEndElement(c->w);
}

static int write_multicluster(struct ctx *c, const struct plat_machine *m)
{
	int C;
	plat_multicluster_shape(m, &C, NULL, NULL, NULL);
	int first[PLAT_MAX_CLUSTERS], size[PLAT_MAX_CLUSTERS];
	plat_multicluster_shape(m, &C, first, size, NULL);
	const struct plat_machine *inner = plat_multicluster_inner(m);
	if (xmlTextWriterStartElement(c->w, X("zone")) < 0 || attr(c, "id", "world") < 0 ||
	    attr(c, "routing", "Full") < 0)
		return -1;
	char id[64], gwa[64], gwb[64];
	for (int k = 0; k < C; k++) {
		snprintf(id, sizeof id, "cluster-%d", k);
		if (inner) {
			if (write_family(c, inner, id, first[k], k * inner->nlinks) < 0)
				return -1;
		} else {
			snprintf(gwa, sizeof gwa, "cluster-%d-gw", k);
			if (write_flat(c, m, id, first[k], size[k], gwa) < 0)
				return -1;
		}
	}
	/* the WAN links: every link whose ends are both gateways or the backbone */
	int wan0 = plat_multicluster_wan0(m), links[8], n;
	char l[64];
	for (int i = wan0; i < m->nlinks; i++) {
		snprintf(l, sizeof l, "l%d", i);
		if (link_el(c, l, m->links[i].bw_bps, m->links[i].lat_s, c->o->sharing) < 0)
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
			n = plat_multicluster_wan_route(m, a, b, links);
			if (zone_route(c, a, b, gwa, gwb, links, n) < 0)
				return -1;
		}
	return xmlTextWriterEndElement(c->w);
}

int plat_xml_write(const struct plat_machine *m, const struct plat_xml_opts *o, const char *path,
                   struct cmn_err *e)
{
	struct ctx c = {.m = m, .o = o};
	c.w = xmlNewTextWriterFilename(path, 0);
	if (!c.w)
		return cmn_err_set(e, CMN_EIO, "%s: cannot write", path);
	char comment[1024];
	snprintf(comment, sizeof comment,
	         " Generated by platgen %s\n     machine %s\n     link sharing %s (one-way links "
	         "spelled out: SHARED) ",
	         o->command ? o->command : "", m->spec, o->sharing);
	W(xmlTextWriterSetIndent(c.w, 1));
	W(xmlTextWriterStartDocument(c.w, NULL, "UTF-8", NULL));
	W(xmlTextWriterWriteDTD(c.w, X("platform"), NULL, X("https://simgrid.org/simgrid.dtd"),
	                        NULL));
	W(xmlTextWriterWriteComment(c.w, X(comment)));
	W(xmlTextWriterStartElement(c.w, X("platform")));
	W(xmlTextWriterWriteAttribute(c.w, X("version"), X("4.1")));
	if (strcmp(m->ops->base.name, "multicluster") == 0) {
		W(write_multicluster(&c, m));
	} else if (strcmp(m->ops->base.name, "mesh") == 0) {
		W(write_mesh(&c, m, "mesh", 0, 0));
	} else {
		/* a cluster is a zone of its own: wrap it so every file has one root zone */
		W(xmlTextWriterStartElement(c.w, X("zone")));
		W(xmlTextWriterWriteAttribute(c.w, X("id"), X("world")));
		W(xmlTextWriterWriteAttribute(c.w, X("routing"), X("Full")));
		W(write_family(&c, m, "machine", 0, 0));
		W(xmlTextWriterEndElement(c.w));
	}
	W(xmlTextWriterEndElement(c.w));
	W(xmlTextWriterEndDocument(c.w));
	xmlFreeTextWriter(c.w);
	return 0;
fail:
	xmlFreeTextWriter(c.w);
	return cmn_err_set(e, CMN_EIO, "%s: libxml2 could not write the platform", path);
}

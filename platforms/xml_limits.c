/* What a platform file that maps onto a family holds beyond that family's
 * model (xml_internal.h, plat_xml_limits): the family has one link
 * bandwidth and latency, one host speed, hosts of one core, links used one
 * way (a cluster's SPLITDUPLEX links), no backbone and instantaneous turn
 * links in a mesh. A file that differs (a hand-edited link, a SHARED
 * cluster, ...) keeps its family's topology for the allocators, and the
 * difference goes to the machine's limits: our own engines and models
 * refuse it, quoting them, and SimGrid's engines simulate the file. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "xml_internal.h"
#include "xml_read.h"

enum { L_SHARING, L_CORES, L_BACKBONE, L_CLUSTER, L_HOST, L_LINK, L_WAN, L_TURN, L_N };

struct lim {
	char *buf;
	size_t len;
	int said[L_N];                                  /* one instance of each class is told */
	const xmlNode *cluster0, *host0, *link0, *wan0; /* the first of each, compared */
};

static void add(struct lim *l, int cls, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void add(struct lim *l, int cls, const char *fmt, ...)
{
	if (l->said[cls]++)
		return;
	size_t used = strlen(l->buf);
	if (used + 3 >= l->len)
		return;
	if (used)
		used += (size_t)snprintf(l->buf + used, l->len - used, "; ");
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(l->buf + used, l->len - used, fmt, ap);
	va_end(ap);
	if (n >= 0 && used + (size_t)n >= l->len && l->len > 4) /* cut: say so */
		strcpy(l->buf + l->len - 4, "...");
}

static long line(const xmlNode *n)
{
	return xmlGetLineNo(n);
}

static const char *id(const xmlNode *n)
{
	const char *s = plat_xml_attr_value(n, "id");
	return s ? s : "";
}

static double num(const xmlNode *n, const char *attr, char kind)
{
	const char *s = plat_xml_attr_value(n, attr);
	return s ? plat_xml_value(s, kind) : 0;
}

/* Attribute attr of n against the same of the first element ref: the
 * class told when they differ. */
static void same(struct lim *l, int cls, const char *what, const xmlNode *ref, const xmlNode *n,
                 const char *attr, char kind)
{
	if (ref == n || num(ref, attr, kind) == num(n, attr, kind))
		return;
	add(l, cls,
	    "%s of different %s (<%s id=\"%s\"> at line %ld: %s, <%s id=\"%s\"> at line %ld: %s)",
	    what, attr, plat_xml_name(ref), id(ref), line(ref),
	    plat_xml_attr_value(ref, attr) ? plat_xml_attr_value(ref, attr) : "0", plat_xml_name(n),
	    id(n), line(n), plat_xml_attr_value(n, attr) ? plat_xml_attr_value(n, attr) : "0");
}

static void cores(struct lim *l, const xmlNode *n)
{
	const char *c = plat_xml_attr_value(n, "core");
	if (c && strcmp(c, "1") != 0)
		add(l, L_CORES, "hosts of %s cores (<%s id=\"%s\"> at line %ld)", c,
		    plat_xml_name(n), id(n), line(n));
}

/* Whether cluster n's backbone never changes a time: no latency, and room
 * for every host's link at once (SHARED) or for one (FATPIPE). */
static int idle_backbone(const xmlNode *n)
{
	struct cmn_err e;
	struct xml_ctx c = {"", &e, XML_MAX_HOSTS, NULL};
	struct xml_cluster cl;
	if (num(n, "bb_lat", 't') != 0 || plat_xml_cluster_read(&c, n, &cl))
		return 0;
	const char *p = plat_xml_attr_value(n, "bb_sharing_policy");
	double need = num(n, "bw", 'b') * (p && strcmp(p, "FATPIPE") == 0 ? 1 : (double)cl.hosts);
	return num(n, "bb_bw", 'b') >= need;
}

static void cluster(struct lim *l, const xmlNode *n)
{
	const char *p = plat_xml_attr_value(n, "sharing_policy");
	if (p && strcmp(p, "SPLITDUPLEX") != 0 && strcmp(p, "FULLDUPLEX") != 0)
		add(l, L_SHARING,
		    "links each shared by its two directions (<cluster id=\"%s\" "
		    "sharing_policy=\"%s\"> at line %ld%s)",
		    id(n), p, line(n),
		    strcmp(p, "FATPIPE") == 0 ? ", which SimGrid 3.32 builds as SHARED links" : "");
	if (plat_xml_attr_value(n, "bb_bw") && !idle_backbone(n))
		add(l, L_BACKBONE,
		    "a backbone that takes time or bandwidth (<cluster id=\"%s\" bb_bw=\"%s\" "
		    "bb_lat=\"%s\"> at line %ld)",
		    id(n), plat_xml_attr_value(n, "bb_bw"),
		    plat_xml_attr_value(n, "bb_lat") ? plat_xml_attr_value(n, "bb_lat") : "0",
		    line(n));
	cores(l, n);
	if (!l->cluster0)
		l->cluster0 = n;
	same(l, L_CLUSTER, "clusters", l->cluster0, n, "bw", 'b');
	same(l, L_CLUSTER, "clusters", l->cluster0, n, "lat", 't');
	same(l, L_CLUSTER, "clusters", l->cluster0, n, "speed", 'f');
}

static void host(struct lim *l, const xmlNode *n)
{
	cores(l, n);
	if (!l->host0)
		l->host0 = n;
	same(l, L_HOST, "hosts", l->host0, n, "speed", 'f');
}

/* A link of zone z: a mesh's own link or turn link (DijkstraCache, platgen's
 * mesh), or a multi-cluster's WAN link. */
static void wire(struct lim *l, const xmlNode *z, const xmlNode *n)
{
	const char *zid = id(z), *p = plat_xml_attr_value(n, "sharing_policy");
	size_t zl = strlen(zid);
	int mesh = plat_xml_attr_value(z, "routing") &&
	           strcasecmp(plat_xml_attr_value(z, "routing"), "DijkstraCache") == 0;
	if (mesh && strncmp(id(n), zid, zl) == 0 && id(n)[zl] == '-' && id(n)[zl + 1] == 't') {
		if (!p || strcmp(p, "FATPIPE") != 0 || num(n, "latency", 't') != 0 ||
		    num(n, "bandwidth", 'b') < 1e15)
			add(l, L_TURN,
			    "a turn link that takes time (<link id=\"%s\"> at line %ld: the mesh's "
			    "turn links are FATPIPE, 1e15Bps and 0s)",
			    id(n), line(n));
		return;
	}
	if (p && strcmp(p, "FATPIPE") == 0)
		add(l, L_SHARING, "FATPIPE links (<link id=\"%s\"> at line %ld)", id(n), line(n));
	const xmlNode **ref = mesh ? &l->link0 : &l->wan0;
	if (!*ref)
		*ref = n;
	same(l, mesh ? L_LINK : L_WAN, mesh ? "links" : "WAN links", *ref, n, "bandwidth", 'b');
	same(l, mesh ? L_LINK : L_WAN, mesh ? "links" : "WAN links", *ref, n, "latency", 't');
}

static void walk(struct lim *l, const xmlNode *parent)
{
	for (const xmlNode *c = parent->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (plat_xml_is(c, "cluster"))
			cluster(l, c);
		else if (plat_xml_is(c, "host"))
			host(l, c);
		else if (plat_xml_is(c, "link"))
			wire(l, parent, c);
		else if (plat_xml_is(c, "zone") || plat_xml_is(c, "AS"))
			walk(l, c);
	}
}

void plat_xml_limits(const xmlNode *root, char *buf, size_t len)
{
	struct lim l = {buf, len, {0}, NULL, NULL, NULL, NULL};
	if (len)
		buf[0] = '\0';
	if (root && len)
		walk(&l, root);
}

/* SimGrid platform XML reader (see xml_read.h): validation, then mapping to
 * an equivalent machine specification built by plat_machine_create(). */
#include <errno.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xml_read.h"

/* --- values with units --- */

struct unit {
	const char *suffix;
	double scale;
};

static const struct unit speed_units[] = {{"Yf", 1e24}, {"Zf", 1e21}, {"Ef", 1e18}, {"Pf", 1e15},
                                          {"Tf", 1e12}, {"Gf", 1e9},  {"Mf", 1e6},  {"kf", 1e3},
                                          {"f", 1},     {NULL, 0}};
static const struct unit bw_units[] = {
    {"TBps", 1e12},          {"GBps", 1e9},        {"MBps", 1e6},
    {"kBps", 1e3},           {"Bps", 1},           {"TiBps", 1099511627776.0},
    {"GiBps", 1073741824.0}, {"MiBps", 1048576.0}, {"KiBps", 1024.0},
    {"Tbps", 1e12 / 8},      {"Gbps", 1e9 / 8},    {"Mbps", 1e6 / 8},
    {"kbps", 1e3 / 8},       {"bps", 1.0 / 8},     {NULL, 0}};
static const struct unit time_units[] = {{"w", 604800}, {"d", 86400}, {"h", 3600},  {"m", 60},
                                         {"ms", 1e-3},  {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12},
                                         {"s", 1},      {NULL, 0}};

double plat_xml_value(const char *text, char kind)
{
	const struct unit *u = kind == 'f' ? speed_units : kind == 'b' ? bw_units : time_units;
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	if (end == text || errno || !isfinite(v) || v < 0)
		return -1;
	for (; u->suffix; u++)
		if (strcmp(end, u->suffix) == 0)
			return v * u->scale;
	return -1;
}

/* --- validation --- */

struct rule {
	const char *element;
	const char *attrs; /* space-separated, '!' before a required one */
};

/* The elements and attributes of SimGrid 3.32's platform DTD we accept. */
static const struct rule rules[] = {
    {"platform", "!version"},
    {"zone", "!id !routing"},
    {"AS", "!id !routing"},
    {"cluster", "!id !prefix !suffix !radical !speed core !bw !lat sharing_policy topology "
                "topo_parameters bb_bw bb_lat bb_sharing_policy router_id limiter_link "
                "loopback_bw loopback_lat"},
    {"host", "!id !speed core availability_file state_file pstate coordinates"},
    {"router", "!id coordinates"},
    {"link", "!id !bandwidth latency sharing_policy bandwidth_file latency_file state_file"},
    {"route", "!src !dst symmetrical"},
    {"zoneRoute", "!src !dst !gw_src !gw_dst symmetrical"},
    {"ASroute", "!src !dst !gw_src !gw_dst symmetrical"},
    {"link_ctn", "!id direction"},
    {"prop", "!id !value"},
    {"config", "id"},
    {NULL, NULL},
};

struct reader {
	const char *path;
	struct cmn_err *e;
	/* ids seen: links, and every host/router/zone/cluster */
	char **links, **ids;
	size_t nlinks, nids, caplinks, capids;
};

static int fail(struct reader *r, const xmlNode *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct reader *r, const xmlNode *n, const char *fmt, ...)
{
	char msg[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return cmn_err_set(r->e, CMN_EINPUT, "%s:%ld: error: %s", r->path, n ? xmlGetLineNo(n) : 0L,
	                   msg);
}

static const char *str_attr(const xmlNode *n, const char *name)
{
	for (const xmlAttr *a = n->properties; a; a = a->next)
		if (strcmp((const char *)a->name, name) == 0 && a->children)
			return (const char *)a->children->content;
	return NULL;
}

/* Whether word is in the space-separated list ('!' marks required ones). */
static int has_word(const char *list, const char *word)
{
	size_t wl = strlen(word);
	for (const char *p = list; *p;) {
		p += *p == '!';
		size_t l = strcspn(p, " ");
		if (l == wl && strncmp(p, word, l) == 0)
			return 1;
		p += l;
		while (*p == ' ')
			p++;
	}
	return 0;
}

static int push(char ***v, size_t *n, size_t *cap, const char *s)
{
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 256;
		char **nv = realloc(*v, c * sizeof *nv);
		if (!nv)
			return -1;
		*v = nv;
		*cap = c;
	}
	return ((*v)[(*n)++] = strdup(s)) ? 0 : -1;
}

static int seen(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return 1;
	return 0;
}

/* Element names, attributes, values and ids; link references after. */
static int check_element(struct reader *r, const xmlNode *n)
{
	const char *el = (const char *)n->name;
	const struct rule *ru = rules;
	while (ru->element && strcmp(ru->element, el) != 0)
		ru++;
	if (!ru->element)
		return fail(r, n, "<%s> is not a platform element SimGrid 3.32 knows", el);
	for (const xmlAttr *a = n->properties; a; a = a->next)
		if (!has_word(ru->attrs, (const char *)a->name))
			return fail(r, n, "<%s> has no attribute '%s'", el, (const char *)a->name);
	for (const char *p = ru->attrs; *p;) { /* required ones */
		int req = *p == '!';
		p += req;
		size_t l = strcspn(p, " ");
		char name[64];
		snprintf(name, sizeof name, "%.*s", (int)l, p);
		if (req && !str_attr(n, name))
			return fail(r, n, "<%s> needs attribute '%s'", el, name);
		p += l;
		while (*p == ' ')
			p++;
	}
	static const struct {
		const char *attr;
		char kind;
	} values[] = {{"speed", 'f'},   {"bw", 'b'},          {"bandwidth", 'b'},
	              {"bb_bw", 'b'},   {"loopback_bw", 'b'}, {"lat", 't'},
	              {"latency", 't'}, {"bb_lat", 't'},      {"loopback_lat", 't'}};
	for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
		const char *v = str_attr(n, values[i].attr);
		if (v && strcmp(el, "prop") != 0 && plat_xml_value(v, values[i].kind) < 0)
			return fail(r, n, "<%s %s=\"%s\">: not a number with a %s unit", el,
			            values[i].attr, v,
			            values[i].kind == 'f'   ? "speed (f, Gf, ...)"
			            : values[i].kind == 'b' ? "bandwidth (Bps, GBps, Mbps, ...)"
			                                    : "time (s, ms, us, ...)");
	}
	const char *id = str_attr(n, "id");
	if (id && strcmp(el, "link_ctn") && strcmp(el, "prop") && strcmp(el, "config")) {
		int is_link = strcmp(el, "link") == 0;
		if (seen(is_link ? r->links : r->ids, is_link ? r->nlinks : r->nids, id))
			return fail(r, n, "<%s id=\"%s\">: the id is used twice", el, id);
		if (is_link ? push(&r->links, &r->nlinks, &r->caplinks, id)
		            : push(&r->ids, &r->nids, &r->capids, id))
			return cmn_err_set(r->e, CMN_ENOMEM, "out of memory");
	}
	return 0;
}

static int walk_check(struct reader *r, const xmlNode *n)
{
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		int rc = check_element(r, n);
		if (!rc)
			rc = walk_check(r, n->children);
		if (rc)
			return rc;
	}
	return 0;
}

static int walk_refs(struct reader *r, const xmlNode *n)
{
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (strcmp((const char *)n->name, "link_ctn") == 0) {
			const char *id = str_attr(n, "id");
			if (!seen(r->links, r->nlinks, id))
				return fail(r, n, "<link_ctn id=\"%s\">: no such link", id);
		}
		int rc = walk_refs(r, n->children);
		if (rc)
			return rc;
	}
	return 0;
}

/* --- mapping --- */

static int count_radical(const char *radical)
{
	int total = 0;
	for (const char *p = radical; *p;) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p)
			return -1;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (b < a || (*end && *end != ','))
			return -1;
		total += (int)(b - a + 1);
		p = *end ? end + 1 : end;
	}
	return total;
}

/* Link and host parameters of a cluster as spec keys. */
static void cluster_params(const xmlNode *c, char *buf, size_t len)
{
	snprintf(buf, len, ",bw=%.15g,lat=%.15g,speed=%.15g",
	         plat_xml_value(str_attr(c, "bw"), 'b'), plat_xml_value(str_attr(c, "lat"), 't'),
	         plat_xml_value(str_attr(c, "speed"), 'f'));
}

/* The value of the <prop id="id"> child of n, or NULL. */
static const char *prop_value(const xmlNode *n, const char *id)
{
	for (const xmlNode *c = n->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, "prop") == 0 &&
		    str_attr(c, "id") && strcmp(str_attr(c, "id"), id) == 0)
			return str_attr(c, "value");
	return NULL;
}

/* The spec of a cluster element, or an error. */
static int cluster_spec(struct reader *r, const xmlNode *c, char *spec, size_t len)
{
	const char *topo = str_attr(c, "topology"), *tp = str_attr(c, "topo_parameters");
	char params[256];
	cluster_params(c, params, sizeof params);
	int count = count_radical(str_attr(c, "radical"));
	if (count <= 0)
		return fail(r, c, "<cluster radical=\"%s\">: not a list of ids and ranges",
		            str_attr(c, "radical"));
	if (!topo || strcmp(topo, "FLAT") == 0) {
		snprintf(spec, len, "flat:nodes=%d%s", count, params);
		return 0;
	}
	if (!tp)
		return fail(r, c, "<cluster topology=\"%s\"> needs topo_parameters", topo);
	if (strcmp(topo, "TORUS") == 0) {
		int d[PLAT_MAX_DIMS], nd = 0;
		for (const char *p = tp; *p && nd < PLAT_MAX_DIMS;) {
			char *end;
			long v = strtol(p, &end, 10);
			if (end == p || v < 1 || (*end && *end != ','))
				return fail(r, c,
				            "<cluster topo_parameters=\"%s\">: not a TORUS shape",
				            tp);
			d[nd++] = (int)v;
			p = *end ? end + 1 : end;
		}
		int len0 = snprintf(spec, len, "torus:dims=");
		for (int i = nd - 1; i >= 0; i--) /* ours: the last dimension fastest */
			len0 += snprintf(spec + len0, len - (size_t)len0, "%s%d",
			                 i < nd - 1 ? "x" : "", d[i]);
		snprintf(spec + len0, len - (size_t)len0, "%s", params);
		return 0;
	}
	if (strcmp(topo, "FAT_TREE") == 0) {
		int n, k = -1, ok = 1, off = 0;
		if (sscanf(tp, "%d;%n", &n, &off) != 1 || n < 1 || n > 12)
			ok = 0;
		const char *p = tp + off;
		for (int part = 0; part < 3 && ok; part++)
			for (int l = 1; l <= n && ok; l++) {
				char *end;
				long v = strtol(p, &end, 10);
				if (end == p)
					ok = 0;
				if (part == 0 && l == 1)
					k = (int)v;
				int want = part == 0 ? k : part == 1 ? (l == 1 ? 1 : k) : 1;
				ok = ok && v == want;
				p = end;
				if (*p == ',' || *p == ';')
					p++;
			}
		if (!ok)
			return fail(
			    r, c,
			    "<cluster topo_parameters=\"%s\">: a FAT_TREE other than a k-ary "
			    "n-tree (n;k,..;1,k,..;1,..) has no counterpart here",
			    tp);
		const char *taper = prop_value(c, PLAT_XML_TAPER_PROP);
		if (taper && (strpbrk(taper, ",:;=") || strlen(taper) >= CMN_PARAM_STR))
			return fail(r, c, "<prop id=\"%s\" value=\"%s\">: not a taper list",
			            PLAT_XML_TAPER_PROP, taper);
		snprintf(spec, len, "kary-ntree:k=%d,n=%d%s%s%s", k, n, taper ? ",taper=" : "",
		         taper ? taper : "", params);
		struct plat_machine *check;
		struct cmn_err e2;
		if (taper && plat_machine_create(spec, &check, &e2))
			return fail(r, c, "<prop id=\"%s\">: %s", PLAT_XML_TAPER_PROP, e2.msg);
		if (taper)
			plat_machine_destroy(check);
		return 0;
	}
	return fail(r, c, "<cluster topology=\"%s\"> has no counterpart here", topo);
}

static const xmlNode *first_child(const xmlNode *n, const char *name)
{
	for (const xmlNode *c = n ? n->children : NULL; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE &&
		    (!name || strcmp((const char *)c->name, name) == 0))
			return c;
	return NULL;
}

static int elements(const xmlNode *n)
{
	int k = 0;
	for (const xmlNode *c = n->children; c; c = c->next)
		k += c->type == XML_ELEMENT_NODE;
	return k;
}

/* platgen's mesh zone: routers <zone>-r<node>-<d>, one-way links. */
static int mesh_spec(struct reader *r, const xmlNode *z, char *spec, size_t len, int *nlinks)
{
	const char *zid = str_attr(z, "id");
	char pre[160];
	int N = 0, D = 0;
	long stride[PLAT_MAX_DIMS];
	const xmlNode *host = NULL, *link = NULL;
	for (int d = 0; d < PLAT_MAX_DIMS; d++)
		stride[d] = -1;
	*nlinks = 0;
	for (const xmlNode *c = z->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		const char *el = (const char *)c->name;
		if (strcmp(el, "host") == 0) {
			N++;
			host = host ? host : c;
		} else if (strcmp(el, "link") == 0) {
			(*nlinks)++;
			link = link ? link : c;
		} else if (strcmp(el, "route") == 0) {
			long a[2];
			int da = -1, db = -1;
			const char *ends[2] = {str_attr(c, "src"), str_attr(c, "dst")};
			for (int k = 0; k < 2; k++) { /* <zone>-r<node>-<d> */
				snprintf(pre, sizeof pre, "%s-r", zid);
				a[k] = -1;
				if (strncmp(ends[k], pre, strlen(pre)) != 0)
					continue;
				const char *p = ends[k] + strlen(pre);
				char *end;
				a[k] = strtol(p, &end, 10);
				int d = *end == '-' ? atoi(end + 1) : -1;
				if (k == 0)
					da = d;
				else
					db = d;
				if (d + 1 > D)
					D = d + 1;
			}
			if (a[0] >= 0 && a[1] >= 0 && da == db && da >= 0 && da < PLAT_MAX_DIMS) {
				long g = a[1] > a[0] ? a[1] - a[0] : a[0] - a[1];
				if (stride[da] < 0 || g < stride[da])
					stride[da] = g;
			}
		}
	}
	if (N == 0 || D == 0 || !host || !link)
		return fail(r, z,
		            "<zone id=\"%s\">: not a platgen mesh (hosts, <zone>-r<node>-<d> "
		            "routers, links)",
		            zid);
	int dims[PLAT_MAX_DIMS];
	long st[PLAT_MAX_DIMS];
	for (int d = 0; d < D; d++) /* a layer without links: a dimension of 1 */
		st[d] = stride[d] > 0 ? stride[d] : d == 0 ? N : st[d - 1];
	long prod = 1;
	for (int d = 0; d < D; d++) {
		long above = d == 0 ? N : st[d - 1];
		if (st[d] <= 0 || above % st[d])
			return fail(r, z, "<zone id=\"%s\">: router links do not form a mesh", zid);
		dims[d] = (int)(above / st[d]);
		prod *= dims[d];
	}
	if (prod != N || st[D - 1] != 1)
		return fail(r, z, "<zone id=\"%s\">: router links do not form a mesh of %d hosts",
		            zid, N);
	int l = snprintf(spec, len, "mesh:dims=");
	for (int d = 0; d < D; d++)
		l += snprintf(spec + l, len - (size_t)l, "%s%d", d ? "x" : "", dims[d]);
	snprintf(spec + l, len - (size_t)l, ",bw=%.15g,lat=%.15g,speed=%.15g",
	         plat_xml_value(str_attr(link, "bandwidth"), 'b'),
	         str_attr(link, "latency") ? plat_xml_value(str_attr(link, "latency"), 't') : 0,
	         plat_xml_value(str_attr(host, "speed"), 'f'));
	*nlinks -= (D - 1) * N; /* turn links are not in our model */
	return 0;
}

/* One cluster or zone of a multi-cluster (or a whole one-part platform). */
static int part_spec(struct reader *r, const xmlNode *n, char *spec, size_t len, int *nlinks)
{
	*nlinks = -1;
	if (strcmp((const char *)n->name, "cluster") == 0)
		return cluster_spec(r, n, spec, len);
	const char *routing = str_attr(n, "routing");
	if (routing && strcmp(routing, "DijkstraCache") == 0)
		return mesh_spec(r, n, spec, len, nlinks);
	return fail(r, n,
	            "<%s id=\"%s\" routing=\"%s\">: not a cluster or a platgen mesh: no "
	            "counterpart here",
	            (const char *)n->name, str_attr(n, "id"), routing ? routing : "");
}

/* platgen's multi-cluster: a Full zone of clusters or zones, WAN links and
 * zoneRoutes (one WAN link each: mesh; two: backbone). */
static int multi_spec(struct reader *r, const xmlNode *z, char *spec, size_t len)
{
	int C = 0, sizes[4096], wan = 0, flat = 1;
	char inner[256] = "", first_inner[256] = "", sizelist[4096] = "";
	const xmlNode *wlink = NULL, *flat1 = NULL;
	for (const xmlNode *c = z->children; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		const char *el = (const char *)c->name;
		if (strcmp(el, "link") == 0) {
			wlink = wlink ? wlink : c;
		} else if (strcmp(el, "zoneRoute") == 0 || strcmp(el, "ASroute") == 0) {
			int k = 0;
			for (const xmlNode *l = c->children; l; l = l->next)
				k += l->type == XML_ELEMENT_NODE;
			if (wan && wan != k)
				return fail(r, c, "zoneRoutes with %d and %d WAN links", wan, k);
			wan = k;
		} else if (strcmp(el, "cluster") == 0 || strcmp(el, "zone") == 0) {
			if (C == 4096)
				return fail(r, c, "too many clusters");
			int nl;
			int rc = part_spec(r, c, inner, sizeof inner, &nl);
			if (rc)
				return rc;
			int is_flat = strcmp(el, "cluster") == 0 && str_attr(c, "router_id") &&
			              strncmp(inner, "flat:", 5) == 0;
			if (is_flat)
				flat1 = flat1 ? flat1 : c;
			flat = C == 0 ? is_flat : flat;
			if (!is_flat) {
				if (C && strcmp(inner, first_inner) != 0)
					return fail(r, c,
					            "clusters of different families: %s and %s",
					            first_inner, inner);
				snprintf(first_inner, sizeof first_inner, "%s", inner);
			}
			struct plat_machine *m;
			struct cmn_err e2;
			if (plat_machine_create(inner, &m, &e2))
				return fail(r, c, "%s", e2.msg);
			sizes[C++] = m->nodes;
			plat_machine_destroy(m);
		} else {
			return fail(r, c, "<%s> in a multi-cluster zone", el);
		}
	}
	if (C < 2 || !wlink || (wan != 1 && wan != 2))
		return fail(r, z,
		            "<zone id=\"%s\">: not a platgen multi-cluster (clusters, WAN links, "
		            "zoneRoutes)",
		            str_attr(z, "id"));
	int uniform = 1, l = 0;
	for (int c = 0; c < C; c++) {
		uniform = uniform && sizes[c] == sizes[0];
		l += snprintf(sizelist + l, sizeof sizelist - (size_t)l, "%s%d", c ? "/" : "",
		              sizes[c]);
	}
	char cluster[300] = "flat", tail[256] = "";
	if (!flat) { /* "kary-ntree:k=4,n=2,bw=.." -> "kary-ntree;k=4;n=2;bw=.." */
		snprintf(cluster, sizeof cluster, "%s", first_inner);
		for (char *p = cluster; *p; p++)
			if (*p == ':' || *p == ',')
				*p = ';';
	} else {
		snprintf(tail, sizeof tail, ",bw=%.15g,lat=%.15g,speed=%.15g",
		         plat_xml_value(str_attr(flat1, "bw"), 'b'),
		         plat_xml_value(str_attr(flat1, "lat"), 't'),
		         plat_xml_value(str_attr(flat1, "speed"), 'f'));
	}
	l = snprintf(spec, len, "multicluster:clusters=%d,", C);
	if (uniform || !flat)
		l += snprintf(spec + l, len - (size_t)l, "size=%d", sizes[0]);
	else
		l += snprintf(spec + l, len - (size_t)l, "sizes=%s", sizelist);
	snprintf(
	    spec + l, len - (size_t)l, ",cluster=%s,wan=%s,wan_bw=%.15g,wan_lat=%.15g%s", cluster,
	    wan == 2 ? "backbone" : "mesh", plat_xml_value(str_attr(wlink, "bandwidth"), 'b'),
	    str_attr(wlink, "latency") ? plat_xml_value(str_attr(wlink, "latency"), 't') : 0, tail);
	return 0;
}

/* The platform's machine: one cluster (bare or alone in a zone), a platgen
 * mesh zone, or a platgen multi-cluster zone. */
static int map(struct reader *r, const xmlNode *platform, char *spec, size_t len, int *nlinks)
{
	const xmlNode *top = first_child(platform, NULL);
	*nlinks = -1;
	if (!top)
		return fail(r, platform, "<platform> holds no zone or cluster");
	if (elements(platform) != 1)
		return fail(r, top,
		            "a platform of several top-level zones has no counterpart here");
	if (strcmp((const char *)top->name, "cluster") == 0)
		return cluster_spec(r, top, spec, len);
	const xmlNode *only = first_child(top, NULL);
	if (only && strcmp((const char *)only->name, "cluster") == 0 && elements(top) == 1)
		return cluster_spec(r, only, spec, len);
	const char *routing = str_attr(top, "routing");
	if (routing && strcmp(routing, "DijkstraCache") == 0)
		return mesh_spec(r, top, spec, len, nlinks);
	if (routing && strcmp(routing, "Full") == 0)
		return multi_spec(r, top, spec, len);
	return fail(r, top, "<%s id=\"%s\" routing=\"%s\">: no counterpart here",
	            (const char *)top->name, str_attr(top, "id"), routing ? routing : "");
}

int plat_load(const char *path, struct plat_machine **out, struct cmn_err *e)
{
	*out = NULL;
	xmlDocPtr doc = xmlReadFile(path, NULL,
	                            XML_PARSE_BIG_LINES | XML_PARSE_NONET | XML_PARSE_NOERROR |
	                                XML_PARSE_NOWARNING);
	if (!doc) {
		const xmlError *x = xmlGetLastError();
		return cmn_err_set(e, CMN_EINPUT, "%s:%d: error: not well-formed XML: %s", path,
		                   x ? x->line : 0, x && x->message ? x->message : "unreadable");
	}
	struct reader r = {.path = path, .e = e};
	const xmlNode *root = xmlDocGetRootElement(doc);
	int rc = 0;
	if (!root || strcmp((const char *)root->name, "platform") != 0)
		rc = fail(&r, root, "the root element is not <platform>");
	if (!rc)
		rc = walk_check(&r, root);
	if (!rc && strcmp(str_attr(root, "version"), "4.1") != 0)
		rc = fail(&r, root, "platform version %s: only 4.1 (SimGrid 3.32) is read",
		          str_attr(root, "version"));
	if (!rc)
		rc = walk_refs(&r, root);
	char spec[1024];
	int nlinks = -1;
	if (!rc)
		rc = map(&r, root, spec, sizeof spec, &nlinks);
	if (!rc) {
		rc = plat_machine_create(spec, out, e);
		if (rc)
			cmn_err_prefix(e, "%s", path);
	}
	if (!rc && nlinks >= 0 && nlinks != (*out)->nlinks) { /* a mesh: same links? */
		rc = fail(&r, root, "the mesh's links do not match %s (%d links, %d expected)",
		          (*out)->spec, nlinks, (*out)->nlinks);
		plat_machine_destroy(*out);
		*out = NULL;
	}
	for (size_t i = 0; i < r.nlinks; i++)
		free(r.links[i]);
	for (size_t i = 0; i < r.nids; i++)
		free(r.ids[i]);
	free(r.links);
	free(r.ids);
	xmlFreeDoc(doc);
	return rc;
}

/* Depth-first search for a TORUS cluster without loopback_bw. */
static long torus_without_loopback(const xmlNode *n)
{
	for (const xmlNode *c = n; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		const char *topo =
		    strcmp((const char *)c->name, "cluster") == 0 ? str_attr(c, "topology") : NULL;
		if (topo && strcmp(topo, "TORUS") == 0 && !str_attr(c, "loopback_bw"))
			return xmlGetLineNo(c);
		long l = torus_without_loopback(c->children);
		if (l)
			return l;
	}
	return 0;
}

long plat_xml_torus_without_loopback(const char *path)
{
	xmlDocPtr doc = xmlReadFile(path, NULL,
	                            XML_PARSE_BIG_LINES | XML_PARSE_NONET | XML_PARSE_NOERROR |
	                                XML_PARSE_NOWARNING);
	if (!doc)
		return 0;
	long line = torus_without_loopback(xmlDocGetRootElement(doc));
	xmlFreeDoc(doc);
	return line;
}

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

static int has_word(const char *list, const char *word, int *required)
{
	size_t wl = strlen(word);
	for (const char *p = list; *p;) {
		int req = *p == '!';
		p += req;
		size_t l = strcspn(p, " ");
		if (l == wl && strncmp(p, word, l) == 0) {
			*required = req;
			return 1;
		}
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
	for (const xmlAttr *a = n->properties; a; a = a->next) {
		int req;
		if (!has_word(ru->attrs, (const char *)a->name, &req))
			return fail(r, n, "<%s> has no attribute '%s'", el, (const char *)a->name);
	}
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
		snprintf(spec, len, "kary-ntree:k=%d,n=%d%s", k, n, params);
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

/* A platform of one cluster, bare or alone in a zone, maps to a machine. */
static int map(struct reader *r, const xmlNode *platform, char *spec, size_t len)
{
	const xmlNode *top = first_child(platform, NULL);
	if (!top)
		return fail(r, platform, "<platform> holds no zone or cluster");
	if (strcmp((const char *)top->name, "cluster") == 0 && elements(platform) == 1)
		return cluster_spec(r, top, spec, len);
	const xmlNode *only = first_child(top, NULL);
	if (only && strcmp((const char *)only->name, "cluster") == 0 && elements(top) == 1)
		return cluster_spec(r, only, spec, len);
	return fail(r, top,
	            "<%s id=\"%s\">: only a platform of one cluster (FLAT, FAT_TREE, TORUS) maps "
	            "to our machines so far",
	            (const char *)top->name, str_attr(top, "id") ? str_attr(top, "id") : "");
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
	char spec[512];
	if (!rc)
		rc = map(&r, root, spec, sizeof spec);
	if (!rc) {
		rc = plat_machine_create(spec, out, e);
		if (rc)
			cmn_err_prefix(e, "%s", path);
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

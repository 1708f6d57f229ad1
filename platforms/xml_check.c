/* The syntax SimGrid 3.32's platform parser accepts, checked on our own
 * parse: the prolog it demands, its elements in the order its DTD wants,
 * their attributes and enumerated values, and numbers with its units. A
 * subset: what SimGrid knows but no machine family here has is unmapped
 * (plat_xml_unmapped: valid, for SimGrid's own routes) or, where we cannot
 * tell what SimGrid makes of it, refused with the reason. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xml_internal.h"
#include "xml_read.h"

/* --- shared helpers --- */

static int vfail(const struct xml_ctx *c, long line, const char *fmt, va_list ap)
{
	char msg[800];
	vsnprintf(msg, sizeof msg, fmt, ap);
	return cmn_err_set(c->e, CMN_EINPUT, "%s:%ld: error: %s", c->path, line, msg);
}

int plat_xml_fail(const struct xml_ctx *c, const xmlNode *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vfail(c, n ? xmlGetLineNo(n) : 0L, fmt, ap);
	va_end(ap);
	return rc;
}

int plat_xml_unmapped(const struct xml_ctx *c, const xmlNode *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct xml_ctx soft = *c;
	int keep = c->unmapped != NULL;
	if (keep)
		soft.e = c->unmapped;
	int rc = keep && c->unmapped->code ? 0 : vfail(&soft, n ? xmlGetLineNo(n) : 0L, fmt, ap);
	va_end(ap);
	return keep ? 0 : rc;
}

int plat_xml_fail_at(const struct xml_ctx *c, long line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vfail(c, line, fmt, ap);
	va_end(ap);
	return rc;
}

int plat_xml_nomem(const struct xml_ctx *c)
{
	return cmn_err_set(c->e, CMN_ENOMEM, "%s: out of memory", c->path);
}

const char *plat_xml_attr_value(const xmlNode *n, const char *name)
{
	for (const xmlAttr *a = n->properties; a; a = a->next)
		if (strcmp((const char *)a->name, name) == 0)
			return a->children && a->children->content
			           ? (const char *)a->children->content
			           : "";
	return NULL;
}

int plat_xml_is(const xmlNode *n, const char *name)
{
	return n && n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

const char *plat_xml_name(const xmlNode *n)
{
	return (const char *)n->name;
}

/* --- values with units --- */

/* The factor of prefix p before a base unit: k, M, .. (1000^i), Ki, Mi, ..
 * (1024^i) or, when long_names, kilo, mega, ..; 0 when unknown. */
static double prefix_factor(const char *p, size_t len, int binary, int long_names)
{
	static const char *const shorts[] = {"k", "M", "G", "T", "P", "E", "Z", "Y"};
	static const char *const bins[] = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"};
	static const char *const longs[] = {"kilo", "mega", "giga", "tera",
	                                    "peta", "exa",  "zeta", "yotta"};
	if (len == 0)
		return 1;
	double f = 1;
	for (int i = 0; i < 8; i++) {
		f *= 1000;
		const char *name = long_names ? longs[i] : shorts[i];
		if (strlen(name) == len && strncmp(p, name, len) == 0)
			return f;
	}
	f = 1;
	for (int i = 0; binary && i < 8; i++) {
		f *= 1024;
		if (strlen(bins[i]) == len && strncmp(p, bins[i], len) == 0)
			return f;
	}
	return 0;
}

/* The factor of unit u of kind ('f', 'b', 't'), 0 when SimGrid has no
 * such unit; an empty unit is the base unit, as in SimGrid. */
static double unit_factor(const char *u, char kind)
{
	static const struct {
		const char *name;
		double f;
	} times[] = {{"w", 604800}, {"d", 86400}, {"h", 3600},  {"m", 60},    {"s", 1},
	             {"ms", 1e-3},  {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}};
	size_t len = strlen(u);
	if (len == 0)
		return 1;
	if (kind == 't') {
		for (size_t i = 0; i < sizeof times / sizeof *times; i++)
			if (strcmp(u, times[i].name) == 0)
				return times[i].f;
		return 0;
	}
	if (kind == 'f') {
		if (len >= 5 && strcmp(u + len - 5, "flops") == 0)
			return prefix_factor(u, len - 5, 0, 1);
		return u[len - 1] == 'f' ? prefix_factor(u, len - 1, 0, 0) : 0;
	}
	if (len < 3 || (strcmp(u + len - 3, "Bps") != 0 && strcmp(u + len - 3, "bps") != 0))
		return 0;
	return prefix_factor(u, len - 3, 1, 0) * (u[len - 3] == 'b' ? 0.125 : 1);
}

double plat_xml_value(const char *text, char kind)
{
	char *end;
	errno = 0;
	double v = strtod(text, &end);
	if (end == text || errno || !isfinite(v) || v < 0)
		return -1;
	double f = unit_factor(end, kind);
	return f > 0 && isfinite(v * f) ? v * f : -1;
}

/* --- the prolog --- */

/* Skips "<!-- .. -->" or "<? .. ?>" at *p (counting lines); 0 or -1. */
static int skip_markup(const char **p, const char *end, const char *close, long *line)
{
	size_t cl = strlen(close);
	for (const char *s = *p; s + cl <= end; s++) {
		if (memcmp(s, close, cl) == 0) {
			*p = s + cl;
			return 0;
		}
		*line += *s == '\n';
	}
	return -1;
}

/* Whether the n bytes at s contain w. */
static int contains(const char *s, size_t n, const char *w)
{
	size_t wl = strlen(w);
	for (size_t i = 0; i + wl <= n; i++)
		if (memcmp(s + i, w, wl) == 0)
			return 1;
	return 0;
}

static int is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* Consumes a run of spaces (at least one when needed); 0 or -1. */
static int spaces(const char **p, const char *end, long *line, int needed)
{
	const char *s = *p;
	for (; s < end && is_space(*s); s++)
		*line += *s == '\n';
	int ok = s > *p || !needed;
	*p = s;
	return ok ? 0 : -1;
}

static int word(const char **p, const char *end, const char *w)
{
	size_t l = strlen(w);
	if ((size_t)(end - *p) < l || memcmp(*p, w, l) != 0)
		return -1;
	*p += l;
	return 0;
}

/* The declaration SimGrid's parser wants: <!DOCTYPE platform SYSTEM "URL">
 * with one of the two addresses of its DTD, and nothing else. */
static int doctype_ok(const char **p, const char *end, long *line)
{
	static const char *const urls[] = {"https://simgrid.org/simgrid.dtd",
	                                   "http://simgrid.gforge.inria.fr/simgrid/simgrid.dtd"};
	if (word(p, end, "<!DOCTYPE") || spaces(p, end, line, 1) || word(p, end, "platform") ||
	    spaces(p, end, line, 1) || word(p, end, "SYSTEM") || spaces(p, end, line, 1) ||
	    *p >= end || (**p != '"' && **p != '\''))
		return -1;
	char quote = *(*p)++;
	const char *url = *p;
	while (*p < end && **p != quote)
		(*p)++;
	size_t ul = (size_t)(*p - url);
	int known = 0;
	for (int i = 0; i < 2; i++)
		known |= strlen(urls[i]) == ul && memcmp(url, urls[i], ul) == 0;
	if (*p >= end || !known)
		return -1;
	(*p)++;
	return spaces(p, end, line, 0) || word(p, end, ">") ? -1 : 0;
}

int plat_xml_check_prolog(const struct xml_ctx *c, const char *buf, size_t len)
{
	static const char want[] = "SimGrid's parser needs <!DOCTYPE platform SYSTEM "
	                           "\"https://simgrid.org/simgrid.dtd\"> before <platform>";
	const char *p = buf, *end = buf + len;
	long line = 1;
	int doctype = 0;
	if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		return plat_xml_fail_at(c, 1,
		                        "the file starts with a byte-order mark, which "
		                        "SimGrid's parser refuses");
	for (;;) {
		spaces(&p, end, &line, 0);
		long at = line;
		if (end - p >= 6 && memcmp(p, "<?xml", 5) == 0 && (is_space(p[5]) || p[5] == '?')) {
			const char *s = p;
			if (skip_markup(&p, end, "?>", &line))
				break;
			if (is_space(p[-3]) || contains(s, (size_t)(p - s), "standalone"))
				return plat_xml_fail_at(
				    c, at,
				    "SimGrid's parser refuses this XML declaration (no "
				    "space before '?>', no standalone): write <?xml "
				    "version=\"1.0\"?>");
		} else if (end - p >= 4 && memcmp(p, "<!--", 4) == 0) {
			if (skip_markup(&p, end, "-->", &line))
				break;
		} else if (end - p >= 2 && memcmp(p, "<?", 2) == 0) {
			if (skip_markup(&p, end, "?>", &line))
				break;
		} else if (end - p >= 9 && memcmp(p, "<!DOCTYPE", 9) == 0) {
			if (doctype || doctype_ok(&p, end, &line))
				return plat_xml_fail_at(c, at, "%s, exactly so", want);
			doctype = 1;
		} else {
			break;
		}
	}
	return doctype ? 0 : plat_xml_fail_at(c, line, "%s", want);
}

/* --- elements and attributes --- */

struct rule {
	const char *name;
	/* attributes SimGrid's DTD gives the element: '!' required, '?'
	 * accepted here only when empty (no counterpart otherwise) */
	const char *attrs;
	/* child elements, phase by phase (';'): a child never comes back to
	 * an earlier phase (the order of SimGrid's DTD) */
	const char *content;
};

#define ZONE_CONTENT "prop ; zone AS cluster host router link ; route zoneRoute ASroute"
#define ZROUTE_ATTRS "!src !dst !gw_src !gw_dst symmetrical"

static const struct rule rules[] = {
    {"platform", "!version", "config ; zone AS cluster"},
    {"config", "id", "prop"},
    {"zone", "!id !routing", ZONE_CONTENT},
    {"AS", "!id !routing", ZONE_CONTENT},
    {"cluster",
     "!id !prefix !suffix !radical !speed core !bw !lat sharing_policy topology topo_parameters "
     "bb_bw bb_lat bb_sharing_policy router_id ?limiter_link loopback_bw loopback_lat",
     "prop"},
    {"host", "!id !speed core ?speed_file ?availability_file ?state_file ?coordinates pstate",
     "prop"},
    {"router", "!id ?coordinates", ""},
    /* latency: SimGrid 3.32 aborts without it ("cannot parse number") */
    {"link", "!id !bandwidth !latency ?bandwidth_file ?latency_file ?state_file sharing_policy",
     "prop"},
    {"route", "!src !dst symmetrical", "link_ctn"},
    {"zoneRoute", ZROUTE_ATTRS, "link_ctn"},
    {"ASroute", ZROUTE_ATTRS, "link_ctn"},
    {"link_ctn", "!id direction", ""},
    {"prop", "!id !value", ""},
};

/* SimGrid's elements that netsim has no counterpart for, and why. */
static const struct {
	const char *names, *why;
	int unmapped; /* 1: SimGrid simulates it (plat_xml_unmapped) */
} refused[] = {
    {"include", "SimGrid removed it (3.18)", 0},
    {"storage storage_type mount", "SimGrid removed it (3.27)", 0},
    {"trace trace_connect", "availability, state and speed profiles have no counterpart here", 1},
    {"random model_prop", "SimGrid ignores it (deprecated)", 0},
    {"disk", "disks have no counterpart here", 1},
    {"cabinet backbone host_link", "zones routed as Cluster have no counterpart here", 1},
    {"peer", "Vivaldi zones have no counterpart here", 1},
    {"bypassRoute bypassZoneRoute bypassASroute", "bypass routes have no counterpart here", 1},
    {"actor process argument", "actors belong in a deployment, netsim starts its own", 0},
};

/* Enumerated attributes: SimGrid's values; refused: those with no
 * counterpart here. */
static const struct {
	const char *element, *attr, *values, *refused;
} enums[] = {
    {"cluster", "sharing_policy", "SHARED SPLITDUPLEX FULLDUPLEX FATPIPE", ""},
    {"cluster", "topology", "FLAT TORUS FAT_TREE DRAGONFLY", ""},
    {"cluster", "bb_sharing_policy", "SHARED FATPIPE", ""},
    {"link", "sharing_policy", "SHARED SPLITDUPLEX FULLDUPLEX FATPIPE WIFI", "WIFI"},
    {"route", "symmetrical", "YES NO yes no", ""},
    {"zoneRoute", "symmetrical", "YES NO yes no", ""},
    {"ASroute", "symmetrical", "YES NO yes no", ""},
    {"link_ctn", "direction", "UP DOWN NONE", ""},
};

/* Values with units: kind 'f' speed, 'b' bandwidth, 't' time; optional
 * ones may be empty (SimGrid then creates no such link). Checked on every
 * element, those with no counterpart here too (SimGrid simulates them:
 * disks, cabinets, peers, backbones, limiters). */
static const struct {
	const char *attr;
	char kind;
	int may_be_empty;
} values[] = {
    {"speed", 'f', 0},        {"bandwidth", 'b', 0},    {"bw", 'b', 0},       {"bb_bw", 'b', 1},
    {"loopback_bw", 'b', 1},  {"latency", 't', 0},      {"lat", 't', 0},      {"bb_lat", 't', 1},
    {"loopback_lat", 't', 1}, {"read_bw", 'b', 0},      {"write_bw", 'b', 0}, {"bw_in", 'b', 0},
    {"bw_out", 'b', 0},       {"limiter_link", 'b', 1},
};

/* Whether word w (length wl) is in the space-separated list; the
 * marker before it ('!', '?' or ' ') in *mark when given. */
static int in_list(const char *list, const char *w, size_t wl, char *mark)
{
	for (const char *p = list; *p;) {
		while (*p == ' ' || *p == ';')
			p++;
		char m = *p == '!' || *p == '?' ? *p++ : ' ';
		size_t l = strcspn(p, " ;");
		if (l == wl && strncmp(p, w, l) == 0) {
			if (mark)
				*mark = m;
			return 1;
		}
		p += l;
	}
	return 0;
}

/* The phase (0, 1, ..) of child name in content, -1 when not allowed. */
static int phase_of(const char *content, const char *name)
{
	int phase = 0;
	for (const char *p = content; *p;) {
		size_t l = strcspn(p, ";");
		char group[160];
		snprintf(group, sizeof group, "%.*s", (int)l, p);
		if (in_list(group, name, strlen(name), NULL))
			return phase;
		phase++;
		p += l + (p[l] == ';');
	}
	return -1;
}

static const struct rule *rule_of(const char *name)
{
	for (size_t i = 0; i < sizeof rules / sizeof *rules; i++)
		if (strcmp(rules[i].name, name) == 0)
			return &rules[i];
	return NULL;
}

static const char *kind_name(char kind)
{
	return kind == 'f'   ? "a speed of at least 1e-12 flop/s (e.g. 1Gf, 2.5e9f)"
	       : kind == 'b' ? "a bandwidth of at least 1e-12 B/s (e.g. 1.25GBps, 10Gbps)"
	                     : "a time of at most 1e12 s (e.g. 1us, 5ms, 0s)";
}

int plat_xml_value_ok(double x, char kind)
{
	return kind == 't' ? x >= 0 && x <= PLAT_XML_MAX_TIME : x >= PLAT_XML_MIN_RATE;
}

/* Each item of a list (pstates: "1Gf,2Gf"; WIFI: "1MBps;2MBps"): a value
 * of kind, the one in use (attribute pstate, 0 by default) within
 * plat_xml_value_ok's bounds, the others at least 0 (SimGrid's energy
 * examples give switched-off pstates a speed of 0f); 0 or the error. */
static int check_list(const struct xml_ctx *c, const xmlNode *n, const char *attr, const char *v,
                      char kind)
{
	const char *ps = plat_xml_attr_value(n, "pstate");
	long in_use = ps ? strtol(ps, NULL, 10) : 0;
	long i = 0;
	for (const char *p = v;; i++) {
		size_t l = strcspn(p, kind == 'b' ? ",;" : ",");
		char item[128];
		snprintf(item, sizeof item, "%.*s", (int)(l < sizeof item ? l : sizeof item - 1),
		         p);
		double x = l < sizeof item ? plat_xml_value(item, kind) : -1;
		if (i == in_use ? !plat_xml_value_ok(x, kind) : x < 0)
			return plat_xml_fail(c, n, "<%s %s=\"%s\">: item '%.*s' is not %s%s",
			                     plat_xml_name(n), attr, v, (int)l, p, kind_name(kind),
			                     i == in_use ? "" : " (or 0, as a pstate not in use)");
		if (!p[l])
			return 0;
		p += l + 1;
	}
}

/* A Vivaldi zone's peers and hosts need three coordinates: SimGrid aborts
 * at their first transfer without them ("Please specify the Vivaldi
 * coordinates"). 0 or the error. */
static int check_coordinates(const struct xml_ctx *c, const xmlNode *n)
{
	const char *routing = n->parent ? plat_xml_attr_value(n->parent, "routing") : NULL;
	if (!plat_xml_is(n, "peer") &&
	    !(plat_xml_is(n, "host") && routing && strcmp(routing, "Vivaldi") == 0))
		return 0;
	const char *co = plat_xml_attr_value(n, "coordinates");
	int k = 0;
	char *end = NULL;
	for (const char *q = co ? co : ""; k < 3; q = end, k++) {
		errno = 0;
		double x = strtod(q, &end);
		if (end == q || errno || !isfinite(x))
			break;
	}
	while (end && (*end == ' ' || *end == '\t'))
		end++;
	if (k == 3 && !*end)
		return 0;
	return plat_xml_fail(c, n,
	                     "<%s coordinates=\"%s\">: not three numbers (a Vivaldi zone's "
	                     "member needs its coordinates: SimGrid aborts at its first "
	                     "transfer without them)",
	                     plat_xml_name(n), co ? co : "");
}

static int check_values(const struct xml_ctx *c, const xmlNode *n)
{
	const char *el = plat_xml_name(n);
	for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
		const char *v = plat_xml_attr_value(n, values[i].attr);
		char kind = values[i].kind;
		if (!v || (values[i].may_be_empty && !*v))
			continue;
		if (strchr(v, ',') || (kind == 'b' && strchr(v, ';'))) {
			if (check_list(c, n, values[i].attr, v, kind))
				return c->e->code;
			if (plat_xml_unmapped(
			        c, n,
			        "<%s %s=\"%s\">: one value, not a list (SimGrid's lists are "
			        "for pstates and WIFI links, which have no counterpart here)",
			        el, values[i].attr, v))
				return c->e->code;
			continue;
		}
		if (!plat_xml_value_ok(plat_xml_value(v, kind), kind))
			return plat_xml_fail(c, n, "<%s %s=\"%s\">: not %s", el, values[i].attr, v,
			                     kind_name(kind));
	}
	const char *bb_lat = plat_xml_attr_value(n, "bb_lat"),
	           *bb_bw = plat_xml_attr_value(n, "bb_bw");
	if (plat_xml_is(n, "cluster") && bb_lat && *bb_lat && !(bb_bw && *bb_bw))
		return plat_xml_fail(c, n,
		                     "<cluster bb_lat=\"%s\"> without bb_bw: SimGrid makes a "
		                     "backbone of bandwidth 0, on which no transfer ends (give "
		                     "bb_bw too, or neither)",
		                     bb_lat);
	if (check_coordinates(c, n))
		return c->e->code;
	const char *core = plat_xml_attr_value(n, "core"),
	           *pstate = plat_xml_attr_value(n, "pstate");
	char *end;
	if (core) {
		errno = 0;
		long k = strtol(core, &end, 10);
		if (end == core || *end || errno || k < 1 || k > INT_MAX || core[0] == ' ')
			return plat_xml_fail(
			    c, n, "<%s core=\"%s\">: not a number of cores (1 or more)", el, core);
	}
	if (pstate && (strtod(pstate, &end) != 0 || end == pstate || *end))
		return plat_xml_unmapped(
		    c, n, "<%s pstate=\"%s\">: only pstate 0 (a host has one speed here)", el,
		    pstate);
	return 0;
}

static int check_enums(const struct xml_ctx *c, const xmlNode *n)
{
	for (size_t i = 0; i < sizeof enums / sizeof *enums; i++) {
		const char *v = plat_xml_attr_value(n, enums[i].attr);
		if (!v || strcmp(plat_xml_name(n), enums[i].element) != 0)
			continue;
		if (!in_list(enums[i].values, v, strlen(v), NULL))
			return plat_xml_fail(c, n, "<%s %s=\"%s\">: not one of %s",
			                     plat_xml_name(n), enums[i].attr, v, enums[i].values);
		if (in_list(enums[i].refused, v, strlen(v), NULL))
			return plat_xml_fail(
			    c, n,
			    "<%s %s=\"%s\">: cannot be simulated here (SimGrid needs "
			    "each station's rate set by the simulated program)",
			    plat_xml_name(n), enums[i].attr, v);
	}
	return 0;
}

static int check_attrs(const struct xml_ctx *c, const xmlNode *n, const struct rule *ru)
{
	const char *el = plat_xml_name(n);
	if (n->nsDef || n->ns)
		return plat_xml_fail(c, n, "<%s>: XML namespaces are not part of SimGrid's format",
		                     el);
	for (const xmlAttr *a = n->properties; a; a = a->next) {
		const char *name = (const char *)a->name, *v = plat_xml_attr_value(n, name);
		char mark = ' ';
		if (a->ns || !in_list(ru->attrs, name, strlen(name), &mark))
			return plat_xml_fail(c, n, "<%s> has no attribute '%s' in SimGrid's format",
			                     el, name);
		if (mark == '?' && *v &&
		    plat_xml_unmapped(c, n, "<%s %s=\"%s\">: no counterpart here (only %s=\"\")",
		                      el, name, v, name))
			return c->e->code;
	}
	for (const char *p = ru->attrs; *p;) { /* the required ones */
		while (*p == ' ')
			p++;
		size_t l = strcspn(p, " ");
		char name[64];
		snprintf(name, sizeof name, "%.*s", (int)l - 1, p + 1);
		if (*p == '!' && !plat_xml_attr_value(n, name))
			return plat_xml_fail(c, n, "<%s> needs attribute '%s'", el, name);
		p += l;
	}
	int rc = check_enums(c, n);
	return rc ? rc : check_values(c, n);
}

static int only_space(const xmlChar *s)
{
	for (; s && *s; s++)
		if (!is_space((char)*s))
			return 0;
	return 1;
}

/* The line where a text or CDATA node's first non-space character is
 * (libxml2 gives the line where the node ends). */
static long text_line(const xmlNode *n)
{
	long line = xmlGetLineNo(n);
	const xmlChar *p = n->content;
	while (p && *p && is_space((char)*p))
		p++;
	for (; p && *p; p++)
		line -= *p == '\n';
	return line;
}

/* What a zone's content has shown so far (zone_mix). */
struct zone_seen {
	int base, nested;
	const xmlNode *first; /* its first element after the props */
};

/* In a zone: hosts and routers, or zones and clusters, never both; routes
 * between the first, zoneRoutes between the second. A zone whose first
 * element (after its props) is a <link> is a zone of hosts to SimGrid's
 * parser: its DTD lets links open either kind, but the parser takes the
 * first it meets for the hosts' kind and aborts at a later zone or
 * cluster ("Starting tag <zone> is not allowed here"). */
static int zone_mix(const struct xml_ctx *c, const xmlNode *ch, struct zone_seen *z)
{
	const char *name = plat_xml_name(ch);
	int is_base = strcmp(name, "host") == 0 || strcmp(name, "router") == 0 ||
	              strcmp(name, "route") == 0,
	    is_nested = strcmp(name, "zone") == 0 || strcmp(name, "AS") == 0 ||
	                strcmp(name, "cluster") == 0 || strcmp(name, "zoneRoute") == 0 ||
	                strcmp(name, "ASroute") == 0;
	if (!z->first && strcmp(name, "prop") != 0)
		z->first = ch;
	if ((is_base && z->nested) || (is_nested && z->base))
		return plat_xml_fail(c, ch,
		                     "<%s> here: a zone holds hosts, routers, links and routes, or "
		                     "zones, clusters, links and zoneRoutes (SimGrid's DTD)",
		                     name);
	if (is_nested && plat_xml_is(z->first, "link"))
		return plat_xml_fail(
		    c, ch,
		    "<%s> after this zone's first element, a <link> (line %ld): SimGrid's parser "
		    "then reads the zone as one of hosts and routers and aborts here; put the "
		    "zones and clusters before the links",
		    name, (long)xmlGetLineNo(z->first));
	z->base |= is_base;
	z->nested |= is_nested;
	return 0;
}

static int check_element(const struct xml_ctx *c, const xmlNode *n)
{
	const char *el = plat_xml_name(n);
	const struct rule *ru = rule_of(el);
	for (size_t i = 0; !ru && i < sizeof refused / sizeof *refused; i++)
		if (in_list(refused[i].names, el, strlen(el), NULL)) {
			if (!refused[i].unmapped)
				return plat_xml_fail(c, n, "<%s>: SimGrid's, but %s", el,
				                     refused[i].why);
			/* SimGrid simulates it: its values as everywhere (SimGrid
			 * dies on a speed of 0 when it runs), the rest its own */
			int rc = check_values(c, n);
			return rc ? rc
			          : plat_xml_unmapped(c, n, "<%s>: SimGrid's, but %s", el,
			                              refused[i].why);
		}
	if (!ru)
		return plat_xml_fail(c, n, "<%s> is not an element of SimGrid's platform format",
		                     el);
	int rc = check_attrs(c, n, ru), phase = 0;
	struct zone_seen seen = {0, 0, NULL};
	const char *last = NULL;
	for (const xmlNode *ch = n->children; ch && !rc; ch = ch->next) {
		if (ch->type == XML_COMMENT_NODE || ch->type == XML_PI_NODE)
			continue;
		if (ch->type == XML_TEXT_NODE && only_space(ch->content))
			continue;
		if (ch->type != XML_ELEMENT_NODE)
			return plat_xml_fail_at(
			    c, text_line(ch),
			    "%s in <%s>: SimGrid's parser takes only elements there",
			    ch->type == XML_TEXT_NODE            ? "text"
			    : ch->type == XML_CDATA_SECTION_NODE ? "a CDATA section"
			                                         : "an entity reference",
			    el);
		const char *name = plat_xml_name(ch);
		/* unknown and refused elements: check_element() says why */
		int ph = rule_of(name) ? phase_of(ru->content, name) : phase;
		if (ph < 0)
			return plat_xml_fail(c, ch, "<%s> cannot be inside <%s> (SimGrid's DTD)",
			                     name, el);
		if (ph < phase)
			return plat_xml_fail(
			    c, ch,
			    "<%s> after <%s>: SimGrid's DTD wants it before (%s inside "
			    "<%s>)",
			    name, last, ru->content, el);
		phase = ph;
		last = name;
		rc = strcmp(el, "zone") == 0 || strcmp(el, "AS") == 0 ? zone_mix(c, ch, &seen) : 0;
		if (!rc)
			rc = check_element(c, ch);
	}
	return rc;
}

int plat_xml_check_tree(const struct xml_ctx *c, const xmlNode *root)
{
	if (!plat_xml_is(root, "platform"))
		return plat_xml_fail(c, root, "the root element is <%s>, not <platform>",
		                     root ? plat_xml_name(root) : "");
	int rc = check_element(c, root);
	if (rc)
		return rc;
	/* SimGrid: lround(100 * version), from 400 (4.0) to 410 (4.1) */
	const char *v = plat_xml_attr_value(root, "version");
	char *end;
	double ver = strtod(v, &end);
	if (end == v || *end || !(lround(100 * ver) >= 400 && lround(100 * ver) <= 410))
		return plat_xml_fail(
		    c, root,
		    "platform version %s: SimGrid 3.32 reads versions 4 to 4.1 (write "
		    "version=\"4.1\")",
		    v);
	return 0;
}

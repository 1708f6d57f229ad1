/* <cluster> elements as SimGrid 3.32 builds them: the host numbers of the
 * radical, the shape in topo_parameters, how many hosts and links that
 * makes, and what SimGrid would abort on (too few radicals, zero sizes,
 * malformed lists, two links of one name). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "xml_internal.h"
#include "xml_read.h"

/* A decimal number at *p (digits only) up to max; advances *p. */
static int read_number(const char **p, long max, long *out)
{
	const char *s = *p;
	long v = 0;
	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		v = 10 * v + (*s - '0');
		if (v > max)
			return -2;
	}
	*p = s;
	*out = v;
	return 0;
}

/* *acc *= v, unless the product would pass max. */
static int mul_within(long *acc, long v, long max)
{
	if (v > 0 && *acc > max / v)
		return -1;
	*acc *= v;
	return 0;
}

/* Walks radical "A,B-C,..": calls fn for each number when fn is given,
 * counts them in *count (stopping past XML_MAX_HOSTS). 0, -1 on a syntax
 * error (*bad: the item), -2 on an empty range, -3 past the limit, -4 on
 * a number beyond INT_MAX. */
static int walk_radical(const char *radical, int (*fn)(void *, long), void *arg, long *count,
                        const char **bad)
{
	*count = 0;
	for (const char *p = radical;;) {
		long a, b;
		*bad = p;
		int rc = read_number(&p, INT_MAX, &a);
		b = a;
		if (!rc && *p == '-') {
			p++;
			rc = read_number(&p, INT_MAX, &b);
		}
		if (rc)
			return rc == -2 ? -4 : -1;
		if (*p && *p != ',')
			return -1;
		if (b < a)
			return -2;
		if (b - a + 1 > XML_MAX_HOSTS - *count)
			return -3;
		*count += b - a + 1;
		for (long v = a; fn && v <= b; v++) {
			int rc = fn(arg, v);
			if (rc)
				return rc;
		}
		if (!*p)
			return 0;
		p++;
	}
}

int plat_xml_cluster_each_host(const xmlNode *n, int (*fn)(void *arg, long number), void *arg)
{
	long count;
	const char *bad;
	return walk_radical(plat_xml_attr_value(n, "radical"), fn, arg, &count, &bad);
}

/* A list of positive numbers separated by sep, up to the end of s or a
 * ';': their count, -1 on a syntax error, -2 when more than max. */
static int number_list(const char **s, char sep, int *v, int max)
{
	int k = 0;
	const char *p = *s;
	for (;;) {
		long x;
		if (read_number(&p, INT_MAX, &x) || x < 1)
			return -1;
		if (k == max)
			return -2;
		v[k++] = (int)x;
		if (*p != sep)
			break;
		p++;
	}
	if (*p && *p != ';')
		return -1;
	*s = p;
	return k;
}

static int read_torus(const struct xml_ctx *c, const xmlNode *n, const char *tp,
                      struct xml_cluster *cl)
{
	const char *p = tp;
	cl->ndims = number_list(&p, ',', cl->dims, XML_MAX_DIMS);
	if (cl->ndims == -2)
		return plat_xml_fail(c, n,
		                     "<cluster topo_parameters=\"%s\">: more than %d dimensions",
		                     tp, XML_MAX_DIMS);
	if (cl->ndims < 0 || *p)
		return plat_xml_fail(
		    c, n,
		    "<cluster topology=\"TORUS\" topo_parameters=\"%s\">: not a list of "
		    "dimensions, each at least 1 (e.g. \"4,4,8\")",
		    tp);
	int ones = 0;
	cl->hosts = 1;
	for (int i = 0; i < cl->ndims; i++) {
		ones += cl->dims[i] == 1;
		if (mul_within(&cl->hosts, cl->dims[i], XML_MAX_HOSTS))
			return plat_xml_fail(
			    c, n,
			    "<cluster topo_parameters=\"%s\">: more than %ld hosts (the "
			    "limit of a platform here)",
			    tp, XML_MAX_HOSTS);
	}
	if (ones > 1) /* each would give every host a link to itself of one name */
		return plat_xml_fail(c, n,
		                     "<cluster topo_parameters=\"%s\">: two dimensions of size 1: "
		                     "SimGrid would create each host's link to itself twice",
		                     tp);
	cl->links = cl->hosts * cl->ndims;
	return 0;
}

static int read_fat_tree(const struct xml_ctx *c, const xmlNode *n, const char *tp,
                         struct xml_cluster *cl)
{
	const char *p = tp;
	long levels;
	int *vec[3] = {cl->down, cl->up, cl->ports},
	    ok = read_number(&p, INT_MAX, &levels) == 0 && levels >= 1 && *p == ';';
	if (ok && levels > XML_MAX_DIMS)
		return plat_xml_fail(c, n, "<cluster topo_parameters=\"%s\">: more than %d levels",
		                     tp, XML_MAX_DIMS);
	for (int v = 0; ok && v < 3; v++) {
		p++;
		ok = number_list(&p, ',', vec[v], (int)levels) == levels &&
		     (v == 2 ? !*p : *p == ';');
	}
	if (!ok)
		return plat_xml_fail(
		    c, n,
		    "<cluster topology=\"FAT_TREE\" topo_parameters=\"%s\">: not "
		    "\"levels;down,..;up,..;ports,..\" with one number of at least 1 "
		    "per level in each list (e.g. \"2;4,4;1,4;1,1\")",
		    tp);
	cl->levels = (int)levels;
	/* SimGrid's tree: hosts = the down product; level i+1 holds the up
	 * counts below it times the down counts above; ports links per edge */
	long nodes = 1, links = 0;
	int over = 0;
	for (int i = 0; i < cl->levels; i++)
		over |= mul_within(&nodes, cl->down[i], XML_MAX_HOSTS);
	cl->hosts = nodes;
	for (int i = 0; i < cl->levels && !over; i++) {
		long edges = nodes, above = 1; /* nodes: at level i */
		over |= mul_within(&edges, cl->up[i], XML_MAX_LINKS) ||
		        mul_within(&edges, cl->ports[i], XML_MAX_LINKS);
		links += edges;
		over |= links > XML_MAX_LINKS;
		for (int j = 0; j <= i; j++)
			over |= mul_within(&above, cl->up[j], XML_MAX_LINKS);
		for (int j = i + 1; j < cl->levels; j++)
			over |= mul_within(&above, cl->down[j], XML_MAX_LINKS);
		nodes = above;
	}
	if (over)
		return plat_xml_fail(
		    c, n,
		    "<cluster topo_parameters=\"%s\">: more than %ld hosts or %ld links "
		    "(the limits of a platform here)",
		    tp, XML_MAX_HOSTS, XML_MAX_LINKS);
	cl->links = links;
	return 0;
}

static int read_dragonfly(const struct xml_ctx *c, const xmlNode *n, const char *tp,
                          struct xml_cluster *cl)
{
	int v[2], ok = 1;
	const char *p = tp;
	cl->hosts = 1;
	for (int part = 0; part < 4 && ok; part++) {
		int want = part < 3 ? 2 : 1;
		ok = number_list(&p, ',', v, want) == want && (part < 3 ? *p == ';' : !*p);
		p += part < 3;
		ok = ok && !mul_within(&cl->hosts, v[0], XML_MAX_HOSTS);
	}
	if (!ok)
		return plat_xml_fail(
		    c, n,
		    "<cluster topology=\"DRAGONFLY\" topo_parameters=\"%s\">: not "
		    "\"groups,links;chassis,links;routers,links;nodes\" with numbers of "
		    "at least 1 (and at most %ld hosts)",
		    tp, XML_MAX_HOSTS);
	cl->links = 4 * cl->hosts; /* an upper bound: one link per host and level */
	return 0;
}

int plat_xml_cluster_read(const struct xml_ctx *c, const xmlNode *n, struct xml_cluster *cl)
{
	static const char *const names[] = {"FLAT", "TORUS", "FAT_TREE", "DRAGONFLY"};
	const char *radical = plat_xml_attr_value(n, "radical"),
	           *topo = plat_xml_attr_value(n, "topology"),
	           *tp = plat_xml_attr_value(n, "topo_parameters"), *bad;
	memset(cl, 0, sizeof *cl);
	int rc = walk_radical(radical, NULL, NULL, &cl->radicals, &bad);
	if (rc == -1)
		return plat_xml_fail(
		    c, n,
		    "<cluster radical=\"%s\">: \"%.*s\" is not a number or a range "
		    "A-B of numbers",
		    radical, (int)strcspn(bad, ","), bad);
	if (rc == -2)
		return plat_xml_fail(c, n, "<cluster radical=\"%s\">: range \"%.*s\" is empty",
		                     radical, (int)strcspn(bad, ","), bad);
	if (rc == -4)
		return plat_xml_fail(c, n,
		                     "<cluster radical=\"%s\">: \"%.*s\" holds a number beyond %d "
		                     "(SimGrid numbers hosts with ints)",
		                     radical, (int)strcspn(bad, ","), bad, INT_MAX);
	if (rc == -3)
		return plat_xml_fail(
		    c, n,
		    "<cluster radical=\"%s\">: more than %ld hosts (the limit of a "
		    "platform here)",
		    radical, XML_MAX_HOSTS);
	for (cl->topology = 0; topo && strcmp(topo, names[cl->topology]) != 0;)
		cl->topology++; /* the value was checked against the names */
	if (cl->topology != XML_FLAT && (!tp || !*tp))
		return plat_xml_fail(c, n, "<cluster topology=\"%s\"> needs topo_parameters", topo);
	if (cl->topology == XML_FLAT) {
		cl->hosts = cl->radicals;
		cl->links = cl->hosts + 1;
	} else if ((rc = cl->topology == XML_TORUS      ? read_torus(c, n, tp, cl)
	                 : cl->topology == XML_FAT_TREE ? read_fat_tree(c, n, tp, cl)
	                                                : read_dragonfly(c, n, tp, cl))) {
		return rc;
	}
	if (cl->hosts != cl->radicals) /* fewer: SimGrid aborts; more: it drops some */
		return plat_xml_fail(
		    c, n,
		    "<cluster id=\"%s\">: radical \"%s\" lists %ld hosts but the %s "
		    "topology \"%s\" has %ld",
		    plat_xml_attr_value(n, "id"), radical, cl->radicals, names[cl->topology],
		    tp ? tp : "", cl->hosts);
	const char *policy = plat_xml_attr_value(n, "sharing_policy");
	if (!policy || strcmp(policy, "SPLITDUPLEX") == 0 || strcmp(policy, "FULLDUPLEX") == 0)
		cl->links *= 2; /* each one an _UP and a _DOWN link */
	cl->links += cl->hosts; /* loopbacks, if any */
	if (cl->links > XML_MAX_LINKS)
		return plat_xml_fail(c, n,
		                     "<cluster id=\"%s\">: more than %ld links (the limit here)",
		                     plat_xml_attr_value(n, "id"), XML_MAX_LINKS);
	return 0;
}

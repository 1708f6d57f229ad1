/* Internals of the platform XML reader, shared by its files: errors that
 * name FILE:LINE, attribute access, the documented size limits, SimGrid's
 * clusters as it would build them, and the checks that run before any
 * mapping (xml_check.c: syntax; xml_model.c: what SimGrid would build). */
#ifndef PLAT_XML_INTERNAL_H
#define PLAT_XML_INTERNAL_H

#include <libxml/tree.h>
#include <stddef.h>

#include "platform.h"

/* Limits (README): a platform beyond them is refused before anything of
 * its size is allocated, here or in SimGrid. */
#define XML_MAX_BYTES      (512L << 20) /* file size */
#define XML_MAX_HOSTS      (1L << 20)   /* hosts, all clusters and zones together */
#define XML_MAX_LINKS      (1L << 22)   /* links, those clusters create included */
#define XML_MAX_ZONE_DEPTH 64           /* zones (and clusters) nested in zones */
#define XML_MAX_DIMS       16           /* TORUS dimensions, FAT_TREE levels */
/* members (hosts, routers, zones) of a Floyd zone: SimGrid fills its
 * table of every two in cubic time when it seals the platform (1,500: 18 s,
 * 2,048: 42 s, 3,000: 121 s) */
#define XML_MAX_FLOYD_POINTS 2048
#define XML_MAX_ROUTE_LINKS  PLAT_MAX_ROUTE_LINKS /* <link_ctn>s of one route (platform.h) */

struct xml_ctx {
	const char *path;
	struct cmn_err *e;
	long max_hosts; /* XML_MAX_HOSTS, or lower (plat_load_max) */
	/* Where what SimGrid simulates but no machine family here has goes
	 * (the first such thing, FILE:LINE: error: ...): the file stays valid,
	 * for SimGrid's own routes. NULL: refused like an error. */
	struct cmn_err *unmapped;
};

/* Sets "PATH:LINE: error: MSG" (LINE: n's) as CMN_EINPUT; returns it. */
int plat_xml_fail(const struct xml_ctx *c, const xmlNode *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same at a line number. */
int plat_xml_fail_at(const struct xml_ctx *c, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int plat_xml_nomem(const struct xml_ctx *c);
/* What SimGrid simulates and no family here has, at n: kept in
 * c->unmapped (the first one) and 0 returned, so that the caller skips it
 * and checks on; without c->unmapped, plat_xml_fail. */
int plat_xml_unmapped(const struct xml_ctx *c, const xmlNode *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The value of attribute name of element n, or NULL when it is absent. */
const char *plat_xml_attr_value(const xmlNode *n, const char *name);
/* Whether n is an element named name. */
int plat_xml_is(const xmlNode *n, const char *name);
const char *plat_xml_name(const xmlNode *n);

/* The raw text before the root element: what SimGrid's own parser demands
 * of it (no byte-order mark, an XML declaration it reads, and
 * <!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">). */
int plat_xml_check_prolog(const struct xml_ctx *c, const char *buf, size_t len);
/* Elements, their order, attributes and values, as SimGrid's DTD and
 * value parsers take them (a subset: README lists what is refused here). */
int plat_xml_check_tree(const struct xml_ctx *c, const xmlNode *root);
/* What SimGrid would build: names, clusters, links, routes, and a route
 * between every two hosts (xml_model.c). With hosts: the hosts' names in
 * document order (a cluster's in its radical's order), as SimGrid creates
 * them, into *hosts (free with plat_xml_free_names) and their count. */
int plat_xml_check_model(const struct xml_ctx *c, const xmlNode *root, char ***hosts, long *nhosts);

/* SimGrid's profiles (speed_file, bandwidth_file, ... and <trace>s tied
 * by <trace_connect>): every value one SimGrid can run with
 * (xml_profile.c). */
int plat_xml_check_profiles(const struct xml_ctx *c, const xmlNode *root);

/* A <cluster> as SimGrid 3.32 builds it (xml_cluster.c). */
enum xml_topology { XML_FLAT, XML_TORUS, XML_FAT_TREE, XML_DRAGONFLY };
struct xml_cluster {
	int topology;
	long radicals;                 /* host numbers the radical lists */
	long hosts;                    /* hosts SimGrid creates (== radicals, checked) */
	long links;                    /* links it creates */
	int ndims, dims[XML_MAX_DIMS]; /* TORUS, SimGrid's order */
	int levels;                    /* FAT_TREE: down, up, ports per level */
	int down[XML_MAX_DIMS], up[XML_MAX_DIMS], ports[XML_MAX_DIMS];
};
/* Reads and checks radical, topology and topo_parameters of cluster n. */
int plat_xml_cluster_read(const struct xml_ctx *c, const xmlNode *n, struct xml_cluster *out);
/* Calls fn(arg, number) for each host number of the radical, in order,
 * until fn returns non-zero (returned). n must have passed
 * plat_xml_cluster_read(). */
int plat_xml_cluster_each_host(const xmlNode *n, int (*fn)(void *arg, long number), void *arg);

/* What a file mapped onto a family holds beyond the family's model (links
 * of different bandwidths, SHARED clusters, hosts of several cores, ...),
 * into buf as plat_machine.limits takes it: "" when nothing (xml_limits.c). */
void plat_xml_limits(const xmlNode *root, char *buf, size_t len);

#endif

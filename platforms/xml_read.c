/* SimGrid platform XML reader (see xml_read.h): the file read with clean
 * errors, parsed by libxml2 without a word on stderr, checked as SimGrid
 * would take it (xml_check.c, xml_model.c), then mapped to an equivalent
 * machine specification built by plat_machine_create(). */
#include <errno.h>
#include <fcntl.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xml_handlers.h"
#include "xml_internal.h"
#include "xml_read.h"

struct reader {
	struct xml_ctx c;
	const xmlNode *where; /* the element mapped to the machine */
};

/* --- mapping --- */

/* Link and host parameters of a cluster as spec keys. */
static void cluster_params(const xmlNode *c, char *buf, size_t len)
{
	snprintf(buf, len, ",bw=%.15g,lat=%.15g,speed=%.15g",
	         plat_xml_value(plat_xml_attr_value(c, "bw"), 'b'),
	         plat_xml_value(plat_xml_attr_value(c, "lat"), 't'),
	         plat_xml_value(plat_xml_attr_value(c, "speed"), 'f'));
}

/* The value of the <prop id="id"> child of n, or NULL. */
static const char *prop_value(const xmlNode *n, const char *id)
{
	for (const xmlNode *c = n->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, "prop") == 0 &&
		    plat_xml_attr_value(c, "id") && strcmp(plat_xml_attr_value(c, "id"), id) == 0)
			return plat_xml_attr_value(c, "value");
	return NULL;
}

/* The spec of a cluster element, or an error. */
static int cluster_spec(struct reader *r, const xmlNode *c, char *spec, size_t len)
{
	struct xml_cluster cl;
	char params[256];
	int rc = plat_xml_cluster_read(&r->c, c, &cl);
	if (rc)
		return rc;
	cluster_params(c, params, sizeof params);
	if (cl.topology == XML_FLAT) {
		snprintf(spec, len, "flat:nodes=%ld%s", cl.hosts, params);
		return 0;
	}
	const char *tp = plat_xml_attr_value(c, "topo_parameters");
	if (cl.topology == XML_TORUS) {
		if (cl.ndims > PLAT_MAX_DIMS)
			return plat_xml_fail(
			    &r->c, c,
			    "<cluster topo_parameters=\"%s\">: a TORUS of more than %d "
			    "dimensions has no counterpart here",
			    tp, PLAT_MAX_DIMS);
		int len0 = snprintf(spec, len, "torus:dims=");
		for (int i = cl.ndims - 1; i >= 0; i--) /* ours: the last dimension fastest */
			len0 += snprintf(spec + len0, len - (size_t)len0, "%s%d",
			                 i < cl.ndims - 1 ? "x" : "", cl.dims[i]);
		snprintf(spec + len0, len - (size_t)len0, "%s", params);
		return 0;
	}
	if (cl.topology == XML_FAT_TREE) {
		int n = cl.levels, k = cl.down[0], ok = n <= 12;
		for (int l = 0; l < n && ok; l++) /* n;k,..,k;1,k,..,k;1,..,1 */
			ok = cl.down[l] == k && cl.up[l] == (l == 0 ? 1 : k) && cl.ports[l] == 1;
		if (!ok)
			return plat_xml_fail(
			    &r->c, c,
			    "<cluster topo_parameters=\"%s\">: a FAT_TREE other than a k-ary "
			    "n-tree (n;k,..;1,k,..;1,..) has no counterpart here",
			    tp);
		const char *taper = prop_value(c, PLAT_XML_TAPER_PROP);
		if (taper && (strpbrk(taper, ",:;=") || strlen(taper) >= CMN_PARAM_STR))
			return plat_xml_fail(&r->c, c,
			                     "<prop id=\"%s\" value=\"%s\">: not a taper list",
			                     PLAT_XML_TAPER_PROP, taper);
		snprintf(spec, len, "kary-ntree:k=%d,n=%d%s%s%s", k, n, taper ? ",taper=" : "",
		         taper ? taper : "", params);
		struct plat_machine *check;
		struct cmn_err e2;
		if (taper && plat_machine_create(spec, &check, &e2))
			return plat_xml_fail(&r->c, c, "<prop id=\"%s\">: %s", PLAT_XML_TAPER_PROP,
			                     e2.msg);
		if (taper)
			plat_machine_destroy(check);
		return 0;
	}
	return plat_xml_fail(&r->c, c, "<cluster topology=\"%s\"> has no counterpart here",
	                     plat_xml_attr_value(c, "topology"));
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

static int props(const xmlNode *n)
{
	int k = 0;
	for (const xmlNode *c = n->children; c; c = c->next)
		k += plat_xml_is(c, "prop");
	return k;
}

/* platgen's mesh zone: routers <zone>-r<node>-<d>, one-way links. */
static int mesh_spec(struct reader *r, const xmlNode *z, char *spec, size_t len, int *nlinks)
{
	const char *zid = plat_xml_attr_value(z, "id");
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
			const char *ends[2] = {plat_xml_attr_value(c, "src"),
			                       plat_xml_attr_value(c, "dst")};
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
		return plat_xml_fail(
		    &r->c, z,
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
			return plat_xml_fail(
			    &r->c, z, "<zone id=\"%s\">: router links do not form a mesh", zid);
		dims[d] = (int)(above / st[d]);
		prod *= dims[d];
	}
	if (prod != N || st[D - 1] != 1)
		return plat_xml_fail(
		    &r->c, z, "<zone id=\"%s\">: router links do not form a mesh of %d hosts", zid,
		    N);
	int l = snprintf(spec, len, "mesh:dims=");
	for (int d = 0; d < D; d++)
		l += snprintf(spec + l, len - (size_t)l, "%s%d", d ? "x" : "", dims[d]);
	snprintf(spec + l, len - (size_t)l, ",bw=%.15g,lat=%.15g,speed=%.15g",
	         plat_xml_value(plat_xml_attr_value(link, "bandwidth"), 'b'),
	         plat_xml_attr_value(link, "latency")
	             ? plat_xml_value(plat_xml_attr_value(link, "latency"), 't')
	             : 0,
	         plat_xml_value(plat_xml_attr_value(host, "speed"), 'f'));
	*nlinks -= (D - 1) * N; /* turn links are not in our model */
	return 0;
}

/* One cluster or zone of a multi-cluster (or a whole one-part platform). */
static int part_spec(struct reader *r, const xmlNode *n, char *spec, size_t len, int *nlinks)
{
	*nlinks = -1;
	if (strcmp((const char *)n->name, "cluster") == 0)
		return cluster_spec(r, n, spec, len);
	const char *routing = plat_xml_attr_value(n, "routing");
	if (routing && strcasecmp(routing, "DijkstraCache") == 0)
		return mesh_spec(r, n, spec, len, nlinks);
	return plat_xml_fail(&r->c, n,
	                     "<%s id=\"%s\" routing=\"%s\">: not a cluster or a platgen mesh: no "
	                     "counterpart here",
	                     (const char *)n->name, plat_xml_attr_value(n, "id"),
	                     routing ? routing : "");
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
				return plat_xml_fail(&r->c, c,
				                     "zoneRoutes with %d and %d WAN links", wan, k);
			wan = k;
		} else if (strcmp(el, "cluster") == 0 || strcmp(el, "zone") == 0) {
			if (C == 4096)
				return plat_xml_fail(&r->c, c, "too many clusters");
			int nl;
			int rc = part_spec(r, c, inner, sizeof inner, &nl);
			if (rc)
				return rc;
			/* a flat cluster, its router named by router_id or,
			 * without it, by SimGrid (prefix id "_router" suffix) */
			int is_flat = strcmp(el, "cluster") == 0 && strncmp(inner, "flat:", 5) == 0;
			if (is_flat)
				flat1 = flat1 ? flat1 : c;
			if (C && is_flat != flat)
				return plat_xml_fail(
				    &r->c, c, "clusters of different families: flat and not");
			flat = is_flat;
			if (!is_flat) {
				if (C && strcmp(inner, first_inner) != 0)
					return plat_xml_fail(
					    &r->c, c, "clusters of different families: %s and %s",
					    first_inner, inner);
				snprintf(first_inner, sizeof first_inner, "%s", inner);
			}
			struct plat_machine *m;
			struct cmn_err e2;
			if (plat_machine_create(inner, &m, &e2))
				return plat_xml_fail(&r->c, c, "%s", e2.msg);
			sizes[C++] = m->nodes;
			plat_machine_destroy(m);
		} else {
			return plat_xml_fail(
			    &r->c, c,
			    "<%s> in a Full zone: such a zone maps only as a multi-cluster "
			    "(clusters or platgen's zones, WAN links, zoneRoutes)",
			    el);
		}
	}
	if (C < 2 || !wlink || (wan != 1 && wan != 2))
		return plat_xml_fail(
		    &r->c, z,
		    "<zone id=\"%s\">: not a platgen multi-cluster (clusters, WAN links, "
		    "zoneRoutes)",
		    plat_xml_attr_value(z, "id"));
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
		         plat_xml_value(plat_xml_attr_value(flat1, "bw"), 'b'),
		         plat_xml_value(plat_xml_attr_value(flat1, "lat"), 't'),
		         plat_xml_value(plat_xml_attr_value(flat1, "speed"), 'f'));
	}
	l = snprintf(spec, len, "multicluster:clusters=%d,", C);
	if (uniform || !flat)
		l += snprintf(spec + l, len - (size_t)l, "size=%d", sizes[0]);
	else
		l += snprintf(spec + l, len - (size_t)l, "sizes=%s", sizelist);
	snprintf(spec + l, len - (size_t)l, ",cluster=%s,wan=%s,wan_bw=%.15g,wan_lat=%.15g%s",
	         cluster, wan == 2 ? "backbone" : "mesh",
	         plat_xml_value(plat_xml_attr_value(wlink, "bandwidth"), 'b'),
	         plat_xml_attr_value(wlink, "latency")
	             ? plat_xml_value(plat_xml_attr_value(wlink, "latency"), 't')
	             : 0,
	         tail);
	return 0;
}

/* The platform's machine: one cluster (bare or alone in a zone), a platgen
 * mesh zone, or a platgen multi-cluster zone. */
static int map(struct reader *r, const xmlNode *platform, char *spec, size_t len, int *nlinks)
{
	const xmlNode *top = first_child(platform, "cluster");
	for (const xmlNode *c = platform->children; c && !top; c = c->next)
		if (plat_xml_is(c, "zone") ||
		    plat_xml_is(c, "AS")) /* the only one (plat_xml_check_model) */
			top = c;
	*nlinks = -1;
	r->where = top;
	if (plat_xml_is(top, "cluster"))
		return cluster_spec(r, top, spec, len);
	const xmlNode *only = first_child(top, "cluster");
	if (only && elements(top) - props(top) == 1) {
		r->where = only;
		return cluster_spec(r, only, spec, len);
	}
	const char *routing = plat_xml_attr_value(top, "routing");
	if (strcasecmp(routing, "DijkstraCache") == 0)
		return mesh_spec(r, top, spec, len, nlinks);
	if (strcasecmp(routing, "Full") == 0)
		return multi_spec(r, top, spec, len);
	return plat_xml_fail(&r->c, top, "<%s id=\"%s\" routing=\"%s\">: no counterpart here",
	                     (const char *)top->name, plat_xml_attr_value(top, "id"), routing);
}

static int too_big(const char *path, struct cmn_err *e)
{
	return cmn_err_set(e, CMN_EINPUT,
	                   "%s: error: larger than %ld MiB (the limit of a platform file here)",
	                   path, XML_MAX_BYTES >> 20);
}

/* The whole file (malloc'ed) in *buf, or a one-line error naming it. */
static int read_all(const char *path, char **buf, size_t *len, struct cmn_err *e)
{
	*buf = NULL;
	*len = 0;
	int fd = open(path, O_RDONLY), rc = 0;
	struct stat st;
	if (fd < 0)
		return cmn_err_set(e, CMN_EIO, "%s: error: cannot open: %s", path, strerror(errno));
	int known = fstat(fd, &st) == 0;
	if (known && S_ISDIR(st.st_mode))
		rc = cmn_err_set(e, CMN_EIO, "%s: error: a directory, not a platform file", path);
	else if (known && S_ISREG(st.st_mode) && st.st_size > XML_MAX_BYTES)
		rc = too_big(path, e);
	for (size_t cap = 0; !rc;) {
		if (*len == cap) { /* up to one byte past the limit, never twice it */
			cap = cap ? 2 * cap : 1 << 16;
			if (cap > (size_t)XML_MAX_BYTES + 1)
				cap = (size_t)XML_MAX_BYTES + 1;
			char *nb = realloc(*buf, cap);
			if (!nb) {
				rc = cmn_err_set(e, CMN_ENOMEM, "%s: out of memory", path);
				break;
			}
			*buf = nb;
		}
		ssize_t got = read(fd, *buf + *len, cap - *len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			rc = cmn_err_set(e, CMN_EIO, "%s: error: cannot read: %s", path,
			                 strerror(errno));
		else if (got == 0)
			break;
		else if (memchr(*buf + *len, '\0', (size_t)got)) /* /dev/zero, a binary */
			rc = cmn_err_set(
			    e, CMN_EINPUT,
			    "%s: error: a NUL byte at byte %zu: not a text file, not a "
			    "platform",
			    path,
			    *len +
			        (size_t)((char *)memchr(*buf + *len, '\0', (size_t)got) -
			                 (*buf + *len)) +
			        1);
		else if ((*len += (size_t)got) > (size_t)XML_MAX_BYTES)
			rc = cmn_err_set(
			    e, CMN_EINPUT,
			    "%s: error: larger than %ld MiB (the limit of a platform file "
			    "here)",
			    path, XML_MAX_BYTES >> 20);
	}
	close(fd);
	if (!rc && *len == 0)
		rc = cmn_err_set(e, CMN_EINPUT, "%s: error: an empty file, not a platform", path);
	if (rc) {
		free(*buf);
		*buf = NULL;
	}
	return rc;
}

/* The first error libxml2 raises while parsing (it prints nothing). */
struct first_error {
	int set, line;
	char msg[300];
};

static void keep_first(void *ctx, xmlErrorPtr x)
{
	struct first_error *f = ctx;
	if (f->set || !x || x->level < XML_ERR_ERROR)
		return;
	f->set = 1;
	f->line = x->line;
	if (x->message && strncmp(x->message, "Excessive depth", 15) == 0)
		snprintf(f->msg, sizeof f->msg, "elements nested too deep (libxml2's limit)");
	else
		snprintf(f->msg, sizeof f->msg, "%s", x->message ? x->message : "unreadable");
	f->msg[strcspn(f->msg, "\n")] = '\0';
}

/* libxml2's handlers are its own per-thread state: ours while parsing
 * (never a DTD or network fetch), theirs restored after. */
static xmlDocPtr parse(const char *buf, size_t len, const char *path, struct first_error *f)
{
	struct plat_xml_handlers old;
	plat_xml_handlers_take(&old, f, keep_first);
	xmlDocPtr doc = xmlReadMemory(buf, (int)len, path, NULL,
	                              XML_PARSE_BIG_LINES | XML_PARSE_NONET | XML_PARSE_NOERROR |
	                                  XML_PARSE_NOWARNING);
	plat_xml_handlers_give_back(&old);
	return doc;
}

int plat_load(const char *path, struct plat_machine **out, struct cmn_err *e)
{
	return plat_load_max(path, PLAT_MAX_NODES, out, e);
}

int plat_load_max(const char *path, int max_nodes, struct plat_machine **out, struct cmn_err *e)
{
	struct plat_file f;
	int rc = plat_file_read(path, max_nodes, &f, e);
	*out = NULL;
	if (!rc && !f.m)
		rc = cmn_err_set(e, f.why.code, "%s", f.why.msg);
	if (!rc) {
		*out = f.m;
		f.m = NULL;
	}
	plat_file_free(&f);
	return rc;
}

int plat_file_read(const char *path, int max_nodes, struct plat_file *pf, struct cmn_err *e)
{
	memset(pf, 0, sizeof *pf);
	cmn_err_clear(&pf->why);
	if (max_nodes < 1 || max_nodes > PLAT_MAX_NODES)
		max_nodes = PLAT_MAX_NODES;
	/* what SimGrid simulates and no family has: valid, unmapped (in why) */
	struct reader r = {{path, e, max_nodes, &pf->why}, NULL};
	char *buf;
	size_t len;
	int rc = read_all(path, &buf, &len, e);
	if (rc)
		return rc;
	struct first_error f = {0, 0, ""};
	xmlDocPtr doc = parse(buf, len, path, &f);
	if (!doc || f.set)
		rc = cmn_err_set(e, CMN_EINPUT, "%s:%d: error: not well-formed XML: %s", path,
		                 f.set ? f.line : 1, f.set ? f.msg : "libxml2 could not parse it");
	const xmlNode *root = doc ? xmlDocGetRootElement(doc) : NULL;
	if (!rc) /* what is inside first, then the declarations before it */
		rc = plat_xml_check_tree(&r.c, root);
	if (!rc)
		rc = plat_xml_check_prolog(&r.c, buf, len);
	free(buf);
	if (!rc)
		rc = plat_xml_check_model(&r.c, root, &pf->hosts, &pf->nhosts);
	if (!rc)
		rc = plat_xml_check_profiles(&r.c, root);
	/* valid for SimGrid: from here on, what fails is the mapping onto a
	 * family, said in pf->why */
	char spec[1024];
	int nlinks = -1, mrc = rc ? rc : pf->why.code;
	r.c.e = &pf->why;
	if (!mrc)
		mrc = map(&r, root, spec, sizeof spec, &nlinks);
	struct cmn_err e2;
	struct plat_machine *m = NULL;
	if (!mrc && plat_machine_create_max(spec, max_nodes, &m, &e2))
		mrc = plat_xml_fail(&r.c, r.where, "%s", e2.msg);
	if (!mrc && nlinks >= 0 && nlinks != m->nlinks) /* a mesh: same links? */
		mrc = plat_xml_fail(&r.c, root,
		                    "the mesh's links do not match %s (%d links, %d expected)",
		                    m->spec, nlinks, m->nlinks);
	if (!mrc && m->nodes != pf->nhosts)
		mrc = plat_xml_fail(&r.c, root, "%s has %d nodes, the file %ld hosts", m->spec,
		                    m->nodes, pf->nhosts);
	char **names = NULL;
	if (!mrc && !(names = malloc((size_t)pf->nhosts * sizeof *names)))
		mrc = cmn_err_set(&pf->why, CMN_ENOMEM, "out of memory");
	for (long i = 0; names && !mrc && i < pf->nhosts; i++)
		if (!(names[i] = strdup(pf->hosts[i]))) {
			plat_xml_free_names(names, i);
			names = NULL;
			mrc = cmn_err_set(&pf->why, CMN_ENOMEM, "out of memory");
		}
	if (!mrc && plat_machine_set_source(m, path, names, &pf->why))
		mrc = pf->why.code;
	if (!mrc)
		plat_xml_limits(root, m->limits, sizeof m->limits);
	if (mrc && m)
		plat_machine_destroy(m);
	else
		pf->m = m;
	if (!rc && mrc == CMN_ENOMEM)
		rc = cmn_err_set(e, CMN_ENOMEM, "%s", pf->why.msg);
	if (rc)
		plat_file_free(pf);
	xmlFreeDoc(doc);
	return rc;
}

void plat_file_free(struct plat_file *f)
{
	plat_machine_destroy(f->m);
	plat_xml_free_names(f->hosts, f->nhosts);
	f->m = NULL;
	f->hosts = NULL;
	f->nhosts = 0;
}

/* Depth-first search for a TORUS cluster without loopback_bw. */
static long torus_without_loopback(const xmlNode *n)
{
	for (const xmlNode *c = n; c; c = c->next) {
		if (c->type != XML_ELEMENT_NODE)
			continue;
		const char *topo = strcmp((const char *)c->name, "cluster") == 0
		                       ? plat_xml_attr_value(c, "topology")
		                       : NULL;
		if (topo && strcmp(topo, "TORUS") == 0 && !plat_xml_attr_value(c, "loopback_bw"))
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

/* SimGrid platform XML writer (see xml_write.h): the document around the
 * machine and the helpers every family's writer uses (xml_out.h). Each
 * family writes its own element through its ops' xml_write:
 * - flat (topo_flat.c): a <cluster> without backbone;
 * - kary-ntree (topo_kary_ntree.c): <cluster topology="FAT_TREE">;
 * - mesh and torus (topo_grid.c): a zone of layered routers, a
 *   <cluster topology="TORUS">;
 * - multicluster (topo_multicluster.c): a Full zone of clusters and the
 *   zoneRoutes over the WAN links.
 * A family whose element is a cluster is wrapped in a root zone "world"
 * (every file has one root zone); one whose element is a zone is the
 * root itself, under the id its ops' xml_root gives. */
#include <errno.h>
#include <libxml/xmlwriter.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "xml_handlers.h"
#include "xml_out.h"
#include "xml_write.h"

#define W(call)                                                                                    \
	do {                                                                                       \
		if ((call) < 0)                                                                    \
			goto fail;                                                                 \
	} while (0)

struct plat_xml_out {
	xmlTextWriterPtr w;
	const struct plat_xml_opts *o;
	struct cmn_err *e; /* set by an error other than libxml2's */
	char buf[512];
};

static const xmlChar *X(const char *s)
{
	return (const xmlChar *)s;
}

int plat_xml_start(struct plat_xml_out *x, const char *element)
{
	return xmlTextWriterStartElement(x->w, X(element));
}

int plat_xml_attr(struct plat_xml_out *x, const char *name, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(x->buf, sizeof x->buf, fmt, ap);
	va_end(ap);
	return xmlTextWriterWriteAttribute(x->w, X(name), X(x->buf));
}

int plat_xml_end(struct plat_xml_out *x)
{
	return xmlTextWriterEndElement(x->w);
}

const char *plat_xml_sharing(const struct plat_xml_out *x)
{
	return x->o->sharing;
}

int plat_xml_cluster_start(struct plat_xml_out *x, const struct plat_machine *m, const char *id,
                           int first, int count)
{
	if (strcmp(x->o->sharing, "FATPIPE") == 0) /* SimGrid would write it SHARED */
		return cmn_err_set(x->e, CMN_EUSAGE,
		                   "--sharing FATPIPE: machine %s is written as SimGrid clusters, "
		                   "and SimGrid 3.32 builds a cluster's FATPIPE links as SHARED "
		                   "ones (it keeps FATPIPE only on <link> elements, as in the "
		                   "mesh family's files): use SHARED, or a mesh",
		                   m->spec),
		       -1;
	if (plat_xml_start(x, "cluster") < 0 || plat_xml_attr(x, "id", "%s", id) < 0 ||
	    plat_xml_attr(x, "prefix", "node-") < 0 || plat_xml_attr(x, "suffix", "%s", "") < 0 ||
	    plat_xml_attr(x, "radical", "%d-%d", first, first + count - 1) < 0 ||
	    plat_xml_attr(x, "speed", "%.15gf", m->speed_flops) < 0 ||
	    plat_xml_attr(x, "bw", "%.15gBps", cmn_params_num(&m->params, "bw")) < 0 ||
	    plat_xml_attr(x, "lat", "%.15gs", cmn_params_num(&m->params, "lat")) < 0 ||
	    plat_xml_attr(x, "sharing_policy", "%s", x->o->sharing) < 0)
		return -1;
	return 0;
}

int plat_xml_flat_cluster(struct plat_xml_out *x, const struct plat_machine *m, const char *id,
                          int first, int count, const char *router)
{
	if (plat_xml_cluster_start(x, m, id, first, count) < 0)
		return -1;
	if (router && plat_xml_attr(x, "router_id", "%s", router) < 0)
		return -1;
	return plat_xml_end(x);
}

int plat_xml_link(struct plat_xml_out *x, const char *id, double bw, double lat,
                  const char *sharing)
{
	/* our links are one-way: a SHARED link used one way is one direction of a
	 * full-duplex (SPLITDUPLEX) one */
	if (strcmp(sharing, "SPLITDUPLEX") == 0)
		sharing = "SHARED";
	if (plat_xml_start(x, "link") < 0 || plat_xml_attr(x, "id", "%s", id) < 0 ||
	    plat_xml_attr(x, "bandwidth", "%.15gBps", bw) < 0 ||
	    plat_xml_attr(x, "latency", "%.15gs", lat) < 0 ||
	    plat_xml_attr(x, "sharing_policy", "%s", sharing) < 0)
		return -1;
	return plat_xml_end(x);
}

int plat_xml_route1(struct plat_xml_out *x, const char *src, const char *dst, const char *link)
{
	if (plat_xml_start(x, "route") < 0 || plat_xml_attr(x, "src", "%s", src) < 0 ||
	    plat_xml_attr(x, "dst", "%s", dst) < 0 || plat_xml_attr(x, "symmetrical", "NO") < 0 ||
	    plat_xml_start(x, "link_ctn") < 0 || plat_xml_attr(x, "id", "%s", link) < 0 ||
	    plat_xml_end(x) < 0)
		return -1;
	return plat_xml_end(x);
}

/* The refusal of a family without a SimGrid writer. */
static int no_writer(const struct plat_machine *m, struct cmn_err *e)
{
	return cmn_err_set(e, CMN_EUSAGE,
	                   "machine %s: the %s family has no SimGrid platform writer (its ops' "
	                   "xml_write)",
	                   m->spec, m->ops->base.name);
}

int plat_xml_family(struct plat_xml_out *x, const struct plat_machine *m, const char *id, int first,
                    int link0)
{
	if (!m->ops->xml_write)
		return no_writer(m, x->e), -1;
	return m->ops->xml_write(x, m, id, first, link0);
}

/* libxml2's first I/O error while writing (its handlers print them, two
 * lines each, on stderr otherwise). */
static void keep_io_error(void *ctx, xmlErrorPtr x)
{
	char *msg = ctx;
	if (msg[0] || !x || !x->message)
		return;
	snprintf(msg, 160, "%s", x->message);
	msg[strcspn(msg, "\n")] = '\0';
}

static int write_doc(const struct plat_machine *m, const struct plat_xml_opts *o, const char *path,
                     struct cmn_err *e);

int plat_xml_write(const struct plat_machine *m, const struct plat_xml_opts *o, const char *path,
                   struct cmn_err *e)
{
	if (!m->ops->xml_write) /* refused before a file is made */
		return no_writer(m, e);
	cmn_err_clear(e);
	char io[160] = "";
	struct plat_xml_handlers old;
	plat_xml_handlers_take(&old, io, keep_io_error);
	errno = 0;
	int rc = write_doc(m, o, path, e), err = errno;
	plat_xml_handlers_give_back(&old);
	if (rc && !e->msg[0]) /* a write that failed: a full disk, a size limit */
		cmn_err_set(e, CMN_EIO, "%s: cannot write: %s", o->shown ? o->shown : path,
		            io[0] ? io
		            : err ? strerror(err)
		                  : "libxml2 could not write the platform");
	return rc;
}

static int write_doc(const struct plat_machine *m, const struct plat_xml_opts *o, const char *path,
                     struct cmn_err *e)
{
	struct plat_xml_out x = {.o = o, .e = e};
	x.w = xmlNewTextWriterFilename(path, 0);
	if (!x.w)
		return CMN_EIO;
	char comment[1024];
	snprintf(comment, sizeof comment,
	         " Generated by platgen %s\n     machine %s\n     link sharing %s (one-way links "
	         "spelled out: SHARED) ",
	         o->command ? o->command : "", m->spec, o->sharing);
	W(xmlTextWriterSetIndent(x.w, 1));
	W(xmlTextWriterStartDocument(x.w, NULL, "UTF-8", NULL));
	W(xmlTextWriterWriteDTD(x.w, X("platform"), NULL, X("https://simgrid.org/simgrid.dtd"),
	                        NULL));
	W(xmlTextWriterWriteComment(x.w, X(comment)));
	W(xmlTextWriterStartElement(x.w, X("platform")));
	W(xmlTextWriterWriteAttribute(x.w, X("version"), X("4.1")));
	if (m->ops->xml_root) {
		W(plat_xml_family(&x, m, m->ops->xml_root, 0, 0));
	} else {
		W(xmlTextWriterStartElement(x.w, X("zone")));
		W(xmlTextWriterWriteAttribute(x.w, X("id"), X("world")));
		W(xmlTextWriterWriteAttribute(x.w, X("routing"), X("Full")));
		W(plat_xml_family(&x, m, "machine", 0, 0));
		W(xmlTextWriterEndElement(x.w));
	}
	W(xmlTextWriterEndElement(x.w));
	W(xmlTextWriterEndDocument(x.w));
	xmlFreeTextWriter(x.w);
	return 0;
fail:
	xmlFreeTextWriter(x.w);
	if (e && e->code)
		return e->code;
	return CMN_EIO; /* plat_xml_write says why */
}

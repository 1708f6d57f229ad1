/* What a topology family's SimGrid writer (its ops' xml_write) writes
 * with: the file plat_xml_write has open, and the elements every family
 * uses (xml_write.c). Families never include libxml2 for this: they start
 * elements, add attributes and end them through these helpers. Every
 * helper returns < 0 when the file could not be written. */
#ifndef PLAT_XML_OUT_H
#define PLAT_XML_OUT_H

#include "platform.h"

struct plat_xml_out;

/* Starts an element, adds an attribute to the element just started
 * (printf format), ends the innermost open element. */
int plat_xml_start(struct plat_xml_out *x, const char *element);
int plat_xml_attr(struct plat_xml_out *x, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int plat_xml_end(struct plat_xml_out *x);

/* The link sharing policy asked for: SPLITDUPLEX, SHARED or FATPIPE. */
const char *plat_xml_sharing(const struct plat_xml_out *x);

/* Starts a <cluster> named id of count hosts node-<first> .. with the
 * attributes every cluster takes (speed, bw, lat, sharing), left open. */
int plat_xml_cluster_start(struct plat_xml_out *x, const struct plat_machine *m, const char *id,
                           int first, int count);
/* A whole flat <cluster> (no backbone), router as its router_id (NULL:
 * none). */
int plat_xml_flat_cluster(struct plat_xml_out *x, const struct plat_machine *m, const char *id,
                          int first, int count, const char *router);
/* A one-way <link> (a SPLITDUPLEX one is written SHARED: one direction of
 * a full-duplex link). */
int plat_xml_link(struct plat_xml_out *x, const char *id, double bw, double lat,
                  const char *sharing);
/* A <route> of one link, not symmetrical. */
int plat_xml_route1(struct plat_xml_out *x, const char *src, const char *dst, const char *link);

/* Machine m (or one cluster of a multi-cluster) as its family writes it:
 * element id, hosts node-<first + node>, the machine's own link ids from
 * link0 where the family spells links out. A family without a SimGrid
 * writer is an error that names it (< 0, the error set). */
int plat_xml_family(struct plat_xml_out *x, const struct plat_machine *m, const char *id, int first,
                    int link0);

#endif

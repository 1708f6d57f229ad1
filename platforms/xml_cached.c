/* A platform's Dijkstra zones routed as DijkstraCache, for asking SimGrid
 * for every route of a platform (xml_read.h, plat_xml_dijkstra_cached).
 *
 * SimGrid 3.32's Dijkstra and DijkstraCache zones run the same search
 * (DijkstraZone::get_local_route: one shortest-path tree by link count
 * from the source, the route read back from it); Dijkstra throws the tree
 * away after each route, DijkstraCache keeps it per source. Asked for the
 * routes of every two of n hosts, the first searches n^2 times, the second
 * n times: netsim on a star of 1,000 hosts took 243 s against 8 s, 4,096 would take
 * hours. The copy changes that attribute and nothing else. */
#include <libxml/tree.h>
#include <stdio.h>
#include <string.h>

#include "../common/cleanup.h"
#include "xml_internal.h"
#include "xml_read.h"

/* Netpoints a zone's tree holds whole (its hosts, routers and zones),
 * kept by the cache for each source: at most this many in a zone whose
 * routing changes (the cache's arrays, 8 bytes a netpoint a source). */
#define CACHED_MAX_POINTS 8192

static long points_of(const xmlNode *z)
{
	long k = 0;
	for (const xmlNode *c = z->children; c; c = c->next)
		k += plat_xml_is(c, "host") || plat_xml_is(c, "router") || plat_xml_is(c, "zone") ||
		     plat_xml_is(c, "AS") || plat_xml_is(c, "cluster");
	return k;
}

/* The zones routed by Dijkstra under n set to DijkstraCache; their count. */
static long set_cached(xmlNode *n)
{
	long changed = 0;
	for (xmlNode *c = n ? n->children : NULL; c; c = c->next) {
		if (!plat_xml_is(c, "zone") && !plat_xml_is(c, "AS"))
			continue;
		const char *r = plat_xml_attr_value(c, "routing");
		if (r && strcmp(r, "Dijkstra") == 0 && points_of(c) <= CACHED_MAX_POINTS) {
			xmlSetProp(c, (const xmlChar *)"routing", (const xmlChar *)"DijkstraCache");
			changed++;
		}
		changed += set_cached(c);
	}
	return changed;
}

int plat_xml_dijkstra_cached(const char *path, char *out, size_t len)
{
	xmlDocPtr doc = xmlReadFile(path, NULL,
	                            XML_PARSE_BIG_LINES | XML_PARSE_NONET | XML_PARSE_NOERROR |
	                                XML_PARSE_NOWARNING);
	if (!doc)
		return 0;
	if (!set_cached(xmlDocGetRootElement(doc))) {
		xmlFreeDoc(doc);
		return 0;
	}
	FILE *f = cmn_tmp_file(out, len, "placesim-cached") ? NULL : fopen(out, "w");
	int ok = f && xmlDocDump(f, doc) >= 0;
	if (f)
		ok = fclose(f) == 0 && ok;
	xmlFreeDoc(doc);
	if (!ok && *out)
		cmn_cleanup_remove(out);
	return ok ? 1 : 0;
}

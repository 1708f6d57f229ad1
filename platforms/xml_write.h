/* SimGrid platform XML (version 4.1, SimGrid 3.32) written with libxml2's
 * xmlTextWriter for every machine family. */
#ifndef PLAT_XML_WRITE_H
#define PLAT_XML_WRITE_H

#include "platform.h"

struct plat_xml_opts {
	const char *sharing; /* link sharing policy: SPLITDUPLEX (default), SHARED, FATPIPE */
	const char *command; /* the command line, echoed in the header comment */
	const char *shown;   /* the file named in messages (NULL: path) */
};

/* Writes m as SimGrid XML to path (a temporary: the caller renames it).
 * Hosts are named node-<id>; links l<id> after the machine's link ids where
 * the file spells links out (meshes, WAN links). */
int plat_xml_write(const struct plat_machine *m, const struct plat_xml_opts *o, const char *path,
                   struct cmn_err *e);

#endif

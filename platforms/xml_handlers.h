/* libxml2's error handlers held for one call (reading a platform, writing
 * one): its handlers are its own per-thread state, so ours are taken for
 * the call and theirs given back after. */
#ifndef PLAT_XML_HANDLERS_H
#define PLAT_XML_HANDLERS_H

#include <libxml/xmlerror.h>

struct plat_xml_handlers {
	xmlStructuredErrorFunc s;
	void *sc;
	xmlGenericErrorFunc g;
	void *gc;
};

/* Structured errors to fn(ctx, ...), generic messages (what libxml2
 * prints on stderr otherwise) to nothing; the handlers before into *old. */
void plat_xml_handlers_take(struct plat_xml_handlers *old, void *ctx, xmlStructuredErrorFunc fn);
/* The handlers plat_xml_handlers_take found, back. */
void plat_xml_handlers_give_back(const struct plat_xml_handlers *old);

#endif

/* libxml2's error handlers held for one call (xml_handlers.h). */
#include "xml_handlers.h"

static void say_nothing(void *ctx, const char *fmt, ...)
{
	(void)ctx;
	(void)fmt;
}

void plat_xml_handlers_take(struct plat_xml_handlers *old, void *ctx, xmlStructuredErrorFunc fn)
{
	*old = (struct plat_xml_handlers){xmlStructuredError, xmlStructuredErrorContext,
	                                  xmlGenericError, xmlGenericErrorContext};
	xmlSetStructuredErrorFunc(ctx, fn);
	xmlSetGenericErrorFunc(NULL, say_nothing);
}

void plat_xml_handlers_give_back(const struct plat_xml_handlers *old)
{
	xmlSetStructuredErrorFunc(old->sc, old->s);
	xmlSetGenericErrorFunc(old->gc, old->g);
}

/* Between the SWF reader's files (swf.c reads lines, swf_header.c their
 * header comments, swf_line.c their data). */
#ifndef JS_SWF_INTERNAL_H
#define JS_SWF_INTERNAL_H

#include "workload.h"

/* Reads one header comment line (starting with ';') of file src. */
int js_swf_header_line(struct js_workload *w, const char *src, uint32_t line, const char *text,
                       struct cmn_err *e);

#endif

/* The registry of trace generators (one line each in gen_registry.def). */
#include <stddef.h>

#include "gen.h"

#define TRACE_GEN(sym) extern const struct trace_gen_ops sym;
#include "gen_registry.def"
#undef TRACE_GEN

const struct trace_gen_ops *const trace_gen_registry[] = {
#define TRACE_GEN(sym) &sym,
#include "gen_registry.def"
#undef TRACE_GEN
    NULL,
};

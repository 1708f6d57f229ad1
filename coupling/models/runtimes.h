/* The coupling layer's run-time models (runtime_registry.def), and the
 * registry cosim offers: jobsched's models followed by these. */
#ifndef CPL_RUNTIMES_H
#define CPL_RUNTIMES_H

#include "../../jobsched/runtime/runtime.h"

extern const struct js_runtime_ops *const cpl_runtime_registry[];

/* jobsched's registry then coupling's into out (room for max entries and
 * the NULL); returns the count, or -1 when they do not fit. */
int cpl_runtimes_all(const struct js_runtime_ops **out, int max);

#endif

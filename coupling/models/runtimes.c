/* The coupling layer's run-time model registry (runtimes.h). */
#include "runtimes.h"

#define CPL_RUNTIME(sym) extern const struct js_runtime_ops sym;
#include "runtime_registry.def"
#undef CPL_RUNTIME

const struct js_runtime_ops *const cpl_runtime_registry[] = {
#define CPL_RUNTIME(sym) &sym,
#include "runtime_registry.def"
#undef CPL_RUNTIME
    NULL,
};

int cpl_runtimes_all(const struct js_runtime_ops **out, int max)
{
	int n = 0;
	for (const struct js_runtime_ops *const *r = js_runtime_registry; *r; r++)
		if (n < max)
			out[n++] = *r;
		else
			return -1;
	for (const struct js_runtime_ops *const *r = cpl_runtime_registry; *r; r++)
		if (n < max)
			out[n++] = *r;
		else
			return -1;
	out[n] = NULL;
	return n;
}

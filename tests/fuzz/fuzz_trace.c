/* Fuzz harness: time-independent traces (reader and checker). */
#include "fuzz_input.h"
#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, ".txt");
	if (!path)
		return 0;
	struct trace *t = NULL;
	struct cmn_err e;
	if (trace_load(path, &t, &e) == 0)
		trace_check(t, &e);
	trace_free(t);
	return 0;
}

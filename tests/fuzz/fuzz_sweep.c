/* Fuzz harness: sweep files. */
#include "../../coupling/sweep/sweep.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, ".sweep");
	if (!path)
		return 0;
	struct cpl_sweep *s = NULL;
	struct cmn_err e;
	if (cpl_sweep_read(path, "/tmp/placesim-fuzz-sweep-out", &s, &e) == 0)
		cpl_sweep_free(s);
	return 0;
}

/* Fuzz harness: tar archives (gzip'ed or plain) unpacked into a folder of
 * this process's own, emptied after each input. */
#include <sys/stat.h>

#include "../../apptraces/untar.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char dir[128];
	if (!dir[0]) {
		snprintf(dir, sizeof dir, "%s/placesim-fuzz-untar-%ld", fuzz_tmpdir(),
		         (long)getpid());
		mkdir(dir, 0700);
	}
	const char *path = fuzz_file(data, size, ".tar.gz");
	if (!path)
		return 0;
	struct trace_unpacked u = {0};
	struct cmn_err e;
	trace_untar_gz(path, dir, &u, &e);
	trace_unpacked_remove(&u);
	return 0;
}

/* Fuzz harness: SimGrid platform XML read into a machine, of at most 2^16
 * hosts: every limit check is reached, while a cluster of 930,177 hosts
 * (3 s natively) took three minutes under a loaded UBSan run. */
#include "fuzz_input.h"
#include "platform.h"
#include "xml_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, ".xml");
	if (!path)
		return 0;
	struct plat_machine *m = NULL;
	struct cmn_err e;
	if (plat_load_max(path, 1 << 16, &m, &e) == 0 && m->nodes > 1)
		plat_distance(m, 0, m->nodes - 1);
	plat_machine_destroy(m);
	return 0;
}

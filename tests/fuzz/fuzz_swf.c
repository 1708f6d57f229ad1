/* Fuzz harness: SWF logs (reader, header, cleaning, statistics). The first
 * byte picks --skip-bad; the rest is the file. */
#include <gsl/gsl_errno.h>

#include "../../jobsched/metrics/metrics.h"
#include "../../jobsched/workload/workload.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	gsl_set_error_handler_off();
	const char *path = fuzz_file(data + 1, size - 1, ".swf");
	if (!path)
		return 0;
	struct js_workload *w = NULL;
	struct cmn_err e;
	if (js_swf_read(path, data[0] & 1, &w, &e) == 0) {
		struct js_clean_opts o;
		js_clean_opts_default(&o);
		o.procs_per_node = data[0] & 2 ? 0 : 1;
		if (js_clean(w, &o, 64, &e) == 0) {
			struct js_wstats s;
			js_wstats_compute(w, 64, &s, &e);
		}
	}
	js_workload_free(w);
	return 0;
}

/* Fuzz harness: Batsim JSON workloads (reader, cleaning, statistics). The
 * first byte picks --procs-per-node auto; the rest is the file. */
#include <gsl/gsl_errno.h>

#include "../../jobsched/metrics/metrics.h"
#include "../../jobsched/workload/workload.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	gsl_set_error_handler_off();
	const char *path = fuzz_file(data + 1, size - 1, ".json");
	if (!path)
		return 0;
	struct js_workload *w = NULL;
	struct cmn_err e;
	if (js_batsim_read(path, &w, &e) == 0) {
		char buf[24];
		for (size_t i = 0; i < w->n; i++)
			js_job_id_text(w, &w->jobs[i], buf);
		struct js_clean_opts o;
		js_clean_opts_default(&o);
		o.procs_per_node = data[0] & 1 ? 0 : 1;
		if (js_workload_check_replayed(w, 0, "log", &e) == 0 &&
		    js_clean(w, &o, 64, &e) == 0) {
			struct js_wstats s;
			js_wstats_compute(w, 64, &s, &e);
		}
	}
	js_workload_free(w);
	return 0;
}

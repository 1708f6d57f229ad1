/* Fuzz harness: "name:key=value,..." specifications against every
 * registry, and machines built from them (their derived sizes), up to
 * 2^16 nodes. */
#include "../../coupling/models/runtimes.h"
#include "../../jobsched/alloc/alloc.h"
#include "../../jobsched/resize/resize.h"
#include "../../jobsched/runtime/runtime.h"
#include "../../jobsched/sched/sched.h"
#include "../../jobsched/workload/synth.h"
#include "../../netsim/traffic/traffic.h"
#include "fuzz_input.h"
#include "gen.h"
#include "netsim.h"
#include "platform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = fuzz_string(data, size);
	if (!spec)
		return 0;
	struct cmn_err e;
	struct plat_machine *m = NULL;
	/* at most 2^16 nodes built: every size check is reached, while building
	 * a 2^20-node machine (a second natively, a minute under a loaded
	 * sanitizer run) would take the fuzzer's time and trip its timeout */
	if (plat_machine_create_max(spec, 1 << 16, &m, &e) == 0 && m->nodes > 1)
		plat_distance(m, 0, m->nodes - 1);
	plat_machine_destroy(m);
	const void *const *regs[] = {
	    (const void *const *)js_alloc_registry,    (const void *const *)js_sched_registry,
	    (const void *const *)js_resize_registry,   (const void *const *)js_synth_registry,
	    (const void *const *)cpl_runtime_registry, (const void *const *)net_traffic_registry,
	    (const void *const *)net_engine_registry,  (const void *const *)trace_gen_registry,
	};
	for (size_t r = 0; r < sizeof regs / sizeof *regs; r++) {
		const void *ops;
		struct cmn_params p;
		cmn_spec_resolve(regs[r], spec, "fuzzed", &ops, &p, &e);
	}
	free(spec);
	return 0;
}

/* cosim: the scheduling simulator with run times that emerge from placement
 * and contention: jobsched's command line and models plus the coupling
 * layer's (linkload so far). */
#include <stddef.h>

#include "../jobsched/cli.h"
#include "rt_linkload.h"

int main(int argc, char **argv)
{
	const struct js_runtime_ops *runtimes[32];
	int n = 0;
	for (const struct js_runtime_ops *const *r = js_runtime_registry; *r && n < 30; r++)
		runtimes[n++] = *r;
	runtimes[n++] = &cpl_rt_linkload_ops;
	runtimes[n] = NULL;
	return js_cli_main(argc, argv, "cosim", runtimes);
}

/* cosim: the scheduling simulator with run times that emerge from placement
 * and contention: jobsched's command line and models plus the coupling
 * layer's (runtime_registry.def); with --out DIR, a study of one run per
 * --alloc (study.h). */
#include <stdlib.h>

#include <stdio.h>

#include "../../common/outfile.h"
#include "../../jobsched/cli/cli.h"
#include "../models/runtimes.h"
#include "study.h"

/* What the tool printed on stdout may be lost (a full disk): exit 1 then. */
static void stdout_check(void)
{
	cmn_outfile_stdout_check("cosim");
}

int main(int argc, char **argv)
{
	cmn_outfile_size_limit_errors();
	atexit(stdout_check);
	const struct js_runtime_ops *runtimes[64];
	if (cpl_runtimes_all(runtimes, 63) < 0) {
		fprintf(stderr, "cosim: too many run-time models\n");
		return 1;
	}
	struct cpl_study_opts so;
	struct js_cli_ext ext;
	cpl_study_ext(&so, &ext);
	struct js_cli c;
	int k = js_cli_parse(argc, argv, "cosim", runtimes, &ext, &c);
	return k ? cmn_cli_status(k) : cpl_study_main(&c, &so);
}

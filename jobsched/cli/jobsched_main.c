/* jobsched: the scheduling simulator with jobsched's own run-time models. */
#include <stdlib.h>

#include "../../common/outfile.h"
#include "cli.h"

/* What the tool printed on stdout may be lost (a full disk): exit 1 then. */
static void stdout_check(void)
{
	cmn_outfile_stdout_check("jobsched");
}

int main(int argc, char **argv)
{
	cmn_outfile_size_limit_errors();
	atexit(stdout_check);
	return js_cli_main(argc, argv, "jobsched", js_runtime_registry);
}

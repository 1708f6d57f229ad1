/* jobsched: the scheduling simulator with jobsched's own run-time models. */
#include "cli.h"

int main(int argc, char **argv)
{
	return js_cli_main(argc, argv, "jobsched", js_runtime_registry);
}

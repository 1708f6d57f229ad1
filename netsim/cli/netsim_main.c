/* netsim: jobs' communication traces replayed together on a platform
 * (--job), or synthetic traffic on the flit-level network (--traffic);
 * the command line in netsim_cli.h. */
#include <stdlib.h>

#include "../../common/options.h"
#include "../../common/outfile.h"
#include "netsim_cli.h"

/* What the tool printed on stdout may be lost (a full disk): exit 1 then. */
static void stdout_check(void)
{
	cmn_outfile_stdout_check("netsim");
}

int main(int argc, char **argv)
{
	cmn_outfile_size_limit_errors();
	atexit(stdout_check);
	struct net_cli c;
	int k = net_cli_parse(argc, argv, &c);
	if (k)
		return cmn_cli_status(k);
	return c.traffic ? net_synth_main(&c) : net_replay_main(&c);
}

/* netsim: jobs' communication traces replayed together on a platform
 * (--job), or synthetic traffic on the flit-level network (--traffic);
 * the command line in netsim_cli.h. */
#include "../../common/options.h"
#include "netsim_cli.h"

int main(int argc, char **argv)
{
	struct net_cli c;
	int k = net_cli_parse(argc, argv, &c);
	if (k)
		return cmn_cli_status(k);
	return c.traffic ? net_synth_main(&c) : net_replay_main(&c);
}

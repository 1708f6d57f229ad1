/* netsim's synthetic-traffic mode (--traffic, synth_cli.c). */
#ifndef NET_SYNTH_CLI_H
#define NET_SYNTH_CLI_H

/* netsim's main when --traffic is among the arguments; its exit code. */
int net_synth_main(int argc, char **argv);

#endif

/* Synthetic traffic on the flit-level network (issue 8): Bernoulli
 * injection at an offered load, a pattern's destinations, and the
 * measurement of latency and accepted throughput.
 *
 * Each cycle every node starts a packet of `packet` flits with probability
 * load / packet (so `load` flits per node per cycle are offered) to the
 * pattern's destination (none where the pattern has none); with the
 * engine's source_queue, a node whose source is full keeps the packet it
 * drew waiting and draws no other until it enters, its creation being
 * that entry (INSEE's injection buffer). After `warmup`
 * cycles, samples of `sample` cycles each: a sample's figures are the
 * packets delivered during it (latency: creation to tail ejection) and
 * the flits they carried. The run stops when the last three samples agree
 * within `tolerance` (mean latency and accepted throughput, max / min - 1:
 * INSEE's rule of three samples within 5%), or at `max_cycles` measured
 * cycles (then converged = 0: typically beyond saturation). Reported: the
 * figures over every measured sample (mean and 99th-percentile latency,
 * accepted flits per node per cycle). */
#ifndef NET_FLIT_SYNTH_H
#define NET_FLIT_SYNTH_H

#include "../traffic/traffic.h"
#include "flit_net.h"

struct flit_synth_opts {
	double load; /* offered flits per node per cycle, (0, 1] */
	int packet;  /* flits per packet */
	long warmup, sample, max_cycles;
	double tolerance;
	unsigned long seed;
	long *link_flits; /* optional (m->nlinks): the flits each link carried, whole run */
};

void net_flit_synth_default(
    struct flit_synth_opts *o); /* 1 flit, 10k warm-up, 10k samples, 1M max, 5% */

struct flit_synth_result {
	double offered, accepted; /* flits per node per cycle */
	double mean_lat, p99_lat; /* cycles */
	long packets, samples;    /* delivered in the measured samples */
	long cycles;              /* simulated in all, warm-up included */
	int converged;
	double wall_s;  /* wall time of the run */
	long flit_hops; /* flits that crossed a link, whole run */
};

int net_flit_synth_run(const struct plat_machine *m, const struct flit_params *p,
                       const struct net_traffic *t, const struct flit_synth_opts *o,
                       struct flit_synth_result *r, struct cmn_err *e);

#endif

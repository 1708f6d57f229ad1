/* Live sessions (netsim.h's net_live_*) across engines: each engine's
 * session embeds struct net_live first and fills in its operations. */
#ifndef NET_LIVE_H
#define NET_LIVE_H

#include "../netsim.h"

struct net_live_ops {
	int (*start)(struct net_live *lv, const struct net_job *job, struct cmn_err *e);
	int (*wait)(struct net_live *lv, double t, double *t_out, int *ended, int max);
	double (*now)(const struct net_live *lv);
};

struct net_live {
	const struct net_live_ops *ops;
};

#endif

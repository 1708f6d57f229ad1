/* netsim.h's live-session calls, dispatched to the session's engine. */
#include "live.h"

int net_live_start(struct net_live *lv, const struct net_job *job, struct cmn_err *e)
{
	return lv->ops->start(lv, job, e);
}

int net_live_wait(struct net_live *lv, double t, double *t_out, int *ended, int max)
{
	return lv->ops->wait(lv, t, t_out, ended, max);
}

double net_live_now(const struct net_live *lv)
{
	return lv->ops->now(lv);
}

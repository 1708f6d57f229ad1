/* A rank's walk through a trace with a repeated range (walk.h). */
#include "walk.h"

void net_walk_init(struct net_walk *w, const struct trace *t, const struct net_repeat *rp, int r)
{
	long first = t->first[r], last = t->first[r + 1];
	if (!rp || rp->times == 1 || rp->begin[r] == rp->end[r])
		*w = (struct net_walk){first, last, -1, -1, last, 0, 2};
	else
		*w = (struct net_walk){
		    first, rp->begin[r], rp->begin[r], rp->end[r], last, rp->times, 0};
}

long net_walk_next(struct net_walk *w)
{
	while (w->pc == w->stop) {
		if (w->phase == 2)
			return -1;
		if (w->phase == 1) /* a run of the range ended */
			w->passes--;
		w->phase = 1;
		if (w->passes > 0) {
			w->pc = w->begin;
			w->stop = w->end;
		} else {
			w->phase = 2;
			w->pc = w->end;
			w->stop = w->last;
		}
	}
	return w->pc++;
}

long net_walk_times(const struct net_repeat *rp, int r, long i)
{
	return rp && i >= rp->begin[r] && i < rp->end[r] ? rp->times : 1;
}

double net_walk_actions(const struct trace *t, const struct net_repeat *rp, int r)
{
	double n = (double)(t->first[r + 1] - t->first[r]);
	if (rp)
		n += (double)(rp->end[r] - rp->begin[r]) * ((double)rp->times - 1);
	return n;
}

int net_repeat_check(const struct net_job *job, struct cmn_err *e)
{
	const struct net_repeat *rp = job->repeat;
	const struct trace *t = job->trace;
	if (!rp)
		return 0;
	if (rp->times < 0)
		return cmn_err_set(e, CMN_EUSAGE, "job %s: a range repeated %ld times", job->name,
		                   rp->times);
	for (int r = 0; r < t->nranks; r++)
		if (!(t->first[r] <= rp->begin[r] && rp->begin[r] <= rp->end[r] &&
		      rp->end[r] <= t->first[r + 1]))
			return cmn_err_set(e, CMN_EUSAGE,
			                   "job %s: rank %d: repeated range [%ld, %ld) outside its "
			                   "actions [%ld, %ld)",
			                   job->name, r, rp->begin[r], rp->end[r], t->first[r],
			                   t->first[r + 1]);
	return 0;
}

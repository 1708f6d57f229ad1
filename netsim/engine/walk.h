/* A rank's walk through its trace when a range of it repeats (netsim.h's
 * net_repeat: a job's iteration held once, run K times). Shared by
 * the engines that honour repeats (s4u, flit), so that a repeated trace
 * runs exactly as the trace with the range written out K times. */
#ifndef NET_WALK_H
#define NET_WALK_H

#include "../netsim.h"

struct net_walk {
	long pc, stop;         /* next action; the end of the current stretch */
	long begin, end, last; /* the repeated range; the rank's end */
	long passes;           /* runs of the range still to start */
	int phase;             /* 0 before the range, 1 in it, 2 after it */
};

/* Rank r of t from its first action (rp NULL: no repeat). */
void net_walk_init(struct net_walk *w, const struct trace *t, const struct net_repeat *rp, int r);
/* The index in t->act of the rank's next action, or -1 at its end (and
 * from then on). */
long net_walk_next(struct net_walk *w);

/* Actions rank r runs (the range counted `times` times). */
double net_walk_actions(const struct trace *t, const struct net_repeat *rp, int r);
/* How many times action i of rank r runs: the range's `times`, else 1. */
long net_walk_times(const struct net_repeat *rp, int r, long i);

/* 0 when rp fits t (every rank's range inside its actions, times >= 0),
 * else a usage error naming the job. */
int net_repeat_check(const struct net_job *job, struct cmn_err *e);

#endif

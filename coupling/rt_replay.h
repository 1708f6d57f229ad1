/* The replaying run-time models' shared implementation (rt_simgrid.c):
 * "simgrid" and "flit" differ only in the netsim engine they replay on and
 * in their parameter tables; both declare mode, alltoall, shape and the
 * profile parameters. */
#ifndef CPL_RT_REPLAY_H
#define CPL_RT_REPLAY_H

#include <stdio.h>

#include "../jobsched/runtime.h"

/* model: the name in messages and reports; engine: "NAME[:KEY=VALUE,..]". */
int cpl_rt_replay_create(const struct cmn_params *p, const char *model, const char *engine,
                         void **self, struct cmn_err *e);
void cpl_rt_replay_destroy(void *self);
double cpl_rt_replay_work(void *self, struct js_sim *sim, int j, const int *nodes, int n,
                          struct cmn_err *e);
int cpl_rt_replay_rates(void *self, struct js_sim *sim, double *rates, struct cmn_err *e);
void cpl_rt_replay_report(void *self, FILE *f);

#endif

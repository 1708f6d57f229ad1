/* Run-time model "flit": the "simgrid" model's iteration replays
 * (rt_replay.h: isolated or shared, reference placement, cache by shape)
 * on netsim's flit-level engine, with a preset and compute as flops or
 * zero. */
#include <stdio.h>

#include "../profiles/jobprof.h"
#include "../replay/replay.h"
#include "rt_replay.h"

static const struct cmn_param_def flit_rt_params[] = {
    CPL_REPLAY_MODE_PARAM,
    CPL_FLIT_ENGINE_PARAMS,
    CPL_FLIT_MEMORY_PARAM,
    CPL_ALLTOALL_PARAM,
    CPL_REPLAY_SHAPE_PARAM,
    CPL_REPLAY_GROUP_CACHE_PARAM,
    CPL_REPLAY_ITERATION_PARAM,
    CPL_REPLAY_INTERVAL_PARAM,
    CPL_REPLAY_AHEAD_PARAM,
    CPL_PROFILE_PARAMS,
    {NULL},
};

static int flit_rt_create(const struct cmn_params *p, void **self, struct cmn_err *e)
{
	char engine[160];
	if (cpl_flit_engine_check(p, e))
		return e->code;
	cpl_flit_engine_spec(p, (long)cmn_params_num(p, "max_memory"), engine, sizeof engine);
	return cpl_rt_replay_create(p, "flit", engine, self, e);
}

static const char *const flit_rt_samples[] = {"flit:class=S", "flit:mode=shared,class=S", NULL};

const struct js_runtime_ops cpl_rt_flit_ops = {
    .base = {"flit",
             "emergent: iteration time replayed by the flit-level engine, each job alone "
             "(isolated) or all running jobs together (shared); rate = reference / actual",
             flit_rt_params, flit_rt_samples},
    .create = flit_rt_create,
    .columns = cpl_profile_columns,
    .destroy = cpl_rt_replay_destroy,
    .work_s = cpl_rt_replay_work,
    .replays_profiles = 1,
    .rates = cpl_rt_replay_rates,
    .report = cpl_rt_replay_report,
    .resize_iter = cpl_rt_replay_resize_iter,
};

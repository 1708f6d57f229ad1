/* The coupling layer's run-time models, for cosim's registry. */
#ifndef CPL_RT_LINKLOAD_H
#define CPL_RT_LINKLOAD_H

#include "../jobsched/runtime.h"

extern const struct js_runtime_ops cpl_rt_linkload_ops;

#endif

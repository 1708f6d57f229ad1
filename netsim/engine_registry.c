/* The registry of network engines (one line each in engine_registry.def). */
#include <stddef.h>

#include "netsim.h"

const struct cmn_param_def net_no_params[] = {{NULL}};

#define NET_ENGINE(sym) extern const struct net_engine_ops sym;
#include "engine_registry.def"
#undef NET_ENGINE

const struct net_engine_ops *const net_engine_registry[] = {
#define NET_ENGINE(sym) &sym,
#include "engine_registry.def"
#undef NET_ENGINE
    NULL,
};

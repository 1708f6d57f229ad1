/* The registry of topology families (one line each in topology_registry.def). */
#include <stddef.h>

#include "platform.h"

#define PLAT_TOPOLOGY(sym) extern const struct plat_topology_ops sym;
#include "topology_registry.def"
#undef PLAT_TOPOLOGY

const struct plat_topology_ops *const plat_topology_registry[] = {
#define PLAT_TOPOLOGY(sym) &sym,
#include "topology_registry.def"
#undef PLAT_TOPOLOGY
    NULL,
};

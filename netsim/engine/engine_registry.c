/* The registry of network engines (one line each in engine_registry.def). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../netsim.h"

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

const struct net_engine_ops *net_engine_find(const char *spec, const char **params,
                                             struct cmn_err *e)
{
	char name[64];
	const char *colon = strchr(spec, ':');
	snprintf(name, sizeof name, "%.*s", colon ? (int)(colon - spec) : 63, spec);
	*params = colon ? colon + 1 : NULL;
	if (colon && !colon[1]) {
		cmn_err_set(e, CMN_EUSAGE, "engine '%s': no parameters after ':'", spec);
		return NULL;
	}
	return cmn_registry_find((const void *const *)net_engine_registry, name, "engine", e);
}

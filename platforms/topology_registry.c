/* The registry of topology families and the machine object built from it. */
#include <stdlib.h>

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

int plat_machine_create(const char *spec, struct plat_machine **out, struct cmn_err *e)
{
	*out = NULL;
	struct plat_machine *m = calloc(1, sizeof *m);
	if (!m)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	const void *ops;
	int rc = cmn_spec_resolve((const void *const *)plat_topology_registry, spec, "machine",
	                          &ops, &m->params, e);
	if (rc) {
		free(m);
		return rc;
	}
	m->ops = ops;
	rc = m->ops->create(&m->params, &m->state, e);
	if (rc) {
		free(m);
		return rc;
	}
	m->nodes = m->ops->node_count(m->state);
	cmn_params_format(m->ops->base.name, &m->params, m->spec, sizeof m->spec);
	*out = m;
	return 0;
}

void plat_machine_destroy(struct plat_machine *m)
{
	if (!m)
		return;
	m->ops->destroy(m->state);
	free(m);
}

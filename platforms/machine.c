/* The machine object: a family's state plus its vertices and links, built
 * through a plat_builder. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"

int plat_check_size(const struct plat_builder *b, const char *how, long long nodes, long long links,
                    struct cmn_err *e)
{
	long long max = b->max_nodes;
	if (nodes < 1)
		return cmn_err_set(e, CMN_EUSAGE, "%s = %lld nodes (a machine needs at least one)",
		                   how, nodes);
	if (nodes > max && nodes < LLONG_MAX)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "%s = %lld nodes: more than the limit of %lld nodes per machine",
		                   how, nodes, max);
	if (nodes > max)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "%s nodes: more than the limit of %lld nodes per machine", how,
		                   max);
	if (links > PLAT_MAX_LINKS)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "%s: %s%lld links: more than the limit of %d links per machine",
		                   how, links == LLONG_MAX ? "over " : "", links, PLAT_MAX_LINKS);
	return 0;
}

int plat_add_vertex(struct plat_builder *b, int kind, int level, int index)
{
	if (b->failed)
		return -1;
	if (b->nv == PLAT_MAX_NODES + PLAT_MAX_LINKS) {
		b->failed = 2;
		return -1;
	}
	if (b->nv == b->cap_v) {
		int cap = b->cap_v ? 2 * b->cap_v : 1024;
		struct plat_vertex *v = realloc(b->v, (size_t)cap * sizeof *v);
		if (!v) {
			b->failed = 1;
			return -1;
		}
		b->v = v;
		b->cap_v = cap;
	}
	b->v[b->nv] = (struct plat_vertex){kind, level, index};
	return b->nv++;
}

int plat_add_link(struct plat_builder *b, int src, int dst, double bw_bps, double lat_s)
{
	if (b->failed)
		return -1;
	if (b->nl == PLAT_MAX_LINKS) {
		b->failed = 2;
		return -1;
	}
	if (b->nl == b->cap_l) {
		int cap = b->cap_l ? 2 * b->cap_l : 1024;
		struct plat_link *l = realloc(b->l, (size_t)cap * sizeof *l);
		if (!l) {
			b->failed = 1;
			return -1;
		}
		b->l = l;
		b->cap_l = cap;
	}
	b->l[b->nl] = (struct plat_link){src, dst, bw_bps, lat_s};
	return b->nl++;
}

int plat_builder_nodes(struct plat_builder *b, int nodes)
{
	b->nodes = nodes;
	for (int i = 0; i < nodes; i++)
		if (plat_add_vertex(b, PLAT_V_NODE, 0, i) < 0)
			return -1;
	return 0;
}

int plat_machine_create(const char *spec, struct plat_machine **out, struct cmn_err *e)
{
	return plat_machine_create_max(spec, PLAT_MAX_NODES, out, e);
}

int plat_machine_create_max(const char *spec, int max_nodes, struct plat_machine **out,
                            struct cmn_err *e)
{
	*out = NULL;
	if (max_nodes < 1 || max_nodes > PLAT_MAX_NODES)
		max_nodes = PLAT_MAX_NODES;
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
	struct plat_builder b;
	memset(&b, 0, sizeof b);
	b.max_nodes = max_nodes;
	rc = m->ops->create(&m->params, &b, &m->state, e);
	if (!rc && (b.failed || b.nodes < 1 || b.nodes > max_nodes)) {
		m->ops->destroy(m->state);
		rc = b.failed == 1 ? cmn_err_set(e, CMN_ENOMEM, "out of memory")
		                   : cmn_err_set(e, CMN_EUSAGE,
		                                 "%d nodes, %d links: beyond the limits of %d "
		                                 "nodes and %d links per machine",
		                                 b.nodes, b.nl, max_nodes, PLAT_MAX_LINKS);
	}
	if (rc) {
		cmn_err_prefix(e, "machine '%s'", spec);
		free(b.v);
		free(b.l);
		free(m);
		return rc;
	}
	m->nodes = b.nodes;
	m->speed_flops = cmn_params_num(&m->params, "speed");
	m->vertices = b.v;
	m->nvertices = b.nv;
	m->links = b.l;
	m->nlinks = b.nl;
	cmn_params_format(m->ops->base.name, &m->params, m->spec, sizeof m->spec);
	*out = m;
	return 0;
}

int plat_route_extra(const struct plat_machine *m)
{
	return m->ops->route_extra ? m->ops->route_extra(m->state) : 0;
}

int plat_canon(const struct plat_machine *m, const int *nodes, int n, int *out)
{
	if (m->ops->canon)
		return m->ops->canon(m->state, nodes, n, out);
	memcpy(out, nodes, (size_t)n * sizeof *out);
	return 0;
}

int plat_shape(const struct plat_machine *m, const int *nodes, int n, int *out)
{
	if (m->ops->shape)
		return m->ops->shape(m->state, nodes, n, out);
	return plat_canon(m, nodes, n, out);
}

void plat_machine_destroy(struct plat_machine *m)
{
	if (!m)
		return;
	m->ops->destroy(m->state);
	free(m->vertices);
	free(m->links);
	if (m->host_names)
		for (int i = 0; i < m->nodes; i++)
			free(m->host_names[i]);
	free(m->host_names);
	free(m->source_xml);
	free(m);
}

int plat_machine_set_source(struct plat_machine *m, const char *path, char **names,
                            struct cmn_err *e)
{
	if (!(m->source_xml = strdup(path))) {
		for (int i = 0; names && i < m->nodes; i++)
			free(names[i]);
		free(names);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	m->host_names = names;
	return 0;
}

int plat_own_model_check(const struct plat_machine *m, const char *who, int needs_routers,
                         struct cmn_err *e)
{
	if (needs_routers && m->nlinks > 0 && m->links[0].src < 0)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "%s needs the machine's routers: %s is routed by SimGrid itself "
		                   "(its routes are lists of links, no routers join them); use a "
		                   "SimGrid engine, or a platform of one of platgen's families",
		                   who, m->source_xml ? m->source_xml : m->spec);
	if (m->limits[0])
		return cmn_err_set(e, CMN_EUSAGE,
		                   "%s cannot model %s: %s; SimGrid's engines can (netsim --engine "
		                   "simgrid or s4u, cosim --runtime simgrid)",
		                   who, m->source_xml ? m->source_xml : m->spec, m->limits);
	return 0;
}

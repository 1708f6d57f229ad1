/* A machine of any SimGrid platform, from SimGrid's own routes (platform.h,
 * plat_machine_from_routes): no family's shape, a whole route table. Built
 * by netsim's importer (netsim/simgrid/sg_import.c), which asks SimGrid;
 * there is no specification that makes one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"

struct routes {
	int nodes, max_route;
	long long *first;
	int *links;
};

static const struct cmn_param_def routes_params[] = {
    {"file", CMN_PT_STRING, NULL, 0, 0, NULL, "the SimGrid platform file it was read from"},
    {NULL},
};

static int routes_create(struct cmn_params *p, struct plat_builder *b, void **state,
                         struct cmn_err *e)
{
	(void)p;
	(void)b;
	(void)state;
	return cmn_err_set(e, CMN_EUSAGE,
	                   "a routes machine is read from a SimGrid platform file (--platform), "
	                   "not made from a specification");
}

static void routes_destroy(void *state)
{
	struct routes *r = state;
	if (r) {
		free(r->first);
		free(r->links);
	}
	free(r);
}

static int routes_distance(const void *state, int a, int b)
{
	const struct routes *r = state;
	size_t k = (size_t)a * (size_t)r->nodes + (size_t)b;
	return (int)(r->first[k + 1] - r->first[k]);
}

static int routes_route(const void *state, int a, int b, int *links)
{
	const struct routes *r = state;
	size_t k = (size_t)a * (size_t)r->nodes + (size_t)b;
	int n = (int)(r->first[k + 1] - r->first[k]);
	memcpy(links, r->links + r->first[k], (size_t)n * sizeof *links);
	return n;
}

static int routes_max_route(const void *state)
{
	return ((const struct routes *)state)->max_route;
}

static int routes_ndims(const void *state)
{
	(void)state;
	return 0;
}

static void routes_coords(const void *state, int node, int *c)
{
	(void)state;
	(void)node;
	(void)c;
}

static const struct plat_topology_ops routes_ops = {
    .base = {"routes", "any SimGrid platform, as SimGrid routes it (--platform FILE)",
             routes_params},
    .create = routes_create,
    .destroy = routes_destroy,
    .distance = routes_distance,
    .route = routes_route,
    .max_route = routes_max_route,
    .ndims = routes_ndims,
    .coords = routes_coords,
};

static void free_arrays(struct plat_routes *r)
{
	free(r->bw_bps);
	free(r->lat_s);
	free(r->first);
	free(r->links);
	r->bw_bps = r->lat_s = NULL;
	r->first = NULL;
	r->links = NULL;
}

/* Checks r's table: sizes within the limits, routes of known links, none
 * from a node to itself, every two nodes joined. */
static int check(const struct plat_routes *r, const char *path, struct cmn_err *e)
{
	if (r->nodes < 1 || r->nodes > PLAT_ROUTES_MAX_NODES)
		return cmn_err_set(
		    e, CMN_EINPUT,
		    "%s: %d hosts: a platform read through SimGrid's routes has 1 to "
		    "%d (its route table is whole)",
		    path, r->nodes, PLAT_ROUTES_MAX_NODES);
	if (r->nlinks < 0 || r->nlinks > PLAT_MAX_LINKS)
		return cmn_err_set(e, CMN_EINPUT, "%s: %d links: beyond the limit of %d", path,
		                   r->nlinks, PLAT_MAX_LINKS);
	size_t n = (size_t)r->nodes;
	if (r->first[0] != 0 || r->first[n * n] > PLAT_ROUTES_MAX_HOPS)
		return cmn_err_set(e, CMN_EINPUT,
		                   "%s: routes of %lld links in all: beyond the limit of %lld",
		                   path, r->first[n * n], PLAT_ROUTES_MAX_HOPS);
	for (size_t k = 0; k < n * n; k++)
		if (r->first[k + 1] < r->first[k])
			return cmn_err_set(e, CMN_EINPUT, "%s: a malformed route table", path);
	for (long long i = 0; i < r->first[n * n]; i++)
		if (r->links[i] < 0 || r->links[i] >= r->nlinks)
			return cmn_err_set(e, CMN_EINPUT, "%s: a route names link %d of %d", path,
			                   r->links[i], r->nlinks);
	return 0;
}

int plat_machine_from_routes(struct plat_routes *r, const char *path, struct plat_machine **out,
                             struct cmn_err *e)
{
	*out = NULL;
	int rc = check(r, path, e);
	struct plat_machine *m = rc ? NULL : calloc(1, sizeof *m);
	struct routes *st = m ? malloc(sizeof *st) : NULL;
	struct plat_builder b;
	memset(&b, 0, sizeof b);
	b.max_nodes = PLAT_ROUTES_MAX_NODES;
	if (!rc && (!m || !st || plat_builder_nodes(&b, r->nodes)))
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int l = 0; !rc && l < r->nlinks; l++)
		if (plat_add_link(&b, -1, -1, r->bw_bps[l], r->lat_s[l]) < 0)
			rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	if (rc) {
		free(b.v);
		free(b.l);
		free(st);
		free(m);
		free_arrays(r);
		return rc;
	}
	*st = (struct routes){r->nodes, 0, r->first, r->links};
	size_t n = (size_t)r->nodes;
	for (size_t k = 0; k < n * n; k++)
		if (r->first[k + 1] - r->first[k] > st->max_route)
			st->max_route = (int)(r->first[k + 1] - r->first[k]);
	r->first = NULL;
	r->links = NULL;
	free_arrays(r);
	m->ops = &routes_ops;
	m->state = st;
	m->params.defs = routes_params;
	m->params.n = 1;
	snprintf(m->params.str[0], sizeof m->params.str[0], "%s", path);
	m->nodes = r->nodes;
	m->speed_flops = r->speed_flops;
	m->vertices = b.v;
	m->nvertices = b.nv;
	m->links = b.l;
	m->nlinks = b.nl;
	snprintf(m->spec, sizeof m->spec, "routes:file=%s", path);
	*out = m;
	return 0;
}

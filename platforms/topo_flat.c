/* The flat machine: N nodes under one switch, all equidistant (seed 003's
 * fully connected comparison machine). Distance 2 between distinct nodes
 * (up to the switch and down); route: the node's up link, the other's down. */
#include <stdio.h>
#include <stdlib.h>

#include "pairsum.h"
#include "platform.h"
#include "slurm_write.h"
#include "xml_out.h"

struct flat {
	int nodes;
};

static const struct cmn_param_def flat_params[] = {
    {"nodes", CMN_PT_INT, NULL, 1, PLAT_MAX_NODES, NULL, "number of compute nodes"},
    PLAT_LINK_PARAMS,
    {NULL},
};

static int flat_create(struct cmn_params *p, struct plat_builder *b, void **state,
                       struct cmn_err *e)
{
	int nodes = (int)cmn_params_num(p, "nodes");
	char how[32];
	snprintf(how, sizeof how, "nodes=%d", nodes);
	if (plat_check_size(b, how, nodes, 2LL * nodes, e))
		return e->code;
	struct flat *f = malloc(sizeof *f);
	if (!f)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	f->nodes = nodes;
	double bw = cmn_params_num(p, "bw"), lat = cmn_params_num(p, "lat");
	plat_builder_nodes(b, f->nodes);
	int sw = plat_add_vertex(b, PLAT_V_SWITCH, 1, 0);
	for (int i = 0; i < f->nodes; i++) {
		plat_add_link(b, i, sw, bw, lat); /* 2i: up */
		plat_add_link(b, sw, i, bw, lat); /* 2i + 1: down */
	}
	*state = f;
	return 0;
}

static void flat_destroy(void *state)
{
	free(state);
}

static int flat_distance(const void *state, int a, int b)
{
	(void)state;
	return a == b ? 0 : 2;
}

static int flat_route(const void *state, int a, int b, int *links)
{
	(void)state;
	if (a == b)
		return 0;
	links[0] = 2 * a;
	links[1] = 2 * b + 1;
	return 2;
}

static int flat_max_route(const void *state)
{
	(void)state;
	return 2;
}

static int flat_ndims(const void *state)
{
	(void)state;
	return 0;
}

static void flat_coords(const void *state, int node, int *c)
{
	(void)state, (void)node, (void)c;
}

/* Any permutation of the nodes maps the star onto itself: the canonical
 * form numbers nodes 0, 1, .. in order of first use by rank. */
static int flat_canon(const void *state, const int *nodes, int n, int *out)
{
	const struct flat *f = state;
	int *label = malloc((size_t)f->nodes * sizeof *label);
	if (!label)
		return -1;
	for (int r = 0; r < n; r++)
		label[nodes[r]] = -1;
	for (int r = 0, next = 0; r < n; r++) {
		if (label[nodes[r]] < 0)
			label[nodes[r]] = next++;
		out[r] = label[nodes[r]];
	}
	free(label);
	return 0;
}

/* SimGrid XML: a <cluster> without backbone (routes: the two hosts'
 * links). */
static int flat_xml_write(struct plat_xml_out *x, const struct plat_machine *m, const char *id,
                          int first, int link0)
{
	(void)link0;
	return plat_xml_flat_cluster(x, m, id, first, m->nodes, NULL);
}

/* Slurm: one switch over every node. */
static int flat_slurm_write(FILE *f, const struct plat_machine *m, struct cmn_err *e)
{
	(void)e;
	fprintf(f, "SwitchName=s0 Nodes=");
	plat_slurm_range(f, "node-", 0, m->nodes - 1);
	fputc('\n', f);
	return 0;
}

/* Hop sums (pairsum.h): every two distinct nodes are 2 hops apart. */
static int flat_pair_sum(const struct plat_machine *m, const struct plat_view *v, int n,
                         int *scratch, struct plat_isum *s)
{
	(void)m, (void)v, (void)scratch;
	plat_isum_mul(s, 2, plat_pairs((uint64_t)n));
	return 1;
}

static void flat_to_first(const struct plat_machine *m, const struct plat_view *v, int n,
                          int *scratch, struct plat_isum *s)
{
	(void)m, (void)scratch;
	int a, b, i = v->start;
	int zero = plat_view_next(v, &i, &a, &b) && a == 0; /* ascending: node 0 first */
	plat_isum_mul(s, 2, (uint64_t)(n - zero));
}

static const char *const flat_samples[] = {"flat:nodes=1", "flat:nodes=7", "flat:nodes=23", NULL};

const struct plat_topology_ops plat_topo_flat_ops = {
    .base = {"flat", "N nodes under one switch, all equidistant", flat_params, flat_samples},
    .create = flat_create,
    .destroy = flat_destroy,
    .distance = flat_distance,
    .route = flat_route,
    .max_route = flat_max_route,
    .ndims = flat_ndims,
    .coords = flat_coords,
    .canon = flat_canon,
    .xml_write = flat_xml_write,
    .slurm_write = flat_slurm_write,
    .pair_sum = flat_pair_sum,
    .to_first = flat_to_first,
};

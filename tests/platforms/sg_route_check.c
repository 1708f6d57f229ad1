/* sg_route_check --samples: prints every registered family's own samples
 * (its ops' samples), one "SPEC NODES" a line, for the scripts that loop
 * over the registry.
 * sg_route_check PLATFORM.xml MACHINE_SPEC|- [PAIRS]: loads a generated
 * platform into SimGrid and compares SimGrid's own routes with ours for
 * every host pair (or PAIRS pairs spread over them): the link counts as the
 * family's XML construction implies, and the links we name (l<id>: mesh and
 * WAN links) in the same order (as a set across zones: SimGrid groups a
 * multi-zone route by zone). On trees, after net_sg_apply_taper(), each
 * link's bandwidth too (tapering), and that consecutive routes from one
 * source share a link in SimGrid exactly where ours do (the same up ports). Prints "N pairs
 * checked, M differ" and exits 1 on any difference. */
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/dynar.h>

#include "../../netsim/simgrid/sg_platform.h"
#include "platform.h"
#include "xml_read.h"

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Which family m is, by its typed views: 1 a tree, 2 a mesh, 3 a torus,
 * 4 a multi-cluster, 0 another. */
static int kind_of(const struct plat_machine *m)
{
	int k, n, nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS], c;
	if (!m)
		return 0;
	if (plat_kary_ntree_shape(m, &k, &n, NULL) == 0)
		return 1;
	if (plat_grid_shape(m, &nd, dims, wrap, NULL) == 0)
		return wrap[0] ? 3 : 2;
	return plat_multicluster_shape(m, &c, NULL, NULL, NULL) == 0 ? 4 : 0;
}

/* SimGrid's link count for our route of n links from a to b. */
static int expected(const struct plat_machine *m, int a, int b, int n)
{
	int kind = kind_of(m), nd = plat_ndims(m);
	if (kind == 3) /* TORUS hosts route themselves: hops only */
		return plat_distance(m, a, b);
	if (kind == 2) /* plus a turn link per layer change */
		return n ? n + nd - 1 : 0;
	if (kind == 4 && plat_multicluster_inner(m))
		return -1; /* nested: only the named links are compared */
	return n;
}

static int print_samples(void)
{
	for (int f = 0; plat_topology_registry[f]; f++) {
		const struct plat_topology_ops *ops = plat_topology_registry[f];
		for (int k = 0; ops->base.samples && ops->base.samples[k]; k++) {
			struct plat_machine *m;
			struct cmn_err e;
			if (plat_machine_create(ops->base.samples[k], &m, &e)) {
				fprintf(stderr, "%s\n", e.msg);
				return 1;
			}
			printf("%s %d\n", ops->base.samples[k], m->nodes);
			plat_machine_destroy(m);
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--samples") == 0)
		return print_samples();
	simgrid_init(&argc, argv);
	if (argc < 3) {
		fprintf(stderr, "usage: sg_route_check platform.xml machine-spec [pairs]\n");
		return 2;
	}
	struct plat_machine *m;
	struct cmn_err e;
	/* "-": our machine is what plat_load() reads from the file itself */
	if (strcmp(argv[2], "-") == 0 ? plat_load(argv[1], &m, &e)
	                              : plat_machine_create(argv[2], &m, &e)) {
		fprintf(stderr, "%s\n", e.msg);
		return 2;
	}
	simgrid_load_platform(argv[1]);
	simgrid_run(); /* seals the platform: routes can be asked */
	if (net_sg_apply_taper(m, &e) < 0) {
		fprintf(stderr, "%s\n", e.msg);
		return 1;
	}
	int multi = kind_of(m) == 4, tree = kind_of(m) == 1;
	int trees = multi && kind_of(plat_multicluster_inner(m)) == 1;
	long pairs = (long)m->nodes * m->nodes, want = argc > 3 ? atol(argv[3]) : pairs;
	long step = want < 1 ? pairs : pairs > want ? pairs / want : 1, checked = 0, bad = 0;
	int mesh_clusters = multi && kind_of(plat_multicluster_inner(m)) == 2;
	int *ours = malloc((size_t)plat_max_route(m) * sizeof *ours);
	int *named = malloc(((size_t)plat_max_route(m) + 8) * sizeof *named);
	xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
	char name[64];
	/* trees: the previous route from the same source, ours and SimGrid's, to
	 * check that two routes share a link in SimGrid exactly where ours do */
	int prev_a = -1, prev_n = 0,
	    *prev_ours = malloc((size_t)plat_max_route(m) * sizeof *prev_ours);
	sg_link_t *prev_sg = malloc((size_t)plat_max_route(m) * sizeof *prev_sg);
	for (long p = 0; p < pairs; p += step) {
		int a = (int)(p / m->nodes), b = (int)(p % m->nodes);
		if (a == b)
			continue;
		snprintf(name, sizeof name, "node-%d", a);
		sg_host_t ha = sg_host_by_name(name);
		snprintf(name, sizeof name, "node-%d", b);
		sg_host_t hb = sg_host_by_name(name);
		if (!ha || !hb) {
			fprintf(stderr, "host node-%d or node-%d missing\n", a, b);
			return 1;
		}
		xbt_dynar_reset(links);
		sg_host_get_route(ha, hb, links);
		int n = plat_route(m, a, b, ours), sn = (int)xbt_dynar_length(links), nn = 0;
		for (int i = 0; i < sn; i++) { /* SimGrid's links that carry our ids */
			sg_link_t l = xbt_dynar_get_as(links, (unsigned)i, sg_link_t);
			const char *ln = sg_link_get_name(l);
			char *end;
			if (ln[0] == 'l' && ln[1] >= '0' && ln[1] <= '9') {
				long id = strtol(ln + 1, &end, 10);
				if (*end == '\0')
					named[nn++] = (int)id;
			}
		}
		int ok = 1;
		for (int i = 0; tree && i < sn && i < n; i++) { /* link i is our link i */
			sg_link_t l = xbt_dynar_get_as(links, (unsigned)i, sg_link_t);
			double want = m->links[ours[i]].bw_bps, got = sg_link_get_bandwidth(l);
			if (got < want * (1 - 1e-9) || got > want * (1 + 1e-9))
				ok = 0;
		}
		if (trees) { /* clusters of trees: the same bandwidths, as multisets */
			double *bs = malloc((size_t)(sn + n + 1) * sizeof *bs), *bo = bs + sn;
			for (int i = 0; i < sn; i++)
				bs[i] = sg_link_get_bandwidth(
				    xbt_dynar_get_as(links, (unsigned)i, sg_link_t));
			for (int i = 0; i < n; i++)
				bo[i] = m->links[ours[i]].bw_bps;
			qsort(bs, (size_t)sn, sizeof *bs, cmp_double);
			qsort(bo, (size_t)n, sizeof *bo, cmp_double);
			ok = sn == n;
			for (int i = 0; ok && i < n; i++)
				ok = bs[i] == bo[i];
			free(bs);
		}
		if (!multi) { /* one zone: the named links appear in our order */
			int k = 0;
			for (int i = 0; i < nn && ok; i++) {
				while (k < n && ours[k] != named[i])
					k++;
				ok = k < n;
				k++;
			}
		} else { /* SimGrid groups a multi-zone route by zone: compare as sets */
			qsort(named, (size_t)nn, sizeof *named, cmp_int);
			qsort(ours, (size_t)n, sizeof *ours, cmp_int);
			for (int i = 0, k = 0; i < nn && ok; i++, k++) {
				while (k < n && ours[k] < named[i])
					k++;
				ok = k < n && ours[k] == named[i];
			}
			if (mesh_clusters && nn != n) /* there every link of ours is named */
				ok = 0;
		}
		if (tree && sn == n) {
			if (prev_a == a && prev_n == n)
				for (int i = 0; i < n && ok; i++)
					ok = (prev_ours[i] == ours[i]) ==
					     (prev_sg[i] ==
					      xbt_dynar_get_as(links, (unsigned)i, sg_link_t));
			prev_a = a;
			prev_n = n;
			for (int i = 0; i < n; i++) {
				prev_ours[i] = ours[i];
				prev_sg[i] = xbt_dynar_get_as(links, (unsigned)i, sg_link_t);
			}
		}
		int exp = expected(m, a, b, n);
		if ((exp >= 0 && exp != sn) || !ok) {
			if (bad < 5)
				fprintf(stderr,
				        "node-%d -> node-%d: SimGrid %d links, expected %d%s\n", a,
				        b, sn, exp, ok ? "" : " (named links differ)");
			bad++;
		}
		checked++;
	}
	printf("%ld pairs checked, %ld differ\n", checked, bad);
	xbt_dynar_free(&links);
	free(ours);
	free(named);
	free(prev_ours);
	free(prev_sg);
	plat_machine_destroy(m);
	return bad ? 1 : 0;
}

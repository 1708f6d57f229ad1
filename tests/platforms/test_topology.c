/* Topology families: a contract every registered family must meet (loops
 * over the registry with each family's own samples), and fixtures
 * of each family's distances, routes, coordinates and bad specifications. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../helpers.h"
#include "platform.h"

/* Route length in links given the distance: the family says how many
 * links a route has beyond it (-1: any number). */
static int expected_len(const struct plat_machine *m, int dist)
{
	int extra = plat_route_extra(m);
	return extra < 0 ? -1 : dist ? dist + extra : 0;
}

/* The route and distance of one pair: symmetric distance, 0 only from a
 * node to itself, a simple path of links from a to b of the family's
 * length (want < 0: any) and at most max_route links. used: room for
 * nlinks flags, all 0, left so. Returns 0 when all hold. */
static int check_pair(const struct plat_machine *m, const char *spec, int a, int b, int *links,
                      unsigned char *used)
{
	int d = plat_distance(m, a, b), bad = 0;
	if (d != plat_distance(m, b, a) || (a == b) != (d == 0)) {
		fprintf(stderr, "\n  %s: distance %d-%d\n", spec, a, b);
		return 1;
	}
	int n = plat_route(m, a, b, links);
	int want = expected_len(m, d);
	if ((want >= 0 && n != want) || (d > 0 && n == 0) || n > plat_max_route(m)) {
		fprintf(stderr, "\n  %s: route %d->%d has %d links, distance %d\n", spec, a, b, n,
		        d);
		return 1;
	}
	int at = a;
	for (int k = 0; k < n && !bad; k++) {
		if (links[k] < 0 || links[k] >= m->nlinks || m->links[links[k]].src != at ||
		    used[links[k]])
			bad = 1;
		else
			used[links[k]] = 1, at = m->links[links[k]].dst;
	}
	for (int k = 0; k < n; k++)
		if (links[k] >= 0 && links[k] < m->nlinks)
			used[links[k]] = 0;
	if (at != b || bad) {
		fprintf(stderr, "\n  %s: route %d->%d is not a simple path to %d\n", spec, a, b, b);
		return 1;
	}
	return 0;
}

/* The machine's vertices and links, and the pairs of nodes: all of them
 * (all_pairs) or a sample for machines too large for that. */
static int check_built(const struct plat_machine *m, const char *spec, int all_pairs)
{
	int bad = m->nodes < 1 || m->nodes > PLAT_MAX_NODES || m->nlinks < 0 ||
	          m->nlinks > PLAT_MAX_LINKS || m->nvertices < m->nodes || plat_max_route(m) < 0;
	for (int i = 0; i < m->nodes && !bad; i++)
		bad = m->vertices[i].kind != PLAT_V_NODE;
	for (int l = 0; l < m->nlinks && !bad; l++)
		bad = m->links[l].src < 0 || m->links[l].src >= m->nvertices ||
		      m->links[l].dst < 0 || m->links[l].dst >= m->nvertices ||
		      m->links[l].src == m->links[l].dst || !(m->links[l].bw_bps >= 1) ||
		      !isfinite(m->links[l].bw_bps) || !(m->links[l].lat_s >= 0) ||
		      !isfinite(m->links[l].lat_s);
	if (bad) {
		fprintf(stderr,
		        "\n  %s: %d nodes, %d vertices, %d links (bandwidths >= 1 B/s, latencies "
		        ">= 0, finite): not a machine\n",
		        spec, m->nodes, m->nvertices, m->nlinks);
		return 1;
	}
	int *links = malloc(((size_t)plat_max_route(m) + 1) * sizeof *links);
	unsigned char *used = calloc((size_t)m->nlinks + 1, 1);
	int last = m->nodes - 1;
	const int sample[][2] = {{0, last},           {last, 0}, {0, 0},
	                         {last, last / 2},    {1, last}, {last / 3, last},
	                         {last / 2, last / 3}};
	if (all_pairs)
		for (int a = 0; a < m->nodes && !bad; a++)
			for (int b = 0; b < m->nodes && !bad; b++)
				bad = check_pair(m, spec, a, b, links, used);
	for (size_t i = 0; !all_pairs && i < sizeof sample / sizeof *sample && !bad; i++)
		bad = check_pair(m, spec, sample[i][0] % m->nodes, sample[i][1] % m->nodes, links,
		                 used);
	free(links);
	free(used);
	return bad;
}

static int check_machine(const char *spec)
{
	struct plat_machine *m;
	struct cmn_err e;
	if (plat_machine_create(spec, &m, &e)) {
		fprintf(stderr, "\n  %s: %s\n", spec, e.msg);
		return 1;
	}
	int bad = check_built(m, spec, 1);
	plat_machine_destroy(m);
	return bad;
}

/* Every family's own samples (its ops' samples: a family without any
 * fails). */
static void test_contract(void)
{
	for (int i = 0; plat_topology_registry[i]; i++) {
		const struct plat_topology_ops *ops = plat_topology_registry[i];
		CU_ASSERT(ops->base.samples && ops->base.samples[0]);
		if (!ops->base.samples || !ops->base.samples[0]) {
			fprintf(stderr, "\n  family %s brings no samples (its ops' samples)\n",
			        ops->base.name);
			continue;
		}
		for (int k = 0; ops->base.samples[k]; k++)
			CU_ASSERT_EQUAL(check_machine(ops->base.samples[k]), 0);
	}
}

/* Extreme specifications, built from each family's own parameter table so
 * that a newly registered family is covered the moment it is: every
 * numeric parameter at its range's ends and beyond them, every pair of
 * integer parameters over their extremes (k^n, clusters x size: the
 * products that overflow), every choice, and every text parameter given
 * each of the hostile texts below. Each must give a valid machine (within
 * the limits, links between existing vertices, sampled routes simple paths
 * of at most max_route links) or a usage error (or out of memory) whose
 * message quotes the spec; never a crash. */
static const char *const hostile_text[] = {"1",
                                           "4",
                                           "0",
                                           "-1",
                                           "1000",
                                           "1001",
                                           "0.5",
                                           "1e-300",
                                           "nan",
                                           "inf",
                                           "1e999",
                                           " 4",
                                           "4 ",
                                           "0x10",
                                           "99999999999999999999",
                                           "4x4",
                                           "1024x1024",
                                           "1025x1024",
                                           "65536x65536",
                                           "4294967296x4294967296",
                                           "2x2x2x2x2x2x2x2",
                                           "2x2x2x2x2x2x2x2x2",
                                           "4x",
                                           "x4",
                                           "4xx4",
                                           "1/2/",
                                           "1//2",
                                           "/",
                                           "1/1/1/1/1/1/1/1/1/1/1/1/1",
                                           "uniform",
                                           "flat",
                                           "multicluster",
                                           "multicluster;clusters=2",
                                           "kary-ntree",
                                           "kary-ntree;",
                                           "kary-ntree;k=4;n=2",
                                           "kary-ntree;k=4;n=2;",
                                           "kary-ntree;k=64;n=3",
                                           "kary-ntree;k=64;n=11",
                                           "kary-ntree;k=64;n=12",
                                           "kary-ntree;taper=0",
                                           "mesh;dims=1024x1024",
                                           "torus;dims=65536x65536",
                                           "flat;nodes=4"};

/* One spec at a parameter's extremes: built and sound, or refused with a
 * usage (or memory) error that quotes it. Returns the failures. */
static int try_extreme(const char *spec)
{
	int failures = 0;
	struct plat_machine *m = NULL;
	struct cmn_err e;
	cmn_err_clear(&e);
	int rc = plat_machine_create(spec, &m, &e);
	if (rc) {
		if ((rc != CMN_EUSAGE && rc != CMN_ENOMEM) || !strstr(e.msg, spec)) {
			fprintf(stderr, "\n  %s: error %d '%s' does not quote the spec\n", spec, rc,
			        e.msg);
			failures++;
		}
		return failures;
	}
	failures += check_built(m, spec, m->nodes <= 16);
	plat_machine_destroy(m);
	return failures;
}

/* The extremes of a numeric parameter: its ends, a step inside, the middle,
 * its default, and a step beyond each end. Returns how many (at most 7). */
static int extremes(const struct cmn_param_def *d, double *v)
{
	int n = 0;
	double step = d->type == CMN_PT_INT ? 1 : (d->max - d->min) * 1e-6;
	v[n++] = d->max;
	v[n++] = d->min;
	v[n++] = d->max - step;
	v[n++] = d->type == CMN_PT_INT ? floor((d->min + d->max) / 2) : (d->min + d->max) / 2;
	v[n++] = d->def ? atof(d->def) : d->min;
	v[n++] = d->max + (step > 0 ? step : 1);
	v[n++] = d->min - (step > 0 ? step : 1);
	return n;
}

/* name:key=value,.. with the given keys set (NULL: left out, so the
 * default; a required key without one gets base[i]). */
static void spec_of(char *buf, size_t len, const char *name, const struct cmn_param_def *p,
                    const char *const *val, const char *const *base)
{
	size_t used = (size_t)snprintf(buf, len, "%s", name);
	char sep = ':';
	for (int i = 0; p[i].key && used < len; i++) {
		const char *v = val[i] ? val[i] : p[i].def ? NULL : base[i];
		if (!v)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%c%s=%s", sep, p[i].key, v);
		sep = ',';
	}
}

static void test_extremes(void)
{
	int failures = 0;
	for (int f = 0; plat_topology_registry[f]; f++) {
		const struct cmn_plugin *fam = &plat_topology_registry[f]->base;
		const struct cmn_param_def *p = fam->params;
		int np = 0;
		while (p[np].key)
			np++;
		/* required keys: a numeric one its minimum, a text one the first
		 * hostile text that makes a machine with every other default */
		char num[CMN_PARAMS_MAX][7][40], spec[512];
		const char *base[CMN_PARAMS_MAX] = {NULL}, *val[CMN_PARAMS_MAX] = {NULL};
		int nv[CMN_PARAMS_MAX] = {0};
		for (int i = 0; i < np; i++) {
			double v[7];
			nv[i] = p[i].type == CMN_PT_INT || p[i].type == CMN_PT_DOUBLE
			            ? extremes(&p[i], v)
			            : 0;
			for (int k = 0; k < nv[i]; k++)
				snprintf(num[i][k], sizeof num[i][k], "%.17g", v[k]);
			if (nv[i])
				base[i] = num[i][1];
		}
		for (int i = 0; i < np; i++)
			for (size_t h = 0; !p[i].def && !base[i] &&
			                   h < sizeof hostile_text / sizeof *hostile_text;
			     h++) {
				struct plat_machine *m;
				struct cmn_err e;
				base[i] = hostile_text[h];
				spec_of(spec, sizeof spec, fam->name, p, val, base);
				if (plat_machine_create(spec, &m, &e))
					base[i] = NULL;
				plat_machine_destroy(m);
			}
		/* one parameter at a time */
		for (int i = 0; i < np; i++) {
			for (int k = 0; k < nv[i]; k++) {
				val[i] = num[i][k];
				spec_of(spec, sizeof spec, fam->name, p, val, base);
				failures += try_extreme(spec);
			}
			for (size_t h = 0; p[i].type == CMN_PT_STRING &&
			                   h < sizeof hostile_text / sizeof *hostile_text;
			     h++) {
				val[i] = hostile_text[h];
				spec_of(spec, sizeof spec, fam->name, p, val, base);
				failures += try_extreme(spec);
			}
			for (const char *c = p[i].choices; p[i].type == CMN_PT_CHOICE && c && *c;) {
				char word[64];
				size_t l = strcspn(c, "|");
				snprintf(word, sizeof word, "%.*s", (int)l, c);
				val[i] = word;
				spec_of(spec, sizeof spec, fam->name, p, val, base);
				failures += try_extreme(spec);
				c = c[l] ? c + l + 1 : c + l;
			}
			val[i] = NULL;
		}
		/* every pair of integer parameters over their extremes, within range */
		for (int i = 0; i < np; i++)
			for (int j = i + 1; p[i].type == CMN_PT_INT && j < np; j++)
				for (int a = 0; p[j].type == CMN_PT_INT && a < nv[i] - 2; a++)
					for (int b = 0; b < nv[j] - 2; b++) {
						val[i] = num[i][a];
						val[j] = num[j][b];
						spec_of(spec, sizeof spec, fam->name, p, val, base);
						failures += try_extreme(spec);
						val[i] = val[j] = NULL;
					}
		/* every numeric parameter at its maximum, then at its minimum */
		for (int k = 0; k < 2; k++) {
			for (int i = 0; i < np; i++)
				val[i] = nv[i] ? num[i][k] : NULL;
			spec_of(spec, sizeof spec, fam->name, p, val, base);
			failures += try_extreme(spec);
			memset(val, 0, sizeof val);
		}
	}
	CU_ASSERT_EQUAL(failures, 0);
}

static void test_kary_ntree(void)
{
	struct plat_machine *m;
	struct cmn_err e;
	CU_ASSERT_EQUAL_FATAL(plat_machine_create("kary-ntree:k=4,n=3", &m, &e), 0);
	CU_ASSERT_EQUAL(m->nodes, 64);
	CU_ASSERT_EQUAL(m->nvertices, 64 + 3 * 16);
	CU_ASSERT_EQUAL(m->nlinks, 2 * (64 + 2 * 64));
	CU_ASSERT_EQUAL(plat_distance(m, 0, 3), 2);   /* one stage-1 switch */
	CU_ASSERT_EQUAL(plat_distance(m, 0, 4), 4);   /* level 2 */
	CU_ASSERT_EQUAL(plat_distance(m, 15, 16), 6); /* level 3 */
	CU_ASSERT_EQUAL(plat_distance(m, 63, 48), 4);
	int k, n;
	CU_ASSERT_EQUAL(plat_kary_ntree_shape(m, &k, &n, &e), 0);
	CU_ASSERT(k == 4 && n == 3);
	/* deterministic route 1 -> 42 (digits 2,2,2): up by b's digits to the
	 * top switch 42 / 4 = 10, down through switches of index 10 */
	int links[8];
	CU_ASSERT_EQUAL_FATAL(plat_route(m, 1, 42, links), 6);
	int top = m->links[links[2]].dst;
	CU_ASSERT(m->vertices[top].kind == PLAT_V_SWITCH && m->vertices[top].level == 3 &&
	          m->vertices[top].index == 10);
	CU_ASSERT_EQUAL(m->vertices[m->links[links[3]].dst].index, 10);
	/* every choice of up ports is a minimal route ending at the destination */
	for (int u0 = 0; u0 < 4; u0++)
		for (int u1 = 0; u1 < 4; u1++) {
			int ups[2] = {u0, u1}, at = 1;
			int len = plat_kary_ntree_route_via(m, 1, 42, ups, links);
			CU_ASSERT_EQUAL(len, 6);
			for (int x = 0; x < len; x++) {
				CU_ASSERT_EQUAL(m->links[links[x]].src, at);
				at = m->links[links[x]].dst;
			}
			CU_ASSERT_EQUAL(at, 42);
		}
	CU_ASSERT_EQUAL(plat_grid_shape(m, &n, &k, &k, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "mesh or torus"));
	plat_machine_destroy(m);
	CU_ASSERT_EQUAL(plat_machine_create("kary-ntree:k=4,n=13", &m, &e), CMN_EUSAGE);
	CU_ASSERT_EQUAL(plat_machine_create("kary-ntree:k=64,n=5", &m, &e), CMN_EUSAGE);
}

static void test_mesh_and_torus(void)
{
	struct plat_machine *m;
	struct cmn_err e;
	int c[3];
	/* C order: dims=16x8 is 16 rows of 8, node r at (r / 8, r mod 8) */
	CU_ASSERT_EQUAL_FATAL(plat_machine_create("mesh:dims=16x8", &m, &e), 0);
	CU_ASSERT_EQUAL(m->nodes, 128);
	plat_coords(m, 37, c);
	CU_ASSERT(c[0] == 4 && c[1] == 5);
	const int at[2] = {4, 5};
	CU_ASSERT_EQUAL(plat_grid_node(m, at), 37);
	CU_ASSERT_EQUAL(plat_distance(m, 0, 127), 15 + 7);
	/* dimension order: the route's routers change dimension 0 first */
	int links[64];
	int len = plat_route(m, 0, 3 * 8 + 4, links); /* (0,0) -> (3,4) */
	CU_ASSERT_EQUAL(len, 2 + 7);
	int prev[3] = {0, 0, 0}, turned = 0, ok = 1;
	for (int x = 1; x < len; x++) {
		int r = m->links[links[x]].src - m->nodes;
		plat_coords(m, r, c);
		if (c[1] != prev[1])
			turned = 1;
		else if (turned && c[0] != prev[0])
			ok = 0; /* dimension 0 moved after dimension 1 */
		memcpy(prev, c, sizeof prev);
	}
	CU_ASSERT(ok && turned);
	plat_machine_destroy(m);

	CU_ASSERT_EQUAL_FATAL(plat_machine_create("torus:dims=4x4x8", &m, &e), 0);
	plat_coords(m, 37, c);
	CU_ASSERT(c[0] == 1 && c[1] == 0 && c[2] == 5);  /* (r / 32, (r / 8) mod 4, r mod 8) */
	CU_ASSERT_EQUAL(plat_distance(m, 0, 7), 1);      /* wraps along the 8-ring */
	CU_ASSERT_EQUAL(plat_distance(m, 0, 4), 4);      /* half way round */
	CU_ASSERT_EQUAL(plat_distance(m, 0, 32 * 3), 1); /* wraps along a 4-ring */
	CU_ASSERT_EQUAL(plat_distance(m, 0, 32 * 2 + 8 * 2 + 5), 2 + 2 + 3);
	len = plat_route(m, 0, 4, links); /* tie on the 8-ring: the + direction */
	CU_ASSERT_EQUAL(m->links[links[1]].dst - m->nodes, 1);
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS];
	CU_ASSERT_EQUAL(plat_grid_shape(m, &nd, dims, wrap, &e), 0);
	CU_ASSERT(nd == 3 && dims[2] == 8 && wrap[0] && wrap[2]);
	plat_machine_destroy(m);
	static const char *const bad[] = {"mesh:dims=4x", "mesh:dims=0x4",
	                                  "mesh:dims=x4", "torus:dims=4y4",
	                                  "mesh",         "mesh:dims=1x1x1x1x1x1x1x1x1"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		CU_ASSERT_EQUAL(plat_machine_create(bad[i], &m, &e), CMN_EUSAGE);
	}
}

static void test_multicluster(void)
{
	struct plat_machine *m;
	struct cmn_err e;
	CU_ASSERT_EQUAL_FATAL(
	    plat_machine_create("multicluster:clusters=5,size=20,wan_bw=1e6,wan_lat=0.01", &m, &e),
	    0);
	CU_ASSERT_EQUAL(m->nodes, 100);
	CU_ASSERT_EQUAL(plat_cluster_of(m, 0), 0);
	CU_ASSERT_EQUAL(plat_cluster_of(m, 39), 1);
	CU_ASSERT_EQUAL(plat_cluster_of(m, 99), 4);
	CU_ASSERT_EQUAL(plat_distance(m, 0, 19), 2);
	CU_ASSERT_EQUAL(plat_distance(m, 0, 20), 3);
	int links[4];
	CU_ASSERT_EQUAL_FATAL(plat_route(m, 0, 99, links), 3);
	CU_ASSERT_DOUBLE_EQUAL(m->links[links[1]].bw_bps, 1e6, 0);
	CU_ASSERT_DOUBLE_EQUAL(m->links[links[1]].lat_s, 0.01, 0);
	CU_ASSERT_DOUBLE_EQUAL(m->links[links[0]].bw_bps, 1.25e9, 0);
	int cl, first[5], size[5];
	CU_ASSERT_EQUAL(plat_multicluster_shape(m, &cl, first, size, &e), 0);
	CU_ASSERT(cl == 5 && first[3] == 60 && size[4] == 20);
	plat_machine_destroy(m);
	CU_ASSERT_EQUAL_FATAL(plat_machine_create("multicluster:clusters=3,sizes=2/5/1", &m, &e),
	                      0);
	CU_ASSERT_EQUAL(m->nodes, 8);
	CU_ASSERT_EQUAL(plat_cluster_of(m, 7), 2);
	plat_machine_destroy(m);
	CU_ASSERT_EQUAL(plat_machine_create("multicluster:clusters=3,sizes=2/5", &m, &e),
	                CMN_EUSAGE);
	CU_ASSERT_EQUAL(plat_machine_create("multicluster:wan=ring", &m, &e), CMN_EUSAGE);
	CU_ASSERT_EQUAL(plat_machine_create("flat:nodes=4", &m, &e), 0);
	CU_ASSERT_EQUAL(plat_cluster_of(m, 3), 0);
	CU_ASSERT_EQUAL(plat_multicluster_shape(m, &cl, first, size, &e), CMN_EUSAGE);
	plat_machine_destroy(m);
}

/* Clusters of other families: numbering, gateways, routes through them. */
static void test_nested_clusters(void)
{
	struct plat_machine *m;
	struct cmn_err e;
	CU_ASSERT_EQUAL_FATAL(
	    plat_machine_create("multicluster:clusters=3,size=16,cluster=kary-ntree;"
	                        "k=4;n=2,wan_lat=0.01",
	                        &m, &e),
	    0);
	CU_ASSERT_EQUAL(m->nodes, 48);
	CU_ASSERT_EQUAL(plat_cluster_of(m, 17), 1);
	CU_ASSERT_EQUAL(plat_distance(m, 16, 19), 2); /* one switch inside cluster 1 */
	CU_ASSERT_EQUAL(plat_distance(m, 16, 20), 4); /* the tree's level 2 */
	CU_ASSERT_EQUAL(plat_distance(m, 16, 32), 1); /* gateway to gateway */
	CU_ASSERT_EQUAL(plat_distance(m, 5, 37), 4 + 1 + 4);
	int links[32];
	int n = plat_route(m, 5, 37, links);
	CU_ASSERT_EQUAL(n, 9);
	CU_ASSERT_DOUBLE_EQUAL(m->links[links[4]].lat_s, 0.01, 0); /* the WAN link, at 0 -> 32 */
	CU_ASSERT(m->links[links[4]].src == 0 && m->links[links[4]].dst == 32);
	plat_machine_destroy(m);
	static const char *const bad[] = {
	    "multicluster:clusters=3,cluster=kary-ntree;k=4;n=2",             /* size 20 != 16 */
	    "multicluster:clusters=2,size=4,sizes=4/4,cluster=mesh;dims=2x2", /* sizes list */
	    "multicluster:clusters=2,size=4,cluster=flat;nodes=4",
	    "multicluster:clusters=2,size=4,cluster=ring;n=4",
	    "multicluster:clusters=2,size=4,cluster=multicluster;clusters=2;size=2"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		CU_ASSERT_EQUAL(plat_machine_create(bad[i], &m, &e), CMN_EUSAGE);
}

/* Tapering: level l's links (both ways) carry bw x taper_l. */
static void test_taper(void)
{
	const char *specs[] = {"kary-ntree:k=2,n=3,taper=0.5,bw=1000",
	                       "kary-ntree:k=2,n=3,taper=1/0.5/0.25,bw=1000"};
	for (int s = 0; s < 2; s++) {
		struct plat_machine *m;
		struct cmn_err e;
		CU_ASSERT_FATAL(plat_machine_create(specs[s], &m, &e) == 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(m->spec, "taper=1/0.5/0.25"));
		double f[3], want[] = {1000, 500, 250, 250, 500, 1000};
		CU_ASSERT_EQUAL(plat_kary_ntree_taper(m, f), 3);
		CU_ASSERT_DOUBLE_EQUAL(f[2], 0.25, 1e-12);
		int links[6];
		CU_ASSERT_EQUAL_FATAL(plat_route(m, 0, 7, links), 6);
		for (int i = 0; i < 6; i++)
			CU_ASSERT_DOUBLE_EQUAL(m->links[links[i]].bw_bps, want[i], 1e-9);
		plat_machine_destroy(m);
	}
	struct plat_machine *m;
	struct cmn_err e;
	CU_ASSERT_EQUAL(plat_machine_create("kary-ntree:k=2,n=3,taper=1/1", &m, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "2 factors for 3 levels"));
	CU_ASSERT_EQUAL(plat_machine_create("kary-ntree:k=2,n=3,taper=-1", &m, &e), CMN_EUSAGE);
	CU_ASSERT_EQUAL(plat_machine_create("kary-ntree:k=2,n=3,taper=0.5x", &m, &e), CMN_EUSAGE);
	CU_ASSERT_EQUAL(plat_machine_create("kary-ntree:k=2,n=2,taper=1/1/1", &m, &e), CMN_EUSAGE);
	CU_ASSERT_EQUAL(plat_machine_create("kary-ntree:k=2,n=2,taper=1/1", &m, &e), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(m->spec, "taper=1,"));
	plat_machine_destroy(m);
}

/* Links shared by the routes a->b and c->d. */
static int shared_links(const struct plat_machine *m, int a, int b, int c, int d, int *l1, int *l2)
{
	int n1 = plat_route(m, a, b, l1), n2 = plat_route(m, c, d, l2), s = 0;
	for (int i = 0; i < n1; i++)
		for (int j = 0; j < n2; j++)
			s += l1[i] == l2[j];
	return s;
}

/* Does the placement y route like x: every rank pair's route the same
 * length over links of the same bandwidth and latency, and every two
 * pairs' routes sharing as many links? */
static int routes_alike(const struct plat_machine *m, const int *x, const int *y, int n)
{
	int mr = plat_max_route(m) + 1;
	int *l1 = malloc(4 * (size_t)mr * sizeof *l1), *l2 = l1 + mr, *l3 = l2 + mr, *l4 = l3 + mr;
	int ok = 1;
	for (int a = 0; ok && a < n; a++)
		for (int b = 0; ok && b < n; b++) {
			int k1 = plat_route(m, x[a], x[b], l1), k2 = plat_route(m, y[a], y[b], l2);
			ok = k1 == k2;
			for (int i = 0; ok && i < k1; i++)
				ok = m->links[l1[i]].bw_bps == m->links[l2[i]].bw_bps &&
				     m->links[l1[i]].lat_s == m->links[l2[i]].lat_s;
			for (int c = 0; ok && c < n; c++)
				for (int d = 0; ok && d < n; d++)
					ok = shared_links(m, x[a], x[b], x[c], x[d], l1, l2) ==
					     shared_links(m, y[a], y[b], y[c], y[d], l3, l4);
		}
	free(l1);
	return ok;
}

/* n distinct random nodes of m into x (a linear congruential draw). */
static void random_nodes(const struct plat_machine *m, int *x, int n, unsigned *seed)
{
	for (int r = 0; r < n; r++) {
		int dup;
		do {
			*seed = *seed * 1103515245u + 12345u;
			x[r] = (int)(*seed >> 8) % m->nodes;
			dup = 0;
			for (int q = 0; q < r; q++)
				dup |= x[q] == x[r];
		} while (dup);
	}
}

/* Canonical placements: idempotent, the same routes and link sharing as
 * the placement, and shared by placements equal under a symmetry. */
static void test_canon(void)
{
	static const char *const specs[] = {"flat:nodes=7",
	                                    "kary-ntree:k=4,n=3",
	                                    "kary-ntree:k=3,n=3,taper=0.5",
	                                    "mesh:dims=8x8",
	                                    "mesh:dims=5x3x2",
	                                    "torus:dims=4x4x8",
	                                    "torus:dims=5x3",
	                                    "multicluster:clusters=3,size=4"};
	unsigned seed = 7;
	for (size_t s = 0; s < sizeof specs / sizeof *specs; s++) {
		struct plat_machine *m;
		struct cmn_err e;
		CU_ASSERT_FATAL(plat_machine_create(specs[s], &m, &e) == 0);
		int x[8], c[8], cc[8], y[8], cy[8];
		for (int trial = 0; trial < 40; trial++) {
			int n = 2 + trial % 6 < m->nodes ? 2 + trial % 6 : m->nodes;
			random_nodes(m, x, n, &seed);
			CU_ASSERT_FATAL(plat_canon(m, x, n, c) == 0);
			CU_ASSERT_FATAL(plat_canon(m, c, n, cc) == 0);
			CU_ASSERT(memcmp(c, cc, (size_t)n * sizeof *c) == 0);
			for (int r = 0; r < n; r++)
				CU_ASSERT(c[r] >= 0 && c[r] < m->nodes);
			if (!routes_alike(m, x, c, n)) {
				CU_FAIL("canonical placement routes otherwise");
				fprintf(stderr, "%s trial %d\n", specs[s], trial);
			}
			/* a symmetry of the family: its image has the same canonical form */
			int nd = plat_ndims(m), dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS], k, levels;
			if (plat_grid_shape(m, &nd, dims, wrap, &e) == 0) {
				int lo[PLAT_MAX_DIMS], hi[PLAT_MAX_DIMS], co[PLAT_MAX_DIMS];
				for (int d = 0; d < nd; d++)
					lo[d] = dims[d], hi[d] = 0;
				for (int r = 0; r < n; r++) {
					plat_coords(m, x[r], co);
					for (int d = 0; d < nd; d++) {
						lo[d] = co[d] < lo[d] ? co[d] : lo[d];
						hi[d] = co[d] > hi[d] ? co[d] : hi[d];
					}
				}
				for (int r = 0; r < n; r++) { /* shift by 1 where it fits */
					plat_coords(m, x[r], co);
					for (int d = 0; d < nd; d++)
						if (wrap[d] || hi[d] + 1 < dims[d])
							co[d] = (co[d] + 1) % dims[d];
					y[r] = plat_grid_node(m, co);
				}
			} else if (plat_kary_ntree_shape(m, &k, &levels, &e) == 0) {
				for (int r = 0; r < n;
				     r++) { /* swap values 0 and 1 of the top digit */
					int w = 1;
					for (int i = 1; i < levels; i++)
						w *= k;
					int d = x[r] / w;
					y[r] = x[r] % w + (d == 0 ? 1 : d == 1 ? 0 : d) * w;
				}
			} else {
				continue;
			}
			CU_ASSERT_FATAL(plat_canon(m, y, n, cy) == 0);
			CU_ASSERT(memcmp(c, cy, (size_t)n * sizeof *c) == 0);
		}
		plat_machine_destroy(m);
	}
}

/* The sorted multiset of the node counts of the subtrees of k^lvl nodes a
 * node set uses, as a string (for comparisons). */
static void counts_at(const int *x, int n, int w, char *buf)
{
	int c[256] = {0}, m = 0;
	for (int i = 0; i < n; i++)
		c[x[i] / w]++;
	int v[256];
	for (int i = 0; i < 256; i++)
		if (c[i])
			v[m++] = c[i];
	for (int i = 1; i < m; i++) /* descending */
		for (int j = i; j > 0 && v[j] > v[j - 1]; j--) {
			int tt = v[j];
			v[j] = v[j - 1];
			v[j - 1] = tt;
		}
	buf[0] = '\0';
	for (int i = 0; i < m; i++)
		sprintf(buf + strlen(buf), "%d,", v[i]);
}

/* The counts form on trees: per-subtree counts kept at every level (as
 * multisets), valid nodes in ascending order, idempotent, coarser than the
 * canonical form (node sets with the same count tree map together
 * whichever subtrees and ports; other count trees do not); elsewhere it is
 * the canonical form. */
static void test_shape(void)
{
	struct plat_machine *m;
	struct cmn_err e;
	CU_ASSERT_FATAL(plat_machine_create("kary-ntree:k=4,n=3", &m, &e) == 0);
	/* leaves 0 and 1 with 3 and 2 nodes; 2 and 3; leaves 0 and 2 (3, 2)
	 * in the same level-2 subtree; leaves 0 and 4 (3, 2) in two */
	int a[5] = {0, 1, 2, 5, 6}, d[5] = {0, 1, 4, 5, 6}, b[5] = {9, 3, 8, 1, 0},
	    f[5] = {0, 1, 2, 16, 17};
	int sa[5], sb[5], sd[5], sf[5], ca[5], cb[5];
	CU_ASSERT_FATAL(plat_shape(m, a, 5, sa) == 0 && plat_shape(m, b, 5, sb) == 0 &&
	                plat_shape(m, d, 5, sd) == 0 && plat_shape(m, f, 5, sf) == 0);
	int want[5] = {0, 1, 2, 4, 5};
	CU_ASSERT(memcmp(sa, want, sizeof sa) == 0);
	CU_ASSERT(memcmp(sa, sb, sizeof sa) == 0);
	CU_ASSERT(memcmp(sa, sd, sizeof sa) == 0);
	CU_ASSERT(memcmp(sa, sf, sizeof sa) != 0);
	CU_ASSERT_FATAL(plat_canon(m, a, 5, ca) == 0 && plat_canon(m, b, 5, cb) == 0);
	CU_ASSERT(memcmp(ca, cb, sizeof ca) != 0); /* the exact form tells them apart */
	unsigned seed = 11;
	for (int trial = 0; trial < 300; trial++) {
		int x[40], s[40], ss[40], n = 2 + trial % 39;
		random_nodes(m, x, n, &seed);
		CU_ASSERT_FATAL(plat_shape(m, x, n, s) == 0);
		int ok = 1;
		for (int p = 0; p < n; p++)
			ok &= s[p] >= 0 && s[p] < m->nodes && (p == 0 || s[p] > s[p - 1]);
		for (int w = 4; w <= 16; w *= 4) {
			char c1[512], c2[512];
			counts_at(x, n, w, c1);
			counts_at(s, n, w, c2);
			ok &= strcmp(c1, c2) == 0;
		}
		CU_ASSERT(ok);
		CU_ASSERT_FATAL(plat_shape(m, s, n, ss) == 0);
		CU_ASSERT(memcmp(s, ss, (size_t)n * sizeof *s) == 0);
	}
	plat_machine_destroy(m);
	CU_ASSERT_FATAL(plat_machine_create("torus:dims=4x4", &m, &e) == 0);
	int t[3] = {5, 6, 9}, st[3], ct[3];
	CU_ASSERT_FATAL(plat_shape(m, t, 3, st) == 0 && plat_canon(m, t, 3, ct) == 0);
	CU_ASSERT(memcmp(st, ct, sizeof st) == 0);
	plat_machine_destroy(m);
}

static void test_unknown_family(void)
{
	struct plat_machine *m;
	struct cmn_err e;
	CU_ASSERT_EQUAL(plat_machine_create("dragonfly:g=4", &m, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "known: flat, kary-ntree, mesh, torus, multicluster"));
	CU_ASSERT_EQUAL(plat_machine_create("flat:nodes=4,bw=0", &m, &e), CMN_EUSAGE);
}

/* A caller's lower node limit: every family (and a multi-cluster's
 * clusters) refused beyond it with the limit named, built within it. */
static void test_lower_limit(void)
{
	const char *over[] = {"flat:nodes=70000",
	                      "mesh:dims=300x300",
	                      "torus:dims=41x41x41",
	                      "kary-ntree:k=4,n=9",
	                      "multicluster:clusters=2,size=40000",
	                      "multicluster:clusters=2,size=262144,cluster=kary-ntree;k=4;n=9"};
	for (size_t i = 0; i < sizeof over / sizeof *over; i++) {
		struct plat_machine *m = NULL;
		struct cmn_err e;
		CU_ASSERT_EQUAL(plat_machine_create_max(over[i], 1 << 16, &m, &e), CMN_EUSAGE);
		CU_ASSERT_PTR_NULL(m);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "the limit of 65536 nodes"));
		CU_ASSERT_EQUAL(plat_machine_create(over[i], &m, &e), 0); /* the default limit */
		plat_machine_destroy(m);
	}
	struct plat_machine *m = NULL;
	struct cmn_err e;
	CU_ASSERT_EQUAL(plat_machine_create_max("torus:dims=16x64x64", 1 << 16, &m, &e), 0);
	CU_ASSERT_EQUAL(m ? m->nodes : 0, 1 << 16);
	plat_machine_destroy(m);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("topology", NULL, NULL);
	CU_add_test(s, "contract over the registry", test_contract);
	CU_add_test(s, "extreme specifications over the registry", test_extremes);
	CU_add_test(s, "k-ary n-tree", test_kary_ntree);
	CU_add_test(s, "k-ary n-tree tapering", test_taper);
	CU_add_test(s, "mesh and torus", test_mesh_and_torus);
	CU_add_test(s, "multi-cluster", test_multicluster);
	CU_add_test(s, "clusters of trees, meshes, tori", test_nested_clusters);
	CU_add_test(s, "canonical placements", test_canon);
	CU_add_test(s, "counts forms of placements", test_shape);
	CU_add_test(s, "unknown family and bad parameters", test_unknown_family);
	CU_add_test(s, "a lower node limit", test_lower_limit);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

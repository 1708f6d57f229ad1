/* Interaction groups of running jobs (groups.h):
 *  - on a 4-ary 2-tree (d-mod-k), jobs on nodes {0,5} and {1,8}, each
 *    exchanging both ways, cross the same links only in opposite
 *    directions: one group when a link and its reverse count as one
 *    (SimGrid), two when they do not (the flit network); jobs on {0,4}
 *    and {1,8} share the up link leaf 0 -> spine 0 in the same direction
 *    (both have traffic to a destination whose digit 0 is 0): one group
 *    either way;
 *  - random jobs on a 4-ary 3-tree: the groups are the connected
 *    components of "crosses a common link" computed by brute force over
 *    every route's links, directed and undirected, and every directed
 *    group lies inside one undirected group. */
#include <stdlib.h>

#include "../../coupling/replay/groups.h"
#include "../helpers.h"

static void groups_of(struct plat_machine *m, int directed, int n, int *const *nodes,
                      const int *const *pairs, const int *npairs, int *group)
{
	struct cpl_groups *g;
	CU_ASSERT_FATAL(cpl_groups_new(m, directed, &g) == 0);
	int *links[16], nl[16];
	for (int i = 0; i < n; i++)
		CU_ASSERT_FATAL(
		    cpl_groups_job_links(g, nodes[i], pairs[i], npairs[i], &links[i], &nl[i]) == 0);
	cpl_groups_of(g, n, (const int *const *)links, nl, group);
	for (int i = 0; i < n; i++)
		free(links[i]);
	cpl_groups_free(g);
}

static void test_directions(void)
{
	struct plat_machine *m;
	struct cmn_err e;
	CU_ASSERT_FATAL(plat_machine_create("kary-ntree:k=4,n=2", &m, &e) == 0);
	static const int both[] = {0, 1, 1, 0};
	int a[] = {0, 5}, b[] = {1, 8}, c[] = {0, 4};
	int *opposite[] = {a, b}, *same[] = {c, b};
	const int *pairs[] = {both, both};
	int np[] = {2, 2}, group[2];
	groups_of(m, 0, 2, opposite, pairs, np, group);
	CU_ASSERT(group[0] == 0 && group[1] == 0);
	groups_of(m, 1, 2, opposite, pairs, np, group);
	CU_ASSERT(group[0] == 0 && group[1] == 1);
	groups_of(m, 0, 2, same, pairs, np, group);
	CU_ASSERT(group[0] == 0 && group[1] == 0);
	groups_of(m, 1, 2, same, pairs, np, group);
	CU_ASSERT(group[0] == 0 && group[1] == 0);
	plat_machine_destroy(m);
}

/* The components by brute force: jobs i and j are joined when some link
 * (directed, or either direction of it) is crossed by both. */
static void brute(const struct plat_machine *m, int directed, int n, char *const *uses, int *group)
{
	for (int i = 0; i < n; i++)
		group[i] = i;
	for (int changed = 1; changed;) {
		changed = 0;
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++) {
				if (group[i] == group[j])
					continue;
				int meet = 0;
				for (int l = 0; l < m->nlinks && !meet; l++) {
					int r = -1; /* the reverse link */
					for (int q = 0; !directed && q < m->nlinks && r < 0; q++)
						if (m->links[q].src == m->links[l].dst &&
						    m->links[q].dst == m->links[l].src)
							r = q;
					meet = uses[i][l] && (uses[j][l] || (r >= 0 && uses[j][r]));
				}
				if (meet) {
					int lo = group[i] < group[j] ? group[i] : group[j];
					int hi = group[i] < group[j] ? group[j] : group[i];
					for (int k = 0; k < n; k++)
						if (group[k] == hi)
							group[k] = lo;
					changed = 1;
				}
			}
	}
}

static void test_random_jobs(void)
{
	struct plat_machine *m;
	struct cmn_err e;
	CU_ASSERT_FATAL(plat_machine_create("kary-ntree:k=4,n=3", &m, &e) == 0);
	unsigned seed = 12345;
	int *route = malloc(((size_t)plat_max_route(m) + 1) * sizeof *route);
	CU_ASSERT_FATAL(route != NULL);
	int differ = 0;
	for (int trial = 0; trial < 40; trial++) {
		int n = 6, perm[64], nodes[6][4], pairs[6][8], np[6];
		int *np_nodes[6];
		const int *pp[6];
		char *uses[6];
		for (int i = 0; i < 64; i++)
			perm[i] = i;
		for (int i = 63; i > 0; i--) { /* disjoint nodes: a shuffle */
			seed = seed * 1103515245u + 12345u;
			int k = (int)((seed >> 8) % (unsigned)(i + 1)), t = perm[i];
			perm[i] = perm[k];
			perm[k] = t;
		}
		for (int i = 0; i < n; i++) {
			for (int r = 0; r < 4; r++)
				nodes[i][r] = perm[4 * i + r];
			/* one way or both ways between two rank pairs */
			seed = seed * 1103515245u + 12345u;
			int twoway = (int)((seed >> 10) & 1);
			np[i] = 0;
			pairs[i][2 * np[i]] = 0, pairs[i][2 * np[i]++ + 1] = 1;
			pairs[i][2 * np[i]] = 2, pairs[i][2 * np[i]++ + 1] = 3;
			if (twoway) {
				pairs[i][2 * np[i]] = 1, pairs[i][2 * np[i]++ + 1] = 0;
				pairs[i][2 * np[i]] = 3, pairs[i][2 * np[i]++ + 1] = 2;
			}
			np_nodes[i] = nodes[i];
			pp[i] = pairs[i];
			uses[i] = calloc((size_t)m->nlinks, 1);
			CU_ASSERT_FATAL(uses[i] != NULL);
			for (int p = 0; p < np[i]; p++) {
				int len = plat_route(m, nodes[i][pairs[i][2 * p]],
				                     nodes[i][pairs[i][2 * p + 1]], route);
				for (int h = 0; h < len; h++)
					uses[i][route[h]] = 1;
			}
		}
		int gd[6], gu[6], bd[6], bu[6];
		groups_of(m, 1, n, np_nodes, pp, np, gd);
		groups_of(m, 0, n, np_nodes, pp, np, gu);
		brute(m, 1, n, uses, bd);
		brute(m, 0, n, uses, bu);
		for (int i = 0; i < n; i++) {
			CU_ASSERT(gd[i] == bd[i]);
			CU_ASSERT(gu[i] == bu[i]);
			for (int j = 0; j < n; j++)
				if (gd[i] == gd[j])
					CU_ASSERT(gu[i] == gu[j]);
			differ += gd[i] != gu[i];
			free(uses[i]);
		}
	}
	CU_ASSERT(differ > 0); /* the two relations do differ on these jobs */
	free(route);
	plat_machine_destroy(m);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("interaction groups", NULL, NULL);
	CU_add_test(s, "a link's two directions: SimGrid's one, the flit network's two",
	            test_directions);
	CU_add_test(s, "random jobs: components of sharing a link, by brute force",
	            test_random_jobs);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

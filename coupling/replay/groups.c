/* Interaction groups of running jobs (groups.h). */
#include <stdlib.h>

#include "groups.h"

struct cpl_groups {
	const struct plat_machine *m;
	int *und;   /* per directed link: its undirected id (directed: itself) */
	int *owner; /* per undirected id: a job index during cpl_groups_of */
	unsigned *stamp, gen;
	int *route; /* max_route + 1 */
};

struct lk {
	int a, b, id;
};

static int cmp_lk(const void *x, const void *y)
{
	const struct lk *p = x, *q = y;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	return p->id < q->id ? -1 : p->id > q->id;
}

int cpl_groups_new(const struct plat_machine *m, int directed, struct cpl_groups **out)
{
	struct cpl_groups *g = calloc(1, sizeof *g);
	int nl = m->nlinks ? m->nlinks : 1;
	struct lk *l = malloc((size_t)nl * sizeof *l);
	if (g) {
		g->m = m;
		g->und = malloc((size_t)nl * sizeof *g->und);
		g->owner = malloc((size_t)nl * sizeof *g->owner);
		g->stamp = calloc((size_t)nl, sizeof *g->stamp);
		g->route = malloc(((size_t)plat_max_route(m) + 1) * sizeof *g->route);
	}
	if (!g || !l || !g->und || !g->owner || !g->stamp || !g->route) {
		free(l);
		cpl_groups_free(g);
		return -1;
	}
	if (directed) { /* every link its own id */
		for (int i = 0; i < m->nlinks; i++)
			g->und[i] = i;
	} else { /* a link and its reverse (same end vertices) get one id */
		for (int i = 0; i < m->nlinks; i++) {
			int s = m->links[i].src, d = m->links[i].dst;
			l[i] = (struct lk){s < d ? s : d, s < d ? d : s, i};
		}
		qsort(l, (size_t)m->nlinks, sizeof *l, cmp_lk);
		for (int i = 0, id = 0; i < m->nlinks; i++) {
			if (i && (l[i].a != l[i - 1].a || l[i].b != l[i - 1].b))
				id++;
			g->und[l[i].id] = id;
		}
	}
	free(l);
	*out = g;
	return 0;
}

void cpl_groups_free(struct cpl_groups *g)
{
	if (!g)
		return;
	free(g->und);
	free(g->owner);
	free(g->stamp);
	free(g->route);
	free(g);
}

int cpl_groups_job_links(struct cpl_groups *g, const int *nodes, const int *pairs, int npairs,
                         int **links, int *nlinks)
{
	int cap = 16, n = 0;
	int *l = malloc((size_t)cap * sizeof *l);
	if (!l)
		return -1;
	if (++g->gen == 0) { /* stamps wrapped: clear them */
		for (int i = 0; i < g->m->nlinks; i++)
			g->stamp[i] = 0;
		g->gen = 1;
	}
	for (int p = 0; p < npairs; p++) {
		int len = plat_route(g->m, nodes[pairs[2 * p]], nodes[pairs[2 * p + 1]], g->route);
		for (int i = 0; i < len; i++) {
			int u = g->und[g->route[i]];
			if (g->stamp[u] == g->gen)
				continue;
			g->stamp[u] = g->gen;
			if (n == cap) {
				int *b = realloc(l, 2 * (size_t)cap * sizeof *l);
				if (!b) {
					free(l);
					return -1;
				}
				l = b;
				cap *= 2;
			}
			l[n++] = u;
		}
	}
	*links = l;
	*nlinks = n;
	return 0;
}

static int root(int *group, int i)
{
	while (group[i] != i)
		i = group[i] = group[group[i]];
	return i;
}

void cpl_groups_of(struct cpl_groups *g, int n, const int *const *links, const int *nlinks,
                   int *group)
{
	if (++g->gen == 0) {
		for (int i = 0; i < g->m->nlinks; i++)
			g->stamp[i] = 0;
		g->gen = 1;
	}
	for (int i = 0; i < n; i++)
		group[i] = i;
	for (int i = 0; i < n; i++)
		for (int k = 0; k < nlinks[i]; k++) {
			int u = links[i][k];
			if (g->stamp[u] != g->gen) {
				g->stamp[u] = g->gen;
				g->owner[u] = i;
				continue;
			}
			int a = root(group, i), b = root(group, g->owner[u]);
			if (a != b) /* the smaller index becomes the root */
				group[a > b ? a : b] = a < b ? a : b;
		}
	for (int i = 0; i < n; i++)
		group[i] = root(group, i);
}

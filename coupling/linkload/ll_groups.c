/* A job's parts for the linkload model (ll_part.h): its all-pairs pattern
 * in aggregate (ll_tree.c), or the groups of its ranks that exchange with
 * every other member (FT's row and column transposes: 2.5e5 pairs on
 * 3,135 ranks, 8e5 on 1,282) each in aggregate beside the other pairs one
 * by one (ll_flows.c), or every flow one by one. A group is found from one
 * of its pairs (a, b), a its lowest member: a, b and the ranks both send
 * to, less those that do not send to every other candidate, until all do;
 * its pairs then belong to it alone. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/grow.h"
#include "linkload.h"
#include "ll_part.h"
#include "traffic.h"

/* The flows listed one by one: a part per this many sources. One part per
 * job: parts of 1, 8 or 32 sources are computed again less often after a
 * change (95 % of the flows of a part computed again keep their rates),
 * but cost more in the lists of parts on each link than they save (first
 * 300 and 600 jobs of the 18-ary 4-tree case: 20 % more CPU). A
 * computation now takes only the flows it reaches out of a part, into the
 * part's fragment (ll_frag.c). */
#define FLOW_SOURCES INT_MAX

struct finder {
	const struct cpl_traffic *tr;
	char *covered; /* per entry: a group's */
	char *in;      /* per rank: a candidate */
	int *cand, ncand;
	/* the groups: members (ascending) gmem[gstart[g] .. gstart[g + 1]) */
	int ngroups;
	long *gstart, capg, nmem, capm;
	int *gmem;
};

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Candidates of pair (a, b): a, b and the ranks above a that both send to
 * through entries of no group. */
static void candidates(struct finder *f, int a, int b)
{
	const struct cpl_traffic *t = f->tr;
	f->ncand = 0;
	f->cand[f->ncand++] = a;
	f->cand[f->ncand++] = b;
	long i = t->row[a], j = t->row[b];
	while (i < t->row[a + 1] && j < t->row[b + 1]) {
		int x = t->col[i], y = t->col[j];
		if (x < y) {
			i++;
		} else if (y < x) {
			j++;
		} else {
			if (x > a && x != b && !f->covered[i] && !f->covered[j])
				f->cand[f->ncand++] = x;
			i++, j++;
		}
	}
	for (int c = 0; c < f->ncand; c++)
		f->in[f->cand[c]] = 1;
}

/* Drops the candidates that do not send to every other one, until all do;
 * whether a and b (the first two) stayed. */
static int prune(struct finder *f)
{
	const struct cpl_traffic *t = f->tr;
	for (;;) {
		int kept = 0, n = f->ncand;
		for (int c = 0; c < n; c++) {
			int x = f->cand[c], reach = 0;
			for (long i = t->row[x]; i < t->row[x + 1]; i++)
				reach += f->in[t->col[i]] == 1 && t->col[i] != x && !f->covered[i];
			if (reach < n - 1) {
				if (c < 2)
					return 0;
				f->in[x] = 2; /* out after this pass */
			}
		}
		for (int c = 0; c < n; c++) {
			int x = f->cand[c];
			if (f->in[x] == 1)
				f->cand[kept++] = x;
			else
				f->in[x] = 0;
		}
		f->ncand = kept;
		if (kept == n)
			return 1;
	}
}

/* The candidates as a group: their pairs covered, members recorded. */
static int keep_group(struct finder *f)
{
	const struct cpl_traffic *t = f->tr;
	if (cmn_grow((void **)&f->gstart, &f->capg, f->ngroups + 2, 64, sizeof *f->gstart) ||
	    cmn_grow((void **)&f->gmem, &f->capm, f->nmem + f->ncand, 1024, sizeof *f->gmem))
		return -1;
	qsort(f->cand, (size_t)f->ncand, sizeof *f->cand, cmp_int);
	f->gstart[f->ngroups] = f->nmem;
	for (int c = 0; c < f->ncand; c++) {
		int x = f->cand[c];
		f->gmem[f->nmem++] = x;
		for (long i = t->row[x]; i < t->row[x + 1]; i++)
			if (f->in[t->col[i]] && t->col[i] != x)
				f->covered[i] = 1;
	}
	f->gstart[++f->ngroups] = f->nmem;
	return 0;
}

/* The groups of at least min_group ranks. 0 or -1 out of memory. */
static int find_groups(struct finder *f, int min_group)
{
	const struct cpl_traffic *t = f->tr;
	int n = t->nranks, widest = 0;
	for (int a = 0; a < n; a++)
		if (t->row[a + 1] - t->row[a] > widest)
			widest = (int)(t->row[a + 1] - t->row[a]);
	if (widest + 1 < min_group)
		return 0; /* no rank reaches enough others */
	for (int a = 0; a < n; a++)
		for (long e = t->row[a]; e < t->row[a + 1]; e++) {
			int b = t->col[e];
			if (b <= a || f->covered[e])
				continue;
			candidates(f, a, b);
			int ok = prune(f) && f->ncand >= min_group;
			if (ok && keep_group(f))
				return -1;
			for (int c = 0; c < f->ncand; c++)
				f->in[f->cand[c]] = 0;
		}
	return 0;
}

/* Entry (a, b) of the traffic, or -1. */
static long entry(const struct cpl_traffic *t, int a, int b)
{
	const int *lo = t->col + t->row[a], *hit;
	hit = bsearch(&b, lo, (size_t)(t->row[a + 1] - t->row[a]), sizeof *lo, cmp_int);
	return hit ? t->row[a] + (hit - lo) : -1;
}

/* The bytes of every pair of the members mem[0 .. n) (ascending), row by
 * row into b[x n + y] (0 on the diagonal): each row's entries merged with
 * the members. */
static void member_bytes(const struct cpl_traffic *t, const int *mem, int n, double *b)
{
	for (int x = 0; x < n; x++) {
		long i = t->row[mem[x]], end = t->row[mem[x] + 1];
		for (int y = 0; y < n; y++) {
			while (i < end && t->col[i] < mem[y])
				i++;
			b[(long)x * n + y] =
			    i < end && t->col[i] == mem[y] && x != y ? t->bytes[i] : 0;
		}
	}
}

/* Group g's traffic among its members (indices into the group): the least
 * bytes of its pairs as a dense part, the pairs above it listed. */
static int group_traffic(const struct finder *f, int g, struct cpl_traffic *s)
{
	const struct cpl_traffic *t = f->tr;
	const int *mem = f->gmem + f->gstart[g];
	int n = (int)(f->gstart[g + 1] - f->gstart[g]);
	double least = -1, *pb = malloc((size_t)n * (size_t)n * sizeof *pb);
	long above = 0;
	memset(s, 0, sizeof *s);
	if (!pb)
		return -1;
	member_bytes(t, mem, n, pb);
	for (int x = 0; x < n; x++)
		for (int y = 0; y < n; y++)
			if (x != y) {
				double b = pb[(long)x * n + y];
				least = least < 0 || b < least ? b : least;
			}
	for (long i = 0; i < (long)n * n; i++)
		above += pb[i] > least;
	s->nranks = n;
	s->row = calloc((size_t)n + 1, sizeof *s->row);
	s->col = malloc((size_t)(above ? above : 1) * sizeof *s->col);
	s->bytes = malloc((size_t)(above ? above : 1) * sizeof *s->bytes);
	s->all_row = malloc((size_t)n * sizeof *s->all_row);
	s->all_mult = calloc((size_t)n, sizeof *s->all_mult);
	s->all_col = calloc((size_t)n, sizeof *s->all_col);
	if (!s->row || !s->col || !s->bytes || !s->all_row || !s->all_mult || !s->all_col) {
		cpl_traffic_free(s);
		free(pb);
		return -1;
	}
	for (int x = 0; x < n; x++) {
		s->all_row[x] = least;
		s->row[x + 1] = s->row[x];
		for (int y = 0; y < n; y++) {
			double b = pb[(long)x * n + y];
			if (b > least) {
				s->col[s->row[x + 1]] = y;
				s->bytes[s->row[x + 1]++] = b;
			}
		}
	}
	free(pb);
	return 0;
}

/* The entries no group holds, as a traffic of the job's ranks. */
static int rest_traffic(const struct finder *f, struct cpl_traffic *s)
{
	const struct cpl_traffic *t = f->tr;
	long ne = t->row[t->nranks], k = 0;
	memset(s, 0, sizeof *s);
	s->nranks = t->nranks;
	s->row = malloc(((size_t)t->nranks + 1) * sizeof *s->row);
	s->col = malloc((size_t)(ne ? ne : 1) * sizeof *s->col);
	s->bytes = malloc((size_t)(ne ? ne : 1) * sizeof *s->bytes);
	if (!s->row || !s->col || !s->bytes) {
		cpl_traffic_free(s);
		return -1;
	}
	for (int a = 0; a < t->nranks; a++) {
		s->row[a] = k;
		for (long e = t->row[a]; e < t->row[a + 1]; e++)
			if (!f->covered[e]) {
				s->col[k] = t->col[e];
				s->bytes[k++] = t->bytes[e];
			}
	}
	s->row[t->nranks] = k;
	return 0;
}

/* Group g's part (NULL where the aggregate does not apply: its pairs are
 * then uncovered). */
static int group_part(struct finder *f, const struct plat_machine *m,
                      const struct cpl_job_load *job, int g, struct ll_part **out)
{
	const struct cpl_traffic *t = f->tr;
	const int *mem = f->gmem + f->gstart[g];
	int n = (int)(f->gstart[g + 1] - f->gstart[g]);
	struct cpl_traffic s;
	int *nodes = malloc((size_t)n * sizeof *nodes);
	if (!nodes || group_traffic(f, g, &s)) {
		free(nodes);
		return -1;
	}
	for (int x = 0; x < n; x++)
		nodes[x] = job->nodes[mem[x]];
	struct cpl_job_load sub = {n, nodes, &s};
	int rc = cpl_ll_tree_group(m, &sub, mem, &s, out);
	free(nodes);
	if (!rc && !*out)
		for (int x = 0; x < n; x++)
			for (int y = 0; y < n; y++)
				if (x != y)
					f->covered[entry(t, mem[x], mem[y])] = 0;
	return rc;
}

static void free_parts(struct ll_part **p, int n)
{
	for (int i = 0; i < n; i++)
		p[i]->ops->destroy(p[i]);
	free(p);
}

/* The groups' parts, then the other pairs' flows. */
static int grouped(const struct plat_machine *m, const struct cpl_job_load *job, int min_group,
                   struct ll_part ***out, int *np)
{
	const struct cpl_traffic *t = job->traffic;
	int n = t->nranks;
	long ne = t->row[n];
	struct finder f = {t, NULL, NULL, NULL, 0, 0, NULL, 0, 0, 0, NULL};
	f.covered = calloc((size_t)(ne ? ne : 1), 1);
	f.in = calloc((size_t)n, 1);
	f.cand = malloc((size_t)n * sizeof *f.cand);
	int rc = !f.covered || !f.in || !f.cand ? -1 : find_groups(&f, min_group);
	struct ll_part **parts = NULL;
	if (!rc && !(parts = malloc(((size_t)f.ngroups + 1) * sizeof *parts)))
		rc = -1;
	for (int g = 0; !rc && g < f.ngroups; g++) {
		struct ll_part *p = NULL;
		if (!(rc = group_part(&f, m, job, g, &p)) && p)
			parts[(*np)++] = p;
	}
	struct cpl_traffic rest = {0};
	if (!rc && !(rc = rest_traffic(&f, &rest))) {
		struct cpl_job_load r = {job->nranks, job->nodes, &rest};
		struct ll_part **fp = NULL, **all = NULL;
		int nf = 0;
		if (!(rc = cpl_ll_flows_parts(m, &r, FLOW_SOURCES, &fp, &nf)) &&
		    !(all = realloc(parts, ((size_t)*np + (size_t)nf + 1) * sizeof *parts))) {
			free_parts(fp, nf);
			rc = -1;
		}
		if (all) {
			parts = all;
			memcpy(parts + *np, fp, (size_t)nf * sizeof *fp);
			*np += nf;
			free(fp);
		}
	}
	cpl_traffic_free(&rest);
	free(f.covered), free(f.in), free(f.cand), free(f.gstart), free(f.gmem);
	if (rc) {
		free_parts(parts, parts ? *np : 0);
		*np = 0;
		return -1;
	}
	*out = parts;
	return 0;
}

int cpl_ll_job_parts(const struct plat_machine *m, const struct cpl_job_load *job, int min_group,
                     struct ll_part ***out, int *n)
{
	struct ll_part *p = NULL;
	*out = NULL;
	*n = 0;
	if (!cpl_ll_tree_machine(m))
		min_group = 0;
	if (min_group > 0 && job->traffic->all_row) {
		if (cpl_ll_tree_part(m, job, &p))
			return -1;
	} else if (min_group > 0 && job->nranks >= min_group) {
		return grouped(m, job, min_group, out, n);
	}
	if (!p)
		return cpl_ll_flows_parts(m, job, FLOW_SOURCES, out, n);
	if (!(*out = malloc(sizeof **out))) {
		p->ops->destroy(p);
		return -1;
	}
	(*out)[(*n)++] = p;
	return 0;
}

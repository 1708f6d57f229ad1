/* Allocation quality metrics (see alloc_quality.h), with a fast path per
 * machine family: sorted coordinates on meshes, coordinate histograms on
 * tori, block counts on trees and clusters; every pair otherwise. */
#include <stdlib.h>
#include <string.h>

#include "alloc_quality.h"

const char *const js_alloc_class_names[] = {"", "contiguous", "quasi", "non-contiguous"};

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Sum over pairs of |v_i - v_j| for sorted values: sum v_i (2i - n + 1). */
static double sorted_l1(const int *v, int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += (double)v[i] * (2.0 * i - n + 1);
	return s;
}

static double grid_pairs(const struct plat_machine *m, const int *nodes, int n, int *scratch)
{
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS], c[PLAT_MAX_DIMS];
	plat_grid_shape(m, &nd, dims, wrap, NULL);
	double sum = 0;
	for (int d = 0; d < nd; d++) {
		for (int i = 0; i < n; i++) {
			plat_coords(m, nodes[i], c);
			scratch[i] = c[d];
		}
		qsort(scratch, (size_t)n, sizeof *scratch, cmp_int);
		if (!wrap[d]) {
			sum += sorted_l1(scratch, n);
			continue;
		}
		/* ring: each pair takes the shorter way; for sorted x_i < x_j the
		 * gap is g = x_j - x_i and the distance min(g, D - g) */
		int D = dims[d];
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++) {
				int g = scratch[j] - scratch[i];
				sum += g < D - g ? g : D - g;
			}
	}
	return sum;
}

/* Trees: pairs whose nearest common ancestor is at level l, from the sizes
 * of the runs of sorted ids inside each k^l block. */
static double tree_pairs(const struct plat_machine *m, const int *nodes, int n, int *max_level)
{
	int k, levels;
	plat_kary_ntree_shape(m, &k, &levels, NULL);
	double sum = 0, below = 0; /* pairs with NCA below the current level */
	long long block = 1;
	for (int l = 1; l <= levels; l++) {
		block *= k;
		double within = 0;
		for (int i = 0; i < n;) {
			int j = i;
			while (j < n && nodes[j] / block == nodes[i] / block)
				j++;
			within += (double)(j - i) * (j - i - 1) / 2;
			i = j;
		}
		sum += 2.0 * l * (within - below);
		below = within;
	}
	/* sorted ids: the first and last node meet at the highest switch */
	*max_level = plat_distance(m, nodes[0], nodes[n - 1]) / 2;
	return sum;
}

static double cluster_pairs(const struct plat_machine *m, const int *nodes, int n, int *clusters)
{
	/* distance 2 inside a cluster, d_out across (3 or 4) */
	int d_out = 0;
	for (int i = 1; i < n && !d_out; i++)
		if (plat_cluster_of(m, nodes[i]) != plat_cluster_of(m, nodes[0]))
			d_out = plat_distance(m, nodes[0], nodes[i]);
	double same = 0;
	*clusters = 0;
	for (int i = 0; i < n;) { /* sorted ids: a cluster is a run */
		int j = i, c = plat_cluster_of(m, nodes[i]);
		while (j < n && plat_cluster_of(m, nodes[j]) == c)
			j++;
		same += (double)(j - i) * (j - i - 1) / 2;
		(*clusters)++;
		i = j;
	}
	double pairs = (double)n * (n - 1) / 2;
	return 2 * same + d_out * (pairs - same);
}

/* A multi-cluster machine of flat clusters (distance 2 inside each). */
static int flat_clusters(const struct plat_machine *m)
{
	return strcmp(m->ops->base.name, "multicluster") == 0 &&
	       strcmp(cmn_params_str(&m->params, "cluster"), "flat") == 0;
}

void js_alloc_quality(const struct plat_machine *m, const int *nodes, int n, int job_size,
                      int *scratch, struct js_alloc_quality *q)
{
	memset(q, 0, sizeof *q);
	q->max_level = -1;
	q->cls = JS_CLASS_NA;
	q->clusters = 1;
	int k, levels, nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS];
	if (plat_grid_shape(m, &nd, dims, wrap, NULL) == 0) {
		q->pairwise_sum = grid_pairs(m, nodes, n, scratch);
	} else if (plat_kary_ntree_shape(m, &k, &levels, NULL) == 0) {
		q->pairwise_sum = tree_pairs(m, nodes, n, &q->max_level);
		int job_level = 1;
		for (long long s = k; job_level < levels && s < job_size; s *= k)
			job_level++;
		q->cls = q->max_level <= job_level       ? JS_CLASS_CONTIGUOUS
		         : q->max_level == job_level + 1 ? JS_CLASS_QUASI
		                                         : JS_CLASS_NONCONTIGUOUS;
	} else if (strcmp(m->ops->base.name, "flat") == 0 || flat_clusters(m)) {
		q->pairwise_sum = cluster_pairs(m, nodes, n, &q->clusters);
	} else { /* any other family (clusters of trees, meshes...): every pair */
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++)
				q->pairwise_sum += plat_distance(m, nodes[i], nodes[j]);
		q->clusters = 1;
		for (int i = 1; i < n; i++) /* sorted ids: clusters are runs */
			q->clusters +=
			    plat_cluster_of(m, nodes[i]) != plat_cluster_of(m, nodes[i - 1]);
	}
	q->pairwise_mean = n > 1 ? q->pairwise_sum / ((double)n * (n - 1) / 2) : 0;
}

int js_parse_intervals(const char *text, int *nodes, int max)
{
	int n = 0;
	const char *p = text;
	while (*p && n < max) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (long x = a; x <= b && n < max; x++)
			nodes[n++] = (int)x;
		p = *end ? end + 1 : end;
	}
	return n;
}

/* Allocation quality metrics (see alloc_quality.h). The pairwise sum is
 * the machine family's own (platforms/pairsum.h: each family's path
 * follows the runs of consecutive node ids), kept exact and converted
 * once. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_quality.h"

const char *const js_alloc_class_names[] = {"", "contiguous", "quasi", "non-contiguous"};

/* The quality of the view's n nodes, first and last among them. */
static void quality(const struct plat_machine *m, const struct plat_view *v, int n, int first,
                    int last, int job_size, int *scratch, struct js_alloc_quality *q)
{
	memset(q, 0, sizeof *q);
	q->max_level = -1;
	q->cls = JS_CLASS_NA;
	struct plat_isum s = {0, 0};
	q->clusters = plat_pair_sum(m, v, n, scratch, &s);
	q->pairwise_sum = plat_isum_value(&s);
	q->pairwise_mean = n > 1 ? q->pairwise_sum / ((double)n * (n - 1) / 2) : 0;
	int k, levels;
	if (plat_kary_ntree_shape(m, &k, &levels, NULL))
		return;
	/* ascending ids: the first and last node meet at the highest switch */
	q->max_level = plat_distance(m, first, last) / 2;
	int job_level = 1;
	for (long long sz = k; job_level < levels && sz < job_size; sz *= k)
		job_level++;
	q->cls = q->max_level <= job_level       ? JS_CLASS_CONTIGUOUS
	         : q->max_level == job_level + 1 ? JS_CLASS_QUASI
	                                         : JS_CLASS_NONCONTIGUOUS;
}

void js_alloc_quality(const struct plat_machine *m, const int *nodes, int n, int job_size,
                      int *scratch, struct js_alloc_quality *q)
{
	struct plat_view v = {NULL, nodes, n, 0, 0, m->nodes - 1};
	quality(m, &v, n, nodes[0], nodes[n - 1], job_size, scratch, q);
}

void js_alloc_quality_runs(const struct plat_machine *m, const struct plat_run *runs, int nr,
                           int job_size, int *scratch, struct js_alloc_quality *q)
{
	struct plat_view v = {runs, NULL, nr, 0, 0, m->nodes - 1};
	int n = 0;
	for (int i = 0; i < nr; i++)
		n += runs[i].last - runs[i].first + 1;
	quality(m, &v, n, runs[0].first, runs[nr - 1].last, job_size, scratch, q);
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

int js_parse_runs(const char *text, struct plat_run *runs, int max)
{
	int n = 0;
	for (const char *p = text; *p && n < max;) {
		int v[2] = {0, 0}, k = 0;
		for (;; p++)
			if (*p >= '0' && *p <= '9' && v[k] < INT_MAX / 10 - 1)
				v[k] = 10 * v[k] + (*p - '0');
			else if (*p == '-' && k == 0)
				k = 1;
			else
				break;
		runs[n].first = v[0];
		runs[n++].last = k ? v[1] : v[0];
		if (*p)
			p++;
	}
	return n;
}

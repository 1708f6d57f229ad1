/* The groups table: the jobs' means by requested size and by user
 * priority (seed 004 reports by job size and by priority), one row per
 * group value, in increasing order. */
#include <math.h>
#include <stdlib.h>

#include "metrics.h"

struct grp {
	double key;
	size_t n;
	double wait, exec, resp, node_s;
	long exps, cons;
};

static int grp_cmp(const void *a, const void *b)
{
	const struct grp *x = a, *y = b;
	return (x->key > y->key) - (x->key < y->key);
}

/* Accumulates job i into the group of key (found or appended). */
static void add(struct grp *g, size_t *ng, double key, const struct js_job *j,
                const struct js_job_result *x)
{
	size_t k = 0;
	while (k < *ng && g[k].key != key)
		k++;
	if (k == *ng)
		g[(*ng)++] = (struct grp){key, 0, 0, 0, 0, 0, 0, 0};
	g[k].n++;
	g[k].wait += x->start_s - j->submit_s;
	g[k].exec += x->finish_s - x->start_s;
	g[k].resp += x->finish_s - j->submit_s;
	g[k].node_s += x->node_s;
	g[k].exps += x->expansions;
	g[k].cons += x->contractions;
}

static void rows(FILE *f, const char *name, struct grp *g, size_t ng)
{
	qsort(g, ng, sizeof *g, grp_cmp);
	for (size_t k = 0; k < ng; k++) {
		double n = (double)g[k].n;
		fprintf(f, "%s,%.15g,%zu,%.6f,%.6f,%.6f,%.6f,%.4f,%.4f\n", name, g[k].key, g[k].n,
		        g[k].wait / n, g[k].exec / n, g[k].resp / n, g[k].node_s / n,
		        (double)g[k].exps / n, (double)g[k].cons / n);
	}
}

int js_write_groups_csv(FILE *f, const struct js_workload *w, const struct js_sim_result *r)
{
	size_t n = w->n ? w->n : 1, nsize = 0, nprio = 0;
	struct grp *size = malloc(n * sizeof *size), *prio = malloc(n * sizeof *prio);
	if (!size || !prio) {
		free(size);
		free(prio);
		return CMN_ENOMEM;
	}
	for (size_t i = 0; i < w->n; i++) {
		add(size, &nsize, w->jobs[i].size, &w->jobs[i], &r->jobs[i]);
		add(prio, &nprio, w->jobs[i].user_prio, &w->jobs[i], &r->jobs[i]);
	}
	fprintf(f, "group,value,jobs,mean_wait_s,mean_execution_s,mean_response_s,mean_node_s,"
	           "mean_expansions,mean_contractions\n");
	rows(f, "size", size, nsize);
	rows(f, "user_priority", prio, nprio);
	free(size);
	free(prio);
	return ferror(f) ? CMN_EIO : 0;
}

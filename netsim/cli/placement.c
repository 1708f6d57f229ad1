/* Node lists and named placements for netsim's --job TRACE@NODES. */
#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/number.h"
#include "../netsim.h"

/* "a-b,c,..." into nodes; the count must be `ranks`. */
static int parse_list(const struct plat_machine *m, const char *spec, int ranks, int *nodes,
                      struct cmn_err *e)
{
	int n = 0;
	for (const char *p = spec; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
		size_t len = strcspn(p, ",");
		char item[64];
		long long v[2];
		int got = len < sizeof item ? 0 : -1;
		if (!got) {
			snprintf(item, sizeof item, "%.*s", (int)len, p);
			got = cmn_num_int_list(item, '-', 0, m->nodes - 1, v, 2, NULL);
		}
		if (got < 0 || (got == 2 && v[1] < v[0]))
			return cmn_err_set(
			    e, CMN_EUSAGE,
			    "nodes '%s': '%.*s' is not a node id in [0, %d] nor a range "
			    "a-b of them (a <= b)",
			    spec, (int)len, p, m->nodes - 1);
		for (long long x = v[0]; x <= v[got - 1]; x++) {
			if (n == ranks)
				return cmn_err_set(e, CMN_EUSAGE,
				                   "nodes '%s': more than the trace's %d ranks",
				                   spec, ranks);
			nodes[n++] = (int)x;
		}
	}
	if (n != ranks)
		return cmn_err_set(e, CMN_EUSAGE, "nodes '%s': %d nodes for a trace of %d ranks",
		                   spec, n, ranks);
	return 0;
}

int net_place(const struct plat_machine *m, const char *spec, int ranks, char *used, int *nodes,
              struct cmn_err *e)
{
	int nfree = 0;
	for (int i = 0; i < m->nodes; i++)
		nfree += !used[i];
	int named = strcmp(spec, "contiguous") == 0 || strcmp(spec, "spread") == 0 ||
	            strncmp(spec, "random", 6) == 0;
	if (!named) {
		if (parse_list(m, spec, ranks, nodes, e))
			return e->code;
		for (int r = 0; r < ranks; r++)
			used[nodes[r]] = 1; /* explicit lists may share nodes */
		return 0;
	}
	if (nfree < ranks)
		return cmn_err_set(e, CMN_EUSAGE, "placement %s: %d ranks, only %d free nodes",
		                   spec, ranks, nfree);
	if (strcmp(spec, "contiguous") == 0) { /* the lowest free ids */
		for (int i = 0, r = 0; r < ranks; i++)
			if (!used[i])
				nodes[r++] = i;
	} else if (strcmp(spec, "spread") == 0) { /* evenly over the whole machine */
		for (int r = 0; r < ranks; r++) {
			int want = (int)((long long)r * m->nodes / ranks), i = want;
			while (used[i])
				i = (i + 1) % m->nodes;
			nodes[r] = i;
			used[i] = 1;
		}
		for (int r = 0; r < ranks; r++)
			used[nodes[r]] = 0;
	} else {
		long long seed = 0;
		if (strcmp(spec, "random") != 0 &&
		    (strncmp(spec, "random:seed=", 12) != 0 ||
		     cmn_num_int(spec + 12, 0, 4294967295LL, &seed) != CMN_NUM_OK))
			return cmn_err_set(e, CMN_EUSAGE,
			                   "placement '%s': random or random:seed=N (N in [0, "
			                   "4294967295])",
			                   spec);
		gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
		if (!g)
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		gsl_rng_set(g, (unsigned long)seed);
		int *pool = malloc((size_t)nfree * sizeof *pool);
		if (!pool) {
			gsl_rng_free(g);
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		}
		for (int i = 0, k = 0; i < m->nodes; i++)
			if (!used[i])
				pool[k++] = i;
		for (int r = 0; r < ranks; r++) { /* partial Fisher-Yates */
			int j = r + (int)gsl_rng_uniform_int(g, (unsigned long)(nfree - r));
			int tmp = pool[r];
			pool[r] = pool[j];
			pool[j] = tmp;
			nodes[r] = pool[r];
		}
		free(pool);
		gsl_rng_free(g);
	}
	for (int r = 0; r < ranks; r++)
		used[nodes[r]] = 1;
	return 0;
}

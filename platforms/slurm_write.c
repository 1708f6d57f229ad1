/* Slurm topology.conf writer (see slurm_write.h). Slurm's tree plugin wants
 * one parent per switch; a k-ary n-tree has k, so the file describes its
 * subtrees: the nodes under any stage-l switch are one block of k^l
 * consecutive ids, and each block is one logical switch. */
#include <string.h>

#include "slurm_write.h"

static void range(FILE *f, const char *prefix, int a, int b)
{
	if (a == b)
		fprintf(f, "%s%d", prefix, a);
	else
		fprintf(f, "%s[%d-%d]", prefix, a, b);
}

int plat_slurm_write(FILE *f, const struct plat_machine *m, struct cmn_err *e)
{
	int k, n, C;
	fprintf(f, "# Slurm topology.conf (topology/tree) for %s\n", m->spec);
	if (plat_kary_ntree_shape(m, &k, &n, NULL) == 0) {
		int block = 1;
		for (int l = 1; l <= n; l++) {
			block *= k;
			for (int b = 0; b < m->nodes / block; b++) {
				fprintf(f, "SwitchName=s%d-%d ", l, b);
				if (l == 1) {
					fprintf(f, "Nodes=");
					range(f, "node-", b * k, b * k + k - 1);
				} else {
					char pre[32];
					snprintf(pre, sizeof pre, "s%d-", l - 1);
					fprintf(f, "Switches=");
					range(f, pre, b * k, b * k + k - 1);
				}
				fputc('\n', f);
			}
		}
	} else if (strcmp(m->ops->base.name, "flat") == 0) {
		fprintf(f, "SwitchName=s0 Nodes=");
		range(f, "node-", 0, m->nodes - 1);
		fputc('\n', f);
	} else if (plat_multicluster_shape(m, &C, NULL, NULL, NULL) == 0 &&
	           !plat_multicluster_inner(m)) {
		int first[PLAT_MAX_CLUSTERS], size[PLAT_MAX_CLUSTERS];
		plat_multicluster_shape(m, &C, first, size, NULL);
		for (int c = 0; c < C; c++) {
			fprintf(f, "SwitchName=cluster-%d Nodes=", c);
			range(f, "node-", first[c], first[c] + size[c] - 1);
			fputc('\n', f);
		}
		fprintf(f, "SwitchName=wan Switches=");
		range(f, "cluster-", 0, C - 1);
		fputc('\n', f);
	} else {
		return cmn_err_set(
		    e, CMN_EUSAGE,
		    "topology.conf describes tree machines (kary-ntree, flat, clusters of "
		    "flat clusters), not %s",
		    m->spec);
	}
	return ferror(f) ? cmn_err_set(e, CMN_EIO, "cannot write topology.conf") : 0;
}

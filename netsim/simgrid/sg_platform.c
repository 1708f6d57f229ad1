/* SimGrid 3.32's FatTreeZone names its links "link_from_C_P_U" (SHARED,
 * FATPIPE) or "link_from_C_P_U_UP" / "_DOWN" (SPLITDUPLEX): C and P are node
 * ids that do not tell hosts from switches, U a counter over every fat-tree
 * link the process creates. SimGrid creates a tree's links level by level
 * from the hosts up, and a k-ary n-tree has k^n links per level, so with U0
 * the smallest U the link's level is ((U - U0) mod (n k^n)) / k^n + 1 for
 * every cluster of the same shape. The route check of the tests compares
 * every route link's bandwidth with ours, so a change of SimGrid's order
 * would show there. */
#include <simgrid/engine.h>
#include <simgrid/link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sg_platform.h"

int net_sg_apply_taper(const struct plat_machine *m, struct cmn_err *e)
{
	const struct plat_machine *tree = m;
	int clusters = 1, k, levels;
	if (plat_multicluster_shape(m, &clusters, NULL, NULL, NULL) == 0)
		tree = plat_multicluster_inner(m); /* NULL: flat clusters */
	if (!tree || plat_kary_ntree_shape(tree, &k, &levels, NULL) != 0)
		return 0;
	double f[16];
	int n = plat_kary_ntree_taper(tree, f), tapered = 0;
	for (int l = 0; l < n; l++)
		tapered |= f[l] != 1;
	if (!tapered)
		return 0;
	int count = sg_link_count(), nft = 0;
	long u0 = -1;
	sg_link_t *all = sg_link_list();
	sg_link_t *ft = malloc((size_t)count * sizeof *ft);
	long *uid = malloc((size_t)count * sizeof *uid);
	if (!ft || !uid) {
		free(all), free(ft), free(uid);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory"), -1;
	}
	for (int i = 0; i < count; i++) {
		int c, p, used = 0;
		long u;
		const char *name = sg_link_get_name(all[i]);
		if (sscanf(name, "link_from_%d_%d_%ld%n", &c, &p, &u, &used) == 3 &&
		    (name[used] == '\0' || strcmp(name + used, "_UP") == 0 ||
		     strcmp(name + used, "_DOWN") == 0)) {
			ft[nft] = all[i];
			uid[nft++] = u;
			u0 = u0 < 0 || u < u0 ? u : u0;
		}
	}
	free(all);
	long per_level = tree->nodes, per_tree = (long)n * per_level;
	int rc = 0, links = 0;
	for (int i = 0; i < nft && !rc; i++) {
		long rel = uid[i] - u0;
		if (rel >= clusters * per_tree)
			rc = cmn_err_set(e, CMN_ESTATE,
			                 "SimGrid's fat-tree link %s is beyond the %d x %ld links "
			                 "of %s",
			                 sg_link_get_name(ft[i]), clusters, per_tree, tree->spec);
		else
			sg_link_set_bandwidth(ft[i], sg_link_get_bandwidth(ft[i]) *
			                                 f[(rel % per_tree) / per_level]);
		links++;
	}
	free(ft);
	free(uid);
	return rc ? -1 : links;
}

const char *net_sg_log_message(const char *line)
{
	const char *at = line;
	for (const char *q = strstr(line, "] "); q; q = strstr(q + 1, "] "))
		at = q + 2;
	return at;
}

int net_sg_platform_file(const char *path, struct cmn_err *e)
{
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return cmn_err_set(
		    e, CMN_EINPUT,
		    "%s: error: not a regular file (a pipe, FIFO or device): SimGrid "
		    "reads the platform again after it is checked, so save it to "
		    "a file first",
		    path);
	return 0;
}

/* Slurm topology.conf (topology/tree plugin) for tree machines. */
#ifndef PLAT_SLURM_WRITE_H
#define PLAT_SLURM_WRITE_H

#include <stdio.h>

#include "platform.h"

/* Writes a topology.conf describing m to f: a k-ary n-tree as its logical
 * tree (switch s<l>-<b> over the block b of k^l nodes under a stage-l
 * switch), a flat machine as one switch, a multi-cluster of flat clusters as
 * a switch per cluster under one WAN switch. Nodes are node-<id>. Other
 * families are a usage error. */
int plat_slurm_write(FILE *f, const struct plat_machine *m, struct cmn_err *e);

#endif

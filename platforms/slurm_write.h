/* Slurm topology.conf (topology/tree plugin): each family that Slurm's tree
 * plugin can describe writes its own switch lines (its ops' slurm_write). */
#ifndef PLAT_SLURM_WRITE_H
#define PLAT_SLURM_WRITE_H

#include <stdio.h>

#include "platform.h"

/* Writes a topology.conf describing m to f: a comment naming the machine,
 * then its family's switch lines (a k-ary n-tree as its logical tree, a flat
 * machine as one switch, a multi-cluster of flat clusters as a switch per
 * cluster under one WAN switch). Nodes are node-<id>. A family without a
 * Slurm writer is a usage error naming it, before anything is written. */
int plat_slurm_write(FILE *f, const struct plat_machine *m, struct cmn_err *e);

/* Writes the slurm.conf lines the topology.conf needs (every node it names
 * declared, with cpus CPUs each, and one partition of them all) to f. Any
 * machine has them: nodes node-0 .. node-N-1. */
int plat_slurm_nodes(FILE *f, const struct plat_machine *m, int cpus, struct cmn_err *e);

/* For the families' writers: ids a..b as Slurm's hostlist "prefix[a-b]"
 * ("prefix<a>" when a == b). */
void plat_slurm_range(FILE *f, const char *prefix, int a, int b);

#endif

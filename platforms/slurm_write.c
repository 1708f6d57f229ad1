/* Slurm topology.conf writer (see slurm_write.h): the header and the
 * dispatch to the family's own writer. */
#include "slurm_write.h"

void plat_slurm_range(FILE *f, const char *prefix, int a, int b)
{
	if (a == b)
		fprintf(f, "%s%d", prefix, a);
	else
		fprintf(f, "%s[%d-%d]", prefix, a, b);
}

int plat_slurm_write(FILE *f, const struct plat_machine *m, struct cmn_err *e)
{
	if (!m->ops->slurm_write)
		return cmn_err_set(
		    e, CMN_EUSAGE,
		    "machine %s: the %s family has no Slurm topology.conf writer (its "
		    "ops' slurm_write): Slurm's tree plugin describes trees, flat "
		    "machines and clusters of flat clusters",
		    m->spec, m->ops->base.name);
	fprintf(f, "# Slurm topology.conf (topology/tree) for %s\n", m->spec);
	int rc = m->ops->slurm_write(f, m, e);
	if (rc)
		return rc;
	return ferror(f) ? cmn_err_set(e, CMN_EIO, "cannot write topology.conf") : 0;
}

int plat_slurm_nodes(FILE *f, const struct plat_machine *m, int cpus, struct cmn_err *e)
{
	fprintf(f,
	        "# slurm.conf lines (platgen --slurm-nodes): the nodes topology.conf\n"
	        "# names and a partition of them all, for %s\n",
	        m->spec);
	fprintf(f, "NodeName=");
	plat_slurm_range(f, "node-", 0, m->nodes - 1);
	fprintf(f, " CPUs=%d State=UNKNOWN\nPartitionName=placesim Nodes=", cpus);
	plat_slurm_range(f, "node-", 0, m->nodes - 1);
	fprintf(f, " Default=YES MaxTime=INFINITE State=UP\n");
	return ferror(f) ? cmn_err_set(e, CMN_EIO, "cannot write the slurm.conf lines") : 0;
}

/* platgen: writes a SimGrid platform (XML 4.1) for a machine specification. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/number.h"
#include "../common/options.h"
#include "../common/outfile.h"
#include "platform.h"
#include "slurm_write.h"
#include "xml_write.h"

static void families(FILE *f, const void *ctx)
{
	(void)ctx;
	fprintf(f, "Link bandwidth and latency and host speed are machine parameters\n"
	           "(bw, lat, speed; WAN: wan_bw, wan_lat).\n\n");
	cmn_registry_help(f, (const void *const *)plat_topology_registry, "machine");
}

enum { O_MACHINE = 256, O_SHARING, O_SLURM, O_SLURM_NODES, O_CPUS };

static const struct cmn_opt opts[] = {
    {"machine", O_MACHINE, "SPEC", "machine (families below), e.g. kary-ntree:k=4,n=3"},
    {"sharing", O_SHARING, "POLICY",
     "link sharing: SPLITDUPLEX (default), SHARED, FATPIPE (meshes)"},
    {"slurm-topology", O_SLURM, NULL, "write a Slurm topology.conf instead of the XML"},
    {"slurm-nodes", O_SLURM_NODES, NULL,
     "write the slurm.conf lines that go with it instead: the\n"
     "nodes it names (NodeName) and a partition of them all"},
    {"cpus", O_CPUS, "N", "with --slurm-nodes: CPUs per node (default 1)"},
    {"output", 'o', "FILE", "the file (written whole or not at all)"},
    {NULL, 0, NULL, NULL}};

static const struct cmn_cli cli = {
    "platgen",
    "usage: platgen --machine SPEC [--sharing POLICY] -o FILE.xml\n"
    "       platgen --machine SPEC --slurm-topology -o topology.conf\n"
    "       platgen --machine SPEC --slurm-nodes [--cpus N] -o nodes.conf\n",
    "Writes a SimGrid platform (version 4.1, SimGrid 3.32) for the machine, or\n"
    "a Slurm topology.conf (topology/tree) for a tree machine.\n",
    opts,
    families,
    NULL,
    NULL};

/* What the tool printed on stdout may be lost (a full disk): exit 1 then. */
static void stdout_check(void)
{
	cmn_outfile_stdout_check("platgen");
}

int main(int argc, char **argv)
{
	cmn_outfile_size_limit_errors();
	atexit(stdout_check);
	int slurm = 0, slurm_nodes = 0;
	long long cpus = 1;
	int cpus_given = 0;
	const char *machine = NULL, *out = NULL, *sharing = "SPLITDUPLEX";
	struct cmn_cli_iter it;
	cmn_cli_begin(&it, &cli, argc, argv);
	int k;
	while ((k = cmn_cli_next(&it)) > 0) {
		switch (k) {
		case O_MACHINE: machine = it.arg; break;
		case O_SHARING: sharing = it.arg; break;
		case 'o': out = it.arg; break;
		case O_SLURM: slurm = 1; break;
		case O_SLURM_NODES: slurm_nodes = 1; break;
		case O_CPUS: {
			struct cmn_err ce;
			if (cmn_opt_int("--cpus", it.arg, 1, 1 << 20, &cpus, &ce))
				return cmn_cli_usage_error(&cli, "%s", ce.msg);
			cpus_given = 1;
			break;
		}
		}
	}
	if (k < 0)
		return cmn_cli_status(k);
	if (!machine || !out || it.first < argc)
		return cmn_cli_usage_error(&cli, "give --machine SPEC and -o FILE.xml");
	if (slurm && slurm_nodes)
		return cmn_cli_usage_error(&cli,
		                           "--slurm-topology and --slurm-nodes write one file "
		                           "each: run platgen twice");
	if (cpus_given && !slurm_nodes)
		return cmn_cli_usage_error(&cli, "--cpus goes with --slurm-nodes");
	if (strcmp(sharing, "SPLITDUPLEX") && strcmp(sharing, "SHARED") &&
	    strcmp(sharing, "FATPIPE"))
		return cmn_cli_usage_error(
		    &cli, "--sharing: '%s' is not SPLITDUPLEX, SHARED or FATPIPE", sharing);
	/* the effective options ("--" may not appear in an XML comment) */
	char command[900];
	snprintf(command, sizeof command, "%s (options: machine=%s, sharing=%s, output=%s)",
	         PROJECT_VERSION, machine, sharing, out);
	for (char *p = strstr(command, "--"); p; p = strstr(p, "--"))
		p[1] = '_';
	struct cmn_err e;
	cmn_err_clear(&e);
	struct plat_machine *m;
	int rc = plat_machine_create(machine, &m, &e);
	if (rc) {
		fprintf(stderr, "platgen: %s\n", e.msg);
		return cmn_err_exit_status(&e);
	}
	struct cmn_outfile f;
	struct plat_xml_opts o = {sharing, command, out};
	if (slurm || slurm_nodes) {
		rc = cmn_outfile_open(&f, out, &e);
		if (!rc)
			rc = slurm ? plat_slurm_write(f.f, m, &e)
			           : plat_slurm_nodes(f.f, m, (int)cpus, &e);
	} else {
		rc = cmn_outfile_reserve(&f, out, &e);
		if (!rc)
			rc = plat_xml_write(m, &o, f.tmp, &e);
	}
	if (rc)
		cmn_outfile_abort(&f);
	else
		rc = cmn_outfile_commit(&f, &e);
	plat_machine_destroy(m);
	if (rc) {
		fprintf(stderr, "platgen: %s\n", e.msg);
		return cmn_err_exit_status(&e);
	}
	return 0;
}

/* platgen: writes a SimGrid platform (XML 4.1) for a machine specification. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/outfile.h"
#include "platform.h"
#include "slurm_write.h"
#include "xml_write.h"

#ifndef PROJECT_VERSION
#define PROJECT_VERSION "unknown"
#endif

static void usage(FILE *f)
{
	fprintf(f, "usage: platgen --machine SPEC [--sharing POLICY] -o FILE.xml\n"
	           "       platgen --machine SPEC --slurm-topology -o topology.conf\n"
	           "\n"
	           "Writes a SimGrid platform (version 4.1, SimGrid 3.32) for the machine, or\n"
	           "a Slurm topology.conf (topology/tree) for a tree machine.\n"
	           "  --machine SPEC     machine (families below), e.g. kary-ntree:k=4,n=3\n"
	           "  --sharing POLICY   link sharing: SPLITDUPLEX (default), SHARED, FATPIPE\n"
	           "  -o, --output FILE  the XML file (written whole or not at all)\n"
	           "  --help, --version\n"
	           "Link bandwidth and latency and host speed are machine parameters\n"
	           "(bw, lat, speed; WAN: wan_bw, wan_lat).\n\n");
	cmn_registry_help(f, (const void *const *)plat_topology_registry, "machine");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {{"machine", 1, 0, 'm'},
	                                     {"sharing", 1, 0, 's'},
	                                     {"output", 1, 0, 'o'},
	                                     {"help", 0, 0, 'h'},
	                                     {"version", 0, 0, 'V'},
	                                     {"slurm-topology", 0, 0, 'S'},
	                                     {0, 0, 0, 0}};
	int slurm = 0;
	const char *machine = NULL, *out = NULL, *sharing = "SPLITDUPLEX";
	int opt;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "o:", opts, NULL)) != -1) {
		switch (opt) {
		case 'm': machine = optarg; break;
		case 's': sharing = optarg; break;
		case 'o': out = optarg; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("platgen %s\n", PROJECT_VERSION); return 0;
		case 'S': slurm = 1; break;
		default:
			fprintf(
			    stderr,
			    "platgen: unknown or incomplete option '%s'\n(try platgen --help)\n",
			    argv[optind - 1]);
			return 2;
		}
	}
	if (!machine || !out || optind < argc) {
		fprintf(stderr,
		        "platgen: give --machine SPEC and -o FILE.xml\n(try platgen --help)\n");
		return 2;
	}
	if (strcmp(sharing, "SPLITDUPLEX") && strcmp(sharing, "SHARED") &&
	    strcmp(sharing, "FATPIPE")) {
		fprintf(stderr, "platgen: --sharing: '%s' is not SPLITDUPLEX, SHARED or FATPIPE\n",
		        sharing);
		return 2;
	}
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
	struct plat_xml_opts o = {sharing, command};
	if (slurm) {
		rc = cmn_outfile_open(&f, out, &e);
		if (!rc)
			rc = plat_slurm_write(f.f, m, &e);
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

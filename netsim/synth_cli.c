/* netsim's synthetic-traffic mode (--traffic): the flit-level network under
 * a pattern at an offered load, measured (flit_synth.h); a table on stdout,
 * a CSV with --synth-out. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/outfile.h"
#include "flit_synth.h"
#include "synth_cli.h"

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: netsim --traffic PATTERN --machine SPEC [--engine flit[:KEY=VALUE,..]]\n"
	    "              [--load X] [--packet P] [--cycles N] [--warmup W] [--sample S]\n"
	    "              [--tolerance T] [--seed N] [--synth-out FILE.csv] [--quiet]\n\n"
	    "Synthetic traffic on the flit-level network: every node starts a packet of P\n"
	    "flits with probability X / P per cycle to the pattern's destination; after W\n"
	    "warm-up cycles, samples of S cycles until three agree within T (mean latency\n"
	    "and accepted throughput), or N measured cycles.\n"
	    "  --load X        offered flits per node per cycle (default 0.1)\n"
	    "  --packet P      flits per packet (default 1)\n"
	    "  --cycles N      most measured cycles (default 1000000)\n"
	    "  --warmup W      (default 10000)   --sample S  (default 10000)\n"
	    "  --tolerance T   (default 0.05)    --seed N    (default 1)\n"
	    "  --synth-out F   CSV: machine,engine,traffic,load,packet,accepted,mean_latency,\n"
	    "                  p99_latency,packets,samples,converged,cycles,wall_s,cycles_per_s,\n"
	    "                  flit_hops_per_s\n\n");
	fprintf(f, "flit engine parameters (--engine flit:KEY=VALUE,..):\n");
	for (const struct cmn_param_def *d = flit_param_defs; d->key; d++)
		fprintf(f, "  %-13s (default %s) %s\n", d->key, d->def, d->help);
	fprintf(f, "\n");
	cmn_registry_help(f, (const void *const *)net_traffic_registry, "traffic pattern");
}

static int number(const char *opt, const char *arg, double lo, double hi, double *out)
{
	char *end;
	double v = strtod(arg, &end);
	if (*end || end == arg || !(v >= lo && v <= hi)) {
		fprintf(stderr, "netsim: %s: '%s' is not a number in [%g, %g]\n", opt, arg, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

int netsim_synth_main(int argc, char **argv)
{
	enum {
		O_TRAFFIC = 256,
		O_MACH,
		O_ENGINE,
		O_LOAD,
		O_PACKET,
		O_CYCLES,
		O_WARMUP,
		O_SAMPLE,
		O_TOL,
		O_SEED,
		O_OUT,
		O_QUIET,
		O_HELP
	};
	static const struct option opts[] = {
	    {"traffic", 1, 0, O_TRAFFIC}, {"machine", 1, 0, O_MACH},
	    {"engine", 1, 0, O_ENGINE},   {"load", 1, 0, O_LOAD},
	    {"packet", 1, 0, O_PACKET},   {"cycles", 1, 0, O_CYCLES},
	    {"warmup", 1, 0, O_WARMUP},   {"sample", 1, 0, O_SAMPLE},
	    {"tolerance", 1, 0, O_TOL},   {"seed", 1, 0, O_SEED},
	    {"synth-out", 1, 0, O_OUT},   {"quiet", 0, 0, O_QUIET},
	    {"help", 0, 0, O_HELP},       {0, 0, 0, 0}};
	const char *traffic = NULL, *machine = NULL, *engine = "flit", *out = NULL;
	struct flit_synth_opts o;
	flit_synth_default(&o);
	int quiet = 0, opt;
	double v;
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case O_TRAFFIC: traffic = optarg; break;
		case O_MACH: machine = optarg; break;
		case O_ENGINE: engine = optarg; break;
		case O_LOAD:
			if (number("--load", optarg, 1e-9, 1, &o.load))
				return 2;
			break;
		case O_PACKET:
			if (number("--packet", optarg, 1, 1e6, &v))
				return 2;
			o.packet = (int)v;
			break;
		case O_CYCLES:
			if (number("--cycles", optarg, 1, 1e12, &v))
				return 2;
			o.max_cycles = (long)v;
			break;
		case O_WARMUP:
			if (number("--warmup", optarg, 0, 1e12, &v))
				return 2;
			o.warmup = (long)v;
			break;
		case O_SAMPLE:
			if (number("--sample", optarg, 1, 1e12, &v))
				return 2;
			o.sample = (long)v;
			break;
		case O_TOL:
			if (number("--tolerance", optarg, 0, 10, &o.tolerance))
				return 2;
			break;
		case O_SEED:
			if (number("--seed", optarg, 0, 4294967295.0, &v))
				return 2;
			o.seed = (unsigned long)v;
			break;
		case O_OUT: out = optarg; break;
		case O_QUIET: quiet = 1; break;
		case O_HELP: usage(stdout); return 0;
		default:
			fprintf(stderr,
			        "netsim: unknown or incomplete option '%s' with --traffic (see "
			        "netsim --traffic x --help)\n",
			        argv[optind - 1]);
			return 2;
		}
	}
	if (optind < argc || !traffic || !machine) {
		fprintf(stderr, "netsim: --traffic needs --machine and no other arguments\n");
		return 2;
	}
	struct cmn_err e;
	cmn_err_clear(&e);
	const char *colon = strchr(engine, ':');
	if (strncmp(engine, "flit", colon ? (size_t)(colon - engine) : strlen(engine)) != 0 ||
	    (colon ? colon - engine : (long)strlen(engine)) != 4) {
		fprintf(stderr, "netsim: --traffic runs on the flit engine only, not '%s'\n",
		        engine);
		return 2;
	}
	struct cmn_params cp;
	if (cmn_params_parse(flit_param_defs, colon ? colon + 1 : NULL, &cp, &e)) {
		fprintf(stderr, "netsim: --engine %s: %s\n", engine, e.msg);
		return 2;
	}
	struct flit_params fp;
	flit_params_from(&cp, &fp);
	char espec[512];
	cmn_params_format("flit", &cp, espec, sizeof espec);
	struct plat_machine *m = NULL;
	struct net_traffic t = {0};
	struct flit_synth_result r;
	int rc = plat_machine_create(machine, &m, &e);
	if (!rc)
		rc = net_traffic_open(traffic, m, &t, &e);
	if (!rc && fp.cut_through && o.packet > fp.buf)
		rc = cmn_err_set(&e, CMN_EUSAGE,
		                 "--packet %d: virtual cut-through needs buffers of a whole packet "
		                 "(buf=%d)",
		                 o.packet, fp.buf);
	if (!rc)
		rc = flit_synth_run(m, &fp, &t, &o, &r, &e);
	char tspec[256];
	if (!rc)
		cmn_params_format(t.ops->base.name, &t.params, tspec, sizeof tspec);
	struct cmn_outfile of;
	if (!rc && out && !(rc = cmn_outfile_open(&of, out, &e))) {
		fprintf(
		    of.f,
		    "machine,engine,traffic,load,packet,accepted,mean_latency,p99_latency,packets,"
		    "samples,converged,cycles,wall_s,cycles_per_s,flit_hops_per_s\n");
		fprintf(
		    of.f,
		    "\"%s\",\"%s\",\"%s\",%.9g,%d,%.9g,%.9g,%.9g,%ld,%ld,%d,%ld,%.3f,%.0f,%.0f\n",
		    m->spec, espec, tspec, o.load, o.packet, r.accepted, r.mean_lat, r.p99_lat,
		    r.packets, r.samples, r.converged, r.cycles, r.wall_s,
		    (double)r.cycles / r.wall_s, (double)r.flit_hops / r.wall_s);
		rc = cmn_outfile_commit(&of, &e);
	}
	if (!rc && !quiet) {
		printf("%-22s %s\n%-22s %s\n%-22s %s\n", "machine", m->spec, "engine", espec,
		       "traffic", tspec);
		printf("%-22s %.4f flits/node/cycle (%d-flit packets)\n", "offered", o.load,
		       o.packet);
		printf("%-22s %.4f flits/node/cycle\n", "accepted", r.accepted);
		printf("%-22s %.2f cycles (99th percentile %.0f)\n", "latency", r.mean_lat,
		       r.p99_lat);
		printf("%-22s %ld packets in %ld samples of %ld cycles: %s\n", "measured",
		       r.packets, r.samples, o.sample,
		       r.converged ? "converged" : "NOT converged (saturated?)");
		printf("%-22s %ld cycles in %.2f s: %.0f cycles/s, %.0f flit-hops/s\n", "speed",
		       r.cycles, r.wall_s, (double)r.cycles / r.wall_s,
		       (double)r.flit_hops / r.wall_s);
	}
	if (rc)
		fprintf(stderr, "netsim: %s\n", e.msg);
	net_traffic_close(&t);
	plat_machine_destroy(m);
	return rc ? (rc == CMN_EUSAGE ? 2 : 1) : 0;
}

/* netsim's synthetic-traffic mode (--traffic): the flit-level network under
 * a pattern at an offered load, measured (flit_synth.h); a table on stdout,
 * a CSV with --synth-out. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../common/gnuplot.h"
#include "../../common/number.h"
#include "../../common/outfile.h"
#include "../flit/flit_preset.h"
#include "../flit/flit_synth.h"
#include "heatmap.h"
#include "netsim_cli.h"

/* The latency-load curve (mean and 99th percentile, log scale) as a PNG,
 * written whole or not at all. */
static int plot_sweep(const char *png, const double *loads, const struct flit_synth_result *r,
                      int n, const char *machine, const char *traffic, struct cmn_err *e)
{
	struct cmn_outfile of;
	FILE *g = cmn_gp_png_open(&of, png, 800, 550, e);
	if (!g)
		return e->code;
	fprintf(g, "set title ");
	char title[600];
	snprintf(title, sizeof title, "%s, %s traffic (flit-level)", machine, traffic);
	cmn_gp_str(g, title);
	fprintf(g, " noenhanced\nset xlabel 'offered load (flits/node/cycle)'\n"
	           "set ylabel 'packet latency (cycles)'\nset logscale y\nset grid\n"
	           "set key top left\nplot '-' using 1:2 with linespoints pt 7 title 'mean', "
	           "'-' using 1:2 with linespoints pt 5 title '99th percentile'\n");
	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < n; i++)
			fprintf(g, "%.9g %.9g\n", loads[i], k ? r[i].p99_lat : r[i].mean_lat);
		fprintf(g, "e\n");
	}
	return cmn_gp_png_close(g, &of, png, e);
}

int net_synth_main(const struct net_cli *c)
{
	const char *traffic = c->traffic, *machine = c->machine,
	           *engine = c->engine ? c->engine : "flit", *out = c->synth_out, *plot = c->plot,
	           *preset = c->preset, *heat = c->heatmap, *links_out = c->links_out;
	struct flit_synth_opts o = c->synth;
	/* quiet: no progress; table: the result table on stdout unless an
	 * output goes there */
	int quiet = c->quiet, rc = 0,
	    table = !cmn_outfile_is_stdout(c->synth_out) && !cmn_outfile_is_stdout(c->links_out);
	const double *sweep = c->sweep;
	struct cmn_err e;
	cmn_err_clear(&e);
	if ((heat || links_out) && sweep[2]) {
		fprintf(stderr,
		        "netsim: --heatmap and --links-out are for one load, not a --sweep-load\n");
		return 2;
	}
	if (plot && !sweep[2]) {
		fprintf(stderr, "netsim: --plot draws a --sweep-load\n");
		return 2;
	}
	const char *colon = strchr(engine, ':');
	size_t name_len = colon ? (size_t)(colon - engine) : strlen(engine);
	if (name_len != 4 || strncmp(engine, "flit", 4) != 0) {
		fprintf(stderr, "netsim: --traffic runs on the flit engine only, not '%s'\n",
		        engine);
		return 2;
	}
	if (colon && !colon[1]) {
		fprintf(stderr, "netsim: --engine '%s': no parameters after ':'\n", engine);
		return 2;
	}
	struct plat_machine *m = NULL;
	if (plat_machine_create(machine, &m, &e)) {
		fprintf(stderr, "netsim: %s\n", e.msg);
		return 2;
	}
	struct cmn_params cp;
	struct flit_params fp;
	if (net_flit_params_parse(colon ? colon + 1 : NULL, preset, m, &cp, &fp, &e)) {
		fprintf(stderr, "netsim: --engine %s: %s\n", engine, e.msg);
		plat_machine_destroy(m);
		return 2;
	}
	char espec[1024];
	cmn_params_format("flit", &cp, espec, sizeof espec);
	struct net_traffic t = {0};
	struct flit_synth_result pts[1000];
	double loads[1000];
	int npts = 0;
	long *lf = heat || links_out ? calloc((size_t)m->nlinks + 1, sizeof *lf) : NULL;
	rc = (heat || links_out) && !lf ? cmn_err_set(&e, CMN_ENOMEM, "out of memory") : 0;
	if (!rc)
		rc = net_traffic_open(traffic, m, &t, &e);
	o.link_flits = lf;
	int nloads = sweep[2] ? (int)floor((sweep[1] - sweep[0]) / sweep[2] + 1e-9) + 1 : 1;
	for (int k = 0; !rc && k < nloads; k++) {
		double x = sweep[2] ? sweep[0] + sweep[2] * k : o.load;
		struct flit_synth_opts ox = o;
		ox.load = loads[npts] = x;
		rc = net_flit_synth_run(m, &fp, &t, &ox, &pts[npts], &e);
		if (!rc && sweep[2] && !quiet && isatty(2)) /* progress: on a terminal */
			fprintf(stderr, "netsim: load %.4f: accepted %.4f, latency %.2f%s\n", x,
			        pts[npts].accepted, pts[npts].mean_lat,
			        pts[npts].converged ? "" : " (not converged: the sweep stops)");
		if (!rc && !pts[npts++].converged) /* saturated: higher loads would too */
			break;
	}
	if (!rc && plot)
		rc = plot_sweep(plot, loads, pts, npts, m->spec, traffic, &e);
	struct cmn_outfile lo;
	if (!rc && links_out && !(rc = cmn_outfile_open(&lo, links_out, &e))) {
		fprintf(lo.f, "link,src,dst,flits,utilisation\n");
		for (int l = 0; l < m->nlinks; l++)
			fprintf(lo.f, "%d,%d,%d,%ld,%.6f\n", l, m->links[l].src, m->links[l].dst,
			        lf[l], (double)lf[l] / (double)pts[0].cycles);
		rc = cmn_outfile_commit(&lo, &e);
	}
	if (!rc && heat) {
		double *util = malloc((size_t)m->nlinks * sizeof *util + 1);
		if (!util)
			rc = cmn_err_set(&e, CMN_ENOMEM, "out of memory");
		for (int l = 0; !rc && l < m->nlinks; l++)
			util[l] = (double)lf[l] / (double)pts[0].cycles;
		char title[600];
		const char *bw = strstr(m->spec, ",bw="); /* family and shape: a title that fits */
		int shape = bw ? (int)(bw - m->spec) : (int)strlen(m->spec);
		snprintf(title, sizeof title, "%.*s, %s at %.3g flits/node/cycle", shape, m->spec,
		         traffic, o.load);
		if (!rc)
			rc = net_heatmap_png(m, util, title, heat, &e);
		free(util);
	}
	char tspec[256];
	if (!rc)
		cmn_params_format(t.ops->base.name, &t.params, tspec, sizeof tspec);
	struct cmn_outfile of;
	if (!rc && out && !(rc = cmn_outfile_open(&of, out, &e))) {
		fprintf(
		    of.f,
		    "machine,engine,traffic,load,packet,accepted,mean_latency,p99_latency,packets,"
		    "samples,converged,cycles,wall_s,cycles_per_s,flit_hops_per_s\n");
		for (int i = 0; i < npts; i++)
			fprintf(
			    of.f,
			    "\"%s\",\"%s\",\"%s\",%.9g,%d,%.9g,%.9g,%.9g,%ld,%ld,%d,%ld,%.3f,%.0f,"
			    "%.0f\n",
			    m->spec, espec, tspec, loads[i], o.packet, pts[i].accepted,
			    pts[i].mean_lat, pts[i].p99_lat, pts[i].packets, pts[i].samples,
			    pts[i].converged, pts[i].cycles, pts[i].wall_s,
			    (double)pts[i].cycles / pts[i].wall_s,
			    (double)pts[i].flit_hops / pts[i].wall_s);
		rc = cmn_outfile_commit(&of, &e);
	}
	if (!rc && table)
		printf("%-22s %s\n%-22s %s\n%-22s %s\n", "machine", m->spec, "engine", espec,
		       "traffic", tspec);
	if (!rc && table && sweep[2]) {
		printf("%10s %10s %12s %8s %10s\n", "offered", "accepted", "latency", "p99",
		       "converged");
		for (int i = 0; i < npts; i++)
			printf("%10.4f %10.4f %12.2f %8.0f %10s\n", loads[i], pts[i].accepted,
			       pts[i].mean_lat, pts[i].p99_lat, pts[i].converged ? "yes" : "no");
	} else if (!rc && table) {
		const struct flit_synth_result r = pts[0];
		printf("%-22s %.4f flits/node/cycle (%d-flit packets)\n", "offered", o.load,
		       o.packet);
		printf("%-22s %.4f flits/node/cycle\n", "accepted", r.accepted);
		printf("%-22s %.2f cycles (99th percentile %.0f)\n", "latency", r.mean_lat,
		       r.p99_lat);
		printf("%-22s %ld packets in %ld samples of %ld cycles: %s\n", "measured",
		       r.packets, r.samples, o.sample,
		       r.converged ? "converged"
		       : r.accepted < 0.95 * o.load
		           ? "NOT converged within --cycles: accepted below offered, saturated"
		           : "NOT converged within --cycles: the last three samples differ by "
		             "more than --tolerance (raise --cycles or --tolerance)");
		printf("%-22s %ld cycles in %.2f s: %.0f cycles/s, %.0f flit-hops/s\n", "speed",
		       r.cycles, r.wall_s, (double)r.cycles / r.wall_s,
		       (double)r.flit_hops / r.wall_s);
	}
	if (rc)
		fprintf(stderr, "netsim: %s\n", e.msg);
	net_traffic_close(&t);
	free(lf);
	plat_machine_destroy(m);
	return rc ? (rc == CMN_EUSAGE ? 2 : 1) : 0;
}

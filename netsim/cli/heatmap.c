/* Heat maps of link utilisation (heatmap.h), drawn by gnuplot. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../common/gnuplot.h"
#include "../../common/outfile.h"
#include "heatmap.h"

int net_heatmap_png(const struct plat_machine *m, const double *util, const char *title,
                    const char *png, struct cmn_err *e)
{
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS];
	struct cmn_err ignore;
	if (plat_grid_shape(m, &nd, dims, wrap, &ignore) || nd != 2 || (dims[0] < 2 && dims[1] < 2))
		return cmn_err_set(e, CMN_EUSAGE,
		                   "%s: heat maps are drawn for 2-D meshes and tori, not %s", png,
		                   m->spec);
	struct cmn_outfile of;
	FILE *g = cmn_gp_png_open(&of, png, 240 + 70 * dims[0], 160 + 70 * dims[1], e);
	if (!g)
		return e->code;
	double hi = 0;
	for (int l = 0; l < m->nlinks; l++)
		hi = util[l] > hi ? util[l] : hi;
	fprintf(g, "set title ");
	cmn_gp_str(g, title);
	fprintf(g,
	        " noenhanced\nset size ratio -1\nset xrange [-1:%d]\nset yrange [-1:%d]\n"
	        "set xtics 1\nset ytics 1\nset xlabel 'x'\nset ylabel 'y'\n"
	        "set cblabel 'link utilisation (flits per cycle)'\nset cbrange [0:%g]\n"
	        "set palette defined (0 '#f7f7f7', 0.4 '#fdae61', 0.8 '#d7191c', 1 '#67001f')\n"
	        "plot '-' using 1:2:3:4:5 with vectors head size 0.12,25 filled lw 3 lc palette "
	        "notitle, '-' using 1:2 with points pt 5 ps 1.2 lc rgb '#404040' notitle\n",
	        dims[0], dims[1], hi > 0 ? hi : 1);
	for (int l = 0; l < m->nlinks; l++) {
		const struct plat_link *k = &m->links[l];
		if (k->src < m->nodes || k->dst < m->nodes)
			continue; /* a node's own link */
		int a[PLAT_MAX_DIMS], b[PLAT_MAX_DIMS];
		plat_coords(m, m->vertices[k->src].index, a);
		plat_coords(m, m->vertices[k->dst].index, b);
		double ux = b[0] - a[0], uy = b[1] - a[1], len = 0.72;
		if (fabs(ux) > 1 || fabs(uy) > 1) { /* a wraparound link: a stub off the edge */
			ux = ux > 1 ? -1 : ux < -1 ? 1 : 0;
			uy = uy > 1 ? -1 : uy < -1 ? 1 : 0;
			len = 0.4;
		}
		/* the two directions side by side: shifted to the arrow's right */
		double ox = 0.12 * uy, oy = -0.12 * ux;
		fprintf(g, "%.3f %.3f %.3f %.3f %.6g\n", a[0] + 0.14 * ux + ox,
		        a[1] + 0.14 * uy + oy, len * ux, len * uy, util[l]);
	}
	fprintf(g, "e\n");
	for (int x = 0; x < dims[0]; x++)
		for (int y = 0; y < dims[1]; y++)
			fprintf(g, "%d %d\n", x, y);
	fprintf(g, "e\n");
	return cmn_gp_png_close(g, &of, png, e);
}

/* Writing gnuplot scripts (gnuplot.h). */
#include "gnuplot.h"

void cmn_gp_str(FILE *g, const char *v)
{
	fputc('\'', g);
	for (; *v; v++) {
		if (*v == '\'')
			fputc('\'', g);
		fputc(*v, g);
	}
	fputc('\'', g);
}

FILE *cmn_gp_png_open(struct cmn_outfile *of, const char *png, int width, int height,
                      struct cmn_err *e)
{
	if (cmn_outfile_reserve(of, png, e))
		return NULL;
	FILE *g = popen("gnuplot 1>&2", "w");
	if (!g) {
		cmn_outfile_abort(of);
		cmn_err_set(e, CMN_EIO, "%s: cannot run gnuplot", png);
		return NULL;
	}
	fprintf(g, "set terminal pngcairo noenhanced size %d,%d font ',10'\nset output ", width,
	        height);
	cmn_gp_str(g, of->tmp);
	fprintf(g, "\n");
	return g;
}

int cmn_gp_png_close(FILE *g, struct cmn_outfile *of, const char *png, struct cmn_err *e)
{
	if (pclose(g) != 0) {
		cmn_outfile_abort(of);
		return cmn_err_set(e, CMN_EIO, "%s: gnuplot failed (is gnuplot-nox installed?)",
		                   png);
	}
	return cmn_outfile_commit(of, e);
}

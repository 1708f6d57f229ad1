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

/* Writing gnuplot scripts. */
#ifndef CMN_GNUPLOT_H
#define CMN_GNUPLOT_H

#include <stdio.h>

/* Writes v as a gnuplot single-quoted string ('' stands for a quote). */
void cmn_gp_str(FILE *g, const char *v);

#endif

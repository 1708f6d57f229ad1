/* Writing gnuplot scripts. */
#ifndef CMN_GNUPLOT_H
#define CMN_GNUPLOT_H

#include <stdio.h>

#include "outfile.h"

/* Writes v as a gnuplot single-quoted string ('' stands for a quote). */
void cmn_gp_str(FILE *g, const char *v);

/* A PNG drawn by gnuplot, written whole or not at all: reserves png (of),
 * starts gnuplot (its messages to stderr) and sets a pngcairo terminal of
 * width x height writing of->tmp. The script goes to the returned stream;
 * NULL on an error (e set, nothing left behind). */
FILE *cmn_gp_png_open(struct cmn_outfile *of, const char *png, int width, int height,
                      struct cmn_err *e);
/* Ends the script: the PNG in place if gnuplot succeeded, else an error
 * naming png and no file. */
int cmn_gp_png_close(FILE *g, struct cmn_outfile *of, const char *png, struct cmn_err *e);

#endif

/* Writing gnuplot scripts. */
#ifndef CMN_GNUPLOT_H
#define CMN_GNUPLOT_H

#include <stdio.h>

#include "err.h"
#include "outfile.h"

/* Writes v as a gnuplot double-quoted string: a quote and a backslash
 * escaped, control characters (a newline in a folder's name) as octal
 * escapes, so any file name or title reads back as it is. */
void cmn_gp_str(FILE *g, const char *v);

/* Runs gnuplot on the script file (its messages to stderr), without a
 * shell: shown names the plot in errors. 0, or an error (gnuplot missing,
 * or failed). */
int cmn_gp_run(const char *script, const char *shown, struct cmn_err *e);

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

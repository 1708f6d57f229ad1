/* The plot of a run's series (--plot): utilization and queue length over
 * time, drawn by gnuplot from the series CSV (sim.h's series: a row per
 * change). A long log has tens of thousands of changes, which drawn as
 * steps fill the panel solid; the plot shows instead the time-weighted
 * means over SERIES_PLOT_BINS equal spans of the run (and the queue's
 * largest length in each), so that it reads the same at any length. */
#ifndef JS_SERIES_PLOT_H
#define JS_SERIES_PLOT_H

#include "../../common/err.h"

#define SERIES_PLOT_BINS 500

/* Draws the series CSV into png (a temporary; shown: the name to report)
 * with title; empty: nothing was simulated (empty axes that say so).
 * gnuplot's messages go to stderr. */
int js_series_plot(const char *series, const char *png, const char *shown, const char *title,
                   int empty, struct cmn_err *e);

#endif

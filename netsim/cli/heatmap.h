/* A PNG heat map of link utilisation on a 2-D mesh or torus (issue 8 §3):
 * every router-to-router link an arrow from its router toward the next,
 * coloured by its utilisation; wraparound links of tori as short arrows
 * leaving the grid's edge. */
#ifndef NET_HEATMAP_H
#define NET_HEATMAP_H

#include "../../common/err.h"
#include "../../platforms/platform.h"

/* util: m->nlinks values in [0, 1] (flits per cycle); written whole or not
 * at all. Machines other than 2-D meshes and tori are refused (CMN_EUSAGE). */
int net_heatmap_png(const struct plat_machine *m, const double *util, const char *title,
                    const char *png, struct cmn_err *e);

#endif

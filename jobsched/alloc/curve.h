/* Curves through the nodes of a mesh or torus, for curve-based allocation
 * (seed 002 section II): row-major, snake in both orientations, Hilbert
 * (2D and 3D, spliced along the longest dimension for non-cubic shapes). */
#ifndef JS_CURVE_H
#define JS_CURVE_H

#include "../../platforms/platform.h"

enum js_curve_order { JS_CURVE_ROW, JS_CURVE_SNAKE_ROW, JS_CURVE_SNAKE_COL, JS_CURVE_HILBERT };

/* Parses "row", "snake-row", "snake-col" or "hilbert"; -1 when unknown. */
int js_curve_parse(const char *name);

/* Fills rank_to_node (m->nodes entries) with the machine's nodes in curve
 * order. Dimensions are taken longest first, as seed 002 lists them:
 * row-major and the row-major snake run along the longest dimension first,
 * the column-major snake along the shortest. Hilbert needs 2 or 3
 * dimensions whose shorter sides are one power of two and whose longest
 * side is a multiple of it (else a usage error). */
int js_curve_build(const struct plat_machine *m, int order, int *rank_to_node, struct cmn_err *e);

#endif

/* The max-min computation of the linkload model: progressive filling by
 * events over the parts (ll_part.h) of the running jobs, each computation
 * starting from the last one's record. Internal to the linkload model
 * (linkload.c holds the jobs).
 *
 * A computation gives, to the last bit, what the filling of every part
 * held from scratch gives (linkload.h), but computes only the parts whose
 * flows freeze at other levels than in the last computation: the others'
 * drops of active flows are replayed from their record on the links they
 * share with computed ones. A part's flows freeze where its links fill
 * while it has flows active on them, so its record stays right as long as
 * those fills stay: it is computed from the level at which a link fills
 * that did not while its flows were active there, or one that did no
 * longer fills. */
#ifndef CPL_LL_FILL_H
#define CPL_LL_FILL_H

#include "../../platforms/platform.h"
#include "ll_part.h"

struct ll_fill;

/* What the computations did so far. */
struct cpl_ll_fill_stats {
	double parts;        /* parts computed */
	double events;       /* rounds of links filling */
	double link_updates; /* links whose user counts changed at an event */
	double settles;      /* parts that settled fills at an event */
	double replayed;     /* recorded drops replayed */
	double splits;       /* times flows of a part moved into its fragment */
	double redone;       /* computations redone with every part (a record that
	                        could not be followed) */
};

/* For machine m (kept alive by the caller); 0 or -1 out of memory. */
int cpl_ll_fill_create(const struct plat_machine *m, struct ll_fill **out);
void cpl_ll_fill_destroy(struct ll_fill *fs); /* NULL: nothing; lets go of the parts held */
/* A new run: the parts held from here on are computed in it. */
void cpl_ll_fill_begin(struct ll_fill *fs);
/* Part p on its links' lists, to be computed; 0 or -1 out of memory
 * (nothing held). */
int cpl_ll_fill_hold(struct ll_fill *fs, struct ll_part *p);
/* Part p off its links' lists; the parts it shared links with are
 * followed there from the start in the next computation. */
void cpl_ll_fill_let_go(struct ll_fill *fs, struct ll_part *p);
/* The computation of the run: the parts new to it and those whose flows
 * freeze at other levels computed, their records renewed. 0 or -1 out of
 * memory (the next computation then computes every part). */
int cpl_ll_fill_compute(struct ll_fill *fs);
/* The parts computed in the run (held in it, or computed again): *n of
 * them, valid until the next run. */
struct ll_part *const *cpl_ll_fill_computed(const struct ll_fill *fs, long *n);
void cpl_ll_fill_stats(const struct ll_fill *fs, struct cpl_ll_fill_stats *s);

#endif

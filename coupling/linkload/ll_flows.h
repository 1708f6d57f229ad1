/* A job's flows one by one (ll_flows.c) and the fragment of them that a
 * computation computes apart (ll_frag.c): what both see of the flows.
 * Internal to the linkload model. */
#ifndef CPL_LL_FLOWS_H
#define CPL_LL_FLOWS_H

#include "ll_part.h"

struct flows {
	struct ll_part base;
	const struct plat_machine *m;
	const int *nodes;
	long nflows, ncross;
	int *src, *dst; /* ranks */
	double *bytes, *lat, *rate;
	long *first; /* flow k's links: path[first[k] .. first[k + 1]) */
	int *path;
	long *lstart; /* local link x's flows: lflows[lstart[x] .. lstart[x + 1]) */
	int *lflows;
	long *drop; /* per local link: users lost this round */
	int *pending, npending;
	/* flows computed apart (ll_frag.c) */
	unsigned char *state; /* per flow (NULL: all 0): MARKED or AWAY */
	int *marked;          /* the marked flows */
	long nmarked, capmarked;
	int *rev; /* per local link: its index in the fragment, or -1 (NULL: none) */
};

enum { MARKED = 1, AWAY = 2 /* in the fragment */ };

/* Whether flow k of f is in its fragment. */
static inline int ll_flows_away(const struct flows *f, long k)
{
	return f->state && f->state[k] == AWAY;
}

/* A settle (ll_part_ops): the links with drops pending (drop[] per link,
 * pending[] those with drop[] > 0) into x[], by[]; their drops cleared. */
int cpl_ll_flows_pending(long *drop, const int *pending, int *npending, int *x, long *by);

/* ll_part_ops' mark, split and rejoin of the flows one by one. */
void cpl_ll_flows_mark(struct ll_part *p, int x, double level, int past);
struct ll_part *cpl_ll_flows_split(struct ll_part *p, struct ll_part *f, int *n0,
                                   const struct ll_moved **moved, long *nmoved);
void cpl_ll_flows_rejoin(struct ll_part *p, const struct ll_part *f);

#endif

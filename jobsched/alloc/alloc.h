/* The allocator interface: the machine as the schedulers see it. Schedulers
 * never compare node counts; they ask an allocator whether a job can be
 * placed and which nodes it gets, on the real state or on scratch copies
 * (what-if states for reservations), so topology-aware allocators plug in
 * unchanged. */
#ifndef JS_ALLOC_H
#define JS_ALLOC_H

#include <stdint.h>
#include <string.h>

#include "../../common/params.h"
#include "../../platforms/platform.h"
#include "../workload/workload.h"
#include "nodeset.h"

struct js_alloc_ops {
	struct cmn_plugin base;
	/* State for machine m with every node free. */
	int (*create)(const struct plat_machine *m, const struct cmn_params *p, void **self,
	              struct cmn_err *e);
	void (*destroy)(void *self);
	/* A new state equal to self (NULL when out of memory). */
	void *(*clone)(const void *self);
	/* dst takes src's state (both of the same machine and allocator). */
	void (*copy)(void *dst, const void *src);
	/* Chooses the nodes job would get now, without changing the state.
	 * Writes them to nodes (room for every node of the machine) and returns
	 * their count (the job's size, or the allocator's documented rounding of
	 * it), or 0 when the job cannot be placed in this state. flags say what
	 * the placement is for (JS_PLACE_*); most allocators ignore them. */
	int (*place)(void *self, const struct js_job *job, int flags, int *nodes);
	/* Optional: whether place() would succeed, without choosing nodes
	 * (NULL: place() into a scratch buffer decides). */
	int (*fits)(void *self, const struct js_job *job, int flags);
	/* Marks nodes busy (they must be free) / free (they must be busy). */
	void (*occupy)(void *self, const int *nodes, int n);
	void (*release)(void *self, const int *nodes, int n);
	/* Optional, both or neither: the same for a node set given as runs of
	 * consecutive ids (nodeset.h), at a cost that follows the runs. The
	 * core then keeps an increasing node set as runs. */
	void (*occupy_runs)(void *self, const struct plat_run *runs, int nruns);
	void (*release_runs)(void *self, const struct plat_run *runs, int nruns);
	/* Optional (with the two above): place() giving the nodes as runs in
	 * increasing order (room for the job's size), their count in *nruns. */
	int (*place_runs)(void *self, const struct js_job *job, int flags, struct plat_run *runs,
	                  int *nruns);
	/* Optional: defragmentation (seed 003's migration). Given the running
	 * jobs' node sets (nodes[i], n[i] of them) proposes new ones in out[i]
	 * (room for n[i] each) without changing the state. Returns -1 when the
	 * allocator declines to try (its thresholds), 0 when trying gave no
	 * improvement, 1 when out holds a better arrangement. */
	int (*migrate)(void *self, int count, const int *const *nodes, const int *n, int **out);
	/* Optional (resizable jobs): growth of a running job on nodes[0..n-1]
	 * by `extra` of the free nodes (free_nodes[0..nfree-1], in node
	 * order): writes them to out and returns 0, or -1 when it will not
	 * grow the job so. NULL: the free nodes nearest the job's
	 * (js_alloc_grow). */
	int (*grow)(void *self, const int *nodes, int n, const int *free_nodes, int nfree,
	            int extra, int *out);
	/* Optional: a running job contracts by `drop` nodes: reorders
	 * nodes[0..n-1] so that the ones it releases come last; 0, or -1 out of
	 * memory. NULL: the farthest from the rest, one at a time
	 * (js_alloc_shrink). */
	int (*shrink)(void *self, int *nodes, int n, int drop);
	/* Number of free nodes: no job needs fewer than one free node, so 0
	 * lets a scheduler stop scanning its queue. */
	int (*free_count)(const void *self);
	/* 1 when place() succeeds whenever the job's size in nodes is free
	 * (which nodes it picks may still matter): schedulers may then answer
	 * what-if questions and hold reservations by counts. */
	int fungible;
	/* 1 when the state is a function of which nodes are busy alone (not of
	 * the order of the occupy and release calls that made it, and place()
	 * leaves it as it is): a scheduler may then take a scratch state from
	 * one busy set to another by their difference. */
	int canonical;
};

/* Placement flags: a backfill placement (a job jumping the queue head) may
 * be treated more strictly by allocators that enlarge jobs (seed 003's I). */
enum { JS_PLACE_BACKFILL = 1 };

extern const struct js_alloc_ops *const js_alloc_registry[];

/* An allocator instance: ops plus state plus the effective specification. */
struct js_alloc {
	const struct js_alloc_ops *ops;
	void *self;
	struct cmn_params params;
	int nodes;                          /* machine size */
	const struct plat_machine *machine; /* borrowed: outlives the allocator */
	char spec[256];
	/* placement decisions (place calls, what-if ones on clones included)
	 * and, when timed, their wall time; clones count into the original's,
	 * so they must not outlive it */
	struct js_alloc_stats {
		int timed;
		long decisions;
		double time_s, max_s;
	} own, *stats;
	int *fitbuf; /* room for every node, for fits() through place() */
};

int js_alloc_create(const char *spec, const struct plat_machine *m, struct js_alloc **out,
                    struct cmn_err *e);
/* Another instance with the same specification and state. */
struct js_alloc *js_alloc_clone(const struct js_alloc *a);
void js_alloc_destroy(struct js_alloc *a);

/* Counts the decision (and times it when a->timed). */
int js_alloc_place(struct js_alloc *a, const struct js_job *j, int *nodes);
int js_alloc_place_flags(struct js_alloc *a, const struct js_job *j, int flags, int *nodes);
/* The same as runs (the allocator has place_runs). */
int js_alloc_place_runs(struct js_alloc *a, const struct js_job *j, int flags,
                        struct plat_run *runs, int *nruns);
/* Whether the job can be placed in this state (a decision too). */
int js_alloc_fits(struct js_alloc *a, const struct js_job *j);
int js_alloc_fits_flags(struct js_alloc *a, const struct js_job *j, int flags);
/* Resizing a running job (alloc_resize.c): the allocator's grow / shrink,
 * or the defaults. Growth: the free nodes nearest the job's (least
 * distance to any of its nodes, then node number); 0, -1 when fewer than
 * extra are free or the allocator refuses, -2 out of memory. Contraction:
 * one at a time the node with the largest sum of distances to the job's
 * other nodes (ties: the higher number), which keeps the rest compact; 0 or
 * -2. Neither changes the allocator's state (the caller occupies and
 * releases). */
int js_alloc_grow(struct js_alloc *a, const int *nodes, int n, const int *free_nodes, int nfree,
                  int extra, int *out);
/* The same growth given the machine's busy map (busy[v] != 0: node v is
 * not free) instead of the free list: on flat machines, trees, meshes,
 * tori and multi-clusters of flat clusters it reads the map only as far as
 * the nodes it takes (nearest first), elsewhere it lists the free nodes. */
int js_alloc_grow_map(struct js_alloc *a, const int *nodes, int n, const uint8_t *busy, int extra,
                      int *out);
int js_alloc_shrink(struct js_alloc *a, int *nodes, int n, int drop);
/* Whether every two distinct nodes of m are at one distance (flat
 * machines): growth and contraction then go by node number alone. */
static inline int js_alloc_all_alike(const struct plat_machine *m)
{
	return !strcmp(m->ops->base.name, "flat");
}

static inline void js_alloc_occupy(struct js_alloc *a, const int *nodes, int n)
{
	a->ops->occupy(a->self, nodes, n);
}
static inline void js_alloc_release(struct js_alloc *a, const int *nodes, int n)
{
	a->ops->release(a->self, nodes, n);
}
static inline void js_alloc_copy(struct js_alloc *dst, const struct js_alloc *src)
{
	dst->ops->copy(dst->self, src->self);
}
static inline int js_alloc_free_count(const struct js_alloc *a)
{
	return a->ops->free_count(a->self);
}

#endif

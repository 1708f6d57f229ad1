/* The flit network's state (flit_net.h), shared by its two halves:
 * flit_net.c (building, injecting, the cycle loop, checks) and
 * flit_router.c (what happens inside a router in a cycle: requests,
 * routing, switch allocation, sending). Not a public interface. */
#ifndef NET_FLIT_INTERNAL_H
#define NET_FLIT_INTERNAL_H

#include <stdlib.h>
#include <string.h>

#include "flit_net.h"

/* The network's arrays start on a cache line and end on one: two arrays
 * never share a line, nor does the end of one the other's start, so that
 * under threads=2 (the vertices in two parts of contiguous ids) what one
 * thread writes moves no line the other reads (a per-vertex array's half
 * split mid-line went back and forth at every router visit). NULL out of
 * memory, or when count * size overflows. */
static inline void *flit_lines_malloc(size_t count, size_t size)
{
	size_t bytes;
	if (__builtin_mul_overflow(count, size, &bytes) || bytes > SIZE_MAX - 64)
		return NULL;
	return aligned_alloc(64, bytes ? (bytes + 63) / 64 * 64 : 64);
}

static inline void *flit_lines_calloc(size_t count, size_t size)
{
	void *p = flit_lines_malloc(count, size);
	if (p)
		memset(p, 0, count * size);
	return p;
}

/* An array of n elements of size bytes moved to a new one of cap on lines
 * of their own (the old freed), or NULL (the old kept). */
static inline void *flit_lines_grow(void *old, size_t n, size_t cap, size_t size)
{
	void *p = flit_lines_malloc(cap, size);
	if (!p)
		return NULL;
	if (n)
		memcpy(p, old, n * size);
	free(old);
	return p;
}

struct flit {
	int64_t ready; /* cycle from which it may leave the router it is in */
	int pkt;       /* index in the packet pool */
	short hop;     /* index in the route of the link it came over (-1: injected) */
	unsigned char head, tail;
};

struct packet {
	long id;
	int src, dst, len, nhops, next; /* next: in its node's injection queue */
	int grid_dim;                   /* vc_pick=dimension: the grid dimension of its last link */
	int dim, crossed;               /* datelines: the dimension of its last router link, and
	                                   whether it crossed that ring's wraparound link */
	int64_t created;
	int decided;  /* its route's links [0 .. decided) fixed (adaptive routing: as the head goes)
	               */
	int next_out; /* its head's next link when fixed (its route's next entry, set as the head
	                 leaves a router: read from the packet, which the head's request loads
	                 anyway, rather than through the route, whose load would then be on the
	                 request's critical path: 18 % slower on a 16x16 torus); else anything.
	                 With threads=2 each thread writes only its own copy (flit_par.c) */
	int *route;   /* its route in the routes cache (never written), or NULL: its own slots */
};
_Static_assert(sizeof(struct packet) == 64, "a packet a cache line (the pool is aligned)");

/* A virtual channel's buffer (a ring) and its packet's downstream VC. */
struct vc {
	struct flit *buf;
	int cap, first, count;
	int out_vc;          /* -1: its front packet has none yet */
	int pick;            /* the link request() chose for its head (adaptive routing,
	                        VC allocation) */
	int want;            /* the downstream VC request() found for its head */
	int64_t front_ready; /* the ready cycle of its front flit (when count > 0) */
	int vertex, local;   /* its vertex (the far end of its port), its local index there */
	int wheel_next;      /* the next VC in its timing-wheel slot's list */
	int port, port_vc;   /* its input port (a link, or nl + node) and its VC there */
	int arriving;        /* threads=2, a link from the other part: the packet (this part's
	                        copy) whose flits come in on it now */
};
_Static_assert(sizeof(struct vc) == 64, "a VC a cache line");

struct wire {
	struct flit f;
	int vc; /* -1: empty */
};

/* The links as channels (BookSim's FlitChannel): each link carries flits
 * over `cycles` cycles on its wire, a ring of slots. */
struct flit_channels {
	int *cycles;           /* cycles on each link: L, or C for a node's link */
	int *hold_for;         /* per link l, the cycles a flit arriving over it stays at its far
	                          end before it may leave: [2 l] a body or tail flit, [2 l + 1] a
	                          head (ready_hold in flit_net.c) */
	int *gap;              /* per link: cycles between flits */
	int *vc_buf_flits;     /* per link: a VC buffer's flits at its far end */
	struct wire *wire;     /* link l's delay + 1 slots from wire_first[l] */
	size_t *wire_first;    /* nl + 1 offsets */
	int64_t *wire_mask;    /* per link: its ring's size - 1 (a power of two - 1) */
	int *with_flits;       /* the links with a flit on their wire, */
	int nwith_flits;       /* and their count */
	uint64_t *vcs_taken;   /* per link: its VCs taken by a packet (bit v: VC v) */
	int64_t *last_sent;    /* per link: the cycle it last sent (a flit put then is on
	                          its wire for cycles[l] cycles: with_flits lists it
	                          until then, the far end writing nothing for it) */
	long *flits_carried;   /* per link, optional: flits it carried */
	signed char *ring_dim; /* datelines: a router link's ring dimension (-1: none) */
	signed char *wraps;    /* and whether it is its ring's wraparound link */
	/* bubble_at=local: per ring link out of a router, the ring link into it
	 * the same way (-1: none); NULL otherwise */
	int *ring_prev;
	signed char *grid_dim; /* vc_pick=dimension: each link's grid dimension (-1: none) */
};

/* The credits flowing back over the links (BookSim's CreditChannel). */
struct flit_credit_channels {
	int *count;        /* per link VC: free flit slots downstream, as the upstream side
	                      sees them */
	uint64_t *wire;    /* credits on the wire: masks of VCs, slots as the flit wire's */
	int64_t *last;     /* per link: the cycle a credit was last put on its wire
	                      (with_credits lists it while one may be on it; threads=2:
	                      each thread's own array, for the links into its part) */
	int *with_credits; /* the links with credits on their wire, */
	int nwith_credits; /* and their count */
};

/* The routers (vertices): their input ports and VCs, output links, the
 * VCs whose front flit may leave, round-robin pointers, and what adaptive
 * routing and tori need of them. */
struct flit_routers {
	int *port_first, *port; /* input ports of each vertex: port[port_first[x] ..) */
	int *out_first;         /* out links of each vertex: out_link[out_first[x] ..) */
	int *out_link;
	int *out_index;     /* a link's index among its source's out links */
	int *output_holder; /* per output: the local input VC that holds it, or -1 */
	/* input VCs whose front flit may leave now: per vertex a mask of its
	 * local input VCs (mask_words words; local VC k = port index there * V +
	 * VC), and the vertices with any (visited in a cycle) */
	uint64_t *ready_mask, *ready;
	int mask_words;
	int *local_port;                    /* local input VC k: its port's local index (k / V) */
	int *local_vc;                      /* and its VC (k % V) */
	int *local_vc_index;                /* vertex x's local input VC k: its index in in[], at
	                                       port_first[x] V + k */
	int *rr_vertex, *rr_port, *rr_link; /* round-robin pointers: vertex, input port, link */
	int64_t *last_ejected;              /* per node: the cycle its ejection port last ejected */
	int ndims, *coords;                 /* plain tori: dimensions, each vertex's coordinates */
	unsigned short *dist; /* adaptive routing: hops from each vertex to each node */
	int *tie;             /* adaptive routing: per vertex, where ties start */
	int64_t *picked;      /* adaptive routing: the cycle a head last picked a link */
};

/* VCs whose front flit is ready later wait in the timing wheel's slot for
 * that cycle. */
struct flit_wheel {
	int *head;     /* per slot the first VC of its list, or -1 */
	int64_t slots; /* a power of two */
};

/* Switch allocation (BookSim's SwitchAllocator): pointers per output and
 * crossbar input, and one vertex's scratch: the VCs that request, in
 * order, the output each asks for, and how many; for the general
 * allocators each local input VC's request (-1 between calls); crossbar
 * inputs used (the stamp of the call that used them); outputs' grants. */
struct flit_switch_alloc {
	int *grant_ptr;  /* per output */
	int *accept_ptr; /* per crossbar input */
	int *req, *req_vcs, *req_outs, nreqs, *output_used, *grant;
	int64_t *input_used, stamp;
	int64_t *grant_call;    /* per output, the call that granted it */
	int *asked_outs;        /* outputs asked for in a call */
	uint64_t *islip_reqs;   /* islip on masks: per output its requesters */
	uint64_t *islip_grants; /* and per input its grants */
};

/* One head's request in VC allocation. */
struct va_ask {
	int k, l, w;      /* local input VC, its link, the VC it accepts */
	int g, s;         /* the input VC's index in in[], its accept pointer past l's first VC */
	int dim, crossed; /* tori: its packet's ring state once it takes a VC on l */
	uint64_t free;    /* the free VCs of its class on l (bit w: VC w) */
	uint64_t grant;   /* those that grant it */
};

/* VC allocation (BookSim's VCAllocator; vc_alloc=islip): grant pointers
 * per link VC (over the local input VCs of the link's source), accept
 * pointers per input VC (over the local output VCs of its vertex, output
 * j's VC w at j V + w); scratch: the heads that ask in a call. */
struct flit_vc_alloc {
	int *grant_ptr, *accept_ptr;
	struct va_ask *asks;
};

/* The packets: a pool with a free list, their routes, the routes cache,
 * the nodes' injection queues. */
struct flit_packets {
	struct packet *pool;
	int n, cap, free;    /* free list through next */
	int *routes;         /* packet k's route: nhops link ids from routes + k route_stride */
	size_t route_stride; /* a packet's route slots: max_route, at least 1 */
	int max_route;
	int *cache, *cache_len;       /* deterministic routes per node pair (src nodes + dst):
	                                 max_route link ids from cache + pair max_route, and their
	                                 length (-1: not yet computed); NULL past 16 MB */
	int *queue_head, *queue_tail; /* injection queues per node */
	uint64_t *queued_nodes;       /* nodes with queued packets (threads=2: each view's
	                                 own nodes, a set of its own) */
	long in_flight;
	uint64_t draws; /* random routing: draws so far (the hash's key) */
	/* threads=2 (NULL with one): a source's flits counted, so that
	 * source_room reads a few lines of counters instead of the threads'
	 * queues and buffers: per node the flits injected (the main thread's)
	 * and, in each thread's view, the flits of each node that left the VCs
	 * at the far end of its links there (mod 2^32: a difference of them is
	 * exact) */
	uint32_t *injected;
	uint32_t *left;
};

struct flit_par; /* flit_par.h: the two-thread cycle's state (NULL: one thread) */

/* What the router code branches on: the parameters that choose its paths
 * and what the built network has (rings, grid dimensions, slow links).
 * flit_router.c reads them from the network's own copy, or, compiled for
 * one mode (flit_kernel.def), from a constant the compiler folds into it. */
struct flit_mode { /* ints only: flit_kernel.c compares two whole */
	int vcs, mask_words, cut_through, vc_crossbar, alloc, hold_packet, adaptive, dateline,
	    bubble, vc_pipeline, va_islip;
	int rings; /* ch.ring_dim set (tori: datelines, bubbles, random routing's order) */
	int local; /* ch.ring_prev set (bubble_at=local) */
	int grid;  /* ch.grid_dim set (vc_pick=dimension) */
	int slow;  /* a link slower than a flit a cycle (ch.gap above 1) */
};

typedef void flit_router_fn(struct flit_net *n, int x,
                            void (*done)(void *, const struct flit_delivery *), void *ctx);
/* One cycle: the wires' flits and credits, the injections, the routers;
 * *oom set to 1 out of memory, 2 on a buffer overflow (a bug). */
typedef void flit_cycle_fn(struct flit_net *n, void (*done)(void *, const struct flit_delivery *),
                           void *ctx, int *oom);

/* Compiled for one mode (flit_kernel_NAME.c): its constant, from which the
 * helpers below read the VC count and the ready masks' words too. */
#ifdef FLIT_KERNEL_MODE
static const struct flit_mode flit_kernel_mode = FLIT_KERNEL_MODE;
#define FLIT_VCS(n)        ((void)(n), flit_kernel_mode.vcs)
#define FLIT_MASK_WORDS(n) ((void)(n), flit_kernel_mode.mask_words)
#else
#define FLIT_VCS(n)        ((n)->p.vcs)
#define FLIT_MASK_WORDS(n) ((n)->rt.mask_words)
#endif

struct flit_net {
	const struct plat_machine *m;
	struct flit_params p;
	int nv, nl, nodes;
	int64_t now, last_move;
	int64_t stall_slack;       /* cycles a flit may rest by design (router, injection and
	                              ejection delays, a slow link's gap): the watchdog waits
	                              that much longer */
	long on_wires;             /* flits on links now: moving, whatever the buffers do */
	double state_bytes;        /* what the network's state takes (net_flit_state_bytes) */
	const char *overflow_hint; /* net_flit_net_set_overflow_hint's (NULL: synthetic's) */
	/* input ports: links 0..nl-1 (V VCs each), then nodes' injection ports */
	struct vc *in;      /* V per input port: the links', then the nodes' (their
	                       injection ports use VC 0) */
	struct flit *fslab; /* the link VCs' buffers, one after another */
	struct flit_channels ch;
	struct flit_credit_channels cr;
	struct flit_routers rt;
	struct flit_wheel wheel;
	struct flit_switch_alloc sw;
	struct flit_vc_alloc va;
	struct flit_packets pkts;
	struct flit_par *par;
	struct flit_mode mode;
	flit_router_fn *router_cycle; /* net_flit_router_cycle, or a kernel compiled for mode */
	flit_cycle_fn *cycle;         /* net_flit_cycle, or that kernel's */
};

/* The index in in[] of VC v of input port `port` (a link, or a node's
 * injection port: VC 0). */
static inline size_t vc_id(const struct flit_net *n, int port, int v)
{
	return (size_t)port * (size_t)FLIT_VCS(n) + (size_t)v;
}

static inline struct vc *vc_of(struct flit_net *n, int port, int v)
{
	return &n->in[vc_id(n, port, v)];
}

/* Marks VC g's front flit as able to leave now (on) or not. */
static inline void vc_mark(struct flit_net *n, size_t g, int on)
{
	int x = n->in[g].vertex, k = n->in[g].local;
	uint64_t *m = &n->rt.ready_mask[(size_t)x * (size_t)FLIT_MASK_WORDS(n)], bit = UINT64_C(1)
	                                                                               << (k & 63);
	if (on) {
		m[k >> 6] |= bit;
		n->rt.ready[x >> 6] |= UINT64_C(1) << (x & 63);
		return;
	}
	if (!(m[k >> 6] & bit))
		return;
	m[k >> 6] &= ~bit;
	if (FLIT_MASK_WORDS(n) == 1) { /* a vertex of at most 64 input VCs */
		if (!m[0])
			n->rt.ready[x >> 6] &= ~(UINT64_C(1) << (x & 63));
		return;
	}
	for (int i = 0; i < FLIT_MASK_WORDS(n); i++)
		if (m[i])
			return;
	n->rt.ready[x >> 6] &= ~(UINT64_C(1) << (x & 63));
}

/* VC g's front flit changed, or it emptied: marked if that flit may leave
 * now, else put in the wheel's slot for its ready cycle (or the farthest
 * slot, to be looked at again then). */
static inline void vc_front(struct flit_net *n, size_t g)
{
	const struct vc *c = &n->in[g];
	if (c->count && c->front_ready <= n->now) {
		vc_mark(n, g, 1);
		return;
	}
	vc_mark(n, g, 0);
	if (!c->count)
		return;
	int64_t t =
	    c->front_ready - n->now < n->wheel.slots ? c->front_ready : n->now + n->wheel.slots - 1;
	size_t s = (size_t)(t & (n->wheel.slots - 1));
	n->in[g].wheel_next = n->wheel.head[s];
	n->wheel.head[s] = (int)g;
}

/* Packet k's route: the cache's entry for its node pair (deterministic
 * routes: not copied, so injecting a packet touches no route), or its own
 * slots. */
static inline int *pk_route(const struct flit_net *n, int k)
{
	int *r = n->pkts.pool[k].route;
	return r ? r : n->pkts.routes + (size_t)k * n->pkts.route_stride;
}

/* Whether a flit put on link l's wire may still be on it after this
 * cycle's arrivals (then with_flits keeps it), and the same of credits. */
static inline int net_flit_wire_busy(const struct flit_net *n, int l)
{
	return n->ch.last_sent[l] + n->ch.cycles[l] > n->now;
}

static inline int net_flit_credits_busy(const struct flit_net *n, int l)
{
	return n->cr.last[l] + n->ch.cycles[l] > n->now;
}

/* Link l's wire slot at cycle t. */
static inline size_t flit_slot(const struct flit_net *n, int l, int64_t t)
{
	return n->ch.wire_first[l] + (size_t)(t & n->ch.wire_mask[l]);
}

static inline int vc_push(struct vc *c, struct flit f)
{
	if (c->count == c->cap)
		return -1;
	if (!c->count)
		c->front_ready = f.ready;
	int at = c->first + c->count++;
	c->buf[at >= c->cap ? at - c->cap : at] = f;
	return 0;
}

/* Flit f comes off link l into its VC v at the link's far end; -1 if that
 * buffer is full (more flits than credits: a bug). */
static inline int net_flit_arrive(struct flit_net *n, int l, int v, struct flit f)
{
	size_t g = vc_id(n, l, v);
	struct vc *c = &n->in[g];
	f.ready = n->now + n->ch.hold_for[2 * l + f.head];
	if (vc_push(c, f))
		return -1;
	if (c->count == 1) /* its front flit */
		vc_front(n, g);
	return 0;
}

/* The flit link l's wire delivers now, if any, into its VC at the far
 * end: 0, or -1 if that buffer is full (more flits than credits: a bug). */
static inline int net_flit_wire_in(struct flit_net *n, int l)
{
	struct wire *w = &n->ch.wire[flit_slot(n, l, n->now)];
	if (w->vc < 0)
		return 0;
	int rc = net_flit_arrive(n, l, w->vc, w->f);
	w->vc = -1;
	n->on_wires--;
	return rc;
}

/* Credits for link l's VCs (bit v: VC v) back at its near end. */
static inline void net_flit_credits_in(struct flit_net *n, int l, uint64_t mask)
{
	for (uint64_t b = mask; b; b &= b - 1)
		n->cr.count[(size_t)l * (size_t)FLIT_VCS(n) + (size_t)__builtin_ctzll(b)]++;
}

/* The credits link l's wire delivers now, back at its near end. */
static inline void net_flit_wire_credits_in(struct flit_net *n, int l)
{
	uint64_t *cw = &n->cr.wire[flit_slot(n, l, n->now)];
	if (*cw) {
		net_flit_credits_in(n, l, *cw);
		*cw = 0;
	}
}

/* flit_build.c: the allocators' scratch for a vertex of at most kin
 * input VCs and nout outputs (the network's own, and each thread's under
 * threads=2): requests cleared. 0, or -1 out of memory (free what was made
 * with net_flit_scratch_free either way). */
int net_flit_scratch_make(struct flit_switch_alloc *sw, struct va_ask **asks, size_t kin,
                          size_t nout);
void net_flit_scratch_free(struct flit_switch_alloc *sw, struct va_ask *asks);

/* flit_net.c: the packet pool and its route slots grown to cap packets,
 * each packet on a cache line of its own (with threads=2, each thread's
 * pool: flit_par.c). 0, or -1 out of memory (pkts.cap unchanged). */
int net_flit_pool_grow(struct flit_net *n, int cap);
/* flit_net.c: packet k (taken from the pool) made a new packet from src to
 * dst of flits flits, created now, at the tail of src's queue. */
void net_flit_enqueue(struct flit_net *n, int k, long id, int src, int dst, int flits,
                      int64_t created);

/* flit_cycle.c: loads the next queued packet of node x into its empty
 * injection port. 0 or -1 out of memory. */
int net_flit_load_injection(struct flit_net *n, int x);
/* The routers of a cycle: the VCs whose front flit becomes ready now, then
 * the vertices with such VCs in id order (a word read again after each
 * vertex, as a zero-delay link may give flits to a later one); *at, when
 * given, holds the vertex whose router runs. */
void net_flit_routers(struct flit_net *n, void (*done)(void *, const struct flit_delivery *),
                      void *ctx, int *at);

/* flit_cycle.c: a cycle in any mode. */
flit_cycle_fn net_flit_cycle;

/* flit_router.c */
/* Vertex x in one cycle: every input VC's request, switch allocation, and
 * the sending of what wins (any mode). */
flit_router_fn net_flit_router_cycle;

/* flit_kernel.c: n->mode from its parameters and built state, and the
 * router code for it (a kernel compiled for that mode when one is, unless
 * p.generic_router). */
void net_flit_kernel_pick(struct flit_net *n);

#endif

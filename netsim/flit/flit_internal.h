/* The flit network's state (flit_net.h), shared by its two halves:
 * flit_net.c (building, injecting, the cycle loop, checks) and
 * flit_router.c (what happens inside a router in a cycle: requests,
 * routing, switch allocation, sending). Not a public interface. */
#ifndef NET_FLIT_INTERNAL_H
#define NET_FLIT_INTERNAL_H

#include "flit_net.h"

struct flit {
	int64_t ready; /* cycle from which it may leave the router it is in */
	int pkt;       /* index in the packet pool */
	short hop;     /* index in the route of the link it came over (-1: injected) */
	unsigned char head, tail;
};

struct packet {
	long id;
	int src, dst, len, nhops, next; /* next: in its node's injection queue */
	int gdim;                       /* vc_pick=dimension: the grid dimension of its last link */
	int dim, crossed;               /* datelines: the dimension of its last router link, and
	                                   whether it crossed that ring's wraparound link */
	int64_t created;
	int decided; /* its route's links [0 .. decided) fixed (adaptive routing: as the head goes)
	              */
};

/* A virtual channel's buffer (a ring) and its packet's downstream VC. */
struct vc {
	struct flit *f;
	int cap, first, n;
	int out_vc;          /* -1: its front packet has none yet */
	int pick;            /* the link request() chose for its head (adaptive routing,
	                        VC allocation) */
	int want;            /* the downstream VC request() found for its head */
	int64_t front_ready; /* the ready cycle of its front flit (when n > 0) */
	int x, k;            /* its vertex (the far end of its port), its local index there */
	int evnext;          /* the next VC in its timing-wheel slot's list */
	int port, v;         /* its input port (a link, or nl + node) and its VC there */
};

struct wire {
	struct flit f;
	int vc; /* -1: empty */
};

struct flit_net {
	const struct plat_machine *m;
	struct flit_params p;
	int nv, nl, nodes, maxr;
	size_t rstride;   /* a packet's route slots in routes: maxr, at least 1 */
	int *link_cycles; /* cycles on each link: L, or C for a node's link */
	int *hold_for;    /* per link l, the cycles a flit arriving over it stays at its far
	                     end before it may leave: [2 l] a body or tail flit, [2 l + 1] a
	                     head (ready_hold in flit_net.c) */
	int64_t now, last_move;
	long on_wires; /* flits on links now: moving, whatever the buffers do */
	/* input ports: links 0..nl-1 (V VCs each), then nodes' injection ports */
	struct vc *in;                /* V per input port: the links', then the nodes' (their
	                                 injection ports use VC 0) */
	struct flit *fslab;           /* the link VCs' buffers, one after another */
	int *credits;                 /* per link VC: the upstream side's view */
	uint64_t *busy;               /* per link: its VCs taken by a packet (bit v: VC v) */
	struct wire *wire;            /* link l's delay + 1 slots from wire_first[l] */
	uint64_t *credit_wire;        /* credits on the wire: masks of VCs, as wire */
	size_t *wire_first;           /* nl + 1 offsets */
	int64_t *wire_mask;           /* per link: its ring's size - 1 (a power of two - 1) */
	int *gap, *vc_buf_flits;      /* per link: cycles between flits, VC buffer flits */
	int *port_first, *port;       /* input ports of each vertex: port[port_first[x] ..) */
	int *out_first, *outl, *lout; /* out links of each vertex, a link's index there */
	int *sa_grant_ptr;            /* switch allocation's grant pointer per output */
	int *sa_accept_ptr;           /* and its accept pointer per crossbar input */
	int *hold;                    /* per output: the local input VC that holds it, or -1 */
	/* input VCs whose front flit may leave now: per vertex a mask of its
	 * local input VCs (mask_words words; local VC k = port index there * V + VC),
	 * and the vertices with any (visited in a cycle); a VC whose front flit
	 * is ready later waits in the timing wheel's slot for that cycle */
	uint64_t *ready_mask, *ready_vertices;
	int mask_words;
	int *wheel_head;        /* the wheel: per slot the first VC of its list, or -1 */
	int64_t wheel_slots;    /* the wheel's slots (a power of two) */
	uint64_t *queued_nodes; /* nodes with queued packets */
	int *wire_flit_slots, *flit_links, nflit_links;       /* per link: wire slots with a flit;
	                                                         the links with any, their count */
	int *wire_credit_slots, *credit_links, ncredit_links; /* the same for credits */
	unsigned short *dist; /* adaptive routing: hops from each vertex to each node */
	int *tie;             /* adaptive routing: per vertex, where ties start */
	int64_t *picked;      /* adaptive routing: the cycle a head last picked a link */
	uint64_t draws;       /* random routing: draws so far (the hash's key) */
	/* one vertex's allocation (scratch): the VCs that request, in order, the
	 * output each asks for, and how many; for the general allocators each
	 * local input VC's request (-1 between calls); crossbar inputs used (the
	 * stamp of the call that used them); outputs' grants */
	int *req, *req_vcs, *req_outs, nreqs, *output_used, *grant;
	int *local_port; /* local input VC k: its port's local index (k / V) */
	int *local_vc;   /* and its VC (k % V) */
	/* vertex x's local input VC k: its index in in[], at port_first[x] V + k */
	int *local_vc_index;
	int64_t *input_used, stamp; /* crossbar inputs: the stamp of the call that used them */
	int64_t *grant_call;        /* per output, the call that granted it */
	int *asked_outs;            /* outputs asked for in a call */
	uint64_t *islip_reqs;       /* islip on masks: per output its requesters */
	uint64_t *islip_grants;     /* and per input its grants */
	/* VC allocation (vc_alloc=islip): grant pointers per link VC (over the
	 * local input VCs of the link's source), accept pointers per input VC
	 * (over the local output VCs of its vertex, output j's VC w at j V + w);
	 * scratch: the heads that ask in a call */
	int *va_grant_ptr, *va_accept_ptr;
	struct va_ask {
		int k, l, w; /* local input VC, its link, the VC it accepts */
		int g, s; /* the input VC's index in in[], its accept pointer past l's first VC */
		int dim, crossed; /* tori: its packet's ring state once it takes a VC on l */
		uint64_t free;    /* the free VCs of its class on l (bit w: VC w) */
		uint64_t grant;   /* those that grant it */
	} * va;
	int *rr_vertex, *rr_port, *rr_link; /* round-robin pointers: vertex, input port, link */
	int64_t *out_used, *eject_used; /* the cycle a link last sent, an ejection port ejected */
	long *link_flits;
	signed char *link_ring_dim; /* datelines: a router link's dimension (-1: none) */
	signed char *link_wraps;    /* and whether it is its ring's wraparound link */
	/* bubble_at=local: per ring link out of a router, the ring link into it
	 * the same way (-1: none); NULL otherwise */
	int *ring_prev_link;
	int nd, *vertex_coords;     /* plain tori: dimensions, each vertex's coordinates */
	signed char *link_grid_dim; /* vc_pick=dimension: each link's grid dimension (-1: none) */
	struct packet *pk;
	int *routes;            /* packet k's route: nhops link ids from routes + k maxr */
	int *rcache, *rlen;     /* deterministic routes per node pair (src nodes + dst): maxr
	                           link ids from rcache + pair maxr, and their length (-1: not
	                           yet computed); NULL past 16 MB */
	int npk, cappk, freepk; /* free list through next */
	int *qhead, *qtail;     /* injection queues per node */
	long in_flight;
};

/* The index in in[] of VC v of input port `port` (a link, or a node's
 * injection port: VC 0). */
static inline size_t vc_id(const struct flit_net *n, int port, int v)
{
	return (size_t)port * (size_t)n->p.vcs + (size_t)v;
}

static inline struct vc *vc_of(struct flit_net *n, int port, int v)
{
	return &n->in[vc_id(n, port, v)];
}

/* Marks VC g's front flit as able to leave now (on) or not. */
static inline void vc_mark(struct flit_net *n, size_t g, int on)
{
	int x = n->in[g].x, k = n->in[g].k;
	uint64_t *m = &n->ready_mask[(size_t)x * (size_t)n->mask_words], bit = UINT64_C(1)
	                                                                       << (k & 63);
	if (on) {
		m[k >> 6] |= bit;
		n->ready_vertices[x >> 6] |= UINT64_C(1) << (x & 63);
		return;
	}
	if (!(m[k >> 6] & bit))
		return;
	m[k >> 6] &= ~bit;
	for (int i = 0; i < n->mask_words; i++)
		if (m[i])
			return;
	n->ready_vertices[x >> 6] &= ~(UINT64_C(1) << (x & 63));
}

/* VC g's front flit changed, or it emptied: marked if that flit may leave
 * now, else put in the wheel's slot for its ready cycle (or the farthest
 * slot, to be looked at again then). */
static inline void vc_front(struct flit_net *n, size_t g)
{
	const struct vc *c = &n->in[g];
	if (c->n && c->front_ready <= n->now) {
		vc_mark(n, g, 1);
		return;
	}
	vc_mark(n, g, 0);
	if (!c->n)
		return;
	int64_t t =
	    c->front_ready - n->now < n->wheel_slots ? c->front_ready : n->now + n->wheel_slots - 1;
	size_t s = (size_t)(t & (n->wheel_slots - 1));
	n->in[g].evnext = n->wheel_head[s];
	n->wheel_head[s] = (int)g;
}

/* Packet k's route. */
static inline int *pk_route(const struct flit_net *n, int k)
{
	return n->routes + (size_t)k * n->rstride;
}

/* Link l's wire slot at cycle t. */
static inline size_t flit_slot(const struct flit_net *n, int l, int64_t t)
{
	return n->wire_first[l] + (size_t)(t & n->wire_mask[l]);
}

static inline int vc_push(struct vc *c, struct flit f)
{
	if (c->n == c->cap)
		return -1;
	if (!c->n)
		c->front_ready = f.ready;
	int at = c->first + c->n++;
	c->f[at >= c->cap ? at - c->cap : at] = f;
	return 0;
}

/* flit_router.c */
/* Flit f comes off link l into its VC v at the link's far end; -1 if that
 * buffer is full (more flits than credits: a bug). */
int net_flit_arrive(struct flit_net *n, int l, int v, struct flit f);
/* Vertex x in one cycle: every input VC's request, switch allocation, and
 * the sending of what wins. */
void net_flit_router_cycle(struct flit_net *n, int x,
                           void (*done)(void *, const struct flit_delivery *), void *ctx);

#endif

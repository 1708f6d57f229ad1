/* The flit-level network (issue 8, first slice): a cycle-driven network of
 * input-buffered virtual-channel routers built from a machine's graph.
 * Every vertex is a router; its input ports are the links that enter it
 * (each with V virtual channels of B flits) plus, at a compute node, an
 * injection port; its outputs are the links that leave it plus, at a node,
 * an ejection port (one flit per cycle). Packets of P flits follow the
 * machine's deterministic route (plat_route: dimension order on meshes and
 * tori, d-mod-k on trees), with credit-based flow control and wormhole or
 * virtual cut-through switching (a head flit takes a downstream VC only
 * when it is free, and under cut-through only when it has room for the
 * whole packet).
 *
 * One cycle, in this order: flits and credits whose link delay ends arrive;
 * each node with queued packets fills its empty injection port with the
 * next packet; each router, input ports from a round-robin pointer, sends
 * at most one flit per input port and one per output port: the first
 * virtual channel (round-robin per port) whose front flit has waited the
 * router delay, whose packet holds (or now gets) a downstream VC, and
 * which has a credit. A sent flit arrives L cycles later; its credit goes
 * back upstream in L cycles. A head that has not moved for `watchdog`
 * cycles while nothing moves anywhere stops the run with an error naming
 * what each blocked channel holds and waits for.
 *
 * On tori (plat_grid_shape with wraparound, rings of more than 2 routers)
 * dimension-order routing is made deadlock-free by datelines (Dally and
 * Seitz): a packet's VCs in a dimension come from the lower half of the
 * port's VCs until it crosses that ring's wraparound link, from the upper
 * half after it (again the lower half in the next dimension), so a torus
 * needs at least 2 VCs. Or bubble flow control (Puente et al., INSEE's
 * default; cut-through only): a head may enter a ring (from its node or
 * from another dimension) only into a VC with room for two packets (or,
 * bubble_local as FSIN checks, only when its own router's input VC of that
 * ring direction has room for two and the VC it enters room for one), so
 * a ring always keeps a free packet buffer, and every VC serves every
 * packet. With neither every VC serves every packet and a loaded torus can
 * deadlock (the watchdog then says so).
 *
 * Timing: a switch holds a flit R cycles (router_delay) before it may
 * leave (pipeline=packet, BookSim's router: a head queued behind another
 * packet R - 1 cycles after that packet's tail left, body and tail flits
 * min(2, R) after arrival); nodes are endpoints and hold none. A switch-to-switch link takes
 * L cycles, a node's link to or from its switch C (node_link_delay; with
 * C = 0 the node sits at its switch: its flits enter the switch's buffer
 * and the switch ejects into the node in the same cycle). A packet may
 * leave its node I cycles (inject_delay) after its creation and counts as
 * delivered J cycles (eject_delay) after its tail's ejection. Zero-load
 * latency of a packet through S switches (S - 1 switch links and 2 node
 * links), from creation to delivery: I + S R + (S - 1) L + 2 C + P - 1 + J.
 * Presets (flit_preset.h) set these to other simulators' timing. */
#ifndef NET_FLIT_NET_H
#define NET_FLIT_NET_H

#include <stdint.h>

#include "../../common/err.h"
#include "../../common/params.h"
#include "../../platforms/platform.h"

struct flit_params {
	int vcs;             /* virtual channels per input port (V) */
	int buf;             /* flits per virtual channel (B) */
	int router_delay;    /* cycles a flit waits in a switch before it can leave (R >= 0) */
	int link_delay;      /* cycles on a switch-to-switch link (L >= 1) */
	int node_link_delay; /* cycles on a node's link to or from its switch (C >= 0) */
	int inject_delay;    /* cycles from a packet's creation until it may leave its node (I) */
	int eject_delay;     /* cycles from a tail's ejection to the packet's delivery (J) */
	int cut_through;     /* 1: virtual cut-through, 0: wormhole */
	int vc_crossbar;     /* 1: a crossbar input per VC, 0: per input port */
	enum flit_alloc { FLIT_ALLOC_RR, FLIT_ALLOC_OUTPUT, FLIT_ALLOC_ISLIP } alloc;
	int hold_packet;    /* output and islip allocation: an output kept for a packet */
	int adaptive;       /* k-ary n-trees, at each up hop: 1 the least occupied up link,
	                       2 one drawn at random (fixed once the head asks), 3 FSIN's
	                       choice of link and VC (the least occupied downstream queue) */
	int platform_links; /* each link's latency and bandwidth from the machine */
	int dateline;       /* tori: VCs in two classes, the upper one after the wrap link */
	int bubble;         /* tori: bubble flow control (cut-through; INSEE's default) */
	int bubble_local;   /* bubble: the two free packets in the entering router's own
	                       input VC of that ring direction and VC index (FSIN), with room
	                       for one in the VC entered; 0: both in the VC entered */
	int vc_pipeline;    /* 1: BookSim's per-VC pipeline: a head behind another packet
	                       leaves R - 1 cycles after that packet's tail, body and tail
	                       flits min(2, R) after arrival; 0: every flit R after arrival */
	int va_islip;       /* 1: BookSim's VC allocation: heads ask for every free VC of
	                       their output a cycle before switch allocation, one iSLIP
	                       iteration matches input and output VCs, a head holds its VC
	                       from then; 0: a head takes a free VC as it wins the switch */
	int vc_pick_dim;    /* 1: INSEE's oblivious VC choice: a packet keeps its VC within a
	                       dimension of a mesh or torus; entering one it asks for a VC
	                       drawn at random afresh at each request */
	int source_queue;   /* synthetic traffic: packets a node holds before the network (its
	                       queue, injection port, its switch's buffers of its link); 0:
	                       unbounded */
	long watchdog;      /* cycles without any flit moving, flits in flight: an error */
	long max_memory_mb; /* packets (queued at sources or in flight) and their routes may
	                       hold at most this many MB, 0: no limit; beyond, an error */
	int threads;        /* 1, or 2: a cycle's routers on two threads (flit_par.h), the
	                       same output bytes */
	/* trace replay only (flit_replay.h) */
	int flit_bytes, packet_flits, compute_zero;
	/* not a user parameter: 1 runs the routers on their code for any mode
	 * even when a kernel compiled for the network's mode exists (the tests
	 * compare the two: the same output bytes) */
	int generic_router;
};

/* Defaults: 4 VCs of 8 flits, R = 1, L = 1, C = 1, I = J = 0, wormhole,
 * datelines, watchdog 10000. */
void net_flit_params_default(struct flit_params *p);
/* The same as "key=value" parameters (vcs, buf, router_delay, link_delay,
 * node_link_delay, inject_delay, eject_delay, switching=wormhole|vct,
 * deadlock=dateline|bubble|none, watchdog), and their values into p. */
extern const struct cmn_param_def net_flit_param_defs[];
void net_flit_params_from(const struct cmn_params *cp, struct flit_params *p);

struct flit_net;

/* A delivered packet: what net_run's callback gets. */
struct flit_delivery {
	long id; /* as injected */
	int src, dst, flits;
	int64_t created; /* cycle it was injected */
	int64_t done;    /* cycle its tail was ejected */
};

/* The cycle: flit_bytes over the node links' bandwidth (0: no node link). */
double net_flit_cycle_s(const struct plat_machine *m, int flit_bytes);

int net_flit_net_create(const struct plat_machine *m, const struct flit_params *p,
                        struct flit_net **out, struct cmn_err *e);
void net_flit_net_destroy(struct flit_net *n);

/* Whether n takes packets of `flits` flits (at least one; under
 * cut-through at most a buffer; with bubbles on a torus at most half a
 * buffer): 0, or an error saying why. */
int net_flit_net_packet_ok(const struct flit_net *n, int flits, struct cmn_err *e);

/* Queues a packet of flits (>= 1) from node src to node dst != src at the
 * current cycle; id is the caller's. 0, or an error (bad node, cut-through
 * packet larger than a VC buffer, out of memory). */
int net_flit_net_inject(struct flit_net *n, int src, int dst, int flits, long id,
                        struct cmn_err *e);

/* Runs cycles until `until` (exclusive) or, with until < 0, until every
 * queued packet is delivered; done(ctx, d) for each delivered packet.
 * 0, or the watchdog's error. */
int net_flit_net_run(struct flit_net *n, int64_t until,
                     void (*done)(void *ctx, const struct flit_delivery *d), void *ctx,
                     struct cmn_err *e);

int64_t net_flit_net_now(const struct flit_net *n);
/* Whether node x has room for one more packet of `flits` flits under
 * source_queue (always, with 0): the flits it holds before the network (its
 * queued packets, its injection port, and on and at the far end of its
 * links, i.e. its switch's buffers of them) plus these at most
 * source_queue packets of that size. */
int net_flit_net_source_room(const struct flit_net *n, int x, int flits);
long net_flit_net_in_flight(const struct flit_net *n); /* packets injected, not delivered */
/* What net_flit_net_inject's refusal past max_memory advises (a static
 * string: "(why): what to do"; NULL: synthetic traffic's, lower the load or
 * bound the sources). */
void net_flit_net_set_overflow_hint(struct flit_net *n, const char *hint);
/* Whether `more` bytes of a user's (a trace replay's pending messages)
 * fit under max_memory beside the network's state and its packets' room
 * (always with max_memory=0); *mb: what the network holds, MB. */
int net_flit_net_room(const struct flit_net *n, double more, double *mb, long *max_mb);
/* Flits that crossed each link so far (nlinks entries, read-only; with
 * threads=2 summed from the threads' counts at each call, O(links): call
 * it once, not once per link). */
const long *net_flit_net_link_flits(const struct flit_net *n);
/* Checks the invariants (credits within 0..B and equal to the free slots
 * downstream plus the flits and credits on the wire): 0, or an error. */
int net_flit_net_check(const struct flit_net *n, struct cmn_err *e);

#endif

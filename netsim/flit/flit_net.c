/* The flit-level network (flit_net.h). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/checked.h"
#include "flit_internal.h"
#include "flit_par.h"

void net_flit_params_default(struct flit_params *p)
{
	*p = (struct flit_params){.vcs = 4,
	                          .buf = 8,
	                          .router_delay = 1,
	                          .link_delay = 1,
	                          .node_link_delay = 1,
	                          .alloc = FLIT_ALLOC_RR,
	                          .dateline = 1,
	                          .watchdog = 10000,
	                          .max_memory_mb = 4096,
	                          .threads = 1,
	                          .flit_bytes = 64,
	                          .packet_flits = 8};
}

const struct cmn_param_def net_flit_param_defs[] = {
    {"vcs", CMN_PT_INT, "4", 1, 64, NULL, "virtual channels per input port"},
    {"buf", CMN_PT_INT, "8", 1, 1048576, NULL, "flits per virtual channel buffer"},
    {"router_delay", CMN_PT_INT, "1", 0, 1000, NULL,
     "cycles a flit spends in a switch before it can leave"},
    {"link_delay", CMN_PT_INT, "1", 1, 1000000, NULL, "cycles on a switch-to-switch link"},
    {"node_link_delay", CMN_PT_INT, "1", 0, 1000000, NULL,
     "cycles on a node's link to or from its switch (0: the node sits at the switch)"},
    {"inject_delay", CMN_PT_INT, "0", 0, 1000000, NULL,
     "cycles from a packet's creation until it may leave its node"},
    {"eject_delay", CMN_PT_INT, "0", 0, 1000000, NULL,
     "cycles from a tail's ejection until the packet counts as delivered"},
    {"switching", CMN_PT_CHOICE, "wormhole", 0, 0, "wormhole|vct",
     "wormhole, or virtual cut-through (a head moves only with room for its whole packet)"},
    {"crossbar", CMN_PT_CHOICE, "port", 0, 0, "port|vc",
     "a crossbar input per input port (one flit per port and cycle) or per VC"},
    {"alloc", CMN_PT_CHOICE, "rr", 0, 0, "rr|output|islip",
     "switch allocation: rr (inputs in turn, each its first VC that can go), output "
     "(each output grants the next requesting input), islip (one iSLIP iteration)"},
    {"hold", CMN_PT_CHOICE, "flit", 0, 0, "flit|packet",
     "output and islip allocation: an output serves a flit at a time, or keeps serving "
     "one packet until its tail"},
    {"links", CMN_PT_CHOICE, "cycles", 0, 0, "cycles|platform",
     "cycles: link_delay and node_link_delay, a flit per cycle; platform: each link's "
     "latency in cycles and bandwidth (slower links take a flit every few cycles; "
     "deeper buffers keep their rate): wide-area links as long pipelines"},
    {"routing", CMN_PT_CHOICE, "deterministic", 0, 0, "deterministic|adaptive|random|fsin",
     "deterministic: the machine's routes (dimension order, d-mod-k on trees); random: "
     "k-ary n-trees, an up link drawn at random at each up hop (BookSim's nca_fattree), "
     "down deterministic; adaptive: "
     "k-ary n-trees, the least occupied up link (Petrini and Vanneschi), down "
     "deterministic; fsin: k-ary n-trees, INSEE's (FSIN's check_rr_fattree_adaptive): at "
     "every hop, of the VCs of the links one hop closer (every up link, or the one down), "
     "the one whose downstream queue holds the fewest flits, ties drawn at each request"},
    {"deadlock", CMN_PT_CHOICE, "dateline", 0, 0, "dateline|partition|bubble|none",
     "tori: dateline virtual-channel classes (the upper half of the VCs once a packet has "
     "crossed its ring's wraparound link; needs vcs >= 2), partition (BookSim's "
     "dim_order_torus: the half is fixed as a packet turns into a dimension, the upper one "
     "if its coordinate there is above its destination's, i.e. going the + way across the "
     "wraparound link or the - way not across it; plain tori), "
     "bubble flow control (needs vct: entering a ring takes room for two packets; "
     "bubble_at), or none (may deadlock)"},
    {"bubble_at", CMN_PT_CHOICE, "next", 0, 0, "next|local",
     "deadlock=bubble: where a packet entering a ring (from its node or another "
     "dimension) needs room for two packets: next (the VC it enters, at the next router) "
     "or local (FSIN's check_restrictions: this router's own input VC of the same ring "
     "direction and VC index, which the ring's packets pass through here, while the VC "
     "it enters needs room for one)"},
    {"preset", CMN_PT_CHOICE, "none", 0, 0, "none|booksim|insee",
     "another simulator's router timing as defaults (flit_preset.c; explicit keys win)"},
    {"pipeline", CMN_PT_CHOICE, "flit", 0, 0, "flit|packet",
     "flit: every flit leaves a switch router_delay cycles after it arrives; packet "
     "(BookSim's input-queued router): routing and VC allocation per packet, so a head "
     "queued behind another packet in its VC leaves router_delay - 1 cycles after that "
     "packet's tail, and body and tail flits take only switch allocation and traversal, "
     "min(2, router_delay) cycles after arrival"},
    {"vc_alloc", CMN_PT_CHOICE, "switch", 0, 0, "switch|islip",
     "switch: a head takes the first free VC of its output (round-robin per output) as it "
     "wins switch allocation; islip (BookSim's VC allocator, switches only): a head asks "
     "for every free VC of its output one cycle before switch allocation, one iSLIP "
     "iteration over input and output VCs (round-robin pointers per output VC and per "
     "input VC) matches them, and it holds the VC from then until its tail leaves; needs "
     "router_delay >= 1"},
    {"vc_pick", CMN_PT_CHOICE, "first", 0, 0, "first|dimension",
     "first: a head takes the first free VC of its output, round-robin; dimension "
     "(INSEE's bubble_oblivious request): on meshes and tori a packet keeps its VC within "
     "a dimension and, entering one, asks for a VC drawn at random afresh at each request "
     "(other machines: first)"},
    {"source_queue", CMN_PT_INT, "0", 0, 1000000, NULL,
     "synthetic traffic: packets a node holds before the network (its queue, its "
     "injection port and its switch's buffers of its link); a packet generated while they "
     "are full waits, and with it the node's generator, and its latency counts from when "
     "it enters (INSEE's injection buffer); 0: unbounded, latency from generation"},
    {"watchdog", CMN_PT_INT, "10000", 1, 1e9, NULL,
     "cycles without any flit moving, flits in flight, before a deadlock error"},
    {"max_memory", CMN_PT_INT, "4096", 0, 1e9, NULL,
     "MB that packets queued at their sources or in flight, with their routes, may hold, "
     "and the VCs' buffers (0: no limit); beyond, an error instead of the kernel's "
     "out-of-memory kill (a load beyond saturation queues packets without bound)"},
    {"threads", CMN_PT_INT, "1", 1, 2, NULL,
     "1, or 2: each cycle's routers on two threads, the vertices in two halves (the same "
     "output bytes; not with random draws: vc_pick=dimension, routing=random|fsin)"},
    {"flit_bytes", CMN_PT_INT, "64", 1, 1048576, NULL,
     "trace replay: bytes per flit; a cycle is flit_bytes / the node links' bandwidth"},
    {"packet_flits", CMN_PT_INT, "8", 1, 1048576, NULL,
     "trace replay: flits per packet (a message's last packet may be shorter)"},
    {"compute", CMN_PT_CHOICE, "flops", 0, 0, "flops|zero",
     "trace replay: compute takes flops / node speed, or no time (INSEE's infinite CPUs)"},
    {NULL},
};

void net_flit_params_from(const struct cmn_params *cp, struct flit_params *p)
{
	p->vcs = (int)cmn_params_num(cp, "vcs");
	p->buf = (int)cmn_params_num(cp, "buf");
	p->router_delay = (int)cmn_params_num(cp, "router_delay");
	p->link_delay = (int)cmn_params_num(cp, "link_delay");
	p->node_link_delay = (int)cmn_params_num(cp, "node_link_delay");
	p->inject_delay = (int)cmn_params_num(cp, "inject_delay");
	p->eject_delay = (int)cmn_params_num(cp, "eject_delay");
	p->vc_crossbar = strcmp(cmn_params_str(cp, "crossbar"), "vc") == 0;
	p->vc_pipeline = strcmp(cmn_params_str(cp, "pipeline"), "packet") == 0;
	p->hold_packet = strcmp(cmn_params_str(cp, "hold"), "packet") == 0;
	const char *routing = cmn_params_str(cp, "routing");
	p->adaptive = strcmp(routing, "adaptive") == 0 ? 1
	              : strcmp(routing, "random") == 0 ? 2
	              : strcmp(routing, "fsin") == 0   ? 3
	                                               : 0;
	p->platform_links = strcmp(cmn_params_str(cp, "links"), "platform") == 0;
	const char *al = cmn_params_str(cp, "alloc");
	p->alloc = strcmp(al, "islip") == 0    ? FLIT_ALLOC_ISLIP
	           : strcmp(al, "output") == 0 ? FLIT_ALLOC_OUTPUT
	                                       : FLIT_ALLOC_RR;
	p->cut_through = strcmp(cmn_params_str(cp, "switching"), "vct") == 0;
	p->dateline = strcmp(cmn_params_str(cp, "deadlock"), "dateline") == 0    ? 1
	              : strcmp(cmn_params_str(cp, "deadlock"), "partition") == 0 ? 2
	                                                                         : 0;
	p->bubble = strcmp(cmn_params_str(cp, "deadlock"), "bubble") == 0;
	p->bubble_local = strcmp(cmn_params_str(cp, "bubble_at"), "local") == 0;
	p->va_islip = strcmp(cmn_params_str(cp, "vc_alloc"), "islip") == 0;
	p->vc_pick_dim = strcmp(cmn_params_str(cp, "vc_pick"), "dimension") == 0;
	p->source_queue = (int)cmn_params_num(cp, "source_queue");
	p->watchdog = (long)cmn_params_num(cp, "watchdog");
	p->max_memory_mb = (long)cmn_params_num(cp, "max_memory");
	p->threads = (int)cmn_params_num(cp, "threads");
	p->flit_bytes = (int)cmn_params_num(cp, "flit_bytes");
	p->packet_flits = (int)cmn_params_num(cp, "packet_flits");
	p->compute_zero = strcmp(cmn_params_str(cp, "compute"), "zero") == 0;
	p->generic_router = 0;
}

int net_flit_net_packet_ok(const struct flit_net *n, int flits, struct cmn_err *e)
{
	if (flits < 1)
		return cmn_err_set(e, CMN_EUSAGE, "%d-flit packets (at least 1)", flits);
	if (n->p.bubble && n->ch.ring_dim && 2 * flits > n->p.buf)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "%d-flit packets under bubble flow control need buffers of two "
		                   "packets (buf=%d)",
		                   flits, n->p.buf);
	if (n->p.cut_through && flits > n->p.buf)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "%d-flit packets: cut-through needs room for a whole packet "
		                   "(buf=%d)",
		                   flits, n->p.buf);
	return 0;
}

/* A packet's room in the pool: its record and its route. */
static double packet_bytes(const struct flit_net *n)
{
	/* (its route's slots as one thread has them: threads=2 pads them to a
	 * line, and refuses at the same packet) */
	return (double)sizeof *n->pkts.pool +
	       (double)(n->pkts.max_route > 0 ? n->pkts.max_route : 1) *
	           (double)sizeof *n->pkts.routes;
}

/* Whether bytes in all stay within max_memory (always with 0). */
static int within_max(const struct flit_net *n, double bytes)
{
	return n->p.max_memory_mb <= 0 || bytes <= (double)n->p.max_memory_mb * 1048576.0;
}

/* net_flit_enqueue, inlined into net_flit_net_inject */
static inline void enqueue(struct flit_net *n, int k, long id, int src, int dst, int flits,
                           int64_t created)
{
	struct packet *q = &n->pkts.pool[k];
	q->id = id;
	q->src = src;
	q->dst = dst;
	q->len = flits;
	q->created = created;
	q->route = NULL;
	if (n->rt.dist) { /* adaptive: decided hop by hop */
		q->nhops = n->rt.dist[(size_t)src * (size_t)n->nodes + (size_t)dst];
		q->decided = 0;
	} else if (n->pkts.cache_len) { /* the machine's route, computed once per pair (with
		                           threads=2 by src's thread alone) */
		size_t pair = (size_t)src * (size_t)n->nodes + (size_t)dst;
		int *r = n->pkts.cache + pair * (size_t)n->pkts.max_route;
		if (n->pkts.cache_len[pair] < 0)
			n->pkts.cache_len[pair] = plat_route(n->m, src, dst, r);
		q->nhops = q->decided = n->pkts.cache_len[pair];
		q->route = r;
	} else {
		q->nhops = plat_route(n->m, src, dst, pk_route(n, k));
		q->decided = q->nhops;
	}
	q->next_out = q->decided > 0 ? pk_route(n, k)[0] : -1;
	q->next = -1;
	q->dim = -1;
	q->grid_dim = -1;
	q->crossed = 0;
	if (n->pkts.queue_tail[src] >= 0)
		n->pkts.pool[n->pkts.queue_tail[src]].next = k;
	else
		n->pkts.queue_head[src] = k;
	n->pkts.queue_tail[src] = k;
	n->pkts.queued_nodes[src >> 6] |= UINT64_C(1) << (src & 63);
}

void net_flit_enqueue(struct flit_net *n, int k, long id, int src, int dst, int flits,
                      int64_t created)
{
	enqueue(n, k, id, src, dst, flits, created);
}

int net_flit_pool_grow(struct flit_net *n, int cap)
{
	size_t used = (size_t)n->pkts.n, stride = n->pkts.route_stride;
	struct packet *pk = flit_lines_grow(n->pkts.pool, used, (size_t)cap, sizeof *n->pkts.pool);
	if (!pk)
		return -1;
	n->pkts.pool = pk;
	int *r = flit_lines_grow(n->pkts.routes, used * stride, (size_t)cap * stride,
	                         sizeof *n->pkts.routes);
	if (!r)
		return -1;
	n->pkts.routes = r;
	n->pkts.cap = cap;
	return 0;
}

int net_flit_net_inject(struct flit_net *n, int src, int dst, int flits, long id, struct cmn_err *e)
{
	if (src < 0 || src >= n->nodes || dst < 0 || dst >= n->nodes || src == dst)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "packet %ld: from node %d to node %d (nodes 0..%d, "
		                   "not to itself)",
		                   id, src, dst, n->nodes - 1);
	if (net_flit_net_packet_ok(n, flits, e)) {
		cmn_err_prefix(e, "packet %ld", id);
		return e->code;
	}
	/* every packet of the pool held (with one thread: no free one, and
	 * none past the last handed out) */
	if (n->pkts.in_flight == n->pkts.cap) {
		int cap = n->pkts.cap ? 2 * n->pkts.cap : 256;
		double per = packet_bytes(n);
		if (!within_max(n, (double)cap * per + n->state_bytes))
			return cmn_err_set(
			    e, CMN_ENOMEM,
			    "flit network: %ld packets queued or in flight at cycle %lld; "
			    "room for %d would hold %.0f MB with their routes, beside the "
			    "network's %.0f MB, more than max_memory=%ld MB %s, or raise "
			    "max_memory=MB (0: no limit)",
			    n->pkts.in_flight, (long long)n->now, cap,
			    (double)cap * per / 1048576.0, n->state_bytes / 1048576.0,
			    n->p.max_memory_mb,
			    n->overflow_hint ? n->overflow_hint
			                     : "(a load beyond saturation queues packets without "
			                       "bound): lower the load, bound the sources "
			                       "(source_queue=N)");
		/* with threads=2 each thread makes its packets in a pool of its
		 * own (flit_par.c), and cap is one thread's count */
		if (!n->par && net_flit_pool_grow(n, cap))
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		n->pkts.cap = cap;
	}
	if (n->par) { /* its source's thread makes it as its next cycle starts */
		if (net_flit_par_stage(n, id, src, dst, flits))
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		n->pkts.injected[src] += flits;
	} else {
		int k = n->pkts.free;
		if (k >= 0)
			n->pkts.free = n->pkts.pool[k].next;
		else
			k = n->pkts.n++;
		enqueue(n, k, id, src, dst, flits, n->now);
	}
	if (n->pkts.in_flight++ == 0) /* a stall is timed from here at the latest */
		n->last_move = n->now;
	return 0;
}

/* The watchdog's report: what the first blocked channels hold. */
static int stalled(struct flit_net *n, struct cmn_err *e)
{
	char what[400] = "";
	int shown = 0, V = n->p.vcs;
	for (int l = 0; l < n->nl && shown < 3; l++)
		for (int v = 0; v < V && shown < 3; v++) {
			struct vc *c = vc_of(n, l, v);
			if (!c->count)
				continue;
			struct flit *f = &c->buf[c->first];
			const int *route;
			const struct packet *q;
			if (n->par) /* each thread has a pool of its own */
				q = net_flit_par_packet(n, n->m->links[l].dst, f->pkt, &route);
			else
				q = &n->pkts.pool[f->pkt], route = pk_route(n, f->pkt);
			int h = f->hop + 1, out = h < q->decided ? route[h] : -1;
			size_t len = strlen(what);
			snprintf(what + len, sizeof what - len,
			         "%svertex %d, link %d VC %d: packet %ld (%d->%d), waiting for "
			         "link %d VC %d (credits %d)",
			         shown ? "; " : "", n->m->links[l].dst, l, v, q->id, q->src, q->dst,
			         out, c->out_vc,
			         out < 0 || c->out_vc < 0 ? -1
			         : n->par                 ? net_flit_par_credits(n, out)[c->out_vc]
			                                  : n->cr.count[out * V + c->out_vc]);
			shown++;
		}
	if (!shown) /* none in a buffer: all wait at their sources */
		snprintf(what, sizeof what,
		         "every packet waits at its source, none in a switch's buffers (injection "
		         "ports blocked)");
	return cmn_err_set(e, CMN_ESTATE,
	                   "flit network: no flit moved for %ld cycles beyond the %lld a flit "
	                   "may rest by design (cycle %lld) with %ld packets in flight "
	                   "(deadlock): %s",
	                   n->p.watchdog, (long long)n->stall_slack, (long long)n->now,
	                   n->pkts.in_flight, what);
}

int net_flit_net_run(struct flit_net *n, int64_t until,
                     void (*done)(void *ctx, const struct flit_delivery *d), void *ctx,
                     struct cmn_err *e)
{
	/* the watchdog counts across calls: trace replay and synthetic traffic
	 * run the network one cycle a call, so a stall is timed from the last
	 * move, or from when the network last held nothing */
	if (n->pkts.in_flight == 0)
		n->last_move = n->now;
	while (until < 0 ? n->pkts.in_flight > 0 : n->now < until) {
		int oom = 0;
		if (n->par) {
			oom = net_flit_par_cycle(n, done, ctx);
			n->now++;
		} else {
			n->cycle(n, done, ctx, &oom);
		}
		if (oom == 1)
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		if (oom == 2)
			return cmn_err_set(e, CMN_ESTATE,
			                   "flit network: a buffer overflowed (a bug)");
		if (n->on_wires)
			n->last_move = n->now; /* flits on a long link are moving */
		else if (n->pkts.in_flight > 0 &&
		         n->now - n->last_move >= n->p.watchdog + n->stall_slack)
			return stalled(n, e);
		if (n->pkts.in_flight == 0 && until >= 0) /* nothing to do: skip to the end */
			n->now = until;
	}
	return 0;
}

int net_flit_net_source_room(const struct flit_net *n, int x, int flits)
{
	if (!n->p.source_queue)
		return 1;
	if (n->pkts.injected) /* threads=2: the same count from the counters */
		return (long)net_flit_par_held(n, x) + flits <= (long)n->p.source_queue * flits;
	long held = n->in[vc_id(n, n->nl + x, 0)].count; /* its injection port */
	for (int k = n->pkts.queue_head[x]; k >= 0; k = n->pkts.pool[k].next)
		held += n->pkts.pool[k].len;
	for (int i = n->rt.out_first[x]; i < n->rt.out_first[x + 1]; i++) { /* its links */
		int l = n->rt.out_link[i];
		for (int64_t s = 0; s <= n->ch.wire_mask[l]; s++) /* on the wire */
			held += n->ch.wire[n->ch.wire_first[l] + (size_t)s].vc >= 0;
		for (int v = 0; v < n->p.vcs; v++)
			held += n->in[vc_id(n, l, v)].count;
	}
	return held + flits <= (long)n->p.source_queue * flits;
}

int64_t net_flit_net_now(const struct flit_net *n)
{
	return n->now;
}

long net_flit_net_in_flight(const struct flit_net *n)
{
	return n->pkts.in_flight;
}

void net_flit_net_set_overflow_hint(struct flit_net *n, const char *hint)
{
	n->overflow_hint = hint;
}

int net_flit_net_room(const struct flit_net *n, double more, double *mb, long *max_mb)
{
	double held = n->state_bytes + (double)n->pkts.cap * packet_bytes(n);
	*mb = held / 1048576.0;
	*max_mb = n->p.max_memory_mb;
	return within_max(n, held + more);
}

const long *net_flit_net_link_flits(const struct flit_net *n)
{
	return n->par ? net_flit_par_link_flits(n) : n->ch.flits_carried;
}

int net_flit_net_check(const struct flit_net *n, struct cmn_err *e)
{
	int V = n->p.vcs;
	for (int l = 0; l < n->nl; l++)
		for (int v = 0; v < V; v++) {
			int cr = n->par ? net_flit_par_credits(n, l)[v] : n->cr.count[l * V + v],
			    inbuf = n->in[vc_id(n, l, v)].count, wire = 0, cwire = 0;
			size_t ring = (size_t)n->ch.wire_mask[l] + 1; /* (threads=2 lays the
			                                                 rings out by part) */
			for (size_t s = n->ch.wire_first[l]; s < n->ch.wire_first[l] + ring; s++) {
				wire += n->ch.wire[s].vc == v;
				cwire += (int)(n->cr.wire[s] >> v & 1);
			}
			if (n->par) { /* and what crosses between the threads */
				int mf, mc;
				net_flit_par_mail(n, l, v, &mf, &mc);
				wire += mf, cwire += mc;
			}
			if (cr < 0 || cr > n->ch.vc_buf_flits[l] ||
			    cr + inbuf + wire + cwire != n->ch.vc_buf_flits[l])
				return cmn_err_set(
				    e, CMN_ESTATE,
				    "link %d VC %d: %d credits, %d flits buffered, %d on "
				    "the wire, %d credits on the wire (buffer %d)",
				    l, v, cr, inbuf, wire, cwire, n->ch.vc_buf_flits[l]);
		}
	return 0;
}

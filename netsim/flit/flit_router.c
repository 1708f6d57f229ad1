/* Inside a router in one cycle (flit_internal.h): each input VC's request
 * (its packet's next link, adaptive on trees), VC classes and free VCs,
 * switch allocation (rr, output, islip) and the sending of a flit with its
 * credit back upstream. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "../../common/hash.h"
#include "flit_internal.h"

/* Compiled as it is (net_flit_router_cycle: any mode, read from the
 * network) and once more per kernel of flit_kernel.def, with FLIT_KERNEL
 * its name and FLIT_KERNEL_MODE a constant struct flit_mode: the same
 * code, its branches on the mode folded, as net_flit_kernel_NAME beside
 * its mode net_flit_kernel_NAME_mode. */
#ifdef FLIT_KERNEL_MODE
#define KERNEL_CAT_(a, b) a##b
#define KERNEL_CAT(a, b)  KERNEL_CAT_(a, b)
#define FLIT_KERNEL_FN    KERNEL_CAT(net_flit_kernel_, FLIT_KERNEL)
const struct flit_mode KERNEL_CAT(FLIT_KERNEL_FN, _mode) = FLIT_KERNEL_MODE;
#define MODE(n) (&flit_kernel_mode)
#else
#define FLIT_KERNEL_FN net_flit_router_cycle
#define MODE(n)        (&(n)->mode)
#endif

/* a mod m for 0 <= a < 2m, without a division */
static inline int wrap(int a, int m)
{
	return a >= m ? a - m : a;
}

/* Puts f on link l (or, for a zero-delay link, straight into its VC v). */
static void to_link(struct flit_net *n, int l, int v, struct flit f)
{
	int d = n->ch.cycles[l];
	int64_t last = n->ch.last_sent[l];
	n->ch.last_sent[l] = n->now;
	if (d == 0) {
		net_flit_arrive(n, l, v, f); /* the credit it took guarantees room */
		return;
	}
	struct wire *w = &n->ch.wire[flit_slot(n, l, n->now + d)];
	w->f = f;
	w->vc = v;
	n->on_wires++;
	if (last + d <= n->now) /* its wire held nothing: listed again */
		n->ch.with_flits[n->ch.nwith_flits++] = l;
}

/* Returns a credit for VC v over link l (at once for a zero-delay link). */
static void credit_back(struct flit_net *n, int l, int v)
{
	int d = n->ch.cycles[l];
	if (d == 0)
		n->cr.count[l * MODE(n)->vcs + v]++;
	else {
		uint64_t *cw = &n->cr.wire[flit_slot(n, l, n->now + d)];
		if (n->cr.last[l] + d <= n->now) /* its wire held none: listed again */
			n->cr.with_credits[n->cr.nwith_credits++] = l;
		n->cr.last[l] = n->now;
		*cw |= UINT64_C(1) << v;
	}
}

/* vc_class() on a machine with rings (tori): the dateline or partition
 * class, and the ring state after taking it. */
static void vc_class_rings(const struct flit_net *n, const struct packet *q, int out, int *lo,
                           int *nv, int *dim, int *crossed)
{
	int V = MODE(n)->vcs;
	*lo = 0, *nv = V, *dim = q->dim, *crossed = q->crossed;
	if (n->ch.ring_dim[out] >= 0) {
		if (n->ch.ring_dim[out] != *dim) {
			*dim = n->ch.ring_dim[out], *crossed = 0;
			if (MODE(n)->dateline == 2) { /* partition: fixed for the dimension */
				size_t nd = (size_t)n->rt.ndims, d = (size_t)*dim;
				int cur = n->rt.coords[(size_t)n->m->links[out].src * nd + d];
				int to = n->rt.coords[(size_t)q->dst * nd + d];
				*crossed = cur > to;
			}
		}
		if (MODE(n)->dateline != 2)
			*crossed |= n->ch.wraps[out];
		if (MODE(n)->dateline) {
			*nv = *crossed ? V - V / 2 : V / 2;
			*lo = *crossed ? V / 2 : 0;
		}
	} else { /* off the rings (a node's or a wide-area link): a ring entered next
		    starts afresh */
		*dim = -1, *crossed = 0;
	}
}

/* The VC range [lo, lo + nv) a packet may take on link out (dateline
 * classes on tori), and its dimension state after taking it; without
 * rings every VC, and the state unchanged. */
static inline void vc_class(const struct flit_net *n, const struct packet *q, int out, int *lo,
                            int *nv, int *dim, int *crossed)
{
	if (MODE(n)->rings) {
		vc_class_rings(n, q, out, lo, nv, dim, crossed);
		return;
	}
	*lo = 0, *nv = MODE(n)->vcs, *dim = q->dim, *crossed = q->crossed;
}

/* Whether a head may take VC w of link out: free, and under cut-through
 * with room for `need` flits. */
static inline int vc_takable(const struct flit_net *n, int out, int w, int need)
{
	return !(n->ch.vcs_taken[out] >> w & 1) &&
	       (!MODE(n)->cut_through || n->cr.count[out * MODE(n)->vcs + w] >= need);
}

/* bubble_at=local: whether this router's own input VC w of the ring
 * direction of link out (the VC the ring's packets come through) has
 * room for two packets of len flits (FSIN's check_restrictions). */
static int local_bubble(const struct flit_net *n, int out, int w, int len)
{
	int in = n->ch.ring_prev[out];
	return in < 0 || n->ch.vc_buf_flits[in] - n->in[vc_id(n, in, w)].count >= 2 * len;
}

/* Whether a head of len flits may take VC w of link out: vc_takable's
 * test for need flits, and with local set the bubble in its own router's
 * VC of that ring (bubble_at=local). */
static inline int vc_enterable(const struct flit_net *n, int out, int w, int need, int local,
                               int len)
{
	return vc_takable(n, out, w, need) && (!local || local_bubble(n, out, w, len));
}

/* The first free downstream VC (round-robin, of its class, with room for
 * the whole packet under cut-through, for two when a bubble is needed) on
 * link out, or -1. */
static int free_vc(struct flit_net *n, struct packet *q, int vin, int out)
{
	int lo, nv, dim, crossed;
	vc_class(n, q, out, &lo, &nv, &dim, &crossed);
	/* bubble flow control: entering a ring needs room for two packets in
	 * the VC it enters (bubble_at=next) or in its own router's VC of that
	 * ring (local) */
	int enter = MODE(n)->bubble && MODE(n)->rings && n->ch.ring_dim[out] >= 0 &&
	            n->ch.ring_dim[out] != q->dim;
	int local = enter && MODE(n)->local;
	int need = enter && !local ? 2 * q->len : q->len;
	if (MODE(n)->grid && n->ch.grid_dim[out] >= 0) {
		/* vc_pick=dimension: the VC it is in while it goes on in a
		 * dimension; entering one, a VC drawn afresh at each request
		 * (FSIN's bubble_oblivious draws on every call) */
		int w = n->ch.grid_dim[out] == q->grid_dim
		            ? vin
		            : (int)(cmn_hash_unit(0x5eed + 1, n->pkts.draws++) * nv);
		w -= lo; /* in [-lo, V - lo), and lo + nv <= V: at most a few nv off */
		while (w < 0)
			w += nv;
		while (w >= nv)
			w -= nv;
		w += lo;
		return vc_enterable(n, out, w, need, local, q->len) ? w : -1;
	}
	for (int i = 0; i < nv; i++) {
		int w = lo + wrap(n->rt.rr_link[out] + i, nv);
		if (vc_enterable(n, out, w, need, local, q->len))
			return w;
	}
	return -1;
}

/* Whether link l (out of vertex x) takes a packet one hop closer to node t
 * (the adaptive and random routings' choices). */
static int closer(const struct flit_net *n, int x, int l, int t)
{
	size_t nodes = (size_t)n->nodes;
	return n->rt.dist[(size_t)n->m->links[l].dst * nodes + (size_t)t] ==
	       n->rt.dist[(size_t)x * nodes + (size_t)t] - 1;
}

/* Minimal adaptive routing (k-ary n-trees: the up phase has k choices, the
 * down phase one): of x's out links one hop closer to node t, one that no
 * other head at x picked this cycle if there is one (heads spread over the
 * links instead of all asking for the same), then the one with the most
 * credits over its free VCs (the least occupied), ties from a rotating
 * start. */
static int adaptive_next(struct flit_net *n, int x, int t)
{
	int first = n->rt.out_first[x], no = n->rt.out_first[x + 1] - first, best = -1, bc = -1;
	int V = MODE(n)->vcs;
	for (int i = 0; i < no; i++) {
		int l = n->rt.out_link[first + (n->rt.tie[x] + i) % no];
		if (!closer(n, x, l, t))
			continue;
		int cr = n->rt.picked[l] == n->now ? 0 : 1 << 24;
		for (int v = 0; v < V; v++)
			cr += n->ch.vcs_taken[l] >> v & 1 ? 0 : n->cr.count[l * V + v];
		if (cr > bc)
			bc = cr, best = l;
	}
	if (best >= 0)
		n->rt.picked[best] = n->now;
	return best;
}

/* Random up routing (BookSim's nca_fattree): of x's out links one hop
 * closer to node t, one drawn uniformly (splitmix64 of the network's draw
 * count: the same draws run after run). */
static int random_next(struct flit_net *n, int x, int t)
{
	int first = n->rt.out_first[x], no = n->rt.out_first[x + 1] - first, cand[64], nc = 0;
	int low = 127; /* tori: only the lowest dimension still to go (dimension order) */
	for (int i = 0; MODE(n)->rings && i < no; i++) {
		int l = n->rt.out_link[first + i];
		if (n->ch.ring_dim[l] >= 0 && n->ch.ring_dim[l] < low && closer(n, x, l, t))
			low = n->ch.ring_dim[l];
	}
	for (int i = 0; i < no && nc < 64; i++)
		if (closer(n, x, n->rt.out_link[first + i], t) &&
		    (low == 127 || n->ch.ring_dim[n->rt.out_link[first + i]] == low))
			cand[nc++] = n->rt.out_link[first + i];
	if (!nc)
		return -1;
	int pick = (int)(cmn_hash_unit(0x5eed, n->pkts.draws++) * nc);
	return cand[pick < nc ? pick : nc - 1];
}

/* INSEE's routing on k-ary n-trees (FSIN's check_rr_fattree_adaptive with
 * min_queue_occupation, on every hop: up, down and from the node): of the
 * VCs of x's out links one hop closer to node t, the one whose downstream
 * queue holds the fewest flits (its buffer less the credits), ties drawn
 * afresh at each request; as in FSIN's list, the first queue found at the
 * least occupation counts twice in the draw. Returns the VC, or -1 when it
 * cannot take the packet now (the head asks again next cycle); *outp: its
 * link (-1: none closer, the packet is at its node). */
static int fsin_next(struct flit_net *n, const struct packet *q, int x, int *outp)
{
	enum { MAXC = 256 };
	int first = n->rt.out_first[x], no = n->rt.out_first[x + 1] - first, V = MODE(n)->vcs;
	int least = INT_MAX, nc = 0, cl[MAXC], cv[MAXC];
	for (int i = 0; i < no; i++) {
		int l = n->rt.out_link[first + i];
		if (!closer(n, x, l, q->dst))
			continue;
		for (int v = 0; v < V; v++) {
			int occ = n->ch.vc_buf_flits[l] - n->cr.count[l * V + v];
			if (occ < least) { /* FSIN: nm = 1 with this queue, then added again */
				least = occ;
				nc = 0;
				cl[nc] = l, cv[nc++] = v;
			}
			if (occ == least && nc < MAXC)
				cl[nc] = l, cv[nc++] = v;
		}
	}
	if (!nc) {
		*outp = -1;
		return -1;
	}
	int pick = (int)(cmn_hash_unit(0x5eed + 2, n->pkts.draws++) * nc);
	pick = pick < nc ? pick : nc - 1;
	*outp = cl[pick];
	return vc_takable(n, cl[pick], cv[pick], q->len) ? cv[pick] : -1;
}

enum { REQ_VA = -2 }; /* request(): a head that asks for a VC first */

/* Whether hop h of packet q (the link after its h-th) is still to be
 * chosen: only under adaptive routings, which decide hop by hop;
 * deterministic routing fixes a route whole at injection, and its kernels
 * fold this away. */
static inline int undecided(const struct flit_net *n, const struct packet *q, int h)
{
	(void)n; /* (a kernel's mode is a constant) */
	return MODE(n)->adaptive && h < q->nhops && h >= q->decided;
}

/* Whether link l is slower than a flit a cycle and still busy with its
 * last flit. */
static inline int slow_link_busy(const struct flit_net *n, int l)
{
	return MODE(n)->slow && n->ch.gap[l] > 1 && n->now - n->ch.last_sent[l] < n->ch.gap[l];
}

/* What the front flit of VC g (its index in in[]) at vertex x asks for
 * this cycle: the local index of its output at x (out links in order, then
 * ejection), or -1 when it cannot move (not ready, no downstream VC, no
 * credit, ejection port used), or REQ_VA for a head at a switch that needs
 * VC allocation (vc_alloc=islip). An adaptive head records the link it
 * chose (the VC's pick, the link's picked cycle); a head asking for a VC
 * its link (the pick). */
static int request(struct flit_net *n, int x, size_t g)
{
	struct vc *c = &n->in[g];
	if (!c->count || c->front_ready > n->now)
		return -1;
	int V = MODE(n)->vcs;
	if (c->out_vc >= 0) { /* its packet holds a VC on link pick: a credit is all it needs */
		int l = c->pick;
		return !slow_link_busy(n, l) && n->cr.count[l * V + c->out_vc] > 0
		           ? n->rt.out_index[l]
		           : -1;
	}
	const struct flit *f = &c->buf[c->first];
	struct packet *q = &n->pkts.pool[f->pkt];
	int h = f->hop + 1, out = h < q->nhops ? q->next_out : -1, fsin_w = -1;
	int decide = undecided(n, q, h);
	if (decide && MODE(n)->adaptive == 3) { /* fsin: link and VC */
		fsin_w = fsin_next(n, q, x, &out);
		c->pick = out;
	} else if (decide && MODE(n)->adaptive == 2) { /* random: drawn once */
		out = pk_route(n, f->pkt)[h] = q->next_out = random_next(n, x, q->dst);
		q->decided = h + 1;
	} else if (decide) { /* adaptive: the least occupied next link */
		out = c->pick = adaptive_next(n, x, q->dst);
	}
	if (out < 0)
		return n->rt.last_ejected[x] == n->now
		           ? -1
		           : n->rt.out_first[x + 1] - n->rt.out_first[x];
	if (h == q->nhops - 1 && n->ch.cycles[out] == 0) /* ejection over a zero-delay link */
		return n->rt.last_ejected[q->dst] == n->now ? -1 : n->rt.out_index[out];
	if (MODE(n)->va_islip && x >= n->nodes) { /* a head at a switch: VC allocation first */
		c->pick = out;
		return REQ_VA;
	}
	if (slow_link_busy(n, out))
		return -1;
	int w = c->want = MODE(n)->adaptive == 3 ? fsin_w : free_vc(n, q, c->port_vc, out);
	c->pick = out;
	return w >= 0 && n->cr.count[out * V + w] > 0 ? n->rt.out_index[out] : -1;
}

/* Sends the front flit of VC g (its index in in[]) at vertex x, which
 * request() found able to move. */
static void send(struct flit_net *n, int x, size_t g,
                 void (*done)(void *, const struct flit_delivery *), void *ctx)
{
	struct vc *c = &n->in[g];
	struct flit *f = &c->buf[c->first];
	struct packet *q = NULL;
	int h = f->hop + 1, V = MODE(n)->vcs, out, eject = -1;
	if (c->out_vc >= 0 && !f->head) {
		/* a body flit behind its head: the link its head took (the
		 * VC's pick) and its VC; neither its packet nor its route is
		 * read (with threads=2 its head may be moving on) */
		out = c->pick;
	} else {
		q = &n->pkts.pool[f->pkt];
		if (f->head && undecided(n, q, h)) { /* it fixes its adaptive choice */
			pk_route(n, f->pkt)[h] = q->next_out = c->pick, q->decided = h + 1;
			n->rt.tie[x]++;
		}
		out = h >= q->nhops ? -1 : f->head ? q->next_out : pk_route(n, f->pkt)[h];
		eject = out < 0 ? x : h == q->nhops - 1 && n->ch.cycles[out] == 0 ? q->dst : -1;
		if (f->head && eject < 0) /* its next link, when fixed */
			q->next_out = h + 1 < q->decided ? pk_route(n, f->pkt)[h + 1] : -1;
	}
	if (eject >= 0) {
		n->rt.last_ejected[eject] = n->now;
		if (out >= 0)
			n->ch.flits_carried[out]++;
	} else {
		int fresh = c->out_vc < 0;
		if (fresh) { /* a head takes its downstream VC */
			int lo, nv, dim, crossed;
			vc_class(n, q, out, &lo, &nv, &dim, &crossed);
			c->out_vc = c->want; /* what request() found: no other head here used
			                        this output since */
			if (MODE(n)->grid)   /* vc_pick=dimension: the dimension it is in now */
				q->grid_dim = n->ch.grid_dim[out];
			if (!f->tail) /* (a packet of one flit gives it back at once) */
				n->ch.vcs_taken[out] |= UINT64_C(1) << c->out_vc;
			n->rt.rr_link[out] = wrap(c->out_vc - lo + 1, nv);
			if (MODE(n)->rings) /* its ring state (vc_class leaves it as it is
			                       without rings) */
				q->dim = dim, q->crossed = crossed;
		}
		n->cr.count[out * V + c->out_vc]--;
		struct flit moved = *f;
		moved.hop = (short)h;
		to_link(n, out, c->out_vc, moved);
		n->ch.flits_carried[out]++;
		if (f->tail && !fresh) /* the downstream VC takes its next packet behind this
		                          one (taken before this flit: by its head, or in VC
		                          allocation) */
			n->ch.vcs_taken[out] &= ~(UINT64_C(1) << c->out_vc);
	}
	struct flit sent = *f;
	c->first = c->first + 1 == c->cap ? 0 : c->first + 1;
	c->count--;
	if (c->count) {
		struct flit *next = &c->buf[c->first];
		/* pipeline=packet: a head behind the packet that left starts its
		 * routing and VC allocation now, so it leaves R - 1 cycles after
		 * that packet's tail (BookSim: the tail's switch allocation puts
		 * the VC back to routing; routing, VC and switch allocation, then
		 * traversal) */
		if (MODE(n)->vc_pipeline && next->head && x >= n->nodes) {
			int R = n->p.router_delay -
			        (MODE(n)->va_islip ? 1 : 0); /* VC allocation first */
			int64_t at = n->now + (R > 1 ? R - 1 : 1);
			if (next->ready < at)
				next->ready = at;
		}
		c->front_ready = next->ready;
	}
	/* a next flit that may leave now or next cycle keeps the mark it had to
	 * send (request() skips it this cycle: the router visits each vertex
	 * once a cycle, and has asked), instead of leaving it and coming back
	 * through the timing wheel's next slot */
	if (!c->count || c->front_ready > n->now + 1)
		vc_front(n, g);
	if (c->port < n->nl) { /* a credit back upstream */
		credit_back(n, c->port, c->port_vc);
		if (n->pkts.left && n->m->links[c->port].src < n->nodes) /* threads=2:
		                                                   source_room's count */
			n->pkts.left[n->m->links[c->port].src]++;
	}
	if (sent.tail)
		c->out_vc = -1;
	if (eject >= 0 && sent.tail) {
		struct flit_delivery d;
		memset(&d, 0, sizeof d); /* padding too: callers may compare records bytewise */
		d.id = q->id, d.src = q->src, d.dst = q->dst, d.flits = q->len;
		d.created = q->created, d.done = n->now + n->p.eject_delay;
		n->pkts.in_flight--;
		q->next = n->pkts.free;
		n->pkts.free = sent.pkt;
		if (done)
			done(ctx, &d);
	}
	n->last_move = n->now;
}

/* Sends the front flit of local input VC k at x through output g; with
 * hold=packet a head keeps g for its packet until the tail. */
static void held_send(struct flit_net *n, int x, int k, int g,
                      void (*done)(void *, const struct flit_delivery *), void *ctx)
{
	size_t gv =
	    (size_t)n->rt
	        .local_vc_index[(size_t)n->rt.port_first[x] * (size_t)MODE(n)->vcs + (size_t)k];
	const struct vc *c = &n->in[gv];
	const struct flit *f = &c->buf[c->first];
	if (MODE(n)->hold_packet)
		n->rt.output_holder[g] = f->tail ? -1 : k;
	send(n, x, gv, done, ctx);
}

/* The first set bit of m (not 0) at or after bit s, cyclically. */
static inline int first_from(uint64_t m, int s)
{
	uint64_t hi = s > 0 && s < 64 ? m & (~UINT64_C(0) << s) : m;
	return __builtin_ctzll(hi ? hi : m);
}

/* allocate()'s islip for a vertex of at most 64 input VCs and 64 outputs,
 * on bit masks: the same grants, acceptances and pointer moves. */
static void islip_masks(struct flit_net *n, int x, int np, int nout,
                        void (*done)(void *, const struct flit_delivery *), void *ctx)
{
	int V = MODE(n)->vcs, first = n->rt.port_first[x], vcx = MODE(n)->vc_crossbar;
	int nk = np * V, ox = n->rt.out_first[x];
	uint64_t *reqm = n->sw.islip_reqs, *gm = n->sw.islip_grants, outs = 0, ins = 0;
	for (int r = 0; r < n->sw.nreqs; r++) { /* each output's requesting input VCs */
		int k = n->sw.req_vcs[r], j = n->sw.req_outs[r];
		reqm[j] |= UINT64_C(1) << k;
		outs |= UINT64_C(1) << j;
	}
	for (uint64_t o = outs; o; o &= o - 1) { /* grants: first from the output's pointer */
		int j = __builtin_ctzll(o), g = j < nout - 1 ? n->rt.out_link[ox + j] : n->nl + x,
		    k;
		if (n->rt.output_holder[g] >= 0) /* kept for a packet: only its VC may use it */
			k = reqm[j] >> n->rt.output_holder[g] & 1 ? n->rt.output_holder[g] : -1;
		else
			k = first_from(reqm[j], n->sw.grant_ptr[g]);
		reqm[j] = 0;
		n->sw.grant[j] = k;
		if (k >= 0) {
			int xin = vcx ? k : n->rt.local_port[k];
			gm[xin] |= UINT64_C(1) << j;
			ins |= UINT64_C(1) << xin;
		}
	}
	for (; ins; ins &= ins - 1) { /* accepts, inputs in order: first from the input's pointer */
		int xin = __builtin_ctzll(ins), k0 = vcx ? xin : xin * V;
		int g0 = n->rt.local_vc_index[(size_t)first * (size_t)V + (size_t)k0],
		    ai = vcx ? g0 : n->in[g0].port;
		int j = first_from(gm[xin], n->sw.accept_ptr[ai]), k = n->sw.grant[j];
		int g = j < nout - 1 ? n->rt.out_link[ox + j] : n->nl + x;
		gm[xin] = 0;
		held_send(n, x, k, g, done, ctx);
		n->sw.grant_ptr[g] = k + 1 == nk ? 0 : k + 1;
		n->sw.accept_ptr[ai] = j + 1 == nout ? 0 : j + 1;
	}
	n->rt.rr_vertex[x] = wrap(n->rt.rr_vertex[x] + 1, nout);
}

static void allocate_general(struct flit_net *n, int x, int np, int nout,
                             void (*done)(void *, const struct flit_delivery *), void *ctx);

/* allocate()'s output allocator with crossbar=vc for a vertex of at most
 * 64 outputs: each VC is a crossbar input that asks for one output, so no
 * input is ever granted twice; each asked output grants its requester
 * first from its pointer (only its holder's, when hold=packet keeps it),
 * outputs in round-robin order from the vertex's pointer: allocate_general's
 * grants and sends in its order, without its per-input bookkeeping. */
static void output_vcx(struct flit_net *n, int x, int nk, int nout,
                       void (*done)(void *, const struct flit_delivery *), void *ctx)
{
	int ox = n->rt.out_first[x], *grant = n->sw.grant, *bestd = n->sw.output_used;
	uint64_t asked = 0;
	for (int r = 0; r < n->sw.nreqs; r++) {
		int k = n->sw.req_vcs[r], j = n->sw.req_outs[r];
		int g = j < nout - 1 ? n->rt.out_link[ox + j] : n->nl + x,
		    h = n->rt.output_holder[g];
		if (h >= 0 && h != k) /* kept for a packet: only its VC may use it */
			continue;
		int d = k - n->sw.grant_ptr[g];
		d += d < 0 ? nk : 0; /* (k - pointer) mod nk */
		if (!(asked >> j & 1) || d < bestd[j])
			bestd[j] = d, grant[j] = k;
		asked |= UINT64_C(1) << j;
	}
	while (asked) {
		int j = first_from(asked, n->rt.rr_vertex[x]), k = grant[j];
		int g = j < nout - 1 ? n->rt.out_link[ox + j] : n->nl + x;
		asked &= ~(UINT64_C(1) << j);
		held_send(n, x, k, g, done, ctx);
		n->sw.grant_ptr[g] = wrap(k + 1, nk);
	}
	n->rt.rr_vertex[x] = wrap(n->rt.rr_vertex[x] + 1, nout);
}

/* Switch allocation at vertex x, once rk[0 .. nrk) holds the VCs that
 * request (input VC k = i V + v of local input port i) and rj[] the local
 * output each asks for. A crossbar input is a port, or with crossbar=vc
 * each VC; each crossbar input and each output moves at most one flit a
 * cycle. */
static void allocate(struct flit_net *n, int x, int np, int nout,
                     void (*done)(void *, const struct flit_delivery *), void *ctx)
{
	int V = MODE(n)->vcs, first = n->rt.port_first[x], vcx = MODE(n)->vc_crossbar;
	int nk = np * V, ox = n->rt.out_first[x], *req = n->sw.req;
	if (n->sw.nreqs == 1) { /* one request: what the allocators below do with it */
		int k = n->sw.req_vcs[0], j = n->sw.req_outs[0];
		size_t gk = (size_t)n->rt.local_vc_index[(size_t)first * (size_t)V + (size_t)k];
		int port = n->in[gk].port, v = n->in[gk].port_vc;
		if (MODE(n)->alloc == FLIT_ALLOC_RR) {
			send(n, x, gk, done, ctx);
			n->rt.rr_port[port] = wrap(v + 1, port < n->nl ? V : 1);
			n->rt.rr_vertex[x] = wrap(n->rt.rr_vertex[x] + 1, np);
			return;
		}
		int g = j < nout - 1 ? n->rt.out_link[ox + j] : n->nl + x;
		if (n->rt.output_holder[g] < 0 || n->rt.output_holder[g] == k) {
			held_send(n, x, k, g, done, ctx);
			n->sw.grant_ptr[g] = wrap(k + 1, nk);
			if (MODE(n)->alloc == FLIT_ALLOC_ISLIP)
				n->sw.accept_ptr[vcx ? port * V + v : port] = wrap(j + 1, nout);
		}
		n->rt.rr_vertex[x] = wrap(n->rt.rr_vertex[x] + 1, nout);
		return;
	}
	if (MODE(n)->alloc == FLIT_ALLOC_ISLIP && nk <= 64 && nout <= 64) {
		islip_masks(n, x, np, nout, done, ctx);
		return;
	}
	if (MODE(n)->alloc == FLIT_ALLOC_OUTPUT && vcx && nout <= 64) {
		output_vcx(n, x, nk, nout, done, ctx);
		return;
	}
	for (int r = 0; r < n->sw.nreqs; r++) /* each input VC's request (-1 between calls) */
		req[n->sw.req_vcs[r]] = n->sw.req_outs[r];
	allocate_general(n, x, np, nout, done, ctx);
	for (int r = 0; r < n->sw.nreqs; r++)
		req[n->sw.req_vcs[r]] = -1;
}

/* allocate_general()'s round-robin allocator at local input port i of
 * vertex x: its VCs from the port's pointer, each request whose output no
 * input took yet sent: the first one (one crossbar input a port), or with
 * crossbar=vc every one, the pointer then past the last. vcs: the port's
 * requesting VCs (bit v: VC v), or all of them. */
static inline void rr_port(struct flit_net *n, int x, int i, uint64_t vcs,
                           void (*done)(void *, const struct flit_delivery *), void *ctx)
{
	int V = MODE(n)->vcs, port = n->rt.port[n->rt.port_first[x] + i],
	    nvc = port < n->nl ? V : 1;
	int *req = n->sw.req, *oused = n->sw.output_used;
	for (int s = n->rt.rr_port[port]; vcs;) {
		int v = first_from(vcs, s), r = req[i * V + v];
		vcs &= ~(UINT64_C(1) << v);
		if (v >= nvc || r < 0 || oused[r])
			continue;
		send(n, x, vc_id(n, port, v), done, ctx);
		oused[r] = 1;
		n->rt.rr_port[port] = wrap(v + 1, nvc);
		if (!MODE(n)->vc_crossbar)
			return;
	}
}

/* allocate() past its shortcuts, once req[] holds each input VC's request
 * (local output index or -1). */
static void allocate_general(struct flit_net *n, int x, int np, int nout,
                             void (*done)(void *, const struct flit_delivery *), void *ctx)
{
	int V = MODE(n)->vcs, first = n->rt.port_first[x], vcx = MODE(n)->vc_crossbar;
	int nk = np * V, ox = n->rt.out_first[x];
	int *req = n->sw.req, *oused = n->sw.output_used;
	int64_t *xused = n->sw.input_used, stamp = ++n->sw.stamp;
	if (MODE(n)->alloc == FLIT_ALLOC_RR) { /* inputs in turn, each its first VC that can go */
		for (int j = 0; j < nout; j++)
			oused[j] = 0;
		uint64_t vmask = V == 64 ? ~UINT64_C(0) : (UINT64_C(1) << V) - 1;
		if (nk <= 64) { /* only the ports with requests, in turn from the pointer */
			uint64_t ports = 0, vcs = 0;
			for (int r = 0; r < n->sw.nreqs; r++) {
				ports |= UINT64_C(1) << (n->sw.req_vcs[r] / V);
				vcs |= UINT64_C(1) << n->sw.req_vcs[r];
			}
			while (ports) {
				int i = first_from(ports, n->rt.rr_vertex[x]);
				ports &= ~(UINT64_C(1) << i);
				rr_port(n, x, i, vcs >> (i * V) & vmask, done, ctx);
			}
		} else {
			for (int ii = 0; ii < np; ii++)
				rr_port(n, x, wrap(n->rt.rr_vertex[x] + ii, np), vmask, done, ctx);
		}
		n->rt.rr_vertex[x] = wrap(n->rt.rr_vertex[x] + 1, np);
		return;
	}
	/* output-first: every output grants a requesting crossbar input round-robin
	 * from its pointer; with islip the inputs then accept one grant each
	 * (round-robin) and pointers move only on acceptance */
	int *grant = n->sw.grant, *bestd = oused, *gl = n->sw.asked_outs, ngl = 0;
	/* one pass: each output's round-robin-first requester; the outputs
	 * asked for in a mask (up to 64 outputs), or listed in gl with
	 * grant_call the call that last granted each */
	uint64_t asked = 0;
	for (int r = 0; r < n->sw.nreqs; r++) {
		int k = n->sw.req_vcs[r], j = n->sw.req_outs[r];
		int g = j < nout - 1 ? n->rt.out_link[ox + j] : n->nl + x,
		    d = k - n->sw.grant_ptr[g];
		d += d < 0 ? nk : 0; /* (k - pointer) mod nk */
		int seen = nout <= 64 ? (int)(asked >> j & 1) : n->sw.grant_call[j] == stamp;
		if (!seen) {
			if (nout <= 64)
				asked |= UINT64_C(1) << j;
			else
				n->sw.grant_call[j] = stamp, gl[ngl++] = j;
			bestd[j] = d, grant[j] = k;
		} else if (d < bestd[j]) {
			bestd[j] = d, grant[j] = k;
		}
	}
	/* the outputs in round-robin order from the vertex's pointer */
	while (nout <= 64 && asked) {
		int j = first_from(asked, n->rt.rr_vertex[x]);
		asked &= ~(UINT64_C(1) << j);
		gl[ngl++] = j;
	}
	for (int a = 1; nout > 64 && a < ngl; a++) {
		int j = gl[a], key = j - n->rt.rr_vertex[x] + (j < n->rt.rr_vertex[x] ? nout : 0),
		    at = a;
		for (; at > 0 && gl[at - 1] - n->rt.rr_vertex[x] +
		                         (gl[at - 1] < n->rt.rr_vertex[x] ? nout : 0) >
		                     key;
		     at--)
			gl[at] = gl[at - 1];
		gl[at] = j;
	}
	for (int a = 0; a < ngl; a++) {
		int j = gl[a], k = grant[j], g = j < nout - 1 ? n->rt.out_link[ox + j] : n->nl + x;
		if (n->rt.output_holder[g] >= 0) /* kept for a packet: only its VC may use it */
			k = req[n->rt.output_holder[g]] == j ? n->rt.output_holder[g] : -1;
		if (k >= 0 && xused[vcx ? k : n->rt.local_port[k]] ==
		                  stamp) { /* its input sent: the next one */
			int k0 = k;
			k = -1;
			for (int kk = 1; kk < nk && n->rt.output_holder[g] < 0; kk++) {
				int c = wrap(k0 + kk, nk);
				if (req[c] == j && xused[vcx ? c : n->rt.local_port[c]] != stamp) {
					k = c;
					break;
				}
			}
		}
		grant[j] = k;
		if (k >= 0 && MODE(n)->alloc == FLIT_ALLOC_OUTPUT) { /* granted is sent */
			held_send(n, x, k, g, done, ctx);
			xused[vcx ? k : n->rt.local_port[k]] = stamp;
			n->sw.grant_ptr[g] = wrap(k + 1, nk);
		}
	}
	if (MODE(n)->alloc == FLIT_ALLOC_ISLIP) {
		/* accept: each crossbar input takes the granting output first from its
		 * pointer, inputs in order; the grants as (input, output) pairs in
		 * oused as input << 16 | output, sorted (at most one per output) */
		int ng = 0, *pair = oused;
		for (int a = 0; a < ngl; a++) {
			int j = gl[a];
			if (grant[j] < 0)
				continue;
			int xin = vcx ? grant[j] : n->rt.local_port[grant[j]], at = ng++;
			for (; at > 0 && pair[at - 1] > (xin << 16 | j); at--)
				pair[at] = pair[at - 1];
			pair[at] = xin << 16 | j;
		}
		for (int a = 0; a < ng;) {
			int xin = pair[a] >> 16, bj = -1, bd = nout;
			for (; a < ng && pair[a] >> 16 == xin; a++) {
				int j = pair[a] & 0xffff, k = grant[j],
				    port = n->rt.port[first + n->rt.local_port[k]];
				int d =
				    j - n->sw.accept_ptr[vcx ? port * V + n->rt.local_vc[k] : port];
				d += d < 0 ? nout : 0;
				if (d < bd)
					bd = d, bj = j;
			}
			int k = grant[bj], port = n->rt.port[first + n->rt.local_port[k]];
			int g = bj < nout - 1 ? n->rt.out_link[ox + bj] : n->nl + x;
			held_send(n, x, k, g, done, ctx);
			n->sw.grant_ptr[g] = k + 1 == nk ? 0 : k + 1;
			n->sw.accept_ptr[vcx ? port * V + n->rt.local_vc[k] : port] =
			    bj + 1 == nout ? 0 : bj + 1;
		}
	}
	n->rt.rr_vertex[x] = wrap(n->rt.rr_vertex[x] + 1, nout);
}

/* VC allocation at switch x (vc_alloc=islip, BookSim's iSLIP VC
 * allocator with one iteration): the heads va[0 .. nva) ask for every free
 * VC of their class on their link. Each output VC grants the asking input
 * VC first from its pointer (over x's local input VCs), each input VC
 * accepts the granting output VC first from its pointer (over x's local
 * output VCs, output j's VC w at j V + w), and pointers move past an
 * accepted match. A head that gets a VC holds it and may take the switch
 * next cycle; the others ask again next cycle. */
static void va_islip(struct flit_net *n, int x, int nva)
{
	int V = MODE(n)->vcs, first = n->rt.port_first[x];
	int nk = (n->rt.port_first[x + 1] - first) * V;
	int nov = (n->rt.out_first[x + 1] - n->rt.out_first[x] + 1) * V;
	struct va_ask *va = n->va.asks;
	for (int a = 0; a < nva; a++) /* alone on its link, every free VC grants an ask */
		va[a].grant = va[a].free;
	for (int a = 1; a < nva; a++) /* VCs two asks want: the first from the VC's pointer */
		for (int b = 0; b < a; b++) {
			uint64_t both = va[a].l == va[b].l ? va[a].free & va[b].free : 0;
			for (; both; both &= both - 1) {
				int w = __builtin_ctzll(both),
				    gp = n->va.grant_ptr[va[a].l * V + w];
				int da = va[a].k - gp + (va[a].k < gp ? nk : 0);
				int db = va[b].k - gp + (va[b].k < gp ? nk : 0);
				uint64_t bit = UINT64_C(1) << w, alose = -(uint64_t)(db < da);
				va[a].grant &= ~(bit & alose);
				va[b].grant &= ~(bit & ~alose);
			}
		}
	for (int a = 0; a < nva; a++) /* accepts: the granting VC first from the ask's pointer */
		va[a].w = va[a].grant ? first_from(va[a].grant, va[a].s < V ? va[a].s : 0) : -1;
	for (int a = 0; a < nva; a++) { /* the matches take their VCs */
		int w = va[a].w, k = va[a].k, l = va[a].l;
		if (w < 0)
			continue;
		size_t g = (size_t)va[a].g;
		struct vc *c = &n->in[g];
		const struct flit *f = &c->buf[c->first];
		struct packet *q = &n->pkts.pool[f->pkt];
		int h = f->hop + 1;
		if (MODE(n)->rings) /* the packet's ring state on tori */
			q->dim = va[a].dim, q->crossed = va[a].crossed;
		c->out_vc = w;
		n->ch.vcs_taken[l] |= UINT64_C(1) << w;
		n->va.grant_ptr[l * V + w] = k + 1 == nk ? 0 : k + 1;
		n->va.accept_ptr[g] =
		    n->rt.out_index[l] * V + w + 1 == nov ? 0 : n->rt.out_index[l] * V + w + 1;
		if (h >= q->decided) { /* an adaptive head's link is fixed now */
			pk_route(n, f->pkt)[h] = q->next_out = l, q->decided = h + 1;
			n->rt.tie[x]++;
		}
		c->front_ready = n->now + 1; /* switch allocation next cycle (its mark stays) */
	}
}

void FLIT_KERNEL_FN(struct flit_net *n, int x, void (*done)(void *, const struct flit_delivery *),
                    void *ctx)
{
	int first = n->rt.port_first[x], np = n->rt.port_first[x + 1] - first;
	int nout = n->rt.out_first[x + 1] - n->rt.out_first[x] + 1;
	const uint64_t *m = &n->rt.ready_mask[(size_t)x * (size_t)MODE(n)->mask_words];
	const int *kg = &n->rt.local_vc_index[(size_t)first * (size_t)MODE(n)->vcs];
	int nva = 0;
	n->sw.nreqs = 0;
	for (int w = 0; w < MODE(n)->mask_words; w++) /* the VCs whose front flit may leave now */
		for (uint64_t b = m[w]; b; b &= b - 1) {
			int k = (w << 6) + __builtin_ctzll(b);
			size_t g = (size_t)kg[k];
			int r = request(n, x, g);
			if (r >= 0) {
				n->sw.req_outs[n->sw.nreqs] = r;
				n->sw.req_vcs[n->sw.nreqs++] = k;
			} else if (r == REQ_VA) { /* its link and the free VCs of its class */
				const struct vc *c = &n->in[g];
				struct va_ask *a = &n->va.asks[nva++];
				int lo = 0, nv = MODE(n)->vcs;
				a->k = k, a->l = c->pick, a->g = (int)g;
				a->s = n->va.accept_ptr[g] - n->rt.out_index[a->l] * MODE(n)->vcs;
				if (MODE(n)->rings) /* VC classes on tori, and the ring state
				                taking one gives */
					vc_class(n, &n->pkts.pool[c->buf[c->first].pkt], a->l, &lo,
					         &nv, &a->dim, &a->crossed);
				a->free =
				    ~n->ch.vcs_taken[a->l] &
				    (nv == 64 ? ~UINT64_C(0) : ((UINT64_C(1) << nv) - 1) << lo);
			}
		}
	if (nva) /* before switch allocation frees VCs: they are free from next cycle */
		va_islip(n, x, nva);
	if (n->sw.nreqs)
		allocate(n, x, np, nout, done, ctx);
}

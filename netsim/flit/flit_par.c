/* The flit network's cycle on two threads (flit_par.h).
 *
 * The vertices are split in two parts; a thread owns a part's vertices,
 * their input VCs, the credits of their out links and the timing state of
 * both. What a router does in a cycle reads only state its own vertex owns
 * (its input VCs, the credits and taken VCs of its out links, its
 * pointers, the packets at the front of its VCs), and what goes from one
 * vertex to another crosses a link of at least one cycle, read in the next
 * cycle, or a zero-delay link, whose two ends are put in one part. So the
 * two parts can run a cycle's routers at once with the one-thread cycle's
 * result, provided what is shared is put back in its order:
 *  - each thread works on a view of the network (a copy of the struct
 *    whose pointers are the network's own but for its scratch: ready bits,
 *    timing wheel, the lists of links with flits or credits it put on the
 *    wire, the allocators' scratch; the clock and the packet pool copied in
 *    every cycle);
 *  - a cycle has two steps and three meetings: the main thread starts it;
 *    each thread loads its nodes' injection ports and takes the flits
 *    arriving on links into its vertices and the credits arriving on links
 *    out of them, from both threads' lists; after a barrier each runs its
 *    vertices' routers in id order; once both are done the main thread
 *    hands the deliveries on in vertex order (packet freed, in-flight
 *    count, the caller's callback), the order one thread gives them in;
 *  - random draws (vc_pick=dimension, routing=random|fsin) come from one
 *    counter in the order routers ask: they are refused here.
 * The parts: every level of vertices (hops from the nodes: a tree's stages)
 * split in two halves by id and weight (input ports), a node with its
 * switch. Same output bytes with one or two threads (test_flit_threads). */
#define _DEFAULT_SOURCE /* syscall(2): futex */
#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../common/cleanup.h"
#include "flit_par.h"

struct del {
	int x; /* the delivering vertex */
	struct flit_delivery d;
};

/* A flit put this cycle on a link into the other part, and the credits
 * put on one back into it: handed over in a thread's mailboxes (read by
 * the other in its next arrivals) instead of through the link's wire, so
 * that a crossing moves the lines of the mailbox, shared by many, rather
 * than the wire's, the far end's clearing of it and the near end's next
 * write. */
struct flit_mail {
	int64_t arrive;
	int l, vc;
	struct flit f;
};

struct credit_mail {
	int64_t arrive;
	uint64_t mask;
	int l;
};

/* A packet injected between cycles, made by its source's thread as the
 * next cycle starts (net_flit_par_stage). */
struct stage {
	long id;
	int64_t created;
	int src, dst, flits;
};

struct thr {
	struct flit_par *P;
	int t;
	int x; /* the vertex whose router runs */
	struct del *del;
	int ndel, capdel;
	int oom;        /* 1 out of memory, 2 a buffer overflowed (a bug) */
	uint32_t *left; /* per node: its flits that left a VC of this part (the
	                   view's pkts.left) */
	/* its own copies of the state kept per input port, VC or link and
	 * written at the link's far end (round-robin and accept pointers,
	 * credits' last cycle): each entry is only ever used by one thread,
	 * and a line of the network's shared arrays held entries of both
	 * wherever a link crossed into the other part */
	int *rr_port, *sw_accept, *va_accept;
	int64_t *cr_last;
	/* and of the state kept per link or output and written at its near end
	 * (the credits, taken VCs, last cycles, pointers and holders of the
	 * links out of its part, their flit counts): where the machine numbers
	 * its links across the parts (a tree's stages), the shared arrays' lines
	 * held both threads' links; flits_carried is summed on export */
	int *cr_count, *rr_link, *holder, *grant, *va_grant;
	uint64_t *vcs_taken;
	int64_t *last_sent, *picked;
	long *carried;
	uint64_t *queued;    /* its nodes with queued packets (the view's
	                        pkts.queued_nodes: a set shared by the threads, its
	                        line went back and forth at every packet) */
	struct stage *stage; /* the packets of its nodes injected since its last cycle */
	int nstage, capstage;
	/* the view's own scratch (kept across cycles) */
	uint64_t *ready;
	int *wheel_head;
	int *with_flits, nwith_flits;
	int *with_credits, nwith_credits;
	/* its mailboxes: what it put on links into the other part, until the
	 * cycle it arrives; a head's mail names (in its flit's pkt) its
	 * packet's copy in pbox and its route's in rbox (route_stride a
	 * packet), from which the other thread makes a packet of its own */
	struct flit_mail *fbox;
	int nfbox;
	struct packet *pbox;
	int *rbox;
	struct credit_mail *cbox;
	int ncbox;
	struct flit_switch_alloc sw;
	struct va_ask *asks;
};

/* What one thread writes as it runs, on cache lines of its own (the other
 * thread's writes to a shared line would cost both a miss each time). */
struct part {
	_Alignas(128) struct flit_net view;
	struct thr thr;
	char pad[128];
};

struct flit_par {
	struct flit_net *n;
	unsigned char *owner; /* per vertex: 0 or 1 */
	struct part part[2];
	pthread_t worker;
	int started, spin;
	atomic_int quit;
	/* cycle counters: the main thread's start, the worker's end, arrivals at
	 * the middle barrier */
	_Alignas(128) atomic_long go;
	_Alignas(128) atomic_long done;
	_Alignas(128) atomic_long mid;
	/* a thread that waited past its spins sleeps on epoch (a futex), which
	 * every counter's change moves on; sleepers says whether to wake it */
	_Alignas(128) atomic_uint epoch;
	atomic_int sleepers;
};

/* After a counter changed: the other thread woken if it sleeps. (The
 * fences pair with wait_for's: either the sleeper sees the change before
 * it sleeps, or this sees the sleeper and wakes it.) */
static void changed(struct flit_par *P)
{
	atomic_thread_fence(memory_order_seq_cst);
	atomic_fetch_add(&P->epoch, 1);
	if (atomic_load(&P->sleepers))
		syscall(SYS_futex, &P->epoch, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* Spins while the wait is short (the two cores busy for a few
 * microseconds a step), then sleeps until the counter moves: on a machine
 * with other work a spinning thread held a core its partner needed (two
 * threads beside one busy process ran 3 to 5 times slower than one), and
 * between the cycles of a trace replay it held one for nothing. */
static void wait_for(struct flit_par *P, atomic_long *a, long v)
{
	for (int spins = 0; atomic_load_explicit(a, memory_order_acquire) < v; spins++) {
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
		if (spins < P->spin)
			continue;
		unsigned e = atomic_load(&P->epoch);
		atomic_fetch_add(&P->sleepers, 1);
		atomic_thread_fence(memory_order_seq_cst);
		if (atomic_load(a) < v)
			syscall(SYS_futex, &P->epoch, FUTEX_WAIT_PRIVATE, e, NULL, NULL, 0);
		atomic_fetch_sub(&P->sleepers, 1);
		spins = 0;
	}
}

static void record(void *ctx, const struct flit_delivery *d)
{
	struct thr *h = ctx;
	if (h->ndel == h->capdel) {
		int cap = h->capdel ? 2 * h->capdel : 64;
		struct del *p = flit_lines_grow(h->del, (size_t)h->ndel, (size_t)cap, sizeof *p);
		if (!p) {
			h->oom = 1;
			return;
		}
		h->del = p;
		h->capdel = cap;
	}
	struct del *r = &h->del[h->ndel++];
	r->x = h->x;
	memcpy(&r->d, d, sizeof *d); /* its padding too (zero): callers may compare bytewise */
}

/* A packet of the view's own pool (each thread has one: a packet is
 * made by its source's thread, and a thread that a head comes into from
 * the other part makes its own copy, so that no packet's or route's line
 * is passed between the threads), from its free list, else the pool
 * grown: its index, or -1 out of memory. The two pools hold the packets
 * in flight, those of a packet whose flits are in both parts twice; the
 * main thread's check against max_memory counts them as one thread's
 * pool does (net_flit_net_inject). */
static int take_packet(struct flit_net *v)
{
	int k = v->pkts.free;
	if (k >= 0) {
		v->pkts.free = v->pkts.pool[k].next;
		return k;
	}
	if (v->pkts.n == v->pkts.cap && net_flit_pool_grow(v, v->pkts.cap ? 2 * v->pkts.cap : 256))
		return -1;
	return v->pkts.n++;
}

/* Packet k of view v back on its free list. */
static void put_packet(struct flit_net *v, int k)
{
	v->pkts.pool[k].next = v->pkts.free;
	v->pkts.free = k;
}

/* Thread t's packets staged since its last cycle, made from its pool and
 * queued at their sources, in the order they were injected. */
static void make_staged(struct flit_par *P, int t)
{
	struct flit_net *v = &P->part[t].view;
	struct thr *h = &P->part[t].thr;
	for (int i = 0; i < h->nstage; i++) {
		const struct stage *g = &h->stage[i];
		int k = take_packet(v);
		if (k < 0) {
			h->oom = 1;
			break;
		}
		net_flit_enqueue(v, k, g->id, g->src, g->dst, g->flits, g->created);
	}
	h->nstage = 0;
}

/* A flit from the other thread's mail m into view v: a head's packet made
 * here from the mail's copy, the flits behind it given that packet (their
 * VC's arriving one). 0, or -1 out of memory (the flit dropped: the run
 * ends with the error). */
static int immigrate(struct flit_net *v, const struct thr *o, const struct flit_mail *m,
                     struct flit *f)
{
	struct vc *c = &v->in[vc_id(v, m->l, m->vc)];
	*f = m->f;
	if (f->head) {
		int k = take_packet(v);
		if (k < 0)
			return -1;
		const struct packet *q = &o->pbox[f->pkt];
		v->pkts.pool[k] = *q;
		v->pkts.pool[k].next = -1; /* (the sender's queue or free list: not here) */
		if (!q->route)             /* its own slots: the route copied too */
			memcpy(pk_route(v, k), o->rbox + (size_t)f->pkt * v->pkts.route_stride,
			       (size_t)q->nhops * sizeof *o->rbox);
		c->arriving = k;
	}
	f->pkt = c->arriving;
	return 0;
}

/* Thread t's arrivals: flits on the links into its vertices, credits on
 * the links out of them: from its own lists those that stay in its part,
 * and what the other thread's mailboxes hold for this cycle (only they
 * are read across the threads). */
static void arrivals(struct flit_par *P, int t)
{
	struct flit_net *v = &P->part[t].view;
	struct thr *h = &P->part[t].thr;
	const struct thr *o = &P->part[1 - t].thr;
	const struct plat_link *L = v->m->links;
	make_staged(P, t);
	/* its nodes' injection ports (each node's own: their order does not
	 * matter) */
	for (int w = 0; w <= (v->nodes - 1) >> 6; w++) {
		for (uint64_t b = v->pkts.queued_nodes[w]; b; b &= b - 1)
			if (net_flit_load_injection(v, (w << 6) + __builtin_ctzll(b)))
				h->oom = 1;
	}
	for (int i = 0; i < h->nwith_flits; i++)
		if (P->owner[L[h->with_flits[i]].dst] == t && net_flit_wire_in(v, h->with_flits[i]))
			h->oom = 2;
	for (int i = 0; i < o->nfbox; i++) {
		const struct flit_mail *m = &o->fbox[i];
		struct flit f;
		if (m->arrive != v->now)
			continue;
		if (immigrate(v, o, m, &f))
			h->oom = 1;
		else if (net_flit_arrive(v, m->l, m->vc, f))
			h->oom = 2;
		v->on_wires--;
	}
	for (int i = 0; i < h->nwith_credits; i++)
		if (P->owner[L[h->with_credits[i]].src] == t)
			net_flit_wire_credits_in(v, h->with_credits[i]);
	for (int i = 0; i < o->ncbox; i++)
		if (o->cbox[i].arrive == v->now)
			net_flit_credits_in(v, o->cbox[i].l, o->cbox[i].mask);
}

/* A head's packet and route copied into thread h's mail box at entry
 * at, from view v's packet k. */
static void box_packet(struct thr *h, const struct flit_net *v, int at, int k)
{
	const struct packet *q = &v->pkts.pool[k];
	h->pbox[at] = *q;
	if (!q->route)
		memcpy(h->rbox + (size_t)at * v->pkts.route_stride, pk_route(v, k),
		       (size_t)q->nhops * sizeof *h->rbox);
}

/* After thread t's routers: its mailboxes kept to what has not arrived,
 * then what it put this cycle on links into the other part moved there
 * from the links' wires: a head with a copy of its packet, and the packet
 * put back on this thread's free list once its tail has left. */
static void post(struct flit_par *P, int t)
{
	struct flit_net *v = &P->part[t].view;
	struct thr *h = &P->part[t].thr;
	const struct plat_link *L = v->m->links;
	size_t stride = v->pkts.route_stride;
	int k = 0, np = 0;
	for (int i = 0; i < h->nfbox; i++) {
		struct flit_mail *m = &h->fbox[i];
		if (m->arrive <= v->now)
			continue;
		if (m->f.head) { /* its copy moved down with it (np <= its index) */
			h->pbox[np] = h->pbox[m->f.pkt];
			memmove(h->rbox + (size_t)np * stride, h->rbox + (size_t)m->f.pkt * stride,
			        stride * sizeof *h->rbox);
			m->f.pkt = np++;
		}
		h->fbox[k++] = *m;
	}
	h->nfbox = k;
	k = 0;
	for (int i = 0; i < h->ncbox; i++)
		if (h->cbox[i].arrive > v->now)
			h->cbox[k++] = h->cbox[i];
	h->ncbox = k;
	for (int i = 0; i < h->nwith_flits; i++) {
		int l = h->with_flits[i];
		if (P->owner[L[l].dst] == t || v->ch.last_sent[l] != v->now)
			continue;
		int64_t at = v->now + v->ch.cycles[l];
		struct wire *w = &v->ch.wire[flit_slot(v, l, at)];
		struct flit f = w->f;
		int k0 = f.pkt;
		if (f.head) {
			box_packet(h, v, np, k0);
			f.pkt = np++;
		}
		if (f.tail) /* none of its flits left here */
			put_packet(v, k0);
		h->fbox[h->nfbox++] = (struct flit_mail){at, l, w->vc, f};
		w->vc = -1;
	}
	for (int i = 0; i < h->nwith_credits; i++) {
		int l = h->with_credits[i];
		if (P->owner[L[l].src] == t || v->cr.last[l] != v->now)
			continue;
		int64_t at = v->now + v->ch.cycles[l];
		uint64_t *cw = &v->cr.wire[flit_slot(v, l, at)];
		h->cbox[h->ncbox++] = (struct credit_mail){at, *cw, l};
		*cw = 0;
	}
}

const int *net_flit_par_credits(const struct flit_net *n, int l)
{
	const struct flit_par *P = n->par;
	return &P->part[P->owner[n->m->links[l].src]].thr.cr_count[(size_t)l * (size_t)n->p.vcs];
}

const long *net_flit_par_link_flits(const struct flit_net *n)
{
	const struct flit_par *P = n->par;
	for (int l = 0; l < n->nl; l++) /* each link counted by its near end's thread */
		n->ch.flits_carried[l] = P->part[0].thr.carried[l] + P->part[1].thr.carried[l];
	return n->ch.flits_carried;
}

void net_flit_par_mail(const struct flit_net *n, int l, int vc, int *flits, int *credits)
{
	*flits = *credits = 0;
	for (int t = 0; t < 2; t++) { /* (between cycles post left only what has not arrived) */
		const struct thr *h = &n->par->part[t].thr;
		for (int i = 0; i < h->nfbox; i++)
			*flits += h->fbox[i].l == l && h->fbox[i].vc == vc;
		for (int i = 0; i < h->ncbox; i++)
			*credits += h->cbox[i].l == l && (int)(h->cbox[i].mask >> vc & 1);
	}
}

/* Thread t's routers: its lists kept to the links still carrying
 * something, then its vertices' routers (flit_net.c's), recording which
 * vertex delivers; then its mailboxes (post). */
static void routers(struct flit_par *P, int t)
{
	struct flit_net *v = &P->part[t].view;
	struct thr *h = &P->part[t].thr;
	int kept = 0;
	for (int i = 0; i < h->nwith_flits; i++)
		if (net_flit_wire_busy(v, h->with_flits[i]))
			h->with_flits[kept++] = h->with_flits[i];
	v->ch.nwith_flits = h->nwith_flits = kept;
	kept = 0;
	for (int i = 0; i < h->nwith_credits; i++)
		if (net_flit_credits_busy(v, h->with_credits[i]))
			h->with_credits[kept++] = h->with_credits[i];
	v->cr.nwith_credits = h->nwith_credits = kept;
	net_flit_routers(v, record, h, &h->x);
	h->nwith_flits = v->ch.nwith_flits;
	h->nwith_credits = v->cr.nwith_credits;
	post(P, t);
}

static void *worker(void *arg)
{
	struct flit_par *P = arg;
	for (long c = 1;; c++) {
		wait_for(P, &P->go, c);
		if (atomic_load(&P->quit))
			break;
		arrivals(P, 1);
		atomic_fetch_add_explicit(&P->mid, 1, memory_order_acq_rel);
		changed(P);
		wait_for(P, &P->mid, 2 * c);
		routers(P, 1);
		atomic_store_explicit(&P->done, c, memory_order_release);
		changed(P);
	}
	return NULL;
}

/* The view of thread t for this cycle: the network as it stands, with the
 * thread's own scratch. */
static void refresh(struct flit_par *P, int t)
{
	struct flit_net *v = &P->part[t].view;
	v->now = P->n->now;
	v->on_wires = 0;
	v->last_move = v->now - 1;
	P->part[t].thr.ndel = 0;
}

/* Thread t's view, once the network is built: the network's own state but
 * for the thread's scratch. */
static void view_make(struct flit_par *P, int t)
{
	struct flit_net *v = &P->part[t].view;
	struct thr *h = &P->part[t].thr;
	*v = *P->n;
	v->par = NULL;
	v->rt.ready = h->ready;
	v->wheel.head = h->wheel_head;
	v->ch.with_flits = h->with_flits;
	v->ch.nwith_flits = 0;
	v->cr.with_credits = h->with_credits;
	v->cr.nwith_credits = 0;
	v->sw = h->sw;
	v->sw.accept_ptr = h->sw_accept;
	v->rt.rr_port = h->rr_port;
	if (h->va_accept)
		v->va.accept_ptr = h->va_accept;
	v->cr.last = h->cr_last;
	v->cr.count = h->cr_count;
	v->rt.rr_link = h->rr_link;
	v->rt.output_holder = h->holder;
	v->sw.grant_ptr = h->grant;
	if (h->va_grant)
		v->va.grant_ptr = h->va_grant;
	v->ch.vcs_taken = h->vcs_taken;
	v->ch.last_sent = h->last_sent;
	if (h->picked)
		v->rt.picked = h->picked;
	v->ch.flits_carried = h->carried;
	v->va.asks = h->asks;
	v->pkts.left = h->left;
	v->pkts.queued_nodes = h->queued;
	v->pkts.pool = NULL; /* its own pool (take_packet) */
	v->pkts.routes = NULL;
	v->pkts.n = v->pkts.cap = 0;
	v->pkts.free = -1;
}

const struct packet *net_flit_par_packet(const struct flit_net *n, int x, int k, const int **route)
{
	const struct flit_net *v = &n->par->part[n->par->owner[x]].view;
	*route = pk_route(v, k);
	return &v->pkts.pool[k];
}

uint32_t net_flit_par_held(const struct flit_net *n, int x)
{
	const struct flit_par *P = n->par;
	return n->pkts.injected[x] - P->part[0].thr.left[x] - P->part[1].thr.left[x];
}

int net_flit_par_stage(struct flit_net *n, long id, int src, int dst, int flits)
{
	struct thr *h = &n->par->part[n->par->owner[src]].thr;
	if (h->nstage == h->capstage) {
		int cap = h->capstage ? 2 * h->capstage : 64;
		struct stage *p =
		    flit_lines_grow(h->stage, (size_t)h->nstage, (size_t)cap, sizeof *p);
		if (!p)
			return -1;
		h->stage = p;
		h->capstage = cap;
	}
	h->stage[h->nstage++] = (struct stage){id, n->now, src, dst, flits};
	return 0;
}

int net_flit_par_cycle(struct flit_net *n, void (*done)(void *, const struct flit_delivery *),
                       void *ctx)
{
	struct flit_par *P = n->par;
	refresh(P, 0);
	refresh(P, 1);
	int oom = 0;
	long c = atomic_load(&P->go) + 1;
	atomic_store_explicit(&P->go, c, memory_order_release);
	changed(P);
	arrivals(P, 0);
	atomic_fetch_add_explicit(&P->mid, 1, memory_order_acq_rel);
	changed(P);
	wait_for(P, &P->mid, 2 * c);
	routers(P, 0);
	wait_for(P, &P->done, c);
	/* the sums, and the scratch kept */
	for (int t = 0; t < 2; t++) {
		struct flit_net *v = &P->part[t].view;
		struct thr *h = &P->part[t].thr;
		n->on_wires += v->on_wires;
		if (v->last_move == n->now)
			n->last_move = n->now;
		if (h->oom > oom)
			oom = h->oom;
		h->oom = 0;
	}
	/* deliveries in vertex order (their packets on their threads' free
	 * lists already) */
	const struct thr *a = &P->part[0].thr, *b = &P->part[1].thr;
	for (int i = 0, j = 0; i < a->ndel || j < b->ndel;) {
		const struct del *d = j >= b->ndel || (i < a->ndel && a->del[i].x < b->del[j].x)
		                          ? &a->del[i++]
		                          : &b->del[j++];
		n->pkts.in_flight--;
		if (done)
			done(ctx, &d->d);
	}
	return oom;
}

/* The parts: vertices joined by zero-delay links, and each node with the
 * switch its first link goes to, form groups that stay whole; every level
 * of groups (hops from the nodes to the group's lowest switch: a tree's
 * stages, a torus's switches) is split in id order into two halves of
 * about equal weight (input ports), so that both threads get a share of
 * every level's traffic. */
static int find(int *up, int x)
{
	while (up[x] != x)
		x = up[x] = up[up[x]];
	return x;
}

static int partition(struct flit_net *n, unsigned char *owner, struct cmn_err *e)
{
	size_t nv = (size_t)n->nv;
	int *up = flit_lines_malloc(1, nv * sizeof *up),
	    *first = flit_lines_malloc(1, nv * sizeof *first);
	int *order = flit_lines_malloc(1, nv * sizeof *order),
	    *level = flit_lines_malloc(1, nv * sizeof *level);
	int *queue = flit_lines_malloc(1, nv * sizeof *queue),
	    *glevel = flit_lines_malloc(1, nv * sizeof *glevel);
	long *weight = flit_lines_calloc(nv, sizeof *weight),
	     *ltotal = flit_lines_calloc(nv + 1, sizeof *ltotal);
	long *lacc = flit_lines_calloc(nv + 1, sizeof *lacc);
	unsigned char *gown = flit_lines_calloc(nv, 1);
	int rc = 0;
	if (!up || !first || !order || !level || !queue || !glevel || !weight || !ltotal || !lacc ||
	    !gown) {
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
		goto out;
	}
	for (int x = 0; x < n->nv; x++)
		up[x] = x;
	const struct plat_link *L = n->m->links;
	for (int l = 0; l < n->nl; l++) { /* zero-delay links, and a node with its switch */
		int s = L[l].src, d = L[l].dst;
		int node_to_switch =
		    s < n->nodes && d >= n->nodes && n->rt.out_link[n->rt.out_first[s]] == l;
		if (n->ch.cycles[l] == 0 || node_to_switch) {
			int ra = find(up, s), rb = find(up, d);
			if (ra != rb)
				up[ra > rb ? ra : rb] = ra < rb ? ra : rb;
		}
	}
	for (int x = 0; x < n->nv; x++)
		weight[find(up, x)] += 1 + (n->rt.port_first[x + 1] - n->rt.port_first[x]);
	/* each group's first vertex: its lowest switch, or (node-only groups,
	 * after every switch) its lowest node as nv + id; groups in that order */
	for (int x = 0; x < n->nv; x++)
		first[x] = -1;
	int ng = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int x = pass ? 0 : n->nodes; x < (pass ? n->nodes : n->nv); x++) {
			int r = find(up, x);
			if (first[r] < 0)
				first[r] = pass ? n->nv + x : x, order[ng++] = r;
		}
	/* levels: breadth first from the nodes over the links, both ways */
	int qh = 0, qt = 0;
	for (int x = 0; x < n->nv; x++)
		level[x] = x < n->nodes ? (queue[qt++] = x, 0) : -1;
	while (qh < qt) {
		int x = queue[qh++];
		for (int i = n->rt.out_first[x]; i < n->rt.out_first[x + 1]; i++) {
			int y = L[n->rt.out_link[i]].dst;
			if (level[y] < 0)
				level[y] = level[x] + 1, queue[qt++] = y;
		}
		for (int i = n->rt.port_first[x]; i < n->rt.port_first[x + 1]; i++) {
			int l = n->rt.port[i];
			if (l < n->nl && level[L[l].src] < 0)
				level[L[l].src] = level[x] + 1, queue[qt++] = L[l].src;
		}
	}
	for (int i = 0; i < ng; i++) { /* a group's level: its first vertex's (nv: none) */
		int f = first[order[i]], lv = level[f < n->nv ? f : f - n->nv];
		glevel[order[i]] = lv < 0 ? n->nv : lv;
		ltotal[glevel[order[i]]] += weight[order[i]];
	}
	for (int i = 0; i < ng; i++) {
		int lv = glevel[order[i]];
		gown[order[i]] = 2 * lacc[lv] >= ltotal[lv];
		lacc[lv] += weight[order[i]];
	}
	for (int x = 0; x < n->nv; x++)
		owner[x] = gown[find(up, x)];
out:
	free(up), free(first), free(order), free(level), free(queue), free(glevel);
	free(weight), free(ltotal), free(lacc), free(gown);
	return rc;
}

static void thr_free(struct thr *h)
{
	free(h->del);
	free(h->stage);
	free(h->ready);
	free(h->wheel_head);
	free(h->with_flits);
	free(h->with_credits);
	free(h->cr_count), free(h->rr_link), free(h->holder), free(h->grant), free(h->va_grant);
	free(h->vcs_taken), free(h->last_sent), free(h->picked), free(h->carried);
	free(h->rr_port);
	free(h->sw_accept);
	free(h->va_accept);
	free(h->cr_last);
	free(h->left);
	free(h->queued);
	free(h->fbox);
	free(h->cbox);
	free(h->pbox);
	free(h->rbox);
	net_flit_scratch_free(&h->sw, h->asks);
}

/* The links' wires laid out again once the parts are known: the rings of
 * each part's own links together, then those of the links between the two
 * parts each on lines of their own (a multiple of 8 slots from a line: 8
 * credit masks are a line, 8 flit slots three), so that no line holds the
 * wires of both threads. The wires are empty yet. 0, or -1 out of memory
 * (the old layout kept). */
static int wires_apart(struct flit_net *n, const unsigned char *owner)
{
	const struct plat_link *L = n->m->links;
	size_t *first = flit_lines_malloc((size_t)n->nl + 1, sizeof *first), at = 0;
	if (!first)
		return -1;
	for (int group = 0; group < 3; group++) { /* within part 0, within part 1, between */
		at = (at + 7) / 8 * 8;
		for (int l = 0; l < n->nl; l++) {
			int a = owner[L[l].src], b = owner[L[l].dst];
			if (group != (a != b ? 2 : a))
				continue;
			size_t ring = (size_t)n->ch.wire_mask[l] + 1;
			if (group == 2)
				ring = (ring + 7) / 8 * 8;
			first[l] = at;
			at += ring;
		}
	}
	first[n->nl] = at = (at + 7) / 8 * 8;
	struct wire *w = flit_lines_malloc(at + 1, sizeof *w);
	uint64_t *c = flit_lines_calloc(at + 1, sizeof *c);
	if (!w || !c) {
		free(first), free(w), free(c);
		return -1;
	}
	for (size_t i = 0; i <= at; i++)
		w[i].vc = -1;
	/* (not added to state_bytes, as the threads' scratch is not: max_memory
	 * refuses at the same packet with one or two threads) */
	free(n->ch.wire_first), free(n->ch.wire), free(n->cr.wire);
	n->ch.wire_first = first;
	n->ch.wire = w;
	n->cr.wire = c;
	return 0;
}

/* A copy of n elements of size bytes on lines of its own, or NULL. */
static void *copy(const void *from, size_t n, size_t size)
{
	void *p = flit_lines_malloc(n, size);
	if (p)
		memcpy(p, from, n * size);
	return p;
}

/* A thread's scratch, the shapes of the network's own. */
static int thr_make(struct flit_net *n, struct thr *h, int maxin, int maxout)
{
	size_t kin = (size_t)maxin * (size_t)n->p.vcs, nout = (size_t)maxout + 1;
	h->ready = flit_lines_calloc((size_t)n->nv / 64 + 1, sizeof *h->ready);
	h->wheel_head = flit_lines_malloc(1, (size_t)n->wheel.slots * sizeof *h->wheel_head);
	h->with_flits = flit_lines_malloc(1, ((size_t)n->nl + 1) * sizeof *h->with_flits);
	h->with_credits = flit_lines_malloc(1, ((size_t)n->nl + 1) * sizeof *h->with_credits);
	h->left = flit_lines_calloc((size_t)n->nodes, sizeof *h->left);
	h->queued = flit_lines_calloc((size_t)n->nodes / 64 + 1, sizeof *h->queued);
	/* at most a flit (a credit mask) a cycle on each link into the other
	 * part, each in the box for its link's cycles */
	size_t boxed = 1;
	for (int l = 0; l < n->nl; l++)
		if (h->P->owner[n->m->links[l].src] != h->P->owner[n->m->links[l].dst])
			boxed += (size_t)n->ch.cycles[l];
	h->fbox = flit_lines_malloc(boxed, sizeof *h->fbox);
	h->cbox = flit_lines_malloc(boxed, sizeof *h->cbox);
	h->pbox = flit_lines_malloc(boxed, sizeof *h->pbox);
	h->rbox = flit_lines_malloc(boxed * n->pkts.route_stride, sizeof *h->rbox);
	size_t nports = (size_t)n->nl + (size_t)n->nodes, allvc = nports * (size_t)n->p.vcs;
	h->rr_port = copy(n->rt.rr_port, nports, sizeof *h->rr_port);
	h->sw_accept = copy(n->sw.accept_ptr, allvc, sizeof *h->sw_accept);
	h->va_accept =
	    n->va.accept_ptr ? copy(n->va.accept_ptr, allvc, sizeof *h->va_accept) : NULL;
	h->cr_last = copy(n->cr.last, (size_t)n->nl + 1, sizeof *h->cr_last);
	size_t nvc = (size_t)n->nl * (size_t)n->p.vcs;
	h->cr_count = copy(n->cr.count, nvc ? nvc : 1, sizeof *h->cr_count);
	h->rr_link = copy(n->rt.rr_link, (size_t)n->nl + 1, sizeof *h->rr_link);
	h->holder = copy(n->rt.output_holder, nports, sizeof *h->holder);
	h->grant = copy(n->sw.grant_ptr, nports, sizeof *h->grant);
	h->va_grant =
	    n->va.grant_ptr ? copy(n->va.grant_ptr, nvc ? nvc : 1, sizeof *h->va_grant) : NULL;
	h->vcs_taken = copy(n->ch.vcs_taken, (size_t)n->nl + 1, sizeof *h->vcs_taken);
	h->last_sent = copy(n->ch.last_sent, (size_t)n->nl + 1, sizeof *h->last_sent);
	h->picked = n->rt.picked ? copy(n->rt.picked, (size_t)n->nl + 1, sizeof *h->picked) : NULL;
	h->carried = copy(n->ch.flits_carried, (size_t)n->nl + 1, sizeof *h->carried);
	if (!h->cr_count || !h->rr_link || !h->holder || !h->grant ||
	    (n->va.grant_ptr && !h->va_grant) || !h->vcs_taken || !h->last_sent ||
	    (n->rt.picked && !h->picked) || !h->carried)
		return -1;
	if (!h->rr_port || !h->sw_accept || (n->va.accept_ptr && !h->va_accept) || !h->cr_last ||
	    net_flit_scratch_make(&h->sw, &h->asks, kin, nout) || !h->ready || !h->wheel_head ||
	    !h->with_flits || !h->with_credits || !h->fbox || !h->cbox || !h->pbox || !h->rbox ||
	    !h->left || !h->queued)
		return -1;
	for (int64_t i = 0; i < n->wheel.slots; i++)
		h->wheel_head[i] = -1;
	return 0;
}

int net_flit_par_create(struct flit_net *n, int maxin, int maxout, struct cmn_err *e)
{
	const struct flit_params *p = &n->p;
	if (p->vc_pick_dim || p->adaptive == 2 || p->adaptive == 3)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: threads=2 does not take random draws "
		                   "(vc_pick=dimension, routing=random or routing=fsin, as the "
		                   "insee preset sets): their order would depend on the threads");
	size_t size = (sizeof(struct flit_par) + 127) / 128 * 128; /* its alignment */
	struct flit_par *P = aligned_alloc(128, size);
	if (!P)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	memset(P, 0, size);
	P->n = n;
	P->spin = 4000;
	n->par = P;
	P->owner = flit_lines_malloc(1, (size_t)n->nv);
	if (!P->owner)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	if (partition(n, P->owner, e))
		return e->code;
	n->pkts.injected = flit_lines_calloc((size_t)n->nodes, sizeof *n->pkts.injected);
	if (!n->pkts.injected || wires_apart(n, P->owner))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int l = 0; l < n->nl; l++)
		if (n->ch.cycles[l] == 0 &&
		    P->owner[n->m->links[l].src] != P->owner[n->m->links[l].dst])
			return cmn_err_set(e, CMN_EUSAGE,
			                   "flit network: threads=2: link %d takes no cycle and "
			                   "joins the two halves",
			                   l);
	for (int t = 0; t < 2; t++) {
		P->part[t].thr.P = P;
		P->part[t].thr.t = t;
		if (thr_make(n, &P->part[t].thr, maxin, maxout))
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		view_make(P, t);
	}
	if (cmn_cleanup_thread(&P->worker, worker, P))
		return cmn_err_set(e, CMN_ENOMEM, "flit network: cannot start a thread");
	P->started = 1;
	return 0;
}

void net_flit_par_destroy(struct flit_par *P)
{
	if (!P)
		return;
	if (P->started) {
		atomic_store(&P->quit, 1);
		atomic_fetch_add(&P->go, 1);
		changed(P);
		pthread_join(P->worker, NULL);
	}
	for (int t = 0; t < 2; t++) {
		thr_free(&P->part[t].thr);
		free(P->part[t].view.pkts.pool);
		free(P->part[t].view.pkts.routes);
	}
	free(P->owner);
	free(P);
}

/* One cycle of the flit network (flit_internal.h): the flits and credits
 * the wires deliver, the injections, the routers. Compiled as it is
 * (net_flit_cycle, any mode, each vertex's router through the network's
 * router_cycle) and into each kernel of flit_kernel.def after
 * flit_router.c (net_flit_kernel_NAME_cycle: the mode's constant folded,
 * its router code called directly). */
#include <stdlib.h>

#ifndef FLIT_KERNEL_MODE
#include "flit_internal.h"
#define CYCLE_FN        net_flit_cycle
#define ROUTER_CYCLE(n) ((n)->router_cycle)
#else
#define CYCLE_FN        KERNEL_CAT(FLIT_KERNEL_FN, _cycle)
#define ROUTER_CYCLE(n) FLIT_KERNEL_FN
#endif

static int load_injection(struct flit_net *n, int x)
{
	struct vc *c = vc_of(n, n->nl + x, 0);
	int k = n->pkts.queue_head[x];
	if (c->count || k < 0)
		return 0;
	struct packet *q = &n->pkts.pool[k];
	n->pkts.queue_head[x] = q->next;
	if (n->pkts.queue_head[x] < 0) {
		n->pkts.queue_tail[x] = -1;
		n->pkts.queued_nodes[x >> 6] &= ~(UINT64_C(1) << (x & 63));
	}
	if (c->cap < q->len) {
		struct flit *f = realloc(c->buf, (size_t)q->len * sizeof *f);
		if (!f)
			return -1;
		c->buf = f;
		c->cap = q->len;
	}
	c->first = 0;
	int64_t ready = q->created + n->p.inject_delay; /* a node holds no router delay */
	if (ready < n->now)
		ready = n->now;
	for (int i = 0; i < q->len; i++)
		c->buf[c->count++] = (struct flit){ready, k, -1, i == 0, i == q->len - 1};
	c->front_ready = ready;
	vc_front(n, vc_id(n, n->nl + x, 0));
	return 0;
}

static void routers(struct flit_net *n, void (*done)(void *, const struct flit_delivery *),
                    void *ctx, int *at)
{
	size_t slot = (size_t)(n->now & (n->wheel.slots - 1));
	int g = n->wheel.head[slot];
	n->wheel.head[slot] = -1;
	while (g >= 0) { /* vc_front may put one in a later slot */
		int next = n->in[g].wheel_next;
		vc_front(n, (size_t)g);
		g = next;
	}
	for (int w = 0; w <= (n->nv - 1) >> 6; w++)
		for (int from = 0; from < 64;) {
			uint64_t b = n->rt.ready[w] & (~UINT64_C(0) << from);
			if (!b)
				break;
			int bit = __builtin_ctzll(b), x = (w << 6) + bit;
			if (at)
				*at = x;
			ROUTER_CYCLE(n)(n, x, done, ctx);
			from = bit + 1;
		}
}

void CYCLE_FN(struct flit_net *n, void (*done)(void *, const struct flit_delivery *), void *ctx,
              int *oom)
{
	int kept = 0;
	for (int i = 0; i < n->ch.nwith_flits; i++) { /* only links with flits on the wire */
		int l = n->ch.with_flits[i];
		if (net_flit_wire_in(n, l))
			*oom = 2;
		if (net_flit_wire_busy(n, l))
			n->ch.with_flits[kept++] = l;
	}
	n->ch.nwith_flits = kept;
	kept = 0;
	for (int i = 0; i < n->cr.nwith_credits; i++) { /* and with credits on the wire */
		int l = n->cr.with_credits[i];
		net_flit_wire_credits_in(n, l);
		if (net_flit_credits_busy(n, l))
			n->cr.with_credits[kept++] = l;
	}
	n->cr.nwith_credits = kept;
	for (int w = 0; w <= (n->nodes - 1) >> 6; w++) /* nodes with queued packets */
		for (uint64_t b = n->pkts.queued_nodes[w]; b; b &= b - 1)
			if (load_injection(n, (w << 6) + __builtin_ctzll(b)))
				*oom = 1;
	routers(n, done, ctx, NULL);
	n->now++;
}

#ifndef FLIT_KERNEL_MODE
int net_flit_load_injection(struct flit_net *n, int x)
{
	return load_injection(n, x);
}

void net_flit_routers(struct flit_net *n, void (*done)(void *, const struct flit_delivery *),
                      void *ctx, int *at)
{
	routers(n, done, ctx, at);
}
#endif

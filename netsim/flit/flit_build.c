/* Building the flit-level network (flit_net.h) from a machine and the
 * parameters, by what it builds: the links' timing, the channels (VC
 * buffers, credits, wires, the cycle loop's per-link and per-node state),
 * the routers' ports, the allocators' scratch, the route cache, the
 * datelines and grid dimensions of tori and meshes, the distances of
 * adaptive routing; and taking it down. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/checked.h"
#include "flit_internal.h"
#include "flit_par.h"

/* The dimension grid machine g's link k runs along (-1: a node's link),
 * and in *span how far apart its ends' coordinates are there. */
static int grid_link_dim(const struct plat_machine *g, const struct plat_link *k, int nd, int *span)
{
	int a[PLAT_MAX_DIMS], b[PLAT_MAX_DIMS], dim = -1;
	*span = 0;
	if (k->src < g->nodes || k->dst < g->nodes)
		return -1;
	plat_coords(g, g->vertices[k->src].index, a);
	plat_coords(g, g->vertices[k->dst].index, b);
	for (int d = 0; d < nd; d++)
		if (a[d] != b[d])
			dim = d, *span = abs(a[d] - b[d]);
	return dim;
}

/* bubble_at=local: for each ring link out of router x, the ring link into
 * x that carries packets the same way (from x's other neighbour in that
 * dimension; -1 for none: rings of two). */
static int mark_ring_prev(struct flit_net *n, struct cmn_err *e)
{
	const struct plat_link *lk = n->m->links;
	if (!(n->ch.ring_prev =
	          flit_lines_malloc(1, ((size_t)n->nl + 1) * sizeof *n->ch.ring_prev)))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int l = 0; l < n->nl; l++)
		n->ch.ring_prev[l] = -1;
	for (int in = 0; in < n->nl; in++) {
		int x = lk[in].dst;
		for (int i = n->rt.out_first[x];
		     n->ch.ring_dim[in] >= 0 && i < n->rt.out_first[x + 1]; i++) {
			int out = n->rt.out_link[i];
			if (n->ch.ring_dim[out] == n->ch.ring_dim[in] && lk[out].dst != lk[in].src)
				n->ch.ring_prev[out] = in;
		}
	}
	return 0;
}

/* On a torus (datelines or bubbles): each router link's dimension and
 * whether it is a ring's wraparound link (the dateline); the links of
 * nodes and of wide-area networks have none. A multi-cluster machine of
 * tori gets every cluster's ring links marked (cluster c's link i is
 * c x the cluster's link count + i). */
static int mark_datelines(struct flit_net *n, struct cmn_err *e)
{
	const struct plat_machine *m = n->m, *g = m;
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS], any = 0, copies = 1;
	struct cmn_err ignore;
	if (plat_multicluster_shape(m, &copies, NULL, NULL, &ignore) == 0 &&
	    !(g = plat_multicluster_inner(m)))
		return 0; /* flat clusters */
	if (plat_grid_shape(g, &nd, dims, wrap, &ignore))
		return 0; /* not a mesh or torus */
	for (int d = 0; d < nd; d++)
		any |= wrap[d] && dims[d] > 2;
	if (!any)
		return 0;
	if (n->p.dateline == 2 && copies > 1)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: deadlock=partition is for plain tori, not %s",
		                   m->spec);
	if (n->p.dateline && n->p.vcs < 2)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: datelines on %s need vcs >= 2 (or deadlock=none)",
		                   m->spec);
	if (n->p.bubble && !n->p.cut_through)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: bubble flow control on %s needs switching=vct",
		                   m->spec);
	n->ch.ring_dim = flit_lines_malloc(1, (size_t)n->nl + 1);
	n->ch.wraps = flit_lines_calloc((size_t)n->nl + 1, 1);
	n->rt.ndims = nd;
	n->rt.coords = copies == 1
	                   ? flit_lines_malloc(1, (size_t)n->nv * (size_t)nd * sizeof *n->rt.coords)
	                   : NULL;
	if (!n->ch.ring_dim || !n->ch.wraps || (copies == 1 && !n->rt.coords))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int v = 0; copies == 1 && v < n->nv; v++) { /* coordinates of switches and nodes */
		int c[PLAT_MAX_DIMS];
		plat_coords(g, g->vertices[v].index, c);
		for (int d = 0; d < nd; d++)
			n->rt.coords[(size_t)v * (size_t)nd + (size_t)d] = c[d];
	}
	memset(n->ch.ring_dim, -1, (size_t)n->nl + 1);
	for (int l = 0; l < g->nlinks; l++) {
		int span, dim = grid_link_dim(g, &g->links[l], nd, &span);
		int wr = dim >= 0 && wrap[dim] && dims[dim] > 2 && span == dims[dim] - 1;
		for (int c = 0; c < copies; c++) {
			n->ch.ring_dim[c * g->nlinks + l] = (signed char)dim;
			n->ch.wraps[c * g->nlinks + l] = (char)wr;
		}
	}
	return n->p.bubble && n->p.bubble_local ? mark_ring_prev(n, e) : 0;
}

/* vc_pick=dimension: each router link's dimension on a plain mesh or torus
 * (other machines keep vc_pick=first: no dimensions). */
static int mark_grid_dims(struct flit_net *n, struct cmn_err *e)
{
	const struct plat_machine *m = n->m;
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS];
	struct cmn_err ignore;
	if (plat_grid_shape(m, &nd, dims, wrap, &ignore))
		return 0;
	if (!(n->ch.grid_dim = flit_lines_malloc(1, (size_t)n->nl + 1)))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int l = 0; l < n->nl; l++) {
		int span;
		n->ch.grid_dim[l] = (signed char)grid_link_dim(m, &m->links[l], nd, &span);
	}
	return 0;
}

/* Adaptive routing: hop counts from every vertex to every node (a
 * breadth-first search from each node over the links backwards). */
static int build_dist(struct flit_net *n, struct cmn_err *e)
{
	int k, levels;
	if (plat_kary_ntree_shape(n->m, &k, &levels, e) && !(n->p.adaptive == 2 && n->rt.coords))
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: routing=%s is for k-ary n-trees (up-phase "
		                   "choices, deadlock-free there)%s, not %s",
		                   n->p.adaptive == 2   ? "random"
		                   : n->p.adaptive == 3 ? "fsin"
		                                        : "adaptive",
		                   n->p.adaptive == 2 ? " and plain tori (dimension order, ties "
		                                        "either way)"
		                                      : "",
		                   n->m->spec);
	size_t nv = (size_t)n->nv, nodes = (size_t)n->nodes;
	n->rt.dist =
	    flit_lines_malloc(1, cmn_size_mul(cmn_size_mul(nv, nodes), sizeof *n->rt.dist));
	n->rt.tie = flit_lines_calloc(nv, sizeof *n->rt.tie);
	n->rt.picked = flit_lines_malloc(1, ((size_t)n->nl + 1) * sizeof *n->rt.picked);
	int *queue = flit_lines_malloc(1, nv * sizeof *queue);
	if (!n->rt.dist || !n->rt.tie || !n->rt.picked || !queue) {
		free(queue);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < nv * nodes; i++)
		n->rt.dist[i] = USHRT_MAX;
	for (int l = 0; l <= n->nl; l++)
		n->rt.picked[l] = -1;
	for (int t = 0; t < n->nodes; t++) {
		int head = 0, tail = 0;
		n->rt.dist[(size_t)t * nodes + (size_t)t] = 0;
		queue[tail++] = t;
		while (head < tail) {
			int v = queue[head++];
			for (int i = n->rt.port_first[v]; i < n->rt.port_first[v + 1]; i++) {
				int l = n->rt.port[i];
				if (l >= n->nl)
					continue; /* an injection port */
				int u = n->m->links[l].src;
				if (n->rt.dist[(size_t)u * nodes + (size_t)t] == USHRT_MAX) {
					n->rt.dist[(size_t)u * nodes + (size_t)t] =
					    (unsigned short)(n->rt.dist[(size_t)v * nodes +
					                                (size_t)t] +
					                     1);
					queue[tail++] = u;
				}
			}
		}
	}
	free(queue);
	return 0;
}

double net_flit_cycle_s(const struct plat_machine *m, int flit_bytes)
{
	for (int l = 0; l < m->nlinks; l++)
		if (m->links[l].src < m->nodes && m->links[l].bw_bps > 0)
			return flit_bytes / m->links[l].bw_bps;
	return 0;
}

/* The cycles a flit arriving at vertex x stays there before it may leave:
 * switches hold it the router delay (with pipeline=packet a body or tail
 * flit only the last two stages; with vc_alloc=islip a head one cycle
 * less, its VC allocation coming the cycle before), nodes do not. */
static int ready_hold(const struct flit_net *n, int x, int head)
{
	int R = n->p.router_delay;
	if (x < n->nodes)
		return 0;
	if (head && n->p.va_islip)
		return R - 1;
	return n->p.vc_pipeline && !head && R > 2 ? 2 : R;
}

/* Each link's delay, gap between flits and VC buffer size, and its wire
 * slots: with links=cycles the parameters' delays, a flit per cycle, buf;
 * with links=platform the machine's latency in cycles, its bandwidth as a
 * fraction of the node links' (a flit every gap cycles), and buffers deep
 * enough to keep that rate over the credit round trip. */
static int link_timing(struct flit_net *n, struct cmn_err *e)
{
	const struct plat_machine *m = n->m;
	const struct flit_params *p = &n->p;
	double cyc = net_flit_cycle_s(m, p->flit_bytes), bw = cyc > 0 ? p->flit_bytes / cyc : 0;
	if (p->platform_links && !(cyc > 0))
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: %s has no node links to set a clock", m->spec);
	size_t at = 0;
	for (int l = 0; l < n->nl; l++) {
		const struct plat_link *k = &m->links[l];
		int node = k->src < n->nodes || k->dst < n->nodes;
		n->ch.cycles[l] = node ? p->node_link_delay : p->link_delay;
		n->ch.hold_for[2 * l] = ready_hold(n, k->dst, 0);
		n->ch.hold_for[2 * l + 1] = ready_hold(n, k->dst, 1);
		n->ch.gap[l] = 1;
		n->ch.vc_buf_flits[l] = p->buf;
		if (p->platform_links) {
			double d = k->lat_s / cyc, g = k->bw_bps > 0 ? bw / k->bw_bps : 1;
			if (d > 1e9 || g > 1e9)
				return cmn_err_set(
				    e, CMN_EUSAGE,
				    "flit network: link %d-%d of %s: %g s and %g B/s "
				    "are more than 1e9 cycles",
				    k->src, k->dst, m->spec, k->lat_s, k->bw_bps);
			n->ch.cycles[l] = d < 1 ? 1 : (int)llround(d);
			n->ch.gap[l] = g <= 1 ? 1 : (int)ceil(g - 1e-9);
			long rtt = 2L * n->ch.cycles[l] + p->router_delay + 1;
			long need = (rtt + n->ch.gap[l] - 1) / n->ch.gap[l] + 1;
			n->ch.vc_buf_flits[l] = need > p->buf ? (int)need : p->buf;
		}
		/* a ring of at least delay + 1 slots, a power of two so that a
		 * cycle's slot is a mask away */
		size_t ring = 1;
		while (ring < (size_t)n->ch.cycles[l] + 1)
			ring <<= 1;
		n->ch.wire_first[l] = at;
		n->ch.wire_mask[l] = (int64_t)ring - 1;
		at = cmn_size_add(at, ring);
	}
	n->ch.wire_first[n->nl] = at;
	int most = 1; /* the slowest link's gap, counted when above one cycle */
	for (int l = 0; l < n->nl; l++)
		most = n->ch.gap[l] > most ? n->ch.gap[l] : most;
	n->stall_slack =
	    (int64_t)p->router_delay + p->inject_delay + p->eject_delay + (most > 1 ? most : 0);
	return 0;
}

/* The parameters' own limits. */
static int check_params(const struct flit_params *p, struct cmn_err *e)
{
	if (p->vcs < 1 || p->buf < 1 || p->link_delay < 1 || p->watchdog < 1 ||
	    p->router_delay < 0 || p->node_link_delay < 0 || p->inject_delay < 0 ||
	    p->eject_delay < 0)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: vcs, buf, link_delay and watchdog must be at "
		                   "least 1, the other delays at least 0");
	if (p->va_islip && p->router_delay < 1)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: vc_alloc=islip needs router_delay >= 1 (VC "
		                   "allocation takes the cycle before switch allocation)");
	return 0;
}

enum { ROUTE_CACHE_MAX = 16 << 20 }; /* bytes of cached routes (make_route_cache) */

static int nomem(struct cmn_err *e)
{
	return cmn_err_set(e, CMN_ENOMEM, "out of memory");
}

/* Per link: its timing (delays, gaps, buffer sizes, wire slots). */
static int make_link_timing(struct flit_net *n, struct cmn_err *e)
{
	n->ch.cycles = flit_lines_malloc(1, ((size_t)n->nl + 1) * sizeof *n->ch.cycles);
	n->ch.gap = flit_lines_malloc(1, ((size_t)n->nl + 1) * sizeof *n->ch.gap);
	n->ch.vc_buf_flits = flit_lines_malloc(1, ((size_t)n->nl + 1) * sizeof *n->ch.vc_buf_flits);
	n->ch.wire_first = flit_lines_malloc(1, ((size_t)n->nl + 1) * sizeof *n->ch.wire_first);
	n->ch.wire_mask = flit_lines_malloc(1, ((size_t)n->nl + 1) * sizeof *n->ch.wire_mask);
	n->ch.hold_for = flit_lines_malloc(1, ((size_t)n->nl + 1) * 2 * sizeof *n->ch.hold_for);
	if (!n->ch.cycles || !n->ch.gap || !n->ch.vc_buf_flits || !n->ch.wire_first ||
	    !n->ch.wire_mask || !n->ch.hold_for)
		return nomem(e);
	return link_timing(n, e);
}

/* The VCs (their buffers in one slab, their credits), the wires, the
 * per-link, per-port and per-node state of the cycle loop, the timing
 * wheel. nvc: the links' VCs; allvc with the injection ports'. */
static int make_channels(struct flit_net *n, size_t nvc, size_t allvc, struct cmn_err *e)
{
	const struct flit_params *p = &n->p;
	size_t nports = (size_t)n->nl + (size_t)n->nodes;
	n->in = flit_lines_calloc(allvc, sizeof *n->in);
	n->cr.count = flit_lines_malloc(1, cmn_size_mul(nvc ? nvc : 1, sizeof *n->cr.count));
	n->ch.vcs_taken = flit_lines_calloc((size_t)n->nl + 1, sizeof *n->ch.vcs_taken);
	n->ch.wire = flit_lines_malloc(
	    1, cmn_size_add(cmn_size_mul(n->ch.wire_first[n->nl], sizeof *n->ch.wire), 1));
	n->cr.wire =
	    flit_lines_calloc(cmn_size_add(n->ch.wire_first[n->nl], 1), sizeof *n->cr.wire);
	n->rt.port_first = flit_lines_calloc((size_t)n->nv + 1, sizeof *n->rt.port_first);
	n->rt.port = flit_lines_malloc(1, nports * sizeof *n->rt.port);
	n->rt.rr_vertex = flit_lines_calloc((size_t)n->nv, sizeof *n->rt.rr_vertex);
	n->rt.rr_port = flit_lines_calloc(nports, sizeof *n->rt.rr_port);
	n->rt.rr_link = flit_lines_calloc((size_t)n->nl + 1, sizeof *n->rt.rr_link);
	n->ch.last_sent = flit_lines_malloc(1, ((size_t)n->nl + 1) * sizeof *n->ch.last_sent);
	n->rt.last_ejected = flit_lines_malloc(1, (size_t)n->nodes * sizeof *n->rt.last_ejected);
	n->ch.flits_carried = flit_lines_calloc((size_t)n->nl + 1, sizeof *n->ch.flits_carried);
	n->pkts.queue_head = flit_lines_malloc(1, (size_t)n->nodes * sizeof *n->pkts.queue_head);
	n->pkts.queue_tail = flit_lines_malloc(1, (size_t)n->nodes * sizeof *n->pkts.queue_tail);
	n->rt.out_first = flit_lines_calloc((size_t)n->nv + 1, sizeof *n->rt.out_first);
	n->rt.out_link = flit_lines_malloc(1, ((size_t)n->nl + 1) * sizeof *n->rt.out_link);
	n->rt.out_index = flit_lines_malloc(1, ((size_t)n->nl + 1) * sizeof *n->rt.out_index);
	n->sw.grant_ptr = flit_lines_calloc(nports, sizeof *n->sw.grant_ptr);
	n->rt.output_holder = flit_lines_malloc(1, nports * sizeof *n->rt.output_holder);
	n->rt.ready = flit_lines_calloc((size_t)n->nv / 64 + 1, sizeof *n->rt.ready);
	for (n->wheel.slots = 4;
	     n->wheel.slots <= p->router_delay + 1;) /* a flit's ready cycle fits */
		n->wheel.slots *= 2;
	n->wheel.head = flit_lines_malloc(1, (size_t)n->wheel.slots * sizeof *n->wheel.head);
	n->pkts.queued_nodes =
	    flit_lines_calloc((size_t)n->nodes / 64 + 1, sizeof *n->pkts.queued_nodes);
	n->cr.last = flit_lines_malloc((size_t)n->nl + 1, sizeof *n->cr.last);
	n->ch.with_flits = flit_lines_malloc(1, ((size_t)n->nl + 1) * sizeof *n->ch.with_flits);
	n->cr.with_credits = flit_lines_malloc(1, ((size_t)n->nl + 1) * sizeof *n->cr.with_credits);
	n->sw.accept_ptr = flit_lines_calloc(allvc, sizeof *n->sw.accept_ptr);
	int ok = n->in && n->cr.count && n->ch.vcs_taken && n->ch.wire && n->cr.wire &&
	         n->rt.port_first && n->rt.port && n->rt.rr_vertex && n->rt.rr_port &&
	         n->rt.rr_link && n->ch.last_sent && n->rt.last_ejected && n->ch.flits_carried &&
	         n->pkts.queue_head && n->pkts.queue_tail && n->rt.out_first && n->rt.out_link &&
	         n->rt.out_index && n->sw.grant_ptr && n->sw.accept_ptr && n->rt.output_holder &&
	         n->rt.ready && n->wheel.head && n->pkts.queued_nodes && n->cr.last &&
	         n->ch.with_flits && n->cr.with_credits;
	if (!ok)
		return nomem(e);
	size_t slab = 0; /* the link VCs' buffers, one after another */
	for (int l = 0; l < n->nl; l++)
		slab =
		    cmn_size_add(slab, cmn_size_mul((size_t)n->ch.vc_buf_flits[l], (size_t)p->vcs));
	double mb = (double)slab * (double)sizeof *n->fslab / 1048576.0;
	if (!(n->fslab = flit_lines_malloc(1, cmn_size_mul(slab ? slab : 1, sizeof *n->fslab))))
		return slab > ((size_t)1 << 20)
		           ? cmn_err_set(
		                 e, CMN_ENOMEM,
		                 "flit network: out of memory for the VCs' buffers (%.0f MB: "
		                 "%d links x vcs=%d x buf=%d flits)",
		                 mb, n->nl, p->vcs, p->buf)
		           : nomem(e);
	for (size_t i = 0, at = 0; i < nvc; i++) {
		int cap = n->ch.vc_buf_flits[i / (size_t)p->vcs];
		n->in[i].cap = cap;
		n->in[i].out_vc = -1;
		n->in[i].buf = n->fslab + at;
		at += (size_t)cap;
		n->cr.count[i] = cap;
	}
	for (size_t i = nvc; i < allvc; i++)
		n->in[i].out_vc = -1; /* injection buffers: sized per packet */
	for (int i = 0; i < n->nodes; i++) {
		n->pkts.queue_head[i] = n->pkts.queue_tail[i] = -1;
		n->rt.last_ejected[i] = -1;
	}
	for (size_t i = 0; i < n->ch.wire_first[n->nl]; i++)
		n->ch.wire[i].vc = -1;
	for (int64_t i = 0; i < n->wheel.slots; i++)
		n->wheel.head[i] = -1;
	for (int l = 0; l <= n->nl; l++)
		n->ch.last_sent[l] = n->cr.last[l] = INT64_MIN / 2; /* long ago: a slow link is free
		                                                       at once, wires empty */
	for (size_t i = 0; i < nports; i++)
		n->rt.output_holder[i] = -1;
	return 0;
}

/* The input ports of each vertex (its entering links, then its injection)
 * and the counts of its out links; the widest vertex's ports and links
 * into *maxin and *maxout. */
static int make_ports(struct flit_net *n, int *maxin, int *maxout, struct cmn_err *e)
{
	const struct plat_machine *m = n->m;
	for (int l = 0; l < n->nl; l++)
		n->rt.port_first[m->links[l].dst + 1]++;
	for (int x = 0; x < n->nodes; x++)
		n->rt.port_first[x + 1]++;
	for (int x = 0; x < n->nv; x++)
		n->rt.port_first[x + 1] += n->rt.port_first[x];
	int *fill = flit_lines_calloc((size_t)n->nv, sizeof *fill);
	if (!fill)
		return nomem(e);
	for (int l = 0; l < n->nl; l++) {
		int x = m->links[l].dst;
		n->rt.port[n->rt.port_first[x] + fill[x]++] = l;
	}
	for (int x = 0; x < n->nodes; x++)
		n->rt.port[n->rt.port_first[x] + fill[x]++] = n->nl + x;
	free(fill);
	for (int l = 0; l < n->nl; l++)
		n->rt.out_first[m->links[l].src + 1]++;
	*maxin = 1, *maxout = 1;
	for (int x = 0; x < n->nv; x++) {
		int np = n->rt.port_first[x + 1] - n->rt.port_first[x], no = n->rt.out_first[x + 1];
		*maxin = np > *maxin ? np : *maxin;
		*maxout = no > *maxout ? no : *maxout;
		n->rt.out_first[x + 1] += n->rt.out_first[x];
	}
	if (*maxout >= 65535 || (long)*maxin * n->p.vcs >= 32768) /* allocate()'s pairs */
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: a vertex of %s has %d ports and %d links out; "
		                   "at most 32767 input VCs and 65534 links out are supported",
		                   m->spec, *maxin, *maxout);
	return 0;
}

int net_flit_scratch_make(struct flit_switch_alloc *sw, struct va_ask **asks, size_t kin,
                          size_t nout)
{
	sw->req = flit_lines_malloc(1, kin * sizeof *sw->req);
	sw->req_vcs = flit_lines_malloc(1, kin * sizeof *sw->req_vcs);
	sw->req_outs = flit_lines_malloc(1, kin * sizeof *sw->req_outs);
	sw->input_used = flit_lines_calloc(kin, sizeof *sw->input_used);
	sw->output_used = flit_lines_malloc(1, nout * sizeof *sw->output_used);
	sw->grant = flit_lines_malloc(1, nout * sizeof *sw->grant);
	sw->asked_outs = flit_lines_malloc(1, nout * sizeof *sw->asked_outs);
	sw->grant_call = flit_lines_calloc(nout, sizeof *sw->grant_call);
	sw->islip_reqs = flit_lines_calloc(nout, sizeof *sw->islip_reqs);
	sw->islip_grants = flit_lines_calloc(kin, sizeof *sw->islip_grants);
	*asks = flit_lines_malloc(1, kin * sizeof **asks);
	if (!sw->req || !sw->req_vcs || !sw->req_outs || !sw->input_used || !sw->output_used ||
	    !sw->grant || !sw->asked_outs || !sw->grant_call || !sw->islip_reqs ||
	    !sw->islip_grants || !*asks)
		return -1;
	for (size_t k = 0; k < kin; k++) /* no requests between calls */
		sw->req[k] = -1;
	return 0;
}

void net_flit_scratch_free(struct flit_switch_alloc *sw, struct va_ask *asks)
{
	free(sw->req);
	free(sw->req_vcs);
	free(sw->req_outs);
	free(sw->input_used);
	free(sw->output_used);
	free(sw->grant);
	free(sw->asked_outs);
	free(sw->grant_call);
	free(sw->islip_reqs);
	free(sw->islip_grants);
	free(asks);
}

/* The allocators' scratch for the widest vertex, each VC's vertex and
 * local index, each vertex's out links in order. */
static int make_allocation(struct flit_net *n, int maxin, int maxout, struct cmn_err *e)
{
	const struct flit_params *p = &n->p;
	size_t nvc = (size_t)n->nl * (size_t)p->vcs, nports = (size_t)n->nl + (size_t)n->nodes;
	n->rt.mask_words = (maxin * p->vcs + 63) / 64;
	n->rt.ready_mask =
	    flit_lines_calloc((size_t)n->nv * (size_t)n->rt.mask_words, sizeof *n->rt.ready_mask);
	int *fill = flit_lines_calloc((size_t)n->nv, sizeof *fill);
	n->rt.local_port =
	    flit_lines_malloc(1, (size_t)maxin * (size_t)p->vcs * sizeof *n->rt.local_port);
	n->rt.local_vc =
	    flit_lines_malloc(1, (size_t)maxin * (size_t)p->vcs * sizeof *n->rt.local_vc);
	n->rt.local_vc_index =
	    flit_lines_malloc(1, ((size_t)n->rt.port_first[n->nv] * (size_t)p->vcs + 1) *
	                             sizeof *n->rt.local_vc_index);
	if (p->va_islip) {
		n->va.grant_ptr = flit_lines_calloc(nvc ? nvc : 1, sizeof *n->va.grant_ptr);
		n->va.accept_ptr =
		    flit_lines_calloc(nports * (size_t)p->vcs, sizeof *n->va.accept_ptr);
	}
	int scratch = net_flit_scratch_make(&n->sw, &n->va.asks, (size_t)maxin * (size_t)p->vcs,
	                                    (size_t)maxout + 1);
	if (!n->rt.ready_mask || !fill || scratch || !n->rt.local_port || !n->rt.local_vc ||
	    !n->rt.local_vc_index || (p->va_islip && (!n->va.grant_ptr || !n->va.accept_ptr))) {
		free(fill);
		return nomem(e);
	}
	for (int k = 0; k < maxin * p->vcs; k++)
		n->rt.local_port[k] = k / p->vcs, n->rt.local_vc[k] = k % p->vcs;
	for (int x = 0; x < n->nv; x++) /* each VC's vertex and local index there */
		for (int i = 0; i < n->rt.port_first[x + 1] - n->rt.port_first[x]; i++) {
			int port = n->rt.port[n->rt.port_first[x] + i];
			for (int v = 0; v < (port < n->nl ? p->vcs : 1); v++) {
				size_t g = vc_id(n, port, v);
				n->in[g].vertex = x;
				n->in[g].local = i * p->vcs + v;
				n->in[g].port = port;
				n->in[g].port_vc = v;
				n->rt.local_vc_index[(size_t)n->rt.port_first[x] * (size_t)p->vcs +
				                     (size_t)n->in[g].local] = (int)g;
			}
		}
	for (int l = 0; l < n->nl; l++) {
		int x = n->m->links[l].src;
		n->rt.out_index[l] = fill[x];
		n->rt.out_link[n->rt.out_first[x] + fill[x]++] = l;
	}
	free(fill);
	return 0;
}

/* Deterministic routes cached per node pair when that takes at most
 * ROUTE_CACHE_MAX bytes. */
static int make_route_cache(struct flit_net *n, struct cmn_err *e)
{
	size_t pairs = (size_t)n->nodes * (size_t)n->nodes;
	if (n->p.adaptive || n->pkts.max_route <= 0 ||
	    cmn_size_mul(cmn_size_mul(pairs, (size_t)n->pkts.max_route + 1), sizeof(int)) >
	        ROUTE_CACHE_MAX)
		return 0;
	n->pkts.cache =
	    flit_lines_malloc(1, pairs * (size_t)n->pkts.max_route * sizeof *n->pkts.cache);
	n->pkts.cache_len = flit_lines_malloc(1, pairs * sizeof *n->pkts.cache_len);
	if (!n->pkts.cache || !n->pkts.cache_len)
		return nomem(e);
	for (size_t i = 0; i < pairs; i++)
		n->pkts.cache_len[i] = -1;
	return 0;
}

/* What the network's state will take, from the links' timing (their
 * buffers' sizes and wire slots, made first): every array made below, by
 * the VC, link, port, vertex and node, and adaptive routing's table of
 * distances from every vertex to every node. Its parts, in bytes: the VCs'
 * buffers, their records, the distance table, the rest. test_flit_memory checks
 * the sum against what malloc hands out. */
struct state_parts {
	double buffers, vcs, dist, rest;
};

static struct state_parts state_bytes(const struct flit_net *n, size_t nvc, size_t allvc)
{
	const struct flit_params *p = &n->p;
	double nl = (double)n->nl + 1, nv = (double)n->nv + 1, nodes = (double)n->nodes,
	       ports = (double)n->nl + nodes, wires = (double)n->ch.wire_first[n->nl], slab = 0;
	for (int l = 0; l < n->nl; l++)
		slab += (double)n->ch.vc_buf_flits[l] * p->vcs;
	int *in = flit_lines_calloc((size_t)n->nv, sizeof *in), most = 1; /* input ports a vertex */
	for (int l = 0; in && l < n->nl; l++)
		in[n->m->links[l].dst]++;
	for (int x = 0; in && x < n->nv; x++)
		most = in[x] + (x < n->nodes) > most ? in[x] + (x < n->nodes) : most;
	free(in);
	double mask_words = (double)(((long)most * p->vcs + 63) / 64);
	struct state_parts s = {.buffers = slab * (double)sizeof(struct flit)};
	/* per VC: its record, credits, accept pointer, local index; VC allocation's pointers */
	s.vcs = (double)allvc * (double)(sizeof(struct vc) + 2 * sizeof(int)) +
	        (double)nvc * (double)sizeof(int) +
	        (p->va_islip ? (double)(nvc + allvc) * (double)sizeof(int) : 0);
	if (p->adaptive)
		s.dist = (double)n->nv * nodes * (double)sizeof *n->rt.dist;
	/* wires; per link 19 words' worth of state and timing (taken, sent,
	 * carried, routes out, slots, lists, rings, hold times, ...); per port
	 * 4 ints; per vertex 4 ints and its ready masks; per node 4 words */
	s.rest = wires * (double)(sizeof(struct wire) + sizeof(uint64_t)) + nl * 19 * 4.0 +
	         ports * 4 * 4.0 + nv * (16.0 + 8 * mask_words) + nodes * 32.0;
	double pairs = nodes * nodes, cache = pairs * (n->pkts.max_route + 1) * (double)sizeof(int);
	if (!p->adaptive && n->pkts.max_route > 0 && cache <= ROUTE_CACHE_MAX)
		s.rest += cache; /* make_route_cache */
	return s;
}

int net_flit_net_create(const struct plat_machine *m, const struct flit_params *p,
                        struct flit_net **out, struct cmn_err *e)
{
	if (check_params(p, e))
		return e->code;
	struct flit_net *n = flit_lines_calloc(1, sizeof *n);
	if (!n)
		return nomem(e);
	n->m = m;
	n->p = *p;
	n->nv = m->nvertices;
	n->nl = m->nlinks;
	n->nodes = m->nodes;
	n->pkts.max_route = plat_max_route(m);
	n->pkts.route_stride = n->pkts.max_route > 0 ? (size_t)n->pkts.max_route : 1;
	if (p->threads == 2) /* a packet's route on lines of its own: the two threads write
	                        those of their sources' packets */
		n->pkts.route_stride = (n->pkts.route_stride + 15) / 16 * 16;
	n->pkts.free = -1;
	n->last_move = 0;
	if (n->pkts.max_route >
	    SHRT_MAX) { /* a flit's hop index is a short, adaptive distances too */
		free(n);
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: %s has routes of up to %d links; the engine "
		                   "counts hops to %d",
		                   m->spec, plat_max_route(m), SHRT_MAX);
	}
	/* VC v of port i at in[i V + v]: a node's injection port uses its VC 0
	 * (sizes from the machine and the parameters: saturated, so that an
	 * impossible one fails to allocate instead of wrapping around) */
	size_t nvc = cmn_size_mul((size_t)n->nl, (size_t)p->vcs),
	       nports = (size_t)n->nl + (size_t)n->nodes;
	size_t allvc = cmn_size_mul(nports, (size_t)p->vcs);
	if (allvc > INT_MAX) { /* VC ids are ints */
		free(n);
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: %s with vcs=%d makes %zu virtual channels, more "
		                   "than %d",
		                   m->spec, p->vcs, allvc, INT_MAX);
	}
	int maxin = 1, maxout = 1;
	if (make_link_timing(n, e)) {
		net_flit_net_destroy(n);
		return e->code;
	}
	struct state_parts sp = state_bytes(n, nvc, allvc);
	n->state_bytes = sp.buffers + sp.vcs + sp.dist + sp.rest;
	if (p->max_memory_mb > 0 && n->state_bytes > (double)p->max_memory_mb * 1048576.0) {
		char dist[128] = "";
		if (sp.dist > 0)
			snprintf(
			    dist, sizeof dist,
			    "; adaptive routing's hops from every vertex to every node %.0f MB",
			    sp.dist / 1048576.0);
		cmn_err_set(e, CMN_EUSAGE,
		            "flit network: %s takes %.0f MB (the VCs' buffers %.0f MB: %d links x "
		            "vcs=%d x buf=%d flits or more, %zu bytes a flit; the records of its "
		            "%zu VCs %.0f MB%s; the rest %.0f MB), more than max_memory=%ld MB: "
		            "lower vcs or buf%s, or raise max_memory=MB (0: no limit)",
		            m->spec, n->state_bytes / 1048576.0, sp.buffers / 1048576.0, n->nl,
		            p->vcs, p->buf, sizeof(struct flit), allvc, sp.vcs / 1048576.0, dist,
		            sp.rest / 1048576.0, p->max_memory_mb,
		            sp.dist > 0 ? " (routing=deterministic needs no such table)" : "");
		net_flit_net_destroy(n);
		return e->code;
	}
	if (make_channels(n, nvc, allvc, e) || make_ports(n, &maxin, &maxout, e) ||
	    make_allocation(n, maxin, maxout, e) || make_route_cache(n, e) ||
	    ((p->dateline || p->bubble || p->adaptive == 2) && mark_datelines(n, e)) ||
	    (p->vc_pick_dim && mark_grid_dims(n, e)) || (p->adaptive && build_dist(n, e))) {
		net_flit_net_destroy(n);
		return e->code;
	}
	net_flit_kernel_pick(n); /* before the threads copy the network */
	if (p->threads == 2 && net_flit_par_create(n, maxin, maxout, e)) {
		net_flit_net_destroy(n);
		return e->code;
	}
	*out = n;
	return 0;
}

void net_flit_net_destroy(struct flit_net *n)
{
	if (!n)
		return;
	net_flit_par_destroy(n->par);
	for (int x = 0; n->in && x < n->nodes; x++)
		free(vc_of(n, n->nl + x, 0)->buf); /* injection buffers: sized per packet */
	free(n->fslab);
	free(n->in);
	free(n->cr.count);
	free(n->ch.vcs_taken);
	free(n->ch.wire);
	free(n->cr.wire);
	free(n->rt.port_first);
	free(n->rt.port);
	free(n->rt.rr_vertex);
	free(n->rt.rr_port);
	free(n->rt.rr_link);
	free(n->ch.last_sent);
	free(n->rt.last_ejected);
	free(n->ch.flits_carried);
	free(n->ch.cycles);
	free(n->ch.hold_for);
	free(n->ch.gap);
	free(n->ch.vc_buf_flits);
	free(n->ch.wire_first);
	free(n->ch.wire_mask);
	free(n->rt.out_first);
	free(n->rt.out_link);
	free(n->rt.out_index);
	free(n->sw.grant_ptr);
	free(n->rt.output_holder);
	free(n->rt.ready_mask);
	free(n->rt.ready);
	free(n->wheel.head);
	free(n->pkts.queued_nodes);
	free(n->cr.last);
	free(n->ch.with_flits);
	free(n->cr.with_credits);
	free(n->rt.dist);
	free(n->rt.tie);
	free(n->rt.picked);
	free(n->sw.accept_ptr);
	net_flit_scratch_free(&n->sw, n->va.asks);
	free(n->rt.local_port);
	free(n->rt.local_vc);
	free(n->rt.local_vc_index);
	free(n->va.grant_ptr);
	free(n->va.accept_ptr);
	free(n->ch.ring_dim);
	free(n->ch.wraps);
	free(n->ch.ring_prev);
	free(n->rt.coords);
	free(n->ch.grid_dim);
	free(n->pkts.pool);
	free(n->pkts.routes);
	free(n->pkts.cache);
	free(n->pkts.cache_len);
	free(n->pkts.injected);
	free(n->pkts.queue_head);
	free(n->pkts.queue_tail);
	free(n);
}

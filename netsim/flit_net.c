/* The flit-level network (flit_net.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	int dim, crossed;               /* datelines: the dimension of its last router link, and
	                                   whether it crossed that ring's wraparound link */
	int64_t created;
	int *route; /* nhops link ids */
};

/* A virtual channel's buffer (a ring) and its packet's downstream VC. */
struct vc {
	struct flit *f;
	int cap, first, n;
	int out_vc; /* -1: its front packet has none yet */
};

struct wire {
	struct flit f;
	int vc; /* -1: empty */
};

void flit_params_default(struct flit_params *p)
{
	*p = (struct flit_params){4, 8, 1, 1, 0, 1, 10000};
}

const struct cmn_param_def flit_param_defs[] = {
    {"vcs", CMN_PT_INT, "4", 1, 64, NULL, "virtual channels per input port"},
    {"buf", CMN_PT_INT, "8", 1, 1048576, NULL, "flits per virtual channel buffer"},
    {"router_delay", CMN_PT_INT, "1", 1, 1000, NULL,
     "cycles a flit spends in a router before it can leave"},
    {"link_delay", CMN_PT_INT, "1", 1, 1000000, NULL, "cycles a flit spends on a link"},
    {"switching", CMN_PT_CHOICE, "wormhole", 0, 0, "wormhole|vct",
     "wormhole, or virtual cut-through (a head moves only with room for its whole packet)"},
    {"deadlock", CMN_PT_CHOICE, "dateline", 0, 0, "dateline|none",
     "tori: dateline virtual-channel classes (needs vcs >= 2), or none (may deadlock)"},
    {"watchdog", CMN_PT_INT, "10000", 1, 1e9, NULL,
     "cycles without any flit moving, flits in flight, before a deadlock error"},
    {NULL},
};

void flit_params_from(const struct cmn_params *cp, struct flit_params *p)
{
	p->vcs = (int)cmn_params_num(cp, "vcs");
	p->buf = (int)cmn_params_num(cp, "buf");
	p->router_delay = (int)cmn_params_num(cp, "router_delay");
	p->link_delay = (int)cmn_params_num(cp, "link_delay");
	p->cut_through = strcmp(cmn_params_str(cp, "switching"), "vct") == 0;
	p->dateline = strcmp(cmn_params_str(cp, "deadlock"), "dateline") == 0;
	p->watchdog = (long)cmn_params_num(cp, "watchdog");
}

struct flit_net {
	const struct plat_machine *m;
	struct flit_params p;
	int nv, nl, nodes, maxr, span; /* span = L + 1 wire slots per link */
	int64_t now, last_move;
	/* input ports: links 0..nl-1 (V VCs each), then nodes' injection ports */
	struct vc *in;                  /* nl * V link VCs, then one per node */
	int *credits, *busy;            /* per link VC: the upstream side's view */
	struct wire *wire;              /* nl * span */
	int *cwire;                     /* credits on the wire: nl * span VC ids, -1 empty */
	int *port_first, *port;         /* input ports of each vertex: port[port_first[x] ..) */
	int *rr, *vrr, *orr;            /* round-robin pointers: vertex, input port, output link */
	int64_t *out_used, *eject_used; /* the cycle each was last used */
	long *link_flits;
	signed char *ldim, *lwrap; /* datelines: a router link's dimension (-1: none), wrap link */
	struct packet *pk;
	int npk, cappk, freepk; /* free list through next */
	int *qhead, *qtail;     /* injection queues per node */
	long in_flight;
};

static struct vc *vc_of(struct flit_net *n, int port, int v)
{
	return port < n->nl ? &n->in[(size_t)port * n->p.vcs + v]
	                    : &n->in[(size_t)n->nl * n->p.vcs + (port - n->nl)];
}

static int vc_push(struct vc *c, struct flit f)
{
	if (c->n == c->cap)
		return -1;
	c->f[(c->first + c->n++) % c->cap] = f;
	return 0;
}

/* On a torus: each router link's dimension and whether it is its ring's
 * wraparound link (rings of more than 2 routers). */
static int mark_datelines(struct flit_net *n, struct cmn_err *e)
{
	const struct plat_machine *m = n->m;
	int nd, dims[PLAT_MAX_DIMS], wrap[PLAT_MAX_DIMS], any = 0;
	struct cmn_err ignore;
	if (plat_grid_shape(m, &nd, dims, wrap, &ignore))
		return 0; /* not a mesh or torus */
	for (int d = 0; d < nd; d++)
		any |= wrap[d] && dims[d] > 2;
	if (!any)
		return 0;
	if (n->p.vcs < 2)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: datelines on %s need vcs >= 2 (or deadlock=none)",
		                   m->spec);
	n->ldim = malloc((size_t)n->nl + 1);
	n->lwrap = calloc((size_t)n->nl + 1, 1);
	if (!n->ldim || !n->lwrap)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int l = 0; l < n->nl; l++) {
		const struct plat_link *k = &m->links[l];
		n->ldim[l] = -1;
		if (k->src < m->nodes || k->dst < m->nodes)
			continue; /* a node's own link */
		int a[PLAT_MAX_DIMS], b[PLAT_MAX_DIMS];
		plat_coords(m, m->vertices[k->src].index, a);
		plat_coords(m, m->vertices[k->dst].index, b);
		for (int d = 0; d < nd; d++)
			if (a[d] != b[d]) {
				n->ldim[l] = (signed char)d;
				n->lwrap[l] =
				    wrap[d] && dims[d] > 2 && abs(a[d] - b[d]) == dims[d] - 1;
			}
	}
	return 0;
}

int flit_net_create(const struct plat_machine *m, const struct flit_params *p,
                    struct flit_net **out, struct cmn_err *e)
{
	if (p->vcs < 1 || p->buf < 1 || p->router_delay < 1 || p->link_delay < 1 || p->watchdog < 1)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: vcs, buf, router and link delays, watchdog must "
		                   "be at least 1");
	struct flit_net *n = calloc(1, sizeof *n);
	if (!n)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	n->m = m;
	n->p = *p;
	n->nv = m->nvertices;
	n->nl = m->nlinks;
	n->nodes = m->nodes;
	n->maxr = plat_max_route(m);
	n->span = p->link_delay + 1;
	size_t nvc = (size_t)n->nl * (size_t)p->vcs, nports = (size_t)n->nl + (size_t)n->nodes;
	n->in = calloc(nvc + (size_t)n->nodes, sizeof *n->in);
	n->credits = malloc((nvc ? nvc : 1) * sizeof *n->credits);
	n->busy = calloc(nvc ? nvc : 1, sizeof *n->busy);
	n->wire = malloc((size_t)n->nl * (size_t)n->span * sizeof *n->wire + 1);
	n->cwire = malloc((size_t)n->nl * (size_t)n->span * sizeof *n->cwire + 1);
	n->port_first = calloc((size_t)n->nv + 1, sizeof *n->port_first);
	n->port = malloc(nports * sizeof *n->port);
	n->rr = calloc((size_t)n->nv, sizeof *n->rr);
	n->vrr = calloc(nports, sizeof *n->vrr);
	n->orr = calloc((size_t)n->nl + 1, sizeof *n->orr);
	n->out_used = malloc(((size_t)n->nl + 1) * sizeof *n->out_used);
	n->eject_used = malloc((size_t)n->nodes * sizeof *n->eject_used);
	n->link_flits = calloc((size_t)n->nl + 1, sizeof *n->link_flits);
	n->qhead = malloc((size_t)n->nodes * sizeof *n->qhead);
	n->qtail = malloc((size_t)n->nodes * sizeof *n->qtail);
	int ok = n->in && n->credits && n->busy && n->wire && n->cwire && n->port_first &&
	         n->port && n->rr && n->vrr && n->orr && n->out_used && n->eject_used &&
	         n->link_flits && n->qhead && n->qtail;
	for (size_t i = 0; ok && i < nvc; i++) {
		n->in[i].cap = p->buf;
		n->in[i].out_vc = -1;
		ok = (n->in[i].f = malloc((size_t)p->buf * sizeof *n->in[i].f)) != NULL;
		n->credits[i] = p->buf;
	}
	for (int i = 0; ok && i < n->nodes; i++) {
		n->in[nvc + (size_t)i].out_vc = -1; /* buffer sized per packet at injection */
		n->qhead[i] = n->qtail[i] = -1;
		n->eject_used[i] = -1;
	}
	if (!ok) {
		flit_net_destroy(n);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < (size_t)n->nl * (size_t)n->span; i++) {
		n->wire[i].vc = -1;
		n->cwire[i] = -1;
	}
	for (int l = 0; l <= n->nl; l++)
		n->out_used[l] = -1;
	/* the input ports of each vertex: its entering links, then its injection */
	for (int l = 0; l < n->nl; l++)
		n->port_first[m->links[l].dst + 1]++;
	for (int x = 0; x < n->nodes; x++)
		n->port_first[x + 1]++;
	for (int x = 0; x < n->nv; x++)
		n->port_first[x + 1] += n->port_first[x];
	int *fill = calloc((size_t)n->nv, sizeof *fill);
	if (!fill) {
		flit_net_destroy(n);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	for (int l = 0; l < n->nl; l++) {
		int x = m->links[l].dst;
		n->port[n->port_first[x] + fill[x]++] = l;
	}
	for (int x = 0; x < n->nodes; x++)
		n->port[n->port_first[x] + fill[x]++] = n->nl + x;
	free(fill);
	n->freepk = -1;
	n->last_move = 0;
	if (p->dateline && mark_datelines(n, e)) {
		flit_net_destroy(n);
		return e->code;
	}
	*out = n;
	return 0;
}

void flit_net_destroy(struct flit_net *n)
{
	if (!n)
		return;
	size_t nvc = (size_t)n->nl * (size_t)n->p.vcs;
	for (size_t i = 0; n->in && i < nvc + (size_t)n->nodes; i++)
		free(n->in[i].f);
	for (int i = 0; i < n->npk; i++)
		free(n->pk[i].route);
	free(n->in);
	free(n->credits);
	free(n->busy);
	free(n->wire);
	free(n->cwire);
	free(n->port_first);
	free(n->port);
	free(n->rr);
	free(n->vrr);
	free(n->orr);
	free(n->out_used);
	free(n->eject_used);
	free(n->link_flits);
	free(n->ldim);
	free(n->lwrap);
	free(n->pk);
	free(n->qhead);
	free(n->qtail);
	free(n);
}

int flit_net_inject(struct flit_net *n, int src, int dst, int flits, long id, struct cmn_err *e)
{
	if (src < 0 || src >= n->nodes || dst < 0 || dst >= n->nodes || src == dst)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "packet %ld: from node %d to node %d (nodes 0..%d, "
		                   "not to itself)",
		                   id, src, dst, n->nodes - 1);
	if (flits < 1 || (n->p.cut_through && flits > n->p.buf))
		return cmn_err_set(e, CMN_EUSAGE, "packet %ld: %d flits (1..%d%s)", id, flits,
		                   n->p.cut_through ? n->p.buf : 1 << 30,
		                   n->p.cut_through ? ": cut-through needs room for a whole packet"
		                                    : "");
	int k = n->freepk;
	if (k >= 0) {
		n->freepk = n->pk[k].next;
	} else {
		if (n->npk == n->cappk) {
			int cap = n->cappk ? 2 * n->cappk : 256;
			struct packet *pk = realloc(n->pk, (size_t)cap * sizeof *pk);
			if (!pk)
				return cmn_err_set(e, CMN_ENOMEM, "out of memory");
			n->pk = pk;
			n->cappk = cap;
		}
		k = n->npk;
		n->pk[k].route = malloc((size_t)(n->maxr ? n->maxr : 1) * sizeof(int));
		if (!n->pk[k].route)
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		n->npk++;
	}
	struct packet *q = &n->pk[k];
	q->id = id;
	q->src = src;
	q->dst = dst;
	q->len = flits;
	q->created = n->now;
	q->nhops = plat_route(n->m, src, dst, q->route);
	q->next = -1;
	q->dim = -1;
	q->crossed = 0;
	if (n->qtail[src] >= 0)
		n->pk[n->qtail[src]].next = k;
	else
		n->qhead[src] = k;
	n->qtail[src] = k;
	n->in_flight++;
	return 0;
}

/* Loads the next queued packet of node x into its empty injection port. */
static int load_injection(struct flit_net *n, int x)
{
	struct vc *c = vc_of(n, n->nl + x, 0);
	int k = n->qhead[x];
	if (c->n || k < 0)
		return 0;
	struct packet *q = &n->pk[k];
	n->qhead[x] = q->next;
	if (n->qhead[x] < 0)
		n->qtail[x] = -1;
	if (c->cap < q->len) {
		struct flit *f = realloc(c->f, (size_t)q->len * sizeof *f);
		if (!f)
			return -1;
		c->f = f;
		c->cap = q->len;
	}
	c->first = 0;
	for (int i = 0; i < q->len; i++)
		c->f[c->n++] =
		    (struct flit){n->now + n->p.router_delay, k, -1, i == 0, i == q->len - 1};
	return 0;
}

/* Tries to send the front flit of VC v of input port `port` at router x. */
static int try_send(struct flit_net *n, int x, int port, int v,
                    void (*done)(void *, const struct flit_delivery *), void *ctx)
{
	struct vc *c = vc_of(n, port, v);
	if (!c->n)
		return 0;
	struct flit *f = &c->f[c->first];
	if (f->ready > n->now)
		return 0;
	struct packet *q = &n->pk[f->pkt];
	int h = f->hop + 1, out = h < q->nhops ? q->route[h] : -1;
	int V = n->p.vcs;
	size_t later = (size_t)((n->now + n->p.link_delay) % n->span); /* the wire slot */
	if (out < 0) { /* ejection at the destination node */
		if (x >= n->nodes || n->eject_used[x] == n->now)
			return 0;
		n->eject_used[x] = n->now;
	} else {
		if (n->out_used[out] == n->now)
			return 0;
		if (c->out_vc < 0) { /* a head: a free downstream VC (of its class) */
			int lo = 0, nv = V, dim = q->dim, crossed = q->crossed;
			if (n->ldim && n->ldim[out] >= 0) {
				if (n->ldim[out] != dim)
					dim = n->ldim[out], crossed = 0;
				crossed |= n->lwrap[out];
				nv = crossed ? V - V / 2 : V / 2;
				lo = crossed ? V / 2 : 0;
			}
			for (int i = 0; i < nv && c->out_vc < 0; i++) {
				int w = lo + (n->orr[out] + i) % nv;
				if (!n->busy[out * V + w] &&
				    (!n->p.cut_through || n->credits[out * V + w] >= q->len)) {
					c->out_vc = w;
					n->busy[out * V + w] = 1;
					n->orr[out] = (w - lo + 1) % nv;
					q->dim = dim;
					q->crossed = crossed;
				}
			}
			if (c->out_vc < 0)
				return 0;
		}
		if (n->credits[out * V + c->out_vc] == 0)
			return 0;
		n->out_used[out] = n->now;
		n->credits[out * V + c->out_vc]--;
		struct wire *w = &n->wire[(size_t)out * n->span + later];
		w->f = *f;
		w->f.hop = (short)h;
		w->vc = c->out_vc;
		n->link_flits[out]++;
	}
	struct flit sent = *f;
	c->first = (c->first + 1) % c->cap;
	c->n--;
	if (port < n->nl) { /* a credit back upstream; the VC free after a tail */
		n->cwire[(size_t)port * n->span + later] = v;
		if (sent.tail)
			n->busy[port * V + v] = 0;
	}
	if (sent.tail)
		c->out_vc = -1;
	if (out < 0 && sent.tail) {
		struct flit_delivery d = {q->id, q->src, q->dst, q->len, q->created, n->now};
		n->in_flight--;
		q->next = n->freepk;
		n->freepk = sent.pkt;
		if (done)
			done(ctx, &d);
	}
	n->last_move = n->now;
	return 1;
}

static void cycle(struct flit_net *n, void (*done)(void *, const struct flit_delivery *), void *ctx,
                  int *oom)
{
	int V = n->p.vcs;
	size_t slot = (size_t)(n->now % n->span);
	for (int l = 0; l < n->nl; l++) {
		struct wire *w = &n->wire[(size_t)l * n->span + slot];
		if (w->vc >= 0) {
			w->f.ready = n->now + n->p.router_delay;
			if (vc_push(vc_of(n, l, w->vc), w->f))
				*oom = 2; /* more flits than credits: a bug */
			w->vc = -1;
		}
		int *cw = &n->cwire[(size_t)l * n->span + slot];
		if (*cw >= 0) {
			n->credits[l * V + *cw]++;
			*cw = -1;
		}
	}
	for (int x = 0; x < n->nodes; x++)
		if (n->qhead[x] >= 0 && load_injection(n, x))
			*oom = 1;
	for (int x = 0; x < n->nv; x++) {
		int first = n->port_first[x], np = n->port_first[x + 1] - first;
		for (int i = 0; i < np; i++) {
			int port = n->port[first + (n->rr[x] + i) % np];
			int nvc = port < n->nl ? V : 1;
			for (int j = 0; j < nvc; j++) {
				int v = (n->vrr[port] + j) % nvc;
				if (try_send(n, x, port, v, done, ctx)) {
					n->vrr[port] = (v + 1) % nvc;
					break;
				}
			}
		}
		if (np)
			n->rr[x] = (n->rr[x] + 1) % np;
	}
	n->now++;
}

/* The watchdog's report: what the first blocked channels hold. */
static int stalled(struct flit_net *n, struct cmn_err *e)
{
	char what[400] = "";
	int shown = 0, V = n->p.vcs;
	for (int l = 0; l < n->nl && shown < 3; l++)
		for (int v = 0; v < V && shown < 3; v++) {
			struct vc *c = vc_of(n, l, v);
			if (!c->n)
				continue;
			struct flit *f = &c->f[c->first];
			struct packet *q = &n->pk[f->pkt];
			int h = f->hop + 1, out = h < q->nhops ? q->route[h] : -1;
			size_t len = strlen(what);
			snprintf(what + len, sizeof what - len,
			         "%svertex %d, link %d VC %d: packet %ld (%d->%d), waiting for "
			         "link %d VC %d (credits %d)",
			         shown ? "; " : "", n->m->links[l].dst, l, v, q->id, q->src, q->dst,
			         out, c->out_vc,
			         out >= 0 && c->out_vc >= 0 ? n->credits[out * V + c->out_vc] : -1);
			shown++;
		}
	return cmn_err_set(e, CMN_ESTATE,
	                   "flit network: no flit moved for %ld cycles (cycle %lld) with %ld "
	                   "packets in flight (deadlock): %s",
	                   n->p.watchdog, (long long)n->now, n->in_flight, what);
}

int flit_net_run(struct flit_net *n, int64_t until,
                 void (*done)(void *ctx, const struct flit_delivery *d), void *ctx,
                 struct cmn_err *e)
{
	n->last_move = n->now;
	while (until < 0 ? n->in_flight > 0 : n->now < until) {
		int oom = 0;
		cycle(n, done, ctx, &oom);
		if (oom == 1)
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		if (oom == 2)
			return cmn_err_set(e, CMN_ESTATE,
			                   "flit network: a buffer overflowed (a bug)");
		if (n->in_flight > 0 && n->now - n->last_move >= n->p.watchdog)
			return stalled(n, e);
		if (n->in_flight == 0 && until >= 0) /* nothing to do: skip to the end */
			n->now = until;
	}
	return 0;
}

int64_t flit_net_now(const struct flit_net *n)
{
	return n->now;
}

long flit_net_in_flight(const struct flit_net *n)
{
	return n->in_flight;
}

const long *flit_net_link_flits(const struct flit_net *n)
{
	return n->link_flits;
}

int flit_net_check(const struct flit_net *n, struct cmn_err *e)
{
	int V = n->p.vcs;
	for (int l = 0; l < n->nl; l++)
		for (int v = 0; v < V; v++) {
			int cr = n->credits[l * V + v], inbuf = n->in[(size_t)l * V + v].n,
			    wire = 0, cwire = 0;
			for (int s = 0; s < n->span; s++) {
				wire += n->wire[(size_t)l * n->span + s].vc == v;
				cwire += n->cwire[(size_t)l * n->span + s] == v;
			}
			if (cr < 0 || cr > n->p.buf || cr + inbuf + wire + cwire != n->p.buf)
				return cmn_err_set(
				    e, CMN_ESTATE,
				    "link %d VC %d: %d credits, %d flits buffered, %d on "
				    "the wire, %d credits on the wire (buffer %d)",
				    l, v, cr, inbuf, wire, cwire, n->p.buf);
		}
	return 0;
}

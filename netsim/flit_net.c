/* The flit-level network (flit_net.h). */
#include <limits.h>
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
	int *route;  /* nhops link ids */
	int decided; /* route[0 .. decided) fixed (adaptive routing: as the head goes) */
};

/* A virtual channel's buffer (a ring) and its packet's downstream VC. */
struct vc {
	struct flit *f;
	int cap, first, n;
	int out_vc; /* -1: its front packet has none yet */
	int pick;   /* adaptive routing: the link request() chose for its head */
};

struct wire {
	struct flit f;
	int vc; /* -1: empty */
};

void flit_params_default(struct flit_params *p)
{
	*p = (struct flit_params){.vcs = 4,
	                          .buf = 8,
	                          .router_delay = 1,
	                          .link_delay = 1,
	                          .node_link_delay = 1,
	                          .alloc = FLIT_ALLOC_RR,
	                          .dateline = 1,
	                          .watchdog = 10000,
	                          .flit_bytes = 16,
	                          .packet_flits = 8};
}

const struct cmn_param_def flit_param_defs[] = {
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
    {"routing", CMN_PT_CHOICE, "deterministic", 0, 0, "deterministic|adaptive",
     "deterministic: the machine's routes (dimension order, d-mod-k on trees); adaptive: "
     "k-ary n-trees, the least occupied up link (Petrini and Vanneschi), down "
     "deterministic"},
    {"deadlock", CMN_PT_CHOICE, "dateline", 0, 0, "dateline|none",
     "tori: dateline virtual-channel classes (needs vcs >= 2), or none (may deadlock)"},
    {"preset", CMN_PT_CHOICE, "none", 0, 0, "none|booksim|insee",
     "another simulator's router timing as defaults (flit_preset.c; explicit keys win)"},
    {"watchdog", CMN_PT_INT, "10000", 1, 1e9, NULL,
     "cycles without any flit moving, flits in flight, before a deadlock error"},
    {"flit_bytes", CMN_PT_INT, "16", 1, 1048576, NULL,
     "trace replay: bytes per flit; a cycle is flit_bytes / the node links' bandwidth"},
    {"packet_flits", CMN_PT_INT, "8", 1, 1048576, NULL,
     "trace replay: flits per packet (a message's last packet may be shorter)"},
    {"compute", CMN_PT_CHOICE, "flops", 0, 0, "flops|zero",
     "trace replay: compute takes flops / node speed, or no time (INSEE's infinite CPUs)"},
    {NULL},
};

void flit_params_from(const struct cmn_params *cp, struct flit_params *p)
{
	p->vcs = (int)cmn_params_num(cp, "vcs");
	p->buf = (int)cmn_params_num(cp, "buf");
	p->router_delay = (int)cmn_params_num(cp, "router_delay");
	p->link_delay = (int)cmn_params_num(cp, "link_delay");
	p->node_link_delay = (int)cmn_params_num(cp, "node_link_delay");
	p->inject_delay = (int)cmn_params_num(cp, "inject_delay");
	p->eject_delay = (int)cmn_params_num(cp, "eject_delay");
	p->vc_crossbar = strcmp(cmn_params_str(cp, "crossbar"), "vc") == 0;
	p->hold_packet = strcmp(cmn_params_str(cp, "hold"), "packet") == 0;
	p->adaptive = strcmp(cmn_params_str(cp, "routing"), "adaptive") == 0;
	const char *al = cmn_params_str(cp, "alloc");
	p->alloc = strcmp(al, "islip") == 0    ? FLIT_ALLOC_ISLIP
	           : strcmp(al, "output") == 0 ? FLIT_ALLOC_OUTPUT
	                                       : FLIT_ALLOC_RR;
	p->cut_through = strcmp(cmn_params_str(cp, "switching"), "vct") == 0;
	p->dateline = strcmp(cmn_params_str(cp, "deadlock"), "dateline") == 0;
	p->watchdog = (long)cmn_params_num(cp, "watchdog");
	p->flit_bytes = (int)cmn_params_num(cp, "flit_bytes");
	p->packet_flits = (int)cmn_params_num(cp, "packet_flits");
	p->compute_zero = strcmp(cmn_params_str(cp, "compute"), "zero") == 0;
}

struct flit_net {
	const struct plat_machine *m;
	struct flit_params p;
	int nv, nl, nodes, maxr, span; /* span = max(L, C) + 1 wire slots per link */
	int *ldelay;                   /* cycles on each link: L, or C for a node's link */
	int64_t now, last_move;
	/* input ports: links 0..nl-1 (V VCs each), then nodes' injection ports */
	struct vc *in;                 /* nl * V link VCs, then one per node */
	int *credits, *busy;           /* per link VC: the upstream side's view */
	struct wire *wire;             /* nl * span */
	uint64_t *cwire;               /* credits on the wire: nl * span masks of VCs */
	int *port_first, *port;        /* input ports of each vertex: port[port_first[x] ..) */
	int *out_first, *outl, *lout;  /* out links of each vertex, a link's index there */
	int *gptr, *aptr;              /* allocators' pointers: per output, per crossbar input */
	int *hold;                     /* per output: the local input VC that holds it, or -1 */
	int *vflits, *pflits;          /* flits buffered at each vertex, in each input port */
	int *onwire, *active, nactive; /* per link: wire slots in use; links with any */
	unsigned short *dist;          /* adaptive routing: hops from each vertex to each node */
	int *tie;                      /* adaptive routing: per vertex, where ties start */
	int64_t *picked;               /* adaptive routing: the cycle a head last picked a link */
	int *req, *oused, *xused, *grant; /* one vertex's allocation (scratch) */
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

/* Adaptive routing: hop counts from every vertex to every node (a
 * breadth-first search from each node over the links backwards). */
static int build_dist(struct flit_net *n, struct cmn_err *e)
{
	int k, levels;
	if (plat_kary_ntree_shape(n->m, &k, &levels, e))
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: routing=adaptive is for k-ary n-trees (up-phase "
		                   "adaptivity, deadlock-free there), not %s",
		                   n->m->spec);
	size_t nv = (size_t)n->nv, nodes = (size_t)n->nodes;
	n->dist = malloc(nv * nodes * sizeof *n->dist);
	n->tie = calloc(nv, sizeof *n->tie);
	n->picked = malloc(((size_t)n->nl + 1) * sizeof *n->picked);
	int *queue = malloc(nv * sizeof *queue);
	if (!n->dist || !n->tie || !n->picked || !queue) {
		free(queue);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < nv * nodes; i++)
		n->dist[i] = USHRT_MAX;
	for (int l = 0; l <= n->nl; l++)
		n->picked[l] = -1;
	for (int t = 0; t < n->nodes; t++) {
		int head = 0, tail = 0;
		n->dist[(size_t)t * nodes + (size_t)t] = 0;
		queue[tail++] = t;
		while (head < tail) {
			int v = queue[head++];
			for (int i = n->port_first[v]; i < n->port_first[v + 1]; i++) {
				int l = n->port[i];
				if (l >= n->nl)
					continue; /* an injection port */
				int u = n->m->links[l].src;
				if (n->dist[(size_t)u * nodes + (size_t)t] == USHRT_MAX) {
					n->dist[(size_t)u * nodes + (size_t)t] =
					    (unsigned short)(n->dist[(size_t)v * nodes +
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

int flit_net_create(const struct plat_machine *m, const struct flit_params *p,
                    struct flit_net **out, struct cmn_err *e)
{
	if (p->vcs < 1 || p->buf < 1 || p->link_delay < 1 || p->watchdog < 1 ||
	    p->router_delay < 0 || p->node_link_delay < 0 || p->inject_delay < 0 ||
	    p->eject_delay < 0)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit network: vcs, buf, link_delay and watchdog must be at "
		                   "least 1, the other delays at least 0");
	struct flit_net *n = calloc(1, sizeof *n);
	if (!n)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	n->m = m;
	n->p = *p;
	n->nv = m->nvertices;
	n->nl = m->nlinks;
	n->nodes = m->nodes;
	n->maxr = plat_max_route(m);
	n->span = (p->link_delay > p->node_link_delay ? p->link_delay : p->node_link_delay) + 1;
	size_t nvc = (size_t)n->nl * (size_t)p->vcs, nports = (size_t)n->nl + (size_t)n->nodes;
	n->in = calloc(nvc + (size_t)n->nodes, sizeof *n->in);
	n->credits = malloc((nvc ? nvc : 1) * sizeof *n->credits);
	n->busy = calloc(nvc ? nvc : 1, sizeof *n->busy);
	n->wire = malloc((size_t)n->nl * (size_t)n->span * sizeof *n->wire + 1);
	n->cwire = calloc((size_t)n->nl * (size_t)n->span + 1, sizeof *n->cwire);
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
	n->ldelay = malloc(((size_t)n->nl + 1) * sizeof *n->ldelay);
	n->out_first = calloc((size_t)n->nv + 1, sizeof *n->out_first);
	n->outl = malloc(((size_t)n->nl + 1) * sizeof *n->outl);
	n->lout = malloc(((size_t)n->nl + 1) * sizeof *n->lout);
	n->gptr = calloc(nports, sizeof *n->gptr);
	n->hold = malloc(nports * sizeof *n->hold);
	n->vflits = calloc((size_t)n->nv + 1, sizeof *n->vflits);
	n->pflits = calloc(nports, sizeof *n->pflits);
	n->onwire = calloc((size_t)n->nl + 1, sizeof *n->onwire);
	n->active = malloc(((size_t)n->nl + 1) * sizeof *n->active);
	n->aptr = calloc(nports * (size_t)p->vcs, sizeof *n->aptr);
	int ok = n->in && n->credits && n->busy && n->wire && n->cwire && n->port_first &&
	         n->port && n->rr && n->vrr && n->orr && n->out_used && n->eject_used &&
	         n->link_flits && n->qhead && n->qtail && n->ldelay && n->out_first && n->outl &&
	         n->lout && n->gptr && n->aptr && n->hold && n->vflits && n->pflits && n->onwire &&
	         n->active;
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
	}
	for (int l = 0; l <= n->nl; l++)
		n->out_used[l] = -1;
	for (size_t i = 0; i < nports; i++)
		n->hold[i] = -1;
	for (int l = 0; l < n->nl; l++)
		n->ldelay[l] = m->links[l].src < n->nodes || m->links[l].dst < n->nodes
		                   ? p->node_link_delay
		                   : p->link_delay;
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
	/* the out links of each vertex, and scratch arrays for the widest vertex */
	for (int l = 0; l < n->nl; l++)
		n->out_first[m->links[l].src + 1]++;
	int maxin = 1, maxout = 1;
	for (int x = 0; x < n->nv; x++) {
		int np = n->port_first[x + 1] - n->port_first[x], no = n->out_first[x + 1];
		maxin = np > maxin ? np : maxin;
		maxout = no > maxout ? no : maxout;
		n->out_first[x + 1] += n->out_first[x];
	}
	fill = calloc((size_t)n->nv, sizeof *fill);
	n->req = malloc((size_t)maxin * (size_t)p->vcs * sizeof *n->req);
	n->xused = malloc((size_t)maxin * (size_t)p->vcs * sizeof *n->xused);
	n->oused = malloc(((size_t)maxout + 1) * sizeof *n->oused);
	n->grant = malloc(((size_t)maxout + 1) * sizeof *n->grant);
	if (!fill || !n->req || !n->xused || !n->oused || !n->grant) {
		free(fill);
		flit_net_destroy(n);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	for (int l = 0; l < n->nl; l++) {
		int x = m->links[l].src;
		n->lout[l] = fill[x];
		n->outl[n->out_first[x] + fill[x]++] = l;
	}
	free(fill);
	n->freepk = -1;
	n->last_move = 0;
	if ((p->dateline && mark_datelines(n, e)) || (p->adaptive && build_dist(n, e))) {
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
	free(n->ldelay);
	free(n->out_first);
	free(n->outl);
	free(n->lout);
	free(n->gptr);
	free(n->hold);
	free(n->vflits);
	free(n->pflits);
	free(n->onwire);
	free(n->dist);
	free(n->tie);
	free(n->picked);
	free(n->active);
	free(n->aptr);
	free(n->req);
	free(n->xused);
	free(n->oused);
	free(n->grant);
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
	if (n->dist) { /* adaptive: decided hop by hop */
		q->nhops = n->dist[(size_t)src * (size_t)n->nodes + (size_t)dst];
		q->decided = 0;
	} else {
		q->nhops = plat_route(n->m, src, dst, q->route);
		q->decided = q->nhops;
	}
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
	int64_t ready = q->created + n->p.inject_delay; /* a node holds no router delay */
	if (ready < n->now)
		ready = n->now;
	for (int i = 0; i < q->len; i++)
		c->f[c->n++] = (struct flit){ready, k, -1, i == 0, i == q->len - 1};
	n->pflits[n->nl + x] += q->len;
	n->vflits[x] += q->len;
	return 0;
}

/* The cycle a flit arriving at vertex x may leave it: switches hold it the
 * router delay, nodes do not. */
static int64_t ready_at(const struct flit_net *n, int x)
{
	return n->now + (x < n->nodes ? 0 : n->p.router_delay);
}

/* Puts f on link l (or, for a zero-delay link, straight into its VC v). */
static void to_link(struct flit_net *n, int l, int v, struct flit f)
{
	int d = n->ldelay[l];
	if (d == 0) {
		f.ready = ready_at(n, n->m->links[l].dst);
		vc_push(vc_of(n, l, v), f); /* the credit it took guarantees room */
		n->pflits[l]++;
		n->vflits[n->m->links[l].dst]++;
		return;
	}
	struct wire *w = &n->wire[(size_t)l * n->span + (size_t)((n->now + d) % n->span)];
	w->f = f;
	w->vc = v;
	if (n->onwire[l]++ == 0)
		n->active[n->nactive++] = l;
}

/* Returns a credit for VC v over link l (at once for a zero-delay link). */
static void credit_back(struct flit_net *n, int l, int v)
{
	int d = n->ldelay[l];
	if (d == 0)
		n->credits[l * n->p.vcs + v]++;
	else {
		uint64_t *cw = &n->cwire[(size_t)l * n->span + (size_t)((n->now + d) % n->span)];
		if (!*cw && n->onwire[l]++ == 0)
			n->active[n->nactive++] = l;
		*cw |= UINT64_C(1) << v;
	}
}

/* The VC range [lo, lo + nv) a packet may take on link out (dateline
 * classes on tori), and its dimension state after taking it. */
static void vc_class(const struct flit_net *n, const struct packet *q, int out, int *lo, int *nv,
                     int *dim, int *crossed)
{
	int V = n->p.vcs;
	*lo = 0, *nv = V, *dim = q->dim, *crossed = q->crossed;
	if (n->ldim && n->ldim[out] >= 0) {
		if (n->ldim[out] != *dim)
			*dim = n->ldim[out], *crossed = 0;
		*crossed |= n->lwrap[out];
		*nv = *crossed ? V - V / 2 : V / 2;
		*lo = *crossed ? V / 2 : 0;
	}
}

/* The first free downstream VC (round-robin, of its class, with room for
 * the whole packet under cut-through) on link out, or -1. */
static int free_vc(const struct flit_net *n, const struct packet *q, int out)
{
	int V = n->p.vcs, lo, nv, dim, crossed;
	vc_class(n, q, out, &lo, &nv, &dim, &crossed);
	for (int i = 0; i < nv; i++) {
		int w = lo + (n->orr[out] + i) % nv;
		if (!n->busy[out * V + w] &&
		    (!n->p.cut_through || n->credits[out * V + w] >= q->len))
			return w;
	}
	return -1;
}

/* Minimal adaptive routing (k-ary n-trees: the up phase has k choices, the
 * down phase one): of x's out links one hop closer to node t, one that no
 * other head at x picked this cycle if there is one (heads spread over the
 * links instead of all asking for the same), then the one with the most
 * credits over its free VCs (the least occupied), ties from a rotating
 * start. */
static int adaptive_next(const struct flit_net *n, int x, int t)
{
	int first = n->out_first[x], no = n->out_first[x + 1] - first, best = -1, bc = -1;
	int want = n->dist[(size_t)x * (size_t)n->nodes + (size_t)t] - 1, V = n->p.vcs;
	for (int i = 0; i < no; i++) {
		int l = n->outl[first + (n->tie[x] + i) % no];
		if (n->dist[(size_t)n->m->links[l].dst * (size_t)n->nodes + (size_t)t] != want)
			continue;
		int cr = n->picked[l] == n->now ? 0 : 1 << 24;
		for (int v = 0; v < V; v++)
			cr += n->busy[l * V + v] ? 0 : n->credits[l * V + v];
		if (cr > bc)
			bc = cr, best = l;
	}
	if (best >= 0)
		n->picked[best] = n->now;
	return best;
}

/* What the front flit of VC v of input port `port` at vertex x asks for
 * this cycle: the local index of its output at x (out links in order, then
 * ejection), or -1 when it cannot move (not ready, no downstream VC, no
 * credit, ejection port used). */
static int request(const struct flit_net *n, int x, int port, int v)
{
	const struct vc *c = vc_of((struct flit_net *)n, port, v);
	if (!c->n)
		return -1;
	const struct flit *f = &c->f[c->first];
	if (f->ready > n->now)
		return -1;
	const struct packet *q = &n->pk[f->pkt];
	int h = f->hop + 1, out = h < q->nhops ? q->route[h] : -1;
	if (h < q->nhops && h >= q->decided) /* an adaptive head: the least occupied next link */
		out = ((struct vc *)c)->pick = adaptive_next(n, x, q->dst);
	if (out < 0)
		return n->eject_used[x] == n->now ? -1 : n->out_first[x + 1] - n->out_first[x];
	if (h == q->nhops - 1 && n->ldelay[out] == 0) /* ejection over a zero-delay link */
		return n->eject_used[q->dst] == n->now ? -1 : n->lout[out];
	int V = n->p.vcs, w = c->out_vc >= 0 ? c->out_vc : free_vc(n, q, out);
	return w >= 0 && n->credits[out * V + w] > 0 ? n->lout[out] : -1;
}

/* Sends the front flit of VC v of input port `port` at vertex x, which
 * request() found able to move. */
static void send(struct flit_net *n, int x, int port, int v,
                 void (*done)(void *, const struct flit_delivery *), void *ctx)
{
	struct vc *c = vc_of(n, port, v);
	struct flit *f = &c->f[c->first];
	struct packet *q = &n->pk[f->pkt];
	int h = f->hop + 1;
	if (h < q->nhops && h >= q->decided) { /* the head fixes its adaptive choice */
		q->route[h] = c->pick, q->decided = h + 1;
		n->tie[x]++;
	}
	int out = h < q->nhops ? q->route[h] : -1;
	int V = n->p.vcs;
	int eject = out < 0 ? x : h == q->nhops - 1 && n->ldelay[out] == 0 ? q->dst : -1;
	if (eject >= 0) {
		n->eject_used[eject] = n->now;
		if (out >= 0)
			n->link_flits[out]++;
	} else {
		if (c->out_vc < 0) { /* a head takes its downstream VC */
			int lo, nv, dim, crossed;
			vc_class(n, q, out, &lo, &nv, &dim, &crossed);
			c->out_vc = free_vc(n, q, out);
			n->busy[out * V + c->out_vc] = 1;
			n->orr[out] = (c->out_vc - lo + 1) % nv;
			q->dim = dim;
			q->crossed = crossed;
		}
		n->credits[out * V + c->out_vc]--;
		struct flit g = *f;
		g.hop = (short)h;
		to_link(n, out, c->out_vc, g);
		n->link_flits[out]++;
		if (f->tail) /* the downstream VC takes its next packet behind this one */
			n->busy[out * V + c->out_vc] = 0;
	}
	struct flit sent = *f;
	c->first = (c->first + 1) % c->cap;
	c->n--;
	n->pflits[port]--;
	n->vflits[x]--;
	if (port < n->nl) /* a credit back upstream */
		credit_back(n, port, v);
	if (sent.tail)
		c->out_vc = -1;
	if (eject >= 0 && sent.tail) {
		struct flit_delivery d;
		memset(&d, 0, sizeof d); /* padding too: callers may compare records bytewise */
		d.id = q->id, d.src = q->src, d.dst = q->dst, d.flits = q->len;
		d.created = q->created, d.done = n->now + n->p.eject_delay;
		n->in_flight--;
		q->next = n->freepk;
		n->freepk = sent.pkt;
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
	int V = n->p.vcs, port = n->port[n->port_first[x] + k / V];
	const struct vc *c = vc_of(n, port, k % V);
	const struct flit *f = &c->f[c->first];
	if (n->p.hold_packet)
		n->hold[g] = f->tail ? -1 : k;
	send(n, x, port, k % V, done, ctx);
}

/* Switch allocation at vertex x, once req[] holds each input VC's request
 * (local output index or -1; input VC k = i V + v of local input port i).
 * A crossbar input is a port, or with crossbar=vc each VC; each crossbar
 * input and each output moves at most one flit a cycle. */
static void allocate(struct flit_net *n, int x, int np, int nout,
                     void (*done)(void *, const struct flit_delivery *), void *ctx)
{
	int V = n->p.vcs, first = n->port_first[x], vcx = n->p.vc_crossbar;
	int nk = np * V, ox = n->out_first[x];
	int *req = n->req, *oused = n->oused, *xused = n->xused;
	for (int j = 0; j < nout; j++)
		oused[j] = 0;
	for (int k = 0; k < nk; k++)
		xused[k] = 0;
	if (n->p.alloc == FLIT_ALLOC_RR) { /* inputs in turn, each its first VC that can go */
		for (int ii = 0; ii < np; ii++) {
			int i = (n->rr[x] + ii) % np, port = n->port[first + i];
			int nvc = port < n->nl ? V : 1;
			for (int jj = 0; jj < nvc; jj++) {
				int v = (n->vrr[port] + jj) % nvc, r = req[i * V + v];
				if (r < 0 || oused[r])
					continue;
				send(n, x, port, v, done, ctx);
				oused[r] = 1;
				n->vrr[port] = (v + 1) % nvc;
				if (!vcx)
					break;
			}
		}
		n->rr[x] = (n->rr[x] + 1) % np;
		return;
	}
	/* output-first: every output grants a requesting crossbar input round-robin
	 * from its pointer; with islip the inputs then accept one grant each
	 * (round-robin) and pointers move only on acceptance */
	int *grant = n->grant, *bestd = oused;
	/* one pass: each output's round-robin-first requester */
	for (int j = 0; j < nout; j++)
		grant[j] = -1, bestd[j] = nk;
	for (int k = 0; k < nk; k++) {
		int j = req[k];
		if (j < 0)
			continue;
		int g = j < nout - 1 ? n->outl[ox + j] : n->nl + x, d = (k - n->gptr[g] + nk) % nk;
		if (d < bestd[j])
			bestd[j] = d, grant[j] = k;
	}
	for (int jj = 0; jj < nout; jj++) {
		int j = (n->rr[x] + jj) % nout, g = j < nout - 1 ? n->outl[ox + j] : n->nl + x;
		if (grant[j] < 0)
			continue;
		int k = grant[j];
		if (n->hold[g] >= 0) /* kept for a packet: only its VC may use it */
			k = req[n->hold[g]] == j ? n->hold[g] : -1;
		if (k >= 0 && xused[vcx ? k : k / V]) { /* its input already sent: the next one */
			int k0 = k;
			k = -1;
			for (int kk = 1; kk < nk && n->hold[g] < 0; kk++) {
				int c = (k0 + kk) % nk;
				if (req[c] == j && !xused[vcx ? c : c / V]) {
					k = c;
					break;
				}
			}
		}
		grant[j] = k;
		if (k >= 0 && n->p.alloc == FLIT_ALLOC_OUTPUT) { /* granted is sent */
			held_send(n, x, k, g, done, ctx);
			xused[vcx ? k : k / V] = 1;
			n->gptr[g] = (k + 1) % nk;
		}
	}
	if (n->p.alloc == FLIT_ALLOC_ISLIP)
		for (int i = 0; i < np; i++) {
			int port = n->port[first + i];
			for (int vv = 0; vv < (vcx ? V : 1); vv++) {
				/* accept: the first granting output from the input's pointer */
				for (int jj = 0; jj < nout; jj++) {
					int j = (n->aptr[vcx ? port * V + vv : port] + jj) % nout,
					    k = grant[j];
					if (k < 0 || k / V != i || (vcx && k % V != vv))
						continue;
					int g = j < nout - 1 ? n->outl[ox + j] : n->nl + x;
					held_send(n, x, k, g, done, ctx);
					n->gptr[g] = (k + 1) % nk;
					n->aptr[vcx ? port * V + vv : port] = (j + 1) % nout;
					break;
				}
			}
		}
	n->rr[x] = (n->rr[x] + 1) % nout;
}

static void cycle(struct flit_net *n, void (*done)(void *, const struct flit_delivery *), void *ctx,
                  int *oom)
{
	int V = n->p.vcs;
	size_t slot = (size_t)(n->now % n->span);
	int kept = 0;
	for (int i = 0; i < n->nactive; i++) { /* only links with something on the wire */
		int l = n->active[i];
		struct wire *w = &n->wire[(size_t)l * n->span + slot];
		if (w->vc >= 0) {
			w->f.ready = ready_at(n, n->m->links[l].dst);
			if (vc_push(vc_of(n, l, w->vc), w->f))
				*oom = 2; /* more flits than credits: a bug */
			n->pflits[l]++;
			n->vflits[n->m->links[l].dst]++;
			w->vc = -1;
			n->onwire[l]--;
		}
		uint64_t *cw = &n->cwire[(size_t)l * n->span + slot];
		if (*cw) {
			for (uint64_t b = *cw; b; b &= b - 1)
				n->credits[l * V + __builtin_ctzll(b)]++;
			*cw = 0;
			n->onwire[l]--;
		}
		if (n->onwire[l])
			n->active[kept++] = l;
	}
	n->nactive = kept;
	for (int x = 0; x < n->nodes; x++)
		if (n->qhead[x] >= 0 && load_injection(n, x))
			*oom = 1;
	for (int x = 0; x < n->nv; x++) {
		if (!n->vflits[x])
			continue;
		int first = n->port_first[x], np = n->port_first[x + 1] - first, any = 0;
		int nout = n->out_first[x + 1] - n->out_first[x] + 1;
		for (int i = 0; i < np; i++) {
			int port = n->port[first + i], nvc = !n->pflits[port] ? 0
			                                     : port < n->nl   ? V
			                                                      : 1;
			for (int v = 0; v < V; v++) {
				int r = v < nvc ? request(n, x, port, v) : -1;
				n->req[i * V + v] = r;
				any |= r >= 0;
			}
		}
		if (any)
			allocate(n, x, np, nout, done, ctx);
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
			int h = f->hop + 1, out = h < q->decided ? q->route[h] : -1;
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
				cwire += (int)(n->cwire[(size_t)l * n->span + s] >> v & 1);
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

/* Trace replay on the flit-level network (flit_replay.h): ranks as small
 * interpreters of their actions (a job's repeated range run as written
 * out, walk.h), transfers matched first-in first-out, packets on a
 * flit_net, an event heap for computations and sleeps. What the replay
 * holds follows what runs: a transfer's record is reused once both sides
 * and the network are done with it, a key with no unmatched transfer
 * leaves the table, and a job's collective plan and its ranks' buffers go
 * when it ends. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../apptraces/trace_expand.h"
#include "../../common/grow.h"
#include "../../common/htab.h"
#include "../engine/live.h"
#include "../engine/walk.h"
#include "flit_replay.h"
#include "flit_reqs.h"

#define EAGER_BYTES 65536.0
/* What one action may ask of the engine (checked before a job runs,
 * job_fits): a message of at most MAX_PACKETS packets (all are queued at
 * once), a rank's compute and sleep of at most MAX_CYCLES cycles (so the
 * clock stays exact in a double and far from int64_t's end). */
#define MAX_PACKETS (1L << 20)
#define MAX_CYCLES  9007199254740992.0 /* 2^53 */

/* What a rank does next, beyond its trace's own actions: the primitives a
 * collective is expanded into. */
enum prim_kind { P_SEND, P_RECV, P_ISEND, P_IRECV, P_WAITCOLL, P_COMPUTE };

struct prim {
	int kind, peer;
	int64_t chan;
	double amount; /* bytes, or flops */
};

/* A transfer between two ranks of a job: posted by either side first. */
struct xfer {
	int job, src, dst, coll;
	int64_t chan;
	double bytes; /* the sender's */
	int sent, recvd, done;
	int wait_s, wait_r; /* the sender / receiver waits for it */
	long packets_left;
	int next; /* the key's queue of unmatched transfers */
	int refs; /* until it completes, and per side holding it as a request */
};

struct rank {
	int job, r, node, pending, computing, finished;
	struct net_walk w;
	long last; /* the action run last (-1: none yet) */
	long k;    /* collectives started */
	struct prim *ops;
	int nops, opi;
	long capops;
	struct flit_reqs rq; /* pending requests */
	int64_t finish;
};

/* The unmatched transfers of one key (job, src, dst, coll, chan). */
struct slot {
	int job, src, dst, coll;
	int64_t chan;
	int head, tail;
};

struct ev {
	int64_t at;
	int kind, idx; /* 0: rank idx wakes; 1: transfer idx completes */
	long seq;      /* ties in insertion order */
};

struct replay {
	const struct plat_machine *m;
	const struct flit_replay_opts *o;
	struct flit_net *net;
	const struct net_job *jobs;
	int njobs, nrk, *base; /* base[j]: job j's first rank */
	long capbase, caprk, capjobs, capjend;
	struct rank *rk;
	int left;      /* ranks not finished */
	int *jleft;    /* per job: its ranks not finished */
	int64_t *jend; /* per job: the cycle its last rank finished */
	int *ended;    /* jobs in the order they ended */
	int nended;
	long capended;
	int *ready, nready;
	long capready;
	struct xfer *x;
	int nx;
	long capx;
	int *xfree; /* transfers to reuse */
	int nxfree;
	long capxfree;
	int *from; /* scratch: a collective phase's senders to a rank (room for the widest job) */
	long capfrom;
	struct cmn_htab tab;    /* of struct slot: the queue of each matching key */
	struct cmn_htab reqkey; /* the ranks' pending requests by key (flit_reqs.h) */
	struct ev *heap;
	int nheap;
	long capheap;
	long seq;
	int64_t now;
	int oom;
};

static int grow(void **p, long *cap, long need, size_t size)
{
	return cmn_grow(p, cap, need, 16, size);
}

/* Before the transfers' table doubles: whether the messages pending then
 * (each a transfer, its requests on both sides and their keys) fit under
 * the network's max_memory beside its state and packets; else an error
 * saying so (a job's all-to-all posts every message at once: n^2 of them,
 * 67 million for 8,192 ranks). */
static int room_for_transfers(struct replay *rp, struct cmn_err *e)
{
	long cap = rp->capx ? 2 * rp->capx : 16;
	double per = (double)sizeof(struct xfer) + 2.0 * sizeof(struct flit_req) + 64.0, mb;
	long max_mb;
	if (net_flit_net_room(rp->net, (double)cap * per, &mb, &max_mb))
		return 0;
	return cmn_err_set(e, CMN_ENOMEM,
	                   "flit replay: %d messages pending at cycle %lld; room for %ld would "
	                   "take %.0f MB beside the network's %.0f MB with its packets, more than "
	                   "max_memory=%ld MB: replay all-to-alls as rings (netsim --alltoall "
	                   "ring, cosim alltoall=ring), fewer ranks, or raise max_memory=MB (0: "
	                   "no limit)",
	                   rp->nx, (long long)rp->now, cap, (double)cap * per / 1048576.0, mb,
	                   max_mb);
}

/* --- the event heap --- */
static int ev_less(const struct ev *a, const struct ev *b)
{
	return a->at < b->at || (a->at == b->at && a->seq < b->seq);
}

static void ev_push(struct replay *rp, int64_t at, int kind, int idx)
{
	if (grow((void **)&rp->heap, &rp->capheap, rp->nheap + 1, sizeof *rp->heap)) {
		rp->oom = 1;
		return;
	}
	int i = rp->nheap++;
	struct ev v = {at, kind, idx, rp->seq++};
	while (i > 0 && ev_less(&v, &rp->heap[(i - 1) / 2])) {
		rp->heap[i] = rp->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	rp->heap[i] = v;
}

static struct ev ev_pop(struct replay *rp)
{
	struct ev top = rp->heap[0], last = rp->heap[--rp->nheap];
	int i = 0;
	for (;;) {
		int c = 2 * i + 1;
		if (c >= rp->nheap)
			break;
		if (c + 1 < rp->nheap && ev_less(&rp->heap[c + 1], &rp->heap[c]))
			c++;
		if (!ev_less(&rp->heap[c], &last))
			break;
		rp->heap[i] = rp->heap[c];
		i = c;
	}
	if (rp->nheap)
		rp->heap[i] = last;
	return top;
}

static void make_ready(struct replay *rp, int g)
{
	if (grow((void **)&rp->ready, &rp->capready, rp->nready + 1, sizeof *rp->ready)) {
		rp->oom = 1;
		return;
	}
	rp->ready[rp->nready++] = g;
}

/* --- matching --- */
static uint64_t key_hash(int job, int src, int dst, int coll, int64_t chan)
{
	uint64_t h = (uint64_t)chan * 0x9E3779B97F4A7C15u;
	h ^= ((uint64_t)(uint32_t)job << 40) ^ ((uint64_t)(uint32_t)src << 20) ^ (uint32_t)dst;
	h ^= (uint64_t)coll << 63;
	h *= 0xBF58476D1CE4E5B9u;
	return h ^ (h >> 31);
}

static int slot_match(const void *entry, const void *key)
{
	const struct slot *x = entry, *k = key;
	return x->job == k->job && x->src == k->src && x->dst == k->dst && x->coll == k->coll &&
	       x->chan == k->chan;
}

static struct slot *lookup(struct replay *rp, int job, int src, int dst, int coll, int64_t chan)
{
	struct slot k = {job, src, dst, coll, chan, -1, -1};
	int added;
	struct slot *s =
	    cmn_htab_put(&rp->tab, key_hash(job, src, dst, coll, chan), slot_match, &k, &added);
	if (!s)
		rp->oom = 1;
	else if (added)
		*s = k;
	return s;
}

/* A key's queue emptied: the key leaves the table. */
static void slot_drop(struct replay *rp, struct slot *s)
{
	cmn_htab_del(&rp->tab, s);
}

/* One holder of transfer xi lets it go; the last one makes it reusable
 * (its record stays as it is until a new transfer takes it). */
static void unref(struct replay *rp, int xi)
{
	if (--rp->x[xi].refs > 0)
		return;
	if (grow((void **)&rp->xfree, &rp->capxfree, rp->nxfree + 1, sizeof *rp->xfree))
		rp->oom = 1;
	else
		rp->xfree[rp->nxfree++] = xi;
}

static void complete(struct replay *rp, int xi)
{
	struct xfer *x = &rp->x[xi];
	x->done = 1;
	int g[2] = {x->wait_s ? rp->base[x->job] + x->src : -1,
	            x->wait_r ? rp->base[x->job] + x->dst : -1};
	for (int i = 0; i < 2; i++)
		if (g[i] >= 0 && --rp->rk[g[i]].pending == 0)
			make_ready(rp, g[i]);
	x->wait_s = x->wait_r = 0;
	unref(rp, xi); /* the network's hold */
}

/* Both sides posted: the data goes, in packets queued at the source node. */
static int transfer(struct replay *rp, int xi, double bytes, struct cmn_err *e)
{
	struct xfer *x = &rp->x[xi];
	const struct net_job *job = &rp->jobs[x->job];
	int a = job->nodes[x->src], b = job->nodes[x->dst];
	if (a == b) { /* the same node: no network */
		complete(rp, xi);
		return 0;
	}
	double W = rp->o->flit_bytes;
	long flits = bytes > 0 ? (long)ceil(bytes / W) : 1, P = rp->o->packet_flits;
	x->packets_left = (flits + P - 1) / P;
	for (long f = flits; f > 0; f -= P)
		if (net_flit_net_inject(rp->net, a, b, (int)(f < P ? f : P), xi, e))
			return e->code;
	return 0;
}

/* Posts one side of a transfer of rank g's job; its index, or -1 (e).
 * async: the side keeps it as a request (a hold until it waits for it). */
static int post(struct replay *rp, int g, int send, int async, int peer, int coll, int64_t chan,
                double bytes, struct cmn_err *e)
{
	struct rank *k = &rp->rk[g];
	int src = send ? k->r : peer, dst = send ? peer : k->r;
	struct slot *s = lookup(rp, k->job, src, dst, coll, chan);
	if (!s)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory"), -1;
	int h = s->head;
	if (h >= 0 && (send ? !rp->x[h].sent : !rp->x[h].recvd)) { /* the other side waits */
		s->head = rp->x[h].next;
		if (s->head < 0)
			slot_drop(rp, s);
		rp->x[h].refs += async;
		if (send)
			rp->x[h].sent = 1;
		else
			rp->x[h].recvd = 1;
		if (send)
			rp->x[h].bytes = bytes;
		if (transfer(rp, h, rp->x[h].bytes, e))
			return -1;
		return h;
	}
	int xi;
	if (rp->nxfree) {
		xi = rp->xfree[--rp->nxfree];
	} else {
		if (rp->nx == rp->capx && room_for_transfers(rp, e))
			return -1;
		if (grow((void **)&rp->x, &rp->capx, rp->nx + 1, sizeof *rp->x))
			return cmn_err_set(e, CMN_ENOMEM, "out of memory"), -1;
		xi = rp->nx++;
	}
	rp->x[xi] = (struct xfer){k->job, src, dst, coll, chan, bytes, send,
	                          !send,  0,   0,   0,    0,    -1,    1 + async};
	if (s->tail >= 0)
		rp->x[s->tail].next = xi;
	else
		s->head = xi;
	s->tail = xi;
	return xi;
}

static void wait_on(struct replay *rp, int g, int xi)
{
	struct xfer *x = &rp->x[xi];
	if (x->done)
		return;
	if (rp->base[x->job] + x->src == g)
		x->wait_s = 1;
	else
		x->wait_r = 1;
	rp->rk[g].pending++;
}

static int add_req(struct replay *rp, int g, int xi, int coll, int src, int dst, int tag)
{
	return net_flit_reqs_add(&rp->rk[g].rq, &rp->reqkey, g, xi, coll, src, dst, tag);
}

/* Waits for the requests of one kind (collective or the trace's own), in
 * the order posted. */
static void wait_reqs(struct replay *rp, int g, int coll)
{
	struct flit_reqs *q = &rp->rk[g].rq;
	for (int s = q->head, next; s >= 0; s = next) {
		next = q->r[s].next;
		if (q->r[s].coll == coll) {
			int xi = net_flit_reqs_remove(q, &rp->reqkey, g, s);
			wait_on(rp, g, xi);
			unref(rp, xi);
		}
	}
}

static int push_prim(struct rank *k, int kind, int peer, int64_t chan, double amount)
{
	if (grow((void **)&k->ops, &k->capops, k->nops + 1, sizeof *k->ops))
		return -1;
	k->ops[k->nops++] = (struct prim){kind, peer, chan, amount};
	return 0;
}

/* Messages of one phase of a collective (trace_expand's emissions). */
struct msgs {
	int phase, me; /* me >= 0: only those to me */
	int *dst;
	double *bytes;
	int n, oom;
	long cap, capb;
};

static void keep(void *ctx, int phase, int dst, double bytes)
{
	struct msgs *m = ctx;
	if (phase != m->phase || (m->me >= 0 && dst != m->me))
		return;
	if (grow((void **)&m->dst, &m->cap, m->n + 1, sizeof *m->dst) ||
	    grow((void **)&m->bytes, &m->capb, m->n + 1, sizeof *m->bytes)) {
		m->oom = 1;
		return;
	}
	m->dst[m->n] = dst;
	m->bytes[m->n++] = bytes;
}

/* Collective k of rank g (action a) as primitives, as engine_s4u.c runs it. */
static int expand_collective(struct replay *rp, int g, const struct trace_action *a)
{
	struct rank *k = &rp->rk[g];
	const struct trace *t = rp->jobs[k->job].trace;
	int r = k->r, n = t->nranks, bad = 0;
	long c = k->k++;
	int64_t ch = (int64_t)c << 20;
	if (rp->o->ring && (a->op == TR_ALLTOALL || a->op == TR_ALLTOALLV)) {
		struct msgs out = {.phase = 0, .me = -1};
		trace_expand_sends(t, r, a, keep, &out);
		double *block = calloc((size_t)n, sizeof *block);
		bad = out.oom || !block;
		for (int i = 0; !bad && i < out.n; i++)
			block[out.dst[i]] += out.bytes[i];
		for (int i = 1; !bad && i < n; i++)
			bad = push_prim(k, P_IRECV, (r - i + n) % n, ch | i, 0) ||
			      push_prim(k, P_ISEND, (r + i) % n, ch | i, block[(r + i) % n]) ||
			      push_prim(k, P_WAITCOLL, 0, 0, 0);
		free(block);
		free(out.dst), free(out.bytes);
		return bad ? -1 : 0;
	}
	/* the senders' scratch is the replay's: one per rank and phase would be
	 * n ints for each of n ranks (40,000 ranks: 6 GB allocated and freed a
	 * phase, minutes under a sanitizer's allocator) */
	if (grow((void **)&rp->from, &rp->capfrom, n, sizeof *rp->from))
		return -1;
	int *from = rp->from;
	for (int phase = 0; !bad && phase < trace_expand_phases(a->op); phase++) {
		struct msgs out = {.phase = phase, .me = -1};
		int nin = 0;
		trace_expand_sends(t, r, a, keep, &out);
		bad = out.oom;
		if (!bad) /* who sends to r in this phase */
			nin = trace_expand_sources(t, r, a, phase, from);
		int ex = trace_expand_is_exchange(a->op);
		for (int i = 0; !bad && i < nin; i++)
			bad = push_prim(k, ex ? P_IRECV : P_RECV, from[i], ch | phase, 0);
		for (int i = 0; !bad && i < out.n; i++)
			bad = push_prim(k, ex ? P_ISEND : P_SEND, out.dst[i], ch | phase,
			                out.bytes[i]);
		if (!bad && ex)
			bad = push_prim(k, P_WAITCOLL, 0, 0, 0);
		free(out.dst), free(out.bytes);
	}
	if (!bad && (a->op == TR_REDUCE || a->op == TR_ALLREDUCE || a->op == TR_REDUCESCATTER) &&
	    a->b > 0)
		bad = push_prim(k, P_COMPUTE, 0, 0, a->b);
	return bad ? -1 : 0;
}

/* Seconds as whole cycles; beyond MAX_CYCLES (a job's start, a session's
 * end) the clock stops there instead of overflowing. */
static int64_t cycles_of(const struct replay *rp, double seconds)
{
	double c = seconds > 0 ? ceil(seconds / rp->o->cycle_s - 1e-9) : 0;
	return c < MAX_CYCLES ? (int64_t)c : (int64_t)MAX_CYCLES;
}

/* Starts a wait of `cycles` (a computation or a sleep). */
static void busy(struct replay *rp, int g, int64_t cycles)
{
	if (cycles <= 0)
		return;
	rp->rk[g].computing = 1;
	ev_push(rp, rp->now + cycles, 0, g);
}

/* One primitive of rank g. */
static int exec_prim(struct replay *rp, int g, const struct prim *p, struct cmn_err *e)
{
	int xi;
	switch (p->kind) {
	case P_SEND:
	case P_RECV:
	case P_ISEND:
	case P_IRECV: {
		int send = p->kind == P_SEND || p->kind == P_ISEND,
		    async = p->kind == P_ISEND || p->kind == P_IRECV;
		xi = post(rp, g, send, async, p->peer, 1, p->chan, p->amount,
		          e); /* collectives' keys */
		if (xi < 0)
			return e->code;
		if (async) {
			if (add_req(rp, g, xi, 1, 0, 0, 0))
				return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		} else if (!send || p->amount >= EAGER_BYTES) {
			wait_on(rp, g, xi);
		}
		return 0;
	}
	case P_WAITCOLL: wait_reqs(rp, g, 1); return 0;
	case P_COMPUTE:
		if (!rp->o->compute_zero)
			busy(rp, g, cycles_of(rp, p->amount / rp->o->speed_flops));
		return 0;
	}
	return 0;
}

/* One action of rank g's trace. */
static int exec_action(struct replay *rp, int g, const struct trace_action *a, struct cmn_err *e)
{
	struct rank *k = &rp->rk[g];
	const struct trace *t = rp->jobs[k->job].trace;
	int r = k->r, xi;
	double bytes = trace_bytes(t, r, a->dt1, a->a);
	switch (a->op) {
	case TR_COMPUTE:
		if (!rp->o->compute_zero && a->a > 0)
			busy(rp, g, cycles_of(rp, a->a / rp->o->speed_flops));
		return 0;
	case TR_SLEEP: busy(rp, g, cycles_of(rp, a->a)); return 0;
	case TR_SEND:
	case TR_ISEND:
	case TR_RECV:
	case TR_IRECV: {
		int send = a->op == TR_SEND || a->op == TR_ISEND,
		    async = a->op == TR_ISEND || a->op == TR_IRECV;
		if ((xi = post(rp, g, send, async, a->peer, 0, a->tag, bytes, e)) < 0)
			return e->code;
		if (async)
			return add_req(rp, g, xi, 0, send ? r : a->peer, send ? a->peer : r, a->tag)
			           ? cmn_err_set(e, CMN_ENOMEM, "out of memory")
			           : 0;
		if (!send || bytes >= EAGER_BYTES)
			wait_on(rp, g, xi);
		return 0;
	}
	case TR_WAIT: { /* the oldest pending request of its key */
		int at = net_flit_reqs_find(&rp->reqkey, g, a->peer, a->aux, a->tag);
		if (at >= 0) {
			xi = net_flit_reqs_remove(&k->rq, &rp->reqkey, g, at);
			wait_on(rp, g, xi);
			unref(rp, xi);
		}
		return 0;
	}
	case TR_WAITALL: wait_reqs(rp, g, 0); return 0;
	default:
		if (a->op >= TR_BARRIER && a->op <= TR_REDUCESCATTER && expand_collective(rp, g, a))
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		return 0;
	}
}

/* Runs rank g until it waits, computes or ends. */
static int run_rank(struct replay *rp, int g, struct cmn_err *e)
{
	struct rank *k = &rp->rk[g];
	const struct trace *t = rp->jobs[k->job].trace;
	long i;
	while (!k->pending && !k->computing && !k->finished && !rp->oom) {
		if (k->opi < k->nops) {
			struct prim p = k->ops[k->opi++];
			if (k->opi == k->nops)
				k->opi = k->nops = 0;
			if (exec_prim(rp, g, &p, e))
				return e->code;
		} else if ((i = net_walk_next(&k->w)) >= 0) {
			if (exec_action(rp, g, &t->act[k->last = i], e))
				return e->code;
		} else if (k->rq.live) { /* what is still pending, as SMPI's replay does */
			wait_reqs(rp, g, 0);
			wait_reqs(rp, g, 1);
		} else {
			k->finished = 1;
			k->finish = rp->now;
			free(k->ops);
			k->ops = NULL;
			k->capops = 0;
			net_flit_reqs_free(&k->rq);
			rp->left--;
			if (--rp->jleft[k->job] == 0) {
				rp->jend[k->job] = rp->now;
				if (grow((void **)&rp->ended, &rp->capended, rp->nended + 1,
				         sizeof *rp->ended))
					rp->oom = 1;
				else
					rp->ended[rp->nended++] = k->job;
			}
		}
	}
	return rp->oom ? cmn_err_set(e, CMN_ENOMEM, "out of memory") : 0;
}

static void delivered(void *ctx, const struct flit_delivery *d)
{
	struct replay *rp = ctx;
	struct xfer *x = &rp->x[d->id];
	if (--x->packets_left == 0) /* its ranks resume in the next cycle */
		ev_push(rp, d->done + 1, 1, (int)d->id);
}

/* A deadlock of the traces: the first blocked ranks and what they do. */
static int stuck(struct replay *rp, struct cmn_err *e)
{
	char what[600] = "";
	int shown = 0;
	for (int g = 0; g < rp->nrk && shown < 4; g++) {
		struct rank *k = &rp->rk[g];
		if (k->finished)
			continue;
		const struct trace *t = rp->jobs[k->job].trace;
		const struct trace_action *a = k->last >= 0 ? &t->act[k->last] : NULL;
		size_t len = strlen(what);
		snprintf(what + len, sizeof what - len, "%s%s rank %d at %s (trace line %u)",
		         shown ? "; " : "", rp->jobs[k->job].name, k->r,
		         a ? trace_op_name(a->op) : "its start", a ? a->line : 0);
		shown++;
	}
	return cmn_err_set(e, CMN_EINPUT,
	                   "flit replay: every unfinished rank waits for a message that "
	                   "is never sent (cycle %lld): %s",
	                   (long long)rp->now, what);
}

/* The largest message a rank sends for an action (trace_expand_sends). */
static void largest(void *ctx, int phase, int dst, double bytes)
{
	(void)phase, (void)dst;
	double *m = ctx;
	if (bytes > *m)
		*m = bytes;
}

static int too_much(const struct trace *t, int r, long k, struct cmn_err *e, const char *fmt,
                    double x, double y)
{
	char what[300];
	snprintf(what, sizeof what, fmt, x, y);
	return cmn_err_set(e, CMN_EINPUT, "%s:%u: error: rank %d: %s: %s",
	                   t->files[r] ? t->files[r] : t->name, t->act[k].line, r,
	                   trace_op_name(t->act[k].op), what);
}

/* Every message of the job within MAX_PACKETS, every rank's compute and
 * sleep within MAX_CYCLES (a repeated range counted as often as it runs). */
static int job_fits(const struct replay *rp, const struct net_job *job, struct cmn_err *e)
{
	const struct flit_replay_opts *o = rp->o;
	const struct trace *t = job->trace;
	double packet = (double)o->flit_bytes * o->packet_flits;
	if (net_repeat_check(job, e))
		return e->code;
	for (int r = 0; r < t->nranks; r++) {
		double cycles = 0;
		for (long k = t->first[r]; k < t->first[r + 1]; k++) {
			const struct trace_action *a = &t->act[k];
			double bytes = 0, s = 0;
			trace_expand_sends(t, r, a, largest, &bytes);
			if (ceil(bytes / packet) > MAX_PACKETS)
				return too_much(
				    t, r, k, e,
				    "a message of %.0f bytes is more than %.0f packets "
				    "(flit_bytes x packet_flits bytes each), the most the "
				    "flit engine queues for one message",
				    bytes, (double)MAX_PACKETS);
			if (a->op == TR_SLEEP)
				s = a->a;
			else if (!o->compute_zero && a->op == TR_COMPUTE)
				s = a->a / o->speed_flops;
			else if (!o->compute_zero && (a->op == TR_REDUCE || a->op == TR_ALLREDUCE ||
			                              a->op == TR_REDUCESCATTER))
				s = a->b / o->speed_flops;
			cycles += s / o->cycle_s * (double)net_walk_times(job->repeat, r, k);
			if (!(cycles <= MAX_CYCLES))
				return too_much(
				    t, r, k, e,
				    "the rank's compute and sleep reach %.3g cycles of "
				    "%.3g s, more than the flit engine's clock counts (2^53)",
				    cycles, o->cycle_s);
		}
	}
	return 0;
}

/* Job j (rp->jobs[j], j = rp->njobs) joins: its ranks and their
 * collectives' action indices. Its ranks are not made ready. */
static int add_job(struct replay *rp, int j, struct cmn_err *e)
{
	const struct net_job *job = &rp->jobs[j];
	const struct trace *t = job->trace;
	if (job_fits(rp, job, e))
		return e->code;
	if (grow((void **)&rp->base, &rp->capbase, j + 2, sizeof *rp->base) ||
	    grow((void **)&rp->jleft, &rp->capjobs, j + 1, sizeof *rp->jleft) ||
	    grow((void **)&rp->jend, &rp->capjend, j + 1, sizeof *rp->jend) ||
	    grow((void **)&rp->rk, &rp->caprk, rp->nrk + t->nranks + 1, sizeof *rp->rk))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	rp->base[j] = rp->nrk;
	rp->base[j + 1] = rp->nrk; /* no ranks until they are all set */
	rp->njobs = j + 1;
	for (int r = 0; r < t->nranks; r++) {
		int node = job->nodes[r];
		if (node < 0 || node >= rp->m->nodes) /* teardown sees none of the job's ranks */
			return cmn_err_set(e, CMN_EUSAGE, "%s rank %d: node %d (nodes 0..%d)",
			                   job->name, r, node, rp->m->nodes - 1);
		struct rank *k = &rp->rk[rp->nrk + r];
		*k = (struct rank){.job = j, .r = r, .node = node, .last = -1};
		net_flit_reqs_init(&k->rq);
		net_walk_init(&k->w, t, job->repeat, r);
	}
	rp->nrk += t->nranks;
	rp->base[j + 1] = rp->nrk;
	rp->left += t->nranks;
	rp->jleft[j] = t->nranks;
	rp->jend[j] = -1;
	return 0;
}

static int setup(struct replay *rp, int n, struct cmn_err *e)
{
	for (int j = 0; j < n; j++)
		if (add_job(rp, j, e))
			return e->code;
	return 0;
}

static void teardown(struct replay *rp)
{
	for (int g = 0; rp->rk && g < rp->nrk; g++) {
		free(rp->rk[g].ops);
		net_flit_reqs_free(&rp->rk[g].rq);
	}
	free(rp->rk);
	free(rp->base);
	free(rp->jleft);
	free(rp->jend);
	free(rp->ended);
	free(rp->ready);
	free(rp->x);
	free(rp->xfree);
	free(rp->from);
	cmn_htab_free(&rp->tab);
	cmn_htab_free(&rp->reqkey);
	free(rp->heap);
	net_flit_net_destroy(rp->net);
}

/* Runs until every rank has finished, until cycle stop (>= 0), or, with
 * to_job_end, until a job ended (rp->ended grew) in the cycle just run. */
static int advance(struct replay *rp, int64_t stop, int to_job_end, struct cmn_err *e)
{
	int rc = 0, ended = rp->nended;
	while (!rc && !rp->oom) {
		while (rp->nheap && rp->heap[0].at <= rp->now) { /* what is due now */
			struct ev v = ev_pop(rp);
			if (v.kind == 0)
				rp->rk[v.idx].computing = 0, make_ready(rp, v.idx);
			else
				complete(rp, v.idx);
		}
		for (int i = 0; !rc && i < rp->nready; i++) /* ranks made ready meanwhile append */
			rc = run_rank(rp, rp->ready[i], e);
		rp->nready = 0;
		if (rc || !rp->left || (stop >= 0 && rp->now >= stop) ||
		    (to_job_end && rp->nended > ended))
			break;
		if (net_flit_net_in_flight(rp->net) > 0) {
			rc = net_flit_net_run(rp->net, rp->now + 1, delivered, rp, e);
			rp->now++;
		} else if (rp->nheap) { /* idle: straight to the next event */
			rp->now = rp->heap[0].at > rp->now ? rp->heap[0].at : rp->now;
			if (stop >= 0 && rp->now > stop)
				rp->now = stop;
			rc = net_flit_net_run(rp->net, rp->now, NULL, NULL, e);
		} else {
			rc = stuck(rp, e);
		}
	}
	if (!rc && rp->oom)
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	return rc;
}

static int check_opts(const struct flit_replay_opts *o, struct cmn_err *e)
{
	if (!(o->cycle_s > 0) || o->flit_bytes < 1 || o->packet_flits < 1 || !(o->speed_flops > 0))
		return cmn_err_set(e, CMN_EUSAGE,
		                   "flit replay: cycle time, flit bytes, packet flits and node "
		                   "speed must be positive");
	return 0;
}

static int open_net(struct replay *rp, const struct flit_params *p, struct cmn_err *e)
{
	int rc = net_flit_net_create(rp->m, p, &rp->net, e);
	if (!rc) /* a replay's packets are its messages' */
		net_flit_net_set_overflow_hint(
		    rp->net, "(the messages posted at once, in packets of packet_flits flits of "
		             "flit_bytes bytes): replay all-to-alls as rings (netsim --alltoall "
		             "ring, cosim alltoall=ring), fewer ranks or bytes, larger flits or "
		             "packets (flit_bytes, packet_flits)");
	if (!rc && (rc = net_flit_net_packet_ok(rp->net, rp->o->packet_flits, e)))
		cmn_err_prefix(e, "flit replay (packet_flits)");
	return rc;
}

int net_flit_replay_run(const struct plat_machine *m, const struct flit_params *p,
                        const struct flit_replay_opts *o, const struct net_job *jobs, int n,
                        double until, struct net_job_result *results, long *link_flits,
                        int64_t *cycles, struct cmn_err *e)
{
	if (check_opts(o, e))
		return e->code;
	struct replay rp = {.m = m, .o = o, .jobs = jobs};
	cmn_htab_init(&rp.tab, sizeof(struct slot));
	cmn_htab_init(&rp.reqkey, net_flit_reqs_key_size());
	int rc = setup(&rp, n, e);
	if (!rc)
		rc = open_net(&rp, p, e);
	for (int g = 0; !rc && g < rp.nrk; g++) {
		int64_t at = cycles_of(&rp, jobs[rp.rk[g].job].start);
		if (at > 0)
			ev_push(&rp, at, 0, g), rp.rk[g].computing = 1;
		else
			make_ready(&rp, g);
	}
	if (!rc)
		rc = advance(&rp, until > 0 ? cycles_of(&rp, until) : -1, 0, e);
	for (int j = 0; !rc && j < n; j++) {
		results[j].start = jobs[j].start;
		results[j].finish = rp.jend[j] >= 0 ? (double)rp.jend[j] * o->cycle_s : -1;
	}
	if (!rc && link_flits)
		memcpy(link_flits, net_flit_net_link_flits(rp.net),
		       (size_t)m->nlinks * sizeof *link_flits);
	if (!rc && cycles)
		*cycles = rp.now;
	teardown(&rp);
	return rc;
}

/* --- live sessions (netsim.h): jobs join the replay at the current cycle --- */
struct flit_live {
	struct net_live base; /* first: the session's operations */
	struct replay rp;
	struct net_job *jobs; /* with copies of their names and nodes */
	long capjobs;
	int reported; /* rp.ended[0 .. reported) were returned by wait */
	struct cmn_err err;
};

static struct flit_live *fl_of(struct net_live *lv)
{
	return (struct flit_live *)lv;
}

static double fl_now(const struct net_live *lv)
{
	const struct flit_live *fl = (const struct flit_live *)lv;
	return (double)fl->rp.now * fl->rp.o->cycle_s;
}

static int fl_start(struct net_live *lv, const struct net_job *job, struct cmn_err *e)
{
	struct flit_live *fl = fl_of(lv);
	struct replay *rp = &fl->rp;
	int j = rp->njobs, n = job->trace->nranks;
	if (job->trace->fragment >= 0)
		return cmn_err_set(e, CMN_EUSAGE, "job %s: one rank's file, not a whole trace",
		                   job->name),
		       -1;
	if (grow((void **)&fl->jobs, &fl->capjobs, j + 1, sizeof *fl->jobs))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory"), -1;
	size_t len = strlen(job->name) + 1;
	char *name = malloc(len);
	int *nodes = malloc((size_t)n * sizeof *nodes);
	if (!name || !nodes) {
		free(name), free(nodes);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory"), -1;
	}
	memcpy(name, job->name, len);
	memcpy(nodes, job->nodes, (size_t)n * sizeof *nodes);
	fl->jobs[j] = (struct net_job){name, job->trace, nodes, 0, job->repeat};
	rp->jobs = fl->jobs;
	if (add_job(rp, j, e)) {
		if (rp->njobs > j) /* it joined with no ranks: it leaves */
			rp->njobs = j;
		free(name), free(nodes);
		return -1;
	}
	for (int g = rp->base[j]; g < rp->base[j + 1]; g++)
		make_ready(rp, g);
	return rp->oom ? cmn_err_set(e, CMN_ENOMEM, "out of memory"), -1 : j;
}

/* The jobs that ended in the earliest cycle not yet reported (at most
 * max); their copies of names and nodes go (a job's ranks have all ended,
 * and its trace may go now). */
static int fl_report(struct flit_live *fl, double t, double *t_out, int *ended, int max)
{
	const struct replay *rp = &fl->rp;
	int64_t at = rp->jend[rp->ended[fl->reported]];
	int n = 0;
	while (fl->reported < rp->nended && n < max && rp->jend[rp->ended[fl->reported]] == at) {
		struct net_job *job = &fl->jobs[ended[n++] = rp->ended[fl->reported++]];
		free((char *)job->name), free((int *)job->nodes);
		*job = (struct net_job){NULL, NULL, NULL, 0, NULL};
	}
	double when = (double)at * rp->o->cycle_s;
	*t_out = when < t ? when : t;
	return n;
}

static int fl_wait(struct net_live *lv, double t, double *t_out, int *ended, int max)
{
	struct flit_live *fl = fl_of(lv);
	struct replay *rp = &fl->rp;
	if (fl->reported < rp->nended)
		return fl_report(fl, t, t_out, ended, max);
	int64_t stop = isinf(t) ? -1 : cycles_of(rp, t);
	if (!rp->left) { /* nothing runs: time just passes */
		if (stop > rp->now && net_flit_net_run(rp->net, stop, NULL, NULL, &fl->err) == 0)
			rp->now = stop;
		*t_out = isinf(t) ? fl_now(lv) : t;
		return 0;
	}
	if (stop >= 0 && stop <= rp->now) {
		*t_out = t;
		return 0;
	}
	if (advance(rp, stop, 1, &fl->err)) { /* the session ends: say why here */
		fprintf(stderr, "flit live session: %s\n", fl->err.msg);
		return -1;
	}
	if (fl->reported < rp->nended)
		return fl_report(fl, t, t_out, ended, max);
	*t_out = t;
	return 0;
}

int net_flit_replay_live(const struct plat_machine *m, const struct flit_params *p,
                         const struct flit_replay_opts *o,
                         int (*body)(void *ctx, struct net_live *lv, struct cmn_err *e), void *ctx,
                         struct cmn_err *e)
{
	static const struct net_live_ops ops = {fl_start, fl_wait, fl_now};
	if (check_opts(o, e))
		return e->code;
	struct flit_live *fl = calloc(1, sizeof *fl);
	if (!fl)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	fl->base.ops = &ops;
	fl->rp = (struct replay){.m = m, .o = o};
	cmn_htab_init(&fl->rp.tab, sizeof(struct slot));
	cmn_htab_init(&fl->rp.reqkey, net_flit_reqs_key_size());
	int rc = open_net(&fl->rp, p, e);
	if (!rc)
		rc = body(ctx, &fl->base, e);
	for (int j = 0; j < fl->rp.njobs; j++)
		free((char *)fl->jobs[j].name), free((int *)fl->jobs[j].nodes);
	teardown(&fl->rp);
	free(fl->jobs);
	free(fl);
	return rc;
}

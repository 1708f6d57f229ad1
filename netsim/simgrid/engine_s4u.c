/* The SimGrid engine with our own replay: each rank an actor on its host
 * that interprets its trace actions with SimGrid's C API (s4u): compute as
 * an execution of the flops on the host; point-to-point through mailboxes
 * per (job, source, destination, tag), sends below 64 KiB eager (detached,
 * like SMPI's default threshold), larger ones rendezvous; isend/irecv as
 * asynchronous communications that wait/waitall complete; every collective
 * expanded into point-to-point messages by apptraces/trace_expand.h (the
 * traffic matrix's expansion), phase by phase, followed by the flops of a
 * reduction. A job's repeated range (netsim.h's net_repeat) runs as if
 * written out (walk.h). It shares set-up, one fork per evaluation and link
 * loads with the SMPI engine (sg_engine.c) and runs on the same network
 * model (network/model:SMPI), so the two can be compared on the same
 * traces. */
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/mailbox.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../apptraces/trace_expand.h"
#include "../engine/walk.h"
#include "sg_engine.h"

#define EAGER_BYTES 65536.0

/* Per job: the ranks' contexts, made by start (in the process that runs
 * them), freed with the plan. */
struct job_plan {
	struct rank_ctx *ctx;
};

struct req {
	int src, dst, tag;
	sg_comm_t comm;
};

struct rank_ctx {
	const struct net_job *job;
	const struct job_plan *plan;
	int rank, j, ring; /* ring: alltoall(v) in rounds (netsim.h) */
	long eval;
	double start, *finish;
	struct sg_notify *notify;
	struct req *reqs;
	int nreq, capreq;
};

/* Appends c, then v in decimal, at p; returns the end. A mailbox is named
 * for every message, so its name is written without snprintf, whose
 * format parsing was 5% of a shared replay (perf, results/bench). */
static char *put_num(char *p, char c, long v)
{
	char digits[24];
	int n = 0;
	unsigned long u = v < 0 ? 0UL - (unsigned long)v : (unsigned long)v;
	*p++ = c;
	if (v < 0)
		*p++ = '-';
	do
		digits[n++] = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	while (n)
		*p++ = digits[--n];
	return p;
}

static sg_mailbox_t p2p_box(const struct rank_ctx *c, int src, int dst, int tag)
{
	char name[96], *p = name; /* "e%ld.j%d.%d>%d#%d" */
	p = put_num(p, 'e', c->eval);
	*p++ = '.';
	p = put_num(p, 'j', c->j);
	p = put_num(p, '.', src);
	p = put_num(p, '>', dst);
	p = put_num(p, '#', tag);
	*p = '\0';
	return sg_mailbox_by_name(name);
}

static void add_req(struct rank_ctx *c, int src, int dst, int tag, sg_comm_t comm)
{
	if (c->nreq == c->capreq) {
		c->capreq = c->capreq ? 2 * c->capreq : 16;
		c->reqs = realloc(c->reqs, (size_t)c->capreq * sizeof *c->reqs);
		if (!c->reqs)
			_exit(3);
	}
	c->reqs[c->nreq++] = (struct req){src, dst, tag, comm};
}

static void wait_req(struct rank_ctx *c, int src, int dst, int tag)
{
	for (int i = 0; i < c->nreq; i++)
		if (c->reqs[i].src == src && c->reqs[i].dst == dst && c->reqs[i].tag == tag) {
			sg_comm_wait(c->reqs[i].comm);
			memmove(&c->reqs[i], &c->reqs[i + 1],
			        (size_t)(c->nreq - i - 1) * sizeof *c->reqs);
			c->nreq--;
			return;
		}
}

static void wait_all(struct rank_ctx *c)
{
	for (int i = 0; i < c->nreq; i++)
		sg_comm_wait(c->reqs[i].comm);
	c->nreq = 0;
}

/* A collective's messages go through one mailbox per (job, phase, source,
 * destination), whichever collective it is: a rank posts its sends and its
 * receives in the collectives' order, so they match first-in first-out as
 * with one mailbox per collective, and the mailboxes (which SimGrid keeps
 * until the end) stay as many as the running jobs' rank pairs instead of
 * growing with every collective run. */
static sg_mailbox_t coll_box(const struct rank_ctx *c, int phase, int src, int dst)
{
	char name[96], *p = name; /* "e%ld.j%d.c%d.%d>%d" */
	p = put_num(p, 'e', c->eval);
	*p++ = '.';
	p = put_num(p, 'j', c->j);
	*p++ = '.';
	p = put_num(p, 'c', phase);
	p = put_num(p, '.', src);
	p = put_num(p, '>', dst);
	*p = '\0';
	return sg_mailbox_by_name(name);
}

/* SimGrid's mailboxes need a non-NULL payload: the sender's context
 * (receivers never read it). */
static void send_bytes(struct rank_ctx *c, sg_mailbox_t mb, double bytes)
{
	if (bytes < EAGER_BYTES)
		sg_comm_detach(sg_mailbox_put_init(mb, c, (long)bytes), NULL);
	else
		sg_mailbox_put(mb, c, (long)bytes);
}

/* Messages of one phase of a collective: what this rank sends, and what
 * every other rank sends it. */
struct msgs {
	int phase, me;
	int *dst;
	double *bytes;
	int n, cap;
};

static void keep(void *ctx, int phase, int dst, double bytes)
{
	struct msgs *m = ctx;
	if (phase != m->phase || (m->me >= 0 && dst != m->me))
		return;
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 16;
		m->dst = realloc(m->dst, (size_t)m->cap * sizeof *m->dst);
		m->bytes = realloc(m->bytes, (size_t)m->cap * sizeof *m->bytes);
		if (!m->dst || !m->bytes)
			_exit(3);
	}
	m->dst[m->n] = dst;
	m->bytes[m->n++] = bytes;
}

/* alltoall(v) in rounds (SMPI's ring): in round i this rank sends its block
 * for r + i and receives the block of r - i, one message each way even when
 * a block is empty, then the next round. */
static void exchange_rounds(struct rank_ctx *c, const struct trace_action *a)
{
	const struct trace *t = c->job->trace;
	int r = c->rank, n = t->nranks;
	struct msgs out = {0, -1, NULL, NULL, 0, 0};
	trace_expand_sends(t, r, a, keep, &out);
	double *block = calloc((size_t)n, sizeof *block);
	if (!block)
		_exit(3);
	for (int i = 0; i < out.n; i++)
		block[out.dst[i]] += out.bytes[i];
	for (int i = 1; i < n; i++) {
		void *data;
		sg_comm_t comms[2] = {
		    sg_mailbox_get_async(coll_box(c, 0, (r - i + n) % n, r), &data),
		    sg_mailbox_put_async(coll_box(c, 0, r, (r + i) % n), c,
		                         (long)block[(r + i) % n])};
		sg_comm_wait_all(comms, 2);
	}
	free(block);
	free(out.dst), free(out.bytes);
}

static void collective(struct rank_ctx *c, const struct trace_action *a)
{
	const struct trace *t = c->job->trace;
	int r = c->rank, n = t->nranks;
	if (c->ring && (a->op == TR_ALLTOALL || a->op == TR_ALLTOALLV)) {
		exchange_rounds(c, a);
		return;
	}
	int *from = malloc((size_t)n * sizeof *from);
	sg_comm_t *comms = malloc(((size_t)n + 64) * sizeof *comms);
	void **data = malloc(((size_t)n + 64) * sizeof *data);
	if (!from || !comms || !data)
		_exit(3);
	for (int phase = 0; phase < trace_expand_phases(a->op); phase++) {
		struct msgs out = {phase, -1, NULL, NULL, 0, 0};
		trace_expand_sends(t, r, a, keep, &out);
		int nin = trace_expand_sources(t, r, a, phase, from); /* who sends to r */
		if (trace_expand_is_exchange(a->op)) { /* post everything, then wait */
			int nc = 0;
			sg_comm_t *cs =
			    realloc(comms, ((size_t)nin + (size_t)out.n + 1) * sizeof *cs);
			void **ds = realloc(data, ((size_t)nin + 1) * sizeof *ds);
			if (!cs || !ds)
				_exit(3);
			comms = cs;
			data = ds;
			for (int i = 0; i < nin; i++)
				comms[nc++] =
				    sg_mailbox_get_async(coll_box(c, phase, from[i], r), &data[i]);
			for (int i = 0; i < out.n; i++)
				comms[nc++] = sg_mailbox_put_async(
				    coll_box(c, phase, r, out.dst[i]), c, (long)out.bytes[i]);
			sg_comm_wait_all(comms, (size_t)nc);
		} else { /* receive what comes to this rank, then pass on */
			for (int i = 0; i < nin; i++)
				sg_mailbox_get(coll_box(c, phase, from[i], r));
			for (int i = 0; i < out.n; i++)
				send_bytes(c, coll_box(c, phase, r, out.dst[i]), out.bytes[i]);
		}
		free(out.dst), free(out.bytes);
	}
	if ((a->op == TR_REDUCE || a->op == TR_ALLREDUCE || a->op == TR_REDUCESCATTER) && a->b > 0)
		sg_actor_execute(a->b);
	free(from);
	free(comms);
	free(data);
}

static void rank_main(int argc, char **argv)
{
	(void)argc, (void)argv;
	struct rank_ctx *c = sg_actor_self_get_data();
	const struct trace *t = c->job->trace;
	int r = c->rank;
	long i;
	struct net_walk w;
	net_walk_init(&w, t, c->job->repeat, r);
	if (c->start > simgrid_get_clock())
		sg_actor_sleep_until(c->start);
	while ((i = net_walk_next(&w)) >= 0) {
		const struct trace_action *a = &t->act[i];
		double bytes = trace_bytes(t, r, a->dt1, a->a);
		void *got;
		switch (a->op) {
		case TR_COMPUTE:
			if (a->a > 0)
				sg_actor_execute(a->a);
			break;
		case TR_SLEEP: sg_actor_sleep_for(a->a); break;
		case TR_SEND: send_bytes(c, p2p_box(c, r, a->peer, a->tag), bytes); break;
		case TR_ISEND:
			add_req(
			    c, r, a->peer, a->tag,
			    sg_mailbox_put_async(p2p_box(c, r, a->peer, a->tag), c, (long)bytes));
			break;
		case TR_RECV: sg_mailbox_get(p2p_box(c, a->peer, r, a->tag)); break;
		case TR_IRECV:
			add_req(c, a->peer, r, a->tag,
			        sg_mailbox_get_async(p2p_box(c, a->peer, r, a->tag), &got));
			break;
		case TR_WAIT: wait_req(c, a->peer, a->aux, a->tag); break;
		case TR_WAITALL: wait_all(c); break;
		default:
			if (a->op >= TR_BARRIER && a->op <= TR_REDUCESCATTER)
				collective(c, a);
			break;
		}
	}
	wait_all(c); /* what is still pending, as SMPI's replay does */
	*c->finish = simgrid_get_clock();
	free(c->reqs);
	c->reqs = NULL;
	if (c->notify)
		net_sg_notify_done(c->notify);
}

static void s4u_release(const struct net_job *job, void *data);

/* The job's plan (parent side, shared by the fork): its repeated range
 * checked, room for its ranks' contexts. */
static int s4u_prepare(struct sg_state *s, const struct net_job *job, int first_pid, void **data,
                       struct cmn_err *e)
{
	(void)s, (void)first_pid; /* no ids to compensate: our own mailboxes */
	if (net_repeat_check(job, e))
		return e->code;
	struct job_plan *p = calloc(1, sizeof *p);
	if (!p)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	*data = p;
	return 0;
}

static void s4u_release(const struct net_job *job, void *data)
{
	struct job_plan *p = data;
	if (!p)
		return;
	(void)job;
	free(p->ctx);
	free(p);
}

static void s4u_start(struct sg_state *s, const struct net_job *job, int j, void *data, double t0,
                      double *finish, struct sg_notify *notify)
{
	const struct trace *t = job->trace;
	struct rank_ctx *ctx = calloc((size_t)t->nranks, sizeof *ctx);
	if (!ctx)
		_exit(3);
	((struct job_plan *)data)->ctx = ctx;
	for (int r = 0; r < t->nranks; r++) {
		ctx[r] = (struct rank_ctx){job,
		                           data,
		                           r,
		                           j,
		                           net_sg_engine_alltoall_ring(s),
		                           net_sg_engine_evaluation(s),
		                           t0 + job->start,
		                           &finish[r],
		                           notify,
		                           NULL,
		                           0,
		                           0};
		char name[64];
		snprintf(name, sizeof name, "e%ld-j%d-%d", net_sg_engine_evaluation(s), j, r);
		sg_actor_t a = sg_actor_init(name, net_sg_engine_host(s, job->nodes[r]));
		sg_actor_set_data(a, &ctx[r]);
		if (notify)
			net_sg_notify_actor(notify, r, a);
		sg_actor_start_(a, rank_main, 0, NULL);
	}
}

static const struct sg_variant s4u_variant = {0, s4u_prepare, s4u_start, s4u_release, NULL};

static int s4u_create(const struct net_engine_args *a, void **state, struct cmn_err *e)
{
	return net_sg_engine_create(&s4u_variant, a, state, e);
}

const struct net_engine_ops net_engine_s4u_ops = {
    .base = {"s4u", "flow-level: our own replay of each trace (s4u actors) on a SimGrid platform",
             net_no_params},
    .create = s4u_create,
    .evaluate = net_sg_engine_evaluate,
    .evaluate_many = net_sg_engine_evaluate_many,
    .links = net_sg_engine_links,
    .destroy = net_sg_engine_destroy,
    .live = net_sg_engine_live,
};

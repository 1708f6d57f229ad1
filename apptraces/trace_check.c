/* The matching pass: an abstract execution of every rank that finds, before
 * any engine runs the trace, what would make a replay hang or misbehave.
 * Sends are eager (a send completes when posted, as MPI allows and SMPI does
 * below its rendezvous threshold), so a trace is refused only for what no
 * MPI implementation can run:
 *  - a send with no recv of the same (source, destination, tag), matched in
 *    order (MPI's non-overtaking rule), or a recv/irecv that nothing matches;
 *    when every rank is blocked in a cycle and a rank of it posts the
 *    message awaited only later, a deadlock naming the cycle;
 *  - a receive smaller than the message it gets (MPI_ERR_TRUNCATE);
 *  - a wait for a request the rank never posted (nor tested);
 *  - an action after the rank's finalize;
 *  - collectives: the k-th collective of every rank must be the same
 *    operation with the same root, and every rank must reach it; once all
 *    have, no rank may get more bytes than it posted (truncation, as for
 *    point-to-point) and bcast, reduce, allreduce and reducescatter's recv
 *    counts must be equal in bytes on every rank (trace_check_coll.c).
 * Unfinished requests at the end are waited for, as SimGrid's replay does. */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../common/grow.h"
#include "../common/hash.h"
#include "../common/htab.h"
#include "trace.h"
#include "trace_check_coll.h"

struct msg {
	int rank; /* sender, or receiver */
	int req;  /* receiver's request index, -1 for a blocking recv */
	long act; /* the action's index in t->act */
	double bytes;
};

struct queue {
	struct msg *m;
	long head, n, cap;
};

/* A channel: its unmatched sends and receives, and the pending requests
 * (isends and irecvs not waited for yet) of its sender (side 0) and of
 * its receiver (side 1; side 0 too when they are one rank), in the order
 * they were posted: a wait takes the oldest of its key at once. */
struct chan {
	int src, dst, tag;
	struct queue sends, recvs;
	int fh[2], ft[2]; /* first and last request, -1: none */
};

/* A request in its rank's slots, which stay where they are until it is
 * waited for (a receive's message names its slot); then the slot is free. */
struct req {
	int src, dst, tag, done;
	long act;
	int knext;        /* the next request of its key (a free slot: the next free one) */
	int lprev, lnext; /* the rank's pending requests, in the order posted */
};

enum { RUN, BLOCKED, DONE };

struct rank_state {
	long pc, end;
	int state, coll;
	struct req *r;
	int nr;           /* slots used so far */
	long capr;        /* slots allocated */
	int free;         /* the first free slot, -1: none */
	int lhead, ltail; /* its pending requests, oldest first */
	long open;        /* pending and not done */
};

struct checker {
	const struct trace *t;
	struct cmn_err *e;
	struct cmn_htab ch; /* of struct chan, by (src, dst, tag) */
	struct rank_state *rs;
	int *work, nwork;
	int *tested_any; /* per rank: did it run a test action */
	/* collectives: op, root and arrivals of the k-th */
	int *coll_op, *coll_root, *coll_arrived;
	long *coll_act;
	int ncoll, capcoll;
	long *coll_at;                  /* per rank: its action at its latest collective */
	struct trace_coll_scratch coll; /* for trace_coll_check */
};

/* "FILE:LINE: error: rank R" where a message begins, "FILE:LINE: rank R"
 * for the other action it names (trace_check_place). */
static const char *where(const struct checker *c, int rank, long act, char *buf, size_t n)
{
	return trace_check_place(c->t, rank, act, 1, buf, n);
}

static const char *other(const struct checker *c, int rank, long act, char *buf, size_t n)
{
	return trace_check_place(c->t, rank, act, 0, buf, n);
}

static int nomem(struct checker *c)
{
	return cmn_err_set(c->e, CMN_ENOMEM, "out of memory");
}

static uint64_t hash3(int a, int b, int c)
{
	uint64_t h = cmn_fnv64(CMN_FNV64_BASIS, (unsigned)a);
	h = cmn_fnv64(cmn_fnv64(h, (unsigned)b), (unsigned)c);
	return h ^ (h >> 29); /* the high bits into the low ones a table's slot takes */
}

static int chan_match(const void *entry, const void *key)
{
	const struct chan *x = entry, *k = key;
	return x->src == k->src && x->dst == k->dst && x->tag == k->tag;
}

static struct chan *get_chan(struct checker *c, int src, int dst, int tag)
{
	struct chan k = {src, dst, tag, {0}, {0}, {-1, -1}, {-1, -1}};
	int added;
	struct chan *ch = cmn_htab_put(&c->ch, hash3(src, dst, tag), chan_match, &k, &added);
	if (ch && added)
		*ch = k;
	return ch;
}

static int push(struct queue *q, struct msg m)
{
	if (q->head > 0 && q->head == q->n) /* empty: restart */
		q->head = q->n = 0;
	if (q->n == q->cap) {
		long cap = q->cap ? q->cap * 2 : 4;
		struct msg *n = realloc(q->m, (size_t)cap * sizeof *n);
		if (!n)
			return -1;
		q->m = n;
		q->cap = cap;
	}
	q->m[q->n++] = m;
	return 0;
}

static void wake(struct checker *c, int r)
{
	if (c->rs[r].state == BLOCKED) {
		c->rs[r].state = RUN;
		c->work[c->nwork++] = r;
	}
}

/* A send (from its sender's action) meets a receive: check sizes, complete. */
static int deliver(struct checker *c, const struct msg *s, const struct msg *r)
{
	if (s->bytes > r->bytes) {
		char a[600], b[600];
		return cmn_err_set(c->e, CMN_EINPUT,
		                   "%s: %s of %.0f bytes received by a %s of %.0f bytes at %s "
		                   "(truncated)",
		                   where(c, s->rank, s->act, a, sizeof a),
		                   trace_op_name(c->t->act[s->act].op), s->bytes,
		                   trace_op_name(c->t->act[r->act].op), r->bytes,
		                   other(c, r->rank, r->act, b, sizeof b));
	}
	struct rank_state *rs = &c->rs[r->rank];
	if (r->req >= 0) {
		rs->open -= !rs->r[r->req].done;
		rs->r[r->req].done = 1;
	} else
		rs->pc++; /* the blocking recv is over */
	wake(c, r->rank);
	return 0;
}

static struct chan *find_chan(const struct checker *c, int src, int dst, int tag)
{
	struct chan k = {src, dst, tag, {0}, {0}, {-1, -1}, {-1, -1}};
	return cmn_htab_find(&c->ch, hash3(src, dst, tag), chan_match, &k);
}

/* Rank r's side of channel ch (0: its sender, also when r receives too). */
static int side(const struct chan *ch, int r)
{
	return ch->src == r ? 0 : 1;
}

/* Rank r's oldest pending request of key (src, dst, tag), or -1 (none
 * of its own: a key of two other ranks holds none of r's). */
static int find_req(const struct checker *c, int r, int src, int dst, int tag)
{
	const struct chan *ch = src == r || dst == r ? find_chan(c, src, dst, tag) : NULL;
	return ch ? ch->fh[side(ch, r)] : -1;
}

/* Rank r posts request q on channel ch: its slot, or -1 out of memory. */
static int add_req(struct checker *c, int r, struct chan *ch, struct req q)
{
	struct rank_state *rs = &c->rs[r];
	int i = rs->free;
	if (i >= 0) {
		rs->free = rs->r[i].knext;
	} else {
		if (rs->nr == INT_MAX ||
		    cmn_grow((void **)&rs->r, &rs->capr, (long)rs->nr + 1, 8, sizeof *rs->r))
			return -1;
		i = rs->nr++;
	}
	q.knext = -1;
	q.lprev = rs->ltail;
	q.lnext = -1;
	rs->r[i] = q;
	if (rs->ltail >= 0)
		rs->r[rs->ltail].lnext = i;
	else
		rs->lhead = i;
	rs->ltail = i;
	int sd = side(ch, r);
	if (ch->ft[sd] >= 0)
		rs->r[ch->ft[sd]].knext = i;
	else
		ch->fh[sd] = i;
	ch->ft[sd] = i;
	rs->open += !q.done;
	return i;
}

/* Rank r's request i, done and the oldest of its key, waited for: off its
 * key's queue and the pending list, its slot free. */
static void waited(struct checker *c, int r, int i)
{
	struct rank_state *rs = &c->rs[r];
	struct req *q = &rs->r[i];
	struct chan *ch = find_chan(c, q->src, q->dst, q->tag);
	int sd = side(ch, r);
	ch->fh[sd] = q->knext;
	if (ch->fh[sd] < 0)
		ch->ft[sd] = -1;
	if (q->lprev >= 0)
		rs->r[q->lprev].lnext = q->lnext;
	else
		rs->lhead = q->lnext;
	if (q->lnext >= 0)
		rs->r[q->lnext].lprev = q->lprev;
	else
		rs->ltail = q->lprev;
	q->knext = rs->free;
	rs->free = i;
}

static int all_done(const struct rank_state *rs)
{
	return rs->open == 0;
}

static int is_collective(int op)
{
	return op >= TR_BARRIER && op <= TR_REDUCESCATTER;
}

static int has_root(int op)
{
	return op == TR_BCAST || op == TR_REDUCE || op == TR_GATHER || op == TR_GATHERV ||
	       op == TR_SCATTER || op == TR_SCATTERV;
}

/* Rank r arrives at its next collective (action k). */
static int arrive(struct checker *c, int r, long k)
{
	const struct trace_action *a = &c->t->act[k];
	int idx = c->rs[r].coll, root = has_root(a->op) ? (a->peer < 0 ? 0 : a->peer) : -1;
	if (idx == c->ncoll) {
		if (c->ncoll == c->capcoll) {
			int cap = c->capcoll ? c->capcoll * 2 : 64;
			int *o = realloc(c->coll_op, (size_t)cap * sizeof *o);
			if (o)
				c->coll_op = o;
			int *ro = realloc(c->coll_root, (size_t)cap * sizeof *ro);
			if (ro)
				c->coll_root = ro;
			int *ar = realloc(c->coll_arrived, (size_t)cap * sizeof *ar);
			if (ar)
				c->coll_arrived = ar;
			long *ac = realloc(c->coll_act, (size_t)cap * sizeof *ac);
			if (ac)
				c->coll_act = ac;
			if (!o || !ro || !ar || !ac)
				return nomem(c);
			c->capcoll = cap;
		}
		c->coll_op[idx] = a->op;
		c->coll_root[idx] = root;
		c->coll_arrived[idx] = 0;
		c->coll_act[idx] = k;
		c->ncoll++;
	} else if (c->coll_op[idx] != a->op || c->coll_root[idx] != root) {
		char w[600], o[600];
		long k0 = c->coll_act[idx];
		int r0 = 0;
		while (!(k0 >= c->t->first[r0] && k0 < c->t->first[r0 + 1]))
			r0++;
		return cmn_err_set(c->e, CMN_EINPUT,
		                   "%s: collective #%d is %s (root %d) here but %s (root %d) at %s",
		                   where(c, r, k, w, sizeof w), idx + 1, trace_op_name(a->op), root,
		                   trace_op_name(c->coll_op[idx]), c->coll_root[idx],
		                   other(c, r0, k0, o, sizeof o));
	}
	c->rs[r].state = BLOCKED;
	c->rs[r].coll++;
	c->coll_at[r] = k;
	if (++c->coll_arrived[idx] == c->t->nranks) {
		int rc = trace_coll_check(c->t, c->coll_at, idx, root, &c->coll, c->e);
		if (rc)
			return rc;
		for (int i = 0; i < c->t->nranks; i++)
			if (c->rs[i].state == BLOCKED && c->rs[i].coll == idx + 1 &&
			    c->rs[i].pc < c->rs[i].end &&
			    is_collective(c->t->act[c->rs[i].pc].op)) {
				c->rs[i].pc++;
				wake(c, i);
			}
	}
	return 0;
}

/* Runs rank r until it blocks or ends. */
static int run(struct checker *c, int r)
{
	const struct trace *t = c->t;
	struct rank_state *rs = &c->rs[r];
	while (rs->state == RUN) {
		if (rs->pc == rs->end) { /* the replay waits for what is left */
			rs->state = all_done(rs) ? DONE : BLOCKED;
			return 0;
		}
		long k = rs->pc;
		const struct trace_action *a = &t->act[k];
		switch (a->op) {
		case TR_SEND:
		case TR_ISEND:
		case TR_RECV:
		case TR_IRECV: {
			int send = a->op == TR_SEND || a->op == TR_ISEND;
			int src = send ? r : a->peer, dst = send ? a->peer : r;
			struct chan *ch = get_chan(c, src, dst, a->tag);
			if (!ch)
				return nomem(c);
			struct msg m = {r, -1, k, trace_bytes(t, r, a->dt1, a->a)};
			if (a->op == TR_ISEND || a->op == TR_IRECV) {
				int q = add_req(c, r, ch,
				                (struct req){src, dst, a->tag, send, k, 0, 0, 0});
				if (q < 0)
					return nomem(c);
				m.req = send ? -1 : q;
			}
			struct queue *other = send ? &ch->recvs : &ch->sends;
			if (other->head < other->n) { /* match the oldest */
				struct msg o = other->m[other->head++];
				rs->pc++;
				if (send ? deliver(c, &m, &o) : deliver(c, &o, &m))
					return c->e->code;
				if (!send && m.req < 0)
					rs->pc--; /* deliver() advanced the blocking recv */
				continue;
			}
			if (push(send ? &ch->sends : &ch->recvs, m))
				return nomem(c);
			if (a->op == TR_RECV) {
				rs->state = BLOCKED;
				return 0;
			}
			rs->pc++;
			continue;
		}
		case TR_WAIT:
		case TR_TEST: {
			int qi = find_req(c, r, a->peer, a->aux, a->tag);
			if (qi < 0) {
				if (a->op == TR_TEST || c->tested_any[r]) {
					rs->pc++;
					continue;
				}
				char w[600];
				return cmn_err_set(c->e, CMN_EINPUT,
				                   "%s: wait for (src %d, dst %d, tag %d): no such "
				                   "isend or irecv is pending",
				                   where(c, r, k, w, sizeof w), a->peer, a->aux,
				                   a->tag);
			}
			if (a->op == TR_TEST) {
				c->tested_any[r] = 1;
				rs->pc++;
				continue;
			}
			if (!rs->r[qi].done) {
				rs->state = BLOCKED;
				return 0;
			}
			waited(c, r, qi);
			rs->pc++;
			continue;
		}
		case TR_WAITALL:
			if (!all_done(rs)) {
				rs->state = BLOCKED;
				return 0;
			}
			while (rs->lhead >= 0) /* each the oldest of its key */
				waited(c, r, rs->lhead);
			rs->pc++;
			continue;
		case TR_FINALIZE:
			if (k + 1 < rs->end) {
				char w[600];
				return cmn_err_set(c->e, CMN_EINPUT,
				                   "%s: %s after finalize (line %u)",
				                   where(c, r, k + 1, w, sizeof w),
				                   trace_op_name(t->act[k + 1].op), a->line);
			}
			rs->pc++;
			continue;
		default:
			if (is_collective(a->op))
				return arrive(c, r, k);
			rs->pc++;
		}
	}
	return 0;
}

/* What a blocked rank waits for: a message from rank `from` with tag
 * (tag -1: rank `from` has not reached the collective), at action `at`. */
struct wait_on {
	int from, tag;
	long at;
};

/* The oldest pending request of rank r not done (with src, dst, tag if
 * want), or NULL. */
static const struct req *open_req(const struct checker *c, int r, const int *want)
{
	const struct rank_state *rs = &c->rs[r];
	int i = want ? find_req(c, r, want[0], want[1], want[2]) : rs->lhead;
	for (; i >= 0; i = want ? rs->r[i].knext : rs->r[i].lnext)
		if (!rs->r[i].done)
			return &rs->r[i];
	return NULL;
}

/* The request blocked rank r waits for: at its end, at a waitall, any not
 * done; at a wait, its key's; else (a recv, a collective) NULL. */
static const struct req *awaited(const struct checker *c, int r)
{
	const struct rank_state *rs = &c->rs[r];
	const struct trace_action *a = rs->pc < rs->end ? &c->t->act[rs->pc] : NULL;
	if (a && a->op == TR_WAIT)
		return open_req(c, r, (int[3]){a->peer, a->aux, a->tag});
	return !a || a->op == TR_WAITALL ? open_req(c, r, NULL) : NULL;
}

/* What blocked rank r waits for; 0, or -1 when it cannot say. */
static int waits_for(const struct checker *c, int r, struct wait_on *w)
{
	const struct rank_state *rs = &c->rs[r];
	const struct trace_action *a = rs->pc < rs->end ? &c->t->act[rs->pc] : NULL;
	w->at = rs->pc;
	if (a && a->op == TR_RECV) {
		w->from = a->peer, w->tag = a->tag;
		return 0;
	}
	if (a && is_collective(a->op)) {
		for (int i = 0; i < c->t->nranks; i++)
			if (c->rs[i].coll < rs->coll) {
				w->from = i, w->tag = -1;
				return 0;
			}
		return -1;
	}
	/* at its end, the replay waits for the open requests */
	const struct req *q = awaited(c, r);
	if (!q)
		return -1;
	w->from = q->src, w->tag = q->tag;
	if (!a)
		w->at = q->act;
	return 0;
}

/* What blocked rank r is in, waiting for w: "recv from 1 tag 0". */
static const char *blocked_in(const struct checker *c, int r, const struct wait_on *w, char *buf,
                              size_t n)
{
	const struct rank_state *rs = &c->rs[r];
	int op = rs->pc < rs->end ? c->t->act[rs->pc].op : -1;
	if (op < 0)
		snprintf(buf, n, "irecv from %d tag %d, open at its end", w->from, w->tag);
	else if (op == TR_RECV)
		snprintf(buf, n, "recv from %d tag %d", w->from, w->tag);
	else if (w->tag < 0)
		snprintf(buf, n, "collective #%d (%s)", rs->coll, trace_op_name(op));
	else
		snprintf(buf, n, "%s for the irecv from %d tag %d", trace_op_name(op), w->from,
		         w->tag);
	return buf;
}

/* printf at the end of buf (n bytes), truncating. */
__attribute__((format(printf, 3, 4))) static void cat(char *buf, size_t n, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;
	va_start(ap, fmt);
	if (len + 1 < n)
		vsnprintf(buf + len, n - len, fmt, ap);
	va_end(ap);
}

/* Every rank is blocked or done: does rank r's wait lead into a cycle of
 * blocked ranks in which a rank waits for a message its peer sends only
 * later? Then that is a deadlock, reported naming the cycle (from its
 * least rank): the error code; 0 when it is no such deadlock. */
static int report_deadlock(struct checker *c, int r)
{
	const struct trace *t = c->t;
	int n = t->nranks, len = 0, *pos = malloc((size_t)n * sizeof *pos),
	    *seq = malloc((size_t)n * sizeof *seq);
	struct wait_on *w = malloc((size_t)n * sizeof *w);
	if (!pos || !seq || !w) {
		free(pos), free(seq), free(w);
		return nomem(c);
	}
	for (int i = 0; i < n; i++)
		pos[i] = -1;
	int x = r, rc = 0;
	while (pos[x] < 0) { /* r, what r waits for, ... until a rank repeats */
		pos[x] = len;
		seq[len] = x;
		if (c->rs[x].state != BLOCKED || waits_for(c, x, &w[len]))
			goto out;
		x = w[len++].from;
	}
	int start = pos[x], least = start, late = -1;
	long send = -1;
	for (int i = start; i < len; i++)
		if (seq[i] < seq[least])
			least = i;
	for (int i = start; i < len && late < 0; i++) { /* a message sent later */
		int y = w[i].from;
		for (long k = c->rs[y].pc; w[i].tag >= 0 && k < c->rs[y].end && late < 0; k++) {
			const struct trace_action *a = &t->act[k];
			if ((a->op == TR_SEND || a->op == TR_ISEND) && a->peer == seq[i] &&
			    a->tag == w[i].tag)
				late = i, send = k;
		}
	}
	if (late < 0)
		goto out;
	char msg[1024] = "", p[600], d[80];
	int m = len - start;
	for (int h = 0; h < m; h++) {
		int i = start + (least - start + h) % m, y = w[i].from;
		if (h == 0)
			cat(msg, sizeof msg,
			    "%s: deadlock of %d rank%s: blocked in %s, it waits for rank %d",
			    where(c, seq[i], w[i].at, p, sizeof p), m, m == 1 ? "" : "s",
			    blocked_in(c, seq[i], &w[i], d, sizeof d), y);
		else if (h < 6)
			cat(msg, sizeof msg, ", blocked in %s at %s, which waits for rank %d",
			    blocked_in(c, seq[i], &w[i], d, sizeof d),
			    other(c, seq[i], w[i].at, p, sizeof p), y);
		else if (h == m - 1)
			cat(msg, sizeof msg, ", ..., rank %d, which waits for rank %d", seq[i], y);
	}
	cat(msg, sizeof msg, "; rank %d sends what rank %d waits for only later, at %s",
	    w[late].from, seq[late], other(c, w[late].from, send, p, sizeof p));
	rc = cmn_err_set(c->e, CMN_EINPUT, "%s", msg);
out:
	free(pos), free(seq), free(w);
	return rc;
}

/* Why is rank r stuck? Its current action. */
static int report_stuck(struct checker *c, int r)
{
	const struct trace *t = c->t;
	struct rank_state *rs = &c->rs[r];
	char w[600];
	int rc = report_deadlock(c, r);
	if (rc)
		return rc;
	const struct req *q = awaited(c, r);
	if (q && rs->pc == rs->end)
		return cmn_err_set(c->e, CMN_EINPUT,
		                   "%s: irecv from %d tag %d is never matched by a send",
		                   where(c, r, q->act, w, sizeof w), q->src, q->tag);
	const struct trace_action *a = &t->act[rs->pc];
	if (a->op == TR_RECV)
		return cmn_err_set(c->e, CMN_EINPUT,
		                   "%s: recv from %d tag %d is never matched by a send",
		                   where(c, r, rs->pc, w, sizeof w), a->peer, a->tag);
	if (q)
		return cmn_err_set(c->e, CMN_EINPUT,
		                   "%s: %s never returns: the irecv from %d tag %d at line %u is "
		                   "never matched by a send",
		                   where(c, r, rs->pc, w, sizeof w), trace_op_name(a->op), q->src,
		                   q->tag, t->act[q->act].line);
	/* a collective: name a rank that does not reach it */
	int idx = rs->coll - 1;
	for (int i = 0; i < t->nranks; i++)
		if (c->rs[i].coll <= idx) {
			char o[600];
			long at = c->rs[i].pc < c->rs[i].end ? c->rs[i].pc : c->rs[i].end - 1;
			return cmn_err_set(
			    c->e, CMN_EINPUT,
			    "%s: collective #%d (%s) is never reached by rank %d, which "
			    "%s at %s",
			    where(c, r, rs->pc, w, sizeof w), idx + 1, trace_op_name(a->op), i,
			    c->rs[i].state == DONE ? "ends" : "is blocked",
			    other(c, i, at, o, sizeof o));
		}
	return cmn_err_set(c->e, CMN_EINPUT, "%s: %s never completes",
	                   where(c, r, rs->pc, w, sizeof w), trace_op_name(a->op));
}

int trace_check(const struct trace *t, struct cmn_err *e)
{
	struct checker c = {.t = t, .e = e};
	cmn_htab_init(&c.ch, sizeof(struct chan));
	trace_coll_scratch_init(&c.coll);
	int n = t->nranks, rc = 0;
	c.rs = calloc((size_t)n, sizeof *c.rs);
	c.work = malloc((size_t)n * sizeof *c.work);
	c.tested_any = calloc((size_t)n, sizeof *c.tested_any);
	c.coll_at = malloc((size_t)n * sizeof *c.coll_at);
	if (!c.rs || !c.work || !c.tested_any || !c.coll_at)
		rc = nomem(&c);
	for (int r = 0; !rc && r < n; r++) {
		c.rs[r] = (struct rank_state){.pc = t->first[r],
		                              .end = t->first[r + 1],
		                              .state = RUN,
		                              .free = -1,
		                              .lhead = -1,
		                              .ltail = -1};
		c.work[c.nwork++] = n - 1 - r; /* rank 0 first */
	}
	while (!rc && c.nwork > 0) {
		int r = c.work[--c.nwork];
		if (c.rs[r].state == RUN)
			rc = run(&c, r);
		/* a rank that ended waiting for requests may now be done */
		if (!rc && c.rs[r].state == BLOCKED && c.rs[r].pc == c.rs[r].end &&
		    all_done(&c.rs[r]))
			c.rs[r].state = DONE;
	}
	/* every rank done? then no send may be left over */
	long first_act = -1;
	int first_rank = -1;
	for (size_t i = 0; !rc && i < c.ch.cap; i++) { /* the least (rank, action): any order */
		const struct chan *ch = cmn_htab_at(&c.ch, i);
		const struct queue *q = ch ? &ch->sends : NULL;
		if (q && q->head < q->n) {
			const struct msg *m = &q->m[q->head];
			if (first_act < 0 || m->rank < first_rank ||
			    (m->rank == first_rank && m->act < first_act)) {
				first_act = m->act;
				first_rank = m->rank;
			}
		}
	}
	if (!rc && first_act >= 0) {
		char w[600];
		const struct trace_action *a = &t->act[first_act];
		rc = cmn_err_set(
		    e, CMN_EINPUT, "%s: %s to %d tag %d (%.0f bytes) has no matching recv",
		    where(&c, first_rank, first_act, w, sizeof w), trace_op_name(a->op), a->peer,
		    a->tag, trace_bytes(t, first_rank, a->dt1, a->a));
	}
	for (int r = 0; !rc && r < n; r++)
		if (c.rs[r].state != DONE)
			rc = report_stuck(&c, r);
	for (size_t i = 0; i < c.ch.cap; i++) {
		struct chan *ch = cmn_htab_at(&c.ch, i);
		if (ch) {
			free(ch->sends.m);
			free(ch->recvs.m);
		}
	}
	for (int r = 0; c.rs && r < n; r++)
		free(c.rs[r].r);
	cmn_htab_free(&c.ch);
	free(c.rs);
	free(c.work);
	free(c.tested_any);
	free(c.coll_op);
	free(c.coll_root);
	free(c.coll_arrived);
	free(c.coll_act);
	trace_coll_scratch_free(&c.coll);
	free(c.coll_at);
	return rc;
}

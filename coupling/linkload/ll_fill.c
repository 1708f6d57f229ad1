/* Progressive filling for the linkload model (ll_fill.h): events over the
 * links in use, the parts computed or replayed from their records.
 *
 * The filling: the level of every active flow rises together; a link with
 * residual R and n active flows at level lam fills at lam + R / n. Each
 * event is the lowest such level x: the links filling there freeze their
 * active flows at x, and the links whose user counts drop take their
 * residual to x (R -= (x - lam) n) before the new count; one left within
 * FULL of its bandwidth fills at x too. Links wait in a queue by filling
 * level (ll_queue.h), so an event costs the links and parts it changes.
 * A link's arithmetic depends only on the levels at which its count drops
 * and by how much: how the fills at one level are grouped into rounds
 * changes neither (its residual moves at the first drop at a level only),
 * nor which flows freeze there (those crossing a link that fills, or one
 * within FULL of full that they leave), so the same flows in any form, in
 * any grouping, give the same rates to the last bit.
 *
 * Records: each computed part keeps its drops by link and level, marked
 * where the link filled with its flows active (ll_part.h). A part's drops
 * follow from the levels at which its links fill while it has active flows
 * on them, so in the next computation a part is replayed while those fills
 * stay: its drops are applied from its record on the links that are
 * followed (live: those of computed parts and of parts let go), the
 * others' states being those of the record. It is computed (rewound to the
 * level and made live with its links, whose states are rebuilt from the
 * records) from the level x at which
 *  - a live link fills while the part has flows active on it that its
 *    record keeps active past x, or
 *  - a live link whose filling at x its record holds does not fill there
 *    (checked before its drops at x are applied).
 * A part of flows one by one is not computed whole then: only the flows
 * of that link (active past x, or frozen at x) move into its fragment
 * (ll_part.h's split; the drops of those flows taken out of its record),
 * computed from x, the part replayed on without them; more flows join
 * the fragment as the levels rise, and after the computation it goes back
 * into the part, its drops into the part's record. (Of the flows such
 * cascades reach, nine in ten change their rates; a whole part's, one in
 * twenty.)
 * A record that cannot be followed (a link it says fills at x that does
 * not, once the part's drops there were applied) makes the computation
 * start again with every part computed: counted as redone. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/grow.h"
#include "ll_fill.h"
#include "ll_queue.h"

#define FULL 1e-9 /* a link is full within this fraction of its bandwidth */
/* A part's log of at most this many drops stays for the next computation
 * (not grown again from nothing each time; 96 kB at most a part). */
#define LOG_KEPT 4096

/* A part's drop logged during a computation (by as in ll_drop). */
struct ll_logged {
	double level;
	long by;
	int x;
};

/* An entry of the list of parts on a used link. */
struct memb {
	struct ll_part *p;
	int x; /* the link's index in p */
	int next, prev;
	/* p's record on the link, h[h0 .. h1) (h = p->hist), and its flows
	 * with every flow active */
	const struct ll_drop *h;
	long h0, h1, u0;
	double lv0; /* h[h0].level (when h0 < h1): read without touching the record */
	/* while the link is live and p replayed: p's next recorded drop on it
	 * and p's active flows on it */
	long cur, cu;
};

struct ll_fill {
	const struct plat_machine *m;
	int *slot; /* machine link -> used link, or -1 */
	/* used links: those of the parts held; per used link its state, its
	 * part-links and their list, the run in which it is live and the level
	 * at which it fills (or is to) in that run */
	long nu, capu;
	struct ll_link *l;
	int *refs, *head, *freeu, nfreeu;
	long *live;
	double *filled;
	struct memb *mb;
	long nmb, capmb;
	int freemb; /* free entries, chained by next, or -1 */
	struct ll_part **held;
	long nheld, capheld;
	struct ll_part **comp; /* the parts computed in the run (capheld) */
	long ncomp;
	long run;
	int all;    /* the next computation computes every part */
	int *start; /* links that lost parts since the last computation */
	long nstart, capstart;
	/* a computation's state: links to fill at the current level (by used
	 * link, capu), the changed ones, the queue, the replayed parts' next
	 * drops by level, the drops due at the current level and the parts to
	 * compute from it, links to check at its end */
	int *fullv, *work, *changed;
	long nfull, nchanged;
	struct ll_queue queue, replay;
	int *due;
	long ndue, capdue, checked;
	struct ll_part **div, **touched;
	long ndiv, ntouched; /* capheld */
	int *verify;
	long nverify, capverify;
	struct ll_drop *merge; /* a link's recorded drops, by level */
	long capmerge;
	int *sx; /* a part's settled links */
	long *sby, capx;
	int fail, oom;
	struct cpl_ll_fill_stats stats;
};

int cpl_ll_fill_create(const struct plat_machine *m, struct ll_fill **out)
{
	struct ll_fill *fs = calloc(1, sizeof *fs);
	*out = NULL;
	if (!fs || !(fs->slot = malloc((size_t)(m->nlinks ? m->nlinks : 1) * sizeof *fs->slot))) {
		free(fs);
		return -1;
	}
	fs->m = m;
	fs->freemb = -1;
	for (int i = 0; i < m->nlinks; i++)
		fs->slot[i] = -1;
	*out = fs;
	return 0;
}

void cpl_ll_fill_destroy(struct ll_fill *fs)
{
	if (!fs)
		return;
	while (fs->nheld > 0)
		cpl_ll_fill_let_go(fs, fs->held[fs->nheld - 1]);
	free(fs->slot), free(fs->l), free(fs->refs), free(fs->head), free(fs->freeu);
	free(fs->live), free(fs->filled), free(fs->mb), free(fs->held), free(fs->start);
	free(fs->fullv), free(fs->work), free(fs->changed), free(fs->due), free(fs->div);
	free(fs->touched), free(fs->comp), free(fs->verify), free(fs->sx), free(fs->sby);
	free(fs->merge);
	cpl_ll_queue_free(&fs->queue);
	cpl_ll_queue_free(&fs->replay);
	free(fs);
}

void cpl_ll_fill_begin(struct ll_fill *fs)
{
	fs->run++;
	fs->ncomp = 0;
}

struct ll_part *const *cpl_ll_fill_computed(const struct ll_fill *fs, long *n)
{
	*n = fs->ncomp;
	return fs->comp;
}

void cpl_ll_fill_stats(const struct ll_fill *fs, struct cpl_ll_fill_stats *s)
{
	*s = fs->stats;
}

/* Room for need used links in every per-link array. */
static int room_links(struct ll_fill *fs, long need)
{
	if (need <= fs->capu)
		return 0;
	long c = fs->capu, c1 = c, c2 = c, c3 = c, c4 = c, c5 = c, c6 = c, c7 = c, c8 = c;
	if (cmn_grow((void **)&fs->l, &c, need, 1024, sizeof *fs->l) ||
	    cmn_grow((void **)&fs->refs, &c1, need, 1024, sizeof *fs->refs) ||
	    cmn_grow((void **)&fs->head, &c2, need, 1024, sizeof *fs->head) ||
	    cmn_grow((void **)&fs->freeu, &c3, need, 1024, sizeof *fs->freeu) ||
	    cmn_grow((void **)&fs->live, &c4, need, 1024, sizeof *fs->live) ||
	    cmn_grow((void **)&fs->filled, &c5, need, 1024, sizeof *fs->filled) ||
	    cmn_grow((void **)&fs->fullv, &c6, need, 1024, sizeof *fs->fullv) ||
	    cmn_grow((void **)&fs->work, &c7, need, 1024, sizeof *fs->work) ||
	    cmn_grow((void **)&fs->changed, &c8, need, 1024, sizeof *fs->changed))
		return -1;
	for (long u = fs->capu; u < c; u++) {
		fs->l[u].mark = 0;
		fs->live[u] = 0;
	}
	fs->capu = c;
	return 0;
}

/* Room for one more part held, with n links more in the lists, and p's
 * per-link arrays for its links from n0 on; 0 or -1 out of memory (p's
 * arrays, when grown, keep what they held). */
static int room_part(struct ll_fill *fs, struct ll_part *p, int n0)
{
	long capheld = fs->capheld, c2 = capheld, c3 = capheld, n = p->nlinks - n0;
	if (cmn_grow((void **)&fs->held, &fs->capheld, fs->nheld + 1, 64, sizeof *fs->held) ||
	    cmn_grow((void **)&fs->div, &capheld, fs->capheld, 64, sizeof *fs->div) ||
	    cmn_grow((void **)&fs->touched, &c2, fs->capheld, 64, sizeof *fs->touched) ||
	    cmn_grow((void **)&fs->comp, &c3, fs->capheld, 64, sizeof *fs->comp) ||
	    cmn_grow((void **)&fs->mb, &fs->capmb, fs->nmb + n, 1024, sizeof *fs->mb) ||
	    room_links(fs, fs->nu + n))
		return -1;
	long cx = fs->capx;
	if (cmn_grow((void **)&fs->sx, &cx, p->nlinks, 1024, sizeof *fs->sx) ||
	    cmn_grow((void **)&fs->sby, &fs->capx, p->nlinks, 1024, sizeof *fs->sby))
		return -1;
	/* a part's links come at once, a fragment's a few at a time: doubled */
	long need = p->nlinks ? p->nlinks : 1, cm = p->capmemb, cb = p->capmemb;
	if (cmn_grow((void **)&p->memb, &cm, need, need, sizeof *p->memb) ||
	    cmn_grow((void **)&p->bound, &cb, need, need, sizeof *p->bound))
		return -1;
	p->capmemb = cm;
	memset(p->bound + n0, 0, (size_t)n);
	return 0;
}

/* Part p's links from x0 on listed (room made). */
static void list(struct ll_fill *fs, struct ll_part *p, int x0)
{
	for (int x = x0; x < p->nlinks; x++) {
		int id = p->links[x], u = fs->slot[id];
		if (u < 0) {
			u = fs->nfreeu ? fs->freeu[--fs->nfreeu] : (int)fs->nu++;
			fs->slot[id] = u;
			fs->l[u].id = id;
			fs->l[u].bw = fs->m->links[id].bw_bps;
			fs->refs[u] = 0;
			fs->head[u] = -1;
		}
		int q = fs->freemb;
		if (q >= 0)
			fs->freemb = fs->mb[q].next;
		else
			q = (int)fs->nmb++;
		fs->mb[q] =
		    (struct memb){p, x, fs->head[u], -1, NULL, 0, 0, p->users0[x], INFINITY, 0, 0};
		if (fs->head[u] >= 0)
			fs->mb[fs->head[u]].prev = q;
		fs->head[u] = q;
		fs->refs[u]++;
		p->at[x] = u;
		p->memb[x] = q;
	}
}

/* Part p on its links' lists and among the parts held (not yet computed);
 * 0 or -1 out of memory (nothing held). */
static int attach(struct ll_fill *fs, struct ll_part *p)
{
	if (room_part(fs, p, 0)) {
		free(p->memb), free(p->bound);
		p->memb = NULL, p->bound = NULL;
		p->capmemb = 0;
		return -1;
	}
	list(fs, p, 0);
	p->held = fs->nheld;
	fs->held[fs->nheld++] = p;
	p->diverged = 0;
	p->replayed = -1;
	p->touched = 0;
	p->nlog = 0;
	p->whole = 0;
	p->parent = p->frags = p->next = NULL;
	return 0;
}

int cpl_ll_fill_hold(struct ll_fill *fs, struct ll_part *p)
{
	if (attach(fs, p))
		return -1;
	fs->comp[fs->ncomp++] = p;
	p->live = fs->run;
	p->from = 0;
	p->incl = 0;
	return 0;
}

/* Part p's entry off link list x; whether the link is left with none. */
static int unlist(struct ll_fill *fs, struct ll_part *p, int x)
{
	int u = p->at[x], q = p->memb[x];
	struct memb *b = &fs->mb[q];
	if (b->prev >= 0)
		fs->mb[b->prev].next = b->next;
	else
		fs->head[u] = b->next;
	if (b->next >= 0)
		fs->mb[b->next].prev = b->prev;
	b->next = fs->freemb;
	fs->freemb = q;
	return !--fs->refs[u];
}

/* Part p off the parts held. */
static void unhold(struct ll_fill *fs, struct ll_part *p)
{
	free(p->memb), free(p->bound), free(p->hoff), free(p->hist), free(p->log);
	p->memb = NULL, p->bound = NULL, p->hoff = NULL, p->hist = NULL, p->log = NULL;
	p->capmemb = p->nlog = p->caplog = 0;
	struct ll_part *last = fs->held[--fs->nheld];
	fs->held[p->held] = last;
	last->held = p->held;
}

void cpl_ll_fill_let_go(struct ll_fill *fs, struct ll_part *p)
{
	for (int x = 0; x < p->nlinks; x++) {
		int u = p->at[x];
		if (unlist(fs, p, x)) {
			fs->slot[fs->l[u].id] = -1;
			fs->freeu[fs->nfreeu++] = u;
			fs->live[u] = 0;
		} else if (cmn_grow((void **)&fs->start, &fs->capstart, fs->nstart + 1, 1024,
		                    sizeof *fs->start)) {
			fs->all = 1; /* no room to note it: every part computed next */
		} else {
			fs->start[fs->nstart++] = u;
		}
	}
	unhold(fs, p);
}

/* Link u's filling level after its state changed. */
static void set_key(struct ll_link *l)
{
	if (l->users > 0)
		l->key = l->lam + l->res / (double)l->users;
}

/* Link u fills at level x (once). */
static void to_fill(struct ll_fill *fs, int u, double x)
{
	if (fs->filled[u] != x) {
		fs->filled[u] = x;
		fs->fullv[fs->nfull++] = u;
	}
}

/* by of link u's active flows froze at level x: its residual taken to x
 * at its first drop there. */
static void drop(struct ll_fill *fs, int u, double x, long by)
{
	struct ll_link *l = &fs->l[u];
	if (!l->mark) {
		l->mark = 1;
		fs->changed[fs->nchanged++] = u;
		l->res -= (x - l->lam) * (double)l->users;
		l->lam = x;
	}
	l->users -= by;
}

/* The changed links' levels; those left within FULL of full fill at x. */
static void finalize(struct ll_fill *fs, double x)
{
	fs->stats.link_updates += (double)fs->nchanged;
	for (long i = 0; i < fs->nchanged; i++) {
		int u = fs->changed[i];
		struct ll_link *l = &fs->l[u];
		l->mark = 0;
		set_key(l);
		if (l->users > 0 && !(l->res > FULL * l->bw))
			to_fill(fs, u, x);
	}
	fs->nchanged = 0;
}

/* Whether p's recorded drops at level x were applied. */
static int replayed_at(const struct ll_fill *fs, const struct ll_part *p, double x)
{
	return p->rrun == fs->run && p->replayed == x;
}

/* Part p to be computed from level x, because of its flows on local link
 * i that its record keeps active past x (past) or freezes at x where the
 * link does not fill: those flows split off when p can (and, for the
 * latter, none of its drops at x was applied yet), else p whole. */
static void diverge(struct ll_fill *fs, struct ll_part *p, int i, int past, double x)
{
	if (p->diverged != fs->run) {
		p->diverged = fs->run;
		p->whole = 0;
		fs->div[fs->ndiv++] = p;
	}
	if (p->whole)
		return;
	if (p->ops->mark && (past || !replayed_at(fs, p, x)))
		p->ops->mark(p, i, x, past);
	else
		p->whole = 1;
}

/* Whether p is to be computed whole from the current level. */
static int whole(const struct ll_fill *fs, const struct ll_part *p)
{
	return p->diverged == fs->run && p->whole;
}

static long entries_end(const struct memb *b)
{
	return b->h1;
}

/* b's record on its link set to h[h0 .. h1). */
static void set_record(struct memb *b, const struct ll_drop *h, long h0, long h1)
{
	b->h = h;
	b->h0 = h0;
	b->h1 = h1;
	b->lv0 = h0 < h1 ? h[h0].level : INFINITY;
}

/* The level of b's next recorded drop (b->cur < b->h1). */
static double next_level(const struct memb *b)
{
	return b->cur == b->h0 ? b->lv0 : b->h[b->cur].level;
}

/* A replayed part's active flows on a link after level x, from its record. */
static long after(const struct memb *b, double x)
{
	long c = b->cu;
	if (b->cur >= entries_end(b) || next_level(b) != x)
		return c;
	for (long i = b->cur; i < entries_end(b) && b->h[i].level == x; i++)
		c -= labs(b->h[i].by);
	return c;
}

/* Part p's local link i filled at level x while it had active flows on
 * it: they freeze (a fill of a link without them would change nothing but
 * its level, below which all its flows froze: none is made). */
static void touch(struct ll_fill *fs, struct ll_part *p, int i, double x)
{
	p->bound[i] = 1;
	p->ops->fill(p, i, x);
	if (!p->touched) {
		p->touched = 1;
		fs->touched[fs->ntouched++] = p;
	}
}

/* The parts on link u filling at level x: the computed ones freeze their
 * flows there, a replayed one keeping flows active past x is computed. */
static void fill_link(struct ll_fill *fs, int u, double x)
{
	for (int q = fs->head[u]; q >= 0; q = fs->mb[q].next) {
		const struct memb *b = &fs->mb[q];
		struct ll_part *p = b->p;
		if (p->live == fs->run) {
			if (p->users[b->x] > 0) /* else nothing to freeze */
				touch(fs, p, b->x, x);
		} else if (b->cu > 0 && !whole(fs, p) && after(b, x) > 0) {
			diverge(fs, p, b->x, 1, x);
		}
	}
}

/* Room for n more drops in p's log. */
static int log_room(struct ll_part *p, long n)
{
	return cmn_grow((void **)&p->log, &p->caplog, p->nlog + n, 256, sizeof *p->log);
}

/* The touched parts' drops at level x applied and logged. */
static void settle_touched(struct ll_fill *fs, double x)
{
	fs->stats.settles += (double)fs->ntouched;
	for (long i = 0; i < fs->ntouched; i++) {
		struct ll_part *p = fs->touched[i];
		int n = p->ops->settle(p, fs->sx, fs->sby);
		p->touched = 0;
		if (log_room(p, n)) {
			fs->oom = 1;
			continue;
		}
		for (int k = 0; k < n; k++) {
			int x0 = fs->sx[k];
			drop(fs, p->at[x0], x, fs->sby[k]);
			p->log[p->nlog++] =
			    (struct ll_logged){x, p->bound[x0] ? -fs->sby[k] : fs->sby[k], x0};
			p->bound[x0] = 0;
		}
	}
	fs->ntouched = 0;
}

/* Rounds of fills at level x until none is left. */
static void rounds(struct ll_fill *fs, double x)
{
	while (fs->nfull) {
		long n = fs->nfull;
		int *w = fs->fullv;
		fs->fullv = fs->work;
		fs->work = w;
		fs->nfull = 0;
		fs->stats.events++;
		for (long i = 0; i < n; i++)
			fill_link(fs, w[i], x);
		settle_touched(fs, x);
		finalize(fs, x);
	}
}

/* A replayed part's recorded drops at level x on the link of b applied
 * (the links it says filled there noted, to be checked, when check). */
static void consume(struct ll_fill *fs, struct memb *b, double x, int check)
{
	const struct ll_part *p = b->p;
	int u = p->at[b->x];
	for (; b->cur < entries_end(b) && b->h[b->cur].level == x; b->cur++) {
		long by = b->h[b->cur].by;
		if (!by) /* its flows split off */
			continue;
		if (by < 0 && check) {
			if (cmn_grow((void **)&fs->verify, &fs->capverify, fs->nverify + 1, 64,
			             sizeof *fs->verify))
				fs->oom = 1;
			else
				fs->verify[fs->nverify++] = u;
		}
		drop(fs, u, x, labs(by));
		b->cu -= labs(by);
		fs->stats.replayed++;
	}
}

/* Replays the next recorded drop of b's part on its link, in order. */
static void follow(struct ll_fill *fs, int q)
{
	const struct memb *b = &fs->mb[q];
	if (b->cur < entries_end(b) && cpl_ll_queue_push(&fs->replay, next_level(b), q))
		fs->oom = 1;
}

static int cmp_level(const void *a, const void *b)
{
	double x = ((const struct ll_drop *)a)->level, y = ((const struct ll_drop *)b)->level;
	return (x > y) - (x < y);
}

/* Link u followed from level x on, its state there rebuilt from the
 * records of the parts on it (those computed from a level where they had
 * no flows active on it included: their records hold their drops there;
 * one computed from x with its drops at x when incl): filled at x when its
 * level is x, else queued. */
static void make_live(struct ll_fill *fs, int u, double x)
{
	struct ll_link *l = &fs->l[u];
	fs->live[u] = fs->run;
	fs->filled[u] = -1;
	l->res = l->bw;
	l->lam = 0;
	l->users = 0;
	long ne = 0;
	int from = 0; /* members with drops below x */
	for (int q = fs->head[u]; q >= 0; q = fs->mb[q].next) {
		struct memb *b = &fs->mb[q];
		b->cur = b->h0;
		b->cu = b->u0;
		l->users += b->cu;
		if (!(b->cur < b->h1 && b->lv0 < x)) /* no drop below x: its record untouched */
			continue;
		from++;
		for (; b->cur < b->h1 && b->h[b->cur].level < x; b->cur++) {
			if (!b->h[b->cur].by)
				continue;
			if (ne == fs->capmerge && cmn_grow((void **)&fs->merge, &fs->capmerge,
			                                   ne + 1, 256, sizeof *fs->merge)) {
				fs->oom = 1;
				return;
			}
			fs->merge[ne].level = b->h[b->cur].level;
			fs->merge[ne++].by = labs(b->h[b->cur].by);
			b->cu -= labs(b->h[b->cur].by);
		}
	}
	if (from > 1)
		qsort(fs->merge, (size_t)ne, sizeof *fs->merge, cmp_level);
	for (long i = 0; i < ne;) { /* the recorded drops below x, level by level */
		double lv = fs->merge[i].level;
		l->res -= (lv - l->lam) * (double)l->users;
		l->lam = lv;
		for (; i < ne && fs->merge[i].level == lv; i++)
			l->users -= fs->merge[i].by;
	}
	if (l->users > 0) {
		set_key(l);
		if (l->key <= x) {
			fs->fail |= l->key < x; /* it filled before x: not its record */
			to_fill(fs, u, x);
		} else if (cpl_ll_queue_push(&fs->queue, l->key, u)) {
			fs->oom = 1;
		}
	}
	for (int q = fs->head[u]; q >= 0; q = fs->mb[q].next) {
		struct memb *b = &fs->mb[q];
		if (b->p->live == fs->run) { /* its count from the record = its own */
			if (b->p->incl && b->p->from == x)
				consume(fs, b, x, 1);
			fs->fail |= b->cu != b->p->users[b->x];
		} else {
			if (replayed_at(fs, b->p, x)) /* its drops at x applied elsewhere */
				consume(fs, b, x, 1);
			follow(fs, q);
		}
	}
}

/* Part p computed from level x: rewound there (with its recorded drops at
 * x when they were applied), its links followed, fed the fills at x. */
static void go_live(struct ll_fill *fs, struct ll_part *p, double x)
{
	fs->stats.parts++;
	fs->comp[fs->ncomp++] = p;
	p->incl = replayed_at(fs, p, x);
	p->live = fs->run;
	p->from = x;
	p->nlog = 0;
	p->ops->rewind(p, x, p->incl);
	for (int i = 0; i < p->nlinks; i++) {
		int u = p->at[i];
		if (fs->live[u] == fs->run)
			fs->fail |= fs->mb[p->memb[i]].cu != p->users[i];
		else if (p->users[i] > 0) /* else its record holds it there */
			make_live(fs, u, x);
	}
	for (int i = 0; i < p->nlinks; i++)
		if (fs->filled[p->at[i]] == x && p->users[i] > 0)
			touch(fs, p, i, x);
}

/* Part p's marked flows split off (p replayed on without them) and
 * computed from level x; 0 when p is to be computed whole (its marks
 * cleared) or out of memory. */
static int split_live(struct ll_fill *fs, struct ll_part *p, double x)
{
	int n0 = 0;
	const struct ll_moved *mv = NULL;
	long nmv = 0;
	struct ll_part *f = p->whole ? NULL : p->ops->split(p, p->frags, &n0, &mv, &nmv);
	if (!f) {
		if (p->ops->mark)
			p->ops->mark(p, -1, x, 0);
		return 0;
	}
	int fresh = !p->frags;
	if (fresh) { /* p's fragment in the run, computed from x */
		f->job = p->job;
		f->parent = p;
		p->frags = f;
		f->memb = NULL, f->bound = NULL;
		f->capmemb = 0;
	}
	if (room_part(fs, f, n0)) { /* the run fails; the flows' counts back in p */
		fs->oom = 1;
		if (!fresh) { /* f without its links not listed, p with their counts */
			for (int i = n0; i < f->nlinks; i++)
				p->users0[f->px[i]] += f->users0[i];
			f->nlinks = n0;
			return 1;
		}
		p->frags = NULL;
		p->ops->rejoin(p, f);
		f->ops->destroy(f);
		return 1;
	}
	list(fs, f, n0);
	fs->stats.splits++;
	if (fresh) {
		f->held = fs->nheld;
		fs->held[fs->nheld++] = f;
		f->diverged = 0;
		f->touched = 0;
		f->whole = 0;
		f->frags = f->next = NULL;
		f->live = fs->run;
		f->from = x;
		f->incl = 0;
		f->nlog = 0;
		f->replayed = -1;
		fs->comp[fs->ncomp++] = f;
		fs->stats.parts++;
	}
	for (long k = 0; k < nmv; k++) { /* the moved flows out of p's entries */
		int i = mv[k].x;
		struct memb *b = &fs->mb[p->memb[f->px[i]]];
		b->u0 -= mv[k].n;
		b->cu -= mv[k].n;
		if (i >= n0) /* a new link of f: its flows there are these */
			fs->mb[f->memb[i]].cu = f->users0[i];
	}
	fs->fail |= cpl_ll_part_unrecord(p, f, mv, nmv) != 0;
	for (int i = n0; i < f->nlinks; i++)
		if (fs->live[f->at[i]] != fs->run)
			make_live(fs, f->at[i], x);
	for (long k = 0; k < nmv; k++) /* links filled at x: the moved flows freeze */
		if (fs->filled[f->at[mv[k].x]] == x)
			touch(fs, f, mv[k].x, x);
	p->diverged = 0; /* replayed on */
	return 1;
}

/* The fragments back into their parts (with their records when keep),
 * and the parts listed as computed in their place. 0, or -1 out of
 * memory (then the parts' records are wrong: the next computation
 * computes every part). */
static int rejoin_all(struct ll_fill *fs, int keep)
{
	int rc = 0;
	long w = 0, np = 0;
	for (long i = 0; i < fs->ncomp; i++) { /* the parts (div: free now) */
		struct ll_part *f = fs->comp[i], *p = f->parent;
		if (!p)
			fs->comp[w++] = f;
		else if (p->frags == f) /* its chain's head: once per part */
			fs->div[np++] = p;
	}
	fs->ncomp = w;
	for (long i = 0; i < np; i++) {
		struct ll_part *p = fs->div[i];
		if (keep && cpl_ll_part_rejoin_records(p))
			rc = -1;
		while (p->frags) {
			struct ll_part *g = p->frags;
			p->frags = g->next;
			p->ops->rejoin(p, g);
			for (int x = 0; x < g->nlinks; x++)
				unlist(fs, g, x);
			unhold(fs, g);
			g->ops->destroy(g);
		}
		for (int x = 0; x < p->nlinks; x++) {
			struct memb *b = &fs->mb[p->memb[x]];
			set_record(b, p->hist, p->hoff ? p->hoff[x] : 0,
			           p->hoff ? p->hoff[x + 1] : 0);
			b->u0 = p->users0[x];
		}
		if (p->live != fs->run) {
			p->live = fs->run;
			fs->comp[fs->ncomp++] = p;
		}
	}
	fs->ndiv = 0;
	return rc;
}

/* Every event at level x: rounds of fills, the replayed drops due there
 * (after the checks of the parts' records), the parts to compute from x. */
static void level(struct ll_fill *fs, double x)
{
	for (;;) {
		rounds(fs, x);
		while (cpl_ll_queue_min(&fs->replay, NULL) <= x) { /* = x */
			long n;
			const int *got = cpl_ll_queue_take(&fs->replay, NULL, x, &n);
			if (!got || cmn_grow((void **)&fs->due, &fs->capdue, fs->ndue + n, 256,
			                     sizeof *fs->due)) {
				fs->oom = 1;
				return;
			}
			memcpy(fs->due + fs->ndue, got, (size_t)n * sizeof *got);
			fs->ndue += n;
			if (!n)
				break;
		}
		for (; fs->checked < fs->ndue; fs->checked++) { /* the fills they record happened */
			const struct memb *b = &fs->mb[fs->due[fs->checked]];
			struct ll_part *p = b->p;
			if (p->live == fs->run || whole(fs, p))
				continue;
			for (long i = b->cur; i < entries_end(b) && b->h[i].level == x; i++)
				if (b->h[i].by < 0 && fs->filled[p->at[b->x]] != x)
					diverge(fs, p, b->x, 0, x);
		}
		if (fs->ndiv) {
			for (long i = 0; i < fs->ndiv; i++)
				if (!split_live(fs, fs->div[i], x))
					go_live(fs, fs->div[i], x);
			fs->ndiv = 0;
			settle_touched(fs, x);
			finalize(fs, x);
			continue;
		}
		if (!fs->ndue)
			break;
		for (long i = 0; i < fs->ndue; i++) {
			struct memb *b = &fs->mb[fs->due[i]];
			if (b->p->live == fs->run)
				continue;
			consume(fs, b, x, 0);
			b->p->replayed = x;
			b->p->rrun = fs->run;
			follow(fs, fs->due[i]);
		}
		fs->ndue = fs->checked = 0;
		finalize(fs, x);
	}
	for (long i = 0; i < fs->nverify; i++)
		fs->fail |= fs->filled[fs->verify[i]] != x;
	fs->nverify = 0;
}

/* The computation's parts and links: the live ones at level 0. */
static void start(struct ll_fill *fs)
{
	fs->nfull = fs->nchanged = fs->ndue = fs->checked = fs->ndiv = fs->ntouched = 0;
	fs->nverify = 0;
	cpl_ll_queue_clear(&fs->queue);
	cpl_ll_queue_clear(&fs->replay);
	if (fs->all) {
		fs->ncomp = 0;
		for (long i = 0; i < fs->nheld; i++) {
			struct ll_part *p = fs->comp[fs->ncomp++] = fs->held[i];
			p->live = fs->run;
			p->from = 0;
			p->incl = 0;
			p->nlog = 0;
			p->touched = 0;
			memset(p->bound, 0, (size_t)p->nlinks);
		}
		for (long u = 0; u < fs->nu; u++) {
			fs->l[u].mark = 0;
			fs->live[u] = 0;
		}
	}
	for (long i = 0; i < fs->ncomp; i++) /* the new ones */
		fs->comp[i]->ops->reset(fs->comp[i]);
	fs->stats.parts += (double)fs->ncomp;
	for (long i = 0; i < fs->ncomp; i++) {
		struct ll_part *p = fs->comp[i];
		for (int x = 0; x < p->nlinks; x++)
			if (fs->live[p->at[x]] != fs->run)
				make_live(fs, p->at[x], 0);
	}
	for (long i = 0; i < fs->nstart; i++) {
		int u = fs->start[i];
		if (fs->refs[u] > 0 && fs->live[u] != fs->run)
			make_live(fs, u, 0);
	}
	fs->nstart = 0;
	fs->all = 0;
}

/* The computed parts' records: the kept part of the last one (below the
 * level each was computed from) and the drops logged. */
static int records(struct ll_fill *fs)
{
	for (long i = 0; i < fs->ncomp; i++) {
		struct ll_part *p = fs->comp[i];
		long *off = calloc((size_t)p->nlinks + 1, sizeof *off), n = 0;
		if (!off)
			return -1;
		for (int x = 0; p->hoff && x < p->nlinks; x++) {
			long k = p->hoff[x];
			long kept = 0;
			for (; k < p->hoff[x + 1] && (p->hist[k].level < p->from ||
			                              (p->incl && p->hist[k].level == p->from));
			     k++)
				kept += p->hist[k].by != 0;
			off[x + 1] = kept;
		}
		for (long k = 0; k < p->nlog; k++)
			off[p->log[k].x + 1]++;
		for (int x = 0; x < p->nlinks; x++)
			off[x + 1] += off[x];
		n = off[p->nlinks];
		struct ll_drop *h = malloc((size_t)(n ? n : 1) * sizeof *h);
		long *fillp = fs->sby; /* room for p's links (room_part) */
		if (!h) {
			free(off);
			return -1;
		}
		for (int x = 0; x < p->nlinks; x++) {
			fillp[x] = off[x];
			for (long k = p->hoff ? p->hoff[x] : 0; p->hoff && k < p->hoff[x + 1]; k++)
				if ((p->hist[k].level < p->from ||
				     (p->incl && p->hist[k].level == p->from)) &&
				    p->hist[k].by)
					h[fillp[x]++] = p->hist[k];
		}
		for (long k = 0; k < p->nlog; k++)
			h[fillp[p->log[k].x]++] = (struct ll_drop){p->log[k].level, p->log[k].by};
		free(p->hoff), free(p->hist);
		p->hoff = off;
		p->hist = h;
		for (int x = 0; x < p->nlinks; x++) {
			struct memb *b = &fs->mb[p->memb[x]];
			set_record(b, h, off[x], off[x + 1]);
		}
		if (p->caplog > LOG_KEPT) {
			free(p->log);
			p->log = NULL;
			p->caplog = 0;
		}
		p->nlog = 0;
	}
	return 0;
}

int cpl_ll_fill_compute(struct ll_fill *fs)
{
	fs->fail = fs->oom = 0;
	for (;;) {
		start(fs);
		for (;;) { /* the next level: links filling, or recorded drops */
			double lq = cpl_ll_queue_min(&fs->queue, fs->l),
			       lr = cpl_ll_queue_min(&fs->replay, NULL);
			if (isnan(lq) || isnan(lr)) {
				fs->oom = 1;
				break;
			}
			if (lq == INFINITY && lr == INFINITY)
				break;
			double x = lq < lr ? lq : lr;
			if (lq == x) {
				long n;
				const int *got = cpl_ll_queue_take(&fs->queue, fs->l, x, &n);
				if (!got) {
					fs->oom = 1;
					break;
				}
				for (long i = 0; i < n; i++)
					to_fill(fs, got[i], x);
			}
			level(fs, x);
			if (fs->oom || fs->fail)
				break;
		}
		if (fs->oom)
			break;
		if (!fs->fail) {
			int rc = records(fs);
			if (rejoin_all(fs, !rc) || rc)
				return fs->all = 1, -1;
			return 0;
		}
		rejoin_all(fs, 0);
		fs->stats.redone++;
		fs->fail = 0;
		fs->all = 1;
	}
	rejoin_all(fs, 0);
	fs->all = 1;
	return -1;
}

/* One iteration of a job profile (profile.h): its range in the
 * two-iteration trace. */
#include <stdlib.h>
#include <string.h>

#include "../../netsim/engine/walk.h"
#include "profile.h"

/* The length of an action's count vector (trace.h), 0 if none. */
static long counts_of(const struct trace *t, const struct trace_action *a)
{
	switch (a->op) {
	case TR_GATHERV:
	case TR_ALLGATHERV:
	case TR_SCATTERV:
	case TR_REDUCESCATTER: return t->nranks;
	case TR_ALLTOALLV: return 2L * t->nranks;
	default: return 0;
	}
}

/* Action i of ta and action j of tb do the same (their line aside). */
static int same_action(const struct trace *ta, long i, const struct trace *tb, long j)
{
	const struct trace_action *a = &ta->act[i], *b = &tb->act[j];
	if (a->op != b->op || a->dt1 != b->dt1 || a->dt2 != b->dt2 || a->nopt != b->nopt ||
	    a->peer != b->peer || a->tag != b->tag || a->a != b->a || a->b != b->b)
		return 0;
	long n = counts_of(ta, a);
	if (n)
		return memcmp(ta->counts + a->aux, tb->counts + b->aux,
		              (size_t)n * sizeof *ta->counts) == 0;
	if (a->op == TR_LOCATION)
		return strcmp(ta->strings + a->aux, tb->strings + b->aux) == 0;
	return a->aux == b->aux;
}

/* Rank r: t2 is t1 with one block inserted; that block's place in t2
 * (the latest place it can have), or -1 when t2 is no such thing. */
static long inserted_at(const struct trace *t1, const struct trace *t2, int r, long *len)
{
	long a0 = t1->first[r], na = t1->first[r + 1] - a0;
	long b0 = t2->first[r], nb = t2->first[r + 1] - b0, p = 0, s = 0;
	*len = nb - na;
	if (*len < 0)
		return -1;
	while (p < na && same_action(t1, a0 + p, t2, b0 + p))
		p++;
	while (s < na && same_action(t1, a0 + na - 1 - s, t2, b0 + nb - 1 - s))
		s++;
	return p + s >= na ? b0 + p : -1;
}

/* t2 with the range run `times` times is t, rank r's actions. */
static int walks_as(const struct trace *t2, const struct net_repeat *rp, int r,
                    const struct trace *t)
{
	struct net_walk w;
	net_walk_init(&w, t2, rp, r);
	long i, j = t->first[r];
	while ((i = net_walk_next(&w)) >= 0)
		if (j == t->first[r + 1] || !same_action(t2, i, t, j++))
			return 0;
	return j == t->first[r + 1];
}

int cpl_iterated_make(const struct cpl_profiles *pr, int k, int ranks, const struct trace *t1,
                      const struct trace *t2, struct cpl_iterated *it, struct cmn_err *e)
{
	memset(it, 0, sizeof *it);
	it->nranks = ranks;
	it->begin = malloc((size_t)ranks * sizeof *it->begin);
	it->end = malloc((size_t)ranks * sizeof *it->end);
	if (!it->begin || !it->end) {
		cpl_iterated_free(it);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	struct trace *t3 = NULL;
	int recorded = 0, bad = -1;
	int rc = cpl_profiles_trace(pr, k, ranks, 3, &t3, &recorded, e);
	if (!rc && recorded)
		rc = cmn_err_set(e, CMN_EUSAGE, "%s.%c.%d is a recorded trace: no iterations",
		                 cpl_profiles_name(pr, k), cpl_profiles_class(pr), ranks);
	struct net_repeat rp = {it->begin, it->end, 2};
	for (int r = 0; !rc && bad < 0 && r < ranks; r++) {
		long len;
		it->begin[r] = inserted_at(t1, t2, r, &len);
		it->end[r] = it->begin[r] + len;
		it->once += (double)(t1->first[r + 1] - t1->first[r]);
		it->body += (double)len;
		if (it->begin[r] < 0 || !walks_as(t2, &rp, r, t3))
			bad = r;
	}
	if (!rc && bad >= 0)
		rc = cmn_err_set(e, CMN_ESTATE,
		                 "%s.%c.%d: rank %d: its iterations are not one iteration repeated "
		                 "(a bug of the generator)",
		                 cpl_profiles_name(pr, k), cpl_profiles_class(pr), ranks, bad);
	trace_free(t3);
	if (rc)
		cpl_iterated_free(it);
	return rc;
}

void cpl_iterated_free(struct cpl_iterated *it)
{
	free(it->begin);
	free(it->end);
	memset(it, 0, sizeof *it);
}

/* The count check of the matching pass (trace_check.c): once every rank has
 * arrived at a collective, do its counts agree between ranks? Receivers
 * must post at least what they get, and MPI's equal counts be equal. */
#include <math.h>
#include <stdlib.h>

#include "trace_check_coll.h"

/* One collective being checked: rank i's action is t->act[at[i]]. */
struct coll {
	const struct trace *t;
	const long *at;
	int root; /* -1: none */
	struct trace_coll_scratch *s;
	struct cmn_err *e;
};

/* A distinct key of the collective being checked (stamp): group id. */
struct group {
	uint64_t key;
	long stamp;
	int id;
};

const char *trace_check_place(const struct trace *t, int r, long act, int err, char *buf, size_t n)
{
	snprintf(buf, n, "%s:%u: %srank %d", t->files[r] ? t->files[r] : t->name, t->act[act].line,
	         err ? "error: " : "", r);
	return buf;
}

static const char *where(const struct coll *c, int r, long k, char *buf, size_t n)
{
	return trace_check_place(c->t, r, k, 1, buf, n);
}

static const char *other(const struct coll *c, int r, long k, char *buf, size_t n)
{
	return trace_check_place(c->t, r, k, 0, buf, n);
}

/* Bytes of one unit of datatype dt at rank r. */
static double unit(const struct coll *c, int r, int dt)
{
	return trace_bytes(c->t, r, dt, 1);
}

/* Rank r's action at the collective. */
static const struct trace_action *at_coll(const struct coll *c, int r)
{
	return &c->t->act[c->at[r]];
}

/* Rank s sends sb bytes of collective #idx + 1 to rank d, which posted db. */
static int truncated(struct coll *c, int idx, int s, double sb, int d, double db)
{
	char w[600], o[600];
	return cmn_err_set(c->e, CMN_EINPUT,
	                   "%s: collective #%d (%s) sends %.0f bytes to rank %d, which receives "
	                   "%.0f bytes at %s (truncated)",
	                   where(c, s, c->at[s], w, sizeof w), idx + 1,
	                   trace_op_name(at_coll(c, s)->op), sb, d, db,
	                   other(c, d, c->at[d], o, sizeof o));
}

/* Rank r's count (its recv count for rank of, if of >= 0) is rb bytes,
 * rank ref's refb. */
static int unequal(struct coll *c, int idx, int r, double rb, int ref, double refb, int of)
{
	char w[600], o[600], what[64] = "";
	if (of >= 0)
		snprintf(what, sizeof what, " for rank %d", of);
	return cmn_err_set(c->e, CMN_EINPUT,
	                   "%s: collective #%d (%s) has a %scount of %.0f bytes%s here but %.0f "
	                   "bytes at %s (MPI requires equal counts)",
	                   where(c, r, c->at[r], w, sizeof w), idx + 1,
	                   trace_op_name(at_coll(c, r)->op), of >= 0 ? "recv " : "", rb, what, refb,
	                   other(c, ref, c->at[ref], o, sizeof o));
}

static uint64_t group_key(int32_t aux, double s_bytes, double r_bytes)
{
	return (uint64_t)(uint32_t)aux << 32 | ((uint64_t)s_bytes & 0xFFFF) << 16 |
	       ((uint64_t)r_bytes & 0xFFFF);
}

static int group_match(const void *entry, const void *key)
{
	return ((const struct group *)entry)->key == *(const uint64_t *)key;
}

/* Numbers the distinct keys of s->gkey[0 .. n) (filled by the caller) in
 * order of their first rank: s->grp[i] is rank i's group, group g's ranks
 * are s->order[s->gstart[g] .. s->gstart[g + 1]) in increasing order. The
 * number of groups, or -1 out of memory. O(n): equal count vectors share
 * their offset, so a group is a vector (and datatype sizes). */
static int group_ranks(struct coll *c)
{
	struct trace_coll_scratch *s = c->s;
	int n = c->t->nranks, ng = 0, same = 1;
	for (int i = 1; i < n && same; i++)
		same = s->gkey[i] == s->gkey[0];
	if (same) { /* the common case: one vector for all */
		for (int i = 0; i < n; i++)
			s->grp[i] = 0, s->order[i] = i;
		s->gstart[0] = 0, s->gstart[1] = n;
		return 1;
	}
	s->stamp++;
	s->gstart[0] = 0;
	for (int i = 0; i < n; i++) {
		uint64_t h = s->gkey[i] * 0x9E3779B97F4A7C15u;
		int added;
		struct group *g =
		    cmn_htab_put(&s->groups, h ^ (h >> 29), group_match, &s->gkey[i], &added);
		if (!g)
			return -1;
		if (added || g->stamp != s->stamp) {
			*g = (struct group){s->gkey[i], s->stamp, ng};
			s->gstart[++ng] = 0;
		}
		s->grp[i] = g->id;
		s->gstart[g->id + 1]++;
	}
	for (int g = 0; g < ng; g++) {
		s->gstart[g + 1] += s->gstart[g];
		s->garg[g] = s->gstart[g]; /* the fill's cursor */
	}
	for (int i = 0; i < n; i++)
		s->order[s->garg[s->grp[i]]++] = i;
	return ng;
}

/* alltoallv: rank i sends send_i[j] to j, which posted recv_j[i]. For
 * groups A and B, every pair (i in A, j in B) holds when the largest
 * send_A[j] over j in B is at most the least recv_B[i] over i in A:
 * O(groups x n). */
static int check_alltoallv(struct coll *c, int idx, int ng)
{
	struct trace_coll_scratch *s = c->s;
	const struct trace *t = c->t;
	int n = t->nranks;
	for (int ga = 0; ga < ng; ga++) {
		int i0 = s->order[s->gstart[ga]];
		const struct trace_action *a = at_coll(c, i0);
		const int64_t *send = t->counts + a->aux;
		double su = unit(c, i0, a->dt1);
		for (int g = 0; g < ng; g++)
			s->gmax[g] = -1;
		for (int j = 0; j < n; j++) {
			double v = (double)send[j] * su;
			if (v > s->gmax[s->grp[j]]) {
				s->gmax[s->grp[j]] = v;
				s->garg[s->grp[j]] = j;
			}
		}
		for (int gb = 0; gb < ng; gb++) {
			int j0 = s->order[s->gstart[gb]], imin = -1;
			const struct trace_action *b = at_coll(c, j0);
			const int64_t *recv = t->counts + b->aux + n;
			double ru = unit(c, j0, b->dt2), least = INFINITY;
			for (int m = s->gstart[ga]; m < s->gstart[ga + 1]; m++) {
				double v = (double)recv[s->order[m]] * ru;
				if (v < least)
					least = v, imin = s->order[m];
			}
			if (s->gmax[gb] > least)
				return truncated(c, idx, imin, s->gmax[gb], s->garg[gb], least);
		}
	}
	return 0;
}

/* Collective #idx + 1 (trace_coll_check): no receiver gets more bytes than
 * it posted, and the counts MPI wants equal are. O(n), or O(groups x n)
 * for the v-collectives' vectors. */
static int check_counts(struct coll *c, int idx)
{
	struct trace_coll_scratch *s = c->s;
	const struct trace *t = c->t;
	int n = t->nranks, ng = 0;
	const struct trace_action *a0 = at_coll(c, 0), *ra;
	int op = a0->op, root = c->root < 0 ? 0 : c->root;
	ra = at_coll(c, root);
	const int64_t *cv = op == TR_GATHERV || op == TR_SCATTERV || op == TR_REDUCESCATTER
	                        ? t->counts + ra->aux
	                        : NULL; /* the root's (rank 0's) vector */
	if (op == TR_ALLGATHERV || op == TR_ALLTOALLV || op == TR_REDUCESCATTER) {
		if (!s->gkey) {
			s->gkey = malloc((size_t)n * sizeof *s->gkey);
			s->grp = malloc((size_t)n * sizeof *s->grp);
			s->order = malloc((size_t)n * sizeof *s->order);
			s->gstart = malloc(((size_t)n + 1) * sizeof *s->gstart);
			s->garg = malloc((size_t)n * sizeof *s->garg);
			s->gmax = malloc((size_t)n * sizeof *s->gmax);
			if (!s->gkey || !s->grp || !s->order || !s->gstart || !s->garg || !s->gmax)
				return cmn_err_set(c->e, CMN_ENOMEM, "out of memory");
		}
		for (int i = 0; i < n; i++) {
			const struct trace_action *a = at_coll(c, i);
			s->gkey[i] = group_key(a->aux, op == TR_ALLGATHERV ? 0 : unit(c, i, a->dt1),
			                       op == TR_REDUCESCATTER ? 0 : unit(c, i, a->dt2));
		}
		if ((ng = group_ranks(c)) < 0)
			return cmn_err_set(c->e, CMN_ENOMEM, "out of memory");
	}
	switch (op) {
	case TR_BCAST:
	case TR_REDUCE:
	case TR_ALLREDUCE: { /* equal counts: the root's (rank 0's) */
		double want = ra->a * unit(c, root, ra->dt1);
		for (int i = 0; i < n; i++) {
			const struct trace_action *a = at_coll(c, i);
			double v = a->a * unit(c, i, a->dt1);
			if (v != want)
				return unequal(c, idx, i, v, root, want, -1);
		}
		return 0;
	}
	case TR_ALLTOALL:
	case TR_ALLGATHER: { /* everyone's send to everyone's recv */
		int from = 0, to = 0;
		double most = -1, least = INFINITY;
		for (int i = 0; i < n; i++) {
			const struct trace_action *a = at_coll(c, i);
			double sb = a->a * unit(c, i, a->dt1), rb = a->b * unit(c, i, a->dt2);
			if (sb > most)
				most = sb, from = i;
			if (rb < least)
				least = rb, to = i;
		}
		return most > least ? truncated(c, idx, from, most, to, least) : 0;
	}
	case TR_GATHER:
	case TR_GATHERV: /* everyone's send to the root's recv (count i) */
		for (int i = 0; i < n; i++) {
			const struct trace_action *a = at_coll(c, i);
			double sb = a->a * unit(c, i, a->dt1),
			       rb = (op == TR_GATHER ? ra->b : (double)cv[i]) *
			            unit(c, root, ra->dt2);
			if (sb > rb)
				return truncated(c, idx, i, sb, root, rb);
		}
		return 0;
	case TR_SCATTER:
	case TR_SCATTERV: /* the root's send (count j) to everyone's recv */
		for (int j = 0; j < n; j++) {
			const struct trace_action *a = at_coll(c, j);
			double sb = (op == TR_SCATTER ? ra->a : (double)cv[j]) *
			            unit(c, root, ra->dt1),
			       rb = a->b * unit(c, j, a->dt2);
			if (sb > rb)
				return truncated(c, idx, root, sb, j, rb);
		}
		return 0;
	case TR_ALLGATHERV: /* i's send to j's recv count i, per group of j */
		for (int g = 0; g < ng; g++) {
			int j = s->order[s->gstart[g]];
			const struct trace_action *b = at_coll(c, j);
			const int64_t *recv = t->counts + b->aux;
			double ru = unit(c, j, b->dt2);
			for (int i = 0; i < n; i++) {
				const struct trace_action *a = at_coll(c, i);
				double sb = a->a * unit(c, i, a->dt1);
				if (sb > (double)recv[i] * ru)
					return truncated(c, idx, i, sb, j, (double)recv[i] * ru);
			}
		}
		return 0;
	case TR_REDUCESCATTER: /* equal recv counts: rank 0's group against the others */
		for (int g = 1; g < ng; g++) {
			int j = s->order[s->gstart[g]];
			const struct trace_action *b = at_coll(c, j);
			const int64_t *recv = t->counts + b->aux;
			double u = unit(c, j, b->dt1), u0 = unit(c, 0, a0->dt1);
			for (int k = 0; k < n; k++)
				if ((double)recv[k] * u != (double)cv[k] * u0)
					return unequal(c, idx, j, (double)recv[k] * u, 0,
					               (double)cv[k] * u0, k);
		}
		return 0;
	case TR_ALLTOALLV: return check_alltoallv(c, idx, ng);
	default: return 0; /* barrier */
	}
}

void trace_coll_scratch_init(struct trace_coll_scratch *s)
{
	*s = (struct trace_coll_scratch){0};
	cmn_htab_init(&s->groups, sizeof(struct group));
}

void trace_coll_scratch_free(struct trace_coll_scratch *s)
{
	cmn_htab_free(&s->groups);
	free(s->gkey);
	free(s->grp);
	free(s->order);
	free(s->gstart);
	free(s->garg);
	free(s->gmax);
}

int trace_coll_check(const struct trace *t, const long *at, int idx, int root,
                     struct trace_coll_scratch *s, struct cmn_err *e)
{
	struct coll c = {t, at, root, s, e};
	return check_counts(&c, idx);
}

/* Run-time models that replay iterations on a netsim engine: "simgrid" here
 * (its engine simgrid or s4u), "flit" in rt_flit.c (rt_replay.h). A job's
 * progress rate is t_ref / t_now, where both are one iteration of its
 * profile (jobprof.h) replayed by the engine (SMPI's replay by default):
 *  - t_ref: the job alone on the reference placement, nodes 0..n-1
 *    (contiguous); its work is its log run time, the run time there;
 *  - mode=isolated: t_now is the job alone on its own nodes (the effect of
 *    placement only), cached by (profile, canonical placement, plat_canon)
 *    so that equal-shaped allocations share one replay; the reference is
 *    the same cache's entry for nodes 0..n-1;
 *  - mode=shared: t_now comes from replaying every running job together,
 *    each on its nodes, whenever the running set changes (contention
 *    between jobs). Only jobs whose traffic crosses a common link can
 *    interact (groups.h): the running set is split into such groups, a
 *    group whose members have not changed keeps its times, a group of one
 *    job is isolated by definition (and takes the isolated path and its
 *    cache), and each other group is replayed on its own.
 * One iteration (replay.h; iteration=timed|difference): by default one
 * replay of each kernel's first timed iteration alone, every job (and
 * rank) starting it together; or the difference between replays of the
 * generated traces with two iterations and with one, all jobs starting
 * together in both (setup and verification cancel out; under sharing, the
 * second iteration meets what the other jobs do then). Replays run in this
 * process where the engine can (s4u: no fork per replay; netsim.h's
 * in_process). Traces are generated once per (kernel,
 * rank count, iterations) and kept for the model's life. The engine and
 * its platform (written from the machine into a temporary file) are made
 * at the first rate update: SimGrid allows one per process. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../apptraces/trace_stats.h"
#include "../../common/grow.h"
#include "../../common/hash.h"
#include "../../jobsched/runtime/runtime.h"
#include "../../netsim/netsim.h"
#include "../profiles/jobprof.h"
#include "../replay/groups.h"
#include "../replay/itcache.h"
#include "../replay/replay.h"
#include "rt_replay.h"
#include "sg_memory.h"

static const struct cmn_param_def sg_params[] = {
    CPL_REPLAY_MODE_PARAM,
    {"engine", CMN_PT_CHOICE, "simgrid", 0, 0, "simgrid|s4u",
     "netsim engine: SMPI's replay (simgrid) or netsim's own (s4u)"},
    CPL_ALLTOALL_PARAM,
    {"max_memory", CMN_PT_INT, "4096", 0, 1e9, NULL,
     "MB the linear all-to-alls of the replays that may run at once (a job, the running "
     "jobs together under mode=shared, a rate update's under ahead=yes) may hold in "
     "SimGrid, checked before the run (0: no limit; alltoall=ring holds a message a rank)"},
    CPL_CROSSTRAFFIC_PARAM,
    CPL_REPLAY_SHAPE_PARAM,
    CPL_REPLAY_GROUP_CACHE_PARAM,
    CPL_REPLAY_ITERATION_PARAM,
    CPL_REPLAY_INTERVAL_PARAM,
    CPL_REPLAY_AHEAD_PARAM,
    CPL_PROFILE_PARAMS,
    {NULL},
};

struct pairs {
	int kernel, nranks;
	int *pairs, npairs; /* rank pairs that exchange bytes */
};

/* Per job index, for mode=shared. */
struct jstate {
	int *links, nlinks, links_moves; /* links its traffic crosses (NULL: unknown) */
	unsigned long long sig;          /* its group's signature at its last replay (0: none) */
	double t;                        /* its iteration time then */
	int timed, t_moves;              /* t is known; its migrations then */
};

struct sgm {
	struct cpl_profiles *prof;
	int shared;
	char engine[256], model[16];
	int ring;     /* alltoall=ring */
	int no_cross; /* crosstraffic=no (simgrid only) */
	int counts;   /* shape=counts */
	int timed;    /* iteration=timed */
	struct cpl_replay *rp;
	const struct plat_machine *m;
	struct pairs *pairs;
	int npairs, cappairs;
	struct cpl_itcache *cache; /* isolated iteration times */
	struct cpl_itcache
	    *ahead; /* those replayed ahead in the current rate update (NULL: none) */
	struct cpl_itcache *gahead; /* groups replayed ahead in the current update (NULL: none) */
	double *t_job;              /* by job index: its isolated time (NAN: unknown) */
	int *t_moves;               /* its migrations then */
	int *canon;                 /* machine-sized buffer */
	int *ident;                 /* 0 .. nodes - 1: the reference placement */
	struct cpl_groups *grp;
	int group_cache;            /* group_cache=yes */
	struct cpl_itcache *gcache; /* groups' iteration times, by canonical group */
	struct jstate *js;          /* by job index */
	int *held, nheld;           /* jobs with link lists */
	char *running;              /* by job index, during cpl_rt_replay_rates */
	long shared_sets;
	long updates_replaying, updates_several; /* rate updates that replayed groups;
	                                           of those, two or more */
	double interval;                         /* rate_interval (0: every change replayed) */
	long max_mb;                             /* max_memory (simgrid model; 0: none) */
	double replayed_at; /* when an update last replayed groups (-INFINITY: never) */
	long deferred;      /* changed groups not replayed within the interval */
	long ahead_replays; /* replays made ahead, several at once (replay_misses) */
	int ahead_on;       /* ahead=yes */
};

/* A group's member in the group cache's order. */
struct gmember {
	int k, n, pos;    /* kernel, ranks, index in the group as given */
	const int *canon; /* its own placement's canonical form */
};

int cpl_rt_replay_create(const struct cmn_params *p, const char *model, const char *engine,
                         void **self, struct cmn_err *e)
{
	double interval = cmn_params_num(p, "rate_interval");
	if (interval > 0 && strcmp(cmn_params_str(p, "mode"), "shared") != 0)
		return cmn_err_set(
		    e, CMN_EUSAGE,
		    "rate_interval=%g: it bounds how often mode=shared replays groups; "
		    "mode=isolated replays each job once per placement",
		    interval);
	if (strcmp(cmn_params_str(p, "group_cache"), "yes") != 0 &&
	    strcmp(cmn_params_str(p, "mode"), "shared") != 0)
		return cmn_err_set(e, CMN_EUSAGE,
		                   "group_cache=%s: the group cache is mode=shared's (groups of "
		                   "jobs replayed together); mode=isolated replays each job alone, "
		                   "cached by its placement",
		                   cmn_params_str(p, "group_cache"));
	struct sgm *g = calloc(1, sizeof *g);
	if (!g)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	if (cpl_profiles_create(p, model, &g->prof, e)) {
		free(g);
		return e->code;
	}
	g->shared = strcmp(cmn_params_str(p, "mode"), "shared") == 0;
	snprintf(g->engine, sizeof g->engine, "%s", engine);
	snprintf(g->model, sizeof g->model, "%s", model);
	g->ring = strcmp(cmn_params_str(p, "alltoall"), "ring") == 0;
	g->max_mb = (long)cmn_params_num(p, "max_memory");
	g->counts = strcmp(cmn_params_str(p, "shape"), "counts") == 0;
	g->timed = strcmp(cmn_params_str(p, "iteration"), "timed") == 0;
	g->group_cache = strcmp(cmn_params_str(p, "group_cache"), "yes") == 0;
	g->interval = interval;
	g->ahead_on = strcmp(cmn_params_str(p, "ahead"), "yes") == 0;
	g->replayed_at = -INFINITY;
	if (!(g->cache = cpl_itcache_new()) || !(g->gcache = cpl_itcache_new())) {
		cpl_itcache_free(g->cache);
		cpl_profiles_free(g->prof);
		free(g);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	*self = g;
	return 0;
}

static int sg_create(const struct cmn_params *p, void **self, struct cmn_err *e)
{
	if (cpl_rt_replay_create(p, "simgrid", cmn_params_str(p, "engine"), self, e))
		return e->code;
	((struct sgm *)*self)->no_cross = strcmp(cmn_params_str(p, "crosstraffic"), "no") == 0;
	return 0;
}

void cpl_rt_replay_destroy(void *self)
{
	struct sgm *g = self;
	cpl_replay_close(g->rp);
	for (int i = 0; i < g->npairs; i++)
		free(g->pairs[i].pairs);
	free(g->pairs);
	for (int i = 0; i < g->nheld; i++)
		free(g->js[g->held[i]].links);
	free(g->js);
	free(g->held);
	free(g->running);
	cpl_groups_free(g->grp);
	cpl_itcache_free(g->cache);
	cpl_itcache_free(g->gcache);
	free(g->t_job);
	free(g->t_moves);
	free(g->canon);
	free(g->ident);
	cpl_profiles_free(g->prof);
	free(g);
}

/* The engine on the machine's platform, and the per-job arrays. */
static int setup(struct sgm *g, const struct js_sim *sim, struct cmn_err *e)
{
	g->m = js_sim_machine(sim);
	size_t nj = js_sim_njobs(sim) ? js_sim_njobs(sim) : 1;
	g->t_job = malloc(nj * sizeof *g->t_job);
	g->t_moves = calloc(nj, sizeof *g->t_moves);
	g->canon = malloc((size_t)g->m->nodes * sizeof *g->canon);
	g->ident = malloc((size_t)g->m->nodes * sizeof *g->ident);
	g->js = calloc(nj, sizeof *g->js);
	g->held = malloc(nj * sizeof *g->held);
	g->running = calloc(nj, 1);
	if (!g->t_job || !g->t_moves || !g->canon || !g->ident || !g->js || !g->held ||
	    !g->running || cpl_groups_new(g->m, strcmp(g->model, "flit") == 0, &g->grp))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (size_t j = 0; j < nj; j++)
		g->t_job[j] = NAN;
	for (int r = 0; r < g->m->nodes; r++)
		g->ident[r] = r;
	/* in this process where the engine can (s4u): the models' replays are
	 * many and small, and a fork costs more than most of them */
	struct cpl_replay_opts o = {g->ring, g->timed, 1, g->no_cross};
	if (cpl_profiles_bind(g->prof, sim, e))
		return e->code;
	return cpl_replay_open(g->m, g->engine, &o, g->prof, &g->rp, e);
}

/* The rank pairs of kernel k on n ranks that exchange bytes in what is
 * replayed (the timed iteration; by difference, the two-iteration trace,
 * setup included). */
static int pairs_of(struct sgm *g, int k, int n, const int **pairs, int *npairs, struct cmn_err *e)
{
	struct pairs *x = NULL;
	for (int i = 0; i < g->npairs && !x; i++)
		if (g->pairs[i].kernel == k && g->pairs[i].nranks == n)
			x = &g->pairs[i];
	if (!x) {
		/* the traffic replayed: the timed iteration, or setup and two */
		const struct trace *t =
		    cpl_replay_trace(g->rp, k, n, g->timed ? CPL_ONE_ITERATION : 2, e);
		if (!t)
			return e->code;
		if (g->npairs == g->cappairs) {
			int cap = g->cappairs ? 2 * g->cappairs : 16;
			struct pairs *p = realloc(g->pairs, (size_t)cap * sizeof *p);
			if (!p)
				return cmn_err_set(e, CMN_ENOMEM, "out of memory");
			g->pairs = p;
			g->cappairs = cap;
		}
		struct trace_stats s;
		if (trace_stats_compute(t, &s, e))
			return e->code;
		int cnt = 0;
		for (long i = 0; i < s.npairs; i++)
			cnt += s.pairs[i].src != s.pairs[i].dst && s.pairs[i].bytes > 0;
		int *pp = malloc(2 * (size_t)(cnt ? cnt : 1) * sizeof *pp);
		if (!pp) {
			trace_stats_free(&s);
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		}
		x = &g->pairs[g->npairs++];
		*x = (struct pairs){k, n, pp, 0};
		for (long i = 0; i < s.npairs; i++)
			if (s.pairs[i].src != s.pairs[i].dst && s.pairs[i].bytes > 0) {
				x->pairs[2 * x->npairs] = s.pairs[i].src;
				x->pairs[2 * x->npairs++ + 1] = s.pairs[i].dst;
			}
		trace_stats_free(&s);
	}
	*pairs = x->pairs;
	*npairs = x->npairs;
	return 0;
}

/* One iteration of kernel k alone on nodes (cached by canonical form). A
 * profile whose ranks exchange nothing runs alike on any nodes (one rank
 * per node, equal nodes): every placement is the reference's, one replay,
 * and its rate exactly 1 (replays in this process differ in their last
 * digits with the clock they start at). */
static int isolated_key(struct sgm *g, int k, const int *nodes, int n, struct cmn_err *e)
{
	const int *pairs;
	int npairs;
	if (pairs_of(g, k, n, &pairs, &npairs, e))
		return e->code;
	if (npairs == 0)
		for (int r = 0; r < n; r++)
			g->canon[r] = r;
	else if ((g->counts ? plat_shape : plat_canon)(g->m, nodes, n, g->canon))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	return 0;
}

static int isolated(struct sgm *g, int k, const int *nodes, int n, double *t, struct cmn_err *e)
{
	if (isolated_key(g, k, nodes, n, e))
		return e->code;
	if (cpl_itcache_get(g->cache, k, g->canon, n, t))
		return 0;
	const int *pl = g->canon; /* the canonical placement itself: equal by symmetry */
	if ((!g->ahead || !cpl_itcache_get(g->ahead, k, g->canon, n, t)) &&
	    cpl_replay_iterations(g->rp, 1, &k, &pl, &n, t, e))
		return e->code;
	if (cpl_itcache_put(g->cache, k, g->canon, n, *t))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	return 0;
}

static int gmember_cmp(const void *a, const void *b)
{
	const struct gmember *x = a, *y = b;
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	for (int r = 0; r < x->n; r++)
		if (x->canon[r] != y->canon[r])
			return x->canon[r] < y->canon[r] ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* A group's key in the group cache: every group equal to it under the
 * machine's symmetries shares it. Its members ordered by kernel, size and
 * their own canonical placement (order[q]: the given index of the q-th),
 * then key: kernel and size of each (2m ints), then the canonical form of
 * all their ranks' nodes one member after another (plat_canon: one
 * automorphism for the whole group, so which links the jobs share is
 * kept). That canonical group is what is replayed, as the isolated cache
 * replays the canonical placement, so an entry's times do not depend on
 * which of the equal groups came first. */
struct gkey {
	int m, klen;
	int *key, *order;
};

static void gkey_free(struct gkey *gk)
{
	free(gk->key);
	free(gk->order);
	gk->key = gk->order = NULL;
}

static int group_key(struct sgm *g, int m, const int *k, const int *const *nodes, const int *n,
                     struct gkey *gk, struct cmn_err *e)
{
	size_t total = 0;
	for (int q = 0; q < m; q++)
		total += (size_t)n[q];
	struct gmember *mb = malloc((size_t)m * sizeof *mb);
	int *own = malloc((total ? total : 1) * sizeof *own);
	int *cat = malloc((total ? total : 1) * sizeof *cat);
	*gk =
	    (struct gkey){m, 2 * m + (int)total, malloc((2 * (size_t)m + total) * sizeof *gk->key),
	                  malloc((size_t)m * sizeof *gk->order)};
	int rc = 0;
	if (!mb || !own || !cat || !gk->key || !gk->order)
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (size_t q = 0, at = 0; !rc && q < (size_t)m; at += (size_t)n[q], q++) {
		if (plat_canon(g->m, nodes[q], n[q], own + at))
			rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
		mb[q] = (struct gmember){k[q], n[q], (int)q, own + at};
	}
	if (!rc) {
		qsort(mb, (size_t)m, sizeof *mb, gmember_cmp);
		size_t at = 0;
		for (int q = 0; q < m; q++) {
			memcpy(cat + at, nodes[mb[q].pos], (size_t)mb[q].n * sizeof *cat);
			at += (size_t)mb[q].n;
			gk->key[2 * q] = mb[q].k;
			gk->key[2 * q + 1] = mb[q].n;
			gk->order[q] = mb[q].pos;
		}
		if (plat_canon(g->m, cat, (int)total, gk->key + 2 * m))
			rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	free(mb);
	free(own);
	free(cat);
	if (rc)
		gkey_free(gk);
	return rc;
}

/* The canonical group of a key as jobs: kernels, sizes and nodes. */
static void gkey_jobs(const int *key, int m, int *k, int *n, const int **nodes)
{
	for (int q = 0, at = 2 * m; q < m; at += key[2 * q + 1], q++) {
		k[q] = key[2 * q];
		n[q] = key[2 * q + 1];
		nodes[q] = key + at;
	}
}

/* One iteration of m jobs together (kernel k[q] on nodes[q], n[q] ranks),
 * into t: with the group cache, that of the group's key (group_key), from
 * the cache, from those replayed ahead, or replayed. */
static int group_times(struct sgm *g, int m, const int *k, const int *const *nodes, const int *n,
                       double *t, struct cmn_err *e)
{
	if (!g->group_cache) {
		g->shared_sets++;
		return cpl_replay_iterations(g->rp, m, k, nodes, n, t, e);
	}
	struct gkey gk;
	if (group_key(g, m, k, nodes, n, &gk, e))
		return e->code;
	int *sk = malloc((size_t)m * sizeof *sk), *sn = malloc((size_t)m * sizeof *sn);
	const int **snodes = malloc((size_t)m * sizeof *snodes);
	double *st = malloc((size_t)m * sizeof *st);
	int rc = 0;
	if (!sk || !sn || !snodes || !st)
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	if (!rc && !cpl_itcache_getv(g->gcache, m, gk.key, gk.klen, st, m)) {
		g->shared_sets++;
		gkey_jobs(gk.key, m, sk, sn, snodes);
		if (!(g->gahead && cpl_itcache_getv(g->gahead, m, gk.key, gk.klen, st, m)))
			rc = cpl_replay_iterations(g->rp, m, sk, snodes, sn, st, e);
		if (!rc && cpl_itcache_putv(g->gcache, m, gk.key, gk.klen, st, m))
			rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	for (int q = 0; !rc && q < m; q++)
		t[gk.order[q]] = st[q];
	gkey_free(&gk);
	free(sk);
	free(sn);
	free(snodes);
	free(st);
	return rc;
}

/* rate_interval: the times of a changed group's members without a replay:
 * each keeps its last time on its current nodes, or takes its time alone
 * there; all are left stale (replayed at the next update that replays). */
static int deferred_times(struct sgm *g, int m, const int *pos, const int *j, const int *k,
                          const int *const *nodes, const int *nn, const int *moves, double *tnow,
                          struct cmn_err *e)
{
	for (int q = 0; q < m; q++) {
		int i = pos[q];
		struct jstate *s = &g->js[j[i]];
		if (!s->timed || s->t_moves != moves[i]) {
			if (isolated(g, k[i], nodes[i], nn[i], &s->t, e))
				return e->code;
			s->timed = 1;
			s->t_moves = moves[i];
		}
		tnow[i] = s->t;
		s->sig = 0;
	}
	g->deferred++;
	return 0;
}

/* Replays a rate update will miss, each once, in the order it asks for
 * them: isolated placements (profile: the kernel; key: its canonical
 * placement) and groups (profile: the member count; key: group_key's). */
struct misses {
	long n, cap, used, capkeys;
	int *profile, *klen, *group; /* per miss; group: a group's key */
	int *keys;                   /* one after another */
	int jobs;                    /* the jobs of all the replays */
};

static void misses_free(struct misses *ms)
{
	free(ms->profile), free(ms->klen), free(ms->group), free(ms->keys);
}

/* Adds a miss unless already there: 0, or -1 out of memory. */
static int misses_add(struct misses *ms, int profile, const int *key, int klen, int group)
{
	for (long a = 0, at = 0; a < ms->n; at += ms->klen[a++])
		if (ms->profile[a] == profile && ms->klen[a] == klen && ms->group[a] == group &&
		    !memcmp(ms->keys + at, key, (size_t)klen * sizeof *key))
			return 0;
	long c1 = ms->cap, c2 = ms->cap;
	if (cmn_grow((void **)&ms->profile, &c1, ms->n + 1, 16, sizeof *ms->profile) ||
	    cmn_grow((void **)&ms->klen, &c2, ms->n + 1, 16, sizeof *ms->klen) ||
	    cmn_grow((void **)&ms->group, &ms->cap, ms->n + 1, 16, sizeof *ms->group) ||
	    cmn_grow((void **)&ms->keys, &ms->capkeys, ms->used + klen, 1024, sizeof *ms->keys))
		return -1;
	ms->profile[ms->n] = profile, ms->klen[ms->n] = klen, ms->group[ms->n++] = group;
	memcpy(ms->keys + ms->used, key, (size_t)klen * sizeof *key);
	ms->used += klen;
	ms->jobs += group ? profile : 1;
	return 0;
}

/* Adds kernel k alone on nodes unless its time is known: 0, or an error. */
static int misses_isolated(struct sgm *g, struct misses *ms, int k, const int *nodes, int n,
                           struct cmn_err *e)
{
	if (isolated_key(g, k, nodes, n, e))
		return e->code;
	if (cpl_itcache_has(g->cache, k, g->canon, n) ||
	    (g->ahead && cpl_itcache_has(g->ahead, k, g->canon, n)))
		return 0;
	return misses_add(ms, k, g->canon, n, 0) ? cmn_err_set(e, CMN_ENOMEM, "out of memory") : 0;
}

/* Replays the misses together (at once where the engine can: two threads
 * on the flit engine, children for SimGrid's) into g->ahead (placements)
 * and g->gahead (groups), from which isolated() and group_times() take
 * them instead of replaying. The same replays in the same order as one
 * after another, so the same times and cache counts. A failure leaves
 * them to be replayed, and reported, one by one. */
static void replay_misses(struct sgm *g, const struct misses *ms)
{
	struct cmn_err e = {0};
	int *cnt = malloc((size_t)ms->n * sizeof *cnt), *k = malloc((size_t)ms->jobs * sizeof *k);
	int *n = malloc((size_t)ms->jobs * sizeof *n);
	const int **pl = malloc((size_t)ms->jobs * sizeof *pl);
	double *t = malloc((size_t)ms->jobs * sizeof *t);
	if (cnt && k && n && pl && t && (g->ahead || (g->ahead = cpl_itcache_new())) &&
	    (g->gahead || (g->gahead = cpl_itcache_new()))) {
		for (long a = 0, at = 0, q = 0; a < ms->n; at += ms->klen[a], q += cnt[a++]) {
			const int *key = ms->keys + at;
			cnt[a] = ms->group[a] ? ms->profile[a] : 1;
			if (ms->group[a])
				gkey_jobs(key, cnt[a], k + q, n + q, pl + q);
			else
				k[q] = ms->profile[a], n[q] = ms->klen[a], pl[q] = key;
		}
		int ok = !cpl_replay_sets(g->rp, (int)ms->n, cnt, k, pl, n, t, &e);
		g->ahead_replays += ok ? ms->n : 0;
		for (long a = 0, at = 0, q = 0; ok && a < ms->n; at += ms->klen[a], q += cnt[a++])
			if (ms->group[a]
			        ? cpl_itcache_putv(g->gahead, ms->profile[a], ms->keys + at,
			                           ms->klen[a], t + q, cnt[a])
			        : cpl_itcache_put(g->ahead, k[q], pl[q], n[q], t[q]))
				break; /* what is missing is replayed one by one */
	}
	free(cnt), free(k), free(n), free(pl), free(t);
}

/* The running jobs (job j[i], kernel k[i], nodes, nn[i] ranks, moves) as
 * the arrays shared_times and shared_ahead share. */
struct running {
	int n;
	const int *j, *k, *nn, *moves;
	const int *const *nodes;
};

/* The members of group r (group[i] == r) in position order into pos, with
 * their kernels, nodes and sizes into mk, mnodes and mn, and their
 * signature over their job indices and moves into *sig; returns their
 * count, and in *same whether each member's time is that of a replay of
 * this very group. */
static int group_members(const struct sgm *g, int r, const struct running *rj, const int *group,
                         int *pos, int *mk, const int **mnodes, int *mn, unsigned long long *sig,
                         int *same)
{
	const int *j = rj->j, *moves = rj->moves;
	uint64_t h = CMN_FNV64_BASIS;
	int m = 0;
	for (int i = r; i < rj->n; i++)
		if (group[i] == r) {
			mk[m] = rj->k[i], mnodes[m] = rj->nodes[i], mn[m] = rj->nn[i];
			pos[m++] = i;
			h = cmn_fnv64(h, (unsigned)j[i]);
			h = cmn_fnv64(h, (unsigned)moves[i]);
		}
	*sig = h | 1; /* never 0 */
	*same = 1;
	for (int q = 0; q < m; q++)
		*same &= g->js[j[pos[q]]].sig == *sig;
	return m;
}

/* mode=shared with the group cache: the replays shared_times will miss
 * (groups, and placements of jobs alone or deferred), found as it will ask
 * for them, replayed together (replay_misses). pos, mk, mn and mnodes are
 * scratch of n entries. */
static void shared_ahead(struct sgm *g, int defer, const struct running *rj, const int *group,
                         int *pos, int *mk, int *mn, const int **mnodes)
{
	const int *j = rj->j, *moves = rj->moves;
	if (!g->ahead_on || !g->group_cache || !cpl_replay_ops(g->rp)->evaluate_many)
		return;
	struct misses ms = {0};
	struct cmn_err e = {0};
	int ok = 1;
	for (int r = 0; ok && r < rj->n; r++) {
		if (group[r] != r)
			continue;
		unsigned long long sig;
		int same, m = group_members(g, r, rj, group, pos, mk, mnodes, mn, &sig, &same);
		if (same)
			continue;
		if (m == 1 || defer) { /* isolated(), or deferred_times()'s */
			for (int q = 0; ok && q < m; q++) {
				const struct jstate *s = &g->js[j[pos[q]]];
				if (m == 1 || !s->timed || s->t_moves != moves[pos[q]])
					ok = !misses_isolated(g, &ms, mk[q], mnodes[q], mn[q], &e);
			}
			continue;
		}
		struct gkey gk;
		if (group_key(g, m, mk, mnodes, mn, &gk, &e)) {
			ok = 0;
			break;
		}
		if (!cpl_itcache_has(g->gcache, m, gk.key, gk.klen))
			ok = !misses_add(&ms, m, gk.key, gk.klen, 1);
		gkey_free(&gk);
	}
	if (ok && ms.n > 1)
		replay_misses(g, &ms);
	misses_free(&ms);
}

/* mode=shared: t_now of the n running jobs (job j[i], kernel k[i], nodes,
 * moves) group by group, at time now. */
static int shared_times(struct sgm *g, double now, int n, const int *j, const int *k,
                        const int *const *nodes, const int *nn, const int *moves, double *tnow,
                        struct cmn_err *e)
{
	/* within rate_interval of the last update that replayed: none now */
	int defer = g->interval > 0 && now - g->replayed_at < g->interval;
	const int **links = malloc((size_t)n * sizeof *links);
	int *nl = malloc((size_t)n * sizeof *nl), *group = malloc((size_t)n * sizeof *group);
	int *mk = malloc((size_t)n * sizeof *mk);
	int *mn = malloc((size_t)n * sizeof *mn), *pos = malloc((size_t)n * sizeof *pos);
	const int **mnodes = malloc((size_t)n * sizeof *mnodes);
	double *mt = malloc((size_t)n * sizeof *mt);
	int rc = 0;
	if (!links || !nl || !group || !mk || !mn || !pos || !mnodes || !mt)
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int i = 0; !rc && i < n; i++) {
		struct jstate *s = &g->js[j[i]];
		if (s->links && s->links_moves != moves[i]) { /* migrated: new routes */
			free(s->links);
			s->links = NULL;
			s->sig = 0;
		}
		if (!s->links) {
			const int *pairs;
			int np;
			if ((rc = pairs_of(g, k[i], nn[i], &pairs, &np, e)))
				break;
			if (cpl_groups_job_links(g->grp, nodes[i], pairs, np, &s->links,
			                         &s->nlinks)) {
				rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
				break;
			}
			s->links_moves = moves[i];
			g->held[g->nheld++] = j[i];
		}
		links[i] = s->links;
		nl[i] = s->nlinks;
	}
	if (!rc)
		cpl_groups_of(g->grp, n, links, nl, group);
	long sets_before = g->shared_sets;
	const struct running rj = {n, j, k, nn, moves, nodes};
	if (!rc)
		shared_ahead(g, defer, &rj, group, pos, mk, mn, mnodes);
	for (int r = 0; !rc && r < n; r++) {
		if (group[r] != r)
			continue;
		unsigned long long sig;
		int same, m = group_members(g, r, &rj, group, pos, mk, mnodes, mn, &sig, &same);
		if (same) {
			for (int q = 0; q < m; q++)
				tnow[pos[q]] = g->js[j[pos[q]]].t;
			continue;
		}
		if (m == 1) {
			rc = isolated(g, k[r], nodes[r], nn[r], &mt[0], e);
		} else if (defer) {
			rc = deferred_times(g, m, pos, j, k, nodes, nn, moves, tnow, e);
			continue;
		} else {
			rc = group_times(g, m, mk, mnodes, mn, mt, e);
		}
		for (int q = 0; !rc && q < m; q++) {
			struct jstate *s = &g->js[j[pos[q]]];
			tnow[pos[q]] = s->t = mt[q];
			s->sig = sig;
			s->timed = 1;
			s->t_moves = moves[pos[q]];
		}
	}
	if (g->shared_sets > sets_before)
		g->replayed_at = now;
	g->updates_replaying += g->shared_sets > sets_before;
	g->updates_several += g->shared_sets > sets_before + 1;
	/* forget the link lists of jobs that ended */
	for (int i = 0; i < n; i++)
		g->running[j[i]] = 1;
	for (int i = 0; i < g->nheld;) {
		int q = g->held[i];
		if (g->running[q]) {
			i++;
			continue;
		}
		free(g->js[q].links);
		g->js[q].links = NULL;
		g->held[i] = g->held[--g->nheld];
	}
	for (int i = 0; i < n; i++)
		g->running[j[i]] = 0;
	cpl_itcache_free(g->ahead); /* all taken, or left by a failure */
	cpl_itcache_free(g->gahead);
	g->ahead = NULL, g->gahead = NULL;
	free(links);
	free(nl);
	free(group);
	free(mk);
	free(mn);
	free(pos);
	free(mnodes);
	free(mt);
	return rc;
}

/* The job's reference time (nodes 0..n-1 alone). */
static int reference(struct sgm *g, int k, int n, double *t, struct cmn_err *e)
{
	return isolated(g, k, g->ident, n, t, e);
}

/* Whether job j's isolated time must be found again: never found, or
 * found before its last move (moves: its placement version now). */
static int isolated_stale(const struct sgm *g, int j, int moves)
{
	return isnan(g->t_job[j]) || g->t_moves[j] != moves;
}

/* A job's work: its log run time; for a job whose workload gives it a
 * trace (jobprof.h), which has no run time of its own, its replay's time on
 * the reference placement, so that at rate t_ref / t_now its run time is
 * the replay's time on its nodes (Batsim's meaning of such a profile). */
double cpl_rt_replay_work(void *self, struct js_sim *sim, int j, const int *nodes, int n,
                          struct cmn_err *e)
{
	(void)nodes;
	struct sgm *g = self;
	const struct js_job *job = js_sim_job(sim, j);
	if (!cpl_profiles_replayed(job))
		return job->run_s;
	double t;
	if ((!g->rp && setup(g, sim, e)) ||
	    reference(g, cpl_profiles_of(g->prof, job, j), n, &t, e))
		return -1; /* the core names the job */
	return t;
}

/* The isolated replays a rate update will miss, found as rates() will ask
 * for them (each job's reference when it has none or was resized, its
 * placement when isolated and new or moved), replayed together. */
static void replay_ahead(struct sgm *g, struct js_sim *sim, size_t n, const int *jj, const int *k,
                         const int *const *nodes, const int *nn)
{
	if (!g->ahead_on || !cpl_replay_ops(g->rp)->evaluate_many)
		return;
	struct misses ms = {0};
	struct cmn_err e = {0};
	int ok = 1;
	for (size_t i = 0; ok && i < n; i++) {
		int j = jj[i], moves = js_sim_placement_version(sim, j);
		int need[2] = {isnan(cpl_profiles_recorded_ref(sim, j)) ||
		                   js_sim_start_size(sim, j) != nn[i],
		               (!g->shared || n == 1) && isolated_stale(g, j, moves)};
		for (int pass = 0; ok && pass < 2; pass++) /* its reference, then its placement */
			if (need[pass])
				ok = !misses_isolated(g, &ms, k[i], pass ? nodes[i] : g->ident,
				                      nn[i], &e);
	}
	if (ok && ms.n > 1)
		replay_misses(g, &ms);
	misses_free(&ms);
}

int cpl_rt_replay_rates(void *self, struct js_sim *sim, double *rates, struct cmn_err *e)
{
	struct sgm *g = self;
	if (!g->rp && setup(g, sim, e))
		return e->code;
	size_t n = js_sim_rlen(sim);
	int *k = malloc(n * sizeof *k), *nn = malloc(n * sizeof *nn);
	int *jj = malloc(n * sizeof *jj), *mv = malloc(n * sizeof *mv);
	const int **nodes = malloc(n * sizeof *nodes);
	double *tref = malloc(n * sizeof *tref), *tnow = malloc(n * sizeof *tnow);
	int rc = 0;
	if (!k || !nn || !jj || !mv || !nodes || !tref || !tnow)
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < n; i++) {
		int j = jj[i] = js_sim_rjob(sim, i);
		mv[i] = js_sim_placement_version(sim, j);
		k[i] = cpl_profiles_of(g->prof, js_sim_job(sim, j), j);
		nodes[i] = js_sim_job_nodes(sim, j, &nn[i]);
		if (!nodes[i])
			rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	if (!rc && n > 0)
		replay_ahead(g, sim, n, jj, k, nodes, nn);
	for (size_t i = 0; !rc && i < n; i++) {
		int j = jj[i];
		tref[i] = cpl_profiles_recorded_ref(sim, j); /* looked up once per job */
		if (isnan(tref[i]) && !(rc = reference(g, k[i], nn[i], &tref[i], e)))
			rc = cpl_profiles_record(sim, j, cpl_profiles_name(g->prof, k[i]), tref[i],
			                         e);
		if (!rc && js_sim_start_size(sim, j) != nn[i]) /* resized: its size's own */
			rc = reference(g, k[i], nn[i], &tref[i], e);
		if (!rc && (!g->shared || n == 1)) {
			int moves = js_sim_placement_version(sim, j);
			if (isolated_stale(g, j, moves)) {
				rc = isolated(g, k[i], nodes[i], nn[i], &g->t_job[j], e);
				g->t_moves[j] = moves;
			}
			tnow[i] = g->t_job[j];
		}
		if (rc)
			cmn_err_prefix(e, "job %" PRIu64, js_sim_job(sim, j)->id);
	}
	cpl_itcache_free(g->ahead); /* all taken, or left by a failure */
	cpl_itcache_free(g->gahead);
	g->ahead = NULL, g->gahead = NULL;
	if (!rc && g->shared && n > 1)
		rc = shared_times(g, js_sim_now(sim), (int)n, jj, k, nodes, nn, mv, tnow, e);
	for (size_t i = 0; !rc && i < n; i++) /* both 0: nothing placement can change */
		rates[i] = tnow[i] == tref[i] ? 1 : tref[i] / tnow[i];
	for (size_t i = 0; !rc && i < n; i++)
		if (!(rates[i] > 0 && isfinite(rates[i])))
			rc = cmn_err_set(e, CMN_ESTATE,
			                 "job %" PRIu64
			                 ": an iteration of %g s on its nodes, %g s on the "
			                 "reference: no rate",
			                 js_sim_job(sim, jj[i])->id, tnow[i], tref[i]);
	free(k);
	free(nn);
	free(jj);
	free(mv);
	free(nodes);
	free(tref);
	free(tnow);
	return rc;
}

double cpl_rt_replay_resize_iter(void *self, struct js_sim *sim, int j, const int *nodes, int n,
                                 int from_n, double from_iter_s, struct cmn_err *e)
{
	(void)nodes;
	struct sgm *g = self;
	if (!g->rp && setup(g, sim, e))
		return -1;
	int k = cpl_profiles_of(g->prof, js_sim_job(sim, j), j);
	double t_from, t_to;
	if (reference(g, k, from_n, &t_from, e) || reference(g, k, n, &t_to, e))
		return -1;
	return t_from > 0 ? from_iter_s * t_to / t_from : from_iter_s;
}

void cpl_rt_replay_report(void *self, FILE *f)
{
	struct sgm *g = self;
	long lookups, hits;
	size_t entries;
	cpl_itcache_counts(g->cache, &lookups, &hits, &entries);
	fprintf(f,
	        "%s (%s, engine %s): %ld replays; placement cache %ld lookups, %ld hits "
	        "(%.1f%%), %zu entries",
	        g->model, g->shared ? "shared" : "isolated", g->engine,
	        g->rp ? cpl_replay_count(g->rp) : 0, lookups, hits,
	        lookups ? 100.0 * (double)hits / (double)lookups : 0.0, entries);
	if (g->ahead_replays)
		fprintf(f, "; %ld of the replays made ahead, several at once", g->ahead_replays);
	if (g->no_cross)
		fprintf(f, "; crosstraffic=no: SimGrid's reverse traffic not simulated");
	if (g->shared) {
		cpl_itcache_counts(g->gcache, &lookups, &hits, &entries);
		fprintf(
		    f,
		    "; %ld groups of jobs replayed together (in %ld rate updates, %ld with more "
		    "than one)",
		    g->shared_sets, g->updates_replaying, g->updates_several);
		if (g->group_cache)
			fprintf(f, "; group cache %ld lookups, %ld hits (%.1f%%), %zu entries",
			        lookups, hits,
			        lookups ? 100.0 * (double)hits / (double)lookups : 0.0, entries);
		if (g->interval > 0)
			fprintf(f, "; %ld changed groups not replayed within rate_interval=%g s",
			        g->deferred, g->interval);
	}
	fprintf(f, "\n");
}

/* Before the run: the linear all-to-alls of the replays it may run at
 * once against max_memory (sg_memory.h). */
static int sg_estimate(void *self, const struct plat_machine *m, const struct js_workload *w,
                       FILE *notes, struct cmn_err *e)
{
	struct sgm *g = self;
	if (g->ring)
		return 0;
	struct cpl_sg_memory_opts o = {g->shared, g->ahead_on, g->timed ? 1 : 2, g->max_mb};
	return cpl_sg_memory_check(g->prof, w, m->nodes, &o, notes, e);
}

static const char *const sg_samples[] = {"simgrid:mode=isolated,class=S",
                                         "simgrid:mode=shared,class=S,engine=s4u", NULL};

const struct js_runtime_ops cpl_rt_simgrid_ops = {
    .base = {"simgrid",
             "emergent: iteration time replayed by SimGrid, each job alone on its nodes "
             "(isolated) or all running jobs together (shared); rate = reference / actual",
             sg_params, sg_samples},
    .create = sg_create,
    .estimate = sg_estimate,
    .columns = cpl_profile_columns,
    .destroy = cpl_rt_replay_destroy,
    .work_s = cpl_rt_replay_work,
    .replays_profiles = 1,
    .rates = cpl_rt_replay_rates,
    .report = cpl_rt_replay_report,
    .resize_iter = cpl_rt_replay_resize_iter,
};

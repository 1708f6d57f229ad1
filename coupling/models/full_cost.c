/* The full model's plan of a workload and its cost (full_cost.h). */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../apptraces/trace_expand.h"
#include "../linkload/traffic.h"
#include "full_cost.h"

/* Measured sizes behind the memory bound (results/bench/full_memory.sh):
 * a SimGrid 3.32 mailbox that carried messages (~820 B), the state of a
 * running rank (s4u: its actor, the touched part of its stack, its
 * context; flit: its interpreter and queues), a communication in flight,
 * a job's records (scheduler, outputs, session), the process with its
 * engine and platform before the session (35 MB measured on both engines
 * with one job of one rank on the 4-ary 3-tree, platform included), and
 * per node or link of the machine (SimGrid's hosts, links and routes; the
 * flit network's buffers). Against measured peaks the bound is 1.6 to 2.8
 * times the peak (results/bench/README.md; test_full_cost.sh holds it
 * within 3 times). */
#define MAILBOX_BYTES     1024.0
#define RANK_BYTES_S4U    (256.0 * 1024)
#define RANK_BYTES_FLIT   (16.0 * 1024)
#define IN_FLIGHT_BYTES   512.0
#define JOB_BYTES         2048.0
#define BASE_BYTES        (40.0 * 1024 * 1024)
#define PER_ELEMENT_BYTES (8.0 * 1024)
#define MB                (1024.0 * 1024)

struct cpl_full_plan {
	const struct cpl_profiles *prof;
	struct cpl_full_profile *p; /* in the order of first use */
	int np, made;               /* profiles; made so far */
	int *of;                    /* by job index: its profile */
	size_t njobs, counted;      /* jobs; those of the profiles made */
	int nodes, elements;        /* the machine's nodes, nodes + links */
	double iterations, actions; /* of the jobs counted */
	double bytes;               /* engine=flit: their messages' bytes */
	size_t big;                 /* the job with the most actions */
	uint64_t big_id;            /* its number */
	long big_iters;
	double big_actions;
	double traces, t3, in_flight; /* bytes: traces kept; the largest made while
	                                 checking; per running rank in flight (an
	                                 iteration's communications, a collective's
	                                 to every rank) */
	uint64_t *names;              /* mailbox names (a set: 0 is free) */
	size_t nnames, capnames;
	double mailboxes; /* mailboxes the slots may keep */
};

void cpl_full_limits_of(const struct cmn_params *p, struct cpl_full_limits *lim)
{
	lim->actions = cmn_params_num(p, "max_actions");
	lim->memory_mb = cmn_params_num(p, "max_memory");
	lim->bytes = cmn_params_num(p, "max_bytes");
	lim->flit = strcmp(cmn_params_str(p, "engine"), "flit") == 0;
	lim->flit_bytes = (int)cmn_params_num(p, "flit_bytes");
}

long cpl_full_iterations(const struct js_job *job, const struct cpl_full_profile *p)
{
	double k = round((job->run_s - p->setup) / p->t);
	if (!(k >= 1)) /* NaN (0 / 0): 1 */
		return 1;
	return k > 9007199254740992.0 ? -1 : (long)k; /* beyond 2^53: not counted exactly */
}

static double job_actions(const struct cpl_full_profile *p, long iters)
{
	return p->it.once + (double)(iters - 1) * p->it.body;
}

/* --- the mailbox names a profile's messages use (s4u) --- */
static uint64_t name_key(int coll, int key, int src, int dst)
{
	return 1ULL << 63 | (uint64_t)coll << 62 | (uint64_t)((uint32_t)key & 0x3fffffffu) << 32 |
	       (uint64_t)(src & 0xffff) << 16 | (uint64_t)(dst & 0xffff);
}

static int name_add(struct cpl_full_plan *pl, uint64_t k)
{
	if (2 * (pl->nnames + 1) > pl->capnames) {
		size_t cap = pl->capnames ? 2 * pl->capnames : 1024;
		uint64_t *t = calloc(cap, sizeof *t);
		if (!t)
			return -1;
		for (size_t i = 0; i < pl->capnames; i++)
			for (size_t at = pl->names[i] % cap; pl->names[i]; at = (at + 1) % cap)
				if (!t[at]) {
					t[at] = pl->names[i];
					break;
				}
		free(pl->names);
		pl->names = t;
		pl->capnames = cap;
	}
	size_t at = k % pl->capnames;
	while (pl->names[at] && pl->names[at] != k)
		at = (at + 1) % pl->capnames;
	if (!pl->names[at])
		pl->names[at] = k, pl->nnames++;
	return 0;
}

struct emit_ctx {
	struct cpl_full_plan *pl;
	int src, oom;
};

static void emit(void *ctx, int phase, int dst, double bytes)
{
	(void)bytes;
	struct emit_ctx *c = ctx;
	c->oom |= name_add(c->pl, name_key(1, phase, c->src, dst));
}

/* The names of t's messages (with ring alltoalls, a message to every
 * other rank even for an empty block). */
static int add_names(struct cpl_full_plan *pl, const struct trace *t, int ring)
{
	struct emit_ctx c = {pl, 0, 0};
	for (int r = 0; r < t->nranks; r++)
		for (long i = t->first[r]; i < t->first[r + 1]; i++) {
			const struct trace_action *a = &t->act[i];
			c.src = r;
			if (a->op == TR_SEND || a->op == TR_ISEND)
				c.oom |= name_add(pl, name_key(0, a->tag, r, a->peer));
			else if (ring && (a->op == TR_ALLTOALL || a->op == TR_ALLTOALLV))
				for (int d = 0; d < t->nranks; d++)
					c.oom |= d != r && name_add(pl, name_key(1, 0, r, d));
			else if (a->op >= TR_BARRIER && a->op <= TR_REDUCESCATTER)
				trace_expand_sends(t, r, a, emit, &c);
		}
	return c.oom ? -1 : 0;
}

/* Slot s (s jobs running beside its job, each on a node at least) holds
 * names of ranks below nodes - s: a name whose larger rank is m can be in
 * min(slots, nodes - m) slots. */
static void count_mailboxes(struct cpl_full_plan *pl)
{
	double slots = (double)(pl->njobs < (size_t)pl->nodes ? pl->njobs : (size_t)pl->nodes);
	pl->mailboxes = 0;
	for (size_t i = 0; i < pl->capnames; i++) {
		uint64_t k = pl->names[i];
		if (!k)
			continue;
		int src = (int)(k >> 16 & 0xffff), dst = (int)(k & 0xffff);
		double in = pl->nodes - (src > dst ? src : dst);
		pl->mailboxes += in < slots ? in : slots;
	}
}

/* --- profiles --- */
static int profile_of(struct cpl_full_plan *pl, int k, int n)
{
	for (int i = 0; i < pl->np; i++)
		if (pl->p[i].kernel == k && pl->p[i].nranks == n)
			return i;
	pl->p[pl->np] = (struct cpl_full_profile){.kernel = k, .nranks = n};
	return pl->np++;
}

/* The first job of profile i. */
static size_t first_job(const struct cpl_full_plan *pl, int i)
{
	size_t j = 0;
	while (j < pl->njobs && pl->of[j] != i)
		j++;
	return j;
}

static int add_bytes(void *ctx, int a, int b, double bytes)
{
	(void)a, (void)b;
	*(double *)ctx += bytes;
	return 0;
}

/* The bytes of one iteration of kernel k on n ranks, rank to rank. */
static int iteration_bytes(const struct cpl_profiles *prof, int k, int n, double *out,
                           struct cmn_err *e)
{
	struct cpl_traffic t;
	*out = 0;
	if (cpl_traffic_profile(prof, k, n, &t, e))
		return e->code;
	cpl_traffic_each(&t, add_bytes, out);
	cpl_traffic_free(&t);
	return 0;
}

/* Profile i: its references, traces and iteration range (and, flit, its
 * iteration's bytes). */
static int make_profile(struct cpl_full_plan *pl, struct cpl_replay *rp,
                        const struct js_workload *w, int ring, int flit, int i, struct cmn_err *e)
{
	struct cpl_full_profile *p = &pl->p[i];
	double t1;
	if (cpl_replay_reference(rp, p->kernel, p->nranks, &p->t, &t1, e))
		return e->code;
	p->setup = t1 > p->t ? t1 - p->t : 0;
	const struct trace *one = cpl_replay_trace(rp, p->kernel, p->nranks, 1, e);
	const struct trace *two = one ? cpl_replay_trace(rp, p->kernel, p->nranks, 2, e) : NULL;
	if (!two)
		return e->code;
	if (one == two) /* the replay gives a recorded trace for any iteration count */
		return cmn_err_set(
		    e, CMN_EUSAGE,
		    "job %" PRIu64 ": full: %s.%c.%d is a recorded trace: a recorded run has no "
		    "iterations to repeat for the job's life (use the simgrid "
		    "or linkload models, or traces=none)",
		    w->jobs[first_job(pl, i)].id, cpl_profiles_name(pl->prof, p->kernel),
		    cpl_profiles_class(pl->prof), p->nranks);
	if (cpl_iterated_make(pl->prof, p->kernel, p->nranks, one, two, &p->it, e))
		return e->code;
	p->t2 = two;
	if (flit && iteration_bytes(pl->prof, p->kernel, p->nranks, &p->iter_bytes, e))
		return e->code;
	p->bytes = trace_memory(one) + trace_memory(two) + 2.0 * p->nranks * sizeof(long);
	pl->traces += p->bytes;
	double t3 = trace_memory(two) + p->it.body * (double)sizeof(struct trace_action);
	if (t3 > pl->t3)
		pl->t3 = t3;
	double flight = (p->it.body / p->nranks + p->nranks) * IN_FLIGHT_BYTES;
	if (flight > pl->in_flight)
		pl->in_flight = flight;
	return add_names(pl, two, ring) ? cmn_err_set(e, CMN_ENOMEM, "out of memory") : 0;
}

/* Adds the jobs of profile i to the work. */
static int count_jobs(struct cpl_full_plan *pl, const struct js_workload *w, int i,
                      struct cmn_err *e)
{
	for (size_t j = 0; j < pl->njobs; j++) {
		if (pl->of[j] != i)
			continue;
		long k = cpl_full_iterations(&w->jobs[j], &pl->p[i]);
		if (k < 0)
			return cmn_err_set(e, CMN_EINPUT,
			                   "full: job %" PRIu64
			                   ": its run time %g s is more than 2^53 "
			                   "iterations of its profile (%g s each)",
			                   w->jobs[j].id, w->jobs[j].run_s, pl->p[i].t);
		double a = job_actions(&pl->p[i], k);
		pl->iterations += (double)k;
		pl->actions += a;
		pl->bytes += (double)k * pl->p[i].iter_bytes;
		if (!pl->counted++ || a > pl->big_actions) {
			pl->big = j, pl->big_actions = a;
			pl->big_id = w->jobs[j].id, pl->big_iters = k;
		}
	}
	return 0;
}

int cpl_full_plan_make(struct cpl_replay *rp, const struct cpl_profiles *prof,
                       const struct plat_machine *m, const struct js_workload *w,
                       const struct cpl_full_limits *lim, struct cpl_full_plan **out,
                       struct cmn_err *e)
{
	*out = NULL;
	struct cpl_full_plan *pl = calloc(1, sizeof *pl);
	size_t n = w->n ? w->n : 1;
	if (pl) {
		pl->p = calloc(n, sizeof *pl->p);
		pl->of = malloc(n * sizeof *pl->of);
	}
	if (!pl || !pl->p || !pl->of) {
		cpl_full_plan_free(pl);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	pl->prof = prof;
	pl->njobs = w->n;
	pl->nodes = m->nodes;
	pl->elements = m->nodes + m->nlinks;
	for (size_t j = 0; j < w->n; j++)
		pl->of[j] =
		    profile_of(pl, cpl_profiles_of(prof, &w->jobs[j], (int)j), w->jobs[j].size);
	int rc = 0, ring = cpl_replay_ring(rp);
	while (!rc && pl->made < pl->np && !(lim->actions > 0 && pl->actions > lim->actions) &&
	       !(lim->flit && lim->bytes > 0 && pl->bytes > lim->bytes)) {
		rc = make_profile(pl, rp, w, ring, lim->flit, pl->made, e);
		if (!rc)
			rc = count_jobs(pl, w, pl->made++, e);
	}
	if (rc) {
		cpl_full_plan_free(pl);
		return rc;
	}
	if (!lim->flit)
		count_mailboxes(pl);
	*out = pl;
	return 0;
}

void cpl_full_plan_free(struct cpl_full_plan *pl)
{
	if (!pl)
		return;
	for (int i = 0; pl->p && i < pl->np; i++)
		cpl_iterated_free(&pl->p[i].it);
	free(pl->p);
	free(pl->of);
	free(pl->names);
	free(pl);
}

const struct cpl_full_profile *cpl_full_plan_profile(const struct cpl_full_plan *pl, int j)
{
	return &pl->p[pl->of[j]];
}

int cpl_full_plan_profiles(const struct cpl_full_plan *pl)
{
	return pl ? pl->made : 0;
}

/* --- the estimate --- */
struct memory {
	double traces, ranks, mailboxes, jobs, base, total;
};

static struct memory memory_of(const struct cpl_full_plan *pl, const struct cpl_full_limits *lim)
{
	struct memory m;
	m.traces = pl->traces + pl->t3;
	m.ranks = pl->nodes * ((lim->flit ? RANK_BYTES_FLIT : RANK_BYTES_S4U) + pl->in_flight);
	m.mailboxes = pl->mailboxes * MAILBOX_BYTES;
	m.jobs = (double)pl->njobs * JOB_BYTES;
	m.base = BASE_BYTES + pl->elements * PER_ELEMENT_BYTES;
	m.total = m.traces + m.ranks + m.mailboxes + m.jobs + m.base;
	return m;
}

void cpl_full_plan_print(const struct cpl_full_plan *pl, const char *engine,
                         const struct cpl_full_limits *lim, FILE *f)
{
	struct memory m = memory_of(pl, lim);
	char jobs[64];
	if (pl->made < pl->np) /* stopped at the limit */
		snprintf(jobs, sizeof jobs, "the first %zu of %zu jobs", pl->counted, pl->njobs);
	else
		snprintf(jobs, sizeof jobs, "%zu jobs", pl->njobs);
	char bytes[96] = "";
	if (lim->flit)
		snprintf(bytes, sizeof bytes, ", %.4g bytes of messages (max_bytes %g)", pl->bytes,
		         lim->bytes);
	fprintf(f,
	        "full (engine %s): estimate: %s, %.4g iterations, %.4g trace actions to "
	        "replay (max_actions %g)%s; memory peak up to %.0f MB (max_memory %g): "
	        "traces of %d profiles %.1f MB, %d running ranks %.1f MB, %.0f mailboxes "
	        "%.1f MB, job records %.1f MB, engine and platform %.1f MB\n",
	        engine, jobs, pl->iterations, pl->actions, lim->actions, bytes, m.total / MB,
	        lim->memory_mb, pl->made, m.traces / MB, pl->nodes, m.ranks / MB, pl->mailboxes,
	        m.mailboxes / MB, m.jobs / MB, m.base / MB);
}

/* ", a class of longer iterations (class=W, A, B, C or D)": the classes
 * above cls (none above D: empty). */
static void larger_classes(char cls, char *buf, size_t n)
{
	static const char order[] = "SWABCD";
	const char *at = strchr(order, cls);
	buf[0] = '\0';
	if (!cls || !at || !at[1])
		return;
	size_t len = (size_t)snprintf(buf, n, ", a class of longer iterations (class=");
	for (const char *c = at + 1; *c && len < n; c++)
		len += (size_t)snprintf(buf + len, n - len, "%s%c",
		                        c == at + 1 ? ""
		                        : c[1]      ? ", "
		                                    : " or ",
		                        *c);
	if (len < n)
		snprintf(buf + len, n - len, ")");
}

int cpl_full_plan_check(const struct cpl_full_plan *pl, const struct cpl_full_limits *lim,
                        struct cmn_err *e)
{
	if (lim->actions > 0 && pl->actions > lim->actions) {
		const struct cpl_full_profile *p = &pl->p[pl->of[pl->big]];
		int partial = pl->made < pl->np;
		char cls = cpl_profiles_class(pl->prof), classes[64];
		larger_classes(cls, classes, sizeof classes);
		return cmn_err_set(
		    e, CMN_ESTATE,
		    "full: the workload's replay needs %s%.3g trace actions (%.3g iterations of "
		    "%s%zu jobs; the largest, job %" PRIu64
		    ", %ld iterations of %s.%c.%d: %.3g actions), more than max_actions=%g: "
		    "bound it with fewer or shorter jobs (--first N, --window FROM:TO, "
		    "--runtime-coef C below 1; a synthetic workload's jobs=, mean_run=)%s, or "
		    "raise the limit (full:max_actions=N, 0: none)",
		    partial ? "at least " : "", pl->actions, pl->iterations,
		    partial ? "the first " : "", pl->counted, pl->big_id, pl->big_iters,
		    cpl_profiles_name(pl->prof, p->kernel), cls, p->nranks, pl->big_actions,
		    lim->actions, classes);
	}
	if (lim->flit && lim->bytes > 0 && pl->bytes > lim->bytes) {
		int partial = pl->made < pl->np;
		return cmn_err_set(
		    e, CMN_ESTATE,
		    "full: the workload's replay on the flit engine moves %s%.3g bytes of messages "
		    "(%.3g iterations of %s%zu jobs), more than max_bytes=%g: the flit engine "
		    "carries them %d bytes a flit over every link of their routes (a few million "
		    "flits a second); bound it with fewer or shorter jobs (--first N, --window "
		    "FROM:TO, --runtime-coef C below 1; a synthetic workload's jobs=, mean_run=), "
		    "a smaller class, or raise the limit (full:max_bytes=N, 0: none)",
		    partial ? "at least " : "", pl->bytes, pl->iterations,
		    partial ? "the first " : "", pl->counted, lim->bytes, lim->flit_bytes);
	}
	struct memory m = memory_of(pl, lim);
	if (lim->memory_mb > 0 && m.total > lim->memory_mb * MB)
		return cmn_err_set(
		    e, CMN_ESTATE,
		    "full: the run may need up to %.0f MB (traces of %d profiles %.0f MB, %d "
		    "running ranks %.0f MB, %.0f mailboxes %.0f MB, %zu job records %.0f MB, "
		    "engine "
		    "and platform %.0f MB), more than max_memory=%g: bound it with fewer "
		    "profiles (fewer kernels or job sizes: kernels=.., --first N), a smaller "
		    "class, or raise the limit (full:max_memory=MB, 0: none)",
		    m.total / MB, pl->made, m.traces / MB, pl->nodes, m.ranks / MB, pl->mailboxes,
		    m.mailboxes / MB, pl->njobs, m.jobs / MB, m.base / MB, lim->memory_mb);
	return 0;
}

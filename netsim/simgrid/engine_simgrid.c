/* The SimGrid engine: each job's trace replayed by SMPI's own replay
 * (smpi_replay_run, one instance per job, all at once), so MPI semantics,
 * eager and rendezvous protocols and collective algorithms are SMPI's; the
 * defaults are smpirun's (network/model:SMPI, surf/precision:1e-9), so a
 * trace replays to the time smpirun -replay gives, but for alltoall: SMPI's
 * default picks a Bruck algorithm for small blocks on more than 12 ranks,
 * which corrupts memory when several instances replay at once (a
 * heap-use-after-free in SMPI 3.32's shared replay buffers, found with
 * AddressSanitizer), so the engine sets smpi/alltoall:basic_linear
 * (sg_engine.c). The collectives are then exactly those
 * apptraces/trace_expand.h documents. No live sessions: SMPI 3.32's replay
 * of an instance started mid-simulation fails (seen with MG and LU: "Actor
 * pid=-1 is gone??" in a broadcast, then a deadlock), so workloads inside
 * one simulation run on the s4u engine. */
#include <errno.h>
#include <limits.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../apptraces/trace_values.h"
#include "../../common/cleanup.h"
#include "sg_engine.h"

struct cached_trace {
	const struct trace *t; /* the key only: a live session may free it */
	int nranks;
	int shift;    /* added to wait/test ranks (see files_of) */
	char **files; /* per-rank files SMPI reads (our copies, removed at cleanup) */
};

struct smpi_data {
	char tmpdir[256];
	struct cached_trace **cache; /* entries stay put: evaluations hold pointers */
	int ncache, capcache;
};

struct rank_run {
	char instance[48];
	int rank;
	const char *file;
	double start;   /* absolute simulated time to begin */
	double *finish; /* absolute, set by the actor */
	struct sg_notify *notify;
};

static void rank_main(int argc, char **argv)
{
	(void)argc, (void)argv;
	struct rank_run *rr = sg_actor_self_get_data();
	if (rr->start > simgrid_get_clock())
		sg_actor_sleep_until(rr->start);
	smpi_replay_run(rr->instance, rr->rank, 0.0, rr->file);
	*rr->finish = simgrid_get_clock();
	if (rr->notify)
		net_sg_notify_done(rr->notify);
}

/* Whether rank r's first MPI action comes before any init: SMPI's replay
 * then dies of SIGSEGV (its process is not set up), where the s4u and flit
 * engines, and the time-independent format, take the init as implied. So
 * the copy SMPI reads gets an init first: the rank's own first init (its
 * datatype option kept: a second init is harmless to SMPI, measured) or a
 * plain one, set in *init when given. */
static int needs_init(const struct trace *t, int r, struct trace_action *init)
{
	int mpi = 0;
	for (long k = t->first[r]; k < t->first[r + 1]; k++) {
		enum trace_op op = t->act[k].op;
		if (op == TR_INIT && !mpi)
			return 0;
		mpi |= op != TR_COMPUTE && op != TR_SLEEP && op != TR_LOCATION && op != TR_INIT;
	}
	if (!mpi)
		return 0;
	if (init) {
		*init = (struct trace_action){.op = TR_INIT, .peer = -1};
		for (long k = t->first[r]; k < t->first[r + 1]; k++)
			if (t->act[k].op == TR_INIT) {
				*init = t->act[k];
				break;
			}
	}
	return 1;
}

/* The per-rank files SMPI's replay reads for t when its ranks are actors
 * `shift`+1.. of the evaluation: always copies written by trace_write, never
 * the files t was read from. SMPI parses the text again on its own (counts
 * through std::stoi and strtod, datatype ids, no gzip, no comment after an
 * action, a last line without a newline dropped), so what it reads must be
 * what trace_load validated, in the plain form both read alike. Its counts
 * are C ints: a trace with a count (or a v-list's sum) beyond INT_MAX is
 * refused here, naming the line, instead of aborting the replay.
 * SMPI 3.32's replay also stores a rank's pending requests under (source
 * pid - 1, destination pid - 1, tag) but looks them up under the trace's
 * (source rank, destination rank, tag), so `wait` and `test` find their
 * request only for ranks whose pid is rank + 1: for every job but the first
 * of an evaluation the waits are skipped and the job runs too fast
 * (measured: cg.S.4 as the second of two jobs on separate nodes, 0.0107 s
 * instead of 0.0232 s). The copies of a job whose first actor is pid
 * shift + 1 therefore name pids - 1 in wait and test (checked against the
 * pids SimGrid gives). Each (trace, shift) is written once. */
static struct cached_trace *files_of(struct smpi_data *s, const struct trace *t, int shift,
                                     struct cmn_err *e)
{
	for (int i = 0; i < s->ncache; i++)
		if (s->cache[i]->t == t && s->cache[i]->shift == shift)
			return s->cache[i];
	if (trace_check_counts(t, INT_MAX,
	                       "SMPI's replay (engine simgrid) takes counts as C ints: replay "
	                       "the trace with --engine s4u or flit",
	                       e))
		return NULL;
	if (s->ncache == s->capcache) {
		int cap = s->capcache ? 2 * s->capcache : 8;
		struct cached_trace **c = realloc(s->cache, (size_t)cap * sizeof *c);
		if (!c)
			return cmn_err_set(e, CMN_ENOMEM, "out of memory"), NULL;
		s->cache = c;
		s->capcache = cap;
	}
	struct cached_trace *c = calloc(1, sizeof *c);
	if (!c)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory"), NULL;
	s->cache[s->ncache] = c; /* counted below, once complete */
	c->t = t;
	c->nranks = t->nranks;
	c->shift = shift;
	c->files = calloc((size_t)t->nranks, sizeof *c->files);
	if (!c->files) {
		cmn_err_set(e, CMN_ENOMEM, "out of memory");
		goto fail;
	}
	if (!s->tmpdir[0]) {
		cmn_tmp_name(s->tmpdir, sizeof s->tmpdir, "netsim");
		/* a signal removes it with every trace written there (one
		 * registration: one a trace filled the registry's 512 slots
		 * after about 250 traces, and left the later ones behind) */
		if (cmn_cleanup_mkdtemp(s->tmpdir)) {
			s->tmpdir[0] = '\0';
			cmn_err_set(e, CMN_EIO, "cannot create a temporary folder: %s",
			            strerror(errno));
			goto fail;
		}
	}
	char base[32];
	snprintf(base, sizeof base, "t%d", s->ncache);
	struct trace copy = *t; /* the same trace, waits naming pids - 1 */
	long nact = t->first[t->nranks], more = 0;
	for (int r = 0; r < t->nranks; r++)
		more += needs_init(t, r, NULL);
	copy.act = malloc((size_t)(nact + more ? nact + more : 1) * sizeof *copy.act);
	copy.first = malloc(((size_t)t->nranks + 1) * sizeof *copy.first);
	if (!copy.act || !copy.first) {
		free(copy.act), free(copy.first);
		cmn_err_set(e, CMN_ENOMEM, "out of memory");
		goto fail;
	}
	long k = 0;
	for (int r = 0; r <= t->nranks; r++) { /* an init first where one is wanted */
		copy.first[r] = k;
		if (r == t->nranks)
			break;
		struct trace_action init;
		if (needs_init(t, r, &init))
			copy.act[k++] = init;
		long n = t->first[r + 1] - t->first[r];
		memcpy(copy.act + k, t->act + t->first[r], (size_t)n * sizeof *copy.act);
		k += n;
	}
	for (k = 0; k < nact + more; k++)
		if (copy.act[k].op == TR_WAIT || copy.act[k].op == TR_TEST) {
			copy.act[k].peer += shift;
			copy.act[k].aux += shift;
		}
	for (int r = 0; r < t->nranks; r++) {
		size_t n = strlen(s->tmpdir) + 64;
		c->files[r] = malloc(n);
		if (c->files[r])
			snprintf(c->files[r], n, "%s/%s.txt_files/rank-%d.txt", s->tmpdir, base, r);
	}
	int rc = 0;
	for (int r = 0; r < t->nranks; r++)
		if (!c->files[r])
			rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	char p[320];
	if (!rc)
		rc = trace_write(&copy, s->tmpdir, base, e);
	free(copy.act);
	free(copy.first);
	if (rc) { /* what was written goes */
		for (int r = 0; r < t->nranks; r++)
			if (c->files[r])
				remove(c->files[r]);
		snprintf(p, sizeof p, "%s/%s.txt_files", s->tmpdir, base);
		remove(p);
		snprintf(p, sizeof p, "%s/%s.txt", s->tmpdir, base);
		remove(p);
		goto fail;
	}
	s->ncache++;
	return c;
fail:
	for (int r = 0; c->files && r < t->nranks; r++)
		free(c->files[r]);
	free(c->files);
	free(c);
	return NULL;
}

static struct smpi_data *data_of(struct sg_state *s, struct cmn_err *e)
{
	void **d = net_sg_engine_variant_data(s);
	if (!*d && !(*d = calloc(1, sizeof(struct smpi_data))))
		cmn_err_set(e, CMN_ENOMEM, "out of memory");
	return *d;
}

static int smpi_prepare(struct sg_state *s, const struct net_job *job, int first_pid, void **data,
                        struct cmn_err *e)
{
	if (job->repeat) /* SMPI replays the trace's files as they are */
		return cmn_err_set(e, CMN_EUSAGE,
		                   "job %s: the simgrid engine (SMPI's replay) runs whole "
		                   "traces, not repeated ranges (use s4u or flit)",
		                   job->name);
	struct smpi_data *d = data_of(s, e);
	if (!d)
		return e->code;
	struct cached_trace *c = files_of(d, job->trace, first_pid - 1, e);
	if (!c)
		return e->code;
	*data = c;
	return 0;
}

/* In the child: the job's SMPI instance and one actor per rank. */
static void smpi_start(struct sg_state *s, const struct net_job *job, int j, void *data, double t0,
                       double *finish, struct sg_notify *notify)
{
	const struct cached_trace *c = data;
	const struct trace *t = job->trace;
	struct rank_run *runs = calloc((size_t)t->nranks, sizeof *runs);
	if (!runs)
		_exit(3);
	char instance[48];
	snprintf(instance, sizeof instance, "e%ld-j%d", net_sg_engine_evaluation(s), j);
	SMPI_app_instance_register(instance, NULL, t->nranks);
	for (int r = 0; r < t->nranks; r++) {
		struct rank_run *rr = &runs[r];
		snprintf(rr->instance, sizeof rr->instance, "%s", instance);
		rr->rank = r;
		rr->file = c->files[r];
		rr->start = t0 + job->start;
		rr->finish = &finish[r];
		rr->notify = notify;
		char name[64];
		snprintf(name, sizeof name, "%s-%d", instance, r);
		sg_actor_t a = sg_actor_init(name, net_sg_engine_host(s, job->nodes[r]));
		if (sg_actor_get_pid(a) != c->shift + 1 + r) /* the ids files_of() assumed */
			_exit(5);
		sg_actor_set_data(a, rr);
		if (notify)
			net_sg_notify_actor(notify, r, a);
		sg_actor_start_(a, rank_main, 0, NULL);
	}
}

static void smpi_cleanup(struct sg_state *s)
{
	struct smpi_data *d = *net_sg_engine_variant_data(s);
	if (!d)
		return;
	for (int i = 0; i < d->ncache; i++) {
		for (int r = 0; r < d->cache[i]->nranks; r++) {
			if (d->cache[i]->files[r])
				remove(d->cache[i]->files[r]);
			free(d->cache[i]->files[r]);
		}
		char p[320];
		snprintf(p, sizeof p, "%s/t%d.txt_files", d->tmpdir, i);
		remove(p);
		snprintf(p, sizeof p, "%s/t%d.txt", d->tmpdir, i);
		remove(p);
		free(d->cache[i]->files);
		free(d->cache[i]);
	}
	if (d->tmpdir[0])
		cmn_cleanup_remove(d->tmpdir);
	free(d->cache);
	free(d);
}

static const struct sg_variant smpi_variant = {1, smpi_prepare, smpi_start, NULL, smpi_cleanup};

static int smpi_create(const struct net_engine_args *a, void **state, struct cmn_err *e)
{
	return net_sg_engine_create(&smpi_variant, a, state, e);
}

const struct net_engine_ops net_engine_simgrid_ops = {
    .base = {"simgrid", "flow-level: SMPI's replay of each trace on a SimGrid platform",
             net_no_params},
    .create = smpi_create,
    .evaluate = net_sg_engine_evaluate,
    .evaluate_many = net_sg_engine_evaluate_many,
    .links = net_sg_engine_links,
    .destroy = net_sg_engine_destroy,
};

/* The flit-level engine as a network engine (netsim.h): each evaluation
 * replays the jobs' traces on a fresh flit network of the machine
 * (flit_replay.h). Parameters are the flit network's and the replay's
 * (net_flit_param_defs, presets included); the clock is set by the flit width
 * and the bandwidth of the node links: one flit per cycle is that
 * bandwidth. Link loads are the flits each link carried. Live sessions
 * (jobs that start and end inside one simulation) run on a fresh network
 * each. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/cleanup.h"
#include "flit_preset.h"
#include "flit_replay.h"

struct flit_engine {
	const struct plat_machine *m;
	struct flit_params p;
	struct flit_replay_opts o;
	long *flits;
	struct net_link_result *links;
	int64_t cycles; /* of the last evaluation */
	char spec[1024];
};

static void flit_destroy(void *state)
{
	struct flit_engine *f = state;
	if (!f)
		return;
	free(f->flits);
	free(f->links);
	free(f);
}

static int flit_create(const struct net_engine_args *a, void **state, struct cmn_err *e)
{
	const struct plat_machine *m = a->machine;
	if (plat_own_model_check(m, "the flit engine", 1, e))
		return e->code;
	if (a->cfg && a->cfg[0])
		return cmn_err_set(e, CMN_EUSAGE,
		                   "the flit engine takes no --cfg ('%s'): give its parameters "
		                   "as --engine flit:KEY=VALUE,..",
		                   a->cfg[0]);
	struct flit_engine *f = calloc(1, sizeof *f);
	if (!f)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	f->m = m;
	struct cmn_params cp;
	if (net_flit_params_parse(a->params, NULL, m, &cp, &f->p, e)) {
		cmn_err_prefix(e, "engine 'flit:%s'", a->params ? a->params : "");
		flit_destroy(f);
		return e->code;
	}
	cmn_params_format("flit", &cp, f->spec, sizeof f->spec);
	f->o = (struct flit_replay_opts){net_flit_cycle_s(m, f->p.flit_bytes),
	                                 f->p.flit_bytes,
	                                 f->p.packet_flits,
	                                 f->p.compute_zero,
	                                 a->alltoall_ring,
	                                 m->speed_flops};
	f->flits = calloc((size_t)m->nlinks + 1, sizeof *f->flits);
	f->links = calloc((size_t)m->nlinks + 1, sizeof *f->links);
	if (!f->flits || !f->links) {
		flit_destroy(f);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	if (!(f->o.cycle_s > 0)) {
		flit_destroy(f);
		return cmn_err_set(e, CMN_EUSAGE, "flit engine: %s has no node links", m->spec);
	}
	size_t len = strlen(f->spec); /* times are whole cycles of this length */
	snprintf(f->spec + len, sizeof f->spec - len, " (one cycle = %.6g s)", f->o.cycle_s);
	*state = f;
	return 0;
}

static int flit_evaluate(void *state, const struct net_job *jobs, int n, double until,
                         struct net_job_result *results, struct cmn_err *e)
{
	struct flit_engine *f = state;
	return net_flit_replay_run(f->m, &f->p, &f->o, jobs, n, until, results, f->flits,
	                           &f->cycles, e);
}

/* One evaluation of evaluate_many's, with its own link loads. */
struct eval_task {
	const struct flit_engine *f;
	const struct net_job *jobs;
	int n;
	double until;
	struct net_job_result *results;
	long *flits;
	int64_t cycles;
	int rc;
	struct cmn_err e;
};

static void *eval_task_run(void *arg)
{
	struct eval_task *t = arg;
	t->rc = net_flit_replay_run(t->f->m, &t->f->p, &t->f->o, t->jobs, t->n, t->until,
	                            t->results, t->flits, &t->cycles, &t->e);
	return NULL;
}

/* Independent evaluations two at a time, on the calling thread and one
 * more (each replay is deterministic and alone on its network, so the
 * results are those of one after another); one at a time when each
 * replay already takes two threads (threads=2) or a thread cannot start.
 * The first failure in the evaluations' order is reported; the link loads
 * are the last evaluation's. */
static int flit_evaluate_many(void *state, int count, const struct net_job *const *jobs,
                              const int *n, double until, struct net_job_result *const *results,
                              struct cmn_err *e)
{
	struct flit_engine *f = state;
	size_t nl = (size_t)f->m->nlinks + 1;
	struct eval_task t[2];
	long *flits2 = f->p.threads > 1 || count < 2 ? NULL : calloc(nl, sizeof *flits2);
	int rc = 0;
	for (int i = 0; !rc && i < count;) {
		int pair = flits2 && i + 1 < count, started = 0;
		for (int w = 0; w < 1 + pair; w++)
			t[w] = (struct eval_task){
			    f, jobs[i + w], n[i + w], until, results[i + w], w ? flits2 : f->flits,
			    0, 0,           {0}};
		pthread_t th;
		if (pair && cmn_cleanup_thread(&th, eval_task_run, &t[1]) == 0)
			started = 1;
		eval_task_run(&t[0]);
		if (started)
			pthread_join(th, NULL);
		else if (pair)
			eval_task_run(&t[1]);
		for (int w = 0; w < 1 + pair && !rc; w++)
			if ((rc = t[w].rc))
				*e = t[w].e;
		f->cycles = t[pair].cycles;
		if (pair && !rc) /* the last evaluation's link loads */
			memcpy(f->flits, flits2, nl * sizeof *flits2);
		i += 1 + pair;
	}
	free(flits2);
	return rc;
}

static const char *flit_spec(void *state)
{
	return ((struct flit_engine *)state)->spec;
}

static int flit_links(void *state, const struct net_link_result **out, int *n, struct cmn_err *e)
{
	(void)e;
	struct flit_engine *f = state;
	const struct plat_machine *m = f->m;
	for (int l = 0; l < m->nlinks; l++) {
		struct net_link_result *r = &f->links[l];
		snprintf(r->name, sizeof r->name, "%d-%d", m->links[l].src, m->links[l].dst);
		r->bandwidth = f->p.flit_bytes / f->o.cycle_s;
		r->bytes = (double)f->flits[l] * f->p.flit_bytes;
		r->busy_s = (double)f->flits[l] * f->o.cycle_s;
	}
	*out = f->links;
	*n = m->nlinks;
	return 0;
}

/* A live session on a fresh network (net_flit_replay_live); any number per
 * engine, in the calling process. */
static int flit_live(void *state, int (*body)(void *ctx, struct net_live *lv, struct cmn_err *e),
                     void *ctx, struct cmn_err *e)
{
	struct flit_engine *f = state;
	return net_flit_replay_live(f->m, &f->p, &f->o, body, ctx, e);
}

static const char *const flit_samples[] = {
    "flit", "flit:vcs=2,buf=16,switching=vct,alloc=islip",
    "flit:routing=adaptive,links=platform,crossbar=vc,hold=packet", NULL};

const struct net_engine_ops net_engine_flit_ops = {
    .base = {"flit",
             "flit-level: our own cycle-driven network of virtual-channel routers "
             "(parameters: netsim --help)",
             net_flit_param_defs, flit_samples},
    .create = flit_create,
    .evaluate = flit_evaluate,
    .evaluate_many = flit_evaluate_many,
    .spec = flit_spec,
    .links = flit_links,
    .destroy = flit_destroy,
    .live = flit_live,
};

/* Live sessions of the SimGrid engines (netsim.h): one simulation in the
 * calling process on the loaded platform, driven by a controller actor that
 * runs the caller's body. Jobs are started with the variant's own start()
 * (their ranks' actors, as in an evaluation); a job's last rank to end
 * records the job as ended and releases a semaphore the controller waits
 * on (with a timeout for the caller's next event), so the controller wakes
 * at the very simulated time a job ends, with no message delay. What a job
 * holds is freed once its end is reported, and its ranks' names (their
 * mailboxes, which SimGrid keeps to the end) are those of a slot, the
 * lowest one no running job has: so the session holds what its running
 * jobs need, however many jobs have run. */
#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/semaphore.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/live.h"
#include "sg_engine.h"

struct sg_notify {
	struct sg_live *lv;
	int job;
};

struct live_job {
	struct net_job job;
	int *nodes; /* copy */
	void *data; /* the variant's */
	double *finish;
	sg_actor_t *actors;
	int remaining, over; /* ranks still running; over: ended or killed */
	int slot;            /* its number in the names of its actors and mailboxes */
	double end;
	struct sg_notify notify;
};

struct sg_live {
	struct net_live base; /* first: the session's operations */
	struct sg_state *s;
	sg_sem_t sem;
	struct live_job **jobs; /* entries stay put: actors hold their notify;
	                           NULL once the job's end was reported */
	int njobs, capjobs;
	char *slot_used; /* by slot: a running job has it */
	int nslots;
	int *done; /* handles that ended and were not reported yet */
	int ndone, capdone;
	long next_pid; /* of the next actor SimGrid creates */
	int failed;    /* out of memory inside an actor */
	int (*body)(void *ctx, struct net_live *lv, struct cmn_err *e);
	void *ctx;
	struct cmn_err *e;
	int rc;
};

static struct sg_live *sg_of(struct net_live *lv)
{
	return (struct sg_live *)lv;
}

void net_sg_notify_actor(struct sg_notify *n, int rank, sg_actor_t a)
{
	n->lv->jobs[n->job]->actors[rank] = a;
}

void net_sg_notify_done(struct sg_notify *n)
{
	struct sg_live *lv = n->lv;
	struct live_job *j = lv->jobs[n->job];
	if (--j->remaining > 0 || j->over)
		return;
	j->over = 1;
	j->end = simgrid_get_clock();
	if (lv->ndone == lv->capdone) {
		int cap = lv->capdone ? 2 * lv->capdone : 16;
		int *d = realloc(lv->done, (size_t)cap * sizeof *d);
		if (!d) { /* inside an actor: the controller reports it */
			lv->failed = 1;
			sg_sem_release(lv->sem);
			return;
		}
		lv->done = d;
		lv->capdone = cap;
	}
	lv->done[lv->ndone++] = n->job;
	sg_sem_release(lv->sem);
}

static double sg_live_now(const struct net_live *lv)
{
	(void)lv;
	return simgrid_get_clock();
}

/* The lowest slot no running job has (-1: out of memory). */
static int free_slot(struct sg_live *lv)
{
	for (int i = 0; i < lv->nslots; i++)
		if (!lv->slot_used[i])
			return i;
	int cap = lv->nslots ? 2 * lv->nslots : 64;
	char *u = realloc(lv->slot_used, (size_t)cap);
	if (!u)
		return -1;
	memset(u + lv->nslots, 0, (size_t)(cap - lv->nslots));
	lv->slot_used = u;
	int i = lv->nslots;
	lv->nslots = cap;
	return i;
}

/* Job h's end was reported: what it held goes (its ranks have all ended:
 * none reads its context again). */
static void release_job(struct sg_live *lv, int h)
{
	struct live_job *j = lv->jobs[h];
	const struct sg_variant *v = net_sg_engine_variant(lv->s);
	if (v->release)
		v->release(&j->job, j->data);
	lv->slot_used[j->slot] = 0;
	free(j->nodes), free(j->finish), free(j->actors), free(j);
	lv->jobs[h] = NULL;
}

static int sg_live_start(struct net_live *base, const struct net_job *job, struct cmn_err *e)
{
	struct sg_live *lv = sg_of(base);
	int n = job->trace->nranks;
	if (job->trace->fragment >= 0)
		return cmn_err_set(e, CMN_EUSAGE, "job %s: one rank's file, not a whole trace",
		                   job->name),
		       -1;
	if (lv->njobs == lv->capjobs) {
		int cap = lv->capjobs ? 2 * lv->capjobs : 64;
		struct live_job **p = realloc(lv->jobs, (size_t)cap * sizeof *p);
		if (!p)
			return cmn_err_set(e, CMN_ENOMEM, "out of memory"), -1;
		lv->jobs = p;
		lv->capjobs = cap;
	}
	struct live_job *j = calloc(1, sizeof *j);
	if (j) {
		j->nodes = malloc((size_t)n * sizeof *j->nodes);
		j->finish = malloc((size_t)n * sizeof *j->finish);
		j->actors = calloc((size_t)n, sizeof *j->actors);
	}
	if (!j || !j->nodes || !j->finish || !j->actors) {
		if (j)
			free(j->nodes), free(j->finish), free(j->actors);
		free(j);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory"), -1;
	}
	for (int r = 0; r < n; r++) {
		j->finish[r] = -1;
		j->nodes[r] = job->nodes[r];
		if (j->nodes[r] < 0 || j->nodes[r] >= net_sg_engine_nodes(lv->s)) {
			free(j->nodes), free(j->finish), free(j->actors), free(j);
			return cmn_err_set(e, CMN_EUSAGE, "job %s: rank %d on node %d, not a node",
			                   job->name, r, job->nodes[r]),
			       -1;
		}
	}
	j->job = *job;
	j->job.nodes = j->nodes;
	j->job.start = 0;
	j->remaining = n;
	int h = lv->njobs;
	j->notify = (struct sg_notify){lv, h};
	j->slot = free_slot(lv);
	const struct sg_variant *v = net_sg_engine_variant(lv->s);
	if (j->slot < 0 ||
	    (v->prepare && v->prepare(lv->s, &j->job, (int)lv->next_pid, &j->data, e))) {
		if (j->slot < 0)
			cmn_err_set(e, CMN_ENOMEM, "out of memory");
		free(j->nodes), free(j->finish), free(j->actors), free(j);
		return -1;
	}
	lv->slot_used[j->slot] = 1;
	lv->jobs[lv->njobs++] = j;
	v->start(lv->s, &j->job, j->slot, j->data, simgrid_get_clock(), j->finish, &j->notify);
	lv->next_pid += n;
	return h;
}

static int sg_live_wait(struct net_live *base, double t, double *t_out, int *ended, int max)
{
	struct sg_live *lv = sg_of(base);
	for (;;) {
		if (lv->failed)
			return -1;
		if (lv->ndone) { /* the earliest end among those not reported */
			double first = INFINITY;
			for (int i = 0; i < lv->ndone; i++)
				if (lv->jobs[lv->done[i]]->end < first)
					first = lv->jobs[lv->done[i]]->end;
			int n = 0;
			for (int i = 0; i < lv->ndone;) {
				if (lv->jobs[lv->done[i]]->end == first && n < max) {
					ended[n++] = lv->done[i];
					release_job(lv, lv->done[i]);
					lv->done[i] = lv->done[--lv->ndone];
				} else {
					i++;
				}
			}
			*t_out = first < t ? first : t;
			return n;
		}
		double now = simgrid_get_clock();
		if (t <= now) {
			*t_out = t;
			return 0;
		}
		if (isinf(t))
			sg_sem_acquire(lv->sem);
		else if (sg_sem_acquire_timeout(lv->sem, t - now) && !lv->ndone) {
			*t_out = t;
			return 0;
		}
	}
}

/* What body left running when it returned (an error) stops with it: every
 * remaining actor killed at once (SimGrid 3.32 raises link failures in the
 * peers of an actor killed alone, which is why jobs cannot be stopped one by
 * one while the simulation goes on). */
static void controller(int argc, char **argv)
{
	(void)argc, (void)argv;
	struct sg_live *lv = sg_actor_self_get_data();
	lv->rc = lv->body(lv->ctx, &lv->base, lv->e);
	int left = 0;
	for (int h = 0; h < lv->njobs; h++)
		left |= lv->jobs[h] && !lv->jobs[h]->over;
	if (left)
		sg_actor_kill_all();
}

int net_sg_engine_live(void *state, int (*body)(void *ctx, struct net_live *lv, struct cmn_err *e),
                       void *ctx, struct cmn_err *e)
{
	static const struct net_live_ops ops = {sg_live_start, sg_live_wait, sg_live_now};
	struct sg_live *lv = calloc(1, sizeof *lv);
	if (!lv)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	lv->base.ops = &ops;
	lv->s = state;
	net_sg_engine_set_lived(lv->s);
	lv->sem = sg_sem_init(0);
	lv->body = body;
	lv->ctx = ctx;
	lv->e = e;
	sg_actor_t c = sg_actor_init("controller", net_sg_engine_host(lv->s, 0));
	lv->next_pid = sg_actor_get_pid(c) + 1;
	sg_actor_set_data(c, lv);
	sg_actor_start_(c, controller, 0, NULL);
	simgrid_run();
	int rc = lv->rc;
	for (int h = 0; h < lv->njobs; h++)
		if (lv->jobs[h])
			release_job(lv, h);
	free(lv->jobs);
	free(lv->done);
	free(lv->slot_used);
	sg_sem_destroy(lv->sem);
	free(lv);
	return rc;
}

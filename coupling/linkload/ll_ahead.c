/* The linkload model's profiles and the workers that compute them ahead
 * (ll_ahead.h): a list of profiles in order, each free, being computed,
 * computed or taken, under one lock. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/cleanup.h"
#include "ll_ahead.h"

double cpl_ll_ahead_bytes(const struct cpl_traffic *t)
{
	double n = t->nranks, nnz = (double)t->row[t->nranks];
	return n * sizeof(double) * (t->all_row ? 4 : 1) + (n + 1) * sizeof(long) +
	       nnz * (sizeof(int) + sizeof(double));
}

/* The time of traffic t alone on nodes 0..n-1. */
static int reference_time(const struct plat_machine *m, struct cpl_linkload *ll,
                          const struct cpl_traffic *t, double *t_ref, struct cmn_err *e)
{
	int n = t->nranks, *ref = malloc((size_t)(n ? n : 1) * sizeof *ref);
	if (!ref)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int r = 0; r < n; r++)
		ref[r] = r;
	struct cpl_job_load alone = {n, ref, t};
	struct cpl_job_flows *f;
	int rc = cpl_flows_build(m, &alone, &f, e);
	if (!rc) {
		rc = cpl_linkload_run(ll, &f, 1, t_ref, e);
		cpl_flows_free(f);
	}
	free(ref);
	return rc;
}

int cpl_ll_ahead_profile(const struct cpl_profiles *pr, const struct plat_machine *m,
                         struct cpl_linkload *ll, int k, int n, struct cpl_traffic *tr,
                         double *t_ref, struct cmn_err *e)
{
	if (cpl_traffic_profile(pr, k, n, tr, e))
		return e->code;
	if (t_ref && reference_time(m, ll, tr, t_ref, e)) {
		cpl_traffic_free(tr);
		return e->code;
	}
	return 0;
}

enum { FREE, BUSY, DONE, TAKEN };

struct item {
	int kernel, ranks, state;
	struct cpl_traffic tr;
	double t_ref, bytes;
	int rc;
	struct cmn_err *err; /* when rc */
};

struct ll_ahead {
	const struct cpl_profiles *pr;
	const struct plat_machine *m;
	struct item *it; /* in order */
	size_t n, next;  /* items below next are not free */
	size_t *by_key;  /* item indices by (kernel, ranks) */
	double held, budget;
	int stop;
	pthread_mutex_t mu;
	pthread_cond_t wake, done;
	int nthreads;
	pthread_t *th;
};

static int cmp_key(const struct item *x, int k, int n)
{
	if (x->kernel != k)
		return (x->kernel > k) - (x->kernel < k);
	return (x->ranks > n) - (x->ranks < n);
}

/* The item of (k, n), or -1. */
static long find(const struct ll_ahead *a, int k, int n)
{
	size_t lo = 0, hi = a->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_key(&a->it[a->by_key[mid]], k, n) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < a->n && !cmp_key(&a->it[a->by_key[lo]], k, n) ? (long)a->by_key[lo] : -1;
}

static void *work(void *arg)
{
	struct ll_ahead *a = arg;
	struct cpl_linkload *ll = NULL;
	struct cmn_err e;
	int rc0 = cpl_linkload_create(a->m, &ll, &e);
	pthread_mutex_lock(&a->mu);
	while (!a->stop) {
		while (a->next < a->n && a->it[a->next].state != FREE)
			a->next++;
		if (a->next == a->n)
			break;
		if (a->held >= a->budget) {
			pthread_cond_wait(&a->wake, &a->mu);
			continue;
		}
		struct item *x = &a->it[a->next++];
		x->state = BUSY;
		pthread_mutex_unlock(&a->mu);
		struct cpl_traffic tr;
		double t_ref = 0;
		int rc = rc0 ? rc0
		             : cpl_ll_ahead_profile(a->pr, a->m, ll, x->kernel, x->ranks, &tr,
		                                    &t_ref, &e);
		struct cmn_err *err = rc ? malloc(sizeof *err) : NULL;
		if (err)
			*err = e;
		pthread_mutex_lock(&a->mu);
		x->rc = rc;
		x->err = err;
		if (!rc) {
			x->tr = tr;
			x->t_ref = t_ref;
			x->bytes = cpl_ll_ahead_bytes(&tr);
			a->held += x->bytes;
		}
		x->state = DONE;
		pthread_cond_broadcast(&a->done);
	}
	pthread_mutex_unlock(&a->mu);
	cpl_linkload_destroy(ll);
	return NULL;
}

struct key {
	int kernel, ranks;
	size_t i;
};

static int by_key(const void *x, const void *y)
{
	const struct key *a = x, *b = y;
	if (a->kernel != b->kernel)
		return (a->kernel > b->kernel) - (a->kernel < b->kernel);
	if (a->ranks != b->ranks)
		return (a->ranks > b->ranks) - (a->ranks < b->ranks);
	return (a->i > b->i) - (a->i < b->i);
}

/* The list: the profiles in order, each once; 0 or -1 out of memory. */
static int list(struct ll_ahead *a, const int *kernel, const int *ranks, size_t n)
{
	struct key *k = malloc((n ? n : 1) * sizeof *k);
	char *first = calloc(n ? n : 1, 1);
	a->it = calloc(n ? n : 1, sizeof *a->it);
	a->by_key = malloc((n ? n : 1) * sizeof *a->by_key);
	if (!k || !first || !a->it || !a->by_key) {
		free(k), free(first);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		k[i] = (struct key){kernel[i], ranks[i], i};
	qsort(k, n, sizeof *k, by_key);
	for (size_t i = 0; i < n; i++) /* the first of each key */
		first[k[i].i] =
		    !i || k[i].kernel != k[i - 1].kernel || k[i].ranks != k[i - 1].ranks;
	for (size_t i = 0; i < n; i++)
		if (first[i])
			a->it[a->n++] = (struct item){.kernel = kernel[i], .ranks = ranks[i]};
	size_t m = 0;
	for (size_t i = 0; i < a->n; i++)
		k[m++] = (struct key){a->it[i].kernel, a->it[i].ranks, i};
	qsort(k, m, sizeof *k, by_key);
	for (size_t i = 0; i < m; i++)
		a->by_key[i] = k[i].i;
	free(k), free(first);
	return 0;
}

int cpl_ll_ahead_create(const struct cpl_profiles *pr, const struct plat_machine *m, int workers,
                        const int *kernel, const int *ranks, size_t n, double budget,
                        struct ll_ahead **out, struct cmn_err *e)
{
	struct ll_ahead *a = calloc(1, sizeof *a);
	*out = NULL;
	if (!a)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	a->pr = pr;
	a->m = m;
	a->budget = budget;
	if (list(a, kernel, ranks, n) || !(a->th = calloc((size_t)workers, sizeof *a->th))) {
		free(a->it), free(a->by_key), free(a->th), free(a);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->wake, NULL);
	pthread_cond_init(&a->done, NULL);
	for (; a->nthreads < workers; a->nthreads++)
		if (cmn_cleanup_thread(&a->th[a->nthreads], work, a)) {
			cpl_ll_ahead_destroy(a);
			return cmn_err_set(e, CMN_ENOMEM, "cannot start a thread");
		}
	*out = a;
	return 0;
}

int cpl_ll_ahead_take(struct ll_ahead *a, int k, int n, struct cpl_traffic *tr, double *t_ref,
                      struct cmn_err *e)
{
	long i = find(a, k, n);
	if (i < 0)
		return 0;
	struct item *x = &a->it[i];
	pthread_mutex_lock(&a->mu);
	while (x->state == BUSY)
		pthread_cond_wait(&a->done, &a->mu);
	int rc = 0;
	if (x->state == DONE) {
		rc = x->rc ? -1 : 1;
		if (x->rc && x->err)
			*e = *x->err;
		else if (x->rc)
			cmn_err_set(e, CMN_ENOMEM, "out of memory");
		else
			*tr = x->tr, *t_ref = x->t_ref;
		a->held -= x->bytes;
		pthread_cond_broadcast(&a->wake);
	}
	x->state = TAKEN;
	pthread_mutex_unlock(&a->mu);
	return rc;
}

void cpl_ll_ahead_destroy(struct ll_ahead *a)
{
	if (!a)
		return;
	pthread_mutex_lock(&a->mu);
	a->stop = 1;
	pthread_cond_broadcast(&a->wake);
	pthread_mutex_unlock(&a->mu);
	for (int i = 0; i < a->nthreads; i++)
		pthread_join(a->th[i], NULL);
	for (size_t i = 0; i < a->n; i++) {
		if (a->it[i].state == DONE && !a->it[i].rc)
			cpl_traffic_free(&a->it[i].tr);
		free(a->it[i].err);
	}
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->wake);
	pthread_cond_destroy(&a->done);
	free(a->it), free(a->by_key), free(a->th);
	free(a);
}

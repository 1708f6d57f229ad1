/* The centre allocators' second thread (center_internal.h): started on
 * first use and kept until the allocator is freed. It runs one task at a
 * time: a search's second worker (center_search.c), or half of a table
 * update (center_pairwise.c). Tasks come tens of microseconds apart while
 * jobs are placed, and waking a sleeping thread took about as long (the
 * updates on two threads took twice their time on one), so after a task
 * the thread spins a little on `pending` before it sleeps, and so does
 * the caller waiting for a task's end. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../common/cleanup.h"
#include "center_internal.h"

struct center_pool {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake, idle;
	void (*fn)(void *); /* the task it runs until done */
	void *arg;
	atomic_int
	    pending;  /* a task is handed over and not done (set and cleared under the lock) */
	int sleeping; /* the thread waits on `wake` */
	int quit;
	pid_t pid; /* the process it runs in (a forked child has no such thread) */
};

/* Spins (pause) about SPIN times while `pending` is not `until`. */
enum { SPIN = 4000 };

static void spin(const struct center_pool *p, int until)
{
	for (int i = 0;
	     i < SPIN && atomic_load_explicit(&p->pending, memory_order_acquire) != until; i++) {
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
	}
}

static void *pool_main(void *arg)
{
	struct center_pool *p = arg;
	for (;;) {
		spin(p, 1);
		pthread_mutex_lock(&p->lock);
		while (!atomic_load_explicit(&p->pending, memory_order_relaxed) && !p->quit) {
			p->sleeping = 1;
			pthread_cond_wait(&p->wake, &p->lock);
			p->sleeping = 0;
		}
		if (p->quit) {
			pthread_mutex_unlock(&p->lock);
			return NULL;
		}
		void (*fn)(void *) = p->fn;
		void *a = p->arg;
		pthread_mutex_unlock(&p->lock);
		fn(a);
		pthread_mutex_lock(&p->lock);
		atomic_store_explicit(&p->pending, 0, memory_order_release);
		pthread_cond_signal(&p->idle);
		pthread_mutex_unlock(&p->lock);
	}
}

struct center_pool *js_center_pool_get(struct center *c)
{
	if (c->pool && c->pool->pid != getpid())
		c->pool = NULL; /* inherited by fork: its thread is not here (left as it is) */
	if (c->pool)
		return c->pool;
	struct center_pool *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	pthread_cond_init(&p->idle, NULL);
	p->pid = getpid();
	atomic_init(&p->pending, 0);
	if (cmn_cleanup_thread(&p->thread, pool_main, p)) {
		pthread_cond_destroy(&p->idle);
		pthread_cond_destroy(&p->wake);
		pthread_mutex_destroy(&p->lock);
		free(p);
		return NULL;
	}
	return c->pool = p;
}

void js_center_pool_run(struct center_pool *p, void (*fn)(void *), void *arg)
{
	pthread_mutex_lock(&p->lock);
	p->fn = fn;
	p->arg = arg;
	atomic_store_explicit(&p->pending, 1, memory_order_release);
	if (p->sleeping)
		pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
}

void js_center_pool_wait(struct center_pool *p)
{
	spin(p, 0);
	pthread_mutex_lock(&p->lock);
	while (atomic_load_explicit(&p->pending, memory_order_relaxed))
		pthread_cond_wait(&p->idle, &p->lock);
	pthread_mutex_unlock(&p->lock);
}

void js_center_pool_free(struct center *c)
{
	struct center_pool *p = c->pool;
	if (!p || p->pid != getpid()) /* none, or inherited by fork (no thread here) */
		return;
	pthread_mutex_lock(&p->lock);
	p->quit = 1;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	pthread_cond_destroy(&p->idle);
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->lock);
	free(p);
	c->pool = NULL;
}

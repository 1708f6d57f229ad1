/* How long a cache line takes to go from one core to the other: two
 * threads, one on each of CPUs 0 and 1, hand a counter back and forth
 * (each waits for the other's increment, then increments). On a virtual
 * machine the two vCPUs may share a cache or sit on chiplets of their own,
 * and the flit engine's two threads (threads=2) exchange lines every cycle:
 * flit_threads.sh prints this beside its timings.
 * Usage: core_handoff [ROUNDS]   prints "core handoff: N ns one way" */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct shared {
	_Alignas(128) atomic_long turn;
	long rounds;
};

static void pin(int cpu)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	pthread_setaffinity_np(pthread_self(), sizeof s, &s); /* best effort */
}

static void play(struct shared *s, long first)
{
	for (long i = first; i < s->rounds; i += 2) {
		while (atomic_load_explicit(&s->turn, memory_order_acquire) != i)
			;
		atomic_store_explicit(&s->turn, i + 1, memory_order_release);
	}
}

static void *second(void *arg)
{
	pin(1);
	play(arg, 1);
	return NULL;
}

int main(int argc, char **argv)
{
	struct shared *s = aligned_alloc(128, sizeof *s);
	if (!s)
		return 1;
	atomic_init(&s->turn, 0);
	s->rounds = argc > 1 ? atol(argv[1]) : 1000000;
	if (s->rounds < 2)
		s->rounds = 2;
	pin(0);
	pthread_t t;
	if (pthread_create(&t, NULL, second, s))
		return 1;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	play(s, 0);
	pthread_join(t, NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	double ns = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) /
	            (double)s->rounds;
	printf("core handoff: %.0f ns one way\n", ns);
	free(s);
	return 0;
}

/* Counts the cache lines a program's threads pass to each other, by the
 * code that touches them: a stand-in for ThreadSanitizer's runtime. Code
 * compiled with -fsanitize=thread calls __tsan_read4(addr) and the like
 * before each load and store; linked with this file (before libtsan, whose
 * own functions these take the place of), every access updates a model of
 * the lines' copies (which threads hold one; a write leaves the writer's
 * alone) and counts, at the caller's address, each read of a line another
 * thread wrote since this one last held it and each write to a line
 * another thread holds: what a two-core machine moves between its cores.
 * At exit it writes the sites with the most to $LINE_TRANSFERS_OUT
 * (default line_transfers.txt): "reads writes file offset", offsets for
 * addr2line. line_transfers.sh builds netsim this way and names the sites.
 * A runtime's state is global by nature: this file is a measuring tool,
 * outside the project's code and its rules on mutable state. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { LINE_BITS = 25, SITE_BITS = 16, THREADS = 8 };

struct line {
	uint64_t tag; /* line address + 1, 0: unused */
	uint8_t holders;
	int8_t writer;
};

struct site {
	uintptr_t pc;
	long reads, writes;
};

static struct line *lines;
static struct site *sites;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int self = -1;
static atomic_int nthreads;
static int ready, finished;
static long moved;

static void report(void);

static void count(uintptr_t pc, int write)
{
	size_t h = (size_t)(pc * 0x9E3779B97F4A7C15ull) >> (64 - SITE_BITS);
	while (sites[h].pc && sites[h].pc != pc)
		h = (h + 1) & ((1u << SITE_BITS) - 1);
	sites[h].pc = pc;
	if (write)
		sites[h].writes++;
	else
		sites[h].reads++;
	moved++;
}

static __thread int inside; /* in touch(): its own calls (calloc's memset) not counted */

static void touch_locked(uintptr_t addr, int write, uintptr_t pc);

static void touch(uintptr_t addr, int write, uintptr_t pc)
{
	if (finished || inside)
		return;
	inside = 1;
	touch_locked(addr, write, pc);
	inside = 0;
}

static void touch_locked(uintptr_t addr, int write, uintptr_t pc)
{
	if (self < 0)
		self = atomic_fetch_add(&nthreads, 1);
	if (self >= THREADS)
		return;
	pthread_mutex_lock(&lock);
	if (!ready) {
		lines = calloc((size_t)1 << LINE_BITS, sizeof *lines);
		sites = calloc((size_t)1 << SITE_BITS, sizeof *sites);
		if (!lines || !sites)
			abort();
		ready = 1;
		atexit(report);
	}
	uint64_t tag = (addr >> 6) + 1;
	size_t h = (size_t)(tag * 0x9E3779B97F4A7C15ull) >> (64 - LINE_BITS);
	while (lines[h].tag && lines[h].tag != tag)
		h = (h + 1) & (((size_t)1 << LINE_BITS) - 1);
	struct line *l = &lines[h];
	if (!l->tag)
		*l = (struct line){tag, 0, -1};
	uint8_t me = (uint8_t)(1u << self);
	if (write) {
		if (l->holders & (uint8_t)~me)
			count(pc, 1);
		l->holders = me;
		l->writer = (int8_t)self;
	} else {
		if (!(l->holders & me) && l->writer >= 0 && l->writer != self)
			count(pc, 0);
		l->holders |= me;
	}
	pthread_mutex_unlock(&lock);
}

static int by_count(const void *a, const void *b)
{
	const struct site *x = a, *y = b;
	long s = x->reads + x->writes, t = y->reads + y->writes;
	return s < t ? 1 : s > t ? -1 : 0;
}

static void report(void)
{
	finished = 1;
	size_t n = 0;
	for (size_t i = 0; i < (1u << SITE_BITS); i++)
		if (sites[i].pc)
			sites[n++] = sites[i];
	qsort(sites, n, sizeof *sites, by_count);
	const char *path = getenv("LINE_TRANSFERS_OUT");
	FILE *f = fopen(path ? path : "line_transfers.txt", "w");
	if (!f)
		return;
	fprintf(f, "# %ld lines moved between %d threads\n", moved, atomic_load(&nthreads));
	for (size_t i = 0; i < n && i < 60; i++) {
		Dl_info d;
		if (!dladdr((void *)sites[i].pc, &d) || !d.dli_fname)
			continue;
		/* the return address less one: the call's own line */
		fprintf(f, "%ld %ld %s 0x%lx\n", sites[i].reads, sites[i].writes, d.dli_fname,
		        (unsigned long)(sites[i].pc - 1 - (uintptr_t)d.dli_fbase));
	}
	fclose(f);
}

#define HERE ((uintptr_t)__builtin_return_address(0))
#define SIZED(n)                                                                                   \
	void __tsan_read##n(void *a)                                                               \
	{                                                                                          \
		touch((uintptr_t)a, 0, HERE);                                                      \
	}                                                                                          \
	void __tsan_write##n(void *a)                                                              \
	{                                                                                          \
		touch((uintptr_t)a, 1, HERE);                                                      \
	}                                                                                          \
	void __tsan_unaligned_read##n(void *a)                                                     \
	{                                                                                          \
		touch((uintptr_t)a, 0, HERE);                                                      \
	}                                                                                          \
	void __tsan_unaligned_write##n(void *a)                                                    \
	{                                                                                          \
		touch((uintptr_t)a, 1, HERE);                                                      \
	}
SIZED(1)
SIZED(2)
SIZED(4)
SIZED(8)
SIZED(16)

void __tsan_read_range(void *a, unsigned long n)
{
	for (uintptr_t p = (uintptr_t)a & ~(uintptr_t)63; p < (uintptr_t)a + n; p += 64)
		touch(p, 0, HERE);
}

void __tsan_write_range(void *a, unsigned long n)
{
	for (uintptr_t p = (uintptr_t)a & ~(uintptr_t)63; p < (uintptr_t)a + n; p += 64)
		touch(p, 1, HERE);
}

/* The instrumented code calls the C library's memcpy, memmove and memset
 * as it is (ThreadSanitizer's runtime intercepts them): these take their
 * place in the program, count the lines they read and write at their
 * caller, and copy byte by byte (line_transfers.sh compiles this file so
 * that the loops do not become calls to themselves). */
static void ranges(const void *from, void *to, size_t n, uintptr_t pc)
{
	if (!n)
		return;
	if (from)
		for (uintptr_t p = (uintptr_t)from & ~(uintptr_t)63; p < (uintptr_t)from + n;
		     p += 64)
			touch(p, 0, pc);
	for (uintptr_t p = (uintptr_t)to & ~(uintptr_t)63; p < (uintptr_t)to + n; p += 64)
		touch(p, 1, pc);
}

void *memcpy(void *restrict to, const void *restrict from, size_t n)
{
	ranges(from, to, n, HERE);
	unsigned char *d = to;
	const unsigned char *s = from;
	for (size_t i = 0; i < n; i++)
		d[i] = s[i];
	return to;
}

void *memmove(void *to, const void *from, size_t n)
{
	ranges(from, to, n, HERE);
	unsigned char *d = to;
	const unsigned char *s = from;
	if (d < s)
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
	else
		for (size_t i = n; i > 0; i--)
			d[i - 1] = s[i - 1];
	return to;
}

void *memset(void *to, int c, size_t n)
{
	ranges(NULL, to, n, HERE);
	unsigned char *d = to;
	for (size_t i = 0; i < n; i++)
		d[i] = (unsigned char)c;
	return to;
}

void __tsan_init(void)
{
}
void __tsan_func_entry(void *pc)
{
	(void)pc;
}
void __tsan_func_exit(void)
{
}

/* the atomics the instrumented code calls, done (sequentially consistent)
 * and not counted: the measure is of the data, not of the barriers */
void __tsan_atomic_thread_fence(int mo)
{
	(void)mo;
	atomic_thread_fence(memory_order_seq_cst);
}
void __tsan_atomic_signal_fence(int mo)
{
	(void)mo;
}
#define ATOMICS(bits, T)                                                                           \
	T __tsan_atomic##bits##_load(const volatile T *a, int mo)                                  \
	{                                                                                          \
		(void)mo;                                                                          \
		return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                       \
	}                                                                                          \
	void __tsan_atomic##bits##_store(volatile T *a, T v, int mo)                               \
	{                                                                                          \
		(void)mo;                                                                          \
		__atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                          \
	}                                                                                          \
	T __tsan_atomic##bits##_fetch_add(volatile T *a, T v, int mo)                              \
	{                                                                                          \
		(void)mo;                                                                          \
		return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);                                 \
	}                                                                                          \
	T __tsan_atomic##bits##_fetch_sub(volatile T *a, T v, int mo)                              \
	{                                                                                          \
		(void)mo;                                                                          \
		return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST);                                 \
	}                                                                                          \
	T __tsan_atomic##bits##_fetch_and(volatile T *a, T v, int mo)                              \
	{                                                                                          \
		(void)mo;                                                                          \
		return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST);                                 \
	}                                                                                          \
	T __tsan_atomic##bits##_fetch_or(volatile T *a, T v, int mo)                               \
	{                                                                                          \
		(void)mo;                                                                          \
		return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST);                                  \
	}                                                                                          \
	int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v, int mo,        \
	                                                  int fmo)                                 \
	{                                                                                          \
		(void)mo;                                                                          \
		(void)fmo;                                                                         \
		return __atomic_compare_exchange_n(a, c, v, 0, __ATOMIC_SEQ_CST,                   \
		                                   __ATOMIC_SEQ_CST);                              \
	}
ATOMICS(8, int8_t)
ATOMICS(16, int16_t)
ATOMICS(32, int32_t)
ATOMICS(64, int64_t)

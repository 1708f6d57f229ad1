/* Emitters and the generator entry point. */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "gen.h"
#include "trace_values.h"

const struct cmn_param_def trace_gen_no_params[] = {{NULL}};

static void add(struct gen *g, int r, struct trace_action a, const double *v, int n)
{
	if (g->timed && g->timed[r] != 1 && a.op != TR_INIT && a.op != TR_FINALIZE)
		return;
	a.dt1 = a.dt2 = TR_NO_DT;
	if (!g->b)
		g->sink(g->sink_ctx, r, &a, v, n);
	else if (g->failed)
		return;
	else if (++g->added > g->max_actions)
		g->failed = 2;
	else if (trace_builder_add(g->b, r, &a, v, n))
		g->failed = 1;
}

void trace_gen_timed(struct gen *g, int r, int on)
{
	if (g->timed && g->timed[r] == (on ? 0 : 1))
		g->timed[r]++;
	if (g->mark && !g->b)
		g->mark(g->sink_ctx, r, on);
}

void trace_gen_init(struct gen *g, int r)
{
	add(g, r, (struct trace_action){.op = TR_INIT, .peer = -1}, NULL, 0);
}

void trace_gen_finalize(struct gen *g, int r)
{
	add(g, r, (struct trace_action){.op = TR_FINALIZE, .peer = -1}, NULL, 0);
}

void trace_gen_compute(struct gen *g, int r, double flops)
{
	if (flops * g->flop_scale > 0)
		add(g, r,
		    (struct trace_action){.op = TR_COMPUTE, .peer = -1, .a = flops * g->flop_scale},
		    NULL, 0);
}

static void p2p(struct gen *g, int op, int r, int peer, int tag, double bytes)
{
	add(g, r, (struct trace_action){.op = (uint8_t)op, .peer = peer, .tag = tag, .a = bytes},
	    NULL, 0);
}

void trace_gen_send(struct gen *g, int r, int peer, int tag, double bytes)
{
	p2p(g, TR_SEND, r, peer, tag, bytes);
}

void trace_gen_isend(struct gen *g, int r, int peer, int tag, double bytes)
{
	p2p(g, TR_ISEND, r, peer, tag, bytes);
}

void trace_gen_recv(struct gen *g, int r, int peer, int tag, double bytes)
{
	p2p(g, TR_RECV, r, peer, tag, bytes);
}

void trace_gen_irecv(struct gen *g, int r, int peer, int tag, double bytes)
{
	p2p(g, TR_IRECV, r, peer, tag, bytes);
}

void trace_gen_wait(struct gen *g, int r, int src, int dst, int tag)
{
	add(g, r, (struct trace_action){.op = TR_WAIT, .peer = src, .aux = dst, .tag = tag}, NULL,
	    0);
}

void trace_gen_waitall(struct gen *g, int r)
{
	add(g, r, (struct trace_action){.op = TR_WAITALL, .peer = -1}, NULL, 0);
}

void trace_gen_barrier(struct gen *g, int r)
{
	add(g, r, (struct trace_action){.op = TR_BARRIER, .peer = -1}, NULL, 0);
}

void trace_gen_bcast(struct gen *g, int r, double bytes, int root)
{
	add(g, r, (struct trace_action){.op = TR_BCAST, .peer = root, .a = bytes, .nopt = 1}, NULL,
	    0);
}

void trace_gen_reduce(struct gen *g, int r, double bytes, double flops, int root)
{
	add(g, r,
	    (struct trace_action){
	        .op = TR_REDUCE, .peer = root, .a = bytes, .b = flops * g->flop_scale, .nopt = 1},
	    NULL, 0);
}

void trace_gen_allreduce(struct gen *g, int r, double bytes, double flops)
{
	add(g, r,
	    (struct trace_action){
	        .op = TR_ALLREDUCE, .peer = -1, .a = bytes, .b = flops * g->flop_scale},
	    NULL, 0);
}

void trace_gen_alltoall(struct gen *g, int r, double bytes)
{
	add(g, r, (struct trace_action){.op = TR_ALLTOALL, .peer = -1, .a = bytes, .b = bytes},
	    NULL, 0);
}

void trace_gen_alltoallv(struct gen *g, int r, const double *send, const double *recv)
{
	int n = g->ranks;
	double sb = 0, rb = 0, *v = malloc(2 * (size_t)n * sizeof *v);
	if (!v) {
		g->failed = 1;
		return;
	}
	for (int i = 0; i < n; i++) {
		sb += send[i];
		rb += recv[i];
		v[i] = send[i];
		v[n + i] = recv[i];
	}
	add(g, r, (struct trace_action){.op = TR_ALLTOALLV, .peer = -1, .a = sb, .b = rb}, v,
	    2 * n);
	free(v);
}

int trace_gen_class_index(char cls)
{
	const char *p = strchr("SWABCD", cls);
	return cls && p ? (int)(p - "SWABCD") : -1;
}

int trace_gen_ilog2(int v)
{
	int l = 0;
	while (v >>= 1)
		l++;
	return l;
}

int trace_gen_is_pow2(int v)
{
	return v > 0 && (v & (v - 1)) == 0;
}

/* Checks the arguments and finds the generator of kernel. */
static const struct trace_gen_ops *generator(const char *kernel, char cls, int ranks,
                                             int iterations, struct cmn_err *e)
{
	const struct trace_gen_ops *ops =
	    cmn_registry_find((const void *const *)trace_gen_registry, kernel, "kernel", e);
	if (!ops)
		return NULL;
	if (trace_gen_class_index(cls) < 0)
		cmn_err_set(e, CMN_EUSAGE, "%s: class '%c' is not one of S W A B C D", kernel,
		            cls ? cls : '?');
	else if (ranks < 1 || ranks > 65536)
		cmn_err_set(e, CMN_EUSAGE, "%s: %d ranks: give 1 to 65536", kernel, ranks);
	else if (iterations < 0)
		cmn_err_set(e, CMN_EUSAGE,
		            "%s: %d iterations: give at least 1 (0: the class's own count)", kernel,
		            iterations);
	else if ((long long)iterations * ranks >
	         TRACE_GEN_MAX_ACTIONS) /* an action each, at least */
		cmn_err_set(e, CMN_EUSAGE,
		            "%s: %d iterations of %d ranks: more than %lld actions (%.1f GB): give "
		            "fewer iterations",
		            kernel, iterations, ranks, TRACE_GEN_MAX_ACTIONS,
		            (double)TRACE_GEN_MAX_ACTIONS * 40 / 1e9);
	else
		return ops;
	return NULL;
}

/* The bytes this process may use: physical memory, or less by ulimit -v
 * or -d; 0 when none is known. */
static double usable_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
	double m = pages > 0 && size > 0 ? (double)pages * (double)size : 0;
	int lim[] = {RLIMIT_AS, RLIMIT_DATA};
	for (int i = 0; i < 2; i++) {
		struct rlimit r;
		if (getrlimit(lim[i], &r) == 0 && r.rlim_cur != RLIM_INFINITY &&
		    (m == 0 || (double)r.rlim_cur < m))
			m = (double)r.rlim_cur;
	}
	return m;
}

static int generate(const char *kernel, char cls, int ranks, int iterations, double flop_scale,
                    int one, struct trace **out, int *exact, struct cmn_err *e)
{
	*out = NULL;
	const struct trace_gen_ops *ops = generator(kernel, cls, ranks, iterations, e);
	if (!ops)
		return e->code;
	char name[64];
	snprintf(name, sizeof name, one ? "%s.%c.%d.iteration" : "%s.%c.%d", kernel, cls, ranks);
	struct gen g = {.b = trace_builder_new(ranks, name),
	                .ranks = ranks,
	                .iterations = iterations,
	                .cls = cls,
	                .flop_scale = flop_scale,
	                .timed = one ? calloc((size_t)ranks, 1) : NULL,
	                .max_actions = TRACE_GEN_MAX_ACTIONS,
	                .memory = usable_memory()};
	if (g.memory > 0 && g.memory / TRACE_GEN_PEAK_BYTES < (double)g.max_actions)
		g.max_actions = (long long)(g.memory / TRACE_GEN_PEAK_BYTES);
	if (!g.b || (one && !g.timed)) {
		trace_builder_free(g.b);
		free(g.timed);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	int rc = ops->generate(&g, exact, e);
	char its[48] = "the class's iterations";
	if (iterations > 0)
		snprintf(its, sizeof its, "%d iterations", iterations);
	if (!rc && g.failed == 2 && g.max_actions < TRACE_GEN_MAX_ACTIONS)
		rc = cmn_err_set(e, CMN_EUSAGE,
		                 "%s with %s: more than %lld actions, which would take "
		                 "more than the %.1f GB this process may use while the trace is "
		                 "built (%d bytes an action; physical memory, ulimit -v and -d): "
		                 "give fewer iterations or ranks",
		                 name, its, g.max_actions, g.memory / 1e9, TRACE_GEN_PEAK_BYTES);
	else if (!rc && g.failed == 2)
		rc = cmn_err_set(e, CMN_EUSAGE,
		                 "%s with %s: more than %lld actions (%.1f GB in memory): "
		                 "give fewer iterations or ranks",
		                 name, its, TRACE_GEN_MAX_ACTIONS,
		                 (double)TRACE_GEN_MAX_ACTIONS * 40 / 1e9);
	if (!rc && g.failed)
		rc = cmn_err_set(e, CMN_ENOMEM, "%s: out of memory", name);
	for (int r = 0; !rc && one && r < ranks; r++)
		if (g.timed[r] != 2) /* a generator bug: say so */
			rc = cmn_err_set(
			    e, CMN_ESTATE,
			    "%s: rank %d has no timed iteration (a bug of the generator)", name, r);
	free(g.timed);
	if (rc) {
		trace_builder_free(g.b);
		return rc;
	}
	struct trace *t = trace_builder_finish(g.b, e);
	if (!t) {
		cmn_err_prefix(e, "%s", name);
		return e->code;
	}
	if ((rc = trace_check_limits(t, e))) { /* flop_scale too large, or a bug */
		cmn_err_prefix(e, "generated %s (flop scale %g)", name, flop_scale);
		trace_free(t);
		return rc;
	}
	if ((rc = trace_check(t, e))) { /* a generator bug: say so */
		cmn_err_prefix(e, "generated %s (a bug of the generator)", name);
		trace_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

int trace_generate_stream(const char *kernel, char cls, int ranks, int iterations,
                          double flop_scale, trace_gen_sink_fn sink, trace_gen_mark_fn mark,
                          void *ctx, int *exact, struct cmn_err *e)
{
	const struct trace_gen_ops *ops = generator(kernel, cls, ranks, iterations, e);
	if (!ops)
		return e->code;
	struct gen g = {.sink = sink,
	                .mark = mark,
	                .sink_ctx = ctx,
	                .ranks = ranks,
	                .iterations = iterations,
	                .cls = cls,
	                .flop_scale = flop_scale};
	int rc = ops->generate(&g, exact, e);
	if (!rc && g.failed)
		rc = cmn_err_set(e, CMN_ENOMEM, "%s.%c.%d: out of memory", kernel, cls, ranks);
	return rc;
}

int trace_generate(const char *kernel, char cls, int ranks, int iterations, double flop_scale,
                   struct trace **out, int *exact, struct cmn_err *e)
{
	return generate(kernel, cls, ranks, iterations, flop_scale, 0, out, exact, e);
}

int trace_generate_one(const char *kernel, char cls, int ranks, double flop_scale,
                       struct trace **out, int *exact, struct cmn_err *e)
{
	return generate(kernel, cls, ranks, 2, flop_scale, 1, out, exact, e);
}

int trace_gen_same_iterations(const char *kernel)
{
	const struct trace_gen_ops *ops = (const struct trace_gen_ops *)cmn_registry_find(
	    (const void *const *)trace_gen_registry, kernel, "kernel", NULL);
	return ops && ops->same_iterations;
}

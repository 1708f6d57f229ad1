/* The flit-level network (netsim/flit/flit_net.h): zero-load latency equals the
 * closed form on every family; on random traffic every packet arrives
 * exactly once at its destination, every flit crosses its route's links,
 * and credits and buffers stay consistent; same inputs, same deliveries;
 * jobs on disjoint subtrees do not slow each other; a deadlock is reported
 * by the watchdog, not a hang, and datelines prevent it; bad packets are
 * refused. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../netsim/flit/flit_net.h"
#include "../../netsim/flit/flit_preset.h"
#include "../../netsim/flit/flit_synth.h"
#include "../helpers.h"

struct log {
	struct flit_delivery d[20000];
	int n;
};

static void record(void *ctx, const struct flit_delivery *d)
{
	struct log *l = ctx;
	if (l->n < 20000)
		l->d[l->n] = *d;
	l->n++;
}

static void test_zero_load(void)
{
	static const char *const specs[] = {"flat:nodes=8", "kary-ntree:k=4,n=3", "mesh:dims=8x8",
	                                    "torus:dims=4x4x2", "multicluster:clusters=3,size=4"};
	enum { NC = 6 };
	struct flit_params cases[NC];
	net_flit_params_default(&cases[0]);
	cases[1] = cases[0];
	cases[1].router_delay = 3, cases[1].link_delay = 2;
	cases[2] = cases[1];
	cases[2].cut_through = 1;
	cases[3] = cases[2]; /* INSEE's timing: nodes at their switches, no router delay */
	cases[3].router_delay = 0, cases[3].link_delay = 1, cases[3].node_link_delay = 0;
	cases[4] = cases[0]; /* BookSim's, with an ejection delay besides */
	cases[4].router_delay = 4, cases[4].inject_delay = 1, cases[4].eject_delay = 2;
	cases[5] = cases[4]; /* and its VC allocation a cycle before the switch */
	cases[5].vc_pipeline = cases[5].va_islip = 1, cases[5].alloc = FLIT_ALLOC_ISLIP;
	int lens[3] = {1, 4, 8};
	static struct log lg;
	for (size_t s = 0; s < sizeof specs / sizeof *specs; s++) {
		struct plat_machine *m = th_machine(specs[s]);
		int *route = malloc((size_t)plat_max_route(m) * sizeof *route);
		for (int c = 0; c < NC; c++) {
			struct flit_net *n;
			struct cmn_err e;
			CU_ASSERT_FATAL(net_flit_net_create(m, &cases[c], &n, &e) == 0);
			for (int t = 0; t < 12; t++) {
				int a = (t * 5) % m->nodes, b = (t * 7 + 3) % m->nodes,
				    P = lens[t % 3];
				if (a == b)
					continue;
				lg.n = 0;
				CU_ASSERT_FATAL(net_flit_net_inject(n, a, b, P, t, &e) == 0);
				CU_ASSERT_FATAL(net_flit_net_run(n, -1, record, &lg, &e) == 0);
				int H = plat_route(m, a, b, route);
				const struct flit_params *q = &cases[c];
				long want = q->inject_delay + (long)(H - 1) * q->router_delay +
				            (long)(H - 2) * q->link_delay +
				            2L * q->node_link_delay + P - 1 + q->eject_delay;
				CU_ASSERT_EQUAL(lg.n, 1);
				if (lg.d[0].done - lg.d[0].created != want) {
					CU_FAIL("zero-load latency");
					fprintf(stderr, "%s case %d: %d->%d P %d: %lld, want %ld\n",
					        specs[s], c, a, b, P,
					        (long long)(lg.d[0].done - lg.d[0].created), want);
				}
				CU_ASSERT(net_flit_net_check(n, &e) == 0);
			}
			net_flit_net_destroy(n);
		}
		free(route);
		plat_machine_destroy(m);
	}
}

/* Uniform random packets at some load for `cycles`, then drained. */
static void random_run(const char *spec, const struct flit_params *p, unsigned long seed,
                       double load, int cycles, struct log *lg, long *injected, long *hops_flits,
                       int *checks_ok)
{
	struct plat_machine *m = th_machine(spec);
	struct flit_net *n;
	struct cmn_err e;
	CU_ASSERT_FATAL(net_flit_net_create(m, p, &n, &e) == 0);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, seed);
	int *route = malloc((size_t)plat_max_route(m) * sizeof *route);
	*injected = *hops_flits = 0;
	*checks_ok = 1;
	lg->n = 0;
	for (int t = 0; t < cycles; t++) {
		for (int x = 0; x < m->nodes; x++)
			if (gsl_rng_uniform(rng) < load / 4) { /* 4-flit packets */
				int d = (int)gsl_rng_uniform_int(rng, (unsigned long)m->nodes - 1);
				d += d >= x;
				CU_ASSERT_FATAL(net_flit_net_inject(n, x, d, 4, *injected, &e) ==
				                0);
				*injected += 1;
				*hops_flits += 4L * plat_route(m, x, d, route);
			}
		CU_ASSERT_FATAL(net_flit_net_run(n, net_flit_net_now(n) + 1, record, lg, &e) == 0);
		if (t % 97 == 0)
			*checks_ok &= net_flit_net_check(n, &e) == 0;
	}
	CU_ASSERT_FATAL(net_flit_net_run(n, -1, record, lg, &e) == 0);
	*checks_ok &= net_flit_net_check(n, &e) == 0;
	long crossed = 0;
	const long *carried = net_flit_net_link_flits(n);
	for (int l = 0; l < m->nlinks; l++)
		crossed += carried[l];
	*checks_ok &= crossed == *hops_flits;
	free(route);
	gsl_rng_free(rng);
	net_flit_net_destroy(n);
	plat_machine_destroy(m);
}

static void test_conservation(void)
{
	static struct log a, b;
	static const char *const specs[] = {"mesh:dims=4x4", "kary-ntree:k=2,n=4"};
	/* every switching, allocator, crossbar and hold mode; the last ones with
	 * nodes at their switches and no router delay (zero-delay links) */
	for (int s = 0; s < 2; s++)
		for (int cfg = 0; cfg < 18; cfg++) {
			struct flit_params p;
			net_flit_params_default(&p);
			p.cut_through = cfg % 2;
			p.alloc = (enum flit_alloc)(cfg / 2 % 3);
			p.vc_crossbar = p.hold_packet = cfg / 6 % 2;
			if (cfg >= 12 && cfg < 14)
				p.router_delay = 0, p.node_link_delay = 0,
				p.alloc = FLIT_ALLOC_OUTPUT;
			if (cfg >= 14 && cfg < 16) /* BookSim's router with its VC allocator */
				p.router_delay = 4, p.alloc = FLIT_ALLOC_ISLIP, p.vc_pipeline = 1,
				p.va_islip = 1;
			if (cfg >= 16) /* INSEE's VC kept within a dimension */
				p.router_delay = 0, p.node_link_delay = 0, p.vcs = 2,
				p.alloc = FLIT_ALLOC_OUTPUT, p.vc_pick_dim = 1, p.cut_through = 1;
			long inj, hf, inj2, hf2;
			int ok, ok2;
			random_run(specs[s], &p, 3, 0.3, 2000, &a, &inj, &hf, &ok);
			CU_ASSERT(ok);
			CU_ASSERT_EQUAL(a.n, inj);
			CU_ASSERT_FATAL(a.n <= 20000);
			char *seen = calloc((size_t)inj, 1);
			int good = 1;
			for (int i = 0; i < a.n; i++) {
				good &= a.d[i].id >= 0 && a.d[i].id < inj && !seen[a.d[i].id];
				if (a.d[i].id >= 0 && a.d[i].id < inj)
					seen[a.d[i].id] = 1;
				good &= a.d[i].done > a.d[i].created && a.d[i].flits == 4;
			}
			free(seen);
			CU_ASSERT(good);
			/* again, on two threads where it takes them (no random draws):
			 * the same records, and the invariants hold between cycles with
			 * what crosses between the threads in their mailboxes */
			if (!p.vc_pick_dim)
				p.threads = 2;
			random_run(specs[s], &p, 3, 0.3, 2000, &b, &inj2, &hf2, &ok2);
			CU_ASSERT(ok2);
			CU_ASSERT(a.n == b.n && memcmp(a.d, b.d, (size_t)a.n * sizeof *a.d) == 0);
		}
}

/* Two jobs in two different top subtrees of a 4-ary 3-tree: each alone and
 * both together give every packet the same latency. */
/* links=platform: each link's latency in cycles and its bandwidth as a
 * flit every few cycles; a packet's zero-load latency is then the sum of
 * its links' delays, the switches' delays and (P - 1) times the slowest
 * link's gap; the two clusters' wide-area link is a long slow pipeline. */
static void test_platform_links(void)
{
	static const char *const specs[] = {"mesh:dims=4x4,lat=1e-7",
	                                    "multicluster:clusters=2,size=4"};
	static struct log lg;
	for (int s = 0; s < 2; s++) {
		struct plat_machine *m = th_machine(specs[s]);
		struct flit_params p;
		net_flit_params_default(&p);
		p.platform_links = 1;
		double cyc = net_flit_cycle_s(m, p.flit_bytes), bw = p.flit_bytes / cyc;
		struct flit_net *n;
		struct cmn_err e;
		CU_ASSERT_FATAL(net_flit_net_create(m, &p, &n, &e) == 0);
		int *route = malloc((size_t)plat_max_route(m) * sizeof *route);
		for (int t = 0; t < 6; t++) {
			int a = t % m->nodes, b = (m->nodes - 1 - 2 * t + m->nodes) % m->nodes,
			    P = 1 + t;
			if (a == b)
				continue;
			lg.n = 0;
			CU_ASSERT_FATAL(net_flit_net_inject(n, a, b, P, t, &e) == 0);
			CU_ASSERT_FATAL(net_flit_net_run(n, -1, record, &lg, &e) == 0);
			int H = plat_route(m, a, b, route);
			long want = (long)(H - 1) * p.router_delay, gmax = 1;
			for (int h = 0; h < H; h++) {
				const struct plat_link *k = &m->links[route[h]];
				double d = k->lat_s / cyc, g = bw / k->bw_bps;
				want += d < 1 ? 1 : llround(d);
				long gi = g <= 1 ? 1 : (long)ceil(g - 1e-9);
				gmax = gi > gmax ? gi : gmax;
			}
			want += (P - 1) * gmax;
			CU_ASSERT_EQUAL(lg.d[0].done - lg.d[0].created, want);
			if (s == 1 && (a < 4) != (b < 4))
				CU_ASSERT(want > 10000); /* across the wide-area link */
			CU_ASSERT(net_flit_net_check(n, &e) == 0);
		}
		free(route);
		net_flit_net_destroy(n);
		plat_machine_destroy(m);
	}
}

/* Adaptive up-phase routing on trees: conservation, invariants, minimal
 * paths (the flits crossing links equal the packets' hop counts), and the
 * same zero-load latency as deterministic routing; refused off trees. */
static void test_adaptive(void)
{
	static struct log a;
	struct flit_params p;
	net_flit_params_default(&p);
	p.adaptive = 1;
	static const char *const specs[] = {"kary-ntree:k=4,n=2", "kary-ntree:k=2,n=4"};
	for (int s = 0; s < 2; s++) {
		long inj, hf;
		int ok;
		random_run(specs[s], &p, 5, 0.3, 2000, &a, &inj, &hf, &ok);
		CU_ASSERT(ok);
		CU_ASSERT_EQUAL(a.n, inj);
	}
	/* random up links (BookSim's nca_fattree): minimal routes (every flit
	 * crosses as many links as the deterministic route has), every packet
	 * delivered, the same draws run after run, other timings than d-mod-k */
	static struct log r1, r2, det;
	long inj, hf;
	int ok;
	p.adaptive = 2;
	random_run("kary-ntree:k=4,n=3", &p, 7, 0.5, 2000, &r1, &inj, &hf, &ok);
	CU_ASSERT(ok);
	CU_ASSERT_EQUAL(r1.n, inj);
	random_run("kary-ntree:k=4,n=3", &p, 7, 0.5, 2000, &r2, &inj, &hf, &ok);
	CU_ASSERT(r1.n == r2.n && memcmp(r1.d, r2.d, (size_t)r1.n * sizeof *r1.d) == 0);
	p.adaptive = 0;
	random_run("kary-ntree:k=4,n=3", &p, 7, 0.5, 2000, &det, &inj, &hf, &ok);
	CU_ASSERT(det.n == r1.n && memcmp(det.d, r1.d, (size_t)r1.n * sizeof *r1.d) != 0);
	p.adaptive = 1;
	struct plat_machine *m = th_machine("mesh:dims=4x4");
	struct flit_net *n;
	struct cmn_err e;
	CU_ASSERT_EQUAL(net_flit_net_create(m, &p, &n, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "k-ary n-trees"));
	p.adaptive = 2;
	CU_ASSERT_EQUAL(net_flit_net_create(m, &p, &n, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "routing=random is for k-ary n-trees"));
	plat_machine_destroy(m);
}

/* vc_pick=dimension (INSEE's bubble_oblivious request): on a mesh under
 * load it changes which VCs packets take (other deliveries, all of them,
 * the same run after run); on a tree, which has no dimensions, it is
 * vc_pick=first to the last delivery. */
static void test_vc_pick(void)
{
	static struct log a, b;
	struct flit_params p;
	long inj, hf;
	int ok;
	net_flit_params_default(&p);
	p.vcs = 2;
	random_run("mesh:dims=4x4", &p, 11, 0.4, 2000, &a, &inj, &hf, &ok);
	p.vc_pick_dim = 1;
	random_run("mesh:dims=4x4", &p, 11, 0.4, 2000, &b, &inj, &hf, &ok);
	CU_ASSERT(ok);
	CU_ASSERT_EQUAL(b.n, inj);
	CU_ASSERT(a.n == b.n && memcmp(a.d, b.d, (size_t)a.n * sizeof *a.d) != 0);
	random_run("mesh:dims=4x4", &p, 11, 0.4, 2000, &a, &inj, &hf, &ok);
	CU_ASSERT(a.n == b.n && memcmp(a.d, b.d, (size_t)a.n * sizeof *a.d) == 0);
	random_run("kary-ntree:k=2,n=4", &p, 11, 0.4, 2000, &a, &inj, &hf, &ok);
	p.vc_pick_dim = 0;
	random_run("kary-ntree:k=2,n=4", &p, 11, 0.4, 2000, &b, &inj, &hf, &ok);
	CU_ASSERT(a.n == b.n && memcmp(a.d, b.d, (size_t)a.n * sizeof *a.d) == 0);
}

/* vc_pick=dimension draws afresh at each request, as FSIN does: on a
 * 4-node line a 400-flit packet from node 0 to node 3 holds one of the two
 * VCs of every link on its way; 1-flit packets from node 1 to node 3,
 * entering the dimension at node 1, each get the other VC within a few
 * cycles instead of waiting for the long packet's tail whenever their
 * first draw was its VC. */
static void test_vc_pick_redraw(void)
{
	struct plat_machine *m = th_machine("mesh:dims=4x1");
	struct flit_params p;
	net_flit_params_default(&p);
	p.vcs = 2, p.vc_pick_dim = 1;
	struct flit_net *n;
	struct cmn_err e;
	static struct log l;
	l.n = 0;
	CU_ASSERT_FATAL(net_flit_net_create(m, &p, &n, &e) == 0);
	CU_ASSERT_FATAL(net_flit_net_inject(n, 0, 3, 400, 0, &e) == 0);
	CU_ASSERT_FATAL(net_flit_net_run(n, 10, record, &l, &e) == 0);
	for (int i = 1; i <= 8; i++) {
		CU_ASSERT_FATAL(net_flit_net_inject(n, 1, 3, 1, i, &e) == 0);
		int64_t t0 = net_flit_net_now(n);
		CU_ASSERT_FATAL(net_flit_net_run(n, t0 + 30, record, &l, &e) == 0);
		CU_ASSERT(l.n == i && l.d[i - 1].id == i);
	}
	CU_ASSERT_FATAL(net_flit_net_run(n, -1, record, &l, &e) == 0);
	CU_ASSERT(l.n == 9 && l.d[8].id == 0);
	net_flit_net_destroy(n);
	plat_machine_destroy(m);
}

/* routing=random on a torus (BookSim's dor_next_torus): dimension order,
 * and a packet half a ring away goes either way, drawn as it turns into
 * the dimension. On an 8-ring every node sends to the node 4 away: both
 * directions carry such packets (deterministic routes take the + way
 * only), every route stays minimal (as many link crossings), all arrive,
 * with datelines or partition classes alike. */
static void test_random_torus(void)
{
	struct plat_machine *m = th_machine("torus:dims=8x1");
	struct cmn_err e;
	static struct log lg;
	for (int cfg = 0; cfg < 3; cfg++) {
		struct flit_params p;
		net_flit_params_default(&p);
		p.adaptive = cfg ? 2 : 0, p.dateline = cfg == 2 ? 2 : 1;
		struct flit_net *n;
		CU_ASSERT_FATAL(net_flit_net_create(m, &p, &n, &e) == 0);
		for (int r = 0; r < 10; r++)
			for (int x = 0; x < 8; x++)
				CU_ASSERT_FATAL(
				    net_flit_net_inject(n, x, (x + 4) % 8, 2, 8 * r + x, &e) == 0);
		lg.n = 0;
		CU_ASSERT_EQUAL_FATAL(net_flit_net_run(n, -1, record, &lg, &e), 0);
		CU_ASSERT_EQUAL(lg.n, 80);
		CU_ASSERT_EQUAL(net_flit_net_check(n, &e), 0);
		long way[2] = {0, 0}, all = 0;
		for (int l = 0; l < m->nlinks; l++) {
			const struct plat_link *k = &m->links[l];
			all += net_flit_net_link_flits(n)[l];
			if (k->src < m->nodes || k->dst < m->nodes)
				continue; /* a node's link */
			int a = m->vertices[k->src].index, b = m->vertices[k->dst].index;
			way[b != (a + 1) % 8] += net_flit_net_link_flits(n)[l];
		}
		CU_ASSERT_EQUAL(all, 80L * 2 * 6); /* 4 ring hops and 2 node links each */
		CU_ASSERT(way[0] > 0);
		CU_ASSERT(cfg ? way[1] > 0 : way[1] == 0);
		net_flit_net_destroy(n);
	}
	struct flit_params p;
	net_flit_params_default(&p);
	p.adaptive = 2;
	struct plat_machine *mc =
	    th_machine("multicluster:clusters=2,size=8,cluster=torus;dims=8x1");
	struct flit_net *n;
	CU_ASSERT_EQUAL(net_flit_net_create(mc, &p, &n, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "plain tori"));
	plat_machine_destroy(mc);
	plat_machine_destroy(m);
}

static void test_disjoint_subtrees(void)
{
	struct plat_machine *m = th_machine("kary-ntree:k=4,n=3");
	struct flit_params p;
	net_flit_params_default(&p);
	static struct log one, two, both;
	struct log *out[3] = {&one, &two, &both};
	for (int run = 0; run < 3; run++) {
		struct flit_net *n;
		struct cmn_err e;
		CU_ASSERT_FATAL(net_flit_net_create(m, &p, &n, &e) == 0);
		out[run]->n = 0;
		for (int t = 0; t < 200; t++) {
			for (int j = 0; j < 2; j++) {
				if (run < 2 && j != run)
					continue;
				int base = 16 * j; /* nodes 0-15 and 16-31 */
				int src = base + t % 16, dst = base + (t * 5 + 3) % 16;
				if (src != dst)
					CU_ASSERT_FATAL(net_flit_net_inject(n, src, dst, 4,
					                                    1000 * j + t, &e) == 0);
			}
			CU_ASSERT_FATAL(net_flit_net_run(n, net_flit_net_now(n) + 2, record,
			                                 out[run], &e) == 0);
		}
		CU_ASSERT_FATAL(net_flit_net_run(n, -1, record, out[run], &e) == 0);
		net_flit_net_destroy(n);
	}
	int ok = both.n == one.n + two.n;
	for (int i = 0; ok && i < both.n; i++) {
		const struct log *alone = both.d[i].id < 1000 ? &one : &two;
		int found = 0;
		for (int k = 0; k < alone->n; k++)
			if (alone->d[k].id == both.d[i].id)
				found = alone->d[k].done - alone->d[k].created ==
				        both.d[i].done - both.d[i].created;
		ok = found;
	}
	CU_ASSERT(ok);
	plat_machine_destroy(m);
}

/* `rounds` rounds of a packet of `flits` flits from every router of an
 * 8-router ring (nodes first..first+7 of machine spec) to the one `hop`
 * ahead, run to the end, then the invariants. */
static int ring_in(const char *spec, int first, const struct flit_params *p, int rounds, int hop,
                   int flits, struct log *lg, struct cmn_err *e)
{
	struct plat_machine *m = th_machine(spec);
	struct flit_net *n = NULL;
	int rc = net_flit_net_create(m, p, &n, e);
	for (int r = 0; !rc && r < rounds; r++)
		for (int x = 0; x < 8; x++)
			CU_ASSERT_FATAL(net_flit_net_inject(n, first + x, first + (x + hop) % 8,
			                                    flits, 8 * r + x, e) == 0);
	lg->n = 0;
	if (!rc)
		rc = net_flit_net_run(n, -1, record, lg, e);
	if (!rc)
		rc = net_flit_net_check(n, e);
	net_flit_net_destroy(n);
	plat_machine_destroy(m);
	return rc;
}

static int ring_on(const struct flit_params *p, int rounds, int hop, int flits, struct log *lg,
                   struct cmn_err *e)
{
	return ring_in("torus:dims=8x1", 0, p, rounds, hop, flits, lg, e);
}

/* A ring of 8 routers, wormhole, 2-flit buffers, 16-flit packets, every
 * node sending 3 hops round: the wrap-around channels close a cycle of
 * dependencies. Without datelines (one VC) the watchdog reports the
 * deadlock; with datelines (two VCs) every packet arrives. */
static int ring_run(int vcs, int dateline, struct log *lg, struct cmn_err *e)
{
	struct flit_params p;
	net_flit_params_default(&p);
	p.vcs = vcs, p.buf = 2, p.watchdog = 500, p.dateline = dateline;
	return ring_on(&p, 20, 3, 16, lg, e);
}

/* The same ring under cut-through with one VC: buffers of two 4-flit
 * packets fill up and deadlock without bubbles; with bubble flow control
 * (a ring entered only with room for two packets) all arrive, and a packet
 * of more than half a buffer is refused. */
static int ring_vct(int bubble, struct log *lg, struct cmn_err *e)
{
	struct flit_params p;
	net_flit_params_default(&p);
	p.vcs = 1, p.buf = 8, p.watchdog = 500, p.cut_through = 1, p.dateline = 0,
	p.bubble = bubble > 0, p.bubble_local = bubble == 2;
	int rc = ring_on(&p, 40, 4, 4, lg, e);
	if (!rc) {
		struct plat_machine *m = th_machine("torus:dims=8x1");
		struct flit_net *n;
		CU_ASSERT_FATAL(net_flit_net_create(m, &p, &n, e) == 0);
		rc = net_flit_net_inject(n, 0, 2, 5, 999, e) == CMN_EUSAGE ? 0 : -1;
		net_flit_net_destroy(n);
		plat_machine_destroy(m);
	}
	return rc;
}

static void test_watchdog(void)
{
	static struct log lg;
	struct cmn_err e;
	CU_ASSERT_EQUAL(ring_run(1, 0, &lg, &e), CMN_ESTATE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "no flit moved for 500 cycles"));
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "waiting for link"));
	/* the same ring run a cycle a call (as trace replay and synthetic
	 * traffic run it): the stall is timed across calls */
	{
		struct flit_params p;
		net_flit_params_default(&p);
		p.vcs = 1, p.buf = 2, p.watchdog = 500, p.dateline = 0;
		struct plat_machine *m = th_machine("torus:dims=8x1");
		struct flit_net *n = NULL;
		CU_ASSERT_FATAL(net_flit_net_create(m, &p, &n, &e) == 0);
		for (int r = 0; r < 20; r++)
			for (int x = 0; x < 8; x++)
				CU_ASSERT_FATAL(
				    net_flit_net_inject(n, x, (x + 3) % 8, 16, 8 * r + x, &e) == 0);
		int rc = 0;
		long calls = 0;
		for (; !rc && calls < 100000 && net_flit_net_in_flight(n) > 0; calls++)
			rc = net_flit_net_run(n, net_flit_net_now(n) + 1, record, &lg, &e);
		CU_ASSERT_EQUAL(rc, CMN_ESTATE);
		CU_ASSERT(calls < 2000);
		net_flit_net_destroy(n);
		plat_machine_destroy(m);
	}
	CU_ASSERT_EQUAL(ring_run(2, 1, &lg, &e), 0);
	CU_ASSERT_EQUAL(lg.n, 160);
	CU_ASSERT_EQUAL(ring_run(2, 2, &lg, &e), 0); /* BookSim's partition classes */
	CU_ASSERT_EQUAL(lg.n, 160);
	CU_ASSERT_EQUAL(ring_run(1, 1, &lg, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "need vcs >= 2 (or deadlock=none)"));
	CU_ASSERT_EQUAL(ring_vct(0, &lg, &e), CMN_ESTATE);
	CU_ASSERT_EQUAL(ring_vct(1, &lg, &e), 0);
	CU_ASSERT_EQUAL(lg.n, 320);
	CU_ASSERT_EQUAL(ring_vct(2, &lg, &e), 0); /* the bubble in the router's own queue */
	CU_ASSERT_EQUAL(lg.n, 320);
	/* the same ring as the second cluster of a multi-cluster machine of
	 * tori: its datelines and bubbles are the cluster's rings' */
	static const char mc[] = "multicluster:clusters=2,size=8,cluster=torus;dims=8x1";
	struct flit_params p;
	net_flit_params_default(&p);
	p.vcs = 1, p.buf = 2, p.watchdog = 500, p.dateline = 0;
	CU_ASSERT_EQUAL(ring_in(mc, 8, &p, 20, 3, 16, &lg, &e), CMN_ESTATE);
	p.vcs = 2, p.dateline = 1;
	CU_ASSERT_EQUAL(ring_in(mc, 8, &p, 20, 3, 16, &lg, &e), 0);
	CU_ASSERT_EQUAL(lg.n, 160);
	p.dateline = 2; /* partition classes need the plain torus's coordinates */
	CU_ASSERT_EQUAL(ring_in(mc, 8, &p, 20, 3, 16, &lg, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "deadlock=partition is for plain tori"));
	p.vcs = 1, p.buf = 8, p.cut_through = 1, p.dateline = 0, p.bubble = 1;
	CU_ASSERT_EQUAL(ring_in(mc, 8, &p, 40, 4, 4, &lg, &e), 0);
	CU_ASSERT_EQUAL(lg.n, 320);
	/* across the clusters too: a wide-area hop between two rings */
	p = (struct flit_params){0};
	net_flit_params_default(&p);
	p.vcs = 2, p.buf = 2, p.watchdog = 500;
	struct plat_machine *m = th_machine(mc);
	struct flit_net *n;
	CU_ASSERT_FATAL(net_flit_net_create(m, &p, &n, &e) == 0);
	for (int r = 0; r < 20; r++)
		for (int x = 0; x < 16; x++)
			CU_ASSERT_FATAL(
			    net_flit_net_inject(n, x, (x + 11) % 16, 16, 16 * r + x, &e) == 0);
	lg.n = 0;
	CU_ASSERT_EQUAL(net_flit_net_run(n, -1, record, &lg, &e), 0);
	CU_ASSERT_EQUAL(lg.n, 320);
	CU_ASSERT_EQUAL(net_flit_net_check(n, &e), 0);
	net_flit_net_destroy(n);
	plat_machine_destroy(m);
}

/* bubble_at: on an 8-ring (one VC of two 4-flit packets, INSEE's timing: nodes at their
 * routers, one cycle a hop) packet A (7 -> 1, the + way) waits in router
 * 1's + input VC while packet C (3 -> 1, the - way) holds node 1's
 * ejection; packet X (1 -> 3) entering the ring at router 1 the + way
 * meanwhile finds the VC it enters (router 2's) empty: with bubble_at=next
 * it goes at once (zero-load latency H + P - 1 = 5), with local (FSIN) it
 * needs router 1's own + VC, A's, to have room for two packets, so it
 * waits until A's tail has left it. */
static void bubble_scene(int local, int64_t *a_done, int64_t *x_lat)
{
	struct plat_machine *m = th_machine("torus:dims=8x1");
	struct cmn_params cp;
	struct flit_params p;
	struct cmn_err e;
	CU_ASSERT_FATAL(net_flit_params_parse(local ? "vcs=1,buf=8" : "vcs=1,buf=8,bubble_at=next",
	                                      "insee", m, &cp, &p, &e) == 0);
	CU_ASSERT_FATAL(p.bubble && p.bubble_local == local);
	struct flit_net *n;
	static struct log lg;
	lg.n = 0;
	CU_ASSERT_FATAL(net_flit_net_create(m, &p, &n, &e) == 0);
	CU_ASSERT_FATAL(net_flit_net_inject(n, 3, 1, 4, 'C', &e) == 0);
	CU_ASSERT_FATAL(net_flit_net_run(n, 1, record, &lg, &e) == 0);
	CU_ASSERT_FATAL(net_flit_net_inject(n, 7, 1, 4, 'A', &e) == 0);
	CU_ASSERT_FATAL(net_flit_net_run(n, 3, record, &lg, &e) == 0);
	CU_ASSERT_FATAL(net_flit_net_inject(n, 1, 3, 4, 'X', &e) == 0);
	CU_ASSERT_FATAL(net_flit_net_run(n, -1, record, &lg, &e) == 0);
	CU_ASSERT_FATAL(lg.n == 3);
	for (int i = 0; i < 3; i++) {
		if (lg.d[i].id == 'A')
			*a_done = lg.d[i].done;
		if (lg.d[i].id == 'X')
			*x_lat = lg.d[i].done - lg.d[i].created;
	}
	net_flit_net_destroy(n);
	plat_machine_destroy(m);
}

static void test_bubble_at(void)
{
	int64_t a_next, x_next, a_local, x_local;
	bubble_scene(0, &a_next, &x_next);
	bubble_scene(1, &a_local, &x_local);
	CU_ASSERT_EQUAL(x_next, 5);
	/* A (created at 1: two hops, then four cycles behind C's ejection)
	 * leaves its VC for good as it is delivered; X (created at 3) enters
	 * the ring the cycle after and takes its zero-load 5 cycles from there */
	CU_ASSERT_EQUAL(a_local, 9);
	CU_ASSERT_EQUAL(a_next, a_local);
	CU_ASSERT_EQUAL(3 + x_local, a_local + 1 + 5);
}

static void test_bad_packets(void)
{
	struct plat_machine *m = th_machine("mesh:dims=4x4");
	struct flit_params p;
	net_flit_params_default(&p);
	p.cut_through = 1;
	struct flit_net *n;
	struct cmn_err e;
	CU_ASSERT_FATAL(net_flit_net_create(m, &p, &n, &e) == 0);
	CU_ASSERT_EQUAL(net_flit_net_inject(n, 3, 3, 1, 7, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "packet 7: from node 3 to node 3"));
	CU_ASSERT_EQUAL(net_flit_net_inject(n, 0, 16, 1, 8, &e), CMN_EUSAGE);
	CU_ASSERT_EQUAL(net_flit_net_inject(n, 0, 1, 9, 9, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "cut-through needs room for a whole packet"));
	net_flit_net_destroy(n);
	p.vcs = 0;
	CU_ASSERT_EQUAL(net_flit_net_create(m, &p, &n, &e), CMN_EUSAGE);
	p.vcs = 4, p.va_islip = 1, p.router_delay = 0; /* no cycle before the switch */
	CU_ASSERT_EQUAL(net_flit_net_create(m, &p, &n, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "vc_alloc=islip needs router_delay >= 1"));
	plat_machine_destroy(m);
	/* sizes derived from the machine: a hop index is a short */
	m = th_machine("mesh:dims=32768");
	net_flit_params_default(&p);
	CU_ASSERT_EQUAL(net_flit_net_create(m, &p, &n, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "has routes of up to 32769 links"));
	plat_machine_destroy(m);
	/* the parameter list: every item key=value */
	m = th_machine("mesh:dims=4x4");
	struct cmn_params cp;
	static const char *const bad[][2] = {
	    {"vcs=2,", "parameter 2 is empty"},         {"vcs=2,,buf=4", "parameter 2 is empty"},
	    {"buf=", "parameter buf: empty value"},     {"buf=1e3", "'1e3' is not an integer"},
	    {"buf=4096x", "'4096x' is not an integer"}, {"watchdog=99999999999", "is outside"}};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		CU_ASSERT_EQUAL(net_flit_params_parse(bad[i][0], NULL, m, &cp, &p, &e), CMN_EUSAGE);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, bad[i][1]));
	}
	plat_machine_destroy(m);
}

/* Presets: their zero-load latencies are the reference simulators' closed
 * forms (BookSim 7 + 5H over H router hops on meshes and trees, 2-cycle
 * links on tori; INSEE H + P - 1, and on trees, whose nodes are a link
 * away from their switches, H + 2 + P - 1), explicit keys win over a
 * preset, and unknown or conflicting presets are refused. */
static void test_presets(void)
{
	static const char *const specs[] = {"mesh:dims=8x8", "kary-ntree:k=4,n=3",
	                                    "torus:dims=8x8"};
	static struct log lg;
	struct cmn_err e;
	for (int s = 0; s < 3; s++) {
		struct plat_machine *m = th_machine(specs[s]);
		int *route = malloc((size_t)plat_max_route(m) * sizeof *route);
		for (int ps = 0; ps < 2; ps++) {
			struct cmn_params cp;
			struct flit_params p;
			CU_ASSERT_FATAL(net_flit_params_parse(NULL, ps ? "insee" : "booksim", m,
			                                      &cp, &p, &e) == 0);
			struct flit_net *n;
			CU_ASSERT_FATAL(net_flit_net_create(m, &p, &n, &e) == 0);
			for (int t = 0; t < 10; t++) {
				int a = (t * 11) % m->nodes, b = (t * 29 + 5) % m->nodes;
				int P = ps ? 1 + t % 4 : 1;
				if (a == b)
					continue;
				lg.n = 0;
				CU_ASSERT_FATAL(net_flit_net_inject(n, a, b, P, t, &e) == 0);
				CU_ASSERT_FATAL(net_flit_net_run(n, -1, record, &lg, &e) == 0);
				int H = plat_route(m, a, b, route) - 2; /* router hops */
				long want =
				    ps ? H + (s == 1 ? 2 : 0) + P - 1 : 7L + (s == 2 ? 6 : 5) * H;
				CU_ASSERT_EQUAL(lg.d[0].done - lg.d[0].created, want);
			}
			net_flit_net_destroy(n);
		}
		free(route);
		plat_machine_destroy(m);
	}
	struct plat_machine *m = th_machine("torus:dims=4x4");
	struct cmn_params cp;
	struct flit_params p;
	CU_ASSERT_FATAL(
	    net_flit_params_parse("preset=booksim,vcs=2,link_delay=3", NULL, m, &cp, &p, &e) == 0);
	CU_ASSERT(p.vcs == 2 && p.link_delay == 3 && p.router_delay == 4 && p.buf == 8);
	CU_ASSERT_STRING_EQUAL(cmn_params_str(&cp, "preset"), "booksim");
	CU_ASSERT_FATAL(net_flit_params_parse("vcs=3", "insee", m, &cp, &p, &e) == 0);
	CU_ASSERT(p.vcs == 3 && p.router_delay == 0 && p.cut_through && p.vc_crossbar);
	CU_ASSERT_FATAL(net_flit_params_parse(NULL, NULL, m, &cp, &p, &e) == 0);
	CU_ASSERT(p.router_delay == 1 && p.alloc == FLIT_ALLOC_RR);
	CU_ASSERT_EQUAL(net_flit_params_parse(NULL, "bookism", m, &cp, &p, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "bookism"));
	CU_ASSERT_EQUAL(net_flit_params_parse("preset=insee", "booksim", m, &cp, &p, &e),
	                CMN_EUSAGE);
	CU_ASSERT_EQUAL(net_flit_params_parse("preset=insee,vcs=0", NULL, m, &cp, &p, &e),
	                CMN_EUSAGE);
	CU_ASSERT_EQUAL(net_flit_params_parse("alloc=fast", NULL, m, &cp, &p, &e), CMN_EUSAGE);
	plat_machine_destroy(m);
}

/* pipeline=packet (BookSim's router), one VC so that packets queue in it:
 * two 1-flit packets injected together from a node reach the first switch
 * a cycle apart; the second, behind the first in its VC, leaves R - 1
 * cycles after it (routing and VC allocation once the first is gone), so
 * it is delivered R - 1 cycles later (1 with pipeline=flit); the same with
 * vc_alloc=islip (its VC allocation is the cycle before its switch
 * allocation). A packet alone has the same zero-load latency either way
 * (its body flits stream behind the head). */
static void test_packet_pipeline(void)
{
	struct plat_machine *m = th_machine("mesh:dims=4x1");
	static struct log lg;
	struct cmn_err e;
	for (int pk = 0; pk < 3; pk++) {
		struct flit_params p;
		net_flit_params_default(&p);
		p.vcs = 1, p.router_delay = 4, p.vc_pipeline = pk > 0, p.va_islip = pk == 2;
		struct flit_net *n;
		CU_ASSERT_FATAL(net_flit_net_create(m, &p, &n, &e) == 0);
		lg.n = 0;
		CU_ASSERT_FATAL(net_flit_net_inject(n, 0, 3, 1, 1, &e) == 0);
		CU_ASSERT_FATAL(net_flit_net_inject(n, 0, 3, 1, 2, &e) == 0);
		CU_ASSERT_FATAL(net_flit_net_run(n, -1, record, &lg, &e) == 0);
		CU_ASSERT_EQUAL_FATAL(lg.n, 2);
		CU_ASSERT_EQUAL(lg.d[1].done - lg.d[0].done, pk ? p.router_delay - 1 : 1);
		/* 4 switches, 3 switch links, 2 node links */
		long zero = 4L * p.router_delay + 3 * p.link_delay + 2 * p.node_link_delay;
		CU_ASSERT_EQUAL(lg.d[0].done - lg.d[0].created, zero);
		lg.n = 0;
		CU_ASSERT_FATAL(net_flit_net_inject(n, 0, 3, 4, 3, &e) == 0);
		CU_ASSERT_FATAL(net_flit_net_run(n, -1, record, &lg, &e) == 0);
		CU_ASSERT_EQUAL(lg.d[0].done - lg.d[0].created, zero + 3);
		CU_ASSERT(net_flit_net_check(n, &e) == 0);
		net_flit_net_destroy(n);
	}
	plat_machine_destroy(m);
}

/* Synthetic uniform traffic on an 8x8 mesh: at a low load the mean
 * latency is the zero-load mean S R + (S - 1) L + 2 C with S = H - 1
 * switches, H = 2 + 16/3 links for
 * uniform pairs (mean Manhattan distance 2 (k^2 - 1) / 3k x k^2 / (k^2 - 1)
 * on other nodes), within queueing (3%); below saturation accepted =
 * offered; far beyond it accepted < offered; same seed, same numbers. */
static void test_synthetic(void)
{
	struct plat_machine *m = th_machine("mesh:dims=8x8");
	struct flit_params p;
	net_flit_params_default(&p);
	struct net_traffic t;
	struct cmn_err e;
	CU_ASSERT_FATAL(net_traffic_open("uniform", m, &t, &e) == 0);
	struct flit_synth_opts o;
	net_flit_synth_default(&o);
	o.load = 0.02, o.warmup = 1000, o.sample = 5000, o.max_cycles = 50000;
	struct flit_synth_result r, r2;
	CU_ASSERT_FATAL(net_flit_synth_run(m, &p, &t, &o, &r, &e) == 0);
	double H = 2 + 2.0 * 63 / 24 * 64 / 63, zero = (H - 1) + (H - 2) + 2;
	CU_ASSERT(r.mean_lat >= zero * 0.995 && r.mean_lat < zero * 1.03);
	CU_ASSERT(fabs(r.accepted / o.load - 1) < 0.05);
	CU_ASSERT(r.converged);
	o.load = 0.3;
	CU_ASSERT_FATAL(net_flit_synth_run(m, &p, &t, &o, &r, &e) == 0);
	CU_ASSERT(fabs(r.accepted / o.load - 1) < 0.02 && r.converged);
	CU_ASSERT_FATAL(net_flit_synth_run(m, &p, &t, &o, &r2, &e) == 0);
	CU_ASSERT(r.mean_lat == r2.mean_lat && r.accepted == r2.accepted &&
	          r.p99_lat == r2.p99_lat);
	o.load = 1, o.max_cycles = 20000;
	CU_ASSERT_FATAL(net_flit_synth_run(m, &p, &t, &o, &r, &e) == 0);
	CU_ASSERT(r.accepted < 0.8);
	net_traffic_close(&t);
	plat_machine_destroy(m);
}

/* Every preset and the defaults carry uniform traffic of 1-flit and
 * 4-flit packets at 0.2 flits/node/cycle below saturation (accepted =
 * offered) on a mesh, a torus and a k-ary n-tree: a packet of one flit
 * takes its VC and gives it back in one send, whichever allocation took
 * it (a VC left taken by such a packet stops its link for good: accepted
 * 0 with the booksim preset's VC allocation). */
static void test_presets_carry(void)
{
	static const char *const specs[] = {"mesh:dims=8x8", "torus:dims=8x8",
	                                    "kary-ntree:k=4,n=3"};
	static const char *const presets[] = {"booksim", "insee", NULL};
	struct cmn_err e;
	for (int s = 0; s < 3; s++) {
		struct plat_machine *m = th_machine(specs[s]);
		struct net_traffic t;
		CU_ASSERT_FATAL(net_traffic_open("uniform", m, &t, &e) == 0);
		for (int ps = 0; ps < 3; ps++)
			for (int pk = 1; pk <= 4; pk += 3) {
				struct cmn_params cp;
				struct flit_params p;
				CU_ASSERT_FATAL(
				    net_flit_params_parse(NULL, presets[ps], m, &cp, &p, &e) == 0);
				struct flit_synth_opts o;
				net_flit_synth_default(&o);
				o.load = 0.2, o.packet = pk, o.warmup = 1000, o.sample = 1000;
				o.max_cycles = 3000, o.tolerance = 1;
				struct flit_synth_result r;
				CU_ASSERT_FATAL(net_flit_synth_run(m, &p, &t, &o, &r, &e) == 0);
				if (fabs(r.accepted / o.load - 1) >= 0.05)
					fprintf(stderr,
					        "%s, preset %s, %d-flit packets: accepted %g\n",
					        specs[s], presets[ps] ? presets[ps] : "none", pk,
					        r.accepted);
				CU_ASSERT(fabs(r.accepted / o.load - 1) < 0.05);
			}
		net_traffic_close(&t);
		plat_machine_destroy(m);
	}
}

/* source_queue (INSEE's injection buffer): a node holds at most N packets
 * before the network, counting its queue, its injection port, its link's
 * wire and its switch's buffers of that link; room comes back once its
 * packets have left the switch. Saturated synthetic traffic then keeps a
 * bounded latency (generation waits instead of queueing without end) at
 * about the same accepted throughput (a little less: a source that
 * empties between bursts sends nothing). */
static void test_source_queue(void)
{
	struct plat_machine *m = th_machine("mesh:dims=4x4");
	struct flit_params p;
	net_flit_params_default(&p);
	p.source_queue = 2;
	struct flit_net *n;
	struct cmn_err e;
	CU_ASSERT_FATAL(net_flit_net_create(m, &p, &n, &e) == 0);
	CU_ASSERT(net_flit_net_source_room(n, 0, 4));
	CU_ASSERT_FATAL(net_flit_net_inject(n, 0, 15, 4, 1, &e) == 0);
	CU_ASSERT(net_flit_net_source_room(n, 0, 4));
	CU_ASSERT_FATAL(net_flit_net_inject(n, 0, 15, 4, 2, &e) == 0);
	CU_ASSERT(!net_flit_net_source_room(n, 0, 4));
	CU_ASSERT(net_flit_net_source_room(n, 1, 4)); /* per node */
	CU_ASSERT_FATAL(net_flit_net_run(n, 1, NULL, NULL, &e) == 0);
	CU_ASSERT(!net_flit_net_source_room(n, 0, 4)); /* a head on its link */
	CU_ASSERT_FATAL(net_flit_net_run(n, 3, NULL, NULL, &e) == 0);
	CU_ASSERT(!net_flit_net_source_room(n, 0, 4)); /* flits in its switch */
	CU_ASSERT_FATAL(net_flit_net_run(n, 20, NULL, NULL, &e) == 0);
	CU_ASSERT(net_flit_net_source_room(n, 0, 4));
	net_flit_net_destroy(n);

	struct net_traffic t;
	CU_ASSERT_FATAL(net_traffic_open("uniform", m, &t, &e) == 0);
	struct flit_synth_opts o;
	net_flit_synth_default(&o);
	o.load = 0.9, o.packet = 4, o.warmup = 2000, o.sample = 2000, o.max_cycles = 20000;
	struct flit_synth_result bounded, unbounded;
	p.source_queue = 4;
	CU_ASSERT_FATAL(net_flit_synth_run(m, &p, &t, &o, &bounded, &e) == 0);
	p.source_queue = 0;
	CU_ASSERT_FATAL(net_flit_synth_run(m, &p, &t, &o, &unbounded, &e) == 0);
	CU_ASSERT(bounded.mean_lat < 100 && unbounded.mean_lat > 5 * bounded.mean_lat);
	CU_ASSERT(bounded.accepted < 0.8 && fabs(bounded.accepted / unbounded.accepted - 1) < 0.1);
	net_traffic_close(&t);
	plat_machine_destroy(m);
}

/* B's latency from node 0 to node 3 of a line of four, behind A (0 -> 1)
 * in the same link and in another VC, with or without C and D (2 -> 1 and
 * 3 -> 1) contending for node 1's link, which holds A's flits back. */
static int64_t rr_behind(int crossbar_vc, int contend)
{
	struct plat_machine *m = th_machine("mesh:dims=4");
	struct flit_params p;
	net_flit_params_default(&p);
	p.vc_crossbar = crossbar_vc;
	struct flit_net *n;
	struct cmn_err e;
	static struct log lg;
	lg.n = 0;
	CU_ASSERT_FATAL(net_flit_net_create(m, &p, &n, &e) == 0);
	CU_ASSERT_FATAL(net_flit_net_inject(n, 0, 1, 8, 'A', &e) == 0);
	CU_ASSERT_FATAL(net_flit_net_inject(n, 0, 3, 8, 'B', &e) == 0);
	if (contend) {
		CU_ASSERT_FATAL(net_flit_net_inject(n, 2, 1, 8, 'C', &e) == 0);
		CU_ASSERT_FATAL(net_flit_net_inject(n, 3, 1, 8, 'D', &e) == 0);
	}
	CU_ASSERT_FATAL(net_flit_net_run(n, -1, record, &lg, &e) == 0);
	int64_t lat = -1;
	for (int i = 0; i < lg.n; i++)
		if (lg.d[i].id == 'B')
			lat = lg.d[i].done - lg.d[i].created;
	net_flit_net_destroy(n);
	plat_machine_destroy(m);
	return lat;
}

/* alloc=rr with crossbar=vc: every VC of a port that can go sends in the
 * cycle (a maximal matching), so B passes A, held back at its output in
 * another VC of the same link, as if A were not held; with one crossbar
 * input a port B waits its turns beside A. */
static void test_rr_vc_crossbar(void)
{
	int64_t free_vc = rr_behind(1, 0), held_vc = rr_behind(1, 1);
	int64_t free_port = rr_behind(0, 0), held_port = rr_behind(0, 1);
	CU_ASSERT(free_vc > 0 && free_port > 0);
	CU_ASSERT_EQUAL(held_vc, free_vc);
	CU_ASSERT(held_port > free_port);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("flit network", NULL, NULL);
	CU_add_test(s, "zero-load latency, every family", test_zero_load);
	CU_add_test(s, "conservation, invariants, determinism", test_conservation);
	CU_add_test(s, "disjoint subtrees do not interfere", test_disjoint_subtrees);
	CU_add_test(s, "adaptive and random up-phase routing on trees", test_adaptive);
	CU_add_test(s, "routing=random on tori: ties either way", test_random_torus);
	CU_add_test(s, "vc_pick=dimension: a VC kept within a dimension", test_vc_pick);
	CU_add_test(s, "vc_pick=dimension: drawn afresh at each request", test_vc_pick_redraw);
	CU_add_test(s, "links=platform: latency and bandwidth per link", test_platform_links);
	CU_add_test(s, "a ring deadlock: watchdog, datelines, bubbles", test_watchdog);
	CU_add_test(s, "bubble_at: where a ring entry looks for its bubble", test_bubble_at);
	CU_add_test(s, "bad packets and parameters", test_bad_packets);
	CU_add_test(s, "presets: timing and parsing", test_presets);
	CU_add_test(s, "pipeline=packet: routing and VC allocation per packet",
	            test_packet_pipeline);
	CU_add_test(s, "synthetic traffic: latency and throughput", test_synthetic);
	CU_add_test(s, "every preset carries 1- and 4-flit packets", test_presets_carry);
	CU_add_test(s, "source_queue: a bounded source", test_source_queue);
	CU_add_test(s, "alloc=rr, crossbar=vc: every VC that can go", test_rr_vc_crossbar);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

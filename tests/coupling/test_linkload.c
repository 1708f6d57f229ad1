/* The analytic contention model: hand-computed max-min shares, contention
 * where routes share links and only there, compute-only jobs, and the
 * per-iteration profiles of the generated kernels. (d-mod-k spreads the
 * flows of two stride placements over different links, so the contending
 * job here shares its nodes' links.) */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "../../coupling/linkload/linkload.h"
#include "../../coupling/linkload/traffic.h"
#include "../../coupling/profiles/jobprof.h"
#include "../helpers.h"
#include "cpl_helpers.h"
#include "platform.h"

/* A two-rank job sending `bytes` from rank 0 to rank 1 each iteration. */
struct pair {
	int nodes[2];
	struct cpl_traffic tr;
};

static struct cpl_job_load pair_job(struct pair *p, int a, int b, double bytes, double flops)
{
	double matrix[4] = {0, bytes, 0, 0}, f[2] = {flops, flops};
	struct cmn_err e;
	cpl_traffic_free(&p->tr);
	p->nodes[0] = a;
	p->nodes[1] = b;
	CU_ASSERT_FATAL(cpl_traffic_from_matrix(2, matrix, f, &p->tr, &e) == 0);
	return (struct cpl_job_load){2, p->nodes, &p->tr};
}

static void test_shares(void)
{
	/* flat machine, links of 1000 B/s and no latency: alone 1000 bytes take
	 * 1 s; two flows into one node share its down link: 2 s each */
	struct plat_machine *m = th_machine("flat:nodes=4,bw=1000,lat=0,speed=1e9");
	struct pair p1 = {0}, p2 = {0}, p3 = {0};
	struct cpl_job_load j[2] = {pair_job(&p1, 0, 1, 1000, 0), pair_job(&p2, 2, 3, 1000, 0)};
	double t[2];
	struct cmn_err e;
	CU_ASSERT_FATAL(cpl_linkload_times(m, j, 2, t, &e) == 0);
	CU_ASSERT_DOUBLE_EQUAL(t[0], 1, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(t[1], 1, 1e-9);
	j[1] = pair_job(&p2, 2, 1, 1000, 0);
	CU_ASSERT_FATAL(cpl_linkload_times(m, j, 2, t, &e) == 0);
	CU_ASSERT_DOUBLE_EQUAL(t[0], 2, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(t[1], 2, 1e-9);
	/* max-min, not proportional: a third flow 3 -> 1 takes a third of node
	 * 1's link; compute adds to the slowest rank */
	struct cpl_job_load j3[3] = {pair_job(&p1, 0, 1, 1000, 0), pair_job(&p2, 2, 1, 1000, 0),
	                             pair_job(&p3, 3, 1, 1000, 2e9)};
	double t3[3];
	CU_ASSERT_FATAL(cpl_linkload_times(m, j3, 3, t3, &e) == 0);
	CU_ASSERT_DOUBLE_EQUAL(t3[0], 3, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(t3[2], 2 + 3, 1e-9);
	plat_machine_destroy(m);
	/* latency: two 1 ms links on the route */
	m = th_machine("flat:nodes=2,bw=1000,lat=0.001");
	CU_ASSERT_FATAL(cpl_linkload_times(m, j, 1, t, &e) == 0);
	CU_ASSERT_DOUBLE_EQUAL(t[0], 1.002, 1e-9);
	plat_machine_destroy(m);
	cpl_traffic_free(&p1.tr);
	cpl_traffic_free(&p2.tr);
	cpl_traffic_free(&p3.tr);
}

static void test_tree_contention(void)
{
	/* 4-ary 2-tree: 0 -> 4 and 1 -> 8 leave switch 0 by the same up port
	 * (d-mod-k), 0 -> 4 and 1 -> 5 by different ones */
	struct plat_machine *m = th_machine("kary-ntree:k=4,n=2,bw=1000,lat=0");
	struct pair p1 = {0}, p2 = {0};
	struct cpl_job_load j[2] = {pair_job(&p1, 0, 4, 1000, 0), pair_job(&p2, 1, 8, 1000, 0)};
	double t[2];
	struct cmn_err e;
	CU_ASSERT_FATAL(cpl_linkload_times(m, j, 2, t, &e) == 0);
	CU_ASSERT_DOUBLE_EQUAL(t[0], 2, 1e-9);
	j[1] = pair_job(&p2, 1, 5, 1000, 0);
	CU_ASSERT_FATAL(cpl_linkload_times(m, j, 2, t, &e) == 0);
	CU_ASSERT_DOUBLE_EQUAL(t[0], 1, 1e-9);
	CU_ASSERT_DOUBLE_EQUAL(t[1], 1, 1e-9);
	/* ranks on one node exchange for free */
	j[0] = pair_job(&p1, 3, 3, 1000, 5e8);
	CU_ASSERT_FATAL(cpl_linkload_times(m, j, 1, t, &e) == 0);
	CU_ASSERT_DOUBLE_EQUAL(t[0], 5e8 / 1e9, 1e-12);
	plat_machine_destroy(m);
	cpl_traffic_free(&p1.tr);
	cpl_traffic_free(&p2.tr);
}

/* A generated kernel's iteration: EP has no traffic in its main loop, CG a
 * symmetric one; spread over a tree, CG's iteration gets slower, and a
 * second CG job sharing the links slows it further. */
static void test_profiles(void)
{
	struct cpl_traffic ep, cg;
	struct cmn_err e;
	struct cpl_profiles *eps = cpl_test_profiles("kernels=ep,class=S"),
	                    *cga = cpl_test_profiles("kernels=cg");
	CU_ASSERT_FATAL(cpl_traffic_profile(eps, 0, 4, &ep, &e) == 0);
	double bytes = 0;
	for (int a = 0; a < 4; a++)
		for (int b = 0; b < 4; b++)
			bytes += cpl_traffic_bytes(&ep, a, b);
	CU_ASSERT(bytes < 1000); /* four small allreduces: reduce + bcast of 104 B */
	CU_ASSERT(ep.flops[0] > 1e6);
	CU_ASSERT_FATAL(cpl_traffic_profile(cga, 0, 16, &cg, &e) == 0);
	CU_ASSERT(cpl_traffic_bytes(&cg, 0, 1) > 0);
	struct plat_machine *m = th_machine("kary-ntree:k=4,n=4");
	int contiguous[16], spread[16], other[16];
	for (int r = 0; r < 16; r++) {
		contiguous[r] = r;
		spread[r] = 16 * r;
		other[r] = 16 * r; /* on the spread job's nodes: every link shared */
	}
	struct cpl_job_load j[2] = {{16, contiguous, &cg}, {16, other, &cg}};
	double tref, tspread, tboth[2];
	CU_ASSERT_FATAL(cpl_linkload_times(m, j, 1, &tref, &e) == 0);
	j[0].nodes = spread;
	CU_ASSERT_FATAL(cpl_linkload_times(m, j, 1, &tspread, &e) == 0);
	CU_ASSERT_FATAL(cpl_linkload_times(m, j, 2, tboth, &e) == 0);
	CU_ASSERT(tref > 0);
	CU_ASSERT(tspread >= tref);
	CU_ASSERT(tboth[0] > tspread);
	plat_machine_destroy(m);
	cpl_traffic_free(&ep);
	cpl_traffic_free(&cg);
	cpl_profiles_free(eps);
	cpl_profiles_free(cga);
}

/* A running set on random nodes: kernel traffics (several sizes) placed on
 * disjoint random nodes in random rank order. */
struct scenario {
	int n;
	struct cpl_job_load jobs[8];
	int *nodes[8];
};

static void place(gsl_rng *rng, const struct plat_machine *m, struct cpl_traffic *tr, int ntr,
                  struct scenario *sc)
{
	char *busy = calloc((size_t)m->nodes, 1);
	int free_nodes = m->nodes;
	CU_ASSERT_FATAL(busy != NULL);
	sc->n = 0;
	while (sc->n < 8) {
		const struct cpl_traffic *t = &tr[gsl_rng_uniform_int(rng, (unsigned long)ntr)];
		for (int tries = 0; tries < 8 && t->nranks > free_nodes; tries++)
			t = &tr[gsl_rng_uniform_int(rng, (unsigned long)ntr)];
		if (t->nranks > free_nodes)
			break;
		int *nodes = malloc((size_t)t->nranks * sizeof *nodes);
		CU_ASSERT_FATAL(nodes != NULL);
		/* the next free nodes from a random one (as first-free leaves
		 * them), or free nodes anywhere; ranks in node order or not */
		int next = gsl_rng_uniform(rng) < 0.5,
		    at = (int)gsl_rng_uniform_int(rng, (unsigned long)m->nodes);
		for (int r = 0; r < t->nranks; r++) {
			while (busy[at])
				at = next ? (at + 1) % m->nodes
				          : (int)gsl_rng_uniform_int(rng, (unsigned long)m->nodes);
			busy[at] = 1;
			nodes[r] = at;
		}
		free_nodes -= t->nranks;
		if (gsl_rng_uniform(rng) < 0.5)
			gsl_ran_shuffle(rng, nodes, (size_t)t->nranks, sizeof *nodes);
		sc->nodes[sc->n] = nodes;
		sc->jobs[sc->n++] = (struct cpl_job_load){t->nranks, nodes, t};
	}
	free(busy);
}

/* Times of a scenario with every job's flows in the given form. */
static void times_as(const struct plat_machine *m, struct scenario *sc, enum cpl_flows_form form,
                     double *t, int *aggregated)
{
	struct cpl_job_flows *f[8];
	struct cpl_linkload *ll;
	struct cmn_err e;
	CU_ASSERT_FATAL(cpl_linkload_create(m, &ll, &e) == 0);
	for (int j = 0; j < sc->n; j++) {
		CU_ASSERT_FATAL(cpl_flows_build_as(m, &sc->jobs[j], form, &f[j], &e) == 0);
		*aggregated += cpl_flows_aggregated(f[j]);
	}
	CU_ASSERT_FATAL(cpl_linkload_run(ll, f, sc->n, t, &e) == 0);
	for (int j = 0; j < sc->n; j++)
		cpl_flows_free(f[j]);
	cpl_linkload_destroy(ll);
}

/* The aggregates on k-ary n-trees (ll_tree.c, ll_groups.c) give the times
 * of the flows listed one by one, to the last bit: IS and FT (all-to-all,
 * with the allreduce's and reduce's pairs on top; FT above 64 ranks in
 * rows and columns of a 2-D layout, square on 100) beside CG and MG, alone
 * and sharing links, on random nodes of trees of several arities, depths
 * and tapers; sizes prime, powers of two and neither, multiples of k or
 * not. */
static void test_aggregate(void)
{
	static const char *machines[] = {"kary-ntree:k=4,n=3",
	                                 "kary-ntree:k=3,n=4",
	                                 "kary-ntree:k=8,n=2",
	                                 "kary-ntree:k=4,n=3,taper=0.5",
	                                 "kary-ntree:k=2,n=6",
	                                 "kary-ntree:k=5,n=3",
	                                 "kary-ntree:k=7,n=3,taper=0.25",
	                                 "kary-ntree:k=3,n=5"};
	enum { NS = 10 };
	static const int sizes[NS] = {2, 5, 12, 16, 23, 32, 66, 67, 77, 100};
	struct cpl_profiles *pr = cpl_test_profiles("kernels=is/ft/cg/mg,class=S");
	struct cpl_traffic tr[4 * NS];
	struct cmn_err e;
	int ntr = 0;
	for (int k = 0; k < 4; k++)
		for (int i = 0; i < NS; i++)
			CU_ASSERT_FATAL(cpl_traffic_profile(pr, k, sizes[i], &tr[ntr++], &e) == 0);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 23);
	int aggregated = 0, differ = 0, runs = 0;
	for (size_t mi = 0; mi < sizeof machines / sizeof *machines; mi++) {
		struct plat_machine *m = th_machine(machines[mi]);
		for (int rep = 0; rep < 12; rep++) {
			struct scenario sc;
			/* IS or FT alone, then sharing with the others */
			place(rng, m, tr, rep < 4 ? 2 * NS : ntr, &sc);
			if (rep < 4 && sc.n > 1) {
				for (int j = 1; j < sc.n; j++)
					free(sc.nodes[j]);
				sc.n = 1;
			}
			double each[8], agg[8];
			int unused = 0;
			times_as(m, &sc, CPL_FLOWS_EACH, each, &unused);
			times_as(m, &sc, CPL_FLOWS_AGGREGATE, agg, &aggregated);
			for (int j = 0; j < sc.n; j++) {
				runs++;
				if (each[j] != agg[j]) {
					differ++;
					fprintf(stderr,
					        "%s: job %d of %d (%d ranks): %.17g flow by flow, "
					        "%.17g in aggregate\n",
					        machines[mi], j, sc.n, sc.jobs[j].nranks, each[j],
					        agg[j]);
				}
			}
			for (int j = 0; j < sc.n; j++)
				free(sc.nodes[j]);
		}
		plat_machine_destroy(m);
	}
	CU_ASSERT(differ == 0);
	CU_ASSERT(aggregated > 100); /* the aggregates were taken */
	CU_ASSERT(runs > 150);
	for (int i = 0; i < ntr; i++)
		cpl_traffic_free(&tr[i]);
	gsl_rng_free(rng);
	cpl_profiles_free(pr);
}

/* FT on 77 ranks of class S is a 7 x 11 layout: its 7 rows and 11 columns
 * are counted as groups (100 ranks: 10 + 10), its pairs with the root's
 * broadcasts and reduces on top listed; on nodes shared by two ranks, or
 * off a k-ary n-tree, the flows are listed one by one. */
static void test_groups(void)
{
	struct cpl_profiles *pr = cpl_test_profiles("kernels=ft,class=S");
	struct plat_machine *tree = th_machine("kary-ntree:k=5,n=3"),
	                    *mesh = th_machine("mesh:dims=11x11");
	struct cmn_err e;
	static const int sizes[] = {77, 100}, groups[] = {18, 20};
	for (int i = 0; i < 2; i++) {
		struct cpl_traffic t;
		CU_ASSERT_FATAL(cpl_traffic_profile(pr, 0, sizes[i], &t, &e) == 0);
		CU_ASSERT(t.all_row == NULL);
		int nodes[100];
		for (int r = 0; r < sizes[i]; r++)
			nodes[r] = (r * 7 + 3) % 125; /* 7 is prime to 125: distinct */
		struct cpl_job_load job = {sizes[i], nodes, &t};
		struct cpl_job_flows *f;
		CU_ASSERT_FATAL(cpl_flows_build_as(tree, &job, CPL_FLOWS_AGGREGATE, &f, &e) == 0);
		CU_ASSERT(cpl_flows_aggregated(f) == groups[i]);
		cpl_flows_free(f);
		CU_ASSERT_FATAL(cpl_flows_build_as(tree, &job, CPL_FLOWS_EACH, &f, &e) == 0);
		CU_ASSERT(cpl_flows_aggregated(f) == 0);
		cpl_flows_free(f);
		nodes[1] = nodes[0]; /* ranks 0 and 1 share a row: that row is listed */
		CU_ASSERT_FATAL(cpl_flows_build_as(tree, &job, CPL_FLOWS_AGGREGATE, &f, &e) == 0);
		CU_ASSERT(cpl_flows_aggregated(f) == groups[i] - 1);
		cpl_flows_free(f);
		for (int r = 0; r < sizes[i]; r++)
			nodes[r] = r;
		CU_ASSERT_FATAL(cpl_flows_build_as(mesh, &job, CPL_FLOWS_AGGREGATE, &f, &e) == 0);
		CU_ASSERT(cpl_flows_aggregated(f) == 0);
		cpl_flows_free(f);
		cpl_traffic_free(&t);
	}
	plat_machine_destroy(tree);
	plat_machine_destroy(mesh);
	cpl_profiles_free(pr);
}

/* Nodes for a job of n ranks among the free ones (busy marked): the next
 * free ones from a random node, or free nodes anywhere; 0, or -1 when too
 * few are free. */
static int take_nodes(gsl_rng *rng, int nodes, char *busy, int n, int *out)
{
	int nfree = 0;
	for (int i = 0; i < nodes; i++)
		nfree += !busy[i];
	if (n > nfree)
		return -1;
	int next = gsl_rng_uniform(rng) < 0.5,
	    at = (int)gsl_rng_uniform_int(rng, (unsigned long)nodes);
	for (int r = 0; r < n; r++) {
		while (busy[at])
			at = next ? (at + 1) % nodes
			          : (int)gsl_rng_uniform_int(rng, (unsigned long)nodes);
		busy[at] = 1;
		out[r] = at;
	}
	return 0;
}

/* Jobs start and end at random (some of them fragmented, so that they share
 * links); one computation that keeps its parts' records from call to call
 * (ll_fill.h: the parts whose flows freeze at the same levels replayed)
 * gives at every step the times of a fresh computation of the whole
 * running set, to the last bit, and computes at most half of the jobs the
 * sets hold (on the flat machine each job once). On trees with aggregates
 * and groups, a tapered tree (its upper links tight), a mesh and a flat
 * machine (no link shared). Either check of a replayed part's record
 * left out (a link filling where its flows stay active, a link no longer
 * filling where it says) gives other times; so do the flows a part's
 * fragment computes apart (ll_frag.c) with either of their drops left in
 * the part's record or one of their links not followed. */
static void test_kept(void)
{
	static const char *machines[] = {"kary-ntree:k=4,n=3", "kary-ntree:k=4,n=3,taper=0.25",
	                                 "kary-ntree:k=8,n=2", "mesh:dims=8x8", "flat:nodes=64"};
	enum { NS = 7, MAXJ = 16 };
	static const int sizes[NS] = {2, 3, 5, 8, 12, 16, 33};
	struct cpl_profiles *pr = cpl_test_profiles("kernels=is/ft/cg/mg/lu,class=S");
	struct cpl_traffic tr[5 * NS];
	struct cmn_err e;
	for (int k = 0; k < 5; k++)
		for (int i = 0; i < NS; i++)
			CU_ASSERT_FATAL(cpl_traffic_profile(pr, k, sizes[i], &tr[k * NS + i], &e) ==
			                0);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 7);
	double held = 0, differ = 0;
	struct cpl_linkload_stats st = {0};
	for (size_t mi = 0; mi < sizeof machines / sizeof *machines; mi++) {
		struct plat_machine *m = th_machine(machines[mi]);
		struct cpl_linkload *ll;
		CU_ASSERT_FATAL(cpl_linkload_create(m, &ll, &e) == 0);
		char busy[64] = {0};
		int nodes[MAXJ][64], n = 0;
		struct cpl_job_load load[MAXJ];
		struct cpl_job_flows *f[MAXJ];
		for (int step = 0; step < 80; step++) {
			if (n > 0 && (n == MAXJ || gsl_rng_uniform(rng) < 0.4)) { /* one ends */
				int j = (int)gsl_rng_uniform_int(rng, (unsigned long)n);
				for (int r = 0; r < load[j].nranks; r++)
					busy[nodes[j][r]] = 0;
				cpl_flows_free(f[j]);
				n--;
				if (j != n) {
					memcpy(nodes[j], nodes[n], sizeof nodes[j]);
					load[j] = load[n];
					load[j].nodes = nodes[j];
					f[j] = f[n];
				}
			} else { /* one starts, if it fits */
				const struct cpl_traffic *t = &tr[gsl_rng_uniform_int(rng, 5 * NS)];
				if (take_nodes(rng, m->nodes, busy, t->nranks, nodes[n]))
					continue;
				load[n] = (struct cpl_job_load){t->nranks, nodes[n], t};
				CU_ASSERT_FATAL(cpl_flows_build(m, &load[n], &f[n], &e) == 0);
				n++;
			}
			double kept[MAXJ], fresh[MAXJ];
			CU_ASSERT_FATAL(cpl_linkload_run(ll, f, n, kept, &e) == 0);
			CU_ASSERT_FATAL(cpl_linkload_times(m, load, n, fresh, &e) == 0);
			held += n;
			for (int j = 0; j < n; j++)
				if (kept[j] != fresh[j]) {
					differ++;
					fprintf(stderr,
					        "%s step %d: job %d of %d (%d ranks): %.17g kept, "
					        "%.17g fresh\n",
					        machines[mi], step, j, n, load[j].nranks, kept[j],
					        fresh[j]);
				}
		}
		struct cpl_linkload_stats s;
		cpl_linkload_stats(ll, &s);
		st.jobs += s.jobs;
		st.replayed += s.replayed;
		st.splits += s.splits;
		for (int j = 0; j < n; j++)
			cpl_flows_free(f[j]);
		cpl_linkload_destroy(ll);
		plat_machine_destroy(m);
	}
	CU_ASSERT(differ == 0);
	CU_ASSERT(held > 500);
	CU_ASSERT(st.jobs < held / 2); /* kept half of the jobs' times at least */
	CU_ASSERT(st.replayed > 100);
	CU_ASSERT(st.splits > 100); /* flows computed apart from their part */
	for (int i = 0; i < 5 * NS; i++)
		cpl_traffic_free(&tr[i]);
	gsl_rng_free(rng);
	cpl_profiles_free(pr);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("linkload", NULL, NULL);
	CU_add_test(s, "max-min shares by hand", test_shares);
	CU_add_test(s, "contention on a tree where routes share links", test_tree_contention);
	CU_add_test(s, "per-iteration profiles", test_profiles);
	CU_add_test(s, "all-pairs patterns in aggregate = flow by flow", test_aggregate);
	CU_add_test(s, "groups of ranks exchanging all pairs", test_groups);
	CU_add_test(s, "records kept from call to call = computed afresh", test_kept);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

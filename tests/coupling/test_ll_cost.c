/* The linkload model's memory bound (coupling/linkload/ll_cost.h): hand-computed
 * cases on the flat machine (a route of 2 links), the jobs that can run at
 * once (the nodes bound them; a job larger than the machine never runs),
 * its growth with ranks and by machine (k-ary n-trees count all-to-all in
 * aggregate), and the refusal's message. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../coupling/linkload/ll_cost.h"
#include "../../coupling/profiles/jobprof.h"
#include "../helpers.h"
#include "cpl_helpers.h"
#include "platform.h"

#define MB (1024.0 * 1024)

/* A workload of n jobs of the given sizes (ids 1..n). */
static struct js_workload *jobs(const int *size, int n)
{
	struct js_workload *w = js_workload_new("test");
	CU_ASSERT_FATAL(w != NULL);
	for (int i = 0; i < n; i++) {
		struct js_job j;
		memset(&j, 0, sizeof j);
		for (int f = 0; f < JS_SWF_FIELDS; f++)
			j.f[f] = -1;
		j.id = (uint64_t)i + 1;
		j.f[JS_F_JOB] = i + 1;
		j.run_s = j.req_s = 10;
		j.size = size[i];
		CU_ASSERT_FATAL(js_workload_push(w, &j) == 0);
	}
	return w;
}

static struct cpl_ll_cost cost_with(const char *kvs, const char *machine, const int *size, int n,
                                    int workers)
{
	struct cpl_profiles *pr = cpl_test_profiles(kvs);
	struct plat_machine *m;
	struct cmn_err e;
	CU_ASSERT_FATAL(plat_machine_create(machine, &m, &e) == 0);
	struct js_workload *w = jobs(size, n);
	struct cpl_ll_cost c;
	CU_ASSERT_FATAL(cpl_ll_cost_of(pr, m, w, workers, &c, &e) == 0);
	js_workload_free(w);
	plat_machine_destroy(m);
	cpl_profiles_free(pr);
	return c;
}

static struct cpl_ll_cost cost_of(const char *kvs, const char *machine, const int *size, int n)
{
	return cost_with(kvs, machine, size, n, 0);
}

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b);
}

/* One CG job of 4 ranks on 8 flat nodes: a 2 x 2 grid, each rank sending
 * to its l2 = 1 partner and its transpose partner: 8 pairs, each a flow of
 * a 2-link route; its traffic 4 ranks and 8 listed pairs. */
static void test_hand(void)
{
	struct cpl_ll_cost c = cost_of("kernels=cg", "flat:nodes=8", (int[]){4}, 1);
	double flows = 8 * (CPL_LL_FLOW_BYTES + 2 * CPL_LL_CROSSING_BYTES),
	       traffic = 4 * CPL_LL_RANK_BYTES + 8 * CPL_LL_PAIR_BYTES;
	CU_ASSERT(near(c.running, flows + traffic));
	CU_ASSERT(near(c.transient, 4 * CPL_LL_GEN_RANK_BYTES + 8 * CPL_LL_GEN_PAIR_BYTES));
	CU_ASSERT(near(c.spare, traffic));
	CU_ASSERT(
	    near(c.base, CPL_LL_BASE_BYTES + 8 * CPL_LL_PER_NODE_BYTES + CPL_LL_PER_JOB_BYTES));
	CU_ASSERT(near(c.total, c.running + c.transient + c.spare + c.base));
	CU_ASSERT(c.at_once == 1 && c.profiles == 1 && c.big_flows == 8 && c.big_id == 1);
	CU_ASSERT(!c.tree && c.ahead == 0);
	/* two workers computing profiles ahead: the traffics they may hold and
	 * a transient each */
	struct cpl_ll_cost a = cost_with("kernels=cg", "flat:nodes=8", (int[]){4}, 1, 2);
	CU_ASSERT(near(a.ahead, traffic + 2 * c.transient));
	CU_ASSERT(near(a.total, c.total + a.ahead));
}

/* IS jobs of 4, 4, 4, 2 and 9 ranks on 8 flat nodes: IS on 4 ranks takes
 * the most per node, two of them fill the machine; the 9-rank job never
 * runs but is the largest. IS's pairs: all 12, its traffic a dense part and
 * at most 4 listed pairs per rank. */
static void test_at_once(void)
{
	struct cpl_ll_cost c = cost_of("kernels=is", "flat:nodes=8", (int[]){4, 4, 4, 2, 9}, 5);
	double four = 12 * (CPL_LL_FLOW_BYTES + 2 * CPL_LL_CROSSING_BYTES) + 4 * CPL_LL_RANK_BYTES +
	              16 * CPL_LL_PAIR_BYTES;
	CU_ASSERT(c.at_once == 2);
	CU_ASSERT(near(c.running, 2 * four));
	CU_ASSERT(c.profiles == 3 && c.big_id == 5 && c.big_ranks == 9 && c.big_flows == 72);
	/* half the machine: one job and a half of the 4-rank ones */
	struct cpl_ll_cost h = cost_of("kernels=is", "flat:nodes=6", (int[]){4, 4, 4}, 3);
	CU_ASSERT(h.at_once == 1.5 && near(h.running, 1.5 * four));
}

/* IS grows as its pairs (n^2) on a mesh, more on a mesh than on the flat
 * machine (longer routes), and on a k-ary n-tree its all-to-all is counted
 * in aggregate (no flows one by one: per rank, not per pair). */
static void test_growth(void)
{
	struct cpl_ll_cost m32 = cost_of("kernels=is", "mesh:dims=8x8", (int[]){32}, 1),
	                   m64 = cost_of("kernels=is", "mesh:dims=8x8", (int[]){64}, 1),
	                   f64 = cost_of("kernels=is", "flat:nodes=64", (int[]){64}, 1),
	                   f1k = cost_of("kernels=is", "flat:nodes=1024", (int[]){1024}, 1),
	                   t1k = cost_of("kernels=is", "kary-ntree:k=4,n=5", (int[]){1024}, 1),
	                   c64 = cost_of("kernels=cg", "mesh:dims=8x8", (int[]){64}, 1);
	CU_ASSERT(m64.running > 3.5 * m32.running);
	CU_ASSERT(m64.running > 2 * f64.running);
	CU_ASSERT(t1k.tree && t1k.big_flows == 0 && t1k.running < f1k.running / 8);
	CU_ASSERT(c64.running < m64.running / 8); /* CG: a few partners per rank */
}

/* Past the limit: CMN_ESTATE naming the estimate, the largest job, the
 * options; 0: no limit. */
static void test_refusal(void)
{
	struct cpl_profiles *pr = cpl_test_profiles("kernels=is");
	struct cpl_ll_cost c = cost_of("kernels=is", "mesh:dims=8x8", (int[]){2, 64}, 2);
	struct cmn_err e;
	CU_ASSERT(cpl_ll_cost_check(&c, pr, 0, &e) == 0);
	CU_ASSERT(cpl_ll_cost_check(&c, pr, ceil(c.total / MB), &e) == 0);
	CU_ASSERT_FATAL(cpl_ll_cost_check(&c, pr, floor(c.total / MB) - 1, &e) == CMN_ESTATE);
	CU_ASSERT(strstr(e.msg, "linkload: the run may need up to ") != NULL);
	CU_ASSERT(strstr(e.msg, "job 2 of 64 ranks on kernel is: 4032 flows one by one") != NULL);
	CU_ASSERT(strstr(e.msg, "a k-ary n-tree machine where all-to-all is counted") != NULL);
	CU_ASSERT(strstr(e.msg, "(linkload:max_memory=MB, 0: none)") != NULL);
	cpl_profiles_free(pr);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("linkload cost", NULL, NULL);
	CU_add_test(s, "one CG job by hand", test_hand);
	CU_add_test(s, "the jobs that can run at once", test_at_once);
	CU_add_test(s, "growth with ranks and by machine", test_growth);
	CU_add_test(s, "the refusal", test_refusal);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

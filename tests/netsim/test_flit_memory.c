/* The flit network's memory (netsim/flit/flit_build.c): its estimate
 * before anything is made is what malloc then hands out, within a margin,
 * on every family and router configuration; a network past max_memory is
 * refused before it is made, naming its parts and what would bound them,
 * quickly even where making it would take minutes and gigabytes (adaptive
 * routing's distance table on a 16-ary 4-tree: 10.7 GB). */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../netsim/flit/flit_internal.h"
#include "../../netsim/flit/flit_net.h"
#include "../../netsim/flit/flit_preset.h"
#include "../helpers.h"

/* Bytes malloc holds now (its arenas and its mmapped blocks); 0 where it
 * does not say (a sanitizer's allocator). */
static double held(void)
{
	struct mallinfo2 mi = mallinfo2();
	return (double)mi.uordblks + (double)mi.hblkhd;
}

static void test_estimate_is_what_is_made(void)
{
	static const char *const cases[][3] = {
	    {"mesh:dims=8x8", NULL, NULL},
	    {"torus:dims=10x10x10", NULL, NULL},
	    {"torus:dims=16x16", "vcs=8,buf=4,threads=2", NULL},
	    {"kary-ntree:k=4,n=3", "routing=adaptive", NULL},
	    {"kary-ntree:k=8,n=3", "routing=adaptive,vcs=2", NULL},
	    {"kary-ntree:k=4,n=4", NULL, "booksim"},
	    {"mesh:dims=16x16", NULL, "insee"},
	    {"torus:dims=12x12", NULL, "insee"},
	    {"kary-ntree:k=4,n=3", NULL, "insee"},
	    {"multicluster:clusters=3,size=20", NULL, NULL},
	    {"flat:nodes=2000", NULL, NULL},
	    {"mesh:dims=40x40x20", "vcs=2,buf=16", NULL},
	};
	int measured = 0;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct plat_machine *m = th_machine(cases[i][0]);
		struct cmn_params cp;
		struct flit_params p;
		struct cmn_err e;
		CU_ASSERT_FATAL(net_flit_params_parse(cases[i][1], cases[i][2], m, &cp, &p, &e) ==
		                0);
		struct flit_net *n;
		double before = held();
		CU_ASSERT_FATAL(net_flit_net_create(m, &p, &n, &e) == 0);
		double made = held() - before - (double)sizeof *n, ratio = n->state_bytes / made;
		if (getenv("SHOW")) /* SHOW=1: every estimate and what was made */
			printf("\n  %s %s: %.0f / %.0f = %.3f", cases[i][0],
			       cases[i][1] ? cases[i][1] : "", n->state_bytes, made, ratio);
		if (before > 0 && made > 0) {
			measured++;
			if (ratio < 0.85 || ratio > 1.3)
				printf("\n  %s %s %s: estimated %.0f bytes, made %.0f (%.2f)",
				       cases[i][0], cases[i][1] ? cases[i][1] : "",
				       cases[i][2] ? cases[i][2] : "", n->state_bytes, made, ratio);
			CU_ASSERT(ratio >= 0.85 && ratio <= 1.3);
		}
		net_flit_net_destroy(n);
		plat_machine_destroy(m);
	}
	if (!measured)
		printf("\n  NOTE malloc does not report what it holds here (a sanitizer's "
		       "allocator): estimates not compared");
}

/* Refused before anything is made: exit code, the parts named, in well
 * under a second. */
static void refused(const char *spec, const char *kvs, const char *needle)
{
	struct plat_machine *m = th_machine(spec);
	struct cmn_params cp;
	struct flit_params p;
	struct cmn_err e;
	CU_ASSERT_FATAL(net_flit_params_parse(kvs, NULL, m, &cp, &p, &e) == 0);
	struct flit_net *n = NULL;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_EQUAL(net_flit_net_create(m, &p, &n, &e), CMN_EUSAGE);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CU_ASSERT_PTR_NULL(n);
	CU_ASSERT((double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9 < 5);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, needle));
	if (!strstr(e.msg, needle))
		printf("\n  %s %s: %s", spec, kvs, n ? "made" : e.msg);
	net_flit_net_destroy(n);
	plat_machine_destroy(m);
}

static void test_refused_before_made(void)
{
	/* the VCs' records and the rest count, not only the buffers: 380 MB of
	 * buffers on this torus, about 620 MB in all */
	refused("torus:dims=46x46x46", "max_memory=500", "more than max_memory=500 MB");
	refused("torus:dims=46x46x46", "max_memory=500", "the VCs' buffers 380 MB");
	/* adaptive routing on a 16-ary 4-tree: 10.7 GB of distances under the
	 * default 4,096 MB, refused at once (making it took minutes) */
	refused("kary-ntree:k=16,n=4", "routing=adaptive",
	        "adaptive routing's hops from every vertex to every node 10");
	refused("kary-ntree:k=16,n=4", "routing=adaptive", "routing=deterministic");
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("flit memory", NULL, NULL);
	CU_add_test(s, "the estimate is what is made", test_estimate_is_what_is_made);
	CU_add_test(s, "past max_memory: refused before it is made", test_refused_before_made);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

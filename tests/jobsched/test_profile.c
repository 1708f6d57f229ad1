/* The segment profile with bitmaps (jobsched/sched/profile.h): its search,
 * whose window unions are kept between calls, against a search that builds
 * every window's union anew, through scans as conservative backfilling
 * makes them (from each candidate to the next), windows that shrink and
 * grow, bounds, and changes of the profile between and within scans. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../jobsched/sched/profile.h"
#include "../helpers.h"

/* The search by its definition: every start in turn, every segment of its
 * window checked by count and then by the union of its bitmaps. */
static long ref_find(const struct js_profile *p, size_t from, double d, int need, double bound,
                     uint64_t *busy_out)
{
	size_t w = (size_t)p->words;
	for (size_t i = from; i < p->n && p->t[i] <= bound; i++) {
		double end = js_profile_end(p->t[i], d);
		int fits = 1;
		memset(busy_out, 0, w * sizeof *busy_out);
		for (size_t s = i; s < p->n && (s == i || p->t[s] < end); s++) {
			fits = fits && p->busy[s] + need <= p->nodes;
			for (size_t x = 0; x < w; x++)
				busy_out[x] |= p->bits[s * w + x];
		}
		int count = 0;
		for (size_t x = 0; x < w; x++)
			count += __builtin_popcountll(busy_out[x]);
		if (fits && count + need <= p->nodes)
			return (long)i;
	}
	return -1;
}

struct job {
	double t0, t1;
	int n, *nodes;
};

/* Adds a job of up to want nodes free throughout [t0, t1) to p; 0 when
 * none is free. */
static int add_job(gsl_rng *r, struct js_profile *p, struct job *j, double t0, double t1, int want)
{
	size_t w = (size_t)p->words;
	uint64_t *u = calloc(w, sizeof *u);
	CU_ASSERT_FATAL(u != NULL);
	for (size_t s = 0; s < p->n; s++) {
		double a = p->t[s], b = s + 1 < p->n ? p->t[s + 1] : INFINITY;
		if (a < t1 && b > t0)
			for (size_t x = 0; x < w; x++)
				u[x] |= p->bits[s * w + x];
	}
	j->nodes = malloc((size_t)p->nodes * sizeof *j->nodes);
	CU_ASSERT_FATAL(j->nodes != NULL);
	j->n = 0;
	int start = (int)gsl_rng_uniform_int(r, (unsigned long)p->nodes);
	for (int k = 0; k < p->nodes && j->n < want; k++) {
		int v = (start + k) % p->nodes;
		if (!(u[v / 64] >> (v % 64) & 1) && gsl_rng_uniform(r) < 0.7)
			j->nodes[j->n++] = v;
	}
	free(u);
	j->t0 = t0;
	j->t1 = t1;
	if (!j->n) {
		free(j->nodes);
		return 0;
	}
	CU_ASSERT_FATAL(js_profile_change(p, t0, t1, j->n, j->nodes, +1) == 0);
	return 1;
}

static void random_run(gsl_rng *r, int nodes, int steps, long *scans, long *found)
{
	struct js_profile p;
	CU_ASSERT_FATAL(js_profile_init(&p, nodes, 1, 0) == 0);
	size_t w = (size_t)p.words;
	uint64_t *a = malloc(w * sizeof *a), *b = malloc(w * sizeof *b);
	struct job *jobs = calloc((size_t)steps, sizeof *jobs);
	CU_ASSERT_FATAL(a && b && jobs);
	int nj = 0;
	double now = 0;
	for (int s = 0; s < steps; s++) {
		double u = gsl_rng_uniform(r);
		if (u < 0.05) {
			now += (double)gsl_rng_uniform_int(r, 3);
			js_profile_trim(&p, now);
		} else if (u < 0.25 && nj) {
			int k = (int)gsl_rng_uniform_int(r, (unsigned long)nj);
			CU_ASSERT_FATAL(js_profile_change(&p, jobs[k].t0, jobs[k].t1, jobs[k].n,
			                                  jobs[k].nodes, -1) == 0);
			free(jobs[k].nodes);
			jobs[k] = jobs[--nj];
		} else if (u < 0.6) {
			double t0 = now + (double)gsl_rng_uniform_int(r, 40);
			double t1 = gsl_rng_uniform(r) < 0.05
			                ? INFINITY
			                : t0 + 1 + (double)gsl_rng_uniform_int(r, 15);
			int want = 1 + (int)gsl_rng_uniform_int(r, (unsigned long)nodes / 3);
			nj += add_job(r, &p, &jobs[nj], t0, t1, want);
		} else { /* a scan, candidate after candidate, maybe another d halfway */
			double d = (double)gsl_rng_uniform_int(r, 20);
			int need = 1 + (int)gsl_rng_uniform_int(r, (unsigned long)nodes);
			double bound = gsl_rng_uniform(r) < 0.3
			                   ? now + (double)gsl_rng_uniform_int(r, 60)
			                   : INFINITY;
			(*scans)++;
			for (long i = 0;; i++) {
				if (gsl_rng_uniform(r) < 0.1) /* another window length */
					d = (double)gsl_rng_uniform_int(r, 20);
				long want = ref_find(&p, (size_t)i, d, need, bound, a);
				i = js_profile_find(&p, (size_t)i, d, need, bound, b);
				CU_ASSERT_EQUAL_FATAL(i, want);
				if (i < 0)
					break;
				(*found)++;
				CU_ASSERT_FATAL(memcmp(a, b, w * sizeof *a) == 0);
				if (gsl_rng_uniform(r) < 0.05)
					break;
			}
		}
	}
	for (int k = 0; k < nj; k++)
		free(jobs[k].nodes);
	free(jobs);
	free(a);
	free(b);
	js_profile_free(&p);
}

static void test_against_ref(void)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 23);
	long scans = 0, found = 0;
	int sizes[] = {1, 7, 64, 65, 200};
	for (int round = 0; round < 40; round++)
		random_run(r, sizes[round % 5], 400, &scans, &found);
	CU_ASSERT(scans > 1000);
	CU_ASSERT(found > 3 * scans); /* scans went from candidate to candidate */
	gsl_rng_free(r);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("profile", NULL, NULL);
	CU_add_test(s, "bitmaps: the search against unions built anew", test_against_ref);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

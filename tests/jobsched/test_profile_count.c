/* The count profile (profile_count.h) against a list of its intervals,
 * counted by brute force: busy counts, first free times and earliest slots
 * through random additions, removals and trims, with ties, zero lengths and
 * intervals without end; against the segment profile (profile.h); and,
 * with tens of thousands of changes (trees three and four levels deep),
 * against a sorted array of its changes walked step by step. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../jobsched/sched/profile.h"
#include "../../jobsched/sched/profile_count.h"
#include "../helpers.h"

struct ival {
	double t0, t1, d;
	int n;
};

struct model {
	int nodes;
	double origin;
	struct ival *iv;
	size_t n;
};

static int model_busy(const struct model *m, double t)
{
	int b = 0;
	for (size_t i = 0; i < m->n; i++)
		if (m->iv[i].t0 <= t && (t < m->iv[i].t1 || isinf(m->iv[i].t1)))
			b += m->iv[i].n;
	return b;
}

/* The earliest start before limit among the origin and the interval ends
 * after it whose window, cut at limit, has room at its start and at every
 * interval end inside it. */
static double model_find(const struct model *m, double d, int need, double limit)
{
	int room = m->nodes - need;
	double best = NAN;
	for (size_t c = 0; c <= 2 * m->n; c++) {
		double t = c == 2 * m->n ? m->origin : c % 2 ? m->iv[c / 2].t1 : m->iv[c / 2].t0;
		if (t < m->origin || !(t < limit) || isinf(t) || (!isnan(best) && t >= best))
			continue;
		double end = js_profile_end(t, d);
		if (end > limit)
			end = limit;
		int ok = model_busy(m, t) <= room;
		for (size_t k = 0; ok && k < 2 * m->n; k++) {
			double u = k % 2 ? m->iv[k / 2].t1 : m->iv[k / 2].t0;
			ok = !(u > t && u < end) || model_busy(m, u) <= room;
		}
		if (ok)
			best = t;
	}
	return best;
}

static int same(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

/* Prints the first disagreement of the test; returns 1. */
static int note(const char *what, double want, double got)
{
	static int printed;
	if (!printed++)
		fprintf(stderr, "\n  %s: want %.17g, got %.17g\n", what, want, got);
	return 1;
}

/* A reservation v's earlier slot, searched with v in the profile and the
 * window cut at its start, against the segment profile's search for its
 * slot without v (bounded by its start): the same slot when earlier. */
static int earlier_slot(struct js_cprof *cp, struct js_profile *sp, const struct ival *v)
{
	if (v->t0 < sp->t[0] || isinf(v->t1))
		return 0;
	double got = js_cprof_find(cp, v->d, v->n, v->t0);
	CU_ASSERT_EQUAL(js_profile_change(sp, v->t0, v->t1, v->n, NULL, -1), 0);
	long i = js_profile_find(sp, 0, v->d, v->n, v->t0, NULL);
	double want = i < 0 ? NAN : sp->t[i];
	CU_ASSERT_EQUAL(js_profile_change(sp, v->t0, v->t1, v->n, NULL, +1), 0);
	if (want == v->t0)
		want = NAN; /* no earlier slot */
	return same(want, got) ? 0 : note("earlier slot", want, got);
}

/* One random run: returns the number of disagreements. */
static int random_run(gsl_rng *r, int nodes, int steps, int whole, int fan)
{
	struct model m = {nodes, 0, calloc((size_t)steps, sizeof(struct ival)), 0};
	struct js_cprof cp;
	struct js_profile sp;
	int bad = 0;
	CU_ASSERT_FATAL(m.iv && js_cprof_init(&cp, nodes, 0) == 0);
	CU_ASSERT_FATAL(js_profile_init(&sp, nodes, 0, 0) == 0);
	cp.fan = fan;
	for (int s = 0; s < steps; s++) {
		double u = gsl_rng_uniform(r);
		if (u < 0.08) { /* time passes */
			m.origin += (double)gsl_rng_uniform_int(r, 4);
			js_cprof_trim(&cp, m.origin);
			js_profile_trim(&sp, m.origin);
		} else if (u < 0.35 && m.n) { /* a removal */
			size_t i = gsl_rng_uniform_int(r, m.n);
			struct ival v = m.iv[i];
			m.iv[i] = m.iv[--m.n];
			CU_ASSERT_EQUAL(js_cprof_change(&cp, v.t0, v.t1, v.n, -1), 0);
			CU_ASSERT_EQUAL(js_profile_change(&sp, v.t0, v.t1, v.n, NULL, -1), 0);
		} else { /* an addition where it fits, at the earliest slot or not */
			int n =
			    whole ? nodes : 1 + (int)gsl_rng_uniform_int(r, (unsigned long)nodes);
			double d = gsl_rng_uniform(r) < 0.03 ? INFINITY
			                                     : (double)gsl_rng_uniform_int(r, 12);
			double limit = gsl_rng_uniform(r) < 0.2
			                   ? m.origin + (double)gsl_rng_uniform_int(r, 30)
			                   : INFINITY;
			double want = model_find(&m, d, n, limit);
			double got = js_cprof_find(&cp, d, n, limit);
			if (!same(want, got))
				bad += note("find", want, got);
			long i = js_profile_find(&sp, 0, d, n, INFINITY, NULL);
			if (isinf(limit) && !same(want, i < 0 ? NAN : sp.t[i]))
				bad += note("segment profile", want, i < 0 ? NAN : sp.t[i]);
			double ff = js_cprof_first_free(&cp, n);
			double ffwant = model_find(&m, 0, n, INFINITY);
			if (!same(isnan(ffwant) ? INFINITY : ffwant, ff))
				bad += note("first free", ffwant, ff);
			if (isnan(want) || limit < INFINITY)
				continue;
			double t0 = want, t1 = js_profile_end(t0, d);
			m.iv[m.n++] = (struct ival){t0, t1, d, n};
			CU_ASSERT_EQUAL(js_cprof_change(&cp, t0, t1, n, +1), 0);
			CU_ASSERT_EQUAL(js_profile_change(&sp, t0, t1, n, NULL, +1), 0);
		}
		for (size_t i = 0; i < m.n && !bad; i++) {
			double t = m.iv[i].t1 < m.origin ? m.origin : m.iv[i].t1;
			if (isinf(t))
				t = m.iv[i].t0 < m.origin ? m.origin : m.iv[i].t0;
			if (js_cprof_busy_at(&cp, t) != model_busy(&m, t))
				bad += note("busy", model_busy(&m, t), js_cprof_busy_at(&cp, t));
		}
		if (js_cprof_busy_end(&cp) != model_busy(&m, INFINITY))
			bad += note("busy at the end", model_busy(&m, INFINITY),
			            js_cprof_busy_end(&cp));
		if (m.n && !bad)
			bad += earlier_slot(&cp, &sp, &m.iv[gsl_rng_uniform_int(r, m.n)]);
	}
	js_cprof_free(&cp);
	js_profile_free(&sp);
	free(m.iv);
	return bad;
}

static void test_against_brute_force(void)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 23);
	int bad = 0;
	for (int run = 0; run < 300 && !bad; run++) {
		int nodes = 1 + (int)gsl_rng_uniform_int(r, run % 3 ? 8 : 200);
		bad += random_run(r, nodes, run % 30 ? 200 : 3000, run % 7 == 0,
		                  run % 2 ? 4 : 5 + run % 28);
	}
	gsl_rng_free(r);
	CU_ASSERT_EQUAL(bad, 0);
}

/* The step function as a sorted array of its change times, each with its
 * change (none zero), and the busy count before the first. */
struct steps {
	int nodes, base;
	double origin;
	double *t;
	int *v;
	size_t n, cap;
};

static void steps_add(struct steps *s, double t, int v)
{
	if (t < s->origin)
		t = s->origin;
	size_t k = 0;
	while (k < s->n && s->t[k] < t)
		k++;
	if (k < s->n && s->t[k] == t) {
		if ((s->v[k] += v) == 0) {
			memmove(s->t + k, s->t + k + 1, (s->n - k - 1) * sizeof *s->t);
			memmove(s->v + k, s->v + k + 1, (s->n - k - 1) * sizeof *s->v);
			s->n--;
		}
		return;
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->t = realloc(s->t, s->cap * sizeof *s->t);
		s->v = realloc(s->v, s->cap * sizeof *s->v);
		CU_ASSERT_FATAL(s->t && s->v);
	}
	memmove(s->t + k + 1, s->t + k, (s->n - k) * sizeof *s->t);
	memmove(s->v + k + 1, s->v + k, (s->n - k) * sizeof *s->v);
	s->t[k] = t;
	s->v[k] = v;
	s->n++;
}

static void steps_change(struct steps *s, double t0, double t1, int n, int sign)
{
	if (t0 < s->origin)
		t0 = s->origin;
	if (!(t1 > t0) || n == 0)
		return;
	steps_add(s, t0, sign * n);
	if (isfinite(t1))
		steps_add(s, t1, -sign * n);
}

static void steps_trim(struct steps *s, double now)
{
	size_t k = 0;
	while (k < s->n && s->t[k] <= now)
		s->base += s->v[k++];
	memmove(s->t, s->t + k, (s->n - k) * sizeof *s->t);
	memmove(s->v, s->v + k, (s->n - k) * sizeof *s->v);
	s->n -= k;
	if (s->origin < now)
		s->origin = now;
}

static int steps_busy(const struct steps *s, double t)
{
	int b = s->base;
	for (size_t k = 0; k < s->n && s->t[k] <= t; k++)
		b += s->v[k];
	return b;
}

/* The first start, the origin or a change time before limit, whose count
 * and that of every change inside its window (cut at limit) leave need
 * nodes free; NAN when none. */
static double steps_find(const struct steps *s, double d, int need, double limit)
{
	int room = s->nodes - need, busy = s->base;
	size_t k = 0;
	while (k < s->n && s->t[k] <= s->origin)
		busy += s->v[k++];
	for (double t = s->origin; t < limit;) {
		double end = js_profile_end(t, d);
		if (end > limit)
			end = limit;
		int ok = busy <= room, b = busy;
		for (size_t x = k; ok && x < s->n && s->t[x] < end; x++)
			ok = (b += s->v[x]) <= room;
		if (ok)
			return t;
		if (k == s->n)
			return NAN;
		t = s->t[k];
		busy += s->v[k++];
	}
	return NAN;
}

/* One long run on a tree of fan entries per node: many small intervals at
 * their earliest slots (times in eighths, so many share an end) with a few
 * removals, trims (one in trim steps) and intervals without end; every
 * 25th step compares every query, every 250th with a window long enough to
 * hold whole subtrees. Returns the number of disagreements; *height gets
 * the tallest tree seen. */
static int deep_run(gsl_rng *r, int nodes, int fan, int steps, int trim, int *height)
{
	struct steps m = {nodes, 0, 0, NULL, NULL, 0, 0};
	struct ival *iv = calloc((size_t)steps, sizeof *iv);
	size_t niv = 0;
	struct js_cprof cp;
	int bad = 0;
	CU_ASSERT_FATAL(iv && js_cprof_init(&cp, nodes, 0) == 0);
	cp.fan = fan;
	for (int s = 0; s < steps && !bad; s++) {
		double u = gsl_rng_uniform(r);
		if (gsl_rng_uniform_int(r, (unsigned long)trim) == 0) { /* time passes */
			double now = m.origin + (double)gsl_rng_uniform_int(r, 100);
			js_cprof_trim(&cp, now);
			steps_trim(&m, now);
		} else if (u < 0.05 && niv) { /* a removal */
			size_t i = gsl_rng_uniform_int(r, niv);
			struct ival v = iv[i];
			iv[i] = iv[--niv];
			CU_ASSERT_EQUAL(js_cprof_change(&cp, v.t0, v.t1, v.n, -1), 0);
			steps_change(&m, v.t0, v.t1, v.n, -1);
		} else { /* an addition at its earliest slot */
			int n = 1 + (int)gsl_rng_uniform_int(r, (unsigned long)(nodes / 4));
			double d = gsl_rng_uniform(r) < 0.0005
			               ? INFINITY
			               : (double)gsl_rng_uniform_int(r, 73) / 8;
			double t0 = js_cprof_find(&cp, d, n, INFINITY);
			if (isnan(t0))
				continue;
			double t1 = js_profile_end(t0, d);
			iv[niv++] = (struct ival){t0, t1, d, n};
			CU_ASSERT_EQUAL(js_cprof_change(&cp, t0, t1, n, +1), 0);
			steps_change(&m, t0, t1, n, +1);
		}
		if (cp.height > *height)
			*height = cp.height;
		if (s % 25)
			continue;
		if (js_cprof_busy_end(&cp) != steps_busy(&m, INFINITY))
			bad += note("deep: busy at the end", steps_busy(&m, INFINITY),
			            js_cprof_busy_end(&cp));
		double span = m.n ? m.t[m.n - 1] - m.origin + 20 : 20;
		double t = m.origin + floor(gsl_rng_uniform(r) * span * 2) / 2; /* some between */
		if (js_cprof_busy_at(&cp, t) != steps_busy(&m, t))
			bad += note("deep: busy", steps_busy(&m, t), js_cprof_busy_at(&cp, t));
		int need = 1 + (int)gsl_rng_uniform_int(r, (unsigned long)nodes);
		double want = steps_find(&m, 0, need, INFINITY);
		double ff = js_cprof_first_free(&cp, need);
		if (!same(isnan(want) ? INFINITY : want, ff))
			bad += note("deep: first free", want, ff);
		if (s % 250 == 0) /* long windows: few needs fit them, take small ones */
			need = 1 + (int)gsl_rng_uniform_int(r, (unsigned long)(nodes / 2));
		double d = (double)gsl_rng_uniform_int(r, s % 250 ? 13 : 400);
		double limit = gsl_rng_uniform(r) < 0.5 ? INFINITY : t;
		want = steps_find(&m, d, need, limit);
		double got = js_cprof_find(&cp, d, need, limit);
		if (!same(want, got))
			bad += note("deep: find", want, got);
	}
	js_cprof_free(&cp);
	free(iv);
	free(m.t);
	free(m.v);
	return bad;
}

static void test_deep_trees(void)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 5);
	int bad = 0, h4 = 0, h6 = 0, h32 = 0;
	bad += deep_run(r, 16, 4, 25000, 300, &h4);
	bad += deep_run(r, 64, 6, 25000, 2000, &h6);
	bad += deep_run(r, 64, JS_CPROF_FAN, 120000, 2000, &h32);
	gsl_rng_free(r);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(h4 >= 8 && h6 >= 6 && h32 >= 3); /* inner splits and merges at every level */
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("profile_count", NULL, NULL);
	CU_add_test(s, "against brute force and the segment profile", test_against_brute_force);
	CU_add_test(s, "deep trees against a sorted array of changes", test_deep_trees);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

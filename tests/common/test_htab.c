/* The hash table (common/htab.h) against a plain array: random puts, finds
 * and deletions with hashes that collide on purpose (a few distinct
 * hashes, all of them equal, hashes that wrap round the table's end),
 * through several growths; every entry findable after each step, none
 * that was deleted, the count right, a walk seeing each entry once. */
#include <gsl/gsl_rng.h>
#include <stdlib.h>

#include "../helpers.h"
#include "htab.h"

struct item {
	int key, value;
};

static int match(const void *entry, const void *key)
{
	return ((const struct item *)entry)->key == *(const int *)key;
}

/* The hash of key under the scheme: 0 varied, 1 eight values, 2 one value,
 * 3 the table's last slots (probes wrap round to slot 0). */
static uint64_t hash_of(int scheme, int key)
{
	switch (scheme) {
	case 0: return (uint64_t)key * 0x9E3779B97F4A7C15u;
	case 1: return (uint64_t)(key % 8) * 0x9E3779B97F4A7C15u;
	case 2: return 42;
	default: return UINT64_MAX - (uint64_t)(key % 3);
	}
}

static int check(const struct cmn_htab *t, int scheme, const int *value, int nkeys)
{
	size_t live = 0, seen = 0;
	for (int k = 0; k < nkeys; k++) {
		const struct item *x = cmn_htab_find(t, hash_of(scheme, k), match, &k);
		if ((value[k] >= 0) != (x != NULL) || (x && x->value != value[k]))
			return 1;
		live += value[k] >= 0;
	}
	for (size_t i = 0; i < t->cap; i++)
		seen += cmn_htab_at(t, i) != NULL;
	return live != t->n || seen != t->n;
}

static void test_against_array(void)
{
	enum { NKEYS = 3000 };
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 9);
	for (int scheme = 0; scheme < 4; scheme++) {
		int value[NKEYS], bad = 0;
		for (int k = 0; k < NKEYS; k++)
			value[k] = -1;
		struct cmn_htab t;
		cmn_htab_init(&t, sizeof(struct item));
		CU_ASSERT_PTR_NULL(cmn_htab_find(&t, 1, match, &(int){1}));
		int steps = scheme == 2 ? 3000 : 20000; /* one chain: quadratic */
		for (int step = 0; step < steps && !bad; step++) {
			int k = (int)gsl_rng_uniform_int(rng, scheme == 2 ? 600 : NKEYS);
			uint64_t h = hash_of(scheme, k);
			if (gsl_rng_uniform(rng) < 0.65) {
				int added;
				struct item *x = cmn_htab_put(&t, h, match, &k, &added);
				bad = !x || added != (value[k] < 0);
				if (x) {
					x->key = k;
					x->value = value[k] = step;
				}
			} else {
				struct item *x = cmn_htab_find(&t, h, match, &k);
				bad = (x != NULL) != (value[k] >= 0);
				if (x)
					cmn_htab_del(&t, x);
				value[k] = -1;
			}
			if (step % 97 == 0 || step == steps - 1)
				bad |= check(&t, scheme, value, scheme == 2 ? 600 : NKEYS);
		}
		CU_ASSERT_EQUAL(bad, 0);
		CU_ASSERT(t.cap >= 1024 && 2 * t.n <= t.cap);
		cmn_htab_free(&t);
		CU_ASSERT_EQUAL(t.n, 0);
	}
	gsl_rng_free(rng);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("hash table", NULL, NULL);
	CU_add_test(s, "against an array, colliding hashes", test_against_array);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

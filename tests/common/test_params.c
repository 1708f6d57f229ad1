/* Parameter specifications: defaults, ranges, choices, unknown and repeated
 * keys, required keys, registry misses, the effective-value echo. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../helpers.h"
#include "number.h"
#include "params.h"

static const struct cmn_param_def defs[] = {
    {"n", CMN_PT_INT, "4", 1, 10, NULL, "an integer"},
    {"x", CMN_PT_DOUBLE, "0.5", 0, 1, NULL, "a real"},
    {"mode", CMN_PT_CHOICE, "a", 0, 0, "a|bb|c", "a word"},
    {"must", CMN_PT_INT, NULL, 0, 100, NULL, "required"},
    {NULL},
};

static void test_parse(void)
{
	struct cmn_params p;
	struct cmn_err e;
	CU_ASSERT_EQUAL_FATAL(cmn_params_parse(defs, "must=3", &p, &e), 0);
	CU_ASSERT_EQUAL(cmn_params_num(&p, "n"), 4);
	CU_ASSERT_EQUAL(cmn_params_num(&p, "x"), 0.5);
	CU_ASSERT_STRING_EQUAL(cmn_params_str(&p, "mode"), "a");
	char buf[256];
	CU_ASSERT_EQUAL_FATAL(cmn_params_parse(defs, "mode=bb,must=7,x=1,n=10", &p, &e), 0);
	cmn_params_format("t", &p, buf, sizeof buf);
	CU_ASSERT_STRING_EQUAL(buf, "t:n=10,x=1,mode=bb,must=7");
	static const char *const bad[][2] = {
	    {"", "must is required"},
	    {"must=3,n=11", "outside"},
	    {"must=3,n=2.5", "not an integer"},
	    {"must=3,x=abc", "not a finite number"},
	    {"must=3,mode=b", "not one of"},
	    {"must=3,y=1", "unknown parameter 'y'"},
	    {"must=3,must=4", "given twice"},
	    {"must", "has no '=value'"},
	    {"must=3,x=inf", "not a finite"},
	    /* the shape of the list: every item key=value, nothing empty */
	    {"must=3,", "parameter 2 is empty (a trailing ',')"},
	    {"must=3,,n=4", "parameter 2 is empty (a doubled ',')"},
	    {",must=3", "parameter 1 is empty (a leading ',')"},
	    {",", "parameter 1 is empty"},
	    {"must=3,=4", "parameter 2 '=4' has no key"},
	    {"=", "parameter 1 '=' has no key"},
	    {"must=", "parameter must: empty value"},
	    {"must=3,mode=", "parameter mode: empty value"},
	    {"must=3,x=", "parameter x: empty value"},
	    /* integers are decimal digits, the whole value */
	    {"must=1e3", "'1e3' is not an integer"},
	    {"must=4.0", "'4.0' is not an integer"},
	    {"must= 4", "' 4' is not an integer"},
	    {"must=4 ", "'4 ' is not an integer"},
	    {"must=4abc", "'4abc' is not an integer"},
	    {"must=0x10", "'0x10' is not an integer"},
	    {"must=+-4", "not an integer"},
	    {"must=-", "not an integer"},
	    {"must=99999999999999999999", "99999999999999999999 is outside [0, 100]"},
	    {"must=-1", "-1 is outside [0, 100]"},
	    /* reals: finite, decimal notation */
	    {"must=3,x=nan", "'nan' is not a finite number"},
	    {"must=3,x=-inf", "not a finite number"},
	    {"must=3,x=1e999", "1e999 is outside [0, 1]"},
	    {"must=3,x=0x1p-1", "not a finite number"},
	    {"must=3,x= 0.5", "not a finite number"},
	    {"must=3,x=0.5x", "not a finite number"},
	    {"must=3,x=1e", "not a finite number"},
	    {"must=3,x=.", "not a finite number"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		CU_ASSERT_EQUAL(cmn_params_parse(defs, bad[i][0], &p, &e), CMN_EUSAGE);
		if (!strstr(e.msg, bad[i][1]))
			fprintf(stderr, "\n  '%s': '%s', not '%s'\n", bad[i][0], e.msg, bad[i][1]);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, bad[i][1]));
	}
	/* what is accepted: the range's ends, signs, reals in every notation */
	CU_ASSERT_EQUAL_FATAL(cmn_params_parse(defs, "must=+100,n=01,x=.5e0", &p, &e), 0);
	CU_ASSERT_EQUAL(cmn_params_num(&p, "must"), 100);
	CU_ASSERT_EQUAL(cmn_params_num(&p, "n"), 1);
	CU_ASSERT_EQUAL(cmn_params_num(&p, "x"), 0.5);
	CU_ASSERT_EQUAL(cmn_params_parse(defs, "must=0,x=1.", &p, &e), 0);
	CU_ASSERT_EQUAL(cmn_params_parse(defs, "must=0,x=-0", &p, &e), 0);
}

/* number.h: the strict forms, lists and option messages. */
static void test_numbers(void)
{
	long long i = 0;
	double x = 0;
	static const char *const ints_ok[] = {"0", "-7", "+7", "007", "9223372036854775807"};
	for (size_t k = 0; k < sizeof ints_ok / sizeof *ints_ok; k++)
		CU_ASSERT_EQUAL(cmn_num_int(ints_ok[k], LLONG_MIN, LLONG_MAX, &i), CMN_NUM_OK);
	static const char *const ints_bad[] = {"",    " 1",  "1 ", "1e3", "4.0", "0x10",
	                                       "1_0", "++1", "-",  "nan", "inf", "4abc"};
	for (size_t k = 0; k < sizeof ints_bad / sizeof *ints_bad; k++)
		CU_ASSERT_EQUAL(cmn_num_int(ints_bad[k], LLONG_MIN, LLONG_MAX, &i), CMN_NUM_SYNTAX);
	CU_ASSERT_EQUAL(cmn_num_int("9223372036854775808", LLONG_MIN, LLONG_MAX, &i),
	                CMN_NUM_RANGE);
	CU_ASSERT_EQUAL(cmn_num_int("-99999999999999999999", 0, 10, &i), CMN_NUM_RANGE);
	CU_ASSERT_EQUAL(cmn_num_int("11", 0, 10, &i), CMN_NUM_RANGE);
	static const char *const reals_ok[] = {"0",    "-0",      ".5",       "5.",
	                                       "1e-6", "-2.5E+3", "2.3e-308", "0e-400"};
	for (size_t k = 0; k < sizeof reals_ok / sizeof *reals_ok; k++)
		CU_ASSERT_EQUAL(cmn_num_real(reals_ok[k], -1e300, 1e300, &x), CMN_NUM_OK);
	/* below the normal doubles: a subnormal, or 0 by underflow (SimGrid aborts
	 * on them; no quantity needs them) */
	static const char *const reals_tiny[] = {"1e-400", "1e-320", "-4e-310", "0.00001e-305"};
	for (size_t k = 0; k < sizeof reals_tiny / sizeof *reals_tiny; k++)
		CU_ASSERT_EQUAL(cmn_num_real(reals_tiny[k], -1e300, 1e300, &x), CMN_NUM_RANGE);
	static const char *const reals_bad[] = {"",      " 1",  "1 ",  "0x1p3", "inf",
	                                        "nan",   "1e",  "1e+", ".",     "e5",
	                                        "1.5.2", "--1", "1,5", "1e5x",  "infinity"};
	for (size_t k = 0; k < sizeof reals_bad / sizeof *reals_bad; k++)
		CU_ASSERT_EQUAL(cmn_num_real(reals_bad[k], -1e300, 1e300, &x), CMN_NUM_SYNTAX);
	CU_ASSERT_EQUAL(cmn_num_real("1e999", -HUGE_VAL, HUGE_VAL, &x), CMN_NUM_RANGE);
	CU_ASSERT_EQUAL(cmn_num_real("-1e999", -HUGE_VAL, HUGE_VAL, &x), CMN_NUM_RANGE);
	/* lists: every item, none empty, at most max */
	long long v[4];
	int bad = 0;
	CU_ASSERT_EQUAL(cmn_num_int_list("16x8x2", 'x', 1, 64, v, 4, &bad), 3);
	CU_ASSERT(v[0] == 16 && v[1] == 8 && v[2] == 2);
	static const struct {
		const char *text;
		int bad;
	} lists[] = {{"", 1},     {"4x", 2},  {"x4", 1},    {"4xx4", 2},      {"4x 4", 2},
	             {"4x65", 2}, {"4x0", 2}, {"4x4.0", 2}, {"1x1x1x1x1x", 6}};
	for (size_t k = 0; k < sizeof lists / sizeof *lists; k++) {
		CU_ASSERT_EQUAL(cmn_num_int_list(lists[k].text, 'x', 1, 64, v, 4, &bad), -1);
		CU_ASSERT_EQUAL(bad, lists[k].bad);
	}
	CU_ASSERT_EQUAL(cmn_num_int_list("1x1x1x1x1", 'x', 1, 64, v, 4, &bad), -2);
	double r[3];
	CU_ASSERT_EQUAL(cmn_num_real_list("1/0.5/.25", '/', 0, 1, r, 3, &bad), 3);
	CU_ASSERT(r[2] == 0.25);
	CU_ASSERT_EQUAL(cmn_num_real_list("1/0.5/", '/', 0, 1, r, 3, &bad), -1);
	CU_ASSERT_EQUAL(bad, 3);
	/* options: the message names the option, the text and the range */
	struct cmn_err e;
	CU_ASSERT_EQUAL(cmn_opt_int("--first", "-5", 1, 1000, &i, &e), CMN_EUSAGE);
	CU_ASSERT_STRING_EQUAL(e.msg, "--first: '-5' is not an integer in [1, 1000]");
	CU_ASSERT_EQUAL(cmn_opt_real("--load", "nan", 0, 1, &x, &e), CMN_EUSAGE);
	CU_ASSERT_STRING_EQUAL(e.msg, "--load: 'nan' is not a number in [0, 1]");
	CU_ASSERT_EQUAL(cmn_opt_real_pos("--until", "0", 1e12, &x, &e), CMN_EUSAGE);
	CU_ASSERT_STRING_EQUAL(e.msg, "--until: '0' is not a number in (0, 1e+12]");
	CU_ASSERT_EQUAL(cmn_opt_real_pos("--until", "2.5", 1e12, &x, &e), 0);
	CU_ASSERT_EQUAL(x, 2.5);
}

/* cmn_registry_help of a registry and a kind, for th_capture. */
struct help_of {
	const void *const *registry;
	const char *kind;
};

static void write_registry_help(FILE *f, const void *ctx)
{
	const struct help_of *h = ctx;
	cmn_registry_help(f, h->registry, h->kind);
}

static void test_registry(void)
{
	static const struct cmn_plugin one = {"one", "first", defs, NULL};
	static const struct cmn_plugin two = {"two", "second", NULL, NULL};
	const void *const reg[] = {&one, &two, NULL};
	struct cmn_err e;
	const void *ops;
	struct cmn_params p;
	CU_ASSERT_EQUAL(cmn_spec_resolve(reg, "two", "thing", &ops, &p, &e), 0);
	CU_ASSERT_PTR_EQUAL(ops, &two);
	CU_ASSERT_EQUAL(cmn_spec_resolve(reg, "tw", "thing", &ops, &p, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "unknown thing 'tw' (known: one, two)"));
	CU_ASSERT_EQUAL(cmn_spec_resolve(reg, "one:must=1", "thing", &ops, &p, &e), 0);
	CU_ASSERT_EQUAL(cmn_spec_resolve(reg, "one:must=x", "thing", &ops, &p, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "thing 'one:must=x': parameter must"));
	CU_ASSERT_EQUAL(cmn_spec_resolve(reg, ":x", "thing", &ops, &p, &e), CMN_EUSAGE);
	CU_ASSERT_EQUAL(cmn_spec_resolve(reg, "one:", "thing", &ops, &p, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "thing 'one:': no parameters after ':'"));
	CU_ASSERT_EQUAL(cmn_spec_resolve(reg, "one:must=1,", "thing", &ops, &p, &e), CMN_EUSAGE);
	CU_ASSERT_PTR_NOT_NULL(
	    strstr(e.msg, "thing 'one:must=1,': parameter 2 is empty (a trailing ',')"));
	/* the help's heading: the kind's plural */
	const char *kinds[][2] = {{"policy", "policies:\n"},
	                          {"run-time model", "run-time models:\n"},
	                          {"family", "families:\n"},
	                          {"key", "keys:\n"}};
	for (int k = 0; k < 4; k++) {
		struct help_of h = {reg, kinds[k][0]};
		char *text = th_capture(write_registry_help, &h);
		CU_ASSERT_PTR_NOT_NULL_FATAL(text);
		CU_ASSERT_EQUAL(strncmp(text, kinds[k][1], strlen(kinds[k][1])), 0);
		free(text);
	}
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("params", NULL, NULL);
	CU_add_test(s, "parse, defaults, ranges, echo", test_parse);
	CU_add_test(s, "registry lookup", test_registry);
	CU_add_test(s, "strict numbers, lists, option values", test_numbers);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

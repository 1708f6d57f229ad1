/* Parameter specifications: defaults, ranges, choices, unknown and repeated
 * keys, required keys, registry misses, the effective-value echo. */
#include <string.h>

#include "../helpers.h"
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
	    {"", "must is required"},           {"must=3,n=11", "outside"},
	    {"must=3,n=2.5", "not an integer"}, {"must=3,x=abc", "not a finite number"},
	    {"must=3,mode=b", "not one of"},    {"must=3,y=1", "unknown parameter 'y'"},
	    {"must=3,must=4", "given twice"},   {"must", "has no '=value'"},
	    {"must=3,x=inf", "not a finite"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		CU_ASSERT_EQUAL(cmn_params_parse(defs, bad[i][0], &p, &e), CMN_EUSAGE);
		CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, bad[i][1]));
	}
}

static void test_registry(void)
{
	static const struct cmn_plugin one = {"one", "first", defs};
	static const struct cmn_plugin two = {"two", "second", NULL};
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
	CU_ASSERT_PTR_NOT_NULL(strstr(e.msg, "thing 'one': parameter must"));
	CU_ASSERT_EQUAL(cmn_spec_resolve(reg, ":x", "thing", &ops, &p, &e), CMN_EUSAGE);
}

static void add_suites(void)
{
	CU_pSuite s = CU_add_suite("params", NULL, NULL);
	CU_add_test(s, "parse, defaults, ranges, echo", test_parse);
	CU_add_test(s, "registry lookup", test_registry);
}

int main(int argc, char **argv)
{
	return th_main(argc, argv, add_suites);
}

/* What the coupling tests share (cpl_helpers.h). */
#include "cpl_helpers.h"
#include "../helpers.h"

struct cpl_profiles *cpl_test_profiles(const char *kvs)
{
	static const struct cmn_param_def defs[] = {CPL_PROFILE_PARAMS, {NULL}};
	struct cmn_params p;
	struct cpl_profiles *pr = NULL;
	struct cmn_err e;
	CU_ASSERT_FATAL(cmn_params_parse(defs, kvs, &p, &e) == 0);
	CU_ASSERT_FATAL(cpl_profiles_create(&p, "test", &pr, &e) == 0);
	return pr;
}

/* What the coupling tests share. */
#ifndef TEST_CPL_HELPERS_H
#define TEST_CPL_HELPERS_H

#include "../../coupling/profiles/jobprof.h"

/* Profiles of the given parameters (jobprof.h's keys; kernel 0 first). */
struct cpl_profiles *cpl_test_profiles(const char *kvs);

#endif

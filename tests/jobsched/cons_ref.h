/* The reference conservative scheduler of the tests (cons_ref.c). */
#ifndef CONS_REF_H
#define CONS_REF_H

#include "../../jobsched/sched/sched.h"

extern const struct js_sched_ops cons_ref_ops;

#endif

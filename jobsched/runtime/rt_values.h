/* A run-time model's own per-job values: the columns its ops declare
 * (runtime.h: columns), kept by the core in the run's result and written to
 * the per-job CSV (metrics.c) without the core knowing what they mean. A
 * model sets them through the sim (js_sim_set_value, js_sim_set_text);
 * the core never names a model's value. */
#ifndef JS_RT_VALUES_H
#define JS_RT_VALUES_H

#include <stddef.h>

#include "../../common/err.h"

/* One column a model declares (a NULL-terminated array in its ops). */
struct js_rt_column {
	const char *name; /* the per-job CSV column: [a-z0-9_]+ */
	int text;         /* 1: a short text, 0: a number */
	const char *help; /* what it holds (README, --help) */
};

/* The values of one run: n jobs by ncols columns, unset until the model
 * sets them (a number NAN, a text ""). */
struct js_rt_values {
	const struct js_rt_column *cols; /* the model's; NULL: none */
	int ncols;
	size_t n;
	double *num; /* n x ncols */
	size_t *off; /* n x ncols: a text's offset in text, SIZE_MAX unset */
	char *text;  /* NUL-separated texts */
	size_t text_len, text_cap;
};

/* Sized for n jobs and the columns cols (NULL: none); 0 or CMN_ENOMEM. */
int js_rt_values_init(struct js_rt_values *v, const struct js_rt_column *cols, size_t n,
                      struct cmn_err *e);
void js_rt_values_free(struct js_rt_values *v);
/* The index of the column named name, or -1. */
int js_rt_values_col(const struct js_rt_values *v, const char *name);
/* Job j's value in column c (NAN, "" when unset or c < 0). */
double js_rt_values_num(const struct js_rt_values *v, size_t j, int c);
const char *js_rt_values_text(const struct js_rt_values *v, size_t j, int c);
void js_rt_values_set_num(struct js_rt_values *v, size_t j, int c, double x);
/* 0, or -1 out of memory. */
int js_rt_values_set_text(struct js_rt_values *v, size_t j, int c, const char *t);

#endif

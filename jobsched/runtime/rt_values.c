/* A run-time model's per-job values (rt_values.h). */
#include "rt_values.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int js_rt_values_init(struct js_rt_values *v, const struct js_rt_column *cols, size_t n,
                      struct cmn_err *e)
{
	memset(v, 0, sizeof *v);
	v->cols = cols;
	while (cols && cols[v->ncols].name)
		v->ncols++;
	v->n = n;
	size_t cells = n * (size_t)v->ncols;
	if (!cells)
		return 0;
	v->num = malloc(cells * sizeof *v->num);
	v->off = malloc(cells * sizeof *v->off);
	if (!v->num || !v->off) {
		js_rt_values_free(v);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory (the model's per-job values)");
	}
	for (size_t i = 0; i < cells; i++) {
		v->num[i] = NAN;
		v->off[i] = SIZE_MAX;
	}
	return 0;
}

void js_rt_values_free(struct js_rt_values *v)
{
	free(v->num);
	free(v->off);
	free(v->text);
	memset(v, 0, sizeof *v);
}

int js_rt_values_col(const struct js_rt_values *v, const char *name)
{
	for (int c = 0; c < v->ncols; c++)
		if (strcmp(v->cols[c].name, name) == 0)
			return c;
	return -1;
}

double js_rt_values_num(const struct js_rt_values *v, size_t j, int c)
{
	return c >= 0 && c < v->ncols && j < v->n ? v->num[j * (size_t)v->ncols + (size_t)c] : NAN;
}

const char *js_rt_values_text(const struct js_rt_values *v, size_t j, int c)
{
	if (c < 0 || c >= v->ncols || j >= v->n)
		return "";
	size_t off = v->off[j * (size_t)v->ncols + (size_t)c];
	return off == SIZE_MAX ? "" : v->text + off;
}

void js_rt_values_set_num(struct js_rt_values *v, size_t j, int c, double x)
{
	if (c >= 0 && c < v->ncols && j < v->n)
		v->num[j * (size_t)v->ncols + (size_t)c] = x;
}

int js_rt_values_set_text(struct js_rt_values *v, size_t j, int c, const char *t)
{
	if (c < 0 || c >= v->ncols || j >= v->n)
		return 0;
	size_t len = strlen(t) + 1;
	size_t *off = &v->off[j * (size_t)v->ncols + (size_t)c];
	if (*off != SIZE_MAX && strcmp(v->text + *off, t) == 0)
		return 0; /* the same again: no copy */
	if (v->text_len + len > v->text_cap) {
		size_t cap = v->text_cap ? v->text_cap : 4096;
		while (cap < v->text_len + len)
			cap *= 2;
		char *p = realloc(v->text, cap);
		if (!p)
			return -1;
		v->text = p;
		v->text_cap = cap;
	}
	memcpy(v->text + v->text_len, t, len);
	*off = v->text_len;
	v->text_len += len;
	return 0;
}

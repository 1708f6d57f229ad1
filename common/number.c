/* Strict numbers from text (number.h). */
#include "number.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Past an optional sign and a run of digits; *count gets the digits. */
static const char *skip_digits(const char *p, int sign, int *count)
{
	if (sign && (*p == '+' || *p == '-'))
		p++;
	*count = 0;
	while (is_digit(*p))
		p++, ++*count;
	return p;
}

int cmn_num_int(const char *text, long long lo, long long hi, long long *out)
{
	int digits;
	const char *p = skip_digits(text, 1, &digits);
	if (!digits || *p)
		return CMN_NUM_SYNTAX;
	errno = 0;
	long long v = strtoll(text, NULL, 10);
	if (errno == ERANGE || v < lo || v > hi)
		return CMN_NUM_RANGE;
	*out = v;
	return CMN_NUM_OK;
}

int cmn_num_real(const char *text, double lo, double hi, double *out)
{
	int digits, more = 0;
	const char *p = skip_digits(text, 1, &digits);
	if (*p == '.')
		p = skip_digits(p + 1, 0, &more);
	if (digits + more == 0)
		return CMN_NUM_SYNTAX;
	if (*p == 'e' || *p == 'E') {
		p = skip_digits(p + 1, 1, &more);
		if (!more)
			return CMN_NUM_SYNTAX;
	}
	if (*p)
		return CMN_NUM_SYNTAX;
	double v = strtod(text, NULL); /* only decimal notation gets here */
	if (!isfinite(v) || v < lo || v > hi || cmn_num_tiny(text, v))
		return CMN_NUM_RANGE;
	*out = v;
	return CMN_NUM_OK;
}

int cmn_num_tiny(const char *text, double v)
{
	if (v != 0)
		return fabs(v) < DBL_MIN;
	for (const char *p = text; *p && *p != 'e' && *p != 'E'; p++)
		if (*p >= '1' && *p <= '9')
			return 1; /* a value that underflowed to 0 */
	return 0;
}

/* Calls item(text, i, ctx) for each item of a sep-joined list, i = -1 for
 * those beyond max (checked, not stored). */
static int walk_list(const char *text, char sep, int max, int *bad,
                     int (*item)(const char *s, int i, void *ctx), void *ctx)
{
	int n = 0;
	for (;; n++) {
		const char *q = strchr(text, sep);
		size_t len = q ? (size_t)(q - text) : strlen(text);
		char buf[64];
		int ok = len > 0 && len < sizeof buf;
		if (ok) {
			memcpy(buf, text, len);
			buf[len] = '\0';
			ok = item(buf, n < max ? n : -1, ctx) == CMN_NUM_OK;
		}
		if (!ok) {
			if (bad)
				*bad = n + 1;
			return -1;
		}
		if (!q)
			break;
		text = q + 1;
	}
	return n < max ? n + 1 : -2;
}

struct int_items {
	long long lo, hi, *out;
};

static int int_item(const char *s, int i, void *ctx)
{
	struct int_items *c = ctx;
	long long v;
	int st = cmn_num_int(s, c->lo, c->hi, &v);
	if (st == CMN_NUM_OK && i >= 0)
		c->out[i] = v;
	return st;
}

int cmn_num_int_list(const char *text, char sep, long long lo, long long hi, long long *out,
                     int max, int *bad)
{
	struct int_items c = {lo, hi, out};
	return walk_list(text, sep, max, bad, int_item, &c);
}

struct real_items {
	double lo, hi, *out;
};

static int real_item(const char *s, int i, void *ctx)
{
	struct real_items *c = ctx;
	double v;
	int st = cmn_num_real(s, c->lo, c->hi, &v);
	if (st == CMN_NUM_OK && i >= 0)
		c->out[i] = v;
	return st;
}

int cmn_num_real_list(const char *text, char sep, double lo, double hi, double *out, int max,
                      int *bad)
{
	struct real_items c = {lo, hi, out};
	return walk_list(text, sep, max, bad, real_item, &c);
}

int cmn_opt_int(const char *opt, const char *text, long long lo, long long hi, long long *out,
                struct cmn_err *e)
{
	if (cmn_num_int(text, lo, hi, out) != CMN_NUM_OK)
		return cmn_err_set(e, CMN_EUSAGE, "%s: '%s' is not an integer in [%lld, %lld]", opt,
		                   text, lo, hi);
	return 0;
}

int cmn_opt_real(const char *opt, const char *text, double lo, double hi, double *out,
                 struct cmn_err *e)
{
	if (cmn_num_real(text, lo, hi, out) != CMN_NUM_OK)
		return cmn_err_set(e, CMN_EUSAGE, "%s: '%s' is not a number in [%g, %g]", opt, text,
		                   lo, hi);
	return 0;
}

int cmn_opt_real_pos(const char *opt, const char *text, double hi, double *out, struct cmn_err *e)
{
	double v;
	if (cmn_num_real(text, 0, hi, &v) != CMN_NUM_OK || v == 0)
		return cmn_err_set(e, CMN_EUSAGE, "%s: '%s' is not a number in (0, %g]", opt, text,
		                   hi);
	*out = v;
	return 0;
}

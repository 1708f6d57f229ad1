/* The numbers of a trace's fields and their limits (trace_values.h). */
#include "trace_values.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "trace_args.h"

#define MAX_U53 (UINT64_C(1) << 53)

/* A decimal number as written: 0.d1 d2 d3 ... x 10^e10, d1 != 0 (or zero). */
struct dec {
	int neg;
	int nsig;     /* significant digits kept in sig (at most 17) */
	char sig[17]; /* the first significant digits */
	long last_nz; /* 1-based position of the last non-zero significant digit; 0: zero */
	long e10;
};

/* Scans s ([-+]? only when sign, digits with at most one '.', an optional
 * exponent); 0 if it is not such a number. */
static int dec_scan(const char *s, int sign, struct dec *d)
{
	*d = (struct dec){0};
	const char *p = s;
	if (sign && (*p == '-' || *p == '+'))
		d->neg = *p++ == '-';
	else if (*p == '-')
		d->neg = 1, p++; /* scanned, so that callers can say "negative" */
	long ndig = 0, n = 0;
	int point = 0, started = 0;
	for (;; p++) {
		if (*p == '.' && !point) {
			point = 1;
			continue;
		}
		if (*p < '0' || *p > '9')
			break;
		ndig++;
		if (!started && *p == '0') {
			if (point)
				d->e10--;
			continue;
		}
		started = 1;
		n++;
		if (!point)
			d->e10++;
		if (n <= (long)sizeof d->sig)
			d->sig[d->nsig++] = *p;
		if (*p != '0')
			d->last_nz = n;
	}
	if (ndig == 0)
		return 0;
	if (*p == 'e' || *p == 'E') {
		p++;
		int eneg = 0;
		if (*p == '-' || *p == '+')
			eneg = *p++ == '-';
		long x = 0, edig = 0;
		for (; *p >= '0' && *p <= '9'; p++, edig++)
			if (x < 100000000)
				x = x * 10 + (*p - '0');
		if (edig == 0)
			return 0;
		d->e10 += eneg ? -x : x;
	}
	return *p == '\0';
}

/* The status of d against max (<= 2^53), and its integer part in *ip. */
static int dec_judge(const struct dec *d, uint64_t max, int whole, uint64_t *ip)
{
	*ip = 0;
	if (d->neg)
		return TN_NEGATIVE;
	if (!d->last_nz)
		return TN_OK;
	if (d->e10 > 16) /* at least 10^16 > 2^53 */
		return TN_RANGE;
	int frac = d->last_nz > d->e10;
	for (long i = 0; i < d->e10; i++)
		*ip = *ip * 10 + (uint64_t)(i < d->nsig ? d->sig[i] - '0' : 0);
	if (*ip > max || (*ip == max && frac))
		return TN_RANGE;
	return whole && frac ? TN_FRACTION : TN_OK;
}

int trace_num_count(const char *s, uint64_t max, double *v)
{
	struct dec d;
	uint64_t ip;
	*v = 0;
	if (!dec_scan(s, 0, &d))
		return TN_SYNTAX;
	int st = dec_judge(&d, max, 1, &ip);
	if (st == TN_OK)
		*v = (double)ip;
	return st;
}

int trace_num_amount(const char *s, double max, double *v)
{
	struct dec d;
	uint64_t ip;
	*v = 0;
	if (!dec_scan(s, 0, &d))
		return TN_SYNTAX;
	int st = dec_judge(&d, (uint64_t)max, 0, &ip);
	if (st == TN_OK)
		*v = strtod(s, NULL); /* plain decimal, in range: as written, rounded */
	return st;
}

int trace_num_decimal(const char *s, double *v)
{
	struct dec d;
	*v = 0;
	if (!dec_scan(s, 1, &d))
		return TN_SYNTAX;
	*v = strtod(s, NULL);
	return isfinite(*v) ? TN_OK : TN_RANGE;
}

int trace_num_index(const char *s, long max, long *v)
{
	*v = 0;
	if (!*s)
		return TN_SYNTAX;
	for (const char *p = s; *p; p++)
		if (*p < '0' || *p > '9')
			return *p == '-' && p == s ? TN_NEGATIVE : TN_SYNTAX;
	for (const char *p = s; *p; p++) {
		if (*v > max / 10 || *v * 10 > max - (*p - '0'))
			return TN_RANGE;
		*v = *v * 10 + (*p - '0');
	}
	return TN_OK;
}

const char *trace_num_why(int status)
{
	switch (status) {
	case TN_SYNTAX: return "is not a decimal number";
	case TN_NEGATIVE: return "is negative";
	case TN_FRACTION: return "is not a whole number";
	case TN_RANGE: return "is more than " TRACE_MAX_VALUE_TEXT;
	default: return "is fine";
	}
}

/* Reports field `field` of action k of rank r: "... <field> <what>". */
static int beyond(const struct trace *t, int r, long k, int field, const char *what,
                  struct cmn_err *e)
{
	const struct trace_action *a = &t->act[k];
	char name[64];
	return cmn_err_set(e, CMN_EINPUT, "%s:%u: error: rank %d: %s: %s %s",
	                   t->files[r] ? t->files[r] : t->name, a->line, r, trace_op_name(a->op),
	                   trace_arg_name(a->op, field, name, sizeof name), what);
}

/* Bytes of count units of datatype dt (TR_NO_DT: the rank's default). */
static uint64_t bytes_of(const struct trace *t, int r, int dt, uint64_t count)
{
	return count * (uint64_t)trace_dt_size(dt == TR_NO_DT ? t->dt_default[r] : dt);
}

/* The sum of a count list, or MAX_U53 + 1 once it passes 2^53. */
static uint64_t list_sum(const int64_t *cv, int n)
{
	uint64_t sum = 0;
	for (int i = 0; i < n && sum <= MAX_U53; i++)
		sum += cv[i] >= 0 && (uint64_t)cv[i] <= MAX_U53 ? (uint64_t)cv[i] : MAX_U53 + 1;
	return sum > MAX_U53 ? MAX_U53 + 1 : sum;
}

/* Checks action k of rank r: with why NULL the limits of trace_values.h,
 * else that every count and every list's sum is at most maxc units (why
 * says whose limit it is). */
static int check_action(const struct trace *t, int r, long k, uint64_t maxc, const char *why,
                        struct cmn_err *e)
{
	const struct trace_action *a = &t->act[k];
	int field = 0, nv = 0;
	char what[300];
	for (const char *p = trace_arg_layout[a->op]; *p && *p != '|'; p++, field++) {
		int dt = *p == 'A' || *p == 'V' ? a->dt1 : a->dt2;
		if (*p == 'A' || *p == 'B') {
			double c = *p == 'A' ? a->a : a->b;
			if (!(c >= 0 && c <= TRACE_MAX_VALUE && c == floor(c))) {
				snprintf(what, sizeof what, "%.17g is not a whole number 0..%s", c,
				         TRACE_MAX_VALUE_TEXT);
				return beyond(t, r, k, field, what, e);
			}
			uint64_t b = why ? (uint64_t)c : bytes_of(t, r, dt, (uint64_t)c);
			if (b > (why ? maxc : MAX_U53)) {
				if (why)
					snprintf(what, sizeof what, "%.0f is more than %llu: %s", c,
					         (unsigned long long)maxc, why);
				else
					snprintf(what, sizeof what,
					         "%.0f is %llu bytes, more than %s", c,
					         (unsigned long long)b, TRACE_MAX_VALUE_TEXT);
				return beyond(t, r, k, field, what, e);
			}
		} else if ((*p == 'G' || *p == 'F') && !why) {
			double x = *p == 'G' ? a->a : a->b;
			if (!(x >= 0 && x <= TRACE_MAX_VALUE)) {
				snprintf(what, sizeof what, "%.17g is %s %s", x,
				         x > 0 ? "more than" : "not a number 0..",
				         TRACE_MAX_VALUE_TEXT);
				return beyond(t, r, k, field, what, e);
			}
		} else if (*p == 'V' || *p == 'W') {
			uint64_t sum =
			    list_sum(t->counts + a->aux + (long)nv++ * t->nranks, t->nranks);
			if (!why && sum <= MAX_U53)
				sum = bytes_of(t, r, dt, sum);
			if (sum > (why ? maxc : MAX_U53)) {
				if (why)
					snprintf(what, sizeof what, "sum to more than %llu: %s",
					         (unsigned long long)maxc, why);
				else
					snprintf(what, sizeof what, "sum to more than %s bytes",
					         TRACE_MAX_VALUE_TEXT);
				return beyond(t, r, k, field, what, e);
			}
		}
	}
	return 0;
}

static int check_all(const struct trace *t, uint64_t maxc, const char *why, struct cmn_err *e)
{
	for (int r = 0; r < t->nranks; r++)
		for (long k = t->first[r]; k < t->first[r + 1]; k++)
			if (check_action(t, r, k, maxc, why, e))
				return e->code;
	return 0;
}

int trace_check_limits(const struct trace *t, struct cmn_err *e)
{
	return check_all(t, MAX_U53, NULL, e);
}

int trace_check_counts(const struct trace *t, uint64_t max, const char *why, struct cmn_err *e)
{
	return check_all(t, max, why, e);
}

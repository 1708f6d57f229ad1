/* One SWF data line: 18 decimal numbers, each checked against what its
 * field can hold (integers where the definition counts or names things,
 * times within 10^12 s and not lost when added to the submit time, values
 * doubles hold exactly, job numbers up to 64 bits), with -1 for unknown. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "swf_internal.h"

const char *const js_swf_field_names[JS_SWF_FIELDS] = {
    "job number",
    "submit time",
    "wait time",
    "run time",
    "allocated processors",
    "average CPU time",
    "used memory",
    "requested processors",
    "requested time",
    "requested memory",
    "status",
    "user id",
    "group id",
    "executable number",
    "queue number",
    "partition number",
    "preceding job number",
    "think time",
};

/* What a field holds: a job number (exact to 64 bits), a time in seconds
 * (real), a count or an identifier (integer), an amount of memory (real,
 * an average per processor), or a status (any integer: codes outside the
 * definition are kept and counted by the reader). */
enum fkind { K_JOB, K_TIME, K_COUNT, K_MEM, K_STATUS, K_ID };

static const struct {
	enum fkind kind;
	unsigned char simulated; /* the simulation reads it: a negative value is an error */
} fields[JS_SWF_FIELDS] = {
    [JS_F_JOB] = {K_JOB, 1},           [JS_F_SUBMIT] = {K_TIME, 1},
    [JS_F_WAIT] = {K_TIME, 0},         [JS_F_RUN] = {K_TIME, 1},
    [JS_F_ALLOC_PROCS] = {K_COUNT, 1}, [JS_F_AVG_CPU] = {K_TIME, 0},
    [JS_F_USED_MEM] = {K_MEM, 0},      [JS_F_REQ_PROCS] = {K_COUNT, 1},
    [JS_F_REQ_TIME] = {K_TIME, 1},     [JS_F_REQ_MEM] = {K_MEM, 0},
    [JS_F_STATUS] = {K_STATUS, 0},     [JS_F_USER] = {K_ID, 0},
    [JS_F_GROUP] = {K_ID, 0},          [JS_F_EXE] = {K_ID, 0},
    [JS_F_QUEUE] = {K_ID, 0},          [JS_F_PARTITION] = {K_ID, 0},
    [JS_F_PRECEDING] = {K_JOB, 0},     [JS_F_THINK] = {K_TIME, 0},
};

#define TIME_MAX_S  JS_TIME_MAX_S
#define EXACT_MAX   JS_EXACT_MAX
#define STATUS_SPAN 2147483647.0

/* Powers of ten doubles hold exactly: dividing a mantissa below 2^53 by
 * one is correctly rounded. */
static const double p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                             1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* A token read as a decimal number. */
struct num {
	double v;
	int plain;    /* written as [+-]digits: mag is exact */
	int overflow; /* plain, but beyond 64 bits */
	uint64_t mag;
	int neg;
	int whole; /* the text's exact value is an integer (v may be rounded: 4.99999999999999999)
	            */
};

/* Reads s[0..len) as a decimal number ([+-]digits[.digits][e[+-]digits],
 * at least one digit before the exponent). Plain integers are kept exact;
 * decimals with at most 15 digits and no exponent take a correctly rounded
 * fast path (mantissa < 2^53 over a power of ten <= 10^22); the rest go
 * through strtod. -1 when the text is not such a number or is not finite. */
static int scan(const char *s, size_t len, struct num *n)
{
	memset(n, 0, sizeof *n);
	size_t i = 0;
	if (i < len && (s[i] == '-' || s[i] == '+'))
		n->neg = s[i++] == '-';
	int digits = 0, frac = 0, point = 0, expo = 0;
	size_t d_at = i;
	for (; i < len && isdigit((unsigned char)s[i]); i++, digits++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (n->mag > (UINT64_MAX - d) / 10)
			n->overflow = 1;
		else
			n->mag = n->mag * 10 + d;
	}
	if (i < len && s[i] == '.') {
		point = 1;
		for (i++; i < len && isdigit((unsigned char)s[i]); i++, frac++)
			;
	}
	if (digits + frac == 0)
		return -1;
	long ex = 0; /* the exponent, saturated */
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		expo = 1;
		i++;
		int eneg = i < len && s[i] == '-';
		if (i < len && (s[i] == '-' || s[i] == '+'))
			i++;
		size_t d0 = i;
		for (; i < len && isdigit((unsigned char)s[i]); i++)
			ex = ex < 100000000 ? ex * 10 + (s[i] - '0') : ex;
		if (i == d0)
			return -1;
		ex = eneg ? -ex : ex;
	}
	if (i != len)
		return -1;
	/* the exact value is an integer when the digits left after the point,
	 * once the exponent moved it and trailing zeros are dropped, are none */
	{
		long last = -1, at = 0; /* the last nonzero digit's place, counted from the first */
		for (size_t q = d_at; q < d_at + (size_t)digits + (size_t)point + (size_t)frac; q++)
			if (isdigit((unsigned char)s[q])) {
				if (s[q] != '0')
					last = at;
				at++;
			}
		n->whole = last < 0 || last + 1 - digits - ex <= 0;
	}
	if (!point && !expo) {
		n->plain = 1;
		n->v = n->overflow ? INFINITY : (double)n->mag;
		if (n->neg)
			n->v = -n->v;
		return 0;
	}
	if (!expo && digits + frac <= 15 && frac <= 22) {
		uint64_t m = 0;
		for (size_t k = 0; k < len; k++)
			if (isdigit((unsigned char)s[k]))
				m = m * 10 + (uint64_t)(s[k] - '0');
		double v = (double)m / p10[frac];
		n->v = n->neg ? -v : v;
		return 0;
	}
	char small[64], *buf = len < sizeof small ? small : malloc(len + 1); /* 100.000...0 */
	if (!buf)
		return -3;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	double v = strtod(buf, NULL);
	if (buf != small)
		free(buf);
	if (!isfinite(v))
		return -2;
	if (v == 0 && !n->whole) /* a nonzero value below the least double: not 0 */
		return -4;
	n->v = v;
	return 0;
}

static int field_error(struct cmn_err *e, int k, const char *tok, int len, const char *why)
{
	char shown[4 * 40 + 1]; /* non-printable bytes escaped (\f, \xEF) */
	js_escape(shown, sizeof shown, tok, (size_t)(len > 40 ? 40 : len));
	return cmn_err_set(e, CMN_EINPUT, "error: field %d (%s): '%s' %s", k + 1,
	                   js_swf_field_names[k], shown, why);
}

/* Checks one field's value against its kind; fills rec (and the job's
 * exact numbers). *neg is set for a negative value other than -1 kept. */
static int check_field(int k, const char *tok, int len, const struct num *n, struct js_job *j,
                       int *neg, struct cmn_err *e)
{
	enum fkind kind = fields[k].kind;
	double v = n->v;
	*neg = 0;
	if (v == -1 && n->whole && k != JS_F_JOB)
		goto store;
	if (kind != K_TIME && kind != K_MEM && !n->whole)
		return field_error(e, k, tok, len, "is not an integer");
	if (kind == K_JOB) {
		if (n->neg) /* -0 too: the sign says it is not a job's number */
			return field_error(
			    e, k, tok, len,
			    v == 0 ? "is not a job number (a non-negative integer, "
			             "without a minus sign)"
			    : k == JS_F_JOB
			        ? "is not a job number (a non-negative integer)"
			        : "is not a job number (a non-negative integer, or -1)");
		if (n->plain && n->overflow)
			return field_error(e, k, tok, len, "is beyond 64 bits");
		if (!n->plain && v >= EXACT_MAX) /* 9007199254740993.0 reads as 2^53 */
			return field_error(
			    e, k, tok, len,
			    "is beyond 2^53 in decimal notation: write it as digits");
		uint64_t id = n->plain ? n->mag : (uint64_t)v;
		if (k == JS_F_JOB)
			j->id = id;
		else
			j->preceding = id;
		goto store;
	}
	if (kind == K_STATUS) {
		if (v > STATUS_SPAN || v < -STATUS_SPAN - 1) /* int32_t's range */
			return field_error(e, k, tok, len, "is beyond the 32-bit status codes");
		goto store;
	}
	if (kind == K_TIME && fabs(v) > TIME_MAX_S)
		return field_error(e, k, tok, len, "is beyond 10^12 s");
	if (n->plain
	        ? n->overflow || n->mag > (1ULL << 53)
	        : fabs(v) > EXACT_MAX || (kind != K_TIME && kind != K_MEM && fabs(v) >= EXACT_MAX))
		return field_error(e, k, tok, len,
		                   "is beyond 2^53, where doubles stop being exact");
	if (v < 0) {
		if (fields[k].simulated)
			return field_error(e, k, tok, len,
			                   "is negative (only -1, unknown, is allowed)");
		*neg = 1;
	}
store:
	j->f[k] = v;
	return 0;
}

static int is_end(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\0';
}

/* The usual token read in one pass from p: [+-]digits with at most 18
 * digits, or [+-]digits.digits with at most 15, followed by a separator;
 * the same number scan() gives. Its end, or NULL for anything else (then
 * scan() reads it). */
static const char *quick(const char *p, struct num *n)
{
	int neg = *p == '-';
	if (neg || *p == '+')
		p++;
	uint64_t m = 0;
	const char *d0 = p;
	for (; (unsigned)(*p - '0') < 10; p++)
		m = m * 10 + (uint64_t)(*p - '0');
	long digits = p - d0, frac = -1;
	if (*p == '.') {
		const char *f0 = ++p;
		for (; (unsigned)(*p - '0') < 10; p++)
			m = m * 10 + (uint64_t)(*p - '0');
		frac = p - f0;
	}
	if (!is_end(*p) ||
	    (frac < 0 ? digits == 0 || digits > 18 : digits + frac == 0 || digits + frac > 15))
		return NULL;
	double v = frac < 0 ? (double)m : (double)m / p10[frac];
	/* at most 15 digits: the fraction is exact as a double's, so v is whole
	 * exactly when the text is */
	*n = (struct num){neg ? -v : v, frac < 0, 0, frac < 0 ? m : 0, neg, v == floor(v)};
	return p;
}

/* A positive run time or wait that adding to the submit time loses whole
 * (below the spacing of doubles there: 1.2e-4 s at 10^12 s) would make a
 * job of no time: an error, the data being lost. */
static int check_vanishing(const struct js_job *j, const char *const tok[], const int len[],
                           struct cmn_err *e)
{
	double submit = j->f[JS_F_SUBMIT];
	if (submit <= 0)
		return 0;
	static const int k[] = {JS_F_WAIT, JS_F_RUN};
	for (int i = 0; i < 2; i++) {
		double v = j->f[k[i]];
		if (v > 0 && submit + v == submit) {
			char why[200];
			snprintf(why, sizeof why,
			         "vanishes when added to the submit time %.*s s (doubles there "
			         "are %.3g s apart)",
			         len[JS_F_SUBMIT] > 40 ? 40 : len[JS_F_SUBMIT], tok[JS_F_SUBMIT],
			         nextafter(submit, INFINITY) - submit);
			return field_error(e, k[i], tok[k[i]], len[k[i]], why);
		}
	}
	return 0;
}

int js_swf_parse_line(char *line, struct js_job *j, unsigned *neg_fields, struct cmn_err *e)
{
	int nf = 0;
	const char *toks[JS_SWF_FIELDS] = {0};
	int lens[JS_SWF_FIELDS] = {0};
	char *p = line;
	*neg_fields = 0;
	j->preceding = 0;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (*p == '\0' || *p == '\n')
			break;
		char *tok = p;
		struct num n;
		const char *q = nf < JS_SWF_FIELDS ? quick(p, &n) : NULL;
		if (q)
			p += q - tok;
		else
			while (!is_end(*p))
				p++;
		if (nf < JS_SWF_FIELDS) {
			int len = (int)(p - tok);
			toks[nf] = tok;
			lens[nf] = len;
			int bad = q ? 0 : scan(tok, (size_t)len, &n);
			if (bad == -3)
				return cmn_err_set(e, CMN_ENOMEM, "out of memory");
			if (bad)
				return field_error(
				    e, nf, tok, len,
				    bad == -2   ? "is beyond the range of a double"
				    : bad == -4 ? "is below the least double (it would read as 0)"
				                : "is not a decimal number");
			int neg;
			int rc = check_field(nf, tok, len, &n, j, &neg, e);
			if (rc)
				return rc;
			if (neg)
				*neg_fields |= 1u << nf;
		}
		nf++;
	}
	if (nf != JS_SWF_FIELDS)
		return cmn_err_set(e, CMN_EINPUT, "error: expected %d fields, found %d",
		                   JS_SWF_FIELDS, nf);
	return check_vanishing(j, toks, lens, e);
}

/* What the fields of a TI trace may hold: the strict syntax of its numbers
 * (plain decimal: no hexadecimal, no "inf" or "nan", no sign but where a
 * negative number has a meaning, nothing trailing) and the limits every
 * trace obeys, in memory as in its files:
 *   - a count (message size, collective volume, each count of a v-list) is
 *     a whole number >= 0 written in decimal, an exponent allowed ("1e6",
 *     as SimGrid's examples write them), at most 2^53; in bytes (times its
 *     datatype's size; a v-list's counts summed) at most 2^53 too;
 *   - an amount (compute and reduction flops, sleep seconds) is a decimal
 *     number >= 0, fractional allowed ("1.30081e+06", as SMPI records
 *     them; SimGrid executes flops as doubles), at most 2^53;
 *   - ranks, tags, datatype ids and location lines are digits only.
 * 2^53 is the largest integer a double holds exactly, so sizes stay exact
 * through every sum and engine, and 64-bit sums of them cannot overflow. */
#ifndef TRACE_VALUES_H
#define TRACE_VALUES_H

#include <stdint.h>

#include "trace.h"

#define TRACE_MAX_VALUE      9007199254740992.0 /* 2^53: counts, bytes, amounts */
#define TRACE_MAX_VALUE_TEXT "2^53 (9007199254740992)"

enum trace_num {
	TN_OK,
	TN_SYNTAX,   /* not a decimal number */
	TN_NEGATIVE, /* negative */
	TN_FRACTION, /* not a whole number */
	TN_RANGE,    /* more than the maximum */
};

/* A count: a whole decimal number 0..max (max <= 2^53), exactly. */
int trace_num_count(const char *s, uint64_t max, double *v);
/* An amount: a decimal number 0..max, fraction allowed. */
int trace_num_amount(const char *s, double max, double *v);
/* Any finite decimal number, sign allowed (the arguments SimGrid ignores). */
int trace_num_decimal(const char *s, double *v);
/* Digits only, 0..max. */
int trace_num_index(const char *s, long max, long *v);
/* What a status says of a number ("is negative"), for messages. */
const char *trace_num_why(int status);

/* Checks the limits above on a trace in memory: every count times its
 * datatype's size, every v-list's sum, every amount. 0, or CMN_EINPUT
 * naming file:line, rank, action and field. */
int trace_check_limits(const struct trace *t, struct cmn_err *e);
/* An engine's narrower limit: every count, and every count list's sum, at
 * most max units; why (e.g. "SMPI's replay takes counts as C ints") ends
 * the message. */
int trace_check_counts(const struct trace *t, uint64_t max, const char *why, struct cmn_err *e);

#endif

/* Numbers from text, strictly, for command-line options, specification
 * parameters and the lists inside them (dims=16x16, sizes=4/8/16): the
 * whole text is one number in decimal notation, with no blank before or
 * after it, no hexadecimal, no inf or nan.
 *   integer: an optional sign and decimal digits; "4.0", "4.5" and "1e3"
 *            are not integers (write 1000)
 *   real:    decimal notation with an optional exponent ("0.5", ".5",
 *            "1e-6", "-2.5E3"), finite; a value too small to represent
 *            rounds to 0 or the nearest subnormal as strtod does
 * A number beyond what the type holds ("99999999999999999999", "1e999")
 * is outside any range. */
#ifndef CMN_NUMBER_H
#define CMN_NUMBER_H

#include "err.h"

enum cmn_num_status {
	CMN_NUM_OK = 0,
	CMN_NUM_SYNTAX, /* not a number of the kind asked for */
	CMN_NUM_RANGE,  /* a number, outside [lo, hi] */
};

/* Each returns a cmn_num_status; *out is set only on CMN_NUM_OK. */
int cmn_num_int(const char *text, long long lo, long long hi, long long *out);
int cmn_num_real(const char *text, double lo, double hi, double *out);
/* Whether text, read as v, is too small to be a normal double: a non-zero
 * value below DBL_MIN (2.2e-308), or one that underflowed to 0. Such
 * values are refused as out of range (SimGrid aborts on them, and no
 * physical quantity here needs them). */
int cmn_num_tiny(const char *text, double v);

/* Lists of numbers joined by sep ("16x16x8" with 'x'): every item a number
 * in [lo, hi], none empty, at most max of them. Returns the count; -1 with
 * *bad (when not NULL) the 1-based position of the first item that is
 * empty, not a number or out of range; -2 when every item is a number but
 * there are more than max. */
int cmn_num_int_list(const char *text, char sep, long long lo, long long hi, long long *out,
                     int max, int *bad);
int cmn_num_real_list(const char *text, char sep, double lo, double hi, double *out, int max,
                      int *bad);

/* Command-line option values: 0, or CMN_EUSAGE with a message naming the
 * option, the text and what it must be, e.g.
 * "--first: '-5' is not an integer in [1, 1000000000000]". The _pos form
 * refuses 0 too: a real in (0, hi]. */
int cmn_opt_int(const char *opt, const char *text, long long lo, long long hi, long long *out,
                struct cmn_err *e);
int cmn_opt_real(const char *opt, const char *text, double lo, double hi, double *out,
                 struct cmn_err *e);
int cmn_opt_real_pos(const char *opt, const char *text, double hi, double *out, struct cmn_err *e);

#endif

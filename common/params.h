/* Parameter specifications "name:key=value,key=value" parsed against each
 * implementation's parameter table, and the lookup of implementations by
 * exact name in const registries. Unknown keys, repeated keys, bad numbers
 * and out-of-range values are errors; effective values can be echoed. */
#ifndef CMN_PARAMS_H
#define CMN_PARAMS_H

#include <stdio.h>

#include "err.h"

enum cmn_ptype {
	CMN_PT_INT,    /* integer in [min, max] */
	CMN_PT_DOUBLE, /* finite real in [min, max] */
	CMN_PT_CHOICE, /* one of the '|'-separated words of choices */
	CMN_PT_STRING, /* text the implementation checks (e.g. dims=16x16) */
};

struct cmn_param_def {
	const char *key;
	enum cmn_ptype type;
	const char *def; /* default value as text; NULL means the key is required */
	double min, max; /* inclusive range for numbers */
	const char *choices;
	const char *help;
};

#define CMN_PARAMS_MAX 32
#define CMN_PARAM_STR  128

/* The effective values of one parsed specification. */
struct cmn_params {
	const struct cmn_param_def *defs; /* borrowed, static */
	int n;
	double num[CMN_PARAMS_MAX];
	char str[CMN_PARAMS_MAX][CMN_PARAM_STR];
};

/* Every ops table of the project starts with this header, so registries of
 * any kind share lookup, parsing and help. */
struct cmn_plugin {
	const char *name;
	const char *help;
	const struct cmn_param_def *params; /* terminated by a {NULL} entry */
	/* Specifications the contract suites run for the entry (NULL-terminated;
	 * NULL: its name alone, every parameter at its default): its small and
	 * odd cases. The suites loop over each registry, so a new entry brings
	 * its own and is tested without editing a test. */
	const char *const *samples;
};

/* Parses "key=value,key=value" against defs (kvs NULL or empty: no
 * parameters, all defaults). Refused, naming the item or key: an empty item
 * (a leading, doubled or trailing ','), an item with
 * no '=' or no key, an unknown or repeated key, an empty value, a number
 * that is not one in number.h's strict sense (integers: decimal digits, no
 * 1e3 or 4.0), a number outside the key's range. */
int cmn_params_parse(const struct cmn_param_def *defs, const char *kvs, struct cmn_params *out,
                     struct cmn_err *e);

/* The value of a key the table defines (asserts that it does). */
double cmn_params_num(const struct cmn_params *p, const char *key);
const char *cmn_params_str(const struct cmn_params *p, const char *key);
/* The same text, writable (CMN_PARAM_STR bytes): for an implementation that
 * echoes a value in its canonical form. */
char *cmn_params_str_mut(struct cmn_params *p, const char *key);

/* Writes "name:key=value,..." with every effective value into buf. */
void cmn_params_format(const char *name, const struct cmn_params *p, char *buf, size_t len);

/* Finds the entry named exactly name in a NULL-terminated registry whose
 * entries start with struct cmn_plugin. A miss lists the known names. */
const void *cmn_registry_find(const void *const *entries, const char *name, const char *kind,
                              struct cmn_err *e);

/* Splits spec at the first ':' into name and parameters (a ':' with nothing
 * after it is an error), finds the entry and parses its parameters; a
 * parameter error is prefixed with kind and the whole spec, e.g.
 * "machine 'kary-ntree:k=4,n=3,': parameter 3 is empty (a trailing ',')". */
int cmn_spec_resolve(const void *const *entries, const char *spec, const char *kind,
                     const void **ops, struct cmn_params *params, struct cmn_err *e);

/* Prints every entry with its parameters, defaults, ranges and help. */
void cmn_registry_help(FILE *f, const void *const *entries, const char *kind);

#endif

/* Parsing of "name:key=value,..." specifications and registry lookup. */
#include "params.h"

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"

static int def_count(const struct cmn_param_def *defs)
{
	int n = 0;
	while (defs && defs[n].key)
		n++;
	return n;
}

static int find_key(const struct cmn_param_def *defs, const char *key, size_t len)
{
	for (int i = 0; defs && defs[i].key; i++)
		if (strlen(defs[i].key) == len && strncmp(defs[i].key, key, len) == 0)
			return i;
	return -1;
}

static int choice_ok(const char *choices, const char *v)
{
	size_t vl = strlen(v);
	const char *c = choices;
	while (c && *c) {
		const char *bar = strchr(c, '|');
		size_t l = bar ? (size_t)(bar - c) : strlen(c);
		if (l == vl && strncmp(c, v, l) == 0)
			return 1;
		c = bar ? bar + 1 : NULL;
	}
	return 0;
}

static int set_value(const struct cmn_param_def *d, int i, const char *v, struct cmn_params *out,
                     struct cmn_err *e)
{
	if (strlen(v) >= CMN_PARAM_STR)
		return cmn_err_set(e, CMN_EUSAGE, "parameter %s: value '%s' is too long", d->key,
		                   v);
	strcpy(out->str[i], v);
	if (d->type == CMN_PT_STRING) {
		if (*v == '\0')
			return cmn_err_set(e, CMN_EUSAGE, "parameter %s: empty value", d->key);
		out->num[i] = 0;
		return 0;
	}
	if (d->type == CMN_PT_CHOICE) {
		if (!choice_ok(d->choices, v))
			return cmn_err_set(e, CMN_EUSAGE, "parameter %s: '%s' is not one of %s",
			                   d->key, v, d->choices);
		out->num[i] = 0;
		return 0;
	}
	int st;
	double x = 0;
	if (d->type == CMN_PT_INT) {
		long long l = 0;
		st = cmn_num_int(v, LLONG_MIN, LLONG_MAX, &l);
		x = (double)l;
	} else {
		st = cmn_num_real(v, -HUGE_VAL, HUGE_VAL, &x);
	}
	if (st == CMN_NUM_SYNTAX)
		return cmn_err_set(e, CMN_EUSAGE, "parameter %s: '%s' is not %s", d->key, v,
		                   d->type == CMN_PT_INT ? "an integer (decimal digits)"
		                                         : "a finite number in decimal notation");
	if (st == CMN_NUM_RANGE && d->type != CMN_PT_INT && cmn_num_tiny(v, strtod(v, NULL)))
		return cmn_err_set(e, CMN_EUSAGE,
		                   "parameter %s: %s is too small to be a normal double (0, or at "
		                   "least 2.2250738585072014e-308)",
		                   d->key, v);
	if (st != CMN_NUM_OK || x < d->min || x > d->max)
		return cmn_err_set(e, CMN_EUSAGE, "parameter %s: %s is outside [%.15g, %.15g]",
		                   d->key, v, d->min, d->max);
	out->num[i] = x;
	return 0;
}

int cmn_params_parse(const struct cmn_param_def *defs, const char *kvs, struct cmn_params *out,
                     struct cmn_err *e)
{
	int n = def_count(defs);
	assert(n <= CMN_PARAMS_MAX);
	memset(out, 0, sizeof *out);
	out->defs = defs;
	out->n = n;
	int seen[CMN_PARAMS_MAX] = {0};
	const char *p = kvs && *kvs ? kvs : NULL;
	for (int item = 1; p; item++) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		const char *eq = memchr(p, '=', len);
		if (len == 0)
			return cmn_err_set(e, CMN_EUSAGE, "parameter %d is empty (a %s ',')", item,
			                   item == 1 ? "leading"
			                   : comma   ? "doubled"
			                             : "trailing");
		if (!eq)
			return cmn_err_set(e, CMN_EUSAGE, "parameter '%.*s' has no '=value'",
			                   (int)len, p);
		if (eq == p)
			return cmn_err_set(e, CMN_EUSAGE, "parameter %d '%.*s' has no key", item,
			                   (int)len, p);
		int i = find_key(defs, p, (size_t)(eq - p));
		if (i < 0) {
			char known[512] = "";
			for (int k = 0; k < n; k++) {
				strncat(known, k ? ", " : "", sizeof known - strlen(known) - 1);
				strncat(known, defs[k].key, sizeof known - strlen(known) - 1);
			}
			return cmn_err_set(e, CMN_EUSAGE, "unknown parameter '%.*s' (known: %s)",
			                   (int)(eq - p), p, n ? known : "none");
		}
		if (seen[i])
			return cmn_err_set(e, CMN_EUSAGE, "parameter %s given twice", defs[i].key);
		seen[i] = 1;
		char val[256];
		size_t vl = len - (size_t)(eq + 1 - p);
		if (vl == 0)
			return cmn_err_set(e, CMN_EUSAGE, "parameter %s: empty value", defs[i].key);
		if (vl >= sizeof val)
			return cmn_err_set(e, CMN_EUSAGE, "parameter %s: value too long",
			                   defs[i].key);
		memcpy(val, eq + 1, vl);
		val[vl] = '\0';
		int rc = set_value(&defs[i], i, val, out, e);
		if (rc)
			return rc;
		p = comma ? comma + 1 : NULL;
	}
	for (int i = 0; i < n; i++) {
		if (seen[i])
			continue;
		if (!defs[i].def)
			return cmn_err_set(e, CMN_EUSAGE, "parameter %s is required", defs[i].key);
		int rc = set_value(&defs[i], i, defs[i].def, out, e);
		assert(rc == 0 && "a default value is outside its own range");
		(void)rc;
	}
	return 0;
}

static int index_of(const struct cmn_params *p, const char *key)
{
	for (int i = 0; i < p->n; i++)
		if (strcmp(p->defs[i].key, key) == 0)
			return i;
	assert(!"parameter key not in the table");
	return -1;
}

double cmn_params_num(const struct cmn_params *p, const char *key)
{
	return p->num[index_of(p, key)];
}

const char *cmn_params_str(const struct cmn_params *p, const char *key)
{
	return p->str[index_of(p, key)];
}

char *cmn_params_str_mut(struct cmn_params *p, const char *key)
{
	return p->str[index_of(p, key)];
}

void cmn_params_format(const char *name, const struct cmn_params *p, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "%s", name);
	for (int i = 0; i < p->n && used < len; i++) {
		const struct cmn_param_def *d = &p->defs[i];
		if (d->type == CMN_PT_CHOICE || d->type == CMN_PT_STRING)
			used += (size_t)snprintf(buf + used, len - used, "%c%s=%s", i ? ',' : ':',
			                         d->key, p->str[i]);
		else
			used += (size_t)snprintf(buf + used, len - used, "%c%s=%.15g",
			                         i ? ',' : ':', d->key, p->num[i]);
	}
}

const void *cmn_registry_find(const void *const *entries, const char *name, const char *kind,
                              struct cmn_err *e)
{
	char known[512] = "";
	for (int i = 0; entries[i]; i++) {
		const struct cmn_plugin *pl = entries[i];
		if (strcmp(pl->name, name) == 0)
			return pl;
		strncat(known, i ? ", " : "", sizeof known - strlen(known) - 1);
		strncat(known, pl->name, sizeof known - strlen(known) - 1);
	}
	cmn_err_set(e, CMN_EUSAGE, "unknown %s '%s' (known: %s)", kind, name, known);
	return NULL;
}

int cmn_spec_resolve(const void *const *entries, const char *spec, const char *kind,
                     const void **ops, struct cmn_params *params, struct cmn_err *e)
{
	char name[128];
	const char *colon = strchr(spec, ':');
	size_t nl = colon ? (size_t)(colon - spec) : strlen(spec);
	if (nl == 0 || nl >= sizeof name)
		return cmn_err_set(e, CMN_EUSAGE, "%s '%s': missing or too long name", kind, spec);
	memcpy(name, spec, nl);
	name[nl] = '\0';
	const struct cmn_plugin *pl = cmn_registry_find(entries, name, kind, e);
	if (!pl)
		return CMN_EUSAGE;
	int rc = colon && !colon[1]
	             ? cmn_err_set(e, CMN_EUSAGE, "no parameters after ':'")
	             : cmn_params_parse(pl->params, colon ? colon + 1 : NULL, params, e);
	if (rc) {
		cmn_err_prefix(e, "%s '%s'", kind, spec);
		return rc;
	}
	*ops = pl;
	return 0;
}

void cmn_registry_help(FILE *f, const void *const *entries, const char *kind)
{
	size_t len = strlen(kind); /* the plural: "policy" -> "policies" */
	if (len > 1 && kind[len - 1] == 'y' && !strchr("aeiou", kind[len - 2]))
		fprintf(f, "%.*sies:\n", (int)(len - 1), kind);
	else
		fprintf(f, "%ss:\n", kind);
	for (int i = 0; entries[i]; i++) {
		const struct cmn_plugin *pl = entries[i];
		fprintf(f, "  %-14s %s\n", pl->name, pl->help);
		for (int k = 0; pl->params && pl->params[k].key; k++) {
			const struct cmn_param_def *d = &pl->params[k];
			if (d->type == CMN_PT_STRING)
				fprintf(f, "      %s=TEXT (default %s): %s\n", d->key,
				        d->def ? d->def : "required", d->help);
			else if (d->type == CMN_PT_CHOICE)
				fprintf(f, "      %s=%s (default %s): %s\n", d->key, d->choices,
				        d->def ? d->def : "required", d->help);
			else
				fprintf(f, "      %s=[%.15g..%.15g] (default %s): %s\n", d->key,
				        d->min, d->max, d->def ? d->def : "required", d->help);
		}
	}
}

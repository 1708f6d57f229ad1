/* Sweep files (sweep.h): reading and checking them, and what a point is —
 * its axis values, directory, command and summary path. */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../common/grow.h"
#include "../../common/hash.h"
#include "../../common/number.h"
#include "sweep.h"

#define MAX_POINTS 10000000L
#define MAX_RANGE  100000

/* Appends s (n bytes) to the growing string *b of length *len. */
static int append(char **b, long *len, long *cap, const char *s, size_t n)
{
	if (cmn_grow((void **)b, cap, *len + (long)n + 1, 64, 1))
		return -1;
	memcpy(*b + *len, s, n);
	*len += (long)n;
	(*b)[*len] = '\0';
	return 0;
}

/* Splits text into words: blanks separate them; 'single quotes' keep
 * everything, "double quotes" and a backslash outside quotes escape the
 * next character. */
static int tokenize(const char *text, const char *path, int line, char ***out, int *n,
                    struct cmn_err *e)
{
	char **tok = NULL, *w = NULL;
	long ntok = 0, captok = 0, wlen = 0, wcap = 0;
	const char *p = text;
	int rc = 0;
	*out = NULL, *n = 0;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		wlen = 0;
		if (append(&w, &wlen, &wcap, "", 0))
			goto oom;
		while (*p && *p != ' ' && *p != '\t') {
			if (*p == '\'') {
				const char *q = strchr(p + 1, '\'');
				if (!q) {
					rc = cmn_err_set(e, CMN_EINPUT,
					                 "%s:%d: unterminated ' quote", path, line);
					goto fail;
				}
				if (append(&w, &wlen, &wcap, p + 1, (size_t)(q - p - 1)))
					goto oom;
				p = q + 1;
			} else if (*p == '"') {
				for (p++; *p && *p != '"'; p++) {
					if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
						p++;
					if (append(&w, &wlen, &wcap, p, 1))
						goto oom;
				}
				if (*p != '"') {
					rc =
					    cmn_err_set(e, CMN_EINPUT,
					                "%s:%d: unterminated \" quote", path, line);
					goto fail;
				}
				p++;
			} else {
				if (*p == '\\' && p[1])
					p++;
				if (append(&w, &wlen, &wcap, p++, 1))
					goto oom;
			}
		}
		if (cmn_grow((void **)&tok, &captok, ntok + 2, 8, sizeof *tok))
			goto oom;
		tok[ntok++] = w;
		tok[ntok] = NULL;
		w = NULL, wcap = 0;
	}
	*out = tok, *n = (int)ntok;
	return 0;
oom:
	rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
fail:
	free(w);
	for (long i = 0; i < ntok; i++)
		free(tok[i]);
	free(tok);
	return rc;
}

static void free_words(char **w, int n)
{
	for (int i = 0; i < n; i++)
		free(w[i]);
	free(w);
}

static int is_name(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

int cpl_sweep_axis(const struct cpl_sweep *s, const char *name)
{
	for (int i = 0; i < s->naxes; i++)
		if (!strcmp(s->axes[i].name, name))
			return i;
	return -1;
}

/* Checks every {placeholder} of t: an axis, rep or dir ({{ and }} are
 * literal braces). */
static int check_placeholders(const struct cpl_sweep *s, const char *t, int line, struct cmn_err *e)
{
	for (const char *p = t; *p; p++) {
		if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
			p++;
			continue;
		}
		if (*p == '}')
			return cmn_err_set(e, CMN_EINPUT,
			                   "%s:%d: '}' without '{' in \"%s\" (}} for a brace)",
			                   s->path, line, t);
		if (*p != '{')
			continue;
		const char *q = strchr(p, '}');
		if (!q)
			return cmn_err_set(e, CMN_EINPUT, "%s:%d: '{' without '}' in \"%s\"",
			                   s->path, line, t);
		char name[128];
		size_t len = (size_t)(q - p - 1);
		snprintf(name, sizeof name, "%.*s",
		         (int)(len < sizeof name ? len : sizeof name - 1), p + 1);
		if (strcmp(name, "rep") && strcmp(name, "dir") && cpl_sweep_axis(s, name) < 0)
			return cmn_err_set(
			    e, CMN_EINPUT,
			    "%s:%d: unknown placeholder {%s} (axes, {rep} and {dir} are known)",
			    s->path, line, name);
		p = q;
	}
	return 0;
}

/* Whether t has the placeholder {name} ({{ and }} are literal braces). */
static int mentions(const char *t, const char *name)
{
	size_t len = strlen(name);
	for (const char *p = t; *p; p++) {
		if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
			p++;
			continue;
		}
		if (*p == '{' && strncmp(p + 1, name, len) == 0 && p[1 + len] == '}')
			return 1;
	}
	return 0;
}

/* Whether a value v of an axis is the value w written in a plot: the same
 * text, or the same number (load=0.50 for 0.5). */
static int same_value(const char *v, const char *w)
{
	if (strcmp(v, w) == 0)
		return 1;
	char *e1, *e2;
	double a = strtod(v, &e1), b = strtod(w, &e2);
	return e1 != v && !*e1 && e2 != w && !*e2 && a == b;
}

/* The values FROM, FROM + STEP, ... up to TO (inclusive, within a
 * millionth of a step) of "FROM:TO:STEP". */
static int range_values(const char *spec, const char *path, int line, char ***out, int *n,
                        struct cmn_err *e)
{
	double v[3];
	if (cmn_num_real_list(spec, ':', -DBL_MAX, DBL_MAX, v, 3, NULL) != 3)
		return cmn_err_set(e, CMN_EINPUT,
		                   "%s:%d: range \"%s\": expected FROM:TO:STEP (numbers)", path,
		                   line, spec);
	if (!(v[2] > 0) || v[1] < v[0])
		return cmn_err_set(e, CMN_EINPUT,
		                   "%s:%d: range \"%s\": needs FROM <= TO and STEP > 0", path, line,
		                   spec);
	double count = floor((v[1] - v[0]) / v[2] + 1e-6) + 1;
	if (count > MAX_RANGE)
		return cmn_err_set(e, CMN_EINPUT, "%s:%d: range \"%s\": %.0f values (at most %d)",
		                   path, line, spec, count, MAX_RANGE);
	char **vals = calloc((size_t)count + 1, sizeof *vals);
	if (!vals)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int i = 0; i < (int)count; i++) {
		char b[64];
		double x = v[0] + i * v[2];
		if (fabs(x) < 1e-12 * v[2])
			x = 0; /* no -0 or 1e-17 from rounding */
		snprintf(b, sizeof b, "%.10g", x);
		if (!(vals[i] = strdup(b))) {
			free_words(vals, i);
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		}
	}
	*out = vals, *n = (int)count;
	return 0;
}

/* The keys a sweep file gives at most once (command and axes say so
 * themselves): struct cpl_sweep's keyed. */
enum { KEY_REPEAT = 1, KEY_OUT = 2, KEY_SUMMARY = 4, KEY_METRICS = 8 };

/* key (repeat, out, summary, metrics) given a second time: an error (the
 * last one won, silently); other keys: 0. */
static int once(struct cpl_sweep *s, const char *key, int line, struct cmn_err *e)
{
	unsigned bit = !strcmp(key, "repeat")    ? KEY_REPEAT
	               : !strcmp(key, "out")     ? KEY_OUT
	               : !strcmp(key, "summary") ? KEY_SUMMARY
	               : !strcmp(key, "metrics") ? KEY_METRICS
	                                         : 0;
	if (bit & s->keyed)
		return cmn_err_set(e, CMN_EINPUT, "%s:%d: %s given twice", s->path, line, key);
	s->keyed |= bit;
	return 0;
}

static int parse_plot(struct cpl_sweep *s, const char *png, char **w, int nw, int line,
                      struct cmn_err *e)
{
	/* a file of OUT's own: a name (no folder, not hidden) ending in .png,
	 * not another plot's */
	size_t len = strlen(png);
	if (strchr(png, '/') || png[0] == '.' || len < 5 || strcmp(png + len - 4, ".png") != 0)
		return cmn_err_set(e, CMN_EINPUT,
		                   "%s:%d: plot %s: a file name in the output folder, NAME.png (no "
		                   "'/', not starting with '.')",
		                   s->path, line, png);
	for (int i = 0; i < s->nplots; i++)
		if (!strcmp(s->plots[i].png, png))
			return cmn_err_set(e, CMN_EINPUT, "%s:%d: plot %s given twice (line %d)",
			                   s->path, line, png, s->plots[i].line);
	void *np = realloc(s->plots, ((size_t)s->nplots + 1) * sizeof *s->plots);
	if (!np)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	s->plots = np;
	struct cpl_sweep_plot *pl = &s->plots[s->nplots++];
	memset(pl, 0, sizeof *pl);
	pl->line = line;
	if (!(pl->png = strdup(png)))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (int i = 0; i < nw; i++) {
		if (!strcmp(w[i], "logx") || !strcmp(w[i], "logy")) {
			*(w[i][3] == 'x' ? &pl->logx : &pl->logy) = 1;
			continue;
		}
		char *eq = strchr(w[i], '=');
		if (!eq || eq == w[i])
			return cmn_err_set(e, CMN_EINPUT,
			                   "%s:%d: plot: \"%s\" is not KEY=VALUE, logx or logy",
			                   s->path, line, w[i]);
		*eq = '\0';
		const char *k = w[i], *v = eq + 1;
		char **slot = !strcmp(k, "x")        ? &pl->x
		              : !strcmp(k, "y")      ? &pl->y
		              : !strcmp(k, "group")  ? &pl->group
		              : !strcmp(k, "title")  ? &pl->title
		              : !strcmp(k, "ylabel") ? &pl->ylabel
		                                     : NULL;
		if (slot && *slot)
			return cmn_err_set(e, CMN_EINPUT, "%s:%d: plot: %s given twice", s->path,
			                   line, k);
		if (!slot) { /* a filter AXIS=VALUE, checked once the axes are known */
			char **fk = realloc(pl->fkey, ((size_t)pl->nf + 1) * sizeof *fk);
			if (fk)
				pl->fkey = fk;
			char **fv = realloc(pl->fval, ((size_t)pl->nf + 1) * sizeof *fv);
			if (fv)
				pl->fval = fv;
			if (!fk || !fv)
				return cmn_err_set(e, CMN_ENOMEM, "out of memory");
			slot = &pl->fval[pl->nf];
			pl->fkey[pl->nf] = strdup(k);
			pl->fval[pl->nf++] = NULL;
			if (!pl->fkey[pl->nf - 1])
				return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		}
		if (!(*slot = strdup(v)))
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	if (!pl->x || !pl->y)
		return cmn_err_set(e, CMN_EINPUT, "%s:%d: plot %s needs x=AXIS and y=COLUMN",
		                   s->path, line, png);
	return 0;
}

/* "axis A B ... = a1 b1 ... | a2 b2 ... | ...": axes whose values go
 * together, one row per point of that dimension. */
static int linked_axes(struct cpl_sweep *s, char **names, int k, char **w, int nw, int line,
                       struct cmn_err *e)
{
	int rows = 1, col = 0;
	for (int i = 0; i < nw; i++) {
		if (strcmp(w[i], "|")) {
			col++;
			continue;
		}
		if (col != k)
			return cmn_err_set(e, CMN_EINPUT,
			                   "%s:%d: linked axes: row %d has %d values for %d axes",
			                   s->path, line, rows, col, k);
		rows++, col = 0;
	}
	if (col != k)
		return cmn_err_set(e, CMN_EINPUT,
		                   "%s:%d: linked axes: row %d has %d values for %d axes", s->path,
		                   line, rows, col, k);
	void *na = realloc(s->axes, ((size_t)s->naxes + (size_t)k) * sizeof *s->axes);
	if (!na)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	s->axes = na;
	for (int a = 0; a < k; a++) {
		char **vals = calloc((size_t)rows + 1, sizeof *vals), *nm = strdup(names[a]);
		int ok = vals && nm;
		for (int r = 0; ok && r < rows; r++)
			ok = (vals[r] = strdup(w[r * (k + 1) + a])) != NULL;
		if (!ok) {
			free_words(vals, rows);
			free(nm);
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		}
		s->axes[s->naxes++] = (struct cpl_sweep_axis){nm, vals, rows, line, a > 0};
	}
	return 0;
}

/* One "KEY [NAME] = VALUE" statement. */
static int statement(struct cpl_sweep *s, char *text, int line, struct cmn_err *e)
{
	char *eq = strchr(text, '=');
	if (!eq)
		return cmn_err_set(e, CMN_EINPUT, "%s:%d: expected KEY = VALUE", s->path, line);
	*eq = '\0';
	char **lhs, **w;
	int nl, nw, rc;
	if ((rc = tokenize(text, s->path, line, &lhs, &nl, e)))
		return rc;
	if ((rc = tokenize(eq + 1, s->path, line, &w, &nw, e))) {
		free_words(lhs, nl);
		return rc;
	}
	const char *key = nl ? lhs[0] : "";
	int named = !strcmp(key, "axis") || !strcmp(key, "range") || !strcmp(key, "plot");
	if (nl != (named ? 2 : 1) && !(!strcmp(key, "axis") && nl > 2)) {
		rc =
		    cmn_err_set(e, CMN_EINPUT,
		                "%s:%d: expected KEY = VALUE, axis NAME = ..., range NAME = ... or "
		                "plot FILE.png = ...",
		                s->path, line);
		goto done;
	}
	if (!strcmp(key, "command")) {
		if (s->cmd) {
			rc =
			    cmn_err_set(e, CMN_EINPUT, "%s:%d: command given twice", s->path, line);
			goto done;
		}
		if (!nw) {
			rc = cmn_err_set(e, CMN_EINPUT, "%s:%d: empty command", s->path, line);
			goto done;
		}
		s->cmd = w, s->ncmd = nw, s->cmd_line = line;
		w = NULL, nw = 0;
	} else if (!strcmp(key, "axis") || !strcmp(key, "range")) {
		for (int i = 1; i < nl; i++) {
			const char *name = lhs[i];
			if (!is_name(name) || !strcmp(name, "rep") || !strcmp(name, "dir") ||
			    !strcmp(name, "row") || !strcmp(name, "n")) {
				rc = cmn_err_set(
				    e, CMN_EINPUT,
				    "%s:%d: axis name \"%s\": letters, digits and _ (not rep, "
				    "dir, row or n)",
				    s->path, line, name);
				goto done;
			}
			int twice = cpl_sweep_axis(s, name) >= 0;
			for (int j = 1; j < i; j++)
				twice |= !strcmp(lhs[j], name);
			if (twice) {
				rc = cmn_err_set(e, CMN_EINPUT, "%s:%d: axis %s given twice",
				                 s->path, line, name);
				goto done;
			}
		}
		if (nl > 2) {
			rc = linked_axes(s, lhs + 1, nl - 1, w, nw, line, e);
			goto done;
		}
		const char *name = lhs[1];
		char **vals = w;
		int n = nw;
		if (key[0] == 'r') {
			if (nw != 1) {
				rc = cmn_err_set(e, CMN_EINPUT, "%s:%d: range %s = FROM:TO:STEP",
				                 s->path, line, name);
				goto done;
			}
			if ((rc = range_values(w[0], s->path, line, &vals, &n, e)))
				goto done;
		} else {
			w = NULL, nw = 0;
		}
		if (!n) {
			rc = cmn_err_set(e, CMN_EINPUT, "%s:%d: axis %s has no values", s->path,
			                 line, name);
			free_words(vals, n);
			goto done;
		}
		void *na = realloc(s->axes, ((size_t)s->naxes + 1) * sizeof *s->axes);
		if (na)
			s->axes = na;
		char *nm = na ? strdup(name) : NULL;
		if (!nm) {
			free_words(vals, n);
			rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
			goto done;
		}
		s->axes[s->naxes++] = (struct cpl_sweep_axis){nm, vals, n, line, 0};
	} else if ((rc = once(s, key, line, e))) {
		goto done;
	} else if (!strcmp(key, "repeat")) {
		long long r = 0;
		if (nw != 1 || cmn_num_int(w[0], 1, 100000, &r) != CMN_NUM_OK) {
			rc = cmn_err_set(e, CMN_EINPUT, "%s:%d: repeat = N (1..100000)", s->path,
			                 line);
			goto done;
		}
		s->reps = (int)r;
	} else if (!strcmp(key, "out") || !strcmp(key, "summary")) {
		char **slot = key[0] == 'o' ? &s->out : &s->summary;
		if (nw != 1 || !*w[0]) {
			rc = cmn_err_set(e, CMN_EINPUT, "%s:%d: %s = PATH (one word)", s->path,
			                 line, key);
			goto done;
		}
		free(*slot);
		*slot = w[0];
		if (key[0] == 's')
			s->summary_line = line;
		w[0] = NULL;
	} else if (!strcmp(key, "metrics")) {
		free_words(s->metrics, s->nmetrics);
		s->metrics = w, s->nmetrics = nw;
		w = NULL, nw = 0;
	} else if (!strcmp(key, "plot")) {
		rc = parse_plot(s, lhs[1], w, nw, line, e);
	} else {
		rc = cmn_err_set(e, CMN_EINPUT,
		                 "%s:%d: unknown key \"%s\" (command, axis, range, repeat, out, "
		                 "summary, metrics, plot)",
		                 s->path, line, key);
	}
done:
	free_words(lhs, nl);
	free_words(w, nw);
	return rc;
}

/* A row of a group of linked axes (one axis alone: its value). */
struct row {
	const struct cpl_sweep_axis *axes;
	int naxes, j;
};

static int by_row(const void *x, const void *y)
{
	const struct row *a = x, *b = y;
	for (int k = 0; k < a->naxes; k++) {
		int c = strcmp(a->axes[k].vals[a->j], a->axes[k].vals[b->j]);
		if (c)
			return c;
	}
	return (a->j > b->j) - (a->j < b->j);
}

/* The first row of the group axes[0..na) equal to an earlier one (the
 * least such index), -1 when none, -2 out of memory: sorted, so a range of
 * 100,000 values costs n log n comparisons, not n^2. */
static int repeated_row(const struct cpl_sweep_axis *axes, int na)
{
	int n = axes[0].n, first = -1;
	struct row *r = malloc((size_t)(n ? n : 1) * sizeof *r);
	if (!r)
		return -2;
	for (int j = 0; j < n; j++)
		r[j] = (struct row){axes, na, j};
	qsort(r, (size_t)n, sizeof *r, by_row);
	for (int k = 1; k < n; k++) { /* equal rows sort by index: r[k] is the later one */
		int same = 1;
		for (int x = 0; x < na && same; x++)
			same = !strcmp(axes[x].vals[r[k - 1].j], axes[x].vals[r[k].j]);
		if (same && (first < 0 || r[k].j < first))
			first = r[k].j;
	}
	free(r);
	return first;
}

/* What the whole file must satisfy once read. */
static int distinct_summaries(const struct cpl_sweep *s, struct cmn_err *e);

static int check(struct cpl_sweep *s, struct cmn_err *e)
{
	if (!s->cmd)
		return cmn_err_set(e, CMN_EINPUT, "%s: no command = ... line", s->path);
	for (int i = 0; i < s->ncmd; i++)
		if (check_placeholders(s, s->cmd[i], s->cmd_line, e))
			return e->code;
	if (check_placeholders(s, s->summary, s->summary_line, e))
		return e->code;
	s->npoints = s->reps;
	for (int i = 0; i < s->naxes; i++) {
		if (s->axes[i].linked)
			continue; /* counted with the first axis of its group */
		int end = i + 1;
		while (end < s->naxes && s->axes[end].linked)
			end++;
		int j = repeated_row(s->axes + i, end - i);
		if (j == -2)
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		if (j >= 0)
			return cmn_err_set(e, CMN_EINPUT, "%s:%d: axis %s: value \"%s\" twice%s",
			                   s->path, s->axes[i].line, s->axes[i].name,
			                   s->axes[i].vals[j],
			                   end > i + 1 ? " (a row repeated)" : "");
		if (s->npoints > MAX_POINTS / s->axes[i].n)
			return cmn_err_set(e, CMN_EINPUT, "%s: more than %ld points", s->path,
			                   MAX_POINTS);
		s->npoints *= s->axes[i].n;
	}
	for (int i = 0; i < s->naxes; i++) { /* a group of linked axes: one is enough */
		if (s->axes[i].linked)
			continue;
		int end = i + 1;
		while (end < s->naxes && s->axes[end].linked)
			end++;
		int used = 0;
		for (int a = i; a < end && !used; a++) {
			used = mentions(s->summary, s->axes[a].name);
			for (int c = 0; c < s->ncmd && !used; c++)
				used = mentions(s->cmd[c], s->axes[a].name);
		}
		if (!used && s->axes[i].n > 1)
			return cmn_err_set(
			    e, CMN_EINPUT,
			    "%s:%d: axis %s is in no placeholder of the command: its %d "
			    "values would run the same command (put {%s} in the "
			    "command, or drop the axis)",
			    s->path, s->axes[i].line, s->axes[i].name, s->axes[i].n,
			    s->axes[i].name);
	}
	for (int i = 0; i < s->nplots; i++) {
		struct cpl_sweep_plot *pl = &s->plots[i];
		if (cpl_sweep_axis(s, pl->x) < 0 || (pl->group && cpl_sweep_axis(s, pl->group) < 0))
			return cmn_err_set(e, CMN_EINPUT,
			                   "%s:%d: plot %s: x and group must be axes", s->path,
			                   pl->line, pl->png);
		for (int f = 0; f < pl->nf; f++)
			if (cpl_sweep_axis(s, pl->fkey[f]) < 0)
				return cmn_err_set(
				    e, CMN_EINPUT,
				    "%s:%d: plot %s: \"%s\" is neither a plot key (x, y, group, "
				    "title, ylabel) nor an axis",
				    s->path, pl->line, pl->png, pl->fkey[f]);
		for (int f = 0; f < pl->nf; f++) {
			const struct cpl_sweep_axis *a = &s->axes[cpl_sweep_axis(s, pl->fkey[f])];
			int v = 0, twice = 0;
			while (v < a->n && !same_value(a->vals[v], pl->fval[f]))
				v++;
			int known = v < a->n;
			if (known &&
			    strcmp(a->vals[v], pl->fval[f]) != 0) { /* drawn as the axis's */
				char *own = strdup(a->vals[v]);
				if (!own)
					return cmn_err_set(e, CMN_ENOMEM, "out of memory");
				free(pl->fval[f]);
				pl->fval[f] = own;
			}
			for (int g = 0; g < f; g++)
				twice = twice || strcmp(pl->fkey[g], pl->fkey[f]) == 0;
			if (twice || strcmp(pl->fkey[f], pl->x) == 0 ||
			    (pl->group && strcmp(pl->fkey[f], pl->group) == 0))
				return cmn_err_set(
				    e, CMN_EINPUT,
				    "%s:%d: plot %s: axis %s is %s: it cannot be fixed "
				    "(%s=%s)",
				    s->path, pl->line, pl->png, a->name,
				    twice                             ? "fixed twice"
				    : strcmp(pl->fkey[f], pl->x) == 0 ? "the x axis"
				                                      : "the group",
				    a->name, pl->fval[f]);
			if (!known)
				return cmn_err_set(
				    e, CMN_EINPUT,
				    "%s:%d: plot %s: %s=%s: not a value of axis %s (line "
				    "%d)",
				    s->path, pl->line, pl->png, a->name, pl->fval[f], a->name,
				    a->line);
		}
	}
	return 0;
}

int cpl_sweep_read(const char *path, const char *out_dir, struct cpl_sweep **out, struct cmn_err *e)
{
	*out = NULL;
	FILE *f = fopen(path, "r");
	if (!f)
		return cmn_err_set(e, CMN_EIO, "%s: %s", path, strerror(errno));
	struct cpl_sweep *s = calloc(1, sizeof *s);
	char *line = NULL, *stmt = NULL;
	size_t cap = 0;
	long slen = 0, scap = 0;
	int lineno = 0, start = 0, rc = 0;
	if (!s || !(s->path = strdup(path))) {
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
		goto end;
	}
	s->reps = 1;
	ssize_t got;
	while ((got = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (memchr(line, '\0', (size_t)got)) { /* the rest of the line would be lost */
			rc = cmn_err_set(e, CMN_EINPUT,
			                 "%s:%d: NUL byte in line (not a sweep file?)", path,
			                 lineno);
			goto end;
		}
		while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
			line[--got] = '\0';
		if (!slen) {
			const char *p = line + strspn(line, " \t");
			if (!*p || *p == '#')
				continue;
			start = lineno;
		}
		int more = got > 0 && line[got - 1] == '\\';
		if (more)
			line[--got] = ' ';
		if (append(&stmt, &slen, &scap, line, (size_t)got)) {
			rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
			goto end;
		}
		if (more)
			continue;
		if ((rc = statement(s, stmt, start, e)))
			goto end;
		slen = 0;
	}
	if (ferror(f)) {
		rc = cmn_err_set(e, CMN_EIO, "%s: %s", path, strerror(errno));
		goto end;
	}
	if (slen && (rc = statement(s, stmt, start, e)))
		goto end;
	if (out_dir) {
		free(s->out);
		s->out = strdup(out_dir);
	} else if (!s->out) { /* FILE.sweep -> FILE.out */
		size_t n = strlen(path);
		const char *dot =
		    n > 6 && !strcmp(path + n - 6, ".sweep") ? path + n - 6 : path + n;
		if ((s->out = malloc((size_t)(dot - path) + 5)))
			sprintf(s->out, "%.*s.out", (int)(dot - path), path);
	}
	if (!s->summary)
		s->summary = strdup("{dir}/summary.csv");
	if (!s->out || !s->summary) {
		rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
		goto end;
	}
	rc = check(s, e);
	if (!rc)
		rc = distinct_summaries(s, e);
end:
	fclose(f);
	free(line);
	free(stmt);
	if (rc)
		cpl_sweep_free(s);
	else
		*out = s;
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every point's summary a file of its own: a path that two points share
 * (summary = s.csv, no {dir}) would give one point the other's results. */
static int distinct_summaries(const struct cpl_sweep *s, struct cmn_err *e)
{
	if (s->npoints < 2)
		return 0;
	char **all = calloc((size_t)s->npoints, sizeof *all);
	int rc = all ? 0 : cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (long p = 0; !rc && p < s->npoints; p++)
		if (!(all[p] = cpl_sweep_summary(s, p)))
			rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
	if (!rc) {
		qsort(all, (size_t)s->npoints, sizeof *all, cmp_str);
		for (long p = 1; !rc && p < s->npoints; p++)
			if (!strcmp(all[p - 1], all[p]))
				rc = cmn_err_set(
				    e, CMN_EINPUT,
				    "%s:%d: summary = %s: several points would write %s "
				    "(one would take another's results): put {dir} in it",
				    s->path, s->summary_line, s->summary, all[p]);
	}
	for (long p = 0; all && p < s->npoints; p++)
		free(all[p]);
	free(all);
	return rc;
}

void cpl_sweep_free(struct cpl_sweep *s)
{
	if (!s)
		return;
	free(s->path);
	free_words(s->cmd, s->ncmd);
	for (int i = 0; i < s->naxes; i++) {
		free(s->axes[i].name);
		free_words(s->axes[i].vals, s->axes[i].n);
	}
	free(s->axes);
	free(s->out);
	free(s->summary);
	free_words(s->metrics, s->nmetrics);
	for (int i = 0; i < s->nplots; i++) {
		struct cpl_sweep_plot *pl = &s->plots[i];
		free(pl->png), free(pl->x), free(pl->y), free(pl->group), free(pl->title);
		free(pl->ylabel);
		free_words(pl->fkey, pl->nf);
		free_words(pl->fval, pl->nf);
	}
	free(s->plots);
	free(s);
}

int cpl_sweep_value(const struct cpl_sweep *s, long p, int axis)
{
	int first = axis; /* the first axis of its group of linked axes */
	while (s->axes[first].linked)
		first--;
	p /= s->reps;
	for (int i = s->naxes - 1; i > first; i--)
		if (!s->axes[i].linked)
			p /= s->axes[i].n;
	return (int)(p % s->axes[first].n);
}

int cpl_sweep_rep(const struct cpl_sweep *s, long p)
{
	return (int)(p % s->reps) + 1;
}

/* FNV-1a, for directory names that had to be changed to be safe. */
static uint32_t hash(const char *t, uint32_t h)
{
	for (; *t; t++)
		h = cmn_fnv32(h, (unsigned char)*t);
	return h;
}

char *cpl_sweep_dir(const struct cpl_sweep *s, long p)
{
	char *b = NULL;
	long len = 0, cap = 0;
	uint32_t h = CMN_FNV32_BASIS;
	int changed = 0;
	if (append(&b, &len, &cap, s->out, strlen(s->out)) || append(&b, &len, &cap, "/points/", 8))
		return free(b), NULL;
	long base = len;
	for (int i = 0; i <= s->naxes; i++) {
		char rep[16];
		const char *name = i < s->naxes ? s->axes[i].name : "rep", *v = rep;
		if (i < s->naxes)
			v = s->axes[i].vals[cpl_sweep_value(s, p, i)];
		else
			snprintf(rep, sizeof rep, "%d", cpl_sweep_rep(s, p));
		h = hash(v, hash("=", hash(name, h)));
		if ((i && append(&b, &len, &cap, "_", 1)) ||
		    append(&b, &len, &cap, name, strlen(name)) || append(&b, &len, &cap, "-", 1))
			return free(b), NULL;
		for (const char *c = v; *c; c++) {
			char ch = isalnum((unsigned char)*c) || strchr(".=+-", *c) ? *c : '_';
			changed |= ch != *c;
			if (append(&b, &len, &cap, &ch, 1))
				return free(b), NULL;
		}
	}
	if (len - base > 160) /* keep names within file system limits */
		len = base + 160, b[len] = '\0', changed = 1;
	if (changed) {
		char t[16];
		snprintf(t, sizeof t, "-%08x", (unsigned)h);
		if (append(&b, &len, &cap, t, strlen(t)))
			return free(b), NULL;
	}
	return b;
}

/* t with its placeholders filled for point p. */
static char *fill(const struct cpl_sweep *s, long p, const char *t, const char *dir)
{
	char *b = NULL;
	long len = 0, cap = 0;
	if (append(&b, &len, &cap, "", 0))
		return NULL;
	for (const char *c = t; *c; c++) {
		if ((c[0] == '{' && c[1] == '{') || (c[0] == '}' && c[1] == '}')) {
			if (append(&b, &len, &cap, c++, 1))
				return free(b), NULL;
			continue;
		}
		if (*c != '{') {
			if (append(&b, &len, &cap, c, 1))
				return free(b), NULL;
			continue;
		}
		const char *q = strchr(c, '}'), *v = NULL;
		char name[128], rep[16];
		snprintf(name, sizeof name, "%.*s", (int)(q - c - 1), c + 1);
		int a = cpl_sweep_axis(s, name);
		if (a >= 0)
			v = s->axes[a].vals[cpl_sweep_value(s, p, a)];
		else if (!strcmp(name, "rep"))
			snprintf(rep, sizeof rep, "%d", cpl_sweep_rep(s, p)), v = rep;
		else
			v = dir;
		if (append(&b, &len, &cap, v, strlen(v)))
			return free(b), NULL;
		c = q;
	}
	return b;
}

char **cpl_sweep_argv(const struct cpl_sweep *s, long p)
{
	char *dir = cpl_sweep_dir(s, p), **argv = calloc((size_t)s->ncmd + 1, sizeof *argv);
	if (!dir || !argv) {
		free(dir);
		free(argv);
		return NULL;
	}
	for (int i = 0; i < s->ncmd; i++)
		if (!(argv[i] = fill(s, p, s->cmd[i], dir))) {
			cpl_sweep_argv_free(argv);
			argv = NULL;
			break;
		}
	free(dir);
	return argv;
}

char *cpl_sweep_summary(const struct cpl_sweep *s, long p)
{
	char *dir = cpl_sweep_dir(s, p), *r = dir ? fill(s, p, s->summary, dir) : NULL;
	free(dir);
	return r;
}

void cpl_sweep_argv_free(char **argv)
{
	if (!argv)
		return;
	for (char **a = argv; *a; a++)
		free(*a);
	free(argv);
}

void cpl_sweep_shquote(FILE *f, const char *v)
{
	if (*v && strspn(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	                    "_-.,/:=+@%") == strlen(v)) {
		fputs(v, f); /* nothing the shell would change */
		return;
	}
	fputc('\'', f);
	for (; *v; v++)
		if (*v == '\'')
			fputs("'\\''", f);
		else
			fputc(*v, f);
	fputc('\'', f);
}

char *cpl_sweep_path(const char *dir, const char *name)
{
	char *r = malloc(strlen(dir) + strlen(name) + 2);
	if (r)
		sprintf(r, "%s/%s", dir, name);
	return r;
}

int cpl_sweep_done(const struct cpl_sweep *s, long p)
{
	char *dir = cpl_sweep_dir(s, p), *m = dir ? cpl_sweep_path(dir, "done") : NULL;
	struct stat st;
	int r = m && stat(m, &st) == 0;
	free(m);
	free(dir);
	return r;
}

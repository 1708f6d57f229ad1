/* Reading TI traces (plain or gzip'ed): the layout of trace_args.h checked
 * for every line, errors with file:line and rank, then the matching pass. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "trace.h"
#include "trace_args.h"

#define MAX_RANKS (1 << 20)

struct lines {
	gzFile f;
	const char *path;
	char *buf;
	size_t cap;
	long line;
	char **tok;
	int ntok, captok;
};

static int lines_open(struct lines *l, const char *path, struct cmn_err *e)
{
	memset(l, 0, sizeof *l);
	l->path = path;
	l->f = gzopen(path, "rb");
	if (!l->f)
		return cmn_err_set(e, CMN_EIO, "%s: cannot open: %s", path, strerror(errno));
	return 0;
}

static void lines_close(struct lines *l)
{
	if (l->f)
		gzclose(l->f);
	free(l->buf);
	free(l->tok);
}

/* Reads the next line into buf and splits it into tokens; 1 on a line, 0 at
 * the end, -1 with e set on an error. */
static int next_line(struct lines *l, struct cmn_err *e)
{
	size_t len = 0;
	for (;;) {
		if (l->cap - len < 2) {
			size_t c = l->cap ? l->cap * 2 : 4096;
			char *b = realloc(l->buf, c);
			if (!b)
				return cmn_err_set(e, CMN_ENOMEM, "out of memory"), -1;
			l->buf = b;
			l->cap = c;
		}
		if (!gzgets(l->f, l->buf + len,
		            (int)(l->cap - len > INT_MAX ? INT_MAX : l->cap - len))) {
			int err;
			const char *msg = gzerror(l->f, &err);
			if (err != Z_OK && err != Z_STREAM_END)
				return cmn_err_set(e, CMN_EIO, "%s:%ld: cannot read: %s", l->path,
				                   l->line + 1, msg),
				       -1;
			if (len == 0)
				return 0;
			break;
		}
		len += strlen(l->buf + len);
		if (len && l->buf[len - 1] == '\n')
			break;
	}
	l->line++;
	l->ntok = 0;
	for (char *p = l->buf;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p || *p == '#')
			break;
		if (l->ntok == l->captok) {
			int c = l->captok ? l->captok * 2 : 64;
			char **t = realloc(l->tok, (size_t)c * sizeof *t);
			if (!t)
				return cmn_err_set(e, CMN_ENOMEM, "out of memory"), -1;
			l->tok = t;
			l->captok = c;
		}
		l->tok[l->ntok++] = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
			p++;
		if (*p)
			*p++ = '\0';
	}
	return 1;
}

static int to_long(const char *s, long *v)
{
	char *end;
	errno = 0;
	*v = strtol(s, &end, 10);
	return end != s && *end == '\0' && errno == 0;
}

static int to_double(const char *s, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return end != s && *end == '\0' && errno == 0 && isfinite(*v);
}

#define FAIL(...)                                                                                  \
	do {                                                                                       \
		char m_[512];                                                                      \
		snprintf(m_, sizeof m_, __VA_ARGS__);                                              \
		return cmn_err_set(e, CMN_EINPUT, "%s:%ld: rank %ld: %s: %s", l->path, l->line,    \
		                   rank, trace_op_name(op), m_);                                   \
	} while (0)

/* Parses the tokens of one action line of rank `rank` into b. */
static int parse_action(struct lines *l, long rank, int nranks, struct trace_builder *b,
                        double **vec, struct cmn_err *e)
{
	int op = trace_op_of(l->tok[1]);
	if (op < 0)
		return cmn_err_set(e, CMN_EINPUT, "%s:%ld: rank %ld: unknown action '%s'", l->path,
		                   l->line, rank, l->tok[1]);
	const char *lay = trace_arg_layout[op];
	int mand = 0, opt = 0, bar = 0;
	for (const char *p = lay; *p; p++)
		if (*p == '|')
			bar = 1;
		else if (bar)
			opt++;
		else
			mand += *p == 'V' ? nranks : 1;
	int nargs = l->ntok - 2;
	if (nargs < mand || nargs > mand + opt) {
		if (opt)
			FAIL("expects %d to %d arguments, got %d", mand, mand + opt, nargs);
		FAIL("expects %d argument%s, got %d", mand, mand == 1 ? "" : "s", nargs);
	}
	struct trace_action a = {.op = (uint8_t)op,
	                         .dt1 = TR_NO_DT,
	                         .dt2 = TR_NO_DT,
	                         .nopt = (uint8_t)(nargs - mand),
	                         .peer = -1,
	                         .line = (uint32_t)l->line};
	int nv = 0, nx = 0, t = 2;
	for (const char *p = lay; *p && t < l->ntok; p++) {
		if (*p == '|')
			continue;
		const char *s = l->tok[t];
		long v;
		double d;
		switch (*p) {
		case 'A':
		case 'B':
		case 'L':
			if (!to_double(s, &d) || d < 0)
				FAIL("argument %d '%s' is not a non-negative number", t - 1, s);
			*(*p == 'B' ? &a.b : &a.a) = d;
			break;
		case 'x':
			if (!to_double(s, &d))
				FAIL("argument %d '%s' is not a number", t - 1, s);
			*(nx++ ? &a.b : &a.a) = d;
			break;
		case 'P':
		case 'R':
		case 'X':
			if (!to_long(s, &v) || v < 0 || v >= nranks)
				FAIL("%s '%s' is not a rank of this %d-rank trace",
				     *p == 'R' ? "root" : "peer", s, nranks);
			*(*p == 'X' ? &a.aux : &a.peer) = (int32_t)v;
			break;
		case 'T':
			if (!to_long(s, &v) || v < 0 || v > INT32_MAX)
				FAIL("tag '%s' is not an integer >= 0", s);
			a.tag = (int32_t)v;
			break;
		case 'D':
		case 'E':
			if (!to_long(s, &v) || trace_dt_size((int)v) < 0 || v >= TR_NO_DT)
				FAIL("'%s' is not a SimGrid datatype id (0-59)", s);
			*(*p == 'D' ? &a.dt1 : &a.dt2) = (uint8_t)v;
			break;
		case 'V':
			for (int i = 0; i < nranks; i++, t++) {
				s = l->tok[t];
				if (!to_double(s, &d) || d < 0 || d != floor(d) || d > INT_MAX)
					FAIL("count %d '%s' is not an integer >= 0", i + 1, s);
				(*vec)[nv * nranks + i] = d;
			}
			nv++;
			t--;
			break;
		case 'S':
			if (trace_builder_location(b, s, &a.aux))
				return cmn_err_set(e, CMN_ENOMEM, "out of memory");
			break;
		}
		t++;
	}
	if (trace_builder_add(b, (int)rank, &a, nv ? *vec : NULL, nv * nranks))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	return 0;
}

/* Parses every action line of an open file; expect >= 0: the only rank. */
static int parse_file(struct lines *l, int nranks, long expect, struct trace_builder *b,
                      struct cmn_err *e)
{
	double *vec = malloc(2 * (size_t)nranks * sizeof *vec);
	if (!vec)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	int rc, more;
	long n = 0;
	while ((more = next_line(l, e)) == 1) {
		if (l->ntok == 0)
			continue;
		long rank;
		if (!to_long(l->tok[0], &rank) || rank < 0 || rank >= nranks) {
			rc = cmn_err_set(e, CMN_EINPUT,
			                 "%s:%ld: '%s' is not a rank of this %d-rank trace",
			                 l->path, l->line, l->tok[0], nranks);
			goto out;
		}
		if (expect >= 0 && rank != expect) {
			rc = cmn_err_set(
			    e, CMN_EINPUT,
			    "%s:%ld: rank %ld in the file of rank %ld (entry %ld of the "
			    "index)",
			    l->path, l->line, rank, expect, expect + 1);
			goto out;
		}
		if (l->ntok < 2) {
			rc = cmn_err_set(e, CMN_EINPUT, "%s:%ld: rank %ld: no action", l->path,
			                 l->line, rank);
			goto out;
		}
		if ((rc = parse_action(l, rank, nranks, b, &vec, e)))
			goto out;
		n++;
	}
	rc = more < 0 ? e->code : 0;
	if (!rc && expect >= 0 && n == 0)
		rc = cmn_err_set(e, CMN_EINPUT, "%s: no actions for rank %ld", l->path, expect);
out:
	free(vec);
	return rc;
}

/* What a pre-scan tells of a file. */
struct scan {
	int actions;           /* 1: a file of actions, 0: an index */
	long minrank, maxrank; /* of the action lines */
	long maxpeer;          /* the largest peer or root named (fixed-size actions) */
};

static int scan_file(const char *path, struct scan *sc, struct cmn_err *e)
{
	struct lines l;
	if (lines_open(&l, path, e))
		return -1;
	int more;
	*sc = (struct scan){-1, -1, -1, -1};
	while ((more = next_line(&l, e)) == 1) {
		if (l.ntok == 0)
			continue;
		long r;
		int op = l.ntok >= 2 ? trace_op_of(l.tok[1]) : -1;
		int act = to_long(l.tok[0], &r) && op >= 0;
		if (sc->actions < 0)
			sc->actions = act;
		if (!sc->actions)
			break;
		if (!act)
			continue;
		if (sc->minrank < 0 || r < sc->minrank)
			sc->minrank = r;
		if (r > sc->maxrank)
			sc->maxrank = r;
		const char *lay = trace_arg_layout[op];
		if (strchr(lay, 'V'))
			continue;
		int t = 2;
		for (const char *p = lay; *p && t < l.ntok; p++) {
			long v;
			if (*p == '|')
				continue;
			if (strchr("PRX", *p) && to_long(l.tok[t], &v) && v > sc->maxpeer)
				sc->maxpeer = v;
			t++;
		}
	}
	lines_close(&l);
	if (more < 0)
		return -1;
	if (sc->actions < 0)
		return cmn_err_set(e, CMN_EINPUT, "%s: empty trace", path), -1;
	return 0;
}

/* An index entry looked up in the index's folder, then its parent, then as
 * given (SimGrid's examples name entries from either). */
static char *resolve(const char *index, const char *entry)
{
	struct stat st;
	if (entry[0] != '/') {
		const char *slash = strrchr(index, '/');
		int dlen = slash ? (int)(slash - index) : 1;
		const char *dir = slash ? index : ".";
		for (int up = 0; up < 2; up++) {
			size_t n = (size_t)dlen + strlen(entry) + 8;
			char *p = malloc(n);
			if (!p)
				return NULL;
			snprintf(p, n, "%.*s/%s%s", dlen, dir, up ? "../" : "", entry);
			if (stat(p, &st) == 0)
				return p;
			free(p);
		}
	}
	return strdup(entry);
}

int trace_load(const char *path, struct trace **out, struct cmn_err *e)
{
	return trace_load_ex(path, 0, out, e);
}

int trace_load_ex(const char *path, int flags, struct trace **out, struct cmn_err *e)
{
	*out = NULL;
	struct scan sc;
	if (scan_file(path, &sc, e))
		return e->code;
	int kind = sc.actions, fragment = -1;
	long maxrank = sc.maxrank;
	if (kind && sc.minrank == sc.maxrank && (sc.maxpeer > sc.maxrank || sc.minrank > 0)) {
		if (!(flags & TRACE_LOAD_FRAGMENT))
			return cmn_err_set(e, CMN_EINPUT,
			                   "%s holds only rank %ld's actions (one file of a larger "
			                   "trace): load the trace's index",
			                   path, sc.minrank);
		fragment = (int)sc.minrank;
		if (sc.maxpeer > maxrank)
			maxrank = sc.maxpeer;
	}
	struct lines l;
	struct trace_builder *b = NULL;
	char **files = NULL;
	int nranks = 0, rc = 0;
	if (kind) { /* one file of actions */
		if (maxrank < 0 || maxrank >= MAX_RANKS)
			return cmn_err_set(e, CMN_EINPUT, "%s: ranks 0..%ld: at most %d ranks",
			                   path, maxrank, MAX_RANKS);
		nranks = (int)maxrank + 1;
		if (!(b = trace_builder_new(nranks, path)))
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		if (lines_open(&l, path, e)) {
			trace_builder_free(b);
			return e->code;
		}
		rc = parse_file(&l, nranks, -1, b, e);
		lines_close(&l);
	} else { /* an index: one rank file per line */
		if (lines_open(&l, path, e))
			return e->code;
		int cap = 0, more;
		while (!rc && (more = next_line(&l, e)) == 1) {
			if (l.ntok == 0)
				continue;
			if (l.ntok > 1) {
				rc = cmn_err_set(
				    e, CMN_EINPUT,
				    "%s:%ld: neither an action (<rank> <action> ...) nor one "
				    "file name of an index",
				    path, l.line);
				break;
			}
			if (nranks == cap) {
				cap = cap ? cap * 2 : 64;
				char **f = realloc(files, (size_t)cap * sizeof *f);
				if (!f) {
					rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
					break;
				}
				files = f;
			}
			if (!(files[nranks++] = resolve(path, l.tok[0])))
				rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
		}
		if (!rc && more < 0)
			rc = e->code;
		lines_close(&l);
		if (!rc && !(b = trace_builder_new(nranks, path)))
			rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
		for (int r = 0; !rc && r < nranks; r++) {
			struct lines rl;
			if (lines_open(&rl, files[r], e)) {
				rc = e->code;
				cmn_err_prefix(e, "%s: rank %d", path, r);
				break;
			}
			rc = parse_file(&rl, nranks, r, b, e);
			lines_close(&rl);
		}
	}
	struct trace *t = NULL;
	if (!rc) {
		t = trace_builder_finish(b, e);
		b = NULL;
		if (!t)
			rc = e->code;
	}
	for (int r = 0; !rc && r < t->nranks; r++) {
		if (files) {
			t->files[r] = files[r];
			files[r] = NULL;
		}
		if (t->first[r] == t->first[r + 1] && fragment < 0)
			rc = cmn_err_set(e, CMN_EINPUT,
			                 "%s: rank %d has no actions (ranks 0..%d must all appear)",
			                 path, r, t->nranks - 1);
	}
	for (int r = 0; files && r < nranks; r++)
		free(files[r]);
	free(files);
	trace_builder_free(b);
	if (!rc && fragment >= 0)
		t->fragment = fragment;
	else if (!rc)
		rc = trace_check(t, e);
	if (rc) {
		trace_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

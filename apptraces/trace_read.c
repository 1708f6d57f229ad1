/* Reading TI traces (plain or gzip'ed): the layout of trace_args.h checked
 * for every line, numbers as trace_values.h says, errors with file:line and
 * rank, then the limits and the matching pass. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "gzpipe.h"
#include "trace.h"
#include "trace_args.h"
#include "trace_values.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_RANKS (1 << 20)
#define CHUNK     (1 << 16)

struct lines {
	struct cmn_gzpipe *f;
	const char *path;
	char *buf;
	size_t cap, start, end; /* unread bytes: buf[start .. end) */
	int eof;
	long line;
	char **tok;
	int ntok, captok;
};

/* Why path cannot be read as a trace file (into why), or NULL. */
static const char *unreadable(const char *path, char *why, size_t n)
{
	struct stat st;
	if (stat(path, &st) != 0)
		snprintf(why, n, "cannot open: %s", strerror(errno));
	else if (S_ISDIR(st.st_mode))
		snprintf(why, n, "is a directory, not a trace file");
	else if (!S_ISREG(st.st_mode))
		snprintf(why, n, "not a regular file (a trace file is read twice)");
	else
		return NULL;
	return why;
}

/* Opens path; on failure sets e to "PATH: error: why" and returns -1. */
static int lines_open(struct lines *l, const char *path, struct cmn_err *e)
{
	char why[300];
	memset(l, 0, sizeof *l);
	l->path = path;
	if (unreadable(path, why, sizeof why))
		return cmn_err_set(e, CMN_EIO, "%s: error: %s", path, why), -1;
	return cmn_gzpipe_open(path, 0, &l->f, e) ? -1 : 0; /* many small files: no thread */
}

static void lines_close(struct lines *l)
{
	cmn_gzpipe_close(l->f);
	free(l->buf);
	free(l->tok);
}

static int read_err(struct lines *l, const char *what, struct cmn_err *e)
{
	return cmn_err_set(e, CMN_EINPUT, "%s:%ld: error: %s", l->path, l->line + 1, what), -1;
}

/* Reads more of the file into buf; -1 with e set on an error. */
static int fill(struct lines *l, struct cmn_err *e)
{
	if (l->start > 0) {
		memmove(l->buf, l->buf + l->start, l->end - l->start);
		l->end -= l->start;
		l->start = 0;
	}
	if (l->cap - l->end < CHUNK + 1) {
		size_t c = l->cap ? l->cap * 2 : 4 * CHUNK;
		char *b = realloc(l->buf, c);
		if (!b)
			return cmn_err_set(e, CMN_ENOMEM, "out of memory"), -1;
		l->buf = b;
		l->cap = c;
	}
	long n = cmn_gzpipe_read(l->f, l->buf + l->end, l->cap - l->end - 1);
	const char *msg;
	enum cmn_gz_end end = n > 0 ? CMN_GZ_MORE : cmn_gzpipe_end(l->f, &msg);
	if (n < 0 || end == CMN_GZ_CUT) {
		char what[300];
		snprintf(what, sizeof what, "cannot read: %s",
		         end == CMN_GZ_CUT ? "the gzip'ed file is cut short" : msg);
		return read_err(l, what, e);
	}
	if (n == 0)
		l->eof = 1;
	l->end += (size_t)n;
	return 0;
}

static int too_long(struct lines *l, struct cmn_err *e)
{
	char what[96];
	snprintf(what, sizeof what, "line longer than %ld bytes", TRACE_MAX_LINE);
	return read_err(l, what, e);
}

/* Reads the next line and splits it into tokens; 1 on a line, 0 at the
 * end, -1 with e set on an error. */
static int next_line(struct lines *l, struct cmn_err *e)
{
	char *nl = NULL;
	while ((l->end == l->start || !(nl = memchr(l->buf + l->start, '\n', l->end - l->start))) &&
	       !l->eof) {
		if (l->end - l->start > (size_t)TRACE_MAX_LINE)
			return too_long(l, e);
		if (fill(l, e))
			return -1;
	}
	if (!nl && l->start == l->end)
		return 0;
	char *p = l->buf + l->start;
	size_t len = nl ? (size_t)(nl - p) : l->end - l->start;
	if (len > (size_t)TRACE_MAX_LINE)
		return too_long(l, e);
	if (memchr(p, '\0', len))
		return read_err(l, "a NUL byte in the line (not a text file?)", e);
	/* a carriage return with more text after it (not CRLF's, at the end):
	 * lines that end in CR only, which would read as one line */
	for (const char *cr = memchr(p, '\r', len); cr;
	     cr = memchr(cr + 1, '\r', len - (size_t)(cr + 1 - p))) {
		const char *t = cr + 1;
		while (t < p + len && (*t == ' ' || *t == '\t' || *t == '\r'))
			t++;
		if (t < p + len)
			return read_err(l,
			                "text after a carriage return inside the line (lines that "
			                "end in CR only, old Mac text): convert to LF line ends, "
			                "e.g. tr '\\r' '\\n' < FILE > NEW",
			                e);
		if (cr + 1 >= p + len)
			break;
	}
	if (l->line == UINT32_MAX)
		return read_err(l, "more than 4294967295 lines", e);
	if (l->line == 0 && len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0)
		return read_err(l,
		                "the file begins with a UTF-8 byte-order mark, which is not "
		                "part of a time-independent trace (it would join the first "
		                "word); remove it: sed -i '1s/^\\xEF\\xBB\\xBF//' FILE",
		                e);
	p[len] = '\0'; /* buf keeps a byte free past end */
	l->start += len + (nl ? 1 : 0);
	l->line++;
	l->ntok = 0;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r')
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
		while (*p && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		if (*p)
			*p++ = '\0';
	}
	return 1;
}

#define FAIL(...)                                                                                  \
	do {                                                                                       \
		char m_[600];                                                                      \
		snprintf(m_, sizeof m_, __VA_ARGS__);                                              \
		return cmn_err_set(e, CMN_EINPUT, "%s:%ld: error: rank %ld: %s: %s", l->path,      \
		                   l->line, rank, trace_op_name(op), m_);                          \
	} while (0)

/* Parses the tokens of one action line of rank `rank` into b. */
static int parse_action(struct lines *l, long rank, int nranks, struct trace_builder *b,
                        double **vec, struct cmn_err *e)
{
	int op = trace_op_of(l->tok[1]);
	if (op < 0)
		return cmn_err_set(e, CMN_EINPUT,
		                   "%s:%ld: error: rank %ld: unknown action '%.200s'", l->path,
		                   l->line, rank, l->tok[1]);
	const char *lay = trace_arg_layout[op];
	int mand = 0, opt = 0, bar = 0;
	for (const char *p = lay; *p; p++)
		if (*p == '|')
			bar = 1;
		else if (bar)
			opt++;
		else
			mand += *p == 'V' || *p == 'W' ? nranks : 1;
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
	int nv = 0, nx = 0, t = 2, field = 0, st;
	char name[64];
	for (const char *p = lay; *p && t < l->ntok; p++) {
		if (*p == '|')
			continue;
		const char *s = l->tok[t];
		const char *fn = trace_arg_name(op, field++, name, sizeof name);
		long v;
		double d;
		switch (*p) {
		case 'A':
		case 'B':
			if ((st = trace_num_count(s, UINT64_C(1) << 53, &d)))
				FAIL("%s (argument %d) '%.40s' %s", fn, t - 1, s,
				     trace_num_why(st));
			*(*p == 'B' ? &a.b : &a.a) = d;
			break;
		case 'G':
		case 'F':
			if ((st = trace_num_amount(s, TRACE_MAX_VALUE, &d)))
				FAIL("%s (argument %d) '%.40s' %s", fn, t - 1, s,
				     trace_num_why(st));
			*(*p == 'F' ? &a.b : &a.a) = d;
			break;
		case 'x':
			if (trace_num_decimal(s, &d))
				FAIL("%s (argument %d) '%.40s' is not a finite decimal number", fn,
				     t - 1, s);
			*(nx++ ? &a.b : &a.a) = d;
			break;
		case 'P':
		case 'R':
		case 'X':
			if (trace_num_index(s, nranks - 1, &v))
				FAIL("%s '%.40s' is not a rank of this %d-rank trace", fn, s,
				     nranks);
			*(*p == 'X' ? &a.aux : &a.peer) = (int32_t)v;
			break;
		case 'T':
			if (trace_num_index(s, INT32_MAX, &v))
				FAIL("tag '%.40s' is not an integer 0..%d", s, INT32_MAX);
			a.tag = (int32_t)v;
			break;
		case 'D':
		case 'E':
			if (trace_num_index(s, TR_NO_DT - 1, &v) || trace_dt_size((int)v) < 0)
				FAIL("%s '%.40s' is not a SimGrid datatype id (0-59)", fn, s);
			*(*p == 'D' ? &a.dt1 : &a.dt2) = (uint8_t)v;
			break;
		case 'V':
		case 'W':
			for (int i = 0; i < nranks; i++, t++) {
				s = l->tok[t];
				if ((st = trace_num_count(s, UINT64_C(1) << 53, &d)))
					FAIL("%s: count %d '%.40s' %s (argument %d)", fn, i + 1, s,
					     trace_num_why(st), t - 1);
				(*vec)[nv * nranks + i] = d;
			}
			nv++;
			t--;
			break;
		case 'S':
			if ((st = trace_builder_location(b, s, &a.aux)) == -2)
				FAIL("the location names pass 2^31 bytes");
			if (st)
				return cmn_err_set(e, CMN_ENOMEM, "out of memory");
			break;
		case 'L':
			if (trace_num_index(s, INT32_MAX, &v))
				FAIL("line '%.40s' is not an integer 0..%d", s, INT32_MAX);
			a.a = (double)v;
			break;
		}
		t++;
	}
	if ((st = trace_builder_add(b, (int)rank, &a, nv ? *vec : NULL, nv * nranks)) == -2)
		FAIL("the trace's count lists pass 2^31 counts");
	if (st)
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
		int st = trace_num_index(l->tok[0], MAX_RANKS - 1, &rank);
		if (st == TN_RANGE) {
			rc =
			    cmn_err_set(e, CMN_EINPUT,
			                "%s:%ld: error: rank '%.40s': a trace has at most %d ranks",
			                l->path, l->line, l->tok[0], MAX_RANKS);
			goto out;
		}
		if (st || rank >= nranks) {
			rc = cmn_err_set(
			    e, CMN_EINPUT,
			    "%s:%ld: error: '%.40s' is not a rank of this %d-rank trace", l->path,
			    l->line, l->tok[0], nranks);
			goto out;
		}
		if (expect >= 0 && rank != expect) {
			rc = cmn_err_set(
			    e, CMN_EINPUT,
			    "%s:%ld: error: rank %ld in the file of rank %ld (entry %ld "
			    "of the index)",
			    l->path, l->line, rank, expect, expect + 1);
			goto out;
		}
		if (l->ntok < 2) {
			rc = cmn_err_set(e, CMN_EINPUT, "%s:%ld: error: rank %ld: no action",
			                 l->path, l->line, rank);
			goto out;
		}
		if ((rc = parse_action(l, rank, nranks, b, &vec, e)))
			goto out;
		n++;
	}
	rc = more < 0 ? e->code : 0;
	if (!rc && expect >= 0 && n == 0)
		rc = cmn_err_set(e, CMN_EINPUT, "%s: error: no actions for rank %ld", l->path,
		                 expect);
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

/* Ranks and peers out of range are left to parse_file, which names them. */
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
		if (sc->actions < 0)
			sc->actions = op >= 0 || l.ntok > 1;
		if (!sc->actions)
			break;
		if (op < 0 || trace_num_index(l.tok[0], MAX_RANKS - 1, &r))
			continue;
		if (sc->minrank < 0 || r < sc->minrank)
			sc->minrank = r;
		if (r > sc->maxrank)
			sc->maxrank = r;
		const char *lay = trace_arg_layout[op];
		if (strpbrk(lay, "VW"))
			continue;
		int t = 2;
		for (const char *p = lay; *p && t < l.ntok; p++) {
			long v;
			if (*p == '|')
				continue;
			if (strchr("PRX", *p) && !trace_num_index(l.tok[t], MAX_RANKS - 1, &v) &&
			    v > sc->maxpeer)
				sc->maxpeer = v;
			t++;
		}
	}
	lines_close(&l);
	if (more < 0)
		return -1;
	if (sc->actions < 0)
		return cmn_err_set(e, CMN_EINPUT, "%s: error: empty trace (no actions)", path), -1;
	return 0;
}

/* An absolute entry (tracegen names rank files by absolute path) as its
 * last two components beside the index ("NAME.txt_files/rank-R.txt"), if
 * there: the trace folder may have moved, or been copied, since. */
static char *moved(const char *index, const char *entry)
{
	const char *last = strrchr(entry, '/'), *prev = last;
	while (prev > entry && prev[-1] != '/')
		prev--;
	if (!last || prev == entry)
		return NULL;
	const char *slash = strrchr(index, '/');
	int dlen = slash ? (int)(slash - index) : 1;
	size_t n = (size_t)dlen + strlen(prev) + 4;
	char *p = malloc(n);
	struct stat st;
	if (p && snprintf(p, n, "%.*s/%s", dlen, slash ? index : ".", prev) > 0 &&
	    stat(p, &st) == 0)
		return p;
	free(p);
	return NULL;
}

/* An index entry looked up in the index's folder, then its parent, then as
 * given (SimGrid's examples name entries from either); an absolute one
 * beside the index when it is there (the copy that goes with this index:
 * the same file when the folder has not moved), else as given. */
static char *resolve(const char *index, const char *entry)
{
	struct stat st;
	if (entry[0] == '/') {
		char *p = moved(index, entry);
		if (p)
			return p;
	}
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

/* An index's entries: the rank files, and the line naming each. */
struct index {
	char **files;
	long *line;
	int n, cap;
};

static void index_free(struct index *x)
{
	for (int r = 0; x->files && r < x->n; r++)
		free(x->files[r]);
	free(x->files);
	free(x->line);
}

static int index_read(const char *path, struct index *x, struct cmn_err *e)
{
	struct lines l;
	if (lines_open(&l, path, e))
		return e->code;
	int more, rc = 0;
	while (!rc && (more = next_line(&l, e)) == 1) {
		if (l.ntok == 0)
			continue;
		if (l.ntok > 1) {
			rc = cmn_err_set(
			    e, CMN_EINPUT,
			    "%s:%ld: error: neither an action (<rank> <action> ...) nor "
			    "one file name of an index",
			    path, l.line);
		} else if (x->n == MAX_RANKS) {
			rc = cmn_err_set(e, CMN_EINPUT,
			                 "%s:%ld: error: more than %d entries: a trace has at most "
			                 "%d ranks",
			                 path, l.line, MAX_RANKS, MAX_RANKS);
		} else if (x->n == x->cap) {
			int cap = x->cap ? x->cap * 2 : 64;
			char **f = realloc(x->files, (size_t)cap * sizeof *f);
			if (f)
				x->files = f;
			long *ln = f ? realloc(x->line, (size_t)cap * sizeof *ln) : NULL;
			if (ln)
				x->line = ln, x->cap = cap;
			else
				rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
		}
		if (!rc) {
			x->line[x->n] = l.line;
			if (!(x->files[x->n++] = resolve(path, l.tok[0])))
				rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
		}
	}
	if (!rc && more < 0)
		rc = e->code;
	lines_close(&l);
	return rc;
}

struct file_id {
	dev_t dev;
	ino_t ino;
	int rank;
};

static int cmp_id(const void *a, const void *b)
{
	const struct file_id *x = a, *y = b;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Whether file lies under folder root (both resolved: links, "..").
 * root_len: strlen of the resolved root. */
static int within(const char *root, size_t root_len, const char *file)
{
	char real[PATH_MAX];
	if (!realpath(file, real))
		return 0;
	return strncmp(real, root, root_len) == 0 && real[root_len] == '/';
}

/* Every entry a readable file, no file named twice; with confined, every
 * one under the index's folder (an archive's trace is all in it: an entry
 * outside is neither read nor quoted). */
static int index_check(const char *path, const struct index *x, int confined, struct cmn_err *e)
{
	char root[PATH_MAX];
	size_t root_len = 0;
	if (confined) {
		char dir[PATH_MAX];
		snprintf(dir, sizeof dir, "%s", path);
		char *slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		if (!realpath(slash ? dir : ".", root))
			return cmn_err_set(e, CMN_EIO, "%s: error: cannot resolve its folder",
			                   path);
		root_len = strlen(root);
	}
	struct file_id *id = malloc((size_t)(x->n ? x->n : 1) * sizeof *id);
	if (!id)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	int rc = 0;
	for (int r = 0; !rc && confined && r < x->n; r++)
		if (!within(root, root_len, x->files[r]))
			rc = cmn_err_set(
			    e, CMN_EINPUT,
			    "%s:%ld: error: rank %d: %s is not in the archive (an index "
			    "there names files in it)",
			    path, x->line[r], r, x->files[r]);
	for (int r = 0; !rc && r < x->n; r++) {
		char why[300];
		struct stat st;
		if (unreadable(x->files[r], why, sizeof why) || stat(x->files[r], &st) != 0)
			rc = cmn_err_set(e, CMN_EIO, "%s:%ld: error: rank %d: %s: %s", path,
			                 x->line[r], r, x->files[r], why);
		else
			id[r] = (struct file_id){st.st_dev, st.st_ino, r};
	}
	if (!rc)
		qsort(id, (size_t)x->n, sizeof *id, cmp_id);
	int dup = -1, first = -1; /* the earliest entry naming a file named before */
	for (int i = 1; !rc && i < x->n; i++)
		if (id[i].dev == id[i - 1].dev && id[i].ino == id[i - 1].ino &&
		    (dup < 0 || id[i].rank < dup)) {
			dup = id[i].rank;
			first = id[i - 1].rank;
			while (i < x->n && id[i].dev == id[i - 1].dev && id[i].ino == id[i - 1].ino)
				i++;
		}
	if (!rc && dup >= 0)
		rc =
		    cmn_err_set(e, CMN_EINPUT,
		                "%s:%ld: error: rank %d: %s is rank %d's file too (line %ld): each "
		                "rank has its own file",
		                path, x->line[dup], dup, x->files[dup], first, x->line[first]);
	free(id);
	return rc;
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
			return cmn_err_set(
			    e, CMN_EINPUT,
			    "%s: error: holds only rank %ld's actions (one file of a "
			    "larger trace): load the trace's index",
			    path, sc.minrank);
		fragment = (int)sc.minrank;
		if (sc.maxpeer > maxrank)
			maxrank = sc.maxpeer;
	}
	struct lines l;
	struct trace_builder *b = NULL;
	struct index x = {0};
	int nranks = 0, rc = 0;
	if (kind) { /* one file of actions; no valid rank at all: parse_file says where */
		nranks = maxrank < 0 ? 1 : (int)maxrank + 1;
		if (!(b = trace_builder_new(nranks, path)))
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		if (lines_open(&l, path, e)) {
			trace_builder_free(b);
			return e->code;
		}
		rc = parse_file(&l, nranks, -1, b, e);
		lines_close(&l);
	} else { /* an index: one rank file per line */
		rc = index_read(path, &x, e);
		if (!rc)
			rc = index_check(path, &x, flags & TRACE_LOAD_CONFINED, e);
		nranks = x.n;
		if (!rc && !(b = trace_builder_new(nranks, path)))
			rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
		for (int r = 0; !rc && r < nranks; r++) {
			struct lines rl;
			if (lines_open(&rl, x.files[r], e)) {
				rc = e->code;
				cmn_err_prefix(e, "%s:%ld: rank %d", path, x.line[r], r);
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
		if (x.files) {
			t->files[r] = x.files[r];
			x.files[r] = NULL;
		}
		if (t->first[r] == t->first[r + 1] && fragment < 0)
			rc = cmn_err_set(e, CMN_EINPUT,
			                 "%s: error: rank %d has no actions (ranks 0..%d must all "
			                 "appear)",
			                 path, r, t->nranks - 1);
	}
	index_free(&x);
	trace_builder_free(b);
	if (!rc)
		rc = trace_check_limits(t, e);
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

/* SimGrid's profiles in a platform: the files that host and link
 * attributes name (speed_file, availability_file, bandwidth_file,
 * latency_file, state_file) and the <trace> elements that <trace_connect>
 * ties to a resource. No machine family here has them (they are unmapped:
 * SimGrid simulates them), but SimGrid reads their values only while it
 * runs, and dies there on what it cannot use: a speed or bandwidth of 0
 * ("The Impossible Did Happen"), a host or link turned off under a job's
 * ranks (its actors die: a false deadlock), dates out of order, a loop it
 * cannot realise or one of period 0 (events forever at one date), and it
 * aborts on any <trace_connect> to a link (3.32). So each
 * profile is read here as SimGrid 3.32's ProfileBuilder reads it (lines
 * split at \n and \r, trimmed; empty and '#' or '%' lines skipped;
 * PERIODICITY P and LOOPAFTER D; DATE VALUE) and refused with
 * PLATFORM:LINE (the element) and PROFILE:LINE (the value) unless every
 * value keeps the bounds of plat_xml_value_ok. Stochastic profiles are
 * refused: SimGrid's draws, outside the tools' --seed. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/hash.h"
#include "../common/htab.h"
#include "xml_internal.h"
#include "xml_read.h"

/* The largest profile read (a profile is a list of dates; SimGrid keeps it
 * whole in memory). */
#define PROFILE_MAX_BYTES (64L << 20)

/* What a profile's values are: 'f' speed (ratio of the peak or flop/s),
 * 'b' bandwidth, 't' latency, 's' state (on above 0, off otherwise). */
static const struct {
	const char *element, *attr;
	char kind;
} files[] = {
    {"host", "speed_file", 'f'},        {"host", "availability_file", 'f'},
    {"host", "state_file", 's'},        {"peer", "speed_file", 'f'},
    {"peer", "availability_file", 'f'}, {"peer", "state_file", 's'},
    {"link", "bandwidth_file", 'b'},    {"link", "latency_file", 't'},
    {"link", "state_file", 's'},
};

static const struct {
	const char *kind;
	char value;
} connects[] = {
    {"SPEED", 'f'}, {"HOST_AVAIL", 's'}, {"BANDWIDTH", 'b'}, {"LATENCY", 't'}, {"LINK_AVAIL", 's'}};

/* Where a profile comes from, for messages: the element (its line) and,
 * for a file, its name. */
struct src {
	const struct xml_ctx *c;
	const xmlNode *root, *n;
	const char *what; /* e.g. "<host speed_file=\"p.txt\">" */
	const char *file; /* NULL: the element's own text */
	long first_line;  /* of the text, in the platform */
};

static int bad(const struct src *s, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int bad(const struct src *s, long line, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (s->file)
		return plat_xml_fail(s->c, s->n, "%s: %s:%ld: %s", s->what, s->file, line, msg);
	return plat_xml_fail_at(s->c, s->first_line + line - 1, "%s: %s", s->what, msg);
}

static const char *value_rule(char kind)
{
	return kind == 'f'   ? "a speed is at least 1e-12 (SimGrid dies on a speed of 0)"
	       : kind == 'b' ? "a bandwidth is at least 1e-12 B/s (SimGrid dies on 0)"
	       : kind == 't' ? "a latency is a time from 0 to 1e12 s"
	                     : "a state above 0 (on): a host or link turned off kills the job's "
	                       "ranks, and failures have no counterpart here";
}

/* A plain number (strtod's, whole token); 0 or -1. */
static int number(const char *tok, double *out)
{
	char *end;
	errno = 0;
	*out = strtod(tok, &end);
	return end != tok && !*end && !errno && isfinite(*out) ? 0 : -1;
}

static int is_law(const char *t)
{
	static const char *const laws[] = {"DET", "NORM",        "NORMAL", "GAUSS",  "GAUSSIAN",
	                                   "EXP", "EXPONENTIAL", "UNIF",   "UNIFORM"};
	for (size_t i = 0; i < sizeof laws / sizeof *laws; i++)
		if (strcmp(t, laws[i]) == 0)
			return 1;
	return 0;
}

/* Checks the text of one profile (periodicity: the <trace>'s attribute,
 * -1 for a file). */
static int check_text(const struct src *s, char *text, double periodicity, char kind)
{
	double last = 0, loop_after = 0;
	int loop = periodicity > 0, events = 0, periodic = loop, after = 0;
	long line = 0, loop_line = 0;
	for (char *p = text, *next; p; p = next) {
		size_t l = strcspn(p, "\n\r");
		/* CRLF one line end (SimGrid splits at both, its empty pieces
		 * skipped: only the line numbers differ) */
		next = !p[l] ? NULL : p[l] == '\r' && p[l + 1] == '\n' ? p + l + 2 : p + l + 1;
		p[l] = '\0';
		line++;
		while (*p == ' ' || *p == '\t')
			p++;
		for (size_t k = strlen(p); k && (p[k - 1] == ' ' || p[k - 1] == '\t'); k--)
			p[k - 1] = '\0';
		if (!*p || *p == '#' || *p == '%')
			continue;
		char *tok[4], *save = NULL;
		int nt = 0;
		for (char *t = strtok_r(p, " \t", &save); t && nt < 4;
		     t = strtok_r(NULL, " \t", &save))
			tok[nt++] = t;
		double v, d;
		if (strcmp(tok[0], "STOCHASTIC") == 0 || is_law(tok[0]) ||
		    (nt > 1 && is_law(tok[1])))
			return bad(s, line, "%s",
			           "a stochastic profile: SimGrid's own draws, outside the tools' "
			           "--seed, have no counterpart here");
		if (strcmp(tok[0], "PERIODICITY") == 0 || strcmp(tok[0], "LOOPAFTER") == 0) {
			int per = tok[0][0] == 'P';
			if (nt != 2 || number(tok[1], &v) || v < 0 || v > PLAT_XML_MAX_TIME)
				return bad(s, line, "%s needs one time from 0 to 1e12 s", tok[0]);
			if (per)
				periodicity = v, periodic = v > 0;
			else
				loop_after = v, after = 1;
			loop = 1;
			loop_line = line;
			continue;
		}
		if (nt != 2)
			return bad(
			    s, line, "%s",
			    "a line is DATE VALUE (or PERIODICITY P, LOOPAFTER D, a comment)");
		if (number(tok[0], &d) || d < 0 || d > PLAT_XML_MAX_TIME)
			return bad(s, line, "the date '%s' is not a time from 0 to 1e12 s", tok[0]);
		if (d < last)
			return bad(s, line,
			           "the date %s comes before the line above's: SimGrid "
			           "wants them in order",
			           tok[0]);
		if (number(tok[1], &v) ||
		    (kind == 's' ? v <= 0 : !plat_xml_value_ok(v, kind == 'f' ? 'b' : kind)))
			return bad(s, line, "the value '%s': %s", tok[1], value_rule(kind));
		last = d;
		events++;
	}
	/* what follows is the whole profile's: said at its PERIODICITY or
	 * LOOPAFTER line, or at the element (an empty profile, a periodicity
	 * attribute) */
	const char *why = !events ? "no DATE VALUE line: an empty profile"
	                  : periodic && after && loop_after > 0
	                      ? "PERIODICITY and LOOPAFTER together: SimGrid takes one"
	                  : periodic && periodicity < last
	                      ? "a period shorter than the last date: SimGrid cannot realise "
	                        "the loop"
	                  : loop && (periodic ? periodicity : last + loop_after) <= 0
	                      ? "a loop of period 0: SimGrid would replay it forever at one date"
	                      : NULL;
	if (why && loop_line)
		return bad(s, loop_line, "%s", why);
	return why ? plat_xml_fail(s->c, s->n, "%s: %s", s->what, why) : 0;
}

/* The <trace> elements seen so far in document order, by id (the first
 * of an id kept): a <trace_connect> names one before it. One table, not
 * a walk back over the document per connect (quadratic: 20,000 connects
 * took half a minute). */
struct trace_seen {
	const char *id;
	const xmlNode *n;
};

/* Profiles already found good, as the attribute names them (no lookup
 * again) and as the file they are (no reading again when other names
 * lead there): 2,000 hosts naming one 4 MB profile took 108 s. */
struct name_seen {
	const char *name;
	char kind;
};
struct file_seen {
	dev_t dev;
	ino_t ino;
	char kind;
};

struct seen {
	struct cmn_htab traces, names, files;
};

static uint64_t id_hash(const char *id)
{
	uint64_t h = CMN_FNV64_BASIS;
	for (; *id; id++)
		h = cmn_fnv64(h, (unsigned char)*id);
	return h;
}

static int id_match(const void *entry, const void *key)
{
	return strcmp(((const struct trace_seen *)entry)->id, key) == 0;
}

static int name_match(const void *entry, const void *key)
{
	const struct name_seen *a = entry, *b = key;
	return a->kind == b->kind && strcmp(a->name, b->name) == 0;
}

static int file_match(const void *entry, const void *key)
{
	const struct file_seen *a = entry, *b = key;
	return a->dev == b->dev && a->ino == b->ino && a->kind == b->kind;
}

static uint64_t file_hash(const struct file_seen *f)
{
	return ((uint64_t)f->ino * UINT64_C(0x9E3779B97F4A7C15)) ^ (uint64_t)f->dev ^
	       ((uint64_t)(unsigned char)f->kind << 56);
}

/* Notes entry (size bytes, copied; its pointers must outlive t) under
 * key in t, unless key is there already; 0, or -1 out of memory. */
static int note_seen(struct cmn_htab *t, uint64_t h, int (*match)(const void *, const void *),
                     const void *key, const void *entry, size_t size)
{
	int added;
	void *e = cmn_htab_put(t, h, match, key, &added);
	if (!e)
		return -1;
	if (added)
		memcpy(e, entry, size);
	return 0;
}

/* Tries to open dir/name (dir "": name itself) for reading, without
 * waiting on a FIFO (fstat then says what it is); found gets the path. */
static FILE *open_in(const char *dir, size_t dlen, const char *name, char *found, size_t len)
{
	if (dlen)
		snprintf(found, len, "%.*s/%s", (int)dlen, dir, name);
	else
		snprintf(found, len, "%s", name);
	int fd = open(found, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
	if (fd >= 0 && !f)
		close(fd);
	return f;
}

static FILE *open_profile(const struct src *s, const char *name, char *found, size_t len)
{
	FILE *f = open_in("", 0, name, found, len);
	if (f || name[0] == '/')
		return f;
	for (const xmlNode *cf = s->root->children; cf; cf = cf->next)
		for (const xmlNode *p = plat_xml_is(cf, "config") ? cf->children : NULL; p;
		     p = p->next) {
			const char *id = plat_xml_attr_value(p, "id"),
			           *v = plat_xml_attr_value(p, "value");
			if (plat_xml_is(p, "prop") && id && v && *v && strcmp(id, "path") == 0 &&
			    (f = open_in(v, strlen(v), name, found, len)))
				return f;
		}
	const char *slash = strrchr(s->c->path, '/');
	f = slash ? open_in(s->c->path, (size_t)(slash - s->c->path), name, found, len) : NULL;
	if (!f)
		snprintf(found, len, "%s", name);
	return f;
}

static int check_file(const struct src *s, const char *name, char kind, struct seen *seen)
{
	struct name_seen nk = {name, kind};
	uint64_t nh = id_hash(name) ^ (uint64_t)(unsigned char)kind;
	if (cmn_htab_find(&seen->names, nh, name_match, &nk))
		return 0;
	char found[4096];
	FILE *f = open_profile(s, name, found, sizeof found);
	struct stat st;
	if (!f)
		return plat_xml_fail(s->c, s->n,
		                     "%s: cannot open the profile '%s' (looked for from the "
		                     "working folder, the <config> paths and the platform's "
		                     "folder)",
		                     s->what, name);
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || st.st_size > PROFILE_MAX_BYTES) {
		fclose(f);
		return plat_xml_fail(s->c, s->n,
		                     "%s: the profile '%s' is not a regular file of at "
		                     "most 64 MiB",
		                     s->what, found);
	}
	struct file_seen fk;
	memset(&fk, 0, sizeof fk); /* padding too: entries are copied whole */
	fk.dev = st.st_dev, fk.ino = st.st_ino, fk.kind = kind;
	if (cmn_htab_find(&seen->files, file_hash(&fk), file_match, &fk)) {
		fclose(f);
		return note_seen(&seen->names, nh, name_match, &nk, &nk, sizeof nk)
		           ? plat_xml_nomem(s->c)
		           : 0;
	}
	char *text = malloc((size_t)st.st_size + 1);
	size_t got = text ? fread(text, 1, (size_t)st.st_size, f) : 0;
	int err = ferror(f);
	fclose(f);
	if (!text)
		return plat_xml_nomem(s->c);
	if (err || got != (size_t)st.st_size || memchr(text, '\0', got)) {
		free(text);
		return plat_xml_fail(s->c, s->n, "%s: cannot read the profile '%s' as text",
		                     s->what, found);
	}
	text[got] = '\0';
	struct src fs = *s;
	fs.file = found;
	int rc = check_text(&fs, text, -1, kind);
	free(text);
	if (!rc && (note_seen(&seen->files, file_hash(&fk), file_match, &fk, &fk, sizeof fk) ||
	            note_seen(&seen->names, nh, name_match, &nk, &nk, sizeof nk)))
		return plat_xml_nomem(s->c);
	return rc;
}

static int check_connect(const struct xml_ctx *c, const xmlNode *root, const xmlNode *n,
                         struct seen *seen)
{
	const char *kind = plat_xml_attr_value(n, "kind"), *id = plat_xml_attr_value(n, "trace");
	char value = 0;
	for (size_t i = 0; kind && i < sizeof connects / sizeof *connects; i++)
		if (strcmp(kind, connects[i].kind) == 0)
			value = connects[i].value;
	if (!value)
		return plat_xml_fail(c, n,
		                     "<trace_connect kind=\"%s\">: not one of SPEED HOST_AVAIL "
		                     "BANDWIDTH LATENCY LINK_AVAIL",
		                     kind ? kind : "");
	if (value != 'f' && strcmp(kind, "HOST_AVAIL") != 0)
		return plat_xml_fail(c, n,
		                     "<trace_connect kind=\"%s\">: SimGrid 3.32 aborts on a link's "
		                     "<trace_connect> (\"Cannot set a profile once the Link is "
		                     "sealed\"): give the link a %s attribute instead",
		                     kind,
		                     value == 'b'   ? "bandwidth_file"
		                     : value == 't' ? "latency_file"
		                                    : "state_file");
	const struct trace_seen *ts =
	    id ? cmn_htab_find(&seen->traces, id_hash(id), id_match, id) : NULL;
	const xmlNode *t = ts ? ts->n : NULL;
	if (!t)
		return plat_xml_fail(c, n,
		                     "<trace_connect trace=\"%s\">: no <trace> of that id "
		                     "before it",
		                     id ? id : "");
	const char *file = plat_xml_attr_value(t, "file"),
	           *per = plat_xml_attr_value(t, "periodicity");
	char what[300];
	snprintf(what, sizeof what, "<trace id=\"%s\"> (connected as %s at line %ld)", id, kind,
	         (long)xmlGetLineNo(n));
	double periodicity = -1;
	struct src s = {c, root, t, what, NULL, xmlGetLineNo(t)};
	if (per && *per && (number(per, &periodicity) || periodicity > PLAT_XML_MAX_TIME))
		return plat_xml_fail(
		    c, t, "<trace periodicity=\"%s\">: not a time of at most 1e12 s", per);
	if (file && *file)
		return check_file(&s, file, value, seen);
	xmlChar *text = xmlNodeGetContent(t);
	if (!text)
		return plat_xml_nomem(c);
	/* the text starts on the element's line (libxml2's line of the tag) */
	int rc = check_text(&s, (char *)text, periodicity, value);
	xmlFree(text);
	return rc;
}

static int walk(const struct xml_ctx *c, const xmlNode *root, const xmlNode *n, struct seen *seen)
{
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
			const char *v = plat_xml_attr_value(n, files[i].attr);
			if (!v || !*v || !plat_xml_is(n, files[i].element))
				continue;
			char what[300];
			snprintf(what, sizeof what, "<%s %s=\"%s\">", files[i].element,
			         files[i].attr, v);
			struct src s = {c, root, n, what, NULL, 0};
			int rc = check_file(&s, v, files[i].kind, seen);
			if (rc)
				return rc;
		}
		const char *tid = plat_xml_is(n, "trace") ? plat_xml_attr_value(n, "id") : NULL;
		if (tid) {
			struct trace_seen t = {tid, n};
			if (note_seen(&seen->traces, id_hash(tid), id_match, tid, &t, sizeof t))
				return plat_xml_nomem(c);
		}
		int rc = plat_xml_is(n, "trace_connect") ? check_connect(c, root, n, seen) : 0;
		if (!rc)
			rc = walk(c, root, n->children, seen);
		if (rc)
			return rc;
	}
	return 0;
}

int plat_xml_check_profiles(const struct xml_ctx *c, const xmlNode *root)
{
	struct seen seen;
	cmn_htab_init(&seen.traces, sizeof(struct trace_seen));
	cmn_htab_init(&seen.names, sizeof(struct name_seen));
	cmn_htab_init(&seen.files, sizeof(struct file_seen));
	int rc = walk(c, root, root, &seen);
	cmn_htab_free(&seen.traces);
	cmn_htab_free(&seen.names);
	cmn_htab_free(&seen.files);
	return rc;
}

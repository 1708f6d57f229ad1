/* Batsim JSON workloads (workload.h): the reader (jansson; plain or gzip'ed,
 * recognised by content), the choice between it and the SWF reader, and
 * what the rest of jobsched asks of a Batsim job (its id text, its profile). */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "swf_internal.h"

const char *const js_bprof_type_names[] = {"delay", "parallel_homogeneous", "smpi", NULL};

/* The whole (decompressed) stream into *buf (malloc'ed, NUL-terminated). */
static int slurp(struct js_input *in, char **buf, size_t *len, struct cmn_err *e)
{
	const char *path = in->path;
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap + 1);
	int rc = b ? 0 : cmn_err_set(e, CMN_ENOMEM, "%s: out of memory", path);
	while (!rc) {
		if (n == cap) {
			char *nb = realloc(b, 2 * cap + 1);
			if (!nb) {
				rc = cmn_err_set(e, CMN_ENOMEM, "%s: out of memory", path);
				break;
			}
			b = nb;
			cap *= 2;
		}
		long got = js_input_read(in, b + n, cap - n);
		const char *msg;
		if (got < 0) {
			js_input_end(in, &msg);
			rc = cmn_err_set(e, CMN_EIO, "%s: error: %s (corrupt gzip?)", path, msg);
		} else if (got == 0) {
			if (js_input_end(in, &msg) == CMN_GZ_CUT)
				rc = cmn_err_set(e, CMN_EINPUT,
				                 "%s: error: the gzip stream is cut short "
				                 "(truncated download?)",
				                 path);
			break;
		} else {
			n += (size_t)got;
		}
	}
	if (rc) {
		free(b);
		return rc;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

/* The file is opened once (a FIFO or a pipe can be read only once), its
 * first bytes telling the format. */
int js_workload_read(const char *path, int skip_bad, struct js_workload **out, struct cmn_err *e)
{
	*out = NULL;
	struct js_input in;
	if (js_input_open(path, "a workload", &in, e))
		return e->code;
	int rc;
	if (!in.json)
		rc = js_swf_read_input(&in, skip_bad, out, e);
	else if (skip_bad)
		rc = cmn_err_set(e, CMN_EUSAGE,
		                 "%s: --skip-bad applies to SWF logs: a Batsim workload is read "
		                 "whole or refused",
		                 path);
	else
		rc = js_batsim_read_input(&in, out, e);
	js_input_close(&in);
	return rc;
}

/* s escaped for a message (at most 100 of its bytes), in buf. */
static const char *shown(char *buf, size_t cap, const char *s)
{
	size_t n = strlen(s);
	js_escape(buf, cap, s, n > 100 ? 100 : n);
	return buf;
}
#define SHOWN_BYTES (4 * 100 + 1)

/* What the reader tracks. */
struct reading {
	const char *path;
	struct js_workload *w;
	json_t *seen; /* profile name -> index in w->bprofiles */
	size_t text_cap;
};

/* Appends s to the text pool: its offset, or 0 when out of memory. */
static uint32_t add_text(struct reading *r, const char *s)
{
	struct js_workload *w = r->w;
	size_t n = strlen(s) + 1;
	if (w->text_len + n > UINT32_MAX)
		return 0;
	if (w->text_len + n > r->text_cap) {
		size_t cap = r->text_cap ? 2 * r->text_cap : 4096;
		while (cap < w->text_len + n)
			cap *= 2;
		char *t = realloc(w->text, cap);
		if (!t)
			return 0;
		w->text = t;
		r->text_cap = cap;
	}
	if (w->text_len == 0)
		w->text[w->text_len++] = '\0';
	memcpy(w->text + w->text_len, s, n);
	uint32_t off = (uint32_t)w->text_len;
	w->text_len += n;
	return off;
}

/* A non-negative decimal integer without leading zeros that fits in
 * uint64: 1 and its value, else 0. */
static int numeric_id(const char *s, uint64_t *v)
{
	size_t n = strlen(s);
	if (n == 0 || n > 20 || strspn(s, "0123456789") != n || (s[0] == '0' && n > 1))
		return 0;
	errno = 0;
	unsigned long long x = strtoull(s, NULL, 10);
	if (errno)
		return 0;
	*v = x;
	return 1;
}

/* A number field of object o (NULL: absent). */
static int get_number(json_t *o, const char *key, double *v, int *present)
{
	json_t *x = json_object_get(o, key);
	*present = x != NULL;
	if (!x)
		return 0;
	if (!json_is_number(x))
		return -1;
	*v = json_number_value(x);
	return isfinite(*v) ? 0 : -1;
}

static const char *type_name(json_t *x)
{
	switch (json_typeof(x)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a real number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

/* The workload's folder joined with rel (unless absolute), malloc'ed. */
static char *beside(const char *path, const char *rel)
{
	const char *slash = strrchr(path, '/');
	size_t dir = rel[0] == '/' || !slash ? 0 : (size_t)(slash - path) + 1;
	char *s = malloc(dir + strlen(rel) + 1);
	if (s) {
		memcpy(s, path, dir);
		strcpy(s + dir, rel);
	}
	return s;
}

/* Reads profile `name` (p) into a new entry of w->bprofiles; where names
 * the job that uses it first. */
static int read_profile(struct reading *r, const char *name, json_t *p, const char *where,
                        struct cmn_err *e)
{
	struct js_workload *w = r->w;
	const char *path = r->path;
	char nbuf[SHOWN_BYTES], tbuf[SHOWN_BYTES];
	const char *rawname = name;
	name = shown(nbuf, sizeof nbuf, rawname);
	if (!json_is_object(p))
		return cmn_err_set(e, CMN_EINPUT,
		                   "%s: error: %s: profile \"%s\" is %s, not an object", path,
		                   where, name, type_name(p));
	json_t *t = json_object_get(p, "type");
	if (!json_is_string(t))
		return cmn_err_set(e, CMN_EINPUT, "%s: error: %s: profile \"%s\" has %s", path,
		                   where, name,
		                   t ? "a 'type' that is not a string" : "no 'type' field");
	const char *type = json_string_value(t);
	struct js_bprofile b = {0};
	int k = 0;
	while (js_bprof_type_names[k] && strcmp(js_bprof_type_names[k], type) != 0)
		k++;
	type = shown(tbuf, sizeof tbuf, type);
	if (!js_bprof_type_names[k])
		return cmn_err_set(e, CMN_EINPUT,
		                   "%s: error: %s: profile \"%s\" has type \"%s\", which this "
		                   "simulator does not run (it runs delay, parallel_homogeneous "
		                   "and smpi)",
		                   path, where, name, type);
	b.type = (enum js_bprof_type)k;
	double v;
	int present;
	static const char *const keys[] = {"delay", "cpu", "com"};
	double *dst[] = {&b.delay_s, &b.cpu_flops, &b.com_bytes};
	for (int i = 0; i < 3; i++) {
		if ((b.type == JS_BPROF_DELAY) != (i == 0) || b.type == JS_BPROF_SMPI)
			continue;
		if (get_number(p, keys[i], &v, &present) || !present || v < 0)
			return cmn_err_set(e, CMN_EINPUT,
			                   "%s: error: %s: profile \"%s\" (%s): '%s' must be a "
			                   "number >= 0%s",
			                   path, where, name, type, keys[i],
			                   present ? "" : " (missing)");
		if (i == 0 && v > JS_TIME_MAX_S)
			return cmn_err_set(
			    e, CMN_EINPUT,
			    "%s: error: %s: profile \"%s\" (%s): 'delay' %g is beyond "
			    "10^12 s (as the SWF reader's times)",
			    path, where, name, type, v);
		*dst[i] = v;
	}
	if (b.type == JS_BPROF_SMPI) {
		json_t *tr = json_object_get(p, "trace");
		if (!json_is_string(tr) || !json_string_value(tr)[0])
			return cmn_err_set(e, CMN_EINPUT,
			                   "%s: error: %s: profile \"%s\" (smpi): 'trace' must be "
			                   "the name of its trace file%s",
			                   path, where, name, tr ? "" : " (missing)");
		if (!(b.trace = beside(path, json_string_value(tr))))
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		struct stat st;
		if (stat(b.trace, &st) != 0 || !S_ISREG(st.st_mode) || access(b.trace, R_OK)) {
			cmn_err_set(
			    e, CMN_EINPUT,
			    "%s: error: %s: profile \"%s\" (smpi): trace %s: not a readable "
			    "file (a trace's name is relative to the workload's folder)",
			    path, where, name, b.trace);
			free(b.trace);
			return CMN_EINPUT;
		}
	}
	struct js_bprofile *np = realloc(w->bprofiles, (w->nbprofiles + 1) * sizeof *w->bprofiles);
	if (np)
		w->bprofiles = np;
	if (!np || !(b.name = strdup(rawname)) ||
	    json_object_set_new(r->seen, rawname, json_integer((json_int_t)w->nbprofiles))) {
		free(b.trace);
		free(b.name);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	w->bprofiles[w->nbprofiles++] = b;
	return 0;
}

/* Reads jobs[i] (x) into j; nb_res bounds res. */
static int read_job(struct reading *r, json_t *profiles, size_t i, json_t *x, long long nb_res,
                    struct js_job *j, struct cmn_err *e)
{
	const char *path = r->path;
	if (!json_is_object(x))
		return cmn_err_set(e, CMN_EINPUT, "%s: error: jobs[%zu] is %s, not an object", path,
		                   i, type_name(x));
	json_t *id = json_object_get(x, "id");
	char idbuf[32];
	const char *idt;
	if (json_is_string(id) && json_string_value(id)[0]) {
		idt = json_string_value(id);
	} else if (json_is_integer(id)) {
		snprintf(idbuf, sizeof idbuf, "%" JSON_INTEGER_FORMAT, json_integer_value(id));
		idt = idbuf;
	} else {
		return cmn_err_set(e, CMN_EINPUT,
		                   "%s: error: jobs[%zu]: 'id' must be a non-empty string or an "
		                   "integer (%s)",
		                   path, i, id ? type_name(id) : "missing");
	}
	char where[SHOWN_BYTES + 40], ibuf[SHOWN_BYTES];
	snprintf(where, sizeof where, "jobs[%zu] (id %s)", i, shown(ibuf, sizeof ibuf, idt));
	memset(j, 0, sizeof *j);
	for (int k = 0; k < JS_SWF_FIELDS; k++)
		j->f[k] = -1;
	if (!(j->id_text = add_text(r, idt)))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	double v;
	int present;
	if (get_number(x, "subtime", &v, &present) || !present || v < 0)
		return cmn_err_set(e, CMN_EINPUT,
		                   "%s: error: %s: 'subtime' must be a number >= 0 (seconds)%s",
		                   path, where, present ? "" : " (missing)");
	if (v > JS_TIME_MAX_S)
		return cmn_err_set(e, CMN_EINPUT,
		                   "%s: error: %s: 'subtime' %g is beyond 10^12 s (as the SWF "
		                   "reader's times)",
		                   path, where, v);
	j->f[JS_F_SUBMIT] = v;
	json_t *wt = json_object_get(x, "walltime");
	if (wt && !json_is_null(wt)) {
		if (get_number(x, "walltime", &v, &present) || !(v == -1 || v > 0))
			return cmn_err_set(e, CMN_EINPUT,
			                   "%s: error: %s: 'walltime' must be a number > 0 "
			                   "(seconds), or -1 for none",
			                   path, where);
		if (v > JS_TIME_MAX_S)
			return cmn_err_set(e, CMN_EINPUT,
			                   "%s: error: %s: 'walltime' %g is beyond 10^12 s (as the "
			                   "SWF reader's times)",
			                   path, where, v);
		j->f[JS_F_REQ_TIME] = v;
	}
	json_t *res = json_object_get(x, "res");
	if (!json_is_integer(res) || json_integer_value(res) <= 0)
		return cmn_err_set(e, CMN_EINPUT,
		                   "%s: error: %s: 'res' must be an integer > 0 (resources "
		                   "requested)%s",
		                   path, where, res ? "" : " (missing)");
	if (json_integer_value(res) > nb_res)
		return cmn_err_set(e, CMN_EINPUT,
		                   "%s: error: %s: res %" JSON_INTEGER_FORMAT
		                   " is more than the workload's nb_res %lld",
		                   path, where, json_integer_value(res), nb_res);
	j->f[JS_F_ALLOC_PROCS] = j->f[JS_F_REQ_PROCS] = (double)json_integer_value(res);
	json_t *pn = json_object_get(x, "profile");
	if (!json_is_string(pn))
		return cmn_err_set(e, CMN_EINPUT,
		                   "%s: error: %s: 'profile' must be the name of a profile%s", path,
		                   where, pn ? "" : " (missing)");
	const char *name = json_string_value(pn);
	char nbuf[SHOWN_BYTES];
	json_t *seen = json_object_get(r->seen, name);
	if (!seen) {
		json_t *p = json_object_get(profiles, name);
		if (!p)
			return cmn_err_set(e, CMN_EINPUT,
			                   "%s: error: %s: profile \"%s\" is not among the "
			                   "workload's profiles",
			                   path, where, shown(nbuf, sizeof nbuf, name));
		if (read_profile(r, name, p, where, e))
			return e->code;
		seen = json_object_get(r->seen, name);
	}
	size_t k = (size_t)json_integer_value(seen);
	const struct js_bprofile *b = &r->w->bprofiles[k];
	j->bprof = (uint32_t)k + 1;
	if (b->type == JS_BPROF_DELAY) {
		double sub = j->f[JS_F_SUBMIT];
		if (b->delay_s > 0 && sub + b->delay_s == sub) /* as the SWF reader's run times */
			return cmn_err_set(e, CMN_EINPUT,
			                   "%s: error: %s: profile \"%s\" (delay): 'delay' %g "
			                   "vanishes when added to 'subtime' %.17g (doubles there "
			                   "are %.3g s apart)",
			                   path, where, shown(nbuf, sizeof nbuf, name), b->delay_s,
			                   sub, nextafter(sub, INFINITY) - sub);
		j->f[JS_F_RUN] = b->delay_s;
	} else {
		j->replayed = 1;
		if (j->f[JS_F_REQ_TIME] == -1)
			return cmn_err_set(e, CMN_EINPUT,
			                   "%s: error: %s: profile \"%s\" (%s) has a run time only "
			                   "once replayed, and the job no walltime: give it one "
			                   "(the schedulers' estimate)",
			                   path, where, shown(nbuf, sizeof nbuf, name),
			                   js_bprof_type_names[b->type]);
	}
	return 0;
}

/* The sort below needs the pool: indices sorted by id text. */
struct id_sort {
	const char *text;
	uint32_t off;
	size_t index;
};

static int by_id(const void *a, const void *b)
{
	const struct id_sort *x = a, *y = b;
	int c = strcmp(x->text + x->off, y->text + y->off);
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* Ids unique (an error names both jobs); job numbers: the ids when all
 * are numeric, else the positions (and a note says so). */
static int number_jobs(struct reading *r, struct cmn_err *e)
{
	struct js_workload *w = r->w;
	struct id_sort *v = malloc(w->n * sizeof *v);
	if (!v)
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	for (size_t i = 0; i < w->n; i++)
		v[i] = (struct id_sort){w->text, w->jobs[i].id_text, i};
	qsort(v, w->n, sizeof *v, by_id);
	int rc = 0;
	char ibuf[SHOWN_BYTES];
	for (size_t i = 1; i < w->n && !rc; i++)
		if (strcmp(w->text + v[i].off, w->text + v[i - 1].off) == 0)
			rc = cmn_err_set(e, CMN_EINPUT,
			                 "%s: error: jobs[%zu] (id %s): the id of jobs[%zu] too "
			                 "(ids must be unique)",
			                 r->path, v[i].index,
			                 shown(ibuf, sizeof ibuf, w->text + v[i].off),
			                 v[i - 1].index);
	free(v);
	if (rc)
		return rc;
	int numeric = 1;
	for (size_t i = 0; i < w->n && numeric; i++)
		numeric = numeric_id(w->text + w->jobs[i].id_text, &w->jobs[i].id);
	for (size_t i = 0; i < w->n; i++) {
		if (!numeric)
			w->jobs[i].id = i + 1;
		w->jobs[i].f[JS_F_JOB] = (double)w->jobs[i].id;
	}
	if (!numeric &&
	    js_workload_note(w,
	                     "%s: some job ids are not non-negative integers: jobs are numbered "
	                     "by their position in the file (1, 2, ...); the per-job CSV's job_id "
	                     "shows the ids as written",
	                     r->path))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	return 0;
}

static int read_root(struct reading *r, json_t *root, struct cmn_err *e)
{
	const char *path = r->path;
	struct js_workload *w = r->w;
	if (!json_is_object(root))
		return cmn_err_set(e, CMN_EINPUT, "%s: error: the workload is %s, not an object",
		                   path, type_name(root));
	json_t *nb = json_object_get(root, "nb_res"), *jobs = json_object_get(root, "jobs");
	json_t *profiles = json_object_get(root, "profiles");
	if (!json_is_integer(nb) || json_integer_value(nb) <= 0)
		return cmn_err_set(e, CMN_EINPUT,
		                   "%s: error: 'nb_res' must be an integer > 0 (the resources the "
		                   "workload was made for)%s",
		                   path, nb ? "" : " (missing)");
	if (!json_is_array(jobs))
		return cmn_err_set(e, CMN_EINPUT, "%s: error: 'jobs' must be an array of jobs%s",
		                   path, jobs ? "" : " (missing)");
	if (!json_is_object(profiles))
		return cmn_err_set(e, CMN_EINPUT,
		                   "%s: error: 'profiles' must be an object of profiles%s", path,
		                   profiles ? "" : " (missing)");
	if (json_array_size(jobs) == 0)
		return cmn_err_set(e, CMN_EINPUT, "%s: error: no job ('jobs' is empty)", path);
	if (json_integer_value(nb) > (json_int_t)1 << 53) /* JS_EXACT_MAX */
		return cmn_err_set(e, CMN_EINPUT,
		                   "%s: error: 'nb_res' %" JSON_INTEGER_FORMAT
		                   " is beyond 2^53 (as the SWF reader's sizes)",
		                   path, json_integer_value(nb));
	long long nb_res = (long long)json_integer_value(nb);
	w->hdr.max_nodes = w->hdr.max_procs = nb_res;
	w->hdr.max_jobs = w->hdr.max_records = (long long)json_array_size(jobs);
	snprintf(w->hdr.version, sizeof w->hdr.version, "Batsim JSON");
	size_t i;
	json_t *x;
	json_array_foreach(jobs, i, x)
	{
		struct js_job j;
		if (read_job(r, profiles, i, x, nb_res, &j, e))
			return e->code;
		if (js_workload_push(w, &j))
			return cmn_err_set(e, CMN_ENOMEM, "out of memory");
		w->counts.read++;
	}
	if (number_jobs(r, e))
		return e->code;
	size_t unused = json_object_size(profiles) - w->nbprofiles;
	if (unused &&
	    js_workload_note(w, "%s: %zu profiles named by no job, not read", path, unused))
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	return 0;
}

int js_batsim_read(const char *path, struct js_workload **out, struct cmn_err *e)
{
	*out = NULL;
	struct js_input in;
	if (js_input_open(path, "a workload", &in, e))
		return e->code;
	int rc = js_batsim_read_input(&in, out, e);
	js_input_close(&in);
	return rc;
}

int js_batsim_read_input(struct js_input *in, struct js_workload **out, struct cmn_err *e)
{
	*out = NULL;
	const char *path = in->path;
	char *buf = NULL;
	size_t len = 0;
	if (slurp(in, &buf, &len, e))
		return e->code;
	json_error_t je;
	size_t bom = len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0; /* an editor's */
	json_t *root = json_loadb(buf + bom, len - bom, JSON_REJECT_DUPLICATES, &je);
	free(buf);
	if (!root)
		return cmn_err_set(e, CMN_EINPUT, "%s:%d:%d: error: %s", path, je.line, je.column,
		                   je.text);
	struct reading r = {.path = path, .w = js_workload_new(path), .seen = json_object()};
	int rc = r.w && r.seen ? read_root(&r, root, e)
	                       : cmn_err_set(e, CMN_ENOMEM, "%s: out of memory", path);
	json_decref(r.seen);
	json_decref(root);
	if (rc) {
		js_workload_free(r.w);
		return rc;
	}
	*out = r.w;
	return 0;
}

const char *js_job_id_text(const struct js_workload *w, const struct js_job *j, char *buf)
{
	if (j->id_text && w->text)
		return w->text + j->id_text;
	snprintf(buf, 24, "%" PRIu64, j->id);
	return buf;
}

const struct js_bprofile *js_job_bprofile(const struct js_workload *w, const struct js_job *j)
{
	return j->bprof && j->bprof <= w->nbprofiles ? &w->bprofiles[j->bprof - 1] : NULL;
}

int js_workload_check_replayed(const struct js_workload *w, int model_replays, const char *model,
                               struct cmn_err *e)
{
	for (size_t i = 0; !model_replays && i < w->n; i++) {
		const struct js_job *j = &w->jobs[i];
		if (!j->replayed)
			continue;
		const struct js_bprofile *b = js_job_bprofile(w, j);
		char buf[24], ibuf[SHOWN_BYTES], nbuf[SHOWN_BYTES];
		return cmn_err_set(
		    e, CMN_EUSAGE,
		    "%s: job %s: profile \"%s\" (%s) has no run time without a network "
		    "model, and %s replays none: replay it with a model that does "
		    "(cosim --runtime simgrid or flit)",
		    w->source, shown(ibuf, sizeof ibuf, js_job_id_text(w, j, buf)),
		    b ? shown(nbuf, sizeof nbuf, b->name) : "?",
		    b ? js_bprof_type_names[b->type] : "?", model);
	}
	return 0;
}

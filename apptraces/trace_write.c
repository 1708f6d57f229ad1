/* Writing TI traces: the layout of trace_args.h, counts as whole numbers
 * and amounts in %.12g (so that write, read, write gives the same text),
 * outputs renamed into place. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "../common/outfile.h"
#include "trace.h"
#include "trace_args.h"

/* Prints to f, or with f NULL only counts: the characters either way. */
__attribute__((format(printf, 2, 3))) static double out(FILE *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = f ? vfprintf(f, fmt, ap) : vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	return n > 0 ? n : 0;
}

/* " %lld" of v to f, or with f NULL its characters counted without
 * formatting (the alltoallv counts of `is` are ranks^2 of them). */
static double int_out(FILE *f, long long v)
{
	if (f)
		return out(f, " %lld", v);
	double chars = v < 0 ? 3 : 2;
	for (unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	     u >= 10; u /= 10)
		chars++;
	return chars;
}

/* One rank's actions as TI lines to f (NULL: counted only); returns their
 * characters. */
static double rank_text(const struct trace *t, int rank, FILE *f)
{
	double chars = 0;
	for (long k = t->first[rank]; k < t->first[rank + 1]; k++) {
		const struct trace_action *a = &t->act[k];
		chars += out(f, "%d %s", rank, trace_op_name(a->op));
		int opt = -1, nx = 0, nv = 0;
		for (const char *p = trace_arg_layout[a->op]; *p; p++) {
			if (*p == '|') {
				opt = 0;
				continue;
			}
			if (opt >= 0 && opt++ >= a->nopt)
				break;
			switch (*p) {
			case 'A':
			case 'L': chars += out(f, " %.0f", a->a); break;
			case 'B': chars += out(f, " %.0f", a->b); break;
			case 'G': chars += out(f, " %.12g", a->a); break;
			case 'F': chars += out(f, " %.12g", a->b); break;
			case 'x': chars += out(f, " %.12g", nx++ ? a->b : a->a); break;
			case 'P':
			case 'R': chars += int_out(f, a->peer); break;
			case 'X': chars += int_out(f, a->aux); break;
			case 'T': chars += int_out(f, a->tag); break;
			case 'D': chars += int_out(f, a->dt1); break;
			case 'E': chars += int_out(f, a->dt2); break;
			case 'V':
			case 'W':
				for (int i = 0; i < t->nranks; i++)
					chars += int_out(
					    f, t->counts[a->aux + (long)nv * t->nranks + i]);
				nv++;
				break;
			case 'S': chars += out(f, " %s", t->strings + a->aux); break;
			}
		}
		chars += out(f, "\n");
	}
	return chars;
}

int trace_write_rank(const struct trace *t, int rank, FILE *f)
{
	rank_text(t, rank, f);
	return ferror(f) ? -1 : 0;
}

double trace_write_bytes(const struct trace *t)
{
	double bytes = 0;
	for (int r = 0; r < t->nranks; r++)
		bytes += rank_text(t, r, NULL);
	return bytes;
}

int trace_write(const struct trace *t, const char *dir, const char *base, struct cmn_err *e)
{
	size_t n = strlen(dir) + strlen(base) + 64;
	char *files = malloc(n), *path = malloc(n + 32), *index = malloc(n);
	if (!files || !path || !index) {
		free(files), free(path), free(index);
		return cmn_err_set(e, CMN_ENOMEM, "out of memory");
	}
	snprintf(files, n, "%s/%s.txt_files", dir, base);
	snprintf(index, n, "%s/%s.txt", dir, base);
	int rc = 0;
	struct stat st;
	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
		rc =
		    cmn_err_set(e, CMN_EIO, "%s: not a folder (the trace goes into a folder)", dir);
	int made = 0, made_dir = 0; /* the rank files' folder, and dir, made here */
	if (!rc && !(made_dir = mkdir(dir, 0777) == 0) && errno != EEXIST)
		rc = cmn_err_set(e, CMN_EIO, "%s: cannot create: %s", dir, strerror(errno));
	else if (!rc && !(made = mkdir(files, 0777) == 0) && errno != EEXIST)
		rc = cmn_err_set(e, CMN_EIO, "%s: cannot create: %s", files, strerror(errno));
	struct statvfs fs;
	double need = 0, room = 0;
	if (!rc && statvfs(files, &fs) == 0) { /* a disk left full harms every program on it */
		need = trace_write_bytes(t);
		room = (double)fs.f_bavail * (double)fs.f_frsize;
		if (need > room) {
			int gb = room >= 1e9;
			rc =
			    cmn_err_set(e, CMN_EIO,
			                "%s: the trace takes about %.3g %s and its file system has "
			                "%.3g %s free: nothing written (give fewer ranks)",
			                dir, need / (gb ? 1e9 : 1e6), gb ? "GB" : "MB",
			                room / (gb ? 1e9 : 1e6), gb ? "GB" : "MB");
		}
	}
	if (!rc) /* the rank files' stale temporaries, once for all of them */
		cmn_outfile_sweep(files);
	int r = 0; /* the rank being written */
	for (; !rc && r < t->nranks; r++) {
		snprintf(path, n + 32, "%s/rank-%d.txt", files, r);
		struct cmn_outfile o;
		if ((rc = cmn_outfile_open_swept(&o, path, e)))
			break;
		if (trace_write_rank(t, r, o.f)) {
			int err = cmn_outfile_stream_error(o.f);
			cmn_outfile_abort(&o);
			rc = cmn_err_set(e, CMN_EIO, "%s: cannot write: %s", path, strerror(err));
			break;
		}
		rc = cmn_outfile_commit(&o, e);
	}
	if (rc && made) { /* a trace cut short in a folder made here: none of it stays */
		for (int k = 0; k <= r && k < t->nranks; k++) { /* those written */
			snprintf(path, n + 32, "%s/rank-%d.txt", files, k);
			unlink(path);
		}
		rmdir(files);
	}
	if (rc && made_dir)
		rmdir(dir); /* empty unless something else was put there meanwhile */
	/* the rank files by absolute path: SimGrid's replay opens an index's
	 * entries as written, from its working directory (our reader also finds
	 * them beside the index when the folder has moved) */
	char *abs = !rc ? realpath(files, NULL) : NULL;
	if (!rc && !abs)
		rc = cmn_err_set(e, CMN_EIO, "%s: cannot resolve: %s", files, strerror(errno));
	struct cmn_outfile o;
	if (!rc && !(rc = cmn_outfile_open(&o, index, e))) {
		for (int k = 0; k < t->nranks; k++)
			fprintf(o.f, "%s/rank-%d.txt\n", abs, k);
		rc = cmn_outfile_commit(&o, e);
	}
	free(abs);
	free(files);
	free(path);
	free(index);
	return rc;
}

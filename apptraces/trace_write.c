/* Writing TI traces: the layout of trace_args.h, counts as whole numbers
 * and amounts in %.12g (so that write, read, write gives the same text),
 * outputs renamed into place. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "../common/outfile.h"
#include "trace.h"
#include "trace_args.h"

static void num(FILE *f, double v)
{
	fprintf(f, " %.12g", v);
}

static void count(FILE *f, double v)
{
	fprintf(f, " %.0f", v);
}

int trace_write_rank(const struct trace *t, int rank, FILE *f)
{
	for (long k = t->first[rank]; k < t->first[rank + 1]; k++) {
		const struct trace_action *a = &t->act[k];
		fprintf(f, "%d %s", rank, trace_op_name(a->op));
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
			case 'L': count(f, a->a); break;
			case 'B': count(f, a->b); break;
			case 'G': num(f, a->a); break;
			case 'F': num(f, a->b); break;
			case 'x': num(f, nx++ ? a->b : a->a); break;
			case 'P':
			case 'R': fprintf(f, " %d", a->peer); break;
			case 'X': fprintf(f, " %d", a->aux); break;
			case 'T': fprintf(f, " %d", a->tag); break;
			case 'D': fprintf(f, " %d", a->dt1); break;
			case 'E': fprintf(f, " %d", a->dt2); break;
			case 'V':
			case 'W':
				for (int i = 0; i < t->nranks; i++)
					fprintf(f, " %" PRId64,
					        t->counts[a->aux + (long)nv * t->nranks + i]);
				nv++;
				break;
			case 'S': fprintf(f, " %s", t->strings + a->aux); break;
			}
		}
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

/* Characters of a whole number as count() and " %d" print it, its space
 * included (trace_write_bytes follows trace_write_rank's layout). */
static double width(double v)
{
	double w = v < 0 ? 3 : 2;
	for (v = fabs(v); v >= 10; v /= 10)
		w++;
	return w;
}

double trace_write_bytes(const struct trace *t)
{
	double bytes = 0;
	for (int r = 0; r < t->nranks; r++) {
		double prefix = width(r) + 1; /* the rank, the op's space, the newline */
		for (long k = t->first[r]; k < t->first[r + 1]; k++) {
			const struct trace_action *a = &t->act[k];
			bytes += prefix + (double)strlen(trace_op_name(a->op));
			int opt = -1, nv = 0, nx = 0;
			for (const char *p = trace_arg_layout[a->op]; *p; p++) {
				if (*p == '|') {
					opt = 0;
					continue;
				}
				if (opt >= 0 && opt++ >= a->nopt)
					break;
				switch (*p) {
				case 'V':
				case 'W':
					for (int i = 0; i < t->nranks; i++)
						bytes += width(
						    (double)t->counts[a->aux +
						                      (long)nv * t->nranks + i]);
					nv++;
					break;
				case 'S': bytes += 1 + (double)strlen(t->strings + a->aux); break;
				case 'A':
				case 'L': bytes += width(a->a); break;
				case 'B': bytes += width(a->b); break;
				case 'P':
				case 'R': bytes += width(a->peer); break;
				case 'G': bytes += 1 + snprintf(NULL, 0, "%.12g", a->a); break;
				case 'F': bytes += 1 + snprintf(NULL, 0, "%.12g", a->b); break;
				case 'x':
					bytes += 1 + snprintf(NULL, 0, "%.12g", nx++ ? a->b : a->a);
					break;
				case 'X': bytes += width(a->aux); break;
				case 'T': bytes += width(a->tag); break;
				case 'D': bytes += width(a->dt1); break;
				case 'E': bytes += width(a->dt2); break;
				}
			}
		}
	}
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
	int made = 0; /* the rank files' folder made here */
	if (!rc && (mkdir(dir, 0777) && errno != EEXIST))
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
		if (rc && made)
			rmdir(files); /* still empty: no file is written before */
	}
	for (int r = 0; !rc && r < t->nranks; r++) {
		snprintf(path, n + 32, "%s/rank-%d.txt", files, r);
		struct cmn_outfile o;
		if ((rc = cmn_outfile_open(&o, path, e)))
			break;
		if (trace_write_rank(t, r, o.f)) {
			cmn_outfile_abort(&o);
			rc = cmn_err_set(e, CMN_EIO, "%s: cannot write", path);
			break;
		}
		rc = cmn_outfile_commit(&o, e);
	}
	/* the rank files by absolute path: SimGrid's replay opens an index's
	 * entries as written, from its working directory (our reader also finds
	 * them beside the index when the folder has moved) */
	char *abs = !rc ? realpath(files, NULL) : NULL;
	if (!rc && !abs)
		rc = cmn_err_set(e, CMN_EIO, "%s: cannot resolve: %s", files, strerror(errno));
	struct cmn_outfile o;
	if (!rc && !(rc = cmn_outfile_open(&o, index, e))) {
		for (int r = 0; r < t->nranks; r++)
			fprintf(o.f, "%s/rank-%d.txt\n", abs, r);
		rc = cmn_outfile_commit(&o, e);
	}
	free(abs);
	free(files);
	free(path);
	free(index);
	return rc;
}

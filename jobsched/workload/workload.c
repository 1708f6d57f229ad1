/* The workload container: jobs as read or generated, their counts and the
 * reader's notes. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

struct js_workload *js_workload_new(const char *source)
{
	struct js_workload *w = calloc(1, sizeof *w);
	if (!w)
		return NULL;
	snprintf(w->source, sizeof w->source, "%s", source);
	w->hdr.max_jobs = w->hdr.max_records = w->hdr.max_nodes = w->hdr.max_procs = -1;
	w->hdr.unix_start_time = -1;
	return w;
}

int js_workload_push(struct js_workload *w, const struct js_job *j)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 1024;
		struct js_job *p = realloc(w->jobs, cap * sizeof *p);
		if (!p)
			return CMN_ENOMEM;
		w->jobs = p;
		w->cap = cap;
	}
	w->jobs[w->n++] = *j;
	return 0;
}

int js_workload_note(struct js_workload *w, const char *fmt, ...)
{
	if (w->nnotes >= JS_NOTES_MAX) {
		w->notes_more++;
		return 0;
	}
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	char **notes = realloc(w->notes, (w->nnotes + 1) * sizeof *notes);
	if (!notes)
		return CMN_ENOMEM;
	w->notes = notes;
	notes[w->nnotes] = strdup(buf);
	if (!notes[w->nnotes])
		return CMN_ENOMEM;
	w->nnotes++;
	return 0;
}

void js_workload_free(struct js_workload *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->hdr.nlines; i++)
		free(w->hdr.lines[i]);
	free(w->hdr.lines);
	for (int k = 0; k < JS_H_N; k++)
		free(w->hdr.rest[k]);
	for (size_t i = 0; i < w->nnotes; i++)
		free(w->notes[i]);
	free(w->notes);
	for (size_t i = 0; i < w->nbprofiles; i++) {
		free(w->bprofiles[i].name);
		free(w->bprofiles[i].trace);
	}
	free(w->bprofiles);
	free(w->text);
	free(w->jobs);
	free(w);
}

void js_workload_print_notes(FILE *f, const char *prefix, const struct js_workload *w)
{
	for (size_t i = 0; i < w->nnotes; i++)
		fprintf(f, "%s%s\n", prefix, w->notes[i]);
	if (w->notes_more)
		fprintf(f, "%s... and %ld more notes\n", prefix, w->notes_more);
}

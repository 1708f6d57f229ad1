/* CSV reading (csv_read.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv_read.h"

/* Splits line (modified in place) into fields; returns their count or -1
 * on a bad quote. fields has room for max. */
static int split(char *line, char **fields, int max)
{
	int n = 0;
	char *p = line;
	for (;;) {
		if (n == max)
			return -1;
		char *w = p;
		fields[n++] = w;
		if (*p == '"') {
			p++;
			for (;;) {
				if (*p == '\0')
					return -1;
				if (*p == '"' && p[1] == '"') {
					*w++ = '"';
					p += 2;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					*w++ = *p++;
				}
			}
			if (*p != ',' && *p != '\0')
				return -1;
		} else {
			while (*p && *p != ',')
				*w++ = *p++;
		}
		int last = *p == '\0';
		*w = '\0';
		if (last)
			return n;
		p++;
	}
}

void cmn_csv_free(struct cmn_csv *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nrows; i++) {
		if (c->rows[i])
			free(c->rows[i][0]); /* one buffer per row */
		free(c->rows[i]);
	}
	if (c->header)
		free(c->header[0]);
	free(c->header);
	free(c->rows);
	free(c);
}

int cmn_csv_read(const char *path, struct cmn_csv **out, struct cmn_err *e)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return cmn_err_set(e, CMN_EIO, "%s: cannot open", path);
	struct cmn_csv *c = calloc(1, sizeof *c);
	char *line = NULL;
	size_t cap = 0, rcap = 0;
	ssize_t len;
	int rc = c ? 0 : cmn_err_set(e, CMN_ENOMEM, "out of memory");
	char *fields[4096];
	for (long ln = 1; !rc && (len = getline(&line, &cap, f)) >= 0; ln++) {
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		char *copy = strdup(line);
		int n = copy ? split(copy, fields, 4096) : -2;
		if (n == -2) {
			rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
		} else if (n < 0 || (c->header && n != c->ncols)) {
			rc =
			    cmn_err_set(e, CMN_EINPUT, "%s:%ld: %s", path, ln,
			                n < 0 ? "bad quoting" : "not as many fields as the header");
		} else {
			char **row = malloc((size_t)n * sizeof *row);
			if (!row)
				rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
			else
				memcpy(row, fields, (size_t)n * sizeof *row);
			if (!rc && !c->header) {
				c->header = row;
				c->ncols = n;
				copy = NULL;
			} else if (!rc) {
				if (c->nrows == rcap) {
					rcap = rcap ? 2 * rcap : 64;
					char ***r = realloc(c->rows, rcap * sizeof *r);
					if (!r) {
						free(row);
						rc = cmn_err_set(e, CMN_ENOMEM, "out of memory");
					} else {
						c->rows = r;
					}
				}
				if (!rc) {
					c->rows[c->nrows++] = row;
					copy = NULL;
				}
			}
		}
		free(copy);
	}
	free(line);
	fclose(f);
	if (!rc && !c->header)
		rc = cmn_err_set(e, CMN_EINPUT, "%s: empty (no header row)", path);
	if (rc) {
		cmn_csv_free(c);
		return rc;
	}
	*out = c;
	return 0;
}

int cmn_csv_col(const struct cmn_csv *c, const char *name)
{
	for (int i = 0; i < c->ncols; i++)
		if (strcmp(c->header[i], name) == 0)
			return i;
	return -1;
}

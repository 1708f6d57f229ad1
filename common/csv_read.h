/* A small CSV reader (RFC 4180: quoted fields with "" for a quote, no
 * newlines inside fields): a whole file as rows of fields, and lookup of a
 * column by its header name. */
#ifndef CMN_CSV_READ_H
#define CMN_CSV_READ_H

#include <stddef.h>

#include "err.h"

struct cmn_csv {
	size_t nrows;  /* rows after the header */
	int ncols;     /* fields of the header row */
	char **header; /* ncols names */
	char ***rows;  /* nrows rows of ncols fields each */
};

/* Reads path; every row must have the header's field count (file:line). */
int cmn_csv_read(const char *path, struct cmn_csv **out, struct cmn_err *e);
void cmn_csv_free(struct cmn_csv *c);
/* The index of the column named name, or -1 (e names the file's columns). */
int cmn_csv_col(const struct cmn_csv *c, const char *name);

#endif

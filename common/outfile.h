/* Outputs that never appear half-written: data goes to a temporary file
 * beside the target, renamed into place only on commit. */
#ifndef CMN_OUTFILE_H
#define CMN_OUTFILE_H

#include <stdio.h>

#include "err.h"

struct cmn_outfile {
	FILE *f;
	char *path; /* final name */
	char *tmp;  /* temporary name, same directory */
};

/* Opens a temporary file for path; out->f is where to write. */
int cmn_outfile_open(struct cmn_outfile *out, const char *path, struct cmn_err *e);

/* Like open, for a file another program writes: creates the temporary
 * (out->tmp), closes it (out->f stays NULL); commit renames it. */
int cmn_outfile_reserve(struct cmn_outfile *out, const char *path, struct cmn_err *e);

/* Closes and renames into place; on a write error removes the temporary. */
int cmn_outfile_commit(struct cmn_outfile *out, struct cmn_err *e);

/* Closes and removes the temporary (no-op on a never-opened or committed one). */
void cmn_outfile_abort(struct cmn_outfile *out);

#endif

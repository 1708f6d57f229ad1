/* Writing CSV fields (RFC 4180), the counterpart of csv_read.h. */
#ifndef CMN_CSV_WRITE_H
#define CMN_CSV_WRITE_H
#include <stdio.h>
/* Writes v as one field: as is, or in double quotes ("" for a quote) when it
 * holds a comma, a quote or a line break. */
void cmn_csv_field(FILE *f, const char *v);
#endif

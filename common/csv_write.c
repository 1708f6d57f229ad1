/* Writing CSV fields (csv_write.h). */
#include "csv_write.h"

#include <string.h>

void cmn_csv_field(FILE *f, const char *v)
{
	if (!strpbrk(v, ",\"\n\r")) {
		fputs(v, f);
		return;
	}
	fputc('"', f);
	for (; *v; v++) {
		if (*v == '"')
			fputc('"', f);
		fputc(*v, f);
	}
	fputc('"', f);
}

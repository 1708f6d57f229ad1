/* Growing arrays (grow.h). */
#include <stdlib.h>

#include "grow.h"

int cmn_grow(void **p, long *cap, long need, long first, size_t size)
{
	if (need <= *cap)
		return 0;
	long c = *cap ? *cap : first;
	while (c < need)
		c *= 2;
	void *q = realloc(*p, (size_t)c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

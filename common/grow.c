/* Growing arrays (grow.h). */
#include <limits.h>
#include <stdlib.h>

#include "checked.h"
#include "grow.h"

int cmn_grow(void **p, long *cap, long need, long first, size_t size)
{
	if (need <= *cap)
		return 0;
	long c = *cap ? *cap : first;
	while (c < need)
		c = c > LONG_MAX / 2 ? need : 2 * c;
	void *q = realloc(*p, cmn_size_mul((size_t)c, size));
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

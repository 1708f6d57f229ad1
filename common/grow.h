/* Growing arrays: the one doubling reallocation every growable array of
 * the project uses. */
#ifndef CMN_GROW_H
#define CMN_GROW_H

#include <stddef.h>

/* Makes *p (*cap elements of size bytes) hold at least need elements:
 * capacity first (when *cap is 0) doubled until enough. 0, or -1 when out
 * of memory (*p and *cap unchanged). */
int cmn_grow(void **p, long *cap, long need, long first, size_t size);

#endif

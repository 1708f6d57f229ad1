/* The arrays every part of the linkload model has (ll_part.h): its links
 * with their counts, and what a computation keeps of it. */
#include <stdlib.h>

#include "ll_part.h"

int ll_part_links(struct ll_part *p, int n)
{
	size_t z = (size_t)(n ? n : 1);
	p->nlinks = n;
	p->links = malloc(z * sizeof *p->links);
	p->users = malloc(z * sizeof *p->users);
	p->users0 = malloc(z * sizeof *p->users0);
	p->at = malloc(z * sizeof *p->at);
	return p->links && p->users && p->users0 && p->at ? 0 : -1;
}

void ll_part_free(struct ll_part *p)
{
	free(p->links), free(p->users), free(p->users0), free(p->at);
	free(p->memb), free(p->bound), free(p->hoff), free(p->hist), free(p->log);
}

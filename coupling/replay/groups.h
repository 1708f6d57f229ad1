/* Groups of running jobs that can slow each other down. Under a flow-level
 * model two jobs interact only through links their traffic crosses in
 * common (a link and its reverse count as one: SimGrid's cross-traffic
 * loads the reverse direction), so the running set splits into groups,
 * the connected components of "shares a link", and each group can be
 * replayed on its own with the same result. */
#ifndef CPL_GROUPS_H
#define CPL_GROUPS_H

#include "../../platforms/platform.h"

struct cpl_groups;

int cpl_groups_new(const struct plat_machine *m, struct cpl_groups **out);
void cpl_groups_free(struct cpl_groups *g);

/* The distinct links (undirected ids) the routes of a job's communicating
 * rank pairs cross: pairs[2i] -> pairs[2i+1] as ranks, nodes[rank] their
 * nodes. *links is malloc'ed (caller frees). 0 or -1 out of memory. */
int cpl_groups_job_links(struct cpl_groups *g, const int *nodes, const int *pairs, int npairs,
                         int **links, int *nlinks);

/* group[i] = the smallest index of the jobs in job i's group, for n jobs
 * with their link lists. */
void cpl_groups_of(struct cpl_groups *g, int n, const int *const *links, const int *nlinks,
                   int *group);

#endif

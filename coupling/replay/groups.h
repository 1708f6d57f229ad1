/* Groups of running jobs that can slow each other down. Two jobs interact
 * only through links their traffic crosses in common, so the running set
 * splits into groups, the connected components of "shares a link", and
 * each group can be replayed on its own with the same result. Under
 * SimGrid's flow model a link and its reverse count as one (its
 * cross-traffic loads the reverse direction); on the flit-level network
 * they do not (directed): a link's two directions are separate channels
 * with separate router ports, and its credits go back on a wire of their
 * own. */
#ifndef CPL_GROUPS_H
#define CPL_GROUPS_H

#include "../../platforms/platform.h"

struct cpl_groups;

/* directed: a link and its reverse are distinct (the flit network). */
int cpl_groups_new(const struct plat_machine *m, int directed, struct cpl_groups **out);
void cpl_groups_free(struct cpl_groups *g);

/* The distinct links (ids: undirected ones unless directed) the routes of a job's communicating
 * rank pairs cross: pairs[2i] -> pairs[2i+1] as ranks, nodes[rank] their
 * nodes. *links is malloc'ed (caller frees). 0 or -1 out of memory. */
int cpl_groups_job_links(struct cpl_groups *g, const int *nodes, const int *pairs, int npairs,
                         int **links, int *nlinks);

/* group[i] = the smallest index of the jobs in job i's group, for n jobs
 * with their link lists. */
void cpl_groups_of(struct cpl_groups *g, int n, const int *const *links, const int *nlinks,
                   int *group);

#endif

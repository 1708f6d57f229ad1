/* What the SimGrid engine adds to a platform once SimGrid has loaded it:
 * the parts of our machine model that SimGrid's XML cannot say. */
#ifndef NET_SG_PLATFORM_H
#define NET_SG_PLATFORM_H

#include "../../common/err.h"
#include "../../platforms/platform.h"

/* Gives the links of every FAT_TREE cluster SimGrid built for m (a tapered
 * kary-ntree, or a multicluster of them) the bandwidth of their level:
 * SimGrid's FAT_TREE gives all its links the cluster's bw, our model gives
 * level l bw x taper_l (plat_kary_ntree_taper). Call after
 * simgrid_load_platform(). Returns the number of links changed (0 when m is
 * not tapered), or -1 with e set when SimGrid's links do not look like the
 * fat tree m describes. */
int net_sg_apply_taper(const struct plat_machine *m, struct cmn_err *e);

/* Whether SimGrid may be given the platform file at path: a regular file
 * (SimGrid reads it again after our checks, so a pipe or FIFO would be
 * empty or block: it then aborted or hung). 0, or an input error naming
 * it. */
int net_sg_platform_file(const char *path, struct cmn_err *e);

/* The message of one line of SimGrid's log: what follows its last "] "
 * (past "[time] file:line: [category] "), or the line itself. */
const char *net_sg_log_message(const char *line);

#endif

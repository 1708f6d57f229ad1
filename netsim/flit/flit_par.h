/* The flit network's cycle on two threads (flit_net.h's threads=2): the
 * vertices in two parts, each thread running its part's arrivals and
 * routers, the deliveries handed on in the one-thread order, so that the
 * outputs are byte-identical with one or two threads. Not a public
 * interface (flit_internal.h's state). */
#ifndef NET_FLIT_PAR_H
#define NET_FLIT_PAR_H

#include <pthread.h>

#include "flit_internal.h"

/* Splits n's vertices, makes the threads' scratch and starts the second
 * thread. maxin, maxout: the widest vertex's input ports and out links.
 * 0, or an error (a configuration that draws random numbers, a zero-delay
 * link between the parts, out of memory); n->par is set either way and
 * freed with n. */
int net_flit_par_create(struct flit_net *n, int maxin, int maxout, struct cmn_err *e);
void net_flit_par_destroy(struct flit_par *P);
/* Queues a packet injected between cycles (net_flit_net_inject's checks
 * and pool done) for its source's thread to make as the next cycle
 * starts: 0, or -1 out of memory. */
int net_flit_par_stage(struct flit_net *n, long id, int src, int dst, int flits);
/* Between cycles: link l's credit counts (its VCs'), kept by the thread
 * of its near end, and the flits each link carried so far (summed into
 * the network's array, returned). */
const int *net_flit_par_credits(const struct flit_net *n, int l);
const long *net_flit_par_link_flits(const struct flit_net *n);
/* Between cycles: the flits on link l for its VC vc and the credits back
 * for it that the threads' mailboxes hold (net_flit_net_check). */
void net_flit_par_mail(const struct flit_net *n, int l, int vc, int *flits, int *credits);
/* Between cycles: the flits node x holds before the network (its queue, its
 * injection port, on its links and at their far ends). */
uint32_t net_flit_par_held(const struct flit_net *n, int x);
/* Between cycles: packet k of a flit at vertex x (each thread has a pool
 * of its own), and its route. */
const struct packet *net_flit_par_packet(const struct flit_net *n, int x, int k, const int **route);
/* One cycle (flit_net.c's cycle) on both threads: 0, 1 out of memory, 2 a
 * buffer overflowed (a bug). The caller advances the clock. */
int net_flit_par_cycle(struct flit_net *n, void (*done)(void *, const struct flit_delivery *),
                       void *ctx);

#endif

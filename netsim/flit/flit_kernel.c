/* The router code a network runs (flit_internal.h): its mode, and the
 * kernel compiled for that mode (flit_kernel.def) or the code for any. */
#include <string.h>

#include "flit_internal.h"

#define FLIT_KERNEL(name)                                                                          \
	extern const struct flit_mode net_flit_kernel_##name##_mode;                               \
	flit_router_fn net_flit_kernel_##name;                                                     \
	flit_cycle_fn net_flit_kernel_##name##_cycle;
#include "flit_kernel.def"
#undef FLIT_KERNEL

static const struct {
	const struct flit_mode *mode;
	flit_router_fn *fn;
	flit_cycle_fn *cycle;
} kernels[] = {
#define FLIT_KERNEL(name)                                                                          \
	{&net_flit_kernel_##name##_mode, net_flit_kernel_##name, net_flit_kernel_##name##_cycle},
#include "flit_kernel.def"
#undef FLIT_KERNEL
};

/* struct flit_mode is ints only, without padding, and both sides are
 * zeroed first (a kernel's static constant, n->mode by memset): compared
 * whole, so a field added to it is compared too. */
static int same_mode(const struct flit_mode *a, const struct flit_mode *b)
{
	return memcmp(a, b, sizeof *a) == 0;
}

void net_flit_kernel_pick(struct flit_net *n)
{
	struct flit_mode *m = &n->mode;
	memset(m, 0, sizeof *m);
	m->vcs = n->p.vcs;
	m->mask_words = n->rt.mask_words;
	m->cut_through = n->p.cut_through;
	m->vc_crossbar = n->p.vc_crossbar;
	m->alloc = (int)n->p.alloc;
	m->hold_packet = n->p.hold_packet;
	m->adaptive = n->p.adaptive;
	m->vc_pipeline = n->p.vc_pipeline;
	m->va_islip = n->p.va_islip;
	m->rings = n->ch.ring_dim != NULL;
	if (m->rings) { /* what only rings use */
		m->dateline = n->p.dateline;
		m->bubble = n->p.bubble;
		m->local = n->ch.ring_prev != NULL;
	}
	m->grid = n->ch.grid_dim != NULL;
	for (int l = 0; l < n->nl && !m->slow; l++)
		m->slow = n->ch.gap[l] > 1;
	n->router_cycle = net_flit_router_cycle;
	n->cycle = net_flit_cycle;
	for (size_t i = 0; !n->p.generic_router && i < sizeof kernels / sizeof *kernels; i++)
		if (same_mode(m, kernels[i].mode)) {
			n->router_cycle = kernels[i].fn;
			n->cycle = kernels[i].cycle;
		}
}

/* The router code for BookSim 2's configuration on tori
 * (flit:preset=booksim there): as on meshes (flit_kernel_booksim_grid.c),
 * with random routing over the minimal directions and the VCs partitioned
 * by dimension (deadlock=partition). */
#define FLIT_KERNEL booksim_torus
#define FLIT_KERNEL_MODE                                                                           \
	{                                                                                          \
		.vcs = 4, .mask_words = 1, .alloc = FLIT_ALLOC_ISLIP, .adaptive = 2,               \
		.dateline = 2, .vc_pipeline = 1, .va_islip = 1, .rings = 1                         \
	}
#include "flit_router.c"
/* and the cycle around it */
#include "flit_cycle.c"

/* The router code for BookSim 2's configuration on k-ary n-trees
 * (flit:preset=booksim there): as on meshes (flit_kernel_booksim_grid.c),
 * with a random up link at each up hop (routing=random). */
#define FLIT_KERNEL booksim_tree
#define FLIT_KERNEL_MODE                                                                           \
	{                                                                                          \
		.vcs = 4, .mask_words = 1, .alloc = FLIT_ALLOC_ISLIP, .adaptive = 2,               \
		.vc_pipeline = 1, .va_islip = 1                                                    \
	}
#include "flit_router.c"
/* and the cycle around it */
#include "flit_cycle.c"

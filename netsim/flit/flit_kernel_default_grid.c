/* The router code for the default parameters on meshes and k-ary
 * n-trees: 4 VCs, wormhole, a crossbar input per port, round-robin switch
 * allocation, deterministic routing, at most 64 input VCs a vertex. */
#define FLIT_KERNEL_MODE                                                                           \
	{                                                                                          \
		.vcs = 4, .mask_words = 1                                                          \
	}
#define FLIT_KERNEL_FN net_flit_kernel_default_grid
#include "flit_router.c"

const struct flit_mode net_flit_kernel_default_grid_mode = FLIT_KERNEL_MODE;

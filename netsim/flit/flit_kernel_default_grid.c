/* The router code for the default parameters on meshes and k-ary
 * n-trees: 4 VCs, wormhole, a crossbar input per port, round-robin switch
 * allocation, deterministic routing, at most 64 input VCs a vertex. */
#define FLIT_KERNEL default_grid
#define FLIT_KERNEL_MODE                                                                           \
	{                                                                                          \
		.vcs = 4, .mask_words = 1                                                          \
	}
#include "flit_router.c"
/* and the cycle around it */
#include "flit_cycle.c"

/* The router code for INSEE's configuration on tori (flit:preset=insee
 * there): as on meshes (flit_kernel_insee_grid.c), with bubble flow
 * control entering a ring, the bubble looked for in the router's own VC
 * of that ring (bubble_at=local). */
#define FLIT_KERNEL insee_torus
#define FLIT_KERNEL_MODE                                                                           \
	{                                                                                          \
		.vcs = 2, .mask_words = 1, .cut_through = 1, .vc_crossbar = 1,                     \
		.alloc = FLIT_ALLOC_OUTPUT, .hold_packet = 1, .bubble = 1, .rings = 1, .local = 1, \
		.grid = 1                                                                          \
	}
#include "flit_router.c"
/* and the cycle around it */
#include "flit_cycle.c"

/* The router code for BookSim 2's configuration on meshes
 * (flit:preset=booksim there): 4 VCs, wormhole, a crossbar input per
 * port, iSLIP switch allocation after iSLIP VC allocation, the per-VC
 * pipeline, deterministic routing, at most 64 input VCs a vertex. */
#define FLIT_KERNEL booksim_grid
#define FLIT_KERNEL_MODE                                                                           \
	{                                                                                          \
		.vcs = 4, .mask_words = 1, .alloc = FLIT_ALLOC_ISLIP, .vc_pipeline = 1,            \
		.va_islip = 1                                                                      \
	}
#include "flit_router.c"
/* and the cycle around it */
#include "flit_cycle.c"

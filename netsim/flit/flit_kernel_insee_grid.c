/* The router code for INSEE's configuration on meshes and other machines
 * without rings (flit:preset=insee there): 2 VCs, virtual cut-through, a
 * crossbar input per VC, output-first allocation holding an output for a
 * packet, deterministic routing, vc_pick=dimension, every link a flit a
 * cycle, at most 64 input VCs a vertex. */
#define FLIT_KERNEL insee_grid
#define FLIT_KERNEL_MODE                                                                           \
	{                                                                                          \
		.vcs = 2, .mask_words = 1, .cut_through = 1, .vc_crossbar = 1,                     \
		.alloc = FLIT_ALLOC_OUTPUT, .hold_packet = 1, .grid = 1                            \
	}
#include "flit_router.c"
/* and the cycle around it */
#include "flit_cycle.c"

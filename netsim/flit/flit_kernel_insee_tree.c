/* The router code for INSEE's configuration on k-ary n-trees
 * (flit:preset=insee there): 2 VCs, virtual cut-through, a crossbar input
 * per VC, output-first allocation holding an output for a packet, FSIN's
 * choice of link and VC at every hop (routing=fsin), switches of at most
 * 64 input VCs. */
#define FLIT_KERNEL insee_tree
#define FLIT_KERNEL_MODE                                                                           \
	{                                                                                          \
		.vcs = 2, .mask_words = 1, .cut_through = 1, .vc_crossbar = 1,                     \
		.alloc = FLIT_ALLOC_OUTPUT, .hold_packet = 1, .adaptive = 3                        \
	}
#include "flit_router.c"
/* and the cycle around it */
#include "flit_cycle.c"

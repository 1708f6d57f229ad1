/* The router code for the default parameters on tori: as on meshes
 * (flit_kernel_default_grid.c), with two VC classes split at each ring's
 * dateline. */
#define FLIT_KERNEL default_torus
#define FLIT_KERNEL_MODE                                                                           \
	{                                                                                          \
		.vcs = 4, .mask_words = 1, .dateline = 1, .rings = 1                               \
	}
#include "flit_router.c"
/* and the cycle around it */
#include "flit_cycle.c"

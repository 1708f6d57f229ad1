/* The router code for the default parameters on tori: as on meshes
 * (flit_kernel_default_grid.c), with two VC classes split at each ring's
 * dateline. */
#define FLIT_KERNEL_MODE                                                                           \
	{                                                                                          \
		.vcs = 4, .mask_words = 1, .dateline = 1, .rings = 1                               \
	}
#define FLIT_KERNEL_FN net_flit_kernel_default_torus
#include "flit_router.c"

const struct flit_mode net_flit_kernel_default_torus_mode = FLIT_KERNEL_MODE;

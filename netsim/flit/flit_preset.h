/* Presets of the flit-level engine (issue 8): parameter sets that give the
 * network another simulator's router timing, so that comparisons with it
 * are like for like. A preset only changes defaults: keys given
 * explicitly win, and the effective values are echoed as usual. */
#ifndef NET_FLIT_PRESET_H
#define NET_FLIT_PRESET_H

#include "flit_net.h"

/* Parses the flit engine's "key=value,..." (kvs may be NULL) on machine m
 * with the preset named by `preset` (NULL: none) or by a preset=NAME key
 * in kvs (both: they must agree): the effective parameters into cp and p.
 * Errors name the bad key or preset and list the known presets. */
int net_flit_params_parse(const char *kvs, const char *preset, const struct plat_machine *m,
                          struct cmn_params *cp, struct flit_params *p, struct cmn_err *e);

/* Prints each preset with what it sets. */
void net_flit_presets_help(FILE *f);

#endif

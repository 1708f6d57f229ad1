/* Recorded traces as job profiles: a folder of TI traces named
 * <kernel>.<class>.<ranks>, either unpacked (the index <name>.txt beside its
 * per-rank folder <name>.txt_files/) or packed as <name>.tar.gz (as in
 * ../shared/traces/npb: the archive holds <name>.txt and <name>.txt_files/).
 * Real NPB runs recorded with SMPI and traces users bring are both found
 * here; a job whose (kernel, class, rank count) has one runs it instead of
 * a generated trace. */
#ifndef CPL_RECORDED_H
#define CPL_RECORDED_H

#include "../../apptraces/trace.h"

/* 1 when dir holds a trace of kernel in class cls (any rank count). */
int cpl_recorded_has_kernel(const char *dir, const char *kernel, char cls);

/* The recorded trace of (kernel, cls, n) in dir into *out, or *out = NULL
 * when dir has none. A packed one is unpacked (apptraces/trace_archive.h, in-process) into a
 * temporary folder, read, and the folder removed (on a signal too); the
 * trace keeps no file names.
 * Errors: an unreadable or invalid trace (file:line), a rank count other
 * than n, a failed unpacking. */
int cpl_recorded_load(const char *dir, const char *kernel, char cls, int n, struct trace **out,
                      struct cmn_err *e);

#endif

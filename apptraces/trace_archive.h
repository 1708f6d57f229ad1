/* Traces packed as archives (NAME.tar.gz, NAME.tgz, NAME.tar, as recorded
 * traces are published): unpacked in-process (untar.h) into a temporary
 * folder, the index read and validated as trace_load does, the folder
 * removed; the trace is then in memory only (t->files NULL). */
#ifndef TRACE_ARCHIVE_H
#define TRACE_ARCHIVE_H

#include "trace.h"

/* 1 when path's name is an archive's (.tar.gz, .tgz, .tar). */
int trace_is_archive(const char *path);

/* Loads the trace archive holds: its member index when not NULL, else
 * NAME.txt for NAME.tar.gz (.tgz, .tar), else the one .txt file at its top.
 * Errors name the archive (and the member, file:line inside it). */
int trace_load_archive(const char *archive, const char *index, struct trace **out,
                       struct cmn_err *e);

/* trace_load_archive for an archive's name, else trace_load. */
int trace_load_any(const char *path, struct trace **out, struct cmn_err *e);

#endif

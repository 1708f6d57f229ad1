/* What a run leaves behind when SIGINT, SIGTERM, SIGHUP, SIGABRT (an
 * abort() in a library: SimGrid's on a file it cannot take), SIGXCPU (a
 * CPU time limit), SIGQUIT, SIGUSR1, SIGUSR2 or SIGALRM stops it: the
 * files and folders it registered are removed and the child processes it
 * registered are stopped (SIGTERM) and waited for, before the signal takes
 * its default course. The handler is installed with the first
 * registration, for each signal whose handler is still the default (not
 * over an ignored signal; SIGINT also over another library's handler with
 * cmn_cleanup_take_sigint, as the SimGrid engines do). Entries
 * belong to the process that registered them: a forked child stopped by a
 * signal removes its own, never its parent's. */
#ifndef CMN_CLEANUP_H
#define CMN_CLEANUP_H

#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

/* Registers a file, or a folder (removed once empty: files go first, then
 * folders, innermost first); the path is copied. 0, or -1 when it could not
 * be registered (out of memory, or more than 512 at once): then a signal
 * leaves it behind. */
int cmn_cleanup_add(const char *path);
/* Registers a folder that a signal removes with everything in it (its
 * files, and its subfolders with theirs, 16 levels deep), however many:
 * one registration for a folder of thousands. */
int cmn_cleanup_add_folder(const char *path);
/* The folder of temporaries: $TMPDIR when it is an absolute path, else /tmp. */
const char *cmn_tmp_dir(void);
/* The temporary name PREFIX-XXXXXX (for mkstemp or mkdtemp) in $TMPDIR when
 * it is set to an absolute path that fits, else in /tmp, into buf. */
void cmn_tmp_name(char *buf, size_t len, const char *prefix);
/* Creates an empty temporary file named as cmn_tmp_name says (buf holds its
 * name) and registers it: 0, or -1 (errno set, buf "") when it cannot. */
int cmn_tmp_file(char *buf, size_t len, const char *prefix);
/* Forgets path (every registration of it by this process). */
void cmn_cleanup_forget(const char *path);
/* Removes a registered file or empty folder (remove(3)) and forgets it. */
void cmn_cleanup_remove(const char *path);
/* Takes SIGINT back from a library that installed its own handler (SimGrid
 * prints its actors' status and exits without this cleanup): from here
 * SIGINT cleans up as SIGTERM does. */
void cmn_cleanup_take_sigint(void);
/* Forgets a child of cmn_cleanup_fork once it has been waited for. */
void cmn_cleanup_child_gone(pid_t pid);
/* Holds back the signals above (blocks them, *old: the mask before) until
 * cmn_cleanup_release(old) delivers what came meanwhile: around making a
 * file or folder and registering it, so that no signal comes between the
 * two and leaves it behind. */
void cmn_cleanup_hold(sigset_t *old);
void cmn_cleanup_release(const sigset_t *old);
/* mkstemp(3) and mkdtemp(3) with what they make registered (a folder with
 * the files put in it, as cmn_cleanup_add_folder) under cmn_cleanup_hold:
 * the file's descriptor, or 0 for the folder; -1 with errno set (tmpl is
 * then left as the call left it). */
int cmn_cleanup_mkstemp(char *tmpl);
int cmn_cleanup_mkdtemp(char *tmpl);
/* fork(2) with the child registered in the parent as a child process to
 * stop first (at most 64 at once; beyond, a signal leaves it running)
 * before the signals above can reach its handler: they are blocked from
 * before the fork until the child is registered (a signal in between
 * would stop the parent and leave the child running, unknown to the
 * handler), then delivered; the child starts with the caller's mask. The
 * parent calls cmn_cleanup_child_gone once it has waited for the child.
 * Returns as fork does (-1 with errno set). */
pid_t cmn_cleanup_fork(void);
/* pthread_create for a helper thread that never takes the signals above
 * (they stay blocked in it), so that they reach the main thread, where
 * cmn_cleanup_hold and cmn_cleanup_fork hold them back; a signal taken by
 * a helper while the main thread forked or made a temporary would find
 * the child or file not yet registered. Returns as pthread_create. */
int cmn_cleanup_thread(pthread_t *t, void *(*fn)(void *), void *arg);

#endif

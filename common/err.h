/* Error reporting shared by every layer: functions return 0 or a code and
 * fill a caller-owned struct cmn_err whose message names the place
 * (file:line, job id, node id). Only main() turns an error into an exit. */
#ifndef CMN_ERR_H
#define CMN_ERR_H

#include <stddef.h>

enum cmn_code {
	CMN_OK = 0,
	CMN_EINPUT = 1, /* bad input data (file content) */
	CMN_EUSAGE = 2, /* bad specification or option */
	CMN_EIO = 3,    /* cannot open, read or write a file */
	CMN_ENOMEM = 4, /* allocation failed */
	CMN_ESTATE = 5, /* impossible request at run time (e.g. job never fits) */
};

struct cmn_err {
	int code;
	char msg[1024];
};

/* Sets e (if not NULL) to code and the printf-formatted message; returns code. */
int cmn_err_set(struct cmn_err *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prepends "prefix: " to an already set message (e.g. the file name). */
void cmn_err_prefix(struct cmn_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Clears e to CMN_OK and an empty message. */
void cmn_err_clear(struct cmn_err *e);

/* The exit status a tool uses for an error code: 2 for usage, 1 otherwise. */
int cmn_err_exit_status(const struct cmn_err *e);

#endif

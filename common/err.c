/* Error helpers: formatted messages in a caller-owned struct cmn_err. */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int cmn_err_set(struct cmn_err *e, int code, const char *fmt, ...)
{
	if (e) {
		va_list ap;
		va_start(ap, fmt);
		e->code = code;
		vsnprintf(e->msg, sizeof e->msg, fmt, ap);
		va_end(ap);
	}
	return code;
}

void cmn_err_prefix(struct cmn_err *e, const char *fmt, ...)
{
	if (!e)
		return;
	char pre[512], old[sizeof e->msg];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(pre, sizeof pre, fmt, ap);
	va_end(ap);
	memcpy(old, e->msg, sizeof old);
	size_t pl = strlen(pre);
	if (pl > sizeof e->msg - 3)
		pl = sizeof e->msg - 3;
	memcpy(e->msg, pre, pl);
	memcpy(e->msg + pl, ": ", 2);
	size_t room = sizeof e->msg - pl - 3, ol = strlen(old);
	if (ol > room)
		ol = room;
	memcpy(e->msg + pl + 2, old, ol);
	e->msg[pl + 2 + ol] = '\0';
}

void cmn_err_clear(struct cmn_err *e)
{
	if (e) {
		e->code = CMN_OK;
		e->msg[0] = '\0';
	}
}

int cmn_err_exit_status(const struct cmn_err *e)
{
	return e && e->code == CMN_EUSAGE ? 2 : 1;
}

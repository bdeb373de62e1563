/* Error messages for the user, written into a caller's buffer: the one helper every
 * module uses to say what is wrong ("PATH: why", "FILE:LINE:COL: why", ...). */
#ifndef LOADGEN_ERRF_H
#define LOADGEN_ERRF_H

#include <stdarg.h>
#include <stddef.h>

/* Format fmt into err (len bytes, cut to fit; nothing when err is NULL or len is 0) and
 * return rc, so that `return lg_errf(err, len, -EINVAL, "...", ...);` reports and fails
 * in one statement. */
int lg_errf(char *err, size_t len, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The same with a va_list, after a prefix already at the start of err: the message goes
 * at err + off (off being what the prefix took; nothing when it filled err). */
int lg_verrf(char *err, size_t len, size_t off, int rc, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));

#endif

/* Error messages for the user, written into a caller's buffer (include/loadgen/model/errf.h). */
#include "loadgen/model/errf.h"

#include <stdio.h>

int lg_verrf(char *err, size_t len, size_t off, int rc, const char *fmt, va_list ap)
{
	if (err && off < len)
		vsnprintf(err + off, len - off, fmt, ap);
	return rc;
}

int lg_errf(char *err, size_t len, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lg_verrf(err, len, 0, rc, fmt, ap);
	va_end(ap);
	return rc;
}

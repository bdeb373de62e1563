/* The vocabulary of unexpected results: errno values by name, as workloads write them
 * (expect: ENOENT) and results count them (by errno, below LG_ERRNO_MAX). */
#ifndef LOADGEN_ERRNAMES_H
#define LOADGEN_ERRNAMES_H

#include <stddef.h>

#define LG_ERRNO_MAX 135  /* errno values counted individually (0 < errno < 135):
			     Linux's (up to 133) and LG_ERR_SLOT_OPEN */

/* A pseudo-errno (beyond Linux's, below LG_ERRNO_MAX): an open found its slot still
 * holding an open file. The old file is closed, the new one opened, and the op counts
 * as an unexpected result with this value. lg_errno_name gives "ESLOTOPEN". */
#define LG_ERR_SLOT_OPEN (LG_ERRNO_MAX - 1)

/* Name of an errno value ("ENOENT"), or "E<number>" for one without a name; "OK" for 0.
 * The string is static. */
const char *lg_errno_name(int err);
/* The errno value with that name, or -1. */
int lg_errno_value(const char *name);
/* "; did you mean 'ENOENT'?" for the errno name closest to a misspelt one (name), or ""
 * when none is close; written into buf, which is returned. */
const char *lg_errno_hint(const char *name, char *buf, size_t len);

#endif

/* Tagged stderr: lines written to stderr get a "[host H rank R] " prefix (ranks > 0 of
 * a multi-host run). Private. */
#ifndef LOADGEN_TAG_STDERR_H
#define LOADGEN_TAG_STDERR_H

#include <stdbool.h>
#include <stddef.h>

/* From now on, prefix every stderr line. 0, or -1 (stderr is left as it was). */
int lg_stderr_tag(const char *host, unsigned rank);
/* Flush what is pending and restore stderr. Harmless when not tagging. */
void lg_stderr_untag(void);
/* Write the n bytes at s (a whole line) to the real stderr at once, tagged when tagging,
 * past the pipe: for a signal handler about to _exit, which the copying thread would
 * not outlive. Async-signal-safe. */
void lg_stderr_write_now(const char *s, size_t n);

#endif

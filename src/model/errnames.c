/* errno <-> name, through glibc's strerrorname_np (no table of our own to keep current). */
#include "loadgen/model/errnames.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "loadgen/model/suggest.h"

/* Names glibc reports under another spelling, accepted on input. */
static const struct {
	const char *name;
	int value;
} aliases[] = {
	{ "EWOULDBLOCK", EWOULDBLOCK },
	{ "EDEADLOCK", EDEADLOCK },
	{ "ENOTSUP", ENOTSUP },
	{ "ESLOTOPEN", LG_ERR_SLOT_OPEN }, /* loadgen's own: an open into a slot still open */
};

const char *lg_errno_name(int err)
{
	static _Thread_local char other[16];
	const char *name;

	if (err == 0)
		return "OK";
	if (err == LG_ERR_SLOT_OPEN)
		return "ESLOTOPEN";
	name = strerrorname_np(err);
	if (name)
		return name;
	snprintf(other, sizeof(other), "E%d", err);
	return other;
}

int lg_errno_value(const char *name)
{
	for (int e = 1; e < LG_ERRNO_MAX; e++) {
		const char *n = strerrorname_np(e);

		if (n && strcmp(n, name) == 0)
			return e;
	}
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (strcmp(aliases[i].name, name) == 0)
			return aliases[i].value;
	return -1;
}

const char *lg_errno_hint(const char *name, char *buf, size_t len)
{
	struct lg_suggest s;

	lg_suggest_init(&s, name);
	for (int e = 1; e < LG_ERRNO_MAX; e++)
		lg_suggest_add(&s, strerrorname_np(e));
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		lg_suggest_add(&s, aliases[i].name);
	if (len)
		buf[0] = '\0';
	if (lg_suggest_best(&s) && len)
		snprintf(buf, len, "; did you mean '%s'?", lg_suggest_best(&s));
	return buf;
}

/* Path templates: what a client's paths are (the placeholders in path_tmpl.h).
 *
 * Expansion runs once per client and template when the client starts (and for the
 * paths in notes of a result), never per op: the client loop only reads the expanded
 * names. */
#include "loadgen/model/path_tmpl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define CLIENT_LEN (sizeof(LG_CLIENT_PLACEHOLDER) - 1)
#define PEER_LEN (sizeof(LG_PEER_PLACEHOLDER) - 1)

enum lg_path_owner lg_path_owner(const char *t)
{
	bool own = strstr(t, LG_CLIENT_PLACEHOLDER) != NULL;
	bool peer = strstr(t, LG_PEER_PLACEHOLDER) != NULL;

	if (own && peer)
		return LG_OWNER_MIXED;
	if (peer)
		return LG_OWNER_PEER;
	return own ? LG_OWNER_CLIENT : LG_OWNER_SHARED;
}

bool lg_path_per_client(const char *t)
{
	return lg_path_owner(t) != LG_OWNER_SHARED;
}

unsigned lg_peer_id(unsigned id, unsigned shift, unsigned total)
{
	if (!total)
		return id;
	return (unsigned)(((unsigned long long)id + shift) % total);
}

int lg_path_expand(const char *t, unsigned id, unsigned peer, char *buf, size_t len)
{
	size_t o = 0;

	while (*t) {
		bool own = strncmp(t, LG_CLIENT_PLACEHOLDER, CLIENT_LEN) == 0;

		if (own || strncmp(t, LG_PEER_PLACEHOLDER, PEER_LEN) == 0) {
			int n = snprintf(buf + o, len - o, "%u", own ? id : peer);

			if (n < 0 || (size_t)n >= len - o)
				return -ENAMETOOLONG;
			o += (size_t)n;
			t += own ? CLIENT_LEN : PEER_LEN;
			continue;
		}
		if (o + 1 >= len)
			return -ENAMETOOLONG;
		buf[o++] = *t++;
	}
	if (o >= len)
		return -ENAMETOOLONG;
	buf[o] = '\0';
	return (int)o;
}

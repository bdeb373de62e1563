/* Path templates: the placeholders a loaded path may still hold, which each client
 * substitutes at run time, and whose file a template names.
 *
 * ${client} is the client's global id (rank r's client i is r * clients + i), so a
 * template with it names a file only that client writes. ${peer} is the id of another
 * client, (id + shift) mod the clients of all ranks: by default the shift is the clients
 * per rank, the same index on the next rank, so that a file one host wrote is read on
 * another (IOR -C, mdtest -N). */
#ifndef LOADGEN_PATH_TMPL_H
#define LOADGEN_PATH_TMPL_H

#include <stdbool.h>
#include <stddef.h>

/* The placeholders left in a path after loading; each client substitutes an id. */
#define LG_CLIENT_PLACEHOLDER "${client}" /* the client's own id */
#define LG_PEER_PLACEHOLDER "${peer}"     /* its peer's id (lg_peer_id) */

/* Whose file a template names, as --verify sees it. */
enum lg_path_owner {
	LG_OWNER_SHARED, /* no placeholder: every client names the same file */
	LG_OWNER_CLIENT, /* ${client} only: the client's own file */
	LG_OWNER_PEER,   /* ${peer} only: the file of the client's peer */
	LG_OWNER_MIXED   /* both: a name per client, but whose file it is is not known */
};

/* Whose file template t names. */
enum lg_path_owner lg_path_owner(const char *t);
/* Whether t names a file per client (it holds a placeholder). */
bool lg_path_per_client(const char *t);
/* The peer of client id among total clients (all ranks') with shift (in clients):
 * (id + shift) mod total; id itself when total is 0. */
unsigned lg_peer_id(unsigned id, unsigned shift, unsigned total);

/* Expand path template t for client id, whose peer is peer, into buf (size len): each
 * LG_CLIENT_PLACEHOLDER becomes the decimal id, each LG_PEER_PLACEHOLDER the decimal
 * peer. Returns the length, or -ENAMETOOLONG. */
int lg_path_expand(const char *t, unsigned id, unsigned peer, char *buf, size_t len);

#endif

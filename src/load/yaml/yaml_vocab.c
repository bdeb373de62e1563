/* The YAML loader's vocabulary: the words an op accepts as flags, advice and modes, and
 * how a word is looked up with a "did you mean" for a misspelt one.
 *
 * The tables live here, apart from the op compiler (yaml_steps.c), so that the reader,
 * the writer (yaml_write.c) and messages share one spelling of each word. */
#include "yaml_priv.h"

#include <fcntl.h>
#include <linux/falloc.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "loadgen/model/suggest.h"

const struct lg_yflag lg_yopen_flags[] = {
	{ "create", O_CREAT }, { "truncate", O_TRUNC }, { "exclusive", O_EXCL },
	{ "append", O_APPEND }, { "sync", O_SYNC },     { "dsync", O_DSYNC },
	{ "direct", O_DIRECT }, { "tmpfile", O_TMPFILE }, /* before directory, a part of it */
	{ "directory", O_DIRECTORY }, { "nofollow", O_NOFOLLOW }, { "noatime", O_NOATIME },
	{ "path", O_PATH },     { "read", O_RDONLY },   { "write", O_WRONLY },
	{ "rdwr", O_RDWR },     { NULL, 0 },
};
const struct lg_yflag lg_yrename_flags[] = {
	{ "noreplace", RENAME_NOREPLACE }, { "exchange", RENAME_EXCHANGE },
	{ "whiteout", RENAME_WHITEOUT },   { NULL, 0 },
};
const struct lg_yflag lg_yaccess_modes[] = {
	{ "read", R_OK }, { "write", W_OK }, { "exec", X_OK }, { NULL, 0 },
};
const struct lg_yflag lg_yfalloc_modes[] = {
	{ "keep_size", FALLOC_FL_KEEP_SIZE },   { "punch_hole", FALLOC_FL_PUNCH_HOLE },
	{ "zero_range", FALLOC_FL_ZERO_RANGE }, { "collapse_range", FALLOC_FL_COLLAPSE_RANGE },
	{ "insert_range", FALLOC_FL_INSERT_RANGE }, { NULL, 0 },
};
const struct lg_yflag lg_yxattr_flags[] = {
	{ "create", XATTR_CREATE }, { "replace", XATTR_REPLACE }, { NULL, 0 },
};
const struct lg_yflag lg_yseek_whence[] = {
	{ "set", SEEK_SET },   { "cur", SEEK_CUR },   { "end", SEEK_END },
	{ "data", SEEK_DATA }, { "hole", SEEK_HOLE }, { NULL, 0 },
};
const char *const lg_yoffset_names[LG_OFF_PREV + 1] = {
	[LG_OFF_SEQ] = "seq",       [LG_OFF_FIXED] = NULL,  [LG_OFF_APPEND] = "append",
	[LG_OFF_RANDOM] = "random", [LG_OFF_LAST] = "last", [LG_OFF_PREV] = "prev",
};
const char *const lg_ypick_orders[LG_PICK_SHUFFLE + 1] = {
	[LG_PICK_RANDOM] = "random", [LG_PICK_SEQ] = "seq", [LG_PICK_SHUFFLE] = "shuffle",
};
const struct lg_yflag lg_yntcreate_flags[] = {
	{ "directory", O_DIRECTORY }, { "create", O_CREAT }, { "truncate", O_TRUNC },
	{ NULL, 0 },
};
const struct lg_yflag lg_ysfr_flags[] = {
	{ "wait_before", SYNC_FILE_RANGE_WAIT_BEFORE },
	{ "write", SYNC_FILE_RANGE_WRITE },
	{ "wait_after", SYNC_FILE_RANGE_WAIT_AFTER },
	{ NULL, 0 },
};
const struct lg_yflag lg_yfadvice[] = {
	{ "normal", POSIX_FADV_NORMAL },     { "sequential", POSIX_FADV_SEQUENTIAL },
	{ "random", POSIX_FADV_RANDOM },     { "willneed", POSIX_FADV_WILLNEED },
	{ "dontneed", POSIX_FADV_DONTNEED }, { "noreuse", POSIX_FADV_NOREUSE },
	{ NULL, 0 },
};

/* Format "a, b, c" from the names of tab into buf; the best match for word, if any,
 * into hint. */
static void flag_list(const struct lg_yflag *tab, const char *word, char *buf, size_t len,
		      char *hint, size_t hlen)
{
	struct lg_suggest s;
	size_t o = 0;

	buf[0] = '\0';
	hint[0] = '\0';
	lg_suggest_init(&s, word);
	for (size_t i = 0; tab[i].name; i++) {
		int n = o < len ? snprintf(buf + o, len - o, "%s%s", i ? ", " : "", tab[i].name)
				: 0;

		if (n > 0)
			o += (size_t)n;
		lg_suggest_add(&s, tab[i].name);
	}
	if (lg_suggest_best(&s))
		snprintf(hint, hlen, "did you mean '%s'? ", lg_suggest_best(&s));
}

int lg_yflag_one(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
		 const struct lg_yflag *tab, unsigned *seen)
{
	char list[160], hint[64];
	const char *s;
	int rc = lg_ystring(c, n, what, false, &s);

	if (rc)
		return rc;
	for (unsigned i = 0; tab[i].name; i++) {
		if (!strcmp(s, tab[i].name)) {
			*seen |= 1u << i;
			return 0;
		}
	}
	flag_list(tab, s, list, sizeof(list), hint, sizeof(hint));
	return lg_yfail(c, n, "unknown %s '%s' (%sexpected %s)", what, s, hint, list);
}

int lg_yflag_set(struct lg_yctx *c, const struct lg_ynode *n, const char *what,
		 const struct lg_yflag *tab, unsigned *seen)
{
	int rc = 0;

	*seen = 0;
	if (n->kind == LG_YSCALAR)
		return lg_yflag_one(c, n, what, tab, seen);
	if (n->kind != LG_YSEQ)
		return lg_yfail(c, n, "'flags' must be a %s name or a list of them, not %s",
				what, lg_ykind_name(n));
	for (size_t i = 0; !rc && i < n->n; i++)
		rc = lg_yflag_one(c, n->items[i], what, tab, seen);
	return rc;
}

int lg_yflag_value(const struct lg_yflag *tab, unsigned seen)
{
	int v = 0;

	for (unsigned i = 0; tab[i].name; i++)
		if (seen & (1u << i))
			v |= tab[i].value;
	return v;
}

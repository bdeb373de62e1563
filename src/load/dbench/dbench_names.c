/* dbench's status words, paths and wildcards in loadgen's terms. */
#include "dbench_names.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/model/workload.h"

/* NT status codes and the errno the op's call gives in their case. dbench's fileio
 * only tells success from failure; loadgen checks the errno where one corresponds.
 * A status with no POSIX counterpart (the call cannot fail that way) is not checked. */
static const struct status {
	const char *name;
	uint32_t code;
	int32_t expect;
} statuses[] = {
	{ "NT_STATUS_OK", 0x00000000, LG_EXPECT_OK },
	{ "NT_STATUS_OBJECT_NAME_NOT_FOUND", 0xC0000034, ENOENT },
	{ "NT_STATUS_OBJECT_PATH_NOT_FOUND", 0xC000003A, ENOENT },
	{ "NT_STATUS_NO_SUCH_FILE", 0xC000000F, ENOENT },
	{ "NT_STATUS_NO_MORE_FILES", 0x80000006, ENOENT },
	{ "NT_STATUS_OBJECT_NAME_COLLISION", 0xC0000035, EEXIST },
	{ "NT_STATUS_ACCESS_DENIED", 0xC0000022, EACCES },
	{ "NT_STATUS_NOT_A_DIRECTORY", 0xC0000103, ENOTDIR },
	{ "NT_STATUS_OBJECT_PATH_INVALID", 0xC0000039, ENOTDIR },
	{ "NT_STATUS_FILE_IS_A_DIRECTORY", 0xC00000BA, EISDIR },
	{ "NT_STATUS_DIRECTORY_NOT_EMPTY", 0xC0000101, ENOTEMPTY },
	{ "NT_STATUS_INVALID_HANDLE", 0xC0000008, EBADF },
	{ "NT_STATUS_FILE_CLOSED", 0xC0000128, EBADF },
	{ "NT_STATUS_DISK_FULL", 0xC000007F, ENOSPC },
	{ "NT_STATUS_NOT_SAME_DEVICE", 0xC00000D4, EXDEV },
	{ "NT_STATUS_MEDIA_WRITE_PROTECTED", 0xC00000A2, EROFS },
	{ "NT_STATUS_TOO_MANY_OPENED_FILES", 0xC000011F, EMFILE },
	{ "NT_STATUS_NO_MEMORY", 0xC0000017, ENOMEM },
	{ "NT_STATUS_NAME_TOO_LONG", 0xC0000106, ENAMETOOLONG },
	{ "NT_STATUS_INVALID_PARAMETER", 0xC000000D, EINVAL },
	{ "NT_STATUS_LOCK_NOT_GRANTED", 0xC0000055, EAGAIN },
	{ "NT_STATUS_FILE_LOCK_CONFLICT", 0xC0000054, EAGAIN },
	{ "NT_STATUS_SHARING_VIOLATION", 0xC0000043, LG_EXPECT_ANY },
	{ "NT_STATUS_DELETE_PENDING", 0xC0000056, LG_EXPECT_ANY },
	{ "NT_STATUS_CANNOT_DELETE", 0xC0000121, LG_EXPECT_ANY },
	{ "NT_STATUS_RANGE_NOT_LOCKED", 0xC000007E, LG_EXPECT_ANY },
	{ "NT_STATUS_END_OF_FILE", 0xC0000011, LG_EXPECT_ANY },
	{ "NT_STATUS_OBJECT_NAME_INVALID", 0xC0000033, LG_EXPECT_ANY },
	{ "NT_STATUS_OBJECT_PATH_SYNTAX_BAD", 0xC000003B, LG_EXPECT_ANY },
	{ "NT_STATUS_NOT_IMPLEMENTED", 0xC0000002, LG_EXPECT_ANY },
	{ "NT_STATUS_NOT_SUPPORTED", 0xC00000BB, LG_EXPECT_ANY },
	{ "NT_STATUS_INVALID_LEVEL", 0xC0000148, LG_EXPECT_ANY },
	{ "NT_STATUS_NO_EAS_ON_FILE", 0xC0000052, LG_EXPECT_ANY },
	{ "NT_STATUS_BUFFER_OVERFLOW", 0x80000005, LG_EXPECT_ANY },
};

/* NTCreateX create dispositions, and the one create option that matters (MS-SMB). */
enum { FILE_SUPERSEDE, FILE_OPEN, FILE_CREATE, FILE_OPEN_IF, FILE_OVERWRITE,
       FILE_OVERWRITE_IF };
#define FILE_DIRECTORY_FILE 0x1

int lg_dbench_create_flags(uint64_t options, uint64_t disposition, int32_t *flags)
{
	bool creates = disposition != FILE_OPEN && disposition != FILE_OVERWRITE;

	if (disposition > FILE_OVERWRITE_IF)
		return -EINVAL;
	if (options & FILE_DIRECTORY_FILE) {
		*flags = O_RDONLY | O_DIRECTORY | (creates ? O_CREAT : 0);
		return 0;
	}
	*flags = O_RDWR;
	if (disposition == FILE_CREATE || disposition == FILE_OPEN_IF)
		*flags |= O_CREAT;
	else if (disposition != FILE_OPEN)
		*flags |= (creates ? O_CREAT : 0) | O_TRUNC;
	return 0;
}

bool lg_dbench_status_like(const char *word)
{
	return !strncmp(word, "NT_STATUS_", 10) || !strncmp(word, "0x", 2) ||
	       !strncmp(word, "SUCCESS", 7) || !strncmp(word, "ERROR", 5) || *word == '*';
}

int lg_dbench_status(const char *word, int32_t *expect, bool *ok)
{
	bool hex = !strncmp(word, "0x", 2);
	unsigned long long code = 0;
	char *end;

	*ok = !strcmp(word, "SUCCESS");
	if (*ok || !strcmp(word, "*") || !strcmp(word, "ERROR")) {
		/* ERROR asks for any failure, which one errno cannot say: not checked. */
		*expect = *ok ? LG_EXPECT_OK : LG_EXPECT_ANY;
		return 0;
	}
	if (hex) {
		errno = 0;
		code = strtoull(word + 2, &end, 16);
		if (errno || *end || end == word + 2 || word[2] == '-' || word[2] == '+' ||
		    code > UINT32_MAX)
			return -EINVAL;
	}
	for (size_t i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++) {
		if (hex ? statuses[i].code == code : !strcmp(statuses[i].name, word)) {
			*expect = statuses[i].expect;
			*ok = statuses[i].code == 0;
			return 0;
		}
	}
	return -EINVAL;
}

int lg_dbench_path(const char *tok, char *out, size_t len, const char **why)
{
	static const char own[] = "client" LG_CLIENT_PLACEHOLDER;
	size_t o = 0, max = len && len - 1 < LG_DBENCH_MAX_PATH ? len - 1 : LG_DBENCH_MAX_PATH;
	const char *p = tok + strspn(tok, "/\\");

	*why = "contains '${', which loadgen reserves for its placeholders";
	if (strstr(tok, "${"))
		return -EINVAL;
	*why = "no room for the path";
	if (!len)
		return -EINVAL;
	*why = "too long";
	while (*p) {
		size_t n = strcspn(p, "/\\"), clen = n;
		const char *comp = p;

		if (n == 7 && !strncmp(p, "client1", 7)) { /* dbench's all_string_sub */
			comp = own;
			clen = sizeof(own) - 1;
		}
		if (o + clen + 1 > max)
			return -EINVAL;
		memcpy(out + o, comp, clen);
		o += clen;
		p += n;
		if (*p) {
			out[o++] = '/';
			p++;
		}
	}
	out[o] = '\0';
	return lg_path_check(out, why);
}

bool lg_dbench_wildcard(const char *tok, char *dir, char *pat)
{
	const char *last = tok + strlen(tok);
	size_t o = 0;

	while (last > tok && last[-1] != '/' && last[-1] != '\\')
		last--;
	if (!strpbrk(last, "<>*?\""))
		return false;
	for (const char *s = last; *s; s++) {
		char ch = *s == '<' ? '*' : *s == '>' ? '?' : *s == '"' ? '.' : *s;

		if (ch == '[')
			pat[o++] = '\\';
		pat[o++] = ch;
	}
	pat[o] = '\0';
	o = last > tok ? (size_t)(last - tok) - 1 : 0;
	memcpy(dir, tok, o);
	dir[o] = '\0';
	return true;
}

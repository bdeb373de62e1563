/* dbench's names in loadgen's terms, for dbench_load.c: NT status words -> the result
 * an op must have, SMB paths -> run-directory path templates, DOS wildcards -> fnmatch
 * patterns. Pure functions: no state, no allocation. */
#ifndef LOADGEN_DBENCH_NAMES_H
#define LOADGEN_DBENCH_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest path template a dbench path may become, in bytes (as for YAML paths). */
#define LG_DBENCH_MAX_PATH 2048

/* open(2) flags of an NTCreateX with create OPTIONS and DISPOSITION (0 to 5).
 * A directory (option 0x1) is opened read-only, with O_CREAT when the disposition may
 * create it (the op then makes it with mkdir first); a file read-write. Where dbench's
 * fileio is looser than SMB it is followed when that cannot turn the loadfile's status
 * into an error (FILE_CREATE does not fail on an existing file: O_CREAT, no O_EXCL),
 * and SMB is followed otherwise (FILE_OPEN_IF and FILE_SUPERSEDE create, FILE_OVERWRITE
 * needs the file). Returns 0, or -EINVAL for a disposition past 5. */
int lg_dbench_create_flags(uint64_t options, uint64_t disposition, int32_t *flags);

/* Whether word has the shape of a status, by dbench's own test: NT_STATUS_..., 0x...,
 * SUCCESS, ERROR or '*'. */
bool lg_dbench_status_like(const char *word);

/* The expected result (LG_EXPECT_OK, LG_EXPECT_ANY or an errno) of status word; *ok:
 * it is a success. Returns 0, or -EINVAL for a status it does not know. */
int lg_dbench_status(const char *word, int32_t *expect, bool *ok);

/* SMB path tok -> path template in out (len bytes; LG_DBENCH_MAX_PATH + 1 holds any):
 * backslashes become slashes, leading ones go, a component "client1" becomes
 * "client${client}". Returns 0, or -EINVAL with *why set to a static message (too
 * long, '${' in it, or what lg_path_check says). */
int lg_dbench_path(const char *tok, char *out, size_t len, const char **why);

/* If the last component of tok has a DOS wildcard (one of <>*?"), split it: dir gets
 * tok's directory part, unconverted and without the last separator (may be empty, or
 * only separators, for the run directory), pat the last component as an fnmatch
 * pattern ('<' -> '*', '>' -> '?', '"' -> '.', '[' escaped). Both need
 * 2 * strlen(tok) + 2 bytes. Returns whether tok had a wildcard. */
bool lg_dbench_wildcard(const char *tok, char *dir, char *pat);

#endif

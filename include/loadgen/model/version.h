/* Kernel versions and similar labels in their natural order: 6.9 < 6.10 < 6.10.1,
 * 6.10-rc1 < 6.10-rc2 < 6.10, 6.1.0-13-amd64 < 6.1.0-18-amd64. */
#ifndef LOADGEN_VERSION_H
#define LOADGEN_VERSION_H

/* Compares two labels as versions; < 0, 0 or > 0 like strcmp, and 0 only when they are
 * the same string, so a sort by it is deterministic. A label is read as runs of digits
 * (numbers, compared by value: 9 < 10, 007 = 7) and runs of anything else (text,
 * compared as bytes), run by run. A pre-release run sorts before everything, the end
 * of the label included: "rc" after optional '-', '.' or '_' (6.10-rc1 < 6.10 <
 * 6.10.1), or a run starting with '~' as Debian writes it (1.0~beta < 1.0). Otherwise
 * the end of a label sorts first (6.10 < 6.10.1, 6.10 < 6.10-amd64), and a number
 * before text (6.10 < v6.9). glibc's strverscmp differs in putting 6.10-rc1 after 6.10.
 * Labels equal run by run but written differently (6.010 and 6.10) fall back to
 * strcmp. NULL sorts before any string. */
int lg_version_cmp(const char *a, const char *b);

#endif

/* Environment facts for the result file and the text header.
 *
 * Gathers uname, the build, and what the probes (sysinfo_probe.c) read from /proc and
 * /sys into the result's "env" object, and prints its short text form. A fact that
 * cannot be read stays "unknown" (null for numbers): only running out of memory for the
 * JSON itself is an error, so a locked-down /proc or /sys never costs the user a run. */
#include "loadgen/env/sysinfo.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "lg_git_describe.h" /* generated at every build: LOADGEN_GIT_DESCRIBE, if known */

#ifndef LOADGEN_VERSION
#define LOADGEN_VERSION "0.0.0"
#endif

#if defined(__clang__)
#define COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define COMPILER "gcc " __VERSION__
#else
#define COMPILER LG_UNKNOWN
#endif

#define SYSFS "/sys"
#define SHELL_SAFE "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-"

/* A JSON string of s; "unknown" for NULL or "". jansson refuses invalid UTF-8, and a
 * hostname or mount point with an odd byte must not cost the whole result, so such
 * bytes become '?'. NULL only when out of memory. */
static json_t *jstr(const char *s)
{
	json_t *j;
	char *copy;

	if (!s || !*s)
		s = LG_UNKNOWN;
	j = json_string(s);
	if (j || !(copy = strdup(s)))
		return j;
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

/* A JSON integer, or null for a negative ("unknown") value. */
static json_t *jint(long long v)
{
	return v >= 0 ? json_integer((json_int_t)v) : json_null();
}

/* argv as one line that a POSIX shell splits back into the same words: a word with
 * anything outside SHELL_SAFE is single-quoted ('it'\''s'). NULL on -ENOMEM. */
static char *join_argv(int argc, char *const argv[])
{
	size_t len = 1;
	char *out, *o;

	for (int i = 0; argv && i < argc; i++)
		len += 4 * strlen(argv[i]) + 3; /* every byte a quote (4), two quotes, a space */
	o = out = malloc(len);
	if (!out)
		return NULL;
	for (int i = 0; argv && i < argc; i++) {
		const char *a = argv[i];

		if (i)
			*o++ = ' ';
		if (*a && strspn(a, SHELL_SAFE) == strlen(a)) {
			o = stpcpy(o, a);
			continue;
		}
		*o++ = '\'';
		for (; *a; a++) {
			if (*a == '\'')
				o = stpcpy(o, "'\\''");
			else
				*o++ = *a;
		}
		*o++ = '\'';
	}
	*o = '\0';
	return out;
}

/* start (NULL: now) as ISO 8601 UTC, to the second. */
static void iso_utc(const struct timespec *start, char *buf, size_t len)
{
	struct timespec now;
	struct tm tm;
	time_t t;

	if (!start) {
		clock_gettime(CLOCK_REALTIME, &now);
		start = &now;
	}
	t = start->tv_sec;
	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, len, "%s", LG_UNKNOWN);
}

/* CPUs this process may run on (what nproc prints), or -1. The set is sized from the
 * configured count and grown while the kernel's mask is larger. */
static long allowed_cpus(void)
{
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	size_t ncpu = conf > 0 ? (size_t)conf : 1024;

	for (int tries = 0; tries < 4; tries++, ncpu *= 4) {
		cpu_set_t *set = CPU_ALLOC(ncpu);
		size_t size = CPU_ALLOC_SIZE(ncpu);
		long n;

		if (!set)
			return -1;
		n = sched_getaffinity(0, size, set) == 0 ? CPU_COUNT_S(size, set) : -1;
		CPU_FREE(set);
		if (n >= 0 || errno != EINVAL)
			return n;
	}
	return -1;
}

const char *lg_sysinfo_git_describe(void)
{
#ifdef LOADGEN_GIT_DESCRIBE
	return LOADGEN_GIT_DESCRIBE;
#else
	return NULL;
#endif
}

static json_t *build_json(int argc, char *const argv[], const struct timespec *start)
{
	char when[64], *cmd = join_argv(argc, argv);
	json_t *j;

	iso_utc(start, when, sizeof(when));
	j = json_pack("{s:s, s:o, s:s, s:o, s:s}",
		      "loadgen_version", LOADGEN_VERSION,
		      "git_describe", lg_sysinfo_git_describe() ?
		      jstr(lg_sysinfo_git_describe()) : json_null(),
		      "compiler", COMPILER,
		      "command_line", cmd ? jstr(cmd) : NULL,
		      "start_time", when);
	free(cmd);
	return j;
}

static json_t *host_json(void)
{
	struct utsname u;
	bool have_uname = uname(&u) == 0;
	char model[256], *text = NULL;
	long long mem = -1;
	uint64_t bytes;

	if (lg_sysinfo_slurp("/proc/cpuinfo", &text) != 0 ||
	    lg_cpuinfo_model(text, model, sizeof(model)) != 0)
		snprintf(model, sizeof(model), "%s", LG_UNKNOWN);
	free(text);
	text = NULL;
	if (lg_sysinfo_slurp("/proc/meminfo", &text) == 0 && lg_meminfo_total(text, &bytes) == 0)
		mem = (long long)bytes;
	free(text);
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "hostname", jstr(have_uname ? u.nodename : NULL),
			 "kernel", jstr(have_uname ? u.release : NULL),
			 "kernel_version", jstr(have_uname ? u.version : NULL),
			 "arch", jstr(have_uname ? u.machine : NULL),
			 "cpu_model", jstr(model),
			 "cpus", jint(sysconf(_SC_NPROCESSORS_ONLN)),
			 "cpus_allowed", jint(allowed_cpus()),
			 "mem_total_bytes", jint(mem));
}

/* The block device under mount m (NULL when the mount is unknown; then the target's
 * st_dev, or nothing when st is NULL too). 0 or -ENOENT with bd all unknown. */
static int find_block(const struct lg_mount *m, const struct stat *st, struct lg_blockdev *bd)
{
	struct stat src;

	memset(bd, 0, sizeof(*bd));
	bd->rotational = -1;
	bd->queue_depth = -1;
	if (m && lg_blockdev_find(SYSFS, m->major, m->minor, bd) == 0)
		return 0;
	/* btrfs shows an anonymous device number; its source names the real device */
	if (m && strncmp(m->source, "/dev/", 5) == 0 && stat(m->source, &src) == 0 &&
	    S_ISBLK(src.st_mode))
		return lg_blockdev_find(SYSFS, major(src.st_rdev), minor(src.st_rdev), bd);
	if (!m && st)
		return lg_blockdev_find(SYSFS, major(st->st_dev), minor(st->st_dev), bd);
	return -ENOENT;
}

static json_t *block_json(const struct lg_blockdev *bd, bool found)
{
	json_t *chain = found ? json_array() : json_null();

	for (unsigned i = 0; found && chain && i < bd->nchain; i++) {
		if (json_array_append_new(chain, jstr(bd->chain[i])) != 0) {
			json_decref(chain);
			chain = NULL;
		}
	}
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "block_device", jstr(bd->name),
			 "block_chain", chain,
			 "block_members", found ? jint(bd->members) : json_null(),
			 "model", jstr(bd->model),
			 "vendor", jstr(bd->vendor),
			 "driver", jstr(bd->driver),
			 "rotational", bd->rotational < 0 ? json_null()
							  : json_boolean(bd->rotational),
			 "scheduler", jstr(bd->scheduler),
			 "queue_depth", jint(bd->queue_depth));
}

/* Where dir lives: its real path in real (PATH_MAX bytes) and its stat, or false when
 * it cannot be resolved; its mount in m when *have_mount (free it with lg_mount_clear). */
static bool locate(const char *dir, char *real, struct stat *st, struct lg_mount *m,
		   bool *have_mount)
{
	char *text = NULL;

	*have_mount = false;
	if (!realpath(dir, real) || stat(real, st) != 0)
		return false;
	if (lg_sysinfo_slurp("/proc/self/mountinfo", &text) == 0)
		*have_mount = lg_mountinfo_find(text, st->st_dev, real, m) == 0;
	free(text);
	return true;
}

int lg_dir_blockdev(const char *dir, struct lg_blockdev *bd)
{
	char real[PATH_MAX];
	struct lg_mount m = { 0 };
	struct stat st;
	bool have_mount, have_path = locate(dir, real, &st, &m, &have_mount);
	int rc = find_block(have_mount ? &m : NULL, have_path ? &st : NULL, bd);

	lg_mount_clear(&m);
	return rc;
}

/* The filesystem, mount and device holding target_dir. */
static json_t *target_json(const char *target_dir)
{
	const char *dir = target_dir ? target_dir : ".";
	char real[PATH_MAX];
	struct lg_mount m = { 0 };
	struct lg_blockdev bd;
	bool have_path, have_mount, have_bd;
	struct stat st;
	json_t *j, *blk;

	have_path = locate(dir, real, &st, &m, &have_mount);
	have_bd = find_block(have_mount ? &m : NULL, have_path ? &st : NULL, &bd) == 0;
	j = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}",
		      "target_dir", jstr(have_path ? real : dir),
		      "fs_type", jstr(m.fs_type),
		      "mount_point", jstr(m.mount_point),
		      "mount_root", jstr(m.root),
		      "mount_options", jstr(m.options),
		      "device", jstr(m.source));
	lg_mount_clear(&m);
	blk = block_json(&bd, have_bd);
	if (j && (!blk || json_object_update(j, blk) != 0)) {
		json_decref(j);
		j = NULL;
	}
	json_decref(blk);
	return j;
}

int lg_sysinfo_json(const char *target_dir, int argc, char *const argv[],
		    const struct timespec *start, json_t **out)
{
	json_t *parts[3], *env = json_object();
	int rc = env ? 0 : -ENOMEM;

	parts[0] = build_json(argc, argv, start);
	parts[1] = host_json();
	parts[2] = target_json(target_dir);
	for (size_t i = 0; i < 3; i++) {
		if (rc == 0 && (!parts[i] || json_object_update(env, parts[i]) != 0))
			rc = -ENOMEM;
		json_decref(parts[i]);
	}
	if (rc != 0) {
		json_decref(env);
		return rc;
	}
	*out = env;
	return 0;
}

/* --- The text header --- */

static const char *get_s(const json_t *env, const char *key)
{
	const char *s = json_string_value(json_object_get(env, key));

	return s && *s ? s : LG_UNKNOWN;
}

static bool get_i(const json_t *env, const char *key, long long *v)
{
	json_t *j = json_object_get(env, key);

	if (!json_is_integer(j))
		return false;
	*v = (long long)json_integer_value(j);
	return true;
}

static bool known(const char *s)
{
	return strcmp(s, LG_UNKNOWN) != 0;
}

static void print_host(FILE *out, const json_t *env)
{
	const char *git = json_string_value(json_object_get(env, "git_describe"));
	long long cpus = -1, allowed, mem;

	fprintf(out, "loadgen %s", get_s(env, "loadgen_version"));
	if (git && *git)
		fprintf(out, " (%s)", git);
	fprintf(out, "  kernel %s  %s  ", get_s(env, "kernel"), get_s(env, "arch"));
	if (get_i(env, "cpus", &cpus))
		fprintf(out, "%lld CPUs", cpus);
	else
		fputs("CPUs unknown", out);
	if (get_i(env, "cpus_allowed", &allowed) && allowed != cpus)
		fprintf(out, " (%lld allowed)", allowed);
	fprintf(out, " (%s)", get_s(env, "cpu_model"));
	if (get_i(env, "mem_total_bytes", &mem))
		fprintf(out, "  %.1f GiB\n", (double)mem / (1024.0 * 1024 * 1024));
	else
		fputs("  memory unknown\n", out);
}

static void print_target(FILE *out, const json_t *env)
{
	const char *disk = get_s(env, "block_device"), *what[] = { "vendor", "model" };
	json_t *rot = json_object_get(env, "rotational");
	char sep = ':';
	long long v;

	fprintf(out, "target %s: %s (%s) on %s", get_s(env, "target_dir"),
		get_s(env, "fs_type"), get_s(env, "mount_options"), get_s(env, "device"));
	if (!known(disk)) {
		fputs(", block device unknown\n", out);
		return;
	}
	fprintf(out, ", disk %s", disk);
	if (get_i(env, "block_members", &v) && v > 0)
		fprintf(out, " (%lld members)", v);
	for (size_t i = 0; i < 2; i++) {
		if (known(get_s(env, what[i]))) {
			fprintf(out, "%c %s", sep, get_s(env, what[i]));
			sep = ' ';
		}
	}
	if (known(get_s(env, "driver")))
		fprintf(out, "%s(%s)", sep == ':' ? ": " : " ", get_s(env, "driver"));
	fprintf(out, ", rotational %s, scheduler %s, queue depth ",
		json_is_true(rot) ? "yes" : json_is_false(rot) ? "no" : LG_UNKNOWN,
		get_s(env, "scheduler"));
	if (get_i(env, "queue_depth", &v))
		fprintf(out, "%lld\n", v);
	else
		fputs(LG_UNKNOWN "\n", out);
}

void lg_sysinfo_print(FILE *out, const json_t *env)
{
	print_host(out, env);
	print_target(out, env);
}

void lg_sysinfo_print_short(FILE *out, const json_t *env)
{
	const char *git = json_string_value(json_object_get(env, "git_describe"));
	const char *disk = get_s(env, "block_device");

	fprintf(out, "loadgen %s", get_s(env, "loadgen_version"));
	if (git && *git)
		fprintf(out, " (%s)", git);
	fprintf(out, "  kernel %s  target %s: %s on %s", get_s(env, "kernel"),
		get_s(env, "target_dir"), get_s(env, "fs_type"), get_s(env, "device"));
	if (known(disk))
		fprintf(out, " (disk %s)", disk);
	fputc('\n', out);
}

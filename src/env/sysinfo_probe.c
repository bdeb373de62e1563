/* The probes behind sysinfo.c: parsers of /proc text (mountinfo, cpuinfo, meminfo) and
 * the walk of a sysfs tree from a device number down to its disk. They take text and a
 * sysfs root as arguments, so the tests can describe machines that this one is not. They
 * run once per process, outside the measured phase, so plain malloc and stdio are fine. */
#include "loadgen/env/sysinfo.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define SLURP_MAX (64u << 20) /* /proc/self/mountinfo of a busy container host fits */

/* --- Small text helpers --- */

/* Strip leading and trailing blanks in place; SCSI pads model and vendor with spaces. */
static char *trim(char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* Copy src into dst (len > 0), cut to fit: sysfs values longer than the fields are
 * not worth failing for. */
static void copy(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* Copy src into buf (len > 0) with runs of blanks squeezed to one space. */
static void squeeze(char *buf, size_t len, const char *src)
{
	size_t o = 0;

	for (; *src && o + 1 < len; src++) {
		if (isspace((unsigned char)*src)) {
			if (o && buf[o - 1] != ' ')
				buf[o++] = ' ';
		} else {
			buf[o++] = *src;
		}
	}
	while (o && buf[o - 1] == ' ')
		o--;
	buf[o] = '\0';
}

/* /proc files report size 0, so this reads until end of file, doubling the buffer. */
int lg_sysinfo_slurp(const char *path, char **out)
{
	size_t len = 0, cap = 16384;
	char *buf = malloc(cap), *nb;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;
	ssize_t n;

	if (fd < 0 || !buf) {
		rc = fd < 0 ? -errno : -ENOMEM;
		goto out;
	}
	for (;;) {
		if (len + 1 == cap) {
			nb = cap < SLURP_MAX ? realloc(buf, cap * 2) : NULL;
			if (!nb) {
				rc = cap < SLURP_MAX ? -ENOMEM : -EFBIG;
				goto out;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n == 0)
			break;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			goto out;
		}
		len += (size_t)n;
	}
	buf[len] = '\0';
	*out = buf;
	buf = NULL;
out:
	free(buf);
	if (fd >= 0)
		close(fd);
	return rc;
}

/* A small attribute file dir/rel, trimmed, into buf. 0, or a negative errno with buf "". */
static int read_attr(const char *dir, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX], tmp[256];
	ssize_t n;
	int fd;

	buf[0] = '\0';
	if (snprintf(path, sizeof(path), "%s/%s", dir, rel) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, tmp, sizeof(tmp) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	tmp[n] = '\0';
	copy(buf, len, trim(tmp));
	return buf[0] ? 0 : -ENODATA;
}

/* --- /proc/self/mountinfo --- */

/* One mountinfo line, split in place (see proc(5)). */
struct mi_entry {
	long id, parent;        /* mount ID and its parent's */
	unsigned major, minor;  /* st_dev of files on this filesystem (not always: btrfs) */
	char *root, *mp;        /* root of the mount within its filesystem; mount point */
	char *opts, *fs_type, *source, *super_opts;
};

/* Decode the kernel's \ooo escapes (space, tab, newline, backslash) in place. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* The next space-separated field of *p (empty fields kept), or NULL at the end. */
static char *field(char **p)
{
	char *f = *p, *sp;

	if (!f)
		return NULL;
	sp = strchr(f, ' ');
	if (sp)
		*sp++ = '\0';
	*p = sp;
	return f;
}

/* Split one line; false for a malformed one. */
static bool mi_parse(char *line, struct mi_entry *e)
{
	char *p = line, *id = field(&p), *parent = field(&p), *dev = field(&p), *f, *end;

	e->root = field(&p);
	e->mp = field(&p);
	e->opts = field(&p);
	if (!e->opts || sscanf(dev, "%u:%u", &e->major, &e->minor) != 2)
		return false;
	e->id = strtol(id, &end, 10);
	if (end == id || *end)
		return false;
	e->parent = strtol(parent, &end, 10);
	if (end == parent || *end)
		return false;
	while ((f = field(&p)) && strcmp(f, "-") != 0)
		; /* optional fields: shared:N, master:N, ... */
	e->fs_type = field(&p);
	e->source = field(&p);
	e->super_opts = field(&p);
	if (!e->super_opts || e->root[0] != '/' || e->mp[0] != '/')
		return false;
	unescape(e->root);
	unescape(e->mp);
	unescape(e->source);
	return true;
}

/* Is mount point mp path itself or one of its ancestors (whole components)? */
static bool mp_holds(const char *mp, const char *path)
{
	size_t n = strlen(mp);

	if (strcmp(mp, "/") == 0)
		return true;
	return strncmp(mp, path, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

static bool has_id(const struct mi_entry *e, size_t n, long id)
{
	for (size_t i = 0; i < n; i++)
		if (e[i].id == id)
			return true;
	return false;
}

/* The mount that path lookup crosses into next from mount cur (SIZE_MAX: from outside
 * the listed tree, i.e. among mounts whose parent is not listed): a child on the path
 * whose mount point is the shortest, as lookup meets it first; a later mount on the same
 * point (stacked) covers an earlier one, unless only the earlier has the right device.
 * SIZE_MAX when there is none. */
static size_t mi_next(const struct mi_entry *e, size_t n, size_t cur, const char *path,
		      unsigned maj, unsigned min)
{
	size_t best = SIZE_MAX;

	for (size_t i = 0; i < n; i++) {
		bool match, best_match;
		size_t len;

		if (i == cur || !mp_holds(e[i].mp, path))
			continue;
		if (cur == SIZE_MAX ? has_id(e, n, e[i].parent) : e[i].parent != e[cur].id)
			continue;
		len = strlen(e[i].mp);
		if (cur != SIZE_MAX && len < strlen(e[cur].mp))
			continue;
		if (best == SIZE_MAX || len < strlen(e[best].mp)) {
			best = i;
			continue;
		}
		match = e[i].major == maj && e[i].minor == min;
		best_match = e[best].major == maj && e[best].minor == min;
		if (len == strlen(e[best].mp) && (match || !best_match))
			best = i;
	}
	return best;
}

/* Options as "per-mount,super" without repeating one already listed ("rw"). NULL on
 * -ENOMEM. */
static char *merge_options(const char *vfs, const char *sb)
{
	size_t vlen = strlen(vfs);
	char *out = malloc(vlen + strlen(sb) + 2), *copy = strdup(sb), *p, *opt;

	if (!out || !copy) {
		free(out);
		free(copy);
		return NULL;
	}
	memcpy(out, vfs, vlen + 1);
	for (p = copy; (opt = strsep(&p, ",")) != NULL;) {
		size_t olen = strlen(opt);
		const char *q = out;
		bool dup = false;

		while (!dup && olen && (q = strstr(q, opt)) != NULL) {
			dup = (q == out || q[-1] == ',') && (q[olen] == ',' || q[olen] == '\0');
			q += olen;
		}
		if (olen && !dup) {
			if (out[0])
				strcat(out, ",");
			strcat(out, opt);
		}
	}
	free(copy);
	return out;
}

static int mount_fill(const struct mi_entry *e, dev_t dev, struct lg_mount *out)
{
	out->major = e->major;
	out->minor = e->minor;
	out->dev_match = e->major == major(dev) && e->minor == minor(dev);
	out->root = strdup(e->root);
	out->mount_point = strdup(e->mp);
	out->fs_type = strdup(e->fs_type);
	out->source = strdup(e->source);
	out->options = merge_options(e->opts, e->super_opts);
	if (out->root && out->mount_point && out->fs_type && out->source && out->options)
		return 0;
	lg_mount_clear(out);
	return -ENOMEM;
}

/* Split text into entries (pointing into copy). 0 or -ENOMEM. */
static int mi_split(char *copy, struct mi_entry **entries, size_t *count)
{
	size_t n = 0, cap = 1;
	struct mi_entry *e;
	char *p = copy, *line;

	for (const char *c = copy; *c; c++)
		cap += *c == '\n';
	e = calloc(cap, sizeof(*e));
	if (!e)
		return -ENOMEM;
	while ((line = strsep(&p, "\n")) != NULL)
		if (n < cap && mi_parse(line, &e[n]))
			n++;
	*entries = e;
	*count = n;
	return 0;
}

int lg_mountinfo_find(const char *mountinfo_text, dev_t dev, const char *path,
		      struct lg_mount *out)
{
	char *copy = strdup(mountinfo_text);
	struct mi_entry *e = NULL;
	size_t n = 0, cur = SIZE_MAX, next;
	int rc;

	memset(out, 0, sizeof(*out));
	if (path[0] != '/') {
		free(copy);
		return -EINVAL;
	}
	rc = copy ? mi_split(copy, &e, &n) : -ENOMEM;
	/* n steps at most: a malformed parent loop cannot keep the walk going */
	for (size_t step = 0; rc == 0 && step < n; step++) {
		next = mi_next(e, n, cur, path, major(dev), minor(dev));
		if (next == SIZE_MAX)
			break;
		cur = next;
	}
	if (rc == 0)
		rc = cur == SIZE_MAX ? -ENOENT : mount_fill(&e[cur], dev, out);
	free(e);
	free(copy);
	return rc;
}

void lg_mount_clear(struct lg_mount *m)
{
	if (!m)
		return;
	free(m->root);
	free(m->mount_point);
	free(m->fs_type);
	free(m->source);
	free(m->options);
	memset(m, 0, sizeof(*m));
}

/* --- /proc/cpuinfo and /proc/meminfo --- */

/* The value of the first "key : value" line whose key is exactly key, squeezed into buf.
 * 0 or -ENOENT. */
static int proc_value(const char *text, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *k = l, *colon = strchr(l, ':'), *eol = strchr(l, '\n');
		char val[512];

		while (*k == ' ' || *k == '\t')
			k++;
		if (!colon || (eol && colon > eol) || strncmp(k, key, klen) != 0)
			continue;
		for (k += klen; k < colon && (*k == ' ' || *k == '\t'); k++)
			;
		if (k != colon)
			continue;
		snprintf(val, sizeof(val), "%.*s",
			 (int)(eol ? (size_t)(eol - colon - 1) : strlen(colon + 1)), colon + 1);
		squeeze(buf, len, val);
		return 0;
	}
	return -ENOENT;
}

int lg_cpuinfo_model(const char *cpuinfo_text, char *buf, size_t len)
{
	static const char *const keys[] = { "model name", "cpu model", "Processor", "cpu",
					    "uarch" };
	char impl[64], part[64];

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (proc_value(cpuinfo_text, keys[i], buf, len) == 0 && buf[0])
			return 0;
	if (proc_value(cpuinfo_text, "CPU implementer", impl, sizeof(impl)) == 0 &&
	    proc_value(cpuinfo_text, "CPU part", part, sizeof(part)) == 0) {
		snprintf(buf, len, "CPU implementer %s part %s", impl, part);
		return 0;
	}
	snprintf(buf, len, "%s", LG_UNKNOWN);
	return -ENOENT;
}

int lg_meminfo_total(const char *meminfo_text, uint64_t *bytes)
{
	char val[64], *end;
	unsigned long long v;

	if (proc_value(meminfo_text, "MemTotal", val, sizeof(val)) != 0)
		return -ENOENT;
	errno = 0;
	v = strtoull(val, &end, 10);
	if (end == val || errno)
		return -ENOENT;
	if (strcmp(end, " kB") == 0)
		v *= 1024; /* the kernel's "kB" is KiB */
	else if (*end)
		return -ENOENT;
	*bytes = v;
	return 0;
}

/* --- /sys: the block device --- */

static void add_chain(struct lg_blockdev *bd, const char *dir)
{
	const char *slash = strrchr(dir, '/');

	copy(bd->name, sizeof(bd->name), slash ? slash + 1 : dir);
	if (bd->nchain < LG_BLOCK_CHAIN_MAX)
		memcpy(bd->chain[bd->nchain++], bd->name, sizeof(bd->name));
}

/* Members of a dm/md device (entries of dir/slaves), the first one's name in first. */
static unsigned count_slaves(const char *dir, char *first, size_t len)
{
	char path[PATH_MAX];
	struct dirent *d;
	unsigned n = 0;
	DIR *dh;

	if (snprintf(path, sizeof(path), "%s/slaves", dir) >= (int)sizeof(path))
		return 0;
	dh = opendir(path);
	while (dh && (d = readdir(dh)) != NULL) {
		if (d->d_name[0] == '.')
			continue;
		if (n++ == 0)
			copy(first, len, d->d_name);
	}
	if (dh)
		closedir(dh);
	return n;
}

/* Walk dir (a canonical sysfs block directory) down to the disk it stands on. */
static void follow_down(char *dir, struct lg_blockdev *bd)
{
	char path[PATH_MAX], tmp[PATH_MAX], slave[NAME_MAX + 1], attr[16];

	for (;;) {
		add_chain(bd, dir);
		/* a partition's directory sits inside its disk's */
		if (read_attr(dir, "partition", attr, sizeof(attr)) == 0) {
			*strrchr(dir, '/') = '\0';
			add_chain(bd, dir);
		}
		if (bd->nchain + 2 > LG_BLOCK_CHAIN_MAX)
			return;
		bd->members = count_slaves(dir, slave, sizeof(slave));
		if (bd->members != 1)
			break;
		bd->members = 0;
		if (snprintf(path, sizeof(path), "%s/slaves/%s", dir, slave) >= (int)sizeof(path) ||
		    !realpath(path, tmp))
			return;
		memcpy(dir, tmp, PATH_MAX);
	}
}

static void read_queue(const char *dir, struct lg_blockdev *bd)
{
	char buf[256], *l, *r, *end;
	long v;

	if (read_attr(dir, "queue/rotational", buf, sizeof(buf)) == 0 &&
	    (strcmp(buf, "0") == 0 || strcmp(buf, "1") == 0))
		bd->rotational = buf[0] - '0';
	if (read_attr(dir, "queue/nr_requests", buf, sizeof(buf)) == 0) {
		v = strtol(buf, &end, 10);
		if (end != buf && !*end && v >= 0)
			bd->queue_depth = v;
	}
	if (read_attr(dir, "queue/scheduler", buf, sizeof(buf)) == 0) {
		l = strchr(buf, '[');
		r = l ? strchr(l, ']') : NULL;
		if (r) {
			*r = '\0';
			copy(bd->scheduler, sizeof(bd->scheduler), l + 1);
		} else if (!strchr(buf, ' ')) {
			copy(bd->scheduler, sizeof(bd->scheduler), buf); /* "none" */
		}
	}
}

int lg_blockdev_find(const char *sysfs_root, unsigned major, unsigned minor,
		     struct lg_blockdev *out)
{
	char link[PATH_MAX], dir[PATH_MAX], drv[PATH_MAX];
	ssize_t n;

	memset(out, 0, sizeof(*out));
	out->rotational = -1;
	out->queue_depth = -1;
	if (snprintf(link, sizeof(link), "%s/dev/block/%u:%u", sysfs_root, major, minor) >=
		    (int)sizeof(link) || !realpath(link, dir))
		return -ENOENT;
	follow_down(dir, out);
	read_queue(dir, out);
	if (read_attr(dir, "device/model", out->model, sizeof(out->model)) != 0)
		read_attr(dir, "device/name", out->model, sizeof(out->model)); /* MMC */
	read_attr(dir, "device/vendor", out->vendor, sizeof(out->vendor));
	n = snprintf(link, sizeof(link), "%s/device/driver", dir) < (int)sizeof(link)
		    ? readlink(link, drv, sizeof(drv) - 1) : -1;
	if (n > 0) {
		drv[n] = '\0';
		copy(out->driver, sizeof(out->driver), strrchr(drv, '/') ? strrchr(drv, '/') + 1 : drv);
	}
	return 0;
}

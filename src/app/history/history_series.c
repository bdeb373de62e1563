/* What makes results comparable, so that a series never mixes them: the same machine
 * (host name, CPU, file system, device, mount options, I/O scheduler), the same
 * workload (its hash and parameters), the same client count and the same options that
 * shape the load (lg_calib_key, which the calibration store uses for the same
 * question), plus --verify and --replay-timing. The kernel is left out on purpose: it
 * is what a series follows. When a result starts a new series, the nearest existing
 * series (fewest differing keys, the same host and workload first) says why. */
#include "history_priv.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "loadgen/compare/calibration.h"

#define MAX_DIFFS 4 /* differences named in a reason; the rest are counted */

json_t *hist_series_key(const json_t *doc, unsigned clients)
{
	static const char *const extra[] = { "verify", "replay_timing", NULL };
	const json_t *cfg = json_object_get(doc, "config");
	json_t *key = lg_calib_key(doc, clients), *kc;

	if (!key)
		return NULL;
	kc = json_object_get(key, "config");
	for (size_t i = 0; extra[i]; i++) {
		json_t *v = json_object_get(cfg, extra[i]);

		if (v && json_object_set_new(kc, extra[i], json_deep_copy(v))) {
			json_decref(key);
			return NULL;
		}
	}
	return key;
}

static const char *str_at(const json_t *key, const char *sect, const char *name)
{
	const char *s = json_string_value(json_object_get(json_object_get(key, sect), name));

	return s ? s : "?";
}

void hist_series_title(const json_t *key, char *buf, size_t len)
{
	snprintf(buf, len, "%s, %lld clients, host %s: %s on %s (%s)", str_at(key, "workload", "name"),
		 (long long)json_integer_value(json_object_get(key, "clients")),
		 str_at(key, "env", "hostname"), str_at(key, "env", "fs_type"),
		 str_at(key, "env", "device"), str_at(key, "env", "mount_options"));
}

/* The words for a dotted key. */
static const char *key_words(const char *k)
{
	static const struct { const char *key, *words; } names[] = {
		{ "clients", "client count" },
		{ "env.hostname", "host" },
		{ "env.mount_options", "mount options" },
		{ "env.fs_type", "file system" },
		{ "env.device", "device" },
		{ "env.model", "device model" },
		{ "env.scheduler", "I/O scheduler" },
		{ "env.cpu_model", "CPU" },
		{ "env.cpus", "CPU count" },
		{ "env.cpus_allowed", "CPUs allowed" },
		{ "env.arch", "architecture" },
		{ "workload.name", "workload" },
		{ "workload.sha256", "workload (its content)" },
		{ "workload.params", "workload parameters" },
		{ "config.mode", "client mode" },
		{ "config.time_s", "run time (-t)" },
		{ "config.warmup_s", "warm-up" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(names[i].key, k) == 0)
			return names[i].words;
	return k;
}

/* A value as text for a reason: strings bare, the rest as compact JSON. */
static void value_text(const json_t *v, char *buf, size_t len)
{
	char *s;

	if (!v) {
		snprintf(buf, len, "(none)");
	} else if (json_is_string(v)) {
		snprintf(buf, len, "%s", json_string_value(v));
	} else if ((s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY))) {
		snprintf(buf, len, "%s", s);
		free(s);
	} else {
		snprintf(buf, len, "?");
	}
}

/* Differences of two keys, one level into env/workload/config. */
struct diffs {
	char here[MAX_DIFFS][96];   /* their values in the new key */
	char there[MAX_DIFFS][96];  /* and in the series' */
	char name[MAX_DIFFS][48];   /* the first ones' dotted keys */
	size_t n;                   /* all differences */
};

static void note(struct diffs *d, const char *k, const json_t *a, const json_t *b)
{
	if (d->n < MAX_DIFFS) {
		snprintf(d->name[d->n], sizeof(d->name[0]), "%s", k);
		value_text(a, d->here[d->n], sizeof(d->here[0]));
		value_text(b, d->there[d->n], sizeof(d->there[0]));
	}
	d->n++;
}

static bool same(const json_t *a, const json_t *b)
{
	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	return json_equal((json_t *)a, (json_t *)b);
}

static void diff_keys(const json_t *a, const json_t *b, struct diffs *d)
{
	static const char *const sects[] = { "env", "workload", "config" };
	char k[48];

	memset(d, 0, sizeof(*d));
	if (!same(json_object_get(a, "clients"), json_object_get(b, "clients")))
		note(d, "clients", json_object_get(a, "clients"), json_object_get(b, "clients"));
	for (size_t s = 0; s < 3; s++) {
		const json_t *oa = json_object_get(a, sects[s]), *ob = json_object_get(b, sects[s]);
		const char *name;
		json_t *v;

		json_object_foreach((json_t *)oa, name, v) {
			if (same(v, json_object_get(ob, name)))
				continue;
			snprintf(k, sizeof(k), "%s.%s", sects[s], name);
			note(d, k, v, json_object_get(ob, name));
		}
		json_object_foreach((json_t *)ob, name, v) {
			if (json_object_get(oa, name))
				continue;
			snprintf(k, sizeof(k), "%s.%s", sects[s], name);
			note(d, k, NULL, v);
		}
	}
}

void hist_series_reason(struct hist_db *h, const json_t *key, char *buf, size_t len)
{
	const char *host = str_at(key, "env", "hostname"), *wl = str_at(key, "workload", "name");
	long long best_id = 0;
	struct diffs best = { .n = (size_t)-1 }, d;
	int best_rank = 3;
	sqlite3_stmt *st;
	size_t off;

	if (sqlite3_prepare_v2(h->db, "SELECT id, key, hostname, workload FROM series ORDER BY id",
			       -1, &st, NULL) != SQLITE_OK) {
		snprintf(buf, len, "a new series");
		return;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *k = (const char *)sqlite3_column_text(st, 1);
		const char *sh = (const char *)sqlite3_column_text(st, 2);
		const char *sw = (const char *)sqlite3_column_text(st, 3);
		json_t *other = k ? json_loads(k, 0, NULL) : NULL;
		/* rank: 0 same host and workload, 1 same host, 2 any */
		int rank = (sh && strcmp(sh, host) == 0) ? (sw && strcmp(sw, wl) == 0 ? 0 : 1) : 2;

		if (!other)
			continue;
		diff_keys(key, other, &d);
		json_decref(other);
		if (d.n && (rank < best_rank || (rank == best_rank && d.n < best.n))) {
			best = d;
			best_rank = rank;
			best_id = sqlite3_column_int64(st, 0);
		}
	}
	sqlite3_finalize(st);
	if (!best_id || best_rank == 2) {
		snprintf(buf, len, "the first result of %s on host %s%s", wl, host,
			 best_id ? "" : " (the history was empty)");
		return;
	}
	if (best.n == 1) {
		snprintf(buf, len, "other %s than series %lld: %s here, %s there",
			 key_words(best.name[0]), best_id, best.here[0], best.there[0]);
		return;
	}
	off = (size_t)snprintf(buf, len, "%zu differences from series %lld: ", best.n, best_id);
	for (size_t i = 0; i < best.n && i < MAX_DIFFS && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s %s here, %s there",
					i ? "; " : "", key_words(best.name[i]), best.here[i],
					best.there[i]);
	if (best.n > MAX_DIFFS && off < len)
		snprintf(buf + off, len - off, "; and %zu more", best.n - MAX_DIFFS);
}

/* The history store: one SQLite file (a real database, so several CI jobs can add to it
 * at once and anyone can query it with sqlite3).
 *
 * Safety first: a file that is there is read before anything is written to it. Its
 * first 100 bytes must be an SQLite header whose page count fits the file's size (a
 * database cut short by a full disk or a half copy is refused, not "repaired" by a
 * write); an SQLite database must carry loadgen's application_id, or be empty. Only
 * then is the schema made (in an IMMEDIATE transaction, so two jobs making it at once
 * do it once) and WAL switched on (readers never wait for a writer; writers wait for
 * each other up to HIST_BUSY_MS). Several jobs may find no store and make it at once:
 * what they read to decide is read in one transaction, a file that looks wrong while
 * another connection writes it is looked at again, and the switch to WAL is retried. */
#include "history_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "loadgen/model/errf.h"
#include "loadgen/model/paths.h"

#define HEADER_LEN 100 /* an SQLite database file's header */

static const char schema[] =
	"CREATE TABLE series ("
	" id INTEGER PRIMARY KEY,"
	" key TEXT NOT NULL UNIQUE,"      /* canonical JSON of what its results share */
	" hostname TEXT, workload TEXT, clients INTEGER,"
	" fs_type TEXT, device TEXT, mount_options TEXT,"
	" created_at TEXT NOT NULL);"
	"CREATE TABLE results ("
	" id INTEGER PRIMARY KEY,"
	" stored_at TEXT NOT NULL,"       /* UTC, when added */
	" started_at TEXT,"               /* env.start_time */
	" label TEXT, kernel TEXT, hostname TEXT,"
	" source TEXT,"                   /* the path it was added from */
	" sha256 TEXT NOT NULL UNIQUE,"   /* of the document, so one is stored once */
	" env TEXT NOT NULL,"             /* its env object (json_extract works on it) */
	" doc TEXT NOT NULL);"            /* the whole result file */
	"CREATE TABLE points ("           /* a result at one client count */
	" id INTEGER PRIMARY KEY,"
	" result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,"
	" series_id INTEGER NOT NULL REFERENCES series(id),"
	" clients INTEGER NOT NULL, runs INTEGER NOT NULL, status TEXT NOT NULL,"
	" mbps_mean REAL, mbps_sd REAL, mbps_ci_lo REAL, mbps_ci_hi REAL, mbps_runs TEXT,"
	" ops_mean REAL, ops_sd REAL, ops_ci_lo REAL, ops_ci_hi REAL, ops_runs TEXT,"
	" UNIQUE (result_id, clients));"
	"CREATE INDEX points_series ON points (series_id, id);"
	"CREATE TABLE op_latency ("       /* per op type, over the point's runs */
	" point_id INTEGER NOT NULL REFERENCES points(id) ON DELETE CASCADE,"
	" op TEXT NOT NULL, count INTEGER, p50_ns INTEGER, p99_ns INTEGER, max_ns INTEGER,"
	" PRIMARY KEY (point_id, op));"
	"CREATE TABLE sys_counters ("     /* the system monitor over the point's runs */
	" point_id INTEGER NOT NULL REFERENCES points(id) ON DELETE CASCADE,"
	" name TEXT NOT NULL,"            /* counters.X: per second; gauges.X: mean */
	" value REAL NOT NULL, PRIMARY KEY (point_id, name));";

int hist_db_default_path(char *buf, size_t len)
{
	return lg_path_user_data("history.db", buf, len);
}

int hist_db_err(struct hist_db *h, int rc, char *err, size_t errlen, const char *what)
{
	int code = h->db ? sqlite3_errcode(h->db) : SQLITE_ERROR;
	const char *hint = "";

	if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)
		hint = " (the file is left as it is)";
	else if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
		hint = " (another writer held it too long)";
	return lg_errf(err, errlen, rc, "%s: %s: %s%s", h->path, what,
		       h->db ? sqlite3_errmsg(h->db) : "no database", hint);
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The file at path before SQLite opens it: absent (*exists false), empty, or an SQLite
 * database whose size agrees with its header. */
static int check_file_once(const char *path, bool *exists, char *err, size_t errlen)
{
	unsigned char hdr[HEADER_LEN];
	struct stat st;
	uint32_t page, pages;
	ssize_t got;
	int fd;

	*exists = false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		return lg_errf(err, errlen, -errno, "%s: %s", path, strerror(errno));
	}
	*exists = true;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return lg_errf(err, errlen, -EINVAL, "%s: not a regular file", path);
	}
	if (st.st_size == 0) {
		close(fd);
		return 0; /* nothing to lose: made into a history */
	}
	got = pread(fd, hdr, sizeof(hdr), 0);
	close(fd);
	if (got < (ssize_t)sizeof(hdr) || memcmp(hdr, "SQLite format 3", 16) != 0)
		return lg_errf(err, errlen, -EINVAL, "%s: not a loadgen history (not an SQLite "
			       "database%s); refused, the file is left as it is", path,
			       got < (ssize_t)sizeof(hdr) && got >= 0 ? ": shorter than a header" : "");
	page = (uint32_t)hdr[16] << 8 | hdr[17];
	if (page == 1)
		page = 65536;
	pages = be32(hdr + 28);
	if (page < 512 || (page & (page - 1)))
		return lg_errf(err, errlen, -EINVAL, "%s: corrupt SQLite header (page size %u); "
			       "refused, the file is left as it is", path, page);
	/* the page count in the header is valid when its version number matches the
	 * change counter (SQLite's file format, section 1.3.7) */
	if ((uint64_t)st.st_size % page != 0 ||
	    (be32(hdr + 92) == be32(hdr + 24) && (uint64_t)st.st_size < (uint64_t)pages * page))
		return lg_errf(err, errlen, -EINVAL, "%s: truncated: the header says %u pages of "
			       "%u bytes, the file has %lld bytes; refused, the file is left as it "
			       "is (restore it from a copy)", path, pages, page,
			       (long long)st.st_size);
	return 0;
}

/* Whether another connection may be writing path now: SQLite keeps PATH-wal while a
 * connection has a WAL database open and PATH-journal while a rollback-mode writer
 * writes. A half-made store or a checkpoint half done looks truncated for a moment. */
static bool writer_beside(const char *path)
{
	static const char *const sfx[] = { "-wal", "-journal" };
	char side[PATH_MAX];

	for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++)
		if (snprintf(side, sizeof(side), "%s%s", path, sfx[i]) < (int)sizeof(side) &&
		    access(side, F_OK) == 0)
			return true;
	return false;
}

/* check_file_once, looked at again for up to HIST_BUSY_MS while another connection may
 * be writing (the file is then refused only if it stays wrong): a file that is simply
 * cut short has no writer beside it and is refused at once. */
static int check_file(const char *path, bool *exists, char *err, size_t errlen)
{
	const struct timespec nap = { 0, 20 * 1000 * 1000 };
	int rc;

	for (long waited = 0;; waited += 20) {
		rc = check_file_once(path, exists, err, errlen);
		if (rc != -EINVAL || waited >= HIST_BUSY_MS || !writer_beside(path))
			return rc;
		nanosleep(&nap, NULL);
	}
}

/* PRAGMA journal_mode=WAL needs the database to itself and does not wait for it through
 * the busy handler: it fails at once (or leaves the mode as it was) while another
 * connection reads. So ask again, up to HIST_BUSY_MS. */
static int set_wal(sqlite3 *db)
{
	const struct timespec nap = { 0, 10 * 1000 * 1000 };
	int rc;

	for (long waited = 0;; waited += 10) {
		sqlite3_stmt *st;
		bool wal = false;

		rc = sqlite3_prepare_v2(db, "PRAGMA journal_mode=WAL", -1, &st, NULL);
		if (rc != SQLITE_OK)
			return rc;
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			const unsigned char *mode = sqlite3_column_text(st, 0);

			wal = mode && strcmp((const char *)mode, "wal") == 0;
			rc = SQLITE_OK;
		}
		sqlite3_finalize(st);
		if (wal)
			return SQLITE_OK;
		if ((rc != SQLITE_OK && rc != SQLITE_BUSY && rc != SQLITE_LOCKED) ||
		    waited >= HIST_BUSY_MS)
			return rc != SQLITE_OK ? rc : SQLITE_BUSY;
		nanosleep(&nap, NULL);
	}
}

/* One integer from a single-row query. */
static int query_int(sqlite3 *db, const char *sql, long long *out)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*out = sqlite3_column_int64(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

/* Make the schema unless another writer did (inside one IMMEDIATE transaction). */
static int make_schema(struct hist_db *h, char *err, size_t errlen)
{
	long long tables = 0, app = 0;
	char *msg = NULL;
	char pragmas[96];

	if (sqlite3_exec(h->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return hist_db_err(h, -EIO, err, errlen, "cannot lock it to make its tables");
	if (query_int(h->db, "PRAGMA application_id", &app) != SQLITE_OK ||
	    query_int(h->db, "SELECT count(*) FROM sqlite_master", &tables) != SQLITE_OK)
		goto fail;
	if (app == HIST_APP_ID && tables > 0)
		return sqlite3_exec(h->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 :
			hist_db_err(h, -EIO, err, errlen, "commit");
	if (tables > 0 || app != 0) {
		sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
		return lg_errf(err, errlen, -EINVAL, "%s: not a loadgen history (an SQLite "
			       "database of something else); refused, the file is left as it is",
			       h->path);
	}
	snprintf(pragmas, sizeof(pragmas), "PRAGMA application_id=%d; PRAGMA user_version=%d;",
		 HIST_APP_ID, HIST_USER_VERSION);
	if (sqlite3_exec(h->db, schema, NULL, NULL, &msg) != SQLITE_OK ||
	    sqlite3_exec(h->db, pragmas, NULL, NULL, &msg) != SQLITE_OK ||
	    sqlite3_exec(h->db, "COMMIT", NULL, NULL, &msg) != SQLITE_OK)
		goto fail;
	return 0;
fail:
	sqlite3_free(msg);
	hist_db_err(h, -EIO, err, errlen, "cannot make its tables");
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
	return -EIO;
}

int hist_db_open(const char *path, bool create, struct hist_db *out, char *err, size_t errlen)
{
	long long app = 0, tables = 0, version = 0;
	bool exists;
	int flags = SQLITE_OPEN_READWRITE, rc;

	out->db = NULL;
	out->path = path;
	rc = check_file(path, &exists, err, errlen);
	if (rc)
		return rc;
	if (!exists && !create)
		return lg_errf(err, errlen, -ENOENT, "%s: no history there yet (loadgen history "
			       "add stores results)", path);
	if (!exists) {
		rc = lg_path_make_parents(path);
		if (rc)
			return lg_errf(err, errlen, rc, "%s: cannot make its directory: %s", path,
				       strerror(-rc));
		flags |= SQLITE_OPEN_CREATE;
	}
	if (!create)
		flags = SQLITE_OPEN_READONLY;
	if (sqlite3_open_v2(path, &out->db, flags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		rc = hist_db_err(out, -EIO, err, errlen, "cannot open");
		goto fail;
	}
	sqlite3_busy_timeout(out->db, HIST_BUSY_MS);
	sqlite3_extended_result_codes(out->db, 0);
	/* read before writing: a database of something else is never touched. The three
	 * figures come from one read transaction: read one by one, another writer making
	 * the tables in between would show tables without loadgen's application_id. */
	if (sqlite3_exec(out->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
	    query_int(out->db, "PRAGMA application_id", &app) != SQLITE_OK ||
	    query_int(out->db, "SELECT count(*) FROM sqlite_master", &tables) != SQLITE_OK ||
	    query_int(out->db, "PRAGMA user_version", &version) != SQLITE_OK ||
	    sqlite3_exec(out->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		rc = hist_db_err(out, -EINVAL, err, errlen, "cannot read it (refused)");
		goto fail;
	}
	if ((tables > 0 || app != 0) && app != HIST_APP_ID) {
		rc = lg_errf(err, errlen, -EINVAL, "%s: not a loadgen history (an SQLite database"
			     " of something else); refused, the file is left as it is", path);
		goto fail;
	}
	if (app == HIST_APP_ID && version > HIST_USER_VERSION) {
		rc = lg_errf(err, errlen, -EINVAL, "%s: a history of a newer loadgen (schema %lld,"
			     " this one reads %d)", path, version, HIST_USER_VERSION);
		goto fail;
	}
	if (app != HIST_APP_ID) {
		if (!create) {
			rc = lg_errf(err, errlen, -ENOENT, "%s: an empty history", path);
			goto fail;
		}
		rc = make_schema(out, err, errlen);
		if (rc)
			goto fail;
	}
	if (create && (set_wal(out->db) != SQLITE_OK ||
		       sqlite3_exec(out->db, "PRAGMA foreign_keys=ON", NULL, NULL, NULL) !=
		       SQLITE_OK)) {
		rc = hist_db_err(out, -EIO, err, errlen, "cannot set it up");
		goto fail;
	}
	return 0;
fail:
	sqlite3_close(out->db);
	out->db = NULL;
	return rc;
}

void hist_db_close(struct hist_db *h)
{
	if (!h)
		return;
	sqlite3_close(h->db);
	h->db = NULL;
}

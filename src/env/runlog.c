/* --log: writing and reading the JSON-lines log (see loadgen/runlog.h). */
#include "loadgen/env/runlog.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* How every log begins: the header line with the type and the schema first. */
#define LOG_START "{\"type\":\"header\",\"schema\":\"" LG_LOG_SCHEMA "\""

struct lg_runlog {
	int fd;                /* the log file */
	int error;             /* first write/sync error (positive errno), or 0 */
	unsigned runs;         /* runs begun */
	pthread_t syncer;      /* thread doing the fdatasyncs */
	pthread_mutex_t lock;  /* guards want_sync and stop */
	pthread_cond_t cond;   /* signals the syncer */
	bool want_sync;        /* an fdatasync was asked for */
	bool stop;             /* the syncer is to sync once more and exit */
};

static void *syncer_main(void *arg)
{
	struct lg_runlog *log = arg;

	pthread_mutex_lock(&log->lock);
	for (;;) {
		while (!log->want_sync && !log->stop)
			pthread_cond_wait(&log->cond, &log->lock);
		if (log->stop && !log->want_sync)
			break;
		log->want_sync = false;
		pthread_mutex_unlock(&log->lock);
		int rc = fdatasync(log->fd) ? errno : 0;
		pthread_mutex_lock(&log->lock);
		if (rc && !log->error)
			log->error = rc;
	}
	pthread_mutex_unlock(&log->lock);
	return NULL;
}

int lg_runlog_open(const char *path, struct lg_runlog **out, char *err, size_t errlen)
{
	struct lg_runlog *log = calloc(1, sizeof(*log));
	int rc;

	*out = NULL;
	if (!log) {
		snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		return -ENOMEM;
	}
	log->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (log->fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(log);
		return rc;
	}
	pthread_mutex_init(&log->lock, NULL);
	pthread_cond_init(&log->cond, NULL);
	rc = -pthread_create(&log->syncer, NULL, syncer_main, log);
	if (rc) {
		snprintf(err, errlen, "%s: cannot start its sync thread: %s", path, strerror(-rc));
		close(log->fd);
		free(log);
		return rc;
	}
	*out = log;
	return 0;
}

/* The line of obj: {"type": type, then obj's keys in their order}, with its newline. */
static char *line_of(const char *type, json_t *obj, size_t *len)
{
	json_t *o = json_pack("{s:s}", "type", type);
	char *line = NULL;

	if (o && obj && json_object_update(o, obj) == 0)
		line = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(o);
	if (line)
		*len = strlen(line);
	return line;
}

int lg_runlog_put(struct lg_runlog *log, const char *type, json_t *obj)
{
	size_t len = 0, off = 0;
	char *line = line_of(type, obj, &len);
	int rc = line ? 0 : -ENOMEM;

	json_decref(obj);
	if (line)
		line[len++] = '\n'; /* json_dumps' NUL becomes the newline: one write, whole */
	while (!rc && off < len) {
		ssize_t n = write(log->fd, line + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			rc = n < 0 ? -errno : -EIO;
		else
			off += (size_t)n;
	}
	free(line);
	pthread_mutex_lock(&log->lock);
	if (rc && !log->error)
		log->error = -rc;
	pthread_mutex_unlock(&log->lock);
	return rc;
}

void lg_runlog_sync(struct lg_runlog *log)
{
	pthread_mutex_lock(&log->lock);
	log->want_sync = true;
	pthread_cond_signal(&log->cond);
	pthread_mutex_unlock(&log->lock);
}

unsigned lg_runlog_next_run(struct lg_runlog *log)
{
	return log->runs++;
}

int lg_runlog_close(struct lg_runlog *log)
{
	int rc;

	if (!log)
		return 0;
	pthread_mutex_lock(&log->lock);
	log->want_sync = true;
	log->stop = true;
	pthread_cond_signal(&log->cond);
	pthread_mutex_unlock(&log->lock);
	pthread_join(log->syncer, NULL);
	if (close(log->fd) && !log->error)
		log->error = errno;
	rc = -log->error;
	pthread_mutex_destroy(&log->lock);
	pthread_cond_destroy(&log->cond);
	free(log);
	return rc;
}

/* --- reading --- */

bool lg_runlog_is_log(FILE *f)
{
	char head[256];
	size_t n = fread(head, 1, sizeof(head) - 1, f);

	rewind(f);
	head[n] = '\0';
	return strncmp(head, LOG_START, strlen(LOG_START)) == 0;
}

static void count_line(json_t *o, struct lg_runlog_info *info, json_t **result)
{
	const char *type = json_string_value(json_object_get(o, "type"));

	info->lines++;
	if (!type)
		return;
	if (strcmp(type, "interval") == 0) {
		unsigned run = (unsigned)json_integer_value(json_object_get(o, "run"));

		info->intervals++;
		info->last_t_s = json_number_value(json_object_get(o, "t_s"));
		if (run + 1 > info->runs)
			info->runs = run + 1;
	} else if (strcmp(type, "kmsg") == 0) {
		info->kmsgs++;
	} else if (strcmp(type, "result") == 0 && json_is_object(json_object_get(o, "result"))) {
		json_decref(*result);
		*result = json_incref(json_object_get(o, "result"));
	}
}

int lg_runlog_read(const char *path, json_t **result, struct lg_runlog_info *info,
		   json_t **lines, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t n;
	int rc = 0;

	*result = NULL;
	memset(info, 0, sizeof(*info));
	if (lines && !(*lines = json_array())) {
		if (f)
			fclose(f);
		snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
		return -ENOMEM;
	}
	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	while ((n = getline(&line, &cap, f)) > 0) {
		json_error_t je;
		json_t *o;
		int c = fgetc(f);
		bool last = c == EOF;

		if (c != EOF)
			ungetc(c, f);
		lineno++;
		o = json_loads(line, 0, &je);
		if (!o && last) {
			/* cut short by the crash: what came before stands */
			info->torn_tail = true;
			info->torn_line = lineno;
			info->torn_bytes = (size_t)n;
			break;
		}
		if (!o || !json_is_object(o)) {
			snprintf(err, errlen, "%s:%zu:%d: %s", path, lineno, je.column > 0 ? je.column : 1,
				 o ? "not a JSON object" : je.text);
			json_decref(o);
			rc = -EINVAL;
			break;
		}
		count_line(o, info, result);
		/* line k of the file is element k - 1: every line before it parsed */
		if (lines && json_array_append_new(*lines, o)) {
			snprintf(err, errlen, "%s: %s", path, strerror(ENOMEM));
			rc = -ENOMEM;
			break;
		}
		if (!lines)
			json_decref(o);
	}
	free(line);
	fclose(f);
out:
	info->complete = !rc && *result && !info->torn_tail;
	if (rc) {
		json_decref(*result);
		*result = NULL;
		if (lines) {
			json_decref(*lines);
			*lines = NULL;
		}
	}
	return rc;
}

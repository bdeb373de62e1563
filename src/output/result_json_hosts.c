/* The multi-host keys of the result file (still loadgen-result/1: only new keys):
 * config.ranks, config.hosts, config.clients_total, and per run hosts[] (with each
 * host's sys_summary and kernel_messages),
 * start_skew_ms and each client's host and rank. */
#include "loadgen/output/hosts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "loadgen/counters/client_dist.h"
#include "loadgen/counters/ranks.h"

#define I(x) ((json_int_t)(x))

static double fin(double x)
{
	return isfinite(x) ? x : 0.0;
}

static json_t *latency_json(const struct lg_client_row *r)
{
	return json_pack("{s:I, s:I, s:f, s:I, s:I, s:I, s:I}",
			 "count", I(r->ops),
			 "min", I(r->min_ns),
			 "mean", fin(r->mean_ns),
			 "p50", I(r->p50_ns),
			 "p99", I(r->p99_ns),
			 "p999", I(r->p999_ns),
			 "max", I(r->max_ns));
}

static json_t *hosts_json(const struct lg_run *run)
{
	const struct lg_multi *m = run->multi;
	struct lg_host_sum *s;
	json_t *a;

	if (lg_host_sums(run, &s))
		return NULL;
	a = json_array();
	for (unsigned i = 0; a && i < m->nhosts; i++) {
		const struct lg_host_info *h = &m->hosts[i];
		json_t *o = json_pack("{s:s, s:I, s:I, s:O?, s:b, s:I, s:I, s:f, s:f, s:f, s:f, s:o}",
				      "host", h->name, "ranks", I(h->ranks),
				      "clients", I(s[i].clients), "env", h->env,
				      "shared_directory", h->shared, "bytes", I(s[i].bytes),
				      "ops", I(s[i].ops), "throughput_mbps", fin(s[i].mbps),
				      "ops_per_s", fin(s[i].ops_s),
				      "first_client_done_s", fin(s[i].first_done_s),
				      "last_client_done_s", fin(s[i].last_done_s), "latency_ns",
				      latency_json(&s[i].lat));

		/* its own monitor's figures (mpi_hosts.c): sys_summary, kernel_messages */
		if (o && h->mon && json_object_update(o, h->mon)) {
			json_decref(o);
			o = NULL;
		}
		if (json_array_append_new(a, o)) {
			json_decref(a);
			a = NULL;
		}
	}
	free(s);
	return a;
}

/* host and rank of each client object, by its id */
static int tag_clients(json_t *clients, const struct lg_multi *m)
{
	size_t i;
	json_t *c;

	json_array_foreach(clients, i, c) {
		json_int_t id = json_integer_value(json_object_get(c, "id"));
		unsigned r = (unsigned)(id / m->per_rank);

		if (r >= m->nranks)
			continue;
		if (json_object_set_new(c, "host", json_string(m->ranks[r].host)) ||
		    json_object_set_new(c, "rank", json_integer(r)))
			return -ENOMEM;
	}
	return 0;
}

/* Which clients clients[] lists: every one ("all", with its histograms; "rows",
 * without), or only those with something to report ("noted": the others are in
 * client_distribution). */
static const char *client_rows(const struct lg_run *run)
{
	if (run->dist)
		return "noted";
	return run->per_client == LG_PER_CLIENT_ALL ? "all" : "rows";
}

/* What the end of the run cost rank 0 (tests/bench/mpi_merge.py compares the methods). */
static json_t *merge_json(const struct lg_multi *m)
{
	return json_pack("{s:s, s:f, s:f, s:I}", "method", m->gathered ? "gather" : "reduce",
			 "seconds", fin(m->merge_s), "end_to_merged_s", fin(m->end_to_merged_s),
			 "rank0_max_rss_kib", I(m->max_rss_kib));
}

int lg_result_json_hosts(json_t *doc, const struct lg_run *runs, size_t n)
{
	json_t *config = json_object_get(doc, "config"), *ra = json_object_get(doc, "runs");
	const struct lg_multi *m = NULL;

	for (size_t i = 0; i < n && !m; i++)
		m = runs[i].multi;
	if (!m)
		return 0;
	if (json_object_set_new(config, "ranks", json_integer(m->nranks)) ||
	    json_object_set_new(config, "hosts", json_integer(m->nhosts)) ||
	    json_object_set_new(config, "clients_total",
				json_integer((json_int_t)m->nranks * m->per_rank)))
		return -ENOMEM;
	for (size_t i = 0; i < n && i < json_array_size(ra); i++) {
		json_t *r = json_array_get(ra, i), *h;

		if (!runs[i].multi)
			continue;
		h = hosts_json(&runs[i]);
		if (!h || json_object_set_new(r, "hosts", h) ||
		    json_object_set_new(r, "start_skew_ms", json_real(runs[i].multi->start_skew_ms)) ||
		    json_object_set_new(r, "start_skew_clock_error_ms",
					json_real(runs[i].multi->clock_error_ms)) ||
		    tag_clients(json_object_get(r, "clients"), runs[i].multi) ||
		    json_object_set_new(r, "client_rows", json_string(client_rows(&runs[i]))) ||
		    json_object_set_new(r, "ranks_merge", merge_json(runs[i].multi)) ||
		    (runs[i].dist &&
		     json_object_set_new(r, "client_distribution",
					 lg_client_dist_json(runs[i].dist, runs[i].duration_s))))
			return -ENOMEM;
	}
	return 0;
}

/* The per-host table of a multi-host run, its fairness across hosts and the warning
 * when hosts differ where it matters (kernel, filesystem type, mount options). */
#include "loadgen/output/hosts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen/counters/client_dist.h"
#include "loadgen/counters/ranks.h"

/* The host rows the ranks reduced (m->rows). */
static void sums_of_rows(const struct lg_multi *m, struct lg_host_sum *s)
{
	for (unsigned i = 0; i < m->nhosts; i++) {
		const struct lg_host_row *r = &m->rows[i];

		s[i].clients = r->clients;
		s[i].ops = r->row.ops;
		s[i].bytes = r->row.bytes;
		s[i].first_done_s = r->first_done_s;
		s[i].last_done_s = r->last_done_s;
		s[i].lat = r->row;
	}
}

/* The same from the clients' stats, each client's host from its id. */
static int sums_of_clients(const struct lg_run *run, struct lg_host_sum *s)
{
	const struct lg_multi *m = run->multi;
	struct lg_histogram *h = malloc(m->nhosts * sizeof(*h)), *one = malloc(sizeof(*one));

	if (!h || !one) {
		free(h);
		free(one);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < m->nhosts; i++)
		lg_histogram_init(&h[i]);
	for (unsigned c = 0; c < run->nclients; c++) {
		const struct lg_client_stats *cs = run->clients[c];
		unsigned r = cs ? cs->id / m->per_rank : m->nranks;
		struct lg_host_sum *hs;
		uint64_t ops, bytes;

		if (r >= m->nranks)
			continue;
		hs = &s[m->ranks[r].host_index];
		lg_client_stats_sum(cs, one, &ops, &bytes);
		lg_histogram_add(&h[m->ranks[r].host_index], one);
		if (!hs->clients || cs->done_s < hs->first_done_s)
			hs->first_done_s = cs->done_s;
		if (cs->done_s > hs->last_done_s)
			hs->last_done_s = cs->done_s;
		hs->clients++;
		hs->ops += ops;
		hs->bytes += bytes;
	}
	for (unsigned i = 0; i < m->nhosts; i++) {
		s[i].lat.ops = s[i].ops;
		s[i].lat.bytes = s[i].bytes;
		lg_client_row_latency(&s[i].lat, &h[i]);
	}
	free(h);
	free(one);
	return 0;
}

int lg_host_sums(const struct lg_run *run, struct lg_host_sum **out)
{
	const struct lg_multi *m = run->multi;
	struct lg_host_sum *s;

	*out = NULL;
	if (!m || !m->nhosts || !m->per_rank)
		return -ENOENT;
	s = calloc(m->nhosts, sizeof(*s));
	if (!s)
		return -ENOMEM;
	if (m->rows) {
		sums_of_rows(m, s);
	} else if (sums_of_clients(run, s)) {
		free(s);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < m->nhosts; i++) {
		s[i].mbps = run->duration_s > 0 ? (double)s[i].bytes / run->duration_s / 1e6 : 0;
		s[i].ops_s = run->duration_s > 0 ? (double)s[i].ops / run->duration_s : 0;
	}
	*out = s;
	return 0;
}

/* Jain's index over the hosts' throughput per client (hosts may run different numbers
 * of clients), on MB/s, or ops/s when no bytes moved. */
static double host_jain(const struct lg_host_sum *s, unsigned n, bool mb)
{
	double sum = 0, sq = 0;

	for (unsigned i = 0; i < n; i++) {
		double x = s[i].clients ? (mb ? s[i].mbps : s[i].ops_s) / s[i].clients : 0;

		sum += x;
		sq += x * x;
	}
	return sq > 0 ? sum * sum / (n * sq) : 1;
}

static const char *env_str(const json_t *env, const char *key)
{
	const char *v = json_string_value(json_object_get(env, key));

	return v ? v : "?";
}

/* Warn about each of kernel, filesystem type and mount options that is not the same
 * on every host. */
static void warn_env(FILE *out, const struct lg_multi *m)
{
	static const char *const keys[] = { "kernel", "fs_type", "mount_options" };

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		const char *first = env_str(m->hosts[0].env, keys[k]);
		bool differ = false;

		for (unsigned h = 1; h < m->nhosts; h++)
			differ |= strcmp(first, env_str(m->hosts[h].env, keys[k])) != 0;
		if (!differ)
			continue;
		fprintf(out, "Warning: hosts differ in %s:", keys[k]);
		for (unsigned h = 0; h < m->nhosts; h++)
			fprintf(out, "%s %s: %s", h ? ";" : "", m->hosts[h].name,
				env_str(m->hosts[h].env, keys[k]));
		fprintf(out, "\n");
	}
}

/* The clients as a distribution, when the result lists only those with notes. */
static void print_dist(FILE *out, const struct lg_run *run, bool mb)
{
	const struct lg_client_figure *f = mb ? &run->dist->bytes : &run->dist->ops;
	double k = (run->duration_s > 0 ? run->duration_s : 1) * (mb ? 1e6 : 1);
	unsigned listed = 0;

	for (unsigned c = 0; run->clients && c < run->nclients; c++)
		listed += run->clients[c] != NULL;
	if (!f->hist.count)
		return;
	fprintf(out, "Clients: %llu, listed only with notes (%u); per-client %s min %.2f "
		"(client %u)  p10 %.2f  p50 %.2f  p90 %.2f  max %.2f (client %u)\n",
		(unsigned long long)run->dist->clients, listed, mb ? "MB/sec" : "ops/sec",
		(double)f->hist.min_ns / k, f->min_client,
		(double)lg_histogram_percentile(&f->hist, 10) / k,
		(double)lg_histogram_percentile(&f->hist, 50) / k,
		(double)lg_histogram_percentile(&f->hist, 90) / k, (double)f->hist.max_ns / k,
		f->max_client);
}

/* The hosts whose system counters stand out (each host's own monitor). */
static void standout(FILE *out, const struct lg_multi *m)
{
	const char **names = calloc(m->nhosts, sizeof(*names));
	const json_t **sums = calloc(m->nhosts, sizeof(*sums));

	for (unsigned h = 0; names && sums && h < m->nhosts; h++) {
		names[h] = m->hosts[h].name;
		sums[h] = json_object_get(m->hosts[h].mon, "sys_summary");
	}
	if (names && sums)
		lg_hosts_standout(out, names, sums, m->nhosts);
	free(names);
	free(sums);
}

void lg_report_hosts(FILE *out, const struct lg_run *run, bool once)
{
	const struct lg_multi *m = run->multi;
	struct lg_host_sum *s;
	bool mb = run->bytes_read + run->bytes_written > 0;

	if (lg_host_sums(run, &s))
		return;
	fprintf(out, "\nHosts: %u  ranks: %u  clients per rank: %u  start skew %.3f ms "
		"(clocks +- %.3f ms)\n", m->nhosts, m->nranks, m->per_rank, m->start_skew_ms,
		m->clock_error_ms);
	fprintf(out, " %-24s %5s %7s %10s %10s %10s %10s  %-7s%s\n", "host", "ranks",
		"clients", "MB/sec", "ops/sec", "p99 ms", "max ms", "run dir",
		once ? "  first done  last done" : "");
	for (unsigned i = 0; i < m->nhosts; i++) {
		fprintf(out, " %-24s %5u %7u %10.2f %10.1f %10.3f %10.3f  %-7s", m->hosts[i].name,
			m->hosts[i].ranks, s[i].clients, s[i].mbps, s[i].ops_s,
			(double)s[i].lat.p99_ns / 1e6, (double)s[i].lat.max_ns / 1e6, m->hosts[i].shared ? "shared" : "own");
		if (once)
			fprintf(out, "  %8.3f s  %7.3f s", s[i].first_done_s, s[i].last_done_s);
		fprintf(out, "\n");
	}
	if (m->nhosts > 1)
		fprintf(out, "Fairness: per-host %s per client, Jain's index %.3f\n",
			mb ? "MB/sec" : "ops/sec", host_jain(s, m->nhosts, mb));
	if (run->dist)
		print_dist(out, run, mb);
	warn_env(out, m);
	standout(out, m);
	free(s);
}

void lg_report_lost_ranks(FILE *out, const struct lg_run *run)
{
	double secs = run->duration_s;

	for (size_t i = 0; i < run->nlost_ranks; i++) {
		const struct lg_lost_rank *l = &run->lost_ranks[i];

		if (l->time_s >= 0)
			fprintf(out, "Partial: rank %u (host %s) was lost after %.1f s of the "
				"measured phase (the last interval every rank counted)\n", l->rank,
				l->host, l->time_s);
		else
			fprintf(out, "Partial: rank %u (host %s) was lost before the measured "
				"phase had an interval\n", l->rank, l->host);
	}
	if (!run->nlost_ranks)
		return;
	if (secs > 0)
		fprintf(out, "Throughput (per-interval counters, %.1f s): %.2f MB/s, %.1f ops/s, "
			"slowest op %.3f ms\n", secs,
			(double)(run->bytes_read + run->bytes_written) / 1e6 / secs,
			(double)run->ops / secs, (double)run->all.max_ns / 1e6);
	fprintf(out, "Missing: latency percentiles and histograms, per-op-type and "
		"per-client rows, error counts, per-host figures and system counters (the "
		"lost rank's clients never sent them)\n");
}

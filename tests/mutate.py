#!/usr/bin/env python3
"""Plant small, plausible bugs one at a time and see which ones the test suite misses.

    tests/mutate.py [--only ID,...] [--list] [--full] [--keep] [-j N]

The source tree (the working tree, uncommitted edits included) is copied once to a
temporary directory and built there. Then for each mutant below: its one-line edit is
applied to the copy, the copy is rebuilt (only what changed), the mutant's tests run
(`ctest -R REGEX`; with --full, the whole suite but the benchmark), and the edit is
undone. A mutant is "killed" when a test fails, "SURVIVED" when every test passes:
a gap in the suite, or an edit that changes nothing observable (say which, and why,
before adding a test). "stale" means its text is no longer in the file: update it.

Each mutant is (id, file, text, replacement, test regex). Keep them small and
plausible: an off-by-one, a wrong operand, a check dropped, a unit confused. The exit
status is 0 when every mutant was killed, 1 otherwise. Takes a few minutes (2 cores)."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MUTANTS = [
    # --- offsets (ops.c) ---
    ("prev-ignored", "src/run/ops.c",
     "} else if (!io_offset(c, op, call, &off)) {",
     "} else if (!io_offset(c, op, call, &off) && 0) {", "unit_ops"),
    ("seq-by-size-asked", "src/run/ops.c",
     "s->pos = off + (uint64_t)n;", "s->pos = off + op->size;",
     "unit_ops|unit_client"),
    ("random-off-by-one", "src/run/ops.c",
     "(op->range - op->size) / op->align + 1", "(op->range - op->size) / op->align + 2",
     "unit_ops"),
    ("fixed-count-ignored", "src/run/ops.c",
     "*off = op->offset + call * op->size;", "*off = op->offset;", "unit_ops"),
    # --- the client loop (client.c) ---
    ("latency-from-actual-start", "src/run/client.c",
     "end - (intended < start ? intended : start)", "end - start",
     "unit_client|integration_test_rate_accuracy"),
    ("pacing-half-interval", "src/run/client.c",
     ": (double)bytes / c->sh->rate);", ": (double)bytes / c->sh->rate / 2);",
     "unit_client|integration_test_rate_accuracy"),
    ("pacing-by-size-asked", "src/run/client.c",
     ": (double)bytes / c->sh->rate);", ": (double)op->size / c->sh->rate);",
     "unit_client|integration_test_rate_accuracy|integration_test_modes"),
    ("deadline-ignored", "src/run/client.c",
     "(phase == LG_CLOCK_EXECUTE && c->now_ns >=", "(phase == LG_CLOCK_EXECUTE && 0 && c->now_ns >=",
     "unit_client|unit_engine|integration_test_timed"),
    ("loop-one-more", "src/run/client.c",
     "c->loops[op->slot] = op->count;", "c->loops[op->slot] = op->count + 1;",
     "unit_client|unit_yaml_steps|integration_test_repeat|integration_test_run_once"),
    ("choose-boundary", "src/run/client.c",
     "while (r >= alt->cum_weight)", "while (r > alt->cum_weight)",
     "unit_client|integration_test_repeat"),
    ("pick-seq-stuck", "src/run/client.c",
     "return (c->vars[op->var] + 1) % op->count;", "return c->vars[op->var] % op->count;",
     "unit_client|integration_test_pick"),
    ("expect-success-always-ok", "src/run/client.c",
     "if (op->expect != LG_EXPECT_ANY && got != op->expect)",
     "if (op->expect != LG_EXPECT_ANY && got != op->expect && got != 0)",
     "unit_client|integration_test_errors"),
    ("read-bytes-as-written", "src/run/client.c",
     "*(rd ? &t->bytes_read : &t->bytes_written) += bytes;",
     "*(rd ? &t->bytes_written : &t->bytes_read) += bytes;",
     "unit_client|integration_test_run_once_exact"),
    # --- compare's statistics ---
    ("threshold-2-alpha", "src/compare/compare_eval.c",
     "if (!(m->welch.p < opts->alpha)) {", "if (!(m->welch.p < 2 * opts->alpha)) {",
     "unit_compare|integration_test_compare"),
    ("one-sided-p", "src/inference/welch.c",
     "w.p = lg_stat_t_two_sided(w.t, w.df);", "w.p = lg_stat_t_two_sided(w.t, w.df) / 2;",
     "unit_statistics|unit_compare|integration_test_compare"),
    ("compare-sys-keys-first-run", "src/compare/compare_sys.c",
     "!rc && j < nruns(f, g); j++) {",
     "!rc && j < nruns(f, g); j = summary_of(f, g, j) ? nruns(f, g) : j + 1) {",
     "unit_compare_sys"),
    ("compare-sys-keys-base-only", "src/compare/compare_sys.c",
     "\t\tif (!rc)\n\t\t\trc = add_keys(&rs, other, og, groups[g]);\n", "", "unit_compare_sys"),
    ("compare-sys-gauges-without-seconds", "src/compare/compare_sys.c",
     "const json_t *s = summary_of(f, g, j, host);\n\t\tconst json_t *v",
     "const json_t *s = group[0] == 'g' ? json_object_get(json_array_get(f->runs,"
     " g ? g->runs[j] : j), \"sys_summary\") : summary_of(f, g, j, host);\n"
     "\t\tconst json_t *v",
     "unit_compare_sys"),
    # --- --verify ---
    ("holes-verified", "src/run/verify.c",
     "cs->verified_bytes += r->checked * UNIT;",
     "cs->verified_bytes += (r->checked + r->zero) * UNIT;",
     "unit_verify|integration_test_verify"),
    # --- loading ---
    ("loadfile-dir-not-checked", "src/load/loadfile.c",
     "else if (S_ISDIR(st.st_mode))", "else if (0 && S_ISDIR(st.st_mode))",
     "unit_loadfile|integration_test_loadfile_errors"),
    ("dbench-quotes-kept", "src/load/dbench/dbench_parse.c",
     "quoted = !quoted;", "quoted = !quoted, *o++ = *p;",
     "unit_dbench|integration_test_dbench"),
    ("dbench-closed-handle-ok", "src/load/dbench/dbench_args.c",
     "if (*slot >= c->nopen || !c->open[*slot])", "if (*slot >= c->nopen)",
     "unit_dbench|unit_hostile"),
    ("dbench-number-overflow", "src/load/dbench/dbench_parse.c",
     "if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, d, &v))",
     "if ((v = v * 10 + d, 0))", "unit_dbench|unit_hostile"),
    ("dbench-split-quote-unseen", "src/load/dbench/dbench_parse.c",
     "_mm_set1_epi8(0x22)", "_mm_set1_epi8(0x21)", "unit_dbench_parse"),
    ("dbench-split-word-limit", "src/load/dbench/dbench_parse.c",
     "ONES * (0x80 - 0x23)", "ONES * (0x80 - 0x22)", "unit_dbench_parse_portable"),
    ("dbench-split-quote-ends-anywhere", "src/load/dbench/dbench_parse.c",
     "if (!ends_field(d + 1, end))", "if (0 && !ends_field(d + 1, end))",
     "unit_dbench_parse"),
    ("dbench-split-unclosed-quote-dropped", "src/load/dbench/dbench_parse.c",
     "return (d > start || quoted) &&", "return (d > start) &&", "unit_dbench_parse"),
    ("dbench-number-inline-20-digits", "src/load/dbench/dbench_parse.h",
     "if (len - 1 >= 19 ||", "if (len - 1 >= 20 ||", "unit_dbench"),
    ("dbench-made-dir-status-kept", "src/load/dbench/dbench_load.c",
     "if (op->expect == ENOENT && op->kind != LG_OP_FIND",
     "if (0 && op->expect == ENOENT && op->kind != LG_OP_FIND", "unit_dbench_load"),
    ("dbench-made-dir-opener-kept", "src/load/dbench/dbench_load.c",
     "		c->made[op->path] = 1;\n	}\n	if (op->expect == ENOENT",
     "		c->made[op->path] = 1;\n	} else if (op->expect == ENOENT", "unit_dbench_load"),
    ("compare-sys-one-sided-unnamed", "src/compare/compare_sys.c",
     "if (n > LG_CMP_SYS_ROWS)", "if (0 && n > LG_CMP_SYS_ROWS)", "unit_compare_sys"),
    ("direct-skipped-with-direct-opens", "src/load/direct.c",
     "if (all || any_direct(use, wl->nslots))", "if (all)", "unit_direct"),
    # --- run set-up ---
    ("rlimit-per-thread-not-counted", "src/run/rlimits.c",
     "per * cfg->clients", "per", "unit_rlimits"),
    ("fairness-formula", "src/counters/counters.c",
     "sum * sum / ((double)n * sq)", "sum / ((double)n * sq)",
     "unit_result_summary|unit_result_json|integration_test_timed"),
    ("result-summary-nomem-dropped", "src/output/result_json.c",
     "if (doc && ((nruns && !summary) || add_sweep_keys(", "if (doc && ((0 && !summary) || add_sweep_keys(",
     "unit_result_json"),
    ("lock-waits", "src/run/ops_dbench.c",
     "F_OFD_SETLK, &fl)", "F_OFD_SETLKW, &fl)", "unit_ops"),
    ("direct-col-first-on-line", "src/load/direct.c",
     "key_col(text, len, op->line, lg_workload_col(wl, x.ph, x.i), x.key)",
     "key_col(text, len, op->line, 0, x.key)", "unit_direct"),
    ("direct-any-open-counts", "src/load/direct.c",
     "(all || (u == USE_DIRECT))", "(all || (u & USE_DIRECT))", "unit_direct"),
    ("direct-reopen-keeps-old", "src/load/direct.c",
     "st = (uint8_t)((f->all", "st = (uint8_t)(st | (f->all",
     "unit_direct"),
    ("direct-append-unchecked", "src/load/direct.c",
     "(is_append(op) && (st & MAY_ENDS) == MAY_ODD_END &&",
     "(0 && (st & MAY_ENDS) == MAY_ODD_END &&", "unit_direct"),
    ("direct-failed-append-moves-end", "src/load/direct.c",
     "return (st & MAY_ENDS) | (st & MAY_BUFFERED ? MAY_END : 0);", "return MAY_END;",
     "unit_direct"),
    ("direct-no-file-probe", "src/load/direct.c",
     "fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);", "fd = -1;", "unit_direct"),
    ("dirscan-follows-links", "src/run/dirscan.c",
     "O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC", "O_DIRECTORY | O_CLOEXEC", "unit_dirscan"),
    ("errf-past-prefix", "src/model/errf.c",
     "vsnprintf(err + off, len - off, fmt, ap);", "vsnprintf(err + off, len, fmt, ap);",
     "unit_errf"),
    # --- messages and multi-host stderr ---
    ("cli-blames-word-before", "src/model/cli.c",
     "arg[2] && !inside_short_word(argv))", "arg[2])", "unit_cli"),
    ("show-dashdash-is-option", "src/app/show.c",
     "if (options && !strcmp(argv[i], \"--\")) {", "if (0) {", "unit_show"),
    ("show-part-of-value-is-duration", "src/load/yaml/yaml_scalar.c",
     "if (n->text[2 + len] != '}' || n->text[3 + len] != '\\0')",
     "if (n->text[2 + len] != '}')", "unit_show"),
    # --- the engine ---
    ("p99-from-stale-window", "src/run/engine_watch.c",
     "if (atomic_load_explicit(&w->epoch, memory_order_relaxed) == (unsigned)k)", "if (1)",
     "unit_engine"),
    ("abort-in-warmup-interrupted", "src/run/engine.c",
     "if (interrupted)\n\t\treturn LG_RUN_INTERRUPTED;",
     "if (interrupted || !e->t_exec)\n\t\treturn LG_RUN_INTERRUPTED;", "unit_engine"),
    ("late-ticks-taken", "src/run/engine_watch.c",
     "next = lg_engine_next_tick(next, lg_now_ns(), e->interval_ns);",
     "next += e->interval_ns;", "unit_engine"),
    ("late-tick-too-near", "src/run/engine_watch.c",
     "uint64_t soonest = now + interval_ns / 2;", "uint64_t soonest = now + 1;",
     "unit_engine"),
    ("setup-ignores-interrupt", "src/run/client.c",
     "memory_order_relaxed) ||\n\t       atomic_load_explicit(&c->sh->phase, memory_order_relaxed) == LG_CLOCK_STOP;",
     "memory_order_relaxed);", "unit_engine"),
    # --- many hosts ---
    ("runs-stop-on-own-signal", "src/app/runs.c",
     "while (!runs_interrupted(cfg)) {", "while (!lg_engine_interrupted()) {",
     "integration_test_mpi"),
    ("cleanup-left-own-rank", "src/run/engine.c",
     "if (lg_coord_sum(co, v, 2) || v[1] || cfg->keep)", "if (v[1] || cfg->keep)",
     "integration_test_mpi"),
    ("kmsg-measured-when-read", "src/env/monitor.c",
     "bool measured = m->t0_ns && e->t_ns >= m->t0_ns;",
     "bool measured = m->t0_ns != 0;", "unit_monitor"),
    # --- the build (cmake/gitdesc.cmake) ---
    ("git-describe-once", "cmake/gitdesc.cmake",
     'if(NOT old STREQUAL text)', 'if(NOT EXISTS "${OUTPUT}")', "integration_test_gitdesc"),
    ("summary-counts-placeholders", "src/env/monitor.c",
     "n += json_is_object(sys);", "n++;", "unit_monitor"),
    # --- the report page (web/report.js, web/report_series.js) ---
    ("report-mean-by-entry", "web/report_series.js",
     "var k = Math.round(t / step), b = bins[k]", "var k = i, b = bins[k]",
     "integration_test_report_html$"),
    ("report-latency-across-counts", "src/compare/html/report_html_data.c",
     "for (size_t i = 0; rc == 0 && i < g->n; i++) {",
     "for (size_t i = 0; rc == 0 && i < b->f->nruns + 0 * g->n; i++) {",
     "unit_report_html"),
    ("report-time-across-counts", "web/report_series.js",
     "runs: g.runs.map(function (i) { return f.runs[i]; }),", "runs: f.runs,",
     "integration_test_report_html$"),
    ("compare-sys-heading-runs", "src/compare/compare_sys.c",
     "if (summaries(base, bg, NULL) < 2 || summaries(other, og, NULL) < 2)", "if (1)",
     "unit_compare_sys"),
    # --- who else was busy (busy.c, compare_busy.c) ---
    ("busy-pid-reuse-same-process", "src/env/busy.c",
     "return e->start_tick != p->start_tick ? 2 : 0;", "return 0;", "unit_busy"),
    ("busy-born-before-phase", "src/env/busy.c",
     "if (!b->begun || p->start_tick < b->start_tick)",
     "if (!b->begun || p->start_tick > b->start_tick)", "unit_busy"),
    ("busy-descendants-kept", "src/env/busy.c",
     "at = procs[at].ppid > 1 ? find_pid(procs, n, procs[at].ppid) : -1;", "at = -1;",
     "unit_busy"),
    ("busy-reaped-child-twice", "src/env/busy.c",
     "if (p && !p->fresh) {", "if (p && p->fresh) {", "unit_busy"),
    ("busy-parent-keeps-kids-io", "src/env/busy.c",
     "if (e->kid[0] && (d.read_bytes", "if (0 && e->kid[0] && (d.read_bytes", "unit_busy"),
    ("busy-io-ranked-by-chars", "src/env/busy.c",
     "int c = cmp_u64(io_bytes(a), io_bytes(b));",
     "int c = cmp_u64(char_bytes(a), char_bytes(b));", "unit_busy"),
    ("busy-notes-wrong-side", "src/compare/compare_busy.c",
     "what, s->name, t->name);", "what, t->name, s->name);", "unit_compare_sys"),
    ("busy-notes-floor-ignored", "src/compare/compare_busy.c",
     "\t\ts->io_floor += list_floor(json_object_get(busy, \"by_io\"), true);\n", "",
     "unit_compare_sys"),
    ("busy-notes-totals-not-rates", "src/compare/compare_busy.c",
     "COMPARABLE * (lg_busy_io_amount(e) + t->io_floor) / t->secs < io / s->secs",
     "COMPARABLE * (lg_busy_io_amount(e) + t->io_floor) < io", "unit_compare_sys"),
    # --- the files setup leaves open for cleanup (client.c, ops.c) ---
    ("kept-mark-survives-reopen", "src/run/ops.c",
     "\ts->kept = false; /* no longer setup's file (see keep_setup_files) */\n", "",
     "unit_client"),
    # --- what an EINVAL on an O_DIRECT file likely means (client.c) ---
    ("direct-einval-no-hint", "src/run/client.c",
     "\treturn c->wl->direct_align ? c->wl->direct_align : LG_NOTE_ALIGN_UNKNOWN;",
     "\treturn 0;", "unit_client|integration_test_direct"),
    ("direct-hint-alignment-forgotten", "src/run/client.c",
     "\treturn c->wl->direct_align ? c->wl->direct_align : LG_NOTE_ALIGN_UNKNOWN;",
     "\treturn LG_NOTE_ALIGN_UNKNOWN;", "unit_client|integration_test_direct"),
    ("type-corruptions-nomem-dropped", "src/output/result_json.c",
     "(t->corruptions && !(corrupt = json_integer(I(t->corruptions))))",
     "(t->corruptions && !(corrupt = json_integer(I(t->corruptions))) && 0)",
     "unit_result_json"),
    ("type-service-nomem-dropped", "src/output/result_json.c",
     "(svc && !(service = latency_json(svc)))", "(svc && !(service = latency_json(svc)) && 0)",
     "unit_result_json"),
    ("note-type-nomem-null", "src/counters/result_summary.c",
     "return lg_utf8_valid(s) ? json_string(s) : json_null();",
     "json_t *j = json_string(s);\n\n\treturn j ? j : json_null();", "unit_result_json"),
    ("corrupt-path-nomem-mangled", "src/counters/corrupt_notes.c",
     "if (lg_utf8_valid(path))\n\t\treturn json_string(path);",
     "json_t *j = json_string(path);\n\n\tif (j)\n\t\treturn j;", "unit_result_json"),
    ("report-mean-set-unchecked", "src/compare/html/report_html_data.c",
     "\t\treturn -ENOMEM;\n\treturn 0;\n}\n\n/* The mean of an accumulate",
     "\t\treturn 0;\n\treturn 0;\n}\n\n/* The mean of an accumulate", "unit_report_html"),
    ("report-hosts-nomem-none", "src/compare/html/report_html_data.c",
     "if (hosts_of(doc, &hosts))\n\t\treturn -ENOMEM;", "hosts_of(doc, &hosts);",
     "unit_report_html"),
    ("monitor-prev-moves-on-nomem", "src/env/monitor.c",
     "if (sys) {\n\t\t\tlg_sys_sample_clear(&m->prev);",
     "if (1) {\n\t\t\tlg_sys_sample_clear(&m->prev);", "unit_monitor"),
    ("monitor-summary-nomem-silent", "src/env/monitor.c",
     "if (m->have_first && !(m->summary = summary_json(m)))\n\t\tm->err = -ENOMEM;",
     "if (m->have_first)\n\t\tm->summary = summary_json(m);", "unit_monitor"),
    ("monitor-vmdiff-nomem-silent", "src/env/monitor.c",
     "if (!m->vmdiff)\n\t\t\tm->err = -ENOMEM;", "if (0)\n\t\t\tm->err = -ENOMEM;",
     "unit_monitor"),
    ("summary-level-mean-placeholders", "src/env/monitor.c",
     "return n ? sum / (double)n : 0;", "return n ? sum / (double)json_array_size(tl) : 0;",
     "unit_monitor"),
    ("result-dir-access-unchecked", "src/model/paths.c",
     "else if (access(dir, W_OK | X_OK) != 0)", "else if (0 && access(dir, W_OK | X_OK) != 0)",
     "unit_result_json|unit_paths"),
    ("btrfs-source-ignored", "src/env/sysinfo.c",
     "if (m && strncmp(m->source, \"/dev/\", 5) == 0 && stat(m->source, &src) == 0 &&",
     "if (0 && m && strncmp(m->source, \"/dev/\", 5) == 0 && stat(m->source, &src) == 0 &&",
     "integration_test_monitor_fs"),
    ("compare-undecided-passes", "src/compare/compare.c",
     "\t\treturn LG_COMPARE_EXIT_UNDECIDED;\n", "\t\treturn 0;\n",
     "unit_compare_cli|integration_test_compare"),
    ("compare-undecided-outweighs-slower", "src/compare/compare.c",
     "if (a == LG_COMPARE_EXIT_SLOWER || b == LG_COMPARE_EXIT_SLOWER)", "if (0)",
     "unit_compare_cli|integration_test_compare"),
    ("run-output-dash-accepted", "src/app/runs.c",
     "if (path[i] && strcmp(path[i], \"-\") == 0) {", "if (0) {",
     "integration_test_output_paths"),
    # --- loadgen ab with more than two variants (ab_order.c, ab_stats.c, ab.c) ---
    ("ab-order-no-mirror", "src/app/ab/ab_order.c",
     "bool mirror = nvar % 2 && round / nvar % 2;", "bool mirror = false;",
     "unit_ab_stats|integration_test_ab_multi"),
    ("ab-holm-no-cummax", "src/app/ab/ab_stats.c",
     "if (p[j] <= p[i])", "if (p[j] == p[i])", "unit_ab_stats"),
    ("ab-verdict-raw-p", "src/app/ab/ab_stats.c",
     ": !(an->p_adjusted < alpha) ? LG_VERDICT_SAME", ": !(an->t.p < alpha) ? LG_VERDICT_SAME",
     "unit_ab_stats"),
    ("ab-fail-if-slower-b-only", "src/app/ab/ab.c",
     "for (size_t i = 1; i < c->nvar; i++) {\n\t\tconst struct lg_ab_analysis *an",
     "for (size_t i = 1; i < 2; i++) {\n\t\tconst struct lg_ab_analysis *an",
     "integration_test_ab_multi"),
    # --- sweeps compared count by count (report, compare's system counters) ---
    ("report-cmp-mixes-counts", "src/compare/html/report_html_cmp.c",
     "bool by_count = base->ngroups > 1 || other->ngroups > 1;", "bool by_count = false;",
     "unit_report_html"),
    ("compare-sys-all-runs", "src/compare/compare_table.c",
     "lg_cmp_sys_print(stdout, &t->files[0], c->bg, &t->files[i], c->og);",
     "lg_cmp_sys_print(stdout, &t->files[0], NULL, &t->files[i], NULL);", "unit_compare_cli"),
    # --- outputs that would replace an input or each other (paths.c) ---
    ("paths-inode-ignored", "src/model/paths.c",
     "return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;", "return strcmp(a, b) == 0;",
     "unit_paths|integration_test_output_paths"),
    ("report-output-unchecked", "src/compare/html/report_html.c",
     "rc = lg_path_check_output(out, err, sizeof(err));", "rc = 0;",
     "integration_test_output_paths"),
    ("html-skipped-after-json", "src/app/runs.c",
     "\tif (!built && cfg->html_path) {", "\tif (!built && rc == 0 && cfg->html_path) {",
     "integration_test_result_outputs"),
    # --- -q's one line per run says what went wrong ---
    ("quiet-line-silent", "src/app/runs.c",
     "\tlg_report_issues(stdout, r); /* every failure is said, also in one line */\n", "",
     "integration_test_quiet_failures"),
    # --- issue 31: batches, drift, calibration ---
    ("batch-unit-ignored", "src/compare/compare_eval.c",
     "bool by_batch = base->nbatches >= 2 && other->nbatches >= 2;",
     "bool by_batch = false;", "integration_test_compare_batches"),
    ("nested-n0-mean-size", "src/inference/batch_variance.c",
     "out->n0 = ((double)n - sumsq / (double)n) / (double)(k - 1);",
     "out->n0 = (double)n / (double)k;", "unit_batch_variance"),
    ("first-apart-no-prediction", "src/inference/batch_variance.c",
     "s * sqrt(1.0 + 1.0 / (double)(n - 1))", "s * sqrt(1.0 / (double)(n - 1))",
     "unit_batch_variance|integration_test_compare_drift"),
    ("drift-trend-ignored", "src/compare/compare_batches.c",
     "out->drifts = out->trend.p < alpha;", "out->drifts = false;",
     "integration_test_compare_drift"),
    ("predict-batch-no-new-obs", "src/compare/compare_batches.c",
     "se = many->stddev * sqrt(1.0 + 1.0 / k);", "se = many->stddev * sqrt(1.0 / k);",
     "integration_test_compare_batches"),
    ("calib-between-once", "src/compare/compare_calib.c",
     "se2 = 2.0 * vb + va + vo;", "se2 = vb + va + vo;", "integration_test_calibrate"),
    ("calib-kernel-in-key", "src/compare/compare_calib.c",
     "\"cpus_allowed\", \"fs_type\",", "\"cpus_allowed\", \"fs_type\", \"kernel\",",
     "integration_test_calibrate"),
    # --- issue 25: compare ---
    ("compare-power-half", "include/loadgen/compare/compare.h",
     "#define LG_COMPARE_POWER 0.8 ", "#define LG_COMPARE_POWER 0.5 ",
     "integration_test_power"),
    ("sweep-clients-last", "src/app/runs.c",
     "\tcfg->clients = cfg->sweep[0];\n\tif (rc < 0)", "\tif (rc < 0)",
     "integration_test_sweep"),
    ("compare-mark-deciding-only", "src/compare/compare_table.c",
     "mark(&c->r.metric[m], &t->cli->opts));",
     "c->r.decided_by == m ? mark(&c->r.metric[m], &t->cli->opts) : \"\");",
     "integration_test_compare"),
    ("compare-sys-exponent", "src/compare/compare_sys.c",
     "else if (fabs(v) >= 1e5 && fabs(v) < 1e15)", "else if (0)", "unit_compare_sys"),
    ("ab-setup-failure-as-cleanup", "src/app/ab/ab_child.c",
     "\t    phase_failures(json_object_get(ph, \"setup\"), \"skipped\") ||\n", "",
     "integration_test_ab_failure"),
    ("ab-child-lines-unseen", "src/app/ab/ab_child.c",
     "in = in || opens_failure(line);", "in = false;", "integration_test_ab_failure"),
    # --- issue 25: docs ---
    ("show-reads-path-only", "src/app/show.c",
     "rc = lg_loadfile_load(path, &text, &len, found, sizeof(found), err, sizeof(err));",
     "rc = lg_loadfile_read(path, &text, &len);\n\tsnprintf(found, sizeof(found), \"%s\", "
     "path);\n\tif (rc)\n\t\tsnprintf(err, sizeof(err), \"%s: %s\", path, "
     "lg_loadfile_strerror(rc));", "integration_test_show"),
    ("loadfile-no-did-you-mean", "src/load/loadfile_find.c",
     "\tif (lg_suggest_best(&s))", "\tif (0 && lg_suggest_best(&s))",
     "unit_loadfile_find|integration_test_show"),
    ("yaml-int-tag-any-scalar", "src/load/yaml/yaml_tag.c",
     "\t\treturn is_int(text);", "\t\treturn true;", "unit_yaml_tree|unit_yaml_load"),
    ("yaml-tag-kind-unchecked", "src/load/yaml/yaml_tag.c",
     "\tif (type_kind(type) != kind) {", "\tif (0 && type_kind(type) != kind) {",
     "unit_yaml_tree|unit_yaml_load"),
    # --- issue 25: report ---
    ("report-clients-across-counts", "src/compare/html/report_html_data.c",
     "for (size_t r = 0; r < g->n; r++) {\n\t\trun = json_array_get(f->runs, g->runs[r]);",
     "for (size_t r = 0; r < f->nruns + 0 * g->n; r++) {\n\t\trun = json_array_get(f->runs, r);",
     "unit_report_html|integration_test_report_sweep"),
    ("report-cpu-run-one", "web/report_series.js",
     "if (any) runs.push({ series: r.series, cpu: cpu });",
     "if (any && !runs.length) runs.push({ series: r.series, cpu: cpu });",
     "integration_test_report_sweep"),
    ("report-jain-in-legend", "web/report.js",
     "ds.push({ type: 'bar', label: u.label, data:",
     "ds.push({ type: 'bar', label: u.label + ' \\u2014 ' + jainText(u.g.per_client.jain), data:",
     "integration_test_report_sweep"),
    ("report-diffs-per-count", "web/report.js",
     "var shared = ok.length > 1 && ok.every(", "var shared = false && ok.every(",
     "integration_test_report_sweep"),
    ("report-legend-undrawn", "web/report.js",
     "datasets = datasets.filter(function (d) { return d.data.some(drawable); });", "",
     "integration_test_report_sweep"),
    ("report-sweep-ci-below-zero", "web/report.js",
     "return { x: p.x, y: Math.max(0, p.lo) };", "return { x: p.x, y: p.lo };",
     "integration_test_report_sweep"),
    ("report-unmeasured-refused", "src/compare/html/report_html.c",
     "if (rc == -ENODATA) { /* f was released; doc is checked and ours */",
     "if (rc == -ENODATA && 0) {", "integration_test_report_failed"),
    ("report-unmeasured-notes-uncut", "src/compare/html/report_html_failed.c",
     "i < json_array_size(a) && i < NOTES_MAX;", "i < json_array_size(a);",
     "unit_report_html"),
    ("report-unmeasured-charts", "web/report.js",
     "\t\tif (!data.files.length) return;\n", "", "integration_test_report_failed"),
    # --- the history trend page (report_html_trend.c, web/report_trend.js) ---
    ("trend-change-at-next", "web/report_trend.js",
     "return slotX(chart, cp.index - 0.5);", "return slotX(chart, cp.index + 0.5);",
     "integration_test_report_trend"),
    ("trend-heading-as-html", "web/report_trend.js",
     "add(sec, 'h2', {}, heading(s));", "add(sec, 'h2').innerHTML = heading(s);",
     "integration_test_report_trend"),
    ("trend-busy-not-in-tooltip", "web/report_trend.js",
     "if (p.busy) lines.push('busy: ' + p.busy);", "", "integration_test_report_trend"),
    ("page-data-unescaped", "src/compare/html/report_html_page.c",
     "if (*p == '<')", "if (*p == '<' && 0)", "unit_report_trend"),
    ("trend-write-error-ignored", "src/compare/html/report_html_trend.c",
     "return rc ? rc : -(errno ? errno : EIO);", "return rc;", "unit_report_trend"),
    # --- issue 25: accounting ---
    ("cut-off-sleep-counted", "src/run/ops.c",
     "\treturn lg_client_sleep_until(c, lg_now_ns() + op->size) ? 0\n",
     "\treturn lg_client_sleep_until(c, lg_now_ns() + op->size) || 1 ? 0\n",
     "integration_test_cut_off"),
    ("json-status-ignores-errors", "src/counters/result_summary.c",
     'return f.count ? "failed" : "complete";', 'return "complete";',
     "unit_result_json|integration_test_fs_full"),
    ("short-setup-goes-on", "src/run/engine.c",
     "if (!full && atomic_load(&e->sh->setup_short)) {",
     "if (!full && atomic_load(&e->sh->setup_short) && 0) {", "integration_test_fs_full"),
    # --- issue 25: signals ---
    ("signal-hup-default", "src/run/signals.c",
     "{ SIGHUP, LG_SIG_STOP, .again_exits = true, .keep_ignored = true,",
     "{ SIGHUP, LG_SIG_IGNORE, .again_exits = true, .keep_ignored = true,",
     "integration_test_signal_kinds"),
    ("sigxcpu-counts-twice", "src/run/signals.c",
     "{ SIGXCPU, LG_SIG_STOP,", "{ SIGXCPU, LG_SIG_STOP, .again_exits = true,",
     "integration_test_signal_kinds"),
    ("stdout-epipe-ignored", "src/run/engine.c",
     "if (fflush(stdout) != 0 && errno == EPIPE)", "if (fflush(stdout) != 0 && 0)",
     "integration_test_signal_kinds"),
    ("nohup-overridden", "src/run/signals.c",
     "if (r->keep_ignored && ignored_now(r->sig))", "if (0 && ignored_now(r->sig))",
     "integration_test_signal_kinds"),
    ("quiet-header-dropped", "src/main.c",
     "(cfg.quiet ? lg_sysinfo_print_short : lg_sysinfo_print)(stdout, cfg.env);",
     "if (!cfg.quiet) lg_sysinfo_print(stdout, cfg.env);", "integration_test_env"),
    ("clients-plural-always", "src/output/report.c",
     "run->nclients == 1 ? \"client\" : \"clients\"", "\"clients\"", "unit_report"),
    ("space-loops-once", "src/model/footprint.c",
     "m = mul(m, w->loops[i].count);", "m = mul(m, 1);",
     "unit_footprint|integration_test_space_check"),
    ("space-random-counted", "src/model/footprint.c",
     "if (op->off_mode != LG_OFF_FIXED)\n\t\t\treturn;",
     "if (0)\n\t\t\treturn;", "unit_footprint|integration_test_space_check"),
    ("space-per-client-only", "src/app/space.c",
     "need = fp.bytes > UINT64_MAX / cfg->clients ? UINT64_MAX : fp.bytes * cfg->clients;",
     "need = fp.bytes;", "integration_test_space_check"),
    # --- issue 25: suite ---
    ("fairness-median-even", "src/counters/counters.c",
     "out->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;", "out->median = v[n / 2];",
     "unit_counters|unit_result_summary|integration_test_repeat"),
    ("last-interval-short-lost", "src/run/engine_watch.c",
     "\tif (!t.sum[LG_TICK_D_OPS] && !t.max[LG_TICK_TICK])", "\tif (!t.max[LG_TICK_TICK])",
     "unit_engine$|integration_test_timed"),
    ("skew-offset-sign-flipped", "src/run/ranks/coord.c",
     "int64_t t = (int64_t)start_ns[r] - off[r];", "int64_t t = (int64_t)start_ns[r] + off[r];",
     "unit_coord|integration_test_mpi"),
    ("clock-offset-sign-flipped", "src/run/ranks/coord.c",
     "return (int64_t)(tr - (t0 + (t1 - t0) / 2));", "return (int64_t)((t0 + (t1 - t0) / 2) - tr);",
     "unit_coord|integration_test_mpi"),
    ("start-instant-offset-flipped", "src/run/ranks/coord.c",
     "return at + (uint64_t)off;", "return at - (uint64_t)off;", "unit_coord|integration_test_mpi"),
    ("drop-caches-pagecache-only", "src/run/engine_os.c",
     'write(fd, "3", 1) != 1', 'write(fd, "1", 1) != 1',
     "unit_engine_os|integration_test_modes|integration_test_syscalls"),
    ("log-no-sync-per-interval", "src/env/monitor.c",
     '"interval", interval_line(m, iv, sys));\n\t\tlg_runlog_sync(m->log);',
     '"interval", interval_line(m, iv, sys));',
     "unit_runlog|unit_monitor|integration_test_runlog|integration_test_syscalls"),
    # --- issue 29: a --log cut off mid-run, read as a partial run ---
    ("log-torn-tail-fatal", "src/env/runlog.c",
     "\t\tif (!o && last) {", "\t\tif (!o && last && 0) {",
     "unit_runlog|unit_compare_log|integration_test_runlog_cutoff"),
    ("log-torn-line-number-off", "src/env/runlog.c",
     "info->torn_line = lineno;", "info->torn_line = lineno - 1;",
     "unit_runlog|unit_compare_log|integration_test_runlog_cutoff"),
    ("log-cut-refused", "src/compare/compare_log.c",
     "\t\trc = partial_doc(path, &info, lines, out, err, errlen);",
     "\t\trc = lg_errf(err, errlen, -EINVAL, \"%s: truncated log\", path);",
     "unit_compare_log|integration_test_runlog|integration_test_runlog_cutoff"),
    ("log-totals-of-last-interval", "src/compare/compare_log.c",
     "\tr->ops += v[0];", "\tr->ops = v[0];",
     "unit_compare_log|integration_test_runlog_cutoff"),
    ("log-run-said-complete", "src/compare/compare_log.c",
     '"status", "partial", "failure",', '"status", "complete", "failure",',
     "unit_compare_log|integration_test_runlog_cutoff"),
    ("log-no-interval-accepted", "src/compare/compare_log.c",
     "\tif (info->intervals == 0)", "\tif (info->intervals == 0 && 0)",
     "unit_compare_log|integration_test_runlog_cutoff"),
    ("log-dropped-line-unsaid", "src/compare/compare_log.c",
     "\tif (json_is_integer(line))", "\tif (json_is_integer(line) && 0)",
     "integration_test_runlog_cutoff"),
    ("log-partial-unsaid-in-text", "src/compare/compare_text.c",
     "\tprint_partial(t);\n", "",
     "integration_test_runlog|integration_test_runlog_cutoff"),
    ("log-partial-unsaid-in-json", "src/compare/compare_json.c",
     '"partial", partial_json(&t->files[0]),', '"partial", json_null(),',
     "integration_test_runlog_cutoff"),
    ("log-partial-unsaid-in-page", "src/compare/html/report_html_data.c",
     'json_object_set_new(out, "partial", partial_json(b->f->doc))',
     'json_object_set_new(out, "partial", json_null())',
     "unit_report_html|integration_test_runlog_cutoff"),
    # --- issue 26: the house ---
    ("single-host-status-swallowed", "src/run/ranks/coord.c",
     "\t(void)c, (void)err, (void)errlen;\n\treturn rc;",
     "\t(void)c, (void)err, (void)errlen, (void)rc;\n\treturn 0;",
     "unit_coord|integration_test_errors|integration_test_fs_full"),
    ("agree-failed-rewrites-own", "src/run/engine.c",
     "if (failed && run->failure && !strcmp(msg, run->failure))",
     "if (failed && run->failure && strcmp(msg, run->failure))",
     "unit_engine|integration_test_faults|integration_test_fs_full"),
    ("include-check-one-up-missed", "tests/check_includes.py",
     "elif theirs[1] > mine[1]:", "elif theirs[1] > mine[1] + 1:",
     "include_layers_self_test|include_layers"),
    # --- issue 27: a recorded program's streams ---
    ("stream-after-no-wait", "src/run/streams.c",
     "return op->kind == LG_OP_AFTER ? after(c, op) : think(c, op);",
     "return op->kind == LG_OP_AFTER ? ((void)after, true) : think(c, op);",
     "integration_test_streams"),
    ("stream-think-unscaled", "src/run/streams.c",
     "t = c->now_ns + (uint64_t)((double)op->size * scale);",
     "t = c->now_ns + op->size;", "integration_test_streams"),
    ("stream-cycle-unchecked", "src/load/yaml/yaml_streams.c",
     "\tif (!rc)\n\t\trc = check_waits(c);", "\tif (!rc && 0)\n\t\trc = check_waits(c);",
     "unit_yaml_streams"),
    ("stream-stats-not-added", "src/run/engine.c",
     "\t\t\tlg_client_stats_add(run->clients[i / e->wl->nstreams], cs);",
     "\t\t\t(void)cs;", "integration_test_streams|integration_test_mpi"),
    ("stream-blocks-not-compacted", "src/run/engine.c",
     "\tif (e->wl->nstreams)\n\t\tcompact_streams(e, run);", "",
     "integration_test_mpi"),
    ("trace-reaped-child-unordered", "src/load/trace/trace_out.c",
     "\tif (t->reaped_stream >= 0 && t->reaped_stream != t->stream)",
     "\tif (t->reaped_stream >= 0 && t->reaped_stream != t->stream && 0)", "unit_trace"),
    ("trace-left-out-time-is-think", "src/load/trace/trace_out.c",
     "\t\tgap = gap > t->skipped_ns ? gap - t->skipped_ns : 0;", "", "unit_trace"),
    ("trace-think-floored-per-gap", "src/load/trace/trace_out.c",
     "\t*scale = total > 0 && pos > 0 ? total / pos : 0;",
     "\t*scale = pos > 0 ? 1 : 0;", "unit_trace"),
    ("trace-call-type-dropped", "src/load/trace/trace_calls.c",
     "\treturn fstep(c, t, k, \"close\", s);", "\treturn 0;",
     "unit_trace|integration_test_replay_fidelity"),
    # --- issue 26: docs ---
    ("doc-anchor-left-behind", "docs/results.md",
     "([Data verification](running.md#data-verification) says",
     "([Data verification](#data-verification) says", "integration_test_links"),
    # --- issue 28: barriers and one host reading what another wrote ---
    ("barrier-opens-when-any-waits", "src/run/engine_watch.c",
     "\tif (!t->sum[LG_TICK_AT_BARRIER] || t->max[LG_TICK_NOT_AT_BARRIER])",
     "\tif (!t->sum[LG_TICK_AT_BARRIER])", "integration_test_barrier"),
    ("bphase-span-from-ends", "src/counters/bphases.c",
     "\t\t\tlo = b->start_ns < lo ? b->start_ns : lo;",
     "\t\t\tlo = b->end_ns < lo ? b->end_ns : lo;", "integration_test_barrier"),
    ("peer-read-checked-as-reader", "src/run/ops.c",
     "lg_verify_check(c->buf, (size_t)n, *off, vs->writer, &r);",
     "lg_verify_check(c->buf, (size_t)n, *off, c->id, &r);",
     "unit_verify|integration_test_peer_verify"),
    # --- issue 29: every host's counters ---
    ("standout-names-first-host", "src/output/report_hosts_sys.c",
     "others \\u2264 %.*f\\n\", names[h],", "others \\u2264 %.*f\\n\", names[0],",
     "unit_hosts|integration_test_host_counters"),
    ("standout-above-the-max", "src/output/report_hosts_sys.c",
     "OUTLIER_RATIO * median(others, k)", "OUTLIER_RATIO * fmax(median(others, k), max)",
     "unit_hosts"),
    ("hosts-given-rank0s-monitor", "src/run/ranks/mpi_hosts.c",
     "\t\t\th->mon = o;",
     "\t\t\th->mon = json_deep_copy(run->multi->hosts[0].mon), json_decref(o);",
     "integration_test_host_counters"),
    ("cgroup-root-followed", "src/env/sysmon_parse.c",
     "if (end - l < 2 ||", "if (end - l < 1 ||", "unit_sysmon"),
    ("compare-hosts-alike-kept", "src/compare/compare_sys.c",
     "if (!alike(&ks[json_integer_value(at)], json_array_size(hosts)))",
     "if (1 || !alike(&ks[json_integer_value(at)], json_array_size(hosts)))",
     "unit_compare_sys"),
    # --- issue 29: the ranks' stats reduced up a tree ---
    ("reduce-drops-higher-ranks", "src/run/ranks/mpi_reduce.c",
     "\t\tlg_client_stats_add(b, (struct lg_client_stats *)tmp);", "\t\t(void)tmp;",
     "integration_test_mpi_reduce"),
    ("reduce-phase-clients-not-added", "src/counters/counters.c",
     "\t\td->clients += b->clients;", "\t\td->clients = b->clients;", "unit_counters"),
    ("dist-tie-to-higher-id", "src/counters/client_dist.c",
     "src->min_client < dst->min_client", "src->min_client > dst->min_client",
     "unit_client_dist"),
    ("summary-drops-noted-rows", "src/run/ranks/mpi_reduce.c",
     "\t\tif (noted(cs) && mine < LG_PER_CLIENT_NOTED_MAX)",
     "\t\tif (0 && noted(cs) && mine < LG_PER_CLIENT_NOTED_MAX)",
     "integration_test_mpi_reduce"),
    ("rows-all-the-first-client", "src/run/ranks/mpi_reduce.c",
     "\t\tcl[k] = row_at(map, k);", "\t\tcl[k] = row_at(map, 0);",
     "integration_test_mpi_reduce"),
    # --- issue 29: a rank that dies ---
    ("lost-rank-result-not-written", "src/app/runs.c",
     "\tif (cfg && !cur.written && n && (cfg->json_path",
     "\tif (0 && cfg && !cur.written && n && (cfg->json_path",
     "integration_test_rank_lost"),
    ("lost-rank-busy-rank-silent", "src/run/ranks/coord.c",
     "\t\tlg_mpi_answer();", "\t\t(void)0;", "integration_test_rank_lost"),
    ("lost-rank-rank0-calls-the-dead", "src/run/ranks/mpi_lost.c",
     "\tif (!w->calling && !heard_since(since)) {",
     "\tif (!w->calling && (heard_since(since) || 1)) {", "integration_test_rank_lost"),
    ("lost-rank-summary-p99-zero", "src/counters/result_summary.c",
     "\t\tout->lost = out->lost || runs[i].nlost_ranks;", "", "unit_result_json"),
    # --- the kernel clock's offset (src/env/kmsg.c) ---
    ("kmsg-offset-not-applied", "src/env/kmsg.c",
     "		if (k->have_off)\n			e.t_ns = (uint64_t)((int64_t)e.t_ns - k->off_ns);",
     "		if (0)\n			e.t_ns = (uint64_t)((int64_t)e.t_ns - k->off_ns);",
     "unit_kmsg|unit_monitor"),
    # --- loadgen history (src/app/history) ---
    ("history-segment-whole-series", "src/app/history/history_trend.c",
     "out->stable_from = ncp ? cps[ncp - 1].index : 0;", "out->stable_from = 0;",
     "integration_test_history"),
    ("history-self-in-own-segment", "src/app/history/history_check.c",
     "				if (self)", "				if (0)", "integration_test_history"),
    ("history-interval-of-the-mean", "src/app/history/history_check.c",
     "half = c->seg_sd * sqrt(1 + 1 / (double)c->seg_n);",
     "half = c->seg_sd * sqrt(1 / (double)c->seg_n);", "integration_test_history"),
    ("history-partial-analysed", "src/app/history/history_trend.c",
     'return p->status && strcmp(p->status, "complete") == 0 && isfinite(p->mean);',
     "return isfinite(p->mean);", "unit_history"),
    ("history-truncation-unchecked", "src/app/history/history_db.c",
     "if ((uint64_t)st.st_size % page != 0 ||", "if (0 &&", "unit_history"),
    ("history-open-reads-apart", "src/app/history/history_db.c",
     'if (sqlite3_exec(out->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK ||\n'
     '\t    query_int(out->db, "PRAGMA application_id", &app) != SQLITE_OK ||\n'
     '\t    query_int(out->db, "SELECT count(*) FROM sqlite_master", &tables) != SQLITE_OK ||\n'
     '\t    query_int(out->db, "PRAGMA user_version", &version) != SQLITE_OK ||\n'
     '\t    sqlite3_exec(out->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {',
     'if (query_int(out->db, "PRAGMA application_id", &app) != SQLITE_OK ||\n'
     '\t    query_int(out->db, "SELECT count(*) FROM sqlite_master", &tables) != SQLITE_OK ||\n'
     '\t    query_int(out->db, "PRAGMA user_version", &version) != SQLITE_OK) {',
     "integration_test_history"),
    ("history-verify-not-in-key", "src/app/history/history_series.c",
     'static const char *const extra[] = { "verify", "replay_timing", NULL };',
     'static const char *const extra[] = { "replay_timing", NULL };', "unit_history"),
]


def sh(cmd, cwd, timeout=1800):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def copy_tree(dst):
    ignore = shutil.ignore_patterns("build*", ".git", "__pycache__")
    shutil.copytree(SRC, dst, ignore=ignore, symlinks=True)


def run_one(m, tree, build, full, jobs):
    mid, rel, old, new, regex = m
    path = os.path.join(tree, rel)
    with open(path) as f:
        text = f.read()
    if text.count(old) != 1:
        return "stale", f"{rel}: the text to mutate occurs {text.count(old)} times"
    try:
        with open(path, "w") as f:
            f.write(text.replace(old, new))
        b = sh(["cmake", "--build", build, "-j", str(jobs)], tree)
        if b.returncode != 0:
            return "killed", "does not build"
        args = ["ctest", "--test-dir", build, "-j", str(jobs), "-LE", "bench"]
        if not full:
            args += ["-R", regex]
        t = sh(args, tree)
        if "No tests were found" in t.stdout + t.stderr:
            return "stale", f"no test matches {regex}"
        failed = [ln.split("-", 1)[-1].strip() for ln in t.stdout.splitlines()
                  if "(Failed)" in ln or "(Timeout)" in ln or "(SEGFAULT)" in ln]
        if t.returncode != 0:
            return "killed", ", ".join(failed) or "ctest failed"
        return "SURVIVED", f"{regex} passed"
    finally:
        with open(path, "w") as f:
            f.write(text)


def check_texts(mutants):
    """1 when a mutant's text is not in its file exactly once (stale), or ids repeat."""
    bad = []
    for mid, rel, old, _, _ in mutants:
        with open(os.path.join(SRC, rel)) as f:
            n = f.read().count(old)
        if n != 1:
            bad.append(f"{mid}: {rel}: the text to mutate occurs {n} times")
    ids = [m[0] for m in mutants]
    bad += [f"{i}: id used twice" for i in sorted({i for i in ids if ids.count(i) > 1})]
    for b in bad:
        print("stale", b)
    print(f"{len(mutants) - len(bad)} of {len(mutants)} mutants apply")
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="comma-separated mutant ids")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--check", action="store_true",
                    help="only check that each mutant's text is in its file once (no build; "
                         "CTest runs this, so an edit that makes a mutant stale fails a test)")
    ap.add_argument("--full", action="store_true", help="run the whole suite per mutant")
    ap.add_argument("--keep", action="store_true", help="keep the temporary tree")
    ap.add_argument("-j", type=int, default=2, help="build and test jobs (default 2)")
    a = ap.parse_args()
    mutants = MUTANTS
    if a.only:
        want = set(a.only.split(","))
        mutants = [m for m in MUTANTS if m[0] in want]
    if a.list:
        for m in mutants:
            print(f"{m[0]:32} {m[1]:22} tests: {m[4]}")
        return 0
    if a.check:
        return check_texts(mutants)
    work = tempfile.mkdtemp(prefix="lg-mutate.")
    tree, build = os.path.join(work, "src"), os.path.join(work, "build")
    copy_tree(tree)
    print(f"building the unmutated copy in {work} ...", flush=True)
    if sh(["cmake", "-S", tree, "-B", build], tree).returncode or \
       sh(["cmake", "--build", build, "-j", str(a.j)], tree).returncode:
        print("the unmutated tree does not build", file=sys.stderr)
        return 2
    results = []
    for m in mutants:
        t0 = time.monotonic()
        verdict, why = run_one(m, tree, build, a.full, a.j)
        results.append((m[0], verdict, why))
        print(f"{verdict:8} {m[0]:32} {time.monotonic() - t0:5.0f} s  {why}", flush=True)
    # rebuild the restored tree so a kept copy is the real one again
    sh(["cmake", "--build", build, "-j", str(a.j)], tree)
    survived = [r for r in results if r[1] != "killed"]
    print(f"\n{len(results) - len(survived)} of {len(results)} mutants killed" +
          (": survivors " + ", ".join(r[0] for r in survived) if survived else ""))
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())

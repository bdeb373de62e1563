/* loadgen report: the runs that measured nothing (a setup that failed, a run stopped in
 * its warm-up). Such a run has no figures to chart; its page says what went wrong, as
 * the result holds it: the status and failure, what each phase counted, the unexpected
 * results, the kernel's messages, the system's counters. Loaded before report.js, which
 * calls lgFailed.render with its helpers (add, table, plain). */
var lgFailed = (function () {
	'use strict';
	var h;

	function kv(parent, obj, head) {
		var keys = Object.keys(obj || {});
		if (!keys.length) return;
		var t = h.table(parent, head || ['key', 'value'], keys.map(function (k) { return [k, h.plain(obj[k])]; }), 2);
		t.querySelectorAll('td:first-child').forEach(function (td) { td.className = 'key'; });
	}
	function phases(parent, p) {
		var names = Object.keys(p || {});
		if (!names.length) return;
		h.add(parent, 'h4', {}, 'Phases');
		h.table(parent, ['phase', 'unexpected results', 'by errno', 'ops skipped'], names.map(function (n) {
			var e = p[n] || {}, by = e.errors_by_errno || {}, sk = e.skipped || {};
			return [n, h.plain(e.errors), Object.keys(by).map(function (k) { return k + ' ' + by[k]; }).join(', ') || '-',
				Object.keys(sk).map(function (k) { return k + ' ' + sk[k]; }).join(', ') || '-'];
		}), 1);
	}
	/* notes of every phase, the run's own first, alike ones counted once */
	function notes(parent, r) {
		var list = (r.error_notes || []).slice(), seen = {}, rows = [];
		Object.keys(r.phases || {}).forEach(function (n) { list = list.concat((r.phases[n] || {}).error_notes || []); });
		list.forEach(function (e) {
			var row = [e.phase, 'client ' + e.client, 'line ' + e.line, e.type, e.path, e.got, e.expected, e.hint];
			var k = JSON.stringify(row);
			if (seen[k]) { seen[k][8]++; return; }
			rows.push(seen[k] = row.concat([1]));
		});
		if (!rows.length) return;
		h.add(parent, 'h4', {}, 'Unexpected results' + (r.error_notes_total > (r.error_notes || []).length ?
			' (the first ' + r.error_notes.length + ' of ' + r.error_notes_total + ' of the run)' : ''));
		h.table(parent, ['phase', 'client', 'line', 'op', 'path', 'got', 'expected', 'hint', 'times'], rows.map(function (x) {
			return x.map(function (c) { return h.plain(c); });
		}), 8);
	}
	function kernel(parent, k) {
		if (!k) return;
		h.add(parent, 'h4', {}, 'Kernel messages');
		if (k.readable === false) return h.add(parent, 'p', { 'class': 'note' }, 'Not read: ' + h.plain(k.note) + '.');
		var m = k.messages || [];
		if (!m.length) return h.add(parent, 'p', { 'class': 'note' }, 'None during the run.');
		h.table(parent, ['t (s)', 'level', 'message'], m.map(function (e) {
			return [h.plain(e.t_s), h.plain(e.level_name || e.level), h.plain(e.text)];
		}), 3);
		if (k.lost) h.add(parent, 'p', { 'class': 'note' }, k.lost + ' message(s) lost.');
	}
	function counters(parent, r) {
		var s = r.sys_summary;
		if (!s && !r.vmstat_diff) return;
		h.add(parent, 'h4', {}, 'System counters');
		if (s) {
			var sd = h.add(parent, 'details');
			h.add(sd, 'summary', {}, 'Levels and counters' + (typeof s.seconds === 'number' ? ' over ' + s.seconds.toFixed(3) + ' s' : ''));
			var k = h.add(sd, 'div', { 'class': 'kv' });
			if (s.gauges) kv(h.add(k, 'div'), s.gauges, ['level (mean)', 'value']);
			if (s.counters) kv(h.add(k, 'div'), s.counters, ['counter', 'change']);
		}
		if (r.vmstat_diff) {
			var d = h.add(parent, 'details');
			h.add(d, 'summary', {}, '/proc/vmstat: change over the run (' + Object.keys(r.vmstat_diff).length + ' counters)');
			kv(d, r.vmstat_diff, ['counter', 'change']);
		}
	}
	function run(parent, f, r) {
		var box = h.add(parent, 'section', { 'class': 'unmeasured', 'data-file': f.name, 'data-status': r.status });
		var cc = typeof r.client_count === 'number' ? ', ' + r.client_count + ' client' + (r.client_count === 1 ? '' : 's') : '';
		h.add(box, 'h3', {}, f.name + ': run ' + (r.index + 1) + cc + ': ' + r.status);
		var why = r.failure && r.failure.message ? r.failure.message.charAt(0).toUpperCase() + r.failure.message.slice(1) : r.status === 'interrupted' ?
			'stopped before its measured phase began (in setup or warm-up)' : 'no failure recorded';
		h.add(box, 'p', { 'class': 'failure' }, (/nothing was measured/.test(why) ? '' : 'Nothing was measured: ') + why +
			(r.failure && r.failure.phase ? ' (phase ' + r.failure.phase + (r.failure.errno ? ', ' + r.failure.errno : '') + ')' : '') + '.');
		phases(box, r.phases);
		notes(box, r);
		kernel(box, r.kernel_messages);
		counters(box, r);
	}
	/* A section for the files' runs that measured nothing, or none when there is none. */
	function render(section, files, helpers) {
		h = helpers;
		var any = files.filter(function (f) { return (f.unmeasured || []).length; });
		if (!any.length) return null;
		var s = section('Runs that measured nothing');
		any.forEach(function (f) { f.unmeasured.forEach(function (r) { run(s, f, r); }); });
		return s;
	}
	return { render: render };
})();

/* loadgen report: draw the page from the data object in #lg-data with Chart.js.
 *
 * Every chart is a figure with its canvas and a table of the same numbers (copyable,
 * readable without the chart). A chart is drawn only where the data has its numbers.
 * Series keep one colour, dash pattern and marker per file (or per run in a single
 * file), from the Okabe-Ito palette in an order that also separates in greyscale; a
 * sweep's client counts are series of their own (report_series.js, loaded first).
 * The text and tables are built first; the charts are then drawn one per task, so the
 * page shows at once and fills in. When all are drawn, a JSON summary of what was drawn
 * goes into #lg-status (used by tests). */
(function () {
	'use strict';
	var PALETTE = ['#000000', '#E69F00', '#0072B2', '#D55E00', '#56B4E9', '#009E73',
		'#CC79A7', '#F0E442'];
	var DASHES = [[], [8, 4], [2, 3], [10, 3, 2, 3], [4, 4], [1, 5], [12, 6], [6, 2, 2, 2]];
	var MARKERS = ['circle', 'triangle', 'rect', 'rectRot', 'crossRot', 'star', 'cross',
		'rectRounded'];
	var started = performance.now(); /* when this script began: draw time = now - started */
	var consoleErrors = [];
	var charts = [];
	var data, root, compare, baseName;

	var origError = console.error;
	console.error = function () {
		consoleErrors.push(Array.prototype.join.call(arguments, ' '));
		origError.apply(console, arguments);
	};

	function style(i) {
		return { color: PALETTE[i % PALETTE.length], dash: DASHES[i % DASHES.length],
			marker: MARKERS[i % MARKERS.length] };
	}
	function el(tag, attrs, text) {
		var e = document.createElement(tag);
		Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
		if (text !== undefined && text !== null) e.textContent = String(text);
		return e;
	}
	function add(parent, tag, attrs, text) {
		return parent.appendChild(el(tag, attrs, text));
	}
	function fmt(v, digits) {
		if (v === null || v === undefined || typeof v !== 'number' || !isFinite(v)) return '-';
		if (digits !== undefined) return v.toFixed(digits);
		var a = Math.abs(v);
		if (a !== 0 && a < 0.01) return v.toPrecision(3);
		return v.toFixed(a >= 100 ? 1 : a >= 1 ? 2 : 4);
	}
	function plain(v) {
		if (v === null || v === undefined) return '-';
		if (typeof v === 'object') return JSON.stringify(v);
		return String(v);
	}
	function posOrNull(v) { return typeof v === 'number' && v > 0 ? v : null; }
	function nines(p) { return p >= 100 ? 5 : -Math.log10(1 - p / 100); }

	/* A table: head is an array of column names, rows arrays of cells. */
	function table(parent, head, rows, leftCols) {
		var t = add(parent, 'table'), tr = add(add(t, 'thead'), 'tr'), tb = add(t, 'tbody');
		leftCols = leftCols || 1;
		head.forEach(function (h, i) { add(tr, 'th', i < leftCols ? { 'class': 'l' } : {}, h); });
		rows.forEach(function (r) {
			var row = add(tb, 'tr');
			r.forEach(function (c, i) { add(row, 'td', i < leftCols ? { 'class': 'l' } : {}, c); });
		});
		return t;
	}
	function numbers(fig, head, rows, open) {
		var d = add(fig, 'details', open ? { open: '' } : {});
		add(d, 'summary', {}, 'Numbers');
		table(d, head, rows);
	}

	/* A figure with a canvas; returns {fig, canvas}. */
	function figure(parent, id, caption) {
		var fig = add(parent, 'figure', { id: id, 'data-chart': id });
		add(fig, 'figcaption', {}, caption);
		var box = add(fig, 'div', { 'class': 'chartbox' });
		return { fig: fig, canvas: add(box, 'canvas', { 'aria-label': caption, role: 'img' }) };
	}
	/* Log axes: label 1, 2 and 5 times a power of ten (only the powers when the axis
	 * spans more than three decades), written plainly. */
	function logTick(v, i, ticks) {
		var lo = ticks[0].value, hi = ticks[ticks.length - 1].value;
		var m = v / Math.pow(10, Math.floor(Math.log10(v) + 1e-9));
		var keep = lo > 0 && hi / lo > 1000 ? [1] : [1, 2, 5];
		if (keep.every(function (k) { return Math.abs(m - k) > 1e-6; })) return '';
		return String(Number(v.toPrecision(1)));
	}
	function axis(title, type, extra) {
		var a = { type: type || 'linear', title: { display: true, text: title } };
		if (type === 'logarithmic') a.ticks = { callback: logTick, autoSkip: false };
		Object.keys(extra || {}).forEach(function (k) { a[k] = extra[k]; });
		return a;
	}
	/* Whether a data point of a dataset would be drawn: a number, a floating bar
	 * [lo, hi], or {x, y} with such a y. */
	function drawable(p) {
		if (typeof p === 'number') return isFinite(p);
		if (Array.isArray(p)) return p.length === 2 && p.every(function (v) { return typeof v === 'number' && isFinite(v); });
		return p !== null && typeof p === 'object' && (typeof p.y === 'number' ? isFinite(p.y) : Array.isArray(p.y) && drawable(p.y));
	}
	/* Queue a chart. A dataset with no point to draw is left out, so the legend lists
	 * only what the chart shows (a sweep's file has no mean across counts). */
	function draw(f, id, type, datasets, scales, labels) {
		datasets = datasets.filter(function (d) { return d.data.some(drawable); });
		var cfg = {
			type: type,
			data: { datasets: datasets },
			options: {
				animation: false, responsive: true, maintainAspectRatio: false,
				parsing: type === 'bar' ? undefined : false,
				interaction: { mode: 'nearest', intersect: false },
				plugins: { legend: { display: datasets.length > 1,
					labels: { usePointStyle: true } } },
				scales: scales
			}
		};
		if (labels) cfg.data.labels = labels;
		var points = 0;
		datasets.forEach(function (d) { points += d.data.filter(drawable).length; });
		/* drawn later, one chart per task, so the text and tables show at once */
		charts.push({ id: id, cfg: cfg, canvas: f.canvas, datasets: datasets.length,
			points: points });
	}
	function line(label, pts, s, extra) {
		var d = { label: label, data: pts, borderColor: s.color, backgroundColor: s.color,
			borderDash: s.dash, pointStyle: s.marker, pointRadius: 2.5, borderWidth: 2,
			spanGaps: false, fill: false };
		Object.keys(extra || {}).forEach(function (k) { d[k] = extra[k]; });
		return d;
	}
	function xy(xs, ys, f) {
		var out = [];
		for (var i = 0; i < xs.length; i++) {
			var y = f ? f(ys[i]) : ys[i];
			if (typeof xs[i] === 'number' && y !== null && y !== undefined) out.push({ x: xs[i], y: y });
		}
		return out;
	}

	/* --- Header --- */

	function kvTable(parent, obj) {
		var rows = Object.keys(obj || {}).map(function (k) { return [k, plain(obj[k])]; });
		var t = table(parent, ['key', 'value'], rows, 2);
		t.querySelectorAll('td:first-child').forEach(function (td) { td.className = 'key'; });
	}
	function header(f, i) {
		var h = f.header || {}, sec = el('section', { 'class': 'file-header' });
		var d = add(sec, 'details', compare ? {} : { open: '' });
		var sum = add(d, 'summary');
		var sw = add(sum, 'span', { 'class': 'swatch' });
		var st = style(i), lost = (f.unmeasured || []).length;
		if (i >= 0) sw.style.borderTop = '3px ' + (st.dash.length ? 'dashed' : 'solid') + ' ' + st.color;
		add(sum, 'strong', {}, f.name);
		sum.appendChild(document.createTextNode(' \u2014 ' + (f.measured === false ? 'nothing measured' :
			f.nruns + ' run' + (f.nruns === 1 ? '' : 's')) + (lost ? (f.measured === false ? ' (see above)' : ' (and ' + lost + ' that measured nothing: see above)') : '') +
			(h.workload ? ', workload ' + h.workload.name : '')));
		if (h.command) {
			add(d, 'h3', {}, 'Command line');
			add(d, 'p', { 'class': 'mono' }, h.command.join(' '));
		}
		var kv = add(d, 'div', { 'class': 'kv' });
		if (h.workload) {
			d = add(kv, 'div');
			add(d, 'h3', {}, 'Workload');
			var w = {};
			Object.keys(h.workload).forEach(function (k) { if (k !== 'params') w[k] = h.workload[k]; });
			Object.keys(h.workload.params || {}).forEach(function (k) { w['param ' + k] = h.workload.params[k]; });
			kvTable(d, w);
		}
		if (h.config) { d = add(kv, 'div'); add(d, 'h3', {}, 'Configuration'); kvTable(d, h.config); }
		if (h.env) { d = add(kv, 'div'); add(d, 'h3', {}, 'Environment'); kvTable(d, h.env); }
		if (f.partial)
			add(sec, 'p', { 'class': 'note partial', 'data-partial': f.name }, f.name + ': ' + f.partial.note +
				(f.partial.missing ? ' (not in the log: ' + f.partial.missing.join(', ') + ')' : '') + '.');
		var bad = f.runs.filter(function (r) { return r.status !== 'complete'; });
		if (bad.length)
			add(sec, 'p', { 'class': 'note' }, bad.length + ' run(s) did not complete (' +
				bad.map(function (r) { return r.status; }).join(', ') + '); included.');
		return sec;
	}

	/* --- Comparison: the verdicts of loadgen compare --- */

	function statText(mean, half, n, digits) {
		return n >= 2 && typeof half === 'number' ? fmt(mean, digits) + ' \u00b1 ' + fmt(half, digits) : fmt(mean, digits);
	}
	function pText(p) { return typeof p !== 'number' ? 'n/a' : p < 0.0001 ? '< 0.0001' : p.toFixed(4); }
	function pctText(v) { return typeof v === 'number' ? (v >= 0 ? '+' : '') + v.toFixed(1) + ' %' : 'n/a'; }

	function diffsBox(parent, list, what) {
		var diffs = add(parent, 'div', { 'class': 'diffs' });
		add(diffs, 'strong', {}, 'Setup differences' + (what || ''));
		if (!list || list.length === 0)
			add(diffs, 'p', {}, 'no differences');
		else
			table(diffs, ['key', 'baseline', 'other'], list.map(function (d) {
				return [d.key, plain(d.baseline), plain(d.other)];
			}), 3);
	}
	/* One comparison (of a file, or of a file at one client count); its setup
	 * differences unless shown once above for all its counts (shared). */
	function comparison(parent, c, shared) {
		var box = add(parent, 'section', { 'class': 'comparison', 'data-file': c.file });
		add(box, 'h3', {}, c.file + ' against ' + baseName + (c.clients ? ' at ' + c.clients + ' client' + (c.clients === 1 ? '' : 's') : ''));
		/* as loadgen compare: a file that cannot be compared gets no verdict */
		if (c.skipped) return add(box, 'p', { 'class': 'note' }, 'Not compared: ' + c.skipped + '.');
		if (!shared) diffsBox(box, c.setup_differences);
		var rows = c.metrics.map(function (m) {
			var dg = m.key === 'throughput_mbps' ? 2 : 1;
			return [m.unit, statText(m.base_mean, m.base_half_ci, m.runs[0], dg),
				statText(m.other_mean, m.other_half_ci, m.runs[1], dg), pctText(m.change_pct),
				pText(m.p_value)];
		});
		rows.push(['runs', String(c.metrics[0].runs[0]), String(c.metrics[0].runs[1]), '', '']);
		table(box, ['', 'baseline', 'other', 'change', 'p-value'], rows);
		var m = c.metrics.filter(function (x) { return x.key === c.decided_by; })[0];
		var v = add(box, 'p', { 'class': 'verdict ' + c.verdict.split(' ')[0], 'data-verdict': c.verdict });
		/* the words of loadgen compare, also for a baseline of 0 */
		var chg = typeof m.change_pct === 'number' ? pctText(m.change_pct) :
			m.other_mean > 0 ? 'up from 0' : '0 in both';
		v.textContent = 'Verdict: ' + c.verdict + (c.verdict === 'no verdict' ?
			' (a t-test needs at least 2 runs in each file; run loadgen with --repeat 5)' :
			' (decided on ' + m.unit + ': ' + chg + ', p ' +
			(m.p_value < 0.0001 ? '' : '= ') + pText(m.p_value) + ', alpha = ' + c.alpha + ')');
		if (c.below_min_effect) add(box, 'p', { 'class': 'note' }, 'Significant but below the minimum effect.');
		if (c.decided_by === 'ops_per_s')
			add(box, 'p', { 'class': 'note' }, 'Throughput is 0 MB/s in both files (no data moved), so ops/s decided.');
	}
	/* The comparisons of each file; a file compared at several client counts has the
	 * same setup differences at each (they are the files'): shown once, before them. */
	function comparisons(parent) {
		var byFile = [];
		data.comparisons.forEach(function (c) {
			var last = byFile[byFile.length - 1];
			if (last && last[0].file === c.file) last.push(c); else byFile.push([c]);
		});
		byFile.forEach(function (list) {
			var ok = list.filter(function (c) { return !c.skipped; }), key = function (c) { return JSON.stringify(c.setup_differences); };
			var shared = ok.length > 1 && ok.every(function (c) { return key(c) === key(ok[0]); });
			if (shared) diffsBox(add(parent, 'section', { 'class': 'comparison', 'data-file': list[0].file }),
				ok[0].setup_differences, ' of ' + list[0].file + ' (the same at each of its ' + ok.length + ' client counts)');
			list.forEach(function (c) { comparison(parent, c, shared); });
		});
	}

	/* --- Throughput of each run --- */

	function runsChart(parent, key, unit, title) {
		var f0 = data.files[0], id = 'runs-' + key, fig, ds = [];
		var digits = key === 'mbps' ? 2 : 1;
		if (!compare && f0.nruns < 2) return;
		fig = figure(parent, id, title);
		if (!compare) {
			var s = f0[key], labels = s.values.map(function (v, i) { return 'run ' + (i + 1); });
			ds.push({ type: 'bar', label: unit + ' per run', data: s.values.slice(),
				backgroundColor: '#56B4E9', borderColor: '#000', borderWidth: 1 });
			/* throughput is never below 0: an interval reaching below is drawn from 0 */
			[['mean', s.mean, []], ['95 % CI low', s.ci95_lo < 0 ? 0 : s.ci95_lo, [6, 3]], ['95 % CI high', s.ci95_hi, [6, 3]]].forEach(function (m) {
				ds.push({ type: 'line', label: m[0], data: labels.map(function () { return m[1]; }),
					borderColor: '#000', borderDash: m[2], pointRadius: 0, borderWidth: 2, fill: false });
			});
			draw(fig, id, 'bar', ds, { x: axis('run', 'category'), y: axis(unit, 'linear', { min: 0 }) }, labels);
			numbers(fig.fig, ['run', unit], s.values.map(function (v, i) { return [labels[i], fmt(v, digits)]; })
				.concat([['mean', fmt(s.mean, digits)], ['95 % CI', fmt(s.ci95_lo, digits) + ' \u2026 ' + fmt(s.ci95_hi, digits)],
					['stddev', fmt(s.stddev, digits)]]));
			add(fig.fig, 'p', { 'class': 'note' }, typeof s.mean !== 'number' ? 'Runs at several client counts: no one' +
				' mean describes them (see throughput against clients).' : 'Mean ' + statText(s.mean,
				(s.ci95_hi - s.ci95_lo) / 2, s.n, digits) + ' ' + unit + ' (95 % confidence interval of the mean, t distribution' +
				(s.ci95_lo < 0 ? '; it reaches below 0 and is drawn from 0' : '') + ').');
			return;
		}
		var names = data.files.map(function (f) { return f.name; });
		ds.push({ type: 'bar', label: '95 % CI of the mean', data: data.files.map(function (f) {
			var s = f[key];
			return s.n >= 2 && typeof s.ci95_lo === 'number' ? [Math.max(0, s.ci95_lo), s.ci95_hi] : null;
		}), backgroundColor: data.files.map(function (f, i) { return style(i).color + '55'; }),
		borderColor: data.files.map(function (f, i) { return style(i).color; }), borderWidth: 1 });
		ds.push({ type: 'scatter', label: 'mean', data: data.files.map(function (f) { return { x: f.name, y: f[key].mean }; }),
			pointStyle: 'line', pointRadius: 30, borderWidth: 3, borderColor: '#000', backgroundColor: '#000' });
		data.files.forEach(function (f, i) {
			var st = style(i);
			ds.push({ type: 'scatter', label: f.name + ' runs', data: f[key].values.map(function (v) { return { x: f.name, y: v }; }),
				pointStyle: st.marker, backgroundColor: st.color, borderColor: st.color, pointRadius: 4 });
		});
		draw(fig, id, 'bar', ds, { x: axis('result file', 'category'), y: axis(unit, 'linear', { min: 0 }) }, names);
		numbers(fig.fig, ['file', 'runs', 'mean', '95 % CI', 'values'], data.files.map(function (f) {
			var s = f[key];
			return [f.name, String(s.n), fmt(s.mean, digits), s.n >= 2 ? fmt(s.ci95_lo, digits) + ' \u2026 ' + fmt(s.ci95_hi, digits) : '-',
				s.values.map(function (v) { return fmt(v, digits); }).join(', ')];
		}));
	}

	/* --- Over time --- */

	function timeChart(parent, key, unit, title, log, markStalls) {
		var ser = lgSeries.overTime(data.files, compare, key, style), id = 'time-' + key, ds = [];
		if (!ser.length) return;
		var fig = figure(parent, id, title);
		ser.forEach(function (s) {
			ds.push(line(s.label, xy(s.t, s.y, log ? posOrNull : null), s.s, { pointRadius: 1.5 }));
		});
		var stalls = [];
		if (markStalls) ser.forEach(function (s) {
			s.t.forEach(function (t, i) { if (s.stall[i] && typeof s.y[i] === 'number') stalls.push({ x: t, y: s.y[i] }); });
		});
		if (stalls.length)
			ds.push({ type: 'scatter', label: 'stall (no op completed, or an op \u2265 the stall threshold)', data: stalls,
				pointStyle: 'triangle', pointRadius: 9, borderWidth: 2, borderColor: '#D55E00',
				backgroundColor: 'rgba(255, 255, 255, 0)' });
		draw(fig, id, 'line', ds, { x: axis('time since the measured phase began (s)', 'linear', { min: 0 }),
			y: axis(unit, log ? 'logarithmic' : 'linear', log ? {} : { beginAtZero: true }) });
		var head = ['interval end (s)'].concat(ser.map(function (s) { return s.label; }));
		/* one row per moment, each series' point at it (by time, as meanOverTime) */
		var step = lgSeries.stepOf(ser[0].t), at = {};
		ser.forEach(function (s, si) {
			s.t.forEach(function (t, i) {
				var k = Math.round(t / step);
				(at[k] = at[k] || { t: t, i: [] }).i[si] = i;
			});
		});
		var rows = Object.keys(at).map(Number).sort(function (a, b) { return a - b; }).map(function (k) {
			return [fmt(at[k].t, 2)].concat(ser.map(function (s, si) {
				var i = at[k].i[si];
				return i === undefined ? '' : fmt(s.y[i]) + (s.stall[i] ? ' (stall)' : '');
			}));
		});
		numbers(fig.fig, head, rows);
		add(fig.fig, 'p', { 'class': 'note' }, 'Measured phase only (warm-up excluded); one point per interval.' +
			(markStalls ? ' Stalls: ' + stalls.length + ' interval(s).' : ''));
	}

	/* --- Latency percentiles --- */

	function pctLabel(p) { return 'p' + String(p); }
	/* One curve per file, or per file and client count when a file has several (a
	 * sweep's counts are never merged: see lgSeries.units). */
	function latencyCharts(parent) {
		var units = lgSeries.units(data.files, compare, style), labels = [];
		units.forEach(function (u) {
			Object.keys(u.g.latency || {}).forEach(function (l) { if (labels.indexOf(l) < 0) labels.push(l); });
		});
		labels.sort(function (a, b) { return a === 'all ops' ? -1 : b === 'all ops' ? 1 : 0; });
		var xs = data.percentiles.map(nines);
		var ticks = { min: 0, max: Math.ceil(xs[xs.length - 1]), ticks: { stepSize: 1,
			callback: function (v) { return ['p0', 'p90', 'p99', 'p99.9', 'p99.99', 'p99.999'][v] || ''; } } };
		labels.forEach(function (l, li) {
			var id = 'latency-' + li, ds = [];
			var fig = figure(parent, id, 'Latency percentiles: ' + l);
			fig.fig.setAttribute('data-op', l);
			units.forEach(function (u) {
				var c = u.g.latency[l];
				if (c) ds.push(line(u.label, xy(xs, c.ms, posOrNull), u.s));
			});
			draw(fig, id, 'line', ds, { x: axis('percentile (spaced by nines: 1/(1 \u2212 p))', 'linear', ticks),
				y: axis('latency (ms, log scale)', 'logarithmic') });
			function col(f) { return units.map(function (u) { return u.g.latency[l] ? f(u.g.latency[l]) : '-'; }); }
			var rows = data.percentiles.map(function (p, i) {
				return [pctLabel(p)].concat(col(function (c) { return fmt(c.ms[i]); }));
			});
			rows.push(['max'].concat(col(function (c) { return fmt(c.max_ms); })));
			rows.push(['mean'].concat(col(function (c) { return fmt(c.mean_ms); })));
			rows.push(['ops'].concat(col(function (c) { return String(c.count); })));
			numbers(fig.fig, ['latency (ms)'].concat(units.map(function (u) { return u.label; })), rows);
		});
	}

	/* --- Clients, hosts, sweeps, system metrics --- */

	function jainText(jain) {
		var j = (jain || []).filter(function (v) { return typeof v === 'number'; });
		if (!j.length) return 'fairness index n/a';
		return 'Jain fairness index ' + j.map(function (v) { return v.toFixed(4); }).join(', ') +
			(j.length > 1 ? ' (per run)' : '');
	}
	/* One series of bars per file and client count (lgSeries.units): a client's MB/s is
	 * the mean over the runs at its count only. The legend names the series; the
	 * fairness indexes, a line per series, go below (a long legend item is clipped). */
	function clientsChart(parent) {
		var units = lgSeries.units(data.files, compare, style).filter(function (u) {
			return u.g.per_client && u.g.per_client.mbps.length;
		});
		if (!units.length) return;
		var id = 'clients', fig = figure(parent, id, 'Per-client throughput, sorted (mean over the runs at each client count)');
		var n = Math.max.apply(null, units.map(function (u) { return u.g.per_client.mbps.length; }));
		var labels = [], ds = [], sorted = [];
		for (var i = 0; i < n; i++) labels.push(String(i + 1));
		/* in a comparison a file's counts share its colour: fainter bars, more clients */
		var counts = [];
		units.forEach(function (u) { if (counts.indexOf(u.g.clients) < 0) counts.push(u.g.clients); });
		counts.sort(function (a, b) { return a - b; });
		units.forEach(function (u) {
			var pc = u.g.per_client, alpha = compare ? ['dd', '99', '66', '33'][counts.indexOf(u.g.clients) % 4] : '99';
			var order = pc.mbps.map(function (v, k) { return [v, pc.id[k]]; })
				.sort(function (a, b) { return b[0] - a[0]; });
			sorted.push(order);
			ds.push({ type: 'bar', label: u.label, data: order.map(function (o) { return o[0]; }),
				backgroundColor: u.s.color + alpha, borderColor: u.s.color, borderWidth: 1 });
		});
		draw(fig, id, 'bar', ds, { x: axis('client rank (fastest first)', 'category'), y: axis('throughput (MB/s)', 'linear', { beginAtZero: true }) }, labels);
		units.forEach(function (u) {
			add(fig.fig, 'p', { 'class': 'note jain' }, u.label + ': ' + jainText(u.g.per_client.jain) + ' (1 = perfectly even).');
		});
		numbers(fig.fig, ['rank'].concat(units.map(function (u) { return u.label + ': client'; }), units.map(function (u) { return u.label + ': MB/s'; })),
			labels.map(function (l, k) {
				return [l].concat(sorted.map(function (o) { return o[k] ? String(o[k][1]) : '-'; }),
					sorted.map(function (o) { return o[k] ? fmt(o[k][0], 2) : '-'; }));
			}));
	}
	function hostValue(h) {
		var v = h.throughput_mbps !== undefined ? h.throughput_mbps : h.throughput;
		if (v && typeof v === 'object') v = v.mean !== undefined ? v.mean : v.throughput_mbps;
		return typeof v === 'number' ? v : null;
	}
	function hostsChart(parent) {
		data.files.forEach(function (f, fi) {
			if (!Array.isArray(f.hosts) || !f.hosts.length) return;
			var id = 'hosts-' + fi, fig = figure(parent, id, 'Per-host throughput: ' + f.name);
			var hs = f.hosts.map(function (h, i) { return { name: String(h.host || h.hostname || 'host ' + i), v: hostValue(h) }; })
				.sort(function (a, b) { return (b.v || 0) - (a.v || 0); });
			draw(fig, id, 'bar', [{ label: 'MB/s', data: hs.map(function (h) { return h.v; }), backgroundColor: style(fi).color + '99',
				borderColor: style(fi).color, borderWidth: 1 }], { x: axis('host', 'category'), y: axis('throughput (MB/s)', 'linear', { beginAtZero: true }) },
				hs.map(function (h) { return h.name; }));
			numbers(fig.fig, ['host', 'MB/s'], hs.map(function (h) { return [h.name, fmt(h.v, 2)]; }));
		});
	}
	function sweepPoints(by) {
		var list = Array.isArray(by) ? by : Object.keys(by || {}).map(function (k) {
			var e = by[k]; return Object.assign({ clients: Number(k) }, e);
		});
		return list.map(function (e) {
			var m = e.throughput_mbps || {};
			var lo = Array.isArray(m.ci95) ? m.ci95[0] : m.ci95_lo, hi = Array.isArray(m.ci95) ? m.ci95[1] : m.ci95_hi;
			return { x: Number(e.clients), mean: m.mean, lo: lo, hi: hi };
		}).filter(function (p) { return isFinite(p.x) && typeof p.mean === 'number'; })
			.sort(function (a, b) { return a.x - b.x; });
	}
	function sweepChart(parent) {
		var files = data.files.filter(function (f) { return sweepPoints(f.by_clients).length; });
		if (!files.length) return;
		var id = 'sweep', fig = figure(parent, id, 'Throughput against clients (mean and 95 % CI)'), ds = [], rows = [], clipped = [];
		files.forEach(function (f) {
			var st = style(data.files.indexOf(f)), pts = sweepPoints(f.by_clients);
			ds.push(line(f.name + ' mean', pts.map(function (p) { return { x: p.x, y: p.mean }; }), st));
			ds.push(line(f.name + ' 95 % CI low', pts.filter(function (p) { return typeof p.lo === 'number'; })
				.map(function (p) { return { x: p.x, y: Math.max(0, p.lo) }; }), st, { borderWidth: 1, pointRadius: 0, borderDash: [3, 3] }));
			ds.push(line(f.name + ' 95 % CI high', pts.filter(function (p) { return typeof p.hi === 'number'; })
				.map(function (p) { return { x: p.x, y: p.hi }; }), st, { borderWidth: 1, pointRadius: 0, borderDash: [3, 3] }));
			pts.forEach(function (p) {
				if (p.lo < 0) clipped.push(p.x + ' (' + f.name + ')');
				rows.push([f.name, String(p.x), fmt(p.mean, 2), fmt(p.lo, 2) + ' \u2026 ' + fmt(p.hi, 2) + (p.lo < 0 ? ' (drawn from 0)' : '')]);
			});
		});
		draw(fig, id, 'line', ds, { x: axis('clients', 'logarithmic', { ticks: { autoSkip: false, callback: function (v) { return Math.log2(v) % 1 === 0 ? String(v) : ''; } } }), y: axis('throughput (MB/s)', 'linear', { beginAtZero: true }) });
		numbers(fig.fig, ['file', 'clients', 'MB/s mean', '95 % CI'], rows);
		if (clipped.length)
			add(fig.fig, 'p', { 'class': 'note clipped' }, 'Throughput is never below 0: where the 95 % interval reaches below it ' +
				'(few runs that vary much), it is drawn from 0 (clients ' + clipped.join(', ') + '); "Numbers" gives it as computed.');
	}
	/* A chart per file and client count (lgSeries.cpuOverTime): each CPU figure the mean
	 * of that count's runs at each moment. */
	function sysChart(parent) {
		lgSeries.cpuOverTime(data.files, compare, style).forEach(function (c, ci) {
			var id = 'sys-' + ci, fig = figure(parent, id, 'CPU over time: ' + c.label +
				(c.runs > 1 ? ' (mean of ' + c.runs + ' runs)' : ''));
			var ds = c.keys.map(function (k, i) { return line(k, xy(c.t, c.y[k]), style(i)); });
			draw(fig, id, 'line', ds, { x: axis('time since the measured phase began (s)', 'linear', { min: 0 }), y: axis('CPU (% of the interval)', 'linear', { beginAtZero: true }) });
			numbers(fig.fig, ['t (s)'].concat(c.keys), c.t.map(function (t, i) {
				return [fmt(t, 2)].concat(c.keys.map(function (k) { return fmt(c.y[k][i]); }));
			}));
		});
	}

	/* --- The page --- */

	function section(title) {
		var s = add(root, 'section');
		add(s, 'h2', {}, title);
		return s;
	}
	function painted(canvas) {
		try {
			var ctx = canvas.getContext('2d'), w = canvas.width, h = canvas.height;
			var px = ctx.getImageData(0, 0, w, h).data, n = 0;
			for (var i = 3; i < px.length; i += 16) if (px[i] !== 0) n++;
			return n;
		} catch (e) {
			return -1;
		}
	}
	function status(builtMs, drawnMs) {
		var s = {
			charts: charts.map(function (c) {
				var o = { id: c.id, datasets: c.datasets, points: c.points, painted: painted(c.canvas),
					labels: c.cfg.data.datasets.map(function (d) { return d.label; }) };
				/* the points of every chart, for tests that check what is drawn */
				o.data = c.cfg.data.datasets.map(function (d) {
					return d.data.map(function (p) { return p !== null && typeof p === 'object' && !Array.isArray(p) ? [p.x, p.y] : p; });
				});
				/* the legend's items: [left, right] in the chart's width (clipped outside) */
				var lg = c.chart && c.chart.legend;
				if (lg && c.cfg.options.plugins.legend.display)
					o.legend = { width: c.chart.width, items: (lg.legendHitBoxes || []).map(function (b) {
						return [Math.round(b.left), Math.round(b.left + b.width)]; }) };
				return o;
			}),
			errors: (window.lgErrors || []).concat(consoleErrors),
			resources: performance.getEntriesByType('resource').length,
			verdicts: (data && data.comparisons || []).filter(function (c) { return !c.skipped; }).map(function (c) {
				return { file: c.file, clients: c.clients, verdict: c.verdict }; }),
			files: data ? data.files.length : 0,
			unmeasured: Array.prototype.map.call(document.querySelectorAll('section.unmeasured'), function (e) {
				return { file: e.getAttribute('data-file'), status: e.getAttribute('data-status') }; }),
			first_chart_top: (function (f) { return f ? Math.round(f.getBoundingClientRect().top + window.scrollY) : null; })(document.querySelector('figure')),
			ms_since_navigation: Math.round(performance.now()),
			text_ms: Math.round(builtMs),
			draw_ms: Math.round(drawnMs)
		};
		var pre = el('pre', { id: 'lg-status', hidden: '', 'data-done': '1' }, JSON.stringify(s));
		document.body.appendChild(pre);
		if (s.errors.length) {
			var e = el('div', { 'class': 'errors' });
			add(e, 'strong', {}, 'Errors while drawing this page:');
			s.errors.forEach(function (m) { add(e, 'p', {}, m); });
			root.insertBefore(e, root.firstChild);
		}
	}

	function main() {
		root = document.getElementById('lg-root');
		data = JSON.parse(document.getElementById('lg-data').textContent);
		/* the charts are of the files that measured something (in their colours) */
		var all = data.files;
		data.files = all.filter(function (f) { return f.measured !== false; });
		baseName = all[0].name;
		compare = all.length > 1;
		add(root, 'p', { 'class': 'sub' }, 'Written by ' + data.generator + ' from ' +
			all.map(function (f) { return f.name; }).join(', ') +
			(compare ? ' (the first is the baseline).' : '.'));
		if (compare) {
			var cs = section('Comparison with the baseline ' + baseName);
			comparisons(cs);
		}
		lgFailed.render(section, all, { add: add, table: table, plain: plain });
		var hs = section(compare ? 'Setups' : 'Setup');
		all.forEach(function (f) { hs.appendChild(header(f, data.files.indexOf(f))); });
		if (!data.files.length) return;
		var tp = section('Throughput'), g = add(tp, 'div', { 'class': 'grid' });
		runsChart(g, 'mbps', 'MB/s', compare ? 'Throughput of every run, all files (MB/s)' : 'Throughput of each run (MB/s)');
		runsChart(g, 'ops_s', 'ops/s', compare ? 'Operations of every run, all files (ops/s)' : 'Operations of each run (ops/s)');
		timeChart(g, 'mbps', 'throughput (MB/s)', 'Throughput over time (MB/s)', false, true);
		timeChart(g, 'ops_s', 'operations (ops/s)', 'Operations over time (ops/s)', false, true);
		sweepChart(g);
		var lt = section('Latency'), g2 = add(lt, 'div', { 'class': 'grid' });
		timeChart(g2, 'p99_ms', 'p99 latency (ms, log scale)', 'p99 latency over time', true, false);
		timeChart(g2, 'max_ms', 'max latency (ms, log scale)', 'Maximum latency over time', true, true);
		latencyCharts(g2);
		var cl = section('Clients and hosts'), g3 = add(cl, 'div', { 'class': 'grid' });
		clientsChart(g3);
		hostsChart(g3);
		var sy = el('div', { 'class': 'grid' });
		sysChart(sy);
		if (sy.childNodes.length) section('System').appendChild(sy);
	}

	function fail(e) {
		(window.lgErrors = window.lgErrors || []).push(String(e && e.stack || e));
	}
	/* Draw the charts in page order, yielding between them so the browser can paint
	 * what is there; then write the status. */
	function drawNext(i, builtMs) {
		if (i >= charts.length) {
			status(builtMs, performance.now() - started);
			return;
		}
		try {
			charts[i].chart = new Chart(charts[i].canvas, charts[i].cfg);
		} catch (e) {
			fail('chart ' + charts[i].id + ': ' + (e && e.message || e));
		}
		setTimeout(function () { drawNext(i + 1, builtMs); }, 0);
	}
	try {
		main();
	} catch (e) {
		fail(e);
	}
	drawNext(0, performance.now() - started);
})();

/* loadgen history trend: draw the trend in #lg-data (schema loadgen-history-trend/1)
 * with Chart.js 3 (Debian's libjs-chart.js).
 *
 * One section per series: a heading saying what was measured where, a chart and tables.
 * The chart's x axis is the series' results in order (category axis, one slot per
 * result; data are given as {x: slot index, y}). Chart.js 3 draws no error bars or
 * vertical lines of its own, so a small plugin of ours draws them from the scales: each
 * result's 95 % interval as an error bar, each segment's mean as a flat dashed line
 * across its results, each change point as a vertical line between the last result
 * before it and its first. A result during which something else was busy is a
 * triangle of another colour, its note in the tooltip. Every text from the data goes
 * into the page through textContent (or is painted on the canvas), never as HTML.
 * When all is drawn, a JSON summary goes into #lg-status (used by tests). */
(function () {
	'use strict';
	var C = { mean: '#000000', ci: '#555555', run: '#999999', busy: '#E69F00',
		segment: '#0072B2', change: '#D55E00' };
	var MINUS = '\u2212';
	var charts = [];
	var changes = {}; /* drawn change points by "series:k": {series, index, label, x, left, right} */
	var consoleErrors = [];
	var root, data;

	var origError = console.error;
	console.error = function () {
		consoleErrors.push(Array.prototype.join.call(arguments, ' '));
		origError.apply(console, arguments);
	};

	function el(tag, attrs, text) {
		var e = document.createElement(tag);
		Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
		if (text !== undefined && text !== null) e.textContent = String(text);
		return e;
	}
	function add(parent, tag, attrs, text) {
		return parent.appendChild(el(tag, attrs, text));
	}
	function isNum(v) { return typeof v === 'number' && isFinite(v); }
	function signed(v, digits) {
		var s = Math.abs(v).toFixed(digits);
		return (v < 0 && Number(s) !== 0 ? MINUS : '') + s;
	}
	function fmt(v) {
		if (!isNum(v)) return '-';
		var a = Math.abs(v);
		if (a !== 0 && a < 0.01) return signed(v, 4);
		return signed(v, a >= 100 ? 1 : 2);
	}
	function pctText(v, plus) {
		if (!isNum(v)) return 'n/a';
		return (plus && v > 0 ? '+' : '') + signed(v, Math.abs(v) < 0.1 ? 2 : 1) + ' %';
	}
	/* "−12.0…−8.5 %" */
	function ciPctText(ci) {
		if (!Array.isArray(ci) || !isNum(ci[0]) || !isNum(ci[1])) return 'n/a';
		var d = Math.abs(ci[0]) < 0.1 && Math.abs(ci[1]) < 0.1 ? 2 : 1;
		return signed(ci[0], d) + '\u2026' + signed(ci[1], d) + ' %';
	}
	function pText(p) {
		if (!isNum(p)) return 'n/a';
		return p < 0.0001 ? '< 0.0001' : String(Number(p.toPrecision(2)));
	}
	function str(v) { return v === null || v === undefined ? '' : String(v); }

	/* A result's tick label: its label, else its kernel, else the day it was stored. */
	function tick(p) {
		if (p.label !== null && p.label !== undefined && String(p.label) !== '') return String(p.label);
		if (p.kernel) return String(p.kernel);
		if (p.stored_at) return String(p.stored_at).slice(0, 10);
		return '#' + str(p.result_id);
	}
	function cpLabel(s, cp) {
		if (cp.label !== null && cp.label !== undefined && String(cp.label) !== '') return String(cp.label);
		var p = s.points[cp.index];
		return p ? tick(p) : '#' + str(cp.result_id);
	}
	/* "6.10: −10.2 % (95 % CI −12.0…−8.5 %), p 0.001" */
	function cpCaption(s, cp) {
		return cpLabel(s, cp) + ': ' + pctText(cp.change_pct, true) + ' (95 % CI ' +
			ciPctText(cp.ci_pct) + '), p ' + pText(cp.p);
	}
	function heading(s) {
		var who = [str(s.workload) || 'workload ?'];
		if (isNum(s.clients)) who.push(s.clients + ' client' + (s.clients === 1 ? '' : 's'));
		if (s.host) who.push('on ' + s.host);
		var where = [];
		if (s.fs_type) where.push(String(s.fs_type));
		if (s.device) where.push('on ' + s.device);
		if (s.mount_options) where.push('(' + s.mount_options + ')');
		return who.join(', ') + (where.length ? ' \u2014 ' + where.join(' ') : '');
	}

	function table(parent, head, rows, cls) {
		var t = add(parent, 'table', cls ? { 'class': cls } : {});
		var tr = add(add(t, 'thead'), 'tr'), tb = add(t, 'tbody');
		head.forEach(function (h, i) { add(tr, 'th', i === 0 ? { 'class': 'l' } : {}, h); });
		rows.forEach(function (r) {
			var row = add(tb, 'tr');
			r.forEach(function (c, i) { add(row, 'td', i === 0 ? { 'class': 'l' } : {}, c); });
		});
		return t;
	}

	/* --- The chart's own drawing: error bars, segment means, change points --- */

	function slotX(chart, i) { return chart.scales.x.getPixelForValue(i); }
	/* The x pixel of a change point: halfway between the slot of its index and the one
	 * before (half a slot to the left of the first result). null when out of range. */
	function changeX(chart, s, cp) {
		if (!isNum(cp.index) || cp.index < 0 || cp.index >= s.points.length) return null;
		return slotX(chart, cp.index - 0.5);
	}
	/* The plugin of series s (index si): a closure, not plugin options, which Chart.js
	 * would wrap and resolve. */
	function trendPlugin(s, si) {
		return {
			id: 'lgTrend',
			beforeDatasetsDraw: function (chart) {
				var ctx = chart.ctx, a = chart.chartArea;
				var y = chart.scales.y;
				ctx.save();
				ctx.beginPath();
				ctx.rect(a.left, a.top, a.right - a.left, a.bottom - a.top);
				ctx.clip();
				/* each segment's mean: a flat dashed line across its results */
				ctx.strokeStyle = C.segment;
				ctx.lineWidth = 2;
				ctx.setLineDash([8, 4]);
				s.segments.forEach(function (g) {
					if (!isNum(g.mean) || !isNum(g.from) || !isNum(g.to)) return;
					var yy = y.getPixelForValue(g.mean);
					ctx.beginPath();
					ctx.moveTo(slotX(chart, g.from - 0.45), yy);
					ctx.lineTo(slotX(chart, g.to + 0.45), yy);
					ctx.stroke();
				});
				/* each change point: a vertical line before its first result */
				ctx.strokeStyle = C.change;
				ctx.setLineDash([4, 3]);
				s.change_points.forEach(function (cp) {
					var x = changeX(chart, s, cp);
					if (x === null) return;
					ctx.beginPath();
					ctx.moveTo(x, a.top);
					ctx.lineTo(x, a.bottom);
					ctx.stroke();
				});
				/* each result's 95 % interval */
				ctx.strokeStyle = C.ci;
				ctx.lineWidth = 1.5;
				ctx.setLineDash([]);
				s.points.forEach(function (p, i) {
					if (!Array.isArray(p.ci95) || !isNum(p.ci95[0]) || !isNum(p.ci95[1])) return;
					var x = slotX(chart, i), lo = y.getPixelForValue(p.ci95[0]), hi = y.getPixelForValue(p.ci95[1]);
					ctx.beginPath();
					ctx.moveTo(x, lo); ctx.lineTo(x, hi);
					ctx.moveTo(x - 4, lo); ctx.lineTo(x + 4, lo);
					ctx.moveTo(x - 4, hi); ctx.lineTo(x + 4, hi);
					ctx.stroke();
				});
				ctx.restore();
			},
			afterDatasetsDraw: function (chart) {
				/* the change points' short captions on top, staggered so two close ones
				 * stay readable */
				var ctx = chart.ctx, a = chart.chartArea;
				ctx.save();
				ctx.font = '600 12px system-ui, sans-serif';
				ctx.textBaseline = 'top';
				s.change_points.forEach(function (cp, k) {
					var x = changeX(chart, s, cp);
					if (x === null) return;
					var text = cpLabel(s, cp) + ' ' + pctText(cp.change_pct, true);
					var w = ctx.measureText(text).width + 6, yy = a.top + 2 + (k % 2) * 16;
					var left = Math.min(Math.max(x + 3, a.left), a.right - w);
					ctx.fillStyle = 'rgba(255,255,255,0.85)';
					ctx.fillRect(left, yy, w, 15);
					ctx.fillStyle = C.change;
					ctx.fillText(text, left + 3, yy + 1);
					noteDrawn(chart, si, s, k, cp, x);
				});
				ctx.restore();
			}
		};
	}

	/* --- One series --- */

	function yRange(s) {
		var lo = Infinity, hi = -Infinity;
		function see(v) { if (isNum(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); } }
		s.points.forEach(function (p) {
			see(p.mean);
			(Array.isArray(p.ci95) ? p.ci95 : []).forEach(see);
			(Array.isArray(p.values) ? p.values : []).forEach(see);
		});
		s.segments.forEach(function (g) { see(g.mean); });
		return lo <= hi ? { lo: lo, hi: hi } : null;
	}

	function chartOf(sec, s, si) {
		var n = s.points.length, unit = str(data.unit);
		var labels = s.points.map(tick);
		var mean = [], runs = [], styles = [], colours = [], radii = [];
		s.points.forEach(function (p, i) {
			if (isNum(p.mean)) {
				mean.push({ x: i, y: p.mean });
				styles.push(p.busy ? 'triangle' : 'circle');
				colours.push(p.busy ? C.busy : C.mean);
				radii.push(p.busy ? 7 : 4);
			}
			(Array.isArray(p.values) ? p.values : []).forEach(function (v) {
				if (isNum(v)) runs.push({ x: i, y: v });
			});
		});
		var datasets = [
			{ label: 'mean of the runs (' + (unit || data.metric) + ')', data: mean, borderColor: C.mean,
				backgroundColor: C.mean, pointBackgroundColor: colours, pointBorderColor: colours,
				pointStyle: styles, pointRadius: radii, pointHoverRadius: radii, borderWidth: 1.5,
				fill: false, lgLegend: { pointStyle: 'circle', fillStyle: C.mean, strokeStyle: C.mean } },
			{ label: 'each run', data: runs, showLine: false, pointRadius: 2, pointHoverRadius: 3,
				borderColor: C.run, backgroundColor: C.run, pointStyle: 'circle' },
		];
		/* legend entries for what the plugin draws, when it draws it (no data, so
		 * nothing to hover) */
		function legendOnly(on, label, colour, style) {
			if (on) datasets.push({ label: label, data: [], borderColor: colour, backgroundColor: colour,
				pointStyle: style || 'line' });
		}
		legendOnly(s.points.some(function (p) { return Array.isArray(p.ci95); }), '95 % interval', C.ci);
		legendOnly(s.segments.length, 'segment mean', C.segment);
		legendOnly(s.change_points.length, 'change point', C.change);
		legendOnly(s.points.some(function (p) { return p.busy; }), 'something else was busy', C.busy,
			'triangle');
		var r = yRange(s), pad = r ? Math.max((r.hi - r.lo) * 0.08, Math.abs(r.hi) * 0.01, 1e-9) : 1;
		var fig = add(sec, 'figure', { id: 'trend-' + si, 'data-chart': 'trend-' + si });
		add(fig, 'figcaption', {}, str(data.metric) + (unit ? ' (' + unit + ')' : '') + ' of ' + n +
			' result' + (n === 1 ? '' : 's') + ', ' + (data.order === 'version' ? 'in kernel version order' : 'in the order stored'));
		var box = add(fig, 'div', { 'class': 'chartbox trend' });
		var canvas = add(box, 'canvas', { role: 'img', 'aria-label': heading(s) });
		var cfg = {
			type: 'line',
			data: { labels: labels, datasets: datasets },
			plugins: [trendPlugin(s, si)],
			options: {
				animation: false, responsive: true, maintainAspectRatio: false, parsing: false,
				layout: { padding: { top: 4 } },
				interaction: { mode: 'nearest', axis: 'x', intersect: false },
				scales: {
					x: { type: 'category', offset: true, title: { display: true,
						text: 'result (' + (data.order === 'version' ? 'by kernel version' : 'in the order stored') + ')' },
						ticks: { autoSkip: true, maxRotation: 50 }, grid: { display: false } },
					y: { type: 'linear', title: { display: true, text: str(data.metric) + (unit ? ' (' + unit + ')' : '') },
						suggestedMin: r ? r.lo - pad : undefined, suggestedMax: r ? r.hi + pad : undefined }
				},
				plugins: {
					legend: { labels: { usePointStyle: true, boxHeight: 7,
						generateLabels: function (chart) {
							var base = Chart.defaults.plugins.legend.labels.generateLabels(chart);
							return base.map(function (item) {
								var d = chart.data.datasets[item.datasetIndex];
								if (d.lgLegend) Object.keys(d.lgLegend).forEach(function (k) { item[k] = d.lgLegend[k]; });
								return item;
							});
						} },
						onClick: function () {} },
					tooltip: {
						filter: function (item, i) { return i === 0; },
						callbacks: {
							title: function (items) { return items.length ? labels[Math.round(items[0].parsed.x)] : ''; },
							label: function (item) { return tipLines(s.points[Math.round(item.parsed.x)], unit); }
						}
					}
				}
			}
		};
		charts.push({ id: 'trend-' + si, cfg: cfg, canvas: canvas, points: mean.length, series: s });
	}

	/* The tooltip of one result: mean and interval, runs, where and when, busy. */
	function tipLines(p, unit) {
		if (!p) return '';
		var u = unit ? ' ' + unit : '', lines = [];
		lines.push('mean ' + fmt(p.mean) + u + (Array.isArray(p.ci95) ? ' (95 % CI ' + fmt(p.ci95[0]) + '\u2026' +
			fmt(p.ci95[1]) + ')' : ''));
		lines.push(str(p.runs) + ' run' + (p.runs === 1 ? '' : 's') + (Array.isArray(p.values) && p.values.length ?
			': ' + p.values.map(fmt).join(', ') : ''));
		if (p.kernel) lines.push('kernel ' + p.kernel);
		lines.push('result ' + str(p.result_id) + ', stored ' + str(p.stored_at));
		if (p.busy) lines.push('busy: ' + p.busy);
		return lines;
	}

	/* Where a change point was drawn, against the results on either side (for tests). */
	function noteDrawn(chart, si, s, k, cp, x) {
		changes[si + ':' + k] = { series: si, index: cp.index, label: cpLabel(s, cp), x: x,
			left: cp.index > 0 ? slotX(chart, cp.index - 1) : null, right: slotX(chart, cp.index) };
	}

	function tables(sec, s) {
		if (s.change_points.length) {
			add(sec, 'h3', {}, 'Change points');
			var ul = add(sec, 'ul', { 'class': 'changes' });
			s.change_points.forEach(function (cp) { add(ul, 'li', { 'class': 'change' }, cpCaption(s, cp)); });
			table(sec, ['first result after', 'result id', 'mean before', 'mean after', 'change',
				'95 % CI', 'p'], s.change_points.map(function (cp) {
				return [cpLabel(s, cp), str(cp.result_id), fmt(cp.before_mean), fmt(cp.after_mean),
					pctText(cp.change_pct, true), ciPctText(cp.ci_pct), pText(cp.p)];
			}), 'changes');
		} else {
			add(sec, 'p', { 'class': 'note' }, s.points.length < 2 ? 'One result: no change point can be found yet.' :
				'No change point: the results are one segment.');
		}
		add(sec, 'h3', {}, 'Segments');
		table(sec, ['results', 'n', 'mean', 'drift (% per result)', '95 % CI', 'p', 'verdict'],
			s.segments.map(function (g) {
				var tr = g.trend || {}, a = s.points[g.from], b = s.points[g.to];
				var n = isNum(g.from) && isNum(g.to) ? g.to - g.from + 1 : '-';
				return [(a ? tick(a) : '?') + (g.to !== g.from ? ' \u2026 ' + (b ? tick(b) : '?') : ''), String(n),
					fmt(g.mean), g.trend ? pctText(tr.slope_pct, true) : 'n/a',
					g.trend ? ciPctText(tr.ci_pct) : 'n/a', g.trend ? pText(tr.p) : 'n/a',
					!g.trend ? 'too few results' : tr.significant ? 'drift' : 'steady'];
			}), 'segments');
		var d = add(sec, 'details');
		add(d, 'summary', {}, 'Numbers of every result');
		table(d, ['result', 'id', 'kernel', 'stored', 'mean', '95 % CI', 'runs', 'busy'],
			s.points.map(function (p) {
				return [tick(p), str(p.result_id), str(p.kernel), str(p.stored_at), fmt(p.mean),
					Array.isArray(p.ci95) ? fmt(p.ci95[0]) + '\u2026' + fmt(p.ci95[1]) : 'n/a',
					str(p.runs), str(p.busy)];
			}));
	}

	function series(s, si) {
		s.points = Array.isArray(s.points) ? s.points : [];
		s.change_points = Array.isArray(s.change_points) ? s.change_points : [];
		s.segments = Array.isArray(s.segments) ? s.segments : [];
		var sec = add(root, 'section', { 'class': 'series', 'data-series': String(si) });
		add(sec, 'h2', {}, heading(s));
		if (!s.points.length) {
			add(sec, 'p', { 'class': 'note empty' }, 'No results in this series.');
			return;
		}
		var busy = s.points.filter(function (p) { return p.busy; }).length;
		if (busy)
			add(sec, 'p', { 'class': 'note' }, busy + ' result' + (busy === 1 ? '' : 's') +
				' measured while something else was busy (triangles; the tooltip says what).');
		chartOf(sec, s, si);
		tables(sec, s);
	}

	/* --- The page --- */

	function painted(canvas) {
		try {
			var ctx = canvas.getContext('2d'), px = ctx.getImageData(0, 0, canvas.width, canvas.height).data, n = 0;
			for (var i = 3; i < px.length; i += 16) if (px[i] !== 0) n++;
			return n;
		} catch (e) {
			return -1;
		}
	}
	/* The tooltip Chart.js shows over the first busy result of each chart, opened and
	 * closed again by hand (for tests: the note must be in it). */
	function busyTips() {
		var out = [];
		charts.forEach(function (c) {
			var ch = c.chart, s = c.series, k = -1;
			if (!ch || !ch.tooltip || !ch.tooltip.setActiveElements) return;
			s.points.some(function (p, i) { if (p.busy) { k = i; return true; } return false; });
			var j = c.cfg.data.datasets[0].data.findIndex(function (d) { return d.x === k; });
			if (j < 0) return;
			var el0 = ch.getDatasetMeta(0).data[j];
			ch.tooltip.setActiveElements([{ datasetIndex: 0, index: j }], { x: el0.x, y: el0.y });
			ch.update();
			out.push({ id: c.id, index: k, title: ch.tooltip.title,
				lines: (ch.tooltip.body || []).reduce(function (a, b) { return a.concat(b.lines); }, []) });
			ch.tooltip.setActiveElements([], { x: 0, y: 0 });
			ch.update();
		});
		return out;
	}
	function status() {
		var s = {
			tooltips: busyTips(),
			charts: charts.map(function (c) {
				return { id: c.id, points: c.points, painted: painted(c.canvas),
					datasets: c.cfg.data.datasets.length };
			}),
			changes: Object.keys(changes).map(function (k) { return changes[k]; }),
			series: data && Array.isArray(data.series) ? data.series.length : 0,
			errors: (window.lgErrors || []).concat(consoleErrors),
			resources: performance.getEntriesByType('resource').length
		};
		document.body.appendChild(el('pre', { id: 'lg-status', hidden: '', 'data-done': '1' }, JSON.stringify(s)));
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
		var list = Array.isArray(data.series) ? data.series : [];
		add(root, 'p', { 'class': 'sub' }, str(data.metric) + (data.unit ? ' (' + data.unit + ')' : '') +
			' from ' + (data.db ? data.db : 'the history') + ', ' + list.length + ' series, ' +
			(data.order === 'version' ? 'results in kernel version order.' : 'results in the order stored.'));
		if (!list.length) {
			add(root, 'p', { 'class': 'note empty' }, 'No results: the history holds no series with this metric ' +
				'(store results with loadgen history add).');
			return;
		}
		list.forEach(series);
	}

	function fail(e) {
		(window.lgErrors = window.lgErrors || []).push(String(e && e.stack || e));
	}
	try {
		main();
	} catch (e) {
		fail(e);
	}
	charts.forEach(function (c) {
		try {
			c.chart = new Chart(c.canvas, c.cfg);
		} catch (e) {
			fail('chart ' + c.id + ': ' + (e && e.message || e));
		}
	});
	status();
})();

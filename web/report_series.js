/* loadgen report: the series of the charts over time and of latency percentiles.
 *
 * A file's runs at one client count are one unit: a file of one count is one unit
 * named after the file (the page as it always was); a sweep's file is one unit per
 * client count ("sw.json, 4 clients"), never an average or merge across counts, which
 * would describe no workload. In a comparison a unit keeps its file's colour and takes
 * the dash pattern and marker of its client count, the same count alike in every
 * file; in a single file each count has a style of its own. Loaded before report.js,
 * which draws; these functions only pick and average. */
var lgSeries = (function () {
	'use strict';

	function has(arr) { return Array.isArray(arr) && arr.some(function (v) { return typeof v === 'number'; }); }

	/* The interval of a series of entry end times: their median distance (the first end
	 * time when there is one entry). */
	function stepOf(ts) {
		var gaps = [];
		for (var i = 1; i < ts.length; i++) gaps.push(ts[i] - ts[i - 1]);
		gaps.sort(function (a, b) { return a - b; });
		return gaps.length ? gaps[gaps.length >> 1] || 1 : ts[0] || 1;
	}
	/* The runs' mean at each moment. Entries are matched by when they end, rounded to the
	 * interval, not by their index: a run whose master woke late has one long entry where
	 * the others have several, and its later entries belong with theirs at the same time.
	 * The interval is the run's own (--interval); inferred from the gaps only for files
	 * that do not say it (a slow machine's gaps are not the interval). A run's last entry
	 * ends with the run, anywhere in an interval: runs of 0.5 s with 1 s intervals end at
	 * 0.4999 s and 0.5009 s, on both sides of the rounding. So two neighbouring bins that
	 * no run has entries in both of, and whose times are less than half an interval
	 * apart, are one moment. */
	function meanOverTime(runs, key, interval) {
		var longest = runs.reduce(function (a, r) { return r.series.t.length > a.series.t.length ? r : a; });
		var step = interval > 0 ? interval : stepOf(longest.series.t), bins = {};
		runs.forEach(function (r, ri) {
			r.series.t.forEach(function (t, i) {
				if (typeof t !== 'number') return;
				var k = Math.round(t / step), b = bins[k] || (bins[k] = { t: 0, n: 0, y: 0, ny: 0, stall: false, runs: [] });
				var y = r.series[key][i];
				b.t += t;
				b.n++;
				if (typeof y === 'number') { b.y += y; b.ny++; }
				b.stall = b.stall || !!r.series.stall[i];
				if (b.runs.indexOf(ri) < 0) b.runs.push(ri);
			});
		});
		var keys = Object.keys(bins).map(Number).sort(function (a, b) { return a - b; });
		keys = keys.filter(function (k, i) {
			var a = i ? bins[keys[i - 1]] : null, b = bins[k];
			if (!a || keys[i - 1] !== k - 1 || Math.abs(b.t / b.n - a.t / a.n) >= step / 2 ||
			    b.runs.some(function (ri) { return a.runs.indexOf(ri) >= 0; }))
				return true;
			a.t += b.t; a.n += b.n; a.y += b.y; a.ny += b.ny; a.stall = a.stall || b.stall;
			a.runs = a.runs.concat(b.runs);
			bins[k] = a; /* a third neighbour compares with the merged bin */
			return false;
		});
		return {
			t: keys.map(function (k) { return bins[k].t / bins[k].n; }),
			y: keys.map(function (k) { return bins[k].ny ? bins[k].y / bins[k].ny : null; }),
			stall: keys.map(function (k) { return bins[k].stall; })
		};
	}

	/* The units of files: [{f, g (the group: clients, runs, latency), label, s (style),
	 * runs}]; style(i) is the page's i-th colour, dash pattern and marker. */
	function units(files, compare, style) {
		var counts = [], out = [];
		files.forEach(function (f) {
			if (f.groups.length > 1) f.groups.forEach(function (g) { if (counts.indexOf(g.clients) < 0) counts.push(g.clients); });
		});
		counts.sort(function (a, b) { return a - b; });
		files.forEach(function (f, fi) {
			var multi = f.groups.length > 1;
			f.groups.forEach(function (g) {
				var c = style(counts.indexOf(g.clients)), s = !multi ? style(fi) :
					compare ? { color: style(fi).color, dash: c.dash, marker: c.marker } : c;
				out.push({ f: f, g: g, s: s, runs: g.runs.map(function (i) { return f.runs[i]; }),
					label: multi ? f.name + ', ' + g.clients + ' client' + (g.clients === 1 ? '' : 's') : f.name });
			});
		});
		return out;
	}

	/* The series drawn over time: each run of a single file at one client count;
	 * otherwise each unit, the mean over its runs at each moment when it has several. */
	function overTime(files, compare, key, style) {
		var out = [];
		if (!compare && files[0].groups.length === 1) {
			files[0].runs.forEach(function (r, ri) {
				if (has(r.series[key])) out.push({ label: files[0].nruns > 1 ? 'run ' + (ri + 1) : files[0].name, s: style(ri),
					t: r.series.t, y: r.series[key], stall: r.series.stall });
			});
			return out;
		}
		units(files, compare, style).forEach(function (u) {
			var runs = u.runs.filter(function (r) { return has(r.series[key]); });
			if (!runs.length) return;
			var m = meanOverTime(runs, key, u.f.interval_s);
			out.push({ label: u.label + (runs.length > 1 ? ' (mean of ' + runs.length + ' runs)' : ''), s: u.s,
				t: m.t, y: m.y, stall: m.stall });
		});
		return out;
	}

	/* CPU % of an interval's sys entry: the monitor's gauges "cpu.user_pct", ... (or an
	 * object cpu: {user, ...}). */
	function cpuOf(e) {
		if (!e) return null;
		if (e.cpu) return e.cpu;
		var g = e.gauges || {}, out = null;
		Object.keys(g).forEach(function (k) {
			var m = /^cpu\.(\w+)_pct$/.exec(k);
			if (m && typeof g[k] === 'number') { out = out || {}; out[m[1]] = g[k]; }
		});
		return out;
	}
	/* CPU over time, one entry per unit whose runs have CPU figures: {label, s, runs (how
	 * many had them), keys, t, y: {key: [...]}}, each key the mean of the unit's runs at
	 * each moment (matched by time, as meanOverTime): every run counts, runs at another
	 * client count never. */
	function cpuOverTime(files, compare, style) {
		var out = [];
		units(files, compare, style).forEach(function (u) {
			var keys = [], runs = [];
			u.runs.forEach(function (r) {
				var cpu = Array.isArray(r.series.sys) ? r.series.sys.map(cpuOf) : [], any = false;
				cpu.forEach(function (c) {
					Object.keys(c || {}).forEach(function (k) {
						if (typeof c[k] !== 'number') return;
						any = true;
						if (keys.indexOf(k) < 0) keys.push(k);
					});
				});
				if (any) runs.push({ series: r.series, cpu: cpu });
			});
			if (!runs.length) return;
			var e = { label: u.label, s: u.s, runs: runs.length, keys: keys, t: [], y: {} };
			keys.forEach(function (k) {
				var m = meanOverTime(runs.map(function (x) {
					return { series: { t: x.series.t, stall: x.series.stall,
						v: x.cpu.map(function (c) { return c && typeof c[k] === 'number' ? c[k] : null; }) } };
				}), 'v', u.f.interval_s);
				e.t = m.t;
				e.y[k] = m.y;
			});
			out.push(e);
		});
		return out;
	}

	return { stepOf: stepOf, units: units, overTime: overTime, cpuOverTime: cpuOverTime };
})();

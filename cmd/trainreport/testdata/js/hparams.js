// The HParams page (browser_hparams_test.go). Every check computes what
// the page should show from the page's data (the JSON render/hparams.go
// wrote), never from the chart's own options, and compares it with what
// ECharts drew: the lines' points in pixels, the matrix's points, the
// table's rows and columns. Each returns a list of problems, [] when none.
({
	main() { return document.querySelector('main.page[data-page="hparams"]'); },

	// chart tells whether the page is shown with its charts drawn.
	chart() {
		const main = document.querySelector('main.page[data-page="hparams"]');
		if (!main || main.hidden) return false;
		const p = echarts.getInstanceByDom(main.querySelector('.hparams-chart'));
		const m = echarts.getInstanceByDom(main.querySelector('.hparams-matrix'));
		return !!p && !!m;
	},

	// truth returns the page's data as columns: key, name, metric, the raw
	// values per session, numbers (null when missing or non-finite) and
	// whether the values differ between sessions.
	truth() {
		const main = document.querySelector('main.page[data-page="hparams"]');
		const data = JSON.parse(main.querySelector('script.hparams-data').textContent);
		const num = v => {
			if (v == null) return null;
			const n = typeof v === 'number' ? v : Number(v);
			return Number.isFinite(n) ? n : null;
		};
		const cols = [];
		const add = (c, i, metric) => {
			const raw = data.sessions.map(s => (metric ? s.metrics : s.hparams)[i]);
			const distinct = new Set(raw.map(v => v == null ? '\u0000null' : String(v)));
			cols.push({key: (metric ? 'm' : 'h') + i, name: c.name, metric, numeric: metric || c.numeric, raw,
				nums: raw.map(num), varies: distinct.size > 1});
		};
		data.hparams.forEach((c, i) => add(c, i, false));
		data.metrics.forEach((c, i) => add(c, i, true));
		// A name both a hyperparameter's and a metric's is written with
		// its kind wherever the page names the column.
		const hp = new Set(data.hparams.map(c => c.name));
		const both = new Set(data.metrics.map(c => c.name).filter(n => hp.has(n)));
		cols.forEach(c => { c.label = both.has(c.name) ? `${c.name} (${c.metric ? 'metric' : 'hparam'})` : c.name; });
		return {data, cols};
	},

	// texts returns every text the chart draws, a line at a time (zrender's
	// tspans, without those hidden), with its box on the canvas.
	texts(inst) {
		const out = [];
		for (const el of inst.getZr().storage.getDisplayList(true)) {
			if (el.type !== 'tspan' || el.invisible || !el.style || el.style.text == null || el.style.text === '' || el.style.opacity === 0) continue;
			const r = el.getBoundingRect().clone();
			if (el.transform) r.applyTransform(el.transform);
			out.push({text: String(el.style.text), x: r.x, y: r.y, w: r.width, h: r.height});
		}
		return out;
	},

	// crowding returns the problems of a chart's texts: two on one line
	// closer than 8 px (labels "0.13" and "0.135" a few pixels apart read
	// as "0.130.135"), overlapping ones, and any outside the canvas.
	crowding(what, inst) {
		const texts = this.texts(inst), W = inst.getWidth(), H = inst.getHeight(), problems = [];
		for (const a of texts) {
			if (a.x < -1 || a.y < -1 || a.x + a.w > W + 1 || a.y + a.h > H + 1) problems.push(`${what}: "${a.text}" at ${a.x.toFixed(0)},${a.y.toFixed(0)} (${a.w.toFixed(0)}x${a.h.toFixed(0)}) outside the ${W}x${H} canvas`);
		}
		for (let i = 0; i < texts.length; i++) {
			for (let j = i + 1; j < texts.length; j++) {
				const a = texts[i], b = texts[j];
				const dy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
				const gap = Math.max(a.x, b.x) - Math.min(a.x + a.w, b.x + b.w);
				if (dy > 2 && gap < 8) problems.push(`${what}: "${a.text}" (x ${a.x.toFixed(1)}..${(a.x + a.w).toFixed(1)}) and "${b.text}" (x ${b.x.toFixed(1)}..${(b.x + b.w).toFixed(1)}) ${gap < 0 ? 'overlap' : gap.toFixed(1) + ' px apart'}`);
			}
		}
		return problems;
	},

	// labels checks what the charts write: no two texts crowd each other
	// or leave the canvas; every parallel axis and every matrix row and
	// column is named whole by its column's label (its kind added when a
	// hyperparameter and a metric share a name), each line of it drawn;
	// every category of a matrix axis of 40 values or fewer has its tick
	// label drawn; the table's heads are the labels too.
	async labels() {
		await this.settle();
		const main = this.main();
		const {cols} = this.truth();
		const byKey = new Map(cols.map(c => [c.key, c]));
		const par = echarts.getInstanceByDom(main.querySelector('.hparams-chart'));
		const mat = echarts.getInstanceByDom(main.querySelector('.hparams-matrix'));
		const problems = [...this.crowding('parallel', par), ...this.crowding('matrix', mat)];
		const drawn = inst => new Set(this.texts(inst).map(t => t.text));
		const pt = drawn(par), mt = drawn(mat);
		const logName = (c, name) => c.label + (/ \(log\)$/.test(name.replace(/\n/g, '')) && !/ \(log\)$/.test(c.label) ? ' (log)' : '');
		const whole = (what, name, want, texts) => {
			// Lines break after a separator: joined, they are the label.
			if (name.replace(/\n/g, '') !== want) problems.push(`${what}: named ${JSON.stringify(name)}, want ${JSON.stringify(want)} whole`);
			for (const line of name.split('\n')) if (!texts.has(line)) problems.push(`${what}: name line "${line}" not drawn`);
		};
		par.getOption().parallelAxis.forEach(a => {
			const c = byKey.get(String(a.id).replace(/^hp-/, ''));
			whole(`parallel axis ${c.key}`, a.name, logName(c, a.name), pt);
		});
		const opt = mat.getOption();
		const model = mat.getModel();
		const seen = new Set();
		opt.series.forEach((sr, k) => {
			const hp = byKey.get(sr.hp), x = opt.xAxis[k];
			whole(`matrix column ${hp.key}`, x.name, logName(hp, x.name), mt);
			if (!seen.has(sr.metric)) {
				seen.add(sr.metric);
				const m = byKey.get(sr.metric);
				const title = (opt.graphic && opt.graphic[0] && opt.graphic[0].elements || []).map(e => e.style.text).find(t => t.replace(/\n/g, '') === m.label);
				if (!title) problems.push(`matrix row ${m.key}: no title ${JSON.stringify(m.label)}`);
				else for (const line of title.split('\n')) if (!mt.has(line)) problems.push(`matrix row ${m.key}: title line "${line}" not drawn`);
			}
			if (hp.numeric || !x.data || x.data.length > 40) return;
			// The tick labels drawn under the chart: every category's.
			const rect = model.getComponent('grid', k).coordinateSystem.getRect();
			// Not the axis' name nor the next row's title, also below it.
			const nameLines = new Set(x.name.split('\n'));
			for (const e of (opt.graphic && opt.graphic[0] && opt.graphic[0].elements || [])) for (const l of e.style.text.split('\n')) nameLines.add(l);
			const under = this.texts(mat).filter(t => t.x + t.w > rect.x - 2 && t.x < rect.x + rect.width + 2 &&
				t.y >= rect.y + rect.height - 1 && t.y < rect.y + rect.height + 80 && !nameLines.has(t.text));
			if (under.length !== x.data.length) problems.push(`matrix ${sr.metric} x ${hp.key}: ${under.length} category labels drawn (${under.map(t => t.text)}), want ${x.data.length} (${x.data})`);
		});
		const heads = [...main.querySelector('table.hparams').tHead.rows[0].cells].slice(2).map(c => c.textContent);
		if (heads.join('\n') !== cols.map(c => c.label).join('\n')) problems.push(`table heads ${JSON.stringify(heads)}, want ${JSON.stringify(cols.map(c => c.label))}`);
		return problems.slice(0, 30);
	},

	// shownKeys returns the keys of the columns the chart draws an axis for.
	shownKeys(inst) {
		return inst.getOption().parallelAxis.map(a => String(a.id).replace(/^hp-/, ''));
	},

	// settle waits for the page to have applied its state and drawn both
	// charts for it: a change applies at the page's next frame (app.js's
	// applySoon asks for it first, so it runs before ours), and the table's
	// columns with it; then the charts are drawn for that state.
	async settle() {
		await wait.frame();
		await awaitReady();
		const divs = [...this.main().querySelectorAll('.hparams-chart, .hparams-matrix')];
		await wait.until(() => divs.every(d => wait.drawn(d)), "the hparams charts drawn");
	},

	// geometry checks that every session's line passes through every axis,
	// inside the axis, at its value's place: for a numeric column, linear
	// in the value (in its logarithm for positive values spanning two
	// orders of magnitude or more) between the smallest and largest of all sessions, which
	// sit near the axis' ends; a session without a finite value at the
	// bottom, below every value; for a categorical column, at evenly spaced
	// places in sorted order, missing first. Adjacent axes stand at least
	// 90 px apart.
	async geometry() {
		await this.settle();
		const main = this.main();
		const {data, cols} = this.truth();
		const byKey = new Map(cols.map(c => [c.key, c]));
		const inst = echarts.getInstanceByDom(main.querySelector('.hparams-chart'));
		const series = inst.getModel().getSeriesByIndex(0);
		const list = series.getData();
		const cs = series.coordinateSystem;
		const rect = cs.getRect();
		const keys = this.shownKeys(inst);
		const problems = [];
		if (list.count() !== data.sessions.length) problems.push(`${list.count()} lines for ${data.sessions.length} sessions`);
		const xs = keys.map((_, d) => cs.getAxisLayout(cs.dimensions[d]).position[0]);
		for (let d = 1; d < xs.length; d++) {
			if (xs[d] - xs[d - 1] < 90) { problems.push(`axes ${d - 1} and ${d} are ${xs[d] - xs[d - 1]} px apart`); break; }
		}
		// t[d][s]: the drawn point's place along axis d, 0 at the bottom, 1 at the top.
		const t = keys.map(() => []);
		for (let i = 0; i < list.count(); i++) {
			const s = list.getRawIndex(i);
			const el = list.getItemGraphicEl(i);
			const pts = el && el.shape && el.shape.points;
			if (!pts || pts.length !== keys.length) { problems.push(`session ${s}: ${pts ? pts.length : 0} points for ${keys.length} axes`); continue; }
			pts.forEach((p, d) => {
				if (Math.abs(p[0] - xs[d]) > 0.5 || p[1] < rect.y - 0.5 || p[1] > rect.y + rect.height + 0.5) {
					problems.push(`session ${s} axis ${keys[d]}: point ${p} outside the axis (x ${xs[d]}, y ${rect.y}..${rect.y + rect.height})`);
				}
				t[d][s] = (rect.y + rect.height - p[1]) / rect.height;
			});
		}
		const near = (a, b) => Math.abs(a - b) < 0.004;
		keys.forEach((key, d) => {
			const col = byKey.get(key);
			const at = t[d];
			const n = data.sessions.length;
			if (col.numeric) {
				let lo = null, hi = null;
				for (let s = 0; s < n; s++) {
					const v = col.nums[s];
					if (v == null) continue;
					if (lo == null || v < col.nums[lo]) lo = s;
					if (hi == null || v > col.nums[hi]) hi = s;
				}
				const missing = col.nums.map((v, s) => v == null ? s : -1).filter(s => s >= 0);
				missing.forEach(s => { if (!near(at[s], 0)) problems.push(`${col.name}: session ${s} has no finite value but sits at ${at[s]}, not at the bottom`); });
				if (lo == null) return;
				// Positive values over two orders of magnitude sit on a
				// logarithmic axis, which its name says.
				const log = col.nums[lo] > 0 && col.nums[hi] / col.nums[lo] >= 100;
				const name = inst.getOption().parallelAxis[d].name.replace(/\n/g, '');
				if (log !== / \(log\)$/.test(name)) problems.push(`${col.name}: axis "${name}", want it ${log ? '' : 'not '}logarithmic (values ${col.nums[lo]} to ${col.nums[hi]})`);
				const f = log ? Math.log10 : v => v;
				const vlo = f(col.nums[lo]), vhi = f(col.nums[hi]);
				if (vlo === vhi) {
					for (let s = 0; s < n; s++) if (col.nums[s] != null && !near(at[s], at[lo])) problems.push(`${col.name}: equal values at ${at[s]} and ${at[lo]}`);
					if (at[lo] <= 0.02 || at[lo] >= 0.98) problems.push(`${col.name}: the one value sits at the axis' end (${at[lo]})`);
					return;
				}
				// A little padding: the extremes near the ends, never past them.
				if (!(at[hi] > 0.85 && at[hi] < 1)) problems.push(`${col.name}: largest value ${vhi} at ${at[hi]}, want near the top`);
				const bottom = missing.length ? 0.05 : 0;
				if (!(at[lo] > bottom && at[lo] < 0.2)) problems.push(`${col.name}: smallest value ${vlo} at ${at[lo]}, want near the bottom, above n/a`);
				for (let s = 0; s < n; s++) {
					if (col.nums[s] == null) continue;
					const v = f(col.nums[s]);
					const want = at[lo] + (v - vlo) / (vhi - vlo) * (at[hi] - at[lo]);
					if (!near(at[s], want)) problems.push(`${col.name}: session ${s} value ${v} at ${at[s]}, want ${want}`);
				}
			} else {
				const cats = [...new Set(col.raw.filter(v => v != null).map(String))].sort((a, b) => {
					const x = Number(a), y = Number(b);
					const nx = a.trim() !== '' && Number.isFinite(x), ny = b.trim() !== '' && Number.isFinite(y);
					if (nx && ny && x !== y) return x - y;
					if (nx !== ny) return nx ? -1 : 1;
					return a < b ? -1 : a > b ? 1 : 0;
				});
				const labels = (col.raw.some(v => v == null) ? [null] : []).concat(cats);
				if (labels.length < 2) return;
				for (let s = 0; s < n; s++) {
					const k = labels.indexOf(col.raw[s] == null ? null : String(col.raw[s]));
					const want = k / (labels.length - 1);
					if (!near(at[s], want)) problems.push(`${col.name}: session ${s} value ${col.raw[s]} at ${at[s]}, want ${want} (category ${k} of ${labels.length})`);
				}
			}
		});
		return problems.slice(0, 20);
	},

	// visibleColumns returns the names of the table's column headers that
	// are displayed (after Run and Status).
	visibleColumns() {
		const table = this.main().querySelector('table.hparams');
		return [...table.tHead.rows[0].cells].slice(2).filter(c => getComputedStyle(c).display !== 'none').map(c => c.textContent);
	},

	// defaults checks that the page opens with the hyperparameters that
	// vary and every metric shown, on the chart and in the table, and
	// returns how many columns that leaves out.
	async defaults() {
		await this.settle();
		const {data, cols} = this.truth();
		const inst = echarts.getInstanceByDom(this.main().querySelector('.hparams-chart'));
		const several = data.sessions.length > 1;
		const want = cols.filter(c => c.metric || c.varies || !several);
		const problems = [];
		const got = this.shownKeys(inst);
		if (got.join() !== want.map(c => c.key).join()) problems.push(`axes ${got}, want ${want.map(c => c.key)}`);
		const table = this.visibleColumns();
		if (table.join('\n') !== want.map(c => c.label).join('\n')) problems.push(`table columns ${JSON.stringify(table)}, want ${JSON.stringify(want.map(c => c.label))}`);
		return {Problems: problems, Hidden: cols.length - want.length};
	},

	// toggle unticks the first hyperparameter shown, checks that its axis
	// and table column go and the URL says so, ticks it again and checks
	// they are back.
	async toggle() {
		await this.settle();
		const main = this.main();
		const {cols} = this.truth();
		const inst = echarts.getInstanceByDom(main.querySelector('.hparams-chart'));
		const before = this.shownKeys(inst);
		const key = before.find(k => k[0] === 'h');
		if (!key) return ['no hyperparameter axis to toggle'];
		const col = cols.find(c => c.key === key);
		const cb = main.querySelector(`.hparams-columns input[data-col="${key}"]`);
		const problems = [];
		cb.checked = false;
		cb.dispatchEvent(new Event('change', {bubbles: true}));
		await this.settle();
		const off = this.shownKeys(inst);
		if (off.join() !== before.filter(k => k !== key).join()) problems.push(`after unticking ${key}: axes ${off}, want ${before.filter(k => k !== key)}`);
		if (this.visibleColumns().includes(col.label)) problems.push(`after unticking ${col.label}: still a table column`);
		if (!/(^|[#&])cols=/.test(location.hash)) problems.push(`after unticking: no cols= in the URL hash ${location.hash}`);
		const m = echarts.getInstanceByDom(main.querySelector('.hparams-matrix')).getOption();
		if (m.series.some(s => s.hp === key)) problems.push(`after unticking ${key}: still in the scatter matrix`);
		cb.checked = true;
		cb.dispatchEvent(new Event('change', {bubbles: true}));
		await this.settle();
		const on = this.shownKeys(inst);
		if (on.join() !== before.join()) problems.push(`after ticking ${key} again: axes ${on}, want ${before}`);
		if (/(^|[#&])cols=/.test(location.hash)) problems.push(`back to the default: cols= still in the URL hash ${location.hash}`);
		return problems;
	},

	// brush selects, on the shown numeric column with the most distinct
	// values, the range from its smallest value to its median, and checks
	// that the table keeps exactly the sessions within it, says how many,
	// and that the scatter matrix greys the others; then clears it.
	async brush() {
		await this.settle();
		const main = this.main();
		const {data, cols} = this.truth();
		const inst = echarts.getInstanceByDom(main.querySelector('.hparams-chart'));
		const keys = this.shownKeys(inst);
		let best = null, bestN = 0;
		for (const k of keys) {
			const c = cols.find(c => c.key === k);
			if (!c.numeric) continue;
			const n = new Set(c.nums.filter(v => v != null)).size;
			if (n > bestN) { best = c; bestN = n; }
		}
		if (!best || bestN < 3) return [`no shown numeric column with 3 values or more (best ${best && best.name}: ${bestN})`];
		const vals = [...new Set(best.nums.filter(v => v != null))].sort((a, b) => a - b);
		const lo = vals[0], hi = vals[Math.floor((vals.length - 1) / 2)];
		const want = data.sessions.map((_, s) => s).filter(s => best.nums[s] != null && best.nums[s] >= lo && best.nums[s] <= hi);
		// A logarithmic axis (its name says so) is brushed in its own
		// coordinates.
		const axis = inst.getOption().parallelAxis.find(a => a.id === 'hp-' + best.key);
		const at = / \(log\)$/.test(axis.name.replace(/\n/g, '')) ? Math.log10 : v => v;
		const [a, b] = [at(lo), at(hi)];
		inst.dispatchAction({type: 'axisAreaSelect', parallelAxisId: 'hp-' + best.key, intervals: [[a - 1e-12 * Math.abs(a) - 1e-12, b + 1e-12 * Math.abs(b) + 1e-12]]});
		await this.settle();
		const problems = [];
		const rows = [...main.querySelector('table.hparams').tBodies[0].rows];
		const shown = rows.filter(r => !r.hidden).map(r => Number(r.dataset.session)).sort((a, b) => a - b);
		if (shown.join() !== want.join()) problems.push(`brushing ${best.name} ${lo}..${hi}: table rows ${shown}, want ${want}`);
		const count = main.querySelector('.hparams-count').textContent;
		if (count !== `${want.length} of ${data.sessions.length} sessions`) problems.push(`count says "${count}", want ${want.length} of ${data.sessions.length}`);
		// The colour each matrix point is drawn in: grey for those left out.
		const grey = '#d0d0d0';
		const mm = echarts.getInstanceByDom(main.querySelector('.hparams-matrix')).getModel();
		mm.eachSeries(sr => {
			const d = sr.getData();
			for (let i = 0; i < d.count(); i++) {
				const s = d.getRawDataItem(i)[2];
				const fill = d.getItemVisual(i, 'style').fill;
				const in_ = want.includes(s);
				if ((fill === grey) === in_) { problems.push(`matrix point of session ${s}: drawn ${fill}, selected ${in_}`); break; }
			}
		});
		main.querySelector('.hparams-clear').click();
		await this.settle();
		const after = rows.filter(r => !r.hidden).length;
		if (after !== data.sessions.length) problems.push(`after clearing: ${after} rows shown of ${data.sessions.length}`);
		if (inst.getModel().getComponent('parallelAxis', keys.indexOf(best.key)).activeIntervals.length) problems.push('after clearing: the axis still has a selection');
		return problems;
	},

	// matrix checks the scatter matrix against the data: a chart per shown
	// metric and shown hyperparameter that varies, and in each a point per
	// session with both values, at those values.
	async matrix() {
		await this.settle();
		const main = this.main();
		const {data, cols} = this.truth();
		const inst = echarts.getInstanceByDom(main.querySelector('.hparams-chart'));
		const shown = new Set(this.shownKeys(inst));
		const metrics = cols.filter(c => c.metric && shown.has(c.key));
		const hps = cols.filter(c => !c.metric && c.varies && shown.has(c.key));
		const opt = echarts.getInstanceByDom(main.querySelector('.hparams-matrix')).getOption();
		const problems = [];
		const cells = [];
		metrics.forEach(m => hps.forEach(h => cells.push([m, h])));
		if (cells.length > 48) return [`${cells.length} cells: the test expects the cap not reached`];
		if (opt.series.length !== cells.length) return [`${opt.series.length} scatter charts, want ${cells.length}`];
		cells.forEach(([m, h], k) => {
			const sr = opt.series[k];
			const x = opt.xAxis[k];
			if (sr.hp !== h.key || sr.metric !== m.key) { problems.push(`chart ${k}: ${sr.metric} x ${sr.hp}, want ${m.key} x ${h.key}`); return; }
			// A logarithmic axis (its name says so) holds the values' logarithms.
			const log = / \(log\)$/.test(x.name.replace(/\n/g, ''));
			const num = v => Number(v).toPrecision(10);
			const got = sr.data.map(p => [p[2], h.numeric ? num(log ? Math.pow(10, p[0]) : p[0]) : x.data[p[0]], p[1]].join('|')).sort();
			const want = [];
			data.sessions.forEach((s, i) => {
				const hv = h.numeric ? h.nums[i] : h.raw[i];
				if (hv == null || m.nums[i] == null) return;
				want.push([i, h.numeric ? num(hv) : String(hv), m.nums[i]].join('|'));
			});
			want.sort();
			if (got.join('\n') !== want.join('\n')) problems.push(`chart ${m.name} x ${h.name}: points\n${got.join('\n')}\nwant\n${want.join('\n')}`);
		});
		return problems;
	},

	// tooltips checks that the tooltip of every session's line and of the
	// first point of the scatter matrix names the session's run.
	async tooltips() {
		await this.settle();
		const main = this.main();
		const {data} = this.truth();
		const problems = [];
		const tip = async (sel, seriesIndex, dataIndex, s) => {
			const div = main.querySelector(sel);
			const inst = echarts.getInstanceByDom(div);
			inst.dispatchAction({type: 'showTip', seriesIndex, dataIndex});
			const text = await wait.until(() => [...div.querySelectorAll('.trainreport-tooltip')].map(e => e.textContent).join(' '),
				sel + " tooltip").catch(() => "");
			if (!text.includes(data.sessions[s].run)) problems.push(`${sel} tooltip of session ${s}: "${text}", want its run ${data.sessions[s].run}`);
			inst.dispatchAction({type: 'hideTip'});
		};
		// ECharts cannot show a parallel series' tooltip by data index: ask
		// the chart's formatter, as a hover over the line would.
		const p = echarts.getInstanceByDom(main.querySelector('.hparams-chart'));
		const f = p.getOption().tooltip[0].formatter;
		data.sessions.forEach((sess, s) => {
			const text = f({componentType: 'series', seriesType: 'parallel', seriesIndex: 0, dataIndex: s});
			if (!text.includes(sess.run.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'))) problems.push(`line tooltip of session ${s}: "${text}", want its run ${sess.run}`);
		});
		const m = echarts.getInstanceByDom(main.querySelector('.hparams-matrix')).getOption();
		const k = m.series.findIndex(sr => sr.data.length);
		if (k >= 0) await tip('.hparams-matrix', k, 0, m.series[k].data[0][2]);
		return problems;
	},

	// sort sorts the table by the first metric column with values and
	// returns that column's sort keys.
	sort() {
		const table = this.main().querySelector('table.hparams');
		const heads = [...table.tHead.rows[0].cells];
		const col = heads.findIndex(h => h.classList.contains('metric') && [...table.tBodies[0].rows].some(r => r.cells[heads.indexOf(h)].textContent !== ''));
		heads[col].click();
		return [...table.tBodies[0].rows].map(r => r.cells[col].getAttribute('data-sort')).filter(s => s !== '').map(Number);
	},
})

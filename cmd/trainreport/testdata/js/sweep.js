// The overview and the HParams page of a sweep (browser_sweep_test.go).
// The truth is the data the page reads (data/overview/runs.js and the
// sparkline chunks, or their inline copies in the single file), read here
// on its own; every check compares what the page shows with it and
// returns a list of problems, [] when none.
({
	main() { return document.querySelector('main.page[data-page="index"]'); },

	async truth() {
		const main = this.main();
		const inline = main.querySelector("script.sweep-rows");
		if (inline) {
			const all = JSON.parse(inline.textContent);
			return { rows: all.rows, chunk: (k) => Promise.resolve(all.sparks[k]) };
		}
		const head = await window.trainreport.loadData("overview/runs.js", "overview/runs.js");
		// Past its first rows_chunk rows, the others are in files of their
		// own (a copy: loadData hands every caller the same object).
		const rows = Object.assign({}, head);
		for (let k = 1; head.total && k * head.rows_chunk < head.total; k++) {
			const n = "overview/runs-" + String(k).padStart(4, "0") + ".js";
			rows.runs = rows.runs.concat(await window.trainreport.loadData(n, n));
		}
		return {
			rows,
			chunk: (k) => { const n = "overview/sparks-" + String(k).padStart(4, "0") + ".js"; return window.trainreport.loadData(n, n); },
		};
	},

	// settled waits for the table to have rows and every trend drawn (the
	// page marks the table aria-busy meanwhile); the checks that follow
	// report a table that never settles.
	async settled() {
		await awaitReady();
		const table = this.main().querySelector("table.sweep-runs");
		await wait.until(() => !table.hasAttribute("aria-busy") && table.tBodies[0].rows.length > 0, "the sweep's table settled").catch(() => {});
	},

	// compare orders two cells' values as the page says it sorts: missing
	// last, numbers as numbers with NaN first, else as text.
	order(a, b, desc) {
		if (a == null || b == null) return a == null && b == null ? 0 : a == null ? 1 : -1;
		const num = (v) => (typeof v === "number" ? v : v === "NaN" ? NaN : v === "Infinity" ? Infinity : v === "-Infinity" ? -Infinity : Number(v));
		let c;
		if (typeof a === "string" && typeof b === "string" && isNaN(num(a)) && isNaN(num(b)) && a !== "NaN" && b !== "NaN") c = a < b ? -1 : a > b ? 1 : 0;
		else {
			const x = num(a), y = num(b);
			c = isNaN(x) !== isNaN(y) ? (isNaN(x) ? -1 : 1) : isNaN(x) ? 0 : x < y ? -1 : x > y ? 1 : 0;
		}
		return desc ? -c : c;
	},

	// check compares the rows shown with the truth: which runs, in which
	// order (col: the column sorted, -1 for none; re: the Runs filter),
	// their cells, and each trend's polyline with its code. It returns the
	// problems and the rows shown (indices in run order).
	async check(page, col, desc, re) {
		await this.settled();
		const problems = [];
		const { rows: data, chunk } = await this.truth();
		const fmt = window.trainreport.util.fmtNum;
		let view = data.runs.map((r, i) => i).filter((i) => !re || new RegExp(re).test(data.runs[i][0]));
		const get = (r, c) => (c < 5 ? r[c] : r[5][c - 5]);
		if (col >= 0) view.sort((a, b) => this.order(get(data.runs[a], col), get(data.runs[b], col), desc && get(data.runs[a], col) != null && get(data.runs[b], col) != null) || a - b);
		const want = view.slice(page * 50, page * 50 + 50);
		const trs = [...this.main().querySelectorAll("table.sweep-runs tbody tr")];
		const got = trs.map((tr) => Number(tr.getAttribute("data-index")));
		if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`rows ${JSON.stringify(got.slice(0, 8))}..., want ${JSON.stringify(want.slice(0, 8))}...`);
		const info = this.main().querySelector(".sweep-page-info").textContent;
		const n = (k) => k.toLocaleString("en-US");
		const wantInfo = `Runs ${n(page * 50 + 1)}\u2013${n(page * 50 + want.length)} of ${n(view.length)}`;
		if (!info.startsWith(wantInfo)) problems.push(`page info ${JSON.stringify(info)}, want ${JSON.stringify(wantInfo)}`);
		for (const tr of trs) {
			const i = Number(tr.getAttribute("data-index"));
			const r = data.runs[i];
			const tds = tr.querySelectorAll("td");
			if (tds[0].textContent !== r[0]) problems.push(`row ${i}: run ${tds[0].textContent}, want ${r[0]}`);
			if (tds[1].textContent !== r[1]) problems.push(`row ${i}: status ${tds[1].textContent}, want ${r[1]}`);
			const codes = (await chunk(Math.floor(i / data.chunk)))[i % data.chunk];
			r[5].forEach((v, k) => {
				const td = tds[5 + k];
				const text = td.querySelector(".sweep-value").textContent;
				const wantText = v == null ? "" : fmt(typeof v === "number" ? v : Number(v === "NaN" ? NaN : v === "Infinity" ? Infinity : -Infinity));
				if (text !== wantText) problems.push(`row ${i} ${data.tags[k]}: ${text}, want ${wantText}`);
				const pl = td.querySelector("svg.spark polyline");
				const code = codes[k];
				if (!code) {
					if (pl) problems.push(`row ${i} ${data.tags[k]}: a trend drawn without data`);
					return;
				}
				if (!pl) { problems.push(`row ${i} ${data.tags[k]}: no trend drawn`); return; }
				const pts = pl.getAttribute("points").trim().split(/\s+/).map((p) => p.split(",").map(Number));
				const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
				const levels = pts.map(([, y]) => Math.round(((17 - y) * 63) / 16));
				const wantLevels = [...code].map((c) => alphabet.indexOf(c));
				if (JSON.stringify(levels) !== JSON.stringify(wantLevels)) problems.push(`row ${i} ${data.tags[k]}: trend ${levels.join(",")}, want ${wantLevels.join(",")}`);
				if (pts.length > 1 && (pts[0][0] !== 0 || Math.abs(pts[pts.length - 1][0] - 80) > 0.05)) problems.push(`row ${i}: trend spans ${pts[0][0]}..${pts[pts.length - 1][0]}`);
			});
		}
		return { problems, shown: got };
	},

	click(sel) { this.main().querySelector(sel).click(); },

	sortBy(col) { this.main().querySelector(`table.sweep-runs th[data-col="${col}"]`).click(); },

	filter(re) {
		const input = this.main().querySelector('form[data-controls] input[name="runs"]');
		input.value = re;
		input.dispatchEvent(new Event("input", { bubbles: true }));
	},

	// histograms compares each histogram's bars with the runs' last
	// values binned here: between the far fences, values beyond counted at
	// each end.
	async histograms() {
		await this.settled();
		const problems = [];
		const { rows: data } = await this.truth();
		const figs = [...this.main().querySelectorAll("figure.sweep-hist")];
		if (figs.length !== data.tags.length) problems.push(`${figs.length} histograms for ${data.tags.length} metrics`);
		figs.forEach((fig, k) => {
			const vals = data.runs.map((r) => r[5][k]).filter((v) => typeof v === "number").sort((a, b) => a - b);
			const q = (p) => { const pos = p * (vals.length - 1), i = Math.floor(pos); return i >= vals.length - 1 ? vals[vals.length - 1] : vals[i] + (pos - i) * (vals[i + 1] - vals[i]); };
			const iqr = q(0.75) - q(0.25);
			let lo = Math.max(vals[0], q(0.25) - 3 * iqr), hi = Math.min(vals[vals.length - 1], q(0.75) + 3 * iqr);
			if (!(hi > lo)) { lo = vals[0]; hi = vals[vals.length - 1]; }
			const counts = new Array(20).fill(0);
			let below = 0, above = 0;
			for (const v of vals) {
				if (v < lo) below++;
				else if (v > hi) above++;
				else counts[hi > lo ? Math.min(19, Math.max(0, Math.floor((20 * (v - lo)) / (hi - lo)))) : 0]++;
			}
			const want = [...(below ? [below] : []), ...counts, ...(above ? [above] : [])];
			const inst = echarts.getInstanceByDom(fig.querySelector(".sweep-hist-chart"));
			if (!inst) { problems.push(`${data.tags[k]}: no chart`); return; }
			const got = inst.getOption().series[0].data.map((d) => d.value);
			if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${data.tags[k]}: bars ${got}, want ${want}`);
		});
		return problems;
	},

	// hparams tells the parallel chart's lines and the sessions, and the
	// rows of the paged table.
	async hparams() {
		await awaitReady();
		const main = document.querySelector('main.page[data-page="hparams"]');
		const data = JSON.parse(main.querySelector("script.hparams-data").textContent);
		const inst = echarts.getInstanceByDom(main.querySelector(".hparams-chart"));
		const rows = [...main.querySelectorAll("table.hparams tbody tr")];
		return {
			sessions: data.sessions.length,
			lines: inst ? inst.getOption().series[0].data.length : -1,
			rows: rows.length,
			paged: main.querySelector("table.hparams").hasAttribute("data-paged"),
			first: rows.length ? rows[0].querySelector("td").textContent : "",
			link: rows.length ? rows[0].querySelector("td a").getAttribute("href") : "",
			info: (main.querySelector(".hparams-page-info") || {}).textContent || "",
		};
	},

	// brushPaged brushes the learning rate's axis over its lower half and
	// checks the paged table: its count, and every row of its pages is a
	// session inside the brush, all of them across the pages.
	async brushPaged() {
		await awaitReady();
		const main = document.querySelector('main.page[data-page="hparams"]');
		const data = JSON.parse(main.querySelector("script.hparams-data").textContent);
		const k = data.hparams.findIndex((c) => c.name === "learning_rate");
		const inst = echarts.getInstanceByDom(main.querySelector(".hparams-chart"));
		const vals = data.sessions.map((s) => s.hparams[k]);
		const sorted = [...vals].sort((a, b) => a - b);
		const lo = sorted[0], hi = sorted[Math.floor(sorted.length / 2)];
		const want = vals.map((v, s) => s).filter((s) => vals[s] >= lo && vals[s] <= hi);
		// A learning rate spans orders of magnitude: its axis is logarithmic
		// (its name, on one line or more, says so) and a brush is in the
		// axis' coordinates.
		const axis = inst.getOption().parallelAxis.find((a) => a.id === "hp-h" + k);
		if (!/ \(log\)$/.test(axis.name.replace(/\n/g, ""))) return [`the learning rate's axis "${axis.name}" is not logarithmic`];
		inst.dispatchAction({ type: "axisAreaSelect", parallelAxisId: "hp-h" + k, intervals: [[Math.log10(lo) - 1e-9, Math.log10(hi) + 1e-9]] });
		await awaitReady();
		const problems = [];
		const count = main.querySelector(".hparams-count").textContent;
		if (count !== `${want.length} of ${data.sessions.length} sessions`) problems.push(`count "${count}", want ${want.length}`);
		const seen = [];
		for (let page = 0; page < 100; page++) {
			seen.push(...[...main.querySelectorAll("table.hparams tbody tr")].map((tr) => Number(tr.dataset.session)));
			const next = main.querySelector(".hparams-next");
			if (next.disabled) break;
			next.click();
		}
		seen.sort((a, b) => a - b);
		if (seen.join() !== want.join()) problems.push(`rows across the pages ${seen.length} (${seen.slice(0, 5)}...), want ${want.length} (${want.slice(0, 5)}...)`);
		return problems;
	},
})

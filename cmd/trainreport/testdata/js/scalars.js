// The scalars page: its charts, smoothing and view state
// (browser_test.go, browser_groups_test.go), its run selector, dots and
// downloads (browser_scalars_runs_test.go).
({
	// figures returns a figureInfo per figure.chart-card of the Scalars
	// page (the single file also holds Custom Scalars'), once the page is
	// ready.
	async figures() {
		await awaitReady();
		const main = document.querySelector('main.page[data-page="scalars"]') || document;
		return [...main.querySelectorAll("figure.chart-card")].map(fig => {
			const div = fig.querySelector("div.chart[data-chart]");
			const script = fig.querySelector("script.chart-data");
			let data = null, dataError = "";
			try { data = JSON.parse(script.textContent); } catch (e) { dataError = String(e); }
			const inst = div ? echarts.getInstanceByDom(div) : undefined;
			const opt = inst ? inst.getOption() : null;
			const str = v => v == null ? "" : String(v);
			return {
				tag: fig.dataset.tag,
				ready: str(fig.getAttribute("data-ready")),
				hasChartDiv: !!div,
				hasInstance: !!inst,
				width: div ? div.clientWidth : 0,
				height: div ? div.clientHeight : 0,
				dataError,
				runs: data && Array.isArray(data.runs) ? data.runs.map(r => ({name: r.name, total: r.total, shown: r.shown})) : [],
				series: opt && Array.isArray(opt.series) ? opt.series.filter(s => s).map(s => {
					const pts = Array.isArray(s.data) ? s.data : [];
					const y = d => Array.isArray(d) ? d[1] : d && Array.isArray(d.value) ? d.value[1] : d && typeof d === "object" ? d.value : d;
					return {id: str(s.id), name: str(s.name), points: pts.length,
						finite: pts.filter(d => { const v = y(d); return typeof v === "number" && Number.isFinite(v); }).length};
				}) : [],
				points: (fig.querySelector(".points") || {}).textContent || "",
				visible: fig.getClientRects().length > 0,
			};
		});
	},

	// smooth calls window.trainreport.smooth(input, weight) and returns
	// the values (non-finite ones as strings) and whether it changed input.
	smooth(input, weight) {
		const copy = input.slice();
		const out = Array.from(window.trainreport.smooth(input, weight));
		return {
			out: out.map(v => typeof v === "number" && Number.isFinite(v) ? v : String(v)),
			mutated: input.length !== copy.length || input.some((v, i) => !Object.is(v, copy[i])),
		};
	},

	// hashState returns the view state the page shows, once it is ready.
	async hashState() {
		await awaitReady();
		const form = document.querySelector("form[data-controls]");
		const field = name => form && form.elements[name] ? form.elements[name].value : null;
		return {
			smoothing: String(field("smoothing")),
			tagsInput: String(field("tags")),
			x: String(field("x")),
			hash: location.hash,
			figures: [...(document.querySelector('main.page[data-page="scalars"]') || document).querySelectorAll("figure.chart-card")].map(f => ({tag: f.dataset.tag, visible: f.getClientRects().length > 0})),
		};
	},

	// chooseX chooses the x axis through the DOM, as a user would.
	chooseX(value) {
		const sel = document.querySelector("form[data-controls] select[name=x]");
		sel.value = value;
		sel.dispatchEvent(new Event("change", {bubbles: true}));
	},

	// budget scrolls to every chart in turn, awaiting ready() at each, and
	// returns the page's notes, how many figures and charts it has, and the
	// points of its longest drawn run line.
	async budget() {
		await awaitReady();
		const figs = [...document.querySelectorAll("figure.chart-card")];
		let charts = 0, longest = 0;
		for (const f of figs) {
			f.scrollIntoView();
			await window.trainreport.ready();
			const inst = echarts.getInstanceByDom(f.querySelector("div.chart"));
			if (!inst) continue;
			charts++;
			for (const s of inst.getOption().series) if (String(s.id).startsWith("run:")) longest = Math.max(longest, s.data.length);
		}
		const note = [...document.querySelectorAll("main.page p.note")].map(p => p.textContent).join(" ");
		return {Note: note, Figures: figs.length, Charts: charts, Longest: longest};
	},

	// runList returns the run selector as shown: per run its name, the
	// computed colour of its swatch, whether it is checked and listed.
	async runList() {
		await awaitReady();
		const box = document.querySelector("[data-run-selector]");
		return {
			count: box.querySelector(".run-count").textContent,
			runs: [...box.querySelectorAll("ul.run-list li")].map(li => ({
				name: li.querySelector(".run-label").textContent,
				title: li.querySelector("label").title,
				color: getComputedStyle(li.querySelector(".run-swatch")).backgroundColor,
				checked: li.querySelector("input").checked,
				listed: !li.hidden,
			})),
		};
	},

	// toggleRun clicks the checkbox of the run called name, as a user
	// would, and awaits the page: it applies the change at its next frame
	// (app.js's applySoon asks for that frame before us), then ready()
	// waits for the charts drawn for it.
	async toggleRun(name) {
		const li = [...document.querySelectorAll("[data-run-selector] li")].find(li => li.querySelector(".run-label").textContent === name);
		li.querySelector("input").click();
		await wait.frame();
		await awaitReady();
		return true;
	},

	// drawn returns, per chart, the names of its run lines and, per series
	// of dots, its points with where each is drawn: its pixel, whether it
	// lies inside the axes, and the colour of the canvas there.
	async drawn() {
		await awaitReady();
		return [...document.querySelectorAll("figure.chart-card")].map(fig => {
			const div = fig.querySelector("div.chart");
			const inst = echarts.getInstanceByDom(div);
			const series = inst.getOption().series.filter(s => s);
			const rect = inst.getModel().getComponent("grid", 0).coordinateSystem.getRect();
			const canvas = div.querySelector("canvas");
			const dpr = canvas.width / canvas.clientWidth;
			const ctx = canvas.getContext("2d");
			return {
				tag: fig.dataset.tag,
				lines: series.filter(s => String(s.id).startsWith("run:")).map(s => ({name: s.name, color: s.color})),
				dots: series.filter(s => String(s.id).startsWith("dots:")).map(s => ({
					name: s.name,
					points: s.data.map(d => {
						const [px, py] = inst.convertToPixel({seriesId: s.id}, d);
						const c = ctx.getImageData(Math.round(px * dpr), Math.round(py * dpr), 1, 1).data;
						return {x: d[0], y: d[1], px, py,
							inside: px >= rect.x && px <= rect.x + rect.width && py >= rect.y && py <= rect.y + rect.height,
							rgb: "rgb(" + c[0] + ", " + c[1] + ", " + c[2] + ")"};
					}),
				})),
			};
		});
	},

	// tipNames shows the tooltip of the chart of tag at the first point of
	// its first line and returns its run names as shown, and whether any
	// is cut (its cell narrower than its text); with keep, the tooltip
	// stays (for a screenshot).
	async tipNames(tag, keep) {
		await awaitReady();
		const fig = [...document.querySelectorAll("figure.chart-card")].find(f => f.dataset.tag === tag);
		fig.scrollIntoView();
		const inst = echarts.getInstanceByDom(fig.querySelector("div.chart"));
		const i = inst.getOption().series.findIndex(s => String(s.id).startsWith("run:"));
		inst.dispatchAction({type: "showTip", seriesIndex: i, dataIndex: 0});
		// Until the chart's tooltip holds its runs; none by the deadline
		// returns no names, which the test reports.
		await wait.until(() => fig.querySelector(".trainreport-tooltip td.tt-run"), "the tooltip of " + tag).catch(() => {});
		const cells = [...document.querySelectorAll(".trainreport-tooltip td.tt-run")];
		const out = {names: cells.map(c => c.textContent), cut: cells.filter(c => c.scrollWidth > c.clientWidth + 1 || c.scrollHeight > c.clientHeight + 1 && getComputedStyle(c).overflow === "hidden").map(c => c.textContent)};
		if (!keep) inst.dispatchAction({type: "hideTip"});
		return out;
	},

	// download clicks the button of the chart of tag for action ("csv" or
	// "json") and returns what the page saves: the file's name and text,
	// taken from the link the page clicks (no file is written), and the
	// button's title.
	async download(tag, action) {
		await awaitReady();
		const fig = [...document.querySelectorAll("figure.chart-card")].find(f => f.dataset.tag === tag);
		const btn = fig.querySelector('[data-action="' + action + '"]');
		const click = HTMLAnchorElement.prototype.click;
		let saved;
		const got = new Promise(resolve => { saved = resolve; });
		HTMLAnchorElement.prototype.click = function () { saved({href: this.href, name: this.download}); };
		try {
			btn.click();
			const a = await Promise.race([got, new Promise((_, reject) => setTimeout(() => reject(new Error("no download within 10 s")), 10000))]);
			const text = await (await fetch(a.href)).text();
			return {name: a.name, text, title: btn.title};
		} finally {
			HTMLAnchorElement.prototype.click = click;
		}
	},

	// png clicks the PNG button of the chart of tag and returns the size
	// of the image the page saves (and its bytes, base64), and the chart's
	// size before and after.
	async png(tag) {
		await awaitReady();
		const fig = [...document.querySelectorAll("figure.chart-card")].find(f => f.dataset.tag === tag);
		const inst = echarts.getInstanceByDom(fig.querySelector("div.chart"));
		const before = [inst.getWidth(), inst.getHeight()];
		const click = HTMLAnchorElement.prototype.click;
		let href = "";
		HTMLAnchorElement.prototype.click = function () { href = this.href; };
		try {
			fig.querySelector('[data-action="png"]').click();
		} finally {
			HTMLAnchorElement.prototype.click = click;
		}
		const img = new Image();
		await new Promise((resolve, reject) => { img.onload = resolve; img.onerror = reject; img.src = href; });
		const bytes = new Uint8Array(await (await fetch(href)).arrayBuffer());
		let bin = "";
		for (const b of bytes) bin += String.fromCharCode(b);
		return {image: [img.naturalWidth, img.naturalHeight], before, after: [inst.getWidth(), inst.getHeight()],
			legend: inst.getOption().legend.map(l => l.show), data: btoa(bin)};
	},

	// runColors returns, per run name on a page that marks runs with
	// data-run-color, the computed colour of its border.
	runColors() {
		const out = {};
		for (const el of document.querySelectorAll("[data-run-color]")) out[el.getAttribute("data-run-color")] = getComputedStyle(el).borderLeftColor;
		return out;
	},
})

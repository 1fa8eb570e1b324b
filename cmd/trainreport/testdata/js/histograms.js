// The histograms and distributions pages (browser_histograms_test.go,
// browser_hostile_test.go).
({
	// stats reports on the page's charts: how many, how many drawn, how
	// many of those in view, and per drawn chart its series' item count.
	stats(page) {
		const main = document.querySelector('main.page[data-page="' + page + '"]');
		const cards = [...main.querySelectorAll("figure.stat-card")];
		const inView = c => { const r = c.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; };
		const items = cards.filter(c => c.hasAttribute("data-drawn")).map(c => {
			const ch = echarts.getInstanceByDom(c.querySelector(".stat-chart"));
			return ch ? ch.getOption().series[0].data.length : -1;
		});
		return {cards: cards.length, drawn: items.length, inView: cards.filter(inView).length,
			inViewDrawn: cards.filter(c => inView(c) && c.hasAttribute("data-drawn")).length, items,
			title: document.title, tags: [...main.querySelectorAll(".stat-tag > h3")].map(h => h.textContent),
			runs: [...main.querySelectorAll(".run-name")].map(s => s.textContent)};
	},

	// inViewDrawn tells whether the page has charts in view and every one
	// of them is drawn.
	inViewDrawn(page) {
		const s = this.stats(page);
		return s.inView > 0 && s.inViewDrawn === s.inView;
	},

	// drawn tells whether n charts of the page are drawn.
	drawn(page, n) {
		return this.stats(page).drawn === n;
	},

	// scrollThrough scrolls every chart of the page shown into view in
	// turn, waiting at each until it is drawn.
	async scrollThrough(page) {
		for (const c of document.querySelectorAll('main.page[data-page="' + page + '"] figure.stat-card')) await wait.shown(c);
	},

	// tip shows a tooltip of the page's first chart and returns its text,
	// once shown: on a histogram, the pointer over the tallest bin of the
	// newest step (the page's own tip); on a distribution, the axis tooltip
	// at the middle step (ECharts', in the chart's element). None shown
	// by the deadline returns the chart's text, which the test reports.
	async tip(page) {
		const fig = document.querySelector('main.page[data-page="' + page + '"] figure.stat-card');
		const div = fig.querySelector(".stat-chart");
		const ch = echarts.getInstanceByDom(div);
		const draw = JSON.parse(fig.querySelector("script.stat-data").textContent).draw;
		const last = draw.steps[draw.steps.length - 1];
		if (draw.lo === undefined) {
			ch.dispatchAction({type: "showTip", seriesIndex: 0, dataIndex: Math.floor(draw.steps.length / 2)});
		} else {
			const counts = last[1], j = counts.indexOf(Math.max(...counts)), w = (draw.hi - draw.lo) / counts.length;
			const p = ch.convertToPixel("grid", [draw.lo + (j + 0.5) * w, last[0]]);
			const r = ch.getZr().painter.getViewportRoot().getBoundingClientRect();
			ch.getZr().painter.getViewportRoot().dispatchEvent(new MouseEvent("mousemove",
				{clientX: r.left + p[0], clientY: r.top + p[1] - 2, bubbles: true}));
		}
		const shown = () => {
			const t = div.querySelector(".stat-tip");
			return t ? !t.hidden && t.textContent !== "" : div.textContent.trim() !== "";
		};
		await wait.until(shown, "the tooltip of " + page).catch(() => {});
		const t = div.querySelector(".stat-tip");
		return t && !t.hidden ? t.textContent : div.textContent;
	},

	// toggleView switches the histograms' view to overlay and back and
	// returns what the first chart's y axis was at each.
	async toggleView() {
		const main = document.querySelector('main.page[data-page="histograms"]');
		const sel = main.querySelector('select[name="view"]');
		const ch = echarts.getInstanceByDom(main.querySelector("figure.stat-card .stat-chart"));
		const before = ch.getOption().yAxis[0].inverse;
		sel.value = "overlay";
		sel.dispatchEvent(new Event("change"));
		const after = ch.getOption().yAxis[0];
		const overlay = main.getAttribute("data-view") + " " + before + " " + !!after.inverse + " " + after.min;
		sel.value = "offset";
		sel.dispatchEvent(new Event("change"));
		return overlay + " " + main.getAttribute("data-view") + " " + ch.getOption().yAxis[0].inverse;
	},

	// overlay switches the histograms' view to overlay, for a screenshot.
	overlay() {
		const s = document.querySelector('select[name="view"]');
		s.value = "overlay";
		s.dispatchEvent(new Event("change"));
	},

	// loadTimes resolves, once every chart in view on the page is drawn and
	// the document is loaded (checked at each frame), with the page's
	// timings in milliseconds since navigation (TestHistogramLoadTime).
	async loadTimes(page) {
		const main = document.querySelector('main.page[data-page="' + page + '"]');
		const inView = () => [...main.querySelectorAll("figure.stat-card")].filter(c => {
			const r = c.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; });
		const cards = await wait.until(() => {
			const cards = inView();
			return cards.every(c => c.hasAttribute("data-drawn")) && document.readyState === "complete" && cards;
		}, "the charts in view drawn and the document loaded");
		await wait.frame();
		const nav = performance.getEntriesByType("navigation")[0];
		return {dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd,
			drawn: +main.getAttribute("data-last-draw-ms"), inview: cards.length,
			marks: [...performance.getEntriesByType("paint"), ...performance.getEntriesByType("mark")].map(m => m.name + " " + Math.round(m.startTime)).join(", ")};
	},
})

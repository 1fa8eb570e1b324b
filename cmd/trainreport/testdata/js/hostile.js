// Records that used to fail the report or draw nothing
// (browser_hostile_test.go).
({
	// scalarFigures returns, once the page is ready, per figure its tag,
	// whether it has a chart, and its run series' points, finite or not.
	async scalarFigures() {
		await awaitReady();
		return [...document.querySelectorAll("figure.chart-card")].map(fig => {
			const inst = echarts.getInstanceByDom(fig.querySelector("div.chart"));
			const s = inst ? inst.getOption().series.filter(s => s && String(s.id).startsWith("run:")) : [];
			return {tag: fig.dataset.tag, hasInstance: !!inst, ready: fig.getAttribute("data-ready") || "",
				series: s.map(x => ({id: String(x.id), points: x.data.length,
					finite: x.data.filter(d => Number.isFinite(Array.isArray(d) ? d[1] : NaN)).length}))};
		});
	},

	// histogramTip points at the tallest bin of the last step of the first
	// histogram chart, its range computed on halves as the page computes
	// it, and returns the tooltip, once shown ("" when none is by the
	// deadline), and the count of steps drawn.
	async histogramTip() {
		const fig = document.querySelector("figure.stat-card");
		const ch = echarts.getInstanceByDom(fig.querySelector(".stat-chart"));
		const draw = JSON.parse(fig.querySelector("script.stat-data").textContent).draw;
		const last = draw.steps[draw.steps.length - 1], counts = last[1], j = counts.indexOf(Math.max(...counts));
		const x = 2 * (draw.lo / 2 + (j + 0.5) * ((draw.hi / 2 - draw.lo / 2) / counts.length));
		const scale = Number.isFinite(draw.hi - draw.lo) ? 1 : 2; // the page draws such a range in halves
		const p = ch.convertToPixel("grid", [x / scale, last[0]]);
		const root = ch.getZr().painter.getViewportRoot(), r = root.getBoundingClientRect();
		root.dispatchEvent(new MouseEvent("mousemove", {clientX: r.left + p[0], clientY: r.top + p[1] - 2, bubbles: true}));
		const shown = () => { const t = fig.querySelector(".stat-tip"); return !!t && !t.hidden && t.textContent !== ""; };
		await wait.until(shown, "the histogram's tooltip").catch(() => {});
		const t = fig.querySelector(".stat-tip");
		return (t && !t.hidden ? t.textContent : "") + " | items " + ch.getOption().series[0].data.length;
	},

	// distributionSpan tells whether the outer basis points of the last
	// step of the first distribution chart map to points in it, and
	// whether its y axis spans -1e308 to 1e308 (drawn in halves).
	distributionSpan() {
		const fig = document.querySelector("figure.stat-card");
		const ch = echarts.getInstanceByDom(fig.querySelector(".stat-chart"));
		const item = ch.getOption().series[0].data.slice(-1)[0];
		const p = [...ch.convertToPixel("grid", [item[0], item[1]]), ...ch.convertToPixel("grid", [item[0], item[9]])];
		const ext = ch.getModel().getComponent("yAxis").axis.scale.getExtent().map(v => v * 2);
		return p.every(Number.isFinite) + " " + (ext[0] <= -1e308 && ext[1] >= 1e308 && ext.every(Number.isFinite));
	},

	// mediaInfo returns, per cell of the audio page, its count of players
	// and its info line.
	mediaInfo() {
		return [...document.querySelectorAll('main.page[data-page="audio"] .media-cell')].map(c =>
			c.querySelectorAll("audio").length + ":" + c.querySelector(".media-info").textContent).join(" | ");
	},
})

// The scalars page's superseded points of earlier attempts
// (browser_attempts_test.go).
({
	// series returns, once the page is ready, what the first chart draws:
	// per series its id, name, z, colour, line opacity and type, whether it
	// is silent and has a tooltip, and its data, as JSON.
	async series() {
		await awaitReady();
		const inst = echarts.getInstanceByDom(document.querySelector("figure.chart-card div.chart"));
		return JSON.stringify(inst.getOption().series.map(s => ({
			ID: String(s.id), Name: String(s.name), Z: s.z, Color: String(s.color),
			Opacity: s.lineStyle && s.lineStyle.opacity != null ? s.lineStyle.opacity : 1,
			Dashed: !!(s.lineStyle && s.lineStyle.type === "dashed"),
			Silent: !!s.silent, Tooltip: !(s.tooltip && s.tooltip.show === false),
			Data: s.data,
		})));
	},

	// caption returns the first chart's caption of points and superseded
	// points.
	async caption() {
		await awaitReady();
		const fig = document.querySelector("figure.chart-card");
		return [".points", ".superseded"].map(c => (fig.querySelector(c) || {}).textContent || "").join(" ");
	},
})

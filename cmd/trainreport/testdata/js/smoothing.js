// Smoothing over every point of a downsampled series
// (browser_smoothing_test.go).
({
	// series waits until the first chart says its lines are smoothed over
	// the points over ("every" or "drawn", its data-smoothed) and the page
	// is ready, and returns its series (id, name, data) and over, as JSON.
	async series(over) {
		const fig = document.querySelector("figure.chart-card");
		await awaitReady();
		// Not by the deadline returns what it says, which the test reports.
		await wait.until(() => fig.getAttribute("data-smoothed") === over, "data-smoothed=" + over).catch(() => {});
		await awaitReady();
		const inst = echarts.getInstanceByDom(fig.querySelector("div.chart"));
		return JSON.stringify({
			over: String(fig.getAttribute("data-smoothed")),
			series: inst.getOption().series.map(s => ({ID: String(s.id), Name: String(s.name), Data: s.data})),
		});
	},

	// tip shows the tooltip of series id at point dataIndex of the first
	// chart and returns its text.
	tip(id, dataIndex) {
		const inst = echarts.getInstanceByDom(document.querySelector("figure.chart-card div.chart"));
		const i = inst.getOption().series.findIndex(s => s.id === id);
		inst.dispatchAction({type: "showTip", seriesIndex: i, dataIndex});
		const el = document.querySelector(".trainreport-tooltip");
		return el ? el.textContent : "";
	},
})

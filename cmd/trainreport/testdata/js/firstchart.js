// What a sweep's pages do before their first chart
// (browser_firstchart_test.go).
({
	// ready: true once the page's charts of its eager set are drawn.
	async ready() {
		await awaitReady();
		return true;
	},

	// listed: the run names of the page's run list (#trainreport-runs).
	listed() {
		const el = document.getElementById("trainreport-runs");
		return el ? JSON.parse(el.textContent) : [];
	},

	// colors: the colour of each run of names, asked in that order.
	colors(names) {
		return names.map((n) => window.trainreport.util.colorOf(n));
	},
})

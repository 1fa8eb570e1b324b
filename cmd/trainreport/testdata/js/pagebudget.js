// A page cut to its byte budget (browser_pagebudget_test.go).
({
	// drawnCharts scrolls every chart of the page into view, waits for it
	// to draw and returns, per chart, its run and what ECharts draws: each
	// series' data. The cut note of each tag comes with them.
	async drawnCharts(page) {
		const main = document.querySelector('main.page[data-page="' + page + '"]');
		const charts = [];
		for (const fig of main.querySelectorAll("figure.stat-card")) {
			// Not drawn by the deadline is reported, as drawn: false.
			await wait.shown(fig).catch(() => {});
			const ch = echarts.getInstanceByDom(fig.querySelector(".stat-chart"));
			charts.push({tag: fig.closest(".stat-tag").getAttribute("data-filter-tag"), run: fig.querySelector(".run-name").textContent,
				drawn: fig.hasAttribute("data-drawn"), series: ch ? JSON.stringify(ch.getOption().series.map(s => s.data)) : ""});
		}
		const notes = [...main.querySelectorAll(".stat-tag > p.budget-cut")].map(p => {
			const r = p.getBoundingClientRect();
			return {text: p.textContent, shown: r.width > 0 && r.height > 0};
		});
		window.scrollTo(0, 0);
		return {charts, notes};
	},

	// showMore clicks each tag's "Show more runs" (p.more-runs button)
	// until it is gone, or at most clicks times, and returns how many
	// clicks each tag took, by tag, and how many cards the page then has.
	// A click that brings no card by the wait's deadline ends the clicks,
	// of every tag: the test sees it in the counts.
	async showMore(page, clicks) {
		const main = document.querySelector('main.page[data-page="' + page + '"]');
		const took = {};
		let stuck = false;
		for (const tag of main.querySelectorAll(".stat-tag[data-more]")) {
			if (stuck) break;
			const p = tag.querySelector("p.more-runs"), button = p && p.querySelector("button");
			let n = 0;
			while (button && !p.hidden && n < clicks) {
				const before = tag.querySelectorAll("figure.stat-card").length;
				button.click();
				n++;
				// The cards come in once their data script loaded (app.js
				// disables the button meanwhile).
				const more = () => tag.querySelectorAll("figure.stat-card").length !== before;
				if (!await wait.until(more, "more cards").then(() => true, () => false)) { stuck = true; break; }
			}
			took[tag.getAttribute("data-filter-tag")] = n;
		}
		return {took, cards: main.querySelectorAll("figure.stat-card").length,
			buttons: main.querySelectorAll("p.more-runs:not([hidden])").length};
	},
})

// The PR curves page (browser_prcurves_test.go).
({
	// shown tells whether the page is shown.
	shown() {
		const main = document.querySelector('main.page[data-page="pr_curves"]');
		return !!main && !main.hidden;
	},

	// cards counts the page's cards.
	cards() {
		return document.querySelector('main.page[data-page="pr_curves"]').querySelectorAll('figure.pr-card').length;
	},

	// read scrolls every card into view in turn, waiting at each until its
	// charts are drawn, and returns, as JSON, per card its run and tag,
	// the points its chart draws, the points with finite precision and
	// recall at the slider's step up to its last threshold with TP + FP >
	// 0, the drawn points past that threshold, the thresholds past it,
	// and the step shown.
	async read() {
		const cards = [...document.querySelector('main.page[data-page="pr_curves"]').querySelectorAll('figure.pr-card')];
		for (const c of cards) await wait.shown(c);
		return JSON.stringify(cards.map(c => {
			const data = JSON.parse(c.querySelector('script.stat-data').textContent);
			const i = Number(c.querySelector('input[data-pr-slider]').value);
			const cur = data.curves[i];
			const inst = echarts.getInstanceByDom(c.querySelector('.stat-chart'));
			const opt = inst ? inst.getOption() : null;
			let last = -1;
			cur.thresholds.forEach((_, j) => { if (Number(cur.tp[j]) + Number(cur.fp[j]) !== 0) last = j; });
			const drawn = opt ? opt.series[0].data : [];
			return {Run: c.dataset.run, Tag: c.closest('[data-filter-tag]').dataset.filterTag,
				Drawn: opt ? drawn.length : -1,
				Expected: cur.thresholds.filter((_, j) => j <= last && Number.isFinite(Number(cur.recall[j])) && Number.isFinite(Number(cur.precision[j]))).length,
				Beyond: drawn.filter(p => p[2] > last).length,
				Trimmed: cur.thresholds.length - 1 - last,
				Step: c.querySelector('.pr-step output').textContent};
		}));
	},

	// firstStep moves the slider of the first card with several steps to
	// its first step and returns what is wrong with the curve then drawn
	// and its label, or "".
	firstStep() {
		const c = [...document.querySelector('main.page[data-page="pr_curves"]').querySelectorAll('figure.pr-card')].find(c => !c.querySelector('input[data-pr-slider]').disabled);
		if (!c) return "no card with several steps";
		const s = c.querySelector('input[data-pr-slider]');
		s.value = "0"; s.dispatchEvent(new Event("input"));
		const data = JSON.parse(c.querySelector('script.stat-data').textContent);
		const got = echarts.getInstanceByDom(c.querySelector('.stat-chart')).getOption().series[0].data;
		const cur = data.curves[0];
		for (let j = 0; j < got.length; j++) {
			const k = got[j][2];
			if (got[j][0] !== Number(cur.recall[k]) || got[j][1] !== Number(cur.precision[k])) return "point " + j + " is " + JSON.stringify(got[j]);
		}
		// A run that restarted names the step's attempt beside it.
		const want = String(data.steps[0]) + (data.writes && data.writes[0] ? " (" + data.writes[0] + ")" : "");
		if (c.querySelector('.pr-step output').textContent !== want) return "label " + c.querySelector('.pr-step output').textContent;
		return "";
	},

	// tip shows the tooltip of the second point of the first card's chart
	// and returns its text.
	tip() {
		const inst = echarts.getInstanceByDom(document.querySelector('main.page[data-page="pr_curves"]').querySelector('figure.pr-card .stat-chart'));
		inst.dispatchAction({type: "showTip", seriesIndex: 0, dataIndex: 1});
		const el = document.querySelector(".trainreport-tooltip");
		return el ? el.textContent : "";
	},
})

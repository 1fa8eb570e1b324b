// The exceptions page (browser_exceptions_test.go).
({
	// cards counts the page's cards, once it is ready.
	async cards() {
		await awaitReady();
		return document.querySelectorAll('main.page[data-page="exceptions"] article.exc-card').length;
	},

	// card returns what the card of tag drew: the boxes of its box chart
	// ([down, Q1, median, Q3, up] per step, null where none), its NaN/Inf
	// markers, the step its slider shows, the heat map's cells (finite and
	// not), the histogram's counts, and the rows of its outliers table.
	card(tag) {
		const card = [...document.querySelectorAll('article.exc-card')].find(c => c.dataset.tag === tag && !c.closest("[hidden]"));
		const box = echarts.getInstanceByDom(card.querySelector("[data-exc-box]")).getOption();
		const heat = echarts.getInstanceByDom(card.querySelector("[data-exc-heat]")).getOption();
		const hist = echarts.getInstanceByDom(card.querySelector("[data-exc-hist]")).getOption();
		return {
			boxes: box.series[0].data.map(b => Array.isArray(b) ? b : null),
			outlierPoints: box.series[1].data.length,
			bad: box.series[2].data.map(p => (p.value || p)[0]),
			step: card.querySelector("[data-exc-step]").textContent,
			msg: card.querySelector("[data-exc-msg]").textContent,
			heatFinite: heat.series[0].data.length, heatBad: heat.series[1].data.length,
			hist: hist.series[0].data,
			rows: [...card.querySelectorAll("[data-exc-outliers] tbody tr")].map(tr => [...tr.cells].map(td => td.textContent)),
			summary: card.querySelector("[data-exc-outlier-summary]").textContent,
			width: card.querySelector("[data-exc-box]").clientWidth,
		};
	},

	// setStep moves the slider of the card of tag to stop i.
	setStep(tag, i) {
		const card = [...document.querySelectorAll('article.exc-card')].find(c => c.dataset.tag === tag && !c.closest("[hidden]"));
		const s = card.querySelector("input[data-exc-slider]");
		s.value = String(i); s.dispatchEvent(new Event("input", {bubbles: true}));
		return true;
	},

	// setK types k into the page's whisker factor and waits for the charts
	// to take it: every card drawn to be drawn again for it (its charts
	// are drawn for the k of their key); one not drawn yet will draw at
	// the new k. The page writes the URL on a change at once.
	async setK(k) {
		const main = document.querySelector('main.page[data-page="exceptions"]');
		const input = main.querySelector('form[data-controls] [name="k"]');
		input.value = String(k); input.dispatchEvent(new Event("change", {bubbles: true}));
		const cards = [...main.querySelectorAll("article.exc-card")];
		await wait.until(() => cards.every(c => !c.__trainreportChart || !c.__trainreportChart.drawn || wait.drawn(c)),
			"the charts drawn at k=" + k);
		return location.hash;
	},

	// shown lists the tags and runs of the cards the filters leave shown.
	shown() {
		return [...document.querySelectorAll('article.exc-card')].filter(c => c.offsetParent !== null).map(c => c.dataset.tag);
	},
})

// The tensors page (browser_tensors_test.go).
({
	// setIndex types index into the index box of the card of tag and
	// returns the table it then shows.
	setIndex(tag, index) {
		const card = [...document.querySelectorAll('article.tensor-card')].find(c => c.dataset.tag === tag);
		const input = card.querySelector("input[data-tensor-index]");
		input.value = index; input.dispatchEvent(new Event("input"));
		const msg = card.querySelector("[data-tensor-msg]");
		const rows = [...card.querySelectorAll("table.tensor-table tbody tr")];
		return {msg: msg.textContent, error: msg.classList.contains("error"),
			cells: [...card.querySelectorAll("table.tensor-table tbody td")].map(td => td.textContent),
			rows: rows.length, cols: rows.length ? rows[0].querySelectorAll("td").length : 0};
	},

	// setStep moves the slider of the card of tag to stop i, types index
	// into its index box and returns the table it then shows.
	setStep(tag, i, index) {
		const card = [...document.querySelectorAll('article.tensor-card')].find(c => c.dataset.tag === tag);
		const s = card.querySelector("input[data-tensor-slider]");
		s.value = String(i); s.dispatchEvent(new Event("input"));
		const input = card.querySelector("input[data-tensor-index]");
		input.value = index; input.dispatchEvent(new Event("input"));
		return {msg: card.querySelector("[data-tensor-msg]").textContent, error: false,
			cells: [...card.querySelectorAll("table.tensor-table tbody td")].map(td => td.textContent),
			label: card.querySelector("[data-tensor-step-label]").textContent};
	},

	// cards counts the page's cards, once it is ready.
	async cards() {
		await awaitReady();
		return document.querySelectorAll('main.page[data-page="tensors"] article.tensor-card').length;
	},

	// charts returns what every card drew: its statistics chart's series
	// and points, its heat map's cells, and its width.
	charts() {
		return [...document.querySelectorAll('article.tensor-card')].map(card => {
			const data = JSON.parse(card.querySelector("script.tensor-data").textContent);
			const st = echarts.getInstanceByDom(card.querySelector("[data-tensor-stats]"));
			const hd = card.querySelector("[data-tensor-heatmap]");
			const heat = echarts.getInstanceByDom(hd);
			const so = st.getOption();
			return {tag: card.dataset.tag, stats: so.series.length, points: so.series[0].data.length, steps: data.steps.length,
				heat: heat ? heat.getOption().series[0].data.length : -1, heatShow: !hd.hidden && hd.clientHeight > 0,
				width: card.querySelector("[data-tensor-stats]").clientWidth};
		});
	},

	// statsSeries returns, as JSON, the statistics chart's series of the
	// card of tag by name (their [step, value] points) and the heat map's
	// column names.
	statsSeries(tag) {
		const card = [...document.querySelectorAll('article.tensor-card')].find(c => c.dataset.tag === tag);
		const so = echarts.getInstanceByDom(card.querySelector("[data-tensor-stats]")).getOption();
		const series = {};
		for (const s of so.series) series[s.name] = s.data;
		const heat = echarts.getInstanceByDom(card.querySelector("[data-tensor-heatmap]"));
		return JSON.stringify({series, heat: heat ? heat.getOption().xAxis[0].data : []});
	},
})

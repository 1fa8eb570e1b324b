// The Custom Scalars page and the pins of the Scalars page
// (browser_customscalars_test.go).
({
	// shown tells whether the page is shown.
	shown() {
		const main = document.querySelector('main.page[data-page="custom_scalars"]');
		return !!main && !main.hidden;
	},

	// loaded scrolls every chart of the page into view in turn, opening
	// the closed categories, and tells whether every one is drawn (or says
	// why it is not): each is waited for until its chart is drawn for the
	// page's state, or the wait's deadline, and then its figure must say
	// so (data-ready).
	async loaded() {
		await awaitReady();
		const main = document.querySelector('main.page[data-page="custom_scalars"]');
		main.querySelectorAll("details.layout-category").forEach(d => { d.open = true; });
		const figs = [...main.querySelectorAll("figure.chart-card")].filter(f => f.querySelector("[data-chart]"));
		for (const f of figs) {
			f.scrollIntoView();
			if (!await wait.until(() => wait.drawn(f), "").catch(() => false)) return false;
		}
		return figs.every(f => f.getAttribute("data-ready") === "1");
	},

	// charts returns, as JSON, per chart of the page: its title, kind,
	// whether it is pinned, its error if any, and per line the series' name
	// and the drawn [x, y] points, and per band the [x0, x1, lo0, hi0,
	// lo1, hi1] segments.
	charts() {
		const main = document.querySelector('main.page[data-page="custom_scalars"]');
		return JSON.stringify([...main.querySelectorAll("figure.chart-card")].map(f => {
			const div = f.querySelector("[data-chart]");
			const inst = div ? echarts.getInstanceByDom(div) : null;
			const opt = inst ? inst.getOption() : {series: []};
			const of = p => (opt.series || []).filter(s => s && String(s.id).startsWith(p));
			return {
				title: f.dataset.tag, kind: f.dataset.kind || "", pinned: f.hasAttribute("data-pinned"),
				error: div && div.classList.contains("chart-error") ? div.textContent : "",
				width: div ? div.clientWidth : 0,
				lines: of("run:").map(s => ({name: String(s.name), points: s.data.map(d => [d[0], d[1]])})),
				bands: of("margin:").map(s => ({name: String(s.name), segments: s.data})),
			};
		}));
	},

	// pin clicks the pin button of the Scalars page's chart of tag and
	// returns the button's aria-pressed and the URL hash.
	pin(tag) {
		const fig = [...document.querySelectorAll('main.page[data-page="scalars"] figure.chart-card')].find(f => f.dataset.tag === tag);
		if (!fig) return "no chart " + tag;
		const b = fig.querySelector('[data-action="pin"]');
		b.click();
		return b.getAttribute("aria-pressed") + " " + location.hash;
	},

	// unpin clicks the pin button of the pinned chart of tag on the Custom
	// Scalars page and returns how many pinned charts are left.
	unpin(tag) {
		const main = document.querySelector('main.page[data-page="custom_scalars"]');
		const fig = [...main.querySelectorAll("figure.chart-card[data-pinned]")].find(f => f.dataset.tag === tag);
		if (!fig) return -1;
		fig.querySelector('[data-action="pin"]').click();
		return main.querySelectorAll("figure.chart-card[data-pinned]").length;
	},

	// csv returns the CSV download of the chart titled title.
	async csv(title) {
		const main = document.querySelector('main.page[data-page="custom_scalars"]');
		const fig = [...main.querySelectorAll("figure.chart-card")].find(f => f.dataset.tag === title);
		return fig ? await window.trainreport.exportCSV(fig) : "no chart " + title;
	},
})

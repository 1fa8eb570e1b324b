// The scalars page's groups by hyperparameter and its baseline
// (browser_hpgroups_test.go).
({
	// chart returns, once the page is ready, the series of the chart of
	// tag (their id, name, colour, line type, data and mark lines' values)
	// and its legend's names, as JSON.
	async chart(tag) {
		await awaitReady();
		const fig = [...document.querySelectorAll("figure.chart-card")].find(f => f.dataset.tag === tag);
		const inst = echarts.getInstanceByDom(fig.querySelector("div.chart"));
		const opt = inst.getOption();
		const legend = opt.legend && opt.legend[0] && opt.legend[0].show ? (opt.legend[0].data || []).map(String) : [];
		return JSON.stringify({
			Legend: legend,
			Series: opt.series.map(s => ({
				ID: String(s.id), Name: String(s.name), Color: String(s.color || ""),
				Line: s.lineStyle && s.lineStyle.type ? String(s.lineStyle.type) : "",
				Data: (s.data || []).map(p => Array.isArray(p) ? p.map(v => v == null ? null : Number(v)) : []),
				Marks: s.markLine && s.markLine.data ? s.markLine.data.map(d => ({Y: Number(d.yAxis), Name: String(d.name), Line: d.lineStyle ? String(d.lineStyle.type) : ""})) : [],
			})),
		});
	},

	// columns returns the Group by list's columns, as a user sees them.
	columns() {
		const box = document.querySelector("form[data-controls] [data-hp-group]");
		if (!box || box.hidden) return [];
		return [...box.querySelectorAll('input[name="hp-col"]')].map(i => i.value);
	},

	// check checks the Group by box of column name, as a user would.
	check(name) {
		const box = document.querySelector("form[data-controls] [data-hp-group]");
		box.open = true;
		const i = [...box.querySelectorAll('input[name="hp-col"]')].find(i => i.value === name);
		i.checked = !i.checked;
		i.dispatchEvent(new Event("change", {bubbles: true}));
		return true;
	},
})

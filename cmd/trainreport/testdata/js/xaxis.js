// The scalar charts' x axis by another scalar, ignore outliers, tooltip
// order and legend (browser_xaxis_test.go).
({
	// fig returns the figure of the chart of tag.
	fig(tag) {
		return Array.from(document.querySelectorAll("figure.chart-card")).find(f => f.getAttribute("data-tag") === tag);
	},

	// set changes the control called name to value (a checkbox: checked
	// when value is true), as a user would, and says whether it exists.
	set(name, value) {
		const i = document.querySelector('form[data-controls] [name="' + name + '"]');
		if (!i) return false;
		if (i.type === "checkbox") i.checked = !!value; else i.value = value;
		i.dispatchEvent(new Event("change", {bubbles: true}));
		return true;
	},

	// options returns the values of the x axis control's options.
	options() {
		const s = document.querySelector('form[data-controls] select[name="x"]');
		return JSON.stringify(s ? Array.from(s.options).map(o => o.value) : []);
	},

	// view waits until the chart of tag is drawn with the x axis by
	// xaxis ("" for none) and returns, as JSON, its runs' lines (name and
	// [x, y] points), the steps of each run's points (from the figure's
	// data: Steps[name]), the y axis's range, the note under it and the
	// names its legend lists.
	async view(tag, xaxis) {
		const f = this.fig(tag);
		f.scrollIntoView();
		await awaitReady();
		const want = xaxis ? "ready" : null;
		// Not by the deadline returns what it draws, which the test reports.
		await wait.until(() => f.getAttribute("data-xaxis") === want, "data-xaxis=" + want).catch(() => {});
		await awaitReady();
		await wait.frame();
		const inst = echarts.getInstanceByDom(f.querySelector("div.chart"));
		const steps = {};
		const el = f.querySelector("script.chart-data"); // none on Custom Scalars
		if (el) JSON.parse(el.textContent).runs.forEach(r => { steps[r.name] = r.points.map(p => Number(p[0])); });
		const note = f.querySelector("p.x-note");
		return JSON.stringify({
			XAxis: String(f.getAttribute("data-xaxis")),
			Lines: inst.getOption().series.filter(s => String(s.id).startsWith("run:")).map(s => ({
				Name: String(s.name),
				Data: s.data.map(p => [p[0] === null || isNaN(p[0]) ? null : p[0], p[1]]),
			})),
			Steps: steps,
			YRange: inst.getModel().getComponent("yAxis", 0).axis.scale.getExtent(),
			XName: String(inst.getOption().xAxis[0].name),
			Note: note ? note.textContent : "",
			Legend: Array.from(f.querySelectorAll("ul.chart-legend li:not(.legend-more)")).map(li => li.textContent),
		});
	},

	// tip shows the tooltip of tag's chart at point dataIndex of its
	// first line and returns the runs its rows name, in order.
	tip(tag, dataIndex) {
		const inst = echarts.getInstanceByDom(this.fig(tag).querySelector("div.chart"));
		const i = inst.getOption().series.findIndex(s => s.id === "run:0");
		inst.dispatchAction({type: "showTip", seriesIndex: i, dataIndex});
		return this.rows();
	},

	// rows returns the runs the tooltip's rows name, in order.
	rows() {
		const el = document.querySelector(".trainreport-tooltip");
		return JSON.stringify(el ? Array.from(el.querySelectorAll("td.tt-run")).map(td => td.textContent) : []);
	},

	// pointAt returns the page (viewport) coordinates of run's point at
	// dataIndex on tag's chart, after scrolling it into view.
	pointAt(tag, run, dataIndex) {
		const f = this.fig(tag);
		f.scrollIntoView();
		const div = f.querySelector("div.chart");
		const inst = echarts.getInstanceByDom(div);
		const s = inst.getOption().series.find(s => String(s.id).startsWith("run:") && s.name === run);
		const px = inst.convertToPixel({gridIndex: 0}, s.data[dataIndex]);
		const box = div.getBoundingClientRect();
		return [box.left + px[0], box.top + px[1]];
	},
})

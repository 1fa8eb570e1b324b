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

	// mediaWrites moves the images or audio page's first step slider
	// through every stop and returns, per stop, the slider's label and, per
	// run, its cell's caption, whether the cell is drawn faded and the
	// first source it shows.
	mediaWrites(page) {
		const sec = document.querySelector('main.page[data-page="' + page + '"] section.media-tag');
		const input = sec.querySelector('.media-step input');
		const out = [];
		for (let i = 0; i <= Number(input.max); i++) {
			input.value = String(i);
			input.dispatchEvent(new Event('input', {bubbles: true}));
			out.push({Label: sec.querySelector('.media-step output').textContent,
				Cells: [...sec.querySelectorAll('.media-cell')].map(c => ({
					Caption: c.querySelector('.media-at').textContent,
					Faded: getComputedStyle(c.querySelector('.media-images, .media-clips') || c).opacity < 1,
					Src: (c.querySelector('[src]') || {getAttribute: () => ''}).getAttribute('src')}))});
		}
		return JSON.stringify(out);
	},

	// histogramWrites returns what the histograms page's first chart draws,
	// once drawn: per drawn ridge (in the offset view, a group of a fill
	// and an outline) its step, whether its outline is dashed and its
	// fill's opacity; and the tooltip over the tallest bin of the first
	// ridge.
	async histogramWrites() {
		await awaitReady();
		const fig = document.querySelector('main.page[data-page="histograms"] figure.stat-card');
		await wait.shown(fig);
		const ch = echarts.getInstanceByDom(fig.querySelector(".stat-chart"));
		const draw = JSON.parse(fig.querySelector("script.stat-data").textContent).draw;
		const groups = [];
		ch.getZr().storage.getDisplayList(true).forEach(el => {
			if (el.type !== "polygon" || !el.parent) return;
			const line = el.parent.children().find(c => c.type === "polyline");
			groups.push({Z2: el.z2, FillOpacity: el.style.opacity == null ? 1 : el.style.opacity,
				Dashed: !!(line && line.style.lineDash && line.style.lineDash.length)});
		});
		return JSON.stringify({Steps: draw.steps.map(s => [s[0], s[3] ? s[3].note : "", !!(s[3] && s[3].superseded)]), Ridges: groups});
	},
})

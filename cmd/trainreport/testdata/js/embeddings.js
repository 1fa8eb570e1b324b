// The embeddings page (browser_embeddings_test.go).
({
	main() { return document.querySelector('main.page[data-page="embeddings"]'); },

	// drawn is the page's data-emb-drawn: "" while loading, "error", or
	// "<embedding>/<step>/<method>/<dims>" once drawn.
	drawn() {
		const m = this.main();
		return m && !m.hidden ? m.getAttribute('data-emb-drawn') || '' : '';
	},

	// set changes a control as a user would and returns nothing.
	set(name, value) {
		const el = this.main().querySelector('[data-emb-' + name + ']');
		if (el.type === 'checkbox') el.checked = value; else el.value = value;
		el.dispatchEvent(new Event(el.tagName === 'INPUT' && el.type === 'text' ? 'input' : 'change'));
	},

	// chart returns, as JSON, what the chart draws: the series type, and
	// per drawn item its value ([coords..., index in the projection]),
	// colour, opacity and symbol size; with the status line.
	chart() {
		const inst = echarts.getInstanceByDom(this.main().querySelector('[data-emb-chart]'));
		const opt = inst.getOption();
		const s = opt.series[0];
		return JSON.stringify({
			Type: s.type,
			Items: s.data.map(d => ({Value: d.value, Color: (d.itemStyle && d.itemStyle.color) || '', Opacity: d.itemStyle && d.itemStyle.opacity != null ? d.itemStyle.opacity : 1})),
			Status: this.main().querySelector('[data-emb-status]').textContent,
			Variance: this.main().querySelector('[data-emb-variance]').textContent,
		});
	},

	// pointPixel returns the page coordinates of the chart's item i.
	pointPixel(i) {
		const div = this.main().querySelector('[data-emb-chart]');
		div.scrollIntoView();
		const inst = echarts.getInstanceByDom(div);
		const v = inst.getOption().series[0].data[i].value;
		const p = inst.convertToPixel({seriesIndex: 0}, [v[0], v[1]]);
		const r = div.getBoundingClientRect();
		return [r.left + p[0], r.top + p[1]];
	},

	// stepShown returns the step list's chosen text and the status line.
	stepShown() {
		const sel = this.main().querySelector('[data-emb-step]');
		return [sel.options[sel.selectedIndex].textContent, this.main().querySelector('[data-emb-status]').textContent];
	},

	// steps returns the texts of the step list's options.
	steps() {
		return [...this.main().querySelector('[data-emb-step]').options].map(o => o.textContent);
	},

	// status returns the status line.
	status() { return this.main().querySelector('[data-emb-status]').textContent; },

	// controls returns, as JSON, the values of the page's controls.
	controls() {
		const v = n => { const el = this.main().querySelector('[data-emb-' + n + ']'); return el.type === 'checkbox' ? String(el.checked) : el.value; };
		return JSON.stringify(Object.fromEntries(['select', 'step', 'method', 'dims', 'color', 'label', 'search', 'sprites'].map(n => [n, v(n)])));
	},

	// tip shows the tooltip of the chart's item i and returns, as JSON,
	// its text, the tags of the elements in it and its thumbnail's
	// background image.
	async tip(i) {
		const inst = echarts.getInstanceByDom(this.main().querySelector('[data-emb-chart]'));
		inst.dispatchAction({type: 'showTip', seriesIndex: 0, dataIndex: i});
		// The card is drawn in a later frame: wait for it (a fixed 300 ms
		// failed on a loaded CI machine), at each frame; none at the
		// deadline makes an empty answer, which the test reports.
		const find = () => [...this.main().querySelectorAll('[data-emb-chart] div')].find(d => d.style.position === 'absolute' && d.textContent.includes('point'));
		const box = await wait.until(find, "the tooltip of item " + i).catch(() => null);
		const thumb = box && box.querySelector('span.emb-thumb');
		return JSON.stringify({Text: box ? box.textContent : '', Tags: box ? [...box.querySelectorAll('*')].map(e => e.tagName) : [],
			Thumb: thumb ? getComputedStyle(thumb).backgroundImage : ''});
	},

	// box3d returns, as JSON, where the 3-D view's box and its labels
	// land on the canvas: each corner of the box projected with ECharts
	// GL's own camera (Left/Top/Right/Bottom, pixels), the canvas' size,
	// the box's sides and the axes' extents (x across the width, y the
	// depth, z the height).
	box3d() {
		const inst = echarts.getInstanceByDom(this.main().querySelector('[data-emb-chart]'));
		const g = inst.getModel().getComponent('grid3D');
		const cs = g.coordinateSystem, view = cs.viewGL, cam = view.camera;
		cam.update(true);
		const P = cam.projectionMatrix.array, V = cam.viewMatrix.array;
		const mul = (m, v) => [0, 1, 2, 3].map(r => m[r] * v[0] + m[4 + r] * v[1] + m[8 + r] * v[2] + m[12 + r] * v[3]);
		const vp = view.viewport;
		const ext = ['x', 'y', 'z'].map(d => cs.getAxis(d).getExtent ? cs.getAxis(d).scale.getExtent() : null);
		let l = Infinity, t = Infinity, r = -Infinity, b = -Infinity;
		for (const x of ext[0]) for (const y of ext[1]) for (const z of ext[2]) {
			const w = cs.dataToPoint([x, y, z]);
			const c = mul(P, mul(V, [w[0], w[1], w[2], 1]));
			const px = vp.x + (c[0] / c[3] + 1) / 2 * vp.width, py = vp.y + (1 - c[1] / c[3]) / 2 * vp.height;
			l = Math.min(l, px); r = Math.max(r, px); t = Math.min(t, py); b = Math.max(b, py);
		}
		const opt = inst.getOption();
		return JSON.stringify({Left: l, Top: t, Right: r, Bottom: b, Width: inst.getWidth(), Height: inst.getHeight(),
			Sides: [g.get('boxWidth'), g.get('boxDepth'), g.get('boxHeight')], Extents: ext,
			Names: [opt.xAxis3D[0].name, opt.yAxis3D[0].name, opt.zAxis3D[0].name],
			LabelSize: (al => (al.textStyle && al.textStyle.fontSize) || al.fontSize)(opt.xAxis3D[0].axisLabel)});
	},

	// scale2d returns, as JSON, the 2-D view's pixels per unit along x
	// and along y (measured by converting points to pixels), and its axes'
	// names.
	scale2d() {
		const inst = echarts.getInstanceByDom(this.main().querySelector('[data-emb-chart]'));
		const a = inst.convertToPixel({gridIndex: 0}, [0, 0]), bx = inst.convertToPixel({gridIndex: 0}, [1, 0]), by = inst.convertToPixel({gridIndex: 0}, [0, 1]);
		const opt = inst.getOption();
		return JSON.stringify({X: Math.abs(bx[0] - a[0]), Y: Math.abs(by[1] - a[1]), Names: [opt.xAxis[0].name, opt.yAxis[0].name]});
	},

	// thumbsBox returns, as JSON, the "Thumbnails as points" box: shown,
	// ticked, enabled, and the note beside it when visible.
	thumbsBox() {
		const cb = this.main().querySelector('[data-emb-sprites]');
		const label = this.main().querySelector('[data-emb-sprite-label]');
		const note = this.main().querySelector('[data-emb-sprite-note]');
		return JSON.stringify({Shown: !label.hidden, Checked: cb.checked, Enabled: !cb.disabled, Note: note && !note.hidden ? note.textContent : ''});
	},

	// count is the number of embeddings in the page's list.
	count() { return this.main().querySelector('[data-emb-select]').options.length; },

	// items is the number of items the chart draws.
	items() {
		const inst = echarts.getInstanceByDom(this.main().querySelector('[data-emb-chart]'));
		return inst.getOption().series[0].data.length;
	},

	// expected returns, as JSON, per step of embedding i (loaded), the
	// points of each projection and whether it has a sprite and labels.
	async expected(i) {
		const e = JSON.parse(document.getElementById('embedding-index').textContent)[i];
		const text = e.inline ? null : await window.trainreport.loadData(e.file, e.script);
		const d = JSON.parse(text === null ? document.getElementById(e.inline).textContent : text);
		return JSON.stringify(d.steps.map(s => ({
			Points: Object.fromEntries(s.projections.map(p => [p.method, p.coords_2d.length])),
			Step: s.step, Sprite: !!(s.sprite && s.sprite.src), Labels: s.columns.length > 0, Error: s.error || '',
		})));
	},

	// neighbours returns, as JSON, the clicked point and per metric the
	// neighbours listed: point indices and distances as shown.
	neighbours() {
		const box = this.main().querySelector('[data-emb-neighbors]');
		const out = {Point: Number(new URLSearchParams(location.hash.slice(1)).get('epoint') ?? -1), Heading: (box.querySelector('h3') || {}).textContent || ''};
		for (const t of box.querySelectorAll('table[data-emb-metric]')) {
			out[t.dataset.embMetric] = [...t.tBodies[0].rows].map(r => ({Point: Number(r.dataset.point), Dist: Number(r.cells[2].textContent), Text: r.cells[1].textContent}));
		}
		return JSON.stringify(out);
	},
})

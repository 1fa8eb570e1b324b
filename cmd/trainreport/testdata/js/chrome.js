// What every page shows around its charts (browser_chrome_test.go): the
// page head, the navigation, and the rendered text boxes of charts.
({
	// head returns the navigation's links and the shown page's head: its
	// title, caption (with how many lines it takes) and help toggle.
	head() {
		const main = [...document.querySelectorAll("main.page")].find(m => !m.hidden);
		const nav = [...document.querySelectorAll("header.top nav a")].map(a => ({Name: a.dataset.page, Title: a.textContent, Hidden: a.hidden || a.offsetParent === null}));
		const head = main.querySelector(":scope > .page-head");
		if (!head) return JSON.stringify({Nav: nav, Page: main.dataset.page});
		const cap = head.querySelector(".page-caption");
		const help = head.querySelector("details.page-help");
		const body = help && help.querySelector(".page-help-body");
		const lh = parseFloat(getComputedStyle(cap).lineHeight);
		return JSON.stringify({
			Nav: nav, Page: main.dataset.page, Head: true,
			Title: head.querySelector("h1").textContent,
			Caption: cap.textContent, CaptionLines: cap.getBoundingClientRect().height / lh,
			// A closed <details> keeps its content laid out but not
			// rendered (content-visibility): checkVisibility says so.
			Help: !!help, HelpOpen: !!help && help.open, HelpShown: !!body && body.checkVisibility(),
			HelpText: body ? body.textContent.trim().length : 0,
			// What lies between the head and the first control or chart:
			// nothing but the head itself.
			FirstAfter: head.nextElementSibling ? head.nextElementSibling.tagName + "." + head.nextElementSibling.className : "",
		});
	},

	// ready awaits the page's charts.
	async ready() {
		await awaitReady();
		return true;
	},

	// openHelp clicks the help toggle and tells whether its text shows.
	openHelp() {
		const main = [...document.querySelectorAll("main.page")].find(m => !m.hidden);
		main.querySelector(".page-head details.page-help > summary").click();
		const body = main.querySelector(".page-help-body");
		return body.checkVisibility() && body.getBoundingClientRect().height > 0;
	},

	// boxes draws every chart of the shown page whose container matches
	// sel (scrolling each into view: charts draw when seen) and waits for
	// each to be drawn for the page's state at its size, then returns per
	// chart the rendered text boxes of the canvas (axis labels and names,
	// legends, messages) in the chart's pixels, the chart's size, and the
	// plot's bottom edge. The pages draw without animation: the boxes of a
	// chart drawn are where they stay.
	async boxes(sel) {
		await awaitReady();
		const divs = [...document.querySelectorAll(sel)].filter(d => d.offsetParent !== null);
		for (const d of divs) await wait.shown(d);
		// And all at once: the page's layout may have moved since one was
		// drawn (a scroll bar came), which resizes charts.
		await wait.until(() => divs.every(d => wait.drawn(d)), "every chart of " + sel + " drawn");
		const out = [];
		for (const d of divs) {
			const ch = echarts.getInstanceByDom(d);
			if (!ch) continue;
			const card = d.closest("figure, article, section");
			const zr = ch.getZr();
			const texts = [];
			for (const el of zr.storage.getDisplayList(true)) {
				// ZRText draws through TSpan children, a line of text
				// each, that carry its transform.
				if (el.type !== "tspan" && el.type !== "text") continue;
				if (el.invisible || el.ignore || !el.style || !el.style.text) continue;
				if (el.style.opacity === 0) continue;
				let hidden = false;
				for (let p = el; p; p = p.parent || p.__hostTarget) if (p.ignore || p.invisible) hidden = true;
				if (hidden) continue;
				const r = el.getBoundingRect().clone();
				if (el.transform) r.applyTransform(el.transform);
				if (r.width === 0 || r.height === 0) continue;
				texts.push({Text: String(el.style.text), X: r.x, Y: r.y, W: r.width, H: r.height});
			}
			let plotBottom = -1;
			try {
				const g = ch.getModel().getComponent("grid");
				const rect = g.coordinateSystem.getRect();
				plotBottom = rect.y + rect.height;
			} catch (e) { /* a chart without a grid */ }
			out.push({Card: card ? (card.querySelector("figcaption, header, h2, h3") || card).textContent.trim().slice(0, 80) : "",
				W: ch.getWidth(), H: ch.getHeight(), PlotBottom: plotBottom, Texts: texts});
		}
		return JSON.stringify(out);
	},

	// dayChange returns, for the first scalar chart, the label a wall-time
	// axis must write at the first local midnight its range holds ("Nov
	// 15"), or "" when it holds none.
	dayChange() {
		const ch = echarts.getInstanceByDom(document.querySelector("figure.chart-card div.chart"));
		const ext = ch.getModel().getComponent("xAxis").axis.scale.getExtent();
		const d = new Date(ext[0]);
		d.setHours(24, 0, 0, 0);
		if (d.getTime() > ext[1]) return "";
		return ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][d.getMonth()] + " " + d.getDate();
	},

	// scalarChart returns what the scalar chart of tag shows beside its
	// lines: the empty chart's message, the legend, and the colours of the
	// groups' and the runs' lines.
	scalarChart(tag) {
		const fig = [...document.querySelectorAll("figure.chart-card")].find(f => f.dataset.tag === tag);
		const opt = echarts.getInstanceByDom(fig.querySelector("div.chart")).getOption();
		const msg = opt.graphic && opt.graphic[0] && opt.graphic[0].elements[0];
		const legend = opt.legend[0];
		const colors = {};
		for (const s of opt.series) {
			if (s && /^(run|group):/.test(String(s.id))) colors[String(s.id)] = s.color;
		}
		const runColors = {};
		for (const li of document.querySelectorAll(".run-selector .run-list li")) {
			const sw = li.querySelector(".swatch, .run-swatch, span[style]");
			runColors[li.textContent.trim()] = sw ? getComputedStyle(sw).backgroundColor : "";
		}
		return JSON.stringify({Message: msg ? String(msg.style.text) : "", MessageShown: !!msg && !msg.invisible,
			Legend: !!legend.show, LegendData: (legend.data || []).map(d => typeof d === "string" ? d : d.name),
			Colors: colors});
	},

	// set types value into the control called name, as a user would.
	set(name, value) {
		const i = document.querySelector('main.page:not([hidden]) form[data-controls] [name="' + name + '"]');
		i.value = value;
		i.dispatchEvent(new Event(i.tagName === "SELECT" || name === "smoothing" ? "change" : "input", {bubbles: true}));
		return true;
	},

	// pin presses the pin button of the chart of tag.
	pin(tag) {
		const fig = [...document.querySelectorAll("figure.chart-card")].find(f => f.dataset.tag === tag);
		fig.querySelector('[data-action="pin"]').click();
		return true;
	},

	// navShown tells whether the navigation shows the link to page.
	navShown(page) {
		const a = document.querySelector('header.top nav a[data-page="' + page + '"]');
		return !!a && !a.hidden && a.offsetParent !== null;
	},
})

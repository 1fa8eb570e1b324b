// The scalars page of a sweep (browser_scalarsweep_test.go): what each
// chart draws (the band, the best and worst runs, the runs checked), the
// run selector, and acting on it as a reader does.
({
	// charts returns, once the page is ready, per chart its tag, its flip
	// button, the band and ends of its data, and the series drawn: per
	// series its id, name and [x, y] points.
	async charts() {
		await awaitReady();
		return [...document.querySelectorAll("figure.chart-card")].map(fig => {
			const div = fig.querySelector("div.chart[data-chart]");
			const data = JSON.parse(fig.querySelector("script.chart-data").textContent);
			const inst = div ? echarts.getInstanceByDom(div) : undefined;
			const opt = inst ? inst.getOption() : null;
			const flip = fig.querySelector('[data-action="flip"]');
			return {
				tag: fig.dataset.tag,
				flip: flip ? flip.textContent : "",
				better: fig.dataset.better || "",
				steps: data.sweep ? data.sweep.steps : [],
				median: data.sweep ? data.sweep.q[2] : [],
				ends: data.runs.map(r => ({name: r.name, rank: r.rank || "", points: r.points.map(p => [p[0], p[1]])})),
				series: opt ? opt.series.filter(s => s).map(s => ({
					id: String(s.id), name: String(s.name),
					points: (Array.isArray(s.data) ? s.data : []).filter(d => Array.isArray(d) && d.length === 2).map(d => [d[0], d[1] == null ? null : d[1]]),
					segments: s.type === "custom" ? s.data.length : 0,
				})) : [],
			};
		});
	},

	// selector returns what the run selector shows: its count, the rows of
	// the page of the list shown, the pager and the filters.
	async selector() {
		await awaitReady();
		const box = document.querySelector("[data-sweep-selector]");
		return {
			count: box.querySelector(".run-count").textContent,
			page: box.querySelector(".sweep-page").textContent,
			rows: [...box.querySelectorAll("ul.run-list li")].map(li => ({
				name: li.querySelector(".run-label").textContent,
				checked: li.querySelector("input").checked,
				disabled: li.querySelector("input").disabled,
				final: (li.querySelector(".run-final") || {}).textContent || "",
			})),
			filters: [...box.querySelectorAll(".sweep-filter")].map(l => l.querySelector("span").textContent + ":" +
				[...l.querySelectorAll("select, input")].map(e => e.tagName.toLowerCase()).join(",")),
			notes: [...box.querySelectorAll("p.note")].map(p => p.textContent),
		};
	},

	// filter sets the list of hyperparameter name to value and says so.
	filter(name, value) {
		const label = [...document.querySelectorAll(".sweep-filter")].find(l => l.querySelector("span").textContent === name);
		const sel = label.querySelector("select");
		sel.value = value;
		sel.dispatchEvent(new Event("change", {bubbles: true}));
		return true;
	},

	// range sets the range of hyperparameter name.
	range(name, lo, hi) {
		const label = [...document.querySelectorAll(".sweep-filter")].find(l => l.querySelector("span").textContent === name);
		const [a, b] = label.querySelectorAll("input");
		a.value = String(lo);
		b.value = String(hi);
		b.dispatchEvent(new Event("input", {bubbles: true}));
		return true;
	},

	// sort sorts the list by the final value of tag, decreasing if desc.
	sort(tag, desc) {
		const sel = document.querySelector('[name="sweep-sort"]');
		const o = [...sel.options].find(o => o.textContent === "Final " + tag);
		sel.value = o ? o.value : "";
		sel.dispatchEvent(new Event("change", {bubbles: true}));
		const b = document.querySelector('[data-sweep="desc"]');
		if ((b.getAttribute("aria-pressed") === "true") !== desc) b.click();
		return true;
	},

	// check clicks the checkbox of the i-th row of the list shown, and
	// records the scripts the page adds from then on (loaded).
	check(i) {
		if (!window.__sweepScripts) {
			window.__sweepScripts = [];
			new MutationObserver(ms => ms.forEach(m => m.addedNodes.forEach(n => {
				if (n.tagName === "SCRIPT" && n.src) window.__sweepScripts.push(n.src);
			}))).observe(document.head, {childList: true});
		}
		document.querySelectorAll("[data-sweep-selector] ul.run-list input")[i].click();
		return true;
	},

	// click clicks the element matching selector (in figure of tag, when
	// given).
	click(selector, tag) {
		const root = tag ? [...document.querySelectorAll("figure.chart-card")].find(f => f.dataset.tag === tag) : document;
		root.querySelector(selector).click();
		return true;
	},

	// drawnEverywhere reports whether every chart draws a series called
	// name.
	drawnEverywhere(name) {
		const figs = [...document.querySelectorAll("figure.chart-card")];
		return figs.length > 0 && figs.every(fig => {
			const inst = echarts.getInstanceByDom(fig.querySelector("div.chart[data-chart]"));
			return inst && inst.getOption().series.some(s => s && s.name === name && s.id.startsWith("run:"));
		});
	},

	// exportJSON returns the JSON download of the chart of tag, parsed.
	async exportJSON(tag) {
		const fig = [...document.querySelectorAll("figure.chart-card")].find(f => f.dataset.tag === tag);
		return JSON.parse(await window.trainreport.exportJSON(fig));
	},

	// loaded lists the scripts the page added since check, as URLs.
	loaded() {
		return window.__sweepScripts || [];
	},
})

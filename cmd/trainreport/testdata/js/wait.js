// wait: the waits of the page scripts, on a state rather than for a time.
// pageJS (pagescripts_test.go) hands every function wait, made with the
// deadline ms (readyTimeout), beside awaitReady.
(ms) => {
	// name says which element a wait was for, in its message.
	const name = el => el.tagName.toLowerCase() + (el.dataset && el.dataset.tag ? "[data-tag=" + JSON.stringify(el.dataset.tag) + "]" : "");
	const wait = {
		// until resolves with check()'s first truthy value, checked now
		// and at each frame the page draws (the states waited for come
		// with a redraw), and rejects naming what when it is still false
		// after ms milliseconds. check may return a promise. A timer
		// checks once more at the deadline, should frames stop (a hidden
		// page draws none).
		until(check, what) {
			return new Promise((resolve, reject) => {
				const end = performance.now() + ms;
				let done = false, busy = false;
				const finish = (ok, v) => {
					if (done) return;
					done = true;
					clearTimeout(timer);
					if (ok) resolve(v); else reject(v);
				};
				const poll = last => {
					if (done || (busy && !last)) return;
					busy = true;
					Promise.resolve().then(check).then(v => {
						busy = false;
						if (v) finish(true, v);
						else if (last || performance.now() > end) finish(false, new Error(what + ": still false after " + ms + " ms"));
						else requestAnimationFrame(() => poll(false));
					}, e => { busy = false; finish(false, e); });
				};
				const timer = setTimeout(() => poll(true), ms);
				poll(false);
			});
		},

		// frame resolves at the page's next frame.
		frame() {
			return new Promise(r => requestAnimationFrame(() => r()));
		},

		// drawn tells whether every chart of el (app.js's lifecycle
		// handles, el.__trainreportChart, on el, the nearest element around
		// it, and elements in it; el may have none) is drawn: with its data
		// in, for the page's state (its key, when it has one, the one it
		// was drawn for) and at the size shown (ECharts measures its
		// element: a chart drawn hidden is resized when shown).
		drawn(el) {
			const handles = [];
			for (let e = el; e; e = e.parentElement) if (e.__trainreportChart) { handles.push(e.__trainreportChart); break; }
			for (const e of el.querySelectorAll("*")) if (e.__trainreportChart) handles.push(e.__trainreportChart);
			return handles.every(h => h.drawn && !h.pending &&
				!(h.opts.key && h.opts.update && h.charts.length && h.opts.key() !== h.key) &&
				h.charts.every(c => {
					const d = c.getDom();
					return d.clientWidth === 0 || d.clientHeight === 0 || d.clientWidth === c.getWidth() && d.clientHeight === c.getHeight();
				}));
		},

		// shown scrolls el into view (the lifecycle draws charts near the
		// viewport) and waits until its charts are drawn (see drawn). An
		// element hidden (by a filter, say) draws nothing: it is taken as
		// it is.
		async shown(el) {
			if (el.closest("[hidden]")) return;
			el.scrollIntoView();
			await wait.until(() => wait.drawn(el), "the charts of " + name(el) + " drawn");
		},
	};
	return wait;
}

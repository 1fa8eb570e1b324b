// The runs a card page leaves out over its byte budget, on demand
// (browser_moreruns_test.go).
({
	// cards returns, per card of the page, its tag and run and what it
	// shows once drawn: its text, the natural size of each of its images,
	// and how many charts it draws. It waits for that state rather than
	// for a time: a card not drawn yet is scrolled into view (the lifecycle
	// draws charts near the viewport, lazy images load there) and awaited
	// until its images are loaded and each of its charts (app.js's
	// lifecycle handle, el.__trainreportChart) is drawn with its data in; a
	// card hidden (by a filter) draws nothing and is taken as it is. The
	// caller's evaluation bounds the wait.
	async cards(page) {
		const main = document.querySelector('main.page[data-page="' + page + '"]');
		const frame = () => new Promise(r => requestAnimationFrame(r));
		const drawn = card => !!card.closest("[hidden]") ||
			[...card.querySelectorAll("img")].every(im => im.complete) &&
			[card, ...card.querySelectorAll("*")].every(el => {
				const h = el.__trainreportChart;
				return !h || h.drawn && !h.pending;
			});
		const cards = [];
		for (const sec of main.querySelectorAll("[data-filter-tag]")) {
			for (const card of sec.querySelectorAll("[data-filter-run]")) cards.push([sec, card]);
		}
		for (const [, card] of cards) {
			if (drawn(card)) continue;
			card.scrollIntoView();
			while (!drawn(card)) await frame();
		}
		// ECharts paints a chart given its options at a frame: count the
		// canvases once their number holds over two frames.
		const canvases = () => main.querySelectorAll("[data-filter-run] canvas").length;
		for (let n = -1, still = 0; still < 2; ) {
			await frame();
			const m = canvases();
			still = m === n ? still + 1 : 0;
			n = m;
		}
		window.scrollTo(0, 0);
		return cards.map(([sec, card]) => ({
			tag: sec.getAttribute("data-filter-tag"), run: card.getAttribute("data-filter-run"),
			hidden: card.hidden,
			text: card.textContent.replace(/\s+/g, " ").trim(),
			images: [...card.querySelectorAll("img")].map(im => im.naturalWidth + "x" + im.naturalHeight),
			charts: card.querySelectorAll("canvas").length,
		}));
	},

	// more returns, per tag section offering runs on demand, its button's
	// state: shown, and the status beside it.
	more(page) {
		const main = document.querySelector('main.page[data-page="' + page + '"]');
		return [...main.querySelectorAll("[data-more]")].map(sec => {
			const p = sec.querySelector(":scope > p.more-runs");
			return {tag: sec.getAttribute("data-filter-tag"), shown: !!p && !p.hidden && !sec.hidden,
				status: p ? p.querySelector(".more-runs-status").textContent.trim() : ""};
		});
	},

	// showMore clicks each tag's "Show more runs" until it is gone, or at
	// most clicks times, and returns how many clicks each tag took. After
	// each click it waits for the script to be in (app.js disables the
	// button while it loads), however long that takes: a click on a
	// disabled button would do nothing and still count.
	async showMore(page, clicks) {
		const main = document.querySelector('main.page[data-page="' + page + '"]');
		const frame = () => new Promise(r => requestAnimationFrame(r));
		const took = {};
		for (const sec of main.querySelectorAll("[data-more]")) {
			const p = sec.querySelector(":scope > p.more-runs"), button = p && p.querySelector("button");
			const settled = () => p.hidden || !button.disabled;
			let n = 0;
			while (button && !p.hidden && n < clicks) {
				while (!settled()) await frame();
				if (p.hidden) break;
				button.click();
				n++;
				while (!settled()) await frame();
			}
			took[sec.getAttribute("data-filter-tag")] = n;
		}
		return took;
	},

	// filter types re into the page's Runs filter.
	filter(page, re) {
		const input = document.querySelector('main.page[data-page="' + page + '"] input[name="runs"]');
		input.value = re;
		input.dispatchEvent(new Event("input", {bubbles: true}));
	},
})

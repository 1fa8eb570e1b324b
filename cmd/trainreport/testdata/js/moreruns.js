// The runs a card page leaves out over its byte budget, on demand
// (browser_moreruns_test.go).
({
	// cards scrolls every card of the page into view and returns, per
	// card, its tag and run and what it shows once drawn: its text, the
	// natural size of each of its images, and how many charts it draws.
	async cards(page) {
		const main = document.querySelector('main.page[data-page="' + page + '"]');
		const sleep = ms => new Promise(r => setTimeout(r, ms));
		const out = [];
		for (const sec of main.querySelectorAll("[data-filter-tag]")) {
			for (const card of sec.querySelectorAll("[data-filter-run]")) {
				card.scrollIntoView();
				// Drawn when its images are loaded and its count of charts
				// stays put for a few frames (the lifecycle draws charts
				// near the viewport, a few a frame).
				let charts = -1, still = 0;
				for (let i = 0; i < 200 && still < 3; i++) {
					await new Promise(r => requestAnimationFrame(r));
					const imgs = [...card.querySelectorAll("img")];
					const n = card.querySelectorAll("canvas").length;
					still = n === charts && imgs.every(im => im.complete) ? still + 1 : 0;
					charts = n;
					if (still < 3) await sleep(10);
				}
				out.push({
					tag: sec.getAttribute("data-filter-tag"), run: card.getAttribute("data-filter-run"),
					hidden: card.hidden,
					text: card.textContent.replace(/\s+/g, " ").trim(),
					images: [...card.querySelectorAll("img")].map(im => im.naturalWidth + "x" + im.naturalHeight),
					charts: card.querySelectorAll("canvas").length,
				});
			}
		}
		window.scrollTo(0, 0);
		return out;
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
	// most clicks times, and returns how many clicks each tag took.
	async showMore(page, clicks) {
		const main = document.querySelector('main.page[data-page="' + page + '"]');
		const took = {};
		for (const sec of main.querySelectorAll("[data-more]")) {
			const p = sec.querySelector(":scope > p.more-runs"), button = p && p.querySelector("button");
			let n = 0;
			while (button && !p.hidden && n < clicks) {
				const before = sec.querySelectorAll("[data-filter-run]").length;
				button.click();
				n++;
				for (let i = 0; i < 250 && sec.querySelectorAll("[data-filter-run]").length === before; i++) await new Promise(r => setTimeout(r, 20));
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

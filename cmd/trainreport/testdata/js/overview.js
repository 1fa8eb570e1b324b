// The overview's lists of the files skipped or read in part, of the
// data no page draws yet and of the graphs (browser_overview_test.go).
({
	// lists reads both lists as the page shows them, once it is ready.
	async lists() {
		await awaitReady();
		const shown = (el) => !!el && el.getClientRects().length > 0;
		const note = document.querySelector("p.files-note");
		return {
			note: note ? note.textContent.replace(/\s+/g, " ").trim() : "",
			noteShown: shown(note),
			skippedShown: shown(document.getElementById("skipped")),
			skipped: [...document.querySelectorAll("ul.skipped > li")].map((li) => ({
				run: li.querySelector(":scope > b").textContent,
				files: [...li.querySelectorAll(":scope > ul > li")].map((f) => ({
					path: f.querySelector("code").textContent,
					status: f.querySelector(".badge").textContent,
					why: f.textContent.slice(f.textContent.indexOf(f.querySelector(".badge").textContent) + f.querySelector(".badge").textContent.length).trim(),
					shown: shown(f),
				})),
			})),
			notDrawnShown: shown(document.getElementById("not-drawn")),
			notDrawn: [...document.querySelectorAll("ul.not-drawn > li")].map((li) => li.textContent.replace(/\s+/g, " ").trim()),
			graphs: [...document.querySelectorAll("table.graphs tbody tr")].map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent).join(" | ") + " -> " + (tr.querySelector("a") ? tr.querySelector("a").getAttribute("href") : "")),
		};
	},

	// follow clicks the lead's link to the section id and tells, once the
	// page took the new hash (its hashchange listener, app.js's, added
	// before ours, has run), whether the overview still shows and the
	// section's heading is in the window.
	async follow(id) {
		await awaitReady();
		const a = document.querySelector('p.files-note a[href="#' + id + '"]');
		if (!a) return "no link to #" + id;
		let changed = location.hash === "#" + id; // no change to wait for
		window.addEventListener("hashchange", () => { changed = true; }, {once: true});
		a.click();
		await wait.until(() => changed, "the hash #" + id + " taken");
		const h = document.getElementById(id);
		const box = h.getBoundingClientRect();
		if (h.getClientRects().length === 0) return "#" + id + " is hidden after the click";
		// Scrolled to the top, to a fraction of a pixel.
		if (box.top < -1 || box.bottom > window.innerHeight) return "#" + id + " is not in the window: top " + box.top;
		return "";
	},
})

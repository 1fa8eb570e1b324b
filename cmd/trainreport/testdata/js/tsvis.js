// TS-VIS's own kinds on the Tensors and Images pages (browser_tsvis_test.go).
({
	// cards scrolls every tensor card into view in turn, waiting at each
	// until its charts are drawn, and returns, as JSON, per card its tag,
	// the heat map's [column, row, value] cells, and per image of its grid
	// its size and the RGBA of its first pixel.
	async cards() {
		await awaitReady();
		const cards = [...document.querySelectorAll("article.tensor-card")];
		for (const c of cards) await wait.shown(c);
		await awaitReady();
		return JSON.stringify(cards.map(c => {
			const div = c.querySelector("[data-tensor-values]");
			const inst = div && !div.hidden ? echarts.getInstanceByDom(div) : null;
			const opt = inst ? inst.getOption() : null;
			return {
				tag: c.dataset.tag,
				heat: opt ? opt.series[0].data : [],
				images: [...c.querySelectorAll("[data-tensor-images] canvas")].map(cv => ({
					w: cv.width, h: cv.height, first: [...cv.getContext("2d").getImageData(0, 0, 1, 1).data],
				})),
			};
		}));
	},

	// images waits for the Images page's images to load and returns, as
	// JSON, per tag its images' src, natural sizes and first pixels' RGBA
	// (null where the page may not read its pixels: a file of the site,
	// from file://).
	async images() {
		await awaitReady();
		const imgs = [...document.querySelectorAll("section.media-tag img.media-img")];
		await Promise.all(imgs.map(im => im.complete ? null : new Promise(r => { im.onload = im.onerror = r; })));
		const out = {};
		for (const sec of document.querySelectorAll("section.media-tag")) {
			out[sec.dataset.filterTag] = [...sec.querySelectorAll("img.media-img")].map(im => {
				const cv = document.createElement("canvas");
				cv.width = im.naturalWidth; cv.height = im.naturalHeight;
				const ctx = cv.getContext("2d");
				ctx.drawImage(im, 0, 0);
				let first = null;
				try { first = [...ctx.getImageData(0, 0, 1, 1).data]; } catch (e) { /* tainted */ }
				return {src: im.getAttribute("src"), w: im.naturalWidth, h: im.naturalHeight, first};
			});
		}
		return JSON.stringify(out);
	},
})

// TS-VIS's own kinds on the Tensors page (browser_customscalars_test.go's
// TestBrowserTSVisKinds): per card, its value heat map and image grid.
({
	// cards scrolls every tensor card into view in turn and returns, as
	// JSON, per card its tag, the heat map's [column, row, value] cells,
	// and per image of its grid its size and the RGBA of its first pixel.
	async cards() {
		await awaitReady();
		const cards = [...document.querySelectorAll("article.tensor-card")];
		for (const c of cards) { c.scrollIntoView(); await new Promise(r => setTimeout(r, 100)); }
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
})

// The Images and Audio pages (browser_media_test.go).
({
	// fileRefs counts the elements of the page whose source is not a data:
	// URI.
	fileRefs(page) {
		return [...document.querySelectorAll('main.page[data-page="' + page + '"] [src]')]
			.filter(e => !e.getAttribute('src').startsWith('data:')).length;
	},

	// sliders moves every tag's step slider to its first and then its last
	// stop and reports, per tag and stop, whether each run's cell shows the
	// sources its data says it should: the latest kept step at or before the
	// chosen one (the last stop: every run's last entry, the line's write of
	// its last step). selector selects the shown media elements, list names
	// the entry's list of them ('images', 'clips').
	sliders(page, selector, list) {
		const main = document.querySelector('main.page[data-page="' + page + '"]');
		const res = {tags: 0, moved: 0, changed: 0, bad: []};
		for (const s of main.querySelectorAll('section.media-tag')) {
			res.tags++;
			const d = JSON.parse(s.querySelector('script.media-data').textContent);
			const input = s.querySelector('.media-step input');
			const shown = () => [...s.querySelectorAll('.media-cell')].map(c => [...c.querySelectorAll(selector)].map(e => e.getAttribute('src')));
			const want = (step) => d.runs.map(run => {
				let e = null;
				for (const x of run.entries) if (x.step <= step) e = x;
				return e ? e[list].map(x => x.src) : [];
			});
			const before = JSON.stringify(shown());
			const last = Number(input.max);
			for (const i of [0, last]) {
				input.value = String(i);
				input.dispatchEvent(new Event('input', {bubbles: true}));
				const step = i === 0 ? d.steps[0] : d.steps[d.steps.length - 1];
				// The first stop shows each run's first write of the first step.
				const exp0 = d.runs.map(run => run.entries.length && run.entries[0].step === step ? run.entries[0][list].map(x => x.src) : []);
				const got = JSON.stringify(shown()), exp = JSON.stringify(i === 0 ? exp0 : want(step));
				if (got !== exp) res.bad.push(d.tag + ' at step ' + d.steps[i] + ': shows ' + got.slice(0, 200) + ', want ' + exp.slice(0, 200));
				if (i === 0 && d.steps.length > 1) { res.moved++; if (got !== before) res.changed++; }
			}
		}
		return res;
	},

	// imagesLoaded tells whether the images page shows images and every one
	// has loaded.
	imagesLoaded() {
		const imgs = [...document.querySelectorAll('main.page[data-page="images"] .media-grid img')];
		return imgs.length > 0 && imgs.every(i => i.complete && i.naturalWidth > 0);
	},

	// filter sets brightness 1.5 and contrast 0.5, then resets them, and
	// returns the first image's CSS filter at each.
	filter() {
		const main = document.querySelector('main.page[data-page="images"]');
		const f = main.querySelector('form.media-controls');
		f.elements.brightness.value = '1.5';
		f.elements.brightness.dispatchEvent(new Event('input', {bubbles: true}));
		f.elements.contrast.value = '0.5';
		f.elements.contrast.dispatchEvent(new Event('input', {bubbles: true}));
		const got = getComputedStyle(main.querySelector('.media-grid img')).filter;
		f.elements.reset.click();
		return got + ' / ' + getComputedStyle(main.querySelector('.media-grid img')).filter;
	},

	// fullSizeOpen tells whether the full-size view is open, showing the
	// first image, loaded.
	fullSizeOpen() {
		const d = document.querySelector('main.page[data-page="images"] dialog.media-lightbox');
		const img = d.querySelector('img');
		return d.open && img.complete && img.naturalWidth > 0 &&
			img.src === document.querySelector('main.page[data-page="images"] .media-grid img').src;
	},

	// imageSizes checks the size every image of the grid is drawn at, and
	// then, opening each in the full-size view (one image of each natural
	// size), the size it is drawn at there. It returns how many images and
	// how many views it checked and what is wrong: an empty box, a size
	// that is not its natural size times a whole factor or divided by one
	// (pixels stay sharp, both sides alike), a full-size view larger than
	// the window's box not shrunk just to fit it, a view smaller than its
	// thumbnail, an image drawn larger than 1x without sharp pixels.
	async imageSizes() {
		const main = document.querySelector('main.page[data-page="images"]');
		const bad = [];
		const drawn = (img) => {
			const r = img.getBoundingClientRect(), cs = getComputedStyle(img);
			const px = (p) => parseFloat(cs[p]) || 0;
			return {w: r.width - px('borderLeftWidth') - px('borderRightWidth') - px('paddingLeft') - px('paddingRight'),
				h: r.height - px('borderTopWidth') - px('borderBottomWidth') - px('paddingTop') - px('paddingBottom')};
		};
		const check = (where, img) => {
			const nw = img.naturalWidth, nh = img.naturalHeight, d = drawn(img);
			const name = where + ' ' + img.alt + ' (' + nw + 'x' + nh + ')';
			if (!(d.w >= 1 && d.h >= 1)) { bad.push(name + ': drawn ' + d.w + 'x' + d.h); return d; }
			const up = d.w >= nw - 0.5;
			if (up) {
				const k = Math.round(d.w / nw);
				if (Math.abs(d.w - k * nw) > 0.5 || Math.abs(d.h - k * nh) > 0.5) bad.push(name + ': drawn ' + d.w + 'x' + d.h + ', not a whole multiple');
				if (k > 1 && getComputedStyle(img).imageRendering !== 'pixelated') bad.push(name + ': scaled ' + k + 'x, image-rendering ' + getComputedStyle(img).imageRendering);
			} else if (where === 'full-size view of') {
				// Shrunk to fit the window's box (images.js, openFull): one
				// side fills it, the aspect ratio kept.
				const boxW = Math.floor(innerWidth * 0.95) - 40, boxH = Math.floor(innerHeight * 0.8);
				const fills = Math.abs(d.w - boxW) <= 1 || Math.abs(d.h - boxH) <= 1;
				if (!fills || d.w > boxW + 1 || d.h > boxH + 1 || Math.abs(d.w / d.h - nw / nh) > 0.02 * nw / nh)
					bad.push(name + ': drawn ' + d.w + 'x' + d.h + ', not shrunk to fit the window\'s ' + boxW + 'x' + boxH);
			} else {
				const k = Math.round(Math.max(nw, nh) / Math.max(d.w, d.h));
				if (Math.abs(d.w - nw / k) > 1 || Math.abs(d.h - nh / k) > 1) bad.push(name + ': drawn ' + d.w + 'x' + d.h + ', not a whole fraction');
			}
			return d;
		};
		const imgs = [...main.querySelectorAll('.media-grid img')];
		imgs.forEach(img => { img.scrollIntoView(); check('thumbnail', img); });
		const dialog = main.querySelector('dialog.media-lightbox');
		const seen = new Set();
		let views = 0;
		for (const img of imgs) {
			const key = img.naturalWidth + 'x' + img.naturalHeight;
			if (seen.has(key)) continue;
			seen.add(key);
			img.scrollIntoView();
			const thumb = drawn(img);
			img.click();
			const full = dialog.querySelector('img');
			// Until the view shows the image loaded. One that does not by
			// the deadline ends the walk: the test fails on it.
			const shown = () => dialog.open && full.src === img.src && full.complete && full.naturalWidth > 0;
			if (!await wait.until(shown, "").then(() => true, () => false)) {
				bad.push('full-size view of ' + img.alt + (dialog.open ? ' did not show its image loaded' : ' did not open'));
				if (dialog.open) dialog.close();
				break;
			}
			views++;
			const d = check('full-size view of', full);
			if (d.w < thumb.w - 0.5 || d.h < thumb.h - 0.5) bad.push('full-size view of ' + img.alt + ' (' + key + '): ' + d.w + 'x' + d.h + ', smaller than its thumbnail ' + thumb.w + 'x' + thumb.h);
			dialog.close();
		}
		return {images: imgs.length, views: views, bad: bad};
	},

	// openNarrowest opens the full-size view of the grid's image with the
	// fewest pixels on its shorter side, for a screenshot.
	openNarrowest() {
		const imgs = [...document.querySelectorAll('main.page[data-page="images"] .media-grid img')];
		const side = (i) => Math.min(i.naturalWidth, i.naturalHeight);
		imgs.reduce((a, b) => side(b) < side(a) ? b : a).click();
	},

	// clipsLoaded tells whether every clip the Go side could decode has
	// loaded in its player, the others having a player and a note.
	clipsLoaded() {
		const cells = [...document.querySelectorAll('main.page[data-page="audio"] .media-clip')];
		return cells.length > 0 && cells.every(c => {
			const a = c.querySelector('audio');
			if (!a) return false;
			if (c.querySelector('.media-error')) return true;
			return a.readyState >= 1 && a.duration > 0 && a.networkState !== HTMLMediaElement.NETWORK_NO_SOURCE;
		});
	},

	// previewsDrawn scrolls to every waveform and spectrogram and tells
	// whether each has its chart, drawn.
	previewsDrawn() {
		const divs = [...document.querySelectorAll('main.page[data-page="audio"] .media-wave, main.page[data-page="audio"] .media-spec')];
		return divs.length > 0 && divs.every(d => { d.scrollIntoView(); const c = echarts.getInstanceByDom(d); return c && d.querySelector('canvas'); });
	},

	// badPreviews lists what is wrong with the audio page's charts: a
	// spectrogram not a heat map of frames x bins, a waveform without its
	// envelope.
	badPreviews() {
		const bad = [];
		for (const d of document.querySelectorAll('main.page[data-page="audio"] .media-spec')) {
			const o = echarts.getInstanceByDom(d).getOption();
			const n = o.xAxis[0].data.length * o.yAxis[0].data.length;
			if (o.series[0].type !== 'heatmap' || o.series[0].data.length !== n || n === 0 || n > 128 * 64) bad.push('spectrogram of ' + n + ' cells');
		}
		for (const d of document.querySelectorAll('main.page[data-page="audio"] .media-wave')) {
			const o = echarts.getInstanceByDom(d).getOption();
			if (o.series.length !== 2 || o.series[1].data.length === 0 || o.series[1].data.some(v => !(v >= 0))) bad.push('waveform envelope');
		}
		return bad;
	},

	// notText lists the tag and run names of the page not shown as the
	// text they are, and any element made from a name.
	notText(page) {
		const bad = [];
		for (const s of document.querySelectorAll('main.page[data-page="' + page + '"] section.media-tag')) {
			const d = JSON.parse(s.querySelector('script.media-data').textContent);
			if (s.querySelector('.tag-name').textContent !== d.tag) bad.push('tag ' + d.tag);
			[...s.querySelectorAll('.media-run')].forEach((e, i) => { if (e.textContent !== d.runs[i].name) bad.push('run ' + d.runs[i].name); });
		}
		if (document.querySelector('main.page img[src="x"], main.page script:not([type])')) bad.push('an element from a name');
		return bad;
	},
})

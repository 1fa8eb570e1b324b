// The Visdom page (browser_visdom_test.go).
({
	// shown tells whether the page is shown.
	shown() {
		const main = document.querySelector('main.page[data-page="visdom"]');
		return !!main && !main.hidden;
	},

	// read scrolls every window into view in turn, waiting at each until
	// its chart is drawn, and returns, as JSON, per window: its id, type,
	// caption title, the chart's title, the series drawn (type and data),
	// the window's own data (from the page), the properties table's rows,
	// the links to other pages, and the notes.
	async read() {
		const main = document.querySelector('main.page[data-page="visdom"]');
		const cards = [...main.querySelectorAll('figure.visdom-card')];
		for (const c of cards) await wait.shown(c);
		return JSON.stringify(cards.map(c => {
			const div = c.querySelector('.visdom-chart');
			const inst = div ? echarts.getInstanceByDom(div) : null;
			const opt = inst ? inst.getOption() : null;
			const data = c.querySelector('script.stat-data');
			return {
				ID: c.dataset.visdomId, Type: c.dataset.visdomType,
				Caption: c.querySelector('.visdom-title').textContent,
				Env: c.closest('section').querySelector('h2').textContent,
				Chart: !!div, Drawn: !!opt,
				ChartTitle: opt && opt.title && opt.title[0] ? opt.title[0].text : '',
				Series: opt ? opt.series.map(s => ({Type: s.type, Name: s.name || '', Data: JSON.stringify(s.data), Links: JSON.stringify(s.links || [])})) : [],
				XAxis: opt && opt.xAxis ? opt.xAxis.map(a => a.name || '') : [],
				YAxis: opt && opt.yAxis ? opt.yAxis.map(a => a.name || '') : [],
				Window: data ? data.textContent : '',
				Properties: [...c.querySelectorAll('table.visdom-properties tbody tr')].map(tr => [...tr.cells].map(td => td.textContent)),
				Links: [...c.querySelectorAll('.visdom-where a')].map(a => a.getAttribute('href') + ' ' + a.closest('p').querySelector('code').textContent),
				Notes: [...c.querySelectorAll('.visdom-note, .visdom-where:not(:has(a))')].map(p => p.textContent),
				Text: c.querySelector('.visdom-text') ? c.querySelector('.visdom-text').innerHTML : '',
				SVG: [...c.querySelectorAll('img.visdom-svg')].map(i => (i.complete ? i.naturalWidth + 'x' + i.naturalHeight + ' shown ' + i.clientWidth + 'x' + i.clientHeight : 'loading')),
				Image: [...c.querySelectorAll('img.visdom-image')].map(i => (i.complete ? i.naturalWidth + 'x' + i.naturalHeight : 'loading')),
			};
		}));
	},

	// injected counts elements that markup in titles or names would have
	// made: none may exist.
	injected() {
		const main = document.querySelector('main.page[data-page="visdom"]');
		return main.querySelectorAll('figcaption script, figcaption img, h2 script, td script, td img, .visdom-text script, .visdom-text [onerror], .visdom-text a[href^="javascript"]').length;
	},
})

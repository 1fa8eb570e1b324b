// The Runs and Tags filters of the pages drawn per tag and run
// (browser_filters_test.go).
({
	// ready tells whether the page is shown with its runs in it (the media
	// pages add their runs' cells when shown).
	ready(page) {
		const main = document.querySelector('main.page[data-page="' + page + '"]');
		return !!main && !main.hidden && main.querySelector('[data-filter-run]') !== null;
	},

	// view returns, as JSON, a filterView of the page: per tag container,
	// whether it is shown and its runs, each with whether it is shown.
	view(page) {
		const main = document.querySelector('main.page[data-page="' + page + '"]');
		const shown = el => !el.closest('[hidden]');
		return JSON.stringify({
			Tags: [...main.querySelectorAll('[data-filter-tag]')].map(el => ({
				Tag: el.getAttribute('data-filter-tag'), Shown: shown(el),
				Runs: [...el.querySelectorAll('[data-filter-run]')].map(r => ({Run: r.getAttribute('data-filter-run'), Shown: shown(r)})),
			})),
			Groups: main.querySelectorAll('[data-filter-group]').length,
			GroupsShown: [...main.querySelectorAll('[data-filter-group]')].filter(shown).length,
			Empty: shown(main.querySelector('.empty-filter')),
			Hash: decodeURIComponent(location.hash),
		});
	},

	// set types value into the page's own filter input called name.
	set(page, name, value) {
		const main = document.querySelector('main.page[data-page="' + page + '"]');
		const input = main.querySelector('form[data-controls] input[name="' + name + '"]');
		input.value = value;
		input.dispatchEvent(new Event('input', {bubbles: true}));
		return true;
	},

	// invalid tells whether the page's runs input is marked invalid.
	invalid(page) {
		const main = document.querySelector('main.page[data-page="' + page + '"]');
		return main.querySelector('input[name="runs"]').getAttribute('aria-invalid') === 'true';
	},

	// lastRun filters the document to the last run it holds, for a look,
	// and returns the pattern typed.
	lastRun() {
		const runs = document.querySelectorAll('[data-filter-run]'), i = document.querySelector('input[name="runs"]');
		i.value = runs[runs.length - 1].getAttribute('data-filter-run');
		i.dispatchEvent(new Event('input', {bubbles: true}));
		return i.value;
	},
})

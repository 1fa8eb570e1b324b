// The graphs page (browser_graphs_test.go). The graph's data is read
// again as the page reads it: the inline element of the single file, or
// the data file's script through trainreport.loadData (cached: the same
// object the page drew).
({
	main() { return document.querySelector('main.page[data-page="graphs"]'); },

	// drawn tells whether the page has drawn a view of the graph it names.
	drawn() {
		const m = document.querySelector('main.page[data-page="graphs"]');
		return !!m && !m.hidden && !!m.getAttribute('data-graph-drawn');
	},

	async data() {
		const m = document.querySelector('main.page[data-page="graphs"]');
		const list = JSON.parse(m.querySelector('#graph-list').textContent);
		const id = m.querySelector('[data-graph-select]').value;
		const e = list.find(x => x.id === id);
		const inline = [...m.querySelectorAll('script.graph-inline')].find(s => s.getAttribute('data-graph-id') === id);
		if (inline) return JSON.parse(inline.textContent);
		return window.trainreport.loadData(e.id, e.script);
	},

	// view compares the drawn view with the data: the group shown, its
	// boxes and edges drawn and expected, boxes whose drawn rectangle is
	// not where the data puts it, and the breadcrumbs.
	async view() {
		const m = this.main();
		const d = await this.data();
		const svg = m.querySelector('[data-graph-canvas] svg');
		const gi = svg ? Number(svg.getAttribute('data-group')) : -1;
		const g = gi >= 0 ? d.groups[gi] : null;
		const out = {group: g ? g.name : null, kind: g ? g.kind : null, crumbs: [...m.querySelectorAll('[data-graph-crumbs] button')].map(b => b.textContent)};
		if (!g) return JSON.stringify(out);
		out.boxes = svg.querySelectorAll('g[data-child]').length;
		out.wantBoxes = g.children.filter(c => c.box).length;
		out.edges = svg.querySelectorAll('path[data-edge]').length;
		out.wantEdges = g.edges.filter(e => e.path && e.path.length >= 8).length;
		out.dashed = svg.querySelectorAll('path[data-edge][stroke-dasharray]').length;
		out.wantDashed = g.edges.filter(e => e.path && !e.data).length;
		out.misplaced = 0;
		svg.querySelectorAll('g[data-child]').forEach(n => {
			const c = g.children[Number(n.getAttribute('data-child'))];
			const r = n.querySelector('rect[data-core]');
			const x = Number(r.getAttribute('x')), y = Number(r.getAttribute('y')), w = Number(r.getAttribute('width')), h = Number(r.getAttribute('height'));
			const b = c.box;
			if (x < b[0] - 0.01 || y < b[1] - 0.01 || x + w > b[0] + b[2] + 0.01 || y + h > b[1] + b[3] + 0.01) out.misplaced++;
		});
		out.firstScope = g.children.findIndex(c => c.kind !== 'op' && c.box);
		out.scopeName = out.firstScope >= 0 ? d.groups[g.children[out.firstScope].ref].name : '';
		return JSON.stringify(out);
	},

	// open double-clicks child i of the drawn view.
	open(i) {
		const n = this.main().querySelector('[data-graph-canvas] svg g[data-child="' + i + '"]');
		n.dispatchEvent(new MouseEvent('dblclick', {bubbles: true}));
		return true;
	},

	// crumb clicks breadcrumb i.
	crumb(i) {
		this.main().querySelectorAll('[data-graph-crumbs] button')[i].click();
		return true;
	},

	// find types q into the search box and presses Enter.
	find(q) {
		const input = this.main().querySelector('[data-graph-find]');
		input.value = q;
		input.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true}));
		return true;
	},

	// details returns the details panel's node and what the data says of
	// it, and whether the node is drawn selected in the view.
	async details() {
		const m = this.main();
		const d = await this.data();
		const name = m.querySelector('[data-detail-name]');
		const op = m.querySelector('[data-detail-op] td');
		const inputs = [...m.querySelectorAll('[data-detail-input] td')].map(td => td.textContent);
		const net = (d.c_graph || d.s_graph).net;
		const n = name ? net.find(x => x.name === name.textContent) : null;
		const svg = m.querySelector('[data-graph-canvas] svg');
		const sel = svg ? [...svg.querySelectorAll('rect[data-core]')].filter(r => r.getAttribute('stroke') === '#e8590c').length : 0;
		return JSON.stringify({name: name ? name.textContent : '', op: op ? op.textContent : '', inputs: inputs,
			dataOp: n ? n.op : null, dataInputs: n ? n.inputs.map(i => {
				// An input names its producer by index: its name, its
				// output's shape and its dtype are the producer's.
				const p = i.node >= 0 ? net[i.node] : null;
				let text = p ? p.name + (i.port || '') : i.name;
				if (p && !i.control) {
					const shape = p.output_shapes[i.output || 0];
					text += (shape ? ' ' + shape : '') + (p.dtype ? ' ' + p.dtype : '');
				}
				return text;
			}) : null,
			scope: n ? d.groups[n.group].name : null, selected: sel, hash: location.hash});
	},

	// colorBy picks "Colour by" k and returns, for the drawn view, the op
	// boxes drawn in a statistic's colour and those the data gives the
	// statistic to, and whether the option could be chosen.
	async colorBy(k) {
		const m = this.main();
		const sel = m.querySelector('[data-graph-color]');
		const opt = sel.querySelector('option[value="' + k + '"]');
		sel.value = k;
		sel.dispatchEvent(new Event('change'));
		const d = await this.data();
		const net = (d.c_graph || d.s_graph).net;
		const svg = m.querySelector('[data-graph-canvas] svg');
		const g = d.groups[Number(svg.getAttribute('data-group'))];
		let colored = 0, want = 0;
		svg.querySelectorAll('g[data-child]').forEach(n => {
			const c = g.children[Number(n.getAttribute('data-child'))];
			if (c.kind !== 'op') return;
			const v = k === 'compute' ? net[c.ref].compute_micros : net[c.ref].memory_bytes;
			if (typeof v === 'number') want++;
			if (n.querySelector('rect[data-core]').getAttribute('fill').startsWith('hsl(25,')) colored++;
		});
		return JSON.stringify({enabled: !!opt && !opt.disabled, colored: colored, want: want, legend: m.querySelector('[data-graph-legend]').textContent});
	},

	// exported clicks the SVG and PNG buttons with the page's download
	// caught, and returns what each would have saved: its name, type and
	// size, and for the SVG its boxes and edges and whether it parses.
	async exported() {
		const m = this.main();
		const util = window.trainreport.util;
		const saved = util.download;
		const got = [];
		util.download = (blob, name) => got.push({blob, name});
		try {
			m.querySelector('[data-graph-export="svg"]').click();
			m.querySelector('[data-graph-export="png"]').click();
			// The PNG is drawn from an image of the SVG, which loads later:
			// the test reports what came by the deadline.
			await wait.until(() => got.length >= 2, "both downloads").catch(() => {});
		} finally {
			util.download = saved;
		}
		const out = [];
		for (const g of got) {
			const e = {name: g.name, type: g.blob.type, size: g.blob.size};
			if (g.blob.type === 'image/svg+xml') {
				const doc = new DOMParser().parseFromString(await g.blob.text(), 'image/svg+xml');
				e.parses = !doc.querySelector('parsererror');
				e.boxes = doc.querySelectorAll('g[data-child]').length;
				e.edges = doc.querySelectorAll('path[data-edge]').length;
			}
			out.push(e);
		}
		return JSON.stringify(out);
	},

	// measure reports what the drawn view looks like on screen: its zoom
	// (screen pixels a layout pixel), the smallest font of a box's label on
	// screen, the box labels drawn outside their box, the annotations
	// farther than 10 px from their box's core or outside its box
	// vertically, and whether the view's main box (the most ops, side box
	// aside) is inside the visible part of the canvas.
	async measure() {
		const m = this.main();
		const d = await this.data();
		const canvas = m.querySelector('[data-graph-canvas]');
		const svg = canvas.querySelector('svg');
		const g = d.groups[Number(svg.getAttribute('data-group'))];
		const scale = svg.getScreenCTM().a;
		const out = {zoom: scale, minFont: Infinity, labels: 0, labelsOutside: [], anns: 0, annsDetached: [], mainShown: false, main: ''};
		const ops = c => c.kind === 'op' ? 1 : d.groups[c.ref].ops;
		let best = -1;
		g.children.forEach((c, i) => { if (c.box && !c.side && (best < 0 || ops(c) > ops(g.children[best]))) best = i; });
		const view = canvas.getBoundingClientRect();
		svg.querySelectorAll('g[data-child]').forEach(n => {
			const ci = Number(n.getAttribute('data-child'));
			const c = g.children[ci];
			const core = n.querySelector('rect[data-core]').getBoundingClientRect();
			const label = n.querySelector('text:not([data-ann])');
			const r = label.getBoundingClientRect();
			out.labels++;
			out.minFont = Math.min(out.minFont, Number(label.getAttribute('font-size') || 11) * scale);
			if (label.textContent && (r.left < core.left - 1 || r.right > core.right + 1 || r.top < core.top - 1 || r.bottom > core.bottom + 1)) {
				out.labelsOutside.push(c.label);
			}
			// The layout's box, on screen: the annotations' room.
			const origin = svg.getBoundingClientRect();
			const box = {top: origin.top + c.box[1] * scale - 1, bottom: origin.top + (c.box[1] + c.box[3]) * scale + 1};
			n.querySelectorAll('text[data-ann]').forEach(t => {
				const a = t.getBoundingClientRect();
				out.anns++;
				const gap = t.getAttribute('data-ann') === 'in' ? core.left - a.right : a.left - core.right;
				if (gap < 0 || gap > 10 || a.bottom < box.top || a.top > box.bottom) out.annsDetached.push(c.label + ': ' + t.textContent + ' gap ' + gap.toFixed(1));
			});
			if (ci === best) {
				out.main = c.label;
				const cx = (core.left + core.right) / 2, cy = (core.top + core.bottom) / 2;
				out.mainShown = cx >= view.left && cx <= view.right && cy >= view.top && cy <= view.bottom;
			}
		});
		out.zoomed = (m.querySelector('[data-graph-zoomed]') || {}).textContent || '';
		return JSON.stringify(out);
	},

	// fit clicks Fit.
	fit() {
		this.main().querySelector('[data-graph-fit]').click();
		return true;
	},

	// edgeLabels returns the drawn view's edge labels, each with its ends'
	// labels: "from > to: text".
	async edgeLabels() {
		const d = await this.data();
		const svg = this.main().querySelector('[data-graph-canvas] svg');
		const g = d.groups[Number(svg.getAttribute('data-group'))];
		return JSON.stringify([...svg.querySelectorAll('text[data-edge-label]')].map(t => {
			const e = g.edges[Number(t.getAttribute('data-edge-label'))];
			return g.children[e.from].label + ' > ' + g.children[e.to].label + ': ' + t.textContent;
		}));
	},

	// results returns the search results listed, in order.
	results() {
		return JSON.stringify([...this.main().querySelectorAll('[data-graph-results] li')].map(li => li.textContent));
	},

	// choose picks the graph whose label contains label in the selector.
	choose(label) {
		const sel = this.main().querySelector('[data-graph-select]');
		const o = [...sel.options].find(o => o.textContent.includes(label));
		if (!o) return false;
		sel.value = o.value;
		sel.dispatchEvent(new Event('change'));
		return true;
	},

	// panel returns what the page shows beside the drawing: the details
	// panel, the breadcrumbs, the legend, the message and the canvas text.
	panel() {
		const m = this.main();
		const q = s => m.querySelector(s).textContent;
		return JSON.stringify({details: q('[data-graph-details]'), crumbs: q('[data-graph-crumbs]'), legend: q('[data-graph-legend]'),
			msg: q('[data-graph-msg]'), canvas: q('[data-graph-canvas]'), loaded: m.getAttribute('data-graph-loaded') || '',
			drawn: (m.getAttribute('data-graph-drawn') || '').split('\u0000')[0]});
	},

	// childLabels returns the labels of the boxes drawn in the view, side
	// box ones marked "side:".
	async childLabels() {
		const d = await this.data();
		const svg = this.main().querySelector('[data-graph-canvas] svg');
		const g = d.groups[Number(svg.getAttribute('data-group'))];
		return JSON.stringify([...svg.querySelectorAll('g[data-child]')].map(n => {
			const c = g.children[Number(n.getAttribute('data-child'))];
			return (c.side ? 'side:' : '') + c.label;
		}));
	},

	// deepNode returns the name of a node three or more scopes deep, the
	// deepest first met.
	async deepNode() {
		const d = await this.data();
		const net = (d.c_graph || d.s_graph).net;
		let best = '', depth = 0;
		for (const n of net) { const k = n.name.split('/').length; if (k > depth) { depth = k; best = n.name; } }
		return best;
	},
})

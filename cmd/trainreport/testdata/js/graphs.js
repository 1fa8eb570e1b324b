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
			for (let i = 0; i < 100 && got.length < 2; i++) await new Promise(r => setTimeout(r, 50));
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

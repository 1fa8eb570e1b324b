/*
 * trainreport graphs page: one model graph at a time, its scopes' views
 * laid out when the report was built (internal/analysis/graphs.go,
 * written by render/graphs.go), drawn here as SVG. No layout is computed in the browser: a view
 * is boxes and Bézier curves read from the graph's data, drill-down opens
 * a scope's own view. The data of a graph is its data file's script form
 * (data/graphs/...js, loaded when the graph is chosen) or, in the single
 * file, a <script type="application/json"> element. Names from the logs
 * reach the page only as text nodes and attribute values. State in the
 * URL hash: graph, scope, node, color. Scoped to
 * main.page[data-page="graphs"].
 */
(function () {
  'use strict';
  var T = window.trainreport;
  var util = T.util;
  var SVG = 'http://www.w3.org/2000/svg';
  // Box metrics: the layout's input (graphBoxMetrics, internal/analysis/graphs.go).
  var CHAR = 6.5, MAX_ANN = 3, ANN_CHARS = 16, ANN_LINE = 12;
  // Edge labels are drawn in views of at most this many edges.
  var MAX_LABELED_EDGES = 300;
  // Fit zooms out no further than this: a node's 11 px label stays 8.8 px
  // on screen, an annotation's 9 px 7.2 px. A larger view is shown at
  // this zoom, centred on its main box, and − zooms out further.
  var MIN_FIT_ZOOM = 0.8;
  var FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';

  var st = { graph: '', scope: '', node: '', color: 'op' };
  var zoom = 1, fitPending = true, centrePending = false;
  var main, list = [], entry = null, data = null, loading = '';
  var el = {};

  T.onPage('graphs', setup);

  function setup(m) {
    main = m;
    try { list = JSON.parse(main.querySelector('#graph-list').textContent) || []; } catch (e) { list = []; }
    ['select', 'color', 'find', 'msg', 'crumbs', 'results', 'canvas', 'details', 'legend', 'zoomed'].forEach(function (k) {
      el[k] = main.querySelector('[data-graph-' + k + ']');
    });
    T.state.key('graph', function (v) { st.graph = v || ''; }, function () { return st.graph || null; });
    T.state.key('scope', function (v) { st.scope = v || ''; }, function () { return st.scope || null; });
    T.state.key('node', function (v) { st.node = v || ''; }, function () { return st.node || null; });
    T.state.key('color', function (v) { st.color = v || 'op'; }, function () { return st.color === 'op' ? null : st.color; });
    T.state.onApply(show);
    el.select.addEventListener('change', function () {
      st.graph = el.select.value; st.scope = ''; st.node = ''; fitPending = true;
      T.state.save(); show();
    });
    el.color.addEventListener('change', function () { st.color = el.color.value; T.state.save(); draw(); });
    var findTimer = null;
    el.find.addEventListener('input', function () {
      clearTimeout(findTimer);
      findTimer = util.later(function () { find(el.find.value); }, 120);
    });
    el.find.addEventListener('keydown', function (e) {
      if (e.key !== 'Enter') return;
      e.preventDefault();
      var first = find(el.find.value);
      if (first >= 0) reveal(first);
    });
    main.querySelector('[data-graph-fit]').addEventListener('click', function () { fit(); draw(); });
    main.querySelectorAll('[data-graph-zoom]').forEach(function (b) {
      b.addEventListener('click', function () {
        zoomBy(Number(b.getAttribute('data-graph-zoom')));
      });
    });
    main.querySelectorAll('[data-graph-export]').forEach(function (b) {
      b.addEventListener('click', function () { exportView(b.getAttribute('data-graph-export')); });
    });
    // Ctrl + wheel (a trackpad's pinch) zooms the view, as in a map.
    el.canvas.addEventListener('wheel', function (e) {
      if (!e.ctrlKey || !data) return;
      e.preventDefault();
      zoomBy(e.deltaY < 0 ? 1.1 : 1 / 1.1);
    }, { passive: false });
    el.canvas.addEventListener('click', onCanvasClick);
    el.canvas.addEventListener('dblclick', onCanvasDblClick);
    show();
  }

  // ---------------------------------------------------------------------------
  // Loading a graph

  function entryOf(id) {
    for (var i = 0; i < list.length; i++) if (list[i].id === id) return list[i];
    return null;
  }

  function show() {
    if (!main) return;
    if (!list.length) { message('The logs hold no graph.'); return; }
    var e = entryOf(st.graph) || list[0];
    st.graph = e.id;
    if (el.select.value !== e.id) el.select.value = e.id;
    if (el.color.value !== st.color) el.color.value = st.color;
    if (entry === e && data) { draw(); return; }
    // Nothing of the graph shown before stays: its view, path, legend,
    // details and search results go before the next graph loads.
    entry = e; data = null;
    clear();
    message('');
    if (e.note) { message(e.note); return; }
    var inline = null;
    main.querySelectorAll('script.graph-inline').forEach(function (s) {
      if (s.getAttribute('data-graph-id') === e.id) inline = s;
    });
    if (inline) {
      try { loaded(e, JSON.parse(inline.textContent)); } catch (err) { message('The graph\u2019s data does not parse: ' + err.message); }
      return;
    }
    if (!e.script) { message('The graph\u2019s data is not in this page.'); return; }
    loading = e.id;
    message('Loading ' + e.label + '\u2026');
    T.loadData(e.id, e.script).then(function (d) {
      if (loading === e.id) loaded(e, d);
    }, function (err) {
      if (loading === e.id) message(String(err && err.message || err));
    });
  }

  function loaded(e, d) {
    if (entry !== e) return;
    data = d;
    data.byName = new Map();
    var net = netOf(d);
    for (var i = 0; i < net.length; i++) data.byName.set(net[i].name, i);
    data.groupByName = new Map();
    d.groups.forEach(function (g, gi) { data.groupByName.set(g.name, gi); });
    message(notesOf(d));
    main.setAttribute('data-graph-loaded', e.id);
    data.range = statRanges(net);
    ['compute', 'memory'].forEach(function (k) {
      var o = el.color.querySelector('option[value="' + k + '"]');
      if (o) o.disabled = !data.range[k];
    });
    if (!data.range[st.color] && (st.color === 'compute' || st.color === 'memory')) st.color = 'op';
    data.main = mainScope(d);
    if (!st.scope) st.scope = d.groups[data.main].name;
    if (!net.length) {
      clear();
      var p = document.createElement('p');
      p.className = 'note graph-empty';
      p.textContent = 'This graph holds no node.';
      el.canvas.appendChild(p);
      var q = document.createElement('p');
      q.className = 'note';
      q.textContent = 'This graph holds no node: nothing to detail.';
      el.details.appendChild(q);
      main.setAttribute('data-graph-drawn', st.graph + '\u0000');
      return;
    }
    draw();
  }

  // statRanges returns, per statistic the nodes have, the least and most
  // positive value: {compute: [lo, hi], memory: [lo, hi]}.
  function statRanges(net) {
    var r = {};
    [['compute', 'compute_micros'], ['memory', 'memory_bytes']].forEach(function (s) {
      var lo = Infinity, hi = -Infinity;
      net.forEach(function (n) {
        var v = n[s[1]];
        if (typeof v === 'number' && v > 0) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
      });
      if (hi > 0) r[s[0]] = [lo, hi];
    });
    return r;
  }

  function statOf(n, k) { return k === 'compute' ? n.compute_micros : n.memory_bytes; }

  // statColor is the colour of a node's value v of statistic k: from light
  // to dark orange on a log scale over the graph's range.
  function statColor(k, v) {
    var r = data.range[k];
    if (typeof v !== 'number' || !r) return '#eeeeee';
    var t = r[1] > r[0] && v > 0 ? (Math.log(v) - Math.log(r[0])) / (Math.log(r[1]) - Math.log(r[0])) : 1;
    t = Math.max(0, Math.min(1, t));
    return 'hsl(25,90%,' + Math.round(92 - t * 52) + '%)';
  }

  function fmtMicros(v) {
    if (v >= 1e6) return util.fmtNum(v / 1e6) + ' s';
    if (v >= 1e3) return util.fmtNum(v / 1e3) + ' ms';
    return v + ' \u00b5s';
  }

  function fmtBytes(v) {
    if (v >= 1 << 30) return util.fmtNum(v / (1 << 30)) + ' GiB';
    if (v >= 1 << 20) return util.fmtNum(v / (1 << 20)) + ' MiB';
    if (v >= 1 << 10) return util.fmtNum(v / (1 << 10)) + ' KiB';
    return v + ' B';
  }

  function netOf(d) { return (d.c_graph || d.s_graph || { net: [] }).net; }

  function notesOf(d) {
    var parts = (d.notes || []).slice();
    if (d.dangling_inputs) parts.push(d.dangling_inputs + ' inputs name no node of the graph');
    if (d.duplicate_names) parts.push(d.duplicate_names + ' nodes repeat an earlier name');
    if (d.stats_from) parts.push('compute time and memory per node from ' + d.stats_from);
    return parts.length ? 'This graph: ' + parts.join('; ') + '.' : '';
  }

  // mainScope is the group to open first. A graph whose top level is one
  // scope (a Keras model, a module) opens at the first level that holds
  // more than one box, as TensorBoard expands a lone top-level scope; so
  // does one whose top level is one main scope beside its parameters and
  // small scopes (MindSpore's Default beside its Parameters, constants and
  // Gradients; a Keras graph's training): a scope holding more than half
  // the view's ops and at least three times as many as any other box.
  function mainScope(d) {
    var gi = 0;
    for (var depth = 0; depth < 32; depth++) {
      var g = d.groups[gi];
      var drawn = g.children.filter(function (c) { return !c.annotated; });
      if (drawn.length === 1 && drawn[0].kind !== 'op') { gi = drawn[0].ref; continue; }
      var best = -1, bestOps = 0, nextOps = 0;
      drawn.forEach(function (c, i) {
        var ops = opsOf(d, c);
        if (ops > bestOps) { nextOps = bestOps; bestOps = ops; best = i; } else nextOps = Math.max(nextOps, ops);
      });
      if (best < 0 || drawn[best].kind === 'op' || 2 * bestOps <= g.ops || bestOps < 3 * nextOps) break;
      gi = drawn[best].ref;
    }
    return gi;
  }

  function opsOf(d, c) { return c.kind === 'op' ? 1 : d.groups[c.ref].ops; }

  // mainChild is the index of the view's box holding the most ops (the
  // side box's aside), which Fit centres on; -1 for none.
  function mainChild(g) {
    var best = -1, bestOps = 0;
    g.children.forEach(function (c, i) {
      if (!c.box || c.side) return;
      var ops = opsOf(data, c);
      if (ops > bestOps) { bestOps = ops; best = i; }
    });
    return best;
  }

  function message(s) { el.msg.textContent = s || ''; }

  function clear() {
    el.canvas.textContent = '';
    el.crumbs.textContent = '';
    el.legend.textContent = '';
    el.details.textContent = '';
    el.results.textContent = '';
    el.results.hidden = true;
    if (el.zoomed) el.zoomed.textContent = '';
  }

  // ---------------------------------------------------------------------------
  // Drawing the current scope's view

  function currentGroup() {
    var gi = data.groupByName.get(st.scope);
    if (gi === undefined) { st.scope = ''; gi = 0; }
    return gi;
  }

  // fit zooms so that the whole view shows, but no further out than
  // MIN_FIT_ZOOM, where labels stay readable beside their boxes; a view
  // larger than that is centred on its main box.
  function fit() {
    if (!data) return;
    var g = data.groups[currentGroup()];
    var w = el.canvas.clientWidth - 4, h = el.canvas.clientHeight - 4;
    var whole = Math.min(1.5, w / Math.max(g.width, 1), h / Math.max(g.height, 1));
    zoom = Math.max(MIN_FIT_ZOOM, whole);
    centrePending = true;
  }

  function zoomBy(f) {
    var c = el.canvas, cx = (c.scrollLeft + c.clientWidth / 2) / zoom, cy = (c.scrollTop + c.clientHeight / 2) / zoom;
    zoom = Math.max(0.05, Math.min(4, zoom * f));
    draw();
    // Keep the point at the canvas' centre where it was.
    c.scrollLeft = Math.max(0, cx * zoom - c.clientWidth / 2);
    c.scrollTop = Math.max(0, cy * zoom - c.clientHeight / 2);
  }

  // zoomNote says the zoom, and when the whole view does not show at it.
  function zoomNote(g) {
    if (!el.zoomed) return;
    var whole = Math.ceil(g.width * zoom) <= el.canvas.clientWidth && Math.ceil(g.height * zoom) <= el.canvas.clientHeight;
    el.zoomed.textContent = Math.round(zoom * 100) + '%' + (whole ? '' : ', scroll for the rest');
    el.zoomed.title = whole ? 'The whole view at this zoom' : 'The view is larger than the canvas at this zoom: scroll, or \u2212 to zoom out (Fit stops where labels stay readable)';
  }

  function svgEl(name, attrs, parent) {
    var e = document.createElementNS(SVG, name);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  function shorten(s, n) {
    s = String(s);
    if (n < 2) return '';
    return s.length <= n ? s : s.slice(0, n - 1) + '\u2026';
  }

  function hashHue(s) {
    var h = 0;
    for (var i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) >>> 0;
    return h % 360;
  }

  function colorKey(c) {
    if (c.kind !== 'op' || st.color === 'none' || st.color === 'compute' || st.color === 'memory') return null;
    var n = netOf(data)[c.ref];
    return st.color === 'device' ? (n.device || '') : n.op;
  }

  function fillOf(c) {
    if (c.kind === 'scope') return '#dde7f3';
    if (c.kind === 'series') return '#e6e0f0';
    if (st.color === 'compute' || st.color === 'memory') return statColor(st.color, statOf(netOf(data)[c.ref], st.color));
    var k = colorKey(c);
    if (k === null) return '#f4f4f4';
    if (k === '') return '#eeeeee';
    return 'hsl(' + hashHue(k) + ',60%,82%)';
  }

  function edgeWidth(e) {
    if (!e.data) return 1;
    if (!e.size || e.size <= 1) return 1.2;
    return Math.min(6, 1 + Math.log10(e.size) * 0.7);
  }

  function draw() {
    if (!data) return;
    var gi = currentGroup();
    var g = data.groups[gi];
    if (fitPending) { fitPending = false; fit(); }
    crumbs(gi);
    el.canvas.textContent = '';
    el.legend.textContent = '';
    if (g.skipped) { if (el.zoomed) el.zoomed.textContent = ''; drawList(g); details(); return; }
    var svg = svgEl('svg', {
      xmlns: SVG, width: Math.ceil(g.width * zoom), height: Math.ceil(g.height * zoom),
      viewBox: '0 0 ' + g.width + ' ' + g.height, 'font-family': FONT, 'font-size': 11, 'data-group': gi
    });
    var defs = svgEl('defs', {}, svg);
    [['gr-arrow', '#777'], ['gr-arrow-ref', '#d2691e']].forEach(function (m) {
      var mk = svgEl('marker', { id: m[0], viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 8, markerHeight: 8, orient: 'auto-start-reverse', markerUnits: 'userSpaceOnUse' }, defs);
      svgEl('path', { d: 'M0,0 L10,5 L0,10 z', fill: m[1] }, mk);
    });
    svgEl('rect', { x: 0, y: 0, width: g.width, height: g.height, fill: '#ffffff' }, svg);
    drawSideFrame(svg, g);
    var edges = svgEl('g', { 'class': 'edges' }, svg);
    var labeled = g.edges.length <= MAX_LABELED_EDGES;
    g.edges.forEach(function (e, ei) { drawEdge(edges, g, e, ei, labeled); });
    var boxes = svgEl('g', { 'class': 'boxes' }, svg);
    var keys = new Map();
    g.children.forEach(function (c, ci) {
      if (!c.box) return;
      drawChild(boxes, g, c, ci);
      var k = colorKey(c);
      if (k !== null) keys.set(k, (keys.get(k) || 0) + 1);
    });
    el.canvas.appendChild(svg);
    legend(keys);
    details();
    zoomNote(g);
    var sel = selectedChild(g);
    if (sel >= 0) scrollTo(g.children[sel]);
    else if (centrePending) {
      var mc = mainChild(g);
      el.canvas.scrollLeft = 0; el.canvas.scrollTop = 0;
      if (mc >= 0) scrollTo(g.children[mc]);
    }
    centrePending = false;
    main.setAttribute('data-graph-drawn', st.graph + '\u0000' + st.scope);
  }

  function drawSideFrame(svg, g) {
    var x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    g.children.forEach(function (c) {
      if (!c.side || !c.box) return;
      x0 = Math.min(x0, c.box[0]); y0 = Math.min(y0, c.box[1]);
      x1 = Math.max(x1, c.box[0] + c.box[2]); y1 = Math.max(y1, c.box[1] + c.box[3]);
    });
    if (x0 === Infinity) return;
    svgEl('rect', { x: x0 - 6, y: y0 - 6, width: x1 - x0 + 12, height: y1 - y0 + 12, rx: 6, fill: '#fafafa', stroke: '#bbb', 'stroke-dasharray': '4 3' }, svg);
    var t = svgEl('text', { x: x0 - 4, y: Math.max(10, y0 - 9), fill: '#777', 'font-size': 10 }, svg);
    t.textContent = 'side box';
  }

  function pathOf(p) {
    var d = 'M' + p[0] + ',' + p[1];
    for (var i = 2; i + 5 < p.length; i += 6) {
      d += ' C' + p[i] + ',' + p[i + 1] + ' ' + p[i + 2] + ',' + p[i + 3] + ' ' + p[i + 4] + ',' + p[i + 5];
    }
    return d;
  }

  function drawEdge(parent, g, e, ei, labeled) {
    if (!e.path || e.path.length < 8) return;
    var ref = e.ref > 0;
    var color = ref ? '#d2691e' : '#888';
    var path = svgEl('path', {
      d: pathOf(e.path), fill: 'none', stroke: color, 'stroke-width': edgeWidth(e),
      'marker-end': 'url(#' + (ref ? 'gr-arrow-ref' : 'gr-arrow') + ')', 'data-edge': ei
    }, parent);
    if (!e.data) path.setAttribute('stroke-dasharray', '4 3');
    var title = svgEl('title', {}, path);
    var kinds = [];
    if (e.data) kinds.push(e.data + ' data');
    if (e.control) kinds.push(e.control + ' control');
    if (e.ref) kinds.push(e.ref + ' reference');
    title.textContent = g.children[e.from].label + ' \u2192 ' + g.children[e.to].label + ': ' + kinds.join(', ') +
      (e.data + e.control === 1 ? ' edge' : ' edges') +
      (e.mixed ? ' of mixed shapes' + (e.shape ? ', the first known ' + e.shape : '') : (e.shape ? ' ' + e.shape : ''));
    var text = edgeLabel(e);
    if (!labeled || !text) return;
    var m = Math.floor((e.path.length / 2 - 1) / 2) * 2; // a middle control point
    var t = svgEl('text', { x: e.path[m] + 4, y: e.path[m + 1], fill: '#666', 'font-size': 9, 'data-edge-label': ei }, parent);
    t.textContent = text;
  }

  // edgeLabel is what an edge's label says of its tensors: "[?,32]",
  // "2\u00d7[?,32]" for two of one shape, "6\u00d7 mixed shapes" when they
  // differ (its shape is the first one's only); "" for none known.
  function edgeLabel(e) {
    if (e.mixed) return (e.data > 1 ? e.data + '\u00d7 ' : '') + 'mixed shapes';
    if (!e.shape) return '';
    return (e.data > 1 ? e.data + '\u00d7' : '') + e.shape;
  }

  function drawChild(parent, g, c, ci) {
    var b = c.box, x = b[0], y = b[1], w = b[2], h = b[3];
    var iw = c.in_width || 0, ow = c.out_width || 0;
    var cx = x + iw, cw = w - iw - ow;
    var grp = svgEl('g', { 'data-child': ci, cursor: 'pointer' }, parent);
    var selected = isSelected(c);
    var stroke = selected ? '#e8590c' : (c.kind === 'op' ? '#888' : '#6b8fbf');
    var sw = selected ? 2.5 : 1;
    var coreH = c.kind === 'op' ? Math.min(h, 24) : Math.min(h, 36);
    var coreY = y + (h - coreH) / 2;
    if (c.kind === 'series') {
      svgEl('rect', { x: cx + 4, y: coreY, width: cw - 4, height: coreH - 4, rx: 4, fill: fillOf(c), stroke: stroke, 'stroke-width': 1 }, grp);
      svgEl('rect', { x: cx, y: coreY + 4, width: cw - 4, height: coreH - 4, rx: 4, fill: fillOf(c), stroke: stroke, 'stroke-width': sw, 'data-core': 1 }, grp);
    } else {
      svgEl('rect', {
        x: cx, y: coreY, width: cw, height: coreH, rx: c.kind === 'op' ? coreH / 2 : 4,
        fill: fillOf(c), stroke: stroke, 'stroke-width': sw, 'data-core': 1
      }, grp);
    }
    var title = svgEl('title', {}, grp);
    var label = svgEl('text', { x: cx + cw / 2, y: coreY + (c.kind === 'op' ? coreH / 2 + 4 : 15), 'text-anchor': 'middle', fill: '#1d2330' }, grp);
    label.textContent = shorten(c.label, Math.floor((cw - 8) / CHAR));
    if (c.kind === 'op') {
      var n = netOf(data)[c.ref];
      title.textContent = n.name + ' (' + n.op + ')';
    } else {
      var sub = data.groups[c.ref];
      title.textContent = sub.name + ': ' + sub.ops + ' ops (double-click to open)';
      var t2 = svgEl('text', { x: cx + cw / 2, y: coreY + 29, 'text-anchor': 'middle', fill: '#555', 'font-size': 9 }, grp);
      t2.textContent = (c.kind === 'series' ? 'series of ' + sub.children.length + ', ' : '') + util.fmtStep(sub.ops) + (sub.ops === 1 ? ' op' : ' ops');
    }
    annotations(grp, g, c.in || [], cx, -1, y, h, coreY, coreH);
    annotations(grp, g, c.out || [], cx + cw, 1, y, h, coreY, coreH);
    stub(grp, cx + cw / 2, coreY + coreH, 1, c.ext_in);
    stub(grp, cx + cw / 2, coreY, -1, c.ext_out);
  }

  // annotations writes a box's annotations in its column left (side -1,
  // inputs) or right (side 1, outputs) of the core, each against the core
  // at edge x and joined to it by a short line, as TensorBoard attaches
  // them: at any zoom a label reads as its box's.
  function annotations(parent, g, anns, edge, side, y, h, coreY, coreH) {
    if (!anns.length) return;
    var x = edge + side * 6, anchor = side < 0 ? 'end' : 'start';
    var shown = anns.slice(0, anns.length > MAX_ANN + 1 ? MAX_ANN : MAX_ANN + 1);
    var lines = shown.map(function (a) {
      var c = g.children[a[0]];
      return { text: shorten(c.label, ANN_CHARS), why: a[1] };
    });
    if (shown.length < anns.length) lines.push({ text: '+' + (anns.length - shown.length) + ' more', why: 'more' });
    var top = y + (h - lines.length * ANN_LINE) / 2 + 9;
    lines.forEach(function (l, i) {
      var ty = top + i * ANN_LINE, mid = ty - 3;
      svgEl('line', { x1: edge + side * 5, y1: mid, x2: edge, y2: Math.max(coreY + 3, Math.min(coreY + coreH - 3, mid)), stroke: '#bbb', 'data-ann-line': 1 }, parent);
      var t = svgEl('text', {
        x: x, y: ty, 'text-anchor': anchor, 'font-size': 9, 'data-ann': side < 0 ? 'in' : 'out',
        fill: { constant: '#666', summary: '#2b7a3d', side: '#1a5fb4', more: '#999' }[l.why] || '#666',
        'font-style': l.why === 'summary' ? 'italic' : 'normal'
      }, parent);
      t.textContent = l.text;
    });
  }

  // stub draws edges to or from outside the open scope: a short line under
  // (inputs, dir 1) or over (outputs, dir -1) the box with their count.
  function stub(parent, x, y, dir, n) {
    if (!n) return;
    svgEl('line', { x1: x, y1: y, x2: x, y2: y + dir * 7, stroke: '#aaa', 'stroke-dasharray': '2 2' }, parent);
    var t = svgEl('text', { x: x + 3, y: y + dir * 7 + (dir > 0 ? 4 : 0), fill: '#999', 'font-size': 8 }, parent);
    t.textContent = "\u2191" + n;
  }

  function drawList(g) {
    var p = document.createElement('p');
    p.className = 'note';
    p.textContent = 'This view is ' + g.skipped + '. Its children:';
    el.canvas.appendChild(p);
    var ul = document.createElement('ul');
    ul.className = 'graph-list';
    g.children.forEach(function (c, ci) {
      var li = document.createElement('li');
      var b = document.createElement('button');
      b.type = 'button';
      b.className = 'graph-list-item';
      b.setAttribute('data-child', ci);
      b.textContent = c.label + (c.kind === 'op' ? ' (' + netOf(data)[c.ref].op + ')' : ' [' + c.kind + ']');
      li.appendChild(b);
      ul.appendChild(li);
    });
    el.canvas.appendChild(ul);
  }

  function legend(keys) {
    var r = data.range[st.color];
    if (r && (st.color === 'compute' || st.color === 'memory')) {
      var f = st.color === 'compute' ? fmtMicros : fmtBytes;
      [[r[0], 'least'], [r[1], 'most']].forEach(function (p) {
        var s = document.createElement('span');
        var i = document.createElement('i');
        i.style.background = statColor(st.color, p[0]);
        s.appendChild(i);
        s.appendChild(document.createTextNode(p[1] + ': ' + f(p[0])));
        el.legend.appendChild(s);
      });
      var none = document.createElement('span');
      var ni = document.createElement('i');
      ni.style.background = '#eeeeee';
      none.appendChild(ni);
      none.appendChild(document.createTextNode('not measured'));
      el.legend.appendChild(none);
      return;
    }
    if (!keys.size) return;
    var all = Array.from(keys.entries()).sort(function (a, b) { return b[1] - a[1] || (a[0] < b[0] ? -1 : 1); });
    all.slice(0, 16).forEach(function (kv) {
      var s = document.createElement('span');
      var i = document.createElement('i');
      i.style.background = kv[0] === '' ? '#eeeeee' : 'hsl(' + hashHue(kv[0]) + ',60%,82%)';
      s.appendChild(i);
      s.appendChild(document.createTextNode((kv[0] === '' ? '(no device)' : kv[0]) + ' ' + kv[1]));
      el.legend.appendChild(s);
    });
    if (all.length > 16) el.legend.appendChild(document.createTextNode('and ' + (all.length - 16) + ' more'));
  }

  function crumbs(gi) {
    el.crumbs.textContent = '';
    var chain = [];
    for (var g = gi; g >= 0; g = data.groups[g].parent) chain.unshift(g);
    chain.forEach(function (g, i) {
      if (i > 0) { var s = document.createElement('span'); s.className = 'sep'; s.textContent = '/'; el.crumbs.appendChild(s); }
      var b = document.createElement('button');
      b.type = 'button';
      b.textContent = i === 0 ? entry.run + ' \u00b7 ' + entry.label : data.groups[g].label;
      b.setAttribute('data-group', g);
      b.addEventListener('click', function () { open(g); });
      el.crumbs.appendChild(b);
    });
  }

  // ---------------------------------------------------------------------------
  // Selection, drill-down, search

  function isSelected(c) {
    if (!st.node) return false;
    if (c.kind === 'op') return netOf(data)[c.ref].name === st.node;
    return data.groups[c.ref].name === st.node;
  }

  function selectedChild(g) {
    for (var i = 0; i < g.children.length; i++) if (isSelected(g.children[i])) return i;
    return -1;
  }

  function scrollTo(c) {
    if (!c.box) return;
    var x = (c.box[0] + c.box[2] / 2) * zoom, y = (c.box[1] + c.box[3] / 2) * zoom;
    el.canvas.scrollLeft = Math.max(0, x - el.canvas.clientWidth / 2);
    el.canvas.scrollTop = Math.max(0, y - el.canvas.clientHeight / 2);
  }

  function childAt(target) {
    var n = target && target.closest && target.closest('[data-child]');
    if (!n || !data) return null;
    var g = data.groups[currentGroup()];
    return g.children[Number(n.getAttribute('data-child'))] || null;
  }

  function onCanvasClick(e) {
    var c = childAt(e.target);
    if (!c) return;
    select(c);
  }

  function onCanvasDblClick(e) {
    var c = childAt(e.target);
    if (c && c.kind !== 'op') open(c.ref);
  }

  function select(c) {
    st.node = c.kind === 'op' ? netOf(data)[c.ref].name : data.groups[c.ref].name;
    T.state.save();
    draw();
  }

  function open(gi) {
    st.scope = data.groups[gi].name;
    st.node = '';
    fitPending = true;
    T.state.save();
    draw();
    el.canvas.scrollTop = 0;
  }

  // reveal opens the scope holding node i and selects it.
  function reveal(i) {
    var n = netOf(data)[i];
    st.scope = data.groups[n.group].name;
    st.node = n.name;
    el.results.hidden = true;
    fitPending = true;
    T.state.save();
    draw();
  }

  // find lists the nodes whose names contain q (case-insensitive), at most
  // 50, best first, and returns the first one's index, or -1. The best is
  // the node of that very name ("conv2d_1/Conv2D", not the
  // "conv2d_1/Conv2D/ReadVariableOp/resource" written before it), then
  // names starting with q, then the rest, each in the graph's order.
  function find(q) {
    el.results.textContent = '';
    var exact = String(q || '').trim();
    q = exact.toLowerCase();
    if (!q || !data) { el.results.hidden = true; return -1; }
    var net = netOf(data), ranks = [[], [], [], []], total = 0;
    for (var i = 0; i < net.length; i++) {
      var name = net[i].name, lower = name.toLowerCase(), at = lower.indexOf(q);
      if (at < 0) continue;
      total++;
      // 0: the name as typed; 1: the name but for case; 2: a prefix; 3: inside.
      var r = name === exact ? 0 : lower === q ? 1 : at === 0 ? 2 : 3;
      if (ranks[r].length < 50) ranks[r].push(i);
    }
    var found = ranks[0].concat(ranks[1], ranks[2], ranks[3]).slice(0, 50);
    found.forEach(function (i) {
      var li = document.createElement('li');
      var b = document.createElement('button');
      b.type = 'button';
      b.textContent = net[i].name + ' (' + net[i].op + ')';
      b.addEventListener('click', function () { reveal(i); });
      li.appendChild(b);
      el.results.appendChild(li);
    });
    var li = document.createElement('li');
    li.className = 'note';
    li.textContent = total ? (total > found.length ? found.length + ' of ' + total + ' nodes' : total + (total === 1 ? ' node' : ' nodes')) : 'no node\u2019s name contains this';
    el.results.appendChild(li);
    el.results.hidden = false;
    return found.length ? found[0] : -1;
  }

  // ---------------------------------------------------------------------------
  // Details

  function row(table, k, v) {
    var tr = document.createElement('tr');
    var th = document.createElement('th');
    th.textContent = k;
    var td = document.createElement('td');
    td.textContent = v;
    tr.appendChild(th); tr.appendChild(td);
    table.appendChild(tr);
    return tr;
  }

  function section(title) {
    var h = document.createElement('h4');
    h.textContent = title;
    el.details.appendChild(h);
    var t = document.createElement('table');
    el.details.appendChild(t);
    return t;
  }

  function details() {
    el.details.textContent = '';
    if (!st.node || !data) {
      var p = document.createElement('p');
      p.className = 'note';
      var gi = data ? currentGroup() : -1, g = data && data.groups[gi];
      p.textContent = g ? (g.name || 'The graph') + ': ' + util.fmtStep(g.ops) + ' ops, ' + g.children.length + ' boxes, ' + g.edges.length + ' edges in this view. Click a node for its details.' : 'Click a node for its details.';
      if (g && gi === data.main && gi > 0) {
        p.textContent += ' Opened first: the graph\u2019s main scope, ' + util.fmtStep(g.ops) + ' of its ' + util.fmtStep(data.groups[0].ops) + ' ops; the path above leads to the rest.';
        p.setAttribute('data-graph-main-note', '');
      }
      el.details.appendChild(p);
      return;
    }
    var i = data.byName.get(st.node);
    if (i !== undefined) { nodeDetails(i); return; }
    var gi = data.groupByName.get(st.node);
    if (gi !== undefined) groupDetails(gi);
  }

  function nodeDetails(i) {
    var net = netOf(data), n = net[i];
    var h = document.createElement('h3');
    h.textContent = n.name;
    h.setAttribute('data-detail-name', '');
    el.details.appendChild(h);
    var t = section('Node');
    row(t, 'op', n.op).setAttribute('data-detail-op', '');
    row(t, 'device', n.device || '(none recorded)');
    row(t, 'scope', data.groups[n.group].name || '(top level)');
    if (n.output_shapes.length) row(t, 'outputs', n.output_shapes.join(' '));
    if (typeof n.compute_micros === 'number') row(t, 'compute time', fmtMicros(n.compute_micros)).setAttribute('data-detail-compute', '');
    if (typeof n.memory_bytes === 'number') row(t, 'memory', fmtBytes(n.memory_bytes)).setAttribute('data-detail-memory', '');
    var ins = section('Inputs (' + n.inputs.length + ')');
    n.inputs.forEach(function (inp) {
      // An input names its producer by its index in net (docs/OUTPUTS.md);
      // a data input takes the producer's dtype and its output's shape.
      var p = inp.node >= 0 ? net[inp.node] : null, text = p ? p.name + (inp.port || '') : inp.name;
      if (p && !inp.control) {
        var shape = p.output_shapes[inp.output || 0];
        if (shape) text += ' ' + shape;
        if (p.dtype) text += ' ' + p.dtype;
      }
      row(ins, inp.control ? 'control' : 'data', text).setAttribute('data-detail-input', '');
    });
    var outs = consumers(i);
    var ot = section('Outputs to (' + outs.length + ')');
    outs.slice(0, 100).forEach(function (o) { row(ot, o[1] ? 'control' : 'data', o[0]); });
    if (outs.length > 100) row(ot, '', 'and ' + (outs.length - 100) + ' more');
    var at = section('Attributes (' + (n.attrs.length + (n.attrs_cut || 0)) + ')');
    n.attrs.forEach(function (a) { row(at, a[0], a[1]); });
    if (n.attrs_cut) row(at, '', n.attrs_cut + ' more left out by the budget of ' + data.budgets.attr_bytes + ' bytes a node');
  }

  // consumers lists the nodes that take an output of node p (its index in
  // net): [name, control].
  function consumers(p) {
    var net = netOf(data), out = [];
    for (var i = 0; i < net.length; i++) {
      var ins = net[i].inputs;
      for (var k = 0; k < ins.length; k++) {
        if (ins[k].node === p) { out.push([net[i].name, ins[k].control]); break; }
      }
    }
    return out;
  }

  function groupDetails(gi) {
    var g = data.groups[gi];
    var h = document.createElement('h3');
    h.textContent = g.name;
    h.setAttribute('data-detail-name', '');
    el.details.appendChild(h);
    var t = section(g.kind === 'series' ? 'Series' : 'Scope');
    row(t, 'ops', util.fmtStep(g.ops));
    row(t, 'boxes', String(g.children.length));
    row(t, 'edges', String(g.edges.length));
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = 'Open';
    b.setAttribute('data-graph-open', gi);
    b.addEventListener('click', function () { open(gi); });
    el.details.appendChild(b);
  }

  // ---------------------------------------------------------------------------
  // Export

  function exportName(ext) {
    var base = (entry.run + '-' + entry.label + (st.scope ? '-' + st.scope : '')).replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 120);
    return base + '.' + ext;
  }

  function exportView(kind) {
    var svg = el.canvas.querySelector('svg');
    if (!svg) return;
    var clone = svg.cloneNode(true);
    var g = data.groups[currentGroup()];
    clone.setAttribute('width', g.width);
    clone.setAttribute('height', g.height);
    var text = new XMLSerializer().serializeToString(clone);
    var blob = new Blob([text], { type: 'image/svg+xml' });
    if (kind === 'svg') { util.download(blob, exportName('svg')); return; }
    var scale = Math.min(2, 16000 / Math.max(g.width, g.height, 1));
    var img = new Image();
    var url = URL.createObjectURL(blob);
    img.onload = function () {
      var c = document.createElement('canvas');
      c.width = Math.max(1, Math.round(g.width * scale));
      c.height = Math.max(1, Math.round(g.height * scale));
      var ctx = c.getContext('2d');
      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, c.width, c.height);
      ctx.drawImage(img, 0, 0, c.width, c.height);
      URL.revokeObjectURL(url);
      c.toBlob(function (png) { if (png) util.download(png, exportName('png')); }, 'image/png');
    };
    img.onerror = function () { URL.revokeObjectURL(url); message('The PNG could not be made from this view.'); };
    img.src = url;
  }
})();

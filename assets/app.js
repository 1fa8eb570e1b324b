/*
 * trainreport's shared page runtime, loaded by every page after
 * echarts.min.js and regexp.js and before the page's own script
 * (assets/<page>.js, as render/pages.go lists them): the page state in the
 * URL hash, the Runs and Tags filters, one lifecycle for every chart
 * (trainreport.lazyChart), single-file routing, sortable tables, number and
 * time formatting, downloads. Plain ES2019, no dependencies, no network
 * requests. The only global is window.trainreport, which keeps the
 * window.trainreport.regexp that regexp.js set.
 *
 * Where chart options are built: Go prepares the data (numbers, labels,
 * drawing budgets, notes) and writes it into the page as JSON; the page's
 * script builds every ECharts option from it, whole, in JavaScript. No
 * option, nor a skeleton of one, comes from Go. An option is mostly
 * functions (formatters, renderItem) and choices that follow the page's
 * controls, which only the page can make; a skeleton written in Go and
 * rewritten here had to be read in two languages, and go-echarts wrote its
 * unset fields as nulls that ECharts took for settings.
 */
(function () {
  'use strict';

  // ---------------------------------------------------------------------------
  // Formatting and small helpers

  // Run colours, given out in the order of the report's runs (colorOf).
  var PALETTE = [
    '#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#17becf',
    '#bcbd22', '#7f7f7f', '#d62728', '#393b79', '#637939', '#8c6d31', '#843c39',
    '#7b4173', '#3182bd', '#e6550d', '#31a354', '#756bb1', '#636363'
  ];

  function escapeHTML(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }

  // toNumber turns a chart-data value (a number or "NaN", "Infinity",
  // "-Infinity") into a number; anything unreadable is NaN.
  function toNumber(v) {
    if (typeof v === 'number') return v;
    if (typeof v === 'string') {
      var s = v.trim().toLowerCase();
      if (s === 'nan') return NaN;
      if (s === 'infinity' || s === '+infinity' || s === 'inf' || s === '+inf') return Infinity;
      if (s === '-infinity' || s === '-inf') return -Infinity;
      if (s === '') return NaN;
      var n = Number(s);
      return n;
    }
    return NaN;
  }

  function nonFiniteLabel(v) {
    if (v === Infinity) return '+Inf';
    if (v === -Infinity) return '\u2212Inf';
    return 'NaN';
  }

  function fmtNum(v) {
    if (typeof v !== 'number') return String(v);
    if (!isFinite(v)) return nonFiniteLabel(v);
    if (v === 0) return '0';
    var a = Math.abs(v);
    if (a >= 1e6 || a < 1e-4) return v.toExponential(4).replace(/\.?0+e/, 'e');
    return String(parseFloat(v.toPrecision(5)));
  }

  function fmtStep(v) {
    if (typeof v !== 'number' || !isFinite(v)) return String(v);
    return Math.round(v) === v ? v.toLocaleString('en-US') : String(v);
  }

  function pad(n, w) {
    var s = String(n);
    while (s.length < (w || 2)) s = '0' + s;
    return s;
  }

  function fmtDate(ms) {
    var d = new Date(ms);
    if (isNaN(d.getTime())) return String(ms);
    return d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate()) + ' ' +
      pad(d.getHours()) + ':' + pad(d.getMinutes()) + ':' + pad(d.getSeconds());
  }

  // download saves blob as a file called name, from the page itself: no
  // request leaves it.
  function download(blob, name) {
    var url = URL.createObjectURL(blob);
    var a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.rel = 'noopener';
    a.style.display = 'none';
    document.body.appendChild(a);
    a.click();
    a.remove();
    later(function () { URL.revokeObjectURL(url); }, 4000);
  }

  function later(fn, ms) { return setTimeout(fn, ms || 0); }

  function idle(fn) {
    if (typeof window.requestIdleCallback === 'function') {
      return window.requestIdleCallback(fn, { timeout: 200 });
    }
    return setTimeout(fn, 16);
  }

  function now() { return (window.performance && performance.now) ? performance.now() : Date.now(); }

  // colorOf gives every run a colour by its place in the report's list of
  // runs (the #trainreport-runs element every page carries, in the
  // report's order), so that a run has the same colour on every page; a
  // run missing from it takes the next colour when first asked for. Past
  // the palette, colours are spread around the hue circle by the golden
  // angle, so a sweep of 25 runs has 25 colours. When the list is cut to
  // the page budget (data-cut on the element: a sweep of tens of thousands
  // of runs), a run past it takes a colour by its name's hash, the same on
  // every page whatever the order of asking.
  // The colours themselves are made when first asked for, by place
  // (colorsAt): a sweep's list holds tens of thousands of names, of which
  // a page colours a few (making them all took a fifth of a second of the
  // first chart's time at 100,000 runs).
  var runColors = null; // run name -> its place; keys are run names: no plain object
  var colorsAt = new Map(); // place -> colour
  var runsCut = false;
  // colorAt is the colour of the i-th run, as #rrggbb (pages mix it).
  function colorAt(i) {
    if (i < PALETTE.length) return PALETTE[i];
    var k = i - PALETTE.length;
    return hslHex((k * 137.508 + 15) % 360, k % 2 ? 0.45 : 0.65, k % 3 === 1 ? 0.35 : 0.45);
  }
  function hslHex(h, s, l) {
    var a = s * Math.min(l, 1 - l);
    var f = function (n) {
      var k = (n + h / 30) % 12;
      var c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
      return ('0' + Math.round(c * 255).toString(16)).slice(-2);
    };
    return '#' + f(0) + f(8) + f(4);
  }
  function colorOf(name) {
    if (!runColors) {
      runColors = new Map();
      var el = document.getElementById('trainreport-runs');
      if (el) {
        runsCut = el.hasAttribute('data-cut');
        try {
          JSON.parse(el.textContent).forEach(function (n) {
            if (!runColors.has(n)) runColors.set(n, runColors.size);
          });
        } catch (err) { /* fall back to order of asking */ }
      }
    }
    if (!runColors.has(name)) runColors.set(name, runsCut ? PALETTE.length + nameHash(name) % 4096 : runColors.size);
    var i = runColors.get(name);
    var c = colorsAt.get(i);
    if (c === undefined) {
      c = colorAt(i);
      colorsAt.set(i, c);
    }
    return c;
  }
  // nameHash is FNV-1a over a name's UTF-16 code units.
  function nameHash(name) {
    var h = 2166136261;
    for (var i = 0; i < name.length; i++) {
      h ^= name.charCodeAt(i);
      h = Math.imul(h, 16777619) >>> 0;
    }
    return h;
  }

  // Data files as scripts: a page opened from file:// cannot fetch its
  // data files, so the report writes each also as a script
  // (data/<file>.js) that calls dataLoaded(file, data). loadData(file,
  // script) adds that script to the page, once, and resolves with the
  // data, or rejects when the script cannot be loaded.
  var loaded = new Map(); // file -> {promise, resolve}
  function dataLoaded(file, data) {
    var l = loaded.get(String(file));
    if (l) l.resolve(data);
  }
  function loadData(file, script) {
    var l = loaded.get(file);
    if (l) return l.promise;
    l = {};
    l.promise = new Promise(function (resolve, reject) {
      var el = document.createElement('script');
      l.resolve = function (data) { l.done = true; resolve(data); };
      el.onload = function () {
        el.remove();
        if (!l.done) { loaded.delete(file); reject(new Error('data/' + script + ' did not hold ' + file)); }
      };
      el.onerror = function () {
        el.remove();
        loaded.delete(file);
        reject(new Error('data/' + script + ' could not be loaded'));
      };
      el.src = 'data/' + script.split('/').map(encodeURIComponent).join('/');
      document.head.appendChild(el);
    });
    loaded.set(file, l);
    return l.promise;
  }

  // Scalar bundles (data layout 3, docs/OUTPUTS.md): the scalar tags of a
  // run or of several consecutive runs, data/scalars/<first-run>.js, which
  // data/index.json and the pages name for each run, loaded once by
  // loadData whichever run and tag asks, in columns; scalarBundle turns a
  // run's tag's columns back into the points the pages use, [wall_time,
  // step, value] each (a non-finite value as its string, as the data files
  // write it), and its superseded attempts into [{attempt, total,
  // points}]. A bundle is a script: in an object literal a "__proto__" key
  // sets the prototype rather than a member, so a run or tag of that name
  // is found there.
  function ownMember(o, k) {
    if (!o || typeof o !== 'object') return undefined;
    if (Object.prototype.hasOwnProperty.call(o, k)) return o[k];
    if (k === '__proto__') {
      var p = Object.getPrototypeOf(o);
      if (p && p !== Object.prototype && p !== Array.prototype) return p;
    }
    return undefined;
  }
  // Powers of ten from their decimal forms, each exact (up to 1e22).
  var POW10 = [];
  for (var pk = 0; pk <= 22; pk++) POW10.push(Number('1e' + pk));
  // stepReader returns the function reading step i of a step column: a
  // list, or {first, stride}.
  function stepReader(steps) {
    if (Array.isArray(steps)) return function (i) { return i < steps.length ? toNumber(steps[i]) : NaN; };
    if (steps && typeof steps === 'object') {
      var first = toNumber(steps.first), stride = toNumber(steps.stride);
      return function (i) { return first + i * stride; };
    }
    return function () { return NaN; };
  }
  function bundleColumns(c) {
    if (!c || typeof c !== 'object' || !Array.isArray(c.value)) return [];
    var values = c.value, n = values.length, count = toNumber(c.count);
    if (isFinite(count) && count >= 0 && count < n) n = count;
    var walls = c.wall_time, out = new Array(n), i;
    var stepAt = stepReader(c.step);
    var wall = new Array(n);
    if (Array.isArray(walls)) {
      for (i = 0; i < n; i++) wall[i] = i < walls.length ? walls[i] : NaN;
    } else if (walls && typeof walls === 'object' && Array.isArray(walls.delta) &&
        typeof walls.scale === 'number' && walls.scale >= 0 && walls.scale <= 22 && walls.scale % 1 === 0) {
      // (base + delta[0] + ... + delta[i]) / 10^scale: integer sums below
      // 2^53, exact, and a correctly rounded division, the wall time
      // exactly as stored.
      var acc = toNumber(walls.base), p = POW10[walls.scale], d = walls.delta;
      for (i = 0; i < n; i++) {
        acc += i < d.length ? toNumber(d[i]) : NaN;
        wall[i] = acc / p;
      }
    } else {
      for (i = 0; i < n; i++) wall[i] = NaN;
    }
    for (i = 0; i < n; i++) out[i] = [wall[i], stepAt(i), values[i]];
    return out;
  }
  // runMember returns the member of run in bundle, what a run's bundle
  // of layout 2 held.
  function runMember(bundle, run) {
    return ownMember(ownMember(bundle, 'runs'), String(run));
  }
  var scalarBundle = {
    // points returns the points of run's tag in bundle, null when it has
    // none.
    points: function (bundle, run, tag) {
      var c = ownMember(ownMember(runMember(bundle, run), 'scalars'), String(tag));
      return c && typeof c === 'object' ? bundleColumns(c) : null;
    },
    // column returns the columns of run's tag in bundle as they are,
    // without a point made: {n, value, step(i)}, value the bundle's own
    // array (a non-finite value as its string) of n entries at least, or
    // null when it has none. For a look at every point of a long series.
    column: function (bundle, run, tag) {
      var c = ownMember(ownMember(runMember(bundle, run), 'scalars'), String(tag));
      if (!c || typeof c !== 'object' || !Array.isArray(c.value)) return null;
      var n = c.value.length, count = toNumber(c.count);
      if (isFinite(count) && count >= 0 && count < n) n = count;
      return { n: n, value: c.value, step: stepReader(c.step) };
    },
    // superseded returns the superseded attempts of run's tag in bundle.
    superseded: function (bundle, run, tag) {
      var list = ownMember(ownMember(runMember(bundle, run), 'superseded'), String(tag));
      if (!Array.isArray(list)) return [];
      return list.map(function (a) {
        a = a && typeof a === 'object' ? a : {};
        return { attempt: toNumber(a.attempt), total: toNumber(a.total), points: bundleColumns(a) };
      });
    }
  };

  // The patterns come from the inputs and from the URL hash, so a link can
  // carry them: they are matched by regexp.js in time linear in pattern and
  // text, never by the backtracking RegExp, which a pattern like (a+)+$
  // against a run called aaa...ab keeps busy for ever. re has test(text),
  // exec(text, from) and matchAll(text); error says why src is invalid.
  var REGEXP = window.trainreport && window.trainreport.regexp;

  function compileRegExp(src) {
    if (!src) return { re: null, valid: true };
    var c = REGEXP.compile(src);
    return c.valid ? { re: c, valid: true } : { re: null, valid: false, error: c.error };
  }

  // ---------------------------------------------------------------------------
  // The URL hash: key=value pairs joined with &, URI-encoded.

  function decode(s) {
    try { return decodeURIComponent(s); } catch (e) { return s; }
  }

  function readHash() {
    var h = location.hash.replace(/^#/, '');
    var pairs = [];
    if (!h) return pairs;
    h.split('&').forEach(function (part) {
      if (!part) return;
      var i = part.indexOf('=');
      var k = i < 0 ? part : part.slice(0, i);
      var v = i < 0 ? '' : part.slice(i + 1);
      pairs.push([decode(k), decode(v)]);
    });
    return pairs;
  }

  function hashGet(pairs, key) {
    for (var i = 0; i < pairs.length; i++) if (pairs[i][0] === key) return pairs[i][1];
    return null;
  }

  // hashSet sets (value != null) or removes (value == null) a key, keeping the
  // order of the other keys.
  function hashSet(pairs, key, value) {
    var out = [], done = false;
    pairs.forEach(function (p) {
      if (p[0] !== key) { out.push(p); return; }
      if (value != null && !done) { out.push([key, String(value)]); done = true; }
    });
    if (value != null && !done) out.push([key, String(value)]);
    return out;
  }

  function hashString(pairs) {
    return pairs.map(function (p) {
      return encodeURIComponent(p[0]) + '=' + encodeURIComponent(p[1]);
    }).join('&');
  }

  var ignoreHash = null;

  function writeHash(pairs) {
    var h = hashString(pairs);
    if (h === location.hash.replace(/^#/, '')) return;
    var url = location.pathname + location.search + (h ? '#' + h : '');
    try {
      history.replaceState(history.state, '', url);
    } catch (e) {
      // Some browsers refuse history changes on file:// URLs.
      ignoreHash = h;
      location.replace('#' + h);
    }
  }

  // ---------------------------------------------------------------------------
  // Page state: what the URL hash holds, so that a link reproduces a view.
  // app.js keeps the Runs and Tags patterns; a page script adds its keys
  // (state.key) and patterns (state.pattern) and applies them in an
  // onApply hook.

  var started = false; // start() ran: the document is parsed, the state read
  var keys = [];       // {name, read(value or null), write() -> string or null}
  var patterns = [];   // {name, source, re, valid, error}
  var applyHooks = [];

  // addKey keeps a value of the page under name in the hash: read(value)
  // takes it from the hash (null when missing), write() gives it back
  // (null to leave it out).
  function addKey(name, read, write) {
    keys.push({ name: name, read: read, write: write });
    if (started) read(hashGet(readHash(), name));
  }

  // pattern returns the regular expression kept under name in the hash and
  // typed into the controls' input of that name, registering it the first
  // time: {source, re, valid, error}, re a compiled regexp.js pattern, or
  // null when there is none or it is invalid. It is updated in place.
  function pattern(name) {
    for (var i = 0; i < patterns.length; i++) if (patterns[i].name === name) return patterns[i];
    var p = { name: name, source: '', re: null, valid: true, error: '' };
    patterns.push(p);
    addKey(name, function (v) { p.source = v || ''; }, function () { return p.source || null; });
    compilePattern(p);
    return p;
  }

  function compilePattern(p) {
    var c = compileRegExp(p.source);
    p.re = c.re;
    p.valid = c.valid;
    p.error = c.error || '';
  }

  var runsRE = pattern('runs');
  var tagsRE = pattern('tags');

  function readState() {
    var pairs = readHash();
    keys.forEach(function (k) { k.read(hashGet(pairs, k.name)); });
  }

  function stateToHash(pairs) {
    keys.forEach(function (k) { pairs = hashSet(pairs, k.name, k.write()); });
    return pairs;
  }

  // applyState re-filters and re-draws after the state changed.
  function applyState() {
    patterns.forEach(compilePattern);
    syncControls();
    applyHooks.forEach(function (fn) { fn(); });
    applyPageFilters();
    refreshCharts();
  }

  var hashTimer = null;
  function saveHash(delay) {
    clearTimeout(hashTimer);
    if (delay) { hashTimer = later(function () { writeHash(stateToHash(readHash())); }, delay); return; }
    writeHash(stateToHash(readHash()));
  }

  // applySoon applies the state at the next frame: a slider dragged fires
  // input events faster than charts re-draw.
  var frameQueued = false;
  function applySoon() {
    if (frameQueued) return;
    frameQueued = true;
    var run = function () { frameQueued = false; applyState(); };
    if (typeof requestAnimationFrame === 'function' && !document.hidden) requestAnimationFrame(run);
    else later(run, 16);
  }

  // ---------------------------------------------------------------------------
  // Chart lifecycle: every chart of every page goes through it, so that
  // drawing late, resizing and re-drawing are written once.
  //
  // lazyChart(el, draw, opts) registers a chart, or a few drawn together,
  // and returns its handle h. draw(h) draws it the first time, making each
  // ECharts instance with h.init(div): once el comes within opts.margin
  // (default 300px) of the viewport while its page is shown, or with
  // opts.eager also in idle time (those in view first), for pages whose
  // charts must all be there (trainreport.ready() waits for them). Then:
  //   - every drawn chart of a shown page is resized when the window is,
  //     and when single-file routing shows its page (a hidden page cannot
  //     be measured);
  //   - opts.update(h) re-draws a drawn chart for the page's state: with
  //     opts.key() (a string naming what its option depends on), whenever
  //     the key changes after the state was applied; h.update() calls it
  //     now (with a key, only when the key changed);
  //   - h.dispose() disposes its charts and forgets it.
  // h.draw() and h.resize() draw and resize now (an export needs the chart
  // as it is shown). A draw(h) that waits for its data (a data file) returns
  // a promise: ready() waits for it too.

  var charts = [];          // every handle, in order of registration
  var dirty = [];           // handles that may need drawing, updating or resizing, in order
  var dirtySet = new Set();
  var priority = [];        // handles near the viewport, handled first
  var observers = new Map(); // an IntersectionObserver per margin
  var scheduled = false;
  var readyWaiters = [];
  var lastWidth = 0;        // of the last chart measured: the size of one drawn hidden

  function lazyChart(el, draw, opts) {
    opts = opts || {};
    var h = {
      el: el, charts: [], drawn: false, inView: false, key: null, disposed: false,
      init: function (div) { return initChart(h, div); },
      draw: function () { drawChart(h); },
      update: function () { updateChart(h, true); },
      resize: function () { resizeChart(h); },
      dispose: function () { disposeChart(h); }
    };
    h.drawFn = draw;
    h.opts = opts;
    h.fixed = new Set(); // charts drawn at a guessed size, while hidden
    el.__trainreportChart = h;
    charts.push(h);
    var io = observer(opts.margin || '300px 0px');
    if (io) io.observe(el);
    h.eager = !!opts.eager || !io;
    if (started && h.eager) { markDirty(h); schedule(false); }
    return h;
  }

  function observer(margin) {
    if (typeof IntersectionObserver !== 'function') return null;
    var io = observers.get(margin);
    if (!io) {
      io = new IntersectionObserver(onIntersect, { rootMargin: margin });
      observers.set(margin, io);
    }
    return io;
  }

  function onIntersect(entries) {
    var any = false;
    entries.forEach(function (e) {
      var h = e.target.__trainreportChart;
      if (!h) return;
      h.inView = e.isIntersecting;
      if (e.isIntersecting) { priority.push(h); any = true; }
    });
    if (any) schedule(true);
  }

  function pageOf(el) {
    return el.closest ? el.closest('main.page') : null;
  }

  function pageShown(h) {
    if (!h.el.isConnected) return false;
    var page = pageOf(h.el);
    return !page || !page.hidden;
  }

  // isShown: the chart's element is displayed (its page and every element
  // around it shown), so that ECharts can measure it.
  function isShown(h) {
    return h.el.isConnected && !h.el.closest('[hidden]');
  }

  function initChart(h, div) {
    var opts = { renderer: 'canvas' };
    var fixed = !(isShown(h) && div.clientWidth > 0 && div.clientHeight > 0);
    if (fixed) {
      // Hidden (by a filter, say): give it a size now, resize when shown.
      opts.width = lastWidth || 600;
      opts.height = parseFloat(getComputedStyle(div).height) || 320;
    } else {
      lastWidth = div.clientWidth;
    }
    var chart = echarts.init(div, null, opts);
    h.charts.push(chart);
    if (fixed) h.fixed.add(chart);
    return chart;
  }

  function drawChart(h) {
    if (h.drawn || h.disposed) return;
    h.drawn = true;
    h.key = h.opts.key ? h.opts.key() : null;
    try {
      var p = h.drawFn(h);
      if (p && typeof p.then === 'function') {
        h.pending = true;
        var settle = function () { h.pending = false; markDirty(h); schedule(true); checkReady(); };
        p.then(settle, settle);
      }
    } catch (e) {
      // One chart's failure must not stop the others: report it, go on.
      later(function () { throw e; });
    }
  }

  // updateChart re-draws a drawn chart for the page's state; with a key,
  // only when it changed, and without one only when asked (always).
  function updateChart(h, asked) {
    if (!h.drawn || h.disposed || !h.charts.length || !h.opts.update) return;
    if (h.opts.key) {
      var key = h.opts.key();
      if (key === h.key) return;
      h.key = key;
    } else if (!asked) {
      return;
    }
    h.opts.update(h);
  }

  function sizeChanged(h, chart) {
    var div = chart.getDom(), w = div.clientWidth, ht = div.clientHeight;
    return w > 0 && ht > 0 && (h.fixed.has(chart) || w !== chart.getWidth() || ht !== chart.getHeight());
  }

  function resizeChart(h) {
    h.charts.forEach(function (chart) {
      if (!sizeChanged(h, chart)) return;
      chart.resize({ width: 'auto', height: 'auto' });
      h.fixed.delete(chart);
      lastWidth = chart.getDom().clientWidth;
    });
  }

  function disposeChart(h) {
    if (h.disposed) return;
    h.disposed = true;
    observers.forEach(function (io) { io.unobserve(h.el); });
    h.charts.forEach(function (chart) { chart.dispose(); });
    h.charts = [];
    h.el.__trainreportChart = null;
    var i = charts.indexOf(h);
    if (i >= 0) charts.splice(i, 1);
    dirtySet.delete(h);
  }

  // process brings one chart up to date: drawn, current, right size. Charts
  // not shown are only drawn (eager ones).
  function process(h) {
    if (h.disposed || !pageShown(h)) return;
    if (!h.drawn) {
      if (h.eager || h.inView) drawChart(h);
      return;
    }
    if (!isShown(h)) return;
    updateChart(h, false);
    resizeChart(h);
  }

  function needsWork(h) {
    if (h.disposed || !pageShown(h)) return false;
    if (!h.drawn) return h.eager || h.inView;
    if (!isShown(h)) return false;
    if (h.opts.key && h.opts.update && h.charts.length && h.opts.key() !== h.key) return true;
    return h.charts.some(function (c) { return sizeChanged(h, c); });
  }

  function markDirty(h) {
    if (dirtySet.has(h)) return;
    dirtySet.add(h);
    dirty.push(h);
  }

  function schedule(urgent) {
    if (scheduled === 'urgent' || (scheduled && !urgent)) return;
    scheduled = urgent ? 'urgent' : true;
    if (urgent) later(tick, 0); else idle(tick);
  }

  // tick works through the charts near the viewport first, then the others
  // in slices, so that the page stays responsive while hundreds draw.
  function tick() {
    scheduled = false;
    var t0 = now();
    var budget = 40;
    while (priority.length) {
      var h = priority.shift();
      if (h.inView) process(h);
      if (now() - t0 > 120) break;
    }
    var done = 0;
    while (dirty.length && (done === 0 || now() - t0 < budget)) {
      var d = dirty.shift();
      if (!dirtySet.delete(d)) continue; // disposed
      if (needsWork(d)) { process(d); done++; }
    }
    if (priority.length || dirty.length) schedule(priority.length > 0);
    checkReady();
  }

  // refreshCharts queues every chart of the shown pages; those in view first.
  function refreshCharts() {
    charts.forEach(function (h) {
      if (!pageShown(h)) return;
      markDirty(h);
      if (h.inView) priority.push(h);
    });
    schedule(true);
  }

  var resizeQueued = false;
  function onResize() {
    if (resizeQueued) return;
    resizeQueued = true;
    later(function () {
      resizeQueued = false;
      charts.forEach(function (h) {
        if (h.drawn && isShown(h)) { markDirty(h); if (h.inView) priority.push(h); }
      });
      schedule(true);
    }, 60);
  }

  function isReady() {
    if (!started) return false;
    for (var i = 0; i < charts.length; i++) {
      var h = charts[i];
      if (!h.eager || !pageShown(h)) continue;
      if (!h.drawn || h.pending) return false;
      if (isShown(h) && h.opts.key && h.opts.update && h.charts.length && h.opts.key() !== h.key) return false;
    }
    return true;
  }

  function checkReady() {
    if (!readyWaiters.length || !isReady()) return;
    var w = readyWaiters;
    readyWaiters = [];
    w.forEach(function (f) { f(); });
  }

  // ready resolves once every eager chart of the shown pages is drawn and
  // up to date (for tests and exports).
  function ready() {
    return new Promise(function (resolve) {
      readyWaiters.push(resolve);
      if (started) {
        // Make sure the scheduler runs even if nothing is queued.
        charts.forEach(function (h) { if (needsWork(h)) markDirty(h); });
        schedule(true);
      }
    });
  }

  // ---------------------------------------------------------------------------
  // Filters

  // applyPageFilters applies the Runs and Tags expressions to the pages
  // drawn per tag and run (histograms, distributions, images, audio, text,
  // tensors, PR curves, exceptions), in root or in every page, and to the
  // runs such a page has not loaded (filterMore). Their markup says what
  // is what: an element marked data-filter-tag is shown when its tag
  // matches and, when it holds elements marked data-filter-run, when one of
  // those is; those are shown when their run matches; an element marked
  // data-filter-group is shown when one of its tags is.
  function applyPageFilters(root) {
    (root ? [root] : pages()).forEach(function (main) {
      var tags = main.querySelectorAll('[data-filter-tag]');
      if (!tags.length) return;
      var anyTag = false;
      Array.prototype.forEach.call(tags, function (el) {
        var runs = el.querySelectorAll('[data-filter-run]');
        var anyRun = false;
        Array.prototype.forEach.call(runs, function (r) {
          var show = !runsRE.re || runsRE.re.test(r.getAttribute('data-filter-run'));
          if (r.hidden === show) r.hidden = !show;
          anyRun = anyRun || show;
        });
        var tagShown = !tagsRE.re || tagsRE.re.test(el.getAttribute('data-filter-tag'));
        var d = demands.get(el);
        if (d && filterMore(d, anyRun, tagShown)) anyRun = true;
        var show = tagShown && (anyRun || !runs.length);
        if (el.hidden === show) el.hidden = !show;
        anyTag = anyTag || show;
      });
      Array.prototype.forEach.call(main.querySelectorAll('[data-filter-group]'), function (g) {
        var show = !!g.querySelector('[data-filter-tag]:not([hidden])');
        if (g.hidden === show) g.hidden = !show;
      });
      var p = main.querySelector('.empty-filter');
      if (p && p.hidden !== anyTag) p.hidden = anyTag;
    });
  }

  // ---------------------------------------------------------------------------
  // Runs on demand

  // A tag section of a card page (histograms, distributions, images,
  // audio, text, tensors, PR curves, exceptions) that leaves runs out over
  // the page's byte budget carries data-more, the directory under data/ of
  // the scripts of those runs (render/ondemand.go), data-more-files and
  // data-more-runs. moreRuns(main, add) gives each such section of main a
  // "Show more runs" button: a click loads the next script, [[run, card],
  // ...], and hands each entry to add(section, run, card), which draws the
  // card (insertCard does, for a card that is HTML). The Runs filter
  // applies to the runs not loaded too: while it is set, the section loads
  // the list of the runs of each script (runs.js), the button loads only
  // scripts holding runs it matches and says how many are left, and a
  // section none of whose drawn runs it matches loads the first such
  // script by itself, so that filtering for a run left out shows it.
  var demands = new Map(); // section -> its state (offerMore)

  function moreRuns(main, add) {
    main.querySelectorAll('[data-more]').forEach(function (sec) {
      if (!demands.has(sec)) offerMore(sec, add);
    });
    applyPageFilters(main);
  }

  function offerMore(sec, add) {
    var dir = sec.getAttribute('data-more');
    var files = Number(sec.getAttribute('data-more-files')) || 0;
    if (!dir || !files) return;
    var d = {
      sec: sec, add: add, dir: dir, files: files, loaded: [], busy: false,
      left: Number(sec.getAttribute('data-more-runs')) || 0,
      index: null, indexState: 'none', // 'loading', 'done', 'failed'
      error: ''
    };
    d.p = document.createElement('p');
    d.p.className = 'more-runs';
    d.button = document.createElement('button');
    d.button.type = 'button';
    d.button.textContent = 'Show more runs';
    d.status = document.createElement('span');
    d.status.className = 'more-runs-status';
    d.p.appendChild(d.button);
    d.p.appendChild(d.status);
    sec.appendChild(d.p);
    d.button.addEventListener('click', function () {
      var k = nextFile(d);
      if (k >= 0) loadMore(d, k);
    });
    demands.set(sec, d);
    showMoreState(d);
  }

  // filtering reports whether the Runs filter is set.
  function filtering() { return !!runsRE.re; }

  // moreMatching returns how many of the runs section d has not loaded
  // the Runs filter matches, or -1 when that is not known (yet).
  function moreMatching(d) {
    if (!filtering()) return d.left;
    if (d.indexState !== 'done') return -1;
    var n = 0;
    d.index.forEach(function (runs, k) {
      if (d.loaded[k]) return;
      runs.forEach(function (r) { if (runsRE.re.test(String(r))) n++; });
    });
    return n;
  }

  // nextFile returns the script a click loads: the first not loaded, or
  // with the Runs filter set and the list loaded, the first not loaded
  // holding a run it matches; -1 when there is none.
  function nextFile(d) {
    var useIndex = filtering() && d.indexState === 'done';
    for (var k = 0; k < d.files; k++) {
      if (d.loaded[k]) continue;
      if (!useIndex || d.index[k].some(function (r) { return runsRE.re.test(String(r)); })) return k;
    }
    return -1;
  }

  function loadMore(d, k) {
    var name = d.dir + k + '.js';
    d.busy = true;
    d.error = '';
    showMoreState(d);
    loadData(name, name).then(function (list) {
      if (!Array.isArray(list)) throw new Error('data/' + name + ' holds no list of runs');
      d.loaded[k] = true;
      d.busy = false;
      list.forEach(function (e) {
        if (Array.isArray(e)) d.add(d.sec, String(e[0]), e[1]);
      });
      d.left = Math.max(0, d.left - list.length);
      applyPageFilters(d.sec.closest('main.page'));
    }).catch(function (err) {
      d.busy = false;
      d.error = err.message;
      showMoreState(d);
      if (window.console) console.warn('trainreport:', err);
    });
  }

  // loadIndex loads the list of the runs of each script of section d.
  function loadIndex(d) {
    var name = d.dir + 'runs.js';
    d.indexState = 'loading';
    loadData(name, name).then(function (index) {
      if (!Array.isArray(index) || index.length !== d.files || !index.every(Array.isArray)) {
        throw new Error('data/' + name + ' does not list the runs of ' + d.files + ' scripts');
      }
      d.index = index;
      d.indexState = 'done';
      applyPageFilters(d.sec.closest('main.page'));
    }).catch(function (err) {
      d.indexState = 'failed';
      d.error = err.message;
      showMoreState(d);
      if (window.console) console.warn('trainreport:', err);
    });
  }

  // showMoreState says what section d has left to load, and hides its
  // button when nothing is.
  function showMoreState(d) {
    var fmt = function (n) { return n.toLocaleString('en-US'); };
    var m = moreMatching(d);
    var text;
    if (d.busy) text = 'loading\u2026';
    else if (d.error) text = d.error;
    else if (!filtering() || m < 0) text = fmt(d.left) + ' more';
    else text = fmt(m) + ' of the ' + fmt(d.left) + ' more match the Runs filter';
    text = ' ' + text;
    if (d.status.textContent !== text) d.status.textContent = text;
    var hide = d.left === 0 || nextFile(d) < 0 && !d.error;
    if (d.p.hidden !== hide) d.p.hidden = hide;
    d.button.disabled = d.busy || nextFile(d) < 0;
  }

  // filterMore applies the Runs filter to the runs section d has not
  // loaded (see moreRuns), anyRun telling whether one of those it drew
  // matches and tagShown whether the Tags filter shows the section (a
  // hidden one loads nothing); it returns whether the section has more
  // runs the filter matches, or may have.
  function filterMore(d, anyRun, tagShown) {
    if (tagShown && filtering() && d.indexState === 'none' && d.left > 0) loadIndex(d);
    var m = moreMatching(d);
    if (tagShown && filtering() && !anyRun && m > 0 && !d.busy && !d.error) {
      var k = nextFile(d);
      if (k >= 0) loadMore(d, k);
    }
    showMoreState(d);
    return filtering() && (m > 0 || m < 0 && d.indexState !== 'failed');
  }

  // insertCard adds to section sec the card whose markup is html (written
  // by render, from the page's own template) and returns its element: into
  // the section's [data-more-cards] element, or before its button.
  function insertCard(sec, html) {
    var t = document.createElement('template');
    t.innerHTML = String(html);
    var card = t.content.firstElementChild;
    if (!card) return null;
    card.setAttribute('data-loaded', '');
    var into = sec.querySelector('[data-more-cards]');
    var d = demands.get(sec);
    if (into) into.appendChild(card);
    else sec.insertBefore(card, d ? d.p : null);
    return card;
  }

  // setInvalid marks an input whose pattern c does not compile, and says
  // why in its tooltip (lookarounds and backreferences, which JavaScript
  // knows, are refused on purpose).
  function setInvalid(input, c) {
    if (!input) return;
    if (c.valid) {
      input.removeAttribute('aria-invalid');
      input.removeAttribute('title');
    } else {
      input.setAttribute('aria-invalid', 'true');
      input.setAttribute('title', 'Invalid regular expression: ' + c.error);
    }
  }

  function forms() {
    return Array.prototype.slice.call(document.querySelectorAll('form[data-controls]'));
  }

  function field(form, name) {
    return form.querySelector('[name="' + name + '"]');
  }

  // syncControls writes the patterns into every controls form.
  function syncControls() {
    forms().forEach(function (form) {
      patterns.forEach(function (p) {
        var input = field(form, p.name);
        if (!input) return;
        if (input.value !== p.source) input.value = p.source;
        setInvalid(input, p);
      });
    });
  }

  // onControl takes a pattern as it is typed: marked at once, applied and
  // written to the URL when typing pauses.
  var filterTimer = null;
  function onControl(e) {
    var t = e.target;
    if (!t || !t.name || e.type !== 'input') return;
    for (var i = 0; i < patterns.length; i++) {
      if (patterns[i].name !== t.name) continue;
      patterns[i].source = t.value;
      setInvalid(t, compileRegExp(t.value));
      clearTimeout(filterTimer);
      filterTimer = later(applyState, 150);
      saveHash(400);
      return;
    }
  }

  // ---------------------------------------------------------------------------
  // Sortable tables

  function sortKey(cell) {
    if (!cell) return { num: false, text: '' };
    var ds = cell.getAttribute('data-sort');
    if (ds !== null && ds.trim() !== '') {
      var n = Number(ds);
      if (!isNaN(n)) return { num: true, value: n };
      return { num: false, text: ds };
    }
    return { num: false, text: (cell.textContent || '').trim() };
  }

  var collator = typeof Intl !== 'undefined' && Intl.Collator
    ? new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' }) : null;

  function compareKeys(a, b) {
    if (a.num && b.num) return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
    if (a.num) return -1;
    if (b.num) return 1;
    if (a.text === '' && b.text !== '') return 1;
    if (b.text === '' && a.text !== '') return -1;
    return collator ? collator.compare(a.text, b.text) : (a.text < b.text ? -1 : a.text > b.text ? 1 : 0);
  }

  function headerCells(table) {
    var row = table.tHead && table.tHead.rows.length ? table.tHead.rows[table.tHead.rows.length - 1] : null;
    if (!row) {
      var top = table.rows[0];
      if (top && top.querySelector('th')) row = top;
    }
    return row ? Array.prototype.slice.call(row.cells) : [];
  }

  function columnIndex(th) {
    // Account for colspans before this cell.
    var idx = 0, c = th.parentNode.firstElementChild;
    while (c && c !== th) { idx += c.colSpan || 1; c = c.nextElementSibling; }
    return idx;
  }

  function cellAt(row, col) {
    var idx = 0;
    for (var i = 0; i < row.cells.length; i++) {
      var c = row.cells[i];
      if (idx === col) return c;
      idx += c.colSpan || 1;
      if (idx > col) return null;
    }
    return null;
  }

  function sortTable(table, th) {
    var col = columnIndex(th);
    var dir = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
    headerCells(table).forEach(function (h) { if (h !== th) h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir);
    var sign = dir === 'ascending' ? 1 : -1;
    var headRow = th.parentNode;
    var bodies = table.tBodies.length ? Array.prototype.slice.call(table.tBodies) : [table];
    bodies.forEach(function (body) {
      var rows = Array.prototype.slice.call(body.rows).filter(function (r) { return r !== headRow; });
      var keyed = rows.map(function (r, i) { return { row: r, key: sortKey(cellAt(r, col)), i: i }; });
      keyed.sort(function (a, b) {
        var c = compareKeys(a.key, b.key);
        // Missing values stay at the end in both directions.
        if (a.key.num !== b.key.num || ((a.key.text === '') !== (b.key.text === '') && !a.key.num && !b.key.num)) return c || a.i - b.i;
        return c * sign || a.i - b.i;
      });
      var frag = document.createDocumentFragment();
      keyed.forEach(function (k) { frag.appendChild(k.row); });
      body.appendChild(frag);
    });
  }

  function setupTables() {
    document.querySelectorAll('table.sortable').forEach(function (table) {
      headerCells(table).forEach(function (th) {
        if (th.tagName !== 'TH' || th.hasAttribute('data-nosort')) return;
        th.classList.add('sort-header');
        if (!th.hasAttribute('tabindex')) th.tabIndex = 0;
        th.addEventListener('click', function () { sortTable(table, th); });
        th.addEventListener('keydown', function (e) {
          if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sortTable(table, th); }
        });
      });
    });
  }

  // ---------------------------------------------------------------------------
  // Pages (single-file mode)

  var singleFile = false;
  var pageListeners = [];

  // onPage registers fn(main) to set up the page named name, once: at
  // start when it is shown, or when single-file routing first shows it
  // (nothing on a hidden page can be measured). Showing it again needs
  // nothing of the page script: the lifecycle resizes its charts.
  function onPage(name, fn) {
    var l = { name: name, fn: fn, done: new Set() };
    pageListeners.push(l);
    if (started) {
      var main = document.querySelector('main.page[data-page="' + name + '"]');
      if (main && !main.hidden) setUp(l, main);
    }
  }

  function setUp(l, main) {
    if (l.done.has(main)) return;
    l.done.add(main);
    l.fn(main);
  }

  function notifyShown(main) {
    var name = main.getAttribute('data-page');
    pageListeners.forEach(function (l) { if (l.name === name) setUp(l, main); });
  }

  function pages() {
    return Array.prototype.slice.call(document.querySelectorAll('main.page'));
  }

  function route(initial) {
    if (!singleFile) return;
    var all = pages();
    if (!all.length) return;
    var want = hashGet(readHash(), 'page');
    var target = null;
    all.forEach(function (p) { if (want && p.getAttribute('data-page') === want && !target) target = p; });
    if (!target) target = all[0];
    var changed = target.hidden;
    all.forEach(function (p) {
      var hide = p !== target;
      if (p.hidden !== hide) p.hidden = hide;
    });
    var name = target.getAttribute('data-page');
    document.querySelectorAll('header.top nav a[data-page], nav a[data-page]').forEach(function (a) {
      if (a.getAttribute('data-page') === name) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    });
    if (changed && !initial) window.scrollTo(0, 0);
    if (changed && !initial) notifyShown(target);
  }

  // In single-file mode a nav link changes only the page key of the hash, so
  // the page state survives switching pages.
  function onNavClick(e) {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    var a = e.target && e.target.closest && e.target.closest('a[href^="#"]');
    if (!a) return;
    var href = a.getAttribute('href').slice(1);
    if (!/(^|&)page=/.test(href)) return;
    var pairs = readHash();
    href.split('&').forEach(function (part) {
      if (!part) return;
      var i = part.indexOf('=');
      var k = decode(i < 0 ? part : part.slice(0, i));
      var v = decode(i < 0 ? '' : part.slice(i + 1));
      pairs = hashSet(pairs, k, v);
    });
    e.preventDefault();
    var h = hashString(pairs);
    if (h === location.hash.replace(/^#/, '')) { onHashChange(); return; }
    location.hash = h;
  }

  // onHashChange shows the page the hash names (single file) and applies
  // the state it holds: the back button, a pasted link.
  function onHashChange() {
    var h = location.hash.replace(/^#/, '');
    if (ignoreHash !== null && h === ignoreHash) { ignoreHash = null; return; }
    ignoreHash = null;
    route(false);
    readState();
    applyState();
  }

  // ---------------------------------------------------------------------------
  // Start

  function start() {
    singleFile = document.body.hasAttribute('data-single-file');
    route(true);
    readState();
    patterns.forEach(compilePattern);
    setupTables();
    forms().forEach(function (form) {
      form.addEventListener('input', onControl);
      form.addEventListener('submit', function (e) { e.preventDefault(); });
    });
    if (singleFile) document.addEventListener('click', onNavClick);
    window.addEventListener('hashchange', onHashChange);
    window.addEventListener('resize', onResize);
    started = true;
    // The page scripts set their pages up (registering charts, adding
    // the cells the filters act on), then the state applies to all.
    pages().forEach(function (p) { if (!p.hidden) notifyShown(p); });
    applyState();
    checkReady();
  }

  window.trainreport = {
    regexp: REGEXP,
    // For the pages' own scripts (assets/<page>.js).
    onPage: onPage,
    lazyChart: lazyChart,
    // applyFilters(main) filters what a page script added to main.
    applyFilters: applyPageFilters,
    // moreRuns(main, add) and insertCard(section, html): the runs a card
    // page leaves out, on demand (see above).
    moreRuns: moreRuns,
    insertCard: insertCard,
    state: {
      key: addKey,
      pattern: pattern,
      // onApply(fn): fn() applies the page's state, after the patterns
      // compiled and before the charts re-draw.
      onApply: function (fn) { applyHooks.push(fn); },
      // apply() applies the state at the next frame; save(delay) writes it
      // into the URL, after delay milliseconds when given.
      apply: applySoon,
      save: saveHash
    },
    ready: ready,
    // loadData(file, script) and dataLoaded(file, data): data files as
    // scripts, for downloads (see above).
    loadData: loadData,
    dataLoaded: dataLoaded,
    // scalarBundle decodes a run's series in a scalar bundle, as loadData
    // gives it.
    scalarBundle: scalarBundle,
    util: {
      escapeHTML: escapeHTML, toNumber: toNumber, fmtNum: fmtNum, fmtStep: fmtStep, fmtDate: fmtDate,
      nonFiniteLabel: nonFiniteLabel, colorOf: colorOf, download: download, later: later, palette: PALETTE
    }
  };

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();

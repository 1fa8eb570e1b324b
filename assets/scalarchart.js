/*
 * The line charts of scalars, shared by the Scalars page (scalars.js) and
 * the Custom Scalars page (custom_scalars.js): a chart per figure with a
 * line per series (a run's tag), TensorBoard's debiased smoothing,
 * the x axis by step, relative or wall time, log scale, run groups (by a
 * name pattern or by hyperparameter values) drawn as their mean with a
 * band of one standard deviation, the baseline's runs (dashed) or its
 * values (reference lines) with --baseline, the min/max envelopes
 * of downsampled series, marks for non-finite values, dots for points
 * with no drawn neighbour, one run selector for every chart, tooltips, and
 * CSV, JSON (every point of the data files) and PNG downloads, pins (a
 * chart's tag kept in the URL hash and the browser's storage, which the
 * Custom Scalars page draws), and the bands of margin charts. Every
 * ECharts option is built here, from each chart's data (see the rule in
 * app.js's header). The charts go through
 * app.js's lifecycle as eager charts: those in view draw first, the others
 * when the browser is idle, and trainreport.ready() waits for them all.
 * A page sets its charts up with trainreport.scalarCharts.setup(main,
 * opts): a figure's data is its script.chart-data element (the Scalars
 * page) or what opts.load(figure) resolves with, in the same form (the
 * Custom Scalars page, from the data files).
 * Plain ES2019, no globals besides what it adds to window.trainreport.
 */
(function () {
  'use strict';

  var T = window.trainreport;
  if (!T) return;
  var util = T.util;
  var escapeHTML = util.escapeHTML, toNumber = util.toNumber, fmtNum = util.fmtNum;
  var fmtStep = util.fmtStep, fmtDate = util.fmtDate, colorOf = util.colorOf;

  var MARK_COLOR = '#c62828';
  var MAX_MARKS = 20;
  var DEFAULT_SMOOTHING = 0.6;
  var MAX_SMOOTHING = 0.999;
  var X_MODES = { step: 1, relative: 1, wall: 1 };
  var MAX_PINS = 100;
  var SWEEP_COLOR = '#37474f';
  // The colours of a sweep's best and worst runs, by place.
  // GRID_BOTTOM is the room under a chart's plot: the x axis's tick
  // labels, its name under them and the zoom slider, apart.
  var GRID_BOTTOM = 62;
  var BEST_COLORS = ['#1b5e20', '#2e7d32', '#43a047', '#66bb6a', '#81c784'];
  var WORST_COLORS = ['#b71c1c', '#d32f2f', '#e53935', '#ef5350', '#e57373'];

  function nonFiniteName(v) {
    if (v === Infinity) return 'Infinity';
    if (v === -Infinity) return '-Infinity';
    return 'NaN';
  }

  function fmtX(x, mode) {
    if (mode === 'wall') return fmtDate(x);
    if (mode === 'relative') return (Math.round(x * 1000) / 1000) + ' h';
    if (mode !== 'step') return xTagOf(mode) + ' ' + fmtNum(x);
    return 'step ' + fmtStep(x);
  }

  function safeFileName(tag, ext) {
    var base = String(tag == null ? '' : tag).replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, function (m) {
      return m.replace(/\./g, '_');
    });
    if (base.length > 120) base = base.slice(0, 120);
    if (!base) base = 'scalars';
    return base + '.' + ext;
  }

  // ---------------------------------------------------------------------------
  // Smoothing: TensorBoard's debiased exponential moving average.

  function smooth(values, weight) {
    var src = values || [];
    var n = src.length;
    var out = new Array(n);
    var w = Number(weight);
    if (!(w > 0)) w = 0;
    if (w > MAX_SMOOTHING) w = MAX_SMOOTHING;
    var first, constant = true, any = false, i, v;
    for (i = 0; i < n; i++) {
      v = toNumber(src[i]);
      if (!isFinite(v)) continue;
      if (!any) { first = v; any = true; } else if (v !== first) { constant = false; break; }
    }
    if (!any || constant) {
      for (i = 0; i < n; i++) out[i] = src[i];
      return out;
    }
    var last = 0, count = 0;
    for (i = 0; i < n; i++) {
      v = toNumber(src[i]);
      if (!isFinite(v)) { out[i] = src[i]; continue; }
      last = last * w + (1 - w) * v;
      count += 1;
      out[i] = w === 0 ? v : last / (1 - Math.pow(w, count));
    }
    return out;
  }

  // ---------------------------------------------------------------------------
  // Smoothing over every point. Past --max-points a line draws each
  // bucket's first, last, lowest and highest points, and an average over
  // those alone leans toward the extremes. With smoothing on, a
  // downsampled run's bundle (data/scalars/<first-run>.js, every point of the
  // series unless --max-data-points caps it) is loaded, the average runs
  // over every point and is drawn at the drawn ones. Until it is loaded
  // the chart draws the raw line alone, never a smoothed line that would
  // then move; without the bundle (the single-file report, a capped
  // series) it smooths the drawn points, and the figure says which
  // (data-smoothed: every, drawn or loading).

  // fullNeeded reports whether run r is drawn downsampled and its bundle
  // holds every point of it.
  function fullNeeded(r) {
    return r.total > r.steps.length && r.kept === r.total && !!r.file && !!r.script &&
      typeof T.loadData === 'function' && !!T.scalarBundle;
  }

  // loadFull loads the values of every point of run r (tag, by default the
  // chart's) into r.full: {values, n, idx}, values the bundle's own column
  // of them (n long; not copied: a bundle can hold millions), idx the
  // index of each drawn point among them, or {failed: true}. It returns
  // the promise of a load it starts, null when r.full was already set.
  function loadFull(r, tag) {
    if (r.full) return null;
    var p = T.loadData(r.file, r.script).then(function (b) {
      r.full = matchFull(r, T.scalarBundle.column(b, r.run, tag)) || { failed: true };
    }, function () {
      r.full = { failed: true };
    }).then(function () { r.smoothed = null; });
    r.full = { loading: p };
    return p;
  }

  // matchFull finds the drawn points of r in col (scalarBundle.column):
  // the drawn points are some of its points, in order, so one walk finds
  // each at the first point with its step and value after the last found.
  // It returns null when one is missing (the data file is not the chart's
  // series).
  function matchFull(r, col) {
    if (!col) return null;
    var n = col.n, m = r.steps.length, values = col.value;
    var idx = new Int32Array(m), k = 0, j, v, u;
    for (j = 0; j < m; j++) {
      v = r.values[j];
      for (; k < n; k++) {
        u = toNumber(values[k]);
        if ((u === v || (v !== v && u !== u)) && col.step(k) === r.steps[j]) break;
      }
      if (k === n) return null;
      idx[j] = k++;
    }
    return { values: values, n: n, idx: idx };
  }

  // smoothedRun returns run r's smoothed values at its drawn points for
  // weight w, over every point when r.full holds them, else over the
  // drawn points; the last weight's are kept for the tooltip.
  function smoothedRun(r, w) {
    if (r.smoothed && r.smoothW === w) return r.smoothed;
    var out;
    if (r.full && r.full.idx) {
      var vals = r.full.values;
      var all = smooth(vals.length > r.full.n ? vals.slice(0, r.full.n) : vals, w), idx = r.full.idx;
      out = new Array(idx.length);
      for (var j = 0; j < idx.length; j++) out[j] = all[idx[j]];
    } else {
      out = smooth(r.values, w);
    }
    r.smoothed = out;
    r.smoothW = w;
    return out;
  }

  // smoothedFor returns what smoothedRun does, or null while run r's
  // bundle loads (a load it starts is added to wait); how says over which
  // points it smooths.
  function smoothedFor(rec, r, w, wait, how) {
    if (fullNeeded(r)) {
      var p = loadFull(r, r.tag || rec.model.tag);
      if (p) wait.push(p);
      if (r.full.loading) { how.loading++; return null; }
      if (r.full.failed) how.drawn++;
    } else if (r.total > r.steps.length) {
      how.drawn++;
    }
    return smoothedRun(r, w);
  }

  // ---------------------------------------------------------------------------
  // Page state, in the URL hash beside the Runs and Tags patterns of app.js:
  // smoothing, x axis, log scale and the Group pattern.

  var state = { smoothing: DEFAULT_SMOOTHING, x: 'step', log: false };
  var runsRE = T.state.pattern('runs');
  var groupRE = T.state.pattern('group');
  // off holds the runs unchecked in the run selector, by name; offKey
  // names them for renderKey.
  var off = new Set();
  var offKey = '';

  function smoothingString(v) {
    return String(Math.round(v * 1000) / 1000);
  }

  T.state.key('smoothing', function (v) {
    state.smoothing = DEFAULT_SMOOTHING;
    if (v !== null && v !== '') {
      var f = parseFloat(v);
      if (isFinite(f)) state.smoothing = Math.min(MAX_SMOOTHING, Math.max(0, f));
    }
  }, function () { return smoothingString(state.smoothing); });
  T.state.key('x', function (v) {
    state.x = xModeOf(v);
  }, function () { return state.x; });
  T.state.key('log', function (v) {
    state.log = v === '1' || v === 'true' || v === 'on';
  }, function () { return state.log ? '1' : null; });
  // The unchecked runs, each name URI-encoded (so a comma in one cannot
  // split it), joined by commas.
  T.state.key('off', function (v) {
    off = new Set();
    if (v) v.split(',').forEach(function (n) { off.add(decodePart(n)); });
    offChanged();
  }, function () {
    if (!off.size) return null;
    return Array.from(off).sort().map(encodeURIComponent).join(',');
  });
  T.state.onApply(function () {
    syncControls();
    applyTagFilter();
    syncRunList();
  });

  function decodePart(s) {
    try { return decodeURIComponent(s); } catch (e) { return s; }
  }

  function offChanged() {
    offKey = Array.from(off).sort().join('\u0000');
  }

  // shownRun reports whether run name is drawn: matched by the Runs
  // pattern and checked in the run selector.
  function shownRun(name) {
    return (!runsRE.re || runsRE.re.test(name)) && !off.has(name);
  }

  // renderKey names everything a chart's option depends on.
  function renderKey() {
    return [smoothingString(state.smoothing), state.x, state.log ? 1 : 0,
      runsRE.re ? runsRE.re.source : '', groupRE.re ? groupRE.re.source : '', offKey,
      T.scalarSweep ? T.scalarSweep.key() : '', viewKey(), hpRenderKey()].join('\u0001');
  }

  function field(form, name) {
    return form.querySelector('[name="' + name + '"]');
  }

  // syncControls writes the state into the controls.
  function syncControls() {
    document.querySelectorAll('form[data-controls]').forEach(function (form) {
      var sm = field(form, 'smoothing');
      if (sm && parseFloat(sm.value) !== state.smoothing) sm.value = String(state.smoothing);
      var out = field(form, 'smoothing-value');
      if (out) out.textContent = state.smoothing.toFixed(3);
      var x = field(form, 'x');
      if (x) { xOption(x, state.x); x.value = state.x; }
      var lg = field(form, 'log');
      if (lg) lg.checked = state.log;
      syncViewControls(form);
    });
    syncHParamControl();
  }

  function onControl(e) {
    var t = e.target;
    if (!t || !t.name) return;
    switch (t.name) {
      case 'smoothing': {
        var v = parseFloat(t.value);
        state.smoothing = isFinite(v) ? Math.min(MAX_SMOOTHING, Math.max(0, v)) : DEFAULT_SMOOTHING;
        var out = t.form && field(t.form, 'smoothing-value');
        if (out) out.textContent = state.smoothing.toFixed(3);
        T.state.apply();
        if (e.type === 'change') T.state.save();
        break;
      }
      case 'x':
        if (e.type !== 'change') return;
        state.x = xModeOf(t.value);
        T.state.apply();
        T.state.save();
        break;
      case 'log':
        if (e.type !== 'change') return;
        state.log = !!t.checked;
        T.state.apply();
        T.state.save();
        break;
      default:
        onViewControl(e, t);
    }
  }

  // ---------------------------------------------------------------------------
  // The chart view's other controls: the x axis by another scalar, ignore
  // outliers, tooltip order and the run legend under each chart. Kept in
  // the URL hash (x=tag:NAME, outliers=1, tipsort=..., legend=1).

  var X_TAG = 'tag:';
  // A tag name in the hash longer than this is no tag of a report.
  var MAX_X_TAG = 1000;
  // The most tags the x axis control lists, and the most runs a note or
  // legend names before "and N more".
  var MAX_X_OPTIONS = 1000;
  var MAX_NAMED = 20;
  // Ignore outliers: the y axis spans these quantiles of the drawn values,
  // widened by OUTLIER_MARGIN of their span on each side (TensorBoard's
  // toggle bounds its domain by the 5th and 95th percentiles). At most
  // OUTLIER_SAMPLE values are sorted: past that an even sample of them.
  var OUTLIER_LO = 0.05, OUTLIER_HI = 0.95, OUTLIER_MARGIN = 0.1, OUTLIER_SAMPLE = 200000;
  var TIP_SORTS = { value: 1, name: 1, nearest: 1 };

  state.outliers = false;
  state.tipsort = '';
  state.legend = false;

  T.state.key('outliers', function (v) {
    state.outliers = v === '1' || v === 'true' || v === 'on';
  }, function () { return state.outliers ? '1' : null; });
  T.state.key('tipsort', function (v) {
    state.tipsort = v && Object.prototype.hasOwnProperty.call(TIP_SORTS, v) ? v : '';
  }, function () { return state.tipsort || null; });
  T.state.key('legend', function (v) {
    state.legend = v === '1' || v === 'true' || v === 'on';
  }, function () { return state.legend ? '1' : null; });

  // xModeOf returns the x mode v names: step, relative, wall, or tag:NAME
  // for the values of scalar NAME; step for anything else.
  function xModeOf(v) {
    if (typeof v !== 'string') return 'step';
    if (Object.prototype.hasOwnProperty.call(X_MODES, v)) return v;
    if (v.indexOf(X_TAG) === 0 && v.length > X_TAG.length && v.length <= X_TAG.length + MAX_X_TAG) return v;
    return 'step';
  }

  // xTagOf returns the scalar tag of x mode, null for step and time.
  function xTagOf(mode) {
    return typeof mode === 'string' && mode.indexOf(X_TAG) === 0 ? mode.slice(X_TAG.length) : null;
  }

  // setupXOptions adds to each x axis control of main an option per scalar
  // tag: tags (Custom Scalars gives the report's), or the tags of main's
  // charts (the Scalars page: a chart per tag); none on a page whose
  // charts load their data and that names none, where a link's tag still
  // works.
  function setupXOptions(main, tags) {
    if (!tags) {
      tags = [];
      if (!main.querySelector('figure.chart-card script.chart-data')) return;
      main.querySelectorAll('figure.chart-card[data-tag]').forEach(function (fig) {
        tags.push(fig.getAttribute('data-tag'));
      });
    }
    var seen = new Set();
    tags = tags.filter(function (t) {
      if (!t || seen.has(t)) return false;
      seen.add(t);
      return true;
    }).sort().slice(0, MAX_X_OPTIONS);
    if (!tags.length) return;
    main.querySelectorAll('form[data-controls] select[name="x"]').forEach(function (sel) {
      var g = document.createElement('optgroup');
      g.label = 'By scalar';
      tags.forEach(function (t) {
        var o = document.createElement('option');
        o.value = X_TAG + t;
        o.textContent = t;
        g.appendChild(o);
      });
      sel.appendChild(g);
    });
  }

  // xOption makes sure select sel has an option for mode (a tag a link
  // names that the page does not list).
  function xOption(sel, mode) {
    var tag = xTagOf(mode);
    if (tag === null) return;
    for (var i = 0; i < sel.options.length; i++) if (sel.options[i].value === mode) return;
    var o = document.createElement('option');
    o.value = mode;
    o.textContent = tag;
    sel.appendChild(o);
  }

  // xCache holds per run and x tag the x values by step: {map}, {loading:
  // promise} or {lacks: true}. Loaded once for every chart.
  var xCache = new Map();

  // xSource returns run r's values of tag by step: from the page's own
  // chart of tag when it draws every point of the run (no load), else from
  // the run's bundle (data/scalars/<first-run>.js, loaded as smoothing loads
  // it) when the chart names it, else (the single file) from the drawn
  // points of the page's chart of tag.
  function xSource(r, tag) {
    var key = r.run + '\u0000' + tag;
    var c = xCache.get(key);
    if (c) return c;
    var bundle = !!(r.file && r.script && typeof T.loadData === 'function' && T.scalarBundle);
    var inline = inlineX(r.run, tag);
    if (inline && (inline.whole || !bundle)) {
      c = { map: inline.map };
    } else if (bundle) {
      c = {};
      c.loading = T.loadData(r.file, r.script).then(function (b) {
        var col = T.scalarBundle.column(b, r.run, tag);
        xCache.set(key, col ? { map: columnMap(col) } : { lacks: true });
      }, function () {
        xCache.set(key, { lacks: true });
      });
    } else {
      c = { lacks: true };
    }
    xCache.set(key, c);
    return c;
  }

  // inlineX returns run's points on the page's chart of tag, by step, as
  // {map, whole}, whole when the chart draws all of them; null when the
  // page has no such chart or it lacks the run.
  function inlineX(run, tag) {
    for (var i = 0; i < records.length; i++) {
      var other = records[i];
      if (other.load || other.figure.getAttribute('data-tag') !== tag) continue;
      var m = parseModel(other);
      var src = m && m.runs.find(function (q) { return q.run === run && (!q.tag || q.tag === tag); });
      if (!src) continue;
      var map = new Map();
      for (var j = 0; j < src.steps.length; j++) map.set(src.steps[j], src.values[j]);
      return { map: map, whole: !(src.total > src.steps.length) };
    }
    return null;
  }

  // columnMap maps each step of a bundle's column to its value; a step
  // logged twice keeps its last value, as the line draws it.
  function columnMap(col) {
    var map = new Map();
    for (var k = 0; k < col.n; k++) map.set(col.step(k), toNumber(col.value[k]));
    return map;
  }

  // xByScalar returns the x of run r's point at step: the x scalar's
  // value at exactly that step, NaN (the point left out) where it has none.
  function xByScalar(r, step) {
    var v = r.xmap ? r.xmap.get(step) : undefined;
    return v === undefined ? NaN : v;
  }

  // keptX returns the indices of the xs that are numbers.
  function keptX(xs) {
    var out = [];
    for (var j = 0; j < xs.length; j++) if (xs[j] === xs[j]) out.push(j);
    return Int32Array.from(out);
  }

  function pickPoints(data, idx) {
    var out = new Array(idx.length);
    for (var k = 0; k < idx.length; k++) out[k] = data[idx[k]];
    return out;
  }

  // xRun readies run r for an x axis by tag: it reports whether r is
  // drawn, and notes in note why not (it lacks tag, logs it at other
  // steps, or it loads: its load added to wait).
  function xRun(rec, r, tag, wait, note) {
    var src = xSource(r, tag);
    r.xmap = null;
    if (src.loading) {
      if (wait.indexOf(src.loading) < 0) wait.push(src.loading);
      note.loading++;
      return false;
    }
    if (!src.map) { note.lacks.push(r.name); return false; }
    var n = r.steps.length, hit = 0;
    for (var j = 0; j < n; j++) if (src.map.has(r.steps[j])) hit++;
    if (!hit) { note.other.push(r.name); return false; }
    if (hit < n) note.partial.push(r.name + ' (' + (n - hit) + ' of ' + n + ')');
    r.xmap = src.map;
    return true;
  }

  function namedList(names) {
    var out = names.slice(0, MAX_NAMED).join(', ');
    if (names.length > MAX_NAMED) out += ' and ' + (names.length - MAX_NAMED) + ' more';
    return out;
  }

  // showXNote says under rec's chart which runs the x axis by tag leaves
  // out, and why; data-xaxis on the figure says whether it is drawn
  // ("ready") or waits for bundles ("loading").
  function showXNote(rec, tag, note) {
    var fig = rec.figure;
    var el = fig.querySelector('p.x-note');
    if (!note) {
      if (el) el.remove();
      fig.removeAttribute('data-xaxis');
      return;
    }
    var parts = [];
    if (note.loading) parts.push('Loading ' + tag + ' of ' + note.loading + (note.loading === 1 ? ' run\u2026' : ' runs\u2026'));
    if (note.lacks.length) parts.push('Left out, no ' + tag + ': ' + namedList(note.lacks) + '.');
    if (note.other.length) parts.push('Left out, ' + tag + ' at other steps: ' + namedList(note.other) + '.');
    if (note.partial.length) parts.push('Points with no ' + tag + ' at their step: ' + namedList(note.partial) + '.');
    fig.setAttribute('data-xaxis', note.loading ? 'loading' : 'ready');
    if (!parts.length) {
      if (el) el.remove();
      return;
    }
    if (!el) {
      el = document.createElement('p');
      el.className = 'x-note';
      rec.div.insertAdjacentElement('afterend', el);
    }
    var text = parts.join(' ');
    if (el.textContent !== text) el.textContent = text;
  }

  // fitOutliers bounds yAxis by the quantiles of the values the lines of
  // runs and groups in series draw, so that a spike leaves the chart at
  // its edge rather than flattening the rest.
  function fitOutliers(yAxis, series, log) {
    var count = 0;
    series.forEach(function (s) {
      if (/^(run|group):/.test(String(s.id))) count += s.data.length;
    });
    var stride = Math.max(1, Math.ceil(count / OUTLIER_SAMPLE));
    var vals = new Float64Array(Math.ceil(count / stride)), n = 0, at = 0;
    series.forEach(function (s) {
      if (!/^(run|group):/.test(String(s.id))) return;
      s.data.forEach(function (p) {
        if (at++ % stride || n >= vals.length) return;
        var v = p[1];
        if (v == null || !isFinite(v) || !isFinite(p[0]) || (log && !(v > 0))) return;
        vals[n++] = log ? Math.log10(v) : v;
      });
    });
    if (n < 2) return;
    vals = vals.subarray(0, n).sort();
    var q = function (p) {
      var i = (n - 1) * p, lo = Math.floor(i);
      return lo + 1 < n ? vals[lo] + (vals[lo + 1] - vals[lo]) * (i - lo) : vals[lo];
    };
    var lo = q(OUTLIER_LO), hi = q(OUTLIER_HI);
    var pad = (hi - lo) * OUTLIER_MARGIN || Math.abs(lo) * OUTLIER_MARGIN || 1;
    lo -= pad;
    hi += pad;
    yAxis.min = log ? Math.pow(10, lo) : lo;
    yAxis.max = log ? Math.pow(10, hi) : hi;
    yAxis.axisLabel = { showMinLabel: false, showMaxLabel: false };
  }

  // sortTip orders the tooltip's entries (ECharts' params) as the
  // Tooltip control says: by value, highest first; by name; or nearest
  // the pointer first. Entries with no value come last.
  function sortTip(rec, params) {
    var how = state.tipsort;
    if (!how || params.length < 2) return params;
    var yOf = function (p) {
      var v = Array.isArray(p.value) ? p.value[1] : p.value;
      v = v == null ? NaN : Number(v);
      return isFinite(v) ? v : NaN;
    };
    var keyed = params.map(function (p, k) {
      var y = yOf(p), key = y;
      if (how === 'nearest') {
        key = NaN;
        if (isFinite(y) && rec.pointerY != null && rec.chart) {
          var px = rec.chart.convertToPixel({ gridIndex: 0 }, [Number(p.value[0]), y]);
          if (px && isFinite(px[1])) key = Math.abs(px[1] - rec.pointerY);
        }
      }
      return { p: p, k: k, key: key, name: String(p.seriesName || '') };
    });
    keyed.sort(function (a, b) {
      if (how === 'name') {
        var c = a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
        return c || a.k - b.k;
      }
      var an = a.key !== a.key, bn = b.key !== b.key;
      if (an || bn) return an && bn ? a.k - b.k : (an ? 1 : -1);
      if (a.key !== b.key) return how === 'value' ? b.key - a.key : a.key - b.key;
      return a.k - b.k;
    });
    return keyed.map(function (e) { return e.p; });
  }

  // trackPointer keeps the pointer's height over rec's chart for the
  // nearest tooltip order. Captured on the chart's element, so it is
  // known before the chart's own handlers draw the tooltip.
  function trackPointer(rec) {
    var at = function (e) { rec.pointerY = e.clientY - rec.div.getBoundingClientRect().top; };
    rec.div.addEventListener('pointermove', at, true);
    rec.div.addEventListener('mousemove', at, true);
  }

  // showLegend names under rec's chart, in their colours, the runs and
  // groups it draws (the first MAX_NAMED), when the Legend box is checked:
  // the run list may be far up the page.
  function showLegend(rec, drawn, groups) {
    var fig = rec.figure;
    var el = fig.querySelector('ul.chart-legend');
    if (!state.legend) {
      if (el) el.remove();
      return;
    }
    var items = drawn.map(function (i) { var r = rec.model.runs[i]; return [r.name, r.color]; });
    groups.forEach(function (g) { items.push([g.label, g.color, g.dash]); });
    var key = JSON.stringify(items);
    if (el && el.__key === key) return;
    if (!el) {
      el = document.createElement('ul');
      el.className = 'chart-legend';
      var after = fig.querySelector('p.x-note') || rec.div;
      after.insertAdjacentElement('afterend', el);
    }
    el.__key = key;
    el.textContent = '';
    items.slice(0, MAX_NAMED).forEach(function (it) {
      var li = document.createElement('li');
      var dot = document.createElement('span');
      dot.className = 'legend-dot';
      if (it[2] && it[2] !== 'solid') {
        // A dashed or dotted group's mark is a short line of its type.
        dot.style.borderTop = '2px ' + it[2] + ' ' + it[1];
        dot.style.height = '0';
      } else {
        dot.style.background = it[1];
      }
      li.appendChild(dot);
      li.appendChild(document.createTextNode(it[0]));
      li.title = it[0];
      el.appendChild(li);
    });
    if (items.length > MAX_NAMED) {
      var more = document.createElement('li');
      more.className = 'legend-more';
      more.textContent = 'and ' + (items.length - MAX_NAMED) + ' more (the Runs list names them)';
      el.appendChild(more);
    }
  }

  // onViewControl handles the controls of this block.
  function onViewControl(e, t) {
    if (e.type !== 'change') return;
    switch (t.name) {
      case 'outliers': state.outliers = !!t.checked; break;
      case 'legend': state.legend = !!t.checked; break;
      case 'tipsort':
        state.tipsort = TIP_SORTS[t.value] ? t.value : '';
        // ECharts keeps a tooltip's text while the pointer stays at the
        // same point: drop the shown ones so the next is sorted anew.
        records.forEach(function (rec) { if (rec.chart) rec.chart.dispatchAction({ type: 'hideTip' }); });
        break;
      default: return;
    }
    T.state.apply();
    T.state.save();
  }

  function syncViewControls(form) {
    var o = field(form, 'outliers');
    if (o) o.checked = state.outliers;
    var l = field(form, 'legend');
    if (l) l.checked = state.legend;
    var s = field(form, 'tipsort');
    if (s) s.value = state.tipsort;
  }

  // viewKey names what of this block a chart's option depends on.
  function viewKey() {
    return (state.outliers ? 'o' : '') + (state.legend ? 'l' : '');
  }

  // ---------------------------------------------------------------------------
  // Chart records: one per figure.chart-card.

  var records = [];

  // setup sets up a page's charts: every figure.chart-card of main, its
  // controls and its run selector. opts.load(figure), when given, returns
  // a promise of a figure's data, in the form of a script.chart-data
  // element; without it the figure holds that element.
  function setup(main, opts) {
    opts = opts || {};
    main.querySelectorAll('form[data-controls]').forEach(function (form) {
      form.addEventListener('input', onControl);
      form.addEventListener('change', onControl);
    });
    main.addEventListener('click', onAction);
    setupRunList(main);
    setupXOptions(main, opts.xTags || (opts.load ? [] : null));
    readHParams(main);
    setupHParamControl(main);
    syncControls();
    main.querySelectorAll('figure.chart-card').forEach(function (fig) { addChart(main, fig, opts.load); });
    applyTagFilter();
    syncPins();
  }

  // addChart registers the chart of fig, a figure.chart-card of main, with
  // the lifecycle; load is setup's opts.load.
  function addChart(main, fig, load) {
    var div = fig.querySelector('[data-chart]') || fig.querySelector('.chart');
    if (!div) return null;
    var rec = {
      figure: fig, div: div, page: main, group: fig.closest('section.tag-group, details'), chart: null, model: null,
      load: load || null
    };
    fig.__trainreportRec = rec;
    records.push(rec);
    // A draw that loads bundles to smooth over (smoothedOver) returns the
    // promise of its second drawing, which ready() waits for.
    var draw = function (h) { rec.fullWait = null; initChart(rec, h); return rec.fullWait; };
    if (load) {
      // Drawn once its data arrived, with the state of then.
      draw = function (h) {
        return Promise.resolve().then(function () { return load(fig); }).then(function (data) {
          if (h.disposed) return;
          rec.data = data;
          rec.fullWait = null;
          initChart(rec, h);
          return rec.fullWait;
        }, function (err) {
          if (h.disposed) return;
          rec.error = 'The data of this chart could not be loaded: ' + (err && err.message || err);
          showError(rec);
        });
      };
    }
    rec.handle = T.lazyChart(div, draw, {
      eager: true, key: function () { return renderKey() + '\u0001' + (rec.gen || 0); },
      update: function () { if (rec.chart) updateChart(rec); }
    });
    return rec;
  }

  // ---------------------------------------------------------------------------
  // Pins: the tags whose charts the Custom Scalars page draws, pinned with
  // a chart's pin button. They are kept in the URL hash (pins=, so a link
  // carries them) and in the browser's local storage under a key of the
  // report (its title and runs), so that the site's other page, opened
  // from the navigation, finds them. Storage may be missing or refuse
  // (file:// in some browsers, private windows): pins then live in the
  // hash only.

  var pins = [];
  var pinListeners = [];
  var pinsShown = null; // the pins syncPins last showed

  function storageKey() {
    var runs = document.getElementById('trainreport-runs');
    var title = String(document.title || '').replace(/ \u00b7 [^\u00b7]*$/, '');
    var text = title + '\n' + (runs ? runs.textContent : '');
    // FNV-1a, enough to tell reports apart in one browser.
    var h = 0x811c9dc5;
    for (var i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return 'trainreport.pins.' + h.toString(16);
  }

  function storedPins() {
    try {
      var v = window.localStorage && window.localStorage.getItem(storageKey());
      var list = v ? JSON.parse(v) : [];
      return Array.isArray(list) ? list.filter(function (t) { return typeof t === 'string'; }).slice(0, MAX_PINS) : [];
    } catch (e) {
      return [];
    }
  }

  function storePins() {
    try {
      if (window.localStorage) window.localStorage.setItem(storageKey(), JSON.stringify(pins));
    } catch (e) { /* the hash keeps them */ }
  }

  // The pinned tags, each URI-encoded, joined by commas.
  T.state.key('pins', function (v) {
    if (v === null) { pins = storedPins(); return; }
    pins = [];
    v.split(',').forEach(function (t) {
      if (!t) return;
      t = decodePart(t);
      if (pins.indexOf(t) < 0 && pins.length < MAX_PINS) pins.push(t);
    });
  }, function () {
    return pins.length ? pins.map(encodeURIComponent).join(',') : null;
  });
  T.state.onApply(syncPins);

  function togglePin(tag) {
    var i = pins.indexOf(tag);
    if (i >= 0) pins.splice(i, 1);
    else if (pins.length < MAX_PINS) pins.push(tag);
    storePins();
    syncPins();
    T.state.save();
  }

  // syncPins writes the pins into the pin buttons and tells the pages'
  // listeners when they changed.
  function syncPins() {
    document.querySelectorAll('[data-action="pin"]').forEach(function (b) {
      var fig = b.closest('figure.chart-card');
      var on = !!fig && pins.indexOf(fig.getAttribute('data-tag') || '') >= 0;
      if (b.getAttribute('aria-pressed') !== String(on)) b.setAttribute('aria-pressed', String(on));
      var text = on ? 'Unpin' : 'Pin';
      if (b.textContent !== text) b.textContent = text;
      b.title = on ? 'Remove this chart from the Custom Scalars page' : 'Pin this chart to the Custom Scalars page';
    });
    // Without a layout the Custom Scalars page holds only the pins: its
    // link is written hidden (render/pages.go's page.listed) until one.
    document.querySelectorAll('header.top nav a[data-page="custom_scalars"][data-unlisted]').forEach(function (a) {
      if (a.hidden !== !pins.length) a.hidden = !pins.length;
    });
    var key = pins.join('\u0000');
    if (key === pinsShown) return;
    pinsShown = key;
    pinListeners.forEach(function (fn) { fn(pins.slice()); });
  }

  // removeChart disposes of the chart of fig and removes fig.
  function removeChart(fig) {
    var rec = fig.__trainreportRec;
    if (rec) {
      rec.handle.dispose();
      records.splice(records.indexOf(rec), 1);
    }
    fig.remove();
  }

  // ---------------------------------------------------------------------------
  // The run selector: one list for every chart of the page, as
  // TensorBoard's: per run a checkbox, its colour and its full name. The
  // Runs pattern narrows the list; All and None act on what it lists.

  var runLists = [];

  function setupRunList(main) {
    main.querySelectorAll('[data-run-selector]').forEach(function (box) {
      var names = [];
      try {
        var parsed = JSON.parse((box.querySelector('script.run-names') || {}).textContent || 'null');
        if (Array.isArray(parsed)) names = parsed.map(String);
      } catch (e) { names = []; }
      var ul = box.querySelector('ul.run-list');
      var items = names.map(function (name) {
        var li = document.createElement('li');
        var label = document.createElement('label');
        var cb = document.createElement('input');
        cb.type = 'checkbox';
        cb.checked = !off.has(name);
        cb.__trainreportRun = name;
        var sw = document.createElement('span');
        sw.className = 'run-swatch';
        sw.style.background = colorOf(name);
        var text = document.createElement('span');
        text.className = 'run-label';
        text.textContent = name;
        label.title = name;
        label.appendChild(cb);
        label.appendChild(sw);
        label.appendChild(text);
        li.appendChild(label);
        ul.appendChild(li);
        return { name: name, li: li, cb: cb };
      });
      var list = { box: box, items: items, count: box.querySelector('.run-count') };
      runLists.push(list);
      ul.addEventListener('change', function (e) {
        var name = e.target && e.target.__trainreportRun;
        if (name == null) return;
        if (e.target.checked) off.delete(name); else off.add(name);
        offChanged();
        T.state.apply();
        T.state.save();
      });
      box.addEventListener('click', function (e) {
        var b = e.target && e.target.closest && e.target.closest('[data-runs]');
        if (!b) return;
        var all = b.getAttribute('data-runs') === 'all';
        list.items.forEach(function (it) {
          if (runsRE.re && !runsRE.re.test(it.name)) return;
          if (all) off.delete(it.name); else off.add(it.name);
        });
        offChanged();
        T.state.apply();
        T.state.save();
      });
    });
    syncRunList();
  }

  // syncRunList writes the state into the run lists.
  function syncRunList() {
    runLists.forEach(function (list) {
      var listed = 0, shown = 0;
      list.items.forEach(function (it) {
        var match = !runsRE.re || runsRE.re.test(it.name);
        if (it.li.hidden === match) it.li.hidden = !match;
        var on = !off.has(it.name);
        if (it.cb.checked !== on) it.cb.checked = on;
        if (match) listed++;
        if (match && on) shown++;
      });
      if (list.count) {
        list.count.textContent = shown + ' of ' + list.items.length + ' shown' +
          (listed < list.items.length ? ' (' + listed + ' match the Runs filter)' : '');
      }
    });
  }

  function parseModel(rec) {
    if (rec.model || rec.error) return rec.model;
    var data = rec.data;
    if (data === undefined && rec.load) return null; // not loaded yet
    if (data === undefined) {
      var script = rec.figure.querySelector('script.chart-data');
      try {
        data = JSON.parse(script ? script.textContent : 'null');
      } catch (e) {
        data = null;
      }
    }
    if (!data || typeof data !== 'object') {
      rec.error = 'The data of this chart could not be read.';
      return null;
    }
    // Per run its drawn points, [step, value, wall_time] each (non-finite
    // values as strings), and what the page needs to draw them.
    var runs = (Array.isArray(data.runs) ? data.runs : []).map(function (r, i) {
      r = r || {};
      var pts = Array.isArray(r.points) ? r.points : [];
      var n = pts.length;
      var steps = new Float64Array(n), values = new Float64Array(n), walls = new Float64Array(n);
      var nonFinite = 0, minWall = Infinity;
      for (var j = 0; j < n; j++) {
        var p = Array.isArray(pts[j]) ? pts[j] : [NaN, NaN, NaN];
        steps[j] = toNumber(p[0]);
        values[j] = toNumber(p[1]);
        walls[j] = toNumber(p[2]);
        if (!isFinite(values[j])) nonFinite++;
        if (walls[j] < minWall) minWall = walls[j];
      }
      var start = toNumber(r.start);
      if (!isFinite(start)) start = isFinite(minWall) ? minWall : 0;
      var env = [];
      if (Array.isArray(r.envelope)) {
        r.envelope.forEach(function (e) {
          if (!Array.isArray(e) || e.length < 6) return;
          env.push([toNumber(e[0]), toNumber(e[1]), toNumber(e[2]), toNumber(e[3]), toNumber(e[4]), toNumber(e[5])]);
        });
      }
      var name = r.name != null ? String(r.name) : 'run ' + (i + 1);
      var run = r.run != null ? String(r.run) : name;
      return {
        // name labels the series; run is its run, which the filters and
        // the run selector act on; tag, set in charts of several tags,
        // keeps their groups apart.
        name: name, run: run, tag: r.tag != null ? String(r.tag) : '',
        color: typeof r.color === 'string' && /^#[0-9a-f]{6}$/i.test(r.color) ? r.color : colorOf(run),
        band: parseBand(r.band),
        steps: steps, values: values, walls: walls, start: start,
        envelope: env, nonFinite: nonFinite,
        total: toNumber(r.total), shown: toNumber(r.shown), kept: toNumber(r.kept),
        file: typeof r.file === 'string' ? r.file : '', script: typeof r.script === 'string' ? r.script : '',
        supFile: typeof r.superseded_file === 'string' ? r.superseded_file : '',
        supScript: typeof r.superseded_script === 'string' ? r.superseded_script : '',
        superseded: parseSuperseded(r.superseded),
        // rank is "low" or "high" for the runs at the ends of a sweep's
        // ranking by final value, index their row in its run table.
        rank: r.rank === 'low' || r.rank === 'high' ? r.rank : '', index: toNumber(r.index)
      };
    });
    rec.model = {
      tag: data.tag != null ? String(data.tag) : (rec.figure.getAttribute('data-tag') || ''),
      runs: runs,
      sweep: parseSweep(data.sweep),
      baseline: parseBaseline(data.baseline)
    };
    describeDownloads(rec);
    return rec.model;
  }

  // parseSweep reads the band of a sweep's chart (render/scalarsweep.go):
  // per step the quantiles of the runs' values and how many runs had one.
  function parseSweep(sw) {
    if (!sw || typeof sw !== 'object' || !Array.isArray(sw.steps) || !Array.isArray(sw.q)) return null;
    var n = sw.steps.length;
    var out = {
      runs: toNumber(sw.runs), nonFinite: toNumber(sw.non_finite),
      better: sw.better === 'higher' || sw.better === 'lower' ? sw.better : '',
      steps: new Float64Array(n), n: new Float64Array(n), q: []
    };
    for (var j = 0; j < n; j++) {
      out.steps[j] = toNumber(sw.steps[j]);
      out.n[j] = Array.isArray(sw.n) ? toNumber(sw.n[j]) : NaN;
    }
    for (var k = 0; k < 5; k++) {
      var src = Array.isArray(sw.q[k]) ? sw.q[k] : [];
      var col = new Float64Array(n);
      for (j = 0; j < n; j++) col[j] = toNumber(src[j]);
      out.q.push(col);
    }
    return out;
  }

  // sweepSeries draws the band of a sweep's chart (steps only: the runs'
  // times differ): the 10-90 % and 25-75 % bands, and the median.
  function sweepSeries(m, log) {
    var sw = m.sweep, q = sw.q, n = sw.steps.length;
    var outer = [], inner = [], median = new Array(n);
    for (var j = 0; j < n; j++) {
      median[j] = [sw.steps[j], yOrGap(q[2][j], log)];
      if (j === 0) continue;
      var x0 = sw.steps[j - 1], x1 = sw.steps[j];
      if (!log || (q[0][j - 1] > 0 && q[0][j] > 0)) outer.push([x0, x1, q[0][j - 1], q[4][j - 1], q[0][j], q[4][j]]);
      if (!log || (q[1][j - 1] > 0 && q[1][j] > 0)) inner.push([x0, x1, q[1][j - 1], q[3][j - 1], q[1][j], q[3][j]]);
    }
    var label = 'median of ' + fmtStep(sw.runs) + ' runs';
    var outerBand = bandSeries('sweep:outer', label, outer, SWEEP_COLOR);
    outerBand.itemStyle.opacity = 0.12;
    return [
      outerBand,
      bandSeries('sweep:inner', label, inner, SWEEP_COLOR),
      {
        id: 'sweep:median', type: 'line', name: label, data: median,
        showSymbol: n < 2, symbolSize: 4, connectNulls: false, z: 2, color: SWEEP_COLOR,
        lineStyle: { color: SWEEP_COLOR, width: 2 }, itemStyle: { color: SWEEP_COLOR },
        emphasis: { focus: 'none' }, animation: false
      }
    ];
  }

  // sweepRange returns the y range of a sweep's 10-90 % band and of its
  // best runs as drawn, padded, or null when they have no finite value.
  function sweepRange(m) {
    var sw = m.sweep, lo = Infinity, hi = -Infinity, j;
    var take = function (v) { if (isFinite(v)) { if (v < lo) lo = v; if (v > hi) hi = v; } };
    for (j = 0; j < sw.steps.length; j++) { take(sw.q[0][j]); take(sw.q[4][j]); }
    m.runs.forEach(function (r) {
      if (!r.rank || endRole(m, r) !== 'best') return;
      for (var k = 0; k < r.values.length; k++) take(r.values[k]);
    });
    if (!(lo <= hi)) return null;
    var pad = (hi - lo) * 0.05 || Math.abs(hi) * 0.05 || 1;
    // Out to a round number, so that the axis' end labels read well.
    var unit = Math.pow(10, Math.floor(Math.log10(hi - lo + 2 * pad))) / 2;
    return [Math.floor((lo - pad) / unit) * unit, Math.ceil((hi + pad) / unit) * unit];
  }

  // endLabel names a run at an end of a sweep's ranking: best or worst,
  // by the chart's direction, and its place.
  function endRole(m, r) {
    var lowBest = T.scalarSweep ? T.scalarSweep.lowIsBest(m.tag, m.sweep.better) : m.sweep.better !== 'higher';
    return (r.rank === 'low') === lowBest ? 'best' : 'worst';
  }

  // parseBand reads the band of a margin chart's series: [step, lower,
  // upper, wall_time] per step where both bounds are.
  function parseBand(list) {
    if (!Array.isArray(list)) return null;
    var n = list.length;
    var b = { steps: new Float64Array(n), lo: new Float64Array(n), hi: new Float64Array(n), walls: new Float64Array(n) };
    for (var j = 0; j < n; j++) {
      var p = Array.isArray(list[j]) ? list[j] : [NaN, NaN, NaN, NaN];
      b.steps[j] = toNumber(p[0]);
      b.lo[j] = toNumber(p[1]);
      b.hi[j] = toNumber(p[2]);
      b.walls[j] = toNumber(p[3]);
    }
    return b;
  }

  // marginSeries draws the band of run r (the i-th of its chart): a
  // segment per pair of consecutive steps, as a group's band.
  function marginSeries(r, i, mode, log) {
    var b = r.band, data = [];
    for (var j = 1; j < b.steps.length; j++) {
      var lo0 = b.lo[j - 1], hi0 = b.hi[j - 1], lo1 = b.lo[j], hi1 = b.hi[j];
      if (!isFinite(lo0) || !isFinite(hi0) || !isFinite(lo1) || !isFinite(hi1)) continue;
      if (log && !(lo0 > 0 && lo1 > 0)) continue;
      data.push([xValue(mode, r, b.steps[j - 1], b.walls[j - 1]), xValue(mode, r, b.steps[j], b.walls[j]), lo0, hi0, lo1, hi1]);
    }
    return bandSeries('margin:' + i, r.name, data, r.color);
  }

  // bandSeries draws a band: data holds [x0, x1, lo0, hi0, lo1, hi1] per
  // segment (a group's deviation, a margin chart's bounds).
  function bandSeries(id, name, data, color) {
    return {
      id: id, type: 'custom', name: name, data: data,
      renderItem: bandRenderer(color),
      encode: { x: [0, 1], y: [2, 3, 4, 5] },
      dimensions: ['x0', 'x1', 'lo0', 'hi0', 'lo1', 'hi1'],
      color: color, itemStyle: { color: color, opacity: 0.18 },
      silent: true, z: 1, tooltip: { show: false }, legendHoverLink: false,
      emphasis: { disabled: true }, animation: false
    };
  }

  // ---------------------------------------------------------------------------
  // Superseded points: what earlier attempts of a run (a rerun, a second
  // fit(), a resume from a checkpoint) wrote at steps a later attempt wrote
  // again. Each attempt's are drawn behind the run's line, in its colour,
  // faded, thinner and dashed, raw (never smoothed), with no tooltip rows;
  // the legend entry of the run toggles them with its line.

  // parseSuperseded reads a run's superseded field: per attempt, its
  // number, its number of points, how many its data file keeps and the
  // drawn ones, [step, value, wall_time] each.
  function parseSuperseded(list) {
    if (!Array.isArray(list)) return [];
    return list.map(function (a) {
      a = a || {};
      var pts = Array.isArray(a.points) ? a.points : [];
      var n = pts.length;
      var steps = new Float64Array(n), values = new Float64Array(n), walls = new Float64Array(n);
      for (var j = 0; j < n; j++) {
        var p = Array.isArray(pts[j]) ? pts[j] : [NaN, NaN, NaN];
        steps[j] = toNumber(p[0]);
        values[j] = toNumber(p[1]);
        walls[j] = toNumber(p[2]);
      }
      return {
        attempt: toNumber(a.attempt), total: toNumber(a.total), kept: toNumber(a.kept),
        steps: steps, values: values, walls: walls
      };
    });
  }

  // supersededSeries returns the faded series of run r (the i-th of its
  // chart), one per attempt.
  function supersededSeries(r, i, mode, log, color) {
    return r.superseded.map(function (a, k) {
      var n = a.steps.length;
      var data = new Array(n);
      for (var j = 0; j < n; j++) data[j] = [xValue(mode, r, a.steps[j], a.walls[j]), yOrGap(a.values[j], log)];
      return {
        id: 'sup:' + i + ':' + k, type: 'line', name: r.name, data: data,
        showSymbol: n < 2, symbolSize: 3, connectNulls: false, z: 0, silent: true,
        color: color,
        lineStyle: { color: color, width: 1, opacity: 0.5, type: 'dashed' },
        itemStyle: { color: color, opacity: 0.5 },
        emphasis: { disabled: true },
        tooltip: { show: false }, legendHoverLink: false, animation: false
      };
    });
  }

  // xValue returns the x of a point of run r in the current mode.
  function xValue(mode, r, step, wall) {
    if (mode === 'wall') return wall * 1000;
    if (mode === 'relative') return (wall - r.start) / 3600;
    if (mode === 'step') return step;
    return xByScalar(r, step);
  }

  function yOrGap(v, log) {
    if (!isFinite(v)) return null;
    if (log && !(v > 0)) return null;
    return v;
  }

  function envelopeRenderer(color) {
    return function (params, api) {
      var x0 = api.value(0), x1 = api.value(1), lo = api.value(2), hi = api.value(3);
      var cs = params.coordSys;
      if (!cs || !isFinite(x0) || !isFinite(x1) || !isFinite(lo) || !isFinite(hi)) return null;
      var top = api.value(5) ? cs.y : api.coord([x0, hi])[1];
      var bottom = api.value(4) ? cs.y + cs.height : api.coord([x0, lo])[1];
      var left = api.coord([x0, hi])[0];
      var right = api.coord([x1, hi])[0];
      if (!isFinite(top) || !isFinite(bottom) || !isFinite(left) || !isFinite(right)) return null;
      var rect = {
        x: Math.min(left, right), y: Math.min(top, bottom),
        width: Math.max(Math.abs(right - left), 1), height: Math.max(Math.abs(bottom - top), 1)
      };
      var clipped = echarts.graphic.clipRectByRect(rect, { x: cs.x, y: cs.y, width: cs.width, height: cs.height });
      if (!clipped) return null;
      return { type: 'rect', shape: clipped, style: { fill: color, opacity: 0.15 }, silent: true };
    };
  }

  // ---------------------------------------------------------------------------
  // Run groups: runs whose names differ only in what the Group pattern
  // matches (seeds, say) are drawn as their mean with a band of one
  // standard deviation.

  // groupKey returns the group of the run called name: the name without
  // every match of the pattern, or null when the pattern does not match.
  function groupKey(name) {
    var hk = hpGroupKey(name);
    if (hk !== undefined) return hk;
    if (!groupRE.re) return null;
    var spans = groupRE.re.matchAll(name);
    if (!spans.length) return null;
    var key = '', at = 0;
    spans.forEach(function (m) {
      key += name.slice(at, m[0]);
      at = m[1];
    });
    return key + name.slice(at);
  }

  // aggregate returns, at every step any member run has, the mean and the
  // sample standard deviation of the members' values there (smoothed first
  // when w > 0) and how many members have one. A member counts only
  // between its first and last finite values, taken linearly between its
  // own steps, so members logged at other steps still line up; non-finite
  // values are left out. x is the members' mean x at the step (their wall
  // or relative times differ).
  function aggregate(members, mode, w, smoothed) {
    var all = [];
    var prep = members.map(function (r) {
      var vals = (w > 0 && smoothed(r)) || r.values;
      var p = { st: [], v: [], x: [], k: 0 };
      for (var j = 0; j < r.steps.length; j++) {
        var v = toNumber(vals[j]);
        all.push(r.steps[j]);
        if (!isFinite(v) || (p.st.length && r.steps[j] <= p.st[p.st.length - 1])) continue;
        p.st.push(r.steps[j]); p.v.push(v); p.x.push(xValue(mode, r, r.steps[j], r.walls[j]));
      }
      return p;
    });
    all.sort(function (a, b) { return a - b; });
    var out = { steps: [], x: [], mean: [], std: [], n: [] };
    var vals = [];
    for (var i = 0; i < all.length; i++) {
      var s = all[i];
      if (i > 0 && s === all[i - 1]) continue;
      var xsum = 0;
      vals.length = 0;
      prep.forEach(function (p) {
        var m = p.st.length;
        if (!m || s < p.st[0] || s > p.st[m - 1]) return;
        while (p.k < m - 1 && p.st[p.k + 1] <= s) p.k++;
        var k = p.k, t = p.st[k] === s ? 0 : (s - p.st[k]) / (p.st[k + 1] - p.st[k]);
        vals.push(t === 0 ? p.v[k] : p.v[k] + t * (p.v[k + 1] - p.v[k]));
        xsum += t === 0 ? p.x[k] : p.x[k] + t * (p.x[k + 1] - p.x[k]);
      });
      if (!vals.length) continue;
      var mean = 0, ss = 0;
      vals.forEach(function (v) { mean += v; });
      mean /= vals.length;
      vals.forEach(function (v) { ss += (v - mean) * (v - mean); });
      out.steps.push(s);
      out.x.push(xsum / vals.length);
      out.mean.push(mean);
      out.std.push(vals.length > 1 ? Math.sqrt(ss / (vals.length - 1)) : 0);
      out.n.push(vals.length);
    }
    return out;
  }

  // bandRenderer draws one segment of a group's band: the quadrilateral
  // between consecutive points' mean - std and mean + std.
  function bandRenderer(color) {
    return function (params, api) {
      var cs = params.coordSys;
      var pts = [[api.value(0), api.value(3)], [api.value(1), api.value(5)], [api.value(1), api.value(4)], [api.value(0), api.value(2)]];
      var shape = [];
      for (var i = 0; i < 4; i++) {
        var c = api.coord(pts[i]);
        if (!isFinite(c[0]) || !isFinite(c[1])) return null;
        shape.push(c);
      }
      return {
        type: 'polygon', shape: { points: shape }, silent: true,
        style: { fill: color, opacity: 0.18 },
        clipPath: { type: 'rect', shape: { x: cs.x, y: cs.y, width: cs.width, height: cs.height } }
      };
    };
  }

  // groupSeries returns the series drawing group g (index gi): the mean
  // line, and the band of one standard deviation around it, a segment per
  // pair of consecutive steps.
  function groupSeries(g, gi, log) {
    var a = g.agg, n = a.steps.length;
    var mean = new Array(n), band = [];
    for (var j = 0; j < n; j++) {
      mean[j] = [a.x[j], yOrGap(a.mean[j], log)];
      if (j === 0) continue;
      var lo0 = a.mean[j - 1] - a.std[j - 1], hi0 = a.mean[j - 1] + a.std[j - 1];
      var lo1 = a.mean[j] - a.std[j], hi1 = a.mean[j] + a.std[j];
      if (log && !(lo0 > 0 && lo1 > 0)) continue;
      band.push([a.x[j - 1], a.x[j], lo0, hi0, lo1, hi1]);
    }
    return [
      {
        id: 'group:' + gi, type: 'line', name: g.label, data: mean,
        showSymbol: false, symbolSize: 4, connectNulls: false, z: 3, color: g.color,
        lineStyle: { color: g.color, width: 2, type: g.dash || 'solid' }, itemStyle: { color: g.color },
        emphasis: { focus: 'none', lineStyle: { width: 2.5 } }, animation: false
      },
      bandSeries('band:' + gi, g.label, band, g.color)
    ];
  }

  // isolatedPoints returns the points of a line's data ([x, y] each, y
  // null for a gap) that have no drawn neighbour: a line draws nothing for
  // them (a series of one point, a value between non-finite ones), so they
  // are drawn as dots. Only those, so that long lines stay fast.
  function isolatedPoints(data) {
    var out = [], n = data.length;
    for (var j = 0; j < n; j++) {
      if (data[j][1] == null) continue;
      if (j > 0 && data[j - 1][1] != null) continue;
      if (j < n - 1 && data[j + 1][1] != null) continue;
      out.push(data[j]);
    }
    return out;
  }

  // dotSeries draws the points of isolatedPoints; the line they belong to
  // keeps their tooltip.
  function dotSeries(id, name, data, color) {
    return {
      id: id, type: 'scatter', name: name, data: data,
      symbol: 'circle', symbolSize: 7, z: 4, silent: true,
      color: color, itemStyle: { color: color, opacity: 1 },
      tooltip: { show: false }, legendHoverLink: false,
      emphasis: { disabled: true }, animation: false
    };
  }

  // ---------------------------------------------------------------------------
  // Groups by hyperparameter: with hyperparameter columns chosen (the
  // "Group by" list, hp= in the URL), runs with the same values of them
  // are drawn as one group, as the Group pattern's are (their mean and a
  // band of one standard deviation), each group named by its values and
  // size in the chart's legend; the runs below a session's run (train,
  // validation) are grouped apart by that path. The choice takes
  // precedence over the Group pattern. A group's colour follows its value: along a gradient
  // for one numeric column (logarithmic when its values span more than
  // a factor of 20, as learning rates do), else a colour per value. The
  // runs' values are the page's run table (script.run-hparams, or a
  // sweep's script.sweep-runs: render/scalarsweep.go's appendRunTable).

  var hpCols = [];     // the chosen columns' names, in the order chosen
  var hpTable = null;  // {rowOf: Map run -> row, cols: [{name, values, numeric}]}
  // The gradient of a numeric column, from its lowest to highest value.
  var HP_GRADIENT = [[13, 8, 135], [106, 0, 168], [177, 42, 144], [225, 100, 98], [240, 150, 40]];

  T.state.key('hp', function (v) {
    hpCols = v ? v.split(',').filter(Boolean).map(decodePart) : [];
  }, function () {
    return hpCols.length ? hpCols.map(encodeURIComponent).join(',') : null;
  });

  // readHParams reads the run table of main into hpTable (null for none).
  function readHParams(main) {
    hpTable = null;
    var el = main.querySelector('script.run-hparams') || main.querySelector('script.sweep-runs');
    var t;
    try { t = JSON.parse(el ? el.textContent : 'null'); } catch (e) { t = null; }
    if (!t || !Array.isArray(t.names) || !Array.isArray(t.hparams)) return;
    var n = t.names.length, rowOf = new Map(), cols = [];
    t.names.forEach(function (name, i) { rowOf.set(String(name), i); });
    t.hparams.forEach(function (h) {
      if (!h || !Array.isArray(h.values) || h.values.length !== n) return;
      var numeric = true, distinct = new Set();
      h.values.forEach(function (v) {
        if (v === null) return;
        if (typeof v !== 'number' || !isFinite(v)) numeric = false;
        distinct.add(typeof v + ':' + v);
      });
      // A column with one value groups nothing apart: not offered.
      if (distinct.size < 2) return;
      cols.push({ name: String(h.name), values: h.values, numeric: numeric });
    });
    // within: each run's path below the run of its session ("train"),
    // "" for a session's own run.
    var within = Array.isArray(t.within) && t.within.length === n ? t.within.map(String) : null;
    if (cols.length) hpTable = { rowOf: rowOf, cols: cols, within: within };
  }

  // hpChosen returns the chosen columns the run table has.
  function hpChosen() {
    if (!hpTable) return [];
    var out = [];
    hpCols.forEach(function (name) {
      for (var i = 0; i < hpTable.cols.length; i++) {
        if (hpTable.cols[i].name === name) { out.push(hpTable.cols[i]); return; }
      }
    });
    return out;
  }

  // hpGroupKey returns the group of run name by the chosen columns
  // ("lr=0.01, batch=32"), null for a run with none of their values
  // (drawn alone), undefined when no column is chosen.
  function hpGroupKey(name) {
    var cols = hpChosen();
    if (!cols.length) return undefined;
    var row = hpTable.rowOf.get(name);
    if (row === undefined) return null;
    var any = false;
    var parts = cols.map(function (c) {
      var v = c.values[row];
      if (v !== null && v !== undefined) any = true;
      return c.name + '=' + (v === null || v === undefined ? '(none)' : String(v));
    });
    if (!any) return null;
    // A session's train and validation runs share its values: they are
    // kept apart ("optimizer=adam · train"), their means would mix.
    var w = hpTable.within && hpTable.within[row];
    return parts.join(', ') + (w ? ' \u00b7 ' + w : '');
  }

  function hpRenderKey() {
    return hpChosen().map(function (c) { return c.name; }).join('\u0000');
  }

  function hpValueOf(c, g) {
    var row = g.members.length ? hpTable.rowOf.get(g.members[0].run) : undefined;
    return row === undefined ? null : c.values[row];
  }

  function compareHP(a, b) {
    if (a === b) return 0;
    if (a === null || a === undefined) return 1;
    if (b === null || b === undefined) return -1;
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    return String(a) < String(b) ? -1 : 1;
  }

  // hpStyleGroups orders groups made by the chosen columns by their
  // values and colours them by value (see above); groups of the Group
  // pattern are left as they are.
  function hpStyleGroups(groups) {
    var cols = hpChosen();
    if (!cols.length || !groups.length) return;
    groups.sort(function (a, b) {
      if (a.members[0].tag !== b.members[0].tag) return a.members[0].tag < b.members[0].tag ? -1 : 1;
      for (var i = 0; i < cols.length; i++) {
        var d = compareHP(hpValueOf(cols[i], a), hpValueOf(cols[i], b));
        if (d) return d;
      }
      return a.key < b.key ? -1 : (a.key > b.key ? 1 : 0);
    });
    hpDashWithin(groups);
    if (cols.length !== 1 || !cols[0].numeric) return;
    var c = cols[0], lo = Infinity, hi = -Infinity;
    c.values.forEach(function (v) {
      if (typeof v !== 'number') return;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    });
    var logScale = lo > 0 && hi / lo > 20;
    groups.forEach(function (g) {
      var v = hpValueOf(c, g);
      if (typeof v !== 'number' || !(hi > lo)) return;
      var t = logScale ? Math.log(v / lo) / Math.log(hi / lo) : (v - lo) / (hi - lo);
      g.color = gradientColor(Math.min(1, Math.max(0, t)));
    });
  }

  // HP_DASHES are the line types of a session's subsets (train,
  // validation, ...), in their names' order.
  var HP_DASHES = ['solid', 'dashed', 'dotted'];

  // hpDashWithin gives the groups of each subset below the sessions' runs
  // ("train", "validation") a line type of their own: a group's colour
  // says its values, so without it a session's train and validation
  // groups of one value would be two lines of one colour.
  function hpDashWithin(groups) {
    if (!hpTable.within) return;
    var names = [];
    var withinOf = function (g) {
      var row = g.members.length ? hpTable.rowOf.get(g.members[0].run) : undefined;
      return row === undefined ? '' : hpTable.within[row];
    };
    groups.forEach(function (g) {
      var w = withinOf(g);
      if (w && names.indexOf(w) < 0) names.push(w);
    });
    if (names.length < 2) return;
    names.sort();
    groups.forEach(function (g) {
      var k = names.indexOf(withinOf(g));
      if (k >= 0) g.dash = HP_DASHES[k % HP_DASHES.length];
    });
  }

  function gradientColor(t) {
    var n = HP_GRADIENT.length - 1, k = Math.min(n - 1, Math.floor(t * n)), f = t * n - k;
    var a = HP_GRADIENT[k], b = HP_GRADIENT[k + 1];
    return '#' + [0, 1, 2].map(function (i) {
      var v = Math.round(a[i] + f * (b[i] - a[i]));
      return (v < 16 ? '0' : '') + v.toString(16);
    }).join('');
  }

  // setupHParamControl fills each form's Group by list
  // (span[data-hp-group]) with a checkbox per column, or hides it.
  function setupHParamControl(main) {
    main.querySelectorAll('form[data-controls] [data-hp-group]').forEach(function (box) {
      if (!hpTable) { box.hidden = true; return; }
      var list = box.querySelector('.hp-group-list');
      if (!list) return;
      list.textContent = '';
      hpTable.cols.forEach(function (c) {
        var label = document.createElement('label');
        var input = document.createElement('input');
        input.type = 'checkbox';
        input.name = 'hp-col';
        input.value = c.name;
        label.appendChild(input);
        label.appendChild(document.createTextNode(' ' + c.name + (c.numeric ? ' (number)' : '')));
        list.appendChild(label);
      });
      box.hidden = false;
      box.addEventListener('change', function (e) {
        var t = e.target;
        if (!t || t.name !== 'hp-col') return;
        e.stopPropagation();
        hpCols = hpCols.filter(function (n) { return n !== t.value; });
        if (t.checked) hpCols.push(t.value);
        T.state.apply();
        T.state.save();
      });
    });
    syncHParamControl();
  }

  function syncHParamControl() {
    var chosen = hpChosen().map(function (c) { return c.name; });
    document.querySelectorAll('form[data-controls] [data-hp-group]').forEach(function (box) {
      box.querySelectorAll('input[name="hp-col"]').forEach(function (input) {
        input.checked = chosen.indexOf(input.value) >= 0;
      });
      var summary = box.querySelector('.hp-group-chosen');
      if (summary) summary.textContent = chosen.length ? chosen.join(', ') : 'none';
    });
  }

  // ---------------------------------------------------------------------------
  // The baseline (--baseline): a log directory's runs of the chart's tag
  // drawn dashed in their runs' colours and named "baseline: run"; a
  // summary.json's last and best values drawn as reference lines,
  // labelled when few, on hover otherwise (render/baseline.go's
  // appendBaselineChart). Both follow the run selector and the Runs
  // pattern by run name: a run's baseline leaves with the run.

  function parseBaseline(b) {
    if (!b || typeof b !== 'object') return null;
    var runs = (Array.isArray(b.runs) ? b.runs : []).map(function (r) {
      r = r || {};
      var pts = Array.isArray(r.points) ? r.points : [];
      var n = pts.length, minWall = Infinity;
      var steps = new Float64Array(n), values = new Float64Array(n), walls = new Float64Array(n);
      for (var j = 0; j < n; j++) {
        var p = Array.isArray(pts[j]) ? pts[j] : [NaN, NaN, NaN];
        steps[j] = toNumber(p[0]);
        values[j] = toNumber(p[1]);
        walls[j] = toNumber(p[2]);
        if (walls[j] < minWall) minWall = walls[j];
      }
      var run = String(r.run != null ? r.run : '');
      return { run: run, name: 'baseline: ' + run, color: colorOf(run), steps: steps, values: values, walls: walls,
        start: isFinite(minWall) ? minWall : 0, total: toNumber(r.total) };
    });
    var refs = (Array.isArray(b.refs) ? b.refs : []).map(function (r) {
      r = r || {};
      var run = String(r.run != null ? r.run : '');
      return { run: run, color: colorOf(run), last: toNumber(r.last), best: r.best === undefined ? NaN : toNumber(r.best) };
    });
    if (!runs.length && !refs.length) return null;
    return { source: String(b.source != null ? b.source : ''), runs: runs, refs: refs };
  }

  // baselineParts appends to series the baseline's lines and reference
  // lines of model m, to names their names, and returns the x range of
  // its lines ([min, max], Infinity and -Infinity for none). xr is the
  // x range of the rest of the chart, where the reference lines' values
  // are set down so that the y axis holds them.
  function baselineParts(m, mode, log, w, series, names, xr) {
    var b = m.baseline;
    var out = [Infinity, -Infinity];
    if (!b) return out;
    b.runs.forEach(function (r, i) {
      if (!shownRun(r.run)) return;
      var vals = w > 0 ? smooth(r.values, w) : r.values;
      var n = r.steps.length, data = new Array(n);
      for (var j = 0; j < n; j++) {
        var x = xValue(mode, r, r.steps[j], r.walls[j]);
        if (x < out[0]) out[0] = x;
        if (x > out[1]) out[1] = x;
        data[j] = [x, yOrGap(vals[j], log)];
      }
      r.drawnValues = vals;
      series.push({
        id: 'base:' + i, type: 'line', name: r.name, data: data,
        showSymbol: false, symbolSize: 4, connectNulls: false, z: 3, color: r.color,
        lineStyle: { color: r.color, width: 1.5, type: 'dashed' }, itemStyle: { color: r.color },
        emphasis: { focus: 'none', lineStyle: { width: 2, type: 'dashed' } }, animation: false
      });
      names.push(r.name);
    });
    var marks = [], ext = [], labelled = new Set();
    var x0 = isFinite(xr[0]) ? xr[0] : (isFinite(out[0]) ? out[0] : 0);
    var shown = b.refs.filter(function (r) { return shownRun(r.run); });
    // Past a few lines their labels crowd the chart: they show on hover.
    var few = shown.length <= 2;
    shown.forEach(function (r) {
      [['last', r.last, 'dashed'], ['best', r.best, 'dotted']].forEach(function (k) {
        var v = k[1];
        if (!isFinite(v) || (log && !(v > 0))) return;
        var label = 'baseline: ' + r.run + ' ' + k[0] + ' ' + fmtNum(v);
        // Lines at the same value are labelled once: their labels
        // would print over each other. The tooltip-less line keeps its
        // name.
        var at = fmtNum(v);
        marks.push({
          yAxis: v, name: label,
          lineStyle: { color: r.color, type: k[2], width: 1.2 },
          label: { show: few && !labelled.has(at), position: 'insideEndTop', formatter: label, color: r.color, fontSize: 10 },
          emphasis: { label: { show: true }, lineStyle: { width: 2 } }
        });
        labelled.add(at);
        ext.push([x0, v]);
      });
    });
    if (marks.length) {
      series.push({
        id: 'baseref', type: 'line', name: 'baseline', data: [], silent: true, animation: false,
        markLine: { silent: false, symbol: 'none', animation: false, precision: 10, tooltip: { show: false }, data: marks }
      });
      // A mark line does not widen the y axis: invisible points at the
      // values do.
      series.push({
        id: 'baserefext', type: 'scatter', name: 'baseline', data: ext, symbolSize: 0, silent: true,
        tooltip: { show: false }, legendHoverLink: false, emphasis: { disabled: true }, animation: false
      });
    }
    return out;
  }

  // baselineTooltipRow is the tooltip's row of a baseline line (its
  // series id base:i), null for another.
  function baselineTooltipRow(rec, p, mode, w) {
    var b = rec.model && rec.model.baseline;
    var r = b && b.runs[parseInt(String(p.seriesId).slice(5), 10)];
    var j = p.dataIndex;
    if (!r || !(j >= 0 && j < r.steps.length)) return null;
    var cells = '<td class="tt-run"><span class="tt-dot" style="background:' + r.color + '"></span>' + escapeHTML(r.name) + '</td>';
    cells += w > 0 && r.drawnValues ? '<td class="tt-num">' + escapeHTML(fmtNum(r.drawnValues[j])) + '</td><td class="tt-num tt-raw">' +
      escapeHTML(fmtNum(r.values[j])) + '</td>' : '<td class="tt-num">' + escapeHTML(fmtNum(r.values[j])) + '</td>';
    cells += '<td class="tt-num tt-step">' + escapeHTML(fmtStep(r.steps[j])) + '</td>';
    return { row: '<tr>' + cells + '</tr>', x: p.axisValue != null ? p.axisValue : xValue(mode, r, r.steps[j], r.walls[j]) };
  }

  // ---------------------------------------------------------------------------
  // Options

  // baseOption is the part of a chart's option that does not follow the
  // controls; buildDynamic makes the rest.
  function baseOption(rec) {
    return {
      animation: false,
      backgroundColor: 'transparent',
      color: util.palette.slice(),
      // containLabel: the y labels' width decides the left margin, so
      // a long label (a log axis's 0.00001) is not cut at the edge.
      grid: [{ left: 12, top: 48, right: 24, bottom: GRID_BOTTOM, containLabel: true }],
      tooltip: {
        show: true, trigger: 'axis', confine: true, formatter: tooltipFormatter(rec),
        axisPointer: { type: 'line' }, order: 'seriesAsc'
      },
      // No legend: the page's run selector names every run in full with
      // its colour, and toggles it on every chart at once (a legend per
      // chart cut long names that differ at the end to the same text).
      legend: { show: false },
      dataZoom: [
        // Let the wheel scroll the page; Alt + wheel zooms (as in TensorBoard).
        { type: 'inside', filterMode: 'none', zoomOnMouseWheel: 'alt', moveOnMouseWheel: false },
        { type: 'slider', filterMode: 'none', labelFormatter: sliderLabel, bottom: 6, height: 18 }
      ],
      toolbox: {
        show: true, right: 10, top: 4, itemSize: 13,
        feature: {
          saveAsImage: {
            show: true, title: 'Save as PNG', name: safeFileName(rec.model.tag, 'png').replace(/\.png$/, ''),
            backgroundColor: '#fff', pixelRatio: 2
          },
          dataZoom: { show: true, yAxisIndex: false, title: { zoom: 'Box zoom', back: 'Undo box zoom' } },
          restore: { show: true, title: 'Reset zoom' }
        }
      }
    };
  }

  function sliderLabel(v) {
    if (state.x === 'wall') return fmtDate(v);
    if (state.x === 'relative') return (Math.round(v * 100) / 100) + ' h';
    if (state.x !== 'step') return fmtNum(v);
    return fmtStep(Math.round(v));
  }

  // buildDynamic returns the parts of a chart's option that depend on the
  // controls: axes, series, legend, empty-message graphic.
  function buildDynamic(rec) {
    var m = rec.model;
    var mode = state.x;
    var log = state.log;
    var w = state.smoothing;
    var series = [], legendNames = [], groupNames = [];
    var drawn = [];
    var groups = [], byKey = new Map(); // keys are run names: no plain object
    var xMin = Infinity, xMax = -Infinity; // of the runs drawn
    var SW = m.sweep ? T.scalarSweep : null;
    if (SW) SW.load(rec);
    var places = { best: 0, worst: 0 };
    var drawnRows = SW ? SW.drawnRows() : null;
    // The bundles this drawing starts to load, and how many runs smooth
    // over their drawn points only or wait for their bundle.
    var wait = [], how = { drawn: 0, loading: 0 };
    // By another scalar: each run's x values, and the runs left out.
    var xTag = xTagOf(mode), xNote = xTag !== null ? { lacks: [], other: [], partial: [], loading: 0 } : null;
    m.runs.forEach(function (r, i) {
      if (m.sweep) {
        // A sweep's chart: the ends unless hidden, and the runs checked.
        if (r.rank) {
          if (SW && (!SW.endsShown() || !SW.kept(r.index))) return;
          var role = endRole(m, r);
          var place = places[role]++;
          r.name = r.run + ' \u00b7 ' + role + ' ' + (place + 1);
          r.color = (role === 'best' ? BEST_COLORS : WORST_COLORS)[Math.min(place, 4)];
        } else if (!drawnRows || !drawnRows.has(r.index)) {
          return;
        }
      } else if (!shownRun(r.run)) return;
      if (xNote && !xRun(rec, r, xTag, wait, xNote)) return;
      var key = groupKey(r.run);
      if (key !== null) {
        // A chart of several tags groups each tag's runs apart.
        if (r.tag) key = r.tag + (key ? ' (' + key + ')' : '');
        var g = byKey.get(key);
        if (!g) {
          // A colour of its own, not a member's: the group stands for
          // none of them. colorOf gives a name that is no run's the next
          // free colour, the same on every chart.
          g = { key: key, members: [], color: colorOf('\u0000group\u0000' + key) };
          byKey.set(key, g);
          groups.push(g);
        }
        g.members.push(r);
        return;
      }
      var color = r.color;
      var n = r.steps.length;
      var xs = new Array(n);
      var j;
      for (j = 0; j < n; j++) {
        xs[j] = xValue(mode, r, r.steps[j], r.walls[j]);
        if (xs[j] < xMin) xMin = xs[j];
        if (xs[j] > xMax) xMax = xs[j];
      }
      var raw = new Array(n);
      for (j = 0; j < n; j++) raw[j] = [xs[j], yOrGap(r.values[j], log)];
      var main = raw;
      var sm = w > 0 ? smoothedFor(rec, r, w, wait, how) : null;
      if (sm) {
        main = new Array(n);
        for (j = 0; j < n; j++) main[j] = [xs[j], yOrGap(sm[j], log)];
      }
      r.xidx = null;
      if (xNote) {
        // By another scalar: the points with an x alone, joined (r.xidx
        // maps each back to the run's point, for the tooltip).
        r.xidx = keptX(xs);
        var same = main === raw;
        raw = pickPoints(raw, r.xidx);
        main = same ? raw : pickPoints(main, r.xidx);
      }
      // Markers for non-finite values.
      var marks = [];
      if (r.nonFinite) {
        var seen = 0;
        for (j = 0; j < n; j++) {
          var v = r.values[j];
          if (isFinite(v) || xs[j] !== xs[j]) continue;
          seen++;
          if (seen <= MAX_MARKS) {
            marks.push({ xAxis: xs[j], label: { formatter: util.nonFiniteLabel(v) } });
          } else if (seen === MAX_MARKS + 1) {
            marks.push({ xAxis: xs[j], label: { formatter: '+' + (r.nonFinite - MAX_MARKS) + ' more' } });
          }
        }
      }
      var s = {
        id: 'run:' + i, type: 'line', name: r.name, data: main,
        showSymbol: false, symbolSize: 4, connectNulls: false, z: 3,
        color: color,
        lineStyle: { color: color, width: 1.5 },
        itemStyle: { color: color },
        emphasis: { focus: 'none', lineStyle: { width: 2 } },
        animation: false
      };
      if (marks.length) {
        s.markLine = {
          silent: true, symbol: 'none', animation: false, precision: 10,
          lineStyle: { color: MARK_COLOR, type: 'dashed', width: 1, opacity: 0.8 },
          label: { show: true, position: 'end', color: MARK_COLOR, fontSize: 10, fontWeight: 'bold' },
          emphasis: { disabled: true },
          data: marks
        };
      }
      series.push(s);
      var dots = isolatedPoints(main);
      if (dots.length) series.push(dotSeries('dots:' + i, r.name, dots, color));
      legendNames.push(r.name);
      drawn.push(i);
      if (sm) {
        series.push({
          id: 'raw:' + i, type: 'line', name: r.name, data: raw,
          showSymbol: false, connectNulls: false, z: 2, silent: true,
          color: color,
          lineStyle: { color: color, width: 1, opacity: 0.25 },
          itemStyle: { color: color, opacity: 0.25 },
          emphasis: { disabled: true },
          tooltip: { show: false }, legendHoverLink: false, animation: false
        });
      }
      // The envelopes, margins and superseded attempts are drawn by step
      // or time: not by another scalar.
      if (r.envelope.length && !xNote) {
        var env = [];
        r.envelope.forEach(function (e) {
          var x0 = mode === 'step' ? e[0] : xValue(mode, r, 0, e[2]);
          var x1 = mode === 'step' ? e[1] : xValue(mode, r, 0, e[3]);
          var lo = e[4], hi = e[5], extLo = 0, extHi = 0;
          if (isNaN(lo) || isNaN(hi)) { if (isNaN(lo) && isNaN(hi)) return; }
          if (lo === -Infinity || isNaN(lo)) { extLo = 1; lo = isFinite(hi) ? hi : NaN; }
          if (hi === Infinity || isNaN(hi)) { extHi = 1; hi = isFinite(lo) ? lo : NaN; }
          if (log) {
            if (!(hi > 0)) return;
            if (!(lo > 0)) { extLo = 1; lo = hi; }
          }
          if (!isFinite(lo) || !isFinite(hi) || !isFinite(x0) || !isFinite(x1)) return;
          env.push([x0, x1, lo, hi, extLo, extHi]);
        });
        series.push({
          id: 'env:' + i, type: 'custom', name: r.name, data: env,
          renderItem: envelopeRenderer(color),
          encode: { x: [0, 1], y: [2, 3] },
          dimensions: ['x0', 'x1', 'min', 'max', 'extLo', 'extHi'],
          color: color,
          itemStyle: { color: color, opacity: 0.15 },
          clip: true, silent: true, z: 1,
          tooltip: { show: false }, legendHoverLink: false,
          emphasis: { disabled: true }, animation: false
        });
      }
      if (r.band && !xNote) series.push(marginSeries(r, i, mode, log));
      if (!xNote) supersededSeries(r, i, mode, log, color).forEach(function (s) { series.push(s); });
    });
    hpStyleGroups(groups);
    groups.forEach(function (g, gi) {
      var n = g.members.length;
      g.label = (g.key || '(all)') + ' \u00b7 mean \u00b1 std of ' + n + (n === 1 ? ' run' : ' runs');
      g.agg = aggregate(g.members, mode, w, function (r) { return smoothedFor(rec, r, w, wait, how); });
      g.agg.x.forEach(function (x) {
        if (x < xMin) xMin = x;
        if (x > xMax) xMax = x;
      });
      var gs = groupSeries(g, gi, log);
      gs.forEach(function (s) { series.push(s); });
      var gd = isolatedPoints(gs[0].data);
      if (gd.length) series.push(dotSeries('groupdots:' + gi, g.label, gd, g.color));
      legendNames.push(g.label);
      groupNames.push(g.label);
    });
    rec.groups = groups;
    var bx = baselineParts(m, mode, log, w, series, groupNames, [xMin, xMax]);
    if (bx[0] < xMin) xMin = bx[0];
    if (bx[1] > xMax) xMax = bx[1];
    rec.named = groupNames;
    var banded = false;
    if (m.sweep && mode === 'step' && m.sweep.steps.length) {
      sweepSeries(m, log).forEach(function (s) { series.push(s); });
      banded = true;
      if (m.sweep.steps[0] < xMin) xMin = m.sweep.steps[0];
      if (m.sweep.steps[m.sweep.steps.length - 1] > xMax) xMax = m.sweep.steps[m.sweep.steps.length - 1];
    }
    var xAxis = {
      type: mode === 'wall' ? 'time' : 'value',
      name: mode === 'wall' ? '' : (mode === 'relative' ? 'hours' : (xNote ? xTag : 'step')),
      min: 'dataMin', max: 'dataMax',
      // Keep the x axis at the bottom of the grid even when values cross zero.
      axisLine: { onZero: false },
      // The name under the middle of the tick labels: at the end of the
      // axis it sat on the last tick's label and on the lines.
      nameLocation: 'middle', nameGap: 27,
      nameTextStyle: { color: '#555', fontSize: 11 }
    };
    if (mode !== 'wall') xAxis.scale = true;
    // Steps are integers: no ticks between them. Relative hours start and
    // end at data values: round their labels.
    if (mode === 'step') xAxis.minInterval = 1;
    if (mode === 'relative') xAxis.min = 0;
    // Every point at one x (one-point series: hp_metric): that x in the
    // middle, not on the edge of an axis ECharts would make up.
    if (xMin === xMax && isFinite(xMin)) {
      var pad = mode === 'wall' ? 60000 : (mode === 'relative' ? 0.01 : (xNote ? Math.abs(xMin) * 0.01 || 1 : 1));
      xAxis.min = xMin - pad;
      xAxis.max = xMax + pad;
    }
    if (mode === 'wall') {
      // A day change written as the date, not the day of the month alone
      // ("15"): ECharts picks the template of the largest unit that
      // changes at the tick (its default writes a bare day number).
      xAxis.axisLabel = {
        hideOverlap: true,
        formatter: {
          year: '{yyyy}', month: '{MMM} {yyyy}', day: '{MMM} {d}',
          hour: '{HH}:{mm}', minute: '{HH}:{mm}', second: '{HH}:{mm}:{ss}', millisecond: '{HH}:{mm}:{ss}.{SSS}'
        }
      };
    } else {
      xAxis.axisLabel = {
        hideOverlap: true,
        formatter: function (v) { return mode === 'step' ? fmtStep(Math.round(v)) : String(+Number(v).toPrecision(4)); }
      };
    }
    var yAxis = log ? { type: 'log', logBase: 10, scale: true } : { type: 'value', scale: true };
    if (banded && !log && SW && SW.fitBand()) {
      // Fit to the 10-90 % band and the best runs: a diverging worst run
      // would otherwise flatten everything else; it leaves the chart at
      // its edge.
      var fit = sweepRange(m);
      if (fit) {
        yAxis.min = fit[0];
        yAxis.max = fit[1];
        // The ends of a fitted range fall between ticks: no label there,
        // which would crowd the tick's beside it.
        yAxis.axisLabel = { showMinLabel: false, showMaxLabel: false };
      }
    }
    if (state.outliers && yAxis.min === undefined) fitOutliers(yAxis, series, log);
    // Keep the y axis at the left of the grid when steps cross zero.
    yAxis.axisLine = { onZero: false };
    rec.drawn = drawn;
    smoothedOver(rec, w, wait, how);
    showXNote(rec, xTag, xNote);
    showLegend(rec, drawn, groups);
    // Why a chart is empty: no run has the tag, or its runs are all left
    // out by the Runs filter or unchecked while other runs are shown (the
    // filter matches runs, just none with this tag).
    var empty = m.runs.length ? 'No run shown has this tag (' + m.runs.length +
      (m.runs.length === 1 ? ' run has it: filtered out or unchecked)' : ' runs have it: filtered out or unchecked)') :
      'No run has this tag';
    if (xNote && m.runs.length && !drawn.length && !groups.length) {
      empty = xNote.loading ? 'Loading ' + xTag + '\u2026' : 'No run shown has ' + xTag + ' at this tag\'s steps (see under the chart)';
    }
    return {
      xAxis: [xAxis],
      yAxis: [yAxis],
      series: series,
      graphic: {
        elements: [{
          id: 'empty', type: 'text', left: 'center', top: 'middle', silent: true,
          invisible: drawn.length + groups.length > 0 || banded || isFinite(bx[0]),
          style: { text: empty, fill: '#555', fontSize: 13 }
        }]
      },
      // The raw and envelope series share the run's name, so one legend
      // entry toggles all three; listing the names keeps one entry per run.
      // Runs have no legend (baseOption), groups and the baseline's runs
      // do: they are named nowhere else on the page. Top left, clear of
      // the toolbox; scrolled when the names pass the chart's width.
      // ECharts sizes a scroll legend by its width, not by left and
      // right: without one its page arrows run under the toolbox.
      legend: groupNames.length ? {
        show: true, type: 'scroll', data: groupNames, top: 4, left: 8, right: 128,
        width: Math.max(80, (rec.div.clientWidth || 600) - 8 - 128),
        itemHeight: 8, itemWidth: 16, itemGap: 12, textStyle: { fontSize: 11 }
      } : { show: false, data: legendNames }
    };
  }

  // smoothedOver says on rec's figure over which points its lines are
  // smoothed, and once the bundles in wait are loaded, draws them again.
  function smoothedOver(rec, w, wait, how) {
    var fig = rec.figure;
    var over = !(w > 0) ? '' : how.loading ? 'loading' : how.drawn ? 'drawn' : 'every';
    if (fig.getAttribute('data-smoothed') !== over) {
      if (over) fig.setAttribute('data-smoothed', over); else fig.removeAttribute('data-smoothed');
    }
    if (!wait.length) return;
    rec.fullWait = Promise.all(wait).then(function () {
      rec.gen = (rec.gen || 0) + 1;
      if (rec.chart && rec.handle) rec.handle.update();
    });
  }

  function tooltipFormatter(rec) {
    return function (params) {
      if (!Array.isArray(params)) params = [params];
      params = sortTip(rec, params);
      var rows = [];
      var header = null;
      var mode = state.x;
      var w = state.smoothing;
      params.forEach(function (p) {
        var id = String(p.seriesId || '');
        if (id.indexOf('group:') === 0) {
          var g = rec.groups && rec.groups[parseInt(id.slice(6), 10)];
          var k = p.dataIndex;
          if (!g || !(k >= 0 && k < g.agg.steps.length)) return;
          if (header === null) header = p.axisValue != null ? p.axisValue : g.agg.x[k];
          // The mean under the smoothed (or only) value, the deviation and
          // how many runs had a value under the raw one, or beside it.
          var mean = escapeHTML(fmtNum(g.agg.mean[k]));
          var dev = '\u00b1 ' + escapeHTML(fmtNum(g.agg.std[k])) + ' (' + g.agg.n[k] + ')';
          var gc = '<td class="tt-run"><span class="tt-dot" style="background:' + g.color + '"></span>' +
            escapeHTML(g.label) + '</td>' + (w > 0
            ? '<td class="tt-num">' + mean + '</td><td class="tt-num tt-raw">' + dev + '</td>'
            : '<td class="tt-num">' + mean + ' ' + dev + '</td>');
          rows.push('<tr>' + gc + '<td class="tt-num tt-step">' + escapeHTML(fmtStep(g.agg.steps[k])) + '</td></tr>');
          return;
        }
        if (id.indexOf('base:') === 0) {
          var br = baselineTooltipRow(rec, p, mode, w);
          if (br) {
            rows.push(br.row);
            if (header === null) header = br.x;
          }
          return;
        }
        if (id === 'sweep:median') {
          var sw = rec.model && rec.model.sweep;
          var q = p.dataIndex;
          if (!sw || !(q >= 0 && q < sw.steps.length)) return;
          if (header === null) header = p.axisValue != null ? p.axisValue : sw.steps[q];
          var f = function (v) { return escapeHTML(fmtNum(v)); };
          rows.push('<tr><td class="tt-run"><span class="tt-dot" style="background:' + SWEEP_COLOR + '"></span>median of ' +
            fmtStep(sw.n[q]) + ' runs</td><td class="tt-num">' + f(sw.q[2][q]) + '</td>' + (w > 0 ? '<td class="tt-num tt-raw">' +
            f(sw.q[1][q]) + ' \u2013 ' + f(sw.q[3][q]) + '</td>' : '') + '<td class="tt-num tt-step">' + escapeHTML(fmtStep(sw.steps[q])) + '</td></tr>');
          rows.push('<tr><td class="tt-run">25\u201375 %, 10\u201390 %</td><td class="tt-num" colspan="' + (w > 0 ? 3 : 2) + '">' +
            f(sw.q[1][q]) + ' \u2013 ' + f(sw.q[3][q]) + ', ' + f(sw.q[0][q]) + ' \u2013 ' + f(sw.q[4][q]) + '</td></tr>');
          return;
        }
        if (id.indexOf('run:') !== 0) return;
        var i = parseInt(id.slice(4), 10);
        var r = rec.model && rec.model.runs[i];
        if (!r) return;
        var j = r.xidx ? r.xidx[p.dataIndex] : p.dataIndex;
        if (!(j >= 0 && j < r.steps.length)) return;
        if (header === null) header = p.axisValue != null ? p.axisValue : xValue(mode, r, r.steps[j], r.walls[j]);
        var raw = r.values[j];
        var cells = '<td class="tt-run"><span class="tt-dot" style="background:' + r.color + '"></span>' +
          escapeHTML(r.name) + '</td>';
        if (w > 0) {
          // What the line draws: '\u2026' while its bundle loads.
          var smv = r.smoothed && r.smoothW === w ? fmtNum(r.smoothed[j]) : '\u2026';
          cells += '<td class="tt-num">' + escapeHTML(smv) + '</td>' +
            '<td class="tt-num tt-raw">' + escapeHTML(fmtNum(raw)) + '</td>';
        } else {
          cells += '<td class="tt-num">' + escapeHTML(fmtNum(raw)) + '</td>';
        }
        cells += '<td class="tt-num tt-step">' + escapeHTML(fmtStep(r.steps[j])) + '</td>';
        rows.push('<tr>' + cells + '</tr>');
      });
      if (!rows.length) return '';
      var head = '<tr><th>run</th>' + (w > 0 ? '<th>smoothed</th><th>value</th>' : '<th>value</th>') +
        '<th>step</th></tr>';
      return '<div class="trainreport-tooltip"><div class="tt-x">' + escapeHTML(fmtX(Number(header), mode)) +
        '</div><table>' + head + rows.join('') + '</table></div>';
    };
  }

  // ---------------------------------------------------------------------------
  // Drawing, through app.js's lifecycle

  function showError(rec) {
    rec.div.textContent = rec.error;
    rec.div.classList.add('chart-error');
    rec.figure.setAttribute('data-ready', '1');
    rec.figure.setAttribute('data-error', '1');
  }

  function seriesIds(dyn) {
    return dyn.series.map(function (x) { return x.id; }).join(',');
  }

  // initChart draws rec the first time (the lifecycle's draw).
  function initChart(rec, h) {
    if (!parseModel(rec)) { showError(rec); return; }
    if (typeof echarts === 'undefined') {
      rec.error = 'The chart library (assets/echarts.min.js) is missing.';
      showError(rec);
      return;
    }
    rec.chart = h.init(rec.div);
    trackPointer(rec);
    var option = baseOption(rec);
    var dyn = buildDynamic(rec);
    Object.keys(dyn).forEach(function (k) {
      option[k] = k === 'legend' ? Object.assign({}, option.legend, dyn.legend) : dyn[k];
    });
    rec.chart.setOption(option);
    rec.ids = seriesIds(dyn);
    rec.div.setAttribute('role', 'img');
    rec.div.setAttribute('aria-label', 'Line chart of ' + rec.model.tag + ', ' +
      rec.model.runs.length + (rec.model.runs.length === 1 ? ' run' : ' runs'));
    rec.figure.setAttribute('data-ready', '1');
  }

  // updateChart re-draws rec for the current state (the lifecycle's update,
  // called when renderKey changed).
  function updateChart(rec) {
    var dyn = buildDynamic(rec);
    var ids = seriesIds(dyn);
    if (ids !== rec.ids) {
      // A tooltip still showing removed series makes ECharts throw on its
      // next refresh: hide it first.
      rec.chart.dispatchAction({ type: 'hideTip' });
      rec.chart.dispatchAction({ type: 'updateAxisPointer', currTrigger: 'leave' });
      // replaceMerge leaves null holes where series were removed (ECharts
      // keeps component indices); clear first so getOption().series stays
      // dense. lazyUpdate: both calls render once.
      rec.chart.setOption({ series: [] }, { replaceMerge: ['series'], lazyUpdate: true });
    }
    rec.chart.setOption(dyn, { replaceMerge: ['series'] });
    rec.ids = ids;
  }

  // applyTagFilter shows the charts whose tag the Tags pattern matches, and
  // their groups, and says so when it leaves none.
  function applyTagFilter() {
    var tagsRE = T.state.pattern('tags');
    var groups = new Map();
    records.forEach(function (rec) {
      var tag = rec.figure.getAttribute('data-tag') || '';
      var show = !tagsRE.re || tagsRE.re.test(tag);
      if (rec.figure.hidden === show) rec.figure.hidden = !show;
      if (rec.group) {
        var g = groups.get(rec.group) || { any: false };
        g.any = g.any || show;
        groups.set(rec.group, g);
      }
    });
    groups.forEach(function (g, el) {
      if (el.hidden === g.any) el.hidden = !g.any;
    });
    document.querySelectorAll('main.page').forEach(function (page) {
      var p = page.querySelector('.empty-filter');
      var figs = records.filter(function (r) { return r.page === page; });
      if (!p || !figs.length) return;
      var hide = figs.some(function (r) { return !r.figure.hidden; });
      if (p.hidden !== hide) p.hidden = hide;
    });
  }

  // ---------------------------------------------------------------------------
  // Downloads: every point of the data files, for every run of the tag.
  // The site writes each run's scalars as a bundle, a script, which loads
  // from file:// where fetch cannot (trainreport.loadData); the single-file
  // report has no data files, so its downloads hold the drawn points and
  // say so, as does a download of a series the data files cap.

  function csvField(s) {
    s = String(s);
    return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  }

  function numOut(v) {
    return isFinite(v) ? String(v) : nonFiniteName(v);
  }

  function sum(runs, key) {
    return runs.reduce(function (a, r) { return a + (isFinite(r[key]) ? r[key] : 0); }, 0);
  }

  // supTotal is how many superseded points the runs of m have.
  function supTotal(m) {
    return m.runs.reduce(function (a, r) { return a + sum(r.superseded, 'total'); }, 0);
  }

  // supShown is how many of them the chart draws.
  function supShown(m) {
    return m.runs.reduce(function (a, r) {
      return a + r.superseded.reduce(function (b, s) { return b + s.steps.length; }, 0);
    }, 0);
  }

  // supKept is how many superseded points the data files of m keep.
  function supKept(m) {
    return m.runs.reduce(function (a, r) { return a + sum(r.superseded, 'kept'); }, 0);
  }

  // exportNote says what a download of m holds when it is not every point
  // the logs have ('' when it is): the drawn points only (no data files to
  // load, full false), or the data files' points of series they cap (an
  // attempt's superseded points are a series).
  function exportNote(m, full) {
    var total = sum(m.runs, 'total') + supTotal(m);
    if (!full) {
      var shown = sum(m.runs, 'shown') + supShown(m);
      if (shown === total) return '';
      return 'Drawn points only: ' + fmtStep(shown) + ' of ' + fmtStep(total) +
        '. The report\u2019s site form (its data files) has every point.';
    }
    var capped = m.runs.filter(function (r) { return r.kept < r.total; }).length;
    m.runs.forEach(function (r) {
      capped += r.superseded.filter(function (s) { return s.kept < s.total; }).length;
    });
    if (!capped) return '';
    return 'The data files cap ' + capped + ' series' +
      ' (--max-data-points): ' + fmtStep(sum(m.runs, 'kept') + supKept(m)) + ' of ' + fmtStep(total) +
      ' points, downsampled keeping extremes.';
  }

  // canLoad reports whether every run of m names its bundle (file and script).
  function canLoad(m) {
    return m.runs.length > 0 && m.runs.every(function (r) {
      return r.script && r.file && (!r.superseded.length || (r.supScript && r.supFile));
    });
  }

  // describeDownloads says on the CSV and JSON buttons what they give.
  function describeDownloads(rec) {
    var m = rec.model;
    var full = canLoad(m);
    var note = exportNote(m, full);
    var sup = supTotal(m);
    var what = note || (full ? 'Every point of the data files, for the ' + m.runs.length +
      (m.runs.length === 1 ? ' run' : ' runs') + ' of this tag' : 'Every point, for every run of this tag');
    if (m.sweep) what = 'The runs this chart draws (best, worst and checked): ' + (full ? 'every point of their data files' : 'their drawn points');
    if (sup > 0) what += '; with the ' + fmtStep(sup) + ' superseded points of earlier writes, marked with their attempt';
    if (m.baseline && m.baseline.runs.length) what += '; and the drawn points of the baseline\u2019s ' + m.baseline.runs.length + (m.baseline.runs.length === 1 ? ' run' : ' runs');
    rec.figure.querySelectorAll('[data-action="csv"], [data-action="json"]').forEach(function (b) {
      b.title = b.getAttribute('data-action').toUpperCase() + ': ' + what;
    });
  }

  // exportRows loads the points the download holds: per run of the tag,
  // [wall_time, step, value] each (value a number or "NaN"-like string),
  // and its superseded points, [{attempt, total, points}] with points as
  // the line's, from the data files when it can, else the drawn points;
  // and the note saying what they are, if not every point.
  function exportRows(rec) {
    var m = parseModel(rec);
    if (!m) return Promise.resolve(null);
    var sweepNote = '';
    if (m.sweep) {
      // A sweep's chart: the runs it draws, not the band nor every run.
      var shown = rec.drawn || [];
      m = { tag: m.tag, runs: m.runs.filter(function (r, i) { return shown.indexOf(i) >= 0; }), sweep: m.sweep, baseline: m.baseline };
      sweepNote = 'The ' + m.runs.length + ' runs this chart draws (best, worst and checked) of the ' +
        fmtStep(m.sweep.runs) + ' runs with this tag; their data files hold every run.';
    }
    var drawnPoints = drawnPointsOf;
    var drawn = function (why) {
      var note = exportNote(m, false);
      if (why) note = why + (note ? ' ' + note : '');
      if (sweepNote) note = sweepNote + (note ? ' ' + note : '');
      return {
        model: m,
        note: note,
        runs: m.runs.map(function (r) { return drawnPoints(r.steps, r.values, r.walls); }),
        superseded: m.runs.map(function (r) {
          return r.superseded.map(function (s) {
            return { attempt: s.attempt, total: s.total, points: drawnPoints(s.steps, s.values, s.walls) };
          });
        })
      };
    };
    if (!canLoad(m) || typeof T.loadData !== 'function') return Promise.resolve(drawn(''));
    // Each run's bundle holds its line and superseded points under the
    // tag (a chart of several tags names each line's); loadData loads it
    // once for both.
    var tagOf = function (r) { return r.tag || m.tag; };
    var sups = Promise.all(m.runs.map(function (r) {
      if (!r.superseded.length) return Promise.resolve([]);
      return T.loadData(r.supFile, r.supScript).then(function (b) { return T.scalarBundle.superseded(b, r.run, tagOf(r)); });
    }));
    var lines = Promise.all(m.runs.map(function (r) {
      return T.loadData(r.file, r.script).then(function (b) { return T.scalarBundle.points(b, r.run, tagOf(r)) || []; });
    }));
    return Promise.all([lines, sups]).then(function (both) {
      var superseded = both[1];
      var note = exportNote(m, true);
      if (sweepNote) note = sweepNote + (note ? ' ' + note : '');
      return {
        model: m,
        note: note,
        runs: both[0].map(function (pts) { return Array.isArray(pts) ? pts : []; }),
        superseded: superseded
      };
    }, function () {
      return drawn('The data files could not be loaded.');
    });
  }

  function cell(v) {
    if (typeof v === 'number') return numOut(v);
    return numOut(toNumber(v));
  }

  // baselineRows is what a download holds of the baseline's runs of the
  // chart's tag (--baseline): each run's drawn points, [wall_time, step,
  // value] as the report's; the report keeps no data file of them, so
  // the note says how many of the baseline's points they are.
  function baselineRows(m) {
    var b = m.baseline;
    if (!b || !b.runs.length) return { runs: [], note: '' };
    var drawn = 0, total = 0;
    var runs = b.runs.map(function (r) {
      drawn += r.steps.length;
      total += isFinite(r.total) ? r.total : r.steps.length;
      return { run: r.run, points: drawnPointsOf(r.steps, r.values, r.walls) };
    });
    return {
      runs: runs,
      note: 'The baseline' + (b.source ? ' (' + b.source + ')' : '') + ': the drawn points of its ' + runs.length +
        (runs.length === 1 ? ' run' : ' runs') + ' of this tag, ' + fmtStep(drawn) + ' of ' + fmtStep(total) + '.'
    };
  }

  // drawnPointsOf makes a line's drawn columns into [wall_time, step,
  // value] points, a non-finite value named as the data files name it.
  function drawnPointsOf(steps, values, walls) {
    var pts = new Array(steps.length);
    for (var j = 0; j < steps.length; j++) {
      var v = values[j];
      pts[j] = [walls[j], steps[j], isFinite(v) ? v : nonFiniteName(v)];
    }
    return pts;
  }

  // exportCSV returns a promise of the tag's CSV: a line per point, runs
  // in report order; a first line starting with # says what it holds when
  // it is not every point. When runs restarted, a last column, attempt,
  // is empty for the points of the runs' lines and holds the attempt of
  // each superseded point, which follow their run's line.
  function exportCSV(rec) {
    return exportRows(rec).then(function (x) {
      if (!x) return '';
      var m = x.model || rec.model;
      var withSup = x.superseded.some(function (l) { return l.length > 0; });
      // A chart of several tags (a multiline chart) says each line's tag.
      var withTag = m.runs.some(function (r) { return r.tag; });
      // The baseline's runs (--baseline), drawn dashed, follow the
      // report's, marked in a last column, source.
      var base = baselineRows(m);
      var lines = [];
      var note = x.note;
      if (base.note) note = (note ? note + ' ' : '') + base.note;
      if (note) lines.push('# ' + note.replace(/[\r\n]+/g, ' '));
      lines.push('run,' + (withTag ? 'tag,' : '') + 'step,wall_time,value' + (withSup ? ',attempt' : '') + (base.runs.length ? ',source' : ''));
      var src = function (what) { return base.runs.length ? ',' + what : ''; };
      var row = function (name, p, attempt, from) {
        return name + ',' + cell(p[1]) + ',' + cell(p[0]) + ',' + cell(p[2]) + attempt + from;
      };
      m.runs.forEach(function (r, i) {
        var name = csvField(r.run) + (withTag ? ',' + csvField(r.tag) : '');
        x.runs[i].forEach(function (p) { lines.push(row(name, p, withSup ? ',' : '', src('report'))); });
        x.superseded[i].forEach(function (a) {
          a.points.forEach(function (p) { lines.push(row(name, p, ',' + numOut(a.attempt), src('report'))); });
        });
      });
      base.runs.forEach(function (b) {
        var name = csvField(b.run) + (withTag ? ',' + csvField(m.tag) : '');
        b.points.forEach(function (p) { lines.push(row(name, p, withSup ? ',' : '', src('baseline'))); });
      });
      return lines.join('\r\n') + '\r\n';
    });
  }

  // exportJSON returns a promise of the tag's JSON: {"tag", "note" when
  // it is not every point, "runs": {run: [[wall_time, step, value], ...]},
  // and when runs restarted "superseded": {run: [{"attempt", "total",
  // "points"}, ...]}}, values as in the data files.
  function exportJSON(rec) {
    return exportRows(rec).then(function (x) {
      if (!x) return '';
      var m = x.model || rec.model;
      var point = function (p) {
        var v = typeof p[2] === 'number' ? p[2] : toNumber(p[2]);
        return [toNumber(p[0]), toNumber(p[1]), isFinite(v) ? v : nonFiniteName(v)];
      };
      // Without a prototype, a run called "__proto__" is a key like any
      // other.
      var byRun = Object.create(null), supByRun = Object.create(null), anySup = false;
      m.runs.forEach(function (r, i) {
        var key = m.sweep ? r.run : r.name; // a sweep's ends are named with their place
        byRun[key] = x.runs[i].map(point);
        if (x.superseded[i].length) {
          anySup = true;
          supByRun[key] = x.superseded[i].map(function (a) {
            return { attempt: a.attempt, total: a.total, points: a.points.map(point) };
          });
        }
      });
      var out = { tag: m.tag };
      var base = baselineRows(m);
      if (x.note || base.note) out.note = (x.note ? x.note + (base.note ? ' ' : '') : '') + base.note;
      out.runs = byRun;
      if (anySup) out.superseded = supByRun;
      if (base.runs.length) {
        var baseRuns = Object.create(null);
        base.runs.forEach(function (b) { baseRuns[b.run] = b.points.map(point); });
        out.baseline = { source: m.baseline.source, runs: baseRuns };
      }
      return JSON.stringify(out);
    });
  }

  function dataURLToBlob(url) {
    var comma = url.indexOf(',');
    var meta = url.slice(5, comma);
    var bin = atob(url.slice(comma + 1));
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new Blob([bytes], { type: meta.split(';')[0] || 'image/png' });
  }

  // pngWithLegend returns the chart as a PNG data URL with a legend of the
  // runs it draws, in full, below it: the page's run selector does not go
  // with the image. The chart grows by the legend's rows for the capture,
  // then is drawn as before.
  function pngWithLegend(rec) {
    var chart = rec.chart;
    var opt = chart.getOption();
    var names = [];
    (opt.series || []).forEach(function (s) {
      var id = s && String(s.id);
      if (id && (id.indexOf('run:') === 0 || id.indexOf('group:') === 0 || id.indexOf('base:') === 0)) names.push(String(s.name));
    });
    var width = chart.getWidth(), height = chart.getHeight();
    // Rows as a plain legend lays them out: per name the icon (16px), 5px,
    // the text, and 12px to the next; a row 20px high.
    var ctx = document.createElement('canvas').getContext('2d');
    if (ctx) ctx.font = '11px sans-serif';
    var rows = names.length ? 1 : 0, x = 0;
    names.forEach(function (n) {
      var w = 21 + Math.ceil(ctx ? ctx.measureText(n).width : 6.5 * n.length) + 12;
      if (x > 0 && x + w - 12 > width - 16) { rows++; x = 0; }
      x += w;
    });
    // The x axis's note (a scalar on the x axis leaves runs or points
    // out, showXNote) goes with the image too, above the legend, in lines
    // of the chart's width.
    var noteEl = rec.figure.querySelector('p.x-note');
    var noteLines = [];
    if (noteEl && noteEl.textContent) {
      var line = '';
      noteEl.textContent.split(/\s+/).forEach(function (word) {
        var next = line ? line + ' ' + word : word;
        if (line && ctx && ctx.measureText(next).width > width - 16) {
          noteLines.push(line);
          next = word;
        }
        line = next;
      });
      if (line) noteLines.push(line);
    }
    var noteH = noteLines.length ? noteLines.length * 14 + 6 : 0;
    var legendH = rows * 20 + (rows ? 12 : 0);
    var extra = legendH + noteH;
    rec.figure.setAttribute('data-png-note', noteLines.join(' '));
    chart.setOption({
      graphic: { elements: [{ id: 'png-note', type: 'text', left: 8, bottom: legendH + 2, invisible: !noteLines.length,
        style: { text: noteLines.join('\n'), fontSize: 11, lineHeight: 14, fill: '#555' } }] },
      legend: { show: rows > 0, type: 'plain', data: names, bottom: 4, left: 8, right: 8, itemHeight: 8, itemWidth: 16,
        itemGap: 12, textStyle: { fontSize: 11 } },
      grid: [{ bottom: GRID_BOTTOM + extra }],
      dataZoom: [{}, { bottom: 6 + extra }]
    });
    chart.resize({ width: width, height: height + extra });
    var url = chart.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#fff', excludeComponents: ['toolbox'] });
    chart.setOption({ graphic: { elements: [{ id: 'png-note', $action: 'remove' }] } });
    // Back to the page's legend: the groups' at the top, or none.
    var named = rec.named || [];
    chart.setOption({
      legend: { show: named.length > 0, type: 'scroll', data: named,
        top: 4, bottom: 'auto', right: 110 },
      grid: [{ bottom: GRID_BOTTOM }], dataZoom: [{}, { bottom: 6 }]
    });
    chart.resize({ width: 'auto', height: 'auto' });
    return url;
  }

  function recordOf(el) {
    var fig = el.closest && el.closest('figure.chart-card');
    return fig && fig.__trainreportRec || null;
  }

  function onAction(e) {
    var btn = e.target && e.target.closest && e.target.closest('[data-action]');
    var fig = btn && btn.closest('figure.chart-card');
    if (!fig) return;
    var action = btn.getAttribute('data-action');
    // Pins and flips need only the card's tag, not its chart: a card not
    // drawn yet (out of view, drawn in idle time) takes them too.
    if (action === 'pin') {
      togglePin(fig.getAttribute('data-tag') || '');
      return;
    }
    if (action === 'flip') {
      if (T.scalarSweep) T.scalarSweep.flip(fig.getAttribute('data-tag') || '');
      return;
    }
    var rec = recordOf(btn);
    if (!rec || !parseModel(rec)) return;
    var tag = rec.model.tag || rec.figure.getAttribute('data-tag') || '';
    if (action === 'csv') {
      exportCSV(rec).then(function (text) {
        util.download(new Blob([text], { type: 'text/csv;charset=utf-8' }), safeFileName(tag, 'csv'));
      });
    } else if (action === 'json') {
      exportJSON(rec).then(function (text) {
        util.download(new Blob([text], { type: 'application/json' }), safeFileName(tag, 'json'));
      });
    } else if (action === 'png') {
      // As it is shown: drawn, current and at its size, even if it was not yet.
      rec.handle.draw();
      if (!rec.chart) return;
      rec.handle.update();
      rec.handle.resize();
      util.download(dataURLToBlob(pngWithLegend(rec)), safeFileName(tag, 'png'));
    }
  }

  T.smooth = smooth;
  T.scalarCharts = {
    setup: setup,
    addChart: addChart,
    removeChart: removeChart,
    // refresh applies the Tags filter and the pins to charts added later.
    refresh: function () { applyTagFilter(); syncPins(); },
    // onPins(fn) calls fn(tags) with the pinned tags now and when they
    // change.
    onPins: function (fn) { pinListeners.push(fn); fn(pins.slice()); },
    pins: function () { return pins.slice(); },
    // update(figure) re-draws the chart of figure now (a sweep's runs
    // loaded).
    update: function (fig) {
      var r = fig && fig.__trainreportRec;
      if (!r) return;
      r.gen = (r.gen || 0) + 1;
      r.handle.update();
    }
  };
  // exportCSV(figure) and exportJSON(figure) return promises of what the
  // figure's downloads hold.
  T.exportCSV = function (figure) { var r = recordOf(figure); return r ? exportCSV(r) : Promise.resolve(''); };
  T.exportJSON = function (figure) { var r = recordOf(figure); return r ? exportJSON(r) : Promise.resolve(''); };
})();

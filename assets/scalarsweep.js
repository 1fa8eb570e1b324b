/*
 * The scalars page of a sweep (render/scalarsweep.go; docs/PAGES.md,
 * "Sweeps"): the run selector over the page's run table (its names, scalar
 * bundles, hyperparameters and final values), as a paged list that
 * filters by the Runs pattern and by hyperparameter values and sorts by
 * any tag's final value; the checked runs (at most MAX_DRAWN drawn), whose
 * points each chart loads from the runs' scalar bundles when they are to
 * be drawn; whether the best and worst runs are drawn; and which end of
 * each chart's ranking is best. scalarchart.js draws the charts and asks
 * this file (trainreport.scalarSweep) what to draw. The state is in the
 * URL hash: on= (checked runs), ends=0, fit=0 (the y axis not fitted to
 * the band), flip= (tags); the filters, sort and list page are not kept. Plain ES2019, no globals besides trainreport.scalarSweep.
 */
(function () {
  'use strict';

  var T = window.trainreport;
  if (!T || !T.scalarCharts) return;
  var util = T.util, toNumber = util.toNumber;

  var PAGE_SIZE = 50;
  // Past this many distinct values a hyperparameter is filtered by a
  // range (numbers) or a substring (text), not a list.
  var MAX_CHOICES = 20;
  // Points of a loaded run a chart draws at most: the minimum and maximum
  // of each bucket, in order.
  var MAX_LOADED_POINTS = 2000;

  var table = null;  // the run table, or null (none, or not a sweep's page)
  var box = null;    // details[data-sweep-selector]
  var single = false;
  var maxDrawn = 300;
  var on = new Set();     // checked runs, by name
  var ends = true;        // the best and worst runs are drawn
  var fit = true;         // the y axis fits the band and the best runs
  var flips = new Set();  // tags whose best end is flipped
  var filters = [];       // per hyperparameter: {test(row)}
  var sortTag = -1, desc = false, pageNo = 0;
  var rowOf = new Map();  // run name -> row
  var runsRE = T.state.pattern('runs');
  var matching = [];      // rows the filters keep, in list order
  var kept = null;        // the same as a set, null when the filters keep every row
  var keptKey = '';       // names kept (a hash of its rows)
  var drawn = new Set();  // rows drawn: checked and kept, the first maxDrawn
  var checkedKept = 0;    // rows checked and kept by the filters
  var drawnKey = '';

  function decodePart(s) {
    try { return decodeURIComponent(s); } catch (e) { return s; }
  }
  function encodeSet(set) {
    return set.size ? Array.from(set).sort().map(encodeURIComponent).join(',') : null;
  }
  function decodeSet(v) {
    var set = new Set();
    if (v) v.split(',').forEach(function (n) { if (n) set.add(decodePart(n)); });
    return set;
  }

  T.state.key('on', function (v) { on = decodeSet(v); }, function () { return encodeSet(on); });
  T.state.key('ends', function (v) { ends = v !== '0'; }, function () { return ends ? null : '0'; });
  T.state.key('fit', function (v) { fit = v !== '0'; }, function () { return fit ? null : '0'; });
  T.state.key('flip', function (v) { flips = decodeSet(v); }, function () { return encodeSet(flips); });
  T.state.onApply(function () { if (table) refresh(); syncFlipButtons(); });

  // ---------------------------------------------------------------------------
  // The run table.

  function readTable(el) {
    var t;
    try { t = JSON.parse(el ? el.textContent : 'null'); } catch (e) { t = null; }
    if (!t || !Array.isArray(t.names)) return null;
    var n = t.names.length;
    var out = {
      names: t.names.map(String),
      bundles: Array.isArray(t.bundles) && t.bundles.length === n ? t.bundles.map(String) : null,
      hparams: [], tags: []
    };
    (Array.isArray(t.hparams) ? t.hparams : []).forEach(function (h) {
      if (!h || !Array.isArray(h.values) || h.values.length !== n) return;
      out.hparams.push({ name: String(h.name), values: h.values });
    });
    (Array.isArray(t.tags) ? t.tags : []).forEach(function (c) {
      if (!c || !Array.isArray(c.finals) || c.finals.length !== n) return;
      var f = new Float64Array(n);
      for (var i = 0; i < n; i++) f[i] = c.finals[i] === null ? NaN : toNumber(c.finals[i]);
      out.tags.push({ tag: String(c.tag), finals: f, has: c.finals.map(function (v) { return v !== null; }) });
    });
    return out;
  }

  // ---------------------------------------------------------------------------
  // The selector.

  function setup(main) {
    box = main.querySelector('[data-sweep-selector]');
    if (!box) return;
    single = box.hasAttribute('data-single');
    maxDrawn = toNumber(box.getAttribute('data-max-drawn')) || maxDrawn;
    table = readTable(box.querySelector('script.sweep-runs'));
    if (!table) {
      box.querySelector('.run-count').textContent = 'not listed';
      return;
    }
    table.names.forEach(function (n, i) { rowOf.set(n, i); });
    buildFilters(box.querySelector('.sweep-filters'));
    var sort = box.querySelector('[name="sweep-sort"]');
    table.tags.forEach(function (c, i) {
      var o = document.createElement('option');
      o.value = String(i);
      o.textContent = 'Final ' + c.tag;
      sort.appendChild(o);
    });
    sort.addEventListener('change', function () {
      sortTag = sort.value === '' ? -1 : Number(sort.value);
      pageNo = 0;
      refresh();
    });
    var endsBox = box.querySelector('[name="sweep-ends"]');
    endsBox.addEventListener('change', function () {
      ends = endsBox.checked;
      T.state.apply();
      T.state.save();
    });
    var fitBox = box.querySelector('[name="sweep-fit"]');
    fitBox.addEventListener('change', function () {
      fit = fitBox.checked;
      T.state.apply();
      T.state.save();
    });
    box.addEventListener('click', onClick);
    box.querySelector('ul.run-list').addEventListener('change', function (e) {
      var row = e.target && e.target.__trainreportRow;
      if (row == null) return;
      var name = table.names[row];
      if (e.target.checked) on.add(name); else on.delete(name);
      T.state.apply();
      T.state.save();
    });
    refresh();
  }

  function onClick(e) {
    var b = e.target && e.target.closest && e.target.closest('[data-sweep]');
    if (!b) return;
    switch (b.getAttribute('data-sweep')) {
      case 'desc':
        desc = !desc;
        b.setAttribute('aria-pressed', String(desc));
        pageNo = 0;
        refresh();
        return;
      case 'prev':
        pageNo = Math.max(0, pageNo - 1);
        renderList();
        return;
      case 'next':
        pageNo = Math.min(pages() - 1, pageNo + 1);
        renderList();
        return;
      case 'page':
        pageRows().forEach(function (row) { on.add(table.names[row]); });
        break;
      case 'none':
        on.clear();
        break;
      default:
        return;
    }
    T.state.apply();
    T.state.save();
  }

  // buildFilters adds a control per hyperparameter: a list of its values,
  // or a range of numbers, or a substring.
  function buildFilters(div) {
    table.hparams.forEach(function (h) {
      var distinct = new Map();
      var numeric = true;
      h.values.forEach(function (v) {
        if (v === null) return;
        if (typeof v !== 'number') numeric = false;
        if (distinct.size <= MAX_CHOICES) distinct.set(String(v), v);
      });
      var label = document.createElement('label');
      label.className = 'sweep-filter';
      var name = document.createElement('span');
      name.textContent = h.name;
      label.appendChild(name);
      var f = { test: function () { return true; } };
      if (distinct.size <= MAX_CHOICES) {
        var sel = document.createElement('select');
        var any = document.createElement('option');
        any.value = '\u0000';
        any.textContent = '(any)';
        sel.appendChild(any);
        Array.from(distinct.keys()).sort(function (a, b) {
          return numeric ? distinct.get(a) - distinct.get(b) : (a < b ? -1 : a > b ? 1 : 0);
        }).forEach(function (k) {
          var o = document.createElement('option');
          o.value = k;
          o.textContent = k;
          sel.appendChild(o);
        });
        sel.addEventListener('change', changed);
        label.appendChild(sel);
        f.test = function (row) {
          return sel.value === '\u0000' || (h.values[row] !== null && String(h.values[row]) === sel.value);
        };
      } else if (numeric) {
        var lo = numberInput('min'), hi = numberInput('max');
        label.appendChild(lo);
        label.appendChild(hi);
        f.test = function (row) {
          var v = h.values[row];
          var a = parseFloat(lo.value), b = parseFloat(hi.value);
          if (!isFinite(a) && !isFinite(b)) return true;
          if (typeof v !== 'number') return false;
          return (!isFinite(a) || v >= a) && (!isFinite(b) || v <= b);
        };
      } else {
        var text = document.createElement('input');
        text.type = 'search';
        text.placeholder = 'contains';
        text.addEventListener('input', changed);
        label.appendChild(text);
        f.test = function (row) {
          return !text.value || (h.values[row] !== null && String(h.values[row]).indexOf(text.value) >= 0);
        };
      }
      filters.push(f);
      div.appendChild(label);
    });
    function numberInput(what) {
      var el = document.createElement('input');
      el.type = 'number';
      el.step = 'any';
      el.placeholder = what;
      el.addEventListener('input', changed);
      return el;
    }
    function changed() {
      pageNo = 0;
      T.state.apply();
    }
  }

  // refresh works out the rows kept and drawn and shows the list.
  function refresh() {
    var n = table.names.length;
    matching = [];
    var h = 0x811c9dc5; // FNV-1a over the rows kept, in row order
    for (var row = 0; row < n; row++) {
      if (runsRE.re && !runsRE.re.test(table.names[row])) continue;
      var keep = true;
      for (var k = 0; k < filters.length && keep; k++) keep = filters[k].test(row);
      if (!keep) continue;
      matching.push(row);
      h = Math.imul(h ^ row, 0x01000193) >>> 0;
    }
    keptKey = matching.length + ':' + h.toString(16);
    if (sortTag >= 0 && table.tags[sortTag]) {
      var f = table.tags[sortTag].finals;
      // Runs without a finite final value last, either way.
      matching.sort(function (a, b) {
        var va = f[a], vb = f[b];
        var fa = isFinite(va), fb = isFinite(vb);
        if (fa !== fb) return fa ? -1 : 1;
        if (!fa || va === vb) return a - b;
        return desc ? vb - va : va - vb;
      });
    } else if (desc) {
      matching.reverse();
    }
    kept = matching.length < n ? new Set(matching) : null;
    drawn = new Set();
    checkedKept = 0;
    if (!single) {
      matching.forEach(function (row) {
        if (!on.has(table.names[row])) return;
        checkedKept++;
        if (drawn.size < maxDrawn) drawn.add(row);
      });
    }
    drawnKey = Array.from(drawn).join(',');
    var endsBox = box.querySelector('[name="sweep-ends"]');
    if (endsBox.checked !== ends) endsBox.checked = ends;
    var fitBox = box.querySelector('[name="sweep-fit"]');
    if (fitBox.checked !== fit) fitBox.checked = fit;
    pageNo = Math.min(pageNo, Math.max(0, pages() - 1));
    renderList();
  }

  function pages() { return Math.max(1, Math.ceil(matching.length / PAGE_SIZE)); }

  function pageRows() { return matching.slice(pageNo * PAGE_SIZE, (pageNo + 1) * PAGE_SIZE); }

  // renderList shows one page of the list: PAGE_SIZE rows, never all.
  function renderList() {
    var ul = box.querySelector('ul.run-list');
    ul.textContent = '';
    var sorted = sortTag >= 0 ? table.tags[sortTag] : null;
    pageRows().forEach(function (row) {
      var name = table.names[row];
      var li = document.createElement('li');
      var label = document.createElement('label');
      label.title = name;
      var cb = document.createElement('input');
      cb.type = 'checkbox';
      cb.checked = on.has(name);
      cb.disabled = single;
      cb.__trainreportRow = row;
      var sw = document.createElement('span');
      sw.className = 'run-swatch';
      sw.style.background = util.colorOf(name);
      var text = document.createElement('span');
      text.className = 'run-label';
      text.textContent = name;
      label.appendChild(cb);
      label.appendChild(sw);
      label.appendChild(text);
      if (sorted) {
        var v = document.createElement('span');
        v.className = 'run-final';
        v.textContent = sorted.has[row] ? util.fmtNum(sorted.finals[row]) : '\u2013';
        label.appendChild(v);
      }
      li.appendChild(label);
      ul.appendChild(li);
    });
    var count = fmt(table.names.length) + ' runs';
    if (matching.length < table.names.length) count += ', ' + fmt(matching.length) + ' match the filters';
    if (!single) {
      var checked = 0;
      on.forEach(function (name) { if (rowOf.has(name)) checked++; });
      count += ', ' + fmt(checked) + ' checked';
      if (checkedKept > drawn.size) count += ': the charts draw the first ' + fmt(drawn.size) + ' of the ' + fmt(checkedKept) + ' listed';
    }
    box.querySelector('.run-count').textContent = count;
    box.querySelector('.sweep-page').textContent = 'page ' + (pageNo + 1) + ' of ' + pages();
    box.querySelector('[data-sweep="prev"]').disabled = pageNo === 0;
    box.querySelector('[data-sweep="next"]').disabled = pageNo >= pages() - 1;
  }

  function fmt(n) { return util.fmtStep(n); }

  // ---------------------------------------------------------------------------
  // Best ends and their buttons.

  function lowIsBest(tag, better) {
    return (better !== 'higher') !== flips.has(tag);
  }

  function syncFlipButtons() {
    document.querySelectorAll('figure.chart-card [data-action="flip"]').forEach(function (b) {
      var fig = b.closest('figure.chart-card');
      var better = fig.getAttribute('data-better') || '';
      var tag = fig.getAttribute('data-tag') || '';
      var low = lowIsBest(tag, better);
      var text = low ? 'Best: lowest' : 'Best: highest';
      if (b.textContent !== text) b.textContent = text;
      b.title = (better ? 'By its name, ' + (better === 'lower' ? 'lower' : 'higher') + ' is better' :
        'Which way this tag is better is not known: lower is taken') + (flips.has(tag) ? ' (flipped here)' : '') +
        '. Click to flip which end of the final values is best.';
    });
  }

  function flip(tag) {
    if (flips.has(tag)) flips.delete(tag); else flips.add(tag);
    T.state.apply();
    T.state.save();
  }

  // ---------------------------------------------------------------------------
  // Runs loaded on demand: a chart asks for the rows it draws; their
  // runs' scalar bundles load once each (every tag of a run in one), and
  // the chart is drawn again when they are in.

  // thinned returns the indices of at most MAX_LOADED_POINTS of n points
  // of values: the first and last, and each bucket's lowest and highest.
  function thinned(values) {
    var n = values.length, keep = [];
    if (n <= MAX_LOADED_POINTS) {
      for (var i = 0; i < n; i++) keep.push(i);
      return keep;
    }
    var buckets = Math.floor(MAX_LOADED_POINTS / 2);
    for (var b = 0; b < buckets; b++) {
      var from = Math.floor(b * n / buckets), to = Math.floor((b + 1) * n / buckets);
      var lo = -1, hi = -1;
      for (var j = from; j < to; j++) {
        var v = values[j];
        if (!isFinite(v)) { lo = lo < 0 ? j : lo; continue; } // a non-finite value shows
        if (lo < 0 || !(values[lo] <= v)) lo = j;
        if (hi < 0 || !(values[hi] >= v)) hi = j;
      }
      if (lo >= 0 && hi >= 0 && lo !== hi) { keep.push(Math.min(lo, hi)); keep.push(Math.max(lo, hi)); } else if (lo >= 0) keep.push(lo);
    }
    if (keep[0] !== 0) keep.unshift(0);
    if (keep[keep.length - 1] !== n - 1) keep.push(n - 1);
    return keep;
  }

  // runOf builds a chart's run, in the form of scalarchart.js's, from the
  // points of a tag in a bundle: [wall_time, step, value] each
  // (trainreport.scalarBundle.points).
  function runOf(row, file, script, pts) {
    pts = Array.isArray(pts) ? pts : [];
    var values = pts.map(function (p) { return Array.isArray(p) ? toNumber(p[2]) : NaN; });
    var keep = thinned(values);
    var n = keep.length;
    var steps = new Float64Array(n), vals = new Float64Array(n), walls = new Float64Array(n);
    var nonFinite = 0, minWall = Infinity;
    keep.forEach(function (k, j) {
      var p = Array.isArray(pts[k]) ? pts[k] : [NaN, NaN, NaN];
      walls[j] = toNumber(p[0]);
      steps[j] = toNumber(p[1]);
      vals[j] = values[k];
      if (!isFinite(vals[j])) nonFinite++;
      if (walls[j] < minWall) minWall = walls[j];
    });
    var name = table.names[row];
    return {
      name: name, run: name, tag: '', color: util.colorOf(name), band: null,
      steps: steps, values: vals, walls: walls, start: isFinite(minWall) ? minWall : 0,
      envelope: [], nonFinite: nonFinite, total: pts.length, shown: n, kept: pts.length,
      file: file, script: script, supFile: '', supScript: '', superseded: [],
      rank: '', index: row, lazy: true
    };
  }

  // load starts loading the rows rec's chart is to draw and does not
  // have, and draws it again when they are in.
  function load(rec) {
    var m = rec.model;
    if (!table || !table.bundles || !m.sweep || single) return;
    var have = rec.sweepRows || (rec.sweepRows = new Set());
    var col = null;
    table.tags.forEach(function (c) { if (c.tag === m.tag) col = c; });
    var wanted = [];
    drawn.forEach(function (row) {
      if (have.has(row)) return;
      if (col && !col.has[row]) return; // the run has no such tag
      if (m.runs.some(function (r) { return r.rank && r.index === row; })) return; // drawn as an end
      have.add(row);
      wanted.push(row);
    });
    if (!wanted.length) return;
    Promise.all(wanted.map(function (row) {
      var file = table.bundles[row];
      return T.loadData(file, file).then(function (b) { return runOf(row, file, file, T.scalarBundle.points(b, table.names[row], m.tag)); }, function () {
        have.delete(row); // tried again on the next draw
        return null;
      });
    })).then(function (runs) {
      var any = false;
      runs.forEach(function (r) { if (r) { m.runs.push(r); any = true; } });
      if (any) T.scalarCharts.update(rec.figure);
    });
  }

  T.scalarSweep = {
    // key names what the charts draw of the selection.
    key: function () { return [drawnKey, keptKey, ends ? 1 : 0, fit ? 1 : 0, Array.from(flips).sort().join('\u0000')].join('\u0002'); },
    endsShown: function () { return ends; },
    // kept reports whether the filters keep the run of row: they narrow
    // the best and worst runs drawn too (the band and the ranking stay
    // over every run).
    kept: function (row) { return !kept || kept.has(row); },
    fitBand: function () { return fit; },
    drawnRows: function () { return drawn; },
    lowIsBest: lowIsBest,
    flip: flip,
    load: load
  };

  T.onPage('scalars', function (main) {
    setup(main);
    syncFlipButtons();
  });
})();

/*
 * The Custom Scalars page (templates/custom_scalars.html; its data from
 * render/customscalars.go): the charts of the runs' custom-scalars layouts
 * (multiline charts: every tag a pattern matched, across runs; margin
 * charts: a value line with a band from its lower to its upper tag), and
 * the charts pinned on the Scalars page. It holds no points: the site's
 * scalar bundles, each of one run or several (data/scalars/<first-run>.js, loaded as scripts,
 * which works from file://; trainreport.scalarBundle decodes them), give
 * them, or in the single file the Scalars page's
 * own chart data, in the same document. Drawing, controls, run selector,
 * downloads and pins are scalarchart.js's.
 * Plain ES2019, no globals besides window.trainreport.
 */
(function () {
  'use strict';

  var T = window.trainreport;
  if (!T || !T.scalarCharts) return;
  var util = T.util, toNumber = util.toNumber;

  // A series draws at most this many points: the data files keep up to
  // --max-data-points (100,000 by default) per series. Beyond it each
  // bucket of points keeps its first, lowest, highest and last.
  var MAX_DRAWN = 4000;

  function readJSON(el) {
    try {
      return JSON.parse(el ? el.textContent : 'null');
    } catch (e) {
      return null;
    }
  }

  function setup(main) {
    var index = readJSON(main.querySelector('script.scalar-index')) || {};
    var runs = Array.isArray(index.runs) ? index.runs : [];
    var tags = index.tags && typeof index.tags === 'object' ? index.tags : {};
    var single = document.body.hasAttribute('data-single-file');
    var own = Object.prototype.hasOwnProperty;

    // entriesOf lists the runs that have tag: [{run, file}], file being
    // the run's scalar bundle, which holds the tag's points, '' in the
    // single file.
    function entriesOf(tag) {
      var t = own.call(tags, tag) && tags[tag] && typeof tags[tag] === 'object' ? tags[tag] : {};
      var list = Array.isArray(t.runs) ? t.runs : [];
      return list.filter(function (i) { return runs[i]; }).map(function (i) {
        var bundle = runs[i].bundle;
        return { run: i, file: typeof bundle === 'string' ? bundle : '' };
      });
    }

    // runsWith counts the runs that have tag: the index lists only those
    // a chart can draw past MAX_PINNED_RUNS of them, and counts all in n.
    function runsWith(tag) {
      var t = own.call(tags, tag) && tags[tag] && typeof tags[tag] === 'object' ? tags[tag] : {};
      var n = toNumber(t.n);
      return n > 0 ? n : entriesOf(tag).length;
    }

    function fileOf(run, tag) {
      var e = entriesOf(tag).filter(function (x) { return x.run === run; })[0];
      return e ? e : null;
    }

    // The single file's scalars page: per tag, its chart data.
    var blocks = null;
    function blockOf(tag) {
      if (!blocks) {
        blocks = new Map();
        document.querySelectorAll('main.page[data-page="scalars"] figure.chart-card').forEach(function (fig) {
          blocks.set(fig.getAttribute('data-tag') || '', fig.querySelector('script.chart-data'));
        });
      }
      var el = blocks.get(tag);
      if (el && !el.__parsed) el.__parsed = readJSON(el) || {};
      return el ? el.__parsed : null;
    }

    // series resolves with the points of (run index, tag): {points:
    // [[step, value, wall_time]], total, kept, file, script}.
    function series(run, tag) {
      var e = fileOf(run, tag);
      if (!e) return Promise.reject(new Error('run ' + (runs[run] ? runs[run].name : run) + ' has no scalar tag ' + tag));
      if (single || !e.file) {
        var b = blockOf(tag);
        var name = runs[run].name;
        var r = b && Array.isArray(b.runs) ? b.runs.filter(function (x) { return x && x.name === name; })[0] : null;
        if (!r) return Promise.reject(new Error('the Scalars page of this file does not draw ' + tag));
        return Promise.resolve({ points: Array.isArray(r.points) ? r.points : [], total: toNumber(r.total), kept: toNumber(r.kept) });
      }
      var script = e.file;
      return T.loadData(e.file, script).then(function (bundle) {
        var pts = (T.scalarBundle.points(bundle, runs[run].name, tag) || []).map(function (p) {
          return Array.isArray(p) ? [p[1], p[2], p[0]] : [NaN, NaN, NaN];
        });
        return { points: pts, total: pts.length, kept: pts.length, file: e.file, script: script };
      });
    }

    // thin keeps at most MAX_DRAWN of pts, per bucket its first, lowest,
    // highest and last, in order.
    function thin(pts) {
      var n = pts.length;
      if (n <= MAX_DRAWN) return pts;
      var buckets = Math.floor(MAX_DRAWN / 4), out = [];
      for (var b = 0; b < buckets; b++) {
        var lo = Math.floor(b * n / buckets), hi = Math.floor((b + 1) * n / buckets);
        if (hi <= lo) continue;
        var keep = [lo, hi - 1], mi = -1, ma = -1;
        for (var j = lo; j < hi; j++) {
          var v = toNumber(pts[j][1]);
          if (!isFinite(v)) { keep.push(j); continue; }
          if (mi < 0 || v < toNumber(pts[mi][1])) mi = j;
          if (ma < 0 || v > toNumber(pts[ma][1])) ma = j;
        }
        if (mi >= 0) keep.push(mi, ma);
        keep.sort(function (a, c) { return a - c; }).forEach(function (k, i) {
          if (i === 0 || k !== keep[i - 1]) out.push(pts[k]);
        });
      }
      return out;
    }

    // entry is the chart data of one line, as scalarchart.js reads it.
    function entry(run, s, name, tag, color) {
      var drawn = thin(s.points);
      var e = {
        name: name, run: runs[run].name, tag: tag, points: drawn,
        total: s.total, shown: drawn.length, kept: s.kept, start: runs[run].start, envelope: []
      };
      if (color) e.color = color;
      if (s.file) { e.file = s.file; e.script = s.script; }
      return e;
    }

    // band pairs the lower and upper points by step, at the steps of the
    // value line: [step, lower, upper, wall_time].
    function band(value, lower, upper) {
      var lo = new Map(), hi = new Map();
      lower.points.forEach(function (p) { lo.set(toNumber(p[0]), toNumber(p[1])); });
      upper.points.forEach(function (p) { hi.set(toNumber(p[0]), toNumber(p[1])); });
      var out = [];
      value.points.forEach(function (p) {
        var s = toNumber(p[0]);
        if (lo.has(s) && hi.has(s)) out.push([s, lo.get(s), hi.get(s), toNumber(p[2])]);
      });
      return out;
    }

    // layoutData resolves with the chart data of a layout chart: a line per
    // matched (run, tag), named by its run when the chart has one tag, by
    // tag and run when several.
    function layoutData(chart) {
      var list = Array.isArray(chart.series) ? chart.series.filter(function (s) { return s && runs[s.run]; }) : [];
      var distinct = new Set(list.map(function (s) { return s.tag; }));
      var several = distinct.size > 1;
      return Promise.all(list.map(function (s) {
        var name = several ? s.tag + ' (' + runs[s.run].name + ')' : runs[s.run].name;
        var color = several ? util.colorOf(name) : '';
        var value = series(s.run, s.tag);
        if (chart.kind !== 'margin') {
          return value.then(function (v) { return entry(s.run, v, name, several ? s.tag : '', color); });
        }
        // A bound a run lacks draws no band; the line is drawn all the same.
        var none = function () { return { points: [] }; };
        return Promise.all([value, series(s.run, s.lower).catch(none), series(s.run, s.upper).catch(none)]).then(function (x) {
          var e = entry(s.run, x[0], name, several ? s.tag : '', color);
          e.band = thin(band(x[0], x[1], x[2]).map(function (b) { return [b[0], b[1], b[2], b[3]]; }));
          return e;
        });
      })).then(function (entries) {
        return { tag: String(chart.title || ''), runs: entries };
      });
    }

    // pinnedData resolves with the chart data of a pinned tag: a line per
    // run that has it, as on the Scalars page.
    function pinnedData(tag) {
      return Promise.all(entriesOf(tag).slice(0, MAX_PINNED_RUNS).map(function (e) {
        return series(e.run, tag).then(function (s) { return entry(e.run, s, runs[e.run].name, '', ''); });
      })).then(function (entries) { return { tag: tag, runs: entries }; });
    }

    function load(fig) {
      if (fig.hasAttribute('data-pinned')) return pinnedData(fig.getAttribute('data-tag') || '');
      var chart = readJSON(fig.querySelector('script.layout-chart'));
      if (!chart || typeof chart !== 'object') return Promise.reject(new Error('its layout could not be read'));
      return layoutData(chart);
    }

    // The x axis control lists every scalar tag of the report.
    T.scalarCharts.setup(main, { load: load, xTags: Object.keys(tags) });

    // A closed category's charts have no size until it is opened.
    main.querySelectorAll('details.layout-category').forEach(function (d) {
      d.addEventListener('toggle', function () {
        if (!d.open) return;
        d.querySelectorAll('figure.chart-card').forEach(function (fig) {
          if (fig.__trainreportRec) fig.__trainreportRec.handle.resize();
        });
      });
    });

    // The pinned charts, re-made when the pins change.
    var grid = main.querySelector('[data-pin-grid]');
    var empty = main.querySelector('.pins-empty');
    if (!grid) return;
    T.scalarCharts.onPins(function (pins) {
      Array.prototype.slice.call(grid.children).forEach(function (fig) { T.scalarCharts.removeChart(fig); });
      pins.forEach(function (tag) { grid.appendChild(pinnedFigure(main, tag, runsWith(tag))); });
      if (empty) empty.hidden = pins.length > 0;
      grid.querySelectorAll('figure.chart-card').forEach(function (fig) {
        if (fig.querySelector('[data-chart]')) T.scalarCharts.addChart(main, fig, load);
      });
      T.scalarCharts.refresh();
    });
  }

  // MAX_PINNED_RUNS is how many runs a pinned chart draws, their data
  // files loaded each: the first in report order, as a layout chart draws
  // its first 200 series (render/customscalars.go); a sweep's Scalars page
  // draws the rest as a band.
  var MAX_PINNED_RUNS = 200;

  // pinnedFigure makes the figure of a pinned tag, which n runs have; its
  // names are set as text, never as markup.
  function pinnedFigure(main, tag, n) {
    var fig = document.createElement('figure');
    fig.className = 'chart-card';
    fig.setAttribute('data-tag', tag);
    fig.setAttribute('data-pinned', '');
    var cap = document.createElement('figcaption');
    var name = document.createElement('span');
    name.className = 'tag-name';
    name.textContent = tag;
    var count = document.createElement('span');
    count.className = 'points';
    count.textContent = n === 1 ? '1 run' : n > MAX_PINNED_RUNS
      ? 'the first ' + MAX_PINNED_RUNS + ' of ' + n + ' runs' : n + ' runs';
    var actions = document.createElement('span');
    actions.className = 'actions';
    [['pin', 'Unpin'], ['csv', 'CSV'], ['json', 'JSON'], ['png', 'PNG']].forEach(function (a) {
      if (!n && a[0] !== 'pin') return;
      var b = document.createElement('button');
      b.type = 'button';
      b.setAttribute('data-action', a[0]);
      b.textContent = a[1];
      actions.appendChild(b);
    });
    cap.appendChild(name);
    cap.appendChild(document.createTextNode(' '));
    cap.appendChild(count);
    cap.appendChild(document.createTextNode(' '));
    cap.appendChild(actions);
    fig.appendChild(cap);
    if (!n) {
      var p = document.createElement('p');
      p.className = 'note';
      p.textContent = 'No run of this report has a scalar tag of this name.';
      fig.appendChild(p);
      return fig;
    }
    var div = document.createElement('div');
    div.className = 'chart';
    div.setAttribute('data-chart', '');
    fig.appendChild(div);
    return fig;
  }

  T.onPage('custom_scalars', setup);
})();

/*
 * The histograms and distributions pages (both load this script): one
 * ECharts chart per tag and run, drawn when it comes near the viewport
 * (IntersectionObserver), from the chart's inline data (a JSON script
 * element of class stat-data, written by render/histograms.go and
 * render/distributions.go) and the page's base option (class stat-option,
 * built with go-echarts).
 *
 * Histograms: buckets as bars, in an offset (ridge) view with the oldest
 * step at the back (top) or overlaid as outlines; a tooltip per bucket.
 * Distributions: TensorBoard's basis points as nested bands around the
 * median line; an axis tooltip lists the values at a step.
 *
 * Plain ES2019, no globals, no network. In the single-file report this
 * script may be inlined twice (once per page); a page is set up once.
 */
(function () {
  'use strict';

  var tr = window.trainreport;
  if (!tr || !window.echarts) return;
  var util = tr.util;

  // Charts within this distance of the viewport are drawn.
  var LAZY_MARGIN = '300px 0px';
  // Ridge height: the fraction of the step range the tallest bin spans
  // (at least nine tenths of the spacing of the steps).
  var RIDGE = 0.15;
  // Band pairs of basis-point indices, outermost first, and their opacity.
  var BANDS = [[0, 8, 0.14], [1, 7, 0.2], [2, 6, 0.26], [3, 5, 0.32]];
  var PERCENTILES = ['0', '6.68', '15.87', '30.85', '50', '69.15', '84.13', '93.32', '100'];

  tr.onPage('histograms', function (main) { setup(main, histogramOption); });
  tr.onPage('distributions', function (main) { setup(main, distributionOption); });

  // setup readies a page the first time it is shown; later it resizes the
  // charts drawn, which may have changed size while the page was hidden.
  function setup(main, optionOf) {
    var st = main.__trainreportStat;
    if (st) {
      st.cards.forEach(function (c) { if (c.chart) c.chart.resize(); });
      return;
    }
    mark('trainreport-stat-setup');
    st = { main: main, optionOf: optionOf, cards: [], view: 'offset', drawn: 0, base: {} };
    main.__trainreportStat = st;
    var optEl = main.querySelector('script.stat-option');
    if (optEl) st.base = stripNulls(JSON.parse(optEl.textContent));
    main.querySelectorAll('figure.stat-card').forEach(function (fig) {
      var card = { figure: fig, div: fig.querySelector('.stat-chart'), chart: null, data: null };
      fig.__trainreportCard = card;
      st.cards.push(card);
    });
    var select = main.querySelector('select[name="view"]');
    if (select) {
      select.addEventListener('change', function () {
        st.view = select.value === 'overlay' ? 'overlay' : 'offset';
        main.setAttribute('data-view', st.view);
        st.cards.forEach(function (c) { if (c.chart) c.chart.setOption(st.optionOf(st, c), true); });
      });
    }
    main.setAttribute('data-view', st.view);
    if (typeof IntersectionObserver === 'function') {
      var observer = new IntersectionObserver(function (entries) {
        entries.forEach(function (en) {
          if (!en.isIntersecting) return;
          observer.unobserve(en.target);
          draw(st, en.target.parentNode.__trainreportCard);
        });
      }, { rootMargin: LAZY_MARGIN });
      st.cards.forEach(function (c) { observer.observe(c.div); });
    } else {
      st.cards.forEach(function (c) { draw(st, c); });
    }
    var queued = false;
    window.addEventListener('resize', function () {
      if (queued || main.hidden) return;
      queued = true;
      setTimeout(function () {
        queued = false;
        st.cards.forEach(function (c) { if (c.chart) c.chart.resize(); });
      }, 80);
    });
  }

  function draw(st, card) {
    if (!card || card.chart) return;
    if (!st.drawn) mark('trainreport-stat-first-draw');
    try {
      card.data = JSON.parse(card.figure.querySelector('script.stat-data').textContent);
      card.color = util.colorOf(card.data.run);
      card.chart = window.echarts.init(card.div, null, { renderer: 'canvas' });
      card.chart.setOption(st.optionOf(st, card), true);
    } catch (e) {
      card.div.textContent = 'This chart could not be drawn: ' + e.message;
      card.div.classList.add('stat-error');
      if (window.console) console.warn('trainreport:', e);
      return;
    }
    card.figure.setAttribute('data-drawn', '');
    st.drawn++;
    st.main.setAttribute('data-drawn', String(st.drawn));
    if (window.performance && performance.now) st.main.setAttribute('data-last-draw-ms', String(Math.round(performance.now())));
  }

  // mark records a moment for performance measurements.
  function mark(name) {
    if (window.performance && performance.mark) performance.mark(name);
  }

  // base returns a fresh copy of the page's base option.
  function base(st) {
    var opt = JSON.parse(JSON.stringify(st.base));
    delete opt.legend;
    return opt;
  }

  function stripNulls(v) {
    if (Array.isArray(v)) return v.map(stripNulls);
    if (!v || typeof v !== 'object') return v;
    var out = {};
    Object.keys(v).forEach(function (k) { if (v[k] !== null) out[k] = stripNulls(v[k]); });
    return out;
  }

  function num(v) { return util.toNumber(v); }

  // mix blends hex colour a with colour b ('#fff', '#000') by t in [0, 1].
  function mix(a, b, t) {
    var pa = rgb(a), pb = rgb(b);
    return 'rgb(' + [0, 1, 2].map(function (i) { return Math.round(pa[i] + (pb[i] - pa[i]) * t); }).join(',') + ')';
  }

  function rgb(hex) {
    var h = String(hex).replace('#', '');
    if (h.length === 3) h = h.replace(/./g, '$&$&');
    var n = parseInt(h, 16);
    return isFinite(n) ? [(n >> 16) & 255, (n >> 8) & 255, n & 255] : [100, 100, 100];
  }

  function fmtRange(l, r) {
    return '[' + util.fmtNum(l) + ', ' + util.fmtNum(r) + ')';
  }

  // ---------------------------------------------------------------------------
  // Histograms

  // buckets flattens a chart's steps into one item per bin:
  // [left, right, count, step, step index, count of the bin before]. The
  // bins are equal-width from data.lo to data.hi.
  function buckets(card) {
    if (card.items) return card;
    var items = [], maxCount = 0, d = card.data.draw, lo = num(d.lo), hi = num(d.hi);
    d.steps.forEach(function (s, k) {
      var c = s[2], w = (hi - lo) / c.length, prev = 0;
      for (var j = 0; j < c.length; j++) {
        var n = num(c[j]);
        items.push([lo + j * w, j === c.length - 1 ? hi : lo + (j + 1) * w, n, s[0], k, prev]);
        prev = n;
        if (n > maxCount) maxCount = n;
      }
    });
    card.items = items;
    card.maxCount = maxCount || 1;
    return card;
  }

  function histogramOption(st, card) {
    buckets(card);
    var steps = card.data.draw.steps, n = steps.length, color = card.color;
    var first = n ? steps[0][0] : 0, last = n ? steps[n - 1][0] : 0;
    var height = n > 1 ? Math.max(0.9 * (last - first) / (n - 1), RIDGE * (last - first)) : 1;
    var overlay = st.view === 'overlay';
    // Older steps lighter, newer darker; in front when drawn later.
    var fills = [], lines = [];
    for (var k = 0; k < n; k++) {
      var age = n > 1 ? 1 - k / (n - 1) : 0;
      fills.push(mix(color, '#ffffff', 0.2 + 0.6 * age));
      lines.push(mix(color, overlay ? '#ffffff' : '#000000', overlay ? 0.75 * age : 0.25));
    }
    var maxCount = card.maxCount;
    var opt = base(st);
    opt.xAxis = [{ type: 'value', min: num(card.data.draw.lo), max: num(card.data.draw.hi), axisLine: { onZero: false },
      axisLabel: { formatter: function (v) { return util.fmtNum(v); }, hideOverlap: true } }];
    if (overlay) {
      opt.yAxis = [{ type: 'value', min: 0, axisLine: { onZero: false } }];
    } else {
      opt.yAxis = [{
        type: 'value', inverse: true, min: first - height, max: last, minInterval: 1, axisLine: { onZero: false },
        axisLabel: { formatter: function (v) { return v < first ? '' : util.fmtStep(v); }, hideOverlap: true }
      }];
    }
    opt.tooltip = {
      trigger: 'item', confine: true,
      formatter: function (p) {
        var v = p.value;
        return util.escapeHTML(card.data.run) + '<br>step ' + util.fmtStep(v[3]) + '<br>' +
          util.escapeHTML(fmtRange(v[0], v[1])) + ': <b>' + util.escapeHTML(util.fmtNum(v[2])) + '</b>' +
          ' <span style="opacity:.7">(re-binned)</span>';
      }
    };
    opt.series = [{
      type: 'custom', name: card.data.run, data: card.items,
      encode: { x: [0, 1], y: overlay ? 2 : 3, tooltip: [0, 1, 2, 3] },
      renderItem: function (params, api) {
        var l = api.value(0), r = api.value(1), c = api.value(2), step = api.value(3), k = api.value(4), prev = api.value(5);
        if (c === 0 && prev === 0) return null;
        if (overlay) {
          var a = api.coord([l, prev]), b = api.coord([l, c]), e = api.coord([r, c]);
          return { type: 'polyline', shape: { points: [a, b, e] }, style: { stroke: lines[k], lineWidth: 1.25, fill: null } };
        }
        var base0 = api.coord([l, step]), top = api.coord([r, step - c / maxCount * height]);
        var prevTop = api.coord([l, step - prev / maxCount * height]);
        return {
          type: 'group',
          children: [
            { type: 'rect', shape: { x: base0[0], y: top[1], width: Math.max(top[0] - base0[0], 0.5), height: base0[1] - top[1] },
              style: { fill: fills[k] } },
            { type: 'polyline', shape: { points: [[base0[0], prevTop[1]], [base0[0], top[1]], [top[0], top[1]]] },
              style: { stroke: lines[k], lineWidth: 1, fill: null }, silent: true }
          ]
        };
      }
    }];
    return opt;
  }

  // ---------------------------------------------------------------------------
  // Distributions

  function distributionOption(st, card) {
    var color = card.color;
    // items: [step, v0, ..., v8], non-finite values as NaN or +-Infinity.
    if (!card.items) {
      card.items = card.data.draw.steps.map(function (s) {
        return [s[0]].concat(s.slice(2).map(num));
      });
    }
    var items = card.items;
    var opt = base(st);
    opt.xAxis = [{ type: 'value', scale: true, minInterval: 1, axisLabel: { formatter: util.fmtStep, hideOverlap: true } }];
    opt.yAxis = [{ type: 'value', scale: true }];
    opt.tooltip = {
      trigger: 'axis', confine: true, axisPointer: { type: 'line' },
      formatter: function (ps) {
        var p = Array.isArray(ps) ? ps[0] : ps;
        if (!p) return '';
        var v = p.value, rows = [];
        for (var i = 8; i >= 0; i--) rows.push(PERCENTILES[i] + '%: ' + util.escapeHTML(util.fmtNum(v[i + 1])));
        return util.escapeHTML(card.data.run) + '<br>step ' + util.fmtStep(v[0]) + '<br>' + rows.join('<br>');
      }
    };
    opt.series = [{
      type: 'custom', name: card.data.run, data: items,
      encode: { x: 0, y: [1, 2, 3, 4, 5, 6, 7, 8, 9] },
      renderItem: function (params, api) {
        var i = params.dataIndex, a = items[i], b = items[i + 1] || a, children = [];
        var ok = function (it, j) { return isFinite(it[j]); };
        BANDS.forEach(function (band) {
          var lo = band[0] + 1, hi = band[1] + 1;
          if (!ok(a, lo) || !ok(a, hi) || !ok(b, lo) || !ok(b, hi)) return;
          children.push({
            type: 'polygon', silent: true,
            shape: { points: [api.coord([a[0], a[lo]]), api.coord([b[0], b[lo]]), api.coord([b[0], b[hi]]), api.coord([a[0], a[hi]])] },
            style: { fill: color, opacity: band[2] }
          });
        });
        if (ok(a, 5) && ok(b, 5)) {
          var p0 = api.coord([a[0], a[5]]), p1 = api.coord([b[0], b[5]]);
          if (b === a) p1 = [p0[0] + 1, p0[1]];
          children.push({ type: 'line', silent: true, shape: { x1: p0[0], y1: p0[1], x2: p1[0], y2: p1[1] },
            style: { stroke: color, lineWidth: 2 } });
        }
        return { type: 'group', children: children };
      }
    }];
    return opt;
  }
})();

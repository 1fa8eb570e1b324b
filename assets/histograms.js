/*
 * The histograms and distributions pages (both load this script): one
 * ECharts chart per tag and run, drawn when it comes near the viewport
 * (app.js's lifecycle), from the chart's inline data (a JSON script element
 * of class stat-data, written by render/histograms.go and
 * render/distributions.go); every option is built here.
 *
 * Histograms: buckets as bars, in an offset (ridge) view with the oldest
 * step at the back (top) or overlaid as outlines; a tooltip per bucket.
 * A write a restart or a rewrite superseded is drawn faded and dashed on
 * its step's baseline, the tooltip naming its attempt.
 * Distributions: TensorBoard's basis points as nested bands around the
 * median line; an axis tooltip lists the values at a step.
 *
 * Over the page's byte budget a tag draws its first runs inline and, in the
 * site, offers the others through app.js's moreRuns: each loads as the
 * markup of its card (render/ondemand.go), drawn like an inline one.
 *
 * Plain ES2019, no globals, no network. The single-file report inlines it
 * once for both pages.
 */
(function () {
  'use strict';

  var tr = window.trainreport;
  if (!tr || !window.echarts) return;
  var util = tr.util;

  // Charts within this distance of the viewport are drawn: less than the
  // lifecycle's default, so that the charts in view, the first drawn, are
  // fewer to wait for (these draw slowest: a shape per step).
  var LAZY_MARGIN = '100px 0px';
  // Ridge height: the fraction of the step range the tallest bin spans
  // (at least nine tenths of the spacing of the steps).
  var RIDGE = 0.15;
  var HOVER = { histograms: histogramHover };
  // Band pairs of basis-point indices, outermost first, and their opacity.
  var BANDS = [[0, 8, 0.14], [1, 7, 0.2], [2, 6, 0.26], [3, 5, 0.32]];
  var PERCENTILES = ['0', '6.68', '15.87', '30.85', '50', '69.15', '84.13', '93.32', '100'];

  tr.onPage('histograms', function (main) { setup(main, histogramOption); });
  tr.onPage('distributions', function (main) { setup(main, distributionOption); });

  // setup readies a page: each chart goes to the lifecycle, which draws it
  // near the viewport and resizes it.
  function setup(main, optionOf) {
    mark('trainreport-stat-setup');
    var st = { main: main, optionOf: optionOf, cards: [], view: 'offset', drawn: 0 };
    main.querySelectorAll('figure.stat-card').forEach(function (fig) { addCard(st, fig); });
    tr.moreRuns(main, function (sec, run, html) {
      var fig = tr.insertCard(sec, html);
      if (fig) addCard(st, fig);
    });
    var select = main.querySelector('select[name="view"]');
    if (select) {
      select.addEventListener('change', function () {
        st.view = select.value === 'overlay' ? 'overlay' : 'offset';
        main.setAttribute('data-view', st.view);
        st.cards.forEach(function (c) {
          if (c.tip) c.tip.hidden = true;
          c.handle.update();
        });
      });
    }
    main.setAttribute('data-view', st.view);
  }

  // addCard hands the chart of figure fig to the lifecycle.
  function addCard(st, fig) {
    var card = { figure: fig, div: fig.querySelector('.stat-chart'), chart: null, data: null };
    if (!card.div) return;
    st.cards.push(card);
    card.handle = tr.lazyChart(card.div, function (h) { draw(st, card, h); }, {
      margin: LAZY_MARGIN,
      update: function () { card.chart.setOption(st.optionOf(st, card), true); }
    });
  }

  function draw(st, card, h) {
    if (!st.drawn) mark('trainreport-stat-first-draw');
    try {
      if (!card.data) card.data = JSON.parse(card.figure.querySelector('script.stat-data').textContent);
      card.color = util.colorOf(card.data.run);
      card.chart = h.init(card.div);
      card.chart.setOption(st.optionOf(st, card), true);
      var hover = HOVER[st.main.getAttribute('data-page')];
      if (hover) {
        card.chart.getZr().on('mousemove', function (e) { showTip(card, hover(st, card, e.offsetX, e.offsetY), e.offsetX, e.offsetY); });
        card.chart.getZr().on('globalout', function () { showTip(card, null); });
      }
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

  // showTip shows text (or hides the tip, for null) by the pointer at
  // (x, y) in the chart.
  function showTip(card, text, x, y) {
    var tip = card.tip;
    if (!tip) {
      tip = card.tip = document.createElement('div');
      tip.className = 'stat-tip';
      card.div.appendChild(tip);
    }
    tip.hidden = text == null;
    if (text == null) return;
    tip.textContent = text;
    var left = x + 14, width = tip.offsetWidth;
    if (left + width > card.div.clientWidth) left = Math.max(0, x - 14 - width);
    tip.style.left = left + 'px';
    tip.style.top = Math.max(0, y - 10 - tip.offsetHeight) + 'px';
  }

  // mark records a moment for performance measurements.
  function mark(name) {
    if (window.performance && performance.mark) performance.mark(name);
  }

  // base returns what every chart of both pages starts from.
  function base() {
    return {
      animation: false,
      grid: [{ left: 64, top: 36, right: 24, bottom: 36 }],
      toolbox: { show: true, right: 10, feature: { saveAsImage: { show: true, title: 'Save as PNG' } } }
    };
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

  // histogramData reads a chart's drawing data once: the steps, their bin
  // counts (equal-width bins from lo to hi) and the greatest count.
  function histogramData(card) {
    if (card.hist) return card.hist;
    var d = card.data.draw, steps = d.steps, maxCount = 0;
    var counts = steps.map(function (s) {
      return s[1].map(function (c) {
        var n = num(c);
        if (!isFinite(n)) n = 0;
        if (n > maxCount) maxCount = n;
        return n;
      });
    });
    var n = steps.length, first = n ? steps[0][0] : 0, last = n ? steps[n - 1][0] : 0;
    // Distinct steps space the ridges: a step written twice (a restart's
    // attempts, a rewrite) draws its writes on one baseline.
    var distinct = new Set(steps.map(function (s) { return s[0]; })).size;
    // ECharts cannot map an axis whose span overflows a double (edges of
    // -1e308 and 1e308 draw nothing): such a chart is drawn in halves, its
    // labels and tooltip doubled back.
    var lo = num(d.lo), hi = num(d.hi), scale = isFinite(hi - lo) ? 1 : 2;
    card.hist = {
      steps: steps, counts: counts, maxCount: maxCount || 1, lo: lo / scale, hi: hi / scale, scale: scale,
      bins: n ? counts[0].length : 0, first: first, last: last,
      // The tallest bin spans RIDGE of the step range.
      height: distinct > 1 ? Math.max(0.9 * (last - first) / (distinct - 1), RIDGE * (last - first)) : 1
    };
    return card.hist;
  }

  // binEdge is the left edge of bin j of the chart's equal-width bins (hi
  // for j = bins), and binOf the bin (fractional) that x falls in. Both
  // work on halves: hi - lo of two finite numbers can exceed the largest
  // double (edges of -1e308 and 1e308), where lo + j * (hi - lo) / bins
  // would be Infinity or NaN.
  function binEdge(h, j) {
    if (j >= h.bins) return h.hi;
    return 2 * (h.lo / 2 + j * ((h.hi / 2 - h.lo / 2) / h.bins));
  }

  function binOf(h, x) {
    return (x / 2 - h.lo / 2) / ((h.hi / 2 - h.lo / 2) / h.bins);
  }

  // histogramOption draws one custom-series item per step: in the offset
  // view a filled outline rising from the step's baseline, the oldest step
  // at the back (top); in the overlay view the outlines alone, by count.
  // The tooltip is histogramHover's.
  function histogramOption(st, card) {
    var h = histogramData(card), n = h.steps.length, color = card.color;
    var overlay = st.view === 'overlay';
    var fills = [], lines = [];
    for (var k = 0; k < n; k++) {
      var age = n > 1 ? 1 - k / (n - 1) : 0;
      fills.push(mix(color, '#ffffff', 0.2 + 0.6 * age));
      lines.push(mix(color, overlay ? '#ffffff' : '#000000', overlay ? 0.8 * age : 0.25));
    }
    var opt = base();
    opt.tooltip = { show: false };
    // The ends of the buckets' range fall between ticks: labelled, they
    // ran into the tick beside them ("5 5.2764") and past the card's edge
    // ("-0.54614"); the tooltip says where a bucket starts and ends.
    opt.xAxis = [{ type: 'value', min: h.lo, max: h.hi, axisLine: { onZero: false },
      axisLabel: { formatter: function (v) { return util.fmtNum(v * h.scale); }, hideOverlap: true,
        showMinLabel: false, showMaxLabel: false } }];
    if (overlay) {
      opt.yAxis = [{ type: 'value', min: 0, max: h.maxCount, axisLine: { onZero: false },
        axisLabel: { formatter: function (v) { return util.fmtNum(v); }, hideOverlap: true, showMaxLabel: false } }];
    } else {
      opt.yAxis = [{
        type: 'value', inverse: true, min: h.first - h.height, max: h.last, minInterval: 1, axisLine: { onZero: false },
        axisLabel: { formatter: function (v) { return v < h.first ? '' : util.fmtStep(v); }, hideOverlap: true }
      }];
    }
    opt.series = [{
      type: 'custom', name: card.data.run, silent: true,
      data: h.steps.map(function (s, k) { return [h.lo, s[0], k]; }),
      renderItem: function (params, api) {
        var k = params.dataIndex, c = h.counts[k], step = h.steps[k][0], pts = [];
        var y = overlay ? function (v) { return v; } : function (v) { return step - v / h.maxCount * h.height; };
        for (var j = 0; j < c.length; j++) {
          pts.push(api.coord([binEdge(h, j), y(c[j])]), api.coord([binEdge(h, j + 1), y(c[j])]));
        }
        // A write a later one superseded (meta, s[3]) is drawn faded: a
        // dashed outline over a pale fill, in front of the line's ridge
        // of its step so that both show.
        var sup = superseded(h.steps[k]);
        if (overlay) {
          return { type: 'polyline', z2: sup ? 2 : 1, shape: { points: pts },
            style: { stroke: lines[k], lineWidth: 1.25, fill: null, lineDash: sup ? [4, 3] : null, opacity: sup ? 0.6 : 1 } };
        }
        var z2 = sup ? 2 : 1;
        var line = { type: 'polyline', z2: z2, shape: { points: pts.slice() },
          style: { stroke: lines[k], lineWidth: 1, fill: null, lineDash: sup ? [4, 3] : null } };
        pts.unshift(api.coord([h.lo, step]));
        pts.push(api.coord([h.hi, step]));
        var fill = { type: 'polygon', z2: z2, shape: { points: pts }, style: { fill: fills[k], opacity: sup ? 0.35 : 1 } };
        return { type: 'group', children: [fill, line] };
      }
    }];
    return opt;
  }

  // histogramHover shows the bin under the pointer: in the offset view of
  // the frontmost step whose outline covers it, in the overlay view of the
  // step whose outline is nearest.
  function histogramHover(st, card, px, py) {
    var ch = card.chart, h = histogramData(card);
    if (!h.bins || !ch.containPixel('grid', [px, py])) return null;
    var v = ch.convertFromPixel('grid', [px, py]);
    var j = Math.min(h.bins - 1, Math.max(0, Math.floor(binOf(h, v[0])))), k = -1, k2;
    if (st.view === 'overlay') {
      var best = 10; // pixels
      for (k2 = h.steps.length - 1; k2 >= 0; k2--) {
        var d = Math.abs(ch.convertToPixel('grid', [v[0], h.counts[k2][j]])[1] - py);
        if (d < best) { best = d; k = k2; }
      }
    } else {
      for (k2 = h.steps.length - 1; k2 >= 0 && k < 0; k2--) {
        var step = h.steps[k2][0], top = step - h.counts[k2][j] / h.maxCount * h.height;
        if (v[1] <= step && v[1] >= top) k = k2;
      }
    }
    if (k < 0) return null;
    var meta = h.steps[k][3];
    return card.data.run + '\nstep ' + util.fmtStep(h.steps[k][0]) + (meta && meta.note ? ' (' + meta.note + ')' : '') + '\n' +
      fmtRange(binEdge(h, j) * h.scale, binEdge(h, j + 1) * h.scale) + ': ' + util.fmtNum(h.counts[k][j]) + ' (re-binned)' +
      nonFiniteLine(h.steps[k][2]);
  }

  // superseded reports whether a drawn step is a write a later one
  // superseded (render/histograms.go writes {note, superseded} after its
  // counts).
  function superseded(s) { return !!(s[3] && s[3].superseded); }

  // nonFiniteLine says what a step counted apart from its buckets
  // (MindSpore's NaN, +Inf and -Inf counts), or nothing.
  function nonFiniteLine(nf) {
    if (!nf) return '';
    var parts = [];
    ['NaN', '+Inf', '\u2212Inf'].forEach(function (name, i) { if (nf[i]) parts.push(util.fmtNum(nf[i]) + ' ' + name); });
    return '\nnot in any bucket: ' + parts.join(', ');
  }

  // ---------------------------------------------------------------------------
  // Distributions

  function distributionOption(st, card) {
    var color = card.color;
    // items: [step, v0, ..., v8], non-finite values as NaN (left out of
    // the axes and the drawing; the tooltip shows them from the data).
    if (!card.items) {
      card.items = card.data.draw.steps.map(function (s) {
        return [s[0]].concat(s.slice(1).map(function (v) { v = num(v); return isFinite(v) ? v : NaN; }));
      });
    }
    var items = card.items;
    if (card.scale === undefined) {
      // As in histogramData: values whose span overflows a double are
      // drawn in halves, the axis labels doubled back (the tooltip reads
      // the data as written).
      var lo = Infinity, hi = -Infinity;
      items.forEach(function (it) {
        for (var i = 1; i < it.length; i++) if (isFinite(it[i])) { lo = Math.min(lo, it[i]); hi = Math.max(hi, it[i]); }
      });
      card.scale = lo <= hi && !isFinite(hi - lo) ? 2 : 1;
      if (card.scale !== 1) {
        items.forEach(function (it) { for (var i = 1; i < it.length; i++) it[i] /= card.scale; });
      }
    }
    var scale = card.scale;
    var opt = base();
    opt.xAxis = [{ type: 'value', scale: true, minInterval: 1, axisLine: { onZero: false }, axisLabel: { formatter: util.fmtStep, hideOverlap: true } }];
    opt.yAxis = [{ type: 'value', scale: true }];
    if (scale !== 1) opt.yAxis[0].axisLabel = { formatter: function (v) { return util.fmtNum(v * scale); } };
    opt.tooltip = {
      trigger: 'axis', confine: true, axisPointer: { type: 'line' },
      formatter: function (ps) {
        var p = Array.isArray(ps) ? ps[0] : ps;
        if (!p) return '';
        var v = card.data.draw.steps[p.dataIndex], rows = [];
        for (var i = 8; i >= 0; i--) rows.push(PERCENTILES[i] + '%: ' + util.escapeHTML(util.fmtNum(num(v[i + 1]))));
        return util.escapeHTML(card.data.run) + '<br>step ' + util.fmtStep(v[0]) + '<br>' + rows.join('<br>');
      }
    };
    opt.series = [{
      type: 'custom', name: card.data.run, data: items,
      encode: { x: 0, y: [1, 2, 3, 4, 5, 6, 7, 8, 9] },
      // The first item draws the whole chart: a band polygon per pair of
      // basis points and the median line, over the steps where they are
      // finite; the items are there for the axis tooltip.
      renderItem: function (params, api) {
        if (params.dataIndex !== 0) return null;
        var children = [];
        BANDS.forEach(function (band) {
          var lo = band[0] + 1, hi = band[1] + 1, low = [], high = [];
          items.forEach(function (it) {
            if (isFinite(it[lo]) && isFinite(it[hi])) {
              low.push(api.coord([it[0], it[lo]]));
              high.push(api.coord([it[0], it[hi]]));
            }
          });
          if (low.length) {
            children.push({ type: 'polygon', silent: true, shape: { points: low.concat(high.reverse()) },
              style: { fill: color, opacity: band[2], stroke: color, lineWidth: low.length === 1 ? 2 : 0 } });
          }
        });
        var median = [];
        items.forEach(function (it) { if (isFinite(it[5])) median.push(api.coord([it[0], it[5]])); });
        if (median.length === 1) median.push([median[0][0] + 2, median[0][1]]);
        children.push({ type: 'polyline', silent: true, shape: { points: median }, style: { stroke: color, lineWidth: 2, fill: null } });
        return { type: 'group', children: children };
      }
    }];
    return opt;
  }
})();

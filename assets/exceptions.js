/*
 * trainreport exceptions page (Tianshu's exception view): per (run, tag)
 * card, a box per step over the steps, and for the step the slider picks a
 * heat map of the tensor, a 100-bin histogram and the list of outliers.
 * Go computes every number (internal/analysis/tensorview) and inlines it in the
 * card's <script type="application/json" class="exc-data">; this script
 * only redraws the whiskers and filters the outliers for the page's
 * whisker factor k (kept in the URL hash), and builds the charts' options.
 * Scoped to main.page[data-page="exceptions"]; no HTML is built from
 * strings.
 */
(function () {
  'use strict';
  var tr = window.trainreport;
  var util = tr.util;
  var DEFAULT_K = 1.5, MIN_K = 1, MAX_K = 5; // MIN_K: the k Go listed the outliers at
  var BAD = '#d62728';

  var state = { k: DEFAULT_K };

  function clampK(v) {
    var f = parseFloat(v);
    if (!isFinite(f)) return DEFAULT_K;
    return Math.min(MAX_K, Math.max(MIN_K, Math.round(f * 10) / 10));
  }

  tr.state.key('k', function (v) {
    state.k = v === null || v === '' ? DEFAULT_K : clampK(v);
  }, function () { return state.k === DEFAULT_K ? null : String(state.k); });
  tr.state.onApply(syncControls);

  function syncControls() {
    document.querySelectorAll('main.page[data-page="exceptions"] form[data-controls] [name="k"]').forEach(function (input) {
      if (clampK(input.value) !== state.k) input.value = String(state.k);
    });
  }

  function num(v) { return v === null || v === undefined ? NaN : util.toNumber(v); }

  // whiskers returns [down, up] for percentiles p (P0 ... P100) at k.
  function whiskers(p, k) {
    var q1 = num(p[3]), q3 = num(p[5]), iqr = q3 - q1;
    return [Math.max(q1 - k * iqr, num(p[0])), Math.min(q3 + k * iqr, num(p[8]))];
  }

  // ---------------------------------------------------------------------------
  // Options

  function boxOption(card) {
    var st = card.__exc, d = st.data, k = state.k;
    var cats = d.steps.map(function (s) { return util.fmtStep(s); });
    var boxes = d.box.map(function (b) {
      if (!b) return '-';
      var w = whiskers(b[1], k);
      return [w[0], num(b[0][1]), num(b[0][2]), num(b[0][3]), w[1]];
    });
    var det = d.details[st.at];
    var at = det ? d.steps.indexOf(det.step) : -1;
    var outliers = [];
    if (det && at >= 0 && d.box[at]) {
      var w = whiskers(d.box[at][1], k);
      det.outliers[0].forEach(function (v, i) {
        var x = num(v);
        if (isFinite(x) && (x > w[1] || x < w[0])) outliers.push([at, x, det.outliers[1][i]]);
      });
    }
    var bad = [];
    d.nonfinite.forEach(function (n, i) {
      if (n > 0) bad.push({ value: [i, boxes[i] === '-' ? 0 : boxes[i][4], n] });
    });
    var color = util.colorOf(card.getAttribute('data-run'));
    return {
      animation: false,
      grid: { left: 64, right: 24, top: 28, bottom: 40 },
      tooltip: {
        trigger: 'item', confine: true,
        formatter: function (p) {
          var s = 'step ' + util.escapeHTML(cats[p.value[0]] !== undefined && p.seriesType !== 'boxplot' ? cats[p.value[0]] : p.name);
          if (p.seriesType === 'boxplot') {
            var b = d.box[p.dataIndex];
            var names = ['P0', 'P5', 'P10', 'P25', 'P50', 'P75', 'P90', 'P95', 'P100'];
            var lines = ['down ' + util.fmtNum(p.value[1]), 'up ' + util.fmtNum(p.value[5])];
            if (b) names.forEach(function (n, i) { lines.push(n + ' ' + util.fmtNum(num(b[1][i]))); });
            return s + '<br>' + lines.map(util.escapeHTML).join('<br>');
          }
          if (p.seriesName === 'NaN/Inf') return s + '<br>' + util.escapeHTML(p.value[2] + ' NaN or infinite values');
          return s + '<br>' + util.escapeHTML('value ' + util.fmtNum(p.value[1]) + ' at index ' + p.value[2]);
        }
      },
      xAxis: { type: 'category', data: cats, name: 'step', nameLocation: 'middle', nameGap: 26, boundaryGap: true },
      yAxis: { type: 'value', scale: true, axisLabel: { formatter: function (v) { return util.fmtNum(v); } } },
      dataZoom: cats.length > 60 ? [{ type: 'inside' }] : [],
      series: [
        { name: 'box', type: 'boxplot', data: boxes, itemStyle: { color: '#fff', borderColor: color },
          markLine: at >= 0 ? { silent: true, symbol: 'none', lineStyle: { color: '#999', type: 'dashed' }, label: { show: false }, data: [{ xAxis: at }] } : undefined },
        { name: 'outliers', type: 'scatter', data: outliers, symbolSize: 6, itemStyle: { color: color } },
        { name: 'NaN/Inf', type: 'scatter', data: bad, symbol: 'triangle', symbolSize: 11, itemStyle: { color: BAD } }
      ]
    };
  }

  // heatOption draws a step's heat map. Its colour scale spans the step's
  // whiskers at the page's k, not its extremes: one outlier would otherwise
  // paint every other cell the same colour. Cells beyond take the end
  // colours (their value is clipped for the colour only; the tooltip says
  // the value).
  function heatOption(det, whisk) {
    var m = det.matrix[4], rows = m.length, cols = rows ? m[0].length : 0;
    var cells = [], bad = [], lo = Infinity, hi = -Infinity;
    for (var r = 0; r < rows; r++) {
      for (var c = 0; c < cols; c++) {
        var v = m[r][c];
        if (v === null) continue; // padding of a tiled layout
        var x = num(v);
        if (isFinite(x)) {
          cells.push([c, r, x, x]);
          lo = Math.min(lo, x); hi = Math.max(hi, x);
        } else {
          bad.push({ value: [c, r, 0], label: util.nonFiniteLabel(x) });
        }
      }
    }
    if (!isFinite(lo)) { lo = 0; hi = 1; }
    var clipped = false;
    if (whisk && whisk[1] > whisk[0] && (whisk[0] > lo || whisk[1] < hi)) {
      lo = Math.max(lo, whisk[0]); hi = Math.min(hi, whisk[1]);
      clipped = true;
      cells.forEach(function (cell) { cell[2] = Math.min(hi, Math.max(lo, cell[2])); });
    }
    if (lo === hi) { lo -= 0.5; hi += 0.5; }
    var block = det.block[0] > 1 || det.block[1] > 1;
    var idx = function (n) { var a = []; for (var i = 0; i < n; i++) a.push(String(i)); return a; };
    return {
      animation: false,
      title: { text: 'heat map ' + det.flat[0] + '×' + det.flat[1] + (block ? ' (cells of ' + det.block[0] + '×' + det.block[1] + ')' : ''),
        left: 'center', textStyle: { fontSize: 12, fontWeight: 'normal' } },
      grid: { left: 48, right: 16, top: 28, bottom: 72 },
      tooltip: {
        confine: true,
        formatter: function (p) {
          var r = p.value[1] * det.block[0], c = p.value[0] * det.block[1];
          var v = p.seriesIndex === 1 ? p.data.label : util.fmtNum(p.value[3]);
          var where = block ? 'rows ' + r + '–' + (Math.min(det.flat[0], r + det.block[0]) - 1) + ', cols ' + c + '–' + (Math.min(det.flat[1], c + det.block[1]) - 1) : 'row ' + r + ', col ' + c;
          return util.escapeHTML(where + ': ' + v);
        }
      },
      xAxis: { type: 'category', data: idx(cols), splitArea: { show: false }, axisLabel: { show: cols <= 32 } },
      yAxis: { type: 'category', data: idx(rows), inverse: true, axisLabel: { show: rows <= 32 } },
      visualMap: { min: lo, max: hi, calculable: true, orient: 'horizontal', left: 'center', bottom: 0, itemHeight: 120, seriesIndex: 0, dimension: 2,
        text: clipped ? ['≥ up', '≤ down'] : null,
        precision: 4, inRange: { color: ['#313695', '#74add1', '#ffffbf', '#f46d43', '#a50026'] } },
      series: [
        { name: 'values', type: 'heatmap', data: cells, progressive: 0 },
        { name: 'NaN/Inf', type: 'heatmap', data: bad, itemStyle: { color: '#000' }, progressive: 0,
          label: { show: bad.length <= 64 && rows <= 32 && cols <= 32, color: '#fff', fontSize: 9, formatter: function (p) { return p.data.label; } } }
      ]
    };
  }

  function histOption(det, color) {
    var h = det.histogram[0], bins = h ? h[2] : [];
    return {
      animation: false,
      title: { text: '100-bin histogram of finite values', left: 'center', textStyle: { fontSize: 12, fontWeight: 'normal' } },
      grid: { left: 56, right: 16, top: 28, bottom: 40 },
      tooltip: {
        trigger: 'axis', confine: true,
        formatter: function (ps) {
          var b = bins[ps[0].dataIndex];
          return util.escapeHTML('[' + util.fmtNum(num(b[0])) + ', ' + util.fmtNum(num(b[1])) + (ps[0].dataIndex === bins.length - 1 ? ']' : ')') + ': ' + b[2]);
        }
      },
      xAxis: { type: 'category', data: bins.map(function (b) { return util.fmtNum((num(b[0]) + num(b[1])) / 2); }) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [{ type: 'bar', data: bins.map(function (b) { return b[2]; }), barCategoryGap: '5%', itemStyle: { color: color } }]
    };
  }

  // ---------------------------------------------------------------------------
  // The step's outliers, the message and the slider.

  function position(i, shape) {
    var out = [];
    for (var d = shape.length - 1; d >= 0; d--) {
      var n = shape[d] || 1;
      out.unshift(i % n);
      i = Math.floor(i / n);
    }
    return '(' + out.join(', ') + (out.length === 1 ? ',' : '') + ')';
  }

  function drawOutliers(card) {
    var st = card.__exc, det = st.data.details[st.at];
    var tbody = card.querySelector('[data-exc-outliers] tbody');
    var summary = card.querySelector('[data-exc-outlier-summary]');
    if (!tbody) return;
    while (tbody.firstChild) tbody.removeChild(tbody.firstChild);
    if (!det) { summary.textContent = 'Outliers'; return; }
    var at = st.data.steps.indexOf(det.step), b = at >= 0 ? st.data.box[at] : null;
    var w = b ? whiskers(b[1], state.k) : [Infinity, -Infinity];
    var shown = 0, nonfinite = 0;
    det.outliers[0].forEach(function (v, i) {
      var x = num(v);
      var bad = !isFinite(x);
      if (!bad && x <= w[1] && x >= w[0]) return;
      if (bad) nonfinite++;
      shown++;
      var row = document.createElement('tr');
      [String(det.outliers[1][i]), position(det.outliers[1][i], det.matrix[0]), bad ? util.nonFiniteLabel(x) : util.fmtNum(x)].forEach(function (t, j) {
        var td = document.createElement('td');
        td.textContent = t;
        if (j === 2 && bad) td.className = 'nonfinite';
        row.appendChild(td);
      });
      tbody.appendChild(row);
    });
    var text = shown + ' outlier' + (shown === 1 ? '' : 's') + ' at k = ' + state.k + (nonfinite ? ' (' + nonfinite + ' NaN or infinite)' : '');
    if (det.outlier_total > det.outliers[0].length) {
      text += '; the data holds the ' + det.outliers[0].length + ' furthest of ' + det.outlier_total + ' beyond k = ' + det.outlier_k;
    }
    summary.textContent = text;
  }

  function drawStep(card) {
    var st = card.__exc, det = st.data.details[st.at];
    var out = card.querySelector('[data-exc-step]');
    var msg = card.querySelector('[data-exc-msg]');
    if (!det) {
      if (msg) msg.textContent = 'No step could be read for details.';
      return;
    }
    if (out) out.textContent = 'step ' + util.fmtStep(det.step) + ' (' + (st.at + 1) + ' of ' + st.data.details.length + ')';
    var m = det.matrix;
    if (msg) {
      msg.textContent = 'shape (' + m[0].join(', ') + (m[0].length === 1 ? ',' : '') + ') · min ' + util.fmtNum(num(m[1])) +
        ' · max ' + util.fmtNum(num(m[2])) + ' · mean ' + util.fmtNum(num(m[3]));
    }
    drawOutliers(card);
    if (!st.h || !st.h.charts.length) return;
    st.box.setOption(boxOption(card), true);
    var at = st.data.steps.indexOf(det.step), b = at >= 0 ? st.data.box[at] : null;
    st.heat.setOption(heatOption(det, b ? whiskers(b[1], state.k) : null), true);
    if (det.histogram.length) { st.hist.getDom().hidden = false; st.hist.setOption(histOption(det, util.colorOf(card.getAttribute('data-run'))), true); }
    else st.hist.getDom().hidden = true;
  }

  function drawCharts(card, h) {
    if (typeof echarts === 'undefined') return;
    var st = card.__exc;
    st.h = h;
    st.box = h.init(card.querySelector('[data-exc-box]'));
    st.heat = h.init(card.querySelector('[data-exc-heat]'));
    st.hist = h.init(card.querySelector('[data-exc-hist]'));
    st.box.setOption(boxOption(card));
    drawStep(card);
  }

  function onControl(e) {
    var t = e.target;
    if (!t || t.name !== 'k') return;
    state.k = clampK(t.value);
    tr.state.apply();
    tr.state.save(e.type === 'change' ? 0 : 400);
  }

  function setup(main) {
    main.querySelectorAll('form[data-controls]').forEach(function (form) {
      form.addEventListener('input', onControl);
      form.addEventListener('change', onControl);
    });
    syncControls();
    Array.prototype.slice.call(main.querySelectorAll('article.exc-card')).forEach(setupCard);
    // The runs the page leaves out over its budget, on demand (app.js).
    tr.moreRuns(main, function (sec, run, html) {
      var card = tr.insertCard(sec, html);
      if (card) setupCard(card);
    });
  }

  // setupCard readies a card: its data, slider, charts and outliers.
  function setupCard(card) {
    var data;
    try { data = JSON.parse(card.querySelector('script.exc-data').textContent); } catch (e) { return; }
    if (!data) return;
    ['steps', 'box', 'nonfinite', 'details'].forEach(function (k) { if (!Array.isArray(data[k])) data[k] = []; });
    // The first step with a NaN or infinity among the detail steps is
    // what a reader comes for; else the last.
    var at = data.details.length - 1;
    for (var i = 0; i < data.details.length; i++) {
      var j = data.steps.indexOf(data.details[i].step);
      if (j >= 0 && data.nonfinite[j] > 0) { at = i; break; }
    }
    card.__exc = { data: data, at: Math.max(0, at) };
    var name = card.querySelector('[data-run-color]');
    if (name) name.style.borderColor = util.colorOf(name.getAttribute('data-run-color'));
    var slider = card.querySelector('[data-exc-slider]');
    slider.max = String(Math.max(0, data.details.length - 1));
    slider.value = String(card.__exc.at);
    slider.disabled = data.details.length < 2;
    slider.addEventListener('input', function () { card.__exc.at = Number(slider.value); drawStep(card); });
    tr.lazyChart(card, function (h) { drawCharts(card, h); }, {
      key: function () { return String(state.k); },
      update: function () { drawStep(card); }
    });
    drawOutliers(card);
  }

  tr.onPage('exceptions', setup);
})();

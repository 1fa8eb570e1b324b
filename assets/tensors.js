/*
 * trainreport tensors page: per (run, tag) card, a chart of the statistics
 * over steps, a heat map of the histograms re-binned onto one shared grid
 * (step x bin), and a table of one step's values sliced with a numpy-style
 * index, with a heat map of the slice when it has two dimensions and a
 * grid of images when the step holds images. Everything is computed in Go and inlined in the card's
 * <script type="application/json" class="tensor-data">; this script only
 * draws it. A card's charts are drawn when it comes into view (app.js's
 * lifecycle), their options built here. Scoped to
 * main.page[data-page="tensors"]; no HTML is built from strings.
 */
(function () {
  'use strict';
  var tr = window.trainreport;
  var util = tr.util;
  var MAX_CELLS = 100000; // the most values a table shows
  var DEFAULT_CELLS = 2000; // the most the first table of a step shows
  var MAX_HEAT_CELLS = 40000; // the most a heat map of values draws
  var MAX_IMAGES = 64, MAX_IMAGE_SIDE = 1024; // a grid's images and their sides

  // ---------------------------------------------------------------------------
  // Index parsing: numpy's basic indexing with integers, slices and one
  // ellipsis; missing trailing dimensions are taken whole.

  function parseInt10(s, what) {
    s = s.trim();
    if (s === '') return null;
    if (!/^[+-]?\d+$/.test(s)) throw new Error(what + ' "' + s + '" is not an integer');
    return parseInt(s, 10);
  }

  // sliceOf is Python's slice(start, stop, step).indices(n) with its length.
  function sliceOf(part, n, dim) {
    var f = part.split(':');
    if (f.length > 3) throw new Error('"' + part.trim() + '" has too many colons');
    var start = parseInt10(f[0], 'start'), stop = parseInt10(f[1], 'stop');
    var step = f.length === 3 ? parseInt10(f[2], 'step') : null;
    if (step === null) step = 1;
    if (step === 0) throw new Error('slice step cannot be zero (dimension ' + dim + ')');
    function bound(v, lo, hi) {
      if (v < 0) v += n;
      return Math.min(Math.max(v, lo), hi);
    }
    if (step > 0) {
      start = start === null ? 0 : bound(start, 0, n);
      stop = stop === null ? n : bound(stop, 0, n);
    } else {
      start = start === null ? n - 1 : bound(start, -1, n - 1);
      stop = stop === null ? -1 : bound(stop, -1, n - 1);
    }
    var len = step > 0 ? Math.max(0, Math.ceil((stop - start) / step)) : Math.max(0, Math.ceil((start - stop) / -step));
    return { slice: true, start: start, step: step, len: len };
  }

  // parseIndex returns one entry per dimension: {slice: false, i} or
  // {slice: true, start, step, len}; it throws an Error with a message for
  // people when the index does not fit the shape.
  function parseIndex(src, shape) {
    var s = String(src).trim();
    var open = s.charAt(0) === '[', close = s.charAt(s.length - 1) === ']';
    if (open !== close) throw new Error('unbalanced brackets');
    if (open) s = s.slice(1, -1);
    var parts = s.trim() === '' ? [] : s.split(',');
    if (parts.length > 1 && parts[parts.length - 1].trim() === '') parts.pop(); // "[0,]"
    var ell = parts.map(function (p) { return p.trim(); }).indexOf('...');
    if (ell >= 0) {
      if (parts.map(function (p) { return p.trim(); }).lastIndexOf('...') !== ell) throw new Error('only one ellipsis (...) is allowed');
      var fill = [];
      for (var k = parts.length - 1; k < shape.length; k++) fill.push(':');
      parts = parts.slice(0, ell).concat(fill, parts.slice(ell + 1));
    }
    if (parts.length > shape.length) {
      throw new Error('too many indices: the tensor has ' + shape.length + ' dimension' + (shape.length === 1 ? '' : 's') + ', the index ' + parts.length);
    }
    while (parts.length < shape.length) parts.push(':');
    var dims = parts.map(function (p, d) {
      var n = shape[d];
      if (p.indexOf(':') >= 0) return sliceOf(p, n, d);
      var i = parseInt10(p, 'index');
      if (i === null) throw new Error('empty index in dimension ' + d);
      if (i < -n || i >= n) throw new Error('index ' + i + ' is out of range for dimension ' + d + ' of size ' + n);
      return { slice: false, i: i < 0 ? i + n : i };
    });
    var sliced = dims.filter(function (x) { return x.slice; }).length;
    if (sliced > 2) throw new Error('at most two dimensions can be sliced; this index slices ' + sliced);
    return dims;
  }

  // defaultIndex takes the first element of every dimension but the last
  // two, and of those as many leading rows as keep the first table small:
  // "[0, 0, :, :]", "[0, :16, :]" for a [4, 512, 64] tensor.
  function defaultIndex(shape) {
    var parts = shape.map(function (_, d) { return d < shape.length - 2 ? '0' : ':'; });
    var n = shape.length;
    var cols = n >= 2 ? shape[n - 1] : 1;
    var rows = n >= 1 ? shape[n >= 2 ? n - 2 : 0] : 1;
    if (rows * cols > DEFAULT_CELLS) parts[n >= 2 ? n - 2 : 0] = ':' + Math.max(1, Math.floor(DEFAULT_CELLS / Math.max(cols, 1)));
    return '[' + parts.join(', ') + ']';
  }

  // sliceTable returns the rows x cols of values the index selects, with
  // the original indices of the rows and columns.
  function sliceTable(values, shape, dims) {
    var strides = [], acc = 1;
    for (var d = shape.length - 1; d >= 0; d--) { strides[d] = acc; acc *= shape[d]; }
    var base = 0, sl = [];
    dims.forEach(function (x, d) {
      if (x.slice) sl.push({ d: d, x: x });
      else base += x.i * strides[d];
    });
    function axis(k) {
      if (k >= sl.length) return { n: 1, at: function () { return 0; }, label: function () { return null; } };
      var x = sl[k].x, stride = strides[sl[k].d];
      return {
        n: x.len,
        at: function (j) { return (x.start + j * x.step) * stride; },
        label: function (j) { return x.start + j * x.step; }
      };
    }
    return { rows: axis(0), cols: axis(1), base: base, values: values, sliced: sl.length };
  }

  // ---------------------------------------------------------------------------
  // The table

  function cellText(v) {
    if (typeof v === 'number') return String(v);
    if (v === 'Infinity') return '+Inf';
    if (v === '-Infinity') return '-Inf';
    return String(v); // "NaN"
  }

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }

  function drawTable(card) {
    var st = card.__tensor;
    var v = st.data.values[st.at];
    var table = card.querySelector('[data-tensor-table]');
    var msg = card.querySelector('[data-tensor-msg]');
    var input = card.querySelector('[data-tensor-index]');
    var dims;
    try {
      dims = parseIndex(input.value, v.shape);
    } catch (err) {
      msg.textContent = err.message;
      msg.classList.add('error');
      input.setAttribute('aria-invalid', 'true');
      table.replaceChildren();
      return;
    }
    input.removeAttribute('aria-invalid');
    msg.classList.remove('error');
    var t = sliceTable(v.values, v.shape, dims);
    var cols = Math.min(t.cols.n, MAX_CELLS);
    var rows = Math.min(t.rows.n, cols > 0 ? Math.floor(MAX_CELLS / cols) : t.rows.n);
    var total = t.rows.n * t.cols.n;
    var shown = rows * cols;
    msg.textContent = 'step ' + util.fmtStep(v.step) + ' · shape (' + v.shape.join(', ') + (v.shape.length === 1 ? ',' : '') + ') · ' +
      (shown < total ? 'showing ' + util.fmtStep(shown) + ' of ' + util.fmtStep(total) + ' values' :
        util.fmtStep(total) + (total === 1 ? ' value' : ' values'));
    var frag = document.createDocumentFragment();
    if (t.sliced === 2) {
      var head = el('tr');
      head.appendChild(el('th', '', 'corner'));
      for (var c = 0; c < cols; c++) head.appendChild(el('th', String(t.cols.label(c))));
      var thead = el('thead');
      thead.appendChild(head);
      frag.appendChild(thead);
    }
    var tbody = el('tbody');
    for (var r = 0; r < rows; r++) {
      var tr_ = el('tr');
      if (t.sliced >= 1) tr_.appendChild(el('th', String(t.rows.label(r))));
      var off = t.base + t.rows.at(r);
      for (var k = 0; k < cols; k++) {
        var x = t.values[off + t.cols.at(k)];
        tr_.appendChild(el('td', cellText(x), typeof x === 'number' ? null : 'nonfinite'));
      }
      tbody.appendChild(tr_);
    }
    frag.appendChild(tbody);
    table.replaceChildren(frag);
    drawValues(card, t, v.step, input.value);
  }

  // ---------------------------------------------------------------------------
  // A step's values as pictures: the slice as a heat map (rows x columns,
  // a colour per value, diverging around 0 when values of both signs are
  // there), and a step of images as a grid.

  function drawValues(card, t, step, index) {
    var div = card.querySelector('[data-tensor-values]');
    var st = card.__tensor;
    if (!div || !st.handle || typeof echarts === 'undefined') return;
    var cells = t.rows.n * t.cols.n;
    var show = t.sliced === 2 && cells > 1 && cells <= MAX_HEAT_CELLS;
    if (div.hidden === show) div.hidden = !show;
    if (!show) return;
    var data = [], lo = Infinity, hi = -Infinity;
    for (var r = 0; r < t.rows.n; r++) {
      var off = t.base + t.rows.at(r);
      for (var c = 0; c < t.cols.n; c++) {
        var x = t.values[off + t.cols.at(c)];
        if (typeof x !== 'number') continue; // non-finite: left blank
        data.push([c, r, x]);
        if (x < lo) lo = x;
        if (x > hi) hi = x;
      }
    }
    if (!(lo <= hi)) { lo = 0; hi = 1; }
    var diverging = lo < 0 && hi > 0;
    var m = Math.max(-lo, hi);
    if (!st.valuesChart) st.valuesChart = st.handle.init(div);
    var rowLabels = [], colLabels = [];
    for (var i = 0; i < t.rows.n; i++) rowLabels.push(String(t.rows.label(i)));
    for (var j = 0; j < t.cols.n; j++) colLabels.push(String(t.cols.label(j)));
    st.valuesChart.setOption({
      animation: false,
      title: { text: 'values at step ' + util.fmtStep(step) + ', ' + index, left: 8, top: 4, textStyle: { fontSize: 12, fontWeight: 'normal' } },
      tooltip: { formatter: function (p) {
        return util.escapeHTML('[' + rowLabels[p.value[1]] + ', ' + colLabels[p.value[0]] + '] = ' + util.fmtNum(p.value[2]));
      } },
      grid: { left: 48, right: 16, top: 32, bottom: 64 },
      xAxis: { type: 'category', data: colLabels, splitArea: { show: false }, axisLabel: { fontSize: 10 } },
      yAxis: { type: 'category', data: rowLabels, inverse: true, axisLabel: { fontSize: 10 } },
      visualMap: { min: diverging ? -m : lo, max: diverging ? m : hi, orient: 'horizontal', left: 'center', bottom: 0,
        itemHeight: 160, itemWidth: 12, calculable: false, precision: 3,
        text: [util.fmtNum(diverging ? m : hi), util.fmtNum(diverging ? -m : lo)], textGap: 6,
        inRange: { color: diverging ? ['#b2182b', '#f7f7f7', '#2166ac'] : ['#f7fbff', '#6baed6', '#08306b'] } },
      series: [{ name: 'value', type: 'heatmap', data: data, progressive: 0 }]
    }, true);
    div.setAttribute('data-cells', String(data.length));
  }

  // imageShape returns [images, height, width, channels] when a step of
  // shape holds images: (N, H, W, C) or (H, W, C) with C of 1, 3 or 4.
  function imageShape(shape) {
    var s = shape.length === 3 ? [1].concat(shape) : shape;
    if (s.length !== 4 || [1, 3, 4].indexOf(s[3]) < 0) return null;
    if (s[0] < 1 || s[1] < 1 || s[2] < 1 || s[1] > MAX_IMAGE_SIDE || s[2] > MAX_IMAGE_SIDE) return null;
    return s;
  }

  // drawImages draws a step of images as a grid, each on a canvas: values
  // in [0, 255] as they are (TS-VIS's feature maps), others stretched from
  // the step's least to its greatest finite value.
  function drawImages(card, v) {
    var box = card.querySelector('[data-tensor-images]');
    if (!box) return;
    var s = imageShape(v.shape);
    box.hidden = !s;
    box.replaceChildren();
    if (!s) return;
    var lo = Infinity, hi = -Infinity;
    v.values.forEach(function (x) { if (typeof x === 'number') { if (x < lo) lo = x; if (x > hi) hi = x; } });
    var scale = lo >= 0 && hi <= 255 && hi > 1 ? function (x) { return x; }
      : function (x) { return hi > lo ? (x - lo) / (hi - lo) * 255 : 0; };
    var n = Math.min(s[0], MAX_IMAGES), h = s[1], w = s[2], ch = s[3], size = h * w * ch;
    for (var k = 0; k < n; k++) {
      var canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      var ctx = canvas.getContext('2d');
      if (!ctx) return;
      var img = ctx.createImageData(w, h);
      for (var p = 0; p < h * w; p++) {
        var at = k * size + p * ch;
        var px = function (c) { var x = v.values[at + c]; return typeof x === 'number' ? scale(x) : 0; };
        var r = px(0);
        img.data[p * 4] = r;
        img.data[p * 4 + 1] = ch >= 3 ? px(1) : r;
        img.data[p * 4 + 2] = ch >= 3 ? px(2) : r;
        img.data[p * 4 + 3] = ch === 4 ? px(3) : 255;
      }
      ctx.putImageData(img, 0, 0);
      var fig = document.createElement('figure');
      fig.appendChild(canvas);
      var cap = document.createElement('figcaption');
      cap.textContent = s[0] > 1 || v.shape.length === 4 ? String(k) : h + '\u00d7' + w;
      fig.appendChild(cap);
      box.appendChild(fig);
    }
    if (s[0] > n) {
      box.appendChild(el('p', 'and ' + (s[0] - n) + ' more images', 'steps'));
    }
  }

  function setStep(card, i) {
    var st = card.__tensor;
    var prev = st.data.values[st.at];
    st.at = i;
    var v = st.data.values[i];
    var input = card.querySelector('[data-tensor-index]');
    // A new shape gets its default index; the same shape keeps the user's.
    if (!prev || input.value === '' || prev.shape.join(',') !== v.shape.join(',')) {
      if (!prev || prev.shape.join(',') !== v.shape.join(',') || input.value === '') input.value = defaultIndex(v.shape);
    }
    var out = card.querySelector('[data-tensor-step-label]');
    // v.note names the write of a step its run restarted or rewrote.
    if (out) out.textContent = 'step ' + util.fmtStep(v.step) + ' (' + (v.note ? v.note + '; ' : '') + (i + 1) + ' of ' + st.data.values.length + ')';
    drawImages(card, v);
    drawTable(card);
  }

  // ---------------------------------------------------------------------------
  // Charts

  function num(v) { return v === null || v === undefined ? null : util.toNumber(v); }

  function statsOption(d, color) {
    // A step a later write replaced (a restart's rerun) is drawn faded
    // beside the lines, not on them: the lines go through each step's
    // current write once.
    var superseded = {};
    (d.superseded || []).forEach(function (i) { superseded[i] = true; });
    var current = [], replaced = [];
    d.steps.forEach(function (_, i) { (superseded[i] ? replaced : current).push(i); });
    function line(name, ys, axis, extra) {
      var s = {
        name: name, type: 'line', yAxisIndex: axis, showSymbol: current.length < 60, symbolSize: 4,
        data: current.map(function (i) { return [d.steps[i], num(ys[i])]; })
      };
      Object.keys(extra || {}).forEach(function (k) { s[k] = extra[k]; });
      return s;
    }
    var series = [
      line('max', d.max, 0, { lineStyle: { color: color, width: 1, type: 'dashed' }, itemStyle: { color: color }, symbol: 'triangle' }),
      line('mean', d.mean, 0, { lineStyle: { color: color, width: 2.5 }, itemStyle: { color: color } }),
      line('min', d.min, 0, { lineStyle: { color: color, width: 1, type: 'dotted' }, itemStyle: { color: color }, symbol: 'emptyCircle' })
    ];
    if (replaced.length) {
      // Each superseded write's mean, min and max, faded.
      [['mean', d.mean, 'circle'], ['max', d.max, 'triangle'], ['min', d.min, 'emptyCircle']].forEach(function (m) {
        series.push({
          name: 'superseded ' + m[0], type: 'scatter', yAxisIndex: 0, symbol: m[2], symbolSize: 6, z: 1,
          itemStyle: { color: color, opacity: 0.35 },
          data: replaced.map(function (i) { return [d.steps[i], num(m[1][i])]; })
        });
      });
    }
    var counts = [['zeros', d.zero, '#7a869a'], ['NaN', d.nan, '#b3261e'], ['+Inf', d.pos_inf, '#e66100'], ['-Inf', d.neg_inf, '#8f3f97']];
    counts.forEach(function (c) {
      if (current.some(function (i) { return c[1][i] > 0; })) {
        series.push(line(c[0], c[1], 1, { step: 'middle', lineStyle: { color: c[2], width: 1 }, itemStyle: { color: c[2] } }));
      }
    });
    return {
      animation: false,
      title: { text: 'statistics per step', left: 8, top: 4, textStyle: { fontSize: 12, fontWeight: 'normal' } },
      tooltip: { trigger: 'axis', valueFormatter: function (v) { return v === null || v === undefined ? '–' : util.fmtNum(v); } },
      legend: { bottom: 0, type: 'scroll' },
      grid: { left: 56, right: 48, top: 32, bottom: 52 },
      xAxis: { type: 'value', scale: true,
        axisLabel: { formatter: function (v) { return util.fmtStep(v); } } },
      yAxis: [{ type: 'value', scale: true }, { type: 'value', name: 'count', minInterval: 1, splitLine: { show: false } }],
      series: series
    };
  }

  function heatmapOption(d) {
    var bins = d.edges.length - 1;
    var superseded = {};
    (d.superseded || []).forEach(function (i) { superseded[i] = true; });
    var ranges = [], ticks = [];
    for (var b = 0; b < bins; b++) {
      var lo = num(d.edges[b]), hi = num(d.edges[b + 1]);
      ranges.push('[' + util.fmtNum(lo) + ', ' + util.fmtNum(hi) + (b === bins - 1 ? ']' : ')'));
      // One bin per integer (integer tensors): label it by its integer.
      ticks.push(Math.abs(hi - lo - 1) < 1e-9 && Number.isInteger(lo + 0.5) ? util.fmtNum(lo + 0.5) : util.fmtNum((lo + hi) / 2));
    }
    var data = [], top = 0;
    d.hist.forEach(function (row, x) {
      row.forEach(function (n, y) {
        if (n > 0) { data.push([x, y, n]); top = Math.max(top, n); }
      });
    });
    return {
      animation: false,
      title: { text: 'histogram per step (bins shared by every step)', left: 8, top: 4, textStyle: { fontSize: 12, fontWeight: 'normal' } },
      tooltip: {
        formatter: function (p) {
          return 'step ' + util.escapeHTML(util.fmtStep(d.steps[p.value[0]]) + (superseded[p.value[0]] ? ' (superseded)' : '')) + '<br>' + util.escapeHTML(ranges[p.value[1]]) + ': ' + p.value[2];
        }
      },
      grid: { left: 64, right: 16, top: 32, bottom: 64 },
      // A superseded write keeps its column, named as such beside the
      // current write of its step.
      xAxis: { type: 'category', data: d.steps.map(function (s, i) { return util.fmtStep(s) + (superseded[i] ? ' (superseded)' : ''); }) },
      yAxis: { type: 'category', data: ticks, axisLabel: { fontSize: 10, interval: Math.max(0, Math.ceil(bins / 10) - 1) } },
      visualMap: { min: 0, max: Math.max(top, 1), orient: 'horizontal', left: 'center', bottom: 0,
        itemHeight: 160, itemWidth: 12, text: [String(top), 'count 0'], textGap: 6, calculable: false,
        inRange: { color: ['#e8f0fb', '#1a5fb4', '#0b2a55'] } },
      series: [{ name: 'count', type: 'heatmap', data: data }]
    };
  }

  // drawCharts draws a card's charts and its table: the lifecycle's draw.
  function drawCharts(card, h) {
    var st = card.__tensor;
    if (typeof echarts === 'undefined') return;
    st.handle = h;
    var color = util.colorOf(card.getAttribute('data-run'));
    var statsDiv = card.querySelector('[data-tensor-stats]');
    h.init(statsDiv).setOption(statsOption(st.data, color));
    var heat = card.querySelector('[data-tensor-heatmap]');
    if (st.data.edges.length > 1 && st.data.hist.length) h.init(heat).setOption(heatmapOption(st.data));
    else heat.hidden = true;
    if (st.data.values.length) setStep(card, st.at);
  }

  // ---------------------------------------------------------------------------
  // Setup

  function setup(main) {
    Array.prototype.slice.call(main.querySelectorAll('article.tensor-card')).forEach(setupCard);
    // The runs the page leaves out over its budget, on demand (app.js).
    tr.moreRuns(main, function (sec, run, html) {
      var card = tr.insertCard(sec, html);
      if (card) setupCard(card);
    });
  }

  // setupCard readies a card: its data, controls and charts.
  function setupCard(card) {
    var script = card.querySelector('script.tensor-data');
    var data;
    try { data = JSON.parse(script.textContent); } catch (e) { return; }
    if (!data) return; // the card's note says why
    // Go writes an empty list as null; render leaves out series without
    // steps, but a card with none must still draw empty charts rather
    // than throw and leave the rest of the page undrawn.
    ['steps', 'wall', 'count', 'min', 'max', 'mean', 'nan', 'pos_inf', 'neg_inf', 'zero', 'edges', 'hist', 'values'].forEach(function (k) {
      if (!Array.isArray(data[k])) data[k] = [];
    });
    card.__tensor = { data: data, at: Math.max(0, data.values.length - 1) };
    var name = card.querySelector('[data-run-color]');
    if (name) name.style.borderColor = util.colorOf(name.getAttribute('data-run-color'));
    var slider = card.querySelector('[data-tensor-slider]');
    if (slider) {
      slider.max = String(Math.max(0, data.values.length - 1));
      slider.value = String(card.__tensor.at);
      slider.disabled = data.values.length < 2;
      slider.addEventListener('input', function () { setStep(card, Number(slider.value)); });
    }
    var input = card.querySelector('[data-tensor-index]');
    if (input) input.addEventListener('input', function () { drawTable(card); });
    tr.lazyChart(card, function (h) { drawCharts(card, h); });
  }

  tr.onPage('tensors', setup);
})();

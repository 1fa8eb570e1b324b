/*
 * trainreport embeddings page: one (run, embedding, step) at a time, its
 * points laid out by PCA, t-SNE or UMAP in 2-D (an ECharts scatter, or the
 * sprite's thumbnails as points) or 3-D (ECharts GL's scatter3D), coloured
 * by a metadata column, labelled by another, searched by a regular
 * expression (regexp.js), and a clicked point's nearest neighbours in the
 * original space. Everything is computed in Go (internal/analysis): the
 * page's list is inline (#embedding-index), each embedding's data is its
 * data file loaded as a script (data/embeddings/...js) or, in the single
 * file, an inline element. State in the URL hash: emb, estep, emethod,
 * edims, ecolor, elabel, esearch, epoint, ethumbs (prefixed: the single
 * file's pages share one hash, and the hparams page has a color). No HTML
 * is built from strings but the tooltip's, from escaped text.
 */
(function () {
  'use strict';
  var T = window.trainreport;
  var util = T.util;
  var METHOD_TITLES = { pca: 'PCA', tsne: 't-SNE', umap: 'UMAP' };
  var MAX_CATEGORIES = 20; // beyond, a column is coloured by its first 19 values and "other"
  var GRADIENT = ['#440154', '#3b528b', '#21918c', '#5ec962', '#fde725']; // viridis stops
  var THUMB_POINTS = 5000; // thumbnails as points up to this many points

  function $(main, sel) { return main.querySelector(sel); }

  function option(sel, value, text) {
    var o = document.createElement('option');
    o.value = value;
    o.textContent = text;
    sel.appendChild(o);
    return o;
  }

  // hasWebGL tells whether the browser can draw the 3-D view (ECharts GL
  // draws with WebGL).
  var webgl = null;
  function hasWebGL() {
    if (webgl === null) {
      try {
        var c = document.createElement('canvas');
        webgl = !!(window.WebGLRenderingContext && (c.getContext('webgl') || c.getContext('experimental-webgl')));
      } catch (e) {
        webgl = false;
      }
    }
    return webgl;
  }

  // count writes 10000 as "10,000", as the pages' Go side does.
  function count(n) { return Number(n).toLocaleString('en-US'); }

  function hexRGB(h) { return [1, 3, 5].map(function (i) { return parseInt(h.substr(i, 2), 16); }); }

  function gradient(t) {
    t = Math.min(1, Math.max(0, t));
    var x = t * (GRADIENT.length - 1), i = Math.min(GRADIENT.length - 2, Math.floor(x)), f = x - i;
    var a = hexRGB(GRADIENT[i]), b = hexRGB(GRADIENT[i + 1]);
    return 'rgb(' + a.map(function (v, k) { return Math.round(v + (b[k] - v) * f); }).join(',') + ')';
  }

  T.onPage('embeddings', function (main) {
    var index = JSON.parse(document.getElementById('embedding-index').textContent);
    var el = {
      select: $(main, '[data-emb-select]'), step: $(main, '[data-emb-step]'), method: $(main, '[data-emb-method]'),
      dims: $(main, '[data-emb-dims]'), color: $(main, '[data-emb-color]'), label: $(main, '[data-emb-label]'),
      search: $(main, '[data-emb-search]'), sprites: $(main, '[data-emb-sprites]'), spriteLabel: $(main, '[data-emb-sprite-label]'),
      spriteNote: $(main, '[data-emb-sprite-note]'),
      status: $(main, '[data-emb-status]'), variance: $(main, '[data-emb-variance]'), chart: $(main, '[data-emb-chart]'),
      neighbors: $(main, '[data-emb-neighbors]')
    };
    var st = { emb: 0, step: -1, method: 'pca', dims: '2', color: '', label: '', search: '', point: -1, sprites: true };
    var cache = {}; // embedding index -> parsed data file
    var loading = {};
    var view = null; // what is drawn: {data, stepData, proj, coords, points, labels, colors, match}
    var spriteImg = {}; // src -> Image

    index.forEach(function (e, i) { option(el.select, String(i), e.run + ' / ' + e.name); });

    T.state.key('emb', function (v) { st.emb = Math.max(0, Math.min(index.length - 1, parseInt(v, 10) || 0)); },
      function () { return st.emb ? String(st.emb) : null; });
    T.state.key('estep', function (v) { st.step = v == null ? -1 : parseInt(v, 10); }, function () { return st.step >= 0 ? String(st.step) : null; });
    T.state.key('emethod', function (v) { st.method = v || 'pca'; }, function () { return st.method !== 'pca' ? st.method : null; });
    T.state.key('edims', function (v) { st.dims = v === '3' ? '3' : '2'; }, function () { return st.dims === '3' ? '3' : null; });
    T.state.key('ecolor', function (v) { st.color = v || ''; }, function () { return st.color || null; });
    T.state.key('elabel', function (v) { st.label = v || ''; }, function () { return st.label || null; });
    T.state.key('esearch', function (v) { st.search = v || ''; }, function () { return st.search || null; });
    T.state.key('epoint', function (v) { st.point = v == null ? -1 : parseInt(v, 10); }, function () { return st.point >= 0 ? String(st.point) : null; });
    T.state.key('ethumbs', function (v) { st.sprites = v !== '0'; }, function () { return st.sprites ? null : '0'; });

    function changed(save) {
      if (save !== false) T.state.save();
      T.state.apply();
    }
    el.select.addEventListener('change', function () { st.emb = +el.select.value; st.step = -1; st.point = -1; changed(); });
    el.step.addEventListener('change', function () { st.step = +el.step.value; st.point = -1; changed(); });
    el.method.addEventListener('change', function () { st.method = el.method.value; changed(); });
    el.dims.addEventListener('change', function () { st.dims = el.dims.value; changed(); });
    el.color.addEventListener('change', function () { st.color = el.color.value; changed(); });
    el.label.addEventListener('change', function () { st.label = el.label.value; changed(); });
    el.sprites.addEventListener('change', function () { st.sprites = el.sprites.checked; changed(); });
    el.search.addEventListener('input', function () { st.search = el.search.value; T.state.save(300); T.state.apply(); });

    // load returns the data of embedding i, or null while it loads.
    function load(i) {
      if (cache[i]) return cache[i];
      var e = index[i];
      if (e.inline) {
        cache[i] = JSON.parse(document.getElementById(e.inline).textContent);
        return cache[i];
      }
      if (!loading[i]) {
        loading[i] = true;
        T.loadData(e.file, e.script).then(function (text) {
          cache[i] = JSON.parse(text);
          T.state.apply();
        }, function (err) {
          cache[i] = { error: String(err && err.message || err), steps: [] };
          T.state.apply();
        });
      }
      return null;
    }

    function stepOf(data) {
      var n = data.steps.length;
      if (st.step < 0 || st.step >= n) return n - 1;
      return st.step;
    }

    function columnIndex(s, name) { return s.columns.indexOf(name); }

    function labelOf(s, col, p) {
      var row = s.metadata[p];
      if (col >= 0 && row && row[col] != null && row[col] !== '') return String(row[col]);
      return '#' + p;
    }

    // colourer returns f(point) -> colour for the column (null: none), and
    // a legend text.
    function colourer(s, col) {
      if (col < 0) return null;
      // Rows of points no view shows are null (render/embeddingsjson.go).
      var values = s.metadata.map(function (r) { return r ? r[col] : undefined; });
      var nums = values.map(function (v) { return v === '' || v == null ? NaN : Number(v); });
      var numeric = values.length > 0 && nums.every(function (v, i) { return isFinite(v) || values[i] === '' || values[i] == null; }) &&
        nums.some(isFinite);
      var distinct = new Map();
      values.forEach(function (v) { if (v !== undefined && !distinct.has(v)) distinct.set(v, distinct.size); });
      if (numeric && distinct.size > MAX_CATEGORIES) {
        var lo = Infinity, hi = -Infinity;
        nums.forEach(function (v) { if (isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); } });
        return {
          legend: 'gradient from ' + util.fmtNum(lo) + ' (purple) to ' + util.fmtNum(hi) + ' (yellow)',
          of: function (p) { var v = nums[p]; return isFinite(v) ? gradient(hi > lo ? (v - lo) / (hi - lo) : 0.5) : '#bbbbbb'; }
        };
      }
      return {
        legend: distinct.size + ' value' + (distinct.size === 1 ? '' : 's') + (distinct.size > MAX_CATEGORIES ? ' (the first ' + (MAX_CATEGORIES - 1) + ' coloured, the rest grey)' : ''),
        of: function (p) {
          var k = distinct.get(values[p]);
          if (k == null || (distinct.size > MAX_CATEGORIES && k >= MAX_CATEGORIES - 1)) return '#bbbbbb';
          return util.palette[k % util.palette.length];
        }
      };
    }

    function syncSelect(sel, values, titles, value) {
      var key = values.join('\u0000') + '\u0001' + titles.join('\u0000');
      if (sel.__key !== key) {
        sel.textContent = '';
        values.forEach(function (v, i) { option(sel, v, titles[i]); });
        sel.__key = key;
      }
      sel.value = value;
    }

    // stepLabels names the steps of an embedding for its select: "step N",
    // and, where entries share a step (a config listing one tensor name
    // twice, with other files), which entry of it each is, with its file.
    function stepLabels(steps) {
      var seen = new Map();
      steps.forEach(function (x) { seen.set(x.step, (seen.get(x.step) || 0) + 1); });
      var at = new Map();
      return steps.map(function (x) {
        var n = seen.get(x.step);
        if (n < 2) return 'step ' + x.step;
        var k = (at.get(x.step) || 0) + 1;
        at.set(x.step, k);
        return 'step ' + x.step + ' \u00b7 entry ' + k + ' of ' + n;
      });
    }

    // build prepares the view of the state, or says why there is none.
    function build() {
      el.select.value = String(st.emb);
      var data = load(st.emb);
      if (!data) return { wait: 'Loading ' + index[st.emb].name + '…' };
      if (data.error) return { error: data.error };
      var si = stepOf(data), s = data.steps[si];
      syncSelect(el.step, data.steps.map(function (_, i) { return String(i); }), stepLabels(data.steps), String(si));
      var methods = s.projections.map(function (p) { return p.method; });
      syncSelect(el.method, methods, methods.map(function (m) { return METHOD_TITLES[m] || m; }), st.method);
      var proj = s.projections.filter(function (p) { return p.method === st.method; })[0] || s.projections[0];
      if (proj) el.method.value = proj.method;
      var cols = s.columns;
      syncSelect(el.color, [''].concat(cols), ['none'].concat(cols), cols.indexOf(st.color) >= 0 ? st.color : '');
      syncSelect(el.label, cols.length ? cols : [''], cols.length ? cols : ['point index'], cols.indexOf(st.label) >= 0 ? st.label : (cols[0] || ''));
      el.dims.value = st.dims;
      el.spriteLabel.hidden = !(s.sprite && s.sprite.src);
      // The 3-D view draws dots (ECharts GL has no image points): the box
      // is not ticked there, and says why.
      el.sprites.checked = st.sprites && st.dims !== '3';
      el.sprites.disabled = st.dims === '3';
      el.spriteNote.hidden = st.dims !== '3';
      if (el.search.value !== st.search) el.search.value = st.search;
      if (s.error && !s.projections.length) return { error: 'step ' + s.step + ': ' + s.error };
      if (!proj) return { error: 'no projection of step ' + s.step };
      if (proj.error) return { error: (METHOD_TITLES[proj.method] || proj.method) + ': ' + proj.error };
      if (st.dims === '3' && !hasWebGL()) return { error: 'The 3-D view needs WebGL, which this browser does not offer: choose 2-D.' };
      var n = s.shape[0];
      var points = proj.sample || proj.coords_2d.map(function (_, i) { return i; });
      var labelCol = columnIndex(s, el.label.value);
      var colour = colourer(s, columnIndex(s, el.color.value));
      var re = null, reError = '';
      if (st.search) {
        var c = T.regexp.compile(st.search);
        if (c.valid) re = c; else reError = c.error;
      }
      var labels = points.map(function (p) { return labelOf(s, labelCol, p); });
      var match = re ? labels.map(function (l) { return re.test(l); }) : null;
      return {
        data: data, s: s, si: si, proj: proj, n: n, points: points, labels: labels, colour: colour,
        match: match, reError: reError, coords: st.dims === '3' ? proj.coords_3d : proj.coords_2d
      };
    }

    // thumbStyle is the CSS of a span showing point p's cell of the sprite
    // at size pixels wide: encodeURI leaves no quote in the URL, and
    // the tooltip's HTML escapes the whole for its attribute.
    function thumbStyle(s, p, size) {
      var sp = s.sprite, dim = sp.single_image_dim, per = Math.floor(sp.width / dim[0]);
      var scale = size / dim[0];
      return 'width:' + size + 'px;height:' + Math.round(dim[1] * scale) + 'px;background-image:url("' +
        encodeURI(sp.src) + '");background-size:' + (sp.width * scale) + 'px ' + (sp.height * scale) +
        'px;background-position:-' + ((p % per) * dim[0] * scale) + 'px -' + (Math.floor(p / per) * dim[1] * scale) + 'px';
    }

    function tooltip(v) {
      return function (params) {
        var i = params.data && params.data.value ? params.data.value[v.dims] : params.value[v.dims];
        var p = v.points[i];
        var html = '<b>' + util.escapeHTML(v.labels[i]) + '</b><br>point ' + p;
        var row = v.s.metadata[p];
        if (row && v.s.columns.length > 1) {
          v.s.columns.forEach(function (c, k) { html += '<br>' + util.escapeHTML(c) + ': ' + util.escapeHTML(String(row[k])); });
        }
        if (v.s.sprite && v.s.sprite.src) html += '<br><span class="emb-thumb" style="' + util.escapeHTML(thumbStyle(v.s, p, 64)) + '"></span>';
        return html;
      };
    }

    function item(v, i) {
      var c = v.coords[i], val = c.concat([i]);
      var style = {};
      if (v.colour) style.color = v.colour.of(v.points[i]);
      if (v.match) style.opacity = v.match[i] ? 1 : 0.12;
      if (v.points[i] === st.point) { style.borderColor = '#000'; style.borderWidth = 2; }
      var o = { value: val, itemStyle: style };
      if (v.match && v.match[i]) o.symbolSize = v.dims === 3 ? 9 : 10;
      return o;
    }

    function spriteImage(src) {
      if (!spriteImg[src]) {
        var img = new Image();
        img.onload = function () { if (chart) render(); };
        img.src = src;
        spriteImg[src] = img;
      }
      return spriteImg[src];
    }

    // axisNames names the view's axes: a PCA axis by its component and
    // the variance it explains, as TensorBoard's projector does; t-SNE
    // and UMAP axes mean nothing of their own.
    function axisNames(v) {
      var ex = v.proj.method === 'pca' && v.proj.explained || null;
      return ['x', 'y', 'z'].slice(0, v.dims).map(function (n, k) {
        if (v.proj.method !== 'pca') return n;
        return 'PC' + (k + 1) + (ex && ex[k] != null ? ' (' + (100 * ex[k]).toFixed(1) + '%)' : '');
      });
    }

    // niceStep is a round step (1, 2 or 5 times a power of ten) of about
    // span / parts.
    function niceStep(span, parts) {
      var raw = span / parts;
      if (!(raw > 0) || !isFinite(raw)) return 1;
      var p = Math.pow(10, Math.floor(Math.log10(raw))), f = raw / p;
      return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * p;
    }

    // oneScale returns each axis' extent so that a unit is as long on
    // every axis, for the PCA view: components explaining 86% and 1% of
    // the variance must not both fill the chart, which would draw a
    // stretched line as a round cloud. lens are the axes' lengths (pixels
    // in 2-D, the box's sides in 3-D); null lens fit the lengths to the
    // data instead (3-D: the box takes the data's proportions), each at
    // least minLen of the longest. The extents are whole steps of one
    // round step, so the ticks are round on every axis.
    function oneScale(coords, dims, lens, minLen) {
      var lo = [], hi = [];
      for (var k = 0; k < dims; k++) { lo.push(Infinity); hi.push(-Infinity); }
      coords.forEach(function (c) {
        for (var k = 0; k < dims; k++) {
          var x = c[k];
          if (isFinite(x)) { if (x < lo[k]) lo[k] = x; if (x > hi[k]) hi[k] = x; }
        }
      });
      var span = 0;
      for (var k2 = 0; k2 < dims; k2++) {
        if (!(lo[k2] <= hi[k2])) { lo[k2] = 0; hi[k2] = 0; }
        span = Math.max(span, hi[k2] - lo[k2]);
      }
      var step = niceStep(span || 1, 5);
      var min = lo.map(function (x) { return Math.floor(x / step) * step; });
      var max = hi.map(function (x, k) { return Math.max(Math.ceil(x / step) * step, min[k] + step); });
      var ranges = min.map(function (m, k) { return max[k] - m; });
      var longest = Math.max.apply(null, ranges);
      if (!lens) {
        // The box's sides in proportion to the extents (GL's box sides
        // are 100 at most); a flat one is drawn thin, never as nothing.
        lens = ranges.map(function (r) { return Math.max(100 * r / longest, 100 * minLen); });
      }
      // Units per pixel (or per side unit): the axis that needs most sets
      // it; the others widen about their middle.
      var u = Math.max.apply(null, ranges.map(function (r, k) { return r / lens[k]; }));
      return {
        lens: lens, unit: u,
        min: min.map(function (m, k) { var c = (m + max[k]) / 2; return c - u * lens[k] / 2; }),
        max: min.map(function (m, k) { var c = (m + max[k]) / 2; return c + u * lens[k] / 2; })
      };
    }

    // GRID_2D is the 2-D chart's margins; BOX_MIN the least side of the
    // 3-D box, as a part of the longest.
    var GRID_2D = { left: 56, right: 24, top: 20, bottom: 48 }, BOX_MIN = 0.04;

    function chartOption(v) {
      var tip = { trigger: 'item', confine: true, formatter: tooltip(v) };
      var data = v.coords.map(function (_, i) { return item(v, i); });
      var names = axisNames(v), pca = v.proj.method === 'pca';
      if (v.dims === 3) {
        // Labels a reader can read over the points and the grid: dark,
        // on a light ground, numbers written short.
        var axis = function (k) {
          return {
            type: 'value', name: names[k], nameGap: 24, splitNumber: 4,
            nameTextStyle: { fontSize: 14, color: '#1a1a1a', fontWeight: 'bold', backgroundColor: 'rgba(255,255,255,0.85)', padding: [2, 4] },
            axisLabel: { margin: 10, formatter: function (x) { return util.fmtNum(x); },
              textStyle: { fontSize: 12, color: '#222', backgroundColor: 'rgba(255,255,255,0.85)', padding: [1, 3] } },
            axisLine: { lineStyle: { color: '#555' } }, splitLine: { lineStyle: { color: '#ddd' } }
          };
        };
        var xa = axis(0), ya = axis(1), za = axis(2);
        var grid3D = {
          // The whole box in the canvas: seen from further than ECharts
          // GL's default (200), which cut its bottom off in a 640 px chart.
          boxWidth: 100, boxDepth: 100, boxHeight: 100,
          viewControl: { projection: 'perspective', autoRotate: false, distance: 240, minDistance: 120, maxDistance: 600 },
          axisPointer: { show: false }
        };
        if (pca) {
          var sc = oneScale(v.coords, 3, null, BOX_MIN);
          // x across the box's width, y its depth, z its height.
          grid3D.boxWidth = sc.lens[0]; grid3D.boxDepth = sc.lens[1]; grid3D.boxHeight = sc.lens[2];
          [xa, ya, za].forEach(function (a, k) { a.min = sc.min[k]; a.max = sc.max[k]; });
          // A flat box is seen from nearer, in proportion to its diagonal:
          // it fills the chart as the cube does.
          var diag = Math.sqrt(sc.lens.reduce(function (a, l) { return a + l * l; }, 0));
          grid3D.viewControl.distance = Math.max(120, Math.round(240 * diag / Math.sqrt(3 * 100 * 100)));
        }
        return {
          animation: false, tooltip: tip, grid3D: grid3D, xAxis3D: xa, yAxis3D: ya, zAxis3D: za,
          series: [{ type: 'scatter3D', symbolSize: 5, data: data, itemStyle: { color: '#1f77b4', opacity: 0.9 }, emphasis: { label: { show: false } } }]
        };
      }
      var base = {
        animation: false, tooltip: tip, grid: Object.assign({}, GRID_2D),
        xAxis: { type: 'value', scale: true, name: names[0], nameLocation: 'middle', nameGap: 28, splitLine: { lineStyle: { color: '#f0f0f0' } } },
        yAxis: { type: 'value', scale: true, name: names[1], nameLocation: 'middle', nameGap: 42, splitLine: { lineStyle: { color: '#f0f0f0' } } },
        dataZoom: [{ type: 'inside', xAxisIndex: 0, filterMode: 'none' }, { type: 'inside', yAxisIndex: 0, filterMode: 'none' }]
      };
      if (pca && chart) {
        // One scale on both axes, in the chart's pixels: the div's size,
        // which the chart takes when it is resized after this option
        // (the key below draws the chart again when the size changes).
        var w = (el.chart.clientWidth || chart.getWidth()) - GRID_2D.left - GRID_2D.right;
        var h = (el.chart.clientHeight || chart.getHeight()) - GRID_2D.top - GRID_2D.bottom;
        if (w > 0 && h > 0) {
          var sc2 = oneScale(v.coords, 2, [w, h]);
          [base.xAxis, base.yAxis].forEach(function (a, k) {
            Object.assign(a, { scale: false, min: sc2.min[k], max: sc2.max[k], axisLabel: { showMinLabel: false, showMaxLabel: false } });
          });
        }
      }
      var sp = v.s.sprite;
      if (sp && sp.src && st.sprites && v.coords.length <= THUMB_POINTS) {
        // Thumbnails as points: a custom series drawing each point's cell
        // of the sprite (zrender crops the image; no canvas is read back,
        // so a sprite from file:// works).
        var img = spriteImage(sp.src), dim = sp.single_image_dim, per = Math.max(1, Math.floor(sp.width / dim[0]));
        var size = v.coords.length > 1000 ? 14 : 24;
        base.series = [{
          type: 'custom', data: data, encode: { x: 0, y: 1, tooltip: [2] },
          renderItem: function (params, api) {
            var i = api.value(2), p = v.points[i], at = api.coord([api.value(0), api.value(1)]);
            var faded = v.match && !v.match[i];
            var kids = [{
              type: 'image', style: {
                image: img, x: at[0] - size / 2, y: at[1] - size / 2, width: size, height: size, opacity: faded ? 0.15 : 1,
                sx: (p % per) * dim[0], sy: Math.floor(p / per) * dim[1], sWidth: dim[0], sHeight: dim[1]
              }
            }];
            if (v.colour || (v.match && v.match[i]) || p === st.point) {
              kids.push({
                type: 'rect', shape: { x: at[0] - size / 2 - 1, y: at[1] - size / 2 - 1, width: size + 2, height: size + 2 },
                style: { fill: null, stroke: p === st.point ? '#000' : (v.match && v.match[i] ? '#d62728' : v.colour.of(p)), lineWidth: 2, opacity: faded ? 0.15 : 1 }
              });
            }
            return { type: 'group', children: kids };
          }
        }];
        return base;
      }
      base.series = [{ type: 'scatter', symbolSize: v.coords.length > 10000 ? 3 : 6, large: false, data: data, itemStyle: { color: '#1f77b4' } }];
      return base;
    }

    function neighbours(v) {
      el.neighbors.textContent = '';
      var nb = v.s.neighbors;
      var p = st.point;
      if (p < 0 || p >= v.n) {
        var hint = document.createElement('p');
        hint.className = 'note';
        hint.textContent = nb ? 'Click a point to list its ' + nb.k + ' nearest neighbours in the original space.' : 'No neighbour lists for this embedding.';
        el.neighbors.appendChild(hint);
        return;
      }
      var h = document.createElement('h3');
      var labelCol = columnIndex(v.s, el.label.value);
      h.textContent = labelOf(v.s, labelCol, p) + ' (point ' + p + ')';
      el.neighbors.appendChild(h);
      var row = nb ? (nb.sample ? nb.sample.indexOf(p) : p) : -1;
      if (row < 0) {
        var none = document.createElement('p');
        none.className = 'note';
        none.textContent = nb ? 'This point is not among the ' + count(nb.sample.length) + ' points with neighbour lists.' : 'No neighbour lists for this embedding.';
        el.neighbors.appendChild(none);
        return;
      }
      [['euclidean', 'Euclidean'], ['cosine', 'Cosine']].forEach(function (m) {
        var t = document.createElement('table');
        t.setAttribute('data-emb-metric', m[0]);
        t.createCaption().textContent = m[1];
        var head = t.createTHead().insertRow();
        ['#', 'neighbour', 'distance'].forEach(function (x) { var th = document.createElement('th'); th.textContent = x; head.appendChild(th); });
        var body = t.createTBody();
        nb[m[0]][row].forEach(function (q, k) {
          var tr = body.insertRow();
          tr.setAttribute('data-point', String(q));
          tr.insertCell().textContent = String(k + 1);
          var cell = tr.insertCell();
          if (v.s.sprite && v.s.sprite.src) {
            var th = document.createElement('span');
            th.className = 'emb-thumb';
            th.setAttribute('style', thumbStyle(v.s, q, 20));
            cell.appendChild(th);
            cell.appendChild(document.createTextNode(' '));
          }
          cell.appendChild(document.createTextNode(labelOf(v.s, labelCol, q) + ' (' + q + ')'));
          var d = tr.insertCell();
          d.className = 'num';
          d.textContent = Number(nb[m[0] + '_dist'][row][k]).toPrecision(4);
        });
        el.neighbors.appendChild(t);
      });
    }

    function status(v) {
      el.status.textContent = '';
      el.variance.textContent = '';
      if (v.wait || v.error) {
        var m = document.createElement('span');
        if (v.error) m.className = 'bad';
        m.textContent = v.wait || v.error;
        el.status.appendChild(m);
        return;
      }
      var name = METHOD_TITLES[v.proj.method] || v.proj.method;
      var text = name + ' in ' + v.dims + '-D of ' + (v.proj.sampled ? 'a seeded random sample of ' + count(v.points.length) + ' of ' : 'all ') +
        count(v.n) + ' points of ' + v.s.shape.slice(1).join('×') + ' values, step ' + v.s.step + '.';
      if (v.proj.sampled) text += ' The cap on ' + name + ' left the others out.';
      if (v.proj.note) text += ' ' + v.proj.note.charAt(0).toUpperCase() + v.proj.note.slice(1) + '.';
      if (v.s.skipped) text += ' ' + v.s.skipped.join('; ') + '.';
      if (v.s.repeats > 0) text += ' ' + (v.s.file || 'Its source') + ' lists this entry ' + (v.s.repeats + 1) + ' times, the same tensor and files: drawn once.';
      if (v.s.non_finite) text += ' ' + v.s.non_finite + ' NaN or infinite values taken as 0.';
      if (v.colour) text += ' Colour: ' + el.color.value + ', ' + v.colour.legend + '.';
      if (v.match) text += ' Search: ' + count(v.match.filter(Boolean).length) + ' of ' + count(v.points.length) + ' shown points match.';
      if (v.reError) text += ' Search pattern invalid: ' + v.reError + '.';
      el.status.textContent = text;
      if (v.proj.method === 'pca' && v.proj.explained) {
        el.variance.textContent = 'Variance explained: ' + v.proj.explained.slice(0, v.dims).map(function (e, k) {
          return 'component ' + (k + 1) + ' ' + (100 * e).toFixed(1) + '%';
        }).join(', ') + ' (total ' + (100 * v.proj.explained.slice(0, v.dims).reduce(function (a, b) { return a + b; }, 0)).toFixed(1) + '%).' +
          ' The axes share one scale: the spread along each component is its share.';
      }
    }

    var chart = null, chartH = null, current = null;
    function render() {
      var v = build();
      if (!v.wait && !v.error) v.dims = +st.dims;
      current = v;
      status(v);
      main.setAttribute('data-emb-drawn', v.wait ? '' : v.error ? 'error' : st.emb + '/' + v.si + '/' + v.proj.method + '/' + st.dims);
      if (!chart) return;
      if (v.wait || v.error) { chart.clear(); el.neighbors.textContent = ''; return; }
      chart.setOption(chartOption(v), true);
      neighbours(v);
    }

    chartH = T.lazyChart(el.chart, function (h) {
      chart = h.init(el.chart);
      chart.on('click', function (params) {
        if (!current || !current.points) return;
        var val = params.data && params.data.value ? params.data.value : params.value;
        var i = val[current.dims];
        st.point = current.points[i];
        T.state.save();
        render();
      });
      render();
    }, { eager: true, update: render, key: function () { return JSON.stringify(st) + '|' + Object.keys(cache).length + '|' + el.chart.clientWidth + 'x' + el.chart.clientHeight; } });
    T.state.onApply(function () { if (!chart) build(); });
  });
})();

/*
 * trainreport Visdom page: each window of each Visdom environment drawn as
 * Visdom drew it, with ECharts equivalents of its Plotly traces (see
 * render/visdom.go for the data): scatter traces as lines or points (stems
 * and quivers are lines broken by nulls), bars, heat maps (surfaces and
 * contours too, as heat maps of z), box plots (quartiles computed here, as
 * Plotly does), pies, and 3-D points seen from above. Titles and axis
 * titles are the window's. Charts are drawn when scrolled into view
 * (app.js's lifecycle). Scoped to main.page[data-page="visdom"].
 */
(function () {
  'use strict';
  var T = window.trainreport;
  var util = T.util;

  function nums(a) { return (a || []).map(util.toNumber); }

  // quartile is Plotly's "linear" quartile of sorted values.
  function quartile(s, q) {
    var pos = (s.length - 1) * q, lo = Math.floor(pos), hi = Math.ceil(pos);
    return s[lo] + (s[hi] - s[lo]) * (pos - lo);
  }

  // boxOf returns [min whisker, Q1, median, Q3, max whisker] and the
  // outliers (beyond 1.5 IQR), as Plotly draws a box.
  function boxOf(vals) {
    var s = vals.filter(isFinite).sort(function (a, b) { return a - b; });
    if (!s.length) return { box: [], out: [] };
    var q1 = quartile(s, 0.25), med = quartile(s, 0.5), q3 = quartile(s, 0.75), iqr = q3 - q1;
    var inside = s.filter(function (v) { return v >= q1 - 1.5 * iqr && v <= q3 + 1.5 * iqr; });
    return {
      box: [inside[0], q1, med, q3, inside[inside.length - 1]],
      out: s.filter(function (v) { return v < q1 - 1.5 * iqr || v > q3 + 1.5 * iqr; })
    };
  }

  function traceName(t, i) { return t.name || String(i + 1); }

  function axis(type, name, extra) {
    var a = {
      type: type, name: name || '', nameLocation: 'middle', nameGap: 30, scale: type === 'value',
      axisLabel: { color: '#555' }, splitLine: { lineStyle: { color: '#eee' } }
    };
    for (var k in extra) a[k] = extra[k];
    return a;
  }

  function tip(lines) {
    return '<div class="trainreport-tooltip">' + lines.map(util.escapeHTML).join('<br>') + '</div>';
  }

  // grid draws a z grid (heatmap, surface, contour) as a heat map.
  function gridOption(w, t) {
    var rows = t.rows || 1, cols = t.cols || (t.z || []).length;
    var z = nums(t.z), data = [], lo = Infinity, hi = -Infinity;
    for (var i = 0; i < rows; i++) {
      for (var j = 0; j < cols; j++) {
        var v = z[i * cols + j];
        data.push([j, i, isFinite(v) ? v : '-']);
        if (isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
      }
    }
    var xs = t.x_names || (t.x && t.x.length === cols ? nums(t.x).map(util.fmtNum) : null);
    var ys = t.y_names || (t.y && t.y.length === rows ? nums(t.y).map(util.fmtNum) : null);
    var idx = function (n) { var a = []; for (var k = 0; k < n; k++) a.push(String(k)); return a; };
    xs = xs || idx(cols);
    ys = ys || idx(rows);
    return {
      grid: { left: 60, right: 70, top: 40, bottom: 50 },
      xAxis: axis('category', w.xlabel, { data: xs, splitArea: { show: true } }),
      yAxis: axis('category', w.ylabel, { data: ys, splitArea: { show: true } }),
      visualMap: {
        min: isFinite(lo) ? lo : 0, max: isFinite(hi) ? hi : 1, calculable: true, orient: 'vertical', right: 0, top: 'middle',
        itemHeight: 120, inRange: { color: ['#440154', '#3b528b', '#21918c', '#5ec962', '#fde725'] } // Viridis, Visdom's scale
      },
      tooltip: {
        trigger: 'item', confine: true,
        formatter: function (p) { return tip([xs[p.value[0]] + ', ' + ys[p.value[1]], util.fmtNum(util.toNumber(p.value[2]))]); }
      },
      series: [{ type: 'heatmap', name: traceName(t, 0), data: data, progressive: 0 }]
    };
  }

  function pieOption(t) {
    var vals = nums(t.values);
    return {
      legend: { type: 'scroll', bottom: 0 },
      tooltip: { trigger: 'item', confine: true, formatter: function (p) { return tip([p.name, util.fmtNum(p.value) + ' (' + p.percent + '%)']); } },
      series: [{
        type: 'pie', radius: '60%', center: ['50%', '48%'],
        data: (t.labels || []).map(function (l, i) { return { name: l, value: vals[i] }; })
      }]
    };
  }

  function boxOption(w) {
    var names = [], boxes = [], outliers = [];
    w.traces.forEach(function (t, i) {
      var b = boxOf(nums(t.y && t.y.length ? t.y : t.x));
      names.push(traceName(t, i));
      boxes.push(b.box);
      b.out.forEach(function (v) { outliers.push([i, v]); });
    });
    return {
      grid: { left: 60, right: 20, top: 40, bottom: 50 },
      xAxis: axis('category', w.xlabel, { data: names }),
      yAxis: axis('value', w.ylabel),
      tooltip: {
        trigger: 'item', confine: true, formatter: function (p) {
          if (p.seriesType !== 'boxplot') return tip([names[p.value[0]], util.fmtNum(p.value[1])]);
          var v = p.value.slice(1);
          return tip([names[p.dataIndex], 'max ' + util.fmtNum(v[4]), 'Q3 ' + util.fmtNum(v[3]), 'median ' + util.fmtNum(v[2]),
            'Q1 ' + util.fmtNum(v[1]), 'min ' + util.fmtNum(v[0])]);
        }
      },
      series: [{ type: 'boxplot', name: 'box', data: boxes }, { type: 'scatter', name: 'outliers', data: outliers }]
    };
  }

  // xyOption draws scatter, bar and 3-D point traces against x and y, on
  // a second y axis for traces Visdom put there.
  function xyOption(w) {
    var cats = null;
    w.traces.forEach(function (t) { if (t.x_names && !cats) cats = t.x_names; });
    // Bars stand on a category axis, as Plotly centres them on their x
    // (a histogram's bins by their left edge, as Visdom gives them).
    var bars = w.traces.some(function (t) { return t.type === 'bar'; });
    if (bars && !cats) {
      w.traces.forEach(function (t) { if (t.type === 'bar' && !cats) cats = nums(t.x).map(util.fmtNum); });
    }
    var right = w.traces.some(function (t) { return t.right_axis; });
    var series = w.traces.map(function (t, i) {
      var x = nums(t.x), y = nums(t.y), data = [];
      var n = Math.max(x.length, y.length, cats ? cats.length : 0);
      for (var k = 0; k < n; k++) {
        var xv = cats ? cats[k] : (x.length ? x[k] : k);
        var yv = y.length ? y[k] : (t.y_names ? t.y_names[k] : NaN);
        var ok = (cats || isFinite(xv)) && isFinite(yv);
        // A null between segments (stem, quiver) breaks the line.
        data.push(ok ? [xv, yv] : [cats ? xv : (isFinite(xv) ? xv : null), null]);
      }
      var mode = t.mode || (t.type === 'scatter' ? (n <= 20 ? 'lines+markers' : 'lines') : '');
      var s = { name: traceName(t, i), data: data, yAxisIndex: t.right_axis ? 1 : 0 };
      if (t.type === 'bar') {
        s.type = 'bar';
        if (!cats) s.barWidth = '60%';
      } else if (t.type === 'scatter' && mode.indexOf('lines') >= 0) {
        s.type = 'line';
        // A point between two gaps draws no line: its marker shows it,
        // so that no value written is invisible.
        var isolated = data.some(function (p, k) {
          return p[1] !== null && (k === 0 || data[k - 1][1] === null) && (k === data.length - 1 || data[k + 1][1] === null);
        });
        s.showSymbol = mode.indexOf('markers') >= 0 || isolated;
        s.connectNulls = false;
        s.symbolSize = 5;
      } else {
        s.type = 'scatter';
        s.symbolSize = 7;
      }
      return s;
    });
    var yAxes = [axis('value', w.ylabel, bars ? { scale: false } : {})];
    if (right) yAxes.push(axis('value', w.y2label, { position: 'right', splitLine: { show: false } }));
    return {
      grid: { left: 60, right: right ? 60 : 20, top: 40, bottom: w.traces.length > 1 ? 70 : 50 },
      legend: w.traces.length > 1 ? { type: 'scroll', bottom: 0 } : undefined,
      xAxis: cats ? axis('category', w.xlabel, { data: cats }) : axis('value', w.xlabel),
      yAxis: yAxes,
      tooltip: {
        trigger: 'item', confine: true,
        formatter: function (p) {
          var v = p.value || [];
          return tip([p.seriesName, 'x ' + (cats ? v[0] : util.fmtNum(v[0])), 'y ' + util.fmtNum(v[1])]);
        }
      },
      series: series
    };
  }

  // networkOption draws a network window's nodes and edges with a force
  // layout, as Visdom does (d3's force simulation).
  function networkOption(w) {
    var labels = w.node_labels || [], ends = w.edge_ends || [], links = [];
    for (var k = 0; k + 1 < ends.length; k += 2) links.push({ source: String(ends[k]), target: String(ends[k + 1]) });
    return {
      tooltip: { trigger: 'item', confine: true, formatter: function (p) { return tip([p.dataType === 'edge' ? labels[p.data.source] + ' \u2192 ' + labels[p.data.target] : p.name]); } },
      series: [{
        type: 'graph', layout: 'force', roam: true, draggable: true, force: { repulsion: 120, edgeLength: 60 },
        label: { show: labels.length <= 50, position: 'right' }, symbolSize: 12,
        edgeSymbol: ['none', 'none'],
        data: labels.map(function (l, i) { return { id: String(i), name: l }; }),
        links: links
      }]
    };
  }

  // option returns the window's chart and a note of what differs from
  // Visdom's drawing, or null for a window of traces it cannot draw.
  function option(w) {
    if (w.type === 'network') {
      var n = networkOption(w);
      n.animation = false;
      n.title = { text: w.title || '', left: 'center', top: 4, textStyle: { fontSize: 13, fontWeight: 'normal' } };
      return { o: n, note: '' };
    }
    var types = w.traces.map(function (t) { return t.type; });
    var first = types[0];
    var o, note = '';
    if (first === 'heatmap' || first === 'surface' || first === 'contour') {
      o = gridOption(w, w.traces[0]);
      if (first !== 'heatmap') note = 'A ' + first + ' of z, drawn as a heat map.';
    } else if (first === 'pie') {
      o = pieOption(w.traces[0]);
    } else if (types.every(function (t) { return t === 'box'; })) {
      o = boxOption(w);
    } else if (types.every(function (t) { return t === 'scatter' || t === 'scattergl' || t === 'bar' || t === 'scatter3d' || t === 'mesh3d'; })) {
      o = xyOption(w);
      if (types.some(function (t) { return t === 'scatter3d' || t === 'mesh3d'; })) note = 'A 3-D plot, seen from above: x and y of its points.';
    } else {
      return { o: null, note: 'Plotly traces of type ' + types.join(', ') + ': not drawn; the data file holds them.' };
    }
    o.animation = false;
    o.title = { text: w.title || '', left: 'center', top: 4, textStyle: { fontSize: 13, fontWeight: 'normal' } };
    return { o: o, note: note };
  }

  function setupCard(card) {
    var w;
    try { w = JSON.parse(card.querySelector('script.stat-data').textContent); } catch (e) { return; }
    if (!w || !(w.traces || w.node_labels)) return;
    var div = card.querySelector('.visdom-chart');
    var made = option(w);
    if (made.note) {
      var p = document.createElement('p');
      p.className = 'visdom-where';
      p.textContent = made.note;
      card.appendChild(p);
    }
    if (!made.o) {
      div.hidden = true;
      return;
    }
    T.lazyChart(card, function (h) {
      var chart = h.init(div);
      chart.setOption(made.o);
    });
  }

  function setup(main) {
    main.querySelectorAll('figure.visdom-card').forEach(setupCard);
  }

  T.onPage('visdom', setup);
})();

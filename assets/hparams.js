/*
 * trainreport HParams page: a column chooser, a parallel-coordinates chart
 * of the sessions, a scatter-plot matrix of each metric against each
 * hyperparameter, and the sessions table (templates/hparams.html), all from
 * the page's inline JSON (render/hparams.go, the same as data/hparams.json).
 *
 * Every axis spans every session: numeric axes run from the smallest to the
 * largest value of all sessions, a little padded; categorical axes list
 * every value (sorted); a session without a value, or with a non-finite
 * one, sits on a slot of its own at the bottom of the axis, labelled n/a,
 * never at 0. Lines are coloured by a chosen metric. The chooser (state
 * "cols" in the URL hash; "color" for the colouring metric) drives the
 * axes, the table's columns and the matrix. Brushing an axis filters the
 * table and greys the matrix's other points. Scoped to
 * main.page[data-page="hparams"].
 */
(function () {
  'use strict';
  var T = window.trainreport;
  var util = T.util;

  // AXIS_SPACING is the least width per parallel axis: past the page's
  // width the chart scrolls sideways rather than overlapping its axes.
  var AXIS_SPACING = 100;
  // NAME_GAP is the least room between two axes' names, MAX_NAME_LINES
  // the lines an axis' name takes at most (NAME_LINE pixels each).
  var NAME_GAP = 12, MAX_NAME_LINES = 4, NAME_LINE = 14;
  // MAX_AXES bounds the axes drawn: ECharts lays out every line through
  // every axis, and past some 60 axes no one reads the chart.
  var MAX_AXES = 60;
  // MAX_CELLS bounds the scatter matrix's charts (metrics x hyperparameters),
  // and MAX_POINTS its points (charts x sessions): 48 charts of 600
  // sessions took ECharts seconds to lay out.
  var MAX_CELLS = 48;
  var MAX_POINTS = 12000;
  var NA = 'n/a';
  // MANY_LINES is the sessions past which the parallel chart draws
  // progressively, PROGRESSIVE lines a frame.
  var MANY_LINES = 2000, PROGRESSIVE = 1000;
  // A sequential scale (viridis stops) for colouring by a metric.
  var SCALE = ['#440154', '#3b528b', '#21918c', '#5ec962', '#fde725'];
  // LOG_RATIO is the ratio of a positive column's largest value to its
  // smallest from which its axes are logarithmic.
  var LOG_RATIO = 100;
  var NO_COLOR = '#b8b8b8';
  var UNSELECTED = '#d0d0d0';

  // ---------------------------------------------------------------------------
  // The columns and their axes, from the data alone.

  // compareValues orders a categorical axis: numbers as numbers, then
  // strings by code unit (the same in every browser).
  function compareValues(a, b) {
    var x = Number(a), y = Number(b);
    var nx = a.trim() !== '' && isFinite(x), ny = b.trim() !== '' && isFinite(y);
    if (nx && ny && x !== y) return x - y;
    if (nx !== ny) return nx ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }

  // columns returns a column per hyperparameter (key h<i>) and metric
  // (m<i>): its values per session, the axis extent or categories, whether
  // a session lacks a value and whether the values vary across sessions.
  function columns(data) {
    var out = [];
    var add = function (c, i, metric) {
      var col = { key: (metric ? 'm' : 'h') + i, name: c.name, metric: metric, numeric: !!c.numeric || metric, index: i };
      var raw = data.sessions.map(function (s) { return metric ? s.metrics[i] : s.hparams[i]; });
      var seen = new Set(), missing = false;
      if (col.numeric) {
        var lo = Infinity, hi = -Infinity;
        // Whether the values vary, as the categorical columns' seen says
        // it (by their text, a missing value apart), against the first:
        // a set of the text of every value took a tenth of the page's
        // time to its first chart at 22,222 sessions.
        var key = function (v) { return v == null ? '\u0000' : String(v); };
        var first = raw.length ? key(raw[0]) : null, varies = false;
        col.values = raw.map(function (v) {
          var n = v == null ? NaN : util.toNumber(v);
          if (!varies && v !== raw[0] && key(v) !== first) varies = true;
          if (!isFinite(n)) { missing = true; return null; }
          if (n < lo) lo = n;
          if (n > hi) hi = n;
          return n;
        });
        col.lo = lo; col.hi = hi;
        col.finite = lo <= hi;
        // Positive values over two orders of magnitude or more (learning
        // rates drawn log-uniformly, say) sit on a logarithmic axis: on a
        // linear one all but the largest crowd at its foot.
        col.log = col.finite && lo > 0 && hi / lo >= LOG_RATIO;
      } else {
        var cats = [];
        raw.forEach(function (v) {
          if (v == null) { missing = true; seen.add('\u0000'); return; }
          var s = String(v);
          if (!seen.has(s)) { seen.add(s); cats.push(s); }
        });
        cats.sort(compareValues);
        var at = new Map();
        cats.forEach(function (s, k) { at.set(s, k); });
        col.categories = cats;
        col.values = raw.map(function (v) { return v == null ? null : String(v); });
        col.catIndex = at;
      }
      col.raw = raw;
      col.missing = missing;
      col.varies = col.numeric ? varies : seen.size > 1;
      out.push(col);
    };
    data.hparams.forEach(function (c, i) { add(c, i, false); });
    data.metrics.forEach(function (c, i) { add(c, i, true); });
    // label is what the page calls a column: its name, and its kind when
    // a hyperparameter and a metric share the name (a "loss" function
    // chosen and the "loss" reached), which would read alike otherwise.
    var hpNames = new Set(data.hparams.map(function (c) { return c.name; }));
    var both = new Set(data.metrics.map(function (c) { return c.name; }).filter(function (n) { return hpNames.has(n); }));
    out.forEach(function (col) { col.label = both.has(col.name) ? col.name + (col.metric ? ' (metric)' : ' (hparam)') : col.name; });
    return out;
  }

  // ---------------------------------------------------------------------------
  // Text: ECharts draws with the canvas' fonts, so a label's width is
  // measured as the canvas measures it, before the chart lays it out.

  var FONT = 'sans-serif';
  var measureCtx = null;

  // textWidth is the width in pixels of s drawn in font (a CSS font).
  function textWidth(s, font) {
    if (!measureCtx) measureCtx = document.createElement('canvas').getContext('2d');
    if (!measureCtx) return s.length * 7;
    measureCtx.font = font;
    return measureCtx.measureText(s).width;
  }

  // wrapText breaks s into lines no wider than width: after a "/", "_",
  // "-", "." or space where it can (scalar names are paths of words),
  // inside a word where it must. Past maxLines the last line ends in an
  // ellipsis (a name of thousands of characters from a hostile log stays
  // a few lines). Returns the lines.
  function wrapText(s, width, font, maxLines) {
    s = String(s);
    // Past some 60 characters a line no name needs more: a longer one
    // ends in the ellipsis anyway, and measuring stays bounded.
    var cut = s.length > 60 * maxLines;
    if (cut) s = s.slice(0, 60 * maxLines);
    var pieces = s.match(/[^\/_\-. ]*[\/_\-. ]*/g).filter(function (p) { return p !== ''; });
    var lines = [], line = '';
    var push = function (l) { lines.push(l); };
    for (var i = 0; i < pieces.length && lines.length <= maxLines; i++) {
      var piece = pieces[i];
      if (textWidth(line + piece, font) <= width) { line += piece; continue; }
      if (line) { push(line); line = ''; }
      // A piece wider than a line is cut where it must.
      while (piece && textWidth(piece, font) > width && lines.length <= maxLines) {
        var k = Math.min(piece.length - 1, Math.ceil(piece.length * width / textWidth(piece, font)) + 1);
        while (k > 1 && textWidth(piece.slice(0, k), font) > width) k--;
        push(piece.slice(0, k));
        piece = piece.slice(k);
      }
      line = piece;
    }
    if (line) push(line);
    if (lines.length > maxLines || cut) {
      lines = lines.slice(0, maxLines);
      var last = lines[maxLines - 1];
      while (last.length > 1 && textWidth(last + '\u2026', font) > width) last = last.slice(0, -1);
      lines[maxLines - 1] = last + '\u2026';
    }
    return lines;
  }

  // fitMiddle cuts s by its middle until it is no wider than width.
  function fitMiddle(s, width, font) {
    s = String(s);
    if (textWidth(s, font) <= width) return s;
    for (var n = Math.min(s.length - 1, 64); n > 3; n--) {
      var m = middle(s, n);
      if (textWidth(m, font) <= width) return m;
    }
    return middle(s, 3);
  }

  // axisFrame is where a column's values go on its axis: for numeric
  // columns the padded extent and the n/a slot below it, for categorical
  // ones the category list (n/a first, at the bottom) and each value's place.
  function axisFrame(col) {
    if (col.frame) return col.frame;
    var f = {};
    if (col.numeric) {
      var at = col.log ? Math.log10 : function (v) { return v; };
      var lo = col.finite ? at(col.lo) : 0, hi = col.finite ? at(col.hi) : 1;
      var span = hi - lo;
      var pad = span > 0 ? span * 0.05 : (Math.abs(lo) * 0.1 || 1);
      f.min = lo - pad;
      f.max = hi + pad;
      if (col.missing) {
        f.na = f.min - (f.max - f.min) * 0.08;
        f.min = f.na;
      }
      f.place = function (s) { var v = col.values[s]; return v == null ? f.na : at(v); };
      // value is the value at a place on the axis, for its labels.
      f.value = col.log ? function (p) { return Math.pow(10, p); } : function (p) { return p; };
    } else {
      f.labels = (col.missing ? [NA] : []).concat(col.categories);
      f.short = shortLabels(col.categories);
      var off = col.missing ? 1 : 0;
      f.place = function (s) { var v = col.values[s]; return v == null ? 0 : col.catIndex.get(v) + off; };
    }
    col.frame = f;
    return f;
  }

  // shortLabels returns the categories without the start and end they all
  // share (paths under one directory, names with one suffix), marked with
  // an ellipsis: what tells them apart is what a cut label must keep.
  function shortLabels(cats) {
    var m = new Map();
    if (cats.length < 2) { cats.forEach(function (c) { m.set(c, c); }); return m; }
    var first = cats[0], pre = first.length, suf = first.length;
    cats.forEach(function (c) {
      var i = 0;
      while (i < pre && i < c.length && c[i] === first[i]) i++;
      pre = i;
      var j = 0;
      while (j < suf && j < c.length && c[c.length - 1 - j] === first[first.length - 1 - j]) j++;
      suf = j;
    });
    // Keep a few shared characters: "…_fold0.csv" reads better than "…0".
    pre = Math.max(0, pre - 2);
    suf = Math.max(0, suf - 4);
    cats.forEach(function (c) {
      var p = Math.min(pre, c.length), q = Math.min(suf, c.length - p);
      m.set(c, (p ? '\u2026' : '') + c.slice(p, c.length - q) + (q ? '\u2026' : ''));
    });
    return m;
  }

  function display(col, s) {
    var v = col.raw[s];
    if (v == null) return NA;
    if (col.numeric) return util.fmtNum(util.toNumber(v));
    return String(v);
  }

  function sessionName(st, s) {
    var sess = st.data.sessions[s];
    return sess.run + (sess.group ? ' (' + sess.group + ')' : '');
  }

  function truncate(s, n) {
    s = String(s);
    return s.length > n ? s.slice(0, n - 1) + '\u2026' : s;
  }

  // middle cuts s to n characters by its middle: paths differ at both ends.
  function middle(s, n) {
    s = String(s);
    if (s.length <= n) return s;
    var head = Math.ceil((n - 1) / 2), tail = n - 1 - head;
    return s.slice(0, head) + '\u2026' + s.slice(s.length - tail);
  }

  // ---------------------------------------------------------------------------
  // Colour by a metric.

  function mix(a, b, t) {
    var pa = parseInt(a.slice(1), 16), pb = parseInt(b.slice(1), 16);
    var c = [16, 8, 0].map(function (sh) {
      var x = (pa >> sh) & 255, y = (pb >> sh) & 255;
      return Math.round(x + (y - x) * t);
    });
    return '#' + c.map(function (v) { return (v < 16 ? '0' : '') + v.toString(16); }).join('');
  }

  function scaleColor(t) {
    t = Math.min(1, Math.max(0, t));
    var x = t * (SCALE.length - 1), i = Math.min(SCALE.length - 2, Math.floor(x));
    return mix(SCALE[i], SCALE[i + 1], x - i);
  }

  // median is the middle of sorted (not empty).
  function median(sorted) {
    var m = (sorted.length - 1) / 2;
    return (sorted[Math.floor(m)] + sorted[Math.ceil(m)]) / 2;
  }

  // finiteSorted returns the column's values, ascending, once.
  function finiteSorted(col) {
    if (!col.sorted) {
      col.sorted = col.values.filter(function (v) { return v != null; });
      col.sorted.sort(function (a, b) { return a - b; });
    }
    return col.sorted;
  }

  // rankOf is v's rank among sorted, the middle one among equal values.
  function rankOf(sorted, v) {
    var lo = 0, hi = sorted.length;
    while (lo < hi) { var m = (lo + hi) >> 1; if (sorted[m] < v) lo = m + 1; else hi = m; }
    var first = lo;
    hi = sorted.length;
    while (lo < hi) { var k = (lo + hi) >> 1; if (sorted[k] <= v) lo = k + 1; else hi = k; }
    return (first + lo - 1) / 2;
  }

  // colorOf returns a session's colour for the colouring column: on the
  // scale by its rank among the sessions' values (a few diverged runs
  // would otherwise take one end of a linear scale and leave the others
  // one colour), grey without one; the run's colour when there is no
  // metric.
  function colorFn(st) {
    var col = st.colorCol, runs = st.data.sessions;
    if (!col) return function (s) { return util.colorOf(runs[s].run); };
    var sorted = finiteSorted(col);
    return function (s) {
      var v = col.values[s];
      if (v == null) return NO_COLOR;
      return scaleColor(sorted.length > 1 && col.hi > col.lo ? rankOf(sorted, v) / (sorted.length - 1) : 0.5);
    };
  }

  // ---------------------------------------------------------------------------
  // State: the shown columns and the colouring metric, in the URL hash.

  var state = { colsRaw: null, colorRaw: null, st: null };

  T.state.key('cols', function (v) { state.colsRaw = v; }, function () {
    var st = state.st;
    if (!st) return state.colsRaw;
    var enc = encodeShown(st);
    return enc === encodeShown(st, st.defaults) ? null : enc;
  });
  T.state.key('color', function (v) { state.colorRaw = v; }, function () {
    var st = state.st;
    if (!st) return state.colorRaw;
    return st.colorCol && st.colorCol !== st.defaultColor ? st.colorCol.key : null;
  });

  // encodeShown writes a set of shown columns as their keys joined by
  // dots, "-" for none.
  function encodeShown(st, set) {
    set = set || st.shown;
    var keys = st.cols.filter(function (c) { return set.has(c.key); }).map(function (c) { return c.key; });
    return keys.length ? keys.join('.') : '-';
  }

  function resolveState(st) {
    var shown = st.defaults;
    if (state.colsRaw != null) {
      shown = new Set();
      if (state.colsRaw !== '-') {
        state.colsRaw.split('.').forEach(function (k) { if (st.byKey.has(k)) shown.add(k); });
      }
    }
    st.shown = new Set(shown);
    var c = state.colorRaw != null ? st.byKey.get(state.colorRaw) : null;
    st.colorCol = c && c.metric ? c : st.defaultColor;
  }

  function shownCols(st) {
    return st.cols.filter(function (c) { return st.shown.has(c.key); });
  }

  // ---------------------------------------------------------------------------
  // Parallel coordinates

  function parallelOption(st, width) {
    var cols = st.axes;
    var color = colorFn(st);
    var n = st.data.sessions.length;
    // Each axis' name whole, on as many lines as it takes between its
    // neighbours (a cut "validation/epoc…" names no column).
    var names = cols.map(function (col) {
      return wrapText(col.label + (col.log ? ' (log)' : ''), AXIS_SPACING - NAME_GAP, (col.metric ? 'bold ' : '') + '12px ' + FONT, MAX_NAME_LINES);
    });
    var nameLines = names.reduce(function (m, l) { return Math.max(m, l.length); }, 1);
    var axes = cols.map(function (col, d) {
      var f = axisFrame(col);
      var ax = {
        id: 'hp-' + col.key, dim: d, name: names[d].join('\n'), nameLocation: 'end',
        nameTextStyle: { color: col.metric ? '#1f4e8c' : '#333', fontWeight: col.metric ? 'bold' : 'normal', lineHeight: NAME_LINE, fontFamily: FONT },
        triggerEvent: true,
        axisLabel: { color: '#555', width: AXIS_SPACING - 30, overflow: 'truncate' }
      };
      if (col.numeric) {
        return Object.assign(ax, {
          type: 'value', min: f.min, max: f.max, scale: true,
          axisLabel: Object.assign(ax.axisLabel, {
            showMinLabel: col.missing, showMaxLabel: false,
            formatter: function (v) { return f.na != null && v <= f.na + (f.max - f.min) * 1e-9 ? NA : util.fmtNum(f.value(v)); }
          })
        });
      }
      // Category values are often paths: cut in the middle, keeping both ends.
      return Object.assign(ax, {
        type: 'category', data: f.labels, boundaryGap: false,
        axisLabel: { color: '#555', interval: 0, formatter: function (v) { return v === NA && col.missing ? NA : middle(f.short.get(v) || v, 12); } }
      });
    });
    // Plain arrays, the colour from a callback: an object per item makes
    // ECharts build a model per item, seconds for 600 sessions.
    var data = [];
    for (var s = 0; s < n; s++) {
      data.push(cols.map(function (col) { return axisFrame(col).place(s); }));
    }
    return {
      animation: false,
      parallelAxis: axes,
      parallel: {
        left: 70, right: 90, top: 36 + NAME_LINE * nameLines, bottom: 30,
        // Many sessions: the selection applies when the drag ends, not at
        // every move (ECharts passes over every line each time).
        parallelAxisDefault: { nameGap: 14, realtime: n <= MANY_LINES, areaSelectStyle: { width: 16 } }
      },
      tooltip: {
        trigger: 'item', confine: true,
        formatter: function (p) {
          var s = p.dataIndex;
          if (p.componentType !== 'series' || s == null) return '';
          var rows = cols.slice(0, 24).map(function (col) {
            return '<tr><td>' + util.escapeHTML(truncate(col.label, 40)) + '</td><td>' + util.escapeHTML(display(col, s)) + '</td></tr>';
          }).join('');
          return '<div class="trainreport-tooltip"><b>' + util.escapeHTML(sessionName(st, s)) + '</b><table>' + rows + '</table>' +
            (cols.length > 24 ? '<div>\u2026 ' + (cols.length - 24) + ' more columns</div>' : '') + '</div>';
        }
      },
      series: [{
        // Many sessions are drawn in frames of PROGRESSIVE lines, the page
        // answering in between.
        type: 'parallel', name: 'sessions', smooth: false, progressive: n > MANY_LINES ? PROGRESSIVE : 0,
        progressiveThreshold: MANY_LINES,
        lineStyle: { width: n > MANY_LINES ? 1 : 1.5, opacity: n > MANY_LINES ? 0.4 : 0.85, color: function (p) { return color(p.dataIndex); } },
        emphasis: { lineStyle: { width: 3, opacity: 1 } },
        inactiveOpacity: 0.08, activeOpacity: 1,
        data: data
      }]
    };
  }

  function drawParallel(st) {
    var div = st.chartDiv;
    var cols = shownCols(st);
    st.axes = cols.slice(0, MAX_AXES);
    var note = st.main.querySelector('.hparams-axes-note');
    if (cols.length > MAX_AXES) {
      note.textContent = 'The chart draws the first ' + MAX_AXES + ' of the ' + cols.length + ' chosen columns; the table shows them all. Choose fewer columns to see the others.';
      note.hidden = false;
    } else if (!cols.length) {
      note.textContent = 'No column is chosen: choose some under Columns.';
      note.hidden = false;
    } else {
      note.hidden = true;
    }
    // Wider than the page when the axes need it: the wrapper scrolls.
    var want = st.axes.length * AXIS_SPACING + 140;
    div.style.width = want > div.parentNode.clientWidth ? want + 'px' : '';
    var chart = st.parallel;
    if (!chart) return;
    chart.resize({ width: 'auto', height: 'auto' });
    chart.setOption(parallelOption(st), { notMerge: true });
    // The brushes of the columns still shown, drawn again.
    st.axes.forEach(function (col) {
      var iv = st.brush.get(col.key);
      if (iv) chart.dispatchAction({ type: 'axisAreaSelect', parallelAxisId: 'hp-' + col.key, intervals: iv });
    });
  }

  // ---------------------------------------------------------------------------
  // Brushing: the intervals of each brushed axis, in data coordinates; a
  // session is selected when its place on every brushed axis is inside
  // one of that axis' intervals.

  function selected(st) {
    var n = st.data.sessions.length, out = [];
    var brushed = [];
    st.brush.forEach(function (iv, key) {
      var col = st.byKey.get(key);
      if (col && st.shown.has(key) && iv.length) brushed.push({ col: col, iv: iv });
    });
    for (var s = 0; s < n; s++) {
      var ok = brushed.every(function (b) {
        var p = axisFrame(b.col).place(s);
        return b.iv.some(function (r) { return p >= Math.min(r[0], r[1]) && p <= Math.max(r[0], r[1]); });
      });
      out.push(ok);
    }
    return out;
  }

  function applySelection(st) {
    st.selected = selected(st);
    var shown = 0;
    if (st.paged) {
      st.selected.forEach(function (on) { if (on) shown++; });
      st.page = 0;
      drawRows(st);
    }
    st.rows.forEach(function (tr) {
      var s = Number(tr.getAttribute('data-session'));
      var show = !!st.selected[s];
      if (tr.hidden === show) tr.hidden = !show;
      if (show) shown++;
    });
    var total = st.data.sessions.length;
    st.main.querySelector('.hparams-count').textContent = shown + ' of ' + total + ' sessions';
    var any = false;
    st.brush.forEach(function (iv) { if (iv.length) any = true; });
    st.main.querySelector('.hparams-clear').disabled = !any;
    if (st.matrix) recolorMatrix(st);
  }

  // recolorMatrix draws the matrix's points again in their colours, the
  // charts and axes as they are: a new colour callback per series makes
  // ECharts run its visual stage again.
  function recolorMatrix(st) {
    var n = st.matrix.getOption().series.length;
    if (!n) return;
    var color = colorFn(st);
    var fn = function (p) { var s = p.data[2]; return !st.selected || st.selected[s] ? color(s) : UNSELECTED; };
    var series = [];
    for (var i = 0; i < n; i++) series.push({ itemStyle: { color: fn } });
    st.matrix.setOption({ series: series });
  }

  // ---------------------------------------------------------------------------
  // Scatter-plot matrix: each shown metric (rows) against each shown
  // hyperparameter that varies (columns).

  function matrixCells(st) {
    var cols = shownCols(st);
    var metrics = cols.filter(function (c) { return c.metric; });
    var hps = cols.filter(function (c) { return !c.metric && c.varies; });
    var cap = Math.max(1, Math.min(MAX_CELLS, Math.floor(MAX_POINTS / Math.max(st.data.sessions.length, 1))));
    var rows = metrics.slice(0, cap);
    var across = hps.slice(0, Math.max(1, Math.floor(cap / Math.max(rows.length, 1))));
    return { rows: rows, cols: across, allRows: metrics.length, allCols: hps.length, cap: cap };
  }

  // The matrix's geometry. Each chart's plot is PLOT_W x PLOT_H pixels
  // (wider for a categorical axis of many values), CELL_GAP apart; a row's
  // metric is written above its charts and its ticks left of the first
  // (the row shares one axis), a column's hyperparameter under each chart.
  var PLOT_W = 150, PLOT_H = 110, CELL_GAP = 34, MATRIX_LEFT = 70, MATRIX_RIGHT = 24;
  var TICK_FONT = '10px ' + FONT, XNAME_FONT = '11px ' + FONT, ROW_FONT = 'bold 12px ' + FONT;
  // TICK_GAP is the least room between two tick labels: "0.13" and
  // "0.135" closer than that read as one number.
  var TICK_GAP = 10;
  // A tick label's line (its height and the room to the axis), a
  // category label turned upright at most ROTATED_W long, and how many
  // category labels an axis lays out (past them, those that fit).
  var TICK_LINE = 16, ROTATED_W = 64, UPRIGHT_BAND = 14, MAX_CAT_LABELS = 40;
  var XNAME_LINES = 3, XNAME_LINE = 13, ROW_LINES = 2, ROW_LINE = 15;

  // numericTicks returns the values to label on a value axis from min to
  // max, plotW pixels long, each written by label: the smallest round step
  // (1, 2, 2.5 or 5 times a power of ten; whole steps for exponents) whose
  // labels leave TICK_GAP between each other, none reaching into the
  // neighbouring chart.
  function numericTicks(min, max, plotW, label, whole) {
    var span = max - min;
    if (!(span > 0) || !isFinite(span)) return [];
    var scale = plotW / span, best = [];
    var e0 = Math.floor(Math.log10(span / 60));
    for (var e = e0; e <= e0 + 4; e++) {
      var mults = [1, 2, 2.5, 5];
      for (var mi = 0; mi < mults.length; mi++) {
        var step = mults[mi] * Math.pow(10, e);
        if (whole && step < 1) continue;
        var first = Math.ceil(min / step - 1e-9), vals = [];
        for (var i = first; (i * step) <= max + step * 1e-9 && vals.length <= 60; i++) vals.push(Number((i * step).toPrecision(12)));
        if (vals.length > 60) continue;
        var boxes = vals.map(function (v) {
          var w = textWidth(label(v), TICK_FONT), x = (v - min) * scale;
          return { v: v, l: x - w / 2, r: x + w / 2 };
        }).filter(function (b) { return b.l >= -CELL_GAP / 2 + 2 && b.r <= plotW + CELL_GAP / 2 - 2; });
        var fits = true;
        for (var k = 1; k < boxes.length && fits; k++) if (boxes[k].l - boxes[k - 1].r < TICK_GAP) fits = false;
        if (fits && boxes.length >= 2) return boxes.map(function (b) { return b.v; });
        if (fits && boxes.length > best.length) best = boxes.map(function (b) { return b.v; });
      }
    }
    return best;
  }

  // xAxisLayout returns a hyperparameter's axis in the matrix: its plot's
  // width, the height its tick labels take, and the axis' options but its
  // grid and name. Every label is one ECharts draws as given (its own
  // overlap hiding off): the values are chosen so that none touch.
  function xAxisLayout(hp) {
    var lay = { plotW: PLOT_W, labelH: TICK_LINE, thinned: false };
    var tick = { fontSize: 10, fontFamily: FONT, color: '#555', hideOverlap: false };
    if (hp.numeric) {
      var at = hp.log ? Math.log10 : function (v) { return v; };
      var lo = hp.finite ? at(hp.lo) : 0, hi = hp.finite ? at(hp.hi) : 1;
      var pad = hi > lo ? (hi - lo) * 0.05 : (Math.abs(lo) * 0.1 || 1);
      var min = lo - pad, max = hi + pad;
      var label = hp.log ? function (v) { return util.fmtNum(Math.pow(10, v)); } : util.fmtNum;
      var ticks = numericTicks(min, max, PLOT_W, label, hp.log);
      lay.x = { type: 'value', min: min, max: max, place: at,
        axisLabel: Object.assign(tick, { formatter: label, customValues: ticks, showMinLabel: null, showMaxLabel: null }),
        axisTick: { customValues: ticks } };
      return lay;
    }
    var short = axisFrame(hp).short, cats = hp.categories, n = cats.length;
    var names = cats.map(function (c) { return short.get(c) || c; });
    // A few values written whole side by side widen the chart up to
    // twice: "RMSprop adam sgd" reads better than the words upright.
    var whole = n * (TICK_GAP + names.reduce(function (w, s) { return Math.max(w, textWidth(s, TICK_FONT)); }, 0));
    if (whole > PLOT_W && whole <= 2 * PLOT_W) lay.plotW = Math.ceil(whole);
    var band = lay.plotW / n;
    // Side by side while each label keeps five characters or its whole
    // self; else upright; else a wider chart, up to MAX_CAT_LABELS values.
    var flat = names.map(function (s) { return fitMiddle(s, band - TICK_GAP, TICK_FONT); });
    var flatOK = band > TICK_GAP && flat.every(function (f, i) { return f === names[i] || f.length >= 6; });
    var text = new Map();
    if (flatOK) {
      cats.forEach(function (c, i) { text.set(c, flat[i]); });
    } else {
      lay.plotW = PLOT_W;
      if (PLOT_W / n < UPRIGHT_BAND) {
        if (n <= MAX_CAT_LABELS) lay.plotW = n * UPRIGHT_BAND;
        else lay.thinned = true;
      }
      var widest = 0;
      cats.forEach(function (c, i) {
        var t = fitMiddle(names[i], ROTATED_W, TICK_FONT);
        text.set(c, t);
        widest = Math.max(widest, textWidth(t, TICK_FONT));
      });
      lay.labelH = Math.ceil(widest) + 8;
      tick.rotate = 90;
    }
    lay.x = { type: 'category', data: cats, place: function (v) { return hp.catIndex.get(v); },
      axisLabel: Object.assign(tick, { interval: lay.thinned ? 'auto' : 0, hideOverlap: lay.thinned,
        formatter: function (v) { return text.get(v) || v; } }) };
    return lay;
  }

  // matrixLayout places the matrix's charts: the columns' widths and
  // axes, the rows' titles, and the size of the whole.
  function matrixLayout(m) {
    var xs = m.cols.map(xAxisLayout);
    var lefts = [], x = MATRIX_LEFT;
    xs.forEach(function (l, j) {
      lefts.push(x);
      l.name = wrapText(m.cols[j].label + (m.cols[j].log ? ' (log)' : ''), l.plotW + CELL_GAP - 8, XNAME_FONT, XNAME_LINES);
      x += l.plotW + CELL_GAP;
    });
    var width = x - CELL_GAP + MATRIX_RIGHT;
    var titles = m.rows.map(function (r) { return wrapText(r.label, width - 12, ROW_FONT, ROW_LINES); });
    var titleH = ROW_LINE * titles.reduce(function (k, t) { return Math.max(k, t.length); }, 1) + 8;
    var labelH = xs.reduce(function (h, l) { return Math.max(h, l.labelH); }, TICK_LINE);
    var nameH = XNAME_LINE * xs.reduce(function (k, l) { return Math.max(k, l.name.length); }, 1);
    var rowH = titleH + PLOT_H + labelH + 4 + nameH + 14;
    return { xs: xs, lefts: lefts, titles: titles, titleH: titleH, labelH: labelH, rowH: rowH,
      width: width, height: m.rows.length * rowH + 4, thinned: m.cols.filter(function (c, j) { return xs[j].thinned; }) };
  }

  function matrixOption(st) {
    var m = st.cells, lay = m.layout;
    var color = colorFn(st);
    // The points are [x, y, session]; those outside a brushed selection
    // grey (st.selected read when drawn: see recolorMatrix).
    var pointColor = function (p) { var s = p.data[2]; return !st.selected || st.selected[s] ? color(s) : UNSELECTED; };
    var grids = [], xs = [], ys = [], series = [], titles = [];
    m.rows.forEach(function (metric, i) {
      var top = i * lay.rowH;
      titles.push({ type: 'text', left: 8, top: top + 4, silent: true,
        style: { text: lay.titles[i].join('\n'), font: ROW_FONT, fill: '#1f4e8c', lineHeight: ROW_LINE } });
      // One axis for the row: its metric's extent, a little padded.
      var pad = metric.finite ? (metric.hi > metric.lo ? (metric.hi - metric.lo) * 0.08 : Math.abs(metric.lo) * 0.1 || 1) : 0;
      m.cols.forEach(function (hp, j) {
        var k = grids.length, xl = lay.xs[j];
        grids.push({ left: lay.lefts[j], top: top + lay.titleH, width: xl.plotW, height: PLOT_H });
        var x = Object.assign({ gridIndex: k, name: xl.name.join('\n'), nameLocation: 'middle', nameGap: lay.labelH + 4,
          nameTextStyle: { fontSize: 11, fontFamily: FONT, lineHeight: XNAME_LINE, verticalAlign: 'top' }, splitLine: { show: false } }, xl.x);
        delete x.place;
        xs.push(x);
        ys.push({ gridIndex: k, type: 'value', min: metric.finite ? metric.lo - pad : null, max: metric.finite ? metric.hi + pad : null,
          axisLabel: { show: j === 0, fontSize: 10, fontFamily: FONT, formatter: util.fmtNum, showMinLabel: false, showMaxLabel: false }, splitNumber: 3 });
        var pts = [];
        for (var s = 0; s < st.data.sessions.length; s++) {
          var yv = metric.values[s], xv = hp.values[s];
          if (yv == null || xv == null) continue;
          pts.push([xl.x.place(xv), yv, s]);
        }
        series.push({ type: 'scatter', xAxisIndex: k, yAxisIndex: k, symbolSize: 7, data: pts, hp: hp.key, metric: metric.key,
          itemStyle: { opacity: 0.9, color: pointColor }, emphasis: { scale: 1.6 } });
      });
    });
    return {
      animation: false, grid: grids, xAxis: xs, yAxis: ys, series: series, graphic: { elements: titles },
      tooltip: {
        trigger: 'item', confine: true,
        formatter: function (p) {
          var s = p.data && p.data[2];
          if (s == null) return '';
          var sr = series[p.seriesIndex];
          var hp = st.byKey.get(sr.hp), metric = st.byKey.get(sr.metric);
          return '<div class="trainreport-tooltip"><b>' + util.escapeHTML(sessionName(st, s)) + '</b><table>' +
            '<tr><td>' + util.escapeHTML(hp.label) + '</td><td>' + util.escapeHTML(display(hp, s)) + '</td></tr>' +
            '<tr><td>' + util.escapeHTML(metric.label) + '</td><td>' + util.escapeHTML(display(metric, s)) + '</td></tr></table></div>';
        }
      }
    };
  }

  function layoutMatrix(st) {
    st.cells = matrixCells(st);
    var m = st.cells, note = st.main.querySelector('.hparams-matrix-note');
    var div = st.matrixDiv, n = m.rows.length * m.cols.length;
    m.layout = matrixLayout(m);
    var parts = [];
    if (!m.allRows || !m.allCols) {
      parts.push(!m.allRows ? 'No metric is chosen.' : 'No chosen hyperparameter varies across sessions.');
    } else {
      parts.push('Each chart plots a metric (row) against a hyperparameter that varies (column), a point per session with both values.');
      if (m.rows.length < m.allRows || m.cols.length < m.allCols) {
        parts.push('It shows ' + m.rows.length + ' of ' + m.allRows + ' metrics against ' + m.cols.length + ' of ' + m.allCols +
          ' hyperparameters (at most ' + m.cap + ' charts for ' + st.data.sessions.length + ' sessions): choose fewer columns to see the others.');
      }
      if (m.layout.thinned.length) {
        parts.push('Of the ' + m.layout.thinned.map(function (c) { return c.label; }).join(', ') + ' axes (more than ' + MAX_CAT_LABELS +
          ' values) only the labels that fit are written: a point\'s tooltip gives its value.');
      }
    }
    note.textContent = parts.join(' ');
    div.hidden = n === 0;
    div.style.width = m.layout.width + 'px';
    div.style.height = m.layout.height + 'px';
  }

  function drawMatrix(st) {
    layoutMatrix(st);
    if (!st.matrix) return;
    st.matrix.resize({ width: 'auto', height: 'auto' });
    st.matrix.setOption(matrixOption(st), { notMerge: true });
  }

  // ---------------------------------------------------------------------------
  // The chooser, the colour selector and the table's columns.

  function buildChooser(st) {
    var box = st.main.querySelector('.hparams-columns');
    var groups = [
      { title: 'Hyperparameters that vary', cols: st.cols.filter(function (c) { return !c.metric && c.varies; }) },
      { title: 'Hyperparameters with the same value in every session', cols: st.cols.filter(function (c) { return !c.metric && !c.varies; }) },
      { title: 'Metrics', cols: st.cols.filter(function (c) { return c.metric; }) }
    ];
    var body = box.querySelector('.hparams-column-list');
    groups.forEach(function (g) {
      if (!g.cols.length) return;
      var fs = document.createElement('fieldset');
      var lg = document.createElement('legend');
      lg.textContent = g.title + ' (' + g.cols.length + ')';
      fs.appendChild(lg);
      g.cols.forEach(function (c) {
        var label = document.createElement('label');
        label.title = c.name;
        var cb = document.createElement('input');
        cb.type = 'checkbox';
        cb.value = c.key;
        cb.setAttribute('data-col', c.key);
        label.appendChild(cb);
        label.appendChild(document.createTextNode(' ' + c.label));
        if (!c.varies && !c.metric && st.data.sessions.length) {
          var v = document.createElement('span');
          v.className = 'muted';
          v.textContent = ' = ' + truncate(display(c, 0), 40);
          label.appendChild(v);
        }
        fs.appendChild(label);
      });
      body.appendChild(fs);
    });
    box.addEventListener('change', function (e) {
      var cb = e.target;
      if (!cb || cb.type !== 'checkbox') return;
      if (cb.checked) st.shown.add(cb.value); else { st.shown.delete(cb.value); st.brush.delete(cb.value); }
      changed(st);
    });
    box.addEventListener('click', function (e) {
      var b = e.target && e.target.closest && e.target.closest('button[data-cols]');
      if (!b) return;
      e.preventDefault();
      var what = b.getAttribute('data-cols');
      if (what === 'default') st.shown = new Set(st.defaults);
      else if (what === 'all') st.shown = new Set(st.cols.map(function (c) { return c.key; }));
      else st.shown = new Set();
      st.brush.forEach(function (_, k) { if (!st.shown.has(k)) st.brush.delete(k); });
      changed(st);
    });

    var sel = st.main.querySelector('select.hparams-color');
    st.cols.forEach(function (c) {
      if (!c.metric) return;
      var o = document.createElement('option');
      o.value = c.key;
      o.textContent = c.label;
      sel.appendChild(o);
    });
    sel.disabled = !st.defaultColor;
    sel.addEventListener('change', function () {
      var c = st.byKey.get(sel.value);
      if (c && c.metric) st.colorCol = c;
      changed(st);
    });
  }

  // changed writes the state into the URL and re-draws.
  function changed(st) {
    state.colsRaw = encodeShown(st);
    state.colorRaw = st.colorCol ? st.colorCol.key : null;
    T.state.save();
    T.state.apply();
  }

  function syncControls(st) {
    st.main.querySelectorAll('.hparams-columns input[data-col]').forEach(function (cb) {
      var on = st.shown.has(cb.value);
      if (cb.checked !== on) cb.checked = on;
    });
    var n = shownCols(st).length;
    st.main.querySelector('.hparams-columns summary').textContent = 'Columns: ' + n + ' of ' + st.cols.length + ' shown';
    var sel = st.main.querySelector('select.hparams-color');
    if (st.colorCol && sel.value !== st.colorCol.key) sel.value = st.colorCol.key;
    var bar = st.main.querySelector('.hparams-scale');
    bar.hidden = !st.colorCol;
    if (st.colorCol) {
      var c = st.colorCol;
      // One value (or none) needs no scale: the lines take its middle colour.
      var spread = c.finite && c.hi > c.lo;
      bar.querySelector('.lo').textContent = !c.finite ? 'no finite value' : spread ? util.fmtNum(c.lo) : 'one value, ' + util.fmtNum(c.lo);
      bar.querySelector('.hi').textContent = spread ? util.fmtNum(c.hi) + ' (coloured by rank; median ' + util.fmtNum(median(finiteSorted(c))) + ')' : '';
      var b = bar.querySelector('.bar');
      b.hidden = !spread;
      b.style.background = 'linear-gradient(to right, ' + SCALE.join(', ') + ')';
    }
  }

  // showTableColumns hides the table's columns not chosen, with a style
  // rule per column (a row holds the run and status, then the
  // hyperparameters, then the metrics): hiding each cell took seconds
  // for 600 sessions of 60 columns.
  function showTableColumns(st) {
    var rules = [];
    st.cols.forEach(function (c, i) {
      if (!st.shown.has(c.key)) rules.push('table.hparams tr > :nth-child(' + (i + 3) + ')');
    });
    var css = rules.length ? rules.join(',\n') + ' { display: none; }' : '';
    if (st.colStyle.textContent !== css) st.colStyle.textContent = css;
  }

  // ---------------------------------------------------------------------------
  // The table of many sessions (past render/hparams.go's hparamsTableRows):
  // no row in the markup, a page of PAGE_ROWS rows drawn from the data, of
  // the sessions selected, in the order of the column clicked.

  var PAGE_ROWS = 50;

  // runLink makes the run's name a link to its charts on the Scalars page
  // (the Runs expression matching it alone).
  function runLink(name) {
    var a = document.createElement('a');
    var q = 'runs=' + encodeURIComponent('^' + name.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&') + '$');
    a.href = document.body.hasAttribute('data-single-file') ? '#page=scalars&' + q : 'scalars.html#' + q;
    a.title = 'the run on the Scalars page';
    a.textContent = name;
    return a;
  }

  function cellKey(st, c, s) {
    var sess = st.data.sessions[s];
    if (c === 0) return sess.run + (sess.group ? ' ' + sess.group : '');
    if (c === 1) return sess.status;
    var col = st.cols[c - 2];
    return col.raw[s];
  }

  function compareCells(a, b) {
    var na = a == null, nb = b == null;
    if (na || nb) return na === nb ? 0 : na ? 1 : -1;
    var x = util.toNumber(a), y = util.toNumber(b);
    var fx = typeof a === 'number' || isFinite(x), fy = typeof b === 'number' || isFinite(y);
    if (fx && fy) return x - y;
    if (fx !== fy) return fx ? -1 : 1;
    a = String(a); b = String(b);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  function drawRows(st) {
    var n = st.data.sessions.length, list = [];
    for (var s = 0; s < n; s++) if (!st.selected || st.selected[s]) list.push(s);
    if (st.sortCol != null) {
      var c = st.sortCol, sign = st.sortDesc ? -1 : 1;
      list.sort(function (a, b) {
        var ka = cellKey(st, c, a), kb = cellKey(st, c, b);
        var r = (ka == null || kb == null) ? compareCells(ka, kb) : sign * compareCells(ka, kb);
        return r || a - b;
      });
    }
    var pages = Math.max(1, Math.ceil(list.length / PAGE_ROWS));
    if (st.page >= pages) st.page = pages - 1;
    var from = st.page * PAGE_ROWS, rows = list.slice(from, from + PAGE_ROWS);
    var body = document.createElement('tbody');
    rows.forEach(function (s) {
      var sess = st.data.sessions[s];
      var tr = document.createElement('tr');
      tr.setAttribute('data-run', sess.run);
      tr.setAttribute('data-session', s);
      var td = document.createElement('td');
      var name = document.createElement('span');
      name.className = 'run-name';
      name.style.borderColor = util.colorOf(sess.run);
      name.appendChild(runLink(sess.run));
      td.appendChild(name);
      if (sess.group) {
        var g = document.createElement('span');
        g.className = 'muted';
        g.textContent = ' ' + sess.group;
        td.appendChild(g);
      }
      tr.appendChild(td);
      td = document.createElement('td');
      td.textContent = sess.status;
      tr.appendChild(td);
      st.cols.forEach(function (col) {
        var cell = document.createElement('td');
        if (col.numeric) cell.className = 'num';
        var v = col.raw[s];
        cell.textContent = v == null ? '' : col.numeric ? util.fmtNum(util.toNumber(v)) : String(v);
        tr.appendChild(cell);
      });
      body.appendChild(tr);
    });
    st.table.replaceChild(body, st.table.tBodies[0]);
    st.main.querySelector('.hparams-page-info').textContent = list.length ?
      'Sessions ' + (from + 1) + '\u2013' + (from + rows.length) + ' of ' + list.length : 'No session selected';
    st.main.querySelector('.hparams-prev').disabled = st.page === 0;
    st.main.querySelector('.hparams-next').disabled = from + PAGE_ROWS >= list.length;
  }

  function setupPaged(st) {
    st.page = 0;
    st.sortCol = null;
    st.sortDesc = false;
    st.main.querySelector('.hparams-prev').addEventListener('click', function () { if (st.page > 0) { st.page--; drawRows(st); } });
    st.main.querySelector('.hparams-next').addEventListener('click', function () { st.page++; drawRows(st); });
    var ths = Array.prototype.slice.call(st.table.tHead.rows[0].cells);
    ths.forEach(function (th, i) {
      th.setAttribute('aria-sort', 'none');
      th.style.cursor = 'pointer';
      th.addEventListener('click', function () {
        st.sortDesc = st.sortCol === i ? !st.sortDesc : false;
        st.sortCol = i;
        st.page = 0;
        ths.forEach(function (h, k) { h.setAttribute('aria-sort', k === i ? (st.sortDesc ? 'descending' : 'ascending') : 'none'); });
        drawRows(st);
      });
    });
  }

  // ---------------------------------------------------------------------------
  // Setup

  // sessionsCSV is the page's sessions as data/hparams.csv writes them
  // (render/csv.go): columns run, group, status, then the hyperparameters'
  // and the metrics', a name both kinds share told apart; numbers as the
  // data holds them, a missing value empty, a text a spreadsheet would run
  // as a formula behind a '.
  function sessionsCSV(data) {
    var seen = new Map([['run', 1], ['group', 1], ['status', 1]]);
    var all = data.hparams.concat(data.metrics);
    all.forEach(function (c) { seen.set(c.name, (seen.get(c.name) || 0) + 1); });
    var head = ['run', 'group', 'status'];
    data.hparams.forEach(function (c) { head.push(seen.get(c.name) > 1 ? c.name + ' (hparam)' : c.name); });
    data.metrics.forEach(function (c) { head.push(seen.get(c.name) > 1 ? c.name + ' (metric)' : c.name); });
    var text = function (s) { s = String(s); return /^[=+\-@\t\r]/.test(s) ? "'" + s : s; };
    var field = function (s) { return /[",\r\n]/.test(s) || /^\s/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s; };
    var lines = [head.map(field).join(',')];
    data.sessions.forEach(function (s) {
      var row = [text(s.run), text(s.group || ''), text(s.status)];
      s.hparams.concat(s.metrics).forEach(function (v, i) {
        if (v == null) row.push('');
        else if (typeof v === 'number' || all[i].numeric && /^(NaN|-?Infinity)$/.test(v)) row.push(String(v));
        else row.push(text(v));
      });
      lines.push(row.map(field).join(','));
    });
    return lines.join('\n') + '\n';
  }

  function setup(main) {
    var csv = main.querySelector('.hparams-csv');
    var div = main.querySelector('.hparams-chart');
    if (!div) return;
    main.querySelectorAll('[data-run-color]').forEach(function (el) {
      el.style.borderColor = util.colorOf(el.getAttribute('data-run-color'));
    });
    var data;
    try { data = JSON.parse(main.querySelector('script.hparams-data').textContent); } catch (e) { return; }
    if (csv && data) {
      // The page's sessions; past its budget (data.omitted) the site's
      // data/hparams.csv holds every one.
      if (data.omitted && data.omitted.sessions) csv.title = 'The page holds the first ' + data.sessions.length + ' sessions; the site\'s data/hparams.csv holds them all.';
      csv.addEventListener('click', function () {
        util.download(new Blob([sessionsCSV(data)], { type: 'text/csv;charset=utf-8' }), 'hparams.csv');
      });
    }
    var controls = main.querySelector('.hparams-controls');
    if (!data || !data.sessions.length || !(data.hparams.length + data.metrics.length)) {
      // The page's note says why (or there is nothing to draw).
      main.querySelectorAll('.hparams-chart, .hparams-matrix, .hparams-matrix-head').forEach(function (el) { el.hidden = true; });
      if (controls) controls.hidden = true;
      return;
    }
    var cols = columns(data);
    var st = {
      main: main, data: data, cols: cols, byKey: new Map(), brush: new Map(), selected: null,
      chartDiv: div, matrixDiv: main.querySelector('.hparams-matrix'),
      table: main.querySelector('table.hparams'), rows: []
    };
    cols.forEach(function (c) { st.byKey.set(c.key, c); });
    st.paged = st.table.hasAttribute('data-paged');
    st.rows = Array.prototype.slice.call(st.table.tBodies[0].rows);
    // Each run's name links to its charts.
    st.rows.forEach(function (tr) {
      var span = tr.querySelector('.run-name');
      if (span) { span.textContent = ''; span.appendChild(runLink(tr.getAttribute('data-run'))); }
    });
    if (st.paged) setupPaged(st);
    st.colStyle = document.createElement('style');
    main.appendChild(st.colStyle);
    // The default: the hyperparameters that vary and every metric (all
    // columns when a single session leaves nothing to vary).
    var several = data.sessions.length > 1;
    st.defaults = new Set(cols.filter(function (c) { return c.metric || c.varies || !several; }).map(function (c) { return c.key; }));
    // Lines are coloured by the first metric whose value differs between
    // sessions (one value for all would colour every line alike), else
    // the first metric.
    var metrics = cols.filter(function (c) { return c.metric; });
    st.defaultColor = metrics.filter(function (c) { return c.finite && c.hi > c.lo; })[0] || metrics[0] || null;
    state.st = st;
    resolveState(st);
    buildChooser(st);
    syncControls(st);
    showTableColumns(st);
    applySelection(st);
    layoutMatrix(st);

    main.querySelector('.hparams-clear').addEventListener('click', function (e) {
      e.preventDefault();
      var keys = [];
      st.brush.forEach(function (_, k) { keys.push(k); });
      st.brush.clear();
      if (st.parallel) {
        keys.forEach(function (k) {
          if (st.shown.has(k)) st.parallel.dispatchAction({ type: 'axisAreaSelect', parallelAxisId: 'hp-' + k, intervals: [] });
        });
      }
      applySelection(st);
    });

    var stateKey = function () { return encodeShown(st) + '|' + (st.colorCol ? st.colorCol.key : ''); };
    T.state.onApply(function () {
      resolveState(st);
      st.brush.forEach(function (_, k) { if (!st.shown.has(k)) st.brush.delete(k); });
      syncControls(st);
      showTableColumns(st);
      applySelection(st);
    });
    T.lazyChart(div, function (h) {
      drawParallel(st); // sizes the div before the chart measures it
      st.parallel = h.init(div);
      st.parallel.on('axisareaselected', function (p) {
        var key = String(p.parallelAxisId || '').replace(/^hp-/, '');
        if (!st.byKey.has(key)) return;
        if (p.intervals && p.intervals.length) st.brush.set(key, p.intervals.map(function (r) { return [r[0], r[1]]; }));
        else st.brush.delete(key);
        applySelection(st);
      });
      // The full name of an axis, whose label is cut, in the div's tooltip.
      st.parallel.on('mouseover', function (p) {
        if (p.componentType !== 'parallelAxis') return;
        var col = st.axes[p.componentIndex];
        if (col) div.title = col.label;
      });
      st.parallel.on('mouseout', function (p) { if (p.componentType === 'parallelAxis') div.removeAttribute('title'); });
      drawParallel(st);
    }, { eager: true, key: stateKey, update: function () { drawParallel(st); } });
    T.lazyChart(st.matrixDiv, function (h) {
      layoutMatrix(st);
      st.matrix = h.init(st.matrixDiv);
      drawMatrix(st);
    }, { eager: true, key: stateKey, update: function () { drawMatrix(st); } });
  }

  T.onPage('hparams', setup);
})();

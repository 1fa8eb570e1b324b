/*
 * trainreport PR curves page: per tag and run, precision against recall at
 * every threshold of one step, chosen with the card's slider; and per tag,
 * first, every shown run's curve overlaid on one chart (TensorBoard's
 * view), each at the step its card's slider shows, the Runs filter
 * applied. Charts are drawn when scrolled into view (app.js's lifecycle),
 * from the card's inline JSON (see render/prcurves.go). Scoped to
 * main.page[data-page="pr_curves"].
 */
(function () {
  'use strict';
  var T = window.trainreport;
  var util = T.util;

  function option(color) {
    // The y axis's name stands beside its tick labels ("0.8" is about 20
    // px wide, 8 from the axis): at 28 px it sat on them.
    var axis = function (name, gap) {
      return {
        type: 'value', min: 0, max: 1, name: name, nameLocation: 'middle', nameGap: gap,
        axisLabel: { color: '#555' }, splitLine: { lineStyle: { color: '#eee' } }
      };
    };
    return {
      animation: false,
      grid: { left: 60, right: 16, top: 16, bottom: 44 },
      xAxis: axis('recall', 28),
      yAxis: axis('precision', 40),
      tooltip: { trigger: 'item', confine: true },
      series: [{
        type: 'line', showSymbol: true, symbolSize: 4, color: color,
        lineStyle: { color: color, width: 1.5 }, itemStyle: { color: color }, data: []
      }]
    };
  }

  // points returns the curve of one step as [recall, precision, i] items,
  // skipping thresholds whose values are not finite and stopping at
  // c.drawn: the thresholds past the last with TP + FP > 0 hold no curve
  // (render/prcurves.go's prDrawn), so neither the line nor the tooltip
  // reaches them.
  function points(c) {
    var out = [];
    var n = Math.min(c.thresholds.length, c.drawn);
    for (var i = 0; i < n; i++) {
      var r = util.toNumber(c.recall[i]), p = util.toNumber(c.precision[i]);
      if (isFinite(r) && isFinite(p)) out.push([r, p, i]);
    }
    return out;
  }

  function tooltip(c) {
    return function (item) {
      var i = item.value[2];
      var row = function (k, v) { return '<tr><td>' + k + '</td><td class="tt-num">' + util.escapeHTML(util.fmtNum(util.toNumber(v))) + '</td></tr>'; };
      return '<div class="trainreport-tooltip"><table>' + row('threshold', c.thresholds[i]) +
        row('precision', c.precision[i]) + row('recall', c.recall[i]) + row('TP', c.tp[i]) + row('FP', c.fp[i]) +
        row('TN', c.tn[i]) + row('FN', c.fn[i]) + '</table></div>';
    };
  }

  // setupCard draws a card and returns what the tag's overlay reads of
  // it: its run, colour and the curve its slider shows; onStep is called
  // when the slider moves.
  function setupCard(card, onStep) {
    var data;
    try { data = JSON.parse(card.querySelector('script.stat-data').textContent); } catch (e) { return null; }
    if (!data) return null; // the card's note says why
    var div = card.querySelector('.stat-chart');
    var slider = card.querySelector('input[data-pr-slider]');
    var out = card.querySelector('.pr-step output');
    var color = util.colorOf(card.getAttribute('data-run'));
    var name = card.querySelector('.run-name');
    if (name) name.style.borderColor = color;
    var st = { chart: null };
    // stepLabel is step i as the card names it, with the write of a step
    // its run restarted or rewrote.
    function stepLabel(i) {
      var write = data.writes && data.writes[i];
      return data.steps.length ? util.fmtStep(data.steps[i]) + (write ? ' (' + write + ')' : '') : '';
    }
    function show() {
      var i = Number(slider.value);
      var c = data.curves[i];
      // writes names the write of a step its run restarted or rewrote.
      if (out) out.textContent = stepLabel(i);
      if (!st.chart || !c) return;
      st.chart.setOption({ tooltip: { formatter: tooltip(c) }, series: [{ data: points(c) }] });
    }
    slider.addEventListener('input', function () { show(); if (onStep) onStep(); });
    show();
    T.lazyChart(card, function (h) {
      if (!data.curves.length) return;
      st.chart = h.init(div);
      st.chart.setOption(option(color));
      show();
    });
    return {
      card: card, run: card.getAttribute('data-run'), color: color,
      curve: function () { return data.curves[Number(slider.value)]; },
      step: function () { return stepLabel(Number(slider.value)); }
    };
  }

  // shown reports whether a card is shown: the filters hide a card, or its
  // tag's section, with the hidden attribute.
  function shown(card) { return !card.closest('[hidden]'); }

  // setupOverlay puts the overlaid chart of a tag's section first in its
  // grid, and returns the function that redraws it.
  function setupOverlay(sec) {
    var grid = sec.querySelector('[data-more-cards]');
    if (!grid) return null;
    var fig = document.createElement('figure');
    fig.className = 'stat-card pr-overlay';
    var cap = document.createElement('figcaption');
    var b = document.createElement('b');
    b.textContent = 'All runs';
    var note = document.createElement('span');
    note.className = 'points';
    cap.appendChild(b);
    cap.appendChild(document.createTextNode(' '));
    cap.appendChild(note);
    var div = document.createElement('div');
    div.className = 'stat-chart';
    fig.appendChild(cap);
    fig.appendChild(div);
    grid.insertBefore(fig, grid.firstChild);
    var cards = [], chart = null;
    function draw() {
      var series = [], runs = 0;
      cards.forEach(function (c) {
        var curve = c.curve();
        if (!curve || !shown(c.card)) return;
        runs++;
        series.push({
          type: 'line', name: c.run + ' @ ' + c.step(), showSymbol: false, color: c.color,
          lineStyle: { color: c.color, width: 1.5 }, data: points(curve), tooltip: { formatter: tooltip(curve) }
        });
      });
      note.textContent = runs + (runs === 1 ? ' run' : ' runs') + ', each at its card\'s step';
      fig.setAttribute('data-pr-overlay-runs', String(runs));
      if (!chart) return;
      var opt = option('#888');
      opt.series = series;
      opt.legend = { type: 'scroll', bottom: 0, textStyle: { fontSize: 11 } };
      opt.grid.bottom = 64;
      chart.setOption(opt, { notMerge: true });
    }
    T.lazyChart(fig, function (h) {
      chart = h.init(div);
      draw();
    });
    return {
      add: function (c) { if (c) { cards.push(c); draw(); } },
      draw: draw
    };
  }

  function setup(main) {
    var overlays = new Map(); // section -> overlay
    main.querySelectorAll('section.stat-tag').forEach(function (sec) {
      var o = setupOverlay(sec);
      if (!o) return;
      overlays.set(sec, o);
      sec.querySelectorAll('figure.pr-card').forEach(function (card) { o.add(setupCard(card, o.draw)); });
    });
    // The Runs filter changes which runs the overlays draw: after it has
    // hidden the cards (the hooks run before the filters apply).
    T.state.onApply(function () {
      Promise.resolve().then(function () { overlays.forEach(function (o) { o.draw(); }); });
    });
    // The runs the page leaves out over its budget, on demand (app.js).
    T.moreRuns(main, function (sec, run, html) {
      var card = T.insertCard(sec, html);
      if (!card) return;
      var o = overlays.get(sec);
      var c = setupCard(card, o && o.draw);
      if (o) o.add(c);
    });
  }

  T.onPage('pr_curves', setup);
})();

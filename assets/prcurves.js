/*
 * trainreport PR curves page: per tag and run, precision against recall at
 * every threshold of one step, chosen with the card's slider. Charts are
 * drawn when scrolled into view (app.js's lifecycle), from the card's
 * inline JSON (see render/prcurves.go). Scoped to
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

  function setupCard(card) {
    var data;
    try { data = JSON.parse(card.querySelector('script.stat-data').textContent); } catch (e) { return; }
    if (!data) return; // the card's note says why
    var div = card.querySelector('.stat-chart');
    var slider = card.querySelector('input[data-pr-slider]');
    var out = card.querySelector('.pr-step output');
    var color = util.colorOf(card.getAttribute('data-run'));
    var name = card.querySelector('.run-name');
    if (name) name.style.borderColor = color;
    var st = { chart: null };
    function show() {
      var i = Number(slider.value);
      var c = data.curves[i];
      if (out) out.textContent = data.steps.length ? util.fmtStep(data.steps[i]) : '';
      if (!st.chart || !c) return;
      st.chart.setOption({ tooltip: { formatter: tooltip(c) }, series: [{ data: points(c) }] });
    }
    slider.addEventListener('input', show);
    show();
    T.lazyChart(card, function (h) {
      if (!data.curves.length) return;
      st.chart = h.init(div);
      st.chart.setOption(option(color));
      show();
    });
  }

  function setup(main) {
    main.querySelectorAll('figure.pr-card').forEach(setupCard);
    // The runs the page leaves out over its budget, on demand (app.js).
    T.moreRuns(main, function (sec, run, html) {
      var card = T.insertCard(sec, html);
      if (card) setupCard(card);
    });
  }

  T.onPage('pr_curves', setup);
})();

/*
 * The scalars page (templates/scalars.html; its data from render/scalars.go):
 * a chart per tag, each figure holding its data in a script.chart-data
 * element, drawn by the charts of scalarchart.js, which also keeps the
 * page's controls, run selector, downloads and pin buttons.
 */
(function () {
  'use strict';

  var T = window.trainreport;
  if (!T || !T.scalarCharts) return;
  T.onPage('scalars', function (main) { T.scalarCharts.setup(main); });
})();

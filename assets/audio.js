/*
 * Audio page: per tag a grid of its runs with the clips of the step the
 * tag's slider chooses (each run its latest kept step at or before it):
 * the label (Markdown rendered and sanitised in Go), an <audio controls>
 * player, and small ECharts previews computed in Go: the waveform as a
 * min/max envelope and the spectrogram as a heat map in dB. Charts are
 * drawn when they scroll into view (app.js's lifecycle) and disposed when
 * the step changes. The grid and the slider are assets/media.js's.
 */
(function () {
  'use strict';
  var T = window.trainreport;
  if (!T || !T.media || typeof echarts === 'undefined') return;
  var util = T.util;

  var el = T.media.el;

  function fmtSeconds(s) { return (Math.round(s * 1000) / 1000) + ' s'; }
  function fmtHz(f) { return f >= 1000 ? (Math.round(f / 10) / 100) + ' kHz' : Math.round(f) + ' Hz'; }

  var GRID = { left: 52, right: 8, top: 8, bottom: 22 };

  function waveOption(clip, color) {
    var n = clip.wave.length;
    var xs = [], lo = [], span = [];
    for (var i = 0; i < n; i++) {
      xs.push(fmtSeconds(clip.duration * (i + 0.5) / n));
      lo.push(clip.wave[i][0]);
      span.push(clip.wave[i][1] - clip.wave[i][0]);
    }
    return {
      animation: false, grid: GRID,
      tooltip: { trigger: 'axis', formatter: function (ps) {
        var i = ps[0].dataIndex;
        return util.escapeHTML(xs[i]) + '<br>min ' + util.fmtNum(clip.wave[i][0]) + ', max ' + util.fmtNum(clip.wave[i][1]);
      } },
      xAxis: { type: 'category', data: xs, boundaryGap: false, axisLabel: { fontSize: 10 } },
      yAxis: { type: 'value', min: -1, max: 1, splitNumber: 2, axisLabel: { fontSize: 10 } },
      series: [
        // The span stacks on the minimum ('all': across signs), and its
        // area fills between the two: the envelope.
        { type: 'line', data: lo, stack: 'envelope', stackStrategy: 'all', symbol: 'none', lineStyle: { opacity: 0 }, silent: true },
        { type: 'line', data: span, stack: 'envelope', stackStrategy: 'all', symbol: 'none', lineStyle: { width: 0 },
          areaStyle: { color: color, opacity: 0.85 } }
      ]
    };
  }

  // The spectrogram's levels come one character per frame and bin, each a
  // digit of DB_DIGITS counting DB_STEP dB above DB_FLOOR (internal/analysis/audio.go).
  var DB_DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  var DB_STEP = 2, DB_FLOOR = -120;

  function specOption(clip) {
    var s = clip.spec, data = [], top = -Infinity, bins = s.freqs.length;
    for (var f = 0; f < s.times.length; f++) {
      for (var b = 0; b < bins; b++) {
        var db = DB_FLOOR + DB_STEP * DB_DIGITS.indexOf(s.levels.charAt(f * bins + b));
        data.push([f, b, db]);
        if (db > top) top = db;
      }
    }
    return {
      animation: false, grid: GRID,
      tooltip: { formatter: function (p) {
        return fmtSeconds(s.times[p.value[0]]) + ', ' + fmtHz(s.freqs[p.value[1]]) + ': ' + p.value[2] + ' dB';
      } },
      xAxis: { type: 'category', data: s.times.map(fmtSeconds), axisLabel: { fontSize: 10 } },
      yAxis: { type: 'category', data: s.freqs.map(fmtHz),
        axisLabel: { fontSize: 10, interval: Math.max(0, Math.ceil(s.freqs.length / 4) - 1) } },
      visualMap: { show: false, min: Math.max(top - 80, -120), max: Math.max(top, -119), calculable: false,
        inRange: { color: ['#0d0887', '#6a00a8', '#b12a90', '#e16462', '#fca636', '#f0f921'] } },
      series: [{ type: 'heatmap', data: data, progressive: 0 }]
    };
  }

  // queueChart draws a chart in div with option() once div is near the
  // viewport.
  function queueChart(div, option) {
    div.__mediaChart = T.lazyChart(div, function (h) { h.init(div).setOption(option()); });
  }

  function disposeCharts(box) {
    box.querySelectorAll('.media-wave, .media-spec').forEach(function (div) {
      if (div.__mediaChart) div.__mediaChart.dispose();
      div.__mediaChart = null;
    });
  }

  function clipView(clip, run, color) {
    var box = el('div', 'media-clip');
    if (clip.label) {
      var label = el('div', 'media-label');
      label.innerHTML = clip.label; // sanitised in Go (goldmark + bluemonday)
      box.appendChild(label);
    }
    if (clip.src) { // none when the clip could not be read: its error says why
      var player = el('audio');
      player.controls = true;
      player.preload = 'metadata';
      var source = el('source');
      source.src = clip.src;
      source.type = clip.type;
      player.appendChild(source);
      box.appendChild(player);
    }
    var info = [];
    if (clip.duration > 0) info.push(fmtSeconds(clip.duration));
    if (clip.rate > 0) info.push(fmtHz(clip.rate));
    if (clip.channels > 0) info.push(clip.channels === 1 ? 'mono' : clip.channels + ' channels');
    box.appendChild(el('div', 'media-info', info.join(' · ')));
    if (clip.error) {
      box.appendChild(el('div', 'media-error', clip.error));
      return box;
    }
    var charts = el('div', 'media-charts');
    var wave = el('div', 'media-wave');
    wave.setAttribute('aria-label', 'waveform');
    var spec = el('div', 'media-spec');
    spec.setAttribute('aria-label', 'spectrogram');
    charts.appendChild(wave);
    charts.appendChild(spec);
    box.appendChild(charts);
    queueChart(wave, function () { return waveOption(clip, color); });
    queueChart(spec, function () { return specOption(clip); });
    return box;
  }

  function setupTag(section) {
    T.media.setupTag(section, {
      box: 'media-clips', one: 'clip', many: 'clips',
      items: function (e) { return e.clips; },
      clear: disposeCharts,
      fill: function (box, e, run) {
        e.clips.forEach(function (clip) { box.appendChild(clipView(clip, run, util.colorOf(run.name))); });
      }
    });
  }

  function init(main) {
    main.querySelectorAll('section.media-tag').forEach(setupTag);
    T.media.moreRuns(main);
  }

  T.onPage('audio', init);
})();

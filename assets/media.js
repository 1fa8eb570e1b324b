/*
 * What the images and audio pages share (both declare this script before
 * their own): per tag a grid of its runs and a step slider, each run
 * showing its latest kept step at or before the slider's; a step written
 * more than once (a restart's attempts, a rewrite) is as many stops, each
 * run showing its write of that rank, labelled. Exposed as
 * window.trainreport.media for assets/images.js and assets/audio.js.
 */
(function () {
  'use strict';
  var T = window.trainreport;
  if (!T || T.media) return;
  var util = T.util;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  // stopsOf returns the stops of a tag's step slider: each step of its
  // runs' entries as many times as one run writes it (a step a restart
  // wrote again, or a rewrite), in order, {step, k, n} each (the k-th of n
  // writes). render/media.go's sliderStops counts them alike.
  function stopsOf(runs) {
    var most = new Map();
    runs.forEach(function (run) {
      var count = new Map();
      run.entries.forEach(function (e) {
        var c = (count.get(e.step) || 0) + 1;
        count.set(e.step, c);
        if (c > (most.get(e.step) || 0)) most.set(e.step, c);
      });
    });
    var steps = Array.from(most.keys()).sort(function (a, b) { return a - b; }), stops = [];
    steps.forEach(function (step) {
      var n = most.get(step);
      for (var k = 0; k < n; k++) stops.push({ step: step, k: k, n: n });
    });
    return stops;
  }

  // entryAt returns a run's entry at a stop: its k-th write of the stop's
  // step (its last, when it wrote fewer), else its latest entry before the
  // step, or null. Entries are in step order, a step's writes in the order
  // written (the line's last).
  function entryAt(entries, stop) {
    var found = null, k = 0;
    for (var i = 0; i < entries.length && entries[i].step <= stop.step; i++) {
      if (entries[i].step < stop.step) { found = entries[i]; continue; }
      if (k++ > stop.k) break;
      found = entries[i];
    }
    return found;
  }

  // stepLabel is a step as the pages write it, with its write when the run
  // restarted or rewrote it: "step 3 (attempt 1 of 2, superseded)".
  function stepLabel(e) {
    return 'step ' + util.fmtStep(e.step) + (e.note ? ' (' + e.note + ')' : '');
  }

  // setupTag reads a tag's JSON (script.media-data) and fills its grid
  // with a cell per run, redrawn as the slider moves. opt says how:
  //   box: the class of the element in each cell that holds the entry;
  //   items(e): the list an entry shows (its images, its clips);
  //   one, many: what one item is called ('image', 'images');
  //   clear(box): optional, called before a box is emptied;
  //   fill(box, e, run, data): shows entry e of run in the emptied box.
  function setupTag(section, opt) {
    var data;
    try { data = JSON.parse(section.querySelector('script.media-data').textContent); } catch (e) { return; }
    if (!data || !Array.isArray(data.runs)) return; // the tag's note says why
    // Go writes an empty list as null; render leaves out series without
    // entries, but a tag with none must still show "no image yet" rather
    // than throw and leave the rest of the page undrawn.
    if (!Array.isArray(data.steps)) data.steps = [];
    data.runs.forEach(function (run) { if (!Array.isArray(run.entries)) run.entries = []; });
    var slider = section.querySelector('.media-step input');
    var out = section.querySelector('.media-step output');
    var grid = section.querySelector('.media-grid');
    var cells = [];

    function addCell(run) {
      var cell = el('figure', 'media-cell');
      cell.setAttribute('data-filter-run', run.name);
      var cap = el('figcaption');
      var name = el('span', 'media-run', run.name);
      name.style.borderColor = util.colorOf(run.name);
      cap.appendChild(name);
      var at = el('span', 'media-at');
      cap.appendChild(at);
      cell.appendChild(cap);
      var box = el('div', opt.box);
      cell.appendChild(box);
      grid.appendChild(cell);
      cells.push({ run: run, at: at, box: box, shown: undefined });
    }
    data.runs.forEach(addCell);

    var stops = stopsOf(data.runs);
    function setSlider(at) {
      slider.max = String(Math.max(0, stops.length - 1));
      slider.disabled = stops.length < 2;
      slider.value = String(Math.max(0, Math.min(at, stops.length - 1)));
    }
    setSlider(stops.length - 1);

    function show() {
      var stop = stops[Number(slider.value)];
      out.textContent = stop ? util.fmtStep(stop.step) + (stop.n > 1 ? ' (write ' + (stop.k + 1) + ' of ' + stop.n + ')' : '') : '';
      cells.forEach(function (c) {
        var e = stop ? entryAt(c.run.entries, stop) : null;
        if (e === c.shown) return;
        c.shown = e;
        if (opt.clear) opt.clear(c.box);
        c.box.textContent = '';
        if (!e) {
          c.at.textContent = 'no ' + opt.one + ' yet';
          return;
        }
        var n = opt.items(e).length;
        c.at.textContent = stepLabel(e) + (n > 1 ? ' · ' + n + ' ' + opt.many : '');
        c.box.classList.toggle('media-superseded', !!e.superseded);
        opt.fill(c.box, e, c.run, data);
      });
    }
    slider.addEventListener('input', show);
    show();

    // A run the tag left out over the page's budget, loaded on demand
    // (moreRuns): what data.runs holds of a run (written by render as the
    // page would have), its steps joining the slider's, which stays at
    // the step it was at.
    adders.set(section, function (run) {
      if (!run || typeof run !== 'object') return;
      if (!Array.isArray(run.entries)) run.entries = [];
      run.name = String(run.name);
      var stop = stops[Number(slider.value)];
      var seen = new Set(data.steps);
      run.entries.forEach(function (e) { if (!seen.has(e.step)) { seen.add(e.step); data.steps.push(e.step); } });
      data.steps.sort(function (a, b) { return a - b; });
      data.runs.push(run);
      addCell(run);
      stops = stopsOf(data.runs);
      var at = stops.length - 1;
      if (stop) {
        for (var i = 0; i < stops.length; i++) if (stops[i].step === stop.step && stops[i].k === stop.k) at = i;
      }
      setSlider(at);
      show();
    });
    T.applyFilters(section.closest('main.page'));
  }

  // adders maps a tag's section to the function adding a run to it.
  var adders = new WeakMap();

  // moreRuns offers the runs the tags of main leave out over the page's
  // budget (app.js's moreRuns), once every tag is set up.
  function moreRuns(main) {
    T.moreRuns(main, function (sec, name, run) {
      var add = adders.get(sec);
      if (add) add(run);
    });
  }

  T.media = { el: el, setupTag: setupTag, moreRuns: moreRuns, stepLabel: stepLabel };
})();

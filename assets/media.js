/*
 * What the images and audio pages share (both declare this script before
 * their own): per tag a grid of its runs and a step slider, each run
 * showing its latest kept step at or before the slider's. Exposed as
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

  // entryAt returns a run's latest entry at or before step, or null.
  function entryAt(entries, step) {
    var found = null;
    for (var i = 0; i < entries.length && entries[i].step <= step; i++) found = entries[i];
    return found;
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

    function show() {
      var step = data.steps[Number(slider.value)];
      out.textContent = data.steps.length ? util.fmtStep(step) : '';
      cells.forEach(function (c) {
        var e = entryAt(c.run.entries, step);
        if (e === c.shown) return;
        c.shown = e;
        if (opt.clear) opt.clear(c.box);
        c.box.textContent = '';
        if (!e) {
          c.at.textContent = 'no ' + opt.one + ' yet';
          return;
        }
        var n = opt.items(e).length;
        c.at.textContent = 'step ' + util.fmtStep(e.step) + (n > 1 ? ' · ' + n + ' ' + opt.many : '');
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
      var step = data.steps[Number(slider.value)];
      var seen = new Set(data.steps);
      run.entries.forEach(function (e) { if (!seen.has(e.step)) { seen.add(e.step); data.steps.push(e.step); } });
      data.steps.sort(function (a, b) { return a - b; });
      data.runs.push(run);
      addCell(run);
      slider.max = String(Math.max(0, data.steps.length - 1));
      slider.disabled = data.steps.length < 2;
      var at = step === undefined ? data.steps.length - 1 : data.steps.indexOf(step);
      slider.value = String(Math.max(0, at));
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

  T.media = { el: el, setupTag: setupTag, moreRuns: moreRuns };
})();

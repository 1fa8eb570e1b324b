/*
 * Images page: per tag a grid of its runs showing the images of the step
 * the tag's slider chooses (each run its latest kept step at or before it;
 * a batch shows all its images), brightness and contrast for every image,
 * and a full-size view in a dialog (Esc closes). Data comes from each
 * tag's JSON script element (script.media-data).
 */
(function () {
  'use strict';
  var T = window.trainreport;
  if (!T) return;
  var util = T.util;

  var THUMB = 128; // small images are scaled up to about this size (half in big batches), by whole factors
  var FULL = 512; // and to about this in the full-size view

  // sizeImage scales a small image up by a whole factor (pixels stay
  // sharp) so that its longer side reaches about target pixels.
  function sizeImage(img, w, h, target) {
    if (!(w > 0 && h > 0)) return;
    var scale = Math.max(1, Math.floor(target / Math.max(w, h)));
    img.width = w * scale;
    img.height = h * scale;
    img.classList.toggle('media-small', scale > 1);
  }

  // entryAt returns a run's latest entry at or before step, or null.
  function entryAt(entries, step) {
    var found = null;
    for (var i = 0; i < entries.length && entries[i].step <= step; i++) found = entries[i];
    return found;
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  function setupTag(section, dialog) {
    var script = section.querySelector('script.media-data');
    var data;
    try { data = JSON.parse(script.textContent); } catch (e) { return; }
    var slider = section.querySelector('.media-step input');
    var out = section.querySelector('.media-step output');
    var grid = section.querySelector('.media-grid');
    var cells = data.runs.map(function (run) {
      var cell = el('figure', 'media-cell');
      cell.setAttribute('data-run', run.name);
      var cap = el('figcaption');
      var name = el('span', 'media-run', run.name);
      name.style.borderColor = util.colorOf(run.name);
      cap.appendChild(name);
      var at = el('span', 'media-at');
      cap.appendChild(at);
      cell.appendChild(cap);
      var box = el('div', 'media-images');
      cell.appendChild(box);
      grid.appendChild(cell);
      return { run: run, at: at, box: box, shown: undefined };
    });

    function show() {
      var step = data.steps[Number(slider.value)];
      out.textContent = data.steps.length ? util.fmtStep(step) : '';
      cells.forEach(function (c) {
        var e = entryAt(c.run.entries, step);
        if (e === c.shown) return;
        c.shown = e;
        c.box.textContent = '';
        if (!e) {
          c.at.textContent = 'no image yet';
          return;
        }
        c.at.textContent = 'step ' + util.fmtStep(e.step) +
          (e.images.length > 1 ? ' · ' + e.images.length + ' images' : '');
        e.images.forEach(function (im, i) {
          var img = el('img', 'media-img');
          img.alt = data.tag + ' · ' + c.run.name + ' · step ' + e.step + (e.images.length > 1 ? ' #' + (i + 1) : '');
          sizeImage(img, im.width, im.height, e.images.length > 4 ? THUMB / 2 : THUMB);
          img.src = im.src;
          img.tabIndex = 0;
          img.addEventListener('click', function () { openFull(dialog, img, im); });
          img.addEventListener('keydown', function (ev) {
            if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); openFull(dialog, img, im); }
          });
          c.box.appendChild(img);
        });
      });
    }
    slider.addEventListener('input', show);
    show();
  }

  function openFull(dialog, img, im) {
    if (!dialog || typeof dialog.showModal !== 'function') return;
    var full = dialog.querySelector('img');
    full.src = img.src;
    full.alt = img.alt;
    full.className = 'media-img';
    sizeImage(full, im.width, im.height, FULL);
    dialog.querySelector('.media-lightbox-caption').textContent =
      img.alt + ' · ' + im.width + '\u00d7' + im.height + (im.format ? ' ' + im.format.toUpperCase() : '');
    if (!dialog.open) dialog.showModal();
  }

  function init(main) {
    if (main.__mediaReady) return;
    main.__mediaReady = true;
    var dialog = main.querySelector('dialog.media-lightbox');
    if (dialog) {
      // A click on the backdrop (the dialog itself, outside its content) closes it.
      dialog.addEventListener('click', function (e) { if (e.target === dialog) dialog.close(); });
    }
    var form = main.querySelector('form.media-controls');
    if (form) {
      var apply = function () {
        ['brightness', 'contrast'].forEach(function (name) {
          var v = Number(form.elements[name].value);
          main.style.setProperty('--media-' + name, String(v));
          form.elements[name + '-value'].textContent = v.toFixed(2);
        });
      };
      form.addEventListener('input', apply);
      form.elements.reset.addEventListener('click', function () {
        form.elements.brightness.value = '1';
        form.elements.contrast.value = '1';
        apply();
      });
      apply();
    }
    main.querySelectorAll('section.media-tag').forEach(function (s) { setupTag(s, dialog); });
  }

  T.onPage('images', init);
})();

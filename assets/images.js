/*
 * Images page: per tag a grid of its runs showing the images of the step
 * the tag's slider chooses (each run its latest kept step at or before it;
 * a batch shows all its images), brightness and contrast for every image,
 * and a full-size view in a dialog (Esc closes). Data comes from each
 * tag's JSON script element (script.media-data); the grid and the slider
 * are assets/media.js's.
 */
(function () {
  'use strict';
  var T = window.trainreport;
  if (!T || !T.media) return;
  var media = T.media;

  // Images are drawn at their natural size times or divided by a whole
  // factor, so that pixels stay square and sharp (a 1 x 64 bias image of
  // Keras's write_images is as worth seeing as a photo), in a box: small
  // images grow until their longer side reaches about the target, and a
  // one-pixel side until it reaches MIN_SIDE if the box allows; images
  // larger than the box shrink until they fit.
  var THUMB = { target: 128, w: 256, h: 256 }; // a cell holds 260 px at least
  var THUMB_BATCH = { target: 64, w: 128, h: 128 }; // batches of more than four
  var FULL = 512; // the full-size view's target, in a box of the window's size
  var MIN_SIDE = 8;

  // scaleFor returns the factor (k or 1/k, k whole) an image of w x h is
  // drawn at in a box of boxW x boxH with the given target.
  function scaleFor(w, h, target, boxW, boxH) {
    if (w > boxW || h > boxH) return 1 / Math.ceil(Math.max(w / boxW, h / boxH));
    var k = Math.max(1, Math.floor(target / Math.max(w, h)));
    if (Math.min(w, h) * k < MIN_SIDE) k = Math.max(k, Math.min(Math.ceil(MIN_SIDE / Math.min(w, h)), Math.floor(boxW / w), Math.floor(boxH / h)));
    return k;
  }

  // sizeImage draws img at scale times its natural w x h, pixels sharp
  // when scaled up. The width is set as style, which wins over the page's
  // CSS (content-box in media.css: a border must not eat a narrow image),
  // and the height follows from the aspect ratio, so that a window too
  // narrow for the box shrinks the image without distorting it.
  function sizeImage(img, w, h, scale) {
    if (!(w > 0 && h > 0)) { // size unknown: natural size (the dialog's image may hold an earlier one's)
      img.style.width = img.style.aspectRatio = '';
      img.classList.remove('media-small');
      return;
    }
    img.style.width = w * scale + 'px';
    img.style.aspectRatio = w + ' / ' + h;
    img.classList.toggle('media-small', scale > 1);
  }

  // thumbScale is the scale of an image's thumbnail, in a batch of n.
  function thumbScale(im, n) {
    var b = n > 4 ? THUMB_BATCH : THUMB;
    return scaleFor(im.width, im.height, b.target, b.w, b.h);
  }

  // EAGER_IMAGES is how many thumbnails of the page load at once, in
  // page order; the others load as they near the viewport. A sweep's page
  // holds thousands (7,034 at 10,000 runs), and loading them all kept
  // its load event waiting for ten seconds.
  var EAGER_IMAGES = 100;
  var made = 0;

  function setupTag(section, dialog) {
    media.setupTag(section, {
      box: 'media-images', one: 'image', many: 'images',
      items: function (e) { return e.images; },
      fill: function (box, e, run, data) {
        e.images.forEach(function (im, i) {
          if (im.error) { // written in Go: why there is no image to show
            box.appendChild(media.el('div', 'media-error', im.error));
            return;
          }
          var img = media.el('img', 'media-img');
          img.alt = data.tag + ' · ' + run.name + ' · ' + media.stepLabel(e) + (e.images.length > 1 ? ' #' + (i + 1) : '');
          var thumb = thumbScale(im, e.images.length);
          sizeImage(img, im.width, im.height, thumb);
          // Set before src: the size above keeps the layout as it will be.
          if (++made > EAGER_IMAGES) img.loading = 'lazy';
          img.src = im.src;
          img.tabIndex = 0;
          img.addEventListener('click', function () { openFull(dialog, img, im, thumb); });
          img.addEventListener('keydown', function (ev) {
            if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); openFull(dialog, img, im, thumb); }
          });
          box.appendChild(img);
        });
      }
    });
  }

  // fullScale is the scale of an image in the full-size view, in a box of
  // boxW x boxH: as scaleFor, except that an image larger than the box
  // shrinks just enough to fit it. A whole fraction would show an 800 px
  // confusion matrix at 400 px in a window 780 px high, its numbers
  // unreadable, in the view meant to show it large; shrinking, unlike
  // growing, keeps no pixel to keep sharp.
  function fullScale(w, h, boxW, boxH) {
    if (w > boxW || h > boxH) return Math.min(boxW / w, boxH / h);
    return scaleFor(w, h, FULL, boxW, boxH);
  }

  // openFull shows an image in the full-size view: FULL as target, in a
  // box of the dialog's size (95% of the window's width, 80% of its
  // height, less the dialog's padding), and never smaller than its
  // thumbnail, drawn at thumb.
  function openFull(dialog, img, im, thumb) {
    if (!dialog || typeof dialog.showModal !== 'function') return;
    var full = dialog.querySelector('img');
    full.src = img.src;
    full.alt = img.alt;
    full.className = 'media-img';
    var boxW = Math.max(1, Math.floor(window.innerWidth * 0.95) - 40);
    var boxH = Math.max(1, Math.floor(window.innerHeight * 0.8));
    sizeImage(full, im.width, im.height, Math.max(thumb, fullScale(im.width, im.height, boxW, boxH)));
    dialog.querySelector('.media-lightbox-caption').textContent =
      img.alt + ' · ' + im.width + '\u00d7' + im.height + (im.format ? ' ' + im.format.toUpperCase() : '');
    if (!dialog.open) dialog.showModal();
  }

  function init(main) {
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
    T.media.moreRuns(main);
  }

  T.onPage('images', init);
})();

/*
 * trainreport text page: a step slider per card shows one step's text.
 * Every step the page holds is already in the card, rendered and sanitised
 * in Go; the slider only toggles which one is visible, so this script never
 * builds HTML. Scoped to main.page[data-page="text"].
 */
(function () {
  'use strict';
  var tr = window.trainreport;

  // show makes step i of card visible and labels the slider.
  function show(card, i) {
    var steps = card.querySelectorAll('.text-step');
    steps.forEach(function (el, j) {
      var hide = j !== i;
      if (el.hidden !== hide) el.hidden = hide;
    });
    var out = card.querySelector('[data-text-step-label]');
    var el = steps[i];
    if (out && el) {
      // data-write names the write of a step its run restarted or rewrote.
      var write = el.getAttribute('data-write');
      out.textContent = 'step ' + tr.util.fmtStep(Number(el.getAttribute('data-step'))) + ' (' + (write ? write + '; ' : '') + (i + 1) + ' of ' + steps.length + ')';
    }
  }

  function setupCard(card) {
    var run = card.querySelector('[data-run-color]');
    if (run) run.style.borderColor = tr.util.colorOf(run.getAttribute('data-run-color'));
    var slider = card.querySelector('input[data-text-slider]');
    if (!slider) return;
    show(card, Number(slider.value));
    slider.addEventListener('input', function () { show(card, Number(slider.value)); });
  }

  function setup(main) {
    main.querySelectorAll('article.text-card').forEach(setupCard);
    // The runs the page leaves out over its budget, on demand (app.js):
    // their cards are rendered and sanitised in Go, like the page's.
    tr.moreRuns(main, function (sec, run, html) {
      var card = tr.insertCard(sec, html);
      if (card) setupCard(card);
    });
  }

  tr.onPage('text', setup);
})();

/*
 * trainreport overview of a sweep (templates/index.html's "overview-sweep"
 * and "overview-sweep-runs", written for more than sweepOverviewRuns runs:
 * render/sweep.go): a histogram per metric of the runs' last values, and
 * the runs table drawn a page of rows at a time.
 *
 * The table's data is data/overview/runs.js (the columns, and the rows of
 * the first 500 runs: name, status, last step, duration, warnings, each
 * metric's last value; the other runs' rows in data/overview/runs-NNNN.js,
 * 500 runs each, loaded only to sort, filter or page past the first),
 * loaded as a script (which works from file://); each row's trends are in
 * data/overview/sparks-NNNN.js, a chunk of runs in run order each, loaded
 * only for the rows of the page shown. The single file carries both inline.
 * Sorting (any column) and the Runs filter act on every run; only the
 * page's rows are in the document. Scoped to main.page[data-page="index"].
 */
(function () {
  'use strict';
  var T = window.trainreport;
  if (!T) return;
  var util = T.util;

  // PAGE_ROWS is the rows of one page of the table.
  var PAGE_ROWS = 50;
  // The sparklines' alphabet: a point's height, 0 to 63 (render/sweep.go).
  var SPARK = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_';
  var SPARK_W = 80, SPARK_H = 18;

  // Columns of a row of runs.js: [name, status, last step, duration, warnings, [values]].
  var FIXED = [
    { title: 'Run', get: function (r) { return r[0]; }, text: true },
    { title: 'Status', get: function (r) { return r[1]; }, text: true },
    { title: 'Last step', get: function (r) { return r[2]; } },
    { title: 'Duration', get: function (r) { return r[3]; } },
    { title: 'Warnings', get: function (r) { return r[4]; } }
  ];

  // ---------------------------------------------------------------------------
  // Histograms of final values

  // histBars are a histogram's bars: the bins, and the values below and
  // above the binned range (far outliers, see render/sweep.go's histRange)
  // as a bar at each end when there are any.
  function histBars(t) {
    var n = t.counts.length, w = (t.hi - t.lo) / n, bars = [];
    if (t.below) bars.push({ label: '< ' + util.fmtNum(t.lo), tip: util.fmtNum(t.min) + ' to ' + util.fmtNum(t.lo), n: t.below, out: true });
    t.counts.forEach(function (c, i) {
      var lo = t.lo + i * w;
      bars.push({ label: util.fmtNum(lo), tip: util.fmtNum(lo) + ' to ' + util.fmtNum(i === n - 1 ? t.hi : lo + w), n: c });
    });
    if (t.above) bars.push({ label: '> ' + util.fmtNum(t.hi), tip: util.fmtNum(t.hi) + ' to ' + util.fmtNum(t.max), n: t.above, out: true });
    return bars;
  }

  function histOption(t) {
    var bars = histBars(t);
    return {
      animation: false,
      grid: { left: 48, right: 30, top: 12, bottom: 40 },
      tooltip: {
        trigger: 'item', confine: true,
        formatter: function (p) {
          var b = bars[p.dataIndex];
          return util.escapeHTML(b.tip + ': ' + b.n + (b.n === 1 ? ' run' : ' runs') + (b.out ? ' (far from the others)' : ''));
        }
      },
      xAxis: { type: 'category', data: bars.map(function (b) { return b.label; }), name: 'last value', nameLocation: 'middle', nameGap: 26, axisLabel: { fontSize: 10, hideOverlap: true } },
      yAxis: { type: 'value', name: 'runs', minInterval: 1, axisLabel: { fontSize: 10 } },
      series: [{
        type: 'bar', barCategoryGap: '5%',
        data: bars.map(function (b) { return { value: b.n, itemStyle: { color: b.out ? '#e45756' : '#4c78a8' } }; })
      }]
    };
  }

  function setupHistograms(main) {
    var el = main.querySelector('script.sweep-charts');
    if (!el) return;
    var tags;
    try { tags = JSON.parse(el.textContent); } catch (e) { return; }
    main.querySelectorAll('figure.sweep-hist').forEach(function (fig) {
      var t = tags[Number(fig.getAttribute('data-tag-index'))];
      var div = fig.querySelector('.sweep-hist-chart');
      if (!t || !div) return;
      if (!(t.runs - t.nonfinite)) { div.hidden = true; return; }
      T.lazyChart(div, function (h) {
        var chart = h.init(div);
        chart.setOption(histOption(t));
      }, { eager: true });
    });
  }

  // ---------------------------------------------------------------------------
  // The runs table

  // regexQuote escapes a run name for the Runs expression of a link.
  function regexQuote(s) { return s.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&'); }

  function compare(a, b) {
    // Missing values last, whatever the order; numbers as numbers.
    var na = a == null, nb = b == null;
    if (na || nb) return na === nb ? 0 : na ? 1 : -1;
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    var x = util.toNumber(a), y = util.toNumber(b);
    if (typeof a !== 'string' || typeof b !== 'string' || !isNaN(x) || !isNaN(y)) {
      // Non-finite values ("NaN", "Infinity") sort as numbers, NaN first.
      if (isNaN(x) !== isNaN(y)) return isNaN(x) ? -1 : 1;
      if (!isNaN(x)) return x < y ? -1 : x > y ? 1 : 0;
    }
    return a < b ? -1 : a > b ? 1 : 0;
  }

  function sparkSVG(code) {
    var ns = 'http://www.w3.org/2000/svg';
    var svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('class', 'spark');
    svg.setAttribute('viewBox', '0 0 ' + SPARK_W + ' ' + SPARK_H);
    svg.setAttribute('width', SPARK_W);
    svg.setAttribute('height', SPARK_H);
    svg.setAttribute('aria-hidden', 'true');
    var pts = [];
    for (var i = 0; i < code.length; i++) {
      var lv = SPARK.indexOf(code[i]);
      var x = SPARK_W * i / (code.length - 1), y = SPARK_H - 1 - (SPARK_H - 2) * lv / 63;
      pts.push(x.toFixed(1) + ',' + y.toFixed(1));
    }
    var pl = document.createElementNS(ns, 'polyline');
    pl.setAttribute('points', pts.join(' '));
    svg.appendChild(pl);
    return svg;
  }

  function setupTable(main) {
    var table = main.querySelector('table.sweep-runs');
    if (!table) return;
    var st = {
      main: main, table: table, data: null, sparks: null, order: null, rows: [], total: 0, rowChunk: 0,
      sortCol: -1, desc: false, page: 0, view: [], runsRE: T.state.pattern('runs'),
      single: document.body.hasAttribute('data-single-file'), drawn: 0
    };
    var info = main.querySelector('.sweep-page-info');
    var prev = main.querySelector('.sweep-prev'), next = main.querySelector('.sweep-next');
    prev.addEventListener('click', function () { if (st.page > 0) { st.page--; draw(st); } });
    next.addEventListener('click', function () { if ((st.page + 1) * PAGE_ROWS < st.view.length) { st.page++; draw(st); } });
    st.info = info; st.prev = prev; st.next = next;

    var inline = main.querySelector('script.sweep-rows');
    var loaded;
    if (inline) {
      var all = JSON.parse(inline.textContent);
      st.sparks = all.sparks;
      loaded = Promise.resolve(all.rows);
    } else {
      var file = table.getAttribute('data-rows-script');
      loaded = T.loadData(file, file);
    }
    T.state.onApply(function () { if (st.data) refresh(st); });
    // The table counts as a chart for trainreport.ready(): it waits for the
    // data and the first page's trends.
    T.lazyChart(table, function () {
      return loaded.then(function (data) {
        st.data = data;
        st.rows = [data.runs];
        st.total = toCount(data.total, data.runs.length);
        st.rowChunk = toCount(data.rows_chunk, Math.max(data.runs.length, 1));
        st.cols = FIXED.concat(data.tags.map(function (tag, k) {
          return { title: tag, metric: k, better: data.better[k], get: function (r) { return r[5][k]; } };
        }));
        header(st);
        return refresh(st);
      }, function (err) {
        info.textContent = String(err && err.message || err);
        info.classList.add('warn');
      });
    }, { eager: true });
  }

  function header(st) {
    var tr = document.createElement('tr');
    st.cols.forEach(function (c, i) {
      var th = document.createElement('th');
      th.textContent = c.title;
      if (c.metric != null) {
        th.className = 'num metric';
        th.title = c.title + ': last value' + (c.better ? ' (' + c.better + ' is better)' : '') + ', and the trend';
      } else if (!c.text) th.className = 'num';
      th.setAttribute('data-col', i);
      th.setAttribute('aria-sort', 'none');
      th.tabIndex = 0;
      tr.appendChild(th);
    });
    st.table.tHead.appendChild(tr);
    var onSort = function (e) {
      var th = e.target.closest('th[data-col]');
      if (!th || (e.type === 'keydown' && e.key !== 'Enter')) return;
      var i = Number(th.getAttribute('data-col'));
      st.desc = st.sortCol === i ? !st.desc : false;
      st.sortCol = i;
      st.page = 0;
      st.table.tHead.querySelectorAll('th').forEach(function (h) {
        h.setAttribute('aria-sort', Number(h.getAttribute('data-col')) === i ? (st.desc ? 'descending' : 'ascending') : 'none');
      });
      refresh(st);
    };
    st.table.tHead.addEventListener('click', onSort);
    st.table.tHead.addEventListener('keydown', onSort);
  }

  // count writes a count in full (fmtNum keeps 5 significant digits: the
  // 100,001st run would read 100000).
  function count(n) { return n.toLocaleString('en-US'); }

  // toCount is n when it is a count, else def.
  function toCount(n, def) { return typeof n === 'number' && n >= 0 && Math.floor(n) === n ? n : def; }

  // row is run i's row, undefined while its file is not loaded.
  function row(st, i) {
    var c = st.rows[Math.floor(i / st.rowChunk)];
    return c ? c[i % st.rowChunk] : undefined;
  }

  // rowChunk resolves when the rows of chunk k (runs k x rowChunk on) are
  // loaded: the first came with the table, the others from their files.
  function rowChunk(st, k) {
    if (st.rows[k]) return Promise.resolve(st.rows[k]);
    if (!st.pending) st.pending = new Map();
    if (!st.pending.has(k)) {
      var name = 'overview/runs-' + ('000' + k).slice(-4) + '.js';
      st.pending.set(k, T.loadData(name, name).then(function (rows) {
        st.rows[k] = Array.isArray(rows) ? rows : [];
        return st.rows[k];
      }));
    }
    return st.pending.get(k);
  }

  // rowsOf resolves when the rows of runs (indices) are loaded.
  function rowsOf(st, runs) {
    var want = new Set();
    runs.forEach(function (i) { want.add(Math.floor(i / st.rowChunk)); });
    return Promise.all(Array.from(want, function (k) { return rowChunk(st, k); }));
  }

  // refresh filters and sorts the rows again and draws the page shown: a
  // sort or the Runs filter needs every run's row, run order the page's.
  function refresh(st) {
    var every = [];
    if (st.runsRE.re || st.sortCol >= 0) {
      for (var k = 0; k * st.rowChunk < st.total; k++) every.push(k);
    }
    var gen = st.refreshed = (st.refreshed || 0) + 1;
    // Busy from the click on: the rows shown are the old ones until the
    // files of rows load.
    st.table.setAttribute('aria-busy', 'true');
    if (every.some(function (k) { return !st.rows[k]; })) {
      st.info.textContent = 'Loading the rows of ' + count(st.total) + ' runs\u2026';
    }
    return Promise.all(every.map(function (k) { return rowChunk(st, k); })).then(function () {
      if (gen !== st.refreshed) return undefined; // a later refresh draws
      filter(st);
      return draw(st);
    }, function (err) {
      st.info.textContent = 'The rows could not be loaded: ' + (err && err.message || err);
      st.info.classList.add('warn');
      st.table.removeAttribute('aria-busy');
    });
  }

  // filter computes the rows shown, as indices in run order: those whose
  // name the Runs expression matches, in the sort order (run order when
  // none; ties in run order). Filtered or sorted, every row is loaded
  // (refresh).
  function filter(st) {
    var re = st.runsRE.re, n = st.total;
    var view = [];
    for (var i = 0; i < n; i++) if (!re || re.test(row(st, i)[0])) view.push(i);
    if (st.sortCol >= 0) {
      var get = st.cols[st.sortCol].get, sign = st.desc ? -1 : 1;
      var keys = new Array(n); // by run index
      view.forEach(function (i) { keys[i] = get(row(st, i)); });
      view.sort(function (a, b) {
        var ka = keys[a], kb = keys[b];
        var c = (ka == null || kb == null) ? compare(ka, kb) : sign * compare(ka, kb);
        return c || a - b;
      });
    }
    st.view = view;
    var pages = Math.max(1, Math.ceil(view.length / PAGE_ROWS));
    if (st.page >= pages) st.page = pages - 1;
  }

  // sparkChunk resolves with the sparklines of chunk k.
  function sparkChunk(st, k) {
    if (st.sparks) return Promise.resolve(st.sparks[k]);
    var name = 'overview/sparks-' + ('000' + k).slice(-4) + '.js';
    return T.loadData(name, name);
  }

  function runHref(st, name) {
    var q = 'runs=' + encodeURIComponent('^' + regexQuote(name) + '$');
    return st.single ? '#page=scalars&' + q : 'scalars.html#' + q;
  }

  // draw loads the rows of the page shown, writes them and then their
  // trends, and resolves when every trend is drawn.
  function draw(st) {
    var gen = ++st.drawn;
    st.table.setAttribute('aria-busy', 'true');
    var rows = st.view.slice(st.page * PAGE_ROWS, st.page * PAGE_ROWS + PAGE_ROWS);
    return rowsOf(st, rows).then(function () {
      if (gen === st.drawn) return drawRows(st, gen);
      return undefined;
    }, function (err) {
      st.info.textContent = 'The rows could not be loaded: ' + (err && err.message || err);
      st.info.classList.add('warn');
      if (gen === st.drawn) st.table.removeAttribute('aria-busy');
    });
  }

  function drawRows(st, gen) {
    var from = st.page * PAGE_ROWS;
    var rows = st.view.slice(from, from + PAGE_ROWS);
    var total = st.total, n = st.view.length;
    st.info.textContent = n ? 'Runs ' + count(from + 1) + '\u2013' + count(from + rows.length) + ' of ' + count(n) +
      (n < total ? ' (of ' + count(total) + ' runs; filtered)' : '') : 'No run matches the Runs expression.';
    st.prev.disabled = st.page === 0;
    st.next.disabled = from + PAGE_ROWS >= n;
    var hasScalars = document.querySelector('nav a[href="scalars.html"], nav a[href="#page=scalars"]') !== null;
    var body = document.createElement('tbody');
    var cells = []; // [td, run index, metric]
    rows.forEach(function (i) {
      var r = row(st, i);
      var tr = document.createElement('tr');
      tr.setAttribute('data-run', r[0]);
      tr.setAttribute('data-index', i);
      st.cols.forEach(function (c) {
        var td = document.createElement('td');
        var v = c.get(r);
        if (c.title === 'Run') {
          var b = document.createElement(hasScalars ? 'a' : 'b');
          if (hasScalars) { b.href = runHref(st, r[0]); b.title = 'the run on the Scalars page'; }
          b.textContent = r[0];
          td.appendChild(b);
        } else if (c.title === 'Status') {
          var s = document.createElement('span');
          s.className = 'badge' + (v === 'success' ? ' ok' : (v === 'failure' || v === 'stopped early' || v === 'damaged files') ? ' bad' : '');
          s.textContent = v;
          td.appendChild(s);
        } else if (c.title === 'Duration') {
          td.className = 'num';
          td.textContent = v == null ? '' : fmtDuration(v);
        } else if (c.metric != null) {
          td.className = 'num metric';
          var val = document.createElement('span');
          val.className = 'sweep-value';
          val.textContent = v == null ? '' : util.fmtNum(util.toNumber(v));
          if (v != null && !isFinite(util.toNumber(v))) td.classList.add('warn');
          td.appendChild(val);
          cells.push([td, i, c.metric]);
        } else {
          td.className = 'num' + (c.title === 'Warnings' && v ? ' warn' : '');
          td.textContent = v == null ? '' : String(v);
        }
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    st.table.replaceChild(body, st.table.tBodies[0]);
    // The trends, from the chunks the page's rows are in.
    var chunk = st.data.chunk, want = new Map();
    cells.forEach(function (c) { var k = Math.floor(c[1] / chunk); if (!want.has(k)) want.set(k, sparkChunk(st, k)); });
    var jobs = [];
    // Busy while the trends load: a test (and assistive technology) can
    // tell when the page is complete.
    st.table.setAttribute('aria-busy', 'true');
    want.forEach(function (p, k) {
      jobs.push(p.then(function (data) {
        if (gen !== st.drawn) return; // another page was drawn meanwhile
        cells.forEach(function (c) {
          if (Math.floor(c[1] / chunk) !== k) return;
          var code = data[c[1] - k * chunk] && data[c[1] - k * chunk][c[2]];
          if (code) c[0].appendChild(sparkSVG(code));
        });
      }, function (err) {
        st.info.textContent += ' (trends not loaded: ' + (err && err.message || err) + ')';
      }));
    });
    return Promise.all(jobs).then(function () { if (gen === st.drawn) st.table.removeAttribute('aria-busy'); });
  }

  function fmtDuration(s) {
    if (!isFinite(s)) return String(s);
    var h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60), sec = Math.round(s % 60);
    if (h) return h + 'h ' + m + 'm';
    if (m) return m + 'm ' + sec + 's';
    return sec + 's';
  }

  T.onPage('index', function (main) {
    setupHistograms(main);
    setupTable(main);
  });
})();

/*
 * trainreport meshes page: each mesh's kept steps (data/meshes/...js, or an
 * inline element in the single file) drawn on a canvas by a small renderer
 * of its own: vertices turned by a yaw and a pitch and projected
 * orthographically to fit the canvas. With WebGL, triangles are drawn with
 * a depth buffer, their vertices' colours blended across them (as
 * TensorBoard's three.js view does) and flat-shaded by how they face the
 * viewer; without it, the 2-D canvas paints them far to near (the
 * painter's algorithm), each cut into small triangles in the colour
 * blended at their centres, so the picture is WebGL's. A mesh
 * without faces is drawn as points. Drag turns it, the wheel zooms, a
 * double click resets the view. Once a card is drawn it says what it drew
 * (data-mesh-drawn-vertices: the vertices inside the canvas;
 * data-mesh-drawn-faces; data-mesh-renderer), for tests and for the
 * counts line. No HTML is built from strings.
 */
(function () {
  'use strict';
  var T = window.trainreport;
  var util = T.util;
  var DEFAULT_COLOR = [76, 120, 168]; // the report's blue
  // SUB_TRIANGLES bounds the small triangles the 2-D canvas cuts a mesh's
  // faces into to blend their vertices' colours (drawn per redraw).
  var SUB_TRIANGLES = 100000;
  var YAW = -0.35, PITCH = 0.7; // the initial view, in radians: off every axis and diagonal, and oblique to y-up and z-up meshes alike

  T.onPage('meshes', function (main) {
    var indexEl = document.getElementById('mesh-index');
    if (!indexEl) return;
    var index = JSON.parse(indexEl.textContent) || [];
    var cards = Array.prototype.slice.call(main.querySelectorAll('.mesh-card'));
    cards.forEach(function (card) {
      var meta = index[Number(card.getAttribute('data-mesh'))];
      if (meta) setUp(card, meta);
    });
  });

  function setUp(card, meta) {
    var el = {
      slider: card.querySelector('[data-mesh-slider]'),
      label: card.querySelector('[data-mesh-step-label]'),
      item: card.querySelector('[data-mesh-item]'),
      itemLabel: card.querySelector('[data-mesh-item-label]'),
      counts: card.querySelector('[data-mesh-counts]'),
      msg: card.querySelector('[data-mesh-msg]'),
      canvas: card.querySelector('[data-mesh-canvas]')
    };
    var st = { data: null, step: meta.steps.length - 1, item: 0, yaw: YAW, pitch: PITCH, zoom: 1, frame: 0 };
    el.slider.max = String(Math.max(0, meta.steps.length - 1));
    el.slider.value = String(st.step);
    el.slider.addEventListener('input', function () { st.step = Number(el.slider.value); st.item = 0; showStep(); });
    el.item.addEventListener('change', function () { st.item = Number(el.item.value); redraw(); });
    if (meta.note) { el.msg.textContent = meta.note; return; }
    if (!meta.steps.length) { el.msg.textContent = 'No step of this mesh was kept.'; return; }

    // Turning and zooming.
    var drag = null;
    el.canvas.addEventListener('pointerdown', function (e) {
      drag = { x: e.clientX, y: e.clientY, yaw: st.yaw, pitch: st.pitch };
      el.canvas.setPointerCapture(e.pointerId);
    });
    el.canvas.addEventListener('pointermove', function (e) {
      if (!drag) return;
      st.yaw = drag.yaw + (e.clientX - drag.x) * 0.01;
      st.pitch = Math.max(-1.55, Math.min(1.55, drag.pitch + (e.clientY - drag.y) * 0.01));
      redraw();
    });
    el.canvas.addEventListener('pointerup', function () { drag = null; });
    el.canvas.addEventListener('wheel', function (e) {
      e.preventDefault();
      st.zoom = Math.max(0.2, Math.min(20, st.zoom * Math.exp(-e.deltaY * 0.001)));
      redraw();
    }, { passive: false });
    el.canvas.addEventListener('dblclick', function () { st.yaw = YAW; st.pitch = PITCH; st.zoom = 1; redraw(); });

    function load() {
      if (meta.inline) {
        st.data = JSON.parse(document.getElementById(meta.inline).textContent);
        showStep();
        return;
      }
      el.msg.textContent = 'Loading…';
      T.loadData(meta.file, meta.script).then(function (text) {
        el.msg.textContent = '';
        st.data = JSON.parse(text);
        showStep();
      }, function (err) {
        el.msg.textContent = 'The mesh could not be loaded: ' + (err && err.message || err);
      });
    }
    // A card's data is loaded when it first comes into view.
    if (window.IntersectionObserver) {
      var seen = new IntersectionObserver(function (entries) {
        if (entries.some(function (e) { return e.isIntersecting; })) { seen.disconnect(); load(); }
      });
      seen.observe(card);
    } else {
      load();
    }

    function showStep() {
      var s = meta.steps[st.step];
      el.label.textContent = util.fmtStep(s.step) + ' (' + (st.step + 1) + ' of ' + meta.steps.length + ')';
      if (!st.data) return;
      var step = st.data.steps[st.step] || { items: [] };
      while (el.item.firstChild) el.item.removeChild(el.item.firstChild);
      step.items.forEach(function (_, i) {
        var o = document.createElement('option');
        o.value = String(i);
        o.textContent = String(i);
        el.item.appendChild(o);
      });
      el.itemLabel.hidden = step.items.length < 2;
      el.item.value = String(st.item);
      el.msg.textContent = step.note || '';
      redraw();
    }

    function redraw() {
      if (st.frame) return;
      st.frame = requestAnimationFrame(function () {
        st.frame = 0;
        var step = st.data && st.data.steps[st.step];
        var item = step && step.items[st.item];
        var drawn = item ? render(el.canvas, item, st) : { vertices: 0, faces: 0, total: 0, renderer: '' };
        card.setAttribute('data-mesh-renderer', drawn.renderer);
        card.setAttribute('data-mesh-drawn-vertices', String(drawn.vertices));
        card.setAttribute('data-mesh-drawn-faces', String(drawn.faces));
        card.setAttribute('data-mesh-drawn-step', String(step ? step.step : ''));
        el.counts.textContent = item ? util.fmtNum(drawn.total) + ' vertices, ' + util.fmtNum((item.faces || []).length / 3) + ' faces' : '';
      });
    }
  }

  // render draws item on canvas as st turns it, and returns how many of
  // its vertices and faces it drew.
  function render(canvas, item, st) {
    var dpr = window.devicePixelRatio || 1;
    var w = canvas.clientWidth || 480, h = canvas.clientHeight || 360;
    if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
    }
    var v = item.vertices || [], n = Math.floor(v.length / 3);
    var x = new Float64Array(n), y = new Float64Array(n), z = new Float64Array(n), ok = new Uint8Array(n);
    var lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity], i, k;
    for (i = 0; i < n; i++) {
      var a = util.toNumber(v[3 * i]), b = util.toNumber(v[3 * i + 1]), c = util.toNumber(v[3 * i + 2]);
      if (!isFinite(a) || !isFinite(b) || !isFinite(c)) continue;
      ok[i] = 1; x[i] = a; y[i] = b; z[i] = c;
      lo[0] = Math.min(lo[0], a); lo[1] = Math.min(lo[1], b); lo[2] = Math.min(lo[2], c);
      hi[0] = Math.max(hi[0], a); hi[1] = Math.max(hi[1], b); hi[2] = Math.max(hi[2], c);
    }
    var center = [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2];
    var radius = 0;
    for (i = 0; i < n; i++) {
      if (!ok[i]) continue;
      var dx = x[i] - center[0], dy = y[i] - center[1], dz = z[i] - center[2];
      radius = Math.max(radius, Math.sqrt(dx * dx + dy * dy + dz * dz));
    }
    if (!(radius > 0)) radius = 1;
    var scale = st.zoom * 0.45 * Math.min(w, h) / radius;
    var cy = Math.cos(st.yaw), sy = Math.sin(st.yaw), cp = Math.cos(st.pitch), sp = Math.sin(st.pitch);
    var px = new Float64Array(n), py = new Float64Array(n), pz = new Float64Array(n);
    var drawnVertices = 0;
    for (i = 0; i < n; i++) {
      if (!ok[i]) continue;
      var X = x[i] - center[0], Y = y[i] - center[1], Z = z[i] - center[2];
      var x1 = cy * X + sy * Z, z1 = -sy * X + cy * Z; // yaw about y
      var y2 = cp * Y - sp * z1, z2 = sp * Y + cp * z1; // pitch about x
      px[i] = w / 2 + x1 * scale;
      py[i] = h / 2 - y2 * scale;
      pz[i] = z2;
      if (px[i] >= 0 && px[i] <= w && py[i] >= 0 && py[i] <= h) drawnVertices++;
    }
    var colors = item.colors || [];
    var hasColors = colors.length === 3 * n;
    function colorOf(j) {
      return hasColors ? [colors[3 * j], colors[3 * j + 1], colors[3 * j + 2]] : DEFAULT_COLOR;
    }
    var f = item.faces || [], nf = Math.floor(f.length / 3), drawnFaces = 0;
    var gl = st.gl === undefined ? (st.gl = webgl(canvas)) : st.gl;
    if (gl) {
      drawnFaces = drawGL(gl, canvas, n, nf, f, ok, px, py, pz, w, h, colorOf);
      return { vertices: drawnVertices, faces: drawnFaces, total: n, renderer: 'webgl' };
    }
    var ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = '#fff'; // WebGL's clear colour: the same picture either way
    ctx.fillRect(0, 0, w, h);
    if (nf > 0) {
      var order = [], depth = new Float64Array(nf);
      for (k = 0; k < nf; k++) {
        var p = f[3 * k], q = f[3 * k + 1], r = f[3 * k + 2];
        if (!(p < n && q < n && r < n && ok[p] && ok[q] && ok[r])) continue;
        depth[k] = (pz[p] + pz[q] + pz[r]) / 3;
        order.push(k);
      }
      order.sort(function (a, b) { return depth[a] - depth[b]; }); // far first
      ctx.lineWidth = 0.5;
      ctx.lineJoin = 'round';
      // A 2-D canvas fills a path in one colour, where WebGL interpolates
      // the vertices' colours across a face: a face is cut into m*m
      // smaller triangles, each in the colour at its centre, m growing
      // with the face's size on screen (one for a face of a few pixels,
      // so big meshes cost what they did), so the corners show their own
      // colours as they do with WebGL.
      function fillTri(x0, y0, x1, y1, x2, y2, c) {
        var fill = 'rgb(' + Math.round(c[0]) + ',' + Math.round(c[1]) + ',' + Math.round(c[2]) + ')';
        ctx.fillStyle = fill;
        ctx.strokeStyle = fill; // hides the seams between triangles
        ctx.beginPath();
        ctx.moveTo(x0, y0);
        ctx.lineTo(x1, y1);
        ctx.lineTo(x2, y2);
        ctx.closePath();
        ctx.fill();
        ctx.stroke();
      }
      // The cut is bounded over the whole mesh: past SUB_TRIANGLES small
      // triangles, faces are filled whole, so that a mesh of many large
      // faces (200,000 over each other) costs a fill per face, not 256.
      var spare = SUB_TRIANGLES - order.length;
      order.forEach(function (k) {
        var p = f[3 * k], q = f[3 * k + 1], r = f[3 * k + 2];
        // The normal in view space: screen y points down, so flip it.
        var ux = px[q] - px[p], uy = py[p] - py[q], uz = pz[q] - pz[p];
        var vx = px[r] - px[p], vy = py[p] - py[r], vz = pz[r] - pz[p];
        var nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
        var len = Math.sqrt(nx * nx + ny * ny + nz * nz) || 1;
        var shade = 0.3 + 0.7 * Math.abs(nz / len);
        var a = colorOf(p), b = colorOf(q), c = colorOf(r);
        var side = Math.max(Math.hypot(ux, uy), Math.hypot(vx, vy), Math.hypot(px[r] - px[q], py[r] - py[q]));
        var m = a === b && b === c ? 1 : Math.max(1, Math.min(16, Math.ceil(side / 8)));
        if (m > 1 && m * m - 1 > spare) m = 1;
        spare -= m * m - 1;
        // The point and colour at barycentric (i/m, j/m) from p towards
        // q and r.
        function at(i, j) {
          var wq = i / m, wr = j / m, wp = 1 - wq - wr;
          return [px[p] * wp + px[q] * wq + px[r] * wr, py[p] * wp + py[q] * wq + py[r] * wr,
            [shade * (a[0] * wp + b[0] * wq + c[0] * wr), shade * (a[1] * wp + b[1] * wq + c[1] * wr), shade * (a[2] * wp + b[2] * wq + c[2] * wr)]];
        }
        function mean3(u, v, w) {
          return [(u[2][0] + v[2][0] + w[2][0]) / 3, (u[2][1] + v[2][1] + w[2][1]) / 3, (u[2][2] + v[2][2] + w[2][2]) / 3];
        }
        for (var i = 0; i < m; i++) {
          for (var j = 0; i + j < m; j++) {
            var u = at(i, j), v = at(i + 1, j), w = at(i, j + 1);
            fillTri(u[0], u[1], v[0], v[1], w[0], w[1], mean3(u, v, w));
            if (i + j + 1 < m) {
              var z = at(i + 1, j + 1);
              fillTri(v[0], v[1], z[0], z[1], w[0], w[1], mean3(v, z, w));
            }
          }
        }
        drawnFaces++;
      });
    } else {
      var pts = [];
      for (i = 0; i < n; i++) if (ok[i]) pts.push(i);
      pts.sort(function (a, b) { return pz[a] - pz[b]; });
      var size = n > 20000 ? 1.5 : n > 2000 ? 2.5 : 4;
      pts.forEach(function (i) {
        var c = colorOf(i);
        ctx.fillStyle = 'rgb(' + c[0] + ',' + c[1] + ',' + c[2] + ')';
        ctx.fillRect(px[i] - size / 2, py[i] - size / 2, size, size);
      });
    }
    return { vertices: drawnVertices, faces: drawnFaces, total: n, renderer: 'canvas' };
  }

  // webgl returns the canvas's WebGL context with the page's program, or
  // null when the browser has none (the 2-D canvas draws then).
  function webgl(canvas) {
    var gl = null;
    try { gl = canvas.getContext('webgl', { antialias: true, preserveDrawingBuffer: true }); } catch (e) { gl = null; }
    if (!gl) return null;
    var vs = 'attribute vec3 pos; attribute vec3 color; attribute float shade; uniform float size;' +
      'varying vec3 vColor; void main() { gl_Position = vec4(pos, 1.0); gl_PointSize = size; vColor = color * shade; }';
    var fs = 'precision mediump float; varying vec3 vColor; void main() { gl_FragColor = vec4(vColor, 1.0); }';
    function shader(type, src) {
      var sh = gl.createShader(type);
      gl.shaderSource(sh, src);
      gl.compileShader(sh);
      return gl.getShaderParameter(sh, gl.COMPILE_STATUS) ? sh : null;
    }
    var v = shader(gl.VERTEX_SHADER, vs), f = shader(gl.FRAGMENT_SHADER, fs);
    if (!v || !f) return null;
    var prog = gl.createProgram();
    gl.attachShader(prog, v);
    gl.attachShader(prog, f);
    gl.linkProgram(prog);
    if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) return null;
    gl.useProgram(prog);
    gl.prog = prog;
    gl.buffers = { pos: gl.createBuffer(), color: gl.createBuffer(), shade: gl.createBuffer() };
    return gl;
  }

  // drawGL draws the projected vertices (px, py: canvas pixels; pz:
  // towards the viewer) with gl: the faces, each vertex of each face its
  // own (a face is shaded flat), or the points. It returns the faces drawn.
  function drawGL(gl, canvas, n, nf, f, ok, px, py, pz, w, h, colorOf) {
    var zmax = 0, i, k;
    for (i = 0; i < n; i++) if (ok[i]) zmax = Math.max(zmax, Math.abs(pz[i]));
    zmax = zmax * 1.01 || 1;
    var ids = [];
    if (nf > 0) {
      for (k = 0; k < nf; k++) {
        var p = f[3 * k], q = f[3 * k + 1], r = f[3 * k + 2];
        if (p < n && q < n && r < n && ok[p] && ok[q] && ok[r]) ids.push(p, q, r);
      }
    } else {
      for (i = 0; i < n; i++) if (ok[i]) ids.push(i);
    }
    var pos = new Float32Array(ids.length * 3), col = new Float32Array(ids.length * 3), shd = new Float32Array(ids.length);
    for (k = 0; k < ids.length; k++) {
      var j = ids[k], c = colorOf(j);
      // Clip space: x and y from the canvas pixels, depth nearer smaller.
      pos[3 * k] = px[j] / w * 2 - 1;
      pos[3 * k + 1] = 1 - py[j] / h * 2;
      pos[3 * k + 2] = -pz[j] / zmax;
      col[3 * k] = c[0] / 255; col[3 * k + 1] = c[1] / 255; col[3 * k + 2] = c[2] / 255;
    }
    if (nf > 0) {
      for (k = 0; k + 2 < ids.length; k += 3) {
        var a = ids[k], b = ids[k + 1], d = ids[k + 2];
        var ux = px[b] - px[a], uy = py[a] - py[b], uz = pz[b] - pz[a];
        var vx = px[d] - px[a], vy = py[a] - py[d], vz = pz[d] - pz[a];
        var nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
        var len = Math.sqrt(nx * nx + ny * ny + nz * nz) || 1;
        shd[k] = shd[k + 1] = shd[k + 2] = 0.35 + 0.65 * Math.abs(nz / len);
      }
    } else {
      shd.fill(1);
    }
    gl.viewport(0, 0, canvas.width, canvas.height);
    gl.clearColor(1, 1, 1, 1);
    gl.enable(gl.DEPTH_TEST);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    function attrib(name, buf, data, size) {
      var loc = gl.getAttribLocation(gl.prog, name);
      gl.bindBuffer(gl.ARRAY_BUFFER, buf);
      gl.bufferData(gl.ARRAY_BUFFER, data, gl.DYNAMIC_DRAW);
      gl.enableVertexAttribArray(loc);
      gl.vertexAttribPointer(loc, size, gl.FLOAT, false, 0, 0);
    }
    attrib('pos', gl.buffers.pos, pos, 3);
    attrib('color', gl.buffers.color, col, 3);
    attrib('shade', gl.buffers.shade, shd, 1);
    gl.uniform1f(gl.getUniformLocation(gl.prog, 'size'), (n > 20000 ? 1.5 : n > 2000 ? 2.5 : 5) * (window.devicePixelRatio || 1));
    gl.drawArrays(nf > 0 ? gl.TRIANGLES : gl.POINTS, 0, ids.length);
    return nf > 0 ? ids.length / 3 : 0;
  }
})();

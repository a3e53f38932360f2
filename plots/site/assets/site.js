// chbench results site: sortable tables and the interactive figures of a
// question page. Data come from window.CHBENCH_PAGE (data/<question>.js);
// the chart library (vega, vega-lite, vega-embed) is in assets/vendor/.
(function () {
  'use strict';

  // --- sortable tables: a button in each column heading --------------------
  function sortKey(text) {
    var t = text.replace(/[,\u00a0]/g, '').trim();
    var m = t.match(/^[-+]?\d*\.?\d+(e[-+]?\d+)?/i);
    return m ? { num: parseFloat(m[0]), text: t } : { num: null, text: t };
  }
  function compare(a, b) {
    if (a.num !== null && b.num !== null) return a.num - b.num;
    if (a.num !== null) return -1;
    if (b.num !== null) return 1;
    return a.text.localeCompare(b.text);
  }
  function makeSortable(table) {
    var ths = table.tHead ? table.tHead.rows[0].cells : [];
    Array.prototype.forEach.call(ths, function (th, col) {
      var b = document.createElement('button');
      b.type = 'button';
      while (th.firstChild) b.appendChild(th.firstChild);
      th.appendChild(b);
      b.addEventListener('click', function () {
        var asc = th.getAttribute('aria-sort') !== 'ascending';
        Array.prototype.forEach.call(ths, function (x) { x.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (r1, r2) {
          var c = compare(sortKey(r1.cells[col].textContent), sortKey(r2.cells[col].textContent));
          return asc ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  }
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), makeSortable);

  // --- a link to a data-table row opens its table ----------------------------
  function showTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (!el) return;
    var d = el.closest('details');
    if (d && !d.open) d.open = true;
    if (el.tagName === 'TR') el.classList.add('target');
    el.scrollIntoView();
  }
  window.addEventListener('hashchange', showTarget);
  showTarget();

  // --- figures ---------------------------------------------------------------
  var page = window.CHBENCH_PAGE;
  if (!page || !window.vegaEmbed) return;

  function setScales(spec, logX, logY) {
    spec.layer.forEach(function (layer) {
      var enc = layer.encoding;
      ['y'].forEach(function (ch) {
        if (enc[ch] && enc[ch].scale) {
          enc[ch].scale.type = logY ? 'log' : 'linear';
          enc[ch].scale.zero = false;
        }
      });
      if (enc.x && enc.x.type === 'quantitative') {
        enc.x.scale = { type: logX ? 'log' : 'linear', zero: false };
      }
    });
  }

  function draw(chart, section) {
    var vis = section.querySelector('.vis');
    var hidden = {};
    Array.prototype.forEach.call(section.querySelectorAll('input[data-series]'), function (cb) {
      if (!cb.checked) hidden[cb.getAttribute('data-series')] = true;
    });
    var logX = section.querySelector('.logx').checked;
    var logY = section.querySelector('.logy').checked;
    var spec = JSON.parse(JSON.stringify(chart.spec));
    spec.data = {
      values: chart.points.filter(function (p) { return !hidden[p.series]; })
        .map(function (p) { return Object.assign({}, p, { noisy: p.noisy ? 'yes' : 'no' }); })
    };
    // the noisy test reads the text form
    spec.layer.forEach(function (l) {
      if (l.encoding.fill && l.encoding.fill.condition) l.encoding.fill.condition.test = "datum.noisy == 'yes'";
    });
    setScales(spec, logX, logY);
    section.removeAttribute('data-drawn');
    return window.vegaEmbed(vis, spec, { renderer: 'svg', actions: false })
      .then(function () {
        section.setAttribute('data-drawn', String(spec.data.values.length));
      })
      .catch(function (err) { console.error('chart ' + chart.id + ': ' + err); });
  }

  page.charts.forEach(function (chart) {
    var section = document.getElementById(chart.id);
    if (!section || !chart.points.length) return;
    var redraw = function () { draw(chart, section); };
    Array.prototype.forEach.call(section.querySelectorAll('input'), function (cb) {
      cb.addEventListener('change', redraw);
    });
    section.querySelector('button.all').addEventListener('click', function () {
      Array.prototype.forEach.call(section.querySelectorAll('input[data-series]'), function (cb) { cb.checked = true; });
      redraw();
    });
    section.querySelector('button.none').addEventListener('click', function () {
      Array.prototype.forEach.call(section.querySelectorAll('input[data-series]'), function (cb) { cb.checked = false; });
      redraw();
    });
    redraw();
  });
})();

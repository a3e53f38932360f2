// chbench results site: the chooser. Requirements (form controls) -> the
// candidates that qualify at the chosen N, ranked in tiers by their lookup
// time with the report's tie rule, precomputed per pair in
// data/chooser.js (plots/site/chooser.py): sep[b][o] is the largest number
// of comparisons k at which b (not slower) separates o, 0 for never.
(function () {
  'use strict';
  var D = window.CHBENCH_CHOOSER;
  var form = document.getElementById('chooser');
  if (!D || !form) return;
  var REQS = ['removal', 'add', 'weights', 'replicas', 'domains'];
  var WORDS = { removal: 'cannot remove any node', add: 'cannot add a node as measured',
    weights: 'no weights', replicas: 'no replicas', domains: 'no measured failure-domain placement' };
  var nSel = document.getElementById('req-n');

  function scenario() { return form.elements.string.checked ? 'string' : 'prehashed'; }

  function fillNs() {
    var sc = D.scenarios[scenario()];
    var keep = nSel.value;
    while (nSel.firstChild) nSel.removeChild(nSel.firstChild);
    (sc ? sc.ns : []).forEach(function (n) {
      var o = document.createElement('option');
      o.value = n; o.textContent = Number(n).toLocaleString('en-US');
      nSel.appendChild(o);
    });
    if (sc && sc.ns.indexOf(keep) >= 0) nSel.value = keep;
    else if (sc && sc.ns.indexOf('1000') >= 0) nSel.value = '1000';
  }

  function fmt(v) {
    if (v === null || v === undefined) return '—';
    return Number(v.toPrecision(3)).toLocaleString('en-US', { maximumFractionDigits: 6 });
  }
  function cell(m, unit) {
    if (!m) return 'not measured';
    var t = fmt(m.median) + (unit || '');
    if (m.lo !== null && m.lo !== undefined) t += ' [' + fmt(m.lo) + '–' + fmt(m.hi) + ']';
    else if (m.n !== undefined) t += ' (n=' + m.n + ')';
    return t;
  }
  function link(text, href) {
    if (!href) return document.createTextNode(text);
    var a = document.createElement('a'); a.href = href; a.textContent = text; return a;
  }
  function num(name) {
    var v = form.elements[name].value.trim();
    return v === '' ? null : parseFloat(v);
  }

  // The ranking: tiers of the qualifying indices (ascending median).
  function tiers(cands, idx) {
    var out = [], rem = idx.slice();
    while (rem.length) {
      var b = rem[0], k = rem.length - 1, tier = [b], rest = [];
      rem.slice(1).forEach(function (o) {
        var s = cands[b].sep[o];
        if (k <= s) rest.push(o); else tier.push(o);
      });
      out.push(tier);
      rem = rest;
    }
    return out;
  }

  function answer() {
    var sc = D.scenarios[scenario()];
    var body = document.querySelector('#answer tbody');
    var excl = document.getElementById('excluded');
    var summary = document.getElementById('answer-summary');
    while (body.firstChild) body.removeChild(body.firstChild);
    while (excl.firstChild) excl.removeChild(excl.firstChild);
    if (!sc || !nSel.value) { summary.textContent = 'No lookup measured for these keys.'; return; }
    var n = nSel.value, cands = sc.by_n[n];
    var mem = num('mem'), ns = num('ns');
    var idx = [];
    cands.forEach(function (c, i) {
      var why = [];
      REQS.forEach(function (r) { if (form.elements[r].checked && !c.caps[r]) why.push(WORDS[r]); });
      if (mem !== null) {
        if (!c.memory) why.push('no memory measurement at this N');
        else if (c.memory.median > mem) why.push('memory ' + fmt(c.memory.median) + ' bytes per node over the budget');
      }
      if (ns !== null && c.lookup.median > ns) why.push('lookup ' + fmt(c.lookup.median) + ' ns over the budget');
      if (why.length) {
        var li = document.createElement('li');
        li.setAttribute('data-key', c.key);
        li.textContent = c.label + ': ' + why.join('; ');
        excl.appendChild(li);
      } else idx.push(i);
    });
    var ts = tiers(cands, idx);
    ts.forEach(function (tier, t) {
      tier.forEach(function (i) {
        var c = cands[i], tr = document.createElement('tr');
        tr.className = 'tier-' + (t + 1);
        tr.setAttribute('data-key', c.key);
        tr.setAttribute('data-tier', String(t + 1));
        var cells = [String(t + 1), c.label];
        cells.forEach(function (x) { var td = document.createElement('td'); td.textContent = x; tr.appendChild(td); });
        var parts = [
          [cell(c.lookup) + (c.lookup.noisy ? ' ~' : ''), c.links.lookup],
          [c.memory ? fmt(c.memory.median) : 'not measured', c.memory ? c.links.memory : null],
          [cell(c.balance, '×'), c.balance ? c.links.balance : null],
          [c.moved ? cell({ median: 100 * c.moved.median, lo: c.moved.lo === null ? null : 100 * c.moved.lo,
            hi: c.moved.hi === null ? null : 100 * c.moved.hi, n: c.moved.n }, ' %') : 'not measured', c.moved ? c.links.moved : null]
        ];
        parts.forEach(function (p) {
          var td = document.createElement('td'); td.appendChild(link(p[0], p[1])); tr.appendChild(td);
        });
        body.appendChild(tr);
      });
    });
    var lk = D.runs.lookup;
    summary.textContent = idx.length + ' of ' + cands.length + ' measured configurations qualify at N = ' +
      Number(n).toLocaleString('en-US') + ' (' + scenario() + ' keys; lookup run ' + (lk ? lk.run : '?') + ')' +
      (ts.length ? '; tier 1: ' + ts[0].map(function (i) { return cands[i].label; }).join(', ') + '.' : '.');
  }

  form.addEventListener('change', function (e) {
    if (e.target && e.target.name === 'string') fillNs();
    answer();
  });
  form.addEventListener('input', answer);
  fillNs();
  answer();
  document.body.setAttribute('data-ready', '1');
})();

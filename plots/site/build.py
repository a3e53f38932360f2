#!/usr/bin/python3
"""Builds the static results site of a results tree.

Usage:
  /usr/bin/python3 plots/site/build.py --results DIR [--reference DIR]
      --out SITE_DIR --npm NPM_DIR [--tier TIER]

--results DIR: the runs (as plots/make_report.py reads them).
--reference DIR: committed reference runs, drawn beside the user's.
--out SITE_DIR: where index.html, one page per report question,
  chooser.html, data/ and assets/ go (files this script wrote before are
  replaced; the directory holds nothing else).
--npm NPM_DIR: the folder plots/site/npm/install.sh installed the pinned
  npm packages into; the chart library (vega, vega-lite, vega-embed) is
  copied from its node_modules into assets/vendor/.

Pages: index.html (the report's summary, the headline table, sortable,
and the decision guide, computed by plots/report/: summary.py,
headline.py, guide.py), <question>.html for every question of
report.questions.QUESTIONS (charts.CHARTS: interactive figures, each with
its data table), chooser.html (requirements -> the qualifying algorithms,
ranked: chooser.py and assets/chooser.js). Data reach the pages as
<script src="data/*.js"> files that set window.CHBENCH_* objects, so the
site opens from file:// without a server or any network request.
"""

import sys as _sys
_sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import argparse  # noqa: E402
import ast  # noqa: E402
import importlib.util  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import types  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import chdata  # noqa: E402
import report  # noqa: E402
from report import guide, headline, summary  # noqa: E402
from report.questions import QUESTIONS, q  # noqa: E402

import charts  # noqa: E402
import chooser  # noqa: E402
import markup as h  # noqa: E402

VENDOR = [("vega", "build/vega.min.js"),
          ("vega-lite", "build/vega-lite.min.js"),
          ("vega-embed", "build/vega-embed.min.js")]
ASSETS = ["site.css", "site.js", "chooser.js"]


def question_title(name):
    """The heading text of a report question ('How fast is a lookup?'),
    read from its section module's source (the f-string that starts with
    '## '), without computing the section."""
    spec = importlib.util.find_spec("report." + name)
    with open(spec.origin, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and node.values and \
                isinstance(node.values[0], ast.Constant) and \
                str(node.values[0].value).startswith("## "):
            text = "".join(v.value for v in node.values[1:]
                           if isinstance(v, ast.Constant))
            return text.lstrip(". ").strip()
    return name


def _clean(o):
    """JSON-safe: NaN -> None, numpy scalars -> Python."""
    if isinstance(o, dict):
        return {str(k): _clean(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [_clean(v) for v in o]
    if hasattr(o, "item") and not isinstance(o, (str, bytes)):
        o = o.item()
    if isinstance(o, float) and (math.isnan(o) or math.isinf(o)):
        return None
    return o


def write_js(path, var, obj):
    text = (f"window.{var} = " +
            json.dumps(_clean(obj), ensure_ascii=False,
                       separators=(",", ":"), sort_keys=False) + ";\n")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def headline_table(ctx, site_dir):
    """(header, rows, runs line) of the README headline block
    (headline.block), parsed from its Markdown table."""
    text = headline.block(ctx, os.path.join(site_dir, "README.md"),
                          os.path.join(site_dir, "REPORT.md"))
    lines = text.splitlines()
    tab = [ln for ln in lines if ln.startswith("|")]
    if len(tab) < 2:
        return None
    header = h.split_row(tab[0])
    rows = [h.split_row(ln) for ln in tab[2:]]
    intro = next((ln for ln in lines if ln.startswith("Headline numbers")),
                 "")
    runs = next((ln for ln in lines if ln.startswith("Runs:")), "")
    return header, rows, intro, runs


def run_list(ctx):
    out = []
    for src, exps in (("yours", ctx.exps), ("reference", ctx.ref or {})):
        for name, e in exps.items():
            if name == "lookup_all_hashes":
                continue
            out.append(dict(src=src, experiment=name,
                            run=str(e.meta.get("run_id", "")),
                            tier=str(e.meta.get("tier", "")),
                            date=chdata.meta_date(e.meta),
                            commit=str(chdata.meta_get(
                                e.meta, "git_commit", "commit") or "")[:12]))
    return out


def build(args):
    t0 = time.time()
    site = os.path.abspath(args.out)
    if args.reference and not os.path.isdir(args.reference):
        print(f"chbench site: no reference directory {args.reference}; "
              "building without it")
        args.reference = None
    vendor_src = []
    for pkg, rel in VENDOR:
        p = os.path.join(args.npm, "node_modules", pkg, rel)
        if not os.path.isfile(p):
            print(f"chbench site: missing {p}: install the pinned npm "
                  "packages with plots/site/npm/install.sh "
                  f"{args.npm}", file=sys.stderr)
            return 2
        vendor_src.append(p)
    rargs = types.SimpleNamespace(
        results=args.results, reference=args.reference, tier=args.tier,
        out=os.path.join(site, "REPORT.md"),
        figures=os.path.join(site, "figures"), pages=None)
    ctx = report.make_context(rargs)
    for sub in ("data", "assets"):
        if os.path.isdir(os.path.join(site, sub)):
            shutil.rmtree(os.path.join(site, sub))
    os.makedirs(os.path.join(site, "data"))
    os.makedirs(os.path.join(site, "assets", "vendor"))
    for p, (pkg, _) in zip(vendor_src, VENDOR):
        shutil.copyfile(p, os.path.join(site, "assets", "vendor",
                                        os.path.basename(p)))
    for a in ASSETS:
        shutil.copyfile(os.path.join(HERE, "assets", a),
                        os.path.join(site, "assets", a))
    for name in os.listdir(site):
        if name.endswith(".html"):
            os.remove(os.path.join(site, name))

    def link(path):
        return os.path.relpath(os.path.abspath(path),
                               site).replace(os.sep, "/")

    pages = {n: question_title(n) for n in QUESTIONS}
    nav = [("index.html", "Overview"), ("chooser.html", "Chooser")] + \
        [(f"{n}.html", f"{q(n)} {n}") for n in QUESTIONS]
    runs = run_list(ctx)
    machine = ctx.machine()
    meta_line = (f"Runs of {h.esc(machine)}"
                 + (f", reference {h.esc(ctx.machine(True))}"
                    if ctx.has_ref else "")
                 + f"; commit{'s' if len({r['commit'] for r in runs}) > 1 else ''} "
                 + ", ".join(sorted({h.esc(r["commit"]) for r in runs
                                     if r["src"] == "yours"})))
    vendor = [f"assets/vendor/{os.path.basename(p)}" for p in vendor_src]

    # charts per question
    q_charts = {}
    row_links = {}  # (chart id, variant key, x) -> link to the table row
    for n in QUESTIONS:
        cs = charts.chart_data(ctx, n, link)
        q_charts[n] = cs
        for c in cs:
            row_links[c["id"]] = f"{n}.html#{c['id']}"
            for p in c["points"]:
                if p["src"] == "yours":
                    row_links.setdefault((c["id"], p["key"], p["x"]),
                                    f"{n}.html#{c['id']}-r{p['row']}")

    def row_link(cid, key, x):
        return row_links.get((cid, key, float(x)), row_links.get(cid))

    common = dict(machine=machine,
                  ref_machine=ctx.machine(True) if ctx.has_ref else None,
                  runs=runs, pages=[dict(file=f, title=t) for f, t in nav])
    write_js(os.path.join(site, "data", "site.js"), "CHBENCH_SITE", common)

    # overview
    body = [f"<h1>Which consistent-hashing algorithm? Results of "
            f"{h.esc(machine)}</h1>"]
    sm = summary.section(ctx)
    body.append('<section aria-labelledby="summary-h">'
                + h.markdown(sm, pages).replace(
                    "<h2>Summary</h2>", '<h2 id="summary-h">Summary</h2>', 1)
                + "</section>")
    ht = headline_table(ctx, site)
    if ht:
        header, rows, intro, runs_line = ht
        body.append('<section aria-labelledby="headline-h"><h2 '
                    'id="headline-h">Headline numbers</h2>'
                    + "<p>" + h.inline(intro, pages) + " Select a column "
                    "heading to sort by it.</p>"
                    + h.table_html(header, rows, pages, "sortable",
                                   "headline")
                    + "<p>" + h.inline(runs_line, pages) + "</p></section>")
    gd = guide.section(ctx)
    body.append('<section aria-labelledby="guide-h">'
                + h.markdown(gd, pages).replace(
                    "<h2>Decision guide</h2>",
                    '<h2 id="guide-h">Decision guide</h2>', 1)
                + "</section>")
    body.append(runs_table(runs))
    write_page(site, "index.html", "Overview", "\n".join(body), nav,
               meta_line, ["data/site.js"], vendor)

    # question pages
    for n in QUESTIONS:
        cs = q_charts[n]
        data_file = f"data/{n}.js"
        write_js(os.path.join(site, data_file), "CHBENCH_PAGE",
                 dict(question=n, charts=[
                     {k: v for k, v in c.items() if k != "run_dirs"}
                     for c in cs]))
        body = [f"<h1>{q(n)}. {h.esc(pages[n])}</h1>"]
        if n == "capabilities":
            body.append(capabilities_table(ctx))
        if not cs and n != "capabilities":
            body.append("<p>No figure for this question.</p>")
        for c in cs:
            body.append(chart_block(c))
        body.append(f'<p class="more">The full tables of this question are '
                    f"in the report's page <code>report/{n}.md</code> "
                    "(<code>make report</code>).</p>")
        write_page(site, f"{n}.html", pages[n], "\n".join(body), nav,
                   meta_line, ["data/site.js", data_file], vendor)

    # chooser
    cd = chooser.data(ctx, link, row_link)
    write_js(os.path.join(site, "data", "chooser.js"), "CHBENCH_CHOOSER", cd)
    write_page(site, "chooser.html", "Chooser", chooser_body(cd), nav,
               meta_line, ["data/site.js", "data/chooser.js"],
               ["assets/chooser.js"])
    # index of the charts for tests and readers: which rows each draws
    write_manifest(site, q_charts, link)
    print(f"chbench site: wrote {site} ({len(QUESTIONS) + 2} pages) in "
          f"{time.time() - t0:.1f} s")
    return 0


def write_manifest(site, q_charts, link):
    """data/manifest.json: each chart's page, selection and source runs
    (for the tests and for a reader who wants the rows behind a chart)."""
    man = []
    for n, cs in q_charts.items():
        for c in cs:
            man.append(dict(page=f"{n}.html", id=c["id"], exp=c["exp"],
                            metric=c["metric"], where=c["where"],
                            stat=c["stat"], peers=c["peers"],
                            runs={s: link(d) for s, d in
                                  c["run_dirs"].items()},
                            points=len(c["points"])))
    with open(os.path.join(site, "data", "manifest.json"), "w",
              encoding="utf-8") as f:
        json.dump(_clean(man), f, indent=1)
        f.write("\n")


def write_page(site, name, title, body, nav, meta_line, data, scripts):
    if name != "chooser.html":
        scripts = scripts + ["assets/site.js"]
    text = h.page(title, body, nav, name, data, scripts, meta_line)
    with open(os.path.join(site, name), "w", encoding="utf-8") as f:
        f.write(text)


def runs_table(runs):
    rows = [[r["src"], r["experiment"], f"`{r['run']}`", r["tier"],
             r["date"], f"`{r['commit']}`"] for r in runs]
    return ('<section aria-labelledby="runs-h"><h2 id="runs-h">Runs</h2>'
            + h.table_html(["results", "experiment", "run id", "tier",
                            "date (UTC)", "commit"], rows, {}, "sortable",
                           "runs") + "</section>")


def capabilities_table(ctx):
    """The registry's declared capabilities of every algorithm."""
    caps = []
    for a in ctx.reg.algorithms.values():
        for c in (a.get("capabilities") or {}):
            if c not in caps:
                caps.append(c)
    rows = []
    for name, a in ctx.reg.algorithms.items():
        c = a.get("capabilities") or {}
        rows.append([f"`{name}`", a.get("lookup_complexity", "") or ""] +
                    ["yes" if c.get(x) else "no" for x in caps])
    return ("<p>Declared in registry.json (<code>chbench list --json</code>)."
            "</p>" + h.table_html(["algorithm", "lookup"] + caps, rows, {},
                                  "sortable", "capabilities"))


def chart_block(c):
    """A figure: controls (axis scale, series), the chart, its data table
    (the chart's text alternative)."""
    cid = h.esc(c["id"])
    if not c["points"]:
        return (f'<section class="chart" id="{cid}" data-chart="{cid}">'
                f"<h2>{h.esc(c['title'])}</h2><p>No rows for this figure "
                f"({h.esc(c['exp'])}, <code>{h.esc(c['metric'])}</code>)."
                "</p></section>")
    series = list(c["styles"])
    boxes = "".join(
        f'<label class="series"><input type="checkbox" checked '
        f'data-series="{h.esc(s)}"><span class="swatch" style="background:'
        f'{h.esc(c["styles"][s]["color"])}"></span>{h.esc(s)}</label>'
        for s in series)
    head = ["results", "series", c["xlabel"] or "series", c["stat"],
            "95 % interval", "n", "noisy", "run id", "commit"]
    rows = "".join(
        f'<tr id="{cid}-r{p["row"]}"><td>{h.esc(p["src"])}</td>'
        f"<td>{h.esc(p['series'])}</td><td>{h.esc(_fmt(p['x']))}</td>"
        f"<td>{h.esc(_fmt(p['y']))}</td><td>{h.esc(p['interval'])}</td>"
        f"<td>{h.esc(p['n'])}</td><td>{'yes' if p['noisy'] else 'no'}"
        f"</td><td><code>{h.esc(p['run'])}</code></td>"
        f"<td><code>{h.esc(p['commit'])}</code></td></tr>"
        for p in c["points"])
    srcs = "; ".join(
        f'{h.esc(s["src"])}: run <code>{h.esc(s["run"])}</code> '
        f'(commit <code>{h.esc(s["commit"])}</code>, '
        f'<a href="{h.esc(s["csv"])}">summary.csv</a>)'
        for s in c["sources"])
    log_y = "checked" if c["positive"] else "disabled"
    log_x = "checked" if (c["x"] != "series" and c["positive_x"]) \
        else "disabled"
    return f"""<section class="chart" id="{cid}" data-chart="{cid}">
<h2>{h.esc(c['title'])}</h2>
<p class="what"><code>{h.esc(c['metric'])}</code> ({h.esc(c['unit'])}; {h.esc(c['better'])} is better): {h.esc(c['description'])}. Points: {c['stat']}s with their 95 % interval; hollow = noisy. {srcs}.</p>
<div class="controls">
<fieldset><legend>Axes</legend>
<label><input type="checkbox" class="logy" {log_y}> log y</label>
<label><input type="checkbox" class="logx" {log_x}> log x</label>
</fieldset>
<fieldset class="serieslist"><legend>Series <button type="button" class="all">all</button> <button type="button" class="none">none</button></legend>{boxes}</fieldset>
</div>
<div class="vis" role="img" aria-label="{h.esc(c['title'])}: the data table below holds every point"></div>
<details class="datatable"><summary>Data table ({len(c['points'])} rows)</summary>
<table class="sortable"><thead><tr>{''.join(f'<th scope="col">{h.esc(x)}</th>' for x in head)}</tr></thead><tbody>{rows}</tbody></table>
</details>
</section>"""


def _fmt(v):
    if isinstance(v, float):
        return f"{v:.6g}"
    return "" if v is None else str(v)


def chooser_body(cd):
    """The chooser's form (real controls with labels; assets/chooser.js
    fills the N list and answers on every change)."""
    if not cd.get("scenarios"):
        return ("<h1>Chooser</h1><p>The chooser needs the lookup "
                "experiment's results.</p>")
    reqs = [("removal", "remove any node (not only the last)"),
            ("add", "add nodes"), ("weights", "weights"),
            ("replicas", "replicas (preference lists)"),
            ("domains", "failure domains (zone-aware replicas)"),
            ("string", "string keys (rank by hash + lookup)")]
    boxes = "".join(f'<label><input type="checkbox" name="{k}" id="req-{k}">'
                    f" {h.esc(t)}</label>" for k, t in reqs)
    return f"""<h1>Chooser</h1>
<p>State what the placement must do; the algorithms that qualify are
ranked by their lookup time measured at that N. Tier 1 is the fastest and
every algorithm the report would not separate from it (per-round ratios
where two cells share timing rounds, a ratio under 1.05× is no difference,
Bonferroni over the comparisons; otherwise overlapping intervals); each
further tier applies the same rule to the rest. Capabilities: registry.json
(removal, weights, replicas); adding nodes: the disruption and build data;
failure domains: the replicas experiment.</p>
<form id="chooser" onsubmit="return false">
<fieldset><legend>Requirements</legend>{boxes}</fieldset>
<fieldset><legend>Size and budgets</legend>
<label for="req-n">N (nodes)</label> <select id="req-n" name="n"></select>
<label for="req-mem">memory budget per node (bytes, empty = none)</label>
<input type="number" id="req-mem" name="mem" min="0" step="any">
<label for="req-ns">lookup budget (ns, empty = none)</label>
<input type="number" id="req-ns" name="ns" min="0" step="any">
</fieldset>
</form>
<section aria-live="polite" aria-labelledby="answer-h">
<h2 id="answer-h">Qualifying algorithms</h2>
<p id="answer-summary"></p>
<table id="answer"><thead><tr><th scope="col">tier</th><th scope="col">algorithm</th>
<th scope="col">lookup ns (median [95 % CI])</th><th scope="col">memory per node (bytes)</th>
<th scope="col">max/mean (balance)</th><th scope="col">moved on removal</th></tr></thead>
<tbody></tbody></table>
<h2>Not qualifying at this N</h2>
<ul id="excluded"></ul>
</section>"""


def main(argv=None):
    ap = argparse.ArgumentParser(description="Build the chbench results "
                                 "site")
    ap.add_argument("--results", required=True, metavar="DIR")
    ap.add_argument("--reference", default=None, metavar="DIR")
    ap.add_argument("--out", required=True, metavar="SITE_DIR")
    ap.add_argument("--npm", required=True, metavar="NPM_DIR")
    ap.add_argument("--tier", default=None)
    return build(ap.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())

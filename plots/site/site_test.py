#!/usr/bin/python3
"""The results site in a real browser (Debian's chromium, headless, driven
by the pinned playwright-core: browser_check.js).

Builds the site of a results tree, with a reference beside it, opens
every page from file:// with every other request aborted, and checks:
  * no console error, no page error, no failed request, no request to
    any host;
  * every chart draws as many point marks (SVG paths of its point layer)
    as its data has rows, the count computed here from summary.csv with
    the chart's declared selection (data/manifest.json), not from the
    site's data files; its data table has as many rows; toggling a series
    off removes exactly its marks;
  * the chooser, for a set of requirement combinations, lists exactly the
    configurations and tiers that oracle() computes from the CSVs and
    registry.json (written apart from the site: it reads the files
    itself and ranks with the report's report.common.rank_paired);
  * a screenshot of each page, kept under the output directory, has more
    than MIN_COLOURS distinct colours.

Results: the fake results of plots/testdata/make_fake_results.py (the
report tests' data; a second fake tree with --scale as the reference), or
the tree in CHBENCH_SITE_RESULTS (ctest passes the shared smoke-tier
run, copied: the test never writes into it) with the committed reference
(chdata.pick_reference) beside it.

Usage: site_test.py --npm NPM_DIR --out DIR
Exit 77 (ctest SKIP_RETURN_CODE) with a message when chromium or the npm
packages are not installed (make site-deps installs them).
"""

import sys as _sys
_sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import argparse  # noqa: E402
import csv  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import unittest  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PLOTS = os.path.dirname(HERE)
sys = _sys
sys.path.insert(0, PLOTS)

import chdata  # noqa: E402
from report.common import rank_paired  # noqa: E402
from report.guide import TIMING_MARGIN  # noqa: E402

CHROMIUM = os.environ.get("CHBENCH_CHROMIUM", "/usr/bin/chromium")
MIN_COLOURS = 64
SKIP = 77
ARGS = None


# ---------------------------------------------------------------------------
# reading the CSVs (independently of the site's code)


def read_rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def fnum(s):
    try:
        v = float(s)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(v) else v


def registry(results):
    try:
        with open(os.path.join(results, "registry.json"),
                  encoding="utf-8") as f:
            return json.load(f)
    except OSError:
        return {}


def expected_points(run_dir, chart, peers):
    """The summary rows a chart must draw for one run: its selection
    (filters applied in their order; None = empty cell, "*" = any value,
    a tuple = any of its values,
    "max" = the largest value left), a value in its statistic, peers left
    out (or, for a chart about peers, only peers and their bases)."""
    rows = [r for r in read_rows(os.path.join(run_dir, "summary.csv"))
            if r["metric"] == chart["metric"]]
    for col, val in chart["where"].items():
        if rows and col not in rows[0]:
            if val is None:
                continue
            return 0
        if val == "max":
            xs = [fnum(r[col]) for r in rows if fnum(r[col]) is not None]
            if not xs:
                return 0
            val = max(xs)
        if val is None:
            rows = [r for r in rows if r[col] == ""]
        elif val == "*":
            rows = [r for r in rows if r[col] != ""]
        elif isinstance(val, (list, tuple)):
            rows = [r for r in rows
                    if fnum(r[col]) in {float(v) for v in val}]
        elif isinstance(val, str):
            rows = [r for r in rows if r[col] == val]
        else:
            rows = [r for r in rows if fnum(r[col]) == float(val)]
    rows = [r for r in rows if fnum(r[chart["stat"]]) is not None]
    if chart["peers"]:
        keep = set(peers) | {b for b in peers.values() if b}
        rows = [r for r in rows if r["algorithm"] in keep]
    else:
        rows = [r for r in rows if r["algorithm"] not in peers]
    return len(rows)


def smallest_prime_from(x):
    n = max(2, int(x))
    while any(n % d == 0 for d in range(2, int(n ** 0.5) + 1)) or n < 2:
        n += 1
    return n


def variant_key(r):
    """algorithm|vnodes|table_size|load_factor|capacity|probes, the
    default table size (smallest prime >= 100 N) and a = N empty."""
    n = fnum(r.get("nodes"))
    out = [r["algorithm"]]
    for c in ("vnodes", "table_size", "load_factor", "capacity", "probes"):
        v = fnum(r.get(c))
        if v is not None and c == "table_size" and n is not None and \
                v == smallest_prime_from(100 * n):
            v = None
        if v is not None and c == "capacity" and v == n:
            v = None
        out.append("" if v is None else
                   (str(int(v)) if v.is_integer() else repr(v)))
    return "|".join(out)


def run_dir(results, exp, tier=None):
    d, _ = chdata.select_run(results, exp, tier)
    return d


def oracle(results, reqs, n, mem, ns, tier=None):
    """[(tier, set of variant keys)] and the set of keys excluded, for one
    requirement combination at N (text as the page's N list), from the
    CSVs and registry.json."""
    reg = registry(results)
    caps = {a["name"]: a.get("capabilities") or {}
            for a in reg.get("algorithms", [])}
    peers = {p["name"] for p in reg.get("peers", [])}
    lk_dir = run_dir(results, "lookup", tier)
    summ = chdata.read_csv(os.path.join(lk_dir, "summary.csv"),
                           chdata.SUMMARY_COLUMNS)
    data = chdata.read_csv(os.path.join(lk_dir, "data.csv"), chdata.COLUMNS)
    scen = "string" if reqs.get("string") else "prehashed"
    nn = float(n)
    c = summ[(summ["metric"] == "lookup_ns") & (summ["hash"] == "xxh64") &
             (summ["scenario"] == scen) & (summ["nodes"] == nn) &
             summ["threads"].isna() & (summ["removal"] == "") &
             ~summ["algorithm"].isin(peers) & summ["median"].notna()]
    if "batch" in c.columns:  # a batched cell's own single-key rows
        c = c[c["batch"].isna()]
    cands = [r.to_dict() for _, r in c.iterrows()]
    noadd = set()
    for exp, col, val in (("disruption", "scenario", "add"),
                          ("build", "metric", "add_node_ns")):
        d = run_dir(results, exp, tier)
        if d is None:
            continue
        for r in read_rows(os.path.join(d, "data.csv")):
            if r[col] == val and r["value"] == "" and \
                    r["note"].lower().startswith("not applicable"):
                noadd.add(variant_key(r))
    domains = set()
    d = run_dir(results, "replicas", tier)
    if d is not None:
        by = {}
        for r in read_rows(os.path.join(d, "summary.csv")):
            if r["metric"] == "domain_violation_fraction" and \
                    r["scenario"] == "zone_aware" and \
                    r["topology"] not in ("", "flat") and \
                    fnum(r["median"]) is not None:
                v = fnum(r["max"])
                by.setdefault(r["algorithm"], []).append(
                    v if v is not None else fnum(r["median"]))
        domains = {a for a, vs in by.items() if all(v == 0 for v in vs)}
    memory = {}
    d = run_dir(results, "memory", tier)
    if d is not None:
        for r in read_rows(os.path.join(d, "summary.csv")):
            if r["metric"] == "memory_bytes_per_node" and \
                    fnum(r["nodes"]) == nn and fnum(r["median"]) is not None:
                k = variant_key(r)
                memory[k] = max(memory.get(k, -math.inf), fnum(r["median"]))
    keep, excluded = [], set()
    for r in cands:
        k = variant_key(r)
        a = caps.get(r["algorithm"], {})
        ok = all([
            not reqs.get("removal") or bool(a.get("arbitrary_removal")),
            not reqs.get("weights") or bool(a.get("weights")),
            not reqs.get("replicas") or bool(a.get("replicas")),
            not reqs.get("add") or k not in noadd,
            not reqs.get("domains") or r["algorithm"] in domains,
            mem is None or (k in memory and memory[k] <= mem),
            ns is None or r["median"] <= ns])
        if ok:
            keep.append(r)
        else:
            excluded.add(k)
    tiers = []
    rest = sorted(keep, key=lambda r: r["median"])
    while rest:
        best, tied, _ = rank_paired(rest, data, "lower", True,
                                    margin=TIMING_MARGIN)
        tier = [best] + tied
        tiers.append({variant_key(r) for r in tier})
        rest = [r for r in rest if not any(r is t for t in tier)]
    return tiers, excluded


def cases(results, tier=None):
    """Requirement combinations for every N the lookup run measured: no
    requirement, each requirement alone, some together, and budgets at
    the middle of the measured memory and lookup values."""
    lk_dir = run_dir(results, "lookup", tier)
    rows = [r for r in read_rows(os.path.join(lk_dir, "summary.csv"))
            if r["metric"] == "lookup_ns" and r["hash"] == "xxh64" and
            r["scenario"] == "prehashed" and r.get("threads", "") == "" and
            r.get("removal", "") == "" and fnum(r["median"]) is not None]
    ns_ = sorted({fnum(r["nodes"]) for r in rows})
    mem_dir = run_dir(results, "memory", tier)
    mems = [] if mem_dir is None else [
        fnum(r["median"]) for r in read_rows(os.path.join(mem_dir,
                                                          "summary.csv"))
        if r["metric"] == "memory_bytes_per_node" and
        fnum(r["median"]) is not None]
    combos = [{}, {"removal": True}, {"removal": True, "weights": True},
              {"removal": True, "add": True}, {"add": True},
              {"replicas": True}, {"domains": True},
              {"string": True}, {"string": True, "removal": True,
                                 "add": True}]
    out = []
    for n in ns_:
        at = sorted(fnum(r["median"]) for r in rows if fnum(r["nodes"]) == n)
        nt = str(int(n)) if n.is_integer() else repr(n)
        for i, c in enumerate(combos):
            out.append(dict(name=f"N={nt} {sorted(c)}", reqs=c, n=nt,
                            mem=None, ns=None))
        out.append(dict(name=f"N={nt} lookup budget", reqs={"removal": True},
                        n=nt, mem=None, ns=at[len(at) // 2]))
        if mems:
            m = sorted(mems)[len(mems) // 2]
            out.append(dict(name=f"N={nt} memory budget", reqs={}, n=nt,
                            mem=m, ns=None))
    for c in out:
        if c["n"] == "1000" and c["reqs"] == {"removal": True,
                                              "weights": True}:
            c["screenshot"] = "chooser-removal-weights-N1000.png"
    return out


# ---------------------------------------------------------------------------


def distinct_colours(png):
    from PIL import Image
    with Image.open(png) as im:
        im = im.convert("RGB")
        cols = im.getcolors(maxcolors=1 << 20) or []
        total = im.size[0] * im.size[1]
    top = max((c for c, _ in cols), default=total)
    return len(cols), top / total


def prerequisites(npm):
    missing = []
    if not os.access(CHROMIUM, os.X_OK):
        missing.append(f"{CHROMIUM} (Debian package chromium)")
    if shutil.which("node") is None:
        missing.append("node (Debian package nodejs)")
    for pkg in ("playwright-core", "vega", "vega-lite", "vega-embed"):
        if not os.path.isdir(os.path.join(npm, "node_modules", pkg)):
            missing.append(f"npm package {pkg} in {npm} "
                           "(plots/site/npm/install.sh)")
    return missing


class SiteTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        out = os.path.abspath(ARGS.out)
        if os.path.isdir(out):
            shutil.rmtree(out)
        os.makedirs(out)
        src = os.environ.get("CHBENCH_SITE_RESULTS")
        # Real runs get the committed reference beside them (as make
        # report does); fake ones a second fake tree.
        cls.reference = chdata.pick_reference(os.path.join(
            os.path.dirname(PLOTS), "results", "reference")) if src else None
        if cls.reference is None:
            cls.reference = os.path.join(out, "reference")
            subprocess.run([sys.executable, os.path.join(
                PLOTS, "testdata", "make_fake_results.py"), "--out",
                cls.reference, "--cpu", "Fake reference CPU", "--scale",
                "1.5"], check=True, stdout=subprocess.DEVNULL)
        cls.results = os.path.join(out, "results")
        if src:
            shutil.copytree(src, cls.results)
        else:
            subprocess.run([sys.executable, os.path.join(
                PLOTS, "testdata", "make_fake_results.py"), "--out",
                cls.results], check=True, stdout=subprocess.DEVNULL)
        cls.site = os.path.join(cls.results, "site")
        subprocess.run([sys.executable, os.path.join(HERE, "build.py"),
                        "--results", cls.results, "--reference",
                        cls.reference, "--out", cls.site, "--npm",
                        ARGS.npm], check=True)
        cls.cases = cases(cls.results)
        with open(os.path.join(out, "cases.json"), "w") as f:
            json.dump(cls.cases, f)
        cls.shots = os.path.join(out, "screenshots")
        subprocess.run(["node", os.path.join(HERE, "browser_check.js"),
                        ARGS.npm, cls.site, os.path.join(out, "cases.json"),
                        cls.shots, os.path.join(out, "browser.json")],
                       check=True, timeout=240)
        with open(os.path.join(out, "browser.json")) as f:
            cls.seen = json.load(f)
        with open(os.path.join(cls.site, "data", "manifest.json")) as f:
            cls.manifest = json.load(f)

    def test_every_page_was_opened(self):
        pages = sorted(f for f in os.listdir(self.site)
                       if f.endswith(".html"))
        self.assertIn("index.html", pages)
        self.assertIn("chooser.html", pages)
        self.assertGreaterEqual(len(pages), 3 + 10)
        self.assertEqual(sorted(self.seen["pages"]), pages)

    def test_pages_load_offline_without_errors(self):
        for name, rec in self.seen["pages"].items():
            with self.subTest(page=name):
                self.assertEqual(rec["console_errors"], [])
                self.assertEqual(rec["page_errors"], [])
                self.assertEqual(rec["failed"], [])
                self.assertEqual(rec["blocked"], [])
                self.assertGreater(rec["requests"], 3)

    def test_every_chart_draws_one_mark_per_row(self):
        regs = [registry(self.results), registry(self.reference)]
        peers = {}
        for r in regs:
            peers.update({p["name"]: p.get("base")
                          for p in r.get("peers", [])})
        drawn, both = 0, 0
        for ch in self.manifest:
            want = 0
            for src, rel in ch["runs"].items():
                want += expected_points(os.path.normpath(os.path.join(
                    self.site, rel)), ch, peers)
            got = self.seen["pages"][ch["page"]]["charts"][ch["id"]]
            with self.subTest(chart=ch["id"]):
                self.assertEqual(got["points"], want)
                self.assertEqual(got["table_rows"], want)
                self.assertEqual(got["svg"], want > 0)
            drawn += want > 0
            both += len(ch["runs"]) == 2
        self.assertGreaterEqual(drawn, 15)
        self.assertGreater(both, 0, "no chart has the reference beside")

    def test_series_toggle_removes_its_marks(self):
        t = self.seen["pages"]["lookup.html"].get("toggle")
        self.assertIsNotNone(t)
        self.assertGreater(t["removed"], 0)
        self.assertEqual(t["after"], t["total"] - t["removed"])
        self.assertEqual(t["restored"], t["total"])

    def test_chooser_equals_oracle(self):
        got = {c["name"]: c for c in self.seen["chooser"]}
        self.assertEqual(len(got), len(self.cases))
        nonempty = partial = multi = 0
        for c in self.cases:
            with self.subTest(case=c["name"]):
                tiers, excluded = oracle(self.results, c["reqs"], c["n"],
                                         c["mem"], c["ns"])
                g = got[c["name"]]
                self.assertEqual(g["n_selected"], c["n"])
                page_tiers = []
                for t, k in g["rows"]:
                    while len(page_tiers) < t:
                        page_tiers.append(set())
                    page_tiers[t - 1].add(k)
                self.assertEqual(page_tiers, tiers)
                self.assertEqual(set(g["excluded"]), excluded)
                nonempty += bool(tiers)
                partial += bool(tiers) and bool(excluded)
                multi += len(tiers) > 1
        self.assertGreater(nonempty, 0)
        self.assertGreater(partial, 0)
        self.assertGreater(multi, 0)

    def test_chooser_links_reach_the_rows_behind_each_number(self):
        import re
        with open(os.path.join(self.site, "data", "chooser.js"),
                  encoding="utf-8") as f:
            text = f.read()
        d = json.loads(text[text.index("=") + 1:].rstrip().rstrip(";"))
        html = {}
        checked = 0
        for sc in d["scenarios"].values():
            for n, cands in sc["by_n"].items():
                for c in cands:
                    for what, target in c["links"].items():
                        if target is None or "-r" not in target:
                            continue
                        page, _, rid = target.partition("#")
                        if page not in html:
                            with open(os.path.join(self.site, page),
                                      encoding="utf-8") as f:
                                html[page] = f.read()
                        m = re.search(r'<tr id="%s">(.*?)</tr>'
                                      % re.escape(rid), html[page])
                        with self.subTest(link=target):
                            self.assertIsNotNone(m)
                            cells = re.findall(r"<td>(.*?)</td>",
                                               m.group(1))
                            self.assertEqual(cells[0], "yours")
                            self.assertEqual(float(cells[2]), float(n))
                            self.assertEqual(cells[1].replace("&amp;", "&"),
                                             c["label"])
                        checked += 1
        self.assertGreater(checked, 20)

    def test_chooser_keyboard(self):
        k = self.seen["pages"]["chooser.html"].get("keyboard")
        self.assertEqual(k, {"space_toggles": True})

    def test_screenshots_are_not_blank(self):
        for name, rec in self.seen["pages"].items():
            with self.subTest(page=name):
                n, top = distinct_colours(rec["screenshot"])
                self.assertGreater(n, MIN_COLOURS)
                self.assertLess(top, 0.97)

    def test_size(self):
        size = sum(os.path.getsize(os.path.join(d, f))
                   for d, _, fs in os.walk(self.site) for f in fs)
        self.assertLess(size, 5 * 1024 * 1024)


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--npm", required=True)
    ap.add_argument("--out", required=True)
    ARGS, rest = ap.parse_known_args()
    missing = prerequisites(ARGS.npm)
    if missing:
        print("site_test: SKIPPED, the browser test needs: "
              + "; ".join(missing) + ". `make site-deps` installs them "
              "(as root; otherwise it prints the apt-get command).")
        return SKIP
    prog = unittest.main(argv=[sys.argv[0]] + rest, exit=False,
                         verbosity=2)
    return 0 if prog.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""End-to-end test of the figures and the report on fake results.

Generates a fake results tree (plots/testdata/make_fake_results.py), runs
make_figures.py (--strict) and make_report.py on it, and checks:
  * every image the report links exists, every CSV link resolves;
  * the seed table has a row per claim of SEED_CLAIMS;
  * decision-guide numbers equal values recomputed here from data.csv
    (median over repetitions), independently of the report's code path;
  * the newest run is used (an older, 10x slower lookup run is ignored).

Set CHBENCH_REPORT_RESULTS=<dir> to run the link/seed checks on a real
results tree instead of fake data (the decision-guide checks then recompute
from that tree).

Run: /usr/bin/python3 plots/report_test.py
"""

import sys as _sys
_sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_report  # noqa: E402

PY = sys.executable


def _run(args):
    r = subprocess.run([PY] + args, capture_output=True, text=True,
                       timeout=1800)
    if r.returncode != 0:
        raise AssertionError(f"{args} failed ({r.returncode}):\n"
                             f"{r.stdout}\n{r.stderr}")
    return r.stdout


def _newest_data(results, exp):
    """data.csv of the newest run (by meta date) — own implementation."""
    import json
    best = None
    base = os.path.join(results, exp)
    if not os.path.isdir(base):
        return None
    for rid in os.listdir(base):
        p = os.path.join(base, rid, "data.csv")
        if not os.path.isfile(p):
            continue
        try:
            with open(os.path.join(base, rid, "meta.json")) as f:
                m = json.load(f)
            # the runner writes date_utc (results/README.md); "date" is
            # the older name, accepted as a fallback.
            date = m.get("date_utc") or m.get("date") or ""
        except (OSError, ValueError):
            date = ""
        if best is None or date > best[0]:
            best = (date, p)
    if best is None:
        return None
    d = pd.read_csv(best[1], keep_default_na=False, dtype=str)
    d["value"] = pd.to_numeric(d["value"].replace("", None),
                               errors="coerce")
    for c in ("nodes", "vnodes", "table_size", "load_factor"):
        d[c] = pd.to_numeric(d[c].replace("", None), errors="coerce")
    # Maglev's default M (smallest prime >= 100·N) varies with N: such rows
    # are one series (empty table_size), as in chdata.normalize_maglev.
    def _prime_at_least(x):
        x = int(x)
        while x < 2 or any(x % p == 0 for p in range(2, int(x ** .5) + 1)):
            x += 1
        return x
    mg = (d["algorithm"] == "maglev") & d["table_size"].notna()
    for i in d.index[mg]:
        if d.at[i, "table_size"] == _prime_at_least(100 * d.at[i, "nodes"]):
            d.at[i, "table_size"] = float("nan")
    return d


def _medians(d, **f):
    for c, v in f.items():
        d = d[d[c] == v]
    d = d[d["value"].notna()]
    keys = ["algorithm", "vnodes", "table_size", "load_factor"]
    return d.groupby(keys, dropna=False)["value"].median().reset_index()


class ReportTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="chbench-report-test-")
        real = os.environ.get("CHBENCH_REPORT_RESULTS")
        cls.fake = not real
        if real:
            cls.results = os.path.abspath(real)
        else:
            cls.results = os.path.join(cls.tmp, "results")
            _run([os.path.join(HERE, "testdata", "make_fake_results.py"),
                  "--out", cls.results])
        cls.figures = os.path.join(cls.tmp, "figures")
        cls.report = os.path.join(cls.tmp, "out", "REPORT.md")
        cls.fig_log = _run([os.path.join(HERE, "make_figures.py"),
                            "--results", cls.results, "--out", cls.figures,
                            "--strict"])
        _run([os.path.join(HERE, "make_report.py"), "--results",
              cls.results, "--figures", cls.figures, "--out", cls.report])
        with open(cls.report, encoding="utf-8") as f:
            cls.text = f.read()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def _links(self, image):
        pat = r"!\[[^\]]*\]\(([^)]+)\)" if image else \
            r"(?<!!)\[[^\]]*\]\(([^)#]+)\)"
        return re.findall(pat, self.text)

    def test_header_says_generated(self):
        self.assertIn("Generated file — do not edit by hand", self.text)

    def test_every_figure_linked_exists(self):
        imgs = self._links(image=True)
        if self.fake:  # fake data covers every figure
            self.assertEqual(len(imgs), len(make_report.FIGURES))
        base = os.path.dirname(self.report)
        for p in imgs:
            self.assertTrue(os.path.isfile(os.path.join(base, p)), p)

    def test_every_figure_has_svg(self):
        for stem, _ in make_report.FIGURES:
            png = os.path.join(self.figures, stem + ".png")
            if os.path.isfile(png):
                self.assertTrue(os.path.isfile(
                    os.path.join(self.figures, stem + ".svg")), stem)

    def test_every_csv_link_resolves(self):
        links = [p for p in self._links(image=False) if p.endswith(".csv")]
        self.assertGreater(len(links), 20)
        base = os.path.dirname(self.report)
        for p in set(links):
            self.assertTrue(os.path.isfile(os.path.join(base, p)), p)
        for p in self._links(image=False):
            if p.endswith(".svg"):
                self.assertTrue(os.path.isfile(os.path.join(base, p)), p)

    def test_seed_table_has_row_per_claim(self):
        sec = self.text.split("## Seed articles")[1].split("\n## ")[0]
        rows = [ln for ln in sec.splitlines() if ln.startswith("| C")]
        self.assertEqual(len(rows), len(make_report.SEED_CLAIMS))
        for cl in make_report.SEED_CLAIMS:
            self.assertTrue(any(f"`{cl['scenario']}`" in r and
                                cl["label"] in r for r in rows),
                            cl["label"])
        if self.fake:
            self.assertNotIn("not measured", sec)

    def test_seed_inside_flags_match_data(self):
        d = _newest_data(self.results, "seeds")
        if d is None:
            self.skipTest("no seeds results")
        sec = self.text.split("## Seed articles")[1].split("\n## ")[0]
        rows = [ln for ln in sec.splitlines() if ln.startswith("| C")]
        for cl, row in zip(make_report.SEED_CLAIMS, rows):
            v = d[(d["scenario"] == cl["scenario"]) &
                  (d["metric"] == cl["metric"]) &
                  (d["algorithm"] == cl["algorithm"])]
            if cl["setting"].get("vnodes") is not None and \
                    cl["algorithm"] == "ring":
                v = v[v["vnodes"] == cl["setting"]["vnodes"]]
            v = v["value"].dropna()
            if v.empty:
                continue
            lo, hi = v.quantile(0.025), v.quantile(0.975)
            inside = lo <= cl["article"] <= hi
            cells = [c.strip() for c in row.split("|")]
            self.assertTrue(cells[9].endswith("yes" if inside else "no"),
                            (cl["label"], cells[9], lo, hi))
            if not inside:  # outside the runs' spread: explained
                self.assertNotEqual(cells[10], "", cl["label"])

    def _guide(self, gid):
        for ln in self.text.splitlines():
            if f'id="g-{gid}"' in ln:
                return ln
        self.fail(f"decision guide item {gid} missing")

    def test_guide_fastest_lookup(self):
        d = _newest_data(self.results, "lookup")
        if d is None:
            self.skipTest("no lookup results")
        if "xxh64" in set(d["hash"]):  # the guide compares at the default hash
            d = d[d["hash"] == "xxh64"]
        for sc in ("prehashed", "string"):
            m = _medians(d, metric="lookup_ns", scenario=sc)
            n = make_report.pick_n(d["nodes"], 1000)
            m = _medians(d[d["nodes"] == n], metric="lookup_ns",
                         scenario=sc)
            m = m[~m["algorithm"].isin(make_report.BASELINES)]
            best = m.loc[m["value"].idxmin()]
            line = self._guide(f"fastest_lookup_{sc}")
            self.assertIn(f"**{make_report.variant_label(best)}** "
                          f"{make_report.fmt_num(best['value'])} ns", line)
            if self.fake and sc == "prehashed":
                # the older, 10x slower run must be ignored
                self.assertLess(best["value"], 10)

    def test_guide_o1_removal(self):
        d = _newest_data(self.results, "disruption")
        if d is None:
            self.skipTest("no disruption results")
        dd = d[d["scenario"] == "remove_random"]
        n = make_report.pick_n(dd["nodes"], 100)
        dd = dd[dd["nodes"] == n]
        m = _medians(dd, metric="moved_fraction")
        m = m[m["algorithm"].isin(make_report.O1_LOOKUP)]
        best = m.loc[m["value"].idxmin()]
        opt = _medians(dd[dd["algorithm"] == best["algorithm"]],
                       metric="moved_optimal_fraction")["value"].iloc[0]
        line = self._guide("o1_removal")
        self.assertIn(f"**{make_report.variant_label(best)}** "
                      f"{make_report.fmt_pct(best['value'])} vs optimum "
                      f"{make_report.fmt_pct(opt)}", line)
        if self.fake:
            self.assertEqual(best["algorithm"], "maglev")

    def test_guide_ring_vnodes(self):
        d = _newest_data(self.results, "vnodes")
        if d is None:
            self.skipTest("no vnodes results")
        d = d[(d["metric"] == "load_max_over_mean") &
              (d["scenario"] == "measured")]
        n = make_report.pick_n(d["nodes"], 100)
        m = d[d["nodes"] == n].groupby("vnodes")[
            "value"].median().sort_index()
        ok = m[m <= make_report.VNODES_TARGET_MAX_OVER_MEAN]
        v = ok.index[0] if not ok.empty else m.idxmin()
        line = self._guide("ring_vnodes")
        self.assertIn(f"**ring at {v:g} vnodes** gives median max/mean "
                      f"{m[v]:.3g}× at N={n}", line)
        if ok.empty:  # must not claim the target was reached
            self.assertIn("no vnode count", line)
        else:
            self.assertIn("the smallest vnode count", line)

    def test_guide_least_memory_and_balance(self):
        d = _newest_data(self.results, "memory")
        if d is not None:
            n = make_report.pick_n(d["nodes"], 1000)
            m = _medians(d[d["nodes"] == n], metric="memory_bytes")
            m = m[~m["algorithm"].isin(make_report.BASELINES)]
            best = m.loc[m["value"].idxmin()]
            self.assertIn(f"**{make_report.variant_label(best)}** "
                          f"{make_report.fmt_num(best['value'])} bytes",
                          self._guide("least_memory"))
        d = _newest_data(self.results, "balance")
        if d is not None:
            if d["keyset"].nunique() > 1 and (d["keyset"] == "uniform").any():
                d = d[d["keyset"] == "uniform"]
            if d["hash"].nunique() > 1 and (d["hash"] == "xxh64").any():
                d = d[d["hash"] == "xxh64"]
            n = make_report.pick_n(d["nodes"], 100)
            m = _medians(d[d["nodes"] == n], metric="load_max_over_mean",
                         scenario="measured")
            m = m[~m["algorithm"].isin(make_report.BASELINES)]
            best = m.loc[m["value"].idxmin()]
            self.assertIn(f"**{make_report.variant_label(best)}** max/mean "
                          f"{best['value']:.3g}×",
                          self._guide("best_balance"))

    def test_figures_skip_missing_experiment(self):
        empty = os.path.join(self.tmp, "empty")
        os.makedirs(empty, exist_ok=True)
        out = _run([os.path.join(HERE, "make_figures.py"), "--results",
                    empty, "--out", os.path.join(self.tmp, "figs2"),
                    "--strict"])
        self.assertEqual(out.count("skipped"), len(make_report.FIGURES))
        _run([os.path.join(HERE, "make_report.py"), "--results", empty,
              "--figures", os.path.join(self.tmp, "figs2"), "--out",
              os.path.join(self.tmp, "r2.md")])
        with open(os.path.join(self.tmp, "r2.md"), encoding="utf-8") as f:
            t = f.read()
        self.assertIn("No results for", t)
        self.assertIn("not measured", t)

    def test_capability_matrix_from_data(self):
        if not self.fake:
            self.skipTest("fake-data expectations")
        sec = self.text.split("## Q5.")[1].split("\n## ")[0]
        jump = [ln for ln in sec.splitlines() if ln.startswith("| jump |")]
        self.assertEqual(len(jump), 1)
        cells = [c.strip() for c in jump[0].split("|")]
        self.assertEqual(cells[2], "no")   # removal: from n/a rows
        self.assertEqual(cells[3], "no")   # weights: from n/a rows


if __name__ == "__main__":
    unittest.main(verbosity=2)

#!/usr/bin/python3
"""Tests of the figures and the report on fake results (plain unittest).

Generates a fake results tree (plots/testdata/make_fake_results.py) as the
user's runs, copies it as a "reference machine", runs make_figures.py
(--strict) and make_report.py (with and without --reference), and checks
things that can fail:
  * statistics labels: a median is printed with its own order-statistic
    interval (recomputed here from data.csv), never beside a mean CI;
    noisy cells carry "~"; n = 1 and n_eff = 1 cells carry no interval;
  * the minimal-disruption judgement flips when the fake excess is made
    large relative to the optimum;
  * a tie is declared when CIs overlap and a winner when they separate;
  * jump is never listed among constant-time lookups (registry.json), and
    is when the registry says so;
  * the reference column appears only with --reference;
  * links resolve, the seed table has a row per claim with the z flag
    recomputed here, the newest run is used, the t quantiles;
  * node failures: range hashes reported in LIFO order, the slowdown
    verdict ("within noise" when intervals overlap), monotonicity flips to
    "no" with one moved key on a live node or one step excess;
  * capacity and probes: the Pareto front equals a brute-force front,
    and a variant made fastest joins it; the committed reference runs
    (made before these experiments) still render, with a one-line note;
  * the cache cluster: each algorithm's extra reads against ring's, seed
    by seed (a constant 1.3× per seed separates although the marginal
    intervals overlap; noise around 1× ties), modulo's ratio to ring, the cascade's highest utilization without
    failures (it drops when one seed fails), the bounded-load bound, and
    the memcached-vs-simulation tolerance verdict (it flips when a real
    value moves beyond the tolerance); "hot key" appears only there;
  * replica placement: the headline tables equal medians computed here
    from data.csv, the decision guide's winners equal a paired ranking
    computed here, and zone loss stops being a tie when one zone-aware
    cell loses keys.

Set CHBENCH_REPORT_RESULTS=<dir> to run the data-independent checks on a
real results tree instead (report_smoke_test.sh does).

Run: /usr/bin/python3 plots/report_test.py
"""

import sys as _sys
_sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import argparse  # noqa: E402
import atexit  # noqa: E402
import glob  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import unittest  # noqa: E402

import pandas as pd  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "testdata"))
import chdata  # noqa: E402
import report  # noqa: E402
from report import capabilities, common, guide, questions  # noqa: E402
from report.figures import FIGURES  # noqa: E402
from report.seeds import SEED_CLAIMS  # noqa: E402
import style  # noqa: E402

PY = sys.executable


def _run(args):
    r = subprocess.run([PY] + args, capture_output=True, text=True,
                       timeout=1800)
    if r.returncode != 0:
        raise AssertionError(f"{args} failed ({r.returncode}):\n"
                             f"{r.stdout}\n{r.stderr}")
    return r.stdout


_FAKE = {}


def _fake_tree(dst):
    """Copies the fake results tree to dst. The tree is made once per
    process (make_fake_results.py) and shared by the classes that read it;
    each gets its own copy to edit."""
    if "dir" not in _FAKE:
        _FAKE["dir"] = tempfile.mkdtemp(prefix="chbench-fake-results-")
        atexit.register(shutil.rmtree, _FAKE["dir"], True)
        _run([os.path.join(HERE, "testdata", "make_fake_results.py"),
              "--out", os.path.join(_FAKE["dir"], "local"),
              "--cpu", "FAKE LOCAL CPU"])
    shutil.copytree(os.path.join(_FAKE["dir"], "local"), dst)


def _skip_on_real_results():
    """The fake-data classes check sections against numbers planted in the
    fake tree; on a real tree (CHBENCH_REPORT_RESULTS, report_smoke_test)
    they would only repeat report_test's run."""
    if os.environ.get("CHBENCH_REPORT_RESULTS"):
        raise unittest.SkipTest("fake-data checks: report_test runs them")


def _make_report(args):
    """make_report.py with these arguments, in this process (the
    interpreter and pandas are loaded once for every report the tests
    write); its stdout is returned."""
    import contextlib
    import io
    import make_report
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = make_report.main(args)
    if rc != 0:
        raise AssertionError(f"make_report {args} returned {rc}:\n"
                             f"{buf.getvalue()}")
    return buf.getvalue()


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def _run_dir(results, exp):
    base = os.path.join(results, exp)
    best = None
    for rid in os.listdir(base):
        with open(os.path.join(base, rid, "meta.json")) as f:
            d = json.load(f).get("date_utc", "")
        if best is None or d > best[0]:
            best = (d, os.path.join(base, rid))
    return best[1]


def _data(results, exp):
    """data.csv of the newest run, read with plain pandas: the single-key
    cells (empty `batch`), which are all the report's tables but the
    batching section read."""
    d = pd.read_csv(os.path.join(_run_dir(results, exp), "data.csv"),
                    keep_default_na=False, dtype=str)
    if "batch" in d.columns:
        d = d[d["batch"] == ""]
    for c in ("value", "nodes", "vnodes", "table_size", "load_factor",
              "keys", "placed_keys", "threads"):
        d[c] = pd.to_numeric(d[c].replace("", None), errors="coerce")
    return d


def _median_ci(values):
    """Own implementation: smallest-width symmetric order-statistic pair
    with binomial(n, 1/2) coverage >= 0.95, by brute force."""
    v = sorted(values)
    n = len(v)
    best = None
    for j in range(1, n // 2 + 1):
        cov = sum(math.comb(n, k) for k in range(j, n - j + 1)) / 2 ** n
        if cov >= 0.95:
            best = (v[j - 1], v[n - j])
    return best


def _h(name):
    """The heading prefix of a numbered question, by name."""
    return f"## {questions.q(name)}."


def _section(text, head):
    return text.split(head)[1].split("\n## ")[0]


def _row(sec, first):
    rows = [ln for ln in sec.splitlines() if ln.startswith(f"| {first} |")]
    return [c.strip() for c in rows[0].split("|")[1:-1]] if rows else None


def _args(results, out, figures, reference=None):
    return argparse.Namespace(results=results, reference=reference, out=out,
                              figures=figures, tier=None, readme=None)


def _edit_tree(src, dst, exp, fn):
    """Copies results tree src to dst, applies fn to exp's data.csv
    (a DataFrame of strings) and rewrites its summary.csv."""
    shutil.copytree(src, dst)
    rd = _run_dir(dst, exp)
    d = pd.read_csv(os.path.join(rd, "data.csv"), keep_default_na=False,
                    dtype=str)
    d = fn(d)
    d.to_csv(os.path.join(rd, "data.csv"), index=False)
    import make_fake_results
    make_fake_results.write_summary(rd)
    return dst


class ReportTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="chbench-report-test-")
        real = os.environ.get("CHBENCH_REPORT_RESULTS")
        cls.fake = not real
        if real:
            cls.results = os.path.abspath(real)
        else:
            cls.results = os.path.join(cls.tmp, "results", "local")
            _fake_tree(cls.results)
        cls.reference = os.path.join(cls.tmp, "results", "reference",
                                     "amd-epyc-2cpu")
        shutil.copytree(cls.results, cls.reference)
        for exp in os.listdir(cls.reference):
            d = os.path.join(cls.reference, exp)
            for rid in (os.listdir(d) if os.path.isdir(d) else []):
                p = os.path.join(d, rid, "meta.json")
                with open(p) as f:
                    m = json.load(f)
                m.setdefault("machine", {})["cpu_model"] = "AMD EPYC REF"
                with open(p, "w") as f:
                    json.dump(m, f)
        cls.figures = os.path.join(cls.tmp, "figures")
        cls.report = os.path.join(cls.tmp, "out", "REPORT.md")
        cls.report_ref = os.path.join(cls.tmp, "out", "REPORT-ref.md")
        _run([os.path.join(HERE, "make_figures.py"), "--results",
              cls.results, "--out", cls.figures, "--strict"])
        _make_report(["--results", cls.results, "--figures", cls.figures,
                      "--out", cls.report])
        _make_report(["--results",
                      cls.results, "--reference", cls.reference, "--figures",
                      cls.figures, "--out", cls.report_ref])
        with open(cls.report, encoding="utf-8") as f:
            cls.text = f.read()
        with open(cls.report_ref, encoding="utf-8") as f:
            cls.text_ref = f.read()
        # The per-question pages beside each report (report/, report-ref/).
        cls.pages, cls.pages_ref = ({
            n[:-3]: _read(os.path.join(d, n))
            for n in os.listdir(d)} for d in (
                os.path.join(cls.tmp, "out", "report"),
                os.path.join(cls.tmp, "out", "report-ref")))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def need_fake(self):
        if not self.fake:
            self.skipTest("fake-data expectations")

    def _page(self, name, ref=False):
        """The whole section of a question (its page)."""
        return (self.pages_ref if ref else self.pages)[name]

    def _links(self, image):
        pat = r"!\[[^\]]*\]\(([^)]+)\)" if image else \
            r"(?<!!)\[[^\]]*\]\(([^)#]+)\)"
        return re.findall(pat, self.text)

    def _guide(self, gid, text=None):
        for ln in (text or self.text).splitlines():
            if f'id="g-{gid}"' in ln:
                return ln
        self.fail(f"decision guide item {gid} missing")

    # -- structure and links ------------------------------------------------

    def test_header_says_generated(self):
        self.assertIn("Generated file — do not edit by hand", self.text)

    def test_header_lists_each_run_and_its_commit(self):
        """Runs used: every experiment's run id and commit from its
        meta.json; the machine table names no single commit; a field that
        differs between runs is said."""
        from report import header
        self.need_fake()
        alt = os.path.join(self.tmp, "commits")
        shutil.copytree(self.results, alt)
        p = os.path.join(_run_dir(alt, "build"), "meta.json")
        with open(p) as f:
            m = json.load(f)
        m["git_commit"] = "fedcba9876543210"
        m["compiler"] = "g++ 99"
        with open(p, "w") as f:
            json.dump(m, f)
        ctx = report.make_context(_args(alt, self.report, self.figures))
        args = _args(alt, self.report, self.figures)
        parts = {a: t for a, _, t in header.parts(ctx, args)}
        runs = parts["runs"]
        for name, e in ctx.exps.items():
            if name == "lookup_all_hashes":
                continue
            row = _row(runs, name)
            self.assertEqual(row[1], f"`{e.meta['run_id']}`", name)
            self.assertTrue(row[2].startswith(
                "`" + str(e.meta.get("git_commit"))[:12]), (name, row))
        self.assertTrue(_row(runs, "build")[2].startswith("`fedcba987654"))
        self.assertIn("2 commits", runs)
        self.assertIsNone(_row(parts["machine"], "Commit"))
        self.assertIn("Runs differ in Compiler: ", parts["machine"])
        self.assertIn("g++ 99 (build)", parts["machine"])

    def test_sharded_runs_named_and_mixed_machines_warned(self):
        from report import header

        class E:
            def __init__(self, meta):
                self.meta = meta
        rec = {"shard": 1, "shards": 2, "host": "a", "timing_groups": 1}
        one = {"records": [rec, dict(rec, shard=2)],
               "timing_hosts": ["a (CPU X)"],
               "timing_mixed_machines": False}
        two = {"records": [rec, dict(rec, shard=2, host="b")],
               "timing_hosts": ["a (CPU X)", "b (CPU Y)"],
               "timing_mixed_machines": True}
        self.assertEqual(header.shard_lines({"lookup": E({"shards": None})}),
                         [])
        out = header.shard_lines({"lookup": E({"shards": one})})
        self.assertEqual(len(out), 1)
        self.assertIn("lookup (2 shards on a)", out[0])
        out = header.shard_lines({"lookup": E({"shards": two})})
        self.assertIn("lookup (2 shards on a, b)", out[0])
        self.assertIn("**Warning:**", out[1])
        self.assertIn("a (CPU X); b (CPU Y)", out[1])
        import style
        self.assertIn("merged from 2 shards",
                      style.footer_text([{"run_id": "r", "shards": one}]))
        self.assertNotIn("MACHINES",
                         style.footer_text([{"run_id": "r", "shards": one}]))
        self.assertIn("TIMING FROM 2 MACHINES",
                      style.footer_text([{"run_id": "r", "shards": two}]))
        self.assertNotIn("shards", style.footer_text([{"run_id": "r"}]))

    def test_every_figure_linked_exists(self):
        imgs = self._links(image=True)
        if self.fake:
            self.assertEqual(len(imgs), len(FIGURES))
        base = os.path.dirname(self.report)
        for p in imgs:
            self.assertTrue(os.path.isfile(os.path.join(base, p)), p)
            self.assertTrue(os.path.isfile(os.path.join(
                base, p[:-4] + ".svg")), p)

    def test_every_csv_link_resolves(self):
        for text in (self.text, self.text_ref):
            links = [p for p in re.findall(r"(?<!!)\[[^\]]*\]\(([^)#]+)\)",
                                           text) if p.endswith(".csv")]
            self.assertGreater(len(links), 20)
            base = os.path.dirname(self.report)
            for p in set(links):
                self.assertTrue(os.path.isfile(os.path.join(base, p)), p)

    def test_newest_run_used(self):
        self.need_fake()
        row = _row(self._page("lookup"), "ring (v=100)")
        # the older run is 10x slower (~600 ns); the newest is ~60 ns
        self.assertLess(float(row[2].split()[0].replace(",", "")), 200)

    # -- statistics labels --------------------------------------------------

    def test_median_printed_with_its_own_order_statistic_ci(self):
        d = _data(self.results, "lookup")
        if "xxh64" in set(d["hash"]):
            d = d[d["hash"] == "xxh64"]
        v = d[(d["algorithm"] == "ring") & (d["vnodes"] == 100) &
              (d["scenario"] == "prehashed") & (d["nodes"] == 1000) &
              (d["metric"] == "lookup_ns")]["value"].dropna()
        if len(v) < 6:
            self.skipTest("too few rounds for a median CI")
        lo, hi = _median_ci(list(v))
        want = f"{common.fmt_num(v.median())} [{common.fmt_num(lo)}–" \
               f"{common.fmt_num(hi)}]"
        row = _row(self._page("lookup"), "ring (v=100)")
        self.assertIn(want, row)
        # and not the mean's interval
        t = chdata.t975(len(v) - 1) * v.std(ddof=1) / math.sqrt(len(v))
        mean_ci = f"[{common.fmt_num(v.mean() - t)}–" \
                  f"{common.fmt_num(v.mean() + t)}]"
        if mean_ci not in want:
            self.assertFalse(any(c.startswith(common.fmt_num(v.median()))
                                 and mean_ci in c for c in row))

    def test_no_median_beside_mean_ci(self):
        for text in (self.text, self.text_ref):
            self.assertNotRegex(text, r"(?i)median[^|\n]*CI of (the )?mean")
            self.assertNotRegex(text, r"(?i)CI of (the )?mean[^|\n]*median")
            # a median's interval always contains it
            for sec in text.split("\n## ")[1:]:
                for m in re.finditer(
                        r"(?<![\w.])([\d.,]+)( %|×)? \[([\d.,]+)(?: %|×)?–"
                        r"([\d.,]+)(?: %|×)?\]", sec):
                    x, lo, hi = (float(g.replace(",", ""))
                                 for g in m.group(1, 3, 4))
                    self.assertTrue(lo <= x <= hi, m.group(0))

    def test_flags_are_data_columns(self):
        """data.csv carries noisy and n_eff as columns, set exactly on the
        flagged rows; summary.csv's flags agree with them."""
        self.need_fake()
        look = _data(self.results, "lookup")
        for c in ("noisy", "n_eff"):
            self.assertIn(c, look.columns)
        noisy = look[look["noisy"] == "1"]
        self.assertGreater(len(noisy), 0)
        self.assertEqual(set(noisy["algorithm"]), {"rendezvous"})
        self.assertEqual(set(noisy["nodes"]), {1000})
        self.assertEqual(set(noisy["scenario"]), {"prehashed"})
        self.assertEqual(set(look["noisy"]), {"0", "1"})
        self.assertEqual(set(look["n_eff"]), {""})
        s = chdata.load_all(self.results)["lookup"].summary
        flagged = s[s["noisy"] >= 1]
        self.assertEqual(set(flagged["algorithm"]), {"rendezvous"})
        bal = _data(self.results, "balance")
        self.assertEqual(set(bal.loc[bal["keyset"] == "words", "n_eff"]),
                         {"1"})
        self.assertEqual(set(bal.loc[bal["keyset"] != "words", "n_eff"]),
                         {""})

    def test_noisy_cells_marked(self):
        self.need_fake()
        q1 = self._page("lookup")
        row = _row(q1, "rendezvous")
        self.assertTrue(row[2].endswith("~"), row[2])   # N=1000 prehashed
        self.assertFalse(row[1].endswith("~"), row[1])  # N=100 is clean
        self.assertIn("noisy cell", self.text)
        # figures: hollow markers
        from report import draw
        fig, ax = draw.plt.subplots()
        s = draw.drop_peers({"lookup": None}, chdata.load_all(
            self.results)["lookup"].summary)
        draw.plot_metric_vs_nodes(ax, s, "lookup_ns", "prehashed")
        hollow = [ln for ln in ax.get_lines()
                  if ln.get_markerfacecolor() in ("white", (1, 1, 1, 1))]
        self.assertEqual(len(hollow), 1)
        self.assertEqual(list(hollow[0].get_xdata()), [1000])
        draw.plt.close(fig)

    def test_timing_context_gives_the_machine_state_sentinel(self):
        self.need_fake()
        lines = self._page("lookup").splitlines()
        lk = [ln for ln in lines if ln.startswith("- `lookup`: 1-minute")]
        self.assertEqual(len(lk), 1)
        # The whole run, the hash axis included.
        d = chdata.load_all(self.results)["lookup_all_hashes"].data
        sn = d[d["metric"] == "sentinel_ns"]
        self.assertIn("md5", set(sn["hash"]))
        slow = int((sn["nodes"] == 1000).sum())
        self.assertGreater(slow, 0)
        self.assertIn("machine-state sentinel 100–140 ns per sentinel "
                      "cell", lk[0])
        self.assertIn("at most 1.40× the run's fastest", lk[0])
        self.assertIn(f"of {len(sn)} sentinel cells, {slow} were in groups "
                      f"measured again whole and {slow} stayed in a slow "
                      "state", lk[0])
        # every noisy timing row (ns, 1/s, ratios), cells counted apart
        s = chdata.load_all(self.results)["lookup_all_hashes"].summary
        reg = common.Registry(chdata.load_registry(self.results))
        t = s[s["metric"].map(lambda m: reg.timing(m) and
                              reg.better(m) != "none") & (s["n"] > 0)]
        self.assertIn("lookups_per_s", set(t["metric"]))
        self.assertTrue(any("_ratio_to_" in m for m in set(t["metric"])))
        self.assertIn(f"{int((t['noisy'] >= 1).sum())} of {len(t)} timing "
                      "rows noisy", lk[0])
        self.assertEqual(len([ln for ln in lines if ln.startswith(
            "- `overprovision`: ")]), 1)
        self.assertIn("Timing intervals are within one run",
                      self._page("lookup"))
        # The policy is the run's meta.json's, not the report's own text.
        self.assertIn("policy: slow above 1.15× the fastest, a wait of up "
                      "to 10 s and at most 2 whole-group re-measurements, "
                      "60 s of them per process.", lk[0])
        # The fake build run has no sentinel rows: said, not invented.
        bd = [ln for ln in lines if ln.startswith("- `build`: 1-minute")]
        self.assertEqual(len(bd), 1)
        self.assertIn("no machine-state sentinel", bd[0])
        self.assertNotIn("policy", bd[0])
        from report.lookup import policy_text
        self.assertEqual(policy_text({"git_commit": "4082fad0123"}),
                         "its policy is not in its meta.json (run at "
                         "`4082fad`, before meta.json recorded it)")
        full = {"timing_policy": {"sentinel": {
            "slow_threshold": 1.2, "max_wait_s": 5, "max_slow_retries": 1,
            "retry_budget_s": None}}}
        self.assertEqual(policy_text(full),
                         "policy: slow above 1.2× the fastest, a wait of up "
                         "to 5 s and at most 1 whole-group re-measurements, "
                         "no budget for them")

    def test_build_peer_table(self):
        self.need_fake()
        sec = self._page("build")
        self.assertIn("## Build vs the reference implementation", sec)
        row = [ln for ln in sec.splitlines()
               if "`maglev_katran_build`" in ln and ln.startswith("| maglev")]
        self.assertTrue(row)
        cells = [c.strip() for c in row[0].split("|")[1:-1]]
        ratio = float(cells[5].split()[0])
        self.assertAlmostEqual(ratio, 0.5, delta=0.05)  # fake: peer 2x ours
        # The peer is not a row of the main build table.
        self.assertIsNone(_row(sec, "maglev_katran_build"))

    def test_n1_and_n_eff_1_have_no_interval(self):
        self.need_fake()
        row = _row(self._page("build"), "modulo")  # build row
        self.assertIn(common.SINGLE_MARK, row[2])            # N=100: n=1
        self.assertNotIn("[", row[2])
        self.assertIn("[", row[3])                           # N=1000: n=10
        bal = chdata.load_all(self.results)["balance"].summary
        w = bal[(bal["keyset"] == "words") &
                (bal["metric"] == "load_max_over_mean")].iloc[0].to_dict()
        self.assertEqual(w["n_eff"], 1)
        self.assertGreater(w["n"], 1)
        self.assertTrue(pd.isna(w["median_ci_low"]))
        self.assertTrue(pd.isna(w["mean_ci_low"]))
        for f in (common.fmt_med(w, "x", False), common.fmt_mean(w, "x")):
            self.assertNotIn("[", f)
            self.assertIn(common.SINGLE_MARK, f)

    def test_t_quantiles_and_median_rank(self):
        for df, want in ((31, 2.039513), (40, 2.021075), (60, 2.000298),
                         (120, 1.979930), (1000, 1.962339), (5, 2.570582)):
            self.assertAlmostEqual(chdata.t975(df), want, delta=2e-6)
        for n in range(1, 40):
            j = chdata.median_ci_rank(n)
            ci = _median_ci(list(range(n)))
            if ci is None:
                self.assertIsNone(j, n)
            else:
                self.assertEqual((j - 1, n - j), ci, n)

    # -- conclusions from data ----------------------------------------------

    def test_minimal_disruption_flips_with_excess(self):
        self.need_fake()
        ctx = report.make_context(_args(self.results, self.report,
                                        self.figures))
        self.assertTrue(capabilities.measured(ctx)["ring"][
            "minimal_disruption"])
        self.assertFalse(capabilities.measured(ctx)["bounded_load"][
            "minimal_disruption"])

        def bump(d):
            m = (d["algorithm"] == "ring") & (d["scenario"] == "add") & \
                (d["metric"] == "moved_excess_fraction") & \
                (d["nodes"] == "1000")
            d.loc[m, "value"] = str(0.3 / 1001)  # 30 % of the optimum
            return d
        alt = _edit_tree(self.results, os.path.join(self.tmp, "flip"),
                         "disruption", bump)
        ctx2 = report.make_context(_args(alt, self.report, self.figures))
        m = capabilities.measured(ctx2)["ring"]
        self.assertFalse(m["minimal_disruption"])
        self.assertAlmostEqual(m["ratio"], 0.3, places=6)
        q6 = capabilities.section(ctx2)
        self.assertIn("data: no, worst excess/opt. 0.3", _row(q6, "ring")[6])
        # declared minimal, measured not: a contradiction
        self.assertTrue(_row(q6, "ring")[6].endswith("⚠"))

    def test_declared_not_minimal_but_measured_minimal_is_no_contradiction(
            self):
        self.need_fake()
        alt = os.path.join(self.tmp, "declared")
        shutil.copytree(self.results, alt)
        p = os.path.join(alt, "registry.json")
        with open(p) as f:
            r = json.load(f)
        for a in r["algorithms"]:
            if a["name"] == "ring":
                a["capabilities"]["minimal_disruption"] = False
            if a["name"] == "jump":
                a["capabilities"]["weights"] = True
        with open(p, "w") as f:
            json.dump(r, f)
        ctx = report.make_context(_args(alt, self.report, self.figures))
        q6 = capabilities.section(ctx)
        cell = _row(q6, "ring")[6]
        self.assertIn("no (data: yes", cell)
        self.assertIn("declared case not measured", cell)
        self.assertNotIn("⚠", cell)
        # a declared capability the data show missing stays a contradiction
        self.assertTrue(_row(q6, "jump")[4].endswith("⚠"))
        self.assertIn("Disagreements: jump weights.", q6)

    def test_tie_and_winner(self):
        def row(a, m, lo, hi):
            return dict(algorithm=a, vnodes=float("nan"),
                        table_size=float("nan"), load_factor=float("nan"),
                        n=10, n_eff=10, median=m, median_ci_low=lo,
                        median_ci_high=hi, noisy=0)
        ctx = report.make_context(_args(self.results, self.report,
                                        self.figures))
        txt, who = guide.ranked(ctx, [row("a", 1.0, 0.9, 1.1),
                                      row("b", 1.05, 1.0, 1.2)],
                                "load_max_over_mean", "x")
        self.assertTrue(txt.startswith("tie between"), txt)
        self.assertEqual(len(who), 2)
        txt, who = guide.ranked(ctx, [row("a", 1.0, 0.9, 1.1),
                                      row("b", 1.5, 1.4, 1.6)],
                                "load_max_over_mean", "x")
        self.assertTrue(txt.startswith("**a**"), txt)
        self.assertNotIn("tie", txt)
        if self.fake:
            # fake multinomial balance: jump, maglev and rendezvous overlap
            self.assertIn("tie between", self._guide("best_balance"))
            # hot keys only where skewed requests were measured (the cluster
            # section, its page, its guide items and its contents entry)
            rest = self.text.replace(_section(self.text, _h("cluster")), "")
            rest += "".join(t for n, t in self.pages.items()
                            if n != "cluster")
            # the summary's hot-key clause comes from the cluster run too
            from report import summary
            hot = summary.hot_keys_change(report.make_context(_args(
                self.results, self.report, self.figures)))
            self.assertIn("(cluster `", hot)
            rest = rest.replace(hot, "")
            caps = [c for s, c in FIGURES if s.startswith("cluster_")]
            rest = "\n".join(ln for ln in rest.splitlines()
                             if 'id="g-cluster' not in ln and
                             "](#cluster)" not in ln and
                             not any(c in ln for c in caps))
            self.assertNotIn("hot key", rest.lower())

    def test_jump_never_constant_time(self):
        self.need_fake()
        q6 = self._page("capabilities")
        self.assertEqual(_row(q6, "jump")[2], "logarithmic")
        line = self._guide("constant_removal")
        declared = re.findall(r"\w+", line.split(
            "constant-time lookup (")[1].split(";")[0])
        self.assertNotIn("jump", declared)
        self.assertIn("maglev", declared)

        def flip(path):
            with open(path) as f:
                r = json.load(f)
            for a in r["algorithms"]:
                if a["name"] == "jump":
                    a["lookup_class"] = "constant"
            with open(path, "w") as f:
                json.dump(r, f)
        alt = os.path.join(self.tmp, "jumpconst")
        shutil.copytree(self.results, alt)
        flip(os.path.join(alt, "registry.json"))
        ctx = report.make_context(_args(alt, self.report, self.figures))
        items = dict(guide.items(ctx))
        self.assertIn("jump", re.findall(
            r"\w+", items["constant_removal"].split(";")[0]))

    def test_reference_column_only_with_reference(self):
        self.assertNotIn("· ref", self.text)
        self.assertNotIn("reference runs", self.text)
        self.assertIn("· ref", self.text_ref)
        self.assertIn("AMD EPYC REF", self.text_ref)
        self.assertIn("FAKE LOCAL CPU" if self.fake else "|", self.text_ref)
        q1 = self._page("lookup", ref=True)
        hdr = [ln for ln in q1.splitlines() if ln.startswith("| ours |")]
        if self.fake:
            self.assertTrue(hdr and "throughput ratio · ref" in hdr[0])

    def test_bounded_load_states_keys_per_node(self):
        self.need_fake()
        self.assertIn("1,000 keys per node", self._guide("bounded_load"))
        self.assertIn("from-scratch replays", self._guide("bounded_load"))
        q1 = self._page("lookup")
        self.assertIn("Placed-key probe", q1)
        q3 = self._page("memory")
        self.assertIn("bytes per placed key", q3)

    # -- node failures (removal) and capacity / probes (overprovision) ------

    def test_new_figures_drawn_and_linked(self):
        self.need_fake()
        for stem in ("removal_lookup", "removal_state",
                     "pareto_lookup_balance"):
            for ext in ("png", "svg"):
                self.assertTrue(os.path.isfile(os.path.join(
                    self.figures, f"{stem}.{ext}")), (stem, ext))
            self.assertIn(f"{stem}.png)", self.text)

    def test_removal_table(self):
        self.need_fake()
        q7 = self._page("removal")
        # range hashes: LIFO rows only, and the table says so
        for a in ("jump", "jumpback", "flip", "power", "binomial"):
            self.assertTrue(_row(q7, a)[1].startswith("lifo only"), a)
        self.assertEqual(_row(q7, "anchor")[1], "random")
        # lookup at 0 % printed with its own median CI (recomputed here)
        d = _data(self.results, "removal")
        for c in ("removed", "capacity", "probes"):
            d[c] = pd.to_numeric(d[c].replace("", None), errors="coerce")
        v = d[(d["algorithm"] == "anchor") & (d["removal"] == "random") &
              (d["removed"] == 0) & (d["metric"] == "lookup_ns")]["value"]
        lo, hi = _median_ci(list(v))
        self.assertEqual(_row(q7, "anchor")[2],
                         f"{common.fmt_num(v.median())} "
                         f"[{common.fmt_num(lo)}–{common.fmt_num(hi)}]")
        # slowdown verdicts: maglev's noisy-ish cells overlap, anchor's not
        self.assertIn("(within noise)", _row(q7, "maglev (M≈100N)")[5])
        self.assertIn("(slower)", _row(q7, "anchor")[5])
        # monotone from the data: modulo and maglev move live keys
        self.assertEqual(_row(q7, "anchor")[12], "yes")
        self.assertEqual(_row(q7, "modulo")[12], "**no**")
        self.assertEqual(_row(q7, "maglev (M≈100N)")[12], "**no**")
        self.assertEqual(_row(q7, "jump")[11], "—")   # no incremental cells

    def test_slowdown_verdict(self):
        from report import removal

        def r(m, lo, hi):
            return dict(median=m, median_ci_low=lo, median_ci_high=hi, n=10,
                        n_eff=10, noisy=0)
        ratio, v = removal.slowdown(r(10, 9, 11), r(10.5, 10.8, 12))
        self.assertEqual(v, "within noise")
        self.assertAlmostEqual(ratio, 1.05)
        self.assertEqual(removal.slowdown(r(10, 9, 11), r(20, 19, 21))[1],
                         "slower")
        self.assertEqual(removal.slowdown(r(10, 9, 11), r(5, 4, 6))[1],
                         "faster")
        self.assertEqual(removal.slowdown(None, r(5, 4, 6))[1], None)
        # with the rounds' data: the per-round ratio decides; a drift of
        # the whole group moves both cells and cancels
        import numpy as np
        drift = 10 * (1 + 0.3 * np.sin(np.arange(10)))
        rows = []
        for removed, f in ((0.0, 1.0), (500.0, 1.2)):
            for i, v in enumerate(drift * f):
                x = {c: float("nan") for c in chdata.NUMERIC_COLUMNS}
                x.update({c: "" for c in chdata.STRING_COLUMNS})
                x.update(algorithm="anchor", nodes=1000.0, removed=removed,
                         removal="random", scenario="prehashed",
                         metric="lookup_ns", unit="ns", seed=0.0,
                         repetition=float(i), value=float(v), noisy=0.0)
                rows.append(x)
        data = pd.DataFrame(rows, columns=chdata.COLUMNS)
        s = {r_["removed"]: r_.to_dict()
             for _, r_ in chdata.summarize(data).iterrows()}
        self.assertEqual(removal.slowdown(s[0.0], s[500.0])[1],
                         "within noise")          # marginal: overlap
        ratio, v = removal.slowdown(s[0.0], s[500.0], data=data)
        self.assertEqual(v, "slower")
        self.assertAlmostEqual(ratio, 1.2)

    def test_baseline_pairs(self):
        """Nothing-removed cells of one variant and N in two orders: their
        median ratio, and whether their intervals overlap; the note names
        the largest spread and lists only the pairs whose intervals are
        apart."""
        from report import removal

        def r(a, order, removed, m, lo, hi):
            d = dict(algorithm=a, removal=order, removed=removed,
                     nodes=1000.0, scenario="prehashed", metric="lookup_ns",
                     median=m, median_ci_low=lo, median_ci_high=hi, n=10,
                     n_eff=10, noisy=0)
            d.update({c: float("nan") for c in common.PARAM_COLS})
            return d
        lk = pd.DataFrame([
            r("memento", "random", 0.0, 36.1, 34.7, 38.6),
            r("memento", "lifo", 0.0, 53.8, 53.5, 54.8),
            r("memento", "random", 500.0, 76.0, 73.0, 77.0),
            r("anchor", "random", 0.0, 2.2, 2.1, 2.3),
            r("anchor", "lifo", 0.0, 2.25, 2.2, 2.3),
            r("jump", "lifo", 0.0, 55.0, 54.0, 56.0)])   # one order only
        pairs = {p[0]["algorithm"]: p for p in removal.baseline_pairs(lk)}
        self.assertEqual(sorted(pairs), ["anchor", "memento"])
        self.assertAlmostEqual(pairs["memento"][3], 53.8 / 36.1)
        self.assertFalse(pairs["memento"][4])
        self.assertAlmostEqual(pairs["anchor"][3], 2.25 / 2.2)
        self.assertTrue(pairs["anchor"][4])
        note = removal._baseline_note(lk)[0]
        self.assertIn("over the 2 algorithm–N pairs", note)
        self.assertIn(f"at most {100 * (53.8 / 36.1 - 1):.3g} % (memento, "
                      "N = 1000)", note)
        self.assertIn("memento N = 1000: lifo 53.8 [53.5–54.8], random "
                      "36.1 [34.7–38.6]", note)
        self.assertNotIn("anchor N", note)
        lk = lk[lk["algorithm"] != "memento"]
        self.assertIn("Their intervals all overlap.",
                      removal._baseline_note(lk)[0])

    def test_monotone_flips_with_excess(self):
        self.need_fake()

        def bump(d):
            m = (d["algorithm"] == "anchor") & \
                (d["metric"] == "moved_excess_fraction") & \
                (d["removal"] == "fifo") & (d["removed"] == "30") & \
                (d["repetition"] == "1")
            self.assertEqual(int(m.sum()), 1)
            d.loc[m, "value"] = "1e-05"
            m = (d["algorithm"] == "memento") & \
                (d["metric"] == "step_moved_excess") & \
                (d["repetition"] == "2")
            self.assertEqual(int(m.sum()), 1)
            d.loc[m, "value"] = "1"
            return d
        alt = _edit_tree(self.results, os.path.join(self.tmp, "mono"),
                         "removal", bump)
        ctx = report.make_context(_args(alt, self.report, self.figures))
        from report import removal
        q7 = removal.section(ctx)
        self.assertEqual(_row(q7, "anchor")[12], "**no**")
        self.assertEqual(_row(q7, "anchor")[10], "0.001 %")
        self.assertEqual(_row(q7, "memento")[12], "**no**")  # steps only
        self.assertEqual(_row(q7, "memento")[10], "0 %")
        self.assertEqual(_row(q7, "memento")[11], "1")
        self.assertEqual(_row(q7, "dx")[12], "yes")
        q6 = capabilities.section(ctx)
        self.assertEqual(_row(q6, "anchor")[-1], "no")
        self.assertEqual(_row(q6, "dx")[-1], "yes")

    def test_pareto_front(self):
        from report import overprovision

        def p(label, x, y):
            return dict(label=label, x=x, y=y, source="overprovision",
                        x_row=dict(median=x, median_ci_low=x - 0.01,
                                   median_ci_high=x + 0.01, n=10, n_eff=10),
                        y_row=dict(median=y, median_ci_low=y - 0.1,
                                   median_ci_high=y + 0.1, n=10, n_eff=10))
        pts = [p("a", 1.0, 10), p("b", 2.0, 5), p("c", 2.0, 6),
               p("d", 3.0, 1), p("e", 1.005, 10.05), p("f", 1.0, 10)]
        front = overprovision.pareto(pts)
        self.assertEqual([q["label"] for q in front], ["a", "f", "b", "d"])
        self.assertFalse(pts[2]["front"])       # c: b is better in y
        self.assertFalse(pts[2]["near"])        # by more than the noise
        self.assertFalse(pts[4]["front"])       # e: a dominates it ...
        self.assertTrue(pts[4]["near"])         # ... within the noise
        if not self.fake:
            return
        # the report's front is the brute-force front of its points
        ctx = report.make_context(_args(self.results, self.report,
                                        self.figures))
        pts, n, info = overprovision.points(ctx.exps)
        self.assertEqual(n, 1000)
        self.assertIn("modulo", info["excluded"])
        want = {q["label"] + q["source"] for q in pts
                if not any(r["x"] <= q["x"] and r["y"] <= q["y"] and
                           (r["x"], r["y"]) != (q["x"], q["y"])
                           for r in pts)}
        overprovision.pareto(pts)
        self.assertEqual({q["label"] + q["source"] for q in pts
                          if q["front"]}, want)
        q8 = self._page("overprovision")
        noadd = common.cannot_add(ctx)
        want = {overprovision._label(q, noadd) + q["source"] for q in pts
                if q["front"]}
        yes = {ln.split("|")[1].strip() + ln.split("|")[2].strip()
               for ln in q8.splitlines() if "| **yes** |" in ln}
        self.assertEqual(yes, want)
        self.assertNotIn("multiprobe (k=1)overprovision", want)
        # a = N: no free bucket (the fake anchor cannot add at a = N)
        self.assertIsNotNone(_row(q8, "anchor (a=1000; a = N: no free "
                                  "bucket, cannot add a node)"))
        self.assertIsNotNone(_row(q8, "dx (a=1000; a = N: no free bucket)"))
        self.assertIsNotNone(_row(q8, "dx (a=2000)"))
        self.assertNotIn("max/mean: mean", q8)

        # multi-probe with one probe made the fastest: it joins the front
        def fast(d):
            m = (d["algorithm"] == "multiprobe") & (d["probes"] == "1") & \
                (d["metric"] == "lookup_ns")
            d.loc[m, "value"] = "0.5"
            return d
        alt = _edit_tree(self.results, os.path.join(self.tmp, "pareto"),
                         "overprovision", fast)
        ctx = report.make_context(_args(alt, self.report, self.figures))
        q8 = overprovision.section(ctx)
        self.assertEqual(_row(q8, "multiprobe (k=1)")[5], "**yes**")
        self.assertIn("multiprobe (k=1)", dict(guide.items(ctx))[
            "pareto_lookup_balance"])

    def test_presets_section(self):
        """Presets: the preset table and the computed statements (fake data:
        envoy_ring_hash moves 1.68x the optimum on add, an excess; jump has the best
        max/mean, haproxy is above it beyond the intervals)."""
        self.need_fake()
        q9 = self._page("presets")
        row = _row(q9, "`envoy_ring_hash`")
        self.assertIsNotNone(row)
        self.assertEqual(row[1], "Envoy")
        head = [ln for ln in q9.splitlines() if ln.startswith("| preset |")]
        col = [c.strip() for c in head[0].split("|")[1:-1]].index(
            "add / optimum")
        self.assertTrue(row[col].startswith("1.68×"), row)
        # the fake presets have no lookup rows: the all-empty column is gone
        self.assertNotIn("lookup ns (string key)", head[0])
        self.assertIsNotNone(_row(q9, "`jump`"))
        self.assertIn("When an 11th server joins, keys also move between "
                      "servers that stay (excess > 0: not minimal "
                      "disruption) in **haproxy** (0.455 %", q9)
        self.assertIn("and **envoy_ring_hash** (6.18 %", q9)
        self.assertIn("the other 1 of 3 presets move only the keys that "
                      "must move", q9)
        self.assertIn("At other N, presets with no excess at N = 10 move "
                      "keys between staying servers too: "
                      "**libmemcached_ketama** (remove at N = 3)", q9)
        self.assertIn("best plain algorithm at N = 10 is **jump**", q9)
        above = q9.split("Presets above it (separate):")[1]
        self.assertIn("haproxy (1.36×", above.split(". ")[0])
        self.assertIn("comparisons with jump: per-seed ratios", q9)
        self.assertIn("max_servers = 100", q9)
        self.assertIn("not against a running Envoy", q9)
        self.assertIn("MEDIAN over key-set seeds", q9)
        # the joiner's share: what moves on add less the excess, x (N+1)
        self.assertEqual(row[[c.strip() for c in head[0].split("|")[1:-1]]
                             .index("joiner's share / fair")], "1×")
        line = self._guide("presets")
        self.assertIn("envoy_ring_hash", line)
        self.assertNotIn("libmemcached_ketama** (", line.split(";")[0])
        self.assertNotIn("fair share", line)

    def test_presets_below_optimum_means_the_joiner_gets_less(self):
        self.need_fake()

        def low(d):
            m = (d["algorithm"] == "libmemcached_ketama") & \
                (d["nodes"] == "10") & (d["scenario"] == "add")
            d.loc[m & (d["metric"] == "moved_over_optimum"), "value"] = \
                "0.55"
            d.loc[m & (d["metric"] == "moved_fraction"), "value"] = \
                str(0.55 / 11)
            return d
        src = os.path.join(self.tmp, "pre-src")
        shutil.copytree(os.path.join(self.results, "presets"),
                        os.path.join(src, "presets"))
        shutil.copy(os.path.join(self.results, "registry.json"), src)
        alt = _edit_tree(src, os.path.join(self.tmp, "pre-low"), "presets",
                         low)
        ctx = report.make_context(_args(alt, self.report, self.figures))
        from report import presets
        q9 = presets.section(ctx)
        self.assertIn("add / optimum below 1 is no better than optimal",
                      q9)
        self.assertIn("libmemcached_ketama (0.55×: the joiner gets 0.55 of "
                      "a fair share)", q9)
        self.assertEqual(_row(q9, "`libmemcached_ketama`")[10], "0.55×")
        line = dict(presets.guide_items(ctx))["presets"]
        self.assertIn("libmemcached_ketama (0.55 of a fair share)", line)


    def test_cluster_section(self):
        """The cluster section on the fake cluster run
        (make_fake_results.gen_cluster): crafted means, conclusions
        recomputed, and two perturbations."""
        self.need_fake()
        from report import cluster
        q10 = self._page("cluster")
        exps = {"cluster": chdata.load_experiment(self.results, "cluster")}
        f = cluster.findings(None, exps)
        # stampede: the main block (4 algorithms, 100,000 keys), not the small
        # twin of the memcached block (2 algorithms, 20,000 keys, more
        # requests; there ring 400 and modulo 4000 extra reads: 10x)
        self.assertEqual((f["stampede"]["keys"], f["stampede"]["cache"]),
                         (100000, 0))
        self.assertEqual(len(f["stampede"]["scenarios"]["add"]["rows"]), 4)
        self.assertIn("the other sim configuration of these events (20,000 "
                      "keys, 80,000 requests, 2 algorithms)", q10)
        self.assertIn("no eviction (cache_items = 0", q10)
        # every algorithm against ring, seed by seed: the fake's seeds
        # shift every algorithm alike, so jump's 1005 against ring's 1000
        # (marginal intervals +- 25: overlapping) is 1.005× on every seed
        add = f["stampede"]["scenarios"]["add"]
        self.assertEqual(add["best"][0], "ring")
        self.assertEqual(add["cmp"]["ref"], "ring")
        self.assertEqual(add["tied"], [])
        self.assertEqual(sorted(lbl for lbl, _ in add["cmp"]["above"]),
                         ["bounded_load (c = 1.25)", "jump", "modulo"])
        self.assertEqual(add["cmp"]["comparisons"], 3)
        self.assertAlmostEqual(add["modulo_vs_ring"]["ratio"], 5.0)
        self.assertTrue(add["modulo_vs_ring"]["separate"]["separate"])
        rem = f["stampede"]["scenarios"]["remove"]
        self.assertEqual(rem["best"][0], "jump")
        self.assertEqual([lbl for lbl, _ in rem["cmp"]["below"]], ["jump"])
        self.assertAlmostEqual(rem["modulo_vs_ring"]["ratio"], 4.0)
        self.assertIn("(3 comparisons with ring, each the 95 % interval of "
                      "the ratio on the same seed: paired t on log ratios, "
                      "n = 3) — more than ring: **jump** 1× [1×–1.01×]", q10)
        self.assertIn("fewer than ring: **jump** 0.993×", q10)
        self.assertNotIn("intervals overlap", q10)
        self.assertIn("modulo's extra reads are 5× ring's", q10)
        self.assertIn("1 of 3 not recovered within the run",
                      _row(q10, "modulo")[5])
        # hot keys: bounded_load at its bound, ring and jump above
        self.assertTrue(all(b["ok"] for b in f["hot"]["bounded"]))
        self.assertEqual(len(f["hot"]["bounded"]), 2)
        # stale views: misrouted linear in f (8000 per unit f)
        ring = [p for p in f["stale"]["per"] if p["label"] == "ring"][0]
        self.assertAlmostEqual(ring["mis_fit"][0], 8000.0)
        self.assertEqual(ring["extra_trend"], "increasing")
        # cascades: highest u with no failure in any seed
        safe = {p["label"]: p["safe"] for p in f["cascade"]["per"]
                if p["measured"]}
        self.assertEqual(safe, {"ring (v = 1)": 0.9, "ring (v = 100)": 0.8,
                                "bounded_load (c = 1.1)": 0.5})
        peak = q10.split("**cascade** (")[1]
        self.assertEqual(_row(peak, "ring (v = 100)")[-1], "0.8")
        jump = [[c.strip() for c in ln.split("|")[1:-1]]
                for ln in q10.splitlines() if ln.startswith("| jump |")]
        self.assertIn("n/a: jump removes only its last node",
                      [r[1] for r in jump])
        # cascade_mean: equal servers; ring (v = 1) already over capacity
        # before the death at u = 0.5 (1 server in every seed)
        cm = f["cascade_mean"]
        safe = {p["label"]: p["safe"] for p in cm["per"] if p["measured"]}
        self.assertEqual(safe, {"ring (v = 1)": None, "ring (v = 100)": 0.5,
                                "bounded_load (c = 1.1)": 0.8})
        mean_tab = q10.split("**cascade_mean** (")[1].split("**cascade** (")[0]
        r1 = _row(mean_tab, "ring (v = 1)")
        self.assertEqual(r1[-1], "unknown (below 0.5)")
        self.assertIn("unknown (below 0.5), failures already at the lowest "
                      "u measured: ring (v = 1)", mean_tab)
        self.assertTrue(r1[2].endswith("max 9; 1 over before"), r1[2])
        self.assertEqual(_row(mean_tab, "ring (v = 100)")[3],
                         "9; 0.333 over before (max 1)")
        self.assertEqual(_row(mean_tab, "bounded_load (c = 1.1)")[-1], "0.8")
        # bounded_load's cap: fails above (N-1)/(N c) = 0.818 on equal
        # servers (agrees), above (N-1)/N = 0.9 when sized for its own
        # peak (the fake fails at 0.8: disagrees)
        self.assertEqual([(x[0], round(x[1], 3), x[2])
                          for x in cm["bounded_check"]],
                         [("bounded_load (c = 1.1)", 0.818, True)])
        self.assertFalse(f["cascade"]["bounded_check"][0][2])
        # sized for its own busiest server (2.5x the mean load), ring
        # (v = 1) "survives" on 2.5x an equal server's capacity
        self.assertIn("Here ring (v = 1) \"survives\" up to u = 0.9 on the "
                      "capacity its share gives it: its busiest server "
                      "carries 2.5× the mean load", q10)
        self.assertIn("bounded_load with c = 1.1 has no failure in any of "
                      "the 3 seeds up to u = 0.8; every unbounded variant fails in some "
                      "seed, first at u = 0.5–0.8 (over the variants)",
                      mean_tab)
        line = self._guide("cluster_cascade")
        self.assertIn("`cascade_mean`", line)
        self.assertIn("up to u = 0.8, against 0.5 for the best unbounded "
                      "variants (ring (v = 100))", line)
        # memcached vs simulation: within tolerance, and the boundaries
        self.assertIn("Within tolerance: 2 of 2 configurations.", q10)
        self.assertTrue(cluster.within_tolerance(0.80, 0.82, "post_hit_ratio"))
        self.assertFalse(cluster.within_tolerance(0.80, 0.8201,
                                                  "post_hit_ratio"))
        self.assertTrue(cluster.within_tolerance(540, 400, "extra_db_reads"))
        self.assertFalse(cluster.within_tolerance(541, 400,
                                                  "extra_db_reads"))

        def perturb(d):
            m = (d["mode"] == "memcached") & (d["algorithm"] == "ring") & \
                (d["metric"] == "post_hit_ratio") & (d["bucket"] == "")
            self.assertEqual(int(m.sum()), 1)
            d.loc[m, "value"] = str(float(d.loc[m, "value"].iloc[0]) + 0.03)
            m = (d["scenario"] == "cascade") & (d["vnodes"] == "1") & \
                (d["utilization"] == "0.9") & (d["seed"] == "1") & \
                (d["metric"] == "servers_failed")
            self.assertEqual(int(m.sum()), 1)
            d.loc[m, "value"] = "1"
            return d
        src = os.path.join(self.tmp, "cluster-src")
        shutil.copytree(os.path.join(self.results, "cluster"),
                        os.path.join(src, "cluster"))
        alt = _edit_tree(src, os.path.join(self.tmp, "cluster-alt"),
                         "cluster", perturb)
        e = chdata.load_experiment(alt, "cluster")
        ctx = common.Ctx({"cluster": e}, self.report, self.figures)
        q10b = cluster.section(ctx)
        real = [ln for ln in q10b.splitlines()
                if ln.startswith("| ring | add |")]
        self.assertEqual(len(real), 2)   # tolerance table, latency table
        self.assertTrue(real[0].rstrip(" |").endswith(
            "**no**: post_hit_ratio"), real[0])
        self.assertIn("Within tolerance: 1 of 2 configurations; outside: "
                      "ring add.", q10b)
        safe = {p["label"]: p["safe"] for p in
                cluster.findings(ctx)["cascade"]["per"] if p["measured"]}
        self.assertEqual(safe["ring (v = 1)"], 0.8)
        peak = q10b.split("**cascade** (")[1]
        self.assertEqual(_row(peak, "ring (v = 1)")[-1], "0.8")

    def test_readme_cluster_block(self):
        """make_report --readme rewrites the cluster block between its
        markers (and skips a README without them)."""
        self.need_fake()
        import make_report
        from report import cluster
        ctx = report.make_context(_args(self.results, self.report,
                                        self.figures))
        path = os.path.join(self.tmp, "README-cluster.md")
        before = ("# t\n\nintro\n\n" + cluster.README_BEGIN
                  + "\n(generated by `make reference`)\n"
                  + cluster.README_END + "\n\n## next\n")
        with open(path, "w", encoding="utf-8") as f:
            f.write(before)
        self.assertTrue(make_report.update_readme(ctx, path, self.report))
        with open(path, encoding="utf-8") as f:
            after = f.read()
        self.assertTrue(after.startswith("# t\n\nintro\n\n"
                                         + cluster.README_BEGIN))
        self.assertTrue(after.endswith(cluster.README_END
                                       + "\n\n## next\n"))
        self.assertNotIn("make reference", after)
        ring = _row(after, "ring")
        self.assertTrue(ring[1].startswith("1,000 ["), ring)   # main block
        self.assertEqual(ring[4], "0.5")
        # bounded_load at c = 1.25 has no cascade_mean rows; c = 1.1 has
        # hot-key and cascade_mean rows but no stampede rows
        self.assertEqual(_row(after, "bounded_load (c = 1.25)")[4], "—")
        self.assertEqual(_row(after, "bounded_load (c = 1.1)")[1:],
                         ["—", "—", "1.1× [1.1×–1.1×]", "0.8"])
        self.assertIn("2 of 2 configurations within the tolerance", after)
        rid = chdata.load_experiment(self.results, "cluster").meta["run_id"]
        self.assertIn(f"Run: cluster `{rid}`", after)
        plain = os.path.join(self.tmp, "README-plain.md")
        with open(plain, "w", encoding="utf-8") as f:
            f.write("# t\nCLUSTER\n")
        self.assertFalse(make_report.update_readme(ctx, plain, self.report))
        with open(plain, encoding="utf-8") as f:
            self.assertEqual(f.read(), "# t\nCLUSTER\n")

    def test_failure_guide_item(self):
        self.need_fake()
        line = self._guide("failure_lookup")
        self.assertIn("50 % of N=1000 nodes failed in random order", line)
        # range hashes have no random-order rows: named, never ranked
        self.assertIn("LIFO-only in the data", line)
        ranked = line.split("LIFO-only")[0]
        self.assertNotIn("**power**", ranked)
        self._guide("pareto_lookup_balance")

    def test_reference_data_render_without_new_experiments(self):
        # The committed reference, not this run's tree: once per ctest run
        # (the fake-data run) is enough.
        self.need_fake()
        refs = sorted(d for d in glob.glob(os.path.join(
            os.path.dirname(HERE), "results", "reference", "*"))
            if os.path.isdir(d))
        if not refs:
            self.skipTest("no committed reference runs")
        out = os.path.join(self.tmp, "refreport", "REPORT.md")
        _make_report(["--results", refs[0], "--figures",
                      os.path.join(self.tmp, "nofigs"), "--out", out])
        with open(out, encoding="utf-8") as f:
            t = f.read()
        for exp in ("removal", "overprovision", "replicas"):
            if not os.path.isdir(os.path.join(refs[0], exp)):
                self.assertIn(f"_No `{exp}` results yet._", t)
        self.assertIn(_h("lookup"), t)
        self.assertIn(_h("capabilities"), t)

    # -- replica placement ----------------------------------------------------

    def _replicas_data(self, results=None):
        """The replicas run's data.csv, read with plain pandas."""
        d = pd.read_csv(os.path.join(_run_dir(results or self.results,
                                              "replicas"), "data.csv"),
                        keep_default_na=False, dtype=str)
        for c in ("value", "nodes", "replicas", "seed", "vnodes"):
            d[c] = pd.to_numeric(d[c].replace("", None), errors="coerce")
        return d

    @staticmethod
    def _label(algorithm, vnodes):
        return f"{algorithm} (v={vnodes:g})" if not pd.isna(vnodes) \
            else algorithm

    def _per_seed(self, d, metric, scenario="zone_aware", nodes=100,
                  replicas=3, topology="zones3"):
        """{label: {seed: value}} of one metric at one configuration; the
        sets changed are 1 - the unchanged fraction."""
        src = {"join_sets_changed": "join_sets_changed_0",
               "failure_sets_changed": "failure_sets_changed_0"}
        x = d[(d["metric"] == src.get(metric, metric)) &
              (d["scenario"] == scenario) & (d["nodes"] == nodes) &
              (d["replicas"] == replicas) & (d["topology"] == topology)]
        out = {}
        for _, r in x.iterrows():
            v = r["value"]
            if metric in src:
                v = 1 - v
            out.setdefault(self._label(r["algorithm"], r["vnodes"]),
                           {})[r["seed"]] = v
        return out

    @staticmethod
    def _tables(page):
        """{first header cell...: {(algorithm, placement): {column: cell}}}
        of the page's tables whose second column is `placement`."""
        out = []
        for blk in page.split("\n\n"):
            lines = [ln for ln in blk.strip().splitlines()
                     if ln.startswith("|")]
            if len(lines) < 3 or "| placement |" not in lines[0]:
                continue
            head = [c.strip() for c in lines[0].split("|")[1:-1]]
            rows = {}
            for ln in lines[2:]:
                cells = [c.strip() for c in ln.split("|")[1:-1]]
                rows[(cells[0], cells[1])] = dict(zip(head, cells))
            out.append(rows)
        return out

    @staticmethod
    def _num(cell):
        """The leading number of a cell ('3.45 % (n=3)' -> 0.0345)."""
        m = re.match(r"([0-9][0-9,.]*)(\s*%)?", cell)
        v = float(m.group(1).replace(",", ""))
        return v / 100 if m.group(2) else v

    def _winners(self, per_seed, better):
        """The best by median and those a paired comparison by seed does
        not separate from it (Student t of the per-seed log ratios, df =
        n - 1 = 2 in closed form: P(|T| <= t) = t / sqrt(2 + t^2);
        Bonferroni over the k comparisons); ties of identical pairs."""
        import statistics
        sign = 1 if better == "lower" else -1
        labs = sorted(per_seed, key=lambda a: sign * statistics.median(
            per_seed[a].values()))
        best = labs[0]
        k = len(labs) - 1
        level = 1 - 0.05 / k if k > 1 else 0.95
        t = math.sqrt(2 * level ** 2 / (1 - level ** 2))
        out = {best}
        for a in labs[1:]:
            seeds = sorted(set(per_seed[a]) & set(per_seed[best]))
            self_b = [per_seed[best][s_] for s_ in seeds]
            self_a = [per_seed[a][s_] for s_ in seeds]
            self.assertEqual(len(seeds), 3)
            if all(v > 0 for v in self_a + self_b):
                x = [math.log(u / v) for u, v in zip(self_a, self_b)]
            else:
                x = [u - v for u, v in zip(self_a, self_b)]
            if max(x) - min(x) <= 1e-12 * max(1.0, abs(x[0])):
                if sign * x[0] <= 0:
                    out.add(a)
                continue
            mean = statistics.mean(x)
            half = t * statistics.stdev(x) / math.sqrt(len(x))
            sep = (mean - half > 0) if sign > 0 else (mean + half < 0)
            if not sep:
                out.add(a)
        return best, out

    def test_replicas_tables_equal_the_data(self):
        """The headline tables (N = 100, r = 3, zones3) hold the median over
        seeds of data.csv, computed here, for every algorithm and both
        placements; flat's empty values are n/a with the data's reason."""
        self.need_fake()
        d = self._replicas_data()
        page = self._page("replicas")
        tabs = self._tables(page)
        # three tables at zones3, then flat with the preset (below)
        self.assertEqual(len(tabs), 4)
        flat = tabs[3]
        cells = {}
        for t in tabs[:3]:
            for k, row in t.items():
                cells.setdefault(k, {}).update(row)
        cols = {"replica max/mean": ("replica_load_max_over_mean", 1),
                "primary max/mean": ("primary_load_max_over_mean", 1),
                "domain violations": ("domain_violation_fraction", 100),
                "sets changed on a join": ("join_sets_changed", 100),
                "sets changed on a failure": ("failure_sets_changed", 100),
                "scatter width (nodes)": ("scatter_width_mean", 1),
                "recovery max share": ("recovery_max_share", 100),
                "P(loss) f=3": ("loss_probability_f3", 1),
                "copysets used": ("copysets_used", 1),
                "zone loss": ("zone_loss_fraction", 100),
                "handoff max share": ("handoff_max_share", 100)}
        import statistics
        seen = 0
        for sc in ("zone_aware", "zone_blind"):
            for col, (m, scale) in cols.items():
                for lab, vals in self._per_seed(d, m, sc).items():
                    want = statistics.median(vals.values())
                    got = self._num(cells[(lab, sc)][col])
                    if want * scale >= 1000:
                        self.assertEqual(got, round(want * scale),
                                         (lab, sc, col))
                    else:
                        self.assertAlmostEqual(
                            got, float(f"{want * scale:.3g}") /
                            (100 if scale == 100 else 1),
                            delta=1e-12, msg=(lab, sc, col))
                    seen += 1
        self.assertEqual(seen, len(cols) * 6)
        self.assertEqual({k[1] for k in cells},
                         {"zone_aware", "zone_blind"})
        for lab in ("ring (v=100)", "rendezvous"):
            self.assertGreater(self._num(
                cells[(lab, "zone_blind")]["domain violations"]), 0)
        note = d[(d["topology"] == "flat") &
                 (d["metric"] == "zone_loss_fraction")]["note"].iloc[0]
        self.assertIn("`zone_loss_fraction` n/a on flat: "
                      + note[len("not applicable:"):].strip(), page)
        self.assertIn(f"{questions.q('replicas')}. Replicas:", self.text)
        # Flat: the algorithms and the preset, medians of the data.
        self.assertIn(("cassandra", "zone_aware"), flat)
        for col, m in (("replica max/mean", "replica_load_max_over_mean"),
                       ("scatter width (nodes)", "scatter_width_mean")):
            per = self._per_seed(d, m, topology="flat")
            self.assertEqual(set(per), {k[0] for k in flat})
            for lab, vals in per.items():
                self.assertAlmostEqual(
                    self._num(flat[(lab, "zone_aware")][col]),
                    float(f"{statistics.median(vals.values()):.3g}"),
                    delta=1e-12, msg=(lab, col))

    def test_replicas_guide_winners_equal_an_independent_ranking(self):
        """The decision guide's winners on a join and at f = 3 random
        failures equal a paired ranking computed here; the claim that the
        join's winners hold at every zoned configuration is checked
        configuration by configuration."""
        self.need_fake()
        d = self._replicas_data()
        line = self._guide("replicas_stability")
        join = line.split("on a join")[1].split("; on a failure")[0]
        join_txt = join.split("; ")[0]
        _, want = self._winners(self._per_seed(d, "join_sets_changed"),
                                "lower")
        self.assertEqual(set(re.findall(r"\*\*([^*]+)\*\*", join_txt)),
                         want)
        every = True
        for topo in ("zones3", "zones3_uneven", "racks_hosts"):
            for n in (10, 100, 1000):
                for r in (2, 3, 5):
                    _, w = self._winners(self._per_seed(
                        d, "join_sets_changed", nodes=n, replicas=r,
                        topology=topo), "lower")
                    every &= want <= w
        self.assertEqual("are best or tied at every one of the 27" in join,
                         every)
        loss = self._guide("replicas_loss")
        f3 = loss.split("fewest losses at f = 3")[1]
        best, w = self._winners(self._per_seed(d, "loss_probability_f3"),
                                "lower")
        self.assertEqual(re.findall(r"\*\*([^*]+)\*\*", f3)[0], best)
        if w == {best}:
            self.assertIn("separate", f3)
        self.assertIn("a tie: every zone-aware placement", loss)
        zero = [(n, r, t) for t in ("zones3", "zones3_uneven", "racks_hosts")
                for n in (10, 100, 1000) for r in (2, 3, 5)
                if all(v == 0 for a in self._per_seed(
                    d, "loss_probability_f3", nodes=n, replicas=r,
                    topology=t).values() for v in a.values())]
        self.assertEqual("a tie at 0, at" in f3, bool(zero))
        for n in {n for n, _, _ in zero}:
            self.assertIn(f"N={n:,} (r = 5;", f3.split("a tie at 0")[1])
        rec = self._guide("replicas_recovery")
        share = rec.split("smallest recovery max share")[1]
        best, w = self._winners(self._per_seed(d, "recovery_max_share"),
                                "lower")
        self.assertEqual(set(re.findall(r"\*\*([^*]+)\*\*",
                                        share.split("; ")[0])), w)

    def test_replicas_zone_loss_tie_breaks_when_a_placement_loses(self):
        """One zone-aware ring cell losing keys with a zone: the guide no
        longer calls zone loss a tie at every configuration and names that
        cell (the replicas run alone, edited; no full report)."""
        self.need_fake()
        import make_fake_results
        src = _run_dir(self.results, "replicas")
        dst = os.path.join(self.tmp, "replicas-edit", "replicas",
                           os.path.basename(src))
        shutil.copytree(src, dst)
        d = pd.read_csv(os.path.join(dst, "data.csv"),
                        keep_default_na=False, dtype=str)
        # only the rows the loss item reads: a small summary to rewrite
        d = d[d["metric"].isin(["zone_loss_fraction",
                                "loss_probability_f3"])]
        m = ((d["metric"] == "zone_loss_fraction") &
             (d["algorithm"] == "ring") & (d["scenario"] == "zone_aware") &
             (d["nodes"] == "1000") & (d["replicas"] == "2") &
             (d["topology"] == "racks_hosts"))
        self.assertEqual(int(m.sum()), 3)
        d.loc[m, "value"] = "0.002"
        d.to_csv(os.path.join(dst, "data.csv"), index=False)
        make_fake_results.write_summary(dst)
        root = os.path.join(self.tmp, "replicas-edit")
        e = chdata.load_experiment(root, "replicas")
        ctx = common.Ctx({"replicas": e}, self.report, self.figures,
                         registry=chdata.load_registry(self.results))
        from report import replicas
        items = dict(replicas.guide_items(ctx, guide.ranked))
        self.assertNotIn("at every measured N, r and zoned topology",
                         items["replicas_loss"])
        self.assertIn("ring (v=100) at N=1,000, r=2, racks_hosts",
                      items["replicas_loss"])

    # -- decision guide: what a user applies ----------------------------------

    def test_fastest_lookup_at_every_n_without_configurations_that_cannot_add(
            self):
        self.need_fake()
        line = self._guide("fastest_lookup_prehashed")
        s = chdata.load_all(self.results)["lookup"].summary
        ns = sorted(s[(s["scenario"] == "prehashed")]["nodes"].unique())
        self.assertGreater(len(ns), 2)
        for n in ns:
            self.assertIn(f"N={common.fmt_num(n)} (", line)
        # the fake anchor is at a = N: add not applicable in disruption
        ranking = line.split("Not ranked, cannot add:")[0]
        self.assertNotIn("**anchor**", ranking)
        self.assertIn("Not ranked, cannot add: anchor (a = N", line)
        self.assertIn("comparisons with the best per ranking", line)
        ctx = report.make_context(_args(self.results, self.report,
                                        self.figures))
        noadd = guide.cannot_add(ctx)
        self.assertEqual({k[0] for k in noadd}, {"anchor"})

    def test_lifo_only_algorithms_named(self):
        self.need_fake()
        ctx = report.make_context(_args(self.results, self.report,
                                        self.figures))
        want = {a for a in ctx.reg.algorithms
                if ctx.reg.capability(a, "arbitrary_removal") is False}
        self.assertTrue(want)
        self.assertEqual(guide.lifo_only(ctx), want)
        line = self._guide("no_middle_removal")
        for a in want:
            self.assertIn(f"**{a}**", line)
        # a run that measured remove_last instead of not-applicable rows

        def last_only(d):
            m = d["algorithm"].isin(sorted(want)) & \
                (d["scenario"] == "remove_random")
            return d[~m]
        src = os.path.join(self.tmp, "lifo-src")
        shutil.copytree(os.path.join(self.results, "disruption"),
                        os.path.join(src, "disruption"))
        shutil.copy(os.path.join(self.results, "registry.json"), src)
        alt = _edit_tree(src, os.path.join(self.tmp, "lifo"), "disruption",
                         last_only)
        ctx2 = report.make_context(_args(alt, self.report, self.figures))
        self.assertEqual(guide.lifo_only(ctx2), want)

    def test_power_of_two_sensitivity_found_in_the_data(self):
        rows = []
        for a, ts in (("dxlike", {100: 6.4, 1000: 2.1, 10000: 13.5}),
                      ("flat", {100: 2.1, 1000: 2.1, 10000: 2.2})):
            for n, t in ts.items():
                rows.append(dict(algorithm=a, vnodes=float("nan"),
                                 table_size=float("nan"),
                                 load_factor=float("nan"),
                                 capacity=float("nan"), probes=float("nan"),
                                 nodes=float(n), median=t))
        sens = guide.pow2_sensitive(pd.DataFrame(rows))
        self.assertEqual(sens, [("dxlike", 1000.0)])
        self.assertAlmostEqual(guide.fill(1000), 1000 / 1024)

    def test_string_winner_only_among_algorithms_timed_with_strings(self):
        self.need_fake()

        def drop(d):
            m = (d["scenario"] == "string") & d["algorithm"].isin(
                ["maglev", "jump"])
            return d[~m]
        src = os.path.join(self.tmp, "str-src")
        shutil.copytree(os.path.join(self.results, "lookup"),
                        os.path.join(src, "lookup"))
        shutil.copy(os.path.join(self.results, "registry.json"), src)
        alt = _edit_tree(src, os.path.join(self.tmp, "str-alt"), "lookup",
                         drop)
        ctx = report.make_context(_args(alt, self.report, self.figures))
        items = dict(guide.fastest_items(ctx, {}))
        line = items["fastest_lookup_string"]
        ranking, rest = line.split("Not timed with string keys")
        self.assertNotIn("jump", ranking)
        self.assertIn("jump", rest)
        self.assertIn("maglev", rest)
        self.assertIn("**", ranking)
        # every algorithm timed: nothing listed as not timed
        ctx = report.make_context(_args(self.results, self.report,
                                        self.figures))
        line = dict(guide.fastest_items(ctx, {}))["fastest_lookup_string"]
        self.assertNotIn("Not timed with string keys", line)

    def test_hash_row_without_interval_is_not_tied_with_everything(self):
        self.need_fake()
        line = self._guide("hash_choice")
        tied = line.split("is tied with the best hash's worst (")[1]
        tied = tied.split(";")[0]
        self.assertNotIn("fnv1a", tied)    # its sequential rows are 1.8x

        def words(d):
            m = (d["hash"] == "md5") & (d["keyset"] == "words") & \
                (d["metric"] == "load_max_over_mean")
            d.loc[m, "value"] = "3.5"
            d.loc[d["keyset"] == "words", "n_eff"] = "1"
            return d
        src = os.path.join(self.tmp, "hash-src")
        shutil.copytree(os.path.join(self.results, "hashes"),
                        os.path.join(src, "hashes"))
        shutil.copy(os.path.join(self.results, "registry.json"), src)
        alt = _edit_tree(src, os.path.join(self.tmp, "hash-alt"), "hashes",
                         words)
        ctx = report.make_context(_args(alt, self.report, self.figures))
        gid, text = guide.hash_item(ctx)
        tied = text.split("is tied with the best hash's worst (")[1]
        self.assertNotIn("md5", tied.split(";")[0])
        self.assertIn("md5 (worst 3.5× ‡", text)

    def _balance_tree(self, name, exact):
        """A copy of the fake tree whose balance and vnodes runs have exact
        hash-space rows (exact=True): ring's shares spread (1.2 + seed/100)
        and 1 + 1/sqrt(v) over vnodes, jump's exactly 1."""
        def add_exact(d, metric_rows):
            extra = []
            for r in metric_rows:
                row = {c: "" for c in d.columns}
                row.update(r)
                extra.append(row)
            return pd.concat([d, pd.DataFrame(extra)], ignore_index=True)

        def bal(d):
            if not exact:
                return d
            rows = []
            m = (d["metric"] == "load_max_over_mean") & \
                (d["scenario"] == "measured") & (d["nodes"] == "100") & \
                (d["keyset"] == "uniform") & d["algorithm"].isin(
                    ["ring", "jump", "maglev"])
            for _, r in d[m].iterrows():
                x = r.to_dict()
                v = {"ring": 1.2 + float(x["seed"]) % 10 / 100,
                     "jump": 1.0, "maglev": 1.002}[x["algorithm"]]
                x.update(metric="exact_max_over_mean", value=str(v),
                         keyset="", keys="")
                rows.append(x)
            return add_exact(d, rows)

        def vn(d):
            if not exact:
                return d
            rows = []
            m = (d["metric"] == "load_max_over_mean") & \
                (d["scenario"] == "measured")
            for _, r in d[m].iterrows():
                x = r.to_dict()
                x.update(metric="exact_max_over_mean", keyset="", keys="",
                         value=str(1 + 1 / math.sqrt(float(x["vnodes"]))))
                rows.append(x)
            return add_exact(d, rows)
        t1 = _edit_tree(self.results, os.path.join(self.tmp, name + "-1"),
                        "balance", bal)
        return _edit_tree(t1, os.path.join(self.tmp, name), "vnodes", vn)

    def test_balance_items_use_exact_shares_when_present(self):
        self.need_fake()
        # without them (the committed runs): key counts, labelled
        line = self._guide("best_balance")
        self.assertIn("from key counts", line)
        rw = self._guide("replicas_weights")
        self.assertIn("in key counts", rw)
        # with them: the exact shares decide, no sampling
        alt = self._balance_tree("exact", True)
        ctx = report.make_context(_args(alt, self.report, self.figures))
        items = dict(guide.items(ctx))
        line = items["best_balance"]
        self.assertIn("from exact hash-space shares", line)
        self.assertTrue(line.split(": ", 1)[1].startswith("**jump** 1×"),
                        line)
        self.assertNotIn("ring", line.split("Not in the exact data")[0])
        self.assertIn("Not in the exact data, by key counts:", line)
        self.assertIn("rendezvous", line.split("Not in the exact data")[1])
        # ring's vnodes: 1 + 1/sqrt(v) <= 1.10 first at v = 100
        r = guide.vnodes_for_target(ctx.exps["vnodes"], ctx.exps["balance"])
        self.assertEqual((r["source"], r["v"], r["reached"]),
                         ("exact", 100.0, True))
        self.assertIn("ring reaches median max/mean ≤ 1.1× at 100 vnodes",
                      items["replicas_weights"])
        self.assertIn("exact hash-space shares", items["replicas_weights"])
        # Q5 shows them beside the key counts
        q5 = report.balance.section(ctx)
        self.assertIn("| exact |", q5)

    def test_q5_is_median_with_model_only_where_it_fits_and_starved_flag(
            self):
        self.need_fake()
        q5 = self._page("balance")
        self.assertNotIn("MEAN over repetitions", q5)
        d = _data(self.results, "balance")
        v = d[(d["algorithm"] == "jump") & (d["nodes"] == 100) &
              (d["keyset"] == "uniform") & (d["scenario"] == "measured") &
              (d["metric"] == "load_max_over_mean")]["value"]
        row = [r for r in q5.splitlines() if r.startswith("| jump | 100 |")]
        self.assertTrue(row[0].split("|")[4].strip().startswith(
            f"{v.median():.3g}×"), row[0])

        def starve(d):
            m = (d["algorithm"] == "multiprobe") & (d["nodes"] == "100") & \
                (d["metric"] == "load_min_over_mean")
            d.loc[m, "value"] = "0.05"
            # a uniform model (expected p 0.5) the loads reject (p ~ 0)
            p = (d["algorithm"] == "multiprobe") & (d["nodes"] == "100") & \
                (d["metric"] == "load_chi2_pvalue")
            d.loc[p, "value"] = "1e-30"
            a = d[(d["algorithm"] == "multiprobe") & (d["nodes"] == "100") &
                  (d["scenario"] == "analytic")].iloc[0].to_dict()
            a.update(metric="load_chi2_pvalue", value="0.48")
            return pd.concat([d, pd.DataFrame([a])], ignore_index=True)
        src = os.path.join(self.tmp, "starve-src")
        shutil.copytree(os.path.join(self.results, "balance"),
                        os.path.join(src, "balance"))
        shutil.copy(os.path.join(self.results, "registry.json"), src)
        alt = _edit_tree(src, os.path.join(self.tmp, "starve"), "balance",
                         starve)
        ctx = report.make_context(_args(alt, self.report, self.figures))
        q5 = report.balance.section(ctx)
        row = [r for r in q5.splitlines()
               if r.startswith("| multiprobe (k=21) | 100 |")][0]
        self.assertIn("⚠ starved", row)
        self.assertIn("no model fits", row)
        other = [r for r in q5.splitlines()
                 if r.startswith("| multiprobe (k=21) | 10 |")][0]
        self.assertNotIn("⚠ starved", other)
        self.assertNotIn("no model fits", other)

    def test_weights_per_layout_worst_error(self):
        self.need_fake()
        q5 = self._page("balance")
        d = _data(self.results, "weights")
        d = d[(d["metric"] == "share") & (d["algorithm"] == "ring")]
        ideal = d[d["scenario"] == "analytic"].set_index("node")["value"]
        m = d[d["scenario"] == "measured"]
        err = ((m["value"] - m["node"].map(ideal)).abs() /
               m["node"].map(ideal)).groupby(m["repetition"]).max()
        row = _row(q5.split("## Weights")[1], "ring")
        self.assertEqual(row[1], str(len(err)))
        self.assertEqual(row[2], common.fmt_pct(err.median()))
        self.assertEqual(row[4], common.fmt_pct(err.max()))

    def test_weight_change_and_mix_tables(self):
        self.need_fake()
        q5 = self._page("balance")
        ch = q5.split("one server's weight changed and set back")[1]
        ch = ch.split("###")[0]
        # maglev: 2 x (1 + N / 1000) x (1 + rep / 100), median rep 1.
        row = [r for r in ch.splitlines() if r.startswith("| maglev | x2 |")]
        self.assertEqual(len(row), 1)
        cells = [c.strip() for c in row[0].split("|")[1:-1]]
        self.assertEqual(cells[2], f"{2 * 1.01 * 1.01:.3g}×")   # N = 10
        self.assertEqual(cells[4], f"{2 * 2 * 1.01:.3g}×")      # N = 1000
        self.assertEqual(cells[6], common.fmt_pct(0.99))        # restored
        mix = q5.split("Mixed server generations")[1].split("###")[0]
        row = [r for r in mix.splitlines() if r.startswith("| ring |")]
        self.assertEqual(len(row), 1)
        cells = [c.strip() for c in row[0].split("|")[1:-1]]
        self.assertEqual(cells[1], "exact")
        # Layouts 0..3: medians over them of (1, 2, 3) x 0.05 x (1 + rep),
        # then the worst of any layout, 3 x 0.05 x 4.
        want = " / ".join(common.fmt_pct(v) for v in
                          (0.05 * 2.5, 0.1 * 2.5, 0.15 * 2.5, 0.15 * 4))
        self.assertEqual(cells[2], want)
        rz = [r for r in mix.splitlines() if r.startswith("| rendezvous |")]
        self.assertIn("| keys |", rz[0])

    def test_least_memory_counts_bytes_above_the_shared_bookkeeping(self):
        self.need_fake()
        line = self._guide("least_memory")
        s = chdata.load_all(self.results)["memory"].summary
        m = s[(s["metric"] == "memory_bytes") & s["placed_keys"].isna() &
              (s["nodes"] == 1000)]
        base = m["median"].min()
        self.assertIn(f"the smallest footprint, {common.fmt_num(base)} "
                      "bytes", line)
        self.assertIn("ranked by the bytes above it", line)

    # -- seeds ---------------------------------------------------------------

    def test_seed_table_row_per_claim_with_percentile_flag(self):
        sec = self._page("seeds")
        rows = [ln for ln in sec.splitlines() if ln.startswith("| C")]
        self.assertEqual(len(rows), len(SEED_CLAIMS))
        d = _data(self.results, "seeds")
        for cl, ln in zip(SEED_CLAIMS, rows):
            self.assertIn(f"`{cl['scenario']}`", ln)
            v = d[(d["scenario"] == cl["scenario"]) &
                  (d["metric"] == cl["metric"]) &
                  (d["algorithm"] == cl["algorithm"])]
            if cl["algorithm"] == "ring" and cl["setting"].get("vnodes"):
                v = v[v["vnodes"] == cl["setting"]["vnodes"]]
            v = v["value"].dropna()
            if len(v) < 2:
                continue
            # inside = within the central 95 % of the repetitions (linear
            # interpolation between order statistics, as numpy's default)
            import numpy as np
            lo, hi = np.percentile(v, [2.5, 97.5])
            cells = [c.strip() for c in ln.split("|")[1:-1]]
            self.assertEqual(cells[8], "inside" if lo <= cl["article"] <= hi
                             else "**outside**", (cl["label"], lo, hi))
        self.assertNotIn("why not", sec.lower())
        # z alone does not decide: a value at z = 2.2 beyond every
        # repetition is outside
        from report import seeds
        cl = dict(SEED_CLAIMS[0])
        vals = [0.80 + 0.001 * i for i in range(10)] + [0.9]
        _, _, z, pct = seeds.position(vals, 0.805 + 0.09)
        self.assertLess(abs(z), 3)
        lo, hi = chdata.quantile_band(vals, *seeds.BAND)
        self.assertFalse(lo <= 0.895 <= hi)
        del cl

    def test_figures_and_report_skip_missing_experiment(self):
        empty = os.path.join(self.tmp, "empty")
        os.makedirs(empty, exist_ok=True)
        out = _run([os.path.join(HERE, "make_figures.py"), "--results",
                    empty, "--out", os.path.join(self.tmp, "figs2"),
                    "--strict"])
        self.assertEqual(out.count("skipped"), len(FIGURES))
        _make_report(["--results", empty,
                      "--figures", os.path.join(self.tmp, "figs2"), "--out",
                      os.path.join(self.tmp, "r2.md")])
        with open(os.path.join(self.tmp, "r2.md"), encoding="utf-8") as f:
            t = f.read()
        self.assertIn("No results found", t)

    # -- summary --------------------------------------------------------------

    def _summary(self, text):
        return _section(text, "## Summary")

    def _use_line(self, text, title):
        lines = self._summary(text).splitlines()
        i = [k for k, ln in enumerate(lines)
             if ln.startswith(f"- **{title}**")][0]
        return "\n".join([lines[i]] + [ln for ln in lines[i + 1:i + 3]
                                        if ln.startswith("  - ")])

    def test_summary_follows_its_rules(self):
        """Each use's choice meets its needs, is in the balance group (the
        decision guide's ranking: the most even and those tied with it),
        and is the fastest or tied at the most N; every cited run is the
        run of the named experiment."""
        from report import summary
        ctx = report.make_context(_args(self.results, self.report,
                                        self.figures))
        fs = summary.findings(ctx)
        self.assertEqual([f["use"]["key"] for f in fs],
                         [u["key"] for u in summary.USES])
        for f in fs:
            ch, use = f["choice"], f["use"]
            c = ch["pick"]
            if c is None:       # said so; the fake runs have every use
                self.assertFalse(self.fake, use["key"])
                self.assertIn("no measured algorithm meets the needs",
                              self._use_line(self.text, use["title"]))
                continue
            self.assertTrue(summary.meets(c, use["needs"]), use["key"])
            group = ch["group"]
            self.assertIn(c, group)
            # the group: the decision guide's ranking of the candidates'
            # balance rows (the best and those tied with it); the most
            # even is in it, and so is every candidate whose interval
            # holds an ideal uniform placement's expectation
            basis = summary.balance_basis(ctx)
            rows = [x["bal"] for x in f["cands"]]
            _, who = guide.ranked(ctx, rows, "load_max_over_mean", "x",
                                  data=basis["data"], floor=basis["floor"],
                                  notes=[])
            self.assertEqual({common.var_key(x["bal"]) for x in group},
                             {common.var_key(r) for r in who}, use["key"])
            best = min(f["cands"], key=lambda x: x["bal"]["median"])
            self.assertIn(best, group)
            for x in f["cands"]:
                iv = common.interval(x["bal"], False)
                if iv and iv[0] <= basis["floor"] <= iv[1]:
                    self.assertIn(x, group, (use["key"], x["label"]))
            lk = ctx.exps["lookup"]
            for n in ch["ns"]:
                rows = [x["lk"][n] for x in group]
                _, who = guide.ranked(ctx, rows, "lookup_ns",
                                      data=lk.data, notes=[])
                self.assertEqual({x["label"] for x in ch["per_n"][n][0]},
                                 {common.variant_label(r) for r in who},
                                 (use["key"], n))
                fastest = min(group, key=lambda x: x["lk"][n]["median"])
                self.assertIn(fastest, ch["per_n"][n][0])
            wins = {x["label"]: sum(x in ch["per_n"][n][0] for n in ch["ns"])
                    for x in group}
            self.assertEqual(wins[c["label"]], max(wins.values()))
            line = self._use_line(self.text, use["title"])
            self.assertIn(f"**{c['label']}**", line.splitlines()[0])
            for exp, rid in re.findall(r"\b(\w+) `([\w-]+)`\)", line):
                self.assertEqual(ctx.exps[exp].meta["run_id"], rid, exp)
        if fs[2]["choice"]["pick"] is not None:
            store = self._use_line(self.text, "Sharded store with replicas")
            if "replicas" in ctx.exps:
                self.assertIn("primaries: **", store)
                self.assertNotIn("not yet measured", store)
                self.assertIn("for the replica sets themselves", store)
            else:
                self.assertIn("replica placement not yet measured; "
                              "primaries: **", store)

    def test_summary_says_where_the_winner_changes_with_n(self):
        """A fake run where another member of the cache tier's balance group
        is much faster at the largest N only: the choice is not the
        fastest there, or the summary names the N where the answer
        changes."""
        self.need_fake()
        from report import summary
        ctx = report.make_context(_args(self.results, self.report,
                                        self.figures))
        ch = summary.findings(ctx)[0]["choice"]
        self.assertGreaterEqual(len(ch["ns"]), 2)
        top = max(ch["ns"])
        pick = ch["pick"]
        other = [x for x in ch["group"] if x is not pick][0]
        self.assertEqual(ch["per_n"][top][0], [pick])   # before the edit

        def faster(d):
            m = (d["algorithm"] == other["algorithm"]) & \
                (d["scenario"] == "prehashed") & \
                (d["metric"] == "lookup_ns") & \
                (pd.to_numeric(d["nodes"]) == top)
            self.assertGreater(int(m.sum()), 0)
            d.loc[m, "value"] = (pd.to_numeric(d.loc[m, "value"]) / 100
                                 ).astype(str)
            return d
        alt = _edit_tree(self.results, os.path.join(self.tmp, "sum-n"),
                         "lookup", faster)
        out = os.path.join(self.tmp, "sum-n-out", "REPORT.md")
        rep = report.build_report(_args(alt, out, self.figures))
        ch = summary.findings(rep.ctx)[0]["choice"]
        self.assertEqual([x["label"] for x in ch["per_n"][top][0]],
                         [other["label"]])
        line = self._use_line(rep.text, "Cache tier")
        if ch["pick"]["label"] == other["label"]:
            lost = [n for n in ch["ns"] if ch["pick"] not in
                    ch["per_n"][n][0]]
            self.assertTrue(lost)
            self.assertIn(f"at N = {int(lost[0]):,}: **", line)
        else:
            self.assertIn(f"at N = {int(top):,}: **{other['label']}**", line)

    def test_summary_never_picks_what_cannot_add_for_a_use_that_adds(self):
        """anchor made the fastest everywhere: the cache tier and the L4
        balancer (nodes join) do not choose it and say it cannot add a node;
        numbered partitions (nothing joins) choose it and say so too."""
        self.need_fake()
        from report import summary

        def fastest(d):
            m = (d["algorithm"] == "anchor") & \
                (d["metric"] == "lookup_ns")
            d.loc[m, "value"] = (pd.to_numeric(d.loc[m, "value"]) / 100
                                 ).astype(str)
            return d
        alt = _edit_tree(self.results, os.path.join(self.tmp, "sum-a"),
                         "lookup", fastest)
        out = os.path.join(self.tmp, "sum-a-out", "REPORT.md")
        rep = report.build_report(_args(alt, out, self.figures))
        fs = {f["use"]["key"]: f for f in summary.findings(rep.ctx)}
        text = rep.text
        for key, title in (("cache", "Cache tier"),
                           ("l4", "L4 load balancer")):
            self.assertNotEqual(fs[key]["choice"]["pick"]["algorithm"],
                                "anchor")
            line = self._use_line(text, title)
            self.assertIn("**anchor**", line)
            self.assertIn("anchor cannot add a node as measured", line)
        part = fs["partitions"]["choice"]
        self.assertIn("anchor", [x["label"] for x in part["group"]])
        self.assertEqual(part["pick"]["algorithm"], "anchor")
        self.assertIn("it cannot add a node as measured",
                      self._use_line(text, "Numbered partitions"))

    # -- shape: contents, pages, figures in their sections -------------------

    def test_contents_numbers_and_anchors(self):
        """The contents list every numbered question in QUESTIONS order
        with its number from questions.q, an anchor that exists and a page
        that exists; the headings carry the same numbers."""
        from report.layout import anchor_line
        toc = _section(self.text, "## Contents")
        base = os.path.dirname(self.report)
        got = re.findall(r"^- \[(Q\d+)\. [^\]]*\]\(#(\w+)\) · \[page\]"
                         r"\(([^)]+)\)", toc, re.M)
        self.assertEqual([(n, a) for n, a, _ in got],
                         [(questions.q(a), a) for a in questions.QUESTIONS])
        for _, a, page in got:
            self.assertIn(anchor_line(a), self.text)
            self.assertTrue(os.path.isfile(os.path.join(base, page)), page)
            self.assertIn(f"{anchor_line(a)}\n\n{_h(a)} ", self.text)
        for a in re.findall(r"\]\(#([\w-]+)\)", toc):
            self.assertIn(anchor_line(a), self.text)
        # cross-references by name: no section states another number
        self.assertIn(f"({questions.q('presets')}; medians over key-set "
                      "seeds)", self._guide("presets"))
        self.assertRaises(ValueError, questions.q, "no_such_question")

    def test_pages_hold_the_whole_section(self):
        """Every question and the seed articles have a page; a page holds
        its section whole (every table row of REPORT.md's part is there,
        and more), links back to the report, and its links resolve."""
        base = os.path.join(os.path.dirname(self.report), "report")
        self.assertEqual(set(self.pages),
                         set(questions.QUESTIONS) | {"seeds"})
        for name, page in self.pages.items():
            self.assertTrue(page.startswith("# "), name)
            self.assertIn(f"(../REPORT.md#{name})", page)
            head = "## Seed articles" if name == "seeds" else _h(name)
            main = _section(self.text, head)

            def unlinked(t):     # links differ: relative to the page
                return re.sub(r"\]\([^)]*\)", "]()", t)
            for ln in main.splitlines():
                if ln.startswith("| ") and not ln.startswith("| ---"):
                    self.assertIn(unlinked(ln), unlinked(page), name)
            self.assertIn("](report/" + name + ".md)", main)
            for p in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page):
                if not p.startswith("http"):
                    self.assertTrue(os.path.isfile(os.path.join(base, p)),
                                    (name, p))
        # the timed peers are on the page only
        self.assertNotIn("Lookup vs the reference implementations",
                         _section(self.text, _h("lookup")).split(
                             "Only on")[0])
        if self.fake:
            self.assertIn("## Lookup vs the reference implementations",
                          self._page("lookup"))

    def test_figures_inside_their_sections(self):
        """Each figure is drawn inside the section that owns it (under the
        subsection FIGURE_UNDER names), in REPORT.md and on the page; no
        figures section at the end."""
        import report as rep
        self.assertNotIn("## Figures", self.text)
        for name, mod in rep.section_modules():
            head = "## Seed articles" if name == "seeds" else _h(name)
            main = _section(self.text, head)
            under = getattr(mod, "FIGURE_UNDER", {})
            for stem, _, _ in getattr(mod, "FIGURES", ()):
                if not os.path.isfile(os.path.join(self.figures,
                                                   stem + ".png")):
                    self.assertFalse(self.fake, stem)   # all drawn there
                    continue
                self.assertIn(f"{stem}.png)", main, stem)
                self.assertIn(f"{stem}.png)", self.pages[name], stem)
                if stem in under:
                    sub = main.split("\n" + under[stem])
                    self.assertEqual(len(sub), 2, (stem, under[stem]))
                    self.assertIn(f"{stem}.png)", sub[1].split("\n### ")[0])
            for pre in getattr(mod, "PAGE_ONLY", ()):
                if self.fake:    # the fake runs have every subsection
                    self.assertIn("\n" + pre[1:], self.pages[name], pre)
                self.assertNotIn("\n" + pre, main, pre)

    def test_no_empty_columns(self):
        from report import layout
        for name, text in [("REPORT.md", self.text),
                           ("REPORT-ref.md", self.text_ref)] + \
                list(self.pages.items()) + list(self.pages_ref.items()):
            self.assertEqual(layout.empty_columns(text), [], name)


    def test_committed_report_fits_and_has_pages(self):
        """The committed REPORT.md stays within 500 lines and links a page
        for every question; in it and on its pages every link resolves
        and no table has an all-empty column."""
        from report import layout
        root = os.path.dirname(HERE)
        for rep, pages in (("REPORT.md", "report"),
                           ("REPORT-full.md", "report-full")):
            path = os.path.join(root, "results", rep)
            if not os.path.isfile(path):
                continue
            t = _read(path)
            self.assertLessEqual(len(t.splitlines()), 500, rep)
            files = [(path, t)]
            for a in questions.QUESTIONS + ("seeds",):
                self.assertIn(f"]({pages}/{a}.md)", t, rep)
                p = os.path.join(root, "results", pages, a + ".md")
                self.assertTrue(os.path.isfile(p), (pages, a))
                files.append((p, _read(p)))
            for p, text in files:
                self.assertEqual(layout.empty_columns(text), [], p)
                for link in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)",
                                       text):
                    if not link.startswith("http"):
                        self.assertTrue(os.path.exists(os.path.join(
                            os.path.dirname(p), link)), (p, link))


class LayoutTest(unittest.TestCase):
    """report.layout on small texts: what REPORT.md keeps, the figures'
    places, empty columns, links from a page."""

    @staticmethod
    def _table(rows, cols=("a", "b")):
        return "\n".join(["| " + " | ".join(cols) + " |",
                          "|" + "|".join("---" for _ in cols) + "|"] +
                         ["| " + " | ".join(r) + " |" for r in rows])

    def test_long_table_moves_with_its_caption(self):
        from report import layout
        long_t = self._table([(str(i), "x") for i in range(
            layout.MAIN_TABLE_ROWS + 1)])
        short_t = self._table([("1", "y")])
        text = "\n\n".join(["## Q1. T", "Description.", "Caption:",
                             long_t, "Conclusion.", "### Sub", "Its text.",
                             short_t, "### Peers", "Ratio.", short_t])
        main = layout.main_part(text, "report/t.md", ("### Peers",))
        self.assertIn("Description.", main)
        self.assertNotIn("Caption:", main)
        self.assertNotIn("| 0 | x |", main)
        self.assertIn("Conclusion.", main)
        self.assertIn("| 1 | y |", main)       # short table stays
        self.assertIn("### Sub", main)
        self.assertNotIn("### Peers", main)
        self.assertNotIn("Ratio.", main)
        self.assertIn("Only on [the page](report/t.md): 1 longer table; "
                      "Peers.", main)
        # a long table right after the description: the description stays
        text = "\n\n".join(["## Q1. T", "Description.", long_t])
        main = layout.main_part(text, "p.md")
        self.assertIn("Description.", main)
        self.assertNotIn("| 0 | x |", main)
        # nothing moved: the page is linked all the same
        main = layout.main_part("## Q1. T\n\nText.\n", "p.md")
        self.assertIn("[p.md](p.md)", main)

    def test_figures_placed_under_their_subsection(self):
        from report import layout
        text = "\n\n".join(["## Q5. T", "Lead.", "More lead.", "### A",
                             "A text.", "A more.", "### B", "B text."])
        out = layout.place_figures(text, [("f1", "![1](1.png)"),
                                          ("f2", "![2](2.png)"),
                                          ("f3", "![3](3.png)")],
                                   {"f2": "### B", "f3": "### Nowhere"})
        bs = layout.blocks(out)
        self.assertEqual(bs, ["## Q5. T", "Lead.", "![1](1.png)",
                              "![3](3.png)", "More lead.", "### A",
                              "A text.", "A more.", "### B", "B text.",
                              "![2](2.png)"])

    def test_drop_empty_columns(self):
        from report import layout
        t = self._table([("r1", "—", "n/a: no weights", "1 \\| 2", ""),
                         ("r2", "", "n/a: no weights", "3", "x")],
                        ("name", "empty", "na", "pipe", "one"))
        out = layout.drop_empty_columns("Text.\n\n" + t + "\n\nMore.")
        self.assertEqual(out.split("\n\n")[1].splitlines(), [
            "| name | pipe | one |", "|---|---|---|",
            "| r1 | 1 \\| 2 |  |", "| r2 | 3 | x |"])
        self.assertEqual(layout.empty_columns(out), [])
        self.assertEqual(len(layout.empty_columns(t)), 2)

    def test_rebase_links_and_pages_dir(self):
        from report import layout
        d = os.path.join(os.sep, "r")
        text = ("[a](x/y.csv) ![f](../plots/f.png) [u](https://e.org/a) "
                "[s](#sec) [r](REPORT.md#lookup)")
        self.assertEqual(
            layout.rebase_links(text, d, os.path.join(d, "report")),
            "[a](../x/y.csv) ![f](../../plots/f.png) [u](https://e.org/a) "
            "[s](#sec) [r](../REPORT.md#lookup)")
        self.assertEqual(layout.default_pages_dir("/x/REPORT-full.md"),
                         os.path.join(os.sep, "x", "report-full"))
        self.assertEqual(layout.default_pages_dir("/x/REPORT.md"),
                         os.path.join(os.sep, "x", "report"))
        self.assertEqual(layout.default_pages_dir("/x/r2.md"),
                         os.path.join(os.sep, "x", "r2-pages"))


class BatchingReportTest(unittest.TestCase):
    """The "single vs batched" section and its guide item on a fake tree
    whose batched ratios cross 1 at known sizes (make_fake_results.py
    BATCH_CELLS), edited to move the crossing or to drop every batched
    row; and the other lookup tables, which must not see batched rows."""

    @classmethod
    def setUpClass(cls):
        _skip_on_real_results()
        cls.tmp = tempfile.mkdtemp(prefix="chbench-batching-test-")
        cls.results = os.path.join(cls.tmp, "fake")
        _fake_tree(cls.results)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def _ctx(self, results):
        return report.make_context(_args(
            results, os.path.join(self.tmp, "out", "REPORT.md"),
            os.path.join(self.tmp, "figures")))

    @staticmethod
    def _same_links(text):
        """text with the trees' directory names in links made equal."""
        return re.sub(r"\.\./[a-z]+/", "../tree/", text)

    def _edited(self, name, fn):
        return _edit_tree(self.results, os.path.join(self.tmp, name),
                          "lookup", fn)

    def test_sentence_names_the_size_where_the_interval_drops_below_one(self):
        from report import batching
        text = batching.section(self._ctx(self.results))
        self.assertIn(f"## {questions.q('batching')}. Single vs batched",
                      text)
        sentence = [ln for ln in text.splitlines()
                    if ln.startswith("Batching (B = 16")][0]
        self.assertIn("**ring** from 1,000,000 points (N = 10,000, v = 100) "
                      "on (B = 16, prehashed: 0.6×", sentence)
        self.assertIn("not below 1 at 10,000 points (N = 100, v = 100) and "
                      "100,000 points (N = 1,000, v = 100)", sentence)
        self.assertIn("**maglev** from M = 5,000,011 (N = 1,000) on",
                      sentence)
        self.assertIn("at no size measured for anchor", sentence)
        self.assertNotIn("**anchor**", sentence)
        # One table row per batched configuration, with the peer ratio on
        # the ring's prehashed rows only.
        sec = _section(text, "## ")
        rows = [ln for ln in sec.splitlines() if ln.startswith("| ring |")
                or ln.startswith("| maglev |") or
                ln.startswith("| anchor |")]
        self.assertEqual(len(rows), 9)
        peer = [ln for ln in rows if "| prehashed |" in ln and
                ln.startswith("| ring |")]
        self.assertEqual(len(peer), 3)
        for ln in peer:
            cells = [c.strip() for c in ln.split("|")[1:-1]]
            self.assertAlmostEqual(float(cells[-2].split("×")[0]), 0.8,
                                   delta=0.01)
        # The guide item says the same.
        items = dict(guide.items(self._ctx(self.results)))
        self.assertIn("batching", items)
        self.assertIn("**ring** from 1,000,000 points", items["batching"])
        self.assertIn("**maglev** from M = 5,000,011", items["batching"])

    def test_threads_table_puts_batched_rates_beside_single_key_ones(self):
        from report import batching
        text = batching.section(self._ctx(self.results))
        sec = text[text.index("### Batched lookups per second with T "
                              "threads"):]
        header = [ln for ln in sec.splitlines()
                  if ln.startswith("| algorithm |")][0]
        self.assertIn("| T=1 batched | T=1 single-key | T=2 batched | "
                      "T=2 single-key |", header)
        # One row per prehashed batched configuration (the string ring has
        # no thread rates).
        rows = {}
        for ln in sec.splitlines():
            cells = [c.strip() for c in ln.split("|")[1:-1]]
            if cells and cells[0] in ("ring", "maglev", "anchor"):
                rows[(cells[0], cells[2])] = cells
        self.assertEqual(len(rows), 8)
        self.assertTrue(all(r[1] == "prehashed" for r in rows.values()))

        def rate(cell):
            return float(cell.split(" ")[0].replace(",", ""))
        for key, r in rows.items():
            # batched rates at T = 1 and 2: the fake's T / (batched ns)
            self.assertAlmostEqual(rate(r[6]) / rate(r[4]), 2, delta=0.2,
                                   msg=key)
        # The single-key rate where the batch-1 cell has thread rates (the
        # ring at N = 100 and 1000), a dash where it has none (N = 10^4).
        small = rows[("ring", "10,000 points (N = 100, v = 100)")]
        self.assertAlmostEqual(rate(small[5]) / rate(small[4]), 1,
                               delta=0.1)
        self.assertEqual(
            rows[("ring", "1,000,000 points (N = 10,000, v = 100)")][5], "—")

    def test_threshold_moves_when_a_smaller_size_drops_below_one(self):
        from report import batching

        def faster(d):
            m = ((d["algorithm"] == "ring") & (d["nodes"] == "1000") &
                 (d["batch"] == "16") & (d["scenario"] == "prehashed") &
                 (d["metric"] == "batch_lookup_ns_ratio_to_single"))
            d.loc[m, "value"] = [str(0.9 + 0.001 * i)
                                 for i in range(int(m.sum()))]
            return d
        text = batching.section(self._ctx(self._edited("faster", faster)))
        self.assertIn("**ring** from 100,000 points (N = 1,000, v = 100) on",
                      text)
        self.assertIn("not below 1 at 10,000 points (N = 100, v = 100));",
                      text)

        # A dip below 1 at a size followed by a larger size that is not
        # below 1 does not count as "starts to pay".
        def dip(d):
            d = faster(d)
            m = ((d["algorithm"] == "ring") & (d["nodes"] == "10000") &
                 (d["batch"] == "16") & (d["scenario"] == "prehashed") &
                 (d["metric"] == "batch_lookup_ns_ratio_to_single"))
            d.loc[m, "value"] = [str(1.1 + 0.001 * i)
                                 for i in range(int(m.sum()))]
            return d
        text = batching.section(self._ctx(self._edited("dip", dip)))
        self.assertNotIn("**ring** from 100,000 points", text)
        self.assertIn("at no size measured for ring (B = 16, prehashed; "
                      "10,000 points (N = 100, v = 100) … 1,000,000 points "
                      "(N = 10,000, v = 100))", text)

    def test_without_batched_rows_the_section_says_so_and_nothing_else(self):
        from report import batching, lookup

        def drop(d):
            return d[d["batch"] == ""]
        plain = self._edited("plain", drop)
        ctx = self._ctx(plain)
        text = batching.section(ctx)
        self.assertIn("_No batched lookups in this run", text)
        self.assertNotIn("|", text)
        self.assertNotIn("Batching (B =", text)
        self.assertNotIn("Batched lookups per second", text)
        self.assertNotIn("batching", dict(guide.items(ctx)))
        # The other lookup tables read the single-key cells only: the same
        # text with and without the batched cells in the run.
        self.assertEqual(self._same_links(lookup.section(
            self._ctx(self.results))), self._same_links(lookup.section(ctx)))

        # A run written before the batch column existed reads the same.
        def old(d):
            return drop(d).drop(columns=["batch"])
        ctx_old = self._ctx(self._edited("old", old))
        self.assertIn("_No batched lookups in this run",
                      batching.section(ctx_old))
        self.assertEqual(self._same_links(lookup.section(ctx_old)),
                         self._same_links(lookup.section(ctx)))


def _cells(metric, unit, values_by_algorithm, seeds=None):
    """(data, summary rows by algorithm) of one cell per algorithm with the
    given values, repetition i on seed i (the same seeds for every cell)."""
    rows = []
    for a, vals in values_by_algorithm.items():
        for i, v in enumerate(vals):
            r = {c: float("nan") for c in chdata.NUMERIC_COLUMNS}
            r.update({c: "" for c in chdata.STRING_COLUMNS})
            r.update(algorithm=a, hash="xxh64", keyset="uniform",
                     scenario="measured", nodes=100.0, keys=1000.0,
                     seed=float(seeds[i] if seeds else i),
                     repetition=float(i), metric=metric, unit=unit,
                     value=float(v), noisy=0.0)
            rows.append(r)
    data = pd.DataFrame(rows, columns=chdata.COLUMNS)
    summ = chdata.summarize(data)
    return data, {r["algorithm"]: r.to_dict() for _, r in summ.iterrows()}


class GrowthReportTest(unittest.TestCase):
    """The growth section on a fake tree (make_fake_results.py gen_growth:
    modulo far above the optimum, maglev's default 2x per step, dx's
    default doubling once, anchor's default unable to join), its numbers
    read back from data.csv here, edited so that a provisioned
    configuration stops being minimal, and without a growth run."""

    @classmethod
    def setUpClass(cls):
        _skip_on_real_results()
        cls.tmp = tempfile.mkdtemp(prefix="chbench-growth-test-")
        cls.results = os.path.join(cls.tmp, "fake")
        _fake_tree(cls.results)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def _text(self, results):
        from report import growth
        ctx = report.make_context(_args(
            results, os.path.join(self.tmp, "out", "REPORT.md"),
            os.path.join(self.tmp, "figures")))
        return growth.section(ctx)

    def _value(self, results, metric, step, **f):
        d = pd.read_csv(os.path.join(_run_dir(results, "growth"),
                                     "data.csv"), keep_default_na=False,
                        dtype=str)
        m = (d["metric"] == metric) & (d["nodes"] == "100") & \
            (d["step"] == str(step))
        for c in ("algorithm", "capacity", "table_size"):
            m &= d[c] == f.get(c, "")
        got = d[m]
        self.assertEqual(len(got), 1, (metric, step, f))
        return float(got["value"].iloc[0])

    def test_table_matches_the_data(self):
        text = self._text(self.results)
        self.assertIn(f"## {questions.q('growth')}. Growth", text)
        self.assertIn("N = 100 → 200 → 100", text)
        import make_fake_results as mf
        configs = [(a, p, prov) for a, p, prov in mf.growth_configs(100)
                   if a != "anchor" or prov]
        d = pd.read_csv(os.path.join(_run_dir(self.results, "growth"),
                                     "data.csv"), keep_default_na=False,
                        dtype=str)
        per_step = d[(d["metric"] == "moved_over_optimum") &
                     (d["nodes"] == "100")]
        self.assertGreater(len(configs), 5)
        for a, p, prov in configs:
            f = {"algorithm": a}
            f.update({k: str(v) for k, v in p.items()
                      if k in ("capacity", "table_size")})
            label = common.variant_label(dict(
                algorithm=a, **{c: p.get(c) if (prov or c == "vnodes" or
                                                c == "probes") else None
                                for c in common.PARAM_COLS}))
            if prov:
                label += ", provisioned for 2N"
            row = _row(text, label)
            self.assertIsNotNone(row, label)
            want = [self._value(self.results, "cumulative_moved_over_optimum",
                                100, **f),
                    self._value(self.results, "cumulative_moved_over_optimum",
                                200, **f),
                    self._value(self.results, "load_max_over_mean", 100,
                                **f)]
            for cell, v in zip(row[1:3] + row[4:5], want):
                self.assertEqual(cell, f"{v:.3g}×", (label, row))
            # The largest single join and leave, from the data's steps.
            m = (per_step["algorithm"] == a)
            for col in ("capacity", "table_size"):
                m &= per_step[col] == f.get(col, "")
            steps = dict(zip(per_step[m]["step"].astype(int),
                             per_step[m]["value"].astype(float)))
            self.assertEqual(row[3], "{:.3g}× / {:.3g}×".format(
                max(steps[s_] for s_ in range(1, 101)),
                max(steps[s_] for s_ in range(101, 201))), (label, row))
            self.assertEqual(row[5], common.fmt_num(self._value(
                self.results, "memory_bytes", 0, **f)), label)
            self.assertEqual(row[6], common.fmt_num(self._value(
                self.results, "memory_bytes", 100, **f)), label)
        # anchor's default cannot join: its row and the text say so.
        row = _row(text, "anchor")
        self.assertIn("not applicable", row[-1])
        self.assertIn("Cannot grow as configured: anchor (", text)

    def test_sentences_follow_the_data(self):
        text = self._text(self.results)
        minimal = [ln for ln in text.splitlines() if "Minimal over" in ln][0]
        minimal = minimal.split("Above the optimum")[0]
        self.assertIn("maglev (M=20011), provisioned for 2N", minimal)
        self.assertIn("anchor (a=200), provisioned for 2N", minimal)
        self.assertNotIn("modulo", minimal)
        self.assertNotIn("maglev (M≈100N) (", minimal)
        above = text.split("Above the optimum: ")[1].split(". ")[0]
        self.assertTrue(above.startswith("modulo ("), above)
        self.assertIn("maglev (M≈100N)", above)
        self.assertIn("Room to grow, dx (a=200), provisioned for 2N against "
                      "dx: memory at N", text)
        # The one costly join of dx's default (its array doubling) is
        # named with the data's largest step; minimal ones are not.
        spikes = text.split("Single steps above 2× their optimum")[1] \
            .split(". ")[0]
        want = self._value(self.results, "max_moved_over_optimum", 100,
                           algorithm="dx")
        self.assertIn(f"dx (a join {want:.3g}×)", spikes)
        self.assertNotIn("ring", spikes)
        self.assertNotIn("provisioned for 2N", spikes)
        self.assertIn("Room to grow, anchor (a=200), provisioned for 2N "
                      "against anchor: memory at N", text)
        self.assertIn("the default cannot take a node", text)

        # A provisioned configuration made to move 1.5x the optimum leaves
        # the minimal list and joins those above it.
        def worse(d):
            m = (d["algorithm"] == "maglev") & (d["table_size"] != "") & \
                (d["metric"] == "cumulative_moved_over_optimum")
            d.loc[m, "value"] = "1.5"
            return d
        edited = _edit_tree(self.results, os.path.join(self.tmp, "worse"),
                            "growth", worse)
        text = self._text(edited)
        minimal = [ln for ln in text.splitlines() if "Minimal over" in ln][0]
        self.assertNotIn("maglev (M=20011)",
                         minimal.split("Above the optimum")[0])
        self.assertIn("maglev (M=20011), provisioned for 2N (1.5×",
                      text.split("Above the optimum: ")[1])

    def test_lookup_cost_of_room_from_overprovision(self):
        text = self._text(self.results)
        line = [ln for ln in text.splitlines()
                if ln.startswith("The lookup cost of that room")][0]
        self.assertIn("N = 1000", line)
        o = pd.read_csv(os.path.join(_run_dir(self.results, "overprovision"),
                                     "summary.csv"))
        o = o[(o["metric"] == "lookup_ns") & (o["scenario"] == "prehashed")]
        for a in ("anchor", "dx"):
            two = o[(o["algorithm"] == a) & (o["capacity"] == 2000)]
            tight = o[(o["algorithm"] == a) & (o["capacity"] == 1000)]
            self.assertIn(f"{a} {common.fmt_med(two.iloc[0].to_dict())} ns "
                          f"with capacity 2N against "
                          f"{common.fmt_med(tight.iloc[0].to_dict())} ns",
                          line)
        dst = os.path.join(self.tmp, "noop")
        shutil.copytree(self.results, dst)
        shutil.rmtree(os.path.join(dst, "overprovision"))
        self.assertNotIn("The lookup cost of that room", self._text(dst))

    def test_no_growth_run(self):
        dst = os.path.join(self.tmp, "nogrowth")
        shutil.copytree(self.results, dst)
        shutil.rmtree(os.path.join(dst, "growth"))
        self.assertIn("_No `growth` results yet._", self._text(dst))


class StatisticsHelpersTest(unittest.TestCase):
    """common's interval, ranking and paired-comparison helpers on small
    crafted cells (no results tree)."""

    def test_printed_bounds_stay_in_the_metric_range(self):
        reads = dict(metric="extra_db_reads", unit="reads", n=3, n_eff=3,
                     mean=4555.0, mean_ci_low=-1129.0, mean_ci_high=10239.0,
                     min=1200.0, max=8000.0)
        self.assertEqual(common.fmt_mean(reads), "4,555 [0–10,239]")
        mm = dict(metric="load_max_over_mean", unit="ratio", n=3, n_eff=3,
                  mean=1.16, mean_ci_low=0.934, mean_ci_high=1.39,
                  min=1.05, max=1.3)
        self.assertEqual(common.fmt_mean(mm, "x"), "1.16× [1×–1.39×]")
        frac = dict(metric="hit_ratio", unit="fraction", n=3, n_eff=3,
                    mean=0.98, mean_ci_low=0.9, mean_ci_high=1.07, min=0.95,
                    max=0.99)
        self.assertEqual(common.fmt_mean(frac), "0.98 [0.9–1]")
        # a value outside the assumed range keeps its interval
        neg = dict(reads, min=-50.0)
        self.assertEqual(common.fmt_mean(neg), "4,555 [-1,129–10,239]")
        # an unknown metric is never clipped
        other = dict(reads, metric="something", unit="")
        self.assertIn("[-1,129–", common.fmt_mean(other))
        self.assertEqual(common.metric_range("lookup_ns"),
                         (0.0, math.inf))

    def test_interval_kind_says_min_max_for_few_repetitions(self):
        _, s = _cells("load_max_over_mean", "ratio",
                      {"a": [1.1, 1.2, 1.15, 1.12, 1.18],
                       "b": [1.1 + 0.01 * i for i in range(10)]})
        self.assertEqual(common.interval_kind(s["a"], False), "min–max")
        self.assertEqual(common.interval_kind(s["b"], False), "95 % CI")
        self.assertIn("min–max of n = 5",
                      common.interval_words([s["a"], s["b"]], False))
        self.assertIn("95 % CIs of the median",
                      common.interval_words([s["a"], s["b"]], False))

    def test_row_without_interval_is_compared_by_its_value(self):
        best = dict(algorithm="a", median=1.25, n=5, n_eff=5, min=1.2,
                    max=1.3, median_ci_low=None, median_ci_high=None)
        far = dict(algorithm="b", median=3.65, n=4, n_eff=1)
        near = dict(algorithm="c", median=1.27, n=4, n_eff=1)
        b, tied = common.rank([best, far, near], "lower", False)
        self.assertIs(b, best)
        self.assertEqual([r["algorithm"] for r in tied], ["c"])

    def test_paired_comparison_sees_a_constant_ratio(self):
        # Seeds shift both cells alike: the marginal intervals overlap,
        # but every seed's ratio is 1.35.
        base = [1.0, 1.3, 0.9, 1.6, 1.1, 1.45, 0.95, 1.2]
        data, s = _cells("extra_db_reads", "reads",
                         {"ring": [1000 * x for x in base],
                          "maglev": [1350 * x for x in base]})
        _, tied = common.rank([s["ring"], s["maglev"]], "lower", False)
        self.assertEqual(len(tied), 1)          # marginal: "tied"
        p = common.paired(data, s["ring"], s["maglev"])
        self.assertEqual((p["kind"], p["n"]), ("ratio", 8))
        self.assertAlmostEqual(p["est"], 1.35)
        self.assertEqual((p["lo"], p["hi"]), (p["est"], p["est"]))
        self.assertFalse(p["tied"])
        best, tied, info = common.rank_paired([s["maglev"], s["ring"]],
                                              data, "lower", False)
        self.assertEqual((best["algorithm"], tied), ("ring", []))
        self.assertEqual(info["comparisons"], 1)
        self.assertEqual(common.fmt_paired(p), "1.35×")

    def test_paired_comparison_ties_what_differs_by_noise(self):
        import numpy as np
        r = np.random.default_rng(5)
        a = 100 + r.normal(0, 5, 12)
        b = a * (1 + r.normal(0, 0.02, 12))
        data, s = _cells("lookup_ns", "ns", {"x": a, "y": b})
        p = common.paired(data, s["x"], s["y"])
        self.assertEqual(p["method"], "CI of the median")
        self.assertTrue(p["lo"] <= 1 <= p["hi"])
        self.assertTrue(p["tied"])
        # 3 pairs: a paired Student-t interval of the log ratio
        data, s = _cells("lookup_ns", "ns", {"x": a[:3], "y": b[:3] * 1.5})
        p = common.paired(data, s["x"], s["y"])
        self.assertEqual(p["method"], "paired t, n = 3")
        self.assertGreater(p["lo"], 1.2)
        # a zero value: differences instead of ratios
        data, s = _cells("moved_excess_fraction", "fraction",
                         {"x": [0, 0, 0, 0], "y": [0.01, 0.012, 0.011,
                                                   0.013]})
        p = common.paired(data, s["x"], s["y"])
        self.assertEqual(p["kind"], "diff")
        self.assertGreater(p["lo"], 0)
        # other seeds: not pairable
        data2, s2 = _cells("lookup_ns", "ns", {"x": a[:4]},
                           seeds=[7, 8, 9, 10])
        both = pd.concat([data, data2])
        self.assertIsNone(common.paired(both, s2["x"], s["y"]))

    def test_uniform_expectation_from_the_uniform_analytic_rows(self):
        from report import balance
        rows = []
        for a, p, mx in (("jump", 0.48, 1.079), ("dx", 0.48, 1.081),
                         ("ring", 1e-160, 1.28)):
            for m, v in (("load_chi2_pvalue", p),
                         ("load_max_over_mean", mx)):
                rows.append(dict(algorithm=a, vnodes=float("nan"),
                                 table_size=float("nan"),
                                 load_factor=float("nan"),
                                 capacity=float("nan"), probes=float("nan"),
                                 hash="xxh64", keyset="uniform", nodes=100.0,
                                 keys=100000.0, scenario="analytic",
                                 metric=m, median=v))
        s = pd.DataFrame(rows)
        self.assertAlmostEqual(
            balance.uniform_expectation(s, 100, 100000), 1.08)
        self.assertTrue(math.isnan(balance.uniform_expectation(s, 100, 5)))
        # a uniform model the measured loads reject does not fit
        meas = s[s["metric"] == "load_chi2_pvalue"].assign(
            scenario="measured", median=[1e-40, 0.3, 1e-160])
        both = pd.concat([s, meas])
        self.assertFalse(balance.model_fits(both, algorithm="jump"))
        self.assertTrue(balance.model_fits(both, algorithm="dx"))
        self.assertTrue(balance.model_fits(both, algorithm="ring"))

    def test_empty_cell_says_its_own_reason_or_not_measured(self):
        rows = []
        for cap, n, note in ((None, 100, "anchor: cannot add node "
                              "'node-100': all a = 100 buckets are working "
                              "(capacity 0); set the capacity"),
                             (None, 1000, "anchor: cannot add node "
                              "'node-1000': all a = 1000 buckets are "
                              "working")):
            r = {c: float("nan") for c in chdata.NUMERIC_COLUMNS}
            r.update({c: "" for c in chdata.STRING_COLUMNS})
            r.update(algorithm="anchor", nodes=float(n), metric="add_node_ns",
                     capacity=float("nan") if cap is None else float(cap),
                     note="not applicable: " + note)
            rows.append(r)
        r = dict(rows[0], capacity=200.0, nodes=100.0, value=80.0, note="")
        rows.append(r)
        data = pd.DataFrame(rows, columns=chdata.COLUMNS)

        class E:
            pass
        e = E()
        e.data = data
        e.not_applicable = lambda: chdata.Experiment.not_applicable(e)
        var = dict(algorithm="anchor", vnodes=float("nan"),
                   table_size=float("nan"), load_factor=float("nan"),
                   capacity=float("nan"), probes=float("nan"))
        self.assertEqual(common.cell_note(e, var, 1000.0,
                                          metric="add_node_ns"),
                         "n/a: anchor: cannot add node 'node-1000': all a = "
                         "1000 buckets are working")
        self.assertEqual(common.cell_note(e, var, 100.0,
                                          metric="add_node_ns"),
                         "n/a: anchor: cannot add node 'node-100': all a = "
                         "100 buckets are working")
        cap = dict(var, capacity=200.0)
        # a capacity variant run only at N = 100: never another's reason
        self.assertEqual(common.cell_note(e, cap, 1000.0,
                                          metric="add_node_ns"),
                         common.NOT_MEASURED)
        self.assertIsNone(common.cell_note(e, cap, 100.0,
                                           metric="add_node_ns"))

    def test_familywise_level_and_t_quantiles(self):
        for lev, df, want in ((0.99, 4, 4.604095), (0.99, 1, 63.656741),
                              (0.995, 2, 14.089047), (0.95, 3, 3.182446)):
            self.assertAlmostEqual(common.t_two_sided(lev, df), want,
                                   delta=2e-5)
        vals = {f"a{i}": [1.0 + 0.001 * j for j in range(10)]
                for i in range(5)}
        data, s = _cells("lookup_ns", "ns", vals)
        _, _, info = common.rank_paired(list(s.values()), data)
        self.assertEqual(info["comparisons"], 4)
        self.assertAlmostEqual(info["level"], 1 - 0.05 / 4)
        p = next(iter(info["paired"].values()))
        self.assertAlmostEqual(p["level"], 1 - 0.05 / 4)


class ClusterPairedTest(unittest.TestCase):
    """The cluster section's comparisons by seed (report.cluster.base:
    tied_with_best against ring, separate) on crafted cells: a ratio
    that is the same on every seed separates although the marginal
    intervals overlap; a ratio scattered around 1 ties."""

    def _extra(self, vals):
        return _cells("extra_db_reads", "reads", vals)

    def test_constant_ratio_is_not_tied_although_intervals_overlap(self):
        from report.cluster.base import separate, sep_text, tied_with_best
        ring = [3000.0, 4200.0, 5100.0]
        jitter = [1.29, 1.31, 1.30]
        data, s = self._extra({"ring": ring,
                               "maglev": [r * j for r, j in
                                          zip(ring, jitter)]})
        # the marginal mean intervals overlap (the old rule: "tied")
        self.assertTrue(common.overlaps(common.mean_interval(s["ring"]),
                                        common.mean_interval(s["maglev"])))
        best, tied, unranked, info = tied_with_best(
            [("ring", s["ring"]), ("maglev", s["maglev"])], data, "ring")
        self.assertEqual(best[0], "ring")
        self.assertEqual((tied, unranked), ([], []))
        (lbl, p), = info["above"]
        self.assertEqual(lbl, "maglev")
        self.assertAlmostEqual(p["est"], 1.30, places=2)
        self.assertGreater(p["lo"], 1.25)
        self.assertEqual(info["comparisons"], 1)
        self.assertEqual(info["method"], "paired t on log ratios, n = 3")
        sp = separate(data, s["ring"], s["maglev"])
        self.assertTrue(sp["separate"])
        self.assertTrue(sep_text(sp).startswith("paired by seed: 1.3× ["),
                        sep_text(sp))
        self.assertTrue(sep_text(sp).endswith(
            "paired t on log ratios, n = 3: separate"))

    def test_ratio_scattered_around_one_is_tied(self):
        from report.cluster.base import separate, tied_with_best
        ring = [3000.0, 4200.0, 5100.0]
        data, s = self._extra({
            "ring": ring,
            "jump": [r * j for r, j in zip(ring, [1.3, 0.8, 1.05])],
            "dx": [r * j for r, j in zip(ring, [0.70, 0.71, 0.69])]})
        best, tied, unranked, info = tied_with_best(
            [(k, s[k]) for k in ("jump", "ring", "dx")], data, "ring")
        self.assertEqual(best[0], "dx")       # the lowest mean
        self.assertEqual(info["ref"], "ring")  # the fixed reference
        self.assertEqual(tied, ["jump"])
        self.assertEqual([lbl for lbl, _ in info["below"]], ["dx"])
        self.assertEqual(info["above"], [])
        self.assertEqual(info["comparisons"], 2)
        self.assertFalse(separate(data, s["ring"], s["jump"])["separate"])
        # other seeds: not paired, not ranked
        d2, s2 = _cells("extra_db_reads", "reads", {"flip": ring},
                        seeds=[7, 8, 9])
        best, tied, unranked, info = tied_with_best(
            [("ring", s["ring"]), ("flip", s2["flip"])],
            pd.concat([data, d2]), "ring")
        self.assertEqual((tied, unranked, info["comparisons"]),
                         ([], ["flip"], 0))

    def test_measured_against_predicted_pairs_across_metrics(self):
        from report.cluster.base import separate
        pred = [3000.0, 4200.0, 5100.0]
        d1, s1 = _cells("predicted_extra_db_reads", "reads", {"ring": pred})
        d2, s2 = _cells("extra_db_reads", "reads",
                        {"ring": [x * 1.2 for x in pred]})
        data = pd.concat([d1, d2])
        self.assertIsNone(separate(data, s1["ring"], s2["ring"]))
        sp = separate(data, s1["ring"], s2["ring"], free=("metric",))
        self.assertTrue(sp["separate"])
        self.assertAlmostEqual(sp["est"], 1.2)


class FigureStyleTest(unittest.TestCase):
    """Drawing details that a reader relies on."""

    def test_every_preset_has_its_own_colour_and_marker(self):
        from report import presets
        names = [f"preset{i}" for i in range(15)]
        st = presets.preset_styles(names)
        pairs = {(v["color"], v["marker"]) for v in st.values()}
        self.assertEqual(len(pairs), 15)
        algo = {(v["color"], v["marker"])
                for v in style.ALGORITHM_STYLE.values()}
        self.assertFalse(pairs & algo)
        self.assertTrue(all(v["color"] in style.SPARE_COLORS
                            for v in st.values()))

    def test_heat_map_text_contrasts_with_its_cell(self):
        from report import balance, draw
        import numpy as np
        fig, ax = draw.plt.subplots()
        mat = pd.DataFrame([[1.0, 3.5]], index=["h"], columns=["a", "b"])
        balance._heat(ax, mat, lambda v: f"{v:.2f}", "viridis", "t",
                      1.0, 3.5)
        col = {t.get_text(): t.get_color() for t in ax.texts}
        # viridis: dark at the low end, light at the high end
        self.assertEqual((col["1.00"], col["3.50"]), ("white", "black"))
        ax.clear()
        balance._heat(ax, mat, lambda v: f"{v:.2f}", "magma_r", "t")
        col = {t.get_text(): t.get_color() for t in ax.texts}
        self.assertEqual((col["1.00"], col["3.50"]), ("black", "white"))
        draw.plt.close(fig)
        del np

    def test_capped_key_counts_are_marked(self):
        from report import disruption, draw
        fig, ax = draw.plt.subplots()
        d = pd.DataFrame([dict(algorithm="ring", nodes=1000.0, keys=1e6,
                               median=0.001),
                          dict(algorithm="rendezvous", nodes=1000.0,
                               keys=2e5, median=0.00098),
                          dict(algorithm="ring", nodes=100.0, keys=1e6,
                               median=0.01)])
        disruption._mark_capped(ax, d)
        self.assertEqual([t.get_text() for t in ax.texts],
                         ["rendezvous: 200,000 keys (capped)"])
        draw.plt.close(fig)


class StackLabelsTest(unittest.TestCase):
    """style.stack_labels, the label placement of the Pareto figure."""

    def test_raise_that_rounds_below_gap_ends(self):
        # 248.501... + 7.5 - 248.501... rounds to just under 7.5, so the
        # former test |y - qy| < gap raised the second label to the same
        # height forever (make experiments hung in make_figures.py).
        q = 248.5010000007807
        self.assertLess((q + 7.5) - q, 7.5)
        result = []
        worker = threading.Thread(
            target=lambda: result.append(
                style.stack_labels([(0, q, 50), (10, q, 50)], 7.5)),
            daemon=True)  # a hung worker must not keep the process alive
        worker.start()
        worker.join(10)
        self.assertFalse(worker.is_alive(), "stack_labels did not return")
        self.assertEqual(result, [[q, q + 7.5]])

    def test_labels_do_not_overlap_and_only_rise(self):
        anchors = [(100 + (i % 3), 80 + 0.37 * i, 40) for i in range(60)]
        anchors += [(500, 90.0, 40)] * 20  # identical anchors stack up
        anchors.append((900, 85.0, 40))  # alone: stays where it is
        heights = style.stack_labels(anchors, 7.5)
        self.assertEqual(len(heights), len(anchors))
        for (x, y, w), h in zip(anchors, heights):
            self.assertGreaterEqual(h, y)
        self.assertEqual(heights[-1], 85.0)
        self.assertAlmostEqual(heights[79], 90.0 + 19 * 7.5)
        for i, ((xi, _, wi), hi) in enumerate(zip(anchors, heights)):
            for (xj, _, wj), hj in zip(anchors[:i], heights[:i]):
                if xi < xj + wj and xj < xi + wi:
                    self.assertGreaterEqual(abs(hi - hj), 7.5 - 1e-9)


if __name__ == "__main__":
    unittest.main(verbosity=2)

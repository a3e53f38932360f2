#!/usr/bin/python3
"""Tests of plots/report/reruns.py: the between-run spread of timing cells.

Synthetic summaries (no figures, no chbench run): the spread of a row is
computed from its runs' medians; rows flagged noisy in any run, rows missing
from a run and machine-context metrics are left out; a ratio to a peer is
paired with the time it divides; the report paragraph states the numbers
and picks the verdict the paired rows give.

Run: /usr/bin/python3 plots/reruns_test.py
"""

import sys as _sys
_sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import json  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import types  # noqa: E402
import unittest  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import pandas as pd  # noqa: E402

import chdata  # noqa: E402
from report import reruns  # noqa: E402


class Reg:
    """The two registry questions reruns.py asks."""

    def timing(self, m):
        return m.endswith("_ns") or "_ratio_to_" in m or m == "load_avg_1m"

    def better(self, m):
        return "none" if m == "load_avg_1m" else "lower"


def summary(rows):
    """A summary DataFrame of (algorithm, nodes, metric, median, noisy)."""
    out = []
    for alg, n, metric, med, noisy in rows:
        r = {c: "" for c in chdata.SUMMARY_COLUMNS}
        r.update(experiment="lookup", algorithm=alg, hash="xxh64",
                 nodes=n, scenario="prehashed", metric=metric, n=10,
                 median=med, noisy=noisy)
        out.append(r)
    df = pd.DataFrame(out, columns=chdata.SUMMARY_COLUMNS)
    for c in ("nodes", "n", "median", "noisy"):
        df[c] = pd.to_numeric(df[c])
    return df


RUN1 = [("ring", 10, "lookup_ns", 10.0, 0),
        ("ring", 10, "lookup_ns_ratio_to_ring_upper_bound", 1.00, 0),
        ("jump", 10, "lookup_ns", 4.0, 0),
        ("jump", 10, "lookup_ns_ratio_to_jump_paper", 1.00, 0),
        ("maglev", 10, "lookup_ns", 3.0, 0),       # noisy in run 2
        ("dx", 10, "lookup_ns", 5.0, 0),           # missing in run 3
        ("ring", 10, "load_avg_1m", 1.0, 0)]       # context, left out
RUN2 = [("ring", 10, "lookup_ns", 11.0, 0),
        ("ring", 10, "lookup_ns_ratio_to_ring_upper_bound", 1.01, 0),
        ("jump", 10, "lookup_ns", 5.0, 0),
        ("jump", 10, "lookup_ns_ratio_to_jump_paper", 1.02, 0),
        ("maglev", 10, "lookup_ns", 3.0, 1),
        ("dx", 10, "lookup_ns", 5.5, 0),
        ("ring", 10, "load_avg_1m", 3.0, 0)]
RUN3 = [("ring", 10, "lookup_ns", 12.0, 0),
        ("ring", 10, "lookup_ns_ratio_to_ring_upper_bound", 1.03, 0),
        ("jump", 10, "lookup_ns", 4.4, 0),
        ("jump", 10, "lookup_ns_ratio_to_jump_paper", 0.99, 0),
        ("maglev", 10, "lookup_ns", 3.1, 0),
        ("ring", 10, "load_avg_1m", 2.0, 0)]


class SpreadTest(unittest.TestCase):

    def setUp(self):
        self.sp = reruns.spreads(Reg(), [summary(RUN1), summary(RUN2),
                                         summary(RUN3)])

    def test_rows_in_every_run_flagged_ones_marked(self):
        got = sorted(zip(self.sp["key"].str.split("|").str[1],
                         self.sp["metric"], self.sp["flagged"]))
        self.assertEqual(got, [
            ("jump", "lookup_ns", False),
            ("jump", "lookup_ns_ratio_to_jump_paper", False),
            ("maglev", "lookup_ns", True),
            ("ring", "lookup_ns", False),
            ("ring", "lookup_ns_ratio_to_ring_upper_bound", False)])
        self.assertTrue((self.sp["runs"] == 3).all())

    def test_runs_without_timing_rows_have_no_spread(self):
        none = summary([("ring", 10, "load_avg_1m", 1.0, 0)])
        self.assertTrue(reruns.spreads(Reg(), [none, none]).empty)

    def test_spread_is_largest_over_smallest_median(self):
        by = {(k.split("|")[1], m): r for k, m, r in
              zip(self.sp["key"], self.sp["metric"], self.sp["spread"])}
        self.assertAlmostEqual(by[("ring", "lookup_ns")], 12 / 10 - 1)
        self.assertAlmostEqual(by[("jump", "lookup_ns")], 5 / 4 - 1)
        self.assertAlmostEqual(
            by[("jump", "lookup_ns_ratio_to_jump_paper")], 1.02 / 0.99 - 1)

    def test_ratio_paired_with_the_time_it_divides(self):
        cells, steadier, tmed, rmed = reruns.paired_ratio_vs_time(self.sp)
        self.assertEqual((cells, steadier), (2, 2))
        self.assertAlmostEqual(tmed, (0.2 + 0.25) / 2)
        self.assertAlmostEqual(rmed, (0.03 + 1.02 / 0.99 - 1) / 2)

    def test_one_run_has_no_spread(self):
        self.assertTrue(reruns.spreads(Reg(), [summary(RUN1)]).empty)


class SectionTest(unittest.TestCase):
    """The paragraph, from runs on disk laid out as results/README.md says:
    <results>/<exp>/<run_id>/ and <results>/reruns/<k>/<exp>/<run_id>/."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="chbench-reruns-test-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def write(self, root, rows, date, rid="default-abcdef01"):
        d = os.path.join(root, "lookup", rid)
        os.makedirs(d)
        summary(rows).to_csv(os.path.join(d, "summary.csv"), index=False)
        pd.DataFrame(columns=chdata.COLUMNS).to_csv(
            os.path.join(d, "data.csv"), index=False)
        with open(os.path.join(d, "meta.json"), "w") as f:
            json.dump({"run_id": rid, "tier": "default", "date_utc": date,
                       "git_commit": "0123456789abcdef"}, f)

    def ctx(self):
        exps = {"lookup": chdata.load_experiment(self.tmp, "lookup")}
        return types.SimpleNamespace(exps=exps, reg=Reg(), results=self.tmp)

    def test_paragraph_states_the_spread_and_the_verdict(self):
        self.write(self.tmp, RUN1, "2026-12-05T10:00:00Z")
        self.write(os.path.join(self.tmp, "reruns", "1"), RUN2,
                   "2026-12-05T11:00:00Z")
        self.write(os.path.join(self.tmp, "reruns", "2"), RUN3,
                   "2026-12-05T12:00:00Z")
        # A rerun of another spec (another run id) is not paired.
        self.write(os.path.join(self.tmp, "reruns", "3"), RUN3,
                   "2026-12-05T13:00:00Z", rid="default-99999999")
        text = "\n".join(reruns.section(self.ctx(), ["lookup"]))
        self.assertIn("`lookup`: 3 process runs (2026-12-05T10:00:00Z to "
                      "2026-12-05T12:00:00Z, commit `0123456`)", text)
        self.assertIn("5 timing rows measured in all of them (1 "
                      "noise-flagged in at least one)", text)
        # times: spreads 0.2, 0.25 and 0.1/3 -> median 20 %
        self.assertIn("times 20.0 % for the median row", text)
        self.assertIn("in 2 of 2 (median", text)
        self.assertIn("a ratio to a peer was steadier than the absolute "
                      "time it divides (2 of 2 rows spread less)", text)

    def test_run_once_says_not_measured(self):
        self.write(self.tmp, RUN1, "2026-12-05T10:00:00Z")
        text = "\n".join(reruns.section(self.ctx(), ["lookup"]))
        self.assertIn("was run once: the spread between runs is not "
                      "measured", text)
        self.assertNotIn("process runs", text)


if __name__ == "__main__":
    unittest.main()

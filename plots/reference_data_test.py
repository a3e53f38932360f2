#!/usr/bin/python3
"""Checks on the committed reference runs (results/reference/<machine>/).

These test the MEASURED data, not the code: relations that must hold
between timing numbers of one run whatever the machine, and the promises
results/README.md makes about every committed timing row:
  * every timing row of the lookup and build experiments has n >= 10
    (default and full tiers; 3 for smoke), a median interval and a CV;
  * no cell that is not flagged noisy has throughput (lookup_ns) slower than
    its dependent-chain latency by more than 10 %;
  * rendezvous lookups grow about linearly in N (x10 nodes: x4 .. x25 time);
  * the peers' ratios are there for jump, ring, rendezvous and maglev, and
    jump stays at the paper loop's speed (median ratio within 0.8 .. 1.25).

Run: /usr/bin/python3 plots/reference_data_test.py [REFERENCE_DIR]
"""

import sys as _sys
_sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import glob  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import unittest  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chdata  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
REFERENCE = None

MIN_ROUNDS = {"smoke": 3, "default": 10, "full": 10}


def reference_dirs():
    if REFERENCE:
        return [REFERENCE]
    return sorted(glob.glob(os.path.join(ROOT, "results", "reference", "*")))


def runs(ref, experiment):
    """(tier, summary DataFrame) of every run of `experiment` under ref."""
    out = []
    for run_dir in sorted(glob.glob(os.path.join(ref, experiment, "*"))):
        path = os.path.join(run_dir, "summary.csv")
        if not os.path.exists(path):
            continue
        tier = os.path.basename(run_dir).split("-")[0]
        out.append((tier, chdata.read_csv(path, chdata.SUMMARY_COLUMNS)))
    return out


class ReferenceDataTest(unittest.TestCase):

    def test_there_is_a_reference(self):
        self.assertTrue(reference_dirs(), "no results/reference/<machine>")
        for ref in reference_dirs():
            self.assertTrue(runs(ref, "lookup"), ref)
            self.assertTrue(runs(ref, "build"), ref)

    def test_every_timing_row_has_rounds_interval_and_cv(self):
        for ref in reference_dirs():
            for exp in ("lookup", "build"):
                for tier, s in runs(ref, exp):
                    t = s[s["unit"].isin(["ns", "1/s", "ratio"])]
                    self.assertFalse(t.empty, (ref, exp, tier))
                    t = t[t["n"] > 0]  # not-applicable rows have no value
                    # The sentinel is context, one value per cell (its
                    # group's median), not a timing of the cell's rounds.
                    t = t[t["metric"] != "sentinel_ns"]
                    bad = t[t["n"] < MIN_ROUNDS.get(tier, 10)]
                    self.assertTrue(bad.empty, f"{exp}/{tier}: n too small "
                                    f"in {len(bad)} rows")
                    self.assertFalse(t["median_ci_low"].isna().any(),
                                     f"{exp}/{tier}: a median without CI")
                    self.assertFalse(t["cv"].isna().any())

    def test_throughput_never_slower_than_latency_unflagged(self):
        keys = ["algorithm", "hash", "keyset", "nodes", "vnodes",
                "table_size", "load_factor", "placed_keys", "scenario"]
        for ref in reference_dirs():
            for tier, s in runs(ref, "lookup"):
                tp = s[s["metric"] == "lookup_ns"]
                lat = s[s["metric"] == "lookup_latency_ns"]
                both = tp.merge(lat, on=keys, suffixes=("_tp", "_lat"))
                self.assertFalse(both.empty)
                slow = both[(both["median_tp"] > 1.1 * both["median_lat"]) &
                            (both["noisy_tp"] == 0)]
                self.assertTrue(
                    slow.empty, f"{tier}: throughput > 1.1 x latency, not "
                    f"flagged: {slow[keys + ['median_tp', 'median_lat']]}")

    def test_rendezvous_is_about_linear_in_n(self):
        checked = 0
        for ref in reference_dirs():
            for tier, s in runs(ref, "lookup"):
                # Unflagged cells only, as for throughput vs latency: a
                # noisy cell (e.g. N = 10^6 in the full tier, where a 20 ms
                # slice holds a few lookups that start from a cold 8 MB
                # array) is marked, not a measurement of the slope.
                r = s[(s["algorithm"] == "rendezvous") &
                      (s["metric"] == "lookup_ns") &
                      (s["scenario"] == "prehashed") & (s["noisy"] == 0)]
                by_n = dict(zip(r["nodes"], r["median"]))
                pairs = [(n, 10 * n) for n in by_n if 10 * n in by_n
                         and n >= 100]
                for a, b in pairs:
                    ratio = by_n[b] / by_n[a]
                    self.assertTrue(4 <= ratio <= 25,
                                    f"{tier}: rendezvous N={a}->{b}: x{ratio}")
                    checked += 1
        # Some run must have unflagged neighbours to compare.
        self.assertGreater(checked, 0, "no unflagged rendezvous N, 10 N pair")

    def test_peer_ratios_are_there_and_jump_matches_the_paper(self):
        for ref in reference_dirs():
            for tier, s in runs(ref, "lookup"):
                ratios = s[s["metric"].str.contains("_ratio_to_")]
                for algo in ("jump", "ring", "rendezvous", "maglev"):
                    self.assertFalse(
                        ratios[ratios["algorithm"] == algo].empty,
                        f"{tier}: no peer ratio for {algo}")
                j = ratios[(ratios["algorithm"] == "jump") &
                           (ratios["metric"] ==
                            "lookup_ns_ratio_to_jump_paper")]
                for m in j["median"]:
                    self.assertTrue(0.8 <= m <= 1.25,
                                    f"{tier}: jump / paper loop = {m}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        REFERENCE = sys.argv.pop(1)
    unittest.main()

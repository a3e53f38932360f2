#!/usr/bin/python3
"""Tests of chdata's flags: summary.csv's noisy and n_eff come from
data.csv's flag columns, never from the note, and runs written before
those columns existed still load (their flags are in summary.csv). And of
stale runs: a run whose meta.json says "stale" is never read, and the
reference chosen for a user is a machine with a run that is not stale. And
of the bounded-load kind read from registry rows (bounds_loads_of).

Run: /usr/bin/python3 plots/chdata_test.py (or python3 -m pytest plots)."""

import contextlib
import csv
import io
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chdata  # noqa: E402

OLD_COLUMNS = chdata.COLUMNS[:chdata.COLUMNS.index("note") + 1]


def _rows(columns, flags):
    """Three rounds of one timing configuration; flags[i] = (noisy, n_eff,
    note) for round i, written only when `columns` has the flag columns."""
    out = []
    for i, (noisy, n_eff, note) in enumerate(flags):
        r = {c: "" for c in columns}
        r.update(run_id="t", experiment="lookup", algorithm="ring",
                 hash="xxh64", keyset="uniform", nodes="100", seed="1",
                 repetition=str(i), scenario="prehashed",
                 metric="lookup_ns", value=str(10 + i), unit="ns", note=note)
        if "noisy" in columns:
            r.update(noisy=noisy, n_eff=n_eff)
        out.append(r)
    return out


def _write(path, columns, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


class FlagsTest(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = os.path.join(self.tmp.name, "lookup", "default-0")
        os.makedirs(self.dir)
        self.data = os.path.join(self.dir, "data.csv")

    def tearDown(self):
        self.tmp.cleanup()

    def _summary(self, rows):
        _write(self.data, chdata.COLUMNS, rows)
        return chdata.summarize(chdata.read_csv(self.data, chdata.COLUMNS))

    def test_flag_columns_are_not_configuration(self):
        for c in chdata.FLAG_COLUMNS:
            self.assertIn(c, chdata.COLUMNS)
            self.assertNotIn(c, chdata.CONFIG_COLUMNS)
        self.assertEqual(chdata.COLUMNS[-2:], ["noisy", "n_eff"])

    def test_noisy_column_flags_the_group(self):
        s = self._summary(_rows(chdata.COLUMNS, [
            ("0", "", ""), ("1", "", "free text"), ("0", "", "")]))
        self.assertEqual(len(s), 1)  # one group: flags are not keys
        self.assertEqual(s.iloc[0]["noisy"], 1)
        self.assertEqual(s.iloc[0]["n_eff"], 3)

    def test_n_eff_column_drops_the_interval(self):
        s = self._summary(_rows(chdata.COLUMNS, [
            ("0", "1", ""), ("0", "1", ""), ("0", "1", "")]))
        self.assertEqual(s.iloc[0]["n_eff"], 1)
        self.assertEqual(s.iloc[0]["n"], 3)
        self.assertEqual(s.iloc[0]["noisy"], 0)
        self.assertTrue(s["mean_ci_low"].isna().all())

    def test_notes_that_read_like_flags_are_ignored(self):
        s = self._summary(_rows(chdata.COLUMNS, [
            ("0", "", "noisy: cv 9 %"), ("0", "", "n_eff = 1: words"),
            ("0", "", "")]))
        self.assertEqual(s.iloc[0]["noisy"], 0)
        self.assertEqual(s.iloc[0]["n_eff"], 3)

    def test_mean_interval_cut_to_the_metric_range(self):
        """Two values 0 and 0.9 of a fraction: mean 0.45, the t interval
        (12.7 * 0.64 / 1.41 = 5.7 wide each side) reaches far below 0 and
        above 1; a registry that bounds the metric to [0, 1] cuts it
        there, an unbounded metric keeps it."""
        rows = _rows(chdata.COLUMNS, [("0", "", ""), ("0", "", "")])
        for r, v in zip(rows, ("0", "0.9")):
            r.update(metric="hit_ratio", unit="fraction", value=v)
        plain = self._summary(rows).iloc[0]
        self.assertLess(plain["mean_ci_low"], -1)
        self.assertGreater(plain["mean_ci_high"], 2)
        saved = dict(chdata._METRIC_RANGES)
        try:
            chdata.use_registry({"metrics": [
                {"name": "hit_ratio", "range": [0, 1]},
                {"name": "lookup_ns_ratio_to_<peer>", "range": [0, None]}]})
            cut = self._summary(rows).iloc[0]
            self.assertEqual(cut["mean_ci_low"], 0)
            self.assertEqual(cut["mean_ci_high"], 1)
            self.assertAlmostEqual(cut["mean"], 0.45)
            self.assertEqual(chdata.metric_range("lookup_ns_ratio_to_ketama"),
                             (0.0, float("inf")))
            self.assertEqual(chdata.metric_range("no_such_metric"),
                             (float("-inf"), float("inf")))
        finally:
            chdata._METRIC_RANGES.clear()
            chdata._METRIC_RANGES.update(saved)

    def test_old_run_loads_with_the_flags_of_its_summary(self):
        _write(self.data, OLD_COLUMNS, _rows(OLD_COLUMNS, [
            ("", "", "noisy: cv 9 %"), ("", "", ""), ("", "", "")]))
        summ = {c: "" for c in chdata.SUMMARY_COLUMNS}
        summ.update(experiment="lookup", algorithm="ring", hash="xxh64",
                    keyset="uniform", nodes="100", scenario="prehashed",
                    metric="lookup_ns", unit="ns", n="3", n_eff="3",
                    median="11", noisy="1")
        _write(os.path.join(self.dir, "summary.csv"),
               chdata.SUMMARY_COLUMNS, [summ])
        e = chdata.load_experiment(self.tmp.name, "lookup")
        self.assertIsNotNone(e)
        self.assertEqual(len(e.data), 3)
        self.assertTrue(e.data["noisy"].isna().all())
        self.assertEqual(e.summary.iloc[0]["noisy"], 1)

    def test_run_without_the_batch_column_reads_it_as_empty(self):
        cols = [c for c in chdata.COLUMNS if c != "batch"]
        _write(self.data, cols, _rows(cols, [("0", "", "")] * 3))
        e = chdata.load_experiment(self.tmp.name, "lookup")
        self.assertIsNotNone(e)
        self.assertIn("batch", e.data.columns)
        self.assertTrue(e.data["batch"].isna().all())
        self.assertEqual(len(e.summary), 1)
        self.assertTrue(e.summary["batch"].isna().all())

    def test_batched_cell_summarized_apart_from_single_key_cell(self):
        rows = _rows(chdata.COLUMNS, [("0", "", "")] * 3)
        batched = [dict(r, batch="16", value=str(20 + i))
                   for i, r in enumerate(rows)]
        s = self._summary(rows + batched)
        self.assertEqual(len(s), 2)
        by_batch = {(None if b != b else int(b)): m
                    for b, m in zip(s["batch"], s["median"])}
        self.assertEqual(by_batch, {None: 11, 16: 21})

    def test_batched_rows_are_split_off_the_lookup_views(self):
        rows = _rows(chdata.COLUMNS, [("0", "", "")] * 3)
        batched = [dict(r, batch="16", metric=m, value="5")
                   for r in rows for m in ("lookup_ns", "batch_lookup_ns")]
        _write(self.data, chdata.COLUMNS, rows + batched)
        exps = chdata.load_all(self.tmp.name)
        for name in ("lookup", "lookup_all_hashes"):
            e = exps[name]
            self.assertTrue(e.data["batch"].isna().all(), name)
            self.assertTrue(e.summary["batch"].isna().all(), name)
            self.assertEqual(len(e.data), 3, name)
            self.assertIsNotNone(e.batched, name)
            self.assertEqual(len(e.batched.data), 6, name)
            self.assertEqual(sorted(e.batched.summary["metric"]),
                             ["batch_lookup_ns", "lookup_ns"])
        # Without batched rows nothing is split off.
        _write(self.data, chdata.COLUMNS, rows)
        e = chdata.load_all(self.tmp.name)["lookup"]
        self.assertIsNone(e.batched)
        self.assertEqual(len(e.data), 3)

    def test_old_data_without_summary_is_refused_not_guessed(self):
        _write(self.data, OLD_COLUMNS, _rows(OLD_COLUMNS, [
            ("", "", "noisy: cv 9 %"), ("", "", ""), ("", "", "")]))
        with self.assertRaises(ValueError):
            chdata.summarize(chdata.read_csv(self.data, chdata.COLUMNS))
        self.assertIsNone(chdata.load_experiment(self.tmp.name, "lookup"))


def _write_run(results, experiment, run_id, date, stale=None, value=10):
    """One run directory with data.csv, summary.csv and meta.json."""
    d = os.path.join(results, experiment, run_id)
    os.makedirs(d)
    rows = _rows(chdata.COLUMNS, [("0", "", "")] * 3)
    for r in rows:
        r.update(run_id=run_id, experiment=experiment, value=str(value))
    _write(os.path.join(d, "data.csv"), chdata.COLUMNS, rows)
    summ = {c: "" for c in chdata.SUMMARY_COLUMNS}
    summ.update(experiment=experiment, algorithm="ring", hash="xxh64",
                keyset="uniform", nodes="100", scenario="prehashed",
                metric="lookup_ns", unit="ns", n="3", n_eff="3",
                median=str(value), noisy="0")
    _write(os.path.join(d, "summary.csv"), chdata.SUMMARY_COLUMNS, [summ])
    meta = {"run_id": run_id, "experiment": experiment, "tier": "default",
            "date_utc": date, "git_commit": "0" * 40}
    if stale is not None:
        meta["stale"] = stale
    with open(os.path.join(d, "meta.json"), "w") as f:
        json.dump(meta, f, indent=2)
    return d


class StaleTest(unittest.TestCase):

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def _load(self, results, name="lookup"):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            e = chdata.load_experiment(results, name)
        return e, err.getvalue()

    def test_stale_run_is_skipped_and_current_one_read(self):
        # The stale run is the newer one: without the skip it would win.
        res = os.path.join(self.root, "m")
        current = _write_run(res, "lookup", "default-1", "2026-01-01T00:00:00Z",
                             value=10)
        stale = _write_run(res, "lookup", "default-2", "2026-06-01T00:00:00Z",
                           stale="predates the new loop", value=99)
        e, err = self._load(res)
        self.assertIsNotNone(e)
        self.assertEqual(e.run_dir, current)
        self.assertEqual(list(e.data["value"]), [10.0] * 3)
        self.assertEqual(err.count("\n"), 1, err)
        self.assertIn(stale, err)
        self.assertIn("predates the new loop", err)

    def test_only_stale_runs_read_as_missing(self):
        res = os.path.join(self.root, "m")
        _write_run(res, "lookup", "default-1", "2026-01-01T00:00:00Z",
                   stale="old")
        e, err = self._load(res)
        self.assertIsNone(e)
        self.assertIn("skipping stale run", err)
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(chdata.load_all(res), {})

    def test_empty_stale_field_is_not_stale(self):
        res = os.path.join(self.root, "m")
        d = _write_run(res, "lookup", "default-1", "2026-01-01T00:00:00Z",
                       stale="")
        e, err = self._load(res)
        self.assertEqual(e.run_dir, d)
        self.assertEqual(err, "")

    def test_pick_reference_passes_over_a_machine_with_only_stale_runs(self):
        ref = os.path.join(self.root, "reference")
        _write_run(os.path.join(ref, "a-old"), "lookup", "default-1",
                   "2026-01-01T00:00:00Z", stale="old")
        _write_run(os.path.join(ref, "b-new"), "lookup", "default-1",
                   "2026-01-01T00:00:00Z")
        _write_run(os.path.join(ref, "c-new"), "build", "default-1",
                   "2026-01-01T00:00:00Z")
        b, c = os.path.join(ref, "b-new"), os.path.join(ref, "c-new")
        # The user's own machine, when it has a current run.
        self.assertEqual(chdata.pick_reference(ref, "c-new"), c)
        # Not when all its runs are stale: the first machine with a current
        # run instead, and so for a machine not committed at all.
        self.assertEqual(chdata.pick_reference(ref, "a-old"), b)
        self.assertEqual(chdata.pick_reference(ref, "zz"), b)
        self.assertEqual(chdata.pick_reference(ref), b)
        self.assertIsNone(chdata.pick_reference(
            os.path.join(self.root, "none"), "a-old"))

    def test_pick_reference_is_none_when_every_run_is_stale(self):
        ref = os.path.join(self.root, "reference")
        _write_run(os.path.join(ref, "a-old"), "lookup", "default-1",
                   "2026-01-01T00:00:00Z", stale="old")
        self.assertIsNone(chdata.pick_reference(ref, "a-old"))

    def test_committed_intel_runs_are_stale_and_never_picked(self):
        root = os.path.join(os.path.dirname(HERE), "results", "reference")
        intel = os.path.join(root, "intel-xeon-2cpu")
        if not os.path.isdir(intel):
            self.skipTest("no committed Intel runs")
        self.assertFalse(chdata.has_current_run(intel))
        self.assertNotEqual(chdata.pick_reference(root, "intel-xeon-2cpu"),
                            intel)


class BoundedLoadKindTest(unittest.TestCase):
    """The bounded-load kind from registry rows: the bounds_loads_of field,
    and, in a registry written before it, the load_factor parameter, the
    capped algorithm being the one whose parameters are the scheme's
    without it. Invented names: the rule reads facts, not names."""

    def _with(self, rows):
        saved = dict(chdata._CATALOGUE)
        chdata._CATALOGUE.clear()
        chdata.use_registry({"algorithms": rows})
        self.addCleanup(lambda: (chdata._CATALOGUE.clear(),
                                 chdata._CATALOGUE.update(saved)))

    def test_field_decides(self):
        self._with([
            {"name": "base", "parameters": ["hash", "vnodes"],
             "bounds_loads_of": ""},
            {"name": "capped", "parameters": ["hash", "vnodes",
                                             "load_factor"],
             "bounds_loads_of": "base"},
            {"name": "other", "parameters": ["hash", "load_factor"],
             "bounds_loads_of": ""}])
        self.assertEqual(chdata.bounds_loads_of("capped"), "base")
        self.assertEqual(chdata.bounds_loads_of("base"), "")
        # the field says "other" caps nothing, whatever its parameters
        self.assertFalse(chdata.is_bounded_load("other"))
        self.assertEqual(chdata.bounded_load_schemes(), ["capped"])
        self.assertEqual(chdata.bounded_load_schemes(["base", "x"]), [])

    def test_registry_before_the_field(self):
        self._with([
            {"name": "flat", "parameters": ["hash"]},
            {"name": "base", "parameters": ["hash", "vnodes"]},
            {"name": "capped", "parameters": [
                "hash", "vnodes", {"name": "load_factor"}]},
            {"name": "lone", "parameters": ["hash", "table_size",
                                           "load_factor"]}])
        self.assertEqual(chdata.bounded_load_schemes(), ["capped", "lone"])
        self.assertEqual(chdata.bounds_loads_of("capped"), "base")
        # no algorithm with its other parameters: a scheme capping none
        self.assertTrue(chdata.is_bounded_load("lone"))
        self.assertEqual(chdata.bounds_loads_of("lone"), "")
        self.assertEqual(chdata.bounds_loads_of("flat"), "")
        self.assertEqual(chdata.bounds_loads_of("unknown"), "")

    def test_committed_registries_agree(self):
        """The reference's registry (with the field) and an older run's
        (without it) name the same scheme and the same capped
        algorithm."""
        ref = os.path.join(os.path.dirname(HERE), "results", "reference",
                           "amd-epyc-2cpu")
        found = []
        for reg in (os.path.join(ref, "registry.json"),
                    os.path.join(ref, "reruns", "1", "registry.json")):
            if not os.path.exists(reg):
                self.skipTest(f"{reg} not found")
            with open(reg, encoding="utf-8") as f:
                self._with(json.load(f)["algorithms"])
            found.append([(a, chdata.bounds_loads_of(a))
                          for a in chdata.bounded_load_schemes()])
        self.assertEqual(len(found[0]), 1)
        self.assertTrue(found[0][0][1])
        self.assertEqual(found[0], found[1])


if __name__ == "__main__":
    unittest.main()

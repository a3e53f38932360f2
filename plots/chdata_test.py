#!/usr/bin/python3
"""Tests of chdata's flags: summary.csv's noisy and n_eff come from
data.csv's flag columns, never from the note, and runs written before
those columns existed still load (their flags are in summary.csv).

Run: /usr/bin/python3 plots/chdata_test.py (or python3 -m pytest plots)."""

import csv
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

    def test_old_data_without_summary_is_refused_not_guessed(self):
        _write(self.data, OLD_COLUMNS, _rows(OLD_COLUMNS, [
            ("", "", "noisy: cv 9 %"), ("", "", ""), ("", "", "")]))
        with self.assertRaises(ValueError):
            chdata.summarize(chdata.read_csv(self.data, chdata.COLUMNS))
        self.assertIsNone(chdata.load_experiment(self.tmp.name, "lookup"))


if __name__ == "__main__":
    unittest.main()

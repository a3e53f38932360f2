"""Reading chbench results trees (see /work/notes/SCHEMA.md, results/README.md).

Layout: <results>/<experiment>/<run_id>/{data.csv, summary.csv, meta.json}.

Run selection (documented in the report header): for each experiment, among
the run directories that contain data.csv, keep those whose meta.json "tier"
equals --tier when one is given, then take the newest by meta.json
"date_utc" (ISO 8601 UTC, compared as text; "date" accepted as a fallback);
ties and missing dates fall back to data.csv's modification time.

Maglev's default table size depends on N (smallest prime >= 100·N,
results/README.md). On reading, maglev rows whose table_size is that default
get an empty table_size, so they form ONE series over N (labelled
"maglev (M≈100N)" by make_report.variant_label); rows with an explicit,
non-default M (the lookup/memory table_size axis) keep their M.

Guarantees: never raises for a missing experiment (load_experiment returns
None); summary.csv is recomputed from data.csv when it is absent, with the
same definition as the runner (mean ± t(0.975, n-1)·s/√n).
"""

import json
import math
import os

import pandas as pd

COLUMNS = ["run_id", "experiment", "algorithm", "hash", "keyset", "nodes",
           "vnodes", "table_size", "load_factor", "keys", "seed",
           "repetition", "scenario", "node", "weight", "metric", "value",
           "unit", "note"]
STRING_COLUMNS = ["run_id", "experiment", "algorithm", "hash", "keyset",
                  "scenario", "metric", "unit", "note"]
NUMERIC_COLUMNS = [c for c in COLUMNS if c not in STRING_COLUMNS]
# Configuration columns of summary.csv: all but run_id/seed/repetition
# (and the measurement columns value/note), in data.csv order.
CONFIG_COLUMNS = [c for c in COLUMNS
                  if c not in ("run_id", "seed", "repetition", "metric",
                               "value", "unit", "note")]
SUMMARY_COLUMNS = CONFIG_COLUMNS + ["metric", "unit", "n", "median", "mean",
                                    "ci95_low", "ci95_high"]

# Two-sided 97.5 % quantiles of Student's t, df = 1..30 (any statistics
# table, e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2); larger df use the normal
# approximation with a 1/df correction (error < 0.002 for df > 30).
_T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
         2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101,
         2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052,
         2.048, 2.045, 2.042]


def t975(df):
    if df < 1:
        return float("nan")
    if df <= len(_T975):
        return _T975[df - 1]
    return 1.959964 + 2.37 / df


def read_csv(path, columns):
    """Reads a tidy CSV: strings stay strings ('' when empty), numbers float."""
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    for c in columns:
        if c not in df.columns:
            df[c] = ""
    for c in df.columns:
        if c not in STRING_COLUMNS:
            df[c] = pd.to_numeric(df[c].replace("", float("nan")),
                                  errors="coerce")
    return df


def smallest_prime_at_least(x):
    """Smallest prime >= x (trial division; x up to ~10^9 is fast)."""
    n = max(2, int(math.ceil(x)))
    while True:
        if n < 4 or (n % 2 and all(n % d for d in range(3, int(n ** 0.5) + 1,
                                                         2))):
            if n == 2 or n % 2:
                return n
        n += 1


_MAGLEV_M_CACHE = {}


def default_maglev_m(nodes):
    """The runner's default Maglev table size for N nodes."""
    n = int(nodes)
    if n not in _MAGLEV_M_CACHE:
        _MAGLEV_M_CACHE[n] = smallest_prime_at_least(100 * n)
    return _MAGLEV_M_CACHE[n]


def normalize_maglev(df):
    """Empties table_size on maglev rows that use the default M for their N
    (in place; returns df). Explicit, non-default sizes are kept."""
    if "algorithm" not in df.columns or "table_size" not in df.columns:
        return df
    m = (df["algorithm"] == "maglev") & df["table_size"].notna() & \
        df["nodes"].notna()
    if m.any():
        dflt = df.loc[m, "nodes"].map(default_maglev_m)
        hit = df.loc[m, "table_size"] == dflt
        df.loc[hit[hit].index, "table_size"] = float("nan")
    return df


def meta_get(meta, *keys):
    """First non-empty value of `keys` in meta or meta["machine"]."""
    for src in (meta, meta.get("machine") if isinstance(
            meta.get("machine"), dict) else {}):
        for k in keys:
            v = src.get(k)
            if v not in (None, "", [], {}):
                return v
    return None


def summarize(data):
    """summary.csv rows from data.csv rows (rows with a value only)."""
    d = data[data["value"].notna()]
    if d.empty:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    keys = CONFIG_COLUMNS + ["metric", "unit"]
    out = []
    for k, g in d.groupby(keys, dropna=False, sort=True):
        v = g["value"].astype(float)
        n = len(v)
        mean = v.mean()
        if n > 1:
            half = t975(n - 1) * v.std(ddof=1) / math.sqrt(n)
            lo, hi = mean - half, mean + half
        else:
            lo = hi = float("nan")
        out.append(list(k) + [n, v.median(), mean, lo, hi])
    return pd.DataFrame(out, columns=SUMMARY_COLUMNS)


def _read_meta(run_dir):
    p = os.path.join(run_dir, "meta.json")
    try:
        with open(p, encoding="utf-8") as f:
            m = json.load(f)
        if not isinstance(m, dict):
            m = {}
    except (OSError, ValueError):
        m = {}
    m.setdefault("run_id", os.path.basename(run_dir))
    return m


def meta_date(meta):
    return str(meta.get("date_utc") or meta.get("date") or "")


def list_runs(results_dir, experiment):
    """[(run_dir, meta)] for one experiment, any order."""
    base = os.path.join(results_dir, experiment)
    runs = []
    if not os.path.isdir(base):
        return runs
    for rid in sorted(os.listdir(base)):
        d = os.path.join(base, rid)
        if os.path.isfile(os.path.join(d, "data.csv")):
            runs.append((d, _read_meta(d)))
    return runs


def select_run(results_dir, experiment, tier=None, run_id=None):
    """The run directory to use for one experiment, or (None, None)."""
    runs = list_runs(results_dir, experiment)
    if run_id:
        runs = [r for r in runs if os.path.basename(r[0]) == run_id]
    if tier:
        runs = [r for r in runs if str(r[1].get("tier", "")) == tier]
    if not runs:
        return None, None
    runs.sort(key=lambda r: (meta_date(r[1]),
                             os.path.getmtime(os.path.join(r[0], "data.csv"))))
    return runs[-1]


class Experiment:
    """One selected run: data (all rows), summary, meta, paths."""

    def __init__(self, name, run_dir, meta):
        self.name = name
        self.run_dir = run_dir
        self.meta = meta
        self.data_path = os.path.join(run_dir, "data.csv")
        self.summary_path = os.path.join(run_dir, "summary.csv")
        self.data = normalize_maglev(read_csv(self.data_path, COLUMNS))
        if os.path.isfile(self.summary_path):
            self.summary = normalize_maglev(
                read_csv(self.summary_path, SUMMARY_COLUMNS))
        else:
            self.summary = summarize(self.data)
            self.summary_path = self.data_path  # link to what exists

    def rows(self, table="summary", **filters):
        """Rows of summary (default) or data matching column == value.

        A filter value of None matches an empty cell; a list matches any.
        """
        df = self.summary if table == "summary" else self.data
        mask = pd.Series(True, index=df.index)
        for col, val in filters.items():
            if col not in df.columns:
                return df.iloc[0:0]
            if val is None:
                if col in STRING_COLUMNS:
                    mask &= df[col] == ""
                else:
                    mask &= df[col].isna()
            elif isinstance(val, (list, tuple, set)):
                mask &= df[col].isin(list(val))
            else:
                mask &= df[col] == val
        return df[mask]

    def not_applicable(self):
        """data rows with an empty value and a 'not applicable' note."""
        d = self.data
        return d[d["value"].isna() &
                 d["note"].str.lower().str.startswith("not applicable")]


def load_experiment(results_dir, name, tier=None, run_id=None):
    run_dir, meta = select_run(results_dir, name, tier, run_id)
    if run_dir is None:
        return None
    try:
        return Experiment(name, run_dir, meta)
    except (OSError, ValueError, pd.errors.ParserError,
            pd.errors.EmptyDataError) as e:
        print(f"chbench plots: cannot read {run_dir}: {e}")
        return None


EXPERIMENTS = ["lookup", "build", "memory", "disruption", "balance", "vnodes",
               "hashes", "bounded_load", "weights", "seeds"]


# The hash every comparison of algorithms uses; other hashes in the lookup
# experiment form its hash axis (at one N) and are shown on their own.
DEFAULT_HASH = "xxh64"


def split_hash_axis(e):
    """Returns (default-hash view, all-hash view) of a lookup Experiment.

    Mixing hashes in one series would average different configurations
    (rendezvous hashes every (key, node) pair with the cell's hash), so
    per-algorithm tables and figures read only DEFAULT_HASH rows.
    """
    import copy
    if e is None or DEFAULT_HASH not in set(e.data["hash"]):
        return e, e
    view = copy.copy(e)
    view.data = e.data[e.data["hash"] == DEFAULT_HASH]
    view.summary = e.summary[e.summary["hash"] == DEFAULT_HASH]
    return view, e


def load_all(results_dir, tier=None):
    """{name: Experiment} for every experiment found (missing ones absent).

    "lookup" holds the DEFAULT_HASH rows only; "lookup_all_hashes" holds
    every row (the hash axis).
    """
    out = {}
    for name in EXPERIMENTS:
        e = load_experiment(results_dir, name, tier)
        if e is not None:
            out[name] = e
    if "lookup" in out:
        out["lookup"], out["lookup_all_hashes"] = split_hash_axis(out["lookup"])
    return out


def quantile_band(values, lo=0.025, hi=0.975):
    """(low, high) central band of individual repetitions."""
    s = pd.Series(values, dtype=float).dropna()
    if s.empty:
        return float("nan"), float("nan")
    return float(s.quantile(lo)), float(s.quantile(hi))

"""Reading chbench results trees (schema: results/README.md).

Layout: a results directory DIR (for example results/reference/<machine> or
results/local) holds DIR/<experiment>/<run_id>/{data.csv, summary.csv,
meta.json} and DIR/registry.json (`chbench list --json`: algorithms with
lookup_class and capabilities, metrics with unit/better/timing, peers).

Run selection (documented in the report header): for each experiment, among
the run directories that contain data.csv, drop the stale ones (below), keep
those whose meta.json "tier" equals --tier when one is given, then take the
newest by meta.json "date_utc" (ISO 8601 UTC, compared as text; "date"
accepted as a fallback); ties and missing dates fall back to data.csv's
modification time.

Stale runs: a run whose meta.json has a non-empty "stale" field (a one-line
reason: its numbers predate later code) is never read; list_runs skips it
with a one-line note on stderr. pick_reference chooses the committed
reference machine the Makefile shows beside a user's numbers: the user's
machine when it has a run that is not stale, else the first machine (in
name order) that has one, else none. `python3 plots/chdata.py
pick-reference ROOT MACHINE` prints that directory (or nothing).

The default of the table_size parameter depends on N (the smallest prime
>= 100·N, results/README.md). On reading, rows whose table_size is that
default get an empty table_size, so they form ONE series over N (labelled
"<algorithm> (M≈100N)" by report.common.variant_label for the algorithms
whose registry entry lists table_size); rows with an explicit, non-default M
keep their M.

Algorithm catalogue: load_registry (and so load_all) adds the algorithms of
DIR/registry.json, in registry order, to one per-process catalogue
(algorithm_names, algorithm_entry, has_capability, takes_parameter,
bounds_loads_of, bounded_load_schemes). Plot order and styles (style.py),
variant labels and the kinds the report treats apart (a bounded-load scheme
and the algorithm it caps, the algorithms with vnodes, ...) come from it, so
no module here needs a list of algorithm names.

Guarantees: never raises for a missing experiment (load_experiment returns
None); summary.csv is recomputed from data.csv when it is absent, with the
runner's definitions (stats_of: order-statistic CI of the median, Student-t
CI of the mean, n_eff, noisy).

Flags: data.csv's `noisy` and `n_eff` columns are the only source of the
summary's noisy and n_eff; the `note` column is text for people and is never
parsed. Runs written before those columns existed (the committed reference
runs among them) read as usual: their flags are in their summary.csv, which
the runner always wrote beside data.csv, and their data rows get empty flag
columns. Only an old data.csv WITHOUT summary.csv cannot be summarized (its
flags exist nowhere but in prose); load_experiment reports it as unreadable
instead of guessing.
"""

import json
import math
import os
import sys

import numpy as np
import pandas as pd

COLUMNS = ["run_id", "experiment", "algorithm", "hash", "keyset", "nodes",
           "vnodes", "table_size", "load_factor", "capacity", "probes",
           "keys", "placed_keys", "seed", "repetition", "scenario",
           "removal", "removed", "threads", "node", "weight",
           "mode", "zipf", "requests", "cache_items", "stale_fraction",
           "utilization", "bucket", "replicas", "topology", "batch",
           "step", "metric", "value", "unit", "note", "noisy", "n_eff"]
# The cluster experiment's columns (mode .. bucket, experiments/
# result_row.h), the replicas experiment's (replicas, topology) and the
# batched lookups' (batch: keys per LookupBatch call, on every row of a
# batched cell) and the growth experiment's step (0 .. 2N of its scale-out
# and scale-in sequence) are empty elsewhere; runs written before they
# existed lack them and read as empty (read_csv adds them).
STRING_COLUMNS = ["run_id", "experiment", "algorithm", "hash", "keyset",
                  "scenario", "removal", "mode", "topology", "metric", "unit",
                  "note"]
NUMERIC_COLUMNS = [c for c in COLUMNS if c not in STRING_COLUMNS]
# The per-row flags summary.csv aggregates (results/README.md).
FLAG_COLUMNS = ["noisy", "n_eff"]
# Configuration columns of summary.csv: all but run_id/seed/repetition
# (and the measurement columns value/note and the flags), in data.csv order.
CONFIG_COLUMNS = [c for c in COLUMNS
                  if c not in ["run_id", "seed", "repetition", "metric",
                               "value", "unit", "note"] + FLAG_COLUMNS]
STAT_COLUMNS = ["n", "n_eff", "median", "median_ci_low", "median_ci_high",
                "min", "max", "cv", "mean", "mean_ci_low", "mean_ci_high",
                "noisy"]
SUMMARY_COLUMNS = CONFIG_COLUMNS + ["metric", "unit"] + STAT_COLUMNS

# Two-sided 95 % quantiles t(0.975, df) of Student's t for df = 1..30, to
# 6 decimals (scipy.stats.t.ppf; any statistics table agrees to its digits).
# For df > 30: the Cornish-Fisher expansion of t in powers of 1/df (Hill,
# "Algorithm 396: Student's t-quantiles", CACM 13(10), 1970; Abramowitz &
# Stegun 26.7.5) with four correction terms. Measured against scipy for
# df = 31..2000 the largest absolute error is 2.7e-8 (at df = 31); the
# table's own rounding error is <= 5e-7.
_T975 = [12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912,
         2.364624, 2.306004, 2.262157, 2.228139, 2.200985, 2.178813,
         2.160369, 2.144787, 2.131450, 2.119905, 2.109816, 2.100922,
         2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899,
         2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272]
_Z975 = 1.959963984540054


def t975(df):
    """t(0.975, df): the table for df <= 30, Cornish-Fisher beyond."""
    if df < 1:
        return float("nan")
    if df <= len(_T975):
        return _T975[int(df) - 1]
    z = _Z975
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 -
          945 * z) / 92160
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4


def median_ci_rank(n, level=0.95):
    """j (1-based) of the distribution-free CI (x_(j), x_(n+1-j)) of the
    median: the largest j with P(j <= B <= n-j) >= level, B ~ Bin(n, 1/2)
    (the narrowest symmetric order-statistic pair with that coverage), or
    None when no pair reaches it (n < 6 at 95 %)."""
    if n < 1:
        return None
    # cdf[k] = P(B <= k), exact with integers.
    tot = 2 ** n
    cdf, acc = [], 0
    for k in range(n + 1):
        acc += math.comb(n, k)
        cdf.append(acc)
    best = None
    for j in range(1, n // 2 + 1):
        # coverage of (x_(j), x_(n+1-j)) = 1 - 2 P(B <= j-1)
        cov = 1.0 - 2.0 * cdf[j - 1] / tot
        if cov >= level:
            best = j
        else:
            break
    return best


def stats_of(values, n_eff_one=False, noisy=False,
             rng=(-math.inf, math.inf)):
    """The summary statistics (STAT_COLUMNS, as a dict) of one group's
    values, by the definitions in results/README.md (summary.csv columns);
    the mean's interval is cut to `rng`, the metric's range, as the
    runner's summary.csv is."""
    v = sorted(float(x) for x in values)
    n = len(v)
    nan = float("nan")
    out = dict(n=n, n_eff=(1 if (n_eff_one and n > 0) else n),
               median=nan, median_ci_low=nan, median_ci_high=nan, min=nan,
               max=nan, cv=nan, mean=nan, mean_ci_low=nan, mean_ci_high=nan,
               noisy=1 if noisy else 0)
    if n == 0:
        return out
    mid = n // 2
    out["median"] = v[mid] if n % 2 else (v[mid - 1] + v[mid]) / 2
    out["min"], out["max"] = v[0], v[-1]
    mean = sum(v) / n
    out["mean"] = mean
    if n >= 2:
        sd = math.sqrt(sum((x - mean) ** 2 for x in v) / (n - 1))
        out["cv"] = sd / mean if mean != 0 else nan
        if out["n_eff"] > 1:
            half = t975(n - 1) * sd / math.sqrt(n)
            out["mean_ci_low"] = min(max(mean - half, rng[0]), rng[1])
            out["mean_ci_high"] = min(max(mean + half, rng[0]), rng[1])
    if out["n_eff"] > 1:
        j = median_ci_rank(n)
        if j is not None:
            out["median_ci_low"], out["median_ci_high"] = v[j - 1], v[n - j]
    return out


def read_csv(path, columns):
    """Reads a tidy CSV: strings stay strings ('' when empty), numbers float
    (NaN when empty or not a number).

    The numeric columns are parsed by pandas' C reader (round-trip
    precision: the same doubles as float(text)); a column that holds
    anything but numbers is converted afterwards, as before."""
    header = pd.read_csv(path, nrows=0).columns
    numeric = [c for c in header if c not in STRING_COLUMNS]
    df = pd.read_csv(path, keep_default_na=False,
                     dtype={c: str for c in header if c in STRING_COLUMNS},
                     na_values={c: [""] for c in numeric},
                     float_precision="round_trip")
    for c in columns:
        if c not in df.columns:
            df[c] = ""
    for c in df.columns:
        if c not in STRING_COLUMNS and df[c].dtype == object:
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


_TABLE_SIZE_CACHE = {}


def default_table_size(nodes):
    """The runner's default table_size for N nodes (smallest prime >= 100·N)."""
    n = int(nodes)
    if n not in _TABLE_SIZE_CACHE:
        _TABLE_SIZE_CACHE[n] = smallest_prime_at_least(100 * n)
    return _TABLE_SIZE_CACHE[n]


def normalize_default_table_size(df):
    """Empties table_size on rows that use the default table size for their
    N (in place; returns df). Explicit, non-default sizes are kept. The
    column is empty for every algorithm (or peer) without a table, so the
    rule needs no algorithm names."""
    if "table_size" not in df.columns or "nodes" not in df.columns:
        return df
    m = df["table_size"].notna() & df["nodes"].notna()
    if m.any():
        dflt = df.loc[m, "nodes"].map(default_table_size)
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
    """summary.csv rows from data.csv rows, as the runner writes them.

    Groups by the configuration columns + metric + unit. Statistics over the
    rows with a value (mean intervals cut to the metric's range from the
    registries read so far: metric_range); n_eff = 1 when any row's n_eff column is 1; noisy = 1
    when any row's noisy column is 1. ValueError for rows without flags (a
    data.csv from before the flag columns: see the module docstring)."""
    if data.empty:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    if data["noisy"].isna().any():
        raise ValueError("data.csv has no noisy/n_eff columns (written "
                         "before they existed) and no summary.csv")
    keys = CONFIG_COLUMNS + ["metric", "unit"]
    # One pass over plain arrays: the groups' row indices in pandas' sorted
    # group order, then each group's values without a per-group frame.
    gid = data.groupby(keys, dropna=False, sort=True).ngroup().to_numpy()
    order = np.argsort(gid, kind="stable")
    starts = np.searchsorted(gid[order], np.arange(gid.max() + 2))
    values = data["value"].to_numpy(dtype=float)
    n_eff_one = (data["n_eff"] == 1).to_numpy()
    noisy = (data["noisy"] >= 1).to_numpy()
    key_rows = data[keys].to_numpy(dtype=object)
    metric_at = keys.index("metric")
    out = []
    for a, b in zip(starts[:-1], starts[1:]):
        rows = order[a:b]
        v = values[rows]
        st = stats_of(v[~np.isnan(v)].tolist(),
                      n_eff_one=bool(n_eff_one[rows].any()),
                      noisy=bool(noisy[rows].any()),
                      rng=metric_range(key_rows[rows[0]][metric_at]))
        out.append(list(key_rows[rows[0]]) + [st[c] for c in STAT_COLUMNS])
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


def stale_reason(meta):
    """The reason a run is stale (meta.json's "stale" field), or None."""
    reason = meta.get("stale")
    if reason in (None, "", False):
        return None
    return str(reason)


def _run_dirs(results_dir, experiment):
    """[(run_dir, meta)] of the run directories with a data.csv."""
    base = os.path.join(results_dir, experiment)
    runs = []
    if not os.path.isdir(base):
        return runs
    for rid in sorted(os.listdir(base)):
        d = os.path.join(base, rid)
        if os.path.isfile(os.path.join(d, "data.csv")):
            runs.append((d, _read_meta(d)))
    return runs


def list_runs(results_dir, experiment):
    """[(run_dir, meta)] for one experiment, any order; stale runs are
    skipped, each with a one-line note on stderr."""
    runs = []
    for d, meta in _run_dirs(results_dir, experiment):
        reason = stale_reason(meta)
        if reason is None:
            runs.append((d, meta))
        else:
            print(f"chbench plots: skipping stale run {d}: {reason}",
                  file=sys.stderr)
    return runs


def has_current_run(results_dir):
    """True when some experiment under results_dir has a run that is not
    stale."""
    return any(stale_reason(meta) is None
               for name in EXPERIMENTS
               for _, meta in _run_dirs(results_dir, name))


def pick_reference(root, machine=None):
    """The reference directory to show beside a user's runs: root/machine
    when it has a run that is not stale, else the first directory under
    root (in name order) that has one, else None."""
    if not os.path.isdir(root):
        return None
    dirs = sorted(os.path.join(root, d) for d in os.listdir(root)
                  if os.path.isdir(os.path.join(root, d)))
    if machine:
        own = os.path.join(root, machine)
        if own in dirs:
            dirs.remove(own)
            dirs.insert(0, own)
    for d in dirs:
        if has_current_run(d):
            return d
    return None


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
        # The lookup experiment's batched cells (split_batched), or None.
        self.batched = None
        self.name = name
        self.run_dir = run_dir
        self.meta = meta
        self.data_path = os.path.join(run_dir, "data.csv")
        self.summary_path = os.path.join(run_dir, "summary.csv")
        self.data = normalize_default_table_size(read_csv(self.data_path, COLUMNS))
        if os.path.isfile(self.summary_path):
            self.summary = normalize_default_table_size(
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
               "hashes", "bounded_load", "weights", "seeds", "removal",
               "overprovision", "presets", "cluster", "replicas", "growth"]


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


def split_batched(e):
    """Returns (single-key view, batched view or None) of a lookup
    Experiment; the single-key view's `batched` attribute is the batched
    view.

    A batched cell (data.csv column `batch` not empty) times its own
    single-key lookup_ns beside batch_lookup_ns, with the same algorithm, N
    and scenario as the batch-1 cell: every table and figure that reads
    lookup_ns per configuration reads the single-key view, and only the
    "single vs batched" section (report/batching.py) reads the batched one.
    A run without the column (or without batched cells) is returned as is,
    with batched = None.
    """
    import copy
    if e is None or "batch" not in e.data.columns or \
            not e.data["batch"].notna().any():
        return e, None
    batched = copy.copy(e)
    batched.data = e.data[e.data["batch"].notna()]
    batched.summary = e.summary[e.summary["batch"].notna()]
    batched.batched = None
    view = copy.copy(e)
    view.data = e.data[e.data["batch"].isna()]
    view.summary = e.summary[e.summary["batch"].isna()]
    view.batched = batched
    return view, batched


# The algorithm catalogue: name -> registry.json entry, in registry order
# (dicts keep insertion order). Filled by use_registry.
_CATALOGUE = {}


# Metric name (or pattern row "<prefix><peer>") -> (lower, upper), the
# values the metric can take (registry.json "range"; null = unbounded).
# Filled by use_registry.
_METRIC_RANGES = {}


def use_registry(reg):
    """Adds the algorithms of a registry.json dict to the catalogue, in
    registry order; an algorithm already there keeps its place and entry
    (the first results tree read decides); the same for the metrics'
    ranges. Returns reg."""
    for a in (reg or {}).get("algorithms", []) or []:
        name = a.get("name") if isinstance(a, dict) else None
        if name and name not in _CATALOGUE:
            _CATALOGUE[name] = a
    for m in (reg or {}).get("metrics", []) or []:
        if not isinstance(m, dict) or not isinstance(m.get("range"), list) \
                or len(m["range"]) != 2 or m.get("name") in _METRIC_RANGES:
            continue
        lo, hi = m["range"]
        _METRIC_RANGES[m["name"]] = (
            -math.inf if lo is None else float(lo),
            math.inf if hi is None else float(hi))
    return reg


def metric_range(metric):
    """(lower, upper) of a metric from the registries read so far; a
    pattern row ("lookup_ns_ratio_to_<peer>") covers every name with its
    prefix; (-inf, inf) for a metric no registry bounds (a run written
    before registry.json gave ranges)."""
    if metric in _METRIC_RANGES:
        return _METRIC_RANGES[metric]
    for name, rng in _METRIC_RANGES.items():
        if name.endswith(">") and "<" in name and \
                metric.startswith(name[:name.index("<")]):
            return rng
    return (-math.inf, math.inf)


def algorithm_names():
    """Every catalogued algorithm, in registry order."""
    return list(_CATALOGUE)


def algorithm_entry(name):
    """The registry entry of an algorithm ({} when not catalogued)."""
    return _CATALOGUE.get(name, {})


def has_capability(name, cap):
    """True when the algorithm's registry entry declares `cap`."""
    return bool((algorithm_entry(name).get("capabilities") or {}).get(cap))


def takes_parameter(name, param):
    """True when the algorithm's registry entry lists parameter `param`
    (as a name or as an object with a "name")."""
    for p in algorithm_entry(name).get("parameters") or []:
        if p == param or (isinstance(p, dict) and p.get("name") == param):
            return True
    return False


def bounds_loads_of(name):
    """The algorithm whose loads `name` caps when `name` is a bounded-load
    scheme, else "".

    The registry row's "bounds_loads_of" says it. A registry written before
    that field (the committed runs' own registry.json files) says it by the
    parameter: a row whose parameters include "load_factor" is a
    bounded-load scheme, and it caps the one catalogued algorithm whose
    parameters are the scheme's without "load_factor" (the scheme is that
    algorithm plus a cap; hash and vnodes for the ring under bounded_load).
    A scheme with no such algorithm, or several, caps "" here: it is still
    one (is_bounded_load), with no algorithm to compare it with."""
    e = algorithm_entry(name)
    if "bounds_loads_of" in e:
        return e.get("bounds_loads_of") or ""
    if not takes_parameter(name, "load_factor"):
        return ""
    own = _param_names(name) - {"load_factor"}
    base = [a for a in _CATALOGUE if a != name
            and not takes_parameter(a, "load_factor")
            and _param_names(a) == own]
    return base[0] if len(base) == 1 else ""


def is_bounded_load(name):
    """True for a bounded-load scheme: a registry row with a non-empty
    "bounds_loads_of", or, in a registry written before that field, one
    whose parameters include "load_factor"."""
    e = algorithm_entry(name)
    if "bounds_loads_of" in e:
        return bool(e.get("bounds_loads_of"))
    return takes_parameter(name, "load_factor")


def bounded_load_schemes(names=None):
    """The bounded-load schemes (is_bounded_load) among `names` (every
    catalogued algorithm when None), in catalogue order."""
    keep = None if names is None else set(names)
    return [a for a in _CATALOGUE if (keep is None or a in keep)
            and is_bounded_load(a)]


def _param_names(name):
    return {p.get("name") if isinstance(p, dict) else p
            for p in algorithm_entry(name).get("parameters") or []}


def load_registry(results_dir):
    """DIR/registry.json as a dict ({} when absent or unreadable); its
    algorithms join the catalogue (use_registry)."""
    p = os.path.join(results_dir, "registry.json")
    try:
        with open(p, encoding="utf-8") as f:
            r = json.load(f)
        return use_registry(r if isinstance(r, dict) else {})
    except (OSError, ValueError):
        return {}


def load_all(results_dir, tier=None):
    """{name: Experiment} for every experiment found (missing ones absent).

    "lookup" holds the DEFAULT_HASH rows only; "lookup_all_hashes" holds
    every hash (the hash axis); neither holds the batched cells' rows, which
    both carry as their `batched` view (split_batched). DIR/registry.json
    joins the algorithm catalogue (load_registry).
    """
    load_registry(results_dir)
    out = {}
    for name in EXPERIMENTS:
        e = load_experiment(results_dir, name, tier)
        if e is not None:
            out[name] = e
    if "lookup" in out:
        single, batched = split_batched(out["lookup"])
        out["lookup"], out["lookup_all_hashes"] = split_hash_axis(single)
        out["lookup"].batched = batched
    return out


def quantile_band(values, lo=0.025, hi=0.975):
    """(low, high) central band of individual repetitions."""
    s = pd.Series(values, dtype=float).dropna()
    if s.empty:
        return float("nan"), float("nan")
    return float(s.quantile(lo)), float(s.quantile(hi))


def main(argv):
    """pick-reference ROOT [MACHINE]: prints pick_reference's choice (or
    nothing); the Makefile's REFERENCE default."""
    if len(argv) in (2, 3) and argv[0] == "pick-reference":
        ref = pick_reference(argv[1], argv[2] if len(argv) == 3 else None)
        if ref:
            print(ref)
        return 0
    print("usage: chdata.py pick-reference ROOT [MACHINE]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

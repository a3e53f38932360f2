"""Shared helpers of the report sections: formatting, statistics labels,
the report context (local and reference runs, registry metadata), variant
helpers, interval comparisons, means over repetitions with their intervals
(mean_of, mean_interval: the presets and cluster sections compare means)
and the markdown table renderer.

Statistics labels (results/README.md, "Rule everywhere"):
  * fmt_med: a median with ITS OWN interval [median_ci_low–median_ci_high];
    n = 1 / n_eff = 1 cells carry no interval (marked ‡ for timing metrics
    and for n_eff = 1), 2 <= n < 6 cells show "(n=k)" (no distribution-free
    95 % interval exists); noisy cells end with "~".
  * fmt_mean: a mean with the Student-t interval of the mean.
  Never a median beside a mean's interval. Printed bounds are clipped to
  the metric's range (metric_range: no negative count, no max/mean below
  1), since a Student-t interval of 3 repetitions can leave it.
"""

import math
import os
import re
import weakref

import numpy as np
import pandas as pd

import chdata
import style

NOISY_MARK = "~"
SINGLE_MARK = "‡"
STAT_LEGEND = (
    f"Cells: median [distribution-free 95 % CI of the median, from order "
    f"statistics]; \"(n=k)\" = fewer than 6 repetitions, too few for that "
    f"interval; {SINGLE_MARK} = a single measurement (n = 1) or repetitions "
    f"that are not independent (n_eff = 1): no interval; a trailing "
    f"\"{NOISY_MARK}\" = noisy cell (CV > 5 % or throughput > 1.1 × latency "
    f"after its re-measurement).")

WITHIN_RUN = ("Timing intervals are within one run: over the measurement "
              "rounds of one process. They do not cover what changes "
              "between runs or between separately timed groups, which "
              "differ by more.")

# ---------------------------------------------------------------------------
# formatting


def isnan(x):
    return x is None or (isinstance(x, float) and math.isnan(x)) or \
        (not isinstance(x, str) and pd.isna(x))


def fmt_num(x):
    """3 significant digits; thousands separated for >= 1000; '—' if NaN."""
    if isnan(x):
        return "—"
    x = float(x)
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.3g}"


def fmt_pct(x):
    if isnan(x):
        return "—"
    return f"{100 * float(x):.3g} %"


def fmt_value(x, kind="num"):
    if kind == "pct":
        return fmt_pct(x)
    if kind == "x":
        return "—" if isnan(x) else f"{float(x):.3g}×"
    if kind == "sci":
        return "—" if isnan(x) else f"{float(x):.3g}"
    return fmt_num(x)


def _get(row, k):
    v = row.get(k) if row is not None else None
    return None if isnan(v) else v


def is_noisy(row):
    return bool(_get(row, "noisy")) and float(row["noisy"]) >= 1


# The range of each metric's values (results/README.md "Metrics"): an
# interval printed or compared is clipped to it, so a Student-t interval
# of a few repetitions never shows a negative count or a max/mean below 1.
# By unit first, then the metrics whose range is narrower than their unit's.
_UNIT_RANGE = {
    "fraction": (0.0, 1.0), "probability": (0.0, 1.0),
    "ns": (0.0, math.inf), "us": (0.0, math.inf), "s": (0.0, math.inf),
    "1/s": (0.0, math.inf), "bytes": (0.0, math.inf),
    "keys": (0.0, math.inf), "nodes": (0.0, math.inf),
    "reads": (0.0, math.inf), "reads/s": (0.0, math.inf),
    "requests": (0.0, math.inf), "servers": (0.0, math.inf),
    "load": (0.0, math.inf), "ratio": (0.0, math.inf),
    "sets": (0.0, math.inf),
}
_METRIC_RANGE = {
    "load_max_over_mean": (1.0, math.inf),
    "exact_max_over_mean": (1.0, math.inf),
    "request_max_over_mean": (1.0, math.inf),
    "steady_request_max_over_mean": (1.0, math.inf),
    "load_min_over_mean": (0.0, 1.0),
    "exact_min_over_mean": (0.0, 1.0),
    "replica_load_max_over_mean": (1.0, math.inf),
    "primary_load_max_over_mean": (1.0, math.inf),
    "replica_load_min_over_mean": (0.0, 1.0),
    "primary_load_min_over_mean": (0.0, 1.0),
}


def metric_range(metric, unit=None):
    """(low, high) a metric's values can take; (-inf, inf) when unknown."""
    metric = metric if isinstance(metric, str) else ""
    if metric in _METRIC_RANGE:
        return _METRIC_RANGE[metric]
    if metric.endswith("_ns") or "_ratio_to_" in metric:
        return (0.0, math.inf)
    if isinstance(unit, str) and unit in _UNIT_RANGE:
        return _UNIT_RANGE[unit]
    return (-math.inf, math.inf)


def clip_bounds(row, lo, hi):
    """(lo, hi) of an interval of `row` clipped to its metric's range. A
    side of the range that the row's own values (min, max) cross is not
    the metric's range after all: that side is left unclipped."""
    if lo is None or hi is None:
        return lo, hi
    rlo, rhi = metric_range(_get(row, "metric"), _get(row, "unit"))
    mn, mx = _get(row, "min"), _get(row, "max")
    if mn is not None and float(mn) < rlo:
        rlo = -math.inf
    if mx is not None and float(mx) > rhi:
        rhi = math.inf
    return max(float(lo), rlo), min(float(hi), rhi)


def fmt_med(row, kind="num", timing=True):
    """'median [lo–hi]' from a summary row; see the module comment."""
    if row is None or _get(row, "median") is None:
        return "—"
    out = fmt_value(row["median"], kind)
    n = int(_get(row, "n") or 0)
    n_eff = int(_get(row, "n_eff") or n)
    lo, hi = clip_bounds(row, _get(row, "median_ci_low"),
                         _get(row, "median_ci_high"))
    if n_eff <= 1 and n > 1:
        out += f" {SINGLE_MARK}"
    elif n <= 1:
        if timing:
            out += f" {SINGLE_MARK}"
    elif lo is not None and hi is not None:
        out += f" [{fmt_value(lo, kind)}–{fmt_value(hi, kind)}]"
    elif _get(row, "min") is None or _get(row, "min") != _get(row, "max"):
        out += f" (n={n})"   # (identical repetitions: the value is exact)
    if is_noisy(row):
        out += NOISY_MARK
    return out


def fmt_mean(row, kind="num"):
    """'mean [lo–hi]' (Student-t interval of the mean) from a summary row."""
    if row is None or _get(row, "mean") is None:
        return "—"
    out = fmt_value(row["mean"], kind)
    n = int(_get(row, "n") or 0)
    n_eff = int(_get(row, "n_eff") or n)
    lo, hi = clip_bounds(row, _get(row, "mean_ci_low"),
                         _get(row, "mean_ci_high"))
    if n_eff <= 1 and n > 1:
        out += f" {SINGLE_MARK}"
    elif lo is not None and hi is not None:
        out += f" [{fmt_value(lo, kind)}–{fmt_value(hi, kind)}]"
    if is_noisy(row):
        out += NOISY_MARK
    return out


def md_table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---" for _ in header) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(c).replace("|", "\\|")
                                     for c in r) + " |")
    return "\n".join(out)


def join_names(names):
    """'a', 'a and b', 'a, b and c'."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


# ---------------------------------------------------------------------------
# registry metadata

_TIMING_RE = re.compile(r"(_ns$|_ratio_to_|^(batch_)?lookups_per_s$|"
                        r"^load_avg_1m$|"
                        r"^cpu_steal_fraction$)")


class Registry:
    """Metric and algorithm metadata from <results>/registry.json."""

    def __init__(self, reg):
        self.raw = reg or {}
        self.algorithms = {a.get("name"): a for a in
                           self.raw.get("algorithms", []) if a.get("name")}
        self.metrics = {m.get("name"): m for m in self.raw.get("metrics", [])
                        if m.get("name")}
        self.peers = {p.get("name"): p for p in self.raw.get("peers", [])
                      if p.get("name")}

    def __bool__(self):
        return bool(self.algorithms or self.metrics)

    def metric(self, name):
        """{'unit', 'better', 'timing', 'description'} (inferred from the
        naming rule of results/README.md "Metrics" when the registry does
        not list the name)."""
        m = self.metrics.get(name)
        if m is None and "_ratio_to_" in name:
            base = name.split("_ratio_to_")[0]
            m = {"unit": "ratio", "better": "lower", "timing": True,
                 "description": f"{base} ours / peer, same round"}
        if m is None:
            m = {"unit": "", "better": "lower" if name.endswith("_ns")
                 else "none", "timing": bool(_TIMING_RE.search(name)),
                 "description": ""}
        return m

    def timing(self, name):
        return bool(self.metric(name).get("timing"))

    def better(self, name):
        return self.metric(name).get("better", "none")

    def algo(self, name):
        return self.algorithms.get(name, {})

    def capability(self, algo, cap):
        """Declared capability (True/False) or None when not declared."""
        c = self.algo(algo).get("capabilities") or {}
        v = c.get(cap)
        return None if v is None else bool(v)

    def lookup_class(self, algo):
        return self.algo(algo).get("lookup_class")

    def peer_base(self, peer):
        return self.peers.get(peer, {}).get("base")


# ---------------------------------------------------------------------------
# context


class Ctx:
    """Shared state: the local experiments (exps), the optional reference
    experiments (ref), their registries, output paths for links."""

    def __init__(self, exps, out_path, figures_dir, registry=None, ref=None,
                 ref_registry=None, results=None, reference=None):
        self.exps = exps
        self.ref = ref
        self.reg = Registry(registry)
        self.ref_reg = Registry(ref_registry) if ref is not None else None
        self.out_dir = os.path.dirname(os.path.abspath(out_path))
        self.figures_dir = figures_dir
        self.results = results
        self.reference = reference

    @property
    def has_ref(self):
        return bool(self.ref)

    def machine(self, ref=False):
        exps = self.ref if ref else self.exps
        d = self.reference if ref else self.results
        for e in (exps or {}).values():
            cpu = chdata.meta_get(e.meta, "cpu_model", "cpu")
            if cpu:
                return str(cpu)
        return os.path.basename(os.path.abspath(d)) if d else "?"

    def rel(self, path):
        return os.path.relpath(os.path.abspath(path),
                               self.out_dir).replace(os.sep, "/")

    def csv_link(self, exp, label="csv", ref=False):
        src = self.ref if ref else self.exps
        e = (src or {}).get(exp)
        if e is None:
            return ""
        return f"[{label}]({self.rel(e.summary_path)})"

    def data_links(self, exp):
        out = self.csv_link(exp)
        if self.has_ref and exp in self.ref:
            out += " " + self.csv_link(exp, "ref", ref=True)
        return out


class Cell:
    """A table cell computed from an experiments dict: fn(exps) -> str.

    render() evaluates it on the local runs and, with a reference, in an
    extra column beside it on the reference runs."""

    def __init__(self, fn, ref=True):
        self.fn = fn
        self.ref = ref


def render(ctx, header, rows):
    """md_table with a '· ref' column after every Cell column when a
    reference is given."""
    ncol = len(header)
    cellcols = [j for j in range(ncol)
                if any(isinstance(r[j], Cell) and r[j].ref for r in rows)]
    with_ref = ctx.has_ref and cellcols
    h2 = []
    for j, h in enumerate(header):
        h2.append(h)
        if with_ref and j in cellcols:
            h2.append(f"{h} · ref")
    out = []
    for r in rows:
        r2 = []
        for j, c in enumerate(r):
            if isinstance(c, Cell):
                r2.append(c.fn(ctx.exps))
                if with_ref and j in cellcols:
                    r2.append(c.fn(ctx.ref) if c.ref else "")
            else:
                r2.append(c)
                if with_ref and j in cellcols:
                    r2.append("")
        out.append(r2)
    return md_table(h2, out)


def ref_note(ctx):
    if not ctx.has_ref:
        return []
    return [f"Columns marked \"· ref\" are the committed reference runs "
            f"(`{ctx.reference}`, {ctx.machine(True)}); the others are "
            f"this report's runs ({ctx.machine(False)}). Absolute times "
            f"differ between machines; peer-normalized ratios should "
            f"agree.", ""]


# ---------------------------------------------------------------------------
# data helpers

PARAM_COLS = ["vnodes", "table_size", "load_factor", "capacity", "probes"]
DEFAULT_TABLE_SIZE_LABEL = "M≈100N"  # smallest prime >= 100·N (chdata.py)


def variant_label(row):
    """'ring (v=100)', 'maglev (M≈100N)', 'bounded_load (v=100, c=1.25)'."""
    a = row["algorithm"]
    parts = []
    for col, short in (("vnodes", "v"), ("table_size", "M"),
                       ("load_factor", "c"), ("capacity", "a"),
                       ("probes", "k")):
        v = row.get(col)
        if v is not None and not pd.isna(v):
            fv = float(v)
            parts.append(f"{short}={int(fv)}" if fv.is_integer() and
                         abs(fv) >= 1e5 else f"{short}={fv:g}")
        elif col == "table_size" and chdata.takes_parameter(a, col):
            parts.append(DEFAULT_TABLE_SIZE_LABEL)
    return f"{a} ({', '.join(parts)})" if parts else a


def one(df):
    """The single row of df as a dict, or None (first if several)."""
    if df is None or df.empty:
        return None
    return df.iloc[0].to_dict()


def filt(df, **f):
    """Rows with column == value (None matches empty; lists match any)."""
    if df is None:
        return None
    if not f:
        return df
    # One boolean mask on numpy arrays, then one take: the report filters
    # thousands of times, and pandas' per-step indexing dominated its time.
    mask = np.ones(len(df), dtype=bool)
    for c, v in f.items():
        if c not in df.columns:
            return df.iloc[0:0]
        col = df[c]
        if v is None:
            m = col.isna().to_numpy() if col.dtype != object else \
                (col.to_numpy() == "")
        elif isinstance(v, (list, tuple, set)):
            m = col.isin(list(v)).to_numpy()
        else:
            m = col.to_numpy() == v
        mask &= m
    return df[mask]


def med(df, **f):
    d = filt(df, **f)
    return float(d["median"].iloc[0]) if d is not None and not d.empty \
        else float("nan")


def variants(df):
    """Distinct (algorithm, vnodes, table_size, load_factor) in style order."""
    if df is None or df.empty:
        return []
    v = df[["algorithm"] + PARAM_COLS].drop_duplicates()
    order = {a: i for i, a in enumerate(style.order_algorithms(
        v["algorithm"].tolist()))}
    v = v.assign(_o=v["algorithm"].map(order)).sort_values(
        ["_o"] + PARAM_COLS).drop(columns="_o")
    return [r.to_dict() for _, r in v.iterrows()]


def match_variant(df, var):
    m = df["algorithm"] == var["algorithm"]
    for c in PARAM_COLS:
        if pd.isna(var[c]):
            m &= df[c].isna()
        else:
            m &= df[c] == var[c]
    return df[m]


def summary_of(exps, exp):
    e = (exps or {}).get(exp)
    return None if e is None else e.summary


NOT_MEASURED = "not measured"


def na_note(exp, var=None, short=True, **filters):
    """'n/a: <reason>' if the data say not applicable for this cell, else
    None. var: a variant dict (algorithm and parameters): the note must
    be that configuration's own (an empty parameter matches only an empty
    one), never another capacity's. Filters with None are ignored. short:
    the reason up to its first '; ' or ' (' (the rest explains the
    parameter to set)."""
    if exp is None:
        return None
    na = exp.not_applicable()
    if var is not None:
        na = filt(na, **var_filter(var))
    for c, v in filters.items():
        if v is None:
            continue
        na = na[na[c] == v]
    if na.empty:
        return None
    why = na.iloc[0]["note"][len("not applicable:"):].strip()
    if short:
        why = why.split("; ")[0].split(" (")[0]
    return "n/a: " + why


def cell_note(exp, var, nodes, **filters):
    """What an empty cell of variant var at N = nodes says: its own
    'n/a: <reason>', NOT_MEASURED when the configuration has no rows at
    that N at all (another N's capacity variant), else None."""
    na = na_note(exp, var=var, nodes=nodes, **filters)
    if na:
        return na
    if exp is None:
        return None
    have = filt(exp.data, nodes=nodes, **var_filter(var))
    return NOT_MEASURED if have.empty else None


def nearest_nodes(available, wanted):
    """Wanted N values that exist; otherwise up to 3 available ones."""
    av = sorted(int(x) for x in pd.Series(available).dropna().unique())
    hit = [n for n in wanted if n in av]
    if hit:
        return hit
    if len(av) <= 3:
        return av
    return [av[0], av[len(av) // 2], av[-1]]


def restrict(df, col, preferred):
    """Keeps one value of `col` (preferred if present, else the smallest);
    returns (rows, kept value or None when the column has <= 1 value)."""
    vals = sorted(v for v in df[col].unique()
                  if not (v == "" or (isinstance(v, float) and pd.isna(v))))
    if len(vals) <= 1:
        return df, (vals[0] if vals else None)
    keep = preferred if preferred in vals else vals[0]
    return df[df[col] == keep], keep


def pick_n(available, preferred):
    av = sorted(int(x) for x in pd.Series(available).dropna().unique())
    if not av:
        return None
    if preferred in av:
        return preferred
    return min(av, key=lambda n: abs(math.log(n) - math.log(preferred)))


def keys_per_node(row):
    """'1,000 keys per node' from a row's keys (or placed_keys) and nodes."""
    if row is None:
        return ""
    k = _get(row, "placed_keys") or _get(row, "keys")
    n = _get(row, "nodes")
    if not k or not n:
        return ""
    return f"{fmt_num(float(k) / float(n))} keys per node"


def replay_model(algorithm):
    """How the disruption of a stateful (placing) algorithm is measured."""
    return (f"{algorithm} disruption = the difference between two "
            "from-scratch replays of the same keys in key order, one on N "
            "nodes and one on N±1 (not the incremental rebalancing analysed "
            "by Mirrokni, Thorup & Zadimoghaddam, SODA 2018); it depends on "
            "the keys per node and on the arrival order.")


# ---------------------------------------------------------------------------
# intervals and ties

def interval(row, timing=True):
    """(lo, hi) used to compare a summary row with another, or None when
    the row has no interval (n = 1 timing, n_eff = 1, or no min/max).

    Order: the median's 95 % CI; else (min, max) of 2..5 repetitions (no
    95 % interval exists for them: interval_kind says "min–max"); else
    (value, value) for a non-timing metric with no spread (deterministic,
    e.g. memory bytes, or identical repetitions)."""
    if row is None or _get(row, "median") is None:
        return None
    n = int(_get(row, "n") or 0)
    n_eff = int(_get(row, "n_eff") or n)
    lo, hi = _get(row, "median_ci_low"), _get(row, "median_ci_high")
    if n_eff > 1 and lo is not None and hi is not None:
        return clip_bounds(row, lo, hi)
    mn, mx = _get(row, "min"), _get(row, "max")
    if n_eff <= 1 and n > 1:
        return None
    if n == 1:
        v = float(row["median"])
        return None if timing else (v, v)
    if mn is None or mx is None:   # an older summary without min/max
        return None
    return float(mn), float(mx)


def interval_kind(row, timing=True):
    """Which interval interval() uses for a row: "95 % CI" (the median's
    order-statistic CI), "min–max" (2..5 repetitions: the range, which
    covers the median with probability 1 − 2^(1−n), e.g. 75 % at n = 3),
    "exact" (a deterministic value) or None (no interval)."""
    iv = interval(row, timing)
    if iv is None:
        return None
    if _get(row, "median_ci_low") is not None and \
            int(_get(row, "n_eff") or _get(row, "n") or 0) > 1:
        return "95 % CI"
    if iv[0] == iv[1]:
        return "exact"
    return "min–max"


def interval_words(rows, timing=True):
    """What the intervals of `rows` are, for a sentence: '95 % CIs of the
    median', 'min–max of n = 5 repetitions (too few for a 95 % CI)', or
    both."""
    kinds = {}
    for r in rows:
        k = interval_kind(r, timing)
        if k:
            kinds.setdefault(k, set()).add(int(_get(r, "n") or 0))
    out = []
    if "95 % CI" in kinds:
        out.append("95 % CIs of the median")
    if "min–max" in kinds:
        ns = sorted(kinds["min–max"])
        out.append("min–max of n = " + "/".join(str(n) for n in ns)
                   + " repetitions (too few for a 95 % CI)")
    if "exact" in kinds:
        out.append("exact values")
    return join_names(out) if out else "no intervals"


def overlaps(a, b):
    if a is None or b is None:
        return True
    return a[0] <= b[1] and b[0] <= a[1]


def comparable(a, b):
    """Whether two intervals overlap, where a missing interval is its row's
    value alone: (lo, hi) or (v, v)."""
    return a[0] <= b[1] and b[0] <= a[1]


def _iv_or_value(row, timing):
    iv = interval(row, timing)
    if iv is None:
        v = float(row["median"])
        return (v, v)
    return iv


def rank(rows, better="lower", timing=True):
    """(best, tied) among summary rows (dicts): best by median in the
    metric's direction; tied = the other rows whose interval overlaps the
    best's. A row without an interval (n = 1, n_eff = 1) is compared by its
    value: tied only when that value lies inside the other's interval (or
    equals it), never tied with everything. Returns (None, []) for no
    rows. rank_paired is the comparison to use where data rows pair up."""
    rows = [r for r in rows if r is not None and
            _get(r, "median") is not None]
    if not rows:
        return None, []
    sign = -1 if better == "higher" else 1
    rows.sort(key=lambda r: sign * float(r["median"]))
    best = rows[0]
    bi = _iv_or_value(best, timing)
    tied = [r for r in rows[1:] if comparable(bi, _iv_or_value(r, timing))]
    return best, tied


# ---------------------------------------------------------------------------
# paired comparisons
#
# Two cells measured on the same seeds (placement: the same key set per
# seed) or in the same rounds of one timing group (a round runs every cell
# of the group in shuffled order) are compared pair by pair: the ratio
# other / best of each seed's or round's values, and the interval of that
# ratio. What is shared between the two cells (the key set, the machine's
# state during a round) then cancels, which the overlap of two marginal
# intervals ignores: two wide intervals overlap although every pair
# differs by the same 35 %, and two narrow ones separate by a drift of
# the whole group.

PAIR_ON = ("seed", "repetition")
# Columns that tell two variants apart (never required to match) and the
# key counts, which may differ within one timing group (a capped O(N)
# lookup times fewer keys).
_VARIANT_COLS = ("algorithm", "vnodes", "table_size", "load_factor",
                 "capacity", "probes", "keys", "placed_keys")


# A value no row value equals: a data.csv string column's missing entry
# (which the original mask never matched).
_NO_MATCH = object()
# id(data) -> (weak reference to data, config columns, {config key: [row
# positions with a value, in data order]}): cell_values is called hundreds
# of times per data frame, and a full mask per call dominated the report's
# time.
_CELL_INDEX = {}


def _num_key(x):
    if x is None:
        return None
    try:
        f = float(x)
    except (TypeError, ValueError):
        return _NO_MATCH
    return None if f != f else f


def _cell_index(data):
    hit = _CELL_INDEX.get(id(data))
    if hit is not None and hit[0]() is data:
        return hit[1], hit[2]
    cols = [c for c in chdata.CONFIG_COLUMNS + ["metric"]
            if c in data.columns]
    keyed = []
    for c in cols:
        a = data[c].tolist()
        if c in chdata.STRING_COLUMNS or c == "metric":
            keyed.append([x if isinstance(x, str) else _NO_MATCH for x in a])
        else:
            keyed.append([_num_key(x) for x in a])
    valid = data["value"].notna().to_numpy()
    index = {}
    for i, key in enumerate(zip(*keyed)):
        if valid[i]:
            index.setdefault(key, []).append(i)
    for k in [k for k, (ref, _, _) in _CELL_INDEX.items() if ref() is None]:
        del _CELL_INDEX[k]
    _CELL_INDEX[id(data)] = (weakref.ref(data), cols, index)
    return cols, index


def cell_values(data, row, on=PAIR_ON):
    """The data rows of one summary row's cell: {pair key: value}, pair key
    = the `on` columns (seed, repetition)."""
    if data is None or row is None:
        return {}
    cols, index = _cell_index(data)
    key = []
    for c in cols:
        v = row.get(c)
        if c in chdata.STRING_COLUMNS or c == "metric":
            key.append("" if v is None or (not isinstance(v, str) and
                                           isnan(v)) else v)
        else:
            key.append(None if v is None or isnan(v) else float(v))
    rows = index.get(tuple(key), [])
    if not rows:
        return {}
    d = data.iloc[rows]
    pairs = zip(*(d[c].tolist() if c in d.columns else [None] * len(d)
                  for c in on))
    return {k: float(v) for k, v in zip(pairs, d["value"].tolist())}


def same_group(a, b, free=()):
    """Whether two summary rows differ only in the variant (algorithm and
    its parameters, key counts, and the columns in `free`): the rows a
    paired comparison may pair."""
    for c in chdata.CONFIG_COLUMNS + ["metric"]:
        if c in _VARIANT_COLS or c in free:
            continue
        va, vb = _get(a, c), _get(b, c)
        if va is None and vb is None:
            continue
        if va is None or vb is None or va != vb:
            return False
    return True


def t_two_sided(level, df):
    """The quantile t with P(|T| <= t) = level for Student's t with an
    integer df >= 1 (Abramowitz & Stegun 26.7.3-4: the closed form of
    P(|T| <= t) for integer df, inverted by bisection); chdata.t975 for
    level 0.95."""
    df = int(df)
    if df < 1:
        return float("nan")
    if abs(level - 0.95) < 1e-12:
        return chdata.t975(df)

    def a(t):
        th = math.atan(t / math.sqrt(df))
        c, sn = math.cos(th), math.sin(th)
        if df % 2:
            if df == 1:
                return 2 * th / math.pi
            term, tot = c, c
            for k in range(1, (df - 3) // 2 + 1):
                term *= (2 * k) / (2 * k + 1) * c * c
                tot += term
            return 2 / math.pi * (th + sn * tot)
        term, tot = 1.0, 1.0
        for k in range(1, (df - 2) // 2 + 1):
            term *= (2 * k - 1) / (2 * k) * c * c
            tot += term
        return sn * tot
    lo, hi = 0.0, 1.0
    while a(hi) < level:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if a(mid) < level:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def paired(data, best, other, on=PAIR_ON, level=0.95, free=()):
    """The paired comparison of `other` against `best` (summary rows of
    one data frame): None when they cannot be paired (another timing group
    or seed set, no data rows, fewer than 2 pairs; `free`: columns the
    two cells may differ in besides the variant, e.g. the hash of a
    production preset placing the same key set); otherwise a dict:

      kind   "ratio" (other / best per pair; both positive) or "diff"
             (other − best per pair, where a value is <= 0);
      est    the median of the per-pair ratios (differences);
      lo, hi its interval at `level` (95 %): the order-statistic CI of
             that median when n pairs allow one at that level (n >= 6 at
             95 %); otherwise the Student-t interval of the mean log
             ratio (mean difference), back-transformed; (est, est) when
             every pair gives the same value;
      n      pairs; method: "CI of the median" or "paired t, n = k";
      tied   True when the interval holds 1 (ratio) or 0 (diff);
      indep  False when a row has n_eff = 1 (repetitions not
             independent: the interval is not shown and the pairs are
             compared by est alone)."""
    if best is None or other is None or not same_group(best, other, free):
        return None
    va, vb = cell_values(data, best, on), cell_values(data, other, on)
    keys = sorted(set(va) & set(vb), key=str)
    if len(keys) < 2:
        return None
    a = np.array([va[k] for k in keys])
    b = np.array([vb[k] for k in keys])
    if (a > 0).all() and (b > 0).all():
        kind, x = "ratio", np.log(b / a)
    else:
        kind, x = "diff", b - a
    back = np.exp if kind == "ratio" else (lambda t: t)
    n = len(x)
    est = float(back(float(np.median(x))))
    indep = all(int(_get(r, "n_eff") or _get(r, "n") or 2) > 1
                for r in (best, other))
    xs = np.sort(x)
    if xs[-1] - xs[0] <= 1e-12 * max(1.0, abs(xs[0])):
        lo = hi = est
        method = "identical pairs"
    elif not indep:
        lo = hi = None
        method = "repetitions not independent (n_eff = 1)"
    else:
        j = chdata.median_ci_rank(n, level)
        if j is not None:
            lo, hi = float(back(xs[j - 1])), float(back(xs[n - j]))
            method = "CI of the median"
        else:
            mean = float(np.mean(x))
            half = t_two_sided(level, n - 1) * float(np.std(x, ddof=1)) / \
                math.sqrt(n)
            lo, hi = float(back(mean - half)), float(back(mean + half))
            method = f"paired t, n = {n}"
    null = 1.0 if kind == "ratio" else 0.0
    tied = est == null if lo is None else lo <= null <= hi
    return dict(kind=kind, est=est, lo=lo, hi=hi, n=n, method=method,
                tied=bool(tied), indep=indep, level=level)


def fmt_paired(p, kind="num"):
    """'1.35× [1.30×–1.41×]' (ratio) or '+12 [3–20]' (difference) for a
    paired() result."""
    if p is None:
        return "—"
    if p["kind"] == "ratio":
        f = lambda v: f"{v:.3g}×"  # noqa: E731
    else:
        f = lambda v: ("+" if v > 0 else "") + fmt_value(v, kind)  # noqa
    out = f(p["est"])
    if p["lo"] is not None and p["lo"] != p["hi"]:
        out += f" [{f(p['lo'])}–{f(p['hi'])}]"
    return out


def rank_paired(rows, data, better="lower", timing=True, on=PAIR_ON,
                margin=0.0, familywise=True):
    """(best, tied, info) among summary rows, each row compared with the
    best by a paired comparison (paired()) where its data pair up with
    the best's, else by its interval (rank()'s rule). best: the best
    median in the metric's direction; tied: the rows not separated from it
    in that direction (paired: the ratio's interval reaches 1, or 1 +
    margin: a ratio below it is not called a difference; otherwise the
    intervals overlap). With familywise, each of the k paired comparisons
    uses the level 1 − 0.05/k (Bonferroni), so the item's statement "tied
    with the best" or "separate" holds at 95 % as a whole; the marginal
    ones use the rows' own 95 % intervals. info: {"paired": {id(row):
    paired result}, "marginal": [rows compared by intervals],
    "comparisons": k, "level": the level of each paired comparison}."""
    rows = [r for r in rows if r is not None and
            _get(r, "median") is not None]
    info = {"paired": {}, "marginal": [], "comparisons": 0, "level": 0.95}
    if not rows:
        return None, [], info
    sign = -1 if better == "higher" else 1
    rows.sort(key=lambda r: sign * float(r["median"]))
    best = rows[0]
    bi = _iv_or_value(best, timing)
    tied = []
    k = len(rows) - 1
    level = 1 - 0.05 / k if familywise and k > 1 else 0.95
    info["level"] = level
    for r in rows[1:]:
        info["comparisons"] += 1
        p = paired(data, best, r, on, level) if data is not None else None
        if p is not None:
            info["paired"][id(r)] = p
            ratio = p["kind"] == "ratio"
            hi_null = (1.0 + margin) if ratio else 0.0
            lo_null = 1.0 / (1.0 + margin) if ratio else 0.0
            if p["lo"] is None:
                sep = p["est"] > hi_null if sign > 0 else p["est"] < lo_null
            else:
                # separated only in the metric's direction
                sep = (p["lo"] > hi_null) if sign > 0 else \
                    (p["hi"] < lo_null)
            if not sep:
                tied.append(r)
        else:
            info["marginal"].append(r)
            if comparable(bi, _iv_or_value(r, timing)):
                tied.append(r)
    return best, tied, info


def var_filter(var):
    """filt() keywords selecting one variant (NaN parameters -> empty)."""
    f = {"algorithm": var["algorithm"]}
    for c in PARAM_COLS:
        v = var.get(c)
        f[c] = None if v is None or pd.isna(v) else v
    return f


def var_key(r):
    """(algorithm, parameters) of a row, hashable; a capacity equal to the
    row's N is the default a = N (an empty capacity)."""
    out = [r.get("algorithm")]
    for c in PARAM_COLS:
        v = r.get(c)
        if v is not None and not pd.isna(v) and c == "capacity" and \
                r.get("nodes") is not None and not pd.isna(r["nodes"]) and \
                float(v) == float(r["nodes"]):
            v = None
        out.append(None if v is None or pd.isna(v) else float(v))
    return tuple(out)


def cannot_add(ctx, exps=None):
    """{var_key: the data's note} for the configurations whose add is `not
    applicable` in the disruption or build data (no free bucket: AnchorHash
    at a = N)."""
    exps = ctx.exps if exps is None else exps
    out = {}
    for exp, col, val in (("disruption", "scenario", "add"),
                          ("build", "metric", "add_node_ns")):
        e = exps.get(exp)
        if e is None:
            continue
        na = e.not_applicable()
        na = na[na[col] == val]
        for _, r in na.iterrows():
            out.setdefault(var_key(r.to_dict()), str(r["note"]))
    return out


def mcell(ctx, exp, kind="num", mean=False, **f):
    """Cell showing one summary row (median + its CI, or mean + its CI)."""
    timing = ctx.reg.timing(f.get("metric", ""))

    def fn(exps):
        row = one(filt(summary_of(exps, exp), **f))
        return fmt_mean(row, kind) if mean else fmt_med(row, kind, timing)
    return Cell(fn)


def peers_in(ctx, exp_name="lookup"):
    """Names of timed peers: registry peers plus algorithms whose data rows
    say "peer of <base>"."""
    names = set(ctx.reg.peers)
    for exps in (ctx.exps, ctx.ref or {}):
        e = exps.get(exp_name)
        if e is not None:
            d = e.data
            names |= set(d.loc[d["note"].str.startswith("peer of"),
                               "algorithm"])
    return names


# ---------------------------------------------------------------------------
# means over repetitions (the presets and cluster sections compare means)

def mean_of(r):
    if r is None:
        return float("nan")
    v = r.get("mean")
    return float("nan") if v is None or (isinstance(v, float) and
                                         math.isnan(v)) else float(v)


def mean_interval(r):
    """(lo, hi) of the mean: its 95 % interval; (mean, mean) for a single
    repetition or repetitions without spread; None (tied with everything)
    when the interval is missing otherwise."""
    m = mean_of(r)
    if math.isnan(m):
        return None
    lo, hi = r.get("mean_ci_low"), r.get("mean_ci_high")
    if lo is not None and hi is not None and not (
            math.isnan(float(lo)) or math.isnan(float(hi))):
        return clip_bounds(r, lo, hi)
    n = int(r.get("n") or 0)
    mn, mx = r.get("min"), r.get("max")
    if n >= 2 and mn is not None and mx is not None and mn == mx:
        return m, m     # repetitions without spread
    return None         # one key-set seed: no interval, not ranked

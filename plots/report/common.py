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
  Never a median beside a mean's interval.
"""

import math
import os
import re

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


def fmt_med(row, kind="num", timing=True):
    """'median [lo–hi]' from a summary row; see the module comment."""
    if row is None or _get(row, "median") is None:
        return "—"
    out = fmt_value(row["median"], kind)
    n = int(_get(row, "n") or 0)
    n_eff = int(_get(row, "n_eff") or n)
    lo, hi = _get(row, "median_ci_low"), _get(row, "median_ci_high")
    if n_eff <= 1 and n > 1:
        out += f" {SINGLE_MARK}"
    elif n <= 1:
        if timing:
            out += f" {SINGLE_MARK}"
    elif lo is not None and hi is not None:
        out += f" [{fmt_value(lo, kind)}–{fmt_value(hi, kind)}]"
    else:
        out += f" (n={n})"
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
    lo, hi = _get(row, "mean_ci_low"), _get(row, "mean_ci_high")
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

_TIMING_RE = re.compile(r"(_ns$|_ratio_to_|^lookups_per_s$|^load_avg_1m$|"
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


def na_note(exp, **filters):
    """'n/a: <reason>' if the data say not applicable for this cell."""
    if exp is None:
        return None
    na = exp.not_applicable()
    for c, v in filters.items():
        if v is None:
            continue
        na = na[na[c] == v]
    if na.empty:
        return None
    return "n/a: " + na.iloc[0]["note"][len("not applicable:"):].strip()


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
    the row cannot be ranked (no interval and a spread, or n = 1 timing, or
    n_eff = 1).

    Order: the median's 95 % CI; else (min, max) of 2..5 repetitions; else
    (value, value) for a non-timing metric with no spread (deterministic,
    e.g. memory bytes, or identical repetitions)."""
    if row is None or _get(row, "median") is None:
        return None
    n = int(_get(row, "n") or 0)
    n_eff = int(_get(row, "n_eff") or n)
    lo, hi = _get(row, "median_ci_low"), _get(row, "median_ci_high")
    if n_eff > 1 and lo is not None and hi is not None:
        return float(lo), float(hi)
    mn, mx = _get(row, "min"), _get(row, "max")
    if n_eff <= 1 and n > 1:
        return None
    if n == 1:
        v = float(row["median"])
        return None if timing else (v, v)
    if mn is None or mx is None:   # an older summary without min/max
        return None
    return float(mn), float(mx)


def overlaps(a, b):
    if a is None or b is None:
        return True
    return a[0] <= b[1] and b[0] <= a[1]


def rank(rows, better="lower", timing=True):
    """(best, tied) among summary rows (dicts): best by median in the
    metric's direction; tied = the other rows whose interval overlaps the
    best's (a row without an interval is tied with everything). Returns
    (None, []) for no rows."""
    rows = [r for r in rows if r is not None and
            _get(r, "median") is not None]
    if not rows:
        return None, []
    sign = -1 if better == "higher" else 1
    rows.sort(key=lambda r: sign * float(r["median"]))
    best = rows[0]
    bi = interval(best, timing)
    tied = [r for r in rows[1:] if overlaps(bi, interval(r, timing))]
    return best, tied


def var_filter(var):
    """filt() keywords selecting one variant (NaN parameters -> empty)."""
    f = {"algorithm": var["algorithm"]}
    for c in PARAM_COLS:
        v = var.get(c)
        f[c] = None if v is None or pd.isna(v) else v
    return f


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
        return float(lo), float(hi)
    n = int(r.get("n") or 0)
    mn, mx = r.get("min"), r.get("max")
    if n >= 2 and mn is not None and mx is not None and mn == mx:
        return m, m     # repetitions without spread
    return None         # one key-set seed: no interval, not ranked

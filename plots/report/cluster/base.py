"""The cluster section's shared pieces: the experiment's constants, the
selection of per-run and per-bucket rows and of a sim block, variant keys
and labels, cell formatting (means with a proper minus sign), and the
comparison of means by their intervals (tied_with_best, separate)."""

import math
import re

import pandas as pd

from report.common import (fmt_mean, fmt_num, join_names, match_variant,
                           mean_interval, mean_of, one, overlaps, pick_n,
                           PARAM_COLS)

EXP = "cluster"
PREFERRED_N = 10
PREFERRED_ZIPF = 0.99
EPS = 1e-9
SCENARIO_WHAT = {"add": "a server joins", "remove": "a server dies"}


def _isnan(x):
    return x is None or (isinstance(x, float) and math.isnan(x))


def per_run(s):
    """Per-run rows (bucket empty) of a summary or data frame."""
    return s[s["bucket"].isna()]


def per_bucket(s):
    return s[s["bucket"].notna()]


def _mode(df, mode):
    return df[df["mode"] == mode]


def _most_rows(df, col, preferred=None):
    """Keeps one value of col: `preferred` if present, else the value with
    the most rows (the largest on a tie); returns (rows, value)."""
    vals = df[col].dropna()
    if vals.empty:
        return df, None
    if preferred is not None and (vals == preferred).any():
        keep = preferred
    else:
        cnt = vals.value_counts()
        top = cnt[cnt == cnt.max()].index
        keep = max(top)
    return df[df[col] == keep], keep


def var_key(var):
    """(algorithm, params...) with NaN as None: a hashable variant key."""
    return (var["algorithm"],) + tuple(
        None if _isnan(var.get(c)) or pd.isna(var.get(c)) else float(
            var.get(c)) for c in PARAM_COLS)


def labels(vars_):
    """{var_key: label}: the algorithm, plus c (load factor) and a
    (capacity) always, and v / M / k when the algorithm has several values
    in the block; e.g. "bounded_load (v = 1, c = 1.25)", "ring (v = 100)"."""
    out = {}
    for v in vars_:
        sib = [w for w in vars_ if w["algorithm"] == v["algorithm"]]
        parts = []
        for col, short in (("vnodes", "v"), ("table_size", "M"),
                           ("probes", "k"), ("capacity", "a"),
                           ("load_factor", "c")):
            x = v.get(col)
            if x is None or pd.isna(x):
                continue
            vary = len({var_key(w)[1 + PARAM_COLS.index(col)]
                        for w in sib}) > 1
            if col in ("load_factor", "capacity") or vary:
                parts.append(f"{short} = {float(x):g}")
        out[var_key(v)] = v["algorithm"] + (
            f" ({', '.join(parts)})" if parts else "")
    return out


def cell(df, var, metric, **f):
    """The summary row (dict) of one variant and metric, or None."""
    d = match_variant(df, var)
    d = d[d["metric"] == metric]
    for c, v in f.items():
        d = d[d[c] == v]
    return one(d)


def fmtm(r, kind="num"):
    """fmt_mean with a proper minus sign."""
    return fmt_mean(r, kind).replace("-", "−")


def fnum(x):
    return fmt_num(x).replace("-", "−")


def _signed(x, digits=None):
    if _isnan(x):
        return "—"
    if digits is not None:
        return f"{x:+.{digits}f}".replace("-", "−")
    return ("+" if x >= 0 else "−") + fmt_num(abs(x))


def _reps(df):
    ns = sorted(int(x) for x in df["n"].dropna().unique() if x > 0)
    if not ns:
        return ""
    if ns == [1]:
        return ("one seed per cell (n = 1): values without an interval, "
                "not ranked")
    return (f"mean over {join_names(str(n) for n in ns)} seeds "
            "[Student-t 95 % CI of the mean]")


def _missing_values(data, var, metric, **f):
    """(empty, total) data rows of one variant and metric (empty = no
    value, e.g. 'not recovered within the run')."""
    d = match_variant(data, var)
    d = d[d["metric"] == metric]
    for c, v in f.items():
        d = d[d[c] == v]
    return int(d["value"].isna().sum()), len(d)


def _na_text(data, var, **f):
    """The data's 'not applicable: ...' note for a variant, or None."""
    d = match_variant(data, var)
    for c, v in f.items():
        d = d[d[c] == v]
    d = d[d["value"].isna() &
          d["note"].str.lower().str.startswith("not applicable")]
    if d.empty:
        return None
    return "n/a: " + d.iloc[0]["note"][len("not applicable:"):].strip()


def _run_cite(ctx):
    e = ctx.exps.get(EXP)
    if e is None:
        return ""
    return (f"(run `{e.meta.get('run_id', '?')}`, "
            f"{ctx.csv_link(EXP)})")


def tied_with_best(rows, lower=True):
    """(best, tied, unranked) among [(label, summary row)]: best = the
    lowest (or highest) mean; tied = the others whose mean interval
    overlaps the best's; unranked = rows without an interval (n = 1)."""
    rows = [(k, r) for k, r in rows if not math.isnan(mean_of(r))]
    if not rows:
        return None, [], []
    sign = 1 if lower else -1
    rows.sort(key=lambda t: sign * mean_of(t[1]))
    best = rows[0]
    bi = mean_interval(best[1])
    if bi is None:
        return best, [], [k for k, _ in rows[1:]]
    tied, unranked = [], []
    for k, r in rows[1:]:
        ri = mean_interval(r)
        if ri is None:
            unranked.append(k)
        elif overlaps(bi, ri):
            tied.append(k)
    return best, tied, unranked


def separate(a, b):
    """True when the two rows' mean intervals do not overlap, False when
    they do, None when either has no interval (one seed)."""
    ia, ib = mean_interval(a), mean_interval(b)
    if ia is None or ib is None:
        return None
    return not overlaps(ia, ib)


def sep_text(x):
    return {True: "intervals separate", False: "intervals overlap",
            None: "one seed: no interval"}[x]


def _pick_ring(vars_):
    rings = [v for v in vars_ if v["algorithm"] == "ring"]
    if not rings:
        return None
    for v in rings:
        if v.get("vnodes") == 100:
            return v
    return rings[0]


def _cache_text(cache):
    """'no eviction (cache_items = 0: ...)' or 'an LRU of k keys per
    server'."""
    if not cache or _isnan(cache):
        return ("no eviction (cache_items = 0: every server can hold the "
                "key universe, so the reads beyond the control are the "
                "stampede alone)")
    return f"an LRU of {fmt_num(cache)} keys per server"


def _sim_block(e, scenario):
    """(per-run sim rows of `scenario` at the preferred N, in the block with
    the most rows by keys, requests and cache size; N), or (None, None)."""
    s = per_run(_mode(e.summary, "sim"))
    d = s[s["scenario"] == scenario]
    if d.empty:
        return None, None
    n = pick_n(d["nodes"], PREFERRED_N)
    d = d[d["nodes"] == n]
    for col in ("keys", "requests", "cache_items"):
        d, _ = _most_rows(d, col)
    return d, n


def _metric_desc(ctx, names):
    out = []
    for m in names:
        d = ctx.reg.metric(m).get("description", "")
        d = re.sub(r"^cluster(, [a-z_]+)?: ", "", d)
        if d:
            out.append(f"`{m}`: {d}")
    return out


# ---------------------------------------------------------------------------
# figures: drawing helpers of the subsections' figures

import style  # noqa: E402
from report import cluster as rcl  # noqa: E402
from report.draw import Skip, need  # noqa: E402


def _cluster(exps):
    (e,) = need(exps, "cluster")
    if e.summary.empty:
        raise Skip("no cluster rows")
    return e


def _cl_style(var, vars_, lab):
    """Line kwargs for a cluster variant: the algorithm's colour and
    marker; several variants of one algorithm differ by line style and
    lightness."""
    a = var["algorithm"]
    same = [v for v in vars_ if v["algorithm"] == a]
    kw = style.line_kw(a)
    kw["label"] = lab[rcl.var_key(var)]
    if len(same) > 1:
        i = [rcl.var_key(v) for v in same].index(rcl.var_key(var))
        kw["linestyle"] = ["-", "--", ":", "-."][i % 4]
        kw["alpha"] = 1.0 - 0.5 * i / max(1, len(same) - 1)
    return kw


def fmt_int(x):
    return f"{float(x):,.0f}"

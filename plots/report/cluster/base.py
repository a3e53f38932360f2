"""The cluster section's shared pieces: the experiment's constants, the
selection of per-run and per-bucket rows and of a sim block, variant keys
and labels, cell formatting (means with a proper minus sign), and the
comparison of two cells by seed (tied_with_best against a fixed reference,
separate: common.paired, the ratio per seed and its interval)."""

import math
import re

import pandas as pd

from report.common import (fmt_mean, fmt_num, fmt_paired, join_names,
                           match_variant, mean_of, one, paired, pick_n,
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


def tied_with_best(rows, data, ref=None, lower=True, level=0.95):
    """Each row of [(label, summary row)] against a fixed reference row
    (`ref`, a label: ring; the lowest mean when None or absent) by a paired
    comparison per seed (common.paired: the ratio other / reference per
    seed, its interval at `level`). Returns (best, tied, unranked, info):
    best = (label, row) of the lowest (or highest) mean; tied = the labels
    whose interval holds 1 (not separated from the reference); unranked =
    the labels that cannot be paired with it (one seed, other seeds);
    info = {ref: label, below, above: [(label, paired result)] separated
    from the reference to the fewer (more) side, comparisons: k, level,
    method: 'paired t on log ratios, n = 3' (method_text)}. A fixed
    reference, not the best: the best of k noisy means is biased low, and
    at n = 3 seeds a Bonferroni level over k comparisons separates
    nothing."""
    rows = [(k, r) for k, r in rows if not math.isnan(mean_of(r))]
    info = {"ref": None, "below": [], "above": [], "comparisons": 0,
            "level": level, "method": "", "paired": {}}
    if not rows:
        return None, [], [], info
    sign = 1 if lower else -1
    rows.sort(key=lambda t: sign * mean_of(t[1]))
    best = rows[0]
    refs = [t for t in rows if t[0] == ref]
    rt = refs[0] if refs else best
    info["ref"] = rt[0]
    tied, unranked, ps = [], [], []
    for k, r in rows:
        if k == rt[0]:
            continue
        p = paired(data, rt[1], r, level=level)
        if p is None:
            unranked.append(k)
            continue
        info["comparisons"] += 1
        info["paired"][k] = p
        ps.append(p)
        null = 1.0 if p["kind"] == "ratio" else 0.0
        lo, hi = (p["est"], p["est"]) if p["lo"] is None else \
            (p["lo"], p["hi"])
        if lo > null:
            info["above" if lower else "below"].append((k, p))
        elif hi < null:
            info["below" if lower else "above"].append((k, p))
        else:
            tied.append(k)
    info["method"] = method_text(ps)
    return best, tied, unranked, info


def method_text(ps):
    """'paired t on log ratios, n = 3' for paired() results (the kinds and
    methods they use, joined)."""
    out = []
    for p in ps:
        if p is None or p["method"] == "identical pairs":
            continue
        m = p["method"]
        if m.startswith("paired t"):
            m = ("paired t on log ratios" if p["kind"] == "ratio" else
                 "paired t on differences") + m[len("paired t"):]
        elif m == "CI of the median":
            m = ("95 % CI of the median ratio" if p["kind"] == "ratio"
                 else "95 % CI of the median difference") + \
                f", n = {p['n']}"
        if m not in out:
            out.append(m)
    return "; ".join(out) if out else "identical pairs"


def separate(data, a, b, free=(), level=0.95):
    """The paired comparison (common.paired, by seed) of row b against row
    a, with "separate": True when its interval excludes 1 (ratio) or 0
    (difference), False when it holds it; None when the rows cannot be
    paired (one seed, other seeds). `free`: columns the two rows may
    differ in besides the variant (e.g. the metric, the stale
    fraction)."""
    p = paired(data, a, b, level=level, free=free)
    if p is None:
        return None
    p = dict(p)
    p["separate"] = not p["tied"]
    return p


def sep_text(p, kind="num"):
    """'paired by seed: 1.34× [1.24×–1.47×], paired t on log ratios, n =
    3: separate' for a separate() result."""
    if p is None:
        return "not paired: one seed or other seeds"
    what = "separate" if p["separate"] else "not separated"
    return (f"paired by seed: {fmt_paired(p, kind).replace('-', '−')}, "
            f"{method_text([p])}: {what}")


def _pick_variant(vars_, algorithm):
    """The variant of `algorithm` among vars_ to compare others with: the
    one with 100 vnodes, else the first; None when it has none."""
    rings = [v for v in vars_ if v["algorithm"] == algorithm]
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


def _sim_block(e, scenario, n=None):
    """(per-run sim rows of `scenario` at N = n (default: the preferred N),
    in the block with the most rows by keys, requests and cache size; N),
    or (None, None)."""
    s = per_run(_mode(e.summary, "sim"))
    d = s[s["scenario"] == scenario]
    if d.empty:
        return None, None
    if n is None:
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

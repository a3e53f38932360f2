"""Between-run reproducibility of the timing numbers.

A timing cell's interval in summary.csv is over the rounds of one process.
What a reader needs to know before citing a time is how far a second run
of the same code on the same machine lands. Independent process runs of an
experiment (same spec and tier, so the same run id) are kept under
<results>/reruns/<k>/<experiment>/<run_id>/, beside the primary run
<results>/<experiment>/<run_id>/; this module pairs their cells and
measures, per experiment, how far the runs' medians of one cell spread:
(largest median / smallest median - 1), over every timing cell present in
all runs. It does the same for the ratios to the reference peers (timed in
the same rounds as the algorithm) and compares the two cell by cell.
"""

import glob
import os

import pandas as pd

import chdata

RERUNS_DIR = "reruns"


def rerun_summaries(results_dir, name, primary):
    """[(rerun label, Experiment)] of the reruns of `primary` (an
    Experiment): the runs under <results_dir>/reruns/*/<name>/ with the
    primary's run id (the same spec and tier), in label order."""
    rid = (primary.meta or {}).get("run_id") or os.path.basename(
        primary.run_dir.rstrip("/"))
    out = []
    for d in sorted(glob.glob(os.path.join(results_dir, RERUNS_DIR, "*"))):
        e = chdata.load_experiment(d, name, run_id=rid)
        if e is not None:
            out.append((os.path.basename(d), e))
    return out


SPREAD_COLUMNS = ["key", "metric", "runs", "low", "high", "spread",
                  "flagged"]


def timing_rows(reg, s):
    """The summary rows a reader cites: timing metrics that have a better
    direction (ns, 1/s, ratios; not the machine-context rows), with a
    median."""
    keep = s["metric"].map(lambda m: reg.timing(m) and
                           reg.better(m) != "none")
    return s[keep & s["median"].notna() & (s["median"] > 0)]


def _keyed(reg, s):
    """(median by row key, noisy by row key) of a summary's timing rows."""
    t = timing_rows(reg, s)
    if t.empty:
        empty = pd.Series(dtype=float)
        return empty, empty
    cfg = [c for c in chdata.CONFIG_COLUMNS if c in t.columns]
    key = t[cfg + ["metric"]].astype(str).agg("|".join, axis=1).to_numpy()
    med = pd.Series(t["median"].to_numpy(dtype=float), index=key)
    noisy = pd.Series((t["noisy"].fillna(0) >= 1).to_numpy(dtype=float),
                      index=key)
    return (med.groupby(level=0).first(), noisy.groupby(level=0).max())


def spreads(reg, summaries):
    """DataFrame, one row per timing row (configuration x metric) present in
    every summary: key, metric, runs, low, high, spread = high / low - 1
    (the runs' medians of that row), flagged = noise-flagged in some run."""
    if len(summaries) < 2:
        return pd.DataFrame(columns=SPREAD_COLUMNS)
    meds, flags = zip(*(_keyed(reg, s) for s in summaries))
    both = pd.concat(meds, axis=1, join="inner")
    if both.empty:
        return pd.DataFrame(columns=SPREAD_COLUMNS)
    flagged = pd.concat(flags, axis=1, join="inner").reindex(both.index)
    low, high = both.min(axis=1), both.max(axis=1)
    return pd.DataFrame({
        "key": both.index,
        "metric": [k.rsplit("|", 1)[1] for k in both.index],
        "runs": len(summaries), "low": low.to_numpy(),
        "high": high.to_numpy(), "spread": (high / low - 1).to_numpy(),
        "flagged": flagged.max(axis=1).to_numpy() >= 1,
    }).reset_index(drop=True)


def is_ratio(metric):
    return "_ratio_to_" in metric


def paired_ratio_vs_time(sp):
    """Cells that have both a peer ratio and the absolute time it divides
    (lookup_ns / lookup_latency_ns / build_ns): (cells, cells where the
    ratio spread less, median spread of the times, of the ratios)."""
    if sp.empty:
        return 0, 0, float("nan"), float("nan")
    r = sp[sp["metric"].map(is_ratio)].copy()
    if r.empty:
        return 0, 0, float("nan"), float("nan")
    base = r["metric"].str.split("_ratio_to_").str[0]
    cfg = r["key"].str.rsplit("|", n=1).str[0]
    abs_spread = sp.set_index("key")["spread"]
    r["abs"] = (cfg + "|" + base).map(abs_spread)
    r = r.dropna(subset=["abs"])
    return (int(len(r)), int((r["spread"] < r["abs"]).sum()),
            float(r["abs"].median()), float(r["spread"].median()))


def pct(x):
    return f"{100 * x:.1f} %" if x == x else "n/a"


def experiment_line(reg, name, primary, reruns):
    """(one Markdown bullet, (paired rows, rows where the ratio spread
    less)): the runs, the rows paired and the spread of their medians
    (absolute times and peer ratios apart); (None, (0, 0)) when the
    experiment has no rerun."""
    if not reruns:
        return None, (0, 0)
    sums = [primary.summary] + [e.summary for _, e in reruns]
    sp = spreads(reg, sums)
    if sp.empty:
        return None, (0, 0)
    times = sp[~sp["metric"].map(is_ratio)]["spread"]
    ratios = sp[sp["metric"].map(is_ratio)]["spread"]
    metas = [primary.meta] + [e.meta for _, e in reruns]
    commits = sorted({str((m or {}).get("git_commit") or "?")[:7]
                      for m in metas})
    dates = sorted(str((m or {}).get("date_utc") or "?") for m in metas)
    line = (f"- `{name}`: {len(sums)} process runs ({dates[0]} to "
            f"{dates[-1]}, commit{'s' if len(commits) > 1 else ''} "
            f"{', '.join('`' + c + '`' for c in commits)}); "
            f"{len(sp)} timing rows measured in all of them "
            f"({int(sp['flagged'].sum())} noise-flagged in at least one). "
            f"The runs' medians of one row spread by (largest / "
            f"smallest − 1): times {pct(times.median())} for the median row, "
            f"{pct(times.quantile(0.9))} at the 90th percentile, "
            f"{pct(times.max())} at most ({len(times)} rows)")
    paired = (0, 0)
    if len(ratios):
        line += (f"; ratios to the reference peers {pct(ratios.median())}, "
                 f"{pct(ratios.quantile(0.9))} and {pct(ratios.max())} "
                 f"({len(ratios)} rows)")
        cells, steadier, tmed, rmed = paired_ratio_vs_time(sp)
        if cells:
            paired = (cells, steadier)
            line += (f"; paired row by row, the ratio spread less than the "
                     f"time it divides in {steadier} of {cells} (median "
                     f"{pct(rmed)} against {pct(tmed)})")
    return line + ".", paired


def section(ctx, names):
    """The between-run paragraph of the timing context: a bullet per timing
    experiment with reruns, one for those run once, and which quantities
    reproduce better, as the paired rows say."""
    lines, without = [], []
    cells = steadier = 0
    for name in names:
        e = ctx.exps.get("lookup_all_hashes" if name == "lookup" else name,
                         ctx.exps.get(name))
        if e is None or not any(ctx.reg.timing(m)
                                for m in e.summary["metric"].unique()):
            continue
        line, (c, st) = experiment_line(
            ctx.reg, name, e, rerun_summaries(ctx.results, name, e))
        if line is None:
            without.append(name)
        else:
            lines.append(line)
            cells += c
            steadier += st
    out = ["Between runs (independent processes of the same spec on this "
           "machine, at different times):", ""]
    if not lines:
        return out + ["- every timing experiment here was run once: the "
                      "spread between runs is not measured (the intervals "
                      "above are within one run).", ""]
    out += lines
    if without:
        out.append("- run once, so not measured: " +
                   ", ".join(f"`{n}`" for n in without) + ".")
    out.append("")
    if cells:
        verdict = ("steadier than" if 2 * steadier > cells else
                   "not steadier than")
        out += [f"Over all paired rows, a ratio to a peer was {verdict} the "
                f"absolute time it divides ({steadier} of {cells} rows "
                "spread less).", ""]
    return out

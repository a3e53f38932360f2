"""Q5: load balance. Every balance cell is the MEDIAN over repetitions
(the statistic of the headline and the decision guide): [95 % CI of the
median], or "(n=k)" for 2–5 repetitions. Beside it the model's
expectation for the same key count ("model E"; for the ring with v = 1 the
runner emits the exact E[max]·n = H_n, E[min]·n = 1/n): an expectation, so
a median of a skewed maximum sits a little off it. A model is shown only
where it fits: an ideal-uniform model is withheld when the measured loads
fail its chi-squared test (model_fits). Servers that get less than half
their fair share (min/mean below STARVED) are flagged wherever min/mean is
shown. Where a run has exact hash-space shares (exact_max_over_mean,
exact_min_over_mean: no keys, no sampling) they are shown beside the key
counts. Also: ring balance vs vnodes, balance per hash × key set (hash cost
on an explicitly chosen key set), bounded load (keys per node, replay
model) and weights (the per-layout worst error)."""

import math

import numpy as np

import chdata
import style
from report.common import (Cell, filt, fmt_med, fmt_num, join_names,
                           fmt_pct, fmt_value, keys_per_node, mcell, md_table,
                           med, na_note, one, pick_n, ref_note, render,
                           replay_model, restrict, summary_of, var_filter,
                           variant_label, variants)

# Key set for the per-hash cost column: URL-like strings are the typical
# string key; chosen explicitly (not the alphabetically first key set).
HASH_COST_KEYSET = "url"
# min/mean below this: a server gets less than half its fair share.
STARVED = 0.5
STARVED_MARK = "⚠ starved"
# The chi-squared test of the loads against a uniform multinomial: a model
# whose own expected p-value is at least MODEL_P (a uniform model) does
# not fit when the measured median p-value is below FIT_P.
MODEL_P = 0.01
FIT_P = 1e-3


def model_fits(s, **f):
    """False when the cell's analytic model is an ideal-uniform one (its
    expected chi-squared p-value >= MODEL_P) and the measured loads reject
    it (median p-value < FIT_P); True otherwise (also without p-values)."""
    pm = med(s, metric="load_chi2_pvalue", scenario="analytic", **f)
    pv = med(s, metric="load_chi2_pvalue", scenario="measured", **f)
    if math.isnan(pm) or math.isnan(pv):
        return True
    return not (pm >= MODEL_P and pv < FIT_P)


def uniform_expectation(s, n, keys, metric="load_max_over_mean"):
    """The expectation of `metric` for an ideal uniform placement of `keys`
    keys on n nodes: the median of the analytic rows at (n, keys) whose
    model is uniform (expected chi-squared p-value >= MODEL_P); NaN when
    the summary has none."""
    if s is None or keys is None or (isinstance(keys, float) and
                                     math.isnan(keys)):
        return float("nan")
    a = s[(s["scenario"] == "analytic") & (s["nodes"] == n) &
          (s["keys"] == float(keys))]
    p = a[(a["metric"] == "load_chi2_pvalue") & (a["median"] >= MODEL_P)]
    if p.empty:
        return float("nan")
    cols = ["algorithm", "vnodes", "table_size", "load_factor", "capacity",
            "probes", "hash", "keyset"]
    uni = p[cols].drop_duplicates()
    m = a[a["metric"] == metric].merge(uni, on=cols)
    return float(m["median"].median()) if not m.empty else float("nan")


def exact_rows(s, metric, n, hash_=None, keyset=None):
    """Summary rows of an exact hash-space metric (exact_max_over_mean,
    exact_min_over_mean) at N = n, on the given hash and key set when the
    rows carry them; None when the run has none."""
    if s is None or metric not in set(s["metric"]):
        return None
    d = s[(s["metric"] == metric) & (s["nodes"] == n) & s["median"].notna()]
    if hash_ and hash_ in set(d["hash"]):
        d = d[d["hash"] == hash_]
    if keyset and keyset in set(d["keyset"]):
        d = d[d["keyset"] == keyset]
    elif (d["keyset"] == "").any():
        d = d[d["keyset"] == ""]
    return d


def starved(row):
    """True when a min/mean summary row's median is below STARVED."""
    return row is not None and row.get("median") is not None and \
        not math.isnan(float(row["median"])) and \
        float(row["median"]) < STARVED


def _min_cell(ctx, exp, **f):
    """min/mean median cell, flagged when a server is starved."""
    def fn(exps):
        row = one(filt(summary_of(exps, exp), metric="load_min_over_mean",
                       **f))
        txt = fmt_med(row, "x", timing=False)
        return txt + f" {STARVED_MARK}" if starved(row) else txt
    return Cell(fn)


def _med_cell(exp, metric, kind, **f):
    def fn(exps):
        return fmt_med(one(filt(summary_of(exps, exp), metric=metric, **f)),
                       kind, timing=False)
    return Cell(fn)


def _analytic(ctx, exp, metric, **f):
    """The model's expectation, or "no model fits" where the measured loads
    reject the cell's uniform model."""
    g = {k: v for k, v in f.items() if k != "scenario"}

    def fn(exps):
        s = summary_of(exps, exp)
        if s is None:
            return "—"
        v = med(s, metric=metric, scenario="analytic", **g)
        if math.isnan(v):
            return "—"
        if not model_fits(s, **g):
            return "no model fits"
        return fmt_value(v, "x")
    return Cell(fn)


def _exact_cell(exp, metric, **f):
    def fn(exps):
        s = summary_of(exps, exp)
        if s is None or metric not in set(s["metric"]):
            return "—"
        g = {k: v for k, v in f.items() if k not in ("scenario", "keyset")}
        return fmt_med(one(filt(s, metric=metric, **g)), "x", timing=False)
    return Cell(fn)


def section(ctx):
    out = ["## Q5. How even is the load?", ""]
    out += ref_note(ctx)
    e = ctx.exps.get("balance")
    if e is None:
        out += ["_No `balance` results yet._", ""]
    else:
        s, ks = restrict(e.summary, "keyset", "uniform")
        s, hs = restrict(s, "hash", "xxh64")
        ns = sorted(int(n) for n in s["nodes"].dropna().unique())
        has_exact = "exact_max_over_mean" in set(e.summary["metric"])
        out += ["Keys on the busiest / least loaded node over the mean "
                "load: MEDIAN over repetitions [95 % CI of the median; "
                "\"(n=k)\": 2–5 repetitions, no 95 % interval], beside "
                "the model's expectation of the same quantity (\"model "
                "E\", same key count; \"no model fits\": the measured "
                "loads reject the cell's uniform model, chi-squared "
                f"p < {FIT_P:g}). 1.0 is perfect. Fewer keys per node mean "
                "a larger max/mean by chance alone. "
                f"\"{STARVED_MARK}\": a server gets less than "
                f"{STARVED:g} of its fair share (min/mean < {STARVED:g})."
                + (" exact: the hash-space shares (no keys)."
                   if has_exact else "")
                + (f" Key set `{ks}`." if ks else "")
                + (f" Hash `{hs}`." if hs else ""), ""]
        rows = []
        starving = []
        for var in variants(s[s["scenario"] == "measured"]):
            f = var_filter(var)
            sv = filt(s, **f)
            for n in ns:
                g = dict(nodes=n, scenario="measured")
                mx = one(filt(sv, metric="load_max_over_mean", **g))
                if mx is None:
                    continue
                if starved(one(filt(sv, metric="load_min_over_mean", **g))):
                    starving.append(f"{variant_label(var)} N={n}")
                r = [variant_label(var), str(n), fmt_num(mx.get("keys")),
                     _med_cell("balance", "load_max_over_mean", "x", **g,
                               **_ksh(ks, hs), **f),
                     _analytic(ctx, "balance", "load_max_over_mean",
                               nodes=n, **_ksh(ks, hs), **f)]
                if has_exact:
                    r.append(_exact_cell("balance", "exact_max_over_mean",
                                         nodes=n, **_ksh(ks, hs), **f))
                r += [_min_cell(ctx, "balance", **g, **_ksh(ks, hs), **f),
                      _analytic(ctx, "balance", "load_min_over_mean",
                                nodes=n, **_ksh(ks, hs), **f)]
                if has_exact:
                    r.append(_exact_cell("balance", "exact_min_over_mean",
                                         nodes=n, **_ksh(ks, hs), **f))
                r += [_med_cell("balance", "load_rel_stddev", "sci", **g,
                                **_ksh(ks, hs), **f),
                      ctx.data_links("balance")]
                rows.append(r)
        head = ["algorithm", "N", "keys", "max/mean", "model E"]
        head += ["exact"] if has_exact else []
        head += ["min/mean", "model E"]
        head += ["exact"] if has_exact else []
        head += ["rel. stddev", "data"]
        out += [render(ctx, head, rows), ""]
        if starving:
            out += [f"{STARVED_MARK}: " + ", ".join(starving) + " (the least "
                    "loaded server holds less than half of a fair share).",
                    ""]
    out += vnodes_table(ctx)
    out += hashes_tables(ctx)
    out += bounded_table(ctx)
    out += weights_table(ctx)
    return "\n".join(out)


def _ksh(ks, hs):
    f = {}
    if ks:
        f["keyset"] = ks
    if hs:
        f["hash"] = hs
    return f


def vnodes_table(ctx):
    v = ctx.exps.get("vnodes")
    if v is None:
        return []
    rows = []
    d = v.data[(v.data["scenario"] == "measured") & v.data["value"].notna()]
    has_exact = "exact_max_over_mean" in set(v.summary["metric"])
    for n in sorted(d["nodes"].dropna().unique()):
        dn = d[d["nodes"] == n]
        keys = sorted(dn["keys"].dropna().unique())
        for vn in sorted(dn["vnodes"].dropna().unique()):
            r = [f"{n:g}", fmt_num(keys[0]) if len(keys) == 1 else "—",
                 f"{vn:g}"]
            for m in ("load_max_over_mean", "load_min_over_mean"):
                vals = dn[(dn["vnodes"] == vn) & (dn["metric"] == m)]["value"]
                lo, hi = chdata.quantile_band(vals)
                if m == "load_min_over_mean":
                    r.append(_min_cell(ctx, "vnodes", nodes=n, vnodes=vn,
                                       scenario="measured"))
                else:
                    r.append(_med_cell("vnodes", m, "x", nodes=n, vnodes=vn,
                                       scenario="measured"))
                r.append(f"{lo:.3g}–{hi:.3g}")
                r.append(_analytic(ctx, "vnodes", m, nodes=n, vnodes=vn))
                if has_exact:
                    r.append(_exact_cell("vnodes", "exact_" + m[5:],
                                         nodes=n, vnodes=vn))
            r.append(fmt_num(med(v.summary, nodes=n, vnodes=vn,
                                 metric="memory_bytes")))
            r.append(ctx.data_links("vnodes"))
            rows.append(r)
    ex = ["exact"] if has_exact else []
    return ["### Ring: balance vs virtual nodes", "",
            "Median over repetitions [95 % CI of the median], the central "
            "95 % of individual repetitions (2.5–97.5 percentile), and the "
            "model's expectation (v = 1: exact H_N / N·N and 1/N; otherwise "
            "the stated model)"
            + ("; exact: the hash-space shares of the points (no keys)"
               if has_exact else "")
            + ". With few keys per node the key counts add sampling noise "
            "to the ring's own imbalance (the `keys` column).", "",
            render(ctx, ["N", "keys", "vnodes", "max/mean",
                         "95 % of runs", "model E"] + ex +
                   ["min/mean", "95 % of runs", "model E"] + ex +
                   ["memory bytes", "data"], rows), ""]


def hashes_tables(ctx):
    h = ctx.exps.get("hashes")
    if h is None:
        return []
    s = h.summary[(h.summary["metric"] == "load_max_over_mean") &
                  (h.summary["scenario"].isin(["measured", ""]))]
    hn = max(s["nodes"].dropna().unique(), default=None)
    if hn is not None:
        s = s[s["nodes"] == hn]
    keysets = sorted(s["keyset"].unique())
    spd = h.summary[h.summary["metric"] == "hash_ns"]
    cost_ks = HASH_COST_KEYSET if HASH_COST_KEYSET in set(spd["keyset"]) \
        else (sorted(spd["keyset"].unique())[0] if not spd.empty else None)
    out = ["### Balance per hash × key set", "",
           "Median max/mean [95 % CI of the median; \"(n=k)\": 2–5 "
           "repetitions, no 95 % interval; ‡: repetitions not independent]"
           + (f" at N = {hn:g}" if hn is not None else "")
           + "; the worst key set per hash is what to look at. Hash cost: "
           f"median ns per key of the hash alone on the `{cost_ks}` key "
           "set" + (" (chosen: typical string keys)"
                    if cost_ks == HASH_COST_KEYSET else
                    f" (`{HASH_COST_KEYSET}` not measured)")
           + " [95 % CI of the median over the rounds of one run].", ""]
    for a in style.order_algorithms(s["algorithm"].unique()):
        sa = s[s["algorithm"] == a]
        rows = []
        for hname in sorted(sa["hash"].unique()):
            r = [hname]
            for ks in keysets:
                r.append(fmt_med(one(filt(sa, hash=hname, keyset=ks)), "x",
                                 timing=False))
            r.append(fmt_med(one(filt(spd, hash=hname, keyset=cost_ks)),
                             "num"))
            r.append(ctx.csv_link("hashes"))
            rows.append(r)
        out += [f"`{a}`:", "", md_table(
            ["hash"] + keysets + [f"hash ns ({cost_ks})", "data"], rows), ""]
    return out


def bounded_rows(b):
    """(summary rows of bounded_load itself at one N (100 preferred), N)."""
    s = b.summary
    if (s["algorithm"] == "bounded_load").any():
        s = s[s["algorithm"] == "bounded_load"]
    n = pick_n(s["nodes"], 100)
    if n is not None:
        s = s[s["nodes"] == n]
    return s, n


def bounded_table(ctx):
    b = ctx.exps.get("bounded_load")
    if b is None:
        return []
    s, bn = bounded_rows(b)
    rows = []
    for c in sorted(s["load_factor"].dropna().unique()):
        sc = s[s["load_factor"] == c]
        k = one(filt(sc, scenario="measured"))
        f = dict(algorithm="bounded_load", nodes=bn, load_factor=c)
        rows.append([
            f"{c:g}", keys_per_node(k),
            mcell(ctx, "bounded_load", "x", metric="load_max_over_mean",
                  scenario="measured", **f),
            fmt_value(med(sc, metric="load_max_over_mean",
                          scenario="analytic"), "x"),
            mcell(ctx, "bounded_load", "pct", metric="moved_fraction",
                  scenario="add", **f),
            fmt_pct(med(sc, metric="moved_optimal_fraction",
                        scenario="add")),
            mcell(ctx, "bounded_load", "pct", metric="moved_fraction",
                  scenario="remove_random", **f),
            fmt_pct(med(sc, metric="moved_optimal_fraction",
                        scenario="remove_random")),
            ctx.data_links("bounded_load")])
    return ["### Bounded load: balance vs disruption", "",
            (f"`bounded_load` (ring with {_vn(s)} vnodes and a capacity "
             f"⌈c·m/N⌉) at N = {bn:g}, medians [95 % CI of the median; "
             "\"(n=k)\": 2–5 repetitions, no 95 % interval]. " if bn
             else "")
            + replay_model("bounded_load") + " Above the ring's own max/mean the cap never "
            "binds, so large c behaves like the plain ring.", "",
            render(ctx, ["c", "keys per node", "max/mean",
                         "cap ⌈c·m/n⌉/(m/n)", "add: moved", "add: optimum",
                         "remove: moved", "remove: optimum", "data"], rows),
            ""]


def _vn(s):
    v = s["vnodes"].dropna().unique()
    return f"{v[0]:g}" if len(v) == 1 else "its"


def weight_errors(data, algorithm):
    """Per layout (repetition) the worst relative error of a node's share
    against w/Σw: a Series indexed by (seed, repetition); empty without
    measured shares."""
    import pandas as pd
    d = data[(data["metric"] == "share") & data["value"].notna() &
             (data["algorithm"] == algorithm)]
    ideal = d[d["scenario"] == "analytic"].groupby("node")["value"].first()
    meas = d[d["scenario"] == "measured"]
    if meas.empty or ideal.empty:
        return pd.Series(dtype=float)
    rel = (meas["value"] - meas["node"].map(ideal)).abs() / \
        meas["node"].map(ideal)
    return rel.groupby([meas["seed"].fillna(-1),
                        meas["repetition"].fillna(-1)]).max().dropna()


def weights_table(ctx):
    w = ctx.exps.get("weights")
    if w is None:
        return []
    rows = []
    layouts = set()
    for a in style.order_algorithms(w.data["algorithm"].unique()):
        err = weight_errors(w.data, a)
        if err.empty:
            rows.append([a, na_note(w, algorithm=a) or "—", "", "", "",
                         ctx.csv_link("weights")])
            continue
        layouts.add(len(err))
        rows.append([a, str(len(err)), fmt_pct(float(err.median())),
                     fmt_pct(float(np.percentile(err, 95))),
                     fmt_pct(float(err.max())), ctx.csv_link("weights")])
    d = w.data[(w.data["metric"] == "share") &
               (w.data["scenario"] == "measured") & w.data["value"].notna()]
    ns = sorted(d["nodes"].dropna().unique())
    first = d[(d["algorithm"] == d["algorithm"].iloc[0]) &
              (d["repetition"] == d["repetition"].iloc[0])] \
        if not d.empty else d
    wts = list(first.sort_values("node")["weight"].dropna())
    return ["### Weights: measured share vs w/Σw", "",
            "Per layout (one repetition: one placement of the weighted "
            "nodes), the worst relative error of a node's share against "
            "w/Σw, |share − w/Σw| / (w/Σw), over the nodes; then its "
            "distribution over the layouts: what one deployment sees. "
            + (f"N = {join_names([f'{x:g}' for x in ns])}, weights "
               + ", ".join(f"{x:g}" for x in wts) + "." if ns else ""), "",
            md_table(["algorithm", "layouts", "worst error: median",
                      "p95", "max", "data"], rows), ""]

"""Load balance. Every balance cell is the MEDIAN over repetitions
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
from report.questions import q

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
    out = [f"## {q('balance')}. How even is the load?", ""]
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
    out += weight_change_table(ctx)
    out += weight_mix_table(ctx)
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


def bounded_scheme(b):
    """The bounded-load scheme (chdata.is_bounded_load) a bounded_load run
    measures (the first in catalogue order when several), or None."""
    sc = chdata.bounded_load_schemes(b.summary["algorithm"].unique())
    return sc[0] if sc else None


def bounded_rows(b):
    """(summary rows of the bounded-load scheme itself (bounded_scheme) at
    one N (100 preferred), N)."""
    s = b.summary
    a = bounded_scheme(b)
    if a is not None:
        s = s[s["algorithm"] == a]
    n = pick_n(s["nodes"], 100)
    if n is not None:
        s = s[s["nodes"] == n]
    return s, n


def bounded_table(ctx):
    b = ctx.exps.get("bounded_load")
    if b is None:
        return []
    s, bn = bounded_rows(b)
    a = bounded_scheme(b)
    if a is None:
        return []   # no row of a bounded-load scheme (registry.json)
    base = chdata.bounds_loads_of(a)
    rows = []
    for c in sorted(s["load_factor"].dropna().unique()):
        sc = s[s["load_factor"] == c]
        k = one(filt(sc, scenario="measured"))
        f = dict(algorithm=a, nodes=bn, load_factor=c)
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
            (f"`{a}` ({base} with {_vn(s)} vnodes and a capacity "
             f"⌈c·m/N⌉) at N = {bn:g}, medians [95 % CI of the median; "
             "\"(n=k)\": 2–5 repetitions, no 95 % interval]. " if bn
             else "")
            + replay_model(a) + f" Above the {base}'s own max/mean the cap "
            f"never binds, so large c behaves like the plain {base}.", "",
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
    unweighted = []
    shares = w.data[w.data["metric"] == "share"]
    for a in style.order_algorithms(shares["algorithm"].unique()):
        err = weight_errors(w.data, a)
        if err.empty:
            if na_note(w, algorithm=a):
                unweighted.append(a)  # named after the table
                continue
            rows.append([a, "—", "", "", "", ctx.csv_link("weights")])
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
               + ", ".join(f"{x:g}" for x in wts) + "." if ns else "")
            + (" Not applicable (no weights): " + join_names(unweighted)
               + "." if unweighted else ""), "",
            md_table(["algorithm", "layouts", "worst error: median",
                      "p95", "max", "data"], rows), ""]


def weight_change_table(ctx):
    """One server's weight x2, x0.5, x0.1 and back (kind weight_change):
    per algorithm and change, the median over the layouts of keys moved /
    the optimum at each N, the same for the return at the largest N, and
    the smallest fraction of keys the return gives back."""
    w = ctx.exps.get("weights")
    if w is None:
        return []
    d = w.data[w.data["metric"].isin(
        ["weight_change_moved_over_optimum",
         "weight_change_back_moved_over_optimum",
         "weight_change_restored_fraction"]) & w.data["value"].notna()]
    if d.empty:
        return []
    ns = sorted(d["nodes"].dropna().unique())
    changes = [c for c in ("x2", "x0.5", "x0.1") if c in set(d["scenario"])]
    rows = []
    for a in style.order_algorithms(d["algorithm"].unique()):
        for ch in changes:
            da = d[(d["algorithm"] == a) & (d["scenario"] == ch)]
            if da.empty:
                continue

            def med(metric, n=None):
                x = da[da["metric"] == metric]
                if n is not None:
                    x = x[x["nodes"] == n]
                return f"{x['value'].median():.3g}×" if not x.empty else "—"
            rest = da[da["metric"] == "weight_change_restored_fraction"]
            rows.append([a, ch] +
                        [med("weight_change_moved_over_optimum", n)
                         for n in ns] +
                        [med("weight_change_back_moved_over_optimum",
                             ns[-1]),
                         fmt_pct(float(rest["value"].min()))
                         if not rest.empty else "—",
                         ctx.csv_link("weights")])
    return ["### Weight changes: one server's weight changed and set back",
            "",
            "Node 0's weight multiplied by the factor, then set back, each "
            "as RemoveNode + AddNode of the same name (kind weight_change); "
            "keys moved over the optimum, the change of that server's share "
            "(1× is minimal; below 1× its share follows the weight only in "
            "part). Median over the layouts; algorithms start at weight 1 "
            "per server, presets at 10. \"restored\": the fewest keys, over "
            "the cells, whose owner after the return is their first.", "",
            md_table(["algorithm", "change"] +
                     [f"N={n:g}" for n in ns] +
                     [f"back, N={ns[-1]:g}", "restored", "data"], rows), ""]


def weight_mix_table(ctx):
    """Mixed server generations (kind weight_mix): per algorithm and N, the
    median over the layouts of each layout's median, 95th percentile and
    worst share error, and the worst over the layouts."""
    w = ctx.exps.get("weights")
    if w is None:
        return []
    d = w.data[w.data["metric"].isin(
        ["weight_share_error_median", "weight_share_error_p95",
         "weight_share_error_max"]) & w.data["value"].notna()]
    if d.empty:
        return []
    ns = sorted(d["nodes"].dropna().unique())
    rows = []
    for a in style.order_algorithms(d["algorithm"].unique()):
        da = d[d["algorithm"] == a]
        src = "exact" if set(da["scenario"]) == {"exact"} else "keys"
        cells = []
        for n in ns:
            x = da[da["nodes"] == n]
            if x.empty:
                cells.append("—")
                continue

            def m(metric, f):
                v = x[x["metric"] == metric]["value"]
                return fmt_pct(float(f(v)))
            cells.append(" / ".join([
                m("weight_share_error_median", np.median),
                m("weight_share_error_p95", np.median),
                m("weight_share_error_max", np.median),
                m("weight_share_error_max", np.max)]))
        rows.append([a, src] + cells + [ctx.csv_link("weights")])
    layouts = d.groupby(["algorithm", "nodes"])["repetition"].nunique()
    return ["### Mixed server generations: shares against weights", "",
            "60 % of the servers at weight 1, 30 % at 2, 10 % at 4, dealt "
            "to the servers by a seeded shuffle (kind weight_mix), "
            f"{int(layouts.min())}–{int(layouts.max())} layouts per cell. "
            "Per layout, the share error |share / (w/Σw) − 1| over the "
            "servers: each cell gives the median over the layouts of the "
            "layout's median / 95th percentile / worst server, then the "
            "worst server of any layout. Shares: exact (digest space, from "
            "the state) or from the keys (their sampling error included).",
            "", md_table(["algorithm", "shares"] +
                         [f"N={n:g}" for n in ns] + ["data"], rows), ""]


# ---------------------------------------------------------------------------
# figures: drawn by plots/make_figures.py and shown in this section; each
# entry of FIGURES is (stem, caption, drawing function)

import pandas as pd  # noqa: E402
from matplotlib.ticker import (FuncFormatter,  # noqa: E402
                               PercentFormatter)

from report import common as rc  # noqa: E402
from report import seeds as rseeds  # noqa: E402
from report.draw import Skip, ci_err, need, variant_style  # noqa: E402
from report.draw import med_err as _med_err  # noqa: E402


def fig_vnodes(exps, out):
    (e,) = need(exps, "vnodes")
    d = e.data[(e.data["scenario"] == "measured") & e.data["value"].notna()]
    if d.empty:
        raise Skip("no measured vnodes rows")
    ns = sorted(d["nodes"].dropna().unique())
    fig, axes = style.new_figure(ncols=len(ns), sharey=True,
                                 figsize=(max(7.5, 5.5 * len(ns)), 4.6))
    col = style.algorithm_style(
        style.order_algorithms(d["algorithm"].unique())[0])["color"]
    for ax, n in zip(axes[0], ns):
        dn = d[d["nodes"] == n]
        an = e.summary[(e.summary["scenario"] == "analytic") &
                       (e.summary["nodes"] == n)]
        for m, mk, lab in (("load_max_over_mean", "o", "max/mean"),
                           ("load_min_over_mean", "v", "min/mean")):
            g = dn[dn["metric"] == m].groupby("vnodes")["value"]
            if g.ngroups == 0:
                continue
            mid = g.median()
            ax.fill_between(mid.index, g.quantile(0.025).values,
                            g.quantile(0.975).values, color=col,
                            alpha=0.15 if "max" in m else 0.25, linewidth=0)
            ax.plot(mid.index, mid.values, color=col, marker=mk,
                    label=f"ring {lab}: median (band: 95 % of repetitions)")
            a_ = an[an["metric"] == m].sort_values("vnodes")
            if not a_.empty:
                ax.plot(a_["vnodes"], a_["median"],
                        label=f"model expectation {lab}",
                        **{**style.ANALYTIC_KW,
                           "linestyle": ":" if "max" in m else "-."})
        for cl in rseeds.SEED_CLAIMS:
            st = cl["setting"]
            if cl["metric"] in ("load_max_over_mean",
                                "load_min_over_mean") and \
                    st.get("nodes") == n:
                # the article's own key count: a run with fewer keys per
                # node has more sampling spread than the article had
                ax.plot([st["vnodes"]], [cl["article"]],
                        label=f"article ({cl['source']}), {n:g} nodes, "
                        f"{st['keys']:,} keys", **style.ARTICLE_KW)
        ax.axhline(1.0, color="#999999", linewidth=0.8)
        ax.set_xscale("log")
        # log: max/mean 1.0–1.3 (the range that decides a vnode count)
        # and min/mean down to 0.01 both stay readable
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.yaxis.set_minor_formatter(FuncFormatter(
            lambda v, _: f"{v:g}" if f"{v:.2g}"[-1] in "1235" and
            0.5 <= v <= 2 else ""))
        ax.set_xlabel("virtual nodes per node")
        keys = dn["keys"].dropna().unique()
        ax.set_title(f"N = {n:g}" + (f", {keys[0]:,.0f} keys"
                                     if len(keys) == 1 else ""))
    axes[0][0].set_ylabel("keys on node / mean keys per node (log)")
    leg = style.legend_outside(fig, axes, ncol=3)
    fig.suptitle("Ring balance vs virtual nodes (median over repetitions)")
    return style.save_figure(fig, out, "vnodes_balance", [e.meta], leg)


# min/mean below this is drawn as a stub at the axis floor with its value
# written on it: the balance differences of 0.9–1.1 stay readable.
BALANCE_FLOOR = 0.6


def fig_balance(exps, out):
    """Per N, max/mean (top row) and min/mean (bottom row) per algorithm:
    bars from 1.0 (perfect) up or down to the median, error bars the
    median's 95 % CI or min–max of 2–5 repetitions, the model expectation
    where a model fits (a dash), and the key count written on the bars
    of cells timed with fewer keys than the others at that N (a cap)."""
    (e,) = need(exps, "balance")
    from report import balance as rbal
    s, ks = rc.restrict(e.summary, "keyset", "uniform")
    s, hs = rc.restrict(s, "hash", "xxh64")
    d = s[s["scenario"] == "measured"]
    ns = sorted(d["nodes"].dropna().unique())
    if not ns:
        raise Skip("no measured balance rows")
    fig, axes = style.new_figure(ncols=len(ns), nrows=2, sharey="row",
                                 figsize=(max(7.5, 5 * len(ns)), 7.5))
    vars_ = rc.variants(d)
    x = np.arange(len(vars_))
    lows = []
    for j, n in enumerate(ns):
        dn = d[d["nodes"] == n]
        keys = dn[dn["metric"] == "load_max_over_mean"]["keys"].dropna()
        most = keys.max() if not keys.empty else None
        for row, m in enumerate(("load_max_over_mean",
                                 "load_min_over_mean")):
            ax = axes[row][j]
            for i, var in enumerate(vars_):
                r = rc.one(rc.match_variant(dn[dn["metric"] == m], var))
                if r is None or pd.isna(r.get("median")):
                    continue
                kw = variant_style(var, vars_)
                v = float(r["median"])
                shown = max(v, BALANCE_FLOOR) if row else v
                ax.bar(x[i], shown - 1.0, 0.7, bottom=1.0,
                       color=kw["color"], alpha=kw.get("alpha", 1),
                       edgecolor="white",
                       yerr=None if shown != v else _med_err(r, v),
                       capsize=2)
                if shown != v:
                    lows.append(v)
                    ax.text(x[i], BALANCE_FLOOR + 0.005, f"{v:.2g}\u2193",
                            ha="center", va="bottom", fontsize=6.5,
                            color="black", fontweight="bold")
                a = rc.match_variant(s[(s["scenario"] == "analytic") &
                                       (s["nodes"] == n) &
                                       (s["metric"] == m)], var)
                f = rc.var_filter(var)
                if not a.empty and rbal.model_fits(s, nodes=n, **f):
                    ax.plot([x[i]], [a["median"].iloc[0]],
                            label="model expectation", **{
                                **style.ANALYTIC_KW, "marker": "_",
                                "markersize": 14, "linestyle": "none",
                                "markeredgewidth": 2})
                k = r.get("keys")
                if row == 0 and most and k and not pd.isna(k) and k < most:
                    # inside the bar, from its foot: the model's dash and
                    # the error bar stay clear
                    ax.text(x[i], 1.004, f"{k:,.0f} keys (capped)",
                            rotation=90, ha="center", va="bottom",
                            fontsize=6, color="white", fontweight="bold")
            ax.axhline(1.0, color="#999999", linewidth=0.8)
            ax.set_xticks(x)
            if row == 1:
                ax.set_xticklabels([rc.variant_label(v) for v in vars_],
                                   rotation=30, ha="right")
            else:
                ax.set_xticklabels([])
                ax.set_title(f"N = {n:g}" + (f", {most:,.0f} keys"
                                             if most else ""))
    if lows:
        for ax in axes[1]:
            ax.set_ylim(bottom=BALANCE_FLOOR - 0.02)
    axes[0][0].set_ylabel("max/mean (median; bars from 1 = perfect)")
    axes[1][0].set_ylabel("min/mean (median)"
                          + (f"; below {BALANCE_FLOOR:g}: value written"
                             if lows else ""))
    from matplotlib.lines import Line2D
    handles = [Line2D([], [], color="black", linewidth=1,
                      label="error bar: 95 % CI of the median, or min–max "
                            "of 2–5 repetitions")]
    an = [ln for ax in axes.flat for ln in ax.get_lines()
          if ln.get_label() == "model expectation"]
    if an:
        handles.append(an[0])
    leg = style.legend_outside(fig, axes, handles=handles,
                               labels=[h.get_label() for h in handles])
    fig.suptitle("Load balance per algorithm: median max/mean and min/mean"
                 + (f", key set {ks}" if ks else "")
                 + (f", hash {hs}" if hs else "")
                 + " (model expectation where a model fits)")
    return style.save_figure(fig, out, "balance_by_algorithm", [e.meta], leg)


def _heat(ax, mat, fmt, cmap, title, vmin=None, vmax=None):
    im = ax.imshow(mat.values, cmap=cmap, aspect="auto", vmin=vmin,
                   vmax=vmax)
    ax.set_xticks(range(mat.shape[1]))
    ax.set_xticklabels(mat.columns, rotation=30, ha="right")
    ax.set_yticks(range(mat.shape[0]))
    ax.set_yticklabels(mat.index)
    ax.grid(False)
    for i in range(mat.shape[0]):
        for j in range(mat.shape[1]):
            v = mat.values[i, j]
            if not np.isnan(v):
                # black on light cells, white on dark ones (by the cell
                # colour's luminance, whatever the colour map's direction)
                r, g, b, _ = im.cmap(im.norm(v))
                light = 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5
                ax.text(j, i, fmt(v), ha="center", va="center", fontsize=7,
                        color="black" if light else "white")
    ax.set_title(title)
    return im


def fig_hashes(exps, out):
    (e,) = need(exps, "hashes")
    s = e.summary
    d = s[(s["metric"] == "load_max_over_mean") &
          (s["scenario"].isin(["measured", ""]))]
    if d.empty:
        raise Skip("no hash balance rows")
    d = d[d["nodes"] == d["nodes"].max()]
    algos = style.order_algorithms(d["algorithm"].unique())
    fig, axes = style.new_figure(ncols=len(algos),
                                 figsize=(max(6, 4.2 * len(algos)), 4.6),
                                 sharey=True)
    vmin, vmax = 1.0, float(d["median"].max())
    im = None
    for ax, a in zip(axes[0], algos):
        mat = d[d["algorithm"] == a].pivot_table(
            index="hash", columns="keyset", values="median")
        im = _heat(ax, mat, lambda v: f"{v:.2f}", "viridis",
                   f"{a}: max/mean", vmin, vmax)
        ax.set_xlabel("key set")
    axes[0][0].set_ylabel("hash function")
    if im is not None:
        cb = fig.colorbar(im, ax=list(axes[0]), shrink=0.85, pad=0.02)
        cb.set_label("max/mean load (median; 1 = perfect)")
    n = d["nodes"].dropna().unique()
    fig.suptitle("Balance per hash × key set" +
                 (f" (N = {n[0]:g})" if len(n) == 1 else ""))
    return style.save_figure(fig, out, "hashes_balance", [e.meta])


def fig_hashes_speed(exps, out):
    (e,) = need(exps, "hashes")
    s = e.summary
    d = s[s["metric"] == "hash_ns"]
    if d.empty:
        raise Skip("no hash_ns rows")
    mat = d.pivot_table(index="hash", columns="keyset", values="median",
                        aggfunc="median")
    fig, axes = style.new_figure(figsize=(6.5, 4.6))
    im = _heat(axes[0][0], mat, lambda v: f"{v:.3g}", "magma_r",
               "hash cost, ns per key (median)")
    cb = fig.colorbar(im, ax=axes[0][0])
    cb.set_label("ns per key")
    axes[0][0].set_xlabel("key set")
    axes[0][0].set_ylabel("hash function")
    return style.save_figure(fig, out, "hashes_speed", [e.meta])


def fig_bounded_load(exps, out):
    (e,) = need(exps, "bounded_load")
    s, n = bounded_rows(e)
    bl = bounded_scheme(e)
    if bl is None:
        raise Skip("no bounded-load scheme (registry.json) in the run")
    base = chdata.bounds_loads_of(bl)
    ring = e.summary[(e.summary["algorithm"] == base) &
                     (e.summary["nodes"] == n)]
    col = style.algorithm_style(bl)
    rcol = style.algorithm_style(base)
    fig, axes = style.new_figure(ncols=2)
    ax = axes[0][0]
    m = s[(s["metric"] == "load_max_over_mean") &
          (s["scenario"] == "measured")].sort_values("load_factor")
    if not m.empty:
        ax.errorbar(m["load_factor"], m["median"], yerr=ci_err(m),
                    color=col["color"], marker=col["marker"], capsize=2,
                    label=f"{bl} max/mean (median, 95 % CI)")
    a = s[(s["metric"] == "load_max_over_mean") &
          (s["scenario"] == "analytic")].sort_values("load_factor")
    if not a.empty:
        ax.plot(a["load_factor"], a["median"],
                label="bound ⌈c·m/n⌉ / (m/n)", **style.IDEAL_KW)
    r = ring[(ring["metric"] == "load_max_over_mean") &
             (ring["scenario"] == "measured")]
    if not r.empty:
        rm = r.groupby("load_factor")["median"].median() \
            if r["load_factor"].notna().any() else None
        if rm is not None:
            ax.plot(rm.index, rm.values, color=rcol["color"],
                    marker=rcol["marker"], label=f"{base} max/mean (no cap)")
        else:
            ax.axhline(r["median"].median(), color=rcol["color"],
                       label=f"{base} max/mean (no cap)")
    ax.set_xlabel("load factor c = 1 + ε")
    ax.set_ylabel("keys on busiest node / mean")
    ax.set_title("balance vs c")
    ax2 = axes[0][1]
    for sc, ls in (("add", "-"), ("remove_random", "--")):
        d = s[(s["metric"] == "moved_fraction") & (s["scenario"] == sc)
              ].sort_values("load_factor")
        if d.empty:
            continue
        ax2.plot(d["load_factor"], d["median"], color=col["color"],
                 marker=col["marker"], linestyle=ls,
                 label=f"moved on {sc.replace('_', ' ')}")
        o = s[(s["metric"] == "moved_optimal_fraction") &
              (s["scenario"] == sc)].sort_values("load_factor")
        if not o.empty:
            ax2.plot(o["load_factor"], o["median"],
                     label=f"optimum ({sc.replace('_', ' ')})",
                     **{**style.IDEAL_KW, "linestyle": ls, "color":
                        "black" if sc == "add" else "#666666"})
    ax2.set_yscale("log")
    ax2.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax2.set_xlabel("load factor c = 1 + ε")
    ax2.set_ylabel("keys moved, fraction of all keys (log)")
    ax2.set_title("disruption vs c")
    leg = style.legend_outside(fig, axes, ncol=3)
    k = s["keys"].dropna()
    kpn = f", {k.iloc[0] / n:,.0f} keys per node" if n and not k.empty \
        else ""
    fig.suptitle("Bounded load" + (f" (N = {n:g}{kpn}; disruption = "
                                   "from-scratch replays on N and N±1)"
                                   if n else ""))
    return style.save_figure(fig, out, "bounded_load", [e.meta], leg)


def fig_weights(exps, out):
    (e,) = need(exps, "weights")
    d = e.data[(e.data["metric"] == "share") & e.data["value"].notna()]
    meas = d[d["scenario"] == "measured"]
    if meas.empty:
        raise Skip("no measured share rows")
    fig, axes = style.new_figure()
    ax = axes[0][0]
    algos = style.order_algorithms(meas["algorithm"].unique())
    span = meas["weight"].max() - meas["weight"].min()
    step = 0.04 * (span if span > 0 else 1)
    for i, a in enumerate(algos):
        ma = meas[meas["algorithm"] == a]
        g = ma.groupby(["node", "weight"])["value"]
        med = g.median().reset_index()
        lo = g.min().values
        hi = g.max().values
        off = (i - (len(algos) - 1) / 2) * step
        kw = style.line_kw(a, linestyle="none")
        ax.errorbar(med["weight"] + off, med["value"],
                    yerr=[med["value"] - lo, hi - med["value"]], capsize=2,
                    **kw)
    an = d[d["scenario"] == "analytic"]
    if not an.empty:
        ideal = an.groupby("weight")["value"].median()
        ax.plot(ideal.index, ideal.values, label="ideal w / Σw",
                **style.IDEAL_KW)
    na = e.not_applicable()
    if not na.empty:
        na = na[na["metric"] == "share"]
    if not na.empty:
        ax.text(0.02, 0.98, "no weights (n/a): " + ", ".join(
            style.order_algorithms(na["algorithm"].unique())),
            transform=ax.transAxes, va="top", fontsize=7, color="#444444")
    ax.set_xlabel("node weight")
    ax.set_ylabel("share of keys (median; bars: min–max of repetitions)")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    leg = style.legend_outside(fig, axes)
    fig.suptitle("Weighted shares vs weight")
    return style.save_figure(fig, out, "weights_shares", [e.meta], leg)


FIGURES = [
    ("vnodes_balance", "Ring max/mean and min/mean vs vnodes (mean, 95 % "
     "band of repetitions, model expectation)",
     fig_vnodes),
    ("balance_by_algorithm", "Load balance per algorithm",
     fig_balance),
    ("hashes_balance", "Balance per hash × key set (max/mean)",
     fig_hashes),
    ("hashes_speed", "Hash cost per hash × key set",
     fig_hashes_speed),
    ("bounded_load", "Bounded load: max/mean and disruption vs c",
     fig_bounded_load),
    ("weights_shares", "Weighted shares vs weight (ideal line)",
     fig_weights),
]

# Where each figure sits: under the subsection whose heading starts so
# (the others after the section's first paragraph).
# The weight changes and mixed generations: their tables are long, and the
# main report keeps the per-node shares.
PAGE_ONLY = ("### Weight changes", "### Mixed server generations")

FIGURE_UNDER = {"vnodes_balance": "### Ring: balance vs virtual nodes",
                "hashes_balance": "### Balance per hash",
                "hashes_speed": "### Balance per hash",
                "bounded_load": "### Bounded load",
                "weights_shares": "### Weights"}

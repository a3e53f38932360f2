"""Load balance. Measured extremes compared like with like with the
model: the analytic rows are the model's EXPECTATION (for the ring with
v = 1 the runner emits the exact E[max]·n = H_n, E[min]·n = 1/n), so they
sit beside the measured MEAN with the mean's 95 % interval. Also: ring
balance vs vnodes, balance per hash × key set (hash cost on an explicitly
chosen key set), bounded load (keys per node, replay model) and weights."""

import chdata
import style
from report.common import (Cell, filt, fmt_med, fmt_num,
                           fmt_pct, fmt_value, keys_per_node, mcell, md_table,
                           med, na_note, one, pick_n, ref_note, render,
                           replay_model, restrict, summary_of, var_filter,
                           variant_label, variants)
from report.questions import q

# Key set for the per-hash cost column: URL-like strings are the typical
# string key; chosen explicitly (not the alphabetically first key set).
HASH_COST_KEYSET = "url"


def _analytic(ctx, exp, metric, **f):
    def fn(exps):
        return fmt_value(med(summary_of(exps, exp), metric=metric,
                             scenario="analytic", **f), "x")
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
        out += ["Keys on the busiest / least loaded node over the mean "
                "load: MEAN over repetitions [95 % CI of the mean], beside "
                "the model's expectation of the same quantity (\"model E\", "
                "same key count). 1.0 is perfect. Fewer keys per node mean "
                "a larger max/mean by chance alone."
                + (f" Key set `{ks}`." if ks else "")
                + (f" Hash `{hs}`." if hs else ""), ""]
        rows = []
        for var in variants(s[s["scenario"] == "measured"]):
            f = var_filter(var)
            sv = filt(s, **f)
            for n in ns:
                g = dict(nodes=n, scenario="measured")
                mx = one(filt(sv, metric="load_max_over_mean", **g))
                if mx is None:
                    continue
                rows.append([
                    variant_label(var), str(n), fmt_num(mx.get("keys")),
                    mcell(ctx, "balance", "x", mean=True,
                          metric="load_max_over_mean", **g, **_ksh(ks, hs),
                          **f),
                    _analytic(ctx, "balance", "load_max_over_mean",
                              nodes=n, **_ksh(ks, hs), **f),
                    mcell(ctx, "balance", "x", mean=True,
                          metric="load_min_over_mean", **g, **_ksh(ks, hs),
                          **f),
                    _analytic(ctx, "balance", "load_min_over_mean",
                              nodes=n, **_ksh(ks, hs), **f),
                    mcell(ctx, "balance", "sci", mean=True,
                          metric="load_rel_stddev", **g, **_ksh(ks, hs),
                          **f),
                    ctx.data_links("balance")])
        out += [render(ctx, ["algorithm", "N", "keys", "max/mean: mean",
                             "model E", "min/mean: mean", "model E",
                             "rel. stddev: mean", "data"], rows), ""]
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
    for n in sorted(d["nodes"].dropna().unique()):
        dn = d[d["nodes"] == n]
        for vn in sorted(dn["vnodes"].dropna().unique()):
            r = [f"{n:g}", f"{vn:g}"]
            for m in ("load_max_over_mean", "load_min_over_mean"):
                vals = dn[(dn["vnodes"] == vn) & (dn["metric"] == m)]["value"]
                lo, hi = chdata.quantile_band(vals)
                r.append(mcell(ctx, "vnodes", "x", mean=True, metric=m,
                               nodes=n, vnodes=vn, scenario="measured"))
                r.append(f"{lo:.3g}–{hi:.3g}")
                r.append(_analytic(ctx, "vnodes", m, nodes=n, vnodes=vn))
            r.append(fmt_num(med(v.summary, nodes=n, vnodes=vn,
                                 metric="memory_bytes")))
            r.append(ctx.data_links("vnodes"))
            rows.append(r)
    return ["### Ring: balance vs virtual nodes", "",
            "Mean over repetitions [95 % CI of the mean], the central 95 % "
            "of individual repetitions (2.5–97.5 percentile), and the "
            "model's expectation (v = 1: exact H_N / N·N and 1/N; otherwise "
            "the stated model).", "",
            render(ctx, ["N", "vnodes", "max/mean: mean", "95 % of runs",
                         "model E", "min/mean: mean", "95 % of runs",
                         "model E", "memory bytes", "data"], rows), ""]


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
           "Median max/mean [95 % CI]"
           + (f" at N = {hn:g}" if hn is not None else "")
           + "; the worst key set per hash is what to look at. Hash cost: "
           f"median ns per key of the hash alone on the `{cost_ks}` key "
           "set" + (" (chosen: typical string keys)"
                    if cost_ks == HASH_COST_KEYSET else
                    f" (`{HASH_COST_KEYSET}` not measured)") + ".", ""]
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
             f"⌈c·m/N⌉) at N = {bn:g}, medians [95 % CI]. " if bn else "")
            + replay_model("bounded_load") + " Above the ring's own max/mean the cap never "
            "binds, so large c behaves like the plain ring.", "",
            render(ctx, ["c", "keys per node", "max/mean",
                         "cap ⌈c·m/n⌉/(m/n)", "add: moved", "add: optimum",
                         "remove: moved", "remove: optimum", "data"], rows),
            ""]


def _vn(s):
    v = s["vnodes"].dropna().unique()
    return f"{v[0]:g}" if len(v) == 1 else "its"


def weights_table(ctx):
    w = ctx.exps.get("weights")
    if w is None:
        return []
    d = w.data[(w.data["metric"] == "share") & w.data["value"].notna()]
    ideal = d[d["scenario"] == "analytic"]
    meas = d[d["scenario"] == "measured"]
    rows = []
    for a in style.order_algorithms(w.data["algorithm"].unique()):
        ma = meas[meas["algorithm"] == a]
        if ma.empty:
            rows.append([a, na_note(w, algorithm=a) or "—", "",
                         ctx.csv_link("weights")])
            continue
        m = ma.groupby("node")["value"].median()
        ia = ideal[ideal["algorithm"] == a].set_index("node")["value"]
        rel = ((m - ia).abs() / ia).dropna()
        rows.append([a, fmt_pct(rel.max()), fmt_pct(rel.mean()),
                     ctx.csv_link("weights")])
    return ["### Weights: measured share vs w/Σw", "",
            "Relative error of each node's median share over repetitions "
            "against w/Σw.", "",
            md_table(["algorithm", "worst relative error",
                      "mean relative error", "data"], rows), ""]


# ---------------------------------------------------------------------------
# figures: drawn by plots/make_figures.py and shown in this section; each
# entry of FIGURES is (stem, caption, drawing function)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.ticker import PercentFormatter  # noqa: E402

from report import common as rc  # noqa: E402
from report import seeds as rseeds  # noqa: E402
from report.draw import Skip, ci_err, need, variant_style  # noqa: E402


def fig_vnodes(exps, out):
    (e,) = need(exps, "vnodes")
    d = e.data[(e.data["scenario"] == "measured") & e.data["value"].notna()]
    if d.empty:
        raise Skip("no measured vnodes rows")
    ns = sorted(d["nodes"].dropna().unique())
    fig, axes = style.new_figure(ncols=len(ns), sharey=True,
                                 figsize=(max(7.5, 5.5 * len(ns)), 4.6))
    col = style.algorithm_style("ring")["color"]
    for ax, n in zip(axes[0], ns):
        dn = d[d["nodes"] == n]
        an = e.summary[(e.summary["scenario"] == "analytic") &
                       (e.summary["nodes"] == n)]
        for m, mk, lab in (("load_max_over_mean", "o", "max/mean"),
                           ("load_min_over_mean", "v", "min/mean")):
            g = dn[dn["metric"] == m].groupby("vnodes")["value"]
            if g.ngroups == 0:
                continue
            mean = g.mean()
            ax.fill_between(mean.index, g.quantile(0.025).values,
                            g.quantile(0.975).values, color=col,
                            alpha=0.15 if "max" in m else 0.25, linewidth=0)
            ax.plot(mean.index, mean.values, color=col, marker=mk,
                    label=f"ring {lab}: mean (band: 95 % of repetitions)")
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
                ax.plot([st["vnodes"]], [cl["article"]],
                        label=f"article (003), {n:g} nodes",
                        **style.ARTICLE_KW)
        ax.axhline(1.0, color="#999999", linewidth=0.8)
        ax.set_xscale("log")
        ax.set_xlabel("virtual nodes per node")
        keys = dn["keys"].dropna().unique()
        ax.set_title(f"N = {n:g}" + (f", {keys[0]:,.0f} keys"
                                     if len(keys) == 1 else ""))
    axes[0][0].set_ylabel("keys on node / mean keys per node")
    leg = style.legend_outside(fig, axes, ncol=3)
    fig.suptitle("Ring balance vs virtual nodes")
    return style.save_figure(fig, out, "vnodes_balance", [e.meta], leg)


def fig_balance(exps, out):
    (e,) = need(exps, "balance")
    s, ks = rc.restrict(e.summary, "keyset", "uniform")
    s, hs = rc.restrict(s, "hash", "xxh64")
    d = s[s["scenario"] == "measured"]
    ns = sorted(d["nodes"].dropna().unique())
    if not ns:
        raise Skip("no measured balance rows")
    fig, axes = style.new_figure(ncols=len(ns), sharey=True,
                                 figsize=(max(7.5, 5 * len(ns)), 4.6))
    vars_ = rc.variants(d)
    for ax, n in zip(axes[0], ns):
        dn = d[d["nodes"] == n]
        x = np.arange(len(vars_))
        for i, var in enumerate(vars_):
            dv = rc.match_variant(dn, var)
            kw = variant_style(var, vars_)
            for m, off, hatch in (("load_max_over_mean", -0.2, None),
                                  ("load_min_over_mean", 0.2, "///")):
                r = dv[dv["metric"] == m]
                if r.empty:
                    continue
                r = r.iloc[0]
                err = None
                if not pd.isna(r["median_ci_low"]):
                    err = [[max(0, r["median"] - r["median_ci_low"])],
                           [max(0, r["median_ci_high"] - r["median"])]]
                ax.bar(x[i] + off, r["median"], 0.38, color=kw["color"],
                       alpha=kw.get("alpha", 1), hatch=hatch,
                       edgecolor="white", yerr=err, capsize=2)
            a = s[(s["scenario"] == "analytic") & (s["nodes"] == n) &
                  (s["metric"] == "load_max_over_mean")]
            a = rc.match_variant(a, var)
            mx = dv[dv["metric"] == "load_max_over_mean"]
            if not a.empty and not mx.empty:
                # like with like: the model's expectation vs the MEAN
                ax.plot([x[i] - 0.2], [mx["mean"].iloc[0]], linestyle="none",
                        marker="o", markersize=4, color="black",
                        label="measured mean max/mean")
            if not a.empty:
                ax.plot([x[i] - 0.2], [a["median"].iloc[0]],
                        label="model expectation of max/mean", **{
                            **style.ANALYTIC_KW, "marker": "_",
                            "markersize": 14, "linestyle": "none",
                            "markeredgewidth": 2})
        ax.axhline(1.0, color="#999999", linewidth=0.8)
        ax.set_xticks(x)
        ax.set_xticklabels([rc.variant_label(v) for v in vars_],
                           rotation=30, ha="right")
        ax.set_title(f"N = {n:g}")
    axes[0][0].set_ylabel("load / mean (bars: median ± its 95 % CI)")
    from matplotlib.patches import Patch
    handles = [Patch(facecolor="#888888", label="max/mean"),
               Patch(facecolor="#888888", hatch="///", edgecolor="white",
                     label="min/mean")]
    for lab in ("model expectation of max/mean", "measured mean max/mean"):
        an = [ln for ln in axes[0][0].get_lines() if ln.get_label() == lab]
        if an:
            handles.append(an[0])
    leg = style.legend_outside(fig, axes, handles=handles,
                               labels=[h.get_label() for h in handles])
    fig.suptitle("Load balance per algorithm (model expectation beside the "
                 "measured mean)"
                 + (f", key set {ks}" if ks else "")
                 + (f", hash {hs}" if hs else ""))
    return style.save_figure(fig, out, "balance_by_algorithm", [e.meta], leg)


def _heat(ax, mat, fmt, cmap, title, vmin=None, vmax=None):
    im = ax.imshow(mat.values, cmap=cmap, aspect="auto", vmin=vmin,
                   vmax=vmax)
    ax.set_xticks(range(mat.shape[1]))
    ax.set_xticklabels(mat.columns, rotation=30, ha="right")
    ax.set_yticks(range(mat.shape[0]))
    ax.set_yticklabels(mat.index)
    ax.grid(False)
    vals = mat.values[~np.isnan(mat.values)]
    mid = (np.nanmin(vals) + np.nanmax(vals)) / 2 if vals.size else 0
    for i in range(mat.shape[0]):
        for j in range(mat.shape[1]):
            v = mat.values[i, j]
            if not np.isnan(v):
                ax.text(j, i, fmt(v), ha="center", va="center", fontsize=7,
                        color="white" if v > mid else "black")
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
    ring = e.summary[(e.summary["algorithm"] == "ring") &
                     (e.summary["nodes"] == n)]
    col = style.algorithm_style("bounded_load")
    rcol = style.algorithm_style("ring")
    fig, axes = style.new_figure(ncols=2)
    ax = axes[0][0]
    m = s[(s["metric"] == "load_max_over_mean") &
          (s["scenario"] == "measured")].sort_values("load_factor")
    if not m.empty:
        ax.errorbar(m["load_factor"], m["median"], yerr=ci_err(m),
                    color=col["color"], marker=col["marker"], capsize=2,
                    label="bounded_load max/mean (median, 95 % CI)")
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
                    marker=rcol["marker"], label="ring max/mean (no cap)")
        else:
            ax.axhline(r["median"].median(), color=rcol["color"],
                       label="ring max/mean (no cap)")
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
FIGURE_UNDER = {"vnodes_balance": "### Ring: balance vs virtual nodes",
                "hashes_balance": "### Balance per hash",
                "hashes_speed": "### Balance per hash",
                "bounded_load": "### Bounded load",
                "weights_shares": "### Weights"}

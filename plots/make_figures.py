#!/usr/bin/python3
"""Draws every chbench figure (PNG + SVG) from the results tree.

Usage:
  /usr/bin/python3 plots/make_figures.py --results DIR --out DIR
      [--tier TIER] [--strict] [--only STEM]

One function per figure (FIGURE_FUNCS, stems as in report.figures.FIGURES).
Points are medians with the 95 % CI of the median as error bars or bands
(no bar where there is no interval: n < 6 or n_eff = 1); noisy cells are
drawn with hollow markers. The cluster figures (Q10) draw means over
seeds with the Student-t 95 % interval of the mean (cascades: the seeds'
min–max), as the section's tables do.
A figure whose experiment is missing is skipped with a message. A figure
that fails is reported and skipped; --strict turns that into exit status 1
(the test uses it). Files are written atomically by style.save_figure.
"""

import sys as _sys
_sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import argparse
import math
import os
import sys
import traceback

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import style  # noqa: E402  (selects Agg first)
import chdata  # noqa: E402
from report import cluster as rcl  # noqa: E402
from report import common as rc  # noqa: E402
from report import overprovision as rover  # noqa: E402
from report import presets as rpre  # noqa: E402
from report import removal as rrem  # noqa: E402
from report import seeds as rseeds  # noqa: E402
from report.balance import bounded_rows  # noqa: E402
from report.figures import FIGURES  # noqa: E402

from matplotlib.ticker import FuncFormatter, PercentFormatter  # noqa: E402

plt = style.plt


class Skip(Exception):
    """Raised when a figure cannot be drawn for lack of data."""


def need(exps, *names):
    missing = [n for n in names if n not in exps]
    if missing:
        raise Skip("no results for experiment(s): " + ", ".join(missing))
    return [exps[n] for n in names]


def variant_style(var, all_vars, counts=None):
    """Line kwargs for an algorithm variant; several variants of one
    algorithm differ by line style and lightness. With counts (points per
    variant, same order as all_vars) the best-covered variant (the default
    parameters) gets the solid, full-colour line."""
    a = var["algorithm"]
    same = [v for v in all_vars if v["algorithm"] == a]
    if counts is not None:
        cnt = {id(v): c for v, c in zip(all_vars, counts)}
        same.sort(key=lambda v: -cnt.get(id(v), 0))
    kw = style.line_kw(a)
    kw["label"] = rc.variant_label(var) if len(same) > 1 else a
    if len(same) > 1:
        i = same.index(var)
        kw["linestyle"] = ["-", "--", ":", "-."][i % 4]
        kw["alpha"] = 1.0 - 0.5 * i / max(1, len(same) - 1)
    return kw


def ci_err(d):
    """[lower, upper] error-bar lengths from the median CI (0 where none)."""
    lo = (d["median"] - d["median_ci_low"]).clip(lower=0).fillna(0)
    hi = (d["median_ci_high"] - d["median"]).clip(lower=0).fillna(0)
    return [lo, hi]


def hollow_noisy(ax, d, kw, x="nodes", y="median"):
    """Redraws noisy points (summary noisy = 1) as hollow markers."""
    nz = d[d["noisy"].fillna(0) >= 1] if "noisy" in d.columns else d[:0]
    if nz.empty:
        return
    ax.plot(nz[x], nz[y], linestyle="none",
            marker=kw.get("marker", "o"), markersize=8,
            markerfacecolor="white", markeredgecolor=kw.get("color"),
            zorder=6)


def noisy_handle():
    from matplotlib.lines import Line2D
    return Line2D([], [], linestyle="none", marker="o", markersize=7,
                  markerfacecolor="white", markeredgecolor="black",
                  label="hollow: noisy cell")


def drop_peers(exps, s, name="lookup"):
    e = exps.get(name)
    if e is None:
        return s
    peers = set(e.data.loc[e.data["note"].str.startswith("peer of"),
                           "algorithm"])
    return s[~s["algorithm"].isin(peers)]


def plot_metric_vs_nodes(ax, s, metric, scenario=None, yerr=True,
                         label_vars=None):
    """One line per variant; label_vars: the variants of every panel of the
    figure (labels then agree between panels: "ring (v=100)" everywhere,
    not "ring" in the panel where it is the only ring variant)."""
    d = s[s["metric"] == metric]
    if scenario is not None:
        d = d[d["scenario"] == scenario]
    vars_ = rc.variants(d)
    if label_vars is not None:
        vars_ = [v for v in label_vars if not rc.match_variant(d, v).empty]
    counts = [rc.match_variant(d, v)["nodes"].nunique()
              for v in vars_]
    if label_vars is not None:
        allc = [rc.match_variant(s[s["metric"] == metric], v)["nodes"]
                .nunique() for v in label_vars]
        vars_all, counts_all = label_vars, allc
    else:
        vars_all, counts_all = vars_, counts
    for var in vars_:
        dv = rc.match_variant(d, var).sort_values("nodes")
        dv = dv[dv["median"].notna()]
        if dv.empty:
            continue
        kw = variant_style(var, vars_all, counts_all)
        if yerr and dv["median_ci_low"].notna().any():
            ax.errorbar(dv["nodes"], dv["median"], yerr=ci_err(dv),
                        capsize=2, **kw)
        else:
            ax.plot(dv["nodes"], dv["median"], **kw)
        hollow_noisy(ax, dv, kw)
    return vars_


def log_axes(ax, x=True, y=True):
    if x:
        ax.set_xscale("log")
    if y:
        ax.set_yscale("log")


# --------------------------------------------------------------------------
# figures

def fig_lookup(exps, out, metric="lookup_ns", stem="lookup_vs_nodes",
               what="Lookup time (throughput)"):
    (e,) = need(exps, "lookup")
    s = drop_peers(exps, e.summary)
    if s[s["metric"] == metric].empty:
        raise Skip(f"no {metric} rows")
    fig, axes = style.new_figure(ncols=2, sharey=True)
    both = s[(s["metric"] == metric) &
             s["scenario"].isin(["prehashed", "string"])]
    all_vars = rc.variants(both)
    for ax, sc in zip(axes[0], ("prehashed", "string")):
        plot_metric_vs_nodes(ax, s, metric, sc, label_vars=all_vars)
        if sc == "string":
            h = s[(s["metric"] == "hash_ns") & (s["scenario"] == "string")]
            if not h.empty:
                hm = h.groupby("nodes")["median"].median()
                ax.plot(hm.index, hm.values, color="black", linestyle="--",
                        marker="x", label="hash only (string key)")
        log_axes(ax)
        sn = sorted(both[both["scenario"] == sc]["nodes"].dropna().unique())
        ax.set_title(f"{sc} keys" + (" (includes hashing the key)"
                                     if sc == "string" else "")
                     + (f"\ntimed at N = {sn[0]:,.0f} only"
                        if len(sn) == 1 else ""))
        if len(sn) == 1:
            ax.set_xlim(axes[0][0].get_xlim())
        ax.set_xlabel("nodes N")
    axes[0][0].set_ylabel(f"{what}, ns per lookup (median, 95 % CI of "
                          "the median)")
    handles, labels = [], []
    for ax in axes[0]:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    handles.append(noisy_handle())
    labels.append(handles[-1].get_label())
    leg = style.legend_outside(fig, axes, handles=handles, labels=labels)
    fig.suptitle(f"{what} vs number of nodes")
    return style.save_figure(fig, out, stem, [e.meta], leg)


def fig_lookup_latency(exps, out):
    return fig_lookup(exps, out, "lookup_latency_ns",
                      "lookup_latency_vs_nodes",
                      "Lookup latency (dependent chain)")


def fig_memory(exps, out):
    (e,) = need(exps, "memory")
    s = e.summary[e.summary["placed_keys"].isna()]
    fig, axes = style.new_figure(ncols=2)
    for ax, metric, lab in zip(axes[0], ("memory_bytes",
                                         "memory_bytes_per_node"),
                               ("memory, bytes", "memory per node, bytes")):
        if s[s["metric"] == metric].empty:
            ax.text(0.5, 0.5, f"no {metric} rows", transform=ax.transAxes,
                    ha="center")
            continue
        plot_metric_vs_nodes(ax, s, metric, yerr=False)
        log_axes(ax)
        ax.set_xlabel("nodes N")
        ax.set_ylabel(lab + " (self-reported)")
    axes[0][0].set_title("total")
    axes[0][1].set_title("per node")
    leg = style.legend_outside(fig, axes)
    fig.suptitle("Memory vs number of nodes (ring at several vnode counts)")
    return style.save_figure(fig, out, "memory_vs_nodes", [e.meta], leg)


def fig_build(exps, out):
    (e,) = need(exps, "build")
    s = e.summary
    metrics = [("build_ns", "build from scratch"),
               ("add_node_ns", "add one node"),
               ("remove_node_ns", "remove one node")]
    fig, axes = style.new_figure(ncols=3, figsize=(13, 4.4))
    for ax, (m, title) in zip(axes[0], metrics):
        if s[s["metric"] == m].empty:
            ax.text(0.5, 0.5, f"no {m} rows", transform=ax.transAxes,
                    ha="center")
        else:
            plot_metric_vs_nodes(ax, s, m)
            log_axes(ax)
        na = e.not_applicable()
        na = na[na["metric"] == m]
        if not na.empty:
            ax.text(0.02, 0.98, "n/a: " + ", ".join(
                style.order_algorithms(na["algorithm"].unique())),
                transform=ax.transAxes, va="top", fontsize=7,
                color="#444444")
        ax.set_title(title)
        ax.set_xlabel("nodes N")
        ax.set_ylabel("time, ns (median, 95 % CI of the median)")
    leg = style.legend_outside(fig, axes)
    fig.suptitle("Build / add / remove time vs number of nodes")
    return style.save_figure(fig, out, "build_vs_nodes", [e.meta], leg)


def fig_disruption(exps, out):
    (e,) = need(exps, "disruption")
    s = e.summary
    fig, axes = style.new_figure(ncols=2, nrows=2, figsize=(11, 7.5))
    for j, (sc, opt_lab) in enumerate((("add", "optimum 1/(N+1)"),
                                       ("remove_random", "optimum 1/N"))):
        ax = axes[0][j]
        plot_metric_vs_nodes(ax, s, "moved_fraction", sc)
        _mark_capped(ax, s[(s["metric"] == "moved_fraction") &
                           (s["scenario"] == sc)])
        if sc == "remove_random":
            # Algorithms that can only remove the last node (jump) run
            # remove_last instead (results/README.md): draw it, labelled.
            # (not-applicable remove_random rows have no value: skip them)
            have = set(s[(s["scenario"] == sc) &
                         (s["metric"] == "moved_fraction") &
                         s["median"].notna()]["algorithm"])
            last = s[(s["scenario"] == "remove_last") &
                     (s["metric"] == "moved_fraction") &
                     ~s["algorithm"].isin(have)]
            for a in style.order_algorithms(last["algorithm"].unique()):
                dl = last[last["algorithm"] == a].sort_values("nodes")
                ax.plot(dl["nodes"], dl["median"], **style.line_kw(
                    a, linestyle=":", label=f"{a} (last node removed)"))
        opt = s[(s["metric"] == "moved_optimal_fraction") &
                (s["scenario"] == sc)].groupby("nodes")["median"].median()
        if not opt.empty:
            ax.plot(opt.index, opt.values, label=opt_lab, zorder=10,
                    **style.IDEAL_KW)
        log_axes(ax)
        ax.set_ylabel("keys moved, fraction of all keys")
        ax.set_title({"add": "add one node",
                      "remove_random": "remove one random node"}[sc] +
                     f" — {opt_lab}")
        na = e.not_applicable()
        na = na[na["scenario"] == sc]
        if not na.empty:
            ax.text(0.02, 0.02, "n/a: " + ", ".join(
                style.order_algorithms(na["algorithm"].unique())),
                transform=ax.transAxes, fontsize=7, color="#444444")
        ax2 = axes[1][j]
        plot_metric_vs_nodes(ax2, s, "moved_excess_fraction", sc)
        ax2.set_xscale("log")
        ax2.set_yscale("symlog", linthresh=1e-4)
        ax2.set_ylim(bottom=0)
        ax2.set_ylabel("excess moves, fraction (symlog; 0 = minimal)")
        ax2.set_xlabel("nodes N")
        ax2.set_title("keys moved that did not have to")
    # unify the optimum label in the legend
    for ax in axes[0]:
        for ln in ax.get_lines():
            if ln.get_label().startswith("optimum"):
                ln.set_label("optimum (1/(N+1) add, 1/N remove)")
    leg = style.legend_outside(fig, axes)
    fig.suptitle("Disruption: keys moved vs number of nodes")
    return style.save_figure(fig, out, "disruption_vs_nodes", [e.meta], leg)


def _mark_capped(ax, d):
    """Rings and a note on the points of cells placed with fewer keys than
    the others at the same N (a key cap: more sampling spread)."""
    d = d[d["median"].notna() & d["keys"].notna()]
    if d.empty:
        return
    most = d.groupby("nodes")["keys"].transform("max")
    cap = d[d["keys"] < most]
    for _, r in cap.iterrows():
        kw = style.line_kw(r["algorithm"])
        ax.plot([r["nodes"]], [r["median"]], linestyle="none", marker="o",
                markersize=11, markerfacecolor="none",
                markeredgecolor=kw["color"], zorder=7)
        ax.annotate(f"{r['algorithm']}: {r['keys']:,.0f} keys (capped)",
                    (r["nodes"], r["median"]), textcoords="offset points",
                    xytext=(-6, 8), ha="right", fontsize=6,
                    color=kw["color"])


MULTI = ["remove_10pct_random", "remove_30pct_random", "remove_50pct_random",
         "remove_10pct_lifo", "remove_30pct_lifo", "remove_50pct_lifo"]


def fig_disruption_multi(exps, out):
    (e,) = need(exps, "disruption")
    s = e.summary
    d = s[(s["metric"] == "moved_fraction") & s["scenario"].isin(MULTI)]
    if d.empty:
        raise Skip("no multi-removal scenarios")
    n = rc.pick_n(d["nodes"], 100)
    d = d[d["nodes"] == n]
    scen = [x for x in MULTI if x in set(d["scenario"])]
    vars_ = rc.variants(s[s["nodes"] == n])
    fig, axes = style.new_figure(figsize=(10, 4.8))
    ax = axes[0][0]
    width = 0.8 / max(1, len(vars_))
    x = np.arange(len(scen))
    for i, var in enumerate(vars_):
        dv = rc.match_variant(d, var).set_index("scenario")
        ys = [dv["median"].get(sc, np.nan) for sc in scen]
        kw = variant_style(var, vars_)
        ax.bar(x + (i - (len(vars_) - 1) / 2) * width, ys, width,
               color=kw["color"], alpha=kw.get("alpha", 1.0),
               label=kw["label"], edgecolor="white", linewidth=0.4)
        for k, y in enumerate(ys):
            if isinstance(y, float) and math.isnan(y):
                ax.text(x[k] + (i - (len(vars_) - 1) / 2) * width, 0.005,
                        "n/a", rotation=90, ha="center", va="bottom",
                        fontsize=6, color=kw["color"])
    opt = s[(s["metric"] == "moved_optimal_fraction") & (s["nodes"] == n)
            ].groupby("scenario")["median"].median()
    ax.scatter(x, [opt.get(sc, np.nan) for sc in scen], marker="_", s=900,
               color="black", zorder=5, label="optimum r/N")
    ax.set_xticks(x)
    ax.set_xticklabels([sc.replace("remove_", "").replace("pct", " %")
                        .replace("_", " ") for sc in scen])
    ax.set_ylabel("keys moved, fraction of all keys")
    ax.set_xlabel("nodes removed (random order vs last-added-first)")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    leg = style.legend_outside(fig, axes)
    fig.suptitle(f"Removing many nodes at N = {n}")
    return style.save_figure(fig, out, "disruption_multi", [e.meta], leg)


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


def _med_err(r, v=None):
    """[[lower], [upper]] error-bar lengths from a summary row's interval
    (common.interval: the median's 95 % CI, or min–max of 2–5
    repetitions), or None."""
    iv = rc.interval(r, False) if r is not None else None
    if iv is None:
        return None
    v = float(r["median"]) if v is None else v
    return [[max(0, v - iv[0])], [max(0, iv[1] - v)]]


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


def fig_seeds(exps, out):
    (e,) = need(exps, "seeds")
    rows = rseeds.seed_rows(exps)
    rows = [r for r in rows if r["found"]]
    for r in rows:
        # r["band_lo"], r["band_hi"]: the central 95 % of the repetitions,
        # the band the table's inside/outside is judged on (seed_rows)
        row = r["row"] or {}
        r["ci_lo"] = float(row.get("median_ci_low", float("nan")))
        r["ci_hi"] = float(row.get("median_ci_high", float("nan")))
    if not rows:
        raise Skip("no seed scenarios matched SEED_CLAIMS")
    fig, axes = style.new_figure(nrows=len(rows),
                                 figsize=(8, 0.75 * len(rows) + 0.8))
    fig.subplots_adjust(hspace=1.6, top=1 - 0.45 / (0.75 * len(rows) + 0.8))
    col = style.algorithm_style("ring")["color"]
    for ax, r in zip(axes[:, 0], rows):
        k = r["fmt"]
        scale = 100.0 if k == "pct" else 1.0
        ax.hlines(0, r["band_lo"] * scale, r["band_hi"] * scale, color=col,
                  alpha=0.35, linewidth=7)
        if not math.isnan(r["ci_lo"]):
            ax.hlines(0, r["ci_lo"] * scale, r["ci_hi"] * scale, color=col,
                      linewidth=2.5)
        ax.plot([r["median"] * scale], [0], "o", color=col, markersize=5)
        ax.plot([r["article"] * scale], [0], **style.ARTICLE_KW)
        lo = min(r["band_lo"], r["article"]) * scale
        hi = max(r["band_hi"], r["article"]) * scale
        pad = (hi - lo) * 0.15 or max(abs(hi) * 0.05, 0.5)
        ax.set_xlim(lo - pad, hi + pad)
        ax.set_ylim(-1, 1)
        ax.set_yticks([])
        ax.grid(False, axis="y")
        ax.tick_params(axis="x", labelsize=7, pad=1)
        unit = {"pct": " %", "x": "×", "int": ""}[k]
        ax.xaxis.set_major_formatter(FuncFormatter(
            lambda v, _, u=unit: f"{v:g}{u}"))
        zt = "" if math.isnan(r["pct"]) else \
            f", {r['pct']:.0f} % of ours below"
        ax.set_title(f"{r['id']} · {r['label']} — article "
                     f"{rc.fmt_value(r['article'], k)}, ours "
                     f"{rc.fmt_value(r['median'], k)}{zt}"
                     + (" (outside)" if r["outside"] else ""),
                     loc="left", fontsize=8, pad=3)
        for sp in ("top", "right", "left"):
            ax.spines[sp].set_visible(False)
    from matplotlib.lines import Line2D
    handles = [Line2D([], [], color=col, linewidth=7, alpha=0.35,
                      label="ours: central 95 % of repetitions"),
               Line2D([], [], color=col, linewidth=2.5,
                      label="ours: 95 % CI of the median"),
               Line2D([], [], color=col, marker="o", linestyle="none",
                      label="ours: median"),
               Line2D([], [], label="article value", **style.ARTICLE_KW)]
    leg = style.legend_outside(fig, axes, ncol=4, handles=handles,
                               labels=[h.get_label() for h in handles])
    fig.suptitle("Seed articles' numbers vs our measurements", y=1.0)
    return style.save_figure(fig, out, "seeds", [e.meta], leg)


def _pct_axis(ax):
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("nodes removed, fraction of N built")


def fig_removal_lookup(exps, out):
    (e,) = need(exps, "removal")
    lk = rrem.lookup_rows(e.summary)
    lk = lk[lk["median"].notna()]
    if lk.empty:
        raise Skip("no lookup rows in the removal experiment")
    n = lk["nodes"].max()
    lk = lk[lk["nodes"] == n].assign(fraction=lambda d: d["removed"] /
                                     d["nodes"])
    orders = [o for o in rrem.ORDER_PREFERENCE if o in set(lk["removal"])]
    orders += sorted(set(lk["removal"]) - set(orders))
    fig, axes = style.new_figure(ncols=len(orders), sharey=True,
                                 figsize=(max(7.5, 5.2 * len(orders)), 4.8))
    vars_ = rc.variants(lk)
    for ax, order in zip(axes[0], orders):
        d = lk[lk["removal"] == order]
        for var in vars_:
            dv = rc.match_variant(d, var).sort_values("fraction")
            if dv.empty:
                continue
            kw = variant_style(var, vars_)
            if dv["median_ci_low"].notna().any():
                ax.errorbar(dv["fraction"], dv["median"], yerr=ci_err(dv),
                            capsize=2, **kw)
            else:
                ax.plot(dv["fraction"], dv["median"], **kw)
            hollow_noisy(ax, dv, kw, x="fraction")
        ax.set_yscale("log")
        _pct_axis(ax)
        only = sorted(set(d["algorithm"]) - set(
            lk[lk["removal"] != order]["algorithm"]))
        ax.set_title(f"{order} order" + (
            " (only the last node can leave: " + ", ".join(only) + ")"
            if only and order == "lifo" else ""), fontsize=8)
    axes[0][0].set_ylabel("lookup time, ns (prehashed; median, 95 % CI "
                          "of the median)")
    handles, labels = [], []
    for ax in axes[0]:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    handles.append(noisy_handle())
    labels.append(handles[-1].get_label())
    leg = style.legend_outside(fig, axes, handles=handles, labels=labels)
    fig.suptitle(f"Lookup time after node failures, N = {n:g} built")
    return style.save_figure(fig, out, "removal_lookup", [e.meta], leg)


def fig_removal_state(exps, out):
    (e,) = need(exps, "removal")
    st = rrem.state_rows(e.summary)
    st = st[st["scenario"] == "oneshot"]
    if st.empty:
        raise Skip("no oneshot removal rows")
    n = st["nodes"].max()
    st = st[st["nodes"] == n].assign(fraction=lambda d: d["removed"] /
                                     d["nodes"])
    rand = set(st[st["removal"] == "random"]["algorithm"])
    fig, axes = style.new_figure(ncols=2, figsize=(11.5, 4.8))
    vars_ = rc.variants(st)
    panels = (("memory_bytes_per_node", "median",
               "bytes per node built (self-reported)"),
              ("load_max_over_mean", "median",
               "max/mean (median over repetitions)"))
    for ax, (metric, stat, ylab) in zip(axes[0], panels):
        d = st[st["metric"] == metric]
        for var in vars_:
            a = var["algorithm"]
            order = "random" if a in rand else "lifo"
            dv = rc.match_variant(d[d["removal"] == order], var)
            dv = dv[dv[stat].notna()].sort_values("fraction")
            if dv.empty:
                continue
            kw = variant_style(var, vars_)
            if order != "random":
                kw["label"] = kw["label"] + " (LIFO order)"
                kw["linestyle"] = ":"
            if stat == "mean" and dv["mean_ci_low"].notna().any():
                err = [(dv["mean"] - dv["mean_ci_low"]).clip(lower=0)
                       .fillna(0),
                       (dv["mean_ci_high"] - dv["mean"]).clip(lower=0)
                       .fillna(0)]
                ax.errorbar(dv["fraction"], dv["mean"], yerr=err, capsize=2,
                            **kw)
            else:
                ax.plot(dv["fraction"], dv[stat], **kw)
        if metric == "memory_bytes_per_node":
            ax.set_yscale("log")
        else:
            ax.axhline(1.0, color="#999999", linewidth=0.8)
        _pct_axis(ax)
        ax.set_ylabel(ylab)
    axes[0][0].set_title("memory after the removals")
    axes[0][1].set_title("balance over the live nodes")
    leg = style.legend_outside(fig, axes)
    fig.suptitle(f"State after node failures, N = {n:g} built\n(random "
                 "order; dotted: algorithms with LIFO-only data, in LIFO "
                 "order)", y=1.03)
    return style.save_figure(fig, out, "removal_state", [e.meta], leg)


def _place_labels(ax, pts, fontsize=6, gap=7.5):
    """Annotates each point with its label, shifting labels up (in points)
    so that labels of nearby points do not overlap (greedy, by y)."""
    fig = ax.figure
    fig.canvas.draw()
    to_pt = 72.0 / fig.dpi
    disp = [(ax.transData.transform((p["x"], p["y"])), p) for p in pts]
    disp.sort(key=lambda t: (t[0][1], t[0][0]))
    labels = [p["label"] + ("" if p["source"] == "overprovision"
                            else " (default)") for _, p in disp]
    heights = style.stack_labels(
        [(xd * to_pt, yd * to_pt + 3, 0.55 * fontsize * len(lab))
         for ((xd, yd), _), lab in zip(disp, labels)], gap)
    for ((xd, yd), p), lab, y_pt in zip(disp, labels, heights):
        dy = y_pt - yd * to_pt
        ax.annotate(lab, (p["x"], p["y"]), textcoords="offset points",
                    xytext=(4, dy), fontsize=fontsize,
                    fontweight="bold" if p["front"] else "normal",
                    arrowprops=dict(arrowstyle="-", color="#999999",
                                    linewidth=0.4) if dy > 6 else None)


def fig_pareto(exps, out):
    (e,) = need(exps, "overprovision")
    pts, n, _ = rover.points(exps)
    if not pts:
        raise Skip("no overprovision variant with balance and lookup rows")
    front = rover.pareto(pts)
    fig, axes = style.new_figure(figsize=(9, 6))
    ax = axes[0][0]
    seen = set()
    for p in pts:
        a = p["var"]["algorithm"]
        kw = style.line_kw(a, linestyle="none")
        kw["label"] = a if a not in seen else "_" + a
        seen.add(a)
        xr, yr = p["x_row"], p["y_row"]
        xerr = _med_err(xr, p["x"])
        yerr = None
        if not pd.isna(yr.get("median_ci_low")):
            yerr = [[max(0, p["y"] - yr["median_ci_low"])],
                    [max(0, yr["median_ci_high"] - p["y"])]]
        ax.errorbar([p["x"]], [p["y"]], xerr=xerr, yerr=yerr, capsize=2,
                    markersize=7 if p["front"] else 5, **kw)
        if rc.is_noisy(yr):
            ax.plot([p["x"]], [p["y"]], linestyle="none",
                    marker=kw["marker"], markersize=9,
                    markerfacecolor="white", markeredgecolor=kw["color"],
                    zorder=6)
    fx = [p["x"] for p in front]
    fy = [p["y"] for p in front]
    ax.plot(fx, fy, drawstyle="steps-post", color="black", linestyle="--",
            linewidth=1, label="Pareto front (point estimates)", zorder=1)
    ax.set_xscale("log")
    ax.set_yscale("log")
    noadd = rc.cannot_add(None, exps)
    for p in pts:   # "a = N: no free bucket" where it applies
        p["label"] = rover._label(p, noadd)
    _place_labels(ax, pts)
    ax.set_xlabel("max/mean load (median over repetitions; bars: 95 % CI "
                  "of the median, or min–max of 2–5); 1 = perfect")
    ax.set_ylabel("lookup time, ns (prehashed; median, 95 % CI of the "
                  "median)")
    handles, labels = ax.get_legend_handles_labels()
    handles.append(noisy_handle())
    labels.append(handles[-1].get_label())
    leg = style.legend_outside(fig, axes, handles=handles, labels=labels)
    kpn = rc.keys_per_node(pts[0]["x_row"])
    default = any(p["source"] != "overprovision" for p in pts)
    fig.suptitle(f"Lookup time against balance, N = {n:g}"
                 + (f", {kpn}" if kpn else "")
                 + " (bold labels: on the front"
                 + ("; \"(default)\": balance + lookup experiments"
                    if default else "") + ")")
    metas = [e.meta] + [exps[x].meta for x in ("balance", "lookup")
                        if x in exps and any(p["source"] != "overprovision"
                                             for p in pts)]
    return style.save_figure(fig, out, "pareto_lookup_balance", metas, leg)


def _mean_err(r, v):
    lo, hi = r.get("mean_ci_low"), r.get("mean_ci_high")
    if lo is None or hi is None or pd.isna(lo) or pd.isna(hi):
        return None
    return [[max(0, v - lo)], [max(0, hi - v)]]


# Presets: style.py's colour-blind-safe spare palette (Paul Tol's "muted")
# crossed with filled markers no algorithm uses; every preset gets its own
# (colour, marker) pair, and the plain algorithms keep their own styles.
PRESET_MARKERS = ["o", "s", "D", "h"]


def preset_styles(names):
    """{preset: {'color', 'marker'}}, a distinct pair for each, in order."""
    cols = style.SPARE_COLORS
    return {p: {"color": cols[i % len(cols)],
                "marker": PRESET_MARKERS[(i // len(cols)) %
                                         len(PRESET_MARKERS)]}
            for i, p in enumerate(names)}


def fig_presets(exps, out):
    """Left: each preset and plain algorithm at N = 10 (nearest N), x =
    max/mean load, y = keys moved on add over the optimum (medians over
    key-set seeds; bars: min–max of the seeds, or the 95 % CI of the
    median). Right: max/mean vs N. Each preset has its own colour and
    marker; plain algorithms are hollow, in their algorithm colour."""
    (e,) = need(exps, "presets")
    reg = chdata.load_registry(os.path.dirname(os.path.dirname(e.run_dir)))
    meta = {p["name"]: p for p in reg.get("presets", []) if p.get("name")}
    s = e.summary
    if s.empty:
        raise Skip("no presets rows")
    n = rc.pick_n(s["nodes"], rpre.PREFERRED_N)
    names = list(dict.fromkeys(s["algorithm"]))
    pstyle = preset_styles([a for a in meta if a in names])
    fig, axes = style.new_figure(ncols=2, figsize=(13, 6.5))
    ax, ax2 = axes[0][0], axes[0][1]
    pts = []
    for a in names:
        is_pre = a in meta
        xr = rpre.row(s, a, n, "static", "load_max_over_mean")
        yr = rpre.row(s, a, n, "add", "moved_over_optimum")
        x, y = rpre.med_of(xr), rpre.med_of(yr)
        if is_pre:
            kw = dict(color=pstyle[a]["color"], marker=pstyle[a]["marker"],
                      linestyle="none")
        else:
            kw = style.line_kw(a, linestyle="none")
            kw["markerfacecolor"] = "none"
            kw["markeredgewidth"] = 1.4
        kw["label"] = a + ("" if is_pre else " (algorithm)")
        if not (math.isnan(x) or math.isnan(y)):
            ax.errorbar([x], [y], xerr=_med_err(xr, x), yerr=_med_err(yr, y),
                        capsize=2, markersize=7, **kw)
            pts.append(dict(x=x, y=y, label=a, source="overprovision",
                            front=False))
        d = s[(s["algorithm"] == a) & (s["scenario"] == "static") &
              (s["metric"] == "load_max_over_mean")].sort_values("nodes")
        if not d.empty:
            lkw = dict(kw)
            lkw["linestyle"] = "-" if is_pre else "--"
            lkw["label"] = "_" + a   # one legend entry per name (left)
            ax2.plot(d["nodes"], d["median"], markersize=5, **lkw)
    if not pts:
        raise Skip("no preset with both max/mean and moved on add")
    ax.axhline(1.0, color="black", linewidth=0.8, linestyle=":",
               label="1: the joiner gets a fair share (1/(N+1))")
    _place_labels(ax, pts)
    ax.set_xlabel(f"max/mean load at N = {n} (median over key-set seeds; "
                  "bars: min–max or 95 % CI); 1 = perfect")
    ax.set_ylabel(f"keys moved on adding server {n + 1} / optimum "
                  "(median);\nbelow 1: the joining server gets less than a "
                  "fair share")
    ax2.set_xscale("log")
    ax2.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax2.xaxis.set_minor_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax2.set_xlabel("N servers")
    ax2.set_ylabel("max/mean load (median over key-set seeds)")
    ax2.set_title("solid: presets; dashed, hollow: plain algorithms",
                  fontsize=8)
    h1, l1 = ax.get_legend_handles_labels()
    leg = style.legend_outside(fig, axes, handles=h1, labels=l1, ncol=4)
    fig.suptitle(f"Production presets vs plain algorithms, N = {n}")
    return style.save_figure(fig, out, "presets_balance_moved", [e.meta],
                             leg)


# --- cluster (Q10) -----------------------------------------------------------


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


def _t_err(d):
    """[lower, upper] error-bar lengths from the Student-t interval of the
    mean (0 where none: n = 1)."""
    lo = (d["mean"] - d["mean_ci_low"]).clip(lower=0).fillna(0)
    hi = (d["mean_ci_high"] - d["mean"]).clip(lower=0).fillna(0)
    return [lo, hi]


def fig_cluster_timeline(exps, out):
    """Hit ratio (top) and database reads (bottom) per time bucket around
    the event, one line per algorithm (mean over seeds), for a join (left)
    and a death (right); the control runs' median over algorithms dotted;
    the event marked. The stampede block of Q10a (mode sim, N = 10, the
    configuration with the most algorithms: rcl.stampede_block)."""
    e = _cluster(exps)
    s = e.summary
    blk, n, cfg = rcl.stampede_block(s)
    if blk.empty:
        raise Skip("no sim add/remove rows")
    d = rcl.per_bucket(s)
    d = d[(d["mode"] == "sim") & (d["nodes"] == n)]
    d = d[rcl.cfg_mask(d, cfg)]
    scs = [sc for sc in ("add", "remove") if sc in set(d["scenario"])]
    if not scs:
        raise Skip("no per-bucket add/remove rows")
    fig, axes = style.new_figure(ncols=len(scs), nrows=2,
                                 figsize=(6.5 * len(scs), 7.5),
                                 sharex="col")
    for j, sc in enumerate(scs):
        ds = d[d["scenario"] == sc]
        pr = blk[blk["scenario"] == sc]
        vars_ = rc.variants(ds)
        lab = rcl.labels(vars_)
        for i, (m, cm) in enumerate((("hit_ratio", "control_hit_ratio"),
                                     ("db_reads", "control_db_reads"))):
            ax = axes[i][j]
            for var in vars_:
                dv = rc.match_variant(ds[ds["metric"] == m], var)
                dv = dv.sort_values("bucket")
                if dv.empty:
                    continue
                kw = _cl_style(var, vars_, lab)
                kw["marker"] = None
                ax.plot(dv["bucket"], dv["mean"], linewidth=1.2, **kw)
            ctl = ds[ds["metric"] == cm].groupby("bucket")["mean"].median()
            if not ctl.empty:
                ax.plot(ctl.index, ctl.values, color="black",
                        linestyle=":", linewidth=1.6,
                        label="control runs (no event; median over "
                        "algorithms)")
            ev = pr[pr["metric"] == "event_bucket"]["mean"].dropna()
            if not ev.empty:
                ax.axvline(float(ev.iloc[0]) - 0.5, color="#C00000",
                           linewidth=1.0, linestyle="--",
                           label="event (start of its bucket)")
            ax.set_ylabel("hit ratio (mean over seeds)" if i == 0 else
                          "database reads per bucket (mean over seeds)")
            if i == 0:
                ax.set_title(f"{sc}: {rcl.SCENARIO_WHAT[sc]} (N = {n})")
        br = pr[pr["metric"] == "bucket_requests"]["mean"].dropna()
        axes[1][j].set_xlabel(
            "time bucket" + (f" ({fmt_int(br.iloc[0])} requests each)"
                             if not br.empty else ""))
    leg = style.legend_outside(fig, axes)
    cache = cfg["cache_items"]
    fig.suptitle(f"Cache cluster around the event: mode sim, "
                 f"{fmt_int(cfg['keys'])} keys, "
                 + (f"LRU {fmt_int(cache)} keys per server" if cache
                    else "no eviction (every server can hold the "
                    "universe)"))
    return style.save_figure(fig, out, "cluster_timeline", [e.meta], leg)


def fmt_int(x):
    return f"{float(x):,.0f}"


def fig_cluster_request_balance(exps, out):
    """Requests of the busiest server over the mean (steady state) against
    the Zipf exponent s, one line per variant (mean over seeds, Student-t
    95 % CI of the mean); bounded_load's bounds c dotted."""
    e = _cluster(exps)
    hf = rcl.hot_findings(e)
    if hf is None:
        raise Skip("no scenario none rows")
    d = hf["rows"]
    d = d[d["metric"] == "steady_request_max_over_mean"]
    if d.empty:
        raise Skip("no steady_request_max_over_mean rows")
    fig, axes = style.new_figure()
    ax = axes[0][0]
    vars_, lab = hf["vars"], hf["labels"]
    for var in vars_:
        dv = rc.match_variant(d, var).sort_values("zipf")
        dv = dv[dv["mean"].notna()]
        if dv.empty:
            continue
        kw = _cl_style(var, vars_, lab)
        ax.errorbar(dv["zipf"], dv["mean"], yerr=_t_err(dv), capsize=2,
                    **kw)
    for b in hf["bounded"]:
        kw = _cl_style(b["var"], vars_, lab)
        ax.axhline(b["c"], color=kw["color"], linestyle=":", linewidth=0.8,
                   alpha=0.7)
    ax.axhline(1.0, label="ideal (every server the mean)", **style.IDEAL_KW)
    ax.set_xlabel("Zipf exponent s of request popularity (0 = uniform)")
    ax.set_ylabel("requests: busiest server / mean (steady state)")
    leg = style.legend_outside(fig, axes)
    fig.suptitle(f"Keys balanced is not requests balanced (N = {hf['n']}, "
                 f"{fmt_int(hf['keys'])} keys; mean over seeds, 95 % CI)")
    return style.save_figure(fig, out, "cluster_request_balance", [e.meta],
                             leg)


def fig_cluster_stale_view(exps, out):
    """Extra database reads (left) and misrouted requests (right) against
    the stale fraction f, one line per algorithm (mean over seeds,
    Student-t 95 % CI of the mean)."""
    e = _cluster(exps)
    sf = rcl.stale_findings(e)
    if sf is None:
        raise Skip("no stale_view rows")
    d = sf["rows"]
    fig, axes = style.new_figure(ncols=2)
    drawn = False
    for ax, m, yl in ((axes[0][0], "extra_db_reads",
                       "extra database reads (run − control)"),
                      (axes[0][1], "misrouted_requests",
                       "misrouted requests over the run")):
        dm = d[d["metric"] == m]
        for var in sf["vars"]:
            dv = rc.match_variant(dm, var).sort_values("stale_fraction")
            dv = dv[dv["mean"].notna()]
            if dv.empty:
                continue
            drawn = True
            ax.errorbar(dv["stale_fraction"], dv["mean"], yerr=_t_err(dv),
                        capsize=2, **_cl_style(var, sf["vars"],
                                               sf["labels"]))
        ax.set_xlabel("stale fraction f of the clients")
        ax.set_ylabel(yl + " (mean over seeds)")
    if not drawn:
        raise Skip("no stale_view values")
    axes[0][0].axhline(0, color="black", linewidth=0.6)
    leg = style.legend_outside(fig, axes)
    fig.suptitle(f"Stale views after a join (N = {sf['n']}): extra reads "
                 "and misrouted requests vs f (95 % CI of the mean)")
    return style.save_figure(fig, out, "cluster_stale_view", [e.meta], leg)


def _fig_cascade(exps, out, scenario, stem):
    """Servers failed after one death against the start utilization u for
    one cascade scenario: one panel per algorithm, one line per variant
    (mean over seeds; band: the seeds' min–max); cascade_mean also draws
    the servers already over capacity before the death (crosses)."""
    e = _cluster(exps)
    cf = rcl.cascade_findings(e, scenario=scenario)
    if cf is None or not cf["per"]:
        raise Skip(f"no {scenario} rows")
    rows = cf["rows"]
    d = rows[rows["metric"] == "servers_failed"]
    ob = rows[rows["metric"] == "overloaded_before_event"]
    algs = list(dict.fromkeys(p["var"]["algorithm"] for p in cf["per"]
                              if p["measured"]))
    if not algs:
        raise Skip("no servers_failed values")
    ncols = min(3, len(algs))
    nrows = math.ceil(len(algs) / ncols)
    fig, axes = style.new_figure(ncols=ncols, nrows=nrows,
                                 figsize=(4.2 * ncols, 2.9 * nrows + 0.8),
                                 sharex=True, sharey=True)
    top = cf["n"] - 1
    draw_ob = cf["any_over"]
    fig_handles, fig_names = [], []
    for k, a in enumerate(algs):
        ax = axes[k // ncols][k % ncols]
        per = [p for p in cf["per"] if p["var"]["algorithm"] == a]
        handles, names = [], []
        for p in per:
            dv = rc.match_variant(d, p["var"]).sort_values("utilization")
            dv = dv[dv["mean"].notna()]
            if dv.empty:
                continue
            kw = _cl_style(p["var"], cf["vars"], cf["labels"])
            ax.fill_between(dv["utilization"], dv["min"], dv["max"],
                            color=kw["color"], alpha=0.12, linewidth=0)
            (h,) = ax.plot(dv["utilization"], dv["mean"], **kw)
            handles.append(h)
            names.append(p["label"].replace(a + " ", "") if len(per) > 1
                         else p["label"])
            if draw_ob:
                do = rc.match_variant(ob, p["var"]).sort_values(
                    "utilization")
                do = do[do["mean"].notna()]
                if not do.empty and (do["max"] > 0).any():
                    ax.plot(do["utilization"], do["mean"],
                            color=kw["color"], linestyle="none",
                            marker="x", markersize=4,
                            alpha=kw.get("alpha", 1.0))
        ax.set_title(a)
        ax.set_xticks(cf["us"])
        ax.set_ylim(-0.4, top + 0.4)
        if len(per) > 1:
            # the variants' names in the figure's legend, below the panels
            # (a legend inside a panel covered its lines)
            fig_handles += handles
            fig_names += [f"{a} {nm}" for nm in names]
    for k in range(len(algs), nrows * ncols):
        axes[k // ncols][k % ncols].set_visible(False)
    for j in range(ncols):
        axes[nrows - 1][j].set_xlabel(
            "utilization u before the death ("
            + ("mean load / capacity" if scenario == "cascade_mean" else
               "busiest server / capacity") + ")")
    for i in range(nrows):
        axes[i][0].set_ylabel(f"servers failed (of {top} left)")
    how = ("equal servers sized for the mean load (same hardware for "
           "every algorithm)" if scenario == "cascade_mean" else
           "servers sized for each algorithm's own busiest server")
    fig.suptitle(f"Cascades after one death, {scenario}: {how} (N = "
                 f"{cf['n']}, Zipf s = {cf['zipf']:g})\nservers failed vs "
                 "u (mean over seeds; band: the seeds' min–max"
                 + ("; crosses: servers already over capacity before the "
                    "death" if draw_ob else "") + ")")
    fig.tight_layout()
    leg = style.legend_outside(fig, axes, handles=fig_handles,
                               labels=fig_names) if fig_handles else None
    return style.save_figure(fig, out, stem, [e.meta], leg)


def fig_cluster_cascade_mean(exps, out):
    """Cascades on equal servers sized for the mean load (cascade_mean)."""
    return _fig_cascade(exps, out, "cascade_mean", "cluster_cascade_mean")


def fig_cluster_cascade(exps, out):
    """Cascades on servers sized for each algorithm's own busiest server
    (cascade)."""
    return _fig_cascade(exps, out, "cascade", "cluster_cascade")


FIGURE_FUNCS = {
    "lookup_vs_nodes": fig_lookup,
    "lookup_latency_vs_nodes": fig_lookup_latency,
    "memory_vs_nodes": fig_memory,
    "build_vs_nodes": fig_build,
    "disruption_vs_nodes": fig_disruption,
    "disruption_multi": fig_disruption_multi,
    "vnodes_balance": fig_vnodes,
    "balance_by_algorithm": fig_balance,
    "hashes_balance": fig_hashes,
    "hashes_speed": fig_hashes_speed,
    "bounded_load": fig_bounded_load,
    "weights_shares": fig_weights,
    "removal_lookup": fig_removal_lookup,
    "removal_state": fig_removal_state,
    "pareto_lookup_balance": fig_pareto,
    "presets_balance_moved": fig_presets,
    "cluster_timeline": fig_cluster_timeline,
    "cluster_request_balance": fig_cluster_request_balance,
    "cluster_stale_view": fig_cluster_stale_view,
    "cluster_cascade_mean": fig_cluster_cascade_mean,
    "cluster_cascade": fig_cluster_cascade,
    "seeds": fig_seeds,
}
assert list(FIGURE_FUNCS) == [s for s, _ in FIGURES]


def _draw(job):
    """Draws one figure; returns (stem, status, text) where status is
    "wrote", "skipped" or "failed" (text: the first path, the reason or the
    traceback). Runs in a worker process (or inline with --jobs 1)."""
    stem, exps, out = job
    try:
        paths = FIGURE_FUNCS[stem](exps, out)
        return stem, "wrote", paths[0]
    except Skip as s:
        return stem, "skipped", str(s)
    except Exception:  # noqa: BLE001 (one broken figure must not stop
        # the others; --strict reports it)
        plt.close("all")
        return stem, "failed", traceback.format_exc()


# The data every worker reads, set before the pool forks (a fork shares it
# instead of pickling the frames for every figure).
_EXPS = None


def _draw_forked(args):
    stem, out = args
    return _draw((stem, _EXPS, out))


def main(argv=None):
    global _EXPS
    ap = argparse.ArgumentParser(description="Draw chbench figures")
    ap.add_argument("--results", default="results")
    ap.add_argument("--out", default="plots/figures")
    ap.add_argument("--tier", default=None,
                    help="use only runs of this tier (default: newest run)")
    ap.add_argument("--only", action="append", default=None,
                    help="draw only this figure stem (repeatable)")
    ap.add_argument("--strict", action="store_true",
                    help="exit 1 if any figure fails (missing data is not "
                    "a failure)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="figures drawn in parallel processes (default: the "
                    "number of CPUs); the output does not depend on it")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        ap.error(f"--jobs must be >= 1, got {args.jobs}")
    if args.only:
        unknown = sorted(set(args.only) - set(FIGURE_FUNCS))
        if unknown:
            ap.error(f"unknown figure {unknown[0]!r}; valid figures: "
                     + ", ".join(FIGURE_FUNCS))
    exps = chdata.load_all(args.results, args.tier)
    os.makedirs(args.out, exist_ok=True)
    stems = [s for s in FIGURE_FUNCS if not args.only or s in args.only]
    jobs = min(args.jobs, len(stems))
    if jobs > 1:
        import multiprocessing
        _EXPS = exps
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(jobs) as pool:
            results = pool.map(_draw_forked, [(s, args.out) for s in stems],
                               chunksize=1)
    else:
        results = [_draw((s, exps, args.out)) for s in stems]
    failed = 0
    for stem, status, text in results:
        if status == "wrote":
            print(f"chbench plots: wrote {text}")
        elif status == "skipped":
            print(f"chbench plots: skipped {stem}: {text}")
        else:
            failed += 1
            print(f"chbench plots: FAILED {stem}:\n{text}", file=sys.stderr,
                  end="")
    return 1 if (failed and args.strict) else 0


if __name__ == "__main__":
    sys.exit(main())

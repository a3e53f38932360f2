"""Disruption. Keys moved on adding / removing a node beside the
optimum, and the data-derived "minimal disruption" judgement.

Minimal disruption is judged relative to the optimum at each N, with the
key count's resolution (judge_minimal): at N, with m keys, optimum share o
and median excess share x, the excess count E = x·m is compared with the
binomial noise of the moved count, σ = sqrt(m·o·(1−o)). The algorithm is
minimal at N when E <= 2σ (excess compatible with 0) or E < 1 % of the
optimal count o·m; minimal overall when minimal at every measured N and
scenario (add, single removal)."""

import math

import chdata
from report.common import (filt, fmt_num, fmt_pct, mcell,
                           med, na_note, cell_note, one, ref_note, render,
                           replay_model,
                           var_filter, variant_label, variants)
from report.questions import q

REL_TOL = 0.01   # excess / optimum below this is minimal
NOISE_SIGMAS = 2.0
SINGLE = ("add", "remove_random", "remove_last")


def judge_at(keys, opt, excess):
    """(ratio excess/optimum, minimal?) at one N, or (nan, None)."""
    if any(math.isnan(x) for x in (keys, opt, excess)) or opt <= 0:
        return float("nan"), None
    e_cnt, o_cnt = excess * keys, opt * keys
    sigma = math.sqrt(keys * opt * (1 - opt))
    minimal = e_cnt <= NOISE_SIGMAS * sigma or e_cnt < REL_TOL * o_cnt
    return excess / opt, bool(minimal)


def judge_minimal(s, var):
    """[(N, scenario, keys, ratio, minimal)] for one variant, and the
    overall verdict (True/False/None when nothing was measured)."""
    sv = filt(s, **var_filter(var))
    out = []
    for sc in SINGLE:
        for n in sorted(sv["nodes"].dropna().unique()):
            ex = one(filt(sv, scenario=sc, nodes=n,
                          metric="moved_excess_fraction"))
            op = one(filt(sv, scenario=sc, nodes=n,
                          metric="moved_optimal_fraction"))
            if ex is None or op is None:
                continue
            k = float(ex.get("keys") if ex.get("keys") is not None
                      else float("nan"))
            ratio, ok = judge_at(k, float(op["median"]),
                                 float(ex["median"]))
            if ok is not None:
                out.append((int(n), sc, k, ratio, ok))
    if not out:
        return out, None
    return out, all(x[4] for x in out)


def worst_ratio(judged):
    r = [x[3] for x in judged if not math.isnan(x[3])]
    return max(r) if r else float("nan")


def section(ctx):
    out = [f"## {q('disruption')}. How many keys move when a node is "
           "added or removed?",
           ""]
    e = ctx.exps.get("disruption")
    if e is None:
        return "\n".join(out + ["_No `disruption` results yet._", ""])
    s = e.summary
    ns = sorted(int(n) for n in s["nodes"].dropna().unique())[:4]
    out += ["Fraction of all keys that changed owner (median over "
            "repetitions [95 % CI of the median]; \"(n=k)\": 2–5 "
            "repetitions, too few for a 95 % interval); optimum = 1/(N+1) on add, 1/N on removing one "
            "node; excess/opt. = keys that moved but did not have to, over "
            "the optimum. \"minimal at N\": the excess count is within "
            f"{NOISE_SIGMAS:g}σ of 0 (σ = binomial noise of the moved count, "
            f"√(m·o·(1−o))) or below {100 * REL_TOL:g} % of the optimal "
            "count. Algorithms that can remove only the last node"
            + (" (" + ", ".join(_last_only(s)) + ")" if _last_only(s)
               else "") + " show `remove_last`, marked \"(last node)\". "
            "`receivers` = "
            "nodes that took the removed node's keys.", ""]
    for a in chdata.algorithm_names():
        if chdata.has_capability(a, "stateful") and \
                (s["algorithm"] == a).any():
            out += [replay_model(a) + " The keys-per-node column applies.",
                    ""]
    out += ref_note(ctx)
    rows = []
    for var in variants(s):
        f = var_filter(var)
        sv = filt(s, **f)
        for n in ns:
            if sv[sv["nodes"] == n].empty and \
                    na_note(e, var=var, nodes=n) is None:
                continue   # this configuration was not run at this N
            k = one(filt(sv, nodes=n, scenario="add"))
            kk = k.get("keys") if k else None
            r = [variant_label(var), str(n),
                 fmt_num(kk) if kk is not None else "—",
                 fmt_num(float(kk) / n) if kk is not None else "—"]
            for sc in ("add", "remove_random"):
                mark = ""
                if sc == "remove_random" and filt(sv, scenario=sc,
                                                  nodes=n).empty and \
                        not filt(sv, scenario="remove_last", nodes=n).empty:
                    sc, mark = "remove_last", " (last node)"
                if filt(sv, scenario=sc, nodes=n,
                        metric="moved_fraction")["median"].isna().all():
                    r += [cell_note(e, var, n, scenario=sc) or "—", "",
                          ""]
                    continue
                r.append(mcell(ctx, "disruption", "pct", scenario=sc,
                               nodes=n, metric="moved_fraction", **f))
                r[-1] = _suffix(r[-1], mark)
                r.append(fmt_pct(med(sv, scenario=sc, nodes=n,
                                     metric="moved_optimal_fraction")))
                ex = med(sv, scenario=sc, nodes=n,
                         metric="moved_excess_fraction")
                op = med(sv, scenario=sc, nodes=n,
                         metric="moved_optimal_fraction")
                ratio, ok = judge_at(float(kk) if kk else float("nan"), op,
                                     ex)
                r.append("—" if ok is None else
                         f"{ratio:.3g} ({'minimal' if ok else 'not minimal'})")
            rc = med(sv, scenario="remove_random", nodes=n,
                     metric="receivers")
            if math.isnan(rc):
                rc = med(sv, scenario="remove_last", nodes=n,
                         metric="receivers")
            r.append(fmt_num(rc))
            r.append(ctx.data_links("disruption"))
            rows.append(r)
    out += [render(ctx, ["algorithm", "N", "keys", "keys per node",
                         "add: moved", "add: optimum", "add: excess/opt.",
                         "remove: moved", "remove: optimum",
                         "remove: excess/opt.", "receivers", "data"], rows),
            ""]
    return "\n".join(out)


def _last_only(s):
    """Algorithms with remove_last rows and no remove_random values."""
    import style
    rr = s[(s["scenario"] == "remove_random") & s["median"].notna()]
    last = s[s["scenario"] == "remove_last"]
    return style.order_algorithms(set(last["algorithm"]) -
                                  set(rr["algorithm"]))


def _suffix(cell, mark):
    if not mark:
        return cell
    fn = cell.fn
    cell.fn = lambda exps: fn(exps) + mark
    return cell


# ---------------------------------------------------------------------------
# figures: drawn by plots/make_figures.py and shown in this section; each
# entry of FIGURES is (stem, caption, drawing function)

import numpy as np  # noqa: E402
from matplotlib.ticker import PercentFormatter  # noqa: E402

import style  # noqa: E402
from report import common as rc  # noqa: E402
from report.draw import (Skip, log_axes, need,  # noqa: E402
                         plot_metric_vs_nodes, variant_style)





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


FIGURES = [
    ("disruption_vs_nodes", "Keys moved on add/remove vs N with the optimum "
     "and the excess",
     fig_disruption),
    ("disruption_multi", "Keys moved when removing 10/30/50 % of nodes "
     "(random vs LIFO)",
     fig_disruption_multi),
]

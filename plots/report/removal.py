"""Node failures (experiment `removal`, results/README.md).

Two row families in one run: kind `removal` (scenario `oneshot` or
`incremental`: keys moved, balance over the live nodes, memory after the
removals, repetitions over seeds) and kind `lookup` (scenario `prehashed`,
lookup time after `removed` of `nodes` failed in `removal` order; timing
rows, repetition = measurement round).

Per algorithm (each at the parameters the spec measured):
  * lookup time at 0 / 50 / 90 % removed (medians with their own CIs) in
    random order, or in LIFO order when the data have no random-order rows
    (range hashes: only the last node can leave), said in the order column;
  * the slowdown at 50 % over 0 %: the median per-round ratio of the two
    cells (the rounds of one order's timing group, common.paired), "within
    noise" when its 95 % CI reaches 1 ± SLOW_MARGIN; without data rows,
    the ratio of the two medians and the overlap of their intervals;
  * bytes per node built at 0 / 50 / 90 % (0 %: the memory experiment at the
    same N, when it has the variant; the removal kind starts at 10 %);
  * max/mean over the live nodes at 50 % (median, as every balance
    number in this report);
  * monotonicity from the data rows: the largest moved_excess_fraction over
    every removal cell of the variant and the largest step_moved_excess of
    its incremental cells; "yes" only when every one of them is exactly 0.

Below the table, the nothing-removed cells of one variant and N timed in
more than one order's group (the same computation measured in different
rounds) are compared: their spread, and the pairs whose 95 % intervals do
not overlap, since a group's interval does not cover what changes between
groups.
"""

import math

import pandas as pd

from report.common import (Cell, filt, fmt_med, fmt_num, fmt_pct, interval,
                           join_names, mcell, one, overlaps, paired, pick_n,
                           ref_note, render,
                           summary_of, var_filter, variant_label, variants)
from report.questions import q

FRACTIONS = (0.0, 0.5, 0.9)
GUIDE_N = 1000
# A per-round slowdown below 1 + SLOW_MARGIN is "within noise" (the
# decision guide's timing margin).
SLOW_MARGIN = 0.05
REMOVAL_SCENARIOS = ("oneshot", "incremental")
ORDER_PREFERENCE = ("random", "fifo", "lifo")


def lookup_rows(s):
    """Summary rows of the lookup kind (everything not a removal scenario)
    with metric lookup_ns."""
    if s is None:
        return None
    return s[~s["scenario"].isin(REMOVAL_SCENARIOS) &
             (s["metric"] == "lookup_ns")]


def state_rows(s):
    """Summary rows of the removal kind."""
    if s is None:
        return None
    return s[s["scenario"].isin(REMOVAL_SCENARIOS)]


def removed_at(nodes, fraction):
    """The removed count the runner uses for a fraction
    (workload/removal.h RemovedCount: llround(f * N), at most N - 1)."""
    r = math.floor(fraction * float(nodes) + 0.5)   # llround, f >= 0
    return float(max(0, min(int(r), int(nodes) - 1)))


def fraction_of(df):
    """removed / nodes per row."""
    return df["removed"] / df["nodes"]


def order_of(df):
    """The order to report a variant in: random when its rows have it, else
    the first of fifo/lifo present; and whether it is a fallback."""
    have = set(df["removal"])
    for o in ORDER_PREFERENCE:
        if o in have:
            return o, o != "random"
    return None, False


def slowdown(r0, r1, timing=True, data=None):
    """(ratio r1 / r0, verdict). With the data rows of both cells (the
    rounds of one order's timing group): the median per-round ratio and
    "within noise" when its 95 % CI reaches [1/(1 + SLOW_MARGIN), 1 +
    SLOW_MARGIN]; otherwise the ratio of the medians and "within noise"
    when the two rows' own intervals overlap; else "slower"/"faster".
    (nan, None) when either row is missing."""
    if r0 is None or r1 is None:
        return float("nan"), None
    m0, m1 = float(r0.get("median", float("nan"))), \
        float(r1.get("median", float("nan")))
    if math.isnan(m0) or math.isnan(m1) or m0 == 0:
        return float("nan"), None
    p = paired(data, r0, r1, free=("removed",)) if data is not None \
        else None
    if p is not None and p["kind"] == "ratio" and p["lo"] is not None:
        ratio = p["est"]
        if p["lo"] <= 1 + SLOW_MARGIN and p["hi"] >= 1 / (1 + SLOW_MARGIN):
            return ratio, "within noise"
        return ratio, "slower" if ratio > 1 else "faster"
    ratio = m1 / m0
    if overlaps(interval(r0, timing), interval(r1, timing)):
        return ratio, "within noise"
    return ratio, "slower" if ratio > 1 else "faster"


def fmt_slowdown(r0, r1, timing=True, data=None):
    ratio, verdict = slowdown(r0, r1, timing, data)
    if verdict is None:
        return "—"
    return f"{ratio:.3g}× ({verdict})"


def baseline_pairs(lk):
    """The nothing-removed lookup rows of one variant and N present in more
    than one order: [(variant dict, nodes, rows sorted by order name,
    max/min of their medians, whether all their intervals overlap)]."""
    if lk is None or lk.empty:
        return []
    z = lk[lk["removed"] == 0]
    out = []
    for var in variants(z):
        zv = filt(z, **var_filter(var))
        for n in sorted(set(zv["nodes"].dropna())):
            rows = [r.to_dict() for _, r in
                    zv[zv["nodes"] == n].sort_values("removal").iterrows()]
            meds = [float(r["median"]) for r in rows]
            if len(rows) < 2 or min(meds) <= 0:
                continue
            agree = all(overlaps(interval(a), interval(b))
                        for i, a in enumerate(rows) for b in rows[i + 1:])
            out.append((var, n, rows, max(meds) / min(meds), agree))
    return out


def _baseline_note(lk):
    pairs = baseline_pairs(lk)
    if not pairs:
        return []
    spread = sorted(p[3] for p in pairs)
    worst = max(pairs, key=lambda p: p[3])
    apart = [p for p in pairs if not p[4]]
    txt = (f"Nothing removed is the same computation in every order's "
           f"group: over the {len(pairs)} algorithm–N pairs timed in more "
           f"than one group, the medians differ by "
           f"{100 * (spread[len(spread) // 2] - 1):.2g} % (median) and at "
           f"most {100 * (worst[3] - 1):.3g} % ({variant_label(worst[0])}, "
           f"N = {int(worst[1])}).")
    if apart:
        txt += (" Intervals apart (the difference between groups exceeds "
                "a group's own interval; each slowdown above uses its own "
                "order's 0 % cell): " + "; ".join(
                    f"{variant_label(v)} N = {int(n)}: " + ", ".join(
                        f"{r['removal']} {fmt_med(r)}" for r in rows)
                    for v, n, rows, _, _ in apart) + ".")
    else:
        txt += " Their intervals all overlap."
    return [txt, ""]


def monotone(data, var):
    """{max_excess, max_step (None without incremental cells), cells,
    monotone (True/False, None without data)} from a removal run's data
    rows for one variant."""
    d = filt(data[data["scenario"].isin(REMOVAL_SCENARIOS)],
             **var_filter(var))
    ex = d[d["metric"] == "moved_excess_fraction"]["value"].dropna()
    st = d[d["metric"] == "step_moved_excess"]["value"].dropna()
    out = {"max_excess": float(ex.max()) if not ex.empty else float("nan"),
           "max_step": float(st.max()) if not st.empty else None,
           "cells": int(len(d[d["metric"] == "moved_excess_fraction"]
                            .drop_duplicates(["nodes", "removal", "removed",
                                              "scenario"]))),
           "monotone": None}
    if not ex.empty:
        out["monotone"] = bool((ex == 0).all() and (st == 0).all())
    return out


def _state_n(s):
    st = state_rows(s)
    st = st[st["scenario"] == "oneshot"] if st is not None else None
    if st is None or st.empty:
        return None
    return float(st["nodes"].max())


def _lookup_n(s, preferred=None):
    """The N of the lookup rows: the largest, or the one nearest
    `preferred` (the guide asks the same question at N = GUIDE_N in every
    tier)."""
    lk = lookup_rows(s)
    if lk is None or lk.empty:
        return None
    if preferred is not None:
        return float(pick_n(lk["nodes"], preferred))
    return float(lk["nodes"].max())


def _lookup_cell(ctx, var, order, n, f):
    return mcell(ctx, "removal", metric="lookup_ns", nodes=n, removal=order,
                 removed=removed_at(n, f), **var_filter(var))


def _slow_cell(var, order, n, f0=0.0, f1=0.5):
    def fn(exps):
        lk = lookup_rows(summary_of(exps, "removal"))
        if lk is None:
            return "—"
        f = var_filter(var)
        r0 = one(filt(lk, nodes=n, removal=order,
                      removed=removed_at(n, f0), **f))
        r1 = one(filt(lk, nodes=n, removal=order,
                      removed=removed_at(n, f1), **f))
        return fmt_slowdown(r0, r1, data=exps["removal"].data)
    return Cell(fn)


def _mem_cell(ctx, var, order, n, f):
    if f == 0.0:
        return mcell(ctx, "memory", metric="memory_bytes_per_node", nodes=n,
                     placed_keys=None, **var_filter(var))
    return mcell(ctx, "removal", metric="memory_bytes_per_node", nodes=n,
                 scenario="oneshot", removal=order, removed=removed_at(n, f),
                 **var_filter(var))


def _mono_cells(var):
    def get(exps):
        e = (exps or {}).get("removal")
        return None if e is None else monotone(e.data, var)

    def excess(exps):
        m = get(exps)
        return "—" if m is None or math.isnan(m["max_excess"]) else \
            fmt_pct(m["max_excess"])

    def step(exps):
        m = get(exps)
        return "—" if m is None or m["max_step"] is None else \
            fmt_num(m["max_step"])

    def verdict(exps):
        m = get(exps)
        if m is None or m["monotone"] is None:
            return "—"
        return "yes" if m["monotone"] else "**no**"
    return Cell(excess), Cell(step), Cell(verdict)


def section(ctx):
    out = [f"## {q('removal')}. What happens when nodes fail?", ""]
    e = ctx.exps.get("removal")
    if e is None:
        return "\n".join(out + ["_No `removal` results yet._", ""])
    s = e.summary
    ln, sn = _lookup_n(s), _state_n(s)
    lk = lookup_rows(s)
    st = state_rows(s)
    fr = sorted(set(round(x, 4) for x in fraction_of(
        pd.concat([lk, st[st["scenario"] == "oneshot"]])).dropna()))
    out += ["N nodes are built, then a fraction of them fail (`removal` "
            "order: `random`, `fifo` = oldest first, `lifo` = newest first)."
            " Order column: `random` where the data have it; algorithms "
            "with only LIFO rows (only the last node can leave) are shown "
            "in LIFO order and say so.", ""]
    if ln:
        out.append(f"- Lookup time: prehashed, ns, at N = {ln:g}; median "
                   "[95 % CI of the median] over measurement rounds of one "
                   "process (within-run intervals). 50 % / 0 %: the median "
                   "per-round ratio of the two cells, \"within noise\" "
                   "when its 95 % CI reaches "
                   f"{1 / (1 + SLOW_MARGIN):.3g}–{1 + SLOW_MARGIN:.3g} "
                   "(one comparison per row, each at 95 %).")
    if sn:
        out.append(f"- State after the failures at N = {sn:g}: bytes per "
                   "node BUILT (self-reported; 0 %: the `memory` experiment "
                   "at the same N, the removal runs start at 10 %).")
        out.append(f"- max/mean over the live nodes at 50 % removed, N = "
                   f"{sn:g}: MEDIAN over repetitions (\"(n=k)\": 2–5 "
                   "repetitions, no 95 % interval), as every balance number "
                   "in this report.")
    out.append("- Monotone: every key that moved was on a failed node. "
               "Shown: the largest `moved_excess_fraction` over all removal "
               "cells of the algorithm (every order, fraction and N) and "
               "the largest `step_moved_excess` of its incremental cells "
               "(keys moved at a single removal that were not on the node "
               "removed at that step); \"yes\" only when all are exactly "
               "0.")
    if fr:
        out.append("- Removed fractions measured: "
                   + ", ".join(f"{100 * x:g} %" for x in fr)
                   + "; the figures show all of them.")
    out.append("")
    out += ref_note(ctx)
    vs = variants(pd.concat([lk, st]))
    rows = []
    for var in vs:
        f = var_filter(var)
        lv = filt(lk, **f)
        sv = filt(st[st["scenario"] == "oneshot"], **f)
        lo, lfb = order_of(lv) if not lv.empty else (None, False)
        so, sfb = order_of(sv) if not sv.empty else (None, False)
        order = lo or so
        fallback = lfb if lo else sfb
        label = order or "—"
        if fallback:
            label = f"{order} only (no random-order rows)"
        if lo and so and lo != so:
            label = f"lookup: {lo}; state: {so}"
        r = [variant_label(var), label]
        for fx in FRACTIONS:
            r.append(_lookup_cell(ctx, var, lo, ln, fx) if lo and ln
                     else "—")
        r.append(_slow_cell(var, lo, ln) if lo and ln else "—")
        for fx in FRACTIONS:
            r.append(_mem_cell(ctx, var, so, sn, fx) if so and sn else "—")
        r.append(mcell(ctx, "removal", "x",
                       metric="load_max_over_mean", nodes=sn,
                       scenario="oneshot", removal=so,
                       removed=removed_at(sn, 0.5), **f)
                 if so and sn else "—")
        r += list(_mono_cells(var))
        links = ctx.data_links("removal")
        if "memory" in ctx.exps:
            links += " " + ctx.data_links("memory")
        r.append(links)
        rows.append(r)
    head = (["algorithm", "order"] +
            [f"lookup ns {100 * x:g} %" for x in FRACTIONS] +
            ["50 % / 0 %"] +
            [f"bytes/node {100 * x:g} %" for x in FRACTIONS] +
            ["max/mean 50 %", "max excess moved", "max step excess (keys)",
             "monotone", "data"])
    out += [render(ctx, head, rows), ""]
    out += _baseline_note(lk)
    mono = [variant_label(v) for v in vs
            if monotone(e.data, v)["monotone"]]
    notm = [variant_label(v) for v in vs
            if monotone(e.data, v)["monotone"] is False]
    if mono or notm:
        out += [("Monotone under every measured failure: "
                 + join_names(mono) + ". " if mono else "")
                + ("Not monotone (some key on a live node moved): "
                   + join_names(notm) + ". " if notm else "")
                + ctx.csv_link("removal"), ""]
    return "\n".join(out)


def guide_items(ctx, exclude, ranked):
    """Decision-guide entries from the removal data (only where they exist):
    the fastest lookup with 50 % of the nodes failed in random order (ties
    declared by `ranked`), with the monotonicity verdicts of the ranked."""
    e = ctx.exps.get("removal")
    if e is None:
        return []
    lk = lookup_rows(e.summary)
    ln = _lookup_n(e.summary, GUIDE_N)
    if lk is None or lk.empty or ln is None:
        return []
    d = lk[(lk["nodes"] == ln) & (lk["removal"] == "random") &
           (lk["removed"] == removed_at(ln, 0.5)) &
           ~lk["algorithm"].isin(exclude)]
    rows = [r.to_dict() for _, r in d.iterrows()]
    txt, who = ranked(ctx, rows, "lookup_ns", unit=" ns", data=e.data)
    if not txt:
        return []
    lifo = sorted(set(lk[lk["removal"] == "lifo"]["algorithm"]) -
                  set(lk[lk["removal"] == "random"]["algorithm"]))
    mono = []
    for r in who or []:
        m = monotone(e.data, r)["monotone"]
        if m is not None:
            mono.append(f"{variant_label(r)} {'monotone' if m else 'NOT monotone'}")
    ex = sorted(set(exclude) & set(lk["algorithm"]))
    return [("failure_lookup",
             f"Fastest lookup with 50 % of N={ln:g} nodes failed in random "
             f"order (arbitrary failures): {txt}."
             + (" In the removal data: " + "; ".join(mono) + "." if mono
                else "")
             + (" LIFO-only in the data (cannot take arbitrary failures): "
                + ", ".join(lifo) + "." if lifo else "")
             + (" Not consistent, excluded: " + ", ".join(ex) + "."
                if ex else "")
             + " " + ctx.csv_link("removal"))]


__all__ = ["section", "guide_items", "monotone", "slowdown", "lookup_rows",
           "baseline_pairs",
           "state_rows", "removed_at", "fmt_med"]


# ---------------------------------------------------------------------------
# figures: drawn by plots/make_figures.py and shown in this section; each
# entry of FIGURES is (stem, caption, drawing function)

from matplotlib.ticker import PercentFormatter  # noqa: E402

import style  # noqa: E402
from report import common as rc  # noqa: E402
from report import removal as rrem  # noqa: E402
from report.draw import (Skip, ci_err, hollow_noisy, need,  # noqa: E402
                         merged_legend, variant_style)


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
    handles, labels = merged_legend(axes[0])
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


FIGURES = [
    ("removal_lookup", "Lookup time after node failures vs the fraction "
     "removed, per removal order (median, 95 % CI of the median; hollow = "
     "noisy)",
     fig_removal_lookup),
    ("removal_state", "Memory per node built and max/mean over the live "
     "nodes vs the fraction removed (random order; LIFO-only algorithms in "
     "LIFO order)",
     fig_removal_state),
]

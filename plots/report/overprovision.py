"""Capacity and probes, lookup time against balance (experiment
`overprovision`, plus each algorithm's default variant from `balance` and
`lookup` at the same N and keys when both exist).

A point is one variant: x = max/mean load, the MEDIAN over repetitions
(the statistic of every balance number in this report), y = prehashed
lookup_ns, the MEDIAN over rounds. Lower is better in both. The Pareto
front is computed from these point estimates: a point is on it when no
other point is at least as good in both coordinates and better in one. A
dominated point is "within noise of the front" when, for every point
dominating it, both coordinates' intervals overlap (common.interval: the
median's 95 % CI, or min–max for 2–5 repetitions), so no dominator is
better beyond the noise. A variant with no free bucket (capacity a = N) is
labelled: it cannot take a node without a rebuild (AnchorHash: add is
`not applicable` in the data) or a remap. With K keys per node an ideal
uniform placement already has an expected max/mean above 1 (the uniform
model rows); where that floor is as large as the differences between
points, their order in max/mean is sampling, which the text says. Default
variants of algorithms the disruption data judge not consistent (worst
excess/optimum > 1, as the decision guide) are left out, and named.
"""

import math

from report import disruption
from report.balance import model_fits, uniform_expectation
from report.common import (Cell, cannot_add, filt, fmt_med, fmt_value,
                           interval, join_names, keys_per_node,
                           match_variant, med, one, overlaps, pick_n,
                           ref_note, render, restrict, var_filter, var_key,
                           variant_label, variants)
from report.questions import q

PREFERRED_N = 1000


def inconsistent(exps):
    """{algorithm: worst excess/optimum} for the algorithms whose measured
    excess exceeds the optimum (disruption data), as guide._consistent."""
    dis = (exps or {}).get("disruption")
    if dis is None:
        return {}
    s = dis.summary
    out = {}
    for a in s["algorithm"].unique():
        ratios = []
        for var in variants(s[s["algorithm"] == a]):
            j, ok = disruption.judge_minimal(s, var)
            if ok is not None:
                ratios.append(disruption.worst_ratio(j))
        ratios = [r for r in ratios if not math.isnan(r)]
        if ratios and max(ratios) > 1.0:
            out[a] = max(ratios)
    return out


def _peers(exps):
    e = (exps or {}).get("lookup")
    if e is None:
        return set()
    d = e.data
    return set(d.loc[d["note"].str.startswith("peer of"), "algorithm"])


def points(exps):
    """(points, N, info): points are dicts {var, label, source, x_row,
    y_row, x, y}; info has 'excluded' {algorithm: ratio} and 'skipped'
    (default variants without a matching key count)."""
    info = {"excluded": {}, "skipped": [], "keys": None}
    op = (exps or {}).get("overprovision")
    if op is None:
        return [], None, info
    s = op.summary
    bal = s[(s["metric"] == "load_max_over_mean") &
            (s["scenario"] == "measured")]
    lk = s[(s["metric"] == "lookup_ns") & (s["scenario"] == "prehashed")]
    n = pick_n(bal["nodes"], PREFERRED_N)
    if n is None:
        return [], None, info
    bal, lk = bal[bal["nodes"] == n], lk[lk["nodes"] == n]
    keys = sorted(bal["keys"].dropna().unique())
    info["keys"] = keys[0] if len(keys) == 1 else None
    pts = []
    for var in variants(bal):
        xr = one(match_variant(bal, var))
        yr = one(match_variant(lk, var))
        if xr is None or yr is None:
            continue
        pts.append(dict(var=var, label=variant_label(var),
                        source="overprovision", x_row=xr, y_row=yr))
    # Each algorithm's default variant (the one the lookup experiment
    # measured at the most N) from balance and lookup at the same N.
    b, lke = (exps or {}).get("balance"), (exps or {}).get("lookup")
    if b is not None and lke is not None:
        from report.headline import default_variant
        bs, _ = restrict(b.summary, "keyset", "uniform")
        bs, _ = restrict(bs, "hash", "xxh64")
        bs = bs[(bs["metric"] == "load_max_over_mean") &
                (bs["scenario"] == "measured") & (bs["nodes"] == n)]
        ls = lke.summary
        ls = ls[(ls["metric"] == "lookup_ns") &
                (ls["scenario"] == "prehashed") &
                ~ls["algorithm"].isin(_peers(exps))]
        bad = inconsistent(exps)
        for a in sorted(set(bs["algorithm"]) & set(ls["algorithm"])):
            var = default_variant(ls, a)
            if var is None:
                continue
            xr = one(match_variant(bs, var))
            yr = one(match_variant(ls[ls["nodes"] == n], var))
            if xr is None or yr is None:
                continue
            if a in bad:
                info["excluded"][a] = bad[a]
                continue
            if info["keys"] is not None and xr.get("keys") != info["keys"]:
                info["skipped"].append(variant_label(var))
                continue
            pts.append(dict(var=var, label=variant_label(var),
                            source="balance + lookup", x_row=xr, y_row=yr))
    for p in pts:
        p["x"] = float(p["x_row"]["median"])
        p["y"] = float(p["y_row"]["median"])
    pts = [p for p in pts if not (math.isnan(p["x"]) or math.isnan(p["y"]))]
    return pts, n, info


def _x_interval(row):
    return interval(row, False)


def no_room(p, noadd=None):
    """'' or the label of a point with no free bucket: a = N ('cannot add
    a node' when the data say so for that configuration)."""
    var = dict(p["var"], nodes=p["x_row"].get("nodes"))
    cap, n = var.get("capacity"), var.get("nodes")
    full = cap is not None and not math.isnan(cap) and n is not None and \
        float(cap) == float(n)
    if noadd and var_key(var) in noadd:
        return "a = N: no free bucket, cannot add a node"
    return "a = N: no free bucket" if full else ""


def floor_of(exps, pts, n):
    """The expected max/mean of an ideal uniform placement of the points'
    keys at N (NaN when unknown or the points' key counts differ)."""
    op = (exps or {}).get("overprovision")
    keys = {p["x_row"].get("keys") for p in pts}
    if op is None or len(keys) != 1:
        return float("nan")
    return uniform_expectation(op.summary, n, keys.pop())


def floor_text(floor, pts, noadd=None):
    """A sentence naming the points whose max/mean interval holds the
    expectation of an ideal uniform placement of the same keys: among
    them the order in max/mean (and so the front) is key sampling."""
    if math.isnan(floor):
        return ""
    near = []
    for p in pts:
        iv = _x_interval(p["x_row"])
        if iv is not None and iv[0] <= floor <= iv[1]:
            near.append(p)
    if len(near) < 2:
        return ""
    return (f"An ideal uniform placement of these keys averages "
            f"{fmt_value(floor, 'x')} max/mean, and the interval of "
            f"{len(near)} points holds that value ("
            + join_names(_label(p, noadd) for p in
                         sorted(near, key=lambda p: p["y"]))
            + "): their differences in max/mean are key sampling, so "
            "among them only the lookup time orders the front.")


def dominates(q, p):
    return q["x"] <= p["x"] and q["y"] <= p["y"] and \
        (q["x"] < p["x"] or q["y"] < p["y"])


def pareto(pts):
    """Marks each point: p["front"] (bool), p["dominators"] (list) and
    p["near"] (dominated only within noise). Returns the front, by x."""
    for p in pts:
        p["dominators"] = [q for q in pts if q is not p and dominates(q, p)]
        p["front"] = not p["dominators"]
        p["near"] = bool(p["dominators"]) and all(
            overlaps(_x_interval(q["x_row"]), _x_interval(p["x_row"])) and
            overlaps(interval(q["y_row"]), interval(p["y_row"]))
            for q in p["dominators"])
    return sorted((p for p in pts if p["front"]), key=lambda p: p["x"])


def _label(p, noadd=None):
    nr = no_room(p, noadd)
    lab = p["label"]
    if not nr:
        return lab
    return lab[:-1] + f"; {nr})" if lab.endswith(")") else f"{lab} ({nr})"


def _front_cell(p):
    if p["front"]:
        return "**yes**"
    best = min(p["dominators"], key=lambda q: (q["y"], q["x"]))
    return ("no, within noise of " if p["near"] else "no, dominated by ") \
        + best["label"]


def section(ctx):
    out = [f"## {q('overprovision')}. Capacity and probes: lookup time "
           "against balance", ""]
    if ctx.exps.get("overprovision") is None:
        return "\n".join(out + ["_No `overprovision` results yet._", ""])
    pts, n, info = points(ctx.exps)
    if not pts:
        return "\n".join(out + ["_No `overprovision` variant has both "
                                "balance and lookup rows._", ""])
    front = pareto(pts)
    noadd = cannot_add(ctx)
    kpn = keys_per_node(pts[0]["x_row"])
    out += [f"N = {n:g}" + (f", {kpn}" if kpn else "") + ". AnchorHash "
            "and DxHash with capacity a = overprovision × N (more spare "
            "buckets: more rehash rounds or probes per lookup), multi-probe "
            "with k probes per lookup, beside each algorithm's default "
            "variant from the `balance` and `lookup` experiments at the "
            "same N (source \"balance + lookup\"; its lookups are a "
            "different timing group from the overprovision lookups).", "",
            "- lookup ns: prehashed, median [95 % CI of the median] over "
            "the measurement rounds of one process (within-run intervals).",
            "- max/mean: MEDIAN over repetitions [95 % CI of the median; "
            "\"(n=k)\": 2–5 repetitions] beside the model's expectation "
            "(model E; \"no model fits\" where the loads reject the "
            "uniform model, chi-squared p < 0.001).",
            "- Pareto front: no other point has both a lower or equal "
            "lookup time and a lower or equal max/mean (one of them "
            "strictly), computed on the two point estimates above; "
            "\"within noise of\" = every point that dominates it overlaps "
            "it in both intervals (95 % CI, or min–max of 2–5 "
            "repetitions; marginal intervals, since the points come from "
            "different runs and timing groups, which do not pair; one "
            "comparison per dominating point).",
            "- \"a = N: no free bucket\": the variant cannot take another "
            "node as measured (AnchorHash: add not applicable; DxHash: "
            "grows its array and remaps).", ""]
    fl = floor_text(floor_of(ctx.exps, pts, n), pts, cannot_add(ctx))
    if fl:
        out += [fl, ""]
    if info["excluded"]:
        out += ["Not consistent by the disruption data (excess/optimum "
                "> 1), left out: " + ", ".join(
                    f"{a} ({r:.3g})" for a, r in
                    sorted(info["excluded"].items())) + ".", ""]
    if info["skipped"]:
        out += ["Default variants measured at another key count, left out "
                "(max/mean depends on keys per node): "
                + join_names(info["skipped"]) + ".", ""]
    out += ref_note(ctx)
    rows = []
    for p in sorted(pts, key=lambda p: (p["source"] != "overprovision",
                                        p["var"]["algorithm"], p["x"])):
        f = var_filter(p["var"])
        nx = dict(nodes=n, **f)
        if p["source"] == "overprovision":
            exb = exl = "overprovision"
            links = ctx.data_links("overprovision")
        else:
            exb, exl = "balance", "lookup"
            links = ctx.data_links("balance") + " " + \
                ctx.data_links("lookup")
        bx = dict(nx)
        if exb == "balance":
            for c in ("keyset", "hash"):
                v = p["x_row"].get(c)
                if isinstance(v, str) and v:
                    bx[c] = v
        rows.append([
            _label(p, noadd), p["source"],
            _cell(exl, "lookup_ns", "num", True, scenario="prehashed", **nx),
            _cell(exb, "load_max_over_mean", "x", False, scenario="measured",
                  **bx),
            _analytic(exb, bx),
            _front_cell(p), links])
    out += [render(ctx, ["variant", "source", "lookup ns", "max/mean",
                         "model E", "Pareto front", "data"], rows), ""]
    out += ["Pareto front (fastest first; medians): " + ", ".join(
        f"**{_label(p, noadd)}** ({fmt_med(p['y_row'])} ns, "
        f"{fmt_med(p['x_row'], 'x', False)})"
        for p in sorted(front, key=lambda p: p["y"])) + ". "
        + ctx.csv_link("overprovision"), ""]
    return "\n".join(out)


def _cell(exp, metric, kind, timing, **f):
    def fn(exps):
        e = (exps or {}).get(exp)
        if e is None:
            return "—"
        row = one(filt(e.summary, metric=metric, **f))
        return fmt_med(row, kind, timing)
    return Cell(fn)


def _analytic(exp, f):
    f = {k: v for k, v in f.items() if k != "scenario"}

    def fn(exps):
        e = (exps or {}).get(exp)
        if e is None:
            return "—"
        v = med(e.summary, metric="load_max_over_mean", scenario="analytic",
                **f)
        if not math.isnan(v) and not model_fits(e.summary, **f):
            return "no model fits"
        return fmt_value(v, "x")
    return Cell(fn)


def guide_items(ctx):
    pts, n, _ = points(ctx.exps)
    if not pts:
        return []
    front = pareto(pts)
    near = [p for p in pts if p["near"]]
    noadd = cannot_add(ctx)
    kpn = keys_per_node(pts[0]["x_row"])
    fl = floor_text(floor_of(ctx.exps, pts, n), pts, noadd)
    return [("pareto_lookup_balance",
             f"Lookup time against balance at N={n:g}"
             + (f", {kpn}" if kpn else "") + " (overprovision "
             "variants and default variants; medians): Pareto front "
             + ", ".join(f"**{_label(p, noadd)}** ({fmt_med(p['y_row'])} "
                         f"ns, max/mean {fmt_med(p['x_row'], 'x', False)})"
                         for p in sorted(front, key=lambda p: p["y"]))
             + (("; within noise of the front: "
                 + join_names(_label(p, noadd) for p in near))
                if near else "")
             + "." + (" " + fl if fl else "") + " "
             + ctx.csv_link("overprovision"))]


# ---------------------------------------------------------------------------
# figures: drawn by plots/make_figures.py and shown in this section; each
# entry of FIGURES is (stem, caption, drawing function)

import pandas as pd  # noqa: E402

import style  # noqa: E402
from report import common as rc  # noqa: E402
from report import overprovision as rover  # noqa: E402
from report.draw import Skip, need, noisy_handle  # noqa: E402
from report.draw import med_err as _med_err  # noqa: E402
from report.draw import place_labels as _place_labels  # noqa: E402


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


FIGURES = [
    ("pareto_lookup_balance", "Lookup time against max/mean: capacity and "
     "probes variants with the default variants, and the Pareto front",
     fig_pareto),
]

"""Your production configuration vs the alternatives (experiment
`presets`, experiments/presets.toml).

One row family: kind `presets`, `algorithm` = a production preset (registry
"presets": libmemcached_ketama, nginx, haproxy, ...: the exact mapping of
that system, with its own key hash) or a plain algorithm (registry
"algorithms": ring, jump, maglev, ...), `nodes` = N servers; scenario
`static` (load_max_over_mean, load_min_over_mean, memory_bytes), `add` (an
(N+1)-th server joins) and `remove` (one server leaves) with moved_fraction
and moved_over_optimum (1 = the optimum: 1/(N+1) of the keys on add, 1/N on
remove), and moved_excess_fraction: the keys that moved between servers that
stayed (0 = minimal disruption; what "moves more than necessary" means here,
since a ring's joining or leaving server can own more or less than 1/N). Repetitions are key-set seeds.

Every number is a MEAN over the key-set seeds with the Student-t 95 %
interval of the mean (common.fmt_mean), as balance everywhere in this
report. Comparisons use that interval: "above beyond the intervals" = the
two intervals do not overlap; otherwise a tie is declared. A cell with one
repetition (n = 1, the smoke tier) has no interval and is compared on its
value, as common.interval does for deterministic metrics.

The registry's preset metadata gives the system and version, how each
preset was verified (`make verify-presets` against the real system, or,
for Envoy, its unit-test expectations) and the largest N the system
accepts (max_servers; 0 = no limit).
"""

import math

from report.common import (filt, fmt_mean, fmt_num, join_names, mcell,
                           mean_interval, mean_of, na_note, one, overlaps,
                           pick_n, ref_note, render, summary_of)
from report.questions import q

PREFERRED_N = 10
EXCESS_EPS = 1e-12     # an excess above this is "keys that need not move"
EXP = "presets"
LIVE = "make verify-presets"   # `verified` prefix: checked on the real system


def preset_meta(ctx):
    """{preset name: registry entry} in registry order."""
    return {p["name"]: p for p in ctx.reg.raw.get("presets", [])
            if p.get("name")}


def split_names(ctx, s):
    """(presets, algorithms) present in the summary s, presets in registry
    order, algorithms in registry order (unknown names go with the
    algorithms, after them)."""
    meta = preset_meta(ctx)
    have = list(dict.fromkeys(s["algorithm"]))
    pres = [p for p in meta if p in have]
    algo_order = list(ctx.reg.algorithms)
    algs = [a for a in algo_order if a in have and a not in meta]
    algs += sorted(a for a in have if a not in meta and a not in algo_order)
    return pres, algs


def row(s, name, n, scenario, metric):
    return one(filt(s, algorithm=name, nodes=n, scenario=scenario,
                    metric=metric))


def cells(s, names, n):
    """{name: {(scenario, metric): summary row}} at N = n."""
    out = {}
    for a in names:
        out[a] = {(sc, m): row(s, a, n, sc, m) for sc, m in (
            ("static", "load_max_over_mean"),
            ("static", "load_min_over_mean"), ("static", "memory_bytes"),
            ("add", "moved_fraction"), ("add", "moved_over_optimum"),
            ("add", "moved_excess_fraction"),
            ("remove", "moved_fraction"), ("remove", "moved_over_optimum"),
            ("remove", "moved_excess_fraction"))}
    return out


def findings(ctx, exps=None):
    """Everything the prose says, computed from one experiments dict:
    {n, presets, algorithms, over_add [(name, ratio)], over_remove,
    best_alg (name, row) or None, above_best [names], tied_best [names],
    below_best [names], limits {max_servers: [names]}, nmax,
    not_live {verified text: [names]}}; None without data."""
    s = summary_of(exps if exps is not None else ctx.exps, EXP)
    if s is None or s.empty:
        return None
    n = pick_n(s["nodes"], PREFERRED_N)
    pres, algs = split_names(ctx, s)
    c = cells(s, pres + algs, n)
    f = {"n": n, "presets": pres, "algorithms": algs, "cells": c}
    for sc in ("add", "remove"):
        f[f"over_{sc}"] = [
            (p, mean_of(c[p][(sc, "moved_excess_fraction")])) for p in pres
            if mean_of(c[p][(sc, "moved_excess_fraction")]) > EXCESS_EPS]
    bal = [(a, c[a][("static", "load_max_over_mean")]) for a in algs
           if not math.isnan(mean_of(c[a][("static", "load_max_over_mean")]))]
    f["best_alg"] = min(bal, key=lambda t: mean_of(t[1])) if bal else None
    f["above_best"], f["tied_best"], f["below_best"] = [], [], []
    f["unranked"] = []
    if f["best_alg"]:
        bi = mean_interval(f["best_alg"][1])
        bm = mean_of(f["best_alg"][1])
        for p in pres:
            r = c[p][("static", "load_max_over_mean")]
            if math.isnan(mean_of(r)):
                continue
            pi = mean_interval(r)
            if bi is None or pi is None:
                f["unranked"].append(p)
            elif overlaps(bi, pi):
                f["tied_best"].append(p)
            elif mean_of(r) > bm:
                f["above_best"].append(p)
            else:
                f["below_best"].append(p)
    meta = preset_meta(ctx)
    f["limits"] = {}
    for p in pres:
        ms = int(meta[p].get("max_servers") or 0)
        if ms > 0:
            f["limits"].setdefault(ms, []).append(p)
    f["nmax"] = int(s["nodes"].max())
    f["not_live"] = {}
    for p in pres:
        v = str(meta[p].get("verified", ""))
        if not v.startswith(LIVE):
            f["not_live"].setdefault(v, []).append(p)
    return f


def _nth(k):
    """11 -> '11th', 21 -> '21st'."""
    k = int(k)
    suf = "th" if 10 <= k % 100 <= 20 else \
        {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suf}"


def _systems(ctx, names):
    meta = preset_meta(ctx)
    return join_names(list(dict.fromkeys(meta[p].get("system", p)
                                         for p in names)))


def _na_cell(ctx, name, n, scenario, metric, kind):
    """mean [CI] cell, or the data's "n/a: reason" when not applicable."""
    base = mcell(ctx, EXP, kind, mean=True, algorithm=name, nodes=n,
                 scenario=scenario, metric=metric)
    inner = base.fn

    def fn(exps):
        txt = inner(exps)
        if txt == "—":
            na = na_note((exps or {}).get(EXP), algorithm=name,
                         nodes=n, scenario=scenario, metric=metric)
            if na:
                return na.split(";")[0].split(" (")[0]
        return txt
    base.fn = fn
    return base


def _lookup_cell(ctx, name, n):
    """String-key lookup (the system's key hash + its search), median over
    rounds [CI of the median], from the interleaved timing group at n (the
    nearest timed N when n was not timed)."""
    base = mcell(ctx, EXP, "ns", mean=False, algorithm=name,
                 nodes=_lookup_n(ctx, n), scenario="string",
                 metric="lookup_ns")
    return base


def _lookup_n(ctx, n):
    e = ctx.exps.get(EXP)
    if e is None:
        return n
    s = e.summary
    ns = sorted(int(x) for x in s[(s["metric"] == "lookup_ns")]["nodes"]
                .dropna().unique())
    if not ns or n in ns:
        return n
    return min(ns, key=lambda x: (abs(x - n), x))


def _metric_cells(ctx, name, n):
    return [_lookup_cell(ctx, name, n)] + [
        _na_cell(ctx, name, n, "static", "load_max_over_mean", "x"),
        _na_cell(ctx, name, n, "static", "load_min_over_mean", "x"),
        _na_cell(ctx, name, n, "add", "moved_fraction", "pct"),
        _na_cell(ctx, name, n, "add", "moved_over_optimum", "x"),
        _na_cell(ctx, name, n, "add", "moved_excess_fraction", "pct"),
        _na_cell(ctx, name, n, "remove", "moved_fraction", "pct"),
        _na_cell(ctx, name, n, "remove", "moved_over_optimum", "x"),
        _na_cell(ctx, name, n, "remove", "moved_excess_fraction", "pct"),
        _na_cell(ctx, name, n, "static", "memory_bytes", "num")]


METRIC_HEAD = ["lookup ns (string key)", "max/mean", "min/mean", "moved on add", "add / optimum",
               "excess on add", "moved on remove", "remove / optimum",
               "excess on remove", "memory bytes"]


def _show(r, kind):
    return fmt_mean(r, kind)


def section(ctx):
    out = [f"## {q('presets')}. Your production configuration vs the "
           "alternatives", ""]
    e = ctx.exps.get(EXP)
    if e is None:
        return "\n".join(out + [f"_No `{EXP}` results yet._", ""])
    f = findings(ctx)
    if f is None or not (f["presets"] or f["algorithms"]):
        return "\n".join(out + [f"_No `{EXP}` rows._", ""])
    n = f["n"]
    meta = preset_meta(ctx)
    ks = e.summary[e.summary["scenario"].isin(["static", "add", "remove"])]
    ns = sorted(int(x) for x in ks["nodes"].dropna().unique())
    keys = sorted(ks[ks["nodes"] == n]["keys"].dropna().unique())
    kpn = f"{fmt_num(keys[0] / n)} keys per server" if len(keys) == 1 \
        else ""
    reps = sorted(int(x) for x in ks["n"].dropna().unique() if x > 0)
    out += [f"The exact mappings of production systems (presets, each with "
            f"its own key hash) beside the plain algorithms (key hash "
            f"xxh64), on the same string keys, at N = {n} servers"
            + (f" (the nearest measured N to {PREFERRED_N})"
               if n != PREFERRED_N else "")
            + (f", {kpn}" if kpn else "") + f"; measured N: "
            + ", ".join(str(x) for x in ns) + ".", "",
            "- Cells: MEAN over key-set seeds [95 % CI of the mean]; no "
            "interval with a single seed"
            + (f" (here: {join_names(str(r) for r in reps)} per cell)"
               if reps else "") + ".",
            f"- moved on add: fraction of the keys that move when an "
            f"{_nth(n + 1)} server joins; on remove: when one server "
            "leaves. \"/ optimum\": that fraction over the minimum "
            "(1/(N+1) on add, 1/N on remove); 1 = optimal.",
            "- memory bytes: the preset's or algorithm's lookup state at "
            "N.",
            "- lookup ns: one string key through the system's own key hash "
            "(column `key hash`; the algorithms use xxh64) and its search, "
            "HashKey + Lookup on the preset's final class (no virtual "
            "call), MEDIAN over the interleaved rounds of one timing group "
            f"[95 % CI of the median], at N = {_lookup_n(ctx, n)}; "
            "throughput of independent lookups (experiment `presets`, "
            "kind lookup, key set url).", ""]
    out += ref_note(ctx)
    if f["presets"]:
        rows = []
        for p in f["presets"]:
            m = meta[p]
            ms = int(m.get("max_servers") or 0)
            rows.append([f"`{p}`", m.get("system", ""),
                         m.get("version", ""), m.get("verified", ""),
                         m.get("key_hash", "")]
                        + _metric_cells(ctx, p, n)
                        + [str(ms) if ms else "no limit",
                           ctx.data_links(EXP)])
        out += [f"### Presets at N = {n}", "",
                render(ctx, ["preset", "system", "version", "verified",
                             "key hash"] + METRIC_HEAD
                       + ["max servers", "data"], rows), ""]
    if f["algorithms"]:
        rows = [[f"`{a}`"] + _metric_cells(ctx, a, n) + [ctx.data_links(EXP)]
                for a in f["algorithms"]]
        out += [f"### The alternatives: plain algorithms at N = {n}", "",
                render(ctx, ["algorithm"] + METRIC_HEAD + ["data"], rows),
                ""]
    out += _prose(ctx, f)
    return "\n".join(out)


def _prose(ctx, f):
    n, c = f["n"], f["cells"]
    out = []
    if f["presets"]:
        for sc, what in (("add", f"an {_nth(n + 1)} server joins"),
                         ("remove", "one server leaves")):
            over = f[f"over_{sc}"]
            measured = [p for p in f["presets"]
                        if not math.isnan(mean_of(c[p][(sc,
                                                        "moved_excess_fraction")]))]
            if not measured:
                continue
            if over:
                out.append(
                    f"When {what}, keys also move between servers that "
                    "stay (excess > 0: not minimal disruption) in "
                    + join_names(
                        f"**{p}** ({_show(c[p][(sc, 'moved_excess_fraction')], 'pct')}"
                        f" of the keys; all moved: "
                        f"{_show(c[p][(sc, 'moved_fraction')], 'pct')})"
                        for p, _ in over) + "; the other "
                    f"{len(measured) - len(over)} of {len(measured)} "
                    "presets move only the keys that must move.")
            else:
                out.append(f"When {what}, every preset measured "
                           f"({len(measured)}) moves only the keys that "
                           "must move (excess 0).")
    other = _excess_elsewhere(ctx, f)
    if other:
        out.append(
            f"At other N, presets with no excess at N = {n} move keys "
            "between staying servers too: " + join_names(
                f"**{p}** (" + "; ".join(
                    f"{sc} at N = {', '.join(str(x) for x in ns)}"
                    for sc, ns in by_sc.items()) + ")"
                for p, by_sc in other.items())
            + " (their point counts change with N; see the README's "
            "preset notes).")
    if f["best_alg"]:
        a, r = f["best_alg"]
        txt = (f"Balance: the best plain algorithm at N = {n} is **{a}** "
               f"(max/mean {_show(r, 'x')}).")
        if f["above_best"]:
            txt += " Presets above it beyond the intervals: " + join_names(
                f"{p} ({_show(c[p][('static', 'load_max_over_mean')], 'x')})"
                for p in f["above_best"]) + "."
        if f["tied_best"]:
            txt += (" Tied with it (intervals overlap): "
                    + join_names(f["tied_best"]) + ".")
        if f["unranked"]:
            txt += (" Not ranked against it (a single key-set seed: no "
                    "interval): " + join_names(f["unranked"]) + ".")
        if f["below_best"]:
            txt += (" Below it beyond the intervals: "
                    + join_names(f["below_best"]) + ".")
        out.append(txt)
    meta = preset_meta(ctx)
    for ms, names in sorted(f["limits"].items()):
        vers = join_names(list(dict.fromkeys(
            meta[p].get("version", p) for p in names)))
        out.append(
            f"{join_names(names)}: registry max_servers = {ms} ({vers} "
            f"aborts above {ms} servers), so these presets are not measured "
            f"beyond N = {ms}"
            + (f" (largest N here: {f['nmax']})." if f["nmax"] <= ms
               else "."))
    for v, names in f["not_live"].items():
        out.append(f"{join_names(names)} ({_systems(ctx, names)}): "
                   f"checked against \"{v}\" (registry `verified`), not "
                   f"against a running {_systems(ctx, names)}.")
    live = [p for p in f["presets"]
            if not any(p in v for v in f["not_live"].values())]
    if live and f["not_live"]:
        out.append(f"The other {len(live)} presets are checked by `make "
                   "verify-presets` against the real systems.")
    if out:
        out = [" ".join(out) + " " + ctx.csv_link(EXP), ""]
    return out


def _excess_elsewhere(ctx, f):
    """{preset: {scenario: [N, ...]}} for the presets whose mean excess is
    0 at the reported N but > 0 at some other measured N."""
    s = summary_of(ctx.exps, EXP)
    if s is None:
        return {}
    at_n = {p for sc in ("add", "remove") for p, _ in f[f"over_{sc}"]}
    ex = s[(s["metric"] == "moved_excess_fraction") &
           (s["mean"] > EXCESS_EPS)]
    out = {}
    for p in f["presets"]:
        if p in at_n:
            continue
        rows = ex[ex["algorithm"] == p]
        for sc in ("add", "remove"):
            ns = sorted(int(x) for x in rows[rows["scenario"] == sc]["nodes"])
            if ns:
                out.setdefault(p, {})[sc] = ns
    return out


def guide_items(ctx):
    """Decision-guide entry from the presets data: the presets that move
    keys between staying servers on add, and those whose max/mean is above the
    best plain algorithm's beyond the intervals."""
    f = findings(ctx)
    if f is None or not f["presets"]:
        return []
    n, c = f["n"], f["cells"]
    parts = []
    if f["over_add"]:
        parts.append(
            f"keys move between staying servers when an {_nth(n + 1)} "
            "server joins (not minimal disruption): " + join_names(
                f"**{p}** ({_show(c[p][('add', 'moved_excess_fraction')], 'pct')}"
                " of the keys)" for p in [t[0] for t in f["over_add"]]))
    else:
        parts.append(f"every preset moves only the keys that must move when "
                     f"an {_nth(n + 1)} server joins")
    if f["best_alg"]:
        a, r = f["best_alg"]
        if f["unranked"]:
            parts.append(f"max/mean not ranked against the best plain "
                         f"algorithm **{a}** ({_show(r, 'x')}): a single "
                         "key-set seed gives no interval")
        elif f["above_best"]:
            parts.append(f"max/mean above the best plain algorithm "
                         f"**{a}** ({_show(r, 'x')}) beyond the intervals: "
                         + join_names(f["above_best"]))
        else:
            parts.append(f"no preset's max/mean is above the best plain "
                         f"algorithm **{a}** ({_show(r, 'x')}) beyond the "
                         "intervals")
    return [("presets",
             f"Production presets at N={n} ({q('presets')}; means over "
             "key-set seeds): "
             + "; ".join(parts) + ". " + ctx.csv_link(EXP))]


__all__ = ["section", "guide_items", "findings", "mean_interval",
           "preset_meta"]


# ---------------------------------------------------------------------------
# figures: drawn by plots/make_figures.py and shown in this section; each
# entry of FIGURES is (stem, caption, drawing function)

import os  # noqa: E402

from matplotlib.ticker import FuncFormatter  # noqa: E402

import chdata  # noqa: E402
import style  # noqa: E402
from report import common as rc  # noqa: E402
from report import presets as rpre  # noqa: E402
from report.draw import Skip, need  # noqa: E402
from report.draw import mean_err as _mean_err  # noqa: E402
from report.draw import place_labels as _place_labels  # noqa: E402


def fig_presets(exps, out):
    """Left: each preset and plain algorithm at N = 10 (nearest N), x =
    max/mean load, y = keys moved on add over the optimum (means over
    key-set seeds, 95 % CI of the mean). Right: max/mean vs N."""
    (e,) = need(exps, "presets")
    reg = chdata.load_registry(os.path.dirname(os.path.dirname(e.run_dir)))
    meta = {p["name"]: p for p in reg.get("presets", []) if p.get("name")}
    s = e.summary
    if s.empty:
        raise Skip("no presets rows")
    n = rc.pick_n(s["nodes"], rpre.PREFERRED_N)
    names = list(dict.fromkeys(s["algorithm"]))
    fig, axes = style.new_figure(ncols=2, figsize=(13, 6))
    ax, ax2 = axes[0][0], axes[0][1]
    pts = []
    for i, a in enumerate(names):
        is_pre = a in meta
        xr = rpre.row(s, a, n, "static", "load_max_over_mean")
        yr = rpre.row(s, a, n, "add", "moved_over_optimum")
        x, y = rpre.mean_of(xr), rpre.mean_of(yr)
        if is_pre:
            kw = dict(color=f"C{i % 10}", marker="o", linestyle="none")
        else:
            kw = style.line_kw(a, linestyle="none")
            kw["marker"] = "^"
        kw["label"] = None
        if not (math.isnan(x) or math.isnan(y)):
            ax.errorbar([x], [y], xerr=_mean_err(xr, x),
                        yerr=_mean_err(yr, y), capsize=2, markersize=6,
                        **kw)
            pts.append(dict(x=x, y=y, label=a, source="overprovision",
                            front=False))
        d = s[(s["algorithm"] == a) & (s["scenario"] == "static") &
              (s["metric"] == "load_max_over_mean")].sort_values("nodes")
        if not d.empty:
            lkw = dict(kw)
            lkw["linestyle"] = "-" if is_pre else "--"
            lkw["label"] = a + ("" if is_pre else " (algorithm)")
            ax2.plot(d["nodes"], d["mean"], **lkw)
    if not pts:
        raise Skip("no preset with both max/mean and moved on add")
    ax.axhline(1.0, color="black", linewidth=0.8, linestyle=":",
               label="optimum (moved = 1/(N+1))")
    _place_labels(ax, pts)
    ax.set_xlabel(f"max/mean load at N = {n} (mean over key-set seeds, "
                  "95 % CI of the mean); 1 = perfect")
    ax.set_ylabel(f"keys moved on adding server {n + 1} / optimum "
                  "(mean); 1 = optimal")
    ax2.set_xscale("log")
    ax2.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax2.xaxis.set_minor_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax2.set_xlabel("N servers")
    ax2.set_ylabel("max/mean load (mean over key-set seeds)")
    from matplotlib.lines import Line2D
    handles = [Line2D([], [], color="#555555", marker="o",
                      linestyle="none", label="preset (o, solid)"),
               Line2D([], [], color="#555555", marker="^",
                      linestyle="none", label="plain algorithm (^, dashed)")]
    h2, l2 = ax2.get_legend_handles_labels()
    h1, l1 = ax.get_legend_handles_labels()
    leg = style.legend_outside(fig, axes, handles=handles + h2 + h1,
                               labels=[h.get_label() for h in handles]
                               + l2 + l1)
    fig.suptitle(f"Production presets vs plain algorithms, N = {n}")
    return style.save_figure(fig, out, "presets_balance_moved", [e.meta],
                             leg)


FIGURES = [
    ("presets_balance_moved", "Production presets and plain algorithms: "
     "max/mean load against keys moved on add over the optimum at N = 10 "
     "(mean over key-set seeds), and max/mean vs N",
     fig_presets),
]

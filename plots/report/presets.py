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

Every placement number is a MEDIAN over the key-set seeds (common.fmt_med:
"(n=k)" for 2–5 seeds, which have no 95 % interval), the statistic every
balance number of this report uses. A preset is compared with the best
plain algorithm by the per-seed ratio of their max/mean (both on the same
key set per seed: common.paired, at the Bonferroni level over the presets
compared), else by overlap of their intervals (min–max for 2–5 seeds); a
cell with one seed (n = 1, the smoke tier) is compared by its value.
"add / optimum" below 1 is not better than optimal: with no excess, what
moves on add is what the joining server receives, so the joiner's share
of a fair share, (moved − excess) × (N + 1), is shown beside it.
mean_of and mean_interval (the mean and its Student-t interval, clipped
to the metric's range) remain for the cluster section.

The registry's preset metadata gives the system and version, how each
preset was verified (`make verify-presets` against the real system, or,
for Envoy, its unit-test expectations) and the largest N the system
accepts (max_servers; 0 = no limit).
"""

import math

from report.common import (Cell, filt, fmt_med,
                           fmt_num, fmt_paired, interval, join_names, mcell,
                           mean_interval, mean_of, na_note, one, overlaps,
                           paired, pick_n, ref_note, render, summary_of)
from report.questions import q

PREFERRED_N = 10
# add / optimum below this: the joining server gets clearly less than a
# fair share (named in the prose).
JOIN_LOW = 0.9
STARVED = 0.5   # min/mean below it: a server gets under half its share
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


def med_of(r):
    """A summary row's median (NaN when missing)."""
    if r is None:
        return float("nan")
    v = r.get("median")
    return float("nan") if v is None or (isinstance(v, float) and
                                         math.isnan(v)) else float(v)


def joiner_share(data, name, n):
    """Median over seeds of the joining server's share of a fair share on
    add, (moved − excess) × (N + 1), from the data rows; NaN without
    them."""
    if data is None:
        return float("nan")
    d = data[(data["algorithm"] == name) & (data["nodes"] == n) &
             (data["scenario"] == "add") & data["value"].notna()]
    mv = d[d["metric"] == "moved_fraction"].set_index("seed")["value"]
    ex = d[d["metric"] == "moved_excess_fraction"].set_index("seed")["value"]
    j = ((mv - ex.reindex(mv.index).fillna(0.0)) * (n + 1)).dropna()
    return float(j.median()) if not j.empty else float("nan")


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
    {n, presets, algorithms, over_add [(name, excess)], over_remove,
    best_alg (name, row) or None, above_best [names], tied_best [names],
    below_best [names], unranked, vs_best {name: paired result},
    level (of each paired comparison), join_low [(name, add/opt., joiner
    share)], starved [(name, min/mean)], limits {max_servers: [names]},
    nmax, not_live {verified text: [names]}}; None without data."""
    exps = exps if exps is not None else ctx.exps
    s = summary_of(exps, EXP)
    if s is None or s.empty:
        return None
    data = exps[EXP].data
    n = pick_n(s["nodes"], PREFERRED_N)
    pres, algs = split_names(ctx, s)
    c = cells(s, pres + algs, n)
    f = {"n": n, "presets": pres, "algorithms": algs, "cells": c}
    for sc in ("add", "remove"):
        f[f"over_{sc}"] = [
            (p, med_of(c[p][(sc, "moved_excess_fraction")])) for p in pres
            if med_of(c[p][(sc, "moved_excess_fraction")]) > EXCESS_EPS]
    bal = [(a, c[a][("static", "load_max_over_mean")]) for a in algs
           if not math.isnan(med_of(c[a][("static", "load_max_over_mean")]))]
    f["best_alg"] = min(bal, key=lambda t: med_of(t[1])) if bal else None
    f["above_best"], f["tied_best"], f["below_best"] = [], [], []
    f["unranked"], f["vs_best"] = [], {}
    ranked_p = [p for p in pres if not math.isnan(
        med_of(c[p][("static", "load_max_over_mean")]))]
    f["level"] = 1 - 0.05 / len(ranked_p) if len(ranked_p) > 1 else 0.95
    if f["best_alg"]:
        b = f["best_alg"][1]
        bi = interval(b, False)
        bm = med_of(b)
        for p in ranked_p:
            r = c[p][("static", "load_max_over_mean")]
            # the same key set per seed; each preset has its own hash
            pr = paired(data, b, r, level=f["level"], free=("hash",))
            if pr is not None and pr["lo"] is not None:
                f["vs_best"][p] = pr
                verdict = ("tied" if pr["lo"] <= 1 <= pr["hi"] else
                           "above" if pr["lo"] > 1 else "below")
            else:
                pi = interval(r, False)
                if bi is None and pi is None:
                    verdict = "unranked"
                elif overlaps(bi or (bm, bm), pi or (med_of(r), med_of(r))):
                    verdict = "tied"
                else:
                    verdict = "above" if med_of(r) > bm else "below"
            f[{"tied": "tied_best", "above": "above_best",
               "below": "below_best", "unranked": "unranked"}[verdict]] \
                .append(p)
    f["join_low"] = []
    f["starved"] = []
    for a in pres + algs:
        ao = med_of(c[a][("add", "moved_over_optimum")])
        if not math.isnan(ao) and ao < JOIN_LOW:
            f["join_low"].append((a, ao, joiner_share(data, a, n)))
        mn = med_of(c[a][("static", "load_min_over_mean")])
        if not math.isnan(mn) and mn < STARVED:
            f["starved"].append((a, mn))
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
    """median cell (see the module comment), or the data's "n/a: reason"
    when not applicable; a min/mean under STARVED is flagged."""
    base = mcell(ctx, EXP, kind, algorithm=name, nodes=n, scenario=scenario,
                 metric=metric)
    inner = base.fn

    def fn(exps):
        txt = inner(exps)
        if txt == "—":
            na = na_note((exps or {}).get(EXP), algorithm=name,
                         nodes=n, scenario=scenario, metric=metric)
            if na:
                return na
        if metric == "load_min_over_mean":
            r = one(filt(summary_of(exps, EXP), algorithm=name, nodes=n,
                         scenario=scenario, metric=metric))
            if not math.isnan(med_of(r)) and med_of(r) < STARVED:
                txt += " ⚠ starved"
        return txt
    base.fn = fn
    return base


def _join_cell(name, n):
    """The joining server's share of a fair share on add (data rows)."""
    def fn(exps):
        e = (exps or {}).get(EXP)
        v = joiner_share(e.data if e is not None else None, name, n)
        return "—" if math.isnan(v) else f"{v:.3g}×"
    return Cell(fn)


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
        _join_cell(name, n),
        _na_cell(ctx, name, n, "add", "moved_excess_fraction", "pct"),
        _na_cell(ctx, name, n, "remove", "moved_fraction", "pct"),
        _na_cell(ctx, name, n, "remove", "moved_over_optimum", "x"),
        _na_cell(ctx, name, n, "remove", "moved_excess_fraction", "pct"),
        _na_cell(ctx, name, n, "static", "memory_bytes", "num")]


METRIC_HEAD = ["lookup ns (string key)", "max/mean", "min/mean",
               "moved on add", "add / optimum", "joiner's share / fair",
               "excess on add", "moved on remove", "remove / optimum",
               "excess on remove", "memory bytes"]


def _show(r, kind):
    return fmt_med(r, kind, timing=False)


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
            "- Cells: MEDIAN over key-set seeds [95 % CI of the median]; "
            "\"(n=k)\": 2–5 seeds, too few for a 95 % interval; none with "
            "a single seed"
            + (f" (here: {join_names(str(r) for r in reps)} per cell)"
               if reps else "") + ".",
            f"- moved on add: fraction of the keys that move when an "
            f"{_nth(n + 1)} server joins; on remove: when one server "
            "leaves. \"/ optimum\": that fraction over the minimum "
            "(1/(N+1) on add, 1/N on remove). Below 1 is not better than "
            "optimal: the joining (leaving) server owns less than a fair "
            "share. \"joiner's share / fair\": the keys the joining server "
            "receives, (moved − excess) × (N + 1), per seed: 1 = a fair "
            "share.",
            "- min/mean \"⚠ starved\": the least loaded server holds less "
            f"than {STARVED:g} of a fair share.",
            "- memory bytes: the preset's or algorithm's lookup state at "
            "N.",
            "- lookup ns: one string key through the system's own key hash "
            "(column `key hash`; the algorithms use xxh64) and its search, "
            "HashKey + Lookup on the preset's final class (no virtual "
            "call), MEDIAN over the interleaved rounds of one timing group "
            f"[95 % CI of the median, within one run], at N = "
            f"{_lookup_n(ctx, n)}; "
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
        vs = f["vs_best"]

        def ratio(p):
            return (f", {fmt_paired(vs[p])} {a}'s per seed" if p in vs
                    else "")
        if f["above_best"]:
            txt += " Presets above it (separate): " + join_names(
                f"{p} ({_show(c[p][('static', 'load_max_over_mean')], 'x')}"
                f"{ratio(p)})" for p in f["above_best"]) + "."
        if f["tied_best"]:
            txt += (" Not separated from it: "
                    + join_names(f["tied_best"]) + ".")
        if f["unranked"]:
            txt += (" Not ranked against it (a single key-set seed: no "
                    "interval): " + join_names(f["unranked"]) + ".")
        if f["below_best"]:
            txt += (" Below it (separate): "
                    + join_names(f["below_best"]) + ".")
        k = len(f["above_best"] + f["tied_best"] + f["below_best"])
        if k:
            txt += (f" ({k} comparisons with {a}: per-seed ratios of "
                    f"max/mean where the seeds pair up, each at "
                    f"{100 * f['level']:.3g} % (Bonferroni: 95 % for the "
                    "set), else by overlap of the seeds' min–max.)")
        out.append(txt)
    if f["join_low"]:
        out.append(
            "add / optimum below 1 is no better than optimal: the joining "
            "server receives less than a fair share, an imbalance after the "
            "join: " + join_names(
                f"{a} ({ao:.3g}×: the joiner gets {js:.3g} of a fair share)"
                for a, ao, js in f["join_low"]) + ".")
    if f["starved"]:
        out.append("A server gets less than half its fair share "
                   "(min/mean < 0.5) in " + join_names(
                       f"{a} ({mn:.3g}×)" for a, mn in f["starved"]) + ".")
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
           (s["median"] > EXCESS_EPS)]
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
                         f"**{a}** ({_show(r, 'x')}; per-seed ratios, "
                         f"{len(f['above_best'] + f['tied_best'])} "
                         "comparisons, Bonferroni): "
                         + join_names(f["above_best"]))
        else:
            parts.append(f"no preset's max/mean is above the best plain "
                         f"algorithm **{a}** ({_show(r, 'x')}) beyond the "
                         "noise")
    if f["join_low"]:
        parts.append("the joining server gets less than a fair share (not "
                     "better than optimal movement) in " + join_names(
                         f"{a} ({js:.2g} of a fair share)"
                         for a, _, js in f["join_low"]))
    return [("presets",
             f"Production presets at N={n} ({q('presets')}; medians over "
             "key-set seeds): " + "; ".join(parts) + ". "
             + ctx.csv_link(EXP))]


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
from report.draw import med_err as _med_err  # noqa: E402
from report.draw import place_labels as _place_labels  # noqa: E402


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


FIGURES = [
    ("presets_balance_moved", "Production presets and plain algorithms: "
     "max/mean load against keys moved on add over the optimum at N = 10 "
     "(mean over key-set seeds), and max/mean vs N",
     fig_presets),
]

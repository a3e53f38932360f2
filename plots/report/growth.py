"""Scale-out and scale-in (experiment `growth`): N nodes grow to 2N one
join at a time, then shrink back to N one leave at a time, the newest
first (experiments/kinds/growth.cc). Rows carry the step (0: the N built,
1 .. N: joins, N+1 .. 2N: leaves).

The table is at one N (PREFERRED_N when measured, else the nearest): per
configuration, the cumulative keys moved over the cumulative optimum at 2N
(step N) and back at N (step 2N), max/mean load at 2N, memory at N (step
0) and at 2N. A configuration is "provisioned for 2N" when it was given a
size to grow into (a capacity above N: anchor, dx; an explicit table size:
Maglev's smallest prime >= 100 * 2N), else it is the algorithm's default.
A configuration whose join is `not applicable` (anchor at a = N) says so.
Every statistic is the summary's median over repetitions (one repetition:
the value). No algorithm name is written here: configurations come from
the data, capabilities from registry.json.
"""

import math

import pandas as pd

from report.common import (fmt_med, fmt_num, fmt_value, join_names, one,
                           filt, pick_n, ref_note, render, var_filter,
                           variant_label, variants)
from report.questions import q

PREFERRED_N = 100
# A cumulative moved/optimum at most this far above 1 is "minimal" in the
# text (key sampling: 10^5 keys over the 2N steps).
MINIMAL_SLACK = 0.05
# A single step moving more than this many times its optimum is named (a
# resize: dx doubling its array, Maglev refilling its table). At the
# table's N = 100 (10^5 keys: 500-1000 keys per step's optimum) the largest
# of the 2N steps of every minimal configuration is 1.08-1.33x in the data.
SPIKE = 2


def _summary(exps):
    e = (exps or {}).get("growth")
    return None if e is None else e.summary


def provisioned(var):
    """True when the configuration was given room to grow: a capacity
    above its N, or an explicit (non-default) table size."""
    cap, n = var.get("capacity"), var.get("nodes")
    ts = var.get("table_size")
    if ts is not None and not pd.isna(ts):
        return True
    return cap is not None and not pd.isna(cap) and n is not None and \
        not pd.isna(n) and float(cap) > float(n)


def _label(var):
    lab = variant_label(var)
    return lab + (", provisioned for 2N" if provisioned(var) else "")


def _value(s, var, n, step, metric):
    row = one(filt(s, metric=metric, nodes=n, step=step, **var_filter(var)))
    if row is None or pd.isna(row.get("median")):
        return None, float("nan")
    return row, float(row["median"])


def configs(exps, n=None):
    """(N, [config]) at N (PREFERRED_N or the nearest measured); each
    config is a dict: var, label, provisioned, na (the data's note when a
    join is not applicable, else ""), and (row, value) pairs cum_2n,
    cum_back, bal_2n, mem_n, mem_2n, max_grow and max_shrink (the largest
    single step's moved/optimum of the joins and of the leaves)."""
    s = _summary(exps)
    if s is None or s.empty:
        return None, []
    if n is None:
        n = pick_n(s["nodes"], PREFERRED_N)
    if n is None:
        return None, []
    s = s[s["nodes"] == n]
    e = exps["growth"]
    na = e.not_applicable()
    na = na[na["nodes"] == n]
    out = []
    for var in variants(s):
        var = dict(var, nodes=n)
        c = dict(var=var, label=_label(var), provisioned=provisioned(var))
        note = filt(na, **var_filter(var))
        # The data's note up to its first "; " (the reason, not the advice).
        c["na"] = str(note["note"].iloc[0]).split("; ")[0] \
            if note is not None and not note.empty else ""
        c["cum_2n"] = _value(s, var, n, n, "cumulative_moved_over_optimum")
        c["cum_back"] = _value(s, var, n, 2 * n,
                               "cumulative_moved_over_optimum")
        c["bal_2n"] = _value(s, var, n, n, "load_max_over_mean")
        c["mem_n"] = _value(s, var, n, 0, "memory_bytes")
        c["mem_2n"] = _value(s, var, n, n, "memory_bytes")
        c["max_grow"] = _value(s, var, n, n, "max_moved_over_optimum")
        c["max_shrink"] = _value(s, var, n, 2 * n, "max_moved_over_optimum")
        out.append(c)
    return n, out


def _cell(pair, kind="num"):
    row, v = pair
    return "—" if row is None or math.isnan(v) else fmt_med(row, kind, False)


def _minimal(c):
    v = c["cum_back"][1]
    return not math.isnan(v) and v <= 1 + MINIMAL_SLACK


def sentences(n, cs):
    """The section's text about the table, computed from it."""
    out = []
    grown = [c for c in cs if not math.isnan(c["cum_back"][1])]
    if grown:
        mins = [c for c in grown if _minimal(c)]
        if mins:
            out.append(
                f"Minimal over the whole path (cumulative moved/optimum at "
                f"most {1 + MINIMAL_SLACK:g} back at N = {n:g}): "
                + join_names(f"{c['label']} "
                             f"({fmt_value(c['cum_back'][1], 'x')})"
                             for c in mins) + ".")
        worst = max(grown, key=lambda c: c["cum_back"][1])
        if not _minimal(worst):
            more = sorted((c for c in grown if not _minimal(c)),
                          key=lambda c: -c["cum_back"][1])
            out.append(
                "Above the optimum: " + join_names(
                    f"{c['label']} ({fmt_value(c['cum_back'][1], 'x')}; "
                    f"{fmt_value(c['cum_2n'][1], 'x')} at 2N)"
                    for c in more) + ".")
    spikes = []
    for c in cs:
        g, k = c["max_grow"][1], c["max_shrink"][1]
        parts = [f"{what} {fmt_value(v, 'x')}" for what, v in
                 (("a join", g), ("a leave", k))
                 if not math.isnan(v) and v > SPIKE]
        if parts:
            spikes.append((max(x for x in (g, k) if not math.isnan(x)),
                           f"{c['label']} ({', '.join(parts)})"))
    if spikes:
        out.append(
            f"Single steps above {SPIKE:g}× their optimum (the largest "
            "join or leave of the path): " + join_names(
                t for _, t in sorted(spikes, key=lambda x: -x[0])) + ".")
    stuck = [c for c in cs if c["na"]]
    if stuck:
        out.append("Cannot grow as configured: " + join_names(
            f"{c['label']} ({c['na'][len('not applicable: '):]})"
            if c["na"].startswith("not applicable: ") else c["label"]
            for c in stuck) + ".")
    # Room to grow: each algorithm measured both provisioned and default.
    by_alg = {}
    for c in cs:
        by_alg.setdefault(c["var"]["algorithm"], []).append(c)
    for alg, group in by_alg.items():
        prov = [c for c in group if c["provisioned"]]
        dflt = [c for c in group if not c["provisioned"]]
        if not prov or not dflt:
            continue
        p, d = prov[0], dflt[0]
        parts = [f"memory at N {fmt_num(p['mem_n'][1])} vs "
                 f"{fmt_num(d['mem_n'][1])} bytes"]
        if not math.isnan(p["mem_n"][1]) and not math.isnan(d["mem_n"][1]) \
                and d["mem_n"][1] > 0:
            parts[-1] += f" ({fmt_value(p['mem_n'][1] / d['mem_n'][1], 'x')})"
        if d["na"]:
            parts.append("the default cannot take a node")
        else:
            parts.append(
                f"max/mean at 2N {fmt_value(p['bal_2n'][1], 'x')} vs "
                f"{fmt_value(d['bal_2n'][1], 'x')}")
            parts.append(
                f"cumulative moved/optimum back at N "
                f"{fmt_value(p['cum_back'][1], 'x')} vs "
                f"{fmt_value(d['cum_back'][1], 'x')}")
        out.append(f"Room to grow, {p['label']} against {d['label']}: "
                   + "; ".join(parts) + ".")
    return out


def lookup_cost(exps):
    """A sentence with the lookup time of room to grow from the
    `overprovision` experiment (prehashed lookup_ns medians at its N,
    capacity 2N against capacity N, for the algorithms that the growth
    data provision by capacity), or ""."""
    s, op = _summary(exps), (exps or {}).get("overprovision")
    if s is None or op is None:
        return ""
    algs = []
    for var in variants(s[s["capacity"].notna()]):
        if var["algorithm"] not in algs:
            algs.append(var["algorithm"])
    o = op.summary
    o = o[(o["metric"] == "lookup_ns") & (o["scenario"] == "prehashed")]
    n = pick_n(o["nodes"], 1000)
    if n is None:
        return ""
    parts = []
    for a in algs:
        two = one(filt(o, algorithm=a, nodes=n, capacity=2 * n))
        tight = one(filt(o, algorithm=a, nodes=n, capacity=n))
        if two is None or tight is None:
            continue
        parts.append(f"{a} {fmt_med(two)} ns with capacity 2N against "
                     f"{fmt_med(tight)} ns with capacity N")
    if not parts:
        return ""
    return (f"The lookup cost of that room while the cluster is still at N "
            f"(`overprovision`, N = {n:g}, prehashed, median [95 % CI] over "
            f"the rounds): " + "; ".join(parts) + ".")


def _path_name(c):
    """An algorithm's configuration across N: its name, provisioned or
    not (a capacity or table size that depends on N is not part of it)."""
    return c["var"]["algorithm"] + (", provisioned for 2N"
                                    if c["provisioned"] else "")


def path_extremes(exps):
    """({name: [(N, cumulative moved/optimum back at N)]}, {name: [N]})
    over every measured N: each configuration's value at the end of the
    path N -> 2N -> N, and the N at which it cannot grow."""
    s = _summary(exps)
    if s is None or s.empty:
        return {}, {}
    vals, stuck = {}, {}
    for n in sorted(float(x) for x in s["nodes"].dropna().unique()):
        _, cs = configs(exps, n)
        for c in cs:
            name = _path_name(c)
            if c["na"]:
                stuck.setdefault(name, []).append(n)
            v = c["cum_back"][1]
            if not math.isnan(v):
                vals.setdefault(name, []).append((n, v))
    return vals, stuck


def _ns(ns):
    return ", ".join(f"{n:g}" for n in ns)


def guide_items(ctx):
    """The decision guide's item on growth: which configurations move the
    optimum over N -> 2N -> N at every measured N, which move more (with
    their range over N), which fewer (joiners short of their share), and
    which cannot grow as configured."""
    vals, stuck = path_extremes(ctx.exps)
    if not vals and not stuck:
        return []
    ns = sorted({n for v in vals.values() for n, _ in v} |
                {n for v in stuck.values() for n in v})
    lo, hi = 1 - MINIMAL_SLACK, 1 + MINIMAL_SLACK

    def times(v):
        return f"{v:,.0f}×" if v >= 100 else fmt_value(v, "x")

    def where(pts, sel):
        at = [n for n, v in pts if sel(v)]
        return "at every N" if at == ns else f"at N = {_ns(at)}"

    minimal, above, below = [], [], []
    for name, pts in vals.items():
        xs = [v for _, v in pts]
        rng = (times(min(xs)) if min(xs) == max(xs) else
               f"{times(min(xs))}–{times(max(xs))}")
        if all(lo <= v <= hi for v in xs):
            only = [n for n, _ in pts]
            minimal.append(f"**{name}**" + (
                "" if only == ns else f" (measured at N = {_ns(only)})"))
        if any(v > hi for v in xs):
            above.append(f"{name} ({rng}; above {where(pts, lambda v: v > hi)})")
        if any(v < lo for v in xs):
            below.append(f"{name} ({rng}; below {where(pts, lambda v: v < lo)})")
    parts = [f"When the cluster grows (N → 2N one node at a time and back, "
             f"measured at N = {_ns(ns)}; cumulative keys moved over the "
             f"optimum at the end of the path):"]
    if minimal:
        parts.append(f"within {MINIMAL_SLACK:.0%} of the optimum at every "
                     "measured N: " + join_names(minimal) + ".")
    if above:
        parts.append("More than the optimum: " + join_names(above) + ".")
    if below:
        parts.append("Fewer than the optimum (the joining nodes get less "
                     "than their share): " + join_names(below) + ".")
    if stuck:
        parts.append("Cannot grow as configured: " + join_names(
            name + (" (at every N)" if v == ns else f" (N = {_ns(v)})")
            for name, v in stuck.items()) + ".")
    parts.append(f"Details and the cost of room to grow: {q('growth')}. "
                 + ctx.csv_link("growth"))
    return [("growth", " ".join(parts))]


def section(ctx):
    out = [f"## {q('growth')}. Growth: from N to 2N nodes and back", ""]
    if _summary(ctx.exps) is None:
        return "\n".join(out + ["_No `growth` results yet._", ""])
    n, cs = configs(ctx.exps)
    if not cs:
        return "\n".join(out + ["_No `growth` rows to show._", ""])
    out += [f"N = {n:g} → {2 * n:g} → {n:g}: nodes join one at a time "
            "up to 2N, then leave one at a time, the newest first (LIFO). "
            "After every step every key is mapped again; the optimum is "
            "K/(n+1) keys for a join to n nodes and K/n for a leave from "
            "n. \"Provisioned for 2N\": the configuration a user must give "
            "to reach 2N (a capacity of 2N; Maglev's table for 2N), beside "
            "the default. Lookup time with that room is measured by the "
            "`overprovision` experiment. Cumulative moved/optimum: keys "
            "moved summed over the steps so far / the optima summed over "
            "the same steps (1 = minimal); largest step: the highest "
            "moved/optimum of a single join and of a single leave; "
            "max/mean: over the 2N live nodes; memory: MemoryBytes() "
            "after the step.", ""]
    out += ref_note(ctx)
    rows = []
    for c in cs:
        rows.append([c["label"], _cell(c["cum_2n"], "x"),
                     _cell(c["cum_back"], "x"),
                     f"{_cell(c['max_grow'], 'x')} / "
                     f"{_cell(c['max_shrink'], 'x')}",
                     _cell(c["bal_2n"], "x"),
                     _cell(c["mem_n"]), _cell(c["mem_2n"]),
                     c["na"] or ""])
    out += [render(ctx, ["configuration", "cumulative moved/optimum at 2N",
                         "back at N", "largest step: join / leave",
                         "max/mean at 2N", "memory at N",
                         "memory at 2N", "note"], rows), ""]
    # After the table: a long table moves to the page with the block before
    # it (layout.main_part), and these sentences stay in REPORT.md.
    out += [" ".join(sentences(n, cs)), ""]
    cost = lookup_cost(ctx.exps)
    out += [(cost + " " if cost else "") + ctx.data_links("growth"), ""]
    return "\n".join(out)


# ---------------------------------------------------------------------------
# figures: drawn by plots/make_figures.py and shown in this section

import style  # noqa: E402
from report.draw import Skip, need  # noqa: E402


def fig_cumulative(exps, out):
    (e,) = need(exps, "growth")
    n, cs = configs(exps)
    if not cs:
        raise Skip("no growth rows")
    s = e.summary
    s = s[(s["nodes"] == n) &
          (s["metric"] == "cumulative_moved_over_optimum")]
    fig, axes = style.new_figure(figsize=(9, 6))
    ax = axes[0][0]
    drawn = 0
    seen = set()
    for c in cs:
        d = filt(s, **var_filter(c["var"])).dropna(subset=["median"])
        if d.empty:
            continue
        d = d.sort_values("step")
        a = c["var"]["algorithm"]
        kw = style.line_kw(a)
        kw["linestyle"] = ":" if c["provisioned"] else "-"
        kw["markevery"] = max(1, n // 5)
        kw["markersize"] = 4
        kw["label"] = c["label"] if c["label"] not in seen else "_"
        seen.add(c["label"])
        ax.plot(d["step"], d["median"], **kw)
        drawn += 1
    if not drawn:
        raise Skip("no cumulative_moved_over_optimum rows")
    ax.axvline(n, color="grey", linewidth=0.8, linestyle=":")
    ax.axhline(1, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xlabel(f"step (1 .. {n:g}: joins to 2N = {2 * n:g}; "
                  f"{n + 1:g} .. {2 * n:g}: leaves back to N)")
    ax.set_ylabel("cumulative keys moved / cumulative optimum (1 = "
                  "minimal)")
    leg = style.legend_outside(fig, axes)
    fig.suptitle(f"Growth from N = {n:g} to {2 * n:g} and back: cumulative "
                 "moved/optimum (dotted: provisioned for 2N)")
    return style.save_figure(fig, out, "growth_cumulative", [e.meta], leg)


FIGURES = [
    ("growth_cumulative", "Cumulative keys moved over the optimum at every "
     "step of N → 2N → N, per configuration", fig_cumulative),
]

"""Decision guide: every item is computed from the data.

Ranking rule (common.rank): the best median in the metric's direction
(registry "better") wins only when its interval does not overlap the next
candidates' (median 95 % CI; min–max for 2–5 repetitions; exact values for
deterministic metrics); otherwise the item declares a tie among all
overlapping candidates. Timing cells without an interval (n = 1) are tied
with everything. Candidates are chosen from data and registry metadata:
"consistent" = measured add excess at most the optimum at every N
(report.disruption); constant-time lookup = registry lookup_class
"constant"; replicas / weights / arbitrary removal = declared capabilities.
No item assumes a workload that was not measured: the key sets of the
placement experiments have unit popularity per key; skewed (Zipf) request
popularity, stampedes and cascades come only from the cluster experiment's
items (report.cluster.guide_items)."""

import math

import pandas as pd

from report import (capabilities, cluster, disruption, overprovision,
                    presets, removal)
from report.common import (match_variant, filt, fmt_med, fmt_num, fmt_pct,
                           fmt_value, join_names, keys_per_node, med, one,
                           peers_in, pick_n, rank, replay_model, restrict,
                           variant_label)
from report.balance import HASH_COST_KEYSET, bounded_rows

VNODES_TARGET = 1.10  # "within 10 % of fair"


def _label(r):
    return variant_label(r)


def ranked(ctx, rows, metric, kind="num", unit=""):
    """'**best** v [ci]' or 'tie: **a** v, **b** w (95 % intervals
    overlap)', plus the runner-up when there is a winner."""
    best, tied = rank(rows, ctx.reg.better(metric), ctx.reg.timing(metric))
    if best is None:
        return None, None
    t = ctx.reg.timing(metric)

    def show(r):
        return f"**{_label(r)}** {fmt_med(r, kind, t)}{unit}"
    if tied:
        return ("tie between " + join_names([show(best)] +
                                            [show(r) for r in tied]) +
                " (95 % intervals overlap: no ranking inside the noise)",
                [best] + tied)
    others = [r for r in rows if r is not best and
              r.get("median") is not None and not math.isnan(r["median"])]
    sign = -1 if ctx.reg.better(metric) == "higher" else 1
    others.sort(key=lambda r: sign * r["median"])
    nxt = (f"; next: {_label(others[0])} {fmt_med(others[0], kind, t)}"
           f"{unit}, intervals separate") if others else ""
    return show(best) + nxt, [best]


def _consistent(ctx):
    """{algorithm: worst excess/optimum} and the algorithms whose excess is
    at most the optimum at every N (or not measured)."""
    meas = capabilities.measured(ctx)
    bad = {a: m["ratio"] for a, m in meas.items()
           if not math.isnan(m["ratio"]) and m["ratio"] > 1.0}
    return bad


def _rows(df):
    return [r.to_dict() for _, r in df.iterrows()]


def items(ctx):
    out = []
    bad = _consistent(ctx)
    excl = ", ".join(f"{a} (excess/opt. {r:.3g})" for a, r in
                     sorted(bad.items()))
    excl_txt = f" Not consistent, excluded: {excl}." if excl else ""
    lk = ctx.exps.get("lookup")
    if lk is not None:
        s = lk.summary
        s = s[~s["algorithm"].isin(peers_in(ctx))]
        for sc in ("prehashed", "string"):
            d = s[(s["metric"] == "lookup_ns") & (s["scenario"] == sc)]
            n = pick_n(d["nodes"], 1000)
            # Each algorithm at its default parameters (the variant measured
            # at the most N): ring with 10 vnodes is fast but unbalanced, and
            # a parameter sweep is not a competitor.
            from report.headline import default_variant
            keep = []
            for a in d["algorithm"].unique():
                var = default_variant(d, a)
                if var is not None:
                    keep.append(match_variant(d[d["algorithm"] == a], var))
            if keep:
                d = pd.concat(keep)
            d = d[(d["nodes"] == n) & ~d["algorithm"].isin(bad)]
            txt, _ = ranked(ctx, _rows(d), "lookup_ns", unit=" ns")
            if txt:
                out.append((f"fastest_lookup_{sc}",
                            f"Fastest consistent lookup at N={n} ({sc} "
                            f"keys; bounded_load: unplaced routing): {txt}."
                            + excl_txt + " " + ctx.csv_link("lookup")))
    dis = ctx.exps.get("disruption")
    meas = capabilities.measured(ctx)
    if dis is not None:
        s = dis.summary
        d = s[(s["scenario"] == "remove_random") &
              (s["metric"] == "moved_fraction")]
        n = pick_n(d["nodes"], 100)
        d = d[d["nodes"] == n]
        const = [a for a in d["algorithm"].unique()
                 if ctx.reg.lookup_class(a) == "constant"]
        c = d[d["algorithm"].isin(const)]
        txt, _ = ranked(ctx, _rows(c), "moved_fraction", "pct")
        if txt:
            opt = med(s, scenario="remove_random", nodes=n,
                      metric="moved_optimal_fraction")
            out.append(("constant_removal",
                        "Fewest keys moved on removing a random node among "
                        "algorithms declaring constant-time lookup ("
                        + join_names(sorted(const)) + f"; N={n}): {txt}; "
                        f"optimum {fmt_pct(opt)}. "
                        + ctx.csv_link("disruption")))
        mins = sorted(a for a, m in meas.items()
                      if m["minimal_disruption"])
        if mins:
            out.append(("minimal_disruption",
                        "Minimal disruption measured at every N (excess "
                        "within binomial noise of 0 or < 1 % of the "
                        "optimum): " + join_names(f"**{a}**" for a in mins)
                        + ". " + ctx.csv_link("disruption")))
        na = dis.not_applicable()
        na = na[na["scenario"] == "remove_random"]
        if not na.empty:
            a = sorted(na["algorithm"].unique())
            out.append(("no_middle_removal",
                        "Cannot remove a node from the middle: "
                        + ", ".join(f"**{x}**" for x in a) +
                        (f" ({na.iloc[0]['note']})" if len(a) == 1 else
                         " (their random-removal rows are `not applicable`)")
                        + "; use them only when nodes"
                        " leave in LIFO order. " + ctx.csv_link("disruption")))
    bal = ctx.exps.get("balance")
    bs = None
    if bal is not None:
        bs, ks = restrict(bal.summary, "keyset", "uniform")
        bs, _ = restrict(bs, "hash", "xxh64")
        d = bs[(bs["metric"] == "load_max_over_mean") &
               (bs["scenario"] == "measured")]
        n = pick_n(d["nodes"], 100)
        d = d[(d["nodes"] == n) & ~d["algorithm"].isin(bad)]
        txt, _ = ranked(ctx, _rows(d), "load_max_over_mean", "x")
        if txt:
            out.append(("best_balance",
                        f"Most even load at N={n}" +
                        (f" ({ks} keys)" if ks else "") +
                        f", max/mean median [95 % CI]: {txt}." + excl_txt +
                        " " + ctx.csv_link("balance")))
    rw = replicas_weights(ctx, bs)
    if rw:
        out.append(rw)
    mem = ctx.exps.get("memory")
    if mem is not None:
        s = mem.summary
        d = s[(s["metric"] == "memory_bytes") & s["placed_keys"].isna()]
        n = pick_n(d["nodes"], 1000)
        d = d[(d["nodes"] == n) & ~d["algorithm"].isin(bad)]
        txt, _ = ranked(ctx, _rows(d), "memory_bytes", unit=" bytes")
        if txt:
            out.append(("least_memory", f"Least memory at N={n} (no keys "
                        f"placed): {txt}. " + ctx.csv_link("memory")))
    bl = bounded_item(ctx)
    if bl:
        out.append(bl)
    hs = hash_item(ctx)
    if hs:
        out.append(hs)
    out += removal.guide_items(ctx, bad, ranked)
    out += overprovision.guide_items(ctx)
    out += presets.guide_items(ctx)
    out += cluster.guide_items(ctx)
    return out


def replicas_weights(ctx, bs):
    """Algorithms declaring replicas, weights and arbitrary removal, with
    their balance at N=100 (and the ring's vnodes for the target)."""
    cands = [a for a in ctx.reg.algorithms
             if all(ctx.reg.capability(a, c) for c in
                    ("replicas", "weights", "arbitrary_removal"))]
    if not cands:
        return None
    parts = []
    rows = []
    if bs is not None:
        d = bs[(bs["metric"] == "load_max_over_mean") &
               (bs["scenario"] == "measured")]
        n = pick_n(d["nodes"], 100)
        d = d[(d["nodes"] == n) & d["algorithm"].isin(cands)]
        rows = _rows(d)
        txt, _ = ranked(ctx, rows, "load_max_over_mean", "x")
        if txt:
            parts.append(f"max/mean at N={n}: {txt}")
    vn = ctx.exps.get("vnodes")
    if vn is not None and "ring" in cands:
        r = vnodes_for_target(vn)
        if r is not None:
            v, m, mem, n, reached, vmax = r
            parts.append(
                f"ring reaches median max/mean ≤ {VNODES_TARGET:g}× at "
                f"{v:g} vnodes ({m:.3g}×, {fmt_num(mem)} bytes, N={n})"
                if reached else
                f"no measured ring vnode count up to {vmax:g} reaches "
                f"≤ {VNODES_TARGET:g}× (best {m:.3g}× at {v:g} vnodes)")
    lk = ctx.exps.get("lookup")
    if lk is not None:
        s = lk.summary
        d = s[(s["metric"] == "lookup_ns") & (s["scenario"] == "prehashed")]
        n = pick_n(d["nodes"], 1000)
        d = d[(d["nodes"] == n) & d["algorithm"].isin(cands)]
        txt, _ = ranked(ctx, _rows(d), "lookup_ns", unit=" ns")
        if txt:
            parts.append(f"lookup at N={n}: {txt}")
    return ("replicas_weights",
            "Need replicas, weights and removal from the middle (declared "
            "by " + join_names(f"**{a}**" for a in sorted(cands)) + "): "
            + ("; ".join(parts) if parts else "no measurements") + ". "
            + ctx.csv_link("balance"))


def vnodes_for_target(vn):
    s = vn.summary
    m = s[(s["metric"] == "load_max_over_mean") &
          (s["scenario"] == "measured")]
    n = pick_n(m["nodes"], 100)
    if n is None:
        return None
    m = m[m["nodes"] == n].sort_values("vnodes")
    s = s[s["nodes"] == n]
    if m.empty:
        return None
    ok = m[m["median"] <= VNODES_TARGET]
    row = ok.iloc[0] if not ok.empty else m.loc[m["median"].idxmin()]
    mem = med(s, metric="memory_bytes", vnodes=row["vnodes"])
    return (float(row["vnodes"]), float(row["median"]), mem, n,
            not ok.empty, float(m["vnodes"].max()))


def bounded_item(ctx):
    bl = ctx.exps.get("bounded_load")
    if bl is None:
        return None
    s, n = bounded_rows(bl)
    m = s[(s["metric"] == "load_max_over_mean") &
          (s["scenario"] == "measured")]
    if m.empty:
        return None
    cs = sorted(m["load_factor"].dropna().unique())
    c = 1.25 if 1.25 in cs else cs[len(cs) // 2]
    mm = one(filt(m, load_factor=c))
    mv = one(filt(s, load_factor=c, scenario="add", metric="moved_fraction"))
    op = med(s, load_factor=c, scenario="add",
             metric="moved_optimal_fraction")
    return ("bounded_load",
            f"Load capped at c × mean by construction: **bounded_load "
            f"c={c:g}** at N={n}, {keys_per_node(mm)}: max/mean "
            f"{fmt_med(mm, 'x', False)}, moves {fmt_med(mv, 'pct', False)} "
            f"of keys on add vs optimum {fmt_pct(op)}. "
            + replay_model("bounded_load")
            + " " + ctx.csv_link("bounded_load"))


def hash_item(ctx):
    hs = ctx.exps.get("hashes")
    if hs is None:
        return None
    s = hs.summary
    bal = s[(s["metric"] == "load_max_over_mean") &
            (s["scenario"].isin(["measured", ""]))]
    spd = s[s["metric"] == "hash_ns"]
    if bal.empty or spd.empty:
        return None
    n = bal["nodes"].max()
    bal = bal[bal["nodes"] == n]
    cost_ks = HASH_COST_KEYSET if HASH_COST_KEYSET in set(spd["keyset"]) \
        else sorted(spd["keyset"].unique())[0]
    # each hash's worst row (over key sets and algorithms)
    worst = {}
    for h, g in bal.groupby("hash"):
        worst[h] = g.loc[g["median"].idxmax()].to_dict()
    best_h, tied = rank(list(worst.values()), "lower", False)
    ok = [best_h["hash"]] + [r["hash"] for r in tied]
    cands = [one(filt(spd, hash=h, keyset=cost_ks)) for h in ok]
    cands = [r for r in cands if r is not None]
    if not cands:
        return None
    for r in cands:
        r["algorithm"] = f"`{r['hash']}`"
        for c in ("vnodes", "table_size", "load_factor"):
            r[c] = float("nan")
    txt, _ = ranked(ctx, cands, "hash_ns", unit=" ns")
    return ("hash_choice",
            f"Hash: among the hashes whose worst max/mean over key sets and "
            f"algorithms at N={n:g} is tied with the best "
            f"({join_names(sorted(ok))}), the cheapest on the `{cost_ks}` "
            f"key set: {txt}. " + ctx.csv_link("hashes"))


def section(ctx):
    its = items(ctx)
    out = ["## Decision guide", "",
           "Every item is computed from this report's runs: medians with "
           "their 95 % CIs; a winner is named only when its interval "
           "separates from the others, otherwise the item declares a tie.",
           ""]
    if not its:
        out.append("_Not enough data yet._")
    for gid, text in its:
        out.append(f"- <a id=\"g-{gid}\"></a>{text}")
    out.append("")
    return "\n".join(out)


__all__ = ["section", "items", "ranked", "fmt_value"]

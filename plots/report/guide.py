"""Decision guide: every item is computed from the data.

Ranking rule (ranked, common.rank_paired): the best median in the metric's
direction (registry "better") is compared with every other candidate. Where
the two cells were measured on the same seeds or in the same rounds of one
timing group, the comparison is paired: the per-seed (per-round) ratio
other / best and its interval (the 95 % CI of the median ratio for 6 or
more pairs, a paired Student-t interval of the log ratio for 2–5); the
other is tied with the best unless that interval lies entirely on the worse
side of 1. Cells that do not pair up (another timing group, other seeds)
are compared by their own intervals (95 % CI of the median; min–max for
2–5 repetitions, labelled so; exact values for deterministic metrics): tied
when they overlap. A cell without an interval (n = 1, n_eff = 1) is
compared by its value, never tied with everything. Each item says how many
comparisons with the best it made (each at 95 %, no correction for their
number).

Candidates are chosen from data and registry metadata: "consistent" =
measured add excess at most the optimum at every N (report.disruption);
"can add and remove" = no `not applicable` add in the disruption or build
data for that configuration (AnchorHash at a = N has no free bucket);
constant-time lookup = registry lookup_class "constant"; replicas / weights
/ arbitrary removal = declared capabilities. Balance items use the exact
hash-space shares (exact_max_over_mean, no key sampling) where a run has
them, else key counts, compared with the multinomial expectation of an
ideal uniform placement of the same keys (the balance analytic rows). No
item assumes a workload that was not measured: the key sets of the
placement experiments have unit popularity per key; skewed (Zipf) request
popularity, stampedes and cascades come only from the cluster experiment's
items (report.cluster.guide_items). The replica-set items (stable sets,
recovery spread, data lost) rank the zone-aware placements of the
replicas experiment at its headline configuration and say whether the
winner holds at every measured N, r and zoned topology
(report.replicas.guide_items)."""

import math

import pandas as pd

from report import (batching, capabilities, cluster, disruption, growth,
                    overprovision, presets, removal, replicas)
from report.common import (PARAM_COLS, cannot_add, filt, fmt_med, fmt_num,
                           fmt_paired, var_key as _var_key,
                           fmt_pct, fmt_value, interval, interval_words,
                           join_names,
                           keys_per_node, med, one, peers_in, pick_n, rank,
                           rank_paired, replay_model, restrict,
                           variant_label)
from report.balance import (HASH_COST_KEYSET, bounded_rows, bounded_scheme,
                            exact_rows, uniform_expectation)
from report.questions import q

VNODES_TARGET = 1.10  # "within 10 % of fair"
# Bytes above the smallest footprint that count as "the same": 1 % of it
# (at N = 1000 under one byte per node).
MEMORY_TOL = 0.01
# A lookup at least this much faster at the N nearest a power of two than
# at the measured N on both sides "tracks N / 2^ceil(log2 N)".
POW2_DIP = 0.8
LOW_KEYS_PER_NODE = 10
# A timing ratio below 1 + TIMING_MARGIN is not called a difference: the
# intervals are within one run, and the same computation timed in two
# groups of one run differs by a few per cent (the node-failure
# section's note on the nothing-removed cells).
TIMING_MARGIN = 0.05


def _label(r):
    return variant_label(r)


def _basis(timing):
    return "per-round" if timing else "per-seed"


def fmt_n(n):
    return fmt_num(n)


def comparison_note(infos, rows, timing, margin=0.0, floor=0):
    """'(… ; k comparisons with the best, each at …)' for ranked(): what
    the comparisons of one or more rankings (their rank_paired infos)
    were. rows: the ranked rows (for the interval words of the marginal
    comparisons); floor: how many rows were tied at the ideal-placement
    expectation."""
    parts = []
    pr = [p for i in infos for p in i["paired"].values()]
    marg = [r for i in infos for r in i["marginal"]]
    if pr:
        methods = sorted({p["method"] for p in pr})
        parts.append(f"{_basis(timing)} ratios to the best, paired "
                     f"({'; '.join(methods)})"
                     + (f"; a ratio under {1 + margin:.3g}× is not called "
                        "a difference" if margin else ""))
    if floor:
        parts.append(f"{floor} tied because "
                     f"{'its' if floor == 1 else 'their'} own interval "
                     "holds the ideal-placement expectation")
    if marg:
        parts.append(f"{len(marg)} not pairable with the best (another "
                     "timing group or seed set), compared by overlap of "
                     + interval_words(rows, timing))
    ks = sorted({i["comparisons"] for i in infos if i["comparisons"]})
    lv = sorted({i["level"] for i in infos if i["paired"]})
    if ks:
        kt = (f"{ks[0]}" if len(ks) == 1 else f"{ks[0]}–{ks[-1]}")
        per = " per ranking" if len(infos) > 1 else ""
        if lv and (ks[-1] > 1):
            lt = (f"{100 * lv[0]:.3g} %" if len(lv) == 1 else
                  f"{100 * lv[0]:.3g}–{100 * lv[-1]:.3g} %")
            parts.append(f"{kt} comparisons with the best{per}; the paired "
                         f"ones each at {lt} (Bonferroni: 95 % for the "
                         "ranking as a whole)"
                         + (", the others at 95 % each" if marg else ""))
        else:
            parts.append(f"{kt} comparison{'s' if ks[-1] != 1 else ''} "
                         f"with the best{per}, each at 95 %")
    return " (" + "; ".join(parts) + ")" if parts else ""


def ranked(ctx, rows, metric, kind="num", unit="", data=None,
           floor=None, notes=None, better=None):
    """('**best** v [ci]' or 'tie between **a** v, **b** w …', the rows
    named): ties by common.rank_paired (paired where `data` rows pair up;
    timing ratios under 1 + TIMING_MARGIN are no difference), the
    runner-up beside a winner, and the comparisons made (appended, or
    added to the list `notes` as (info, rows, timing, margin, floor) for
    one summary of several rankings). With `floor` (the expectation of an
    ideal placement of the same keys) a row whose own interval holds it
    is tied too: the data cannot tell it from ideal. `better` ("lower" or
    "higher") overrides the registry's direction (a metric derived here,
    or named by a pattern the registry lists)."""
    timing = ctx.reg.timing(metric)
    margin = TIMING_MARGIN if timing else 0.0
    better = better or ctx.reg.better(metric)
    best, tied, info = rank_paired(rows, data, better, timing, margin=margin)
    if best is None:
        return None, None
    at_floor = []
    if floor is not None and not math.isnan(floor):
        for r in rows:
            if r is best or any(r is t for t in tied):
                continue
            iv = interval(r, timing)
            if iv is not None and iv[0] <= floor <= iv[1]:
                at_floor.append(r)
        tied = tied + at_floor
        sign = -1 if better == "higher" else 1
        tied.sort(key=lambda r: sign * float(r["median"]))
    bl = _label(best)

    def show(r):
        return f"**{_label(r)}** {fmt_med(r, kind, timing)}{unit}"

    def vs(r):
        p = info["paired"].get(id(r))
        return (f" ({fmt_paired(p, kind)} {bl}'s)" if p is not None
                else "")
    if notes is not None:
        notes.append((info, rows, timing, margin, len(at_floor)))
        note = ""
    else:
        note = comparison_note([info], rows, timing, margin, len(at_floor))
    if tied:
        return ("tie between " + join_names(
            [show(best)] + [show(r) + vs(r) for r in tied]) +
            (" (not separated from the best; " + note[2:] if note else ""),
            [best] + tied)
    others = [r for r in rows if r is not best and
              r.get("median") is not None and not math.isnan(r["median"])]
    sign = -1 if better == "higher" else 1
    others.sort(key=lambda r: sign * r["median"])
    nxt = (f"; next: {_label(others[0])} {fmt_med(others[0], kind, timing)}"
           f"{unit}{vs(others[0])}, separate") if others else ""
    return show(best) + nxt + note, [best]


def notes_text(notes):
    """One comparison_note for the rankings collected in `notes`."""
    if not notes:
        return ""
    rows = [r for n in notes for r in n[1]]
    return comparison_note([n[0] for n in notes], rows, notes[0][2],
                           notes[0][3], sum(n[4] for n in notes))


def _consistent(ctx):
    """{algorithm: worst excess/optimum} of the algorithms whose excess is
    above the optimum at some N (the others count as consistent)."""
    meas = capabilities.measured(ctx)
    bad = {a: m["ratio"] for a, m in meas.items()
           if not math.isnan(m["ratio"]) and m["ratio"] > 1.0}
    return bad


def _rows(df):
    return [r.to_dict() for _, r in df.iterrows()]


def _no_room_text(ctx, excl, n):
    """'anchor (a = N: no free bucket, cannot add a node; with room, <the
    overprovision question> …)'."""
    out = []
    op = ctx.exps.get("overprovision")
    for r in excl:
        txt = f"{_label(r)} (a = N: no free bucket, cannot add a node"
        if op is not None:
            s = op.summary
            room = s[(s["algorithm"] == r["algorithm"]) &
                     (s["metric"] == "lookup_ns") &
                     (s["scenario"] == "prehashed") &
                     (s["capacity"] > s["nodes"])]
            room = room[room["nodes"] == pick_n(room["nodes"], n)] \
                if not room.empty else room
            if not room.empty:
                txt += (f"; with room, {q('overprovision')}, another timing "
                        "group: ") + ", ".join(
                    f"{_label(x)} {fmt_med(x)} ns at N={fmt_n(x['nodes'])}, "
                    f"room for {fmt_num(x['capacity'] - x['nodes'])} more "
                    "nodes" for x in _rows(room.sort_values("capacity")))
        out.append(txt + ")")
    return out


def fill(n):
    """N / 2^ceil(log2 N): how full the next power of two is."""
    n = float(n)
    return n / 2 ** math.ceil(math.log2(n)) if n >= 1 else float("nan")


def pow2_sensitive(d):
    """Algorithms (variant labels) of lookup rows d whose time at the
    measured N with the fullest next power of two is below POW2_DIP times
    their time at a smaller and at a larger measured N."""
    out = []
    for key, g in d.groupby(d.apply(lambda r: _label(r.to_dict()), axis=1)):
        t = g.groupby("nodes")["median"].first().sort_index()
        ns = list(t.index)
        inner = [x for x in ns[1:-1]]
        if not inner:
            continue
        star = max(inner, key=fill)
        i = ns.index(star)
        if t[star] < POW2_DIP * t[ns[i - 1]] and \
                t[star] < POW2_DIP * t[ns[i + 1]]:
            out.append((key, star))
    return out


def fastest_items(ctx, bad):
    """The fastest lookups among configurations that can both add and
    remove a node: prehashed at every measured N; string keys at the N
    with the most algorithms timed, naming the ones not timed."""
    lk = ctx.exps.get("lookup")
    if lk is None:
        return []
    out = []
    s = lk.summary
    s = s[~s["algorithm"].isin(peers_in(ctx)) & (s["metric"] == "lookup_ns")]
    noadd = cannot_add(ctx)
    excl = ", ".join(f"{a} (excess/opt. {r:.3g})" for a, r in
                     sorted(bad.items()))
    excl_txt = f" Not consistent, excluded: {excl}." if excl else ""
    # prehashed: every N
    d = s[s["scenario"] == "prehashed"]
    d = d[~d["algorithm"].isin(bad)]
    parts, winners, no_room, notes = [], [], {}, []
    named = set()
    for n in sorted(d["nodes"].dropna().unique()):
        dn = d[d["nodes"] == n]
        rows = _rows(dn)
        keep = [r for r in rows if _var_key(r) not in noadd]
        for r in rows:
            if _var_key(r) in noadd:
                no_room.setdefault(_label(r), r)
        txt, who = ranked(ctx, keep, "lookup_ns", unit=" ns", data=lk.data,
                          notes=notes)
        if txt:
            parts.append(f"N={fmt_n(n)} ({len(keep)} configurations): "
                         f"{txt}")
            winners.append({_label(r) for r in who})
            named |= {r["algorithm"] for r in who}
    if parts:
        always = set.intersection(*winners) if winners else set()
        change = ("; " + join_names(sorted(always))
                  + " is fastest or tied at every N" if always else
                  "; no configuration is fastest at every N")
        sens = pow2_sensitive(d)
        pow2 = ""
        if sens:
            ns = sorted(d["nodes"].dropna().unique())
            pow2 = (" " + join_names(sorted(k for k, _ in sens))
                    + " are fastest at N="
                    + join_names(sorted({fmt_n(x) for _, x in sens}))
                    + " and slower at the N on both sides: their lookup "
                    "tracks how full the next power of two is (N / "
                    "2^⌈log2 N⌉ = " + ", ".join(
                        f"{fill(x):.2f} at N={fmt_n(x)}" for x in ns)
                    + "), so a ranking at one N does not carry over to "
                    "another.")
        nr = _no_room_text(ctx, list(no_room.values()),
                           pick_n(d["nodes"], 1000))
        lifo = sorted(named & lifo_only(ctx))
        if lifo:
            pow2 += (" Of the configurations named, " + join_names(lifo)
                     + " can remove only the last node (LIFO): not for "
                     "arbitrary failures.")
        out.append(("fastest_lookup_prehashed",
                    "Fastest lookup among consistent configurations that "
                    "can both add and remove a node (prehashed keys; "
                    "bounded_load: unplaced routing), at every measured N"
                    + notes_text(notes) + ": "
                    + "; ".join(parts) + change + "." + pow2
                    + (" Not ranked, cannot add: " + "; ".join(nr) + "."
                       if nr else "")
                    + excl_txt + " " + ctx.csv_link("lookup")))
    # string keys
    d = s[s["scenario"] == "string"]
    if not d.empty:
        n = d.groupby("nodes")["algorithm"].nunique().idxmax()
        dn = d[(d["nodes"] == n) & ~d["algorithm"].isin(bad)]
        keep = [r for r in _rows(dn) if _var_key(r) not in noadd]
        timed = set(d[d["nodes"] == n]["algorithm"])
        pre = set(s[(s["scenario"] == "prehashed") & (s["nodes"] == n)]
                  ["algorithm"]) - set(bad)
        missing = sorted(pre - timed)
        txt, _ = ranked(ctx, keep, "lookup_ns", unit=" ns", data=lk.data)
        if txt:
            ks = sorted(set(dn["keyset"]))
            out.append(("fastest_lookup_string",
                        f"Fastest lookup with string keys at N={n:g} "
                        f"(key set {join_names(ks)}; hash + lookup), among "
                        "the configurations timed with string keys there: "
                        + txt + "."
                        + (" Not timed with string keys at this N (no "
                           "ranking for them): " + join_names(missing)
                           + "." + _presets_string(ctx, missing, bad, noadd)
                           if missing else "")
                        + excl_txt + " " + ctx.csv_link("lookup")))
    return out


def lifo_only(ctx):
    """Algorithms that only the last node can leave, by the disruption
    data: their random removal is `not applicable`, or they have
    remove_last rows and no random-removal values."""
    dis = ctx.exps.get("disruption")
    if dis is None:
        return set()
    na = dis.not_applicable()
    return set(na[na["scenario"] == "remove_random"]["algorithm"]) | \
        set(disruption._last_only(dis.summary))


def _presets_string(ctx, names, bad, noadd):
    """Where the presets experiment times some of `names` with string
    keys: ' The `presets` run times … (another run): …', ranked among its
    plain algorithms under the same exclusions."""
    e = ctx.exps.get("presets")
    if e is None:
        return ""
    s = e.summary
    d = s[(s["metric"] == "lookup_ns") & (s["scenario"] == "string")]
    have = sorted(set(d["algorithm"]) & set(names))
    if not have:
        return ""
    plain = [a for a in set(d["algorithm"])
             if a in ctx.reg.algorithms and a not in bad]
    n = d[d["algorithm"].isin(plain)]["nodes"].max()
    rows = [r for r in _rows(d[(d["nodes"] == n) &
                               d["algorithm"].isin(plain)])
            if _var_key(r) not in noadd]
    txt, _ = ranked(ctx, rows, "lookup_ns", unit=" ns", data=e.data)
    ks = sorted(set(d["keyset"]))
    return (f" The `presets` run (another run; key set "
            f"{join_names(ks)}, key hash xxh64) times {join_names(have)} "
            f"with string keys; its plain algorithms at N={fmt_n(n)}: {txt}."
            if txt else "")


def removal_item(ctx, dis):
    """Keys moved beyond the optimum on removing a random node, among the
    algorithms declaring constant-time lookup."""
    s = dis.summary
    d = s[s["scenario"] == "remove_random"]
    n = pick_n(d["nodes"], 100)
    d = d[d["nodes"] == n]
    const = [a for a in d["algorithm"].unique()
             if ctx.reg.lookup_class(a) == "constant"]
    minimal, extra = [], []
    for r in _rows(d[d["algorithm"].isin(const) &
                     (d["metric"] == "moved_excess_fraction")]):
        if r.get("median") is None or pd.isna(r["median"]):
            continue
        op = one(filt(d, metric="moved_optimal_fraction",
                      **{c: r[c] for c in ("algorithm",)},
                      **{c: (None if pd.isna(r[c]) else r[c])
                         for c in PARAM_COLS}))
        k = r.get("keys")
        ratio, ok = disruption.judge_at(
            float(k) if k is not None and not pd.isna(k) else float("nan"),
            float(op["median"]) if op else float("nan"), float(r["median"]))
        (minimal if ok else extra).append((r, ratio))
    if not minimal and not extra:
        return None
    opt = med(s, scenario="remove_random", nodes=n,
              metric="moved_optimal_fraction")
    txt = ("Keys moved on removing a random node among algorithms declaring "
           "constant-time lookup (" + join_names(sorted(const))
           + f"; N={n:g}, optimum {fmt_pct(opt)}): ")
    if minimal:
        txt += ("only the removed node's keys move (excess within binomial "
                "noise of 0) for " + join_names(
                    f"**{_label(r)}**" for r, _ in minimal))
    if extra:
        txt += ("; more keys than necessary move for " if minimal else
                "more keys than necessary move for ") + join_names(
            f"**{_label(r)}** (excess {fmt_med(r, 'pct', False)}, "
            f"{x:.3g}× the optimum)" for r, x in
            sorted(extra, key=lambda t: t[1]))
    txt += (". For the minimal ones the moved fraction is the removed "
            "node's share of the keys, a balance figure, not a "
            "disruption ranking. ")
    return ("constant_removal", txt + ctx.csv_link("disruption"))


def low_power(dis):
    """[(label, N, keys per node)] of the disruption cells judged on fewer
    than LOW_KEYS_PER_NODE keys per node."""
    s = dis.summary
    d = s[(s["metric"] == "moved_fraction") & s["keys"].notna() &
          s["scenario"].isin(disruption.SINGLE)]
    out = {}
    for r in _rows(d):
        kpn = float(r["keys"]) / float(r["nodes"])
        if kpn < LOW_KEYS_PER_NODE:
            out[(_label(r), r["nodes"])] = kpn
    return sorted((a, n, k) for (a, n), k in out.items())


def balance_rows(ctx, bs, n, names=None, metric="load_max_over_mean"):
    """(rows, source text, rows not in the exact data, data, floor) for
    the balance items at N: exact hash-space shares where the run has them
    for the candidates (floor None: no sampling), else key counts with the
    multinomial expectation of the same keys (floor; NaN if unknown)."""
    bal = ctx.exps.get("balance")
    d = bs[(bs["metric"] == metric) & (bs["scenario"] == "measured") &
           (bs["nodes"] == n)]
    if names is not None:
        d = d[d["algorithm"].isin(names)]
    keyrows = _rows(d)
    hs = sorted(set(d["hash"]))
    ks = sorted(set(d["keyset"]))
    ex = exact_rows(bal.summary, "exact_" + metric[len("load_"):], n,
                    hs[0] if len(hs) == 1 else None,
                    ks[0] if len(ks) == 1 else None) if bal else None
    if ex is not None and not ex.empty:
        if names is not None:
            ex = ex[ex["algorithm"].isin(names)]
        have = {_var_key(r) for r in _rows(ex)}
        rest = [r for r in keyrows if _var_key(r) not in have]
        return (_rows(ex), "exact hash-space shares (no key sampling)",
                rest, bal.data, None)
    floor = uniform_expectation(bal.summary if bal else None, n,
                                keyrows[0].get("keys") if keyrows else None,
                                metric)
    kpn = keys_per_node(keyrows[0]) if keyrows else ""
    src = "key counts" + (f", {kpn}" if kpn else "")
    if not math.isnan(floor):
        src += (f"; an ideal uniform placement of these keys averages "
                f"{fmt_value(floor, 'x')} (balance analytic rows), so "
                "values near it differ by sampling alone")
    return keyrows, src, [], (bal.data if bal else None), floor


def best_balance_item(ctx, bs, bad):
    d = bs[(bs["metric"] == "load_max_over_mean") &
           (bs["scenario"] == "measured")]
    n = pick_n(d["nodes"], 100)
    if n is None:
        return None
    names = sorted(set(d[d["nodes"] == n]["algorithm"]) - set(bad))
    rows, src, rest, data, floor = balance_rows(ctx, bs, n, names)
    txt, _ = ranked(ctx, rows, "load_max_over_mean", "x", data=data,
                    floor=floor)
    if not txt:
        return None
    ks = sorted(set(d["keyset"]))
    extra = ""
    if rest:
        extra = (" Not in the exact data, by key counts: " + join_names(
            f"{_label(r)} {fmt_med(r, 'x', False)}" for r in rest) + ".")
    excl = ", ".join(f"{a} (excess/opt. {r:.3g})" for a, r in
                     sorted(bad.items()))
    return ("best_balance",
            f"Most even load at N={n:g}" +
            (f" ({join_names(ks)} keys)" if ks else "") +
            f", max/mean median from {src}: {txt}." + extra
            + (f" Not consistent, excluded: {excl}." if excl else "")
            + " " + ctx.csv_link("balance"))


def items(ctx):
    out = []
    bad = _consistent(ctx)
    out += fastest_items(ctx, bad)
    dis = ctx.exps.get("disruption")
    meas = capabilities.measured(ctx)
    if dis is not None:
        it = removal_item(ctx, dis)
        if it:
            out.append(it)
        mins = sorted(a for a, m in meas.items()
                      if m["minimal_disruption"])
        if mins:
            lp = [x for x in low_power(dis) if x[0].split(" (")[0] in mins]
            out.append(("minimal_disruption",
                        "Minimal disruption measured at every N (excess "
                        "within binomial noise of 0 or < 1 % of the "
                        "optimum): " + join_names(f"**{a}**" for a in mins)
                        + "." + (" Judged on fewer than "
                                 f"{LOW_KEYS_PER_NODE} keys per node (little "
                                 "power to see an excess) at: " + join_names(
                                     f"{a} N={n:g} ({k:.2g} keys per node)"
                                     for a, n, k in lp) + "." if lp else "")
                        + " " + ctx.csv_link("disruption")))
        a = sorted(lifo_only(ctx))
        if a:
            out.append(("no_middle_removal",
                        "Cannot remove a node from the middle: "
                        + ", ".join(f"**{x}**" for x in a) +
                        " (the disruption data remove only their last node: "
                        "random removal `not applicable` or not run)"
                        "; use them only when nodes"
                        " leave in LIFO order. " + ctx.csv_link("disruption")))
    bal = ctx.exps.get("balance")
    bs = None
    if bal is not None:
        bs, ks = restrict(bal.summary, "keyset", "uniform")
        bs, _ = restrict(bs, "hash", "xxh64")
        it = best_balance_item(ctx, bs, bad)
        if it:
            out.append(it)
    rw = replicas_weights(ctx, bs)
    if rw:
        out.append(rw)
    lm = least_memory_item(ctx, bad)
    if lm:
        out.append(lm)
    bl = bounded_item(ctx)
    if bl:
        out.append(bl)
    hs = hash_item(ctx)
    if hs:
        out.append(hs)
    out += removal.guide_items(ctx, bad, ranked)
    out += replicas.guide_items(ctx, ranked)
    out += overprovision.guide_items(ctx)
    out += presets.guide_items(ctx)
    out += cluster.guide_items(ctx)
    out += batching.guide_items(ctx)
    out += growth.guide_items(ctx)
    return out


def least_memory_item(ctx, bad):
    """Least memory, as bytes above the smallest footprint measured (the
    node bookkeeping every algorithm shares: names and ids per node)."""
    mem = ctx.exps.get("memory")
    if mem is None:
        return None
    s = mem.summary
    d = s[(s["metric"] == "memory_bytes") & s["placed_keys"].isna()]
    n = pick_n(d["nodes"], 1000)
    d = d[(d["nodes"] == n) & d["median"].notna()]
    if d.empty:
        return None
    base = float(d["median"].min())
    at_base = sorted({_label(r) for r in _rows(d[d["median"] == base])})
    tol = MEMORY_TOL * base
    c = d[~d["algorithm"].isin(bad)].sort_values("median")
    same = [r for r in _rows(c) if r["median"] - base <= tol]
    above = [r for r in _rows(c) if r["median"] - base > tol]

    def extra(r):
        x = r["median"] - base
        return (f"{_label(r)} +{fmt_num(x)} bytes "
                f"({fmt_num(x / n)} per node)")
    txt = (f"Least memory at N={n:g} (no keys placed). Every algorithm "
           f"keeps per-node bookkeeping (names, ids): the smallest "
           f"footprint, {fmt_num(base)} bytes ({fmt_num(base / n)} per "
           f"node), is {join_names(at_base)}, which hold nothing else; "
           f"ranked by the bytes above it")
    if same:
        txt += (f": within {100 * MEMORY_TOL:g} % of it (a tie: no state "
                "worth counting): " + join_names(
                    f"**{_label(r)}** (+{fmt_num(r['median'] - base)})"
                    for r in same))
    if above:
        txt += ("; then " if same else ": ") + ", ".join(
            extra(r) for r in above[:3])
        if len(above) > 3:
            txt += f" and {len(above) - 3} more ({q('memory')})"
    return ("least_memory", txt + ". " + ctx.csv_link("memory"))


def replicas_weights(ctx, bs):
    """Algorithms declaring replicas, weights and arbitrary removal, with
    their balance at N=100 (and the ring's vnodes for the target)."""
    cands = [a for a in ctx.reg.algorithms
             if all(ctx.reg.capability(a, c) for c in
                    ("replicas", "weights", "arbitrary_removal"))]
    if not cands:
        return None
    parts = []
    if bs is not None:
        d = bs[(bs["metric"] == "load_max_over_mean") &
               (bs["scenario"] == "measured")]
        n = pick_n(d["nodes"], 100)
        if n is not None:
            rows, src, rest, data, floor = balance_rows(ctx, bs, n, cands)
            txt, _ = ranked(ctx, rows, "load_max_over_mean", "x", data=data,
                            floor=floor)
            if txt:
                parts.append(f"max/mean at N={n:g} ({src}): {txt}"
                             + ("; by key counts: " + join_names(
                                 f"{_label(r)} {fmt_med(r, 'x', False)}"
                                 for r in rest) if rest else ""))
    vn = ctx.exps.get("vnodes")
    # the vnodes run sweeps the vnodes of a candidate
    if vn is not None and set(vn.summary["algorithm"]) & set(cands):
        r = vnodes_for_target(vn, ctx.exps.get("balance"))
        if r is not None:
            parts.append(vnodes_text(r))
    lk = ctx.exps.get("lookup")
    if lk is not None:
        s = lk.summary
        d = s[(s["metric"] == "lookup_ns") & (s["scenario"] == "prehashed")]
        n = pick_n(d["nodes"], 1000)
        d = d[(d["nodes"] == n) & d["algorithm"].isin(cands)]
        txt, _ = ranked(ctx, _rows(d), "lookup_ns", unit=" ns", data=lk.data)
        if txt:
            parts.append(f"lookup at N={n:g}: {txt}")
    return ("replicas_weights",
            "Need replicas, weights and removal from the middle (declared "
            "by " + join_names(f"**{a}**" for a in sorted(cands)) + "): "
            + ("; ".join(parts) if parts else "no measurements") + ". "
            + ctx.csv_link("balance"))


def vnodes_for_target(vn, bal=None):
    """The ring's vnodes for median max/mean <= VNODES_TARGET at the
    vnodes run's N (100 preferred): a dict with v, value, memory, n,
    reached, vmax, source ("exact" or "keys"), keys per node and the
    multinomial expectation of those keys (floor, keys only)."""
    s = vn.summary
    ex = s[(s["metric"] == "exact_max_over_mean")]
    m = s[(s["metric"] == "load_max_over_mean") &
          (s["scenario"] == "measured")]
    source = "keys"
    if not ex.empty:
        m, source = ex, "exact"
    n = pick_n(m["nodes"], 100)
    if n is None:
        return None
    m = m[(m["nodes"] == n) & m["median"].notna()].sort_values("vnodes")
    s = s[s["nodes"] == n]
    if m.empty:
        return None
    ok = m[m["median"] <= VNODES_TARGET]
    row = ok.iloc[0] if not ok.empty else m.loc[m["median"].idxmin()]
    mem = med(s, metric="memory_bytes", vnodes=row["vnodes"])
    out = dict(v=float(row["vnodes"]), value=float(row["median"]), mem=mem,
               n=n, reached=not ok.empty, vmax=float(m["vnodes"].max()),
               source=source, kpn="", floor=float("nan"))
    if source == "keys":
        out["kpn"] = keys_per_node(row.to_dict())
        out["floor"] = uniform_expectation(
            bal.summary if bal is not None else None, n, row.get("keys"))
    return out


def vnodes_text(r):
    t = VNODES_TARGET
    src = ("exact hash-space shares" if r["source"] == "exact" else
           "key counts" + (f", {r['kpn']}" if r["kpn"] else ""))
    if r["reached"]:
        txt = (f"ring reaches median max/mean ≤ {t:g}× at {r['v']:g} vnodes "
               f"({r['value']:.3g}×, {fmt_num(r['mem'])} bytes, "
               f"N={r['n']:g}; {src})")
    else:
        txt = (f"no measured ring vnode count up to {r['vmax']:g} reaches "
               f"≤ {t:g}× in {src} (best {r['value']:.3g}× at {r['v']:g} "
               "vnodes)")
        if not math.isnan(r["floor"]) and r["floor"] > 1 + (t - 1) / 2:
            txt += (f", but an ideal uniform placement of these keys "
                    f"already averages {r['floor']:.3g}×: at this key "
                    "count sampling, not the ring, decides the target; "
                    "exact shares or more keys per node are needed")
    return txt


def bounded_item(ctx):
    bl = ctx.exps.get("bounded_load")
    if bl is None:
        return None
    a = bounded_scheme(bl)
    if a is None:
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
            f"Load capped at c × mean by construction: **{a} "
            f"c={c:g}** at N={n}, {keys_per_node(mm)}: max/mean "
            f"{fmt_med(mm, 'x', False)}, moves {fmt_med(mv, 'pct', False)} "
            f"of keys on add vs optimum {fmt_pct(op)}. "
            + replay_model(a)
            + " " + ctx.csv_link("bounded_load"))


def hash_worst(bal):
    """{hash: its worst max/mean row over key sets and algorithms}."""
    worst = {}
    for h, g in bal.groupby("hash"):
        worst[h] = g.loc[g["median"].idxmax()].to_dict()
    return worst


def hash_rows(ctx):
    """The hashes run's measured max/mean rows at its largest N, its hash_ns
    rows and the key set whose hashing cost is compared (HASH_COST_KEYSET
    when measured, else the first); None without both kinds of rows."""
    hs = ctx.exps.get("hashes")
    if hs is None:
        return None
    s = hs.summary
    bal = s[(s["metric"] == "load_max_over_mean") &
            (s["scenario"].isin(["measured", ""]))]
    spd = s[s["metric"] == "hash_ns"]
    if bal.empty or spd.empty:
        return None
    bal = bal[bal["nodes"] == bal["nodes"].max()]
    ks = HASH_COST_KEYSET if HASH_COST_KEYSET in set(spd["keyset"]) else \
        sorted(spd["keyset"].unique())[0]
    return bal, spd, ks


def hash_item(ctx):
    rows = hash_rows(ctx)
    if rows is None:
        return None
    hs = ctx.exps["hashes"]
    bal, spd, cost_ks = rows
    n = bal["nodes"].max()
    worst = hash_worst(bal)
    # A worst row without an interval (n_eff = 1) is compared by its value.
    best_h, tied = rank(list(worst.values()), "lower", False)
    ok = [best_h["hash"]] + [r["hash"] for r in tied]
    out_h = sorted(set(worst) - set(ok))
    cands = [one(filt(spd, hash=h, keyset=cost_ks)) for h in ok]
    cands = [r for r in cands if r is not None]
    if not cands:
        return None
    for r in cands:
        r["algorithm"] = f"`{r['hash']}`"
        for c in ("vnodes", "table_size", "load_factor"):
            r[c] = float("nan")
    txt, _ = ranked(ctx, cands, "hash_ns", unit=" ns", data=hs.data)
    iw = interval_words(list(worst.values()), False)
    return ("hash_choice",
            f"Hash: among the hashes whose worst max/mean over key sets and "
            f"algorithms at N={n:g} is tied with the best hash's worst "
            f"({join_names(sorted(ok))}; intervals: {iw}, a worst row "
            f"without one compared by its value), the cheapest on the "
            f"`{cost_ks}` key set: {txt}."
            + (" Worse: " + join_names(
                f"{h} (worst {fmt_med(worst[h], 'x', False)}, "
                f"{worst[h]['algorithm']}, {worst[h]['keyset']} keys)"
                for h in out_h) + "." if out_h else "")
            + " " + ctx.csv_link("hashes"))


def section(ctx):
    its = items(ctx)
    out = ["## Decision guide", "",
           "Every item is computed from this report's runs. Cells: median "
           "[95 % CI of the median], or \"(n=k)\" for 2–5 repetitions (no "
           "95 % interval exists; their min–max is used to compare them). "
           "A winner is named only when it separates from every other "
           "candidate: pairwise against the best, by the per-round or "
           "per-seed ratio and its interval where both were measured on "
           "the same rounds or seeds, otherwise by overlap of their own "
           "intervals; each item gives the number of such comparisons. "
           "Timing intervals are within one run (rounds of one process): "
           "separately timed groups and other runs differ by more.",
           ""]
    if not its:
        out.append("_Not enough data yet._")
    for gid, text in its:
        out.append(f"- <a id=\"g-{gid}\"></a>{text}")
    out.append("")
    return "\n".join(out)


__all__ = ["section", "items", "ranked", "fmt_value", "cannot_add",
           "pow2_sensitive", "vnodes_for_target", "hash_worst"]

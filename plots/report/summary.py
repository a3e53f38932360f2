"""The summary REPORT.md opens with: for a cache tier, an L4 load
balancer, a sharded store with replicas and numbered partitions, which
algorithm to use, the numbers that decide it (each with the run it comes
from) and when the answer changes. Every name and number is computed from
the runs by the rules below; only the uses and their needs are written
here (USES).

Candidates: the variants of the lookup experiment (prehashed keys, the
default hash, peers left out) that have a balance row. For each:
  * removal from the middle: the disruption data have remove_random values
    (capabilities.measured), else the registry's declaration;
  * minimal disruption: measured (capabilities.measured: the excess within
    binomial noise of 0 or below 1 % of the optimum at every N);
  * can add a node in its measured configuration: not in common.cannot_add
    (an add row `not applicable` in the disruption or build data:
    AnchorHash at a = N, "cannot add node"); growth room, where the data
    have it, from the overprovision experiment (the same algorithm with
    capacity a > N);
  * replicas: declared in registry.json.
A use keeps the candidates that meet its needs.

Every comparison is the decision guide's (guide.ranked: the best median,
and tied with it every candidate not separated from it, pairwise by the
per-round or per-seed ratio where both were measured on the same rounds
or seeds, else by the intervals; timing ratios under 1 + TIMING_MARGIN are
no difference; a balance row whose interval holds an ideal uniform
placement's expectation is tied too).

Balance: max/mean at N = 100 (the nearest measured N), key set uniform,
hash xxh64, the MEDIAN over repetitions (as the balance section), from the
key counts, or from the exact hash-space shares when every candidate has
them. The balance group: the most even candidate and those tied with it.

Lookup: prehashed lookup_ns, the MEDIAN over rounds, at every N at which
every member of the balance group was measured; at each N the fastest
member and those tied with it. The choice is the member fastest (or tied)
at the most of these N (then: the lowest median at N = 1000, or the
nearest N); the N where another member is faster are said, and so is a
choice whose lookup tracks how full the next power of two is
(guide.pow2_sensitive).

When the answer changes (each computed, each said only for the uses it
concerns): at other N; without a need (adding nodes, minimal disruption)
the choice again under the other needs; with half the nodes failed
(removal experiment, random order, the N of the decision guide's item);
with hot keys and on a stampede (cluster experiment, means over seeds as
its section); with string keys (the cheapest hash among those whose worst
balance is tied with the best, as the decision guide's hash item); a
faster candidate outside the balance group; for a store, the replica sets
themselves (replicas experiment, zone aware, at its headline
configuration: the best and those tied with it on a join, in scatter
width and in the loss at f random failures, as its section ranks them).
The store's choice itself is made on the primaries (the balance and
lookup rows) and says so.
"""

import math

from report import capabilities, guide
from report.balance import exact_rows, uniform_expectation
from report.common import (cannot_add, filt, fmt_mean, fmt_med, join_names,
                           one, peers_in, pick_n, rank, restrict, var_filter,
                           var_key, variant_label, variants)
from report.questions import q

BALANCE_N = 100
HEADLINE_N = 1000
FAIL_FRACTION = 0.5

# The uses: what they need of an algorithm, and the conditions worth
# checking for them. Needs: "removal" (nodes leave from the middle), "add"
# (nodes join), "consistent" (minimal disruption), "replicas".
USES = [
    dict(key="cache", title="Cache tier",
         what="cache servers join and die anywhere; string keys",
         needs=("removal", "add", "consistent"),
         changes=("n", "no_add", "failures", "stampede", "hot_keys",
                  "string")),
    dict(key="l4", title="L4 load balancer",
         what="backends join and fail; each flow hashed once: prehashed "
         "keys",
         needs=("removal", "add", "consistent"),
         changes=("n", "no_add", "no_consistent", "failures")),
    dict(key="store", title="Sharded store with replicas",
         what="shards join and fail; each key on several shards",
         needs=("replicas", "removal", "add", "consistent"),
         changes=("n", "faster", "failures", "string", "replica_sets")),
    dict(key="partitions", title="Numbered partitions",
         what="a fixed count N of partitions 0..N−1, prehashed keys",
         needs=(),
         changes=("n", "growth")),
]
NEED_TEXT = {"removal": "removal from the middle", "add": "adding a node",
             "consistent": "minimal disruption (measured)",
             "replicas": "replicas (declared)"}


def _n(x):
    return f"{int(x):,}"


def _ns(xs):
    return join_names(_n(x) for x in xs)


def _run(ctx, exp):
    e = ctx.exps.get(exp)
    return f"{exp} `{e.meta.get('run_id', '?')}`" if e is not None else exp


def _isnan(x):
    return x is None or (isinstance(x, float) and math.isnan(x))


# ---------------------------------------------------------------------------
# candidates


def balance_basis(ctx):
    """{rows: {var_key: balance row}, data, floor, src, n}: max/mean at
    N = 100 (nearest) from the key counts (uniform keys, xxh64), or from
    the exact hash-space shares where the run has them (exact: their rows
    by var_key); None without balance results."""
    bal = ctx.exps.get("balance")
    if bal is None:
        return None
    bs, _ = restrict(bal.summary, "keyset", "uniform")
    bs, _ = restrict(bs, "hash", "xxh64")
    d = bs[(bs["metric"] == "load_max_over_mean") &
           (bs["scenario"] == "measured")]
    n = pick_n(d["nodes"], BALANCE_N)
    if n is None:
        return None
    d = d[(d["nodes"] == n) & d["median"].notna()]
    rows = [r.to_dict() for _, r in d.iterrows()]
    keys = rows[0].get("keys") if rows else None
    hs, ks = sorted(set(d["hash"])), sorted(set(d["keyset"]))
    ex = exact_rows(bal.summary, "exact_max_over_mean", n,
                    hs[0] if len(hs) == 1 else None,
                    ks[0] if len(ks) == 1 else None)
    return dict(rows={var_key(r): r for r in rows}, data=bal.data, n=n,
                floor=uniform_expectation(bal.summary, n, keys),
                exact={var_key(r.to_dict()): r.to_dict()
                       for _, r in ex.iterrows()} if ex is not None else {})


def candidates(ctx):
    """[candidate dict]: var, label, algorithm, removal, consistent,
    can_add (and the note when not), replicas, bal (balance row), lk
    ({N: lookup row}); [] without lookup or balance results."""
    lk, basis = ctx.exps.get("lookup"), balance_basis(ctx)
    if lk is None or basis is None:
        return []
    s = lk.summary
    s = s[~s["algorithm"].isin(peers_in(ctx)) &
          (s["metric"] == "lookup_ns") & (s["scenario"] == "prehashed")]
    meas = capabilities.measured(ctx)
    noadd = cannot_add(ctx)
    out = []
    for var in variants(s):
        a = var["algorithm"]
        k = var_key(var)
        br = basis["rows"].get(k)
        if br is None:
            continue
        rows = filt(s, **var_filter(var))
        m = meas.get(a, {})
        removal = m.get("arbitrary_removal")
        if removal is None:
            removal = ctx.reg.capability(a, "arbitrary_removal")
        note = noadd.get(k)
        out.append(dict(
            var=var, key=k, label=variant_label(var), algorithm=a,
            removal=bool(removal), consistent=bool(
                m.get("minimal_disruption")), ratio=m.get("ratio"),
            can_add=note is None, add_note=note,
            replicas=bool(ctx.reg.capability(a, "replicas")), bal=br,
            exact=basis["exact"].get(k),
            lk={float(r["nodes"]): r.to_dict() for _, r in rows.iterrows()
                if r["median"] == r["median"]}))
    return out


def meets(c, needs):
    return all({"removal": c["removal"], "add": c["can_add"],
                "consistent": c["consistent"],
                "replicas": c["replicas"]}[n] for n in needs)


def tied_best(ctx, cands, rows, metric, data, floor=None):
    """The candidates of the rows (in rows' order) the decision guide's
    ranking puts first: the best and those tied with it."""
    _, who = guide.ranked(ctx, rows, metric, "x", data=data, floor=floor,
                          notes=[])
    by = {var_key(r): r for r in who or []}
    return sorted((c for c in cands if c["_row"] is not None and
                   var_key(c["_row"]) in by),
                  key=lambda c: float(c["_row"]["median"]))


def balance_group(ctx, cands):
    """The most even candidates: the best max/mean and those tied with it
    (exact shares when every candidate has them, else key counts)."""
    if not cands:
        return []
    basis = balance_basis(ctx)
    exact = all(c["exact"] is not None for c in cands)
    for c in cands:
        c["_row"] = c["balrow"] = c["exact"] if exact else c["bal"]
        c["floor"] = None if exact else basis["floor"]
    return tied_best(ctx, cands, [c["_row"] for c in cands],
                     "exact_max_over_mean" if exact else
                     "load_max_over_mean", basis["data"],
                     None if exact else basis["floor"])


def lookup_ns_values(group):
    """The N at which every member of the group has a lookup row."""
    if not group:
        return []
    common_n = set.intersection(*(set(c["lk"]) for c in group))
    return sorted(common_n)


def fastest(ctx, group, n):
    """(fastest candidates: the best and those tied with it, the others by
    median) at N = n."""
    lk = ctx.exps.get("lookup")
    for c in group:
        c["_row"] = c["lk"].get(n)
    win = tied_best(ctx, group, [c["_row"] for c in group
                                 if c["_row"] is not None],
                    "lookup_ns", lk.data if lk is not None else None)
    rest = sorted((c for c in group if c["_row"] is not None and
                   c not in win),
                  key=lambda c: float(c["_row"]["median"]))
    return win, rest


def choose(ctx, cands, needs):
    """{group, ns, per_n: {N: (winners, rest)}, pick} for the candidates
    meeting the needs; pick None when none qualifies."""
    group = balance_group(ctx, [c for c in cands if meets(c, needs)])
    ns = lookup_ns_values(group)
    per_n = {n: fastest(ctx, group, n) for n in ns}
    pick = None
    if group and ns:
        head = pick_n(ns, HEADLINE_N)

        def key(c):
            wins = sum(c in per_n[n][0] for n in ns)
            r = c["lk"].get(head)
            return (-wins, float(r["median"]) if r else math.inf)
        pick = min(group, key=key)
    elif group:
        pick = group[0]
    return dict(group=group, ns=ns, per_n=per_n, pick=pick)


# ---------------------------------------------------------------------------
# the statements


def _lk(c, n):
    return f"{fmt_med(c['lk'][n])} ns"


def _bal(c):
    return fmt_med(c["balrow"], "x", False)


def because(ctx, ch):
    """What decides the choice: its balance against the group's best, then
    its lookup time at each N against the next one."""
    c, group = ch["pick"], ch["group"]
    out = []
    b0 = group[0]
    row = c["balrow"]
    bn = _n(row["nodes"])
    what = "max/mean" if row["metric"] == "load_max_over_mean" else \
        "max/mean of the exact hash-space shares"
    if c is b0:
        out.append(f"{what} {_bal(c)} at N = {bn}, the most even")
    else:
        out.append(f"{what} {_bal(c)} at N = {bn}, not separated from the "
                   f"most even ({b0['label']} {_bal(b0)})")
    fl = c.get("floor")
    if fl is not None and fl == fl and len(group) > 1:
        out[-1] += (f"; an ideal uniform placement of these keys averages "
                    f"{fl:.3g}×")
    out[-1] += f" ({_run(ctx, 'balance')})"
    parts = []
    for n in ch["ns"]:
        win, rest = ch["per_n"][n]
        if c not in win:
            parts.append(f"N = {_n(n)}: {_lk(c, n)}")
            continue
        others = [w for w in win if w is not c]
        if others:
            parts.append(f"N = {_n(n)}: {_lk(c, n)}, tied with "
                         + join_names(f"{w['label']} {_lk(w, n)}"
                                      for w in others))
        elif rest:
            parts.append(f"N = {_n(n)}: {_lk(c, n)} (next: "
                         f"{rest[0]['label']} {_lk(rest[0], n)})")
        else:
            parts.append(f"N = {_n(n)}: {_lk(c, n)}")
    if parts:
        out.append("lookup " + "; ".join(parts) + f" ({_run(ctx, 'lookup')})")
    return out


def n_changes(ch):
    """The N at which another member of the group is faster beyond the
    noise, grouped by who is."""
    c = ch["pick"]
    by = {}
    for n in ch["ns"]:
        win, _ = ch["per_n"][n]
        if c not in win:
            key = tuple(w["label"] for w in win)
            by.setdefault(key, []).append((n, win))
    out = []
    for labels, items in by.items():
        ns = [n for n, _ in items]
        vals = "; ".join(
            f"{_lk(win[0], n)} against {_lk(c, n)} at N = {_n(n)}"
            for n, win in items)
        out.append(f"at N = {_ns(ns)}: **" + "** or **".join(labels)
                   + f"** ({vals})")
    return out


def winners_text(ch):
    """'**a** at N = 10 and 100 (x ns, y ns); **b** or **c** at N = 1,000
    (z ns)': the fastest of the group at each N, grouped by who."""
    by = {}
    for n in ch["ns"]:
        win, _ = ch["per_n"][n]
        if win:
            by.setdefault(tuple(w["label"] for w in win), []).append(
                (n, win[0]))
    return "; ".join(
        "**" + "** or **".join(labels) + "** at N = "
        + _ns(n for n, _ in items) + " ("
        + ", ".join(_lk(w, n) for n, w in items) + ")"
        for labels, items in by.items())


def _headline(ch):
    return pick_n(ch["ns"], HEADLINE_N) if ch["ns"] else None


def growth_room(ctx, c):
    """'with a = 2,000 (room for 1,000 more nodes): ... ns at N = 1,000
    (overprovision `...`)' for an algorithm that cannot add a node as
    measured, from the overprovision experiment; None without data."""
    ov = ctx.exps.get("overprovision")
    if ov is None:
        return None
    s = ov.summary
    d = s[(s["algorithm"] == c["algorithm"]) & (s["metric"] == "lookup_ns") &
          s["capacity"].notna() & (s["capacity"] > s["nodes"])]
    if d.empty:
        return None
    r = d.sort_values(["nodes", "capacity"]).iloc[0].to_dict()
    a, n = float(r["capacity"]), float(r["nodes"])
    return (f"with a = {_n(a)} (room for {_n(a - n)} more nodes): "
            f"{fmt_med(r)} ns at N = {_n(n)} ({_run(ctx, 'overprovision')})")


def no_add_change(ctx, cands, use, ch):
    """Without the need to add nodes: the choice again; said when it is
    another algorithm (with its growth room when it cannot add)."""
    needs = tuple(x for x in use["needs"] if x != "add")
    alt = choose(ctx, cands, needs)
    if alt["pick"] is None or ch["pick"] is None or \
            alt["pick"]["label"] == ch["pick"]["label"]:
        return None
    a = alt["pick"]
    txt = ("if nodes never join (a fixed set that only loses nodes): "
           + winners_text(alt) + f" ({_run(ctx, 'lookup')})")
    if not a["can_add"]:
        txt += (f"; {a['label']} cannot add a node as measured ("
                + _note(a["add_note"]) + ")")
        room = growth_room(ctx, a)
        if room:
            txt += "; " + room
    return txt


def _note(note):
    """The reason of a not-applicable note, shortened to its first
    clause."""
    t = str(note or "")
    t = t.split(":", 1)[1].strip() if t.lower().startswith(
        "not applicable") else t
    for sep in (";", " ("):
        t = t.split(sep)[0]
    return t.strip()


def no_consistent_change(ctx, cands, use, ch):
    """Without minimal disruption: the choice again, with how far it is
    from the optimum."""
    needs = tuple(x for x in use["needs"] if x != "consistent")
    alt = choose(ctx, cands, needs)
    if alt["pick"] is None or ch["pick"] is None or \
            alt["pick"]["label"] == ch["pick"]["label"]:
        return None
    a = alt["pick"]
    txt = ("if keys that move need not be few (e.g. connection tracking "
           "keeps established flows): " + winners_text(alt)
           + f" ({_run(ctx, 'lookup')})")
    if not a["consistent"] and not _isnan(a.get("ratio")):
        txt += (f", which moves keys beyond the optimum (worst "
                f"excess/optimum {a['ratio']:.3g}, "
                f"{_run(ctx, 'disruption')})")
    return txt


def growth_change(ctx, cands, ch):
    """Numbered partitions whose count changes: the choice among the
    consistent candidates that can add, and the growth room of a choice
    that cannot add."""
    out = []
    c = ch["pick"]
    if c is None:
        return out
    alt = choose(ctx, cands, ("add", "consistent"))
    if alt["pick"] is not None and alt["pick"]["label"] != c["label"]:
        out.append("if partitions are added (new ids at the end), the "
                   "fastest of the most even that add a node with minimal "
                   "disruption: " + winners_text(alt)
                   + f" ({_run(ctx, 'lookup')})")
        reasons = []
        if not c["can_add"]:
            reasons.append("cannot add a node as measured ("
                           + _note(c["add_note"]) + ")")
        if not c["consistent"]:
            reasons.append("moves keys beyond the optimum"
                           + (f" (worst excess/optimum {c['ratio']:.3g}, "
                              f"{_run(ctx, 'disruption')})"
                              if not _isnan(c.get("ratio")) else ""))
        if reasons:
            out[-1] += f"; {c['label']} " + " and ".join(reasons)
    if not c["can_add"]:
        room = growth_room(ctx, c)
        if room:
            out.append(f"{c['label']} {room}")
    return out


def failures_change(ctx, ch):
    """Half the nodes failed in random order (removal experiment, at the N
    of the decision guide's failure item): the fastest members of the
    group there."""
    rem = ctx.exps.get("removal")
    if rem is None or ch["pick"] is None:
        return None
    from report import removal
    lk = removal.lookup_rows(rem.summary)
    if lk is None:
        return None
    lk = lk[(lk["removal"] == "random") & lk["median"].notna()]
    n = removal._lookup_n(rem.summary, removal.GUIDE_N)
    if lk.empty or n is None:
        return None
    k = removal.removed_at(n, FAIL_FRACTION)
    for c in ch["group"]:
        c["_row"] = one(filt(lk, nodes=n, removed=k, **var_filter(c["var"])))
        c["_r0"] = one(filt(lk, nodes=n, removed=0.0,
                            **var_filter(c["var"])))
    have = [c for c in ch["group"] if c["_row"] is not None]
    win = tied_best(ctx, have, [c["_row"] for c in have], "lookup_ns",
                    rem.data)
    c = ch["pick"]
    if not win or c not in have:
        return None
    where = (f"with {FAIL_FRACTION * 100:.0f} % of N = {_n(n)} nodes "
             "failed in random order")
    before = (f", {fmt_med(c['_r0'])} ns with none failed"
              if c["_r0"] is not None else "")
    if c in win:
        return (f"{where}: {c['label']} still the fastest of these, "
                f"{fmt_med(c['_row'])} ns{before} ({_run(ctx, 'removal')})")
    w = win[0]
    return (f"{where}: **{w['label']}** {fmt_med(w['_row'])} ns against "
            f"{c['label']} {fmt_med(c['_row'])} ns{before} "
            f"({_run(ctx, 'removal')})")


def faster_change(ctx, cands, use, ch):
    """A candidate meeting the needs but outside the balance group that is
    faster at N = 1000 (nearest) than the choice, beyond the noise."""
    c = ch["pick"]
    n = _headline(ch)
    if c is None or n is None:
        return None
    others = [x for x in cands if meets(x, use["needs"]) and
              x not in ch["group"] and n in x["lk"]]
    if not others:
        return None
    f = min(others, key=lambda x: float(x["lk"][n]["median"]))
    for x in (f, c):
        x["_row"] = x["lk"][n]
    lk = ctx.exps.get("lookup")
    win = tied_best(ctx, [f, c], [f["_row"], c["_row"]], "lookup_ns",
                    lk.data if lk is not None else None)
    if win != [f]:
        return None
    return (f"if lookup time matters more than balance: **{f['label']}** "
            f"{_lk(f, n)} at N = {_n(n)} ({_run(ctx, 'lookup')}) with "
            f"max/mean {fmt_med(f['bal'], 'x', False)} "
            f"({_run(ctx, 'balance')})")


def pow2_change(ctx, ch):
    """A choice fastest at the N with the fullest next power of two and
    slower on both sides (guide.pow2_sensitive)."""
    c = ch["pick"]
    lk = ctx.exps.get("lookup")
    if c is None or lk is None or len(ch["ns"]) < 3:
        return None
    d = lk.summary
    d = filt(d[(d["metric"] == "lookup_ns") &
               (d["scenario"] == "prehashed") & d["nodes"].isin(ch["ns"])],
             **var_filter(c["var"]))
    hit = [x for lab, x in guide.pow2_sensitive(d) if lab == c["label"]]
    if not hit:
        return None
    return (f"{c['label']}'s lookup tracks how full the next power of two "
            f"is (N / 2^⌈log2 N⌉ = " + ", ".join(
                f"{guide.fill(x):.2f} at N = {_n(x)}" for x in ch["ns"])
            + f"): fastest at N = {_n(hit[0])}, slower on both sides, so "
            f"other N between those measured may rank it otherwise "
            f"({_run(ctx, 'lookup')})")


def hot_keys_change(ctx):
    """Skewed requests (cluster experiment): the busiest server under every
    key placement, and bounded_load's cap."""
    from report import cluster
    f = cluster.findings(ctx)
    hf = f["hot"] if f else None
    if not hf or not hf["free_range"]:
        return None
    (_, llo, rlo), (_, lhi, rhi) = hf["free_range"]
    txt = (f"with hot keys (Zipf s = {hf['z']:g}, N = {hf['n']}): the "
           "busiest server gets "
           + (f"{fmt_mean(rlo, 'x')} ({llo}) to {fmt_mean(rhi, 'x')} "
              f"({lhi})" if llo != lhi else
              f"{fmt_mean(rlo, 'x')} ({llo})")
           + " the mean requests under every key placement")
    caps = [b for b in hf["bounded"] if b["ok"]]
    if caps:
        b = min(caps, key=lambda b: abs(b["c"] - 1.25))
        txt += (f"; **{b['label']}** caps it at {fmt_mean(b['row'], 'x')}")
    return txt + f" ({_run(ctx, 'cluster')})"


def stampede_change(ctx, ch):
    """The choice on a join and a death of a cache server (cluster
    experiment): tied with the fewest extra database reads, or not."""
    from report import cluster
    c = ch["pick"]
    f = cluster.findings(ctx)
    sf = f["stampede"] if f else None
    if c is None or not sf:
        return None
    parts = []
    for sc, what in (("add", "a join"), ("remove", "a death")):
        g = sf["scenarios"].get(sc)
        if not g or not g["best"]:
            continue
        mine = [(lbl, cl) for v, lbl, cl in g["rows"]
                if v["algorithm"] == c["algorithm"]]
        if not mine:
            continue
        lbl, cl = mine[0]
        # the fewest: ring and the algorithms not separated from it by
        # seed, or the ones separated below it
        cmp_ = g["cmp"]
        top = ([x for x, _ in cmp_["below"]] if cmp_["below"] else
               [cmp_["ref"]] + g["tied"])
        parts.append((what, lbl in top, lbl, cl["extra_db_reads"],
                      g["best"]))
    if not parts:
        return None
    ok = [p for p in parts if p[1]]
    txt = (f"on a stampede (N = {sf['n']}): {c['label']} "
           + ("is tied with the fewest extra database reads (paired by "
              "seed against ring) on " + join_names(p[0] for p in ok)
              if ok else ""))
    bad = [p for p in parts if not p[1]]
    if bad:
        txt += ("; " if ok else "") + "; ".join(
            f"on {p[0]} {p[2]} reads {fmt_mean(p[3])} extra against "
            f"{p[4][0]}'s {fmt_mean(p[4][1])}" for p in bad)
    return txt + f" ({_run(ctx, 'cluster')})"


def string_change(ctx):
    """String keys: one key hash more for every algorithm; the cheapest of
    the hashes whose worst balance is tied with the best hash's worst (the
    decision guide's hash item)."""
    rows = guide.hash_rows(ctx)
    if rows is None:
        return None
    hs = ctx.exps["hashes"]
    bal, spd, ks = rows
    worst = guide.hash_worst(bal)
    best, tied = rank(list(worst.values()), "lower", False)
    if best is None:
        return None
    rows = [one(filt(spd, hash=h, keyset=ks))
            for h in [best["hash"]] + [r["hash"] for r in tied]]
    rows = [dict(r, algorithm=f"`{r['hash']}`") for r in rows
            if r is not None]
    _, who = guide.ranked(ctx, rows, "hash_ns", data=hs.data, notes=[])
    if not who:
        return None
    name = join_names(f"{r['algorithm']} {fmt_med(r)} ns" for r in who)
    return (f"with string keys: add one key hash, the same for every "
            f"algorithm; the cheapest of the evenly spreading hashes on "
            f"`{ks}` keys: {name} ({_run(ctx, 'hashes')})")


def replica_sets_change(ctx):
    """The replica sets themselves (replicas experiment, zone aware, at
    its headline configuration): who changes the fewest sets on a join,
    spreads a recovery widest and loses least at f random failures (the
    decision guide's rankings, replicas.RANKINGS)."""
    from report import replicas
    e = ctx.exps.get(replicas.EXP)
    if e is None:
        return None
    s, data = replicas.view(e)
    cfg = replicas.head_config(s)
    if cfg is None:
        return None
    parts = []
    for m, what in replicas.RANKINGS[:3]:
        w = replicas.winners(s, data, m, cfg)
        if w:
            parts.append(f"{what}: {' = '.join(w)}")
    if not parts:
        return None
    return (f"for the replica sets themselves ({replicas.cfg_text(cfg)}, "
            f"zone aware; {q('replicas')}): " + "; ".join(parts)
            + f" ({_run(ctx, replicas.EXP)})")


# ---------------------------------------------------------------------------
# the section


def replicas_measured(ctx):
    """True when the replicas experiment measured replica placement (its
    run has rows); a timing of replica lookups elsewhere (lookup's
    replicas_lookup_ns) says nothing about the sets placed."""
    e = ctx.exps.get("replicas")
    return e is not None and not e.summary.empty


def findings(ctx):
    """[{use, choice, because, changes}] for every use (choice None when
    no candidate meets its needs)."""
    cands = candidates(ctx)
    out = []
    for use in USES:
        ch = choose(ctx, cands, use["needs"])
        f = dict(use=use, choice=ch, because=[], changes=[],
                 cands=[c for c in cands if meets(c, use["needs"])])
        if ch["pick"] is not None:
            f["because"] = because(ctx, ch)
            ch_ = use["changes"]
            txt = []
            if "n" in ch_:
                txt += n_changes(ch)
                txt.append(pow2_change(ctx, ch))
            if "no_add" in ch_:
                txt.append(no_add_change(ctx, cands, use, ch))
            if "no_consistent" in ch_:
                txt.append(no_consistent_change(ctx, cands, use, ch))
            if "growth" in ch_:
                txt += growth_change(ctx, cands, ch)
            if "faster" in ch_:
                txt.append(faster_change(ctx, cands, use, ch))
            if "failures" in ch_:
                txt.append(failures_change(ctx, ch))
            if "stampede" in ch_:
                txt.append(stampede_change(ctx, ch))
            if "hot_keys" in ch_:
                txt.append(hot_keys_change(ctx))
            if "string" in ch_:
                txt.append(string_change(ctx))
            if "replica_sets" in ch_:
                txt.append(replica_sets_change(ctx))
            f["changes"] = [t for t in txt if t]
        out.append(f)
    return out


def _choice_text(ctx, f):
    ch, use = f["choice"], f["use"]
    c = ch["pick"]
    if c is None:
        return ("no measured algorithm meets the needs ("
                + join_names(NEED_TEXT[n] for n in use["needs"]) + ")")
    ns = ch["ns"]
    every = ns and all(c in ch["per_n"][n][0] for n in ns)
    txt = f"**{c['label']}**"
    if "replicas" in use["needs"]:
        txt = ("primaries: " + txt if replicas_measured(ctx) else
               "replica placement not yet measured; primaries: " + txt)
    if len(ch["group"]) == 1:
        cs = [x["label"] for x in f["cands"]]
        txt += (f" (the most even of {join_names(cs)}; lookup measured at "
                f"N = {_ns(ns)})" if len(cs) > 1 else
                f" (the only one; lookup measured at N = {_ns(ns)})")
    elif every and len(ns) > 1:
        txt += (" (the fastest of the most even at every measured N: "
                f"{_ns(ns)})")
    elif ns:
        won = [n for n in ns if c in ch["per_n"][n][0]]
        txt += (f" (the fastest of the most even at N = {_ns(won)})"
                if won else "")
    if not c["can_add"]:
        txt += f"; it cannot add a node as measured ({_note(c['add_note'])})"
    return txt


def section(ctx):
    out = ["## Summary", ""]
    fs = findings(ctx)
    if not any(f["choice"]["pick"] for f in fs):
        out += ["_Not enough data for a summary: it needs the lookup and "
                "balance experiments._", ""]
        return "\n".join(out)
    out += ["Which algorithm to use, computed from this report's runs "
            "(rules: `plots/report/summary.py`): among the algorithms that "
            "meet a use's needs, the most even (max/mean not separated "
            "from the best by the decision guide's comparisons), then the "
            "fastest lookup at each measured N. Cells: medians [95 % CI], "
            "\"(n=k)\" for 2–5 repetitions; the cluster's cells are means "
            "over seeds [95 % CI]; each number names its run.", ""]
    for f in fs:
        use = f["use"]
        needs = ("; needs " + join_names(NEED_TEXT[n] for n in use["needs"])
                 if use["needs"] else "; no partition ever joins or leaves")
        out.append(f"- **{use['title']}** ({use['what']}{needs}): "
                   + _choice_text(ctx, f) + ".")
        if f["because"]:
            out.append("  - Decided by: " + "; ".join(f["because"]) + ".")
        if f["changes"]:
            out.append("  - Changes: " + "; ".join(f["changes"]) + ".")
    out.append("")
    return "\n".join(out)


__all__ = ["section", "findings", "candidates", "choose", "balance_group",
           "USES"]

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
  * can add a node in its measured configuration: no `not applicable` add
    row for the variant in the disruption or build data (AnchorHash at
    a = N: "cannot add node"); growth room, where the data have it, from the
    overprovision experiment (the same algorithm with capacity a > N);
  * replicas: declared in registry.json.
A use keeps the candidates that meet its needs.

Balance: max/mean at N = 100 (the nearest measured N), key set uniform,
hash xxh64: the MEAN over repetitions with its 95 % interval, as the
balance section. The balance group is the most even candidate and every
candidate connected to it by overlapping intervals (in order of the mean,
each candidate's interval reaching the highest upper bound so far): no
step from one to the next is a difference beyond the noise, so the group
is not ranked by balance.

Lookup: prehashed lookup_ns, the MEDIAN over rounds with its 95 % CI, as
the lookup section, at every N at which every member of the balance group
was measured. At each N the fastest are the best median and the members
whose intervals overlap it (common.rank). The choice is the member fastest
(or tied) at the most of these N (then: the lowest median at N = 1000, or
the nearest N); the N where another member is faster are said.

When the answer changes (each computed, each said only for the uses it
concerns): at other N; without a need (adding nodes, minimal disruption)
the choice again under the other needs; with half the nodes failed
(removal experiment, random order, the largest N); with hot keys and on a
stampede (cluster experiment); with string keys (the cheapest hash among
those tied with the best balance, as the decision guide's hash item); a
faster candidate outside the balance group.
"""

import math

from report import capabilities
from report.common import (filt, fmt_mean, fmt_med, join_names,
                           mean_interval, mean_of, one, peers_in, pick_n,
                           rank, restrict, var_filter, variant_label)

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
         changes=("n", "faster", "failures", "string")),
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


def _cannot_add(ctx, var):
    """The `not applicable` note of an add row of the variant (disruption
    or build data), or None when every add row has a value."""
    for exp, col, val in (("disruption", "scenario", "add"),
                          ("build", "metric", "add_node_ns")):
        e = ctx.exps.get(exp)
        if e is None:
            continue
        d = filt(e.not_applicable(), **var_filter(var))
        d = d[d[col] == val]
        if not d.empty:
            return str(d.iloc[0]["note"])
    return None


def candidates(ctx):
    """[candidate dict]: var, label, algorithm, removal, consistent,
    can_add (and the note when not), replicas, bal (balance row), lk
    ({N: lookup row}); [] without lookup or balance results."""
    lk, bal = ctx.exps.get("lookup"), ctx.exps.get("balance")
    if lk is None or bal is None:
        return []
    s = lk.summary
    s = s[~s["algorithm"].isin(peers_in(ctx)) &
          (s["metric"] == "lookup_ns") & (s["scenario"] == "prehashed")]
    b, _ = restrict(bal.summary, "keyset", "uniform")
    b, _ = restrict(b, "hash", "xxh64")
    b = b[(b["metric"] == "load_max_over_mean") &
          (b["scenario"] == "measured")]
    bn = pick_n(b["nodes"], BALANCE_N)
    b = b[b["nodes"] == bn]
    meas = capabilities.measured(ctx)
    out = []
    for var in _variants(s):
        a = var["algorithm"]
        br = one(filt(b, **var_filter(var)))
        if br is None or _isnan(mean_of(br)):
            continue
        rows = filt(s, **var_filter(var))
        m = meas.get(a, {})
        removal = m.get("arbitrary_removal")
        if removal is None:
            removal = ctx.reg.capability(a, "arbitrary_removal")
        note = _cannot_add(ctx, var)
        out.append(dict(
            var=var, label=variant_label(var), algorithm=a,
            removal=bool(removal), consistent=bool(
                m.get("minimal_disruption")), ratio=m.get("ratio"),
            can_add=note is None, add_note=note,
            replicas=bool(ctx.reg.capability(a, "replicas")), bal=br,
            lk={float(r["nodes"]): r.to_dict() for _, r in rows.iterrows()
                if not _isnan(r["median"])}))
    return out


def _variants(s):
    from report.common import variants
    return variants(s)


def meets(c, needs):
    return all({"removal": c["removal"], "add": c["can_add"],
                "consistent": c["consistent"],
                "replicas": c["replicas"]}[n] for n in needs)


def balance_group(cands):
    """The most even candidates: the lowest mean max/mean and every
    candidate connected to it by overlapping intervals (see the module
    comment), in order of the mean."""
    cs = sorted(cands, key=lambda c: mean_of(c["bal"]))
    if not cs:
        return []
    group = [cs[0]]
    iv = mean_interval(cs[0]["bal"])
    hi = iv[1] if iv else mean_of(cs[0]["bal"])
    for c in cs[1:]:
        iv = mean_interval(c["bal"])
        if iv is not None and iv[0] > hi:
            break
        group.append(c)
        hi = max(hi, iv[1] if iv else mean_of(c["bal"]))
    return group


def lookup_ns_values(group):
    """The N at which every member of the group has a lookup row."""
    if not group:
        return []
    common_n = set.intersection(*(set(c["lk"]) for c in group))
    return sorted(common_n)


def fastest(group, n):
    """(fastest candidates: the best and those tied with it, the others by
    median) at N = n."""
    rows = []
    for i, c in enumerate(group):
        r = c["lk"].get(n)
        if r is not None:
            rows.append(dict(r, _i=i))
    best, tied = rank(rows, "lower", True)
    if best is None:
        return [], []
    win = [group[best["_i"]]] + [group[r["_i"]] for r in tied]
    rest = sorted((group[r["_i"]] for r in rows
                   if group[r["_i"]] not in win),
                  key=lambda c: float(c["lk"][n]["median"]))
    return win, rest


def choose(cands, needs):
    """{group, ns, per_n: {N: (winners, rest)}, pick} for the candidates
    meeting the needs; pick None when none qualifies."""
    group = balance_group([c for c in cands if meets(c, needs)])
    ns = lookup_ns_values(group)
    per_n = {n: fastest(group, n) for n in ns}
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


def because(ctx, ch):
    """What decides the choice: its balance against the group's best, then
    its lookup time at each N against the next one."""
    c, group = ch["pick"], ch["group"]
    out = []
    b0 = group[0]
    bn = _n(c["bal"]["nodes"])
    if c is b0:
        out.append(f"max/mean {fmt_mean(c['bal'], 'x')} at N = {bn}, the "
                   "most even")
    else:
        out.append(f"max/mean {fmt_mean(c['bal'], 'x')} at N = {bn}, within "
                   f"the noise of the most even ({b0['label']} "
                   f"{fmt_mean(b0['bal'], 'x')})")
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
    alt = choose(cands, needs)
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
    alt = choose(cands, needs)
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
    alt = choose(cands, ("add", "consistent"))
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
    """Half the nodes failed in random order (removal experiment, largest
    N): the fastest member of the group there."""
    rem = ctx.exps.get("removal")
    if rem is None or ch["pick"] is None:
        return None
    from report import removal
    lk = removal.lookup_rows(rem.summary)
    lk = lk[(lk["removal"] == "random") & lk["median"].notna()]
    if lk.empty:
        return None
    n = float(lk["nodes"].max())
    k = removal.removed_at(n, FAIL_FRACTION)
    rows = []
    for i, c in enumerate(ch["group"]):
        r0 = one(filt(lk, nodes=n, removed=0.0, **var_filter(c["var"])))
        r = one(filt(lk, nodes=n, removed=k, **var_filter(c["var"])))
        if r is not None:
            rows.append(dict(r, _i=i, _r0=r0))
    best, tied = rank(rows, "lower", True)
    if best is None:
        return None
    win = [best] + tied
    c = ch["pick"]
    mine = [r for r in rows if ch["group"][r["_i"]] is c]
    where = (f"with {FAIL_FRACTION:.0%} of N = {_n(n)} nodes failed in "
             f"random order").replace("%", " %")
    if not mine:
        return None
    m = mine[0]
    before = (f", {fmt_med(m['_r0'])} ns with none failed"
              if m["_r0"] is not None else "")
    if any(r is m for r in win):
        return (f"{where}: {c['label']} still the fastest of these, "
                f"{fmt_med(m)} ns{before} ({_run(ctx, 'removal')})")
    w = ch["group"][best["_i"]]
    return (f"{where}: **{w['label']}** {fmt_med(best)} ns against "
            f"{c['label']} {fmt_med(m)} ns{before} ({_run(ctx, 'removal')})")


def faster_change(ctx, cands, use, ch):
    """A candidate meeting the needs but outside the balance group that is
    faster at N = 1000 beyond the noise."""
    c = ch["pick"]
    n = _headline(ch)
    if c is None or n is None:
        return None
    others = [x for x in cands if meets(x, use["needs"]) and
              x not in ch["group"] and n in x["lk"]]
    if not others:
        return None
    f = min(others, key=lambda x: float(x["lk"][n]["median"]))
    best, tied = rank([dict(f["lk"][n], _f=True), dict(c["lk"][n])],
                      "lower", True)
    if best is None or tied or not best.get("_f"):
        return None
    return (f"if lookup time matters more than balance: **{f['label']}** "
            f"{_lk(f, n)} at N = {_n(n)} ({_run(ctx, 'lookup')}) with "
            f"max/mean {fmt_mean(f['bal'], 'x')} ({_run(ctx, 'balance')})")


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
        top = [g["best"][0]] + g["tied"]
        parts.append((what, lbl in top, lbl, cl["extra_db_reads"],
                      g["best"]))
    if not parts:
        return None
    ok = [p for p in parts if p[1]]
    txt = (f"on a stampede (N = {sf['n']}): {c['label']} "
           + ("is tied with the fewest extra database reads on "
              + join_names(p[0] for p in ok) if ok else ""))
    bad = [p for p in parts if not p[1]]
    if bad:
        txt += ("; " if ok else "") + "; ".join(
            f"on {p[0]} {p[2]} reads {fmt_mean(p[3])} extra against "
            f"{p[4][0]}'s {fmt_mean(p[4][1])}" for p in bad)
    return txt + f" ({_run(ctx, 'cluster')})"


def string_change(ctx):
    """String keys: one key hash more for every algorithm; the cheapest of
    the hashes tied with the best balance (the decision guide's rule)."""
    hs = ctx.exps.get("hashes")
    if hs is None:
        return None
    from report.balance import HASH_COST_KEYSET
    s = hs.summary
    bal = s[(s["metric"] == "load_max_over_mean") &
            (s["scenario"].isin(["measured", ""]))]
    spd = s[s["metric"] == "hash_ns"]
    if bal.empty or spd.empty:
        return None
    bal = bal[bal["nodes"] == bal["nodes"].max()]
    ks = HASH_COST_KEYSET if HASH_COST_KEYSET in set(spd["keyset"]) else \
        sorted(spd["keyset"].unique())[0]
    worst = [g.loc[g["median"].idxmax()].to_dict()
             for _, g in bal.groupby("hash")]
    best, tied = rank(worst, "lower", False)
    if best is None:
        return None
    ok = [best["hash"]] + [r["hash"] for r in tied]
    rows = [one(filt(spd, hash=h, keyset=ks)) for h in ok]
    rows = [r for r in rows if r is not None]
    b, t = rank(rows, "lower", True)
    if b is None:
        return None
    name = join_names(f"`{r['hash']}` {fmt_med(r)} ns" for r in [b] + t)
    return (f"with string keys: add one key hash, the same for every "
            f"algorithm; the cheapest of the evenly spreading hashes on "
            f"`{ks}` keys: {name} ({_run(ctx, 'hashes')})")


# ---------------------------------------------------------------------------
# the section


def replicas_measured(ctx):
    """True when some run measures replica placement (a metric naming
    replicas)."""
    return any(e.summary["metric"].str.contains("replica").any()
               for e in ctx.exps.values())


def findings(ctx):
    """[{use, choice, because, changes}] for every use (choice None when
    no candidate meets its needs)."""
    cands = candidates(ctx)
    out = []
    for use in USES:
        ch = choose(cands, use["needs"])
        f = dict(use=use, choice=ch, because=[], changes=[],
                 cands=[c for c in cands if meets(c, use["needs"])])
        if ch["pick"] is not None:
            f["because"] = because(ctx, ch)
            ch_ = use["changes"]
            txt = []
            if "n" in ch_:
                txt += n_changes(ch)
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
    if "replicas" in use["needs"] and not replicas_measured(ctx):
        txt = ("replica placement not yet measured; primaries: " + txt)
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
            "meet a use's needs, the most even (max/mean within the noise "
            "of the best), then the fastest lookup at each measured N. "
            "Cells: median [95 % CI] for times, mean [95 % CI] for "
            "max/mean; each number names its run.", ""]
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

"""Lookup cost. Throughput and dependent-chain latency per variant
and N, bounded_load's placed-key probe apart from its routing, the timed
peers ("vs the reference implementations": ours / peer in the same round),
multi-thread lookups per second, the hash axis, and the timing context
(load average, CPU steal)."""

import re

import chdata
from report.common import (WITHIN_RUN, Cell, fmt_med, fmt_num, filt,
                           keys_per_node, mcell, md_table, nearest_nodes, one,
                           peers_in, ref_note, render, summary_of,
                           var_filter, variant_label, variants)
from report.questions import q

LOOKUP_NS = [100, 1000, 10000]
RATIO_RE = re.compile(r"^(lookup_ns|lookup_latency_ns)_ratio_to_(.+)$")


def _ours(ctx, s):
    return s[~s["algorithm"].isin(peers_in(ctx))]


def _bl_note(s):
    """The note on a bounded-load scheme's (registry.json) lookup rows."""
    b = s[s["placed_keys"].notna()]
    b = b[b["algorithm"].isin(chdata.bounded_load_schemes(
        b["algorithm"].unique()))]
    if b.empty:
        return []
    r = b.iloc[0].to_dict()
    base = chdata.bounds_loads_of(r["algorithm"])
    return [f"{r['algorithm']}'s `prehashed` and `string` rows time its own "
            f"routing of fresh keys ({base} successor + walk past full "
            "nodes, no hash-map probe) with placed_keys placed first "
            f"({keys_per_node(r)}); the hash-map probe of placed keys is "
            "the separate \"placed\" table below.", ""]


def section(ctx):
    out = [f"## {q('lookup')}. How fast is a lookup?", ""]
    e = ctx.exps.get("lookup")
    if e is None:
        return "\n".join(out + ["_No `lookup` results yet._", ""])
    s = _ours(ctx, e.summary)
    ns = nearest_nodes(s["nodes"], LOOKUP_NS)
    out += ["ns per lookup (throughput: independent lookups). `string` "
            "includes hashing the key, whose cost alone is the `hash` "
            "column. Lower is better. " + WITHIN_RUN, ""]
    out += ref_note(ctx) + _bl_note(s)
    rows = []
    lk = s[(s["metric"] == "lookup_ns") &
           s["scenario"].isin(["prehashed", "string"])]
    for var in variants(lk):
        f = var_filter(var)
        r = [variant_label(var)]
        for sc in ("prehashed", "string"):
            for n in ns:
                r.append(mcell(ctx, "lookup", scenario=sc, nodes=n,
                               metric="lookup_ns", **f))
        r.append(mcell(ctx, "lookup", scenario="string", nodes=ns[-1],
                       metric="hash_ns", **f))
        r.append(ctx.data_links("lookup"))
        rows.append(r)
    out += [render(ctx, ["algorithm"] + [f"prehashed N={n}" for n in ns] +
                   [f"string N={n}" for n in ns] +
                   [f"hash only N={ns[-1]}", "data"], rows), ""]
    lat = s[(s["metric"] == "lookup_latency_ns") &
            (s["scenario"] == "prehashed")]
    if not lat.empty:
        rows = []
        for var in variants(lat):
            f = var_filter(var)
            rows.append([variant_label(var)] +
                        [mcell(ctx, "lookup", scenario="prehashed", nodes=n,
                               metric="lookup_latency_ns", **f) for n in ns]
                        + [ctx.data_links("lookup")])
        out += ["Dependent-chain latency (prehashed, ns; within-run "
                "intervals):", "",
                render(ctx, ["algorithm"] + [f"N={n}" for n in ns] +
                       ["data"], rows), ""]
    out += placed_table(ctx, s, ns)
    out += weighted_table(ctx, s)
    out += peers_table(ctx)
    out += threads_table(ctx, s)
    out += by_hash_table(ctx)
    out += context_line(ctx)
    return "\n".join(out)


def placed_table(ctx, s, ns):
    p = s[(s["scenario"] == "placed") & (s["metric"] == "lookup_ns")]
    if p.empty:
        return []
    rows = []
    for var in variants(p):
        f = var_filter(var)
        pv = filt(p, **f)
        r = [variant_label(var)]
        for n in ns:
            r.append(mcell(ctx, "lookup", scenario="placed", nodes=n,
                           metric="lookup_ns", **f))
        r.append(keys_per_node(one(pv)))
        r.append(ctx.data_links("lookup"))
        rows.append(r)
    return ["Placed-key probe (scenario `placed`: Lookup of keys placed "
            "before timing, a hash-map probe; not the routing above), ns; "
            "within-run intervals:",
            "", render(ctx, ["algorithm"] + [f"N={n}" for n in ns] +
                       ["placed", "data"], rows), ""]


def group_spread(ctx):
    """The largest difference between the medians of one computation timed
    in two groups of one run (removal: the nothing-removed cells of each
    order's group), as a fraction; NaN without such pairs."""
    from report import removal
    e = ctx.exps.get("removal")
    if e is None:
        return float("nan")
    pairs = removal.baseline_pairs(removal.lookup_rows(e.summary))
    return max((p[3] - 1 for p in pairs), default=float("nan"))


def weighted_table(ctx, s):
    """Scenario `weighted` (node weights 1 + (i mod 4)) beside the same
    variant with equal weights at the same N; the ratio is of the two
    medians (two timing groups, so no per-round ratio), and a ratio below
    1 is flagged: separate groups differ by a few per cent."""
    w = s[(s["scenario"] == "weighted") & (s["metric"] == "lookup_ns")]
    if w.empty:
        return []
    eq = s[(s["scenario"] == "prehashed") & (s["metric"] == "lookup_ns")]
    rows = []
    below = []
    for var in variants(w):
        f = var_filter(var)
        linear = ctx.reg.lookup_class(var["algorithm"]) == "linear"
        for n in sorted(filt(w, **f)["nodes"].dropna().unique()):
            a = one(filt(w, nodes=n, **f))
            b = one(filt(eq, nodes=n, **f))
            ratio = (a["median"] / b["median"]
                     if a is not None and b is not None and b["median"] > 0
                     else float("nan"))
            per_node = (fmt_num(a["median"] / n)
                        if linear and a is not None else "—")
            keys = "/".join(fmt_num(r.get("keys")) for r in (a, b)
                            if r is not None)
            rtxt = fmt_num(ratio)
            if ratio < 1:
                rtxt += " (below 1: see below)"
                below.append(f"{variant_label(var)} at N = {n:g}")
            rows.append([variant_label(var), f"{n:g}", keys,
                         mcell(ctx, "lookup", scenario="weighted", nodes=n,
                               metric="lookup_ns", **f),
                         mcell(ctx, "lookup", scenario="prehashed", nodes=n,
                               metric="lookup_ns", **f),
                         rtxt, per_node,
                         ctx.data_links("lookup")])
    note = []
    if below:
        sp = group_spread(ctx)
        note = ["A weighted / equal below 1 (" + ", ".join(below) + ") "
                "is not by itself evidence that weighted lookups are "
                "faster: the two "
                "medians come from separate timing groups, and separate "
                "groups of one run differ in level"
                + (f" (the same computation timed in two groups of the "
                   f"removal run: up to {100 * sp:.2g} %)"
                   if sp == sp else "")
                + "; without a paired measurement in one group, ratios "
                "near 1 are not a finding.", ""]
    return ["Weighted nodes (scenario `weighted`: prehashed keys, node i "
            "has weight 1 + (i mod 4)) beside equal weights, ns per lookup "
            "(throughput; within-run intervals). \"weighted / equal\" "
            "divides the two medians of this run (separate timing groups, "
            "so no interval); \"keys\": the keys timed in each (an O(N) "
            "lookup times fewer); \"per node\" is the weighted time / N for "
            "O(N) lookups.", "",
            render(ctx, ["algorithm", "N", "keys (weighted/equal)",
                         "weighted", "equal weights", "weighted / equal",
                         "per node", "data"], rows), ""] + note


def _ratio_metrics(*summaries):
    found = {}
    for s in summaries:
        if s is None:
            continue
        for m in s["metric"].unique():
            g = RATIO_RE.match(m)
            if g:
                found.setdefault(g.group(2), set()).add(g.group(1))
    return found


def peers_table(ctx):
    s = summary_of(ctx.exps, "lookup")
    rs = summary_of(ctx.ref, "lookup") if ctx.has_ref else None
    peers = _ratio_metrics(s, rs)
    if not peers:
        return []
    rows = []
    for peer in sorted(peers):
        d = s[s["metric"].isin([f"lookup_ns_ratio_to_{peer}",
                                f"lookup_latency_ns_ratio_to_{peer}"])]
        if rs is not None:
            d2 = rs[rs["metric"].isin([f"lookup_ns_ratio_to_{peer}",
                                       f"lookup_latency_ns_ratio_to_{peer}"])]
            keys = ["algorithm", "vnodes", "table_size", "load_factor",
                    "hash", "keyset", "scenario", "nodes"]
            import pandas as pd
            d = pd.concat([d[keys], d2[keys]]).drop_duplicates()
        cfgs = d[["algorithm", "vnodes", "table_size", "load_factor", "hash",
                  "keyset", "scenario", "nodes"]].drop_duplicates()
        cfgs = cfgs.sort_values(["algorithm", "scenario", "nodes"])
        for _, c in cfgs.iterrows():
            var = c.to_dict()
            f = var_filter(var)
            f.update(scenario=c["scenario"], nodes=c["nodes"], hash=c["hash"],
                     keyset=c["keyset"])
            pf = dict(f, algorithm=peer)
            rows.append([
                variant_label(var), f"`{peer}`", c["scenario"],
                f"{c['nodes']:g}",
                mcell(ctx, "lookup", metric="lookup_ns", **f),
                mcell(ctx, "lookup", metric="lookup_ns", **pf),
                mcell(ctx, "lookup", metric=f"lookup_ns_ratio_to_{peer}",
                      **f),
                mcell(ctx, "lookup",
                      metric=f"lookup_latency_ns_ratio_to_{peer}", **f),
                ctx.data_links("lookup")])
    desc = "; ".join(f"`{p}`: {ctx.reg.peers[p].get('description', '')}"
                     for p in sorted(peers) if p in ctx.reg.peers)
    return ["### Lookup vs the reference implementations", "",
            "Ratio = our time / the peer's time measured in the same "
            "round, median over rounds [95 % CI of the median, within one "
            "run]; < 1 means ours is faster. "
            "Ratios are machine-independent to first order, so the "
            "reference column should agree; the ns columns are this "
            "machine's." + (f" Peers: {desc}." if desc else ""), "",
            render(ctx, ["ours", "peer", "scenario", "N", "ours ns",
                         "peer ns", "throughput ratio", "latency ratio",
                         "data"], rows), ""]


def threads_table(ctx, s):
    t = s[(s["metric"] == "lookups_per_s") & s["threads"].notna()]
    if t.empty:
        return []
    threads = sorted(int(x) for x in t["threads"].unique())
    rows = []
    for var in variants(t):
        f = var_filter(var)
        tv = filt(t, **f)
        for n in sorted(tv["nodes"].dropna().unique()):
            for sc in sorted(filt(tv, nodes=n)["scenario"].unique()):
                rows.append([variant_label(var), f"{n:g}", sc] +
                            [mcell(ctx, "lookup", metric="lookups_per_s",
                                   threads=float(th), nodes=n, scenario=sc,
                                   **f) for th in threads] +
                            [ctx.data_links("lookup")])
    return ["### Lookups per second with T threads sharing one instance", "",
            "Million lookups per second would read 1e6; higher is better. "
            "Wall time over all threads. " + WITHIN_RUN, "",
            render(ctx, ["algorithm", "N", "scenario"] +
                   [f"T={th}" for th in threads] + ["data"], rows), ""]


def by_hash_table(ctx):
    e = ctx.exps.get("lookup_all_hashes")
    if e is None:
        return []
    s = e.summary
    s = s[(s["scenario"] == "string") & (s["metric"] == "lookup_ns") &
          ~s["algorithm"].isin(peers_in(ctx))]
    hashes = sorted(set(s["hash"]))
    if len(hashes) < 2:
        return []
    n = s.groupby("nodes")["hash"].nunique().idxmax()
    s = s[s["nodes"] == n]
    rows = []
    for var in variants(s):
        sv = filt(s, **var_filter(var))
        if sv["hash"].nunique() < 2:
            continue
        rows.append([variant_label(var)] +
                    [fmt_med(one(sv[sv["hash"] == h]), "num")
                     for h in hashes] + [ctx.csv_link("lookup")])
    if not rows:
        return []
    return [f"String-key lookup (hash + algorithm) by hash function at "
            f"N={int(n)}, ns (this report's runs; within-run intervals):",
            "",
            md_table(["algorithm"] + [f"`{h}`" for h in hashes] + ["data"],
                     rows), ""]


def policy_text(meta):
    """The slow-state policy a run's meta.json records, as a phrase."""
    pol = (meta or {}).get("timing_policy")
    sen = pol.get("sentinel") if isinstance(pol, dict) else None
    if not isinstance(sen, dict):
        commit = str((meta or {}).get("git_commit") or "?")[:7]
        return (f"its policy is not in its meta.json (run at `{commit}`, "
                f"before meta.json recorded it)")
    budget = sen.get("retry_budget_s")
    return (f"policy: slow above {fmt_num(sen.get('slow_threshold'))}× the "
            f"fastest, a wait of up to {fmt_num(sen.get('max_wait_s'))} s "
            f"and at most {sen.get('max_slow_retries')} whole-group "
            f"re-measurements, "
            + ("no budget for them" if budget is None else
               f"{fmt_num(budget)} s of them per process"))


CONTEXT_EXPERIMENTS = ("lookup", "build", "removal", "overprovision",
                       "presets", "hashes", "vnodes")


def timing_counts(reg, s):
    """(noisy rows, timing rows, noisy cells, cells) of a summary: rows =
    (cell, metric) summary rows of a timing metric with data (ns, 1/s and
    ratio metrics; the load average, CPU steal and sentinel, which only
    describe the machine, left out); cells = distinct configurations with
    such a row."""
    t = s[s["metric"].map(lambda m: reg.timing(m) and
                          reg.better(m) != "none") & (s["n"] > 0)]
    if t.empty:
        return 0, 0, 0, 0
    import chdata
    cfg = [c for c in chdata.CONFIG_COLUMNS if c in t.columns]
    key = t[cfg].astype(str).agg("|".join, axis=1)
    nz = t["noisy"].fillna(0) >= 1
    return (int(nz.sum()), int(len(t)), int(key[nz].nunique()),
            int(key.nunique()))


def context_line(ctx):
    out = []
    for name in CONTEXT_EXPERIMENTS:
        # The whole run: lookup's hash axis included (ctx.exps["lookup"]
        # holds its default-hash rows only).
        e = ctx.exps.get("lookup_all_hashes" if name == "lookup" else name,
                         ctx.exps.get(name))
        if e is None:
            continue
        s = e.summary
        la = s[s["metric"] == "load_avg_1m"]["median"].dropna()
        st = s[s["metric"] == "cpu_steal_fraction"]["median"].dropna()
        # One sentinel row per cell in data.csv, whose note has the
        # harness's re-measurement count and slow-state mark.
        d = e.data
        sd = d[d["metric"] == "sentinel_ns"]
        sn = sd["value"].dropna()
        nrows, trows, ncells, tcells = timing_counts(ctx.reg, s)
        if la.empty and st.empty and not trows:
            continue
        line = f"- `{name}`: "
        if not la.empty:
            line += (f"1-minute load average per cell "
                     f"{fmt_num(la.min())}–{fmt_num(la.max())}"
                     f" (median {fmt_num(la.median())}); ")
        if not st.empty:
            line += f"CPU steal {100 * st.max():.2g} % at most; "
        line += (f"{nrows} of {trows} timing rows noisy (cell × metric: "
                 f"ns, 1/s and ratio metrics), in {ncells} of {tcells} "
                 "cells")
        if sn.empty:
            line += "; no machine-state sentinel (run before it existed)."
        else:
            ref = sn.min()
            notes = sd["note"].fillna("")
            slow = int(notes.str.startswith("slow state").sum())
            again = int(notes.str.extract(r"(\d+) whole-group")[0]
                        .fillna("0").astype(int).gt(0).sum())
            line += (f"; machine-state sentinel {fmt_num(ref)}–"
                     f"{fmt_num(sn.max())} ns per sentinel cell (at most "
                     f"{sn.max() / ref:.2f}× the run's fastest); of "
                     f"{len(sn)} sentinel cells, {again} were in groups "
                     f"measured again whole and {slow} stayed in a slow "
                     "state (flagged noisy)")
            line += f"; {policy_text(e.meta)}."
        out.append(line)
    if not out:
        return []
    note = ("The sentinel (malloc, zero-fill and free of 8 KiB, timed in "
            "every round of every timing group) tracks the VM's slow states, "
            "in which allocation, stores and L3 accesses take 1.4–1.6× as "
            "long; a group whose sentinel was above the threshold times the "
            "fastest the process had seen waits for the fast state and is "
            "measured again whole, and is flagged noisy if it stays there; "
            "each run's threshold, wait, re-measurement count and budget are "
            "its `meta.json`'s `timing_policy` (results/README.md). "
            + WITHIN_RUN)
    from report import reruns
    return (["Timing context (medians per cell):", ""] + out + ["", note, ""]
            + reruns.section(ctx, CONTEXT_EXPERIMENTS))


# ---------------------------------------------------------------------------
# figures: drawn by plots/make_figures.py and shown in this section; each
# entry of FIGURES is (stem, caption, drawing function)

import style  # noqa: E402
from report import common as rc  # noqa: E402
from report.draw import (Skip, drop_peers, log_axes, need,  # noqa: E402
                         merged_legend, plot_metric_vs_nodes)


def fig_lookup(exps, out, metric="lookup_ns", stem="lookup_vs_nodes",
               what="Lookup time (throughput)"):
    (e,) = need(exps, "lookup")
    s = drop_peers(exps, e.summary)
    if s[s["metric"] == metric].empty:
        raise Skip(f"no {metric} rows")
    fig, axes = style.new_figure(ncols=2, sharey=True)
    both = s[(s["metric"] == metric) &
             s["scenario"].isin(["prehashed", "string"])]
    all_vars = rc.variants(both)
    for ax, sc in zip(axes[0], ("prehashed", "string")):
        plot_metric_vs_nodes(ax, s, metric, sc, label_vars=all_vars)
        if sc == "string":
            h = s[(s["metric"] == "hash_ns") & (s["scenario"] == "string")]
            if not h.empty:
                hm = h.groupby("nodes")["median"].median()
                ax.plot(hm.index, hm.values, color="black", linestyle="--",
                        marker="x", label="hash only (string key)")
        log_axes(ax)
        sn = sorted(both[both["scenario"] == sc]["nodes"].dropna().unique())
        ax.set_title(f"{sc} keys" + (" (includes hashing the key)"
                                     if sc == "string" else "")
                     + (f"\ntimed at N = {sn[0]:,.0f} only"
                        if len(sn) == 1 else ""))
        if len(sn) == 1:
            ax.set_xlim(axes[0][0].get_xlim())
        ax.set_xlabel("nodes N")
    axes[0][0].set_ylabel(f"{what}, ns per lookup (median, 95 % CI of "
                          "the median)")
    handles, labels = merged_legend(axes[0])
    leg = style.legend_outside(fig, axes, handles=handles, labels=labels)
    fig.suptitle(f"{what} vs number of nodes")
    return style.save_figure(fig, out, stem, [e.meta], leg)


def fig_lookup_latency(exps, out):
    return fig_lookup(exps, out, "lookup_latency_ns",
                      "lookup_latency_vs_nodes",
                      "Lookup latency (dependent chain)")


FIGURES = [
    ("lookup_vs_nodes", "Lookup time vs N (median, 95 % CI of the median; "
     "hollow = noisy)",
     fig_lookup),
    ("lookup_latency_vs_nodes", "Dependent-chain lookup latency vs N",
     fig_lookup_latency),
]

# Subsections (heading prefixes) shown on the question's page only: a
# chooser reads the lookup times; the peers and threads are for checking.
PAGE_ONLY = ("### Lookup vs the reference implementations",
             "### Lookups per second")

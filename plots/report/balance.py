"""Q5: load balance. Measured extremes compared like with like with the
model: the analytic rows are the model's EXPECTATION (for the ring with
v = 1 the runner emits the exact E[max]·n = H_n, E[min]·n = 1/n), so they
sit beside the measured MEAN with the mean's 95 % interval. Also: ring
balance vs vnodes, balance per hash × key set (hash cost on an explicitly
chosen key set), bounded load (keys per node, replay model) and weights."""

import chdata
import style
from report.common import (Cell, filt, fmt_med, fmt_num,
                           fmt_pct, fmt_value, keys_per_node, mcell, md_table,
                           med, na_note, one, pick_n, ref_note, render,
                           replay_model, restrict, summary_of, var_filter,
                           variant_label, variants)

# Key set for the per-hash cost column: URL-like strings are the typical
# string key; chosen explicitly (not the alphabetically first key set).
HASH_COST_KEYSET = "url"


def _analytic(ctx, exp, metric, **f):
    def fn(exps):
        return fmt_value(med(summary_of(exps, exp), metric=metric,
                             scenario="analytic", **f), "x")
    return Cell(fn)


def section(ctx):
    out = ["## Q5. How even is the load?", ""]
    out += ref_note(ctx)
    e = ctx.exps.get("balance")
    if e is None:
        out += ["_No `balance` results yet._", ""]
    else:
        s, ks = restrict(e.summary, "keyset", "uniform")
        s, hs = restrict(s, "hash", "xxh64")
        ns = sorted(int(n) for n in s["nodes"].dropna().unique())
        out += ["Keys on the busiest / least loaded node over the mean "
                "load: MEAN over repetitions [95 % CI of the mean], beside "
                "the model's expectation of the same quantity (\"model E\", "
                "same key count). 1.0 is perfect. Fewer keys per node mean "
                "a larger max/mean by chance alone."
                + (f" Key set `{ks}`." if ks else "")
                + (f" Hash `{hs}`." if hs else ""), ""]
        rows = []
        for var in variants(s[s["scenario"] == "measured"]):
            f = var_filter(var)
            sv = filt(s, **f)
            for n in ns:
                g = dict(nodes=n, scenario="measured")
                mx = one(filt(sv, metric="load_max_over_mean", **g))
                if mx is None:
                    continue
                rows.append([
                    variant_label(var), str(n), fmt_num(mx.get("keys")),
                    mcell(ctx, "balance", "x", mean=True,
                          metric="load_max_over_mean", **g, **_ksh(ks, hs),
                          **f),
                    _analytic(ctx, "balance", "load_max_over_mean",
                              nodes=n, **_ksh(ks, hs), **f),
                    mcell(ctx, "balance", "x", mean=True,
                          metric="load_min_over_mean", **g, **_ksh(ks, hs),
                          **f),
                    _analytic(ctx, "balance", "load_min_over_mean",
                              nodes=n, **_ksh(ks, hs), **f),
                    mcell(ctx, "balance", "sci", mean=True,
                          metric="load_rel_stddev", **g, **_ksh(ks, hs),
                          **f),
                    ctx.data_links("balance")])
        out += [render(ctx, ["algorithm", "N", "keys", "max/mean: mean",
                             "model E", "min/mean: mean", "model E",
                             "rel. stddev: mean", "data"], rows), ""]
    out += vnodes_table(ctx)
    out += hashes_tables(ctx)
    out += bounded_table(ctx)
    out += weights_table(ctx)
    return "\n".join(out)


def _ksh(ks, hs):
    f = {}
    if ks:
        f["keyset"] = ks
    if hs:
        f["hash"] = hs
    return f


def vnodes_table(ctx):
    v = ctx.exps.get("vnodes")
    if v is None:
        return []
    rows = []
    d = v.data[(v.data["scenario"] == "measured") & v.data["value"].notna()]
    for n in sorted(d["nodes"].dropna().unique()):
        dn = d[d["nodes"] == n]
        for vn in sorted(dn["vnodes"].dropna().unique()):
            r = [f"{n:g}", f"{vn:g}"]
            for m in ("load_max_over_mean", "load_min_over_mean"):
                vals = dn[(dn["vnodes"] == vn) & (dn["metric"] == m)]["value"]
                lo, hi = chdata.quantile_band(vals)
                r.append(mcell(ctx, "vnodes", "x", mean=True, metric=m,
                               nodes=n, vnodes=vn, scenario="measured"))
                r.append(f"{lo:.3g}–{hi:.3g}")
                r.append(_analytic(ctx, "vnodes", m, nodes=n, vnodes=vn))
            r.append(fmt_num(med(v.summary, nodes=n, vnodes=vn,
                                 metric="memory_bytes")))
            r.append(ctx.data_links("vnodes"))
            rows.append(r)
    return ["### Ring: balance vs virtual nodes", "",
            "Mean over repetitions [95 % CI of the mean], the central 95 % "
            "of individual repetitions (2.5–97.5 percentile), and the "
            "model's expectation (v = 1: exact H_N / N·N and 1/N; otherwise "
            "the stated model).", "",
            render(ctx, ["N", "vnodes", "max/mean: mean", "95 % of runs",
                         "model E", "min/mean: mean", "95 % of runs",
                         "model E", "memory bytes", "data"], rows), ""]


def hashes_tables(ctx):
    h = ctx.exps.get("hashes")
    if h is None:
        return []
    s = h.summary[(h.summary["metric"] == "load_max_over_mean") &
                  (h.summary["scenario"].isin(["measured", ""]))]
    hn = max(s["nodes"].dropna().unique(), default=None)
    if hn is not None:
        s = s[s["nodes"] == hn]
    keysets = sorted(s["keyset"].unique())
    spd = h.summary[h.summary["metric"] == "hash_ns"]
    cost_ks = HASH_COST_KEYSET if HASH_COST_KEYSET in set(spd["keyset"]) \
        else (sorted(spd["keyset"].unique())[0] if not spd.empty else None)
    out = ["### Balance per hash × key set", "",
           "Median max/mean [95 % CI]"
           + (f" at N = {hn:g}" if hn is not None else "")
           + "; the worst key set per hash is what to look at. Hash cost: "
           f"median ns per key of the hash alone on the `{cost_ks}` key "
           "set" + (" (chosen: typical string keys)"
                    if cost_ks == HASH_COST_KEYSET else
                    f" (`{HASH_COST_KEYSET}` not measured)") + ".", ""]
    for a in style.order_algorithms(s["algorithm"].unique()):
        sa = s[s["algorithm"] == a]
        rows = []
        for hname in sorted(sa["hash"].unique()):
            r = [hname]
            for ks in keysets:
                r.append(fmt_med(one(filt(sa, hash=hname, keyset=ks)), "x",
                                 timing=False))
            r.append(fmt_med(one(filt(spd, hash=hname, keyset=cost_ks)),
                             "num"))
            r.append(ctx.csv_link("hashes"))
            rows.append(r)
        out += [f"`{a}`:", "", md_table(
            ["hash"] + keysets + [f"hash ns ({cost_ks})", "data"], rows), ""]
    return out


def bounded_rows(b):
    """(summary rows of bounded_load itself at one N (100 preferred), N)."""
    s = b.summary
    if (s["algorithm"] == "bounded_load").any():
        s = s[s["algorithm"] == "bounded_load"]
    n = pick_n(s["nodes"], 100)
    if n is not None:
        s = s[s["nodes"] == n]
    return s, n


def bounded_table(ctx):
    b = ctx.exps.get("bounded_load")
    if b is None:
        return []
    s, bn = bounded_rows(b)
    rows = []
    for c in sorted(s["load_factor"].dropna().unique()):
        sc = s[s["load_factor"] == c]
        k = one(filt(sc, scenario="measured"))
        f = dict(algorithm="bounded_load", nodes=bn, load_factor=c)
        rows.append([
            f"{c:g}", keys_per_node(k),
            mcell(ctx, "bounded_load", "x", metric="load_max_over_mean",
                  scenario="measured", **f),
            fmt_value(med(sc, metric="load_max_over_mean",
                          scenario="analytic"), "x"),
            mcell(ctx, "bounded_load", "pct", metric="moved_fraction",
                  scenario="add", **f),
            fmt_pct(med(sc, metric="moved_optimal_fraction",
                        scenario="add")),
            mcell(ctx, "bounded_load", "pct", metric="moved_fraction",
                  scenario="remove_random", **f),
            fmt_pct(med(sc, metric="moved_optimal_fraction",
                        scenario="remove_random")),
            ctx.data_links("bounded_load")])
    return ["### Bounded load: balance vs disruption", "",
            (f"`bounded_load` (ring with {_vn(s)} vnodes and a capacity "
             f"⌈c·m/N⌉) at N = {bn:g}, medians [95 % CI]. " if bn else "")
            + replay_model("bounded_load") + " Above the ring's own max/mean the cap never "
            "binds, so large c behaves like the plain ring.", "",
            render(ctx, ["c", "keys per node", "max/mean",
                         "cap ⌈c·m/n⌉/(m/n)", "add: moved", "add: optimum",
                         "remove: moved", "remove: optimum", "data"], rows),
            ""]


def _vn(s):
    v = s["vnodes"].dropna().unique()
    return f"{v[0]:g}" if len(v) == 1 else "its"


def weights_table(ctx):
    w = ctx.exps.get("weights")
    if w is None:
        return []
    d = w.data[(w.data["metric"] == "share") & w.data["value"].notna()]
    ideal = d[d["scenario"] == "analytic"]
    meas = d[d["scenario"] == "measured"]
    rows = []
    for a in style.order_algorithms(w.data["algorithm"].unique()):
        ma = meas[meas["algorithm"] == a]
        if ma.empty:
            rows.append([a, na_note(w, algorithm=a) or "—", "",
                         ctx.csv_link("weights")])
            continue
        m = ma.groupby("node")["value"].median()
        ia = ideal[ideal["algorithm"] == a].set_index("node")["value"]
        rel = ((m - ia).abs() / ia).dropna()
        rows.append([a, fmt_pct(rel.max()), fmt_pct(rel.mean()),
                     ctx.csv_link("weights")])
    return ["### Weights: measured share vs w/Σw", "",
            "Relative error of each node's median share over repetitions "
            "against w/Σw.", "",
            md_table(["algorithm", "worst relative error",
                      "mean relative error", "data"], rows), ""]

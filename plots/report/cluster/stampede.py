"""a. The stampede on a join and on a death (scenarios add and remove, mode
sim): the main configuration at N, extra against predicted reads, moved
fraction, the stampede's length, recovery, the post-event hit ratio; the
algorithms tied with the fewest extra reads and modulo against ring."""

import math

import pandas as pd

from report.article import MODULO, RING
from report.common import (fmt_num, fmt_paired, join_names, md_table,
                           mean_interval, mean_of, pick_n, variants)
from report.cluster.base import (_cache_text, cell, fmtm, fnum, _isnan,
                                 labels, _missing_values, _mode, _na_text,
                                 per_run, _pick_variant, PREFERRED_N, _reps,
                                 SCENARIO_WHAT, sep_text, separate, _signed,
                                 tied_with_best, var_key)
from report.questions import q


STAMPEDE_CFG = ("keys", "requests", "cache_items")


def cfg_mask(d, cfg):
    """Rows of d whose STAMPEDE_CFG columns equal cfg's (NaN matches
    NaN)."""
    m = pd.Series(True, index=d.index)
    for c in STAMPEDE_CFG:
        v = cfg.get(c)
        m &= d[c].isna() if _isnan(v) or pd.isna(v) else d[c] == v
    return m


def stampede_configs(s, n=None):
    """The (keys, requests, cache_items) configurations of the sim add /
    remove rows at N = n (PREFERRED_N when None), main block first: the
    most algorithms for scenario add (then the most requests, keys, cache;
    the spec's stampede block beside the small twin of the memcached
    block). Returns (n, [(cfg dict, algorithms on add)])."""
    d = per_run(_mode(s, "sim"))
    d = d[d["scenario"].isin(["add", "remove"])]
    if d.empty:
        return None, []
    if n is None:
        n = pick_n(d["nodes"], PREFERRED_N)
    d = d[d["nodes"] == n]
    out = []
    for _, c in d[list(STAMPEDE_CFG)].drop_duplicates().iterrows():
        cfg = {k: (None if pd.isna(c[k]) else float(c[k]))
               for k in STAMPEDE_CFG}
        dc = d[cfg_mask(d, cfg)]
        na = dc[dc["scenario"] == "add"]["algorithm"].nunique()
        nr = dc[dc["scenario"] == "remove"]["algorithm"].nunique()
        out.append((cfg, na, nr))

    def rank(t):
        cfg, na, nr = t
        return (na, nr) + tuple(-1.0 if cfg[k] is None else cfg[k]
                                for k in ("requests", "keys",
                                          "cache_items"))
    out.sort(key=rank, reverse=True)
    return n, [(cfg, na) for cfg, na, _ in out]


def stampede_block(s, n=None):
    """Per-run sim rows of scenarios add/remove at N = n (PREFERRED_N
    when None) of the main configuration (stampede_configs). Returns
    (rows, n, cfg) with cfg = {keys, requests, cache_items}."""
    n, cfgs = stampede_configs(s, n)
    if not cfgs:
        return per_run(s).iloc[0:0], None, None
    cfg = cfgs[0][0]
    d = per_run(_mode(s, "sim"))
    d = d[d["scenario"].isin(["add", "remove"]) & (d["nodes"] == n)]
    return d[cfg_mask(d, cfg)], n, cfg

STAMPEDE_METRICS = ("extra_db_reads", "predicted_extra_db_reads",
                    "moved_fraction", "stampede_requests",
                    "recovery_requests", "post_hit_ratio")


def stampede_findings(e, n=None):
    """{n, cache, keys, requests, scenarios: {sc: {...}}} for one N, the
    main configuration (stampede_block); cache = cache_items (0: no
    eviction)."""
    d, n, cfg = stampede_block(e.summary, n)
    if d.empty:
        return None
    others = stampede_configs(e.summary, n)[1][1:]
    data = per_run(e.data)
    cache = cfg["cache_items"]
    out = {"n": n, "cache": cache, "keys": cfg["keys"],
           "requests": cfg["requests"], "scenarios": {}, "cfg": cfg,
           "others": others,
           "zipf": d["zipf"].iloc[0],
           "reps": _reps(d[d["metric"] == "extra_db_reads"])}
    for sc in ("add", "remove"):
        ds = d[d["scenario"] == sc]
        if ds.empty:
            continue
        vars_ = variants(ds)
        lab = labels(vars_)
        rows = []
        for v in vars_:
            c = {m: cell(ds, v, m) for m in STAMPEDE_METRICS + (
                "recovery_s", "bucket_requests", "event_bucket")}
            c["requests"] = out["requests"]
            flt = dict(scenario=sc, mode="sim", nodes=n,
                       **{k: x for k, x in cfg.items() if x is not None})
            c["not_recovered"] = _missing_values(data, v,
                                                 "recovery_requests", **flt)
            c["na"] = _na_text(data, v, **flt)
            rows.append((v, lab[var_key(v)], c))
        extra = [(lbl, c["extra_db_reads"]) for _, lbl, c in rows]
        # the seed articles' comparison (report/article.py): every
        # algorithm against their ring, and their modulo against it
        rv = _pick_variant([v for v, _, _ in rows], RING)
        best, tied, unranked, info = tied_with_best(
            extra, e.data, lab[var_key(rv)] if rv is not None else None)
        f = {"rows": rows, "best": best, "tied": tied, "unranked": unranked,
             "cmp": info}
        # modulo against ring: a ratio of the means (a difference when
        # ring's mean is not positive), and the paired comparison by seed.
        mod = [c for v, _, c in rows if v["algorithm"] == MODULO]
        ring = [c for v, _, c in rows if rv is not None and
                var_key(v) == var_key(rv)]
        f["modulo_vs_ring"] = None
        if mod and ring:
            m = mean_of(mod[0]["extra_db_reads"])
            r = mean_of(ring[0]["extra_db_reads"])
            if not (math.isnan(m) or math.isnan(r)):
                f["modulo_vs_ring"] = {
                    "mod_reads": mod[0]["extra_db_reads"],
                    "ring_reads": ring[0]["extra_db_reads"],
                    "ring_label": lab[var_key(rv)],
                    "ratio": m / r if r > 0 and m >= 0 else None,
                    "diff": m - r,
                    "separate": separate(e.data, ring[0]["extra_db_reads"],
                                         mod[0]["extra_db_reads"])}
        # measured against the prediction, seed by seed
        above, below, within, alone = [], [], [], []
        for _, lbl, c in rows:
            x, p = c["extra_db_reads"], c["predicted_extra_db_reads"]
            if math.isnan(mean_of(x)) or math.isnan(mean_of(p)):
                continue
            sp = separate(e.data, p, x, free=("metric",))
            if sp is None:
                alone.append(lbl)
            elif not sp["separate"]:
                within.append(lbl)
            elif sp["est"] > (1.0 if sp["kind"] == "ratio" else 0.0):
                above.append(lbl)
            else:
                below.append(lbl)
        f["vs_prediction"] = {"above": above, "below": below,
                              "within": within, "alone": alone}
        f["negative"] = [lbl for _, lbl, c in rows
                         if mean_of(c["extra_db_reads"]) < 0]
        out["scenarios"][sc] = f
    return out


def _recovery_cell(c):
    empty, total = c["not_recovered"]
    r = c["recovery_requests"]
    if total and empty == total:
        return "not recovered within the run"
    txt = fmtm(r)
    secs = c.get("recovery_s")
    if secs is not None and not math.isnan(mean_of(secs)):
        txt += f" = {fmtm(secs)} s"
    if empty:
        txt += (f" (over the {total - empty} seeds that recovered; "
                f"{empty} of {total} not recovered within the run)")
    return txt


def _stampede_table(sf, sc):
    f = sf["scenarios"][sc]
    secs = any(c.get("recovery_s") is not None and
               not math.isnan(mean_of(c["recovery_s"]))
               for _, _, c in f["rows"])
    head = ["algorithm", "extra db reads", "predicted (moved × hot set)",
            "moved fraction", "stampede (requests)",
            "recovery (requests" + (" = seconds)" if secs else ")"),
            "post-event hit ratio"]
    rows = []
    for _, lbl, c in f["rows"]:
        if c["na"] and math.isnan(mean_of(c["extra_db_reads"])):
            rows.append([lbl, c["na"]] + [""] * (len(head) - 2))
            continue
        rows.append([lbl, fmtm(c["extra_db_reads"]),
                     fmtm(c["predicted_extra_db_reads"]),
                     fmtm(c["moved_fraction"], "pct"),
                     fmtm(c["stampede_requests"]), _recovery_cell(c),
                     fmtm(c["post_hit_ratio"], "sci")])
    return md_table(head, rows)


def _others_text(sf):
    """The other sim add/remove configurations at this N, not in the
    table (the memcached block's twin: the memcached subsection)."""
    if not sf.get("others"):
        return ""
    parts = [f"{fmt_num(c['keys'])} keys, {fmt_num(c['requests'])} "
             f"requests, {na} algorithms" for c, na in sf["others"]]
    return ("The table is the configuration with the most algorithms; "
            "the other sim configuration" + ("s" if len(parts) > 1 else "")
            + " of these events (" + "; ".join(parts) + ") "
            + ("are" if len(parts) > 1 else "is")
            + " the simulated twin of the memcached runs, compared in "
            + q("cluster", "e") + ". ")


def _stampede_span(f):
    """(lowest, highest share, requests after the event): the stampede's
    requests over the requests from the event to the end of the run, over
    the algorithms (means over seeds); None without the rows."""
    shares, after = [], None
    for _, _, c in f["rows"]:
        st = mean_of(c["stampede_requests"]) if c["stampede_requests"] \
            else float("nan")
        br, ev, tot = (c.get(k) for k in ("bucket_requests", "event_bucket",
                                           "requests"))
        if br is None or ev is None or tot is None or math.isnan(st):
            continue
        a = float(tot) - mean_of(ev) * mean_of(br)
        if a > 0:
            after = a
            shares.append(st / a)
    if not shares:
        return None
    return min(shares), max(shares), after


def cmp_words(c):
    """'13 comparisons with ring, each the 95 % interval of the ratio on
    the same seed: paired t on log ratios, n = 3' for tied_with_best's
    info."""
    k = c["comparisons"]
    return (f"{k} comparison{'s' if k != 1 else ''} with {c['ref']}, "
            "each the 95 % interval of the ratio on the same seed: "
            f"{c['method']}")


def _paired_names(pairs):
    return join_names(f"**{lbl}** {fmt_paired(p)}".replace("-", "−")
                      for lbl, p in pairs)


def _vs_ref_text(f):
    """Each algorithm against the reference (ring), seed by seed: the
    ones not separated from it, the ones with fewer and more extra reads
    (their paired ratios), and the ones that cannot be paired."""
    c = f["cmp"]
    ref = c["ref"]
    parts = []
    if f["tied"]:
        parts.append(f"not separated from {ref}: "
                     + join_names(f"**{x}**" for x in f["tied"]))
    if c["below"]:
        parts.append(f"fewer than {ref}: " + _paired_names(c["below"]))
    if c["above"]:
        parts.append(f"more than {ref}: " + _paired_names(c["above"]))
    if f["unranked"]:
        parts.append("not paired (one seed or other seeds), not ranked: "
                     + join_names(f["unranked"]))
    if not c["comparisons"]:
        return ("No algorithm pairs with " + ref + " by seed: "
                + "; ".join(parts) + ".")
    return (f"Against {ref}'s extra reads ({cmp_words(c)}) — "
            + "; ".join(parts) + ".")


def _stampede_prose(sf, sc):
    f = sf["scenarios"][sc]
    out = []
    if f["best"] and mean_interval(f["best"][1]) is None:
        lbl, r = f["best"]
        out.append(f"Lowest extra reads when {SCENARIO_WHAT[sc]}: {lbl} "
                   f"({fmtm(r)}); one seed per cell, no interval: not "
                   "ranked.")
    elif f["best"]:
        lbl, r = f["best"]
        out.append(f"Fewest extra reads when {SCENARIO_WHAT[sc]}: **{lbl}** "
                   f"({fmtm(r)}).")
        out.append(_vs_ref_text(f))
    mr = f["modulo_vs_ring"]
    if mr:
        m, r = mean_of(mr["mod_reads"]), mean_of(mr["ring_reads"])
        sep = f" ({sep_text(mr['separate'])})"
        if mr["ratio"] is not None:
            out.append(f"{MODULO}'s extra reads are {mr['ratio']:.3g}× "
                       f"{mr['ring_label']}'s (ratio of the means, "
                       f"{fnum(m)} vs {fnum(r)}; "
                       f"{sep_text(mr['separate'])}).")
        else:
            out.append(f"{MODULO}: {fnum(m)} extra reads against "
                       f"{mr['ring_label']}'s {fnum(r)}, a difference of "
                       f"{_signed(m - r)}{sep} (no ratio: "
                       f"{mr['ring_label']}'s mean is not positive).")
    vp = f["vs_prediction"]
    ncmp = sum(len(v) for v in vp.values())
    parts = []
    for k, what in (("above", "above the prediction"),
                    ("below", "below it"),
                    ("within", "not separated from it"),
                    ("alone", "not compared (one seed or other seeds)")):
        if vp[k]:
            names = ("all" if len(vp[k]) == ncmp and ncmp > 1 else
                     join_names(vp[k]) if len(vp[k]) <= 4 else
                     "e.g. " + join_names(vp[k][:3]))
            parts.append(f"{what}: {len(vp[k])} ({names})")
    if parts:
        out.append("Extra reads against moved fraction × hot set, seed "
                   "by seed (measured over predicted on the same seed, a "
                   "95 % interval per algorithm) — " + "; ".join(parts)
                   + ".")
    if not sf["cache"] and vp["within"] and not vp["above"] and \
            not vp["below"]:
        out.append("With no eviction the stampede is the refetch of the "
                   "moved hot keys, each missing once on its new server: "
                   "the prediction holds without an LRU in the way.")
    if not sf["cache"]:
        frac = _stampede_span(f)
        if frac:
            lo, hi, after = frac
            out.append(
                "The stampede (90 % of the extra reads) spans "
                + (f"{lo * 100:.0f} %" if round(lo, 2) == round(hi, 2)
                   else f"{lo * 100:.0f}–{hi * 100:.0f} %")
                + f" of the {fmt_num(after)} requests after the event "
                "(means over the seeds, per algorithm): each moved key "
                "misses once, at its first request after the event, and "
                "under Zipf popularity the rarely requested keys come late.")
    if f["negative"] and sc == "add" and sf["cache"]:
        out.append(
            f"Negative extra reads ({len(f['negative'])} of "
            f"{len(f['rows'])} algorithms): after the join the run has one "
            f"more LRU of {fmt_num(sf['cache'])} keys than its control, so "
            "once the moved keys are refetched it misses less than the "
            "control; the refetch itself (the stampede) is the bump at the "
            "event bucket in the timeline figure.")
    if sc == "remove" and sf["cache"]:
        out.append("On a death the lost server's LRU is gone for the rest "
                   "of the run, so the extra reads include the smaller "
                   "cache after the refetch; the stampede column (requests "
                   "until 90 % of the extra reads) then spans most of the "
                   "run after the event.")
    return out


def subsection(f, cite):
    """The subsection's lines (a): the main configuration's tables and
    prose, then the same at the other N."""
    out = []
    sf = f["stampede"]
    if sf and sf["scenarios"]:
        out += [f"### {q('cluster', 'a')}. Stampede on a join and on a death "
                "(N = "
                f"{sf['n']})", "",
                f"Mode sim, {fmt_num(sf['keys'])} keys, Zipf s = "
                f"{sf['zipf']:g}, {fmt_num(sf['requests'])} requests, "
                + _cache_text(sf["cache"]) + "; "
                f"{sf['reps']}. Stampede = requests from the event until "
                "90 % of the extra reads; recovery: as defined above. "
                + _others_text(sf) + cite, ""]
        for sc in ("add", "remove"):
            if sc not in sf["scenarios"]:
                continue
            out += [f"**{sc}** ({SCENARIO_WHAT[sc]}):", "",
                    _stampede_table(sf, sc), ""]
            out += [" ".join(_stampede_prose(sf, sc)), ""]
        for o in f["stampede_other"]:
            at = (f"At N = {fmt_num(o['n'])} ({fmt_num(o['keys'])} keys, "
                  + _cache_text(o["cache"]) + f"; {o['reps']})")
            prose = []
            for sc in ("add", "remove"):
                if sc in o["scenarios"]:
                    out += [f"**{sc}** {at[0].lower()}{at[1:]}:", "",
                            _stampede_table(o, sc), ""]
                    prose += _stampede_prose(o, sc)
            if prose:
                out += [at + ": " + " ".join(prose), ""]
    return out


def guide_items(f, link):
    """The decision-guide entry on the stampede on a join and a death."""
    out = []
    sf = f["stampede"]
    if sf:
        parts = []
        for sc in ("add", "remove"):
            g = sf["scenarios"].get(sc)
            if not g or not g["best"]:
                continue
            c = g["cmp"]
            ref = c["ref"]
            what = SCENARIO_WHAT[sc]
            named = {lbl for lbl, _ in c["above"] + c["below"]}
            if mean_interval(g["best"][1]) is None or not c["comparisons"]:
                p = (f"when {what}, lowest extra reads: {g['best'][0]} "
                     f"({fmtm(g['best'][1])}; one seed, not ranked)")
            elif c["below"]:
                p = (f"when {what}, fewer extra reads than {ref}: "
                     + _paired_names(c["below"]))
                if c["above"]:
                    p += "; more: " + _paired_names(c["above"])
                p += f" ({cmp_words(c)})"
            elif c["above"] and len(c["above"]) < len(g["tied"]):
                p = (f"when {what}, every algorithm but "
                     + _paired_names(c["above"])
                     + f" is tied with {ref} (none reads fewer; "
                     + cmp_words(c) + ")")
            elif c["above"]:
                p = (f"when {what}, tied with {ref} (none reads fewer): "
                     + join_names(f"**{x}**" for x in [ref] + g["tied"])
                     + "; more: " + _paired_names(c["above"])
                     + f" ({cmp_words(c)})")
            else:
                p = (f"when {what}, no algorithm's extra reads are "
                     f"separated from {ref}'s ({cmp_words(c)})")
            mr = g["modulo_vs_ring"]
            if mr and MODULO not in named:
                if mr["ratio"] is not None:
                    p += (f"; {MODULO} {mr['ratio']:.3g}× "
                          f"{mr['ring_label']}'s (ratio of the means)")
                else:
                    p += (f"; {MODULO} {_signed(mr['diff'])} reads against "
                          f"{mr['ring_label']}")
            parts.append(p)
        other = []
        for o in f.get("stampede_other", []):
            more = []
            for sc in ("add", "remove"):
                g = o["scenarios"].get(sc)
                if not g or not g["best"] or not g["cmp"]["comparisons"]:
                    continue
                c = g["cmp"]
                more.append(f"when {SCENARIO_WHAT[sc]}, more than "
                            f"{c['ref']}: " + (_paired_names(c["above"])
                                              if c["above"] else "none")
                            + ("; fewer: " + _paired_names(c["below"])
                               if c["below"] else ""))
            if more:
                other.append(f"at N = {fmt_num(o['n'])}, " + "; ".join(more))
        if parts:
            out.append(("cluster_stampede",
                        f"Cache stampede at N = {sf['n']} "
                        f"({q('cluster', 'a')}; extra "
                        "database reads against a control run): "
                        + "; ".join(parts) + ". "
                        + ("Where this changes with N (paired by seed "
                           "likewise): " + "; ".join(other) + ". "
                           if other else "") + link))
    return out


# ---------------------------------------------------------------------------
# figures: drawn by plots/make_figures.py and shown in this section; each
# entry of FIGURES is (stem, caption, drawing function)

import style  # noqa: E402
from report import cluster as rcl  # noqa: E402
from report import common as rc  # noqa: E402
from report.draw import Skip  # noqa: E402
from report.cluster.base import _cl_style, _cluster, fmt_int  # noqa: E402


def fig_cluster_timeline(exps, out):
    """Hit ratio (top) and database reads (bottom) per time bucket around
    the event, one line per algorithm (mean over seeds), for a join (left)
    and a death (right); the control runs' median over algorithms dotted;
    the event marked. The stampede block of this subsection (mode sim,
    N = 10, the configuration with the most algorithms:
    rcl.stampede_block)."""
    e = _cluster(exps)
    s = e.summary
    blk, n, cfg = rcl.stampede_block(s)
    if blk.empty:
        raise Skip("no sim add/remove rows")
    d = rcl.per_bucket(s)
    d = d[(d["mode"] == "sim") & (d["nodes"] == n)]
    d = d[rcl.cfg_mask(d, cfg)]
    scs = [sc for sc in ("add", "remove") if sc in set(d["scenario"])]
    if not scs:
        raise Skip("no per-bucket add/remove rows")
    fig, axes = style.new_figure(ncols=len(scs), nrows=2,
                                 figsize=(6.5 * len(scs), 7.5),
                                 sharex="col")
    for j, sc in enumerate(scs):
        ds = d[d["scenario"] == sc]
        pr = blk[blk["scenario"] == sc]
        vars_ = rc.variants(ds)
        lab = rcl.labels(vars_)
        for i, (m, cm) in enumerate((("hit_ratio", "control_hit_ratio"),
                                     ("db_reads", "control_db_reads"))):
            ax = axes[i][j]
            for var in vars_:
                dv = rc.match_variant(ds[ds["metric"] == m], var)
                dv = dv.sort_values("bucket")
                if dv.empty:
                    continue
                kw = _cl_style(var, vars_, lab)
                kw["marker"] = None
                ax.plot(dv["bucket"], dv["mean"], linewidth=1.2, **kw)
            ctl = ds[ds["metric"] == cm].groupby("bucket")["mean"].median()
            if not ctl.empty:
                ax.plot(ctl.index, ctl.values, color="black",
                        linestyle=":", linewidth=1.6,
                        label="control runs (no event; median over "
                        "algorithms)")
            ev = pr[pr["metric"] == "event_bucket"]["mean"].dropna()
            if not ev.empty:
                ax.axvline(float(ev.iloc[0]) - 0.5, color="#C00000",
                           linewidth=1.0, linestyle="--",
                           label="event (start of its bucket)")
            ax.set_ylabel("hit ratio (mean over seeds)" if i == 0 else
                          "database reads per bucket (mean over seeds)")
            if i == 0:
                ax.set_title(f"{sc}: {rcl.SCENARIO_WHAT[sc]} (N = {n})")
        br = pr[pr["metric"] == "bucket_requests"]["mean"].dropna()
        axes[1][j].set_xlabel(
            "time bucket" + (f" ({fmt_int(br.iloc[0])} requests each)"
                             if not br.empty else ""))
    leg = style.legend_outside(fig, axes)
    cache = cfg["cache_items"]
    fig.suptitle(f"Cache cluster around the event: mode sim, "
                 f"{fmt_int(cfg['keys'])} keys, "
                 + (f"LRU {fmt_int(cache)} keys per server" if cache
                    else "no eviction (every server can hold the "
                    "universe)"))
    return style.save_figure(fig, out, "cluster_timeline", [e.meta], leg)


FIGURES = [
    ("cluster_timeline", "Cache cluster around a join and a death: hit "
     "ratio and database reads per time bucket per algorithm (mean over "
     "seeds), the control runs dotted, the event marked",
     fig_cluster_timeline),
]

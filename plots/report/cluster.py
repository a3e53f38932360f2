"""Q10: a cache cluster under change (experiment `cluster`,
experiments/cluster.toml; the model: bench/cluster/cluster.h).

The model. A cache-aside workload over N cache servers placed by the
algorithm under test: R requests for U keys with Zipf(s) popularity, in B
time buckets; a request GETs its key from the server the client's view
names; a miss (or an error: a dead server) reads the database and SETs the
key there. Each run has one event at its event bucket (scenario `add`: a
server joins; `remove`: the last server dies and each client drops it at
its first error; `stale_view`: a server joins but a fraction f of the
clients keeps the old view for a tenth of the run; `cascade`: the last
server dies, and every server above its capacity in a bucket fails in turn,
the capacity sized for the algorithm's own busiest server; `cascade_mean`:
the same with equal servers sized for the mean load; `none`: no event)
and is paired with a control run (the same requests, no event).
extra_db_reads = the run's database reads from the event on minus the
control's; its prediction = moved_fraction (of the U keys) × hot_set
(distinct keys requested before and after the event). Mode `sim` keeps an
LRU cache of `cache_items` keys per server in process (deterministic for a
seed); mode `memcached` runs the same requests against real memcached
servers on 127.0.0.1 (numbers vary run to run).

Rows. Per time bucket (column `bucket`): hit_ratio, db_reads, ... and the
control's; per run (bucket empty): the metrics below. Repetitions of a sim
cell are seeds (key set and request stream).

Statistics. Every cell is a MEAN over the seeds with its Student-t 95 %
interval (common.fmt_mean); a cell with one seed (n = 1) has no interval,
and the text says so. Comparisons use the intervals (common.mean_interval:
the mean's interval, or the value itself for identical repetitions):
"tied" = the intervals overlap; a cell without an interval is not ranked.

Subsections (each a table from the summary, with its run):
  a. stampede on a join and on a death (scenarios add and remove, mode sim,
     at N = 10 the (keys, requests, cache_items) configuration with the
     most algorithms on add: the spec's stampede block, not the small sim
     twin of the memcached block, which only Q10e uses): extra vs
     predicted reads, moved fraction, how long the stampede lasts,
     recovery, the post-event hit ratio; the algorithms tied with the
     fewest extra reads and modulo against ring (ratio of the means, and
     whether the intervals separate);
  b. hot keys (scenario none): the busiest server's requests over the mean
     against the Zipf exponent; bounded_load per load factor c, checked
     against its bound ceil(c × bucket requests / live) / (bucket requests /
     live);
  c. stale views: extra reads and misrouted requests against f, with a
     least-squares slope and a monotonicity check per algorithm;
  d. cascades, one table per sizing (cascade_mean: equal servers sized for
     the mean load, the fair comparison; cascade: servers sized for the
     algorithm's own busiest server): servers failed (mean over seeds, and
     the largest) per variant against the start utilization, with the
     servers already over capacity before the death
     (overloaded_before_event) where nonzero; the highest utilization up
     to which every seed had no failure; bounded_load against the others,
     and against its cap's prediction ((N − 1)/(N c) or (N − 1)/N);
  e. real memcached against the simulation of the same configuration (the
     sim block with cache_items = 0, no eviction): hit ratios within 0.02
     and extra reads within 25 % + 40 reads (bench/cluster/
     real_cluster_test.cc), and the real cluster's client latency and
     request rate.
"""

import math
import os
import re

import pandas as pd

import chdata
import style
from report.common import (fmt_mean, fmt_num, join_names,
                           match_variant, md_table, mean_interval, mean_of,
                           one, overlaps, pick_n, PARAM_COLS, variants)

EXP = "cluster"
PREFERRED_N = 10
PREFERRED_ZIPF = 0.99
# bench/cluster/real_cluster_test.cc
HIT_TOL = 0.02
EXTRA_REL_TOL = 0.25
EXTRA_ABS_TOL = 40
EPS = 1e-9
SCENARIO_WHAT = {"add": "a server joins", "remove": "a server dies"}
FIGURE_STEMS = ("cluster_timeline", "cluster_request_balance",
                "cluster_stale_view", "cluster_cascade_mean",
                "cluster_cascade")

# ---------------------------------------------------------------------------
# selection helpers


def _isnan(x):
    return x is None or (isinstance(x, float) and math.isnan(x))


def per_run(s):
    """Per-run rows (bucket empty) of a summary or data frame."""
    return s[s["bucket"].isna()]


def per_bucket(s):
    return s[s["bucket"].notna()]


def _mode(df, mode):
    return df[df["mode"] == mode]


def _most_rows(df, col, preferred=None):
    """Keeps one value of col: `preferred` if present, else the value with
    the most rows (the largest on a tie); returns (rows, value)."""
    vals = df[col].dropna()
    if vals.empty:
        return df, None
    if preferred is not None and (vals == preferred).any():
        keep = preferred
    else:
        cnt = vals.value_counts()
        top = cnt[cnt == cnt.max()].index
        keep = max(top)
    return df[df[col] == keep], keep


def var_key(var):
    """(algorithm, params...) with NaN as None: a hashable variant key."""
    return (var["algorithm"],) + tuple(
        None if _isnan(var.get(c)) or pd.isna(var.get(c)) else float(
            var.get(c)) for c in PARAM_COLS)


def labels(vars_):
    """{var_key: label}: the algorithm, plus c (load factor) and a
    (capacity) always, and v / M / k when the algorithm has several values
    in the block; e.g. "bounded_load (v = 1, c = 1.25)", "ring (v = 100)"."""
    out = {}
    for v in vars_:
        sib = [w for w in vars_ if w["algorithm"] == v["algorithm"]]
        parts = []
        for col, short in (("vnodes", "v"), ("table_size", "M"),
                           ("probes", "k"), ("capacity", "a"),
                           ("load_factor", "c")):
            x = v.get(col)
            if x is None or pd.isna(x):
                continue
            vary = len({var_key(w)[1 + PARAM_COLS.index(col)]
                        for w in sib}) > 1
            if col in ("load_factor", "capacity") or vary:
                parts.append(f"{short} = {float(x):g}")
        out[var_key(v)] = v["algorithm"] + (
            f" ({', '.join(parts)})" if parts else "")
    return out


def cell(df, var, metric, **f):
    """The summary row (dict) of one variant and metric, or None."""
    d = match_variant(df, var)
    d = d[d["metric"] == metric]
    for c, v in f.items():
        d = d[d[c] == v]
    return one(d)


def fmtm(r, kind="num"):
    """fmt_mean with a proper minus sign."""
    return fmt_mean(r, kind).replace("-", "−")


def fnum(x):
    return fmt_num(x).replace("-", "−")


def _signed(x, digits=None):
    if _isnan(x):
        return "—"
    if digits is not None:
        return f"{x:+.{digits}f}".replace("-", "−")
    return ("+" if x >= 0 else "−") + fmt_num(abs(x))


def _reps(df):
    ns = sorted(int(x) for x in df["n"].dropna().unique() if x > 0)
    if not ns:
        return ""
    if ns == [1]:
        return ("one seed per cell (n = 1): values without an interval, "
                "not ranked")
    return (f"mean over {join_names(str(n) for n in ns)} seeds "
            "[Student-t 95 % CI of the mean]")


def _missing_values(data, var, metric, **f):
    """(empty, total) data rows of one variant and metric (empty = no
    value, e.g. 'not recovered within the run')."""
    d = match_variant(data, var)
    d = d[d["metric"] == metric]
    for c, v in f.items():
        d = d[d[c] == v]
    return int(d["value"].isna().sum()), len(d)


def _na_text(data, var, **f):
    """The data's 'not applicable: ...' note for a variant, or None."""
    d = match_variant(data, var)
    for c, v in f.items():
        d = d[d[c] == v]
    d = d[d["value"].isna() &
          d["note"].str.lower().str.startswith("not applicable")]
    if d.empty:
        return None
    return "n/a: " + d.iloc[0]["note"][len("not applicable:"):].strip()


def _run_cite(ctx):
    e = ctx.exps.get(EXP)
    if e is None:
        return ""
    return (f"(run `{e.meta.get('run_id', '?')}`, "
            f"{ctx.csv_link(EXP)})")


def tied_with_best(rows, lower=True):
    """(best, tied, unranked) among [(label, summary row)]: best = the
    lowest (or highest) mean; tied = the others whose mean interval
    overlaps the best's; unranked = rows without an interval (n = 1)."""
    rows = [(k, r) for k, r in rows if not math.isnan(mean_of(r))]
    if not rows:
        return None, [], []
    sign = 1 if lower else -1
    rows.sort(key=lambda t: sign * mean_of(t[1]))
    best = rows[0]
    bi = mean_interval(best[1])
    if bi is None:
        return best, [], [k for k, _ in rows[1:]]
    tied, unranked = [], []
    for k, r in rows[1:]:
        ri = mean_interval(r)
        if ri is None:
            unranked.append(k)
        elif overlaps(bi, ri):
            tied.append(k)
    return best, tied, unranked


def separate(a, b):
    """True when the two rows' mean intervals do not overlap, False when
    they do, None when either has no interval (one seed)."""
    ia, ib = mean_interval(a), mean_interval(b)
    if ia is None or ib is None:
        return None
    return not overlaps(ia, ib)


def sep_text(x):
    return {True: "intervals separate", False: "intervals overlap",
            None: "one seed: no interval"}[x]


def _pick_ring(vars_):
    rings = [v for v in vars_ if v["algorithm"] == "ring"]
    if not rings:
        return None
    for v in rings:
        if v.get("vnodes") == 100:
            return v
    return rings[0]


# ---------------------------------------------------------------------------
# a. stampede on join and death


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
        best, tied, unranked = tied_with_best(extra)
        f = {"rows": rows, "best": best, "tied": tied, "unranked": unranked}
        # modulo against ring: a ratio of the means (a difference when
        # ring's mean is not positive).
        mod = [c for v, _, c in rows if v["algorithm"] == "modulo"]
        rv = _pick_ring([v for v, _, _ in rows])
        ring = [c for v, _, c in rows if rv is not None and
                var_key(v) == var_key(rv)]
        f["modulo_vs_ring"] = None
        if mod and ring:
            m = mean_of(mod[0]["extra_db_reads"])
            r = mean_of(ring[0]["extra_db_reads"])
            if not (math.isnan(m) or math.isnan(r)):
                f["modulo_vs_ring"] = {
                    "modulo": mod[0]["extra_db_reads"],
                    "ring": ring[0]["extra_db_reads"],
                    "ring_label": lab[var_key(rv)],
                    "ratio": m / r if r > 0 and m >= 0 else None,
                    "diff": m - r,
                    "separate": separate(mod[0]["extra_db_reads"],
                                         ring[0]["extra_db_reads"])}
        # measured against the prediction (intervals)
        above, below, within, alone = [], [], [], []
        for _, lbl, c in rows:
            x, p = c["extra_db_reads"], c["predicted_extra_db_reads"]
            if math.isnan(mean_of(x)) or math.isnan(mean_of(p)):
                continue
            sp = separate(x, p)
            if sp is None:
                alone.append(lbl)
            elif not sp:
                within.append(lbl)
            elif mean_of(x) > mean_of(p):
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


def _cache_text(cache):
    """'no eviction (cache_items = 0: ...)' or 'an LRU of k keys per
    server'."""
    if not cache or _isnan(cache):
        return ("no eviction (cache_items = 0: every server can hold the "
                "key universe, so the reads beyond the control are the "
                "stampede alone)")
    return f"an LRU of {fmt_num(cache)} keys per server"


def _others_text(sf):
    """The other sim add/remove configurations at this N, not in the
    table (the memcached block's twin: Q10e)."""
    if not sf.get("others"):
        return ""
    parts = [f"{fmt_num(c['keys'])} keys, {fmt_num(c['requests'])} "
             f"requests, {na} algorithms" for c, na in sf["others"]]
    return ("The table is the configuration with the most algorithms; "
            "the other sim configuration" + ("s" if len(parts) > 1 else "")
            + " of these events (" + "; ".join(parts) + ") "
            + ("are" if len(parts) > 1 else "is")
            + " the simulated twin of the memcached runs, compared in "
            "Q10e. ")


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
        txt = (f"Fewest extra reads when {SCENARIO_WHAT[sc]}: **{lbl}** "
               f"({fmtm(r)})")
        if f["tied"]:
            txt += ("; tied with it (intervals overlap): "
                    + join_names(f"**{x}**" for x in f["tied"]))
        else:
            txt += "; no other algorithm's interval overlaps it"
        if f["unranked"]:
            txt += ("; not ranked (one seed, no interval): "
                    + join_names(f["unranked"]))
        out.append(txt + ".")
    mr = f["modulo_vs_ring"]
    if mr:
        m, r = mean_of(mr["modulo"]), mean_of(mr["ring"])
        sep = f" ({sep_text(mr['separate'])})"
        if mr["ratio"] is not None:
            out.append(f"modulo's extra reads are {mr['ratio']:.3g}× "
                       f"{mr['ring_label']}'s (ratio of the means, "
                       f"{fnum(m)} vs {fnum(r)}; "
                       f"{sep_text(mr['separate'])}).")
        else:
            out.append(f"modulo: {fnum(m)} extra reads against "
                       f"{mr['ring_label']}'s {fnum(r)}, a difference of "
                       f"{_signed(m - r)}{sep} (no ratio: "
                       f"{mr['ring_label']}'s mean is not positive).")
    vp = f["vs_prediction"]
    ncmp = sum(len(v) for v in vp.values())
    parts = []
    for k, what in (("above", "above the prediction"),
                    ("below", "below it"),
                    ("within", "within the intervals of it"),
                    ("alone", "not compared (one seed, no interval)")):
        if vp[k]:
            names = ("all" if len(vp[k]) == ncmp and ncmp > 1 else
                     join_names(vp[k]) if len(vp[k]) <= 4 else
                     "e.g. " + join_names(vp[k][:3]))
            parts.append(f"{what}: {len(vp[k])} ({names})")
    if parts:
        out.append("Extra reads against moved fraction × hot set, beyond "
                   "the intervals — " + "; ".join(parts) + ".")
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


# ---------------------------------------------------------------------------
# b. hot keys


def _sim_block(e, scenario):
    """(per-run sim rows of `scenario` at the preferred N, in the block with
    the most rows by keys, requests and cache size; N), or (None, None)."""
    s = per_run(_mode(e.summary, "sim"))
    d = s[s["scenario"] == scenario]
    if d.empty:
        return None, None
    n = pick_n(d["nodes"], PREFERRED_N)
    d = d[d["nodes"] == n]
    for col in ("keys", "requests", "cache_items"):
        d, _ = _most_rows(d, col)
    return d, n


def hot_findings(e):
    d, n = _sim_block(e, "none")
    if d is None:
        return None
    zs = sorted(float(z) for z in d["zipf"].dropna().unique())
    if not zs:
        return None
    vars_ = variants(d)
    lab = labels(vars_)
    z0 = PREFERRED_ZIPF if PREFERRED_ZIPF in zs else zs[-1]
    out = {"n": n, "zipfs": zs, "z": z0, "vars": vars_, "labels": lab,
           "rows": d,
           "reps": _reps(d[d["metric"] == "steady_request_max_over_mean"]),
           "keys": d["keys"].iloc[0],
           "requests": d["requests"].iloc[0]}
    at = []
    bounded = []
    for v in vars_:
        r = cell(d, v, "steady_request_max_over_mean", zipf=z0)
        if r is None or math.isnan(mean_of(r)):
            continue
        at.append((v, lab[var_key(v)], r))
        c = v.get("load_factor")
        if v["algorithm"] == "bounded_load" and not _isnan(c) and \
                not pd.isna(c):
            br = cell(d, v, "bucket_requests", zipf=z0)
            per = mean_of(br) / n if br is not None else float("nan")
            bound = (math.ceil(float(c) * per - EPS) / per
                     if per and not math.isnan(per) else float("nan"))
            mx = r.get("max")
            ok = (not math.isnan(bound) and mx is not None and
                  not _isnan(mx) and float(mx) <= bound + EPS)
            bounded.append({"var": v, "label": lab[var_key(v)], "c": float(c),
                            "row": r, "bound": bound, "ok": ok,
                            "max": mx,
                            "hit": cell(d, v, "steady_hit_ratio", zipf=z0)})
    out["at"] = at
    out["bounded"] = bounded
    free = [(v, lbl, r) for v, lbl, r in at if v["algorithm"] !=
            "bounded_load"]
    out["free"] = free
    if free:
        lo = min(free, key=lambda t: mean_of(t[2]))
        hi = max(free, key=lambda t: mean_of(t[2]))
        out["free_range"] = (lo, hi)
    else:
        out["free_range"] = None
    # the hit-ratio cost of each bound against the ring with its vnodes
    for b in bounded:
        ref = None
        for v in vars_:
            if v["algorithm"] == "ring" and (
                    v.get("vnodes") == b["var"].get("vnodes")):
                ref = v
        if ref is None:
            ref = _pick_ring(vars_)
        b["ref"] = None
        if ref is not None:
            rh = cell(d, ref, "steady_hit_ratio", zipf=z0)
            b["ref"] = (lab[var_key(ref)], rh)
            hb, hr = mean_of(b["hit"]), mean_of(rh)
            b["hit_cost"] = hr - hb
            b["hit_cost_separate"] = separate(b["hit"], rh)
    return out


def _hot_table(hf):
    d, zs = hf["rows"], hf["zipfs"]
    head = ["variant"] + [f"s = {z:g}" for z in zs]
    rows = []
    for v in hf["vars"]:
        rows.append([hf["labels"][var_key(v)]] + [
            fmtm(cell(d, v, "steady_request_max_over_mean", zipf=z), "x")
            for z in zs])
    return md_table(head, rows)


def _hot_prose(hf):
    out = []
    z = hf["z"]
    if hf["free"]:
        out.append(
            f"At s = {z:g} the busiest server serves "
            + join_names(f"{lbl} {fmtm(r, 'x')}" for _, lbl, r in hf["free"])
            + " the mean request load: placing keys evenly does not balance "
            "requests when a few keys dominate.")
    for b in hf["bounded"]:
        txt = (f"**{b['label']}**: {fmtm(b['row'], 'x')}; largest seed "
               f"{float(b['max']):.4g}× against its bound "
               f"ceil(c × requests per server) = {b['bound']:.4g}×: "
               + ("within it" if b["ok"] else "**above it**"))
        if b.get("ref"):
            rl, rh = b["ref"]
            txt += (f"; steady hit ratio {fmtm(b['hit'], 'sci')} against "
                    f"{rl}'s {fmtm(rh, 'sci')} ("
                    + (f"{_signed(-b['hit_cost'] * 100, 2)} points"
                       if not math.isnan(b["hit_cost"]) else "—")
                    + ", " + sep_text(b["hit_cost_separate"]) + ")")
        out.append(txt + ".")
    return out


# ---------------------------------------------------------------------------
# c. stale views


def _fit(xs, ys):
    """(slope, intercept, r2) of a least-squares line; NaN when < 2
    points or no spread in x."""
    n = len(xs)
    if n < 2:
        return float("nan"), float("nan"), float("nan")
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return float("nan"), float("nan"), float("nan")
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    b = sxy / sxx
    a = my - b * mx
    syy = sum((y - my) ** 2 for y in ys)
    r2 = 1.0 - sum((y - a - b * x) ** 2 for x, y in zip(xs, ys)) / syy \
        if syy > 0 else 1.0
    return b, a, r2


def _monotone(ys):
    """'increasing', 'decreasing', 'constant' or 'not monotone'."""
    if len(ys) < 2:
        return "—"
    dif = [b - a for a, b in zip(ys, ys[1:])]
    if all(x == 0 for x in dif):
        return "constant"
    if all(x >= 0 for x in dif):
        return "increasing"
    if all(x <= 0 for x in dif):
        return "decreasing"
    return "not monotone"


def stale_findings(e):
    d, n = _sim_block(e, "stale_view")
    if d is None:
        return None
    fs = sorted(float(x) for x in d["stale_fraction"].dropna().unique())
    vars_ = variants(d)
    lab = labels(vars_)
    out = {"n": n, "fs": fs, "rows": d, "vars": vars_, "labels": lab,
           "reps": _reps(d[d["metric"] == "extra_db_reads"]), "per": [],
           "cache": d["cache_items"].iloc[0], "keys": d["keys"].iloc[0],
           "requests": d["requests"].iloc[0]}
    for v in vars_:
        pts = []
        for f in fs:
            x = cell(d, v, "extra_db_reads", stale_fraction=f)
            m = cell(d, v, "misrouted_requests", stale_fraction=f)
            if x is None or math.isnan(mean_of(x)):
                continue
            pts.append((f, x, m))
        if len(pts) < 1:
            continue
        ex = [mean_of(x) for _, x, _ in pts]
        mi = [mean_of(m) for _, _, m in pts]
        fx = [f for f, _, _ in pts]
        first, last = pts[0], pts[-1]
        out["per"].append({
            "label": lab[var_key(v)], "var": v, "fs": fx,
            "extra_first": first[1], "extra_last": last[1],
            "extra_change": ex[-1] - ex[0],
            "extra_separate": separate(first[1], last[1]),
            "extra_slope": _fit(fx, ex)[0],
            "extra_trend": _monotone(ex),
            "mis_fit": _fit(fx, mi) if not any(math.isnan(x) for x in mi)
            else (float("nan"),) * 3,
            "mis_trend": _monotone(mi),
            "mis_change": (mi[-1] - mi[0]) if mi else float("nan")})
    return out


def _stale_table(sf):
    d = sf["rows"]
    head = ["algorithm", "stale fraction f", "extra db reads",
            "misrouted requests", "post-event hit ratio"]
    rows = []
    for v in sf["vars"]:
        for f in sf["fs"]:
            if cell(d, v, "extra_db_reads", stale_fraction=f) is None:
                continue
            rows.append([sf["labels"][var_key(v)], f"{f:g}",
                         fmtm(cell(d, v, "extra_db_reads",
                                   stale_fraction=f)),
                         fmtm(cell(d, v, "misrouted_requests",
                                   stale_fraction=f)),
                         fmtm(cell(d, v, "post_hit_ratio",
                                   stale_fraction=f), "sci")])
    return md_table(head, rows)


def _stale_prose(sf):
    out = []
    if len(sf["fs"]) < 2:
        out.append("One stale fraction only: no trend to compute.")
        return out
    for p in sf["per"]:
        if len(p["fs"]) < 2:
            continue
        b, _, r2 = p["mis_fit"]
        ratio = (p["extra_change"] / p["mis_change"]
                 if p["mis_change"] and not math.isnan(p["mis_change"])
                 else float("nan"))
        out.append(
            f"**{p['label']}**: misrouted requests {p['mis_trend']} in f "
            f"(least-squares slope {fnum(b)} per unit f, R² = "
            f"{r2:.3f}); extra reads {p['extra_trend']} in f, from "
            f"{fmtm(p['extra_first'])} at f = {p['fs'][0]:g} to "
            f"{fmtm(p['extra_last'])} at f = {p['fs'][-1]:g} "
            f"({_signed(p['extra_change'])}, "
            + sep_text(p["extra_separate"]) + ")"
            + (f", {ratio:.2g} extra reads per misrouted request".replace(
                "-", "−")
               if not math.isnan(ratio) else "") + ".")
    return out


# ---------------------------------------------------------------------------
# d. cascades


CASCADE_SCENARIOS = ("cascade", "cascade_mean")
CASCADE_WHAT = {
    "cascade": "servers sized for the algorithm's own busiest server",
    "cascade_mean": "equal servers sized for the mean load"}


def cascade_findings(e, n=None, scenario="cascade"):
    """Servers failed per variant and utilization for one cascade scenario
    (`cascade`: capacity = the algorithm's own steady busiest server / u;
    `cascade_mean`: the mean server / u, equal for every algorithm) at N =
    n; None without rows."""
    s = per_run(_mode(e.summary, "sim"))
    d = s[s["scenario"] == scenario]
    if d.empty:
        return None
    if n is None:
        n = pick_n(d["nodes"], PREFERRED_N)
    d = d[d["nodes"] == n]
    for col in ("keys", "requests", "cache_items", "zipf"):
        d, _ = _most_rows(d, col)
    us = sorted(float(u) for u in d["utilization"].dropna().unique())
    vars_ = variants(d)
    lab = labels(vars_)
    data = per_run(e.data)
    data = data[(data["scenario"] == scenario) & (data["nodes"] == n)]
    out = {"n": n, "us": us, "rows": d, "vars": vars_, "labels": lab,
           "scenario": scenario, "what": CASCADE_WHAT.get(scenario, ""),
           "reps": _reps(d[d["metric"] == "servers_failed"]),
           "zipf": d["zipf"].iloc[0], "per": [],
           "any_over": False}
    for v in vars_:
        cells = {}
        for u in us:
            r = cell(d, v, "servers_failed", utilization=u)
            na = _na_text(data, v, utilization=u)
            ob = cell(d, v, "overloaded_before_event", utilization=u)
            cells[u] = (r, na, ob)
            if ob is not None and not _isnan(ob.get("max")) and \
                    float(ob["max"]) > 0:
                out["any_over"] = True
        measured = [u for u in us if cells[u][0] is not None and
                    not _isnan(cells[u][0].get("max"))]
        zero = [u for u in measured if float(cells[u][0]["max"]) == 0]
        safe = None
        for u in measured:
            if float(cells[u][0]["max"]) == 0:
                safe = u
            else:
                break
        first_fail = next((u for u in measured
                           if float(cells[u][0]["max"]) > 0), None)
        above = [u for u in zero if safe is None or u > safe]
        steady = None
        for u in us:
            steady = cell(d, v, "steady_request_max_over_mean",
                          utilization=u)
            if steady is not None:
                break
        na = next((cells[u][1] for u in us if cells[u][1]), None)
        ob_ff = cells[first_fail][2] if first_fail is not None else None
        out["per"].append({"label": lab[var_key(v)], "var": v,
                           "cells": cells, "safe": safe,
                           "first_fail": first_fail,
                           "over_at_first_fail": (
                               None if ob_ff is None or
                               _isnan(ob_ff.get("max"))
                               else float(ob_ff["max"]) > 0),
                           "measured": measured,
                           "zero_above_failure": above,
                           "steady": steady, "na": na})
    out["bounded_check"] = _bounded_check(out)
    return out


def bounded_threshold(scenario, n, c):
    """The utilization above which bounded_load's cap itself overloads a
    server after one death of n (its busiest server carries c × the mean
    over n − 1 live servers = c × n/(n − 1) × the old mean): cascade
    (capacity = c × mean / u): (n − 1)/n; cascade_mean (capacity = mean /
    u): (n − 1)/(n × c). None for another scenario."""
    if scenario == "cascade":
        return (n - 1) / n
    if scenario == "cascade_mean":
        return (n - 1) / (n * c)
    return None


def _bounded_check(cf):
    """[(label, threshold, agrees)]: bounded_load's measured failures
    against bounded_threshold: no failure in any seed below it, a failure
    in some seed above it (u equal to it is not judged: the cap's rounding
    decides)."""
    out = []
    for p in cf["per"]:
        c = p["var"].get("load_factor")
        if p["var"]["algorithm"] != "bounded_load" or _isnan(c) or \
                pd.isna(c) or not p["measured"]:
            continue
        thr = bounded_threshold(cf["scenario"], cf["n"], float(c))
        if thr is None:
            continue
        ok = True
        for u in p["measured"]:
            mx = float(p["cells"][u][0]["max"])
            if u < thr - 1e-6 and mx > 0:
                ok = False
            if u > thr + 1e-6 and mx == 0:
                ok = False
        out.append((p["label"], thr, ok))
    return out


def _over_text(ob):
    """' ; k over before' from an overloaded_before_event row; '' when
    zero or missing."""
    if ob is None or _isnan(ob.get("max")) or float(ob["max"]) <= 0:
        return ""
    mn, mx = ob.get("min"), float(ob["max"])
    if not _isnan(mn) and float(mn) == mx:
        return f"; {fmt_num(mx)} over before"
    return f"; {fnum(mean_of(ob))} over before (max {fmt_num(mx)})"


def _failed_cell(r, na, ob=None):
    if r is None or math.isnan(mean_of(r)):
        return na or "—"
    mn, mx = r.get("min"), r.get("max")
    if not _isnan(mn) and not _isnan(mx) and mn == mx:
        txt = f"{fmt_num(mx)}"
    else:
        txt = f"{fmtm(r)}; max {fmt_num(mx)}"
    return txt + _over_text(ob)


def _safe_text(p, us):
    if p["safe"] is not None:
        return f"{p['safe']:g}"
    return f"none (fails at {us[0]:g})"


def _cascade_table(cf):
    us = cf["us"]
    head = (["variant", "steady max/mean"] + [f"u = {u:g}" for u in us]
            + ["no failure up to u"])
    rows = []
    for p in cf["per"]:
        if p["na"] and not p["measured"]:
            rows.append([p["label"], p["na"]] + [""] * (len(us) + 1))
            continue
        rows.append([p["label"], fmtm(p["steady"], "x")]
                    + [_failed_cell(*p["cells"][u]) for u in us]
                    + [_safe_text(p, us)])
    return md_table(head, rows)


PARAM_SHORT = {"vnodes": "v", "table_size": "M", "probes": "k",
               "capacity": "a", "load_factor": "c"}


def _compress(a, mine, allv):
    """'bounded_load (c = 1.05 and 1.1; v = 1 and 100)' when the group's
    variants of algorithm a (mine) are exactly every combination of the
    parameter values they take; None otherwise."""
    cols = [c for c in PARAM_COLS
            if len({var_key(q["var"])[1 + PARAM_COLS.index(c)]
                    for q in allv}) > 1]
    if not cols:
        return None
    vals = {c: sorted({var_key(q["var"])[1 + PARAM_COLS.index(c)]
                       for q in mine}, key=lambda x: -1 if x is None else x)
            for c in cols}
    combos = 1
    for c in cols:
        combos *= len(vals[c])
    if combos != len(mine):
        return None
    order = sorted(cols, key=lambda c: c != "load_factor")
    return a + " (" + "; ".join(
        f"{PARAM_SHORT[c]} = " + join_names(
            "—" if x is None else f"{x:g}" for x in vals[c])
        for c in order) + ")"


def safe_groups(cf, bold=False):
    """[(u or None, [names])]: the variants grouped by the highest
    utilization up to which no seed had a failure (None: failures at the
    lowest u), highest first; an algorithm whose variants (more than two)
    all fall in one group is named once, "bounded_load (all 8 variants)",
    and several variants of one algorithm that form every combination of
    their parameter values are named once, "bounded_load (c = 1.05 and
    1.1; v = 1 and 100)"."""
    measured = [p for p in cf["per"] if p["measured"]]
    groups = {}
    for p in measured:
        groups.setdefault(p["safe"], []).append(p)
    out = []
    for u in sorted(groups, key=lambda x: -1 if x is None else x,
                    reverse=True):
        names, done = [], set()
        for p in groups[u]:
            a = p["var"]["algorithm"]
            if a in done:
                continue
            mine = [q for q in groups[u] if q["var"]["algorithm"] == a]
            allv = [q for q in measured if q["var"]["algorithm"] == a]
            comp = _compress(a, mine, allv) if len(mine) > 1 else None
            if len(mine) == len(allv) and len(allv) > 2:
                names.append(f"**{a}**" if bold else a)
                names[-1] += f" (all {len(allv)} variants)"
                done.add(a)
            elif comp:
                names.append(comp.replace(a, f"**{a}**", 1) if bold
                             else comp)
                done.add(a)
            else:
                names.append(f"**{p['label']}**" if bold else p["label"])
        out.append((u, names))
    return out


def bounded_vs_unbounded(cf):
    """{bounded: [(c values, safe u)], unbounded: (lo, hi, k, total),
    never: [labels]}: bounded_load's highest u without failure per load
    factor (grouped when equal over its vnodes), and the range of the first
    failing u over the other algorithms' variants (never: variants
    without a failure at any measured u)."""
    bl = {}
    for p in cf["per"]:
        c = p["var"].get("load_factor")
        if p["var"]["algorithm"] == "bounded_load" and p["measured"] and \
                not (_isnan(c) or pd.isna(c)):
            bl.setdefault(float(c), set()).add(p["safe"])
    by_safe = {}
    for c in sorted(bl):
        key = tuple(sorted(bl[c], key=lambda x: -1 if x is None else x))
        by_safe.setdefault(key, []).append(c)
    bounded = sorted(((cs, key) for key, cs in by_safe.items()),
                     key=lambda t: t[0][0])
    un = [p for p in cf["per"] if p["var"]["algorithm"] != "bounded_load"
          and p["measured"]]
    ff = [p["first_fail"] for p in un if p["first_fail"] is not None]
    never = [p["label"] for p in un if p["first_fail"] is None]
    safe_un = [p["safe"] for p in un if p["safe"] is not None]
    best_un = None
    if un:
        top = max(safe_un) if safe_un else None
        best_un = (top, [p["label"] for p in un if p["safe"] == top])
    safe_bl = [s for _, ss in bounded for s in ss if s is not None]
    return {"bounded": bounded, "best_unbounded": best_un,
            "best_bounded": max(safe_bl) if safe_bl else None,
            "unbounded": (min(ff), max(ff), len(ff), len(un)) if ff
            else None, "never": never}


def _u_list(safes):
    """'0.8' or '0.7 to 0.8' (over vnodes) or 'none'."""
    vals = [s for s in safes if s is not None]
    if not vals:
        return None
    lo, hi = min(vals), max(vals)
    txt = f"{lo:g}" if lo == hi else f"{lo:g}–{hi:g}"
    if len(vals) < len(safes):
        txt += " (some variants: a failure already at the lowest u)"
    return txt


def bounded_sentence(cf, bold=False):
    """'bounded_load with c = 1.05 and 1.1 has no failure in any seed up
    to u = 0.8, c = 1.25 up to 0.7; every unbounded variant fails in some
    seed, first at u = 0.5–0.6 (over the variants)' (computed), or
    None."""
    bv = bounded_vs_unbounded(cf)
    b = "**bounded_load**" if bold else "bounded_load"
    parts = []
    for i, (cs, safes) in enumerate(bv["bounded"]):
        ct = "c = " + join_names(f"{c:g}" for c in cs)
        ut = _u_list(list(safes))
        if ut is None:
            parts.append(f"{ct} fails already at u = {cf['us'][0]:g}")
        else:
            parts.append(f"{ct} " + ("has no failure in any seed up to u "
                                     "= " if i == 0 else "up to ") + ut)
    txt = []
    if parts:
        txt.append(f"{b} with " + ", ".join(parts))
    un = bv["unbounded"]
    if un:
        lo, hi, k, tot = un
        rng = f"{lo:g}" if lo == hi else f"{lo:g}–{hi:g}"
        who = ("every unbounded variant" if k == tot else
               f"{k} of {tot} unbounded variants")
        txt.append(f"{who} fails in some seed, first at u = {rng}"
                   + (" (over the variants)" if lo != hi else ""))
    if bv["never"]:
        txt.append("no failure at any measured u: " + join_names(bv["never"]))
    return "; ".join(txt) if txt else None


def _cascade_prose(cf):
    out = []
    groups = safe_groups(cf)
    if groups:
        umax = cf["us"][-1] if cf["us"] else None
        parts = []
        for u, names in groups:
            names = join_names(names)
            if u is None:
                parts.append(f"failures already at u = {cf['us'][0]:g}: "
                             f"{names}")
            elif u == umax:
                parts.append(f"up to u = {u:g} (the highest measured): "
                             f"{names}")
            else:
                parts.append(f"up to u = {u:g}: {names}")
        out.append("No server failed in any seed — " + "; ".join(parts)
                   + ".")
    bs = bounded_sentence(cf)
    if bs and cf["scenario"] == "cascade_mean":
        out.append("On equal hardware: " + bs + ".")
    if cf["scenario"] == "cascade_mean":
        ff = [p for p in cf["per"] if p["first_fail"] is not None and
              p["over_at_first_fail"] is not None and
              p["var"]["algorithm"] != "bounded_load"]
        pre = [p["label"] for p in ff if p["over_at_first_fail"]]
        death = [p["label"] for p in ff if not p["over_at_first_fail"]]
        if ff:
            txt = (f"Unbounded variants at their first failing u: {len(pre)} "
                   f"of {len(ff)} already had a server above capacity before "
                   "the death in some seed (the hot keys' server)"
                   + (": " + join_names(pre) if pre else ""))
            if death:
                txt += ("; the death's extra load alone caused the first "
                        "failures of " + join_names(death))
            out.append(txt + ".")
    bc = cf["bounded_check"]
    if bc:
        n = cf["n"]
        if cf["scenario"] == "cascade":
            form = (f"u > (N − 1)/N = {(n - 1) / n:.3g}, whatever c "
                    "(capacity = c × the mean / u)")
        else:
            cs = sorted({float(p["var"]["load_factor"]) for p in cf["per"]
                         if p["var"]["algorithm"] == "bounded_load" and
                         not _isnan(p["var"].get("load_factor")) and
                         not pd.isna(p["var"].get("load_factor"))})
            thr = [(c, bounded_threshold(cf["scenario"], n, c))
                   for c in cs]
            form = ("u > (N − 1)/(N c) (capacity = the mean / u): "
                    + ", ".join(f"c = {c:g}: {x:.3g}" for c, x in thr))
        agree = [lbl for lbl, _, ok in bc if ok]
        bad = [lbl for lbl, _, ok in bc if not ok]
        out.append(
            "bounded_load's cap predicts its failures: after one death its "
            f"busiest server carries c × N/(N − 1) × the old mean load, "
            f"above the capacity once {form}; measured (no failure in any "
            "seed below it, a failure above it; u equal to it not judged): "
            f"{len(agree)} of {len(bc)} variants agree"
            + (" — not: " + join_names(bad) if bad else "") + ".")
    odd = [p for p in cf["per"] if p["zero_above_failure"]]
    if odd:
        out.append("Not monotone in u (no failure again at a higher u "
                   "after a failure): " + join_names(
                       f"{p['label']} (u = "
                       + ", ".join(f"{u:g}" for u in p["zero_above_failure"])
                       + ")" for p in odd) + ".")
    na = [p for p in cf["per"] if p["na"] and not p["measured"]]
    if na:
        out.append("Not applicable: " + join_names(
            f"{p['label']} ({p['na'][5:]})" for p in na) + ".")
    return out


# ---------------------------------------------------------------------------
# e. real memcached against the simulation

MATCH_COLS = ["algorithm", "hash", "keyset", "nodes", "keys", "zipf",
              "requests", "cache_items", "scenario"] + PARAM_COLS


def within_tolerance(real, sim, metric):
    """|real - sim| within the real-cluster test's tolerance."""
    if math.isnan(real) or math.isnan(sim):
        return None
    if metric == "extra_db_reads":
        return abs(real - sim) <= EXTRA_REL_TOL * abs(sim) + \
            EXTRA_ABS_TOL + EPS
    return abs(real - sim) <= HIT_TOL + EPS


REAL_METRICS = ("steady_hit_ratio", "post_hit_ratio", "extra_db_reads")


def real_findings(e):
    s = per_run(e.summary)
    real = _mode(s, "memcached")
    if real.empty:
        return None
    sim = _mode(s, "sim")
    bucket = per_bucket(_mode(e.data, "memcached"))
    out = []
    cfgs = real[MATCH_COLS].drop_duplicates()
    order = {a: i for i, a in enumerate(style.order_algorithms(
        cfgs["algorithm"].tolist()))}
    cfgs = cfgs.assign(_o=cfgs["algorithm"].map(order),
                       _s=cfgs["scenario"].map(
                           {"add": 0, "remove": 1}).fillna(2)).sort_values(
        ["_s", "_o"] + PARAM_COLS).drop(columns=["_o", "_s"])
    for _, cfg in cfgs.iterrows():
        mr = real
        ms = sim
        mb = bucket
        for c in MATCH_COLS:
            v = cfg[c]
            if isinstance(v, str) or not pd.isna(v):
                mr, ms, mb = mr[mr[c] == v], ms[ms[c] == v], mb[mb[c] == v]
            else:
                mr, ms = mr[mr[c].isna()], ms[ms[c].isna()]
                mb = mb[mb[c].isna()]
        row = {"cfg": cfg.to_dict(), "metrics": {}}
        for m in REAL_METRICS:
            r = one(mr[mr["metric"] == m])
            sm = one(ms[ms["metric"] == m])
            rv, sv = mean_of(r), mean_of(sm)
            row["metrics"][m] = {"real": r, "sim": sm, "diff": rv - sv,
                                 "ok": within_tolerance(rv, sv, m)}
        oks = [x["ok"] for x in row["metrics"].values()]
        row["has_sim"] = any(x["sim"] is not None
                             for x in row["metrics"].values())
        row["ok"] = None if any(o is None for o in oks) else all(oks)
        row["n"] = max([int(x["real"]["n"]) for x in row["metrics"].values()
                        if x["real"] is not None] or [0])
        lat = {}
        for m in ("latency_p50_us", "latency_p99_us", "bucket_s"):
            v = mb[mb["metric"] == m]["value"].dropna()
            lat[m] = float(v.median()) if not v.empty else float("nan")
        br = one(mr[mr["metric"] == "bucket_requests"])
        lat["rate"] = (mean_of(br) / lat["bucket_s"]
                       if br is not None and lat["bucket_s"] > 0
                       else float("nan"))
        lat["buckets"] = int(mb[mb["metric"] == "bucket_s"]["value"]
                             .notna().sum())
        row["latency"] = lat
        out.append(row)
    return out


def _real_label(cfg):
    v = {c: cfg[c] for c in ["algorithm"] + PARAM_COLS}
    return labels([v])[var_key(v)]


def _hr(r):
    """A hit ratio to 4 decimals, with its interval when there is one."""
    if r is None or math.isnan(mean_of(r)):
        return "—"
    lo, hi = r.get("mean_ci_low"), r.get("mean_ci_high")
    out = f"{mean_of(r):.4f}"
    if not _isnan(lo) and not _isnan(hi):
        out += f" [{float(lo):.4f}–{float(hi):.4f}]"
    return out


def _real_tables(rf):
    head = ["algorithm", "event", "steady hit ratio: real · sim · Δ",
            "post-event hit ratio: real · sim · Δ",
            "extra db reads: real · sim · Δ", "within tolerance"]
    rows = []
    for r in rf:
        mm = r["metrics"]
        cells = []
        for m in REAL_METRICS:
            x = mm[m]
            if m == "extra_db_reads":
                cells.append(f"{fmtm(x['real'])} · {fmtm(x['sim'])} · Δ "
                             f"{_signed(x['diff'])}")
            else:
                cells.append(f"{_hr(x['real'])} · {_hr(x['sim'])} · Δ "
                             f"{_signed(x['diff'], 4)}")
        if r["ok"] is None:
            verdict = "— (no sim counterpart)" if not r["has_sim"] else "—"
        elif r["ok"]:
            verdict = "yes"
        else:
            bad = [m for m in REAL_METRICS if mm[m]["ok"] is False]
            verdict = "**no**: " + ", ".join(bad)
        rows.append([_real_label(r["cfg"]), r["cfg"]["scenario"]] + cells
                    + [verdict])
    lat_head = ["algorithm", "event", "latency p50 (µs)",
                "latency p99 (µs)", "bucket wall time (s)",
                "achieved requests/s", "runs (n)"]
    lrows = []
    for r in rf:
        la = r["latency"]
        lrows.append([_real_label(r["cfg"]), r["cfg"]["scenario"],
                      fmt_num(la["latency_p50_us"]),
                      fmt_num(la["latency_p99_us"]),
                      fmt_num(la["bucket_s"]), fmt_num(la["rate"]),
                      str(r["n"])])
    return md_table(head, rows), md_table(lat_head, lrows)


# ---------------------------------------------------------------------------
# findings and the section


def findings(ctx, exps=None):
    """Everything the section and the guide say, from one experiments dict:
    {stampede: {n, cache, scenarios: {add|remove: {...}}}, stampede_other:
    [same at other N], hot, stale, cascade, cascade_mean (each: the
    cascade scenario of that name), cascade_other, cascade_mean_other,
    real}; None without the experiment."""
    e = (exps if exps is not None else ctx.exps).get(EXP)
    if e is None:
        return None
    # The section, the guide and the README block each ask; computed once
    # per experiment object (callers only read it).
    cached = getattr(e, "_cluster_findings", None)
    if cached is not None:
        return cached
    f = {"stampede": stampede_findings(e), "hot": hot_findings(e),
         "stale": stale_findings(e), "real": real_findings(e),
         "stampede_other": []}
    for sc in CASCADE_SCENARIOS:
        f[sc] = cascade_findings(e, scenario=sc)
        f[sc + "_other"] = []
    sim = per_run(_mode(e.summary, "sim"))
    todo = [("stampede", stampede_findings, ["add", "remove"])] + [
        (sc, (lambda e_, n_, sc_=sc: cascade_findings(e_, n_, sc_)), [sc])
        for sc in CASCADE_SCENARIOS]
    for key, fn, scs in todo:
        main = f[key]
        if main is None:
            continue
        d = sim[sim["scenario"].isin(scs)]
        for n in sorted(int(x) for x in d["nodes"].dropna().unique()):
            if n != main["n"]:
                other = fn(e, n)
                if other is not None:
                    f[key + "_other"].append(other)
    e._cluster_findings = f
    return f


def _figure_link(ctx, stems):
    from report.figures import FIGURES
    caps = dict(FIGURES)
    links = []
    for stem in stems:
        p = os.path.join(ctx.figures_dir or "", stem + ".png")
        if os.path.isfile(p):
            links.append(f"Figure: [{caps.get(stem, stem)}]({ctx.rel(p)}).")
    return " ".join(links)


def _metric_desc(ctx, names):
    out = []
    for m in names:
        d = ctx.reg.metric(m).get("description", "")
        d = re.sub(r"^cluster(, [a-z_]+)?: ", "", d)
        if d:
            out.append(f"`{m}`: {d}")
    return out


def section(ctx):
    head = ("## Q10. A cache cluster under change: stampedes, hot keys, "
            "stale views, cascades")
    out = [head, ""]
    e = ctx.exps.get(EXP)
    if e is None:
        return "\n".join(out + [f"_No `{EXP}` results yet._", ""])
    f = findings(ctx)
    cite = _run_cite(ctx)
    ns = sorted(int(x) for x in e.summary["nodes"].dropna().unique())
    out += [
        "The cache cluster of the seed articles, measured "
        "(bench/cluster/cluster.h): clients send cache-aside requests "
        "(Zipf popularity over a universe of URL keys) to N cache servers "
        "placed by each algorithm; a miss reads the database and stores "
        "the key on that server. Each run has one **event** at its event "
        "bucket — a server joins (`add`), the last server dies (`remove`: "
        "each client drops it at its first error), some clients keep the "
        "old view (`stale_view`), or a death triggers overloads "
        "(`cascade`, `cascade_mean`) — and is paired with a **control "
        "run** of the same requests without the event. **extra db "
        "reads** = the run's database reads from the event on minus the "
        "control's; the prediction is moved fraction × hot set (the "
        "keys requested both before and after the event). Mode **sim** "
        "keeps an LRU cache of cache_items keys per server in process "
        "(0: no eviction; deterministic for a seed; a cell's "
        "repetitions are seeds of the key set and request stream); mode "
        "**memcached** replays the same requests on real memcached "
        "servers on 127.0.0.1 (numbers vary run to run).",
        "",
        "- Cells: mean over seeds [Student-t 95 % CI of the mean]; a "
        "single seed (n = 1) has no interval and is not ranked. \"Tied\" = "
        "the intervals overlap.",
        "- Limits: measured N = " + ", ".join(str(n) for n in ns)
        + (" only" if len(ns) == 1 else "") + "; one event per run; no "
        "application writes (a SET only fills a miss), so a stale copy is "
        "counted as a misrouted request, never read as a wrong value; the "
        "database has no capacity limit (a stampede costs reads, never a "
        "database failure); only the cascade model gives the cache servers "
        "a capacity.", ""]
    out += [f"- {x}" for x in _metric_desc(ctx, (
        "extra_db_reads", "stampede_requests", "recovery_requests",
        "recovery_s", "steady_request_max_over_mean", "misrouted_requests",
        "servers_failed", "overloaded_before_event"))] + [""]
    # a
    sf = f["stampede"]
    if sf and sf["scenarios"]:
        out += [f"### Q10a. Stampede on a join and on a death (N = "
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
            out += [f"At N = {fmt_num(o['n'])} ({fmt_num(o['keys'])} keys, "
                    + _cache_text(o["cache"]) + f"; {o['reps']}):", ""]
            for sc in ("add", "remove"):
                if sc in o["scenarios"]:
                    out += [f"**{sc}**:", "", _stampede_table(o, sc), "",
                            " ".join(_stampede_prose(o, sc)), ""]
    # b
    hf = f["hot"]
    if hf:
        out += [f"### Q10b. Hot keys: request max/mean against the Zipf "
                f"exponent (N = {hf['n']}, no event)", "",
                f"Requests of the busiest server over the mean per server, "
                f"over the steady buckets, mode sim, "
                f"{fmt_num(hf['keys'])} keys, {fmt_num(hf['requests'])} "
                f"requests; {hf['reps']}. bounded_load bounds the requests a "
                "server takes per bucket by ceil(c × bucket requests / live "
                "servers) and spills the rest to the next servers on its "
                "ring. " + cite, "", _hot_table(hf), "",
                " ".join(_hot_prose(hf)), ""]
    # c
    st = f["stale"]
    if st:
        out += [f"### Q10c. Stale views after a join (N = {st['n']})", "",
                "A fraction f of the clients keeps the old view for a tenth "
                "of the run after the join: their requests for moved keys "
                "go to the old server (misrouted). Mode sim, "
                f"{fmt_num(st['keys'])} keys, {fmt_num(st['requests'])} "
                "requests, " + _cache_text(st["cache"]).split(" (")[0]
                + ". In this read-only cache-aside model the old server "
                "still holds its copies, so a stale client hits them (no "
                "database read). Two effects on the extra reads: a moved "
                "key requested during the window only by stale clients is "
                "refetched on the new server later, at its first request "
                "from an up-to-date client, or never within the run (fewer "
                "extra reads); a key new to the cache that a stale client "
                "fetches onto the old server misses again on the new "
                "server once it switches (more extra reads). "
                f"{st['reps'][:1].upper()}{st['reps'][1:]}. "
                + cite, "", _stale_table(st), "",
                " ".join(_stale_prose(st)), ""]
    # d
    cfs = [f[sc] for sc in ("cascade_mean", "cascade") if f[sc]]
    if cfs:
        c0 = cfs[0]
        out += [f"### Q10d. Cascades after one death (N = {c0['n']}, Zipf "
                f"s = {c0['zipf']:g})", "",
                "Every server has a capacity in requests per time bucket; "
                "the last server dies; at the end of each later bucket "
                "every server above its capacity fails and is dropped. Two "
                "sizings of the capacity from the steady state before the "
                "death (utilization u): `cascade_mean` gives every "
                "algorithm the **same servers**, capacity = the mean load "
                "per server / u (the same hardware and traffic: the fair "
                "comparison); `cascade` sizes each algorithm's servers for "
                "**its own busiest server** (capacity = that server's load "
                "/ u = (steady max/mean) / u × the mean load, so a less "
                "balanced variant gets more capacity per server at the "
                "same u). Cells: servers failed after the first death, "
                + c0["reps"] + "; \"; max m\" = the largest over the seeds; "
                "a single number = every seed"
                + ("; \"k over before\" = servers whose steady-state load "
                   "was already above the capacity before the death "
                   "(`overloaded_before_event`, mean over the seeds; they "
                   "fail at the first check and are among the failures)"
                   if any(c["any_over"] for c in cfs) else "")
                + ". \"no failure up to u\" = the highest u up to which no "
                "seed had a failure (every lower u included). This measures "
                "the seed articles' cascade: a dead server's load falls on "
                "its successors, which may fail in turn; bounded loads cap "
                "each server. " + cite, ""]
        for cf in cfs:
            sc = cf["scenario"]
            head = f"**{sc}** ({cf['what']}"
            if sc == "cascade_mean":
                head += ("; a server is overloaded before the death when "
                         "its steady max/mean exceeds 1/u")
            out += [head + "):", "", _cascade_table(cf), "",
                    " ".join(_cascade_prose(cf)), ""]
        for sc in ("cascade_mean", "cascade"):
            for o in f[sc + "_other"]:
                out += [f"**{sc}** at N = {fmt_num(o['n'])} ({o['reps']}):",
                        "", _cascade_table(o), "",
                        " ".join(_cascade_prose(o)), ""]
    # e
    rf = f["real"]
    if rf:
        t1, t2 = _real_tables(rf)
        ok = [r for r in rf if r["ok"]]
        bad = [r for r in rf if r["ok"] is False]
        nn = sorted({r["n"] for r in rf})
        n_txt = ("one run per cell (n = 1; real-cluster numbers vary run "
                 "to run)" if nn == [1] else
                 f"means over {join_names(str(x) for x in nn)} runs")
        c0 = rf[0]["cfg"]
        out += ["### Q10e. Real memcached against the simulation", "",
                f"The same configuration (N = {fmt_num(c0['nodes'])}, "
                f"{fmt_num(c0['keys'])} keys, Zipf s = {c0['zipf']:g}, "
                f"{fmt_num(c0['requests'])} requests, no eviction) run on "
                "memcached servers on 127.0.0.1 and simulated (mode sim, "
                "cache_items = 0); real: " + n_txt + ". Tolerances of the "
                f"real-cluster test (bench/cluster/real_cluster_test.cc): "
                f"hit ratios within {HIT_TOL:g} absolute, extra reads "
                f"within {EXTRA_REL_TOL * 100:g} % of the simulated value "
                f"+ {EXTRA_ABS_TOL} reads (two client threads can both "
                "miss one key). " + cite, "", t1, "",
                f"Within tolerance: {len(ok)} of {len(rf)} configurations"
                + ("; outside: " + join_names(
                    f"{_real_label(r['cfg'])} {r['cfg']['scenario']}"
                    for r in bad) if bad else "") + ".", "",
                "The real cluster's client latency (GET, and on a miss the "
                "database read and the SET), median over the run's "
                "buckets, and the request rate achieved (bucket requests / "
                "median bucket wall time); " + n_txt + ":", "", t2, ""]
    fig = _figure_link(ctx, FIGURE_STEMS)
    if fig:
        out += [fig, ""]
    return "\n".join(out)


# ---------------------------------------------------------------------------
# decision guide


def guide_items(ctx):
    """Decision-guide entries from the cluster data only: hot keys
    (Q10b), cascades (Q10d: cascade_mean, equal servers, first; then the
    peak-sized cascade) and the stampede on a join (Q10a)."""
    f = findings(ctx)
    if f is None:
        return []
    out = []
    link = ctx.csv_link(EXP)
    hf = f["hot"]
    if hf and hf["free_range"]:
        (_, llo, rlo), (_, lhi, rhi) = hf["free_range"]
        txt = (f"If a few keys dominate requests (Zipf s = {hf['z']:g}, "
               f"N = {hf['n']}), no key-placement algorithm balances the "
               "requests: the busiest server serves "
               + (f"{fmtm(rlo, 'x')} ({llo}) to {fmtm(rhi, 'x')} ({lhi})"
                  if llo != lhi else f"{fmtm(rlo, 'x')} ({llo})")
               + " the mean (measured)")
        parts = []
        for b in hf["bounded"]:
            p = (f"**{b['label']}** caps it at {fmtm(b['row'], 'x')} "
                 + ("(within its bound)" if b["ok"] else
                    "(**above** its bound)"))
            if b.get("ref") and not math.isnan(b.get("hit_cost", math.nan)):
                p += (f" at a steady hit ratio {_signed(-b['hit_cost'] * 100, 2)}"
                      f" points against {b['ref'][0]} (≈ "
                      f"{fmt_num(abs(b['hit_cost']) * 1e5)} "
                      + ("extra" if b["hit_cost"] > 0 else "fewer")
                      + " database reads per 100,000 requests; "
                      + sep_text(b["hit_cost_separate"]) + ")")
            parts.append(p)
        if parts:
            txt += "; " + "; ".join(parts)
        out.append(("cluster_hot_keys", txt + " (Q10b; " +
                    hf["reps"] + "). " + link))
    cm, cp = f["cascade_mean"], f["cascade"]
    txt = []
    if cm and cm["per"]:
        bs = bounded_sentence(cm, bold=True)
        if bs:
            txt.append(
                f"To avoid a cascade of overloads after one death (N = "
                f"{cm['n']}, Zipf s = {cm['zipf']:g}), on equal servers "
                "sized for the mean load (`cascade_mean`: the same hardware "
                "and traffic for every algorithm; u = the mean load / "
                "capacity before the death): " + bs)
            bv = bounded_vs_unbounded(cm)
            bb, bu = bv["best_bounded"], bv["best_unbounded"]
            if bb is not None and bu is not None and (
                    bu[0] is None or bb > bu[0]):
                txt.append(
                    "Bounded loads let equal servers run hotter without a "
                    f"cascade: up to u = {bb:g}, against "
                    + (f"{bu[0]:g} for the best unbounded variants ("
                       + join_names(bu[1]) + ")" if bu[0] is not None
                       else f"a failure at u = {cm['us'][0]:g} for every "
                       "unbounded variant"))
    if cp and cp["per"]:
        groups = safe_groups(cp)
        if groups:
            parts = []
            for u, names in groups:
                names = join_names(names)
                parts.append(f"{names} up to u = {u:g}" if u is not None
                             else f"{names} not even at u = "
                             f"{cp['us'][0]:g}")
            txt.append(
                ("With" if txt else f"Cascades after one death (N = "
                 f"{cp['n']}, Zipf s = {cp['zipf']:g}): with")
                + " servers sized for each algorithm's own busiest "
                "server instead (`cascade`: a less balanced algorithm gets "
                "more capacity; u = the busiest server's load / capacity), "
                "no server failed in any seed for " + "; ".join(parts))
    if txt:
        out.append(("cluster_cascade", ". ".join(txt) + " (Q10d). "
                    + link))
    sf = f["stampede"]
    if sf:
        parts = []
        for sc in ("add", "remove"):
            g = sf["scenarios"].get(sc)
            if not g or not g["best"]:
                continue
            names = [g["best"][0]] + g["tied"]
            rest = [lbl for _, lbl, c in g["rows"]
                    if lbl not in names and lbl not in g["unranked"] and
                    not math.isnan(mean_of(c["extra_db_reads"]))]
            if g["tied"] and rest and len(rest) < len(names):
                p = (f"when {SCENARIO_WHAT[sc]}, every algorithm but "
                     + join_names(f"**{x}**" for x in rest)
                     + f" is tied with the fewest extra reads ({len(names)}"
                     " algorithms, intervals overlap)")
            elif g["tied"]:
                p = (f"when {SCENARIO_WHAT[sc]}, tied with the fewest extra "
                     "reads (intervals overlap): "
                     + join_names(f"**{x}**" for x in names))
            elif mean_interval(g["best"][1]) is None:
                p = (f"when {SCENARIO_WHAT[sc]}, lowest extra reads: "
                     f"{names[0]} ({fmtm(g['best'][1])}; one seed, not "
                     "ranked)")
            else:
                p = (f"when {SCENARIO_WHAT[sc]}, fewest extra reads: "
                     f"**{names[0]}** ({fmtm(g['best'][1])}), intervals "
                     "separate from the others")
            mr = g["modulo_vs_ring"]
            if mr:
                if mr["ratio"] is not None:
                    p += (f"; modulo {mr['ratio']:.3g}× "
                          f"{mr['ring_label']}'s")
                else:
                    p += (f"; modulo {_signed(mr['diff'])} reads against "
                          f"{mr['ring_label']}")
            parts.append(p)
        if parts:
            out.append(("cluster_stampede",
                        f"Cache stampede at N = {sf['n']} (Q10a; extra "
                        "database reads against a control run): "
                        + "; ".join(parts) + ". " + link))
    return out


# ---------------------------------------------------------------------------
# README block (make_report.py --readme)

README_BEGIN = "<!-- cluster:begin -->"
README_END = "<!-- cluster:end -->"


def _loose_match(var, cands):
    """The candidate variant (dict) equal to var, else the only one of the
    same algorithm whose parameters agree wherever both have one; None."""
    k = var_key(var)
    for c in cands:
        if var_key(c) == k:
            return c
    ok = []
    for c in cands:
        ck = var_key(c)
        if ck[0] != k[0]:
            continue
        if all(x is None or y is None or x == y
               for x, y in zip(k[1:], ck[1:])):
            ok.append(c)
    return ok[0] if len(ok) == 1 else None


def readme_rows(f):
    """[(label, extra, predicted, max/mean, safe text, [notes])]: one row
    per algorithm of the stampede block (add), plus variants measured in
    both the hot-key and the cascade_mean blocks but not in the stampede
    block; notes name a cell taken from a variant with other parameters."""
    sf, hf, cm = f["stampede"], f["hot"], f["cascade_mean"]
    add = sf["scenarios"].get("add") if sf else None
    hot = {var_key(v): r for v, _, r in (hf["at"] if hf else [])}
    hot_vars = [v for v, _, _ in (hf["at"] if hf else [])]
    cmp_ = {var_key(p["var"]): p for p in (cm["per"] if cm else [])
            if p["measured"]}
    cm_vars = [p["var"] for p in (cm["per"] if cm else []) if p["measured"]]
    base = [(v, c) for v, _, c in (add["rows"] if add else [])]
    used = set()
    for v, _ in base:
        for m in (_loose_match(v, hot_vars), _loose_match(v, cm_vars)):
            if m is not None:
                used.add(var_key(m))
    extra = [v for v in hot_vars if var_key(v) in cmp_ and
             var_key(v) not in used]
    allv = [v for v, _ in base] + extra
    lab = labels(allv)
    out = []
    for v in allv:
        c = next((c for b, c in base if var_key(b) == var_key(v)), None)
        notes = []
        hv = _loose_match(v, hot_vars)
        cv = _loose_match(v, cm_vars)
        cells = [fmtm(c["extra_db_reads"]) if c else "—",
                 fmtm(c["predicted_extra_db_reads"]) if c else "—"]
        if hv is not None:
            cells.append(fmtm(hot[var_key(hv)], "x"))
            if var_key(hv) != var_key(v):
                cells[-1] += " †"
                notes.append(labels(hot_vars)[var_key(hv)])
        else:
            cells.append("—")
        if cv is not None:
            p = cmp_[var_key(cv)]
            cells.append(_safe_text(p, cm["us"]))
            if var_key(cv) != var_key(v):
                cells[-1] += " †"
                notes.append(cm["labels"][var_key(cv)])
        else:
            cells.append("—")
        out.append((lab[var_key(v)], *cells, notes))
    return out


def readme_block(ctx, readme_path, report_path):
    """The README's cluster block (between README_BEGIN and README_END), or
    None without cluster results."""
    f = findings(ctx)
    if f is None or not (f["stampede"] or f["hot"] or f["cascade_mean"]):
        return None
    e = ctx.exps[EXP]
    rdir = os.path.dirname(os.path.abspath(readme_path))
    rep = os.path.relpath(os.path.abspath(report_path), rdir).replace(
        os.sep, "/")
    sf, hf, cm, rf = f["stampede"], f["hot"], f["cascade_mean"], f["real"]
    ns = sorted({x["n"] for x in (sf, hf, cm) if x})
    rows = readme_rows(f)
    z = hf["z"] if hf else PREFERRED_ZIPF
    head = ["algorithm", "extra db reads on add", "predicted (moved × "
            "hot set)", f"request max/mean (steady, Zipf s = {z:g})",
            "cascade_mean: no failure up to u"]
    table = md_table(head, [list(r[:5]) for r in rows])
    notes = sorted({(r[0], n) for r in rows for n in r[5]})
    reps = (sf or hf or cm)["reps"]
    parts = []
    if sf:
        parts.append(f"stampede: a server joins, {fmt_num(sf['keys'])} "
                     f"keys, {fmt_num(sf['requests'])} requests, "
                     + ("no eviction" if not sf["cache"] else
                        f"LRU {fmt_num(sf['cache'])} keys per server")
                     + ", extra reads against a control run without the "
                     "join")
    if hf:
        parts.append(f"hot keys: {fmt_num(hf['requests'])} requests, "
                     "the busiest server's requests over the mean")
    if cm:
        parts.append("cascade_mean: the last server dies, equal servers "
                     "with capacity = the mean load / u, the highest u "
                     "without a failure in any seed (of u = "
                     + ", ".join(f"{u:g}" for u in cm["us"]) + ")")
    out = [README_BEGIN,
           "<!-- Generated by plots/make_report.py; do not edit by hand. -->",
           "", "Cache cluster, mode sim, N = "
           + ", ".join(str(n) for n in ns)
           + f" ({ctx.machine()}; {reps}; details in "
           f"[REPORT.md]({rep}) Q10): " + "; ".join(parts) + ".", "",
           table, ""]
    if notes:
        out += ["† measured with other parameters in that block: "
                + "; ".join(f"{a} → {b}" for a, b in notes) + ".", ""]
    txt = []
    if sf and sf["scenarios"].get("add") and \
            sf["scenarios"]["add"]["modulo_vs_ring"]:
        mr = sf["scenarios"]["add"]["modulo_vs_ring"]
        if mr["ratio"] is not None:
            txt.append(f"On a join modulo reads {mr['ratio']:.3g}× as much "
                       f"from the database as {mr['ring_label']} (ratio of "
                       f"the means; {sep_text(mr['separate'])}).")
    if cm:
        bs = bounded_sentence(cm)
        if bs:
            txt.append("Equal servers after one death: " + bs + ".")
    if rf:
        ok = [r for r in rf if r["ok"]]
        c0 = rf[0]["cfg"]
        txt.append(
            f"Real memcached on 127.0.0.1 against the simulation of the "
            f"same configuration ({fmt_num(c0['keys'])} keys, "
            f"{fmt_num(c0['requests'])} requests, no eviction): "
            f"{len(ok)} of {len(rf)} configurations within the tolerance "
            f"of bench/cluster/real_cluster_test.cc (hit ratios within "
            f"{HIT_TOL:g}, extra reads within {EXTRA_REL_TOL * 100:g} % + "
            f"{EXTRA_ABS_TOL}).")
    commit = str(chdata.meta_get(e.meta, "git_commit", "commit") or "?")[:12]
    txt.append(f"Run: cluster `{e.meta.get('run_id', '?')}` (commit "
               f"`{commit}`).")
    out += [" ".join(txt), README_END]
    return "\n".join(out)


__all__ = ["section", "guide_items", "findings", "within_tolerance",
           "stampede_block", "stampede_configs", "cfg_mask",
           "cascade_findings", "readme_block", "README_BEGIN", "README_END",
           "labels", "var_key", "per_run", "per_bucket"]

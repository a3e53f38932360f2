"""The chooser's data: for every N measured, the candidates (the variants
of the lookup experiment, prehashed or with string keys, default hash,
peers left out), what each can do and its measured numbers, and the tie
rule the report ranks by, so that the page (assets/chooser.js) can answer
any combination of requirements without a server.

Requirements and where each answer comes from:
  * remove any node, weights, replicas: registry.json capabilities
    (arbitrary_removal, weights, replicas);
  * add nodes: not `not applicable` on add in the disruption or build data
    (report.common.cannot_add: AnchorHash with a = N has no free bucket);
  * failure domains: the replicas experiment placed zone-aware replica
    sets on a zoned topology without a repeated domain
    (domain_violation_fraction 0 in every such row);
  * string keys: rank by the string-key lookup time (hash + lookup,
    scenario string) instead of the prehashed one;
  * memory budget per node: memory_bytes_per_node at N (memory
    experiment; the largest of the variant's rows) at most the budget;
  * lookup budget: the ranked lookup median at most the budget.

Ranking: by the lookup median at N, in tiers. The first tier is the best
and every candidate the report would not separate from it
(report.common.rank_paired with the decision guide's timing margin,
guide.TIMING_MARGIN: per-round ratios where two cells share the timing
rounds, Bonferroni over the k comparisons, else overlapping intervals);
the next tier is the same rule on the rest, and so on. Whether b separates
o depends on k only through the level 1 - 0.05/k, and a wider interval
separates less, so the page needs, for every ordered pair (b, o) with b
not slower, the largest k at which b separates o ("sep": 0 = never;
marginal comparisons do not depend on k)."""

import math

from report import capabilities as _caps  # noqa: F401  (report modules load)
from report.common import (PAIR_ON, _iv_or_value, cannot_add, comparable,
                           filt, paired, var_key, variant_label, variants)
from report.guide import TIMING_MARGIN

from charts import num_text, variant_text as key_text

SCENARIOS = ("prehashed", "string")
HASH = "xxh64"


def _isnan(v):
    return v is None or (isinstance(v, float) and math.isnan(v))


def separated(best, other, data, k, better="lower"):
    """rank_paired's decision for one comparison among k: True when
    `other` is separated from `best` (report.common.rank_paired, timing,
    margin TIMING_MARGIN)."""
    level = 1 - 0.05 / k if k > 1 else 0.95
    p = paired(data, best, other, PAIR_ON, level)
    if p is None:
        return not comparable(_iv_or_value(best, True),
                              _iv_or_value(other, True))
    if p["kind"] == "ratio":
        hi_null = 1.0 + TIMING_MARGIN
    else:
        hi_null = 0.0
    if p["lo"] is None:
        return p["est"] > hi_null
    return p["lo"] > hi_null


def sep_k(best, other, data, kmax):
    """The largest k in 1..kmax at which best separates other (0: at
    none); separation only shrinks as k grows (a wider interval)."""
    if not separated(best, other, data, 1):
        return 0
    lo, hi = 1, kmax
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if separated(best, other, data, mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def failure_domains(ctx):
    """Algorithms whose zone-aware replica sets on a zoned topology never
    repeat a failure domain (replicas experiment)."""
    e = ctx.exps.get("replicas")
    if e is None:
        return set()
    s = e.summary
    d = s[(s["metric"] == "domain_violation_fraction") &
          (s["scenario"] == "zone_aware") & (s["topology"] != "flat") &
          (s["topology"] != "") & s["median"].notna()]
    out = set()
    for a, g in d.groupby("algorithm"):
        if (g["max"].fillna(g["median"]) == 0).all():
            out.add(a)
    return out


def data(ctx, link, row_link):
    """The chooser's JSON: {scenarios: {scenario: {ns: [N], by_n: {N:
    [candidate]}}}, runs}. link(path): a CSV's link relative to the site;
    row_link(chart id, variant key, N): the link to that point's row in
    its figure's data table (or to the figure, None without it)."""
    lk = ctx.exps.get("lookup")
    out = dict(scenarios={}, runs={})
    if lk is None:
        return out
    peers = set(ctx.reg.peers)
    noadd = cannot_add(ctx)
    zones = failure_domains(ctx)
    mem = ctx.exps.get("memory")
    bal = ctx.exps.get("balance")
    dis = ctx.exps.get("disruption")
    for name, e in (("lookup", lk), ("memory", mem), ("balance", bal),
                    ("disruption", dis), ("replicas",
                                          ctx.exps.get("replicas"))):
        if e is not None:
            out["runs"][name] = dict(run=str(e.meta.get("run_id", "")),
                                     csv=link(e.summary_path))
    s = lk.summary
    s = s[(s["metric"] == "lookup_ns") & (s["hash"] == HASH) &
          ~s["algorithm"].isin(peers) & s["median"].notna() &
          s["threads"].isna()]
    if "removal" in s.columns:
        s = s[s["removal"] == ""]
    for sc in SCENARIOS:
        d = s[s["scenario"] == sc]
        by_n = {}
        for n in sorted(d["nodes"].dropna().unique()):
            dn = d[d["nodes"] == n]
            cands = []
            for var in variants(dn):
                row = filt(dn, **{c: (None if _isnan(v) else v)
                                  for c, v in var.items()})
                if row.empty:
                    continue
                r = row.iloc[0].to_dict()
                a = var["algorithm"]
                cands.append(dict(
                    key=key_text(r), label=variant_label(r), algorithm=a,
                    row=r, caps=dict(
                        removal=bool(ctx.reg.capability(
                            a, "arbitrary_removal")),
                        add=var_key(r) not in noadd,
                        weights=bool(ctx.reg.capability(a, "weights")),
                        replicas=bool(ctx.reg.capability(a, "replicas")),
                        domains=a in zones)))
            # Sort as rank_paired sorts (stable, by median), so the page
            # and the report meet candidates in the same order.
            cands.sort(key=lambda c: float(c["row"]["median"]))
            kmax = max(1, len(cands) - 1)
            for i, c in enumerate(cands):
                c["sep"] = [sep_k(c["row"], o["row"], lk.data, kmax)
                            if j > i else None
                            for j, o in enumerate(cands)]
            for c in cands:
                r = c.pop("row")
                c["lookup"] = dict(
                    median=float(r["median"]),
                    lo=None if _isnan(r["median_ci_low"]) else
                    float(r["median_ci_low"]),
                    hi=None if _isnan(r["median_ci_high"]) else
                    float(r["median_ci_high"]),
                    n=int(r["n"]), noisy=int(r["noisy"] or 0) == 1)
                c["memory"] = _per_node(mem, r, n)
                c["balance"] = _other(bal, r, n, "load_max_over_mean",
                                      scenario="measured",
                                      keyset="uniform", hash=HASH)
                c["moved"] = _other(dis, r, n, "moved_fraction",
                                    scenario="remove_random")
                c["links"] = dict(
                    lookup=row_link("lookup_" + sc, c["key"], n),
                    memory=row_link("memory_per_node", c["key"], n),
                    balance=row_link("balance_uniform", c["key"], n),
                    moved=row_link("moved_remove", c["key"], n))
            by_n[num_text(n)] = cands
        if by_n:
            out["scenarios"][sc] = dict(ns=list(by_n), by_n=by_n)
    return out


def _variant_rows(e, r, n, metric, **f):
    if e is None:
        return None
    s = e.summary
    d = s[(s["metric"] == metric) & (s["nodes"] == n) &
          (s["algorithm"] == r["algorithm"]) & s["median"].notna()]
    for c, v in f.items():
        if c in d.columns:
            d = d[d[c] == v]
    k = var_key(r)[1:]
    keep = [i for i, x in d.iterrows() if var_key(x.to_dict())[1:] == k]
    return d.loc[keep]


def _per_node(e, r, n):
    d = _variant_rows(e, r, n, "memory_bytes_per_node")
    if d is None or d.empty:
        return None
    return dict(median=float(d["median"].max()))


def _other(e, r, n, metric, **f):
    d = _variant_rows(e, r, n, metric, **f)
    if d is None or d.empty:
        return None
    x = d.iloc[0]
    return dict(median=float(x["median"]), n=int(x["n"]),
                lo=None if _isnan(x["median_ci_low"]) else
                float(x["median_ci_low"]),
                hi=None if _isnan(x["median_ci_high"]) else
                float(x["median_ci_high"]))

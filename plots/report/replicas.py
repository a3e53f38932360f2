"""Replica placement (experiment `replicas`, experiments/replicas.toml).

Each key gets a replica set of r nodes (its preference list). Rows: the
algorithms ring, rendezvous, choosek and crush; N nodes in failure domains
(`topology`: flat, zones3, zones3_uneven, racks_hosts); r = `replicas`;
scenario zone_aware (the placement spreads a set over the domains) or
zone_blind (it ignores them: ring and rendezvous on zones3 at r = 3);
key-set seeds as repetitions.

What the section shows, every number a median over the seeds of one run
(cells "(n=k)": too few seeds for a 95 % interval, min–max used to
compare):
  * at the headline configuration (HEAD: N = 100, r = 3, zones3,
    zone_aware; the nearest measured N and r when those are missing) three
    tables per algorithm: balance and domains; churn and recovery; losses
    and hinted handoff; the zone_blind rows below the zone_aware ones, as
    what ignoring the domains costs;
  * sets changed on a join (failure): 1 − join_sets_changed_0 (1 −
    failure_sets_changed_0), computed per seed (derived rows summarized as
    summary.csv is, chdata.summarize);
  * how the ranking changes: at every measured (N, r, topology), zone
    aware, the best and those tied with it (common.rank_paired: paired
    by seed, Bonferroni over the comparisons of one ranking) for the sets
    changed on a join, the scatter width, the loss probability at f = 3
    and the replica max/mean; and for each, whether the headline's
    winners stay best or tied everywhere or where they do not;
  * empty values (`not applicable`, flat topology) print as "n/a: <the
    note's reason>"; a sampled loss probability is marked (the note).

Decision-guide items (guide_items): the most stable replica sets on a
join and on a failure, the widest recovery (scatter width, recovery max
share), the least loss when a whole zone fails and at f = 3 random
failures: each at the headline configuration among the zone_aware
placements, and whether it holds at every measured N and r of the zoned
topologies (every topology but flat: zoned()), or where it changes.
"""

import math

import pandas as pd

import chdata
from report.common import (filt, fmt_med, fmt_num, join_names, one,
                           pick_n, rank_paired, render, variant_label,
                           variants, var_filter)
from report.questions import q

EXP = "replicas"
HEAD = dict(nodes=100, replicas=3, topology="zones3")
AWARE, BLIND = "zone_aware", "zone_blind"
# The zoned topologies in the order they are shown; any other topology
# but FLAT in the data counts as zoned too (zoned()).
ZONED = ("zones3", "zones3_uneven", "racks_hosts")
FLAT = "flat"
LOSS_F = (2, 3, 4, 5)
GUIDE_LOSS_F = 3
# Derived per seed: keys whose replica set changes at all.
DERIVED = {"join_sets_changed": "join_sets_changed_0",
           "failure_sets_changed": "failure_sets_changed_0"}
# The direction of every metric ranked here (the registry may name the
# loss probabilities by a pattern, and the derived metrics are not in it).
BETTER = {"join_sets_changed": "lower", "failure_sets_changed": "lower",
          "join_moved_over_optimum": "lower",
          "failure_moved_over_optimum": "lower",
          "scatter_width_mean": "higher", "scatter_width_min": "higher",
          "recovery_max_share": "lower", "zone_loss_fraction": "lower",
          "replica_load_max_over_mean": "lower",
          "primary_load_max_over_mean": "lower",
          "domain_violation_fraction": "lower",
          "handoff_max_share": "lower", "handoff_nodes": "higher"}
for _f in LOSS_F:
    BETTER[f"loss_probability_f{_f}"] = "lower"
# The rankings of the "how the ranking changes" table: (metric, column).
RANKINGS = (("join_sets_changed", "fewest sets changed on a join"),
            ("scatter_width_mean", "widest scatter"),
            (f"loss_probability_f{GUIDE_LOSS_F}",
             f"least loss at f = {GUIDE_LOSS_F}"),
            ("replica_load_max_over_mean", "most even copies"))
SAMPLED = "sampled"


# ---------------------------------------------------------------------------
# data


def view(e):
    """(summary, data) of a replicas run with the derived rows (DERIVED:
    1 − the unchanged fraction, per seed) added; cached on the run."""
    hit = getattr(e, "_replicas_view", None)
    if hit is not None:
        return hit
    data, extra = e.data, []
    for new, src in DERIVED.items():
        d = data[(data["metric"] == src) & data["value"].notna()].copy()
        if d.empty:
            continue
        d["value"] = 1.0 - d["value"]
        d["metric"] = new
        d["note"] = ""
        extra.append(d)
    if extra:
        dd = pd.concat([data] + extra, ignore_index=True)
        ss = pd.concat([e.summary, chdata.summarize(
            pd.concat(extra, ignore_index=True))], ignore_index=True)
    else:
        dd, ss = data, e.summary
    e._replicas_view = (ss, dd)
    return e._replicas_view


def head_config(s):
    """The headline configuration in the data: HEAD, or the nearest
    measured N and r, and zones3 or the first zoned topology; None when
    the run has no zone_aware rows."""
    a = s[s["scenario"] == AWARE]
    if a.empty:
        return None
    topo = HEAD["topology"]
    if topo not in set(a["topology"]):
        zs = zoned(a)
        topo = zs[0] if zs else sorted(set(a["topology"]))[0]
    a = a[a["topology"] == topo]
    n = pick_n(a["nodes"], HEAD["nodes"])
    r = pick_n(a[a["nodes"] == n]["replicas"], HEAD["replicas"])
    return dict(nodes=float(n), replicas=float(r), topology=topo)


def zoned(s):
    """The topologies of the data with failure domains: all but FLAT,
    those of ZONED first."""
    have = set(s["topology"]) - {FLAT, ""}
    return tuple([t for t in ZONED if t in have] +
                 sorted(have - set(ZONED)))


def configs(s, topologies=None):
    """The measured (N, r, topology) of the zone_aware rows, sorted."""
    a = s[s["scenario"] == AWARE]
    if topologies is not None:
        a = a[a["topology"].isin(topologies)]
    c = a[["nodes", "replicas", "topology"]].drop_duplicates()
    out = [dict(nodes=float(x.nodes), replicas=float(x.replicas),
                topology=x.topology) for x in c.itertuples()]
    order = {t: i for i, t in enumerate((FLAT,) + ZONED)}
    return sorted(out, key=lambda c: (order.get(c["topology"], 99),
                                      c["topology"], c["nodes"],
                                      c["replicas"]))


def cfg_text(c):
    return (f"N={fmt_num(c['nodes'])}, r={c['replicas']:g}, "
            f"{c['topology']}")


def cfgs_text(cs):
    """Configurations, compactly: per N, 'N=1,000 (r = 2, 3; zones3,
    racks_hosts)' when they are every pair of those r and topologies,
    else each one."""
    out = []
    for n in sorted({c["nodes"] for c in cs}):
        at = [c for c in cs if c["nodes"] == n]
        rs = sorted({c["replicas"] for c in at})
        ts = list(dict.fromkeys(c["topology"] for c in at))
        if len(at) == len(rs) * len(ts):
            out.append(f"N={fmt_num(n)} (r = "
                       + ", ".join(f"{r:g}" for r in rs) + "; "
                       + ", ".join(ts) + ")")
        else:
            out.append(", ".join(f"N={fmt_num(n)} r={c['replicas']:g} "
                                 f"{c['topology']}" for c in at))
    return "; ".join(out)


def rows_at(s, metric, cfg, scenario=AWARE):
    """Summary rows (dicts) of one metric at a configuration."""
    d = filt(s, metric=metric, scenario=scenario, nodes=cfg["nodes"],
             replicas=cfg["replicas"], topology=cfg["topology"])
    return [r.to_dict() for _, r in d.iterrows()
            if not pd.isna(r["median"])]


def rank_at(s, data, metric, cfg):
    """(best, tied, info) of the zone_aware rows of a metric at a
    configuration (common.rank_paired, paired by seed)."""
    return rank_paired(rows_at(s, metric, cfg), data, BETTER[metric],
                       timing=False)


def winners(s, data, metric, cfg):
    """The labels of the best and of those tied with it (sorted in the
    report's algorithm order), or [] without rows."""
    best, tied, _ = rank_at(s, data, metric, cfg)
    if best is None:
        return []
    return [variant_label(r) for r in [best] + tied]


def stability(s, data, metric, head_winners, topologies=None):
    """The configurations (of `topologies`, default: the zoned ones; zone
    aware) where a headline winner is not best or tied: [(config, winners
    there)]; and the number of configurations compared."""
    out, cs = [], configs(s, topologies or zoned(s))
    for c in cs:
        w = winners(s, data, metric, c)
        if w and not set(head_winners) <= set(w):
            out.append((c, w))
    return out, len(cs)


def all_zero(s, metric, topologies=None):
    """The zoned configurations (zone aware) where every placement's value
    is 0 in every seed (e.g. a loss at f < r failures)."""
    out = []
    for c in configs(s, topologies or zoned(s)):
        rows = rows_at(s, metric, c)
        if rows and all(float(r["max"]) == 0 for r in rows):
            out.append(c)
    return out


def changes_text(changes, total, head_winners):
    """'… best or tied at every one of the k measured configurations' or
    'not at: <configs grouped by who wins there>'."""
    who = join_names(head_winners)
    verb = "is" if len(head_winners) == 1 else "are"
    if not changes:
        return (f"{who} {verb} best or tied at every one of the {total} "
                "measured zoned configurations (N, r, topology)")
    groups = {}
    for c, w in changes:
        groups.setdefault(" = ".join(w), []).append(c)
    return (f"{who} {verb} not best or tied at {len(changes)} of {total} "
            "zoned configurations: " + "; ".join(
                f"best there {k} at {cfgs_text(v)}"
                for k, v in groups.items()))


def note_of(data, metric, cfg, var, scenario):
    """The first non-empty note of a cell's data rows."""
    d = filt(data, metric=metric, scenario=scenario, nodes=cfg["nodes"],
             replicas=cfg["replicas"], topology=cfg["topology"],
             **var_filter(var))
    if d is None or d.empty:
        return ""
    notes = [x for x in d["note"].tolist() if isinstance(x, str) and x]
    return notes[0] if notes else ""


def cell(s, data, metric, cfg, var, scenario, kind="num"):
    """The formatted cell: median (n=k) or its interval; "n/a: <reason>"
    for an empty `not applicable` value; a sampled value marked "(s)"."""
    row = one(filt(s, metric=metric, scenario=scenario, nodes=cfg["nodes"],
                   replicas=cfg["replicas"], topology=cfg["topology"],
                   **var_filter(var)))
    note = note_of(data, metric, cfg, var, scenario)
    if row is None or pd.isna(row.get("median")):
        if note.lower().startswith("not applicable"):
            return "n/a: " + note[len("not applicable:"):].strip()
        return "—"
    out = fmt_med(row, kind, False)
    if note.startswith(SAMPLED):
        out += " (s)"
    return out


def table_rows(s, data, cfg, cols):
    """Rows of one headline table: zone_aware variants, then zone_blind."""
    out = []
    for sc in (AWARE, BLIND):
        d = filt(s, scenario=sc, nodes=cfg["nodes"],
                 replicas=cfg["replicas"], topology=cfg["topology"])
        for var in variants(d):
            out.append([variant_label(var), sc] +
                       [cell(s, data, m, cfg, var, sc, k)
                        for m, _, k in cols])
    return out


TABLE_BALANCE = (
    ("replica_load_max_over_mean", "replica max/mean", "x"),
    ("replica_load_min_over_mean", "replica min/mean", "x"),
    ("primary_load_max_over_mean", "primary max/mean", "x"),
    ("domain_violation_fraction", "domain violations", "pct"),
    ("prefix_violation_fraction", "prefix violations", "pct"),
)
TABLE_CHURN = (
    ("join_sets_changed", "sets changed on a join", "pct"),
    ("join_sets_changed_2plus", "of which ≥ 2 members", "pct"),
    ("join_moved_over_optimum", "join moved / optimum", "x"),
    ("failure_sets_changed", "sets changed on a failure", "pct"),
    ("failure_moved_over_optimum", "failure moved / optimum", "x"),
    ("scatter_width_mean", "scatter width (nodes)", "num"),
    ("scatter_width_min", "scatter width min", "num"),
    ("recovery_max_share", "recovery max share", "pct"),
)
TABLE_LOSS = tuple((f"loss_probability_f{f}", f"P(loss) f={f}", "sci")
                   for f in LOSS_F) + (
    ("copysets_used", "copysets used", "num"),
    ("zone_loss_fraction", "zone loss", "pct"),
    ("handoff_nodes", "handoff nodes", "num"),
    ("handoff_max_share", "handoff max share", "pct"),
)


TABLE_FLAT = (
    ("replica_load_max_over_mean", "replica max/mean", "x"),
    ("join_sets_changed", "sets changed on a join", "pct"),
    ("join_moved_over_optimum", "join moved / optimum", "x"),
    ("scatter_width_mean", "scatter width (nodes)", "num"),
    ("copysets_used", "copysets used", "num"),
    ("loss_probability_f3", "P(loss) f=3", "sci"),
    ("handoff_nodes", "handoff nodes", "num"),
)


def _blind_cost(s, data, cfg):
    """'what ignoring the domains costs' sentence at cfg (zone_blind rows
    against the same algorithm's zone_aware rows)."""
    b = filt(s, scenario=BLIND, nodes=cfg["nodes"],
             replicas=cfg["replicas"], topology=cfg["topology"])
    parts = []
    for var in variants(b):
        lab = variant_label(var)
        bits = []
        for m, what in (("domain_violation_fraction",
                         "keys with a repeated domain"),
                        ("zone_loss_fraction",
                         "keys lost with the worst whole zone")):
            rb = one(filt(b, metric=m, **var_filter(var)))
            ra = one(filt(s, metric=m, scenario=AWARE, nodes=cfg["nodes"],
                          replicas=cfg["replicas"],
                          topology=cfg["topology"], **var_filter(var)))
            if rb is None or pd.isna(rb.get("median")):
                continue
            bits.append(f"{fmt_med(rb, 'pct', False)} {what}"
                        + (f" (zone aware: {fmt_med(ra, 'pct', False)})"
                           if ra is not None else ""))
        if bits:
            parts.append(f"{lab}: " + ", ".join(bits))
    if not parts:
        return ""
    return ("Ignoring the domains (zone_blind, " + cfg_text(cfg) + "): "
            + "; ".join(parts) + ".")


def _sampled_text(data):
    """' (s) = sampled …' with the run's notes of its sampled cells, or ''
    when every value is exact."""
    notes = sorted({x for x in data["note"].tolist()
                    if isinstance(x, str) and x.startswith(SAMPLED)})
    if not notes:
        return ""
    return (" (s) = sampled, not exact (the run's note: "
            + "; ".join(notes) + ").")


def _na_lines(data):
    """One line per distinct `not applicable` reason: where it applies."""
    na = data[data["value"].isna() &
              data["note"].str.lower().str.startswith("not applicable")]
    out = []
    for (m, note), g in na.groupby(["metric", "note"]):
        topo = join_names(sorted(set(g["topology"])))
        out.append(f"`{m}` n/a on {topo}: "
                   + note[len("not applicable:"):].strip())
    return out


def _prefix_line(s):
    d = s[s["metric"] == "prefix_violation_fraction"]
    if d.empty:
        return ""
    worst = d["max"].max()
    if worst == 0:
        return ("Prefix property (the first r of a key's r + 1 replicas are "
                "its r replicas): 0 violations in every cell and seed.")
    r = d.loc[d["max"].idxmax()].to_dict()
    return ("Prefix property **violated**: up to "
            f"{100 * worst:.3g} % of keys ({variant_label(r)}, "
            f"{cfg_text(r)}, {r['scenario']}).")


def _ranking_rows(s, data):
    """[config text, winners per RANKINGS metric] at every zone_aware
    configuration."""
    out = []
    for c in configs(s):
        row = [cfg_text(c)]
        for m, _ in RANKINGS:
            w = winners(s, data, m, c)
            if not w:
                note = ""
                d = filt(data, metric=m, scenario=AWARE, nodes=c["nodes"],
                         replicas=c["replicas"], topology=c["topology"])
                if d is not None and not d.empty:
                    n = str(d["note"].iloc[0])
                    if n.lower().startswith("not applicable"):
                        note = "n/a: " + n[len("not applicable:"):].strip()
                row.append(note or "—")
            else:
                row.append(" = ".join(w))
        out.append(row)
    return out


def section(ctx):
    out = [f"## {q('replicas')}. Replicas: which placement keeps replica "
           "sets stable, spreads recovery, and loses least data?", ""]
    e = ctx.exps.get(EXP)
    if e is None:
        return "\n".join(out + [f"_No `{EXP}` results yet._", ""])
    s, data = view(e)
    cfg = head_config(s)
    if cfg is None:
        return "\n".join(out + ["_No zone-aware rows in the `replicas` "
                                "run._", ""])
    seeds = sorted(set(data["seed"].dropna()))
    out += ["Each key is placed on a replica set of r nodes; the nodes sit "
            "in failure domains (`flat`: none; `zones3`: three equal zones; "
            "`zones3_uneven`: three unequal zones; `racks_hosts`: racks of "
            "hosts). `zone_aware`: the placement spreads a set over the "
            "domains; `zone_blind`: it ignores them. Tables at "
            f"{cfg_text(cfg)}, zone_aware, {fmt_num(e.data['keys'].max())} "
            f"keys; every cell is the median over {len(seeds)} key-set "
            "seeds (\"(n=k)\": too few seeds for a 95 % interval; their "
            "min–max is what rankings compare). Sets changed = 1 − the "
            "fraction whose set is unchanged, per seed; the minimum is "
            "r/(N+1) on a join and r/N on a failure. Scatter width: the "
            "distinct other nodes sharing a set with a node (how many "
            "nodes a recovery reads from); recovery max share: the largest "
            "share of the re-created copies on one node. P(loss) f: the "
            "probability that f random simultaneous failures lose at least "
            "one key; zone loss: the keys whose copies all sit in one "
            "top-level domain (max over domains: what losing a whole zone "
            "or rack loses)." + _sampled_text(data), ""]
    blocks = (("Balance and domains", TABLE_BALANCE),
              ("Churn and recovery", TABLE_CHURN),
              ("Losses and hinted handoff", TABLE_LOSS))
    for title, cols in blocks:
        out += [f"{title}, {cfg_text(cfg)}:", "",
                render(ctx, ["algorithm", "placement"] +
                       [c for _, c, _ in cols] + ["data"],
                       [r + [ctx.csv_link(EXP)]
                        for r in table_rows(s, data, cfg, cols)]), ""]
    flat = dict(cfg, topology=FLAT)
    if not filt(s, scenario=AWARE, nodes=flat["nodes"],
                replicas=flat["replicas"], topology=FLAT).empty:
        out += ["Flat (no failure domains), the algorithms beside the "
                "production presets' own lists (cassandra: SimpleStrategy "
                "on even tokens; npm_hashring, uhashring, uhashring_ketama: "
                f"range(key, r, unique)), {cfg_text(flat)}:", "",
                render(ctx, ["algorithm", "placement"] +
                       [c for _, c, _ in TABLE_FLAT] + ["data"],
                       [r + [ctx.csv_link(EXP)]
                        for r in table_rows(s, data, flat, TABLE_FLAT)]), ""]
    bc = _blind_cost(s, data, cfg)
    if bc:
        out += [bc, ""]
    lines = [x for x in [_prefix_line(s)] + _na_lines(data) if x]
    if lines:
        out += ["- " + x for x in lines] + [""]
    # how the ranking changes
    heads = []
    for m, what in RANKINGS:
        w = winners(s, data, m, cfg)
        if not w:
            continue
        ch, tot = stability(s, data, m, w)
        heads.append(f"{what} ({m}) at {cfg_text(cfg)}: "
                     f"{' = '.join(w)}; {changes_text(ch, tot, w)}")
    if heads:
        out += ["### How the ranking changes with N, r and topology", "",
                "The best and those tied with it (\"a = b\"), zone_aware, "
                "by comparisons paired by seed (the per-seed ratio to the "
                "best and its paired t interval; Bonferroni over the "
                "comparisons of one ranking: 95 % for the ranking as a "
                "whole). At the tables' configuration, and whether that "
                "holds in the zoned topologies (" + join_names(zoned(s))
                + ") at every measured N and r:", ""]
        out += ["- " + h + "." for h in heads] + [""]
        out += ["Per configuration (every topology, zone_aware):", "",
                render(ctx, ["configuration"] + [w for _, w in RANKINGS],
                       _ranking_rows(s, data)), ""]
    out.append(ctx.csv_link(EXP))
    out.append("")
    return "\n".join(out)


# ---------------------------------------------------------------------------
# decision guide


def _ranked_item(ctx, ranked, s, data, metric, cfg, kind, unit=""):
    rows = rows_at(s, metric, cfg)
    txt, who = ranked(ctx, rows, metric, kind, unit=unit, data=data,
                      better=BETTER[metric])
    if not txt:
        return None, None
    w = [variant_label(r) for r in who]
    ch, tot = stability(s, data, metric, w)
    return txt, changes_text(ch, tot, w)


def guide_items(ctx, ranked):
    """Decision-guide entries for stores with replicas (see the module
    comment); ranked: guide.ranked."""
    e = ctx.exps.get(EXP)
    if e is None:
        return []
    s, data = view(e)
    cfg = head_config(s)
    if cfg is None:
        return []
    at = f"{cfg_text(cfg)}, zone_aware"
    link = " " + ctx.csv_link(EXP)
    out = []
    parts = []
    for m, what in (("join_sets_changed", "on a join"),
                    ("failure_sets_changed", "on a failure")):
        txt, ch = _ranked_item(ctx, ranked, s, data, m, cfg, "pct")
        if txt:
            parts.append(f"{what} (keys whose set changes): {txt}; {ch}")
    if parts:
        out.append(("replicas_stability",
                    f"Most stable replica sets ({at}): "
                    + "; ".join(parts) + "." + link))
    parts = []
    for m, what, kind in (("scatter_width_mean", "widest scatter (nodes a "
                           "recovery reads from)", "num"),
                          ("recovery_max_share", "smallest recovery max "
                           "share (re-created copies on one node)", "pct")):
        txt, ch = _ranked_item(ctx, ranked, s, data, m, cfg, kind)
        if txt:
            parts.append(f"{what}: {txt}; {ch}")
    if parts:
        out.append(("replicas_recovery",
                    f"Widest recovery ({at}): " + "; ".join(parts) + "."
                    + link))
    parts = []
    zl = rows_at(s, "zone_loss_fraction", cfg)
    if zl:
        allzero = all(float(r["max"]) == 0 for r in zl)
        zc = configs(s, zoned(s))
        zero_every = all(float(r["max"]) == 0 for c in zc
                         for r in rows_at(s, "zone_loss_fraction", c))
        if allzero:
            txt = ("a tie: every zone-aware placement ("
                   + join_names(variant_label(r) for r in zl)
                   + ") loses 0 keys in every seed"
                   + (" and at every measured N, r and zoned topology"
                      if zero_every else ""))
        else:
            t, _ = ranked(ctx, zl, "zone_loss_fraction", "pct", data=data,
                          better="lower")
            txt = t
        if not zero_every:
            bad = sorted({f"{variant_label(r)} at {cfg_text(c)}"
                          for c in zc
                          for r in rows_at(s, "zone_loss_fraction", c)
                          if float(r["max"]) > 0})
            txt += "; keys lost with a zone, zone aware: " + ", ".join(bad)
        blind = rows_at(s, "zone_loss_fraction", cfg, BLIND)
        if blind:
            txt += ("; ignoring the domains (zone_blind) loses "
                    + join_names(f"{variant_label(r)} "
                                 f"{fmt_med(r, 'pct', False)}"
                                 for r in blind))
        parts.append("when a whole zone fails: " + txt)
    m = f"loss_probability_f{GUIDE_LOSS_F}"
    txt, ch = _ranked_item(ctx, ranked, s, data, m, cfg, "sci")
    if txt:
        nil = all_zero(s, m)
        parts.append(f"fewest losses at f = {GUIDE_LOSS_F} random "
                     f"simultaneous failures (P(loss)): {txt}; {ch}"
                     + (" (every placement loses nothing in every seed, "
                        f"a tie at 0, at {cfgs_text(nil)})" if nil else ""))
    if parts:
        out.append(("replicas_loss",
                    f"Least data lost ({at}): " + "; ".join(parts) + "."
                    + link))
    return out


__all__ = ["section", "guide_items", "view", "head_config", "winners",
           "stability", "configs"]


# ---------------------------------------------------------------------------
# figures: drawn by plots/make_figures.py and shown in this section; each
# entry of FIGURES is (stem, caption, drawing function)

import style  # noqa: E402
from report.draw import Skip, med_err, need  # noqa: E402

ERR_LABEL = ("median over seeds; bars: 95 % CI of the median, or min–max "
             "for 2–5 seeds")


def _series(s, metric, cfg_fixed, scenario=AWARE):
    """{variant label: (var, rows sorted by N)} at fixed r and topology."""
    d = filt(s, metric=metric, scenario=scenario,
             replicas=cfg_fixed["replicas"],
             topology=cfg_fixed["topology"])
    d = d[d["median"].notna()]
    out = {}
    for var in variants(d):
        dv = filt(d, **var_filter(var)).sort_values("nodes")
        out[variant_label(var)] = (var, [r.to_dict()
                                         for _, r in dv.iterrows()])
    return out


def _draw_vs_nodes(ax, s, metric, cfg, scenario=AWARE, blind=False):
    for lab, (var, rows) in _series(s, metric, cfg, scenario).items():
        kw = style.line_kw(var["algorithm"])
        kw["label"] = lab + (" (zone_blind)" if blind else "")
        if blind:
            kw["linestyle"] = ":"
            kw["markerfacecolor"] = "white"
        xs = [r["nodes"] for r in rows]
        ys = [r["median"] for r in rows]
        errs = [med_err(r) or [[0], [0]] for r in rows]
        ax.errorbar(xs, ys, yerr=[[x[0][0] for x in errs],
                                  [x[1][0] for x in errs]],
                    capsize=2, **kw)


def _fixed(e):
    s, _ = view(e)
    cfg = head_config(s)
    if cfg is None:
        raise Skip("no zone-aware replicas rows")
    return s, cfg


def fig_replicas_join_churn(exps, out):
    (e,) = need(exps, EXP)
    s, cfg = _fixed(e)
    fig, axes = style.new_figure(ncols=2, figsize=(11.5, 4.6))
    ns = sorted(set(filt(s, replicas=cfg["replicas"],
                         topology=cfg["topology"])["nodes"].dropna()))
    r = cfg["replicas"]
    for ax, (m, opt, title) in zip(axes[0], (
            ("join_sets_changed", lambda n: r / (n + 1), "a node joins"),
            ("failure_sets_changed", lambda n: r / n, "a node fails"))):
        _draw_vs_nodes(ax, s, m, cfg)
        _draw_vs_nodes(ax, s, m, cfg, BLIND, blind=True)
        ax.plot(ns, [opt(n) for n in ns], label="minimum (r/(N+1), r/N)",
                **style.IDEAL_KW)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("N nodes")
        ax.set_title(title)
    axes[0][0].set_ylabel("keys whose replica set changes, fraction\n("
                          + ERR_LABEL + ")", fontsize=8)
    handles, labels = [], []
    for ax in axes[0]:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    leg = style.legend_outside(fig, axes, handles=handles, labels=labels)
    fig.suptitle(f"Replica sets changed, r = {r:g}, {cfg['topology']} "
                 "(zone aware; dotted: zone blind)")
    return style.save_figure(fig, out, "replicas_join_churn", [e.meta], leg)


def fig_replicas_loss(exps, out):
    (e,) = need(exps, EXP)
    s, cfg = _fixed(e)
    fig, axes = style.new_figure()
    ax = axes[0][0]
    zeros, series = [], set()
    drawn = False
    for sc in (AWARE, BLIND):
        d = filt(s, scenario=sc, nodes=cfg["nodes"],
                 replicas=cfg["replicas"], topology=cfg["topology"])
        for var in variants(d):
            lab = variant_label(var) + (" (zone_blind)" if sc == BLIND
                                        else "")
            series.add(lab)
            pts = []
            for f in LOSS_F:
                row = one(filt(d, metric=f"loss_probability_f{f}",
                               **var_filter(var)))
                if row is None or pd.isna(row["median"]):
                    continue
                if row["median"] <= 0:
                    zeros.append((lab, f))
                    continue
                pts.append((f, row))
            if not pts:
                continue
            kw = style.line_kw(var["algorithm"])
            kw["label"] = lab
            if sc == BLIND:
                kw["linestyle"] = ":"
                kw["markerfacecolor"] = "white"
            errs = [med_err(r) or [[0], [0]] for _, r in pts]
            lo = [min(x[0][0], r["median"] * 0.999) for x, (_, r) in
                  zip(errs, pts)]   # a log axis cannot show 0
            ax.errorbar([f for f, _ in pts], [r["median"] for _, r in pts],
                        yerr=[lo, [x[1][0] for x in errs]], capsize=2,
                        **kw)
            drawn = True
    if not drawn:
        plt_close(fig)
        raise Skip("every loss probability is 0 at the headline "
                   "configuration")
    ax.set_yscale("log")
    ax.set_xticks(list(LOSS_F))
    ax.set_xlabel("f: nodes failed at once (random)")
    ax.set_ylabel("P(at least one key lost)\n(" + ERR_LABEL + ")",
                  fontsize=8)
    if zeros:
        byf = {}
        for lab, f in zeros:
            byf.setdefault(f, []).append(lab.split(" (")[0] +
                                         (" blind" if "blind" in lab
                                          else ""))
        ax.text(0.01, 0.01, "0 (not drawn on the log axis): " + "; ".join(
            f"f={f}: all" if len(v) == len(series) and len(v) > 1
            else f"f={f}: " + ", ".join(v)
            for f, v in sorted(byf.items())),
            transform=ax.transAxes, fontsize=7, va="bottom")
    leg = style.legend_outside(fig, axes)
    fig.suptitle(f"Data loss under random failures, {cfg_text(cfg)}")
    return style.save_figure(fig, out, "replicas_loss", [e.meta], leg)


def plt_close(fig):
    style.plt.close(fig)


def fig_replicas_scatter(exps, out):
    (e,) = need(exps, EXP)
    s, cfg = _fixed(e)
    fig, axes = style.new_figure(ncols=2, figsize=(11.5, 4.6))
    ns = sorted(set(filt(s, replicas=cfg["replicas"],
                         topology=cfg["topology"])["nodes"].dropna()))
    ax1, ax2 = axes[0]
    _draw_vs_nodes(ax1, s, "scatter_width_mean", cfg)
    ax1.plot(ns, [n - 1 for n in ns], label="every other node (N − 1)",
             **style.IDEAL_KW)
    _draw_vs_nodes(ax2, s, "recovery_max_share", cfg)
    ax2.plot(ns, [1 / (n - 1) for n in ns],
             label="even over every other node (1/(N − 1))",
             **style.ANALYTIC_KW)
    for ax in (ax1, ax2):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("N nodes")
    ax1.set_ylabel("scatter width, nodes (mean over nodes;\n"
                   + ERR_LABEL + ")", fontsize=8)
    ax2.set_ylabel("largest share of re-created copies on one node",
                   fontsize=8)
    ax1.set_title("nodes sharing a replica set with a node")
    ax2.set_title("recovery concentration after one failure")
    handles, labels = [], []
    for ax in (ax1, ax2):
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    leg = style.legend_outside(fig, axes, handles=handles, labels=labels)
    fig.suptitle(f"Recovery parallelism, r = {cfg['replicas']:g}, "
                 f"{cfg['topology']}, zone aware")
    return style.save_figure(fig, out, "replicas_scatter", [e.meta], leg)


FIGURES = [
    ("replicas_join_churn", "Keys whose replica set changes when a node "
     "joins or fails vs N, with the minimum (r and topology of the tables; "
     "median over seeds, bars: min–max of the seeds, or the 95 % CI of the "
     "median from 6 seeds on)",
     fig_replicas_join_churn),
    ("replicas_scatter", "Scatter width and recovery max share vs N "
     "(r and topology of the tables, zone aware)", fig_replicas_scatter),
    ("replicas_loss", "Probability that f random simultaneous failures "
     "lose a key vs f (the tables' configuration; zeros named in the "
     "figure, not drawn on its log axis)",
     fig_replicas_loss),
]

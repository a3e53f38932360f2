"""d. Cascades after one death (scenarios cascade_mean and cascade): servers
failed per variant against the start utilization, the highest utilization
without a failure in any seed, bounded_load against the others and
against its cap's prediction."""

import math

import pandas as pd

import chdata
from report.common import (fmt_num, join_names, md_table, mean_of, pick_n,
                           PARAM_COLS, variants)
from report.cluster.base import (cell, fmtm, fnum, _isnan, labels, _mode,
                                 _most_rows, _na_text, per_run, PREFERRED_N,
                                 _reps, var_key)
from report.questions import q


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
           "seeds": sorted({int(x) for x in d[d["metric"] ==
                                               "servers_failed"]["n"]
                            .dropna() if x > 0}),
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
        if not chdata.is_bounded_load(p["var"]["algorithm"]) or _isnan(c) or \
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


def seeds_text(cf):
    """'any of the 3 seeds' (or '3–5 seeds' over the cells)."""
    ns = cf.get("seeds") or []
    if not ns:
        return "any seed"
    if ns == [1]:
        return "the one seed"
    return ("any of the " + (f"{ns[0]}" if len(ns) == 1 else
                             f"{ns[0]}–{ns[-1]}") + " seeds")


def unknown_below(us):
    """The safe u of a variant that fails at the lowest u of the grid: not
    measured, somewhere below it."""
    return f"unknown (below {us[0]:g})"


def _safe_text(p, us):
    if p["safe"] is not None:
        return f"{p['safe']:g}"
    return unknown_below(us)


def capacity_note(cf):
    """In `cascade` (servers sized for the variant's own busiest server)
    the variants with the highest u without a failure: [(label, u, steady
    max/mean)]: each server has steady max/mean × the capacity of an equal
    server (cascade_mean) at the same u, so a poorly balanced variant
    survives on more capacity, not on better placement. [] in
    cascade_mean."""
    if cf["scenario"] != "cascade":
        return []
    safe = [p["safe"] for p in cf["per"] if p["measured"] and
            p["safe"] is not None]
    if not safe:
        return []
    top = max(safe)
    return [(p["label"], top, mean_of(p["steady"])) for p in cf["per"]
            if p["measured"] and p["safe"] == top and
            p["steady"] is not None and not math.isnan(mean_of(p["steady"]))]


def capacity_text(cf, equal=None):
    """'ring (v = 1) "survives" up to u = 0.95 on the capacity its share
    gives it: its busiest server carries 2.84× the mean load, so each of
    its servers has 2.84× the capacity of an equal server at the same u'
    (with `equal`, the cascade_mean findings: what it reaches on equal
    servers); None when nothing to say."""
    note = capacity_note(cf)
    if not note:
        return None
    safe_eq = {}
    if equal:
        safe_eq = {p["label"]: _safe_text(p, equal["us"])
                   for p in equal["per"] if p["measured"]}
    parts = []
    for lbl, u, x in note:
        t = (f"{lbl} \"survives\" up to u = {u:g} on the capacity its share "
             f"gives it: its busiest server carries {x:.3g}× the mean load, "
             f"so each of its servers has {x:.3g}× the capacity of an equal "
             "server at the same u")
        if lbl in safe_eq:
            se = safe_eq[lbl]
            t += (f" (on equal servers its highest safe u is {se})"
                  if se.startswith("unknown") else
                  f" (on equal servers no failure up to u = {se} only)")
        parts.append(t)
    return "; ".join(parts)


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
        if chdata.is_bounded_load(p["var"]["algorithm"]) and \
                p["measured"] and not (_isnan(c) or pd.isna(c)):
            bl.setdefault(float(c), set()).add(p["safe"])
    by_safe = {}
    for c in sorted(bl):
        key = tuple(sorted(bl[c], key=lambda x: -1 if x is None else x))
        by_safe.setdefault(key, []).append(c)
    bounded = sorted(((cs, key) for key, cs in by_safe.items()),
                     key=lambda t: t[0][0])
    un = [p for p in cf["per"]
          if not chdata.is_bounded_load(p["var"]["algorithm"])
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
        txt += (" (some variants fail already at the lowest u: unknown, "
                "below it)")
    return txt


def bounded_sentence(cf, bold=False):
    """'bounded_load with c = 1.05 and 1.1 has no failure in any seed up
    to u = 0.8, c = 1.25 up to 0.7; every unbounded variant fails in some
    seed, first at u = 0.5–0.6 (over the variants)' (computed), or
    None."""
    bv = bounded_vs_unbounded(cf)
    b = join_names(f"**{a}**" if bold else a for a in
                   chdata.bounded_load_schemes(
                       p["var"]["algorithm"] for p in cf["per"]))
    parts = []
    for i, (cs, safes) in enumerate(bv["bounded"]):
        ct = "c = " + join_names(f"{c:g}" for c in cs)
        ut = _u_list(list(safes))
        if ut is None:
            parts.append(f"{ct} fails already at u = {cf['us'][0]:g} (its "
                         f"highest safe u {unknown_below(cf['us'])})")
        else:
            parts.append(f"{ct} " + (f"has no failure in {seeds_text(cf)} "
                                     "up to u = " if i == 0 else "up to ")
                         + ut)
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
                   + (f" (its highest safe u {unknown_below(cf['us'])})"
                      if lo == cf["us"][0] and hi == lo else "")
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
                parts.append(f"{unknown_below(cf['us'])}, failures already "
                             f"at the lowest u measured: {names}")
            elif u == umax:
                parts.append(f"up to u = {u:g} (the highest measured): "
                             f"{names}")
            else:
                parts.append(f"up to u = {u:g}: {names}")
        out.append(f"No server failed in {seeds_text(cf)} — "
                   + "; ".join(parts) + ".")
        ct = capacity_text(cf)
        if ct:
            out.append("Here " + ct + ".")
    bs = bounded_sentence(cf)
    if bs and cf["scenario"] == "cascade_mean":
        out.append("On equal hardware: " + bs + ".")
    if cf["scenario"] == "cascade_mean":
        ff = [p for p in cf["per"] if p["first_fail"] is not None and
              p["over_at_first_fail"] is not None and
              not chdata.is_bounded_load(p["var"]["algorithm"])]
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
                         if chdata.is_bounded_load(p["var"]["algorithm"]) and
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


def subsection(f, cite):
    """The subsection's lines (d): cascade_mean first (equal servers), then
    cascade, then both at the other N."""
    out = []
    cfs = [f[sc] for sc in ("cascade_mean", "cascade") if f[sc]]
    if cfs:
        c0 = cfs[0]
        out += [f"### {q('cluster', 'd')}. Cascades after one death (N = "
                f"{c0['n']}, Zipf "
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
                "seed had a failure (every lower u included); \"unknown "
                f"(below {c0['us'][0]:g})\": a failure already at the "
                "lowest u measured. This measures "
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
        prose = []
        for sc in ("cascade_mean", "cascade"):
            for o in f[sc + "_other"]:
                out += [f"**{sc}** at N = {fmt_num(o['n'])} ({o['reps']}):",
                        "", _cascade_table(o), ""]
                prose.append(f"**{sc}** at N = {fmt_num(o['n'])}: "
                             + " ".join(_cascade_prose(o)))
        if prose:
            out += [" ".join(prose), ""]
    return out


def guide_items(f, link):
    """The decision-guide entry on cascades (cascade_mean, equal servers,
    first; then the peak-sized cascade)."""
    out = []
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
                       else f"{unknown_below(cm['us'])} for every "
                       "unbounded variant (failures already at the lowest "
                       "u)"))
    other = []
    for o in f.get("cascade_mean_other", []):
        if not o or not o["per"]:
            continue
        bv = bounded_vs_unbounded(o)
        bb, bu = bv["best_bounded"], bv["best_unbounded"]
        if bb is None and bu is None:
            continue
        other.append(
            f"N = {fmt_num(o['n'])}: "
            + (f"bounded loads up to u = {bb:g}"
               + (" (the highest measured)" if bb >= max(o["us"]) else "")
               if bb is not None
               else "no bounded-load variant without a failure")
            + ", unbounded variants "
            + (f"up to {bu[0]:g} at best" if bu is not None and
               bu[0] is not None
               else f"{unknown_below(o['us'])} (failures already at the "
               "lowest u)"))
    if txt and other:
        txt.append("Where this changes with N, on the same equal servers: "
                   + "; ".join(other))
    if cp and cp["per"]:
        groups = safe_groups(cp)
        if groups:
            parts = []
            for u, names in groups:
                names = join_names(names)
                parts.append(f"{names} up to u = {u:g}" if u is not None
                             else f"{names}: {unknown_below(cp['us'])}, "
                             "failures already at the lowest u")
            txt.append(
                ("With" if txt else f"Cascades after one death (N = "
                 f"{cp['n']}, Zipf s = {cp['zipf']:g}): with")
                + " servers sized for each algorithm's own busiest "
                "server instead (`cascade`: a less balanced algorithm gets "
                "more capacity; u = the busiest server's load / capacity), "
                f"no server failed in {seeds_text(cp)} for "
                + "; ".join(parts))
            ct = capacity_text(cp, cm)
            if ct:
                txt.append("There " + ct)
    if txt:
        out.append(("cluster_cascade", ". ".join(txt)
                    + f" ({q('cluster', 'd')}). "
                    + link))
    return out


# ---------------------------------------------------------------------------
# figures: drawn by plots/make_figures.py and shown in this section; each
# entry of FIGURES is (stem, caption, drawing function)

import style  # noqa: E402
from report import cluster as rcl  # noqa: E402
from report import common as rc  # noqa: E402
from report.draw import Skip  # noqa: E402
from report.cluster.base import _cl_style, _cluster  # noqa: E402


def _fig_cascade(exps, out, scenario, stem):
    """Servers failed after one death against the start utilization u for
    one cascade scenario: one panel per algorithm, one line per variant
    (mean over seeds; band: the seeds' min–max); cascade_mean also draws
    the servers already over capacity before the death (crosses)."""
    e = _cluster(exps)
    cf = rcl.cascade_findings(e, scenario=scenario)
    if cf is None or not cf["per"]:
        raise Skip(f"no {scenario} rows")
    rows = cf["rows"]
    d = rows[rows["metric"] == "servers_failed"]
    ob = rows[rows["metric"] == "overloaded_before_event"]
    algs = list(dict.fromkeys(p["var"]["algorithm"] for p in cf["per"]
                              if p["measured"]))
    if not algs:
        raise Skip("no servers_failed values")
    ncols = min(3, len(algs))
    nrows = math.ceil(len(algs) / ncols)
    fig, axes = style.new_figure(ncols=ncols, nrows=nrows,
                                 figsize=(4.2 * ncols, 2.9 * nrows + 0.8),
                                 sharex=True, sharey=True)
    top = cf["n"] - 1
    draw_ob = cf["any_over"]
    fig_handles, fig_names = [], []
    for k, a in enumerate(algs):
        ax = axes[k // ncols][k % ncols]
        per = [p for p in cf["per"] if p["var"]["algorithm"] == a]
        handles, names = [], []
        for p in per:
            dv = rc.match_variant(d, p["var"]).sort_values("utilization")
            dv = dv[dv["mean"].notna()]
            if dv.empty:
                continue
            kw = _cl_style(p["var"], cf["vars"], cf["labels"])
            ax.fill_between(dv["utilization"], dv["min"], dv["max"],
                            color=kw["color"], alpha=0.12, linewidth=0)
            (h,) = ax.plot(dv["utilization"], dv["mean"], **kw)
            handles.append(h)
            names.append(p["label"].replace(a + " ", "") if len(per) > 1
                         else p["label"])
            if draw_ob:
                do = rc.match_variant(ob, p["var"]).sort_values(
                    "utilization")
                do = do[do["mean"].notna()]
                if not do.empty and (do["max"] > 0).any():
                    ax.plot(do["utilization"], do["mean"],
                            color=kw["color"], linestyle="none",
                            marker="x", markersize=4,
                            alpha=kw.get("alpha", 1.0))
        ax.set_title(a)
        ax.set_xticks(cf["us"])
        ax.set_ylim(-0.4, top + 0.4)
        if len(per) > 1:
            # the variants' names in the figure's legend, below the panels
            # (a legend inside a panel covered its lines)
            fig_handles += handles
            fig_names += [f"{a} {nm}" for nm in names]
    for k in range(len(algs), nrows * ncols):
        axes[k // ncols][k % ncols].set_visible(False)
    for j in range(ncols):
        axes[nrows - 1][j].set_xlabel(
            "utilization u before the death ("
            + ("mean load / capacity" if scenario == "cascade_mean" else
               "busiest server / capacity") + ")")
    for i in range(nrows):
        axes[i][0].set_ylabel(f"servers failed (of {top} left)")
    how = ("equal servers sized for the mean load (same hardware for "
           "every algorithm)" if scenario == "cascade_mean" else
           "servers sized for each algorithm's own busiest server")
    fig.suptitle(f"Cascades after one death, {scenario}: {how} (N = "
                 f"{cf['n']}, Zipf s = {cf['zipf']:g})\nservers failed vs "
                 "u (mean over seeds; band: the seeds' min–max"
                 + ("; crosses: servers already over capacity before the "
                    "death" if draw_ob else "") + ")")
    fig.tight_layout()
    leg = style.legend_outside(fig, axes, handles=fig_handles,
                               labels=fig_names) if fig_handles else None
    return style.save_figure(fig, out, stem, [e.meta], leg)


def fig_cluster_cascade_mean(exps, out):
    """Cascades on equal servers sized for the mean load (cascade_mean)."""
    return _fig_cascade(exps, out, "cascade_mean", "cluster_cascade_mean")


def fig_cluster_cascade(exps, out):
    """Cascades on servers sized for each algorithm's own busiest server
    (cascade)."""
    return _fig_cascade(exps, out, "cascade", "cluster_cascade")


FIGURES = [
    ("cluster_cascade_mean", "Cascades on equal servers sized for the "
     "mean load (cascade_mean): servers failed after one death vs the start "
     "utilization (mean load / capacity), one panel per algorithm, one line "
     "per variant (mean over seeds; band: the seeds' min–max; crosses: "
     "servers already over capacity before the death)",
     fig_cluster_cascade_mean),
    ("cluster_cascade", "Cascades on servers sized for each algorithm's own "
     "busiest server (cascade): servers failed after one death vs the "
     "busiest server's start utilization, one panel per algorithm, one line "
     "per variant (mean over seeds; band: the seeds' min–max)",
     fig_cluster_cascade),
]

"""The README's cluster block (make_report.py --readme): one row per
algorithm of the stampede block with its hot-key and cascade_mean cells."""

import os

import chdata
from report.common import fmt_num, md_table
from report.cluster.base import (EXP, fmtm, labels, PREFERRED_ZIPF, sep_text,
                                 var_key)
from report.cluster.cascade import bounded_sentence, _safe_text, seeds_text
from report.cluster.findings import findings
from report.cluster.memcached import EXTRA_ABS_TOL, EXTRA_REL_TOL, HIT_TOL
from report.questions import q


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
                     f"without a failure in {seeds_text(cm)} (of u = "
                     + ", ".join(f"{u:g}" for u in cm["us"]) + ")")
    out = [README_BEGIN,
           "<!-- Generated by plots/make_report.py; do not edit by hand. -->",
           "", "Cache cluster, mode sim, N = "
           + ", ".join(str(n) for n in ns)
           + f" ({ctx.machine()}; {reps}; details in "
           f"[REPORT.md {q('cluster')}]({rep}#cluster)): "
           + "; ".join(parts) + ".", "",
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

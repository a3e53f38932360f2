"""b. Hot keys (scenario none): the busiest server's requests over the mean
against the Zipf exponent; bounded_load per load factor c, checked against
its bound."""

import math

import pandas as pd

import chdata
from report.common import fmt_num, join_names, md_table, mean_of, variants
from report.cluster.base import (cell, EPS, fmtm, _isnan, labels,
                                 _pick_variant, PREFERRED_ZIPF, _reps,
                                 sep_text, separate, _signed, _sim_block,
                                 var_key)
from report.questions import q


def hot_findings(e, n=None):
    d, n = _sim_block(e, "none", n)
    if d is None or d.empty:
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
        if chdata.is_bounded_load(v["algorithm"]) and not _isnan(c) and \
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
    free = [(v, lbl, r) for v, lbl, r in at
            if not chdata.is_bounded_load(v["algorithm"])]
    out["free"] = free
    if free:
        lo = min(free, key=lambda t: mean_of(t[2]))
        hi = max(free, key=lambda t: mean_of(t[2]))
        out["free_range"] = (lo, hi)
    else:
        out["free_range"] = None
    # the hit-ratio cost of each bound against the algorithm it caps
    # (registry.json: the ring for bounded_load) with its vnodes
    for b in bounded:
        base = chdata.bounds_loads_of(b["var"]["algorithm"])
        ref = None
        for v in vars_:
            if v["algorithm"] == base and (
                    v.get("vnodes") == b["var"].get("vnodes")):
                ref = v
        if ref is None:
            ref = _pick_variant(vars_, base)
        b["ref"] = None
        if ref is not None:
            rh = cell(d, ref, "steady_hit_ratio", zipf=z0)
            b["ref"] = (lab[var_key(ref)], rh)
            hb, hr = mean_of(b["hit"]), mean_of(rh)
            b["hit_cost"] = hr - hb
            b["hit_cost_separate"] = separate(e.data, rh, b["hit"])
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


def subsection(f, cite):
    """The subsection's lines (b)."""
    out = []
    hf = f["hot"]
    if hf:
        prose, tables = [" ".join(_hot_prose(hf))], []
        for o in f.get("hot_other", []):
            at = (f"at N = {fmt_num(o['n'])} ({fmt_num(o['keys'])} keys, "
                  f"{fmt_num(o['requests'])} requests; {o['reps']})")
            tables += [f"Request max/mean {at}:", "", _hot_table(o), ""]
            prose.append(f"At N = {fmt_num(o['n'])}: "
                         + " ".join(_hot_prose(o)))
        out += [f"### {q('cluster', 'b')}. Hot keys: request max/mean "
                "against the Zipf "
                f"exponent (N = {hf['n']}, no event)", "",
                f"Requests of the busiest server over the mean per server, "
                f"over the steady buckets, mode sim, "
                f"{fmt_num(hf['keys'])} keys, {fmt_num(hf['requests'])} "
                f"requests; {hf['reps']}. bounded_load bounds the requests a "
                "server takes per bucket by ceil(c × bucket requests / live "
                "servers) and spills the rest to the next servers on its "
                "ring. " + cite, "", _hot_table(hf), "",
                " ".join(prose), ""] + tables
    return out


def guide_items(f, link):
    """The decision-guide entry on hot keys."""
    out = []
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
        other = []
        for o in f.get("hot_other", []):
            if not o or not o["free_range"]:
                continue
            (_, _, olo), (_, _, ohi) = o["free_range"]
            caps = [b for b in o["bounded"]]
            other.append(
                f"N = {fmt_num(o['n'])}: {fmtm(olo, 'x')} to "
                f"{fmtm(ohi, 'x')} unbounded"
                + ("" if not caps else "; bounded loads " + (
                    "within" if all(b["ok"] for b in caps) else
                    "**not all within**") + " their bounds"))
        if other:
            txt += ("; the busiest server's share grows with N (the "
                    "hottest keys stay on one server): " + "; ".join(other))
        out.append(("cluster_hot_keys", txt + f" ({q('cluster', 'b')}; " +
                    hf["reps"] + "). " + link))
    return out


# ---------------------------------------------------------------------------
# figures: drawn by plots/make_figures.py and shown in this section; each
# entry of FIGURES is (stem, caption, drawing function)

import style  # noqa: E402
from report import cluster as rcl  # noqa: E402
from report import common as rc  # noqa: E402
from report.draw import Skip  # noqa: E402
from report.draw import t_err as _t_err  # noqa: E402
from report.cluster.base import _cl_style, _cluster, fmt_int  # noqa: E402


def fig_cluster_request_balance(exps, out):
    """Requests of the busiest server over the mean (steady state) against
    the Zipf exponent s, one line per variant (mean over seeds, Student-t
    95 % CI of the mean); bounded_load's bounds c dotted."""
    e = _cluster(exps)
    hf = rcl.hot_findings(e)
    if hf is None:
        raise Skip("no scenario none rows")
    d = hf["rows"]
    d = d[d["metric"] == "steady_request_max_over_mean"]
    if d.empty:
        raise Skip("no steady_request_max_over_mean rows")
    fig, axes = style.new_figure()
    ax = axes[0][0]
    vars_, lab = hf["vars"], hf["labels"]
    for var in vars_:
        dv = rc.match_variant(d, var).sort_values("zipf")
        dv = dv[dv["mean"].notna()]
        if dv.empty:
            continue
        kw = _cl_style(var, vars_, lab)
        ax.errorbar(dv["zipf"], dv["mean"], yerr=_t_err(dv), capsize=2,
                    **kw)
    for b in hf["bounded"]:
        kw = _cl_style(b["var"], vars_, lab)
        ax.axhline(b["c"], color=kw["color"], linestyle=":", linewidth=0.8,
                   alpha=0.7)
    ax.axhline(1.0, label="ideal (every server the mean)", **style.IDEAL_KW)
    ax.set_xlabel("Zipf exponent s of request popularity (0 = uniform)")
    ax.set_ylabel("requests: busiest server / mean (steady state)")
    leg = style.legend_outside(fig, axes)
    fig.suptitle(f"Keys balanced is not requests balanced (N = {hf['n']}, "
                 f"{fmt_int(hf['keys'])} keys; mean over seeds, 95 % CI)")
    return style.save_figure(fig, out, "cluster_request_balance", [e.meta],
                             leg)


FIGURES = [
    ("cluster_request_balance", "Hot keys: requests of the busiest server "
     "over the mean vs the Zipf exponent, per variant (mean over seeds, "
     "95 % CI of the mean; bounded_load's c dotted)",
     fig_cluster_request_balance),
]

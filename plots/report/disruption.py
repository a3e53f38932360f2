"""Q4: disruption. Keys moved on adding / removing a node beside the
optimum, and the data-derived "minimal disruption" judgement.

Minimal disruption is judged relative to the optimum at each N, with the
key count's resolution (judge_minimal): at N, with m keys, optimum share o
and median excess share x, the excess count E = x·m is compared with the
binomial noise of the moved count, σ = sqrt(m·o·(1−o)). The algorithm is
minimal at N when E <= 2σ (excess compatible with 0) or E < 1 % of the
optimal count o·m; minimal overall when minimal at every measured N and
scenario (add, single removal)."""

import math

from report.common import (filt, fmt_num, fmt_pct, mcell,
                           med, na_note, cell_note, one, ref_note, render,
                           replay_model,
                           var_filter, variant_label, variants)

REL_TOL = 0.01   # excess / optimum below this is minimal
NOISE_SIGMAS = 2.0
SINGLE = ("add", "remove_random", "remove_last")


def judge_at(keys, opt, excess):
    """(ratio excess/optimum, minimal?) at one N, or (nan, None)."""
    if any(math.isnan(x) for x in (keys, opt, excess)) or opt <= 0:
        return float("nan"), None
    e_cnt, o_cnt = excess * keys, opt * keys
    sigma = math.sqrt(keys * opt * (1 - opt))
    minimal = e_cnt <= NOISE_SIGMAS * sigma or e_cnt < REL_TOL * o_cnt
    return excess / opt, bool(minimal)


def judge_minimal(s, var):
    """[(N, scenario, keys, ratio, minimal)] for one variant, and the
    overall verdict (True/False/None when nothing was measured)."""
    sv = filt(s, **var_filter(var))
    out = []
    for sc in SINGLE:
        for n in sorted(sv["nodes"].dropna().unique()):
            ex = one(filt(sv, scenario=sc, nodes=n,
                          metric="moved_excess_fraction"))
            op = one(filt(sv, scenario=sc, nodes=n,
                          metric="moved_optimal_fraction"))
            if ex is None or op is None:
                continue
            k = float(ex.get("keys") if ex.get("keys") is not None
                      else float("nan"))
            ratio, ok = judge_at(k, float(op["median"]),
                                 float(ex["median"]))
            if ok is not None:
                out.append((int(n), sc, k, ratio, ok))
    if not out:
        return out, None
    return out, all(x[4] for x in out)


def worst_ratio(judged):
    r = [x[3] for x in judged if not math.isnan(x[3])]
    return max(r) if r else float("nan")


def section(ctx):
    out = ["## Q4. How many keys move when a node is added or removed?",
           ""]
    e = ctx.exps.get("disruption")
    if e is None:
        return "\n".join(out + ["_No `disruption` results yet._", ""])
    s = e.summary
    ns = sorted(int(n) for n in s["nodes"].dropna().unique())[:4]
    out += ["Fraction of all keys that changed owner (median over "
            "repetitions [95 % CI of the median]; \"(n=k)\": 2–5 "
            "repetitions, too few for a 95 % interval); optimum = 1/(N+1) on add, 1/N on removing one "
            "node; excess/opt. = keys that moved but did not have to, over "
            "the optimum. \"minimal at N\": the excess count is within "
            f"{NOISE_SIGMAS:g}σ of 0 (σ = binomial noise of the moved count, "
            f"√(m·o·(1−o))) or below {100 * REL_TOL:g} % of the optimal "
            "count. Algorithms that can remove only the last node"
            + (" (" + ", ".join(_last_only(s)) + ")" if _last_only(s)
               else "") + " show `remove_last`, marked \"(last node)\". "
            "`receivers` = "
            "nodes that took the removed node's keys.", ""]
    if (s["algorithm"] == "bounded_load").any():
        out += [replay_model("bounded_load")
                + " The keys-per-node column applies.", ""]
    out += ref_note(ctx)
    rows = []
    for var in variants(s):
        f = var_filter(var)
        sv = filt(s, **f)
        for n in ns:
            if sv[sv["nodes"] == n].empty and \
                    na_note(e, var=var, nodes=n) is None:
                continue   # this configuration was not run at this N
            k = one(filt(sv, nodes=n, scenario="add"))
            kk = k.get("keys") if k else None
            r = [variant_label(var), str(n),
                 fmt_num(kk) if kk is not None else "—",
                 fmt_num(float(kk) / n) if kk is not None else "—"]
            for sc in ("add", "remove_random"):
                mark = ""
                if sc == "remove_random" and filt(sv, scenario=sc,
                                                  nodes=n).empty and \
                        not filt(sv, scenario="remove_last", nodes=n).empty:
                    sc, mark = "remove_last", " (last node)"
                if filt(sv, scenario=sc, nodes=n,
                        metric="moved_fraction")["median"].isna().all():
                    r += [cell_note(e, var, n, scenario=sc) or "—", "",
                          ""]
                    continue
                r.append(mcell(ctx, "disruption", "pct", scenario=sc,
                               nodes=n, metric="moved_fraction", **f))
                r[-1] = _suffix(r[-1], mark)
                r.append(fmt_pct(med(sv, scenario=sc, nodes=n,
                                     metric="moved_optimal_fraction")))
                ex = med(sv, scenario=sc, nodes=n,
                         metric="moved_excess_fraction")
                op = med(sv, scenario=sc, nodes=n,
                         metric="moved_optimal_fraction")
                ratio, ok = judge_at(float(kk) if kk else float("nan"), op,
                                     ex)
                r.append("—" if ok is None else
                         f"{ratio:.3g} ({'minimal' if ok else 'not minimal'})")
            rc = med(sv, scenario="remove_random", nodes=n,
                     metric="receivers")
            if math.isnan(rc):
                rc = med(sv, scenario="remove_last", nodes=n,
                         metric="receivers")
            r.append(fmt_num(rc))
            r.append(ctx.data_links("disruption"))
            rows.append(r)
    out += [render(ctx, ["algorithm", "N", "keys", "keys per node",
                         "add: moved", "add: optimum", "add: excess/opt.",
                         "remove: moved", "remove: optimum",
                         "remove: excess/opt.", "receivers", "data"], rows),
            ""]
    return "\n".join(out)


def _last_only(s):
    """Algorithms with remove_last rows and no remove_random values."""
    import style
    rr = s[(s["scenario"] == "remove_random") & s["median"].notna()]
    last = s[s["scenario"] == "remove_last"]
    return style.order_algorithms(set(last["algorithm"]) -
                                  set(rr["algorithm"]))


def _suffix(cell, mark):
    if not mark:
        return cell
    fn = cell.fn
    cell.fn = lambda exps: fn(exps) + mark
    return cell

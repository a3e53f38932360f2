"""What each algorithm can do. Declared capabilities and lookup
complexity come from registry.json (`chbench list --json`); beside them,
what the data show: removal from the middle and weights (a value vs a
"not applicable" row) and minimal disruption (the measured worst
excess/optimum ratio and the per-N judgement of report.disruption)."""

import style
from report import disruption
from report.common import md_table, peers_in
from report.questions import q

CAPS = [("arbitrary_removal", "removal from the middle"),
        ("weights", "weights"), ("replicas", "replicas"),
        ("minimal_disruption", "minimal disruption"),
        ("stateful", "stateful"),
        ("history_dependent", "history-dependent")]


def caps(reg):
    """CAPS, then any other capability registry.json declares (by name),
    so a new capability shows up without a code change."""
    known = {c for c, _ in CAPS}
    extra = set()
    for a in reg.algorithms.values():
        extra |= set((a.get("capabilities") or {}).keys()) - known
    return CAPS + [(c, c.replace("_", " ")) for c in sorted(extra)]


def _yn(v):
    return "—" if v is None else ("yes" if v else "no")


def measured(ctx, exps=None):
    """{algorithm: {"arbitrary_removal", "weights", "minimal_disruption":
    bool|None, "ratio": worst excess/optimum}} from the data."""
    exps = ctx.exps if exps is None else exps
    dis, wts = exps.get("disruption"), exps.get("weights")
    algos = set()
    for e in exps.values():
        algos |= set(a for a in e.data["algorithm"].unique() if a)
    algos -= peers_in(ctx)
    out = {}
    for a in algos:
        m = {"arbitrary_removal": None, "weights": None,
             "minimal_disruption": None, "ratio": float("nan")}
        if dis is not None:
            rr = dis.data[(dis.data["algorithm"] == a) &
                          (dis.data["scenario"] == "remove_random")]
            if not rr.empty:
                m["arbitrary_removal"] = bool(rr["value"].notna().any())
            s = dis.summary[dis.summary["algorithm"] == a]
            from report.common import variants
            verdicts, ratios = [], []
            for var in variants(s):
                j, ok = disruption.judge_minimal(dis.summary, var)
                if ok is not None:
                    verdicts.append(ok)
                    ratios.append(disruption.worst_ratio(j))
            if verdicts:
                m["minimal_disruption"] = all(verdicts)
                m["ratio"] = max(ratios)
        if wts is not None:
            rr = wts.data[(wts.data["algorithm"] == a) &
                          (wts.data["metric"] == "share")]
            if not rr.empty:
                m["weights"] = bool(rr["value"].notna().any())
        out[a] = m
    return out


def _monotone(rem, algorithm):
    from report import removal
    from report.common import variants
    d = rem.data[rem.data["algorithm"] == algorithm]
    vs = [removal.monotone(d, v)["monotone"] for v in variants(d)]
    vs = [v for v in vs if v is not None]
    if not vs:
        return "—"
    return "yes" if all(vs) else "no"


def section(ctx):
    meas = measured(ctx)
    algos = style.order_algorithms(set(meas) | set(ctx.reg.algorithms))
    cap_list = caps(ctx.reg)
    rem = ctx.exps.get("removal")
    rows = []
    disagree = []
    unexercised = []
    for a in algos:
        m = meas.get(a, {})
        r = [a, ctx.reg.algo(a).get("lookup_complexity", "—") or "—",
             ctx.reg.lookup_class(a) or "—"]
        for cap, _ in cap_list:
            d = ctx.reg.capability(a, cap)
            cell = _yn(d)
            if cap in ("arbitrary_removal", "weights", "minimal_disruption"):
                v = m.get(cap)
                extra = _yn(v)
                if cap == "minimal_disruption" and v is not None:
                    extra += f", worst excess/opt. {m['ratio']:.3g}"
                cell += f" (data: {extra})"
                if d is not None and v is not None and d != v:
                    if cap == "minimal_disruption" and d is False:
                        # "not minimal" says some change moves extra keys;
                        # minimal moves in the changes measured do not
                        # contradict it: that change was not measured.
                        cell += " (declared case not measured)"
                        unexercised.append(a)
                    else:
                        cell += " ⚠"
                        disagree.append(f"{a} {cap}")
            r.append(cell)
        if rem is not None:
            r.append(_monotone(rem, a))
        rows.append(r)
    src = ("`registry.json` of this report's runs" if ctx.reg else
           "**no registry.json found: declared columns are empty**")
    out = [f"## {q('capabilities')}. What can each algorithm do?", "",
           f"Declared capabilities and lookup complexity from {src}; "
           "\"data:\" is what the measurements show: removal and weights "
           "from values vs `not applicable` rows; minimal disruption from "
           "the excess moves judged against the optimum at every N "
           f"({q('disruption')}: within binomial noise of 0 or below 1 % of "
           "the optimum), "
           "with the worst measured excess/optimum ratio. ⚠ marks a "
           "declaration the data contradict: a declared capability the "
           "data show missing, or one declared missing that the data "
           "show. A declared \"no\" for minimal disruption says that some "
           "change moves extra keys; when every measured change was "
           "minimal, that change was not among them (\"declared case not "
           "measured\"), which is no contradiction." +
           (" \"monotone on removal\" is measured only "
            f"({q('removal')}): no key on a live node moved in any "
            "removal cell." if rem is not None
            else "") +
           (" Disagreements: " + ", ".join(disagree) + "."
            if disagree else "") +
           (" Declared not minimal, minimal in every measured change: "
            + ", ".join(unexercised) + "." if unexercised else ""), "",
           md_table(["algorithm", "lookup (declared)", "lookup class"] +
                    [c[1] for c in cap_list] +
                    (["monotone on removal (data)"] if rem is not None
                     else []), rows), ""]
    return "\n".join(out)

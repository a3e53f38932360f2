"""Everything the cluster section, the decision guide and the README block
say, computed once per experiment object."""

from report.cluster.base import EXP, _mode, per_run
from report.cluster.cascade import CASCADE_SCENARIOS, cascade_findings
from report.cluster.hot import hot_findings
from report.cluster.memcached import real_findings
from report.cluster.stale import stale_findings
from report.cluster.stampede import stampede_findings


def findings(ctx, exps=None):
    """Everything the section and the guide say, from one experiments dict:
    {stampede: {n, cache, scenarios: {add|remove: {...}}}, stampede_other:
    [same at other N], hot, hot_other, stale, cascade, cascade_mean (each: the
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
         "stampede_other": [], "hot_other": []}
    for sc in CASCADE_SCENARIOS:
        f[sc] = cascade_findings(e, scenario=sc)
        f[sc + "_other"] = []
    sim = per_run(_mode(e.summary, "sim"))
    todo = [("stampede", stampede_findings, ["add", "remove"])] + [
        (sc, (lambda e_, n_, sc_=sc: cascade_findings(e_, n_, sc_)), [sc])
        for sc in CASCADE_SCENARIOS] + [("hot", hot_findings, ["none"])]
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

"""e. Real memcached against the simulation of the same configuration:
the real-cluster test's tolerances (bench/cluster/real_cluster_test.cc),
the real cluster's client latency and request rate."""

import math

import pandas as pd

import style
from report.common import (fmt_num, join_names, md_table, mean_of, one,
                           PARAM_COLS)
from report.cluster.base import (EPS, fmtm, _isnan, labels, _mode, per_bucket,
                                 per_run, _signed, var_key)
from report.questions import q


# bench/cluster/real_cluster_test.cc
HIT_TOL = 0.02
EXTRA_REL_TOL = 0.25
EXTRA_ABS_TOL = 40
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


def subsection(f, cite):
    """The subsection's lines (e)."""
    out = []
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
        out += [f"### {q('cluster', 'e')}. Real memcached against the "
                "simulation", "",
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
    return out

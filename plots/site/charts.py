"""The interactive figures of the question pages: which summary rows each
chart draws, and its Vega-Lite specification.

A chart is declared by what it selects, never by its numbers: one
experiment, one metric, equality filters on summary.csv's configuration
columns (None: the cell is empty; ANY: the cell is not empty; a tuple or
list: any of its values), the column
on the x axis ("series": one category per series) and the statistic
("median" with the order-statistic CI of the median, or "mean" with the
mean's CI, as the report shows that experiment). Every summary row that
matches and has a value is one point (one SVG mark), drawn for the user's
runs and, when a reference is given, for the reference runs beside them.
Units, directions and descriptions come from registry.json; the series
(an algorithm at its parameters: report.common.variant_label) get the
suite's colour-blind-safe styles (style.py)."""

import math

import chdata
import style
from report.common import var_key, variant_label

ANY = "*"

# Vega-Lite point shapes for style.py's matplotlib markers.
SHAPES = {"o": "circle", "s": "square", "^": "triangle-up",
          "D": "diamond", "v": "triangle-down", "P": "cross",
          "X": "cross", "<": "triangle-left", ">": "triangle-right",
          "d": "diamond", "h": "circle", "8": "circle", "*": "diamond",
          "p": "square"}


def C(cid, title, exp, metric, where, x="nodes", stat="median",
      peers=False):
    return dict(id=cid, title=title, exp=exp, metric=metric, where=where,
                x=x, stat=stat, peers=peers)


# question (report.questions.QUESTIONS) -> its charts
CHARTS = {
    "lookup": [
        C("lookup_prehashed", "Lookup time, prehashed keys", "lookup",
          "lookup_ns", dict(scenario="prehashed", hash="xxh64",
                            keyset="uniform", threads=None, removal=None,
                            batch=None)),
        C("lookup_string", "Lookup time, string keys (hash + lookup)",
          "lookup", "lookup_ns",
          dict(scenario="string", hash="xxh64", threads=None, removal=None,
               batch=None)),
        C("lookup_latency", "Dependent-chain lookup latency, prehashed keys",
          "lookup", "lookup_latency_ns",
          dict(scenario="prehashed", hash="xxh64", keyset="uniform",
               threads=None, removal=None, batch=None)),
        C("lookup_peers", "Lookup time beside the reference implementations "
          "(peers), prehashed keys", "lookup", "lookup_ns",
          dict(scenario="prehashed", hash="xxh64", keyset="uniform",
               threads=None, removal=None, batch=None), peers=True),
    ],
    "build": [
        C("build_ns", "Build from scratch", "build", "build_ns", {}),
        C("add_node_ns", "Add one node", "build", "add_node_ns", {}),
        C("remove_node_ns", "Remove one node", "build", "remove_node_ns",
          {}),
    ],
    "memory": [
        C("memory_per_node", "Memory per node", "memory",
          "memory_bytes_per_node", {}),
        C("memory_bytes", "Memory, whole instance", "memory",
          "memory_bytes", {}),
    ],
    "disruption": [
        C("moved_add", "Keys moved when one node joins", "disruption",
          "moved_fraction", dict(scenario="add")),
        C("moved_remove", "Keys moved when a random node leaves",
          "disruption", "moved_fraction", dict(scenario="remove_random")),
        C("excess_remove", "Keys moved beyond the optimum, a random node "
          "leaves", "disruption", "moved_excess_fraction",
          dict(scenario="remove_random")),
    ],
    "balance": [
        C("balance_uniform", "Busiest node's load over the mean, uniform "
          "keys", "balance", "load_max_over_mean",
          dict(scenario="measured", keyset="uniform", hash="xxh64")),
        C("balance_min_uniform", "Least loaded node over the mean, uniform "
          "keys", "balance", "load_min_over_mean",
          dict(scenario="measured", keyset="uniform", hash="xxh64")),
    ],
    "capabilities": [],
    "removal": [
        C("removal_excess", "Keys moved beyond the optimum after failures "
          "(random order, N = largest)", "removal", "moved_excess_fraction",
          dict(scenario="oneshot", removal="random", nodes="max"),
          x="removed"),
        C("removal_balance", "Max/mean over the survivors after failures "
          "(random order, N = largest)", "removal", "load_max_over_mean",
          dict(scenario="oneshot", removal="random", nodes="max"),
          x="removed"),
        C("removal_lookup", "Lookup time after failures (random order)",
          "removal", "lookup_ns", dict(removal="random"), x="removed"),
    ],
    "overprovision": [
        C("overprovision_balance_capacity", "Max/mean vs capacity (spare "
          "buckets)", "overprovision", "load_max_over_mean",
          dict(scenario="measured", capacity=ANY), x="capacity"),
        C("overprovision_lookup_capacity", "Lookup time vs capacity",
          "overprovision", "lookup_ns", dict(capacity=ANY), x="capacity"),
        C("overprovision_balance_probes", "Max/mean vs probes",
          "overprovision", "load_max_over_mean",
          dict(scenario="measured", probes=ANY), x="probes"),
        C("overprovision_lookup_probes", "Lookup time vs probes",
          "overprovision", "lookup_ns", dict(probes=ANY), x="probes"),
    ],
    "presets": [
        C("presets_balance", "Production presets and plain algorithms: "
          "max/mean", "presets", "load_max_over_mean",
          dict(scenario="static"), stat="mean"),
        C("presets_moved_add", "Keys moved when a server joins", "presets",
          "moved_fraction", dict(scenario="add"), stat="mean"),
    ],
    # The stampede blocks of experiments/cluster.toml (no eviction, 10^6
    # requests at N = 10, 100 and 1000); the validation block's 10^5
    # requests at N = 10 are another configuration.
    "cluster": [
        C("cluster_stampede", "Extra database reads when a server joins "
          "(simulated, no eviction)", "cluster", "extra_db_reads",
          dict(scenario="add", mode="sim", cache_items=0,
               requests=1000000), stat="mean"),
        C("cluster_death", "Extra database reads when a server dies "
          "(simulated, no eviction)", "cluster", "extra_db_reads",
          dict(scenario="remove", mode="sim", cache_items=0,
               requests=1000000), stat="mean"),
    ],
    "growth": [
        # Every other step (the growth spec writes all 200 at N = 100): a
        # cumulative curve, smooth between steps, at half the points and
        # half the page's data table.
        C("growth_cumulative", "Cumulative keys moved over the optimum, "
          "N = 100 to 200 and back", "growth",
          "cumulative_moved_over_optimum",
          dict(nodes=100, step=tuple(range(0, 201, 2))), x="step"),
    ],
    "replicas": [
        C("replicas_scatter", "Scatter width (3 replicas, zones3, zone "
          "aware)", "replicas", "scatter_width_mean",
          dict(scenario="zone_aware", topology="zones3", replicas=3)),
        C("replicas_join", "Keys whose replica set is unchanged by a join "
          "(3 replicas, zones3)", "replicas", "join_sets_changed_0",
          dict(scenario="zone_aware", topology="zones3", replicas=3)),
        C("replicas_loss", "Probability that 3 random failures lose a key "
          "(3 replicas, zones3)", "replicas", "loss_probability_f3",
          dict(scenario="zone_aware", topology="zones3", replicas=3)),
    ],
}

X_LABELS = {"nodes": "nodes N", "removed": "nodes removed",
            "step": "step (joins 1 .. N, then leaves)",
            "capacity": "capacity a (buckets)", "probes": "probes k",
            "series": ""}


def variant_text(r):
    """A variant's identity as text: algorithm|vnodes|table_size|
    load_factor|capacity|probes (integers without a point, empty when
    empty; the default table size and a = N are empty: report.common.
    var_key). The chooser names its configurations the same way."""
    k = var_key(r)
    return "|".join([str(k[0])] + [num_text(v) for v in k[1:]])


def num_text(v):
    """A number as keys show it: integers without a point, others as
    repr; '' for None."""
    if v is None:
        return ""
    v = float(v)
    return str(int(v)) if v.is_integer() else repr(v)


def _isnan(v):
    return v is None or (isinstance(v, float) and math.isnan(v))


def _num(v):
    return None if _isnan(v) else float(v)


def select(summary, chart, peers):
    """The summary rows (DataFrame) a chart draws: the filters, a value in
    its statistic, and the peers (registry peers and `peer of` rows) left
    out unless the chart is about them (then every variant whose
    algorithm has a peer, and the peers)."""
    s = summary[summary["metric"] == chart["metric"]]
    for col, val in chart["where"].items():
        if col not in s.columns:
            if val is None:
                continue
            return s.iloc[0:0]
        if val == "max":
            val = s[col].max()
            if _isnan(val):
                return s.iloc[0:0]
        if val is None:
            s = s[s[col] == ""] if col in chdata.STRING_COLUMNS \
                else s[s[col].isna()]
        elif val == ANY:
            s = s[s[col] != ""] if col in chdata.STRING_COLUMNS \
                else s[s[col].notna()]
        elif isinstance(val, (list, tuple)):
            s = s[s[col].isin(val)]
        else:
            s = s[s[col] == val]
    s = s[s[chart["stat"]].notna()]
    if chart["peers"]:
        bases = {b for b in peers.values() if b}
        s = s[s["algorithm"].isin(set(peers) | bases)]
    else:
        s = s[~s["algorithm"].isin(set(peers))]
    return s


def _interval(r, stat):
    lo, hi = ((r.get("median_ci_low"), r.get("median_ci_high"))
              if stat == "median" else
              (r.get("mean_ci_low"), r.get("mean_ci_high")))
    if _isnan(lo) or _isnan(hi):
        return None, None
    return float(lo), float(hi)


def points(e, chart, peers, src):
    """[point dict] of one run's rows: series, x, y, interval, n, noisy,
    run id, commit, source ("yours" or "reference"), the row's index in
    the chart's data table."""
    out = []
    if e is None:
        return out
    commit = str(chdata.meta_get(e.meta, "git_commit", "commit") or "")[:12]
    run = str(e.meta.get("run_id", ""))
    for _, row in select(e.summary, chart, peers).iterrows():
        r = row.to_dict()
        label = variant_label(r)
        lo, hi = _interval(r, chart["stat"])
        x = label if chart["x"] == "series" else _num(r.get(chart["x"]))
        out.append(dict(series=label, algorithm=r["algorithm"],
                        key=variant_text(r), x=x,
                        y=float(r[chart["stat"]]), lo=lo, hi=hi,
                        n=int(r["n"]) if not _isnan(r.get("n")) else None,
                        noisy=int(r.get("noisy") or 0) == 1, run=run,
                        commit=commit, src=src))
    return out


def series_styles(names, algorithms):
    """{series label: {color, shape, dash}} from style.py by algorithm."""
    out = {}
    for label, algo in zip(names, algorithms):
        s = style.algorithm_style(algo)
        out[label] = dict(color=s["color"],
                          shape=SHAPES.get(s["marker"], "circle"),
                          dash=[4, 3] if s.get("linestyle") else [])
    return out


def spec(chart, metric_info, rows, styles, has_ref):
    """The Vega-Lite spec of a chart (data left out: site.js adds the rows
    the reader keeps). Log axes by default where every value is
    positive; the page's control switches them."""
    y_title = f"{chart['metric']} ({metric_info.get('unit') or ''}, " \
        f"{chart['stat']})"
    names = list(styles)
    color = {"field": "series", "type": "nominal", "title": "series",
             "scale": {"domain": names,
                       "range": [styles[n]["color"] for n in names]}}
    categorical = chart["x"] == "series"
    xenc = ({"field": "x", "type": "nominal", "title": None,
             "sort": names, "axis": {"labelAngle": -40}}
            if categorical else
            {"field": "x", "type": "quantitative",
             "title": X_LABELS.get(chart["x"], chart["x"]),
             "scale": {"type": "log"}})
    tooltip = [
        {"field": "series", "type": "nominal"},
        {"field": "x", "type": "nominal" if categorical else "quantitative",
         "title": X_LABELS.get(chart["x"], chart["x"]) or "series"},
        {"field": "y", "type": "quantitative", "title": chart["stat"],
         "format": ".4~g"},
        {"field": "interval", "type": "nominal", "title": "95 % interval"},
        {"field": "n", "type": "quantitative"},
        {"field": "noisy", "type": "nominal"},
        {"field": "run", "type": "nominal", "title": "run id"},
        {"field": "commit", "type": "nominal"},
    ]
    if has_ref:
        tooltip.insert(1, {"field": "src", "type": "nominal",
                           "title": "results"})
    yscale = {"type": "log"}
    layers = []
    if not categorical:
        layers.append({
            "name": "lines",
            "mark": {"type": "line", "strokeWidth": 1.2},
            "encoding": {"x": xenc, "y": {"field": "y", "type":
                                          "quantitative", "scale": yscale},
                         "color": color,
                         "detail": {"field": "src"},
                         "strokeDash": {"field": "src", "type": "nominal",
                                        "scale": {"domain": ["yours",
                                                             "reference"],
                                                  "range": [[1, 0],
                                                            [5, 3]]},
                                        "legend": None if not has_ref else
                                        {"title": "results"}},
                         "order": {"field": "x"}}})
    layers.append({
        "name": "intervals",
        "mark": {"type": "rule", "strokeWidth": 1},
        "transform": [{"filter": "datum.lo != null && datum.hi != null"}],
        "encoding": {"x": xenc,
                     "y": {"field": "lo", "type": "quantitative",
                           "scale": yscale},
                     "y2": {"field": "hi"}, "color": color}})
    layers.append({
        "name": "points",
        "mark": {"type": "point", "filled": False, "size": 60,
                 "strokeWidth": 1.6},
        "encoding": {
            "x": xenc,
            "y": {"field": "y", "type": "quantitative", "scale": yscale,
                  "title": y_title},
            "color": color,
            "shape": {"field": "series", "type": "nominal", "legend": None,
                      "scale": {"domain": names,
                                "range": [styles[n]["shape"]
                                          for n in names]}},
            "fill": {"condition": {"test": "datum.noisy", "value":
                                   "transparent"},
                     "field": "series", "type": "nominal", "legend": None,
                     "scale": {"domain": names,
                               "range": [styles[n]["color"]
                                         for n in names]}},
            "opacity": {"condition": {"test": "datum.src == 'reference'",
                                      "value": 0.55}, "value": 1},
            "tooltip": tooltip}})
    return {"$schema": "https://vega.github.io/schema/vega-lite/v6.json",
            "width": 560, "height": 300,
            "title": chart["title"],
            "config": {"font": "system-ui, sans-serif",
                       "legend": {"labelLimit": 260}},
            "layer": layers}


def chart_data(ctx, question, link):
    """[chart dict] of one question: declaration, points (the user's
    runs, then the reference's), series styles, spec, the runs' CSV links
    (link(path) -> a link relative to the site)."""
    peers = {p: ctx.reg.peer_base(p) for p in ctx.reg.peers}
    if ctx.ref_reg is not None:
        peers.update({p: ctx.ref_reg.peer_base(p) for p in ctx.ref_reg.peers})
    out = []
    for chart in CHARTS.get(question, []):
        e = ctx.exps.get(chart["exp"])
        r = (ctx.ref or {}).get(chart["exp"])
        pts = points(e, chart, peers, "yours") + \
            points(r, chart, peers, "reference")
        order = style.order_algorithms([p["algorithm"] for p in pts])
        seen = {}
        for p in sorted(pts, key=lambda p: (order.index(p["algorithm"]),
                                            p["series"])):
            seen.setdefault(p["series"], p["algorithm"])
        styles = series_styles(list(seen), list(seen.values()))
        for i, p in enumerate(pts):
            p["row"] = i
            p["interval"] = ("—" if p["lo"] is None else
                             f"{p['lo']:.4g}–{p['hi']:.4g}")
        info = ctx.reg.metric(chart["metric"])
        sources = []
        for src, x in (("yours", e), ("reference", r)):
            if x is not None:
                sources.append(dict(
                    src=src, run=str(x.meta.get("run_id", "")),
                    run_dir=x.run_dir, csv=link(x.summary_path),
                    commit=str(chdata.meta_get(x.meta, "git_commit",
                                               "commit") or "")[:12]))
        has_ref = any(p["src"] == "reference" for p in pts)
        out.append(dict(
            id=chart["id"], title=chart["title"], question=question,
            exp=chart["exp"], metric=chart["metric"], stat=chart["stat"],
            where=chart["where"], x=chart["x"], peers=chart["peers"],
            unit=info.get("unit", ""), better=info.get("better", ""),
            description=info.get("description", ""),
            xlabel=X_LABELS.get(chart["x"], chart["x"]),
            points=pts, styles=styles, sources=[
                {k: v for k, v in s.items() if k != "run_dir"}
                for s in sources],
            run_dirs={s["src"]: s["run_dir"] for s in sources},
            positive=all(p["y"] > 0 and (p["lo"] is None or p["lo"] > 0)
                         for p in pts),
            positive_x=chart["x"] == "series" or all(
                p["x"] is not None and p["x"] > 0 for p in pts),
            spec=spec(chart, info, pts, styles, has_ref)))
    return out

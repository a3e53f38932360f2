"""Build and update cost: build_ns, add_node_ns, remove_node_ns per
variant and N. bounded_load is measured with placed_keys placed, so its
add/remove include the replay of every placed key."""

import re

import chdata
from report.common import (WITHIN_RUN, cell_note, filt, keys_per_node, mcell,
                           nearest_nodes, one, peers_in, ref_note, render,
                           summary_of, var_filter, variant_label, variants)
from report.questions import q

METRICS = [("build_ns", "build"), ("add_node_ns", "add node"),
           ("remove_node_ns", "remove node"),
           ("place_ns", "place a fresh key (per key)")]


def section(ctx):
    out = [f"## {q('build')}. How long do build and updates take?", ""]
    e = ctx.exps.get("build")
    if e is None:
        return "\n".join(out + ["_No `build` results yet._", ""])
    s = e.summary
    s = s[s["metric"].isin([m for m, _ in METRICS]) &
          ~s["algorithm"].isin(peers_in(ctx, "build"))]
    ns = nearest_nodes(s["nodes"], [100, 1000, 10000])
    out += ["ns per operation on an instance of N nodes (remove: jump "
            "removes the last node only). Lower is better. " + WITHIN_RUN]
    placed = s[s["placed_keys"].notna()]
    for a in chdata.algorithm_names():
        if not chdata.has_capability(a, "stateful") or \
                not (placed["algorithm"] == a).any():
            continue
        b = one(placed[placed["algorithm"] == a])
        out[-1] += (f" {a} is measured with placed_keys placed "
                    f"({keys_per_node(b)}): its add and remove include the "
                    "replay of every placed key; \"place a fresh key\" "
                    "is PlaceBatch of those keys on a built instance with "
                    "none, per key.")
    out += [""] + ref_note(ctx)
    rows = []
    for var in variants(s):
        f = var_filter(var)
        for m, lab in METRICS:
            if m == "place_ns" and filt(s, metric=m, **f).empty:
                continue  # stateful algorithms only
            r = [variant_label(var), lab]
            for n in ns:
                sv = filt(s, metric=m, nodes=n, **f)
                note = cell_note(e, var, n, metric=m) \
                    if sv.empty or sv["median"].isna().all() else None
                r.append(note if note else
                         mcell(ctx, "build", metric=m, nodes=n, **f))
            r.append(ctx.data_links("build"))
            rows.append(r)
    out += [render(ctx, ["algorithm", "operation"] +
                   [f"N={n}" for n in ns] + ["data"], rows), ""]
    out += peers_table(ctx)
    return "\n".join(out)


RATIO_RE = re.compile(r"^build_ns_ratio_to_(.+)$")


def peers_table(ctx):
    """Build time beside the build peers timed in the same rounds."""
    s = summary_of(ctx.exps, "build")
    if s is None:
        return []
    peers = sorted({RATIO_RE.match(m).group(1) for m in s["metric"].unique()
                    if RATIO_RE.match(m)})
    if not peers:
        return []
    rows = []
    for peer in peers:
        d = s[s["metric"] == f"build_ns_ratio_to_{peer}"]
        cfgs = d[["algorithm", "vnodes", "table_size", "load_factor",
                  "nodes"]].drop_duplicates().sort_values(
                      ["algorithm", "table_size", "nodes"])
        for _, c in cfgs.iterrows():
            var = c.to_dict()
            f = var_filter(var)
            f.update(nodes=c["nodes"])
            pf = dict(f, algorithm=peer)
            rows.append([
                variant_label(var), f"`{peer}`", f"{c['nodes']:g}",
                mcell(ctx, "build", metric="build_ns", **f),
                mcell(ctx, "build", metric="build_ns", **pf),
                mcell(ctx, "build", metric=f"build_ns_ratio_to_{peer}", **f),
                ctx.data_links("build")])
    desc = "; ".join(f"`{p}`: {ctx.reg.peers[p].get('description', '')}"
                     for p in peers if p in ctx.reg.peers)
    return ["### Build vs the reference implementation", "",
            "Ratio = our build time / the peer's in the same round, median "
            "over rounds [95 % CI of the median, within one run]; < 1 means "
            "ours is faster." +
            (f" Peers: {desc}." if desc else ""), "",
            render(ctx, ["ours", "peer", "N", "ours ns", "peer ns", "ratio",
                         "data"], rows), ""]


# ---------------------------------------------------------------------------
# figures: drawn by plots/make_figures.py and shown in this section; each
# entry of FIGURES is (stem, caption, drawing function)

import style  # noqa: E402
from report.draw import log_axes, need, plot_metric_vs_nodes  # noqa: E402


def fig_build(exps, out):
    (e,) = need(exps, "build")
    s = e.summary
    metrics = [("build_ns", "build from scratch"),
               ("add_node_ns", "add one node"),
               ("remove_node_ns", "remove one node")]
    fig, axes = style.new_figure(ncols=3, figsize=(13, 4.4))
    for ax, (m, title) in zip(axes[0], metrics):
        if s[s["metric"] == m].empty:
            ax.text(0.5, 0.5, f"no {m} rows", transform=ax.transAxes,
                    ha="center")
        else:
            plot_metric_vs_nodes(ax, s, m)
            log_axes(ax)
        na = e.not_applicable()
        na = na[na["metric"] == m]
        if not na.empty:
            ax.text(0.02, 0.98, "n/a: " + ", ".join(
                style.order_algorithms(na["algorithm"].unique())),
                transform=ax.transAxes, va="top", fontsize=7,
                color="#444444")
        ax.set_title(title)
        ax.set_xlabel("nodes N")
        ax.set_ylabel("time, ns (median, 95 % CI of the median)")
    leg = style.legend_outside(fig, axes)
    fig.suptitle("Build / add / remove time vs number of nodes")
    return style.save_figure(fig, out, "build_vs_nodes", [e.meta], leg)


FIGURES = [
    ("build_vs_nodes", "Build, add-node and remove-node time vs N",
     fig_build),
]

# Subsections (heading prefixes) shown on the question's page only.
PAGE_ONLY = ("### Build vs the reference implementation",)

"""Build and update cost: build_ns, add_node_ns, remove_node_ns per
variant and N. bounded_load is measured with placed_keys placed, so its
add/remove include the replay of every placed key."""

import re

from report.common import (WITHIN_RUN, cell_note, filt, keys_per_node, mcell,
                           nearest_nodes, one, peers_in, ref_note, render,
                           summary_of, var_filter, variant_label, variants)

METRICS = [("build_ns", "build"), ("add_node_ns", "add node"),
           ("remove_node_ns", "remove node"),
           ("place_ns", "place a fresh key (per key)")]


def section(ctx):
    out = ["## Q2. How long do build and updates take?", ""]
    e = ctx.exps.get("build")
    if e is None:
        return "\n".join(out + ["_No `build` results yet._", ""])
    s = e.summary
    s = s[s["metric"].isin([m for m, _ in METRICS]) &
          ~s["algorithm"].isin(peers_in(ctx, "build"))]
    ns = nearest_nodes(s["nodes"], [100, 1000, 10000])
    out += ["ns per operation on an instance of N nodes (remove: jump "
            "removes the last node only). Lower is better. " + WITHIN_RUN]
    b = one(s[(s["algorithm"] == "bounded_load") & s["placed_keys"].notna()])
    if b is not None:
        out[-1] += (" bounded_load is measured with placed_keys placed "
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

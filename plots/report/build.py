"""Build and update cost: build_ns, add_node_ns, remove_node_ns per
variant and N. bounded_load is measured with placed_keys placed, so its
add/remove include the replay of every placed key."""

from report.common import (filt, keys_per_node, mcell, na_note,
                           nearest_nodes, one, ref_note, render, var_filter,
                           variant_label, variants)

METRICS = [("build_ns", "build"), ("add_node_ns", "add node"),
           ("remove_node_ns", "remove node"),
           ("place_ns", "place a fresh key (per key)")]


def section(ctx):
    out = ["## Q2. How long do build and updates take?", ""]
    e = ctx.exps.get("build")
    if e is None:
        return "\n".join(out + ["_No `build` results yet._", ""])
    s = e.summary
    s = s[s["metric"].isin([m for m, _ in METRICS])]
    ns = nearest_nodes(s["nodes"], [100, 1000, 10000])
    out += ["ns per operation on an instance of N nodes (remove: jump "
            "removes the last node only). Lower is better."]
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
                if (sv.empty or sv["median"].isna().all()) and \
                        na_note(e, algorithm=var["algorithm"], metric=m):
                    r.append(na_note(e, algorithm=var["algorithm"],
                                     metric=m))
                else:
                    r.append(mcell(ctx, "build", metric=m, nodes=n, **f))
            r.append(ctx.data_links("build"))
            rows.append(r)
    out += [render(ctx, ["algorithm", "operation"] +
                   [f"N={n}" for n in ns] + ["data"], rows), ""]
    return "\n".join(out)

"""Memory. Self-reported bytes per variant and N (deterministic: one
measurement, exact), heap bytes, bytes per node, and bounded_load's state
with placed keys (bytes per placed key)."""

from report.common import (filt, fmt_num, keys_per_node, mcell, med,
                           nearest_nodes, one, ref_note, render, var_filter,
                           variant_label, variants)
from report.questions import q


def section(ctx):
    out = [f"## {q('memory')}. How much memory?", ""]
    e = ctx.exps.get("memory")
    if e is None:
        return "\n".join(out + ["_No `memory` results yet._", ""])
    s = e.summary
    base = s[s["placed_keys"].isna()]
    mem = base[base["metric"] == "memory_bytes"]
    ns = nearest_nodes(mem["nodes"], [100, 1000, 10000])
    out += ["Self-reported bytes with no keys placed (deterministic: "
            "identical on every run); heap bytes from the counting "
            "allocator at the largest N beside it. Lower is better.", ""]
    out += ref_note(ctx)
    rows = []
    for var in variants(mem):
        f = var_filter(var)
        r = [variant_label(var)]
        for n in ns:
            r.append(mcell(ctx, "memory", metric="memory_bytes", nodes=n,
                           placed_keys=None, **f))
        r.append(mcell(ctx, "memory", metric="heap_bytes", nodes=ns[-1],
                       placed_keys=None, **f))
        r.append(mcell(ctx, "memory", metric="memory_bytes_per_node",
                       nodes=ns[-1], placed_keys=None, **f))
        r.append(ctx.data_links("memory"))
        rows.append(r)
    out += [render(ctx, ["algorithm"] + [f"bytes N={n}" for n in ns] +
                   [f"heap bytes N={ns[-1]}", f"bytes/node N={ns[-1]}",
                    "data"], rows), ""]
    out += baseline_note(mem, ns[-1])
    pk = s[s["placed_keys"].notna()]
    if not pk.empty:
        rows = []
        for var in variants(pk):
            f = var_filter(var)
            pv = filt(pk, **f)
            for n in sorted(pv["nodes"].dropna().unique()):
                r0 = one(filt(pv, nodes=n, metric="memory_bytes_per_key"))
                rows.append([variant_label(var), f"{n:g}",
                             fmt_num(r0["placed_keys"]) if r0 else "—",
                             keys_per_node(r0),
                             mcell(ctx, "memory", metric="memory_bytes",
                                   nodes=n, placed_keys=r0["placed_keys"]
                                   if r0 else None, **f),
                             mcell(ctx, "memory",
                                   metric="memory_bytes_per_key", nodes=n,
                                   **f),
                             ctx.data_links("memory")])
        out += ["Stateful algorithms with keys placed (bounded_load keeps "
                "one entry per placed key):", "",
                render(ctx, ["algorithm", "N", "placed keys", "per node",
                             "state bytes", "bytes per placed key", "data"],
                       rows), ""]
    return "\n".join(out)


def baseline_note(mem, n):
    """The per-node bookkeeping every algorithm shares (the smallest
    footprint at N) and how many algorithms stay within 1 % of it."""
    d = mem[(mem["nodes"] == n) & mem["median"].notna()]
    if d.empty:
        return []
    base = float(d["median"].min())
    at = sorted({variant_label(r) for _, r in d[d["median"] == base]
                 .iterrows()})
    near = sorted({variant_label(r) for _, r in d.iterrows()
                   if r["median"] - base <= 0.01 * base})
    return [f"Every algorithm keeps the same per-node bookkeeping (node "
            f"names and ids): at N = {n:g} the smallest footprint, "
            f"{fmt_num(base)} bytes ({fmt_num(base / n)} per node), is "
            f"{' and '.join(at)}, which hold nothing else; compare the "
            "bytes above it. Within 1 % of it: " + ", ".join(near)
            + ".", ""]


def least_memory_rows(s, n):
    """Summary rows of memory_bytes at N with no keys placed."""
    d = s[(s["metric"] == "memory_bytes") & (s["nodes"] == n) &
          s["placed_keys"].isna()]
    return [r.to_dict() for _, r in d.iterrows()]


__all__ = ["section", "least_memory_rows", "med"]


# ---------------------------------------------------------------------------
# figures: drawn by plots/make_figures.py and shown in this section; each
# entry of FIGURES is (stem, caption, drawing function)

import style  # noqa: E402
from report.draw import log_axes, need, plot_metric_vs_nodes  # noqa: E402


def fig_memory(exps, out):
    (e,) = need(exps, "memory")
    s = e.summary[e.summary["placed_keys"].isna()]
    fig, axes = style.new_figure(ncols=2)
    for ax, metric, lab in zip(axes[0], ("memory_bytes",
                                         "memory_bytes_per_node"),
                               ("memory, bytes", "memory per node, bytes")):
        if s[s["metric"] == metric].empty:
            ax.text(0.5, 0.5, f"no {metric} rows", transform=ax.transAxes,
                    ha="center")
            continue
        plot_metric_vs_nodes(ax, s, metric, yerr=False)
        log_axes(ax)
        ax.set_xlabel("nodes N")
        ax.set_ylabel(lab + " (self-reported)")
    axes[0][0].set_title("total")
    axes[0][1].set_title("per node")
    leg = style.legend_outside(fig, axes)
    fig.suptitle("Memory vs number of nodes (ring at several vnode counts)")
    return style.save_figure(fig, out, "memory_vs_nodes", [e.meta], leg)


FIGURES = [
    ("memory_vs_nodes", "Memory vs N (log-log; ring at several vnode "
     "counts)",
     fig_memory),
]

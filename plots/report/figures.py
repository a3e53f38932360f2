"""The figures section and the figure list (make_figures.py draws them)."""

import os

# Figures in report order: (stem, caption).
FIGURES = [
    ("lookup_vs_nodes", "Lookup time vs N (median, 95 % CI of the median; "
     "hollow = noisy)"),
    ("lookup_latency_vs_nodes", "Dependent-chain lookup latency vs N"),
    ("memory_vs_nodes", "Memory vs N (log-log; ring at several vnode "
     "counts)"),
    ("build_vs_nodes", "Build, add-node and remove-node time vs N"),
    ("disruption_vs_nodes", "Keys moved on add/remove vs N with the optimum "
     "and the excess"),
    ("disruption_multi", "Keys moved when removing 10/30/50 % of nodes "
     "(random vs LIFO)"),
    ("vnodes_balance", "Ring max/mean and min/mean vs vnodes (mean, 95 % "
     "band of repetitions, model expectation)"),
    ("balance_by_algorithm", "Load balance per algorithm"),
    ("hashes_balance", "Balance per hash × key set (max/mean)"),
    ("hashes_speed", "Hash cost per hash × key set"),
    ("bounded_load", "Bounded load: max/mean and disruption vs c"),
    ("weights_shares", "Weighted shares vs weight (ideal line)"),
    ("removal_lookup", "Lookup time after node failures vs the fraction "
     "removed, per removal order (median, 95 % CI of the median; hollow = "
     "noisy)"),
    ("removal_state", "Memory per node built and max/mean over the live "
     "nodes vs the fraction removed (random order; LIFO-only algorithms in "
     "LIFO order)"),
    ("pareto_lookup_balance", "Lookup time against max/mean: capacity and "
     "probes variants with the default variants, and the Pareto front"),
    ("presets_balance_moved", "Production presets and plain algorithms: "
     "max/mean load against keys moved on add over the optimum at N = 10 "
     "(mean over key-set seeds), and max/mean vs N"),
    ("cluster_timeline", "Cache cluster around a join and a death: hit "
     "ratio and database reads per time bucket per algorithm (mean over "
     "seeds), the control runs dotted, the event marked"),
    ("cluster_request_balance", "Hot keys: requests of the busiest server "
     "over the mean vs the Zipf exponent, per variant (mean over seeds, "
     "95 % CI of the mean; bounded_load's c dotted)"),
    ("cluster_stale_view", "Stale views: extra database reads and "
     "misrouted requests vs the stale fraction f (mean over seeds, 95 % CI "
     "of the mean)"),
    ("cluster_cascade_mean", "Cascades on equal servers sized for the "
     "mean load (cascade_mean): servers failed after one death vs the start "
     "utilization (mean load / capacity), one panel per algorithm, one line "
     "per variant (mean over seeds; band: the seeds' min–max; crosses: "
     "servers already over capacity before the death)"),
    ("cluster_cascade", "Cascades on servers sized for each algorithm's own "
     "busiest server (cascade): servers failed after one death vs the "
     "busiest server's start utilization, one panel per algorithm, one line "
     "per variant (mean over seeds; band: the seeds' min–max)"),
    ("seeds", "Seed articles' numbers vs our repetitions"),
]


def section(ctx):
    out = ["## Figures", ""]
    any_fig = False
    for stem, caption in FIGURES:
        p = os.path.join(ctx.figures_dir, stem + ".png")
        if os.path.isfile(p):
            any_fig = True
            svg = ctx.rel(os.path.join(ctx.figures_dir, stem + ".svg"))
            out += [f"### {caption}", "", f"![{caption}]({ctx.rel(p)})  ",
                    f"[SVG]({svg})", ""]
    if not any_fig:
        out += ["_No figures yet: run `make plots`._", ""]
    return "\n".join(out)

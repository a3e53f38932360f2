"""The figure list and the figures section. Each section module owns its
figures (FIGURES: stem, caption, drawing function; make_figures.py draws
them); this module collects them in report order."""

import os

from report import (balance, build, cluster, disruption, lookup, memory,
                    overprovision, presets, removal, seeds)

_OWNERS = [lookup, memory, build, disruption, balance, removal,
           overprovision, presets, cluster, seeds]
# Figures in report order: (stem, caption).
FIGURES = [(stem, caption) for m in _OWNERS for stem, caption, _ in m.FIGURES]
# stem -> drawing function (exps, out_dir) -> written paths.
DRAW = {stem: draw for m in _OWNERS for stem, _, draw in m.FIGURES}


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

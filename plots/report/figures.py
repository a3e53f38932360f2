"""The figure list. Each section module owns its figures (FIGURES: stem,
caption, drawing function; FIGURE_UNDER: the subsection a figure sits in)
and the report shows them inside the section (layout.place_figures); this
module collects them in report order for make_figures.py, the README
headline and the tests."""

import importlib

from report.questions import QUESTIONS

_OWNERS = [importlib.import_module("report." + n)
           for n in QUESTIONS + ("seeds",)]
# Figures in report order: (stem, caption).
FIGURES = [(stem, caption) for m in _OWNERS
           for stem, caption, _ in getattr(m, "FIGURES", ())]
# stem -> drawing function (exps, out_dir) -> written paths.
DRAW = {stem: draw for m in _OWNERS
        for stem, _, draw in getattr(m, "FIGURES", ())}
# stem -> the name of the section that owns it.
OWNER = {stem: m.__name__.split(".")[1] for m in _OWNERS
         for stem, _, _ in getattr(m, "FIGURES", ())}

"""chbench report: one module per section (plots/make_report.py drives it).

Modules: common (formatting, statistics labels, context, ranking), header,
guide (decision guide), the numbered questions in the order of
questions.QUESTIONS (lookup, build, memory, disruption, balance,
capabilities, removal: node failures, overprovision: capacity and probes,
presets: production presets vs the plain algorithms, cluster: a cache
cluster under change, replicas: replica sets under joins, failures and
zone losses, batching: single vs batched lookups), seeds, figures (the figure list, collected from the
sections), draw (shared drawing helpers), layout (REPORT.md against the
per-question pages, contents, tables without empty columns), headline
(README block).

build_report() assembles REPORT.md: title, summary (summary: which
algorithm for which use), contents, machine and runs,
how to read the tables, the decision guide, then each question's part for
a chooser (layout.main_part) with its figures, the seed articles; and one
page per question and for the seed articles with the whole section.
"""

import importlib
import os

import chdata
from report import guide, header, layout, seeds, summary
from report.common import STAT_LEGEND, Ctx
from report.questions import QUESTIONS


def make_context(args):
    exps = chdata.load_all(args.results, args.tier)
    ref = None
    ref_reg = None
    if getattr(args, "reference", None):
        ref = chdata.load_all(args.reference, args.tier)
        ref_reg = chdata.load_registry(args.reference)
    return Ctx(exps, args.out, args.figures,
               registry=chdata.load_registry(args.results), ref=ref,
               ref_registry=ref_reg, results=args.results,
               reference=getattr(args, "reference", None))


def section_modules():
    """[(name, module)]: the numbered questions in order, then seeds."""
    return [(n, importlib.import_module("report." + n)) for n in QUESTIONS] \
        + [("seeds", seeds)]


class Report:
    """REPORT.md's text, its pages ({file name: text}) and their
    directory, and the context they were computed from."""

    def __init__(self, text, pages, pages_dir, ctx):
        self.text = text
        self.pages = pages
        self.pages_dir = pages_dir
        self.ctx = ctx


def build_report(args):
    ctx = make_context(args)
    pages_dir = getattr(args, "pages", None) or \
        layout.default_pages_dir(args.out)
    report_dir = os.path.dirname(os.path.abspath(args.out))
    # Links are written relative to REPORT.md, then rebased for the pages.
    report_rel = os.path.basename(args.out)
    entries, body, pages = [], [], {}
    for anchor, title, text in header.parts(ctx, args):
        entries.append((anchor, title, None))
        body.append(layout.anchor_line(anchor) + "\n\n" + text)
    entries.append(("guide", "Decision guide", None))
    body.append(layout.anchor_line("guide") + "\n\n" + guide.section(ctx))
    for name, mod in section_modules():
        figs = [(stem, layout.figure_block(ctx, stem, caption))
                for stem, caption, _ in getattr(mod, "FIGURES", ())]
        text = layout.place_figures(
            mod.section(ctx), [(s, b) for s, b in figs if b],
            getattr(mod, "FIGURE_UNDER", {}))
        page_path = os.path.join(pages_dir, name + ".md")
        page_rel = ctx.rel(page_path)
        pages[name + ".md"] = layout.rebase_links(
            layout.page(text, report_rel, name, STAT_LEGEND), report_dir,
            pages_dir)
        main = layout.main_part(text, page_rel,
                                getattr(mod, "PAGE_ONLY", ()))
        entries.append((name, layout.blocks(text)[0].lstrip("#").strip(),
                        page_rel))
        body.append(layout.anchor_line(name) + "\n\n" + main)
    missing = [n for n in chdata.EXPERIMENTS if n not in ctx.exps]
    if missing:
        entries.append(("missing", "Missing experiments", None))
        body.append(layout.anchor_line("missing") + "\n\n"
                    "## Missing experiments\n\nNo results for: " +
                    ", ".join(f"`{m}`" for m in missing) + ".\n")
    parts = [header.title(ctx, args)]
    if not any(layout.figure_block(ctx, stem, caption)
               for _, mod in section_modules()
               for stem, caption, _ in getattr(mod, "FIGURES", ())):
        parts.append("_No figures yet: run `make plots`._\n")
    parts += [layout.anchor_line("summary") + "\n\n" + summary.section(ctx),
              layout.contents(entries)] + body
    text = layout.drop_empty_columns("\n".join(parts))
    pages = {k: layout.drop_empty_columns(v) for k, v in pages.items()}
    return Report(text, pages, pages_dir, ctx)


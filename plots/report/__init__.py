"""chbench report: one module per section (plots/make_report.py drives it).

Modules: common (formatting, statistics labels, context, ranking), header,
guide (decision guide), the numbered questions in the order of
questions.QUESTIONS (lookup, build, memory, disruption, balance,
capabilities, removal: node failures, overprovision: capacity and probes,
presets: production presets vs the plain algorithms, cluster: a cache
cluster under change), seeds, figures (the figure list, collected from the
sections), draw (shared drawing helpers), headline (README block).
build_report() assembles them in report order.
"""

import chdata
from report import (balance, build, capabilities, cluster, disruption,
                    figures, guide, header, lookup, memory, overprovision,
                    presets, removal, seeds)
from report.common import Ctx


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


def build_report(args):
    ctx = make_context(args)
    parts = [header.section(ctx, args), guide.section(ctx),
             lookup.section(ctx), build.section(ctx), memory.section(ctx),
             disruption.section(ctx), balance.section(ctx),
             capabilities.section(ctx), removal.section(ctx),
             overprovision.section(ctx), presets.section(ctx),
             cluster.section(ctx), seeds.section(ctx),
             figures.section(ctx)]
    missing = [n for n in chdata.EXPERIMENTS if n not in ctx.exps]
    if missing:
        parts.append("## Missing experiments\n\nNo results for: " +
                     ", ".join(f"`{m}`" for m in missing) + ".\n")
    return "\n".join(parts), ctx

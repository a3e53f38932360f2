"""The report's shape: what goes into REPORT.md and what into the
per-question pages beside it.

Each numbered question (report.questions) and the seed articles get a
page, <pages dir>/<name>.md (pages dir: report/ beside REPORT.md,
report-full/ beside REPORT-full.md): the whole section as its module wrote
it, with the section's figures placed in it. REPORT.md keeps, per question,
what a reader choosing an algorithm needs, and links the page:

  * the heading, the section's prose and its figures;
  * the tables of at most MAIN_TABLE_ROWS rows; a longer table stays on
    the page, and so does the paragraph or list right before it (its
    caption or legend) unless that is the section's or subsection's first
    paragraph (its description);
  * not the subsections a module lists in PAGE_ONLY (heading prefixes:
    e.g. the timed peers);
  * a closing line linking the page and naming what is only there.

Figures: a module's FIGURES (stem, caption, draw) are placed after the
first paragraph of the subsection whose heading starts with
FIGURE_UNDER[stem], else after the section's first paragraph; a figure
whose PNG is missing is left out.

Every table, in REPORT.md and on the pages, loses its columns whose body
cells are all empty ("", "—") or "n/a" (drop_empty_columns). Links on a
page are rewritten relative to the page (rebase_links).
"""

import os
import re

MAIN_TABLE_ROWS = 6
GENERATED = ("> **Generated file — do not edit by hand.** Produced by "
             "`plots/make_report.py`; rerun `make report` to refresh.")

# ---------------------------------------------------------------------------
# blocks: runs of non-empty lines


def blocks(text):
    """The blocks of a Markdown text: maximal runs of non-empty lines."""
    out, cur = [], []
    for ln in text.split("\n"):
        if ln.strip():
            cur.append(ln)
        elif cur:
            out.append("\n".join(cur))
            cur = []
    if cur:
        out.append("\n".join(cur))
    return out


def join_blocks(bs):
    return "\n\n".join(bs) + "\n"


def kind(b):
    """'h2', 'h3', 'table', 'list', 'figure' or 'para'."""
    if b.startswith("## "):
        return "h2"
    if b.startswith("### "):
        return "h3"
    if b.startswith("|"):
        return "table"
    if b.startswith("- ") or b.startswith("* "):
        return "list"
    if b.startswith("!["):
        return "figure"
    return "para"


def table_rows(b):
    """Body rows of a Markdown table block."""
    return max(0, len(b.split("\n")) - 2)


def _split_sub(bs):
    """(lead blocks, [(h3 block, blocks)]) of a section's blocks without its
    h2 heading."""
    lead, subs = [], []
    for b in bs:
        if kind(b) == "h3":
            subs.append((b, []))
        elif subs:
            subs[-1][1].append(b)
        else:
            lead.append(b)
    return lead, subs


# ---------------------------------------------------------------------------
# figures


def figure_block(ctx, stem, caption):
    """The Markdown of one figure (links relative to REPORT.md), or None
    when its PNG is missing."""
    png = os.path.join(ctx.figures_dir or "", stem + ".png")
    if not os.path.isfile(png):
        return None
    svg = os.path.join(ctx.figures_dir, stem + ".svg")
    return (f"![{caption}]({ctx.rel(png)})  \n"
            f"*Figure: {caption}.* [SVG]({ctx.rel(svg)})")


def place_figures(text, figs, under=None):
    """text with the figure blocks [(stem, block)] inserted: under the
    subsection whose heading starts with under[stem] (after its first
    block), else after the section's first block; several figures for one
    place keep their order. A prefix no heading matches falls back to the
    section's first block."""
    under = under or {}
    bs = blocks(text)
    if not bs:
        return text
    head, rest = bs[0], bs[1:]
    lead, subs = _split_sub(rest)
    at_lead, at_sub = [], {i: [] for i in range(len(subs))}
    for stem, blk in figs:
        pre = under.get(stem)
        hit = [i for i, (h, _) in enumerate(subs)
               if pre and h.startswith(pre)]
        (at_sub[hit[0]] if hit else at_lead).append(blk)
    out = [head] + lead[:1] + at_lead + lead[1:]
    for i, (h, sb) in enumerate(subs):
        out += [h] + sb[:1] + at_sub[i] + sb[1:]
    return join_blocks(out)


# ---------------------------------------------------------------------------
# REPORT.md's part of a section


def _keep(bs, first_is_description=True):
    """(kept blocks, moved tables): a table longer than MAIN_TABLE_ROWS
    moves to the page with the paragraph or list right before it, unless
    that is the first block (the description)."""
    keep = [True] * len(bs)
    moved = 0
    for i, b in enumerate(bs):
        if kind(b) == "table" and table_rows(b) > MAIN_TABLE_ROWS:
            keep[i] = False
            moved += 1
            j = i - 1
            if j >= (1 if first_is_description else 0) and \
                    kind(bs[j]) in ("para", "list") and keep[j]:
                keep[j] = False
    return [b for b, k in zip(bs, keep) if k], moved


def _title(h):
    return h.lstrip("#").strip()


def main_part(text, page_rel, page_only=()):
    """REPORT.md's part of a section (see the module comment); page_rel is
    the page's link from REPORT.md."""
    bs = blocks(text)
    if not bs:
        return text
    head, rest = bs[0], bs[1:]
    lead, subs = _split_sub(rest)
    out, moved = [head], 0
    kept, m = _keep(lead)
    out += kept
    moved += m
    only = []
    for h, sb in subs:
        if any(h.startswith(p) for p in page_only):
            only.append(_title(h))
            continue
        kept, m = _keep(sb)
        moved += m
        if kept:
            out += [h] + kept
        elif m:
            only.append(_title(h))
    what = []
    if moved:
        what.append(f"{moved} longer table" + ("s" if moved > 1 else ""))
    what += only
    if len(bs) > 1 and what:
        more = ("Only on [the page](" + page_rel + "): "
                + "; ".join(what) + ".")
    else:
        more = f"The section on its own page: [{page_rel}]({page_rel})."
    return join_blocks(out + [more])


# ---------------------------------------------------------------------------
# pages


LINK_RE = re.compile(r"(\]\()([^)\s]+)(\))")


def rebase_links(text, from_dir, to_dir):
    """Relative link targets of text (written from from_dir) rewritten to
    be relative to to_dir; absolute, anchor-only and URL targets stay."""
    def fix(m):
        t = m.group(2)
        if re.match(r"^([a-z]+:|#|/)", t):
            return m.group(0)
        path, frag = (t.split("#", 1) + [""])[:2]
        new = os.path.relpath(os.path.normpath(os.path.join(from_dir, path)),
                              to_dir).replace(os.sep, "/")
        return m.group(1) + new + ("#" + frag if frag else "") + m.group(3)
    return LINK_RE.sub(fix, text)


def page(text, report_rel, anchor, legend):
    """A question's page: its section with the headings one level up, the
    generated-file banner, a link back to the report and the legend."""
    out = []
    for ln in text.split("\n"):
        if ln.startswith("## ") or ln.startswith("### "):
            ln = ln[1:]
        out.append(ln)
    bs = blocks("\n".join(out))
    head = bs[0] if bs else "# ?"
    intro = [GENERATED,
             f"Part of the [chbench report]({report_rel}#{anchor}) (its "
             f"summary, runs and machine are there). {legend}"]
    return join_blocks([head] + intro + bs[1:])


def default_pages_dir(out_path):
    """report/ beside REPORT.md, report-full/ beside REPORT-full.md (the
    lower-cased file name without .md); <name>-pages/ for other names."""
    d = os.path.dirname(os.path.abspath(out_path))
    stem = os.path.basename(out_path)
    stem = stem[:-3] if stem.endswith(".md") else stem
    name = stem.lower() if stem.upper().startswith("REPORT") \
        else stem + "-pages"
    return os.path.join(d, name)


# ---------------------------------------------------------------------------
# tables


def _cells(line):
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def _empty(c):
    c = c.strip()
    return c in ("", "—", "-") or c.lower().startswith("n/a")


def drop_empty_columns(text):
    """Every Markdown table of text without its columns (but the first)
    whose body cells are all empty or n/a."""
    lines = text.split("\n")
    out, i = [], 0
    while i < len(lines):
        if not (lines[i].startswith("|") and i + 1 < len(lines) and
                re.match(r"^\|(\s*:?-+:?\s*\|)+\s*$", lines[i + 1])):
            out.append(lines[i])
            i += 1
            continue
        j = i + 2
        while j < len(lines) and lines[j].startswith("|"):
            j += 1
        rows = [_cells(ln) for ln in lines[i:j]]
        ncol = len(rows[0])
        body = rows[2:]
        keep = [k for k in range(ncol) if k == 0 or not body or
                not all(_empty(r[k]) if k < len(r) else True for r in body)]
        if len(keep) == ncol:
            out += lines[i:j]
        else:
            for r, ln in zip(rows, lines[i:j]):
                if r is rows[1]:
                    out.append("|" + "|".join("---" for _ in keep) + "|")
                else:
                    out.append("| " + " | ".join(r[k] if k < len(r) else ""
                                                 for k in keep) + " |")
        i = j
    return "\n".join(out)


def empty_columns(text):
    """[(table header, column)] of the all-empty columns left in text (the
    test's check)."""
    bad = []
    lines = text.split("\n")
    for i in range(len(lines) - 1):
        if lines[i].startswith("|") and re.match(
                r"^\|(\s*:?-+:?\s*\|)+\s*$", lines[i + 1]) and \
                (i == 0 or not lines[i - 1].startswith("|")):
            j = i + 2
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            head = _cells(lines[i])
            body = [_cells(ln) for ln in lines[i + 2:j]]
            for k in range(1, len(head)):
                if body and all(_empty(r[k]) if k < len(r) else True
                                for r in body):
                    bad.append((lines[i], head[k]))
    return bad


# ---------------------------------------------------------------------------
# contents


def anchor_line(name):
    return f'<a id="{name}"></a>'


def contents(entries):
    """The table of contents: entries [(anchor, title, page link or None)]."""
    out = ["## Contents", ""]
    for a, title, page_rel in entries:
        out.append(f"- [{title}](#{a})"
                   + (f" · [page]({page_rel})" if page_rel else ""))
    return "\n".join(out) + "\n"

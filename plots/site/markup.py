"""HTML for the site: the page frame, and the report's Markdown (summary,
decision guide, headline table) turned into HTML.

The Markdown is the subset plots/report writes: headings, paragraphs,
bullet lists (two-space nesting), pipe tables, **bold**, `code`,
[text](link) and the report's own anchors (<a id="..."></a>). Links to the
report's pages (<question>.md, REPORT*.md#<question>) become the site's
pages; other links (CSV files) stay relative to the site."""

import html
import os
import re

ANCHOR_RE = re.compile(r'<a id="([\w.-]+)"></a>')
INLINE_RE = re.compile(r"(\*\*(.+?)\*\*|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\))")


def esc(s):
    return html.escape(str(s), quote=True)


def site_link(target, pages):
    """A report link rewritten for the site: a question's page (or its
    REPORT.md anchor) -> <question>.html; other REPORT anchors ->
    index.html; anything else unchanged."""
    path, _, frag = target.partition("#")
    base = os.path.basename(path)
    stem = base[:-3] if base.endswith(".md") else None
    if stem in pages:
        return f"{stem}.html" + (f"#{frag}" if frag else "")
    if base.startswith("REPORT") and base.endswith(".md"):
        if frag in pages:
            return f"{frag}.html"
        return "index.html" + (f"#{frag}" if frag else "")
    return target


def inline(text, pages):
    out, pos = [], 0
    for m in INLINE_RE.finditer(text):
        out.append(_plain(text[pos:m.start()]))
        if m.group(2) is not None:
            out.append(f"<strong>{inline(m.group(2), pages)}</strong>")
        elif m.group(3) is not None:
            out.append(f"<code>{esc(m.group(3))}</code>")
        else:
            out.append(f'<a href="{esc(site_link(m.group(5), pages))}">'
                       f"{inline(m.group(4), pages)}</a>")
        pos = m.end()
    out.append(_plain(text[pos:]))
    return "".join(out)


def _plain(t):
    """Escaped text, the report's anchors kept."""
    out, pos = [], 0
    for m in ANCHOR_RE.finditer(t):
        out.append(esc(t[pos:m.start()]))
        out.append(f'<a id="{esc(m.group(1))}"></a>')
        pos = m.end()
    out.append(esc(t[pos:]))
    return "".join(out)


def split_row(line):
    """Cells of a pipe-table line (escaped pipes kept in the cell)."""
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    cells = re.split(r"(?<!\\)\|", s)
    return [c.strip().replace("\\|", "|") for c in cells]


def table_html(header, rows, pages, cls="", tid=None):
    attrs = (f' id="{esc(tid)}"' if tid else "") + \
        (f' class="{esc(cls)}"' if cls else "")
    out = [f"<table{attrs}><thead><tr>"]
    for j, h in enumerate(header):
        out.append(f'<th scope="col">{inline(h, pages)}</th>')
    out.append("</tr></thead><tbody>")
    for r in rows:
        out.append("<tr>" + "".join(f"<td>{inline(c, pages)}</td>"
                                    for c in r) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def markdown(text, pages, table_class=""):
    """HTML of the report's Markdown subset."""
    lines = text.splitlines()
    out, para, i = [], [], 0
    stack = []  # open list indents

    def flush():
        if para:
            out.append("<p>" + inline(" ".join(para), pages) + "</p>")
            para.clear()

    def close_lists(to=-1):
        while stack and stack[-1] > to:
            stack.pop()
            out.append("</li></ul>")

    while i < len(lines):
        line = lines[i]
        s = line.strip()
        if not s or s.startswith("<!--"):
            flush()
            i += 1
            continue
        m = re.match(r"^(#{1,6})\s+(.*)$", s)
        if m and not line.startswith(" "):
            flush()
            close_lists()
            lvl = min(6, len(m.group(1)) + 1)
            out.append(f"<h{lvl}>{inline(m.group(2), pages)}</h{lvl}>")
            i += 1
            continue
        if s.startswith("|"):
            flush()
            close_lists()
            block = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                block.append(lines[i])
                i += 1
            header = split_row(block[0])
            body = [split_row(b) for b in block[2:]] \
                if len(block) > 1 and re.match(r"^\|[\s:|-]+\|?$",
                                               block[1].strip()) \
                else [split_row(b) for b in block[1:]]
            out.append(table_html(header, body, pages, table_class))
            continue
        m = re.match(r"^(\s*)- (.*)$", line)
        if m:
            flush()
            ind = len(m.group(1))
            if stack and stack[-1] == ind:
                out.append("</li><li>")
            elif stack and ind < stack[-1]:
                close_lists(ind)
                if stack and stack[-1] == ind:
                    out.append("</li><li>")
                else:
                    stack.append(ind)
                    out.append("<ul><li>")
            else:
                stack.append(ind)
                out.append("<ul><li>")
            out.append(inline(m.group(2), pages))
            i += 1
            continue
        if stack:
            out.append(" " + inline(s, pages))
        else:
            para.append(s)
        i += 1
    flush()
    close_lists()
    return "\n".join(out)


def page(title, body, nav, current, data_scripts, scripts, meta_line):
    """A whole page: header with navigation, the body, the scripts (data
    files first: window.CHBENCH_* objects, read without fetch())."""
    links = "".join(
        f'<li><a href="{esc(f)}"'
        + (' aria-current="page"' if f == current else "")
        + f">{esc(t)}</a></li>" for f, t in nav)
    tags = "".join(f'<script src="{esc(s)}"></script>'
                   for s in data_scripts + scripts)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)} · chbench results</title>
<link rel="stylesheet" href="assets/site.css">
<link rel="icon" href="data:,">
</head>
<body>
<header><p class="brand"><a href="index.html">chbench results</a></p>
<nav aria-label="pages"><ul>{links}</ul></nav>
<p class="meta">{meta_line}</p></header>
<main id="main">
{body}
</main>
{tags}
</body>
</html>
"""

"""One visual style for every chbench figure.

Guarantees:
  * Algorithms appear in legends and tables in registry order (registry.json,
    read through chdata's algorithm catalogue); names the registry does not
    list follow, sorted.
  * Each algorithm always has the same colour, marker and line style in
    every figure: ALGORITHM_STYLE for the algorithms listed there, otherwise
    a style derived from a stable hash of the name over a colour-blind-safe
    spare palette (spare_style), so a new algorithm needs no edit here.
  * The Agg backend is selected before pyplot is imported (no display needed).
  * save_figure() writes PNG and SVG atomically (temporary file, then rename)
    and adds a footer naming the run id(s), date(s) and commit(s) the figure
    was drawn from.

Example:
    import style
    fig, ax = style.new_figure()
    ax.plot(x, y, **style.line_kw("ring"))
    style.save_figure(fig, out_dir, "lookup_vs_nodes", runs=[meta])
"""

import math
import os
import tempfile
import zlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after matplotlib.use)

import chdata  # noqa: E402  (the algorithm catalogue)

# Colour-blind-safe palette (Okabe & Ito 2008, "Color Universal Design") plus
# Tableau 10. Fixed: figures across runs rely on it. The algorithms drawn
# dashed stay apart from those drawn solid where hues are close.
ALGORITHM_STYLE = {
    "modulo": {"color": "#7f7f7f", "marker": "s"},
    "ring": {"color": "#0072B2", "marker": "o"},
    "rendezvous": {"color": "#E69F00", "marker": "^"},
    "jump": {"color": "#009E73", "marker": "D"},
    "maglev": {"color": "#CC79A7", "marker": "v"},
    "bounded_load": {"color": "#D55E00", "marker": "P"},
    "multiprobe": {"color": "#56B4E9", "marker": "X", "linestyle": "--"},
    "anchor": {"color": "#8c564b", "marker": "*", "linestyle": "--"},
    "memento": {"color": "#bcbd22", "marker": "h", "linestyle": "--"},
    "dx": {"color": "#17becf", "marker": "<", "linestyle": "--"},
    "jumpback": {"color": "#9467bd", "marker": ">", "linestyle": "--"},
    "flip": {"color": "#000000", "marker": "p", "linestyle": "--"},
    "power": {"color": "#e377c2", "marker": "d", "linestyle": "--"},
    "binomial": {"color": "#2ca02c", "marker": "8", "linestyle": "--"},
}
# Styles of algorithms not in ALGORITHM_STYLE: Paul Tol's colour-blind-safe
# "muted" scheme (pale grey left out), markers no listed algorithm uses, and
# a dash-dot line, so a derived style never equals a listed one.
SPARE_COLORS = ["#332288", "#88CCEE", "#44AA99", "#117733", "#999933",
                "#DDCC77", "#CC6677", "#882255", "#AA4499"]
SPARE_MARKERS = ["H", "1", "2", "3", "4", "+", "x"]
SPARE_LINESTYLE = "-."

# Reference lines (optimum, analytic expectation, article value).
IDEAL_KW = {"color": "black", "linestyle": "--", "linewidth": 1.2}
ANALYTIC_KW = {"color": "black", "linestyle": ":", "linewidth": 1.4}
ARTICLE_KW = {"color": "#C00000", "marker": "*", "markersize": 11,
              "linestyle": "none"}

FIGSIZE = (7.5, 4.6)
FIGSIZE_WIDE = (11.0, 4.6)
DPI = 130

matplotlib.rcParams.update({
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "grid.linewidth": 0.6,
    "lines.linewidth": 1.5,
    "lines.markersize": 5,
    "savefig.dpi": DPI,
    "svg.fonttype": "none",
    "svg.hashsalt": "chbench",  # deterministic SVG ids
})

def spare_style(name):
    """The derived style of an algorithm not in ALGORITHM_STYLE: colour and
    marker chosen by a stable hash (CRC-32) of the name, so the same name
    gets the same style in every figure, process and run."""
    h = zlib.crc32(name.encode("utf-8"))
    return {"color": SPARE_COLORS[h % len(SPARE_COLORS)],
            "marker": SPARE_MARKERS[(h // len(SPARE_COLORS)) %
                                    len(SPARE_MARKERS)],
            "linestyle": SPARE_LINESTYLE}


def algorithm_style(name):
    """Returns {'color', 'marker'[, 'linestyle']} for an algorithm name
    (stable)."""
    if name in ALGORITHM_STYLE:
        return ALGORITHM_STYLE[name]
    return spare_style(name)


def order_algorithms(names):
    """Sorts algorithm names: those in the catalogue in registry order, then
    the rest sorted by name."""
    names = list(dict.fromkeys(names))
    known = [a for a in chdata.algorithm_names() if a in names]
    rest = sorted(a for a in names if a not in set(known))
    return known + rest


def line_kw(name, **extra):
    """Keyword arguments for ax.plot / ax.errorbar for one algorithm."""
    s = algorithm_style(name)
    kw = {"color": s["color"], "marker": s["marker"], "label": name}
    if "linestyle" in s:
        kw["linestyle"] = s["linestyle"]
    kw.update(extra)
    return kw


def new_figure(ncols=1, nrows=1, wide=False, figsize=None, **kw):
    """A figure with consistent size; returns (fig, axes)."""
    if figsize is None:
        figsize = FIGSIZE_WIDE if (wide or ncols > 1) else FIGSIZE
    fig, axes = plt.subplots(nrows, ncols, figsize=figsize, squeeze=False,
                             **kw)
    return fig, axes


_REFERENCE_WORDS = {"optimum", "ideal", "analytic", "bound", "hash",
                    "article"}


def legend_outside(fig, axes, ncol=None, handles=None, labels=None):
    """One legend for the figure, below the axes, so it never hides data."""
    if handles is None:
        seen = {}
        for ax in list(axes.flat if hasattr(axes, "flat") else axes):
            h, l = ax.get_legend_handles_labels()
            for hh, ll in zip(h, l):
                if ll and not ll.startswith("_") and ll not in seen:
                    seen[ll] = hh
        # Algorithms first, reference lines (optimum, analytic, ...) last.
        labels = sorted(seen, key=lambda l: l.split(" ")[0].lower()
                        in _REFERENCE_WORDS)
        handles = [seen[l] for l in labels]
    if not handles:
        return None
    if ncol is None:
        rows = math.ceil(len(handles) / 6)
        ncol = math.ceil(len(handles) / rows)
    # Anchor just below the lowest axes artist (rotated tick labels too).
    y = _lowest_axes_y(fig) - 0.01
    return fig.legend(handles, labels, loc="upper center",
                      bbox_to_anchor=(0.5, y), ncol=ncol, frameon=False)


def _lowest_axes_y(fig, extra=()):
    """Lowest y (figure fraction) of the axes' tight boxes and `extra`."""
    fig.draw_without_rendering()
    r = fig.canvas.get_renderer()
    boxes = [ax.get_tightbbox(r) for ax in fig.axes]
    boxes += [a.get_window_extent(r) for a in extra]
    boxes = [b for b in boxes if b is not None]
    if not boxes:
        return 0.0
    ymin = min(b.y0 for b in boxes)
    return float(fig.transFigure.inverted().transform((0, ymin))[1])


def footer_text(runs):
    """'run <id> · <date> · commit <c>' for each run meta dict."""
    parts = []
    seen = set()
    for m in runs:
        if not m:
            continue
        rid = m.get("run_id", "?")
        if rid in seen:
            continue
        seen.add(rid)
        commit = str(m.get("git_commit") or m.get("commit") or "?")[:10]
        dirty = m.get("git_dirty", m.get("dirty"))
        if dirty in (True, "true", "True", 1, "1"):
            commit += "+dirty"
        date = str(m.get("date") or m.get("date_utc") or "?")
        exp = m.get("experiment", "")
        part = f"{exp} run {rid} · {date} · commit {commit}"
        sh = m.get("shards")
        if isinstance(sh, dict):
            n = len(sh.get("records") or [])
            part += f" · merged from {n} shards"
            if sh.get("timing_mixed_machines"):
                part += (" · TIMING FROM " +
                         str(len(sh.get("timing_hosts") or [])) +
                         " MACHINES: compare absolute times within one "
                         "timing group only")
        parts.append(part)
    return "chbench · " + ("; ".join(parts) if parts else "no run metadata")


def stack_labels(anchors, gap):
    """Heights for text labels, so that nearby ones do not overlap.

    anchors: (x, y, width) of each label in points, in placement order.
    Returns each label's y: its anchor's y, raised to gap above any earlier
    label that it would overlap (closer than gap vertically and overlapping
    horizontally). A label is only ever raised, and at most once per earlier
    label, so this ends; the test `y < qy + gap` (not `|y - qy| < gap` alone)
    matters where qy + gap - qy rounds below gap, which repeated the same
    raise forever.
    """
    placed = []
    heights = []
    for x, y, width in anchors:
        moved = True
        while moved:
            moved = False
            for qx, qy, qw in placed:
                if qy - gap < y < qy + gap and x < qx + qw and qx < x + width:
                    y = qy + gap
                    moved = True
        placed.append((x, y, width))
        heights.append(y)
    return heights


def atomic_savefig(fig, path, **kw):
    """fig.savefig to a temporary file in the same directory, then rename."""
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    ext = os.path.splitext(path)[1].lstrip(".")
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix="." + ext, dir=d)
    os.close(fd)
    try:
        fig.savefig(tmp, format=ext, **kw)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def save_figure(fig, out_dir, stem, runs=(), legend=None):
    """Adds the footer and writes <stem>.png and <stem>.svg atomically.

    Returns the list of written paths.
    """
    # Footer just below the lowest artist (tick labels or the legend).
    y = _lowest_axes_y(fig, [legend] if legend is not None else []) - 0.01
    fig.text(0.5, y, footer_text(runs), ha="center", va="top", fontsize=6.5,
             color="#555555")
    # The tight box (what bbox_inches="tight" computes, with the figure
    # legend and the footer), once for both formats: each "tight" save would
    # lay the figure out again.
    box = fig.get_tightbbox(fig.canvas.get_renderer()).padded(0.08)
    paths = []
    for ext in ("png", "svg"):
        p = os.path.join(out_dir, f"{stem}.{ext}")
        atomic_savefig(fig, p, bbox_inches=box,
                       metadata={"Date": None} if ext == "svg" else None)
        paths.append(p)
    plt.close(fig)
    return paths

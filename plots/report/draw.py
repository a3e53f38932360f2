"""Drawing helpers shared by the figures of the report sections (each
section module draws its own figures; plots/make_figures.py runs them).

Points are medians with the 95 % CI of the median as error bars or bands
(no bar where there is no interval: n < 6 or n_eff = 1); noisy cells are
drawn with hollow markers; the cluster figures draw means with the
Student-t 95 % interval of the mean (t_err). A figure raises Skip when its
data are missing (make_figures.py reports it and goes on).
"""

import style  # selects Agg before pyplot
from report import common as rc

plt = style.plt


class Skip(Exception):
    """Raised when a figure cannot be drawn for lack of data."""


def need(exps, *names):
    missing = [n for n in names if n not in exps]
    if missing:
        raise Skip("no results for experiment(s): " + ", ".join(missing))
    return [exps[n] for n in names]


def variant_style(var, all_vars, counts=None):
    """Line kwargs for an algorithm variant; several variants of one
    algorithm differ by line style and lightness. With counts (points per
    variant, same order as all_vars) the best-covered variant (the default
    parameters) gets the solid, full-colour line."""
    a = var["algorithm"]
    same = [v for v in all_vars if v["algorithm"] == a]
    if counts is not None:
        cnt = {id(v): c for v, c in zip(all_vars, counts)}
        same.sort(key=lambda v: -cnt.get(id(v), 0))
    kw = style.line_kw(a)
    kw["label"] = rc.variant_label(var) if len(same) > 1 else a
    if len(same) > 1:
        i = same.index(var)
        kw["linestyle"] = ["-", "--", ":", "-."][i % 4]
        kw["alpha"] = 1.0 - 0.5 * i / max(1, len(same) - 1)
    return kw


def ci_err(d):
    """[lower, upper] error-bar lengths from the median CI (0 where none)."""
    lo = (d["median"] - d["median_ci_low"]).clip(lower=0).fillna(0)
    hi = (d["median_ci_high"] - d["median"]).clip(lower=0).fillna(0)
    return [lo, hi]


def hollow_noisy(ax, d, kw, x="nodes", y="median"):
    """Redraws noisy points (summary noisy = 1) as hollow markers."""
    nz = d[d["noisy"].fillna(0) >= 1] if "noisy" in d.columns else d[:0]
    if nz.empty:
        return
    ax.plot(nz[x], nz[y], linestyle="none",
            marker=kw.get("marker", "o"), markersize=8,
            markerfacecolor="white", markeredgecolor=kw.get("color"),
            zorder=6)


def noisy_handle():
    from matplotlib.lines import Line2D
    return Line2D([], [], linestyle="none", marker="o", markersize=7,
                  markerfacecolor="white", markeredgecolor="black",
                  label="hollow: noisy cell")


def drop_peers(exps, s, name="lookup"):
    e = exps.get(name)
    if e is None:
        return s
    peers = set(e.data.loc[e.data["note"].str.startswith("peer of"),
                           "algorithm"])
    return s[~s["algorithm"].isin(peers)]


def plot_metric_vs_nodes(ax, s, metric, scenario=None, yerr=True,
                         label_vars=None):
    """One line per variant; label_vars: the variants of every panel of the
    figure (labels then agree between panels: "ring (v=100)" everywhere,
    not "ring" in the panel where it is the only ring variant)."""
    d = s[s["metric"] == metric]
    if scenario is not None:
        d = d[d["scenario"] == scenario]
    vars_ = rc.variants(d)
    if label_vars is not None:
        vars_ = [v for v in label_vars if not rc.match_variant(d, v).empty]
    counts = [rc.match_variant(d, v)["nodes"].nunique()
              for v in vars_]
    if label_vars is not None:
        allc = [rc.match_variant(s[s["metric"] == metric], v)["nodes"]
                .nunique() for v in label_vars]
        vars_all, counts_all = label_vars, allc
    else:
        vars_all, counts_all = vars_, counts
    for var in vars_:
        dv = rc.match_variant(d, var).sort_values("nodes")
        dv = dv[dv["median"].notna()]
        if dv.empty:
            continue
        kw = variant_style(var, vars_all, counts_all)
        if yerr and dv["median_ci_low"].notna().any():
            ax.errorbar(dv["nodes"], dv["median"], yerr=ci_err(dv),
                        capsize=2, **kw)
        else:
            ax.plot(dv["nodes"], dv["median"], **kw)
        hollow_noisy(ax, dv, kw)
    return vars_


def merged_legend(axes_row):
    """Handles and labels of every panel in `axes_row`, each label once, and
    the hollow-marker entry for noisy cells last."""
    handles, labels = [], []
    for ax in axes_row:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    handles.append(noisy_handle())
    labels.append(handles[-1].get_label())
    return handles, labels


def log_axes(ax, x=True, y=True):
    if x:
        ax.set_xscale("log")
    if y:
        ax.set_yscale("log")


def place_labels(ax, pts, fontsize=6, gap=7.5):
    """Annotates each point with its label, shifting labels up (in points)
    so that labels of nearby points do not overlap (greedy, by y)."""
    fig = ax.figure
    fig.canvas.draw()
    to_pt = 72.0 / fig.dpi
    disp = [(ax.transData.transform((p["x"], p["y"])), p) for p in pts]
    disp.sort(key=lambda t: (t[0][1], t[0][0]))
    labels = [p["label"] + ("" if p["source"] == "overprovision"
                            else " (default)") for _, p in disp]
    heights = style.stack_labels(
        [(xd * to_pt, yd * to_pt + 3, 0.55 * fontsize * len(lab))
         for ((xd, yd), _), lab in zip(disp, labels)], gap)
    for ((xd, yd), p), lab, y_pt in zip(disp, labels, heights):
        dy = y_pt - yd * to_pt
        ax.annotate(lab, (p["x"], p["y"]), textcoords="offset points",
                    xytext=(4, dy), fontsize=fontsize,
                    fontweight="bold" if p["front"] else "normal",
                    arrowprops=dict(arrowstyle="-", color="#999999",
                                    linewidth=0.4) if dy > 6 else None)


def t_err(d):
    """[lower, upper] error-bar lengths from the Student-t interval of the
    mean (0 where none: n = 1)."""
    lo = (d["mean"] - d["mean_ci_low"]).clip(lower=0).fillna(0)
    hi = (d["mean_ci_high"] - d["mean"]).clip(lower=0).fillna(0)
    return [lo, hi]


def med_err(r, v=None):
    """[[lower], [upper]] error-bar lengths from a summary row's interval
    (common.interval: the median's 95 % CI, or min–max of 2–5
    repetitions), or None."""
    iv = rc.interval(r, False) if r is not None else None
    if iv is None:
        return None
    v = float(r["median"]) if v is None else v
    return [[max(0, v - iv[0])], [max(0, iv[1] - v)]]

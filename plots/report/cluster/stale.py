"""c. Stale views (scenario stale_view): extra reads and misrouted requests
against the stale fraction f, with a least-squares slope and a
monotonicity check per algorithm."""

import math

from report.common import fmt_num, md_table, mean_of, variants
from report.cluster.base import (_cache_text, cell, fmtm, fnum, labels, _reps,
                                 sep_text, separate, _signed, _sim_block,
                                 var_key)
from report.questions import q


def _fit(xs, ys):
    """(slope, intercept, r2) of a least-squares line; NaN when < 2
    points or no spread in x."""
    n = len(xs)
    if n < 2:
        return float("nan"), float("nan"), float("nan")
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return float("nan"), float("nan"), float("nan")
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    b = sxy / sxx
    a = my - b * mx
    syy = sum((y - my) ** 2 for y in ys)
    r2 = 1.0 - sum((y - a - b * x) ** 2 for x, y in zip(xs, ys)) / syy \
        if syy > 0 else 1.0
    return b, a, r2


def _monotone(ys):
    """'increasing', 'decreasing', 'constant' or 'not monotone'."""
    if len(ys) < 2:
        return "—"
    dif = [b - a for a, b in zip(ys, ys[1:])]
    if all(x == 0 for x in dif):
        return "constant"
    if all(x >= 0 for x in dif):
        return "increasing"
    if all(x <= 0 for x in dif):
        return "decreasing"
    return "not monotone"


def stale_findings(e):
    d, n = _sim_block(e, "stale_view")
    if d is None:
        return None
    fs = sorted(float(x) for x in d["stale_fraction"].dropna().unique())
    vars_ = variants(d)
    lab = labels(vars_)
    out = {"n": n, "fs": fs, "rows": d, "vars": vars_, "labels": lab,
           "reps": _reps(d[d["metric"] == "extra_db_reads"]), "per": [],
           "cache": d["cache_items"].iloc[0], "keys": d["keys"].iloc[0],
           "requests": d["requests"].iloc[0]}
    for v in vars_:
        pts = []
        for f in fs:
            x = cell(d, v, "extra_db_reads", stale_fraction=f)
            m = cell(d, v, "misrouted_requests", stale_fraction=f)
            if x is None or math.isnan(mean_of(x)):
                continue
            pts.append((f, x, m))
        if len(pts) < 1:
            continue
        ex = [mean_of(x) for _, x, _ in pts]
        mi = [mean_of(m) for _, _, m in pts]
        fx = [f for f, _, _ in pts]
        first, last = pts[0], pts[-1]
        out["per"].append({
            "label": lab[var_key(v)], "var": v, "fs": fx,
            "extra_first": first[1], "extra_last": last[1],
            "extra_change": ex[-1] - ex[0],
            "extra_separate": separate(e.data, first[1], last[1],
                                       free=("stale_fraction",)),
            "extra_slope": _fit(fx, ex)[0],
            "extra_trend": _monotone(ex),
            "mis_fit": _fit(fx, mi) if not any(math.isnan(x) for x in mi)
            else (float("nan"),) * 3,
            "mis_trend": _monotone(mi),
            "mis_change": (mi[-1] - mi[0]) if mi else float("nan")})
    return out


def _stale_table(sf):
    d = sf["rows"]
    head = ["algorithm", "stale fraction f", "extra db reads",
            "misrouted requests", "post-event hit ratio"]
    rows = []
    for v in sf["vars"]:
        for f in sf["fs"]:
            if cell(d, v, "extra_db_reads", stale_fraction=f) is None:
                continue
            rows.append([sf["labels"][var_key(v)], f"{f:g}",
                         fmtm(cell(d, v, "extra_db_reads",
                                   stale_fraction=f)),
                         fmtm(cell(d, v, "misrouted_requests",
                                   stale_fraction=f)),
                         fmtm(cell(d, v, "post_hit_ratio",
                                   stale_fraction=f), "sci")])
    return md_table(head, rows)


def _stale_prose(sf):
    out = []
    if len(sf["fs"]) < 2:
        out.append("One stale fraction only: no trend to compute.")
        return out
    for p in sf["per"]:
        if len(p["fs"]) < 2:
            continue
        b, _, r2 = p["mis_fit"]
        ratio = (p["extra_change"] / p["mis_change"]
                 if p["mis_change"] and not math.isnan(p["mis_change"])
                 else float("nan"))
        out.append(
            f"**{p['label']}**: misrouted requests {p['mis_trend']} in f "
            f"(least-squares slope {fnum(b)} per unit f, R² = "
            f"{r2:.3f}); extra reads {p['extra_trend']} in f, from "
            f"{fmtm(p['extra_first'])} at f = {p['fs'][0]:g} to "
            f"{fmtm(p['extra_last'])} at f = {p['fs'][-1]:g} "
            f"({_signed(p['extra_change'])}, "
            + sep_text(p["extra_separate"]) + ")"
            + (f", {ratio:.2g} extra reads per misrouted request".replace(
                "-", "−")
               if not math.isnan(ratio) else "") + ".")
    return out


def subsection(f, cite):
    """The subsection's lines (c)."""
    out = []
    st = f["stale"]
    if st:
        out += [f"### {q('cluster', 'c')}. Stale views after a join (N = "
                f"{st['n']})", "",
                "A fraction f of the clients keeps the old view for a tenth "
                "of the run after the join: their requests for moved keys "
                "go to the old server (misrouted). Mode sim, "
                f"{fmt_num(st['keys'])} keys, {fmt_num(st['requests'])} "
                "requests, " + _cache_text(st["cache"]).split(" (")[0]
                + ". In this read-only cache-aside model the old server "
                "still holds its copies, so a stale client hits them (no "
                "database read). Two effects on the extra reads: a moved "
                "key requested during the window only by stale clients is "
                "refetched on the new server later, at its first request "
                "from an up-to-date client, or never within the run (fewer "
                "extra reads); a key new to the cache that a stale client "
                "fetches onto the old server misses again on the new "
                "server once it switches (more extra reads). "
                f"{st['reps'][:1].upper()}{st['reps'][1:]}. "
                + cite, "", _stale_table(st), "",
                " ".join(_stale_prose(st)), ""]
    return out


# ---------------------------------------------------------------------------
# figures: drawn by plots/make_figures.py and shown in this section; each
# entry of FIGURES is (stem, caption, drawing function)

import style  # noqa: E402
from report import cluster as rcl  # noqa: E402
from report import common as rc  # noqa: E402
from report.draw import Skip  # noqa: E402
from report.draw import t_err as _t_err  # noqa: E402
from report.cluster.base import _cl_style, _cluster  # noqa: E402


def fig_cluster_stale_view(exps, out):
    """Extra database reads (left) and misrouted requests (right) against
    the stale fraction f, one line per algorithm (mean over seeds,
    Student-t 95 % CI of the mean)."""
    e = _cluster(exps)
    sf = rcl.stale_findings(e)
    if sf is None:
        raise Skip("no stale_view rows")
    d = sf["rows"]
    fig, axes = style.new_figure(ncols=2)
    drawn = False
    for ax, m, yl in ((axes[0][0], "extra_db_reads",
                       "extra database reads (run − control)"),
                      (axes[0][1], "misrouted_requests",
                       "misrouted requests over the run")):
        dm = d[d["metric"] == m]
        for var in sf["vars"]:
            dv = rc.match_variant(dm, var).sort_values("stale_fraction")
            dv = dv[dv["mean"].notna()]
            if dv.empty:
                continue
            drawn = True
            ax.errorbar(dv["stale_fraction"], dv["mean"], yerr=_t_err(dv),
                        capsize=2, **_cl_style(var, sf["vars"],
                                               sf["labels"]))
        ax.set_xlabel("stale fraction f of the clients")
        ax.set_ylabel(yl + " (mean over seeds)")
    if not drawn:
        raise Skip("no stale_view values")
    axes[0][0].axhline(0, color="black", linewidth=0.6)
    leg = style.legend_outside(fig, axes)
    fig.suptitle(f"Stale views after a join (N = {sf['n']}): extra reads "
                 "and misrouted requests vs f (95 % CI of the mean)")
    return style.save_figure(fig, out, "cluster_stale_view", [e.meta], leg)


FIGURES = [
    ("cluster_stale_view", "Stale views: extra database reads and "
     "misrouted requests vs the stale fraction f (mean over seeds, 95 % CI "
     "of the mean)",
     fig_cluster_stale_view),
]

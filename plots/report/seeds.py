"""Seed articles: their numbers beside our distribution.

For each claim the article's value is placed in the distribution of our
repetitions: the empirical percentile (share of our repetitions below it,
ties counted half) and z = (article − our mean) / our sample sd. "inside"
= the article's value lies within the central 95 % of our repetitions
(chdata.quantile_band: the 2.5th to the 97.5th percentile, the band the
seeds figure draws), otherwise "outside": no normal model is assumed,
which maxima and bounded fractions do not follow. Prose appears only where
it is a fact about the article (ARTICLE_FACTS), never as an explanation of
a difference.
"""

import math

import chdata
from report.article import MODULO, RING
from report.common import (Cell, fmt_med, fmt_value, md_table, isnan,
                           render, ref_note)

# The articles (cited by these ids in results/README.md "Seed articles").
# Titles as stated in each article; none states an author or a date.
SEED_ARTICLES = {
    "000": dict(title="Консистентное хеширование", language="Russian",
                id="000_cf5c8a2d7f8c2061"),
    "002": dict(title="Consistent hashing", language="English",
                id="002_d37a63fc9e1a41ab"),
    "003": dict(title="Concevoir le hachage cohérent : anneaux, nœuds "
                "virtuels et remappage minimal", language="French",
                id="003_4334950187aebf74"),
}

# ---------------------------------------------------------------------------
# Seed claims: THE mapping from the articles' numbers to rows of the `seeds`
# experiment (experiments/seeds.toml: scenario = "<claim>.<operation>",
# operation = add | remove_random for disruption blocks, measured for
# balance blocks). A claim row matches data rows with this scenario, metric
# and algorithm and, for the ring, vnodes = setting["vnodes"]. One row per
# number; rows sharing `id` form one claim. `setting` documents the
# article's configuration (and drives the fake data generator). `fmt`:
# "pct" shows fractions as %, "x" ratios, "int" counts. `source`: the
# article (SEED_ARTICLES); 002 is the English version of 000.
SEED_CLAIMS = [
    dict(id="C1", label="hash mod N, 4 → 5 servers: keys moved",
         scenario="pages_4to5.add", algorithm=MODULO,
         metric="moved_fraction", article=0.808, fmt="pct", source="002",
         setting=dict(nodes=4, vnodes=None, keys=8966)),
    dict(id="C2", label="ring, 4 → 5 servers: keys moved (≈ 20 %)",
         scenario="pages_4to5.add", algorithm=RING,
         metric="moved_fraction", article=0.20, fmt="pct", source="002",
         setting=dict(nodes=4, vnodes=100, keys=8966)),
    dict(id="C3", label="hash mod N, 10 → 11 nodes: keys moved",
         scenario="keys200k_10to11.add", algorithm=MODULO,
         metric="moved_fraction", article=0.907, fmt="pct", source="003",
         setting=dict(nodes=10, vnodes=None, keys=200000)),
    dict(id="C3", label="ring 200 vnodes, 10 → 11 nodes: keys moved",
         scenario="keys200k_10to11.add", algorithm=RING,
         metric="moved_fraction", article=0.090, fmt="pct", source="003",
         setting=dict(nodes=10, vnodes=200, keys=200000)),
    dict(id="C4", label="10 nodes, 1 vnode: max/mean",
         scenario="ring_balance_10nodes.measured",
         algorithm=RING,
         metric="load_max_over_mean", article=2.30, fmt="x", source="003",
         setting=dict(nodes=10, vnodes=1, keys=200000)),
    dict(id="C4", label="10 nodes, 1 vnode: min/mean",
         scenario="ring_balance_10nodes.measured",
         algorithm=RING,
         metric="load_min_over_mean", article=0.12, fmt="x", source="003",
         setting=dict(nodes=10, vnodes=1, keys=200000)),
    dict(id="C4", label="10 nodes, 10 vnodes: max/mean",
         scenario="ring_balance_10nodes.measured",
         algorithm=RING,
         metric="load_max_over_mean", article=1.46, fmt="x", source="003",
         setting=dict(nodes=10, vnodes=10, keys=200000)),
    dict(id="C4", label="10 nodes, 10 vnodes: min/mean",
         scenario="ring_balance_10nodes.measured",
         algorithm=RING,
         metric="load_min_over_mean", article=0.69, fmt="x", source="003",
         setting=dict(nodes=10, vnodes=10, keys=200000)),
    dict(id="C4", label="10 nodes, 200 vnodes: max/mean",
         scenario="ring_balance_10nodes.measured",
         algorithm=RING,
         metric="load_max_over_mean", article=1.11, fmt="x", source="003",
         setting=dict(nodes=10, vnodes=200, keys=200000)),
    dict(id="C4", label="10 nodes, 200 vnodes: min/mean",
         scenario="ring_balance_10nodes.measured",
         algorithm=RING,
         metric="load_min_over_mean", article=0.92, fmt="x", source="003",
         setting=dict(nodes=10, vnodes=200, keys=200000)),
    dict(id="C5", label="5 servers, 100 vnodes, 8966 keys: busiest "
         "(fair 1793)", scenario="pages_5nodes_100vnodes.measured",
         algorithm=RING,
         metric="load_max", article=1848, fmt="int", source="002",
         setting=dict(nodes=5, vnodes=100, keys=8966)),
    dict(id="C5", label="5 servers, 100 vnodes, 8966 keys: least loaded "
         "(fair 1793)", scenario="pages_5nodes_100vnodes.measured",
         algorithm=RING,
         metric="load_min", article=1682, fmt="int", source="002",
         setting=dict(nodes=5, vnodes=100, keys=8966)),
    dict(id="C6", label="ring 1 vnode, 4 → 5 servers: keys moved",
         scenario="pages_1vnode_4to5.add", algorithm=RING,
         metric="moved_fraction", article=0.08, fmt="pct", source="002",
         setting=dict(nodes=4, vnodes=1, keys=8966)),
    dict(id="C6", label="ring 1 vnode, 4 → 5 servers: busiest server "
         "after (fair 1793)", scenario="pages_1vnode_4to5.add", algorithm=RING,
         metric="load_max", article=3519, fmt="int", source="002",
         setting=dict(nodes=4, vnodes=1, keys=8966)),
    dict(id="C7", label="remove 1 of 5 servers, 1 vnode: servers that "
         "receive its keys", scenario="receivers_5nodes.remove_random",
         algorithm=RING,
         metric="receivers", article=1, fmt="int", source="002",
         setting=dict(nodes=5, vnodes=1, keys=8966)),
    dict(id="C7", label="remove 1 of 5 servers, 100 vnodes: servers that "
         "receive its keys (all 4)", scenario="receivers_5nodes.remove_random",
         algorithm=RING, metric="receivers", article=4, fmt="int",
         source="002", setting=dict(nodes=5, vnodes=100, keys=8966)),
]


# Facts about the article (not explanations of a difference).
ARTICLE_FACTS = {
    "C1": "article: 8966 legost.in page URLs (not available; ours: the "
          "`url` key set)",
    "C2": "article: 8966 legost.in page URLs (not available); \"about "
          "twenty percent\"",
    "C3": "article: 200 000 keys of its own, one measurement",
    "C4": "article: 200 000 keys, one layout per vnode count",
    "C5": "article: 8966 legost.in page URLs (not available), one layout",
    "C6": "article: 8966 legost.in page URLs (not available), one layout",
    "C7": "article: statement about its demo, one layout",
}

BAND = (0.025, 0.975)   # the central 95 % of our repetitions


def _filter(df, cl):
    if cl.get("algorithm") and (df["algorithm"] != "").any():
        df = df[df["algorithm"] == cl["algorithm"]]
    v = cl["setting"].get("vnodes")
    if cl.get("algorithm") == RING and v is not None and \
            df["vnodes"].notna().any():
        df = df[df["vnodes"] == v]
    return df


def position(values, article):
    """(mean, sd, z, percentile) of `article` among `values`."""
    v = [float(x) for x in values]
    n = len(v)
    nan = float("nan")
    if n == 0:
        return nan, nan, nan, nan
    mean = sum(v) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in v) / (n - 1)) if n > 1 \
        else nan
    if n > 1 and sd > 0:
        z = (article - mean) / sd
    elif n > 1:
        z = 0.0 if article == mean else math.copysign(math.inf,
                                                      article - mean)
    else:
        z = nan
    below = sum(1 for x in v if x < article) + \
        0.5 * sum(1 for x in v if x == article)
    return mean, sd, z, 100.0 * below / n


def seed_rows(exps):
    """One dict per SEED_CLAIMS entry with our numbers (NaN if missing)."""
    e = (exps or {}).get("seeds")
    out = []
    for cl in SEED_CLAIMS:
        r = dict(cl)
        r.update(row=None, n=0, found=False, mean=float("nan"),
                 sd=float("nan"), z=float("nan"), pct=float("nan"),
                 median=float("nan"), band_lo=float("nan"),
                 band_hi=float("nan"))
        if e is not None:
            d = e.data[(e.data["scenario"] == cl["scenario"]) &
                       (e.data["metric"] == cl["metric"]) &
                       e.data["value"].notna()]
            s = e.summary[(e.summary["scenario"] == cl["scenario"]) &
                          (e.summary["metric"] == cl["metric"])]
            d, s = _filter(d, cl), _filter(s, cl)
            if not d.empty:
                vals = d["value"].astype(float)
                r["n"] = int(len(vals))
                r["median"] = float(vals.median())
                r["mean"], r["sd"], r["z"], r["pct"] = position(
                    vals, cl["article"])
                r["band_lo"], r["band_hi"] = chdata.quantile_band(
                    vals, *BAND)
                r["row"] = s.iloc[0].to_dict() if not s.empty else None
                r["found"] = True
        r["outside"] = bool(r["found"] and not (
            r["band_lo"] <= cl["article"] <= r["band_hi"]))
        out.append(r)
    return out


def _fmt_z(z):
    if isnan(z):
        return "—"
    if math.isinf(z):
        return ("+∞" if z > 0 else "−∞") + " (our runs have no spread)"
    return f"{z:+.2f}"


def section(ctx):
    out = ["## Seed articles: reproductions", ""]
    e = ctx.exps.get("seeds")
    out += ["Each article number beside our median over repetitions with "
            "its 95 % CI, the central 95 % of our repetitions (2.5th–97.5th "
            "percentile), and the article value's position in our "
            "distribution: the percentile of our repetitions below it and "
            "z = (article − mean) / sd. The article's value is **outside** "
            "when it is not within the central 95 % of our repetitions (the "
            "band of the seeds figure); no normal model is assumed. Hash "
            "md5 as in the articles. Articles: "
            + "; ".join(f"{k} = \"{a['title']}\" ({a['language']})"
                        for k, a in SEED_ARTICLES.items())
            + " — cited in results/README.md.", ""]
    out += ref_note(ctx)
    if e is None:
        out += ["_No `seeds` results yet; the table lists the claims._", ""]
    rows = []
    ref_rows = seed_rows(ctx.ref) if ctx.has_ref else None
    for i, r in enumerate(seed_rows(ctx.exps)):
        k = r["fmt"]
        if r["found"]:
            ours = fmt_med(r["row"], k, timing=False) if r["row"] else \
                fmt_value(r["median"], k)
            ms = f"{fmt_value(r['band_lo'], k)}–" \
                f"{fmt_value(r['band_hi'], k)}"
            pos = f"{r['pct']:.0f} % of runs below, z {_fmt_z(r['z'])}"
            flag = "**outside**" if r["outside"] else "inside"
        else:
            ours = ms = pos = "—"
            flag = (f"not measured (no rows with scenario "
                    f"`{r['scenario']}`, metric `{r['metric']}`)")
        row = [r["id"], r["label"], f"`{r['scenario']}`",
               fmt_value(r["article"], k), ours, ms, str(r["n"]), pos, flag]
        if ref_rows is not None:
            rr = ref_rows[i]
            row.append(f"{rr['pct']:.0f} % below, "
                       f"{'outside' if rr['outside'] else 'inside'}"
                       if rr["found"] else "—")
        row += [ARTICLE_FACTS.get(r["id"], ""),
                r["source"], ctx.csv_link("seeds") if e is not None else ""]
        rows.append(row)
    header = ["claim", "article says", "scenario", "article",
              "ours: median [95 % CI]", "ours: central 95 % of runs",
              "runs", "article's position", "article vs ours"]
    if ref_rows is not None:
        header.append("position · ref")
    header += ["about the article", "source", "data"]
    out += [md_table(header, rows), ""]
    return "\n".join(out)


# ---------------------------------------------------------------------------
# figures: drawn by plots/make_figures.py and shown in this section; each
# entry of FIGURES is (stem, caption, drawing function)

from matplotlib.ticker import FuncFormatter  # noqa: E402

import style  # noqa: E402
from report import common as rc  # noqa: E402
from report import seeds as rseeds  # noqa: E402
from report.draw import Skip, need  # noqa: E402


def fig_seeds(exps, out):
    (e,) = need(exps, "seeds")
    rows = rseeds.seed_rows(exps)
    rows = [r for r in rows if r["found"]]
    for r in rows:
        # r["band_lo"], r["band_hi"]: the central 95 % of the repetitions,
        # the band the table's inside/outside is judged on (seed_rows)
        row = r["row"] or {}
        r["ci_lo"] = float(row.get("median_ci_low", float("nan")))
        r["ci_hi"] = float(row.get("median_ci_high", float("nan")))
    if not rows:
        raise Skip("no seed scenarios matched SEED_CLAIMS")
    fig, axes = style.new_figure(nrows=len(rows),
                                 figsize=(8, 0.75 * len(rows) + 0.8))
    fig.subplots_adjust(hspace=1.6, top=1 - 0.45 / (0.75 * len(rows) + 0.8))
    col = style.algorithm_style(RING)["color"]
    for ax, r in zip(axes[:, 0], rows):
        k = r["fmt"]
        scale = 100.0 if k == "pct" else 1.0
        ax.hlines(0, r["band_lo"] * scale, r["band_hi"] * scale, color=col,
                  alpha=0.35, linewidth=7)
        if not math.isnan(r["ci_lo"]):
            ax.hlines(0, r["ci_lo"] * scale, r["ci_hi"] * scale, color=col,
                      linewidth=2.5)
        ax.plot([r["median"] * scale], [0], "o", color=col, markersize=5)
        ax.plot([r["article"] * scale], [0], **style.ARTICLE_KW)
        lo = min(r["band_lo"], r["article"]) * scale
        hi = max(r["band_hi"], r["article"]) * scale
        pad = (hi - lo) * 0.15 or max(abs(hi) * 0.05, 0.5)
        ax.set_xlim(lo - pad, hi + pad)
        ax.set_ylim(-1, 1)
        ax.set_yticks([])
        ax.grid(False, axis="y")
        ax.tick_params(axis="x", labelsize=7, pad=1)
        unit = {"pct": " %", "x": "×", "int": ""}[k]
        ax.xaxis.set_major_formatter(FuncFormatter(
            lambda v, _, u=unit: f"{v:g}{u}"))
        zt = "" if math.isnan(r["pct"]) else \
            f", {r['pct']:.0f} % of ours below"
        ax.set_title(f"{r['id']} · {r['label']} — article "
                     f"{rc.fmt_value(r['article'], k)}, ours "
                     f"{rc.fmt_value(r['median'], k)}{zt}"
                     + (" (outside)" if r["outside"] else ""),
                     loc="left", fontsize=8, pad=3)
        for sp in ("top", "right", "left"):
            ax.spines[sp].set_visible(False)
    from matplotlib.lines import Line2D
    handles = [Line2D([], [], color=col, linewidth=7, alpha=0.35,
                      label="ours: central 95 % of repetitions"),
               Line2D([], [], color=col, linewidth=2.5,
                      label="ours: 95 % CI of the median"),
               Line2D([], [], color=col, marker="o", linestyle="none",
                      label="ours: median"),
               Line2D([], [], label="article value", **style.ARTICLE_KW)]
    leg = style.legend_outside(fig, axes, ncol=4, handles=handles,
                               labels=[h.get_label() for h in handles])
    fig.suptitle("Seed articles' numbers vs our measurements", y=1.0)
    return style.save_figure(fig, out, "seeds", [e.meta], leg)


FIGURES = [
    ("seeds", "Seed articles' numbers vs our repetitions",
     fig_seeds),
]

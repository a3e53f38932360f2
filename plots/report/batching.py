"""Single vs batched lookups: where LookupBatch (B keys per call) beats the
single-key loop, from the lookup experiment's batched cells (data.csv
column `batch`; chdata.split_batched keeps them out of every other table).

Each batched cell times, in the same rounds, its own single-key throughput
(lookup_ns), LookupBatch over B keys per call (batch_lookup_ns, per key)
and their per-round ratio (batch_lookup_ns_ratio_to_single; < 1: batching
is faster); the ring's cells also the batched peer over the same points
(batch_lookup_ns_ratio_to_<peer>). The table gives, per algorithm,
scenario, state size and B, the medians with their 95 % CIs (the report's
rule: common.fmt_med). Cells measured with T threads (spec key
multithread) also give batch_lookups_per_s: LookupBatch over B keys per
call in each of T threads sharing one instance, shown beside the
single-key lookups_per_s of the same configuration (its batch-1 cell, in
the same timing group) where that was measured.

"Where batching starts to pay" is computed per algorithm, scenario and B:
the smallest state size from which the ratio's interval (common.interval:
the 95 % CI of the median; min–max for 2–5 rounds) lies entirely below 1,
at that size and at every larger size measured. The state size is what a
lookup reads: ring and bounded_load points (N · vnodes), Maglev's table
size M (the runner's default, the smallest prime >= 100·N, when the row
leaves it empty), N for the others. Nothing in the prose is fixed: every
size, ratio and name comes from the data; without batched rows the section
says so and shows nothing else."""

import math

import chdata
import style
from report.common import (WITHIN_RUN, Cell, filt, fmt_med, interval,
                           interval_words, is_noisy, join_names, mcell, one,
                           render)
from report.questions import q

RATIO = "batch_lookup_ns_ratio_to_single"
RATE = "batch_lookups_per_s"
PEER_PREFIX = "batch_lookup_ns_ratio_to_"
SCENARIOS = ("prehashed", "weighted", "string")

FIGURE_UNDER = {}
PAGE_ONLY = ()


def batched_summary(exps):
    """The summary rows of the lookup experiment's batched cells, or None
    (no lookup run, or one without batched cells)."""
    e = (exps or {}).get("lookup")
    b = getattr(e, "batched", None) if e is not None else None
    if b is None or b.summary.empty:
        return None
    return b.summary


def _num(x):
    return None if x is None or (isinstance(x, float) and math.isnan(x)) \
        else x


def state_size(row):
    """(size, label) of a row's state: ring points, Maglev's M, or N."""
    n = _num(row.get("nodes"))
    v = _num(row.get("vnodes"))
    m = _num(row.get("table_size"))
    a = row.get("algorithm", "")
    if n is None:
        return float("nan"), "?"
    n = int(n)
    if v is not None:
        pts = n * int(v)
        return pts, f"{pts:,} points (N = {n:,}, v = {int(v)})"
    if m is not None:
        return int(m), f"M = {int(m):,} (N = {n:,})"
    if chdata.takes_parameter(a, "table_size"):
        d = chdata.default_table_size(n)
        return d, f"M = {d:,} (the default for N = {n:,})"
    return n, f"N = {n:,}"


def _ours(s):
    """Batched cells' rows of our algorithms (not the peers')."""
    return s[~s["note"].fillna("").astype(str).str.startswith("peer of")] \
        if "note" in s.columns else s


def configurations(s):
    """[(scenario, algorithm, B, [(size, label, ratio row, filters)])]
    with sizes ascending, in style order of the algorithms."""
    r = s[s["metric"] == RATIO]
    out = []
    algos = style.order_algorithms(sorted(set(r["algorithm"])))
    for sc in SCENARIOS:
        for a in algos:
            for b in sorted(set(r[(r["algorithm"] == a) &
                                  (r["scenario"] == sc)]["batch"])):
                sub = r[(r["algorithm"] == a) & (r["scenario"] == sc) &
                        (r["batch"] == b)]
                cells = []
                for _, row in sub.iterrows():
                    d = row.to_dict()
                    size, label = state_size(d)
                    f = {c: (None if _num(d.get(c)) is None else d[c])
                         for c in ("nodes", "vnodes", "table_size",
                                   "load_factor", "capacity", "probes",
                                   "keys", "hash", "keyset")}
                    f.update(algorithm=a, scenario=sc, batch=b)
                    cells.append((size, label, d, f))
                cells.sort(key=lambda c: c[0])
                if cells:
                    out.append((sc, a, int(b), cells))
    return out


def below_one(row):
    """Whether a ratio row's interval lies entirely below 1 (None: the row
    has no interval, so it cannot be said)."""
    iv = interval(row, timing=True)
    return iv is not None and iv[1] < 1


def threshold(cells):
    """The index of the smallest size from which the ratio's interval is
    below 1 at every larger size too, or None."""
    at = None
    for i in range(len(cells) - 1, -1, -1):
        if below_one(cells[i][2]):
            at = i
        else:
            break
    return at


def _peer_metrics(s):
    return sorted(m for m in set(s["metric"])
                  if m.startswith(PEER_PREFIX) and m != RATIO)


def _pick(exps, f, metric):
    s = batched_summary(exps)
    if s is None:
        return None
    return one(filt(s, metric=metric, **f))


def _cell(metric, f, kind="num"):
    return Cell(lambda exps: fmt_med(_pick(exps, f, metric), kind))


def threads_table(ctx, s, confs):
    """Markdown lines: batched lookups per second with T threads beside the
    single-key rate of the same configuration (empty without
    batch_lookups_per_s rows)."""
    if "threads" not in s.columns:
        return []
    t = s[(s["metric"] == RATE) & s["threads"].notna()]
    if t.empty:
        return []
    threads = sorted(int(x) for x in t["threads"].unique())
    rows = []
    for sc, a, b, cells in confs:
        for size, label, row, f in cells:
            if filt(t, **f).empty:
                continue
            single = {k: v for k, v in f.items() if k != "batch"}
            r = [a, sc, label, str(b)]
            for th in threads:
                r += [_cell(RATE, dict(f, threads=float(th))),
                      mcell(ctx, "lookup", metric="lookups_per_s",
                            threads=float(th), **single)]
            rows.append(r + [ctx.data_links("lookup")])
    header = ["algorithm", "scenario", "state size", "B"]
    for th in threads:
        header += [f"T={th} batched", f"T={th} single-key"]
    return ["### Batched lookups per second with T threads", "",
            "`LookupBatch` over B keys per call in each of T threads sharing "
            "one instance (`batch_lookups_per_s`), beside the single-key "
            "rate of the same configuration (`lookups_per_s` of its batch-1 "
            "cell, in the same timing group; — where that cell has no "
            "thread rates). Higher is better; wall time over all threads. " +
            WITHIN_RUN, "", render(ctx, header + ["data"], rows), ""]


def pays_sentence(confs, scenario=None):
    """One sentence: where batching starts to pay, per algorithm (of one
    scenario, or every scenario), or None without configurations."""
    confs = [c for c in confs if scenario is None or c[0] == scenario]
    if not confs:
        return None
    pays, never = [], []
    rows = []
    for sc, a, b, cells in confs:
        rows += [c[2] for c in cells]
        i = threshold(cells)
        where = "" if scenario is not None else f", {sc}"
        if i is None:
            span = cells[0][1] if len(cells) == 1 else \
                f"{cells[0][1]} … {cells[-1][1]}"
            never.append(f"{a} (B = {b}{where}; {span})")
        else:
            size_label, row = cells[i][1], cells[i][2]
            smaller = ("; not below 1 at " + join_names(
                c[1] for c in cells[:i])) if i > 0 else \
                "; the smallest size measured"
            pays.append(f"**{a}** from {size_label} on (B = {b}{where}: "
                        f"{fmt_med(row, 'x')}{smaller})")
    bs = sorted({c[2] for c in confs})
    text = ("Batching (B = " + "/".join(str(b) for b in bs) +
            " keys per call) starts to pay — batch_lookup_ns / lookup_ns "
            "in the same rounds with its interval (" + interval_words(rows) +
            ") entirely below 1 at that size and at every larger one "
            "measured — ")
    if pays:
        text += "for " + "; ".join(pays)
    if never:
        text += ("; " if pays else "") + "at no size measured for " + \
            join_names(never)
    return text + "."


def section(ctx):
    out = [f"## {q('batching')}. Single vs batched lookups: when does "
           f"batching pay?", ""]
    s = batched_summary(ctx.exps)
    if s is None:
        return "\n".join(out + [
            "_No batched lookups in this run: the lookup experiment has no "
            "cells with `batch` > 1 (data.csv column `batch`)._", ""])
    ours = _ours(s)
    confs = configurations(ours)
    peers = _peer_metrics(ours)
    out += ["Each batched cell is timed in its own rounds three ways: its "
            "single-key throughput (`lookup_ns`, one Lookup per key), "
            "`LookupBatch` over B keys per call (`batch_lookup_ns`, ns per "
            "key) and their ratio per round (< 1: batching is faster)"
            + (", and for " + join_names(sorted({
                m[len(PEER_PREFIX):] for m in peers})) +
               " our batched time over that batched peer's on the same "
               "structure" if peers else "") +
            ". Timing intervals are within one run. " +
            ctx.csv_link("lookup"), ""]
    sentence = pays_sentence(confs)
    if sentence:
        out += [sentence, ""]
    header = (["algorithm", "scenario", "state size", "B", "single ns",
               "batched ns", "batched / single"] +
              [f"batched / {m[len(PEER_PREFIX):]}" for m in peers] +
              ["data"])
    rows = []
    for sc, a, b, cells in confs:
        for size, label, row, f in cells:
            rows.append([a, sc, label, str(b), _cell("lookup_ns", f),
                         _cell("batch_lookup_ns", f), _cell(RATIO, f, "x")] +
                        [_cell(m, f, "x") for m in peers] +
                        [ctx.data_links("lookup")])
    out += [render(ctx, header, rows), ""]
    out += threads_table(ctx, ours, confs)
    return "\n".join(out)


def guide_items(ctx):
    """The decision guide's "when batching matters" item (empty without
    batched cells)."""
    s = batched_summary(ctx.exps)
    if s is None:
        return []
    confs = configurations(_ours(s))
    sentence = pays_sentence(confs)
    if not sentence:
        return []
    return [("batching",
             "When batching matters (keys looked up in bursts, e.g. a "
             "packet batch or a multi-get): " + sentence +
             f" Details: {q('batching')}. " + ctx.csv_link("lookup"))]


# ---------------------------------------------------------------------------
# figures: drawn by plots/make_figures.py and shown in this section; each
# entry of FIGURES is (stem, caption, drawing function)

from report.draw import Skip, med_err, need, noisy_handle  # noqa: E402


def fig_ratio_vs_size(exps, out):
    """batch_lookup_ns / lookup_ns against the state size, one line per
    algorithm, scenario and B, with the ratio's interval and a line at 1."""
    (e,) = need(exps, "lookup")
    s = batched_summary(exps)
    if s is None:
        raise Skip("no batched lookup cells (column batch)")
    confs = configurations(_ours(s))
    fig, axes = style.new_figure(figsize=(9, 6))
    ax = axes[0][0]
    dashes = {"prehashed": "-", "weighted": "-.", "string": "--"}
    for sc, a, b, cells in confs:
        kw = style.line_kw(a)
        kw["linestyle"] = dashes.get(sc, ":")
        kw["label"] = f"{a} ({sc}, B = {b})"
        xs = [c[0] for c in cells]
        ys = [float(c[2]["median"]) for c in cells]
        lo, hi = [], []
        for c, y in zip(cells, ys):
            err = med_err(c[2], y)
            lo.append(err[0][0] if err else 0)
            hi.append(err[1][0] if err else 0)
        ax.errorbar(xs, ys, yerr=[lo, hi], capsize=2, **kw)
        for x, c, y in zip(xs, cells, ys):
            if is_noisy(c[2]):
                ax.plot([x], [y], linestyle="none", marker=kw["marker"],
                        markersize=9, markerfacecolor="white",
                        markeredgecolor=kw["color"], zorder=6)
    ax.axhline(1.0, color="black", linewidth=1, linestyle=":",
               label="1: as fast as one key at a time")
    ax.set_xscale("log")
    ax.set_xlabel("state a lookup reads: ring points (N · vnodes), Maglev "
                  "table size M, else N")
    ax.set_ylabel("batched / single-key ns per key (median, 95 % CI)")
    handles, labels = ax.get_legend_handles_labels()
    handles.append(noisy_handle())
    labels.append(handles[-1].get_label())
    leg = style.legend_outside(fig, axes, handles=handles, labels=labels)
    fig.suptitle("Single vs batched lookups: below 1, batching is faster")
    return style.save_figure(fig, out, "batch_ratio_vs_size", [e.meta], leg)


FIGURES = [
    ("batch_ratio_vs_size", "Batched over single-key lookup time per key "
     "against the state a lookup reads (ring points, Maglev table size, or "
     "N), per algorithm, scenario and keys per call B (medians over the "
     "rounds; bars: 95 % CI of the median, or min–max of 2–5 rounds); below "
     "1 batching is faster", fig_ratio_vs_size),
]

#!/usr/bin/python3
"""Generates results/REPORT.md from the results tree (never edit it by hand).

Usage:
  /usr/bin/python3 plots/make_report.py --results results \
      --figures plots/figures --out results/REPORT.md [--tier smoke]

Every number in the report is read from results/<experiment>/<run_id>/
summary.csv (median and 95 % CI of the mean over repetitions) or data.csv
(individual repetitions); run selection is documented in chdata.py and in the
report header. Missing experiments leave a one-line note instead of a table.
"""

import sys as _sys
_sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import argparse
import datetime
import math
import os
import sys

import pandas as pd

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chdata  # noqa: E402
import style  # noqa: E402

# ---------------------------------------------------------------------------
# Seed claims: THE mapping from the articles' numbers (/work/shared/seeds) to
# rows of the `seeds` experiment (experiments/seeds.toml: scenario =
# "<claim>.<operation>", operation = add | remove_random for disruption
# blocks, measured for balance blocks). A claim row matches data rows with
# this scenario, metric and algorithm and, for the ring, vnodes =
# setting["vnodes"]. One row per number; rows sharing `id` form one claim.
# `setting` documents the article's configuration (and drives the fake data
# generator). `fmt`: "pct" shows fractions as %, "x" ratios,
# "int" counts.
# Sources: 000/002 = the ring article with 8966 legost.in pages (Russian /
# English versions); 003 = the French article (200 000 keys, 10 nodes).
SEED_CLAIMS = [
    dict(id="C1", label="hash mod N, 4 → 5 servers: keys moved",
         scenario="pages_4to5.add", algorithm="modulo",
         metric="moved_fraction", article=0.808, fmt="pct", source="002",
         setting=dict(nodes=4, vnodes=None, keys=8966)),
    dict(id="C2", label="ring, 4 → 5 servers: keys moved (≈ 20 %)",
         scenario="pages_4to5.add", algorithm="ring",
         metric="moved_fraction", article=0.20, fmt="pct", source="002",
         setting=dict(nodes=4, vnodes=100, keys=8966)),
    dict(id="C3", label="hash mod N, 10 → 11 nodes: keys moved",
         scenario="keys200k_10to11.add", algorithm="modulo",
         metric="moved_fraction", article=0.907, fmt="pct", source="003",
         setting=dict(nodes=10, vnodes=None, keys=200000)),
    dict(id="C3", label="ring 200 vnodes, 10 → 11 nodes: keys moved",
         scenario="keys200k_10to11.add", algorithm="ring",
         metric="moved_fraction", article=0.090, fmt="pct", source="003",
         setting=dict(nodes=10, vnodes=200, keys=200000)),
    dict(id="C4", label="10 nodes, 1 vnode: max/mean",
         scenario="ring_balance_10nodes.measured",
         algorithm="ring",
         metric="load_max_over_mean", article=2.30, fmt="x", source="003",
         setting=dict(nodes=10, vnodes=1, keys=200000)),
    dict(id="C4", label="10 nodes, 1 vnode: min/mean",
         scenario="ring_balance_10nodes.measured",
         algorithm="ring",
         metric="load_min_over_mean", article=0.12, fmt="x", source="003",
         setting=dict(nodes=10, vnodes=1, keys=200000)),
    dict(id="C4", label="10 nodes, 10 vnodes: max/mean",
         scenario="ring_balance_10nodes.measured",
         algorithm="ring",
         metric="load_max_over_mean", article=1.46, fmt="x", source="003",
         setting=dict(nodes=10, vnodes=10, keys=200000)),
    dict(id="C4", label="10 nodes, 10 vnodes: min/mean",
         scenario="ring_balance_10nodes.measured",
         algorithm="ring",
         metric="load_min_over_mean", article=0.69, fmt="x", source="003",
         setting=dict(nodes=10, vnodes=10, keys=200000)),
    dict(id="C4", label="10 nodes, 200 vnodes: max/mean",
         scenario="ring_balance_10nodes.measured",
         algorithm="ring",
         metric="load_max_over_mean", article=1.11, fmt="x", source="003",
         setting=dict(nodes=10, vnodes=200, keys=200000)),
    dict(id="C4", label="10 nodes, 200 vnodes: min/mean",
         scenario="ring_balance_10nodes.measured",
         algorithm="ring",
         metric="load_min_over_mean", article=0.92, fmt="x", source="003",
         setting=dict(nodes=10, vnodes=200, keys=200000)),
    dict(id="C5", label="5 servers, 100 vnodes, 8966 keys: busiest "
         "(fair 1793)", scenario="pages_5nodes_100vnodes.measured",
         algorithm="ring",
         metric="load_max", article=1848, fmt="int", source="002",
         setting=dict(nodes=5, vnodes=100, keys=8966)),
    dict(id="C5", label="5 servers, 100 vnodes, 8966 keys: least loaded "
         "(fair 1793)", scenario="pages_5nodes_100vnodes.measured",
         algorithm="ring",
         metric="load_min", article=1682, fmt="int", source="002",
         setting=dict(nodes=5, vnodes=100, keys=8966)),
    dict(id="C6", label="ring 1 vnode, 4 → 5 servers: keys moved",
         scenario="pages_1vnode_4to5.add", algorithm="ring",
         metric="moved_fraction", article=0.08, fmt="pct", source="002",
         setting=dict(nodes=4, vnodes=1, keys=8966)),
    dict(id="C6", label="ring 1 vnode, 4 → 5 servers: busiest server "
         "after (fair 1793)", scenario="pages_1vnode_4to5.add", algorithm="ring",
         metric="load_max", article=3519, fmt="int", source="002",
         setting=dict(nodes=4, vnodes=1, keys=8966)),
    dict(id="C7", label="remove 1 of 5 servers, 1 vnode: servers that "
         "receive its keys", scenario="receivers_5nodes.remove_random",
         algorithm="ring",
         metric="receivers", article=1, fmt="int", source="002",
         setting=dict(nodes=5, vnodes=1, keys=8966)),
    dict(id="C7", label="remove 1 of 5 servers, 100 vnodes: servers that "
         "receive its keys (all 4)", scenario="receivers_5nodes.remove_random",
         algorithm="ring", metric="receivers", article=4, fmt="int",
         source="002", setting=dict(nodes=5, vnodes=100, keys=8966)),
]

# Why an article's number can fall outside our interval, per claim id.
WHY_NOT = {
    "C1": "The article hashed 8966 real legost.in URLs; hash mod N moves "
          "≈ N/(N+1) of keys on average, the exact share depends on the key "
          "set.",
    "C2": "The article's ring is one specific layout (its node names and "
          "vnode count); our interval is over key sets/seeds.",
    "C3": "One measurement with 200 000 keys of the author's; modulo's "
          "share is ≈ 10/11 = 90.9 % in expectation.",
    "C4": "The article measured one layout: a single draw of a wide "
          "distribution (max/mean with few vnodes varies a lot between "
          "layouts).",
    "C5": "One specific layout with the real legost.in URLs (not "
          "available): a single draw; extremes of 5 loads vary by tens of "
          "keys between key sets.",
    "C6": "With 1 vnode the new server's arc is Beta(1, 4)-distributed "
          "(mean 20 %): the article's 8 % is one draw from that wide "
          "distribution, and so is the busiest load.",
    "C7": "With 100 vnodes the receivers are 'all servers' only with high "
          "probability; with 1 vnode exactly one successor receives.",
}
WHY_NOT_DEFAULT = ("The article measured one specific layout and key set: a "
                   "single draw of a distribution we sample repeatedly.")

# Baselines: not recommended by the decision guide (quoted for reference).
BASELINES = {"modulo"}

# Algorithms whose lookup is O(1) (no search over nodes or points): static
# property of the definitions in /work/shared/ARCHITECTURE.md §4.
O1_LOOKUP = {"modulo", "jump", "maglev"}

# Fallback capability table (algorithms/consistent_hash.h Capabilities, as
# declared by each algorithm; ARCHITECTURE.md §3). Used only for cells the
# data cannot decide; the report marks such cells with a dagger.
CAPABILITIES = {
    "modulo": dict(arbitrary_removal=True, weights=False, replicas=False,
                   stateful=False),
    "ring": dict(arbitrary_removal=True, weights=True, replicas=True,
                 stateful=False),
    "rendezvous": dict(arbitrary_removal=True, weights=True, replicas=True,
                       stateful=False),
    "jump": dict(arbitrary_removal=False, weights=False, replicas=False,
                 stateful=False),
    "maglev": dict(arbitrary_removal=True, weights=True, replicas=False,
                   stateful=False),
    "bounded_load": dict(arbitrary_removal=True, weights=False,
                         replicas=False, stateful=True),
}

# Figures in report order: (stem, caption). make_figures.py writes them.
FIGURES = [
    ("lookup_vs_nodes", "Lookup time vs N (prehashed keys; string keys with "
     "the hash cost alone shown separately)"),
    ("lookup_latency_vs_nodes", "Dependent-chain lookup latency vs N"),
    ("memory_vs_nodes", "Memory vs N (log-log; ring at several vnode "
     "counts)"),
    ("build_vs_nodes", "Build, add-node and remove-node time vs N"),
    ("disruption_vs_nodes", "Keys moved on add/remove vs N with the optimum "
     "and the excess"),
    ("disruption_multi", "Keys moved when removing 10/30/50 % of nodes "
     "(random vs LIFO)"),
    ("vnodes_balance", "Ring max/mean and min/mean vs vnodes (median, 95 % "
     "band of repetitions, analytic expectation)"),
    ("balance_by_algorithm", "Load balance per algorithm"),
    ("hashes_balance", "Balance per hash × key set (max/mean)"),
    ("hashes_speed", "Hash cost per hash × key set"),
    ("bounded_load", "Bounded load: max/mean and disruption vs c"),
    ("weights_shares", "Weighted shares vs weight (ideal line)"),
    ("seeds", "Seed articles' numbers vs our 95 % intervals"),
]

BALANCE_N_PREF = 100
LOOKUP_NS = [100, 1000, 10000]
VNODES_TARGET_MAX_OVER_MEAN = 1.10  # decision guide: "within 10 % of fair"


# --------------------------------------------------------------------------
# formatting

def fmt_num(x):
    """3 significant digits; thousands separated for ≥ 1000; '—' if NaN."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    x = float(x)
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.3g}"


def fmt_pct(x):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    return f"{100 * float(x):.3g} %"


def fmt_value(x, kind):
    if kind == "pct":
        return fmt_pct(x)
    if kind == "x":
        return "—" if x is None or math.isnan(x) else f"{float(x):.3g}×"
    if kind == "int":
        return fmt_num(x)
    return fmt_num(x)


def fmt_ci(row, kind="num"):
    """'median [lo–hi]' from a summary row."""
    if row is None:
        return "—"
    med = fmt_value(row["median"], kind)
    lo, hi = row.get("ci95_low"), row.get("ci95_high")
    if lo is None or hi is None or pd.isna(lo) or pd.isna(hi):
        return med
    return f"{med} [{fmt_value(lo, kind)}–{fmt_value(hi, kind)}]"


def md_table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---" for _ in header) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(c).replace("|", "\\|")
                                     for c in r) + " |")
    return "\n".join(out)


class Ctx:
    """Shared state: experiments, output dir for relative links."""

    def __init__(self, exps, out_path, figures_dir):
        self.exps = exps
        self.out_dir = os.path.dirname(os.path.abspath(out_path))
        self.figures_dir = figures_dir

    def rel(self, path):
        return os.path.relpath(os.path.abspath(path),
                               self.out_dir).replace(os.sep, "/")

    def csv_link(self, exp, label="csv"):
        e = self.exps[exp]
        return f"[{label}]({self.rel(e.summary_path)})"


# --------------------------------------------------------------------------
# data helpers (also used by report_test.py through import)

PARAM_COLS = ["vnodes", "table_size", "load_factor"]


MAGLEV_DEFAULT_LABEL = "M≈100N"  # smallest prime >= 100·N (chdata.py)


def variant_label(row):
    """'ring (v=100)', 'maglev (M≈100N)', 'maglev (M=1000003)', ...

    Maglev rows with the default table size have an empty table_size after
    chdata.normalize_maglev, and are labelled M≈100N."""
    a = row["algorithm"]
    parts = []
    for col, short in (("vnodes", "v"), ("table_size", "M"),
                       ("load_factor", "c")):
        v = row.get(col)
        if v is not None and not pd.isna(v):
            fv = float(v)
            parts.append(f"{short}={int(fv)}" if fv.is_integer() and
                         abs(fv) >= 1e5 else f"{short}={fv:g}")
        elif col == "table_size" and a == "maglev":
            parts.append(MAGLEV_DEFAULT_LABEL)
    return f"{a} ({', '.join(parts)})" if parts else a


def one(df):
    """The single row of df as a dict, or None (first if several)."""
    if df is None or df.empty:
        return None
    return df.iloc[0].to_dict()


def variants(df):
    """Distinct (algorithm, vnodes, table_size, load_factor) in style order."""
    if df.empty:
        return []
    v = df[["algorithm"] + PARAM_COLS].drop_duplicates()
    order = {a: i for i, a in enumerate(style.order_algorithms(
        v["algorithm"].tolist()))}
    v = v.assign(_o=v["algorithm"].map(order)).sort_values(
        ["_o"] + PARAM_COLS).drop(columns="_o")
    return [r.to_dict() for _, r in v.iterrows()]


def match_variant(df, var):
    m = df["algorithm"] == var["algorithm"]
    for c in PARAM_COLS:
        if pd.isna(var[c]):
            m &= df[c].isna()
        else:
            m &= df[c] == var[c]
    return df[m]


def na_note(exp, **filters):
    """'n/a' with the note if the data says not applicable for this cell."""
    if exp is None:
        return None
    na = exp.not_applicable()
    for c, v in filters.items():
        if v is None:
            continue
        na = na[na[c] == v]
    if na.empty:
        return None
    return "n/a: " + na.iloc[0]["note"][len("not applicable:"):].strip()


def nearest_nodes(available, wanted):
    """Wanted N values that exist; otherwise up to 3 available ones."""
    av = sorted(int(x) for x in pd.Series(available).dropna().unique())
    hit = [n for n in wanted if n in av]
    if hit:
        return hit
    if len(av) <= 3:
        return av
    return [av[0], av[len(av) // 2], av[-1]]


def restrict(df, col, preferred):
    """Keeps one value of `col` (preferred if present, else the smallest);
    returns (rows, kept value or None when the column has <= 1 value)."""
    vals = sorted(v for v in df[col].unique()
                  if not (v == "" or (isinstance(v, float) and pd.isna(v))))
    if len(vals) <= 1:
        return df, (vals[0] if vals else None)
    keep = preferred if preferred in vals else vals[0]
    return df[df[col] == keep], keep


def pick_n(available, preferred):
    av = sorted(int(x) for x in pd.Series(available).dropna().unique())
    if not av:
        return None
    if preferred in av:
        return preferred
    return min(av, key=lambda n: abs(math.log(n) - math.log(preferred)))


# --------------------------------------------------------------------------
# sections

def section_header(ctx, args):
    metas = [(n, e.meta) for n, e in ctx.exps.items()]
    lines = ["# chbench results report", "",
             "> **Generated file — do not edit by hand.** Produced by "
             "`plots/make_report.py` from the CSVs under `results/`; rerun "
             "`make report` to refresh.", ""]
    now = datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%SZ")
    lines.append(f"Report generated {now}.")
    if args.tier:
        lines.append(f"Tier filter: `{args.tier}`.")
    lines.append("")
    if not metas:
        lines.append("No results found under `%s`." % args.results)
        return "\n".join(lines)
    newest = max(metas, key=lambda m: chdata.meta_date(m[1]))[1]

    def g(m, *keys):
        v = chdata.meta_get(m, *keys)
        if v is None:
            return "—"
        if isinstance(v, dict):
            return ", ".join(f"{a} {b}" for a, b in v.items())
        if isinstance(v, list):
            return ", ".join(str(x) for x in v)
        return str(v)

    lines += ["## Machine and build", "",
              md_table(["", ""], [
                  ["CPU", g(newest, "cpu_model", "cpu") + _cpus(newest)],
                  ["Caches (cpu0)", _caches(newest)],
                  ["Kernel", g(newest, "kernel")],
                  ["Compiler", g(newest, "compiler", "cxx_compiler")],
                  ["Flags", "`" + g(newest, "cxx_flags", "flags",
                                    "compiler_flags").strip() + "`"],
                  ["Build type", g(newest, "build_type")],
                  ["Libraries", g(newest, "libraries", "library_versions")],
                  ["Benchmark context", _bench_context(ctx)],
              ]), ""]
    cpus = {g(m, "cpu_model", "cpu") for _, m in metas}
    if len(cpus) > 1:
        lines.append("**Warning:** the runs below come from different CPUs: "
                     + "; ".join(sorted(cpus)) + ".\n")
    rows = []
    for name, m in metas:
        commit = g(m, "git_commit", "commit")[:12]
        dirty = m.get("git_dirty", m.get("dirty"))
        if dirty in (True, "true", 1):
            commit += " (dirty)"
        rows.append([name, f"`{m.get('run_id')}`", g(m, "date_utc", "date"),
                     g(m, "tier"), f"`{commit}`", ctx.csv_link(name)])
    lines += ["## Runs used", "",
              "One run per experiment: the newest by `meta.json` date (among "
              "runs of the `--tier` given, if any).", "",
              md_table(["experiment", "run id", "date (UTC)", "tier",
                        "commit", "data"], rows), ""]
    return "\n".join(lines)


def _cpus(meta):
    n = chdata.meta_get(meta, "logical_cpus", "num_cpus")
    return f" ({n} logical CPUs)" if n else ""


def _caches(meta):
    """'L1 Data 48K, L1 Instruction 32K, L2 Unified 2048K, ...'."""
    c = chdata.meta_get(meta, "caches", "cpu_caches")
    if not c:
        return "—"
    if isinstance(c, dict):
        return ", ".join(f"{a} {b}" for a, b in c.items())
    out = []
    for x in c:
        if isinstance(x, dict):
            out.append(f"L{x.get('level', '?')} {x.get('type', '')} "
                       f"{x.get('size', '?')}".replace("  ", " "))
        else:
            out.append(str(x))
    return ", ".join(out)


def _bench_context(ctx):
    """Google Benchmark's view, from the timing experiments' meta.json."""
    for name in ("lookup", "build"):
        e = ctx.exps.get(name)
        bc = e.meta.get("benchmark_context") if e is not None else None
        if isinstance(bc, dict) and bc:
            parts = []
            if "num_cpus" in bc:
                parts.append(f"{bc['num_cpus']} CPUs")
            if "mhz_per_cpu" in bc:
                parts.append(f"{bc['mhz_per_cpu']} MHz")
            if "cpu_scaling_enabled" in bc:
                parts.append("CPU scaling " + ("on" if bc[
                    "cpu_scaling_enabled"] else "off"))
            if bc.get("load_avg"):
                parts.append("load average " + ", ".join(
                    f"{x:g}" for x in bc["load_avg"]))
            if bc.get("benchmark_version"):
                parts.append(f"Google Benchmark {bc['benchmark_version']}")
            return f"`{name}` run: " + "; ".join(parts)
    return "—"


def section_lookup(ctx):
    out = ["## Q1. How fast is a lookup?", ""]
    e = ctx.exps.get("lookup")
    if e is None:
        return "\n".join(out + ["_No `lookup` results yet._", ""])
    s = e.summary
    ns = nearest_nodes(s["nodes"], LOOKUP_NS)
    out.append("Median ns per lookup [95 % CI of the mean] over repetitions; "
               "`string` includes hashing the key, whose cost alone is the "
               "`hash` column. Lower is better.")
    out.append("")
    header = ["algorithm"] + [f"prehashed N={n}" for n in ns] + \
        [f"string N={n}" for n in ns] + [f"hash only N={ns[-1]}", "data"]
    rows = []
    for var in variants(s[s["metric"] == "lookup_ns"]):
        sv = match_variant(s, var)
        r = [variant_label(var)]
        for sc in ("prehashed", "string"):
            for n in ns:
                r.append(fmt_ci(one(sv[(sv["scenario"] == sc) &
                                       (sv["nodes"] == n) &
                                       (sv["metric"] == "lookup_ns")])))
        r.append(fmt_ci(one(sv[(sv["scenario"] == "string") &
                               (sv["nodes"] == ns[-1]) &
                               (sv["metric"] == "hash_ns")])))
        r.append(ctx.csv_link("lookup"))
        rows.append(r)
    out += [md_table(header, rows), ""]
    # latency
    lat = s[(s["metric"] == "lookup_latency_ns") &
            (s["scenario"] == "prehashed")]
    if not lat.empty:
        rows = []
        for var in variants(lat):
            sv = match_variant(lat, var)
            rows.append([variant_label(var)] +
                        [fmt_ci(one(sv[sv["nodes"] == n])) for n in ns] +
                        [ctx.csv_link("lookup")])
        out += ["Dependent-chain latency (prehashed, ns):", "",
                md_table(["algorithm"] + [f"N={n}" for n in ns] + ["data"],
                         rows), ""]
    out += lookup_by_hash_table(ctx)
    return "\n".join(out)


def lookup_by_hash_table(ctx):
    """String-key lookup ns per algorithm x hash at the hash axis' N."""
    e = ctx.exps.get("lookup_all_hashes")
    if e is None:
        return []
    s = e.summary
    s = s[(s["scenario"] == "string") & (s["metric"] == "lookup_ns")]
    hashes = sorted(set(s["hash"]))
    if len(hashes) < 2:
        return []
    # The N at which most hashes were measured.
    counts = s.groupby("nodes")["hash"].nunique()
    n = counts.idxmax()
    s = s[s["nodes"] == n]
    rows = []
    for var in variants(s):
        sv = match_variant(s, var)
        if sv["hash"].nunique() < 2:
            continue
        rows.append([variant_label(var)] +
                    [fmt_ci(one(sv[sv["hash"] == h])) for h in hashes] +
                    [ctx.csv_link("lookup")])
    if not rows:
        return []
    return [f"String-key lookup (hash + algorithm) by hash function at "
            f"N={int(n)}, ns (`absl_hash` is seeded per process: latency "
            f"only):", "",
            md_table(["algorithm"] + [f"`{h}`" for h in hashes] + ["data"],
                     rows), ""]


def section_memory(ctx):
    out = ["## Q2. How much memory?", ""]
    e = ctx.exps.get("memory")
    if e is None:
        return "\n".join(out + ["_No `memory` results yet._", ""])
    s = e.summary
    mem = s[s["metric"] == "memory_bytes"]
    ns = nearest_nodes(mem["nodes"], LOOKUP_NS)
    out += ["Self-reported bytes (median); heap bytes from the counting "
            "allocator at the largest N beside it. Lower is better.", ""]
    rows = []
    for var in variants(mem):
        sv = match_variant(s, var)
        r = [variant_label(var)]
        for n in ns:
            r.append(fmt_num(_med(sv, metric="memory_bytes", nodes=n)))
        r.append(fmt_num(_med(sv, metric="heap_bytes", nodes=ns[-1])))
        r.append(fmt_num(_med(sv, metric="memory_bytes_per_node",
                              nodes=ns[-1])))
        r.append(ctx.csv_link("memory"))
        rows.append(r)
    out += [md_table(["algorithm"] + [f"bytes N={n}" for n in ns] +
                     [f"heap bytes N={ns[-1]}", f"bytes/node N={ns[-1]}",
                      "data"], rows), ""]
    return "\n".join(out)


def _keys_cell(row):
    if row is None or pd.isna(row.get("keys")):
        return "—"
    return fmt_num(row["keys"])


def _med(df, **f):
    for c, v in f.items():
        df = df[df[c] == v]
    return float(df["median"].iloc[0]) if not df.empty else float("nan")


def section_disruption(ctx):
    out = ["## Q3. How many keys move when a node is added or removed?", ""]
    e = ctx.exps.get("disruption")
    if e is None:
        return "\n".join(out + ["_No `disruption` results yet._", ""])
    s = e.summary
    ns = sorted(int(n) for n in s["nodes"].dropna().unique())[:4]
    out += ["Median fraction of all keys that changed owner; optimum = "
            "1/(N+1) on add, 1/N on removing one node; excess = keys that "
            "moved but did not have to. `receivers` = nodes that took the "
            "removed node's keys; algorithms that can remove only the "
            "last node (jump) show `remove_last` instead, marked "
            "\"(last node)\". With few keys (rendezvous' capped "
            "`keys`) a single removal moves whole keys, so its fraction "
            "is coarse.", ""]
    rows = []
    for var in variants(s):
        sv = match_variant(s, var)
        for n in ns:
            if sv[sv["nodes"] == n].empty and \
                    na_note(e, algorithm=var["algorithm"], nodes=n) is None:
                continue
            r = [variant_label(var), str(n),
                 _keys_cell(one(sv[(sv["nodes"] == n) &
                                   (sv["scenario"] == "add")]))]
            for sc in ("add", "remove_random"):
                mark = ""
                if sc == "remove_random" and sv[
                        (sv["scenario"] == sc) & (sv["nodes"] == n)].empty \
                        and not sv[(sv["scenario"] == "remove_last") &
                                   (sv["nodes"] == n)].empty:
                    sc, mark = "remove_last", " (last node)"
                na = na_note(e, algorithm=var["algorithm"], scenario=sc,
                             nodes=n)
                if na and sv[(sv["scenario"] == sc) &
                             (sv["nodes"] == n)].empty:
                    r += [na, "", ""]
                    continue
                r.append(fmt_pct(_med(sv, scenario=sc, nodes=n,
                                      metric="moved_fraction")) + mark)
                r.append(fmt_pct(_med(sv, scenario=sc, nodes=n,
                                      metric="moved_optimal_fraction")))
                r.append(fmt_pct(_med(sv, scenario=sc, nodes=n,
                                      metric="moved_excess_fraction")))
            rc = _med(sv, scenario="remove_random", nodes=n,
                      metric="receivers")
            if pd.isna(rc):
                rc = _med(sv, scenario="remove_last", nodes=n,
                          metric="receivers")
            r.append(fmt_num(rc))
            r.append(ctx.csv_link("disruption"))
            rows.append(r)
    out += [md_table(["algorithm", "N", "keys", "add: moved", "add: optimum",
                      "add: excess", "remove: moved", "remove: optimum",
                      "remove: excess", "receivers", "data"], rows), ""]
    return "\n".join(out)


def section_balance(ctx):
    out = ["## Q4. How even is the load?", ""]
    e = ctx.exps.get("balance")
    if e is None:
        out += ["_No `balance` results yet._", ""]
    else:
        s, ks = restrict(e.summary, "keyset", "uniform")
        s, hs = restrict(s, "hash", "xxh64")
        ns = sorted(int(n) for n in s["nodes"].dropna().unique())
        out += ["Keys on the busiest / least loaded node over the mean "
                "(median [95 % CI]); 1.0 is perfect. Fewer keys per node "
                "mean a larger max/mean by chance alone (rendezvous' key "
                "count is capped, see `keys`): compare with the analytic "
                "column, which uses the same key count."
                + (f" Key set `{ks}`." if ks else "")
                + (f" Hash `{hs}`." if hs else ""), ""]
        rows = []
        for var in variants(s):
            sv = match_variant(s, var)
            for n in ns:
                f = dict(nodes=n, scenario="measured")
                mx = one(_filter(sv, metric="load_max_over_mean", **f))
                if mx is None:
                    continue
                rows.append([
                    variant_label(var), str(n), _keys_cell(mx),
                    fmt_ci(one(_filter(sv, metric="load_max_over_mean",
                                       **f)), "x"),
                    fmt_ci(one(_filter(sv, metric="load_min_over_mean",
                                       **f)), "x"),
                    fmt_num(_med(sv, metric="load_rel_stddev", **f)),
                    fmt_value(_med(sv, metric="load_max_over_mean",
                                   scenario="analytic", nodes=n), "x"),
                    ctx.csv_link("balance")])
        out += [md_table(["algorithm", "N", "keys", "max/mean", "min/mean",
                          "rel. stddev", "analytic max/mean", "data"],
                         rows), ""]
    v = ctx.exps.get("vnodes")
    if v is not None:
        out += ["### Ring: balance vs virtual nodes", "",
                "Median over repetitions and the central 95 % of individual "
                "repetitions (2.5–97.5 percentile).", ""]
        rows = []
        d = v.data[(v.data["scenario"] == "measured") &
                   v.data["value"].notna()]
        for n in sorted(d["nodes"].dropna().unique()):
            dn = d[d["nodes"] == n]
            sn = v.summary[v.summary["nodes"] == n]
            for vn in sorted(dn["vnodes"].dropna().unique()):
                r = [f"{n:g}", f"{vn:g}"]
                for m in ("load_max_over_mean", "load_min_over_mean"):
                    vals = dn[(dn["vnodes"] == vn) &
                              (dn["metric"] == m)]["value"]
                    lo, hi = chdata.quantile_band(vals)
                    r.append(f"{vals.median():.3g}× [{lo:.3g}–{hi:.3g}]")
                    r.append(fmt_value(_med(sn, vnodes=vn, metric=m,
                                            scenario="analytic"), "x"))
                r.append(fmt_num(_med(sn, vnodes=vn, metric="memory_bytes")))
                r.append(ctx.csv_link("vnodes"))
                rows.append(r)
        out += [md_table(["N", "vnodes", "max/mean", "analytic", "min/mean",
                          "analytic", "memory bytes", "data"], rows), ""]
    h = ctx.exps.get("hashes")
    if h is not None:
        s = h.summary[(h.summary["metric"] == "load_max_over_mean") &
                      (h.summary["scenario"].isin(["measured", ""]))]
        hn = max(s["nodes"].dropna().unique(), default=None)
        if hn is not None:
            s = s[s["nodes"] == hn]
        keysets = sorted(s["keyset"].unique())
        out += ["### Balance per hash × key set", "",
                "Median max/mean"
                + (f" at N = {hn:g}" if hn is not None else "")
                + "; the worst key set per hash is what to look at. Hash "
                "cost: median ns per key of the hash alone.", ""]
        for a in style.order_algorithms(s["algorithm"].unique()):
            sa = s[s["algorithm"] == a]
            rows = []
            for hname in sorted(sa["hash"].unique()):
                r = [hname]
                for ks in keysets:
                    r.append(fmt_value(_med(sa, hash=hname, keyset=ks),
                                       "x"))
                r.append(fmt_num(_med(h.summary, hash=hname,
                                      metric="hash_ns",
                                      keyset=keysets[0])))
                r.append(ctx.csv_link("hashes"))
                rows.append(r)
            out += [f"`{a}`:", "", md_table(
                ["hash"] + keysets + [f"hash ns ({keysets[0]})", "data"],
                rows), ""]
    b = ctx.exps.get("bounded_load")
    if b is not None:
        s, bn = bounded_rows(b)
        rows = []
        for c in sorted(s["load_factor"].dropna().unique()):
            sc = s[s["load_factor"] == c]
            rows.append([
                f"{c:g}",
                fmt_ci(one(_filter(sc, metric="load_max_over_mean",
                                   scenario="measured")), "x"),
                fmt_value(_med(sc, metric="load_max_over_mean",
                               scenario="analytic"), "x"),
                fmt_pct(_med(sc, metric="moved_fraction", scenario="add")),
                fmt_pct(_med(sc, metric="moved_optimal_fraction",
                             scenario="add")),
                fmt_pct(_med(sc, metric="moved_fraction",
                             scenario="remove_random")),
                fmt_pct(_med(sc, metric="moved_optimal_fraction",
                             scenario="remove_random")),
                ctx.csv_link("bounded_load")])
        out += ["### Bounded load: balance vs disruption", "",
                (f"`bounded_load` (ring with {_vn(s)} vnodes and a "
                 f"capacity ⌈c·m/N⌉) at N = {bn:g}. " if bn else "")
                + "Above the ring's own max/mean the cap never binds, so "
                "large c behaves like the plain ring.", "",
                md_table(["c", "max/mean", "bound ⌈c·m/n⌉/(m/n)",
                          "add: moved", "add: optimum", "remove: moved",
                          "remove: optimum", "data"], rows), ""]
    w = ctx.exps.get("weights")
    if w is not None:
        d = w.data[(w.data["metric"] == "share") & w.data["value"].notna()]
        ideal = d[d["scenario"] == "analytic"]
        meas = d[d["scenario"] == "measured"]
        rows = []
        for a in style.order_algorithms(w.data["algorithm"].unique()):
            ma = meas[meas["algorithm"] == a]
            if ma.empty:
                rows.append([a, na_note(w, algorithm=a) or "—", "",
                             ctx.csv_link("weights")])
                continue
            med = ma.groupby("node")["value"].median()
            ia = ideal[ideal["algorithm"] == a].set_index("node")["value"]
            rel = ((med - ia).abs() / ia).dropna()
            rows.append([a, fmt_pct(rel.max()), fmt_pct(rel.mean()),
                         ctx.csv_link("weights")])
        out += ["### Weights: measured share vs w/Σw", "",
                md_table(["algorithm", "worst relative error",
                          "mean relative error", "data"], rows), ""]
    return "\n".join(out)


def _vn(s):
    v = s["vnodes"].dropna().unique()
    return f"{v[0]:g}" if len(v) == 1 else "its"


def bounded_rows(b):
    """(summary rows of bounded_load itself at one N (100 preferred), N)."""
    s = b.summary
    if (s["algorithm"] == "bounded_load").any():
        s = s[s["algorithm"] == "bounded_load"]
    n = pick_n(s["nodes"], 100)
    if n is not None:
        s = s[s["nodes"] == n]
    return s, n


def _filter(df, **f):
    for c, v in f.items():
        df = df[df[c] == v]
    return df


def capability_matrix(ctx):
    """{algorithm: {capability: (bool, from_data)}}."""
    algos = set(CAPABILITIES)
    for e in ctx.exps.values():
        algos |= set(a for a in e.data["algorithm"].unique() if a)
    caps = {}
    dis = ctx.exps.get("disruption")
    wts = ctx.exps.get("weights")
    for a in style.order_algorithms(algos):
        fb = CAPABILITIES.get(a, {})
        c = {}
        # arbitrary removal: remove_random rows with values vs n/a notes.
        v = None
        if dis is not None:
            rr = dis.data[(dis.data["algorithm"] == a) &
                          (dis.data["scenario"] == "remove_random")]
            if not rr.empty:
                v = bool(rr["value"].notna().any())
        c["arbitrary_removal"] = (v, True) if v is not None else \
            (fb.get("arbitrary_removal"), False)
        v = None
        if wts is not None:
            rr = wts.data[(wts.data["algorithm"] == a) &
                          (wts.data["metric"] == "share")]
            if not rr.empty:
                v = bool(rr["value"].notna().any())
        c["weights"] = (v, True) if v is not None else \
            (fb.get("weights"), False)
        # minimal disruption: measured excess on add ≈ 0.
        v = None
        if dis is not None:
            ex = dis.summary[(dis.summary["algorithm"] == a) &
                             (dis.summary["scenario"] == "add") &
                             (dis.summary["metric"] ==
                              "moved_excess_fraction")]
            if not ex.empty:
                v = bool(ex["median"].max() < 0.001)
        c["minimal_disruption"] = (v, v is not None)
        c["replicas"] = (fb.get("replicas"), False)
        c["stateful"] = (fb.get("stateful"), False)
        c["o1_lookup"] = (a in O1_LOOKUP, False)
        caps[a] = c
    return caps


def section_capabilities(ctx):
    caps = capability_matrix(ctx)
    cols = [("arbitrary_removal", "removal from the middle"),
            ("weights", "weights"),
            ("replicas", "replicas"),
            ("minimal_disruption", "minimal disruption (excess < 0.1 %)"),
            ("stateful", "stateful (Place consumes capacity)"),
            ("o1_lookup", "O(1) lookup")]
    rows = []
    for a, c in caps.items():
        r = [a]
        for k, _ in cols:
            val, from_data = c[k]
            s = "—" if val is None else ("yes" if val else "no")
            if val is not None and not from_data:
                s += " †"
            r.append(s)
        rows.append(r)
    links = [ctx.csv_link(x, x) for x in ("disruption", "weights")
             if x in ctx.exps]
    return "\n".join([
        "## Q5. What can each algorithm do?", "",
        "Unmarked cells come from the data (a value vs a `not applicable` "
        "row, or the measured excess moves); † = declared capability "
        "(`CAPABILITIES` table in make_report.py, mirroring each "
        "algorithm's `Capabilities`). Data: " + (", ".join(links) or "none")
        + ".", "", md_table(["algorithm"] + [c[1] for c in cols], rows), ""])


def section_figures(ctx):
    out = ["## Figures", ""]
    any_fig = False
    for stem, caption in FIGURES:
        p = os.path.join(ctx.figures_dir, stem + ".png")
        if os.path.isfile(p):
            any_fig = True
            out += [f"### {caption}", "",
                    f"![{caption}]({ctx.rel(p)})  ",
                    f"[SVG]({ctx.rel(os.path.join(ctx.figures_dir, stem + '.svg'))})",
                    ""]
    if not any_fig:
        out += ["_No figures yet: run `make plots`._", ""]
    return "\n".join(out)


def _seed_filter(df, cl):
    if cl.get("algorithm") and (df["algorithm"] != "").any():
        df = df[df["algorithm"] == cl["algorithm"]]
    v = cl["setting"].get("vnodes")
    if cl.get("algorithm") == "ring" and v is not None and \
            df["vnodes"].notna().any():
        df = df[df["vnodes"] == v]
    return df


def seed_rows(ctx):
    """One dict per SEED_CLAIMS entry with our numbers (NaN if missing)."""
    e = ctx.exps.get("seeds")
    out = []
    for cl in SEED_CLAIMS:
        r = dict(cl)
        r.update(median=float("nan"), ci_lo=float("nan"),
                 ci_hi=float("nan"), band_lo=float("nan"),
                 band_hi=float("nan"), n=0, found=False)
        if e is not None:
            d = e.data[(e.data["scenario"] == cl["scenario"]) &
                       (e.data["metric"] == cl["metric"]) &
                       e.data["value"].notna()]
            s = e.summary[(e.summary["scenario"] == cl["scenario"]) &
                          (e.summary["metric"] == cl["metric"])]
            d, s = _seed_filter(d, cl), _seed_filter(s, cl)
            if not d.empty:
                vals = d["value"].astype(float)
                r["median"] = float(vals.median())
                r["n"] = int(len(vals))
                if not s.empty:
                    r["ci_lo"] = float(s["ci95_low"].iloc[0])
                    r["ci_hi"] = float(s["ci95_high"].iloc[0])
                r["band_lo"], r["band_hi"] = chdata.quantile_band(vals)
                r["found"] = True
        a = cl["article"]
        r["in_ci"] = bool(r["found"] and not math.isnan(r["ci_lo"]) and
                          r["ci_lo"] <= a <= r["ci_hi"])
        r["in_band"] = bool(r["found"] and r["band_lo"] <= a <=
                            r["band_hi"])
        out.append(r)
    return out


def section_seeds(ctx):
    out = ["## Seed articles: reproductions", ""]
    rows_ = seed_rows(ctx)
    e = ctx.exps.get("seeds")
    out += ["Each article number beside our median over repetitions, the "
            "95 % CI of the mean, and the central 95 % of individual "
            "repetitions (a single article measurement should fall in the "
            "latter). Hash md5 as in the articles. Scenario names map to "
            "claims in `SEED_CLAIMS` at the top of `plots/make_report.py`.",
            ""]
    if e is None:
        out += ["_No `seeds` results yet; the table lists the claims._", ""]
    rows = []
    for r in rows_:
        k = r["fmt"]
        if r["found"]:
            ours = fmt_value(r["median"], k)
            ci = "—" if math.isnan(r["ci_lo"]) else \
                f"{fmt_value(r['ci_lo'], k)}–{fmt_value(r['ci_hi'], k)}"
            band = f"{fmt_value(r['band_lo'], k)}–{fmt_value(r['band_hi'], k)}"
            inside = ("yes" if r["in_ci"] else "no") + " / " + \
                ("yes" if r["in_band"] else "no")
            why = "" if r["in_band"] else WHY_NOT.get(r["id"],
                                                     WHY_NOT_DEFAULT)
            if r["in_band"] and not r["in_ci"]:
                why = ("Inside the spread of single runs, outside the CI of "
                       "the mean: " + WHY_NOT.get(r["id"], WHY_NOT_DEFAULT))
        else:
            ours = ci = band = "—"
            inside = "not measured"
            why = f"no rows with scenario `{r['scenario']}`, metric " \
                  f"`{r['metric']}`"
        link = ctx.csv_link("seeds") if e is not None else ""
        rows.append([r["id"], r["label"], f"`{r['scenario']}`",
                     fmt_value(r["article"], k), ours, ci, band, r["n"],
                     inside, why, link])
    out += [md_table(["claim", "article says", "scenario", "article",
                      "ours (median)", "95 % CI of mean",
                      "95 % of runs", "runs",
                      "article inside? (CI / runs)", "why not", "data"],
                     rows), ""]
    return "\n".join(out)


# --------------------------------------------------------------------------
# decision guide: each item = (id, text) with numbers from the data.

def guide_items(ctx):
    items = []
    lk = ctx.exps.get("lookup")
    if lk is not None:
        s = lk.summary
        for sc in ("prehashed", "string"):
            d = s[(s["metric"] == "lookup_ns") & (s["scenario"] == sc)]
            n = pick_n(d["nodes"], 1000)
            d = d[d["nodes"] == n]
            c = d[~d["algorithm"].isin(BASELINES)]
            if c.empty:
                continue
            best = c.loc[c["median"].idxmin()]
            worst = c.loc[c["median"].idxmax()]
            items.append((f"fastest_lookup_{sc}",
                          f"Fastest consistent lookup at N={n} ({sc} keys): "
                          f"**{variant_label(best)}** "
                          f"{fmt_num(best['median'])} ns (slowest: "
                          f"{variant_label(worst)} "
                          f"{fmt_num(worst['median'])} ns"
                          + _baseline_ref(d, "ns") + "). "
                          + ctx.csv_link("lookup")))
    dis = ctx.exps.get("disruption")
    if dis is not None:
        s = dis.summary
        d = s[(s["scenario"] == "remove_random") &
              (s["metric"] == "moved_fraction")]
        n = pick_n(d["nodes"], 100)
        d = d[d["nodes"] == n]
        o1 = d[d["algorithm"].isin(O1_LOOKUP)]
        if not o1.empty:
            best = o1.loc[o1["median"].idxmin()]
            opt = _med(s, scenario="remove_random", nodes=n,
                       metric="moved_optimal_fraction",
                       algorithm=best["algorithm"])
            items.append(("o1_removal",
                          "Fewest keys moved on removing a random node with "
                          f"O(1) lookup (N={n}): **{variant_label(best)}** "
                          f"{fmt_pct(best['median'])} vs optimum "
                          f"{fmt_pct(opt)}. " + ctx.csv_link("disruption")))
        ex = s[(s["scenario"] == "remove_random") &
               (s["metric"] == "moved_excess_fraction") & (s["nodes"] == n)]
        ex = ex[ex["median"].notna()]
        if not ex.empty:
            lo = ex["median"].min()
            tied = ex[ex["median"] <= lo + 1e-12]
            names = [f"**{variant_label(r)}**" for r in variants(tied)]
            verb = "moves" if len(names) == 1 else "move"
            items.append(("min_excess_removal",
                          "Minimal disruption on removal (N="
                          f"{n}): " + _join(names) + f" {verb} "
                          f"{fmt_pct(lo)} of keys needlessly. "
                          + ctx.csv_link("disruption")))
        na = dis.not_applicable()
        na = na[na["scenario"] == "remove_random"]
        if not na.empty:
            a = style.order_algorithms(na["algorithm"].unique())
            items.append(("no_middle_removal",
                          "Cannot remove a node from the middle: "
                          + ", ".join(f"**{x}**" for x in a) +
                          f" ({na.iloc[0]['note']}); use them only when nodes"
                          " leave in LIFO order. " +
                          ctx.csv_link("disruption")))
    vn = ctx.exps.get("vnodes")
    if vn is not None:
        r = vnodes_for_target(vn)
        if r is not None:
            v, m, mem, n, reached, vmax = r
            tgt = f"{VNODES_TARGET_MAX_OVER_MEAN:g}×"
            if reached:
                text = (f"**ring at {v:g} vnodes** gives median max/mean "
                        f"{m:.3g}× at N={n}, the smallest vnode count "
                        f"measured with ≤ {tgt}; it takes {fmt_num(mem)} "
                        "bytes")
            else:
                text = (f"**ring at {v:g} vnodes** gives median max/mean "
                        f"{m:.3g}× at N={n}, the best measured; no vnode "
                        f"count up to {vmax:g} reaches ≤ {tgt}, and "
                        f"{v:g} vnodes already take {fmt_num(mem)} bytes")
            items.append(("ring_vnodes",
                          "Need replicas/weights and arbitrary removal: "
                          + text + ". " + ctx.csv_link("vnodes")))
    bal = ctx.exps.get("balance")
    if bal is not None:
        s, ks = restrict(bal.summary, "keyset", "uniform")
        s, _ = restrict(s, "hash", "xxh64")
        d = s[(s["metric"] == "load_max_over_mean") &
              (s["scenario"] == "measured")]
        n = pick_n(d["nodes"], BALANCE_N_PREF)
        d = d[d["nodes"] == n]
        c = d[~d["algorithm"].isin(BASELINES)]
        if not c.empty:
            best = c.loc[c["median"].idxmin()]
            near = c[(c["median"] <= best["median"] * 1.01) &
                     (c.index != best.name)]
            tie = ""
            if not near.empty:
                tie = " (within 1 %: " + ", ".join(
                    f"{variant_label(r)} {r['median']:.3g}×"
                    for _, r in near.sort_values("median").iterrows()) + ")"
            items.append(("best_balance",
                          f"Most even load at N={n}"
                          + (f" ({ks} keys)" if ks else "") + ": "
                          f"**{variant_label(best)}** max/mean "
                          f"{best['median']:.3g}×" + tie
                          + _baseline_ref(d, "×", sep="") + ". " +
                          ctx.csv_link("balance")))
    mem = ctx.exps.get("memory")
    if mem is not None:
        s = mem.summary
        d = s[s["metric"] == "memory_bytes"]
        n = pick_n(d["nodes"], 1000)
        d = d[d["nodes"] == n]
        d = d[~d["algorithm"].isin(BASELINES)]
        if not d.empty:
            best = d.loc[d["median"].idxmin()]
            worst = d.loc[d["median"].idxmax()]
            items.append(("least_memory",
                          f"Least memory at N={n}: **{variant_label(best)}**"
                          f" {fmt_num(best['median'])} bytes (most: "
                          f"{variant_label(worst)} "
                          f"{fmt_num(worst['median'])} bytes). " +
                          ctx.csv_link("memory")))
    bl = ctx.exps.get("bounded_load")
    if bl is not None:
        s, _ = bounded_rows(bl)
        m = s[(s["metric"] == "load_max_over_mean") &
              (s["scenario"] == "measured")]
        if not m.empty:
            c = sorted(m["load_factor"].dropna().unique())
            c = 1.25 if 1.25 in c else c[len(c) // 2]
            mm = _med(m, load_factor=c)
            mv = _med(s, load_factor=c, scenario="add",
                      metric="moved_fraction")
            op = _med(s, load_factor=c, scenario="add",
                      metric="moved_optimal_fraction")
            items.append(("bounded_load",
                          f"Hot keys / capped load: **bounded_load c={c:g}**"
                          f" keeps max/mean at {mm:.3g}× but moves "
                          f"{fmt_pct(mv)} of keys on add vs optimum "
                          f"{fmt_pct(op)}. " + ctx.csv_link("bounded_load")))
    hs = ctx.exps.get("hashes")
    if hs is not None:
        r = hash_choice(hs)
        if r is not None:
            hname, ns_, worst, best_worst, hn, algos = r
            items.append(("hash_choice",
                          f"Hash: **{hname}** is the fastest hash "
                          f"({fmt_num(ns_)} ns per key, median over key "
                          f"sets) whose worst max/mean at N={hn:g} over "
                          f"key sets and algorithms ({', '.join(algos)}) "
                          f"is {worst:.3g}×, within 2 % of the best "
                          f"hash's {best_worst:.3g}×. " +
                          ctx.csv_link("hashes")))
    return items


def _baseline_ref(d, unit, sep=" "):
    """'; baseline modulo 1.5 ns' for baseline rows in d, else ''."""
    b = d[d["algorithm"].isin(BASELINES)]
    if b.empty:
        return ""
    return "; " + ", ".join(
        f"baseline {variant_label(r)} {fmt_num(r['median'])}{sep}{unit}"
        for _, r in b.iterrows())


def vnodes_for_target(vn):
    """(vnodes, median max/mean, memory bytes, N, reached, largest vnodes)
    of the smallest vnode count whose median max/mean ≤ target at N (100
    preferred); else of the best one, with reached = False."""
    s = vn.summary
    m = s[(s["metric"] == "load_max_over_mean") &
          (s["scenario"] == "measured")]
    n = pick_n(m["nodes"], 100)
    if n is not None:
        m = m[m["nodes"] == n]
        s = s[s["nodes"] == n]
    m = m.sort_values("vnodes")
    if m.empty:
        return None
    ok = m[m["median"] <= VNODES_TARGET_MAX_OVER_MEAN]
    row = ok.iloc[0] if not ok.empty else m.loc[m["median"].idxmin()]
    mem = _med(s, metric="memory_bytes", vnodes=row["vnodes"])
    return (float(row["vnodes"]), float(row["median"]), mem, n,
            not ok.empty, float(m["vnodes"].max()))


def _join(names):
    """'a', 'a and b', 'a, b and c'."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def hash_choice(hs):
    """(hash, ns, worst max/mean, best hash's worst, N, algorithms) at the
    largest N of the hashes experiment, or None."""
    s = hs.summary
    bal = s[(s["metric"] == "load_max_over_mean") &
            (s["scenario"].isin(["measured", ""]))]
    spd = s[s["metric"] == "hash_ns"]
    if bal.empty or spd.empty:
        return None
    n = bal["nodes"].max()
    bal = bal[bal["nodes"] == n]
    worst = bal.groupby("hash")["median"].max()
    speed = spd.groupby("hash")["median"].median()
    best_worst = worst.min()
    ok = [h for h in worst.index if worst[h] <= best_worst * 1.02 and
          h in speed.index]
    if not ok:
        return None
    h = min(ok, key=lambda x: speed[x])
    return (h, float(speed[h]), float(worst[h]), float(best_worst), n,
            style.order_algorithms(bal["algorithm"].unique()))


def section_guide(ctx):
    items = guide_items(ctx)
    out = ["## Decision guide", "",
           "Every recommendation cites the measured number it rests on "
           "(medians over repetitions, this report's runs).", ""]
    if not items:
        out.append("_Not enough data yet._")
    for gid, text in items:
        out.append(f"- <a id=\"g-{gid}\"></a>{text}")
    out.append("")
    return "\n".join(out)


def build_report(args):
    exps = chdata.load_all(args.results, args.tier)
    ctx = Ctx(exps, args.out, args.figures)
    parts = [section_header(ctx, args), section_guide(ctx),
             section_lookup(ctx), section_memory(ctx),
             section_disruption(ctx), section_balance(ctx),
             section_capabilities(ctx), section_seeds(ctx),
             section_figures(ctx)]
    missing = [n for n in chdata.EXPERIMENTS if n not in exps]
    if missing:
        parts.append("## Missing experiments\n\nNo results for: " +
                     ", ".join(f"`{m}`" for m in missing) + ".\n")
    return "\n".join(parts), ctx


HEADLINE_BEGIN = "<!-- headline:begin -->"
HEADLINE_END = "<!-- headline:end -->"
HEADLINE_FIGURES = ["lookup_vs_nodes", "disruption_vs_nodes",
                    "balance_by_algorithm"]


def default_variant(df, algorithm):
    """The algorithm's variant measured at the most N values (its default
    parameters: ring v=100, maglev M≈100N, ...), or None."""
    d = df[df["algorithm"] == algorithm]
    best, cnt = None, -1
    for var in variants(d):
        k = match_variant(d, var)["nodes"].nunique()
        if k > cnt:
            best, cnt = var, k
    return best


def headline_block(ctx, readme_path, report_path):
    """Markdown for README.md between the headline markers."""
    rdir = os.path.dirname(os.path.abspath(readme_path))

    def rel(p):
        return os.path.relpath(os.path.abspath(p), rdir).replace(os.sep, "/")

    lk, mem, dis, bal = (ctx.exps.get(x) for x in
                         ("lookup", "memory", "disruption", "balance"))
    bal_s = None
    if bal is not None:
        bal_s, _ = restrict(bal.summary, "keyset", "uniform")
        bal_s, _ = restrict(bal_s, "hash", "xxh64")
    algos = set()
    for e in (lk, mem, dis, bal):
        if e is not None:
            algos |= set(a for a in e.summary["algorithm"].unique() if a)
    rows = []
    for a in style.order_algorithms(algos):
        def cell(e, df, fmt, **f):
            if e is None:
                return "—"
            var = default_variant(df, a)
            if var is None:
                return "—"
            return fmt(_med(match_variant(df, var), **f))

        label = a
        for e in (dis, lk, bal, mem):
            if e is not None and default_variant(e.summary, a):
                label = variant_label(default_variant(e.summary, a))
                break
        r = [label,
             cell(lk, lk.summary if lk else None, fmt_num,
                  metric="lookup_ns", scenario="prehashed", nodes=1000),
             cell(mem, mem.summary if mem else None, fmt_num,
                  metric="memory_bytes", nodes=1000)]
        for sc in ("add", "remove_random"):
            if dis is None:
                r.append("—")
                continue
            mv = cell(dis, dis.summary, fmt_pct, metric="moved_fraction",
                      scenario=sc, nodes=100)
            op = cell(dis, dis.summary, fmt_pct,
                      metric="moved_optimal_fraction", scenario=sc,
                      nodes=100)
            if mv == "—" and sc == "remove_random":
                mv = cell(dis, dis.summary, fmt_pct,
                          metric="moved_fraction", scenario="remove_last",
                          nodes=100)
                op = cell(dis, dis.summary, fmt_pct,
                          metric="moved_optimal_fraction",
                          scenario="remove_last", nodes=100)
                if mv != "—":
                    mv += " last node only"
            if mv == "—":
                r.append("n/a" if na_note(dis, algorithm=a, scenario=sc)
                         else "—")
            else:
                r.append(f"{mv} (opt. {op})")
        r.append(cell(bal, bal_s, lambda x: fmt_value(x, "x"),
                      metric="load_max_over_mean", scenario="measured",
                      nodes=100))
        rows.append(r)
    metas = [(n, e.meta) for n, e in ctx.exps.items()]
    commits = sorted({str(chdata.meta_get(m, "git_commit", "commit") or "?")
                      [:12] + (" (dirty)" if m.get("git_dirty") in
                               (True, "true", 1) else "")
                      for _, m in metas})
    runs = ", ".join(f"{n} `{m.get('run_id')}`" for n, m in metas)
    out = [HEADLINE_BEGIN,
           "<!-- Generated by plots/make_report.py; do not edit by hand. -->",
           "",
           "Headline numbers (medians over repetitions; each algorithm at "
           "its default parameters, key set uniform, hash xxh64; details "
           f"and 95 % intervals in [REPORT.md]({rel(report_path)})):",
           "",
           md_table(["algorithm", "lookup ns (prehashed, N=1000)",
                     "memory bytes (N=1000)", "moved on add (N=100)",
                     "moved on remove (N=100)", "max/mean (N=100)"], rows),
           ""]
    for stem in HEADLINE_FIGURES:
        p = os.path.join(ctx.figures_dir, stem + ".png")
        if os.path.isfile(p):
            cap = dict(FIGURES)[stem]
            out += [f"![{cap}]({rel(p)})", ""]
    out += [f"Runs: {runs}. Commit: " +
            ", ".join(f"`{c}`" for c in commits) + ".", "",
            "How to cite: \"chbench commit " +
            (commits[0].split()[0] if commits else "?") +
            ", runs as listed in results/REPORT.md (e.g. " +
            (f"`{metas[0][1].get('run_id')}`" if metas else "?") +
            ")\", with the table or figure named in REPORT.md.",
            HEADLINE_END]
    return "\n".join(out)


def update_readme(ctx, readme_path, report_path):
    """Rewrites README's headline block; no-op without both markers."""
    try:
        with open(readme_path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        print(f"chbench report: no {readme_path}; README not updated")
        return False
    i, j = text.find(HEADLINE_BEGIN), text.find(HEADLINE_END)
    if i < 0 or j < i:
        print(f"chbench report: no headline markers in {readme_path}; "
              "README not updated")
        return False
    new = text[:i] + headline_block(ctx, readme_path, report_path) + \
        text[j + len(HEADLINE_END):]
    if new != text:
        write_atomic(readme_path, new)
    print(f"chbench report: updated the headline block of {readme_path}")
    return True


def write_atomic(path, text):
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    tmp = os.path.join(d, f".{os.path.basename(path)}.tmp{os.getpid()}")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def main(argv=None):
    ap = argparse.ArgumentParser(description="Generate results/REPORT.md")
    ap.add_argument("--results", default="results")
    ap.add_argument("--figures", default="plots/figures")
    ap.add_argument("--out", default="results/REPORT.md")
    ap.add_argument("--tier", default=None,
                    help="use only runs of this tier (default: newest run)")
    ap.add_argument("--readme", default=None, metavar="PATH",
                    help="also rewrite PATH's block between "
                    f"'{HEADLINE_BEGIN}' and '{HEADLINE_END}' (done "
                    "automatically when --out is this repository's "
                    "results/REPORT.md)")
    args = ap.parse_args(argv)
    text, ctx = build_report(args)
    write_atomic(args.out, text)
    print(f"chbench report: wrote {args.out}")
    readme = args.readme
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if readme is None and os.path.abspath(args.out) == os.path.join(
            repo, "results", "REPORT.md"):
        readme = os.path.join(repo, "README.md")
    if readme and ctx.exps:
        update_readme(ctx, readme, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

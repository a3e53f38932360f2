"""Report header: the title with the generated-file banner (title), then
(parts) the machine and build of the newest run (local and reference) with
the fields other runs differ in, the runs used (each experiment's run id
and commit, from its meta.json) and the statistics legend."""

import datetime
import json

import chdata
from report.common import STAT_LEGEND, md_table
from report.layout import GENERATED


def _g(m, *keys):
    v = chdata.meta_get(m, *keys)
    if v is None:
        return "—"
    if isinstance(v, dict):
        return ", ".join(f"{a} {b}" for a, b in v.items())
    if isinstance(v, list):
        return ", ".join(str(x) for x in v)
    return str(v)


def _caches(meta):
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


def _commit(m):
    c = _g(m, "git_commit", "commit")[:12]
    if m.get("git_dirty", m.get("dirty")) in (True, "true", 1):
        c += " (dirty)"
    return c


def _machine_key(m):
    mach = m.get("machine")
    return json.dumps(mach, sort_keys=True) if isinstance(mach, dict) \
        else str(mach)


def _newest(exps):
    """The meta.json of the newest run with timing rows (meta.json
    `benchmark_context` is set only for them) on the machine that measured
    most of the runs with timing rows (where runs of two machines are
    mixed, the one most times come from), else of the newest run."""
    metas = [e.meta for e in exps.values()]
    timed = [m for m in metas if m.get("benchmark_context")]
    if timed:
        count = {}
        for m in timed:
            count[_machine_key(m)] = count.get(_machine_key(m), 0) + 1
        most = max(count.values())
        timed = [m for m in timed if count[_machine_key(m)] == most]
    return max(timed or metas, key=chdata.meta_date) if metas else None


def machine_rows(meta):
    ncpu = chdata.meta_get(meta, "logical_cpus", "num_cpus")
    return [
        ("CPU", _g(meta, "cpu_model", "cpu") +
         (f" ({ncpu} logical CPUs)" if ncpu else "")),
        ("Caches (cpu0)", _caches(meta)),
        ("Kernel", _g(meta, "kernel")),
        ("Compiler", _g(meta, "compiler", "cxx_compiler")),
        ("Flags", "`" + _g(meta, "cxx_flags", "flags",
                           "compiler_flags").strip() + "`"),
        ("Build type", _g(meta, "build_type")),
        ("Run-time dispatch", _g(meta, "cpu_dispatch")),
        ("Libraries", _g(meta, "libraries", "library_versions")),
        ("Commit", "`" + _commit(meta) + "`"),
    ]


def differences(exps):
    """Lines naming the machine and build fields (but the commit and the
    CPU, warned about apart) whose value differs between the runs, with the
    experiments of each value."""
    vals = {}
    for name, e in sorted(exps.items()):
        if name == "lookup_all_hashes":  # same run as lookup
            continue
        for k, v in machine_rows(e.meta):
            if k not in ("Commit", "CPU"):
                vals.setdefault(k, {}).setdefault(v, []).append(name)
    out = []
    for k, by in vals.items():
        if len(by) > 1:
            out.append(f"- Runs differ in {k}: " + "; ".join(
                f"{v} ({', '.join(names)})" for v, names in by.items())
                + ".")
    return out + [""] if out else out


def shard_lines(exps):
    """Sharded runs (`chbench run --shard`, then `chbench merge`): which
    experiments, on which hosts; a warning where timing groups of one
    experiment ran on different machines (absolute times of different groups
    are then not comparable; ratios within a group are, as a group never
    spans shards)."""
    sharded, mixed = [], []
    for name, e in sorted(exps.items()):
        sh = e.meta.get("shards")
        if not isinstance(sh, dict):
            continue
        recs = sh.get("records") or []
        hosts = sorted({str(r.get("host", "?")) for r in recs})
        sharded.append(f"{name} ({len(recs)} shards on "
                       f"{', '.join(hosts)})")
        if sh.get("timing_mixed_machines"):
            mixed.append(f"{name}: " + "; ".join(sh.get("timing_hosts", [])))
    out = []
    if sharded:
        out.append("Sharded runs, merged by `chbench merge` (every shard's "
                   "host, machine and commit are in its `meta.json`): " +
                   ", ".join(sharded) + ".\n")
    if mixed:
        out.append("**Warning:** timing groups of one experiment ran on "
                   "different machines (" + " | ".join(mixed) + "): absolute "
                   "times of different rows of a timing table may come from "
                   "different machines and are not comparable; the ratios "
                   "to the reference implementations are (each group, with "
                   "its peers, ran on one machine).\n")
    return out


def title(ctx, args):
    """The report's title, the generated-file banner and what it reads."""
    lines = ["# chbench results report", "", GENERATED, ""]
    now = datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%SZ")
    lines.append(f"Report generated {now} from `{args.results}`" +
                 (f", beside the reference runs `{args.reference}`"
                  if ctx.has_ref else "") + ".")
    if args.tier:
        lines.append(f"Tier filter: `{args.tier}`.")
    lines.append("")
    if not ctx.exps:
        lines.append(f"No results found under `{args.results}`.")
        lines.append("")
    return "\n".join(lines)


def parts(ctx, args):
    """[(anchor, title, Markdown)]: machine and build, the runs used, how to
    read the tables; none without results."""
    if not ctx.exps:
        return []
    out = []
    lines = []
    local = _newest(ctx.exps)
    ref = _newest(ctx.ref) if ctx.has_ref else None
    header = ["", "this report's runs (newest)"] + (
        ["reference runs (newest)"] if ref else [])
    rows = []
    # The commit is per run (Runs used), not one for the report.
    lr = [r for r in machine_rows(local) if r[0] != "Commit"]
    rr = [r for r in machine_rows(ref) if r[0] != "Commit"] if ref else None
    for i, (k, v) in enumerate(lr):
        rows.append([k, v] + ([rr[i][1]] if rr else []))
    lines += ["## Machine and build", "",
              "The machine and build of the newest run with timing rows "
              "(of the machine that measured most of them); "
              "where other runs "
              "differ, the lines below the table say how. Each run's "
              "commit: [Runs used](#runs).", "",
              md_table(header, rows), ""]
    cpus = {_g(e.meta, "cpu_model", "cpu") for e in ctx.exps.values()}
    diff = differences(ctx.exps)
    if len(cpus) > 1:
        # The first item of the differences' list, or a paragraph.
        lines.append(("- " if diff else "") + "**Warning:** this report's "
                     "runs come from different CPUs: "
                     + "; ".join(sorted(cpus)) + "." + ("" if diff else "\n"))
    lines += diff
    lines += shard_lines(ctx.exps)
    out.append(("machine", "Machine and build", "\n".join(lines)))
    runs = []
    for which, exps in (("this report", ctx.exps),
                        ("reference", ctx.ref if ctx.has_ref else {})):
        for name, e in exps.items():
            if name == "lookup_all_hashes":  # same run as lookup
                continue
            m = e.meta
            runs.append([name] + ([which] if ctx.has_ref else []) +
                        [f"`{m.get('run_id')}`", f"`{_commit(m)}`",
                         _g(m, "date_utc", "date"), _g(m, "tier"),
                         ctx.csv_link(name, ref=which == "reference")])
    commits = sorted({_commit(e.meta) for n, e in ctx.exps.items()
                      if n != "lookup_all_hashes"})
    lines = ["## Runs used", "",
             "One run per experiment and results directory: the newest by "
             "`meta.json` date (among runs of the `--tier` given, if "
             "any; a run marked `stale` in its `meta.json` is never "
             "used); its run id and the commit it was measured at come "
             "from its `meta.json`"
             + (f" (this report's runs: {len(commits)} commits)"
                if len(commits) > 1 else "") + ".", "",
             md_table(["experiment"] + (["runs"] if ctx.has_ref else []) +
                      ["run id", "commit", "date (UTC)", "tier", "data"],
                      runs), ""]
    out.append(("runs", "Runs used", "\n".join(lines)))
    reg = "read from `registry.json`" if ctx.reg else \
        "**missing** (`registry.json` not found: capability and " \
        "complexity columns are empty)"
    lines = ["## How to read the tables", "", STAT_LEGEND, "",
             "Timing cells are medians over interleaved measurement rounds "
             "(results/README.md \"Timing method\"). Algorithm and metric "
             f"metadata (units, better direction, capabilities) are {reg}.",
             ""]
    out.append(("reading", "How to read the tables", "\n".join(lines)))
    return out

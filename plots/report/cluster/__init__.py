"""A cache cluster under change (experiment `cluster`,
experiments/cluster.toml; the model: bench/cluster/cluster.h). A package:
this module writes the section's introduction and joins the subsections,
one module each (stampede, hot, stale, cascade, memcached); base holds
their shared helpers, findings computes everything once, readme writes the
README block.

The model. A cache-aside workload over N cache servers placed by the
algorithm under test: R requests for U keys with Zipf(s) popularity, in B
time buckets; a request GETs its key from the server the client's view
names; a miss (or an error: a dead server) reads the database and SETs the
key there. Each run has one event at its event bucket (scenario `add`: a
server joins; `remove`: the last server dies and each client drops it at
its first error; `stale_view`: a server joins but a fraction f of the
clients keeps the old view for a tenth of the run; `cascade`: the last
server dies, and every server above its capacity in a bucket fails in turn,
the capacity sized for the algorithm's own busiest server; `cascade_mean`:
the same with equal servers sized for the mean load; `none`: no event)
and is paired with a control run (the same requests, no event).
extra_db_reads = the run's database reads from the event on minus the
control's; its prediction = moved_fraction (of the U keys) × hot_set
(distinct keys requested before and after the event). Mode `sim` keeps an
LRU cache of `cache_items` keys per server in process (deterministic for a
seed); mode `memcached` runs the same requests against real memcached
servers on 127.0.0.1 (numbers vary run to run).

Rows. Per time bucket (column `bucket`): hit_ratio, db_reads, ... and the
control's; per run (bucket empty): the metrics below. Repetitions of a sim
cell are seeds (key set and request stream).

Statistics. Every cell is a MEAN over the seeds with its Student-t 95 %
interval (common.fmt_mean); a cell with one seed (n = 1) has no interval,
and the text says so. Two cells are compared seed by seed (base.separate,
base.tied_with_best: common.paired, the ratio of their values on the same
seed and its 95 % interval, a paired t on log ratios at n < 6): "tied" =
that interval holds 1; the stampede compares every algorithm with ring (a
fixed reference, the number of comparisons stated); a cell that cannot be
paired (one seed, other seeds) is not ranked.

Subsections (each a table from the summary, with its run; module in
parentheses):
  a. (stampede) stampede on a join and on a death (scenarios add and remove,
     mode sim, at N = 10 the (keys, requests, cache_items) configuration
     with the most algorithms on add: the spec's stampede block, not the
     small sim twin of the memcached block, which only e. uses): extra vs
     predicted reads, moved fraction, how long the stampede lasts, recovery,
     the post-event hit ratio; each algorithm against ring, seed by seed
     (tied with it, fewer or more extra reads), and modulo against ring
     (ratio of the means, and the paired ratio's interval);
  b. (hot) hot keys (scenario none): the busiest server's requests over the
     mean against the Zipf exponent; bounded_load per load factor c, checked
     against its bound ceil(c × bucket requests / live) / (bucket requests /
     live);
  c. (stale) stale views: extra reads and misrouted requests against f, with
     a least-squares slope and a monotonicity check per algorithm;
  d. (cascade) cascades, one table per sizing (cascade_mean: equal servers
     sized for the mean load, the fair comparison; cascade: servers sized
     for the algorithm's own busiest server): servers failed (mean over
     seeds, and the largest) per variant against the start utilization, with
     the servers already over capacity before the death
     (overloaded_before_event) where nonzero; the highest utilization up to
     which every seed had no failure; bounded_load against the others, and
     against its cap's prediction ((N − 1)/(N c) or (N − 1)/N);
  e. (memcached) real memcached against the simulation of the same
     configuration (the sim block with cache_items = 0, no eviction): hit
     ratios within 0.02 and extra reads within 25 % + 40 reads
     (bench/cluster/real_cluster_test.cc), and the real cluster's client
     latency and request rate.
"""

from report.cluster import cascade, hot, memcached, stale, stampede
from report.cluster.base import (EXP, _metric_desc, _run_cite, labels,
                                 per_bucket, per_run, PREFERRED_N,
                                 PREFERRED_ZIPF, SCENARIO_WHAT, var_key)
from report.cluster.cascade import (bounded_sentence, bounded_vs_unbounded,
                                    cascade_findings, CASCADE_SCENARIOS,
                                    safe_groups)
from report.cluster.findings import findings
from report.cluster.hot import hot_findings
from report.cluster.memcached import real_findings, within_tolerance
from report.cluster.readme import (readme_block, readme_rows, README_BEGIN,
                                   README_END)
from report.cluster.stale import stale_findings
from report.cluster.stampede import (cfg_mask, stampede_block,
                                     stampede_configs, stampede_findings)
from report.questions import q

# The subsections' figures, in report order: (stem, caption, draw).
FIGURES = (stampede.FIGURES + hot.FIGURES + stale.FIGURES
           + cascade.FIGURES)
# Where each figure sits: under its subsection's heading.
FIGURE_UNDER = {stem: f"### {q('cluster', part)}." for part, sub in (
    ("a", stampede), ("b", hot), ("c", stale), ("d", cascade))
    for stem, _, _ in sub.FIGURES}


def section(ctx):
    head = (f"## {q('cluster')}. A cache cluster under change: stampedes, "
            "hot keys, "
            "stale views, cascades")
    out = [head, ""]
    e = ctx.exps.get(EXP)
    if e is None:
        return "\n".join(out + [f"_No `{EXP}` results yet._", ""])
    f = findings(ctx)
    cite = _run_cite(ctx)
    ns = sorted(int(x) for x in e.summary["nodes"].dropna().unique())
    out += [
        "The cache cluster of the seed articles, measured "
        "(bench/cluster/cluster.h): clients send cache-aside requests "
        "(Zipf popularity over a universe of URL keys) to N cache servers "
        "placed by each algorithm; a miss reads the database and stores "
        "the key on that server. Each run has one **event** at its event "
        "bucket — a server joins (`add`), the last server dies (`remove`: "
        "each client drops it at its first error), some clients keep the "
        "old view (`stale_view`), or a death triggers overloads "
        "(`cascade`, `cascade_mean`) — and is paired with a **control "
        "run** of the same requests without the event. **extra db "
        "reads** = the run's database reads from the event on minus the "
        "control's; the prediction is moved fraction × hot set (the "
        "keys requested both before and after the event). Mode **sim** "
        "keeps an LRU cache of cache_items keys per server in process "
        "(0: no eviction; deterministic for a seed; a cell's "
        "repetitions are seeds of the key set and request stream); mode "
        "**memcached** replays the same requests on real memcached "
        "servers on 127.0.0.1 (numbers vary run to run).",
        "",
        "- Cells: mean over seeds [Student-t 95 % CI of the mean]; a "
        "single seed (n = 1) has no interval and is not ranked. Two cells "
        "are compared seed by seed: the ratio of their values on the same "
        "seed (the same key set and requests), with its 95 % interval "
        "(paired t on log ratios below 6 seeds); \"tied\" = that interval "
        "holds 1.",
        "- Limits: measured N = " + ", ".join(str(n) for n in ns)
        + (" only" if len(ns) == 1 else "") + "; one event per run; no "
        "application writes (a SET only fills a miss), so a stale copy is "
        "counted as a misrouted request, never read as a wrong value; the "
        "database has no capacity limit (a stampede costs reads, never a "
        "database failure); only the cascade model gives the cache servers "
        "a capacity."]
    out += ["- Metrics: " + "; ".join(_metric_desc(ctx, (
        "extra_db_reads", "stampede_requests", "recovery_requests",
        "recovery_s", "steady_request_max_over_mean", "misrouted_requests",
        "servers_failed", "overloaded_before_event"))) + ".", ""]
    for sub in (stampede, hot, stale, cascade, memcached):
        out += sub.subsection(f, cite)
    return "\n".join(out)


def guide_items(ctx):
    """Decision-guide entries from the cluster data only: hot keys (b),
    cascades (d: cascade_mean, equal servers, first; then the peak-sized
    cascade) and the stampede on a join (a)."""
    f = findings(ctx)
    if f is None:
        return []
    link = ctx.csv_link(EXP)
    return (hot.guide_items(f, link) + cascade.guide_items(f, link)
            + stampede.guide_items(f, link))


__all__ = ["section", "guide_items", "findings", "within_tolerance",
           "stampede_block", "stampede_configs", "cfg_mask",
           "cascade_findings", "readme_block", "README_BEGIN", "README_END",
           "labels", "var_key", "per_run", "per_bucket", "hot_findings",
           "stale_findings", "stampede_findings", "real_findings",
           "readme_rows", "bounded_sentence", "bounded_vs_unbounded",
           "safe_groups", "CASCADE_SCENARIOS", "SCENARIO_WHAT",
           "PREFERRED_N", "PREFERRED_ZIPF", "EXP"]

# Subsections (heading prefixes) shown on the question's page only: the
# real-cluster check of the simulation, for readers who verify it.
PAGE_ONLY = (f"### {q('cluster', 'e')}.",)

// Copyright 2026 The chbench Authors.
//
// -----------------------------------------------------------------------------
// File: metric_registry.h
// -----------------------------------------------------------------------------
//
// The metric registry: one row per metric the runner writes to data.csv
// (`metric` column), with its unit (the `unit` column), which direction is
// better ("lower", "higher", or "none" for references, context and
// fingerprints), whether it is a timing metric (varies run to run; everything
// else is byte-identical across runs and machines), and a one-line
// definition. results/README.md defines the metrics in prose; this table is
// what code reads (IsTimingMetric, `chbench list --json`).
//
// Two rows are patterns: "lookup_ns_ratio_to_<peer>" and
// "lookup_latency_ns_ratio_to_<peer>" stand for one metric per peer
// (bench/peers/peers.h); FindMetric matches them by prefix followed by a
// non-empty name of [a-z0-9_].
//
// Example:
//   const MetricInfo* m = FindMetric("lookup_ns_ratio_to_ring_branchless");
//   // m->name == "lookup_ns_ratio_to_<peer>", m->unit == "ratio", m->timing

#ifndef CHBENCH_EXPERIMENTS_METRIC_REGISTRY_H_
#define CHBENCH_EXPERIMENTS_METRIC_REGISTRY_H_

#include <limits>
#include <span>
#include <string_view>

namespace chbench {

struct MetricInfo {
  std::string_view name;  // exact name, or a pattern ending in "<peer>"
  std::string_view unit;
  std::string_view better;  // "lower", "higher" or "none"
  bool timing;
  std::string_view description;
};

// Every row, timing metrics first, in a stable order.
std::span<const MetricInfo> Metrics();

// The row of `metric` (exact name, or a pattern row for
// "<prefix><peer name>"), or nullptr.
const MetricInfo* FindMetric(std::string_view metric);

// True for a pattern row such as "lookup_ns_ratio_to_<peer>".
bool IsMetricPattern(const MetricInfo& info);

// The values a metric can take: an interval of its summary (summary.csv) is
// truncated to it, so no bound is impossible (a negative count, a max/mean
// below 1). Derived from the row: fractions and probabilities [0, 1];
// "*min_over_mean" [0, 1]; a load's max/mean ("load_", "exact_",
// "replica_load_" or "primary_load_" "*max_over_mean") [1, inf); differences
// ("extra_db_reads", which subtracts the control run's reads) and
// fingerprints (unit "id-fold") unbounded; every other metric (times,
// counts, bytes, rates, ratios) [0, inf). An unknown metric is unbounded.
struct MetricRange {
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
};
MetricRange RangeOfMetric(std::string_view metric);

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_METRIC_REGISTRY_H_

// Copyright 2026 The chbench Authors.
//
// Tests of the metric registry (experiments/metric_registry.h) and of
// IsTimingMetric (spec.h), which reads it.

#include "experiments/metric_registry.h"

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "bench/peers/peers.h"
#include "experiments/spec.h"
#include "gtest/gtest.h"

namespace chbench {
namespace {

TEST(MetricRegistryTest, RowsAreWellFormed) {
  std::set<std::string_view> names;
  for (const MetricInfo& m : Metrics()) {
    SCOPED_TRACE(m.name);
    EXPECT_TRUE(names.insert(m.name).second) << "duplicate";
    EXPECT_TRUE(m.better == "lower" || m.better == "higher" ||
                m.better == "none");
    EXPECT_FALSE(m.unit.empty());
    EXPECT_FALSE(m.description.empty());
    EXPECT_EQ(FindMetric(m.name), &m);
    // results/README.md: anything in ns, 1/s or a ratio_to_ is a timing metric.
    if (m.unit == "ns" || m.unit == "1/s" ||
        m.name.find("ratio_to_") != std::string_view::npos) {
      EXPECT_TRUE(m.timing);
    }
  }
}

TEST(MetricRegistryTest, RatioMetricsMatchEveryPeerByPattern) {
  for (const peers::PeerInfo& p : peers::Peers()) {
    const std::vector<std::string_view> prefixes =
        p.scenario == peers::kBuild
            ? std::vector<std::string_view>{"build_ns_ratio_to_"}
        : p.scenario == peers::kPrehashedBatch
            ? std::vector<std::string_view>{"batch_lookup_ns_ratio_to_"}
            : std::vector<std::string_view>{"lookup_ns_ratio_to_",
                                            "lookup_latency_ns_ratio_to_"};
    for (std::string_view prefix : prefixes) {
      const std::string name = std::string(prefix) + std::string(p.name);
      const MetricInfo* m = FindMetric(name);
      ASSERT_NE(m, nullptr) << name;
      EXPECT_TRUE(IsMetricPattern(*m));
      EXPECT_EQ(m->name, std::string(prefix) + "<peer>");
      EXPECT_EQ(m->unit, "ratio");
      EXPECT_TRUE(IsTimingMetric(name));
    }
  }
  EXPECT_EQ(FindMetric("lookup_ns_ratio_to_"), nullptr);
  EXPECT_EQ(FindMetric("lookup_ns_ratio_to_Ring"), nullptr);
  EXPECT_EQ(FindMetric("lookup_ns_ratio"), nullptr);
  // The batched ratio to the same member's single-key loop is its own row,
  // not a peer's.
  ASSERT_NE(FindMetric("batch_lookup_ns_ratio_to_single"), nullptr);
  EXPECT_FALSE(IsMetricPattern(*FindMetric("batch_lookup_ns_ratio_to_single")));
}

TEST(MetricRegistryTest, IsTimingMetricFollowsTheRegistry) {
  for (const char* t :
       {"lookup_ns", "lookup_latency_ns", "hash_ns", "lookups_per_s",
        "batch_lookups_per_s",
        "build_ns", "add_node_ns", "remove_node_ns", "place_ns", "load_avg_1m",
        "cpu_steal_fraction", "sentinel_ns"}) {
    EXPECT_TRUE(IsTimingMetric(t)) << t;
  }
  for (const char* r : {"checksum", "memory_bytes", "heap_bytes",
                        "moved_fraction", "load_max_over_mean", "share",
                        "load_chi2_pvalue", "no_such_metric"}) {
    EXPECT_FALSE(IsTimingMetric(r)) << r;
  }
}

}  // namespace
}  // namespace chbench

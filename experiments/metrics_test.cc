// Copyright 2026 The chbench Authors.

#include "experiments/metrics.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"

namespace chbench {
namespace {

TEST(MetricsTest, LoadStatsOnHandMadeLoads) {
  const std::vector<uint64_t> loads = {10, 20, 30};
  const LoadStats s = ComputeLoadStats(loads);
  EXPECT_DOUBLE_EQ(s.max_over_mean, 1.5);
  EXPECT_DOUBLE_EQ(s.min_over_mean, 0.5);
  // sqrt((100 + 0 + 100) / 3) / 20
  EXPECT_NEAR(s.rel_stddev, std::sqrt(200.0 / 3) / 20, 1e-12);
  // chi2 = (100 + 0 + 100) / 20 = 10 with df 2: p = exp(-10/2).
  EXPECT_NEAR(s.chi2_pvalue, std::exp(-5.0), 1e-12);
  EXPECT_EQ(s.max, 30u);
  EXPECT_EQ(s.min, 10u);
}

TEST(MetricsTest, ChiSquaredKnownValues) {
  // Tables: P(chi2_1 >= 3.841459) = 0.05, P(chi2_10 >= 18.307038) = 0.05.
  EXPECT_NEAR(ChiSquaredPValue(3.841458820694124, 1), 0.05, 1e-9);
  EXPECT_NEAR(ChiSquaredPValue(18.307038053275146, 10), 0.05, 1e-9);
  EXPECT_DOUBLE_EQ(ChiSquaredPValue(0, 5), 1.0);
}

TEST(MetricsTest, WeightedLoadStats) {
  const std::vector<uint64_t> loads = {100, 300};
  const std::vector<double> shares = {0.25, 0.75};
  const LoadStats s = ComputeLoadStats(loads, shares);
  EXPECT_DOUBLE_EQ(s.max_over_mean, 1.0);
  EXPECT_DOUBLE_EQ(s.min_over_mean, 1.0);
  EXPECT_DOUBLE_EQ(s.chi2_pvalue, 1.0);
}

TEST(MetricsTest, DisruptionOnAdd) {
  // Keys 1 and 4 go to the new node 3 (must move); key 5 moves 2 -> 0 (excess).
  const std::vector<uint32_t> before = {0, 0, 1, 1, 2, 2};
  const std::vector<uint32_t> after = {0, 3, 1, 1, 3, 0};
  const DisruptionStats d = ComputeDisruption(before, after, 3, 4, 3u, {});
  EXPECT_DOUBLE_EQ(d.moved_fraction, 3.0 / 6);
  EXPECT_DOUBLE_EQ(d.moved_excess_fraction, 1.0 / 6);
  EXPECT_DOUBLE_EQ(d.moved_optimal_fraction, 1.0 / 4);
  EXPECT_FALSE(d.receivers.has_value());
  EXPECT_EQ(d.load_max, 2u);
}

TEST(MetricsTest, DisruptionOnSingleRemoval) {
  const std::vector<uint32_t> before = {0, 1, 2, 0, 1, 2};
  const std::vector<uint32_t> removed = {1};
  // Node 1's keys go to 0 and 2; key 0 moves 0 -> 2 without having to.
  const std::vector<uint32_t> after = {2, 0, 2, 0, 2, 2};
  const DisruptionStats d = ComputeDisruption(before, after, 3, 3, {}, removed);
  EXPECT_DOUBLE_EQ(d.moved_fraction, 3.0 / 6);
  EXPECT_DOUBLE_EQ(d.moved_excess_fraction, 1.0 / 6);
  EXPECT_DOUBLE_EQ(d.moved_optimal_fraction, 1.0 / 3);
  ASSERT_TRUE(d.receivers.has_value());
  EXPECT_EQ(*d.receivers, 2u);
  EXPECT_EQ(d.load_max, 4u);
}

TEST(MetricsTest, DisruptionOnBatchRemovalHasNoReceivers) {
  const std::vector<uint32_t> before = {0, 1, 2, 3};
  const std::vector<uint32_t> after = {0, 0, 0, 3};
  const std::vector<uint32_t> removed = {1, 2};
  const DisruptionStats d = ComputeDisruption(before, after, 4, 4, {}, removed);
  EXPECT_DOUBLE_EQ(d.moved_fraction, 0.5);
  EXPECT_DOUBLE_EQ(d.moved_excess_fraction, 0);
  EXPECT_DOUBLE_EQ(d.moved_optimal_fraction, 0.5);
  EXPECT_FALSE(d.receivers.has_value());
  EXPECT_EQ(d.load_max, 3u);
}

TEST(MetricsTest, AnalyticBalance) {
  const AnalyticBalance ideal = IdealUniformBalance(1000000, 100);
  EXPECT_NEAR(ideal.rel_stddev, std::sqrt(99.0 / 1000000), 1e-12);
  // Normal approximation: 1 + sigma/mu * Phi^-1((100-.375)/100.25) ~ 2.46.
  EXPECT_NEAR(ideal.max_over_mean, 1 + 0.00995 * 2.46, 0.003);
  EXPECT_NEAR(ideal.min_over_mean, 1 - 0.00995 * 2.46, 0.003);
  EXPECT_GT(ideal.chi2_pvalue, 0.4);
  EXPECT_LT(ideal.chi2_pvalue, 0.55);
  // Ring, many keys: relative stddev -> sqrt((n-1)/(n v + 1)).
  const AnalyticBalance ring = RingBalance(1ULL << 40, 10, 100);
  EXPECT_NEAR(ring.rel_stddev, std::sqrt(9.0 / 1001), 1e-6);
  // One vnode, 10 nodes: shares ~ exponential; E[max]/mean near H_10 = 2.93.
  const AnalyticBalance one = RingBalance(1ULL << 40, 10, 1);
  EXPECT_GT(one.max_over_mean, 2.3);
  EXPECT_LT(one.max_over_mean, 3.2);
  EXPECT_LT(one.min_over_mean, 0.15);
  EXPECT_LT(ring.chi2_pvalue, 1e-9);
}

TEST(MetricsTest, BoundedLoadBound) {
  EXPECT_DOUBLE_EQ(BoundedLoadBound(1000, 10, 1.25), 1.25);
  EXPECT_DOUBLE_EQ(BoundedLoadBound(1000, 3, 1.1), 367.0 / (1000.0 / 3));
}

TEST(MetricsTest, SummarizeStudentT) {
  const SummaryStats s = Summarize({5, 1, 4, 2, 3});
  EXPECT_EQ(s.n, 5u);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  // t(0.975, 4) = 2.776445105; s = sqrt(2.5).
  const double h = 2.7764451051977987 * std::sqrt(2.5) / std::sqrt(5.0);
  ASSERT_TRUE(s.ci95_low.has_value());
  EXPECT_NEAR(*s.ci95_low, 3 - h, 1e-9);
  EXPECT_NEAR(*s.ci95_high, 3 + h, 1e-9);
  const SummaryStats one = Summarize({7});
  EXPECT_EQ(one.median, 7);
  EXPECT_FALSE(one.ci95_low.has_value());
  EXPECT_DOUBLE_EQ(Summarize({1, 2, 3, 10}).median, 2.5);
}

}  // namespace
}  // namespace chbench

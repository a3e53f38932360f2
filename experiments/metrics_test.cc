// Copyright 2026 The chbench Authors.

#include "experiments/metrics.h"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
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
  // Normal approximation of the expected maximum of 100 loads with relative
  // sigma 0.00995: E[max of 100 N(0,1)] = 2.5076 (tables of expected normal
  // order statistics), so max/mean ~ 1 + 0.00995 * 2.508; the MC mean must
  // land within a few of its standard errors (sd of the max ~ 0.43 sigma).
  EXPECT_NEAR(ideal.max_over_mean, 1 + 0.00995 * 2.5076, 0.0015);
  EXPECT_NEAR(ideal.min_over_mean, 1 - 0.00995 * 2.5076, 0.0015);
  EXPECT_GT(ideal.chi2_pvalue, 0.4);
  EXPECT_LT(ideal.chi2_pvalue, 0.55);
  // Ring, many keys: relative stddev -> sqrt((n-1)/(n v + 1)).
  const AnalyticBalance ring = RingBalance(1ULL << 40, 10, 100);
  EXPECT_NEAR(ring.rel_stddev, std::sqrt(9.0 / 1001), 1e-6);
  EXPECT_LT(ring.chi2_pvalue, 1e-9);
  EXPECT_GT(ring.max_over_mean, 1.05);
  EXPECT_LT(ring.max_over_mean, 1 + 5 * std::sqrt(9.0 / 1001));
  EXPECT_LT(ring.min_over_mean, 0.95);
}

// For v = 1 the expected extremes of the shares are known exactly:
// E[max]/mean = H_n and E[min]/mean = 1/n.
TEST(MetricsTest, RingExtremesExactForOneVnode) {
  double h10 = 0;
  for (int i = 1; i <= 10; ++i) h10 += 1.0 / i;
  EXPECT_NEAR(h10, 2.9289682539682538, 1e-15);
  EXPECT_DOUBLE_EQ(HarmonicNumber(10), h10);
  const AnalyticBalance one = RingBalance(1ULL << 40, 10, 1);
  EXPECT_NEAR(one.max_over_mean, h10, 0.01 * h10);
  EXPECT_NEAR(one.min_over_mean, 0.1, 0.001);
  const AnalyticBalance hundred = RingBalance(1ULL << 40, 100, 1);
  EXPECT_NEAR(hundred.max_over_mean, 5.187377517639621, 0.01 * 5.19);
  EXPECT_NEAR(hundred.min_over_mean, 0.01, 1e-4);
  EXPECT_NEAR(one.load_max, one.max_over_mean * (1ULL << 40) / 10.0, 1);
}

// The Monte-Carlo at v = 2 agrees with the v = 1 limit's direction and with
// an independent check: at v = 2 the shares are Dirichlet(2, ..., 2); for
// n = 2 a share is Beta(2, 2), and E[max(S, 1-S)] = 1/2 + E|S - 1/2| =
// 1/2 + 3/16 (E|S - 1/2| = 2 * int_0^{1/2} (1/2 - s) 6 s (1 - s) ds = 3/16),
// so max/mean = 2 * 0.6875 = 1.375 and min/mean = 0.625.
TEST(MetricsTest, RingExtremesMonteCarloMatchesBetaForTwoNodes) {
  const AnalyticBalance a = RingBalance(1ULL << 40, 2, 2);
  // 200 draws: sd of max/mean = 2 sd(|S-1/2|) ~ 0.22, SE ~ 0.016.
  EXPECT_NEAR(a.max_over_mean, 1.375, 0.06);
  EXPECT_NEAR(a.min_over_mean, 0.625, 0.06);
  EXPECT_NEAR(a.max_over_mean + a.min_over_mean, 2, 1e-6)
      << "two loads sum to m";
}

TEST(MetricsTest, MonteCarloIsDeterministicAndFast) {
  const AnalyticBalance a = RingBalance(1000000, 100, 10);
  const AnalyticBalance b = RingBalance(1000000, 100, 10);
  EXPECT_EQ(a.max_over_mean, b.max_over_mean);
  EXPECT_EQ(a.min_over_mean, b.min_over_mean);
  // More vnodes, more even.
  const AnalyticBalance more = RingBalance(1000000, 100, 100);
  EXPECT_LT(more.max_over_mean, a.max_over_mean);
  EXPECT_GT(more.min_over_mean, a.min_over_mean);
  // n = 10^4 (10^7 keys) within 50 ms on a first (uncached) call.
  const auto t0 = std::chrono::steady_clock::now();
  const AnalyticBalance big = RingBalance(10000000, 10000, 100);
  const double ms = std::chrono::duration<double, std::milli>(
                        std::chrono::steady_clock::now() - t0)
                        .count();
  EXPECT_LT(ms, 50 * 4) << "slow machine margin x4";  // shared 2-core host
  std::printf("RingBalance(1e7, 1e4, 100): %.1f ms\n", ms);
  EXPECT_GT(big.max_over_mean, 1);
  const auto t1 = std::chrono::steady_clock::now();
  const AnalyticBalance ideal = IdealUniformBalance(10000000, 10000);
  std::printf("IdealUniformBalance(1e7, 1e4): %.1f ms\n",
              std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - t1)
                  .count());
  EXPECT_GT(ideal.max_over_mean, 1);
  EXPECT_LT(ideal.max_over_mean, big.max_over_mean);
}

// Degenerate parameters (m = 0, n = 0, v = 0) give NaN, never an exception
// (an exception would escape from a worker thread).
TEST(MetricsTest, DegenerateParametersGiveNaN) {
  for (const AnalyticBalance& a :
       {IdealUniformBalance(0, 8), RingBalance(0, 8, 100), RingBalance(10, 0, 1),
        RingBalance(10, 8, 0), IdealUniformBalance(10, 0)}) {
    EXPECT_TRUE(std::isnan(a.max_over_mean));
    EXPECT_TRUE(std::isnan(a.min_over_mean));
    EXPECT_TRUE(std::isnan(a.rel_stddev));
    EXPECT_TRUE(std::isnan(a.chi2_pvalue));
  }
  EXPECT_TRUE(std::isnan(ChiSquaredPValue(std::nan(""), 3)));
  EXPECT_TRUE(std::isnan(
      ChiSquaredPValue(std::numeric_limits<double>::infinity(), 3)));
  const AnalyticBalance single = RingBalance(100, 1, 10);
  EXPECT_EQ(single.max_over_mean, 1);
  EXPECT_EQ(single.min_over_mean, 1);
}

TEST(MetricsTest, BoundedLoadBound) {
  EXPECT_DOUBLE_EQ(BoundedLoadBound(1000, 10, 1.25), 1.25);
  EXPECT_DOUBLE_EQ(BoundedLoadBound(1000, 3, 1.1), 367.0 / (1000.0 / 3));
}

TEST(MetricsTest, SummarizeStudentT) {
  const std::vector<double> v = {5, 1, 4, 2, 3};
  const SummaryStats s = Summarize(v);
  EXPECT_EQ(s.n, 5u);
  EXPECT_EQ(s.n_eff, 5u);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 5);
  ASSERT_TRUE(s.cv.has_value());
  EXPECT_NEAR(*s.cv, std::sqrt(2.5) / 3, 1e-12);
  // t(0.975, 4) = 2.776445105; s = sqrt(2.5).
  const double h = 2.7764451051977987 * std::sqrt(2.5) / std::sqrt(5.0);
  ASSERT_TRUE(s.mean_ci_low.has_value());
  EXPECT_NEAR(*s.mean_ci_low, 3 - h, 1e-9);
  EXPECT_NEAR(*s.mean_ci_high, 3 + h, 1e-9);
  // n = 5 < 6: no symmetric pair of order statistics covers 95 %.
  EXPECT_FALSE(s.median_ci_low.has_value());
  const std::vector<double> one_value = {7};
  const SummaryStats one = Summarize(one_value);
  EXPECT_EQ(one.median, 7);
  EXPECT_FALSE(one.mean_ci_low.has_value());
  EXPECT_FALSE(one.cv.has_value());
  const std::vector<double> four = {1, 2, 3, 10};
  EXPECT_DOUBLE_EQ(Summarize(four).median, 2.5);
}

// P(j <= B <= n - j), B ~ Binomial(n, 1/2), in exact integer arithmetic.
double ExactCoverage(int n, int j) {
  uint64_t below = 0, c = 1;  // sum_{k < j} C(n, k)
  for (int k = 0; k < j; ++k) {
    below += c;
    c = c * (n - k) / (k + 1);
  }
  return 1 - 2.0 * static_cast<double>(below) / std::ldexp(1.0, n);
}

TEST(MetricsTest, MedianCiFromOrderStatistics) {
  // n = 10: (x_(2), x_(9)) with coverage 1 - 2 (1 + 10) / 1024 = 0.9785;
  // j = 3 would give 1 - 2 * 56 / 1024 = 0.89.
  EXPECT_NEAR(ExactCoverage(10, 2), 0.978515625, 1e-15);
  EXPECT_LT(ExactCoverage(10, 3), 0.95);
  const std::vector<double> v = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
  const SummaryStats s = Summarize(v);
  EXPECT_DOUBLE_EQ(s.median, 5.5);
  ASSERT_TRUE(s.median_ci_low.has_value());
  EXPECT_EQ(*s.median_ci_low, 2);
  EXPECT_EQ(*s.median_ci_high, 9);
  EXPECT_NEAR(*s.median_ci_coverage, 0.978515625, 1e-12);
  // The rank rule against the exact binomial for every n up to 60: the
  // largest j whose coverage is >= 0.95.
  for (int n = 1; n <= 60; ++n) {
    int want = 0;
    for (int j = 1; j <= n / 2; ++j) {
      if (ExactCoverage(n, j) >= 0.95) want = j;
    }
    double cov = 0;
    EXPECT_EQ(MedianCiRank(n, &cov), static_cast<size_t>(want)) << "n=" << n;
    if (want > 0) {
      EXPECT_NEAR(cov, ExactCoverage(n, want), 1e-9) << n;
    }
  }
  EXPECT_EQ(MedianCiRank(5), 0u);
  EXPECT_EQ(MedianCiRank(6), 1u);  // 1 - 2/64 = 0.969
  // Large n does not underflow: about n/2 - 0.98 sqrt(n).
  const size_t j = MedianCiRank(10000);
  EXPECT_NEAR(static_cast<double>(j), 5000 - 0.98 * 100, 2);
  // The interval contains the median even for a skewed sample.
  const std::vector<double> skew = {1, 1, 1, 1, 1, 1, 2, 50, 90, 100, 1000};
  const SummaryStats k = Summarize(skew);
  EXPECT_LE(*k.median_ci_low, k.median);
  EXPECT_GE(*k.median_ci_high, k.median);
}

TEST(MetricsTest, NEffOneDropsIntervals) {
  const std::vector<double> v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const SummaryStats s = Summarize(v, /*n_eff_one=*/true);
  EXPECT_EQ(s.n, 10u);
  EXPECT_EQ(s.n_eff, 1u);
  EXPECT_FALSE(s.median_ci_low.has_value());
  EXPECT_FALSE(s.mean_ci_low.has_value());
  EXPECT_TRUE(s.cv.has_value());
  // NaN values are skipped.
  const std::vector<double> with_nan = {1, std::nan(""), 3};
  const SummaryStats t = Summarize(with_nan);
  EXPECT_EQ(t.n, 2u);
  EXPECT_DOUBLE_EQ(t.median, 2);
}

}  // namespace
// The mean's t-interval never leaves the metric's range: three spread-out
// counts give a lower bound below 0 untruncated, 0 truncated; a max/mean
// near 1 gives a lower bound of 1, and the point estimates are untouched.
TEST(MetricsTest, MeanIntervalIsTruncatedToTheMetricsRange) {
  const std::vector<double> reads = {100, 4000, 9000};
  const SummaryStats raw = Summarize(reads);
  ASSERT_TRUE(raw.mean_ci_low.has_value());
  EXPECT_LT(*raw.mean_ci_low, 0);
  const SummaryStats cut = Summarize(reads, false, RangeOfMetric("db_reads"));
  EXPECT_EQ(*cut.mean_ci_low, 0);
  EXPECT_DOUBLE_EQ(*cut.mean_ci_high, *raw.mean_ci_high);
  EXPECT_DOUBLE_EQ(cut.mean, raw.mean);
  const std::vector<double> ratio = {1.01, 1.3, 1.02};
  const SummaryStats r =
      Summarize(ratio, false, RangeOfMetric("load_max_over_mean"));
  EXPECT_EQ(*r.mean_ci_low, 1);
  const std::vector<double> frac = {0.05, 0.9, 0.99};
  const SummaryStats f = Summarize(frac, false, RangeOfMetric("hit_ratio"));
  EXPECT_GE(*f.mean_ci_low, 0);
  EXPECT_EQ(*f.mean_ci_high, 1);
}

TEST(MetricsTest, RangeOfMetricFollowsTheRow) {
  EXPECT_EQ(RangeOfMetric("lookup_ns").lower, 0);
  EXPECT_TRUE(std::isinf(RangeOfMetric("lookup_ns").upper));
  EXPECT_EQ(RangeOfMetric("lookup_ns_ratio_to_ring_branchless").lower, 0);
  EXPECT_EQ(RangeOfMetric("moved_fraction").upper, 1);
  EXPECT_EQ(RangeOfMetric("load_min_over_mean").upper, 1);
  EXPECT_EQ(RangeOfMetric("load_max_over_mean").lower, 1);
  // A bucket without requests has request max/mean 0.
  EXPECT_EQ(RangeOfMetric("request_max_over_mean").lower, 0);
  // A difference and a fingerprint are unbounded; so is an unknown metric.
  EXPECT_TRUE(std::isinf(RangeOfMetric("extra_db_reads").lower));
  EXPECT_TRUE(std::isinf(RangeOfMetric("checksum").lower));
  EXPECT_TRUE(std::isinf(RangeOfMetric("no_such_metric").lower));
}

}  // namespace chbench

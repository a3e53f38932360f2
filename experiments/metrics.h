// Copyright 2026 The chbench Authors.
//
// The metrics of the experiment runner, as pure functions of loads and
// mappings, so that tests can check them on hand-made inputs.
//
//   * ComputeLoadStats: balance of per-node key counts (max/mean, min/mean,
//     relative standard deviation, chi-squared p-value against the expected
//     shares).
//   * ComputeDisruption: what moved between two mappings of the same keys.
//   * IdealUniformBalance / RingBalance / BoundedLoadBound: the analytic
//     expectations written beside the measurements (models below).
//   * Summarize: n, n_eff, median with its own distribution-free 95 % CI,
//     min, max, CV, mean with its Student-t 95 % CI (summary.csv columns).
//
// No function here throws: degenerate inputs (m = 0 keys, n = 0 nodes,
// v = 0 points, non-finite statistics) give NaN or empty intervals.

#ifndef CHBENCH_EXPERIMENTS_METRICS_H_
#define CHBENCH_EXPERIMENTS_METRICS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "experiments/metric_registry.h"

namespace chbench {

struct LoadStats {
  double max_over_mean = 0;
  double min_over_mean = 0;
  double rel_stddev = 0;   // population standard deviation / mean
  double chi2_pvalue = 0;  // upper tail, df = nodes - 1
  uint64_t max = 0;
  uint64_t min = 0;
};

// `loads[i]` = keys on node i. `shares` (optional, same size, summing to 1)
// are the expected fractions for the chi-squared test and the mean used in
// max/mean and min/mean (load_i / (m * share_i)); empty = equal shares.
LoadStats ComputeLoadStats(std::span<const uint64_t> loads,
                           std::span<const double> shares = {});

// P(X >= stat) for X ~ chi-squared with `df` degrees of freedom
// (Boost.Math chi_squared, complement of the CDF). 1 when df < 1.
double ChiSquaredPValue(double stat, double df);

struct DisruptionStats {
  double moved_fraction = 0;          // keys whose owner changed / keys
  double moved_optimal_fraction = 0;  // 1/(N+1) on add, r/N on removal
  double moved_excess_fraction = 0;   // moved although they did not have to
  std::optional<uint64_t> receivers;  // single removal only
  uint64_t load_max = 0;              // keys on the busiest node after
};

// `before[k]` and `after[k]` are the owners of key k as indices into one
// node space of size `node_space` (node i keeps index i across the change).
// `nodes_before` is N. Add: `added` is the new node's index, `removed` is
// empty. Removal: `removed` lists the removed indices (r of them).
// Must move: on add, the keys that went to the new node; on removal, the keys
// of removed nodes. Excess = moved keys outside that set.
DisruptionStats ComputeDisruption(std::span<const uint32_t> before,
                                  std::span<const uint32_t> after,
                                  size_t nodes_before, size_t node_space,
                                  std::optional<uint32_t> added,
                                  std::span<const uint32_t> removed);

// Analytic expectation of the balance metrics. The extremes are EXPECTED
// values (means over the model's randomness) of max/mean and min/mean, so the
// runner must compare them with the MEAN of the measured ratios over
// repetitions (with the mean's CI), not with their median. rel_stddev is the
// standard deviation of one node's load over its mean (a per-node moment,
// not the expectation of the measured population statistic). NaN everywhere
// when m = 0, n = 0 or v = 0.
struct AnalyticBalance {
  double max_over_mean = 1;
  double min_over_mean = 1;
  double rel_stddev = 0;
  double chi2_pvalue = 1;  // p-value of the expected chi-squared statistic
  double load_max = 0;
  double load_min = 0;
};

// m keys thrown independently and uniformly on n nodes (multinomial; each
// load Binomial(m, 1/n)). Var(L)/mean^2 = (n-1)/m. Extremes: the mean of
// max/mean and min/mean over a fixed-seed Monte-Carlo of the multinomial
// (kBalanceDraws draws, see RingBalance).
AnalyticBalance IdealUniformBalance(uint64_t m, uint32_t n);

// Monte-Carlo draws behind the expected extremes (fewer for large n; see
// BalanceDraws in metrics.cc) and the fixed seed that makes them
// deterministic: the same (m, n, v) gives the same values on every call and
// machine (own generators, no std:: distributions).
inline constexpr int kBalanceDraws = 200;
inline constexpr uint64_t kBalanceSeed = 0x62616c616e6365ULL;  // "balance"

// Hash ring with n nodes of v points each (points uniform on the circle).
// A node's share S of the circle is the sum of v of the n*v spacings, i.e.
// S ~ Beta(v, (n-1)v) (standard result on uniform spacings: David &
// Nagaraja, "Order Statistics", 3rd ed., 2003, sec. 6.4; the 1/sqrt(v)
// behaviour is the O(log n) vnode argument of Karger et al., STOC 1997):
//   E[S] = 1/n,  Var(S) = (n-1) / (n^2 (n v + 1)),
//   relative stddev of S = sqrt((n-1)/(n v + 1)) ~ 1/sqrt(v).
// Keys add binomial noise: Var(L) = m E[S(1-S)] + m^2 Var(S).
//
// Expected extremes.
//   * v = 1: exact for the shares. The n spacings of n uniform points are
//     exchangeable with E[max] = H_n / n and E[min] = 1 / n^2 (David &
//     Nagaraja, sec. 6.4), so E[max share]/mean = H_n (the n-th harmonic
//     number) and E[min share]/mean = 1/n. Binomial key noise is ignored
//     (it matters only when m/n is small).
//   * v > 1: Monte-Carlo of the stated model: shares (S_1..S_n) ~
//     Dirichlet(v, ..., v) (a node's share is the sum of v of the n v
//     exchangeable spacings) drawn as normalized Gamma(v, 1) variates, then
//     multinomial keys (conditional binomials); the mean over the draws of
//     max L / (m/n) and min L / (m/n). Deterministic (kBalanceSeed) and
//     cached per (m, n, v).
AnalyticBalance RingBalance(uint64_t m, uint32_t n, uint32_t v);

// The n-th harmonic number 1 + 1/2 + ... + 1/n (0 for n = 0).
double HarmonicNumber(uint32_t n);

// The bounded-load cap: ceil(c*m/n) / (m/n) (Mirrokni, Thorup &
// Zadimoghaddam, SODA 2018).
double BoundedLoadBound(uint64_t m, uint32_t n, double c);

// The summary of one group of values (summary.csv; definitions in
// results/README.md). Empty optionals are empty CSV fields.
struct SummaryStats {
  size_t n = 0;      // values (NaN values are skipped and not counted)
  size_t n_eff = 0;  // n, or 1 when the values are not independent
  double median = 0;  // of the sorted values; the mean of the middle two
  // Distribution-free 95 % CI of the median: (x_(j), x_(n+1-j)) for the
  // largest j with P(j <= B <= n - j) >= 0.95, B ~ Binomial(n, 1/2)
  // (x_(i) the i-th smallest, 1-based). Empty when n < 6 or n_eff == 1.
  std::optional<double> median_ci_low, median_ci_high;
  std::optional<double> median_ci_coverage;  // the exact coverage, >= 0.95
  double min = 0, max = 0;
  std::optional<double> cv;  // sample sd / mean; empty n < 2 or mean == 0
  double mean = 0;
  // mean -+ t(0.975, n-1) s / sqrt(n), truncated to the metric's range;
  // empty when n < 2 or n_eff == 1.
  std::optional<double> mean_ci_low, mean_ci_high;
};
// `n_eff_one`: the values are repetitions that are not independent (e.g. the
// words key set using more than half the dictionary): n_eff = 1 and no CI.
// `range`: the values the metric can take (RangeOfMetric); the mean's
// interval is truncated to it (the median's is made of observed values).
SummaryStats Summarize(std::span<const double> values, bool n_eff_one = false,
                       MetricRange range = {});

// The order-statistic index j (1-based) of the median's 95 % CI for n values
// (see SummaryStats), or 0 when no symmetric pair reaches 95 % (n < 6).
// `coverage` (optional) receives P(j <= B <= n - j).
size_t MedianCiRank(size_t n, double* coverage = nullptr);

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_METRICS_H_

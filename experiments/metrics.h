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
//     expectations written beside the measurements (formulas below).
//   * Summarize: median, mean and Student-t 95 % interval over repetitions.

#ifndef CHBENCH_EXPERIMENTS_METRICS_H_
#define CHBENCH_EXPERIMENTS_METRICS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

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

// Analytic expectation of the balance metrics.
struct AnalyticBalance {
  double max_over_mean = 1;
  double min_over_mean = 1;
  double rel_stddev = 0;
  double chi2_pvalue = 1;  // p-value of the expected chi-squared statistic
  double load_max = 0;
  double load_min = 0;
};

// m keys thrown independently and uniformly on n nodes (multinomial; each
// load Binomial(m, 1/n)). Var(L)/mean^2 = (n-1)/m.
AnalyticBalance IdealUniformBalance(uint64_t m, uint32_t n);

// Hash ring with n nodes of v points each (points uniform on the circle).
// A node's share S of the circle is the sum of v of the n*v spacings, i.e.
// S ~ Beta(v, (n-1)v) (standard result on uniform spacings: David &
// Nagaraja, "Order Statistics", 3rd ed., 2003, sec. 6.4; the 1/sqrt(v)
// behaviour is the O(log n) vnode argument of Karger et al., STOC 1997):
//   E[S] = 1/n,  Var(S) = (n-1) / (n^2 (n v + 1)),
//   relative stddev of S = sqrt((n-1)/(n v + 1)) ~ 1/sqrt(v).
// Keys add binomial noise: Var(L) = m E[S(1-S)] + m^2 Var(S).
AnalyticBalance RingBalance(uint64_t m, uint32_t n, uint32_t v);

// The bounded-load cap: ceil(c*m/n) / (m/n) (Mirrokni, Thorup &
// Zadimoghaddam, SODA 2018).
double BoundedLoadBound(uint64_t m, uint32_t n, double c);

struct SummaryStats {
  size_t n = 0;
  double median = 0;
  double mean = 0;
  std::optional<double> ci95_low;   // mean - t(0.975, n-1) s / sqrt(n)
  std::optional<double> ci95_high;  // empty when n < 2
};
SummaryStats Summarize(std::vector<double> values);

}  // namespace chbench

#endif  // CHBENCH_EXPERIMENTS_METRICS_H_

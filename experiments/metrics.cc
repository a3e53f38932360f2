// Copyright 2026 The chbench Authors.
//
// Expected extremes. For both analytic models the load L of one node has
// mean mu = m/n and relative variance r = Var(L)/mu^2 (header). We match a
// Gamma distribution with shape 1/r and scale mu*r to these two moments
// (exact in the limit v = 1, where a share is ~exponential, and ~normal for
// small r) and take the expected largest of n draws as its quantile at
// Blom's plotting position (n - 0.375) / (n + 0.25) (G. Blom, "Statistical
// Estimates and Transformed Beta-Variables", Wiley 1958), the smallest at
// 0.625 / (n + 0.25). The dependence between loads (they sum to m) is
// ignored; it matters only for very small n.
//
// Chi-squared expectation: since the loads sum to m, E[sum (L-mu)^2 / mu] =
// n Var(L) / mu; the analytic p-value is the upper tail at that statistic
// (for the ideal multinomial: statistic n - 1 = df, p ~ 0.44 to 0.5).

#include "experiments/metrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_set>

#include "boost/math/distributions/chi_squared.hpp"
#include "boost/math/distributions/gamma.hpp"
#include "boost/math/distributions/students_t.hpp"

namespace chbench {

double ChiSquaredPValue(double stat, double df) {
  if (df < 1) return 1.0;
  boost::math::chi_squared_distribution<double> dist(df);
  return boost::math::cdf(boost::math::complement(dist, std::max(stat, 0.0)));
}

LoadStats ComputeLoadStats(std::span<const uint64_t> loads,
                           std::span<const double> shares) {
  LoadStats s;
  const size_t n = loads.size();
  if (n == 0) return s;
  double m = 0;
  for (uint64_t l : loads) m += static_cast<double>(l);
  s.max = *std::max_element(loads.begin(), loads.end());
  s.min = *std::min_element(loads.begin(), loads.end());
  const bool weighted = shares.size() == n;
  double max_ratio = 0, min_ratio = INFINITY, chi2 = 0, sq = 0;
  const double mean = m / static_cast<double>(n);
  for (size_t i = 0; i < n; ++i) {
    const double expected =
        weighted ? m * shares[i] : mean;
    const double l = static_cast<double>(loads[i]);
    const double ratio = expected > 0 ? l / expected : 0;
    max_ratio = std::max(max_ratio, ratio);
    min_ratio = std::min(min_ratio, ratio);
    if (expected > 0) chi2 += (l - expected) * (l - expected) / expected;
    sq += (l - mean) * (l - mean);
  }
  s.max_over_mean = max_ratio;
  s.min_over_mean = min_ratio;
  s.rel_stddev =
      mean > 0 ? std::sqrt(sq / static_cast<double>(n)) / mean : 0;
  s.chi2_pvalue = ChiSquaredPValue(chi2, static_cast<double>(n) - 1);
  return s;
}

DisruptionStats ComputeDisruption(std::span<const uint32_t> before,
                                  std::span<const uint32_t> after,
                                  size_t nodes_before, size_t node_space,
                                  std::optional<uint32_t> added,
                                  std::span<const uint32_t> removed) {
  DisruptionStats d;
  const size_t m = before.size();
  std::vector<bool> is_removed(node_space, false);
  for (uint32_t r : removed) is_removed[r] = true;
  std::vector<uint64_t> load(node_space, 0);
  std::vector<bool> receiver(node_space, false);
  uint64_t moved = 0, excess = 0;
  for (size_t k = 0; k < m; ++k) {
    const uint32_t b = before[k], a = after[k];
    ++load[a];
    if (a == b) continue;
    ++moved;
    const bool must = added.has_value() ? a == *added : is_removed[b];
    if (!must) ++excess;
    if (is_removed[b]) receiver[a] = true;
  }
  const double md = m > 0 ? static_cast<double>(m) : 1.0;
  d.moved_fraction = static_cast<double>(moved) / md;
  d.moved_excess_fraction = static_cast<double>(excess) / md;
  if (added.has_value()) {
    d.moved_optimal_fraction = 1.0 / static_cast<double>(nodes_before + 1);
  } else {
    d.moved_optimal_fraction = static_cast<double>(removed.size()) /
                               static_cast<double>(nodes_before);
  }
  if (!added.has_value() && removed.size() == 1) {
    d.receivers = static_cast<uint64_t>(
        std::count(receiver.begin(), receiver.end(), true));
  }
  d.load_max = node_space ? *std::max_element(load.begin(), load.end()) : 0;
  return d;
}

namespace {

AnalyticBalance FromRelVar(uint64_t m, uint32_t n, double relvar) {
  AnalyticBalance a;
  const double mu = static_cast<double>(m) / n;
  a.rel_stddev = std::sqrt(relvar);
  if (n > 1 && relvar > 0) {
    boost::math::gamma_distribution<double> g(1.0 / relvar, relvar);
    a.max_over_mean = boost::math::quantile(g, (n - 0.375) / (n + 0.25));
    a.min_over_mean = boost::math::quantile(g, 0.625 / (n + 0.25));
  }
  // Expected chi-squared statistic n Var(L)/mu = n * mu * relvar.
  a.chi2_pvalue = ChiSquaredPValue(n * mu * relvar, n - 1.0);
  a.load_max = a.max_over_mean * mu;
  a.load_min = a.min_over_mean * mu;
  return a;
}

}  // namespace

AnalyticBalance IdealUniformBalance(uint64_t m, uint32_t n) {
  return FromRelVar(m, n, (n - 1.0) / static_cast<double>(m));
}

AnalyticBalance RingBalance(uint64_t m, uint32_t n, uint32_t v) {
  const double nd = n, md = static_cast<double>(m);
  const double var_s = (nd - 1) / (nd * nd * (nd * v + 1));
  const double e_s = 1 / nd;
  const double var_l = md * (e_s - var_s - e_s * e_s) + md * md * var_s;
  const double mu = md / nd;
  return FromRelVar(m, n, var_l / (mu * mu));
}

double BoundedLoadBound(uint64_t m, uint32_t n, double c) {
  const double mean = static_cast<double>(m) / n;
  return std::ceil(c * mean) / mean;
}

SummaryStats Summarize(std::vector<double> values) {
  SummaryStats s;
  s.n = values.size();
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  s.median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  // Sum in sorted order so the result does not depend on input order.
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / n;
  if (n >= 2) {
    double ss = 0;
    for (double v : values) ss += (v - s.mean) * (v - s.mean);
    const double sd = std::sqrt(ss / (n - 1.0));
    boost::math::students_t_distribution<double> t(n - 1.0);
    const double h = boost::math::quantile(t, 0.975) * sd / std::sqrt(1.0 * n);
    s.ci95_low = s.mean - h;
    s.ci95_high = s.mean + h;
  }
  return s;
}

}  // namespace chbench
